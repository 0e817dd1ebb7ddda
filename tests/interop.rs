//! `keyheat export` and `keyheat import` as a user runs them: golden files for each format
//! (`tests/interop/`), the file rules every exporter follows (whole or nothing, `--force`, `-` is
//! stdout), and bad input. After an intended change of output, regenerate the golden files with
//! `KEYHEAT_BLESS=1 cargo test --test interop` and review the diff.

mod common;

use common::{keyheat, stderr, stdout};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("interop")
}

/// A fresh, empty directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("interop-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the test can make its scratch directory");
    dir
}

/// Compares `actual` with the golden file `name` (or writes it under `KEYHEAT_BLESS`).
fn golden(name: &str, actual: &str) {
    let path = fixtures().join(name);
    if std::env::var_os("KEYHEAT_BLESS").is_some() {
        std::fs::write(&path, actual).expect("the golden file can be written");
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(actual, expected, "{name} differs from its golden file");
}

/// Runs an export or import that must succeed and returns what it printed.
fn ok(args: &[&str]) -> String {
    let out = keyheat(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn cloudformation_matches_its_golden_files() {
    golden(
        "orders-recommended.cfn.yaml",
        &ok(&["export", "cloudformation", "orders", "--variant", "recommended"]),
    );
    golden(
        "counters-naive.cfn.json",
        &ok(&["export", "cloudformation", "counters", "--variant", "naive", "--format", "json"]),
    );
    golden(
        "sensors-recommended.cfn.yaml",
        &ok(&["export", "cloudformation", "sensors", "--variant", "recommended"]),
    );
    // TimeToLiveSpecification, and an index name DynamoDB refuses (`by value`) rewritten.
    golden(
        "expiring.cfn.yaml",
        &ok(&["export", "cloudformation", fixtures().join("expiring.ron").to_str().unwrap()]),
    );
}

#[test]
fn cql_matches_its_golden_files() {
    golden("chat-recommended.cql", &ok(&["export", "cql", "chat", "--variant", "recommended"]));
    golden("sensors-naive.cql", &ok(&["export", "cql", "sensors", "--variant", "naive"]));
    // A default TTL, a fixed-window bucket, a write shard and a view keyed by a hash.
    golden("expiring.cql", &ok(&["export", "cql", fixtures().join("expiring.ron").to_str().unwrap()]));
}

#[test]
fn nwb_matches_its_golden_file_and_names_what_it_cannot_hold() {
    let out = keyheat(&["export", "nwb", "orders", "--variant", "recommended"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    golden("orders-recommended.nwb.json", &stdout(&out));
    assert_eq!(
        stderr(&out),
        "keyheat: index pending: `only_when: (\"status\", \"PENDING\")` has no NoSQL Workbench form; the \
         sample items show it (only items with status = PENDING carry the index keys)\n"
    );
}

#[test]
fn trace_matches_its_golden_file_and_limit_counts_requests() {
    // TTL, a GSI, a Query fanned out over hours and write shards with a sort-key range.
    let ron = fixtures().join("trace.ron");
    let ron = ron.to_str().expect("a UTF-8 path");
    let head = ok(&["export", "trace", ron, "--duration", "2m", "--limit", "12"]);
    golden("trace.head.jsonl", &head);
    assert_eq!(
        ok(&["export", "trace", ron, "--duration", "2m", "--limit", "12"]),
        head,
        "same seed, same bytes"
    );
    let setup = ["CreateTable", "UpdateTimeToLive", "AdvanceTime"];
    let requests = |text: &str| {
        text.lines().filter(|l| !setup.iter().any(|op| l.starts_with(&format!("{{\"op\":\"{op}\"")))).count()
    };
    assert_eq!(requests(&head), 12);
    // The preload counts: orders loads 40,005 items (free: no ReturnConsumedCapacity) first.
    let preload = ok(&["export", "trace", "orders", "--duration", "10s", "--limit", "3"]);
    assert_eq!(requests(&preload), 3, "{preload}");
    assert!(preload.lines().nth(1).is_some_and(|l| l.starts_with("{\"op\":\"AdvanceTime\"")), "{preload}");
    assert!(
        preload
            .lines()
            .skip(2)
            .all(|l| l.starts_with("{\"op\":\"PutItem\"") && !l.contains("ReturnConsumedCapacity")),
        "{preload}"
    );
    // A limit past the end: the whole run, the same lines.
    let all = ok(&["export", "trace", ron, "--duration", "2m"]);
    assert!(all.starts_with(&head) && requests(&all) > 12, "{}", requests(&all));
    assert_eq!(ok(&["export", "trace", ron, "--duration", "2m", "--limit", "1000000"]), all);
}

#[test]
fn every_exporter_writes_whole_files_and_replaces_one_only_with_force() {
    let dir = scratch_dir("files");
    let path = dir.join("out.txt");
    let file = path.to_str().expect("a UTF-8 path");
    let exports: [&[&str]; 4] = [
        &["export", "cloudformation", "orders"],
        &["export", "cql", "chat"],
        &["export", "nwb", "counters"],
        &["export", "trace", "counters", "--duration", "10s", "--limit", "50"],
    ];
    for export in exports {
        let _ = std::fs::remove_file(&path);
        let printed = ok(export);
        let args: Vec<&str> = export.iter().copied().chain(["--out", file]).collect();
        assert_eq!(ok(&args), "", "{export:?} with --out prints nothing");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            printed,
            "{export:?}: the file is what stdout shows"
        );
        // An existing file is refused, and left as it was.
        std::fs::write(&path, "mine").unwrap();
        let refused = keyheat(&args);
        assert_eq!(refused.status.code(), Some(2), "{export:?}");
        assert!(stderr(&refused).contains("exists; pass --force to replace it"), "{}", stderr(&refused));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
        let forced: Vec<&str> = args.iter().copied().chain(["--force"]).collect();
        ok(&forced);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), printed, "{export:?} --force replaces the file");
        // `-` is stdout.
        let dash: Vec<&str> = export.iter().copied().chain(["--out", "-"]).collect();
        assert_eq!(ok(&dash), printed);
    }
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["out.txt"], "no temporary file is left behind");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let dir = scratch_dir("bad");
    let missing = dir.join("no-such-dir").join("x.yaml");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["export", "cloudformation", "orders", "--variant", "nope"], "no variant named \"nope\""),
        (vec!["export", "cloudformation", "nope.ron"], "no such file"),
        (vec!["export", "cloudformation", "orders", "--format", "xml"], "invalid value 'xml'"),
        (
            vec!["export", "cql", "orders"],
            "orders uses the DynamoDB profile; `export cql` writes the Cassandra profile's",
        ),
        (
            vec!["export", "cloudformation", "orders", "--out", missing.to_str().unwrap()],
            "does not exist (keyheat does not create it)",
        ),
        (
            vec!["export", "trace", "chat"],
            "chat uses the Cassandra profile: a trace is DynamoDB API requests for `keyheat ops`",
        ),
        // A MongoDB scenario is named for its store, not Cassandra's or DynamoDB's.
        (
            vec!["export", "trace", "shard-keys"],
            "shard-keys uses the MongoDB profile: a trace is DynamoDB API requests for `keyheat ops`, and \
             MongoDB's collections take its query language's methods",
        ),
        (
            vec!["export", "cql", "shard-keys"],
            "shard-keys uses the MongoDB profile; `export cql` writes the Cassandra profile's",
        ),
        (vec!["export", "trace", "orders", "--duration", "5s"], "shorter than one tick (10s)"),
        (vec!["export", "trace", "orders", "--duration", "soon"], "invalid value 'soon'"),
        (vec!["export", "trace", "orders", "--limit", "many"], "invalid value 'many' for '--limit <N>'"),
        (
            vec!["export", "trace", "orders", "--limit", "1", "--out", missing.to_str().unwrap()],
            "does not exist (keyheat does not create it)",
        ),
    ];
    for (args, message) in cases {
        let out = keyheat(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?} printed: {}", stdout(&out));
    }
}

#[test]
fn import_nwb_maps_a_hand_written_model_and_names_what_it_could_not() {
    let model = fixtures().join("library.nwb.json");
    let out = keyheat(&["import", "nwb", model.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    golden("library.ron", &stdout(&out));
    golden("library.notes.txt", &stderr(&out));
    // The scenario it wrote loads and is checked like any other.
    let dir = scratch_dir("import");
    let ron = dir.join("library.ron");
    ok(&["import", "nwb", model.to_str().unwrap(), "--out", ron.to_str().unwrap()]);
    let check = ok(&["check", ron.to_str().unwrap()]);
    assert!(check.contains("Loan in overdue  gsi1pk = OUT, gsi1sk = {due_at}"), "{check}");
    // Every guessed count and rate is a `guess` warning, until the user sets it and drops the mark.
    let guesses: Vec<&str> = check.lines().filter(|l| l.starts_with("  ⚠ guess — ")).collect();
    assert_eq!(guesses.len(), 8, "{check}");
    assert!(guesses.contains(&"  ⚠ guess — population books"), "{guesses:?}");
    assert!(guesses.contains(&"  ⚠ guess — pattern get-loan"), "{guesses:?}");
    let text = std::fs::read_to_string(&ron).unwrap().replacen("rate: 1.0, guess: true", "rate: 3.0", 1);
    std::fs::write(&ron, text).unwrap();
    let check = ok(&["check", ron.to_str().unwrap()]);
    assert_eq!(check.lines().filter(|l| l.starts_with("  ⚠ guess — ")).count(), 7, "{check}");
    // Another table of the model, by name.
    let audit = ok(&["import", "nwb", model.to_str().unwrap(), "--table", "AuditLog"]);
    assert!(audit.contains("\"AuditLog\": (pk: \"day\", sk: \"at\")"), "{audit}");
}

#[test]
fn import_nwb_refuses_what_is_not_a_model_with_file_line_and_column() {
    let dir = scratch_dir("import-bad");
    let cases: [(&str, &str, &str); 5] = [
        (
            "broken.json",
            "{\n  \"ModelName\": \"x\",\n  \"DataModel\": [\n",
            "broken.json:4:0: EOF while parsing a list",
        ),
        (
            "fields.json",
            "{\"ModelName\": \"x\", \"DataModel\": [{\"TableName\": \"t\"}]}",
            "fields.json:1:51: missing field `KeyAttributes`",
        ),
        ("empty.json", "{\"ModelName\": \"x\", \"DataModel\": []}", "empty.json: the model has no tables"),
        (
            "item.json",
            "{\"ModelName\": \"x\", \"DataModel\": [{\"TableName\": \"t\", \"KeyAttributes\": {\"PartitionKey\": \
             {\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}}, \"TableData\": [{\"pk\": \"plain\"}]}]}",
            "table t: TableData item 0 is not an item in DynamoDB JSON",
        ),
        // A type DynamoDB does not have is a broken model, not a guess.
        (
            "type.json",
            "{\"ModelName\": \"x\", \"DataModel\": [{\"TableName\": \"t\", \"KeyAttributes\": {\"PartitionKey\": \
             {\"AttributeName\": \"pk\", \"AttributeType\": \"X\"}}}]}",
            "type.json:1:131: invalid value: string \"X\", expected a DynamoDB attribute type: S, N, B, BOOL",
        ),
    ];
    for (name, text, message) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = keyheat(&["import", "nwb", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{name}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{name}");
    }
    let model = fixtures().join("library.nwb.json");
    let out = keyheat(&["import", "nwb", model.to_str().unwrap(), "--table", "Nope"]);
    assert!(
        stderr(&out).contains("no table named \"Nope\"; its tables are: Library, AuditLog"),
        "{}",
        stderr(&out)
    );
    let out = keyheat(&["import", "nwb", dir.join("missing.json").to_str().unwrap()]);
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
    // An existing scenario file is not replaced without --force.
    let existing = dir.join("mine.ron");
    std::fs::write(&existing, "mine").unwrap();
    let out = keyheat(&["import", "nwb", model.to_str().unwrap(), "--out", existing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "mine");
}
