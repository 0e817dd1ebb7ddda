//! The read-through item cache a variant may put in front of some read patterns (DAX's item
//! cache, `model::ReadCache`): entries keyed by an item's identity, each serving hits until its
//! TTL runs out, the least recently used evicted when the cache is full.
//!
//! AWS ("DAX: How it works", "Configuring your DAX cluster"): a GetItem or BatchGetItem key
//! found unexpired in the item cache is answered without DynamoDB (no read capacity); a miss is
//! read from the table and its result stored, a missing item too (DAX's negative cache); the
//! LRU list tracks when an item was first written to the cache or last read from it. Expiry is
//! lazy here: an expired entry is dropped when a read finds it, or when it is the least recent.
//! This module owns the bookkeeping only; `exec::read` decides what a hit or a miss costs. It
//! never reads the wall clock: time is the simulated milliseconds the caller passes.

use std::collections::{BTreeMap, HashMap};

use crate::engine::hash::{combine, hash_bytes};
use crate::engine::model::{PatternId, ReadCache};

use super::keys::SortBuf;

/// A cached answer to a GetItem: the item's size then (0 when it was missing), when it expires
/// and its place in the recency order.
#[derive(Debug, Clone, Copy)]
struct Entry {
    expires_ms: u64,
    stamp: u64,
    size: u32,
    found: bool,
}

/// What a lookup found: the cached item's size and whether it existed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Hit {
    pub size: u32,
    pub found: bool,
}

#[derive(Debug)]
pub(super) struct ItemCache {
    ttl_ms: u64,
    capacity: usize,
    entries: HashMap<u64, Entry>,
    /// Recency stamp → key, least recent first.
    order: BTreeMap<u64, u64>,
    next_stamp: u64,
    /// Patterns (by index) whose reads go through the cache.
    pub patterns: Vec<bool>,
    pub evictions: u64,
}

/// The identity of an item a GetItem asks for in `group`: its partition key's hash and its sort
/// key. Distinct items collide with chance ~n²/2⁶⁵ — none in any replay keyheat can hold.
pub(super) fn item_key(group: usize, pk_hash: u64, sk: Option<&SortBuf>) -> u64 {
    let sk = match sk {
        None => 0,
        Some(SortBuf::Inline(v)) => combine(&[1, *v]),
        Some(SortBuf::Bytes(b)) => combine(&[2, hash_bytes(b)]),
    };
    combine(&[group as u64, pk_hash, sk])
}

impl ItemCache {
    /// The cache of `spec`, fronting the patterns it serves, of the scenario's `patterns`.
    pub(super) fn new(spec: &ReadCache, patterns: usize) -> ItemCache {
        ItemCache {
            ttl_ms: spec.ttl.as_millis(),
            capacity: usize::try_from(spec.items).unwrap_or(usize::MAX).max(1),
            entries: HashMap::new(),
            order: BTreeMap::new(),
            next_stamp: 0,
            patterns: (0..patterns).map(|p| spec.serves(PatternId::new(p))).collect(),
            evictions: 0,
        }
    }

    fn stamp(&mut self) -> u64 {
        self.next_stamp += 1;
        self.next_stamp
    }

    /// The cached answer for `key` at `now_ms`, made the most recently used; `None` when it is
    /// absent or expired (an expired entry is dropped).
    pub(super) fn lookup(&mut self, key: u64, now_ms: u64) -> Option<Hit> {
        let entry = *self.entries.get(&key)?;
        self.order.remove(&entry.stamp);
        if now_ms >= entry.expires_ms {
            self.entries.remove(&key);
            return None;
        }
        let stamp = self.stamp();
        self.order.insert(stamp, key);
        if let Some(e) = self.entries.get_mut(&key) {
            e.stamp = stamp;
        }
        Some(Hit { size: entry.size, found: entry.found })
    }

    /// Stores what a miss read from the table at `now_ms`: it serves hits for the TTL. When the
    /// cache is full the least recently used entry goes (expired or not, as DAX's LRU does).
    pub(super) fn fill(&mut self, key: u64, now_ms: u64, size: u32, found: bool) {
        if let Some(old) = self.entries.get(&key) {
            self.order.remove(&old.stamp);
        } else if self.entries.len() >= self.capacity
            && let Some((_, oldest)) = self.order.pop_first()
        {
            self.entries.remove(&oldest);
            self.evictions += 1;
        }
        let stamp = self.stamp();
        self.order.insert(stamp, key);
        self.entries.insert(key, Entry { expires_ms: now_ms + self.ttl_ms, stamp, size, found });
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::CacheIds;
    use crate::engine::time::SimDuration;

    fn cache(ttl_s: u64, items: u64) -> ItemCache {
        let spec = ReadCache {
            ttl: SimDuration::from_secs(ttl_s),
            items,
            patterns: vec!["get".into()],
            ids: CacheIds::serving(vec![PatternId::new(0)]),
        };
        ItemCache::new(&spec, 2)
    }

    #[test]
    fn it_fronts_only_the_patterns_it_names() {
        assert_eq!(cache(1, 1).patterns, vec![true, false]);
    }

    #[test]
    fn an_entry_serves_hits_until_its_ttl_and_then_misses() {
        // (ms of the lookup after a fill at 0, hit?)
        let cases = [(0, true), (999, true), (1000, false), (5000, false)];
        for (at, hit) in cases {
            let mut c = cache(1, 10);
            c.fill(7, 0, 100, true);
            assert_eq!(c.lookup(7, at).is_some(), hit, "lookup at {at} ms");
        }
    }

    #[test]
    fn a_hit_does_not_extend_the_ttl() {
        let mut c = cache(1, 10);
        c.fill(7, 0, 100, true);
        assert!(c.lookup(7, 900).is_some());
        assert!(c.lookup(7, 1000).is_none(), "expiry counts from the fill, not the last hit");
    }

    #[test]
    fn a_full_cache_evicts_the_least_recently_used() {
        let mut c = cache(60, 2);
        c.fill(1, 0, 10, true);
        c.fill(2, 0, 10, true);
        assert!(c.lookup(1, 1).is_some()); // 2 is now the least recent
        c.fill(3, 2, 10, true);
        assert_eq!((c.len(), c.evictions), (2, 1));
        assert!(c.lookup(2, 3).is_none());
        assert!(c.lookup(1, 3).is_some());
        assert!(c.lookup(3, 3).is_some());
    }

    #[test]
    fn a_missing_item_is_cached_too() {
        let mut c = cache(60, 2);
        c.fill(1, 0, 0, false);
        assert_eq!(c.lookup(1, 1), Some(Hit { size: 0, found: false }));
    }

    #[test]
    fn item_keys_tell_groups_partitions_and_sort_keys_apart() {
        let keys = [
            item_key(0, 1, None),
            item_key(1, 1, None),
            item_key(0, 2, None),
            item_key(0, 1, Some(&SortBuf::Inline(0))),
            item_key(0, 1, Some(&SortBuf::Inline(1))),
            item_key(0, 1, Some(&SortBuf::Bytes(b"a".to_vec()))),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
