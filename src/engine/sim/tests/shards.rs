//! A sharded collection replayed whole: the bundled `shard-keys` scenario's inserts land where
//! `profile::sharding`'s rules send them ("Choose a Shard Key", "Hashed Sharding", "Clear jumbo
//! Flag"), and a collection that shards nothing reports no shards.

use crate::engine::model::Engine;
use crate::engine::sim::report::{RunReport, ShardsReport};
use crate::engine::sim::{RunOptions, run};
use crate::engine::time::SimDuration;
use crate::scenario;

/// `shard-keys`'s `variant`, replayed for `minutes`.
fn replay(variant: &str, minutes: u64) -> RunReport {
    let loaded = scenario::load("shard-keys").expect("bundled");
    let v = loaded.variant(Some(variant)).expect("the variant exists");
    let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(minutes * 60)) };
    run(&loaded.scenario, v, &options, &mut |_| {}).expect("runs")
}

fn shards(r: &RunReport) -> &ShardsReport {
    r.shards.as_ref().expect("a sharded variant reports its shards")
}

/// An increasing ranged key (the order's creation time): every insert to shard0, while the
/// balancer moves data off it; nothing jumbo, as every second is a value of its own.
#[test]
fn an_increasing_ranged_key_puts_every_insert_on_one_shard() {
    let r = replay("naive", 2);
    let s = shards(&r);
    assert_eq!(s.inserts, 24_000, "200 a second for 2 minutes");
    assert_eq!(s.shards[0].inserts, s.inserts);
    assert!((s.hottest_share_of_inserts - 1.0).abs() < 1e-12);
    assert!(s.migrations > 0 && s.shards[1].bytes > 0, "{s:?}");
    assert_eq!(s.jumbo_ranges, 0);
    // Every document is on one shard: the shards' documents sum to the collection's.
    let documents: u64 = s.shards.iter().map(|x| x.documents).sum();
    assert_eq!(documents, r.totals.items);
}

/// A hashed key spreads the same inserts: each of 3 shards within 2 points of a third
/// (24,000 inserts; a fair split's standard deviation is ~0.3 points).
#[test]
fn a_hashed_key_spreads_inserts_within_two_points_of_even() {
    let r = replay("recommended", 2);
    let s = shards(&r);
    for shard in &s.shards {
        assert!((shard.share_of_inserts - 1.0 / 3.0).abs() < 0.02, "{shard:?}");
    }
    assert_eq!(s.migrations, 0, "{s:?}");
}

/// Five countries as a ranged key: once a country's range is past the 1 MB range size it is
/// jumbo, and the shard holding it keeps it however unbalanced the shards are.
#[test]
fn a_low_cardinality_key_leaves_jumbo_ranges() {
    let r = replay("by-country", 10);
    let s = shards(&r);
    assert!(s.jumbo_ranges > 0, "{s:?}");
    assert!(s.ranges <= 5, "one range per value at most: {s:?}");
    let most = s.shards.iter().map(|x| x.bytes).max().unwrap_or(0);
    let least = s.shards.iter().map(|x| x.bytes).min().unwrap_or(0);
    assert!(most - least > s.migration_threshold_bytes, "unbalanced past the threshold, and stuck: {s:?}");
}

/// No `sharding`: no Shards section, in the JSON either.
#[test]
fn an_unsharded_collection_reports_no_shards() {
    let loaded = scenario::load("social-feed").expect("bundled").on_engine(Engine::MongoDb).expect("listed");
    let v = loaded.variant(Some("recommended")).expect("recommended");
    let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(30)) };
    let r = run(&loaded.scenario, v, &options, &mut |_| {}).expect("runs");
    assert!(r.shards.is_none());
    assert!(!serde_json::to_string(&r).expect("json").contains("\"shards\""));
}
