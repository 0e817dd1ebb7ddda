//! `keyheat ops` end to end: trace files under `tests/ops/` run through `ops::run` in-process and
//! must produce their `.out` files exactly (malformed lines included), and the real binary
//! answers the bundled example trace `scenarios/single-table.jsonl`.
//!
//! After an intended change of output, regenerate the expected files with
//! `KEYHEAT_BLESS=1 cargo test --test ops` and review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

use keyheat::engine::time::SimDuration;
use keyheat::ops::{self, Options, Stats};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ops")
}

fn run(input: &[u8], options: Options) -> (String, Stats) {
    let mut output = Vec::new();
    let stats = ops::run(input, &mut output, &options).expect("in-memory I/O cannot fail");
    (String::from_utf8(output).expect("ops writes UTF-8"), stats)
}

/// Runs `tests/ops/<name>.jsonl` and compares with `tests/ops/<name>.out`.
fn check_trace(name: &str, options: Options) -> Stats {
    let input = std::fs::read(dir().join(format!("{name}.jsonl"))).expect("trace file exists");
    let (output, stats) = run(&input, options);
    let expected_path = dir().join(format!("{name}.out"));
    if std::env::var_os("KEYHEAT_BLESS").is_some() {
        std::fs::write(&expected_path, &output).expect("expected file is writable");
    }
    let expected = std::fs::read_to_string(&expected_path).expect("expected output exists");
    for (i, (got, want)) in output.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "{name}: response {} differs", i + 1);
    }
    assert_eq!(output.lines().count(), expected.lines().count(), "{name}: number of responses");
    assert_eq!(output, expected);
    // Every answer reads back as JSON, the deepest item keyheat stores included (serde_json
    // refuses documents nested past 128 levels; keyheat's items stop at 32 AttributeValue levels).
    for (i, line) in output.lines().enumerate() {
        assert!(
            serde_json::from_str::<serde_json::Value>(line).is_ok(),
            "{name}: response {} reads back",
            i + 1
        );
    }
    stats
}

fn non_blank_lines(name: &str) -> u64 {
    let text = std::fs::read_to_string(dir().join(format!("{name}.jsonl"))).expect("trace file exists");
    text.lines().filter(|l| !l.trim().is_empty()).count() as u64
}

#[test]
fn traces_produce_their_expected_responses() {
    // (trace, GSI lag in seconds)
    let traces = [("basics", 0), ("reads", 0), ("indexes", 0), ("errors", 0), ("lag", 2), ("limits", 0)];
    for (name, lag) in traces {
        let options = Options { index_lag: SimDuration::from_secs(lag), ..Options::default() };
        let stats = check_trace(name, options);
        assert_eq!(stats.requests, non_blank_lines(name), "{name}: one answer per non-blank line");
    }
}

#[test]
fn errors_never_stop_the_run_and_blank_lines_get_no_answer() {
    let input = b"{\"op\":\"Nope\"}\n\n   \nnot json\n{\"op\":\"AdvanceTime\",\"Seconds\":5}";
    let (output, stats) = run(input, Options::default());
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("{\"__type\":\"UnknownOperationException\""));
    assert!(lines[1].starts_with("{\"__type\":\"SerializationException\""));
    assert_eq!(
        lines[2], "{\"IndexChangesApplied\":0,\"Now\":5,\"TimeToLiveDeletes\":0}",
        "last line without newline"
    );
    assert_eq!(stats, Stats { requests: 3, errors: 2 });
    let (output, _) = run(b"\n\xff\xfe\n", Options::default());
    assert!(
        output
            .starts_with("{\"__type\":\"SerializationException\",\"message\":\"Line 2 is not valid UTF-8\"}"),
        "{output}"
    );
}

#[test]
fn the_binary_answers_the_single_table_example() {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/single-table.jsonl");
    let output =
        Command::new(env!("CARGO_BIN_EXE_keyheat")).arg("ops").arg(&scenario).output().expect("binary runs");
    assert!(output.status.success(), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let (in_process, stats) = run(&std::fs::read(&scenario).expect("scenario exists"), Options::default());
    assert_eq!(stdout, in_process, "binary and library agree");
    let expected_path = dir().join("single-table.out");
    if std::env::var_os("KEYHEAT_BLESS").is_some() {
        std::fs::write(&expected_path, &stdout).expect("expected file is writable");
    }
    assert_eq!(stdout, std::fs::read_to_string(expected_path).expect("expected output exists"));
    assert!(stats.errors >= 2, "the example shows the error form");
    // The teaching points of the example, checked directly.
    let lines: Vec<serde_json::Value> =
        stdout.lines().map(|l| serde_json::from_str(l).expect("JSON lines")).collect();
    let pending = lines.iter().find(|l| {
        l["Items"].as_array().is_some_and(|i| i.len() == 1)
            && l["ConsumedCapacity"]["GlobalSecondaryIndexes"].is_object()
    });
    assert!(pending.is_some(), "the GSI answers \"all pending orders\"");
    assert!(
        lines.iter().any(|l| l["Count"] == 0 && l["ScannedCount"].as_u64() > Some(0)),
        "a filter that matches nothing still reads"
    );
}

#[test]
fn the_binary_reads_stdin_and_reports_a_missing_file() {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_keyheat"))
        .args(["ops", "--index-lag", "3"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(b"{\"op\":\"AdvanceTime\",\"Seconds\":1}\n")
        .expect("write stdin");
    let output = child.wait_with_output().expect("binary exits");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "{\"IndexChangesApplied\":0,\"Now\":1,\"TimeToLiveDeletes\":0}\n"
    );
    let missing = Command::new(env!("CARGO_BIN_EXE_keyheat"))
        .args(["ops", "/no/such/trace.jsonl"])
        .output()
        .expect("binary runs");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/no/such/trace.jsonl"));
}

/// A table with a TTL attribute, an item that expires at second 10, and the clock moved to
/// second 15, then to 10 + 48 h.
const TTL_TRACE: &str = r#"{"op":"CreateTable","TableName":"ttl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}
{"op":"UpdateTimeToLive","TableName":"ttl","TimeToLiveSpecification":{"AttributeName":"exp","Enabled":true}}
{"op":"PutItem","TableName":"ttl","Item":{"pk":{"S":"a"},"exp":{"N":"10"}}}
{"op":"AdvanceTime","Seconds":15}
{"op":"AdvanceTime","Seconds":172795}
"#;

/// The `TimeToLiveDeletes` of the two AdvanceTime answers.
fn ttl_deletes(output: &str) -> Vec<u64> {
    output
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()?["TimeToLiveDeletes"].as_u64())
        .collect()
}

#[test]
fn the_ttl_delay_is_an_option_defaulting_to_48_hours() {
    // (delay, deletes at second 15, deletes at 10 s + 48 h)
    let cases = [(None, [0, 1]), (Some(5), [1, 0]), (Some(6), [0, 1])];
    for (delay, deletes) in cases {
        let mut options = Options::default();
        if let Some(secs) = delay {
            options.ttl_delay = SimDuration::from_secs(secs);
        }
        let (output, stats) = run(TTL_TRACE.as_bytes(), options);
        assert_eq!(stats.errors, 0, "{output}");
        assert_eq!(ttl_deletes(&output), deletes, "delay {delay:?}");
    }
    let binary = |args: &[&str]| {
        use std::io::Write as _;
        let mut child = Command::new(env!("CARGO_BIN_EXE_keyheat"))
            .arg("ops")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("binary runs");
        child.stdin.take().expect("piped").write_all(TTL_TRACE.as_bytes()).expect("write stdin");
        let output = child.wait_with_output().expect("binary exits");
        assert!(output.status.success());
        ttl_deletes(&String::from_utf8_lossy(&output.stdout))
    };
    assert_eq!(binary(&["--ttl-delay", "5"]), [1, 0]);
    assert_eq!(binary(&[]), [0, 1]);
}

#[test]
fn unprocessed_batch_keys_come_back_as_they_were_asked_for() {
    // 43 items of nearly 400 KB: the 16 MB response holds 41, the other two come back unprocessed.
    use serde_json::json;
    let key = |i: usize| json!({"pk": {"S": format!("k{i:02}")}});
    let mut lines = vec![json!({
        "op": "CreateTable", "TableName": "big", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    })];
    let padding = "x".repeat(409_500);
    for i in 0..43 {
        let mut item = key(i);
        item["data"] = json!({"S": padding});
        lines.push(json!({"op": "PutItem", "TableName": "big", "Item": item}));
    }
    lines.push(json!({"op": "BatchGetItem", "RequestItems": {"big": {
        "Keys": (0..43).map(key).collect::<Vec<_>>(),
        "ConsistentRead": true,
        "ProjectionExpression": "#k, #d",
        "ExpressionAttributeNames": {"#d": "data", "#k": "pk"},
    }}}));
    let input = lines.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    let (output, stats) = run(input.as_bytes(), Options::default());
    assert_eq!(stats.errors, 0);
    let last: serde_json::Value =
        serde_json::from_str(output.lines().last().expect("answers")).expect("JSON");
    assert_eq!(last["Responses"]["big"].as_array().map(Vec::len), Some(41));
    let unprocessed = &last["UnprocessedKeys"]["big"];
    assert_eq!(unprocessed["Keys"].as_array().map(Vec::len), Some(2));
    assert_eq!(unprocessed["ConsistentRead"], true);
    assert_eq!(unprocessed["ProjectionExpression"], "#k, #d");
    assert_eq!(unprocessed["ExpressionAttributeNames"], serde_json::json!({"#d": "data", "#k": "pk"}));
}
