//! Hand-built run reports for the tests of cost, goals and the report writers, so they can be
//! checked against figures worked out by hand without running the simulator; and the fixture
//! scenarios the engine's tests plan and replay, so that editing a bundled lesson never changes
//! what an engine test sees (the bundled scenarios are tested as content, in `tests/`).

pub mod requests;

use super::model::Engine;
use super::planner::{Kind, Operation as Op};
use super::sim::report::{
    GoalResult, IndexReport, IndexType, Operations, PartitionReport, Partitions, PatternReport, RunReport,
    Totals,
};
use super::sim::{RunOptions, Simulation};
use super::time::SimDuration;

/// A one-hour run of a small order system: a GetItem pattern, a Scan that grows, a write, one
/// GSI and two partitions listed. Every figure is plausible and none is zero unless it should be.
pub fn report() -> RunReport {
    RunReport {
        scenario: "orders".to_owned(),
        variant: "naive".to_owned(),
        seed: 7,
        engine: Engine::DynamoDb,
        retry_policy: Some("aws-java-v1-dynamodb".to_owned()),
        duration_s: 3600.0,
        tick_s: 1.0,
        totals: totals(),
        partitions: partitions(),
        indexes: indexes(),
        patterns: patterns(),
        goals: Vec::new(),
        notes: vec!["Latency is modelled: 4 ms per request plus 0.1 ms per 4 KB read.".to_owned()],
        fidelity: crate::engine::sim::report::Fidelity::Operations,
        bands: None,
        request_units: None,
        documents: None,
        shards: None,
    }
}

/// The fixture's totals: 40 of 40,000 requests throttled, two writes given up.
fn totals() -> Totals {
    Totals {
        ops: 36_000,
        reads: 18_000,
        writes: 18_000,
        requests: 40_000,
        rcu: 120_000.0,
        wcu: 27_000.0,
        throttled_ops: 40,
        failed_ops: 2,
        failed_writes: 2,
        gave_up: 2,
        writes_gave_up: 2,
        items: 50_000,
        table_bytes: 25 * 1024 * 1024,
        index_bytes: 5 * 1024 * 1024,
        write_amplification: 1.5,
        cost_usd: 0.0,
        monthly_cost_usd: 0.0,
        price_source: String::new(),
        retries: 44,
        ttl_deletes: 0,
        collection_limit_errors: 0,
        item_size_errors: 0,
        preload_item_size_errors: 0,
        overwritten_items: 0,
        preload_overwritten_items: 0,
        largest_item_bytes: 2_048,
        condition_failed_writes: 0,
        version_conflicts: 0,
    }
}

/// The fixture's partitions: one customer past 100 MB, one split for heat.
fn partitions() -> Partitions {
    Partitions {
        logical: 5_000,
        physical: 4,
        max_bytes: 120 * 1024 * 1024,
        max_items: 150_000,
        peak_rcu_per_s: 900.0,
        peak_wcu_per_s: 300.0,
        top: vec![
            partition("CUSTOMER#c0001", 120 * 1024 * 1024, 150_000, 900.0, 2),
            partition("CUSTOMER#c0420", 2 * 1024 * 1024, 2_000, 40.0, 0),
        ],
        index_top: vec![PartitionReport {
            index: Some("byStatus".to_owned()),
            throttled_ops: 0,
            throttled_attempts: None,
            ..partition("PENDING", 4 * 1024 * 1024, 2_500, 30.0, 0)
        }],
        physical_peak_rcu_per_s: 2_400.0,
        physical_peak_wcu_per_s: 900.0,
        splits: 1,
        splits_for_size: 0,
        splits_for_heat: 1,
        heat_splits_refused: 2,
        nodes: Vec::new(),
    }
}

/// The fixture's one GSI, `byStatus`, hottest on `PENDING`.
fn indexes() -> Vec<IndexReport> {
    vec![IndexReport {
        name: "byStatus".to_owned(),
        kind: IndexType::Global,
        wcu: 9_000.0,
        rcu: 0.0,
        bytes: 5 * 1024 * 1024,
        items: 3_000,
        wcu_vs_table: 0.5,
        max_lag_s: 0.5,
        throttled_ops: 0,
        hottest_key: Some("PENDING".to_owned()),
        hottest_key_peak_wcu_per_s: 12.0,
        peak_wcu_per_s: 12.0,
        partitions: 2,
        max_partition_bytes: 4 * 1024 * 1024,
        entry_writes: 9_000,
        stale_reads: 0,
    }]
}

/// The fixture's patterns: a Query page, a Scan whose cost grows, and a put.
fn patterns() -> Vec<PatternReport> {
    vec![
        pattern(
            "customer-page",
            Kind::Read,
            Some(Op::Query),
            9_000,
            1.0,
            Latency { p50: 4.0, p99: 9.0, target: Some(20.0) },
        ),
        PatternReport {
            avg_items_read: 4_000.0,
            rcu_per_call_start: Some(20.0),
            rcu_per_call_end: Some(400.0),
            ..pattern(
                "pending-orders",
                Kind::Read,
                Some(Op::Scan),
                360,
                12.0,
                Latency { p50: 40.0, p99: 180.0, target: Some(100.0) },
            )
        },
        pattern(
            "place-order",
            Kind::Write,
            Some(Op::PutItem),
            18_000,
            1.0,
            Latency { p50: 5.0, p99: 8.0, target: None },
        ),
    ]
}

pub fn partition(key: &str, bytes: u64, items: u64, peak_rcu: f64, throttled: u64) -> PartitionReport {
    PartitionReport {
        key: key.to_owned(),
        index: None,
        bytes,
        items,
        peak_rcu_per_s: peak_rcu,
        peak_wcu_per_s: peak_rcu / 3.0,
        throttled_ops: throttled,
        throttled_attempts: Some(throttled),
    }
}

/// The latency figures a fixture pattern reports, in milliseconds, and its goal's target.
#[derive(Debug, Clone, Copy)]
pub struct Latency {
    pub p50: f64,
    pub p99: f64,
    pub target: Option<f64>,
}

/// A pattern whose per-call units stay flat; override fields with struct update syntax.
pub fn pattern(
    name: &str,
    kind: Kind,
    operation: Option<Op>,
    calls: u64,
    fanout: f64,
    latency: Latency,
) -> PatternReport {
    let Latency { p50, p99, target } = latency;
    let read = kind == Kind::Read;
    PatternReport {
        name: name.to_owned(),
        kind,
        operation: operation.map(Operations::from),
        index: None,
        calls,
        served_calls: calls,
        served_rcu: if read { calls as f64 * 2.0 } else { 0.0 },
        avg_fanout: fanout,
        // The busiest call asked at least the mean, rounded up to whole requests.
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a small count")]
        max_fanout: fanout.ceil().max(0.0) as u64,
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a small count")]
        max_requests: if read { fanout.ceil().max(0.0) as u64 } else { 0 },
        avg_items_read: if read { 10.0 } else { 0.0 },
        avg_items_returned: if read { 10.0 } else { 0.0 },
        rcu: if read { calls as f64 * 2.0 } else { 0.0 },
        wcu: if read { 0.0 } else { calls as f64 },
        rcu_per_call_start: Some(if read { 2.0 } else { 0.0 }),
        rcu_per_call_end: Some(if read { 2.0 } else { 0.0 }),
        throttled: 0,
        failed: 0,
        latency_ms_p50: p50,
        latency_ms_p99: p99,
        timed: true,
        unfinished: 0,
        latency_target_ms: target,
        requests: crate::engine::planner::numbers::floor_u64((calls as f64 * fanout).round()),
        landed_writes: (!read).then_some(calls),
        retries: 0,
        avg_pages: if read { 1.0 } else { 0.0 },
        scans: if operation == Some(Op::Scan) { calls } else { 0 },
        collection_errors: 0,
        item_size_errors: 0,
        overwrote: 0,
        condition_failed: 0,
        version_conflicts: 0,
        duplicates: 0,
        stale_reads: 0,
        cache: None,
    }
}

/// A goal result, for writer tests.
pub fn goal(name: &str, passed: bool, detail: &str) -> GoalResult {
    GoalResult {
        name: name.to_owned(),
        status: super::sim::report::GoalStatus::of(passed),
        value: Some(if passed { 1.0 } else { 3.0 }),
        lower_bound: false,
        target: 2.0,
        unit: super::goals::GoalUnit::Count,
        detail: detail.to_owned(),
        hint: None,
    }
}

/// The fixture after pricing and grading, with one goal failed and one passed.
pub fn judged_report() -> RunReport {
    let mut r = report();
    r.totals.cost_usd = 0.0123;
    r.totals.monthly_cost_usd = 8.86;
    r.totals.price_source = "AWS DynamoDB on-demand, us-east-1, prices effective 2024-11-01".to_owned();
    r.goals = vec![
        goal("the warehouse never scans", false, "pending-orders ran 360 Scans"),
        goal("no throttling", true, "40 of 40,000 requests throttled (0.1%) ≤ 0.1%"),
    ];
    r
}

/// The fixture as `naive`, and a `recommended` that serves pending-orders by a Query on an index.
pub fn compared_reports() -> Vec<RunReport> {
    let mut naive = report();
    naive.totals.monthly_cost_usd = 100.0;
    naive.goals = vec![goal("never scans", false, "ran 360 Scans"), goal("cheap", true, "ok")];
    let mut fixed = naive.clone();
    fixed.variant = "recommended".to_owned();
    fixed.totals.monthly_cost_usd = 25.0;
    fixed.totals.rcu = 12_000.0;
    fixed.partitions.max_bytes = 0;
    fixed.goals = vec![goal("never scans", true, "served by Query"), goal("cheap", true, "ok")];
    let scan = &mut fixed.patterns[1];
    (scan.operation, scan.index, scan.avg_fanout) =
        (Some(Op::Query.into()), Some("byStatus".to_owned()), 1.0);
    (scan.latency_ms_p99, scan.rcu, scan.served_rcu) = (9.0, 360.0, 360.0);
    vec![naive, fixed]
}

/// Every row of each Markdown table in `md` has as many cells as its header (escaped pipes are
/// not borders).
///
/// # Panics
///
/// At the first row that does not: it is a test's assertion.
pub fn assert_tables_are_whole(md: &str) {
    let borders = |line: &str| line.replace("\\|", "").matches('|').count();
    let mut header = None;
    for line in md.lines() {
        match (line.starts_with('|'), header) {
            (true, None) => header = Some(borders(line)),
            (true, Some(n)) => assert_eq!(borders(line), n, "{line}"),
            (false, _) => header = None,
        }
    }
}

/// The class-slot tests' multi-tenant event log: `tenants` tenants log `rate` events a second,
/// the first (the whale) taking 60% of them; the audit page reads a tenant's newest 20 of the
/// last hour, `page_rate` times a second, picking tenants as the writes do. `variants` is the
/// file's variant list, each keying `Event`; `workload` its `(duration, tick, seed)` line.
pub fn whale_log(tenants: u32, rate: u32, page_rate: u32, variants: &str, workload: &str) -> String {
    let width = (tenants - 1).to_string().len();
    format!(
        r#"(
    name: "whale", title: "whale",
    entities: [(name: "Event", attributes: [
        (name: "tenant_id", type: S, gen: Pick("tenants")),
        (name: "at", type: Time, gen: Now),
        (name: "seq", type: N, gen: Number(Uniform(0, 999999999))),
        (name: "detail", type: S, gen: Payload(200)),
    ])],
    populations: [(name: "tenants", count: {tenants}, ids: "tenant-{{:0{width}}}",
                   popularity: Weighted([(0.6, Fixed(0)), (0.4, Uniform)]))],
    patterns: [
        (name: "log", action: Put, entity: "Event", given: ["tenant_id"], rate: {rate}),
        (name: "page", action: List, entity: "Event", given: ["tenant_id"],
         range: (attribute: "at", span: Last("1h")), order: Desc, limit: 20, rate: {page_rate}),
    ],
    variants: {variants},
    workload: {workload},
)"#
    )
}

/// The engine's fixture scenarios, by name: trimmed copies of bundled designs (no story, lesson
/// or comments), frozen here so that the figures the tests work out stay theirs.
const FIXTURES: &[(&str, &str)] = &[
    ("counters", include_str!("testing/fixtures/counters.ron")),
    ("orders", include_str!("testing/fixtures/orders.ron")),
    ("practice-chat", include_str!("testing/fixtures/practice-chat.ron")),
    ("practice-ledger", include_str!("testing/fixtures/practice-ledger.ron")),
    ("practice-search", include_str!("testing/fixtures/practice-search.ron")),
    ("practice-sensor", include_str!("testing/fixtures/practice-sensor.ron")),
    ("practice-sessions", include_str!("testing/fixtures/practice-sessions.ron")),
    ("practice-social", include_str!("testing/fixtures/practice-social.ron")),
    ("practice-top-customers", include_str!("testing/fixtures/practice-top-customers.ron")),
    ("sensors", include_str!("testing/fixtures/sensors.ron")),
    ("social-feed", include_str!("testing/fixtures/social-feed.ron")),
];

/// The text of the fixture scenario `name`.
///
/// # Panics
///
/// For a name that is not a fixture: a test's mistake.
pub fn fixture_source(name: &str) -> &'static str {
    FIXTURES.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no fixture named {name:?}")).1
}

/// The fixture scenario `name`, loaded.
///
/// # Panics
///
/// For a name that is not a fixture, or a fixture that does not load.
pub fn fixture(name: &str) -> crate::scenario::Loaded {
    crate::scenario::parse(&format!("{name}.ron"), fixture_source(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// Every fixture scenario, loaded.
pub fn fixtures() -> impl Iterator<Item = crate::scenario::Loaded> {
    FIXTURES.iter().map(|(name, _)| fixture(name))
}

mod tests {
    #[test]
    fn every_fixture_loads() {
        for (name, _) in super::FIXTURES {
            let loaded = super::fixture(name);
            assert_eq!(loaded.scenario.name, *name);
        }
    }
}

/// A replay of fixture `name`'s text after `edits` (each must apply), run for `ticks` ticks.
///
/// # Panics
///
/// For an edit that does not apply, or a scenario or variant that does not load: a test's
/// mistake.
pub fn replay(name: &str, edits: &[(&str, &str)], variant: &str, ticks: u32) -> Simulation {
    let mut source = fixture_source(name).to_owned();
    for (from, to) in edits {
        assert!(source.contains(from), "the edit {from:?} applies to {name}");
        source = source.replace(from, to);
    }
    let loaded = crate::scenario::parse("test.ron", &source).unwrap_or_else(|e| panic!("{e}"));
    let variant = loaded.scenario.variant(variant).expect("the variant exists");
    let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(30 * 86_400)) };
    let mut sim = Simulation::new(&loaded.scenario, variant, &options).expect("the replay starts");
    for _ in 0..ticks {
        sim.step();
    }
    sim
}

/// `orders` made small, with two more indexes: a GSI without a sort key (entries tie on the
/// table key) and a keys-only LSI whose name DynamoDB would refuse (the console serves it under
/// an alias); an hour of 10-second ticks (orders placed, items added, orders shipped, leaving the
/// sparse index). The console's tests read it: the engine's, and `ops::short`'s with its parser.
pub fn console_orders() -> Simulation {
    let edits = [
        ("(name: \"customers\", count: 20000", "(name: \"customers\", count: 40"),
        ("(name: \"orders\", count: 20000", "(name: \"orders\", count: 300"),
        ("(name: \"products\", count: 50000", "(name: \"products\", count: 50"),
        (
            "only_when: (\"status\", \"PENDING\"),\n                ),",
            "only_when: (\"status\", \"PENDING\"),\n                ),
                (name: \"by-customer\", keys: {\"Order\": (pk: \"{customer_id}\")}, projection: KeysOnly),
                (name: \"by total\", kind: Local, keys: {\"Order\": (sk: \"{total}\")}, projection: KeysOnly),",
        ),
    ];
    replay("orders", &edits, "recommended", 360)
}
