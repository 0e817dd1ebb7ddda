//! A sharded MongoDB collection as the replay keeps it: every shard-key value's documents and
//! bytes, the ranges (chunks) of values each shard owns, and what each shard took. Writes to the
//! collection land on the shard owning their key's range; every balancing round moves ranges
//! from the shards with the most data to those with the least. The rules (threshold, how much
//! moves, jumbo, the hashed start) are `profile::sharding`'s, with their sources; this module
//! only keeps the books and must not decide a rule of its own.

use std::collections::BTreeMap;
use std::ops::Bound::{Excluded, Included, Unbounded};

use super::keys::push_number;
use super::report::{ShardReport, ShardsReport};
use super::table::PartKey;
use crate::engine::model::Sharding;
use crate::engine::profile::sharding::{self, Given, Piece, Route, Strategy};
use crate::engine::value::KeyType;

/// One shard-key value's documents and bytes.
#[derive(Debug, Clone, Copy, Default)]
struct Value {
    docs: u64,
    bytes: u64,
}

/// A range of shard-key values from its lower bound (the map's key) to the next range's.
#[derive(Debug, Clone, Copy)]
struct Chunk {
    shard: usize,
    /// The balancer found it past the range size with one value: it cannot split or move.
    jumbo: bool,
}

/// What one shard holds and took.
#[derive(Debug, Clone, Copy, Default)]
struct Shard {
    docs: u64,
    bytes: u64,
    inserts: u64,
    updates: u64,
    /// Writes (inserts and updates) in the open tick, and the most in one tick.
    tick_writes: u64,
    peak_tick_writes: u64,
    /// Read requests it served: those routed to it alone and every broadcast one.
    reads: u64,
}

/// What a read gives of the shard key's value, worked out by the replay from the values the
/// read knows (`exec::read`), whatever path serves it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum KeyGiven {
    /// The whole key: the partition key the collection files the documents under.
    Whole(PartKey),
    /// The text of the key's leading fields and the literal text after them (`US#` of
    /// `{country}#{created_at}`): every value it starts with is asked.
    Prefix(Vec<u8>),
    #[default]
    Nothing,
}

impl KeyGiven {
    fn given(&self) -> Given {
        match self {
            KeyGiven::Whole(_) => Given::Whole,
            KeyGiven::Prefix(_) => Given::Prefix,
            KeyGiven::Nothing => Given::Nothing,
        }
    }
}

/// The sharded collection.
#[derive(Debug)]
pub struct Cluster {
    /// The collection's table in the replay, and its entity (whose values a read's are).
    pub table: usize,
    pub entity: usize,
    collection: String,
    key: String,
    strategy: Strategy,
    range_bytes: u64,
    values: BTreeMap<Vec<u8>, Value>,
    /// Ranges by lower bound; the first's is empty, below every key (MinKey).
    chunks: BTreeMap<Vec<u8>, Chunk>,
    shards: Vec<Shard>,
    round_ms: u64,
    next_round_ms: u64,
    migrations: u64,
    migrated_bytes: u64,
    /// Read requests routed to the shards owning their shard-key value or prefix (of them,
    /// those that gave a prefix), and those sent to every shard.
    targeted_reads: u64,
    prefix_reads: u64,
    broadcast_reads: u64,
}

impl Cluster {
    /// The collection as sharding an empty one makes it ("Data Partitioning with Chunks"): one
    /// range of every value on the first shard for a ranged key, two ranges per shard over the
    /// hash space for a hashed one.
    pub fn new(s: &Sharding, table: usize, key: String, start_ms: u64) -> Cluster {
        let chunks = match s.strategy {
            Strategy::Ranged => BTreeMap::from([(Vec::new(), Chunk { shard: 0, jumbo: false })]),
            Strategy::Hashed => sharding::hashed_chunks(s.shards)
                .into_iter()
                .map(|(bound, shard)| {
                    // The first bound is 0: below every hash, as MinKey.
                    let lower = if bound == 0 { Vec::new() } else { bound.to_be_bytes().to_vec() };
                    (lower, Chunk { shard: shard as usize, jumbo: false })
                })
                .collect(),
        };
        let round_ms = u64::try_from(sharding::BALANCER_ROUND_SECS * 1000).unwrap_or(u64::MAX);
        Cluster {
            table,
            entity: s.entity_id.index(),
            collection: s.entity.clone(),
            key,
            strategy: s.strategy,
            range_bytes: s.range_bytes,
            values: BTreeMap::new(),
            chunks,
            shards: vec![Shard::default(); s.shards as usize],
            round_ms,
            next_round_ms: start_ms + round_ms,
            migrations: 0,
            migrated_bytes: 0,
            targeted_reads: 0,
            prefix_reads: 0,
            broadcast_reads: 0,
        }
    }

    /// A read request on the collection that gives `key` of the shard key: sent to the shards
    /// `profile::sharding::route` names — the one owning the value's range, those owning a
    /// prefix's ranges, or every shard.
    pub fn read(&mut self, key: &KeyGiven) {
        match (sharding::route(self.strategy, key.given()), key) {
            (Route::Owner, KeyGiven::Whole(pk)) => self.read_key(pk),
            (Route::PrefixOwners, KeyGiven::Prefix(prefix)) => {
                for shard in self.prefix_owners(prefix) {
                    self.shards[shard].reads += 1;
                }
                self.targeted_reads += 1;
                self.prefix_reads += 1;
            }
            _ => {
                for s in &mut self.shards {
                    s.reads += 1;
                }
                self.broadcast_reads += 1;
            }
        }
    }

    /// A read request that names the shard key's value `pk` (a read of the collection's own
    /// key): sent to the one shard owning its range.
    pub fn read_key(&mut self, pk: &PartKey) {
        let shard = self.owner(&self.key_bytes(pk));
        self.shards[shard].reads += 1;
        self.targeted_reads += 1;
    }

    /// The shards owning a range that may hold a value starting with `prefix` (a ranged key's
    /// text): the range holding `prefix` itself and every range starting before the first text
    /// past all of its values. Each shard once, in order.
    fn prefix_owners(&self, prefix: &[u8]) -> Vec<usize> {
        let end = successor(prefix);
        let mut owners = vec![self.owner(prefix)];
        for (lower, chunk) in self.chunks.range::<[u8], _>((Excluded(prefix), Unbounded)) {
            if end.as_deref().is_some_and(|end| lower.as_slice() >= end) {
                break;
            }
            owners.push(chunk.shard);
        }
        owners.sort_unstable();
        owners.dedup();
        owners
    }

    /// The bytes a document's partition key sorts by: its hash (big-endian, so byte order is
    /// hash order; keyheat's 64-bit hash, not MongoDB's md5-based one), or its value in the
    /// key's own order (numbers numerically, strings and binary by their bytes).
    fn key_bytes(&self, pk: &PartKey) -> Vec<u8> {
        match (self.strategy, pk.key_type) {
            (Strategy::Hashed, _) => pk.hash.to_be_bytes().to_vec(),
            (Strategy::Ranged, KeyType::N) => {
                let mut out = Vec::new();
                push_number(&String::from_utf8_lossy(&pk.text), &mut out);
                out
            }
            (Strategy::Ranged, _) => pk.text.clone(),
        }
    }

    /// The range holding `key`: the last whose lower bound is at most it.
    fn owner(&self, key: &[u8]) -> usize {
        self.chunks.range::<[u8], _>((Unbounded, Included(key))).next_back().map_or(0, |(_, c)| c.shard)
    }

    /// A write of the document at `pk` that replaced `old` bytes (`None`: none) with `new`
    /// (`None`: a delete); `counted`: a write of the workload (not the preload or a TTL delete).
    pub fn write(&mut self, pk: &PartKey, old: Option<u32>, new: Option<u32>, counted: bool) {
        let key = self.key_bytes(pk);
        let shard = self.owner(&key);
        let (old_bytes, new_bytes) = (old.map_or(0, u64::from), new.map_or(0, u64::from));
        let docs_in = u64::from(new.is_some());
        let docs_out = u64::from(old.is_some());
        let value = self.values.entry(key).or_default();
        value.docs = (value.docs + docs_in).saturating_sub(docs_out);
        value.bytes = (value.bytes + new_bytes).saturating_sub(old_bytes);
        if value.docs == 0 {
            let key = self.key_bytes(pk);
            self.values.remove(&key);
        }
        let s = &mut self.shards[shard];
        s.docs = (s.docs + docs_in).saturating_sub(docs_out);
        s.bytes = (s.bytes + new_bytes).saturating_sub(old_bytes);
        if counted && new.is_some() {
            if old.is_some() {
                s.updates += 1;
            } else {
                s.inserts += 1;
            }
            s.tick_writes += 1;
        }
    }

    /// Closes a tick that ended at `now_ms`: each shard's writes in it, then the balancing
    /// rounds due by then.
    pub fn end_tick(&mut self, now_ms: u64) {
        for s in &mut self.shards {
            s.peak_tick_writes = s.peak_tick_writes.max(s.tick_writes);
            s.tick_writes = 0;
        }
        while self.next_round_ms <= now_ms {
            self.round();
            self.next_round_ms += self.round_ms;
        }
    }

    /// One balancing round: each pair `round_pairs` names moves one range.
    fn round(&mut self) {
        let bytes: Vec<u64> = self.shards.iter().map(|s| s.bytes).collect();
        for (donor, recipient) in sharding::round_pairs(&bytes, self.range_bytes) {
            self.migrate(donor, recipient);
        }
    }

    /// Moves at most one range size off the donor's first movable range (keyheat's choice of
    /// range), splitting it after the values moved; a range whose first value alone is past
    /// the range size gets that value's range split off and marked jumbo, and the next range
    /// is tried.
    fn migrate(&mut self, donor: usize, recipient: usize) {
        let mut from: Option<Vec<u8>> = Some(Vec::new());
        while let Some(start) = from.take() {
            let Some((lower, upper)) = self.next_range(donor, &start) else { return };
            let values = self.values_in(&lower, upper.as_deref());
            match sharding::piece(values.iter().map(|(_, v)| v.bytes), self.range_bytes) {
                Piece::Empty => from = upper,
                Piece::Jumbo { .. } => {
                    // The first value's range becomes a chunk of its own, jumbo; the rest (from
                    // the next value) a new range on the same shard.
                    if let Some(chunk) = self.chunks.get_mut(&lower) {
                        chunk.jumbo = true;
                    }
                    if let Some((next, _)) = values.get(1) {
                        self.chunks.insert(next.clone(), Chunk { shard: donor, jumbo: false });
                        from = Some(next.clone());
                    } else {
                        from = upper;
                    }
                }
                Piece::Whole { .. } => {
                    self.move_range(&lower, &values, donor, recipient);
                    return;
                }
                Piece::Prefix { values: n, .. } => {
                    let split = values[n].0.clone();
                    self.chunks.insert(split, Chunk { shard: donor, jumbo: false });
                    self.move_range(&lower, &values[..n], donor, recipient);
                    return;
                }
            }
        }
    }

    /// The donor's first range at or after `start` that is not jumbo: its lower and upper
    /// bounds (`None`: MaxKey).
    fn next_range(&self, donor: usize, start: &[u8]) -> Option<(Vec<u8>, Option<Vec<u8>>)> {
        let mut ranges = self.chunks.range::<[u8], _>((Included(start), Unbounded)).peekable();
        while let Some((lower, chunk)) = ranges.next() {
            if chunk.shard == donor && !chunk.jumbo {
                return Some((lower.clone(), ranges.peek().map(|(upper, _)| (*upper).clone())));
            }
        }
        None
    }

    /// The values from `lower` up to `upper`, in key order, as far as the balancer needs to
    /// look: one past a range size.
    fn values_in(&self, lower: &[u8], upper: Option<&[u8]>) -> Vec<(Vec<u8>, Value)> {
        let mut out = Vec::new();
        let mut bytes = 0u64;
        for (key, value) in self.values.range::<[u8], _>((Included(lower), Unbounded)) {
            if upper.is_some_and(|u| key.as_slice() >= u) {
                break;
            }
            out.push((key.clone(), *value));
            bytes = bytes.saturating_add(value.bytes);
            if bytes > self.range_bytes && out.len() >= 2 {
                break;
            }
        }
        out
    }

    fn move_range(&mut self, lower: &[u8], values: &[(Vec<u8>, Value)], donor: usize, recipient: usize) {
        if let Some(chunk) = self.chunks.get_mut(lower) {
            chunk.shard = recipient;
        }
        let (docs, bytes) = values.iter().fold((0, 0), |(d, b), (_, v)| (d + v.docs, b + v.bytes));
        let d = &mut self.shards[donor];
        d.docs -= docs.min(d.docs);
        d.bytes -= bytes.min(d.bytes);
        let r = &mut self.shards[recipient];
        r.docs += docs;
        r.bytes += bytes;
        self.migrations += 1;
        self.migrated_bytes += bytes;
    }

    /// What the run did to the collection's shards.
    pub fn report(&self) -> ShardsReport {
        let mut ranges = vec![0u64; self.shards.len()];
        let mut jumbo = vec![0u64; self.shards.len()];
        for chunk in self.chunks.values() {
            ranges[chunk.shard] += 1;
            jumbo[chunk.shard] += u64::from(chunk.jumbo);
        }
        let writes: u64 = self.shards.iter().map(|s| s.inserts + s.updates).sum();
        let inserts: u64 = self.shards.iter().map(|s| s.inserts).sum();
        let reads: u64 = self.shards.iter().map(|s| s.reads).sum();
        let share = |n: u64, of: u64| if of == 0 { 0.0 } else { n as f64 / of as f64 };
        let shards: Vec<ShardReport> = self
            .shards
            .iter()
            .enumerate()
            .map(|(i, s)| ShardReport {
                shard: format!("shard{i}"),
                documents: s.docs,
                bytes: s.bytes,
                inserts: s.inserts,
                updates: s.updates,
                share_of_writes: share(s.inserts + s.updates, writes),
                share_of_inserts: share(s.inserts, inserts),
                reads: s.reads,
                share_of_reads: share(s.reads, reads),
                peak_writes_per_tick: s.peak_tick_writes,
                ranges: ranges[i],
                jumbo_ranges: jumbo[i],
            })
            .collect();
        let hottest = shards.iter().map(|s| s.share_of_inserts).fold(0.0, f64::max);
        ShardsReport {
            collection: self.collection.clone(),
            shard_key: self.key.clone(),
            strategy: self.strategy.id().to_owned(),
            range_bytes: self.range_bytes,
            migration_threshold_bytes: sharding::threshold_bytes(self.range_bytes),
            balancer_round_s: sharding::BALANCER_ROUND_SECS,
            ranges: ranges.iter().sum(),
            jumbo_ranges: jumbo.iter().sum(),
            inserts,
            hottest_share_of_inserts: hottest,
            targeted_reads: self.targeted_reads,
            prefix_reads: self.prefix_reads,
            broadcast_reads: self.broadcast_reads,
            hottest_share_of_reads: shards.iter().map(|s| s.share_of_reads).fold(0.0, f64::max),
            migrations: self.migrations,
            migrated_bytes: self.migrated_bytes,
            shards,
        }
    }
}

/// The first byte string after every one starting with `prefix` (`None`: there is none, the
/// prefix is empty or all 0xFF).
fn successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::EntityId;

    const MB: u32 = 1 << 20;

    fn cluster(strategy: Strategy, shards: u32) -> Cluster {
        let s = Sharding {
            entity: "Order".to_owned(),
            entity_id: EntityId::new(0),
            shards,
            strategy,
            range_bytes: u64::from(MB),
        };
        Cluster::new(&s, 0, "{k}".to_owned(), 0)
    }

    fn pk(text: &str) -> PartKey {
        PartKey {
            key_type: KeyType::S,
            text: text.as_bytes().to_vec(),
            hash: crate::engine::hash::hash_bytes(text.as_bytes()),
        }
    }

    /// "Choose a Shard Key": an increasing ranged key sends every insert to the range ending at
    /// MaxKey, which the balancer leaves on its shard while it moves the lower ranges away.
    #[test]
    fn an_increasing_ranged_key_inserts_on_one_shard_while_the_balancer_moves_the_rest() {
        let mut c = cluster(Strategy::Ranged, 3);
        for i in 0..4000u32 {
            c.write(&pk(&format!("{i:08}")), None, Some(4096), true);
            if i % 100 == 99 {
                c.end_tick(u64::from(i / 100 + 1) * 10_000);
            }
        }
        let r = c.report();
        assert_eq!(r.shards[0].inserts, 4000);
        assert!((r.hottest_share_of_inserts - 1.0).abs() < 1e-12);
        // 16 MB in 1 MB moves: the other two shards got data, never an insert.
        assert!(r.migrations > 0 && r.shards[1].bytes > 0 && r.shards[2].bytes > 0, "{r:?}");
        assert_eq!(r.jumbo_ranges, 0);
        let total: u64 = r.shards.iter().map(|s| s.bytes).sum();
        assert_eq!(total, 4000 * 4096);
    }

    /// "Hashed Sharding": the same keys hashed spread their inserts evenly.
    #[test]
    fn a_hashed_key_spreads_inserts() {
        let mut c = cluster(Strategy::Hashed, 3);
        for i in 0..30_000u32 {
            c.write(&pk(&format!("{i:08}")), None, Some(100), true);
        }
        let r = c.report();
        for s in &r.shards {
            assert!((s.share_of_inserts - 1.0 / 3.0).abs() < 0.03, "{s:?}");
        }
    }

    /// "Sharded Cluster Query Routing": a read that gives the shard key's value goes to the
    /// shard owning it, whatever serves it; one that gives none of it, or only a prefix of a
    /// hashed key's value, goes to every shard.
    #[test]
    fn a_read_giving_the_shard_key_is_targeted_and_any_other_is_broadcast() {
        let mut c = cluster(Strategy::Hashed, 4);
        let keys: Vec<PartKey> = (0..400u32).map(|i| pk(&format!("{i:08}"))).collect();
        for k in &keys {
            c.write(k, None, Some(100), true);
        }
        for k in &keys {
            c.read(&KeyGiven::Whole(k.clone()));
        }
        let r = c.report();
        assert_eq!((r.targeted_reads, r.broadcast_reads), (400, 0));
        // Each targeted read lands where its document was inserted.
        for s in &r.shards {
            assert_eq!(s.reads, s.inserts, "{s:?}");
        }
        c.read(&KeyGiven::Prefix(b"0000".to_vec()));
        c.read(&KeyGiven::Nothing);
        let after = c.report();
        assert_eq!((after.targeted_reads, after.prefix_reads, after.broadcast_reads), (400, 0, 2));
        for (before, now) in r.shards.iter().zip(&after.shards) {
            assert_eq!(now.reads, before.reads + 2, "every shard serves a broadcast read");
        }
        let shares: f64 = after.shards.iter().map(|s| s.share_of_reads).sum();
        assert!((shares - 1.0).abs() < 1e-12);
    }

    /// "Sharded Cluster Query Routing": a prefix of a compound ranged key goes to the shards
    /// owning that prefix's ranges, not to every shard.
    #[test]
    fn a_prefix_of_a_ranged_key_goes_to_the_shards_owning_its_ranges() {
        let mut c = cluster(Strategy::Ranged, 3);
        // 3 MB under each of three countries, in key order: the balancer moves the lower
        // ranges off shard0, a range size at a time.
        for country in ["DE", "FR", "US"] {
            for i in 0..768u32 {
                c.write(&pk(&format!("{country}#{i:06}")), None, Some(4096), true);
            }
        }
        for round in 1..=6u64 {
            c.end_tick(round * 10_000);
        }
        let owners = |c: &Cluster, prefix: &str| c.prefix_owners(prefix.as_bytes());
        let (de, us) = (owners(&c, "DE#"), owners(&c, "US#"));
        // Five 1 MB moves (the sixth round finds shard0's 4 MB within 3 MB of shard1's 2 MB):
        // DE's three ranges to shard2, shard1, shard2, then FR's first two; US stays.
        assert_eq!(c.report().migrations, 5, "{:?}", c.report());
        assert_eq!((de.as_slice(), us.as_slice()), ([1, 2].as_slice(), [0].as_slice()));
        // The whole key's owner is among its prefix's owners.
        let one = c.owner(&c.key_bytes(&pk("DE#000007")));
        assert!(de.contains(&one), "{de:?} lacks {one}");
        let before = c.report();
        c.read(&KeyGiven::Prefix(b"DE#".to_vec()));
        let after = c.report();
        assert_eq!((after.targeted_reads, after.prefix_reads, after.broadcast_reads), (1, 1, 0));
        for (i, (b, a)) in before.shards.iter().zip(&after.shards).enumerate() {
            assert_eq!(a.reads - b.reads, u64::from(de.contains(&i)), "shard{i}");
        }
        // A prefix past every key, and the empty one, still name the shard of the last range
        // and every shard.
        assert_eq!(owners(&c, "ZZ#").len(), 1);
        assert_eq!(owners(&c, ""), [0, 1, 2]);
    }

    #[test]
    fn a_successor_follows_every_text_with_the_prefix() {
        let cases: [(&[u8], Option<&[u8]>); 4] =
            [(b"US#", Some(b"US$")), (b"a\xff", Some(b"b")), (b"\xff\xff", None), (b"", None)];
        for (prefix, expected) in cases {
            assert_eq!(successor(prefix).as_deref(), expected, "{prefix:?}");
        }
    }

    /// "Clear jumbo Flag": a value past the range size cannot split; the balancer marks its
    /// range jumbo and moves nothing of it.
    #[test]
    fn a_low_cardinality_key_leaves_jumbo_ranges_on_one_shard() {
        let mut c = cluster(Strategy::Ranged, 2);
        for i in 0..3000u32 {
            c.write(&pk(["DE", "FR", "US"][(i % 3) as usize]), None, Some(4096), true);
        }
        c.end_tick(10_000);
        c.end_tick(20_000);
        let r = c.report();
        assert_eq!(r.jumbo_ranges, 3, "{r:?}");
        assert_eq!(r.migrations, 0);
        assert_eq!(r.shards[0].documents, 3000);
        // An update changes the bytes of its value, not the documents.
        c.write(&pk("DE"), Some(4096), Some(5000), true);
        assert_eq!(c.report().shards[0].updates, 1);
        assert_eq!(c.report().shards[0].bytes, 3000 * 4096 + 904);
    }
}
