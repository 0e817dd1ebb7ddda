//! A limit on a range the key does not order: "the ten newest orders" on a sort key of order
//! ids can only be answered by reading every order of the customer and keeping the newest ten.
//! The replay reads them all, as `check` plans; on a key that sorts by time it stops at ten.

use crate::engine::planner;
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

const ORDERS: &str = include_str!("../../../../tests/fixtures/newest-orders.ron");

/// (items read per call, items returned per call, RCU per call) in the replay and, for read
/// units, in the plan.
fn newest(variant: &str) -> (f64, f64, f64, f64) {
    let loaded = scenario::parse("lim.ron", ORDERS).expect("test scenario");
    let variant = loaded.variant(Some(variant)).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let r = sim.report();
    let p = r.patterns.iter().find(|p| p.name == "newest").expect("newest");
    let plan = planner::plan(&loaded.scenario, variant);
    let planned = plan.patterns.iter().find(|p| p.name == "newest").expect("newest").units_per_call;
    (p.avg_items_read, p.avg_items_returned, p.rcu / p.calls as f64, planned)
}

#[test]
fn the_newest_ten_on_a_key_sorted_by_id_reads_every_order_of_the_customer() {
    // ~200 orders a customer (20,000 over 100, plus the run's): every one read, ten kept.
    let (read, returned, rcu, planned) = newest("by-id");
    assert!((190.0..215.0).contains(&read), "{read}");
    assert!((returned - 10.0).abs() < 1e-9, "{returned}");
    // ~200 × ~360 B = ~72 KB: ~9 read units (eventually consistent), as check plans.
    assert!((rcu - planned).abs() / planned < 0.1, "run {rcu} vs check {planned}");
    assert!(rcu > 8.0, "{rcu}");
}

#[test]
fn on_a_key_sorted_by_time_it_stops_at_ten() {
    let (read, returned, rcu, planned) = newest("by-time");
    assert!((read - 10.0).abs() < 1e-9 && (returned - 10.0).abs() < 1e-9, "{read} {returned}");
    assert!((rcu - 0.5).abs() < 1e-9 && (planned - 0.5).abs() < 1e-9, "{rcu} {planned}");
}

/// A top 10 merged from 4 index shards, read 20,000 times a second for 5 seconds: far more
/// than the shards' partitions serve, so many shard Queries are throttled and retried.
const SHARDED_TOP: &str = r#"(
    name: "top", title: "top",
    entities: [
        (name: "Player", attributes: [
            (name: "player_id", type: S, gen: New("players")),
            (name: "board", type: S, gen: Text("season")),
            (name: "score", type: N, gen: Number(Uniform(0, 1000000))),
        ]),
    ],
    populations: [(name: "players", count: 400, ids: "p{:04}", popularity: Uniform)],
    patterns: [(
        name: "top-10", action: List, entity: "Player", range: (attribute: "score", span: All),
        order: Desc, limit: 10, rate: 20000,
    )],
    variants: [(
        name: "sharded",
        keys: {"Player": (pk: "P#{player_id}", sk: "P")},
        indexes: [(
            name: "by-score",
            keys: {"Player": (pk: "{board}#{hash(player_id, 4)}", sk: "{score:012}")},
            projection: KeysOnly,
        )],
    )],
    workload: (duration: "5s", tick: "1s", seed: 3),
)"#;

#[test]
fn a_top_ten_whose_shards_were_retried_still_returns_ten() {
    let loaded = scenario::parse("top.ron", SHARDED_TOP).expect("test scenario");
    let variant = loaded.variant(None).expect("one variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let r = sim.report();
    let p = r.patterns.iter().find(|p| p.name == "top-10").expect("top-10");
    // The retries the test is about happened, and some calls completed after them.
    assert!(p.throttled > 0 && p.retries > 0 && p.served_calls > 0, "{p:?}");
    // Each shard returns its own 10; the merge keeps 10 whichever shard came back late.
    assert!((p.avg_items_returned - 10.0).abs() < 1e-9, "{}", p.avg_items_returned);
}
