//! The comparison as Markdown tables: key figures with a delta column per variant, goals with
//! ✔/✘ per variant, and every pattern's service and modelled latency.

use std::io::{self, Write};

use super::{Comparison, cost_cell, goal_cell, index_notes, mark, pass_line};
use crate::engine::goals::GoalUnit;
use crate::engine::planner::numbers;
use crate::report::markdown::{self, Align};
use crate::report::run::ms;

pub(super) fn write(out: &mut impl Write, c: &Comparison) -> io::Result<()> {
    writeln!(out, "# {}: {}", c.scenario, c.columns.join(" vs "))?;
    writeln!(out)?;
    writeln!(
        out,
        "`keyheat compare` · {} · seed {} · {} simulated · deltas against **{}** · {}",
        c.stores(),
        c.seed,
        numbers::span(c.duration_s),
        c.baseline,
        c.latency_words()
    )?;
    writeln!(out)?;
    writeln!(out, "## Key figures")?;
    writeln!(out)?;
    let mut columns: Vec<(String, Align)> = vec![("figure".to_owned(), Align::Left)];
    columns.extend(c.columns.iter().map(|v| (v.clone(), Align::Right)));
    columns.extend(c.columns[1..].iter().map(|v| (format!("Δ {v}"), Align::Right)));
    let rows: Vec<Vec<String>> = c
        .figures
        .iter()
        .map(|f| {
            let mut cells = vec![f.label.to_owned()];
            cells.extend((0..f.values.len()).map(|i| f.value(i)));
            cells.extend((1..f.deltas.len()).map(|i| f.delta(i)));
            cells
        })
        .collect();
    let borrowed: Vec<(&str, Align)> = columns.iter().map(|(h, a)| (h.as_str(), *a)).collect();
    markdown::table(out, &borrowed, &rows)?;
    for note in index_notes(c) {
        writeln!(out, "{note}")?;
        writeln!(out)?;
    }
    if !c.goals.is_empty() {
        writeln!(out, "## Goals")?;
        writeln!(out)?;
        let mut columns: Vec<(&str, Align)> = vec![("goal", Align::Left), ("target", Align::Right)];
        columns.extend(c.columns.iter().map(|v| (v.as_str(), Align::Left)));
        let rows: Vec<Vec<String>> = c
            .goals
            .iter()
            .map(|g| {
                let mut cells = vec![g.name.clone(), g.unit.format(g.target)];
                cells.extend(g.results.iter().map(|cell| goal_cell(g, cell.as_ref())));
                cells
            })
            .collect();
        markdown::table(out, &columns, &rows)?;
        writeln!(out, "{}", pass_line(c))?;
        writeln!(out)?;
    }
    writeln!(out, "## Access patterns")?;
    writeln!(out)?;
    let columns = [
        ("pattern", Align::Left),
        ("variant", Align::Left),
        ("served by", Align::Left),
        ("units", Align::Right),
        ("p50 (modelled)", Align::Right),
        ("p99 (modelled)", Align::Right),
        ("target", Align::Right),
        ("Δ p99", Align::Right),
    ];
    let mut rows = Vec::new();
    for p in &c.patterns {
        for (i, (variant, run)) in c.columns.iter().zip(&p.runs).enumerate() {
            let Some(run) = run else { continue };
            let target = p.latency_target_ms.map_or_else(
                || "—".to_owned(),
                |t| format!("{} {}", ms(t), run.meets_target.map_or("", mark)),
            );
            let delta = if i == 0 {
                "—".to_owned()
            } else {
                run.p99_delta.map_or_else(|| "—".to_owned(), |d| d.describe(GoalUnit::Milliseconds))
            };
            rows.push(vec![
                p.name.clone(),
                variant.clone(),
                run.served_by.clone(),
                cost_cell(run),
                run.latency_ms_p50.map_or_else(|| "—".to_owned(), ms),
                match (run.latency_ms_p99, run.latency_ms_p99_completed) {
                    (Some(p99), _) => ms(p99),
                    (None, Some(completed)) => format!("— (never completed; > {})", ms(completed)),
                    (None, None) => "— (not modelled)".to_owned(),
                },
                target,
                delta,
            ]);
        }
    }
    markdown::table(out, &columns, &rows)
}

#[cfg(test)]
mod tests {
    use crate::engine::sim::report::RunReport;
    use crate::engine::testing::compared_reports;
    use crate::report::RunFormat;

    #[test]
    fn markdown_has_figures_goals_and_patterns() {
        let reports = compared_reports();
        let md = render(&reports);
        for line in [
            "# orders: naive vs recommended",
            "| figure | naive | recommended | Δ recommended |",
            "| cost per month | $100.00 | $25.00 | -$75.00 (-75%) |",
            "| never scans | 2 | ✘ 3 | ✔ 1 |",
            "| pending-orders | recommended | Query on byStatus | 1 RCU/call | 40 ms | 9 ms | 100 ms ✔ | -171 ms (-95%) |",
            "| place-order | naive | PutItem | 1 WCU/write | 5 ms | 8 ms | — | — |",
        ] {
            assert!(md.lines().any(|l| l == line), "missing {line:?} in\n{md}");
        }
    }

    fn render(reports: &[RunReport]) -> String {
        let mut out = Vec::new();
        super::super::write(&mut out, reports, RunFormat::Md).unwrap();
        String::from_utf8(out).unwrap()
    }
}
