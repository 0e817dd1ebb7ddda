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
