//! GSI replication lag as reads see it: entries queued on a throttled GSI partition are not in
//! the index until the queue drains, and Queries meanwhile count as stale reads.

use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// 1,500 puts a second for 8 seconds, every entry on one GSI partition key (1,000 WCU/s): the
/// index falls behind by 500 entries a second, then catches up once the burst is over.
const LAG: &str = r#"(
    name: "lag", title: "lag",
    entities: [(name: "E", attributes: [
        (name: "id", type: S, gen: New("ids")),
        (name: "kind", type: S, gen: Text("all")),
    ])],
    populations: [(name: "ids", count: 1, ids: "e{:06}")],
    patterns: [
        (name: "put", action: Put, entity: "E", given: [], rate: 10, shape: [Spike(at: "0s", factor: 150, duration: "8s")]),
        (name: "by-kind", action: List, entity: "E", given: ["kind"], rate: 2),
    ],
    variants: [(
        name: "naive",
        capacity: Provisioned(read: 20000, write: 20000),
        keys: {"E": (pk: "E#{id}", sk: "E")},
        indexes: [(name: "bykind", keys: {"E": (pk: "{kind}", sk: "{id}")}, projection: KeysOnly)],
    )],
    workload: (duration: "30s", tick: "1s", seed: 1),
)"#;

/// Whether the index's partition holds item `ordinal` (as a Query of it would read it).
fn indexed(sim: &Simulation, ordinal: u32) -> bool {
    sim.items_in("bykind", "all", usize::MAX).iter().any(|view| view.ordinal == ordinal)
}

#[test]
fn a_lagging_gsi_shows_a_new_item_only_once_its_queue_drains() {
    let loaded = scenario::parse("lag.ron", LAG).expect("test scenario");
    let variant = loaded.variant(None).expect("one variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    for _ in 0..3 {
        assert!(sim.step());
    }
    let report = sim.report();
    let (items, entries) = (report.totals.items, report.indexes[0].items);
    // Three seconds: 4,500 items (and the initial one) in the table, 3,000 entries applied.
    assert!(items > entries + 1000, "{items} items, {entries} entries");
    let newest = u32::try_from(items - 1).expect("few items");
    assert!(sim.item_named("E", newest).is_some(), "the table has the newest item");
    assert!(!indexed(&sim, newest), "a Query of the index right after the write misses it");
    assert!(indexed(&sim, 0), "older entries are in the index");
    assert!(report.indexes[0].max_lag_s > 0.5, "{:?}", report.indexes[0]);
    let stale_early = report.patterns[1].stale_reads;
    assert!(stale_early > 0, "{:?}", report.patterns[1]);

    while sim.step() {}
    let report = sim.report();
    // The burst is over and the queue drained: every item is in the index, the newest too.
    assert_eq!(report.indexes[0].items, report.totals.items);
    assert!(indexed(&sim, newest), "after the backlog drains the Query sees it");
    let by_kind = &report.patterns[1];
    assert!(by_kind.stale_reads > stale_early && by_kind.stale_reads < by_kind.calls, "{by_kind:?}");
    assert_eq!(report.indexes[0].stale_reads, by_kind.stale_reads);
    // Writes were queued, not lost: one entry write per put (and the preload's is free).
    assert_eq!(report.indexes[0].entry_writes, report.totals.items - 1);
}
