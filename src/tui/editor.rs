//! The schema editor: a `ratatui-textarea` on one variant's RON text, checked on every edit with
//! the scenario loader itself (so the editor accepts exactly what `keyheat check` accepts), with
//! the error's line and column in the editor's own text and the offending token underlined.
//! Around the text: the attributes of the entity under the cursor, a cheat sheet of key-template
//! slots ([`cheatsheet`]), Tab completion ([`complete`]), undo and redo in word steps
//! ([`history`]), and the first thing the planner says of the draft ([`consequence`]), all drawn
//! by [`panel`]. Nothing here touches the replay: the app applies a valid draft and restarts the
//! run.

mod cheatsheet;
mod complete;
mod consequence;
mod history;
mod panel;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, DataCursor, TextArea};

use self::complete::{Candidate, Vocabulary};
use self::consequence::Consequence;
use self::history::{Change, History, Snapshot};
pub use self::panel::EditorPanel;
use super::action::Action;
use super::keymap::{self, Scope};
use super::theme::Theme;
use crate::engine::model::Scenario;
use crate::engine::planner;
use crate::scenario::{EditError, Loaded};

/// What an editor key asks of the draft (the key table binds them; see `keymap::KEYS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditOp {
    /// Tab: complete the word before the cursor; with the popup open, the next candidate.
    Complete,
    /// Show or hide the key-template cheat sheet.
    CheatSheet,
    Undo,
    Redo,
    SelectAll,
    Copy,
    Cut,
    Paste,
    /// Back to the variant as the scenario file has it (undoable).
    Revert,
    /// Drop the unapplied edits: back to the text that is applied (undoable).
    Discard,
}

/// How long a draft that loads must stay unchanged before it is planned. Planning a bundled
/// scenario takes from under a millisecond to ~150 ms in a debug build (practice-search,
/// orders, social-feed), so it runs on a thread of its own once typing pauses: keys never wait
/// for it.
pub const PLAN_AFTER: Duration = Duration::from_millis(150);

/// The completion popup: the candidates and the one selected.
#[derive(Debug, Clone)]
struct Popup {
    candidates: Vec<Candidate>,
    selected: usize,
}

/// The draft of one variant.
#[derive(Debug)]
pub struct Editor {
    pub variant: usize,
    area: TextArea<'static>,
    /// The last check's verdict: `None` when the draft loads.
    pub error: Option<EditError>,
    /// What the planner says of the draft that loads, once planned.
    pub consequence: Option<Consequence>,
    /// A draft that loads, checked but not planned yet, and since when.
    unplanned: Option<(Scenario, Instant)>,
    /// The plan being made on a worker thread for the text as it is now (dropped, and its
    /// answer with it, when the text changes).
    planning: Option<mpsc::Receiver<Consequence>>,
    history: History,
    /// The variant's text as the scenario file has it: what Revert goes back to.
    original: Option<String>,
    pub sheet: bool,
    popup: Option<Popup>,
    vocabulary: Vocabulary,
    theme: Theme,
}

fn text_area(lines: Vec<String>, theme: Theme) -> TextArea<'static> {
    let mut area = TextArea::new(lines);
    area.set_tab_length(4);
    area.set_wrap_mode(ratatui_textarea::WrapMode::WordOrGlyph);
    area.set_cursor_line_style(theme.plain());
    area.set_line_number_style(theme.dim());
    area.set_cursor_style(Theme::text_cursor());
    area.set_selection_style(Theme::selection());
    // Undo is the editor's own (`history`), in word steps and across reverts.
    area.set_max_histories(0);
    area
}

/// How a key that changed the text is grouped for undo.
fn change_of(key: KeyEvent) -> Change {
    let plain = !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    match key.code {
        KeyCode::Char(c) if plain => Change::Type(c),
        KeyCode::Backspace | KeyCode::Delete if plain => Change::Delete,
        _ => Change::Other,
    }
}

impl Editor {
    /// An editor on variant `index` of `loaded`, holding `draft` (a recovered or kept draft) or
    /// the variant's text as the file has it.
    /// Draws from now on in `theme` (the text, its undo history and cursor stay).
    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
        self.area.set_cursor_line_style(theme.plain());
        self.area.set_line_number_style(theme.dim());
    }

    pub fn open(loaded: &Loaded, index: usize, draft: Option<&str>, theme: Theme) -> Option<Editor> {
        let source = loaded.variant_source(index)?;
        let text = draft.unwrap_or(&source.text);
        let mut editor = Editor {
            variant: index,
            area: text_area(text.split('\n').map(str::to_owned).collect(), theme),
            error: None,
            consequence: None,
            unplanned: None,
            planning: None,
            history: History::default(),
            original: None,
            sheet: false,
            popup: None,
            vocabulary: Vocabulary::of(&loaded.scenario),
            theme,
        };
        editor.check(loaded);
        // The text as the editor opens needs no pause before it is planned.
        if let Some((_, since)) = &mut editor.unplanned {
            *since = since.checked_sub(PLAN_AFTER).unwrap_or(*since);
        }
        Some(editor)
    }

    /// Sets the text Revert goes back to: the variant as the scenario file has it.
    pub fn set_original(&mut self, text: String) {
        self.original = Some(text);
    }

    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    fn snapshot(&self) -> Snapshot {
        let DataCursor(row, col) = self.area.cursor();
        Snapshot { lines: self.area.lines().to_vec(), cursor: (row, col) }
    }

    /// Puts `snapshot` in the text area, keeping what was copied.
    fn restore(&mut self, snapshot: Snapshot) {
        let yank = self.area.yank_text();
        self.area = text_area(snapshot.lines, self.theme);
        self.area.set_yank_text(yank);
        let row = u16::try_from(snapshot.cursor.0).unwrap_or(u16::MAX);
        let col = u16::try_from(snapshot.cursor.1).unwrap_or(u16::MAX);
        self.area.move_cursor(CursorMove::Jump(row, col));
    }

    /// The text from the start of the draft to the cursor.
    fn before_cursor(&self) -> String {
        let DataCursor(row, col) = self.area.cursor();
        let lines = self.area.lines();
        let mut out = lines[..row].join("\n");
        if row > 0 {
            out.push('\n');
        }
        out.extend(lines[row].chars().take(col));
        out
    }

    /// Feeds a key to the text (or to the completion popup); re-checks when the text changed.
    pub fn input(&mut self, key: KeyEvent, loaded: &Loaded) {
        if let Some(popup) = &mut self.popup {
            let n = popup.candidates.len();
            match key.code {
                KeyCode::Down => return popup.selected = (popup.selected + 1) % n,
                KeyCode::Up => return popup.selected = (popup.selected + n - 1) % n,
                KeyCode::Enter => {
                    let word = popup.candidates[popup.selected].word.clone();
                    self.popup = None;
                    return self.insert_completion(&word, loaded);
                }
                _ => self.popup = None,
            }
        }
        let before = self.snapshot();
        if self.area.input(key) {
            self.history.record(before, change_of(key));
            self.check(loaded);
        } else {
            self.history.pause();
        }
    }

    /// Closes the completion popup; false when none was open.
    pub fn close_popup(&mut self) -> bool {
        self.popup.take().is_some()
    }

    /// Carries out an editor key; what to tell the user, if anything.
    pub fn edit(&mut self, op: EditOp, loaded: &Loaded) -> Option<String> {
        match op {
            EditOp::Complete => return self.complete(loaded),
            EditOp::CheatSheet => self.sheet = !self.sheet,
            EditOp::Undo | EditOp::Redo => {
                let now = self.snapshot();
                let step = if op == EditOp::Undo { self.history.undo(now) } else { self.history.redo(now) };
                let Some(step) = step else {
                    return Some(
                        if op == EditOp::Undo { "nothing to undo" } else { "nothing to redo" }.to_owned(),
                    );
                };
                self.restore(step);
                self.check(loaded);
            }
            EditOp::SelectAll => self.area.select_all(),
            EditOp::Copy => {
                self.area.copy();
                return Some("copied".to_owned());
            }
            EditOp::Cut | EditOp::Paste => {
                let before = self.snapshot();
                let changed = if op == EditOp::Cut { self.area.cut() } else { self.area.paste() };
                if changed {
                    self.history.record(before, Change::Other);
                    self.check(loaded);
                }
            }
            EditOp::Revert | EditOp::Discard => {
                let applied = loaded.variant_source(self.variant).map(|s| s.text);
                let (target, what) = if op == EditOp::Revert {
                    (self.original.clone().or(applied), "the variant as the scenario file has it")
                } else {
                    (applied, "the applied text")
                };
                let target = target?;
                if target == self.text() {
                    return Some(format!("the draft is already {what}"));
                }
                let before = self.snapshot();
                self.history.record(before.clone(), Change::Other);
                let row = before.cursor.0.min(target.split('\n').count() - 1);
                self.restore(Snapshot {
                    lines: target.split('\n').map(str::to_owned).collect(),
                    cursor: (row, 0),
                });
                self.check(loaded);
                let undo = keymap::label(Scope::Editor, Action::Edit(EditOp::Undo)).unwrap_or_default();
                return Some(format!("back to {what} ({undo} undoes it)"));
            }
        }
        None
    }

    fn complete(&mut self, loaded: &Loaded) -> Option<String> {
        if let Some(popup) = &mut self.popup {
            popup.selected = (popup.selected + 1) % popup.candidates.len();
            return None;
        }
        let before = self.before_cursor();
        let candidates = complete::candidates(&before, &self.vocabulary);
        match candidates.as_slice() {
            // Tab after white space still indents.
            [] if complete::word_before(&before).is_empty() => {
                let snapshot = self.snapshot();
                if self.area.insert_tab() {
                    self.history.record(snapshot, Change::Other);
                    self.check(loaded);
                }
                None
            }
            [] => Some("nothing to complete here".to_owned()),
            [one] => {
                let word = one.word.clone();
                self.insert_completion(&word, loaded);
                None
            }
            several => {
                let common = complete::common_prefix(several).to_owned();
                if common.len() > complete::word_before(&before).len() {
                    self.insert_completion(&common, loaded);
                }
                self.popup = Some(Popup { candidates, selected: 0 });
                None
            }
        }
    }

    /// Finishes the word before the cursor as `word`.
    fn insert_completion(&mut self, word: &str, loaded: &Loaded) {
        let typed = complete::word_before(&self.before_cursor()).len();
        let Some(rest) = word.get(typed..).filter(|r| !r.is_empty()) else { return };
        let before = self.snapshot();
        self.area.insert_str(rest);
        self.history.record(before, Change::Other);
        self.check(loaded);
    }

    /// Checks the draft against `loaded`; the scenario with the draft applied when it loads.
    /// A draft that loads is planned later ([`Editor::plan_due`]), when the typing pauses.
    pub fn check(&mut self, loaded: &Loaded) -> Option<Loaded> {
        let Some(at) = loaded.variant_source(self.variant) else {
            self.error = Some(EditError {
                line: 1,
                col: 1,
                message: "the variant is no longer in the scenario".to_owned(),
                in_variant: false,
            });
            self.unplanned = None;
            return None;
        };
        // Whatever was being planned is for an older text.
        self.planning = None;
        match loaded.with_variant_text(&at, &self.text()) {
            Ok(next) => {
                self.error = None;
                self.vocabulary = Vocabulary::of(&next.scenario);
                self.unplanned = Some((next.scenario.clone(), Instant::now()));
                Some(next)
            }
            Err(e) => {
                self.error = Some(e);
                self.consequence = None;
                self.unplanned = None;
                None
            }
        }
    }

    /// Called each frame without a key: takes the worker's answer when it has come, and starts
    /// planning a draft that loads once it has been left alone for [`PLAN_AFTER`]. True when
    /// the consequence changed.
    pub fn plan_due(&mut self, now: Instant) -> bool {
        let mut changed = false;
        if let Some(answer) = &self.planning {
            match answer.try_recv() {
                Ok(c) => {
                    changed = self.consequence.as_ref() != Some(&c);
                    self.consequence = Some(c);
                    self.planning = None;
                }
                Err(mpsc::TryRecvError::Disconnected) => self.planning = None,
                Err(mpsc::TryRecvError::Empty) => {}
            }
        }
        if self.unplanned.as_ref().is_some_and(|(_, since)| now.duration_since(*since) >= PLAN_AFTER)
            && let Some((scenario, _)) = self.unplanned.take()
        {
            let (send, answer) = mpsc::channel();
            let index = self.variant;
            let worker = std::thread::Builder::new().name("keyheat-plan".to_owned()).spawn(move || {
                if let Some(variant) = scenario.variants.get(index) {
                    // The editor may have moved on and dropped the receiver: nothing to do then.
                    let _ = send.send(consequence::first(&planner::plan(&scenario, variant)));
                }
            });
            // Without a thread there is no consequence line; the verdict still says it loads.
            self.planning = worker.ok().map(|_| answer);
        }
        changed
    }

    /// Plans the checked draft now, on this thread (tests); true when the consequence changed.
    #[cfg(test)]
    pub fn plan_now(&mut self) -> bool {
        let Some((next, _)) = self.unplanned.take() else { return false };
        let Some(variant) = next.variants.get(self.variant) else { return false };
        let consequence = Some(consequence::first(&planner::plan(&next, variant)));
        let changed = consequence != self.consequence;
        self.consequence = consequence;
        changed
    }

    /// Whether the draft differs from the variant's text in `loaded`.
    pub fn is_dirty(&self, loaded: &Loaded) -> bool {
        loaded.variant_source(self.variant).is_none_or(|at| at.text != self.text())
    }

    /// 1-based (line, column) of the cursor.
    pub fn cursor(&self) -> (usize, usize) {
        let DataCursor(row, col) = self.area.cursor();
        (row + 1, col + 1)
    }

    pub fn jump_to_error(&mut self) {
        if let Some(e) = self.error.as_ref().filter(|e| e.in_variant) {
            let row = u16::try_from(e.line.saturating_sub(1)).unwrap_or(u16::MAX);
            let col = u16::try_from(e.col.saturating_sub(1)).unwrap_or(u16::MAX);
            self.area.move_cursor(CursorMove::Jump(row, col));
            self.history.pause();
        }
    }

    /// The entity whose keys the cursor is in, and the attributes a slot can read there.
    fn attributes_here(&self) -> (Option<&str>, Vec<&str>) {
        let before = self.before_cursor();
        let entity = complete::entity_at(&before, &self.vocabulary);
        (entity, self.vocabulary.attributes(entity))
    }

    /// The characters the error's token covers on its line: (0-based row, first column, count).
    fn error_token(&self) -> Option<(usize, usize, usize)> {
        let e = self.error.as_ref().filter(|e| e.in_variant)?;
        let row = e.line.checked_sub(1)?;
        let col = e.col.checked_sub(1)?;
        let line: Vec<char> = self.area.lines().get(row)?.chars().collect();
        let first = *line.get(col)?;
        let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
        let len = if is_name(first) {
            line[col..].iter().take_while(|c| is_name(**c)).count()
        } else if first == '"' {
            line[col + 1..].iter().position(|c| *c == '"').map_or(line.len() - col, |n| n + 2)
        } else {
            1
        };
        Some((row, col, len))
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
        let mut e = Editor::open(&loaded, 0, None, Theme::MONO).unwrap();
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

    fn type_text(e: &mut Editor, text: &str, loaded: &Loaded) {
        for c in text.chars() {
            e.input(press(KeyCode::Char(c)), loaded);
        }
    }

    /// An editor on sensors' naive variant with the cursor just after `{sensor_id}` in the
    /// Reading partition key (line 6).
    fn on_the_reading_key(loaded: &Loaded) -> Editor {
        let mut e = Editor::open(loaded, 0, None, Theme::MONO).unwrap();
        e.set_original(loaded.variant_source(0).unwrap().text);
        let line = e.text().lines().position(|l| l.contains("\"Reading\"")).unwrap();
        let col = e.text().lines().nth(line).unwrap().find("{sensor_id}").unwrap() + "{sensor_id}".len();
        e.area.move_cursor(CursorMove::Jump(u16::try_from(line).unwrap(), u16::try_from(col).unwrap()));
        e
    }

    #[test]
    fn undo_and_redo_go_a_word_at_a_time_and_undoing_every_edit_leaves_no_draft() {
        let loaded = scenario::load("sensors").unwrap();
        let mut e = on_the_reading_key(&loaded);
        let original = e.text();
        type_text(&mut e, "#{day}", &loaded);
        assert!(e.is_dirty(&loaded) && e.error.is_some());
        let mut texts = vec![e.text()];
        // Steps: `#{`, `day`, `}`.
        for _ in 0..3 {
            assert_eq!(e.edit(EditOp::Undo, &loaded), None);
            texts.push(e.text());
        }
        assert_eq!(e.text(), original);
        assert!(!e.is_dirty(&loaded), "back to the applied text: no unapplied edit");
        assert_eq!(e.error, None);
        assert_eq!(e.edit(EditOp::Undo, &loaded).as_deref(), Some("nothing to undo"));
        for want in texts.iter().rev().skip(1) {
            assert_eq!(e.edit(EditOp::Redo, &loaded), None);
            assert_eq!(&e.text(), want);
        }
        assert_eq!(e.edit(EditOp::Redo, &loaded).as_deref(), Some("nothing to redo"));
        // The keys: Ctrl-Z undoes, Ctrl-Y and Ctrl-Shift-Z redo.
        let key = |c, m| keymap::action(keymap::Context::Editor, KeyEvent::new(KeyCode::Char(c), m));
        assert_eq!(key('z', KeyModifiers::CONTROL), Some(Action::Edit(EditOp::Undo)));
        assert_eq!(key('y', KeyModifiers::CONTROL), Some(Action::Edit(EditOp::Redo)));
        assert_eq!(key('Z', KeyModifiers::CONTROL | KeyModifiers::SHIFT), Some(Action::Edit(EditOp::Redo)));
    }

    /// Revert goes back to the file's variant, Discard to the applied text; each is one undo
    /// step, so neither loses an edit.
    #[test]
    fn revert_and_discard_are_undoable() {
        let loaded = scenario::load("sensors").unwrap();
        let at = loaded.variant_source(0).unwrap();
        let applied_text = at.text.replacen("{sensor_id}\", sk", "{sensor_id}#{reading_time:%Y-%m}\", sk", 1);
        let applied = loaded.with_variant_text(&at, &applied_text).unwrap();
        let mut e = Editor::open(&applied, 0, None, Theme::MONO).unwrap();
        e.set_original(at.text.clone());
        assert_eq!(e.text(), applied_text);
        e.area.move_cursor(CursorMove::Bottom);
        type_text(&mut e, " // mine", &applied);
        let mine = e.text();
        let cases = [
            (EditOp::Discard, applied_text.as_str(), "back to the applied text"),
            (EditOp::Revert, at.text.as_str(), "back to the variant as the scenario file has it"),
        ];
        for (op, want, says) in cases {
            let note = e.edit(op, &applied).unwrap();
            assert!(note.starts_with(says), "{note}");
            assert_eq!(e.text(), want, "{op:?}");
            assert_eq!(e.edit(op, &applied).map(|n| n.starts_with("the draft is already")), Some(true));
            assert_eq!(e.edit(EditOp::Undo, &applied), None);
            assert_eq!(e.text(), mine, "{op:?} is undone");
        }
        assert!(e.is_dirty(&applied));
    }

    #[test]
    fn tab_completes_a_unique_name_and_lists_several() {
        let loaded = scenario::load("sensors").unwrap();
        let mut e = on_the_reading_key(&loaded);
        type_text(&mut e, "#{", &loaded);
        assert_eq!(e.edit(EditOp::Complete, &loaded), None);
        let popup = e.popup.clone().expect("several candidates: a popup");
        let words: Vec<&str> = popup.candidates.iter().map(|c| c.word.as_str()).collect();
        assert!(words.contains(&"reading_time") && words.contains(&"bucket("), "{words:?}");
        // Typing closes the list; Tab on `rea` completes the only attribute it can be.
        type_text(&mut e, "rea", &loaded);
        assert!(e.popup.is_none());
        e.edit(EditOp::Complete, &loaded);
        assert!(e.before_cursor().ends_with("{sensor_id}#{reading_time"), "{}", e.before_cursor());
        // One undo takes the completion back.
        e.edit(EditOp::Undo, &loaded);
        assert!(e.before_cursor().ends_with("#{rea"));
        e.edit(EditOp::Redo, &loaded);
        type_text(&mut e, ":%Y-%m-%d}", &loaded);
        assert_eq!(e.error, None, "{:?}", e.error);
        assert!(e.plan_now());
        let c = e.consequence.clone().unwrap();
        assert!(c.text.contains("last-24h: SELECT, 2 partitions") && !c.warning, "{c:?}");
    }

    /// The draft is planned on a worker once typing pauses; typing again drops the answer that
    /// is on its way, so a stale consequence never shows.
    #[test]
    fn the_consequence_is_planned_off_the_ui_thread_after_a_pause() {
        let loaded = scenario::load("sensors").unwrap();
        let mut e = on_the_reading_key(&loaded);
        let start = Instant::now();
        assert!(e.planning.is_none());
        e.plan_due(start + PLAN_AFTER);
        assert!(e.planning.is_some(), "the opened text is planned at once");
        // A key: the answer on its way is for an older text.
        type_text(&mut e, "#{reading_time:%Y-%m-%d}", &loaded);
        assert!(e.planning.is_none() && e.error.is_none(), "{:?}", e.error);
        let typed = Instant::now();
        e.plan_due(typed);
        assert!(e.planning.is_none(), "not before the pause");
        e.plan_due(typed + PLAN_AFTER);
        let answer = e.planning.take().expect("planning").recv_timeout(Duration::from_secs(60)).unwrap();
        assert!(answer.text.contains("last-24h: SELECT, 2 partitions"), "{answer:?}");
    }

    /// With the popup open, ↓ and Enter pick; a name with nothing to add says so; Tab where no
    /// word is being typed indents.
    #[test]
    fn the_popup_picks_and_tab_still_indents() {
        let loaded = scenario::load("sensors").unwrap();
        let mut e = on_the_reading_key(&loaded);
        type_text(&mut e, "#{", &loaded);
        e.edit(EditOp::Complete, &loaded);
        let second = e.popup.as_ref().unwrap().candidates[1].word.clone();
        e.input(press(KeyCode::Down), &loaded);
        e.input(press(KeyCode::Enter), &loaded);
        assert!(e.popup.is_none());
        assert!(e.before_cursor().ends_with(&format!("#{{{second}")), "{}", e.before_cursor());
        assert_eq!(e.edit(EditOp::Complete, &loaded).as_deref(), Some("nothing to complete here"));
        e.input(press(KeyCode::Home), &loaded);
        let before = e.text();
        assert_eq!(e.edit(EditOp::Complete, &loaded), None);
        assert_eq!(e.text().len(), before.len() + 4, "four spaces");
    }

    #[test]
    fn the_error_token_is_the_name_or_string_at_the_error() {
        let loaded = scenario::load("sensors").unwrap();
        let text = loaded.variant_source(0).unwrap().text.replace("{sensor_id}\"),", "{sensr_id}\"),");
        let e = Editor::open(&loaded, 0, Some(&text), Theme::MONO).unwrap();
        let (row, col, len) = e.error_token().unwrap();
        let line: String = e.area.lines()[row].chars().skip(col).take(len).collect();
        assert_eq!(line, "sensr_id");
    }

    #[test]
    fn jumps_to_the_error() {
        let loaded = scenario::load("sensors").unwrap();
        let text = loaded.variant_source(0).unwrap().text.replace("{sensor_id}\"),", "{sensr_id}\"),");
        let mut e = Editor::open(&loaded, 0, Some(&text), Theme::MONO).unwrap();
        let err = e.error.clone().unwrap();
        assert!(err.message.contains("sensr_id"), "{err}");
        e.jump_to_error();
        assert_eq!(e.cursor(), (err.line, err.col));
    }
}
