//! The run's pacing: where simulated time stands, how long a tick is, and the calls
//! each pattern makes in the open tick. `Simulation::advance` moves it; everything else reads it.

use crate::engine::workload::Picker;

/// The simulated clock and the open tick's call plan.
#[derive(Debug)]
pub(super) struct Pacing {
    /// The run's start (ms since the epoch).
    pub start_ms: u64,
    pub tick_ms: u64,
    pub tick_secs: f64,
    /// Ticks in the run, and the next tick to run.
    pub ticks: u32,
    pub tick: u32,
    /// The tick `tick` has started and some of its events have run (see `Simulation::advance`).
    pub mid_tick: bool,
    /// Ticks in the heat-split window.
    pub window_ticks: u32,
    /// Per pattern: its calls in the open tick.
    pub calls: Vec<TickCalls>,
    /// Per pattern with a `keys` distribution: its picker, rebuilt when the population it
    /// picks from has grown.
    pub keys_pickers: Vec<Option<Picker>>,
}

/// One pattern's calls in the open tick.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct TickCalls {
    /// Calls this tick.
    pub n: u32,
    /// The first call's index among the pattern's calls.
    pub first: u64,
    /// Calls made so far this tick.
    pub made: u32,
    /// When the next call is made (`call_time` of call `made`), while `made < n`: kept so that
    /// choosing the next event divides only for the pattern whose call was made.
    pub next_ms: u64,
}

impl Pacing {
    /// The time of call `k` of `n` in tick `tick`: spread evenly.
    pub fn call_time(&self, tick: u32, k: u64, n: u32) -> u64 {
        let start = self.tick_start(tick);
        if n == 0 {
            return start;
        }
        start + (2 * k + 1) * self.tick_ms / (2 * u64::from(n))
    }

    /// When tick `tick` starts (ms since the epoch).
    pub fn tick_start(&self, tick: u32) -> u64 {
        self.start_ms + u64::from(tick) * self.tick_ms
    }

    /// Tick `tick` is in the run's first tenth.
    pub fn is_head(&self, tick: u32) -> bool {
        tick < self.ticks.div_ceil(10)
    }

    /// Tick `tick` is in the run's last tenth.
    pub fn is_tail(&self, tick: u32) -> bool {
        tick >= self.ticks - self.ticks.div_ceil(10)
    }
}
