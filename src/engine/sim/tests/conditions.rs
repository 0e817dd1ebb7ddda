//! Conditional writes (issue 12): a create-once put onto a taken key is refused and charged,
//! not a lost write; a version-checked update loses races on a hot item, each charged as a
//! failed write, a read again and a retry — and `check` predicts both from the same rules.

use crate::engine::planner::{self, WarningCode};
use crate::engine::sim::report::{PatternReport, RunReport};
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// Seats booked once (20/s over 2,000 seats for a minute) and version-checked updates of
/// accounts (200/s, 60% on one).
const CONDITIONS: &str = include_str!("../../../../tests/fixtures/conditions.ron");

fn replay(source: &str) -> (RunReport, planner::Plan) {
    let loaded = scenario::parse("conditions.ron", source).expect("test scenario");
    let variant = loaded.variant(None).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    (sim.report(), planner::plan(&loaded.scenario, variant))
}

fn pattern<'a>(r: &'a RunReport, name: &str) -> &'a PatternReport {
    r.patterns.iter().find(|p| p.name == name).expect("pattern")
}

#[test]
fn a_create_once_put_onto_a_taken_seat_is_refused_not_lost() {
    let (with, plan) = replay(CONDITIONS);
    let without = replay(&CONDITIONS.replace(", condition: NotExists", "")).0;
    let book = pattern(&with, "book");
    // By hand: 1,200 bookings over 2,000 seats: 1,200 − 2,000·(1 − e^(−0.6)) = 297 land on a
    // taken seat.
    assert!((270..330).contains(&book.condition_failed), "{}", book.condition_failed);
    assert_eq!((book.overwrote, with.totals.overwritten_items, with.totals.failed_writes), (0, 0, 0));
    // The same draws without the condition: each of those bookings replaces the earlier one.
    let blind = pattern(&without, "book");
    assert_eq!((blind.overwrote, blind.condition_failed), (book.condition_failed, 0));
    // A refused put is charged like the put (1 KB items: 1 WCU either way).
    assert!((book.wcu - book.calls as f64).abs() < 1e-9, "{} WCU for {} calls", book.wcu, book.calls);
    let predicted =
        plan.patterns.iter().find(|p| p.name == "book").and_then(|p| p.condition.clone()).expect("plan");
    let measured = book.condition_failed as f64 / book.calls as f64;
    assert!((predicted.failure_rate - measured).abs() <= 0.25 * measured, "{predicted:?} vs {measured}");
    // Every put is create-once: the key is the seat by design, not a collision.
    assert!(!plan.warnings.iter().any(|w| w.code == WarningCode::KeyCollision), "{:?}", plan.warnings);
}

#[test]
fn version_checks_on_a_hot_account_lose_races_as_check_predicts() {
    let (r, plan) = replay(CONDITIONS);
    let post = pattern(&r, "post");
    let calls = post.calls as f64;
    let conflicts = post.version_conflicts as f64;
    let predicted = plan.patterns.iter().find(|p| p.name == "post").expect("post");
    let c = predicted.condition.as_ref().expect("a condition plan");
    assert!((c.failure_rate - conflicts / calls).abs() <= 0.25 * conflicts / calls, "{c:?} vs {conflicts}");
    // Each call reads (1 RCU, strongly consistent, a 1.5 KB item) and each lost race reads again.
    assert!((post.rcu - (calls + conflicts)).abs() < 1e-6, "{} RCU", post.rcu);
    // Each lost race is charged a failed write of the item (2 WCU), then its retry writes (2 WCU).
    assert!((post.wcu - 2.0 * (calls + conflicts)).abs() < 1e-6, "{} WCU", post.wcu);
    assert!((predicted.units_per_call - post.wcu / calls).abs() <= 0.25 * post.wcu / calls);
    assert!(plan.warnings.iter().any(|w| w.code == WarningCode::VersionContention && w.subject == "post"));
    // Same seed, same races.
    assert_eq!(replay(CONDITIONS).0.patterns, r.patterns);
}

/// A failed write the partition throttles was refused before its condition was evaluated: it
/// lost no race, and its retry reads and races again. Every lost race counted is a failed write
/// charged.
#[test]
fn a_throttled_write_loses_no_race() {
    let hot = CONDITIONS.replace("sets: [\"balance\"], rate: 200", "sets: [\"balance\"], rate: 2000");
    assert_ne!(hot, CONDITIONS);
    let (r, _) = replay(&hot);
    let post = pattern(&r, "post");
    // 1,200 calls a second on one 1.5 KB account: 2,400 WCU/s against a partition's 1,000.
    assert!(post.throttled > 0, "{post:?}");
    let landed = post.landed_writes.expect("landed writes") as f64;
    let lost = post.version_conflicts as f64;
    assert!(lost > 0.0);
    // Each landed update and each lost race is one 2 WCU write.
    assert!(
        (post.wcu - 2.0 * (landed + lost)).abs() < 1e-6,
        "{} WCU, {landed} landed, {lost} lost",
        post.wcu
    );
}

#[test]
fn an_even_spread_of_version_checks_hardly_conflicts() {
    let even =
        CONDITIONS.replace("popularity: Weighted([(0.6, Fixed(0)), (0.4, Uniform)])", "popularity: Uniform");
    let (r, plan) = replay(&even);
    let post = pattern(&r, "post");
    // 2 calls an account a second: ~0.8% lose a race.
    assert!(post.version_conflicts * 50 < post.calls, "{} of {}", post.version_conflicts, post.calls);
    assert!(!plan.warnings.iter().any(|w| w.code == WarningCode::VersionContention));
}

#[test]
fn the_chance_of_losing_a_race_grows_with_the_rate_on_the_item() {
    use planner::condition::conflict_chance;
    // (share of the calls, calls a second, chance)
    let cases = [(1.0, 0.0, 0.0), (0.0, 1000.0, 0.0), (1.0, 125.0, (-1.0f64).exp()), (0.5, 1e9, 1.0)];
    for (share, rate, chance) in cases {
        assert!((conflict_chance(share, rate) - chance).abs() < 1e-6, "{share} at {rate}/s");
    }
    assert!(conflict_chance(0.1, 100.0) < conflict_chance(0.1, 1000.0));
}

/// A put's `equals` fixes the value it writes (issue 12 item 9): every new order is PLACED and
/// lands in the sparse index, where the generator alone would put 1 in 10 there.
const PUT_EQUALS: &str = include_str!("../../../../tests/fixtures/put-equals.ron");

#[test]
fn equals_on_a_put_fixes_the_written_value() {
    let (r, plan) = replay(PUT_EQUALS);
    let place = pattern(&r, "place");
    let index = r.indexes.iter().find(|i| i.name == "placed").expect("index");
    // Every put writes its entry; the load's ~10% PLACED orders are there from the start.
    assert_eq!(index.entry_writes, place.calls);
    assert!((1_250..1_320).contains(&index.items), "{} entries", index.items);
    let planned = plan.patterns.iter().find(|p| p.name == "place").expect("place");
    assert!((planned.units_per_call - 2.0).abs() < 1e-9, "{}", planned.units_per_call);
    // Without the `equals`, the generator decides: about a tenth of the puts are PLACED.
    let (free, _) = replay(&PUT_EQUALS.replace(r#"equals: {"status": "PLACED"}, "#, ""));
    let entries = free.indexes[0].entry_writes;
    assert!((80..160).contains(&entries), "{entries} entries written");
}
