//! The heatmap's time axis and the inspector's time range: where ticks go and how times read at
//! the resolution the columns need. Pure functions over the matrix's column times.

use crate::engine::time::{SimDuration, SimTime};

/// Steps a time axis may use, in seconds: round units people count in.
const STEPS: [u64; 21] = [
    1,
    5,
    10,
    15,
    30,
    60,
    5 * 60,
    10 * 60,
    15 * 60,
    30 * 60,
    3600,
    3 * 3600,
    6 * 3600,
    12 * 3600,
    86_400,
    2 * 86_400,
    7 * 86_400,
    14 * 86_400,
    28 * 86_400,
    91 * 86_400,
    364 * 86_400,
];

/// Ticks of the time axis: (column, label) with labels relative to `start` (`+0s`, `+15m`,
/// `+1d`), at the first column starting at or after each multiple of the step, the step the
/// smallest round one that leaves at least `gap` columns between ticks. Drawn as a tick mark
/// and the label, they never overlap and never run past the last column.
pub fn time_ticks(cols: &[(SimTime, SimTime)], start: SimTime, gap: usize) -> Vec<(usize, String)> {
    let (Some(&(first, _)), Some(&(_, last))) = (cols.first(), cols.last()) else { return Vec::new() };
    let span_ms = last.since(first).as_millis();
    let per_col_ms = span_ms as f64 / cols.len() as f64;
    let Some(step) = STEPS.iter().map(|s| s * 1000).find(|&s| s as f64 >= per_col_ms * gap.max(1) as f64)
    else {
        return Vec::new();
    };
    let from = first.since(start).as_millis().div_ceil(step);
    let to = last.since(start).as_millis() / step;
    let mut ticks: Vec<(usize, String)> = Vec::new();
    for k in from..=to {
        let at = start + SimDuration::from_millis(k * step);
        let Some(col) = cols.iter().position(|&(s, _)| s >= at) else { break };
        let label = format!("+{}", SimDuration::from_millis(k * step));
        // Drawn as a tick mark and the label, with a space before the next.
        let clear = ticks.last().is_none_or(|(c, l)| col > c + l.chars().count() + 1);
        if clear && col + label.chars().count() < cols.len() {
            ticks.push((col, label));
        }
    }
    ticks
}

/// A column's time range as people read it, at the resolution its width needs: seconds for
/// columns under a minute, minutes under a day, days beyond. The date is written once when both
/// ends share it.
pub fn time_range(from: SimTime, to: SimTime) -> String {
    let (a, b) = (from.civil(), to.civil());
    let width = to.since(from).as_secs_f64();
    let date = |c: &crate::engine::time::Civil| format!("{:02}-{:02}", c.date.month(), c.date.day());
    let same_day = a.date == b.date;
    if width < 60.0 {
        let hms = |c: &crate::engine::time::Civil| format!("{:02}:{:02}:{:02}", c.hour, c.minute, c.second);
        if same_day {
            format!("{} {}–{}", date(&a), hms(&a), hms(&b))
        } else {
            format!("{} {}–{} {}", date(&a), hms(&a), date(&b), hms(&b))
        }
    } else if width < 86_400.0 {
        let hm = |c: &crate::engine::time::Civil| format!("{:02}:{:02}", c.hour, c.minute);
        if same_day {
            format!("{} {}–{}", date(&a), hm(&a), hm(&b))
        } else {
            format!("{} {}–{} {}", date(&a), hm(&a), date(&b), hm(&b))
        }
    } else {
        format!("{}–{}", date(&a), date(&b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t0() -> SimTime {
        SimTime::parse("2025-06-01T00:00:00Z").expect("a valid time")
    }

    /// `n` columns of `secs` each from the start.
    fn cols(n: u64, ms: u64) -> Vec<(SimTime, SimTime)> {
        (0..n)
            .map(|c| (t0() + SimDuration::from_millis(c * ms), t0() + SimDuration::from_millis((c + 1) * ms)))
            .collect()
    }

    type Case = (u64, u64, usize, &'static [(usize, &'static str)]);

    #[test]
    fn ticks_fall_on_round_times_with_room_between() {
        // (columns, ms per column, gap, want)
        let cases: [Case; 5] = [
            // 15 minutes over 100 columns (9 s each), ticks at least 12 columns apart: every 5 min.
            (100, 9_000, 12, &[(0, "+0s"), (34, "+5m"), (67, "+10m")]),
            // A year over 52 weekly columns, at least 3 apart: every 4 weeks, where labels fit.
            (
                52,
                7 * 86_400_000,
                3,
                &[(0, "+0s"), (8, "+8w"), (16, "+16w"), (24, "+24w"), (32, "+32w"), (40, "+40w")],
            ),
            // Two hours over 120 one-minute columns.
            (120, 60_000, 20, &[(0, "+0s"), (30, "+30m"), (60, "+1h"), (90, "+90m")]),
            // Too few columns for any label.
            (2, 1000, 12, &[]),
            (0, 1000, 12, &[]),
        ];
        for (n, ms, gap, want) in cases {
            let got = time_ticks(&cols(n, ms), t0(), gap);
            let want: Vec<(usize, String)> = want.iter().map(|&(c, l)| (c, l.to_owned())).collect();
            assert_eq!(got, want, "{n} columns of {ms} ms, gap {gap}");
        }
    }

    #[test]
    fn a_range_reads_at_the_resolution_of_its_column() {
        let at = |s: u64| t0() + SimDuration::from_secs(s);
        let cases = [
            (at(135), at(144), "06-01 00:02:15–00:02:24"),
            (at(0), at(900), "06-01 00:00–00:15"),
            (at(86_400 - 3600), at(86_400 + 3600), "06-01 23:00–06-02 01:00"),
            (at(0), at(7 * 86_400), "06-01–06-08"),
        ];
        for (from, to, want) in cases {
            assert_eq!(time_range(from, to), want);
        }
    }
}
