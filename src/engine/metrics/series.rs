//! One metric of one row over a whole run, in a fixed memory bound: the last [`RECENT_TICKS`]
//! ticks exactly, and the series' whole active span in at most [`HISTORY_BUCKETS`] buckets of
//! one width, 2^level ticks, which doubles (neighbours merge) when the span outgrows them.
//!
//! Every push goes both into the ring and into the history, so totals, peaks and long views
//! never need the ring, and a tick leaving the ring needs no work. Buckets are aligned to
//! multiples of their width (bucket `k` covers ticks `[k·w, (k+1)·w)`), which makes merging a
//! shift and makes a bucket's tick count its width. The ring and the buckets are allocated at the
//! first push and grow to their bound, never past it; after that a push allocates nothing.
//!
//! A push must stay cheap for a partition that was idle for hours, whose memory is cold: it
//! touches the series itself and one ring slot. The newest bucket lives in the series (`open`)
//! and reaches the heap only when a later bucket opens, and a counter's skipped ring slots are
//! voided by a bit mask instead of being zeroed one by one.
//!
//! Values are stored as `f32` (7 significant digits, enough to draw and rank), while the total,
//! the latest value and the peak are kept in `f64` beside them, so reports print exact figures.

use std::ops::Range;

use super::{Kind, MetricsError, Tick, narrow};

/// Ticks kept exactly, ending at the series' last push.
pub const RECENT_TICKS: usize = 64;
/// History buckets per series; after the first doubling, between half and all of them are used.
pub const HISTORY_BUCKETS: usize = HISTORY_SPAN as usize;
const HISTORY_SPAN: u32 = 64;

const RECENT_MASK: u64 = RECENT_TICKS as u64 - 1;
const _: () = assert!(RECENT_TICKS.is_power_of_two(), "the ring is indexed by a mask");

/// A history bucket: `acc` is the sum of its ticks for a counter and the last level for a gauge;
/// `max` is the largest single tick, so a peak survives any number of merges.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Bucket {
    acc: f32,
    max: f32,
}

/// One column of a resampled series.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Column {
    /// A counter's amount over the column; a gauge's level at the column's last tick.
    pub value: f64,
    /// The largest single-tick value in the column (a counter's amount, a gauge's level). Where a
    /// stored bucket is wider than the column, the bucket's max stands for each column it touches.
    pub max: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Peak {
    /// The first tick that reached the peak.
    pub tick: Tick,
    pub value: f64,
}

#[derive(Debug, Clone)]
pub struct Series {
    /// Counter: every pushed amount added up. Gauge: the current level.
    total: f64,
    /// The value of tick `last`.
    tail: f64,
    peak: f64,
    first: u32,
    last: u32,
    peak_tick: u32,
    /// Bucket number (in units of the width) of `history[0]`.
    base: u32,
    /// The true value of the newest bucket; its copy in `history` is stale until written back.
    open: Bucket,
    /// A counter's ring slots that hold a tick of the window; the others read as zero. (A gauge
    /// writes its held level into skipped slots instead, and ignores the mask.)
    valid: u64,
    /// History width is 2^level ticks.
    level: u8,
    kind: Kind,
    /// `None` until the first push; slot `t & RECENT_MASK` holds tick `t` for `t` in
    /// `(last − RECENT_TICKS, last]`.
    recent: Option<Box<[f32; RECENT_TICKS]>>,
    history: Vec<Bucket>,
}

impl Series {
    /// The most memory one series can hold: itself, its ring and a full history.
    pub const MAX_BYTES: usize =
        size_of::<Series>() + RECENT_TICKS * size_of::<f32>() + HISTORY_BUCKETS * size_of::<Bucket>();

    pub fn new(kind: Kind) -> Series {
        Series {
            total: 0.0,
            tail: 0.0,
            peak: 0.0,
            first: 0,
            last: 0,
            peak_tick: 0,
            base: 0,
            open: Bucket::default(),
            valid: 0,
            level: 0,
            kind,
            recent: None,
            history: Vec::new(),
        }
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Records `value` at `tick`: a counter adds it to the tick, a gauge sets the level. Ticks come
    /// in order; the same tick may be pushed again. A counter's zero is not stored (an idle tick
    /// already reads as zero).
    pub fn push(&mut self, tick: Tick, value: f64) -> Result<(), MetricsError> {
        if !value.is_finite() || value < 0.0 {
            return Err(MetricsError::BadValue(value));
        }
        if self.kind == Kind::Counter && value == 0.0 {
            return Ok(());
        }
        let t = tick.0;
        // A gauge holds its level through the ticks nobody pushed; a counter's idle ticks are 0.
        let held = match self.kind {
            Kind::Counter => 0.0,
            Kind::Gauge => self.tail,
        };
        let ring = match &mut self.recent {
            None => {
                self.first = t;
                self.last = t;
                self.peak_tick = t;
                self.base = t;
                self.tail = 0.0;
                self.recent.insert(Box::new([0.0; RECENT_TICKS]))
            }
            Some(_) if t < self.last => {
                return Err(MetricsError::OutOfOrder { tick, last: Tick(self.last) });
            }
            Some(ring) => {
                if t > self.last {
                    let skipped = u64::from(t - self.last - 1).min(RECENT_TICKS as u64);
                    match self.kind {
                        Kind::Counter => {
                            // Void the slots of the skipped ticks: a run of `skipped` bits from the
                            // slot after `last`, wrapping around the ring.
                            let run =
                                if skipped == RECENT_TICKS as u64 { u64::MAX } else { (1 << skipped) - 1 };
                            let from = (u64::from(self.last) + 1) & RECENT_MASK;
                            self.valid &= !run.rotate_left(from as u32);
                        }
                        Kind::Gauge => {
                            for g in u64::from(t) - skipped..u64::from(t) {
                                ring[(g & RECENT_MASK) as usize] = narrow(held);
                            }
                        }
                    }
                    self.last = t;
                    self.tail = held;
                }
                ring
            }
        };
        match self.kind {
            Kind::Counter => {
                self.tail += value;
                self.total += value;
            }
            Kind::Gauge => {
                self.tail = value;
                self.total = value;
            }
        }
        let slot = u64::from(t) & RECENT_MASK;
        ring[slot as usize] = narrow(self.tail);
        self.valid |= 1 << slot;
        if self.tail > self.peak {
            self.peak = self.tail;
            self.peak_tick = t;
        }
        self.fold_history(t, held, value);
        Ok(())
    }

    /// Adds tick `t` (whose value is now `self.tail`) to its bucket, opening buckets up to it.
    fn fold_history(&mut self, t: u32, held: f64, value: f64) {
        let mut k = t >> self.level;
        if self.history.is_empty() {
            self.base = k;
        } else if k >= self.history_end() {
            // The open bucket is done: write it back before the history changes shape.
            let open = self.open;
            *self.history.last_mut().expect("a non-empty history has a newest bucket") = open;
            while k - self.base >= HISTORY_SPAN {
                self.double_width();
                k = t >> self.level;
            }
            self.open = *self.history.last().expect("merging keeps at least one bucket");
        }
        while self.history_end() <= k {
            let opened = self.history_end();
            // Ticks of a new bucket before `t` held the old level (only a gauge's is non-zero).
            let bucket = if opened << self.level < t {
                Bucket { acc: narrow(held), max: narrow(held) }
            } else {
                Bucket::default()
            };
            if self.history.len() == self.history.capacity() {
                let more = self.history.capacity().max(4).min(HISTORY_BUCKETS - self.history.len());
                self.history.reserve_exact(more);
            }
            self.history.push(bucket);
            self.open = bucket;
        }
        let tail = narrow(self.tail);
        match self.kind {
            Kind::Counter => self.open.acc += narrow(value),
            Kind::Gauge => self.open.acc = tail,
        }
        self.open.max = self.open.max.max(tail);
    }

    /// Merges neighbouring buckets pairwise (bucket `k` of width w lands in bucket `k/2` of width
    /// 2w), in place: the bucket written never lies after the bucket read.
    fn double_width(&mut self) {
        let kind = self.kind;
        let new_base = self.base >> 1;
        let mut written: Option<usize> = None;
        for (read, old) in (self.base..).zip(0..self.history.len()) {
            let bucket = self.history[old];
            let into =
                usize::try_from((read >> 1) - new_base).expect("merged offsets stay below HISTORY_BUCKETS");
            if written == Some(into) {
                let older = &mut self.history[into];
                older.acc = match kind {
                    Kind::Counter => older.acc + bucket.acc,
                    Kind::Gauge => bucket.acc,
                };
                older.max = older.max.max(bucket.max);
            } else {
                self.history[into] = bucket;
                written = Some(into);
            }
        }
        self.history.truncate(written.map_or(0, |w| w + 1));
        self.base = new_base;
        self.level += 1;
    }

    /// One past the last history bucket's number.
    fn history_end(&self) -> u32 {
        self.base
            + u32::try_from(self.history.len()).expect("a history holds at most HISTORY_BUCKETS buckets")
    }

    /// The history bucket numbered `k`, which the caller knows to be held.
    fn bucket(&self, k: u64) -> Bucket {
        let i = usize::try_from(k - u64::from(self.base)).expect("bucket numbers stay within the history");
        if i + 1 == self.history.len() { self.open } else { self.history[i] }
    }

    /// Tick `t`'s value from the ring, for `t` in the window `(last − RECENT_TICKS, last]`.
    fn ring_value(&self, ring: &[f32; RECENT_TICKS], t: u64) -> f64 {
        let slot = t & RECENT_MASK;
        if self.kind == Kind::Counter && self.valid & (1 << slot) == 0 {
            0.0
        } else {
            f64::from(ring[slot as usize])
        }
    }

    /// Counter: every amount ever pushed, added up exactly. Gauge: the current level.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// The largest single-tick value and the first tick that reached it; `None` before any push.
    pub fn peak(&self) -> Option<Peak> {
        self.recent.as_ref().map(|_| Peak { tick: Tick(self.peak_tick), value: self.peak })
    }

    /// The last tick pushed and its value.
    pub fn latest(&self) -> Option<(Tick, f64)> {
        self.recent.as_ref().map(|_| (Tick(self.last), self.tail))
    }

    /// Ticks per history bucket (1 until the series' span passes [`HISTORY_BUCKETS`] ticks).
    pub fn bucket_width(&self) -> u64 {
        1 << self.level
    }

    /// The value of one tick where it is known exactly: before the first push (zero), in the
    /// recent ring, or after the last push (zero, or a gauge's held level). `None` for older ticks,
    /// which only the history buckets cover.
    pub fn value_at(&self, tick: Tick) -> Option<f64> {
        let Some(ring) = &self.recent else { return Some(0.0) };
        let t = u64::from(tick.0);
        if t < u64::from(self.first) {
            Some(0.0)
        } else if t > u64::from(self.last) {
            Some(self.after_last())
        } else if t >= self.exact_from() {
            Some(self.ring_value(ring, t))
        } else {
            None
        }
    }

    /// Heap bytes held now; never more than `MAX_BYTES − size_of::<Series>()`.
    pub fn heap_bytes(&self) -> usize {
        self.recent.as_ref().map_or(0, |_| RECENT_TICKS * size_of::<f32>())
            + self.history.capacity() * size_of::<Bucket>()
    }

    /// The series over `range`, in `min(cols, ticks in range)` columns split as [`columns`] does.
    pub fn resample(&self, range: Range<Tick>, cols: usize) -> Vec<Column> {
        let mut out = Vec::new();
        self.resample_into(range, cols, &mut out);
        out
    }

    /// [`Series::resample`] into a buffer the caller reuses. Costs O(columns + buckets in range).
    pub fn resample_into(&self, range: Range<Tick>, cols: usize, out: &mut Vec<Column>) {
        out.clear();
        let Some(ring) = &self.recent else {
            out.extend(columns(range, cols).map(|_| Column::default()));
            return;
        };
        let view = View::new(self, ring);
        out.extend(columns(range, cols).map(|col| view.column(u64::from(col.start.0)..u64::from(col.end.0))));
    }

    fn after_last(&self) -> f64 {
        match self.kind {
            Kind::Counter => 0.0,
            Kind::Gauge => self.tail,
        }
    }

    /// First tick the ring holds exactly (ticks before `first` are exact too: zero).
    fn exact_from(&self) -> u64 {
        u64::from(self.first).max((u64::from(self.last) + 1).saturating_sub(RECENT_TICKS as u64))
    }
}

/// Splits `range` into `min(cols, len)` columns of whole ticks, as even as integers allow (widths
/// differ by at most one). Columns cover the range exactly, in order.
pub fn columns(range: Range<Tick>, cols: usize) -> impl Iterator<Item = Range<Tick>> {
    let start = u64::from(range.start.0);
    let len = u64::from(range.end.0).saturating_sub(start);
    let n = (cols as u64).min(len);
    // Every bound lies between range.start and range.end, so it fits a tick number.
    let tick = |t: u64| Tick(u32::try_from(t).unwrap_or(u32::MAX));
    (0..n).map(move |i| tick(start + i * len / n)..tick(start + (i + 1) * len / n))
}

/// A non-empty series prepared for reading columns.
struct View<'a> {
    series: &'a Series,
    ring: &'a [f32; RECENT_TICKS],
    first: u64,
    last: u64,
    exact_from: u64,
    /// The bucket that reaches into the ring's ticks, and the ring's sum over that overlap: the
    /// history part of the bucket is its sum less that, so column sums add up to the total.
    straddle: Option<(u64, f64)>,
}

impl<'a> View<'a> {
    fn new(series: &'a Series, ring: &'a [f32; RECENT_TICKS]) -> View<'a> {
        let first = u64::from(series.first);
        let last = u64::from(series.last);
        let exact_from = series.exact_from();
        let straddle = (exact_from > first).then(|| {
            let k = (exact_from - 1) >> series.level;
            let end = ((k + 1) << series.level).min(last + 1);
            let sum = (exact_from..end).map(|t| series.ring_value(ring, t)).sum();
            (k, sum)
        });
        View { series, ring, first, last, exact_from, straddle }
    }

    fn column(&self, col: Range<u64>) -> Column {
        let s = self.series;
        let mut sum = 0.0;
        let mut max: f64 = 0.0;
        // Older ticks: from the history buckets, a counter's sum spread evenly over each bucket.
        let (h0, h1) = (col.start.max(self.first), col.end.min(self.exact_from));
        if h0 < h1 {
            for k in h0 >> s.level..=(h1 - 1) >> s.level {
                let bucket = s.bucket(k);
                max = max.max(f64::from(bucket.max));
                if s.kind == Kind::Counter {
                    let mut acc = f64::from(bucket.acc);
                    if let Some((_, ring_sum)) = self.straddle.filter(|(sk, _)| *sk == k) {
                        acc = (acc - ring_sum).max(0.0);
                    }
                    let (b0, b1) =
                        ((k << s.level).max(self.first), ((k + 1) << s.level).min(self.exact_from));
                    let overlap = h1.min(b1) - h0.max(b0);
                    sum += acc * overlap as f64 / (b1 - b0) as f64;
                }
            }
        }
        // Recent ticks: exact.
        for t in col.start.max(self.exact_from)..col.end.min(self.last + 1) {
            let v = s.ring_value(self.ring, t);
            sum += v;
            max = max.max(v);
        }
        if col.end > self.last + 1 {
            max = max.max(s.after_last());
        }
        let value = match s.kind {
            Kind::Counter => sum,
            Kind::Gauge => self.level_at(col.end - 1),
        };
        Column { value, max }
    }

    /// A gauge's level at tick `t`; in the history, the last level of the bucket holding `t`.
    fn level_at(&self, t: u64) -> f64 {
        let s = self.series;
        if t < self.first {
            0.0
        } else if t > self.last {
            s.tail
        } else if t >= self.exact_from {
            s.ring_value(self.ring, t)
        } else {
            f64::from(s.bucket(t >> s.level).acc)
        }
    }
}

#[cfg(test)]
// Exact comparisons are the point: the figures under test are exact in f32 and f64.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const YEAR_OF_MINUTES: u32 = 365 * 24 * 60;

    fn counter(points: &[(u32, f64)]) -> Series {
        let mut s = Series::new(Kind::Counter);
        for &(t, v) in points {
            s.push(Tick(t), v).unwrap();
        }
        s
    }

    fn every_tick(n: u32, value: impl Fn(u32) -> f64) -> Series {
        let mut s = Series::new(Kind::Counter);
        for t in 0..n {
            s.push(Tick(t), value(t)).unwrap();
        }
        s
    }

    #[test]
    fn columns_split_evenly() {
        // (start, end, columns wanted, the columns made)
        let cases: [(u32, u32, usize, &[Range<u32>]); 6] = [
            (0, 10, 5, &[0..2, 2..4, 4..6, 6..8, 8..10]),
            (0, 10, 3, &[0..3, 3..6, 6..10]),
            (5, 8, 10, &[5..6, 6..7, 7..8]),
            (0, 0, 4, &[]),
            (9, 3, 4, &[]),
            (0, 100, 0, &[]),
        ];
        for (start, end, cols, expected) in cases {
            let got: Vec<_> = columns(Tick(start)..Tick(end), cols).map(|c| c.start.0..c.end.0).collect();
            assert_eq!(got, expected, "{start}..{end} in {cols}");
        }
    }

    #[test]
    fn recent_window_is_exact() {
        // Ticks 0..200 with value t + 1: the last 64 (136..=199) are exact, older ones only bucketed.
        let s = every_tick(200, |t| f64::from(t + 1));
        let cases = [
            (199, Some(200.0)),
            (136, Some(137.0)),
            (135, None),
            (0, None),
            (200, Some(0.0)),
            (9999, Some(0.0)),
        ];
        for (t, expected) in cases {
            assert_eq!(s.value_at(Tick(t)), expected, "tick {t}");
        }
        // A series that starts late reads zero before its first push, exactly.
        let late = counter(&[(500, 2.0), (510, 3.0)]);
        let cases = [
            (0, Some(0.0)),
            (499, Some(0.0)),
            (500, Some(2.0)),
            (505, Some(0.0)),
            (510, Some(3.0)),
            (511, Some(0.0)),
        ];
        for (t, expected) in cases {
            assert_eq!(late.value_at(Tick(t)), expected, "tick {t}");
        }
        let columns = late.resample(Tick(498)..Tick(512), 14);
        let values: Vec<f64> = columns.iter().map(|c| c.value).collect();
        assert_eq!(values, [0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0]);
    }

    #[test]
    fn bucket_width_doubles_with_the_span() {
        // (first tick, ticks pushed, expected width, expected buckets used)
        let cases = [
            (0, 1, 1, 1),
            (0, 64, 1, 64),
            (0, 65, 2, 33),
            (0, 128, 2, 64),
            (0, 129, 4, 33),
            (0, 4096, 64, 64),
            (1000, 64, 1, 64),
            // Aligned buckets: ticks 1000..1064 fall in 2-tick buckets 500..532.
            (1000, 65, 2, 33),
            (0, YEAR_OF_MINUTES, 16_384, 33),
        ];
        for (first, n, width, used) in cases {
            let mut s = Series::new(Kind::Counter);
            for t in first..first + n {
                s.push(Tick(t), 1.0).unwrap();
            }
            assert_eq!((s.bucket_width(), s.history.len()), (width, used), "{n} ticks from {first}");
            assert!(s.history.capacity() <= HISTORY_BUCKETS);
        }
    }

    #[test]
    fn peaks_survive_downsampling() {
        let spike = 12_345;
        let s = every_tick(YEAR_OF_MINUTES, |t| if t == spike { 1000.0 } else { 1.0 });
        assert_eq!(s.peak(), Some(Peak { tick: Tick(spike), value: 1000.0 }));
        let range = Tick(0)..Tick(YEAR_OF_MINUTES);
        let cols = s.resample(range.clone(), 100);
        // The spike's bucket (16,384 ticks) is wider than a column (5,256): every column it
        // touches shows its peak, none shows less.
        let width = s.bucket_width();
        let bucket = u64::from(spike) / width * width..(u64::from(spike) / width + 1) * width;
        for (i, (c, span)) in cols.iter().zip(columns(range, 100)).enumerate() {
            let touches = u64::from(span.start.0) < bucket.end && bucket.start < u64::from(span.end.0);
            assert_eq!(c.max, if touches { 1000.0 } else { 1.0 }, "column {i}");
            // Means are not peaks: a column sums its ticks, it does not multiply the peak.
            assert!(c.value < 7000.0, "{c:?}");
        }
        // Where the spike is still in the recent ring, it stays in its own column.
        let recent = every_tick(1000, |t| if t == 990 { 1000.0 } else { 1.0 });
        let cols = recent.resample(Tick(980)..Tick(1000), 20);
        let maxes: Vec<f64> = cols.iter().map(|c| c.max).collect();
        assert_eq!(maxes.iter().filter(|&&m| m == 1000.0).count(), 1);
        assert_eq!(maxes[10], 1000.0);
    }

    #[test]
    fn totals_are_exact_across_compaction() {
        // Integer amounts keep every f32 bucket sum exact, so the columns must add up exactly.
        for n in [1, 63, 64, 65, 1000, 100_000] {
            let s = every_tick(n, |t| f64::from((t * 7919) % 13));
            let expected: f64 = (0..n).map(|t| f64::from((t * 7919) % 13)).sum();
            assert_eq!(s.total(), expected, "{n} ticks");
            for cols in [1, 7, 64, 100, 1000] {
                let sum: f64 = s.resample(Tick(0)..Tick(n + 10), cols).iter().map(|c| c.value).sum();
                assert!(
                    (sum - expected).abs() <= expected * 1e-12,
                    "{n} ticks, {cols} columns: {sum} vs {expected}"
                );
            }
        }
    }

    #[test]
    fn gauges_hold_their_level() {
        let mut s = Series::new(Kind::Gauge);
        for (t, v) in [(10, 100.0), (20, 250.0), (20, 300.0), (40, 120.0), (41, 0.0)] {
            s.push(Tick(t), v).unwrap();
        }
        let cases = [
            (0, 0.0),
            (10, 100.0),
            (19, 100.0),
            (20, 300.0),
            (39, 300.0),
            (40, 120.0),
            (41, 0.0),
            (500, 0.0),
        ];
        for (t, expected) in cases {
            assert_eq!(s.value_at(Tick(t)), Some(expected), "tick {t}");
        }
        assert_eq!(s.total(), 0.0, "a gauge's total is its current level");
        assert_eq!(s.peak(), Some(Peak { tick: Tick(20), value: 300.0 }));
        let cols = s.resample(Tick(0)..Tick(50), 5);
        let expected = [(0.0, 0.0), (100.0, 100.0), (300.0, 300.0), (300.0, 300.0), (0.0, 120.0)];
        for (c, (value, max)) in cols.iter().zip(expected) {
            assert_eq!((c.value, c.max), (value, max));
        }
    }

    #[test]
    fn gauges_hold_across_compaction() {
        // Bytes growing by 1 KB every 100th tick of a year, then a TTL sweep halves it.
        let mut s = Series::new(Kind::Gauge);
        let mut level = 0.0;
        for t in (0..YEAR_OF_MINUTES).step_by(100) {
            level += 1024.0;
            s.push(Tick(t), level).unwrap();
        }
        s.push(Tick(YEAR_OF_MINUTES), level / 2.0).unwrap();
        let cols = s.resample(Tick(0)..Tick(YEAR_OF_MINUTES + 1), 12);
        for pair in cols[..11].windows(2) {
            assert!(pair[1].value > pair[0].value, "{pair:?}");
        }
        assert_eq!(cols[11].value, level / 2.0);
        assert_eq!(cols[11].max, level);
        assert_eq!(s.peak().unwrap().value, level);
    }

    #[test]
    fn rejects_bad_pushes() {
        let mut s = counter(&[(10, 1.0)]);
        let cases = [
            (9, 1.0, MetricsError::OutOfOrder { tick: Tick(9), last: Tick(10) }),
            (11, -1.0, MetricsError::BadValue(-1.0)),
            (11, f64::INFINITY, MetricsError::BadValue(f64::INFINITY)),
        ];
        for (t, v, error) in cases {
            assert_eq!(s.push(Tick(t), v), Err(error));
        }
        assert!(matches!(s.push(Tick(11), f64::NAN), Err(MetricsError::BadValue(_))));
        assert_eq!(s.total(), 1.0, "a refused push changes nothing");
        // The same tick again adds to it.
        s.push(Tick(10), 2.5).unwrap();
        assert_eq!((s.value_at(Tick(10)), s.peak().unwrap().value), (Some(3.5), 3.5));
    }

    #[test]
    fn memory_bound_fits_a_year_of_a_hundred_thousand_partitions() {
        // 96 inline + 64 × 4 ring + 64 × 8 buckets on a 64-bit target.
        assert_eq!(size_of::<Series>(), 96);
        assert_eq!(Series::MAX_BYTES, 864);
        let series = 100_000 * 5;
        assert!(series * Series::MAX_BYTES < 512 << 20, "{} bytes", series * Series::MAX_BYTES);

        // A busy series over a year stays within its bound, and stops allocating.
        let mut s = Series::new(Kind::Counter);
        let mut buffer = None;
        for t in 0..YEAR_OF_MINUTES {
            s.push(Tick(t), 1.0 + f64::from(t % 5)).unwrap();
            if t == YEAR_OF_MINUTES / 2 {
                buffer = Some(s.history.as_ptr());
            }
        }
        assert!(s.heap_bytes() <= Series::MAX_BYTES - size_of::<Series>());
        assert_eq!(buffer, Some(s.history.as_ptr()), "no reallocation in the second half of the year");

        // A partition busy for one stretch of the year costs its ring and a few buckets; one
        // touched now and then across the year costs its bound (idle buckets between are zeros).
        let stretch = counter(&[(300_000, 1.0), (300_001, 4.0), (300_010, 1.0)]);
        assert_eq!(stretch.heap_bytes(), RECENT_TICKS * 4 + 16 * size_of::<Bucket>());
        let scattered = counter(&[(5, 1.0), (200_000, 1.0), (500_000, 1.0)]);
        assert!(scattered.heap_bytes() <= Series::MAX_BYTES - size_of::<Series>());
        assert_eq!(Series::new(Kind::Gauge).heap_bytes(), 0);
    }

    #[test]
    fn an_empty_series_reads_as_zero() {
        let s = Series::new(Kind::Counter);
        assert_eq!((s.total(), s.peak(), s.latest(), s.value_at(Tick(3))), (0.0, None, None, Some(0.0)));
        assert_eq!(s.resample(Tick(0)..Tick(4), 2), vec![Column::default(); 2]);
        let zero = counter(&[(3, 0.0)]);
        assert_eq!((zero.latest(), zero.heap_bytes()), (None, 0), "a counter's zero is not stored");
    }

    proptest! {
        /// Against a dense vector: columns add up to the total, column peaks never understate the
        /// ticks under them, the highest column peak is the true peak, and exact ticks are exact.
        #[test]
        fn resampling_agrees_with_a_dense_oracle(
            steps in proptest::collection::vec((0u32..300, 1u32..1000), 1..200),
            cols in 1usize..90,
        ) {
            let mut s = Series::new(Kind::Counter);
            let mut dense = Vec::new();
            let mut t = 0u32;
            for (gap, amount) in steps {
                t += gap;
                s.push(Tick(t), f64::from(amount)).unwrap();
                dense.resize(t as usize + 1, 0.0);
                dense[t as usize] += f64::from(amount);
            }
            let end = t + 5;
            dense.resize(end as usize, 0.0);
            let total: f64 = dense.iter().sum();
            prop_assert_eq!(s.total(), total);
            let got = s.resample(Tick(0)..Tick(end), cols);
            let sum: f64 = got.iter().map(|c| c.value).sum();
            prop_assert!((sum - total).abs() <= total * 1e-9, "{} vs {}", sum, total);
            let mut top: f64 = 0.0;
            for (c, span) in got.iter().zip(columns(Tick(0)..Tick(end), cols)) {
                let true_max = dense[span.start.0 as usize..span.end.0 as usize].iter().copied().fold(0.0, f64::max);
                prop_assert!(c.max >= true_max, "{:?} under {}", c, true_max);
                top = top.max(c.max);
            }
            prop_assert_eq!(top, s.peak().unwrap().value);
            for (tick, &v) in dense.iter().enumerate() {
                if let Some(exact) = s.value_at(Tick(u32::try_from(tick).unwrap())) {
                    prop_assert_eq!(exact, v, "tick {}", tick);
                }
            }
        }
    }
}
