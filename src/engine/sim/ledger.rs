//! The compact table: one table's (or one index's) logical partitions and their rows, in about
//! 4.5 bytes a row for time-ordered keys, with DynamoDB's paging rules, so a year of readings
//! fits in memory.
//!
//! A [`Row`] is a sort key (inline, or an offset into the partition's byte arena), the item's
//! size and the item's id; attribute values are never stored, the simulator regenerates them from
//! the seed when it needs them. A partition keeps its rows in sort-key order in blocks of at most
//! 64 rows, bit-packed as offsets from each block's least values (`ledger::rows`): appends in key
//! order (time-ordered keys) are O(1), other inserts a search and the re-encoding of one block.
//! Every block keeps its rows' byte sum, so a page (1 MB or `Limit` items) is found in
//! O(blocks) instead of O(rows).
//!
//! Partition keys are interned once: the stable hash `engine::hash::hash_bytes` of the key
//! (what `store::PartitionId` hashes, so placement agrees with the store) is the lookup key and
//! the physical placement. A Scan walks partitions in (hash, key) order — the store's order —
//! through hash buckets that keep byte and item totals, so a whole-table Scan skips whole
//! buckets and costs O(buckets + pages) rather than O(items) when nothing must look at items.
//!
//! The ledger knows nothing of items, capacity units or time: `sim` decides what a row is and
//! what a read costs (with `store::capacity`); the equivalence test holds it against
//! `engine::store::Store`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::{Bound, Range};

use self::rows::Rows;
use super::keys::{Codec, SortRef, compare_key_text};
use crate::engine::store::PAGE_BYTES;
use crate::engine::value::KeyType;

/// Bits of the arena length in a byte-codec row's `sk`; the offset takes the rest.
const LEN_BITS: u32 = 20;
const LEN_MASK: u64 = (1 << LEN_BITS) - 1;

/// One item (or index entry) in a partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The inline sort key, or `offset << 20 | len` into the partition's arena.
    pub sk: u64,
    /// Bytes of the item (of the entry, for an index), without any storage overhead.
    pub size: u32,
    /// The simulator's item handle.
    pub id: u32,
}

/// Identity hashing for keys that are already well-mixed 64-bit hashes.
#[derive(Default, Clone, Copy)]
pub struct PreHashed(u64);

impl Hasher for PreHashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub type PreHashedMap<V> = HashMap<u64, V, BuildHasherDefault<PreHashed>>;

/// No next partition in a hash chain.
const NONE: u32 = u32::MAX;

/// Slots of the ledger's cache of partitions found (a power of two): writes that rotate over
/// a few hundred keys (50 sensors reporting in turn) find theirs there, not in `lookup`.
const RECENT_SLOTS: usize = 256;

#[derive(Debug, Clone)]
pub struct Partition {
    pub hash: u64,
    key_at: u64,
    key_len: u32,
    pub key_type: KeyType,
    /// The next partition whose key has the same hash (a chain that is never longer than one in
    /// practice, kept for correctness).
    next: u32,
    rows: Rows,
    arena: Vec<u8>,
    /// Arena bytes no row refers to any more.
    dead: usize,
    /// Stored bytes: row sizes plus the ledger's per-row overhead.
    pub bytes: u64,
}

impl Partition {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn items(&self) -> u64 {
        self.rows.len() as u64
    }

    /// The row at position `i` (in sort-key order).
    pub fn row(&self, i: usize) -> Row {
        self.rows.get(i)
    }

    /// The rows at positions `range`, in sort-key order.
    pub fn rows_in(&self, range: Range<usize>) -> impl Iterator<Item = Row> + '_ {
        self.rows.range(range)
    }

    pub fn rows(&self) -> &Rows {
        &self.rows
    }

    /// The first position whose row fails `pred`, which must hold for a prefix of the rows (as
    /// `slice::partition_point`).
    pub fn partition_point(&self, pred: impl FnMut(&Row) -> bool) -> usize {
        self.rows.partition_point(pred)
    }

    /// The sort key bytes of a byte-codec row.
    pub fn sk_bytes(&self, row: &Row) -> &[u8] {
        self.arena_key(row.sk)
    }

    fn arena_key(&self, sk: u64) -> &[u8] {
        let at = usize::try_from(sk >> LEN_BITS).expect("arena offsets fit in usize");
        let len = usize::try_from(sk & LEN_MASK).expect("20 bits fit in usize");
        &self.arena[at..at + len]
    }

    /// First position whose key is not below `key` (`Ok` when equal), searched from the newest
    /// rows back (`Rows::search_by`).
    #[expect(
        clippy::inline_always,
        reason = "put and query both search: left to itself the compiler outlines it, and a put pays"
    )]
    #[inline(always)]
    fn search(&self, codec: Codec, key: SortRef<'_>) -> Result<usize, usize> {
        match (codec, key) {
            (Codec::Inline, SortRef::Inline(k)) => self.rows.search_by(|sk| sk.cmp(&k)),
            (Codec::Bytes, SortRef::Bytes(k)) => self.rows.search_by(|sk| self.arena_key(sk).cmp(k)),
            _ => unreachable!("a sort key always comes in its group's codec"),
        }
    }

    /// Position of the first row inside the lower bound.
    fn lower(&self, codec: Codec, bound: Bound<SortRef<'_>>) -> usize {
        match bound {
            Bound::Unbounded => 0,
            Bound::Included(k) => self.search(codec, k).unwrap_or_else(|i| i),
            Bound::Excluded(k) => match self.search(codec, k) {
                Ok(i) => i + 1,
                Err(i) => i,
            },
        }
    }

    /// Position after the last row inside the upper bound.
    fn upper(&self, codec: Codec, bound: Bound<SortRef<'_>>) -> usize {
        match bound {
            Bound::Unbounded => self.rows.len(),
            Bound::Included(k) => match self.search(codec, k) {
                Ok(i) => i + 1,
                Err(i) => i,
            },
            Bound::Excluded(k) => self.search(codec, k).unwrap_or_else(|i| i),
        }
    }

    /// Rows `from` onward (forward) or `from` downward (backward) until `limit` rows or
    /// `page_bytes` (1 MB for DynamoDB): how many were read and their bytes. `end` bounds the
    /// walk (exclusive forward, inclusive lower end backward).
    fn page(
        &self,
        from: usize,
        end: usize,
        forward: bool,
        limit: usize,
        page_bytes: u64,
    ) -> (usize, u64, bool) {
        self.rows.page(from, end, forward, limit, page_bytes)
    }
}

/// What one Query page read: rows `first..first + count` of the partition forward, or
/// `first + 1 - count ..= first` backward.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub first: usize,
    pub count: usize,
    pub bytes: u64,
    /// The page stopped at `Limit` or 1 MB (DynamoDB then returns a LastEvaluatedKey, even when
    /// no row is left).
    pub stopped: bool,
}

impl Page {
    /// Positions read, in reading order.
    pub fn positions(&self, forward: bool) -> impl Iterator<Item = usize> {
        let (first, count) = (self.first, self.count);
        (0..count).map(move |i| if forward { first + i } else { first - i })
    }
}

/// Where a Scan resumes: the next partition in scan order and the row inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScanCursor {
    pub bucket: usize,
    pub slot: usize,
    pub row: usize,
}

/// One Scan page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScanPage {
    pub count: u64,
    pub bytes: u64,
    /// Rows read that match (the callback's answer, or the mark's count).
    pub matched: u64,
    /// Bytes read per hash range of `ranges` (index into it, bytes), in reading order.
    pub by_range: Vec<(usize, u64)>,
    /// Where the next page starts; `None` when the page read to the end of the table.
    pub next: Option<ScanCursor>,
    /// The page stopped at `Limit` or 1 MB (a LastEvaluatedKey comes back).
    pub stopped: bool,
}

/// A callback that says whether a row read matches.
type RowCheck<'a> = &'a mut dyn FnMut(u32, &Row) -> bool;

/// How a Scan page looks at rows.
pub enum ScanMode<'a> {
    /// Every row read goes through the callback, which says whether it matches.
    Visit(&'a mut dyn FnMut(u32, &Row) -> bool),
    /// Buckets and partitions that fit in the page are taken by their totals and the count of
    /// `mark` (none: nothing matches); rows of a partition the page reads in part go through the
    /// callback. Gives the same page boundaries as `Visit`, in O(buckets + pages).
    Totals { mark: Option<usize>, partial: &'a mut dyn FnMut(u32, &Row) -> bool },
}

#[derive(Debug, Clone, Default)]
struct Bucket {
    /// Partitions in (hash, key) order.
    parts: Vec<u32>,
    bytes: u64,
    items: u64,
    marked: Vec<u64>,
}

/// Partitions in scan order, bucketed by the top bits of their hash.
#[derive(Debug, Clone)]
struct ScanIndex {
    shift: u32,
    buckets: Vec<Bucket>,
}

#[derive(Debug, Clone)]
pub struct Ledger {
    codec: Codec,
    /// Bytes each row adds to storage beyond its size (100 for index entries, AWS GSI docs).
    overhead: u64,
    parts: Vec<Partition>,
    lookup: PreHashedMap<u32>,
    key_text: Vec<u8>,
    live: u64,
    items: u64,
    bytes: u64,
    /// Per partition and mark, how many of its rows carry the mark (`marks` per partition).
    marks: usize,
    marked: Vec<u64>,
    scan: Option<ScanIndex>,
    /// The bytes that end a page: DynamoDB's 1 MB; unbounded where pages count rows only (CQL).
    page_bytes: u64,
    /// Partitions found, direct-mapped by the low bits of their hash (`NONE`: empty): a write
    /// looks its key up twice in a row, and writes rotate over a few keys.
    recent: Box<[std::cell::Cell<u32>]>,
}

impl Ledger {
    pub fn new(codec: Codec, overhead: u64) -> Ledger {
        Ledger {
            codec,
            overhead,
            parts: Vec::new(),
            lookup: PreHashedMap::default(),
            key_text: Vec::new(),
            live: 0,
            items: 0,
            bytes: 0,
            marks: 0,
            marked: Vec::new(),
            scan: None,
            page_bytes: PAGE_BYTES,
            recent: vec![std::cell::Cell::new(NONE); RECENT_SLOTS].into_boxed_slice(),
        }
    }

    /// Pages end by rows only from now on (a CQL read's fetch size), not at 1 MB.
    pub fn page_by_rows(&mut self) {
        self.page_bytes = u64::MAX;
    }

    /// Keeps partitions in scan order from now on, with `marks` counters per partition (rows
    /// the caller marks, e.g. those a fixed filter matches).
    pub fn enable_scan(&mut self, marks: usize) {
        self.marks = marks;
        self.marked = vec![0; self.parts.len() * marks];
        self.rebuild_scan(8);
    }

    fn rebuild_scan(&mut self, bits: u32) {
        let shift = 64 - bits;
        let mut buckets = vec![Bucket { marked: vec![0; self.marks], ..Bucket::default() }; 1 << bits];
        let mut order: Vec<u32> =
            (0..u32::try_from(self.parts.len()).expect("partition ids are u32")).collect();
        order.sort_by(|&a, &b| self.scan_order(a, b));
        for p in order {
            let part = &self.parts[p as usize];
            let bucket = &mut buckets[usize::try_from(part.hash >> shift).expect("bucket index fits")];
            bucket.parts.push(p);
            bucket.bytes += part.bytes;
            bucket.items += part.items();
            for k in 0..self.marks {
                bucket.marked[k] += self.marked[p as usize * self.marks + k];
            }
        }
        self.scan = Some(ScanIndex { shift, buckets });
    }

    fn scan_order(&self, a: u32, b: u32) -> std::cmp::Ordering {
        let (pa, pb) = (&self.parts[a as usize], &self.parts[b as usize]);
        pa.hash
            .cmp(&pb.hash)
            .then_with(|| compare_key_text(self.key_of(a), self.key_of(b), pa.key_type == KeyType::N))
    }

    pub fn partitions(&self) -> &[Partition] {
        &self.parts
    }

    pub fn partition(&self, p: u32) -> &Partition {
        &self.parts[p as usize]
    }

    /// The partition key's text (canonical for N, raw bytes for B).
    pub fn key_of(&self, p: u32) -> &[u8] {
        let part = &self.parts[p as usize];
        let at = usize::try_from(part.key_at).expect("key offsets fit in usize");
        &self.key_text[at..at + part.key_len as usize]
    }

    /// Partitions holding at least one row.
    pub fn live_partitions(&self) -> u64 {
        self.live
    }

    pub fn items(&self) -> u64 {
        self.items
    }

    /// Stored bytes: sizes plus the per-row overhead.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn find(&self, key_type: KeyType, key: &[u8], hash: u64) -> Option<u32> {
        #[expect(clippy::cast_possible_truncation, reason = "the low bits pick the slot")]
        let slot = &self.recent[hash as usize & (RECENT_SLOTS - 1)];
        let seen = slot.get();
        if seen != NONE {
            let part = &self.parts[seen as usize];
            if part.hash == hash && part.key_type == key_type && self.key_of(seen) == key {
                return Some(seen);
            }
        }
        let mut p = *self.lookup.get(&hash)?;
        while p != NONE {
            let part = &self.parts[p as usize];
            if part.key_type == key_type && self.key_of(p) == key {
                slot.set(p);
                return Some(p);
            }
            p = part.next;
        }
        None
    }

    /// The partition with this key, created empty if new.
    pub fn intern(&mut self, key_type: KeyType, key: &[u8], hash: u64) -> u32 {
        if let Some(p) = self.find(key_type, key, hash) {
            return p;
        }
        let p = u32::try_from(self.parts.len()).expect("fewer than 2^32 partitions");
        let head = self.lookup.insert(hash, p).unwrap_or(NONE);
        let key_at = self.key_text.len() as u64;
        self.key_text.extend_from_slice(key);
        self.parts.push(Partition {
            hash,
            key_at,
            key_len: u32::try_from(key.len()).expect("keys are at most 2048 bytes"),
            key_type,
            next: head,
            rows: Rows::default(),
            arena: Vec::new(),
            dead: 0,
            bytes: 0,
        });
        self.marked.extend(std::iter::repeat_n(0, self.marks));
        if let Some(scan) = &self.scan {
            let bits = 64 - scan.shift;
            if self.parts.len() > 64 << bits && bits < 24 {
                self.rebuild_scan(bits + 1);
            } else {
                let bucket = usize::try_from(hash >> scan.shift).expect("bucket index fits");
                let parts = &self.scan.as_ref().expect("checked above").buckets[bucket].parts;
                let at = parts.partition_point(|&q| self.scan_order(q, p) == std::cmp::Ordering::Less);
                self.scan.as_mut().expect("checked above").buckets[bucket].parts.insert(at, p);
            }
        }
        p
    }

    pub fn get(&self, p: u32, sk: SortRef<'_>) -> Option<Row> {
        let part = &self.parts[p as usize];
        part.search(self.codec, sk).ok().map(|i| part.rows.get(i))
    }

    /// Keeps the totals after partition `p` went from `before` rows to its current count and
    /// changed by `items` rows and `bytes` stored bytes.
    fn account(&mut self, p: u32, before: usize, items: i64, bytes: i64) {
        let part = &mut self.parts[p as usize];
        part.bytes = part.bytes.wrapping_add_signed(bytes);
        match (before == 0, part.rows.is_empty()) {
            (true, false) => self.live += 1,
            (false, true) => self.live -= 1,
            _ => {}
        }
        self.items = self.items.wrapping_add_signed(items);
        self.bytes = self.bytes.wrapping_add_signed(bytes);
        if let Some(scan) = &mut self.scan {
            let bucket =
                &mut scan.buckets[usize::try_from(part.hash >> scan.shift).expect("bucket index fits")];
            bucket.items = bucket.items.wrapping_add_signed(items);
            bucket.bytes = bucket.bytes.wrapping_add_signed(bytes);
        }
    }

    fn stored(&self, size: u32) -> i64 {
        i64::from(size) + i64::try_from(self.overhead).expect("overhead is small")
    }

    /// Writes a row; returns the row it replaced (same key).
    pub fn put(&mut self, p: u32, sk: SortRef<'_>, size: u32, id: u32) -> Option<Row> {
        let codec = self.codec;
        let part = &mut self.parts[p as usize];
        let before = part.rows.len();
        // A key above its partition's last goes on the end unsearched: nearly every put of a
        // time-ordered key (a reading), whose search and general insert were 4% of a put.
        if let SortRef::Inline(k) = sk
            && part.rows.append_above(Row { sk: k, size, id }, |last| last < k)
        {
            let stored = self.stored(size);
            self.account(p, before, 1, stored);
            return None;
        }
        match part.search(codec, sk) {
            Ok(i) => {
                let old = part.rows.set(i, size, id);
                let delta = i64::from(size) - i64::from(old.size);
                self.account(p, before, 0, delta);
                Some(old)
            }
            Err(i) => {
                let key = match sk {
                    SortRef::Inline(v) => v,
                    SortRef::Bytes(bytes) => {
                        let at = part.arena.len() as u64;
                        part.arena.extend_from_slice(bytes);
                        let len = u64::try_from(bytes.len()).expect("len fits");
                        assert!(len <= LEN_MASK, "sort keys are far below 1 MB");
                        (at << LEN_BITS) | len
                    }
                };
                part.rows.insert(i, Row { sk: key, size, id });
                let stored = self.stored(size);
                self.account(p, before, 1, stored);
                None
            }
        }
    }

    /// Removes the row with this key; returns it.
    pub fn remove(&mut self, p: u32, sk: SortRef<'_>) -> Option<Row> {
        let codec = self.codec;
        let part = &mut self.parts[p as usize];
        let before = part.rows.len();
        let i = part.search(codec, sk).ok()?;
        let old = part.rows.remove(i);
        if codec == Codec::Bytes {
            part.dead += usize::try_from(old.sk & LEN_MASK).expect("len fits");
            if part.dead > 4096 && part.dead * 2 > part.arena.len() {
                compact(part);
            }
        }
        let stored = self.stored(old.size);
        self.account(p, before, -1, -stored);
        Some(old)
    }

    /// Rows of a Query page: in `lo..hi`, forward from the start of the range or after position
    /// `after` (backward from the end or before `after`), stopping after `limit` rows or 1 MB
    /// (the row that crosses 1 MB included), as `store::read` pages; by rows only after
    /// [`Ledger::page_by_rows`]. The simulator reads a Query's pages through `window` and
    /// `page_in`; this one-page form is what the tests hold to the store.
    #[cfg(test)]
    pub fn query(
        &self,
        p: u32,
        lo: Bound<SortRef<'_>>,
        hi: Bound<SortRef<'_>>,
        forward: bool,
        limit: usize,
        after: Option<usize>,
    ) -> Page {
        self.page_in(p, self.window(p, lo, hi), forward, limit, after)
    }

    /// The positions of partition `p`'s rows inside `lo..hi`: what every page of one Query
    /// reads within, so a Query of many pages searches its key range once.
    pub fn window(&self, p: u32, lo: Bound<SortRef<'_>>, hi: Bound<SortRef<'_>>) -> Range<usize> {
        let part = &self.parts[p as usize];
        part.lower(self.codec, lo)..part.upper(self.codec, hi)
    }

    /// `query`'s page for the rows `window` (`Ledger::window`) of partition `p`.
    pub fn page_in(
        &self,
        p: u32,
        window: Range<usize>,
        forward: bool,
        limit: usize,
        after: Option<usize>,
    ) -> Page {
        let part = &self.parts[p as usize];
        let Range { mut start, mut end } = window;
        if let Some(after) = after {
            if forward {
                start = start.max(after + 1);
            } else {
                end = end.min(after);
            }
        }
        if start >= end || limit == 0 {
            return Page { first: start, count: 0, bytes: 0, stopped: false };
        }
        let first = if forward { start } else { end - 1 };
        let bound = if forward { end } else { start };
        let (count, bytes, stopped) = part.page(first, bound, forward, limit, self.page_bytes);
        Page { first, count, bytes, stopped }
    }

    /// The partitions placed in `first..=last` whose key starts with `prefix`, in scan order
    /// (what a query on a hierarchical key's prefix reads): through the scan index's buckets
    /// over the range when the ledger keeps one, else by a look at every partition.
    pub fn partitions_in(&self, (first, last): (u64, u64), prefix: &[u8]) -> Vec<u32> {
        let keep = |p: u32| {
            (first..=last).contains(&self.parts[p as usize].hash) && self.key_of(p).starts_with(prefix)
        };
        if let Some(scan) = &self.scan {
            let bucket = |hash: u64| usize::try_from(hash >> scan.shift).expect("bucket index fits");
            return scan.buckets[bucket(first)..=bucket(last)]
                .iter()
                .flat_map(|b| b.parts.iter().copied())
                .filter(|&p| keep(p))
                .collect();
        }
        let count = u32::try_from(self.parts.len()).expect("partition ids are u32");
        let mut found: Vec<u32> = (0..count).filter(|&p| keep(p)).collect();
        found.sort_by(|&a, &b| self.scan_order(a, b));
        found
    }

    /// Adds `delta` to mark `k` of partition `p` (a row gained or lost the mark).
    pub fn mark(&mut self, p: u32, k: usize, delta: i64) {
        let at = p as usize * self.marks + k;
        self.marked[at] = self.marked[at].wrapping_add_signed(delta);
        if let Some(scan) = &mut self.scan {
            let hash = self.parts[p as usize].hash;
            let bucket = &mut scan.buckets[usize::try_from(hash >> scan.shift).expect("bucket index fits")];
            bucket.marked[k] = bucket.marked[k].wrapping_add_signed(delta);
        }
    }

    /// One Scan page from `from`: rows in (hash, key, sort key) order until `limit` rows or 1 MB
    /// (rows only after [`Ledger::page_by_rows`]).
    /// `ranges` are the sorted start hashes of the physical partitions (the first is 0); bytes
    /// are reported per range. Requires `enable_scan`.
    pub fn scan_page(&self, from: ScanCursor, limit: u64, ranges: &[u64], mode: ScanMode<'_>) -> ScanPage {
        let scan = self.scan.as_ref().expect("scan pages need enable_scan");
        let (visit_all, mark, callback): (bool, Option<usize>, RowCheck<'_>) = match mode {
            ScanMode::Visit(f) => (true, None, f),
            ScanMode::Totals { mark, partial } => (false, mark, partial),
        };
        let mut page = ScanPage::default();
        let range_of = |hash: u64| ranges.partition_point(|&start| start <= hash).max(1) - 1;
        let charge = |page: &mut ScanPage, range: usize, bytes: u64| {
            if bytes == 0 {
                return;
            }
            match page.by_range.last_mut() {
                Some((r, b)) if *r == range => *b += bytes,
                _ => page.by_range.push((range, bytes)),
            }
        };
        let mut cursor = from;
        while cursor.bucket < scan.buckets.len() {
            let bucket = &scan.buckets[cursor.bucket];
            let first = bucket_start(cursor.bucket, scan.shift);
            let last = bucket_start(cursor.bucket + 1, scan.shift).wrapping_sub(1);
            let one_range = range_of(first) == range_of(last);
            let whole = cursor.slot == 0 && cursor.row == 0 && !visit_all && one_range;
            let stored = bucket.bytes - self.overhead * bucket.items;
            if whole && page.count + bucket.items < limit && page.bytes + stored < self.page_bytes {
                page.count += bucket.items;
                page.bytes += stored;
                page.matched += mark.map_or(0, |k| bucket.marked[k]);
                charge(&mut page, range_of(first), stored);
                cursor = ScanCursor { bucket: cursor.bucket + 1, slot: 0, row: 0 };
                continue;
            }
            while cursor.slot < bucket.parts.len() {
                let p = bucket.parts[cursor.slot];
                let part = &self.parts[p as usize];
                let range = range_of(part.hash);
                let stored = part.bytes - self.overhead * part.items();
                let take_whole = cursor.row == 0
                    && !visit_all
                    && page.count + part.items() < limit
                    && page.bytes + stored < self.page_bytes;
                if take_whole {
                    page.count += part.items();
                    page.bytes += stored;
                    page.matched += mark.map_or(0, |k| self.marked[p as usize * self.marks + k]);
                    charge(&mut page, range, stored);
                } else {
                    for row in part.rows.range(cursor.row..part.len()) {
                        page.count += 1;
                        page.bytes += u64::from(row.size);
                        charge(&mut page, range, u64::from(row.size));
                        if callback(p, &row) {
                            page.matched += 1;
                        }
                        cursor.row += 1;
                        if page.count >= limit || page.bytes >= self.page_bytes {
                            page.stopped = true;
                            if cursor.row == part.rows.len() {
                                cursor.row = 0;
                                cursor.slot += 1;
                            }
                            page.next = Some(normalize(cursor, &scan.buckets));
                            return page;
                        }
                    }
                }
                cursor.slot += 1;
                cursor.row = 0;
            }
            cursor = ScanCursor { bucket: cursor.bucket + 1, slot: 0, row: 0 };
        }
        page
    }
}

/// The first hash of bucket `b` (wrapping to 0 past the last bucket).
fn bucket_start(b: usize, shift: u32) -> u64 {
    (b as u64).checked_shl(shift).unwrap_or(0)
}

/// Moves a cursor past the end of its bucket to the next bucket's start.
fn normalize(mut cursor: ScanCursor, buckets: &[Bucket]) -> ScanCursor {
    while cursor.bucket < buckets.len() && cursor.slot >= buckets[cursor.bucket].parts.len() {
        cursor = ScanCursor { bucket: cursor.bucket + 1, slot: 0, row: 0 };
    }
    cursor
}

/// Rewrites a partition's arena with only the bytes its rows refer to.
fn compact(part: &mut Partition) {
    let mut arena = Vec::with_capacity(part.arena.len() - part.dead);
    let rows = part
        .rows
        .iter()
        .map(|row| {
            let key = part.sk_bytes(&row);
            let at = arena.len() as u64;
            arena.extend_from_slice(key);
            Row { sk: (at << LEN_BITS) | key.len() as u64, ..row }
        })
        .collect();
    part.rows = rows;
    part.arena = arena;
    part.dead = 0;
}

mod rows;
#[cfg(test)]
mod tests;
