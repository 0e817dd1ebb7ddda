//! `keyheat replay SCENARIO --endpoint URL`: the replay's requests sent to a real
//! DynamoDB-compatible service, measured against the model (`crate::endpoint`).
//!
//! The safety rules for a real account live here: nothing is sent before the plan (tables,
//! indexes, billing mode, request count, the model's cost) is shown and confirmed (on the
//! terminal, or `--yes`); only a table this run created is written to, unless `--use-existing`
//! names one; what it created is deleted at the end, after an error or Ctrl-C too, unless
//! `--keep`; `--max-requests` bounds every run.

use clap::Args;

use super::parse_duration;
use crate::engine::time::SimDuration;
use crate::report::RunFormat;

/// The default bound on requests sent: a few dollars at most on on-demand prices.
pub const DEFAULT_MAX_REQUESTS: u64 = 10_000;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A bundled scenario name (`orders`) or a path to a .ron file (DynamoDB profile)
    pub scenario: String,
    /// The key design to replay (default: the file's first variant)
    #[arg(long)]
    pub variant: Option<String>,
    /// The DynamoDB-compatible endpoint: https://dynamodb.REGION.amazonaws.com, or a local one
    /// such as http://127.0.0.1:8000 (DynamoDB Local, dynalite, LocalStack, Alternator)
    #[arg(long, value_name = "URL")]
    pub endpoint: String,
    /// The region requests are signed for (default: AWS_REGION, AWS_DEFAULT_REGION, or the
    /// profile's region)
    #[arg(long)]
    pub region: Option<String>,
    /// Created tables are named PREFIX + the scenario's table
    #[arg(long, value_name = "PREFIX", default_value = "keyheat-")]
    pub table_prefix: String,
    /// Write to this existing table (its keys must match the variant's) instead of creating one;
    /// it is never deleted
    #[arg(long, value_name = "TABLE", conflicts_with = "keep")]
    pub use_existing: Option<String>,
    /// Simulated time to replay, a whole number of the scenario's ticks: 90s, 15m, 6h (default: the scenario's)
    #[arg(long, value_parser = parse_duration)]
    pub duration: Option<SimDuration>,
    /// Seed for the workload (default: the scenario's)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Multiplies the scenario's rates: 2 sends the same requests in half the wall time
    #[arg(long, value_name = "F", default_value_t = 1.0, value_parser = parse_scale)]
    pub rate_scale: f64,
    /// Send at most N requests (the preload's included)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_REQUESTS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_requests: u64,
    #[arg(long, value_enum, default_value_t)]
    pub format: RunFormat,
    /// Do not ask for confirmation (needed when standard input is not a terminal)
    #[arg(long)]
    pub yes: bool,
    /// Keep the created table at the end instead of deleting it
    #[arg(long)]
    pub keep: bool,
}

fn parse_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 && f <= 1000.0 => Ok(f),
        _ => Err(format!(
            "{text:?} is not a rate scale: give a number above 0, at most 1000 (1 = the scenario's rates)"
        )),
    }
}

#[cfg(not(feature = "endpoint"))]
pub fn run(_: &mut impl std::io::Write, _: &ReplayArgs) -> anyhow::Result<super::Outcome> {
    anyhow::bail!(
        "this keyheat was built without the `endpoint` feature, which `replay --endpoint` needs: \
         build it with `cargo build --release --features endpoint`"
    )
}

#[cfg(feature = "endpoint")]
pub use with_endpoint::run;

#[cfg(feature = "endpoint")]
mod with_endpoint {
    use std::io::{self, BufRead, IsTerminal, Write};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use anyhow::{Context, bail};
    use serde_json::Value as Json;

    use super::ReplayArgs;
    use crate::cli::Outcome;
    use crate::cli::progress::Progress;
    use crate::endpoint::client::Client;
    use crate::endpoint::pace::Backoff;
    use crate::endpoint::report::{self, Setting};
    use crate::endpoint::workload::{self, Naming, Workload};
    use crate::endpoint::{EndpointError, credentials, send, tables};
    use crate::engine::cost;
    use crate::engine::sim::RunOptions;
    use crate::interop::trace;
    use crate::scenario;

    pub fn run(out: &mut impl Write, args: &ReplayArgs) -> anyhow::Result<Outcome> {
        crate::endpoint::client::check_url(&args.endpoint)?;
        let loaded = scenario::load(&args.scenario)?;
        let variant = loaded.variant(args.variant.as_deref())?;
        let found = credentials::load(args.region.as_deref())?;
        let naming = match &args.use_existing {
            Some(table) => Naming::Existing(table.clone()),
            None => Naming::Prefix(args.table_prefix.clone()),
        };
        let options = RunOptions { seed: args.seed, duration: args.duration };
        let mut progress = Progress::new(format!("{} / {} (model)", loaded.scenario.name, variant.name));
        let workload =
            workload::plan(&loaded.scenario, variant, &options, &naming, args.max_requests, &mut |f| {
                progress.update(f);
            })
            .with_context(|| format!("{}: cannot replay variant {:?}", loaded.file, variant.name))?;
        progress.finish();
        let preload = workload.requests.iter().take_while(|r| !r.metered).count();
        if preload == workload.requests.len() && workload.totals.len() > 1 {
            bail!(
                "{}'s preload alone is {} writes or more, and --max-requests {} would send nothing of the \
                 workload: raise --max-requests, or replay a scenario with smaller populations",
                loaded.scenario.name,
                preload,
                args.max_requests
            );
        }
        let client = Client::new(&args.endpoint, &found.region, found.credentials.clone())?;
        eprint!("{}", plan(&workload, &client, &found.from, args));
        confirm(args.yes)?;

        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)) {
            eprintln!("keyheat: Ctrl-C will not stop the replay cleanly: {e}");
        }
        let stopped = || stop.load(Ordering::SeqCst);
        let table = workload.table.name.clone();
        if args.use_existing.is_some() {
            let described =
                tables::describe(&client, &table).with_context(|| format!("--use-existing {table}"))?;
            check_existing(&described, &workload)?;
        } else {
            let created = client.call("CreateTable", &trace::create_table(&workload.table))?;
            if let Some(kind) = created.error() {
                let hint = if kind == "ResourceInUseException" {
                    " (keyheat writes only to a table it created: choose another --table-prefix, or name it with --use-existing)"
                } else {
                    ""
                };
                let message = created.message();
                let colon = if message.is_empty() { "" } else { ": " };
                bail!("CreateTable {table}: {kind}{colon}{message}{hint}");
            }
        }
        let sent = replay(&client, &workload, args, &stopped);
        let kept = args.keep || args.use_existing.is_some();
        if kept {
            eprintln!("keyheat: kept table {table}");
        } else {
            match tables::delete(&client, &table) {
                Ok(()) => eprintln!("keyheat: deleted table {table}"),
                Err(e) => eprintln!("keyheat: could not delete table {table}, delete it yourself: {e}"),
            }
        }
        let (measured, contents) = match sent {
            Err(EndpointError::Interrupted) => {
                eprintln!("keyheat: stopped by Ctrl-C before the workload was sent");
                return Ok(Outcome::Interrupted);
            }
            sent => sent?,
        };
        let setting = Setting {
            endpoint: client.url().to_owned(),
            region: client.region().to_owned(),
            table,
            rate_scale: args.rate_scale,
        };
        let comparison = report::compare(&workload, &measured, contents, setting);
        let written = report::write(out, &comparison, args.format);
        if measured.interrupted {
            // Ctrl-C ends a pipeline's reader too (`keyheat replay … | tee`): a report that could
            // not be written does not turn the interruption into an error or a success.
            if let Err(e) = written {
                eprintln!("keyheat: the report of the interrupted replay was not written: {e}");
            }
            return Ok(Outcome::Interrupted);
        }
        written?;
        Ok(Outcome::Done)
    }

    /// An existing table must have the variant's key schema and its indexes, or the requests
    /// would fail (or, worse, land where the variant does not put them).
    fn check_existing(described: &Json, workload: &Workload) -> anyhow::Result<()> {
        let wanted = trace::create_table(&workload.table);
        let table = &workload.table.name;
        if described["KeySchema"] != wanted["KeySchema"] {
            bail!(
                "--use-existing {table}: its key schema is {}, the variant's is {}",
                described["KeySchema"],
                wanted["KeySchema"]
            );
        }
        let names = |v: &Json| -> Vec<String> {
            ["GlobalSecondaryIndexes", "LocalSecondaryIndexes"]
                .iter()
                .filter_map(|f| v.get(*f)?.as_array())
                .flatten()
                .filter_map(|i| Some(i.get("IndexName")?.as_str()?.to_owned()))
                .collect()
        };
        let have = names(described);
        let missing: Vec<String> = names(&wanted).into_iter().filter(|n| !have.contains(n)).collect();
        if !missing.is_empty() {
            bail!("--use-existing {table}: it has no index {} that the variant reads", missing.join(", "));
        }
        Ok(())
    }

    /// Waits for the table (unless it existed), sends the requests, counts what the table holds.
    fn replay(
        client: &Client,
        workload: &Workload,
        args: &ReplayArgs,
        stopped: &dyn Fn() -> bool,
    ) -> Result<(send::Measured, Option<tables::Contents>), EndpointError> {
        if args.use_existing.is_none() {
            tables::prepare(client, &workload.table, stopped)?;
        }
        let backoff = Backoff { policy: workload_policy(workload), seed: workload.model.seed };
        let total = workload.requests.len();
        let mut progress = Progress::new(format!("{} → {}", workload.table.name, client.url()));
        let gsis = workload.table.indexes.iter().any(|i| i.kind == crate::engine::model::IndexKind::Global);
        let measured =
            send::run(client, &workload.requests, gsis, args.rate_scale, &backoff, stopped, &mut |n| {
                progress.update(n as f64 / total.max(1) as f64);
            })?;
        progress.finish();
        let contents = tables::contents(client, &workload.table.name).ok();
        Ok((measured, contents))
    }

    fn workload_policy(workload: &Workload) -> crate::engine::retry::RetryPolicy {
        workload
            .model
            .retry_policy
            .as_deref()
            .and_then(crate::engine::retry::RetryPolicy::named)
            .unwrap_or_else(crate::engine::retry::RetryPolicy::aws_java_v1_dynamodb)
    }

    /// What will be created and sent, and what the model says it costs.
    fn plan(workload: &Workload, client: &Client, from: &str, args: &ReplayArgs) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let model = &workload.model;
        let _ = writeln!(
            s,
            "keyheat replay: {} / {} → {} (region {}, credentials from {from})",
            model.scenario,
            model.variant,
            client.url(),
            client.region()
        );
        let create = trace::create_table(&workload.table);
        let keys = |schema: &Json| {
            schema
                .as_array()
                .map(|k| {
                    k.iter().filter_map(|a| a.get("AttributeName")?.as_str()).collect::<Vec<_>>().join(" + ")
                })
                .unwrap_or_default()
        };
        let text = |v: &Json, k: &str| v.get(k).and_then(Json::as_str).unwrap_or("").to_owned();
        if let Some(table) = &args.use_existing {
            let _ = writeln!(s, "  write to the existing table {table} (not created, not deleted)");
        } else {
            let _ = writeln!(
                s,
                "  create table {}: {}, key {}",
                workload.table.name,
                text(&create, "BillingMode"),
                keys(&create["KeySchema"])
            );
            for (field, kind) in [("GlobalSecondaryIndexes", "GSI"), ("LocalSecondaryIndexes", "LSI")] {
                for index in create.get(field).and_then(Json::as_array).into_iter().flatten() {
                    let _ = writeln!(
                        s,
                        "    {kind} {}: key {}, projection {}",
                        text(index, "IndexName"),
                        keys(&index["KeySchema"]),
                        text(&index["Projection"], "ProjectionType")
                    );
                }
            }
            if let Some(ttl) = &workload.table.ttl {
                let _ = writeln!(s, "    TTL on {ttl}");
            }
            let end = if args.keep {
                "kept at the end (--keep)"
            } else {
                "deleted at the end, after an error or Ctrl-C too"
            };
            let _ = writeln!(s, "    {end}");
        }
        let preload = workload.requests.iter().filter(|r| !r.metered).count();
        let in_run: u64 = workload.totals.values().sum();
        let _ = writeln!(
            s,
            "  send {} requests (the run has {in_run}; --max-requests {}): {preload} preload writes as fast as \
             answered, then the workload's {:.0} s of simulated time at rate scale {} (≈ {:.0} s)",
            workload.requests.len(),
            args.max_requests,
            model.duration_s,
            args.rate_scale,
            model.duration_s / args.rate_scale
        );
        let preload_usd = preload as f64 * cost::US_EAST_1.per_million_wru / 1e6;
        let _ = writeln!(
            s,
            "  the model's cost of the whole run: {} on demand ({}), plus at least {} for the preload, which \
             the model loads free",
            cost::usd(model.totals.cost_usd),
            model.totals.price_source,
            cost::usd(preload_usd)
        );
        s
    }

    /// Asks on the terminal, unless `--yes`; refuses without a terminal.
    fn confirm(yes: bool) -> anyhow::Result<()> {
        if yes {
            return Ok(());
        }
        let stdin = io::stdin();
        if !stdin.is_terminal() {
            bail!(
                "nothing was sent: standard input is not a terminal to confirm on; read the plan above and \
                 give --yes to go ahead"
            );
        }
        eprint!("Create and send? [y/N] ");
        let mut answer = String::new();
        stdin.lock().read_line(&mut answer)?;
        if matches!(answer.trim(), "y" | "Y" | "yes") {
            Ok(())
        } else {
            bail!("cancelled: nothing was created or sent")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_scales_are_positive_and_bounded() {
        assert_eq!(parse_scale("2"), Ok(2.0));
        assert_eq!(parse_scale("0.5"), Ok(0.5));
        for bad in ["0", "-1", "inf", "NaN", "x", "1001"] {
            assert!(parse_scale(bad).is_err(), "{bad}");
        }
    }
}
