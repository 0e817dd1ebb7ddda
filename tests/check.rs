//! `keyheat list` and `keyheat check` as a user runs them: exit codes, stdout and stderr.

mod common;

use common::{keyheat, stderr, stdout};
use std::process::Command;

fn scratch(name: &str, text: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("the test can write its scratch file");
    path.to_string_lossy().into_owned()
}

#[test]
fn lists_the_bundled_scenarios() {
    let text = keyheat(&["list"]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    for name in ["sensors", "orders", "counters"] {
        assert!(stdout(&text).contains(name), "{}", stdout(&text));
    }
    let json = keyheat(&["list", "--format", "json"]);
    let value: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("list --format json prints JSON");
    assert_eq!(value["scenarios"].as_array().map(Vec::len), Some(keyheat::scenario::BUNDLED.len()));
}

#[test]
fn checks_every_bundled_scenario_and_variant() {
    for name in ["sensors", "orders", "counters"] {
        for variant in ["naive", "recommended"] {
            let out = keyheat(&["check", name, "--variant", variant, "--format", "json"]);
            assert_eq!(out.status.code(), Some(0), "{name}/{variant}: {}", stderr(&out));
            let value: serde_json::Value =
                serde_json::from_slice(&out.stdout).expect("check --format json prints JSON");
            assert_eq!(value["variant"].as_str(), Some(variant));
            assert!(!value["patterns"].as_array().expect("patterns").is_empty());
        }
    }
    let text = keyheat(&["check", "sensors"]);
    assert_eq!(text.status.code(), Some(0));
    assert!(stdout(&text).contains("unbounded-partition"), "{}", stdout(&text));
}

#[test]
fn checks_a_scenario_file_by_path() {
    let source = include_str!("../scenarios/counters.ron");
    let path = scratch("counters-copy.ron", source);
    let out = keyheat(&["check", &path, "--variant", "recommended"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("BatchGetItem ×10"), "{}", stdout(&out));
}

#[test]
fn bad_input_exits_2_with_file_line_and_column() {
    let counters = include_str!("../scenarios/counters.ron");
    let syntax = scratch("syntax.ron", &counters.replacen("name: \"counters\",", "name: \"counters\"", 1));
    let attribute =
        scratch("attribute.ron", &counters.replacen("COUNTER#{stream_id}\"", "COUNTER#{stream}\"", 1));
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["check", &syntax], format!("{syntax}:")),
        (vec!["check", &attribute], "unknown attribute \"stream\"".to_owned()),
        (
            vec!["check", "counters", "--variant", "nope"],
            "no variant named \"nope\"; the variants are: naive, recommended".to_owned(),
        ),
        (
            vec!["check", "no-such-scenario"],
            "the bundled scenarios are: sensors, orders, counters, chat, social-feed".to_owned(),
        ),
        (vec!["check", "sensors", "--format", "yaml"], "yaml".to_owned()),
    ];
    for (args, expected) in cases {
        let out = keyheat(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert!(stderr(&out).contains(&expected), "{args:?}: {:?} lacks {expected:?}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
    }
    // A file error names the file, a line and a column.
    let out = keyheat(&["check", &attribute]);
    let message = stderr(&out);
    let location = message.trim_start_matches("keyheat: ").split(": ").next().unwrap_or_default().to_owned();
    let mut parts = location.rsplitn(3, ':');
    let col: usize = parts.next().and_then(|c| c.parse().ok()).expect("a column");
    let line: usize = parts.next().and_then(|l| l.parse().ok()).expect("a line");
    assert_eq!(parts.next(), Some(attribute.as_str()));
    let source = std::fs::read_to_string(&attribute).expect("the scratch file");
    let at = source.lines().nth(line - 1).expect("the line exists");
    assert_eq!(at.chars().skip(col - 1).take(6).collect::<String>(), "stream", "{message}");
}

#[test]
fn a_practice_problem_shows_its_prompt_hints_and_goal_forecasts_but_not_its_solution() {
    let out = keyheat(&["check", "practice-chat"]);
    // Goals predicted to fail do not change the exit code: `run --fail-on-goals` grades.
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "Practice Design the table keys (and any index) of this chat app",
        "Hint 1: Write each pattern with what it is given",
        "Hint 2: A partition per channel collects every message forever.",
        "Hint 3: my-conversations is asked by user",
        "To answer: write your design as a new variant in a copy of the scenario file",
        "`keyheat run FILE --variant NAME --fail-on-goals` grades it",
        "Goals (predicted from the plan: 2 ✘, 1 ✔; 2 only `keyheat run` can judge)",
        "✘ my conversations never scans predicted: my-conversations is served by a Scan",
        "related warning above: ⚠ scan — my-conversations → see hint 3 Hint 3: my-conversations is asked by user",
        "✔ opening a channel sends at most 2 requests predicted: recent-messages is served by Query on the table: 1 request per call ≤ 2",
        "✘ no partition past 10 GB within a year predicted: projected: 25.5 GB at 1 year (table CH#{channel_id}) > 10 GB",
        "? the sidebar meets its latency target judged by `keyheat run`:",
    ] {
        assert!(flat.contains(part), "{part:?} missing from\n{text}");
    }
    // Only a goal predicted to fail links its hint: the year's partition (hint 2), not the
    // latency judged by a run (hint 3 shows for the Scan it fails on).
    assert!(flat.contains("see hint 2"), "{text}");
    assert_eq!(flat.matches("see hint 3").count(), 1, "{text}");
    assert!(!text.contains("recommended"), "the solution stays hidden:\n{text}");
    // The sections come in order.
    let order = ["\nPractice\n", "\nKeys\n", "\nAccess patterns\n", "\nWarnings", "\nGoals ("];
    let positions: Vec<usize> = order.iter().map(|h| text.find(h).unwrap_or(usize::MAX)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}\n{text}");
}

#[test]
fn a_practice_check_in_markdown_and_json() {
    let md = keyheat(&["check", "practice-chat", "--format", "md"]);
    assert_eq!(md.status.code(), Some(0), "{}", stderr(&md));
    let md = stdout(&md);
    for line in [
        "# practice-chat / naive",
        "## Practice",
        "- **Hint 3:** my-conversations is asked by user, but memberships are keyed by channel. Keep them a second time keyed by user: a global secondary index on the membership item.",
        "## Goals",
        "Predicted from the plan: 2 ✘, 1 ✔; 2 only `keyheat run` can judge.",
    ] {
        assert!(md.lines().any(|l| l == line), "missing {line:?} in\n{md}");
    }
    assert!(
        md.lines().any(|l| l.starts_with("| ✘ | my conversations never scans |")
            && l.contains("— see hint 3: my-conversations is asked by user")),
        "{md}"
    );
    assert!(!md.contains("recommended"), "{md}");
    let json = keyheat(&["check", "practice-chat", "--format", "json"]);
    let value: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("check --format json prints JSON");
    assert_eq!(value["practice"]["hints"].as_array().map(Vec::len), Some(3));
    assert!(value["practice"].get("solution").is_none(), "{}", value["practice"]);
    let goals = value["goals"].as_array().expect("goals");
    let scans = goals.iter().find(|g| g["name"] == "my conversations never scans").expect("the goal");
    assert_eq!((scans["predicted"].as_bool(), scans["hint"]["number"].as_u64()), (Some(false), Some(3)));
    let size = goals.iter().find(|g| g["name"] == "no partition past 10 GB within a year").expect("the goal");
    assert_eq!(size["predicted"].as_bool(), Some(false), "{size}");
}

#[test]
fn a_goal_hint_out_of_range_exits_2_at_its_line_and_column() {
    let source = include_str!("../scenarios/practice-chat.ron");
    let path = scratch(
        "practice-chat-hint.ron",
        &source.replacen(
            r#"check: NoScan("my-conversations"), hint: 3)"#,
            r#"check: NoScan("my-conversations"), hint: 7)"#,
            1,
        ),
    );
    let out = keyheat(&["check", &path]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let line = source
        .lines()
        .position(|l| l.contains(r#"NoScan("my-conversations"), hint: 3"#))
        .expect("the goal's line")
        + 1;
    let col = source.lines().nth(line - 1).and_then(|l| l.find("hint: 3")).expect("the link") + 7;
    let expected =
        format!("{path}:{line}:{col}: no hint 7: the practice problem has 3 hints, numbered 1 to 3");
    assert!(stderr(&out).contains(&expected), "{:?} lacks {expected:?}", stderr(&out));
}

/// `within` is a size goal's horizon: on another goal, or not a duration, it is an error at its
/// line and column.
#[test]
fn a_horizon_on_the_wrong_goal_or_not_a_duration_exits_2_at_its_line_and_column() {
    let source = include_str!("../scenarios/practice-chat.ron");
    let cases = [
        (
            r#"check: NoScan("my-conversations"), hint: 3)"#,
            r#"check: NoScan("my-conversations"), within: "365d", hint: 3)"#,
            "only a size goal (MaxPartitionSize, MaxPartitionItems) has a horizon",
        ),
        (r#"("10GB"), within: "365d""#, r#"("10GB"), within: "a year""#, "a year"),
    ];
    for (i, (from, to, message)) in cases.into_iter().enumerate() {
        assert!(source.contains(from), "{from}");
        let edited = source.replacen(from, to, 1);
        let path = scratch(&format!("practice-chat-within-{i}.ron"), &edited);
        let out = keyheat(&["check", &path]);
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        let line = edited.lines().position(|l| l.contains(to)).expect("the goal's line") + 1;
        // The position is the value's.
        let col = edited.lines().nth(line - 1).and_then(|l| l.find("within: ")).expect("the field") + 9;
        let at = format!("{path}:{line}:{col}: ");
        let err = stderr(&out);
        assert!(err.contains(&at) && err.contains(message), "{err:?} lacks {at:?} and {message:?}");
    }
}

#[test]
fn warns_when_a_key_cannot_tell_items_apart() {
    let orders = include_str!("../scenarios/orders.ron");
    let order_key = r#""Order": (pk: "CUSTOMER#{customer_id}", sk: "ORDER#{order_id}")"#;
    assert!(orders.contains(order_key));
    let path = scratch(
        "orders-collision.ron",
        &orders.replace(order_key, r#""Order": (pk: "CUSTOMER#{customer_id}", sk: "ORDER#{customer_id}")"#),
    );
    let out = keyheat(&["check", &path, "--variant", "naive"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "⚠ key-collision — Order",
        "Order's table key PK = CUSTOMER#{customer_id}, SK = ORDER#{customer_id} leaves out order_id",
        "PutItem with the key of an existing item replaces that item whole, without an error",
        "Add {order_id} to the sort key (SK = ORDER#{customer_id}#{order_id}).",
    ] {
        assert!(flat.contains(part), "{part:?} missing from\n{text}");
    }
    let json = keyheat(&["check", &path, "--variant", "naive", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(value["warnings"][0]["code"], "key-collision", "{}", value["warnings"]);
    // The bundled design keys each order by its id: no warning.
    let fixed = stdout(&keyheat(&["check", "orders", "--variant", "naive"]));
    assert!(!fixed.contains("key-collision"), "{fixed}");
}

#[test]
fn a_file_cut_short_says_it_ends_early_and_where() {
    let text = include_str!("../scenarios/counters.ron");
    let cut = text.find("Provisioned").expect("counters has provisioned capacity") + "Provisioned".len();
    let path = scratch("cut-short.ron", &text[..cut]);
    let out = keyheat(&["check", &path]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let line = text[..cut].lines().count();
    let col = text[..cut].lines().last().expect("a last line").chars().count() + 1;
    let expected = format!("{path}:{line}:{col}: the file ends early, here after `Provisioned`: the `(` at ");
    assert!(stderr(&out).starts_with(&format!("keyheat: {expected}")), "{}", stderr(&out));
    assert!(stderr(&out).contains("is never closed") && !stderr(&out).contains("Expected opening"));
}

#[test]
fn a_bundled_name_says_which_file_it_reads_when_a_file_of_that_name_is_here() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("shadowed");
    std::fs::create_dir_all(&dir).expect("the test can make its scratch directory");
    std::fs::write(dir.join("orders.ron"), include_str!("../scenarios/orders.ron")).expect("scratch file");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_keyheat"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("keyheat runs")
    };
    let out = run(&["check", "orders", "--variant", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let note =
        "keyheat: note: `orders` names the bundled scenario (scenarios/orders.ron), not the file orders.ron";
    assert!(stderr(&out).starts_with(note), "{}", stderr(&out));
    // The path reads the user's file, and its errors cite it.
    let out = run(&["check", "./orders.ron", "--variant", "nope"]);
    assert!(stderr(&out).starts_with("keyheat: ./orders.ron:"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("note:"), "{}", stderr(&out));
}

#[test]
fn items_past_400_kb_are_warned_about() {
    let orders = keyheat::scenario::BUNDLED.iter().find(|(n, _, _)| *n == "orders").expect("bundled").2;
    let path = scratch("huge-names.ron", &orders.replacen("Payload(18)", "Payload(409590)", 1));
    let out = keyheat(&["check", &path, "--variant", "naive"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("oversized-item"), "{text}");
    assert!(text.contains("past DynamoDB's 400 KB item limit"), "{text}");
    let json = keyheat(&["check", &path, "--variant", "naive", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let warned = value.to_string();
    assert!(warned.contains("OversizedItem") || warned.contains("oversized-item"), "{warned}");
    // The file as shipped has nothing to say about item sizes.
    let plain = keyheat(&["check", "orders", "--variant", "naive"]);
    assert!(!stdout(&plain).contains("oversized-item"), "{}", stdout(&plain));
}

#[test]
fn counts_past_their_limits_are_refused_at_check_time_with_line_and_column() {
    let counters = keyheat::scenario::BUNDLED.iter().find(|(n, _, _)| *n == "counters").expect("bundled").2;
    let cases = [
        ("{shard(10)}", "{shard(1000000000)}", "a shard count is at most 10,000"),
        ("count: 500,", "count: 10000000000,", "a population has at most 10,000,000 members"),
        ("rate: 8000,", "rate: 1000000000,", "the rate is at most 1,000,000 calls per second"),
    ];
    for (from, to, message) in cases {
        assert!(counters.contains(from), "{from} is in counters.ron");
        let broken = counters.replacen(from, to, 1);
        let path = scratch("bounded.ron", &broken);
        let out = keyheat(&["check", &path]);
        assert_eq!(out.status.code(), Some(2), "{to}: {}", stdout(&out));
        let at = broken.find(to).expect("replaced");
        let line = broken[..at].matches('\n').count() + 1;
        let err = stderr(&out);
        assert!(err.contains(&format!("bounded.ron:{line}:")), "{to}: {err}");
        assert!(err.contains(message), "{to}: {err}");
    }
}

/// A Cassandra materialized view adds at most one column to its table's primary key (CQL):
/// one that adds two is refused at its key, with the file, line and column.
#[test]
fn a_cassandra_view_adding_two_key_columns_exits_2_at_its_key() {
    let path = "tests/fixtures/cassandra-view-two-columns.ron";
    let source = std::fs::read_to_string(path).expect("the fixture");
    let out = keyheat(&["check", path]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let line =
        source.lines().position(|l| l.contains("name: \"by_last_read\"")).expect("the view's line") + 1;
    let col =
        source.lines().nth(line - 1).and_then(|l| l.find("(pk: \"{last_read_at}\"")).expect("its key") + 1;
    let err = stderr(&out);
    assert!(err.contains(&format!("{path}:{line}:{col}: materialized view by_last_read")), "{err}");
    assert!(
        err.contains("adds 2 columns that are not in Membership's primary key (last_read_at, joined_at)"),
        "{err}"
    );
    // With one of them only, the view is what CQL allows.
    let one = scratch(
        "cassandra-view-one-column.ron",
        &source.replace(
            r#"(pk: "{last_read_at}", sk: "{joined_at}")"#,
            r#"(pk: "{user_id}", sk: "{last_read_at}")"#,
        ),
    );
    let out = keyheat(&["check", &one]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `check` on MongoDB writes each condition as a MongoDB query filter (and sort), and its prose
/// in documents and collections: none of DynamoDB's expressions or items, in text or Markdown.
#[test]
fn on_mongodb_check_writes_query_filters_and_speaks_of_documents() {
    // The words, whatever the lines wrap at.
    let flat = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    for format in ["text", "md"] {
        let out = keyheat(&["check", "social-feed", "--engine", "mongodb", "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = flat(stdout(&out));
        for dynamodb in ["PK = :pk", "begins_with", "SK >= :from", "GetItem", "on the table"] {
            assert!(!text.contains(dynamodb), "{format}: {dynamodb}:\n{text}");
        }
        let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
        assert!(!words.contains(&"items"), "{format}: items:\n{text}");
        for mongodb in [
            "{PK: :pk, SK: :sk}",
            "{GSI1PK: :pk} sort {GSI1SK: -1}",
            "{PK: :pk, SK: /^:prefix/}",
            // (The text table wraps its sort onto the next line.)
            "{PK: :pk, SK: {$gte: :from}}",
            "User documents are not in it",
            "findOne on the collection",
        ] {
            assert!(text.contains(mongodb), "{format}: {mongodb}:\n{text}");
        }
        assert!(format == "text" || text.contains("{PK: :pk, SK: {$gte: :from}} sort {SK: -1}"), "{text}");
    }
    // DynamoDB keeps its expressions.
    let text = flat(stdout(&keyheat(&["check", "social-feed", "--format", "md"])));
    for dynamodb in
        ["PK = :pk AND SK >= :from", "PK = :pk AND begins_with(SK, :prefix)", "User items are not in it"]
    {
        assert!(text.contains(dynamodb), "{dynamodb}:\n{text}");
    }
}
