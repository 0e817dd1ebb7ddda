//! Whole-run behaviours on small scenarios written for the purpose: how many calls each tick
//! makes, retries and their latency, heat splits and the one-key limit, GSI back-pressure and
//! lag, the TTL sweeper.

use crate::engine::sim::{RunOptions, RunReport, Simulation, run};
use crate::scenario;

fn load(source: &str) -> crate::scenario::Loaded {
    scenario::parse("test.ron", source).unwrap_or_else(|e| panic!("test scenario: {e}"))
}

fn replay(source: &str) -> RunReport {
    let loaded = load(source);
    let variant = loaded.variant(None).expect("one variant");
    run(&loaded.scenario, variant, &RunOptions::default(), &mut |_| {}).expect("runs")
}

const COUNTS: &str = r#"(
    name: "counts", title: "counts",
    entities: [(name: "E", attributes: [
        (name: "id", type: S, gen: Pick("ids")),
        (name: "t", type: Time, gen: Now),
    ])],
    populations: [(name: "ids", count: 10, ids: "i{}")],
    patterns: [
        (name: "quarter", action: Put, entity: "E", given: ["id"], rate: 0.25),
        (name: "daily", action: Put, entity: "E", given: ["id"], rate: 1, shape: [Diurnal(peak_hour: 12, factor: 3)]),
    ],
    variants: [(name: "naive", keys: {"E": (pk: "{id}", sk: "{t}")})],
    workload: (duration: "1d", tick: "1s", seed: 5),
)"#;

#[test]
fn a_run_that_cannot_start_says_why() {
    use crate::engine::sim::SimError;
    use crate::engine::time::SimDuration;
    let loaded = crate::engine::testing::fixture("orders");
    let variant = loaded.variant(Some("naive")).expect("naive");
    let start = |secs: u64| {
        let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(secs)) };
        Simulation::new(&loaded.scenario, variant, &options).err()
    };
    // orders ticks every 10 s.
    let tick = SimDuration::from_secs(10);
    let short = start(5).expect("5 s is shorter than a tick");
    assert_eq!(short, SimError::ShorterThanATick { duration: SimDuration::from_secs(5), tick });
    assert_eq!(short.to_string(), "the duration (5s) is shorter than one tick (10s)");
    // A duration between two whole ticks is refused, never rounded to one of them.
    let cases = [(15, Some((10, 20))), (25, Some((20, 30))), (20, None), (60, None)];
    for (secs, nearest) in cases {
        let expected = nearest.map(|(below, above)| SimError::NotWholeTicks {
            duration: SimDuration::from_secs(secs),
            tick,
            below: SimDuration::from_secs(below),
            above: SimDuration::from_secs(above),
        });
        assert_eq!(start(secs), expected, "{secs} s");
    }
    assert_eq!(
        start(15).expect("15 s is a tick and a half").to_string(),
        "the duration (15s) is not a whole number of ticks (10s): the replay advances a tick at a time; use 10s or 20s"
    );
    let long = start(50_000_000_000).expect("5 billion ticks do not fit");
    assert!(matches!(long, SimError::TooManyTicks { .. }), "{long}");
    assert!(long.to_string().ends_with("is more than 2^32 ticks; use a longer tick"), "{long}");
}

#[test]
fn a_write_addresses_one_key_at_most_as_on_average() {
    let report = replay(&COUNTS.replace("duration: \"1d\"", "duration: \"1h\""));
    for p in &report.patterns {
        assert!(p.calls > 0, "{}", p.name);
        assert_eq!((p.avg_fanout, p.max_fanout), (1.0, 1), "{}", p.name);
    }
}

#[test]
fn each_tick_makes_its_share_of_calls_carrying_the_fraction() {
    let loaded = load(COUNTS);
    let variant = loaded.variant(None).expect("one variant");
    let mut a = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    let mut b = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    let mut quarter = Vec::new();
    for _ in 0..10 {
        assert!(a.step() && b.step());
        let (ra, rb) = (a.report(), b.report());
        assert_eq!(ra.patterns[0].calls, rb.patterns[0].calls, "the same calls in every run");
        assert_eq!(ra.patterns[1].calls, rb.patterns[1].calls);
        quarter.push(ra.patterns[0].calls);
    }
    // 0.25 a second: a call every fourth tick, the fraction carried.
    assert_eq!(quarter, [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]);
    while a.step() {}
    let report = a.report();
    // A diurnal shape of factor 3 averages twice its base over a whole day.
    let daily = report.patterns[1].calls;
    assert!((172_799..=172_800).contains(&daily), "{daily}");
    assert_eq!(report.patterns[0].calls, 21_600);
    assert!(!a.step(), "a finished run takes no more steps");
    assert!((a.progress() - 1.0).abs() < 1e-12);
}

const HOT_ITEM: &str = r#"(
    name: "hot", title: "hot",
    entities: [(name: "C", attributes: [
        (name: "id", type: S, gen: Pick("one")),
        (name: "n", type: N, gen: Number(Uniform(0, 100))),
    ])],
    populations: [(name: "one", count: 1, ids: "c{}")],
    patterns: [(name: "bump", action: Update, entity: "C", given: ["id"], sets: ["n"], rate: 1100)],
    variants: [(name: "naive", capacity: Provisioned(read: 3000, write: 4000), keys: {"C": (pk: "C#{id}")})],
    workload: (duration: "150s", tick: "1s", seed: 1),
)"#;

// AWS SDK for Java 1.x, PredefinedRetryPolicies.DYNAMODB_DEFAULT: throttled requests back off
// from 500 ms with equal jitter, capped at 20 s, and give up after 10 retries.
#[test]
fn throttled_requests_retry_with_backoff_and_give_up_after_ten() {
    let report = replay(HOT_ITEM);
    assert_eq!(report.retry_policy.as_deref(), Some("aws-java-v1-dynamodb"));
    let bump = &report.patterns[0];
    assert!(bump.throttled > 0 && bump.failed > 0 && bump.retries > bump.throttled, "{bump:?}");
    assert_eq!(report.totals.throttled_ops, bump.throttled);
    // One item, one partition: exactly 1,000 WCU a second land.
    assert!((report.partitions.physical_peak_wcu_per_s - 1000.0).abs() < 1e-6);
    assert!((bump.wcu - 150.0 * 1000.0).abs() < 1e-6, "{}", bump.wcu);
    // A request that gives up waited between half and all of its ceilings, 500 + 1,000 + … +
    // 16,000 + 4 × 20,000 = 111,500 ms, on top of its 4 ms (the histogram holds latencies
    // within 1/128).
    let (low, high) = (111_500.0 / 2.0 + 4.0, 111_500.0 + 4.0);
    let p99 = bump.latency_ms_p99;
    assert!(p99 > low * (1.0 - 1.0 / 128.0) && p99 < high * (1.0 + 1.0 / 128.0), "{p99}");
    // Retries compete with new calls for each second's 1,000 units, so many calls wait.
    assert!(bump.latency_ms_p50 >= 4.0 && bump.latency_ms_p50 < bump.latency_ms_p99);
}

/// One item taking three times what its partition serves, for 10 seconds: the client's retries
/// (500 ms and more each) outlast the run.
const SWAMPED: &str = r#"(
    name: "swamped", title: "swamped",
    entities: [(name: "C", attributes: [
        (name: "id", type: S, gen: Pick("one")),
        (name: "n", type: N, gen: Number(Uniform(0, 100))),
    ])],
    populations: [(name: "one", count: 1, ids: "c{}")],
    patterns: [(name: "bump", action: Update, entity: "C", given: ["id"], sets: ["n"], rate: 3000, latency_ms: 10000)],
    variants: [(name: "naive", capacity: Provisioned(read: 3000, write: 4000), keys: {"C": (pk: "C#{id}")})],
    workload: (duration: "10s", tick: "1s", seed: 1),
    goals: [(name: "bumps are quick", check: LatencyTarget("bump"))],
)"#;

#[test]
fn calls_that_never_complete_fail_their_latency_target() {
    let loaded = load(SWAMPED);
    let variant = loaded.variant(None).expect("one variant");
    let mut report = run(&loaded.scenario, variant, &RunOptions::default(), &mut |_| {}).expect("runs");
    let bump = &report.patterns[0];
    // The calls that landed met the (lax) 10 s target; two in three are still waiting for a
    // retry when the run ends, and they are the ones a p99 over landed calls leaves out.
    assert!(bump.latency_ms_p99 <= 10_000.0, "{bump:?}");
    assert!(bump.unfinished > bump.calls / 2, "{bump:?}");
    report.goals = crate::engine::goals::evaluate(&loaded.scenario, variant, &report);
    let goal = &report.goals[0];
    assert!(!goal.passed() && goal.detail.contains("never completed"), "{goal:?}");
}

const HEAT: &str = r#"(
    name: "heat", title: "heat",
    entities: [(name: "H", attributes: [
        (name: "id", type: S, gen: Pick("keys")),
        (name: "blob", type: S, gen: Payload(2900)),
    ])],
    populations: [(name: "keys", count: 200, ids: "k{}", popularity: Weighted([(6.0, Fixed(0)), (1.0, Uniform)]))],
    patterns: [(name: "put", action: Put, entity: "H", given: ["id"], rate: 350)],
    variants: [(name: "naive", capacity: Provisioned(read: 3000, write: 4000), keys: {"H": (pk: "H#{id}")})],
    workload: (duration: "20m", tick: "1s", seed: 2),
)"#;

#[test]
fn a_hot_partition_splits_for_heat_until_one_key_is_left() {
    let report = replay(HEAT);
    let p = &report.partitions;
    // 5 partitions to start (3,000 RCU + 4,000 WCU provisioned); the hot key's takes ~900 WCU/s
    // (3 WCU × 300 puts), above 80% for whole 5-minute windows: it splits, then the hot key sits
    // alone and a further split is refused.
    assert!(p.splits_for_heat >= 1, "{p:?}");
    assert!(p.heat_splits_refused >= 1, "{p:?}");
    assert_eq!(p.physical, 5 + p.splits);
    assert_eq!(p.splits_for_size, 0);
    assert_eq!(report.totals.throttled_ops, 0, "900 WCU/s is under the limit");
}

const BACK_PRESSURE: &str = r#"(
    name: "pressure", title: "pressure",
    entities: [(name: "E", attributes: [
        (name: "id", type: S, gen: New("ids")),
        (name: "kind", type: S, gen: Text("all")),
    ])],
    populations: [(name: "ids", count: 1, ids: "e{}")],
    patterns: [(name: "put", action: Put, entity: "E", given: [], rate: 1500)],
    variants: [(
        name: "naive",
        capacity: Provisioned(read: 1000, write: 20000),
        keys: {"E": (pk: "E#{id}", sk: "E")},
        indexes: [(name: "bykind", keys: {"E": (pk: "{kind}", sk: "{id}")}, projection: KeysOnly)],
    )],
    workload: (duration: "30s", tick: "1s", seed: 1),
)"#;

#[test]
fn a_gsi_that_cannot_keep_up_lags_then_throttles_its_table() {
    let report = replay(BACK_PRESSURE);
    let index = &report.indexes[0];
    // Every entry lands on one GSI partition key: 1,000 WCU/s served, the rest queues; after 5
    // seconds of queue the table's writes are throttled (back-pressure), not the index's.
    assert!(index.max_lag_s > 1.0, "{index:?}");
    assert!(index.throttled_ops > 0, "{index:?}");
    assert_eq!(report.totals.throttled_ops, report.patterns[0].throttled);
    assert!(report.totals.throttled_ops > 0);
    assert_eq!(index.partitions, 1);
    assert!(index.peak_wcu_per_s <= 1000.0 + 1e-6, "{index:?}");
}

const TTL: &str = r#"(
    name: "ttl", title: "ttl",
    entities: [(name: "S", attributes: [
        (name: "id", type: S, gen: New("ids")),
        (name: "user", type: S, gen: Pick("users")),
    ])],
    populations: [(name: "ids", count: 1, ids: "s{}"), (name: "users", count: 100, ids: "u{}")],
    patterns: [(name: "put", action: Put, entity: "S", given: [], rate: 0.1)],
    variants: [(
        name: "naive",
        keys: {"S": (pk: "S#{id}", sk: "S")},
        indexes: [(name: "byuser", keys: {"S": (pk: "{user}", sk: "{id}")}, projection: KeysOnly)],
        ttl: (attribute: "expires", lifetime: "1h", entities: ["S"]),
    )],
    workload: (duration: "3d", tick: "1m", seed: 1),
)"#;

#[test]
fn the_ttl_sweeper_deletes_expired_items_48_hours_late_for_free() {
    let report = replay(TTL);
    // 0.1 puts a second for 72 hours; an item lives 1 hour and is swept 48 hours after that, so
    // the last 49 hours' items are left.
    let written = 25_920 + 1;
    let left = 17_640;
    assert!(report.totals.items.abs_diff(left) <= 10, "{}", report.totals.items);
    assert_eq!(report.totals.ttl_deletes + report.totals.items, written);
    // The sweep takes index entries along and costs nothing.
    assert_eq!(report.indexes[0].items, report.totals.items);
    assert!(
        (report.totals.wcu - 25_920.0 * 2.0).abs() < 1e-6,
        "table + index write per put: {}",
        report.totals.wcu
    );
}

const SPARSE: &str = r#"(
    name: "sparse", title: "sparse",
    entities: [(name: "Order", attributes: [
        (name: "order_id", type: S, gen: New("orders")),
        (name: "status", type: S, gen: OneOf([("PENDING", 1), ("SHIPPED", 1)])),
        (name: "placed_at", type: Time, gen: Now),
    ])],
    populations: [(name: "orders", count: 100, ids: "o{:05}", popularity: Latest)],
    patterns: [
        (name: "place", action: Put, entity: "Order", given: [], rate: 1),
        (name: "ship", action: Update, entity: "Order", given: ["order_id"], sets: ["status"], rate: 2),
        (name: "pending", action: List, entity: "Order", equals: {"status": "PENDING"}, range: (attribute: "placed_at", span: All), limit: 10, rate: 0.1),
    ],
    variants: [
        (name: "scan", keys: {"Order": (pk: "O#{order_id}", sk: "O")}),
        (name: "index", keys: {"Order": (pk: "O#{order_id}", sk: "O")}, indexes: [
            (name: "open", keys: {"Order": (pk: "{status}", sk: "{placed_at}")}, projection: KeysOnly, only_when: ("status", "PENDING")),
        ]),
    ],
    workload: (duration: "10m", tick: "1s", seed: 4),
)"#;

#[test]
fn updates_move_items_in_and_out_of_a_sparse_index_and_of_a_scan_filter() {
    let loaded = load(SPARSE);
    for variant in ["scan", "index"] {
        let v = loaded.variant(Some(variant)).expect("exists");
        let mut sim = Simulation::new(&loaded.scenario, v, &RunOptions::default()).expect("starts");
        while sim.step() {}
        let report = sim.report();
        let pending = (0..report.totals.items)
            .filter_map(|o| sim.item_named("Order", u32::try_from(o).expect("few")))
            .filter(|i| i.item.get("status") == Some(&crate::engine::value::AttributeValue::s("PENDING")))
            .count() as u64;
        assert!(pending > 50 && pending < report.totals.items, "{variant}: {pending}");
        if variant == "index" {
            // Exactly the pending orders are in the sparse index, however often they changed.
            assert_eq!(report.indexes[0].items, pending);
            assert!(report.indexes[0].entry_writes > report.patterns[0].calls);
        } else {
            // The Scan's constant filter is counted as items change: it returns min(limit, pending).
            let scan = &report.patterns[2];
            assert!((scan.avg_items_returned - 10.0).abs() < 1e-9, "{scan:?}");
        }
    }
}

#[test]
fn regenerated_items_are_the_items_the_table_holds() {
    // The inspector's items: materialized from the seed, their sizes by DynamoDB's rules must be
    // the sizes the compact rows were written with.
    for (name, variant, partition_group) in
        [("orders", "recommended", "orders"), ("sensors", "naive", "Reading")]
    {
        let loaded = crate::engine::testing::fixture(name);
        let v = loaded.variant(Some(variant)).expect("exists");
        let options =
            RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(3600)) };
        let mut sim = Simulation::new(&loaded.scenario, v, &options).expect("starts");
        while sim.step() {}
        let partitions = sim.partitions();
        let mut checked = 0;
        for p in partitions.iter().filter(|p| p.group == partition_group).take(30) {
            let items = sim.items_in(&p.group, &p.key, 20);
            assert_eq!(items.len() as u64, p.items.min(20), "{}", p.key);
            for view in &items {
                assert_eq!(crate::engine::value::item_size(&view.item), view.size as usize, "{view:?}");
                checked += 1;
            }
            // The partition's bytes are its items' sizes.
            if p.items <= 20 {
                assert_eq!(items.iter().map(|i| u64::from(i.size)).sum::<u64>(), p.bytes, "{}", p.key);
            }
        }
        assert!(checked > 20, "{name}: {checked}");
        let first = sim.item_named(&items_entity(name), 0).expect("the first item exists");
        assert_eq!(first.ordinal, 0);
        assert!(sim.now() > crate::engine::time::SimTime::EPOCH && sim.is_finished());
        assert!(sim.metrics().partitions().count() > 0);
    }
}

fn items_entity(scenario: &str) -> String {
    if scenario == "orders" { "Customer".into() } else { "Sensor".into() }
}

/// Readings keyed by one-second bucket, and a read of every bucket so far: the loader holds the
/// fan-out to 10,000 over the file's 9,000 s, but `run --duration` may run longer.
const EVERY_BUCKET: &str = r#"(
    name: "buckets", title: "buckets",
    entities: [(name: "R", attributes: [
        (name: "id", type: S, gen: Pick("ids")),
        (name: "t", type: Time, gen: Now),
    ])],
    populations: [(name: "ids", count: 1, ids: "r{}")],
    patterns: [
        (name: "write", action: Put, entity: "R", given: ["id"], rate: 0.01),
        (name: "history", action: List, entity: "R", given: ["id"], range: (attribute: "t", span: All), rate: 0.0002),
    ],
    variants: [(name: "naive", keys: {"R": (pk: "{id}#{bucket(t, 1s)}", sk: "{t}")})],
    workload: (duration: "9000s", tick: "10s", seed: 4),
)"#;

#[test]
fn a_read_may_fan_out_past_65536_requests_when_the_run_outlasts_the_file() {
    let loaded = load(EVERY_BUCKET);
    let variant = loaded.variant(None).expect("one variant");
    let options =
        RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(80_000)) };
    let report = run(&loaded.scenario, variant, &options, &mut |_| {}).expect("runs");
    let history = &report.patterns[1];
    // A call at t seconds asks every one-second bucket since the start: past 65,536 near the end
    // (request ids were 16-bit and overflowed there).
    assert!(history.calls > 0 && history.avg_fanout > 10_000.0, "{history:?}");
    assert!(history.requests as f64 > 65_536.0, "{history:?}");
}

#[test]
fn a_given_value_draws_from_its_patterns_stream_and_attribute() {
    // `given_val` reads the streams `world` combined once; they must be the ones it combined
    // on every call before, or every given value (and report) would change.
    let loaded = load(COUNTS);
    let variant = loaded.variant(None).expect("one variant");
    let sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    for pattern in &sim.world.patterns {
        let attrs = sim.world.entities[pattern.entity].attrs.len();
        let expected: Vec<u64> =
            (0..attrs).map(|a| crate::engine::hash::combine(&[pattern.stream, a as u64])).collect();
        assert_eq!(pattern.given_streams, expected, "{}", pattern.name);
    }
}
