//! Keys: partitions (a partition key value and its stable hash), primary keys, and reading them
//! out of items and `Key` parameters with DynamoDB's validation messages (wording from
//! DynamoDB's responses as reproduced by the emulator dynalite and by moto).

use crate::engine::hash::hash_bytes;
use crate::engine::value::{
    AttributeValue, Item, KeyType, KeyValue, MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES,
};

use super::error::StoreError;
use super::schema::{KeyAttribute, KeySchema};

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::Validation(message.into())
}

fn invalid_param(detail: impl std::fmt::Display) -> StoreError {
    invalid(format!("One or more parameter values were invalid: {detail}"))
}

/// A partition: the partition key value and its stable hash. Ordered by hash first, which is the
/// order a Scan walks (DynamoDB scans in hash order too, so a Scan's order looks random).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartitionId {
    pub hash: u64,
    pub key: KeyValue,
}

impl PartitionId {
    pub fn new(key: KeyValue) -> PartitionId {
        PartitionId { hash: hash_bytes(&key.hash_bytes()), key }
    }
}

/// A table item's primary key, ordered as a Scan returns items.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PrimaryKey {
    pub partition: PartitionId,
    pub sort: Option<KeyValue>,
}

impl PrimaryKey {
    pub fn new(partition: KeyValue, sort: Option<KeyValue>) -> PrimaryKey {
        PrimaryKey { partition: PartitionId::new(partition), sort }
    }

    /// The key as DynamoDB writes it (`Key`, `LastEvaluatedKey`).
    pub fn to_item(&self, schema: &KeySchema) -> Item {
        let mut item = Item::new();
        item.insert(schema.partition.name.clone(), self.partition.key.to_attribute());
        if let (Some(attribute), Some(value)) = (&schema.sort, &self.sort) {
            item.insert(attribute.name.clone(), value.to_attribute());
        }
        item
    }
}

const KEY_MISMATCH: &str = "The provided key element does not match the schema";

/// The key of `attribute` in a `Key` parameter; any mismatch is DynamoDB's one message.
fn key_part(key: &Item, attribute: &KeyAttribute, is_partition: bool) -> Result<KeyValue, StoreError> {
    let value = key.get(&attribute.name).ok_or_else(|| invalid(KEY_MISMATCH))?;
    let key_value =
        value.as_key().filter(|k| k.key_type() == attribute.key_type).ok_or_else(|| invalid(KEY_MISMATCH))?;
    check_key_value(&key_value, &attribute.name, is_partition)?;
    Ok(key_value)
}

/// Sizes and emptiness of a table key value (AWS service quotas; messages as DynamoDB's).
pub(crate) fn check_key_value(value: &KeyValue, name: &str, is_partition: bool) -> Result<(), StoreError> {
    let size = value.size();
    if size == 0 && value.key_type() != KeyType::N {
        return Err(invalid(format!(
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an \
             empty {} value. Key: {name}",
            if value.key_type() == KeyType::S { "string" } else { "binary" }
        )));
    }
    check_key_size(size, is_partition)
}

/// The key size quotas: partition keys up to 2048 bytes, sort keys up to 1024 (the missing space
/// in "limit of2048" is DynamoDB's).
fn check_key_size(size: usize, is_partition: bool) -> Result<(), StoreError> {
    if is_partition && size > MAX_PARTITION_KEY_BYTES {
        return Err(invalid_param(format_args!(
            "Size of hashkey has exceeded the maximum size limit of{MAX_PARTITION_KEY_BYTES} bytes"
        )));
    }
    if !is_partition && size > MAX_SORT_KEY_BYTES {
        return Err(invalid_param(format_args!(
            "Aggregated size of all range keys has exceeded the size limit of {MAX_SORT_KEY_BYTES} bytes"
        )));
    }
    Ok(())
}

impl KeySchema {
    /// Reads a `Key` parameter (GetItem, DeleteItem, UpdateItem, BatchGetItem): exactly the key
    /// attributes, each with its defined type.
    pub fn key_from_request(&self, key: &Item) -> Result<PrimaryKey, StoreError> {
        let expected = 1 + usize::from(self.sort.is_some());
        if key.len() != expected {
            return Err(invalid(KEY_MISMATCH));
        }
        let partition = key_part(key, &self.partition, true)?;
        let sort = self.sort.as_ref().map(|s| key_part(key, s, false)).transpose()?;
        Ok(PrimaryKey::new(partition, sort))
    }

    /// Reads the primary key of an item being written (PutItem, BatchWriteItem).
    pub fn key_of_item(&self, item: &Item) -> Result<PrimaryKey, StoreError> {
        let read = |attribute: &KeyAttribute, is_partition: bool| {
            let value = item.get(&attribute.name).ok_or_else(|| {
                invalid_param(format_args!("Missing the key {} in the item", attribute.name))
            })?;
            let key_value =
                value.as_key().filter(|k| k.key_type() == attribute.key_type).ok_or_else(|| {
                    invalid_param(format_args!(
                        "Type mismatch for key {} expected: {} actual: {}",
                        attribute.name,
                        attribute.key_type.descriptor(),
                        value.value_type().descriptor()
                    ))
                })?;
            check_key_value(&key_value, &attribute.name, is_partition)?;
            Ok::<_, StoreError>(key_value)
        };
        let partition = read(&self.partition, true)?;
        let sort = self.sort.as_ref().map(|s| read(s, false)).transpose()?;
        Ok(PrimaryKey::new(partition, sort))
    }

    /// Checks the index key attributes an item has (as an index's key schema): each must have the
    /// defined type, not be an empty string or binary, and fit the key size quotas (GSI
    /// partition key ≤ 2048 bytes, sort keys ≤ 1024; AWS service quotas). Missing ones are fine:
    /// the index is sparse. Reads without cloning; this runs on every write.
    ///
    /// The empty-value message is DynamoDB's since its 2020 empty-value support. For an oversized
    /// index key DynamoDB's wording is not documented; keyheat reuses the table key messages
    /// (unverified for index keys).
    pub fn check_index_key(&self, item: &Item, index_name: &str) -> Result<(), StoreError> {
        let parts = std::iter::once((&self.partition, true)).chain(self.sort.as_ref().map(|s| (s, false)));
        for (attribute, is_partition) in parts {
            let Some(value) = item.get(&attribute.name) else { continue };
            // Numbers are at most 21 bytes, far inside either quota.
            let (matches, bytes) = match (value, attribute.key_type) {
                (AttributeValue::S(s), KeyType::S) => (true, s.len()),
                (AttributeValue::N(_), KeyType::N) => (true, 1),
                (AttributeValue::B(b), KeyType::B) => (true, b.len()),
                _ => (false, 0),
            };
            if !matches {
                return Err(invalid_param(format_args!(
                    "Type mismatch for Index Key {} Expected: {} Actual: {} IndexName: {index_name}",
                    attribute.name,
                    attribute.key_type.descriptor(),
                    value.value_type().descriptor()
                )));
            }
            if bytes == 0 {
                return Err(invalid(format!(
                    "One or more parameter values are not valid. A value specified for a secondary index key is not \
                     supported. The AttributeValue for a key attribute cannot contain an empty {} value. \
                     IndexName: {index_name}, IndexKey: {}",
                    if attribute.key_type == KeyType::S { "string" } else { "binary" },
                    attribute.name
                )));
            }
            check_key_size(bytes, is_partition)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> KeySchema {
        KeySchema::new(KeyAttribute::new("PK", KeyType::S), Some(KeyAttribute::new("SK", KeyType::N)))
    }

    #[test]
    fn reads_keys_with_dynamodb_messages() {
        let s = |x: &str| AttributeValue::s(x);
        let item = |pairs: &[(&str, AttributeValue)]| -> Item {
            pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
        };
        let schema = schema();
        let good = item(&[("PK", s("a")), ("SK", AttributeValue::n(1))]);
        assert_eq!(
            schema.key_from_request(&good).unwrap(),
            PrimaryKey::new(KeyValue::S("a".into()), Some(KeyValue::N(1.into())))
        );
        let cases = [
            (item(&[("PK", s("a"))]), KEY_MISMATCH.to_owned()),
            (item(&[("PK", s("a")), ("SK", s("1"))]), KEY_MISMATCH.to_owned()),
            (item(&[("PK", s("a")), ("SK", AttributeValue::n(1)), ("x", s("y"))]), KEY_MISMATCH.to_owned()),
            (
                item(&[("PK", s("")), ("SK", AttributeValue::n(1))]),
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: PK".to_owned(),
            ),
            (
                item(&[("PK", s(&"x".repeat(2049))), ("SK", AttributeValue::n(1))]),
                "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes".to_owned(),
            ),
        ];
        for (key, message) in cases {
            assert_eq!(schema.key_from_request(&key).unwrap_err().to_string(), message, "{key:?}");
        }
        assert_eq!(
            schema.key_of_item(&item(&[("SK", AttributeValue::n(1))])).unwrap_err().to_string(),
            "One or more parameter values were invalid: Missing the key PK in the item"
        );
        assert_eq!(
            schema
                .key_of_item(&item(&[("PK", AttributeValue::n(3)), ("SK", AttributeValue::n(1))]))
                .unwrap_err()
                .to_string(),
            "One or more parameter values were invalid: Type mismatch for key PK expected: S actual: N"
        );
        // Sizes at the limits: 2048-byte partition key, 1024-byte sort key are fine; one more is not.
        let text_schema =
            KeySchema::new(KeyAttribute::new("PK", KeyType::S), Some(KeyAttribute::new("SK", KeyType::S)));
        assert!(
            text_schema
                .key_of_item(&item(&[("PK", s(&"p".repeat(2048))), ("SK", s(&"s".repeat(1024)))]))
                .is_ok()
        );
        assert_eq!(
            text_schema
                .key_of_item(&item(&[("PK", s("p")), ("SK", s(&"s".repeat(1025)))]))
                .unwrap_err()
                .to_string(),
            "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
        );
    }

    #[test]
    fn index_keys_are_typed_and_not_empty() {
        let index = KeySchema::new(
            KeyAttribute::new("status", KeyType::S),
            Some(KeyAttribute::new("at", KeyType::N)),
        );
        let mut item = Item::new();
        assert!(index.check_index_key(&item, "g").is_ok(), "absent: the index is sparse");
        item.insert("status".into(), AttributeValue::s("PENDING"));
        item.insert("at".into(), AttributeValue::n(5));
        assert!(index.check_index_key(&item, "g").is_ok());
        item.insert("at".into(), AttributeValue::s("5"));
        assert_eq!(
            index.check_index_key(&item, "g").unwrap_err().to_string(),
            "One or more parameter values were invalid: Type mismatch for Index Key at Expected: N Actual: S IndexName: g"
        );
        item.insert("at".into(), AttributeValue::n(5));
        item.insert("status".into(), AttributeValue::s(""));
        assert_eq!(
            index.check_index_key(&item, "g").unwrap_err().to_string(),
            "One or more parameter values are not valid. A value specified for a secondary index key is not \
             supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: g, \
             IndexKey: status"
        );
    }

    #[test]
    fn index_key_sizes_follow_the_key_quotas() {
        let hash_too_big = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size \
                            limit of2048 bytes";
        let range_too_big = "One or more parameter values were invalid: Aggregated size of all range keys has \
                             exceeded the size limit of 1024 bytes";
        let gsi =
            KeySchema::new(KeyAttribute::new("g", KeyType::S), Some(KeyAttribute::new("gs", KeyType::B)));
        let lsi =
            KeySchema::new(KeyAttribute::new("PK", KeyType::S), Some(KeyAttribute::new("ls", KeyType::S)));
        let item = |pairs: Vec<(&str, AttributeValue)>| -> Item {
            pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
        };
        let text = |n: usize| AttributeValue::s("x".repeat(n));
        let bytes = |n: usize| AttributeValue::B(vec![7; n]);
        // (schema, item, error or None)
        let cases = [
            (&gsi, item(vec![("g", text(2048)), ("gs", bytes(1024))]), None),
            (&gsi, item(vec![("g", text(2049))]), Some(hash_too_big)),
            (&gsi, item(vec![("g", text(1)), ("gs", bytes(1025))]), Some(range_too_big)),
            (&gsi, item(vec![("gs", bytes(1025))]), Some(range_too_big)),
            (&gsi, item(vec![("gs", bytes(0))]), Some("")),
            (&lsi, item(vec![("PK", text(5)), ("ls", text(1024))]), None),
            (
                &lsi,
                item(vec![("PK", text(5)), ("ls", AttributeValue::s("é".repeat(513)))]),
                Some(range_too_big),
            ),
        ];
        for (schema, item, error) in cases {
            match (schema.check_index_key(&item, "i"), error) {
                (Ok(()), None) => {}
                (Err(e), Some("")) => assert!(e.to_string().contains("empty binary value"), "{e}"),
                (Err(e), Some(message)) => assert_eq!(e.to_string(), message),
                (got, want) => panic!("{item:?}: got {got:?}, want {want:?}"),
            }
        }
    }
}
