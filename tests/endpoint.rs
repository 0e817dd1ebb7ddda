//! `keyheat replay --endpoint` end to end against dynalite, a DynamoDB emulator on Node.js
//! (installed from tests/endpoint/package.json by `npm ci --prefix tests/endpoint`; .ci/run does
//! it). Each test starts its own dynalite on 127.0.0.1 on a free port and stops it when done,
//! failed or not. Only loopback addresses; every run is bounded by --max-requests and a short
//! --duration.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use keyheat::endpoint::client::Client;
use serde_json::{Value as Json, json};

const FIXTURE: &str = "tests/fixtures/endpoint-shop.ron";

/// A dynalite process, killed on drop.
struct Dynalite {
    child: Child,
    url: String,
}

impl Drop for Dynalite {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dynalite_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/endpoint/node_modules/dynalite/cli.js")
}

/// Starts dynalite, or says loudly why it cannot when Node.js is absent (`None`). A machine with
/// node but without the package is a set-up error, not a skip, and so is a missing node under
/// CI (`.ci/run` installs it).
fn dynalite() -> Option<Dynalite> {
    if Command::new("node").arg("--version").output().is_err() {
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
        assert!(!ci, "node not found, and CI is set (.ci/run installs it): the endpoint test would not run");
        // Straight to the process's stderr: libtest captures `eprintln!` of a passing test, which
        // would hide the skip.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: node is not installed, so dynalite cannot run: the endpoint test did not run"
        );
        return None;
    }
    let script = dynalite_script();
    assert!(script.is_file(), "{} is missing: run `npm ci --prefix tests/endpoint`", script.display());
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new("node")
        .arg(&script)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let mut server = Dynalite { child, url: format!("http://127.0.0.1:{port}") };
    // Bounded wait for the port to open.
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = server.child.try_wait() {
            let mut err = String::new();
            let _ = server.child.stderr.take().map(|mut e| e.read_to_string(&mut err));
            panic!("dynalite exited ({status}): {err}");
        }
        assert!(Instant::now() < deadline, "dynalite did not listen on port {port} within 20 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(server)
}

/// Runs the keyheat binary with dummy credentials and no shared files.
fn keyheat(args: &[&str], env: &[(&str, &str)]) -> Output {
    command(args, env).output().expect("keyheat runs")
}

/// The keyheat binary with dummy credentials and no shared files, ready to run.
fn command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let home = std::env::temp_dir().join("keyheat-endpoint-test-home");
    let mut command = Command::new(env!("CARGO_BIN_EXE_keyheat"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .env("HOME", &home)
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_DEFAULT_REGION")
        .env_remove("AWS_SESSION_TOKEN")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_REGION", "us-east-1");
    for (k, v) in env {
        command.env(k, v);
    }
    command
}

fn client(url: &str) -> Client {
    let credentials = aws_credential_types::Credentials::new("test", "test", None, None, "test");
    Client::new(url, "us-east-1", credentials).unwrap()
}

fn tables(url: &str) -> Vec<String> {
    let reply = client(url).call("ListTables", &json!({})).unwrap();
    reply.body["TableNames"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()).collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn the_workload_lands_and_measured_capacity_equals_the_model() {
    let Some(server) = dynalite() else { return };
    let args = [
        "replay",
        FIXTURE,
        "--endpoint",
        &server.url,
        "--yes",
        "--keep",
        "--format",
        "json",
        "--rate-scale",
        "10",
        "--max-requests",
        "2000",
    ];
    let output = keyheat(&args, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Json = serde_json::from_slice(&output.stdout).expect("the report is JSON");
    // The table was created with its GSI, and kept.
    assert_eq!(tables(&server.url), ["keyheat-endpoint-shop"]);
    let described =
        client(&server.url).call("DescribeTable", &json!({"TableName": "keyheat-endpoint-shop"})).unwrap();
    assert_eq!(described.body["Table"]["TableStatus"], "ACTIVE");
    // Everything was sent, nothing failed, and the items landed as the model says.
    assert_eq!(report["sent"], report["in_run"], "{report:#}");
    assert_eq!(report["overall"]["errors"], json!({}), "{report:#}");
    assert_eq!(report["items"]["measured"], report["items"]["modelled"], "{report:#}");
    let count = client(&server.url)
        .call("Scan", &json!({"TableName": "keyheat-endpoint-shop", "Select": "COUNT"}))
        .unwrap();
    assert_eq!(json!(count.body["Count"].as_f64()), report["items"]["measured"]);
    // On a table without indexes dynalite meters GetItem, PutItem, UpdateItem and Query as
    // DynamoDB documents: units per call agree with the model for every pattern.
    for row in report["patterns"].as_array().unwrap() {
        let units = &row["units_per_call"];
        assert!(units["measured"].is_number(), "{row:#}");
        let (measured, modelled) = (units["measured"].as_f64().unwrap(), units["modelled"].as_f64().unwrap());
        assert!(
            (measured - modelled).abs() < 1e-9,
            "{}: measured {measured}, modelled {modelled}",
            row["name"]
        );
        assert_eq!(row["throttled_pct"]["measured"], json!(0.0), "{row:#}");
    }
    // The kept table takes another run with --use-existing, and is kept again.
    let args = [
        "replay",
        FIXTURE,
        "--endpoint",
        &server.url,
        "--yes",
        "--use-existing",
        "keyheat-endpoint-shop",
        "--max-requests",
        "300",
        "--rate-scale",
        "20",
    ];
    let output = keyheat(&args, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("kept table keyheat-endpoint-shop"), "{}", stderr(&output));
    assert_eq!(tables(&server.url), ["keyheat-endpoint-shop"]);
}

#[test]
fn gsi_reads_agree_and_writes_dynalite_charges_to_the_table_only_are_flagged() {
    let Some(server) = dynalite() else { return };
    let args = [
        "replay",
        FIXTURE,
        "--variant",
        "by-order",
        "--endpoint",
        &server.url,
        "--yes",
        "--format",
        "json",
        "--rate-scale",
        "10",
        "--max-requests",
        "2000",
    ];
    let output = keyheat(&args, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Json = serde_json::from_slice(&output.stdout).expect("the report is JSON");
    assert!(
        stderr(&output).contains("GSI by-customer: key GSI1PK + GSI1SK, projection ALL"),
        "{}",
        stderr(&output)
    );
    for row in report["patterns"].as_array().unwrap() {
        let units = &row["units_per_call"];
        let (measured, modelled) = (units["measured"].as_f64().unwrap(), units["modelled"].as_f64().unwrap());
        match row["name"].as_str().unwrap() {
            // GetItem, and the Query of the GSI (dynalite meters the index it reads).
            "profile" | "order" | "orders-of-customer" => {
                assert!((measured - modelled).abs() < 1e-9, "{row:#}");
            }
            _ => assert!(measured < modelled && units["apart"] == json!(true), "{row:#}"),
        }
    }
    let notes = report["notes"].to_string();
    assert!(notes.contains("without GSI units"), "{notes}");
}

#[test]
fn the_created_table_is_deleted_and_a_cut_run_says_so() {
    let Some(server) = dynalite() else { return };
    let args = [
        "replay",
        FIXTURE,
        "--endpoint",
        &server.url,
        "--yes",
        "--max-requests",
        "300",
        "--rate-scale",
        "20",
    ];
    let output = keyheat(&args, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("300 of "), "{text}");
    assert!(text.contains("Only 300 of the run's"), "{text}");
    assert!(stderr(&output).contains("deleted table keyheat-endpoint-shop"), "{}", stderr(&output));
    // DynamoDB deletes in the background; dynalite has it gone within moments.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !tables(&server.url).is_empty() {
        assert!(Instant::now() < deadline, "the table is still there: {:?}", tables(&server.url));
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Ctrl-C while the workload is being sent: the replay stops, deletes its table, reports what it
/// sent and exits 130 (128 + SIGINT), not 0.
#[test]
fn ctrl_c_stops_the_replay_reports_it_and_exits_130() {
    let Some(server) = dynalite() else { return };
    // At the scenario's own rates the fixture's workload takes 20 s: it is still sending when
    // the signal comes.
    let child = command(&["replay", FIXTURE, "--endpoint", &server.url, "--yes"], &[])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("keyheat runs");
    // keyheat takes over Ctrl-C before it creates its table, and sends once the table is
    // ACTIVE: a table with items in it means the signal lands while the workload is being sent.
    let sending = || {
        let table = json!({"TableName": "keyheat-endpoint-shop", "Select": "COUNT"});
        client(&server.url)
            .call("Scan", &table)
            .is_ok_and(|r| r.body["Count"].as_u64().is_some_and(|n| n > 0))
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sending() {
        assert!(Instant::now() < deadline, "keyheat sent nothing within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(kill.success(), "kill -INT failed");
    let output = child.wait_with_output().expect("keyheat exits");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("stopped by Ctrl-C"), "{text}");
    assert!(stderr(&output).contains("deleted table keyheat-endpoint-shop"), "{}", stderr(&output));
}

#[test]
fn without_a_terminal_or_yes_nothing_is_created() {
    let Some(server) = dynalite() else { return };
    let output = keyheat(&["replay", FIXTURE, "--endpoint", &server.url], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("not a terminal"), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("create table keyheat-endpoint-shop"),
        "the plan is shown: {}",
        stderr(&output)
    );
    assert!(tables(&server.url).is_empty());
}

#[test]
fn a_table_keyheat_did_not_create_is_left_alone() {
    let Some(server) = dynalite() else { return };
    let theirs = json!({
        "TableName": "keyheat-endpoint-shop",
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
        "BillingMode": "PAY_PER_REQUEST",
    });
    assert_eq!(client(&server.url).call("CreateTable", &theirs).unwrap().error(), None);
    let output = keyheat(&["replay", FIXTURE, "--endpoint", &server.url, "--yes"], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("ResourceInUseException"), "{}", stderr(&output));
    assert!(stderr(&output).contains("--use-existing"), "{}", stderr(&output));
    assert_eq!(tables(&server.url), ["keyheat-endpoint-shop"], "their table is still there");
    // Named with --use-existing, a table whose keys are not the variant's is refused too.
    let args =
        ["replay", FIXTURE, "--endpoint", &server.url, "--yes", "--use-existing", "keyheat-endpoint-shop"];
    let output = keyheat(&args, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("its key schema is"), "{}", stderr(&output));
    assert_eq!(tables(&server.url), ["keyheat-endpoint-shop"]);
}

type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

#[test]
fn bad_endpoints_and_missing_credentials_are_clear_errors() {
    // No server needed: nothing answers on a port just freed.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}");
    // (extra arguments, extra environment, what the message says)
    let cases: [Case; 4] = [
        (&["--endpoint", &url, "--yes"], &[], "does not answer"),
        (&["--endpoint", "127.0.0.1:8000", "--yes"], &[], "bad endpoint URL"),
        (&["--endpoint", &url, "--yes"], &[("AWS_ACCESS_KEY_ID", "")], "AWS_SECRET_ACCESS_KEY"),
        (&["--endpoint", &url, "--yes", "--rate-scale", "0"], &[], "rate scale"),
    ];
    for (extra, env, says) in cases {
        let mut args = vec!["replay", FIXTURE];
        args.extend_from_slice(extra);
        let output = keyheat(&args, env);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(says), "{args:?}: {}", stderr(&output));
        assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
    }
    // The preload alone would use up --max-requests: refused before anything is created.
    let args =
        ["replay", "orders", "--endpoint", &url, "--yes", "--max-requests", "100", "--duration", "10s"];
    let output = keyheat(&args, &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("preload alone"), "{}", stderr(&output));
    let output = keyheat(&["replay", "sensors", "--endpoint", &url, "--yes"], &[]);
    assert!(stderr(&output).contains("Cassandra profile"), "{}", stderr(&output));
}
