//! The terminal UI. This file owns the terminal: raw mode, the alternate screen and mouse capture
//! on the way in, and their undoing on every way out (`q`, Ctrl-C, an error, a panic); and the
//! frame loop: answer input, step the replay within a per-frame budget, take one snapshot, draw
//! once.
//!
//! - `app` (the model and its one `update`), `action`, `keymap` (the key table), `workbench`
//!   (the workbench's state; it plans a variant on a thread of its own, as the editor plans a
//!   draft), `editor`, `overlay`, `picker`, `quiz`, `recovery`, `files`, `pacing`.
//! - `driver`: the seam to the simulator; `replay`: the real drivers over `engine::sim` (the live
//!   workbench's `replay::Worker` runs it on a thread of its own, so nothing here waits on it;
//!   the synchronous `SimReplay` serves `keyheat snapshot` and tests); `view`: the snapshot
//!   panels draw.
//! - `ui` draws, `layout` places, `panels/` are the workbench's panels, `theme` the colours,
//!   `svg` turns a drawn screen into a picture.

pub mod action;
pub mod app;
pub mod cast;
pub mod driver;
pub mod editor;
pub mod files;
pub mod keymap;
pub mod layout;
pub mod overlay;
pub mod pacing;
pub mod panels;
pub mod picker;
pub mod practice;
pub mod quiz;
pub mod recovery;
pub mod replay;
pub mod svg;
pub mod theme;
pub mod ui;
pub mod view;
pub mod workbench;

#[cfg(test)]
mod tests;

use std::io::{self, Stdout};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use app::{App, Config};
use driver::SimDriver;
use theme::Theme;

/// A frame is about 40 ms (25 frames/s): up to 20 ms waiting for input, then (with a synchronous
/// driver) up to 16 ms stepping the simulator plus at most one driver call past it, then one
/// draw. A frame that handled input does not step: the answer to a key is drawn at once. With
/// the worker the stepping is a look at where the run is.
pub const INPUT_WINDOW: Duration = Duration::from_millis(20);
pub const STEP_BUDGET: Duration = Duration::from_millis(16);

/// What `keyheat` / `keyheat tui …` asked for.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// A bundled name or a path; `None` opens the picker.
    pub scenario: Option<String>,
    pub variant: Option<String>,
    /// `--engine`: another store the file lists in `engines` (its own `engine` when `None`).
    pub engine: Option<crate::engine::model::Engine>,
    pub seed: Option<u64>,
    /// `keyheat practice`: the interview session to run on the problem.
    pub session: Option<practice::Session>,
    /// `--theme`: the palette to start in.
    pub theme: theme::Palette,
}

/// Runs the UI until the user quits. The scenario is loaded before the terminal is touched, so a
/// bad name or file is a plain error message.
pub fn run(launch: &Launch, driver: Box<dyn SimDriver>) -> anyhow::Result<()> {
    let config = Config {
        theme: Theme::new(launch.theme, std::env::var("NO_COLOR").ok().as_deref()),
        state_dir: recovery::state_dir(|name| std::env::var_os(name)),
    };
    let mut app = open(launch, config, driver)?;
    app.quiz_seed = crate::quiz::seed_from_clock();
    let mut terminal = enter().context("cannot set up the terminal")?;
    let _restore = Restore;
    // A panic inside the loop restores the terminal (hook), keeps unsaved edits (below) and then
    // carries on unwinding as it would have.
    let hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        leave();
        hook(info);
    }));
    let mut frames = frame_log(std::env::var_os(FRAME_LOG).as_deref());
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| event_loop(&mut terminal, &mut app, &mut frames)));
    match outcome {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => {
            app.save_recovery();
            Err(e)
        }
        Err(panic) => {
            app.save_recovery();
            panic::resume_unwind(panic)
        }
    }
}

/// The app `launch` asks for, before any terminal: on the picker, or on the scenario (on the
/// store `--engine` names, through the path `keyheat snapshot --engine` takes), with its
/// practice session. A bad name, file, variant or store is an error here.
pub fn open(launch: &Launch, config: Config, driver: Box<dyn SimDriver>) -> anyhow::Result<App> {
    let mut app = App::new(config, driver);
    if let Some(name) = &launch.scenario {
        app.open_on(name, launch.variant.as_deref(), launch.seed, launch.engine)?;
        if let Some(session) = &launch.session {
            app.start_session(session.clone());
        }
    }
    Ok(app)
}

type Term = Terminal<CrosstermBackend<Stdout>>;

/// Names a file to which the frame loop appends, per frame drawn, the microseconds since it
/// started: how the pty test measures the longest gap between frames of the real binary.
pub const FRAME_LOG: &str = "KEYHEAT_FRAME_LOG";

/// Where frame times go: nowhere unless [`FRAME_LOG`] names a file that can be created.
struct FrameLog {
    out: Option<io::BufWriter<std::fs::File>>,
    start: Instant,
}

fn frame_log(path: Option<&std::ffi::OsStr>) -> FrameLog {
    let out = path.and_then(|p| std::fs::File::create(p).ok()).map(io::BufWriter::new);
    FrameLog { out, start: Instant::now() }
}

impl FrameLog {
    fn drawn(&mut self) {
        if let Some(out) = &mut self.out {
            use std::io::Write as _;
            // A diagnostic: a failed write loses a line, never the session.
            let _ = writeln!(out, "{}", self.start.elapsed().as_micros());
        }
    }
}

fn enter() -> io::Result<Term> {
    enable_raw_mode()?;
    let mut stdout = io::stdout();
    if let Err(e) = execute!(stdout, EnterAlternateScreen, EnableMouseCapture) {
        leave();
        return Err(e);
    }
    Terminal::new(CrosstermBackend::new(stdout)).inspect_err(|_| leave())
}

/// Puts the terminal back as it was. Safe to call more than once.
fn leave() {
    let _ = execute!(io::stdout(), DisableMouseCapture, LeaveAlternateScreen, crossterm::cursor::Show);
    let _ = disable_raw_mode();
}

/// Restores the terminal when dropped: on return, on `?`, and while unwinding.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        leave();
    }
}

fn event_loop(terminal: &mut Term, app: &mut App, frames: &mut FrameLog) -> anyhow::Result<()> {
    let mut last_step = Instant::now();
    loop {
        let frame_start = Instant::now();
        let size = terminal.size()?;
        app.refresh(ratatui::layout::Rect::new(0, 0, size.width, size.height));
        terminal.draw(|frame| ui::render(app, frame.area(), frame.buffer_mut()))?;
        frames.drawn();
        if app.quit {
            return Ok(());
        }
        // Input until the part of the frame that is not the step budget is over; every event
        // waiting is handled before stepping, so keys never queue behind the simulator.
        let wait = (frame_start + INPUT_WINDOW).saturating_duration_since(Instant::now());
        let input = event::poll(wait)?;
        if input {
            loop {
                match event::read()? {
                    Event::Key(key) => app.key(key),
                    Event::Mouse(mouse) => app.mouse(mouse),
                    // The next frame lays out for the new size.
                    Event::Resize(..) | Event::FocusGained | Event::FocusLost | Event::Paste(_) => {}
                }
                if app.quit || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        if app.quit {
            return Ok(());
        }
        if input {
            continue;
        }
        let now = Instant::now();
        let elapsed = now - last_step;
        last_step = now;
        let deadline = now + STEP_BUDGET;
        app.tick(elapsed, &mut || Instant::now() >= deadline);
    }
}
