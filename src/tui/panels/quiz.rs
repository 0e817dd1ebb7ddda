//! The quiz screen: the question and its lettered choices; after an answer, the verdict and why
//! each choice is right or wrong; at the end, the score per topic. Text is wrapped here (not by
//! the paragraph) so that continuation lines stay indented under their choice.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::framed;
use crate::quiz::LETTERS;
use crate::quiz::play::wrap;
use crate::tui::action::{Action, Direction};
use crate::tui::keymap::{self, Scope};
use crate::tui::quiz::{Phase, QuizScreen};
use crate::tui::theme::Theme;

pub struct QuizView<'a> {
    pub quiz: &'a QuizScreen,
    pub theme: Theme,
}

impl Widget for QuizView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let [body, keys] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
        let block = framed(&title(self.quiz), true, self.theme);
        let inner = block.inner(body);
        block.render(body, buf);
        let lines = lines(self.quiz, usize::from(inner.width.saturating_sub(2)), self.theme);
        // Scroll no further than the last line reaching the bottom.
        let overflow = u16::try_from(lines.len()).unwrap_or(u16::MAX).saturating_sub(inner.height);
        let text = Rect { x: inner.x + 1, width: inner.width.saturating_sub(2), ..inner };
        Paragraph::new(lines).scroll((self.quiz.scroll.min(overflow), 0)).render(text, buf);
        Paragraph::new(hints(self.quiz, self.theme)).render(keys, buf);
    }
}

fn title(quiz: &QuizScreen) -> String {
    match quiz.question() {
        Some(q) => {
            format!("Quiz — question {} of {} · {}", quiz.current + 1, quiz.len(), quiz.bank.title(&q.topic))
        }
        None => format!("Quiz — score (seed {})", quiz.seed),
    }
}

/// The screen's text at `width` columns.
pub fn lines(quiz: &QuizScreen, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let Some(q) = quiz.question() else {
        score(quiz, width, &mut out, theme);
        return out;
    };
    for line in wrap(&q.question, width) {
        out.push(Line::styled(line, theme.header()));
    }
    out.push(Line::raw(""));
    let answer = q.answer();
    match quiz.phase {
        Phase::Asking | Phase::Done => {
            for (letter, choice) in LETTERS.iter().zip(&q.choices) {
                indented(
                    &mut out,
                    vec![Span::styled(format!("{letter}) "), theme.key())],
                    &choice.text,
                    width,
                );
            }
        }
        Phase::Answered(chosen) => {
            if chosen == answer {
                out.push(Line::styled("✔ Right.", theme.ok()));
            } else {
                out.push(Line::styled(
                    format!("✘ Not quite: the answer is {}.", LETTERS[answer]),
                    theme.bad(),
                ));
            }
            out.push(Line::raw(""));
            for (i, (letter, choice)) in LETTERS.iter().zip(&q.choices).enumerate() {
                let (mark, style) = if i == answer { ("✔", theme.ok()) } else { ("✘", theme.dim()) };
                let yours = if i == chosen { "  ← your answer" } else { "" };
                indented(
                    &mut out,
                    vec![Span::styled(format!("{mark} {letter}) "), style)],
                    &format!("{}{yours}", choice.text),
                    width,
                );
                let why: Vec<String> = wrap(&choice.why, width.saturating_sub(5));
                out.extend(why.into_iter().map(|l| Line::styled(format!("     {l}"), theme.dim())));
            }
            out.push(Line::raw(""));
            indented(&mut out, vec![Span::styled("Source: ", theme.header())], &q.source, width);
            if let Some(command) = &q.try_it {
                indented(&mut out, vec![Span::styled("Try it: ", theme.header())], command, width);
            }
        }
    }
    out
}

fn score(quiz: &QuizScreen, width: usize, out: &mut Vec<Line<'static>>, theme: Theme) {
    let s = &quiz.score;
    let percent = s.percent().unwrap_or(0);
    out.push(Line::styled(format!("Score: {} of {} ({percent}%)", s.right(), s.asked()), theme.header()));
    out.push(Line::raw(""));
    let column = s.topics.iter().map(|t| quiz.bank.title(&t.topic).chars().count()).max().unwrap_or(0);
    for t in &s.topics {
        let style = if t.right == t.asked { theme.ok() } else { theme.warn() };
        out.push(Line::from(vec![
            Span::raw(format!("{:<column$}  ", quiz.bank.title(&t.topic))),
            Span::styled(format!("{}/{}", t.right, t.asked), style),
        ]));
    }
    out.push(Line::raw(""));
    let advice = "A topic with misses can be practised on its own in the terminal: keyheat quiz --topic <id> \
                  (keyheat quiz --topics lists the ids).";
    out.extend(wrap(advice, width).into_iter().map(|l| Line::styled(l, theme.dim())));
}

/// `head` then `text` wrapped to `width`, continuation lines indented under the text.
fn indented(out: &mut Vec<Line<'static>>, head: Vec<Span<'static>>, text: &str, width: usize) {
    let indent: usize = head.iter().map(|s| s.content.chars().count()).sum();
    let mut first = Some(head);
    for line in wrap(text, width.saturating_sub(indent)) {
        match first.take() {
            Some(mut spans) => {
                spans.push(Span::raw(line));
                out.push(Line::from(spans));
            }
            None => out.push(Line::raw(format!("{:indent$}{line}", ""))),
        }
    }
}

/// The key hints under the screen, from the key table.
fn hints(quiz: &QuizScreen, theme: Theme) -> Line<'static> {
    let key = |scope: Scope, action: Action| keymap::label(scope, action).unwrap_or_default();
    let mut pairs: Vec<(String, &str)> = Vec::new();
    match (quiz.phase, quiz.question()) {
        (Phase::Asking, Some(q)) => {
            let last = LETTERS[q.choices.len().clamp(1, LETTERS.len()) - 1];
            pairs.push((format!("{}–{last}", key(Scope::Quiz, Action::Answer(0))), "answer"));
        }
        (Phase::Answered(_), _) => pairs.push((key(Scope::Quiz, Action::Submit), "next")),
        _ => pairs.push((key(Scope::Quiz, Action::Submit), "another quiz")),
    }
    if quiz.phase != Phase::Done {
        let scroll = format!(
            "{}/{}",
            key(Scope::Quiz, Action::Move(Direction::Up)),
            key(Scope::Quiz, Action::Move(Direction::Down))
        );
        pairs.push((scroll, "scroll"));
    }
    pairs.push((key(Scope::Quiz, Action::Close), "picker"));
    pairs.push((key(Scope::Browse, Action::Help), "help"));
    pairs.push((key(Scope::Browse, Action::Quit), "quit"));
    let mut spans = Vec::new();
    for (k, what) in pairs {
        spans.push(Span::styled(k, theme.key()));
        spans.push(Span::raw(format!(" {what}  ")));
    }
    if quiz.score.asked() > 0 && quiz.phase != Phase::Done {
        spans.push(Span::styled(format!("score {}/{}", quiz.score.right(), quiz.score.asked()), theme.dim()));
    }
    Line::from(spans)
}
