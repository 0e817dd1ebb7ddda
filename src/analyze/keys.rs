//! Which attributes are the table's partition and sort key. An export and a scan's output hold
//! items, not the key schema, so unless the user names them they are inferred from the first
//! [`SAMPLE`] items:
//!
//! - the sort key: an attribute with a conventional name (`SK`, `sk`, `SortKey`, `sort_key`,
//!   `RangeKey`) that every sampled item holds as a string, number or binary; else none;
//! - the partition key: likewise by name (`PK`, `pk`, `PartitionKey`, `partition_key`,
//!   `HashKey`); else, of the attributes every sampled item holds as a string, number or binary,
//!   the one with the most distinct values (ties: the first by name) — right for a key-value
//!   table, a guess for one with a sort key, which is why the report says how it was chosen.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::Options;
use super::read::Place;
use crate::engine::value::{AttributeValue, Item, KeyValue};

/// Items looked at before the keys are chosen.
pub const SAMPLE: usize = 1000;

const SORT_NAMES: [&str; 5] = ["sk", "sortkey", "sort_key", "rangekey", "range_key"];
const PARTITION_NAMES: [&str; 5] = ["pk", "partitionkey", "partition_key", "hashkey", "hash_key"];

/// A key attribute and how it was chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyChoice {
    pub attribute: String,
    pub how: How,
}

impl KeyChoice {
    pub fn inferred(&self) -> bool {
        self.how != How::Given
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "rule")]
pub enum How {
    /// Named on the command line.
    Given,
    /// A conventional key name held by every sampled item.
    Named { sampled: usize },
    /// The attribute with the most distinct values among those every sampled item holds.
    MostDistinct { distinct: usize, sampled: usize },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeySchema {
    pub partition: KeyChoice,
    /// `None`: the table has no sort key, or none was found by name.
    pub sort: Option<KeyChoice>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error(
        "no attribute is a string, number or binary in every one of the first {sampled} items, so no partition key can be inferred; name it with --partition-key NAME"
    )]
    NoPartitionKey { sampled: usize },
    #[error("--partition-key and --sort-key both name {0}; a table's two key attributes differ")]
    Same(String),
}

/// The first items, held until the keys are chosen.
pub struct Ready {
    pub schema: KeySchema,
    pub sample: Vec<(Item, Place)>,
}

pub struct Sampler {
    options: Options,
    sample: Vec<(Item, Place)>,
}

impl Sampler {
    pub fn new(options: &Options) -> Sampler {
        Sampler { options: options.clone(), sample: Vec::new() }
    }

    /// Takes an item; once the keys can be chosen, returns them with the items held so far.
    /// When both keys are given there is nothing to wait for.
    pub fn offer(&mut self, item: Item, place: &Place) -> Result<Option<Ready>, KeyError> {
        self.sample.push((item, place.clone()));
        let given = self.options.partition_key.is_some() && self.options.sort_key.is_some();
        if given || self.sample.len() >= SAMPLE { self.finish() } else { Ok(None) }
    }

    /// The keys from what was sampled (`None` when nothing was).
    pub fn finish(&mut self) -> Result<Option<Ready>, KeyError> {
        if self.sample.is_empty() {
            return Ok(None);
        }
        let sample = std::mem::take(&mut self.sample);
        let items: Vec<&Item> = sample.iter().map(|(i, _)| i).collect();
        let schema = choose(&items, &self.options)?;
        Ok(Some(Ready { schema, sample }))
    }
}

/// The keys of a table whose first items are `items` (see the module documentation).
pub fn choose(items: &[&Item], options: &Options) -> Result<KeySchema, KeyError> {
    if let (Some(pk), Some(sk)) = (&options.partition_key, &options.sort_key)
        && pk == sk
    {
        return Err(KeyError::Same(pk.clone()));
    }
    let sampled = items.len();
    // Attributes every item holds as a key type, with their distinct values.
    let mut candidates: BTreeMap<&str, HashSet<KeyValue>> = BTreeMap::new();
    if let Some(first) = items.first() {
        for name in first.keys() {
            candidates.insert(name, HashSet::new());
        }
    }
    for item in items {
        candidates.retain(|name, values| match item.get(*name).and_then(AttributeValue::as_key) {
            Some(key) => {
                values.insert(key);
                true
            }
            None => false,
        });
    }
    let named = |names: &[&str], not: Option<&str>| {
        candidates
            .keys()
            .find(|c| names.contains(&c.to_ascii_lowercase().as_str()) && Some(**c) != not)
            .map(|c| KeyChoice { attribute: (*c).to_owned(), how: How::Named { sampled } })
    };
    let given =
        |name: &Option<String>| name.as_ref().map(|n| KeyChoice { attribute: n.clone(), how: How::Given });
    let sort = given(&options.sort_key).or_else(|| {
        // A given partition key is never also the inferred sort key.
        named(&SORT_NAMES, options.partition_key.as_deref())
    });
    let not_sort = sort.as_ref().map(|s| s.attribute.as_str());
    let partition = given(&options.partition_key)
        .or_else(|| named(&PARTITION_NAMES, not_sort))
        .or_else(|| {
            candidates
                .iter()
                .filter(|(name, _)| Some(**name) != not_sort)
                // Most distinct values first; BTreeMap order (by name) breaks ties.
                .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(a.0)))
                .map(|(name, values)| KeyChoice {
                    attribute: (*name).to_owned(),
                    how: How::MostDistinct { distinct: values.len(), sampled },
                })
        })
        .ok_or(KeyError::NoPartitionKey { sampled })?;
    Ok(KeySchema { partition, sort })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::value::item_from_json;
    use serde_json::json;

    fn items(values: &[serde_json::Value]) -> Vec<Item> {
        values.iter().map(|v| item_from_json(v).unwrap()).collect()
    }

    /// The partition key, how it was chosen, the sort key.
    type Chosen<'a> = Result<(&'a str, How, Option<&'a str>), KeyError>;

    #[test]
    fn chooses_keys_by_name_then_by_distinct_values() {
        let single = items(&[
            json!({"PK": {"S": "A#1"}, "SK": {"S": "X"}, "n": {"N": "1"}}),
            json!({"PK": {"S": "A#1"}, "SK": {"S": "Y"}, "n": {"N": "2"}}),
        ]);
        let key_value = items(&[
            json!({"user": {"S": "u1"}, "plan": {"S": "free"}, "tags": {"SS": ["a"]}}),
            json!({"user": {"S": "u2"}, "plan": {"S": "free"}, "tags": {"SS": ["b"]}}),
        ]);
        let lower = items(&[json!({"pk": {"N": "1"}, "sk": {"B": "AQ=="}})]);
        let none = items(&[json!({"a": {"S": "x"}}), json!({"b": {"S": "y"}})]);
        let given = Options { partition_key: Some("plan".into()), sort_key: None };
        // (items, options, partition key, how, sort key)
        let cases: [(&[Item], Options, Chosen); 5] = [
            (&single, Options::default(), Ok(("PK", How::Named { sampled: 2 }, Some("SK")))),
            (
                &key_value,
                Options::default(),
                Ok(("user", How::MostDistinct { distinct: 2, sampled: 2 }, None)),
            ),
            (&key_value, given, Ok(("plan", How::Given, None))),
            (&lower, Options::default(), Ok(("pk", How::Named { sampled: 1 }, Some("sk")))),
            (&none, Options::default(), Err(KeyError::NoPartitionKey { sampled: 2 })),
        ];
        for (sample, options, expected) in cases {
            let refs: Vec<&Item> = sample.iter().collect();
            let got = choose(&refs, &options)
                .map(|s| (s.partition.attribute.clone(), s.partition.how, s.sort.map(|k| k.attribute)));
            let expected = expected.map(|(p, h, s)| (p.to_owned(), h, s.map(str::to_owned)));
            assert_eq!(got, expected, "{options:?}");
        }
        let same = Options { partition_key: Some("a".into()), sort_key: Some("a".into()) };
        assert_eq!(choose(&[], &same), Err(KeyError::Same("a".into())));
    }
}
