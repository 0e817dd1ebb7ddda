//! The heatmap: rows are partitions, columns are time, colour is load. Two partitions share a
//! character cell (`▀` with the upper row as foreground and the lower as background), so a
//! 60-line terminal shows ~100 partition rows. Colour is scaled to the per-partition limit by
//! default, so bright means "near throttling"; `s` switches to a scale relative to the hottest
//! cell. Without colour each partition gets its own line of shade characters.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

mod axis;

pub use axis::{time_range, time_ticks};

use super::{PENDING, ellipsize, width_of};
use crate::engine::metrics::{ColorScale, Layer, Metric, NORMALIZED_FULL, RowOrdering};
use crate::engine::model::Engine;
use crate::engine::planner::numbers;
use crate::engine::profile::{Guidance, Metering};
use crate::tui::theme::Theme;
use crate::tui::view::{AsRates, HeatmapView};

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
    /// Cosmos DB: the RU/s a physical partition of the run drawn serves (its share of the
    /// container's throughput), taken from the run's view by [`HeatSettings::for_view`]; `None`
    /// until the run has one, and on other stores.
    pub partition_ru_per_s: Option<f64>,
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
            partition_ru_per_s: None,
        }
    }
}

/// Whether the partitions a label speaks of split at the bytes scale's line
/// (`HeatmapView::splits`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Splits {
    All,
    Some,
    None,
}

impl Splits {
    /// The legend's: every group of the run drawn, or of the design (`HeatmapPanel::design`)
    /// when no run is drawn yet.
    fn of(view: Option<&HeatmapView>, design: &[bool]) -> Splits {
        let splits = view.map_or(design, |v| v.splits.as_slice());
        match (splits.iter().all(|&s| s), splits.iter().any(|&s| s)) {
            (true, true) => Splits::All,
            (_, true) => Splits::Some,
            _ => Splits::None,
        }
    }
}

impl From<bool> for Splits {
    fn from(splits: bool) -> Splits {
        if splits { Splits::All } else { Splits::None }
    }
}

impl HeatSettings {
    /// One partition's limit for the metric, in the unit of [`HeatSettings::unit`].
    pub fn limit(&self) -> Option<f64> {
        let profile = self.engine.profile();
        match profile.metering {
            Metering::Units => self.metric.partition_limit(),
            // Without units, only the size guidance is a limit.
            Metering::Operations => (self.metric == Metric::Bytes).then_some(profile.partition_guide.bytes),
            // A physical partition serves its share of the container's RU/s (at most 10,000),
            // reads and writes together, and a logical partition lives on one: the share is what
            // either runs into (`cosmos::partition_share`). A logical partition holds at most
            // 20 GB.
            Metering::RequestUnits => match self.metric {
                Metric::ReadUnits | Metric::WriteUnits => self.partition_ru_per_s,
                Metric::Bytes => Some(profile.partition_guide.bytes),
                // Already a share of the partition's budget: full is all of it.
                Metric::NormalizedRu => Some(NORMALIZED_FULL),
                Metric::Throttled | Metric::Items => None,
            },
        }
    }

    /// These settings for drawing `view`: its run's share per physical partition, which
    /// differs between two designs compared side by side.
    pub fn for_view(&self, view: Option<&HeatmapView>) -> HeatSettings {
        HeatSettings { partition_ru_per_s: view.and_then(|v| v.partition_ru_per_s), ..*self }
    }

    /// What the limit is, in the legend's and the inspector's words: a Cosmos DB partition's
    /// request units run into its share of the container's throughput, not a fixed limit. A
    /// size is held to the store's guidance (`PartitionGuide`): a DynamoDB partition splits at
    /// 10 GB (`HeatmapView::splits`), Cassandra's ~100 MB is advice, MongoDB's 16 MB is one
    /// document's limit, which keyheat holds a key's documents to. `splits`: whether the
    /// partitions meant split at the line — all of them, some (a table with a local index and
    /// its GSIs), or none.
    fn limit_name(&self, splits: Splits) -> &'static str {
        let profile = self.engine.profile();
        match self.metric {
            Metric::ReadUnits | Metric::WriteUnits if profile.metering == Metering::RequestUnits => {
                "partition's share"
            }
            Metric::Bytes => match (profile.partition_guide.guidance, splits) {
                (Guidance::Cassandra, _) => "guidance",
                (Guidance::MongoDb, _) => "document limit",
                (Guidance::DynamoDb, Splits::All) => "split size",
                (Guidance::DynamoDb, Splits::Some) => "limit; GSIs split",
                _ => "limit",
            },
            _ => "limit",
        }
    }

    pub fn scale(&self) -> ColorScale {
        match self.limit() {
            #[allow(clippy::cast_possible_truncation, reason = "a limit drawn as a colour")]
            Some(limit) if !self.relative => ColorScale::Absolute(limit as f32),
            _ => ColorScale::Relative,
        }
    }

    /// The metric's name in the legend, in the store's words (Cassandra counts reads, writes
    /// and rows, not units).
    pub fn metric_name(&self) -> &'static str {
        let words = self.engine.words();
        match self.metric {
            Metric::ReadUnits => words.reads.name,
            Metric::WriteUnits => words.writes.name,
            Metric::Items => words.item.many,
            metric => metric.name(),
        }
    }

    /// A cell's value and its unit as the legend and the inspector print them: a size carries
    /// its unit ("400 KB"), a share its sign ("57% of its share"), a rate is followed by its
    /// unit ("12 WCU/s").
    pub fn value_with_unit(&self, value: f64) -> String {
        match self.metric {
            Metric::Bytes => numbers::bytes(value),
            Metric::NormalizedRu => format!("{}{}", numbers::count(value), self.unit()),
            _ => format!("{} {}", numbers::count(value), self.unit()),
        }
    }

    /// What a cell counts: capacity units per second, or operations in the Cassandra profile.
    pub fn unit(&self) -> &'static str {
        let words = self.engine.words();
        match self.metric {
            Metric::ReadUnits => words.reads.per_second,
            Metric::WriteUnits => words.writes.per_second,
            metric => metric.cell_unit(),
        }
    }
}

/// Whether a run on `engine` records `metric`: normalized RU only where partitions share a
/// container's request units (Cosmos DB).
pub fn offers(engine: Engine, metric: Metric) -> bool {
    metric != Metric::NormalizedRu || engine.profile().metering == Metering::RequestUnits
}

/// The order `m` cycles in, on a store that records every metric (write units first: what most
/// lessons are about).
fn following(metric: Metric) -> Metric {
    match metric {
        Metric::WriteUnits => Metric::ReadUnits,
        Metric::ReadUnits => Metric::Throttled,
        Metric::Throttled => Metric::Bytes,
        Metric::Bytes => Metric::Items,
        Metric::Items => Metric::NormalizedRu,
        Metric::NormalizedRu => Metric::WriteUnits,
    }
}

/// The metric after `m` on `engine`, skipping any the store's runs do not record.
pub fn next_metric(metric: Metric, engine: Engine) -> Metric {
    let next = following(metric);
    if offers(engine, next) { next } else { next_metric(next, engine) }
}

/// Every metric in `m`'s order, from write units.
fn cycle() -> Vec<Metric> {
    std::iter::successors(Some(Metric::WriteUnits), |&m| {
        Some(following(m)).filter(|&n| n != Metric::WriteUnits)
    })
    .collect()
}

/// What `m` shows, for the help: on `engine`, the metrics it cycles through there in the
/// store's words (`write RU, read RU, throttled, bytes, items, normalized RU` on Cosmos DB);
/// with no store open (help on the picker), those every store offers, then each of the rest
/// with the stores that offer it. Derived from [`next_metric`], so it lists what `m` does.
pub fn metric_choices(engine: Option<Engine>) -> String {
    let Some(engine) = engine else {
        let (everywhere, some): (Vec<Metric>, Vec<Metric>) =
            cycle().into_iter().partition(|&m| Engine::ALL.iter().all(|&e| offers(e, m)));
        let mut text = everywhere.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ");
        for m in some {
            let stores: Vec<String> =
                Engine::ALL.iter().filter(|&&e| offers(e, m)).map(ToString::to_string).collect();
            let _ = write!(text, "; on {} also {}", stores.join(" and "), m.name());
        }
        return text;
    };
    let mut names = vec![];
    let mut metric = Metric::WriteUnits;
    loop {
        names.push(HeatSettings { metric, engine, ..HeatSettings::default() }.metric_name());
        metric = next_metric(metric, engine);
        if metric == Metric::WriteUnits {
            return names.join(", ");
        }
    }
}

/// Lines inside the panel that are not cells: the legend above; the time axis, the inspector
/// and the shape hint below.
fn chrome_lines(height: u16) -> u16 {
    3 + inspector_lines(height)
}

/// The inspector's lines: more in a taller panel, so its figures wrap rather than being cut.
fn inspector_lines(height: u16) -> u16 {
    match height {
        ..12 => 1,
        12..16 => 2,
        _ => 3,
    }
}

/// Fields laid out on at most `lines` lines of `width` columns, joined by ` · `, a field never
/// split across lines; a field wider than a line, or the fields that do not fit, end the last
/// line in an ellipsis.
pub fn pack_fields(fields: &[String], width: usize, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, field) in fields.iter().enumerate() {
        let joined = if current.is_empty() { field.clone() } else { format!("{current} · {field}") };
        if width_of(&joined) <= width {
            current = joined;
            continue;
        }
        if current.is_empty() {
            current = ellipsize(field, width);
            continue;
        }
        if out.len() + 1 == lines {
            // No line left: what does not fit is cut, and says so.
            let rest = fields[i..].join(" · ");
            out.push(ellipsize(&format!("{current} · {rest}"), width));
            return out;
        }
        out.push(std::mem::take(&mut current));
        current = ellipsize(field, width);
    }
    if !current.is_empty() && out.len() < lines {
        out.push(current);
    }
    out
}

/// Columns of row labels left of the cells: a quarter of the panel, 10 to 24; none in a narrow
/// panel.
pub fn label_width(width: u16) -> u16 {
    if width < 40 { 0 } else { (width / 4).clamp(10, 24) }
}

/// Partition rows and time columns the panel's inner area can show.
pub fn grid_size(inner: Rect, half_blocks: bool) -> (usize, usize) {
    let lines = usize::from(inner.height.saturating_sub(chrome_lines(inner.height)));
    let labels = label_width(inner.width);
    let cols = inner.width.saturating_sub(if labels > 0 { labels + 1 } else { 0 });
    (if half_blocks { lines * 2 } else { lines }, usize::from(cols))
}

/// The cell with the largest value (the first of equals, row by row): where the cursor opens.
pub fn hottest_cell(matrix: &crate::engine::metrics::HeatmapMatrix) -> Option<(usize, usize)> {
    let mut best: Option<((usize, usize), f32)> = None;
    for (r, row) in matrix.rows.iter().enumerate() {
        for (c, &v) in row.cells.iter().enumerate() {
            if v.is_finite() && best.is_none_or(|(_, b)| v > b) {
                best = Some(((r, c), v));
            }
        }
    }
    best.filter(|&(_, v)| v > 0.0).map(|(at, _)| at)
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

/// Why the panel has no cells to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Empty<'a> {
    /// None yet (the run loads, has not been played, has no snapshot): the text says which, and
    /// the legend shows the scale the cells will be drawn on.
    Yet(&'a str),
    /// The run was replayed as rates and the metric is not one it keeps per partition (it keeps
    /// expected read and write load): there will be no cells, and the legend claims no scale or
    /// figure ([`AsRates::HEATMAP`] says why).
    AsRates,
}

pub struct HeatmapPanel<'a> {
    pub view: Option<&'a HeatmapView>,
    pub settings: &'a HeatSettings,
    /// What the shapes in the picture usually mean.
    pub hints: &'a [&'static str],
    /// What to say when there is no matrix.
    pub empty: Empty<'a>,
    /// Per group of the design (`view::design_splits`), whether its partitions split at the
    /// bytes line: what the legend says before a run is drawn.
    pub design: &'a [bool],
    pub theme: Theme,
}

impl Widget for HeatmapPanel<'_> {
    fn render(self, inner: Rect, buf: &mut Buffer) {
        let settings = self.settings.for_view(self.view);
        HeatmapPanel { settings: &settings, ..self }.draw(inner, buf);
    }
}

impl HeatmapPanel<'_> {
    fn draw(&self, inner: Rect, buf: &mut Buffer) {
        let chrome = chrome_lines(inner.height);
        if inner.height < chrome + 1 || inner.width < 10 {
            return;
        }
        let inspector_lines = inspector_lines(inner.height);
        let labels = label_width(inner.width);
        let cells_x = inner.x + if labels > 0 { labels + 1 } else { 0 };
        let legend = Rect { height: 1, ..inner };
        let rows = Rect { y: inner.y + 1, height: inner.height - chrome, ..inner };
        let grid = Rect { x: cells_x, width: inner.right() - cells_x, ..rows };
        let axis = Rect { y: grid.bottom(), height: 1, ..inner };
        let inspector = Rect { y: axis.bottom(), height: inspector_lines, ..inner };
        let hint = Rect { y: inspector.bottom(), height: 1, ..inner };
        let drawn = self.view.filter(|v| !v.matrix.rows.is_empty() && v.matrix.cols() > 0);
        let line = match (drawn, self.empty) {
            (None, Empty::AsRates) => self.no_legend(usize::from(inner.width)),
            _ => self.legend(self.view, usize::from(inner.width)),
        };
        Paragraph::new(line).render(legend, buf);
        let Some(view) = drawn else {
            let text = match self.empty {
                Empty::Yet(text) => text,
                Empty::AsRates => AsRates::HEATMAP,
            };
            // One line in the middle; a longer text (why a run has no heatmap) wraps from a
            // third of the way down.
            let at = if width_of(text) <= usize::from(rows.width) {
                Rect { y: rows.y + rows.height / 2, height: 1, ..rows }
            } else {
                Rect { y: rows.y + rows.height / 3, height: rows.height - rows.height / 3, ..rows }
            };
            Paragraph::new(Span::styled(text.to_owned(), self.theme.dim()))
                .centered()
                .wrap(Wrap { trim: true })
                .render(at, buf);
            return;
        };
        self.cells(view, grid, buf);
        if labels > 0 {
            self.row_labels(view, Rect { width: labels, ..rows }, buf);
        }
        self.axis(view, Rect { x: grid.x, width: grid.width, ..axis }, buf);
        let lines = self.inspector(view).lines(usize::from(inner.width), usize::from(inspector_lines));
        let used = u16::try_from(lines.len()).unwrap_or(inspector_lines);
        for (i, line) in (0u16..).zip(lines) {
            let style = if i == 0 { self.theme.header() } else { self.theme.plain() };
            Paragraph::new(Span::styled(line, style))
                .render(Rect { y: inspector.y + i, height: 1, ..inspector }, buf);
        }
        // The hint takes the line below and any the inspector left, wrapped at words.
        if let Some(h) = self.hints.first() {
            let room = Rect { y: inspector.y + used, height: hint.bottom() - (inspector.y + used), ..hint };
            let lines = wrap_words(&format!("◆ {h}"), usize::from(inner.width), usize::from(room.height));
            for (i, line) in (0u16..).zip(lines) {
                Paragraph::new(Span::styled(line, self.theme.warn()))
                    .render(Rect { y: room.y + i, height: 1, ..room }, buf);
            }
        }
    }
}

impl HeatmapPanel<'_> {
    /// The legend of a run replayed as rates, for a metric it does not keep per partition: the
    /// metric `m` chose, and that it was not kept, instead of a scale from 0 to a hottest cell
    /// that does not exist.
    fn no_legend(&self, width: usize) -> Line<'static> {
        let name = self.settings.metric_name();
        let rest = ellipsize(
            " · replayed as rates: not kept per partition (m: expected load)",
            width.saturating_sub(width_of(name)),
        );
        Line::from(vec![
            Span::styled(name.to_owned(), self.theme.header()),
            Span::styled(rest, self.theme.dim()),
        ])
    }

    /// The metric, the colour ramp between its two ends in numbers and unit, what full means,
    /// the row order and layer. Expected loads (a run replayed as rates) say so beside the
    /// metric, and which partitions the rows are, as far as it fits.
    fn legend(&self, view: Option<&HeatmapView>, width: usize) -> Line<'static> {
        let s = self.settings;
        let max = view.map_or(0.0, |v| v.matrix.max);
        let expected = view.and_then(|v| v.expected.as_ref());
        let (full, what) = match s.scale() {
            ColorScale::Absolute(limit) => {
                (f64::from(limit), format!("({})", s.limit_name(Splits::of(view, self.design))))
            }
            ColorScale::Relative => (f64::from(max), "(hottest)".to_owned()),
        };
        let order = match s.order {
            RowOrdering::ByKey => "· by key",
            RowOrdering::ByHeat => "· by heat",
        };
        // On the Cassandra profile the physical rows are the ring's nodes, not DynamoDB's
        // partitions.
        let layer = match s.layer {
            Layer::Logical => "· logical".to_owned(),
            Layer::Physical => format!("· {}", s.engine.words().physical),
        };
        let zero = format!(" {} ", value_text(s.metric, 0.0));
        let top = format!(" {}", s.value_with_unit(full));
        let mut spans = vec![Span::styled(s.metric_name().to_owned(), self.theme.header())];
        // Expected cells say so beside the metric, always, and which partitions the rows are
        // before the scale where the scale still fits after it.
        if let Some(e) = expected {
            spans.push(Span::styled(" expected".to_owned(), self.theme.header()));
            let kept =
                format!(" · {} hottest of {} ·", numbers::count(e.kept as f64), numbers::count(e.of as f64));
            let scale = width_of(&zero) + 9 + width_of(&top);
            let used: usize = spans.iter().map(|sp| width_of(&sp.content)).sum();
            if used + width_of(&kept) + scale <= width {
                spans.push(Span::styled(kept, self.theme.dim()));
            }
        }
        spans.push(Span::raw(zero));
        for i in 0..=8u8 {
            let x = f32::from(i) / 8.0;
            spans.push(if self.theme.half_blocks() {
                Span::styled(" ", Style::new().bg(self.theme.heat(x)))
            } else {
                let (c, style) = self.theme.shaded_cell(x);
                Span::styled(c.to_string(), style)
            });
        }
        spans.push(Span::raw(top));
        // What full means, the order and the layer (expected rows are logical partitions
        // whatever `p` asks), as far as they fit, in that order.
        let layer = if expected.is_some() { String::new() } else { layer };
        let mut used: usize = spans.iter().map(|sp| width_of(&sp.content)).sum();
        for part in [what.as_str(), order, &layer].into_iter().filter(|p| !p.is_empty()) {
            if used + 1 + width_of(part) <= width {
                used += 1 + width_of(part);
                spans.push(Span::styled(format!(" {part}"), self.theme.dim()));
            }
        }
        Line::from(spans)
    }

    /// Each line's label: the table or index where its group starts, then the partition key (a
    /// merged row's first … last).
    fn row_labels(&self, view: &HeatmapView, area: Rect, buf: &mut Buffer) {
        let m = &view.matrix;
        let per_line = if self.theme.half_blocks() { 2 } else { 1 };
        let width = usize::from(area.width);
        let mut group = None;
        for line in 0..usize::from(area.height) {
            let top = line * per_line;
            let Some(row) = m.rows.get(top) else { break };
            let y = area.y + u16::try_from(line).expect("line < area height, a u16");
            // The line names a table or index where one begins: its upper row's, or else its
            // lower row's (a one-row group shares a line with the next group's first row).
            let lower = m.rows.get(top + per_line - 1).filter(|_| per_line > 1);
            let starts_at = if group == Some(row.group) {
                lower.filter(|r| r.group != row.group).map(|_| top + 1)
            } else {
                Some(top)
            };
            let starts = starts_at.is_some();
            group = Some(lower.map_or(row.group, |r| r.group));
            let labelled = starts_at.unwrap_or(top);
            let row = &m.rows[labelled];
            // Keys differ at their end (ids), so a long one keeps its end; a merged row names its
            // first key and how many more it holds.
            let key = |room: usize| {
                let first = view.first_keys.get(labelled).unwrap_or(&row.label);
                match row.members.len() {
                    0 | 1 => keep_end(&row.label, room),
                    n => {
                        let more = format!("+{}", n - 1);
                        format!("{}{more}", keep_end(first, room.saturating_sub(more.len())))
                    }
                }
            };
            let text = if starts {
                let name = view.groups.get(usize::from(row.group.0)).map_or("?", String::as_str);
                match width.checked_sub(width_of(name) + 1) {
                    Some(room) if room >= 6 => format!("{name} {}", key(room)),
                    _ => ellipsize(name, width),
                }
            } else {
                key(width)
            };
            let style = if starts { self.theme.header() } else { self.theme.dim() };
            buf.set_stringn(area.x, y, text, width, style);
        }
    }

    /// Tick marks under the cells at round times since the workload's start.
    fn axis(&self, view: &HeatmapView, area: Rect, buf: &mut Buffer) {
        let cols = &view.matrix.col_times[..view.matrix.cols().min(usize::from(area.width))];
        for (col, label) in time_ticks(cols, view.start, 10) {
            let x = area.x + u16::try_from(col).expect("col < area width, a u16");
            let room = usize::from(area.right() - x);
            buf.set_stringn(x, area.y, format!("╵{label}"), room, self.theme.dim());
        }
    }
    fn cells(&self, view: &HeatmapView, area: Rect, buf: &mut Buffer) {
        let m = &view.matrix;
        let scale = self.settings.scale();
        let per_line = if self.theme.half_blocks() { 2 } else { 1 };
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
                if self.theme.half_blocks() {
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
                    let (c, style) = self.theme.shaded_cell(intensity(top, col).unwrap_or(0.0));
                    cell.set_char(c);
                    cell.set_style(if on_cursor { style.patch(self.theme.cursor_cell()) } else { style });
                }
            }
        }
    }

    /// The inspected cell as labelled fields, in two parts. The cell's: where (table or index and
    /// partition key, the time range), then what happened there (the metric's value against the
    /// limit, the requests throttled in that range). The row's partitions': their items and bytes
    /// now, and the requests they throttled over the run so far.
    fn inspector(&self, view: &HeatmapView) -> Inspector {
        let matrix = &view.matrix;
        let settings = self.settings;
        let (r, c) = clamp_cursor(settings.cursor, matrix.rows.len(), matrix.cols());
        let row = &matrix.rows[r];
        let value = f64::from(row.cells[c]);
        let (from, to) = matrix.col_times[c];
        let group = view.groups.get(usize::from(row.group.0)).map_or("?", String::as_str);
        let mut load = settings.value_with_unit(value);
        match settings.limit() {
            // The value is a share already; what it is a share of is the one thing left to say.
            _ if settings.metric == Metric::NormalizedRu => {
                load.push_str(" (busiest second ÷ physical partition's share)");
            }
            Some(limit) => {
                let splits =
                    Splits::from(view.splits.get(usize::from(row.group.0)).copied().unwrap_or(false));
                let _ =
                    write!(load, " ({} of {})", numbers::percent(value / limit), settings.limit_name(splits));
            }
            None => {}
        }
        // Expected rows stand for a key per time slot: the one current in the cell's column.
        let key = view.expected.as_ref().and_then(|e| e.key(r, c)).unwrap_or(&row.label);
        let mut cell = vec![format!("▸ {group} {key}"), time_range(from, to), load];
        let mut partition = Vec::new();
        if let Some(e) = &view.expected {
            let rank = e.ranks.get(r).map_or(0, |&k| k + 1);
            partition.push(format!("expected, replayed as rates: hottest #{rank} of its key group"));
            return Inspector { cell, partition };
        }
        // Cassandra holds rows and never throttles.
        let cql = settings.engine.profile().cql();
        let item = settings.engine.words().item;
        match view.facts.get(r) {
            Some(f) => {
                if let Some(&n) = f.throttled_by_col.get(c).filter(|_| !cql) {
                    let span = numbers::span(to.since(from).as_secs_f64());
                    cell.push(format!("throttled {} in {span}", numbers::count(n as f64)));
                }
                // A physical partition's items are not counted, only its bytes.
                partition.push(match f.items {
                    Some(items) => {
                        let items = items as f64;
                        format!(
                            "now {} {}, {}",
                            numbers::count(items),
                            item.of(items),
                            numbers::bytes(f.bytes as f64)
                        )
                    }
                    None => format!("now {}", numbers::bytes(f.bytes as f64)),
                });
                if !cql {
                    partition.push(format!("throttled so far {}", numbers::count(f.throttled as f64)));
                }
            }
            None => partition.push(format!("{} {PENDING}", item.many)),
        }
        Inspector { cell, partition }
    }
}

/// The inspector's fields: the cell's, then its row's partitions'.
#[derive(Debug, Clone, PartialEq)]
pub struct Inspector {
    pub cell: Vec<String>,
    pub partition: Vec<String>,
}

impl Inspector {
    /// The fields on at most `lines` lines of `width` columns, as [`pack_fields`] lays them out.
    /// The partition's start a line of their own where that costs no line and cuts nothing (the
    /// lines the inspector leaves go to the shape hint); elsewhere their labels ("now", "so
    /// far") keep them apart from the cell's.
    pub fn lines(&self, width: usize, lines: usize) -> Vec<String> {
        let packed = pack_fields(&[&self.cell[..], &self.partition[..]].concat(), width, lines);
        let mut apart = pack_fields(&self.cell, width, lines);
        if apart.len() < lines {
            apart.extend(pack_fields(&self.partition, width, lines - apart.len()));
            let cut = apart.last().is_some_and(|l| l.ends_with('…'));
            if apart.len() <= packed.len() && !cut {
                return apart;
            }
        }
        packed
    }
}

/// `text` wrapped at spaces onto at most `lines` lines of `width` columns; what does not fit ends
/// the last line in an ellipsis.
pub fn wrap_words(text: &str, width: usize, lines: usize) -> Vec<String> {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for (i, word) in words.iter().enumerate() {
        let joined = if current.is_empty() { (*word).to_owned() } else { format!("{current} {word}") };
        if width_of(&joined) <= width {
            current = joined;
        } else if out.len() + 1 >= lines {
            if lines > 0 {
                out.push(ellipsize(&format!("{current} {}", words[i..].join(" ")), width));
            }
            return out;
        } else {
            out.push(std::mem::take(&mut current));
            current = ellipsize(word, width);
        }
    }
    if !current.is_empty() && out.len() < lines {
        out.push(current);
    }
    out
}

/// `text` in `width` columns: whole, or `…` and its end.
pub fn keep_end(text: &str, width: usize) -> String {
    if width_of(text) <= width {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    let keep = width.saturating_sub(1).min(chars.len());
    let mut out = String::from("…");
    out.extend(&chars[chars.len() - keep..]);
    out
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
    fn the_grid_doubles_rows_with_colour_and_leaves_room_for_labels() {
        // (inner width, height) -> (rows with colour, rows without, columns)
        let cases =
            [((120, 23), (34, 17, 95)), ((46, 8), (8, 4, 34)), ((30, 8), (8, 4, 30)), ((10, 2), (0, 0, 10))];
        for ((w, h), (color_rows, rows, cols)) in cases {
            let inner = Rect::new(0, 0, w, h);
            assert_eq!(grid_size(inner, true), (color_rows, cols), "{w}x{h}");
            assert_eq!(grid_size(inner, false), (rows, cols), "{w}x{h}");
        }
    }

    #[test]
    fn fields_wrap_whole_and_what_does_not_fit_ends_in_an_ellipsis() {
        let fields: Vec<String> = [
            "▸ Reading sensor-00002",
            "06-01 00:00–00:15",
            "12 WCU/s (1.2% of limit)",
            "items 1,200",
            "size 86 KB",
        ]
        .iter()
        .map(|f| (*f).to_owned())
        .collect();
        let cases: [(usize, usize, &[&str]); 4] = [
            (
                200,
                3,
                &[
                    "▸ Reading sensor-00002 · 06-01 00:00–00:15 · 12 WCU/s (1.2% of limit) · items 1,200 · size 86 KB",
                ],
            ),
            (
                50,
                3,
                &[
                    "▸ Reading sensor-00002 · 06-01 00:00–00:15",
                    "12 WCU/s (1.2% of limit) · items 1,200",
                    "size 86 KB",
                ],
            ),
            (
                50,
                2,
                &[
                    "▸ Reading sensor-00002 · 06-01 00:00–00:15",
                    "12 WCU/s (1.2% of limit) · items 1,200 · size 86 …",
                ],
            ),
            (12, 1, &["▸ Reading s…"]),
        ];
        for (width, lines, want) in cases {
            assert_eq!(pack_fields(&fields, width, lines), want, "{width} x {lines}");
        }
    }

    #[test]
    fn hints_wrap_at_words() {
        let text = "◆ widening band: a partition keeps growing";
        assert_eq!(wrap_words(text, 100, 2), [text]);
        assert_eq!(wrap_words(text, 20, 3), ["◆ widening band: a", "partition keeps", "growing"]);
        assert_eq!(wrap_words(text, 20, 2), ["◆ widening band: a", "partition keeps gro…"]);
        assert_eq!(wrap_words(text, 20, 0), Vec::<String>::new());
    }

    #[test]
    fn long_keys_keep_their_end() {
        let cases = [
            ("sensor-00002", 20, "sensor-00002"),
            ("sensor-00002", 8, "…r-00002"),
            ("CUSTOMER#c0001", 1, "…"),
            ("ab", 0, "…"),
        ];
        for (text, width, want) in cases {
            assert_eq!(keep_end(text, width), want, "{text} in {width}");
        }
    }

    type Case = (&'static [&'static [f32]], Option<(usize, usize)>);

    #[test]
    fn the_cursor_opens_on_the_hottest_cell() {
        use crate::engine::metrics::{GroupId, HeatRow, HeatmapMatrix};
        let matrix = |rows: &[&[f32]]| HeatmapMatrix {
            metric: Metric::WriteUnits,
            order: RowOrdering::ByKey,
            rows: rows
                .iter()
                .map(|cells| HeatRow {
                    label: String::new(),
                    group: GroupId(0),
                    members: Vec::new(),
                    cells: cells.to_vec(),
                })
                .collect(),
            col_times: Vec::new(),
            max: 0.0,
            totals: Vec::new(),
        };
        let cases: [Case; 4] = [
            (&[&[1.0, 2.0], &[9.0, 3.0]], Some((1, 0))),
            (&[&[5.0, 5.0], &[5.0, 1.0]], Some((0, 0))),
            (&[&[0.0, 0.0]], None),
            (&[&[f32::NAN, 1.0]], Some((0, 1))),
        ];
        for (rows, want) in cases {
            assert_eq!(hottest_cell(&matrix(rows)), want, "{rows:?}");
        }
    }

    #[test]
    fn the_metric_cycle_visits_every_metric_the_store_records_once() {
        // Normalized RU is a Cosmos DB figure: the other stores' cycles leave it out.
        let cases = [
            (Engine::CosmosDb, Metric::ALL.to_vec()),
            (Engine::DynamoDb, Metric::EVERY_RUN.to_vec()),
            (Engine::Cassandra, Metric::EVERY_RUN.to_vec()),
            (Engine::MongoDb, Metric::EVERY_RUN.to_vec()),
        ];
        for (engine, want) in cases {
            let mut m = Metric::WriteUnits;
            let mut seen = Vec::new();
            for _ in 0..want.len() {
                seen.push(m);
                m = next_metric(m, engine);
            }
            assert_eq!(m, Metric::WriteUnits, "{engine}");
            seen.sort();
            assert_eq!(seen, want, "{engine}");
            assert_eq!(offers(engine, Metric::NormalizedRu), engine == Engine::CosmosDb);
        }
    }

    #[test]
    fn normalized_ru_is_coloured_against_all_of_the_share() {
        let s = HeatSettings {
            engine: Engine::CosmosDb,
            metric: Metric::NormalizedRu,
            ..HeatSettings::default()
        };
        assert_eq!(s.limit(), Some(100.0));
        assert_eq!(s.scale(), ColorScale::Absolute(100.0));
        assert_eq!(s.metric_name(), "normalized RU");
        assert_eq!(s.value_with_unit(100.0), "100% of its share");
        assert_eq!(s.value_with_unit(57.25), "57.2% of its share");
        // The other metrics keep their words.
        let w = HeatSettings { metric: Metric::WriteUnits, ..s };
        assert_eq!(w.value_with_unit(12.0), "12 RU/s");
        assert_eq!(HeatSettings { metric: Metric::Bytes, ..s }.value_with_unit(2048.0), "2 KB");
    }

    /// On Cosmos DB request units are coloured against the share of the container's RU/s a
    /// physical partition serves, taken from the run drawn (200,000 RU/s over 34 partitions:
    /// 5,882 RU/s, not the 10,000 a partition can serve at most), and labelled as the share.
    #[test]
    fn cosmos_db_request_units_are_coloured_against_the_partitions_share() {
        let share = crate::engine::profile::cosmos::partition_share(200_000.0, 34);
        let s = HeatSettings { engine: Engine::CosmosDb, ..HeatSettings::default() };
        // Before the run has a share there is no limit to claim: the scale is relative.
        assert_eq!(s.limit(), None);
        assert_eq!(s.scale(), ColorScale::Relative);
        let mut view = throttling_partition();
        view.partition_ru_per_s = Some(share);
        let s = s.for_view(Some(&view));
        assert_eq!(s.limit(), Some(share));
        #[allow(clippy::cast_possible_truncation, reason = "the scale is f32")]
        let want = ColorScale::Absolute(share as f32);
        assert_eq!(s.scale(), want);
        assert_eq!(HeatSettings { metric: Metric::ReadUnits, ..s }.limit(), Some(share));
        let area = Rect::new(0, 0, 100, 20);
        let mut buf = Buffer::empty(area);
        let settings = HeatSettings { engine: Engine::CosmosDb, ..HeatSettings::default() };
        let panel = HeatmapPanel {
            view: Some(&view),
            settings: &settings,
            hints: &[],
            empty: Empty::Yet(""),
            design: &[],
            theme: Theme::MONO,
        };
        panel.render(area, &mut buf);
        let text: String = (0..area.height)
            .flat_map(|y| (0..area.width).map(move |x| (x, y)))
            .map(|at| buf[at].symbol().to_owned())
            .collect();
        assert!(text.contains("5,882 RU/s (partition's share)"), "{text}");
        assert!(text.contains("900 RU/s (15.3% of partition's share)"), "{text}");
        // Bytes keep the logical partition's 20 GB limit.
        let bytes = HeatSettings { metric: Metric::Bytes, ..s };
        assert_eq!(bytes.limit_name(Splits::None), "limit");
    }

    /// What the scale's full end is called: a DynamoDB partition splits at 10 GB unless a local
    /// index holds its item collection there; throughput and other stores' sizes are limits.
    #[test]
    fn the_bytes_line_is_a_split_size_where_partitions_split() {
        let name = |engine: Engine, metric: Metric, splits: &[bool]| {
            let view = HeatmapView { splits: splits.to_vec(), ..throttling_partition() };
            HeatSettings { metric, engine, ..HeatSettings::default() }
                .limit_name(Splits::of(Some(&view), &[]))
        };
        let cases: [(Engine, Metric, &[bool], &str); 9] = [
            (Engine::DynamoDb, Metric::Bytes, &[true, true], "split size"),
            (Engine::DynamoDb, Metric::Bytes, &[false, true], "limit; GSIs split"),
            (Engine::DynamoDb, Metric::Bytes, &[false], "limit"),
            (Engine::DynamoDb, Metric::Bytes, &[], "limit"),
            (Engine::DynamoDb, Metric::WriteUnits, &[true], "limit"),
            (Engine::CosmosDb, Metric::Bytes, &[false], "limit"),
            (Engine::Cassandra, Metric::Bytes, &[false], "guidance"),
            (Engine::MongoDb, Metric::Bytes, &[false], "document limit"),
            (Engine::CosmosDb, Metric::ReadUnits, &[false], "partition's share"),
        ];
        for (engine, metric, splits, want) in cases {
            assert_eq!(name(engine, metric, splits), want, "{engine} {metric:?} {splits:?}");
        }
    }

    /// Before a run is drawn, the legend speaks of the design's partitions (`design`), and a
    /// drawn run's own groups win over it. (the design, a drawn run's groups, the words)
    #[test]
    fn the_legend_before_a_run_speaks_of_the_design() {
        let settings =
            HeatSettings { metric: Metric::Bytes, engine: Engine::DynamoDb, ..HeatSettings::default() };
        let view = |splits: &[bool]| HeatmapView { splits: splits.to_vec(), ..throttling_partition() };
        // A drawn run's groups: `[]` for none drawn.
        let cases: [(&[bool], &[bool], &str); 4] = [
            (&[true, true], &[], "(split size)"),
            (&[false, true], &[], "(limit; GSIs split)"),
            (&[], &[], "(limit)"),
            (&[false, true], &[true], "(split size)"),
        ];
        for (design, drawn, want) in cases {
            let drawn = (!drawn.is_empty()).then(|| view(drawn));
            let (area, mut buf) = (Rect::new(0, 0, 120, 12), Buffer::empty(Rect::new(0, 0, 120, 12)));
            let empty = Empty::Yet("");
            let panel = HeatmapPanel {
                view: drawn.as_ref(),
                settings: &settings,
                hints: &[],
                empty,
                design,
                theme: Theme::MONO,
            };
            panel.render(area, &mut buf);
            let line: String = (0..area.width).map(|x| buf[(x, 0)].symbol()).collect();
            assert!(line.contains(want), "{design:?} {drawn:?}: {line}");
        }
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
    fn cassandra_names_its_metrics_in_operations_and_rows() {
        // (metric, DynamoDB's name, Cassandra's)
        let cases = [
            (Metric::WriteUnits, "write units", "writes"),
            (Metric::ReadUnits, "read units", "reads"),
            (Metric::Items, "items", "rows"),
            (Metric::Bytes, "bytes", "bytes"),
        ];
        for (metric, dynamodb, cassandra) in cases {
            let s = HeatSettings { metric, ..HeatSettings::default() };
            assert_eq!(s.metric_name(), dynamodb);
            assert_eq!(HeatSettings { engine: Engine::Cassandra, ..s }.metric_name(), cassandra);
        }
    }

    #[test]
    fn cassandra_colours_size_by_its_guidance_and_load_relatively() {
        let mut s = HeatSettings { engine: Engine::Cassandra, ..HeatSettings::default() };
        assert_eq!((s.scale(), s.unit()), (ColorScale::Relative, "writes/s"));
        s.metric = Metric::Bytes;
        assert_eq!(s.scale(), ColorScale::Absolute(100.0 * 1024.0 * 1024.0));
        assert_eq!(s.limit(), Some(crate::engine::planner::CASSANDRA_PARTITION_BYTES));
        s.metric = Metric::ReadUnits;
        assert_eq!((s.limit(), s.unit()), (None, "reads/s"));
    }

    /// One partition, three 2-second cells: 900, 400 and 0 WCU/s at its peak, throttling 7, 0
    /// and 5 requests; 12 over the run so far.
    fn throttling_partition() -> HeatmapView {
        use crate::engine::metrics::{GroupId, HeatRow, HeatmapMatrix, PartitionId};
        use crate::engine::time::{SimDuration, SimTime};
        use crate::tui::view::RowFacts;
        let start = SimTime::parse("2025-06-01T00:00:00Z").expect("a time");
        let col_times = (0..3u64)
            .map(|c| (start + SimDuration::from_secs(2 * c), start + SimDuration::from_secs(2 * c + 2)))
            .collect();
        let row = HeatRow {
            label: "COUNTER#stream-246".to_owned(),
            group: GroupId(0),
            members: vec![PartitionId(0)],
            cells: vec![900.0, 400.0, 0.0],
        };
        let matrix = HeatmapMatrix {
            metric: Metric::WriteUnits,
            order: RowOrdering::ByKey,
            rows: vec![row],
            col_times,
            max: 900.0,
            totals: vec![900.0, 400.0, 0.0],
        };
        let facts =
            vec![RowFacts { items: Some(1), bytes: 49, throttled: 12, throttled_by_col: vec![7, 0, 5] }];
        HeatmapView {
            matrix,
            facts,
            groups: vec!["counters".to_owned()],
            splits: vec![true],
            start,
            first_keys: vec!["COUNTER#stream-246".to_owned()],
            partition_ru_per_s: None,
            expected: None,
        }
    }

    /// Beside a cell's time range the inspector counts that range's throttles; the run's total
    /// so far is the partition's and says so. (cursor column, cell's fields, partition's fields)
    #[test]
    fn a_cell_shows_its_own_throttles_and_the_partition_its_total_so_far() {
        let view = throttling_partition();
        let partition = ["now 1 item, 49 B", "throttled so far 12"];
        let cases = [
            (0, ["06-01 00:00:00–00:00:02", "900 WCU/s (90% of limit)", "throttled 7 in 2 s"]),
            (1, ["06-01 00:00:02–00:00:04", "400 WCU/s (40% of limit)", "throttled 0 in 2 s"]),
            (2, ["06-01 00:00:04–00:00:06", "0 WCU/s (0% of limit)", "throttled 5 in 2 s"]),
        ];
        for (col, cell) in cases {
            let settings = HeatSettings { cursor: (0, col), ..HeatSettings::default() };
            let panel = HeatmapPanel {
                view: None,
                settings: &settings,
                hints: &[],
                empty: Empty::Yet(""),
                design: &[],
                theme: Theme::DARK,
            };
            let got = panel.inspector(&view);
            assert_eq!(got.cell[0], "▸ counters COUNTER#stream-246");
            assert_eq!(got.cell[1..], cell, "column {col}");
            assert_eq!(got.partition, partition, "column {col}");
        }
        // Cassandra never throttles: neither figure is shown.
        let settings = HeatSettings { engine: Engine::Cassandra, ..HeatSettings::default() };
        let panel = HeatmapPanel {
            view: None,
            settings: &settings,
            hints: &[],
            empty: Empty::Yet(""),
            design: &[],
            theme: Theme::DARK,
        };
        let got = panel.inspector(&view);
        assert!(got.cell.iter().chain(&got.partition).all(|f| !f.contains("throttled")), "{got:?}");
    }

    /// A run replayed as rates keeps no throttles or sizes per partition: for those metrics its
    /// legend names the metric and says so, with no scale and no figure (there was no "0 bytes
    /// (limit)"); a run that has not measured yet keeps the scale its cells will take.
    #[test]
    fn a_rates_run_has_no_scale_for_a_metric_it_does_not_keep() {
        let area = Rect::new(0, 0, 100, 20);
        let legend = |engine, metric, empty| {
            let settings = HeatSettings { metric, engine, ..HeatSettings::default() };
            let mut buf = Buffer::empty(area);
            HeatmapPanel {
                view: None,
                settings: &settings,
                hints: &[],
                empty,
                design: &[],
                theme: Theme::MONO,
            }
            .render(area, &mut buf);
            (0..area.width).map(|x| buf[(x, 0)].symbol()).collect::<String>().trim_end().to_owned()
        };
        for engine in Engine::ALL {
            for metric in [Metric::Throttled, Metric::Bytes, Metric::Items] {
                let line = legend(engine, metric, Empty::AsRates);
                let name = HeatSettings { metric, engine, ..HeatSettings::default() }.metric_name();
                assert_eq!(
                    line,
                    format!("{name} · replayed as rates: not kept per partition (m: expected load)")
                );
            }
        }
        let waiting = legend(Engine::DynamoDb, Metric::WriteUnits, Empty::Yet("space plays the replay"));
        assert!(
            waiting.starts_with("write units 0 ") && waiting.contains("1,000 WCU/s (limit)"),
            "{waiting}"
        );
    }

    /// Expected cells (a run replayed as rates) say so: the legend beside the metric and with
    /// the partitions the rows are, the inspector with the key of the cell's own time slot and
    /// the row's rank instead of measured items and throttles.
    #[test]
    fn expected_cells_say_they_are_expected() {
        let mut view = throttling_partition();
        view.facts = Vec::new();
        view.expected = Some(crate::tui::view::Expected {
            kept: 128,
            of: 1_000_000,
            keys: vec![vec![(0, "COUNTER#stream-246#0".to_owned()), (2, "COUNTER#stream-246#1".to_owned())]],
            ranks: vec![0],
        });
        let area = Rect::new(0, 0, 120, 20);
        let settings = HeatSettings { cursor: (0, 1), ..HeatSettings::default() };
        let mut buf = Buffer::empty(area);
        HeatmapPanel {
            view: Some(&view),
            settings: &settings,
            hints: &[],
            empty: Empty::AsRates,
            design: &[],
            theme: Theme::MONO,
        }
        .render(area, &mut buf);
        let line = |y: u16| (0..area.width).map(|x| buf[(x, y)].symbol()).collect::<String>();
        let legend = line(0);
        assert!(legend.starts_with("write units expected · 128 hottest of 1,000,000 · 0 "), "{legend}");
        assert!(legend.trim_end().ends_with("1,000 WCU/s (limit) · by key"), "{legend}");
        let panel = HeatmapPanel {
            view: None,
            settings: &settings,
            hints: &[],
            empty: Empty::AsRates,
            design: &[],
            theme: Theme::MONO,
        };
        let got = panel.inspector(&view);
        assert_eq!(got.cell[0], "▸ counters COUNTER#stream-246#0");
        assert_eq!(got.partition, ["expected, replayed as rates: hottest #1 of its key group"]);
        let last = HeatSettings { cursor: (0, 2), ..settings };
        let panel = HeatmapPanel { settings: &last, ..panel };
        assert_eq!(panel.inspector(&view).cell[0], "▸ counters COUNTER#stream-246#1");
    }

    /// The partition's figures start a line of their own where that costs no line, and share
    /// the cell's lines where it would. (width, lines, what is drawn)
    #[test]
    fn the_partitions_figures_start_their_own_line_where_it_costs_none() {
        let inspector = Inspector {
            cell: ["▸ counters COUNTER#stream-246", "06-01 00:00:00–00:00:02", "throttled 7 in 2 s"]
                .map(str::to_owned)
                .to_vec(),
            partition: ["now 1 item, 49 B", "throttled so far 12"].map(str::to_owned).to_vec(),
        };
        let one_line = "▸ counters COUNTER#stream-246 · 06-01 00:00:00–00:00:02 · throttled 7 in 2 s · \
                        now 1 item, 49 B · throttled so far 12";
        let cases: [(usize, usize, &[&str]); 4] = [
            // Packed, "now 1 item, 49 B" would end the first line.
            (
                96,
                3,
                &[
                    "▸ counters COUNTER#stream-246 · 06-01 00:00:00–00:00:02 · throttled 7 in 2 s",
                    "now 1 item, 49 B · throttled so far 12",
                ],
            ),
            (120, 2, &[one_line]),
            (120, 1, &[one_line]),
            (
                60,
                2,
                &[
                    "▸ counters COUNTER#stream-246 · 06-01 00:00:00–00:00:02",
                    "throttled 7 in 2 s · now 1 item, 49 B · throttled so far 12",
                ],
            ),
        ];
        for (width, lines, want) in cases {
            assert_eq!(inspector.lines(width, lines), want, "{width} x {lines}");
        }
    }

    #[test]
    fn the_cursor_stays_inside() {
        assert_eq!(clamp_cursor((9, 9), 3, 4), (2, 3));
        assert_eq!(clamp_cursor((1, 1), 0, 0), (0, 0));
    }
}
