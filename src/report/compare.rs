//! Runs side by side (`keyheat compare`): two or more reports of one scenario on the same seed and
//! duration, their key figures with deltas against the first (absolute and relative), each access
//! pattern's service and modelled latency, and which variant passes which goal. Text, JSON (the
//! [`Comparison`] with the full reports) and Markdown.

mod figures;
mod md;
mod text;

use std::io::{self, Write};

use serde::Serialize;

use super::RunFormat;
use super::json;
use super::run::{per_call, per_write, served_by};
use crate::engine::goals::GoalUnit;
use crate::engine::model::Engine;
use crate::engine::planner::numbers;
use crate::engine::sim::report::{GoalResult, GoalStatus, RunReport};

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
    /// A rates replay's figures are expected values and medians, a per-operation replay's are
    /// draws: their differences would mix design with noise.
    #[error(
        "cannot compare runs replayed differently: {variant:?} was replayed as {found}, {baseline:?} as {expected}; give --fidelity"
    )]
    Fidelity { baseline: String, variant: String, expected: &'static str, found: &'static str },
}

/// The JSON shape of `keyheat compare --format json`.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison<'a> {
    pub scenario: &'a str,
    /// The first run's store.
    #[serde(serialize_with = "crate::engine::sim::report::engine_id")]
    pub engine: Engine,
    /// Each run's store, in the order of `variants` (`keyheat compare --engine A --engine B`
    /// replays a design on several).
    pub engines: Vec<&'static str>,
    pub seed: u64,
    pub duration_s: f64,
    /// The first run's column: every delta is against it.
    pub baseline: String,
    pub variants: Vec<&'a str>,
    /// The columns that pass every goal, named as `columns` names them.
    pub pass_every_goal: Vec<String>,
    /// What each run's column is called: its variant, its store when the runs share one
    /// variant, or both ("recommended on Cosmos DB").
    pub columns: Vec<String>,
    pub figures: Vec<FigureRow>,
    pub patterns: Vec<PatternRow>,
    pub goals: Vec<GoalRow>,
    /// The full report of each variant, in the order of `variants`.
    pub reports: &'a [RunReport],
}

impl Comparison<'_> {
    /// Whether the fluid replay made the reports (`compare` refuses to mix replays): their
    /// figures are expected values and latency is not modelled.
    pub fn as_rates(&self) -> bool {
        self.reports.first().is_some_and(|r| r.fidelity == crate::engine::sim::report::Fidelity::Rates)
    }

    /// What the headers say about latency.
    pub fn latency_words(&self) -> &'static str {
        if self.as_rates() {
            "replayed as rates: expected values and median peaks; latency is not modelled"
        } else {
            "latency is modelled"
        }
    }
}

/// One key figure across the runs; `values`, `deltas` and `units` follow `variants`.
#[derive(Debug, Clone, Serialize)]
pub struct FigureRow {
    pub key: &'static str,
    pub label: &'static str,
    pub unit: GoalUnit,
    /// `None` (null) where the run's store does not measure the figure (units on Cassandra, a
    /// price on a store keyheat has none for).
    pub values: Vec<Option<f64>>,
    /// Against the first run; `None` (null) where either value is missing, or where the two
    /// runs count the figure in different stores' units.
    pub deltas: Vec<Option<Delta>>,
    /// Each value's unit in its store (`RCU`, `RU/s`, `rows`), where the label leaves it to the
    /// cell: across stores, and on a store without labels of its own. Absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<Option<&'static str>>,
}

impl FigureRow {
    /// Run `i`'s value as the reports write it, with its store's unit where the cells carry
    /// it: "1,200", "1,200 RU", "3 rows"; "—" where the store does not measure it.
    pub fn value(&self, i: usize) -> String {
        let Some(value) = self.values.get(i).copied().flatten() else { return "—".to_owned() };
        match self.units.get(i).copied().flatten() {
            Some(unit) => format!("{} {unit}", self.unit.format(value)),
            None => self.unit.format(value),
        }
    }

    /// Run `i`'s change from the first run, described: "-$75.00 (-75%)", "same"; "—" where
    /// there is none to give.
    pub fn delta(&self, i: usize) -> String {
        self.deltas.get(i).copied().flatten().map_or_else(|| "—".to_owned(), |d| d.describe(self.unit))
    }
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

    /// Whether the change is below a millionth of the baseline (float noise, or fractions of a
    /// cent on a large bill): shown as "same".
    pub fn negligible(self) -> bool {
        let relative = self.percent.is_some_and(|p| p.abs() < 1e-4);
        self.absolute.abs() < 1e-9 || relative
    }

    /// "same", "+1.2 GB (+35%)", "-$1,114.00 (-90.3%)", "+5 (from 0)".
    pub fn describe(self, unit: GoalUnit) -> String {
        if self.negligible() {
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
    /// Read units per call for a read, write units for a write; rows read per call for a
    /// Cassandra read; `None` for a Cassandra write (no capacity units).
    pub units_per_call: Option<f64>,
    /// `RCU`, `WCU`, `RU`, `rows`, or empty.
    pub unit: &'static str,
    /// For a write: write units per write that landed (calls that gave up wrote nothing), where
    /// the run tells landed writes apart; what text and Markdown show when present.
    pub units_per_write: Option<f64>,
    /// `None` (null) where the fluid replay made the report: it times no call.
    pub latency_ms_p50: Option<f64>,
    /// The p99 call's latency; `None` (null) when that call never completed
    /// (`PatternReport::p99_ms`): `latency_p99_missing` then says so and
    /// `latency_ms_p99_completed` gives the p99 of the calls that did.
    pub latency_ms_p99: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_p99_missing: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ms_p99_completed: Option<f64>,
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
    pub status: GoalStatus,
    /// `None` when the goal was not graded.
    pub value: Option<f64>,
    /// `value` is a bound the measure is past (`GoalResult::lower_bound`); in JSON only where
    /// it is one, named as in a run report.
    #[serde(rename = "value_is_lower_bound", skip_serializing_if = "std::ops::Not::not")]
    pub lower_bound: bool,
    pub detail: String,
}

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
            if r.fidelity != base.fidelity {
                let (expected, found) = (base.fidelity.id(), r.fidelity.id());
                return Err(CompareError::Fidelity { baseline, variant, expected, found });
            }
            if r.seed != base.seed {
                return Err(CompareError::Seed { baseline, variant, expected: base.seed, found: r.seed });
            }
            if (r.duration_s - base.duration_s).abs() > 1e-9 {
                let (expected, found) = (base.duration_s, r.duration_s);
                return Err(CompareError::Duration { baseline, variant, expected, found });
            }
        }
        let figures = figures::rows(reports);
        let columns = columns(reports);
        Ok(Comparison {
            scenario: &base.scenario,
            engine: base.engine,
            engines: reports.iter().map(|r| r.engine.id()).collect(),
            seed: base.seed,
            duration_s: base.duration_s,
            baseline: columns[0].clone(),
            variants: reports.iter().map(|r| r.variant.as_str()).collect(),
            pass_every_goal: reports
                .iter()
                .zip(&columns)
                .filter(|(r, _)| r.goals.iter().all(GoalResult::passed))
                .map(|(_, column)| column.clone())
                .collect(),
            columns,
            figures,
            patterns: pattern_rows(reports),
            goals: goal_rows(reports),
            reports,
        })
    }
}

/// Each run's column name: its variant on one store, its store when every run is the same
/// variant, or both.
fn columns(reports: &[RunReport]) -> Vec<String> {
    let one_store = reports.iter().all(|r| r.engine == reports[0].engine);
    let one_variant = reports.iter().all(|r| r.variant == reports[0].variant);
    reports
        .iter()
        .map(|r| match (one_store, one_variant) {
            (true, _) => r.variant.clone(),
            (false, true) => r.engine.to_string(),
            (false, false) => format!("{} on {}", r.variant, r.engine),
        })
        .collect()
}

impl Comparison<'_> {
    /// Whether the runs were replayed on more than one store.
    pub fn across_stores(&self) -> bool {
        self.engines.iter().any(|e| *e != self.engines[0])
    }

    /// The stores, each once, in the order the runs use them: "DynamoDB", "DynamoDB, Cosmos DB".
    pub fn stores(&self) -> String {
        let mut stores: Vec<Engine> = Vec::new();
        for r in self.reports {
            if !stores.contains(&r.engine) {
                stores.push(r.engine);
            }
        }
        stores.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    }

    /// What the headers say the deltas are against.
    pub fn deltas_words(&self) -> String {
        if self.across_stores() {
            format!(
                "Deltas are against {}, the first run; a figure counted in a store's own units has none between two stores.",
                self.baseline
            )
        } else {
            format!("Deltas are against {}, the first variant.", self.baseline)
        }
    }
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
                    let cost = per_call(&p, r.engine);
                    let (units_per_call, unit) = (cost.map(|(x, _)| x), cost.map_or("", |(_, u)| u));
                    Some(PatternRun {
                        served_by: served_by(&p, r.engine),
                        calls: p.calls,
                        units_per_call,
                        unit,
                        units_per_write: per_write(&p, r.engine),
                        latency_ms_p50: p.timed.then_some(p.latency_ms_p50),
                        latency_ms_p99: p.p99_ms(),
                        latency_p99_missing: p.p99_ms().is_none().then_some(if p.timed {
                            "never_completed"
                        } else {
                            "not_modelled"
                        }),
                        latency_ms_p99_completed: (p.timed && p.p99_ms().is_none())
                            .then_some(p.latency_ms_p99),
                        meets_target: p
                            .latency_target_ms
                            .filter(|_| p.timed)
                            .map(|t| p.p99_ms().is_some_and(|x| x <= t)),
                        // Units of two stores do not subtract.
                        units_delta: base
                            .as_ref()
                            .filter(|_| r.engine == reports[0].engine)
                            .and_then(|b| per_call(b, reports[0].engine))
                            .zip(units_per_call)
                            .map(|((b, _), x)| Delta::new(b, x)),
                        // No delta to or from a p99 call that never completed.
                        p99_delta: base
                            .as_ref()
                            .and_then(|b| b.p99_ms().zip(p.p99_ms()))
                            .map(|(b, x)| Delta::new(b, x)),
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
                    passed: x.passed(),
                    status: x.status,
                    value: x.value,
                    lower_bound: x.lower_bound,
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
        RunFormat::Text => text::write(out, &comparison)?,
        RunFormat::Json => json::write(out, &comparison)?,
        RunFormat::Md => md::write(out, &comparison)?,
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

/// "2 RCU/call", "1 WCU/write" (per landed write), "9.8 RU/write", "120 rows/call", "—".
pub(super) fn cost_cell(run: &PatternRun) -> String {
    match (run.units_per_write, run.units_per_call) {
        (Some(x), _) => format!("{} {}/write", numbers::factor(x), run.unit),
        (None, Some(x)) => format!("{} {}/call", numbers::factor(x), run.unit),
        (None, None) => "—".to_owned(),
    }
}

/// Under the key figures when the indexes' are there: what an index key's write figure counts,
/// for each store of the comparison that has one to explain.
pub(super) fn index_notes(c: &Comparison) -> Vec<&'static str> {
    if !c.figures.iter().any(|f| f.key == "index_peak_wcu_per_s") {
        return Vec::new();
    }
    let mut notes = Vec::new();
    for r in c.reports {
        let profile = r.engine.profile();
        let note = if crate::report::run::is_cassandra(r.engine) {
            "A view key's writes/s counts the view rows Cassandra wrote as the base table's writes landed."
        } else if profile.indexes == crate::engine::profile::Indexes::Secondary {
            "An index key's WCU/s counts its index writes as the table's writes landed; a GSI partition \
             applies at most 1,000 a second and queues the rest (GSI physical WCU/s is what it applied)."
        } else {
            continue;
        };
        if !notes.contains(&note) {
            notes.push(note);
        }
    }
    notes
}

pub(super) fn mark(passed: bool) -> &'static str {
    if passed { "✔" } else { "✘" }
}

pub(super) fn goal_cell(row: &GoalRow, cell: Option<&GoalCell>) -> String {
    cell.map_or_else(
        || "—".to_owned(),
        |c| {
            let value = crate::report::run::goal_value(c.status, c.value, c.lower_bound, row.unit);
            format!("{} {value}", crate::report::run::goal_mark(c.status))
        },
    )
}

/// A text cell: the value, then (after the first run) its change, where there is one.
pub(super) fn figure_cell(f: &FigureRow, i: usize) -> String {
    let value = f.value(i);
    match f.deltas[i] {
        Some(delta) if i > 0 => format!("{value} {}", delta.describe(f.unit)),
        _ => value,
    }
}

pub(super) fn pass_line(c: &Comparison) -> String {
    if c.pass_every_goal.is_empty() {
        "No variant passes every goal.".to_owned()
    } else {
        format!("Passes every goal: {}.", c.pass_every_goal.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::compared_reports;

    #[test]
    fn computes_deltas_against_the_baseline() {
        let reports = compared_reports();
        let c = Comparison::new(&reports).unwrap();
        let cost = c.figures.iter().find(|f| f.key == "monthly_cost_usd").unwrap();
        assert_eq!(cost.values, [Some(100.0), Some(25.0)]);
        assert_eq!(cost.deltas[1], Some(Delta { absolute: -75.0, percent: Some(-75.0) }));
        assert_eq!(cost.delta(1), "-$75.00 (-75%)");
        let largest = c.figures.iter().find(|f| f.key == "max_partition_bytes").unwrap();
        assert_eq!(largest.delta(1), "-120 MB (-100%)");
        assert_eq!(Delta::new(0.0, 5.0).describe(GoalUnit::Count), "+5 (from 0)");
        assert_eq!(Delta::new(0.001, 0.002).describe(GoalUnit::Ratio), "+0.1 pts (+100%)");
        assert_eq!(Delta::new(3.0, 3.0).describe(GoalUnit::Count), "same");
        assert_eq!(Delta::new(5_803.2, 5_803.200_16).describe(GoalUnit::Usd), "same");
        assert_eq!(Delta::new(100.0, 100.5).describe(GoalUnit::Usd), "+$0.50 (+0.5%)");
        assert_eq!(c.pass_every_goal, ["recommended"]);
        let pending = c.patterns.iter().find(|p| p.name == "pending-orders").unwrap();
        let fixed = pending.runs[1].as_ref().unwrap();
        assert_eq!(fixed.served_by, "Query on byStatus");
        assert_eq!(fixed.p99_delta.unwrap().describe(GoalUnit::Milliseconds), "-171 ms (-95%)");
        assert_eq!(fixed.units_delta, Some(Delta { absolute: -1.0, percent: Some(-50.0) }));
    }

    #[test]
    fn a_cassandra_comparison_leaves_out_units_and_dollars() {
        let mut reports = compared_reports();
        for r in &mut reports {
            r.engine = Engine::Cassandra;
        }
        let c = Comparison::new(&reports).unwrap();
        let keys: Vec<&str> = c.figures.iter().map(|f| f.key).collect();
        assert!(!keys.iter().any(|k| ["rcu", "wcu", "cost_usd", "monthly_cost_usd"].contains(k)), "{keys:?}");
        // Operations and rows, not units, items or GSIs.
        assert!(c.figures.iter().any(|f| f.label == "hot table key reads/s"), "{:?}", c.figures);
        for f in &c.figures {
            for dynamodb in ["RCU", "WCU", "GSI", "items", "index"] {
                assert!(!f.label.contains(dynamodb), "{dynamodb} in {:?}", f.label);
            }
        }
        let page = c.patterns[0].runs[0].as_ref().unwrap();
        assert_eq!((page.units_per_call, page.unit), (Some(10.0), "rows"));
        let write = c.patterns[2].runs[0].as_ref().unwrap();
        assert_eq!((write.units_per_call, write.unit), (None, ""));
    }

    #[test]
    fn across_stores_each_cell_has_its_store_s_units_and_no_delta_between_them() {
        let mut reports = compared_reports();
        reports.truncate(1);
        let base = &mut reports[0];
        (base.totals.rcu, base.totals.requests) = (600.0, 40_000);
        (base.partitions.peak_wcu_per_s, base.partitions.max_items, base.partitions.physical) = (10.0, 3, 1);
        for engine in [Engine::Cassandra, Engine::CosmosDb] {
            let mut r = reports[0].clone();
            r.engine = engine;
            r.totals.requests *= 2;
            reports.push(r);
        }
        let c = Comparison::new(&reports).unwrap();
        assert_eq!(c.columns, ["DynamoDB", "Cassandra", "Cosmos DB"]);
        assert_eq!(c.engines, ["dynamodb", "cassandra", "cosmosdb"]);
        assert_eq!(c.baseline, "DynamoDB");
        let row = |key: &str| c.figures.iter().find(|f| f.key == key).unwrap_or_else(|| panic!("{key}"));
        // Units in the cells, a plain label, nothing where the store does not measure it.
        let reads = row("rcu");
        assert_eq!(reads.label, "read units");
        assert_eq!([reads.value(0), reads.value(1), reads.value(2)], ["600 RCU", "—", "600 RU"]);
        assert_eq!(reads.deltas, [Some(Delta::new(600.0, 600.0)), None, None], "RU less RCU is no figure");
        assert_eq!(row("peak_wcu_per_s").value(1), "10 writes/s");
        assert_eq!(row("max_partition_items").value(1), "3 rows");
        assert_eq!(row("physical_partitions").value(1), "1 node");
        let cost = row("monthly_cost_usd");
        assert_eq!(cost.values, [Some(100.0), None, None], "only DynamoDB's price is sourced");
        // What every store counts alike keeps its delta.
        let requests = row("requests");
        assert_eq!(requests.delta(2), "+40,000 (+100%)");
        assert!(c.figures.iter().all(|f| f.values.iter().any(Option::is_some)));
        // A write's cost per landed write is in its store's unit.
        let place = c.patterns[2].runs[2].as_ref().unwrap();
        assert_eq!(cost_cell(place), "1 RU/write");
        assert_eq!(place.units_delta, None);
        // One MongoDB replica set has no partitions of its own to count.
        let mut mongo = reports[0].clone();
        mongo.engine = Engine::MongoDb;
        let pair = [reports[0].clone(), mongo];
        let c = Comparison::new(&pair).unwrap();
        let physical = c.figures.iter().find(|f| f.key == "physical_partitions").unwrap();
        assert_eq!(physical.values, [Some(1.0), None]);
        assert_eq!(c.figures.iter().find(|f| f.key == "peak_rcu_per_s").unwrap().units[1], Some("reads/s"));
        // One variant on several stores is named by store; several by both.
        reports[2].variant = "recommended".to_owned();
        let c = Comparison::new(&reports).unwrap();
        assert_eq!(c.columns[2], "recommended on Cosmos DB");
    }

    #[test]
    fn a_cosmos_db_comparison_counts_in_request_units_and_shows_no_price() {
        let mut reports = compared_reports();
        for r in &mut reports {
            r.engine = Engine::CosmosDb;
        }
        let c = Comparison::new(&reports).unwrap();
        for f in &c.figures {
            for dynamodb in ["RCU", "WCU", "GSI", "cost"] {
                assert!(!f.label.contains(dynamodb), "{dynamodb} in {:?}", f.label);
            }
            for i in 0..2 {
                assert!(!f.value(i).contains("CU"), "{}: {}", f.label, f.value(i));
            }
        }
        let writes = c.figures.iter().find(|f| f.key == "wcu").unwrap();
        assert_eq!(writes.value(0), format!("{} RU", GoalUnit::Count.format(reports[0].totals.wcu)));
        assert_eq!(writes.deltas[1], Some(Delta::new(reports[0].totals.wcu, reports[1].totals.wcu)));
    }

    #[test]
    fn refuses_runs_that_do_not_line_up() {
        let mut reports = compared_reports();
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
        reports[1].duration_s = reports[0].duration_s;
        reports[1].fidelity = crate::engine::sim::report::Fidelity::Rates;
        let err = Comparison::new(&reports).unwrap_err();
        assert!(
            err.to_string().contains("\"recommended\" was replayed as rates, \"naive\" as operations"),
            "{err}"
        );
    }

    #[test]
    fn json_carries_the_comparison_and_the_reports() {
        let reports = compared_reports();
        let mut out = Vec::new();
        write(&mut out, &reports, RunFormat::Json).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["baseline"], "naive");
        assert_eq!(json["variants"], serde_json::json!(["naive", "recommended"]));
        assert_eq!(json["pass_every_goal"], serde_json::json!(["recommended"]));
        assert_eq!(json["reports"].as_array().map(Vec::len), Some(2));
        let goal = &json["goals"][0];
        assert_eq!(
            (goal["results"][0]["passed"].as_bool(), goal["results"][1]["passed"].as_bool()),
            (Some(false), Some(true))
        );
        assert!(json["figures"].as_array().unwrap().iter().all(|f| f["deltas"][0]["absolute"] == 0.0));
        // A write's cost per call keeps its meaning; per landed write is a field of its own.
        let place = &json["patterns"][2]["runs"][0];
        assert_eq!(
            (place["units_per_call"].as_f64(), place["units_per_write"].as_f64()),
            (Some(1.0), Some(1.0))
        );
        assert!(json["patterns"][0]["runs"][0]["units_per_write"].is_null());
    }
}
