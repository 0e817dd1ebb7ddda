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
    /// Ticks in the heat-split window, and the window of tick `tick` (`tick / window_ticks`,
    /// kept as the tick moves so that an operation's load does not divide for it).
    pub window_ticks: u32,
    pub window: u32,
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
    /// choosing the next event reads it.
    pub next_ms: u64,
    /// `call_time`'s division for call `made`, carried from call to call: the remainder of
    /// `(2·made + 1)·tick_ms` by `2n`, and the quotient and remainder of `2·tick_ms` by `2n`
    /// that one call adds. A division per call was a sixth of choosing the next event.
    rem: u64,
    step: u64,
    step_rem: u64,
}

impl TickCalls {
    /// The `n` calls of tick `tick` from call `first` on, none made yet.
    pub fn new(pacing: &Pacing, tick: u32, n: u32, first: u64) -> TickCalls {
        let (twice, span) = (2 * u64::from(n), pacing.tick_ms);
        let (step, step_rem, rem) = match twice {
            0 => (0, 0, 0),
            _ => (2 * span / twice, 2 * span % twice, span % twice),
        };
        let next_ms = pacing.call_time(tick, 0, n);
        TickCalls { n, first, made: 0, next_ms, rem, step, step_rem }
    }

    /// Counts call `made` as made, and moves `next_ms` to the next call's time.
    pub fn step(&mut self) {
        self.made += 1;
        let rem = self.rem + self.step_rem;
        let carry = u64::from(rem >= 2 * u64::from(self.n));
        self.rem = rem - carry * 2 * u64::from(self.n);
        self.next_ms += self.step + carry;
    }
}

impl Pacing {
    /// Moves to the next tick.
    pub fn next_tick(&mut self) {
        self.tick += 1;
        self.window = self.tick / self.window_ticks;
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    fn pacing(tick_ms: u64) -> Pacing {
        Pacing {
            start_ms: 1_735_689_600_000,
            tick_ms,
            tick_secs: tick_ms as f64 / 1000.0,
            ticks: 10,
            tick: 0,
            mid_tick: false,
            window_ticks: 1,
            window: 0,
            calls: Vec::new(),
            keys_pickers: Vec::new(),
        }
    }

    proptest::proptest! {
        #[test]
        fn stepped_call_times_are_the_divided_ones(
            tick_ms in 1u64..10_000_000,
            n in 0u32..5_000,
            tick in 0u32..1_000_000,
        ) {
            let pacing = pacing(tick_ms);
            let mut calls = TickCalls::new(&pacing, tick, n, 7);
            for k in 0..n {
                proptest::prop_assert_eq!(calls.made, k);
                proptest::prop_assert_eq!(calls.next_ms, pacing.call_time(tick, u64::from(k), n));
                calls.step();
            }
        }
    }

    #[test]
    fn calls_spread_evenly_over_their_tick() {
        // (tick ms, calls, each call's offset into the tick)
        let cases: [(u64, u32, &[u64]); 4] = [
            (1000, 1, &[500]),
            (1000, 4, &[125, 375, 625, 875]),
            (60_000, 3, &[10_000, 30_000, 50_000]),
            (7, 3, &[1, 3, 5]),
        ];
        for (tick_ms, n, offsets) in cases {
            let pacing = pacing(tick_ms);
            let mut calls = TickCalls::new(&pacing, 2, n, 0);
            for &offset in offsets {
                assert_eq!(calls.next_ms - pacing.tick_start(2), offset, "{n} calls in {tick_ms} ms");
                calls.step();
            }
        }
    }
}
