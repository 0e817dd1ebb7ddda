//! Writes: PutItem, UpdateItem and DeleteItem on one table, with conditions and ReturnValues.
//! The bookkeeping (capacity, indexes, TTL, item collections) is `Table::write`'s.

use std::sync::Arc;

use crate::engine::expr::{Condition, Update};
use crate::engine::time::SimTime;
use crate::engine::value::{Item, MAX_ITEM_BYTES, check_document, item_size};

use super::error::StoreError;
use super::key::PrimaryKey;
use super::requests::{ReturnValues, WriteOutput};
use super::table::{Stored, Table};

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::Validation(message.into())
}

const EMPTY: &Item = &Item::new();

/// DynamoDB's messages for an item past 400 KB (as reproduced by dynalite and moto).
const ITEM_TOO_BIG: &str = "Item size has exceeded the maximum allowed size";
const UPDATED_ITEM_TOO_BIG: &str = "Item size to update has exceeded the maximum allowed size";

/// PutItem and DeleteItem return nothing or the old item (DynamoDB's rule).
fn check_put_delete_return_values(return_values: ReturnValues) -> Result<(), StoreError> {
    match return_values {
        ReturnValues::None | ReturnValues::AllOld => Ok(()),
        _ => Err(invalid("ReturnValues can only be ALL_OLD or NONE")),
    }
}

impl Table {
    /// Validates an item to be written and stores its size with it: index key attributes typed,
    /// non-empty and within the key quotas, names non-empty, at most 32 levels, at most 400 KB.
    pub(crate) fn prepare_item(&self, item: Item) -> Result<(PrimaryKey, Stored), StoreError> {
        let key = self.spec.key.key_of_item(&item)?;
        let stored = self.check_item(item, ITEM_TOO_BIG)?;
        Ok((key, stored))
    }

    /// `too_big` is the message for an item past 400 KB: DynamoDB words it differently for
    /// PutItem and for UpdateItem.
    fn check_item(&self, item: Item, too_big: &str) -> Result<Stored, StoreError> {
        for index in self.spec.global.iter().chain(&self.spec.local) {
            index.key.check_index_key(&item, &index.name)?;
        }
        // Input values were checked as they were read; this catches what an update built from
        // them (`SET a.b = :deep` nests `:deep` one level further down).
        check_document(&item).map_err(|e| invalid(e.to_string()))?;
        let size = item_size(&item);
        if size > MAX_ITEM_BYTES {
            return Err(invalid(too_big));
        }
        let size = u32::try_from(size).expect("at most 409,600 bytes");
        Ok(Stored { item: Arc::new(item), size })
    }

    /// Evaluates a condition against the current item (an absent item is an empty map); when it
    /// fails, the error carries the charge: `max(old, new)` write units.
    fn check_condition(
        &self,
        condition: Option<&Condition>,
        key: &PrimaryKey,
        new_size: impl FnOnce() -> u64,
    ) -> Result<(), StoreError> {
        let Some(condition) = condition else { return Ok(()) };
        let old = self.get(key);
        if condition.evaluate(old.map_or(EMPTY, |s| &s.item))? {
            return Ok(());
        }
        let old_size = old.map_or(0, |s| u64::from(s.size));
        let consumed = self.failed_write_charge(key, old_size, new_size());
        Err(StoreError::ConditionalCheckFailed { consumed: Box::new(consumed) })
    }

    pub(crate) fn put_item(
        &mut self,
        item: Item,
        condition: Option<&Condition>,
        return_values: ReturnValues,
        now: SimTime,
    ) -> Result<WriteOutput, StoreError> {
        check_put_delete_return_values(return_values)?;
        let (key, stored) = self.prepare_item(item)?;
        self.check_condition(condition, &key, || u64::from(stored.size))?;
        let (old, consumed) = self.write(key, Some(stored), now)?;
        let attributes = match return_values {
            ReturnValues::AllOld => old.map(|s| s.item),
            _ => None,
        };
        Ok(WriteOutput { attributes, consumed })
    }

    pub(crate) fn delete_item(
        &mut self,
        key: &Item,
        condition: Option<&Condition>,
        return_values: ReturnValues,
        now: SimTime,
    ) -> Result<WriteOutput, StoreError> {
        check_put_delete_return_values(return_values)?;
        let key = self.spec.key.key_from_request(key)?;
        self.check_condition(condition, &key, || 0)?;
        let (old, consumed) = self.write(key, None, now)?;
        let attributes = match return_values {
            ReturnValues::AllOld => old.map(|s| s.item),
            _ => None,
        };
        Ok(WriteOutput { attributes, consumed })
    }

    pub(crate) fn update_item(
        &mut self,
        key: &Item,
        update: Option<&Update>,
        condition: Option<&Condition>,
        return_values: ReturnValues,
        now: SimTime,
    ) -> Result<WriteOutput, StoreError> {
        let key = self.spec.key.key_from_request(key)?;
        if let Some(update) = update {
            let written = update.attributes();
            if let Some(attribute) = self.spec.key.attributes().find(|a| written.contains(&a.name)) {
                return Err(invalid(format!(
                    "One or more parameter values were invalid: Cannot update attribute {}. This attribute is part of the key",
                    attribute.name
                )));
            }
        }
        let old = self.get(&key).cloned();
        let apply = |old: Option<&Stored>| -> Result<Item, StoreError> {
            let mut item = old.map_or_else(|| key.to_item(&self.spec.key), |s| s.item.as_ref().clone());
            if let Some(update) = update {
                update.apply(&mut item)?;
            }
            Ok(item)
        };
        self.check_condition(condition, &key, || apply(old.as_ref()).map_or(0, |i| item_size(&i) as u64))?;
        let new = self.check_item(apply(old.as_ref())?, UPDATED_ITEM_TOO_BIG)?;
        let new_item = Arc::clone(&new.item);
        let (old, consumed) = self.write(key, Some(new), now)?;
        let updated = |item: Option<&Arc<Item>>| -> Option<Arc<Item>> {
            let (update, item) = (update?, item?);
            let projected = update.updated_paths().apply(item);
            (!projected.is_empty()).then(|| Arc::new(projected))
        };
        let attributes = match return_values {
            ReturnValues::None => None,
            ReturnValues::AllOld => old.map(|s| s.item),
            ReturnValues::AllNew => Some(new_item),
            ReturnValues::UpdatedOld => updated(old.as_ref().map(|s| &s.item)),
            ReturnValues::UpdatedNew => updated(Some(&new_item)),
        };
        Ok(WriteOutput { attributes, consumed })
    }
}
