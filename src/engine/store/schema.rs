//! Table and index definitions: key schemas, projections, billing, and the rules CreateTable
//! enforces on them (messages as DynamoDB's, from its responses as reproduced by the emulator
//! dynalite and by moto). Reading keys out of items is `key`'s.

use std::collections::BTreeSet;

use crate::engine::value::KeyType;

use super::error::StoreError;

/// Most local secondary indexes per table (AWS service quotas).
pub const MAX_LOCAL_INDEXES: usize = 5;
/// Most global secondary indexes per table (AWS service quotas, default).
pub const MAX_GLOBAL_INDEXES: usize = 20;
/// Most `NonKeyAttributes` summed over all indexes of a table (AWS service quotas).
pub const MAX_PROJECTED_ATTRIBUTES: usize = 100;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAttribute {
    pub name: String,
    pub key_type: KeyType,
}

impl KeyAttribute {
    pub fn new(name: impl Into<String>, key_type: KeyType) -> KeyAttribute {
        KeyAttribute { name: name.into(), key_type }
    }
}

/// A HASH attribute and an optional RANGE attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySchema {
    pub partition: KeyAttribute,
    pub sort: Option<KeyAttribute>,
}

impl KeySchema {
    pub fn new(partition: KeyAttribute, sort: Option<KeyAttribute>) -> KeySchema {
        KeySchema { partition, sort }
    }

    pub fn attributes(&self) -> impl Iterator<Item = &KeyAttribute> {
        std::iter::once(&self.partition).chain(self.sort.as_ref())
    }

    pub fn contains(&self, name: &str) -> bool {
        self.attributes().any(|a| a.name == name)
    }
}

/// Which attributes an index copies besides the table and index keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProjectionType {
    KeysOnly,
    Include(Vec<String>),
    All,
}

impl ProjectionType {
    pub fn name(&self) -> &'static str {
        match self {
            ProjectionType::KeysOnly => "KEYS_ONLY",
            ProjectionType::Include(_) => "INCLUDE",
            ProjectionType::All => "ALL",
        }
    }
}

/// Provisioned read and write capacity units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throughput {
    pub read: u64,
    pub write: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillingMode {
    PayPerRequest,
    Provisioned(Throughput),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSpec {
    pub name: String,
    pub key: KeySchema,
    pub projection: ProjectionType,
    /// Required for a GSI of a provisioned table, absent otherwise (LSIs share the table's).
    pub throughput: Option<Throughput>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    pub name: String,
    pub key: KeySchema,
    pub global: Vec<IndexSpec>,
    pub local: Vec<IndexSpec>,
    pub billing: BillingMode,
}

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::Validation(message.into())
}

fn invalid_param(detail: impl std::fmt::Display) -> StoreError {
    invalid(format!("One or more parameter values were invalid: {detail}"))
}

/// Table and index names: 3..=255 characters of `[a-zA-Z0-9_.-]` (AWS naming rules).
pub fn validate_name(name: &str, field: &str) -> Result<(), StoreError> {
    let constraint = |what: &str| {
        invalid(format!(
            "1 validation error detected: Value '{name}' at '{field}' failed to satisfy constraint: {what}"
        ))
    };
    if name.len() < 3 {
        return Err(constraint("Member must have length greater than or equal to 3"));
    }
    if name.len() > 255 {
        return Err(constraint("Member must have length less than or equal to 255"));
    }
    if !name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')) {
        return Err(constraint("Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"));
    }
    Ok(())
}

impl TableSpec {
    /// Every rule CreateTable checks that a well-formed request can still break.
    pub fn validate(&self) -> Result<(), StoreError> {
        validate_name(&self.name, "tableName")?;
        validate_key_schema(&self.key)?;
        if self.local.len() > MAX_LOCAL_INDEXES {
            return Err(invalid_param(format_args!(
                "Number of LocalSecondaryIndexes exceeds per-table limit of {MAX_LOCAL_INDEXES}"
            )));
        }
        if self.global.len() > MAX_GLOBAL_INDEXES {
            return Err(invalid_param(format_args!(
                "Number of GlobalSecondaryIndexes exceeds per-table limit of {MAX_GLOBAL_INDEXES}"
            )));
        }
        let mut names = BTreeSet::new();
        for index in self.global.iter().chain(&self.local) {
            validate_name(&index.name, "indexName")?;
            if !names.insert(index.name.as_str()) {
                return Err(invalid_param(format_args!("Duplicate index name: {}", index.name)));
            }
            validate_key_schema(&index.key)?;
            validate_projection(index)?;
        }
        for index in &self.local {
            self.validate_local(index)?;
        }
        self.validate_billing()?;
        let projected: usize = self
            .global
            .iter()
            .chain(&self.local)
            .map(|i| match &i.projection {
                ProjectionType::Include(names) => names.len(),
                _ => 0,
            })
            .sum();
        if projected > MAX_PROJECTED_ATTRIBUTES {
            return Err(invalid_param(format_args!(
                "Number of projected attributes in all indexes exceeds limit of {MAX_PROJECTED_ATTRIBUTES}"
            )));
        }
        // One attribute, one type, across the table and all of its indexes.
        let mut types: Vec<&KeyAttribute> = Vec::new();
        let schemas = std::iter::once(&self.key).chain(self.global.iter().chain(&self.local).map(|i| &i.key));
        for attribute in schemas.flat_map(KeySchema::attributes) {
            if let Some(seen) = types.iter().find(|a| a.name == attribute.name) {
                if seen.key_type != attribute.key_type {
                    return Err(invalid_param(format_args!(
                        "Attribute {} is defined with two types: {} and {}",
                        attribute.name,
                        seen.key_type.descriptor(),
                        attribute.key_type.descriptor()
                    )));
                }
            } else {
                types.push(attribute);
            }
        }
        Ok(())
    }

    fn validate_local(&self, index: &IndexSpec) -> Result<(), StoreError> {
        if self.key.sort.is_none() {
            return Err(invalid_param(
                "Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex",
            ));
        }
        if index.key.partition.name != self.key.partition.name {
            return Err(invalid_param(format_args!(
                "Index KeySchema does not have the same leading hash key as table KeySchema for index: {}. \
                 index hash key: {}, table hash key: {}",
                index.name, index.key.partition.name, self.key.partition.name
            )));
        }
        if index.key.sort.is_none() {
            return Err(invalid_param(format_args!(
                "Index KeySchema for local secondary index {} must have a range key",
                index.name
            )));
        }
        if index.throughput.is_some() {
            return Err(invalid_param(format_args!(
                "ProvisionedThroughput is not supported for local secondary index {}; it shares the table's",
                index.name
            )));
        }
        Ok(())
    }

    fn validate_billing(&self) -> Result<(), StoreError> {
        for index in &self.global {
            match (self.billing, index.throughput) {
                (BillingMode::Provisioned(_), None) => {
                    return Err(invalid_param(format_args!(
                        "ProvisionedThroughput must be specified for index: {}",
                        index.name
                    )));
                }
                (BillingMode::PayPerRequest, Some(_)) => {
                    return Err(invalid_param(
                        "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
                    ));
                }
                _ => {}
            }
        }
        let throughputs = self.global.iter().filter_map(|i| i.throughput);
        let table = match self.billing {
            BillingMode::Provisioned(t) => Some(t),
            BillingMode::PayPerRequest => None,
        };
        for t in table.into_iter().chain(throughputs) {
            if t.read == 0 || t.write == 0 {
                return Err(invalid(
                    "1 validation error detected: Value '0' at 'provisionedThroughput' failed to satisfy constraint: \
                     Member must have value greater than or equal to 1",
                ));
            }
        }
        Ok(())
    }

    /// The index that `name` names, with its kind.
    pub fn index(&self, name: &str) -> Option<(IndexKind, usize, &IndexSpec)> {
        if let Some(i) = self.global.iter().position(|s| s.name == name) {
            return Some((IndexKind::Global, i, &self.global[i]));
        }
        let i = self.local.iter().position(|s| s.name == name)?;
        Some((IndexKind::Local, i, &self.local[i]))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IndexKind {
    Global,
    Local,
}

fn validate_key_schema(key: &KeySchema) -> Result<(), StoreError> {
    for attribute in key.attributes() {
        if attribute.name.is_empty() || attribute.name.len() > 255 {
            return Err(invalid(format!(
                "1 validation error detected: Value '{}' at 'keySchema.attributeName' failed to satisfy constraint: \
                 Member must have length between 1 and 255",
                attribute.name
            )));
        }
    }
    if key.sort.as_ref().is_some_and(|s| s.name == key.partition.name) {
        return Err(invalid_param(
            "Both the Hash Key and the Range Key element in the KeySchema have the same name",
        ));
    }
    Ok(())
}

fn validate_projection(index: &IndexSpec) -> Result<(), StoreError> {
    if let ProjectionType::Include(names) = &index.projection {
        if names.is_empty() {
            return Err(invalid_param("ProjectionType is INCLUDE, but NonKeyAttributes is not specified"));
        }
        let mut seen = BTreeSet::new();
        for name in names {
            if !seen.insert(name) {
                return Err(invalid_param(format_args!("Duplicate attribute in NonKeyAttributes: {name}")));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> KeySchema {
        KeySchema::new(KeyAttribute::new("PK", KeyType::S), Some(KeyAttribute::new("SK", KeyType::N)))
    }

    fn spec() -> TableSpec {
        TableSpec {
            name: "orders".into(),
            key: schema(),
            global: vec![],
            local: vec![],
            billing: BillingMode::PayPerRequest,
        }
    }

    #[test]
    fn names_follow_the_naming_rules() {
        for ok in ["abc", "a.b-c_D9", &"x".repeat(255)] {
            assert!(validate_name(ok, "tableName").is_ok(), "{ok}");
        }
        for bad in ["", "ab", "a b", "tab/le", &"x".repeat(256), "é12"] {
            assert!(validate_name(bad, "tableName").is_err(), "{bad}");
        }
    }

    #[test]
    fn create_table_rules() {
        let gsi = |name: &str, pk: &str, key_type| IndexSpec {
            name: name.into(),
            key: KeySchema::new(KeyAttribute::new(pk, key_type), None),
            projection: ProjectionType::All,
            throughput: None,
        };
        let lsi = |name: &str, pk: &str| IndexSpec {
            name: name.into(),
            key: KeySchema::new(
                KeyAttribute::new(pk, KeyType::S),
                Some(KeyAttribute::new("other", KeyType::S)),
            ),
            projection: ProjectionType::KeysOnly,
            throughput: None,
        };
        let cases: Vec<(TableSpec, Option<&str>)> = vec![
            (spec(), None),
            (TableSpec { global: vec![gsi("byStatus", "status", KeyType::S)], ..spec() }, None),
            (
                TableSpec {
                    global: vec![gsi("gs1", "status", KeyType::S), gsi("gs1", "x", KeyType::S)],
                    ..spec()
                },
                Some("Duplicate index name: gs1"),
            ),
            (
                TableSpec { global: vec![gsi("gs1", "PK", KeyType::N)], ..spec() },
                Some("Attribute PK is defined with two types: S and N"),
            ),
            (TableSpec { local: vec![lsi("ls1", "PK")], ..spec() }, None),
            (
                TableSpec { local: vec![lsi("ls1", "other2")], ..spec() },
                Some("does not have the same leading hash key"),
            ),
            (
                TableSpec {
                    local: vec![lsi("ls1", "PK")],
                    key: KeySchema::new(KeyAttribute::new("PK", KeyType::S), None),
                    ..spec()
                },
                Some("does not have a range key"),
            ),
            (
                TableSpec { local: (0..6).map(|i| lsi(&format!("lsi{i}"), "PK")).collect(), ..spec() },
                Some("exceeds per-table limit of 5"),
            ),
            (
                TableSpec {
                    global: vec![gsi("gs1", "status", KeyType::S)],
                    billing: BillingMode::Provisioned(Throughput { read: 5, write: 5 }),
                    ..spec()
                },
                Some("ProvisionedThroughput must be specified for index: gs1"),
            ),
            (
                TableSpec { billing: BillingMode::Provisioned(Throughput { read: 0, write: 5 }), ..spec() },
                Some("greater than or equal to 1"),
            ),
            (
                TableSpec {
                    key: KeySchema::new(
                        KeyAttribute::new("PK", KeyType::S),
                        Some(KeyAttribute::new("PK", KeyType::S)),
                    ),
                    ..spec()
                },
                Some("have the same name"),
            ),
            (
                TableSpec {
                    global: vec![IndexSpec {
                        projection: ProjectionType::Include(vec![]),
                        ..gsi("gs1", "status", KeyType::S)
                    }],
                    ..spec()
                },
                Some("NonKeyAttributes is not specified"),
            ),
            (TableSpec { name: "t".into(), ..spec() }, Some("greater than or equal to 3")),
        ];
        for (spec, expected) in cases {
            let result = spec.validate();
            match expected {
                None => assert!(result.is_ok(), "{result:?}"),
                Some(text) => {
                    let message = result.expect_err("should be rejected").to_string();
                    assert!(message.contains(text), "{message:?} should contain {text:?}");
                }
            }
        }
    }
}
