//! Reading one request's parameters out of its JSON object, with DynamoDB's error kinds: a value
//! of the wrong JSON type is a SerializationException (an AttributeValue of the wrong shape
//! included: `{"N": 5}`, bad Base64), a missing or invalid one a ValidationException. Every
//! parameter read is recorded, so `finish` can reject the ones keyheat does not know (a typo
//! would otherwise be silently ignored).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value as Json};

use crate::engine::expr::ExpressionContext;
use crate::engine::value::{AttributeValue, Item, ValueError, item_from_json};

use super::OpsError;

/// `camelCase` of a parameter name, as DynamoDB writes it in "at 'tableName'" messages.
pub(super) fn member_name(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
}

pub(super) fn missing(name: &str) -> OpsError {
    OpsError::validation(format!(
        "1 validation error detected: Value null at '{}' failed to satisfy constraint: Member must not be null",
        member_name(name)
    ))
}

pub(super) fn not_in_enum(name: &str, value: &str, allowed: &[&str]) -> OpsError {
    OpsError::validation(format!(
        "1 validation error detected: Value '{value}' at '{}' failed to satisfy constraint: Member must satisfy enum \
         value set: [{}]",
        member_name(name),
        allowed.join(", ")
    ))
}

/// An AttributeValue that could not be read, with the exception DynamoDB answers it with.
fn value_error(error: &ValueError, message: String) -> OpsError {
    if error.is_serialization() { OpsError::serialization(message) } else { OpsError::validation(message) }
}

/// An item or key that could not be read.
impl From<ValueError> for OpsError {
    fn from(error: ValueError) -> OpsError {
        value_error(&error, error.to_string())
    }
}

/// Whether `key` is a valid ExpressionAttributeNames (`#`) or ExpressionAttributeValues (`:`)
/// key: the sigil, then one or more ASCII letters, digits or underscores (the syntax dynalite
/// and moto reproduce from DynamoDB).
fn is_substitution_key(key: &str, sigil: char) -> bool {
    key.strip_prefix(sigil)
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// DynamoDB's message for a badly formed substitution key. Verified for ExpressionAttributeNames
/// (dynalite's tests, recorded against DynamoDB); the ExpressionAttributeValues form is the same
/// sentence by analogy (unverified).
fn invalid_key(parameter: &str, key: &str) -> OpsError {
    OpsError::validation(format!("{parameter} contains invalid key: Syntax error; key: \"{key}\""))
}

/// A JSON object's fields, read by name.
pub(super) struct Params<'a> {
    context: &'a str,
    map: &'a Map<String, Json>,
    used: BTreeSet<&'a str>,
}

impl<'a> Params<'a> {
    /// `context` names the object in messages (`PutItem`, `GlobalSecondaryIndexes`…).
    pub(super) fn new(context: &'a str, map: &'a Map<String, Json>) -> Params<'a> {
        Params { context, map, used: BTreeSet::new() }
    }

    pub(super) fn of(context: &'a str, json: &'a Json) -> Result<Params<'a>, OpsError> {
        match json {
            Json::Object(map) => Ok(Params::new(context, map)),
            _ => Err(OpsError::serialization(format!("{context} must be a JSON object"))),
        }
    }

    fn get(&mut self, name: &'a str) -> Option<&'a Json> {
        self.used.insert(name);
        self.map.get(name).filter(|v| !v.is_null())
    }

    fn wrong(&self, name: &str, expected: &str) -> OpsError {
        OpsError::serialization(format!("{} parameter {name} must be {expected}", self.context))
    }

    /// Marks a parameter as known without reading it (`op`).
    pub(super) fn allow(&mut self, name: &'a str) {
        self.used.insert(name);
    }

    pub(super) fn string(&mut self, name: &'a str) -> Result<Option<&'a str>, OpsError> {
        match self.get(name) {
            None => Ok(None),
            Some(Json::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.wrong(name, "a string")),
        }
    }

    pub(super) fn required_string(&mut self, name: &'a str) -> Result<&'a str, OpsError> {
        self.string(name)?.ok_or_else(|| missing(name))
    }

    pub(super) fn bool(&mut self, name: &'a str) -> Result<Option<bool>, OpsError> {
        match self.get(name) {
            None => Ok(None),
            Some(Json::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(self.wrong(name, "a boolean")),
        }
    }

    /// A non-negative integer.
    pub(super) fn integer(&mut self, name: &'a str) -> Result<Option<u64>, OpsError> {
        match self.get(name) {
            None => Ok(None),
            Some(Json::Number(n)) => match (n.as_u64(), n.as_i64()) {
                (Some(v), _) => Ok(Some(v)),
                (None, Some(v)) => Err(OpsError::validation(format!(
                    "1 validation error detected: Value '{v}' at '{}' failed to satisfy constraint: Member must have \
                     value greater than or equal to 0",
                    member_name(name)
                ))),
                _ => Err(self.wrong(name, "a whole number")),
            },
            Some(_) => Err(self.wrong(name, "a number")),
        }
    }

    pub(super) fn array(&mut self, name: &'a str) -> Result<Option<&'a [Json]>, OpsError> {
        match self.get(name) {
            None => Ok(None),
            Some(Json::Array(a)) => Ok(Some(a)),
            Some(_) => Err(self.wrong(name, "an array")),
        }
    }

    pub(super) fn object(&mut self, name: &'a str) -> Result<Option<&'a Map<String, Json>>, OpsError> {
        match self.get(name) {
            None => Ok(None),
            Some(Json::Object(m)) => Ok(Some(m)),
            Some(_) => Err(self.wrong(name, "an object")),
        }
    }

    /// An item or key in DynamoDB JSON.
    pub(super) fn item(&mut self, name: &'a str) -> Result<Option<Item>, OpsError> {
        let Some(json) = self.get(name) else { return Ok(None) };
        if !json.is_object() {
            return Err(self.wrong(name, "an object of attribute values"));
        }
        item_from_json(json).map(Some).map_err(OpsError::from)
    }

    pub(super) fn required_item(&mut self, name: &'a str) -> Result<Item, OpsError> {
        self.item(name)?.ok_or_else(|| missing(name))
    }

    /// An enum parameter: one of `allowed`, or absent.
    pub(super) fn choice(
        &mut self,
        name: &'a str,
        allowed: &[&'static str],
    ) -> Result<Option<&'static str>, OpsError> {
        let Some(value) = self.string(name)? else { return Ok(None) };
        allowed
            .iter()
            .find(|a| **a == value)
            .copied()
            .map(Some)
            .ok_or_else(|| not_in_enum(name, value, allowed))
    }

    /// ExpressionAttributeNames and ExpressionAttributeValues, for the request's expressions.
    pub(super) fn expression_context(&mut self) -> Result<ExpressionContext, OpsError> {
        let names = match self.object("ExpressionAttributeNames")? {
            None => BTreeMap::new(),
            Some(map) if map.is_empty() => {
                return Err(OpsError::validation("ExpressionAttributeNames must not be empty"));
            }
            Some(map) => map
                .iter()
                .map(|(k, v)| match v {
                    _ if !is_substitution_key(k, '#') => Err(invalid_key("ExpressionAttributeNames", k)),
                    // Attribute names are at least one character long (AWS "Naming rules"); the
                    // message is DynamoDB's.
                    Json::String(s) if s.is_empty() => Err(OpsError::validation(format!(
                        "ExpressionAttributeNames contains invalid value: Empty attribute name for key {k}"
                    ))),
                    Json::String(s) => Ok((k.clone(), s.clone())),
                    _ => Err(self.wrong("ExpressionAttributeNames", "an object of strings")),
                })
                .collect::<Result<_, _>>()?,
        };
        let values = match self.object("ExpressionAttributeValues")? {
            None => BTreeMap::new(),
            Some(map) if map.is_empty() => {
                return Err(OpsError::validation("ExpressionAttributeValues must not be empty"));
            }
            Some(map) => map
                .iter()
                .map(|(k, v)| {
                    if !is_substitution_key(k, ':') {
                        return Err(invalid_key("ExpressionAttributeValues", k));
                    }
                    AttributeValue::from_json(v).map(|v| (k.clone(), v)).map_err(|e| {
                        let message =
                            format!("ExpressionAttributeValues contains invalid value: {e} for key {k}");
                        value_error(&e, message)
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        Ok(ExpressionContext::new(names, values))
    }

    /// Rejects parameters no reader asked for.
    pub(super) fn finish(self) -> Result<(), OpsError> {
        let unknown: Vec<&str> =
            self.map.keys().map(String::as_str).filter(|k| !self.used.contains(k)).collect();
        if unknown.is_empty() {
            return Ok(());
        }
        let mut known: Vec<&str> = self.used.iter().copied().filter(|k| *k != "op").collect();
        known.sort_unstable();
        Err(OpsError::validation(format!(
            "{} does not support parameter{} {}; supported: {}",
            self.context,
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", "),
            known.join(", ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The error `expression_context` gives for a request with these substitution parameters.
    fn context_error(request: &Json) -> Option<(&'static str, String)> {
        let map = request.as_object().expect("test requests are objects");
        let error = Params::new("GetItem", map).expression_context().err()?;
        Some((error.type_name, error.message))
    }

    #[test]
    fn substitution_keys_and_values_are_checked() {
        let validation = |m: &str| Some(("ValidationException", m.to_owned()));
        let cases = [
            (json!({"ExpressionAttributeNames": {"#a": "a", "#_1": "b"}}), None),
            (
                json!({"ExpressionAttributeNames": {"n": "n"}}),
                validation(r#"ExpressionAttributeNames contains invalid key: Syntax error; key: "n""#),
            ),
            (
                json!({"ExpressionAttributeNames": {"#": "n"}}),
                validation(r##"ExpressionAttributeNames contains invalid key: Syntax error; key: "#""##),
            ),
            (
                json!({"ExpressionAttributeNames": {"#a-b": "n"}}),
                validation(r##"ExpressionAttributeNames contains invalid key: Syntax error; key: "#a-b""##),
            ),
            (
                json!({"ExpressionAttributeNames": {"#e": ""}}),
                validation("ExpressionAttributeNames contains invalid value: Empty attribute name for key #e"),
            ),
            (json!({"ExpressionAttributeValues": {":v": {"S": ""}, ":V_2": {"N": "1"}}}), None),
            (
                json!({"ExpressionAttributeValues": {"v": {"S": "x"}}}),
                validation(r#"ExpressionAttributeValues contains invalid key: Syntax error; key: "v""#),
            ),
            (
                json!({"ExpressionAttributeValues": {":v": {"N": 5}}}),
                Some((
                    "SerializationException",
                    "ExpressionAttributeValues contains invalid value: Expected a string for the N datatype, found a \
                     JSON number for key :v"
                        .to_owned(),
                )),
            ),
            (
                json!({"ExpressionAttributeValues": {":v": {"NULL": false}}}),
                validation(
                    "ExpressionAttributeValues contains invalid value: Null attribute value types must have the value \
                     of true for key :v",
                ),
            ),
        ];
        for (request, error) in cases {
            assert_eq!(context_error(&request), error, "{request}");
        }
    }

    #[test]
    fn items_of_the_wrong_shape_are_serialization_errors() {
        // (Item, exception)
        let cases = [
            (json!({"pk": {"N": 5}}), "SerializationException"),
            (json!({"pk": {"B": "YQ"}}), "SerializationException"),
            (json!({"pk": "a"}), "SerializationException"),
            (json!({"pk": {"SS": []}}), "ValidationException"),
            (json!({"": {"S": "a"}}), "ValidationException"),
        ];
        for (item, type_name) in cases {
            let request = json!({"Item": item});
            let map = request.as_object().expect("an object");
            let error = Params::new("PutItem", map).item("Item").expect_err("refused");
            assert_eq!(error.type_name, type_name, "{item}");
        }
    }
}
