//! What can cover the screen for a moment — help, a one-line prompt, a yes/no question, the
//! recovery offer, the console — as one enum, and how each is drawn.

use std::path::PathBuf;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};
use ratatui_textarea::TextArea;

use super::keymap;
use super::layout::centered;
use super::panels::framed;
use super::recovery::Recovery;
use super::theme::Theme;

pub enum Overlay {
    Help {
        scroll: u16,
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
        input.set_cursor_style(Style::new().add_modifier(Modifier::REVERSED));
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
    pub history: Vec<(String, Result<String, String>)>,
}

impl Default for Console {
    fn default() -> Console {
        let mut input = TextArea::default();
        input.set_cursor_line_style(Style::new());
        input.set_cursor_style(Style::new().add_modifier(Modifier::REVERSED));
        input.set_placeholder_text(
            r#"query pk = "USER#42" and begins_with(sk, "ORDER#")  ·  get …  ·  scan …  ·  or {"op": …}"#,
        );
        Console { input, history: Vec::new() }
    }
}

impl Console {
    pub fn input(&mut self, key: KeyEvent) {
        self.input.input_without_shortcuts(key);
    }

    /// Takes the request line, leaving the input empty.
    pub fn take(&mut self) -> String {
        let text = self.input.lines().concat();
        self.input = Console::default().input;
        text
    }
}

pub enum Confirm {
    /// The file exists (or is a bundled scenario's source): write over it?
    Overwrite { path: PathBuf, purpose: PromptFor, bundled: bool },
    /// Quit with edits that are in no file.
    QuitUnsaved,
}

/// Draws `overlay` over `area`.
pub fn render(overlay: &Overlay, area: Rect, buf: &mut Buffer, theme: Theme) {
    match overlay {
        Overlay::Help { scroll } => help(*scroll, area, buf, theme),
        Overlay::Prompt(p) => prompt(p, area, buf, theme),
        Overlay::Console(c) => console(c, area, buf, theme),
        Overlay::Confirm(c) => confirm(c, area, buf, theme),
        Overlay::Recovery { recovery: r, applied } => recovery(r, *applied, area, buf, theme),
    }
}

/// Clears a centred box and draws its frame; returns the inside.
fn dialog(title: &str, width: u16, height: u16, area: Rect, buf: &mut Buffer, theme: Theme) -> Rect {
    let rect = centered(area, width, height);
    Clear.render(rect, buf);
    let block = framed(title, true, theme);
    let inner = block.inner(rect);
    block.render(rect, buf);
    inner
}

/// The help's lines, generated from the key table.
pub fn help_lines(theme: Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (title, rows) in keymap::help_sections() {
        if rows.is_empty() {
            continue;
        }
        if !lines.is_empty() {
            lines.push(Line::raw(""));
        }
        lines.push(Line::styled(title, theme.header()));
        for (keys, what) in rows {
            lines.push(Line::from(vec![Span::styled(format!("  {keys:<14}"), theme.key()), Span::raw(what)]));
        }
    }
    lines
}

fn help(scroll: u16, area: Rect, buf: &mut Buffer, theme: Theme) {
    let inner =
        dialog("Help — keys (Esc closes, ↑↓ scroll)", 76, area.height.saturating_sub(2), area, buf, theme);
    Paragraph::new(help_lines(theme)).scroll((scroll, 0)).render(inner, buf);
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
    let height = area.height.saturating_sub(4);
    let inner = dialog(
        "Console — reads of the replay's table (Enter sends, Esc closes)",
        100,
        height,
        area,
        buf,
        theme,
    );
    let history = Rect { height: inner.height.saturating_sub(2), ..inner };
    let mut lines = Vec::new();
    for (request, answer) in &c.history {
        lines.push(Line::styled(format!("> {request}"), theme.header()));
        match answer {
            Ok(text) => lines.extend(text.lines().map(|l| Line::raw(l.to_owned()))),
            Err(text) => lines.push(Line::styled(text.clone(), theme.error())),
        }
    }
    // Newest at the bottom: scroll so the last lines show.
    let shown = usize::from(history.height);
    let skip = u16::try_from(lines.len().saturating_sub(shown)).unwrap_or(0);
    Paragraph::new(lines).wrap(Wrap { trim: false }).scroll((skip, 0)).render(history, buf);
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
        Confirm::QuitUnsaved => (
            "Quit with unsaved edits?",
            "Your edits are in no file yet. They will be kept in the recovery file and offered the next \
             time this scenario opens. (n, then w, writes them to a file.)"
                .to_owned(),
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
