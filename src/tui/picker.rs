//! The scenario picker (what `keyheat` alone opens): the bundled scenarios and practice problems
//! with title, store and the lesson's first sentence; details of the selected one beside. A
//! scenario whose file lists several stores in `engines` opens on the one chosen with ←/→, as
//! `keyheat tui --engine` opens it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::action::Action;
use super::keymap::{self, Scope};
use super::panels::status::{Hint, hint_spans};
use super::panels::{ellipsize, framed, width_of};
use super::theme::Theme;
use crate::engine::model::Engine;
use crate::scenario;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub title: String,
    /// The stores the file lists, its own `engine` first.
    pub engines: Vec<Engine>,
    /// The one it opens on, an index into `engines`.
    pub store: usize,
    pub story: String,
    /// The lesson; a practice problem's prompt (its lesson would give the answer away).
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
                // A practice problem's lesson tells its answer: the picker shows the prompt.
                let lesson = s.practice.as_ref().map_or(s.lesson, |p| p.prompt.clone());
                Entry {
                    name: (*name).to_owned(),
                    title: s.title,
                    engines: s.engines,
                    store: 0,
                    story: s.story,
                    lesson,
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

    /// Chooses the next (`delta` 1) or previous (-1) store the selected scenario lists, round
    /// the list; a scenario on one store stays on it.
    pub fn cycle_store(&mut self, delta: isize) {
        if let Some(e) = self.entries.get_mut(self.selected) {
            let n = e.engines.len().max(1);
            e.store = (e.store + n).saturating_add_signed(delta) % n;
        }
    }
}

impl Entry {
    /// The store it opens on.
    pub fn engine(&self) -> Engine {
        self.engines[self.store]
    }

    /// The store to name when opening: `None` for the file's own, as `--engine` left out.
    pub fn chosen_engine(&self) -> Option<Engine> {
        (self.store > 0).then(|| self.engine())
    }
}

/// The first sentence of a lesson (to the first ". "), for the one-line listing.
pub fn first_sentence(text: &str) -> &str {
    text.find(". ").map_or(text, |i| &text[..=i])
}

/// The list's area (clicks on it pick a row), the details' area and the key hints' line.
pub fn areas(area: Rect) -> (Rect, Rect, Rect) {
    let [list, details, keys] =
        Layout::vertical([Constraint::Percentage(45), Constraint::Fill(1), Constraint::Length(1)])
            .areas(area);
    (list, details, keys)
}

/// Entries the list shows at once: two lines each, inside the border.
fn visible(list: Rect) -> usize {
    usize::from(list.height.saturating_sub(2) / 2).max(1)
}

/// The first entry the list shows: the list scrolls only as far as keeps the selection in view.
pub fn first_shown(selected: usize, visible: usize) -> usize {
    selected.saturating_sub(visible.max(1) - 1)
}

/// Which entry a click at row `y` lands on (the list as drawn for `picker` in `area`).
pub fn row_at(area: Rect, picker: &Picker, y: u16) -> Option<usize> {
    let (list, _, _) = areas(area);
    // Inside the border, each entry takes two lines.
    let first = first_shown(picker.selected, visible(list));
    (y > list.y && y + 1 < list.bottom())
        .then(|| first + usize::from(y - list.y - 1) / 2)
        .filter(|&i| i < picker.entries.len())
}

/// A practice problem's title without the `Practice: ` its tag already says.
fn list_title(e: &Entry) -> &str {
    if e.practice { e.title.strip_prefix("Practice: ").unwrap_or(&e.title) } else { &e.title }
}

pub struct PickerView<'a> {
    pub picker: &'a Picker,
    pub theme: Theme,
}

impl Widget for PickerView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let (list_area, details_area, keys_area) = areas(area);
        let entries = &self.picker.entries;
        let width = usize::from(list_area.width.saturating_sub(2));
        // Names line up in a column as wide as the longest, within reason: a longer name pushes
        // its own title along rather than every title.
        let column = entries.iter().map(|e| e.name.chars().count()).max().unwrap_or(0).min(15);
        let shown = visible(list_area);
        let first = first_shown(self.picker.selected, shown);
        let mut lines = Vec::new();
        for (i, e) in entries.iter().enumerate().skip(first).take(shown) {
            let selected = i == self.picker.selected;
            let marker = if selected { "▶ " } else { "  " };
            let kind = if e.practice { " · practice" } else { "" };
            // One line per entry (a click maps rows to entries). The title gives way first: it
            // is cut with an ellipsis so the engine and the practice tag stay; on a very narrow
            // list the tag goes too.
            let name = format!("{marker}{:<column$} ", e.name);
            let tag = format!("  ({}{kind})", e.engine());
            let title = list_title(e);
            let left = width.saturating_sub(width_of(&name));
            let (title, tag) = if width_of(title) + width_of(&tag) <= left {
                (title.to_owned(), tag)
            } else if left >= width_of(&tag) + 12 {
                (ellipsize(title, left - width_of(&tag)), tag)
            } else {
                (ellipsize(title, left), String::new())
            };
            lines.push(Line::from(vec![
                Span::styled(ellipsize(&name, width), if selected { t.selected() } else { t.header() }),
                Span::raw(title),
                Span::styled(tag, t.dim()),
            ]));
            lines
                .push(Line::styled(ellipsize(&format!("    {}", first_sentence(&e.lesson)), width), t.dim()));
        }
        let mut block = framed("keyheat — pick a scenario", true, t);
        let (above, below) = (first, entries.len().saturating_sub(first + shown));
        if above + below > 0 {
            let range =
                format!(" {}–{} of {} ", first + 1, (first + shown).min(entries.len()), entries.len());
            block = block.title_bottom(Line::styled(range, t.dim()).right_aligned());
        }
        Paragraph::new(lines).block(block).render(list_area, buf);
        if let Some(e) = self.picker.current() {
            let mut details = vec![Line::styled(e.title.clone(), t.header()), Line::raw(e.story.clone())];
            if e.engines.len() > 1 {
                details.push(stores_line(e, t));
            }
            details.extend([
                Line::raw(""),
                Line::from(vec![
                    Span::styled(if e.practice { "Prompt: " } else { "Lesson: " }, t.header()),
                    Span::raw(e.lesson.clone()),
                ]),
            ]);
            Paragraph::new(details)
                .block(framed(&e.name, false, t))
                .wrap(Wrap { trim: false })
                .render(details_area, buf);
        }
        let key = |a: Action| keymap::label(Scope::Picker, a).unwrap_or_default();
        let browse = |a: Action| keymap::label(Scope::Browse, a).unwrap_or_default();
        let hint = |key: String, what: &'static str, priority: u8| Hint { key, what, priority };
        let hints = [
            hint(
                format!(
                    "{}/{}",
                    key(Action::Move(super::action::Direction::Up)),
                    key(Action::Move(super::action::Direction::Down))
                ),
                "choose",
                1,
            ),
            hint(key(Action::Submit), "open", 0),
            hint(
                format!(
                    "{}/{}",
                    key(Action::Move(super::action::Direction::Left)),
                    key(Action::Move(super::action::Direction::Right))
                ),
                "store",
                3,
            ),
            hint(key(Action::OpenFile), "open a file", 4),
            hint(key(Action::Quiz), "quiz", 5),
            hint(browse(Action::Help), "help", 2),
            hint(browse(Action::Quit), "quit", 3),
        ];
        // The store hint only where there is a store to choose.
        let several = self.picker.current().is_some_and(|e| e.engines.len() > 1);
        let hints: Vec<Hint> = hints.into_iter().filter(|h| several || h.what != "store").collect();
        Paragraph::new(Line::from(hint_spans(&hints, usize::from(keys_area.width), t)))
            .render(keys_area, buf);
    }
}

/// `Stores: DynamoDB · [Cassandra] · Cosmos DB`, the chosen one marked and highlighted.
fn stores_line(e: &Entry, t: Theme) -> Line<'static> {
    let mut spans = vec![Span::styled("Stores: ", t.header())];
    for (i, engine) in e.engines.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", t.dim()));
        }
        spans.push(if i == e.store {
            Span::styled(format!("[{engine}]"), t.selected())
        } else {
            Span::raw(engine.to_string())
        });
    }
    Line::from(spans)
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
        let mut p = Picker::bundled();
        assert_eq!(row_at(area, &p, list.y), None);
        assert_eq!(row_at(area, &p, list.y + 1), Some(0));
        assert_eq!(row_at(area, &p, list.y + 2), Some(0));
        assert_eq!(row_at(area, &p, list.y + 3), Some(1));
        // Scrolled to the last entry, the last row shown is that entry.
        p.select(100);
        let bottom_row = list.y + 2 * u16::try_from(visible(list)).unwrap() - 1;
        assert_eq!(row_at(area, &p, bottom_row), Some(p.entries.len() - 1));
    }

    #[test]
    fn the_list_scrolls_only_to_keep_the_selection_in_view() {
        let cases = [(0, 4, 0), (3, 4, 0), (4, 4, 1), (8, 4, 5), (2, 1, 2), (5, 0, 5)];
        for (selected, visible, want) in cases {
            assert_eq!(first_shown(selected, visible), want, "{selected} of {visible} shown");
        }
    }

    /// A scenario listing several stores shows them in its details, the chosen one marked, and
    /// the list's tag names the chosen one; ←/→ go round the list.
    #[test]
    fn a_scenario_on_several_stores_shows_the_one_chosen() {
        let counters = Picker::bundled().entries.iter().position(|e| e.name == "counters").unwrap();
        let mut picker = Picker { selected: counters, ..Picker::bundled() };
        let steps = [
            (0, "[DynamoDB] · Cassandra · Cosmos DB", "(DynamoDB)"),
            (1, "DynamoDB · [Cassandra] · Cosmos DB", "(Cassandra)"),
            (1, "DynamoDB · Cassandra · [Cosmos DB]", "(Cosmos DB)"),
            (1, "[DynamoDB]", "(DynamoDB)"),
            (-1, "DynamoDB · Cassandra · [Cosmos DB]", "(Cosmos DB)"),
        ];
        for (delta, stores, tag) in steps {
            picker.cycle_store(delta);
            let area = Rect::new(0, 0, 100, 30);
            let mut buf = Buffer::empty(area);
            PickerView { picker: &picker, theme: Theme::MONO }.render(area, &mut buf);
            let text: Vec<String> =
                (0..30).map(|y| (0..100).map(|x| buf[(x, y)].symbol()).collect()).collect();
            assert!(
                text.iter().any(|l| l.contains(&format!("Stores: {stores}"))),
                "{stores}:\n{}",
                text.join("\n")
            );
            assert!(text.iter().any(|l| l.contains("▶ counters") && l.contains(tag)), "{tag}");
            assert!(text.last().unwrap().contains("←/→ store"), "{}", text.last().unwrap());
        }
    }

    /// The picker as text at `width` × `height` with `selected` chosen.
    fn screen(width: u16, height: u16, selected: usize) -> Vec<String> {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        let picker = Picker { selected, ..Picker::bundled() };
        PickerView { picker: &picker, theme: Theme::MONO }.render(area, &mut buf);
        (0..height).map(|y| (0..width).map(|x| buf[(x, y)].symbol()).collect()).collect()
    }

    #[test]
    fn every_entry_can_be_seen_and_no_line_is_cut_mid_word() {
        let p = Picker::bundled();
        let (rect, _, _) = areas(Rect::new(0, 0, 80, 24));
        let rows = usize::from(rect.height);
        for (i, e) in p.entries.iter().enumerate() {
            let lines = screen(80, 24, i);
            let list = &lines[..rows];
            assert!(
                list.iter().any(|l| l.contains(&format!("▶ {}", e.name))),
                "{} not shown:\n{}",
                e.name,
                list.join("\n")
            );
            for l in &list[1..rows - 1] {
                let inside = l.trim_start_matches('┃').trim_end_matches('┃').trim_end();
                // A line is whole (a lesson's first sentence, an entry ending in its tag) or
                // ends in an ellipsis.
                let whole = inside.is_empty()
                    || inside.ends_with(')')
                    || inside.ends_with('.')
                    || inside.ends_with('…');
                assert!(whole, "cut line {inside:?}");
            }
            let line = list.iter().find(|l| l.contains(&format!("▶ {}", e.name))).expect("shown above");
            let tag = if e.practice { " · practice)" } else { ")" };
            assert!(line.contains(tag), "the tag stays: {line}");
        }
        let last = screen(80, 24, p.entries.len() - 1);
        let border = &last[rows - 1];
        assert!(border.contains(&format!("of {}", p.entries.len())), "a position in the border: {border}");
        let hints = screen(80, 24, 0).pop().unwrap_or_default();
        assert!(hints.contains("Enter open") && hints.contains("? help"), "{hints}");
        assert!(!hints.contains("store"), "orders has one store: {hints}");
        assert!(screen(30, 12, 0).last().unwrap().trim_end().ends_with("help"));
    }
}
