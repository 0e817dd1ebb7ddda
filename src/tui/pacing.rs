//! How fast the replay runs: a ladder of speeds (simulated time per second of real time, up to
//! "as fast as the machine allows") and the arithmetic that turns real time elapsed into ticks
//! owed. The frame loop then steps at most that many ticks within its per-frame budget.

use std::collections::VecDeque;
use std::time::Duration;

use crate::engine::time::{SimDuration, SimTime};

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
    /// Simulated seconds per real second; `None` flat out.
    pub fn per_second(self) -> Option<u32> {
        self.0
    }

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

/// The speed a run achieves: simulated time per second of real time, over the last
/// [`Speedometer::WINDOW`] of real time. Fed (real time so far, the run's clock) once a frame.
#[derive(Debug, Clone, Default)]
pub struct Speedometer {
    samples: VecDeque<(Duration, SimTime)>,
}

impl Speedometer {
    /// How much real time the figure averages over.
    pub const WINDOW: Duration = Duration::from_secs(2);
    /// Less real time than this says nothing yet.
    pub const MIN_SPAN: Duration = Duration::from_millis(500);

    /// Records where the run is at real time `wall`. A clock that went back (a restart) starts
    /// the measurement anew.
    pub fn sample(&mut self, wall: Duration, at: SimTime) {
        if self.samples.back().is_some_and(|&(w, t)| at < t || wall < w) {
            self.samples.clear();
        }
        self.samples.push_back((wall, at));
        while self.samples.len() > 2
            && self.samples.front().is_some_and(|&(w, _)| wall.saturating_sub(w) > Self::WINDOW)
        {
            self.samples.pop_front();
        }
    }

    pub fn reset(&mut self) {
        self.samples.clear();
    }

    /// Simulated seconds per real second, once the samples span [`Self::MIN_SPAN`].
    pub fn achieved(&self) -> Option<f64> {
        let (&(w0, t0), &(w1, t1)) = (self.samples.front()?, self.samples.back()?);
        let span = w1.checked_sub(w0)?;
        (span >= Self::MIN_SPAN).then(|| t1.since(t0).as_secs_f64() / span.as_secs_f64())
    }
}

/// A speed as the status line writes it: simulated time per real second (`52 min/s`).
pub fn rate_label(sim_secs_per_s: f64) -> String {
    if sim_secs_per_s < 1.0 {
        format!("{}s/s", crate::engine::planner::numbers::count(sim_secs_per_s))
    } else {
        format!("{}/s", crate::engine::planner::numbers::span(sim_secs_per_s)).replace(' ', "")
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

    type Case = (&'static [(u64, u64)], Option<f64>);

    #[test]
    fn the_speedometer_reads_simulated_time_per_real_second_over_its_window() {
        let t0 = SimTime::parse("2025-01-01T00:00:00Z").expect("a valid time");
        let at = |s: u64| t0 + SimDuration::from_secs(s);
        let ms = Duration::from_millis;
        // (samples as (real ms, simulated s), achieved)
        let cases: [Case; 6] = [
            (&[], None),
            (&[(0, 0)], None),
            // Less than half a second of real time says nothing yet.
            (&[(0, 0), (400, 1440)], None),
            // An hour a second, asked and achieved.
            (&[(0, 0), (500, 1800), (1000, 3600)], Some(3600.0)),
            // Only the last two seconds count: a slow start is forgotten.
            (&[(0, 0), (1000, 10), (2000, 20), (3000, 7210)], Some(3600.0)),
            // A restart (the clock went back) starts anew.
            (&[(0, 0), (1000, 3600), (1100, 0), (1700, 60)], Some(100.0)),
        ];
        for (samples, want) in cases {
            let mut s = Speedometer::default();
            for &(w, t) in samples {
                s.sample(ms(w), at(t));
            }
            assert_eq!(s.achieved(), want, "{samples:?}");
        }
    }

    #[test]
    fn rates_read_as_time_per_second() {
        let cases = [
            (0.5, "0.5s/s"),
            (1.0, "1s/s"),
            (14.0, "14s/s"),
            (3120.0, "52min/s"),
            (86_400.0 * 2.6, "2.6days/s"),
        ];
        for (rate, want) in cases {
            assert_eq!(rate_label(rate), want, "{rate}");
        }
    }
}
