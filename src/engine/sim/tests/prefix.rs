//! A query on a hierarchical key's prefix (Cosmos DB) visits the physical partitions holding
//! the prefix's placements — here one of the container's ten — with one request each, and reads
//! only the items under the prefix; a read that gives only a later level reads every partition.

use crate::engine::hash::hash_bytes;
use crate::engine::planner::Operation;
use crate::engine::profile::cosmos;
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// Ten tenants' files under (tenant, slot) in a container of ten physical partitions
/// (autoscale to 100,000 RU/s), read by tenant (`by-tenant`, the prefix) or by slot alone
/// (`by-bucket`, the later level).
const FILES: &str = r#"(
    name: "prefix", title: "prefix", engine: CosmosDB,
    entities: [
        (name: "File", attributes: [
            (name: "tenant_id", type: S, gen: Pick("tenants")),
            (name: "uploaded_at", type: Time, gen: Now),
            (name: "seq", type: N, gen: Number(Uniform(0, 999999999))),
            (name: "slot", type: N, gen: Number(Uniform(0, 3))),
            (name: "body", type: S, gen: Payload(2000)),
        ]),
    ],
    populations: [(name: "tenants", count: 10, ids: "tenant-{:03}", popularity: Uniform)],
    patterns: [
        (name: "upload", action: Put, entity: "File", given: ["tenant_id"], rate: 5),
        (name: "by-tenant", action: List, entity: "File", given: ["tenant_id"], rate: 0.2),
        (name: "by-bucket", action: List, entity: "File", given: ["slot"], limit: 5, rate: 0.2),
    ],
    variants: [(
        name: "levels",
        throughput: Autoscale(max: 100000),
        keys: {"File": (pk: ["{tenant_id}", "{slot}"], sk: "{uploaded_at}#{seq}")},
    )],
    workload: (duration: "5m", tick: "1s", seed: 7, start: "2025-06-02"),
)"#;

#[test]
fn a_prefix_read_visits_only_the_partitions_holding_the_prefix() {
    let loaded = scenario::parse("prefix.ron", FILES).expect("test scenario");
    let variant = loaded.variant(Some("levels")).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let group = sim.world.tables[0].group;
    let starts = sim.storage.groups[group].meter.as_ref().expect("Cosmos DB meters").starts();
    assert_eq!(starts.len(), 10, "ten physical partitions");
    // The physical partitions each tenant's prefix is placed on: one of the ten each.
    let holding: Vec<u64> = (0..10)
        .map(|t| {
            let placed = cosmos::prefix_range(format!("tenant-{t:03}").as_bytes(), 2, 1, hash_bytes);
            cosmos::partitions_holding(&starts, placed).count() as u64
        })
        .collect();
    assert!(holding.iter().all(|&n| n == 1), "{holding:?}");
    let r = sim.report();
    let p = r.patterns.iter().find(|p| p.name == "by-tenant").expect("by-tenant");
    assert_eq!(p.single_operation(), Some(Operation::Query), "{p:?}");
    assert!(p.calls > 40, "{}", p.calls);
    // One request to the partition holding the prefix, never ten.
    assert_eq!((p.max_fanout, p.max_requests), (1, 1), "one request a partition visited");
    assert!((p.avg_fanout - 1.0).abs() < 1e-9, "{}", p.avg_fanout);
    assert_eq!((p.throttled, p.scans), (0, 0));
    // A call reads the tenant's items, a tenth of the container's on average, and pays one
    // page for them: the base and the KB it loaded.
    let items = sim.storage.tables[0].base.items() as f64;
    assert!(p.avg_items_read > 0.0 && p.avg_items_read < items / 4.0, "{} of {items}", p.avg_items_read);
    let kb = p.avg_items_read * 2.0;
    let per_call = p.rcu / p.calls as f64;
    assert!(
        per_call > cosmos::QUERY_PAGE_BASE_RU + kb && per_call < cosmos::QUERY_PAGE_BASE_RU + 2.0 * kb,
        "{per_call}"
    );

    // A later level without the first is a query of every partition.
    let later = r.patterns.iter().find(|p| p.name == "by-bucket").expect("by-bucket");
    assert_eq!(later.single_operation(), Some(Operation::Scan), "{later:?}");
    assert!(later.scans > 0);
}
