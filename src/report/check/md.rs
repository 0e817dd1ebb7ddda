//! The check report as Markdown: the same sections as the text report, in the same order, as
//! tables and lists for a README, an issue or a graded answer.

use std::io::{self, Write};

use super::{CheckReport, detail, how_to_answer, mark, summary};
use crate::engine::model::Scenario;
use crate::engine::planner::{Plan, numbers};
use crate::report::markdown::{self, Align};
use crate::report::text::{condition, headline, index_label, place_label, served_by, unknown_figures};
use crate::report::verdict;

pub(super) fn write(out: &mut impl Write, scenario: &Scenario, report: &CheckReport<'_>) -> io::Result<()> {
    let plan = report.plan;
    writeln!(out, "# {} / {}", scenario.name, plan.variant)?;
    writeln!(out)?;
    writeln!(out, "`keyheat check` · {} · {}", scenario.engine, scenario.title)?;
    if let Some(v) = scenario.variant(&plan.variant)
        && !v.description.is_empty()
    {
        writeln!(out)?;
        writeln!(out, "{}", v.description)?;
    }
    writeln!(out)?;
    practice(out, scenario, report)?;
    keys(out, scenario, plan)?;
    patterns(out, scenario, plan)?;
    writeln!(out, "## Warnings")?;
    writeln!(out)?;
    if plan.warnings.is_empty() {
        writeln!(out, "None.")?;
    }
    for w in &plan.warnings {
        writeln!(out, "- ⚠ **{}** — {}: {w}", w.code.id(), w.subject)?;
    }
    writeln!(out)?;
    goals(out, report)
}

/// The prompt, the numbered hints and how to answer; never the solution.
fn practice(out: &mut impl Write, scenario: &Scenario, report: &CheckReport<'_>) -> io::Result<()> {
    let Some(p) = &report.practice else { return Ok(()) };
    writeln!(out, "## Practice")?;
    writeln!(out)?;
    writeln!(out, "{}", p.prompt)?;
    writeln!(out)?;
    for (i, hint) in p.hints.iter().enumerate() {
        writeln!(out, "- **Hint {}:** {hint}", i + 1)?;
    }
    if !p.hints.is_empty() {
        writeln!(out)?;
    }
    writeln!(out, "{}", how_to_answer(scenario))?;
    writeln!(out)
}

fn keys(out: &mut impl Write, scenario: &Scenario, plan: &Plan) -> io::Result<()> {
    writeln!(out, "## Keys")?;
    writeln!(out)?;
    let rows: Vec<Vec<String>> = plan
        .layouts
        .iter()
        .map(|l| {
            let place = l.index.as_deref().zip(l.index_kind).map_or_else(
                || scenario.engine.words().table.to_owned(),
                |(i, kind)| index_label(scenario.engine, kind.short(), i),
            );
            vec![l.entity.clone(), place, format!("`{}`", l.key)]
        })
        .collect();
    markdown::table(out, &[("entity", Align::Left), ("in", Align::Left), ("key", Align::Left)], &rows)
}

/// The table of patterns, then how each is served and why the other places do not serve it.
fn patterns(out: &mut impl Write, scenario: &Scenario, plan: &Plan) -> io::Result<()> {
    let engine = scenario.engine;
    writeln!(out, "## Access patterns")?;
    writeln!(out)?;
    let rows: Vec<Vec<String>> = plan
        .patterns
        .iter()
        .map(|p| {
            let flagged = super::flags(plan, p.pattern);
            let mut cond = condition(p, engine);
            if !flagged.is_empty() {
                cond = format!("{cond} ⚠ {}", flagged.join(", "));
            }
            vec![
                (if p.served() { "✔" } else { "✘" }).to_owned(),
                p.name.clone(),
                numbers::rate(p.mean_rate),
                served_by(p, engine).replace('\n', " on "),
                cond,
            ]
        })
        .collect();
    markdown::table(
        out,
        &[
            ("", Align::Left),
            ("pattern", Align::Left),
            ("mean/s", Align::Right),
            ("served by", Align::Left),
            ("key condition / fan-out", Align::Left),
        ],
        &rows,
    )?;
    for p in &plan.patterns {
        writeln!(out, "- **{}**: {}", headline(p, engine), p.verdict)?;
        if let Some(u) = &p.unpredictable {
            writeln!(out, "  - ? {}: {}", unknown_figures(u), u.why)?;
        }
        if let Some(c) = &p.condition {
            writeln!(out, "  - condition `{}`: {}", c.expression, c.why)?;
        }
        if let Some(c) = &p.claim {
            writeln!(out, "  - claim `{}`: {}", c.expression, c.why)?;
        }
        if let Some(l) = p.locate.as_ref().filter(|l| l.operation.is_some()) {
            writeln!(out, "  - reads first: {}", l.verdict)?;
        }
        if let Some(c) = &p.cache {
            writeln!(out, "  - cache: {}", c.why)?;
        }
        for a in &p.alternatives {
            writeln!(out, "  - {}: {}", place_label(engine, a.index.as_ref()), a.considered)?;
        }
    }
    writeln!(out)
}

/// Each goal's forecast; a goal predicted to fail links its hint.
fn goals(out: &mut impl Write, report: &CheckReport<'_>) -> io::Result<()> {
    writeln!(out, "## Goals")?;
    writeln!(out)?;
    if report.goals.is_empty() {
        return writeln!(out, "None in this scenario.");
    }
    let summary = summary(&report.goals);
    let mut chars = summary.chars();
    let capitalised: String =
        chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default();
    writeln!(out, "{capitalised}.")?;
    writeln!(out)?;
    let rows: Vec<Vec<String>> = report
        .goals
        .iter()
        .map(|g| {
            let mut parts = vec![detail(g)];
            parts.extend(g.related.iter().map(|related| format!("related warning: ⚠ {related}")));
            if g.predicted == Some(false)
                && let Some(hint) = &g.hint
            {
                parts.push(verdict::inline_hint(hint));
            }
            vec![mark(g).to_owned(), g.name.clone(), parts.join(" — ")]
        })
        .collect();
    markdown::table(out, &[("", Align::Left), ("goal", Align::Left), ("forecast", Align::Left)], &rows)
}

#[cfg(test)]
mod tests {
    use crate::report::RunFormat;
    use crate::report::check::tests::render;

    #[test]
    fn markdown_has_the_practice_problem_keys_patterns_warnings_and_goals() {
        let md = render("practice-top-customers", None, RunFormat::Md);
        let expected = [
            "# practice-top-customers / naive",
            "## Practice",
            "- **Hint 1:** No item holds a customer's lifetime spend. Which write could keep it up to date?",
            "| Customer | table | `PK = CUSTOMER#{customer_id}, SK = PROFILE` |",
            "| ✘ | top-customers | 0.01 | Scan on table | — ⚠ scan |",
            "## Warnings",
            "## Goals",
        ];
        for line in expected {
            assert!(md.lines().any(|l| l == line), "missing {line:?} in\n{md}");
        }
        assert!(md.contains("`keyheat run FILE --variant NAME --fail-on-goals`"), "{md}");
        let failed = "| ✘ | the dashboard never scans | predicted: top-customers is served by a Scan";
        let row = md.lines().find(|l| l.starts_with(failed)).unwrap_or_else(|| panic!("{failed:?} in\n{md}"));
        assert!(row.contains("— see hint 1: No item holds a customer's lifetime spend."), "{row}");
        assert!(!md.contains("recommended"), "the solution stays hidden:\n{md}");
        crate::engine::testing::assert_tables_are_whole(&md);
    }

    #[test]
    fn a_scenario_without_practice_or_warnings_says_so() {
        let md = render("counters", Some("recommended"), RunFormat::Md);
        assert!(!md.contains("## Practice"), "{md}");
        assert!(md.contains("## Goals\n\n"), "{md}");
    }
}
