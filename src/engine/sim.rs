//! The simulator: replays a scenario's workload against a key design in simulated time.
//!
//! API CONTRACT (being implemented on branch `sim`; the report writers and commands are written
//! against it on branch `runreport`). Do not change these signatures without agreement.

mod keys;
mod ledger;
pub mod report;
mod table;

#[cfg(test)]
mod tests;

use super::model::{Scenario, Variant};
use super::time::SimDuration;

pub use report::RunReport;

/// How to run: the scenario's workload settings, optionally overridden.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Overrides the scenario's seed.
    pub seed: Option<u64>,
    /// Overrides the scenario's duration.
    pub duration: Option<SimDuration>,
}

/// Why a run could not start (the scenario was loaded and validated, so this is rare: e.g. a
/// duration shorter than one tick).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SimError(pub String);

/// Replays the whole workload headless, as fast as possible, and reports. `progress` is called
/// now and then with the fraction done (0.0..=1.0) so a command can draw a progress indicator.
pub fn run(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<RunReport, SimError> {
    let _ = (scenario, variant, options, progress);
    todo!()
}
