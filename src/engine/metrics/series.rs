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
pub const HISTORY_BUCKETS: usize = 64;

const RECENT_MASK: u64 = RECENT_TICKS as u64 - 1;
const _: () = assert!(RECENT_TICKS.is_power_of_two(), "the ring is indexed by a mask");

/// A history bucket: `acc` is the sum of its ticks for a counter, the last level for a gauge and
/// the largest tick for a peak; `max` is the largest single tick, so a peak survives any number
/// of merges.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Bucket {
    acc: f32,
    max: f32,
}

/// One column of a resampled series.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Column {
    /// A counter's amount over the column; a gauge's level at the column's last tick; a peak's
    /// largest tick in the column (as `max`).
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
    /// Counter: every pushed amount added up. Gauge: the current level. Peak: the largest tick.
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
    /// A counter's (or a peak's) ring slots that hold a tick of the window; the others read as
    /// zero. (A gauge writes its held level into skipped slots instead, and ignores the mask.)
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

    /// Records `value` at `tick`: a counter adds it to the tick, a gauge sets the level, a peak
    /// keeps the larger of it and what the tick holds. Ticks come in order; the same tick may be
    /// pushed again. A counter's or a peak's zero is not stored (an idle tick already reads as
    /// zero).
    pub fn push(&mut self, tick: Tick, value: f64) -> Result<(), MetricsError> {
        self.push_as(self.kind, tick, value)
    }

    /// [`Series::push`] for a caller that knows the series' kind (the registry: a metric's kind
    /// is its series'). Inlined where `kind` is a constant, the shortcut's matches on the kind
    /// fold away. A series of another kind takes the general path, so a wrong `kind` costs time,
    /// never a wrong figure.
    #[expect(clippy::inline_always, reason = "its kind folds only where it inlines into the registry")]
    #[inline(always)]
    pub(super) fn push_as(&mut self, kind: Kind, tick: Tick, value: f64) -> Result<(), MetricsError> {
        if !storable(value) {
            return Err(MetricsError::BadValue(value));
        }
        self.push_checked_as(kind, tick, value)
    }

    /// [`Series::push_as`] of a value the caller has checked with [`storable`] (the registry
    /// checks a record once for a partition and its table).
    #[expect(clippy::inline_always, reason = "its kind folds only where it inlines into the registry")]
    #[inline(always)]
    pub(super) fn push_checked_as(&mut self, kind: Kind, tick: Tick, value: f64) -> Result<(), MetricsError> {
        debug_assert!(storable(value), "{value} was not checked");
        let t = tick.0;
        // The common case (a table's sum takes every partition's record in the same tick; a
        // partition's next record mostly lands in the open bucket): no bucket to open, so only
        // the skipped ticks' ring slots (none, for the next tick) and the tick's own figures move.
        if self.kind == kind
            && self.recent.is_some()
            && t >= self.last
            && t >> self.level == self.last >> self.level
        {
            if kind != Kind::Gauge && value == 0.0 {
                return Ok(());
            }
            if t != self.last {
                self.skip_to(kind, t);
            }
            self.add(kind, t, value);
            return Ok(());
        }
        if self.kind != Kind::Gauge && value == 0.0 {
            return Ok(());
        }
        self.push_to(t, value)
    }

    /// [`Series::push`] of a checked, storable `value` in the general case: the first push, an
    /// out-of-order tick, a bucket to open. Every push could take this path; the shortcut in
    /// `push_checked_as` only skips the steps that would do nothing.
    #[inline(never)]
    fn push_to(&mut self, t: u32, value: f64) -> Result<(), MetricsError> {
        let held = self.held(self.kind);
        if self.recent.is_none() {
            self.first = t;
            self.last = t;
            self.peak_tick = t;
            self.base = t;
            self.tail = 0.0;
            self.recent = Some(Box::new([0.0; RECENT_TICKS]));
        } else if t < self.last {
            return Err(MetricsError::OutOfOrder { tick: Tick(t), last: Tick(self.last) });
        } else if t > self.last {
            self.skip_to(self.kind, t);
        }
        self.open_bucket(t, held);
        self.add(self.kind, t, value);
        Ok(())
    }

    /// A gauge holds its level through the ticks nobody pushed; a counter's and a peak's idle
    /// ticks are 0.
    fn held(&self, kind: Kind) -> f64 {
        match kind {
            Kind::Counter | Kind::Peak => 0.0,
            Kind::Gauge => self.tail,
        }
    }

    /// Moves the ring on from `last` to tick `t` (later, on a series pushed before): the skipped
    /// ticks read as idle (a counter's or a peak's slots voided) or as the held level (a gauge's
    /// written), and `t` starts where an idle tick is.
    #[expect(clippy::inline_always, reason = "its kind folds only where it inlines into push_checked_as")]
    #[inline(always)]
    fn skip_to(&mut self, kind: Kind, t: u32) {
        let held = self.held(kind);
        let skipped = u64::from(t - self.last - 1).min(RECENT_TICKS as u64);
        match kind {
            Kind::Counter | Kind::Peak => {
                // Void the slots of the skipped ticks: a run of `skipped` bits from the slot after
                // `last`, wrapping around the ring.
                let run = if skipped == RECENT_TICKS as u64 { u64::MAX } else { (1 << skipped) - 1 };
                let from = (u64::from(self.last) + 1) & RECENT_MASK;
                self.valid &= !run.rotate_left(from as u32);
            }
            Kind::Gauge => {
                if let Some(ring) = &mut self.recent {
                    for g in u64::from(t) - skipped..u64::from(t) {
                        ring[(g & RECENT_MASK) as usize] = narrow(held);
                    }
                }
            }
        }
        self.last = t;
        self.tail = held;
    }

    /// Adds `value` to tick `t`, the series' last tick, whose ring slot and history bucket (the
    /// open one) are in place.
    #[expect(clippy::inline_always, reason = "its kind folds only where it inlines into push_as")]
    #[inline(always)]
    fn add(&mut self, kind: Kind, t: u32, value: f64) {
        match kind {
            Kind::Counter => {
                self.tail += value;
                self.total += value;
            }
            Kind::Gauge => {
                self.tail = value;
                self.total = value;
            }
            Kind::Peak => {
                self.tail = self.tail.max(value);
                self.total = self.total.max(value);
            }
        }
        let slot = u64::from(t) & RECENT_MASK;
        let tail = narrow(self.tail);
        if let Some(ring) = &mut self.recent {
            ring[slot as usize] = tail;
        }
        self.valid |= 1 << slot;
        if self.tail > self.peak {
            self.peak = self.tail;
            self.peak_tick = t;
        }
        match kind {
            Kind::Counter => self.open.acc += narrow(value),
            Kind::Gauge => self.open.acc = tail,
            Kind::Peak => self.open.acc = self.open.acc.max(tail),
        }
        self.open.max = self.open.max.max(tail);
    }

    /// Opens history buckets up to tick `t`'s, doubling the width as the span needs; a bucket
    /// opened before `t` starts at the level the skipped ticks held (`held`).
    fn open_bucket(&mut self, t: u32, held: f64) {
        let t = u64::from(t);
        let mut k = t >> self.level;
        if self.history.is_empty() {
            self.base = tick_u32(k);
        } else if k >= self.history_end() {
            // The open bucket is done: write it back before the history changes shape.
            let open = self.open;
            *self.history.last_mut().expect("a non-empty history has a newest bucket") = open;
            while k - u64::from(self.base) >= HISTORY_BUCKETS as u64 {
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
    }

    /// Merges neighbouring buckets pairwise (bucket `k` of width w lands in bucket `k/2` of width
    /// 2w), in place: the bucket written never lies after the bucket read.
    fn double_width(&mut self) {
        let kind = self.kind;
        let new_base = self.base >> 1;
        let mut written: Option<usize> = None;
        for (read, old) in (u64::from(self.base)..).zip(0..self.history.len()) {
            let bucket = self.history[old];
            let into = usize::try_from((read >> 1) - u64::from(new_base))
                .expect("merged offsets stay below HISTORY_BUCKETS");
            if written == Some(into) {
                let older = &mut self.history[into];
                older.acc = match kind {
                    Kind::Counter => older.acc + bucket.acc,
                    Kind::Gauge => bucket.acc,
                    Kind::Peak => older.acc.max(bucket.acc),
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
    fn history_end(&self) -> u64 {
        u64::from(self.base) + self.history.len() as u64
    }

    /// The history bucket numbered `k`, which the caller knows to be held.
    fn bucket(&self, k: u64) -> Bucket {
        let i = usize::try_from(k - u64::from(self.base)).expect("bucket numbers stay within the history");
        if i + 1 == self.history.len() { self.open } else { self.history[i] }
    }

    /// Tick `t`'s value from the ring, for `t` in the window `(last − RECENT_TICKS, last]`.
    fn ring_value(&self, ring: &[f32; RECENT_TICKS], t: u64) -> f64 {
        let slot = t & RECENT_MASK;
        if self.kind != Kind::Gauge && self.valid & (1 << slot) == 0 {
            0.0
        } else {
            f64::from(ring[slot as usize])
        }
    }

    /// Counter: every amount ever pushed, added up exactly. Gauge: the current level. Peak: the
    /// largest tick (as [`Series::peak`]).
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
            Kind::Counter | Kind::Peak => 0.0,
            Kind::Gauge => self.tail,
        }
    }

    /// First tick the ring holds exactly (ticks before `first` are exact too: zero).
    fn exact_from(&self) -> u64 {
        u64::from(self.first).max((u64::from(self.last) + 1).saturating_sub(RECENT_TICKS as u64))
    }
}

/// Whether a series can take `value`: finite and not negative (−0 included). Two integer
/// comparisons of the bits: below +∞'s are exactly +0 and the positive finite values (NaN, +∞ and
/// every negative lie above). The float tests (`is_finite`, `< 0.0`) compile to ~20 instructions,
/// on a path that runs for every record.
#[inline]
pub(super) fn storable(value: f64) -> bool {
    let bits = value.to_bits();
    bits < f64::INFINITY.to_bits() || bits == (-0.0f64).to_bits()
}

/// A tick (or bucket) number that came from a tick number, so fits one.
fn tick_u32(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Splits `range` into `min(cols, len)` columns of whole ticks, as even as integers allow (widths
/// differ by at most one). Columns cover the range exactly, in order.
pub fn columns(range: Range<Tick>, cols: usize) -> impl Iterator<Item = Range<Tick>> {
    let start = u64::from(range.start.0);
    let len = u64::from(range.end.0).saturating_sub(start);
    let n = (cols as u64).min(len);
    // Every bound lies between range.start and range.end, so it fits a tick number.
    (0..n).map(move |i| Tick(tick_u32(start + i * len / n))..Tick(tick_u32(start + (i + 1) * len / n)))
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
            // A peak never adds ticks up: the column is its largest tick.
            Kind::Peak => max,
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
mod tests;
