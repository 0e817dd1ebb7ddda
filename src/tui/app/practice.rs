//! The app's side of a practice problem: the keys that reveal a hint, grade the design, show the
//! solution and submit a session; the session's clock; and giving a grade once the replay it
//! waits for reaches the end of the workload (the worker runs it there: nothing here simulates).

use std::time::Duration;

use super::App;
use super::Screen;
use crate::engine::sim::report::GoalResult;
use crate::report::practice::{self as grade_report, Ended, Grade};
use crate::tui::action::Action;
use crate::tui::files::{self, WriteError};
use crate::tui::overlay::{Confirm, Overlay};
use crate::tui::panels::status::MessageKind;
use crate::tui::practice::{Awaiting, GradeView, grade_lines};
use crate::tui::workbench::{Playback, Workbench};

impl App {
    /// Starts an interview session on the open practice problem.
    pub fn start_session(&mut self, session: crate::tui::practice::Session) {
        if let Screen::Workbench(w) = &mut self.screen
            && let Some(p) = &mut w.practice
        {
            p.session = Some(session);
        }
    }

    /// Handles a practice key on the workbench; `false` when `action` is not one.
    pub(super) fn practice_action(&mut self, action: Action) -> bool {
        let Screen::Workbench(w) = &mut self.screen else { return false };
        let message = match action {
            Action::Grade => request(w, Awaiting::Grade),
            Action::SubmitPractice => {
                match w.practice.as_ref().map(|p| p.session.as_ref().map(|s| s.ended)) {
                    Some(Some(None)) => request(w, Awaiting::End(Ended::Submitted)),
                    Some(Some(Some(_))) => {
                        Err("the session has ended and its grade report is written".to_owned())
                    }
                    _ => Err("submit belongs to a practice session: keyheat practice NAME".to_owned()),
                }
            }
            Action::ShowSolution => match &w.practice {
                None => Err("this scenario is not a practice problem".to_owned()),
                Some(p) if p.solution_shown => Ok("the solution is in the lesson pane".to_owned()),
                Some(_) => {
                    self.overlay = Some(Overlay::Confirm(Confirm::ShowSolution));
                    return true;
                }
            },
            _ => return false,
        };
        self.message = Some(match message {
            Ok(text) => (text, MessageKind::Info),
            Err(text) => (text, MessageKind::Error),
        });
        true
    }

    /// The candidate confirmed: the solution and the lesson are shown (and the grade says so).
    pub(super) fn show_solution(&mut self) {
        let Screen::Workbench(w) = &mut self.screen else { return };
        if let Some(p) = &mut w.practice {
            p.solution_shown = true;
            p.solution_asked = true;
            w.lesson = true;
            w.scroll_lesson_to("Solution:");
            let name = w.loaded.scenario.practice.as_ref().map_or("", |p| p.solution.as_str());
            self.message =
                Some((format!("the solution is in the lesson pane; v replays {name}"), MessageKind::Info));
        }
    }

    /// Moves a session's clock by `elapsed` real time; when it runs out, the session ends with
    /// the design as applied.
    pub(super) fn practice_tick(&mut self, elapsed: Duration) {
        let Screen::Workbench(w) = &mut self.screen else { return };
        let Some(session) = w.practice.as_mut().and_then(|p| p.session.as_mut()) else { return };
        if session.ended.is_some() {
            return;
        }
        session.elapsed += elapsed;
        let out = session.left().is_some_and(|l| l.is_zero());
        let ending = w.practice.as_ref().is_some_and(|p| matches!(p.awaiting, Some(Awaiting::End(_))));
        if out && !ending {
            let text = match request(w, Awaiting::End(Ended::OutOfTime)) {
                Ok(_) => {
                    "time is up: grading the design as applied (an unapplied draft is not graded)".to_owned()
                }
                Err(e) => format!("time is up, and the design cannot be graded: {e}"),
            };
            self.message = Some((text, MessageKind::Info));
        }
    }

    /// Gives the grade a key asked for, once the replay is at the end of the workload.
    pub(super) fn deliver_grade(&mut self) {
        if self.overlay.is_some() {
            return;
        }
        let Screen::Workbench(w) = &mut self.screen else { return };
        let Some(awaiting) = w.practice.as_ref().and_then(|p| p.awaiting) else { return };
        let Some(p) = w.progress.filter(crate::tui::view::Progress::finished) else { return };
        let whole = p.end.since(p.start).as_secs_f64();
        let Some(report) = w.view.report.as_ref().filter(|r| r.duration_s >= whole) else { return };
        let goals = report.goals.clone();
        let (seed, replay_s) = (report.seed, report.duration_s);
        let passed = goals.iter().all(GoalResult::passed);
        let mut error = None;
        if let Awaiting::End(ended) = awaiting {
            error = write_report(w, &goals, seed, replay_s, ended).err();
        }
        let name = w.current().name.clone();
        let hints = w.loaded.scenario.practice.as_ref().map_or(0, |p| p.hints.len());
        let Some(practice) = w.practice.as_mut() else { return };
        practice.awaiting = None;
        // A design that passes has earned the lesson that explains it.
        practice.solution_shown |= passed;
        let mut lines = grade_lines(&name, &goals, practice, hints, self.theme);
        if let Some(e) = &error {
            lines.push(ratatui::text::Line::styled(
                format!("the grade report was not written: {e}"),
                self.theme.bad(),
            ));
        }
        if passed {
            w.lesson = true;
            w.scroll_lesson_to("Solution:");
        }
        self.overlay = Some(Overlay::Grade(GradeView { lines, scroll: 0 }));
    }
}

/// Asks for a grade: at once if the replay is at its end, else once the worker gets there.
fn request(w: &mut Workbench, what: Awaiting) -> Result<String, String> {
    if w.practice.is_none() {
        return Err("grading in the workbench is for practice problems; keyheat run FILE --fail-on-goals grades any scenario".to_owned());
    }
    if w.progress.is_none() && w.loading.is_none() {
        return Err("no replay to grade".to_owned());
    }
    let finished = w.progress.is_some_and(|p| p.finished());
    if let Some(p) = w.practice.as_mut() {
        p.awaiting = Some(what);
    }
    if finished {
        return Ok("grading…".to_owned());
    }
    w.playback = Playback::ToEnd;
    let at = w.progress.map_or(0.0, |p| p.fraction() * 100.0);
    Ok(format!("grading {}: replaying to the end of the workload ({at:.0}% done)…", w.current().name))
}

/// Writes the session's Markdown grade report; the session ends either way.
fn write_report(
    w: &mut Workbench,
    goals: &[crate::engine::sim::report::GoalResult],
    seed: u64,
    replay_s: f64,
    ended: Ended,
) -> Result<(), String> {
    let keys = w.loaded.variant_source(w.variant).map(|v| v.text).unwrap_or_default();
    let record = w.practice.as_ref().and_then(|p| p.record(ended));
    let Some(session) = w.practice.as_mut().and_then(|p| p.session.as_mut()) else { return Ok(()) };
    session.ended = Some(ended);
    let (path, overwrite) = (session.report.clone(), session.overwrite);
    let grade = Grade {
        scenario: &w.loaded.scenario,
        variant: &w.current().name,
        keys: &keys,
        seed,
        replay_s,
        goals,
        session: record.as_ref(),
    };
    let mut bytes = Vec::new();
    grade_report::markdown(&mut bytes, &grade).map_err(|e| e.to_string())?;
    match files::write(&path, &bytes, overwrite) {
        Ok(()) => Ok(()),
        Err(WriteError::Exists { .. }) => {
            Err(format!("{} exists (keyheat practice --force replaces it)", path.display()))
        }
        Err(WriteError::Io(e)) => Err(format!("cannot write {}: {e}", path.display())),
    }
}
