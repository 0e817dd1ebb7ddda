//! Throttled demand waiting for its retry, on one physical partition: a ring of slots (due
//! times, counted from the run's start), each a short list of (pattern, direction, retries made)
//! with the requests and units due then.
//!
//! Every tick takes the slots due within it, reads them slot by slot, and adds a refusal's
//! retries a policy's wait ahead, so what waits spans at most the policy's longest wait in
//! slots (a few hundred): a ring of buckets serves this with no search but within a slot, where
//! a map ordered by the whole key searched its depth on every access.
//!
//! What it must never do: visit its entries in another order than the map it replaces — slots
//! ascending, then (pattern, direction, retries) — nor add into an entry in another way than
//! starting from zero. The capacity model sums these floats in visiting order, so the order is
//! part of its figures (reports are the same bytes as the map's).

use std::collections::VecDeque;

/// Where a retry is due: (the slot, counted from the run's start; its pattern; its direction;
/// the retries it has made).
pub type Due = (u64, usize, usize, u32);

/// One slot's demand of a (pattern, direction, retries made).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    pub pattern: usize,
    pub dim: usize,
    pub retries: u32,
    pub requests: f64,
    pub units: f64,
}

/// `(pattern, dim, retries)` packed so that the words order as the tuples do: a pattern below
/// 2²⁴ (a scenario has a few dozen), a direction below 2⁸ (read or write).
fn kind(pattern: usize, dim: usize, retries: u32) -> u64 {
    debug_assert!(pattern < 1 << 24 && dim < 1 << 8, "a pattern or direction past its field");
    (pattern as u64) << 40 | (dim as u64) << 32 | u64::from(retries)
}

/// One slot's entries, ordered by kind. The kinds are kept apart from the sums: every add
/// searches a slot's kinds (a throttled partition adds hundreds of times a tick, a slot holding
/// ten kinds or so), and a scan of a few packed words beats a search through whole entries.
#[derive(Debug, Clone, Default)]
struct Bucket {
    kinds: Vec<u64>,
    /// Per kind: (requests, units).
    sums: Vec<(f64, f64)>,
}

impl Bucket {
    #[expect(clippy::cast_possible_truncation, reason = "the fields `kind` packed")]
    fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.kinds.iter().zip(&self.sums).map(|(&kind, &(requests, units))| Entry {
            pattern: usize::try_from(kind >> 40).expect("a pattern's index"),
            dim: usize::from((kind >> 32) as u8),
            retries: kind as u32,
            requests,
            units,
        })
    }
}

/// Throttled demand waiting for a retry, by due slot (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct Waiting {
    /// The slot of `slots`' first bucket.
    base: u64,
    /// Per slot from `base`: its entries.
    slots: VecDeque<Bucket>,
    /// Emptied buckets, kept for their allocations.
    spare: Vec<Bucket>,
}

impl Waiting {
    fn bucket(&mut self, slot: u64) -> &mut Bucket {
        if self.slots.is_empty() {
            self.base = slot;
        }
        while slot < self.base {
            let empty = self.spare.pop().unwrap_or_default();
            self.slots.push_front(empty);
            self.base -= 1;
        }
        let at = usize::try_from(slot - self.base).expect("a slot within the ring's reach");
        while self.slots.len() <= at {
            let empty = self.spare.pop().unwrap_or_default();
            self.slots.push_back(empty);
        }
        &mut self.slots[at]
    }

    /// Adds `requests` and `units` to what is due at `key`, from zero for a new entry.
    pub fn add(&mut self, (slot, pattern, dim, retries): Due, requests: f64, units: f64) {
        let bucket = self.bucket(slot);
        let kind = kind(pattern, dim, retries);
        // Where the kind is or goes: after every smaller one (a count without branches).
        let at: usize = bucket.kinds.iter().map(|&k| usize::from(k < kind)).sum();
        if bucket.kinds.get(at) == Some(&kind) {
            let sums = &mut bucket.sums[at];
            sums.0 += requests;
            sums.1 += units;
        } else {
            bucket.kinds.insert(at, kind);
            // As a map's entry starting at (0, 0): the same bits for -0.0.
            bucket.sums.insert(at, (0.0 + requests, 0.0 + units));
        }
    }

    /// The entries due in `slot`, ordered.
    pub fn in_slot(&self, slot: u64) -> impl Iterator<Item = Entry> + '_ {
        slot.checked_sub(self.base)
            .and_then(|at| usize::try_from(at).ok())
            .and_then(|at| self.slots.get(at))
            .into_iter()
            .flat_map(Bucket::entries)
    }

    /// Every entry due before slot `end`, in order, with its slot.
    pub fn due_before(&self, end: u64) -> impl Iterator<Item = (u64, Entry)> + '_ {
        let count = usize::try_from(end.saturating_sub(self.base)).unwrap_or(usize::MAX);
        (self.base..)
            .zip(self.slots.iter().take(count))
            .flat_map(|(slot, bucket)| bucket.entries().map(move |e| (slot, e)))
    }

    /// Every entry, in order, with its slot.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Entry)> + '_ {
        self.due_before(u64::MAX)
    }

    /// Takes out every entry due before slot `end`.
    pub fn drop_before(&mut self, end: u64) {
        while self.base < end {
            let Some(mut bucket) = self.slots.pop_front() else { break };
            bucket.kinds.clear();
            bucket.sums.clear();
            self.spare.push(bucket);
            self.base += 1;
        }
    }

    /// The first entry in order, taken out.
    pub fn pop_first(&mut self) -> Option<(Due, (f64, f64))> {
        loop {
            let bucket = self.slots.front_mut()?;
            if bucket.kinds.is_empty() {
                self.drop_before(self.base + 1);
                continue;
            }
            let e = bucket.entries().next().expect("a bucket with an entry");
            bucket.kinds.remove(0);
            bucket.sums.remove(0);
            return Some(((self.base, e.pattern, e.dim, e.retries), (e.requests, e.units)));
        }
    }

    /// A split moved share `moved` of this demand to the new partition above: that share, as a
    /// queue of its own; this one keeps the rest.
    pub fn split_off_share(&mut self, moved: f64) -> Waiting {
        let mut upper = self.clone();
        upper.spare.clear();
        for (below, above) in self.slots.iter_mut().zip(upper.slots.iter_mut()) {
            for (below, above) in below.sums.iter_mut().zip(above.sums.iter_mut()) {
                *above = (below.0 * moved, below.1 * moved);
                below.0 *= 1.0 - moved;
                below.1 *= 1.0 - moved;
            }
        }
        upper
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

    /// Against a map of the same keys, over many ticks, so the ring's buckets wrap around its
    /// storage again and again: the same entries, in the same order, with the same bits.
    #[test]
    fn the_ring_keeps_a_maps_order_as_it_wraps() {
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
            // New entries up to 60 slots ahead, some onto keys already waiting.
            for _ in 0..next(12) {
                let small = |n: u64| u32::try_from(n).expect("below 4");
                let key = (end + next(60), small(next(3)) as usize, small(next(2)) as usize, small(next(4)));
                let (requests, units) = (next(1000) as f64 / 7.0, next(1000) as f64 / 3.0);
                add(&mut map, key, requests, units);
                w.add(key, requests, units);
            }
            let listed_map: Vec<_> = map.iter().map(|(k, v)| (*k, *v)).collect();
            assert_eq!(listed(&w), listed_map, "tick {tick}");
        }
        while let Some((key, value)) = map.pop_first() {
            assert_eq!(w.pop_first(), Some((key, value)));
        }
        assert_eq!(w.pop_first(), None);
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
