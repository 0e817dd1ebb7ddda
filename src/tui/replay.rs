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

pub(super) use view::design_splits;

use std::cell::RefCell;
use std::time::{Duration, Instant};

use super::driver::{DriverError, Loading, Run, SimDriver, Stage, indented};
use super::view::{Progress, ViewRequest, WorkbenchView};
use crate::engine::judge::{self, RunError};
use crate::engine::model::{Scenario, Variant};
use crate::engine::sim::{RunOptions, RunReport, SimError, Simulation, fluid};
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

/// A run: the design it replays and what replays it.
struct Replay {
    scenario: Scenario,
    variant: Variant,
    seed: u64,
    source: Source,
    progress: Progress,
    cache: RefCell<Option<Cached>>,
}

/// What replays a run.
enum Source {
    /// Call by call: the simulation, stepped.
    Ops(Box<Simulation>),
    /// As rates (`sim::fluid`), computed whole when it started: a run with too many calls to
    /// replay call by call (`judge::too_large`), as `keyheat run` replays it. Its report, judged,
    /// the calls it makes, and the expected load of its hottest partitions.
    Rates { report: Box<RunReport>, calls: f64, heat: Box<fluid::ExpectedHeat> },
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

    /// Starts a replay, reporting what it prepares and how far it is to `progress`, which returns
    /// false to give it up (`Ok(None)`). A run too large to replay call by call is replayed as
    /// rates here, whole, as `keyheat run` (`--fidelity auto`) would: call by call it would fill
    /// memory long before its end. It is then finished from the start.
    fn loading(
        scenario: &Scenario,
        variant: &Variant,
        seed: u64,
        progress: &mut dyn FnMut(Loading) -> bool,
    ) -> Result<Option<Replay>, SimError> {
        let options = RunOptions { seed: Some(seed), duration: None };
        let w = &scenario.workload;
        // The simulator runs whole ticks: the last one may end past the duration.
        let ticks = w.duration.as_millis().div_ceil(w.tick.as_millis().max(1));
        let end = w.start + SimDuration::from_millis(ticks.saturating_mul(w.tick.as_millis()));
        let (source, now) = if let Some(calls) = judge::too_large(scenario, variant, &options) {
            let rates = judge::as_rates(scenario, variant, &options, calls, &mut |fraction| {
                progress(Loading { stage: Stage::Rates, fraction })
            });
            let (mut report, heat) = match rates {
                Ok(Some(both)) => both,
                Ok(None) => return Ok(None),
                Err(RunError::Sim(e)) => return Err(e),
                Err(RunError::TooLarge { why, .. } | RunError::Fluid(why)) => {
                    return Err(SimError::TooLarge {
                        calls,
                        budget: fluid::OPS_BUDGET,
                        why: why.to_string(),
                    });
                }
            };
            judge::finish(scenario, variant, &mut report);
            (Source::Rates { report: Box::new(report), calls, heat: Box::new(heat) }, end)
        } else {
            let Some(sim) =
                Simulation::loading(scenario, variant, &options, &mut |f| progress(Loading::preload(f)))?
            else {
                return Ok(None);
            };
            let now = sim.now();
            (Source::Ops(Box::new(sim)), now)
        };
        let progress = Progress { start: w.start, now, end, tick: w.tick };
        Ok(Some(Replay {
            scenario: scenario.clone(),
            variant: variant.clone(),
            seed,
            source,
            progress,
            cache: RefCell::new(None),
        }))
    }

    /// The simulated clock: a run replayed as rates is at its end.
    fn now(&self) -> SimTime {
        match &self.source {
            Source::Ops(sim) => sim.now(),
            Source::Rates { .. } => self.progress.end,
        }
    }

    fn is_finished(&self) -> bool {
        match &self.source {
            Source::Ops(sim) => sim.is_finished(),
            Source::Rates { .. } => true,
        }
    }

    /// Runs up to `events` calls and retries (`Simulation::advance`): `Some(true)` when a tick
    /// completed, `None` when there is nothing to run (the end; a run replayed as rates).
    fn advance(&mut self, events: u64) -> Option<bool> {
        match &mut self.source {
            Source::Ops(sim) => sim.advance(events),
            Source::Rates { .. } => None,
        }
    }

    fn is_rates(&self) -> bool {
        matches!(self.source, Source::Rates { .. })
    }

    /// The console's answer to `request`, from the run's store; a run replayed as rates has none.
    fn console(&self, request: &str) -> Result<String, DriverError> {
        match &self.source {
            Source::Ops(sim) => Ok(indented(&crate::ops::short::console(sim, request)?)),
            Source::Rates { .. } => Err(DriverError::NoStore),
        }
    }

    /// The panels' view of the run as it stands, shaped as `request` asks.
    fn build(&self, request: &ViewRequest) -> WorkbenchView {
        match &self.source {
            Source::Ops(sim) => view::build(sim, &self.scenario, &self.variant, request),
            Source::Rates { report, calls, heat } => {
                view::rates(report, heat, (self.scenario.engine, &self.variant), *calls, request)
            }
        }
    }

    fn progress(&self) -> Progress {
        Progress { now: self.now(), ..self.progress }
    }

    fn snapshot(&self, request: &ViewRequest, refresh: Duration) -> WorkbenchView {
        let at = self.now();
        let mut cache = self.cache.borrow_mut();
        let fresh = cache
            .as_ref()
            .is_some_and(|c| c.request == *request && (c.at == at || c.built.elapsed() < refresh));
        if !fresh {
            let view = self.build(request);
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
            // A run replayed as rates was computed whole: it is its own replay from the start.
            self.baseline = if previous.now() == previous.progress.start || previous.is_rates() {
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
            let behind = self.baseline.as_mut().filter(|b| !b.is_finished() && b.now() < current.now());
            match behind {
                Some(b) => {
                    b.advance(EVENTS_PER_CHUNK);
                }
                None if done < ticks => match current.advance(EVENTS_PER_CHUNK) {
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
        self.current.as_ref().ok_or(DriverError::NoReplay)?.console(request)
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
    use crate::engine::metrics::{Layer, Metric, RowOrdering};

    fn request() -> ViewRequest {
        ViewRequest {
            metric: Metric::WriteUnits,
            layer: Layer::Logical,
            order: RowOrdering::ByHeat,
            rows: 20,
            cols: 40,
            size_points: 40,
            size_series: 3,
        }
    }

    /// discord-scale cut to a day: still too many calls to replay call by call (1.7×10⁹), and
    /// short enough for a debug build to replay as rates.
    fn discord_day() -> crate::scenario::Loaded {
        let text = crate::scenario::load("discord-scale").expect("bundled").source().replacen(
            r#"duration: "365d""#,
            r#"duration: "1d""#,
            1,
        );
        crate::scenario::parse("discord-scale.ron", &text).expect("the edited scenario parses")
    }

    /// A run too large to replay call by call is replayed as rates, whole, with the report
    /// `keyheat run` (`--fidelity auto`) gives it; one the fluid replay cannot model either is
    /// refused with both reasons; an ordinary one replays call by call.
    #[test]
    fn a_run_too_large_to_replay_call_by_call_is_replayed_as_rates() {
        let day = discord_day();
        let variant = day.variant(Some("naive")).expect("naive");
        let mut driver = SimReplay::exact();
        driver.restart(&day.scenario, variant, 2019).expect("replayed as rates");
        let p = driver.progress(Run::Current).expect("a run");
        assert!(p.finished() && p.fraction() >= 1.0, "computed whole: {p:?}");
        assert_eq!(driver.step(10), 0, "nothing to step");
        let view = driver.snapshot(&request(), Run::Current).expect("a view");
        let rates = view.rates.expect("marked as replayed as rates");
        let options = RunOptions { seed: Some(2019), duration: None };
        let calls = crate::engine::judge::too_large(&day.scenario, variant, &options).expect("too large");
        assert_eq!(rates.calls.to_bits(), calls.to_bits(), "the calls judge::too_large counts");
        assert!(
            rates.label().contains("1.7e9 calls are too many to replay per operation"),
            "{}",
            rates.label()
        );
        // The report is `keyheat run`'s, note and all.
        let want = judge::run_as(&day.scenario, variant, &options, judge::Replay::Auto, &mut |_| {})
            .expect("keyheat run replays it");
        assert_eq!(view.report.as_deref(), Some(&want));
        // No registry: the heatmap is the expected load of the hottest channels' partitions (the
        // naive key is the channel), 128 kept of a million, merged to the rows asked for.
        let heat = view.heatmap.as_ref().expect("an expected heatmap");
        let expected = heat.expected.as_ref().expect("marked as expected");
        assert_eq!((expected.kept, expected.of), (128, 1_000_000));
        assert_eq!(heat.matrix.rows.len(), request().rows);
        assert!(heat.matrix.rows[0].label.starts_with("ch-"), "{:?}", heat.matrix.rows[0].label);
        // Sizes and throttles are not kept per partition as rates.
        let bytes = ViewRequest { metric: Metric::Bytes, ..request() };
        assert!(driver.snapshot(&bytes, Run::Current).expect("a view").heatmap.is_none());
        assert!(
            view.sizes.series.is_empty()
                && view.sizes.note.as_deref().is_some_and(|n| n.contains("at the end only"))
        );
        assert_eq!(view.goals.len(), day.scenario.goals.len());
        assert_eq!(view.patterns.len(), day.scenario.patterns.len());
        assert!(view.patterns.iter().all(|p| p.calls > 0), "{:?}", view.patterns);
        assert_eq!(driver.console("get messages ch-0000001"), Err(DriverError::NoStore));
        // A second variant: the first becomes the baseline as it is (nothing to catch up).
        let recommended = day.variant(Some("recommended")).expect("recommended");
        driver.restart(&day.scenario, recommended, 2019).expect("replayed as rates");
        let before = driver.snapshot(&request(), Run::Baseline).expect("the baseline");
        assert_eq!(before.report.as_deref(), Some(&want));

        // Too large, and with a put of a constant value, which the fluid replay does not model:
        // refused with both reasons.
        let text = day.source().replacen(
            "given: [\"channel_id\"],\n            rate: 9838,",
            "given: [\"channel_id\"],\n            equals: {\"body\": \"hi\"},\n            rate: 9838,",
            1,
        );
        let constant =
            crate::scenario::parse("discord-scale.ron", &text).expect("the edited scenario parses");
        let variant = constant.variant(Some("naive")).expect("naive");
        match SimReplay::exact().restart(&constant.scenario, variant, 1) {
            Err(DriverError::Start(e @ SimError::TooLarge { calls, .. })) => {
                assert!(calls > fluid::OPS_BUDGET, "{calls}");
                let words = e.to_string();
                assert!(words.contains("too many to replay call by call"), "{words}");
                assert!(words.contains("constant values"), "{words}");
                assert!(words.contains("cannot be replayed as rates either"), "{words}");
            }
            other => panic!("discord-scale with a constant: {other:?}"),
        }

        let chat = crate::scenario::load("chat").expect("bundled");
        let mut driver = SimReplay::exact();
        driver.restart(&chat.scenario, chat.variant(None).expect("a variant"), 1).expect("replays");
        assert!(driver.progress(Run::Current).is_some_and(|p| !p.finished()));
        assert_eq!(driver.snapshot(&request(), Run::Current).and_then(|v| v.rates), None);
    }
}
