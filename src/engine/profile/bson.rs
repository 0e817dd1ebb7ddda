//! A document's size as MongoDB stores it: BSON, by the specification's own grammar ("BSON
//! (Binary JSON) Specification", version 1.1, bsonspec.org/spec.html), and MongoDB's limits on it
//! ("MongoDB Limits and Thresholds", mongodb.com/docs/manual/reference/limits/).
//!
//! The grammar, in bytes (all numbers little-endian):
//! - a document is an int32 of its own total length (4), its elements, and a 0x00 terminator (1):
//!   an empty document is 5 bytes;
//! - an element is a type byte (1), its name as a cstring (the UTF-8 bytes and a 0x00) and its
//!   value;
//! - a string is an int32 length (4), the UTF-8 bytes and a 0x00; binary is an int32 length (4), a
//!   subtype byte (1) and the bytes; a boolean 1; null 0; int32 4; int64, double and UTC datetime
//!   8; an ObjectId 12;
//! - an array is a document whose names are the indexes "0", "1", … as cstrings, so element `i`
//!   pays the digits of `i` and a 0x00 for its name.
//!
//! keyheat's values are DynamoDB's types; this is how each is written as BSON (keyheat's mapping,
//! the one a driver would pick): a string is a string, a number an int32 when it is an integer that
//! fits, an int64 when it fits that, otherwise a double (a Decimal128, 16 bytes, is what an
//! application that needs exact decimals would choose instead); binary is binary (subtype 0), a
//! list or set an array, a map an embedded document. A scenario's `Time` is a number of epoch
//! seconds to DynamoDB but a date to MongoDB: a UTC datetime (type 0x09, an int64 of milliseconds),
//! the only type a TTL index expires ("TTL Indexes": a document whose indexed field is not a date
//! or an array of dates does not expire). Its 8 bytes are not in the value, so a caller that
//! knows which fields hold times says so ([`dated_document_size`]).

use crate::engine::value::{AttributeValue, Item};

/// The largest document MongoDB stores: 16 megabytes ("Limits and Thresholds", BSON Document
/// Size). The manual says "16 megabytes"; the byte figure is the server's `hello` reply's
/// `maxBsonObjectSize`, whose documented default is 16 × 1024 × 1024.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// Documents nest at most 100 levels, each object or array one level ("Limits and Thresholds",
/// Nested Depth for BSON Documents).
pub const MAX_NESTING_LEVELS: usize = 100;

/// An ObjectId's bytes (the specification's type 0x07: 12 bytes).
pub const OBJECT_ID_BYTES: usize = 12;

/// A UTC datetime's bytes (the specification's type 0x09: an int64 of milliseconds since the Unix
/// epoch).
pub const DATETIME_BYTES: usize = 8;

/// The bytes an `_id` ObjectId adds to a document that does not name its own `_id`: MongoDB adds
/// one on insert (type byte, the cstring `_id`, 12 bytes).
pub const GENERATED_ID_BYTES: usize = 1 + "_id".len() + 1 + OBJECT_ID_BYTES;

/// The bytes of `item` as one BSON document (without an `_id` it does not have).
pub fn document_size(item: &Item) -> usize {
    dated_document_size(item, &|_| false)
}

/// The bytes of `item` as one BSON document (without an `_id` it does not have) whose number
/// fields named by `is_date`, at any depth, are dates (UTC datetimes).
pub fn dated_document_size(item: &Item, is_date: &dyn Fn(&str) -> bool) -> usize {
    frame(item.iter().map(|(name, value)| dated_element_size(name, value, is_date)).sum())
}

/// The bytes of one element named `name`: its type byte, its name as a cstring and its value, a
/// UTC datetime when it is a number `is_date` names; the fields of an embedded document, or of
/// the documents in an array, by the same rule.
pub fn dated_element_size(name: &str, value: &AttributeValue, is_date: &dyn Fn(&str) -> bool) -> usize {
    let value = match value {
        AttributeValue::N(_) if is_date(name) => DATETIME_BYTES,
        AttributeValue::M(fields) => dated_document_size(fields, is_date),
        AttributeValue::L(values) => array_size(values.iter().map(|v| match v {
            AttributeValue::M(fields) => dated_document_size(fields, is_date),
            other => value_size(other),
        })),
        other => value_size(other),
    };
    1 + name.len() + 1 + value
}

/// The bytes of one element: its type byte, its name (a cstring of `name_bytes` bytes) and its
/// value.
pub fn element_size(name_bytes: usize, value: &AttributeValue) -> usize {
    1 + name_bytes + 1 + value_size(value)
}

/// The bytes of one value, without its type byte and name.
pub fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => string_size(s.len()),
        AttributeValue::N(n) => match n.to_i64() {
            Some(i) if i32::try_from(i).is_ok() => 4,
            _ => 8,
        },
        AttributeValue::B(bytes) => binary_size(bytes.len()),
        AttributeValue::Bool(_) => 1,
        AttributeValue::Null => 0,
        AttributeValue::L(values) => array_size(values.iter().map(value_size)),
        AttributeValue::M(fields) => document_size(fields),
        AttributeValue::Ss(strings) => array_size(strings.iter().map(|s| string_size(s.len()))),
        AttributeValue::Ns(numbers) => {
            array_size(numbers.iter().map(|n| value_size(&AttributeValue::N(n.clone()))))
        }
        AttributeValue::Bs(blobs) => array_size(blobs.iter().map(|b| binary_size(b.len()))),
    }
}

/// A string of `bytes` UTF-8 bytes: its int32 length, the bytes and a 0x00.
pub fn string_size(bytes: usize) -> usize {
    4 + bytes + 1
}

/// Binary data of `bytes` bytes: its int32 length, a subtype byte and the bytes.
pub fn binary_size(bytes: usize) -> usize {
    4 + 1 + bytes
}

/// An array of values of the given sizes: a document named "0", "1", ….
pub fn array_size(values: impl IntoIterator<Item = usize>) -> usize {
    frame(values.into_iter().enumerate().map(|(i, size)| 1 + digits(i) + 1 + size).sum())
}

/// The bytes an array of `len` elements of `value_bytes` each takes: what appending to an
/// embedded array costs as it grows, without building it.
pub fn uniform_array_size(len: usize, value_bytes: usize) -> usize {
    frame(len * (2 + value_bytes) + index_digits(len))
}

/// Decimal digits of every index below `len` together: the names of an array of `len` elements.
pub fn index_digits(len: usize) -> usize {
    let mut total = 0;
    let mut start = 0;
    let mut width = 1;
    let mut end = 10;
    while start < len {
        total += (len.min(end) - start) * width;
        start = end;
        width += 1;
        end = end.saturating_mul(10);
    }
    total
}

fn digits(i: usize) -> usize {
    i.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// A document around elements of `elements` bytes: the int32 length and the terminator.
fn frame(elements: usize) -> usize {
    4 + elements + 1
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;
    use crate::engine::number::Number;

    fn item(fields: &[(&str, AttributeValue)]) -> Item {
        fields.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
    }

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(Number::parse(text).expect("a number"))
    }

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.to_owned())
    }

    /// Documents whose bytes the specification's grammar gives, worked by hand.
    #[test]
    fn sizes_follow_the_bson_grammar() {
        // (document, bytes)
        let cases = [
            // bsonspec.org's own example, {"hello": "world"}: 4 + (1 + 6 + (4 + 5 + 1)) + 1.
            (item(&[("hello", s("world"))]), 22),
            // An empty document: its length and its terminator.
            (Item::new(), 5),
            // {a: 1} as an int32: 4 + (1 + 2 + 4) + 1.
            (item(&[("a", n("1"))]), 12),
            // An integer past int32 is an int64; a fraction is a double: 8 bytes each.
            (item(&[("a", n("3000000000"))]), 16),
            (item(&[("a", n("2.5"))]), 16),
            // A boolean is 1 byte, null none.
            (item(&[("t", AttributeValue::Bool(true)), ("z", AttributeValue::Null)]), 4 + 4 + 3 + 1),
            // Binary: length, subtype, bytes.
            (item(&[("b", AttributeValue::B(vec![1, 2, 3]))]), 4 + (1 + 2 + 8) + 1),
            // {"l": ["x", "y"]}: the array is a document named "0", "1".
            (
                item(&[("l", AttributeValue::L(vec![s("x"), s("y")]))]),
                4 + (1 + 2 + (4 + 2 * (1 + 2 + 6) + 1)) + 1,
            ),
            // An embedded document is a document.
            (item(&[("m", AttributeValue::M(item(&[("hello", s("world"))])))]), 4 + (1 + 2 + 22) + 1),
        ];
        for (doc, bytes) in cases {
            assert_eq!(document_size(&doc), bytes, "{doc:?}");
        }
    }

    /// A field holding a time is a UTC datetime, 8 bytes, where the same number of epoch seconds
    /// would be an int32's 4; in an embedded document and in the documents of an array too.
    #[test]
    fn a_time_is_a_utc_datetime() {
        let comment = || AttributeValue::M(item(&[("at", n("1700000000")), ("n", n("7"))]));
        let post = item(&[("at", n("1700000000")), ("l", AttributeValue::L(vec![comment(), comment()]))]);
        // {at: int32, l: [{at: int32, n: int32} × 2]}: each comment 4 + (1+3+4) + (1+2+4) + 1.
        let numbers = 4 + (1 + 3 + 4) + (1 + 2 + (4 + 2 * (1 + 2 + 20) + 1)) + 1;
        assert_eq!(dated_document_size(&post, &|_| false), numbers);
        assert_eq!(document_size(&post), numbers);
        // Every `at` a UTC datetime: 4 bytes more each, three of them.
        let dates = 4 + (1 + 3 + 8) + (1 + 2 + (4 + 2 * (1 + 2 + 24) + 1)) + 1;
        assert_eq!(dated_document_size(&post, &|name| name == "at"), dates);
    }

    /// An array's element names grow a digit at 10, 100, 1,000: what an array that grows without
    /// bound pays for its names, as the elements would be counted one by one.
    #[test]
    fn array_names_are_the_indexes_digits() {
        // (elements, bytes of each value)
        for (len, value) in [(0, 4), (1, 4), (9, 4), (10, 4), (11, 8), (100, 1), (1_001, 30), (123_457, 12)] {
            assert_eq!(uniform_array_size(len, value), array_size(std::iter::repeat_n(value, len)), "{len}");
        }
        assert_eq!(array_size([4, 4]), 4 + 2 * (1 + 2 + 4) + 1);
    }

    /// The limits, as MongoDB's manual gives them.
    #[test]
    fn limits_are_mongodbs() {
        assert_eq!(MAX_DOCUMENT_BYTES, 16_777_216);
        assert_eq!(MAX_NESTING_LEVELS, 100);
        assert_eq!(GENERATED_ID_BYTES, 17);
    }

    fn value() -> impl Strategy<Value = AttributeValue> {
        let leaf = prop_oneof![
            "[a-z]{0,12}".prop_map(AttributeValue::S),
            any::<i64>().prop_map(|i| AttributeValue::N(Number::from_i64(i))),
            proptest::collection::vec(any::<u8>(), 0..8).prop_map(AttributeValue::B),
            any::<bool>().prop_map(AttributeValue::Bool),
            Just(AttributeValue::Null),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
                proptest::collection::btree_map("[a-z]{1,4}", inner, 0..4).prop_map(AttributeValue::M),
            ]
        })
    }

    proptest! {
        /// A document is its frame plus its elements, each its type byte, name and value: adding a
        /// field adds exactly that field's element, whatever else the document holds.
        #[test]
        fn a_field_adds_its_element(fields in proptest::collection::btree_map("[a-z]{1,6}", value(), 0..6),
                                    name in "[A-Z]{1,6}", extra in value()) {
            let before = document_size(&fields);
            let mut after: BTreeMap<String, AttributeValue> = fields.clone();
            after.insert(name.clone(), extra.clone());
            prop_assert_eq!(document_size(&after), before + element_size(name.len(), &extra));
            prop_assert!(before >= 5);
        }
    }
}
