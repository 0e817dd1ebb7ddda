//! Keys that are not unique: a put onto a key another item holds replaces that item whole
//! (PutItem, a Cassandra INSERT), so the item is lost. The replay counts every such loss, grades
//! it against "no write may be lost", and `check` warns before the run: the write time in a key
//! changes once a second, so an account's events in the same second share `EVT#{at}`.

use crate::engine::planner::{self, WarningCode};
use crate::engine::sim::report::RunReport;
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// An event log: ~700 appends a second, 90% of them on one account, for 20 seconds.
const LEDGER: &str = include_str!("../../../../tests/fixtures/ledger.ron");

fn run(variant: &str) -> RunReport {
    let loaded = scenario::parse("ledger.ron", LEDGER).expect("test scenario");
    let variant = loaded.variant(Some(variant)).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let mut report = sim.report();
    report.goals = crate::engine::goals::evaluate(&loaded.scenario, variant, &report);
    report
}

fn collision_warnings(variant: &str) -> Vec<planner::Warning> {
    let loaded = scenario::parse("ledger.ron", LEDGER).expect("test scenario");
    let variant = loaded.variant(Some(variant)).expect("variant");
    let plan = planner::plan(&loaded.scenario, variant);
    plan.warnings.into_iter().filter(|w| w.code == WarningCode::KeyCollision).collect()
}

#[test]
fn an_event_keyed_by_its_second_overwrites_the_events_of_that_second() {
    let r = run("by-second");
    let append = r.patterns.iter().find(|p| p.name == "append").expect("append");
    // By hand: 14,000 appends. The busy account takes 0.9 + 0.1/100 of them, ~630.7 a second,
    // and keeps one per second: 629.7 × 20 = 12,594 lost. The other 99 accounts get ~0.7 a
    // second each: 0.7 − (1 − e^−0.7) = 0.197 lost per account-second, × 99 × 20 = 390.
    // 12,984 in all, 92.7%.
    let lost = r.totals.overwritten_items;
    assert!((12_700..13_250).contains(&lost), "{lost} of {} appends lost", append.calls);
    assert_eq!(append.overwrote, lost, "every loss is an append's");
    let goal = &r.goals[0];
    assert!(!goal.passed(), "{goal:?}");
    assert!(goal.detail.contains("replaced by a put with the same key"), "{}", goal.detail);
    // An upsert entity's put replaces its own item, the latest value: not counted.
    let latest = r.patterns.iter().find(|p| p.name == "set-latest").expect("set-latest");
    assert_eq!(latest.overwrote, 0);
}

#[test]
fn a_sequence_number_in_the_key_keeps_every_event() {
    let r = run("by-sequence");
    assert_eq!((r.totals.overwritten_items, r.totals.failed_writes), (0, 0));
    assert!(r.goals[0].passed(), "{:?}", r.goals[0]);
    assert!(collision_warnings("by-sequence").is_empty());
}

#[test]
fn check_warns_that_the_write_time_to_the_second_is_not_unique() {
    let warnings = collision_warnings("by-second");
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    let w = &warnings[0];
    assert_eq!(w.subject, "Event");
    assert!(w.to_string().contains("{at}: 20 windows of a second"), "{}", w.to_string());
    // The busy account makes its 100 values repeat like ~1.2.
    assert!(
        w.to_string().contains("account_id: 100 values (a weighted mix: like ~1.2 equally likely)"),
        "{}",
        w.to_string()
    );
    assert!(w.to_string().contains("so an estimated ~12,983 of them (92.7%)"), "{}", w.to_string());
    // The same hand calculation: 12,984 of 14,000.
    let loaded = scenario::parse("ledger.ron", LEDGER).expect("test scenario");
    let variant = loaded.variant(Some("by-second")).expect("variant");
    let losses = planner::key_losses(&loaded.scenario, variant);
    let event_id = loaded.scenario.entity("Event").expect("Event").id();
    let event = losses.iter().find(|l| l.entity == event_id).expect("Event's key can lose items");
    let share = event.lost / event.items;
    assert!((0.91..0.945).contains(&share), "{event:?}");
}

#[test]
fn without_upsert_the_latest_value_is_a_new_item_each_time() {
    let source = LEDGER.replace("upsert: true, ", "");
    let loaded = scenario::parse("ledger.ron", &source).expect("test scenario");
    let variant = loaded.variant(Some("by-sequence")).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let r = sim.report();
    let latest = r.patterns.iter().find(|p| p.name == "set-latest").expect("set-latest");
    // 1,000 puts onto at most 100 keys: at least 900 replace another.
    assert!(latest.overwrote >= 900, "{}", latest.overwrote);
    let plan = planner::plan(&loaded.scenario, variant);
    assert!(plan.warnings.iter().any(|w| w.code == WarningCode::KeyCollision && w.subject == "Latest"));
}
