//! A key value's shape: the part of it that names a kind of item (`CUSTOMER#…`), with the id
//! that varies left out. Items whose partition and sort keys have the same shapes are one
//! entity of a single-table design.
//!
//! The rule, for a string:
//! - with a `#`: the text before the first `#` (`CUSTOMER#c01#2024` → `CUSTOMER#…`), unless that
//!   text holds a digit or is empty — then it is an id itself (`c01#2024` → `…`);
//! - without a `#`: letters followed by a separator (`-` `_` `:` `|` `/` `.`) are a prefix
//!   (`user-42` → `user-…`), and so are letters followed only by digits (`u42` → `u…`); a value of
//!   capital letters and `_` alone is a marker and its own shape (`PROFILE`, `METADATA`);
//!   anything else is a bare id (`…`: a lowercase word, a UUID, a date). Eight or more letters
//!   that are all hexadecimal digits are a UUID's first group, not a prefix.
//!
//! Numbers and binary values have no prefix: their shapes are `(number)` and `(binary)`.

use std::fmt;

use serde::Serialize;

use crate::engine::value::KeyValue;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    /// `prefix` then `separator` then an id: `CUSTOMER#…`, `user-…`, `u…` (no separator).
    Prefixed {
        prefix: String,
        separator: String,
    },
    /// A constant marker value: `PROFILE`.
    Marker(String),
    /// An id with no prefix.
    Bare,
    Number,
    Binary,
}

const SEPARATORS: [char; 6] = ['-', '_', ':', '|', '/', '.'];

impl Shape {
    pub fn of(key: &KeyValue) -> Shape {
        match key {
            KeyValue::S(text) => Shape::of_text(text),
            KeyValue::N(_) => Shape::Number,
            KeyValue::B(_) => Shape::Binary,
        }
    }

    pub fn of_text(text: &str) -> Shape {
        if let Some((prefix, _)) = text.split_once('#') {
            if prefix.is_empty() || prefix.chars().any(|c| c.is_ascii_digit()) {
                return Shape::Bare;
            }
            return Shape::Prefixed { prefix: prefix.to_owned(), separator: "#".to_owned() };
        }
        let letters = text.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(text.len());
        let (prefix, rest) = text.split_at(letters);
        if prefix.is_empty() {
            return Shape::Bare;
        }
        if text.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
            return Shape::Marker(text.to_owned());
        }
        if prefix.len() >= 8 && prefix.chars().all(|c| c.is_ascii_hexdigit()) {
            return Shape::Bare;
        }
        let mut chars = rest.chars();
        match chars.next() {
            Some(c) if SEPARATORS.contains(&c) && chars.next().is_some() => {
                Shape::Prefixed { prefix: prefix.to_owned(), separator: c.to_string() }
            }
            Some(_) if rest.chars().all(|c| c.is_ascii_digit()) => {
                Shape::Prefixed { prefix: prefix.to_owned(), separator: String::new() }
            }
            _ => Shape::Bare,
        }
    }

    /// The word the shape stands for (`CUSTOMER`, `PROFILE`), if it has one.
    pub fn word(&self) -> Option<&str> {
        match self {
            Shape::Prefixed { prefix, .. } => Some(prefix),
            Shape::Marker(word) => Some(word),
            Shape::Bare | Shape::Number | Shape::Binary => None,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Prefixed { prefix, separator } => write!(f, "{prefix}{separator}…"),
            Shape::Marker(word) => f.write_str(word),
            Shape::Bare => f.write_str("…"),
            Shape::Number => f.write_str("(number)"),
            Shape::Binary => f.write_str("(binary)"),
        }
    }
}

impl Serialize for Shape {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::number::Number;

    #[test]
    fn key_values_have_the_shapes_the_rule_says() {
        let cases = [
            ("CUSTOMER#c01", "CUSTOMER#…"),
            ("CUSTOMER#c01#2024-01", "CUSTOMER#…"),
            ("ORDER#", "ORDER#…"),
            ("c01#2024", "…"),
            ("#x", "…"),
            ("user-42", "user-…"),
            ("tenant_a_7", "tenant_…"),
            ("u42", "u…"),
            ("PROFILE", "PROFILE"),
            ("ORDER_TOTALS", "ORDER_TOTALS"),
            ("alice", "…"),
            ("Alice", "…"),
            ("2024-01-01T00:00:00Z", "…"),
            ("1a2b3c4d-0000-4000-8000-000000000000", "…"),
            ("deadbeef-0000-4000-8000-000000000000", "…"),
            ("user-", "…"),
            ("u42x", "…"),
            ("", "…"),
        ];
        for (value, shape) in cases {
            assert_eq!(Shape::of_text(value).to_string(), shape, "{value:?}");
        }
        assert_eq!(Shape::of(&KeyValue::N(Number::from_i64(7))), Shape::Number);
        assert_eq!(Shape::of(&KeyValue::B(vec![1])).to_string(), "(binary)");
        assert_eq!(Shape::of_text("CUSTOMER#1").word(), Some("CUSTOMER"));
    }
}
