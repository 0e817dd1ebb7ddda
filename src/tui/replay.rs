//! The real [`SimDriver`]: replays the scenario with `engine::sim::Simulation` and turns the run
//! into the snapshots the panels draw.
//!
//! - **Two runs.** The current one, and the baseline: the design that was playing before the last
//!   restart (an applied edit, another variant, `r`), replayed again from the start on the same
//!   seed and kept at the current run's simulated time. Compare then puts two runs side by side
//!   at the same moment, so every delta is like for like; a run is deterministic, so replaying the
//!   previous design is the previous run.
//! - **Short calls.** [`SimReplay::step`] advances in chunks of a few hundred simulated calls
//!   (`Simulation::advance`, which may stop inside a tick) and returns once it has worked for its
//!   call limit, so the frame loop's budget is never overrun by more than one chunk, however
//!   busy a tick is.
//! - **Cached snapshots.** Building a view reads the whole metrics registry (the heatmap over every
//!   partition row, the report). A run's view is rebuilt when the request changes or when the run
//!   has moved and the last build is older than the refresh interval; otherwise the cached view is
//!   handed out again. `keyheat snapshot` and tests use a zero interval (always fresh).
//!
//! Wall-clock time is read here (the UI's side of the seam) only to bound work; what a run
//! computes never depends on it.

mod view;
mod worker;

use std::cell::RefCell;
use std::time::{Duration, Instant};

use super::driver::{DriverError, Run, SimDriver, indented};
use super::view::{Progress, ViewRequest, WorkbenchView};
use crate::engine::model::{Scenario, Variant};
use crate::engine::sim::{RunOptions, SimError, Simulation};
use crate::engine::time::{SimDuration, SimTime};

pub use view::build as build_view;
pub use worker::Worker;

/// How long one `step` call works at most (it always runs one tick, however long that takes).
pub const CALL_LIMIT: Duration = Duration::from_millis(2);
/// Calls and retries run between two looks at the clock: a busy tick (10,000 likes of `counters`)
/// takes tens of milliseconds, a chunk of this many well under the call limit.
const EVENTS_PER_CHUNK: u64 = 256;
/// How often a moving run's snapshot is rebuilt in the UI: 8 times a second. Panels between two
/// rebuilds show the previous one, which the eye does not tell from live.
pub const REFRESH: Duration = Duration::from_millis(125);

/// A run: the design it replays and the simulation.
struct Replay {
    scenario: Scenario,
    variant: Variant,
    seed: u64,
    sim: Simulation,
    progress: Progress,
    cache: RefCell<Option<Cached>>,
}

struct Cached {
    request: ViewRequest,
    /// The simulated time the view shows.
    at: SimTime,
    built: Instant,
    view: WorkbenchView,
}

impl Replay {
    fn start(scenario: &Scenario, variant: &Variant, seed: u64) -> Result<Replay, DriverError> {
        Replay::loading(scenario, variant, seed, &mut |_| true)?.ok_or(DriverError::Cancelled)
    }

    /// Starts a replay, reporting the load's progress to `progress`, which returns false to give
    /// it up (`Ok(None)`).
    fn loading(
        scenario: &Scenario,
        variant: &Variant,
        seed: u64,
        progress: &mut dyn FnMut(f64) -> bool,
    ) -> Result<Option<Replay>, SimError> {
        let options = RunOptions { seed: Some(seed), duration: None };
        // A run `keyheat run` would replay as rates is refused here with where to replay it,
        // not started: call by call it would fill memory long before its end.
        if let Some(calls) = crate::engine::judge::too_large(scenario, variant, &options) {
            return Err(SimError::TooLarge { calls, budget: crate::engine::sim::fluid::OPS_BUDGET });
        }
        let Some(sim) = Simulation::loading(scenario, variant, &options, progress)? else {
            return Ok(None);
        };
        let w = &scenario.workload;
        // The simulator runs whole ticks: the last one may end past the duration.
        let ticks = w.duration.as_millis().div_ceil(w.tick.as_millis().max(1));
        let end = w.start + SimDuration::from_millis(ticks.saturating_mul(w.tick.as_millis()));
        let progress = Progress { start: w.start, now: sim.now(), end, tick: w.tick };
        Ok(Some(Replay {
            scenario: scenario.clone(),
            variant: variant.clone(),
            seed,
            sim,
            progress,
            cache: RefCell::new(None),
        }))
    }

    fn progress(&self) -> Progress {
        Progress { now: self.sim.now(), ..self.progress }
    }

    fn snapshot(&self, request: &ViewRequest, refresh: Duration) -> WorkbenchView {
        let at = self.sim.now();
        let mut cache = self.cache.borrow_mut();
        let fresh = cache
            .as_ref()
            .is_some_and(|c| c.request == *request && (c.at == at || c.built.elapsed() < refresh));
        if !fresh {
            let view = view::build(&self.sim, &self.scenario, &self.variant, request);
            *cache = Some(Cached { request: request.clone(), at, built: Instant::now(), view });
        }
        cache.as_ref().map(|c| c.view.clone()).unwrap_or_default()
    }
}

/// Replays scenarios with the simulator. See the module documentation.
pub struct SimReplay {
    current: Option<Replay>,
    baseline: Option<Replay>,
    call_limit: Duration,
    refresh: Duration,
}

impl Default for SimReplay {
    fn default() -> Self {
        SimReplay::new(CALL_LIMIT, REFRESH)
    }
}

impl SimReplay {
    /// A driver whose `step` calls work for at most `call_limit` (after their first tick) and
    /// whose snapshots of a moving run are rebuilt at most every `refresh`.
    pub fn new(call_limit: Duration, refresh: Duration) -> SimReplay {
        SimReplay { current: None, baseline: None, call_limit, refresh }
    }

    /// For `keyheat snapshot` and tests: every snapshot is built fresh.
    pub fn exact() -> SimReplay {
        SimReplay::new(CALL_LIMIT, Duration::ZERO)
    }
}

impl SimDriver for SimReplay {
    fn restart(&mut self, scenario: &Scenario, variant: &Variant, seed: u64) -> Result<(), DriverError> {
        let next = Replay::start(scenario, variant, seed)?;
        // The run that was playing becomes the baseline, replayed from the start alongside.
        if let Some(previous) = self.current.take() {
            self.baseline = if previous.sim.now() == previous.progress.start {
                Some(previous)
            } else {
                Replay::start(&previous.scenario, &previous.variant, previous.seed).ok()
            };
        }
        self.current = Some(next);
        Ok(())
    }

    fn step(&mut self, ticks: u32) -> u32 {
        let Some(current) = self.current.as_mut() else { return 0 };
        let began = Instant::now();
        let mut done = 0;
        loop {
            // The baseline catches up with the current run's clock first, in the same short
            // chunks, so compare shows both runs at the same moment; `step(0)` only catches up.
            let behind =
                self.baseline.as_mut().filter(|b| !b.sim.is_finished() && b.sim.now() < current.sim.now());
            match behind {
                Some(b) => {
                    b.sim.advance(EVENTS_PER_CHUNK);
                }
                None if done < ticks => match current.sim.advance(EVENTS_PER_CHUNK) {
                    None => break,
                    Some(completed) => done += u32::from(completed),
                },
                None => break,
            }
            if began.elapsed() >= self.call_limit {
                break;
            }
        }
        done
    }

    fn progress(&self, run: Run) -> Option<Progress> {
        self.run(run).map(Replay::progress)
    }

    fn snapshot(&self, request: &ViewRequest, run: Run) -> Option<WorkbenchView> {
        self.run(run).map(|r| r.snapshot(request, self.refresh))
    }

    fn console(&mut self, request: &str) -> Result<String, DriverError> {
        let current = self.current.as_ref().ok_or(DriverError::NoReplay)?;
        Ok(indented(&crate::ops::short::console(&current.sim, request)?))
    }
}

impl SimReplay {
    fn run(&self, run: Run) -> Option<&Replay> {
        match run {
            Run::Current => self.current.as_ref(),
            Run::Baseline => self.baseline.as_ref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run `keyheat run` replays as rates is refused with where to replay it, before anything
    /// is loaded; an ordinary one starts.
    #[test]
    fn a_run_too_large_to_replay_call_by_call_says_where_to_run_it() {
        // (scenario, refused)
        let cases = [("discord-scale", true), ("chat", false)];
        for (name, refused) in cases {
            let loaded = crate::scenario::load(name).expect("bundled");
            let variant = loaded.variant(None).expect("a variant");
            let mut driver = SimReplay::exact();
            match driver.restart(&loaded.scenario, variant, 1) {
                Err(DriverError::Start(e @ SimError::TooLarge { calls, .. })) if refused => {
                    assert!(calls > crate::engine::sim::fluid::OPS_BUDGET, "{name}: {calls}");
                    assert!(e.to_string().contains("`keyheat run` replays it as rates"), "{e}");
                }
                Ok(()) if !refused => assert!(driver.progress(Run::Current).is_some(), "{name}"),
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}
