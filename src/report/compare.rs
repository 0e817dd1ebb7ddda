//! Runs side by side (`keyheat compare`): two or more reports of one scenario on the same seed and
//! duration, their key figures with deltas against the first (absolute and relative), each access
//! pattern's service and modelled latency, and which variant passes which goal. Text, JSON (the
//! [`Comparison`] with the full reports) and Markdown.

use std::io::{self, Write};

use serde::Serialize;

use super::RunFormat;
use super::json;
use super::markdown::{self, Align};
use super::run::{engine_name, ms, served_by};
use super::text::{WIDTH, paragraph, row};
use crate::engine::goals::GoalUnit;
use crate::engine::planner::numbers;
use crate::engine::sim::report::{PatternReport, RunReport};

/// Why reports cannot be compared.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompareError {
    #[error("a comparison needs at least two runs, got {0}")]
    TooFew(usize),
    #[error(
        "cannot compare runs of different scenarios: {variant:?} ran {found:?}, {baseline:?} ran {expected:?}"
    )]
    Scenario { baseline: String, variant: String, expected: String, found: String },
    #[error(
        "cannot compare runs on different seeds: {variant:?} ran on seed {found}, {baseline:?} on {expected}"
    )]
    Seed { baseline: String, variant: String, expected: u64, found: u64 },
    #[error("cannot compare runs of different lengths: {variant:?} ran {found} s, {baseline:?} {expected} s")]
    Duration { baseline: String, variant: String, expected: f64, found: f64 },
}

/// The JSON shape of `keyheat compare --format json`.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison<'a> {
    pub scenario: &'a str,
    pub engine: &'a str,
    pub seed: u64,
    pub duration_s: f64,
    /// The first variant: every delta is against it.
    pub baseline: &'a str,
    pub variants: Vec<&'a str>,
    /// The variants that pass every goal.
    pub pass_every_goal: Vec<&'a str>,
    pub figures: Vec<FigureRow>,
    pub patterns: Vec<PatternRow>,
    pub goals: Vec<GoalRow>,
    /// The full report of each variant, in the order of `variants`.
    pub reports: &'a [RunReport],
}

/// One key figure across the variants; `values` and `deltas` follow `variants`.
#[derive(Debug, Clone, Serialize)]
pub struct FigureRow {
    pub key: &'static str,
    pub label: &'static str,
    pub unit: GoalUnit,
    pub values: Vec<f64>,
    pub deltas: Vec<Delta>,
}

/// A change from the baseline: `percent` is `None` when the baseline is 0.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Delta {
    pub absolute: f64,
    pub percent: Option<f64>,
}

impl Delta {
    pub fn new(baseline: f64, value: f64) -> Delta {
        let absolute = value - baseline;
        let percent = (baseline != 0.0).then(|| absolute / baseline.abs() * 100.0);
        Delta { absolute, percent }
    }

    /// "same", "+1.2 GB (+35%)", "-$1,114.00 (-90.3%)", "+5 (from 0)".
    pub fn describe(self, unit: GoalUnit) -> String {
        if self.absolute.abs() < 1e-9 {
            return "same".to_owned();
        }
        let sign = if self.absolute < 0.0 { "-" } else { "+" };
        let magnitude = match unit {
            GoalUnit::Ratio => numbers::percent(self.absolute.abs()).replace('%', " pts"),
            other => other.format(self.absolute.abs()),
        };
        match self.percent {
            Some(p) => format!("{sign}{magnitude} ({sign}{})", numbers::percent(p.abs() / 100.0)),
            None => format!("{sign}{magnitude} (from 0)"),
        }
    }
}

/// One access pattern across the variants; `runs` follows `variants` (`None` where a report
/// lacks the pattern).
#[derive(Debug, Clone, Serialize)]
pub struct PatternRow {
    pub name: String,
    pub latency_target_ms: Option<f64>,
    pub runs: Vec<Option<PatternRun>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PatternRun {
    pub served_by: String,
    pub calls: u64,
    /// Read units per call for a read, write units per call for a write.
    pub units_per_call: f64,
    /// `RCU` or `WCU`.
    pub unit: &'static str,
    pub latency_ms_p50: f64,
    pub latency_ms_p99: f64,
    pub meets_target: Option<bool>,
    /// Against the baseline's run of the pattern (absent when the baseline lacks it).
    pub units_delta: Option<Delta>,
    pub p99_delta: Option<Delta>,
}

/// One goal across the variants; `results` follows `variants`.
#[derive(Debug, Clone, Serialize)]
pub struct GoalRow {
    pub name: String,
    pub unit: GoalUnit,
    pub target: f64,
    pub results: Vec<Option<GoalCell>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GoalCell {
    pub passed: bool,
    pub value: f64,
    pub detail: String,
}

type Extract = fn(&RunReport) -> f64;

/// The key figures, in the order printed.
const FIGURES: &[(&str, &str, GoalUnit, Extract)] = &[
    ("goals_passed", "goals passed", GoalUnit::Count, |r| r.goals.iter().filter(|g| g.passed).count() as f64),
    ("monthly_cost_usd", "cost per month", GoalUnit::Usd, |r| r.totals.monthly_cost_usd),
    ("cost_usd", "cost of the run", GoalUnit::Usd, |r| r.totals.cost_usd),
    ("calls", "calls", GoalUnit::Count, |r| r.totals.ops as f64),
    ("requests", "requests", GoalUnit::Count, |r| r.totals.requests as f64),
    ("rcu", "read units (RCU)", GoalUnit::Count, |r| r.totals.rcu),
    ("wcu", "write units (WCU)", GoalUnit::Count, |r| r.totals.wcu),
    ("throttled_ratio", "throttled share", GoalUnit::Ratio, |r| {
        if r.totals.requests == 0 { 0.0 } else { r.totals.throttled_ops as f64 / r.totals.requests as f64 }
    }),
    ("failed_ops", "failed requests", GoalUnit::Count, |r| r.totals.failed_ops as f64),
    ("write_amplification", "write amplification", GoalUnit::Factor, |r| r.totals.write_amplification),
    ("table_bytes", "table size", GoalUnit::Bytes, |r| r.totals.table_bytes as f64),
    ("index_bytes", "index size", GoalUnit::Bytes, |r| r.totals.index_bytes as f64),
    ("max_partition_bytes", "largest partition", GoalUnit::Bytes, |r| r.partitions.max_bytes as f64),
    ("max_partition_items", "most items in one", GoalUnit::Items, |r| r.partitions.max_items as f64),
    ("logical_partitions", "logical partitions", GoalUnit::Count, |r| r.partitions.logical as f64),
    ("physical_partitions", "physical partitions", GoalUnit::Count, |r| r.partitions.physical as f64),
    ("peak_rcu_per_s", "peak RCU/s", GoalUnit::Count, |r| r.partitions.peak_rcu_per_s),
    ("peak_wcu_per_s", "peak WCU/s", GoalUnit::Count, |r| r.partitions.peak_wcu_per_s),
];

impl<'a> Comparison<'a> {
    /// Lines the reports up. The first is the baseline; all must share scenario, seed and length.
    pub fn new(reports: &'a [RunReport]) -> Result<Comparison<'a>, CompareError> {
        let [base, rest @ ..] = reports else { return Err(CompareError::TooFew(0)) };
        if rest.is_empty() {
            return Err(CompareError::TooFew(1));
        }
        for r in rest {
            let (baseline, variant) = (base.variant.clone(), r.variant.clone());
            if r.scenario != base.scenario {
                let (expected, found) = (base.scenario.clone(), r.scenario.clone());
                return Err(CompareError::Scenario { baseline, variant, expected, found });
            }
            if r.seed != base.seed {
                return Err(CompareError::Seed { baseline, variant, expected: base.seed, found: r.seed });
            }
            if (r.duration_s - base.duration_s).abs() > 1e-9 {
                let (expected, found) = (base.duration_s, r.duration_s);
                return Err(CompareError::Duration { baseline, variant, expected, found });
            }
        }
        let figures = FIGURES
            .iter()
            .map(|&(key, label, unit, extract)| {
                let values: Vec<f64> = reports.iter().map(extract).collect();
                let deltas = values.iter().map(|v| Delta::new(values[0], *v)).collect();
                FigureRow { key, label, unit, values, deltas }
            })
            .collect();
        Ok(Comparison {
            scenario: &base.scenario,
            engine: &base.engine,
            seed: base.seed,
            duration_s: base.duration_s,
            baseline: &base.variant,
            variants: reports.iter().map(|r| r.variant.as_str()).collect(),
            pass_every_goal: reports
                .iter()
                .filter(|r| r.goals.iter().all(|g| g.passed))
                .map(|r| r.variant.as_str())
                .collect(),
            figures,
            patterns: pattern_rows(reports),
            goals: goal_rows(reports),
            reports,
        })
    }
}

fn per_call(p: &PatternReport) -> (f64, &'static str) {
    let (units, unit) = if p.kind == "write" { (p.wcu, "WCU") } else { (p.rcu, "RCU") };
    (if p.calls == 0 { 0.0 } else { units / p.calls as f64 }, unit)
}

/// Every pattern of any report, in the order they first appear.
fn pattern_rows(reports: &[RunReport]) -> Vec<PatternRow> {
    let mut names: Vec<&str> = Vec::new();
    for p in reports.iter().flat_map(|r| &r.patterns) {
        if !names.contains(&p.name.as_str()) {
            names.push(&p.name);
        }
    }
    let find = |r: &'_ RunReport, name: &str| r.patterns.iter().find(|p| p.name == name).cloned();
    names
        .into_iter()
        .map(|name| {
            let base = find(&reports[0], name);
            let runs = reports
                .iter()
                .map(|r| {
                    let p = find(r, name)?;
                    let (units_per_call, unit) = per_call(&p);
                    Some(PatternRun {
                        served_by: served_by(&p),
                        calls: p.calls,
                        units_per_call,
                        unit,
                        latency_ms_p50: p.latency_ms_p50,
                        latency_ms_p99: p.latency_ms_p99,
                        meets_target: p.latency_target_ms.map(|t| p.latency_ms_p99 <= t),
                        units_delta: base.as_ref().map(|b| Delta::new(per_call(b).0, units_per_call)),
                        p99_delta: base.as_ref().map(|b| Delta::new(b.latency_ms_p99, p.latency_ms_p99)),
                    })
                })
                .collect();
            let target = reports.iter().flat_map(|r| &r.patterns).find(|p| p.name == name);
            PatternRow {
                name: name.to_owned(),
                latency_target_ms: target.and_then(|p| p.latency_target_ms),
                runs,
            }
        })
        .collect()
}

fn goal_rows(reports: &[RunReport]) -> Vec<GoalRow> {
    let mut rows: Vec<GoalRow> = Vec::new();
    for g in reports.iter().flat_map(|r| &r.goals) {
        if rows.iter().any(|row| row.name == g.name) {
            continue;
        }
        let results = reports
            .iter()
            .map(|r| {
                r.goals.iter().find(|x| x.name == g.name).map(|x| GoalCell {
                    passed: x.passed,
                    value: x.value,
                    detail: x.detail.clone(),
                })
            })
            .collect();
        rows.push(GoalRow { name: g.name.clone(), unit: g.unit, target: g.target, results });
    }
    rows
}

pub fn write(out: &mut impl Write, reports: &[RunReport], format: RunFormat) -> Result<(), WriteError> {
    let comparison = Comparison::new(reports)?;
    match format {
        RunFormat::Text => text(out, &comparison)?,
        RunFormat::Json => json::write(out, &comparison)?,
        RunFormat::Md => markdown(out, &comparison)?,
    }
    Ok(())
}

/// A comparison that could not be made, or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Compare(#[from] CompareError),
    #[error(transparent)]
    Io(#[from] io::Error),
}

fn mark(passed: bool) -> &'static str {
    if passed { "✔" } else { "✘" }
}

fn goal_cell(row: &GoalRow, cell: Option<&GoalCell>) -> String {
    cell.map_or_else(|| "—".to_owned(), |c| format!("{} {}", mark(c.passed), row.unit.format(c.value)))
}

fn figure_cell(f: &FigureRow, i: usize) -> String {
    let value = f.unit.format(f.values[i]);
    if i == 0 { value } else { format!("{value} {}", f.deltas[i].describe(f.unit)) }
}

/// Text columns: a label, then one per variant.
const LABEL: usize = 22;

fn column_width(variants: usize) -> usize {
    ((WIDTH - LABEL - 1).saturating_sub(variants.saturating_sub(1)) / variants.max(1)).max(8)
}

fn text(out: &mut impl Write, c: &Comparison) -> io::Result<()> {
    let width = column_width(c.variants.len());
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
            engine_name(c.engine),
            c.seed,
            numbers::span(c.duration_s)
        ),
    )?;
    paragraph(
        out,
        0,
        &format!("Deltas are against {}, the first variant. Latency is modelled.", c.baseline),
    )?;
    writeln!(out)?;
    let names: Vec<String> = c.variants.iter().map(|v| (*v).to_owned()).collect();
    columns(out, "Key figures", &names)?;
    for f in &c.figures {
        let cells: Vec<String> = (0..c.variants.len()).map(|i| figure_cell(f, i)).collect();
        columns(out, f.label, &cells)?;
    }
    if !c.goals.is_empty() {
        writeln!(out)?;
        columns(out, "Goals", &names)?;
        for g in &c.goals {
            let cells: Vec<String> = g.results.iter().map(|cell| goal_cell(g, cell.as_ref())).collect();
            columns(out, &g.name, &cells)?;
        }
        writeln!(out)?;
        paragraph(out, 0, &pass_line(c))?;
    }
    writeln!(out)?;
    writeln!(out, "Access patterns (p99 latency is modelled)")?;
    let name_width = c.variants.iter().map(|v| v.chars().count()).max().unwrap_or(8).clamp(8, 16);
    for p in &c.patterns {
        let target = p.latency_target_ms.map_or_else(String::new, |t| format!(" (target {})", ms(t)));
        paragraph(out, 0, &format!("{}{target}", p.name))?;
        for (variant, run) in c.variants.iter().zip(&p.runs) {
            let Some(run) = run else {
                row(out, &[("", 1), (variant, name_width), ("not in this report", 40)])?;
                continue;
            };
            let meets = run.meets_target.map_or(" ", mark);
            let per_call = format!("{} {}/call", numbers::factor(run.units_per_call), run.unit);
            let p99 = format!("p99 {}", ms(run.latency_ms_p99));
            let delta = if *variant == c.baseline {
                String::new()
            } else {
                run.p99_delta.map_or_else(String::new, |d| d.describe(GoalUnit::Milliseconds))
            };
            let rest = WIDTH - (1 + 1) - (name_width + 1) - (18 + 1) - (14 + 1) - (11 + 1);
            row(
                out,
                &[
                    (meets, 1),
                    (variant, name_width),
                    (&run.served_by, 18),
                    (&per_call, 14),
                    (&p99, 11),
                    (&delta, rest),
                ],
            )?;
        }
    }
    Ok(())
}

fn pass_line(c: &Comparison) -> String {
    if c.pass_every_goal.is_empty() {
        "No variant passes every goal.".to_owned()
    } else {
        format!("Passes every goal: {}.", c.pass_every_goal.join(", "))
    }
}

fn markdown(out: &mut impl Write, c: &Comparison) -> io::Result<()> {
    writeln!(out, "# {}: {}", c.scenario, c.variants.join(" vs "))?;
    writeln!(out)?;
    writeln!(
        out,
        "`keyheat compare` · {} · seed {} · {} simulated · deltas against **{}** · latency is modelled",
        engine_name(c.engine),
        c.seed,
        numbers::span(c.duration_s),
        c.baseline
    )?;
    writeln!(out)?;
    writeln!(out, "## Key figures")?;
    writeln!(out)?;
    let mut columns: Vec<(String, Align)> = vec![("figure".to_owned(), Align::Left)];
    columns.extend(c.variants.iter().map(|v| ((*v).to_owned(), Align::Right)));
    columns.extend(c.variants[1..].iter().map(|v| (format!("Δ {v}"), Align::Right)));
    let rows: Vec<Vec<String>> = c
        .figures
        .iter()
        .map(|f| {
            let mut cells = vec![f.label.to_owned()];
            cells.extend(f.values.iter().map(|v| f.unit.format(*v)));
            cells.extend(f.deltas[1..].iter().map(|d| d.describe(f.unit)));
            cells
        })
        .collect();
    let borrowed: Vec<(&str, Align)> = columns.iter().map(|(h, a)| (h.as_str(), *a)).collect();
    markdown::table(out, &borrowed, &rows)?;
    if !c.goals.is_empty() {
        writeln!(out, "## Goals")?;
        writeln!(out)?;
        let mut columns: Vec<(&str, Align)> = vec![("goal", Align::Left), ("target", Align::Right)];
        columns.extend(c.variants.iter().map(|v| (*v, Align::Left)));
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
        ("units per call", Align::Right),
        ("p50 (modelled)", Align::Right),
        ("p99 (modelled)", Align::Right),
        ("target", Align::Right),
        ("Δ p99", Align::Right),
    ];
    let mut rows = Vec::new();
    for p in &c.patterns {
        for (i, (variant, run)) in c.variants.iter().zip(&p.runs).enumerate() {
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
                (*variant).to_owned(),
                run.served_by.clone(),
                format!("{} {}", numbers::factor(run.units_per_call), run.unit),
                ms(run.latency_ms_p50),
                ms(run.latency_ms_p99),
                target,
                delta,
            ]);
        }
    }
    markdown::table(out, &columns, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{goal, report};

    /// The fixture as `naive`, and a `recommended` that serves pending-orders by a Query on an index.
    fn pair() -> Vec<RunReport> {
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
            (Some("Query".to_owned()), Some("byStatus".to_owned()), 1.0);
        (scan.latency_ms_p99, scan.rcu) = (9.0, 360.0);
        vec![naive, fixed]
    }

    fn render(reports: &[RunReport], format: RunFormat) -> String {
        let mut out = Vec::new();
        write(&mut out, reports, format).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn computes_deltas_against_the_baseline() {
        let reports = pair();
        let c = Comparison::new(&reports).unwrap();
        let cost = c.figures.iter().find(|f| f.key == "monthly_cost_usd").unwrap();
        assert_eq!(cost.values, [100.0, 25.0]);
        assert_eq!(cost.deltas[1], Delta { absolute: -75.0, percent: Some(-75.0) });
        assert_eq!(cost.deltas[1].describe(GoalUnit::Usd), "-$75.00 (-75%)");
        let largest = c.figures.iter().find(|f| f.key == "max_partition_bytes").unwrap();
        assert_eq!(largest.deltas[1].describe(GoalUnit::Bytes), "-120 MB (-100%)");
        assert_eq!(Delta::new(0.0, 5.0).describe(GoalUnit::Count), "+5 (from 0)");
        assert_eq!(Delta::new(0.001, 0.002).describe(GoalUnit::Ratio), "+0.1 pts (+100%)");
        assert_eq!(Delta::new(3.0, 3.0).describe(GoalUnit::Count), "same");
        assert_eq!(c.pass_every_goal, ["recommended"]);
        let pending = c.patterns.iter().find(|p| p.name == "pending-orders").unwrap();
        let fixed = pending.runs[1].as_ref().unwrap();
        assert_eq!(fixed.served_by, "Query on byStatus");
        assert_eq!(fixed.p99_delta.unwrap().describe(GoalUnit::Milliseconds), "-171 ms (-95%)");
        assert_eq!(fixed.units_delta, Some(Delta { absolute: -1.0, percent: Some(-50.0) }));
    }

    #[test]
    fn refuses_runs_that_do_not_line_up() {
        let mut reports = pair();
        assert_eq!(Comparison::new(&reports[..1]).unwrap_err(), CompareError::TooFew(1));
        reports[1].seed = 8;
        let err = Comparison::new(&reports).unwrap_err();
        assert!(err.to_string().contains("different seeds: \"recommended\" ran on seed 8"), "{err}");
        reports[1].seed = 7;
        reports[1].scenario = "sensors".to_owned();
        assert!(matches!(Comparison::new(&reports), Err(CompareError::Scenario { .. })));
        reports[1].scenario = "orders".to_owned();
        reports[1].duration_s = 60.0;
        assert!(matches!(Comparison::new(&reports), Err(CompareError::Duration { .. })));
    }

    #[test]
    fn text_lines_up_variants_within_80_columns() {
        let mut reports = pair();
        let mut third = reports[1].clone();
        third.variant = "daily-buckets".to_owned();
        reports.push(third);
        for n in [2, 3] {
            let text = render(&reports[..n], RunFormat::Text);
            for line in text.lines() {
                assert!(line.chars().count() <= 80, "{n} variants: {line:?}");
            }
        }
        let text = render(&reports[..2], RunFormat::Text);
        let expected = [
            "keyheat compare: orders (DynamoDB) · seed 7 · 60 min simulated",
            "Key figures            naive                        recommended",
            "cost per month         $100.00                      $25.00 -$75.00 (-75%)",
            "goals passed           1                            2 +1 (+100%)",
            "never scans            ✘ 3                          ✔ 1",
            "Passes every goal: recommended.",
            "pending-orders (target 100 ms)",
            "✘ naive       Scan ×12           2 RCU/call     p99 180 ms",
            "✔ recommended Query on byStatus  1 RCU/call     p99 9 ms    -171 ms (-95%)",
        ];
        for line in expected {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in\n{text}");
        }
    }

    #[test]
    fn markdown_and_json_carry_the_same_comparison() {
        let reports = pair();
        let md = render(&reports, RunFormat::Md);
        for line in [
            "# orders: naive vs recommended",
            "| figure | naive | recommended | Δ recommended |",
            "| cost per month | $100.00 | $25.00 | -$75.00 (-75%) |",
            "| never scans | 2 | ✘ 3 | ✔ 1 |",
            "| pending-orders | recommended | Query on byStatus | 1 RCU | 40 ms | 9 ms | 100 ms ✔ | -171 ms (-95%) |",
        ] {
            assert!(md.lines().any(|l| l == line), "missing {line:?} in\n{md}");
        }
        let json: serde_json::Value = serde_json::from_str(&render(&reports, RunFormat::Json)).unwrap();
        assert_eq!(json["baseline"], "naive");
        assert_eq!(json["variants"], serde_json::json!(["naive", "recommended"]));
        assert_eq!(json["pass_every_goal"], serde_json::json!(["recommended"]));
        assert_eq!(json["reports"].as_array().map(Vec::len), Some(2));
        let goal = &json["goals"][0];
        assert_eq!(
            (goal["results"][0]["passed"].as_bool(), goal["results"][1]["passed"].as_bool()),
            (Some(false), Some(true))
        );
    }
}
