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
    let loaded = scenario::load_on(&args.scenario, args.engine)?;
    let variants = chosen_variants(&loaded, &args.variants)?;
    let options = RunOptions { seed: args.seed, duration: args.duration };
    let mut reports: Vec<RunReport> = Vec::with_capacity(variants.len());
    for (i, variant) in variants.iter().enumerate() {
        let label = format!("{} ({}/{})", variant.name, i + 1, variants.len());
        reports.push(judged(&loaded, variant, &options, args.fidelity.replay(), &label)?);
    }
    let mut text = Vec::new();
    report::compare::write(&mut text, &reports, args.format)?;
    let summary = format!("{} variants compared", reports.len());
    emit(stdout, args.out.as_deref(), args.force, &text, &summary)?;
    Ok(Outcome::Done)
}

/// The variants named (in order), or every variant a user may see when none is named.
fn chosen_variants<'a>(loaded: &'a Loaded, names: &[String]) -> anyhow::Result<Vec<&'a Variant>> {
    if names.is_empty() {
        let solution = loaded.scenario.practice.as_ref().map(|p| p.solution.as_str());
        let all: Vec<&Variant> =
            loaded.scenario.variants.iter().filter(|v| Some(v.name.as_str()) != solution).collect();
        if all.len() < 2 {
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
    if chosen.len() < 2 {
        bail!("compare needs at least two variants: give --variant twice or more (or none for all)");
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
