//! The report of one run (`keyheat run`): text for an 80-column terminal, JSON (the `RunReport`
//! itself, pretty-printed) and Markdown for a README or an issue. Text and Markdown say the same
//! things in the same order: headline, totals, partitions, indexes, access patterns (latency is
//! always labelled modelled), goals, notes.

mod md;
mod text;

use std::io::{self, Write};

use super::RunFormat;
use super::json;
use crate::engine::cost::{self, usd};
use crate::engine::goals::{self, GoalUnit};
use crate::engine::planner::numbers;
use crate::engine::sim::report::{PatternReport, RunReport};
use crate::engine::value::MAX_ITEM_BYTES;

/// Partitions listed by text and Markdown (JSON keeps every one the simulator listed).
pub const TOP_PARTITIONS: usize = 10;

pub fn write(out: &mut impl Write, report: &RunReport, format: RunFormat) -> io::Result<()> {
    match format {
        RunFormat::Text => text::write(out, report),
        RunFormat::Json => json::write(out, report),
        RunFormat::Md => md::write(out, report),
    }
}

pub fn engine_name(id: &str) -> &str {
    match id {
        "dynamodb" => "DynamoDB",
        "cassandra" => "Cassandra",
        other => other,
    }
}

/// "3 of 5 goals passed" / "every goal passed (4)" / "no goals".
pub fn goal_summary(report: &RunReport) -> String {
    let total = report.goals.len();
    let passed = report.goals.iter().filter(|g| g.passed).count();
    match (total, passed) {
        (0, _) => "no goals".to_owned(),
        (t, p) if t == p => format!("all {t} goals passed ✔"),
        (t, p) => format!("{p} of {t} goals passed ✘"),
    }
}

/// "Query", "Query ×2 on byStatus", "Scan ×12", "unserved".
pub fn served_by(p: &PatternReport) -> String {
    let Some(op) = &p.operation else { return "unserved".to_owned() };
    let fanout = if p.avg_fanout > 1.0 + 1e-9 {
        format!(" ×{}", numbers::factor(p.avg_fanout))
    } else {
        String::new()
    };
    let index = p.index.as_ref().map_or_else(String::new, |i| format!(" on {i}"));
    format!("{op}{fanout}{index}")
}

/// Whether the run used the Cassandra profile, which has no capacity units: the simulator counts
/// its load in operations (partition peaks) and leaves unit totals at 0.
pub fn is_cassandra(engine: &str) -> bool {
    engine == "cassandra"
}

/// What partition load figures count: capacity units, or operations for Cassandra.
pub fn load_units(engine: &str) -> (&'static str, &'static str) {
    if is_cassandra(engine) { ("reads", "writes") } else { ("RCU", "WCU") }
}

/// A call's cost: read units for a read and write units for a write on DynamoDB; rows read for a
/// Cassandra read. `None` where nothing measures it (a Cassandra write).
pub fn per_call(p: &PatternReport, engine: &str) -> Option<(f64, &'static str)> {
    if is_cassandra(engine) {
        return (p.kind != "write").then_some((p.avg_items_read, "rows"));
    }
    let (units, unit) = if p.kind == "write" { (p.wcu, "WCU") } else { (p.rcu, "RCU") };
    Some((if p.calls == 0 { 0.0 } else { units / p.calls as f64 }, unit))
}

/// "2 RCU", "1.5 WCU", "120 rows", "—".
pub(super) fn units_per_call(p: &PatternReport, engine: &str) -> String {
    per_call(p, engine).map_or_else(|| "—".to_owned(), |(x, unit)| format!("{} {unit}", numbers::factor(x)))
}

pub fn ms(x: f64) -> String {
    GoalUnit::Milliseconds.format(x)
}

/// ✔ when the modelled p99 meets the pattern's target, ✘ when not, blank without a target.
pub(super) fn latency_mark(p: &PatternReport) -> &'static str {
    match p.latency_target_ms {
        Some(target) if p.latency_ms_p99 <= target => "✔",
        Some(_) => "✘",
        None => " ",
    }
}

pub(super) fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

pub(super) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", numbers::count(n as f64), if n == 1 { one } else { many })
}

pub(super) fn totals_rows(r: &RunReport) -> Vec<(&'static str, String)> {
    let t = &r.totals;
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
        (
            "items at the end",
            format!(
                "{}: table {}, indexes {}",
                numbers::count(t.items as f64),
                numbers::bytes(t.table_bytes as f64),
                numbers::bytes(t.index_bytes as f64)
            ),
        ),
        (
            "write amplification",
            format!("{}× item writes per base write", numbers::factor(t.write_amplification)),
        ),
    ];
    if !is_cassandra(&r.engine) {
        rows.insert(2, ("read units (RCU)", numbers::count(t.rcu)));
        rows.insert(3, ("write units (WCU)", numbers::count(t.wcu)));
    }
    // An item a tenth of the way to the 400 KB limit is worth a line: something in it grows.
    if !is_cassandra(&r.engine) && t.largest_item_bytes * 10 > MAX_ITEM_BYTES as u64 {
        rows.push((
            "largest item",
            format!("{} of the 400 KB item limit", numbers::bytes(t.largest_item_bytes as f64)),
        ));
    }
    if t.ttl_deletes > 0 {
        rows.push(("TTL deletes", format!("{} (free)", numbers::count(t.ttl_deletes as f64))));
    }
    if t.collection_limit_errors > 0 {
        rows.push((
            "refused writes",
            format!(
                "{}: item collection over 10 GB (ItemCollectionSizeLimitExceeded)",
                numbers::count(t.collection_limit_errors as f64)
            ),
        ));
    }
    if t.item_size_errors > 0 {
        rows.push((
            "refused writes",
            format!(
                "{}: item past 400 KB (ValidationException: Item size has exceeded the maximum allowed size)",
                numbers::count(t.item_size_errors as f64)
            ),
        ));
    }
    if t.price_source == cost::SELF_MANAGED {
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

pub(super) fn partition_rows(r: &RunReport) -> Vec<(&'static str, String)> {
    let p = &r.partitions;
    let (read, write) = load_units(&r.engine);
    let by_cause = if p.splits > 0 {
        format!(": {} for size, {} for heat", p.splits_for_size, p.splits_for_heat)
    } else {
        String::new()
    };
    let refused = if p.heat_splits_refused > 0 {
        format!(
            "; {} refused: one key carried the load",
            plural(p.heat_splits_refused, "heat split", "heat splits")
        )
    } else {
        String::new()
    };
    let splits = format!("{}{by_cause}{refused}", plural(p.splits, "split", "splits"));
    let mut rows = vec![
        ("logical partitions", numbers::count(p.logical as f64)),
        ("physical partitions", format!("{} ({splits})", numbers::count(p.physical as f64))),
        (
            "largest",
            format!("{}, {}", numbers::bytes(p.max_bytes as f64), plural(p.max_items, "item", "items")),
        ),
        (
            "hottest key",
            format!(
                "{} {read}/s, {} {write}/s at its peak",
                numbers::rate(p.peak_rcu_per_s),
                numbers::rate(p.peak_wcu_per_s)
            ),
        ),
    ];
    if p.physical_peak_rcu_per_s > 0.0 || p.physical_peak_wcu_per_s > 0.0 {
        rows.push((
            "busiest physical",
            format!(
                "{} RCU/s, {} WCU/s at peak (limits 3,000 / 1,000)",
                numbers::rate(p.physical_peak_rcu_per_s),
                numbers::rate(p.physical_peak_wcu_per_s)
            ),
        ));
    }
    rows
}

/// What a reader should notice about a pattern, beyond the table.
pub(super) fn remarks(p: &PatternReport) -> Vec<String> {
    let mut out = Vec::new();
    match p.operation.as_deref() {
        None => out.push(format!("nothing serves {}: no key or index finds its items", p.name)),
        Some("Scan") if goals::grew(p) => out.push(format!(
            "{} is a Scan: read units per call went from {} to {} as the table grew",
            p.name,
            numbers::count(p.rcu_per_call_start),
            numbers::count(p.rcu_per_call_end)
        )),
        Some("Scan") => out.push(format!("{} is a Scan: its cost grows with the table", p.name)),
        Some(_) => {}
    }
    if p.avg_items_read > 0.0 && p.avg_items_read >= 2.0 * p.avg_items_returned {
        out.push(format!(
            "{} reads {} items per call to return {}",
            p.name,
            numbers::count(p.avg_items_read),
            numbers::count(p.avg_items_returned)
        ));
    }
    if p.throttled > 0 || p.failed > 0 {
        out.push(format!(
            "{}: {} throttled, {} failed",
            p.name,
            plural(p.throttled, "call", "calls"),
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
        let served: Vec<String> = r.patterns.iter().map(served_by).collect();
        assert_eq!(served, ["Query", "Scan ×12", "PutItem"]);
        let mut p = r.patterns[0].clone();
        (p.avg_fanout, p.index) = (2.0, Some("byDay".to_owned()));
        assert_eq!(served_by(&p), "Query ×2 on byDay");
        p.operation = None;
        assert_eq!(served_by(&p), "unserved");
        assert_eq!(remarks(&p)[0], "nothing serves customer-page: no key or index finds its items");
    }

    fn render(r: &RunReport) -> String {
        let mut out = Vec::new();
        write(&mut out, r, RunFormat::Json).unwrap();
        String::from_utf8(out).unwrap()
    }
}
