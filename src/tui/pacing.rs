//! How fast the replay runs: a ladder of speeds (simulated time per second of real time, up to
//! "as fast as the machine allows") and the arithmetic that turns real time elapsed into ticks
//! owed. The frame loop then steps at most that many ticks within its per-frame budget.

use std::time::Duration;

use crate::engine::time::SimDuration;

/// Simulated seconds per real second; `None` is as fast as the machine allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Speed(Option<u32>);

/// The `+`/`-` ladder: real time, 10×, a minute, ten minutes, an hour, six hours, a day and a
/// week per second, then flat out.
pub const SPEEDS: [Speed; 9] = [
    Speed(Some(1)),
    Speed(Some(10)),
    Speed(Some(60)),
    Speed(Some(600)),
    Speed(Some(3600)),
    Speed(Some(21_600)),
    Speed(Some(86_400)),
    Speed(Some(604_800)),
    Speed(None),
];

/// Where the ladder starts: an hour per second shows a day's cycle in 24 seconds.
pub const DEFAULT_SPEED: usize = 4;

impl Speed {
    pub fn label(self) -> String {
        match self.0 {
            None => "max speed".to_owned(),
            Some(1) => "real time".to_owned(),
            Some(s) => format!("{}/s", SimDuration::from_secs(u64::from(s))),
        }
    }
}

/// Carries the fraction of a tick that real time has paid for but not yet bought.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Pacer {
    carry_ms: f64,
}

impl Pacer {
    /// Ticks owed after `elapsed` real time at `speed` with ticks of `tick`. Flat out owes
    /// `u64::MAX` (the frame budget decides). A zero tick owes nothing.
    pub fn owed(&mut self, elapsed: Duration, speed: Speed, tick: SimDuration) -> u64 {
        let Some(per_s) = speed.0 else { return u64::MAX };
        if tick.as_millis() == 0 {
            return 0;
        }
        let sim_ms = self.carry_ms + elapsed.as_secs_f64() * 1000.0 * f64::from(per_s);
        let tick_ms = tick.as_millis() as f64;
        let ticks = (sim_ms / tick_ms).floor();
        self.carry_ms = sim_ms - ticks * tick_ms;
        crate::engine::planner::numbers::floor_u64(ticks)
    }

    /// Forgets debt the machine could not pay within its budget, so a slow stretch does not
    /// turn into a burst later.
    pub fn forgive(&mut self) {
        self.carry_ms = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_time_pays_ticks_and_carries_fractions() {
        let mut p = Pacer::default();
        let second = SimDuration::from_secs(1);
        let frame = Duration::from_millis(50);
        // Real time, 1 s ticks: 20 frames of 50 ms make one tick, not earlier.
        let owed: Vec<u64> = (0..20).map(|_| p.owed(frame, SPEEDS[0], second)).collect();
        assert_eq!(owed.iter().sum::<u64>(), 1);
        assert_eq!(owed[19], 1);
        // An hour a second: 50 ms buys 180 one-second ticks.
        assert_eq!(Pacer::default().owed(frame, SPEEDS[4], second), 180);
        // A minute a second with 15-minute ticks: one tick every 15 s of real time.
        let mut p = Pacer::default();
        assert_eq!(p.owed(Duration::from_secs(14), SPEEDS[2], SimDuration::from_secs(900)), 0);
        assert_eq!(p.owed(Duration::from_secs(1), SPEEDS[2], SimDuration::from_secs(900)), 1);
        assert_eq!(Pacer::default().owed(frame, SPEEDS[8], second), u64::MAX);
        assert_eq!(Pacer::default().owed(frame, SPEEDS[0], SimDuration::ZERO), 0);
        let mut p = Pacer::default();
        p.owed(Duration::from_millis(900), SPEEDS[0], second);
        p.forgive();
        assert_eq!(p.owed(Duration::from_millis(200), SPEEDS[0], second), 0);
    }

    #[test]
    fn speeds_read_as_time_per_second() {
        let labels: Vec<String> = SPEEDS.iter().map(|s| s.label()).collect();
        assert_eq!(
            labels,
            ["real time", "10s/s", "1m/s", "10m/s", "1h/s", "6h/s", "1d/s", "1w/s", "max speed"]
        );
    }
}
