//! The report of one run (`keyheat run`): text for an 80-column terminal, JSON (the `RunReport`
//! itself, pretty-printed) and Markdown for a README or an issue. Text and Markdown say the same
//! things in the same order: headline, totals, partitions, indexes, access patterns (latency is
//! always labelled modelled), goals, notes.

use std::io::{self, Write};

use super::RunFormat;
use super::json;
use super::markdown::{self, Align};
use super::text::{WIDTH, paragraph, row};
use crate::engine::cost::usd;
use crate::engine::goals::GoalUnit;
use crate::engine::planner::numbers;
use crate::engine::sim::report::{PatternReport, RunReport};

/// Partitions listed by text and Markdown (JSON keeps every one the simulator listed).
pub const TOP_PARTITIONS: usize = 10;
/// Width of a figure's label in text.
const LABEL: usize = 22;

pub fn write(out: &mut impl Write, report: &RunReport, format: RunFormat) -> io::Result<()> {
    match format {
        RunFormat::Text => text(out, report),
        RunFormat::Json => json::write(out, report),
        RunFormat::Md => markdown(out, report),
    }
}

pub(super) fn engine_name(id: &str) -> &str {
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
pub(super) fn served_by(p: &PatternReport) -> String {
    let Some(op) = &p.operation else { return "unserved".to_owned() };
    let fanout = if p.avg_fanout > 1.0 + 1e-9 {
        format!(" ×{}", numbers::factor(p.avg_fanout))
    } else {
        String::new()
    };
    let index = p.index.as_ref().map_or_else(String::new, |i| format!(" on {i}"));
    format!("{op}{fanout}{index}")
}

/// Read units per call for a read, write units per call for a write: "2 RCU", "1.5 WCU".
pub(super) fn units_per_call(p: &PatternReport) -> String {
    let (units, unit) = if p.kind == "write" { (p.wcu, "WCU") } else { (p.rcu, "RCU") };
    let per_call = if p.calls == 0 { 0.0 } else { units / p.calls as f64 };
    format!("{} {unit}", numbers::factor(per_call))
}

pub(super) fn ms(x: f64) -> String {
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

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", numbers::count(n as f64), if n == 1 { one } else { many })
}

fn totals_rows(r: &RunReport) -> Vec<(&'static str, String)> {
    let t = &r.totals;
    let failed = if t.failed_ops > 0 {
        format!("; {} gave up after retries", numbers::count(t.failed_ops as f64))
    } else {
        String::new()
    };
    let throttled = format!(
        "{} ({} of requests){failed}",
        plural(t.throttled_ops, "request", "requests"),
        numbers::percent(share(t.throttled_ops, t.requests))
    );
    vec![
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
        ("read units (RCU)", numbers::count(t.rcu)),
        ("write units (WCU)", numbers::count(t.wcu)),
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
        ("cost of the run", usd(t.cost_usd)),
        (
            "cost per month",
            format!("{} (projected: the run's mean rates, final storage)", usd(t.monthly_cost_usd)),
        ),
        ("prices", t.price_source.clone()),
    ]
}

fn partition_rows(r: &RunReport) -> Vec<(&'static str, String)> {
    let p = &r.partitions;
    vec![
        ("logical partitions", numbers::count(p.logical as f64)),
        (
            "physical partitions",
            format!("{} ({})", numbers::count(p.physical as f64), plural(p.splits, "split", "splits")),
        ),
        (
            "largest",
            format!("{}, {}", numbers::bytes(p.max_bytes as f64), plural(p.max_items, "item", "items")),
        ),
        (
            "peak load",
            format!("{} RCU/s, {} WCU/s", numbers::rate(p.peak_rcu_per_s), numbers::rate(p.peak_wcu_per_s)),
        ),
    ]
}

/// What a reader should notice about a pattern, beyond the table.
pub(super) fn remarks(p: &PatternReport) -> Vec<String> {
    let mut out = Vec::new();
    match p.operation.as_deref() {
        None => out.push(format!("nothing serves {}: no key or index finds its items", p.name)),
        Some("Scan") if p.rcu_per_call_end > p.rcu_per_call_start => out.push(format!(
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

fn text(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    paragraph(out, 0, &format!("keyheat run: {} / {} ({})", r.scenario, r.variant, engine_name(&r.engine)))?;
    paragraph(
        out,
        0,
        &format!(
            "seed {} · {} simulated, tick {} · {}",
            r.seed,
            numbers::span(r.duration_s),
            numbers::span(r.tick_s),
            goal_summary(r)
        ),
    )?;
    for (title, rows) in [("Totals", totals_rows(r)), ("Partitions", partition_rows(r))] {
        writeln!(out)?;
        writeln!(out, "{title}")?;
        for (label, value) in rows {
            row(out, &[("", 1), (label, LABEL), (&value, WIDTH - LABEL - 4)])?;
        }
    }
    text_top_partitions(out, r)?;
    text_indexes(out, r)?;
    text_patterns(out, r)?;
    text_goals(out, r)?;
    if !r.notes.is_empty() {
        writeln!(out)?;
        writeln!(out, "Notes")?;
        for note in &r.notes {
            paragraph(out, 2, &format!("- {note}"))?;
        }
    }
    Ok(())
}

fn text_top_partitions(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    if r.partitions.top.is_empty() {
        return Ok(());
    }
    let w = [1, 24, 8, 10, 9, 9, 9];
    let line = |out: &mut _, c: [&str; 7]| {
        row(
            out,
            &[
                (c[0], w[0]),
                (c[1], w[1]),
                (c[2], w[2]),
                (c[3], w[3]),
                (c[4], w[4]),
                (c[5], w[5]),
                (c[6], w[6]),
            ],
        )
    };
    writeln!(out)?;
    let header = [
        "",
        "top partitions",
        &format!("{:>8}", "size"),
        &format!("{:>10}", "items"),
        &format!("{:>9}", "RCU/s pk"),
        &format!("{:>9}", "WCU/s pk"),
        &format!("{:>9}", "throttled"),
    ];
    line(out, header)?;
    for p in r.partitions.top.iter().take(TOP_PARTITIONS) {
        line(
            out,
            [
                "",
                &p.key,
                &format!("{:>8}", numbers::bytes(p.bytes as f64)),
                &format!("{:>10}", numbers::count(p.items as f64)),
                &format!("{:>9}", numbers::rate(p.peak_rcu_per_s)),
                &format!("{:>9}", numbers::rate(p.peak_wcu_per_s)),
                &format!("{:>9}", numbers::count(p.throttled_ops as f64)),
            ],
        )?;
    }
    Ok(())
}

fn text_indexes(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out)?;
    if r.indexes.is_empty() {
        return writeln!(out, "Indexes: none");
    }
    writeln!(out, "Indexes")?;
    let w = [1, 14, 4, 9, 7, 8, 9, 8, 9];
    let line = |out: &mut _, c: [&str; 9]| {
        let cells: Vec<(&str, usize)> = c.iter().copied().zip(w).collect();
        row(out, &cells)
    };
    line(
        out,
        [
            "",
            "name",
            "kind",
            &format!("{:>9}", "WCU"),
            &format!("{:>7}", "×table"),
            &format!("{:>8}", "size"),
            &format!("{:>9}", "items"),
            &format!("{:>8}", "max lag"),
            &format!("{:>9}", "throttled"),
        ],
    )?;
    for i in &r.indexes {
        line(
            out,
            [
                "",
                &i.name,
                &i.kind,
                &format!("{:>9}", numbers::count(i.wcu)),
                &format!("{:>7}", numbers::factor(i.wcu_vs_table)),
                &format!("{:>8}", numbers::bytes(i.bytes as f64)),
                &format!("{:>9}", numbers::count(i.items as f64)),
                &format!("{:>8}", numbers::span(i.max_lag_s)),
                &format!("{:>9}", numbers::count(i.throttled_ops as f64)),
            ],
        )?;
        let mut detail = Vec::new();
        if let Some(key) = &i.hottest_key {
            detail.push(format!("hottest key {key} (peak {} WCU/s)", numbers::rate(i.peak_wcu_per_s)));
        }
        if i.rcu > 0.0 {
            detail.push(format!("{} RCU read from it", numbers::count(i.rcu)));
        }
        if !detail.is_empty() {
            paragraph(out, 4, &detail.join("; "))?;
        }
    }
    Ok(())
}

fn text_patterns(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "Access patterns (latency is modelled, not measured)")?;
    let w = [1, 14, 13, 11, 9, 7, 7, 6];
    let line = |out: &mut _, c: [&str; 8]| {
        let cells: Vec<(&str, usize)> = c.iter().copied().zip(w).collect();
        row(out, &cells)
    };
    line(
        out,
        [
            "",
            "pattern",
            "served by",
            &format!("{:>11}", "calls"),
            &format!("{:>9}", "per call"),
            &format!("{:>7}", "p50"),
            &format!("{:>7}", "p99"),
            "target",
        ],
    )?;
    for p in &r.patterns {
        let target = p.latency_target_ms.map_or_else(|| "—".to_owned(), ms);
        line(
            out,
            [
                latency_mark(p),
                &p.name,
                &served_by(p),
                &format!("{:>11}", numbers::count(p.calls as f64)),
                &format!("{:>9}", units_per_call(p)),
                &format!("{:>7}", ms(p.latency_ms_p50)),
                &format!("{:>7}", ms(p.latency_ms_p99)),
                &target,
            ],
        )?;
    }
    let remarks: Vec<String> = r.patterns.iter().flat_map(remarks).collect();
    for remark in remarks {
        paragraph(out, 2, &format!("⚠ {remark}"))?;
    }
    Ok(())
}

fn text_goals(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out)?;
    if r.goals.is_empty() {
        return writeln!(out, "Goals: none in this scenario");
    }
    writeln!(out, "Goals: {}", goal_summary(r))?;
    for g in &r.goals {
        paragraph(out, 2, &format!("{} {}", if g.passed { "✔" } else { "✘" }, g.name))?;
        paragraph(out, 6, &g.detail)?;
    }
    Ok(())
}

fn markdown(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "# {} / {}", r.scenario, r.variant)?;
    writeln!(out)?;
    writeln!(
        out,
        "`keyheat run` · {} · seed {} · {} simulated (tick {}) · **{}**",
        engine_name(&r.engine),
        r.seed,
        numbers::span(r.duration_s),
        numbers::span(r.tick_s),
        goal_summary(r)
    )?;
    let figures = [("figure", Align::Left), ("value", Align::Left)];
    let pairs = |rows: Vec<(&str, String)>| -> Vec<Vec<String>> {
        rows.into_iter().map(|(label, value)| vec![label.to_owned(), value]).collect()
    };
    writeln!(out)?;
    writeln!(out, "## Totals")?;
    writeln!(out)?;
    markdown::table(out, &figures, &pairs(totals_rows(r)))?;
    writeln!(out, "## Partitions")?;
    writeln!(out)?;
    markdown::table(out, &figures, &pairs(partition_rows(r)))?;
    if !r.partitions.top.is_empty() {
        let rows: Vec<Vec<String>> = r
            .partitions
            .top
            .iter()
            .take(TOP_PARTITIONS)
            .map(|p| {
                vec![
                    format!("`{}`", p.key),
                    numbers::bytes(p.bytes as f64),
                    numbers::count(p.items as f64),
                    numbers::rate(p.peak_rcu_per_s),
                    numbers::rate(p.peak_wcu_per_s),
                    numbers::count(p.throttled_ops as f64),
                ]
            })
            .collect();
        let columns = [
            ("top partition", Align::Left),
            ("size", Align::Right),
            ("items", Align::Right),
            ("peak RCU/s", Align::Right),
            ("peak WCU/s", Align::Right),
            ("throttled", Align::Right),
        ];
        markdown::table(out, &columns, &rows)?;
    }
    markdown_indexes(out, r)?;
    markdown_patterns(out, r)?;
    writeln!(out, "## Goals")?;
    writeln!(out)?;
    if r.goals.is_empty() {
        writeln!(out, "None in this scenario.")?;
        writeln!(out)?;
    } else {
        let rows: Vec<Vec<String>> = r
            .goals
            .iter()
            .map(|g| vec![(if g.passed { "✔" } else { "✘" }).to_owned(), g.name.clone(), g.detail.clone()])
            .collect();
        markdown::table(out, &[("", Align::Left), ("goal", Align::Left), ("result", Align::Left)], &rows)?;
    }
    if !r.notes.is_empty() {
        writeln!(out, "## Notes")?;
        writeln!(out)?;
        for note in &r.notes {
            writeln!(out, "- {}", note.replace('\n', " "))?;
        }
    }
    Ok(())
}

fn markdown_indexes(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "## Indexes")?;
    writeln!(out)?;
    if r.indexes.is_empty() {
        writeln!(out, "None.")?;
        return writeln!(out);
    }
    let rows: Vec<Vec<String>> = r
        .indexes
        .iter()
        .map(|i| {
            vec![
                i.name.clone(),
                i.kind.clone(),
                numbers::count(i.wcu),
                numbers::factor(i.wcu_vs_table),
                numbers::count(i.rcu),
                numbers::bytes(i.bytes as f64),
                numbers::count(i.items as f64),
                numbers::span(i.max_lag_s),
                numbers::count(i.throttled_ops as f64),
                i.hottest_key.as_ref().map_or_else(
                    || "—".to_owned(),
                    |k| format!("`{k}` ({} WCU/s)", numbers::rate(i.peak_wcu_per_s)),
                ),
            ]
        })
        .collect();
    let columns = [
        ("index", Align::Left),
        ("kind", Align::Left),
        ("WCU", Align::Right),
        ("× table WCU", Align::Right),
        ("RCU", Align::Right),
        ("size", Align::Right),
        ("items", Align::Right),
        ("max lag", Align::Right),
        ("throttled", Align::Right),
        ("hottest key (peak)", Align::Left),
    ];
    markdown::table(out, &columns, &rows)
}

fn markdown_patterns(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "## Access patterns")?;
    writeln!(out)?;
    writeln!(out, "Latency is modelled, not measured (see the notes).")?;
    writeln!(out)?;
    let rows: Vec<Vec<String>> = r
        .patterns
        .iter()
        .map(|p| {
            vec![
                latency_mark(p).trim().to_owned(),
                p.name.clone(),
                served_by(p),
                numbers::count(p.calls as f64),
                units_per_call(p),
                format!(
                    "{} → {}",
                    numbers::factor(p.rcu_per_call_start),
                    numbers::factor(p.rcu_per_call_end)
                ),
                ms(p.latency_ms_p50),
                ms(p.latency_ms_p99),
                p.latency_target_ms.map_or_else(|| "—".to_owned(), ms),
            ]
        })
        .collect();
    let columns = [
        ("", Align::Left),
        ("pattern", Align::Left),
        ("served by", Align::Left),
        ("calls", Align::Right),
        ("units per call", Align::Right),
        ("RCU per call, first → last tenth", Align::Right),
        ("p50 (modelled)", Align::Right),
        ("p99 (modelled)", Align::Right),
        ("target", Align::Right),
    ];
    markdown::table(out, &columns, &rows)?;
    let remarks: Vec<String> = r.patterns.iter().flat_map(remarks).collect();
    if !remarks.is_empty() {
        for remark in remarks {
            writeln!(out, "- ⚠ {remark}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{goal, report};

    fn judged() -> RunReport {
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

    fn render(r: &RunReport, format: RunFormat) -> String {
        let mut out = Vec::new();
        write(&mut out, r, format).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn text_has_every_section_within_80_columns() {
        let text = render(&judged(), RunFormat::Text);
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{line:?} is {} wide", line.chars().count());
        }
        let expected = [
            "keyheat run: orders / naive (DynamoDB)",
            "seed 7 · 60 min simulated, tick 1 s · 1 of 2 goals passed ✘",
            "  calls                  36,000 (18,000 reads, 18,000 writes)",
            "  throttled              40 requests (0.1% of requests); 2 gave up after",
            "  cost of the run        $0.01",
            "  cost per month         $8.86 (projected: the run's mean rates, final storage)",
            "  physical partitions    4 (1 split)",
            "  CUSTOMER#c0001             120 MB    150,000       900       300         2",
            "  ⚠ pending-orders reads 4,000 items per call to return 10",
            "  byStatus       GSI      9,000     0.5     5 MB     3,000    0.5 s         0",
            "    hottest key PENDING (peak 12 WCU/s)",
            "Access patterns (latency is modelled, not measured)",
            "✘ pending-orders Scan ×12              360     2 RCU   40 ms  180 ms 100 ms",
            "✔ customer-page  Query               9,000     2 RCU    4 ms    9 ms 20 ms",
            "  place-order    PutItem            18,000     1 WCU    5 ms    8 ms —",
            "  ⚠ pending-orders is a Scan: read units per call went from 20 to 400 as the",
            "Goals: 1 of 2 goals passed ✘",
            "  ✘ the warehouse never scans",
            "      pending-orders ran 360 Scans",
            "  - Latency is modelled: 4 ms per request plus 0.1 ms per 4 KB read.",
        ];
        for line in expected {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
        let order = ["Totals", "Partitions", "Indexes", "Access patterns", "Goals", "Notes"];
        let positions: Vec<usize> = order.iter().map(|h| text.find(&format!("\n{h}")).unwrap()).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
    }

    #[test]
    fn text_says_when_there_is_nothing_to_list() {
        let mut r = report();
        r.indexes.clear();
        r.partitions.top.clear();
        let text = render(&r, RunFormat::Text);
        assert!(
            text.contains("\nIndexes: none\n") && text.contains("\nGoals: none in this scenario\n"),
            "{text}"
        );
        assert!(text.contains("seed 7 · 60 min simulated, tick 1 s · no goals"), "{text}");
        assert!(!text.contains("top partitions"), "{text}");
    }

    #[test]
    fn markdown_has_tables_and_labels_latency_as_modelled() {
        let md = render(&judged(), RunFormat::Md);
        let expected = [
            "# orders / naive",
            "`keyheat run` · DynamoDB · seed 7 · 60 min simulated (tick 1 s) · **1 of 2 goals passed ✘**",
            "| cost per month | $8.86 (projected: the run's mean rates, final storage) |",
            "| `CUSTOMER#c0001` | 120 MB | 150,000 | 900 | 300 | 2 |",
            "| byStatus | GSI | 9,000 | 0.5 | 0 | 5 MB | 3,000 | 0.5 s | 0 | `PENDING` (12 WCU/s) |",
            "Latency is modelled, not measured (see the notes).",
            "| ✘ | pending-orders | Scan ×12 | 360 | 2 RCU | 20 → 400 | 40 ms | 180 ms | 100 ms |",
            "|  | place-order | PutItem | 18,000 | 1 WCU | 0 → 0 | 5 ms | 8 ms | — |",
            "- ⚠ pending-orders reads 4,000 items per call to return 10",
            "| ✘ | the warehouse never scans | pending-orders ran 360 Scans |",
            "- Latency is modelled: 4 ms per request plus 0.1 ms per 4 KB read.",
        ];
        for line in expected {
            assert!(md.lines().any(|l| l == line), "missing {line:?} in\n{md}");
        }
        // Every row of a table has as many cells as its header (escaped pipes are not borders).
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

    #[test]
    fn json_is_the_report_pretty_printed() {
        let r = judged();
        let json = render(&r, RunFormat::Json);
        assert!(json.ends_with("}\n") && json.starts_with("{\n  \"scenario\": \"orders\""), "{json}");
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["goals"][0]["unit"], "count");
        assert_eq!(value["totals"]["monthly_cost_usd"], 8.86);
        assert_eq!(value["partitions"]["top"].as_array().map(Vec::len), Some(2));
        assert_eq!(render(&r, RunFormat::Json), json, "the same report prints the same bytes");
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
}
