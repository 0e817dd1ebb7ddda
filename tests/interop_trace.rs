//! `export trace` replayed by `keyheat ops` agrees with the replay that wrote it: the items in the
//! table and in every index at the end, and the read and write units of the requests the replay
//! served (the preload is free in the replay and sent without ReturnConsumedCapacity; `ops` does
//! not throttle, and the trace holds each served request once, so retries do not count twice).

// Capacity units are sums of halves: exact up to the float sums' order.
#![allow(clippy::float_cmp)]

use std::collections::BTreeMap;
use std::fmt::Write as _;

use keyheat::engine::sim::{self, RunOptions, RunReport};
use keyheat::engine::time::SimDuration;
use keyheat::interop::{dynamodb_name, trace};
use keyheat::{ops, scenario};
use serde_json::Value as Json;

/// What `ops` made of a trace: read and write units, items in the table and per index.
#[derive(Debug, PartialEq)]
struct Replayed {
    rcu: f64,
    wcu: f64,
    items: u64,
    index_items: BTreeMap<String, u64>,
}

fn replay(name: &str, variant: &str, seconds: u64) -> (RunReport, Replayed) {
    let loaded = scenario::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let variant = loaded.variant(Some(variant)).expect("the variant exists");
    let run = RunOptions { seed: None, duration: Some(SimDuration::from_millis(seconds * 1000)) };
    let report = sim::run(&loaded.scenario, variant, &run, &mut |_| {}).expect("the replay runs");
    let options = trace::Options { run, limit: None };
    let mut text =
        trace::render(&loaded.scenario, variant, &options, &mut |_| {}).expect("the trace is written");
    let first: Json = serde_json::from_str(text.lines().next().expect("a first line")).expect("JSON");
    assert_eq!(first["op"], "CreateTable");
    let table = first["TableName"].as_str().expect("a table name").to_owned();
    writeln!(text, "{}", serde_json::json!({"op": "DescribeTable", "TableName": table}))
        .expect("a String takes it");
    let mut out = Vec::new();
    let stats = ops::run(text.as_bytes(), &mut out, &ops::Options::default()).expect("ops runs");
    let (mut rcu, mut wcu) = (0.0, 0.0);
    let mut last = Json::Null;
    for (request, answer) in text.lines().zip(String::from_utf8(out).expect("UTF-8").lines()) {
        let request: Json = serde_json::from_str(request).expect("each request is JSON");
        let answer: Json = serde_json::from_str(answer).expect("each answer is JSON");
        assert!(answer.get("__type").is_none(), "{name}: {request} → {answer}");
        if let Some(units) = answer["ConsumedCapacity"]["CapacityUnits"].as_f64() {
            match request["op"].as_str() {
                Some("GetItem" | "BatchGetItem" | "Query" | "Scan") => rcu += units,
                _ => wcu += units,
            }
        }
        // BatchGetItem answers with a list, one entry per table.
        if let Some(list) = answer["ConsumedCapacity"].as_array() {
            rcu += list.iter().filter_map(|c| c["CapacityUnits"].as_f64()).sum::<f64>();
        }
        last = answer;
    }
    assert_eq!(stats.errors, 0);
    let described = &last["Table"];
    let mut index_items = BTreeMap::new();
    for kind in ["GlobalSecondaryIndexes", "LocalSecondaryIndexes"] {
        for index in described[kind].as_array().into_iter().flatten() {
            let name = index["IndexName"].as_str().expect("a name").to_owned();
            index_items.insert(name, index["ItemCount"].as_u64().expect("a count"));
        }
    }
    let items = described["ItemCount"].as_u64().expect("an item count");
    (report, Replayed { rcu, wcu, items, index_items })
}

fn assert_agrees(name: &str, variant: &str, seconds: u64) -> RunReport {
    let (report, replayed) = replay(name, variant, seconds);
    let expected = Replayed {
        rcu: report.totals.rcu,
        wcu: report.totals.wcu,
        items: report.totals.items,
        index_items: report.indexes.iter().map(|i| (dynamodb_name(&i.name), i.items)).collect(),
    };
    assert_eq!(replayed, expected, "{name} {variant}: ops on the trace vs the replay");
    assert!(replayed.rcu > 0.0 && replayed.wcu > 0.0, "{name} {variant}: {replayed:?}");
    report
}

#[test]
fn ops_on_the_trace_of_orders_agrees_with_the_replay() {
    // A sparse GSI; GetItem and Queries (begins_with).
    assert_agrees("orders", "recommended", 60);
    // The Scan of the whole table, paged with ExclusiveStartKey.
    assert_agrees("orders", "naive", 60);
}

#[test]
fn ops_on_the_trace_of_counters_agrees_with_the_replay_despite_throttling() {
    let report = assert_agrees("counters", "naive", 5);
    assert!(report.totals.throttled_ops > 0 && report.totals.retries > 0, "{:?}", report.totals);
    assert_agrees("counters", "recommended", 5);
}

#[test]
fn ops_on_the_trace_of_a_fan_out_with_ttl_agrees_with_the_replay() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/interop/trace.ron");
    assert_agrees(path, "hourly", 600);
}
