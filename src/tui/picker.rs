//! The scenario picker (what `keyheat` alone opens): the bundled scenarios and practice problems
//! with title, engine and the lesson's first sentence; details of the selected one beside.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::action::Action;
use super::keymap::{self, Scope};
use super::panels::framed;
use super::theme::Theme;
use crate::scenario;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub title: String,
    pub engine: String,
    pub story: String,
    pub lesson: String,
    pub practice: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picker {
    pub entries: Vec<Entry>,
    pub selected: usize,
}

impl Picker {
    pub fn bundled() -> Picker {
        let entries = scenario::bundled()
            .into_iter()
            .zip(scenario::BUNDLED)
            .map(|(loaded, (name, _, _))| {
                let s = loaded.scenario;
                Entry {
                    name: (*name).to_owned(),
                    title: s.title,
                    engine: s.engine.to_string(),
                    story: s.story,
                    lesson: s.lesson,
                    practice: s.practice.is_some(),
                }
            })
            .collect();
        Picker { entries, selected: 0 }
    }

    pub fn select(&mut self, delta: isize) {
        let n = self.entries.len();
        if n > 0 {
            self.selected = self.selected.saturating_add_signed(delta).min(n - 1);
        }
    }

    pub fn current(&self) -> Option<&Entry> {
        self.entries.get(self.selected)
    }
}

/// The first sentence of a lesson (to the first ". "), for the one-line listing.
pub fn first_sentence(text: &str) -> &str {
    text.find(". ").map_or(text, |i| &text[..=i])
}

/// The list's area (clicks on it pick a row) and the details' area.
pub fn areas(area: Rect) -> (Rect, Rect, Rect) {
    let [list, details, keys] =
        Layout::vertical([Constraint::Percentage(45), Constraint::Fill(1), Constraint::Length(1)])
            .areas(area);
    (list, details, keys)
}

/// Which entry a click at row `y` lands on.
pub fn row_at(area: Rect, y: u16) -> Option<usize> {
    let (list, _, _) = areas(area);
    // Inside the border, each entry takes two lines.
    (y > list.y && y + 1 < list.bottom()).then(|| usize::from(y - list.y - 1) / 2)
}

pub struct PickerView<'a> {
    pub picker: &'a Picker,
    pub theme: Theme,
}

impl Widget for PickerView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let (list_area, details_area, keys_area) = areas(area);
        let mut lines = Vec::new();
        for (i, e) in self.picker.entries.iter().enumerate() {
            let selected = i == self.picker.selected;
            let marker = if selected { "▶ " } else { "  " };
            let kind = if e.practice { " · practice" } else { "" };
            let head = Line::from(vec![
                Span::styled(
                    format!("{marker}{:<12}", e.name),
                    if selected { t.selected() } else { t.header() },
                ),
                Span::raw(format!(" {}", e.title)),
                Span::styled(format!("  ({}{kind})", e.engine), t.dim()),
            ]);
            lines.push(head);
            lines.push(Line::styled(format!("    {}", first_sentence(&e.lesson)), t.dim()));
        }
        Paragraph::new(lines).block(framed("keyheat — pick a scenario", true, t)).render(list_area, buf);
        if let Some(e) = self.picker.current() {
            let details = vec![
                Line::styled(e.title.clone(), t.header()),
                Line::raw(e.story.clone()),
                Line::raw(""),
                Line::from(vec![Span::styled("Lesson: ", t.header()), Span::raw(e.lesson.clone())]),
            ];
            Paragraph::new(details)
                .block(framed(&e.name, false, t))
                .wrap(Wrap { trim: false })
                .render(details_area, buf);
        }
        let key = |a: Action| keymap::label(Scope::Picker, a).unwrap_or_default();
        let browse = |a: Action| keymap::label(Scope::Browse, a).unwrap_or_default();
        let hints = Line::from(vec![
            Span::styled(
                format!(
                    "{}/{}",
                    key(Action::Move(super::action::Direction::Up)),
                    key(Action::Move(super::action::Direction::Down))
                ),
                t.key(),
            ),
            Span::raw(" choose  "),
            Span::styled(key(Action::Submit), t.key()),
            Span::raw(" open  "),
            Span::styled(key(Action::OpenFile), t.key()),
            Span::raw(" open a file  "),
            Span::styled(key(Action::Quiz), t.key()),
            Span::raw(" quiz  "),
            Span::styled(browse(Action::Help), t.key()),
            Span::raw(" help  "),
            Span::styled(browse(Action::Quit), t.key()),
            Span::raw(" quit"),
        ]);
        Paragraph::new(hints).render(keys_area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_every_bundled_scenario() {
        let p = Picker::bundled();
        let names: Vec<&str> = p.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, scenario::BUNDLED.iter().map(|(n, _, _)| *n).collect::<Vec<_>>());
        assert!(p.entries.iter().all(|e| !e.title.is_empty()));
    }

    #[test]
    fn selection_stays_in_the_list() {
        let mut p = Picker::bundled();
        p.select(-1);
        assert_eq!(p.selected, 0);
        p.select(100);
        assert_eq!(p.selected, p.entries.len() - 1);
    }

    #[test]
    fn first_sentences() {
        assert_eq!(first_sentence("One. Two."), "One.");
        assert_eq!(first_sentence("No stop"), "No stop");
        assert_eq!(first_sentence("v1.2 works. Yes"), "v1.2 works.");
    }

    #[test]
    fn clicks_pick_rows() {
        let area = Rect::new(0, 0, 80, 24);
        let (list, _, _) = areas(area);
        assert_eq!(row_at(area, list.y), None);
        assert_eq!(row_at(area, list.y + 1), Some(0));
        assert_eq!(row_at(area, list.y + 2), Some(0));
        assert_eq!(row_at(area, list.y + 3), Some(1));
    }
}
