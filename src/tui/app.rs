//! The application model: which screen is up, what overlay covers it, the status message, and the
//! one place state changes ([`App::update`]). Keys arrive through `keymap::action`, mouse events
//! through [`App::mouse`]; the frame loop calls [`App::tick`] and [`App::refresh`] and then draws.
//! No terminal here: tests drive an `App` with synthetic events.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use super::action::{Action, Direction, Panel};
use super::driver::SimDriver;
use super::files::{self, WriteError};
use super::keymap::{self, Context};
use super::overlay::{Confirm, Console, Overlay, Prompt, PromptFor};
use super::panels::status::MessageKind;
use super::picker::{self, Picker};
use super::quiz::QuizScreen;
use super::recovery::{Recovery, RecoveryStore, origin_key};
use super::theme::Theme;
use super::workbench::{Budget, Mode, Note, Origin, Workbench};
use super::{svg, ui};
use crate::scenario::{self, LoadError};

mod practice;

pub enum Screen {
    Picker(Picker),
    Workbench(Box<Workbench>),
    Quiz(Box<QuizScreen>),
}

/// What the app is started with.
pub struct Config {
    pub theme: Theme,
    /// Where recovery files go; `None` keeps no recovery (nowhere to put it).
    pub state_dir: Option<PathBuf>,
}

pub struct App {
    pub screen: Screen,
    pub overlay: Option<Overlay>,
    pub message: Option<(String, MessageKind)>,
    pub quit: bool,
    pub theme: Theme,
    recovery: Option<RecoveryStore>,
    driver: Box<dyn SimDriver>,
    /// The terminal's size at the last refresh (what an export renders at).
    pub size: Rect,
    /// The seed of the next quiz opened from the picker (each opening takes the next one).
    pub quiz_seed: u64,
}

impl App {
    /// An app on the scenario picker.
    pub fn new(config: Config, driver: Box<dyn SimDriver>) -> App {
        App {
            screen: Screen::Picker(Picker::bundled()),
            overlay: None,
            message: None,
            quit: false,
            theme: config.theme,
            recovery: config.state_dir.map(RecoveryStore::new),
            driver,
            size: Rect::new(0, 0, 80, 24),
            quiz_seed: 0,
        }
    }

    /// Opens a bundled scenario by name or a file by path, at a variant (the default when
    /// `None`) and seed; offers any recovery left for it. Errors name the file, line and column.
    pub fn open(
        &mut self,
        name_or_path: &str,
        variant: Option<&str>,
        seed: Option<u64>,
    ) -> Result<(), LoadError> {
        self.open_on(name_or_path, variant, seed, None)
    }

    /// [`App::open`] on another store the file lists in `engines` (its own `engine` when
    /// `None`), as `keyheat run --engine` replays it.
    pub fn open_on(
        &mut self,
        name_or_path: &str,
        variant: Option<&str>,
        seed: Option<u64>,
        engine: Option<crate::engine::model::Engine>,
    ) -> Result<(), LoadError> {
        let loaded = scenario::load_on(name_or_path, engine)?;
        let index = {
            let v = loaded.variant(variant)?;
            loaded.scenario.variants.iter().position(|x| x.name == v.name)
        };
        // `variant()` returns one of the scenario's variants, so the position exists.
        let Some(index) = index else { return Ok(()) };
        let bundled = scenario::BUNDLED.iter().any(|(n, _, _)| *n == name_or_path);
        let origin = if bundled {
            Origin::Bundled(name_or_path.to_owned())
        } else {
            Origin::File(PathBuf::from(name_or_path))
        };
        let (mut w, note) = Workbench::open(loaded, origin, index, seed, self.theme, self.driver.as_mut());
        self.note(note);
        if let Some(store) = &self.recovery {
            match store.load(&origin_of(&w)) {
                Some(Ok(r)) => {
                    w.recovery_pending = true;
                    // Applied edits written to a file (`w`) are saved, whatever the file.
                    let applied = !r.source_saved && r.source != w.loaded.source();
                    self.overlay = Some(Overlay::Recovery { recovery: r, applied });
                }
                Some(Err(e)) => self.message = Some((e, MessageKind::Error)),
                None => {}
            }
        }
        self.screen = Screen::Workbench(Box::new(w));
        Ok(())
    }

    /// Who receives keys now.
    pub fn context(&self) -> Context {
        match (&self.overlay, &self.screen) {
            // The grade scrolls and closes as help does.
            (Some(Overlay::Help { .. } | Overlay::Grade(_)), _) => Context::Help,
            (Some(Overlay::Prompt(_)), _) => Context::Prompt,
            (Some(Overlay::Console(_)), _) => Context::Console,
            (Some(Overlay::Confirm(_) | Overlay::Recovery { .. }), _) => Context::Confirm,
            (None, Screen::Picker(_)) => Context::Picker,
            (None, Screen::Quiz(_)) => Context::Quiz,
            (None, Screen::Workbench(w)) if w.mode == Mode::Edit => Context::Editor,
            (None, Screen::Workbench(w)) => Context::Workbench(w.focus),
        }
    }

    pub fn key(&mut self, key: KeyEvent) {
        if let Some(action) = keymap::action(self.context(), key) {
            self.update(action);
        }
    }

    /// Mouse: a click focuses the panel (or picks the scenario) under it, the wheel scrolls.
    pub fn mouse(&mut self, event: MouseEvent) {
        let action = match (&self.overlay, &self.screen, event.kind) {
            (Some(Overlay::Help { .. }), _, MouseEventKind::ScrollUp)
            | (None, Screen::Picker(_) | Screen::Quiz(_), MouseEventKind::ScrollUp) => {
                Some(Action::Move(Direction::Up))
            }
            (Some(Overlay::Help { .. }), _, MouseEventKind::ScrollDown)
            | (None, Screen::Picker(_) | Screen::Quiz(_), MouseEventKind::ScrollDown) => {
                Some(Action::Move(Direction::Down))
            }
            (Some(Overlay::Console(_)), _, MouseEventKind::ScrollUp | MouseEventKind::ScrollDown) => {
                let d = if event.kind == MouseEventKind::ScrollUp { Direction::Up } else { Direction::Down };
                // Three lines a notch, as the panels scroll.
                for _ in 0..3 {
                    self.update(Action::Move(d));
                }
                None
            }
            (None, Screen::Picker(p), MouseEventKind::Down(MouseButton::Left)) => {
                picker::row_at(self.size, p, event.row).map(Action::PickRow)
            }
            (None, Screen::Workbench(w), kind) if w.mode != Mode::Edit => {
                let panel = w.layout.panel_at(event.column, event.row);
                match kind {
                    MouseEventKind::Down(MouseButton::Left) => panel.map(Action::FocusPanel),
                    MouseEventKind::ScrollUp => panel.map(|p| Action::Scroll(p, -3)),
                    MouseEventKind::ScrollDown => panel.map(|p| Action::Scroll(p, 3)),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(action) = action {
            self.update(action);
        }
    }

    /// The one place state changes.
    pub fn update(&mut self, action: Action) {
        if !matches!(action, Action::Scroll(..) | Action::Input(_)) {
            self.message = None;
        }
        if action == Action::ForceQuit {
            self.save_recovery();
            self.quit = true;
            return;
        }
        if self.overlay.is_some() {
            self.update_overlay(action);
            return;
        }
        // Help lists the keys of the screen it was opened on first.
        let context = self.context();
        match &mut self.screen {
            Screen::Picker(p) => match action {
                Action::Quit => self.quit = true,
                Action::Help => {
                    self.overlay = Some(Overlay::Help { scroll: 0, screen: context, engine: None });
                }
                Action::Move(Direction::Up) => p.select(-1),
                Action::Move(Direction::Down) => p.select(1),
                Action::Move(Direction::Left) => p.cycle_store(-1),
                Action::Move(Direction::Right) => p.cycle_store(1),
                Action::PickRow(i) if i < p.entries.len() => {
                    p.selected = i;
                    self.open_selected();
                }
                Action::Submit => self.open_selected(),
                Action::OpenFile => {
                    self.overlay = Some(Overlay::Prompt(Prompt::new(PromptFor::OpenFile, "")));
                }
                Action::Quiz => {
                    let picker = std::mem::take(p);
                    self.screen = Screen::Quiz(Box::new(QuizScreen::new(self.quiz_seed, picker)));
                    self.quiz_seed = self.quiz_seed.wrapping_add(1);
                }
                _ => {}
            },
            Screen::Quiz(quiz) => match action {
                Action::Quit => self.quit = true,
                Action::Help => {
                    self.overlay = Some(Overlay::Help { scroll: 0, screen: context, engine: None });
                }
                Action::Close => {
                    let picker = std::mem::take(&mut quiz.picker);
                    self.screen = Screen::Picker(picker);
                }
                other => quiz.update(other),
            },
            Screen::Workbench(w) => match action {
                Action::Quit if w.unsaved() => {
                    let drafts = w.drafts.values().any(|d| d.is_dirty(&w.loaded));
                    self.overlay = Some(Overlay::Confirm(Confirm::QuitUnsaved { drafts }));
                }
                Action::Quit => {
                    self.save_recovery();
                    self.quit = true;
                }
                Action::Help => {
                    let engine = Some(w.loaded.scenario.engine);
                    self.overlay = Some(Overlay::Help { scroll: 0, screen: context, engine });
                }
                Action::Grade | Action::SubmitPractice | Action::ShowSolution => {
                    self.practice_action(action);
                }
                Action::Console => self.overlay = Some(Overlay::Console(Console::default())),
                Action::CycleTheme => {
                    self.theme = self.theme.next();
                    w.set_theme(self.theme);
                    let colour = if self.theme.color { "" } else { " (NO_COLOR is set: no colour)" };
                    self.message =
                        Some((format!("theme: {}{colour}", self.theme.palette.name()), MessageKind::Info));
                }
                Action::Export => {
                    let name = format!("keyheat-{}-{}.svg", w.loaded.scenario.name, w.current().name);
                    self.overlay = Some(Overlay::Prompt(Prompt::new(PromptFor::Export, &name)));
                }
                Action::WriteScenario => {
                    let suggestion = match &w.origin {
                        Origin::File(path) => path.display().to_string(),
                        Origin::Bundled(name) => format!("{name}-{}.ron", w.current().name),
                    };
                    self.overlay = Some(Overlay::Prompt(Prompt::new(PromptFor::WriteScenario, &suggestion)));
                }
                other => {
                    let leaving_editor =
                        w.mode == Mode::Edit && matches!(other, Action::Close | Action::Apply);
                    let note = w.update(other, self.driver.as_mut());
                    self.note(note);
                    if leaving_editor {
                        self.save_recovery();
                    }
                }
            },
        }
    }

    fn update_overlay(&mut self, action: Action) {
        let Some(overlay) = self.overlay.as_mut() else { return };
        match (overlay, action) {
            (Overlay::Help { .. } | Overlay::Grade(_), Action::Close | Action::Help)
            | (Overlay::Prompt(_) | Overlay::Console(_), Action::Close) => self.overlay = None,
            (Overlay::Help { scroll, .. }, Action::Move(Direction::Up)) => *scroll = scroll.saturating_sub(1),
            (Overlay::Help { scroll, .. }, Action::Move(Direction::Down)) => *scroll = (*scroll + 1).min(200),
            (Overlay::Grade(g), Action::Move(Direction::Up)) => g.scroll = g.scroll.saturating_sub(1),
            (Overlay::Grade(g), Action::Move(Direction::Down)) => g.scroll = (g.scroll + 1).min(200),
            (Overlay::Prompt(p), Action::Input(key)) => p.input(key),
            (Overlay::Console(c), Action::Input(key)) => c.input(key),
            (Overlay::Console(c), Action::Move(d)) => c.scroll(d, self.size),
            (Overlay::Prompt(p), Action::Submit) => {
                let (purpose, text) = (p.purpose, p.text());
                self.submit(purpose, &text);
            }
            (Overlay::Console(c), Action::Submit) => {
                let request = c.take();
                if !request.trim().is_empty() {
                    let answer = self.driver.console(&request);
                    c.history.push((request, answer));
                }
            }
            (Overlay::Confirm(_) | Overlay::Recovery { .. }, Action::Yes | Action::No | Action::Close) => {
                let Some(taken) = self.overlay.take() else { return };
                self.answer(taken, action);
            }
            _ => {}
        }
    }

    /// A prompt's text was submitted.
    fn submit(&mut self, purpose: PromptFor, text: &str) {
        if text.is_empty() {
            self.prompt_error("type a path first");
            return;
        }
        let path = PathBuf::from(text);
        match purpose {
            PromptFor::OpenFile => match self.open(text, None, None) {
                Ok(()) => {
                    if matches!(self.overlay, Some(Overlay::Prompt(_))) {
                        self.overlay = None;
                    }
                }
                Err(e) => self.prompt_error(&e.to_string()),
            },
            PromptFor::Export | PromptFor::WriteScenario => self.write_file(purpose, &path, false),
        }
    }

    fn prompt_error(&mut self, error: &str) {
        if let Some(Overlay::Prompt(p)) = &mut self.overlay {
            p.error = Some(error.to_owned());
        }
    }

    /// Writes the export or the scenario to `path`; asks before writing over a file.
    fn write_file(&mut self, purpose: PromptFor, path: &Path, overwrite: bool) {
        let bytes = match purpose {
            PromptFor::Export => Ok(self.export_svg().into_bytes()),
            PromptFor::WriteScenario => self.scenario_text().map(String::into_bytes),
            PromptFor::OpenFile => return,
        };
        let bytes = match bytes {
            Ok(bytes) => bytes,
            Err(e) => {
                self.overlay = None;
                self.message = Some((e, MessageKind::Error));
                return;
            }
        };
        match files::write(path, &bytes, overwrite) {
            Ok(()) => {
                self.overlay = None;
                let text = if purpose == PromptFor::Export {
                    format!("exported the screen to {}", path.display())
                } else {
                    self.wrote_message(path)
                };
                self.message = Some((text, MessageKind::Info));
                if purpose == PromptFor::WriteScenario {
                    self.mark_saved();
                }
            }
            Err(WriteError::Exists { bundled }) => {
                self.overlay =
                    Some(Overlay::Confirm(Confirm::Overwrite { path: path.to_owned(), purpose, bundled }));
            }
            Err(WriteError::Io(e)) => self.prompt_error(&format!("cannot write {}: {e}", path.display())),
        }
    }

    /// The scenario's text to write: the variants as applied. Writing neither applies a draft
    /// nor restarts the replay; an unapplied draft stays in the editor (and the recovery file).
    fn scenario_text(&self) -> Result<String, String> {
        let Screen::Workbench(w) = &self.screen else { return Err("no scenario is open".to_owned()) };
        Ok(w.loaded.source().to_owned())
    }

    /// What `w` says after writing `path`: plainly, when an unapplied draft was left out of it.
    fn wrote_message(&self, path: &Path) -> String {
        let wrote = format!("wrote {}", path.display());
        let Screen::Workbench(w) = &self.screen else { return wrote };
        // Drafts are keyed by variant index, so the names come in the scenario's order.
        let names: Vec<&str> = w
            .drafts
            .iter()
            .filter(|(_, d)| d.is_dirty(&w.loaded))
            .filter_map(|(&i, _)| w.loaded.scenario.variants.get(i))
            .map(|v| v.name.as_str())
            .collect();
        match names.as_slice() {
            [] => wrote,
            [one] => format!("{wrote} without {one}'s unapplied edit (kept; Ctrl-S applies it)"),
            many => {
                format!("{wrote} without the unapplied edits of {} (kept; Ctrl-S applies)", many.join(", "))
            }
        }
    }

    fn mark_saved(&mut self) {
        if let Screen::Workbench(w) = &mut self.screen {
            w.loaded.source().clone_into(&mut w.saved_source);
            w.recovery_pending = false;
        }
        self.save_recovery();
    }

    /// The screen as it is now, without the overlay, as SVG.
    fn export_svg(&mut self) -> String {
        let overlay = self.overlay.take();
        let buffer = ui::screen_buffer(self, self.size);
        self.overlay = overlay;
        svg::render(&buffer, self.theme.base())
    }

    fn answer(&mut self, overlay: Overlay, action: Action) {
        match (overlay, action) {
            (Overlay::Confirm(Confirm::QuitUnsaved { .. }), Action::Yes) => {
                self.save_recovery();
                self.quit = true;
            }
            (Overlay::Confirm(Confirm::Overwrite { path, purpose, .. }), Action::Yes) => {
                self.write_file(purpose, &path, true);
            }
            (Overlay::Recovery { recovery, .. }, Action::Yes) => self.restore(&recovery),
            (Overlay::Confirm(Confirm::ShowSolution), Action::Yes) => self.show_solution(),
            (Overlay::Recovery { recovery: r, .. }, Action::No) => {
                if let Some(store) = &self.recovery
                    && let Err(e) = store.discard(&r.origin)
                {
                    self.message =
                        Some((format!("cannot remove the recovery file: {e}"), MessageKind::Error));
                }
                if let Screen::Workbench(w) = &mut self.screen {
                    w.recovery_pending = false;
                }
            }
            // "Not now": the recovery file stays for next time.
            _ => {}
        }
    }

    fn restore(&mut self, r: &Recovery) {
        let Screen::Workbench(w) = &mut self.screen else { return };
        w.recovery_pending = false;
        // The recovered text replays on the store the workbench is on (`--engine`).
        let note = match w.loaded.reread(&r.source) {
            Ok(loaded) => w.replace(loaded, self.driver.as_mut()),
            Err(e) => Some(Err(format!(
                "the recovered scenario does not load ({e}); its drafts are restored"
            )
            .into())),
        };
        for (index, text) in &r.drafts {
            if let Some(editor) = w.open_editor(*index, Some(text)) {
                w.drafts.insert(*index, editor);
            }
        }
        self.note(note.or_else(|| Some(Ok("restored the unsaved edits".to_owned()))));
    }

    /// Keeps unsaved edits in the recovery file, or removes a stale one when all is saved.
    pub fn save_recovery(&mut self) {
        let (Some(store), Screen::Workbench(w)) = (&self.recovery, &self.screen) else { return };
        let origin = origin_of(w);
        let result = if w.unsaved() {
            let drafts =
                w.drafts.iter().filter(|(_, d)| d.is_dirty(&w.loaded)).map(|(&i, d)| (i, d.text())).collect();
            let source_saved = w.loaded.source() == w.saved_source;
            store
                .save(&Recovery { origin, source: w.loaded.source().to_owned(), drafts, source_saved })
                .map(|_| ())
        } else if w.recovery_pending {
            Ok(())
        } else {
            store.discard(&origin)
        };
        if let Err(e) = result {
            self.message = Some((format!("cannot keep the recovery file: {e}"), MessageKind::Error));
        }
    }

    fn open_selected(&mut self) {
        let Screen::Picker(p) = &self.screen else { return };
        let Some((name, engine)) = p.current().map(|e| (e.name.clone(), e.chosen_engine())) else { return };
        if let Err(e) = self.open_on(&name, None, None, engine) {
            self.message = Some((e.to_string(), MessageKind::Error));
        }
    }

    fn note(&mut self, note: Note) {
        match note {
            Some(Ok(text)) => self.message = Some((text, MessageKind::Info)),
            Some(Err(refusal)) => self.message = Some((refusal.to_string(), MessageKind::Error)),
            None => {}
        }
    }

    /// Steps the replay for `elapsed` real time within `budget` (see `Workbench::tick`).
    pub fn tick(&mut self, elapsed: Duration, budget: &mut dyn Budget) {
        if let Screen::Workbench(w) = &mut self.screen {
            let mut note = w.tick(elapsed, budget, self.driver.as_mut());
            if let Some(e) = self.driver.take_error() {
                w.playback = super::workbench::Playback::Paused;
                note = Some(Err(e.into()));
            }
            self.note(note);
            self.practice_tick(elapsed);
        }
    }

    /// Replays the open scenario's variant `name` instead (the run before becomes compare's
    /// baseline), as `v` does for the next one.
    pub fn switch_variant(&mut self, name: &str) -> Result<(), String> {
        let Screen::Workbench(w) = &mut self.screen else { return Err("no scenario is open".to_owned()) };
        let index = w.loaded.scenario.variants.iter().position(|v| v.name == name).ok_or_else(|| {
            let names: Vec<&str> = w.loaded.scenario.variants.iter().map(|v| v.name.as_str()).collect();
            format!("no variant {name:?}; the scenario has {}", names.join(", "))
        })?;
        w.switch_variant(index, self.driver.as_mut()).map_err(|e| e.to_string())
    }

    /// Replays the open scenario, paused, up to simulated time `at` (see `Workbench::run_to`).
    pub fn run_to(&mut self, at: crate::engine::time::SimTime, progress: &mut dyn FnMut(f64)) {
        if let Screen::Workbench(w) = &mut self.screen {
            w.run_to(at, self.driver.as_mut(), progress);
        }
    }

    /// Waits for the open workbench's plan, which is worked out on a thread of its own (headless
    /// renders and tests; the frame loop never waits); false when none came or none is open.
    pub fn wait_for_plan(&mut self) -> bool {
        match &mut self.screen {
            Screen::Workbench(w) => w.wait_for_plan(),
            Screen::Picker(_) | Screen::Quiz(_) => false,
        }
    }

    /// Lays out the screen for `area` and takes this frame's snapshot. Called once per frame,
    /// before drawing.
    pub fn refresh(&mut self, area: Rect) {
        self.size = area;
        if let Screen::Workbench(w) = &mut self.screen {
            w.refresh(area, self.driver.as_ref());
            self.deliver_grade();
        }
    }

    /// Whether the workbench's focus is on `panel` (for tests and the mouse).
    pub fn focus(&self) -> Option<Panel> {
        match &self.screen {
            Screen::Workbench(w) => Some(w.focus),
            Screen::Picker(_) | Screen::Quiz(_) => None,
        }
    }
}

fn origin_of(w: &Workbench) -> String {
    match &w.origin {
        Origin::Bundled(name) => origin_key(Some(name), Path::new(name)),
        Origin::File(path) => origin_key(None, path),
    }
}
