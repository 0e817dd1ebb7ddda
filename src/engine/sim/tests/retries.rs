//! Retries beyond a call's own request: throttled aggregate write-throughs are retried with the
//! client's backoff like any write, and counted as failed only when the retries run out.

use crate::engine::sim::{RunOptions, Simulation};
use crate::engine::value::AttributeValue;
use crate::scenario;

/// 1,500 orders a second for 5 seconds, each counted on the one shop item (1,000 WCU/s): a
/// third of the count updates are throttled at first.
const AGGREGATE: &str = r#"(
    name: "agg", title: "agg",
    entities: [
        (name: "Order", attributes: [
            (name: "order_id", type: S, gen: New("orders")),
            (name: "shop", type: S, gen: Pick("shops")),
        ]),
        (name: "Shop", attributes: [
            (name: "shop", type: S, gen: New("shops")),
            (name: "orders", type: N, gen: Number(Uniform(0, 1))),
        ]),
    ],
    populations: [(name: "orders", count: 1, ids: "o{:06}"), (name: "shops", count: 1, ids: "s{}")],
    patterns: [(name: "order", action: Put, entity: "Order", given: ["shop"], rate: 0.001, shape: [Spike(at: "0s", factor: 1500000, duration: "5s")])],
    variants: [(
        name: "naive",
        capacity: Provisioned(read: 1000, write: 20000),
        keys: {"Order": (pk: "O#{order_id}", sk: "O"), "Shop": (pk: "S#{shop}", sk: "S")},
        aggregates: [(name: "order-count", entity: "Shop", on: ["order"], attribute: "orders", op: Count)],
    )],
    workload: (duration: "60s", tick: "1s", seed: 1),
)"#;

fn count(sim: &Simulation) -> f64 {
    let shop = sim.item("Shop", 0).expect("the shop exists");
    match shop.item.get("orders") {
        Some(AttributeValue::N(n)) => n.to_string().parse().expect("a number"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn throttled_aggregate_updates_are_retried_and_fail_only_when_retries_run_out() {
    let loaded = scenario::parse("agg.ron", AGGREGATE).expect("test scenario");
    let variant = loaded.variant(None).expect("one variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    let before = count(&sim);
    while sim.step() {}
    let report = sim.report();
    let order = &report.patterns[0];
    let landed = count(&sim) - before;
    assert!(order.calls >= 7_000, "{order:?}");
    assert!(order.throttled > 1_000 && order.retries > order.throttled, "{order:?}");
    // Every count update either landed (after its retries) or failed after the last one; the
    // orders themselves all landed.
    assert!((landed - (order.calls - order.failed) as f64).abs() < 1e-6, "{landed} {order:?}");
    assert!(landed > order.calls as f64 * 0.9, "most land on a retry: {landed} of {}", order.calls);
    assert_eq!(report.totals.items, 1 + 1 + order.calls);
    // Two requests a call, each retry one more.
    assert_eq!(order.requests, 2 * order.calls);
}
