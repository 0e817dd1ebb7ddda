//! The heatmap: rows are partitions, columns are time, colour is load. Two partitions share a
//! character cell (`▀` with the upper row as foreground and the lower as background), so a
//! 60-line terminal shows ~100 partition rows. Colour is scaled to the per-partition limit by
//! default, so bright means "near throttling"; `s` switches to a scale relative to the hottest
//! cell. Without colour each partition gets its own line of shade characters.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{PENDING, short_time};
use crate::engine::metrics::{ColorScale, Layer, Metric, RowOrdering};
use crate::engine::model::Engine;
use crate::engine::planner::CASSANDRA_PARTITION_BYTES;
use crate::engine::planner::numbers;
use crate::tui::theme::{Theme, shade};
use crate::tui::view::HeatmapView;

/// How the heatmap is drawn; the user changes it with `m`, `s`, `p`, `o` and the arrows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeatSettings {
    pub metric: Metric,
    /// Colour relative to the hottest cell instead of the partition limit.
    pub relative: bool,
    pub layer: Layer,
    pub order: RowOrdering,
    /// (row, column) of the inspected cell.
    pub cursor: (usize, usize),
    /// Whose limits colour the cells: DynamoDB's capacity per partition, or Cassandra's size
    /// guidance (its load is operations, which have no per-partition limit).
    pub engine: Engine,
}

impl Default for HeatSettings {
    fn default() -> HeatSettings {
        HeatSettings {
            metric: Metric::WriteUnits,
            relative: false,
            layer: Layer::Logical,
            order: RowOrdering::ByKey,
            cursor: (0, 0),
            engine: Engine::DynamoDb,
        }
    }
}

impl HeatSettings {
    /// One partition's limit for the metric, in the unit of [`HeatSettings::unit`].
    pub fn limit(&self) -> Option<f64> {
        match self.engine {
            Engine::DynamoDb => self.metric.partition_limit(),
            Engine::Cassandra => (self.metric == Metric::Bytes).then_some(CASSANDRA_PARTITION_BYTES),
        }
    }

    pub fn scale(&self) -> ColorScale {
        match self.limit() {
            #[allow(clippy::cast_possible_truncation, reason = "a limit drawn as a colour")]
            Some(limit) if !self.relative => ColorScale::Absolute(limit as f32),
            _ => ColorScale::Relative,
        }
    }

    /// What a cell counts: capacity units per second, or operations in the Cassandra profile.
    pub fn unit(&self) -> &'static str {
        match (self.engine, self.metric) {
            (Engine::Cassandra, Metric::ReadUnits) => "reads/s",
            (Engine::Cassandra, Metric::WriteUnits) => "writes/s",
            (_, metric) => metric.cell_unit(),
        }
    }
}

/// The metric after `m` (write units first: what most lessons are about).
pub fn next_metric(metric: Metric) -> Metric {
    match metric {
        Metric::WriteUnits => Metric::ReadUnits,
        Metric::ReadUnits => Metric::Throttled,
        Metric::Throttled => Metric::Bytes,
        Metric::Bytes => Metric::Items,
        Metric::Items => Metric::WriteUnits,
    }
}

/// Lines inside the panel that are not cells: the legend above, the inspector and the hint below.
const CHROME_LINES: u16 = 3;

/// Partition rows and time columns the panel's inner area can show.
pub fn grid_size(inner: Rect, color: bool) -> (usize, usize) {
    let lines = usize::from(inner.height.saturating_sub(CHROME_LINES));
    (if color { lines * 2 } else { lines }, usize::from(inner.width))
}

/// One character cell of two partition rows: the symbol and which intensity colours its
/// foreground and background (`None`: the terminal's own).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HalfBlock {
    pub symbol: char,
    pub fg: Option<f32>,
    pub bg: Option<f32>,
}

/// Packs the intensities of an upper and a lower partition row into one cell.
pub fn half_block(upper: Option<f32>, lower: Option<f32>) -> HalfBlock {
    match (upper, lower) {
        (Some(u), lower) => HalfBlock { symbol: '▀', fg: Some(u), bg: lower },
        (None, Some(l)) => HalfBlock { symbol: '▄', fg: Some(l), bg: None },
        (None, None) => HalfBlock { symbol: ' ', fg: None, bg: None },
    }
}

pub struct HeatmapPanel<'a> {
    pub view: Option<&'a HeatmapView>,
    pub settings: &'a HeatSettings,
    /// What the shapes in the picture usually mean.
    pub hints: &'a [&'static str],
    /// What to say when there is no matrix yet.
    pub empty: &'a str,
    pub theme: Theme,
}

impl Widget for HeatmapPanel<'_> {
    fn render(self, inner: Rect, buf: &mut Buffer) {
        if inner.height < CHROME_LINES + 1 || inner.width < 10 {
            return;
        }
        let legend = Rect { height: 1, ..inner };
        let grid = Rect { y: inner.y + 1, height: inner.height - CHROME_LINES, ..inner };
        let inspector = Rect { y: grid.bottom(), height: 1, ..inner };
        let hint = Rect { y: grid.bottom() + 1, height: 1, ..inner };
        Paragraph::new(self.legend()).render(legend, buf);
        let Some(view) = self.view.filter(|v| !v.matrix.rows.is_empty() && v.matrix.cols() > 0) else {
            Paragraph::new(Span::styled(self.empty.to_owned(), self.theme.dim()))
                .centered()
                .render(Rect { y: grid.y + grid.height / 2, height: 1, ..grid }, buf);
            return;
        };
        self.cells(view, grid, buf);
        Paragraph::new(self.inspector(view)).render(inspector, buf);
        if let Some(h) = self.hints.first() {
            Paragraph::new(Span::styled(format!("◆ {h}"), self.theme.warn())).render(hint, buf);
        }
    }
}

impl HeatmapPanel<'_> {
    fn legend(&self) -> Line<'static> {
        let s = self.settings;
        let scale = match s.scale() {
            ColorScale::Absolute(limit) => {
                format!("full = {} {} (limit)", value_text(s.metric, f64::from(limit)), s.unit())
            }
            ColorScale::Relative => "full = hottest cell".to_owned(),
        };
        let order = match s.order {
            RowOrdering::ByKey => "by key",
            RowOrdering::ByHeat => "by heat",
        };
        let layer = match s.layer {
            Layer::Logical => "logical",
            Layer::Physical => "physical",
        };
        let mut spans = vec![Span::styled(s.metric.name().to_owned(), self.theme.header()), Span::raw(" ")];
        for i in 0..=8u8 {
            let x = f32::from(i) / 8.0;
            spans.push(if self.theme.color {
                Span::styled(" ", Style::new().bg(self.theme.heat(x)))
            } else {
                Span::raw(shade(x).to_string())
            });
        }
        spans.push(Span::styled(format!(" {scale} · {order} · {layer}"), self.theme.dim()));
        Line::from(spans)
    }

    fn cells(&self, view: &HeatmapView, area: Rect, buf: &mut Buffer) {
        let m = &view.matrix;
        let scale = self.settings.scale();
        let per_line = if self.theme.color { 2 } else { 1 };
        let (cursor_row, cursor_col) = clamp_cursor(self.settings.cursor, m.rows.len(), m.cols());
        let cols = m.cols().min(usize::from(area.width));
        let intensity = |row: usize, col: usize| m.rows.get(row).map(|r| m.intensity(r.cells[col], scale));
        for line in 0..usize::from(area.height) {
            let top = line * per_line;
            if top >= m.rows.len() {
                break;
            }
            let y = area.y + u16::try_from(line).expect("line < area height, a u16");
            for col in 0..cols {
                let x = area.x + u16::try_from(col).expect("col < area width, a u16");
                let cell = &mut buf[(x, y)];
                let on_cursor = col == cursor_col && (top..top + per_line).contains(&cursor_row);
                if self.theme.color {
                    let packed = half_block(intensity(top, col), intensity(top + 1, col));
                    let mut fg = packed.fg.map(|v| self.theme.heat(v));
                    let mut bg = packed.bg.map(|v| self.theme.heat(v));
                    if on_cursor {
                        if cursor_row == top {
                            fg = Some(self.theme.cursor());
                        } else {
                            bg = Some(self.theme.cursor());
                        }
                    }
                    cell.set_char(packed.symbol);
                    if let Some(fg) = fg {
                        cell.set_fg(fg);
                    }
                    if let Some(bg) = bg {
                        cell.set_bg(bg);
                    }
                } else {
                    cell.set_char(shade(intensity(top, col).unwrap_or(0.0)));
                    if on_cursor {
                        cell.set_style(Style::new().add_modifier(Modifier::REVERSED));
                    }
                }
            }
        }
    }

    fn inspector(&self, view: &HeatmapView) -> Line<'static> {
        let matrix = &view.matrix;
        let settings = self.settings;
        let (r, c) = clamp_cursor(settings.cursor, matrix.rows.len(), matrix.cols());
        let row = &matrix.rows[r];
        let value = f64::from(row.cells[c]);
        let (from, to) = matrix.col_times[c];
        // A size carries its unit ("400 KB"); a rate is followed by it ("12 WCU/s").
        let unit =
            if settings.metric == Metric::Bytes { String::new() } else { format!(" {}", settings.unit()) };
        let mut text = format!(
            "▸ {} · {}–{} · {}{unit}",
            row.label,
            short_time(from),
            short_time(to),
            value_text(settings.metric, value),
        );
        if let Some(limit) = settings.limit() {
            let _ = write!(text, " ({} of limit)", numbers::percent(value / limit));
        }
        let _ = match view.facts.get(r) {
            Some(f) => write!(
                text,
                " · {} items · {} · {} throttled",
                numbers::count(f.items as f64),
                numbers::bytes(f.bytes as f64),
                numbers::count(f.throttled as f64)
            ),
            None => write!(text, " · items {PENDING}"),
        };
        Line::from(Span::styled(text, self.theme.header()))
    }
}

fn value_text(metric: Metric, value: f64) -> String {
    if metric == Metric::Bytes { numbers::bytes(value) } else { numbers::count(value) }
}

/// The cursor moved inside a `rows` × `cols` matrix (it stays put while the matrix is empty).
pub fn clamp_cursor((row, col): (usize, usize), rows: usize, cols: usize) -> (usize, usize) {
    (row.min(rows.saturating_sub(1)), col.min(cols.saturating_sub(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_rows_share_a_cell() {
        let cases = [
            ((Some(0.2), Some(0.9)), HalfBlock { symbol: '▀', fg: Some(0.2), bg: Some(0.9) }),
            ((Some(0.2), None), HalfBlock { symbol: '▀', fg: Some(0.2), bg: None }),
            ((None, Some(0.5)), HalfBlock { symbol: '▄', fg: Some(0.5), bg: None }),
            ((None, None), HalfBlock { symbol: ' ', fg: None, bg: None }),
        ];
        for ((u, l), want) in cases {
            assert_eq!(half_block(u, l), want, "{u:?} {l:?}");
        }
    }

    #[test]
    fn the_grid_doubles_rows_with_colour() {
        let inner = Rect::new(0, 0, 120, 23);
        assert_eq!(grid_size(inner, true), (40, 120));
        assert_eq!(grid_size(inner, false), (20, 120));
        assert_eq!(grid_size(Rect::new(0, 0, 10, 2), true), (0, 10));
    }

    #[test]
    fn the_metric_cycle_visits_every_metric_once() {
        let mut m = Metric::WriteUnits;
        let mut seen = Vec::new();
        for _ in 0..Metric::ALL.len() {
            seen.push(m);
            m = next_metric(m);
        }
        assert_eq!(m, Metric::WriteUnits);
        seen.sort();
        assert_eq!(seen, Metric::ALL.to_vec());
    }

    #[test]
    fn the_default_scale_is_the_partition_limit() {
        let mut s = HeatSettings::default();
        assert_eq!(s.scale(), ColorScale::Absolute(1000.0));
        s.metric = Metric::ReadUnits;
        assert_eq!(s.scale(), ColorScale::Absolute(3000.0));
        s.metric = Metric::Items;
        assert_eq!(s.scale(), ColorScale::Relative);
        s.metric = Metric::WriteUnits;
        s.relative = true;
        assert_eq!(s.scale(), ColorScale::Relative);
        // 500 WCU/s is half-way to the limit whatever the hottest cell is.
        assert!((ColorScale::Absolute(1000.0).intensity(500.0, 600.0) - 0.5).abs() < 1e-6);
        assert!((ColorScale::Relative.intensity(500.0, 1000.0) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn cassandra_colours_size_by_its_guidance_and_load_relatively() {
        let mut s = HeatSettings { engine: Engine::Cassandra, ..HeatSettings::default() };
        assert_eq!((s.scale(), s.unit()), (ColorScale::Relative, "writes/s"));
        s.metric = Metric::Bytes;
        assert_eq!(s.scale(), ColorScale::Absolute(100.0 * 1024.0 * 1024.0));
        assert_eq!(s.limit(), Some(CASSANDRA_PARTITION_BYTES));
        s.metric = Metric::ReadUnits;
        assert_eq!((s.limit(), s.unit()), (None, "reads/s"));
    }

    #[test]
    fn the_cursor_stays_inside() {
        assert_eq!(clamp_cursor((9, 9), 3, 4), (2, 3));
        assert_eq!(clamp_cursor((1, 1), 0, 0), (0, 0));
    }
}
