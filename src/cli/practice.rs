//! `keyheat practice`: an interview session on a practice problem — the workbench opened on the
//! prompt with an optional countdown; on submit (`S`) or when time is up it writes the Markdown
//! grade report. `--grade VARIANT` grades a file's variant headless and writes the same report
//! (without the session's hints and time), exiting 3 when a goal fails or is not graded, as `run --fail-on-goals`.

use std::io::Write;
use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use super::{Outcome, output};
use crate::engine::judge;
use crate::engine::sim::RunOptions;
use crate::report::practice::{Grade, markdown};
use crate::scenario::{self, Loaded};

#[derive(Debug, Args)]
pub struct PracticeArgs {
    /// A bundled practice problem (`practice-chat`) or a path to a .ron file with `practice`
    pub problem: String,
    /// A time limit: a countdown in the status line, and the session ends when it runs out
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub minutes: Option<u32>,
    /// Where the Markdown grade report goes (default: keyheat-grade-NAME.md in this directory;
    /// with --grade, stdout); an existing file is replaced only with --force
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Replace the report file if it exists
    #[arg(long)]
    pub force: bool,
    /// Grade this variant of the file headless and write its grade report instead of opening
    /// the workbench; exits 3 when a goal fails or is not graded
    #[arg(long, value_name = "VARIANT", conflicts_with = "minutes")]
    pub grade: Option<String>,
    /// The session's colours: dark (the terminal's own), light (dark text on white) or
    /// high-contrast (for a projector); `t` cycles them. NO_COLOR still turns colour off
    #[cfg(feature = "tui")]
    #[arg(long, value_enum, default_value_t, conflicts_with = "grade")]
    pub theme: crate::tui::theme::Palette,
}

/// The problem, refused when the file is not a practice problem.
fn problem(name: &str) -> anyhow::Result<Loaded> {
    let loaded = scenario::load(name)?;
    if loaded.scenario.practice.is_none() {
        bail!(
            "{}: {} is a scenario, not a practice problem (it has no `practice`); `keyheat list` names the practice problems",
            loaded.file,
            loaded.scenario.name
        );
    }
    Ok(loaded)
}

/// `--grade VARIANT`: replay the variant and write the grade report.
pub fn grade(stdout: &mut impl Write, args: &PracticeArgs, variant: &str) -> anyhow::Result<Outcome> {
    if let Some(path) = &args.report {
        output::check_new(path, args.force)?;
    }
    let loaded = problem(&args.problem)?;
    let v = loaded.variant(Some(variant))?;
    let report = judge::run(&loaded.scenario, v, &RunOptions::default(), &mut |_| {})?;
    let keys = loaded
        .scenario
        .variants
        .iter()
        .position(|x| x.name == v.name)
        .and_then(|i| loaded.variant_source(i))
        .map(|s| s.text)
        .unwrap_or_default();
    let grade = Grade {
        scenario: &loaded.scenario,
        variant: &v.name,
        keys: &keys,
        seed: report.seed,
        replay_s: report.duration_s,
        goals: &report.goals,
        session: None,
    };
    let mut bytes = Vec::new();
    markdown(&mut bytes, &grade)?;
    match &args.report {
        Some(path) if !output::is_stdout(path) => {
            output::write_new(path, &bytes, args.force)?;
            let verdict = if grade.passed() { "pass" } else { "fail" };
            eprintln!("keyheat: wrote {} ({verdict})", path.display());
        }
        _ => stdout.write_all(&bytes)?,
    }
    Ok(if judge::all_passed(&report) { Outcome::Done } else { Outcome::GoalsFailed })
}

/// The session the workbench runs: checked before the terminal is touched, so a bad name or a
/// report file in the way is a plain error.
#[cfg(feature = "tui")]
pub fn session(args: &PracticeArgs) -> anyhow::Result<crate::tui::Launch> {
    let loaded = problem(&args.problem)?;
    let report = args
        .report
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("keyheat-grade-{}.md", loaded.scenario.name)));
    if output::is_stdout(&report) {
        bail!("a session's grade report goes to a file: the terminal is the workbench's");
    }
    output::check_new(&report, args.force)?;
    let limit = args.minutes.map(|m| std::time::Duration::from_secs(u64::from(m) * 60));
    Ok(crate::tui::Launch {
        scenario: Some(args.problem.clone()),
        variant: None,
        engine: None,
        seed: None,
        session: Some(crate::tui::practice::Session {
            limit,
            elapsed: std::time::Duration::ZERO,
            report,
            overwrite: args.force,
            ended: None,
        }),
        theme: args.theme,
    })
}

#[cfg(all(test, feature = "tui"))]
mod tests {
    use clap::Parser;

    use crate::cli::{Cli, Command};
    use crate::tui::theme::Palette;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("keyheat").chain(args.iter().copied()))
    }

    #[test]
    fn a_session_opens_in_the_theme_asked_for() {
        let report = std::env::temp_dir().join(format!("keyheat-theme-{}.md", std::process::id()));
        let report = report.display().to_string();
        for (flag, palette) in [
            (None, Palette::Dark),
            (Some("light"), Palette::Light),
            (Some("high-contrast"), Palette::HighContrast),
        ] {
            let mut args = vec!["practice", "practice-chat", "--report", report.as_str()];
            args.extend(flag.iter().flat_map(|f| ["--theme", f]));
            let Some(Command::Practice(practice)) = parse(&args).expect("parses").command else {
                panic!("{args:?} is a practice command");
            };
            assert_eq!(super::session(&practice).expect("a session").theme, palette, "{args:?}");
        }
        // Grading headless draws nothing: a theme there is a mistake, not ignored.
        assert!(parse(&["practice", "practice-chat", "--grade", "naive", "--theme", "light"]).is_err());
    }
}
