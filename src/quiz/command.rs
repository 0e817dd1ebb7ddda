//! `keyheat quiz`: asks the bank in the terminal (`play`), or prints it (`--list`, answers and
//! explanations included) or its topics (`--topics`), as text or JSON. Without `--seed` the seed
//! comes from the clock and is printed, so a quiz can be asked again exactly.

use std::io::{BufRead, Write};

use anyhow::bail;
use serde::Serialize;

use super::{Bank, LETTERS, Question, UnknownTopic, play, seed_from_clock, select};
use crate::report::Format;

/// What `keyheat quiz` was asked to do, as the CLI parsed it (`cli::Options` documents each).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub topic: Option<String>,
    pub count: u16,
    pub seed: Option<u64>,
    pub list: bool,
    pub topics: bool,
    pub format: Format,
    pub bank: Option<std::path::PathBuf>,
}

pub fn run(args: &Options, input: &mut impl BufRead, out: &mut impl Write) -> anyhow::Result<()> {
    let bank = match &args.bank {
        Some(path) => super::load(path)?,
        None => super::bundled(),
    };
    if let Some(topic) = &args.topic
        && bank.topic(topic).is_none()
    {
        return Err(UnknownTopic { name: topic.clone(), topics: bank.topic_list() }.into());
    }
    if args.topics {
        return topics(&bank, args.format, out);
    }
    if args.list {
        return list(&bank, args.topic.as_deref(), args.format, out);
    }
    if args.format != Format::Text {
        bail!(
            "--format json prints the bank with --list or the topics with --topics; the quiz itself is asked as text"
        );
    }
    let seed = args.seed.unwrap_or_else(seed_from_clock);
    let questions = select(&bank, args.topic.as_deref(), usize::from(args.count), seed)?;
    let bank_path = args.bank.as_ref().map(|p| p.display().to_string());
    let asked = play::Asked {
        seed,
        count: usize::from(args.count),
        topic: args.topic.as_deref(),
        bank: bank_path.as_deref(),
    };
    play::play(&bank, &questions, &asked, input, out)?;
    Ok(())
}

/// A topic as `--topics` and `--list` print it.
#[derive(Debug, Serialize)]
pub struct TopicEntry<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub summary: &'a str,
    pub questions: usize,
}

/// A question with everything: choices lettered, the answer's letter, the explanations.
#[derive(Debug, Serialize)]
pub struct QuestionEntry<'a> {
    pub id: &'a str,
    pub topic: &'a str,
    pub question: &'a str,
    pub choices: Vec<ChoiceEntry<'a>>,
    pub answer: char,
    pub source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub try_it: Option<&'a str>,
}

#[derive(Debug, Serialize)]
pub struct ChoiceEntry<'a> {
    pub letter: char,
    pub text: &'a str,
    pub correct: bool,
    pub why: &'a str,
}

#[derive(Debug, Serialize)]
struct Listing<'a> {
    topics: Vec<TopicEntry<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    questions: Option<Vec<QuestionEntry<'a>>>,
}

fn topic_entries(bank: &Bank) -> Vec<TopicEntry<'_>> {
    bank.topics()
        .iter()
        .map(|t| TopicEntry { id: &t.id, title: &t.title, summary: &t.summary, questions: bank.count(&t.id) })
        .collect()
}

fn question_entry(q: &Question) -> QuestionEntry<'_> {
    QuestionEntry {
        id: &q.id,
        topic: &q.topic,
        question: &q.question,
        choices: LETTERS
            .iter()
            .zip(&q.choices)
            .map(|(&letter, c)| ChoiceEntry { letter, text: &c.text, correct: c.correct, why: &c.why })
            .collect(),
        answer: q.answer_letter(),
        source: &q.source,
        try_it: q.try_it.as_deref(),
    }
}

fn topics(bank: &Bank, format: Format, out: &mut impl Write) -> anyhow::Result<()> {
    let entries = topic_entries(bank);
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &Listing { topics: entries, questions: None })?;
            writeln!(out)?;
        }
        Format::Text => {
            let width = entries.iter().map(|t| t.id.len()).max().unwrap_or(0);
            for t in &entries {
                writeln!(out, "{:<width$}  {} ({} questions)", t.id, t.title, t.questions)?;
                for line in play::wrap(t.summary, 76 - width) {
                    writeln!(out, "{:width$}  {line}", "")?;
                }
            }
        }
    }
    Ok(())
}

fn list(bank: &Bank, topic: Option<&str>, format: Format, out: &mut impl Write) -> anyhow::Result<()> {
    let questions: Vec<&Question> =
        bank.questions().iter().filter(|q| topic.is_none_or(|t| q.topic == t)).collect();
    match format {
        Format::Json => {
            let listing = Listing {
                topics: topic_entries(bank)
                    .into_iter()
                    .filter(|t| topic.is_none_or(|id| t.id == id))
                    .collect(),
                questions: Some(questions.into_iter().map(question_entry).collect()),
            };
            serde_json::to_writer_pretty(&mut *out, &listing)?;
            writeln!(out)?;
        }
        Format::Text => {
            for t in bank.topics().iter().filter(|t| topic.is_none_or(|id| t.id == id)) {
                writeln!(out, "━━ {} ({}) ━━", t.title, t.id)?;
                for q in questions.iter().filter(|q| q.topic == t.id) {
                    writeln!(out)?;
                    print_question(q, out)?;
                }
                writeln!(out)?;
            }
        }
    }
    Ok(())
}

fn print_question(q: &Question, out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(out, "[{}]", q.id)?;
    for line in play::wrap(&q.question, 78) {
        writeln!(out, "{line}")?;
    }
    let answer = q.answer();
    for (i, (letter, c)) in LETTERS.iter().zip(&q.choices).enumerate() {
        let mark = if i == answer { "✔" } else { " " };
        for (j, line) in play::wrap(&c.text, 72).iter().enumerate() {
            if j == 0 {
                writeln!(out, "{mark} {letter}) {line}")?;
            } else {
                writeln!(out, "     {line}")?;
            }
        }
        for line in play::wrap(&c.why, 71) {
            writeln!(out, "       {line}")?;
        }
    }
    writeln!(out, "  Source: {}", q.source)?;
    if let Some(command) = &q.try_it {
        writeln!(out, "  Try it: {command}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> Options {
        Options {
            topic: None,
            count: 10,
            seed: Some(5),
            list: false,
            topics: false,
            format: Format::Text,
            bank: None,
        }
    }

    fn output(args: &Options, input: &str) -> anyhow::Result<String> {
        let mut out = Vec::new();
        run(args, &mut input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).expect("the quiz writes UTF-8"))
    }

    #[test]
    fn lists_the_bank_as_json_with_answers() {
        let text = output(&Options { list: true, format: Format::Json, ..args() }, "").unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let bank = crate::quiz::bundled();
        assert_eq!(value["questions"].as_array().unwrap().len(), bank.questions().len());
        assert_eq!(value["topics"].as_array().unwrap().len(), bank.topics().len());
        let q = &value["questions"][0];
        let answer = q["answer"].as_str().unwrap();
        let correct: Vec<&str> = q["choices"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["correct"] == true)
            .map(|c| c["letter"].as_str().unwrap())
            .collect();
        assert_eq!(correct, vec![answer]);
        assert!(!q["choices"][0]["why"].as_str().unwrap().is_empty());
    }

    #[test]
    fn lists_one_topic_as_text_and_the_topics() {
        let text = output(&Options { list: true, topic: Some("ttl".into()), ..args() }, "").unwrap();
        assert!(text.contains("━━ Time to live (ttl) ━━"), "{text}");
        assert!(text.contains("[ttl-timing]") && !text.contains("[gsi-sparse]"), "{text}");
        assert!(text.contains("✔ b) "), "{text}");
        let topics = output(&Options { topics: true, ..args() }, "").unwrap();
        assert!(topics.lines().any(|l| l.starts_with("gsi ") && l.contains("questions)")), "{topics}");
        let json = output(&Options { topics: true, format: Format::Json, ..args() }, "").unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(value.get("questions").is_none());
        assert!(value["topics"].as_array().unwrap().iter().all(|t| t["questions"].as_u64() >= Some(2)));
    }

    #[test]
    fn asks_with_a_seed_and_refuses_json_quizzes_and_unknown_topics() {
        let text = output(&Options { count: 2, ..args() }, "a\nb\n").unwrap();
        assert!(
            text.starts_with(
                "keyheat quiz: 2 questions (seed 5; `keyheat quiz --seed 5 --count 2` asks them again)."
            ),
            "{text}"
        );
        assert!(text.contains("Score: "), "{text}");
        let one_topic = Options { count: 3, topic: Some("ttl".into()), ..args() };
        let text = output(&one_topic, "q\n").unwrap();
        assert!(text.contains("`keyheat quiz --seed 5 --count 3 --topic ttl` asks them again"), "{text}");
        let e = output(&Options { format: Format::Json, ..args() }, "").unwrap_err();
        assert!(e.to_string().contains("--list"), "{e}");
        let e = output(&Options { topic: Some("nope".into()), ..args() }, "").unwrap_err();
        assert!(e.to_string().contains("no quiz topic is named \"nope\""), "{e}");
    }

    #[test]
    fn a_bank_file_is_checked_with_positions() {
        let dir = std::env::temp_dir().join(format!("keyheat-quiz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("broken.ron");
        std::fs::write(&path, crate::quiz::BANK_TEXT.replacen("correct: true,", "", 1)).unwrap();
        let e = output(&Options { list: true, bank: Some(path.clone()), ..args() }, "").unwrap_err();
        assert!(e.to_string().starts_with(&format!("{}:", path.display())), "{e}");
        assert!(e.to_string().contains("no choice of question \"ap-first-step\""), "{e}");
        let missing = dir.join("missing.ron");
        let e = output(&Options { bank: Some(missing), ..args() }, "").unwrap_err();
        assert!(e.to_string().contains("cannot read the file"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
