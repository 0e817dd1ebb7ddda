//! Cutting ticks into chunks (`Simulation::advance`, as the TUI does to keep frames short) runs
//! the same events in the same order: the report is byte-identical to whole-tick stepping.

use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// Puts over one partition's 1,000 WCU/s for a few seconds (throttles, retries queued within and
/// across ticks) and reads of an index that falls behind.
const BUSY: &str = r#"(
    name: "busy", title: "busy",
    entities: [(name: "E", attributes: [
        (name: "id", type: S, gen: New("ids")),
        (name: "kind", type: S, gen: Text("all")),
    ])],
    populations: [(name: "ids", count: 1, ids: "e{:06}")],
    patterns: [
        (name: "put", action: Put, entity: "E", given: [], rate: 10, shape: [Spike(at: "2s", factor: 150, duration: "5s")]),
        (name: "by-kind", action: List, entity: "E", given: ["kind"], rate: 3),
    ],
    variants: [(
        name: "naive",
        capacity: Provisioned(read: 3000, write: 1000),
        keys: {"E": (pk: "E#{id}", sk: "E")},
        indexes: [(name: "bykind", keys: {"E": (pk: "{kind}", sk: "{id}")}, projection: KeysOnly)],
    )],
    workload: (duration: "20s", tick: "1s", seed: 7),
)"#;

fn report(chunk: Option<u64>) -> String {
    let loaded = scenario::parse("busy.ron", BUSY).expect("test scenario");
    let variant = loaded.variant(None).expect("one variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    let mut open_ticks = 0;
    match chunk {
        None => while sim.step() {},
        Some(n) => {
            while let Some(completed) = sim.advance(n) {
                if !completed {
                    open_ticks += 1;
                }
            }
            assert!(open_ticks > 20, "the chunks really cut ticks ({open_ticks} partial calls)");
        }
    }
    let report = sim.report();
    assert!(report.totals.throttled_ops > 0, "the scenario throttles, so retries run mid-tick");
    serde_json::to_string(&report).expect("a report serializes")
}

#[test]
fn chunked_ticks_give_the_same_report_as_whole_ticks() {
    let whole = report(None);
    for chunk in [1, 7, 100] {
        assert_eq!(report(Some(chunk)), whole, "chunks of {chunk} events");
    }
}

#[test]
fn an_open_tick_leaves_the_clock_and_the_run_where_they_were() {
    let loaded = scenario::parse("busy.ron", BUSY).expect("test scenario");
    let variant = loaded.variant(None).expect("one variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    let start = sim.now();
    assert_eq!(sim.advance(1), Some(false), "the first tick has more than one event");
    assert_eq!(sim.now(), start, "the clock moves when a tick completes");
    while sim.advance(1) == Some(false) {}
    assert!(sim.now() > start);
    while sim.step() {}
    assert_eq!(sim.advance(1), None, "nothing left to run");
}
