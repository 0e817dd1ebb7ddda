//! How a key group's time slot cuts time into the buckets whose partitions a meter holds: fixed
//! widths (`{bucket(sent_at, 10d)}`), or a calendar format's periods (`{sent_at:%Y-%m}`: months
//! of 28 to 31 days, so no width serves). A bucket is named by its first second; its keys are
//! the text of any second in it.
//!
//! A calendar period is found from the text alone: the seconds whose text is that of a given
//! second form one run around it no longer than the format's finest unit can last (a month at
//! most 31 days, an ISO year 371), so its start and end are binary searches over that span.
//! Formats whose text comes back after it changed (`%d` alone) are refused by the replay when
//! a closed bucket's text recurs.

use std::cell::Cell;

use crate::engine::time::{Resolution, TimeFormat};

use super::super::super::templates::Slot;
use super::super::model::KeyGroup;

const DAY: i64 = 86_400;

#[derive(Debug)]
enum Kind {
    /// No time slot: one bucket, named 0, for the whole run.
    Whole,
    Fixed {
        width_ms: i64,
    },
    /// `longest`: the most seconds one of the format's periods can last.
    Calendar {
        format: TimeFormat,
        longest: i64,
    },
}

/// One key group's buckets, with the last calendar period found (`[start, end)`): a tick asks
/// for the same one many times.
#[derive(Debug)]
pub struct Buckets {
    kind: Kind,
    last: Cell<(i64, i64)>,
}

impl Buckets {
    pub fn of(group: &KeyGroup) -> Buckets {
        let kind = group
            .pk
            .slots
            .iter()
            .find_map(|slot| match slot {
                Slot::Bucket { width_ms, .. } => Some(Kind::Fixed { width_ms: *width_ms }),
                Slot::Time { format, .. } => format
                    .resolution()
                    .map(|r| Kind::Calendar { format: format.clone(), longest: longest_secs(r) }),
                _ => None,
            })
            .unwrap_or(Kind::Whole);
        Buckets { kind, last: Cell::new((0, 0)) }
    }

    /// Whether the buckets are a calendar format's periods, each found by formatting times
    /// (`calendar_period`): worth remembering where a reader walks many of them.
    pub fn calendar(&self) -> bool {
        matches!(self.kind, Kind::Calendar { .. })
    }

    /// The first second of the bucket holding second `secs` (0 without a time slot).
    pub fn start(&self, secs: i64) -> i64 {
        match &self.kind {
            Kind::Whole => 0,
            Kind::Fixed { width_ms } => (i128::from(secs) * 1000)
                .div_euclid(i128::from(*width_ms))
                .saturating_mul(i128::from(*width_ms))
                .div_euclid(1000)
                .try_into()
                .unwrap_or(i64::MAX),
            Kind::Calendar { format, longest } => {
                let (lo, hi) = self.last.get();
                if (lo..hi).contains(&secs) {
                    return lo;
                }
                let period = calendar_period(format, *longest, secs);
                self.last.set(period);
                period.0
            }
        }
    }

    /// The second after the bucket starting at `start` ends (`None` without a time slot).
    pub fn end(&self, start: i64) -> Option<i64> {
        match &self.kind {
            Kind::Whole => None,
            Kind::Fixed { width_ms } => Some(start + width_ms / 1000),
            Kind::Calendar { format, longest } => {
                let (lo, hi) = self.last.get();
                if lo == start && hi > lo {
                    return Some(hi);
                }
                let period = calendar_period(format, *longest, start);
                self.last.set(period);
                Some(period.1)
            }
        }
    }
}

/// The most seconds one period of a format of this resolution lasts: its finest unit's longest.
fn longest_secs(resolution: Resolution) -> i64 {
    match resolution {
        Resolution::Second => 1,
        Resolution::Minute => 60,
        Resolution::Hour => 3_600,
        Resolution::Day => DAY,
        Resolution::Week => 7 * DAY,
        Resolution::Month => 31 * DAY,
        // An ISO 8601 week-based year (`%G`) has 52 or 53 weeks.
        Resolution::Year => 371 * DAY,
    }
}

/// `[start, end)`: the seconds around `secs` whose text is `secs`'s.
fn calendar_period(format: &TimeFormat, longest: i64, secs: i64) -> (i64, i64) {
    let text = |s: i64| {
        let mut out = String::new();
        format.write_epoch_millis(i128::from(s) * 1000, &mut out);
        out
    };
    let own = text(secs);
    // The first second with the text: past `lo`, at most `hi`.
    let (mut lo, mut hi) = (secs.saturating_sub(longest), secs);
    if text(lo) == own {
        hi = lo;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if text(mid) == own { hi = mid } else { lo = mid }
    }
    let start = hi;
    // The first second after it with another text: past `lo`, at most `hi`.
    let (mut lo, mut hi) = (secs, start.saturating_add(longest));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if text(mid) == own { lo = mid } else { hi = mid }
    }
    (start, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2025-01-01T00:00:00Z.
    const NEW_YEAR_2025: i64 = 1_735_689_600;

    #[test]
    fn a_calendar_period_runs_from_its_first_second_to_the_next_text() {
        // (format, a second in the period, its start and end as days after 2025-01-01).
        let cases: [(&str, i64, i64, i64); 6] = [
            ("%Y-%m", 40 * DAY + 5, 31, 59),        // February 2025: 28 days
            ("%Y-%m", 31 * DAY, 31, 59),            // its first second
            ("%Y-%m", 59 * DAY - 1, 31, 59),        // its last second
            ("%Y", 100 * DAY, 0, 365),              // 2025
            ("%G-W%V", 0, -2, 5),                   // ISO week 2025-W01: Mon 30 Dec 2024
            ("%Y-%m-%d", 10 * DAY + 3_600, 10, 11), // one day
        ];
        for (source, at, start_day, end_day) in cases {
            let format = TimeFormat::parse(source).expect("a valid format");
            let longest = longest_secs(format.resolution().expect("a time field"));
            let (start, end) = calendar_period(&format, longest, NEW_YEAR_2025 + at);
            assert_eq!(
                (start, end),
                (NEW_YEAR_2025 + start_day * DAY, NEW_YEAR_2025 + end_day * DAY),
                "{source} at {at}"
            );
        }
    }

    #[test]
    fn an_hourly_period_is_its_hour() {
        let format = TimeFormat::parse("%Y-%m-%dT%H").expect("a valid format");
        let at = NEW_YEAR_2025 + 5 * 3_600 + 1_234;
        let period = calendar_period(&format, 3_600, at);
        assert_eq!(period, (NEW_YEAR_2025 + 5 * 3_600, NEW_YEAR_2025 + 6 * 3_600));
    }
}
