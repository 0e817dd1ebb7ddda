//! [`Worker`]: the [`SimDriver`] the live workbench uses. The simulation runs on a thread of its
//! own, so the thread that draws never waits on it: opening a scenario (which may load a million
//! items), restarting, switching variant and applying an edit return at once, and the screen
//! shows the load's progress while it runs.
//!
//! - **Commands one way, state the other.** The UI sends commands over a channel; the worker
//!   publishes where each run is, what it is still loading and the latest view into one shared
//!   slot, which the UI reads each frame. Nothing the UI calls blocks, except a console request,
//!   which waits [`CONSOLE_WAIT`] at most.
//! - **Newer wins.** Every restart has a number; a load checks the newest number now and then
//!   and gives up when it is no longer the newest, and the worker publishes nothing of an old
//!   run once a newer one is asked for.
//! - **The worker paces itself** from the wall clock at the speed asked for, so the UI's frame
//!   rate does not limit the replay, and flat out it runs as fast as the machine allows.
//! - **Views are samples.** A view is rebuilt at most every [`REFRESH`] and, when building one
//!   costs more, at most a tenth of the worker's time, so sampling the run does not slow it.
//! - **The baseline is lazy.** The design that played before the last restart is replayed
//!   (from the start, to the current run's moment) only while compare asks for it, so it costs
//!   nothing to a run that is not compared.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::{REFRESH, Replay};
use crate::engine::model::{Scenario, Variant};
use crate::engine::sim::SimError;
use crate::engine::time::SimTime;
use crate::tui::driver::{DriverError, Loading, Pace, Run, SimDriver, Stage};
use crate::tui::view::{Progress, ViewRequest, WorkbenchView};

/// How long a console request may keep the UI waiting for the worker's answer.
pub const CONSOLE_WAIT: Duration = Duration::from_millis(150);
/// Calls and retries between two looks at the commands and the clock: a few milliseconds of
/// work at most, so a command is answered at once and pacing stays smooth.
const EVENTS_PER_CHUNK: u64 = 1024;
/// How often a load publishes its progress.
const LOAD_REPORT: Duration = Duration::from_millis(30);
/// A paced run further behind its schedule than this (the machine cannot keep up) forgets the
/// debt instead of bursting to catch up later.
const MAX_LAG: Duration = Duration::from_millis(250);
/// Longest idle wait between two looks at the commands while a paced run waits for its next tick.
const IDLE_WAIT: Duration = Duration::from_millis(50);

/// What one run looks like from the UI.
#[derive(Debug, Clone, Default)]
struct RunState {
    progress: Option<Progress>,
    loading: Option<Loading>,
    view: Option<WorkbenchView>,
}

#[derive(Debug, Default)]
struct Shared {
    /// The newest restart's number: the worker publishes only about that one.
    generation: u64,
    /// Current, then baseline.
    runs: [RunState; 2],
    error: Option<DriverError>,
}

fn slot(run: Run) -> usize {
    match run {
        Run::Current => 0,
        Run::Baseline => 1,
    }
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    // A worker that panicked left the state as it was; reading it is still sound.
    shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

struct Design {
    scenario: Scenario,
    variant: Variant,
    seed: u64,
}

enum Command {
    Restart {
        design: Box<Design>,
        generation: u64,
    },
    Pace(Pace),
    OneTick,
    /// What views to build: the request, and whether compare wants the baseline too.
    View {
        request: ViewRequest,
        baseline: bool,
    },
    Console {
        request: String,
        answer: Sender<Result<String, DriverError>>,
    },
}

/// The UI's side. See the module documentation.
pub struct Worker {
    commands: Sender<Command>,
    shared: Arc<Mutex<Shared>>,
    newest: Arc<AtomicU64>,
    pace: Option<Pace>,
    /// The view request last sent and whether the baseline was asked for in the last frame.
    sent: RefCell<Option<(ViewRequest, bool)>>,
    baseline_asked: Cell<bool>,
}

impl Worker {
    /// Starts the worker thread. Fails only when the system cannot start a thread.
    pub fn spawn() -> std::io::Result<Worker> {
        let (commands, inbox) = mpsc::channel();
        let shared = Arc::new(Mutex::new(Shared::default()));
        let newest = Arc::new(AtomicU64::new(0));
        let mut thread = Thread::new(inbox, Arc::clone(&shared), Arc::clone(&newest));
        std::thread::Builder::new().name("keyheat-replay".to_owned()).spawn(move || thread.run())?;
        Ok(Worker {
            commands,
            shared,
            newest,
            pace: None,
            sent: RefCell::new(None),
            baseline_asked: Cell::new(false),
        })
    }

    fn send(&self, command: Command) {
        // The worker only stops when this side is dropped; a send that fails has nobody to tell.
        let _ = self.commands.send(command);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // A load in progress gives up at its next look; the channel closing ends the thread.
        self.newest.store(u64::MAX, Ordering::Relaxed);
    }
}

impl SimDriver for Worker {
    fn restart(&mut self, scenario: &Scenario, variant: &Variant, seed: u64) -> Result<(), DriverError> {
        let generation = {
            let mut s = lock(&self.shared);
            s.generation += 1;
            s.runs[0] = RunState { loading: Some(Loading::preload(0.0)), ..RunState::default() };
            s.runs[1].view = None;
            s.generation
        };
        self.newest.store(generation, Ordering::Relaxed);
        let design = Box::new(Design { scenario: scenario.clone(), variant: variant.clone(), seed });
        self.send(Command::Restart { design, generation });
        Ok(())
    }

    fn step(&mut self, _ticks: u32) -> u32 {
        // The worker paces itself (`pace`); a frame loop that steps gets nothing done here.
        0
    }

    fn progress(&self, run: Run) -> Option<Progress> {
        lock(&self.shared).runs[slot(run)].progress
    }

    fn snapshot(&self, request: &ViewRequest, run: Run) -> Option<WorkbenchView> {
        // A frame asks for the current run, then (in compare) for the baseline: the request sent
        // with the current one carries whether the frame before asked for the baseline.
        if run == Run::Baseline {
            self.baseline_asked.set(true);
        } else {
            let wanted = (request.clone(), self.baseline_asked.replace(false));
            let mut sent = self.sent.borrow_mut();
            if sent.as_ref() != Some(&wanted) {
                self.send(Command::View { request: wanted.0.clone(), baseline: wanted.1 });
                *sent = Some(wanted);
            }
        }
        lock(&self.shared).runs[slot(run)].view.clone()
    }

    fn console(&mut self, request: &str) -> Result<String, DriverError> {
        if let Some(loading) = self.loading(Run::Current) {
            return Err(DriverError::NotReady(loading));
        }
        let (answer, reply) = mpsc::channel();
        self.send(Command::Console { request: request.to_owned(), answer });
        match reply.recv_timeout(CONSOLE_WAIT) {
            Ok(result) => result,
            Err(RecvTimeoutError::Timeout) => Err(DriverError::Busy(CONSOLE_WAIT)),
            Err(RecvTimeoutError::Disconnected) => Err(DriverError::Stopped),
        }
    }

    fn pace(&mut self, pace: Pace) -> bool {
        if pace == Pace::OneTick {
            self.send(Command::OneTick);
        } else if self.pace != Some(pace) {
            self.pace = Some(pace);
            self.send(Command::Pace(pace));
        }
        true
    }

    fn loading(&self, run: Run) -> Option<Loading> {
        lock(&self.shared).runs[slot(run)].loading
    }

    fn take_error(&mut self) -> Option<DriverError> {
        lock(&self.shared).error.take()
    }
}

/// A replay and the restart number it answers.
struct Live {
    replay: Replay,
    generation: u64,
}

/// The worker's side: owns the runs.
struct Thread {
    inbox: Receiver<Command>,
    shared: Arc<Mutex<Shared>>,
    newest: Arc<AtomicU64>,
    current: Option<Live>,
    pending: Option<(Box<Design>, u64)>,
    /// The design that played before the last restart, and its replay while compare wants it.
    before: Option<Box<Design>>,
    baseline: Option<Replay>,
    pace: Pace,
    one_ticks: u32,
    /// Pacing origin: when (wall clock) the run was where (simulated clock).
    origin: Option<(Instant, SimTime)>,
    request: Option<ViewRequest>,
    compare: bool,
    /// A view must be built at once (a new request, a new run, a tick stepped by hand).
    stale: bool,
    built: Option<(Instant, SimTime)>,
    build_cost: Duration,
    closed: bool,
}

impl Thread {
    fn new(inbox: Receiver<Command>, shared: Arc<Mutex<Shared>>, newest: Arc<AtomicU64>) -> Thread {
        Thread {
            inbox,
            shared,
            newest,
            current: None,
            pending: None,
            before: None,
            baseline: None,
            pace: Pace::Paused,
            one_ticks: 0,
            origin: None,
            request: None,
            compare: false,
            stale: false,
            built: None,
            build_cost: Duration::ZERO,
            closed: false,
        }
    }

    fn run(&mut self) {
        while !self.closed {
            self.receive();
            if self.closed {
                return;
            }
            if let Some((design, generation)) = self.pending.take() {
                self.load(&design, generation);
                continue;
            }
            if self.compare && self.baseline.is_none() && self.current.is_some() && self.before.is_some() {
                self.load_baseline();
                continue;
            }
            let worked = self.work();
            self.maybe_publish_view(worked);
        }
    }

    /// Handles the commands waiting; when there is nothing to do, waits for one (or for the
    /// next paced tick).
    fn receive(&mut self) {
        let mut wait = self.idle_wait();
        loop {
            let next = match wait {
                None => self.inbox.try_recv().map_err(|e| e == TryRecvError::Disconnected),
                Some(d) => self.inbox.recv_timeout(d).map_err(|e| e == RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(command) => self.handle(command),
                Err(closed) => {
                    self.closed = closed;
                    return;
                }
            }
            wait = None;
        }
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Restart { design, generation } => {
                // The run that was playing is the baseline's design from now on; a restart that
                // never finished loading leaves the one before in place.
                self.baseline = None;
                if let Some(live) = self.current.take() {
                    let r = &live.replay;
                    let design =
                        Design { scenario: r.scenario.clone(), variant: r.variant.clone(), seed: r.seed };
                    self.before = Some(Box::new(design));
                    // A run replayed as rates was computed whole: it is the baseline as it is.
                    self.baseline = live.replay.is_rates().then_some(live.replay);
                }
                self.origin = None;
                self.one_ticks = 0;
                self.pending = Some((design, generation));
                self.publish_baseline();
            }
            Command::Pace(pace) => {
                self.pace = pace;
                self.origin = None;
            }
            Command::OneTick => self.one_ticks += 1,
            Command::View { request, baseline } => {
                self.stale |= self.request.as_ref() != Some(&request) || baseline != self.compare;
                self.request = Some(request);
                self.compare = baseline;
            }
            Command::Console { request, answer } => {
                let result = match &self.current {
                    Some(live) => live.replay.console(&request),
                    None => Err(DriverError::NotStarted),
                };
                let _ = answer.send(result);
            }
        }
    }

    /// `None` when there is work now; else how long to wait for a command.
    fn idle_wait(&self) -> Option<Duration> {
        if self.pending.is_some() || (self.stale && self.current.is_some()) {
            return None;
        }
        let Some(live) = &self.current else { return Some(IDLE_WAIT) };
        if self.baseline_behind() || (self.one_ticks > 0 && !live.replay.is_finished()) {
            return None;
        }
        if self.compare && self.baseline.is_none() && self.before.is_some() {
            return None;
        }
        match self.due() {
            Some(Duration::ZERO) => None,
            Some(d) => Some(d.min(IDLE_WAIT)),
            None => Some(IDLE_WAIT),
        }
    }

    /// When the current run's next tick is due: `Some(ZERO)` now, `None` never (paused, finished).
    fn due(&self) -> Option<Duration> {
        let live = self.current.as_ref()?;
        let sim = &live.replay;
        if sim.is_finished() {
            return None;
        }
        let Pace::At(speed) = self.pace else { return None };
        let Some(per_s) = speed.per_second() else { return Some(Duration::ZERO) };
        let Some((wall, at)) = self.origin else { return Some(Duration::ZERO) };
        let paid_ms = wall.elapsed().as_secs_f64() * 1000.0 * f64::from(per_s);
        let next_end_ms = (sim.now().since(at) + live.replay.progress.tick).as_millis() as f64;
        if paid_ms >= next_end_ms {
            Some(Duration::ZERO)
        } else {
            Some(Duration::from_secs_f64((next_end_ms - paid_ms) / 1000.0 / f64::from(per_s)))
        }
    }

    fn baseline_behind(&self) -> bool {
        match (&self.baseline, &self.current) {
            (Some(b), Some(c)) => self.compare && !b.is_finished() && b.now() < c.replay.now(),
            _ => false,
        }
    }

    /// Runs one chunk of whatever is due; true when a run moved.
    fn work(&mut self) -> bool {
        if self.baseline_behind() {
            if let Some(b) = self.baseline.as_mut() {
                b.advance(EVENTS_PER_CHUNK);
            }
            // Caught up: compare draws it at once.
            self.stale |= !self.baseline_behind();
            self.publish_baseline();
            return true;
        }
        let by_hand = self.one_ticks > 0;
        if !by_hand && self.due() != Some(Duration::ZERO) {
            return false;
        }
        let Some(live) = self.current.as_mut() else { return false };
        let sim = &mut live.replay;
        if self.origin.is_none() {
            self.origin = Some((Instant::now(), sim.now()));
        }
        match sim.advance(EVENTS_PER_CHUNK) {
            Some(true) if by_hand => {
                self.one_ticks -= 1;
                self.stale = true;
            }
            None => self.one_ticks = 0,
            Some(_) => {}
        }
        // A paced run that fell behind (a slow tick, a slow machine) starts its schedule anew.
        if let (Pace::At(speed), Some((wall, at))) = (self.pace, self.origin)
            && let Some(per_s) = speed.per_second()
        {
            let lag_ms = wall.elapsed().as_secs_f64() * 1000.0 * f64::from(per_s)
                - sim.now().since(at).as_millis() as f64;
            if lag_ms > MAX_LAG.as_secs_f64() * 1000.0 * f64::from(per_s) {
                self.origin = Some((Instant::now(), sim.now()));
            }
        }
        let progress = live.replay.progress();
        let generation = live.generation;
        let mut s = lock(&self.shared);
        if s.generation == generation {
            s.runs[0].progress = Some(progress);
        }
        true
    }

    /// Rebuilds the views when one is stale, or when the run moved and the last build is old
    /// enough: [`REFRESH`] at least, and nine times what it cost (so building takes at most a
    /// tenth of the worker's time).
    fn maybe_publish_view(&mut self, worked: bool) {
        let Some(live) = &self.current else { return };
        let Some(request) = &self.request else { return };
        let now = live.replay.now();
        let due = match self.built {
            None => true,
            Some((at, sim_at)) => {
                sim_at != now && at.elapsed() >= REFRESH.max(self.build_cost * 9) && (worked || !self.busy())
            }
        };
        if !(self.stale || due) {
            return;
        }
        let began = Instant::now();
        let r = &live.replay;
        let current = r.build(request);
        let baseline = self
            .baseline
            .as_ref()
            .filter(|_| self.compare && !self.baseline_behind())
            .map(|b| b.build(request));
        self.build_cost = began.elapsed();
        self.built = Some((Instant::now(), now));
        self.stale = false;
        let generation = live.generation;
        let progress = r.progress();
        let mut s = lock(&self.shared);
        if s.generation == generation {
            s.runs[0].view = Some(current);
            s.runs[0].progress = Some(progress);
            if baseline.is_some() {
                s.runs[1].view = baseline;
            }
        }
    }

    fn busy(&self) -> bool {
        self.due() == Some(Duration::ZERO)
    }

    /// Loads a restart's run, giving up when a newer restart is asked for.
    fn load(&mut self, design: &Design, generation: u64) {
        let loaded = self.load_reporting(design, generation, Run::Current);
        let mut s = lock(&self.shared);
        let newest = s.generation == generation;
        match loaded {
            Ok(Some(replay)) if newest => {
                s.runs[0] = RunState { progress: Some(replay.progress()), loading: None, view: None };
                drop(s);
                self.current = Some(Live { replay, generation });
                self.stale = true;
                self.built = None;
            }
            Err(e) if newest => {
                s.runs[0] = RunState::default();
                s.error = Some(DriverError::Start(e));
            }
            // Given up or overtaken: the newer restart is in the inbox.
            _ => {}
        }
    }

    /// Builds `design`'s replay for `run`'s slot, publishing the load's progress there every
    /// [`LOAD_REPORT`] while `generation` is the newest restart, and giving up (`Ok(None)`) as
    /// soon as it is not: a current run and a baseline load alike.
    fn load_reporting(&self, design: &Design, generation: u64, run: Run) -> Result<Option<Replay>, SimError> {
        let (shared, newest) = (Arc::clone(&self.shared), Arc::clone(&self.newest));
        let mut reported = Instant::now();
        Replay::loading(&design.scenario, &design.variant, design.seed, &mut |loading| {
            if newest.load(Ordering::Relaxed) != generation {
                return false;
            }
            if reported.elapsed() >= LOAD_REPORT {
                reported = Instant::now();
                let mut s = lock(&shared);
                if s.generation == generation {
                    s.runs[slot(run)].loading = Some(loading);
                }
            }
            true
        })
    }

    /// Starts replaying the design before the last restart (compare asked for it).
    fn load_baseline(&mut self) {
        let Some(design) = self.before.as_ref() else { return };
        let generation = self.current.as_ref().map_or(0, |c| c.generation);
        let loaded = self.load_reporting(design, generation, Run::Baseline);
        match loaded {
            Ok(Some(replay)) => {
                self.baseline = Some(replay);
                self.stale = true;
            }
            Ok(None) => {}
            Err(e) => {
                // The design ran before, so this is unexpected; say so and stop asking.
                self.before = None;
                lock(&self.shared).error = Some(DriverError::Baseline(e));
            }
        }
        self.publish_baseline();
    }

    /// Publishes whether a baseline exists and how far it has caught up.
    fn publish_baseline(&self) {
        let mut s = lock(&self.shared);
        let b = &mut s.runs[1];
        match (&self.baseline, &self.before) {
            (Some(replay), _) => {
                let current = self.current.as_ref().map(|c| c.replay.now());
                let start = replay.progress.start;
                let behind = current.filter(|&c| replay.now() < c && !replay.is_finished());
                b.progress = Some(replay.progress());
                b.loading = behind
                    .map(|c| Loading { stage: Stage::CatchUp, fraction: fraction(start, replay.now(), c) });
            }
            (None, Some(_)) => {
                *b = RunState { loading: Some(Loading::preload(0.0)), ..RunState::default() };
            }
            (None, None) => *b = RunState::default(),
        }
    }
}

/// How far `now` is from `start` toward `target`, 0..=1.
fn fraction(start: SimTime, now: SimTime, target: SimTime) -> f64 {
    let total = target.since(start).as_millis();
    if total == 0 { 1.0 } else { (now.since(start).as_millis() as f64 / total as f64).min(1.0) }
}
