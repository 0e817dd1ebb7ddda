//! Property-test pieces of console requests against the `console_orders` fixture: attribute
//! values, keys and key conditions, shared by the engine's console tests (requests built as
//! values) and `ops`' short-form tests (requests written as text).

use proptest::prelude::*;
use serde_json::{Value as Json, json};

/// An attribute value of any type, as a request sends it.
pub fn attribute_value() -> impl Strategy<Value = Json> + Clone {
    prop_oneof![
        Just(json!({"S": "CUSTOMER#c0000001"})),
        Just(json!({"S": "PROFILE"})),
        Just(json!({"S": ""})),
        Just(json!({"N": "1735689600"})),
        Just(json!({"N": "-1e100"})),
        Just(json!({"B": "AAE="})),
        Just(json!({"L": []})),
        "[a-zA-Z#0-9]{0,12}".prop_map(|t| json!({"S": t})),
    ]
}

/// A key made of `value`s: some of the table's and indexes' key attributes, and one that is
/// none.
pub fn key_of(value: impl Strategy<Value = Json> + Clone) -> impl Strategy<Value = Json> + Clone {
    let name = prop_oneof![
        Just("PK"),
        Just("SK"),
        Just("status"),
        Just("placed_at"),
        Just("customer_id"),
        Just("LSI1SK"),
        Just("x"),
    ];
    proptest::collection::btree_map(name, value, 0..4)
        .prop_map(|m| Json::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
}

/// A key condition: valid ones on the table, an LSI and GSIs, and ones the store refuses (a
/// sort key alone, a range on the partition key, OR, a syntax error).
pub fn key_condition() -> impl Strategy<Value = &'static str> + Clone {
    prop_oneof![
        Just("PK = :a"),
        Just("PK = :a AND SK > :b"),
        Just("PK = :a AND SK BETWEEN :a AND :b"),
        Just("PK = :a AND begins_with(SK, :b)"),
        Just("#s = :a AND placed_at <= :b"),
        Just("customer_id = :a"),
        Just("PK = :a AND LSI1SK < :b"),
        Just("SK = :a"),
        Just("PK < :a"),
        Just("PK = :a OR SK = :b"),
        Just("(("),
    ]
}

/// A table name: the fixture's, one it does not have, and none.
pub fn table_name() -> impl Strategy<Value = &'static str> + Clone {
    prop_oneof![Just("orders"), Just("nope"), Just("")]
}

/// An index name: the fixture's, a display name, and one it does not have.
pub fn index_name() -> impl Strategy<Value = &'static str> + Clone {
    prop_oneof![Just("pending"), Just("by-customer"), Just("by total"), Just("x")]
}
