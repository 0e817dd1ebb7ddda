//! The bundled bank and the checks every bank goes through: the bank parses, each question has
//! exactly one correct answer, every topic the issue names is covered, broken banks are errors at
//! the right line and column, and the answers keyheat demonstrates agree with its own store.

use super::*;

/// The topics issue 6 asks the bank to cover.
const REQUIRED_TOPICS: [&str; 10] = [
    "access-patterns",
    "single-table",
    "gsi",
    "hot-partitions",
    "time-buckets",
    "denormalization",
    "scans",
    "ttl",
    "embedding",
    "not-nosql",
];

#[test]
fn the_bundled_bank_parses_with_one_correct_answer_per_question() {
    let bank = bundled();
    assert!(bank.questions().len() >= 30, "{} questions", bank.questions().len());
    for q in bank.questions() {
        assert_eq!(q.choices.iter().filter(|c| c.correct).count(), 1, "{}", q.id);
        assert!((3..=5).contains(&q.choices.len()), "{}", q.id);
        assert!(q.choices.iter().all(|c| !c.why.trim().is_empty()), "{}", q.id);
        assert!(!q.source.trim().is_empty(), "{}", q.id);
    }
}

#[test]
fn every_required_topic_has_at_least_two_questions() {
    let bank = bundled();
    for topic in REQUIRED_TOPICS {
        assert!(bank.topic(topic).is_some(), "topic {topic} is not declared");
        assert!(bank.count(topic) >= 2, "topic {topic} has {} questions", bank.count(topic));
    }
    // And no declared topic is empty.
    for t in bank.topics() {
        assert!(bank.count(&t.id) >= 2, "topic {} has {} questions", t.id, bank.count(&t.id));
    }
}

#[test]
fn answers_are_not_always_the_same_letter() {
    // A bank whose answer is usually "b" teaches guessing.
    let bank = bundled();
    for letter in LETTERS.iter().take(4) {
        let n = bank.questions().iter().filter(|q| q.answer_letter() == *letter).count();
        assert!(n * 2 < bank.questions().len(), "{n} answers are {letter}");
        assert!(n > 0, "no answer is {letter}");
    }
}

/// A small bank: line 3 holds the topic, questions start at line 5.
const SMALL: &str = r#"(
    topics: [
        (id: "gsi", title: "Indexes", summary: "Second keys."),
    ],
    questions: [
        (
            id: "one",
            topic: "gsi",
            question: "Which?",
            choices: [
                (text: "A", correct: true, why: "Because."),
                (text: "B", why: "No."),
                (text: "C", why: "No."),
            ],
            source: "Somewhere.",
        ),
        (
            id: "two",
            topic: "gsi",
            question: "And?",
            choices: [
                (text: "A", why: "No."),
                (text: "B", correct: true, why: "Yes."),
                (text: "C", why: "No."),
            ],
            source: "Elsewhere.",
        ),
    ],
)"#;

/// 1-based line and column of the `nth` (0-based) occurrence of `needle` in `text`.
fn position_of(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let at = text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("needle in text");
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn error(text: &str) -> BankError {
    parse("bank.ron", text).expect_err("the bank is broken")
}

#[test]
fn a_small_bank_parses() {
    let bank = parse("bank.ron", SMALL).unwrap();
    assert_eq!(bank.questions().len(), 2);
    assert_eq!(bank.questions()[1].answer_letter(), 'b');
    assert_eq!(bank.title("gsi"), "Indexes");
    // A byte order mark is not an error.
    assert!(parse("bank.ron", &format!("\u{feff}{SMALL}")).is_ok());
}

#[test]
fn broken_banks_are_errors_at_the_value_they_are_about() {
    let cases: Vec<(String, &str, usize, &str)> = vec![
        // (text, what the error points at, which occurrence, what it says)
        (
            SMALL.replacen("id: \"two\"", "id: \"one\"", 1),
            "\"one\"",
            1,
            "question id \"one\" is already used",
        ),
        (
            SMALL.replacen("(text: \"C\", why: \"No.\"),", "(text: \"C\", correct: true, why: \"No.\"),", 1),
            "true, why: \"No.\"",
            0,
            "choices a and c of question \"one\" are both marked correct",
        ),
        (
            SMALL.replacen("(text: \"B\", correct: true, why: \"Yes.\")", "(text: \"B\", why: \"Yes.\")", 1),
            "[\n                (text: \"A\", why: \"No.\")",
            0,
            "no choice of question \"two\" is marked `correct: true`",
        ),
        (
            SMALL.replacen(
                "topic: \"gsi\",\n            question: \"And?\"",
                "topic: \"gsis\",\n            question: \"And?\"",
                1,
            ),
            "\"gsis\"",
            0,
            "no topic is named \"gsis\"; the topics are: gsi",
        ),
        (
            SMALL.replacen("why: \"Because.\"", "why: \"  \"", 1),
            "\"  \"",
            0,
            "the explanation (why this choice is right or wrong) is empty",
        ),
        (
            SMALL.replacen(
                "(text: \"C\", why: \"No.\"),\n            ],\n            source: \"Somewhere.\"",
                "],\n            source: \"Somewhere.\"",
                1,
            ),
            "[\n                (text: \"A\", correct",
            0,
            "a question needs 3 to 5 choices",
        ),
        (SMALL.replacen("id: \"two\"", "id: \"Two Words\"", 1), "\"Two Words\"", 0, "is not a usable id"),
        (
            SMALL.replacen("(text: \"B\", why: \"No.\")", "(text: \"A\", why: \"No.\")", 1),
            "\"A\", why: \"No.\"",
            0,
            "choice b repeats choice a",
        ),
    ];
    for (text, at, nth, says) in cases {
        let e = error(&text);
        let (line, col) = position_of(&text, at, nth);
        // Errors about a choice list point at its opening bracket; about a value, at the value.
        assert_eq!((e.line, e.col), (line, col), "{e}\nexpected at {at:?}");
        assert!(e.message.contains(says), "{e}\nexpected {says:?}");
        assert!(e.to_string().starts_with(&format!("bank.ron:{line}:{col}: ")), "{e}");
    }
}

#[test]
fn syntax_errors_and_unknown_fields_name_line_and_column() {
    let text = SMALL.replacen("source: \"Elsewhere.\"", "sauce: \"Elsewhere.\"", 1);
    let e = error(&text);
    assert_eq!(e.line, position_of(&text, "sauce", 0).0, "{e}");
    assert!(e.message.contains("sauce"), "{e}");
    let text = SMALL.replacen("question: \"Which?\",", "question: \"Which?\"", 1);
    let e = error(&text);
    assert_eq!(e.line, position_of(&text, "choices", 0).0, "{e}");
    let e = error("");
    assert_eq!((e.line, e.col), (1, 1), "{e}");
}

/// The answers keyheat demonstrates, replayed against keyheat's own store through `keyheat ops`:
/// an index key change costs two index writes (`gsi-key-change`), a filter that matches nothing
/// still pays for the read (`scan-filter-cost`), a sparse index holds only the items with its key
/// (`gsi-sparse`), and a missing item still costs a read (`cap-what-is-free`).
#[test]
fn the_store_agrees_with_the_answers_it_demonstrates() {
    let pad = "x".repeat(520);
    let requests = [
        r#"{"op":"CreateTable","TableName":"orders","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"customer_id","KeyType":"HASH"},{"AttributeName":"order_id","KeyType":"RANGE"}],"AttributeDefinitions":[{"AttributeName":"customer_id","AttributeType":"S"},{"AttributeName":"order_id","AttributeType":"S"},{"AttributeName":"status","AttributeType":"S"},{"AttributeName":"open_since","AttributeType":"S"}],"GlobalSecondaryIndexes":[{"IndexName":"by-status","KeySchema":[{"AttributeName":"status","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}},{"IndexName":"by-customer","KeySchema":[{"AttributeName":"customer_id","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}},{"IndexName":"open","KeySchema":[{"AttributeName":"customer_id","KeyType":"HASH"},{"AttributeName":"open_since","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}"#.to_owned(),
        format!(r#"{{"op":"PutItem","TableName":"orders","Item":{{"customer_id":{{"S":"c1"}},"order_id":{{"S":"o1"}},"status":{{"S":"PENDING"}},"pad":{{"S":"{pad}"}}}}}}"#),
        format!(r#"{{"op":"PutItem","TableName":"orders","Item":{{"customer_id":{{"S":"c1"}},"order_id":{{"S":"o2"}},"status":{{"S":"PENDING"}},"open_since":{{"S":"2025-03-01"}},"pad":{{"S":"{pad}"}}}}}}"#),
        r##"{"op":"UpdateItem","TableName":"orders","Key":{"customer_id":{"S":"c1"},"order_id":{"S":"o1"}},"UpdateExpression":"SET #s = :s","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":s":{"S":"SHIPPED"}},"ReturnConsumedCapacity":"INDEXES"}"##.to_owned(),
        r##"{"op":"Query","TableName":"orders","KeyConditionExpression":"customer_id = :c","FilterExpression":"#s = :x","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":c":{"S":"c1"},":x":{"S":"LOST"}},"ReturnConsumedCapacity":"TOTAL"}"##.to_owned(),
        r#"{"op":"Query","TableName":"orders","IndexName":"open","KeyConditionExpression":"customer_id = :c","ExpressionAttributeValues":{":c":{"S":"c1"}}}"#.to_owned(),
        r#"{"op":"GetItem","TableName":"orders","Key":{"customer_id":{"S":"nobody"},"order_id":{"S":"none"}},"ReturnConsumedCapacity":"TOTAL"}"#.to_owned(),
    ];
    let input = requests.join("\n");
    let mut out = Vec::new();
    crate::ops::run(input.as_bytes(), &mut out, &crate::ops::Options::default()).unwrap();
    let answers: Vec<serde_json::Value> =
        String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), requests.len(), "{answers:?}");
    assert!(answers.iter().all(|a| a.get("__type").is_none()), "{answers:?}");
    // gsi-key-change: table 1 + by-status 2 (delete + put) + by-customer 0 = 3.
    let update = &answers[3]["ConsumedCapacity"];
    assert_eq!(update["CapacityUnits"], 3.0, "{update}");
    assert_eq!(update["Table"]["CapacityUnits"], 1.0, "{update}");
    assert_eq!(update["GlobalSecondaryIndexes"]["by-status"]["CapacityUnits"], 2.0, "{update}");
    assert!(update["GlobalSecondaryIndexes"].get("by-customer").is_none_or(|c| c["CapacityUnits"] == 0.0));
    // scan-filter-cost: nothing returned, both items read and paid for (eventually consistent).
    let query = &answers[4];
    assert_eq!((query["Count"].as_u64(), query["ScannedCount"].as_u64()), (Some(0), Some(2)), "{query}");
    assert_eq!(query["ConsumedCapacity"]["CapacityUnits"], 0.5, "{query}");
    // gsi-sparse: only the order with open_since is in the index.
    assert_eq!(answers[5]["Count"].as_u64(), Some(1), "{}", answers[5]);
    // cap-what-is-free: a missing item still costs half a unit, eventually consistent.
    assert_eq!(answers[6]["ConsumedCapacity"]["CapacityUnits"], 0.5, "{}", answers[6]);
}
