//! The seam between the UI and the simulator. The UI steps a [`SimDriver`] within its frame
//! budget and draws what [`SimDriver::snapshot`] returns; it never reaches into the store or the
//! metrics registry. The real driver is `replay::SimReplay` over `engine::sim`; [`NoReplay`]
//! stands in where no replay is wanted (the workbench then shows the static plan only), and
//! tests use a fake.

use std::time::Duration;

use super::pacing::Speed;
use super::view::{Progress, ViewRequest, WorkbenchView};
use crate::engine::model::{Scenario, Variant};
use crate::engine::sim::SimError;
use crate::ops::short::LineError;

/// Why a driver could not start a run or answer the console; the status line and the console
/// word it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DriverError {
    #[error("this build has no simulator: the panels show the static plan only")]
    NoSimulator,
    /// The design cannot be replayed (the scenario was validated, so this is rare).
    #[error(transparent)]
    Start(#[from] SimError),
    /// The design before the last restart, replayed again as compare's baseline, failed.
    #[error("the previous design cannot be replayed: {0}")]
    Baseline(SimError),
    #[error("the replay was cancelled while loading")]
    Cancelled,
    /// The console was asked before any run was started.
    #[error("no replay is running: open a scenario first")]
    NoReplay,
    /// A threaded driver's run has not started on its thread yet.
    #[error("no replay is running yet")]
    NotStarted,
    #[error("the replay is not ready yet ({}); ask again in a moment", .0.label())]
    NotReady(Loading),
    #[error("the replay did not answer within {} ms (it is busy); ask again", .0.as_millis())]
    Busy(Duration),
    #[error("the replay has stopped")]
    Stopped,
    /// The console asks a store; a run replayed as rates has none.
    #[error(
        "this run was replayed as rates (too many calls to replay call by call): it has no store to ask, only rates"
    )]
    NoStore,
    #[error(transparent)]
    Console(#[from] LineError),
}

/// A console answer as the console shows it: the JSON `keyheat ops` prints, indented for
/// reading.
pub fn indented(answer: &serde_json::Value) -> String {
    serde_json::to_string_pretty(answer).unwrap_or_else(|_| answer.to_string())
}

/// How the current run moves, for a driver that runs it on a thread of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    Paused,
    /// At a speed (flat out included).
    At(Speed),
    /// One whole tick, then paused.
    OneTick,
}

/// A run not yet ready to show: its initial items loading, or (a baseline) replaying from the
/// start to the current run's moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Loading {
    pub stage: Stage,
    /// Of the stage, 0..=1.
    pub fraction: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Writing the items that exist before the workload starts.
    Preload,
    /// Replaying the previous design from the start to the current run's moment.
    CatchUp,
    /// Replaying a run too large to replay call by call as rates (`sim::fluid`), whole.
    Rates,
}

impl Loading {
    /// The initial items, `fraction` of them written.
    pub fn preload(fraction: f64) -> Loading {
        Loading { stage: Stage::Preload, fraction }
    }

    pub fn label(&self) -> String {
        let what = match self.stage {
            Stage::Preload => "loading the initial items",
            Stage::CatchUp => "replaying the previous design to this moment",
            Stage::Rates => "replaying as rates (too many calls to replay call by call)",
        };
        format!("{what}: {}", crate::engine::planner::numbers::percent(self.fraction))
    }
}

/// Which run a snapshot is of: the one playing, or the one before the last restart (the
/// comparison baseline).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run {
    Current,
    Baseline,
}

pub trait SimDriver {
    /// Starts a replay of `variant` from the workload's start with `seed`. The run that was
    /// playing (if any) becomes the baseline.
    fn restart(&mut self, scenario: &Scenario, variant: &Variant, seed: u64) -> Result<(), DriverError>;

    /// Advances the current run by at most `ticks` ticks and returns how many it completed:
    /// fewer at the end of the workload or when the call has worked long enough — possibly 0,
    /// partway through a busy tick; 0 with the run finished when there is nothing to advance.
    /// The UI calls it repeatedly until its frame budget is spent, so one call should stay
    /// short. A baseline, if any, keeps pace with the current run.
    fn step(&mut self, ticks: u32) -> u32;

    /// Where the run is; `None` when no replay exists.
    fn progress(&self, run: Run) -> Option<Progress>;

    /// The run's measurements shaped as `request` asks; `None` when no replay exists.
    fn snapshot(&self, request: &ViewRequest, run: Run) -> Option<WorkbenchView>;

    /// Answers one console request (the JSON of `keyheat ops` or a short form) against the
    /// current run's store, as the response's JSON indented for reading; `Err` says why the
    /// store did not answer, or why no store can.
    fn console(&mut self, request: &str) -> Result<String, DriverError>;

    /// For a driver that runs the simulation on a thread of its own (true returned): from now on
    /// the current run moves at `pace` by itself, and the frame loop never calls `step`. A
    /// driver stepped by the frame loop returns false (the default).
    fn pace(&mut self, _pace: Pace) -> bool {
        false
    }

    /// What a run is still preparing, while it is not ready (its `progress` is then `None`).
    fn loading(&self, _run: Run) -> Option<Loading> {
        None
    }

    /// A failure met since the last call (a restart that could not start), for the status line.
    fn take_error(&mut self) -> Option<DriverError> {
        None
    }
}

/// The driver of a build without a simulator: nothing to replay. The workbench still shows the
/// scenario, the schema, the planner's verdicts and the editor.
#[derive(Debug, Default)]
pub struct NoReplay;

impl SimDriver for NoReplay {
    fn restart(&mut self, _: &Scenario, _: &Variant, _: u64) -> Result<(), DriverError> {
        Err(DriverError::NoSimulator)
    }

    fn step(&mut self, _: u32) -> u32 {
        0
    }

    fn progress(&self, _: Run) -> Option<Progress> {
        None
    }

    fn snapshot(&self, _: &ViewRequest, _: Run) -> Option<WorkbenchView> {
        None
    }

    fn console(&mut self, _: &str) -> Result<String, DriverError> {
        Err(DriverError::NoSimulator)
    }
}
