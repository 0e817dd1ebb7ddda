//! The store against a model: a `BTreeMap<(pk, sk), Item>` driven by the same random puts,
//! deletes, gets and queries (every sort-key condition, both directions, Limit and pagination).
//! Reads must return what the model holds, in the model's order, and charge what the items'
//! sizes say.

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;
use crate::engine::value::item_size;

#[derive(Debug, Clone)]
enum Op {
    Put { pk: u8, sk: String, pad: usize },
    Delete { pk: u8, sk: String },
    Get { pk: u8, sk: String },
    Query { pk: u8, condition: Option<SortCondition>, forward: bool, limit: Option<usize> },
}

#[derive(Debug, Clone)]
enum SortCondition {
    Eq(String),
    Lt(String),
    Le(String),
    Gt(String),
    Ge(String),
    Between(String, String),
    BeginsWith(String),
}

fn sort_key() -> impl Strategy<Value = String> {
    "[ab]{1,3}"
}

fn condition() -> impl Strategy<Value = SortCondition> {
    prop_oneof![
        sort_key().prop_map(SortCondition::Eq),
        sort_key().prop_map(SortCondition::Lt),
        sort_key().prop_map(SortCondition::Le),
        sort_key().prop_map(SortCondition::Gt),
        sort_key().prop_map(SortCondition::Ge),
        (sort_key(), sort_key()).prop_map(|(a, b)| if a <= b {
            SortCondition::Between(a, b)
        } else {
            SortCondition::Between(b, a)
        }),
        "[ab]{1,2}".prop_map(SortCondition::BeginsWith),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..3u8, sort_key(), 0..6000usize).prop_map(|(pk, sk, pad)| Op::Put { pk, sk, pad }),
        1 => (0..3u8, sort_key()).prop_map(|(pk, sk)| Op::Delete { pk, sk }),
        2 => (0..3u8, sort_key()).prop_map(|(pk, sk)| Op::Get { pk, sk }),
        3 => (0..3u8, proptest::option::of(condition()), any::<bool>(), proptest::option::of(1..5usize))
            .prop_map(|(pk, condition, forward, limit)| Op::Query { pk, condition, forward, limit }),
    ]
}

impl SortCondition {
    fn matches(&self, sk: &str) -> bool {
        match self {
            SortCondition::Eq(v) => sk == v,
            SortCondition::Lt(v) => sk < v.as_str(),
            SortCondition::Le(v) => sk <= v.as_str(),
            SortCondition::Gt(v) => sk > v.as_str(),
            SortCondition::Ge(v) => sk >= v.as_str(),
            SortCondition::Between(a, b) => a.as_str() <= sk && sk <= b.as_str(),
            SortCondition::BeginsWith(p) => sk.starts_with(p.as_str()),
        }
    }

    fn term(&self) -> KeyTerm {
        let op = match self {
            SortCondition::Eq(v) => KeyOp::Eq(s(v)),
            SortCondition::Lt(v) => KeyOp::Lt(s(v)),
            SortCondition::Le(v) => KeyOp::Le(s(v)),
            SortCondition::Gt(v) => KeyOp::Gt(s(v)),
            SortCondition::Ge(v) => KeyOp::Ge(s(v)),
            SortCondition::Between(a, b) => KeyOp::Between(s(a), s(b)),
            SortCondition::BeginsWith(p) => KeyOp::BeginsWith(s(p)),
        };
        KeyTerm { attribute: "SK".into(), op }
    }
}

fn pk_name(pk: u8) -> String {
    format!("P{pk}")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn store_matches_a_btreemap_model(ops in proptest::collection::vec(op(), 1..60)) {
        let mut store = store_with(spec("tbl"));
        let mut model: BTreeMap<(String, String), Item> = BTreeMap::new();
        for op in ops {
            match op {
                Op::Put { pk, sk, pad } => {
                    let mut item = key(&pk_name(pk), &sk);
                    item.insert("pad".into(), s(&"x".repeat(pad)));
                    put(&mut store, item.clone());
                    model.insert((pk_name(pk), sk), item);
                }
                Op::Delete { pk, sk } => {
                    let request = DeleteItem {
                        table: "tbl".into(),
                        key: key(&pk_name(pk), &sk),
                        condition: None,
                        return_values: ReturnValues::AllOld,
                    };
                    let old = store.delete_item(&request).unwrap().attributes;
                    let expected = model.remove(&(pk_name(pk), sk));
                    prop_assert_eq!(old.as_deref(), expected.as_ref());
                }
                Op::Get { pk, sk } => {
                    let got = get(&store, key(&pk_name(pk), &sk), true);
                    let expected = model.get(&(pk_name(pk), sk));
                    prop_assert_eq!(got.item.as_deref(), expected);
                    let bytes = expected.map_or(0, |i| item_size(i) as u64);
                    prop_assert_eq!(got.consumed.total(), read_units(bytes, true));
                }
                Op::Query { pk, condition, forward, limit } => {
                    let mut expected: Vec<&Item> = model
                        .range((pk_name(pk), String::new())..)
                        .take_while(|((p, _), _)| *p == pk_name(pk))
                        .filter(|((_, sk), _)| condition.as_ref().is_none_or(|c| c.matches(sk)))
                        .map(|(_, item)| item)
                        .collect();
                    if !forward {
                        expected.reverse();
                    }
                    let mut terms = vec![eq("PK", s(&pk_name(pk)))];
                    terms.extend(condition.as_ref().map(SortCondition::term));
                    let mut got = Vec::new();
                    let mut start = None;
                    let mut pages = 0;
                    loop {
                        let query = Query {
                            scan_forward: forward,
                            limit,
                            exclusive_start_key: start,
                            consistent_read: true,
                            ..Query::new("tbl", KeyCondition { terms: terms.clone() })
                        };
                        let out = store.query(&query).unwrap();
                        pages += 1;
                        prop_assert!(out.items.len() <= limit.unwrap_or(usize::MAX));
                        prop_assert_eq!(out.count, out.items.len());
                        let bytes: u64 = out.items.iter().map(|i| item_size(i) as u64).sum();
                        prop_assert_eq!(out.consumed.total(), read_units(bytes, true));
                        got.extend(out.items);
                        start = out.last_evaluated_key;
                        if start.is_none() {
                            break;
                        }
                        prop_assert!(pages <= expected.len() + 1, "pagination must end");
                    }
                    let got: Vec<&Item> = got.iter().map(AsRef::as_ref).collect();
                    prop_assert_eq!(got, expected.clone());
                    // Every page but the last is full; a full last page is followed by an empty one.
                    if let Some(limit) = limit {
                        prop_assert_eq!(pages, expected.len() / limit + 1);
                    }
                }
            }
        }
        let t = store.table("tbl").unwrap();
        prop_assert_eq!(t.item_count(), model.len() as u64);
        prop_assert_eq!(t.size_bytes(), model.values().map(|i| item_size(i) as u64).sum::<u64>());
    }
}
