//! A `with` read whose entities live in different partitions: "a customer with their orders"
//! on keys `CUST#{customer_id}` and `ORDERS#{customer_id}`. One request cannot read both, so the
//! application sends two at once — a GetItem for the customer and a Query for the orders — and
//! both `check` and the replay cost exactly those, not a Scan of the table.

use crate::engine::planner::{self, Operation};
use crate::engine::sim::report::Operations;
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

const APART: &str = include_str!("../../../../tests/fixtures/customer-orders.ron");
const PATTERN: &str = "customer-with-orders";

fn run(source: &str, variant: &str) -> (Simulation, planner::Plan) {
    let loaded = scenario::parse("apart.ron", source).expect("test scenario");
    let variant = loaded.variant(Some(variant)).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    (sim, planner::plan(&loaded.scenario, variant))
}

#[test]
fn apart_it_is_a_get_item_and_a_query_in_check_and_in_the_replay() {
    let (sim, plan) = run(APART, "apart");
    let planned = plan.patterns.iter().find(|p| p.name == PATTERN).expect("planned");
    assert_eq!(planned.operation, Some(Operation::GetItem));
    assert!(planned.served(), "{:#?}", planned.verdict);
    let ops: Vec<_> = planned.parts.iter().map(|p| p.operation).collect();
    assert_eq!(ops, [Some(Operation::GetItem), Some(Operation::Query)]);
    assert_eq!(planned.requests(Operation::name), "GetItem + Query");
    // The customer's item (0.5 RCU) and ~20 orders of ~365 B (~7.3 KB: 1 RCU).
    assert!((planned.units_per_call - 1.5).abs() < 1e-9, "{}", planned.units_per_call);

    let report = sim.report();
    let p = report.patterns.iter().find(|p| p.name == PATTERN).expect("replayed");
    assert_eq!(p.operation, Some(Operations::new(Operation::GetItem, [Operation::Query])));
    assert_eq!(p.operation.as_ref().map(ToString::to_string).as_deref(), Some("GetItem + Query"));
    assert_eq!(p.scans, 0);
    assert_eq!(p.requests, 2 * p.calls, "one request per entity");
    // One customer and the ~20–21 orders placed for them so far.
    assert!((20.0..23.0).contains(&p.avg_items_read), "{}", p.avg_items_read);
    let rcu = p.rcu / p.calls as f64;
    // A customer with more orders than average crosses 8 KB and pays 1.5 RCU: the mean is a
    // little above check's 1.5, well within the agreement test's ±25%.
    assert!((1.5..1.8).contains(&rcu), "{rcu}");
}

#[test]
fn together_it_stays_one_query_of_the_item_collection() {
    let (sim, plan) = run(APART, "together");
    let planned = plan.patterns.iter().find(|p| p.name == PATTERN).expect("planned");
    assert_eq!(planned.operation, Some(Operation::Query));
    assert!(planned.parts.is_empty());
    let report = sim.report();
    let p = report.patterns.iter().find(|p| p.name == PATTERN).expect("replayed");
    assert_eq!(p.requests, p.calls);
}

/// Throttled parts are retried on their own, and the call still reports one latency: when its
/// last request completes.
#[test]
fn a_throttled_part_is_retried_alone_and_the_call_reports_once() {
    let tight = APART.replace(
        r#"(name: "apart", keys"#,
        r#"(name: "apart", capacity: Provisioned(read: 30, write: 100), keys"#,
    );
    let (sim, _) = run(&tight, "apart");
    let i = sim.world.patterns.iter().position(|p| p.name == PATTERN).expect("pattern");
    let stats = &sim.figures.stats[i];
    let reported: u64 = stats.latencies.iter().map(|&(_, n)| n).sum::<u64>()
        + stats
            .registry
            .and_then(|id| sim.figures.metrics.latency(id))
            .map_or(0, crate::engine::metrics::LatencyHistogram::count);
    let report = sim.report();
    let p = report.patterns.iter().find(|p| p.name == PATTERN).expect("replayed");
    assert!(p.throttled > 0, "the test needs throttling: {p:?}");
    assert!(reported <= p.calls, "{reported} latencies for {} calls", p.calls);
    assert_eq!(p.unfinished, p.calls - reported);
    assert!(p.unfinished < p.calls / 4, "{p:?}");
}
