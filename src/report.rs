//! Reports: what `keyheat list`, `check`, `run`, `compare` and `analyze` print, as text for a terminal, JSON
//! for tools, and (for runs and comparisons) Markdown for a README or an issue. Writers take
//! `impl Write` so tests render into a `Vec<u8>`; the JSON shapes are `#[derive(Serialize)]`
//! structs: the check report is the planner's `Plan`, the run report the simulator's `RunReport`.
//! The planner's verdicts in that plan are worded once, in `reasons`, for every format.

pub mod analyze;
pub mod check;
pub mod compare;
mod findings;
pub(crate) mod json;
pub(crate) mod markdown;
pub mod practice;
mod reasons;
pub mod run;
mod text;
pub mod verdict;

use std::io::{self, Write};

use serde::Serialize;

use crate::engine::model::{Scenario, Variant};
use crate::engine::planner::Plan;
use crate::scenario::Loaded;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// How `check`, `run` and `compare` print: `list` has no Markdown form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum RunFormat {
    #[default]
    Text,
    Json,
    /// Markdown tables, for a README or an issue.
    Md,
}

/// One line of `keyheat list`.
#[derive(Debug, Clone, Serialize)]
pub struct ListEntry {
    pub name: String,
    pub title: String,
    /// `scenario`, or `practice` for a practice problem.
    pub kind: &'static str,
    pub engine: &'static str,
    /// The key designs to try; a practice problem's solution is left out.
    pub variants: Vec<String>,
    pub patterns: usize,
}

impl ListEntry {
    pub fn new(scenario: &Scenario) -> ListEntry {
        ListEntry {
            name: scenario.name.clone(),
            title: scenario.title.clone(),
            kind: if scenario.practice.is_some() { "practice" } else { "scenario" },
            engine: scenario.engine.id(),
            variants: scenario
                .variants
                .iter()
                .filter(|v| scenario.practice.as_ref().is_none_or(|p| p.solution != v.name))
                .map(|v| v.name.clone())
                .collect(),
            patterns: scenario.patterns.len(),
        }
    }
}

pub fn list(out: &mut impl Write, scenarios: &[Loaded], format: Format) -> io::Result<()> {
    let entries: Vec<ListEntry> = scenarios.iter().map(|l| ListEntry::new(&l.scenario)).collect();
    match format {
        Format::Text => text::list(out, &entries),
        Format::Json => json::write(out, &json::List { scenarios: &entries }),
    }
}

/// The check report of `plan` (the plan of `variant`): see [`check`](mod@check).
pub fn check(
    out: &mut impl Write,
    scenario: &Scenario,
    variant: &Variant,
    plan: &Plan,
    format: RunFormat,
) -> io::Result<()> {
    check::write(out, scenario, variant, plan, format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::planner;
    use crate::scenario;

    fn render(name: &str, variant: &str, format: RunFormat) -> String {
        let loaded = scenario::load(name).unwrap();
        let variant = loaded.variant(Some(variant)).unwrap();
        let plan = planner::plan(&loaded.scenario, variant);
        let mut out = Vec::new();
        check(&mut out, &loaded.scenario, variant, &plan, format).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn text_reports_fit_80_columns() {
        for (name, _, _) in scenario::BUNDLED {
            for variant in ["naive", "recommended"] {
                let text = render(name, variant, RunFormat::Text);
                for line in text.lines() {
                    assert!(line.chars().count() <= 80, "{name}/{variant}: {line:?}");
                }
                assert!(
                    text.contains("Access patterns") && text.contains("key condition / fan-out"),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn cassandra_reports_print_primary_keys() {
        let text = render("sensors", "recommended", RunFormat::Text);
        assert!(
            text.contains("Reading          PRIMARY KEY ((sensor_id, reading_time_day), reading_time)"),
            "{text}"
        );
        assert!(
            render("sensors", "naive", RunFormat::Text).contains("PRIMARY KEY ((sensor_id), reading_time)")
        );
    }

    #[test]
    fn json_reports_follow_the_contract() {
        let json: serde_json::Value =
            serde_json::from_str(&render("orders", "naive", RunFormat::Json)).unwrap();
        assert_eq!(
            (json["scenario"].as_str(), json["variant"].as_str(), json["engine"].as_str()),
            (Some("orders"), Some("naive"), Some("dynamodb"))
        );
        let pending =
            json["patterns"].as_array().unwrap().iter().find(|p| p["name"] == "pending-orders").unwrap();
        for field in ["name", "kind", "operation", "index", "fanout", "key_condition", "served", "reason"] {
            assert!(pending.get(field).is_some(), "{field} missing: {pending}");
        }
        assert_eq!(
            (pending["kind"].as_str(), pending["operation"].as_str(), pending["served"].as_bool()),
            (Some("read"), Some("Scan"), Some(false))
        );
        let warning = &json["warnings"][0];
        assert_eq!(
            (warning["code"].as_str(), warning["subject"].as_str()),
            (Some("scan"), Some("pending-orders"))
        );
        assert!(warning["message"].as_str().is_some_and(|m| m.contains("RCU")));
    }

    #[test]
    fn a_practice_problem_keeps_its_solution_out_of_sight() {
        let source = scenario::BUNDLED[2].2.replacen(
            "workload:",
            r#"practice: (prompt: "Stop the throttling.", hints: ["Shard it."], solution: "recommended"),
    workload:"#,
            1,
        );
        let loaded = scenario::parse("practice.ron", &source).unwrap();
        let entry = ListEntry::new(&loaded.scenario);
        assert_eq!((entry.kind, entry.variants.as_slice()), ("practice", ["naive".to_owned()].as_slice()));
        assert_eq!(loaded.variant(None).unwrap().name, "naive");
        let mut text = Vec::new();
        list(&mut text, &[loaded], Format::Text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("Practice problems\n") && !text.contains("recommended"), "{text}");
    }

    #[test]
    fn lists_bundled_scenarios_with_titles() {
        let mut text = Vec::new();
        list(&mut text, &scenario::bundled(), Format::Text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("sensors") && text.contains("IoT sensor readings"), "{text}");
        let mut json = Vec::new();
        list(&mut json, &scenario::bundled(), Format::Json).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let names: Vec<&str> =
            json["scenarios"].as_array().unwrap().iter().filter_map(|s| s["name"].as_str()).collect();
        assert_eq!(names, scenario::BUNDLED.iter().map(|(name, _, _)| *name).collect::<Vec<_>>());
    }
}
