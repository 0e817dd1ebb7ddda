//! `keyheat analyze`: a real table's data (an export, item files, scan output) read by
//! `crate::analyze`, its report printed or written whole with `--out`, and with
//! `--scenario-out` a starter scenario fitted to it. Both files follow the rule for every file
//! keyheat writes: whole or not at all, never over an existing one without `--force`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::output;
use super::progress::Progress;
use crate::analyze::{self, Options};
use crate::report::{self, RunFormat};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// A DynamoDB export downloaded from S3 (the directory with manifest-summary.json and
    /// data/*.json.gz), a .json or .json.gz file of {"Item": …} lines or a directory of them, or
    /// the output of `aws dynamodb scan`
    pub path: PathBuf,
    /// The partition key attribute (default: inferred from the first 1,000 items: PK/pk by name,
    /// else the attribute every item holds with the most distinct values)
    #[arg(long, value_name = "NAME")]
    pub partition_key: Option<String>,
    /// The sort key attribute (default: SK/sk/SortKey by name, else none)
    #[arg(long, value_name = "NAME")]
    pub sort_key: Option<String>,
    /// text, json, or md (Markdown, for a README or an issue)
    #[arg(long, value_enum, default_value_t)]
    pub format: RunFormat,
    /// Write the report to FILE (whole or not at all; `-` is stdout) instead of stdout
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write a starter scenario fitted to the data (populations, item sizes, skew) to FILE.ron,
    /// to open with `keyheat check` or `keyheat tui`
    #[arg(long, value_name = "FILE.ron")]
    pub scenario_out: Option<PathBuf>,
    /// Replace the --out or --scenario-out file if it exists
    #[arg(long)]
    pub force: bool,
}

pub fn run(stdout: &mut impl Write, args: &AnalyzeArgs) -> anyhow::Result<()> {
    // Refused before a read that may take minutes.
    for path in args.out.iter().chain(&args.scenario_out) {
        output::check_new(path, args.force)?;
    }
    let options = Options { partition_key: args.partition_key.clone(), sort_key: args.sort_key.clone() };
    let mut progress = Progress::new(format!("reading {}", args.path.display()));
    let analysis = analyze::analyze(&args.path, &options, &mut |f| progress.update(f));
    progress.finish();
    let analysis = analysis?;
    let mut text = Vec::new();
    report::analyze::write(&mut text, &analysis, args.format)?;
    match args.out.as_deref().filter(|p| !output::is_stdout(p)) {
        Some(path) => {
            output::write_new(path, &text, args.force)?;
            eprintln!("keyheat: wrote {}", path.display());
        }
        None => stdout.write_all(&text)?,
    }
    if let Some(path) = &args.scenario_out {
        let table = analysis.source.table.clone().unwrap_or_else(|| table_name(&args.path));
        let ron = analyze::starter_scenario(&analysis, &table);
        output::write_new(path, ron.as_bytes(), args.force)?;
        if !output::is_stdout(path) {
            eprintln!(
                "keyheat: wrote {}, a starter scenario fitted to the data; add its access patterns, then `keyheat check {}`",
                path.display(),
                path.display()
            );
        }
    }
    Ok(())
}

/// A name for a table read from files: the file or directory's name without its extensions.
fn table_name(path: &Path) -> String {
    let name = path.file_name().map_or_else(|| "table".to_owned(), |n| n.to_string_lossy().into_owned());
    name.split('.').next().filter(|n| !n.is_empty()).unwrap_or("table").to_owned()
}
