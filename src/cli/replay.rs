//! `keyheat run` and `keyheat compare`: load the scenario, replay each variant through the judged
//! pipeline (`engine::judge`: simulate, price, grade), and print the report — to stdout, or whole
//! to a file with `--out`.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};

use super::output;
use super::progress::Progress;
use super::{CompareArgs, Outcome, RunArgs};
use crate::engine::judge;
use crate::engine::model::Variant;
use crate::engine::sim::report::Fidelity;
use crate::engine::sim::{RunOptions, RunReport};
use crate::report;
use crate::scenario::{self, Loaded};

pub fn run(stdout: &mut impl Write, args: &RunArgs) -> anyhow::Result<Outcome> {
    if let Some(path) = &args.out {
        output::check_new(path, args.force)?;
    }
    let loaded = scenario::load_on(&args.scenario, args.engine)?;
    let variant = loaded.variant(args.variant.as_deref())?;
    let options = RunOptions { seed: args.seed, duration: args.duration };
    let report = judged(&loaded, variant, &options, args.fidelity.replay(), &variant.name)?;
    let mut text = Vec::new();
    report::run::write(&mut text, &report, args.format)?;
    emit(stdout, args.out.as_deref(), args.force, &text, &report::run::goal_summary(&report))?;
    let failed = !judge::all_passed(&report);
    Ok(if args.fail_on_goals && failed { Outcome::GoalsFailed } else { Outcome::Done })
}

pub fn compare(stdout: &mut impl Write, args: &CompareArgs) -> anyhow::Result<Outcome> {
    if let Some(path) = &args.out {
        output::check_new(path, args.force)?;
    }
    // The file as each store reads it: every one must list the store, and be valid there.
    let stores: Vec<Loaded> = if args.engines.is_empty() {
        vec![scenario::load(&args.scenario)?]
    } else {
        for (i, engine) in args.engines.iter().enumerate() {
            if args.engines[..i].contains(engine) {
                bail!("--engine {} is given twice", engine.id());
            }
        }
        args.engines.iter().map(|&e| scenario::load_on(&args.scenario, Some(e))).collect::<Result<_, _>>()?
    };
    let variants = chosen_variants(&stores[0], &args.variants, stores.len())?;
    let options = RunOptions { seed: args.seed, duration: args.duration };
    // Each variant on each store, the stores of one variant side by side.
    let runs: Vec<(&Loaded, &str)> =
        variants.iter().flat_map(|v| stores.iter().map(move |loaded| (loaded, v.name.as_str()))).collect();
    let mut reports: Vec<RunReport> = Vec::with_capacity(runs.len());
    for (i, &(loaded, name)) in runs.iter().enumerate() {
        let variant = loaded.variant(Some(name))?;
        let on = if stores.len() > 1 { format!(" on {}", loaded.scenario.engine) } else { String::new() };
        let label = format!("{name}{on} ({}/{})", i + 1, runs.len());
        reports.push(judged(loaded, variant, &options, args.fidelity.replay(), &label)?);
    }
    let mut text = Vec::new();
    report::compare::write(&mut text, &reports, args.format)?;
    let summary = if stores.len() > 1 {
        format!("{} variants on {} stores compared", variants.len(), stores.len())
    } else {
        format!("{} variants compared", reports.len())
    };
    emit(stdout, args.out.as_deref(), args.force, &text, &summary)?;
    Ok(Outcome::Done)
}

/// The variants named (in order), or every variant a user may see when none is named. On one
/// store a comparison needs two; on several, one is enough.
fn chosen_variants<'a>(
    loaded: &'a Loaded,
    names: &[String],
    stores: usize,
) -> anyhow::Result<Vec<&'a Variant>> {
    if names.is_empty() {
        let solution = loaded.scenario.practice.as_ref().map(|p| p.solution.as_str());
        let all: Vec<&Variant> =
            loaded.scenario.variants.iter().filter(|v| Some(v.name.as_str()) != solution).collect();
        if all.len() * stores < 2 {
            bail!(
                "{}: compare needs two variants and this scenario offers {}; name them with --variant",
                loaded.file,
                all.len()
            );
        }
        return Ok(all);
    }
    // A name that does not exist is the first thing to say: it is the likelier mistake.
    let chosen: Vec<&Variant> = names.iter().map(|n| loaded.variant(Some(n))).collect::<Result<_, _>>()?;
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            bail!("variant {name:?} is given twice");
        }
    }
    if chosen.len() * stores < 2 {
        bail!(
            "compare needs at least two runs: give --variant twice or more (or none for all), or --engine twice or more"
        );
    }
    Ok(chosen)
}

fn judged(
    loaded: &Loaded,
    variant: &Variant,
    options: &RunOptions,
    replay: judge::Replay,
    label: &str,
) -> anyhow::Result<RunReport> {
    let mut progress = Progress::new(format!("{} / {label}", loaded.scenario.name));
    let report = judge::run_as(&loaded.scenario, variant, options, replay, &mut |f| progress.update(f));
    progress.finish();
    let report = report.with_context(|| format!("{}: cannot run variant {:?}", loaded.file, variant.name))?;
    if replay == judge::Replay::Auto && report.fidelity == Fidelity::Rates {
        eprintln!("keyheat: {}: {}", variant.name, report.notes[0]);
    }
    Ok(report)
}

/// The report to `out` under the output rule, or to `stdout` (no `--out`, or `--out -`).
fn emit(
    stdout: &mut impl Write,
    out: Option<&Path>,
    force: bool,
    bytes: &[u8],
    summary: &str,
) -> anyhow::Result<()> {
    match out {
        Some(path) if !output::is_stdout(path) => {
            output::write_new(path, bytes, force)?;
            eprintln!("keyheat: wrote {} ({summary})", path.display());
        }
        _ => stdout.write_all(bytes)?,
    }
    Ok(())
}
