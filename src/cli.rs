//! The command line: parses arguments with clap and runs the engine. Errors a user can cause end
//! here as a message on stderr and exit code 2; nothing panics on user input.

use std::fs::File;
use std::io::{self, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::engine::time::SimDuration;
use crate::ops;

#[derive(Debug, Parser)]
#[command(name = "keyheat", version, about = "A workbench for NoSQL key design")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Answer DynamoDB API requests given as JSON Lines, one response line per request
    #[command(
        long_about = "Answer DynamoDB API requests given as JSON Lines, one response line per request.\n\n\
        Each line is {\"op\": \"<Action>\", ...} with the DynamoDB low-level API parameters of that action: \
        CreateTable, DescribeTable, UpdateTimeToLive, PutItem, GetItem, UpdateItem, DeleteItem, Query, Scan, \
        BatchGetItem, BatchWriteItem, and {\"op\": \"AdvanceTime\", \"Seconds\": N} to move the clock (TTL, index lag). \
        Each answer is DynamoDB's response body, or {\"__type\": \"ValidationException\", \"message\": \"...\"}; \
        errors never stop the run. Blank lines are skipped and get no answer."
    )]
    Ops(OpsArgs),
}

#[derive(Debug, Args)]
pub struct OpsArgs {
    /// JSON Lines file of requests (stdin when absent); blank lines are skipped
    pub file: Option<PathBuf>,
    /// Delay before a write shows in global secondary indexes, in seconds (default 0: immediate)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub index_lag: Option<SimDuration>,
}

fn parse_seconds(text: &str) -> Result<SimDuration, String> {
    text.parse::<u64>()
        .ok()
        .and_then(|s| s.checked_mul(1000))
        .map(SimDuration::from_millis)
        .ok_or_else(|| format!("{text:?} is not a whole number of seconds"))
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => ExitCode::SUCCESS,
        Some(Command::Ops(args)) => run_ops(&args),
    }
}

fn run_ops(args: &OpsArgs) -> ExitCode {
    let options = ops::Options { index_lag: args.index_lag.unwrap_or(SimDuration::ZERO) };
    let stdout = io::stdout().lock();
    let result = match &args.file {
        Some(path) => match File::open(path) {
            Ok(file) => ops::run(BufReader::new(file), stdout, &options),
            Err(error) => {
                eprintln!("keyheat ops: cannot read {}: {error}", path.display());
                return ExitCode::from(2);
            }
        },
        None => ops::run(io::stdin().lock(), stdout, &options),
    };
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("keyheat ops: {error}");
            ExitCode::from(2)
        }
    }
}
