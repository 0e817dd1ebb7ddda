//! The quiz: a bank of multiple-choice questions about key design (`assets/quiz.ron`, compiled
//! in), the checks that make a bank usable, and the pieces that ask it.
//!
//! - this file: the bank's types, [`parse`] with errors at file:line:col, [`bundled`];
//! - `validate`: what a loaded bank must satisfy (unique ids, known topics, exactly one correct
//!   choice, nothing left empty);
//! - `select`: which questions a quiz asks, deterministic for a seed, and the score;
//! - `play`: the terminal quiz over any `BufRead` + `Write`;
//! - `command`: `keyheat quiz` (asking, `--list`, `--topics`).
//!
//! The TUI's quiz screen uses the same bank, selection and score. Nothing here reads the clock
//! except [`seed_from_clock`], which the command line and the TUI call when no seed is given.

pub mod command;
pub mod play;
pub mod select;
mod validate;

use serde::{Deserialize, Serialize};

use crate::scenario::source_map::{Path, Position, SourceMap};
pub use select::{Score, TopicScore, UnknownTopic, select};

/// The bundled bank's file name (what its errors name) and text.
pub const BANK_FILE: &str = "assets/quiz.ron";
pub const BANK_TEXT: &str = include_str!("../assets/quiz.ron");

/// The letters choices are answered with; a question has at most this many choices.
pub const LETTERS: [char; 5] = ['a', 'b', 'c', 'd', 'e'];

/// A question bank. Only [`parse`] makes one, so every bank satisfies the checks in `validate`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bank {
    topics: Vec<Topic>,
    questions: Vec<Question>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topic {
    pub id: String,
    pub title: String,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: String,
    /// A topic's `id`.
    pub topic: String,
    pub question: String,
    pub choices: Vec<Choice>,
    /// Where the facts come from (a developer guide section, a blog post).
    pub source: String,
    /// A keyheat command that shows the answer on live data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub try_it: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub text: String,
    #[serde(default)]
    pub correct: bool,
    /// Why this choice is right, or why it is wrong.
    pub why: String,
}

impl Bank {
    pub fn topics(&self) -> &[Topic] {
        &self.topics
    }

    pub fn questions(&self) -> &[Question] {
        &self.questions
    }

    pub fn topic(&self, id: &str) -> Option<&Topic> {
        self.topics.iter().find(|t| t.id == id)
    }

    /// A topic's title, or its id when the bank has no such topic.
    pub fn title<'a>(&'a self, id: &'a str) -> &'a str {
        self.topic(id).map_or(id, |t| t.title.as_str())
    }

    /// How many questions the bank has on `topic`.
    pub fn count(&self, topic: &str) -> usize {
        self.questions.iter().filter(|q| q.topic == topic).count()
    }

    /// The topic ids, comma-separated (for messages).
    pub fn topic_list(&self) -> String {
        self.topics.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
    }
}

impl Question {
    /// The index of the correct choice.
    ///
    /// # Panics
    ///
    /// Never for a question of a [`Bank`]: `parse` accepts only questions with exactly one
    /// correct choice.
    pub fn answer(&self) -> usize {
        self.choices
            .iter()
            .position(|c| c.correct)
            .expect("a bank question has exactly one correct choice (checked by quiz::parse)")
    }

    /// The correct choice's letter.
    pub fn answer_letter(&self) -> char {
        LETTERS[self.answer()]
    }
}

/// A bank file could not be used: `file:line:col: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct BankError {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// Reads and checks a question bank. `file` is the name errors use.
pub fn parse(file: &str, text: &str) -> Result<Bank, BankError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let bank: Bank = options.from_str(text).map_err(|e| BankError {
        file: file.to_owned(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })?;
    validate::check(&bank).map_err(|problem| {
        // The value the problem is about, found again in the text (serde keeps no positions).
        let at = SourceMap::new(text).locate(&problem.path).unwrap_or(Position { line: 1, col: 1 });
        BankError { file: file.to_owned(), line: at.line, col: at.col, message: problem.message }
    })?;
    Ok(bank)
}

/// The bank compiled into the binary.
///
/// # Panics
///
/// Never for the file shipped: a test loads it.
pub fn bundled() -> Bank {
    parse(BANK_FILE, BANK_TEXT).expect("the bundled question bank loads (tested)")
}

/// Reads a bank from a file.
pub fn load(path: &std::path::Path) -> Result<Bank, BankError> {
    let text = std::fs::read_to_string(path).map_err(|e| BankError {
        file: path.display().to_string(),
        line: 1,
        col: 1,
        message: format!("cannot read the file: {e}"),
    })?;
    parse(&path.display().to_string(), &text)
}

/// A seed for when the user gives none: the wall clock, folded to six digits so it is easy to
/// type back (`--seed 482913`). Only the edges (the command line, the TUI) call this.
pub fn seed_from_clock() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    crate::engine::hash::mix64(now.as_secs() ^ u64::from(now.subsec_nanos())) % 1_000_000
}

/// Where a problem found after parsing is: a path into the file's values.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Problem {
    path: Path,
    message: String,
}

#[cfg(test)]
mod tests;
