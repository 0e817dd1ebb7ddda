//! DynamoDB's data model: attribute values, items, key values, their sizes and their JSON form.
//!
//! Sizes follow the AWS developer guide ("Item sizes and formats"); see DESIGN.md §4. Maps and
//! sets are ordered (`BTreeMap`/`BTreeSet`) so every output is deterministic; DynamoDB itself
//! promises no order for either. This module never knows about tables or capacity.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value as Json};

use super::number::{Number, NumberError};

/// An item: attribute name → value.
pub type Item = BTreeMap<String, AttributeValue>;

/// Largest item DynamoDB stores: 400 KB (AWS service quotas).
pub const MAX_ITEM_BYTES: usize = 409_600;
/// Partition key values are 1..=2048 bytes (AWS service quotas).
pub const MAX_PARTITION_KEY_BYTES: usize = 2048;
/// Sort key values are at most 1024 bytes (AWS service quotas).
pub const MAX_SORT_KEY_BYTES: usize = 1024;
/// Documents nest at most 32 levels (AWS "Constraints": "DynamoDB supports nested attributes up
/// to 32 levels deep"). The value of a top-level attribute is level 1 and a scalar inside a list
/// or map counts as a level: 31 maps around a string are accepted, 32 are refused (boundary as
/// captured against DynamoDB by the dynamodb-conformance suite and the dynoxide emulator).
pub const MAX_NESTING_LEVELS: usize = 32;
/// Longest attribute name, in UTF-8 bytes: AWS "Naming rules" says attribute names must be "less
/// than 64 KB in size", and DynamoDB's KB is 1,024 bytes, so 65,535 bytes is the most. Map keys
/// inside a document are held to the same rule (they name nested attributes).
pub const MAX_NAME_BYTES: usize = 65_535;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AttributeValue {
    S(String),
    N(Number),
    B(Vec<u8>),
    Bool(bool),
    Null,
    L(Vec<AttributeValue>),
    M(BTreeMap<String, AttributeValue>),
    Ss(BTreeSet<String>),
    Ns(BTreeSet<Number>),
    Bs(BTreeSet<Vec<u8>>),
}

/// The type descriptors DynamoDB uses in JSON and in `attribute_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueType {
    S,
    N,
    B,
    Bool,
    Null,
    L,
    M,
    Ss,
    Ns,
    Bs,
}

impl ValueType {
    pub const ALL: [ValueType; 10] = [
        ValueType::S,
        ValueType::N,
        ValueType::B,
        ValueType::Bool,
        ValueType::Null,
        ValueType::L,
        ValueType::M,
        ValueType::Ss,
        ValueType::Ns,
        ValueType::Bs,
    ];

    pub fn descriptor(self) -> &'static str {
        match self {
            ValueType::S => "S",
            ValueType::N => "N",
            ValueType::B => "B",
            ValueType::Bool => "BOOL",
            ValueType::Null => "NULL",
            ValueType::L => "L",
            ValueType::M => "M",
            ValueType::Ss => "SS",
            ValueType::Ns => "NS",
            ValueType::Bs => "BS",
        }
    }

    pub fn from_descriptor(text: &str) -> Option<ValueType> {
        ValueType::ALL.into_iter().find(|t| t.descriptor() == text)
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.descriptor())
    }
}

impl AttributeValue {
    pub fn value_type(&self) -> ValueType {
        match self {
            AttributeValue::S(_) => ValueType::S,
            AttributeValue::N(_) => ValueType::N,
            AttributeValue::B(_) => ValueType::B,
            AttributeValue::Bool(_) => ValueType::Bool,
            AttributeValue::Null => ValueType::Null,
            AttributeValue::L(_) => ValueType::L,
            AttributeValue::M(_) => ValueType::M,
            AttributeValue::Ss(_) => ValueType::Ss,
            AttributeValue::Ns(_) => ValueType::Ns,
            AttributeValue::Bs(_) => ValueType::Bs,
        }
    }

    /// Bytes this value takes in an item (AWS "Item sizes and formats"; sets per dynalite).
    pub fn size(&self) -> usize {
        match self {
            AttributeValue::S(s) => s.len(),
            AttributeValue::N(n) => n.size(),
            AttributeValue::B(b) => b.len(),
            AttributeValue::Bool(_) | AttributeValue::Null => 1,
            AttributeValue::L(list) => 3 + list.iter().map(|v| 1 + v.size()).sum::<usize>(),
            AttributeValue::M(map) => 3 + map.iter().map(|(k, v)| 1 + k.len() + v.size()).sum::<usize>(),
            AttributeValue::Ss(set) => set.iter().map(String::len).sum(),
            AttributeValue::Ns(set) => set.iter().map(Number::size).sum(),
            AttributeValue::Bs(set) => set.iter().map(Vec::len).sum(),
        }
    }

    pub fn as_key(&self) -> Option<KeyValue> {
        match self {
            AttributeValue::S(s) => Some(KeyValue::S(s.clone())),
            AttributeValue::N(n) => Some(KeyValue::N(n.clone())),
            AttributeValue::B(b) => Some(KeyValue::B(b.clone())),
            _ => None,
        }
    }

    pub fn s(text: impl Into<String>) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    pub fn n(value: i64) -> AttributeValue {
        AttributeValue::N(Number::from_i64(value))
    }
}

/// Bytes an item takes: the UTF-8 bytes of each attribute name plus the size of its value.
pub fn item_size(item: &Item) -> usize {
    item.iter().map(|(name, value)| name.len() + value.size()).sum()
}

/// The scalar types a key attribute may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyType {
    S,
    N,
    B,
}

impl KeyType {
    pub fn from_descriptor(text: &str) -> Option<KeyType> {
        match text {
            "S" => Some(KeyType::S),
            "N" => Some(KeyType::N),
            "B" => Some(KeyType::B),
            _ => None,
        }
    }

    pub fn descriptor(self) -> &'static str {
        match self {
            KeyType::S => "S",
            KeyType::N => "N",
            KeyType::B => "B",
        }
    }
}

/// A key attribute's value. Ordered as DynamoDB orders keys: strings and binary by unsigned bytes,
/// numbers numerically. Values of different types never meet in one key attribute (the table's
/// attribute definitions fix the type), so the cross-type order of the derive is never observed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyValue {
    S(String),
    N(Number),
    B(Vec<u8>),
}

impl KeyValue {
    pub fn key_type(&self) -> KeyType {
        match self {
            KeyValue::S(_) => KeyType::S,
            KeyValue::N(_) => KeyType::N,
            KeyValue::B(_) => KeyType::B,
        }
    }

    pub fn size(&self) -> usize {
        match self {
            KeyValue::S(s) => s.len(),
            KeyValue::N(n) => n.size(),
            KeyValue::B(b) => b.len(),
        }
    }

    pub fn to_attribute(&self) -> AttributeValue {
        match self {
            KeyValue::S(s) => AttributeValue::S(s.clone()),
            KeyValue::N(n) => AttributeValue::N(n.clone()),
            KeyValue::B(b) => AttributeValue::B(b.clone()),
        }
    }

    /// Bytes that identify the value, for hashing into partitions.
    pub fn hash_bytes(&self) -> std::borrow::Cow<'_, [u8]> {
        match self {
            KeyValue::S(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
            KeyValue::N(n) => std::borrow::Cow::Owned(n.to_string().into_bytes()),
            KeyValue::B(b) => std::borrow::Cow::Borrowed(b),
        }
    }
}

impl fmt::Display for KeyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyValue::S(s) => f.write_str(s),
            KeyValue::N(n) => write!(f, "{n}"),
            KeyValue::B(b) => f.write_str(&BASE64.encode(b)),
        }
    }
}

/// Why a DynamoDB JSON value could not be read. Messages follow DynamoDB's wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    #[error("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")]
    Empty,
    #[error(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
    )]
    MoreThanOne,
    #[error(
        "Supplied AttributeValue has an unknown datatype {0:?}; expected one of S, N, B, BOOL, NULL, L, M, SS, NS, BS"
    )]
    UnknownType(String),
    #[error("Expected {expected} for the {descriptor} datatype, found {found}")]
    WrongJson { descriptor: &'static str, expected: &'static str, found: &'static str },
    #[error("Null attribute value types must have the value of true")]
    NullNotTrue,
    #[error("One or more parameter values were invalid: An {0} set may not be empty")]
    EmptySet(&'static str),
    #[error("Input collection contains duplicates")]
    DuplicateInSet,
    #[error("Invalid Base64 in a binary value: {0}")]
    Base64(String),
    #[error("{0}")]
    Number(#[from] NumberError),
    #[error("Expected a JSON object of attribute name to AttributeValue, found {0}")]
    NotAnItem(&'static str),
    #[error("Expected an AttributeValue object such as {{\"S\": \"x\"}}, found {0}")]
    NotAnAttributeValue(&'static str),
    /// DynamoDB's wording (the bare form; some operations wrap it in "1 validation error
    /// detected: ", which keyheat does not reproduce).
    #[error(
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported \
         limit"
    )]
    TooDeep,
    /// The rule is documented (AWS "Naming rules": attribute names "must be at least one character
    /// long"); DynamoDB's message for it is not, so this wording is keyheat's (unverified).
    #[error(
        "One or more parameter values were invalid: An attribute name must be at least one character long"
    )]
    EmptyName,
    /// The rule is documented (AWS "Naming rules": "less than 64 KB"); the wording is keyheat's.
    #[error(
        "One or more parameter values were invalid: An attribute name is {0} bytes, and DynamoDB accepts names \
         less than 64 KB ({MAX_NAME_BYTES} bytes at most)"
    )]
    NameTooLong(usize),
}

impl ValueError {
    /// Whether DynamoDB answers this with a SerializationException: the JSON does not have the
    /// shape of an AttributeValue (a number where a string belongs, bad Base64, not an object).
    /// The rest are ValidationExceptions: well-formed JSON that breaks a rule of the data model.
    pub fn is_serialization(&self) -> bool {
        matches!(
            self,
            ValueError::WrongJson { .. }
                | ValueError::Base64(_)
                | ValueError::NotAnItem(_)
                | ValueError::NotAnAttributeValue(_)
        )
    }
}

fn json_kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a JSON number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

impl AttributeValue {
    /// Reads DynamoDB JSON: `{"S": "x"}`, `{"N": "1"}`, `{"B": "<base64>"}`, `{"L": [...]}`…
    ///
    /// Refuses values nested deeper than [`MAX_NESTING_LEVELS`] and empty map keys. The depth is
    /// checked on the way down, so hostile input cannot take the recursion past 33 frames.
    pub fn from_json(json: &Json) -> Result<AttributeValue, ValueError> {
        value_from_json(json, 1)
    }

    /// Writes DynamoDB JSON.
    pub fn to_json(&self) -> Json {
        let (descriptor, body) = match self {
            AttributeValue::S(s) => ("S", Json::String(s.clone())),
            AttributeValue::N(n) => ("N", Json::String(n.to_string())),
            AttributeValue::B(b) => ("B", Json::String(BASE64.encode(b))),
            AttributeValue::Bool(b) => ("BOOL", Json::Bool(*b)),
            AttributeValue::Null => ("NULL", Json::Bool(true)),
            AttributeValue::L(list) => ("L", Json::Array(list.iter().map(AttributeValue::to_json).collect())),
            AttributeValue::M(map) => ("M", item_to_json(map)),
            AttributeValue::Ss(set) => ("SS", set.iter().map(|s| Json::String(s.clone())).collect()),
            AttributeValue::Ns(set) => ("NS", set.iter().map(|n| Json::String(n.to_string())).collect()),
            AttributeValue::Bs(set) => ("BS", set.iter().map(|b| Json::String(BASE64.encode(b))).collect()),
        };
        let mut map = Map::with_capacity(1);
        map.insert(descriptor.to_owned(), body);
        Json::Object(map)
    }
}

/// Reads a value at nesting `level` (a top-level attribute's value is level 1).
fn value_from_json(json: &Json, level: usize) -> Result<AttributeValue, ValueError> {
    if level > MAX_NESTING_LEVELS {
        return Err(ValueError::TooDeep);
    }
    let Json::Object(map) = json else {
        return Err(ValueError::NotAnAttributeValue(json_kind(json)));
    };
    let mut entries = map.iter();
    let (descriptor, body) = entries.next().ok_or(ValueError::Empty)?;
    if entries.next().is_some() {
        return Err(ValueError::MoreThanOne);
    }
    let value_type =
        ValueType::from_descriptor(descriptor).ok_or_else(|| ValueError::UnknownType(descriptor.clone()))?;
    let wrong = |expected| ValueError::WrongJson {
        descriptor: value_type.descriptor(),
        expected,
        found: json_kind(body),
    };
    let string = || body.as_str().ok_or_else(|| wrong("a string"));
    let array = || body.as_array().ok_or_else(|| wrong("an array"));
    Ok(match value_type {
        ValueType::S => AttributeValue::S(string()?.to_owned()),
        ValueType::N => AttributeValue::N(Number::parse(string()?)?),
        ValueType::B => AttributeValue::B(decode_base64(string()?)?),
        ValueType::Bool => AttributeValue::Bool(body.as_bool().ok_or_else(|| wrong("a boolean"))?),
        ValueType::Null => match body.as_bool() {
            Some(true) => AttributeValue::Null,
            Some(false) => return Err(ValueError::NullNotTrue),
            None => return Err(wrong("true")),
        },
        ValueType::L => AttributeValue::L(
            array()?.iter().map(|j| value_from_json(j, level + 1)).collect::<Result<_, _>>()?,
        ),
        ValueType::M => {
            let object = body.as_object().ok_or_else(|| wrong("an object"))?;
            AttributeValue::M(map_from_json(object, level + 1)?)
        }
        ValueType::Ss => AttributeValue::Ss(collect_set(array()?, "string", |j| {
            j.as_str().map(str::to_owned).ok_or_else(|| wrong("an array of strings"))
        })?),
        ValueType::Ns => AttributeValue::Ns(collect_set(array()?, "number", |j| {
            Ok(Number::parse(j.as_str().ok_or_else(|| wrong("an array of strings"))?)?)
        })?),
        ValueType::Bs => AttributeValue::Bs(collect_set(array()?, "binary", |j| {
            decode_base64(j.as_str().ok_or_else(|| wrong("an array of strings"))?)
        })?),
    })
}

fn decode_base64(text: &str) -> Result<Vec<u8>, ValueError> {
    BASE64.decode(text).map_err(|e| ValueError::Base64(e.to_string()))
}

fn collect_set<T: Ord>(
    items: &[Json],
    kind: &'static str,
    mut read: impl FnMut(&Json) -> Result<T, ValueError>,
) -> Result<BTreeSet<T>, ValueError> {
    if items.is_empty() {
        return Err(ValueError::EmptySet(kind));
    }
    let mut set = BTreeSet::new();
    for json in items {
        if !set.insert(read(json)?) {
            return Err(ValueError::DuplicateInSet);
        }
    }
    Ok(set)
}

/// Reads attribute name → value pairs whose values sit at nesting `level`.
fn map_from_json(object: &Map<String, Json>, level: usize) -> Result<Item, ValueError> {
    object
        .iter()
        .map(|(name, value)| {
            check_name(name)?;
            Ok((name.clone(), value_from_json(value, level)?))
        })
        .collect()
}

/// An attribute name (or a map key) is 1..=[`MAX_NAME_BYTES`] bytes.
fn check_name(name: &str) -> Result<(), ValueError> {
    match name.len() {
        0 => Err(ValueError::EmptyName),
        n if n > MAX_NAME_BYTES => Err(ValueError::NameTooLong(n)),
        _ => Ok(()),
    }
}

/// Reads an item (or a key) in DynamoDB JSON: `{"name": {"S": "x"}, ...}`.
pub fn item_from_json(json: &Json) -> Result<Item, ValueError> {
    match json {
        Json::Object(object) => map_from_json(object, 1),
        other => Err(ValueError::NotAnItem(json_kind(other))),
    }
}

/// Writes an item in DynamoDB JSON, attributes in name order.
pub fn item_to_json(item: &Item) -> Json {
    Json::Object(item.iter().map(|(name, value)| (name.clone(), value.to_json())).collect())
}

/// Checks the rules `from_json` enforces on an item built in memory (the result of an update,
/// an item from the simulator): no empty or over-long attribute name at any level, at most
/// [`MAX_NESTING_LEVELS`] levels. The walk stops one level past the limit, so it is shallow
/// whatever the item holds.
pub fn check_document(item: &Item) -> Result<(), ValueError> {
    fn check_map(map: &BTreeMap<String, AttributeValue>, level: usize) -> Result<(), ValueError> {
        for (name, value) in map {
            check_name(name)?;
            check_value(value, level)?;
        }
        Ok(())
    }
    fn check_value(value: &AttributeValue, level: usize) -> Result<(), ValueError> {
        if level > MAX_NESTING_LEVELS {
            return Err(ValueError::TooDeep);
        }
        match value {
            AttributeValue::L(list) => list.iter().try_for_each(|v| check_value(v, level + 1)),
            AttributeValue::M(map) => check_map(map, level + 1),
            _ => Ok(()),
        }
    }
    check_map(item, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn item(json: &Json) -> Item {
        item_from_json(json).unwrap()
    }

    #[test]
    fn sizes_follow_the_aws_guide() {
        // (item, bytes). The first is the AWS guide's worked example.
        let cases = [
            (json!({"shirt-color": {"S": "R"}, "shirt-size": {"S": "M"}}), 23),
            (json!({"a": {"S": ""}}), 1),
            (json!({"é": {"S": "ü"}}), 4),
            (json!({"n": {"N": "0"}}), 2),
            (json!({"n": {"N": "-12.5"}}), 1 + 4),
            (json!({"b": {"B": "AAEC"}}), 1 + 3),
            (json!({"t": {"BOOL": true}}), 2),
            (json!({"z": {"NULL": true}}), 2),
            (json!({"l": {"L": []}}), 1 + 3),
            (json!({"l": {"L": [{"S": "ab"}, {"N": "1"}]}}), 1 + 3 + (1 + 2) + (1 + 2)),
            (json!({"m": {"M": {"k": {"S": "v"}}}}), 1 + 3 + (1 + 1 + 1)),
            (json!({"ss": {"SS": ["a", "bc"]}}), 2 + 3),
            (json!({"ns": {"NS": ["1", "22"]}}), 2 + 2 + 2),
            (json!({"bs": {"BS": ["AA==", "AAA="]}}), 2 + 1 + 2),
        ];
        for (json, bytes) in cases {
            assert_eq!(item_size(&item(&json)), bytes, "item {json}");
        }
    }

    #[test]
    fn json_round_trips() {
        let json = json!({
            "pk": {"S": "CUSTOMER#1"},
            "n": {"N": "3.14"},
            "b": {"B": "aGVsbG8="},
            "ok": {"BOOL": false},
            "none": {"NULL": true},
            "l": {"L": [{"S": "x"}, {"L": []}]},
            "m": {"M": {"inner": {"NS": ["1", "2"]}}},
            "ss": {"SS": ["a", "b"]},
            "bs": {"BS": ["AQ=="]}
        });
        assert_eq!(item_to_json(&item(&json)), json);
    }

    #[test]
    fn rejects_malformed_values() {
        let cases = [
            (json!({}), ValueError::Empty),
            (json!({"S": "a", "N": "1"}), ValueError::MoreThanOne),
            (json!({"X": "a"}), ValueError::UnknownType("X".into())),
            (
                json!({"S": 1}),
                ValueError::WrongJson { descriptor: "S", expected: "a string", found: "a JSON number" },
            ),
            (json!({"NULL": false}), ValueError::NullNotTrue),
            (json!({"SS": []}), ValueError::EmptySet("string")),
            (json!({"NS": ["1", "1.0"]}), ValueError::DuplicateInSet),
            (json!({"N": "1x"}), ValueError::Number(NumberError::NotANumber("1x".into()))),
            (json!({"B": "!!"}), ValueError::Base64("Invalid symbol 33, offset 0.".into())),
        ];
        for (json, error) in cases {
            assert_eq!(AttributeValue::from_json(&json), Err(error), "value {json}");
        }
        assert_eq!(item_from_json(&json!([1])), Err(ValueError::NotAnItem("an array")));
    }

    #[test]
    fn shape_errors_are_serialization_and_rule_errors_validation() {
        // (value, is a SerializationException). Shape: the JSON cannot be an AttributeValue.
        let cases = [
            (json!({"N": 5}), true),
            (json!({"B": "YQ"}), true),
            (json!({"SS": [1]}), true),
            (json!({"L": [5]}), true),
            (json!("x"), true),
            (json!({"NULL": "yes"}), true),
            (json!({}), false),
            (json!({"S": "a", "N": "1"}), false),
            (json!({"NULL": false}), false),
            (json!({"N": "1x"}), false),
            (json!({"SS": []}), false),
            (json!({"M": {"": {"S": "x"}}}), false),
        ];
        for (json, serialization) in cases {
            let error = AttributeValue::from_json(&json).unwrap_err();
            assert_eq!(error.is_serialization(), serialization, "value {json}: {error}");
        }
        assert!(item_from_json(&json!({"a": 5})).unwrap_err().is_serialization());
        assert!(item_from_json(&json!(5)).unwrap_err().is_serialization());
    }

    /// `levels` maps around a string: the string sits at level `levels + 1`.
    fn nested_maps(levels: usize) -> Json {
        (0..levels).fold(json!({"S": "leaf"}), |inner, _| json!({"M": {"a": inner}}))
    }

    fn nested_lists(levels: usize) -> Json {
        (0..levels).fold(json!({"N": "1"}), |inner, _| json!({"L": [{"NULL": true}, inner]}))
    }

    #[test]
    fn nesting_stops_at_32_levels() {
        // (value, accepted). A top-level attribute's value is level 1.
        let cases = [
            (nested_maps(0), true),
            (nested_maps(31), true),
            (nested_maps(32), false),
            (nested_lists(31), true),
            (nested_lists(32), false),
            (json!({"M": {"a": nested_lists(30)}}), true),
            (json!({"M": {"a": nested_lists(31)}}), false),
            // An empty container at level 32 is a value at level 32.
            ((0..31).fold(json!({"M": {}}), |inner, _| json!({"M": {"a": inner}})), true),
            ((0..32).fold(json!({"L": []}), |inner, _| json!({"L": [inner]})), false),
        ];
        for (json, accepted) in cases {
            let read = AttributeValue::from_json(&json);
            assert_eq!(read.is_ok(), accepted, "{read:?}");
            if !accepted {
                assert_eq!(read, Err(ValueError::TooDeep));
            }
            let in_item = item_from_json(&json!({"d": json}));
            assert_eq!(in_item.is_ok(), accepted);
        }
        assert_eq!(
            ValueError::TooDeep.to_string(),
            "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond \
             supported limit"
        );
    }

    #[test]
    fn reading_stops_at_the_limit_whatever_the_depth() {
        // Deeper than serde_json's own parser allows (128 JSON levels; each map level is two):
        // built in memory, read without recursing past the limit. (Kept at 200 levels because
        // serde_json drops a `Json` recursively, which a test thread's stack must survive.)
        let deep = nested_maps(200);
        assert_eq!(AttributeValue::from_json(&deep), Err(ValueError::TooDeep));
    }

    #[test]
    fn checks_documents_built_in_memory() {
        let value = |json: Json| AttributeValue::from_json(&json).unwrap();
        let deepest = value(nested_maps(31));
        let mut item: Item = [("d".to_owned(), deepest.clone())].into();
        assert_eq!(check_document(&item), Ok(()));
        item.insert("e".into(), AttributeValue::L(vec![deepest.clone()]));
        assert_eq!(check_document(&item), Err(ValueError::TooDeep));
        item.remove("e");
        item.insert("m".into(), AttributeValue::M([(String::new(), AttributeValue::Null)].into()));
        assert_eq!(check_document(&item), Err(ValueError::EmptyName));
        let empty_top: Item = [(String::new(), AttributeValue::Null)].into();
        assert_eq!(check_document(&empty_top), Err(ValueError::EmptyName));
    }

    #[test]
    fn attribute_names_are_not_empty() {
        let cases = [
            json!({"": {"S": "x"}}),
            json!({"a": {"M": {"": {"S": "x"}}}}),
            json!({"a": {"L": [{"M": {"": {"N": "1"}}}]}}),
        ];
        for json in cases {
            assert_eq!(item_from_json(&json), Err(ValueError::EmptyName), "item {json}");
        }
        assert!(item_from_json(&json!({"a": {"M": {"b": {"S": ""}}}})).is_ok(), "empty values are fine");
    }

    #[test]
    fn attribute_names_are_less_than_64_kb() {
        let name = |bytes: usize| "n".repeat(bytes);
        let item = |name: &str| json!({ name: {"S": "x"} });
        assert!(item_from_json(&item(&name(65_535))).is_ok());
        assert_eq!(item_from_json(&item(&name(65_536))), Err(ValueError::NameTooLong(65_536)));
        let nested = json!({"m": {"M": { name(65_536): {"N": "1"} }}});
        assert_eq!(item_from_json(&nested), Err(ValueError::NameTooLong(65_536)));
        // Bytes, not characters: 21,846 three-byte characters are 65,538 bytes.
        assert_eq!(item_from_json(&item(&"€".repeat(21_846))), Err(ValueError::NameTooLong(65_538)));
        let built: Item = [(name(65_536), AttributeValue::Null)].into();
        assert_eq!(check_document(&built), Err(ValueError::NameTooLong(65_536)));
        let message = ValueError::NameTooLong(65_536).to_string();
        assert!(message.contains("65536 bytes") && message.contains("64 KB"), "{message}");
    }

    #[test]
    fn keys_order_as_dynamodb_does() {
        let s = |x: &str| KeyValue::S(x.to_owned());
        // UTF-8 bytes, unsigned: 'Z' < 'a' < 'é' (0xC3…).
        assert!(s("Z") < s("a") && s("a") < s("é") && s("a") < s("aa"));
        let n = |x: &str| KeyValue::N(Number::parse(x).unwrap());
        assert!(n("-10") < n("2") && n("2") < n("10"));
        assert!(KeyValue::B(vec![0x7f]) < KeyValue::B(vec![0x80]));
    }

    fn arb_value() -> impl Strategy<Value = AttributeValue> {
        let leaf = prop_oneof![
            ".{0,8}".prop_map(AttributeValue::S),
            (-1_000_000i64..1_000_000).prop_map(AttributeValue::n),
            proptest::collection::vec(any::<u8>(), 0..8).prop_map(AttributeValue::B),
            any::<bool>().prop_map(AttributeValue::Bool),
            Just(AttributeValue::Null),
            proptest::collection::btree_set(".{0,4}", 1..4).prop_map(AttributeValue::Ss),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
                proptest::collection::btree_map("[a-z]{1,4}", inner, 0..4).prop_map(AttributeValue::M),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_value_round_trips_through_json(value in arb_value()) {
            prop_assert_eq!(AttributeValue::from_json(&value.to_json()).unwrap(), value);
        }

        #[test]
        fn reading_arbitrary_json_never_panics(text in "\\PC{0,60}") {
            if let Ok(json) = serde_json::from_str::<Json>(&text) {
                let _ = AttributeValue::from_json(&json);
                let _ = item_from_json(&json);
            }
        }
    }
}
