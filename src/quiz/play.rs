//! The quiz in a plain terminal: a question and its choices, a line of input (a letter, or `q`
//! to stop), then whether it was right and why each choice is right or wrong; a score per topic
//! at the end. Reads any `BufRead` and writes any `Write`, so a pipe, a file or a test can drive
//! it; the end of the input stops the quiz like `q`.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};

use super::{Bank, LETTERS, Question, Score};

/// Text is wrapped to fit an 80-column terminal.
const WIDTH: usize = 78;

/// What a line of input means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// The index of the chosen choice.
    Choice(usize),
    Quit,
    /// Anything else: asked again.
    Unclear,
}

/// Reads an answer to a question with `choices` choices: a letter in either case, or `q`/`quit`.
pub fn reply(line: &str, choices: usize) -> Reply {
    let line = line.trim().to_lowercase();
    if line == "q" || line == "quit" {
        return Reply::Quit;
    }
    let mut chars = line.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => LETTERS[..choices.min(LETTERS.len())]
            .iter()
            .position(|&l| l == c)
            .map_or(Reply::Unclear, Reply::Choice),
        _ => Reply::Unclear,
    }
}

/// How a quiz ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub score: Score,
    /// Every question was answered (not stopped by `q` or the end of the input).
    pub finished: bool,
}

/// How the questions were chosen, so the quiz can be asked again exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asked<'a> {
    pub seed: u64,
    /// `--count` as given (the bank may hold fewer questions).
    pub count: usize,
    pub topic: Option<&'a str>,
    /// `--bank`, when not the bundled bank.
    pub bank: Option<&'a str>,
}

impl Asked<'_> {
    /// The command that asks the same questions in the same order: the seed alone would not,
    /// since `--count`, `--topic` and `--bank` choose among the questions too.
    pub fn again(&self) -> String {
        let mut command = format!("keyheat quiz --seed {} --count {}", self.seed, self.count);
        if let Some(topic) = self.topic {
            let _ = write!(command, " --topic {topic}");
        }
        if let Some(bank) = self.bank {
            // A path with spaces is quoted so the command can be pasted back.
            let _ = if bank.contains(char::is_whitespace) {
                write!(command, " --bank '{bank}'")
            } else {
                write!(command, " --bank {bank}")
            };
        }
        command
    }
}

/// Asks `questions` in order and returns the score. How they were chosen is shown so the same
/// quiz can be asked again.
pub fn play(
    bank: &Bank,
    questions: &[&Question],
    asked: &Asked,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<Outcome> {
    let n = questions.len();
    writeln!(
        out,
        "keyheat quiz: {n} question{} (seed {}; `{}` asks them again).",
        plural(n),
        asked.seed,
        asked.again()
    )?;
    writeln!(out, "Answer with a letter; q stops.")?;
    let mut score = Score::default();
    let mut finished = true;
    for (i, q) in questions.iter().enumerate() {
        writeln!(out)?;
        writeln!(out, "Question {} of {n} · {}", i + 1, bank.title(&q.topic))?;
        ask(q, out)?;
        let Some(chosen) = answer(q, input, out)? else {
            finished = false;
            break;
        };
        let right = chosen == q.answer();
        score.record(&q.topic, right);
        explain(q, chosen, out)?;
    }
    summary(bank, &score, n, finished, out)?;
    Ok(Outcome { score, finished })
}

fn ask(q: &Question, out: &mut impl Write) -> io::Result<()> {
    for line in wrap(&q.question, WIDTH) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    for (letter, choice) in LETTERS.iter().zip(&q.choices) {
        indented(out, &format!("{letter}) "), &choice.text)?;
    }
    Ok(())
}

/// Prompts until the input is a letter (`Some`) or a request to stop, or ends (`None`).
fn answer(q: &Question, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<Option<usize>> {
    let last = LETTERS[q.choices.len() - 1];
    loop {
        write!(out, "Your answer (a–{last}, q stops): ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            // The input ended without a newline after the prompt; end the prompt's line.
            writeln!(out)?;
            return Ok(None);
        }
        match reply(&line, q.choices.len()) {
            Reply::Choice(i) => return Ok(Some(i)),
            Reply::Quit => return Ok(None),
            Reply::Unclear => {
                writeln!(out, "{:?} is not an answer: type one letter from a to {last}.", line.trim())?;
            }
        }
    }
}

fn explain(q: &Question, chosen: usize, out: &mut impl Write) -> io::Result<()> {
    let answer = q.answer();
    // A typed answer ends its line with Enter; a piped one leaves the prompt open. Either way the
    // verdict starts after a break.
    writeln!(out)?;
    if chosen == answer {
        writeln!(out, "✔ Right.")?;
    } else {
        writeln!(out, "✘ Not quite: the answer is {}.", LETTERS[answer])?;
    }
    for (i, (letter, choice)) in LETTERS.iter().zip(&q.choices).enumerate() {
        let mark = if i == answer { "✔" } else { "✘" };
        let yours = if i == chosen { " (your answer)" } else { "" };
        indented(out, &format!("{mark} {letter}) "), &format!("{}{yours}", choice.text))?;
        indented(out, "     ", &choice.why)?;
    }
    indented(out, "Source: ", &q.source)?;
    if let Some(command) = &q.try_it {
        indented(out, "Try it: ", command)?;
    }
    Ok(())
}

fn summary(bank: &Bank, score: &Score, n: usize, finished: bool, out: &mut impl Write) -> io::Result<()> {
    writeln!(out)?;
    if !finished {
        writeln!(out, "Stopped after {} of {n} question{}.", score.asked(), plural(n))?;
    }
    match score.percent() {
        None => writeln!(out, "No questions answered."),
        Some(percent) => {
            writeln!(out, "Score: {} of {} ({percent}%)", score.right(), score.asked())?;
            let width = score.topics.iter().map(|t| bank.title(&t.topic).chars().count()).max().unwrap_or(0);
            for t in &score.topics {
                writeln!(out, "  {:<width$}  {}/{}", bank.title(&t.topic), t.right, t.asked)?;
            }
            Ok(())
        }
    }
}

/// `text` wrapped after `head`, continuation lines indented to line up with the first.
fn indented(out: &mut impl Write, head: &str, text: &str) -> io::Result<()> {
    let indent = head.chars().count();
    for (i, line) in wrap(text, WIDTH.saturating_sub(indent)).iter().enumerate() {
        if i == 0 {
            writeln!(out, "{head}{line}")?;
        } else {
            writeln!(out, "{:indent$}{line}", "")?;
        }
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Splits `text` into lines of at most `width` characters at spaces; a word longer than a line
/// gets a line of its own.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let used = line.chars().count();
        if used > 0 && used + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        } else if used > 0 {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::{bundled, select};

    fn run(bank: &Bank, questions: &[&Question], input: &str) -> (Outcome, String) {
        let mut out = Vec::new();
        let asked = Asked { seed: 42, count: questions.len(), topic: None, bank: None };
        let outcome = play(bank, questions, &asked, &mut input.as_bytes(), &mut out).unwrap();
        (outcome, String::from_utf8(out).unwrap())
    }

    #[test]
    fn replies() {
        let cases = [
            ("a\n", 4, Reply::Choice(0)),
            (" C \r\n", 4, Reply::Choice(2)),
            ("d", 4, Reply::Choice(3)),
            ("e", 4, Reply::Unclear),
            ("e", 5, Reply::Choice(4)),
            ("q", 4, Reply::Quit),
            ("QUIT", 4, Reply::Quit),
            ("ab", 4, Reply::Unclear),
            ("", 4, Reply::Unclear),
            ("1", 4, Reply::Unclear),
            ("é", 4, Reply::Unclear),
        ];
        for (line, n, want) in cases {
            assert_eq!(reply(line, n), want, "{line:?}");
        }
    }

    #[test]
    fn scripted_answers_are_scored_per_topic() {
        let bank = bundled();
        let questions = select(&bank, None, 3, 42).unwrap();
        // Right, wrong, right, with a stray line before the last answer.
        let wrong = |q: &Question| LETTERS[(q.answer() + 1) % q.choices.len()];
        let input = format!(
            "{}\n{}\nwhat?\n{}\n",
            questions[0].answer_letter(),
            wrong(questions[1]),
            questions[2].answer_letter().to_ascii_uppercase()
        );
        let (outcome, text) = run(&bank, &questions, &input);
        assert!(outcome.finished);
        assert_eq!((outcome.score.right(), outcome.score.asked()), (2, 3));
        assert!(text.contains("keyheat quiz: 3 questions (seed 42"), "{text}");
        assert!(text.contains("Question 1 of 3 · "), "{text}");
        assert_eq!(text.matches("✔ Right.").count(), 2, "{text}");
        assert!(text.contains(&format!("✘ Not quite: the answer is {}.", questions[1].answer_letter())));
        assert!(text.contains("\"what?\" is not an answer"), "{text}");
        assert!(text.contains("(your answer)"));
        // Every explanation of an answered question is shown.
        for q in &questions {
            for c in &q.choices {
                let first_words: String = c.why.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
                assert!(text.contains(&first_words), "{first_words:?} missing");
            }
        }
        assert!(text.contains("Score: 2 of 3 (66%)"), "{text}");
        for t in &outcome.score.topics {
            assert!(text.contains(bank.title(&t.topic)));
        }
    }

    #[test]
    fn q_or_the_end_of_input_stops_early() {
        let bank = bundled();
        let questions = select(&bank, Some("gsi"), 4, 1).unwrap();
        let (outcome, text) = run(&bank, &questions, &format!("{}\nq\n", questions[0].answer_letter()));
        assert!(!outcome.finished);
        assert_eq!((outcome.score.right(), outcome.score.asked()), (1, 1));
        assert!(text.contains("Stopped after 1 of 4 questions."), "{text}");
        assert!(text.contains("Score: 1 of 1 (100%)"));
        assert!(text.contains("Question 2 of 4") && !text.contains("Question 3 of 4"));
        let (outcome, text) = run(&bank, &questions, "");
        assert!(!outcome.finished);
        assert_eq!(outcome.score.asked(), 0);
        assert!(text.contains("No questions answered."), "{text}");
    }

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("", 7), vec![""]);
        assert_eq!(wrap("unbreakable word", 5), vec!["unbreakable", "word"]);
        let long = bundled().questions()[0].choices[1].why.clone();
        assert!(wrap(&long, WIDTH).iter().all(|l| l.chars().count() <= WIDTH || !l.contains(' ')));
    }
}
