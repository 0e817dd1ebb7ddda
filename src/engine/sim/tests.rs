//! Simulator tests that span modules: the compact table against the reference store, and the
//! bundled scenarios' figures.

mod equivalence;

#[test]
#[ignore = "manual smoke run"]
fn smoke() {
    use crate::engine::time::SimDuration;
    for (name, variant, duration) in [("counters", "naive", 120u64), ("counters", "recommended", 120), ("orders", "naive", 600), ("orders", "recommended", 600), ("sensors", "naive", 3600), ("sensors", "recommended", 3600)] {
        let loaded = crate::scenario::load(name).unwrap();
        let v = loaded.variant(Some(variant)).unwrap();
        let start = std::time::Instant::now();
        let options = super::RunOptions { seed: None, duration: Some(SimDuration::from_secs(duration)) };
        let report = super::run(&loaded.scenario, v, &options, &mut |_| {}).unwrap();
        println!("{name}/{variant}: {:?}\n{}", start.elapsed(), serde_json::to_string_pretty(&report).unwrap());
    }
}
