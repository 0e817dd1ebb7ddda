//! The command line: parses arguments with clap and runs the engine. Errors a user can cause end
//! here as a message on stderr and exit code 2; nothing panics on user input. `run` with
//! `--fail-on-goals` exits 3 when a goal fails or could not be graded; `replay --endpoint` stopped by Ctrl-C exits 130.
//! The commands' work lives in `cli/` and the engine.

mod analyze;
mod endpoint;
mod interop;
pub mod output;
mod practice;
mod progress;
#[cfg(feature = "tui")]
mod record;
mod replay;
#[cfg(feature = "tui")]
mod snapshot;

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[cfg(not(feature = "tui"))]
use clap::CommandFactory;
use clap::{Args, Parser, Subcommand};

use crate::engine::model::Engine;
use crate::engine::planner;
use crate::engine::time::SimDuration;
use crate::ops;
use crate::report::{self, Format, RunFormat};
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
    /// Validate a scenario; show how every access pattern is served, the schema warnings and what
    /// the plan predicts for each goal (for a practice problem, its prompt and hints too).
    Check {
        /// A bundled scenario name (`sensors`) or a path to a .ron file.
        scenario: String,
        /// The key design to check (default: the file's first variant).
        #[arg(long)]
        variant: Option<String>,
        /// The store to plan for: dynamodb, cassandra, cosmosdb or mongodb (default: the file's `engine`; another
        /// must be listed in its `engines`).
        #[arg(long, value_parser = parse_engine)]
        engine: Option<Engine>,
        /// text, json, or md (Markdown, for a README or an issue)
        #[arg(long, value_enum, default_value_t)]
        format: RunFormat,
    },
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
    /// Ask the question bank in the terminal and score the answers, or print it (--list)
    Quiz(QuizArgs),
    /// An interview session on a practice problem: the prompt first, hints one at a time, an
    /// optional countdown, and a Markdown grade report when you submit (S) or time is up
    ///
    /// With --grade VARIANT, grades that variant of the file headless and writes the same report
    /// (exit 3 when a goal fails or is not graded, as `run --fail-on-goals`).
    Practice(practice::PracticeArgs),
    /// Open the workbench on a scenario (or, without one, on the scenario picker).
    #[cfg(feature = "tui")]
    Tui {
        /// A bundled scenario name (`sensors`) or a path to a .ron file.
        scenario: Option<String>,
        /// The key design to start with (default: the file's first variant).
        #[arg(long)]
        variant: Option<String>,
        /// The store to replay on: dynamodb, cassandra, cosmosdb or mongodb (default: the file's
        /// `engine`; another must be listed in its `engines`), as `keyheat run --engine`
        #[arg(long, value_parser = parse_engine, requires = "scenario")]
        engine: Option<Engine>,
        /// Overrides the scenario's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Colours: dark (the terminal's own), light (dark text on white) or high-contrast (for a
        /// projector); `t` cycles them. NO_COLOR still turns colour off
        #[arg(long, value_enum, default_value_t)]
        theme: crate::tui::theme::Palette,
    },
    /// Draw the workbench as it looks at a simulated time into an SVG file
    ///
    /// Replays the workload headless up to --at (default: the workload's end) and draws the
    /// workbench, paused, at --size with the TUI's own renderer: colours and box drawing are kept.
    /// An existing file is replaced only with --force.
    #[cfg(feature = "tui")]
    Snapshot(snapshot::SnapshotArgs),
    /// Record the workbench replaying a scenario as an asciinema v2 file (.cast)
    ///
    /// Frames are drawn off-screen by the TUI's own renderer, five a second of recording, while
    /// the replay advances --speed of simulated time per second; times come from the frame count,
    /// so the same arguments give the same file. Play it with `asciinema play FILE.cast` or any
    /// asciinema player. An existing file is replaced only with --force.
    #[cfg(feature = "tui")]
    Record(record::RecordArgs),
    /// Replay a scenario's workload headless and print the report
    ///
    /// The report gives the totals, the partitions (the largest and hottest), the indexes, each
    /// access pattern's cost and modelled latency, the goals, and the cost in US dollars. It exits
    /// 0 even when goals fail (the report says so); --fail-on-goals makes a failed goal exit 3, and a
    /// goal the run gave nothing to judge (not graded: e.g. a latency target of a pattern that made
    /// no calls) too, since it was not met.
    Run(RunArgs),
    /// Run two or more variants on the same seed and show them side by side
    ///
    /// Key figures, access patterns and goals per variant, with deltas (absolute and %) against
    /// the first variant named. Without --variant, every variant of the scenario is compared.
    Compare(CompareArgs),
    /// Send a scenario's workload to a real DynamoDB-compatible endpoint: measured vs modelled
    ///
    /// Creates the variant's table (indexes, TTL, billing mode) under --table-prefix, waits until
    /// it is ACTIVE, sends the requests the replay generates at the scenario's rates (× --rate-scale),
    /// SigV4-signed with the credentials of the environment or the shared AWS files, retries
    /// throttles with the scenario's retry policy, and reports measured vs modelled per access
    /// pattern: capacity units per call, throttled %, p50/p99 latency, the table's items and bytes.
    /// It shows the plan and the model's cost first and asks (or --yes); it deletes what it
    /// created at the end, after an error or Ctrl-C too (unless --keep); --max-requests bounds
    /// the run. Stopped by Ctrl-C, it reports what it sent and exits 130. Needs a keyheat built
    /// with `--features endpoint`.
    Replay(endpoint::ReplayArgs),
    /// Read another tool's design into a scenario file
    #[command(subcommand)]
    Import(interop::Import),
    /// Write a scenario's key design in another tool's format
    #[command(subcommand)]
    Export(interop::Export),
    /// Read a real table's data and report its partitions, item sizes, key shapes and skew
    ///
    /// Reads a DynamoDB export to S3 (DynamoDB JSON), files of {"Item": …} lines (.json or
    /// .json.gz) or the output of `aws dynamodb scan`, streaming, in memory that grows with the
    /// partition keys, not the items. Reports the totals, the largest partitions against the 10 GB
    /// item-collection limit, the largest items against 400 KB, an item-size histogram, the key
    /// shapes (CUSTOMER#… / ORDER#…) with their skew and a fitted Zipf exponent, and what the data
    /// says. --scenario-out writes a starter scenario fitted to it.
    Analyze(analyze::AnalyzeArgs),
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// A bundled scenario name (`sensors`) or a path to a .ron file
    pub scenario: String,
    /// The key design to run (default: the file's first variant)
    #[arg(long)]
    pub variant: Option<String>,
    /// The store to replay on: dynamodb, cassandra, cosmosdb or mongodb (default: the file's `engine`; another
    /// must be listed in its `engines`)
    #[arg(long, value_parser = parse_engine)]
    pub engine: Option<Engine>,
    /// Seed for the workload (default: the scenario's)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulated time to replay, a whole number of the scenario's ticks: 90s, 15m, 6h, 30d, 52w (default: the scenario's)
    #[arg(long, value_parser = parse_duration)]
    pub duration: Option<SimDuration>,
    /// How to replay: ops (every call, exact), rates (rates and sizes per tick: seconds for a
    /// year; sums are expected values, peaks the median of their maximum), or auto (rates when
    /// the run is too large to replay call by call, and says so)
    #[arg(long, value_enum, default_value_t)]
    pub fidelity: FidelityArg,
    #[arg(long, value_enum, default_value_t)]
    pub format: RunFormat,
    /// Write the report to FILE (whole or not at all; `-` is stdout) instead of stdout; the
    /// directory must exist, and an existing FILE is replaced only with --force
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace FILE if it exists
    #[arg(long, requires = "out")]
    pub force: bool,
    /// Exit with code 3 when any goal fails or is not graded (the run gave it nothing to judge)
    #[arg(long)]
    pub fail_on_goals: bool,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// A bundled scenario name (`sensors`) or a path to a .ron file
    pub scenario: String,
    /// A key design to compare; give it twice or more (the first is the baseline). None: all
    #[arg(long = "variant", value_name = "VARIANT")]
    pub variants: Vec<String>,
    /// A store to replay on: dynamodb, cassandra, cosmosdb or mongodb (default: the file's `engine`; another
    /// must be listed in its `engines`). Give it twice or more to replay each variant on each
    /// store, side by side in each store's units
    #[arg(long = "engine", value_name = "ENGINE", value_parser = parse_engine)]
    pub engines: Vec<Engine>,
    /// Seed for every run (default: the scenario's)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulated time to replay, a whole number of the scenario's ticks: 90s, 15m, 6h, 30d, 52w (default: the scenario's)
    #[arg(long, value_parser = parse_duration)]
    pub duration: Option<SimDuration>,
    /// How to replay: ops (every call, exact), rates (rates and sizes per tick: seconds for a
    /// year; sums are expected values, peaks the median of their maximum), or auto (rates when
    /// the run is too large to replay call by call, and says so)
    #[arg(long, value_enum, default_value_t)]
    pub fidelity: FidelityArg,
    #[arg(long, value_enum, default_value_t)]
    pub format: RunFormat,
    /// Write the comparison to FILE (whole or not at all; `-` is stdout) instead of stdout; an
    /// existing FILE is replaced only with --force
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace FILE if it exists
    #[arg(long, requires = "out")]
    pub force: bool,
}

/// `--fidelity`: how `run` and `compare` replay the workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FidelityArg {
    /// Every call, against the simulated store.
    Ops,
    /// Rates and sizes per tick (the fluid replay).
    Rates,
    /// Rates when the run is too large to replay call by call.
    #[default]
    Auto,
}

impl FidelityArg {
    pub fn replay(self) -> crate::engine::judge::Replay {
        use crate::engine::judge::Replay;
        match self {
            FidelityArg::Ops => Replay::Operations,
            FidelityArg::Rates => Replay::Rates,
            FidelityArg::Auto => Replay::Auto,
        }
    }
}

/// How a command that ran to the end wants the process to exit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// `--fail-on-goals` and a goal failed or was not graded: exit 3.
    GoalsFailed,
    /// Ctrl-C stopped it (`replay --endpoint`), after it reported what it had done: exit 130,
    /// as a shell reports a command SIGINT ended (128 + 2), so a script does not take the
    /// report of a cut run for a whole one.
    Interrupted,
}

pub(crate) fn parse_engine(text: &str) -> Result<Engine, String> {
    Engine::from_id(text).ok_or_else(|| {
        let ids: Vec<&str> = Engine::ALL.iter().map(|e| e.id()).collect();
        format!("no store is named {text:?}; keyheat replays on {}", ids.join(", "))
    })
}

fn parse_duration(text: &str) -> Result<SimDuration, String> {
    match SimDuration::parse(text) {
        Ok(d) if d == SimDuration::ZERO => Err("a run of zero length replays nothing".to_owned()),
        Ok(d) => Ok(d),
        Err(e) => Err(e.to_string()),
    }
}

#[derive(Debug, Args)]
pub struct OpsArgs {
    /// JSON Lines file of requests (stdin when absent); blank lines are skipped
    pub file: Option<PathBuf>,
    /// Delay before a write shows in global secondary indexes, in seconds (default 0: immediate)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub index_lag: Option<SimDuration>,
    /// How long after its TTL expiry an item is deleted, in seconds (default 172800 = 48 h;
    /// DynamoDB deletes expired items "within a few days" and shows them until then)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub ttl_delay: Option<SimDuration>,
}

/// `keyheat quiz`: the questions are asked one by one on stdin (answer with a letter, `q` stops).
#[derive(Debug, Args)]
pub struct QuizArgs {
    /// Ask only questions on this topic (`keyheat quiz --topics` lists them)
    #[arg(long)]
    pub topic: Option<String>,
    /// How many questions to ask
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..))]
    pub count: u16,
    /// Which questions, in which order (default: from the clock; the quiz prints the seed it used)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print the question bank, answers and explanations included, instead of asking it
    #[arg(long, conflicts_with_all = ["topics", "count", "seed"])]
    pub list: bool,
    /// Print the topics and how many questions each has
    #[arg(long, conflicts_with_all = ["topic", "count", "seed"])]
    pub topics: bool,
    /// Output format of --list and --topics
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// A question bank file to use instead of the bundled one (same format as assets/quiz.ron)
    #[arg(long, value_name = "FILE")]
    pub bank: Option<PathBuf>,
}

impl QuizArgs {
    fn options(&self) -> crate::quiz::command::Options {
        crate::quiz::command::Options {
            topic: self.topic.clone(),
            count: self.count,
            seed: self.seed,
            list: self.list,
            topics: self.topics,
            format: self.format,
            bank: self.bank.clone(),
        }
    }
}

fn parse_seconds(text: &str) -> Result<SimDuration, String> {
    text.parse::<u64>()
        .ok()
        .and_then(|s| s.checked_mul(1000))
        .map(SimDuration::from_millis)
        .ok_or_else(|| format!("{text:?} is not a whole number of seconds"))
}

impl Command {
    /// The scenario a command reads, as given.
    fn scenario(&self) -> Option<&str> {
        match self {
            Command::Check { scenario, .. } => Some(scenario),
            Command::Run(args) => Some(&args.scenario),
            Command::Compare(args) => Some(&args.scenario),
            Command::Practice(args) => Some(&args.problem),
            Command::Replay(args) => Some(&args.scenario),
            #[cfg(feature = "tui")]
            Command::Tui { scenario, .. } => scenario.as_deref(),
            #[cfg(feature = "tui")]
            Command::Snapshot(args) => Some(&args.scenario),
            #[cfg(feature = "tui")]
            Command::Record(args) => Some(&args.scenario),
            Command::Export(export) => Some(&export.design().scenario),
            Command::List { .. }
            | Command::Ops(_)
            | Command::Quiz(_)
            | Command::Import(_)
            | Command::Analyze(_) => None,
        }
    }
}

/// A bundled name wins over a file of that name (`keyheat run orders` is the bundled scenario
/// even with an `orders.ron` here), so what runs, and every error, cites the bundled file
/// (`scenarios/orders.ron:134:15`). When the working directory holds such a file, say which one
/// is read and how to read the other. `is_file` is asked about the name as given and with `.ron`.
fn shadow_note(name: &str, is_file: impl Fn(&Path) -> bool) -> Option<String> {
    let (_, bundled, _) = scenario::BUNDLED.iter().find(|(n, _, _)| *n == name)?;
    let own = [name.to_owned(), format!("{name}.ron")].into_iter().find(|f| is_file(Path::new(f)))?;
    Some(format!(
        "note: `{name}` names the bundled scenario ({bundled}), not the file {own} in this directory; to \
         use your file, give its path: ./{own}"
    ))
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = io::stdout().lock();
    if let Some(note) =
        cli.command.as_ref().and_then(Command::scenario).and_then(|n| shadow_note(n, Path::is_file))
    {
        eprintln!("keyheat: {note}");
    }
    let done = |()| Outcome::Done;
    let result = match cli.command {
        #[cfg(feature = "tui")]
        None => tui(&crate::tui::Launch::default()).map(done),
        #[cfg(not(feature = "tui"))]
        None => Cli::command().print_help().map(done).map_err(Into::into),
        #[cfg(feature = "tui")]
        Some(Command::Tui { scenario, variant, engine, seed, theme }) => {
            tui(&crate::tui::Launch { scenario, variant, engine, seed, session: None, theme }).map(done)
        }
        #[cfg(feature = "tui")]
        Some(Command::Snapshot(args)) => snapshot::run(&args).map(done),
        #[cfg(feature = "tui")]
        Some(Command::Record(args)) => record::run(&args).map(done),
        Some(Command::List { format }) => {
            report::list(&mut stdout, &scenario::bundled(), format).map(done).map_err(Into::into)
        }
        Some(Command::Check { scenario, variant, engine, format }) => {
            check(&mut stdout, &scenario, variant.as_deref(), engine, format).map(done)
        }
        Some(Command::Ops(args)) => run_ops(&mut stdout, &args).map(done),
        Some(Command::Run(args)) => replay::run(&mut stdout, &args),
        Some(Command::Compare(args)) => replay::compare(&mut stdout, &args),
        Some(Command::Practice(args)) => match &args.grade {
            Some(variant) => practice::grade(&mut stdout, &args, variant),
            #[cfg(feature = "tui")]
            None => practice::session(&args).and_then(|launch| tui(&launch)).map(done),
            #[cfg(not(feature = "tui"))]
            None => Err(anyhow::anyhow!("this keyheat was built without the workbench: use --grade VARIANT")),
        },
        Some(Command::Replay(args)) => endpoint::run(&mut stdout, &args),
        Some(Command::Import(command)) => interop::import(&mut stdout, &command).map(done),
        Some(Command::Export(command)) => interop::export(&mut stdout, &command).map(done),
        Some(Command::Analyze(args)) => analyze::run(&mut stdout, &args).map(done),
        Some(Command::Quiz(args)) => {
            crate::quiz::command::run(&args.options(), &mut io::stdin().lock(), &mut stdout).map(done)
        }
    };
    // An interrupted replay exits 130 even when its reader is gone too (Ctrl-C ends every process
    // of a pipeline): the flush that fails then does not make it look like a whole run.
    let flushed = result.and_then(|outcome| match stdout.flush() {
        Err(_) if outcome == Outcome::Interrupted => Ok(outcome),
        flushed => flushed.map(|()| outcome).map_err(Into::into),
    });
    match flushed {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        Ok(Outcome::GoalsFailed) => ExitCode::from(3),
        Ok(Outcome::Interrupted) => ExitCode::from(130),
        // A reader that stopped early (`keyheat list | head`) is not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("keyheat: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(feature = "tui")]
fn tui(launch: &crate::tui::Launch) -> anyhow::Result<()> {
    crate::tui::run(launch, Box::new(crate::tui::replay::Worker::spawn()?))
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

fn check(
    out: &mut impl Write,
    name: &str,
    variant: Option<&str>,
    engine: Option<Engine>,
    format: RunFormat,
) -> anyhow::Result<()> {
    let loaded = scenario::load_on(name, engine)?;
    let variant = loaded.variant(variant)?;
    let plan = planner::plan(&loaded.scenario, variant);
    report::check(out, &loaded.scenario, variant, &plan, format)?;
    Ok(())
}

fn run_ops(out: &mut impl Write, args: &OpsArgs) -> anyhow::Result<()> {
    let defaults = ops::Options::default();
    let options = ops::Options {
        index_lag: args.index_lag.unwrap_or(defaults.index_lag),
        ttl_delay: args.ttl_delay.unwrap_or(defaults.ttl_delay),
    };
    match &args.file {
        Some(path) => {
            let cannot = |e: &dyn std::fmt::Display| anyhow::anyhow!("cannot read {}: {e}", path.display());
            if path.is_dir() {
                return Err(cannot(&"it is a directory"));
            }
            let file = File::open(path).map_err(|e| cannot(&e))?;
            ops::run(BufReader::new(Named { inner: file, path }), out, &options)?;
        }
        None => {
            ops::run(io::stdin().lock(), out, &options)?;
        }
    }
    Ok(())
}

/// A file whose read errors name it: `ops` reads requests as it answers them, so an error can
/// come mid-stream (`/proc/self/mem`), long after the file opened. Errors writing the answers
/// stay as they are (a closed stdout is not the file's fault).
struct Named<'a, R> {
    inner: R,
    path: &'a Path,
}

impl<R: io::Read> io::Read for Named<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", self.path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_it_commands_are_real() {
        use clap::Parser;
        let bank = crate::quiz::bundled();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for q in bank.questions() {
            let Some(command) = &q.try_it else { continue };
            seen += 1;
            let words: Vec<&str> = command.split_whitespace().collect();
            assert_eq!(words[0], "keyheat", "{}", q.id);
            let cli = Cli::try_parse_from(&words).unwrap_or_else(|e| panic!("{}: {e}", q.id));
            match cli.command {
                Some(Command::Check { scenario, variant, .. }) => {
                    let loaded = crate::scenario::load(&scenario).unwrap();
                    loaded.variant(variant.as_deref()).unwrap_or_else(|e| panic!("{}: {e}", q.id));
                }
                Some(Command::Ops(args)) => {
                    let file = args.file.expect("an ops example names its file");
                    assert!(root.join(file).is_file(), "{}", q.id);
                }
                _ => panic!("{}: try_it should be a check or ops command", q.id),
            }
        }
        assert!(seen >= 5, "{seen} questions say how to see the answer in keyheat");
    }

    #[test]
    fn a_file_named_like_a_bundled_scenario_gets_a_note() {
        let only = |file: &'static str| move |p: &Path| p == Path::new(file);
        let note = shadow_note("orders", only("orders.ron")).expect("orders.ron is shadowed");
        assert_eq!(
            note,
            "note: `orders` names the bundled scenario (scenarios/orders.ron), not the file orders.ron in this \
             directory; to use your file, give its path: ./orders.ron"
        );
        assert!(shadow_note("orders", only("orders")).is_some_and(|n| n.ends_with("path: ./orders")));
        // No file of that name, or not a bundled name: nothing to say.
        assert_eq!(shadow_note("orders", only("counters.ron")), None);
        assert_eq!(shadow_note("mine", only("mine.ron")), None);
        assert_eq!(shadow_note("orders.ron", only("orders.ron")), None);
    }

    #[test]
    fn ops_errors_name_the_file() {
        let ops_on = |file: &str| {
            let args = OpsArgs { file: Some(PathBuf::from(file)), index_lag: None, ttl_delay: None };
            format!("{:#}", run_ops(&mut Vec::new(), &args).unwrap_err())
        };
        let dir = std::env::temp_dir();
        assert_eq!(
            ops_on(&dir.display().to_string()),
            format!("cannot read {}: it is a directory", dir.display())
        );
        // Opens, then fails on the first read (offset 0 is not mapped).
        let mem = ops_on("/proc/self/mem");
        assert!(mem.starts_with("cannot read /proc/self/mem: "), "{mem}");
        assert_eq!(mem.matches("cannot read").count(), 1, "{mem}");
        assert!(ops_on("/nonexistent/x.jsonl").starts_with("cannot read /nonexistent/x.jsonl: "));
    }
}
