//! An item's size as Azure Cosmos DB (API for NoSQL) counts it: the UTF-8 length of its JSON
//! ("Azure Cosmos DB service quotas": the 2 MB item limit is on "the UTF-8 length of JSON
//! representation"; "Understand request units consumption": a request's charge grows with the
//! item's size).
//!
//! JSON's grammar (RFC 8259), written compactly as the SDKs send it (no whitespace between
//! tokens): an object is `{`, its members `"name":value` separated by commas, and `}`; an array is
//! `[`, its values separated by commas, and `]`; a string is its characters between two quotes,
//! with `"`, `\` and the control characters escaped; a number is its decimal text; `true`,
//! `false` and `null` are their words.
//!
//! keyheat's values are DynamoDB's types; this is how each is written as JSON (keyheat's
//! mapping, the one an application would pick): a string is a string, a number its shortest
//! decimal text, binary a base64 string (what the SDKs' serializers write for a byte array), a
//! list or set an array, a map an object. A scenario's `Time` is a number of epoch seconds to
//! DynamoDB, but JSON has no date type and Microsoft recommends storing a date as an ISO 8601 UTC
//! string in the format `yyyy-MM-ddTHH:mm:ss.fffffffZ` ("Store and query dates" / "Working with
//! dates in Azure Cosmos DB for NoSQL"): 28 characters and its two quotes.
//!
//! Every item also carries the `id` Cosmos DB requires and the properties the service adds
//! (`_rid`, `_self`, `_etag`, `_attachments`, `_ts`: "Documents", Azure Cosmos DB REST API
//! reference). keyheat's assumptions, because Microsoft does not say more: a scenario's key
//! attributes are properties of their own and the `id` is a 36-character GUID (an application
//! could use its sort key instead); the service's properties are as long as in the REST
//! reference's sample document; and they count toward the item's size, as a read returns them.

use crate::engine::value::{AttributeValue, Item};

/// An ISO 8601 UTC date as Microsoft recommends it, `yyyy-MM-ddTHH:mm:ss.fffffffZ`, with its
/// quotes.
pub const DATE_BYTES: usize = "\"2026-12-04T15:00:00.0000000Z\"".len();

/// The `id` (a GUID) and the properties the service adds, as the REST reference's sample
/// document ("Documents") shows them, joined by commas: what every item carries besides its own
/// properties.
const SYSTEM_PROPERTIES: &str = concat!(
    r#""id":"d44c94b6-81f8-4b27-4970-f79b149529d3","#,
    r#""_rid":"Sl8fALN4sw4BAAAAAAAAAA==","#,
    r#""_ts":1448049512,"#,
    r#""_self":"dbs/Sl8fAA==/colls/Sl8fALN4sw4=/docs/Sl8fALN4sw4BAAAAAAAAAA==/","#,
    r#""_etag":"\"0000443f-0000-0000-0000-564f7b680000\"","#,
    r#""_attachments":"attachments/""#,
);

/// Bytes of an item besides its own properties: its braces and [`SYSTEM_PROPERTIES`].
pub const ITEM_OVERHEAD_BYTES: usize = 2 + SYSTEM_PROPERTIES.len();

/// Bytes one member named by `name_bytes` of UTF-8 (no character needing an escape) takes in an
/// object, with a value of `value_bytes`: its quoted name, the colon, the value and the comma that
/// separates it from the next member. An object of members is `{`, their bytes and `}`, less the
/// one comma its last member does not have: the system properties come last in an item, so every
/// member of an item has its comma.
pub fn member_size(name_bytes: usize, value_bytes: usize) -> usize {
    1 + name_bytes + 1 + 1 + value_bytes + 1
}

/// Bytes of `item` as Cosmos DB stores it, the `id` and the service's properties included; the
/// number attributes `is_date` names, at any depth, are dates.
pub fn dated_item_size(item: &Item, is_date: &dyn Fn(&str) -> bool) -> usize {
    ITEM_OVERHEAD_BYTES
        + item.iter().map(|(name, value)| dated_member_size(name, value, is_date)).sum::<usize>()
}

/// Bytes one property named `name` takes in an item, its comma included (see [`member_size`]).
pub fn dated_member_size(name: &str, value: &AttributeValue, is_date: &dyn Fn(&str) -> bool) -> usize {
    member_size(string_size(name) - 2, dated_value_size(name, value, is_date))
}

/// Bytes of a value as JSON; a number named by `is_date` is a date.
fn dated_value_size(name: &str, value: &AttributeValue, is_date: &dyn Fn(&str) -> bool) -> usize {
    match value {
        AttributeValue::N(_) if is_date(name) => DATE_BYTES,
        AttributeValue::M(fields) => {
            object_size(fields.iter().map(|(n, v)| dated_member_size(n, v, is_date)))
        }
        AttributeValue::L(values) => array_size(values.iter().map(|v| match v {
            AttributeValue::M(fields) => {
                object_size(fields.iter().map(|(n, v)| dated_member_size(n, v, is_date)))
            }
            other => value_size(other),
        })),
        other => value_size(other),
    }
}

/// Bytes of one value as JSON.
pub fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => string_size(s),
        AttributeValue::N(n) => n.to_string().len(),
        AttributeValue::B(bytes) => base64_size(bytes.len()),
        AttributeValue::Bool(true) => "true".len(),
        AttributeValue::Bool(false) => "false".len(),
        AttributeValue::Null => "null".len(),
        AttributeValue::L(values) => array_size(values.iter().map(value_size)),
        AttributeValue::M(fields) => {
            object_size(fields.iter().map(|(n, v)| member_size(string_size(n) - 2, value_size(v))))
        }
        AttributeValue::Ss(strings) => array_size(strings.iter().map(|s| string_size(s))),
        AttributeValue::Ns(numbers) => array_size(numbers.iter().map(|n| n.to_string().len())),
        AttributeValue::Bs(blobs) => array_size(blobs.iter().map(|b| base64_size(b.len()))),
    }
}

/// Bytes of a string as JSON: its quotes and its UTF-8 bytes, with `"` and `\` escaped as two
/// bytes and the other control characters below U+0020 as six (`\u00XX`; `\n`, `\t` and their
/// short forms are two, which keyheat does not tell apart: generated text has none).
pub fn string_size(s: &str) -> usize {
    2 + s
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' => 2,
            0..0x20 => 6,
            _ => 1,
        })
        .sum::<usize>()
}

/// Bytes of `len` bytes of binary data as a base64 string (RFC 4648, padded), with its quotes.
pub fn base64_size(len: usize) -> usize {
    2 + len.div_ceil(3) * 4
}

/// An object whose members take the given bytes, each with its comma ([`member_size`]).
fn object_size(members: impl IntoIterator<Item = usize>) -> usize {
    let (count, bytes) = members.into_iter().fold((0usize, 0), |(n, total), m| (n + 1, total + m));
    // The last member has no comma.
    2 + bytes - usize::from(count > 0)
}

/// An array of values of the given sizes: brackets and the commas between them.
fn array_size(values: impl IntoIterator<Item = usize>) -> usize {
    let (count, bytes) = values.into_iter().fold((0usize, 0), |(n, total), v| (n + 1, total + v));
    2 + bytes + count.saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::number::Number;

    fn item(members: &[(&str, AttributeValue)]) -> Item {
        members.iter().map(|(n, v)| ((*n).to_owned(), v.clone())).collect()
    }

    fn num(text: &str) -> AttributeValue {
        AttributeValue::N(text.parse::<Number>().expect("a number"))
    }

    /// Every size agrees with the length of the JSON text it stands for, written out by hand.
    #[test]
    fn values_are_as_long_as_their_json_text() {
        let cases: [(AttributeValue, &str); 12] = [
            (AttributeValue::S("USER#42".into()), r#""USER#42""#),
            (AttributeValue::S(r#"say "hi"\"#.into()), r#""say \"hi\"\\""#),
            (AttributeValue::S("a\u{1}".into()), r#""a\u0001""#),
            (AttributeValue::S("é".into()), "\"é\""),
            (num("12.5"), "12.5"),
            (num("-7"), "-7"),
            (AttributeValue::B(vec![1, 2, 3, 4]), r#""AQIDBA==""#),
            (AttributeValue::Bool(false), "false"),
            (AttributeValue::Null, "null"),
            (AttributeValue::L(vec![num("1"), AttributeValue::S("x".into())]), r#"[1,"x"]"#),
            (AttributeValue::L(Vec::new()), "[]"),
            (
                AttributeValue::M(item(&[("a", num("1")), ("bc", AttributeValue::Bool(true))])),
                r#"{"a":1,"bc":true}"#,
            ),
        ];
        for (value, json) in cases {
            assert_eq!(value_size(&value), json.len(), "{json}");
        }
    }

    #[test]
    fn an_item_is_its_members_and_the_system_properties() {
        let it = item(&[("pk", AttributeValue::S("C#1".into())), ("at", num("1700000000"))]);
        let text = format!(r#"{{"at":1700000000,"pk":"C#1",{SYSTEM_PROPERTIES}}}"#);
        assert_eq!(dated_item_size(&it, &|_| false), text.len());
        // `at` as a date: its ten digits become the 30-byte ISO 8601 string.
        let dated = format!(r#"{{"at":"2023-11-14T22:13:20.0000000Z","pk":"C#1",{SYSTEM_PROPERTIES}}}"#);
        assert_eq!(dated_item_size(&it, &|name| name == "at"), dated.len());
        // An empty item is its braces and the system properties.
        assert_eq!(dated_item_size(&Item::new(), &|_| false), format!("{{{SYSTEM_PROPERTIES}}}").len());
    }

    #[test]
    fn the_system_properties_are_the_reference_samples() {
        // id 43, _rid 33, _ts 16, _self 72, _etag 50, _attachments 29, five commas, two braces.
        assert_eq!(ITEM_OVERHEAD_BYTES, 43 + 33 + 16 + 72 + 50 + 29 + 5 + 2);
        assert_eq!(DATE_BYTES, 30);
    }

    #[test]
    fn base64_pads_to_whole_quads() {
        for (len, text) in [(0, ""), (1, "AQ=="), (2, "AQI="), (3, "AQID"), (4, "AQIDBA==")] {
            assert_eq!(base64_size(len), text.len() + 2, "{len}");
        }
    }
}
