//! `keyheat list` and `keyheat check` as a user runs them: exit codes, stdout and stderr.

use std::process::{Command, Output};

fn keyheat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_keyheat")).args(args).output().expect("the keyheat binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

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
