//! The heatmap matrix: rows are partitions, columns are time, cells are load. Pure: it takes rows
//! from anywhere (the registry's [`super::Metrics::heatmap`], or a test's synthetic cells) and a
//! row budget, and decides which partitions keep a row of their own.
//!
//! When partitions outnumber rows, the hottest keep their own row and each run of colder
//! neighbours (in the chosen order) merges into one row whose cells are the members' max: a
//! merged row is as bright as its hottest member, so a throttling partition never hides in an
//! average. Runs never cross a group border (the table, each index, each entity). The hottest
//! rows are taken greedily while the budget lasts; keeping a row splits the run it was in, which
//! costs up to two more rows.

use std::cmp::Ordering;

use super::registry::SortKey;
use super::{GroupId, Metric, MetricsError, PartitionId, narrow};
use crate::engine::time::SimTime;

/// The order of rows within each group (groups come in id order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowOrdering {
    /// By partition key (or hash range): a monotonically increasing key draws a diagonal.
    ByKey,
    /// Hottest first: cold partitions gather in one merged row at the end of each group.
    ByHeat,
}

/// One partition offered to the builder.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SourceRow<'a> {
    pub id: PartitionId,
    pub group: GroupId,
    pub label: &'a str,
    pub key: &'a SortKey,
    /// What ranks the row for a row of its own: normally the max of its cells.
    pub heat: f32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct HeatRow {
    /// The partition's label, or `first … last (n partitions)` for a merged row.
    pub label: String,
    pub group: GroupId,
    /// The partitions this row stands for, in row order.
    pub members: Vec<PartitionId>,
    /// One value per column: for a merged row, the max over its members.
    pub cells: Vec<f32>,
}

impl HeatRow {
    pub fn is_merged(&self) -> bool {
        self.members.len() > 1
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapMatrix {
    pub metric: Metric,
    pub order: RowOrdering,
    pub rows: Vec<HeatRow>,
    /// The time each column covers, start inclusive, end exclusive.
    pub col_times: Vec<(SimTime, SimTime)>,
    /// The largest cell (0 for an empty matrix).
    pub max: f32,
    /// Each column's load summed over every partition. A merged row's cells are its members'
    /// max, so summing the rows would understate a column and overstate any row's share of it.
    pub totals: Vec<f32>,
}

/// Maps a cell's value to an intensity in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColorScale {
    /// Against a fixed limit (1,000 WCU/s per partition): full brightness means at the limit.
    Absolute(f32),
    /// Against the matrix's largest cell: shows where the load is, not how close it is to a limit.
    Relative,
}

impl ColorScale {
    /// The default for a metric: absolute against its per-partition limit where DynamoDB has one.
    pub fn for_metric(metric: Metric) -> ColorScale {
        metric.partition_limit().map_or(ColorScale::Relative, |limit| ColorScale::Absolute(narrow(limit)))
    }

    /// Linear in the value, clamped to 0..=1; 0 when the scale is empty or the value not a number.
    pub fn intensity(self, value: f32, matrix_max: f32) -> f32 {
        let full = match self {
            ColorScale::Absolute(limit) => limit,
            ColorScale::Relative => matrix_max,
        };
        let x = value / full;
        if full > 0.0 && x.is_finite() { x.clamp(0.0, 1.0) } else { 0.0 }
    }
}

impl HeatmapMatrix {
    /// Lays `sources` out in at most `rows` rows (see the module doc) and fills their cells:
    /// `fill(i, cells)` writes source `i`'s values for the `col_times.len()` columns. Errors when
    /// there are more groups than rows, since rows never merge across a group.
    pub fn build(
        metric: Metric,
        order: RowOrdering,
        col_times: Vec<(SimTime, SimTime)>,
        sources: &[SourceRow<'_>],
        rows: usize,
        mut fill: impl FnMut(usize, &mut [f32]),
    ) -> Result<HeatmapMatrix, MetricsError> {
        let display = display_order(sources, order);
        let spans = plan(sources, &display, rows)?;
        let cols = col_times.len();
        let mut scratch = vec![0.0; cols];
        let mut max: f32 = 0.0;
        let mut totals = vec![0.0f32; cols];
        let mut out = Vec::with_capacity(spans.len());
        for span in spans {
            let members = &display[span];
            let mut cells = vec![0.0f32; cols];
            for &i in members {
                fill(i, &mut scratch);
                for ((cell, total), &v) in cells.iter_mut().zip(&mut totals).zip(&scratch) {
                    *cell = cell.max(v);
                    *total += v;
                }
            }
            max = cells.iter().copied().fold(max, f32::max);
            // plan never makes an empty span.
            let Some((&head, rest)) = members.split_first() else { continue };
            let first = &sources[head];
            let label = match rest.last() {
                None => first.label.to_owned(),
                Some(&last) => {
                    format!("{} … {} ({} partitions)", first.label, sources[last].label, members.len())
                }
            };
            out.push(HeatRow {
                label,
                group: first.group,
                members: members.iter().map(|&i| sources[i].id).collect(),
                cells,
            });
        }
        Ok(HeatmapMatrix { metric, order, rows: out, col_times, max, totals })
    }

    pub fn cols(&self) -> usize {
        self.col_times.len()
    }

    /// A cell's intensity under `scale` (the relative scale uses this matrix's max).
    pub fn intensity(&self, value: f32, scale: ColorScale) -> f32 {
        scale.intensity(value, self.max)
    }
}

/// Source indices in display order: by key, groups in their order; or by heat, hottest first,
/// the group holding the hottest row first (a group's rows stay together, so cold runs never
/// merge across an entity or index border). Ids break ties so the order is total and the same
/// on every run.
fn display_order(sources: &[SourceRow<'_>], order: RowOrdering) -> Vec<usize> {
    let mut display: Vec<usize> = (0..sources.len()).collect();
    let by_key = |a: &SourceRow<'_>, b: &SourceRow<'_>| a.key.cmp(b.key).then(a.id.cmp(&b.id));
    let mut group_heat: std::collections::HashMap<GroupId, f32> = std::collections::HashMap::new();
    for s in sources {
        let h = group_heat.entry(s.group).or_insert(f32::NEG_INFINITY);
        if heat_order(s.heat, *h) == Ordering::Greater {
            *h = s.heat;
        }
    }
    let hottest = |g: GroupId| group_heat.get(&g).copied().unwrap_or(f32::NEG_INFINITY);
    display.sort_by(|&a, &b| {
        let (a, b) = (&sources[a], &sources[b]);
        match order {
            RowOrdering::ByKey => a.group.cmp(&b.group).then_with(|| by_key(a, b)),
            RowOrdering::ByHeat => heat_order(hottest(b.group), hottest(a.group))
                .then(a.group.cmp(&b.group))
                .then_with(|| heat_order(b.heat, a.heat))
                .then_with(|| by_key(a, b)),
        }
    });
    display
}

/// Which display positions share a row: a list of contiguous, non-empty ranges covering them all.
fn plan(
    sources: &[SourceRow<'_>],
    display: &[usize],
    limit: usize,
) -> Result<Vec<std::ops::Range<usize>>, MetricsError> {
    let n = display.len();
    let group_at = |pos: usize| sources[display[pos]].group;
    let groups = (0..n).filter(|&p| p == 0 || group_at(p) != group_at(p - 1)).count();
    if groups > limit {
        return Err(MetricsError::TooFewRows { groups, rows: limit });
    }
    let mut kept = vec![n <= limit; n];
    if n > limit {
        // Start from one merged row per group; keep the hottest while the budget allows.
        let mut used = groups;
        let mut hottest: Vec<usize> = (0..n).collect();
        hottest
            .sort_by(|&a, &b| heat_order(sources[display[b]].heat, sources[display[a]].heat).then(a.cmp(&b)));
        for pos in hottest {
            if sources[display[pos]].heat.partial_cmp(&0.0) != Some(Ordering::Greater) {
                break;
            }
            let cold = |other: Option<usize>| {
                other.is_some_and(|o| o < n && group_at(o) == group_at(pos) && !kept[o])
            };
            let cost = usize::from(cold(pos.checked_sub(1))) + usize::from(cold(Some(pos + 1)));
            if used + cost > limit {
                break;
            }
            kept[pos] = true;
            used += cost;
        }
    }
    let mut spans = Vec::new();
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        if !kept[start] {
            while end < n && !kept[end] && group_at(end) == group_at(start) {
                end += 1;
            }
        }
        spans.push(start..end);
        start = end;
    }
    Ok(spans)
}

/// Heat ascending, NaN as the coldest.
fn heat_order(a: f32, b: f32) -> Ordering {
    let key = |x: f32| if x.is_nan() { f32::NEG_INFINITY } else { x };
    key(a).total_cmp(&key(b))
}

#[cfg(test)]
mod tests;
