//! The schema editor: a `ratatui-textarea` on one variant's RON text, checked on every edit with
//! the scenario loader itself (so the editor accepts exactly what `keyheat check` accepts), with
//! the error's line and column in the editor's own text. Nothing here touches the replay: the app
//! applies a valid draft and restarts the run.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};
use ratatui_textarea::{CursorMove, TextArea};

use super::action::Action;
use super::action::Panel;
use super::keymap::{self, Scope};
use super::panels::block;
use super::theme::Theme;
use crate::scenario::{EditError, Loaded};

/// The draft of one variant.
#[derive(Debug, Clone)]
pub struct Editor {
    pub variant: usize,
    area: TextArea<'static>,
    /// The last check's verdict: `None` when the draft loads.
    pub error: Option<EditError>,
}

impl Editor {
    /// An editor on variant `index` of `loaded`, holding `draft` (a recovered or kept draft) or
    /// the variant's text as the file has it.
    pub fn open(loaded: &Loaded, index: usize, draft: Option<&str>, theme: Theme) -> Option<Editor> {
        let source = loaded.variant_source(index)?;
        let text = draft.unwrap_or(&source.text);
        let mut area = TextArea::new(text.split('\n').map(str::to_owned).collect());
        area.set_tab_length(4);
        area.set_wrap_mode(ratatui_textarea::WrapMode::WordOrGlyph);
        area.set_cursor_line_style(Style::new());
        area.set_line_number_style(theme.dim());
        area.set_cursor_style(Style::new().add_modifier(Modifier::REVERSED));
        let mut editor = Editor { variant: index, area, error: None };
        editor.check(loaded);
        Some(editor)
    }

    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    /// Feeds a key to the text; re-checks when the text changed.
    pub fn input(&mut self, key: KeyEvent, loaded: &Loaded) {
        if self.area.input(key) {
            self.check(loaded);
        }
    }

    /// Checks the draft against `loaded`; the scenario with the draft applied when it loads.
    pub fn check(&mut self, loaded: &Loaded) -> Option<Loaded> {
        let Some(at) = loaded.variant_source(self.variant) else {
            self.error = Some(EditError {
                line: 1,
                col: 1,
                message: "the variant is no longer in the scenario".to_owned(),
                in_variant: false,
            });
            return None;
        };
        match loaded.with_variant_text(&at, &self.text()) {
            Ok(next) => {
                self.error = None;
                Some(next)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// Whether the draft differs from the variant's text in `loaded`.
    pub fn is_dirty(&self, loaded: &Loaded) -> bool {
        loaded.variant_source(self.variant).is_none_or(|at| at.text != self.text())
    }

    /// 1-based (line, column) of the cursor.
    pub fn cursor(&self) -> (usize, usize) {
        let ratatui_textarea::DataCursor(row, col) = self.area.cursor();
        (row + 1, col + 1)
    }

    pub fn jump_to_error(&mut self) {
        if let Some(e) = self.error.as_ref().filter(|e| e.in_variant) {
            let row = u16::try_from(e.line.saturating_sub(1)).unwrap_or(u16::MAX);
            let col = u16::try_from(e.col.saturating_sub(1)).unwrap_or(u16::MAX);
            self.area.move_cursor(CursorMove::Jump(row, col));
        }
    }
}

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
        Clear.render(area, buf);
        outer.render(area, buf);
        if inner.height < 4 {
            return;
        }
        let head = Line::from(vec![
            Span::styled(format!("editing {} ", self.variant_name), t.header()),
            Span::styled(
                format!("· {} apply · {} leave (draft kept)", key(Action::Apply), key(Action::Close)),
                t.dim(),
            ),
        ]);
        Paragraph::new(head).render(Rect { height: 1, ..inner }, buf);
        let (verdict, style) = match &e.error {
            None => ("✔ loads — apply to replay with it".to_owned(), t.ok()),
            Some(err) if err.in_variant => (format!("✘ {}:{}: {}", err.line, err.col, err.message), t.bad()),
            Some(err) => {
                (format!("✘ elsewhere in the file, line {}:{}: {}", err.line, err.col, err.message), t.bad())
            }
        };
        let foot = Line::styled(verdict, style);
        // The verdict gets the lines it needs, up to a third of the editor.
        let needed = super::panels::lesson::wrapped_height(&[foot.to_string()], inner.width);
        let foot_height = needed.clamp(1, (inner.height / 3).max(1));
        let foot_area = Rect { y: inner.bottom().saturating_sub(foot_height), height: foot_height, ..inner };
        let text_area =
            Rect { y: inner.y + 1, height: inner.height.saturating_sub(1 + foot_height), ..inner };
        (&e.area).render(text_area, buf);
        Paragraph::new(foot).wrap(Wrap { trim: false }).render(foot_area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn typing_rechecks_and_points_at_the_error() {
        let loaded = scenario::load("sensors").unwrap();
        let mut e = Editor::open(&loaded, 0, None, Theme { color: false }).unwrap();
        assert_eq!(e.error, None);
        assert!(!e.is_dirty(&loaded));
        // Line 1 is `(`; type a stray `x` at the start of line 2.
        e.input(press(KeyCode::Down), &loaded);
        e.input(press(KeyCode::Home), &loaded);
        e.input(press(KeyCode::Char('x')), &loaded);
        assert!(e.is_dirty(&loaded));
        let err = e.error.clone().expect("a stray x does not load");
        assert!(err.in_variant);
        assert_eq!(err.line, 2, "{err}");
        e.input(press(KeyCode::Backspace), &loaded);
        assert_eq!(e.error, None);
        assert!(!e.is_dirty(&loaded));
    }

    #[test]
    fn jumps_to_the_error() {
        let loaded = scenario::load("sensors").unwrap();
        let text = loaded.variant_source(0).unwrap().text.replace("{sensor_id}\"),", "{sensr_id}\"),");
        let mut e = Editor::open(&loaded, 0, Some(&text), Theme { color: false }).unwrap();
        let err = e.error.clone().unwrap();
        assert!(err.message.contains("sensr_id"), "{err}");
        e.jump_to_error();
        assert_eq!(e.cursor(), (err.line, err.col));
    }
}
