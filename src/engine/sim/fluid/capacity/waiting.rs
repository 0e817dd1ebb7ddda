//! Throttled demand waiting for its retry, on one physical partition: per due slot (counted
//! from the run's start), the requests and units due then of each (pattern, direction, retries
//! made) — a kind.
//!
//! Every tick takes the slots due within it, reads them slot by slot, and adds each refusal's
//! retries at the points of the policy's wait ahead (`capacity::spread`: 11 for the AWS
//! policy's long waits on a 1 s tick; a throttled partition adds thousands of times a tick),
//! so an add must cost no search and no move. The kinds a partition ever
//! waits on are few — the (pattern, direction) pairs refused on it times the retry numbers —
//! so each gets a compact id, ordered as the kinds are, and a slot is a dense row of sums by id
//! with a mask of the ids present: an add is an index, two float adds and a bit set. The rows
//! are one ring, as long as the longest wait (a power of two of slots), allocated at a
//! partition's first refusal: a partition never throttled holds nothing.
//!
//! What it must never do: visit its entries in another order than a map of the whole key —
//! slots ascending, then (pattern, direction, retries) — nor add into an entry in another way
//! than starting from zero. The capacity model sums these floats in visiting order, so the
//! order is part of its figures (reports are the same bytes as the map's). An empty cell holds
//! +0.0, so an add into it is the map's `0.0 + x`.

/// Where a retry is due: (the slot, counted from the run's start; its pattern; its direction;
/// the retries it has made).
pub type Due = (u64, usize, usize, u32);

/// What waits: (its pattern; its direction; the retries it has made).
pub type Kind = (usize, usize, u32);

/// One slot's demand of a (pattern, direction, retries made).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    pub pattern: usize,
    pub dim: usize,
    pub retries: u32,
    pub requests: f64,
    pub units: f64,
}

/// Directions: read and write (`meter::READ`, `meter::WRITE`).
const DIMS: usize = 2;
/// A (pattern, direction) pair never added.
const ABSENT: u32 = u32::MAX;
/// The fewest slots a ring is allocated for: a tick's.
const MIN_SLOTS: usize = 16;

/// Throttled demand waiting for a retry, by due slot (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct Waiting {
    /// Per pattern, per direction: the pair's rank in `pairs` (`ABSENT`: never added).
    rank: Vec<[u32; DIMS]>,
    /// The (pattern, direction) pairs ever added, ascending: a kind's id is its pair's rank ×
    /// `span` + its retries, so ids order as kinds do.
    pairs: Vec<(usize, usize)>,
    /// Retry numbers each pair's ids cover: one past the most retries added.
    span: usize,
    /// Ids a slot's row holds (`pairs.len() × span`), and the mask words for them.
    kinds: usize,
    words: usize,
    /// Rows of the ring: a power of two (0 before the first add); a slot's row is the slot
    /// modulo this.
    slots: usize,
    /// Per id, per row: (requests, units). By id first, so a refusal's retries over the
    /// slots of a tick and its points land on few cache lines.
    sums: Vec<(f64, f64)>,
    /// Per row: the ids present, a bit each.
    present: Vec<u64>,
    /// The first slot that may hold entries, and one past the last that does (`base == end`:
    /// none). Rows of slots outside them are clear: no bit set, every sum +0.0.
    base: u64,
    end: u64,
}

impl Waiting {
    fn row(&self, slot: u64) -> usize {
        // The ring's length is a power of two: the low bits of a slot are its row.
        #[expect(clippy::cast_possible_truncation, reason = "masked below the ring's length")]
        let row = (slot & (self.slots as u64 - 1)) as usize;
        row
    }

    /// Where a row's sums of an id are.
    fn cell(&self, row: usize, id: usize) -> usize {
        id * self.slots + row
    }

    /// The id of a kind.
    fn id(&mut self, pattern: usize, dim: usize, retries: u32) -> usize {
        debug_assert!(dim < DIMS, "a direction is read or write");
        let retries = retries as usize;
        let rank = self.rank.get(pattern).map_or(ABSENT, |r| r[dim]);
        if rank == ABSENT || retries >= self.span {
            return self.new_kind(pattern, dim, retries);
        }
        rank as usize * self.span + retries
    }

    /// The id of a kind of a pair or a retry number not seen yet, the rows laid out again for
    /// it (a few times a run).
    #[cold]
    fn new_kind(&mut self, pattern: usize, dim: usize, retries: usize) -> usize {
        let mut pairs = self.pairs.clone();
        if !pairs.contains(&(pattern, dim)) {
            pairs.push((pattern, dim));
            pairs.sort_unstable();
        }
        self.relayout(pairs, self.span.max(retries + 1), self.slots);
        self.rank[pattern][dim] as usize * self.span + retries
    }

    /// Lays every waiting entry out again for `pairs`, `span` retry numbers and a ring of
    /// `slots` rows (the entries' span at most).
    fn relayout(&mut self, pairs: Vec<(usize, usize)>, span: usize, slots: usize) {
        let old = std::mem::take(self);
        self.span = span;
        self.kinds = pairs.len() * span;
        self.words = self.kinds.div_ceil(64);
        for (r, &(pattern, dim)) in pairs.iter().enumerate() {
            if self.rank.len() <= pattern {
                self.rank.resize(pattern + 1, [ABSENT; DIMS]);
            }
            self.rank[pattern][dim] = u32::try_from(r).expect("a pair's rank");
        }
        self.pairs = pairs;
        self.slots = slots;
        self.sums = vec![(0.0, 0.0); slots * self.kinds];
        self.present = vec![0; slots * self.words];
        (self.base, self.end) = (old.base, old.end);
        for (slot, e) in old.iter() {
            let id = self.rank[e.pattern][e.dim] as usize * span + e.retries as usize;
            let row = self.row(slot);
            let at = self.cell(row, id);
            self.sums[at] = (e.requests, e.units);
            self.present[row * self.words + id / 64] |= 1 << (id % 64);
        }
    }

    /// Makes the ring reach `slot`, longer if the entries' span needs it.
    fn reach(&mut self, slot: u64) {
        if self.base >= self.end {
            (self.base, self.end) = (slot, slot);
        }
        let (base, end) = (self.base.min(slot), self.end.max(slot + 1));
        let need = usize::try_from(end - base).expect("a span of slots");
        if need > self.slots {
            let pairs = self.pairs.clone();
            self.relayout(pairs, self.span, need.next_power_of_two().max(MIN_SLOTS));
        }
        (self.base, self.end) = (base, end);
    }

    /// Adds `requests` and `units` to what is due at `key`, from zero for a new entry.
    pub fn add(&mut self, (slot, pattern, dim, retries): Due, requests: f64, units: f64) {
        let id = self.id(pattern, dim, retries);
        self.reach(slot);
        let row = self.row(slot);
        // An absent entry's cell holds +0.0: adding into it starts from zero, as a map's does.
        let at = self.cell(row, id);
        let sums = &mut self.sums[at];
        sums.0 += requests;
        sums.1 += units;
        self.present[row * self.words + id / 64] |= 1 << (id % 64);
    }

    /// Adds `requests` and `units` of a kind at `from` plus each of `after` (ascending), as
    /// `add` would one by one, the kind looked up and the ring reached once: a refusal's retry
    /// spread over its wait's points.
    pub fn add_after(
        &mut self,
        from: u64,
        after: &[u64],
        (pattern, dim, retries): Kind,
        requests: f64,
        units: f64,
    ) {
        let (Some(&first), Some(&last)) = (after.first(), after.last()) else { return };
        let id = self.id(pattern, dim, retries);
        self.reach(from + first);
        self.reach(from + last);
        let (word, bit) = (id / 64, 1 << (id % 64));
        for &a in after {
            let row = self.row(from + a);
            let at = self.cell(row, id);
            let sums = &mut self.sums[at];
            sums.0 += requests;
            sums.1 += units;
            self.present[row * self.words + word] |= bit;
        }
    }

    fn entry(&self, row: usize, id: usize) -> Entry {
        let (pattern, dim) = self.pairs[id / self.span];
        let (requests, units) = self.sums[self.cell(row, id)];
        let retries = u32::try_from(id % self.span).expect("a retry number");
        Entry { pattern, dim, retries, requests, units }
    }

    /// The ids present in a row, ascending.
    fn ids(&self, row: usize) -> impl Iterator<Item = usize> + '_ {
        let mask = &self.present[row * self.words..(row + 1) * self.words];
        mask.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + bit
                })
            })
        })
    }

    /// The entries due in `slot`, ordered.
    pub fn in_slot(&self, slot: u64) -> impl Iterator<Item = Entry> + '_ {
        let row = (self.base..self.end).contains(&slot).then(|| self.row(slot));
        row.into_iter().flat_map(move |row| self.ids(row).map(move |id| self.entry(row, id)))
    }

    /// Every entry due before slot `end`, in order, with its slot.
    pub fn due_before(&self, end: u64) -> impl Iterator<Item = (u64, Entry)> + '_ {
        (self.base..end.min(self.end)).flat_map(move |slot| self.in_slot(slot).map(move |e| (slot, e)))
    }

    /// Every entry, in order, with its slot.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Entry)> + '_ {
        self.due_before(u64::MAX)
    }

    /// Clears a row: its present cells back to +0.0, its mask to none.
    fn clear(&mut self, row: usize) {
        for w in 0..self.words {
            let mut bits = std::mem::take(&mut self.present[row * self.words + w]);
            while bits != 0 {
                let id = w * 64 + bits.trailing_zeros() as usize;
                let at = self.cell(row, id);
                self.sums[at] = (0.0, 0.0);
                bits &= bits - 1;
            }
        }
    }

    /// Takes out every entry due before slot `end`.
    pub fn drop_before(&mut self, end: u64) {
        while self.base < end.min(self.end) {
            self.clear(self.row(self.base));
            self.base += 1;
        }
        if self.base >= self.end {
            self.base = self.end;
        }
    }

    /// The first entry in order, taken out.
    pub fn pop_first(&mut self) -> Option<(Due, (f64, f64))> {
        while self.base < self.end {
            let row = self.row(self.base);
            let first = self.ids(row).next();
            if let Some(id) = first {
                let e = self.entry(row, id);
                self.present[row * self.words + id / 64] &= !(1 << (id % 64));
                let at = self.cell(row, id);
                self.sums[at] = (0.0, 0.0);
                return Some(((self.base, e.pattern, e.dim, e.retries), (e.requests, e.units)));
            }
            self.base += 1;
        }
        None
    }

    /// A split moved share `moved` of this demand to the new partition above: that share, as a
    /// queue of its own; this one keeps the rest.
    pub fn split_off_share(&mut self, moved: f64) -> Waiting {
        let mut upper = self.clone();
        for slot in self.base..self.end {
            let row = self.row(slot);
            let ids: Vec<usize> = self.ids(row).collect();
            for id in ids {
                let at = self.cell(row, id);
                let below = &mut self.sums[at];
                upper.sums[at] = (below.0 * moved, below.1 * moved);
                below.0 *= 1.0 - moved;
                below.1 *= 1.0 - moved;
            }
        }
        upper
    }

    /// Bytes the ring holds (its rows and masks).
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.sums.len() * size_of::<(f64, f64)>() + self.present.len() * size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{Due, Waiting};

    fn listed(w: &Waiting) -> Vec<(Due, (f64, f64))> {
        w.iter().map(|(s, e)| ((s, e.pattern, e.dim, e.retries), (e.requests, e.units))).collect()
    }

    fn add(map: &mut BTreeMap<Due, (f64, f64)>, key: Due, requests: f64, units: f64) {
        let entry = map.entry(key).or_insert((0.0, 0.0));
        entry.0 += requests;
        entry.1 += units;
    }

    /// Entries come out slot by slot, and within a slot by (pattern, direction, retries),
    /// whatever order they were added in; adding to an entry sums into it.
    #[test]
    fn entries_come_out_in_the_order_of_their_due_keys() {
        let mut w = Waiting::default();
        for (key, r) in [((7, 1, 0, 2), 1.0), ((5, 0, 1, 0), 2.0), ((7, 0, 1, 1), 3.0), ((7, 1, 0, 0), 4.0)] {
            w.add(key, r, 10.0 * r);
        }
        w.add((5, 0, 1, 0), 0.5, 5.0);
        let want = vec![
            ((5, 0, 1, 0), (2.5, 25.0)),
            ((7, 0, 1, 1), (3.0, 30.0)),
            ((7, 1, 0, 0), (4.0, 40.0)),
            ((7, 1, 0, 2), (1.0, 10.0)),
        ];
        assert_eq!(listed(&w), want);
        assert!(
            w.in_slot(6).next().is_none() && w.in_slot(4).next().is_none() && w.in_slot(99).next().is_none()
        );
        assert_eq!(w.in_slot(7).count(), 3);
        // Due before slot 7: slot 5's only.
        let due: Vec<u64> = w.due_before(7).map(|(s, _)| s).collect();
        assert_eq!(due, [5]);
        w.drop_before(7);
        assert_eq!(listed(&w), want[1..]);
        assert_eq!(w.pop_first(), Some(want[1]));
        // A slot before the ring's first is added in front of it.
        w.add((2, 3, 0, 0), 1.0, 1.0);
        assert_eq!(w.pop_first(), Some(((2, 3, 0, 0), (1.0, 1.0))));
        assert_eq!(listed(&w), want[2..]);
    }

    /// The shape of a run against a map: patterns, retry numbers, slots ahead an entry is due.
    struct Shape {
        patterns: u64,
        retries: u64,
        ahead: u64,
    }

    /// Against a map of the same keys, over many ticks, so the ring's rows wrap around its
    /// storage again and again, and new kinds and longer waits lay it out again while entries
    /// wait: the same entries, in the same order, with the same bits, added one by one or a
    /// retry's points at once (`add_after`).
    fn against_a_map(shape: &Shape) {
        let mut w = Waiting::default();
        let mut map: BTreeMap<Due, (f64, f64)> = BTreeMap::new();
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for tick in 0..500u64 {
            let (first, end) = (tick * 10, tick * 10 + 10);
            let want: Vec<_> = map.range(..(end, 0, 0, 0)).map(|(k, v)| (*k, *v)).collect();
            let got: Vec<_> = w
                .due_before(end)
                .map(|(s, e)| ((s, e.pattern, e.dim, e.retries), (e.requests, e.units)))
                .collect();
            assert_eq!(got, want, "tick {tick}");
            for slot in first..end {
                let in_map = map.range((slot, 0, 0, 0)..(slot + 1, 0, 0, 0)).count();
                assert_eq!(w.in_slot(slot).count(), in_map);
            }
            map = map.split_off(&(end, 0, 0, 0));
            w.drop_before(end);
            // New entries up to `ahead` slots ahead, some onto keys already waiting; the kinds
            // and the reach grow over the run.
            let grown = |n: u64| 1 + (n - 1) * tick.min(250) / 250;
            for _ in 0..next(12) {
                let small = |n: u64| usize::try_from(n).expect("a small number");
                let retries = u32::try_from(next(grown(shape.retries))).expect("a retry number");
                let pattern = small(next(grown(shape.patterns)));
                let key = (end + next(grown(shape.ahead)), pattern, small(next(2)), retries);
                let (requests, units) = (next(1000) as f64 / 7.0, next(1000) as f64 / 3.0);
                if next(2) == 0 {
                    add(&mut map, key, requests, units);
                    w.add(key, requests, units);
                } else {
                    // A retry's points, some on one slot, from `end`.
                    let mut after: Vec<u64> = (0..next(5)).map(|_| next(grown(shape.ahead))).collect();
                    after.sort_unstable();
                    for &a in &after {
                        add(&mut map, (end + a, key.1, key.2, key.3), requests, units);
                    }
                    w.add_after(end, &after, (key.1, key.2, key.3), requests, units);
                }
            }
            let listed_map: Vec<_> = map.iter().map(|(k, v)| (*k, *v)).collect();
            assert_eq!(listed(&w), listed_map, "tick {tick}");
        }
        while let Some((key, value)) = map.pop_first() {
            assert_eq!(w.pop_first(), Some((key, value)));
        }
        assert_eq!(w.pop_first(), None);
    }

    #[test]
    fn the_ring_keeps_a_maps_order_as_it_wraps() {
        against_a_map(&Shape { patterns: 3, retries: 4, ahead: 60 });
    }

    /// Kinds past one mask word (40 patterns × 2 directions × 11 retry numbers) and waits as
    /// long as the default policy's (20 s, 200 slots).
    #[test]
    fn the_ring_keeps_a_maps_order_with_many_kinds_and_long_waits() {
        against_a_map(&Shape { patterns: 40, retries: 11, ahead: 211 });
    }

    /// A partition never refused holds nothing; a refused one holds a ring of a power of two
    /// of slots past its longest wait, a row of every kind it was refused on: with two
    /// patterns (one a direction, as practice-saas has) and the default policy's 10 retries
    /// and 20 s (200 slots of 100 ms) wait, 256 rows of 22 kinds, 90 KiB.
    #[test]
    fn a_queue_allocates_at_its_first_refusal_for_its_span() {
        let mut w = Waiting::default();
        assert_eq!(w.bytes(), 0);
        w.add((5, 0, 1, 0), 1.0, 1.0);
        assert_eq!(w.bytes(), 16 * (16 + 8));
        for retries in 0..=10 {
            w.add((10 + 201, 0, 1, retries), 1.0, 1.0);
            w.add((10, 1, 0, retries), 1.0, 1.0);
        }
        assert_eq!(w.bytes(), 256 * (22 * 16 + 8));
        assert_eq!(w.iter().count(), 1 + 22);
    }

    /// A split leaves each entry's share below and moves the rest above, entry by entry.
    #[test]
    fn a_split_shares_every_entry() {
        let mut w = Waiting::default();
        w.add((3, 0, 0, 1), 4.0, 8.0);
        w.add((9, 1, 1, 0), 2.0, 6.0);
        let upper = w.split_off_share(0.25);
        assert_eq!(listed(&w), [((3, 0, 0, 1), (3.0, 6.0)), ((9, 1, 1, 0), (1.5, 4.5))]);
        assert_eq!(listed(&upper), [((3, 0, 0, 1), (1.0, 2.0)), ((9, 1, 1, 0), (0.5, 1.5))]);
    }
}
