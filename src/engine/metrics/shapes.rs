//! Names for shapes a heatmap shows, from the key-visualizer tradition: a diagonal (a
//! monotonically increasing key), a hot band (a hot key) and a widening band (a partition that
//! grows without bound). Hints, not verdicts: each test is a few plain rules on the matrix, with
//! thresholds named below, and says nothing when a shape is short or faint.

use super::Kind;
use super::heatmap::{HeatmapMatrix, RowOrdering};

/// Busy columns a shape needs before it is named; fewer are noise.
const MIN_COLUMNS: usize = 4;
/// Rows a diagonal must cross.
const DIAGONAL_MIN_ROWS: usize = 3;
/// Share of the hottest row's moves that go the same way, for a diagonal.
const DIAGONAL_ONE_WAY: f32 = 0.9;
/// The walking row carries at least this share of its column's load in at least this share of
/// the busy columns: one partition at a time takes the load. (Many keys that each write to their
/// own newest partition — a time bucket per sensor — spread it, and are the fix, not the problem.)
const DIAGONAL_SHARE: f32 = 0.5;
const DIAGONAL_COLUMNS: f32 = 0.75;
/// A hot band's row carries at least this share of its column's load…
const BAND_SHARE: f32 = 0.5;
/// …in at least this share of the busy columns…
const BAND_COLUMNS: f32 = 0.75;
/// …which are at least this share of the picture: a band runs across time; a few late columns
/// of load (a burst of throttles at the end of a run) are spots, and one partition taking them
/// says nothing about its key.
const BAND_SPAN: f32 = 0.5;
/// A widening band's level rises (or holds) in at least this share of its steps…
const WIDENING_RISING: f32 = 0.9;
/// …ends at least this many times its first level…
const WIDENING_GROWTH: f32 = 2.0;
/// …and is still growing: the last quarter of its columns adds at least this share of the growth…
const WIDENING_STILL: f32 = 0.1;
/// …and has grown for most of the picture: it held data by this share of the columns. A young
/// partition that grows (the open bucket of a bucketed key, a new key) is not unbounded growth.
const WIDENING_FROM: f32 = 0.25;
/// …and has reached this share of the metric's limit (the partition size the profile warns at):
/// growth far below any limit — a customer's orders, kilobytes of a 10 GB partition — is a
/// partition doing its job, not the unbounded collection the hint warns of. keyheat's choice.
const WIDENING_NEAR: f32 = 0.05;

#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// The hottest row moves steadily across rows ordered by key.
    Diagonal { from_row: usize, to_row: usize, columns: usize },
    /// One row carries `share` (on average) of the load in `columns` columns.
    HotBand { row: usize, share: f32, columns: usize },
    /// A row's level (bytes, items) grew `growth` times over the matrix and is still growing.
    WideningBand { row: usize, growth: f32 },
}

impl Shape {
    /// What the shape usually means, for a person reading the heatmap.
    pub fn hint(&self) -> &'static str {
        match self {
            Shape::Diagonal { .. } => concat!(
                "diagonal: the load walks across the keys — a monotonically increasing key ",
                "(a timestamp, a sequence) sends every write to the newest partition"
            ),
            Shape::HotBand { .. } => concat!(
                "hot band: one partition takes most of the load — a hot key; ",
                "shard its writes, cache its reads"
            ),
            Shape::WideningBand { .. } => concat!(
                "widening band: a partition keeps growing — an unbounded item collection; ",
                "add a time bucket to its key"
            ),
        }
    }
}

/// Every shape found, diagonals first, then hot bands and widening bands in row order. `limit`
/// is the metric's limit per partition where it has one (bytes: the partition size); without
/// one, no band can be said to widen toward it and none is named.
pub fn detect_shapes(m: &HeatmapMatrix, limit: Option<f32>) -> Vec<Shape> {
    let mut shapes = Vec::new();
    shapes.extend(diagonal(m));
    shapes.extend(hot_bands(m));
    if let Some(limit) = limit {
        shapes.extend(widening_bands(m, limit));
    }
    shapes
}

/// Each column's load over every partition: the matrix's totals (a merged row shows only its
/// hottest member, so its cells understate what it holds), or the rows' sum where the matrix
/// carries none. A share of this is a share of the real load.
fn column_sums(m: &HeatmapMatrix) -> Vec<f32> {
    let rows = (0..m.cols()).map(|c| m.rows.iter().map(|r| r.cells[c]).sum::<f32>());
    if m.totals.len() == m.cols() {
        rows.zip(&m.totals).map(|(sum, &total)| total.max(sum)).collect()
    } else {
        rows.collect()
    }
}

fn diagonal(m: &HeatmapMatrix) -> Option<Shape> {
    if m.order != RowOrdering::ByKey || m.rows.len() < DIAGONAL_MIN_ROWS {
        return None;
    }
    let sums = column_sums(m);
    // The hottest row of each busy column (the first, on a tie), and whether it dominates.
    let (path, dominant): (Vec<usize>, Vec<bool>) = (0..m.cols())
        .filter_map(|c| {
            let (row, v) = m
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| (i, r.cells[c]))
                .fold((0, 0.0), |best, x| if x.1 > best.1 { x } else { best });
            (v > 0.0).then_some((row, v >= DIAGONAL_SHARE * sums[c]))
        })
        .unzip();
    if path.len() < MIN_COLUMNS
        || (dominant.iter().filter(|&&d| d).count() as f32) < DIAGONAL_COLUMNS * path.len() as f32
    {
        return None;
    }
    let down = path.windows(2).filter(|w| w[1] > w[0]).count();
    let up = path.windows(2).filter(|w| w[1] < w[0]).count();
    let mut visited = path.clone();
    visited.sort_unstable();
    visited.dedup();
    let (from_row, to_row) = (path[0], path[path.len() - 1]);
    let one_way = down.max(up) as f32 >= DIAGONAL_ONE_WAY * (down + up) as f32;
    (visited.len() >= DIAGONAL_MIN_ROWS && one_way && from_row.abs_diff(to_row) + 1 >= DIAGONAL_MIN_ROWS)
        .then_some(Shape::Diagonal { from_row, to_row, columns: path.len() })
}

fn hot_bands(m: &HeatmapMatrix) -> Vec<Shape> {
    // With two rows one of them always carries half: a band needs rows to stand out from.
    if m.rows.len() < 3 {
        return Vec::new();
    }
    let sums = column_sums(m);
    let busy: Vec<usize> = (0..m.cols()).filter(|&c| sums[c] > 0.0).collect();
    if busy.len() < MIN_COLUMNS || (busy.len() as f32) < BAND_SPAN * m.cols() as f32 {
        return Vec::new();
    }
    m.rows
        .iter()
        .enumerate()
        .filter_map(|(row, r)| {
            // A merged row's load is spread over its members: no one key to name.
            if r.is_merged() {
                return None;
            }
            let shares: Vec<f32> = busy.iter().map(|&c| r.cells[c] / sums[c]).collect();
            let columns = shares.iter().filter(|&&s| s >= BAND_SHARE).count();
            let share = shares.iter().sum::<f32>() / shares.len() as f32;
            (columns as f32 >= BAND_COLUMNS * busy.len() as f32).then_some(Shape::HotBand {
                row,
                share,
                columns,
            })
        })
        .collect()
}

fn widening_bands(m: &HeatmapMatrix, limit: f32) -> Vec<Shape> {
    if m.metric.kind() != Kind::Gauge {
        return Vec::new();
    }
    m.rows
        .iter()
        .enumerate()
        .filter_map(|(row, r)| {
            // A merged row's max may hop between members; only one partition can grow unbounded.
            if r.is_merged() {
                return None;
            }
            let start = r.cells.iter().position(|&v| v > 0.0)?;
            if start as f32 > WIDENING_FROM * r.cells.len() as f32 {
                return None;
            }
            let levels = &r.cells[start..];
            if levels.len() < MIN_COLUMNS {
                return None;
            }
            let rising = levels.windows(2).filter(|w| w[1] >= w[0]).count();
            let (first, last) = (levels[0], levels[levels.len() - 1]);
            let quarter = (levels.len() / 4).max(1);
            let recent = last - levels[levels.len() - 1 - quarter];
            let growth = last / first;
            let widening = rising as f32 >= WIDENING_RISING * (levels.len() - 1) as f32
                && growth >= WIDENING_GROWTH
                && last >= WIDENING_NEAR * limit
                && recent >= WIDENING_STILL * (last - first);
            widening.then_some(Shape::WideningBand { row, growth })
        })
        .collect()
}

#[cfg(test)]
// Exact comparisons are the point: the figures under test are exact in f32 and f64.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use crate::engine::metrics::{GroupId, HeatRow, Metric, PartitionId};
    use crate::engine::time::SimTime;

    fn matrix(metric: Metric, order: RowOrdering, cells: &[&[f32]]) -> HeatmapMatrix {
        let rows: Vec<HeatRow> = (0u32..)
            .zip(cells)
            .map(|(i, c)| HeatRow {
                label: format!("row {i}"),
                group: GroupId(0),
                members: vec![PartitionId(i)],
                cells: c.to_vec(),
            })
            .collect();
        let cols = cells.first().map_or(0, |c| c.len());
        let col_times =
            (0..cols as u64).map(|c| (SimTime::from_secs(c), SimTime::from_secs(c + 1))).collect();
        let max = cells.iter().flat_map(|c| c.iter().copied()).fold(0.0, f32::max);
        HeatmapMatrix { metric, order, rows, col_times, max, totals: Vec::new() }
    }

    /// One sensor's day buckets walk down the rows while forty-nine others, merged into rows the
    /// matrix shows only by their hottest member, write as much each: the walking row looks
    /// dominant against the rows' sum, and is not against the column's real total. Nor is a
    /// steady row a hot band then.
    #[test]
    fn shares_are_of_the_real_load_not_of_merged_rows_maxima() {
        let n = 8;
        let walk = staircase(n);
        let mut m = matrix(
            Metric::WriteUnits,
            RowOrdering::ByKey,
            &walk.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        );
        assert!(
            matches!(detect_shapes(&m, None).as_slice(), [Shape::Diagonal { .. }]),
            "{:?}",
            detect_shapes(&m, None)
        );
        // The same picture, with the column totals of 50 writers of 900 each.
        m.totals = vec![50.0 * 900.0; n];
        assert_eq!(detect_shapes(&m, None), [], "one writer of fifty walks; the load does not");
        // Totals that agree with the rows change nothing.
        m.totals = (0..n).map(|c| m.rows.iter().map(|r| r.cells[c]).sum()).collect();
        assert!(matches!(detect_shapes(&m, None).as_slice(), [Shape::Diagonal { .. }]));
        let band: Vec<Vec<f32>> = (0..4).map(|r| vec![if r == 1 { 900.0 } else { 10.0 }; 6]).collect();
        let mut m = matrix(
            Metric::WriteUnits,
            RowOrdering::ByKey,
            &band.iter().map(Vec::as_slice).collect::<Vec<_>>(),
        );
        assert!(matches!(detect_shapes(&m, None).as_slice(), [Shape::HotBand { row: 1, .. }]));
        m.totals = vec![10_000.0; 6];
        assert_eq!(detect_shapes(&m, None), [], "a tenth of the load is no hot band");
    }

    #[test]
    fn a_band_runs_across_the_picture_not_through_a_few_late_columns() {
        // One row takes every throttle, but only in the last 4 of 12 columns.
        let late = |v: f32| -> Vec<f32> { (0..12).map(|c| if c >= 8 { v } else { 0.0 }).collect() };
        let spots = vec![late(40.0), late(1.0), late(1.0)];
        assert_eq!(detect(Metric::Throttled, RowOrdering::ByKey, &spots), []);
        // The same share in 8 of 12 columns is a band.
        let wide = |v: f32| -> Vec<f32> { (0..12).map(|c| if c >= 4 { v } else { 0.0 }).collect() };
        let band = vec![wide(40.0), wide(1.0), wide(1.0)];
        assert!(matches!(
            detect(Metric::Throttled, RowOrdering::ByKey, &band)[..],
            [Shape::HotBand { row: 0, .. }]
        ));
    }

    /// `n` rows × `n` columns with the load on the diagonal over a faint floor.
    fn staircase(n: usize) -> Vec<Vec<f32>> {
        (0..n).map(|r| (0..n).map(|c| if c == r { 900.0 } else { 5.0 }).collect()).collect()
    }

    fn detect(metric: Metric, order: RowOrdering, cells: &[Vec<f32>]) -> Vec<Shape> {
        let refs: Vec<&[f32]> = cells.iter().map(Vec::as_slice).collect();
        let m = matrix(metric, order, &refs);
        // Against a limit the largest level reaches: the limit rule has a test of its own.
        let limit = m.max;
        detect_shapes(&m, Some(limit))
    }

    #[test]
    fn finds_a_diagonal() {
        let shapes = detect(Metric::WriteUnits, RowOrdering::ByKey, &staircase(6));
        assert_eq!(shapes, [Shape::Diagonal { from_row: 0, to_row: 5, columns: 6 }]);
        assert!(shapes[0].hint().starts_with("diagonal"));
        // Slower keys: each row stays hot for two columns.
        let slow: Vec<Vec<f32>> =
            (0..5).map(|r| (0..10).map(|c| if c / 2 == r { 400.0 } else { 0.0 }).collect()).collect();
        assert_eq!(
            detect(Metric::WriteUnits, RowOrdering::ByKey, &slow),
            [Shape::Diagonal { from_row: 0, to_row: 4, columns: 10 }]
        );
    }

    #[test]
    fn no_diagonal_in_scattered_or_heat_ordered_load() {
        // The hot row jumps back and forth: a hashed or random key.
        let hot = [0, 4, 1, 3, 0, 5, 2, 4];
        let scattered: Vec<Vec<f32>> =
            (0..6).map(|r| hot.iter().map(|&h| if h == r { 900.0 } else { 5.0 }).collect()).collect();
        assert_eq!(detect(Metric::WriteUnits, RowOrdering::ByKey, &scattered), []);
        // Rows ordered by heat have no key order to walk across.
        assert_eq!(detect(Metric::WriteUnits, RowOrdering::ByHeat, &staircase(6)), []);
    }

    #[test]
    fn finds_a_hot_band() {
        let mut cells = vec![vec![10.0; 8]; 5];
        cells[2] = vec![950.0, 950.0, 20.0, 950.0, 950.0, 950.0, 950.0, 950.0];
        let shapes = detect(Metric::WriteUnits, RowOrdering::ByKey, &cells);
        assert_eq!(shapes.len(), 1, "{shapes:?}");
        let Shape::HotBand { row, share, columns } = shapes[0] else { panic!("{shapes:?}") };
        assert_eq!((row, columns), (2, 7));
        assert!(share > 0.8, "{share}");
    }

    #[test]
    fn no_hot_band_in_even_load_or_a_diagonal() {
        assert_eq!(detect(Metric::ReadUnits, RowOrdering::ByKey, &vec![vec![300.0; 8]; 5]), []);
        let shapes = detect(Metric::ReadUnits, RowOrdering::ByKey, &staircase(8));
        assert!(shapes.iter().all(|s| !matches!(s, Shape::HotBand { .. })), "{shapes:?}");
        // A bright merged row is many partitions: there is no one hot key to name.
        let cells: Vec<&[f32]> = vec![&[900.0; 6], &[10.0; 6], &[10.0; 6]];
        let mut m = matrix(Metric::ReadUnits, RowOrdering::ByKey, &cells);
        assert!(matches!(detect_shapes(&m, None)[..], [Shape::HotBand { row: 0, .. }]));
        m.rows[0].members.push(PartitionId(9));
        assert_eq!(detect_shapes(&m, None), []);
    }

    #[test]
    fn finds_a_widening_band() {
        // Row 1 grows linearly all the way; row 0 is flat.
        let cells = vec![vec![5e6; 12], (1..=12).map(|c| c as f32 * 1e8).collect()];
        assert_eq!(
            detect(Metric::Bytes, RowOrdering::ByKey, &cells),
            [Shape::WideningBand { row: 1, growth: 12.0 }]
        );
    }

    /// The same growth far below the limit — a customer's orders in a single-table design — or
    /// with no limit to grow toward names nothing.
    #[test]
    fn a_widening_band_must_near_its_limit() {
        let cells: Vec<&[f32]> = vec![&[5e6; 12]];
        let growing: Vec<f32> = (1..=12).map(|c| c as f32 * 1e8).collect();
        let mut rows = cells.clone();
        rows.push(&growing);
        let m = matrix(Metric::Bytes, RowOrdering::ByKey, &rows);
        let gib10 = 10.0 * 1024.0 * 1024.0 * 1024.0;
        assert!(matches!(detect_shapes(&m, Some(gib10))[..], [Shape::WideningBand { row: 1, .. }]));
        // 1.2 GB of a 100 GB limit is 1.2%: under the 5% a band must reach.
        assert_eq!(detect_shapes(&m, Some(10.0 * gib10)), []);
        assert_eq!(detect_shapes(&m, None), []);
    }

    #[test]
    fn no_widening_band_when_growth_stops_or_the_metric_is_a_rate() {
        // A daily bucket fills for a while, then its day ends and it stays put.
        let bucketed: Vec<f32> = (1..=12).map(|c| c.min(6) as f32 * 1e8).collect();
        assert_eq!(detect(Metric::Bytes, RowOrdering::ByKey, &[bucketed]), []);
        // Rising write rates are load, not size.
        let rising: Vec<f32> = (1..=12).map(|c| c as f32 * 10.0).collect();
        assert_eq!(detect(Metric::WriteUnits, RowOrdering::ByKey, &[rising]), []);
    }

    /// The designs the bundled scenarios teach, as synthetic matrices: the fixes name no shape,
    /// the problems name theirs.
    type Case = (&'static str, Metric, Vec<Vec<f32>>, &'static [&'static str]);

    #[test]
    fn each_rule_fires_on_its_problem_and_not_on_its_fix() {
        let logical_buckets = |sensors: usize, days: usize| -> Vec<Vec<f32>> {
            // By key: sensor s's bucket d is row s * days + d; it fills on day d (4 columns a
            // day), then stays as it is.
            (0..sensors * days)
                .map(|row| {
                    let day = row % days;
                    (0..days * 4)
                        .map(|c| {
                            let filled = (c + 1).saturating_sub(day * 4).min(4);
                            filled as f32 * 1e6
                        })
                        .collect()
                })
                .collect()
        };
        let bucket_writes = |sensors: usize, days: usize| -> Vec<Vec<f32>> {
            (0..sensors * days)
                .map(|row| (0..days * 4).map(|c| if c / 4 == row % days { 10.0 } else { 0.0 }).collect())
                .collect()
        };
        let sharded_counter: Vec<Vec<f32>> = vec![vec![150.0; 12]; 10];
        let mut single_hot_key: Vec<Vec<f32>> = vec![vec![3.0; 12]; 10];
        single_hot_key[4] = vec![1500.0; 12];
        let unbounded: Vec<Vec<f32>> =
            (0..5).map(|s| (1..=12).map(|c| (c * (s + 1)) as f32 * 1e7).collect()).collect();
        let timestamp_key = staircase(8);
        // (what, metric, cells, the shapes' kinds expected)
        let cases: [Case; 7] = [
            ("day buckets' sizes (sensors recommended)", Metric::Bytes, logical_buckets(5, 6), &[]),
            ("day buckets' writes, every sensor at once", Metric::WriteUnits, bucket_writes(5, 6), &[]),
            ("a sharded counter (counters recommended)", Metric::WriteUnits, sharded_counter, &[]),
            ("one hot key (counters naive)", Metric::WriteUnits, single_hot_key, &["hot band"]),
            ("a partition per sensor (sensors naive)", Metric::Bytes, unbounded, &["widening band"; 5]),
            ("a timestamp key", Metric::WriteUnits, timestamp_key, &["diagonal"]),
            ("nothing", Metric::WriteUnits, vec![vec![0.0; 12]; 4], &[]),
        ];
        for (what, metric, cells, want) in cases {
            let got: Vec<&str> = detect(metric, RowOrdering::ByKey, &cells)
                .iter()
                .map(|s| s.hint().split(':').next().unwrap_or_default())
                .collect();
            assert_eq!(got, want, "{what}");
        }
    }

    #[test]
    fn a_young_partition_that_grows_is_not_unbounded_growth() {
        // The open bucket: created late in the picture, growing since.
        let open: Vec<f32> = (0..12).map(|c| if c < 8 { 0.0 } else { (c - 7) as f32 * 1e6 }).collect();
        assert_eq!(detect(Metric::Bytes, RowOrdering::ByKey, &[vec![1e6; 12], open]), []);
    }
}
