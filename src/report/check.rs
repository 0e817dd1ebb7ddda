//! The check report (`keyheat check`): the plan of one variant, its warnings, what the plan
//! predicts for each goal and, for a practice problem, the prompt, the hints and how to answer.
//! Text lives beside the other text reports (`text.rs`), Markdown in `check/md.rs`; the JSON shape
//! is [`CheckReport`]: the planner's `Plan` with `goals` and `practice` beside it.
//!
//! A practice problem's solution variant is never named here (as in the TUI and `keyheat list`),
//! unless the user asked to check it by name.

mod md;

use std::io::{self, Write};

use serde::Serialize;

use super::{RunFormat, json, text};
use crate::engine::goals::{self, GoalForecast};
use crate::engine::model::{PatternId, Practice, Scenario, Variant};
use crate::engine::planner::{Plan, Subject};

/// The JSON check report: the plan's fields, then the goals and the practice problem.
#[derive(Debug, Serialize)]
pub struct CheckReport<'a> {
    #[serde(flatten)]
    pub plan: &'a Plan,
    /// What the plan predicts for each goal (a forecast, not a measurement).
    pub goals: Vec<GoalForecast>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub practice: Option<PracticeView<'a>>,
}

/// What a practice problem shows: its prompt and hints, never its solution.
#[derive(Debug, Serialize)]
pub struct PracticeView<'a> {
    pub prompt: &'a str,
    pub hints: &'a [String],
}

impl<'a> CheckReport<'a> {
    pub fn new(scenario: &'a Scenario, variant: &Variant, plan: &'a Plan) -> CheckReport<'a> {
        CheckReport {
            plan,
            goals: goals::forecast(scenario, variant, plan),
            practice: scenario
                .practice
                .as_ref()
                .map(|p: &Practice| PracticeView { prompt: &p.prompt, hints: &p.hints }),
        }
    }
}

pub fn write(
    out: &mut impl Write,
    scenario: &Scenario,
    variant: &Variant,
    plan: &Plan,
    format: RunFormat,
) -> io::Result<()> {
    let report = CheckReport::new(scenario, variant, plan);
    match format {
        RunFormat::Text => text::check(out, scenario, &report),
        RunFormat::Json => json::write(out, &report),
        RunFormat::Md => md::write(out, scenario, &report),
    }
}

/// How a practice problem is answered and graded, in one sentence (the README says the same).
pub fn how_to_answer(scenario: &Scenario) -> String {
    format!(
        "To answer: write your design as a new variant in a copy of the scenario file (in `keyheat tui {}`, `e` edits a variant and `w` writes the file), then `keyheat check FILE --variant NAME` shows how it serves each pattern and `keyheat run FILE --variant NAME --fail-on-goals` grades it (exit 3 while a goal fails).",
        scenario.name
    )
}

/// The codes of the warnings about how `pattern` is served, for its row of the plan's table.
pub fn flags(plan: &Plan, pattern: PatternId) -> Vec<&'static str> {
    plan.warnings.iter().filter(|w| w.about == Subject::Pattern(pattern)).map(|w| w.code.id()).collect()
}

/// ✔ / ✘ for a prediction, ? for a goal only a run can judge.
pub fn mark(forecast: &GoalForecast) -> &'static str {
    match forecast.predicted {
        Some(true) => "✔",
        Some(false) => "✘",
        None => "?",
    }
}

/// "predicted from the plan: 1 ✘, 2 ✔; 2 only `keyheat run` can judge".
pub fn summary(forecasts: &[GoalForecast]) -> String {
    let count = |p: Option<bool>| forecasts.iter().filter(|f| f.predicted == p).count();
    let (failed, passed, open) = (count(Some(false)), count(Some(true)), count(None));
    let mut parts = Vec::new();
    if failed + passed > 0 {
        let mut predicted = Vec::new();
        if failed > 0 {
            predicted.push(format!("{failed} ✘"));
        }
        if passed > 0 {
            predicted.push(format!("{passed} ✔"));
        }
        parts.push(format!("predicted from the plan: {}", predicted.join(", ")));
    }
    if open > 0 {
        parts.push(format!("{open} only `keyheat run` can judge"));
    }
    parts.join("; ")
}

/// The line under a goal: what the prediction rests on, labelled as one.
pub fn detail(forecast: &GoalForecast) -> String {
    match forecast.predicted {
        Some(_) => format!("predicted: {}", forecast.detail),
        None => forecast.detail.clone(),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::engine::planner;
    use crate::scenario;

    pub(super) fn render(name: &str, variant: Option<&str>, format: RunFormat) -> String {
        let loaded = scenario::load(name).unwrap();
        let variant = loaded.variant(variant).unwrap();
        let plan = planner::plan(&loaded.scenario, variant);
        let mut out = Vec::new();
        write(&mut out, &loaded.scenario, variant, &plan, format).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn json_adds_goals_and_the_practice_problem_to_the_plan() {
        let json: serde_json::Value =
            serde_json::from_str(&render("practice-top-customers", None, RunFormat::Json)).unwrap();
        assert_eq!(json["variant"], "naive");
        assert!(json["patterns"].as_array().is_some_and(|p| !p.is_empty()), "{json}");
        let practice = &json["practice"];
        assert!(practice["prompt"].as_str().is_some_and(|p| p.contains("top 10 customers")), "{json}");
        assert_eq!(practice["hints"].as_array().map(Vec::len), Some(3));
        assert!(practice.get("solution").is_none(), "{practice}");
        let goal = &json["goals"][0];
        assert_eq!(
            (goal["name"].as_str(), goal["predicted"].as_bool()),
            (Some("the dashboard never scans"), Some(false))
        );
        assert_eq!(goal["hint"]["number"], 1);
        assert!(goal["related"][0].as_str().is_some_and(|r| r.starts_with("scan")), "{goal}");
        // A goal only a run can judge has no prediction.
        assert!(json["goals"].as_array().unwrap().iter().any(|g| g["predicted"].is_null()), "{json}");
        // A scenario that is not a practice problem has no `practice` field.
        let orders: serde_json::Value =
            serde_json::from_str(&render("orders", None, RunFormat::Json)).unwrap();
        assert!(orders.get("practice").is_none() && orders["goals"].is_array(), "{orders}");
    }

    #[test]
    fn summarises_predictions_apart_from_what_only_a_run_judges() {
        let f = |predicted| GoalForecast {
            name: "g".to_owned(),
            predicted,
            detail: "d".to_owned(),
            related: Vec::new(),
            hint: None,
        };
        let cases = [
            (
                vec![f(Some(false)), f(Some(true)), f(None)],
                "predicted from the plan: 1 ✘, 1 ✔; 1 only `keyheat run` can judge",
            ),
            (vec![f(Some(true)), f(Some(true))], "predicted from the plan: 2 ✔"),
            (vec![f(None)], "1 only `keyheat run` can judge"),
        ];
        for (forecasts, text) in cases {
            assert_eq!(summary(&forecasts), text);
        }
        assert_eq!((mark(&f(None)), detail(&f(Some(true)))), ("?", "predicted: d".to_owned()));
    }
}
