//! The report of one run (`keyheat run`): text for an 80-column terminal, JSON (the `RunReport`
//! itself, pretty-printed) and Markdown for a README or an issue. Text and Markdown say the same
//! things in the same order: headline, totals, partitions, indexes, access patterns (latency is
//! always labelled modelled), goals, notes.

mod md;
mod partitions;
mod text;

use std::fmt::Write as _;
use std::io::{self, Write};

use super::RunFormat;
use super::json;
use crate::engine::cost::{self, usd};
use crate::engine::goals::{self, GoalUnit};
use crate::engine::model::Engine;
use crate::engine::planner::{Kind, Operation, numbers, verb};
use crate::engine::profile::{Language, mongo};
use crate::engine::sim::report::{GoalResult, GoalStatus, IndexReport, PatternReport, RunReport, Totals};

pub(crate) use partitions::{THROTTLED_LEGEND, index_legend, partition_rows};
pub use partitions::{hottest, place, shown};

/// Partitions listed by text and Markdown (JSON keeps every one the simulator listed).
pub const TOP_PARTITIONS: usize = 10;

pub fn write(out: &mut impl Write, report: &RunReport, format: RunFormat) -> io::Result<()> {
    match format {
        RunFormat::Text => text::write(out, report),
        RunFormat::Json => json::write(out, report),
        RunFormat::Md => md::write(out, report),
    }
}

/// "3 of 5 goals passed ✘" / "all 4 goals passed ✔" / "3 of 4 goals passed, 1 not graded ✘" /
/// "no goals". A goal not graded was not passed.
pub fn goal_summary(report: &RunReport) -> String {
    let total = report.goals.len();
    let passed = report.goals.iter().filter(|g| g.passed()).count();
    let ungraded = report.goals.iter().filter(|g| g.status == GoalStatus::NotGraded).count();
    let ungraded = if ungraded > 0 { format!(", {ungraded} not graded") } else { String::new() };
    match (total, passed) {
        (0, _) => "no goals".to_owned(),
        (t, p) if t == p => format!("all {t} goals passed ✔"),
        (t, p) => format!("{p} of {t} goals passed{ungraded} ✘"),
    }
}

/// A goal's mark: ✔ passed, ✘ failed, – not graded (the run gave it nothing to judge).
pub fn goal_mark(status: GoalStatus) -> &'static str {
    match status {
        GoalStatus::Passed => "✔",
        GoalStatus::Failed => "✘",
        GoalStatus::NotGraded => "–",
    }
}

/// A goal's value as a report cell shows it: "not graded" when it was not, "—" for a goal failed
/// with nothing measured (`GoalResult::value`).
pub fn goal_value(status: GoalStatus, value: Option<f64>, lower_bound: bool, unit: GoalUnit) -> String {
    match (value, status) {
        (Some(v), _) if lower_bound => format!(">{}", unit.format(v)),
        (Some(v), _) => unit.format(v),
        (None, GoalStatus::NotGraded) => "not graded".to_owned(),
        (None, _) => "—".to_owned(),
    }
}

/// A goal's name as a report lists it: "(not graded)" after it when it was not.
pub fn goal_title(g: &GoalResult) -> String {
    match g.status {
        GoalStatus::NotGraded => format!("{} (not graded)", g.name),
        _ => g.name.clone(),
    }
}

/// "Query", "Query ×2 on byStatus", "Scan ×12", "unserved".
pub fn served_by(p: &PatternReport, engine: Engine) -> String {
    let Some(ops) = &p.operation else { return "unserved".to_owned() };
    // Each store's own requests, as `check` names them (CQL statements, MongoDB methods…).
    let language = engine.profile().language;
    let op = ops.iter().map(|op| verb(language, op)).collect::<Vec<_>>().join(" + ");
    // A read split by entity names one operation per part ("GetItem + Query"), each one
    // request, and DeleteItem + PutItem is two: only more requests than that is a fan-out.
    let requests: usize = ops.iter().map(|op| if op == Operation::DeleteAndPut { 2 } else { 1 }).sum();
    let fanout = if p.avg_fanout > requests as f64 + 1e-9 {
        format!(" ×{}", numbers::factor(p.avg_fanout))
    } else {
        String::new()
    };
    let index = p.index.as_ref().map_or_else(String::new, |i| format!(" on {i}"));
    format!("{op}{fanout}{index}")
}

/// Whether the run used the Cassandra profile: no capacity units (the simulator counts its load
/// in operations, partition peaks, and leaves unit totals at 0), and CQL's words.
pub fn is_cassandra(engine: Engine) -> bool {
    engine.profile().cql() && !engine.profile().metered()
}

/// The nouns a report uses: DynamoDB's items and indexes, or CQL's rows and materialized views
/// in the Cassandra profile (where each entity is a table and an index is a view).
#[derive(Debug, Clone, Copy)]
pub struct Words {
    pub item: &'static str,
    pub items: &'static str,
    /// One index, in a sentence: "index", "view".
    pub index: &'static str,
    /// The section that lists them: "Indexes", "Materialized views".
    pub indexes: &'static str,
}

pub fn words(engine: Engine) -> Words {
    if is_cassandra(engine) {
        Words { item: "row", items: "rows", index: "view", indexes: "Materialized views" }
    } else if engine.profile().language == Language::MongoDb {
        Words { item: "document", items: "documents", index: "index", indexes: "Indexes" }
    } else {
        Words { item: "item", items: "items", index: "index", indexes: "Indexes" }
    }
}

/// Under the Cassandra profile's views: what keeping one costs.
pub const VIEW_COST: &str = "view writes: the rows Cassandra wrote to keep each view, a changed view key counting 2 (a tombstone for the old view row, then the new row); every write to a table with views also reads the base row on its replicas first (the view's read-before-write).";

/// What partition load figures count: capacity units, request units for Cosmos DB, or
/// operations for Cassandra.
pub fn load_units(engine: Engine) -> (&'static str, &'static str) {
    // Cassandra and MongoDB meter nothing: their load is the operations.
    if !engine.profile().metered() {
        ("reads", "writes")
    } else if engine.profile().request_units() {
        ("read RU", "write RU")
    } else {
        ("RCU", "WCU")
    }
}

/// The unit a read and a write are charged in: RCU and WCU, or RU for both on Cosmos DB.
pub(crate) fn charge_units(engine: Engine) -> (&'static str, &'static str) {
    if engine.profile().request_units() { ("RU", "RU") } else { ("RCU", "WCU") }
}

/// A call's cost: read units for a read and write units for a write on DynamoDB; rows read for a
/// Cassandra read. `None` where nothing measures it (a Cassandra write, a pattern with no calls).
pub fn per_call(p: &PatternReport, engine: Engine) -> Option<(f64, &'static str)> {
    if p.calls == 0 {
        return None;
    }
    if !engine.profile().metered() {
        // Rows (documents) read per call: the fluid replay does not count them.
        return (p.kind != Kind::Write && p.timed).then_some((p.avg_items_read, engine.words().item.many));
    }
    let (read, write) = charge_units(engine);
    if p.kind == Kind::Write {
        return Some((p.wcu / p.calls as f64, write));
    }
    // Over the calls that completed: one that gave up or still waits for a retry is left out.
    (p.served_calls > 0).then(|| (p.served_rcu / p.served_calls as f64, read))
}

/// Write units per write that landed: a call that gave up, or named no item, wrote nothing and
/// cost nothing, so dividing by calls would understate what a write costs. `None` for a read,
/// for Cassandra, and where the run cannot tell landed writes apart (`landed_writes`).
pub fn per_write(p: &PatternReport, engine: Engine) -> Option<f64> {
    if !engine.profile().metered() || p.kind != Kind::Write {
        return None;
    }
    p.landed_writes.filter(|&n| n > 0).map(|n| p.wcu / n as f64)
}

/// What the reports show as a pattern's cost: per landed write for a write (when known), else
/// per call; with its unit and what it is per (`call` or `write`).
pub fn cost(p: &PatternReport, engine: Engine) -> Option<(f64, &'static str, &'static str)> {
    match per_write(p, engine) {
        Some(x) => Some((x, charge_units(engine).1, "write")),
        None => per_call(p, engine).map(|(x, unit)| (x, unit, "call")),
    }
}

/// "2 RCU", "1.5 WCU", "120 rows", "—": per call for a read, per landed write for a write.
pub(super) fn units_per_call(p: &PatternReport, engine: Engine) -> String {
    cost(p, engine).map_or_else(|| "—".to_owned(), |(x, unit, _)| format!("{} {unit}", numbers::factor(x)))
}

/// The note under the access patterns: what "per call" is over for reads some of whose calls did
/// not complete, and for writes, when any is listed.
pub(super) fn per_call_legend(r: &RunReport) -> Option<String> {
    let unfinished: Vec<String> = r
        .patterns
        .iter()
        .filter(|p| {
            p.kind != Kind::Write
                && r.engine.profile().metered()
                && p.operation.is_some()
                && p.served_calls < p.calls
        })
        .map(|p| {
            format!(
                "{} {} of {}",
                p.name,
                numbers::count((p.calls - p.served_calls) as f64),
                numbers::count(p.calls as f64)
            )
        })
        .collect();
    let reads = (!unfinished.is_empty()).then(|| {
        format!(
            "for a read, read units over the calls that completed (left out, calls that gave up or were \
             still retrying at the end: {})",
            unfinished.join(", ")
        )
    });
    let writes: Vec<&PatternReport> =
        r.patterns.iter().filter(|p| p.kind == Kind::Write && per_call(p, r.engine).is_some()).collect();
    if writes.is_empty() {
        return reads.map(|reads| format!("per call: {reads}"));
    }
    let mut legend = reads.map_or_else(|| "per call: ".to_owned(), |reads| format!("per call: {reads}; "));
    legend.push_str("for a write, write units per write that landed (a call that gave up wrote nothing)");
    let unknown: Vec<&str> =
        writes.iter().filter(|p| p.landed_writes.is_none()).map(|p| p.name.as_str()).collect();
    if !unknown.is_empty() {
        let _ = write!(
            legend,
            "; {} per call, calls that gave up included (their copies or aggregates failed too, so \
             landed writes are not told apart)",
            unknown.join(", ")
        );
    }
    // A write its condition refused completed: it is charged and counted with those that landed.
    let refused: Vec<&str> = (writes.iter())
        .filter(|p| p.condition_failed > 0 && p.landed_writes.is_some())
        .map(|p| p.name.as_str())
        .collect();
    if !refused.is_empty() {
        let _ = write!(
            legend,
            "; for {}, a write its condition refused counts as one that landed: it is charged and writes nothing",
            refused.join(", ")
        );
    }
    Some(legend)
}

pub fn ms(x: f64) -> String {
    GoalUnit::Milliseconds.format(x)
}

/// What a report's access patterns say about latency: modelled by the per-operation replay, not
/// at all by the fluid one.
pub(super) fn latency_words(r: &RunReport) -> &'static str {
    match r.fidelity {
        crate::engine::sim::report::Fidelity::Operations => "latency is modelled, not measured",
        crate::engine::sim::report::Fidelity::Rates => {
            "replayed as rates: latency and items per call are not modelled"
        }
    }
}

/// A pattern's modelled latency figure, "—" when nothing was timed: it made no calls, nothing
/// serves it, or the fluid replay made the report.
pub(super) fn latency_cell(p: &PatternReport, x: f64) -> String {
    if p.calls == 0 || p.operation.is_none() || !p.timed { "—".to_owned() } else { ms(x) }
}

/// The p99 cell: the p99 call's latency, or — when that call never completed (a remark under
/// the table says so, with the p99 of the calls that did); `long` says it in the cell too.
pub(super) fn p99_cell(p: &PatternReport, long: bool) -> String {
    match p.p99_ms() {
        Some(x) => latency_cell(p, x),
        None if !p.timed => {
            if long {
                "— (not modelled)".to_owned()
            } else {
                "—".to_owned()
            }
        }
        None if long => format!("— (never completed; > {})", ms(p.latency_ms_p99)),
        None => "—".to_owned(),
    }
}

/// ✔ when the modelled p99 meets the pattern's target, ✘ when not, blank without a target, –
/// when the pattern made no calls or the fluid replay made the report (no latency to hold to
/// it). A pattern nothing serves, or whose
/// calls failed, does not meet it however fast the rest were.
pub(super) fn latency_mark(p: &PatternReport) -> &'static str {
    let served = p.operation.is_some() && p.failed == 0;
    match p.latency_target_ms {
        Some(_) if (p.calls == 0 || !p.timed) && p.operation.is_some() => "–",
        Some(target) if served && p.p99_ms().is_some_and(|p99| p99 <= target) => "✔",
        Some(_) => "✘",
        None => " ",
    }
}

/// The headings of the figures of an index table whose entries are indexed values and a record
/// id (MongoDB): no units, lag or throttling to show. Text and Markdown both print
/// [`key_index_row`] under them, after the index's name (each format heads it its own way).
pub(super) const KEY_INDEX_COLUMNS: [&str; 4] = ["size", "entries", "entry writes", "largest key"];

/// One index's name and figures under [`KEY_INDEX_COLUMNS`].
pub(super) fn key_index_row(i: &IndexReport) -> (String, [String; 4]) {
    let figures = [
        numbers::bytes(i.bytes as f64),
        numbers::count(i.items as f64),
        numbers::count(i.entry_writes as f64),
        numbers::bytes(i.max_partition_bytes as f64),
    ];
    (i.name.clone(), figures)
}

pub(super) fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", numbers::count(n as f64), if n == 1 { one } else { many })
}

/// What is stored at the end of the run, in the store's nouns.
fn stored_row(r: &RunReport, cassandra: bool) -> (&'static str, String) {
    let t = &r.totals;
    if cassandra {
        (
            "rows at the end",
            format!(
                "{}: tables {}, views {}",
                numbers::count(t.items as f64),
                numbers::bytes(t.table_bytes as f64),
                numbers::bytes(t.index_bytes as f64)
            ),
        )
    } else if r.documents.is_some() {
        (
            "documents at the end",
            format!(
                "{}: collections {}, indexes {}",
                numbers::count(t.items as f64),
                numbers::bytes(t.table_bytes as f64),
                numbers::bytes(t.index_bytes as f64)
            ),
        )
    } else {
        (
            "items at the end",
            format!(
                "{}: table {}, indexes {}",
                numbers::count(t.items as f64),
                numbers::bytes(t.table_bytes as f64),
                numbers::bytes(t.index_bytes as f64)
            ),
        )
    }
}

pub(super) fn totals_rows(r: &RunReport) -> Vec<(&'static str, String)> {
    let t = &r.totals;
    let cassandra = is_cassandra(r.engine);
    let w = words(r.engine);
    let failed = if t.gave_up > 0 {
        format!("; {} gave up after retries", numbers::count(t.gave_up as f64))
    } else {
        String::new()
    };
    let retries =
        if t.retries > 0 { format!(", {}", plural(t.retries, "retry", "retries")) } else { String::new() };
    let throttled = format!(
        "{} ({} of requests){retries}{failed}",
        plural(t.throttled_ops, "request", "requests"),
        numbers::percent(share(t.throttled_ops, t.requests))
    );
    let mut rows = vec![
        (
            "calls",
            format!(
                "{} ({} reads, {} writes)",
                numbers::count(t.ops as f64),
                numbers::count(t.reads as f64),
                numbers::count(t.writes as f64)
            ),
        ),
        ("requests to the store", numbers::count(t.requests as f64)),
        ("throttled", throttled),
        stored_row(r, cassandra),
        (
            "write amplification",
            format!("{}× {} writes per base write", numbers::factor(t.write_amplification), w.item),
        ),
    ];
    if cassandra || !r.engine.profile().metered() {
        // Cassandra and MongoDB never throttle: nothing to count.
        rows.retain(|(label, _)| *label != "throttled");
    } else if r.engine.profile().request_units() {
        rows.insert(2, ("request units, reads", format!("{} RU", numbers::count(t.rcu))));
        rows.insert(3, ("request units, writes", format!("{} RU", numbers::count(t.wcu))));
    } else {
        rows.insert(2, ("read units (RCU)", numbers::count(t.rcu)));
        rows.insert(3, ("write units (WCU)", numbers::count(t.wcu)));
    }
    // An item a tenth of the way to the store's item limit (400 KB, 2 MB) is worth a line:
    // something in it grows. A MongoDB document has its own line, in its own words, below.
    if let Some(limit) = r.engine.profile().item_limit
        && r.documents.is_none()
        && t.largest_item_bytes * 10 > limit as u64
    {
        rows.push((
            "largest item",
            format!(
                "{} of the {} item limit",
                numbers::bytes(t.largest_item_bytes as f64),
                numbers::bytes(limit as f64)
            ),
        ));
    }
    if t.ttl_deletes > 0 && cassandra {
        rows.push((
            "TTL expiries",
            format!(
                "{} rows (hidden from reads at expiry; sizes count live rows, not the tombstones a compaction purges after gc_grace_seconds)",
                numbers::count(t.ttl_deletes as f64)
            ),
        ));
    } else if t.ttl_deletes > 0 {
        rows.push(("TTL deletes", format!("{} (free)", numbers::count(t.ttl_deletes as f64))));
    }
    rows.extend(documents_rows(r));
    if r.documents.is_some() {
        // The document's refusal is in its own words above.
        rows.extend(lost_rows(&Totals { item_size_errors: 0, ..t.clone() }, r.engine));
    } else {
        rows.extend(lost_rows(t, r.engine));
    }
    rows.extend(condition_row(t));
    if cost::unpriced(&t.price_source) {
        rows.push(("cost", t.price_source.clone()));
    } else {
        rows.extend([
            ("cost of the run", usd(t.cost_usd)),
            ("cost per month", format!("{} (projected from the run)", usd(t.monthly_cost_usd))),
            ("prices", t.price_source.clone()),
        ]);
    }
    rows
}

/// How the store words a refused write: what outgrew its limit, and the error it answers with.
struct RefusalWords {
    partition: &'static str,
    item: &'static str,
    at_load: &'static str,
}

fn refusal_words(engine: Engine) -> RefusalWords {
    match engine {
        // Microsoft Learn, "Diagnose and troubleshoot Azure Cosmos DB forbidden exceptions"
        // (https://learn.microsoft.com/azure/cosmos-db/nosql/troubleshoot-forbidden): a full
        // logical partition answers "Forbidden (403); Substatus: 1014" and "Partition key reached
        // maximum size". Microsoft Q&A 692455 ("Actual document size limit for Azure Cosmos DB's
        // API for MongoDB"): an item past 2 MB answers "RequestEntityTooLarge (413)".
        Engine::CosmosDb => RefusalWords {
            partition: "logical partition over 20 GB (403 Forbidden, substatus 1014: Partition key reached maximum size)",
            item: "item past 2 MB (413 Request Entity Too Large)",
            at_load: "of the initial load past 2 MB: never in the container",
        },
        // MongoDB holds a collection's documents to no size (the profile sets no partition
        // limit, so the first never shows); a document past 16 MB during the run has its own
        // rows (`documents_rows`), one at load these words.
        Engine::MongoDb => RefusalWords {
            partition: "partition over its size limit",
            item: mongo::TOO_LARGE,
            at_load: "of the initial load past 16 MB: never in the collection",
        },
        Engine::DynamoDb | Engine::Cassandra => RefusalWords {
            partition: "item collection over 10 GB (ItemCollectionSizeLimitExceeded)",
            item: "item past 400 KB (ValidationException: Item size has exceeded the maximum allowed size)",
            at_load: "of the initial load past 400 KB: never in the table",
        },
    }
}

/// A store whose updates build a document's whole new version (MongoDB): the largest document
/// against the limit, and the bytes of the versions its updates built.
fn documents_rows(r: &RunReport) -> Vec<(&'static str, String)> {
    let Some(d) = &r.documents else { return Vec::new() };
    let mut rows = vec![
        (
            "largest document",
            format!(
                "{} ({} of the {} document limit)",
                numbers::bytes(d.largest_document_bytes as f64),
                numbers::percent(d.largest_share_of_limit),
                numbers::bytes(d.limit_bytes as f64)
            ),
        ),
        (
            "bytes per update",
            format!(
                "{}: the new version the server builds ({} over {})",
                numbers::bytes(d.mean_new_version_bytes_per_update),
                numbers::bytes(d.new_version_bytes as f64),
                plural(d.updates, "update", "updates")
            ),
        ),
    ];
    if d.refused_too_large > 0 {
        rows.push((
            "refused writes",
            format!("{}: {}", numbers::count(d.refused_too_large as f64), d.refusal),
        ));
    }
    rows
}

/// A sharded collection's section (MongoDB): its title, one row per shard (shard, documents,
/// size, inserts, share of writes, share of reads, ranges, jumbo ranges) and what the router
/// and the balancer did, in words. `None` when the run sharded nothing, so other reports are
/// unchanged.
pub(crate) struct ShardSection {
    pub title: String,
    pub rows: Vec<[String; 8]>,
    pub summary: Vec<String>,
}

pub(crate) const SHARD_COLUMNS: [&str; 8] =
    ["shard", "documents", "size", "inserts", "share of writes", "share of reads", "ranges", "jumbo"];

pub(crate) fn shard_section(r: &RunReport) -> Option<ShardSection> {
    let s = r.shards.as_ref()?;
    let rows = s
        .shards
        .iter()
        .map(|x| {
            [
                x.shard.clone(),
                numbers::count(x.documents as f64),
                numbers::bytes(x.bytes as f64),
                numbers::count(x.inserts as f64),
                numbers::percent(x.share_of_writes),
                numbers::percent(x.share_of_reads),
                numbers::count(x.ranges as f64),
                numbers::count(x.jumbo_ranges as f64),
            ]
        })
        .collect();
    let hottest = s.hottest_for_inserts().map_or_else(String::new, |x| x.shard.clone());
    let mut summary = vec![format!(
        "hottest shard for inserts: {hottest}, {} of {} (an even spread would be {})",
        numbers::percent(s.hottest_share_of_inserts),
        plural(s.inserts, "insert", "inserts"),
        numbers::percent(1.0 / s.shards.len().max(1) as f64),
    )];
    let reads = s.targeted_reads + s.broadcast_reads;
    if reads > 0 {
        let given = if s.prefix_reads > 0 {
            format!(
                "gave the shard key's value or a prefix of it and went only to the shards owning it ({} a prefix, sent to every shard owning one of its ranges)",
                numbers::count(s.prefix_reads as f64)
            )
        } else {
            "gave the shard key's value and went only to the shard owning it".to_owned()
        };
        summary.push(format!(
            "router: {} of {} {given}; {} gave none of it, whatever index or scan served them, and went to all {} shards, the router waiting for every answer (not added to the modelled latency); the busiest shard served {} of the shards' reads",
            numbers::count(s.targeted_reads as f64),
            plural(reads, "read request", "read requests"),
            numbers::count(s.broadcast_reads as f64),
            s.shards.len(),
            numbers::percent(s.hottest_share_of_reads),
        ));
    }
    summary.push(format!(
        "balancer: {} moved {} (it migrates when two shards differ by {}, three range sizes; a round every {} s and each migration done within it are keyheat's assumptions)",
        plural(s.migrations, "migration", "migrations"),
        numbers::bytes(s.migrated_bytes as f64),
        numbers::bytes(s.migration_threshold_bytes as f64),
        s.balancer_round_s
    ));
    if s.jumbo_ranges > 0 {
        summary.push(format!(
            "{}: past the {} range size with one shard-key value, they cannot split and the balancer cannot move them",
            plural(s.jumbo_ranges, "jumbo range", "jumbo ranges"),
            numbers::bytes(s.range_bytes as f64)
        ));
    }
    let hash =
        if s.strategy == "hashed" { " (keyheat's 64-bit hash, not MongoDB's md5-based one)" } else { "" };
    Some(ShardSection {
        title: format!(
            "Shards: {} by {} shard key {}{hash}, range size {}",
            s.collection,
            s.strategy,
            s.shard_key,
            numbers::bytes(s.range_bytes as f64)
        ),
        rows,
        summary,
    })
}

/// Writes refused, and items lost to overwrites, in the engine's words.
fn lost_rows(t: &Totals, engine: Engine) -> Vec<(&'static str, String)> {
    let cassandra = is_cassandra(engine);
    let words = refusal_words(engine);
    let mut rows = Vec::new();
    let refusals = [(t.collection_limit_errors, words.partition), (t.item_size_errors, words.item)];
    for (n, why) in refusals.into_iter().filter(|(n, _)| *n > 0) {
        rows.push(("refused writes", format!("{}: {why}", numbers::count(n as f64))));
    }
    // Each loss as its noun, singular and plural, then what happened to it.
    let (overwritten, at_load) = if cassandra {
        (
            (
                "row",
                "rows",
                "replaced by an INSERT of another row with the same primary key (the key is not unique; a Cassandra write is an upsert)",
            ),
            ("row", "rows", "of the initial load written onto a primary key an earlier one held"),
        )
    } else {
        (
            ("item", "items", "replaced by a put of another item with the same key (the key is not unique)"),
            ("item", "items", "of the initial load written onto a key an earlier one held"),
        )
    };
    let losses = [
        (t.overwritten_items, "lost to overwrites", overwritten),
        (t.preload_overwritten_items, "lost at load", at_load),
        (t.preload_item_size_errors, "refused at load", ("item", "items", words.at_load)),
    ];
    for (n, label, (one, many, what)) in losses.into_iter().filter(|(n, _, _)| *n > 0) {
        rows.push((label, format!("{} {what}", plural(n, one, many))));
    }
    rows
}

/// "failed conditions": writes refused by their condition, charged and not lost.
fn condition_row(t: &crate::engine::sim::report::Totals) -> Option<(&'static str, String)> {
    if t.condition_failed_writes == 0 {
        return None;
    }
    let created = t.condition_failed_writes - t.version_conflicts;
    let mut kinds = Vec::new();
    if created > 0 {
        kinds.push(format!("{} create-once puts found their key taken", numbers::count(created as f64)));
    }
    if t.version_conflicts > 0 {
        kinds.push(format!(
            "{} version checks lost a race (read again and retried)",
            numbers::count(t.version_conflicts as f64)
        ));
    }
    Some((
        "failed conditions",
        format!(
            "{} writes refused (ConditionalCheckFailedException), charged, nothing lost: {}",
            numbers::count(t.condition_failed_writes as f64),
            kinds.join("; ")
        ),
    ))
}

/// Per cached read pattern, what its read-through cache did: information, not a warning.
pub(super) fn cache_notes(r: &RunReport) -> Vec<String> {
    r.patterns.iter().filter_map(|p| p.cache.as_ref().map(|c| cache_note(p, c))).collect()
}

/// "resolve: cache hit ratio 97% …": what the read-through cache answered and what the table
/// still served. A pattern the plan serves with a Query or Scan never reaches the item cache.
fn cache_note(p: &PatternReport, c: &crate::engine::sim::report::CacheReport) -> String {
    if c.hits + c.misses == 0 {
        return format!(
            "{}: cached, but served by {} — the item cache answers GetItem and BatchGetItem only (DAX's query cache is not modelled)",
            p.name,
            p.operation.as_ref().map_or_else(|| "nothing".to_owned(), ToString::to_string)
        );
    }
    format!(
        "{}: cache hit ratio {} ({} of {} keys answered from the cache, {} RCU saved); {} misses read the table ({} RCU)",
        p.name,
        numbers::percent(c.hit_ratio),
        numbers::count(c.hits as f64),
        numbers::count((c.hits + c.misses) as f64),
        numbers::count(c.rcu_saved),
        numbers::count(c.misses as f64),
        numbers::count(p.rcu)
    )
}

/// What a reader should notice about a pattern, beyond the table.
pub(super) fn remarks(p: &PatternReport, engine: Engine) -> Vec<String> {
    let mut out = Vec::new();
    let w = words(engine);
    let scan = p.single_operation() == Some(Operation::Scan);
    match &p.operation {
        None => out.push(format!("nothing serves {}: no key or {} finds its {}", p.name, w.index, w.items)),
        Some(_) if scan && is_cassandra(engine) => out.push(format!(
            "{} is a full scan (SELECT … ALLOW FILTERING): its cost grows with the table",
            p.name
        )),
        Some(_) if scan && let Some((start, end)) = goals::growth(p) => out.push(format!(
            "{} is a Scan: read units per call went from {} to {} as the table grew",
            p.name,
            numbers::count(start),
            numbers::count(end)
        )),
        Some(_) if scan => out.push(format!("{} is a Scan: its cost grows with the table", p.name)),
        Some(_) => {}
    }
    // A write that must Scan to learn the key of the item it writes.
    let first = p.operation.as_ref().and_then(|ops| ops.iter().next()).filter(|_| p.kind == Kind::Write);
    if first == Some(Operation::Scan) {
        let cost = if is_cassandra(engine) {
            format!("{} {} read per call", numbers::count(p.avg_items_read), w.items)
        } else {
            format!(
                "{} RCU per call",
                numbers::count(if p.calls == 0 { 0.0 } else { p.rcu / p.calls as f64 })
            )
        };
        out.push(format!("{} scans to learn each item's key, {cost}: its cost grows with the table", p.name));
    }
    if p.avg_items_read > 0.0 && p.avg_items_read >= 2.0 * p.avg_items_returned {
        out.push(format!(
            "{} reads {} {} per call to return {}",
            p.name,
            numbers::count(p.avg_items_read),
            w.items,
            numbers::count(p.avg_items_returned)
        ));
    }
    if p.condition_failed > 0 {
        let races = if p.version_conflicts > 0 {
            format!(
                ": {} version races lost, each a failed write, a read again and a retry",
                numbers::count(p.version_conflicts as f64)
            )
        } else {
            ": the key was taken (nothing written, nothing lost)".to_owned()
        };
        out.push(format!(
            "{}: {} of {} calls refused by their condition ({}){races}",
            p.name,
            numbers::count(p.condition_failed as f64),
            numbers::count(p.calls as f64),
            numbers::percent(share(p.condition_failed, p.calls))
        ));
    }
    if p.duplicates > 0 {
        out.push(format!(
            "{}: {} of {} puts landed although their claim was taken — the put and its claim are separate requests, so each left two items with the value the claim keeps unique (a transaction cancels the put instead)",
            p.name,
            numbers::count(p.duplicates as f64),
            numbers::count(p.calls as f64)
        ));
    }
    if p.timed && p.p99_ms().is_none() {
        out.push(format!(
            "{}: {} of {} calls never completed ({} gave up, {} still retrying at the end): the p99 call has no latency; the p99 of those that completed is {}",
            p.name,
            numbers::count(p.never_completed() as f64),
            numbers::count(p.calls as f64),
            numbers::count(p.failed as f64),
            numbers::count(p.unfinished as f64),
            ms(p.latency_ms_p99)
        ));
    }
    if p.throttled > 0 || p.failed > 0 {
        out.push(format!(
            "{}: {} throttled, {} failed",
            p.name,
            plural(p.throttled, "request", "requests"),
            numbers::count(p.failed as f64)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{judged_report, report};

    #[test]
    fn json_is_the_report_pretty_printed() {
        let r = judged_report();
        let json = render(&r);
        assert!(json.ends_with("}\n") && json.starts_with("{\n  \"scenario\": \"orders\""), "{json}");
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["goals"][0]["unit"], "count");
        assert_eq!(value["totals"]["monthly_cost_usd"], 8.86);
        assert_eq!(value["partitions"]["top"].as_array().map(Vec::len), Some(2));
        // Added fields: index partitions name their index; a table partition's throttle count
        // says it counts attempts (the old field keeps its value); writes that landed.
        let table = &value["partitions"]["top"][0];
        assert_eq!((table["index"].is_null(), &table["throttled_attempts"]), (true, &table["throttled_ops"]));
        let index = &value["partitions"]["index_top"][0];
        assert_eq!((index["index"].as_str(), index["key"].as_str()), (Some("byStatus"), Some("PENDING")));
        assert!(index["throttled_attempts"].is_null(), "{index}");
        assert_eq!(value["patterns"][2]["landed_writes"], 18_000);
        assert!(value["patterns"][0]["landed_writes"].is_null(), "a read has no landed writes");
        assert_eq!(render(&r), json, "the same report prints the same bytes");
    }

    #[test]
    fn a_self_managed_profile_shows_no_dollars() {
        let mut r = report();
        r.totals.price_source = cost::SELF_MANAGED.to_owned();
        let rows = totals_rows(&r);
        assert!(
            rows.iter().all(|(label, _)| !label.starts_with("cost of") && *label != "prices"),
            "{rows:?}"
        );
        assert_eq!(rows.last().map(|(l, v)| (*l, v.as_str())), Some(("cost", cost::SELF_MANAGED)));
    }

    #[test]
    fn names_how_each_pattern_is_served() {
        let r = report();
        let served: Vec<String> = r.patterns.iter().map(|p| served_by(p, r.engine)).collect();
        assert_eq!(served, ["Query", "Scan ×12", "PutItem"]);
        let cql: Vec<String> = r.patterns.iter().map(|p| served_by(p, Engine::Cassandra)).collect();
        assert_eq!(cql, ["SELECT", "SELECT … ALLOW FILTERING ×12", "INSERT"]);
        let mut p = r.patterns[0].clone();
        (p.avg_fanout, p.index) = (2.0, Some("byDay".to_owned()));
        assert_eq!(served_by(&p, r.engine), "Query ×2 on byDay");
        p.operation = None;
        assert_eq!(served_by(&p, r.engine), "unserved");
        assert_eq!(
            remarks(&p, Engine::DynamoDb)[0],
            "nothing serves customer-page: no key or index finds its items"
        );
    }

    #[test]
    fn a_pattern_meets_its_latency_target_only_when_its_calls_were_served() {
        let r = report();
        let mut p = r.patterns[0].clone();
        (p.latency_target_ms, p.latency_ms_p99) = (Some(20.0), 9.0);
        assert_eq!(latency_mark(&p), "✔");
        p.latency_ms_p99 = 25.0;
        assert_eq!(latency_mark(&p), "✘");
        p.latency_ms_p99 = 9.0;
        p.failed = 3;
        assert_eq!(latency_mark(&p), "✘", "failed calls miss it");
        p.failed = 0;
        p.operation = None;
        assert_eq!(latency_mark(&p), "✘", "an unserved pattern misses it");
        p.latency_target_ms = None;
        assert_eq!(latency_mark(&p), " ");
    }

    #[test]
    fn a_p99_call_that_never_completed_has_no_latency_in_any_format() {
        // (gave up, still retrying at the end) of 1,000 calls whose completed p99 is 9 ms
        // against a 20 ms target: past 1% (10 calls), the p99 call is one that never completed.
        let cases = [(0, 0, true), (6, 4, true), (6, 5, false), (0, 200, false), (11, 0, false)];
        for (failed, unfinished, measured) in cases {
            let mut r = report();
            let p = &mut r.patterns[0];
            (p.calls, p.failed, p.unfinished) = (1_000, failed, unfinished);
            (p.latency_target_ms, p.latency_ms_p99) = (Some(20.0), 9.0);
            let p = r.patterns[0].clone();
            let why = format!("{failed} gave up, {unfinished} unfinished");
            assert_eq!(p.p99_ms(), measured.then_some(9.0), "{why}");
            let remark = remarks(&p, Engine::DynamoDb).into_iter().find(|m| m.contains("never completed"));
            let value: serde_json::Value = serde_json::from_str(&render(&r)).unwrap();
            let json = &value["patterns"][0];
            if measured {
                assert_eq!(p99_cell(&p, false), "9 ms", "{why}");
                assert_eq!(json["latency_ms_p99"], 9.0, "{why}");
                assert!(json.get("latency_p99_missing").is_none() && remark.is_none(), "{why}: {json}");
            } else {
                assert_eq!((p99_cell(&p, false).as_str(), latency_mark(&p)), ("—", "✘"), "{why}");
                assert_eq!(p99_cell(&p, true), "— (never completed; > 9 ms)", "{why}");
                assert!(json["latency_ms_p99"].is_null(), "{why}: {json}");
                assert_eq!(json["latency_p99_missing"], "never_completed", "{why}");
                assert_eq!(json["latency_ms_p99_completed"], 9.0, "{why}");
                let remark = remark.unwrap_or_default();
                let never = format!("{} of 1,000 calls never completed", failed + unfinished);
                assert!(
                    remark.contains(&never) && remark.contains("the p99 call has no latency"),
                    "{remark}"
                );
            }
        }
    }

    /// A pattern with no calls has no figure per call and no latency: it shows "—" and is not
    /// marked as meeting its target.
    #[test]
    fn a_pattern_with_no_calls_shows_no_figures() {
        let r = report();
        let mut p = r.patterns[0].clone();
        (p.calls, p.rcu, p.latency_ms_p50, p.latency_ms_p99) = (0, 0.0, 0.0, 0.0);
        let cases: [(&str, String); 4] = [
            ("–", latency_mark(&p).to_owned()),
            ("—", units_per_call(&p, Engine::DynamoDb)),
            ("—", units_per_call(&p, Engine::Cassandra)),
            ("—", latency_cell(&p, p.latency_ms_p99)),
        ];
        for (expected, got) in cases {
            assert_eq!(got, expected);
        }
        p.calls = 4;
        assert_eq!((latency_mark(&p), latency_cell(&p, 0.0).as_str()), ("✔", "0 ms"));
    }

    /// A read's units per call are over the calls that completed, and the legend says which
    /// calls were left out.
    #[test]
    fn a_reads_units_per_call_leave_out_calls_that_did_not_complete() {
        let cases = [
            // (calls, completed, per call, legend fragment)
            (9_000, 9_000, "2 RCU", None),
            (9_000, 4_500, "4 RCU", Some("customer-page 4,500 of 9,000")),
            (9_000, 0, "—", Some("customer-page 9,000 of 9,000")),
        ];
        for (calls, served, cost, left_out) in cases {
            let mut r = report();
            r.patterns.truncate(1);
            (r.patterns[0].calls, r.patterns[0].served_calls) = (calls, served);
            // What the completed calls spent; the calls that did not spent more, in `rcu` only.
            (r.patterns[0].served_rcu, r.patterns[0].rcu) = (18_000.0, 25_000.0);
            assert_eq!(units_per_call(&r.patterns[0], r.engine), cost);
            let legend = per_call_legend(&r);
            match left_out {
                None => assert_eq!(legend, None),
                Some(fragment) => {
                    let legend = legend.expect("a legend");
                    assert!(
                        legend.starts_with("per call: for a read, read units over the calls that completed")
                    );
                    assert!(legend.ends_with(&format!("still retrying at the end: {fragment})")), "{legend}");
                }
            }
        }
    }

    /// A write its condition refused completed, charged: the legend says it is counted with the
    /// writes that landed.
    #[test]
    fn the_legend_says_a_refused_write_counts_with_those_that_landed() {
        for (refused, said) in [(0, false), (40, true)] {
            let mut r = report();
            let write = r.patterns.iter_mut().find(|p| p.kind == Kind::Write).expect("a write");
            write.condition_failed = refused;
            let name = write.name.clone();
            let legend = per_call_legend(&r).expect("writes are listed");
            let fragment = format!("for {name}, a write its condition refused counts as one that landed");
            assert_eq!(legend.contains(&fragment), said, "{legend}");
        }
    }

    #[test]
    fn losses_say_one_row_or_item_in_the_singular() {
        let cases = [
            (1, true, "1 row replaced by an INSERT of another row"),
            (2, true, "2 rows replaced by an INSERT"),
            (1, false, "1 item replaced by a put of another item"),
            (1_500, false, "1,500 items replaced by a put"),
        ];
        for (n, cassandra, expected) in cases {
            let mut t = report().totals;
            t.overwritten_items = n;
            let engine = if cassandra { Engine::Cassandra } else { Engine::DynamoDb };
            let rows = lost_rows(&t, engine);
            let row = rows.iter().find(|(label, _)| *label == "lost to overwrites").expect("a loss row");
            assert!(row.1.starts_with(expected), "{:?}", row.1);
        }
    }

    #[test]
    fn refused_writes_name_the_stores_limit_and_error() {
        let cases = [
            (
                Engine::DynamoDb,
                "item collection over 10 GB (ItemCollectionSizeLimitExceeded)",
                "item past 400 KB (ValidationException",
            ),
            (Engine::Cassandra, "item collection over 10 GB", "item past 400 KB"),
            (
                Engine::CosmosDb,
                "logical partition over 20 GB (403 Forbidden, substatus 1014",
                "item past 2 MB (413 Request Entity Too Large)",
            ),
        ];
        for (engine, partition, item) in cases {
            let mut t = report().totals;
            t.collection_limit_errors = 1;
            t.item_size_errors = 2;
            let rows = lost_rows(&t, engine);
            let refused: Vec<&str> = rows
                .iter()
                .filter(|(label, _)| *label == "refused writes")
                .map(|(_, v)| v.as_str())
                .collect();
            assert!(refused[0].starts_with(&format!("1: {partition}")), "{engine}: {refused:?}");
            assert!(refused[1].starts_with(&format!("2: {item}")), "{engine}: {refused:?}");
        }
    }

    #[test]
    fn the_largest_item_is_shown_against_the_stores_item_limit() {
        let cases = [
            (Engine::DynamoDb, 100 * 1024, Some("100 KB of the 400 KB item limit")),
            (Engine::DynamoDb, 20 * 1024, None),
            (Engine::Cassandra, 1024 * 1024, None),
            (Engine::CosmosDb, 1024 * 1024, Some("1 MB of the 2 MB item limit")),
            (Engine::CosmosDb, 100 * 1024, None),
        ];
        for (engine, largest, expected) in cases {
            let mut r = report();
            r.engine = engine;
            r.totals.largest_item_bytes = largest;
            let rows = totals_rows(&r);
            let row = rows.iter().find(|(label, _)| *label == "largest item").map(|(_, v)| v.as_str());
            assert_eq!(row, expected, "{engine} {largest}");
        }
    }

    #[test]
    fn the_goal_summary_counts_goals_not_graded_as_not_passed() {
        let mut r = report();
        let goal = |status| GoalResult { status, ..crate::engine::testing::goal("g", true, "d") };
        let cases = [
            (vec![], "no goals"),
            (vec![GoalStatus::Passed, GoalStatus::Passed], "all 2 goals passed ✔"),
            (vec![GoalStatus::Passed, GoalStatus::Failed], "1 of 2 goals passed ✘"),
            (vec![GoalStatus::Passed, GoalStatus::NotGraded], "1 of 2 goals passed, 1 not graded ✘"),
        ];
        for (statuses, expected) in cases {
            r.goals = statuses.into_iter().map(goal).collect();
            assert_eq!(goal_summary(&r), expected);
        }
    }

    #[test]
    fn a_goal_without_a_value_says_why() {
        let cases = [
            (GoalStatus::Passed, Some(2.0), false, "2 requests"),
            (GoalStatus::Failed, Some(0.0), false, "0 requests"),
            (GoalStatus::NotGraded, None, false, "not graded"),
            // Failed on the plan alone (a Scan that made no calls): graded, but nothing measured.
            (GoalStatus::Failed, None, false, "—"),
            // A p99 call that never completed: past the p99 of the calls that completed.
            (GoalStatus::Failed, Some(90_624.0), true, ">90,624 requests"),
        ];
        for (status, value, bound, expected) in cases {
            assert_eq!(
                goal_value(status, value, bound, GoalUnit::Requests),
                expected,
                "{status:?} {value:?}"
            );
        }
    }

    fn render(r: &RunReport) -> String {
        let mut out = Vec::new();
        write(&mut out, r, RunFormat::Json).unwrap();
        String::from_utf8(out).unwrap()
    }
}
