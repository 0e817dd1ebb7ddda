//! Fuzzing kept in the suite: arbitrary bytes and structured mutations fed to the four parsers a
//! user's text reaches — the RON scenario loader (and the planner `check` runs on what loads),
//! the key template parser, the expression parsers and `keyheat ops`. Each input must give a
//! result or an error that says where (file:line:col, a byte offset, an expression's own
//! message, one answer per request line), never a panic, and in bounded time.
//!
//! The default run is sized for `cargo test` (a few seconds in a debug build). A longer run:
//! `KEYHEAT_FUZZ_CASES=20000 cargo test --release --test fuzz`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use keyheat::engine::expr::{
    ExpressionContext, ExpressionKind, parse_condition, parse_key_condition, parse_projection, parse_update,
};
use keyheat::engine::planner;
use keyheat::engine::template::Template;
use keyheat::engine::value::AttributeValue;
use keyheat::scenario::{self, BUNDLED, LoadError};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Cases per property: `KEYHEAT_FUZZ_CASES`, or a default that keeps the suite fast.
fn cases(default: u32) -> u32 {
    std::env::var("KEYHEAT_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

fn config(default: u32) -> Config {
    Config { cases: cases(default), failure_persistence: None, ..Config::default() }
}

/// No single input may take this long: the inputs are a few KB, and every loop a file or a
/// request can size is bounded. Generous, so a loaded machine does not fail it; a hang does.
const PER_INPUT: Duration = Duration::from_secs(20);

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(start.elapsed() < PER_INPUT, "{what} took {:?}", start.elapsed());
    out
}

/// A mutation of a text: the edits a fuzzer makes, at positions drawn as fractions of the text.
#[derive(Debug, Clone)]
enum Edit {
    Delete(f64, usize),
    Duplicate(f64, usize),
    Insert(f64, String),
    /// Replace the n-th number in the text with this one.
    Number(usize, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    let numbers = prop::sample::select(vec![
        "0",
        "-1",
        "1e300",
        "-0.0",
        "4294967296",
        "18446744073709551616",
        "99999999999",
        "1.5",
        "NaN",
        "10000000000",
        "1000000000",
        "65536",
        "",
    ]);
    let inserts = prop::sample::select(vec![
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ",",
        "\"",
        ":",
        "//",
        "/*",
        "Some(",
        "{shard(100000)}",
        "{hash(x, 99999)}",
        "{bucket(t, 1ms)}",
        "\u{0}",
        "é",
        "\n",
        "r#\"",
        "#",
    ]);
    prop_oneof![
        (0.0..1.0f64, 1usize..64).prop_map(|(at, n)| Edit::Delete(at, n)),
        (0.0..1.0f64, 1usize..256).prop_map(|(at, n)| Edit::Duplicate(at, n)),
        (0.0..1.0f64, inserts).prop_map(|(at, s)| Edit::Insert(at, s.to_owned())),
        (0.0..1.0f64, "\\PC{1,8}").prop_map(|(at, s)| Edit::Insert(at, s)),
        (0usize..200, numbers).prop_map(|(n, s)| Edit::Number(n, s.to_owned())),
    ]
}

/// The character boundary at or before `fraction` of the text.
fn boundary(text: &str, fraction: f64) -> usize {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
    let mut at = ((text.len() as f64) * fraction) as usize;
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut out = text.to_owned();
    match edit {
        Edit::Delete(at, n) => {
            let start = boundary(&out, *at);
            let end = boundary(&out, ((start + n) as f64 / out.len().max(1) as f64).min(1.0)).max(start);
            out.replace_range(start..end, "");
        }
        Edit::Duplicate(at, n) => {
            let start = boundary(&out, *at);
            let end = boundary(&out, ((start + n) as f64 / out.len().max(1) as f64).min(1.0)).max(start);
            let piece = out[start..end].to_owned();
            out.insert_str(end, &piece);
        }
        Edit::Insert(at, piece) => {
            let at = boundary(&out, *at);
            out.insert_str(at, piece);
        }
        Edit::Number(n, number) => {
            let spans: Vec<(usize, usize)> = number_spans(&out);
            if !spans.is_empty() {
                let (start, end) = spans[n % spans.len()];
                out.replace_range(start..end, number);
            }
        }
    }
    out
}

/// Byte spans of the runs of ASCII digits.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// Loads `source` as `fuzz.ron` and, when it loads, plans every variant as `check` would. An
/// error must name the file and a line and column inside it (or just past its end).
fn load_and_plan(source: &str) -> Result<(), TestCaseError> {
    let result = timed("loading", || scenario::parse("fuzz.ron", source));
    match result {
        Ok(loaded) => timed("planning", || {
            for variant in &loaded.scenario.variants {
                let _ = planner::plan(&loaded.scenario, variant);
            }
        }),
        Err(LoadError::At { file, line, col, message }) => {
            prop_assert_eq!(file, "fuzz.ron");
            let lines = source.split('\n').count();
            prop_assert!(line >= 1 && line <= lines + 1, "line {line} of {lines}: {message}");
            prop_assert!(col >= 1, "column {col}: {message}");
            prop_assert!(!message.is_empty());
        }
        Err(other) => prop_assert!(false, "an error without a position: {other}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn the_scenario_loader_survives_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        // The loader takes text: invalid UTF-8 is the file reader's error, lossily decoded here.
        let text = String::from_utf8_lossy(&bytes);
        load_and_plan(&text)?;
    }

    #[test]
    fn the_scenario_loader_survives_mutated_scenarios(
        which in 0..BUNDLED.len(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let mut text = BUNDLED[which].2.to_owned();
        for e in &edits {
            text = apply(&text, e);
        }
        load_and_plan(&text)?;
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn the_template_parser_locates_every_error(source in "\\PC{0,64}|[{}()a-z0-9_, :%#-]{0,64}") {
        if let Err(error) = timed("a template", || Template::parse(&source)) {
            prop_assert!(error.offset <= source.len() && source.is_char_boundary(error.offset), "{error}");
        }
    }

    #[test]
    fn expressions_parse_or_say_which_parameter_is_wrong(
        text in "\\PC{0,80}|[a-z#:.\\[\\]0-9() ,=<>]{0,120}|(a|b|#n|:v|size\\(a\\)|a\\.b\\[0\\])( (=|<>|<|AND|OR|IN|BETWEEN|,) (a|:v|\\(|\\)|NOT)){0,40}",
        kind in 0usize..5,
    ) {
        let names: BTreeMap<String, String> = [("#n".to_owned(), "name".to_owned())].into();
        let values: BTreeMap<String, AttributeValue> = [(":v".to_owned(), AttributeValue::S("x".into()))].into();
        let mut ctx = ExpressionContext::new(names, values);
        let (parameter, result) = timed("an expression", || match kind {
            0 => ("KeyConditionExpression", parse_key_condition(&text, &mut ctx).err()),
            1 => ("ConditionExpression", parse_condition(ExpressionKind::Condition, &text, &mut ctx).err()),
            2 => ("FilterExpression", parse_condition(ExpressionKind::Filter, &text, &mut ctx).err()),
            3 => ("UpdateExpression", parse_update(&text, &mut ctx).err()),
            _ => ("ProjectionExpression", parse_projection(&text, &mut ctx).err()),
        });
        // DynamoDB words it "Invalid KeyConditionExpression: …" or, for one condition of it,
        // "Invalid condition in KeyConditionExpression: …": either way the parameter is named.
        // Four key-condition errors it words its own way, and keyheat returns them verbatim.
        if let Some(error) = result {
            let named = error.message.starts_with("Invalid ") && error.message.contains(&format!("{parameter}: "));
            let verbatim = kind == 0 && KEY_CONDITION_VERBATIM.contains(&error.message.as_str());
            prop_assert!(named || verbatim, "{text:?}: {}", error.message);
        }
    }
}

/// The key-condition errors DynamoDB returns without the "Invalid …KeyConditionExpression: "
/// prefix (a ValidationException's message, word for word).
const KEY_CONDITION_VERBATIM: [&str; 4] = [
    "KeyConditionExpressions cannot contain nested operations",
    "KeyConditionExpressions cannot have conditions on nested attributes",
    "KeyConditionExpressions must only contain one condition per key",
    "Conditions can be of length 1 or 2 only",
];

/// The answers `ops` gives to `input`: one JSON object per non-blank line, in order.
fn ops(input: &[u8]) -> Result<(), TestCaseError> {
    let mut out = Vec::new();
    let stats = timed("ops", || keyheat::ops::run(input, &mut out, &keyheat::ops::Options::default()))
        .map_err(|e| TestCaseError::fail(format!("ops failed: {e}")))?;
    // A blank line (whitespace only, as UTF-8) gets no answer; any other line gets one.
    let blank = |line: &[u8]| std::str::from_utf8(line).is_ok_and(|t| t.trim().is_empty());
    let requests = input.split(|&b| b == b'\n').filter(|l| !blank(l)).count();
    let text = String::from_utf8(out).map_err(|_| TestCaseError::fail("ops wrote invalid UTF-8"))?;
    let answers: Vec<&str> = text.lines().collect();
    prop_assert_eq!(answers.len(), requests);
    prop_assert_eq!(stats.requests, requests as u64);
    for answer in answers {
        let json: serde_json::Value = serde_json::from_str(answer)
            .map_err(|e| TestCaseError::fail(format!("not JSON ({e}): {answer}")))?;
        prop_assert!(json.is_object(), "{answer}");
        if let Some(kind) = json.get("__type") {
            prop_assert!(kind.is_string() && json["message"].is_string(), "{answer}");
        }
    }
    Ok(())
}

/// Requests that reach past the parser: a table, then reads and writes with drawn pieces.
fn request() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        r#"{"PK":{"S":"a"}}"#,
        r#"{"PK":{"S":"a"},"SK":{"N":"1"}}"#,
        r#"{"PK":{"N":"1e999"}}"#,
        r"{}",
        r#"{"PK":{"S":""}}"#,
        r#"{"PK":{"L":[]}}"#,
        r"[1]",
    ]);
    let expression = prop::sample::select(vec![
        "PK = :v",
        "PK = :v AND SK > :v",
        "attribute_exists(a.b[99999999999])",
        "SET a = a + :v",
        "SET #n = list_append(a, a)",
        "REMOVE a[0], a[1]",
        "a IN (:v, :v)",
        "size(a) > :v",
        "((((a))))",
    ]);
    let op = prop::sample::select(vec![
        "PutItem",
        "GetItem",
        "UpdateItem",
        "DeleteItem",
        "Query",
        "Scan",
        "BatchGetItem",
        "BatchWriteItem",
        "DescribeTable",
        "AdvanceTime",
        "CreateTable",
        "UpdateTimeToLive",
        "Nope",
    ]);
    let number = prop::sample::select(vec!["0", "1", "-1", "1e30", "18446744073709551616", "\"5\"", "null"]);
    (op, key, expression, number).prop_map(|(op, key, expression, number)| {
        format!(
            r##"{{"op":"{op}","TableName":"t","Key":{key},"Item":{key},"KeyConditionExpression":"{expression}","UpdateExpression":"{expression}","ConditionExpression":"{expression}","ExpressionAttributeValues":{{":v":{{"N":"1"}}}},"ExpressionAttributeNames":{{"#n":"n"}},"Limit":{number},"Seconds":{number}}}"##
        )
    })
}

const CREATE: &str = r#"{"op":"CreateTable","TableName":"t","KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"N"}],"BillingMode":"PAY_PER_REQUEST"}"#;

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn ops_answers_arbitrary_bytes_line_by_line(bytes in prop::collection::vec(any::<u8>(), 0..1024)) {
        ops(&bytes)?;
    }

    #[test]
    fn ops_answers_mutated_requests_line_by_line(
        requests in prop::collection::vec(request(), 1..24),
        edits in prop::collection::vec(edit(), 0..4),
    ) {
        let mut text = format!("{CREATE}\n{}\n", requests.join("\n"));
        for e in &edits {
            text = apply(&text, e);
        }
        ops(text.as_bytes())?;
    }
}
