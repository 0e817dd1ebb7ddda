//! The run report as Markdown: the same sections as the text report, as tables, for a README or
//! an issue.

use std::io::{self, Write};

use super::{
    THROTTLED_LEGEND, TOP_PARTITIONS, goal_summary, index_legend, is_cassandra, latency_mark, ms,
    partition_rows, per_call_legend, remarks, served_by, totals_rows, units_per_call, words,
};
use crate::engine::planner::numbers;
use crate::engine::sim::report::{Fidelity, PartitionReport, RunReport};
use crate::report::markdown::{self, Align};

pub(super) fn write(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "# {} / {}", r.scenario, r.variant)?;
    writeln!(out)?;
    writeln!(
        out,
        "`keyheat run` · {}{} · seed {} · {} simulated (tick {}) · **{}**",
        r.engine,
        match r.fidelity {
            Fidelity::Operations => "",
            Fidelity::Rates => " · replayed as rates (expected values, median peaks)",
        },
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
    let cassandra = is_cassandra(r.engine);
    markdown_top_partitions(out, r, cassandra)?;
    if !r.partitions.nodes.is_empty() {
        let rows: Vec<Vec<String>> = r
            .partitions
            .nodes
            .iter()
            .map(|n| {
                vec![
                    n.node.clone(),
                    numbers::bytes(n.stored_bytes as f64),
                    numbers::count(n.ops as f64),
                    numbers::rate(n.peak_ops_per_s),
                    numbers::bytes(n.peak_bytes_per_s),
                ]
            })
            .collect();
        let columns = [
            ("ring node", Align::Left),
            ("stored", Align::Right),
            ("replica ops", Align::Right),
            ("peak ops/s", Align::Right),
            ("peak bytes/s", Align::Right),
        ];
        markdown::table(out, &columns, &rows)?;
    }
    if let Some(section) = super::shard_section(r) {
        writeln!(out, "## {}", section.title)?;
        writeln!(out)?;
        let columns =
            super::SHARD_COLUMNS.map(|c| (c, if c == "shard" { Align::Left } else { Align::Right }));
        let rows: Vec<Vec<String>> = section.rows.iter().map(|r| r.to_vec()).collect();
        markdown::table(out, &columns, &rows)?;
        for sentence in &section.summary {
            writeln!(out, "- {sentence}")?;
        }
        writeln!(out)?;
    }
    markdown_indexes(out, r)?;
    markdown_patterns(out, r)?;
    markdown_goals(out, r)?;
    if !r.notes.is_empty() {
        writeln!(out, "## Notes")?;
        writeln!(out)?;
        for note in &r.notes {
            writeln!(out, "- {}", note.replace('\n', " "))?;
        }
    }
    Ok(())
}

/// The table's largest and hottest partitions, then the indexes'.
fn markdown_top_partitions(out: &mut impl Write, r: &RunReport, cassandra: bool) -> io::Result<()> {
    let peaks = |p: &PartitionReport| {
        vec![
            format!("`{}`", p.key),
            numbers::bytes(p.bytes as f64),
            numbers::count(p.items as f64),
            numbers::rate(p.peak_rcu_per_s),
            numbers::rate(p.peak_wcu_per_s),
        ]
    };
    // A store that meters nothing counts operations, and throttles nothing (Cassandra, MongoDB).
    let throttles = r.engine.profile().metered();
    let (read, write) = if !throttles {
        ("peak reads/s", "peak writes/s")
    } else if r.engine.profile().request_units() {
        ("peak read RU/s", "peak write RU/s")
    } else {
        ("peak RCU/s", "peak WCU/s")
    };
    let items = words(r.engine).items;
    if !r.partitions.top.is_empty() {
        let rows: Vec<Vec<String>> = super::shown(&r.partitions.top, TOP_PARTITIONS)
            .into_iter()
            .map(|p| {
                let mut row = peaks(p);
                if throttles {
                    row.push(numbers::count(p.throttled_attempts.unwrap_or(p.throttled_ops) as f64));
                }
                row
            })
            .collect();
        let mut columns = vec![
            ("top partition", Align::Left),
            ("size", Align::Right),
            (items, Align::Right),
            (read, Align::Right),
            (write, Align::Right),
        ];
        if throttles {
            columns.push(("throttled attempts", Align::Right));
        }
        markdown::table(out, &columns, &rows)?;
        if throttles {
            writeln!(out, "{}", markdown::escape(THROTTLED_LEGEND))?;
            writeln!(out)?;
        }
    }
    if !r.partitions.index_top.is_empty() {
        let rows: Vec<Vec<String>> = super::shown(&r.partitions.index_top, TOP_PARTITIONS)
            .into_iter()
            .map(|p| {
                let mut row = peaks(p);
                row.push(p.index.clone().unwrap_or_default());
                row
            })
            .collect();
        let (title, last) =
            if cassandra { ("top view partition", "view") } else { ("top index partition", "index") };
        let columns = [
            (title, Align::Left),
            ("size", Align::Right),
            (items, Align::Right),
            (read, Align::Right),
            (write, Align::Right),
            (last, Align::Left),
        ];
        markdown::table(out, &columns, &rows)?;
        writeln!(out, "{}", markdown::escape(&index_legend(r)))?;
        writeln!(out)?;
    }
    Ok(())
}

fn markdown_indexes(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "## {}", words(r.engine).indexes)?;
    writeln!(out)?;
    if r.indexes.is_empty() {
        writeln!(out, "None.")?;
        return writeln!(out);
    }
    if is_cassandra(r.engine) {
        return markdown_views(out, r);
    }
    if !r.engine.profile().index_entries.are_items() {
        // MongoDB: each entry the indexed values and a record id; no units, lag or throttling.
        let rows: Vec<Vec<String>> = r
            .indexes
            .iter()
            .map(|i| {
                let (name, figures) = super::key_index_row(i);
                std::iter::once(name).chain(figures).collect()
            })
            .collect();
        let mut columns = vec![("index", Align::Left)];
        columns.extend(super::KEY_INDEX_COLUMNS.map(|c| (c, Align::Right)));
        return markdown::table(out, &columns, &rows);
    }
    let rows: Vec<Vec<String>> = r
        .indexes
        .iter()
        .map(|i| {
            vec![
                i.name.clone(),
                i.kind.short().to_owned(),
                numbers::count(i.wcu),
                numbers::factor(i.wcu_vs_table),
                numbers::count(i.rcu),
                numbers::bytes(i.bytes as f64),
                numbers::count(i.items as f64),
                numbers::span(i.max_lag_s),
                numbers::count(i.throttled_ops as f64),
                numbers::count(i.partitions as f64),
                numbers::bytes(i.max_partition_bytes as f64),
                i.hottest_key.as_ref().map_or_else(
                    || "—".to_owned(),
                    |k| format!("`{k}` (peak {} WCU/s)", numbers::rate(i.hottest_key_peak_wcu_per_s)),
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
        ("partitions", Align::Right),
        ("largest", Align::Right),
        ("hottest key (peak)", Align::Left),
    ];
    markdown::table(out, &columns, &rows)
}

/// The Cassandra profile's materialized views: the rows written for them, no units.
fn markdown_views(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    let rows: Vec<Vec<String>> = r
        .indexes
        .iter()
        .map(|i| {
            vec![
                i.name.clone(),
                numbers::count(i.entry_writes as f64),
                numbers::bytes(i.bytes as f64),
                numbers::count(i.items as f64),
                numbers::count(i.partitions as f64),
                numbers::bytes(i.max_partition_bytes as f64),
                i.hottest_key.as_ref().map_or_else(
                    || "—".to_owned(),
                    |k| format!("`{k}` (peak {} writes/s)", numbers::rate(i.hottest_key_peak_wcu_per_s)),
                ),
            ]
        })
        .collect();
    let columns = [
        ("view", Align::Left),
        ("view writes", Align::Right),
        ("size", Align::Right),
        ("rows", Align::Right),
        ("partitions", Align::Right),
        ("largest", Align::Right),
        ("hottest key (peak)", Align::Left),
    ];
    markdown::table(out, &columns, &rows)?;
    writeln!(out, "{}", markdown::escape(super::VIEW_COST))?;
    writeln!(out)
}

fn markdown_patterns(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "## Access patterns")?;
    writeln!(out)?;
    let latency = match r.fidelity {
        Fidelity::Operations => "Latency is modelled, not measured (see the notes).",
        Fidelity::Rates => "Replayed as rates: latency and items per call are not modelled.",
    };
    writeln!(out, "{latency}")?;
    writeln!(out)?;
    // Cassandra has no read units to follow over the run: its cost per call is rows read.
    let cassandra = is_cassandra(r.engine);
    let rows: Vec<Vec<String>> = r
        .patterns
        .iter()
        .map(|p| {
            let mut row = vec![
                latency_mark(p).trim().to_owned(),
                p.name.clone(),
                served_by(p, r.engine),
                numbers::count(p.calls as f64),
                units_per_call(p, r.engine),
            ];
            if !cassandra {
                let figure = |x: Option<f64>| x.map_or_else(|| "—".to_owned(), numbers::factor);
                row.push(format!("{} → {}", figure(p.rcu_per_call_start), figure(p.rcu_per_call_end)));
            }
            row.extend([
                super::latency_cell(p, p.latency_ms_p50),
                super::p99_cell(p, true),
                p.latency_target_ms.map_or_else(|| "—".to_owned(), ms),
            ]);
            row
        })
        .collect();
    let mut columns = vec![
        ("", Align::Left),
        ("pattern", Align::Left),
        ("served by", Align::Left),
        ("calls", Align::Right),
        (if cassandra { "rows per call" } else { "units per call" }, Align::Right),
    ];
    if r.engine.profile().request_units() {
        columns.push(("read RU per call, first → last tenth", Align::Right));
    } else if !cassandra {
        columns.push(("RCU per call, first → last tenth", Align::Right));
    }
    columns.extend([
        ("p50 (modelled)", Align::Right),
        ("p99 (modelled)", Align::Right),
        ("target", Align::Right),
    ]);
    markdown::table(out, &columns, &rows)?;
    if let Some(legend) = per_call_legend(r) {
        writeln!(out, "{}", markdown::escape(&legend))?;
        writeln!(out)?;
    }
    let remarks: Vec<String> = r.patterns.iter().flat_map(|p| remarks(p, r.engine)).collect();
    if !remarks.is_empty() {
        for remark in remarks {
            writeln!(out, "- ⚠ {remark}")?;
        }
        writeln!(out)?;
    }
    let notes = super::cache_notes(r);
    if !notes.is_empty() {
        for note in notes {
            writeln!(out, "- {}", markdown::escape(&note))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The goals table; a failed goal's result says what it means (`verdict::explain`).
fn markdown_goals(out: &mut impl Write, r: &RunReport) -> io::Result<()> {
    writeln!(out, "## Goals")?;
    writeln!(out)?;
    if r.goals.is_empty() {
        writeln!(out, "None in this scenario.")?;
        writeln!(out)?;
    } else {
        let rows: Vec<Vec<String>> = r
            .goals
            .iter()
            .map(|g| {
                let detail = match (super::super::verdict::explain(r, g), &g.hint) {
                    (Some(why), Some(hint)) => {
                        format!("{} — {why} — {}", g.detail, super::super::verdict::inline_hint(hint))
                    }
                    (Some(why), None) => format!("{} — {why}", g.detail),
                    (None, _) => g.detail.clone(),
                };
                vec![super::goal_mark(g.status).to_owned(), super::goal_title(g), detail]
            })
            .collect();
        markdown::table(out, &[("", Align::Left), ("goal", Align::Left), ("result", Align::Left)], &rows)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::judged_report;

    #[test]
    fn markdown_has_tables_and_labels_latency_as_modelled() {
        let md = render(&judged_report());
        let expected = [
            "# orders / naive",
            "`keyheat run` · DynamoDB · seed 7 · 60 min simulated (tick 1 s) · **1 of 2 goals passed ✘**",
            "| cost per month | $8.86 (projected from the run) |",
            "| `CUSTOMER#c0001` | 120 MB | 150,000 | 900 | 300 | 2 |",
            "| top partition | size | items | peak RCU/s | peak WCU/s | throttled attempts |",
            "throttled attempts: reads and writes the partition refused, every retry counted again (the totals count each throttled request once; a Scan page names no key and is counted in the totals only)",
            "| top index partition | size | items | peak RCU/s | peak WCU/s | index |",
            "| `PENDING` | 4 MB | 2,500 | 30 | 10 | byStatus |",
            "An index's throttles are counted per index, under Indexes. A GSI partition's WCU/s are its index writes as the table's writes landed; the GSI applies at most 1,000 a second per partition and queues the rest.",
            "| hottest key, writes | 300 WCU/s at its peak: CUSTOMER#c0001 in the table |",
            "| byStatus | GSI | 9,000 | 0.5 | 0 | 5 MB | 3,000 | 0.5 s | 0 | 2 | 4 MB | `PENDING` (peak 12 WCU/s) |",
            "Latency is modelled, not measured (see the notes).",
            "| ✘ | pending-orders | Scan ×12 | 360 | 2 RCU | 20 → 400 | 40 ms | 180 ms | 100 ms |",
            "|  | place-order | PutItem | 18,000 | 1 WCU | 0 → 0 | 5 ms | 8 ms | — |",
            "- ⚠ pending-orders reads 4,000 items per call to return 10",
            "- Latency is modelled: 4 ms per request plus 0.1 ms per 4 KB read.",
        ];
        for line in expected {
            assert!(md.lines().any(|l| l == line), "missing {line:?} in\n{md}");
        }
        // A failed goal's result says what it means.
        let failed =
            "| ✘ | the warehouse never scans | pending-orders ran 360 Scans — the pattern runs a Scan";
        assert!(md.lines().any(|l| l.starts_with(failed)), "missing {failed:?} in\n{md}");
        crate::engine::testing::assert_tables_are_whole(&md);
    }

    #[test]
    fn a_failed_goal_links_its_hint_inline() {
        let mut r = judged_report();
        r.goals[0].hint =
            Some(crate::engine::sim::report::GoalHint { number: 2, text: "Index the status.".to_owned() });
        let md = render(&r);
        assert!(
            md.lines().any(|l| l.starts_with("| ✘ | the warehouse never scans |")
                && l.ends_with("keyed by what the pattern is given — see hint 2: Index the status. |")),
            "{md}"
        );
    }

    fn render(r: &RunReport) -> String {
        let mut out = Vec::new();
        write(&mut out, r).unwrap();
        String::from_utf8(out).unwrap()
    }
}
