//! A practice problem in the workbench, as a candidate meets it: the prompt and the access
//! patterns first, hints revealed one at a time on request, the solution and the lesson that
//! explains it only after an explicit, confirmed request or once the design passes, a grade of the
//! current design, and (in a `keyheat practice` session) a countdown and the Markdown grade report.
//!
//! The grade reads the replay's own judged report when it reaches the end of the workload — the
//! same engine, seed and goals as `keyheat run FILE --variant NAME --fail-on-goals` — so nothing
//! here simulates; a grade asked for mid-replay waits for the worker to get there. The session's
//! clock is the real time the frame loop reports through `App::tick`, never read here.

use std::path::PathBuf;
use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::engine::model::Scenario;
use crate::engine::sim::report::{GoalResult, GoalStatus};
use crate::report::practice::{Ended, Session as Record, minutes};
use crate::tui::theme::Theme;

/// What the candidate has been shown and asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Practice {
    /// Hints revealed so far, in order (part of the grade).
    pub hints_shown: usize,
    /// The solution and the lesson are shown: asked for (and confirmed), or earned by a pass.
    pub solution_shown: bool,
    /// Whether the solution was asked for before any design passed.
    pub solution_asked: bool,
    /// A grade asked for before the replay reached its end: given when it gets there.
    pub awaiting: Option<Awaiting>,
    pub session: Option<Session>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaiting {
    /// `g`: show the grade.
    Grade,
    /// A session ends (submitted, or out of time): grade, write the report, show the grade.
    End(Ended),
}

/// A timed interview session (`keyheat practice NAME [--minutes N]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub limit: Option<Duration>,
    /// Real time since the session opened, as the frame loop reported it.
    pub elapsed: Duration,
    /// Where the grade report goes, and whether it may replace a file there (`--force`).
    pub report: PathBuf,
    pub overwrite: bool,
    /// Set once the session has ended and its report is written.
    pub ended: Option<Ended>,
}

impl Session {
    pub fn left(&self) -> Option<Duration> {
        self.limit.map(|l| l.saturating_sub(self.elapsed))
    }

    /// `⏱ 29:05 left`, `⏱ time is up`, `⏱ 12:40` (no limit: time taken); `None` once ended.
    pub fn countdown(&self) -> Option<String> {
        if self.ended.is_some() {
            return None;
        }
        let clock = |d: Duration| format!("{}:{:02}", d.as_secs() / 60, d.as_secs() % 60);
        Some(match self.left() {
            Some(left) if left.is_zero() => "⏱ time is up".to_owned(),
            Some(left) => format!("⏱ {} left", clock(left)),
            None => format!("⏱ {}", clock(self.elapsed)),
        })
    }
}

impl Practice {
    /// Reveals the next hint; its number, or `None` when all are shown.
    pub fn next_hint(&mut self, scenario: &Scenario) -> Option<usize> {
        let total = scenario.practice.as_ref().map_or(0, |p| p.hints.len());
        (self.hints_shown < total).then(|| {
            self.hints_shown += 1;
            self.hints_shown
        })
    }

    /// What the session recorded, for the report.
    pub fn record(&self, ended: Ended) -> Option<Record> {
        let s = self.session.as_ref()?;
        Some(Record {
            hints_used: self.hints_shown,
            solution_seen: self.solution_asked,
            time_taken: s.limit.map_or(s.elapsed, |l| s.elapsed.min(l)),
            limit: s.limit,
            ended,
        })
    }
}

/// The lesson pane of a practice problem: the prompt, the access patterns, the hints revealed so
/// far and how to ask for more; the lesson and the solution only once shown.
pub fn lesson_lines(scenario: &Scenario, practice: &Practice, keys: &Keys) -> Vec<String> {
    let Some(p) = &scenario.practice else { return Vec::new() };
    let mut lines = vec![format!("Practice: {}", p.prompt)];
    let patterns: Vec<String> = scenario
        .patterns
        .iter()
        .map(|pat| {
            if pat.description.is_empty() {
                pat.name.clone()
            } else {
                format!("{} ({})", pat.name, pat.description.trim_end_matches('.'))
            }
        })
        .collect();
    lines.push(format!("Access patterns: {}.", patterns.join("; ")));
    lines.extend(
        p.hints.iter().take(practice.hints_shown).enumerate().map(|(i, h)| format!("Hint {}: {h}", i + 1)),
    );
    let left = p.hints.len() - practice.hints_shown.min(p.hints.len());
    let more = match left {
        0 => "all hints shown".to_owned(),
        1 => format!("{} a hint (1 left)", keys.hint),
        n => format!("{} a hint ({n} left)", keys.hint),
    };
    if practice.solution_shown {
        let solution = scenario.variants.iter().find(|v| v.name == p.solution);
        let described = solution
            .filter(|v| !v.description.is_empty())
            .map_or_else(String::new, |v| format!(": {}", v.description));
        lines.push(format!("Solution: the variant {}{described} (v shows it)", p.solution));
        if !scenario.lesson.is_empty() {
            lines.push(format!("Lesson: {}", scenario.lesson));
        }
        lines.push(format!("{more} · {} grade your design", keys.grade));
    } else {
        lines
            .push(format!("{more} · {} grade your design · {} show the solution", keys.grade, keys.solution));
    }
    lines
}

/// The keys the lesson pane names, as the key table has them.
#[derive(Debug, Clone)]
pub struct Keys {
    pub hint: String,
    pub grade: String,
    pub solution: String,
}

/// The grade of the design that ran: a verdict, then every goal ✔/✘ with its value, what was
/// measured (or projected) and the hint it links, then the hints used.
pub fn grade_lines(
    variant: &str,
    goals: &[GoalResult],
    practice: &Practice,
    hints: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let passed = goals.iter().filter(|g| g.passed()).count();
    let all = passed == goals.len();
    let verdict = if all { "PASS" } else { "FAIL" };
    let mut lines = vec![
        Line::from(vec![
            Span::styled(format!("{verdict} "), if all { theme.ok() } else { theme.bad() }),
            Span::raw(format!("{passed} of {} goals met by variant {variant}", goals.len())),
        ]),
        Line::styled(
            "the same verdict as keyheat run FILE --variant NAME --fail-on-goals on the written file",
            theme.dim(),
        ),
        Line::raw(""),
    ];
    for g in goals {
        let mark = crate::report::run::goal_mark(g.status);
        let style = match g.status {
            GoalStatus::Passed => theme.ok(),
            GoalStatus::Failed => theme.bad(),
            GoalStatus::NotGraded => theme.dim(),
        };
        let value = crate::report::run::goal_value(g.status, g.value, g.lower_bound, g.unit);
        lines.push(Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::raw(g.name.clone()),
            Span::styled(format!("  {value}"), theme.header()),
        ]));
        lines.push(Line::styled(format!("  {}", g.detail), theme.dim()));
        if let Some(h) = g.hint.as_ref().filter(|_| g.status == GoalStatus::Failed) {
            lines.push(Line::raw(format!("  see hint {}: {}", h.number, h.text)));
        }
    }
    lines.push(Line::raw(""));
    let seen = if practice.solution_asked { " · solution shown" } else { "" };
    lines.push(Line::raw(format!("hints used: {} of {hints}{seen}", practice.hints_shown)));
    if let Some(s) = &practice.session {
        lines.push(Line::raw(format!("time: {}", minutes(s.elapsed))));
        if s.ended.is_some() {
            lines.push(Line::raw(format!("grade report written to {}", s.report.display())));
        }
    }
    lines
}

/// The grade overlay: lines computed when the grade was given.
pub struct GradeView {
    pub lines: Vec<Line<'static>>,
    pub scroll: u16,
}

impl GradeView {
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        let width = area.width.saturating_sub(4).clamp(20, 96);
        let height = area.height.saturating_sub(2).max(5);
        let rect = crate::tui::layout::centered(area, width, height);
        crate::tui::panels::clear(rect, buf, theme);
        let block = crate::tui::panels::framed("Grade", true, theme)
            .title_bottom(Span::styled(" ↑↓ scroll · Esc close ", theme.dim()));
        Paragraph::new(self.lines.clone())
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((self.scroll, 0))
            .render(rect, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::goals::GoalUnit;
    use crate::engine::sim::report::GoalHint;

    fn keys() -> Keys {
        Keys { hint: "h".into(), grade: "g".into(), solution: "A".into() }
    }

    /// practice-sensor's lesson tells the answer; the pane keeps it (and the solution's
    /// description) out until the solution is shown.
    #[test]
    fn the_pane_opens_on_the_prompt_and_reveals_hints_one_at_a_time() {
        for name in [
            "practice-chat",
            "practice-sensor",
            "practice-search",
            "practice-social",
            "practice-top-customers",
        ] {
            let loaded = crate::scenario::load(name).expect("bundled");
            let s = &loaded.scenario;
            let p = s.practice.as_ref().expect("practice");
            let solution = s.variants.iter().find(|v| v.name == p.solution).expect("solution");
            let mut practice = Practice::default();
            let text = lesson_lines(s, &practice, &keys()).join("\n");
            assert!(text.starts_with(&format!("Practice: {}", p.prompt)), "{name}: {text}");
            for pattern in &s.patterns {
                assert!(text.contains(&pattern.name), "{name}: {} missing", pattern.name);
            }
            assert!(!text.contains(&s.lesson) && !text.contains("Hint 1:"), "{name}: {text}");
            assert!(solution.description.is_empty() || !text.contains(&solution.description), "{name}");
            for n in 1..=p.hints.len() {
                assert_eq!(practice.next_hint(s), Some(n));
                let text = lesson_lines(s, &practice, &keys()).join("\n");
                assert!(text.contains(&format!("Hint {n}: {}", p.hints[n - 1])), "{name}");
                assert!(!text.contains(&format!("Hint {}:", n + 1)), "{name}: hint {} early", n + 1);
            }
            assert_eq!(practice.next_hint(s), None);
            practice.solution_shown = true;
            let text = lesson_lines(s, &practice, &keys()).join("\n");
            assert!(text.contains(&format!("Lesson: {}", s.lesson)), "{name}");
            assert!(text.contains(&format!("Solution: the variant {}", p.solution)), "{name}");
        }
    }

    #[test]
    fn counts_down_and_stops_at_zero() {
        let session = |elapsed: u64, limit: Option<u64>| Session {
            limit: limit.map(Duration::from_secs),
            elapsed: Duration::from_secs(elapsed),
            report: PathBuf::from("r.md"),
            overwrite: false,
            ended: None,
        };
        let cases = [
            (session(55, Some(1800)), "⏱ 29:05 left"),
            (session(1800, Some(1800)), "⏱ time is up"),
            (session(2000, Some(1800)), "⏱ time is up"),
            (session(760, None), "⏱ 12:40"),
        ];
        for (s, text) in cases {
            assert_eq!(s.countdown().as_deref(), Some(text));
        }
        let ended = Session { ended: Some(Ended::Submitted), ..session(1, None) };
        assert_eq!(ended.countdown(), None);
    }

    #[test]
    fn the_grade_gives_the_verdict_each_goal_and_the_hint_of_a_miss() {
        let goal = |name: &str, passed: bool| GoalResult {
            name: name.to_owned(),
            status: GoalStatus::of(passed),
            value: Some(3.0),
            lower_bound: false,
            target: 2.0,
            unit: GoalUnit::Requests,
            detail: format!("{name} detail"),
            hint: Some(GoalHint { number: 2, text: "bucket it".to_owned() }),
        };
        let practice = Practice { hints_shown: 1, ..Practice::default() };
        let text = |goals: &[GoalResult]| {
            grade_lines("mine", goals, &practice, 3, Theme::MONO)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        let failed = text(&[goal("fan-out", false), goal("scan", true)]);
        assert_eq!(failed[0], "FAIL 1 of 2 goals met by variant mine");
        assert!(failed.contains(&"✘ fan-out  3 requests".to_owned()), "{failed:?}");
        assert!(failed.contains(&"  see hint 2: bucket it".to_owned()), "{failed:?}");
        assert_eq!(failed.iter().filter(|l| l.contains("see hint")).count(), 1, "{failed:?}");
        assert!(failed.contains(&"hints used: 1 of 3".to_owned()), "{failed:?}");
        assert_eq!(text(&[goal("scan", true)])[0], "PASS 1 of 1 goals met by variant mine");
    }
}
