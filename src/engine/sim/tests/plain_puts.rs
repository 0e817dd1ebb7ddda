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
