//! Grades a run against the scenario's goals: each `model::Goal` read against the `RunReport`
//! becomes a `GoalResult` with the measured value, the target, whether it passed and one line
//! saying what was measured against what.
//!
//! Every value comes from the report (the simulator's measurements and the priced cost), except a
//! fan-out goal, which also asks the planner how many requests a call can need: the report keeps
//! the mean, and "never more than N" is about the most. Nothing here runs the workload.
//!
//! A goal on what the replay measures is not graded until it has measured something (a request,
//! a write, an item stored, simulated time): the TUI grades a replay from its first tick, and a
//! 0 read before then is no figure that meets a target. What the plan decides (a Scan, a
//! planned fan-out, a projection past a size goal's target) is graded from the start.
//!
//! `forecast` says what the plan alone predicts for each goal, for `keyheat check`; `horizon`
//! projects a size goal to the time it must hold over when that is longer than the replay.

mod forecast;
pub mod horizon;

use serde::Serialize;

use super::cost;
use super::model::{Goal, GoalCheck, PatternId, PatternRef, Scenario, Variant};
use super::planner::{self, Operation, numbers};
use super::profile::{Language, Paging};
use super::sim::report::{GoalHint, GoalResult, GoalStatus, Operations, PatternReport, RunReport};
pub use forecast::{GoalForecast, forecast};

/// What a goal's value and target count, so writers can print them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoalUnit {
    Bytes,
    Items,
    /// Items in the Cassandra profile's words.
    Rows,
    /// A share between 0 and 1.
    Ratio,
    /// Calls or other whole counts.
    Count,
    /// Requests per call.
    Requests,
    /// A multiplier (writes per base write).
    Factor,
    Milliseconds,
    Usd,
}

impl GoalUnit {
    /// `120 MB`, `150,000 items`, `0.1%`, `2 requests`, `1.5×`, `9 ms`, `$82.50`.
    pub fn format(self, value: f64) -> String {
        match self {
            GoalUnit::Bytes => numbers::bytes(value),
            GoalUnit::Items => {
                let noun = if (value - 1.0).abs() < 1e-9 { "item" } else { "items" };
                format!("{} {noun}", numbers::count(value))
            }
            GoalUnit::Rows => {
                let noun = if (value - 1.0).abs() < 1e-9 { "row" } else { "rows" };
                format!("{} {noun}", numbers::count(value))
            }
            GoalUnit::Ratio => numbers::percent(value),
            GoalUnit::Count => numbers::count(value),
            GoalUnit::Requests => {
                let noun = if (value - 1.0).abs() < 1e-9 { "request" } else { "requests" };
                format!("{} {noun}", numbers::factor(value))
            }
            GoalUnit::Factor => format!("{}×", numbers::factor(value)),
            GoalUnit::Milliseconds => format!("{} ms", numbers::count(value)),
            GoalUnit::Usd => cost::usd(value),
        }
    }
}

/// Grades every goal of the scenario. `variant` is the design that ran (it may be an edited copy
/// not in `scenario.variants`); the planner reads it for fan-out goals. A practice problem's goal
/// carries the hint it links to.
pub fn evaluate(scenario: &Scenario, variant: &Variant, report: &RunReport) -> Vec<GoalResult> {
    let needs_plan = scenario.goals.iter().any(|g| matches!(g.check, GoalCheck::MaxFanout(..)));
    let plan = needs_plan.then(|| planner::plan(scenario, variant));
    // The plan and the report list the scenario's patterns in its order.
    let planned = |id: PatternId| {
        plan.as_ref()
            .and_then(|p| p.patterns.get(id.index()))
            .and_then(|pp| pp.requests_per_call(scenario.engine))
    };
    scenario
        .goals
        .iter()
        .map(|goal| {
            let mut result = check(goal, report, &planned);
            if let Some(h) = goal.within.filter(|h| h.as_secs_f64() > report.duration_s) {
                project(&mut result, horizon::project(scenario, variant, &goal.check, h));
            }
            result.hint =
                scenario.goal_hint(goal).map(|(number, text)| GoalHint { number, text: text.to_owned() });
            result
        })
        .collect()
}

/// A size goal graded on its horizon: the larger of the measured value and the projection, with
/// both in the detail ("largest partition 3.2 MB … ≤ 10 GB at the end of the replay; projected:
/// 25.6 GB at 1 year (table CH#{channel_id}) > 10 GB").
///
/// With nothing measured yet the projection decides only a failure: the grade is never below it,
/// so no measurement can undo one, while a projection within the target may yet be outgrown.
fn project(result: &mut GoalResult, projection: Option<horizon::Projection>) {
    let Some(p) = projection else { return };
    let vs = if p.value <= result.target { "≤" } else { ">" };
    let projected = format!("projected: {} {vs} {}", p.describe(), result.unit.format(result.target));
    match result.value {
        Some(measured) => {
            let value = measured.max(p.value);
            result.status = GoalStatus::of(value <= result.target);
            result.value = Some(value);
            result.detail = format!("{} at the end of the replay; {projected}", result.detail);
        }
        None if result.status == GoalStatus::NotGraded => {
            if p.value > result.target {
                result.status = GoalStatus::Failed;
                result.value = Some(p.value);
            }
            result.detail = format!("{}; {projected}", result.detail);
        }
        None => {}
    }
}

/// Grades one goal. `planned_fanout` gives the planner's requests per call for a pattern.
pub fn check(
    goal: &Goal,
    report: &RunReport,
    planned_fanout: &dyn Fn(PatternId) -> Option<u32>,
) -> GoalResult {
    let graded = match &goal.check {
        GoalCheck::MaxPartitionBytes(limit) => partition_bytes(report, *limit),
        GoalCheck::MaxPartitionItems(limit) => partition_items(report, *limit),
        GoalCheck::MaxThrottledRatio(limit) => throttled(report, *limit),
        GoalCheck::NoScan(name) => no_scan(report, name),
        GoalCheck::MaxFanout(name, limit) => fanout(report, name, *limit, planned_fanout(name.id())),
        GoalCheck::MaxIndexWriteAmplification(limit) => amplification(report, *limit),
        GoalCheck::LatencyTarget(name) => latency(report, name),
        GoalCheck::MaxMonthlyCost(limit) => monthly_cost(report, *limit),
        GoalCheck::MaxFailedWrites(limit) => failed_writes(report, *limit),
        GoalCheck::MaxShardShare(limit) => shard_share(report, *limit),
    };
    GoalResult {
        name: goal.name.clone(),
        status: graded.status,
        value: graded.value,
        lower_bound: graded.lower_bound,
        target: graded.target,
        unit: graded.unit,
        detail: graded.detail,
        hint: None,
    }
}

/// A goal's grade before it gets the goal's name. `value` is `None` where the run measured
/// nothing for it: a goal not graded, or one failed on what the plan or the scenario says alone.
struct Graded {
    value: Option<f64>,
    /// `value` is a bound the measure is past (`GoalResult::lower_bound`).
    lower_bound: bool,
    target: f64,
    unit: GoalUnit,
    status: GoalStatus,
    detail: String,
}

impl Graded {
    /// The usual case: passed when the value is at most the target.
    fn at_most(value: f64, target: f64, unit: GoalUnit, detail: impl FnOnce(&str) -> String) -> Graded {
        let passed = value <= target;
        let detail = detail(if passed { "≤" } else { ">" });
        Graded {
            value: Some(value),
            lower_bound: false,
            target,
            unit,
            status: GoalStatus::of(passed),
            detail,
        }
    }

    fn failed(value: f64, target: f64, unit: GoalUnit, detail: String) -> Graded {
        Graded { value: Some(value), lower_bound: false, target, unit, status: GoalStatus::Failed, detail }
    }

    /// Failed on what the plan or the scenario says, with nothing measured: no value, as a goal
    /// not graded has none (a 0 there would read as a measurement that met the target).
    /// Failed past `value`, a bound the measure is beyond (`GoalResult::lower_bound`).
    fn failed_past(value: f64, target: f64, unit: GoalUnit, detail: String) -> Graded {
        Graded { lower_bound: true, ..Graded::failed(value, target, unit, detail) }
    }

    fn failed_unmeasured(target: f64, unit: GoalUnit, detail: String) -> Graded {
        Graded { value: None, lower_bound: false, target, unit, status: GoalStatus::Failed, detail }
    }

    /// The run gave the goal nothing to judge: neither passed nor failed, and no value.
    fn not_graded(target: f64, unit: GoalUnit, detail: String) -> Graded {
        Graded { value: None, lower_bound: false, target, unit, status: GoalStatus::NotGraded, detail }
    }

    fn missing(name: &str, target: f64, unit: GoalUnit) -> Graded {
        Graded::failed_unmeasured(target, unit, format!("pattern {name:?} is not in the report"))
    }
}

/// Why a size goal has nothing to judge yet: no simulated time replayed (the initial load is not
/// the replay), or no item stored in the table (nor, for bytes, in any index) — a largest
/// partition of 0 bytes is no partition at all, not one within the limit.
fn no_partition(report: &RunReport, indexes: bool) -> Option<String> {
    let items = report.engine.words().item.many;
    if report.duration_s <= 0.0 {
        return Some("nothing replayed yet: no partition measured to grade".to_owned());
    }
    let stored = report.totals.items > 0 || (indexes && report.indexes.iter().any(|i| i.items > 0));
    (!stored).then(|| format!("no {items} stored in this run: no partition to grade"))
}

/// The largest partition of the table or of any index (index sizes count the 100-byte overhead
/// per entry, as AWS does).
fn partition_bytes(report: &RunReport, limit: u64) -> Graded {
    if let Some(detail) = no_partition(report, true) {
        return Graded::not_graded(limit as f64, GoalUnit::Bytes, detail);
    }
    let table = report.partitions.max_bytes;
    let index =
        report.indexes.iter().filter(|i| i.max_partition_bytes > table).max_by_key(|i| i.max_partition_bytes);
    let (bytes, place) = match index {
        Some(i) => (i.max_partition_bytes, format!(" (in index {})", i.name)),
        None => (table, largest(report, |p| p.bytes, table)),
    };
    let (value, target) = (bytes as f64, limit as f64);
    Graded::at_most(value, target, GoalUnit::Bytes, |vs| {
        format!("largest partition {}{place} {vs} {}", numbers::bytes(value), numbers::bytes(target))
    })
}

fn partition_items(report: &RunReport, limit: u64) -> Graded {
    let unit = if cql(report) { GoalUnit::Rows } else { GoalUnit::Items };
    if let Some(detail) = no_partition(report, false) {
        return Graded::not_graded(limit as f64, unit, detail);
    }
    let key = largest(report, |p| p.items, report.partitions.max_items);
    let (value, target) = (report.partitions.max_items as f64, limit as f64);
    let items = report.engine.words().item.many;
    Graded::at_most(value, target, unit, |vs| {
        format!("largest partition {} {items}{key} {vs} {}", numbers::count(value), numbers::count(target))
    })
}

/// Whether the report's store speaks CQL (rows, SELECT, views).
fn cql(report: &RunReport) -> bool {
    report.engine.profile().cql()
}

/// Whether each page of a range read is a request of its own (DynamoDB's Query pages, sent by the
/// application), rather than fetched by the driver within one statement (a CQL driver's pages).
fn pages_are_requests(report: &RunReport) -> bool {
    matches!(report.engine.profile().paging, Paging::Bytes(_))
}

fn throttled(report: &RunReport, limit: f64) -> Graded {
    let t = &report.totals;
    if t.requests == 0 {
        let detail = "no requests in this run: no share of them to grade".to_owned();
        return Graded::not_graded(limit, GoalUnit::Ratio, detail);
    }
    let value = t.throttled_ops as f64 / t.requests as f64;
    let failed = if t.gave_up > 0 {
        format!("; {} gave up after retries", numbers::count(t.gave_up as f64))
    } else {
        String::new()
    };
    Graded::at_most(value, limit, GoalUnit::Ratio, |vs| {
        format!(
            "{} of {} requests throttled ({}) {vs} {}{failed}",
            numbers::count(t.throttled_ops as f64),
            numbers::count(t.requests as f64),
            numbers::percent(value),
            numbers::percent(limit)
        )
    })
}

/// The value is the number of calls that ran a Scan (0 when the keys serve the pattern).
fn no_scan(report: &RunReport, target: &PatternRef) -> Graded {
    let name = target.name();
    let Some(p) = pattern(report, target) else { return Graded::missing(name, 0.0, GoalUnit::Count) };
    let calls = p.calls as f64;
    match &p.operation {
        // A Scan, alone or as the read a write sends first to learn its key.
        Some(ops) if ops.iter().any(|op| op == Operation::Scan) => {
            let units = if report.engine.profile().request_units() { "request units" } else { "read units" };
            let growth = growth(p).map_or_else(String::new, |(start, end)| {
                format!(
                    "; {units} per call grew from {} to {} with the table",
                    numbers::count(start),
                    numbers::count(end)
                )
            });
            let scans = p.scans as f64;
            let (scan, many) = scan_words(report);
            // The plan decides what serves a pattern: a Scan with no calls is still a Scan.
            if p.calls == 0 {
                let detail = format!(
                    "{name} is served by {scan}: it made no calls in this run, but every call would scan"
                );
                return Graded::failed_unmeasured(0.0, GoalUnit::Count, detail);
            }
            let detail = if cql(report) {
                format!("{name} ran {} {many}", numbers::count(scans))
            } else {
                format!("{name} ran {} {many}{growth}", numbers::count(scans))
            };
            Graded::failed(scans, 0.0, GoalUnit::Count, detail)
        }
        None => Graded::failed(calls, 0.0, GoalUnit::Count, unserved(name, report)),
        Some(op) => {
            let uncalled = if p.calls == 0 { " (it made no calls in this run)" } else { "" };
            let detail = format!("{name} is served by {}{uncalled}", served(op, p, report));
            Graded {
                value: Some(0.0),
                lower_bound: false,
                target: 0.0,
                unit: GoalUnit::Count,
                status: GoalStatus::Passed,
                detail,
            }
        }
    }
}

/// Why a goal on a pattern nothing serves fails, whatever its calls measured: no key or index
/// finds its items.
fn unserved(name: &str, report: &RunReport) -> String {
    let items = report.engine.words().item.many;
    if cql(report) {
        format!("nothing serves {name}: no key or view finds its {items}")
    } else {
        format!("nothing serves {name}: no key or index finds its {items}")
    }
}

/// A read of the whole table, one and many, in the store's words: a Scan; a full scan in CQL;
/// Cosmos DB's cross-partition query; MongoDB's collection scan.
fn scan_words(report: &RunReport) -> (&'static str, &'static str) {
    match report.engine.profile().language {
        Language::DynamoDbApi => ("a Scan", "Scans"),
        Language::Cql => ("a full scan (SELECT … ALLOW FILTERING)", "full scans (SELECT … ALLOW FILTERING)"),
        Language::CosmosNoSql => ("a cross-partition query", "cross-partition queries"),
        Language::MongoDb => ("a collection scan (find)", "collection scans (find)"),
    }
}

/// The most requests a call of a read needed: the partitions or keys it addressed, or the
/// requests it sent if more (every page of a Query or Scan is a request of its own). Where the
/// driver fetches a statement's pages itself (CQL), one statement per partition.
fn requests_per_call(p: &PatternReport, pages_are_requests: bool) -> (f64, f64) {
    let calls = p.calls as f64;
    if p.kind == planner::Kind::Read && calls > 0.0 && pages_are_requests {
        (p.max_fanout.max(p.max_requests) as f64, p.avg_fanout.max(p.requests as f64 / calls))
    } else {
        (p.max_fanout as f64, p.avg_fanout)
    }
}

/// The most requests a call needed in the replay; the planner's count for a pattern that was
/// never called.
fn fanout(report: &RunReport, pattern_ref: &PatternRef, limit: u32, planned: Option<u32>) -> Graded {
    let name = pattern_ref.name();
    let target = f64::from(limit);
    let Some(p) = pattern(report, pattern_ref) else {
        return Graded::missing(name, target, GoalUnit::Requests);
    };
    let (busiest, mean) = requests_per_call(p, pages_are_requests(report));
    let Some(operation) = p.operation.as_ref() else {
        // Nothing serves it: no request would find its items, however few a call sends.
        return Graded::failed_unmeasured(target, GoalUnit::Requests, unserved(name, report));
    };
    let op = served(operation, p, report);
    // A pattern that was never called is judged by its plan, if the plan counts its requests.
    if p.calls == 0 {
        let Some(planned) = planned else {
            // The plan counts partitions and keys, not the pages a read may need.
            let pages = if p.kind == planner::Kind::Read {
                " (a call may read more than a 1 MB page, and every page is a request of its own)"
            } else {
                ""
            };
            let detail =
                format!("{name} ({op}) made no calls in this run, and no plan counts its requests{pages}");
            return Graded::not_graded(target, GoalUnit::Requests, detail);
        };
        let value = f64::from(planned);
        return Graded::at_most(value, target, GoalUnit::Requests, |vs| {
            format!(
                "{name} ({op}) made no calls in this run; {} planned {vs} {}",
                GoalUnit::Requests.format(value),
                numbers::count(target)
            )
        });
    }
    let value = busiest;
    let pages =
        if p.kind == planner::Kind::Read && pages_are_requests(report) && p.max_requests > p.max_fanout {
            beyond_addressed(p, operation)
        } else {
            String::new()
        };
    let planned = planned.map_or_else(String::new, |n| format!("; {n} planned"));
    Graded::at_most(value, target, GoalUnit::Requests, |vs| {
        format!(
            "{name} ({op}): {} in the busiest call, {} per call on average{pages}{planned} {vs} {}",
            GoalUnit::Requests.format(value),
            GoalUnit::Requests.format(mean),
            numbers::count(target)
        )
    })
}

/// Why a read's calls sent more requests than the partitions and keys they addressed, as a
/// fan-out goal's detail says it: pages past one per partition, and the BatchGetItem requests
/// that fetch a GSI Query's items from the table (one per 100 keys). Only a read of Queries and
/// Scans fetches; another's requests past its pages are its GetItems, one per key at most.
fn beyond_addressed(p: &PatternReport, ops: &Operations) -> String {
    let paged_only = ops.iter().all(|op| matches!(op, Operation::Query | Operation::Scan));
    let calls = p.calls.max(1) as f64;
    let fetches = if paged_only { (p.requests as f64 / calls - p.avg_pages).max(0.0) } else { 0.0 };
    let mut causes = Vec::new();
    if !paged_only || p.avg_pages > p.avg_fanout + 1e-9 {
        causes
            .push(format!("pages are requests: {} pages per call on average", numbers::factor(p.avg_pages)));
    }
    if fetches > 1e-9 {
        causes.push(format!(
            "fetching the items from the table adds {} BatchGetItem {} per call on average",
            numbers::factor(fetches),
            if (fetches - 1.0).abs() < 1e-9 { "request" } else { "requests" }
        ));
    }
    if causes.is_empty() { String::new() } else { format!(" ({})", causes.join("; ")) }
}

fn amplification(report: &RunReport, limit: f64) -> Graded {
    if report.totals.writes == 0 {
        let detail = "no writes in this run: no item writes per write to grade".to_owned();
        return Graded::not_graded(limit, GoalUnit::Factor, detail);
    }
    let value = report.totals.write_amplification;
    Graded::at_most(value, limit, GoalUnit::Factor, |vs| {
        let words = report.engine.words();
        let (item, places) = (words.item.one, words.places);
        format!(
            "{} {item} writes per base write ({places} and copies) {vs} {}",
            numbers::factor(value),
            numbers::factor(limit)
        )
    })
}

fn latency(report: &RunReport, target: &PatternRef) -> Graded {
    let name = target.name();
    let ms = |x: f64| GoalUnit::Milliseconds.format(x);
    let Some(p) = pattern(report, target) else { return Graded::missing(name, 0.0, GoalUnit::Milliseconds) };
    let Some(target) = p.latency_target_ms else {
        let detail = format!("{name} has no latency target");
        return Graded::failed(p.latency_ms_p99, 0.0, GoalUnit::Milliseconds, detail);
    };
    if p.operation.is_none() {
        // Its calls find nothing: none of them has a latency to meet the target.
        return Graded::failed_unmeasured(target, GoalUnit::Milliseconds, unserved(name, report));
    }
    if p.calls == 0 {
        let detail =
            format!("{name} made no calls in this run: no latency to hold to the {} target", ms(target));
        return Graded::not_graded(target, GoalUnit::Milliseconds, detail);
    }
    // A call that never completed (it gave up, or still waited for a retry at the end) missed
    // any target: past 1% of the calls, the p99 call is one of them.
    let never = p.never_completed();
    if p.p99_ms().is_none() {
        let detail = format!(
            "{} of {} {name} calls never completed ({} gave up, {} still retrying at the end): the p99 call has no latency to meet the {} target",
            numbers::count(never as f64),
            numbers::count(p.calls as f64),
            numbers::count(p.failed as f64),
            numbers::count(p.unfinished as f64),
            ms(target)
        );
        // `latency_ms_p99` is then the p99 of the calls that completed: the p99 call took longer.
        return Graded::failed_past(p.latency_ms_p99, target, GoalUnit::Milliseconds, detail);
    }
    Graded::at_most(p.latency_ms_p99, target, GoalUnit::Milliseconds, |vs| {
        format!(
            "{name} p99 {} (modelled) {vs} {} target; p50 {}",
            ms(p.latency_ms_p99),
            ms(target),
            ms(p.latency_ms_p50)
        )
    })
}

fn monthly_cost(report: &RunReport, limit: f64) -> Graded {
    if report.totals.price_source == cost::SELF_MANAGED {
        let detail = "no price: the Cassandra profile is self-managed, so a monthly cost cannot be graded";
        return Graded::failed_unmeasured(limit, GoalUnit::Usd, detail.to_owned());
    }
    if report.totals.price_source == cost::SERVERS {
        let detail =
            "no price: MongoDB is priced by its servers, not per request, so a monthly cost cannot be graded";
        return Graded::failed_unmeasured(limit, GoalUnit::Usd, detail.to_owned());
    }
    // A month projects from the run's request rates: with no time or no request there is none,
    // and the figure would be the storage alone.
    if report.duration_s <= 0.0 || report.totals.requests == 0 {
        let detail = "no requests in this run: no rate to project a month's cost from".to_owned();
        return Graded::not_graded(limit, GoalUnit::Usd, detail);
    }
    let value = report.totals.monthly_cost_usd;
    Graded::at_most(value, limit, GoalUnit::Usd, |vs| {
        format!("projected monthly cost {} {vs} {}", cost::usd(value), cost::usd(limit))
    })
}

/// The causes a `MaxFailedWrites` goal's detail names, which the verdict reads back to say what
/// fixes each.
pub mod lost {
    /// A goal detail that counts lost writes has this.
    pub const WRITES_LOST: &str = "writes lost";
    use crate::engine::model::Engine;

    /// A write refused for the size of its item, in the store's words.
    pub fn too_large(engine: Engine) -> &'static str {
        match engine {
            Engine::CosmosDb => "item past 2 MB",
            Engine::MongoDb => "document past 16 MB",
            Engine::DynamoDb | Engine::Cassandra => "item past 400 KB",
        }
    }

    /// A write refused because its partition is full, in the store's words.
    pub fn full_partition(engine: Engine) -> &'static str {
        match engine {
            Engine::CosmosDb => "logical partition past 20 GB",
            Engine::DynamoDb | Engine::Cassandra | Engine::MongoDb => "item collection past 10 GB",
        }
    }
    pub const THROTTLED: &str = "throttled past the last retry";
    pub const NO_ITEM: &str = "no item to write (a key that cannot be made, a parent that is gone)";
    pub const REPLACED: &str = "item replaced by a put with the same key";
    pub const PRELOAD_REPLACED: &str = "item of the initial load replaced by another";
}

/// Writes that never landed, by cause.
fn failed_writes(report: &RunReport, limit: u64) -> Graded {
    let t = &report.totals;
    let refused = t.item_size_errors + t.collection_limit_errors + t.writes_gave_up;
    // A put that lands on another item's key loses that item as surely as a refused write.
    let lost = t.failed_writes + t.overwritten_items + t.preload_overwritten_items;
    let causes: Vec<String> = [
        (t.item_size_errors, lost::too_large(report.engine)),
        (t.collection_limit_errors, lost::full_partition(report.engine)),
        (t.writes_gave_up, lost::THROTTLED),
        (t.failed_writes.saturating_sub(refused), lost::NO_ITEM),
        (t.overwritten_items, lost::REPLACED),
        (t.preload_overwritten_items, lost::PRELOAD_REPLACED),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, why)| format!("{} {why}", numbers::count(*n as f64)))
    .collect();
    let causes = if causes.is_empty() { String::new() } else { format!(" ({})", causes.join(", ")) };
    // Before any write, a count within the limit is a count of nothing; one past it (items of
    // the initial load replaced) fails for good, since losses only add up.
    if t.writes == 0 && lost <= limit {
        let detail = "no writes in this run: no lost writes to count".to_owned();
        return Graded::not_graded(limit as f64, GoalUnit::Count, detail);
    }
    Graded::at_most(lost as f64, limit as f64, GoalUnit::Count, |vs| {
        format!(
            "{} {}{causes} {vs} {}",
            numbers::count(lost as f64),
            lost::WRITES_LOST,
            numbers::count(limit as f64)
        )
    })
}

/// How a shard-share goal's detail starts once graded, which the verdict reads back to say
/// what fixes it.
pub const BUSIEST_SHARD: &str = "busiest shard ";

/// The busiest shard's share of the inserts into the sharded collection: the Shards section's
/// "hottest shard for inserts". Not graded without a sharded collection or before an insert.
fn shard_share(report: &RunReport, limit: f64) -> Graded {
    let Some(s) = report.shards.as_ref() else {
        let detail = "no sharded collection in this run: no shard's share of inserts to grade".to_owned();
        return Graded::not_graded(limit, GoalUnit::Ratio, detail);
    };
    let Some(busiest) = s.hottest_for_inserts().filter(|_| s.inserts > 0) else {
        let detail =
            format!("no inserts into {} in this run: no shard's share of them to grade", s.collection);
        return Graded::not_graded(limit, GoalUnit::Ratio, detail);
    };
    let value = s.hottest_share_of_inserts;
    Graded::at_most(value, limit, GoalUnit::Ratio, |vs| {
        format!(
            "{BUSIEST_SHARD}{} took {} of {} inserts into {} (an even spread: {}) {vs} {}",
            busiest.shard,
            numbers::percent(value),
            numbers::count(s.inserts as f64),
            s.collection,
            numbers::percent(1.0 / s.shards.len().max(1) as f64),
            numbers::percent(limit)
        )
    })
}

/// A pattern's read units per call over the first tenth of the run and the last, when they grew
/// noticeably (over 10%): the sign of a Scan whose cost follows the table's size. `None` when
/// they did not, or when either tenth had no call to measure.
pub fn growth(p: &PatternReport) -> Option<(f64, f64)> {
    let (start, end) = (p.rcu_per_call_start?, p.rcu_per_call_end?);
    (end > start * 1.1 && end - start >= 0.5).then_some((start, end))
}

/// The report's line for a pattern: the report lists the scenario's patterns in its order.
fn pattern<'r>(report: &'r RunReport, target: &PatternRef) -> Option<&'r PatternReport> {
    report.patterns.get(target.id().index())
}

/// "Query", "Query on byStatus"; "SELECT", "SELECT on view byStatus" in the Cassandra profile.
fn served(ops: &Operations, p: &PatternReport, report: &RunReport) -> String {
    let language = report.engine.profile().language;
    let op = ops.iter().map(|op| planner::verb(language, op)).collect::<Vec<_>>().join(" + ");
    match (&p.index, language) {
        (Some(index), Language::Cql) => format!("{op} on view {index}"),
        (Some(index), Language::MongoDb) => format!("{op} on index {index}"),
        (Some(index), _) => format!("{op} on {index}"),
        (None, _) => op,
    }
}

/// ` (KEY)` for the listed partition that holds the maximum, if the list has it.
fn largest(
    report: &RunReport,
    measure: impl Fn(&super::sim::report::PartitionReport) -> u64,
    max: u64,
) -> String {
    report
        .partitions
        .top
        .iter()
        .find(|p| measure(p) == max && max > 0)
        .map_or_else(String::new, |p| format!(" ({})", p.key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::Engine;
    use crate::engine::testing::report;

    fn grade(check: GoalCheck, report: &RunReport) -> GoalResult {
        let goal = Goal { name: "g".to_owned(), check, hint: None, within: None };
        // The planner's fan-outs for the fixture's patterns.
        let planned = |id: PatternId| match report.patterns.get(id.index()).map(|p| p.name.as_str()) {
            Some("customer-page") => Some(1),
            Some("pending-orders") => Some(3),
            _ => None,
        };
        super::check(&goal, report, &planned)
    }

    /// The fixture report's pattern `name`, as a goal names it (an unknown name past the end).
    fn named(name: &str) -> PatternRef {
        let position = report().patterns.iter().position(|p| p.name == name).unwrap_or(usize::MAX);
        PatternRef::new(name.to_owned(), PatternId::new(position))
    }

    /// (check, passed, value, detail fragment) against the fixture (`testing::report`).
    #[test]
    fn grades_each_check_both_ways() {
        let mib = 1024 * 1024;
        let cases: Vec<(GoalCheck, bool, f64, &str)> = vec![
            (
                GoalCheck::MaxPartitionBytes(100 * mib),
                false,
                120.0 * mib as f64,
                "120 MB (CUSTOMER#c0001) > 100 MB",
            ),
            (GoalCheck::MaxPartitionBytes(10 * 1024 * mib), true, 120.0 * mib as f64, "≤ 10 GB"),
            (
                GoalCheck::MaxPartitionBytes(150 * mib),
                true,
                120.0 * mib as f64,
                "120 MB (CUSTOMER#c0001) ≤ 150 MB",
            ),
            (
                GoalCheck::MaxPartitionItems(100_000),
                false,
                150_000.0,
                "150,000 items (CUSTOMER#c0001) > 100,000",
            ),
            (GoalCheck::MaxPartitionItems(150_000), true, 150_000.0, "≤ 150,000"),
            (
                GoalCheck::MaxThrottledRatio(0.0001),
                false,
                0.001,
                "40 of 40,000 requests throttled (0.1%) > 0.01%",
            ),
            (GoalCheck::MaxThrottledRatio(0.001), true, 0.001, "; 2 gave up after retries"),
            (
                GoalCheck::NoScan(named("pending-orders")),
                false,
                360.0,
                "ran 360 Scans; read units per call grew from 20 to 400",
            ),
            (GoalCheck::NoScan(named("customer-page")), true, 0.0, "customer-page is served by Query"),
            (
                GoalCheck::MaxFanout(named("pending-orders"), 2),
                false,
                12.0,
                "12 requests in the busiest call, 12 requests per call on average; 3 planned > 2",
            ),
            (
                GoalCheck::MaxFanout(named("customer-page"), 1),
                true,
                1.0,
                "(Query): 1 request in the busiest call, 1 request per call on average; 1 planned ≤ 1",
            ),
            (GoalCheck::MaxIndexWriteAmplification(1.2), false, 1.5, "1.5 item writes per base write"),
            (GoalCheck::MaxIndexWriteAmplification(2.0), true, 1.5, "≤ 2"),
            (
                GoalCheck::LatencyTarget(named("pending-orders")),
                false,
                180.0,
                "p99 180 ms (modelled) > 100 ms target; p50 40 ms",
            ),
            (GoalCheck::LatencyTarget(named("customer-page")), true, 9.0, "p99 9 ms (modelled) ≤ 20 ms"),
            (GoalCheck::LatencyTarget(named("place-order")), false, 8.0, "has no latency target"),
        ];
        let mut report = report();
        // 200 of customer-page's calls never completed: more than 1%, so its p99 call is one.
        let stuck = report.patterns.iter_mut().find(|p| p.name == "customer-page").expect("in the report");
        let calls = stuck.calls;
        (stuck.failed, stuck.unfinished) = (1_500, 50);
        let r = grade(GoalCheck::LatencyTarget(named("customer-page")), &report);
        // Counts are written with thousands separators, as everywhere in a report.
        let never =
            "1,550 of 9,000 customer-page calls never completed (1,500 gave up, 50 still retrying".to_owned();
        assert!(!r.passed() && r.detail.starts_with(&never), "{r:?}");
        // Its value is the completed calls' p99, a bound the p99 call is past, and says so
        // (in JSON too, where only such a goal carries the flag).
        assert_eq!((r.value, r.lower_bound), (Some(9.0), true), "{r:?}");
        let json = serde_json::to_value(&r).expect("serializes");
        assert_eq!(json["value_is_lower_bound"], true, "{json}");
        // 1% or fewer: the p99 is the measured one.
        let stuck = report.patterns.iter_mut().find(|p| p.name == "customer-page").expect("in the report");
        (stuck.failed, stuck.unfinished) = (calls / 100, 0);
        for (check, passed, value, detail) in cases {
            let label = format!("{check:?}");
            let r = grade(check, &report);
            assert_eq!((r.passed(), r.value, r.lower_bound), (passed, Some(value), false), "{label}: {r:?}");
            assert!(serde_json::to_value(&r).expect("serializes").get("value_is_lower_bound").is_none());
            assert!(r.detail.contains(detail), "{label}: {:?} lacks {detail:?}", r.detail);
        }
    }

    #[test]
    fn grades_the_monthly_cost_and_refuses_it_without_a_price() {
        let mut r = report();
        r.totals.monthly_cost_usd = 82.5;
        r.totals.price_source = "AWS".to_owned();
        let over = grade(GoalCheck::MaxMonthlyCost(50.0), &r);
        assert!(!over.passed() && over.detail == "projected monthly cost $82.50 > $50.00", "{over:?}");
        let under = grade(GoalCheck::MaxMonthlyCost(100.0), &r);
        assert!(under.passed() && under.unit == GoalUnit::Usd, "{under:?}");
        r.totals.price_source = cost::SELF_MANAGED.to_owned();
        let cassandra = grade(GoalCheck::MaxMonthlyCost(100.0), &r);
        assert!(!cassandra.passed() && cassandra.detail.contains("self-managed"), "{cassandra:?}");
    }

    #[test]
    fn an_index_partition_counts_when_it_is_the_largest() {
        let mut r = report();
        r.indexes[0].max_partition_bytes = 200 * 1024 * 1024;
        let result = grade(GoalCheck::MaxPartitionBytes(150 * 1024 * 1024), &r);
        assert_eq!(result.detail, "largest partition 200 MB (in index byStatus) > 150 MB");
        assert!(!result.passed());
    }

    #[test]
    fn an_unserved_pattern_fails_no_scan() {
        let mut r = report();
        r.patterns[1].operation = None;
        let result = grade(GoalCheck::NoScan(named("pending-orders")), &r);
        assert!(!result.passed() && result.detail.starts_with("nothing serves"), "{result:?}");
    }

    /// What a case changes in the fixture report.
    type Change<'a> = &'a dyn Fn(&mut RunReport);

    /// A goal's detail names the store's own requests and limits: MongoDB's methods and
    /// collection scans, Cosmos DB's point reads and cross-partition queries, never DynamoDB's
    /// GetItem or Scan on them.
    #[test]
    fn a_goal_speaks_the_stores_words() {
        let scan = |r: &mut RunReport| {
            r.patterns[1].operation = Some(Operation::Scan.into());
            r.patterns[1].scans = 40;
        };
        let get = |r: &mut RunReport| {
            r.patterns[0].operation = Some(Operation::GetItem.into());
            r.patterns[0].index = None;
        };
        let too_large = |r: &mut RunReport| r.totals.item_size_errors = 3;
        let no_scan = || GoalCheck::NoScan(named("pending-orders"));
        let fanout = || GoalCheck::MaxFanout(named("customer-page"), 1);
        // (engine, change, goal, words)
        let cases: Vec<(Engine, Change, GoalCheck, &str)> = vec![
            (Engine::DynamoDb, &scan, no_scan(), "pending-orders ran 40 Scans"),
            (Engine::MongoDb, &scan, no_scan(), "pending-orders ran 40 collection scans (find)"),
            (Engine::CosmosDb, &scan, no_scan(), "pending-orders ran 40 cross-partition queries"),
            (
                Engine::Cassandra,
                &scan,
                no_scan(),
                "pending-orders ran 40 full scans (SELECT … ALLOW FILTERING)",
            ),
            (Engine::DynamoDb, &get, fanout(), "customer-page (GetItem):"),
            (Engine::MongoDb, &get, fanout(), "customer-page (findOne):"),
            (Engine::CosmosDb, &get, fanout(), "customer-page (point read):"),
            (Engine::Cassandra, &get, fanout(), "customer-page (SELECT):"),
            (Engine::DynamoDb, &too_large, GoalCheck::MaxFailedWrites(0), "3 item past 400 KB"),
            (Engine::CosmosDb, &too_large, GoalCheck::MaxFailedWrites(0), "3 item past 2 MB"),
            (Engine::MongoDb, &too_large, GoalCheck::MaxFailedWrites(0), "3 document past 16 MB"),
        ];
        for (engine, change, check, words) in cases {
            let mut r = report();
            r.engine = engine;
            change(&mut r);
            let result = grade(check, &r);
            assert!(result.detail.contains(words), "{engine}: {:?} lacks {words:?}", result.detail);
        }
        // An index read: "find on index byStatus" on MongoDB, the bare name elsewhere.
        let mut r = report();
        r.engine = Engine::MongoDb;
        r.patterns[1].operation = Some(Operation::Query.into());
        r.patterns[1].index = Some("byStatus".to_owned());
        let result = grade(no_scan(), &r);
        assert_eq!(result.detail, "pending-orders is served by find on index byStatus");
    }

    #[test]
    fn a_write_that_scans_to_learn_its_key_fails_no_scan() {
        let mut r = report();
        r.patterns[1].operation = Some(Operations::new(Operation::Scan, [Operation::UpdateItem]));
        r.patterns[1].scans = 40;
        let result = grade(GoalCheck::NoScan(named("pending-orders")), &r);
        assert!(!result.passed() && result.detail.contains("ran 40 Scans"), "{result:?}");
        r.patterns[1].operation = Some(Operations::new(Operation::Query, [Operation::UpdateItem]));
        assert!(grade(GoalCheck::NoScan(named("pending-orders")), &r).passed());
    }

    #[test]
    fn the_busiest_measured_call_is_graded() {
        // A range over time buckets asks one bucket on most calls and two on some: the mean is
        // under 2, the goal "at most 1" still fails on the calls that asked two.
        let mut r = report();
        r.patterns[0].avg_fanout = 1.25;
        r.patterns[0].max_fanout = 2;
        let result = grade(GoalCheck::MaxFanout(named("customer-page"), 1), &r);
        assert_eq!((result.passed(), result.value), (false, Some(2.0)), "{result:?}");
        r.patterns[0].max_fanout = 1;
        r.patterns[0].avg_fanout = 1.0;
        let result = grade(GoalCheck::MaxFanout(named("customer-page"), 1), &r);
        assert_eq!((result.passed(), result.value), (true, Some(1.0)), "{result:?}");
    }

    /// (operation, fan-out, most requests, requests, pages, calls, passes "at most 1", detail
    /// fragment, what the detail must not say).
    #[test]
    fn pages_and_fetches_are_requests_in_a_fanout_goal() {
        let cases = [
            // A Scan of 8 pages a call (practice-social's post-with-comments) is 8 requests.
            (
                Operation::Scan,
                1,
                8,
                1_200,
                1_200,
                150,
                false,
                "8 requests in the busiest call, 8 requests per call on average (pages are requests: 8 pages per call on average)",
                "BatchGetItem",
            ),
            // One page a call is one request.
            (
                Operation::Scan,
                1,
                1,
                150,
                150,
                150,
                true,
                "1 request in the busiest call, 1 request per call on average; 3 planned",
                "pages are requests",
            ),
            // Two keys in one BatchGetItem: addressed twice, one request.
            (Operation::BatchGetItem, 2, 1, 150, 0, 150, false, "2 requests in the busiest call", "pages"),
            // A GSI Query of one page whose items are fetched from the table by a BatchGetItem:
            // two requests a call, and not because of pages.
            (
                Operation::Query,
                1,
                2,
                300,
                150,
                150,
                false,
                "2 requests per call on average (fetching the items from the table adds 1 BatchGetItem request per call on average)",
                "pages are requests",
            ),
            // Both: two pages and a fetch.
            (
                Operation::Query,
                1,
                3,
                450,
                300,
                150,
                false,
                "(pages are requests: 2 pages per call on average; fetching the items from the table adds 1 BatchGetItem request per call",
                "—",
            ),
        ];
        for (op, fanout, most, requests, pages, calls, passed, detail, absent) in cases {
            let mut r = report();
            let p = &mut r.patterns[1];
            (p.max_fanout, p.avg_fanout, p.max_requests, p.requests, p.calls) =
                (fanout, fanout as f64, most, requests, calls);
            p.operation = Some(Operations::new(op, []));
            p.avg_pages = f64::from(pages) / calls as f64;
            let result = grade(GoalCheck::MaxFanout(named("pending-orders"), 1), &r);
            assert_eq!(result.passed(), passed, "{result:?}");
            assert!(result.detail.contains(detail), "{:?} lacks {detail:?}", result.detail);
            assert!(!result.detail.contains(absent), "{:?} has {absent:?}", result.detail);
        }
    }

    /// A goal whose pattern made no calls (or a run with no requests or writes) is graded by the
    /// plan where the plan decides it, else not graded: never passed on a figure of nothing.
    #[test]
    fn a_goal_with_nothing_to_judge_is_not_graded_or_judged_by_the_plan() {
        let mut r = report();
        for p in &mut r.patterns {
            (p.calls, p.requests, p.scans, p.latency_ms_p50, p.latency_ms_p99) = (0, 0, 0, 0.0, 0.0);
            (p.max_fanout, p.max_requests, p.avg_fanout) = (0, 0, 0.0);
        }
        (r.totals.requests, r.totals.writes, r.totals.throttled_ops) = (0, 0, 0);
        let cases: Vec<(GoalCheck, GoalStatus, Option<f64>, &str)> = vec![
            (
                GoalCheck::LatencyTarget(named("customer-page")),
                GoalStatus::NotGraded,
                None,
                "customer-page made no calls in this run: no latency to hold to the 20 ms target",
            ),
            (
                GoalCheck::NoScan(named("pending-orders")),
                GoalStatus::Failed,
                None,
                "pending-orders is served by a Scan: it made no calls in this run, but every call would scan",
            ),
            (
                GoalCheck::NoScan(named("customer-page")),
                GoalStatus::Passed,
                Some(0.0),
                "customer-page is served by Query (it made no calls in this run)",
            ),
            (
                GoalCheck::MaxFanout(named("pending-orders"), 2),
                GoalStatus::Failed,
                Some(3.0),
                "pending-orders (Scan) made no calls in this run; 3 requests planned > 2",
            ),
            (
                GoalCheck::MaxFanout(named("place-order"), 2),
                GoalStatus::NotGraded,
                None,
                "made no calls in this run, and no plan counts its requests",
            ),
            (GoalCheck::MaxThrottledRatio(0.01), GoalStatus::NotGraded, None, "no requests in this run"),
            (
                GoalCheck::MaxIndexWriteAmplification(2.0),
                GoalStatus::NotGraded,
                None,
                "no writes in this run",
            ),
        ];
        for (check, status, value, detail) in cases {
            let label = format!("{check:?}");
            let g = grade(check, &r);
            assert_eq!((g.status, g.value), (status, value), "{label}: {g:?}");
            assert!(g.detail.contains(detail), "{label}: {:?} lacks {detail:?}", g.detail);
        }
    }

    /// The fixture as a replay stands before its first tick: no simulated time, no request, no
    /// write, nothing stored — only the bill's storage of nothing and the patterns' plans.
    fn at_tick_zero() -> RunReport {
        let mut r = report();
        r.duration_s = 0.0;
        let t = &mut r.totals;
        (t.ops, t.reads, t.writes, t.requests, t.throttled_ops, t.gave_up) = (0, 0, 0, 0, 0, 0);
        (t.failed_ops, t.failed_writes, t.writes_gave_up, t.items, t.table_bytes) = (0, 0, 0, 0, 0);
        (t.rcu, t.wcu, t.cost_usd, t.monthly_cost_usd) = (0.0, 0.0, 0.0, 0.0);
        (r.partitions.max_bytes, r.partitions.max_items, r.partitions.top) = (0, 0, Vec::new());
        for i in &mut r.indexes {
            (i.items, i.bytes, i.max_partition_bytes, i.entry_writes) = (0, 0, 0, 0);
        }
        for p in &mut r.patterns {
            (p.calls, p.served_calls, p.requests, p.scans, p.failed) = (0, 0, 0, 0, 0);
            (p.max_fanout, p.max_requests, p.avg_fanout) = (0, 0, 0.0);
            (p.latency_ms_p50, p.latency_ms_p99) = (0.0, 0.0);
        }
        r
    }

    /// (check, its grade before the first tick, the detail then, its grade on the fixture's
    /// measurements): a goal on what the replay measures waits for a measurement, as a goal on
    /// the plan does not; once measured, it is graded both ways as before.
    #[test]
    fn a_goal_on_measurements_is_not_graded_before_anything_is_measured() {
        let mib = 1024 * 1024;
        let measured = {
            let mut r = report();
            r.totals.monthly_cost_usd = 82.5;
            r.totals.price_source = "AWS".to_owned();
            r
        };
        let cases = [
            (
                GoalCheck::MaxPartitionBytes(150 * mib),
                (GoalStatus::NotGraded, None),
                "nothing replayed yet: no partition measured to grade",
                (GoalStatus::Passed, 120.0 * mib as f64),
            ),
            (
                GoalCheck::MaxPartitionItems(100_000),
                (GoalStatus::NotGraded, None),
                "nothing replayed yet",
                (GoalStatus::Failed, 150_000.0),
            ),
            (
                GoalCheck::MaxMonthlyCost(100.0),
                (GoalStatus::NotGraded, None),
                "no requests in this run: no rate to project a month's cost from",
                (GoalStatus::Passed, 82.5),
            ),
            (
                GoalCheck::MaxMonthlyCost(50.0),
                (GoalStatus::NotGraded, None),
                "no requests in this run",
                (GoalStatus::Failed, 82.5),
            ),
            (
                GoalCheck::MaxFailedWrites(0),
                (GoalStatus::NotGraded, None),
                "no writes in this run: no lost writes to count",
                (GoalStatus::Failed, 2.0),
            ),
            (
                GoalCheck::MaxFailedWrites(5),
                (GoalStatus::NotGraded, None),
                "no writes in this run",
                (GoalStatus::Passed, 2.0),
            ),
            (
                GoalCheck::MaxThrottledRatio(0.01),
                (GoalStatus::NotGraded, None),
                "no requests in this run",
                (GoalStatus::Passed, 0.001),
            ),
            (
                GoalCheck::MaxIndexWriteAmplification(1.2),
                (GoalStatus::NotGraded, None),
                "no writes in this run",
                (GoalStatus::Failed, 1.5),
            ),
            (
                GoalCheck::LatencyTarget(named("customer-page")),
                (GoalStatus::NotGraded, None),
                "made no calls in this run",
                (GoalStatus::Passed, 9.0),
            ),
            // What the plan decides is graded from the start.
            (
                GoalCheck::NoScan(named("pending-orders")),
                (GoalStatus::Failed, None),
                "every call would scan",
                (GoalStatus::Failed, 360.0),
            ),
            (
                GoalCheck::MaxFanout(named("customer-page"), 1),
                (GoalStatus::Passed, Some(1.0)),
                "made no calls in this run; 1 request planned ≤ 1",
                (GoalStatus::Passed, 1.0),
            ),
        ];
        let zero = at_tick_zero();
        for (check, (status, value), detail, (later, measure)) in cases {
            let label = format!("{check:?}");
            let g = grade(check.clone(), &zero);
            assert_eq!((g.status, g.value), (status, value), "{label} at tick 0: {g:?}");
            assert!(g.detail.contains(detail), "{label}: {:?} lacks {detail:?}", g.detail);
            let g = grade(check, &measured);
            assert_eq!((g.status, g.value), (later, Some(measure)), "{label} measured: {g:?}");
        }
    }

    /// Time gone by is not enough: a size goal needs an item stored (in an index too, for
    /// bytes), and a lost-writes goal a write — unless the initial load already lost more than
    /// it allows, which no later write can undo.
    #[test]
    fn a_size_or_loss_goal_waits_for_an_item_or_a_write_unless_already_failed() {
        let mut empty = at_tick_zero();
        empty.duration_s = 60.0;
        let mut index_only = empty.clone();
        (index_only.indexes[0].items, index_only.indexes[0].max_partition_bytes) = (10, 4_096);
        let mut replaced = empty.clone();
        replaced.totals.preload_overwritten_items = 3;
        let cases = [
            (GoalCheck::MaxPartitionBytes(1_000_000), &empty, GoalStatus::NotGraded, None, "no items stored"),
            (GoalCheck::MaxPartitionItems(100), &empty, GoalStatus::NotGraded, None, "no items stored"),
            (
                GoalCheck::MaxPartitionBytes(1_000_000),
                &index_only,
                GoalStatus::Passed,
                Some(4_096.0),
                "(in index byStatus)",
            ),
            (GoalCheck::MaxPartitionItems(100), &index_only, GoalStatus::NotGraded, None, "no items stored"),
            (GoalCheck::MaxFailedWrites(5), &replaced, GoalStatus::NotGraded, None, "no writes in this run"),
            (
                GoalCheck::MaxFailedWrites(0),
                &replaced,
                GoalStatus::Failed,
                Some(3.0),
                "3 writes lost (3 item of the initial load replaced by another)",
            ),
        ];
        for (check, report, status, value, detail) in cases {
            let label = format!("{check:?}");
            let g = grade(check, report);
            assert_eq!((g.status, g.value), (status, value), "{label}: {g:?}");
            assert!(g.detail.contains(detail), "{label}: {:?} lacks {detail:?}", g.detail);
        }
    }

    /// A size goal with a horizon and nothing measured yet: a projection past the target fails
    /// it (the grade is never below the projection); one within it leaves it to the replay.
    #[test]
    fn a_projection_alone_fails_a_size_goal_but_never_passes_it() {
        let projection = |gib: f64| horizon::Projection {
            value: gib * 1024.0 * 1024.0 * 1024.0,
            unit: GoalUnit::Bytes,
            subject: "table CH#{channel_id}".to_owned(),
            horizon: crate::engine::time::SimDuration::from_secs(365 * 86_400),
        };
        let limit = 10 * 1024 * 1024 * 1024;
        let cases = [
            (
                25.6,
                GoalStatus::Failed,
                Some(25.6),
                "nothing replayed yet: no partition measured to grade; projected: 25.6 GB at 1 year (table CH#{channel_id}) > 10 GB",
            ),
            (
                2.0,
                GoalStatus::NotGraded,
                None,
                "nothing replayed yet: no partition measured to grade; projected: 2 GB at 1 year (table CH#{channel_id}) ≤ 10 GB",
            ),
        ];
        for (gib, status, value, detail) in cases {
            let mut g = grade(GoalCheck::MaxPartitionBytes(limit), &at_tick_zero());
            project(&mut g, Some(projection(gib)));
            let value = value.map(|v: f64| v * 1024.0 * 1024.0 * 1024.0);
            assert_eq!((g.status, g.value, g.detail.as_str()), (status, value, detail), "{gib} GB");
        }
    }

    /// A goal failed on what the plan or the scenario says alone (a Scan that made no calls, a
    /// pattern nothing serves or the report lacks, a cost with no price) measured nothing: its
    /// value is null in the JSON, as a goal not graded's is, never a 0 that meets its target.
    #[test]
    fn a_goal_failed_with_nothing_measured_has_no_value() {
        let mut r = report();
        let scan = r.patterns.iter().position(|p| p.name == "pending-orders").expect("in the report");
        r.patterns[scan].calls = 0;
        let mut unserved = r.clone();
        let page = unserved.patterns.iter().position(|p| p.name == "customer-page").expect("in the report");
        unserved.patterns[page].operation = None;
        unserved.patterns[page].latency_target_ms = Some(20.0);
        let mut cassandra = report();
        cassandra.totals.price_source = cost::SELF_MANAGED.to_owned();
        let cases = [
            (GoalCheck::NoScan(named("pending-orders")), &r, "every call would scan"),
            (GoalCheck::NoScan(named("no-such")), &r, "\"no-such\" is not in the report"),
            (GoalCheck::MaxFanout(named("customer-page"), 2), &unserved, "nothing serves customer-page"),
            (GoalCheck::LatencyTarget(named("customer-page")), &unserved, "nothing serves customer-page"),
            (GoalCheck::MaxMonthlyCost(10.0), &cassandra, "self-managed"),
        ];
        for (check, report, detail) in cases {
            let label = format!("{check:?}");
            let g = grade(check, report);
            assert_eq!((g.status, g.value), (GoalStatus::Failed, None), "{label}: {g:?}");
            assert!(g.detail.contains(detail), "{label}: {:?} lacks {detail:?}", g.detail);
            let json = serde_json::to_value(&g).expect("serializes");
            assert_eq!(json["value"], serde_json::Value::Null, "{label}: {json}");
        }
    }

    #[test]
    fn a_goal_on_a_pattern_nothing_serves_fails_whatever_its_calls_measured() {
        let mut r = report();
        let page = r.patterns.iter().position(|p| p.name == "customer-page").expect("in the report");
        r.patterns[page].operation = None;
        r.patterns[page].latency_target_ms = Some(50.0);
        for check in [
            GoalCheck::MaxFanout(named("customer-page"), 2),
            GoalCheck::LatencyTarget(named("customer-page")),
        ] {
            let label = format!("{check:?}");
            let g = grade(check, &r);
            assert_eq!(g.status, GoalStatus::Failed, "{label}: {g:?}");
            assert!(g.detail.starts_with("nothing serves customer-page"), "{label}: {}", g.detail);
        }
    }

    /// The fixture with a collection sharded over three shards that took these inserts.
    fn sharded(inserts: [u64; 3]) -> RunReport {
        use crate::engine::sim::report::{ShardReport, ShardsReport};
        let total: u64 = inserts.iter().sum();
        let share = |n: u64| if total == 0 { 0.0 } else { n as f64 / total as f64 };
        let shards: Vec<ShardReport> = (0..3)
            .map(|i| ShardReport {
                shard: format!("shard{i}"),
                documents: inserts[i],
                bytes: inserts[i] * 500,
                inserts: inserts[i],
                updates: 0,
                share_of_writes: share(inserts[i]),
                share_of_inserts: share(inserts[i]),
                reads: 0,
                share_of_reads: 0.0,
                peak_writes_per_tick: 0,
                ranges: 1,
                jumbo_ranges: 0,
            })
            .collect();
        let mut r = report();
        r.engine = Engine::MongoDb;
        r.shards = Some(ShardsReport {
            collection: "Order".to_owned(),
            shard_key: "{order_id}".to_owned(),
            strategy: "hashed".to_owned(),
            range_bytes: 1 << 20,
            migration_threshold_bytes: 3 << 20,
            balancer_round_s: 10,
            ranges: 3,
            jumbo_ranges: 0,
            inserts: total,
            hottest_share_of_inserts: shards.iter().map(|s| s.share_of_inserts).fold(0.0, f64::max),
            targeted_reads: 0,
            prefix_reads: 0,
            broadcast_reads: 0,
            hottest_share_of_reads: 0.0,
            migrations: 0,
            migrated_bytes: 0,
            shards,
        });
        r
    }

    /// (report, share allowed, status, value, detail): the busiest shard's share of the inserts
    /// passes at or under the share, fails over it, and is not graded without a sharded
    /// collection or an insert into it.
    #[test]
    fn a_shard_share_goal_grades_the_busiest_shards_inserts() {
        let cases = [
            (
                sharded([300, 340, 360]),
                0.5,
                GoalStatus::Passed,
                Some(0.36),
                "busiest shard shard2 took 36% of 1,000 inserts into Order (an even spread: 33.3%) ≤ 50%",
            ),
            (
                sharded([1_000, 0, 0]),
                0.5,
                GoalStatus::Failed,
                Some(1.0),
                "busiest shard shard0 took 100% of 1,000 inserts into Order (an even spread: 33.3%) > 50%",
            ),
            // At the share exactly: at or under passes.
            (sharded([500, 250, 250]), 0.5, GoalStatus::Passed, Some(0.5), "shard0 took 50%"),
            // Equal shares: the first shard is the busiest.
            (sharded([400, 400, 200]), 0.3, GoalStatus::Failed, Some(0.4), "busiest shard shard0 took 40%"),
            (
                sharded([0, 0, 0]),
                0.5,
                GoalStatus::NotGraded,
                None,
                "no inserts into Order in this run: no shard's share of them to grade",
            ),
            (
                report(),
                0.5,
                GoalStatus::NotGraded,
                None,
                "no sharded collection in this run: no shard's share of inserts to grade",
            ),
        ];
        for (r, limit, status, value, detail) in cases {
            let g = grade(GoalCheck::MaxShardShare(limit), &r);
            assert_eq!((g.status, g.value, g.unit), (status, value, GoalUnit::Ratio), "{g:?}");
            assert!(g.detail.contains(detail), "{:?} lacks {detail:?}", g.detail);
        }
    }

    #[test]
    fn growth_means_more_than_noise() {
        let mut p = report().patterns[1].clone();
        let cases = [
            (Some(20.0), Some(400.0), true),
            (Some(717.0), Some(718.0), false),
            (Some(0.5), Some(0.6), false),
            (Some(0.0), Some(2.0), true),
            (Some(5.0), Some(5.0), false),
            // A tenth with no call has no figure: nothing grew from it, nor to it.
            (None, Some(981.0), false),
            (Some(981.0), None, false),
            (None, None, false),
        ];
        for (start, end, grown) in cases {
            (p.rcu_per_call_start, p.rcu_per_call_end) = (start, end);
            let expected = grown.then(|| (start.unwrap_or_default(), end.unwrap_or_default()));
            assert_eq!(growth(&p), expected, "{start:?} → {end:?}");
        }
    }

    #[test]
    fn formats_values_by_unit() {
        let cases = [
            (GoalUnit::Bytes, 1536.0, "1.5 KB"),
            (GoalUnit::Items, 150_000.0, "150,000 items"),
            (GoalUnit::Items, 1.0, "1 item"),
            (GoalUnit::Rows, 100_000.0, "100,000 rows"),
            (GoalUnit::Rows, 1.0, "1 row"),
            (GoalUnit::Ratio, 0.001, "0.1%"),
            (GoalUnit::Requests, 2.0, "2 requests"),
            (GoalUnit::Factor, 1.5, "1.5×"),
            (GoalUnit::Milliseconds, 9.26, "9.3 ms"),
            (GoalUnit::Usd, 82.5, "$82.50"),
        ];
        for (unit, value, text) in cases {
            assert_eq!(unit.format(value), text, "{unit:?}");
        }
    }

    #[test]
    fn a_practice_goal_carries_the_hint_it_links() {
        let loaded = crate::engine::testing::fixture("practice-top-customers");
        let variant = loaded.variant(None).expect("the starting point");
        let results = evaluate(&loaded.scenario, variant, &report());
        let practice = loaded.scenario.practice.as_ref().expect("a practice problem");
        for (result, goal) in results.iter().zip(&loaded.scenario.goals) {
            let expected = goal.hint.map(|n| GoalHint { number: n, text: practice.hints[n - 1].clone() });
            assert_eq!(result.hint, expected, "{}", goal.name);
        }
        assert!(results.iter().any(|r| r.hint.is_some()) && results.iter().any(|r| r.hint.is_none()));
    }

    #[test]
    fn evaluates_a_scenarios_goals_in_order_with_the_planner() {
        let loaded = crate::engine::testing::fixture("orders");
        let variant = loaded.variant(Some("naive")).expect("orders has naive");
        // A run's report lists the scenario's patterns in its order: place the fixture's there
        // (a pattern the fixture lacks stands in as a copy of its last one).
        let mut r = report();
        let fixture = r.patterns.clone();
        let stand_in = fixture.last().expect("the fixture has patterns");
        r.patterns = (loaded.scenario.patterns.iter())
            .map(|p| fixture.iter().find(|f| f.name == p.name).unwrap_or(stand_in).clone())
            .collect();
        // The busiest customer-page call asked one key.
        let page = loaded.scenario.pattern("customer-page").expect("orders has customer-page").id().index();
        r.patterns[page].avg_fanout = 0.5;
        r.patterns[page].max_fanout = 1;
        let results = evaluate(&loaded.scenario, variant, &r);
        let names: Vec<&str> = results.iter().map(|g| g.name.as_str()).collect();
        let expected: Vec<&str> = loaded.scenario.goals.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, expected);
        let page = results.iter().find(|g| g.name == "the customer page is one request").expect("goal");
        assert_eq!((page.passed(), page.value), (true, Some(1.0)), "{page:?}");
    }
}
