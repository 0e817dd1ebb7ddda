//! One judged run: replay the workload (`sim::run`), price it (`cost::price`) and grade it against
//! the scenario's goals (`goals::evaluate`). `keyheat run`, `keyheat compare` and the TUI all call
//! this, so a report means the same thing wherever it is shown.

use super::cost;
use super::goals;
use super::model::{Scenario, Variant};
use super::sim::{self, RunOptions, RunReport, SimError};

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
}
