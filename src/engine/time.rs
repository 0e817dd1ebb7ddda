//! Simulated time. Only the simulator (and `keyheat ops`' `AdvanceTime`) moves a clock; nothing
//! in the engine reads the wall clock.
//!
//! `SimTime` is milliseconds since the Unix epoch, so TTL attributes (epoch seconds) and calendar
//! key buckets (`{ts:%Y-%m}`) mean what they mean in a real table.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SimTime(u64);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SimDuration(u64);

impl SimTime {
    pub const EPOCH: SimTime = SimTime(0);

    pub const fn from_millis(ms: u64) -> SimTime {
        SimTime(ms)
    }

    pub const fn from_secs(secs: u64) -> SimTime {
        SimTime(secs * 1000)
    }

    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// Whole seconds since the epoch (what a TTL attribute holds).
    pub const fn as_secs(self) -> u64 {
        self.0 / 1000
    }

    /// Time elapsed since `earlier`, zero if `earlier` is later.
    pub fn since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub const fn from_millis(ms: u64) -> SimDuration {
        SimDuration(ms)
    }

    pub const fn from_secs(secs: u64) -> SimDuration {
        SimDuration(secs * 1000)
    }

    pub const fn as_millis(self) -> u64 {
        self.0
    }

    pub const fn as_secs(self) -> u64 {
        self.0 / 1000
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// Parses `250ms`, `90s`, `15m`, `6h`, `30d`, `52w` (one number, one unit).
    pub fn parse(text: &str) -> Result<SimDuration, DurationError> {
        let bad = || DurationError(text.to_owned());
        let split = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
        let (digits, unit) = text.split_at(split);
        let value: u64 = digits.parse().map_err(|_| bad())?;
        let unit_ms: u64 = match unit {
            "ms" => 1,
            "s" => 1000,
            "m" => 60_000,
            "h" => 3_600_000,
            "d" => 86_400_000,
            "w" => 604_800_000,
            _ => return Err(bad()),
        };
        value.checked_mul(unit_ms).map(SimDuration).ok_or_else(bad)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a duration: expected a whole number and a unit, like 250ms, 90s, 15m, 6h, 30d or 52w")]
pub struct DurationError(pub String);

/// Shortest exact form in the largest unit that divides it: `90s`, `15m`, `30d`.
impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [(u64, &str); 6] =
            [(604_800_000, "w"), (86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1000, "s"), (1, "ms")];
        if self.0 == 0 {
            return f.write_str("0s");
        }
        let (size, unit) =
            UNITS.iter().find(|(size, _)| self.0.is_multiple_of(*size)).copied().unwrap_or((1, "ms"));
        write!(f, "{}{unit}", self.0 / size)
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, rhs: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, rhs: SimDuration) {
        self.0 = self.0.saturating_add(rhs.0);
    }
}

impl Sub<SimTime> for SimTime {
    type Output = SimDuration;
    fn sub(self, rhs: SimTime) -> SimDuration {
        self.since(rhs)
    }
}

impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, rhs: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(rhs.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_durations() {
        let cases = [
            ("250ms", 250),
            ("90s", 90_000),
            ("15m", 900_000),
            ("6h", 21_600_000),
            ("30d", 2_592_000_000),
            ("52w", 31_449_600_000),
        ];
        for (text, ms) in cases {
            let d = SimDuration::parse(text).unwrap();
            assert_eq!(d.as_millis(), ms, "{text}");
            assert_eq!(d.to_string(), text);
        }
        assert_eq!(SimDuration::from_secs(120).to_string(), "2m");
    }

    #[test]
    fn rejects_bad_durations() {
        for text in ["", "s", "10", "10x", "1.5h", "-3s", "10 s", "99999999999999999999w"] {
            assert!(SimDuration::parse(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn clock_arithmetic_saturates() {
        let t = SimTime::from_secs(10);
        assert_eq!((t + SimDuration::from_secs(5)).as_secs(), 15);
        assert_eq!(SimTime::from_secs(3) - t, SimDuration::ZERO);
    }
}
