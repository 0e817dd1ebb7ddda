//! The lesson pane: the scenario's lesson beside the data; for a practice problem, the prompt,
//! the access patterns and the hints revealed so far, the lesson only once the solution is shown
//! (`tui::practice` decides what a candidate sees).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Widget;

use super::{block, text};
use crate::engine::model::Scenario;
use crate::tui::action::{Action, Panel};
use crate::tui::keymap::{self, Scope};
use crate::tui::practice::{self, Keys, Practice};
use crate::tui::theme::Theme;

/// The pane's text lines (before wrapping). A practice problem shows what `practice` says the
/// candidate has seen (nothing but the prompt and the patterns when there is no state).
pub fn lesson_lines(scenario: &Scenario, state: Option<&Practice>) -> Vec<String> {
    if scenario.practice.is_some() {
        let key = |a: Action| keymap::label(Scope::Workbench, a).unwrap_or_default();
        let keys = Keys {
            hint: key(Action::RevealHint),
            grade: key(Action::Grade),
            solution: key(Action::ShowSolution),
        };
        return practice::lesson_lines(scenario, state.unwrap_or(&Practice::default()), &keys);
    }
    let mut lines = Vec::new();
    if !scenario.lesson.is_empty() {
        lines.push(scenario.lesson.clone());
    }
    if lines.is_empty() {
        lines.push(scenario.story.clone());
    }
    lines
}

/// Lines `lines` take wrapped at `width` (greedy by words, as the pane wraps them; a word longer
/// than the width takes its own lines).
pub fn wrapped_height(lines: &[String], width: u16) -> u16 {
    let width = usize::from(width.max(1));
    let mut total = 0usize;
    for line in lines {
        let mut used = 0usize;
        let mut rows = 1usize;
        for word in line.split_whitespace() {
            let w = word.chars().count();
            if used == 0 {
                rows += w.saturating_sub(1) / width;
                used = w % width;
                used = if used == 0 { width } else { used };
            } else if used + 1 + w <= width {
                used += 1 + w;
            } else {
                rows += 1 + w.saturating_sub(1) / width;
                used = w % width;
                used = if used == 0 { width } else { used };
            }
        }
        total += rows;
    }
    u16::try_from(total).unwrap_or(u16::MAX)
}

pub struct LessonPanel<'a> {
    pub scenario: &'a Scenario,
    pub practice: Option<&'a Practice>,
    pub focused: bool,
    pub scroll: u16,
    pub theme: Theme,
}

impl Widget for LessonPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = lesson_lines(self.scenario, self.practice).into_iter().map(Line::from).collect();
        text(lines, block(Panel::Lesson, self.focused, self.theme), self.scroll, area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_by_words() {
        let cases: [(&[&str], u16, u16); 5] = [
            (&["aaa bbb ccc"], 7, 2),
            (&["aaa bbb ccc"], 11, 1),
            (&["aaaaaaaaaa"], 4, 3),
            (&["a", "b"], 10, 2),
            (&[""], 10, 1),
        ];
        for (lines, width, want) in cases {
            let lines: Vec<String> = lines.iter().map(|s| (*s).to_owned()).collect();
            assert_eq!(wrapped_height(&lines, width), want, "{lines:?} at {width}");
        }
    }

    #[test]
    fn a_practice_problem_opens_on_its_prompt_without_hints_lesson_or_solution() {
        let loaded = crate::scenario::load("practice-search").expect("bundled");
        let practice = loaded.scenario.practice.as_ref().expect("a practice problem");
        let lines = lesson_lines(&loaded.scenario, None);
        assert_eq!(lines[0], format!("Practice: {}", practice.prompt));
        assert!(
            lines.iter().all(|l| !l.starts_with("Hint ") && !l.contains(&loaded.scenario.lesson)),
            "{lines:?}"
        );
        let solution =
            loaded.scenario.variants.iter().find(|v| v.name == practice.solution).expect("solution");
        assert!(lines.iter().all(|l| !l.contains(&solution.description)), "{lines:?}");
        assert!(lines.last().is_some_and(|l| l.contains("h a hint")), "{lines:?}");
    }
}
