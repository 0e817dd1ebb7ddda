//! The store's rules, table-driven where a table reads best: every capacity rule of DESIGN.md §4
//! with its worked example (`capacity`), indexes and lag (`indexes`), pagination (`reads`), TTL,
//! validation, the limits every write and Query obeys (`limits`), the rules that need expressions
//! (`expressions`), and a property test against a `BTreeMap` model (`model`). This file holds the
//! shared helpers.

#![allow(clippy::float_cmp, reason = "capacity units are exact halves: exact comparison is the test")]

mod capacity;
mod expressions;
mod indexes;
mod limits;
mod model;
mod reads;
mod ttl;
mod validation;

use serde_json::{Value as Json, json};

use super::*;
use crate::engine::expr::{KeyCondition, KeyOp, KeyTerm};
use crate::engine::value::{AttributeValue, Item, KeyType, KeyValue, item_from_json};

#[expect(clippy::needless_pass_by_value, reason = "callers pass json! literals")]
pub(super) fn item(json: Json) -> Item {
    item_from_json(&json).expect("test items are valid DynamoDB JSON")
}

pub(super) fn s(text: &str) -> AttributeValue {
    AttributeValue::s(text)
}

/// An item with string PK and SK whose size is exactly `bytes` (padded by a `data` attribute).
pub(super) fn sized(pk: &str, sk: &str, bytes: usize) -> Item {
    let fixed = "PK".len() + pk.len() + "SK".len() + sk.len() + "data".len();
    let mut item = item(json!({"PK": {"S": pk}, "SK": {"S": sk}}));
    item.insert("data".into(), s(&"x".repeat(bytes - fixed)));
    assert_eq!(crate::engine::value::item_size(&item), bytes);
    item
}

pub(super) fn key(pk: &str, sk: &str) -> Item {
    item(json!({"PK": {"S": pk}, "SK": {"S": sk}}))
}

pub(super) fn spec(name: &str) -> TableSpec {
    TableSpec {
        name: name.into(),
        key: KeySchema::new(KeyAttribute::new("PK", KeyType::S), Some(KeyAttribute::new("SK", KeyType::S))),
        global: vec![],
        local: vec![],
        billing: BillingMode::PayPerRequest,
    }
}

pub(super) fn gsi(name: &str, pk: &str, sk: Option<&str>, projection: ProjectionType) -> IndexSpec {
    IndexSpec {
        name: name.into(),
        key: KeySchema::new(
            KeyAttribute::new(pk, KeyType::S),
            sk.map(|sk| KeyAttribute::new(sk, KeyType::S)),
        ),
        projection,
        throughput: None,
    }
}

pub(super) fn lsi(name: &str, sk: &str, projection: ProjectionType) -> IndexSpec {
    IndexSpec {
        name: name.into(),
        key: KeySchema::new(KeyAttribute::new("PK", KeyType::S), Some(KeyAttribute::new(sk, KeyType::S))),
        projection,
        throughput: None,
    }
}

pub(super) fn store_with(spec: TableSpec) -> Store {
    store_with_config(spec, StoreConfig::default())
}

pub(super) fn store_with_config(spec: TableSpec, config: StoreConfig) -> Store {
    let mut store = Store::new(config);
    store.create_table(CreateTable { spec, index_lag: None }).expect("valid test table");
    store
}

pub(super) fn put(store: &mut Store, item: Item) -> WriteOutput {
    store
        .put_item(PutItem { table: "tbl".into(), item, condition: None, return_values: ReturnValues::None })
        .expect("valid put")
}

pub(super) fn get(store: &Store, key: Item, consistent_read: bool) -> GetItemOutput {
    store
        .get_item(&GetItem { table: "tbl".into(), key, consistent_read, projection: None })
        .expect("valid get")
}

pub(super) fn eq(attribute: &str, value: AttributeValue) -> KeyTerm {
    KeyTerm { attribute: attribute.into(), op: KeyOp::Eq(value) }
}

pub(super) fn query_pk(pk: &str) -> Query {
    Query::new("tbl", KeyCondition { terms: vec![eq("PK", s(pk))] })
}

pub(super) fn message(result: Result<impl std::fmt::Debug, StoreError>) -> String {
    result.expect_err("should be rejected").to_string()
}
