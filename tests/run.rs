//! `keyheat run` and `keyheat compare` as a user runs them: exit codes, `--out`, determinism and
//! the shape of what they print. Bad input is rejected before any replay, so those tests run
//! without the simulator; the others replay short stretches of the bundled scenarios.

mod common;

use common::{keyheat, stderr, stdout};
use std::path::PathBuf;
use std::process::Output;

/// A fresh, empty directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("run-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the test can make its scratch directory");
    dir
}

/// Short enough for a debug build, long enough for every pattern to be called.
const SHORT: &str = "10m";
/// `counters` replays 10,000 calls a second: a minute is plenty.
const COUNTERS: &str = "1m";

fn short(scenario: &str) -> &'static str {
    if scenario == "counters" { COUNTERS } else { SHORT }
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(output)))
}

#[test]
fn bad_input_exits_2_with_a_message_before_any_replay() {
    let cases: [(&[&str], &str); 11] = [
        (&["run", "orders", "--variant", "nope"], "scenarios/orders.ron:"),
        (&["run", "orders", "--duration", "5x"], "is not a duration"),
        (&["run", "orders", "--duration", "0s"], "zero length"),
        (&["run", "no-such-scenario.ron"], "no such file"),
        (&["run", "orders", "--format", "pdf"], "invalid value 'pdf'"),
        (&["compare", "orders", "--variant", "naive"], "at least two runs"),
        (&["compare", "orders", "--variant", "naive", "--variant", "bogus"], "no variant named \"bogus\""),
        // A misspelt name is named as such, not taken for too few variants.
        (&["compare", "orders", "--variant", "nope"], "no variant named \"nope\""),
        // A store the file does not list is refused where the file names its own.
        (&["run", "sensors", "--engine", "dynamodb"], "sensors is replayed on Cassandra only"),
        (&["check", "orders", "--engine", "cassandra"], "orders is replayed on DynamoDB only"),
        (&["run", "orders", "--engine", "mongo"], "keyheat replays on dynamodb, cassandra"),
    ];
    for (args, message) in cases {
        let out = keyheat(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?} printed a report: {}", stdout(&out));
    }
}

#[test]
fn out_into_a_missing_directory_exits_2_and_writes_nothing() {
    let dir = scratch_dir("missing-dir");
    let target = dir.join("no-such-dir").join("report.json");
    let out = keyheat(&["run", "orders", "--out", target.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    assert!(!target.exists());
}

#[test]
fn failed_goals_exit_0_unless_asked_then_3() {
    // The naive order design serves "all pending orders" with a Scan: its NoScan goal fails.
    let plain = keyheat(&["run", "orders", "--variant", "naive", "--duration", SHORT]);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    assert!(stdout(&plain).contains("✘ the warehouse never scans"), "{}", stdout(&plain));
    let strict = keyheat(&["run", "orders", "--variant", "naive", "--duration", SHORT, "--fail-on-goals"]);
    assert_eq!(strict.status.code(), Some(3), "{}", stderr(&strict));
    assert_eq!(strict.stdout, plain.stdout, "the report is the same either way");
}

#[test]
fn a_design_that_passes_exits_0_with_fail_on_goals() {
    let out =
        keyheat(&["run", "counters", "--variant", "recommended", "--duration", COUNTERS, "--fail-on-goals"]);
    assert_eq!(out.status.code(), Some(0), "{}\n{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("goals passed ✔"), "{}", stdout(&out));
}

#[test]
fn the_same_seed_gives_the_same_json_bytes() {
    let args =
        ["run", "orders", "--variant", "naive", "--duration", SHORT, "--seed", "11", "--format", "json"];
    let (a, b) = (keyheat(&args), keyheat(&args));
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert!(a.stdout == b.stdout, "two runs differ");
    let report = json(&a);
    assert_eq!((report["seed"].as_u64(), report["variant"].as_str()), (Some(11), Some("naive")));
    assert_eq!(report["duration_s"].as_f64(), Some(600.0));
    assert!(report["totals"]["price_source"].as_str().is_some_and(|s| s.contains("us-east-1")), "{report}");
    assert!(report["totals"]["monthly_cost_usd"].as_f64().is_some_and(|c| c > 0.0), "{report}");
    let goals = report["goals"].as_array().expect("goals");
    assert!(!goals.is_empty() && goals.iter().all(|g| g["detail"].is_string() && g["passed"].is_boolean()));
}

#[test]
fn out_writes_the_report_to_the_file_only() {
    let dir = scratch_dir("out");
    let target = dir.join("orders.md");
    let path = target.to_str().expect("utf-8 path");
    let out = keyheat(&["run", "orders", "--duration", SHORT, "--format", "md", "--out", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    let written = std::fs::read_to_string(&target).expect("the report file exists");
    assert!(written.starts_with("# orders / naive\n") && written.contains("## Goals"), "{written}");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("scratch dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["orders.md"], "no temporary file is left behind");
}

#[test]
fn out_never_replaces_a_file_without_force_and_dash_is_stdout() {
    let dir = scratch_dir("no-clobber");
    let target = dir.join("report.md");
    let path = target.to_str().expect("utf-8 path");
    std::fs::write(&target, "kept by hand").expect("scratch file");
    let link = dir.join("link.md");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let link = link.to_str().expect("utf-8 path");
    // Refused before any replay, for run and compare alike, whatever is at the path.
    for args in [
        vec!["run", "orders", "--duration", SHORT, "--out", path],
        vec!["run", "orders", "--duration", SHORT, "--out", link],
        vec!["compare", "counters", "--duration", "10s", "--out", path],
    ] {
        let out = keyheat(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("exists; pass --force to replace it"), "{}", stderr(&out));
        assert!(!stderr(&out).contains("keyheat run:"), "refused before the replay: {}", stderr(&out));
    }
    assert_eq!(std::fs::read_to_string(&target).expect("still there"), "kept by hand");
    // --force replaces it; `-` writes to stdout.
    let forced = keyheat(&["run", "orders", "--duration", SHORT, "--format", "md", "--out", path, "--force"]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    let written = std::fs::read_to_string(&target).expect("the report file exists");
    let dash = keyheat(&["run", "orders", "--duration", SHORT, "--format", "md", "--out", "-"]);
    assert_eq!(dash.status.code(), Some(0), "{}", stderr(&dash));
    assert_eq!(stdout(&dash), written);
    assert!(!std::path::Path::new("-").exists(), "no file named -");
}

#[test]
fn an_unwritable_out_says_why_once() {
    let out = keyheat(&["run", "orders", "--duration", SHORT, "--out", "/proc/keyheat-report"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    let last = message.lines().last().expect("a message");
    assert!(last.starts_with("keyheat: cannot write /proc/keyheat-report: "), "{message}");
    assert_eq!(last.matches("(os error").count(), 1, "the cause is said once: {last}");
}

#[test]
fn a_duration_too_long_says_so() {
    let out = keyheat(&["run", "orders", "--duration", "99999999999w"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("\"99999999999w\" is too long"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("not a duration"), "{}", stderr(&out));
}

#[test]
fn text_reports_fit_80_columns_and_label_latency_modelled() {
    for name in ["sensors", "orders", "counters"] {
        let out = keyheat(&["run", name, "--duration", short(name)]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let text = stdout(&out);
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{name}: {line:?}");
        }
        for heading in ["Totals", "Partitions", "Access patterns (latency is modelled", "Goals"] {
            assert!(text.contains(heading), "{name}: no {heading:?} in\n{text}");
        }
    }
    let sensors = keyheat(&["run", "sensors", "--duration", SHORT, "--format", "json"]);
    assert_eq!(json(&sensors)["totals"]["price_source"].as_str().map(|s| s.starts_with("n/a")), Some(true));
}

#[test]
fn compare_lines_up_the_variants() {
    let args = ["compare", "orders", "--variant", "naive", "--variant", "recommended", "--duration", SHORT];
    let text = keyheat(&args);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    let printed = stdout(&text);
    assert!(printed.contains("Key figures") && printed.contains("Passes every goal"), "{printed}");
    for line in printed.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let value = json(&keyheat(&json_args));
    assert_eq!(value["variants"], serde_json::json!(["naive", "recommended"]));
    assert_eq!(value["baseline"], "naive");
    assert_eq!(value["reports"].as_array().map(Vec::len), Some(2));
    let figures = value["figures"].as_array().expect("figures");
    assert!(figures.iter().all(|f| f["values"].as_array().map(Vec::len) == Some(2)));
    let scan_goal = value["goals"]
        .as_array()
        .expect("goals")
        .iter()
        .find(|g| g["name"] == "the warehouse never scans")
        .expect("the NoScan goal");
    assert_eq!(scan_goal["results"][0]["passed"], false);
    assert_eq!(scan_goal["results"][1]["passed"], true);
    let md = keyheat(&[&args[..], &["--format", "md"]].concat());
    assert!(stdout(&md).starts_with("# orders: naive vs recommended\n"), "{}", stdout(&md));
}

#[test]
fn compare_without_variants_takes_them_all() {
    let out = keyheat(&["compare", "counters", "--duration", COUNTERS, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["variants"], serde_json::json!(["naive", "recommended"]));
}

#[test]
fn compare_replays_one_design_on_each_store_the_file_lists() {
    let args = [
        "compare",
        "counters",
        "--variant",
        "recommended",
        "--engine",
        "dynamodb",
        "--engine",
        "cassandra",
        "--engine",
        "cosmosdb",
        "--duration",
        COUNTERS,
    ];
    let text = keyheat(&args);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    let printed = stdout(&text);
    assert!(printed.starts_with("keyheat compare: counters (DynamoDB, Cassandra, Cosmos DB)"), "{printed}");
    let header = printed.lines().find(|l| l.starts_with("Key figures")).expect("the figures' header");
    assert!(["DynamoDB", "Cassandra", "Cosmos DB"].iter().all(|s| header.contains(s)), "{header}");
    // Each store's units, and nothing where a store does not measure the figure.
    let reads = printed.lines().find(|l| l.starts_with("read units ")).expect("read units");
    assert!(reads.contains(" RCU ") && reads.contains(" — ") && reads.ends_with(" RU"), "{reads}");
    let hottest = printed.lines().find(|l| l.starts_with("hottest key reads")).expect("hottest key reads");
    assert!(["RCU/s", "reads/s", "RU/s"].iter().all(|u| hottest.contains(u)), "{hottest}");
    for line in printed.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let value = json(&keyheat(&[&args[..], &["--format", "json"]].concat()));
    assert_eq!(value["engines"], serde_json::json!(["dynamodb", "cassandra", "cosmosdb"]));
    assert_eq!(value["columns"], serde_json::json!(["DynamoDB", "Cassandra", "Cosmos DB"]));
    let reports = value["reports"].as_array().expect("reports");
    let engines: Vec<&str> = reports.iter().filter_map(|r| r["engine"].as_str()).collect();
    assert_eq!(engines, ["dynamodb", "cassandra", "cosmosdb"]);
    let rcu = value["figures"].as_array().expect("figures").iter().find(|f| f["key"] == "rcu").expect("rcu");
    assert!(rcu["values"][1].is_null() && rcu["deltas"][2].is_null(), "{rcu}");
    assert_eq!(rcu["units"], serde_json::json!(["RCU", null, "RU"]));

    // A store the file does not list, or one given twice, is refused before any replay.
    for (args, message) in [
        (
            &["compare", "orders", "--variant", "naive", "--engine", "dynamodb", "--engine", "cosmosdb"][..],
            "orders is replayed on DynamoDB only",
        ),
        (
            &["compare", "counters", "--engine", "cosmosdb", "--engine", "cosmosdb"][..],
            "--engine cosmosdb is given twice",
        ),
    ] {
        let out = keyheat(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_failed_practice_goal_points_at_its_hint() {
    let text = keyheat(&["run", "practice-chat", "--duration", "5m"]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    let text = stdout(&text);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("✘ my conversations never scans my-conversations ran")
            && flat.contains(
                "keyed by what the pattern is given — see hint 3 Hint 3: my-conversations is asked by user"
            ),
        "{text}"
    );
    let md = stdout(&keyheat(&["run", "practice-chat", "--duration", "5m", "--format", "md"]));
    assert!(
        md.lines().any(|l| l.starts_with("| ✘ | my conversations never scans |")
            && l.contains("— see hint 3: my-conversations is asked by user")),
        "{md}"
    );
    let report = json(&keyheat(&["run", "practice-chat", "--duration", "5m", "--format", "json"]));
    let goal = report["goals"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == "my conversations never scans"));
    assert_eq!(
        goal.map(|g| (g["passed"].as_bool(), g["hint"]["number"].as_u64())),
        Some((Some(false), Some(3)))
    );
}

#[test]
fn a_goal_of_a_pattern_with_no_calls_is_not_graded_and_fails_the_gate() {
    // In 10 s practice-chat's my-conversations is never called: its latency goal has nothing to
    // judge, and its never-scans goal is judged by the plan, never by "0 Scans".
    let args = ["run", "practice-chat", "--duration", "10s", "--fail-on-goals"];
    let text = keyheat(&args);
    assert_eq!(text.status.code(), Some(3), "{}", stderr(&text));
    let flat = stdout(&text).split_whitespace().collect::<Vec<_>>().join(" ");
    let cases = [
        (
            "– the sidebar meets its latency target (not graded) my-conversations made no calls in this run",
            true,
        ),
        ("✘ my conversations never scans my-conversations is served by a Scan: it made no calls", true),
        ("goals passed, 1 not graded ✘", true),
        ("p99 0 ms", false),
        ("ran 0 Scans", false),
    ];
    for (fragment, present) in cases {
        assert_eq!(flat.contains(fragment), present, "{fragment:?} in {flat}");
    }
    let report = json(&keyheat(&["run", "practice-chat", "--duration", "10s", "--format", "json"]));
    let goal = report["goals"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == "the sidebar meets its latency target"))
        .expect("the latency goal");
    assert_eq!(
        (&goal["status"], &goal["passed"], &goal["value"]),
        (&"not_graded".into(), &false.into(), &serde_json::Value::Null)
    );
    // Without the flag the run still exits 0: the report says what was not graded.
    assert_eq!(keyheat(&["run", "practice-chat", "--duration", "10s"]).status.code(), Some(0));
}

#[test]
fn partition_figures_look_in_the_indexes_and_name_them() {
    // social-feed's followers GSI keeps a celebrity's follower entries under one key: the largest
    // partition of the run is an index partition, and the report says which index holds it.
    let args = ["run", "social-feed", "--variant", "naive", "--duration", "10s"];
    let out = keyheat(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let largest = text.lines().find(|l| l.starts_with("  largest ")).expect("a largest row");
    assert!(largest.contains("FOLLOWERS#u00000 in index"), "{text}");
    let index_list = text.lines().skip_while(|l| !l.starts_with("  top index partitions")).nth(1);
    assert!(
        index_list.is_some_and(|l| l.starts_with("  FOLLOWERS#u00000 ") && l.ends_with(" followers")),
        "{text}"
    );
    assert!(text.contains("\n  top partitions ") && text.contains("\n  logical partitions     "), "{text}");
    let report = json(&keyheat(&[&args[..], &["--format", "json"]].concat()));
    let partitions = &report["partitions"];
    assert_eq!(partitions["index_top"][0]["index"], "followers", "{partitions}");
    let table = partitions["top"].as_array().expect("the table's partitions");
    assert!(!table.is_empty() && table.iter().all(|p| p["index"].is_null()), "{partitions}");
}

#[test]
fn partition_throttles_count_attempts_and_a_write_costs_what_a_landed_write_costs() {
    // counters/naive: one hot counter item takes more writes than its partition serves.
    let args = ["run", "counters", "--variant", "naive", "--duration", "10s"];
    let out = keyheat(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("  top partitions               size      items  RCU/s pk  WCU/s pk  attempts\n"),
        "{text}"
    );
    assert!(
        text.contains("  throttled attempts: reads and writes the partition refused, every retry\n"),
        "{text}"
    );
    // A counter update costs 1 WCU when it lands; requests still retrying or given up cost nothing.
    let like = text.lines().find(|l| l.starts_with("✘ like ")).expect("the like pattern");
    assert!(like.contains("UpdateItem") && like.contains("     1 WCU "), "{like}");
    let report = json(&keyheat(&[&args[..], &["--format", "json"]].concat()));
    let hot = &report["partitions"]["top"][0];
    let attempts = hot["throttled_attempts"].as_u64().expect("a table partition counts attempts");
    assert_eq!(hot["throttled_ops"].as_u64(), Some(attempts), "the old field keeps its value");
    let requests = report["totals"]["throttled_ops"].as_u64().expect("throttled requests");
    assert!(
        attempts > requests,
        "one key's refused attempts ({attempts}) outnumber the run's throttled requests ({requests})"
    );
    let like =
        report["patterns"].as_array().expect("patterns").iter().find(|p| p["name"] == "like").expect("like");
    let landed = like["landed_writes"].as_u64().expect("landed writes of a plain update");
    assert_eq!(like["wcu"].as_f64(), Some(landed as f64), "{like}");
    assert!(like["calls"].as_u64().is_some_and(|calls| calls > landed), "{like}");
}

/// The Cassandra profile's reports speak CQL: INSERT and SELECT, rows, materialized views,
/// reads and writes per second; none of DynamoDB's operations, units, GSIs or items. `chat`'s
/// naive design scans (a full scan, in CQL's words) and its recommended one keeps a view.
#[test]
fn cassandra_reports_speak_cql() {
    let dynamodb = [
        "PutItem",
        "GetItem",
        "Query",
        "Scan",
        "RCU",
        "WCU",
        "GSI",
        "write units",
        "on-demand",
        " items",
        "of 1 MB",
    ];
    let outputs = [
        vec!["run", "chat", "--variant", "naive", "--duration", "1h"],
        vec!["run", "chat", "--variant", "recommended", "--duration", "1h", "--format", "md"],
        vec!["compare", "chat", "--duration", "1h"],
        vec!["compare", "chat", "--duration", "1h", "--format", "md"],
        vec!["check", "chat", "--variant", "recommended"],
    ];
    for args in outputs {
        let out = keyheat(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        for word in dynamodb {
            assert!(!text.contains(word), "{word:?} in `keyheat {}`:\n{text}", args.join(" "));
        }
        for word in ["SELECT", "rows"] {
            assert!(text.contains(word), "no {word:?} in `keyheat {}`:\n{text}", args.join(" "));
        }
    }
    let text = stdout(&keyheat(&["run", "chat", "--variant", "recommended", "--duration", "1h"]));
    for part in ["Materialized views", "view writes", "read-before-write"] {
        assert!(text.contains(part), "{part:?} missing:\n{text}");
    }
    let md =
        stdout(&keyheat(&["run", "chat", "--variant", "recommended", "--duration", "1h", "--format", "md"]));
    assert!(md.contains("| SELECT on conversations_by_user |"), "{md}");
}

/// One scenario, two stores: `chat` lists DynamoDB besides its own Cassandra, and replays on it
/// in DynamoDB's terms (capacity units, a price), the same workload as on Cassandra.
#[test]
fn a_scenario_replays_on_each_store_it_lists() {
    let on = |engine: &str| {
        let out = keyheat(&["run", "chat", "--engine", engine, "--duration", SHORT, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{engine}: {}", stderr(&out));
        json(&out)
    };
    let (cassandra, dynamodb) = (on("cassandra"), on("dynamodb"));
    assert_eq!(
        (cassandra["engine"].as_str(), dynamodb["engine"].as_str()),
        (Some("cassandra"), Some("dynamodb"))
    );
    assert_eq!(cassandra["totals"]["ops"], dynamodb["totals"]["ops"], "the same workload");
    assert_eq!(cassandra["totals"]["wcu"].as_f64(), Some(0.0), "Cassandra has no units");
    assert!(dynamodb["totals"]["wcu"].as_f64().is_some_and(|w| w > 0.0), "DynamoDB charges writes");
    assert!(dynamodb["totals"]["cost_usd"].as_f64().is_some_and(|c| c > 0.0), "and has a price");

    let check = keyheat(&["check", "counters", "--engine", "cassandra"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    assert!(stdout(&check).contains("(variant naive, Cassandra)"), "{}", stdout(&check));
}

/// Cosmos DB's lesson on `counters`: the top stream's counter is one logical partition, so it
/// pins its physical partition at 100% normalized RU and draws 429s, while the container as a
/// whole uses well under half of the RU/s it was given — more throughput only adds partitions
/// and shrinks each one's share. The report is the same bytes for the same seed.
#[test]
fn a_hot_logical_partition_pins_its_cosmos_partition_while_the_container_idles() {
    let args = ["run", "counters", "--engine", "cosmosdb", "--duration", "30s", "--format", "json"];
    let (first, again) = (keyheat(&args), keyheat(&args));
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(first.stdout, again.stdout, "same seed, same bytes");
    let r = json(&first);
    assert_eq!(r["engine"].as_str(), Some("cosmosdb"));
    assert_eq!(r["retry_policy"].as_str(), Some("cosmos-sdk"));
    let ru = &r["request_units"];
    let figure = |name: &str| ru[name].as_f64().unwrap_or_else(|| panic!("{name} in {ru}"));
    assert!((figure("provisioned_ru_per_s") - 200_000.0).abs() < 1e-9);
    assert_eq!(ru["physical_partitions"].as_u64(), Some(34), "ceil(200,000 / 6,000)");
    assert!(figure("normalized_ru_consumption") >= 1.0, "a partition at 100%");
    let pinned = ru["partitions"].as_array().map_or(0, |p| {
        p.iter().filter(|p| p["normalized_ru_consumption"].as_f64().is_some_and(|x| x >= 1.0)).count()
    });
    assert!((1..34).contains(&pinned), "some partitions pinned, not all: {pinned}");
    assert!(figure("requests_429") > 0.0, "429s");
    // Azure Monitor counts 429 responses, every retry again: more of them than requests refused,
    // out of the requests and their retries.
    let throttled_attempts: f64 = ru["partitions"]
        .as_array()
        .map_or(0.0, |p| p.iter().filter_map(|p| p["throttled_attempts"].as_f64()).sum());
    assert!((figure("responses_429") - throttled_attempts).abs() < 1e-9);
    assert!(figure("responses_429") > figure("requests_429"), "{ru}");
    let responses =
        r["totals"]["requests"].as_f64().unwrap_or(0.0) + r["totals"]["retries"].as_f64().unwrap_or(0.0);
    assert!((figure("share_429_responses") - figure("responses_429") / responses).abs() < 1e-12);
    assert!(figure("mean_share_of_provisioned") < 0.5, "the container uses far less than it was given: {ru}");
    // The hottest key alone asks more than its partition's share: one partition key is one
    // logical partition, and it never spans two physical ones.
    let hottest = r["partitions"]["top"][0]["peak_wcu_per_s"].as_f64().unwrap_or(0.0);
    assert!(hottest > 0.9 * figure("partition_ru_per_s"), "{hottest} RU/s");
    // No price is invented.
    assert_eq!(r["totals"]["cost_usd"].as_f64(), Some(0.0));
    assert!(r["totals"]["price_source"].as_str().is_some_and(|s| s.contains("no sourced Cosmos DB price")));

    let text = keyheat(&["run", "counters", "--engine", "cosmosdb", "--duration", "30s"]);
    let text = stdout(&text);
    for words in ["(Cosmos DB)", "normalized RU", "429s on", "(retries counted)", "replace"] {
        assert!(text.contains(words), "{words}: {text}");
    }
}

/// check on Cosmos DB speaks its own language: conditions as a query's `WHERE` over the
/// container's items, request units, point reads and replaces — never DynamoDB's table, API or
/// capacity units.
#[test]
fn check_on_cosmos_db_speaks_its_query_language_and_words() {
    let out = keyheat(&["check", "counters", "--engine", "cosmosdb"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let words = [
        "c.PK = @pk",
        "replace on the container, ~9.9 RU per call",
        "writes 1 item per call: container ×1",
        "point read on the container, ~1 RU per call",
        "hot-partition — container COUNTER#{stream_id}",
    ];
    for words in words {
        assert!(text.contains(words), "{words}: {text}");
    }
    for dynamodb in ["PK = :pk", "GetItem", "UpdateItem", "RCU", "WCU", " table"] {
        assert!(!text.contains(dynamodb), "{dynamodb}: {text}");
    }
}

/// A variant's secondary indexes are refused on Cosmos DB, which has none, with what a read by
/// the index's key becomes there.
#[test]
fn cosmos_db_refuses_a_secondary_index_and_says_what_it_would_be() {
    let dir = scratch_dir("cosmos-index");
    let source = std::fs::read_to_string("scenarios/orders.ron").expect("orders is bundled");
    let file = dir.join("orders.ron");
    std::fs::write(
        &file,
        source.replacen("name: \"orders\",", "name: \"orders\",\n    engines: [CosmosDB],", 1),
    )
    .expect("the test can write its scenario");
    let out = keyheat(&["check", file.to_str().unwrap_or_default(), "--engine", "cosmosdb"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("Cosmos DB has no secondary indexes"), "{}", stderr(&out));
    assert!(stderr(&out).contains("query across every physical partition"), "{}", stderr(&out));
}

/// MongoDB's lesson on `social-feed`: embedding every comment grows the viral post, and since
/// each comment builds the whole document's new version and gets slower
/// (keyheat's modelled 0.2 ms per 4 KB): by 2 hours its p99 misses the 20 ms target. The subset
/// pattern (`recommended`, the newest 10 embedded) keeps the post small and every goal passes.
#[test]
fn on_mongodb_an_embedded_array_rewrites_its_document_and_the_subset_pattern_fixes_it() {
    let run = |variant: &str| {
        let args = [
            "run",
            "social-feed",
            "--engine",
            "mongodb",
            "--variant",
            variant,
            "--duration",
            "2h",
            "--format",
            "json",
        ];
        let out = keyheat(&args);
        assert_eq!(out.status.code(), Some(0), "{variant}: {}", stderr(&out));
        json(&out)
    };
    let (embedded, subset) = (run("embedded-comments"), run("recommended"));
    let goal = |r: &serde_json::Value, name: &str| {
        r["goals"].as_array().and_then(|g| g.iter().find(|g| g["name"] == name)).map(|g| g["status"].clone())
    };
    let latency = "a comment on the viral post meets its latency target";
    for (r, status) in [(&embedded, "failed"), (&subset, "passed")] {
        assert_eq!(r["engine"].as_str(), Some("mongodb"));
        assert_eq!(r["totals"]["wcu"].as_f64(), Some(0.0), "MongoDB meters no units");
        assert_eq!(r["documents"]["limit_bytes"].as_u64(), Some(16_777_216), "MongoDB Limits and Thresholds");
        assert_eq!(goal(r, latency).as_ref().and_then(|s| s.as_str()), Some(status), "{r}");
    }
    // Every other goal passes on both: the viral post stays far below 16 MB in the run.
    let failed: Vec<&str> = embedded["goals"]
        .as_array()
        .map(|g| g.iter().filter(|g| g["status"] != "passed").filter_map(|g| g["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(failed, [latency]);
    assert!(
        subset["goals"].as_array().is_some_and(|g| g.iter().all(|g| g["status"] == "passed")),
        "{subset}"
    );
    let docs = |r: &serde_json::Value, field: &str| r["documents"][field].as_f64().unwrap_or(f64::NAN);
    assert_eq!(embedded["documents"]["refused_too_large"].as_u64(), Some(0));
    assert!(docs(&embedded, "largest_document_bytes") > 400_000.0, "{}", embedded["documents"]);
    assert!(docs(&subset, "largest_document_bytes") < 3_000.0, "{}", subset["documents"]);
    // Each update writes its whole document: the embedded post's updates rewrite far more.
    assert!(
        docs(&embedded, "mean_new_version_bytes_per_update")
            > 20.0 * docs(&subset, "mean_new_version_bytes_per_update"),
        "{} vs {}",
        embedded["documents"],
        subset["documents"]
    );
    // The other stores' reports carry no `documents`.
    let dynamo = json(&keyheat(&["run", "social-feed", "--duration", "1m", "--format", "json"]));
    assert!(dynamo.get("documents").is_none());
    let text = stdout(&keyheat(&["run", "social-feed", "--engine", "mongodb", "--duration", "1m"]));
    for words in [
        "documents at the end",
        "bytes per update",
        "the new version the server builds",
        "of the 16 MB document limit",
        "findOne",
    ] {
        assert!(text.contains(words), "{words}: {text}");
    }
}

/// A MongoDB report speaks MongoDB: no read or write units in the partitions tables, write
/// amplification in documents over the collections (an index entry is no document), and `check`
/// asks for newest first with a sort, as DynamoDB's reports keep their own words.
#[test]
fn on_mongodb_reports_and_check_use_mongodbs_words() {
    // The words, whatever the lines wrap at.
    let flat = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let args = ["social-feed", "--variant", "embedded-comments", "--engine", "mongodb"];
    let run = flat(stdout(&keyheat(&[&["run"], &args[..], &["--duration", "1m"]].concat())));
    let check = flat(stdout(&keyheat(&[&["check"], &args[..]].concat())));
    // (The goal's own name, written in the scenario file, says "item writes".)
    for words in [
        "RCU",
        "WCU",
        "ScanIndexForward",
        "base write (collections, indexes",
        "per base item",
        "throttled attempts",
        "logical partitions",
        "in the table",
    ] {
        assert!(!run.contains(words) && !check.contains(words), "{words}:\n{run}\n{check}");
    }
    assert!(run.contains("distinct keys"), "{run}");
    assert!(run.contains("reads/s writes/s index"), "{run}");
    assert!(run.contains("document writes per base write (collections and copies)"), "{run}");
    assert!(check.contains("newest first (sort: {…: -1})"), "{check}");
    assert!(
        check.contains("documents written per base document (collections, copies and aggregates)"),
        "{check}"
    );
    // And check counts the documents a write writes as run does: reviews' review is the review's
    // own document and the append to its product's list, with an index key beside them.
    let args = ["reviews", "--variant", "recommended"];
    let run = flat(stdout(&keyheat(&[&["run"], &args[..], &["--duration", "1m"]].concat())));
    let check = flat(stdout(&keyheat(&[&["check"], &args[..]].concat())));
    assert!(run.contains("write amplification 2× document writes per base write"), "{run}");
    // A document past a tenth of 16 MB is said once, as a document: reviews' bestseller.
    let naive = flat(stdout(&keyheat(&["run", "reviews", "--variant", "naive"])));
    assert!(naive.contains("of the 16 MB document limit"), "{naive}");
    assert!(!naive.contains("item limit") && !naive.contains("largest item"), "{naive}");
    assert!(
        check.contains(
            "writes 2 documents per call: collection ×1 + collection (reviews list) ×1, and 1 index key (index by-author ×1)"
        ),
        "{check}"
    );
    // DynamoDB's reports keep DynamoDB's words.
    let run = flat(stdout(&keyheat(&["run", "social-feed", "--duration", "1m"])));
    let check = flat(stdout(&keyheat(&["check", "social-feed"])));
    assert!(run.contains("RCU/s pk WCU/s pk index"), "{run}");
    assert!(run.contains("item writes per base write (table, indexes and copies)"), "{run}");
    assert!(check.contains("(ScanIndexForward = false)"), "{check}");
    assert!(check.contains("items written per base item (table, indexes, copies"), "{check}");
}

/// `shard-keys` on MongoDB: text, Markdown and JSON each carry the Shards section — every shard's
/// documents, size, inserts, shares of writes and reads, ranges and jumbo ranges, the hottest
/// shard's share of inserts, the router's targeted and broadcast reads and the balancer's
/// migrations — and an increasing ranged key puts every insert on shard0 ("Choose a Shard Key").
/// A lookup by a field the shard key is not goes to every shard ("Sharded Cluster Query
/// Routing").
#[test]
fn a_sharded_collection_reports_its_shards_in_every_format() {
    let args = |format: &'static str| {
        ["run", "shard-keys", "--variant", "naive", "--duration", "2m", "--format", format]
    };
    let text = keyheat(&args("text"));
    assert!(text.status.success(), "{}", stderr(&text));
    let text = stdout(&text);
    assert!(text.contains("Shards: Order by ranged shard key {created_at}, range size 1 MB"), "{text}");
    for needle in [
        "shard0",
        "shard2",
        "share of writes",
        "jumbo",
        "hottest shard for inserts: shard0, 100% of 24,000 inserts",
        "balancer: ",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let md = stdout(&keyheat(&args("md")));
    assert!(md.contains("## Shards: Order by ranged shard key {created_at}"), "{md}");
    assert!(
        md.contains(
            "| shard | documents | size | inserts | share of writes | share of reads | ranges | jumbo |"
        ),
        "{md}"
    );
    let out = keyheat(&args("json"));
    let report = json(&out);
    let shards = &report["shards"];
    assert_eq!(shards["strategy"], "ranged");
    assert_eq!(shards["range_bytes"], 1 << 20);
    assert_eq!(shards["migration_threshold_bytes"], 3 << 20);
    assert_eq!(shards["shards"].as_array().map(Vec::len), Some(3));
    assert_eq!(shards["shards"][0]["inserts"], 24_000);
    assert_eq!(shards["hottest_share_of_inserts"], 1.0);
    // get-order gives the order id, which this shard key is not: every lookup goes to every shard.
    assert_eq!(shards["targeted_reads"], 0);
    assert!(shards["broadcast_reads"].as_u64().is_some_and(|n| n > 0), "{shards}");
    assert!(text.contains("went to all 3 shards"), "{text}");
    // Hashed on the order id, the same lookups go to one shard each.
    let hashed = json(&keyheat(&[
        "run",
        "shard-keys",
        "--variant",
        "recommended",
        "--duration",
        "2m",
        "--format",
        "json",
    ]));
    assert_eq!(hashed["shards"]["broadcast_reads"], 0);
    assert!(hashed["shards"]["targeted_reads"].as_u64().is_some_and(|n| n > 0), "{hashed}");
    // Without `sharding` the section is absent: the MongoDB report is as before.
    let plain =
        keyheat(&["run", "social-feed", "--engine", "mongodb", "--duration", "1m", "--format", "json"]);
    assert!(json(&plain).get("shards").is_none());
}

/// `shard-keys`' goal `MaxShardShare(0.5)` ("no shard takes more than half the inserts"):
/// `check` predicts the increasing ranged key fails it and the hashed key passes it, and leaves
/// the five countries to the replay; `run --fail-on-goals` fails the first and the last (exit
/// 3, with what to change) and passes the hashed key (exit 0). The seed is the scenario's, 21.
#[test]
fn the_shard_share_goal_fails_one_shard_of_inserts_and_passes_a_hashed_key() {
    const GOAL: &str = "no shard takes more than half the inserts";
    // The words, whatever the lines wrap at.
    let flat = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    // (variant, check's mark, run's exit code, run's detail, the line under a failure)
    let cases = [
        (
            "naive",
            "✘ no shard takes more than half the inserts",
            3,
            "busiest shard shard0 took 100% of 120,000 inserts into Order (an even spread: 33.3%) > 50%",
            Some("range ending at MaxKey, on one shard"),
        ),
        (
            "recommended",
            "✔ no shard takes more than half the inserts",
            0,
            "busiest shard shard0 took 33.4% of 120,000 inserts into Order (an even spread: 33.3%) ≤ 50%",
            None,
        ),
        (
            "by-country",
            "? no shard takes more than half the inserts",
            3,
            "busiest shard shard0 took 57.8% of 120,000 inserts into Order (an even spread: 33.3%) > 50%",
            Some("the shard key has too few values"),
        ),
    ];
    for (variant, mark, code, detail, why) in cases {
        let check = flat(stdout(&keyheat(&["check", "shard-keys", "--variant", variant])));
        assert!(check.contains(mark), "{variant}: {check}");
        let out = keyheat(&["run", "shard-keys", "--variant", variant, "--fail-on-goals"]);
        assert_eq!(out.status.code(), Some(code), "{variant}: {}", stderr(&out));
        let text = flat(stdout(&out));
        assert!(text.contains(detail), "{variant}: {text}");
        if let Some(why) = why {
            assert!(text.contains(why), "{variant} lacks {why:?}: {text}");
        }
        let report = json(&keyheat(&["run", "shard-keys", "--variant", variant, "--format", "json"]));
        let goal = report["goals"].as_array().into_iter().flatten().find(|g| g["name"] == GOAL);
        let goal = goal.unwrap_or_else(|| panic!("{variant}: no goal {GOAL:?} in {report}"));
        assert_eq!(goal["unit"], "ratio", "{goal}");
        assert_eq!(goal["target"], 0.5, "{goal}");
    }
}

/// `tenant-files`, Cosmos DB's lesson on its 20 GB logical partition: partitioned by tenant, the
/// whale's partition fills and its uploads fail (403, substatus 1014); with a hierarchical key
/// (tenant, 10-minute bucket) a logical partition is a whole key, the tenant grows past 20 GB
/// across several of them, and every goal passes ("Hierarchical partition keys in Azure Cosmos
/// DB" and its FAQ).
#[test]
fn a_hierarchical_key_lets_a_tenant_grow_past_20_gb_on_cosmos_db() {
    let run = |variant: &str| {
        let out = keyheat(&["run", "tenant-files", "--variant", variant, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        json(&out)
    };
    let limit = 20u64 << 30;
    let naive = run("naive");
    assert_eq!(naive["engine"].as_str(), Some("cosmosdb"));
    let refused = naive["totals"]["collection_limit_errors"].as_u64().unwrap_or(0);
    assert!(refused > 50_000, "the whale's uploads past 20 GB are refused: {refused}");
    assert_eq!(naive["totals"]["failed_writes"].as_u64(), Some(refused));
    assert_eq!(naive["partitions"]["top"][0]["key"].as_str(), Some("tenant-000"));
    let naive_max = naive["partitions"]["max_bytes"].as_u64().unwrap_or(0);
    assert!(naive_max <= limit && naive_max > limit - (1 << 20), "held at 20 GB: {naive_max}");
    let failed = |r: &serde_json::Value| {
        r["goals"].as_array().map_or(0, |g| g.iter().filter(|g| g["passed"].as_bool() == Some(false)).count())
    };
    assert_eq!(failed(&naive), 2, "no upload lost, and their latency");

    let hpk = run("recommended");
    assert_eq!(hpk["totals"]["failed_writes"].as_u64(), Some(0));
    assert_eq!(hpk["totals"]["throttled_ops"].as_u64(), Some(0));
    assert_eq!(failed(&hpk), 0, "{}", hpk["goals"]);
    // The whale's logical partitions are (tenant, bucket) keys, shown as their levels, each under
    // 20 GB, and together past it.
    let top = hpk["partitions"]["top"].as_array().cloned().unwrap_or_default();
    let whale: Vec<u64> = top
        .iter()
        .filter(|p| p["key"].as_str().is_some_and(|k| k.starts_with("[\"tenant-000\",\"")))
        .filter_map(|p| p["bytes"].as_u64())
        .collect();
    assert!(whale.len() >= 3, "{top:?}");
    assert!(whale.iter().all(|&b| b < limit) && whale.iter().sum::<u64>() > limit, "{whale:?}");
    // The recent files: 2 or 3 full keys a call, one logical partition each.
    let recent =
        hpk["patterns"].as_array().and_then(|p| p.iter().find(|p| p["name"] == "recent-files")).cloned();
    let fanout = recent.as_ref().and_then(|p| p["avg_fanout"].as_f64()).unwrap_or(0.0);
    assert!((2.0..=3.0).contains(&fanout), "{recent:?}");

    // check shows the levels, and the same list is refused on a store with one-value keys.
    let check = keyheat(&["check", "tenant-files", "--variant", "recommended"]);
    assert!(
        stdout(&check).contains(r#"PK = ["{tenant_id}","{bucket(uploaded_at, 10m)}"]"#),
        "{}",
        stdout(&check)
    );
    let dir = scratch_dir("hpk-dynamodb");
    let file = dir.join("tenant-files.ron");
    let source = std::fs::read_to_string("scenarios/tenant-files.ron").expect("tenant-files is bundled");
    std::fs::write(&file, source.replacen("engine: CosmosDB,", "engine: DynamoDB,", 1)).expect("writes");
    let out = keyheat(&["check", file.to_str().unwrap_or_default()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("tenant-files.ron:") && err.contains("is Cosmos DB's"), "{err}");
}
