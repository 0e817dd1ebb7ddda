//! A read-through cache (issue 12): the replay answers a cached pattern's keys from the cache
//! while their entry lives, reads only the misses from the table, and `check` predicts the hit
//! ratio from the keys' popularity and the TTL (or Che's approximation when eviction binds).

use crate::engine::planner;
use crate::engine::sim::report::{PatternReport, RunReport};
use crate::engine::sim::{RunOptions, Simulation};
use crate::engine::time::SimDuration;
use crate::scenario;

/// 200 profile reads a second over 20,000 Zipf-popular users, ~5 KB each (1 RCU).
const READ_CACHE: &str = include_str!("../../../../tests/fixtures/read-cache.ron");

fn replay(variant: &str, seconds: u64) -> (RunReport, planner::Plan) {
    let loaded = scenario::parse("read-cache.ron", READ_CACHE).expect("test scenario");
    let variant = loaded.variant(Some(variant)).expect("variant");
    let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(seconds)) };
    let mut sim = Simulation::new(&loaded.scenario, variant, &options).expect("starts");
    while sim.step() {}
    (sim.report(), planner::plan(&loaded.scenario, variant))
}

fn profile(r: &RunReport) -> &PatternReport {
    r.patterns.iter().find(|p| p.name == "profile").expect("pattern")
}

#[test]
fn hits_cost_no_read_units_and_misses_cost_the_table_read() {
    // (variant, predicted hit ratio within this of the replay's over five minutes)
    let cases = [("ttl-60s", 0.04), ("lru-300", 0.04)];
    for (variant, tolerance) in cases {
        let (r, plan) = replay(variant, 300);
        let p = profile(&r);
        let cache = p.cache.as_ref().expect("a cached pattern reports its cache");
        assert_eq!(cache.hits + cache.misses, p.calls, "{variant}: one key a call");
        // Each ~5 KB profile is 1 RCU eventually consistent: the table is charged the misses.
        assert!(
            (p.rcu - cache.misses as f64).abs() < 1e-9,
            "{variant}: {} RCU, {} misses",
            p.rcu,
            cache.misses
        );
        assert!((cache.rcu_saved - cache.hits as f64).abs() < 1e-9, "{variant}");
        assert!((p.avg_items_returned - 1.0).abs() < 1e-12, "{variant}: a hit returns the item too");
        let predicted = plan.patterns[0].cache.as_ref().expect("planned").hit_ratio;
        assert!(
            (predicted - cache.hit_ratio).abs() <= tolerance,
            "{variant}: check {predicted:.3}, run {:.3}",
            cache.hit_ratio
        );
    }
}

#[test]
fn an_uncached_variant_reports_no_cache_and_reads_every_call() {
    let (r, plan) = replay("uncached", 60);
    let p = profile(&r);
    assert!(p.cache.is_none() && plan.patterns[0].cache.is_none());
    assert!((p.rcu - p.calls as f64).abs() < 1e-9);
}

#[test]
fn a_hit_is_fast_and_the_replay_is_deterministic() {
    let (a, _) = replay("ttl-60s", 120);
    let (b, _) = replay("ttl-60s", 120);
    assert_eq!(profile(&a).cache, profile(&b).cache, "same seed, same hits");
    // Most calls hit after the first minute: the median call is a cache round trip.
    assert!(profile(&a).latency_ms_p50 < 1.0, "{}", profile(&a).latency_ms_p50);
}

#[test]
fn a_small_cache_evicts_and_hits_less_than_the_ttl_allows() {
    let (ttl, _) = replay("ttl-60s", 300);
    let (lru, _) = replay("lru-300", 300);
    let ratio = |r: &RunReport| profile(r).cache.as_ref().map_or(0.0, |c| c.hit_ratio);
    assert!(ratio(&lru) < ratio(&ttl) - 0.1, "lru {} vs ttl {}", ratio(&lru), ratio(&ttl));
}
