//! Retries beyond a call's own request: throttled aggregate write-throughs are retried with the
//! client's backoff like any write, and counted as failed only when the retries run out.

use crate::engine::sim::{RunOptions, RunReport, Simulation};
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
    let shop = sim.item_named("Shop", 0).expect("the shop exists");
    match shop.item.get("orders") {
        Some(AttributeValue::N(n)) => n.to_string().parse().expect("a number"),
        other => panic!("{other:?}"),
    }
}

/// Runs a one-variant scenario to its end: the simulation, its report and the shop's order count
/// before the first call.
fn run_to_end(file: &str, text: &str) -> (Simulation, RunReport, f64) {
    let loaded = scenario::parse(file, text).expect("test scenario");
    let variant = loaded.variant(None).expect("one variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    let before = count(&sim);
    while sim.step() {}
    let report = sim.report();
    (sim, report, before)
}

#[test]
fn throttled_aggregate_updates_are_retried_and_fail_only_when_retries_run_out() {
    let (sim, report, before) = run_to_end("agg.ron", AGGREGATE);
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

#[test]
fn two_aggregates_of_one_item_are_one_update() {
    // Both the count and the spend live on the shop's item: each order is 2 requests (the order,
    // one UpdateItem of the shop), not 3, and both values are right.
    let text = AGGREGATE
        .replace(r#"(name: "orders", type: N, gen: Number(Uniform(0, 1))),"#, r#"(name: "orders", type: N, gen: Number(Uniform(0, 1))), (name: "spend", type: N, gen: Number(Uniform(0, 1))),"#)
        .replace(r#"(name: "shop", type: S, gen: Pick("shops")),
        ]),"#, r#"(name: "shop", type: S, gen: Pick("shops")),
            (name: "total", type: N, gen: Number(Uniform(10, 20))),
        ]),"#)
        .replace("factor: 1500000", "factor: 100000")
        .replace(
            r#"aggregates: [(name: "order-count""#,
            r#"aggregates: [(name: "spend", entity: "Shop", on: ["order"], attribute: "spend", op: Sum("total")), (name: "order-count""#,
        );
    let (sim, report, before) = run_to_end("agg2.ron", &text);
    let order = &report.patterns[0];
    assert!(order.calls >= 400 && order.throttled == 0, "{order:?}");
    assert_eq!(order.requests, 2 * order.calls);
    assert!((count(&sim) - before - order.calls as f64).abs() < 1e-6);
    let spend = match sim.item_named("Shop", 0).expect("shop").item.get("spend") {
        Some(AttributeValue::N(n)) => n.to_string().parse::<f64>().expect("a number"),
        other => panic!("{other:?}"),
    };
    // Totals are drawn between 10 and 20.
    assert!(spend > 10.0 * order.calls as f64 && spend < 20.0 * order.calls as f64 + 1.0, "{spend}");
    // One item write per order for the aggregates: amplification 2 (order + shop), not 3.
    assert!((report.totals.write_amplification - 2.0).abs() < 1e-9, "{}", report.totals.write_amplification);
}

/// practice-shortener's viral link takes 4 in 5 of 6,000 GetItems a second, past its partition's
/// 3,000 RCU/s: its throttled reads are counted on its partition, as throttled writes are, so
/// the report lists it among the top partitions by throttles.
#[test]
fn throttled_reads_are_counted_on_the_partition_that_refused_them() {
    let loaded = scenario::load("practice-shortener").expect("bundled");
    let variant = loaded.variant(Some("naive")).expect("naive");
    let options = RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(5)) };
    let report = crate::engine::sim::run(&loaded.scenario, variant, &options, &mut |_| {}).expect("runs");
    let resolve = report.patterns.iter().find(|p| p.name == "resolve").expect("resolve");
    assert!(resolve.throttled > 0, "{resolve:?}");
    let viral = report.partitions.top.iter().find(|p| p.key == "LINK#link-00000").expect("listed");
    let attempts = viral.throttled_attempts.expect("a table partition");
    // Each refused attempt was a resolve's first try or one of its retries.
    let listed: u64 = report.partitions.top.iter().map(|p| p.throttled_ops).sum();
    assert!(attempts > 0 && listed <= resolve.throttled + resolve.retries, "{viral:?} vs {resolve:?}");
    // Links on the viral link's physical partition are refused with it, but far less often.
    let others = report.partitions.top.iter().filter(|p| p.key != viral.key).map(|p| p.throttled_ops);
    assert!(others.max().is_some_and(|most| most * 10 < attempts), "{:?}", report.partitions.top);
}

/// counters' naive design throttles its one hot counter: the reads that gave up or still wait
/// for a retry at the end spent nothing, so over the calls that completed an eventually
/// consistent GetItem of a small item costs exactly DynamoDB's 0.5 RCU, never less.
#[test]
fn a_reads_cost_per_call_is_over_the_calls_that_completed() {
    let loaded = scenario::load("counters").expect("bundled");
    let variant = loaded.variant(Some("naive")).expect("naive");
    let options = RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(20)) };
    let report = crate::engine::sim::run(&loaded.scenario, variant, &options, &mut |_| {}).expect("runs");
    let read = report.patterns.iter().find(|p| p.name == "read-count").expect("read-count");
    assert!(read.failed + read.unfinished > 0 && read.served_calls < read.calls, "{read:?}");
    assert_eq!(read.served_calls, read.calls - read.failed - read.unfinished, "{read:?}");
    let cases = [
        ("read units per call", read.rcu / read.served_calls as f64, 0.5),
        ("read units per call at the start", read.rcu_per_call_start.expect("calls"), 0.5),
        ("read units per call at the end", read.rcu_per_call_end.expect("calls"), 0.5),
    ];
    for (what, got, expected) in cases {
        assert!((got - expected).abs() < 1e-9, "{what}: {got} vs {expected}");
    }
    // A GetItem reads its one item, or none when the counter is not there yet.
    assert!(read.avg_items_read > 0.9 && read.avg_items_read <= 1.0, "{read:?}");
}

/// practice-social's naive post-with-comments Scans 8 pages a call; at 40 calls a second the
/// table refuses pages, and each refused page is retried where it stopped. A page is one request
/// however many retries it takes, in `requests` and `pages` as in `max_requests`: no call sends
/// more requests than the busiest completed call's pages.
#[test]
fn a_retried_scan_page_is_one_request() {
    let text = include_str!("../../../../scenarios/practice-social.ron").replace(
        r#"given: ["post_id"], rate: 0.5, latency_ms: 30"#,
        r#"given: ["post_id"], rate: 40, latency_ms: 30"#,
    );
    let loaded = scenario::parse("practice-social.ron", &text).expect("parses");
    let variant = loaded.variant(Some("naive")).expect("naive");
    let options = RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(20)) };
    let report = crate::engine::sim::run(&loaded.scenario, variant, &options, &mut |_| {}).expect("runs");
    let scan = report.patterns.iter().find(|p| p.name == "post-with-comments").expect("listed");
    assert!(scan.scans > 0 && scan.retries > 0, "pages were refused and retried: {scan:?}");
    let pages = scan.avg_pages * scan.calls as f64;
    let cases = [
        ("pages are the requests", scan.requests as f64, pages),
        ("the busiest call's pages", scan.max_requests as f64, 8.0),
    ];
    for (what, got, expected) in cases {
        assert!((got - expected).abs() < 1e-6, "{what}: {got} vs {expected}");
    }
    assert!(scan.requests <= scan.calls * scan.max_requests, "retries counted as requests: {scan:?}");
}

/// An audit page asks its tenant's 8 shards, one Query each. At 200 pages a second the table's
/// 600 RCU/s refuse calls partway — some shards served, the rest queued for a retry, many still
/// waiting at the end: those calls spent units and read items but did not complete. A read's
/// units and items per call leave them out of the numerator as of the denominator: no completed
/// call costs more than its 8 Queries of at most 20 small items (1 RCU each), nor reads more
/// than those 160 items; and a completed call reads as many items per read unit as when
/// nothing is refused (counting the items of the calls refused partway made it half as many
/// again).
#[test]
fn units_per_call_count_only_the_calls_that_completed() {
    let run = |page_rate: u32| {
        let variants = r#"[(name: "sharded", capacity: Provisioned(read: 600, write: 2000),
            keys: {"Event": (pk: "T#{tenant_id}#{shard(8)}", sk: "{at}#{seq}")})]"#;
        let workload = r#"(duration: "30s", tick: "1s", seed: 5)"#;
        let text = crate::engine::testing::whale_log(20, 400, page_rate, variants, workload);
        let loaded = scenario::parse("whale.ron", &text).expect("test scenario");
        let variant = loaded.variant(None).expect("variant");
        let report = crate::engine::sim::run(&loaded.scenario, variant, &RunOptions::default(), &mut |_| {})
            .expect("runs");
        report.patterns.into_iter().find(|p| p.name == "page").expect("listed")
    };
    let calm = run(5);
    assert!(calm.served_calls == calm.calls && (calm.served_rcu - calm.rcu).abs() < 1e-6, "{calm:?}");
    let busy = run(200);
    assert!(busy.served_calls < busy.calls, "{busy:?}");
    assert!(busy.served_rcu < busy.rcu, "calls refused partway spent units: {busy:?}");
    let per_call = busy.served_rcu / busy.served_calls as f64;
    assert!(per_call > 0.0 && per_call <= 8.0, "{per_call} RCU a completed call: {busy:?}");
    let per_unit = |p: &crate::engine::sim::report::PatternReport| {
        let items = p.avg_items_read;
        assert!(items > 0.0 && items <= 160.0, "{items} items read a completed call: {p:?}");
        items / (p.served_rcu / p.served_calls as f64)
    };
    let (calm, busy) = (per_unit(&calm), per_unit(&busy));
    assert!((busy / calm - 1.0).abs() < 0.1, "items per read unit: {busy} busy vs {calm} calm");
}
