//! Applying a parsed update to an item, all or nothing.
//!
//! Every operand reads the item as it was before the update (DynamoDB: `SET a = b, b = a`
//! swaps; `REMOVE a SET b = a` copies the old `a`). So the update runs in two phases: first
//! every action is checked and its new value computed against the untouched item, then the
//! writes land, puts in path order (so SETs past the end of a list append in index order) and
//! removals in reverse path order (so removing `a[1]` and `a[3]` both mean the original
//! elements). Any error in the first phase leaves the item unchanged.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::ExprError;
use super::ast::{Action, SetOperand, SetValue};
use super::path::{Path, Step, lookup};
use crate::engine::number::NumberError;
use crate::engine::value::{AttributeValue, Item};

const MISSING_ATTRIBUTE: &str =
    "The provided expression refers to an attribute that does not exist in the item";
const WRONG_TYPE: &str = "An operand in the update expression has an incorrect data type";
const INVALID_PATH: &str = "The document path provided in the update expression is invalid for update";
/// The invariant phase two relies on.
const CHECKED: &str = "the first phase checked every write's parent against the item, and writes never \
                       overlap, so the parent is still there";

fn error(message: &str) -> ExprError {
    ExprError { message: message.to_owned() }
}

fn number_error(e: &NumberError) -> ExprError {
    ExprError { message: e.to_string() }
}

enum Write<'u> {
    Put(&'u Path, AttributeValue),
    Remove(&'u Path),
}

/// `actions` must be sorted by path (`Update` keeps them so).
pub(super) fn apply(actions: &[Action], item: &mut Item) -> Result<(), ExprError> {
    let mut writes = Vec::with_capacity(actions.len());
    for action in actions {
        if let Some(write) = plan(action, item)? {
            writes.push(write);
        }
    }
    for write in &mut writes {
        if let Write::Put(path, value) = write {
            put(item, path, std::mem::replace(value, AttributeValue::Null));
        }
    }
    for write in writes.iter().rev() {
        if let Write::Remove(path) = write {
            remove(item, path);
        }
    }
    Ok(())
}

/// What one action will write, checked against the item before any write.
fn plan<'u>(action: &'u Action, item: &Item) -> Result<Option<Write<'u>>, ExprError> {
    match action {
        Action::Set(path, value) => {
            let value = set_value(value, item)?;
            check_parent(path, item)?;
            Ok(Some(Write::Put(path, value)))
        }
        Action::Remove(path) => {
            if path.is_top_level() {
                return Ok(item.contains_key(path.top()).then_some(Write::Remove(path)));
            }
            let present = match (lookup(item, path.parent_steps()), path.last()) {
                (Some(AttributeValue::M(map)), Step::Key(key)) => map.contains_key(key),
                (Some(AttributeValue::L(list)), Step::Index(index)) => *index < list.len(),
                // DynamoDB ignores any REMOVE on an item that does not exist yet.
                (None, _) if item.is_empty() => false,
                _ => return Err(error(INVALID_PATH)),
            };
            Ok(present.then_some(Write::Remove(path)))
        }
        Action::Add(path, value) => {
            check_parent(path, item)?;
            let new = match (path.lookup(item), value) {
                (None, value) => value.clone(),
                (Some(AttributeValue::N(old)), AttributeValue::N(add)) => {
                    AttributeValue::N(old.checked_add(add).map_err(|e| number_error(&e))?)
                }
                (Some(AttributeValue::Ss(old)), AttributeValue::Ss(add)) => {
                    AttributeValue::Ss(old.union(add).cloned().collect())
                }
                (Some(AttributeValue::Ns(old)), AttributeValue::Ns(add)) => {
                    AttributeValue::Ns(old.union(add).cloned().collect())
                }
                (Some(AttributeValue::Bs(old)), AttributeValue::Bs(add)) => {
                    AttributeValue::Bs(old.union(add).cloned().collect())
                }
                _ => return Err(error(WRONG_TYPE)),
            };
            Ok(Some(Write::Put(path, new)))
        }
        Action::Delete(path, value) => {
            check_parent(path, item)?;
            let left = match (path.lookup(item), value) {
                (None, _) => return Ok(None),
                (Some(AttributeValue::Ss(old)), AttributeValue::Ss(take)) => {
                    AttributeValue::Ss(old.difference(take).cloned().collect())
                }
                (Some(AttributeValue::Ns(old)), AttributeValue::Ns(take)) => {
                    AttributeValue::Ns(old.difference(take).cloned().collect())
                }
                (Some(AttributeValue::Bs(old)), AttributeValue::Bs(take)) => {
                    AttributeValue::Bs(old.difference(take).cloned().collect())
                }
                _ => return Err(error(WRONG_TYPE)),
            };
            // DynamoDB stores no empty set: deleting every element removes the attribute.
            let emptied = match &left {
                AttributeValue::Ss(set) => set.is_empty(),
                AttributeValue::Ns(set) => set.is_empty(),
                AttributeValue::Bs(set) => set.is_empty(),
                _ => false,
            };
            Ok(Some(if emptied { Write::Remove(path) } else { Write::Put(path, left) }))
        }
    }
}

/// A nested write needs its parent: a map for `.key`, a list for `[index]`.
fn check_parent(path: &Path, item: &Item) -> Result<(), ExprError> {
    if path.is_top_level() {
        return Ok(());
    }
    match (lookup(item, path.parent_steps()), path.last()) {
        (Some(AttributeValue::M(_)), Step::Key(_)) | (Some(AttributeValue::L(_)), Step::Index(_)) => Ok(()),
        _ => Err(error(INVALID_PATH)),
    }
}

fn set_value(value: &SetValue, item: &Item) -> Result<AttributeValue, ExprError> {
    let (a, b, plus) = match value {
        SetValue::Operand(operand) => return Ok(set_operand(operand, item)?.into_owned()),
        SetValue::Plus(a, b) => (a, b, true),
        SetValue::Minus(a, b) => (a, b, false),
    };
    let (a, b) = (set_operand(a, item)?, set_operand(b, item)?);
    let (AttributeValue::N(a), AttributeValue::N(b)) = (&*a, &*b) else {
        return Err(error(WRONG_TYPE));
    };
    let sum = if plus { a.checked_add(b) } else { a.checked_sub(b) };
    Ok(AttributeValue::N(sum.map_err(|e| number_error(&e))?))
}

fn set_operand<'a>(operand: &'a SetOperand, item: &'a Item) -> Result<Cow<'a, AttributeValue>, ExprError> {
    match operand {
        SetOperand::Path(path) => {
            path.lookup(item).map(Cow::Borrowed).ok_or_else(|| error(MISSING_ATTRIBUTE))
        }
        SetOperand::Value(value) => Ok(Cow::Borrowed(value)),
        SetOperand::IfNotExists(path, fallback) => match path.lookup(item) {
            Some(value) => Ok(Cow::Borrowed(value)),
            None => set_operand(fallback, item),
        },
        SetOperand::ListAppend(a, b) => {
            let (a, b) = (set_operand(a, item)?, set_operand(b, item)?);
            let (AttributeValue::L(a), AttributeValue::L(b)) = (&*a, &*b) else {
                return Err(error(WRONG_TYPE));
            };
            Ok(Cow::Owned(AttributeValue::L(a.iter().chain(b).cloned().collect())))
        }
    }
}

fn put(item: &mut Item, path: &Path, value: AttributeValue) {
    if path.is_top_level() {
        insert(item, path.top(), value);
        return;
    }
    match (lookup_mut(item, path.parent_steps()).expect(CHECKED), path.last()) {
        (AttributeValue::M(map), Step::Key(key)) => insert(map, key, value),
        // SET past the end of a list appends (AWS guide "Update expressions").
        (AttributeValue::L(list), Step::Index(index)) => match list.get_mut(*index) {
            Some(slot) => *slot = value,
            None => list.push(value),
        },
        _ => unreachable!("{CHECKED}"),
    }
}

fn remove(item: &mut Item, path: &Path) {
    if path.is_top_level() {
        item.remove(path.top());
        return;
    }
    match (lookup_mut(item, path.parent_steps()).expect(CHECKED), path.last()) {
        (AttributeValue::M(map), Step::Key(key)) => {
            map.remove(key);
        }
        (AttributeValue::L(list), Step::Index(index)) if *index < list.len() => {
            list.remove(*index);
        }
        _ => unreachable!("{CHECKED}"),
    }
}

fn insert(map: &mut BTreeMap<String, AttributeValue>, key: &str, value: AttributeValue) {
    match map.get_mut(key) {
        Some(slot) => *slot = value,
        None => {
            map.insert(key.to_owned(), value);
        }
    }
}

fn lookup_mut<'a>(item: &'a mut Item, steps: &[Step]) -> Option<&'a mut AttributeValue> {
    let (Step::Key(first), rest) = steps.split_first()? else {
        return None;
    };
    let mut value = item.get_mut(first)?;
    for step in rest {
        value = match (value, step) {
            (AttributeValue::M(map), Step::Key(key)) => map.get_mut(key)?,
            (AttributeValue::L(list), Step::Index(index)) => list.get_mut(*index)?,
            _ => return None,
        };
    }
    Some(value)
}
