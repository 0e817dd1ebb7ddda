//! Simulated time. Only the simulator (and `keyheat ops`' `AdvanceTime`) moves a clock; nothing
//! in the engine reads the wall clock.
//!
//! `SimTime` is milliseconds since the Unix epoch, so TTL attributes (epoch seconds) and calendar
//! key buckets (`{ts:%Y-%m}`) mean what they mean in a real table. `calendar` turns instants into
//! UTC calendar fields; `format` prints them with a compiled strftime subset.

mod calendar;
mod format;

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

pub use calendar::{Civil, CivilDate, days_in_month, is_leap_year};
pub use format::{Resolution, TimeFormat, TimeFormatError};
pub(crate) use format::{push_integer, push_padded};

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

    /// The UTC calendar fields of this instant.
    pub fn civil(self) -> Civil {
        Civil::from_sim_millis(self.0)
    }

    /// The instant of `civil`, or `None` when it lies before the epoch, past `u64` milliseconds,
    /// or has a clock field out of range.
    pub fn from_civil(civil: &Civil) -> Option<SimTime> {
        civil.epoch_millis().and_then(|ms| u64::try_from(ms).ok()).map(SimTime)
    }

    /// Parses `2024-03-01` (midnight) or `2024-03-01T08:05:09Z`, optionally with milliseconds
    /// (`…09.250Z`): the forms `Display` prints. UTC only, from the epoch on.
    pub fn parse(text: &str) -> Result<SimTime, TimeParseError> {
        let bad = || TimeParseError(text.to_owned());
        let number = |range: std::ops::Range<usize>| -> Result<u16, TimeParseError> {
            let digits = text.get(range).ok_or_else(bad)?;
            if digits.bytes().all(|b| b.is_ascii_digit()) {
                digits.parse().map_err(|_| bad())
            } else {
                Err(bad())
            }
        };
        let separators_at =
            |positions: &[(usize, u8)]| positions.iter().all(|&(i, c)| text.as_bytes().get(i) == Some(&c));
        if !separators_at(&[(4, b'-'), (7, b'-')]) {
            return Err(bad());
        }
        let month = u8::try_from(number(5..7)?).map_err(|_| bad())?;
        let day = u8::try_from(number(8..10)?).map_err(|_| bad())?;
        let date = CivilDate::new(i64::from(number(0..4)?), month, day).ok_or_else(bad)?;
        let mut civil = Civil { date, hour: 0, minute: 0, second: 0, millis: 0 };
        if text.len() > 10 {
            if !separators_at(&[(10, b'T'), (13, b':'), (16, b':')]) || !text.ends_with('Z') {
                return Err(bad());
            }
            let clock = |range| number(range).and_then(|v| u8::try_from(v).map_err(|_| bad()));
            civil.hour = clock(11..13)?;
            civil.minute = clock(14..16)?;
            civil.second = clock(17..19)?;
            match text.len() {
                20 => {}
                24 if separators_at(&[(19, b'.')]) => civil.millis = number(20..23)?,
                _ => return Err(bad()),
            }
        }
        SimTime::from_civil(&civil).ok_or_else(bad)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a time: expected a UTC date and time like 2024-03-01 or 2024-03-01T08:05:09Z, from 1970 on"
)]
pub struct TimeParseError(pub String);

/// RFC 3339 in UTC: `2024-03-01T08:05:09Z`, with `.250` before the `Z` when there are milliseconds.
impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Civil { date, hour, minute, second, millis } = self.civil();
        write!(
            f,
            "{:04}-{:02}-{:02}T{hour:02}:{minute:02}:{second:02}",
            date.year(),
            date.month(),
            date.day()
        )?;
        if millis > 0 {
            write!(f, ".{millis:03}")?;
        }
        f.write_str("Z")
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
        let bad = || DurationError::NotADuration(text.to_owned());
        let split = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
        let (digits, unit) = text.split_at(split);
        if digits.is_empty() {
            return Err(bad());
        }
        let unit_ms: u64 = match unit {
            "ms" => 1,
            "s" => 1000,
            "m" => 60_000,
            "h" => 3_600_000,
            "d" => 86_400_000,
            "w" => 604_800_000,
            _ => return Err(bad()),
        };
        // Only digits are left, so a failed parse is a number past u64.
        let too_long = || DurationError::TooLong(text.to_owned());
        let value: u64 = digits.parse().map_err(|_| too_long())?;
        value.checked_mul(unit_ms).map(SimDuration).ok_or_else(too_long)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error(
        "{0:?} is not a duration: expected a whole number and a unit, like 250ms, 90s, 15m, 6h, 30d or 52w"
    )]
    NotADuration(String),
    /// Simulated time is counted in u64 milliseconds.
    #[error("{0:?} is too long: simulated time is counted in milliseconds, up to about 584 million years")]
    TooLong(String),
}

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

/// Scenario files write times and durations as their text (`"2024-03-01T00:00:00Z"`, `"15m"`).
impl serde::Serialize for SimTime {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for SimTime {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SimTime, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        SimTime::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl serde::Serialize for SimDuration {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for SimDuration {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SimDuration, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        SimDuration::parse(&text).map_err(serde::de::Error::custom)
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
        for text in ["", "s", "10", "10x", "1.5h", "-3s", "10 s", "w99"] {
            assert_eq!(
                SimDuration::parse(text),
                Err(DurationError::NotADuration(text.to_owned())),
                "{text:?}"
            );
        }
        // Well-formed but past what a u64 of milliseconds holds: too long, not "not a duration".
        for text in ["99999999999w", "99999999999999999999w", "18446744073709551616ms"] {
            let error = SimDuration::parse(text).unwrap_err();
            assert_eq!(error, DurationError::TooLong(text.to_owned()), "{text:?}");
            assert!(error.to_string().contains("is too long"), "{error}");
        }
        assert_eq!(SimDuration::parse("18446744073709551615ms"), Ok(SimDuration::from_millis(u64::MAX)));
    }

    #[test]
    fn parses_and_prints_times() {
        let cases = [
            ("1970-01-01T00:00:00Z", 0),
            ("2024-02-29T23:59:59.999Z", 1_709_251_199_999),
            ("2024-03-01T08:05:09Z", 1_709_280_309_000),
            ("2038-01-19T03:14:08Z", 2_147_483_648_000),
        ];
        for (text, ms) in cases {
            let t = SimTime::parse(text).unwrap();
            assert_eq!(t.as_millis(), ms, "{text}");
            assert_eq!(t.to_string(), text);
        }
        assert_eq!(SimTime::parse("2024-03-01").unwrap().to_string(), "2024-03-01T00:00:00Z");
        assert_eq!(SimTime::from_millis(u64::MAX).to_string(), "584556019-04-03T14:25:51.615Z");
    }

    #[test]
    fn rejects_bad_times() {
        let cases = [
            "",
            "2024",
            "2024-3-01",
            "2024-02-30",
            "2023-02-29",
            "2024-13-01",
            "1969-12-31",
            "2024-03-01T08:05:09",
            "2024-03-01T08:05:09+01:00",
            "2024-03-01T24:00:00Z",
            "2024-03-01T08:60:00Z",
            "2024-03-01T08:05:09.5Z",
            "2024-03-01 08:05:09Z",
            "+024-03-01",
            "2024-03-01T08:05:09.99éZ",
        ];
        for text in cases {
            assert!(SimTime::parse(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn times_and_durations_serialize_as_text() {
        let t = SimTime::parse("2024-03-01T08:05:09Z").unwrap();
        let json = serde_json::to_string(&(t, SimDuration::from_secs(900))).unwrap();
        assert_eq!(json, r#"["2024-03-01T08:05:09Z","15m"]"#);
        let back: (SimTime, SimDuration) = serde_json::from_str(&json).unwrap();
        assert_eq!(back, (t, SimDuration::from_secs(900)));
        let error = serde_json::from_str::<SimDuration>(r#""15 minutes""#).unwrap_err();
        assert!(error.to_string().contains("expected a whole number and a unit"), "{error}");
    }

    #[test]
    fn clock_arithmetic_saturates() {
        let t = SimTime::from_secs(10);
        assert_eq!((t + SimDuration::from_secs(5)).as_secs(), 15);
        assert_eq!(SimTime::from_secs(3) - t, SimDuration::ZERO);
    }
}
