//! A progress line on stderr for long headless runs: shown only when stderr is a terminal and the
//! run has taken more than a second, redrawn in place when the percentage changes, and cleared at
//! the end so the terminal holds only the report. Pipes and files never see it.
//!
//! This is the one place a headless command reads the wall clock, and only to decide whether a
//! run is slow enough to deserve the line; the simulation never sees it.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

/// A run shorter than this finishes without a progress line.
const QUIET_FOR: Duration = Duration::from_secs(1);

pub struct Progress {
    label: String,
    started: Instant,
    enabled: bool,
    /// The percentage on screen, if the line is drawn.
    shown: Option<u32>,
}

impl Progress {
    pub fn new(label: impl Into<String>) -> Progress {
        Progress::with_terminal(label, io::stderr().is_terminal())
    }

    fn with_terminal(label: impl Into<String>, enabled: bool) -> Progress {
        Progress { label: label.into(), started: Instant::now(), enabled, shown: None }
    }

    /// The run is `fraction` (0..=1) done.
    pub fn update(&mut self, fraction: f64) {
        if !self.enabled || self.started.elapsed() < QUIET_FOR {
            return;
        }
        let percent = percent(fraction);
        if self.shown == Some(percent) {
            return;
        }
        self.shown = Some(percent);
        // A progress line that cannot be drawn is not worth failing the run for.
        let _ = draw(&mut io::stderr().lock(), &self.label, percent);
    }

    /// Clears the line, if one was drawn.
    pub fn finish(&mut self) {
        if self.shown.take().is_some() {
            let _ = clear(&mut io::stderr().lock());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Whole percent, clamped: the simulator's fractions are in 0..=1 but a line must never show 101%.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn percent(fraction: f64) -> u32 {
    (fraction.clamp(0.0, 1.0) * 100.0).floor() as u32
}

fn draw(out: &mut impl Write, label: &str, percent: u32) -> io::Result<()> {
    // Carriage return, then erase the line: the new text replaces the old in place.
    write!(out, "\r\x1b[2K{label}: {percent:>3}%")?;
    out.flush()
}

fn clear(out: &mut impl Write) -> io::Result<()> {
    write!(out, "\r\x1b[2K")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_in_place_and_clamps() {
        let mut out = Vec::new();
        draw(&mut out, "orders/naive", percent(0.425)).unwrap();
        clear(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "\r\x1b[2Korders/naive:  42%\r\x1b[2K");
        assert_eq!((percent(-1.0), percent(1.7), percent(f64::NAN)), (0, 100, 0));
    }

    #[test]
    fn stays_silent_off_a_terminal_and_for_short_runs() {
        let mut off = Progress::with_terminal("x", false);
        off.update(0.5);
        assert_eq!(off.shown, None);
        let mut quick = Progress::with_terminal("x", true);
        quick.update(0.5);
        assert_eq!(quick.shown, None, "a run under a second draws nothing");
    }
}
