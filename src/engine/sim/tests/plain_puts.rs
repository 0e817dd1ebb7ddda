//! A plain Cassandra write learns the row it replaced from the ledger's put instead of looking
//! the key up first (`exec::write`, `old_after`). An observed replay always looks it up first:
//! the two must come to the same run, overwrites, expiries and updates included.

use crate::engine::sim::observe::{Observer, Request, Source};
use crate::engine::sim::{RunOptions, Simulation};
use crate::engine::time::SimTime;
use crate::scenario;

/// Readings keyed by the second, ten a second over five sensors (puts land on taken keys and
/// replace their rows), updated by key, expiring after a minute.
const READINGS: &str = r#"(
    name: "readings",
    title: "Readings",
    engine: Cassandra,
    entities: [
        (name: "Reading", attributes: [
            (name: "sensor_id", type: S, gen: Pick("sensors")),
            (name: "reading_time", type: Time, gen: Now),
            (name: "value", type: N, gen: Number(Uniform(0, 100))),
            (name: "note", type: S, gen: Payload(40)),
        ]),
    ],
    populations: [(name: "sensors", count: 5, ids: "s{:02}")],
    patterns: [
        (name: "record", action: Put, entity: "Reading", given: ["sensor_id"], rate: 10),
        (name: "correct", action: Update, entity: "Reading", given: ["sensor_id", "reading_time"], sets: ["value"], rate: 2),
    ],
    variants: [(
        name: "by-second",
        keys: {"Reading": (pk: "{sensor_id}", sk: "{reading_time}")},
        ttl: (attribute: "expires_at", lifetime: "1m", entities: ["Reading"]),
    )],
    workload: (duration: "5m", tick: "1s", seed: 3),
)"#;

/// Watches and keeps nothing: being there makes every write look its old item up first.
struct Watching;

impl Observer for Watching {
    fn served(&mut self, _: SimTime, _: bool, _: Source, _: Request<'_>) {}
}

#[test]
fn a_plain_put_that_learns_its_old_row_after_writing_runs_as_one_that_looks_first() {
    let loaded = scenario::parse("readings.ron", READINGS).expect("test scenario");
    let variant = loaded.variant(None).expect("variant");
    let options = RunOptions::default();
    let mut plain = Simulation::new(&loaded.scenario, variant, &options).expect("starts");
    let mut observed =
        Simulation::observed(&loaded.scenario, variant, &options, Box::new(Watching)).expect("starts");
    while plain.step() {}
    while observed.step() {}
    let (plain, observed) = (plain.report(), observed.report());
    assert!(plain.totals.overwritten_items > 100, "the keys collide: {:?}", plain.totals);
    assert!(plain.totals.ttl_deletes > 100, "items expire: {:?}", plain.totals);
    assert_eq!(format!("{plain:?}"), format!("{observed:?}"));
}

/// Every bundled scenario, variant and store it lists: the puts `exec::plain` writes in one
/// pass come to the run the full write path makes of them.
#[test]
fn plain_puts_run_as_the_full_write_path_on_every_bundled_scenario() {
    use crate::engine::time::SimDuration;
    let mut plain_patterns = 0;
    // discord-scale's ticks hold millions of calls: it is replayed as rates.
    for bundled in scenario::bundled().into_iter().filter(|b| b.scenario.name != "discord-scale") {
        // Only a store that neither meters nor checks a write has plain puts.
        let plain_stores =
            bundled.scenario.engines.iter().filter(|e| e.profile().blind_writes && !e.profile().metered());
        for &engine in plain_stores {
            let loaded = bundled.on_engine(engine).expect("a listed store loads");
            let scenario = &loaded.scenario;
            // Twenty ticks: enough puts that keys collide where they can.
            let duration = SimDuration::from_millis(scenario.workload.tick.as_millis() * 20);
            let options = RunOptions { seed: None, duration: Some(duration) };
            for variant in &scenario.variants {
                let mut fast = Simulation::new(scenario, variant, &options).expect("starts");
                let plain = fast.upkeep.plain.iter().filter(|&&plain| plain).count();
                if plain == 0 {
                    continue;
                }
                plain_patterns += plain;
                let mut full = Simulation::new(scenario, variant, &options).expect("starts");
                full.upkeep.plain.fill(false);
                full.upkeep.shortcuts.fill_with(|| None);
                while fast.step() {}
                while full.step() {}
                assert_eq!(
                    format!("{:?}", fast.report()),
                    format!("{:?}", full.report()),
                    "{} / {} on {engine}",
                    scenario.name,
                    variant.name
                );
            }
        }
    }
    assert!(plain_patterns >= 8, "the bundled scenarios have plain puts: {plain_patterns}");
}

/// Readings in minute buckets of each sensor (the partition changes every minute), keyed by
/// their time, two of them drawn numbers: a plain put's shortcut must land each where the
/// generic placing does, across the buckets.
const BUCKETED: &str = r#"(
    name: "bucketed",
    title: "Bucketed readings",
    engine: Cassandra,
    entities: [
        (name: "Reading", attributes: [
            (name: "sensor_id", type: S, gen: Pick("sensors")),
            (name: "reading_time", type: Time, gen: Now),
            (name: "value", type: N, gen: Number(Normal(mean: 20, sd: 30))),
            (name: "level", type: N, gen: Number(Uniform(0, 100000))),
        ]),
    ],
    populations: [(name: "sensors", count: 7, ids: "s{:02}")],
    patterns: [
        (name: "record", action: Put, entity: "Reading", given: ["sensor_id"], rate: 10),
        (name: "recent", action: List, entity: "Reading", given: ["sensor_id"],
         range: (attribute: "reading_time", span: Last("2m")), rate: 1),
    ],
    variants: [
        (name: "by-minute", keys: {"Reading": (pk: "{sensor_id}#{reading_time:%H%M}", sk: "{reading_time}")}),
        (name: "by-sensor", keys: {"Reading": (pk: "{sensor_id}", sk: "{reading_time}")}),
    ],
    workload: (duration: "5m", tick: "1s", seed: 5),
)"#;

#[test]
fn a_shortcut_put_lands_where_the_generic_placing_puts_it() {
    let loaded = scenario::parse("bucketed.ron", BUCKETED).expect("test scenario");
    let options = RunOptions::default();
    for variant in &loaded.scenario.variants {
        let mut shortcut = Simulation::new(&loaded.scenario, variant, &options).expect("starts");
        let mut generic = Simulation::new(&loaded.scenario, variant, &options).expect("starts");
        assert!(shortcut.upkeep.shortcuts[0].is_some(), "{}: the puts may take the shortcut", variant.name);
        generic.upkeep.shortcuts.fill_with(|| None);
        while shortcut.step() {}
        while generic.step() {}
        // 3,000 puts over 7 sensors: all but each sensor's first in a partition take it.
        let taken = shortcut.upkeep.shortcuts[0].as_ref().map_or(0, |s| s.taken);
        assert!(taken > 2_000, "{}: {taken} puts took the shortcut", variant.name);
        let (shortcut, generic) = (shortcut.report(), generic.report());
        assert!(
            shortcut.totals.overwritten_items > 0,
            "{}: keys collide: {:?}",
            variant.name,
            shortcut.totals
        );
        assert_eq!(format!("{shortcut:?}"), format!("{generic:?}"), "{}", variant.name);
    }
}
