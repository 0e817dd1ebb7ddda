//! Partition sizes: the largest partitions' size over time against the engine's limit line, and
//! when the largest will reach it at its recent growth rate.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget, Wrap};

use crate::engine::planner::numbers;
use crate::tui::theme::Theme;
use crate::tui::view::SizesView;

/// Where a series is headed relative to the limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Forecast {
    /// Already at or past the limit.
    Over,
    /// Reaches it in this many simulated seconds at the recent growth rate.
    In(f64),
    /// Not growing (or too few points to tell).
    Flat,
    /// Grew, then stopped (a time bucket whose window closed): it will not reach the limit.
    Stopped,
    /// Grown over fewer samples than a trend needs.
    TooEarly,
    /// Growing, but so slowly it would take longer than [`HORIZON_SECS`]: no date worth showing.
    Beyond,
}

/// A century of simulated time: past it a time-to-limit says nothing a designer can act on.
pub const HORIZON_SECS: f64 = 100.0 * 365.0 * 86_400.0;

/// Distinct sizes a series needs before its growth is extrapolated.
const TREND_SAMPLES: usize = 3;

/// Least-squares slope over the newer half of `points` (at least two), extrapolated to `limit`;
/// but a series that grew and then held still for longer than any pause while it grew (and for a
/// quarter of the picture) has stopped, and one with fewer than [`TREND_SAMPLES`] distinct sizes
/// that grew is too young to say. (Points are resampled from coarser measurements, so a growing
/// series moves in steps: its pauses are the steps.)
pub fn forecast(points: &[(f64, f64)], limit: f64) -> Forecast {
    let Some(&(_, last)) = points.last() else { return Forecast::Flat };
    if last >= limit {
        return Forecast::Over;
    }
    let mut runs: Vec<usize> = Vec::new();
    #[expect(clippy::float_cmp, reason = "a resampled series repeats a measured value exactly")]
    for (i, p) in points.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if i > 0 && points[i - 1].1 == p.1 => *run += 1,
            _ => runs.push(1),
        }
    }
    let grew = points.first().is_some_and(|first| last > first.1);
    if grew && runs.len() < TREND_SAMPLES {
        return Forecast::TooEarly;
    }
    if let Some((&trailing, before)) = runs.split_last() {
        let longest_pause = before.iter().skip(1).copied().max().unwrap_or(0);
        if grew && trailing > 2 * longest_pause.max(1) && trailing * 4 >= points.len() {
            return Forecast::Stopped;
        }
    }
    let recent = &points[points.len() / 2..];
    if recent.len() < 2 {
        return Forecast::Flat;
    }
    let n = recent.len() as f64;
    let mean_x = recent.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = recent.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = recent.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = recent.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    if sxx <= 0.0 {
        return Forecast::Flat;
    }
    let slope = sxy / sxx;
    if !(slope > 0.0 && slope.is_finite()) {
        return Forecast::Flat;
    }
    let secs = (limit - last) / slope;
    if secs > HORIZON_SECS { Forecast::Beyond } else { Forecast::In(secs) }
}

/// Where a partition of a time-bucketed key growing toward the line ends instead, when its
/// bucket closes first: the time left at most (its bucket began no later than its first
/// write, the first point above zero) and its size then at the forecast's slope. `None` when
/// the limit comes first, or the key buckets no time.
pub fn bucket_close(points: &[(f64, f64)], limit: f64, bucket_secs: Option<f64>) -> Option<(f64, f64)> {
    let Forecast::In(secs) = forecast(points, limit) else { return None };
    let bucket = bucket_secs?;
    let &(now, last) = points.last()?;
    let born = points.iter().find(|p| p.1 > 0.0).map_or(0.0, |p| p.0);
    let left = (born + bucket - now).max(0.0);
    (left < secs).then(|| (left, last + (limit - last) * left / secs))
}

pub struct SizesPanel<'a> {
    pub sizes: &'a SizesView,
    pub empty: &'a str,
    pub theme: Theme,
}

impl Widget for SizesPanel<'_> {
    fn render(self, inner: Rect, buf: &mut Buffer) {
        if inner.height < 3 || inner.width < 10 {
            return;
        }
        // No series for a reason of the run's own (replayed as rates): its words instead of an
        // empty chart.
        if let Some(note) = self.sizes.note.as_deref().filter(|_| self.sizes.series.is_empty()) {
            let lines: Vec<Line<'static>> =
                note.lines().map(|l| Line::from(Span::styled(l.to_owned(), self.theme.dim()))).collect();
            Paragraph::new(lines).wrap(Wrap { trim: true }).render(inner, buf);
            return;
        }
        let chart_area = Rect { height: inner.height - 1, ..inner };
        let note_area = Rect { y: inner.bottom() - 1, height: 1, ..inner };
        let limit = self.sizes.limit_bytes;
        let x_max =
            self.sizes.series.iter().filter_map(|s| s.points.last().map(|p| p.0)).fold(1.0_f64, f64::max);
        let y_max =
            self.sizes.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(limit, f64::max) * 1.05;
        let limit_line = [(0.0, limit), (x_max, limit)];
        let mut datasets: Vec<Dataset<'_>> = self
            .sizes
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                Dataset::default()
                    .name(s.label.clone())
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(self.theme.series(i))
                    .data(&s.points)
            })
            .collect();
        datasets.push(
            Dataset::default()
                .name(self.line_name())
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(self.theme.limit())
                .data(&limit_line),
        );
        let y_labels = [Span::raw("0"), Span::raw(numbers::bytes(y_max / 1.05))];
        let x_labels = [Span::raw("0"), Span::raw(numbers::span(x_max))];
        // The chart paints its own background: the theme's, or the terminal's would show through.
        Chart::new(datasets)
            .style(self.theme.base())
            .x_axis(Axis::default().bounds([0.0, x_max]).labels(x_labels).style(self.theme.dim()))
            .y_axis(Axis::default().bounds([0.0, y_max]).labels(y_labels).style(self.theme.dim()))
            .render(chart_area, buf);
        Paragraph::new(self.note()).render(note_area, buf);
    }
}

impl SizesPanel<'_> {
    /// The line's legend: a limit, or where a partition splits (`SizeSeries::splits`); where
    /// the drawn series differ, it is a limit for those it holds (a DynamoDB table with a local
    /// index, and its LSIs).
    fn line_name(&self) -> String {
        let size = numbers::bytes(self.sizes.limit_bytes);
        let series = &self.sizes.series;
        if !series.is_empty() && series.iter().all(|s| s.splits) {
            format!("splits at {size}")
        } else if series.iter().any(|s| s.splits) {
            format!("limit {size} (table, LSIs)")
        } else {
            format!("limit {size}")
        }
    }

    fn note(&self) -> Line<'static> {
        let largest = self.sizes.series.iter().max_by(|a, b| {
            let last = |s: &crate::tui::view::SizeSeries| s.points.last().map_or(0.0, |p| p.1);
            last(a).total_cmp(&last(b))
        });
        let Some(s) = largest.filter(|s| !s.points.is_empty()) else {
            return Line::from(Span::styled(self.empty.to_owned(), self.theme.dim()));
        };
        let size = s.points.last().map_or(0.0, |p| p.1);
        // A partition that splits at the line is spread over more partitions past it: worth
        // knowing, and no limit.
        let line = numbers::bytes(self.sizes.limit_bytes);
        let (text, style) = match (forecast(&s.points, self.sizes.limit_bytes), s.splits) {
            (Forecast::Over, false) => ("over the limit".to_owned(), self.theme.bad()),
            (Forecast::Over, true) => (format!("past {line}: split"), self.theme.warn()),
            (Forecast::In(secs), false) => (format!("limit in ~{}", numbers::span(secs)), self.theme.warn()),
            (Forecast::In(secs), true) => (format!("splits in ~{}", numbers::span(secs)), self.theme.dim()),
            (Forecast::Flat, _) => ("not growing".to_owned(), self.theme.ok()),
            (Forecast::Stopped, _) => ("stopped growing".to_owned(), self.theme.ok()),
            (Forecast::TooEarly, _) => ("growing; too early to forecast".to_owned(), self.theme.dim()),
            (Forecast::Beyond, false) => ("limit more than 100 years away".to_owned(), self.theme.ok()),
            (Forecast::Beyond, true) => (format!("{line} more than 100 years away"), self.theme.ok()),
        };
        // A time bucket that closes before the line is reached: the partition stops there.
        let (text, style) = match bucket_close(&s.points, self.sizes.limit_bytes, s.bucket_secs) {
            Some((left, size)) => (
                format!("bucket closes in ≤{} at ~{}", numbers::span(left), numbers::bytes(size)),
                self.theme.ok(),
            ),
            None => (text, style),
        };
        // The forecast first: in a narrow panel the line is cut at the right, and the forecast is
        // what the panel is for.
        Line::from(vec![
            Span::styled(text, style),
            Span::raw(format!(" · largest {} {}", s.label, numbers::bytes(size))),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::view::SizeSeries;

    #[test]
    fn forecasts_from_the_recent_slope() {
        let growing: Vec<(f64, f64)> = (0..10).map(|i| (f64::from(i) * 10.0, f64::from(i) * 100.0)).collect();
        // 10 bytes per second, at 900 bytes after 90 s: 1,000 is 10 s away.
        assert_eq!(forecast(&growing, 1000.0), Forecast::In(10.0));
        assert_eq!(forecast(&growing, 900.0), Forecast::Over);
        let flat: Vec<(f64, f64)> = (0..10).map(|i| (f64::from(i), 5.0)).collect();
        assert_eq!(forecast(&flat, 100.0), Forecast::Flat);
        // 49 bytes growing by a byte a day against 10 GB: millions of years, said as such.
        let crawling: Vec<(f64, f64)> =
            (0..10).map(|i| (f64::from(i) * 86_400.0, 49.0 + f64::from(i))).collect();
        assert_eq!(forecast(&crawling, 10.0 * 1024.0 * 1024.0 * 1024.0), Forecast::Beyond);
        assert_eq!(forecast(&[], 100.0), Forecast::Flat);
        assert_eq!(forecast(&[(0.0, 1.0)], 100.0), Forecast::Flat);
        // An old burst does not count: only the newer half decides (here: shrinking).
        let mut burst = vec![(0.0, 0.0), (1.0, 50.0), (2.0, 90.0)];
        burst.extend([(3.0, 80.0), (4.0, 70.0), (5.0, 60.0)]);
        assert_eq!(forecast(&burst, 100.0), Forecast::Flat);
    }

    #[test]
    fn a_closed_bucket_stopped_and_a_young_series_is_too_early() {
        let gb10 = 10.0 * 1024.0 * 1024.0 * 1024.0;
        let series = |ys: &[f64]| -> Vec<(f64, f64)> {
            (0..).zip(ys).map(|(i, &y)| (f64::from(i) * 3600.0, y)).collect()
        };
        // (what, sizes, forecast)
        let cases: [(&str, Vec<f64>, Forecast); 5] = [
            // Day 11's bucket filled for a day (in steps of two points), then its window closed.
            (
                "a closed day bucket",
                [vec![0.0; 4], (1..=6).flat_map(|s| [f64::from(s) * 7e4; 2]).collect(), vec![4.2e5; 8]]
                    .concat(),
                Forecast::Stopped,
            ),
            // Two hours into a year: one measured step so far.
            ("two hours in", [vec![0.0; 40], vec![3e5; 40]].concat(), Forecast::TooEarly),
            // Growing in steps of four points: its last step is no pause.
            (
                "a partition growing in steps",
                (0..24).map(|i| f64::from(i / 4) * 1e8).collect(),
                Forecast::In(gb10 / 1e8 * 4.0 * 3600.0 - 5.0 * 4.0 * 3600.0 - 3.0 * 3600.0),
            ),
            ("never grew", vec![61.0; 12], Forecast::Flat),
            ("at the limit", vec![gb10; 3], Forecast::Over),
        ];
        for (what, ys, want) in cases {
            let got = forecast(&series(&ys), gb10);
            match (got, want) {
                (Forecast::In(a), Forecast::In(_)) => assert!(a > 0.0, "{what}: {got:?}"),
                _ => assert_eq!(got, want, "{what}"),
            }
        }
    }

    /// The line's legend and the forecast say a limit only where the store holds a partition to
    /// it; a DynamoDB partition without a local index, and every GSI's, splits there instead.
    #[test]
    fn a_partition_that_splits_at_the_line_is_not_said_to_reach_a_limit() {
        let gb10 = 10.0 * 1024.0 * 1024.0 * 1024.0;
        let growing: Vec<(f64, f64)> =
            (0..10).map(|i| (f64::from(i) * 86_400.0, f64::from(i) * 1e8)).collect();
        let series = |label: &str, splits: bool, scale: f64| SizeSeries {
            label: label.to_owned(),
            points: growing.iter().map(|&(x, y)| (x, y * scale)).collect(),
            splits,
            bucket_secs: None,
        };
        // (series, the legend, the note's start)
        let cases = [
            (vec![series("CH#1", true, 1.0)], "splits at 10 GB", "splits in ~"),
            (vec![series("CH#1", false, 1.0)], "limit 10 GB", "limit in ~"),
            // A GSI's partition the largest, beside a table with an LSI.
            (
                vec![series("by-user: U#1", true, 2.0), series("CH#1", false, 1.0)],
                "limit 10 GB (table, LSIs)",
                "splits in ~",
            ),
            (vec![series("CH#1", true, gb10 / 1e8)], "splits at 10 GB", "past 10 GB: split"),
        ];
        for (series, legend, note) in cases {
            let sizes = SizesView { limit_bytes: gb10, series, note: None };
            let panel = SizesPanel { sizes: &sizes, empty: "", theme: Theme::MONO };
            assert_eq!(panel.line_name(), legend);
            let text: String = panel.note().spans.iter().map(|s| s.content.as_ref()).collect();
            assert!(text.starts_with(note), "{text}");
        }
    }

    /// A partition of a time-bucketed key stops growing when its bucket closes: a 10-day bucket
    /// growing 100 MB a day is said to close, not to reach 10 GB in ~93 days.
    #[test]
    fn a_bucket_that_closes_first_is_where_the_forecast_ends() {
        let gb10 = 10.0 * 1024.0 * 1024.0 * 1024.0;
        let day = 86_400.0;
        // Zero for two days, then 100 MB a day: 400 MB at day 5, first seen at day 2.
        let points: Vec<(f64, f64)> =
            (0..=5).map(|i| (f64::from(i) * day, f64::from(i.max(1) - 1) * 1e8)).collect();
        // (bucket, closes: (time left, size then))
        let cases = [
            (None, None),
            // Seen first at day 2, a 10-day bucket closes by day 12: 7 days left, at ~1.1 GB.
            (Some(10.0 * day), Some((7.0 * day, 1.1e9))),
            // A year's bucket: the limit comes first.
            (Some(366.0 * day), None),
        ];
        for (bucket, want) in cases {
            let got = bucket_close(&points, gb10, bucket);
            match (got, want) {
                (Some((left, size)), Some((l, s))) => {
                    assert!((left - l).abs() < 1.0 && (size - s).abs() < 1e3, "{bucket:?}: {got:?}");
                }
                _ => assert_eq!(got, want, "{bucket:?}"),
            }
        }
        let sizes = SizesView {
            limit_bytes: gb10,
            series: vec![SizeSeries {
                label: "CH#1#10d".to_owned(),
                points,
                splits: true,
                bucket_secs: Some(10.0 * day),
            }],
            note: None,
        };
        let panel = SizesPanel { sizes: &sizes, empty: "", theme: Theme::MONO };
        let text: String = panel.note().spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(text.starts_with("bucket closes in ≤7 days at ~1.02 GB"), "{text}");
    }
}
