//! What can cover the screen for a moment — help, a one-line prompt, a yes/no question, the
//! recovery offer, the console — as one enum, and how each is drawn.

use std::path::PathBuf;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::tui::panels::clear;
use ratatui_textarea::TextArea;

use super::action::Direction;
use super::driver::DriverError;
use super::keymap;
use super::layout::centered;
use super::panels::{framed, width_of};
use super::recovery::Recovery;
use super::theme::Theme;

pub enum Overlay {
    /// `screen`: who had the keys when help opened (its keys are listed first); `engine`: the
    /// store of the scenario open then, whose heatmap metrics `m` is described with.
    Help {
        scroll: u16,
        screen: keymap::Context,
        engine: Option<crate::engine::model::Engine>,
    },
    Prompt(Prompt),
    Console(Console),
    Confirm(Confirm),
    /// Unsaved edits from an earlier session of this scenario; `applied` when they include edits
    /// that were applied (not only drafts).
    Recovery {
        recovery: Recovery,
        applied: bool,
    },
    /// A practice problem's grade of the current design.
    Grade(super::practice::GradeView),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptFor {
    OpenFile,
    Export,
    WriteScenario,
}

impl PromptFor {
    fn title(self) -> &'static str {
        match self {
            PromptFor::OpenFile => "Open a scenario file",
            PromptFor::Export => "Export the screen as SVG",
            PromptFor::WriteScenario => "Write the scenario to a file",
        }
    }
}

/// A one-line text prompt (a path).
pub struct Prompt {
    pub purpose: PromptFor,
    input: TextArea<'static>,
    pub error: Option<String>,
}

impl Prompt {
    pub fn new(purpose: PromptFor, initial: &str) -> Prompt {
        let mut input = TextArea::new(vec![initial.to_owned()]);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        input.set_cursor_line_style(Style::new());
        input.set_cursor_style(Theme::text_cursor());
        Prompt { purpose, input, error: None }
    }

    pub fn text(&self) -> String {
        self.input.lines().concat().trim().to_owned()
    }

    /// Text input; a newline never enters a one-line prompt.
    pub fn input(&mut self, key: KeyEvent) {
        if self.input.input_without_shortcuts(key) {
            self.error = None;
        }
    }
}

/// A DynamoDB request line and the store's answers so far.
pub struct Console {
    input: TextArea<'static>,
    /// Each request and its answer: the response indented for reading (laid out once, by the
    /// driver, since an answer can hold a megabyte of items and the history is drawn every
    /// frame), or why there is none, worded when drawn.
    pub history: Vec<(String, Result<String, DriverError>)>,
    /// Lines scrolled back from the newest; 0 shows the end of the history (and follows it).
    pub back: usize,
}

impl Default for Console {
    fn default() -> Console {
        let mut input = TextArea::default();
        input.set_cursor_line_style(Style::new());
        input.set_cursor_style(Theme::text_cursor());
        input.set_placeholder_text(
            r#"query pk = "USER#42" and begins_with(sk, "ORDER#")  ·  get …  ·  scan …  ·  or {"op": …}"#,
        );
        Console { input, history: Vec::new(), back: 0 }
    }
}

impl Console {
    pub fn input(&mut self, key: KeyEvent) {
        self.input.input_without_shortcuts(key);
    }

    /// Takes the request line, leaving the input empty; the history goes back to its end, where
    /// the answer will be.
    pub fn take(&mut self) -> String {
        let text = self.input.lines().concat();
        self.input = Console::default().input;
        self.back = 0;
        text
    }

    /// Scrolls the history as drawn on a screen of `screen`'s size: a line or a page (keeping a
    /// line of the last page in view), never past either end.
    pub fn scroll(&mut self, d: Direction, screen: Rect) {
        let history = console_areas(screen).1;
        let page = usize::from(history.height.saturating_sub(1)).max(1);
        let total = history_lines(self, usize::from(history.width)).len();
        let most = total.saturating_sub(usize::from(history.height));
        self.back = match d {
            Direction::Up => self.back + 1,
            Direction::Down => self.back.saturating_sub(1),
            Direction::PageUp => self.back + page,
            Direction::PageDown => self.back.saturating_sub(page),
            Direction::Home => most,
            Direction::End => 0,
            Direction::Left | Direction::Right => self.back,
        }
        .min(most);
    }
}

/// What a line of the console's history is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryLine {
    Request,
    Answer,
    Error,
}

/// The history as the console draws it: each request, then its answer, cut into lines of at most
/// `width` columns. Answers are JSON and messages, so they are cut by character, like a terminal
/// does; that keeps the count of lines exact, which scrolling needs.
pub fn history_lines(c: &Console, width: usize) -> Vec<(String, HistoryLine)> {
    let mut out = Vec::new();
    let mut push = |text: &str, kind: HistoryLine| {
        for line in hard_wrap(text, width.max(1)) {
            out.push((line, kind));
        }
    };
    for (request, answer) in &c.history {
        push(&format!("> {request}"), HistoryLine::Request);
        match answer {
            Ok(text) => text.lines().for_each(|l| push(l, HistoryLine::Answer)),
            Err(error) => push(&error.to_string(), HistoryLine::Error),
        }
    }
    out
}

/// `text` in pieces of at most `width` columns (one empty piece for empty text).
fn hard_wrap(text: &str, width: usize) -> Vec<String> {
    let mut pieces = vec![String::new()];
    let mut used = 0;
    for c in text.chars() {
        let w = if c.is_ascii() { 1 } else { width_of(c.encode_utf8(&mut [0; 4])) };
        if used + w > width && used > 0 {
            pieces.push(String::new());
            used = 0;
        }
        pieces.last_mut().expect("pieces starts with one").push(c);
        used += w;
    }
    pieces
}

/// The console's box on `screen`, and where its history goes inside (the request line and a
/// blank line are below it).
pub fn console_areas(screen: Rect) -> (Rect, Rect) {
    let rect = centered(screen, 100, screen.height.saturating_sub(4));
    let inner = Block::bordered().inner(rect);
    (rect, Rect { height: inner.height.saturating_sub(2), ..inner })
}

pub enum Confirm {
    /// The file exists (or is a bundled scenario's source): write over it?
    Overwrite { path: PathBuf, purpose: PromptFor, bundled: bool },
    /// Quit with edits that are in no file.
    /// `drafts`: some of the edits are drafts not applied yet, which `w` leaves out.
    QuitUnsaved { drafts: bool },
    /// Show a practice problem's solution before the design passes.
    ShowSolution,
}

/// Draws `overlay` over `area`.
pub fn render(overlay: &Overlay, area: Rect, buf: &mut Buffer, theme: Theme) {
    match overlay {
        Overlay::Help { scroll, screen, engine } => help(*scroll, *screen, *engine, area, buf, theme),
        Overlay::Prompt(p) => prompt(p, area, buf, theme),
        Overlay::Console(c) => console(c, area, buf, theme),
        Overlay::Confirm(c) => confirm(c, area, buf, theme),
        Overlay::Recovery { recovery: r, applied } => recovery(r, *applied, area, buf, theme),
        Overlay::Grade(g) => g.render(area, buf, theme),
    }
}

/// Clears a centred box and draws its frame; returns the inside.
fn dialog(title: &str, width: u16, height: u16, area: Rect, buf: &mut Buffer, theme: Theme) -> Rect {
    let rect = centered(area, width, height);
    clear(rect, buf, theme);
    let block = framed(title, true, theme);
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

/// Columns of the help's text inside its box, and where a description starts.
const HELP_WIDTH: usize = 74;
const HELP_KEYS: usize = 16;

/// The help's lines for help opened on `screen` with a scenario open on `engine`, generated
/// from the key table. A description longer than its column wraps at words under itself.
pub fn help_lines(
    screen: keymap::Context,
    engine: Option<crate::engine::model::Engine>,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (title, rows) in keymap::help_sections(screen, engine) {
        if rows.is_empty() {
            continue;
        }
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(title, theme.header()));
        for (keys, what) in rows {
            let mut what = wrap_at_words(&what, HELP_WIDTH - HELP_KEYS).into_iter();
            let first = what.next().unwrap_or_default();
            // Keys too many for the column get a line of their own, the description under them.
            if keys.chars().count() > 13 {
                lines.push(Line::styled(format!("  {keys}"), theme.key()));
                lines.push(Line::raw(format!("{:<HELP_KEYS$}{first}", "")));
            } else {
                lines.push(Line::from(vec![
                    Span::styled(format!("  {keys:<14}"), theme.key()),
                    Span::raw(first),
                ]));
            }
            lines.extend(what.map(|rest| Line::raw(format!("{:<HELP_KEYS$}{rest}", ""))));
        }
    }
    lines
}

/// `text` in lines of at most `width` columns, broken at spaces (a word longer than a line has
/// one of its own).
fn wrap_at_words(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if width_of(line) + 1 + width_of(word) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

fn help(
    scroll: u16,
    screen: keymap::Context,
    engine: Option<crate::engine::model::Engine>,
    area: Rect,
    buf: &mut Buffer,
    theme: Theme,
) {
    let width = u16::try_from(HELP_WIDTH + 2).unwrap_or(u16::MAX);
    let inner =
        dialog("Help — keys (Esc closes, ↑↓ scroll)", width, area.height.saturating_sub(2), area, buf, theme);
    Paragraph::new(help_lines(screen, engine, theme)).scroll((scroll, 0)).render(inner, buf);
}

fn prompt(p: &Prompt, area: Rect, buf: &mut Buffer, theme: Theme) {
    let inner = dialog(p.purpose.title(), 70, 7, area, buf, theme);
    let line = |i: u16| Rect { y: inner.y + i, height: 1, ..inner };
    (&p.input).render(line(0), buf);
    if let Some(e) = &p.error {
        Paragraph::new(Span::styled(e.clone(), theme.error()))
            .wrap(Wrap { trim: false })
            .render(Rect { y: inner.y + 1, height: 2, ..inner }, buf);
    }
    Paragraph::new(Span::styled("Enter: OK · Esc: cancel", theme.dim())).render(line(4), buf);
}

fn console(c: &Console, area: Rect, buf: &mut Buffer, theme: Theme) {
    let (rect, history) = console_areas(area);
    let lines = history_lines(c, usize::from(history.width));
    // Newest at the bottom: the last lines show unless scrolled back.
    let shown = usize::from(history.height);
    let back = c.back.min(lines.len().saturating_sub(shown));
    let first = lines.len().saturating_sub(shown + back);
    let mut block = framed("Console — reads of the replay's table (Enter sends, Esc closes)", true, theme);
    if lines.len() > shown {
        let last = (first + shown).min(lines.len());
        let more = if back > 0 { " · PgDn: newer" } else { "" };
        let position = format!(" lines {}–{last} of {} · ↑↓ PgUp PgDn scroll{more} ", first + 1, lines.len());
        block = block.title_bottom(Line::styled(position, theme.warn()).right_aligned());
    }
    clear(rect, buf, theme);
    let inner = block.inner(rect);
    block.render(rect, buf);
    let styled: Vec<Line<'_>> = lines[first..]
        .iter()
        .take(shown)
        .map(|(text, kind)| {
            let style = match kind {
                HistoryLine::Request => theme.header(),
                HistoryLine::Answer => theme.plain(),
                HistoryLine::Error => theme.error(),
            };
            Line::styled(text.clone(), style)
        })
        .collect();
    Paragraph::new(styled).render(history, buf);
    (&c.input).render(Rect { y: inner.bottom().saturating_sub(1), height: 1, ..inner }, buf);
}

fn confirm(c: &Confirm, area: Rect, buf: &mut Buffer, theme: Theme) {
    let (title, text) = match c {
        Confirm::Overwrite { path, bundled: true, .. } => (
            "Overwrite a bundled scenario?",
            format!("{} is the source of a bundled scenario. Write over it?", path.display()),
        ),
        Confirm::Overwrite { path, .. } => {
            ("Overwrite?", format!("{} already exists. Write over it?", path.display()))
        }
        Confirm::ShowSolution => (
            "Show the solution?",
            "The solution and the lesson that explains it will be shown, and the grade report will \
             say so. Show them?"
                .to_owned(),
        ),
        Confirm::QuitUnsaved { drafts } => (
            "Quit with unsaved edits?",
            format!(
                "Your edits are in no file yet. They will be kept in the recovery file and offered the \
                 next time this scenario opens. {}",
                // `w` writes the applied edits only (`App::wrote_message`).
                if *drafts {
                    "(n; then Ctrl-S in the editor applies a draft, and w writes the edits to a file.)"
                } else {
                    "(n, then w, writes them to a file.)"
                }
            ),
        ),
    };
    let inner = dialog(title, 64, 8, area, buf, theme);
    let lines = vec![
        Line::raw(text),
        Line::raw(""),
        Line::from(vec![
            Span::styled("y", theme.key()),
            Span::raw(" yes   "),
            Span::styled("n", theme.key()),
            Span::raw(" no"),
        ]),
    ];
    Paragraph::new(lines).wrap(Wrap { trim: false }).render(inner, buf);
}

fn recovery(r: &Recovery, applied: bool, area: Rect, buf: &mut Buffer, theme: Theme) {
    let drafts = match r.drafts.len() {
        0 => String::new(),
        1 => "an unapplied draft".to_owned(),
        n => format!("{n} unapplied drafts"),
    };
    let what = match (applied, drafts.is_empty()) {
        (true, true) => "applied edits".to_owned(),
        (true, false) => format!("applied edits and {drafts}"),
        (false, _) => drafts,
    };
    let inner = dialog("Recover unsaved edits?", 64, 8, area, buf, theme);
    let lines = vec![
        Line::raw(format!("An earlier session left {what} to this scenario unsaved.")),
        Line::raw(""),
        Line::from(vec![
            Span::styled("y", theme.key()),
            Span::raw(" restore them   "),
            Span::styled("n", theme.key()),
            Span::raw(" discard them   "),
            Span::styled("Esc", theme.key()),
            Span::raw(" decide later"),
        ]),
    ];
    Paragraph::new(lines).wrap(Wrap { trim: false }).render(inner, buf);
}

#[cfg(test)]
mod tests {
    use super::HistoryLine::{Answer, Error, Request};
    use super::*;

    #[test]
    fn history_lines_are_cut_at_the_width_and_counted_exactly() {
        let cases: [(&str, usize, &[&str]); 5] = [
            ("", 5, &[""]),
            ("abcde", 5, &["abcde"]),
            ("abcdefgh", 5, &["abcde", "fgh"]),
            ("ab全全cd", 4, &["ab全", "全cd"]),
            ("abc", 0, &["a", "b", "c"]),
        ];
        for (text, width, want) in cases {
            assert_eq!(hard_wrap(text, width.max(1)), want, "{text:?} at {width}");
        }
        let mut c = Console::default();
        c.history.push(("get x".to_owned(), Ok("{\n  \"Item\": 1\n}".to_owned())));
        c.history.push(("scan nonsense".to_owned(), Err(DriverError::Stopped)));
        let kinds: Vec<HistoryLine> = history_lines(&c, 10).iter().map(|(_, k)| *k).collect();
        // `  "Item": 1` is 11 columns: two lines at 10.
        assert_eq!(kinds, [Request, Answer, Answer, Answer, Answer, Request, Request, Error, Error, Error]);
    }

    #[test]
    fn scrolling_stops_at_both_ends() {
        let screen = Rect::new(0, 0, 100, 30);
        let mut c = Console::default();
        c.history
            .push(("scan".to_owned(), Ok((0..100).map(|i| i.to_string()).collect::<Vec<_>>().join("\n"))));
        let shown = usize::from(console_areas(screen).1.height);
        let most = 101 - shown;
        c.scroll(Direction::Down, screen);
        assert_eq!(c.back, 0);
        c.scroll(Direction::Up, screen);
        c.scroll(Direction::PageUp, screen);
        assert_eq!(c.back, 1 + shown - 1);
        for _ in 0..10 {
            c.scroll(Direction::PageUp, screen);
        }
        assert_eq!(c.back, most);
        c.scroll(Direction::PageDown, screen);
        assert_eq!(c.back, most - (shown - 1));
        c.scroll(Direction::Home, screen);
        assert_eq!(c.back, most, "Ctrl-Home: the oldest line");
        c.scroll(Direction::End, screen);
        assert_eq!(c.back, 0, "Ctrl-End: the newest");
        c.scroll(Direction::Up, screen);
        c.take();
        assert_eq!(c.back, 0, "a new request brings the end back");
    }
}
