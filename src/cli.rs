//! The command line: parses arguments with clap and runs the engine. Errors a user can cause end
//! here as a message on stderr and exit code 2; nothing panics on user input.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "keyheat", version, about = "A workbench for NoSQL key design")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => ExitCode::SUCCESS,
    }
}
