//! The proleptic Gregorian calendar in UTC: days since the Unix epoch ↔ year/month/day, and the
//! derived fields time formats print (day of year, weekdays, ISO weeks). No time zones, no leap
//! seconds (Unix time has none either).
//!
//! The day-count conversion shifts the year to start on 1 March, so the leap day is the last day
//! of a shifted year, and counts whole 400-year eras of 146,097 days. This is the method Howard
//! Hinnant describes in "chrono-Compatible Low-Level Date Algorithms"; it is exact for every
//! `i64` day count whose year fits in an `i64`.

/// Days in a 400-year Gregorian cycle.
const DAYS_PER_ERA: i64 = 146_097;
/// Days from 0000-03-01 (the start of the shifted era 0) to 1970-01-01.
const EPOCH_SHIFT: i64 = 719_468;
pub(crate) const MILLIS_PER_DAY: u64 = 86_400_000;

/// Narrows a value the calendar arithmetic has already bounded (a month, a day, a week, the
/// milliseconds within a day). The `expect` states that invariant; no input reaches it.
pub(crate) fn bounded<T: TryFrom<U>, U>(value: U) -> T {
    T::try_from(value).ok().expect("calendar arithmetic keeps every field within its type")
}

/// Splits milliseconds since the epoch into whole days and the milliseconds into the last one;
/// `None` when the day count does not fit in an `i64`.
pub(crate) fn split_millis(ms: i128) -> Option<(i64, u32)> {
    // 64-bit division when it fits (every real timestamp): 128-bit division is a slow library
    // call, and key expansion splits a timestamp per calendar slot.
    if let Ok(ms) = i64::try_from(ms) {
        let day_ms = MILLIS_PER_DAY.cast_signed();
        return Some((ms.div_euclid(day_ms), bounded(ms.rem_euclid(day_ms))));
    }
    let day_ms = i128::from(MILLIS_PER_DAY);
    let days = i64::try_from(ms.div_euclid(day_ms)).ok()?;
    Some((days, bounded(ms.rem_euclid(day_ms))))
}

pub fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `month` (1..=12) of `year`; 0 for a month outside 1..=12.
pub fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// A calendar date. Constructed only through [`CivilDate::new`] or from a day count, so the day
/// always exists in its month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CivilDate {
    year: i64,
    month: u8,
    day: u8,
}

impl CivilDate {
    /// The date, or `None` when the month or day does not exist (2023-02-29, month 13).
    pub fn new(year: i64, month: u8, day: u8) -> Option<CivilDate> {
        (day >= 1 && day <= days_in_month(year, month)).then_some(CivilDate { year, month, day })
    }

    pub fn year(self) -> i64 {
        self.year
    }

    pub fn month(self) -> u8 {
        self.month
    }

    pub fn day(self) -> u8 {
        self.day
    }

    /// Days since 1970-01-01 (negative before it).
    pub fn days_since_epoch(self) -> i64 {
        let year = if self.month <= 2 { self.year - 1 } else { self.year };
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400; // 0..=399
        let shifted_month = i64::from((self.month + 9) % 12); // March = 0 … February = 11
        // 153 days per 5 shifted months (31+30+31+30+31): the month lengths March..January
        // follow floor((153·m + 2) / 5) exactly.
        let day_of_year = (153 * shifted_month + 2) / 5 + i64::from(self.day) - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * DAYS_PER_ERA + day_of_era - EPOCH_SHIFT
    }

    /// The date `days` after 1970-01-01 (before it when negative).
    pub fn from_days_since_epoch(days: i64) -> CivilDate {
        let shifted = days + EPOCH_SHIFT;
        let era = shifted.div_euclid(DAYS_PER_ERA);
        let day_of_era = shifted - era * DAYS_PER_ERA; // 0..=146_096
        // Undo the leap days: one every 4 years (1460 days), none every 100 (36_524), one every 400
        // (146_096 is the era's last day, which belongs to year 399).
        let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let shifted_month = (5 * day_of_year + 2) / 153; // 0..=11
        let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
        let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        // The arithmetic above gives day 1..=31 and month 1..=12.
        CivilDate { year, month: bounded(month), day: bounded(day) }
    }

    /// Day of the year, 1..=366.
    pub fn ordinal(self) -> u16 {
        let jan1 = CivilDate { year: self.year, month: 1, day: 1 };
        bounded(self.days_since_epoch() - jan1.days_since_epoch() + 1)
    }

    /// ISO weekday: Monday = 1 … Sunday = 7.
    pub fn iso_weekday(self) -> u8 {
        iso_weekday_of(self.days_since_epoch())
    }

    /// The ISO 8601 week date's year and week (1..=53). Week 1 is the week holding the year's
    /// first Thursday, so 1 January can belong to the previous year's last week and 31 December
    /// to the next year's first.
    pub fn iso_week(self) -> (i64, u8) {
        let ordinal = i64::from(self.ordinal());
        let weekday = i64::from(self.iso_weekday());
        let week = (ordinal - weekday + 10) / 7;
        if week < 1 {
            (self.year - 1, iso_weeks_in_year(self.year - 1))
        } else if week > i64::from(iso_weeks_in_year(self.year)) {
            (self.year + 1, 1)
        } else {
            (self.year, bounded(week))
        }
    }
}

/// ISO weekday (Monday = 1) of a day count; 1970-01-01 was a Thursday.
pub(crate) fn iso_weekday_of(days: i64) -> u8 {
    bounded((days + 3).rem_euclid(7) + 1)
}

/// 53 when the year starts on a Thursday, or on a Wednesday in a leap year; else 52.
fn iso_weeks_in_year(year: i64) -> u8 {
    let jan1 = CivilDate { year, month: 1, day: 1 }.iso_weekday();
    if jan1 == 4 || (jan1 == 3 && is_leap_year(year)) { 53 } else { 52 }
}

/// A UTC instant split into calendar fields, down to the millisecond.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Civil {
    pub date: CivilDate,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub millis: u16,
}

impl Civil {
    /// The instant `ms` milliseconds after the epoch (before it when negative).
    pub fn from_epoch_millis(ms: i128) -> Option<Civil> {
        let (days, in_day) = split_millis(ms)?;
        Some(Civil::from_day_and_millis(days, in_day))
    }

    pub(crate) fn from_sim_millis(ms: u64) -> Civil {
        Civil::from_day_and_millis(bounded(ms / MILLIS_PER_DAY), bounded(ms % MILLIS_PER_DAY))
    }

    pub(crate) fn from_day_and_millis(days: i64, millis_of_day: u32) -> Civil {
        Civil {
            date: CivilDate::from_days_since_epoch(days),
            hour: bounded(millis_of_day / 3_600_000 % 24),
            minute: bounded(millis_of_day / 60_000 % 60),
            second: bounded(millis_of_day / 1000 % 60),
            millis: bounded(millis_of_day % 1000),
        }
    }

    /// Milliseconds since the epoch, or `None` when a clock field is out of range.
    pub fn epoch_millis(&self) -> Option<i128> {
        if self.hour > 23 || self.minute > 59 || self.second > 59 || self.millis > 999 {
            return None;
        }
        let in_day = ((u32::from(self.hour) * 60 + u32::from(self.minute)) * 60 + u32::from(self.second))
            * 1000
            + u32::from(self.millis);
        Some(i128::from(self.date.days_since_epoch()) * i128::from(MILLIS_PER_DAY) + i128::from(in_day))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(year: i64, month: u8, day: u8) -> CivilDate {
        CivilDate::new(year, month, day).unwrap()
    }

    #[test]
    fn converts_known_dates() {
        let cases = [
            ((1970, 1, 1), 0),
            ((1969, 12, 31), -1),
            ((1970, 3, 1), 59),
            ((2000, 2, 29), 11_016),
            ((2000, 3, 1), 11_017),
            ((2024, 1, 1), 19_723),
            ((2024, 12, 31), 20_088),
            ((1900, 3, 1), -25_508),
            ((1600, 1, 1), -135_140),
            ((0, 3, 1), -719_468),
            ((-1, 12, 31), -719_529),
            ((9999, 12, 31), 2_932_896),
            ((275_760, 9, 13), 100_000_000), // the end of JavaScript's Date range
        ];
        for ((y, m, d), days) in cases {
            assert_eq!(date(y, m, d).days_since_epoch(), days, "{y}-{m}-{d}");
            assert_eq!(CivilDate::from_days_since_epoch(days), date(y, m, d), "{days}");
        }
    }

    #[test]
    fn agrees_with_counting_days_one_by_one() {
        // Walk 1599-01-01 .. 2401-01-01 a day at a time with the month-length table only.
        let mut expected = date(1599, 1, 1);
        let start = expected.days_since_epoch();
        for days in start..start + 293_000 {
            assert_eq!(CivilDate::from_days_since_epoch(days), expected, "{days}");
            assert_eq!(expected.days_since_epoch(), days, "{expected:?}");
            let (y, m, d) = (expected.year, expected.month, expected.day);
            expected = if d < days_in_month(y, m) {
                date(y, m, d + 1)
            } else if m < 12 {
                date(y, m + 1, 1)
            } else {
                date(y + 1, 1, 1)
            };
        }
    }

    #[test]
    fn knows_leap_years_and_month_lengths() {
        for (year, leap) in
            [(1900, false), (2000, true), (2023, false), (2024, true), (2100, false), (2400, true)]
        {
            assert_eq!(is_leap_year(year), leap, "{year}");
            assert_eq!(CivilDate::new(year, 2, 29).is_some(), leap, "{year}");
        }
        assert_eq!(CivilDate::new(2024, 4, 31), None);
        assert_eq!(CivilDate::new(2024, 13, 1), None);
        assert_eq!(CivilDate::new(2024, 0, 1), None);
        assert_eq!(CivilDate::new(2024, 1, 0), None);
    }

    #[test]
    fn derives_ordinals_weekdays_and_iso_weeks() {
        // (date, ordinal, ISO weekday, ISO year, ISO week); checked against `date +%j %u %G %V`.
        let cases = [
            ((1970, 1, 1), 1, 4, 1970, 1),
            ((2004, 12, 31), 366, 5, 2004, 53),
            ((2005, 1, 1), 1, 6, 2004, 53),
            ((2005, 1, 2), 2, 7, 2004, 53),
            ((2005, 1, 3), 3, 1, 2005, 1),
            ((2007, 12, 31), 365, 1, 2008, 1),
            ((2008, 12, 29), 364, 1, 2009, 1),
            ((2010, 1, 3), 3, 7, 2009, 53),
            ((2020, 12, 31), 366, 4, 2020, 53),
            ((2021, 1, 4), 4, 1, 2021, 1),
            ((2024, 3, 1), 61, 5, 2024, 9),
            ((2026, 12, 31), 365, 4, 2026, 53),
        ];
        for ((y, m, d), ordinal, weekday, iso_year, iso_week) in cases {
            let date = date(y, m, d);
            assert_eq!(date.ordinal(), ordinal, "{date:?}");
            assert_eq!(date.iso_weekday(), weekday, "{date:?}");
            assert_eq!(date.iso_week(), (iso_year, iso_week), "{date:?}");
        }
    }

    #[test]
    fn splits_instants_into_fields() {
        let civil = Civil::from_epoch_millis(1_709_251_199_999).unwrap(); // 2024-02-29T23:59:59.999Z
        assert_eq!(civil.date, date(2024, 2, 29));
        assert_eq!((civil.hour, civil.minute, civil.second, civil.millis), (23, 59, 59, 999));
        assert_eq!(civil.epoch_millis(), Some(1_709_251_199_999));
        let before = Civil::from_epoch_millis(-1).unwrap();
        assert_eq!(before.date, date(1969, 12, 31));
        assert_eq!((before.hour, before.minute, before.second, before.millis), (23, 59, 59, 999));
        let far = Civil::from_epoch_millis(i128::from(u64::MAX)).unwrap();
        assert_eq!(far.epoch_millis(), Some(i128::from(u64::MAX)));
        assert_eq!(far.date.year(), 584_556_019);
        assert_eq!(Civil { hour: 24, ..before }.epoch_millis(), None);
    }
}
