//! The run report as text for an 80-column terminal: labelled figures, then tables with
//! right-aligned numbers, then remarks and goals as wrapped paragraphs.

use std::io::{self, Write};

use super::{
    THROTTLED_LEGEND, TOP_PARTITIONS, goal_summary, index_legend, is_cassandra, latency_mark, ms,
    partition_rows, per_call_legend, plural, remarks, served_by, totals_rows, units_per_call, words,
};
use crate::engine::planner::numbers;
use crate::engine::sim::report::{Fidelity, IndexType, PartitionReport, RunReport};
use crate::report::text::{WIDTH, paragraph, row, wrap};

/// Width of a figure's label.
const LABEL: usize = 22;

/// How the report's figures were made, when not call by call (the default the header leaves
/// unsaid): a rates replay's sums are expected values and its maxima medians.
fn fidelity_words(r: &RunReport) -> &'static str {
    match r.fidelity {
        Fidelity::Operations => "",
        Fidelity::Rates => ", replayed as rates: expected values and median peaks",
    }
}

pub(super) fn write(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    paragraph(
        out,
        0,
        &format!("keyheat run: {} / {} ({}{})", r.scenario, r.variant, r.engine, fidelity_words(r)),
    )?;
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
    text_nodes(out, r)?;
    text_shards(out, r)?;
    text_indexes(out, r)?;
    text_patterns(out, r)?;
    text_goals(out, r)?;
    if !r.notes.is_empty() {
        writeln!(out)?;
        writeln!(out, "Notes")?;
        for note in &r.notes {
            item(out, 2, "-", note)?;
        }
    }
    Ok(())
}

/// The table's largest and hottest partitions, then the indexes' (each list largest first, so
/// big index partitions do not push the table's out of sight).
fn text_top_partitions(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    let cassandra = is_cassandra(r.engine);
    let w = [1, 24, 8, 10, 9, 9, 13];
    let line = |out: &mut _, c: [&str; 7]| {
        let cells: Vec<(&str, usize)> = c.iter().copied().zip(w).collect();
        row(out, &cells)
    };
    let header = |title, last: &str| {
        [
            "",
            title,
            &format!("{:>8}", "size"),
            &format!("{:>10}", words(r.engine).items),
            &format!("{:>9}", r.engine.words().peak_reads),
            &format!("{:>9}", r.engine.words().peak_writes),
            last,
        ]
        .map(str::to_owned)
    };
    let cells = |p: &PartitionReport, last: String| {
        [
            String::new(),
            p.key.clone(),
            format!("{:>8}", numbers::bytes(p.bytes as f64)),
            format!("{:>10}", numbers::count(p.items as f64)),
            format!("{:>9}", numbers::rate(p.peak_rcu_per_s)),
            format!("{:>9}", numbers::rate(p.peak_wcu_per_s)),
            last,
        ]
    };
    let print = |out: &mut _, c: [String; 7]| line(out, c.each_ref().map(String::as_str));
    let table = &r.partitions.top;
    if !table.is_empty() && !r.engine.profile().metered() {
        // A store that meters nothing throttles nothing (Cassandra, MongoDB): no attempts column.
        writeln!(out)?;
        print(out, header("top partitions", ""))?;
        for p in super::shown(table, TOP_PARTITIONS) {
            print(out, cells(p, String::new()))?;
        }
    } else if !table.is_empty() {
        writeln!(out)?;
        line(out, ["", "", "", "", "", "", &format!("{:>9}", "throttled")])?;
        print(out, header("top partitions", &format!("{:>9}", "attempts")))?;
        for p in super::shown(table, TOP_PARTITIONS) {
            let attempts = p.throttled_attempts.unwrap_or(p.throttled_ops);
            print(out, cells(p, format!("{:>9}", numbers::count(attempts as f64))))?;
        }
        paragraph(out, 2, THROTTLED_LEGEND)?;
    }
    let indexes = &r.partitions.index_top;
    if !indexes.is_empty() {
        writeln!(out)?;
        let (title, last) =
            if cassandra { ("top view partitions", "view") } else { ("top index partitions", "index") };
        print(out, header(title, last))?;
        for p in super::shown(indexes, TOP_PARTITIONS) {
            print(out, cells(p, p.index.clone().unwrap_or_default()))?;
        }
        paragraph(out, 2, &index_legend(r))?;
    }
    Ok(())
}

/// The Cassandra ring: how evenly the replicas spread.
fn text_nodes(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    if r.partitions.nodes.is_empty() {
        return Ok(());
    }
    let w = [1, 12, 10, 14, 14, 14];
    let line = |out: &mut _, c: [&str; 6]| {
        let cells: Vec<(&str, usize)> = c.iter().copied().zip(w).collect();
        row(out, &cells)
    };
    writeln!(out)?;
    line(
        out,
        [
            "",
            "ring node",
            &format!("{:>10}", "stored"),
            &format!("{:>14}", "replica ops"),
            &format!("{:>14}", "peak ops/s"),
            &format!("{:>14}", "peak bytes/s"),
        ],
    )?;
    for n in &r.partitions.nodes {
        line(
            out,
            [
                "",
                &n.node,
                &format!("{:>10}", numbers::bytes(n.stored_bytes as f64)),
                &format!("{:>14}", numbers::count(n.ops as f64)),
                &format!("{:>14}", numbers::rate(n.peak_ops_per_s)),
                &format!("{:>14}", numbers::bytes(n.peak_bytes_per_s)),
            ],
        )?;
    }
    Ok(())
}

/// A sharded collection's shards (MongoDB), then what the balancer did.
fn text_shards(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    let Some(section) = super::shard_section(r) else { return Ok(()) };
    writeln!(out)?;
    paragraph(out, 0, &section.title)?;
    let w = [1, 7, 9, 9, 8, 15, 14, 6, 5];
    let line = |out: &mut _, c: &[String; 8]| {
        let mut cells: Vec<(String, usize)> = vec![(String::new(), w[0])];
        for (i, cell) in c.iter().enumerate() {
            let width = w[i + 1];
            cells.push((if i == 0 { cell.clone() } else { format!("{cell:>width$}") }, width));
        }
        let cells: Vec<(&str, usize)> = cells.iter().map(|(c, w)| (c.as_str(), *w)).collect();
        row(out, &cells)
    };
    line(out, &super::SHARD_COLUMNS.map(str::to_owned))?;
    for cells in &section.rows {
        line(out, cells)?;
    }
    for sentence in &section.summary {
        item(out, 2, "-", sentence)?;
    }
    Ok(())
}

fn text_indexes(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out)?;
    if r.indexes.is_empty() {
        return writeln!(out, "{}: none", words(r.engine).indexes);
    }
    if is_cassandra(r.engine) {
        return text_views(out, r);
    }
    if !r.engine.profile().index_entries.are_items() {
        return text_key_indexes(out, r);
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
                i.kind.short(),
                &format!("{:>9}", numbers::count(i.wcu)),
                &format!("{:>7}", numbers::factor(i.wcu_vs_table)),
                &format!("{:>8}", numbers::bytes(i.bytes as f64)),
                &format!("{:>9}", numbers::count(i.items as f64)),
                &format!("{:>8}", numbers::span(i.max_lag_s)),
                &format!("{:>9}", numbers::count(i.throttled_ops as f64)),
            ],
        )?;
        let mut detail = vec![format!(
            "{}, the largest {}",
            plural(i.partitions, "partition", "partitions"),
            numbers::bytes(i.max_partition_bytes as f64)
        )];
        if let Some(key) = &i.hottest_key {
            detail.push(format!(
                "hottest key {key} (peak {} WCU/s)",
                numbers::rate(i.hottest_key_peak_wcu_per_s)
            ));
        }
        // A GSI meters its own physical partitions (an LSI's are the table's).
        if i.kind == IndexType::Global && i.peak_wcu_per_s > 0.0 {
            detail.push(format!(
                "busiest physical partition {} WCU/s at peak",
                numbers::rate(i.peak_wcu_per_s)
            ));
        }
        if i.rcu > 0.0 {
            detail.push(format!("{} RCU read from it", numbers::count(i.rcu)));
        }
        paragraph(out, 4, &detail.join("; "))?;
    }
    Ok(())
}

/// Indexes whose entries are keys and record ids (MongoDB): no units, no lag, no throttling;
/// what they hold and how often a write changed them.
fn text_key_indexes(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "Indexes (each entry the indexed values and a record id)")?;
    let w = [1, 20, 10, 12, 14, 14];
    let line = |out: &mut _, name: &str, c: [&str; 4]| {
        let cells = [
            String::new(),
            name.to_owned(),
            format!("{:>10}", c[0]),
            format!("{:>12}", c[1]),
            format!("{:>14}", c[2]),
            format!("{:>14}", c[3]),
        ];
        let cells: Vec<(&str, usize)> = cells.iter().map(String::as_str).zip(w).collect();
        row(out, &cells)
    };
    line(out, "name", super::KEY_INDEX_COLUMNS)?;
    for i in &r.indexes {
        let (name, figures) = super::key_index_row(i);
        line(out, &name, figures.each_ref().map(String::as_str))?;
    }
    Ok(())
}

/// The Cassandra profile's materialized views: the rows Cassandra writes for them (a base write
/// that changes a view's key writes a tombstone for the old view row and the new row), no units.
fn text_views(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "Materialized views")?;
    let w = [1, 24, 12, 10, 10, 11];
    let line = |out: &mut _, c: [&str; 6]| {
        let cells: Vec<(&str, usize)> = c.iter().copied().zip(w).collect();
        row(out, &cells)
    };
    line(
        out,
        [
            "",
            "view",
            &format!("{:>12}", "view writes"),
            &format!("{:>10}", "size"),
            &format!("{:>10}", "rows"),
            &format!("{:>11}", "partitions"),
        ],
    )?;
    for i in &r.indexes {
        line(
            out,
            [
                "",
                &i.name,
                &format!("{:>12}", numbers::count(i.entry_writes as f64)),
                &format!("{:>10}", numbers::bytes(i.bytes as f64)),
                &format!("{:>10}", numbers::count(i.items as f64)),
                &format!("{:>11}", numbers::count(i.partitions as f64)),
            ],
        )?;
        let mut detail =
            vec![format!("the largest partition {}", numbers::bytes(i.max_partition_bytes as f64))];
        if let Some(key) = &i.hottest_key {
            detail.push(format!(
                "hottest key {key} (peak {} writes/s)",
                numbers::rate(i.hottest_key_peak_wcu_per_s)
            ));
        }
        paragraph(out, 4, &detail.join("; "))?;
    }
    paragraph(out, 2, super::VIEW_COST)
}

fn text_patterns(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "Access patterns ({})", super::latency_words(r))?;
    let w = [1, 14, 13, 11, 9, 9, 9, 6];
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
            &format!("{:>9}", "p50"),
            &format!("{:>9}", "p99"),
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
                &served_by(p, r.engine),
                &format!("{:>11}", numbers::count(p.calls as f64)),
                &format!("{:>9}", units_per_call(p, r.engine)),
                &format!("{:>9}", super::latency_cell(p, p.latency_ms_p50)),
                &format!("{:>9}", super::p99_cell(p, false)),
                &target,
            ],
        )?;
    }
    if let Some(legend) = per_call_legend(r) {
        paragraph(out, 2, &legend)?;
    }
    let remarks: Vec<String> = r.patterns.iter().flat_map(|p| remarks(p, r.engine)).collect();
    for remark in remarks {
        item(out, 2, "⚠", &remark)?;
    }
    for note in super::cache_notes(r) {
        item(out, 2, "·", &note)?;
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
        item(out, 2, super::goal_mark(g.status), &super::goal_title(g))?;
        paragraph(out, 4, &g.detail)?;
        if let Some(why) = super::super::verdict::explain(r, g) {
            match g.hint.as_ref().map(super::super::verdict::hint_link) {
                Some((link, own_line)) => {
                    item(out, 4, "→", &format!("{why} — {link}"))?;
                    if let Some(own_line) = own_line {
                        paragraph(out, 6, &own_line)?;
                    }
                }
                None => item(out, 4, "→", &why)?,
            }
        }
    }
    Ok(())
}

/// A marked item with a hanging indent: wrapped lines align under the text, not the marker.
fn item(out: &mut impl Write, indent: usize, marker: &str, text: &str) -> io::Result<()> {
    let hang = indent + marker.chars().count() + 1;
    for (i, line) in wrap(text, WIDTH - hang).iter().enumerate() {
        if i == 0 {
            writeln!(out, "{}{marker} {line}", " ".repeat(indent))?;
        } else {
            writeln!(out, "{}{line}", " ".repeat(hang))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{judged_report, report};

    #[test]
    fn the_header_says_when_a_report_was_replayed_as_rates() {
        // (fidelity, words in the header)
        let cases = [(Fidelity::Operations, None), (Fidelity::Rates, Some("replayed as rates"))];
        for (fidelity, words) in cases {
            let mut r = judged_report();
            r.fidelity = fidelity;
            let text = render(&r);
            let header: String = text.lines().take(2).collect::<Vec<_>>().join(" ");
            assert_eq!(header.contains("replayed as rates"), words.is_some(), "{header}");
            let mut md = Vec::new();
            super::super::md::write(&mut md, &r).unwrap();
            let md = String::from_utf8(md).unwrap();
            assert_eq!(
                md.lines().nth(2).is_some_and(|l| l.contains("replayed as rates")),
                words.is_some(),
                "{md}"
            );
        }
    }

    #[test]
    fn text_has_every_section_within_80_columns() {
        let text = render(&judged_report());
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{line:?} is {} wide", line.chars().count());
        }
        let expected = [
            "keyheat run: orders / naive (DynamoDB)",
            "seed 7 · 60 min simulated, tick 1 s · 1 of 2 goals passed ✘",
            "  calls                  36,000 (18,000 reads, 18,000 writes)",
            "  throttled              40 requests (0.1% of requests), 44 retries; 2 gave up",
            "  cost of the run        $0.01",
            "  cost per month         $8.86 (projected from the run)",
            "  logical partitions     5,000 in the table, 2 in byStatus",
            "  physical partitions    4 in the table (1 split: 0 for size, 1 for heat; 2",
            "                         heat splits refused: one key carried the load)",
            "  largest                120 MB, 150,000 items: CUSTOMER#c0001 in the table",
            "  hottest key, reads     900 RCU/s at its peak: CUSTOMER#c0001 in the table",
            "  hottest key, writes    300 WCU/s at its peak: CUSTOMER#c0001 in the table",
            "  busiest physical       table 2,400 RCU/s, 900 WCU/s; byStatus 12 WCU/s at",
            "    2 partitions, the largest 4 MB; hottest key PENDING (peak 12 WCU/s); busiest",
            "    physical partition 12 WCU/s at peak",
            "                                                                   throttled",
            "  top partitions               size      items  RCU/s pk  WCU/s pk  attempts",
            "  CUSTOMER#c0001             120 MB    150,000       900       300         2",
            "  throttled attempts: reads and writes the partition refused, every retry",
            "  top index partitions         size      items  RCU/s pk  WCU/s pk index",
            "  PENDING                      4 MB      2,500        30        10 byStatus",
            "  per call: for a write, write units per write that landed (a call that gave up",
            "  ⚠ pending-orders reads 4,000 items per call to return 10",
            "  byStatus       GSI      9,000     0.5     5 MB     3,000    0.5 s         0",
            "Access patterns (latency is modelled, not measured)",
            "✘ pending-orders Scan ×12              360     2 RCU     40 ms    180 ms 100 ms",
            "✔ customer-page  Query               9,000     2 RCU      4 ms      9 ms 20 ms",
            "  place-order    PutItem            18,000     1 WCU      5 ms      8 ms —",
            "  ⚠ pending-orders is a Scan: read units per call went from 20 to 400 as the",
            "    table grew",
            "Goals: 1 of 2 goals passed ✘",
            "  ✘ the warehouse never scans",
            "    pending-orders ran 360 Scans",
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
    fn a_failed_goal_points_at_its_practice_hint() {
        use crate::engine::sim::report::GoalHint;
        let mut r = judged_report();
        let long = "No item holds a customer's lifetime spend. Which write could keep it up to date?";
        r.goals[0].hint = Some(GoalHint { number: 1, text: long.to_owned() });
        // A passed goal needs no hint, even when it links one.
        r.goals[1].hint = Some(GoalHint { number: 3, text: "Shard it.".to_owned() });
        let text = render(&r);
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("costs more as the table grows — add an index (or sort key) keyed by what the pattern is given — see hint 1 Hint 1: No item holds"), "{text}");
        assert!(text.contains("\n      Hint 1: No item holds a customer's lifetime spend."), "{text}");
        assert!(!text.contains("hint 3"), "{text}");
        // A short hint follows on the line that links it.
        r.goals[0].hint = Some(GoalHint { number: 2, text: "Shard it.".to_owned() });
        let text = render(&r);
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("keyed by what the pattern is given — see hint 2: Shard it. ✔ no throttling"),
            "{text}"
        );
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
    }

    #[test]
    fn lists_the_cassandra_ring() {
        let mut r = report();
        r.partitions.nodes = vec![crate::engine::sim::report::NodeReport {
            node: "node 1".to_owned(),
            stored_bytes: 3 * 1024 * 1024,
            ops: 120_000,
            peak_ops_per_s: 40.0,
            peak_bytes_per_s: 20_480.0,
        }];
        let text = render(&r);
        assert!(
            text.contains("\n  ring node        stored    replica ops     peak ops/s   peak bytes/s\n"),
            "{text}"
        );
        assert!(
            text.contains("\n  node 1             3 MB        120,000             40          20 KB\n"),
            "{text}"
        );
    }

    #[test]
    fn text_says_when_there_is_nothing_to_list() {
        let mut r = report();
        r.indexes.clear();
        r.partitions.top.clear();
        r.partitions.index_top.clear();
        let text = render(&r);
        assert!(
            text.contains("\nIndexes: none\n") && text.contains("\nGoals: none in this scenario\n"),
            "{text}"
        );
        assert!(text.contains("seed 7 · 60 min simulated, tick 1 s · no goals"), "{text}");
        assert!(!text.contains("top partitions") && !text.contains("top index partitions"), "{text}");
    }

    #[test]
    fn an_index_s_hottest_key_shows_its_own_peak_and_a_physical_partition_s_says_so() {
        // (kind, the key's peak, the busiest physical partition's, what the index's line says)
        let cases = [
            (
                IndexType::Global,
                160.0,
                806.0,
                "hottest key PENDING (peak 160 WCU/s); busiest physical partition 806 WCU/s at peak",
            ),
            // An LSI's partitions are the table's: no physical figure of its own.
            (IndexType::Local, 160.0, 806.0, "hottest key PENDING (peak 160 WCU/s)"),
        ];
        for (kind, key_peak, physical_peak, want) in cases {
            let mut r = report();
            let i = &mut r.indexes[0];
            (i.kind, i.hottest_key_peak_wcu_per_s, i.peak_wcu_per_s) = (kind, key_peak, physical_peak);
            let text = render(&r);
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat.contains(want), "{kind:?}: missing {want:?} in\n{text}");
            assert!(!flat.contains("hottest key PENDING (peak 806"), "{kind:?}: {text}");
        }
    }

    #[test]
    fn an_index_partition_hotter_than_the_table_heads_the_partitions() {
        let mut r = report();
        let hot = &mut r.partitions.index_top[0];
        (hot.key, hot.peak_wcu_per_s, hot.bytes) = ("season-12".to_owned(), 1_000.0, 200 * 1024 * 1024);
        let text = render(&r);
        for line in [
            "  largest                200 MB, 2,500 items: season-12 in index byStatus",
            "  hottest key, reads     900 RCU/s at its peak: CUSTOMER#c0001 in the table",
            "  hottest key, writes    1,000 WCU/s at its peak: season-12 in index byStatus",
            "                         (index writes as the table's writes landed; a GSI",
            "                         partition applies at most 1,000 a second and queues",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
        let first = text.lines().skip_while(|l| !l.starts_with("  top index partitions")).nth(1);
        assert_eq!(
            first,
            Some("  season-12                  200 MB      2,500        30     1,000 byStatus")
        );
        // The table's partitions keep their own list, ahead of the indexes'.
        let table = text.lines().skip_while(|l| !l.starts_with("  top partitions")).nth(1);
        assert_eq!(
            table,
            Some("  CUSTOMER#c0001             120 MB    150,000       900       300         2")
        );
    }

    #[test]
    fn a_write_costs_what_a_landed_write_costs() {
        // 18,000 calls; 1,800 gave up after retries and wrote nothing: 16,200 WCU in all.
        let mut r = report();
        let place = &mut r.patterns[2];
        (place.failed, place.landed_writes, place.wcu) = (1_800, Some(16_200), 16_200.0);
        let text = render(&r);
        // A tenth never completed: the p99 call is one of them and has no latency.
        let line = "  place-order    PutItem            18,000     1 WCU      5 ms         — —";
        assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        assert_eq!(
            super::super::per_call(&r.patterns[2], crate::engine::model::Engine::DynamoDb),
            Some((0.9, "WCU"))
        );
        // Side writes failed too: landed writes are unknown, so the cost is per call and says so.
        r.patterns[2].landed_writes = None;
        let text = render(&r);
        assert!(text.contains("0.9 WCU"), "{text}");
        assert!(text.contains("place-order per call, calls that gave up included"), "{text}");
    }

    fn render(r: &RunReport) -> String {
        let mut out = Vec::new();
        write(&mut out, r).unwrap();
        String::from_utf8(out).unwrap()
    }
}
