//! One judged run: replay the workload (`sim::run`), price it (`cost::price`) and grade it against
//! the scenario's goals (`goals::evaluate`). `keyheat run`, `keyheat compare` and the TUI all call
//! this, so a report means the same thing wherever it is shown.

use super::cost;
use super::goals;
use super::model::{Scenario, Variant};
use super::sim::fluid::{self, FluidError};
use super::sim::report::{Fidelity, GoalStatus};
use super::sim::{self, RunOptions, RunReport, SimError};

/// How to replay, as `--fidelity` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Replay {
    /// Call by call.
    Operations,
    /// As rates (`sim::fluid`).
    Rates,
    /// As rates when the run is too large to replay call by call (`choose`), else call by call.
    #[default]
    Auto,
}

/// Why `run_as` could not report.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error(transparent)]
    Fluid(#[from] FluidError),
    /// `--fidelity auto` chose rates, and the fluid replay cannot model the variant.
    #[error(
        "{calls:.1e} calls are too many to replay per operation, and {why}; shorten --duration, or pass --fidelity ops to replay every call anyway"
    )]
    TooLarge { calls: f64, why: FluidError },
}

/// Why `Auto` replays as rates: the calls a run would make, when they pass
/// `fluid::OPS_BUDGET` or the items would pass what the per-operation replay can hold.
pub fn too_large(scenario: &Scenario, variant: &Variant, options: &RunOptions) -> Option<f64> {
    let calls = fluid::expected_calls(scenario, variant, options);
    (calls > fluid::OPS_BUDGET || sim::too_many_items(scenario, variant, options)).then_some(calls)
}

/// Replays at the fidelity asked (`Auto`: see [`too_large`]), prices and grades.
pub fn run_as(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    replay: Replay,
    progress: &mut dyn FnMut(f64),
) -> Result<RunReport, RunError> {
    let large = if replay == Replay::Auto { too_large(scenario, variant, options) } else { None };
    let mut report = match (replay, large) {
        (Replay::Operations, _) | (Replay::Auto, None) => sim::run(scenario, variant, options, progress)?,
        (Replay::Rates, _) => fluid::run(scenario, variant, options, progress)?,
        (Replay::Auto, Some(calls)) => {
            let rated = as_rates(scenario, variant, options, calls, &mut |f| {
                progress(f);
                true
            });
            rated?.ok_or(RunError::Sim(SimError::Cancelled))?.0
        }
    };
    finish(scenario, variant, &mut report);
    Ok(report)
}

/// What `--fidelity auto` does with a run [`too_large`] to replay call by call (`calls`, its
/// answer): replays it as rates, with a note first in the report saying why (not yet judged:
/// [`finish`] does that), and the expected heatmap the workbench draws. `progress` returns
/// false to give it up (`Ok(None)`). `keyheat run` and the workbench both come here, so both
/// say it in the same words.
pub fn as_rates(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    calls: f64,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<Option<(RunReport, fluid::ExpectedHeat)>, RunError> {
    let rated = fluid::run_with_heat(scenario, variant, options, progress).map_err(|why| match why {
        FluidError::Sim(e) => RunError::Sim(e),
        why @ FluidError::Unsupported { .. } => RunError::TooLarge { calls, why },
    })?;
    Ok(rated.map(|(mut report, heat)| {
        report.notes.insert(0, format!("{calls:.1e} calls are too many to replay per operation (more than {:.0e}): --fidelity auto replayed them as rates.", fluid::OPS_BUDGET));
        (report, heat)
    }))
}

/// Replays, prices and grades. `progress` gets the fraction done now and then (see `sim::run`).
pub fn run(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<RunReport, SimError> {
    let mut report = sim::run(scenario, variant, options, progress)?;
    finish(scenario, variant, &mut report);
    Ok(report)
}

/// Prices and grades a report the simulator produced (the part of [`run`] after the replay).
pub fn finish(scenario: &Scenario, variant: &Variant, report: &mut RunReport) {
    cost::price(scenario, variant, report);
    report.goals = goals::evaluate(scenario, variant, report);
    if report.fidelity == Fidelity::Rates {
        // The fluid replay does not model latency: a goal on it has nothing to judge.
        for (goal, spec) in report.goals.iter_mut().zip(&scenario.goals) {
            if matches!(spec.check, super::model::GoalCheck::LatencyTarget(_)) {
                goal.status = GoalStatus::NotGraded;
                (goal.value, goal.lower_bound) = (None, false);
                "not graded: --fidelity rates does not model latency".clone_into(&mut goal.detail);
            }
        }
    }
}

/// Whether every goal passed (a scenario without goals passes; a goal not graded did not pass).
pub fn all_passed(report: &RunReport) -> bool {
    report.goals.iter().all(super::sim::report::GoalResult::passed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing;

    #[test]
    fn prices_before_grading_so_cost_goals_see_the_bill() {
        let loaded = testing::fixture("orders");
        let variant = loaded.variant(Some("naive")).expect("orders has naive");
        let mut scenario = loaded.scenario.clone();
        scenario.goals.push(crate::engine::model::Goal {
            name: "cheap".to_owned(),
            check: crate::engine::model::GoalCheck::MaxMonthlyCost(0.01),
            hint: None,
            within: None,
        });
        let mut report = testing::report();
        finish(&scenario, variant, &mut report);
        assert!(report.totals.monthly_cost_usd > 0.01, "{:?}", report.totals);
        let cheap = report.goals.last().expect("the cost goal is graded");
        assert_eq!((cheap.passed(), cheap.value), (false, Some(report.totals.monthly_cost_usd)), "{cheap:?}");
        assert_eq!(report.goals.len(), scenario.goals.len());
        assert!(!all_passed(&report));
    }

    /// `--fidelity auto` leaves every run the per-operation replay can serve to it, a year of
    /// sensors included, and replays as rates only what it cannot.
    #[test]
    fn auto_replays_as_rates_only_what_the_per_operation_replay_cannot() {
        let sensors = crate::scenario::load("sensors").expect("sensors is bundled");
        let fleet =
            crate::scenario::parse("sensor-fleet.ron", include_str!("../../tests/fixtures/sensor-fleet.ron"))
                .expect("the fleet fixture loads");
        let year = RunOptions::default();
        let decade = RunOptions {
            duration: Some(crate::engine::time::SimDuration::from_secs(10 * 365 * 86_400)),
            ..RunOptions::default()
        };
        // (scenario, options, replayed as rates)
        let cases = [(&sensors, &year, false), (&sensors, &decade, true), (&fleet, &year, true)];
        for (loaded, options, rates) in cases {
            for variant in &loaded.scenario.variants {
                let large = too_large(&loaded.scenario, variant, options);
                assert_eq!(large.is_some(), rates, "{} {}: {large:?}", loaded.scenario.name, variant.name);
            }
        }
    }
}
