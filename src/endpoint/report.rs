//! Measured vs modelled: per access pattern and overall, capacity units per call, throttled
//! requests, latency (p50/p99) and what the table holds at the end, each pair flagged when the
//! two are more than [`APART`] apart. Written as text, JSON or Markdown into `impl Write`.
//!
//! Per call: a pattern's measured units are scaled up to the whole run when `--max-requests`
//! sent only part of its requests (its units × requests in the run / requests sent), then
//! divided by the model's calls, so a cut run still compares like with like. Latency is measured
//! per request (a fan-out call sends several; the model's is per call).

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use super::send::{Measured, Tally};
use super::tables::Contents;
use super::workload::Workload;
use crate::engine::metrics::nearest_rank;
use crate::engine::sim::observe::Source;
use crate::engine::sim::report::PatternReport;
use crate::report::RunFormat;
use crate::report::markdown::{self, Align};

/// Measured and modelled are flagged when they differ by more than this share of the larger.
pub const APART: f64 = 0.25;

/// Where and how the run went, for the report's heading.
#[derive(Debug, Clone, Serialize)]
pub struct Setting {
    pub endpoint: String,
    pub region: String,
    pub table: String,
    pub rate_scale: f64,
}

/// One figure, measured and modelled.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pair {
    pub measured: Option<f64>,
    pub modelled: Option<f64>,
    /// More than [`APART`] apart (and more than a rounding's worth).
    pub apart: bool,
}

impl Pair {
    fn new(measured: Option<f64>, modelled: Option<f64>, floor: f64) -> Pair {
        let apart = match (measured, modelled) {
            (Some(m), Some(e)) => {
                let gap = (m - e).abs();
                gap > floor && gap > APART * m.abs().max(e.abs())
            }
            _ => false,
        };
        Pair { measured, modelled, apart }
    }
}

/// One access pattern's (or the whole run's) figures.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub name: String,
    /// Requests sent (a retry is not another request).
    pub sent: u64,
    /// Requests the modelled run served for it.
    pub in_run: u64,
    pub units_per_call: Pair,
    pub throttled_pct: Pair,
    pub latency_ms_p50: Pair,
    pub latency_ms_p99: Pair,
    pub gave_up: u64,
    pub errors: BTreeMap<String, u64>,
    /// Successful requests whose answer carried no `ConsumedCapacity`.
    pub unmetered: u64,
}

/// The whole comparison.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub scenario: String,
    pub variant: String,
    pub seed: u64,
    pub simulated_s: f64,
    pub setting: Setting,
    pub retry_policy: String,
    pub sent: u64,
    pub in_run: u64,
    pub interrupted: bool,
    pub wall_s: f64,
    /// How late the latest request went out against the schedule.
    pub max_behind_s: f64,
    pub patterns: Vec<Row>,
    /// The preload and population growth: sent, not compared (the model loads them free).
    pub upkeep: Option<Row>,
    pub overall: Row,
    pub items: Pair,
    pub table_bytes: Pair,
    /// The item count stopped early (a table past 200 pages).
    pub items_partial: bool,
    pub notes: Vec<String>,
}

fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    let rank = nearest_rank(q, sorted.len() as u64);
    (rank > 0).then(|| sorted[usize::try_from(rank - 1).unwrap_or(0)])
}

fn sorted(latencies: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut all: Vec<f64> = latencies.collect();
    all.sort_by(f64::total_cmp);
    all
}

fn pct(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 * 100.0 / whole as f64)
}

/// Builds the comparison from the run's workload, what was measured and the table's contents.
pub fn compare(
    workload: &Workload,
    measured: &Measured,
    contents: Option<Contents>,
    setting: Setting,
) -> Comparison {
    let model = &workload.model;
    let in_run = |source: Source| workload.totals.get(&source).copied().unwrap_or(0);
    let empty = Tally::default();
    // Units scaled to the whole run (see the module documentation).
    let scaled = |tally: &Tally, source: Source| {
        (tally.requests > tally.unmetered).then(|| {
            let metered = (tally.requests - tally.unmetered) as f64;
            tally.units * in_run(source) as f64 / metered
        })
    };
    let mut measured_units = 0.0;
    let mut patterns = Vec::new();
    for (i, p) in model.patterns.iter().enumerate() {
        let source = Source::Pattern(i);
        let tally = measured.by_source.get(&source).unwrap_or(&empty);
        let units = scaled(tally, source);
        measured_units += units.unwrap_or(0.0);
        patterns.push(pattern_row(p, tally, in_run(source), units));
    }
    let upkeep =
        measured.by_source.get(&Source::Upkeep).map(|tally| upkeep_row(tally, in_run(Source::Upkeep)));
    let called: Vec<(&Source, &Tally)> =
        measured.by_source.iter().filter(|(s, _)| matches!(s, Source::Pattern(_))).collect();
    let sum = |f: fn(&Tally) -> u64| called.iter().map(|(_, t)| f(t)).sum::<u64>();
    let mut errors = BTreeMap::new();
    for (_, t) in &called {
        for (kind, n) in &t.errors {
            *errors.entry(kind.clone()).or_default() += n;
        }
    }
    let latencies = sorted(called.iter().flat_map(|(_, t)| t.latencies_ms.iter().copied()));
    let ops = model.totals.ops;
    let overall = Row {
        name: "overall".to_owned(),
        sent: sum(|t| t.requests),
        in_run: model.patterns.iter().enumerate().map(|(i, _)| in_run(Source::Pattern(i))).sum(),
        units_per_call: Pair::new(
            (ops > 0 && !called.is_empty()).then(|| measured_units / ops as f64),
            (ops > 0).then(|| (model.totals.rcu + model.totals.wcu) / ops as f64),
            0.01,
        ),
        throttled_pct: Pair::new(
            pct(sum(|t| t.throttled), sum(|t| t.requests)),
            pct(model.totals.throttled_ops, model.totals.requests),
            0.5,
        ),
        latency_ms_p50: Pair::new(percentile(&latencies, 0.5), None, 1.0),
        latency_ms_p99: Pair::new(percentile(&latencies, 0.99), None, 1.0),
        gave_up: sum(|t| t.gave_up),
        errors,
        unmetered: sum(|t| t.unmetered),
    };
    let complete = measured.sent == workload.requests.len() as u64 && !measured.interrupted;
    let in_run_all: u64 = workload.totals.values().sum();
    let whole = complete && in_run_all == measured.sent;
    // The table's contents compare only when the whole run was sent.
    let items = Pair::new(contents.map(|c| c.items as f64), whole.then_some(model.totals.items as f64), 0.0);
    let table_bytes = Pair::new(
        contents.and_then(|c| c.bytes).map(|b| b as f64),
        whole.then_some(model.totals.table_bytes as f64),
        0.0,
    );
    let notes = notes(measured, contents, whole, in_run_all);
    Comparison {
        scenario: model.scenario.clone(),
        variant: model.variant.clone(),
        seed: model.seed,
        simulated_s: model.duration_s,
        setting,
        retry_policy: model.retry_policy.clone().unwrap_or_default(),
        sent: measured.sent,
        in_run: in_run_all,
        interrupted: measured.interrupted,
        wall_s: measured.wall.as_secs_f64(),
        max_behind_s: measured.max_behind.as_secs_f64(),
        patterns,
        upkeep,
        overall,
        items,
        table_bytes,
        items_partial: contents.is_some_and(|c| c.partial),
        notes,
    }
}

/// What a reader needs to read the figures right.
fn notes(measured: &Measured, contents: Option<Contents>, whole: bool, in_run_all: u64) -> Vec<String> {
    let mut notes = vec![
        "Measured latency is per request, from its first send to its last answer (retry waits included); \
         the model's is per call."
            .to_owned(),
        "Each request was sent once, as the model's client served it; the model's throttled requests landed \
         where their retries did, so the endpoint sees the model's successful schedule, not its retries."
            .to_owned(),
    ];
    if !whole {
        notes.push(format!(
            "Only {} of the run's {in_run_all} requests were sent (--max-requests or Ctrl-C): units per call are \
             scaled up from what was sent, the table's contents are not compared.",
            measured.sent
        ));
    }
    match contents {
        Some(Contents { bytes: Some(_), .. }) => notes.push(
            "Table bytes: DynamoDB's TableSizeBytes, which AWS refreshes about every six hours.".to_owned(),
        ),
        Some(Contents { bytes: None, .. }) => notes.push(
            "Table bytes: the endpoint's TableSizeBytes is 0 for a table with items (stale, or not kept)."
                .to_owned(),
        ),
        None => notes.push("The table's contents could not be counted after the run.".to_owned()),
    }
    let no_index_units: u64 = measured.by_source.values().map(|t| t.no_index_units).sum();
    if no_index_units > 0 {
        notes.push(format!(
            "{no_index_units} writes on a table with GSIs were answered without GSI units: an emulator such as \
             dynalite meters the table only, DynamoDB leaves out an index the write did not change. Write units \
             per call then fall short of the model's, which charges each index."
        ));
    }
    notes
}

/// One pattern's row; `units` are its measured units scaled to the whole run.
fn pattern_row(p: &PatternReport, tally: &Tally, in_run: u64, units: Option<f64>) -> Row {
    let per_call = |u: f64| (p.calls > 0).then(|| u / p.calls as f64);
    let latencies = sorted(tally.latencies_ms.iter().copied());
    let modelled = |ms: f64| (p.calls > 0).then_some(ms);
    Row {
        name: p.name.clone(),
        sent: tally.requests,
        in_run,
        units_per_call: Pair::new(units.and_then(per_call), per_call(p.rcu + p.wcu), 0.01),
        throttled_pct: Pair::new(pct(tally.throttled, tally.requests), pct(p.throttled, p.requests), 0.5),
        latency_ms_p50: Pair::new(percentile(&latencies, 0.5), modelled(p.latency_ms_p50), 1.0),
        latency_ms_p99: Pair::new(percentile(&latencies, 0.99), modelled(p.latency_ms_p99), 1.0),
        gave_up: tally.gave_up,
        errors: tally.errors.clone(),
        unmetered: tally.unmetered,
    }
}

/// The preload's and growth's requests: measured only (the model loads them free).
fn upkeep_row(tally: &Tally, in_run: u64) -> Row {
    let latencies = sorted(tally.latencies_ms.iter().copied());
    Row {
        name: "preload and growth".to_owned(),
        sent: tally.requests,
        in_run,
        units_per_call: Pair::new(None, None, 0.0),
        throttled_pct: Pair::new(pct(tally.throttled, tally.requests), None, 0.5),
        latency_ms_p50: Pair::new(percentile(&latencies, 0.5), None, 1.0),
        latency_ms_p99: Pair::new(percentile(&latencies, 0.99), None, 1.0),
        gave_up: tally.gave_up,
        errors: tally.errors.clone(),
        unmetered: 0,
    }
}

/// Writes the comparison in `format`.
pub fn write(out: &mut impl Write, c: &Comparison, format: RunFormat) -> io::Result<()> {
    match format {
        RunFormat::Text => text(out, c),
        RunFormat::Json => crate::report::json::write(out, c),
        RunFormat::Md => md(out, c),
    }
}

fn cell(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.decimals$}"))
}

/// `measured / modelled`, with `!` when they are apart.
fn pair(p: Pair, decimals: usize) -> String {
    let mark = if p.apart { " !" } else { "" };
    format!("{} / {}{mark}", cell(p.measured, decimals), cell(p.modelled, decimals))
}

const COLUMNS: [(&str, Align); 6] = [
    ("access pattern", Align::Left),
    ("requests sent", Align::Right),
    ("units/call", Align::Right),
    ("throttled %", Align::Right),
    ("p50 ms", Align::Right),
    ("p99 ms", Align::Right),
];

fn cells(row: &Row) -> Vec<String> {
    vec![
        row.name.clone(),
        format!("{} of {}", row.sent, row.in_run),
        pair(row.units_per_call, 2),
        pair(row.throttled_pct, 1),
        pair(row.latency_ms_p50, 1),
        pair(row.latency_ms_p99, 1),
    ]
}

fn rows(c: &Comparison) -> Vec<Vec<String>> {
    c.patterns.iter().chain(&c.upkeep).chain(std::iter::once(&c.overall)).map(cells).collect()
}

fn heading(c: &Comparison) -> String {
    format!(
        "{} / {} against {} ({}), table {}: {} of {} requests in {:.1} s at rate scale {} (latest {:.1} s behind schedule){}",
        c.scenario,
        c.variant,
        c.setting.endpoint,
        c.setting.region,
        c.setting.table,
        c.sent,
        c.in_run,
        c.wall_s,
        c.setting.rate_scale,
        c.max_behind_s,
        if c.interrupted { ", stopped by Ctrl-C" } else { "" }
    )
}

fn trailer(c: &Comparison) -> Vec<String> {
    let mut lines = vec![
        format!("table items: {}", pair(c.items, 0))
            + if c.items_partial { " (count stopped early)" } else { "" },
        format!("table bytes: {}", pair(c.table_bytes, 0)),
        format!("retry policy: {}", c.retry_policy),
    ];
    let errors: Vec<String> = c.overall.errors.iter().map(|(k, n)| format!("{k} × {n}")).collect();
    if !errors.is_empty() {
        lines.push(format!("errors: {}", errors.join(", ")));
    }
    if c.overall.gave_up > 0 {
        lines.push(format!("gave up after the last retry: {}", c.overall.gave_up));
    }
    if c.overall.unmetered > 0 {
        lines.push(format!(
            "answers without ConsumedCapacity: {} (the endpoint does not meter them)",
            c.overall.unmetered
        ));
    }
    lines
}

fn text(out: &mut impl Write, c: &Comparison) -> io::Result<()> {
    writeln!(out, "{}", heading(c))?;
    writeln!(
        out,
        "Each cell is measured / modelled; ! marks figures more than {:.0}% apart.",
        APART * 100.0
    )?;
    writeln!(out)?;
    let rows = rows(c);
    let widths: Vec<usize> = COLUMNS
        .iter()
        .enumerate()
        .map(|(i, (h, _))| {
            rows.iter().map(|r| r[i].chars().count()).chain([h.chars().count()]).max().unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .zip(COLUMNS)
            .map(|((text, &w), (_, align))| match align {
                Align::Left => format!("{text:<w$}"),
                Align::Right => format!("{text:>w$}"),
            })
            .collect();
        padded.join("  ").trim_end().to_owned()
    };
    writeln!(out, "{}", line(COLUMNS.iter().map(|(h, _)| (*h).to_owned()).collect()))?;
    for row in rows {
        writeln!(out, "{}", line(row))?;
    }
    writeln!(out)?;
    for l in trailer(c) {
        writeln!(out, "{l}")?;
    }
    for note in &c.notes {
        writeln!(out, "note: {note}")?;
    }
    Ok(())
}

fn md(out: &mut impl Write, c: &Comparison) -> io::Result<()> {
    writeln!(out, "# keyheat replay: measured vs modelled")?;
    writeln!(out)?;
    writeln!(out, "{}", heading(c))?;
    writeln!(out)?;
    writeln!(
        out,
        "Each cell is measured / modelled; ! marks figures more than {:.0}% apart.",
        APART * 100.0
    )?;
    writeln!(out)?;
    markdown::table(out, &COLUMNS, &rows(c))?;
    writeln!(out)?;
    for l in trailer(c).iter().chain(&c.notes) {
        writeln!(out, "- {l}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_apart_past_a_quarter_of_the_larger_and_a_rounding() {
        let cases =
            [(1.0, 1.0, false), (1.0, 1.3, false), (1.0, 1.5, true), (0.5, 0.0, true), (0.004, 0.0, false)];
        for (m, e, apart) in cases {
            assert_eq!(Pair::new(Some(m), Some(e), 0.01).apart, apart, "{m} vs {e}");
        }
        assert!(!Pair::new(None, Some(3.0), 0.0).apart);
        assert_eq!(pair(Pair::new(Some(2.0), Some(1.0), 0.0), 1), "2.0 / 1.0 !");
        assert_eq!(pair(Pair::new(None, Some(1.0), 0.0), 1), "- / 1.0");
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let samples: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&samples, 0.5), Some(50.0));
        assert_eq!(percentile(&samples, 0.99), Some(99.0));
        assert_eq!(percentile(&[], 0.5), None);
    }
}
