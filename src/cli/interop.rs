//! `keyheat import` and `keyheat export`: other tools' formats in and out (`crate::interop`
//! reads and writes them). Every file lands whole or not at all and an existing one is replaced
//! only with `--force`; `-` or no `--out` is standard output.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::output;
use super::progress::Progress;
use crate::engine::sim::RunOptions;
use crate::engine::time::SimDuration;
use crate::interop::{cloudformation, cql, nwb, trace};
use crate::scenario;

#[derive(Debug, Subcommand)]
pub enum Import {
    /// A NoSQL Workbench data model (its "Export data model" JSON) → a scenario file
    ///
    /// Facets become entities, key aliases and sample items key templates, GSIs indexes; each
    /// entity gets a "get by key" pattern. Rates and populations are guesses the file marks for
    /// you to set. What cannot be mapped is said on stderr, one line per part.
    Nwb {
        /// The model file (JSON)
        model: PathBuf,
        /// Which of the model's tables to import (default: the first)
        #[arg(long)]
        table: Option<String>,
        #[command(flatten)]
        out: Out,
    },
}

#[derive(Debug, Subcommand)]
pub enum Export {
    /// The key design as a NoSQL Workbench data model, with sample items generated from the workload
    Nwb(Design),
    /// The tables as a CloudFormation template (AWS::DynamoDB::Table per table)
    Cloudformation {
        #[command(flatten)]
        design: Design,
        /// yaml or json
        #[arg(long, value_enum, default_value_t)]
        format: cloudformation::Format,
    },
    /// The Cassandra profile's tables and views as CQL (CREATE TABLE, CREATE MATERIALIZED VIEW)
    Cql(Design),
    /// The replay's workload as DynamoDB API requests in `keyheat ops` JSON Lines
    ///
    /// The file starts with the table's CreateTable (and UpdateTimeToLive), then an AdvanceTime to
    /// the workload's start, then every request the replay served, in order: the preload's
    /// PutItems (free in the replay, so sent without ReturnConsumedCapacity), then the workload's
    /// PutItem, UpdateItem, DeleteItem, GetItem, BatchGetItem, Query (one line per page, with
    /// IndexName, Limit, ExclusiveStartKey) and Scan pages with ReturnConsumedCapacity INDEXES,
    /// and an AdvanceTime whenever simulated time passes a whole second. Each request is there
    /// once, as a client sends it: one the replay's client retried after throttling is where its
    /// retry landed, one that ran out of retries is left out (it changed nothing). `keyheat ops`
    /// does not throttle, so replaying the trace gives the replay's item counts and the consumed
    /// capacity of the requests it served. DynamoDB profile only.
    Trace {
        #[command(flatten)]
        design: Design,
        /// Seed for the workload (default: the scenario's)
        #[arg(long)]
        seed: Option<u64>,
        /// Simulated time to replay, a whole number of the scenario's ticks: 90s, 15m, 6h, 30d, 52w (default: the scenario's)
        #[arg(long, value_parser = super::parse_duration)]
        duration: Option<SimDuration>,
        /// At most N requests (the preload's count; CreateTable and AdvanceTime lines do not)
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
    },
}

impl Export {
    pub fn design(&self) -> &Design {
        let (Export::Nwb(design)
        | Export::Cql(design)
        | Export::Cloudformation { design, .. }
        | Export::Trace { design, .. }) = self;
        design
    }
}

/// The scenario and variant an export writes, and where.
#[derive(Debug, Args)]
pub struct Design {
    /// A bundled scenario name (`sensors`) or a path to a .ron file
    pub scenario: String,
    /// The key design to export (default: the file's first variant)
    #[arg(long)]
    pub variant: Option<String>,
    #[command(flatten)]
    pub out: Out,
}

#[derive(Debug, Args)]
pub struct Out {
    /// The file to write (whole or not at all; the directory must exist); `-` or none: stdout
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace FILE if it exists
    #[arg(long)]
    pub force: bool,
}

impl Out {
    /// The file to write, if not stdout; refused before any work when it cannot be written.
    fn target(&self) -> anyhow::Result<Option<&Path>> {
        let Some(path) = self.out.as_deref().filter(|p| !output::is_stdout(p)) else { return Ok(None) };
        output::check_new(path, self.force)?;
        Ok(Some(path))
    }

    fn write(&self, stdout: &mut impl Write, text: &str) -> anyhow::Result<()> {
        match self.target()? {
            Some(path) => output::write_new(path, text.as_bytes(), self.force)?,
            None => stdout.write_all(text.as_bytes())?,
        }
        Ok(())
    }
}

pub fn import(stdout: &mut impl Write, command: &Import) -> anyhow::Result<()> {
    let Import::Nwb { model, table, out } = command;
    out.target()?;
    let text = std::fs::read_to_string(model)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", model.display()))?;
    let imported = nwb::import(&model.display().to_string(), &text, table.as_deref())?;
    for note in &imported.notes {
        eprintln!("keyheat: {note}");
    }
    out.write(stdout, &imported.ron)
}

pub fn export(stdout: &mut impl Write, command: &Export) -> anyhow::Result<()> {
    let design = command.design();
    design.out.target()?;
    let loaded = scenario::load(&design.scenario)?;
    let variant = loaded.variant(design.variant.as_deref())?;
    let text = match command {
        Export::Cloudformation { format, .. } => cloudformation::render(&loaded.scenario, variant, *format),
        Export::Cql(_) => cql::render(&loaded.scenario, variant)?,
        Export::Trace { seed, duration, limit, .. } => {
            let options =
                trace::Options { run: RunOptions { seed: *seed, duration: *duration }, limit: *limit };
            let mut progress = Progress::new(format!("{} / {} trace", loaded.scenario.name, variant.name));
            let text = trace::render(&loaded.scenario, variant, &options, &mut |f| progress.update(f));
            progress.finish();
            text?
        }
        Export::Nwb(_) => {
            let exported = nwb::export(&loaded.scenario, variant)?;
            for note in &exported.notes {
                eprintln!("keyheat: {note}");
            }
            exported.json
        }
    };
    design.out.write(stdout, &text)
}
