//! Class slots (issue 12): a write lands on its class's layout (the whale's 8 shards, a small
//! tenant's one key), a read asks only its class's shards, and the report shows the fan-out
//! the calls made — in agreement with `check`'s mix of the classes.

use crate::engine::planner;
use crate::engine::sim::report::RunReport;
use crate::engine::sim::{RunOptions, Simulation};
use crate::engine::testing;
use crate::scenario;

/// 20 tenants, 400 events a second, tenant-00 takes 60% of them; its pages are 60% of the
/// reads too. Only the whale is sharded.
fn whale() -> String {
    let variants = r#"[(name: "whale", keys: {"Event": (
        pk: "T#{tenant_id}#{shard(by: tenant_id, tenant-00 = 8, else = 1)}", sk: "{at}#{seq}")})]"#;
    testing::whale_log(20, 400, 20, variants, r#"(duration: "30s", tick: "1s", seed: 5)"#)
}

fn replay() -> (RunReport, planner::Plan, Vec<String>) {
    let loaded = scenario::parse("whale.ron", &whale()).expect("test scenario");
    let variant = loaded.variant(None).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let keys = sim.partitions().into_iter().map(|p| p.key).collect();
    (sim.report(), planner::plan(&loaded.scenario, variant), keys)
}

#[test]
fn writes_land_on_their_class_layout_and_reads_ask_their_class() {
    let (r, plan, mut keys) = replay();
    keys.sort();
    // The whale's 240 events a second spread over its 8 shards; every other tenant's stay on
    // its one key, shard 0: 8 + 19 partitions.
    let whale: Vec<&str> =
        keys.iter().map(String::as_str).filter(|k| k.starts_with("T#tenant-00#")).collect();
    assert_eq!(whale, (0..8).map(|s| format!("T#tenant-00#{s}")).collect::<Vec<_>>(), "{keys:?}");
    let others: Vec<&String> = keys.iter().filter(|k| !k.starts_with("T#tenant-00#")).collect();
    assert_eq!(others.len(), 19, "{keys:?}");
    assert!(others.iter().all(|k| k.ends_with("#0")), "a small tenant has one key: {others:?}");
    let page = r.patterns.iter().find(|p| p.name == "page").expect("page");
    // The whale's pages ask 8 shards, the others 1: 1 + 7 × 61% ≈ 5.3 requests a call.
    assert_eq!(page.max_fanout, 8);
    let share = 0.6 + 0.4 / 20.0;
    assert!((page.avg_fanout - (1.0 + 7.0 * share)).abs() < 0.3, "{}", page.avg_fanout);
    // And `check` costs the same mix.
    let planned = plan.patterns.iter().find(|p| p.name == "page").expect("planned");
    let calls = page.calls as f64;
    let items = planned.items_read.expect("items");
    assert!(
        (items - page.avg_items_read).abs() <= 0.25 * page.avg_items_read,
        "{items} vs {}",
        page.avg_items_read
    );
    let units = page.rcu / calls;
    assert!((planned.units_per_call - units).abs() <= 0.25 * units, "{} vs {units}", planned.units_per_call);
    // Seeded: the same run twice gives the same figures.
    let again = replay().0;
    let twice = again.patterns.iter().find(|p| p.name == "page").expect("page");
    assert_eq!((twice.rcu, twice.avg_fanout, twice.max_fanout), (page.rcu, page.avg_fanout, page.max_fanout));
}
