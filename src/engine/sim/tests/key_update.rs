//! An update that sets a table key attribute: DynamoDB refuses an UpdateItem that changes a
//! key attribute, so the item is deleted and put at its new key — two requests, both charged,
//! one item left. `check` plans the same two writes and warns.

use crate::engine::planner::{self, Operation, WarningCode};
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// 1,000 orders of ~1 KB; 5 a second change status, which the sort key holds.
const ORDERS: &str = include_str!("../../../../tests/fixtures/order-status.ron");

#[test]
fn an_update_of_a_key_attribute_moves_the_item_with_a_delete_and_a_put() {
    let loaded = scenario::parse("orders.ron", ORDERS).expect("test scenario");
    let variant = loaded.variant(Some("status-in-key")).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let r = sim.report();
    // Still one item per order: the old one is gone, not left behind.
    assert_eq!(r.totals.items, 1000, "{:?}", r.totals);
    let ship = r.patterns.iter().find(|p| p.name == "ship").expect("ship");
    assert_eq!(ship.calls, 300);
    // Three requests a call: the Query that learns the current status (the sort key the
    // pattern does not give), then the delete and the put, each a whole ~1 KB item.
    assert_eq!(ship.requests, 900, "{ship:?}");
    let ops: Vec<Operation> = ship.operation.as_ref().expect("served").iter().collect();
    assert_eq!(ops, [Operation::Query, Operation::DeleteAndPut]);
    assert!((ship.rcu / ship.calls as f64 - 0.5).abs() < 1e-9, "{ship:?}");
    assert!((ship.wcu / ship.calls as f64 - 2.0).abs() < 0.05, "{ship:?}");

    let plan = planner::plan(&loaded.scenario, variant);
    let p = plan.patterns.iter().find(|p| p.name == "ship").expect("ship");
    assert_eq!(p.operation, Some(Operation::DeleteAndPut));
    assert_eq!(p.locate.as_ref().and_then(|l| l.operation), Some(Operation::Query));
    assert!((p.units_per_call - 2.0).abs() < 1e-9, "{}", p.units_per_call);
    let w = plan.warnings.iter().find(|w| w.code == WarningCode::KeyUpdate).expect("a key-update warning");
    assert!(w.to_string().contains("ship sets status, part of Order's table key"), "{}", w.to_string());
}

#[test]
fn the_same_change_in_an_index_key_is_one_update() {
    let loaded = scenario::parse("orders.ron", ORDERS).expect("test scenario");
    let variant = loaded.variant(Some("status-in-index")).expect("variant");
    let plan = planner::plan(&loaded.scenario, variant);
    let p = plan.patterns.iter().find(|p| p.name == "ship").expect("ship");
    assert_eq!(p.operation, Some(Operation::UpdateItem));
    assert!(plan.warnings.iter().all(|w| w.code != WarningCode::KeyUpdate));
}
