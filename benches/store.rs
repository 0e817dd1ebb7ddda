//! Store throughput against a bare `BTreeMap` doing the equivalent work, measured in the same run.
//!
//! One seeded stream of 200,000 operations: puts of ~200-byte items into a table with one sparse
//! GSI (half the puts), GetItem by key (a third), Query of one partition with Limit 20 (the
//! rest). The store replays it through its typed API with pre-built requests; the baseline
//! replays inserts, gets and 20-entry ranges on `BTreeMap<(String, String), Vec<u8>>`. Requests
//! are cloned for each round before the clock starts, so neither side times the cloning.
//! Target: the store at ≥ 0.25× the baseline's rate.
//!
//! Run: `cargo bench --bench store`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use keyheat::engine::expr::{KeyCondition, KeyOp, KeyTerm};
use keyheat::engine::hash::combine;
use keyheat::engine::store::{
    BillingMode, CreateTable, GetItem, IndexSpec, KeyAttribute, KeySchema, ProjectionType, PutItem, Query,
    ReturnValues, Store, StoreConfig, TableSpec,
};
use keyheat::engine::value::{AttributeValue, Item, KeyType, item_size};

const SEED: u64 = 42;
const OPS: usize = 200_000;
const ROUNDS: usize = 5;
const PARTITIONS: u64 = 2_000;
const SORT_KEYS: u64 = 200;

#[derive(Clone)]
enum StoreOp {
    Put(PutItem),
    Get(GetItem),
    Query(Query),
}

#[derive(Clone)]
enum BaselineOp {
    Insert((String, String), Vec<u8>),
    Get((String, String)),
    Range((String, String)),
}

/// A deterministic draw in `0..n` for operation `i`, stream `stream`.
fn draw(i: usize, stream: u64, n: u64) -> u64 {
    combine(&[SEED, stream, i as u64]) % n
}

fn key_strings(i: usize) -> (String, String) {
    (format!("user#{:05}", draw(i, 1, PARTITIONS)), format!("event#{:08}", draw(i, 2, SORT_KEYS)))
}

fn generate() -> (Vec<StoreOp>, Vec<BaselineOp>, usize) {
    let mut store_ops = Vec::with_capacity(OPS);
    let mut baseline_ops = Vec::with_capacity(OPS);
    let mut bytes = 0;
    for i in 0..OPS {
        let (pk, sk) = key_strings(i);
        match draw(i, 0, 6) {
            0..=2 => {
                let mut item = Item::new();
                item.insert("PK".into(), AttributeValue::s(pk.clone()));
                item.insert("SK".into(), AttributeValue::s(sk.clone()));
                item.insert(
                    "count".into(),
                    AttributeValue::n(i64::try_from(i).expect("fewer than 2^63 ops")),
                );
                item.insert(
                    "payload".into(),
                    AttributeValue::s("x".repeat(130 + usize::try_from(draw(i, 3, 40)).expect("below 40"))),
                );
                // A sparse GSI: about a third of the items carry a status.
                if draw(i, 4, 3) == 0 {
                    item.insert("status".into(), AttributeValue::s(format!("S{}", draw(i, 5, 10))));
                }
                let size = item_size(&item);
                bytes += size;
                store_ops.push(StoreOp::Put(PutItem {
                    table: "bench".into(),
                    item,
                    condition: None,
                    return_values: ReturnValues::None,
                }));
                baseline_ops.push(BaselineOp::Insert((pk, sk), vec![7u8; size]));
            }
            3 | 4 => {
                let mut key = Item::new();
                key.insert("PK".into(), AttributeValue::s(pk.clone()));
                key.insert("SK".into(), AttributeValue::s(sk.clone()));
                store_ops.push(StoreOp::Get(GetItem {
                    table: "bench".into(),
                    key,
                    consistent_read: false,
                    projection: None,
                }));
                baseline_ops.push(BaselineOp::Get((pk, sk)));
            }
            _ => {
                let condition = KeyCondition {
                    terms: vec![KeyTerm {
                        attribute: "PK".into(),
                        op: KeyOp::Eq(AttributeValue::s(pk.clone())),
                    }],
                };
                store_ops.push(StoreOp::Query(Query { limit: Some(20), ..Query::new("bench", condition) }));
                baseline_ops.push(BaselineOp::Range((pk, String::new())));
            }
        }
    }
    let puts = store_ops.iter().filter(|op| matches!(op, StoreOp::Put(_))).count();
    (store_ops, baseline_ops, bytes / puts.max(1))
}

fn new_store() -> Store {
    let mut store = Store::new(StoreConfig::default());
    let spec = TableSpec {
        name: "bench".into(),
        key: KeySchema::new(KeyAttribute::new("PK", KeyType::S), Some(KeyAttribute::new("SK", KeyType::S))),
        global: vec![IndexSpec {
            name: "byStatus".into(),
            key: KeySchema::new(
                KeyAttribute::new("status", KeyType::S),
                Some(KeyAttribute::new("SK", KeyType::S)),
            ),
            projection: ProjectionType::KeysOnly,
            throughput: None,
        }],
        local: vec![],
        billing: BillingMode::PayPerRequest,
    };
    store.create_table(CreateTable { spec, index_lag: None }).expect("the bench table is valid");
    store
}

/// Replays the stream through the store; returns (seconds, units consumed, items returned).
fn run_store(ops: Vec<StoreOp>) -> (f64, f64, usize) {
    let mut store = new_store();
    let mut units = 0.0;
    let mut returned = 0;
    let start = Instant::now();
    for op in ops {
        match op {
            StoreOp::Put(put) => units += store.put_item(put).expect("bench puts are valid").consumed.total(),
            StoreOp::Get(get) => {
                let out = store.get_item(&get).expect("bench gets are valid");
                returned += usize::from(out.item.is_some());
                units += out.consumed.total();
            }
            StoreOp::Query(query) => {
                let out = store.query(&query).expect("bench queries are valid");
                returned += out.items.len();
                units += out.consumed.total();
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    black_box(&store);
    (seconds, units, returned)
}

/// Replays the equivalent work on a bare map; returns (seconds, items returned).
fn run_baseline(ops: Vec<BaselineOp>) -> (f64, usize) {
    let mut map: BTreeMap<(String, String), Vec<u8>> = BTreeMap::new();
    let mut returned = 0;
    let start = Instant::now();
    for op in ops {
        match op {
            BaselineOp::Insert(key, value) => {
                black_box(map.insert(key, value));
            }
            BaselineOp::Get(key) => returned += usize::from(black_box(map.get(&key)).is_some()),
            BaselineOp::Range(from) => {
                let pk = from.0.clone();
                for entry in map.range(from..).take_while(|((p, _), _)| *p == pk).take(20) {
                    black_box(entry);
                    returned += 1;
                }
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    black_box(&map);
    (seconds, returned)
}

fn main() {
    let (store_ops, baseline_ops, mean_item) = generate();
    println!(
        "store bench: {OPS} ops (puts of ~{mean_item}-byte items with one GSI, gets, Query Limit 20), {ROUNDS} rounds"
    );
    let mut ratios = Vec::with_capacity(ROUNDS);
    for round in 1..=ROUNDS {
        let (store_seconds, units, store_returned) = run_store(store_ops.clone());
        let (baseline_seconds, baseline_returned) = run_baseline(baseline_ops.clone());
        assert_eq!(store_returned, baseline_returned, "both sides return the same items");
        let store_rate = OPS as f64 / store_seconds;
        let baseline_rate = OPS as f64 / baseline_seconds;
        let ratio = store_rate / baseline_rate;
        ratios.push(ratio);
        println!(
            "round {round}: store {store_rate:>10.0} ops/s   baseline {baseline_rate:>10.0} ops/s   ratio {ratio:.3}   ({units:.1} capacity units, {store_returned} items returned)"
        );
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    println!("median ratio store/baseline: {median:.3} (target >= 0.25)");
}
