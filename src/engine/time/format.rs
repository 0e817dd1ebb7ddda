//! A compiled strftime subset for calendar key buckets (`{sent_at:%Y-%m}`): parsed once, then
//! formatted into a caller's buffer without allocating. UTC only.
//!
//! The directives are the POSIX/glibc ones a key would use; each prints a fixed width (except
//! `%Y`/`%G` past year 9999 and `%s`), so formatted keys of one format sort in time order as text
//! when the format runs from the largest field to the smallest (`%Y-%m-%d`, `%G-W%V`).

use std::collections::BTreeSet;
use std::fmt;

use super::calendar::{Civil, MILLIS_PER_DAY, bounded, iso_weekday_of, split_millis};

/// The directives, as shown in error messages.
const DIRECTIVES: &str = "%Y %y %m %d %H %M %S %j %G %V %u %w %U %W %a %b %s %F %T %%";

const WEEKDAY_NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTH_NAMES: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Field {
    /// `%Y`: the year, at least four digits, `-` before years BC (ISO 8601's astronomical years).
    Year,
    /// `%y`: the year's last two digits.
    YearOfCentury,
    /// `%m`: 01..=12.
    Month,
    /// `%d`: 01..=31.
    Day,
    /// `%H`: 00..=23.
    Hour,
    /// `%M`: 00..=59.
    Minute,
    /// `%S`: 00..=59 (Unix time has no leap seconds).
    Second,
    /// `%j`: day of the year, 001..=366.
    Ordinal,
    /// `%G`: the ISO 8601 week-based year, formatted like `%Y`.
    IsoYear,
    /// `%V`: the ISO 8601 week, 01..=53.
    IsoWeek,
    /// `%u`: ISO weekday, Monday = 1 … Sunday = 7.
    IsoWeekday,
    /// `%w`: weekday, Sunday = 0 … Saturday = 6.
    Weekday,
    /// `%U`: week of the year counting from the first Sunday, 00..=53.
    WeekFromSunday,
    /// `%W`: week of the year counting from the first Monday, 00..=53.
    WeekFromMonday,
    /// `%a`: Mon … Sun.
    WeekdayName,
    /// `%b`: Jan … Dec.
    MonthName,
    /// `%s`: whole seconds since the epoch.
    EpochSeconds,
}

impl Field {
    fn resolution(self) -> Resolution {
        match self {
            Field::Year | Field::YearOfCentury | Field::IsoYear => Resolution::Year,
            Field::Month | Field::MonthName => Resolution::Month,
            Field::IsoWeek | Field::WeekFromSunday | Field::WeekFromMonday => Resolution::Week,
            Field::Day | Field::Ordinal | Field::IsoWeekday | Field::Weekday | Field::WeekdayName => {
                Resolution::Day
            }
            Field::Hour => Resolution::Hour,
            Field::Minute => Resolution::Minute,
            Field::Second | Field::EpochSeconds => Resolution::Second,
        }
    }
}

/// The finest calendar unit a format tells apart: `%Y-%m` has month resolution, so all instants
/// in one month format alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Resolution {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Piece {
    /// Bytes `start..end` of the source, printed as they are.
    Literal {
        start: usize,
        end: usize,
    },
    /// The `-` of `%F` and the `:` of `%T`.
    Separator(&'static str),
    Field(Field),
}

/// A parsed time format. Equality and hashing follow the source text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TimeFormat {
    source: String,
    pieces: Vec<Piece>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at byte {offset})")]
pub struct TimeFormatError {
    /// Byte offset of the offending `%` in the format.
    pub offset: usize,
    pub message: String,
}

impl TimeFormat {
    pub fn parse(source: &str) -> Result<TimeFormat, TimeFormatError> {
        let mut pieces = Vec::new();
        let mut literal_start = 0;
        let mut chars = source.char_indices();
        while let Some((at, c)) = chars.next() {
            if c != '%' {
                continue;
            }
            if literal_start < at {
                pieces.push(Piece::Literal { start: literal_start, end: at });
            }
            let Some((next_at, directive)) = chars.next() else {
                return Err(TimeFormatError {
                    offset: at,
                    message: format!(
                        "the format ends with a lone %; write %% for a percent sign (directives: {DIRECTIVES})"
                    ),
                });
            };
            literal_start = next_at + directive.len_utf8();
            let fields: &[Field] = match directive {
                'Y' => &[Field::Year],
                'y' => &[Field::YearOfCentury],
                'm' => &[Field::Month],
                'd' => &[Field::Day],
                'H' => &[Field::Hour],
                'M' => &[Field::Minute],
                'S' => &[Field::Second],
                'j' => &[Field::Ordinal],
                'G' => &[Field::IsoYear],
                'V' => &[Field::IsoWeek],
                'u' => &[Field::IsoWeekday],
                'w' => &[Field::Weekday],
                'U' => &[Field::WeekFromSunday],
                'W' => &[Field::WeekFromMonday],
                'a' => &[Field::WeekdayName],
                'b' => &[Field::MonthName],
                's' => &[Field::EpochSeconds],
                'F' => {
                    push_joined(&mut pieces, [Field::Year, Field::Month, Field::Day], "-");
                    continue;
                }
                'T' => {
                    push_joined(&mut pieces, [Field::Hour, Field::Minute, Field::Second], ":");
                    continue;
                }
                '%' => {
                    // The second `%` is the literal; the next literal run starts there.
                    literal_start = next_at;
                    continue;
                }
                other => {
                    return Err(TimeFormatError {
                        offset: at,
                        message: format!("unknown time directive %{other}; expected one of {DIRECTIVES}"),
                    });
                }
            };
            pieces.extend(fields.iter().copied().map(Piece::Field));
        }
        if literal_start < source.len() {
            pieces.push(Piece::Literal { start: literal_start, end: source.len() });
        }
        Ok(TimeFormat { source: source.to_owned(), pieces })
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// The finest unit the format prints, or `None` for a format with no time field at all.
    pub fn resolution(&self) -> Option<Resolution> {
        self.fields().map(Field::resolution).min()
    }

    /// Whether a text it printed never comes back once time moved past it: it prints the year
    /// (ISO or calendar; a two-digit year repeats only after a century) or epoch seconds. `%d`
    /// alone prints the same day every month.
    pub fn never_repeats(&self) -> bool {
        self.fields()
            .any(|f| matches!(f, Field::Year | Field::YearOfCentury | Field::IsoYear | Field::EpochSeconds))
    }

    fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        self.pieces.iter().filter_map(|piece| match piece {
            Piece::Field(field) => Some(*field),
            Piece::Literal { .. } | Piece::Separator(_) => None,
        })
    }

    pub fn format(&self, t: super::SimTime) -> String {
        let mut out = String::with_capacity(self.source.len() + 16);
        self.write(t, &mut out);
        out
    }

    /// Appends the formatted time to `out`.
    pub fn write(&self, t: super::SimTime, out: &mut String) {
        self.write_fields(
            bounded(t.as_millis() / MILLIS_PER_DAY),
            bounded(t.as_millis() % MILLIS_PER_DAY),
            out,
        );
    }

    /// Appends the time `ms` milliseconds after the epoch (before it when negative). Returns
    /// false, appending nothing, when the day count does not fit in an `i64`.
    pub fn write_epoch_millis(&self, ms: i128, out: &mut String) -> bool {
        let Some((days, in_day)) = split_millis(ms) else {
            return false;
        };
        self.write_fields(days, in_day, out);
        true
    }

    fn write_fields(&self, days: i64, millis_of_day: u32, out: &mut String) {
        let civil = Civil::from_day_and_millis(days, millis_of_day);
        let date = civil.date;
        let weekday = iso_weekday_of(days);
        for piece in &self.pieces {
            let field = match piece {
                Piece::Literal { start, end } => {
                    out.push_str(&self.source[*start..*end]);
                    continue;
                }
                Piece::Separator(separator) => {
                    out.push_str(separator);
                    continue;
                }
                Piece::Field(field) => *field,
            };
            match field {
                Field::Year => push_year(out, date.year()),
                Field::YearOfCentury => push_padded(out, date.year().rem_euclid(100).unsigned_abs(), 2),
                Field::Month => push_padded(out, u64::from(date.month()), 2),
                Field::Day => push_padded(out, u64::from(date.day()), 2),
                Field::Hour => push_padded(out, u64::from(civil.hour), 2),
                Field::Minute => push_padded(out, u64::from(civil.minute), 2),
                Field::Second => push_padded(out, u64::from(civil.second), 2),
                Field::Ordinal => push_padded(out, u64::from(date.ordinal()), 3),
                Field::IsoYear => push_year(out, date.iso_week().0),
                Field::IsoWeek => push_padded(out, u64::from(date.iso_week().1), 2),
                Field::IsoWeekday => push_padded(out, u64::from(weekday), 1),
                Field::Weekday => push_padded(out, u64::from(weekday % 7), 1),
                // Days since the week began: Sunday-first weeks for %U, Monday-first for %W.
                Field::WeekFromSunday => push_padded(out, week_of_year(date.ordinal(), weekday % 7), 2),
                Field::WeekFromMonday => push_padded(out, week_of_year(date.ordinal(), weekday - 1), 2),
                Field::WeekdayName => out.push_str(WEEKDAY_NAMES[usize::from(weekday - 1)]),
                Field::MonthName => out.push_str(MONTH_NAMES[usize::from(date.month() - 1)]),
                Field::EpochSeconds => {
                    push_integer(out, i128::from(days) * 86_400 + i128::from(millis_of_day / 1000));
                }
            }
        }
    }

    /// The distinct texts this format gives for instants in `from_ms..=to_ms`, in time order of
    /// first appearance, at most `limit` of them (`None` when there would be more). A reader
    /// querying a calendar-bucketed key over a time range must visit one key per text.
    pub fn values_between(&self, from_ms: i128, to_ms: i128, limit: usize) -> Option<Vec<String>> {
        // Stepping by the resolution unit (a day for day and coarser units, which all change on
        // day boundaries) from the start of `from`'s unit visits every distinct text.
        let step: i128 = match self.resolution() {
            Some(Resolution::Second) => 1000,
            Some(Resolution::Minute) => 60_000,
            Some(Resolution::Hour) => 3_600_000,
            Some(_) => i128::from(MILLIS_PER_DAY),
            None => i128::MAX,
        };
        let mut seen = BTreeSet::new();
        let mut values = Vec::new();
        let mut t = from_ms;
        let mut text = String::new();
        while t <= to_ms {
            text.clear();
            if !self.write_epoch_millis(t, &mut text) {
                break;
            }
            if seen.insert(text.clone()) {
                if values.len() == limit {
                    return None;
                }
                values.push(text.clone());
            }
            let Some(next) = (t - t.rem_euclid(step)).checked_add(step) else { break };
            t = next;
        }
        Some(values)
    }
}

impl fmt::Display for TimeFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// `%F` and `%T`: three fields joined by a separator that is not in the source text.
fn push_joined(pieces: &mut Vec<Piece>, fields: [Field; 3], separator: &'static str) {
    let [a, b, c] = fields;
    pieces.extend([
        Piece::Field(a),
        Piece::Separator(separator),
        Piece::Field(b),
        Piece::Separator(separator),
        Piece::Field(c),
    ]);
}

/// `%U`/`%W`: weeks counted from the year's first Sunday (Monday); days before it are week 00.
/// `days_since_week_start` is 0 on the week's first day.
fn week_of_year(ordinal: u16, days_since_week_start: u8) -> u64 {
    (u64::from(ordinal) + 6 - u64::from(days_since_week_start)) / 7
}

fn push_year(out: &mut String, year: i64) {
    if year < 0 {
        out.push('-');
    }
    push_padded(out, year.unsigned_abs(), 4);
}

/// Appends `value` in decimal, zero-padded to at least `width` digits, without `fmt`'s
/// machinery: key expansion calls this several times per key.
pub(crate) fn push_padded(out: &mut String, mut value: u64, width: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + bounded::<u8, _>(value % 10);
        value /= 10;
        if value == 0 {
            break;
        }
    }
    for _ in digits.len() - start..width {
        out.push('0');
    }
    out.push_str(std::str::from_utf8(&digits[start..]).expect("ASCII digits"));
}

/// Appends a signed integer in decimal; the 128-bit division only runs past `u64`.
pub(crate) fn push_integer(out: &mut String, value: i128) {
    if value < 0 {
        out.push('-');
    }
    let magnitude = value.unsigned_abs();
    if let Ok(small) = u64::try_from(magnitude) {
        push_padded(out, small, 1);
    } else {
        // Split at 10^19: the high part is at most 2^127 / 10^19 < 2^64; the low part has 19 digits.
        const SPLIT: u128 = 10_000_000_000_000_000_000;
        push_padded(out, bounded(magnitude / SPLIT), 1);
        push_padded(out, bounded(magnitude % SPLIT), 19);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::time::SimTime;
    use proptest::prelude::*;

    fn at(text: &str) -> SimTime {
        SimTime::parse(text).unwrap()
    }

    #[test]
    fn formats_every_directive() {
        // Expectations checked against GNU `date -u +FORMAT`.
        let cases = [
            ("1970-01-01T00:00:00Z", "%Y-%m-%d %H:%M:%S", "1970-01-01 00:00:00"),
            ("1970-01-01T00:00:00Z", "%j %u %w %U %W %a %b %s", "001 4 4 00 00 Thu Jan 0"),
            ("2024-02-29T23:59:59.999Z", "%F %T", "2024-02-29 23:59:59"),
            ("2024-03-01T08:05:09Z", "%j|%G-W%V-%u|%U|%W|%a %b", "061|2024-W09-5|08|09|Fri Mar"),
            ("2004-12-31T12:00:00Z", "%j %G %V %U %W", "366 2004 53 52 52"),
            ("2005-01-01T00:00:00Z", "%Y/%G-W%V %U %W %w", "2005/2004-W53 00 00 6"),
            ("2005-01-02T00:00:00Z", "%G-W%V %U %W %w %a", "2004-W53 01 00 0 Sun"),
            ("2007-12-31T00:00:00Z", "%Y %G-W%V %U %W", "2007 2008-W01 52 53"),
            ("2010-01-03T00:00:00Z", "%G-W%V %U %W", "2009-W53 01 00"),
            ("2026-12-31T00:00:00Z", "%y%m%d %G-W%V", "261231 2026-W53"),
            ("2024-01-15T10:30:00Z", "day-%d, 100%% sure", "day-15, 100% sure"),
            ("2024-01-15T10:30:00Z", "", ""),
            ("2024-01-15T10:30:00Z", "%s", "1705314600"),
            ("2024-01-15T10:30:00Z", "→%Y←", "→2024←"),
        ];
        for (time, format, expected) in cases {
            let format = TimeFormat::parse(format).unwrap();
            assert_eq!(format.format(at(time)), expected, "{format} at {time}");
        }
    }

    #[test]
    fn formats_far_and_negative_years() {
        let year = TimeFormat::parse("%Y-%m-%d %y").unwrap();
        let mut out = String::new();
        assert!(year.write_epoch_millis(-1, &mut out));
        assert_eq!(out, "1969-12-31 69");
        let cases = [
            (253_402_300_800_000, "10000-01-01 00"), // the first five-digit year
            (-62_167_219_200_000, "0000-01-01 00"),  // year 0 = 1 BC
            (-62_167_219_200_001, "-0001-12-31 99"), // 2 BC
            (i128::from(u64::MAX), "584556019-04-03 19"), // SimTime's last millisecond
        ];
        for (ms, expected) in cases {
            out.clear();
            assert!(year.write_epoch_millis(ms, &mut out));
            assert_eq!(out, expected, "{ms}");
        }
        out.clear();
        assert!(!year.write_epoch_millis(i128::MAX, &mut out));
        assert_eq!(out, "");
        assert_eq!(
            TimeFormat::parse("%s").unwrap().format(SimTime::from_millis(u64::MAX)),
            "18446744073709551"
        );
    }

    #[test]
    fn writes_integers_of_any_size() {
        let cases = [
            (0, "0"),
            (7, "7"),
            (-7, "-7"),
            (i128::from(u64::MAX), "18446744073709551615"),
            (i128::from(u64::MAX) + 1, "18446744073709551616"),
            (-100_000_000_000_000_000_000, "-100000000000000000000"),
            (i128::MIN, "-170141183460469231731687303715884105728"),
            (i128::MAX, "170141183460469231731687303715884105727"),
        ];
        for (value, text) in cases {
            let mut out = String::new();
            push_integer(&mut out, value);
            assert_eq!(out, text);
        }
        let mut out = String::new();
        push_padded(&mut out, 42, 5);
        push_padded(&mut out, 123_456, 3);
        assert_eq!(out, "00042123456");
    }

    #[test]
    fn reports_unknown_directives_with_their_offset() {
        let cases = [
            ("%Y-%q", 3, "%q"),
            ("%", 0, "lone %"),
            ("ab%", 2, "lone %"),
            ("%Y-%-d", 3, "%-"),
            ("é%é", 2, "%é"),
        ];
        for (format, offset, needle) in cases {
            let error = TimeFormat::parse(format).unwrap_err();
            assert_eq!(error.offset, offset, "{format}");
            assert!(error.message.contains(needle), "{format}: {error}");
            assert!(error.to_string().contains("%Y %y %m"), "lists the directives: {error}");
        }
    }

    #[test]
    fn knows_its_resolution() {
        let cases = [
            ("%Y", Some(Resolution::Year)),
            ("%G-W%V", Some(Resolution::Week)),
            ("%Y-%m", Some(Resolution::Month)),
            ("%b %Y", Some(Resolution::Month)),
            ("%F", Some(Resolution::Day)),
            ("%Y%j", Some(Resolution::Day)),
            ("%F %H", Some(Resolution::Hour)),
            ("%T", Some(Resolution::Second)),
            ("%s", Some(Resolution::Second)),
            ("static", None),
        ];
        for (format, resolution) in cases {
            assert_eq!(TimeFormat::parse(format).unwrap().resolution(), resolution, "{format}");
        }
    }

    #[test]
    fn lists_the_buckets_a_range_spans() {
        let ms = |text: &str| i128::from(at(text).as_millis());
        let months = TimeFormat::parse("%Y-%m").unwrap();
        let values = months.values_between(ms("2023-11-20T00:00:00Z"), ms("2024-02-01T00:00:00Z"), 10);
        assert_eq!(values.unwrap(), ["2023-11", "2023-12", "2024-01", "2024-02"]);
        assert_eq!(months.values_between(ms("2023-11-20T00:00:00Z"), ms("2024-02-01T00:00:00Z"), 3), None);
        let hours = TimeFormat::parse("%d/%H").unwrap();
        let values = hours.values_between(ms("2024-01-01T22:59:59Z"), ms("2024-01-02T01:00:00Z"), 10);
        assert_eq!(values.unwrap(), ["01/22", "01/23", "02/00", "02/01"]);
        let weeks = TimeFormat::parse("%G-W%V").unwrap();
        let values = weeks.values_between(ms("2020-12-30T00:00:00Z"), ms("2021-01-11T00:00:00Z"), 10);
        assert_eq!(values.unwrap(), ["2020-W53", "2021-W01", "2021-W02"]);
        let constant = TimeFormat::parse("all").unwrap();
        assert_eq!(constant.values_between(0, 1_000_000_000, 5).unwrap(), ["all"]);
        assert_eq!(months.values_between(10, 5, 5).unwrap(), Vec::<String>::new());
    }

    proptest! {
        #[test]
        fn parse_never_panics(source in "\\PC{0,24}") {
            if let Err(error) = TimeFormat::parse(&source) {
                prop_assert!(source.is_char_boundary(error.offset));
                prop_assert_eq!(&source[error.offset..=error.offset], "%");
            }
        }

        #[test]
        fn full_dates_sort_in_time_order(a in 0u64..400_000_000_000_000, b in 0u64..400_000_000_000_000) {
            // Up to year 9999+: four-digit years, so text order is time order within it.
            let format = TimeFormat::parse("%Y-%m-%dT%H:%M:%S").unwrap();
            let (a, b) = (SimTime::from_millis(a / 1000 * 1000), SimTime::from_millis(b / 1000 * 1000));
            let (ta, tb) = (format.format(a), format.format(b));
            if ta.len() == tb.len() {
                prop_assert_eq!(ta.cmp(&tb), a.cmp(&b));
            }
        }
    }
}
