//! The editor as drawn where the Schema and Access patterns panels were: the draft with its
//! line numbers and the error's token underlined, the attributes line, the cheat sheet when
//! shown, the verdict with the planner's first word on the draft, and the completion popup
//! under the cursor. Reads the editor; never changes it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

use crate::tui::panels::clear;
use ratatui_textarea::DataCursor;

use super::{EditOp, Editor, Popup, cheatsheet};
use crate::tui::action::{Action, Panel};
use crate::tui::keymap::{self, Scope};
use crate::tui::panels::block;
use crate::tui::theme::Theme;

/// The editor drawn where the Schema and Access patterns panels were.
pub struct EditorPanel<'a> {
    pub editor: &'a Editor,
    pub variant_name: &'a str,
    pub theme: Theme,
}

impl Widget for EditorPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let e = self.editor;
        let key = |a: Action| keymap::label(Scope::Editor, a).unwrap_or_default();
        let (line, col) = e.cursor();
        let jump = if e.error.as_ref().is_some_and(|er| er.in_variant) {
            format!(" · {} to the error", key(Action::JumpToError))
        } else {
            String::new()
        };
        let outer = block(Panel::Schema, true, t)
            .title_bottom(Span::styled(format!(" cursor {line}:{col}{jump} "), t.dim()));
        let inner = outer.inner(area);
        clear(area, buf, t);
        outer.render(area, buf);
        if inner.height < 5 {
            return;
        }
        let head = Line::from(vec![
            Span::styled(format!("editing {} ", self.variant_name), t.header()),
            Span::styled(
                format!(
                    "· {} complete · {} templates · {} keys · {} undo",
                    key(Action::Edit(EditOp::Complete)),
                    key(Action::Edit(EditOp::CheatSheet)),
                    key(Action::Help),
                    key(Action::Edit(EditOp::Undo)),
                ),
                t.dim(),
            ),
        ]);
        Paragraph::new(head).render(Rect { height: 1, ..inner }, buf);
        let (entity, attributes) = e.attributes_here();
        Paragraph::new(cheatsheet::attributes_line(entity, &attributes, t))
            .render(Rect { y: inner.y + 1, height: 1, ..inner }, buf);
        let (verdict, style) = match (&e.error, &e.consequence) {
            (None, Some(c)) => (format!("✔ loads · {}", c.text), if c.warning { t.warn() } else { t.ok() }),
            (None, None) => ("✔ loads — apply to replay with it".to_owned(), t.ok()),
            (Some(err), _) if err.in_variant => {
                (format!("✘ {}:{}: {}", err.line, err.col, err.message), t.bad())
            }
            (Some(err), _) => {
                (format!("✘ elsewhere in the file, line {}:{}: {}", err.line, err.col, err.message), t.bad())
            }
        };
        let foot = Line::styled(verdict, style);
        // The verdict gets the lines it needs, up to a third of the editor.
        let needed = crate::tui::panels::lesson::wrapped_height(&[foot.to_string()], inner.width);
        let foot_height = needed.clamp(1, (inner.height / 3).max(1));
        let foot_area = Rect { y: inner.bottom().saturating_sub(foot_height), height: foot_height, ..inner };
        let sheet = if e.sheet { cheatsheet::lines(t, inner.width) } else { Vec::new() };
        let room = inner.height.saturating_sub(2 + foot_height);
        // The sheet takes what it needs while the text keeps at least three lines.
        let sheet_height = u16::try_from(sheet.len() + 1).unwrap_or(u16::MAX).min(room.saturating_sub(3));
        let text_area = Rect { y: inner.y + 2, height: room - sheet_height, ..inner };
        (&e.area).render(text_area, buf);
        underline_error(e, text_area, t, buf);
        if sheet_height > 1 {
            let sheet_area = Rect { y: text_area.bottom(), height: sheet_height, ..inner };
            Paragraph::new(sheet)
                .block(Block::new().borders(Borders::TOP).border_style(t.dim()))
                .render(sheet_area, buf);
        }
        Paragraph::new(foot).wrap(Wrap { trim: false }).render(foot_area, buf);
        if let Some(popup) = &e.popup {
            draw_popup(e, popup, text_area, t, buf);
        }
    }
}

/// Where the cursor is drawn in `area` (the text area as last rendered).
fn cursor_cell(e: &Editor, area: Rect) -> Option<(u16, u16)> {
    let screen = e.area.screen_cursor();
    let (top, _) = e.area.scroll_offset();
    let row = u16::try_from(screen.row).ok()?.checked_sub(top)?;
    let col = u16::try_from(screen.col).ok()?.saturating_add(e.area.line_number_width());
    (row < area.height && col < area.width).then_some((area.x + col, area.y + row))
}

/// Underlines the error's token where the text shows it.
fn underline_error(e: &Editor, area: Rect, t: Theme, buf: &mut Buffer) {
    let Some((row, col, len)) = e.error_token() else { return };
    let (top, _) = e.area.scroll_offset();
    let gutter = e.area.line_number_width();
    let mut seen = std::collections::BTreeSet::new();
    for y in 0..area.height {
        let screen_row = usize::from(top + y);
        for x in gutter..area.width {
            let DataCursor(r, c) = e.area.screen_to_data(screen_row, usize::from(x - gutter));
            // Past a line's end the mapping repeats its last column: the first cell is the char.
            if r == row && (col..col + len).contains(&c) && seen.insert(c) {
                let cell = &mut buf[(area.x + x, area.y + y)];
                cell.set_style(cell.style().patch(t.mark()));
            }
        }
    }
}

/// The completion popup, under the cursor (above it near the bottom).
fn draw_popup(e: &Editor, popup: &Popup, area: Rect, t: Theme, buf: &mut Buffer) {
    let Some((x, y)) = cursor_cell(e, area) else { return };
    let rows: Vec<Line> = popup
        .candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let style = if i == popup.selected { t.selected() } else { t.plain() };
            Line::from(vec![
                Span::styled(format!(" {} ", c.word), style),
                Span::styled(format!("{} ", c.note), t.dim()),
            ])
        })
        .collect();
    let width = rows.iter().map(Line::width).max().unwrap_or(0).saturating_add(2);
    let width = u16::try_from(width).unwrap_or(u16::MAX).min(area.width);
    let height = u16::try_from(rows.len() + 2).unwrap_or(u16::MAX).min(area.height);
    let below = y + 1 + height <= area.bottom();
    let top = if below { y + 1 } else { y.saturating_sub(height).max(area.y) };
    let left = x.min(area.right().saturating_sub(width));
    let rect = Rect { x: left, y: top, width, height };
    clear(rect, buf, t);
    Paragraph::new(rows)
        .block(Block::bordered().border_style(t.dim()).title(Span::styled("Tab / ↑↓ · Enter", t.dim())))
        .render(rect, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    /// The token the error names is underlined where the text shows it, and nothing else is.
    #[test]
    fn the_panel_underlines_the_offending_token() {
        let loaded = scenario::load("sensors").unwrap();
        let text = loaded.variant_source(0).unwrap().text.replace("{sensor_id}\"),", "{sensr_id}\"),");
        let e = Editor::open(&loaded, 0, Some(&text), Theme::MONO).unwrap();
        let area = Rect::new(0, 0, 100, 30);
        let mut buf = Buffer::empty(area);
        EditorPanel { editor: &e, variant_name: "naive", theme: Theme::MONO }.render(area, &mut buf);
        let underlined: String = buf
            .content()
            .iter()
            .filter(|c| c.style().add_modifier.contains(ratatui::style::Modifier::UNDERLINED))
            .map(ratatui::buffer::Cell::symbol)
            .collect();
        assert_eq!(underlined, "sensr_id");
    }
}
