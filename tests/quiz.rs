//! `keyheat quiz` as a user runs it: the bank as JSON, topics, a quiz answered through a pipe,
//! and the mistakes that exit 2.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{stderr, stdout};

fn keyheat(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_keyheat"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the keyheat binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.as_bytes()).expect("the quiz reads its stdin");
    drop(input);
    child.wait_with_output().expect("the keyheat binary finishes")
}

fn bank() -> serde_json::Value {
    let out = keyheat(&["quiz", "--list", "--format", "json"], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("quiz --list --format json prints JSON")
}

#[test]
fn the_bank_as_json_has_every_field_and_one_answer_per_question() {
    let value = bank();
    let questions = value["questions"].as_array().expect("questions");
    assert!(questions.len() >= 20, "{} questions", questions.len());
    let topics = value["topics"].as_array().expect("topics");
    for topic in topics {
        for field in ["id", "title", "summary"] {
            assert!(topic[field].as_str().is_some_and(|s| !s.is_empty()), "{topic}");
        }
        assert!(topic["questions"].as_u64() >= Some(2), "{topic}");
    }
    for q in questions {
        for field in ["id", "topic", "question", "source"] {
            assert!(q[field].as_str().is_some_and(|s| !s.is_empty()), "{field} in {q}");
        }
        assert!(topics.iter().any(|t| t["id"] == q["topic"]), "{q}");
        let choices = q["choices"].as_array().expect("choices");
        assert!((3..=5).contains(&choices.len()), "{q}");
        let correct: Vec<&serde_json::Value> = choices.iter().filter(|c| c["correct"] == true).collect();
        assert_eq!(correct.len(), 1, "{q}");
        assert_eq!(correct[0]["letter"], q["answer"], "{q}");
        for (c, letter) in choices.iter().zip(["a", "b", "c", "d", "e"]) {
            assert_eq!(c["letter"], letter, "{q}");
            assert!(c["text"].as_str().is_some_and(|s| !s.is_empty()), "{q}");
            assert!(c["why"].as_str().is_some_and(|s| !s.is_empty()), "{q}");
        }
    }
}

#[test]
fn answers_piped_in_are_scored() {
    // The answers to the same quiz, taken from the bank: right, right, wrong.
    let value = bank();
    let asked = keyheat(&["quiz", "--seed", "11", "--count", "3"], "q\n");
    assert_eq!(asked.status.code(), Some(0), "{}", stderr(&asked));
    let text = stdout(&asked);
    let first = value["questions"]
        .as_array()
        .expect("questions")
        .iter()
        .find(|q| {
            text.contains(
                q["question"]
                    .as_str()
                    .expect("question")
                    .split_whitespace()
                    .take(8)
                    .collect::<Vec<_>>()
                    .join(" ")
                    .as_str(),
            )
        })
        .expect("the first question is from the bank");
    let answer = first["answer"].as_str().expect("answer");
    let out = keyheat(&["quiz", "--seed", "11", "--count", "3"], &format!("{answer}\nq\n"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "keyheat quiz: 3 questions (seed 11; `keyheat quiz --seed 11 --count 3` asks them again)."
        ),
        "the hint repeats every option that chose the questions: {text}"
    );
    assert!(text.contains("✔ Right."), "{text}");
    assert!(text.contains("Stopped after 1 of 3 questions."), "{text}");
    assert!(text.contains("Score: 1 of 1 (100%)"), "{text}");
    // All three answered: a score per topic.
    let out = keyheat(&["quiz", "--seed", "11", "--count", "3", "--topic", "ttl"], "a\nb\nc\n");
    let text = stdout(&out);
    assert!(text.contains("Question 3 of 3 · Time to live"), "{text}");
    assert!(text.contains("Score: ") && text.contains("  Time to live  "), "{text}");
    assert!(!text.contains("Stopped"), "{text}");
}

#[test]
fn topics_are_listed() {
    let out = keyheat(&["quiz", "--topics"], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for id in [
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
    ] {
        assert!(stdout(&out).lines().any(|l| l.starts_with(id)), "{id} missing: {}", stdout(&out));
    }
}

#[test]
fn mistakes_exit_2_with_a_message() {
    let out = keyheat(&["quiz", "--topic", "indexes"], "");
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(message.contains("no quiz topic is named \"indexes\""), "{message}");
    assert!(message.contains("gsi") && message.contains("hot-partitions"), "{message}");
    assert!(stdout(&out).is_empty());
    for args in [
        &["quiz", "--count", "0"][..],
        &["quiz", "--list", "--count", "3"],
        &["quiz", "--format", "json"],
        &["quiz", "--bank", "no/such/bank.ron"],
    ] {
        let out = keyheat(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty(), "{args:?}");
    }
}
