//! The command line: parses arguments with clap and runs the engine. Errors a user can cause end
//! here as a message on stderr and exit code 2; nothing panics on user input.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::engine::planner;
use crate::report::{self, Format};
use crate::scenario;

#[derive(Debug, Parser)]
#[command(name = "keyheat", version, about = "A workbench for NoSQL key design")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the bundled scenarios and practice problems.
    List {
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Validate a scenario; show how every access pattern is served and the schema warnings.
    Check {
        /// A bundled scenario name (`sensors`) or a path to a .ron file.
        scenario: String,
        /// The key design to check (default: the file's first variant).
        #[arg(long)]
        variant: Option<String>,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    let result = match cli.command {
        None => Ok(()),
        Some(Command::List { format }) => {
            report::list(&mut stdout, &scenario::bundled(), format).map_err(Into::into)
        }
        Some(Command::Check { scenario, variant, format }) => {
            check(&mut stdout, &scenario, variant.as_deref(), format)
        }
    };
    match result.and_then(|()| stdout.flush().map_err(Into::into)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("keyheat: {e}");
            ExitCode::from(2)
        }
    }
}

fn check(out: &mut impl Write, name: &str, variant: Option<&str>, format: Format) -> anyhow::Result<()> {
    let loaded = scenario::load(name)?;
    let variant = loaded.variant(variant)?;
    let plan = planner::plan(&loaded.scenario, variant);
    report::check(out, &loaded.scenario, &plan, format)?;
    Ok(())
}
