//! The comparison as text for an 80-column terminal: a label column, then one column per variant
//! (each cell its value and its delta against the baseline), then each pattern variant by variant.

use std::io::{self, Write};

use super::{Comparison, cost_cell, figure_cell, goal_cell, index_notes, mark, pass_line};
use crate::engine::goals::GoalUnit;
use crate::engine::planner::numbers;
use crate::report::run::ms;
use crate::report::text::{WIDTH, paragraph, row};

/// Text columns: a label, then one per variant.
const LABEL: usize = 22;

fn column_width(variants: usize) -> usize {
    ((WIDTH - LABEL - 1).saturating_sub(variants.saturating_sub(1)) / variants.max(1)).max(8)
}

pub(super) fn write(out: &mut impl Write, c: &Comparison) -> io::Result<()> {
    let width = column_width(c.columns.len());
    let columns = |out: &mut _, label: &str, cells: &[String]| {
        let mut all: Vec<(&str, usize)> = vec![(label, LABEL)];
        all.extend(cells.iter().map(|s| (s.as_str(), width)));
        row(out, &all)
    };
    paragraph(
        out,
        0,
        &format!(
            "keyheat compare: {} ({}) · seed {} · {} simulated",
            c.scenario,
            c.stores(),
            c.seed,
            numbers::span(c.duration_s)
        ),
    )?;
    paragraph(
        out,
        0,
        &format!(
            "{} {}",
            c.deltas_words(),
            if c.as_rates() {
                "Replayed as rates: expected values and median peaks; latency is not modelled."
            } else {
                "Latency is modelled."
            }
        ),
    )?;
    writeln!(out)?;
    let names = &c.columns;
    columns(out, "Key figures", names)?;
    for f in &c.figures {
        let cells: Vec<String> = (0..c.columns.len()).map(|i| figure_cell(f, i)).collect();
        columns(out, f.label, &cells)?;
    }
    for note in index_notes(c) {
        paragraph(out, 0, note)?;
    }
    if !c.goals.is_empty() {
        writeln!(out)?;
        columns(out, "Goals", names)?;
        for g in &c.goals {
            let cells: Vec<String> = g.results.iter().map(|cell| goal_cell(g, cell.as_ref())).collect();
            columns(out, &g.name, &cells)?;
        }
        writeln!(out)?;
        paragraph(out, 0, &pass_line(c))?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Access patterns (p99 latency is {})",
        if c.as_rates() { "not modelled: replayed as rates" } else { "modelled" }
    )?;
    let name_width = c.columns.iter().map(|v| v.chars().count()).max().unwrap_or(8).clamp(8, 16);
    for p in &c.patterns {
        let target = p.latency_target_ms.map_or_else(String::new, |t| format!(" (target {})", ms(t)));
        paragraph(out, 0, &format!("{}{target}", p.name))?;
        for (i, (variant, run)) in c.columns.iter().zip(&p.runs).enumerate() {
            let Some(run) = run else {
                row(out, &[("", 1), (variant, name_width), ("not in this report", 40)])?;
                continue;
            };
            let meets = run.meets_target.map_or(" ", mark);
            let per_call = cost_cell(run);
            let p99 = format!("p99 {}", run.latency_ms_p99.map_or_else(|| "—".to_owned(), ms));
            let delta = match (run.latency_ms_p99_completed, run.p99_delta) {
                (Some(completed), _) => format!("p99 call never completed (> {})", ms(completed)),
                _ if i == 0 => String::new(),
                (None, delta) => delta.map_or_else(String::new, |d| d.describe(GoalUnit::Milliseconds)),
            };
            let rest = WIDTH - (1 + 1) - (name_width + 1) - (18 + 1) - (15 + 1) - (13 + 1);
            row(
                out,
                &[
                    (meets, 1),
                    (variant, name_width),
                    (&run.served_by, 18),
                    (&per_call, 15),
                    (&p99, 13),
                    (&delta, rest),
                ],
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::engine::sim::report::RunReport;
    use crate::engine::testing::compared_reports;
    use crate::report::RunFormat;

    #[test]
    fn text_lines_up_variants_within_80_columns() {
        let mut reports = compared_reports();
        let mut third = reports[1].clone();
        third.variant = "daily-buckets".to_owned();
        reports.push(third);
        for n in [2, 3] {
            let text = render(&reports[..n]);
            for line in text.lines() {
                assert!(line.chars().count() <= 80, "{n} variants: {line:?}");
            }
        }
        let text = render(&reports[..2]);
        let expected = [
            "keyheat compare: orders (DynamoDB) · seed 7 · 60 min simulated",
            "Key figures            naive                        recommended",
            "cost per month         $100.00                      $25.00 -$75.00 (-75%)",
            "goals passed           1                            2 +1 (+100%)",
            "never scans            ✘ 3                          ✔ 1",
            "Passes every goal: recommended.",
            "pending-orders (target 100 ms)",
            "✘ naive       Scan ×12           2 RCU/call      p99 180 ms",
            "✔ recommended Query on byStatus  1 RCU/call      p99 9 ms      -171 ms (-95%)",
            "  naive       PutItem            1 WCU/write     p99 8 ms",
            // With indexes, the table's partition figures say so and the indexes' are there too.
            "largest (table)        120 MB                       0 B -120 MB (-100%)",
            "largest (indexes)      4 MB                         4 MB same",
            "hot index key WCU/s    10                           10 same",
            "GSI physical WCU/s     12                           12 same",
            "An index key's WCU/s counts its index writes as the table's writes landed; a GSI",
        ];
        for line in expected {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
    }

    #[test]
    fn without_indexes_the_partition_figures_keep_their_plain_labels() {
        let mut reports = compared_reports();
        for r in &mut reports {
            r.indexes.clear();
            r.partitions.index_top.clear();
        }
        let text = render(&reports);
        assert!(text.lines().any(|l| l.starts_with("largest partition      120 MB")), "{text}");
        assert!(!text.contains("(table)") && !text.contains("index key"), "{text}");
        assert!(!text.contains("queues the rest"), "{text}");
    }

    fn render(reports: &[RunReport]) -> String {
        let mut out = Vec::new();
        super::super::write(&mut out, reports, RunFormat::Text).unwrap();
        String::from_utf8(out).unwrap()
    }
}
