//! State transitions (issue 12): an update of a lifecycle attribute (`States`) advances each
//! item one state, never back and never past the last — so an order leaves the sparse
//! "to ship" index once and never comes back — and `check` predicts the index writes that
//! follow from the same model (`planner::transition`).

use crate::engine::planner;
use crate::engine::sim::report::{IndexReport, RunReport};
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// 2,000 orders, 40 advances a second for two minutes, a status GSI and a sparse "to ship" GSI.
const STATES: &str = include_str!("../../../../tests/fixtures/states.ron");

fn replay(source: &str) -> (RunReport, planner::Plan) {
    let loaded = scenario::parse("states.ron", source).expect("test scenario");
    let variant = loaded.variant(None).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    (sim.report(), planner::plan(&loaded.scenario, variant))
}

fn index<'a>(r: &'a RunReport, name: &str) -> &'a IndexReport {
    r.indexes.iter().find(|i| i.name == name).expect("index")
}

fn predicted(plan: &planner::Plan, target: &str) -> f64 {
    let p = plan.patterns.iter().find(|p| p.name == "advance").expect("advance");
    p.writes.iter().filter(|w| w.target == target).map(|w| w.per_call).sum()
}

#[test]
fn an_order_leaves_the_to_ship_index_once_and_never_returns() {
    let (r, plan) = replay(STATES);
    let calls = r.patterns[0].calls as f64;
    let to_ship = index(&r, "to-ship");
    // Every order starts PLACED; each entry write is one leaving for good, none entering.
    assert_eq!(to_ship.entry_writes + to_ship.items, 2_000, "{to_ship:?}");
    // Each advance moves the order's by-status entry (delete + put); an update of a delivered
    // order writes nothing there. At most two advances per order.
    let by_status = index(&r, "by-status");
    let advances = by_status.entry_writes / 2;
    assert_eq!(by_status.entry_writes % 2, 0);
    assert!(to_ship.entry_writes < advances && advances <= 4_000, "{advances} advances");
    // check predicts both from the Poisson model: P(finds PLACED) = (1 − e^−2.4) / 2.4 = 37.9%.
    for (name, measured) in [("to-ship", to_ship), ("by-status", by_status)] {
        let want = predicted(&plan, &format!("GSI {name}"));
        let got = measured.entry_writes as f64 / calls;
        assert!((want - got).abs() <= 0.05 * got, "{name}: check {want} vs run {got}");
    }
    // Same seed, same transitions.
    assert_eq!(replay(STATES).0.indexes, r.indexes);
}

#[test]
fn the_final_state_is_kept() {
    // Two states and ~24 updates an order: each order is delivered once, then stays so.
    let delivered = STATES
        .replace(r#"States(["PLACED", "SHIPPED", "DELIVERED"])"#, r#"States(["PLACED", "DELIVERED"])"#)
        .replace("rate: 40", "rate: 400");
    let (r, plan) = replay(&delivered);
    assert_eq!((index(&r, "to-ship").entry_writes, index(&r, "to-ship").items), (2_000, 0));
    assert_eq!(index(&r, "by-status").entry_writes, 4_000);
    // 2,000 advances in 48,000 updates: check says the status changes on ~4% of them.
    let share = predicted(&plan, "GSI by-status") / 2.0;
    assert!((share - 2_000.0 / 48_000.0).abs() < 0.005, "{share}");
}

#[test]
fn a_redrawn_status_comes_back_where_a_lifecycle_cannot() {
    let redrawn = STATES.replace(
        r#"States(["PLACED", "SHIPPED", "DELIVERED"])"#,
        r#"OneOf([("PLACED", 1), ("SHIPPED", 1), ("DELIVERED", 1)])"#,
    );
    let lifecycle = replay(STATES).0;
    let redraw = replay(&redrawn).0;
    // A third of the orders start PLACED, yet redrawing the status moves orders in and out of
    // "to ship" over and over (2·⅓·⅔ of updates, ~2,130): more entry writes than the lifecycle's
    // one-way exits of orders that all start there.
    let (one_way, back_and_forth) = (index(&lifecycle, "to-ship"), index(&redraw, "to-ship"));
    assert!(back_and_forth.entry_writes > one_way.entry_writes, "{back_and_forth:?} vs {one_way:?}");
    assert!(back_and_forth.entry_writes + back_and_forth.items > 2_000, "{back_and_forth:?}");
}
