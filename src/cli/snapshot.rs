//! `keyheat snapshot`: the workbench as it looks at a simulated time, drawn by the TUI's own
//! render function into a buffer of the asked size and written as SVG (colours and box drawing
//! kept), for slides and the README. The replay runs headless to the moment asked for (by
//! default the workload's end); the picture is what `keyheat tui` shows at that moment, paused.
//!
//! `--compare BEFORE` draws the compare view: BEFORE and `--variant` replayed on the same seed to
//! the same moment, side by side, with the figures of `keyheat compare`.
//!
//! The file is written under `cli/output`'s rule, as every command's: whole or not at all, an
//! existing file replaced only with `--force`, `-` for standard output.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::output;
use super::progress::Progress;
use crate::engine::judge;
use crate::engine::metrics::Metric;
use crate::engine::model::Engine;
use crate::engine::sim::{self, RunOptions, SimError};
use crate::engine::time::SimDuration;
use crate::tui::app::{App, Config, Screen};
use crate::tui::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::tui::panels::heatmap;
use crate::tui::replay::SimReplay;
use crate::tui::theme::{Palette, Theme};
use crate::tui::{svg, ui};

/// The largest picture drawn: past this an SVG is megabytes of text nobody can read.
const MAX_COLS: u16 = 500;
const MAX_ROWS: u16 = 200;

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// A bundled scenario name (`sensors`) or a path to a .ron file
    pub scenario: String,
    /// The key design to show (default: the file's first variant)
    #[arg(long)]
    pub variant: Option<String>,
    /// The store to replay on: dynamodb, cassandra, cosmosdb or mongodb (default: the file's
    /// `engine`; another must be listed in its `engines`)
    #[arg(long, value_parser = super::parse_engine)]
    pub engine: Option<Engine>,
    /// Seed for the workload (default: the scenario's)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulated time since the workload's start: 90s, 15m, 6h, 30d, 52w (default: its end)
    #[arg(long, value_parser = SimDuration::parse)]
    pub at: Option<SimDuration>,
    /// The terminal size to draw, COLSxROWS (at least 80x24)
    #[arg(long, default_value = "120x40", value_parser = parse_size)]
    pub size: (u16, u16),
    /// What the heatmap shows (as `m` cycles it in the TUI); normalized-ru on Cosmos DB only
    #[arg(long, value_enum, default_value_t = HeatMetric::WriteUnits)]
    pub metric: HeatMetric,
    /// Draw the compare view instead: this variant (replayed on the same seed to the same
    /// moment) beside --variant, with the figures of `keyheat compare`
    #[arg(long, value_name = "VARIANT")]
    pub compare: Option<String>,
    /// The SVG file to write (whole or not at all; the directory must exist; `-` is stdout)
    #[arg(long, value_name = "FILE.svg")]
    pub out: PathBuf,
    /// Replace FILE if it exists
    #[arg(long)]
    pub force: bool,
    /// Colours: dark, light (dark text on white) or high-contrast (for a projector)
    #[arg(long, value_enum, default_value_t)]
    pub theme: Palette,
}

/// The heatmap's metrics by their command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HeatMetric {
    WriteUnits,
    ReadUnits,
    Throttled,
    Bytes,
    Items,
    /// Cosmos DB's normalized RU consumption: each partition's busiest second against its
    /// physical partition's share of the container's RU/s
    NormalizedRu,
}

impl From<HeatMetric> for Metric {
    fn from(m: HeatMetric) -> Metric {
        match m {
            HeatMetric::WriteUnits => Metric::WriteUnits,
            HeatMetric::ReadUnits => Metric::ReadUnits,
            HeatMetric::Throttled => Metric::Throttled,
            HeatMetric::Bytes => Metric::Bytes,
            HeatMetric::Items => Metric::Items,
            HeatMetric::NormalizedRu => Metric::NormalizedRu,
        }
    }
}

pub(super) fn parse_size(text: &str) -> Result<(u16, u16), String> {
    let bad = || format!("{text:?} is not a size: write COLSxROWS, e.g. 120x40");
    // A dimension is digits; one too big for any integer is still a size, only too large.
    let dimension = |part: &str| -> Result<u64, String> {
        let part = part.trim();
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        Ok(part.parse::<u64>().unwrap_or(u64::MAX))
    };
    let (cols_text, rows_text) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (cols, rows) = (dimension(cols_text)?, dimension(rows_text)?);
    if cols > u64::from(MAX_COLS) || rows > u64::from(MAX_ROWS) {
        let (cols, rows) = (cols_text.trim(), rows_text.trim());
        return Err(format!("{cols}x{rows} is larger than {MAX_COLS}x{MAX_ROWS}"));
    }
    if cols < u64::from(MIN_WIDTH) || rows < u64::from(MIN_HEIGHT) {
        return Err(format!("{cols}x{rows} is smaller than the workbench's {MIN_WIDTH}x{MIN_HEIGHT}"));
    }
    // Both fit: at most MAX_COLS x MAX_ROWS.
    Ok((u16::try_from(cols).map_err(|_| bad())?, u16::try_from(rows).map_err(|_| bad())?))
}

pub fn run(args: &SnapshotArgs) -> anyhow::Result<()> {
    // Everything that can be refused is refused before a long replay starts.
    output::check_new(&args.out, args.force)?;
    let mut app = App::new(
        Config { theme: Theme { palette: args.theme, color: true }, state_dir: None },
        Box::new(SimReplay::exact()),
    );
    // With --compare the baseline's design opens first and --variant replaces it, as `v` would.
    app.open_on(&args.scenario, args.compare.as_deref().or(args.variant.as_deref()), args.seed, args.engine)?;
    if args.compare.is_some() {
        let Screen::Workbench(w) = &app.screen else { bail!("{}: the scenario did not open", args.scenario) };
        let name = match &args.variant {
            Some(v) => v.clone(),
            None => w.loaded.scenario.variants[0].name.clone(),
        };
        app.switch_variant(&name).map_err(|e| anyhow::anyhow!("{}: {e}", args.scenario))?;
    }
    let Screen::Workbench(w) = &mut app.screen else { bail!("{}: the scenario did not open", args.scenario) };
    let metric = Metric::from(args.metric);
    let engine = w.loaded.scenario.engine;
    if !heatmap::offers(engine, metric) {
        let cosmos = if w.loaded.scenario.engines.contains(&Engine::CosmosDb) {
            "add --engine cosmosdb (the file lists it)"
        } else {
            "the file does not list Cosmos DB in its `engines`"
        };
        bail!(
            "{}: --metric normalized-ru is Cosmos DB's normalized RU consumption, and this replay is on {engine}, which has no request units shared among partitions; {cosmos}",
            args.scenario
        );
    }
    w.heat.metric = metric;
    let (scenario, variant, workload) =
        (w.loaded.scenario.name.clone(), w.current().name.clone(), w.loaded.scenario.workload.clone());
    let at = args.at.unwrap_or(workload.duration);
    if at > workload.duration {
        bail!("--at {at} is past the end of the workload ({})", workload.duration);
    }
    // The replay stops at the end of a tick (the rule `run` holds `--duration` to): a moment
    // inside one would be drawn as the next.
    if let Err(SimError::NotWholeTicks { tick, below, above, .. }) = sim::tick_count(workload.tick, at) {
        bail!(
            "--at {at} is not a whole number of ticks ({tick}): the replay stops at the end of a tick; use {below} or {above}"
        );
    }
    // A run too large to replay call by call is replayed as rates, computed whole: it has no
    // earlier moment to draw.
    let options = RunOptions { seed: args.seed, duration: None };
    // With --compare, the baseline's design too.
    let designs = std::iter::once(w.current())
        .chain(args.compare.as_deref().and_then(|b| w.loaded.scenario.variants.iter().find(|v| v.name == b)));
    for design in designs.filter(|_| at < workload.duration) {
        let Some(calls) = judge::too_large(&w.loaded.scenario, design, &options) else { continue };
        let variant = &design.name;
        bail!(
            "{scenario} / {variant}: {calls:.1e} calls are too many to replay call by call, so the run is replayed as rates, computed whole to its end ({}): it can be drawn at its end only; leave out --at",
            workload.duration
        );
    }
    if let Some(message) = app.message.as_ref().map(|(m, _)| m.clone()) {
        bail!("{scenario}: cannot replay variant {variant:?}: {message}");
    }
    let mut progress = Progress::new(format!("{scenario} / {variant} to +{at}"));
    app.run_to(workload.start + at, &mut |f| progress.update(f));
    progress.finish();
    if args.compare.is_some() {
        app.update(crate::tui::action::Action::Compare);
        if let Some((message, _)) = &app.message {
            bail!("{scenario}: cannot compare: {message}");
        }
    }
    let (cols, rows) = args.size;
    let buffer = ui::render_workbench(&mut app, cols, rows);
    output::write_new(&args.out, svg::render(&buffer, app.theme.base()).as_bytes(), args.force)?;
    // `-` is standard output: no file was written, so none is named.
    if !output::is_stdout(&args.out) {
        eprintln!("keyheat: wrote {} ({scenario} / {variant} at +{at}, {cols}x{rows})", args.out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_within_bounds() {
        type Case = (&'static str, Result<(u16, u16), &'static str>);
        let cases: [Case; 12] = [
            ("120x40", Ok((120, 40))),
            ("80X24", Ok((80, 24))),
            ("500x200", Ok((500, 200))),
            ("79x24", Err("smaller than the workbench's 80x24")),
            ("501x40", Err("larger than 500x200")),
            // Too large is too large, however large (it was "not a size" past 65535).
            ("65535x65535", Err("65535x65535 is larger than 500x200")),
            ("100000x100000", Err("100000x100000 is larger than 500x200")),
            ("99999999999999999999999x40", Err("is larger than 500x200")),
            ("120", Err("not a size")),
            ("ax40", Err("not a size")),
            ("-120x40", Err("not a size")),
            ("x40", Err("not a size")),
        ];
        for (text, want) in cases {
            match (parse_size(text), want) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{text}"),
                (Err(e), Err(part)) => assert!(e.contains(part), "{text}: {e}"),
                (got, want) => panic!("{text}: {got:?}, wanted {want:?}"),
            }
        }
    }

    #[test]
    fn compare_draws_both_designs_at_the_same_moment() {
        let dir = std::env::temp_dir().join(format!("keyheat-snapshot-compare-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the temp dir is writable");
        let args = |compare: &str, out: &str| SnapshotArgs {
            scenario: "orders".to_owned(),
            variant: Some("recommended".to_owned()),
            engine: None,
            seed: None,
            at: Some(SimDuration::from_secs(3600)),
            size: (120, 40),
            metric: HeatMetric::WriteUnits,
            compare: Some(compare.to_owned()),
            out: dir.join(out),
            force: false,
            theme: Palette::Dark,
        };
        run(&args("naive", "compare.svg")).expect("the compare view is drawn");
        let svg = std::fs::read_to_string(dir.join("compare.svg")).expect("written");
        // Text is drawn a cell at a time; the words are there once the markup is taken out.
        let text: String = svg.split('<').filter_map(|t| t.split_once('>').map(|(_, s)| s)).collect();
        for want in ["Heatmap — now: recommended", "Heatmap — before: naive", "largest (indexes)"] {
            assert!(text.contains(want), "{want} missing");
        }
        let e = run(&args("no-such", "bad.svg")).expect_err("an unknown variant is refused");
        assert!(e.to_string().contains("no-such"), "{e}");
        assert!(!dir.join("bad.svg").exists(), "nothing written");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
