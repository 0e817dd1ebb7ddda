//! What a question bank must satisfy once it has parsed: every id unique and typeable on a
//! command line, every question on a declared topic, 3 to 5 choices of which exactly one is
//! correct, and no empty text anywhere (a question without its explanations teaches nothing).
//! The first problem found is reported, as a path to the value it is about.

use std::collections::HashMap;

use super::{Bank, LETTERS, Problem};
use crate::scenario::source_map::Path;

/// Fewest choices a question may have: with two, a guess is right half the time.
pub const MIN_CHOICES: usize = 3;

pub fn check(bank: &Bank) -> Result<(), Problem> {
    let root = Path::root();
    if bank.topics.is_empty() {
        return Err(problem(root.field("topics"), "the bank declares no topics"));
    }
    let mut topic_ids: HashMap<&str, usize> = HashMap::new();
    for (i, topic) in bank.topics.iter().enumerate() {
        let at = root.field("topics").index(i);
        id_syntax(&topic.id, at.field("id"))?;
        if let Some(first) = topic_ids.insert(&topic.id, i) {
            return Err(problem(
                at.field("id"),
                &format!(
                    "topic id {:?} is already used by topic {} (ids must be unique)",
                    topic.id,
                    first + 1
                ),
            ));
        }
        not_empty(&topic.title, at.field("title"), "the topic's title")?;
        not_empty(&topic.summary, at.field("summary"), "the topic's summary")?;
    }
    if bank.questions.is_empty() {
        return Err(problem(root.field("questions"), "the bank has no questions"));
    }
    let mut question_ids: HashMap<&str, usize> = HashMap::new();
    for (i, q) in bank.questions.iter().enumerate() {
        let at = root.field("questions").index(i);
        id_syntax(&q.id, at.field("id"))?;
        if let Some(first) = question_ids.insert(&q.id, i) {
            return Err(problem(
                at.field("id"),
                &format!(
                    "question id {:?} is already used by question {} (ids must be unique)",
                    q.id,
                    first + 1
                ),
            ));
        }
        if !topic_ids.contains_key(q.topic.as_str()) {
            return Err(problem(
                at.field("topic"),
                &format!("no topic is named {:?}; the topics are: {}", q.topic, bank.topic_list()),
            ));
        }
        not_empty(&q.question, at.field("question"), "the question")?;
        not_empty(&q.source, at.field("source"), "the source")?;
        if let Some(command) = &q.try_it {
            not_empty(command, at.field("try_it"), "try_it (leave it out instead)")?;
        }
        choices(q, &at)?;
    }
    Ok(())
}

fn choices(q: &super::Question, at: &Path) -> Result<(), Problem> {
    let n = q.choices.len();
    if !(MIN_CHOICES..=LETTERS.len()).contains(&n) {
        return Err(problem(
            at.field("choices"),
            &format!(
                "a question needs {MIN_CHOICES} to {} choices (answered a–e); this one has {n}",
                LETTERS.len()
            ),
        ));
    }
    let mut correct = Vec::new();
    for (j, choice) in q.choices.iter().enumerate() {
        let c = at.field("choices").index(j);
        not_empty(&choice.text, c.field("text"), "the choice's text")?;
        not_empty(&choice.why, c.field("why"), "the explanation (why this choice is right or wrong)")?;
        if let Some(k) = q.choices[..j].iter().position(|other| other.text.trim() == choice.text.trim()) {
            return Err(problem(
                c.field("text"),
                &format!("choice {} repeats choice {}", LETTERS[j], LETTERS[k]),
            ));
        }
        if choice.correct {
            correct.push(j);
        }
    }
    match correct.as_slice() {
        [_] => Ok(()),
        [] => Err(problem(
            at.field("choices"),
            &format!("no choice of question {:?} is marked `correct: true`; exactly one must be", q.id),
        )),
        [first, second, ..] => Err(problem(
            at.field("choices").index(*second).field("correct"),
            &format!(
                "choices {} and {} of question {:?} are both marked correct; exactly one must be",
                LETTERS[*first], LETTERS[*second], q.id
            ),
        )),
    }
}

/// Ids are typed on command lines (`--topic gsi`) and shown in reports: lowercase ASCII letters,
/// digits and inner dashes.
fn id_syntax(id: &str, at: Path) -> Result<(), Problem> {
    let ok = !id.is_empty()
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-')
        && !id.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err(problem(
            at,
            &format!(
                "{id:?} is not a usable id: use lowercase letters, digits and inner dashes (`hot-partitions`)"
            ),
        ))
    }
}

fn not_empty(text: &str, at: Path, what: &str) -> Result<(), Problem> {
    if text.trim().is_empty() { Err(problem(at, &format!("{what} is empty"))) } else { Ok(()) }
}

fn problem(path: Path, message: &str) -> Problem {
    Problem { path, message: message.to_owned() }
}
