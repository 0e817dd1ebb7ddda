//! Table-driven tests of the public expression API, one file per grammar, plus properties.
//! Expected messages are DynamoDB's (from the AWS docs, and from dynalite's and Alternator's
//! test suites, which were checked against DynamoDB).

mod conditions;
mod keys;
mod projections;
mod properties;
mod updates;

use serde_json::Value as Json;

use super::ExpressionContext;
use crate::engine::value::{AttributeValue, Item, item_from_json};

/// An item from DynamoDB JSON.
fn item(json: &Json) -> Item {
    item_from_json(json).expect("test item is valid DynamoDB JSON")
}

/// A value from DynamoDB JSON.
fn value(json: &Json) -> AttributeValue {
    AttributeValue::from_json(json).expect("test value is valid DynamoDB JSON")
}

/// The names and values every table below may use; a test that checks unused ones builds its own.
fn context() -> ExpressionContext {
    let names = [("#s", "status"), ("#m", "m"), ("#dot", "a.b"), ("#p", "pk"), ("#n", "n")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    // A string, not `json!`: the macro's recursion limit is below this many entries.
    let values: Json = serde_json::from_str(
        r#"{
        ":n0": {"N": "0"}, ":one": {"N": "1"}, ":two": {"N": "2"}, ":three": {"N": "3"},
        ":n4": {"N": "4"}, ":n5": {"N": "5"}, ":n6": {"N": "6"}, ":n10": {"N": "10"},
        ":n17": {"N": "17"}, ":neg": {"N": "-7.5"}, ":tenth": {"N": "0.1"}, ":fifth": {"N": "0.2"},
        ":big": {"N": "9E+125"},
        ":s": {"S": "hello"}, ":he": {"S": "he"}, ":ell": {"S": "ell"}, ":x": {"S": "x"},
        ":a": {"S": "a"}, ":b": {"S": "b"}, ":str5": {"S": "5"}, ":empty": {"S": ""},
        ":active": {"S": "active"}, ":Z": {"S": "Z"}, ":eacute": {"S": "é"},
        ":b_he": {"B": "aGU="}, ":b_ll": {"B": "bGw="}, ":b1": {"B": "AQ=="},
        ":true": {"BOOL": true}, ":null": {"NULL": true},
        ":l": {"L": [{"S": "x"}, {"N": "9"}]}, ":l3": {"L": [{"N": "3"}]},
        ":m": {"M": {"k": {"S": "v"}}},
        ":ss": {"SS": ["a", "b"]}, ":ss_bc": {"SS": ["b", "c"]}, ":ss_a": {"SS": ["a"]},
        ":ns": {"NS": ["1", "2"]}, ":ns1": {"NS": ["1"]}, ":bs": {"BS": ["AQ=="]},
        ":S": {"S": "S"}, ":N": {"S": "N"}, ":B": {"S": "B"}, ":SS": {"S": "SS"}, ":NS": {"S": "NS"},
        ":BS": {"S": "BS"}, ":L": {"S": "L"}, ":M": {"S": "M"}, ":BOOL": {"S": "BOOL"}, ":NULL": {"S": "NULL"},
        ":dog": {"S": "DOG"}
    }"#,
    )
    .expect("valid JSON");
    let values = values.as_object().expect("an object").iter().map(|(k, v)| (k.clone(), value(v))).collect();
    ExpressionContext::new(names, values)
}
