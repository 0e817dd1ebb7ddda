//! The grade report of a practice problem, in Markdown for a mentor to read: the prompt, the
//! candidate's keys (the variant as they wrote it), every goal with its value and verdict, the
//! hints they asked for and the time they took. `keyheat practice` writes it when a session ends
//! (submitted or out of time), and `keyheat practice FILE --variant V --grade` writes the same
//! report for a file graded headless. Writes into `impl Write`; never reads a clock.

use std::io::{self, Write};
use std::time::Duration;

use super::markdown::{Align, escape, table};
use crate::engine::model::Scenario;
use crate::engine::sim::report::{GoalResult, GoalStatus};

/// What the candidate did, as the session recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// Hints revealed, of the problem's hints.
    pub hints_used: usize,
    /// Whether the solution was shown before the grade (a grade after it says so).
    pub solution_seen: bool,
    pub time_taken: Duration,
    /// The session's time limit, if it had one.
    pub limit: Option<Duration>,
    /// Why the session ended.
    pub ended: Ended,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Submitted,
    OutOfTime,
}

/// One graded design.
pub struct Grade<'a> {
    pub scenario: &'a Scenario,
    /// The variant graded, and its text (RON) as the candidate wrote it.
    pub variant: &'a str,
    pub keys: &'a str,
    pub seed: u64,
    /// How long the replay ran (simulated seconds).
    pub replay_s: f64,
    pub goals: &'a [GoalResult],
    /// `None` for a file graded headless: no session recorded hints or time.
    pub session: Option<&'a Session>,
}

impl Grade<'_> {
    pub fn passed(&self) -> bool {
        self.goals.iter().all(GoalResult::passed)
    }
}

/// `12 min 5 s`, `45 s`.
pub fn minutes(d: Duration) -> String {
    let secs = d.as_secs();
    match (secs / 60, secs % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

pub fn markdown(out: &mut impl Write, g: &Grade<'_>) -> io::Result<()> {
    let s = g.scenario;
    writeln!(out, "# Practice grade: {}", s.title.strip_prefix("Practice: ").unwrap_or(&s.title))?;
    writeln!(out)?;
    let passed = g.goals.iter().filter(|r| r.passed()).count();
    let verdict = if g.passed() { "**PASS**" } else { "**FAIL**" };
    writeln!(
        out,
        "{verdict}: {passed} of {} goals met by variant `{}` (problem `{}`, seed {}, {} of simulated time).",
        g.goals.len(),
        g.variant,
        s.name,
        g.seed,
        crate::engine::planner::numbers::span(g.replay_s)
    )?;
    writeln!(out)?;
    if let Some(p) = &s.practice {
        writeln!(out, "## Prompt")?;
        writeln!(out)?;
        writeln!(out, "{}", p.prompt)?;
        writeln!(out)?;
    }
    writeln!(out, "## Access patterns")?;
    writeln!(out)?;
    for p in &s.patterns {
        let description =
            if p.description.is_empty() { String::new() } else { format!(": {}", p.description) };
        writeln!(out, "- `{}`{description}", p.name)?;
    }
    writeln!(out)?;
    writeln!(out, "## The candidate's keys")?;
    writeln!(out)?;
    writeln!(out, "```ron\n{}\n```", g.keys.trim_end())?;
    writeln!(out)?;
    writeln!(out, "## Goals")?;
    writeln!(out)?;
    let rows: Vec<Vec<String>> = g
        .goals
        .iter()
        .map(|r| {
            vec![
                crate::report::run::goal_mark(r.status).to_owned(),
                crate::report::run::goal_title(r),
                r.value.map_or_else(
                    || "—".to_owned(),
                    |_| super::run::goal_value(r.status, r.value, r.lower_bound, r.unit),
                ),
                r.unit.format(r.target),
                r.detail.clone(),
                r.hint.as_ref().map_or_else(String::new, |h| h.number.to_string()),
            ]
        })
        .collect();
    let columns = [
        ("", Align::Left),
        ("goal", Align::Left),
        ("value", Align::Right),
        ("target", Align::Right),
        ("measured", Align::Left),
        ("hint", Align::Right),
    ];
    table(out, &columns, &rows)?;
    let missed: Vec<&GoalResult> =
        g.goals.iter().filter(|r| r.status == GoalStatus::Failed && r.hint.is_some()).collect();
    if !missed.is_empty() {
        writeln!(out, "Hints that help with the goals missed:")?;
        writeln!(out)?;
        for r in missed {
            if let Some(h) = &r.hint {
                writeln!(out, "- {} — hint {}: {}", escape(&r.name), h.number, h.text)?;
            }
        }
        writeln!(out)?;
    }
    writeln!(out, "## Session")?;
    writeln!(out)?;
    let hints = s.practice.as_ref().map_or(0, |p| p.hints.len());
    match g.session {
        Some(session) => {
            writeln!(out, "- hints used: {} of {hints}", session.hints_used)?;
            let seen = if session.solution_seen { "yes (before this grade)" } else { "no" };
            writeln!(out, "- solution shown: {seen}")?;
            let limit = session.limit.map_or_else(String::new, |l| format!(" of {}", minutes(l)));
            writeln!(out, "- time taken: {}{limit}", minutes(session.time_taken))?;
            let ended = match session.ended {
                Ended::Submitted => "submitted by the candidate",
                Ended::OutOfTime => "time ran out",
            };
            writeln!(out, "- ended: {ended}")?;
        }
        None => {
            writeln!(
                out,
                "- graded headless from the file: no session recorded hints or time ({hints} hints)"
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::goals::GoalUnit;
    use crate::engine::sim::report::GoalHint;

    fn goal(name: &str, passed: bool, hint: Option<usize>) -> GoalResult {
        GoalResult {
            name: name.to_owned(),
            status: GoalStatus::of(passed),
            value: Some(2.0),
            lower_bound: false,
            target: 1.0,
            unit: GoalUnit::Requests,
            detail: "measured | detail".to_owned(),
            hint: hint.map(|number| GoalHint { number, text: format!("hint text {number}") }),
        }
    }

    fn render(goals: &[GoalResult], session: Option<&Session>) -> String {
        let loaded = crate::scenario::load("practice-chat").expect("bundled");
        let grade = Grade {
            scenario: &loaded.scenario,
            variant: "mine",
            keys: "(name: \"mine\")",
            seed: 21,
            replay_s: 3600.0,
            goals,
            session,
        };
        let mut out = Vec::new();
        markdown(&mut out, &grade).expect("writes into a Vec");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn says_the_verdict_the_goals_and_the_session() {
        let session = Session {
            hints_used: 2,
            solution_seen: false,
            time_taken: Duration::from_secs(725),
            limit: Some(Duration::from_secs(1800)),
            ended: Ended::OutOfTime,
        };
        let cases: [(&[GoalResult], Option<&Session>, &[&str]); 3] = [
            (
                &[goal("a", true, None), goal("b", false, Some(3))],
                Some(&session),
                &[
                    "**FAIL**: 1 of 2 goals met by variant `mine`",
                    "## Prompt",
                    "- `my-conversations`: The sidebar",
                    "```ron\n(name: \"mine\")\n```",
                    "| ✘ | b | 2 requests | 1 request | measured \\| detail | 3 |",
                    "- b — hint 3: hint text 3",
                    "- hints used: 2 of 3",
                    "- time taken: 12 min 5 s of 30 min",
                    "- ended: time ran out",
                ],
            ),
            (
                &[goal("a", true, Some(1))],
                Some(&session),
                &["**PASS**: 1 of 1 goals", "- solution shown: no"],
            ),
            (&[goal("a", true, None)], None, &["graded headless from the file"]),
        ];
        for (goals, session, wanted) in cases {
            let text = render(goals, session);
            for w in wanted {
                assert!(text.contains(w), "{w:?} not in:\n{text}");
            }
        }
        // A passed goal's hint is not listed as help.
        assert!(!render(&[goal("a", true, Some(1))], None).contains("Hints that help"));
    }

    #[test]
    fn writes_minutes_as_people_read_them() {
        for (secs, text) in [(45, "45 s"), (60, "1 min"), (725, "12 min 5 s")] {
            assert_eq!(minutes(Duration::from_secs(secs)), text);
        }
    }
}
