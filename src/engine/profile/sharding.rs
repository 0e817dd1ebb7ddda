//! MongoDB's rules for a sharded collection (7.0 and 8.0): where a document goes by its shard key,
//! when the balancer moves data between shards, how much it moves at once, and which ranges it
//! cannot move (jumbo). The replay's bookkeeping of ranges and shards is `sim::shards`; the rules
//! it follows are here, each with its source, and the ones that are keyheat's assumptions say so.
//!
//! Sources (MongoDB manual, mongodb.com/docs/manual/…):
//! - "Data Partitioning with Chunks" (core/sharding-data-partitioning/): a chunk is a range of
//!   shard-key values, its lower bound inclusive and its upper bound exclusive; "the smallest
//!   unit of data a chunk can represent is a single unique shard key value". Sharding a
//!   collection by a ranged key creates one chunk covering every value; for a hashed key it
//!   creates empty chunks covering the whole range of hashed values, by default two per shard,
//!   and distributes them. After that the balancer "moves ranges off" a chunk when it needs to
//!   balance data.
//! - "Modify Range Size in a Sharded Cluster" (tutorial/modify-chunk-size-in-sharded-cluster/):
//!   the default range size is 128 megabytes, allowed between 1 and 1024 megabytes; "Starting
//!   in MongoDB 6.0.3, automatic chunk splitting is not performed" (the auto-splitting commands
//!   still exist and do nothing). So a range is split only when the balancer moves part of it,
//!   and a chunk may hold far more than the range size (MongoDB's sharding product manager on
//!   the community forum, "Chunk size many times bigger than configure chunksize": since 6.0.3
//!   "we balance by data size instead of the number of chunks. So the 128MB is now only the size
//!   of data we migrate at-a-time").
//! - "Sharded Cluster Balancer" (core/sharding-balancer-administration/), Migration Thresholds:
//!   a balancing round starts only when the difference in data between the shard with the most
//!   and the one with the least of a collection reaches the threshold; a shard takes part in at
//!   most one migration at a time, so n shards run at most n/2 migrations at once. The
//!   threshold is three times the collection's range size, 384 MB at the default (MongoDB
//!   DOCS-15792, jira.mongodb.org/browse/DOCS-15792, "The migration threshold for 6.0 is 3x the
//!   configured chunk size ... two shards must have a data size difference for a given
//!   collection of at least 384MB for a migration to occur").
//! - "Clear jumbo Flag" (tutorial/clear-jumbo-flag/): "If MongoDB cannot split a chunk that
//!   exceeds the specified range size, MongoDB labels the chunk as jumbo", for example "a chunk
//!   with a range of single shard key value"; the balancer does not move it.
//! - "Choose a Shard Key" (core/sharding-choose-a-shard-key/), Monotonically Changing Shard Keys:
//!   with a ranged key that always increases, every insert goes to the chunk whose upper bound
//!   is MaxKey, so to one shard ("MongoDB Limits and Thresholds": "Monotonically Increasing
//!   Shard Keys Can Limit Insert Throughput").
//! - "Hashed Sharding" (core/hashed-sharding/): hashing spreads documents whose shard-key values
//!   are close; `mongos` targets an equality match on the key to one shard and broadcasts a
//!   ranged query to all of them.
//! - "Sharded Cluster Query Routing" (core/sharded-cluster-query-router/), Targeted Operations
//!   vs. Broadcast Operations: a query that includes the shard key, or a prefix of a compound
//!   one, goes to the shards owning it; one that does not goes to every shard.
//!
//! keyheat's assumptions, said again where they are used: the hash of a key is keyheat's own
//! 64-bit hash of its text, not MongoDB's (an md5 of the value, truncated to 64 bits); the
//! balancer runs a round every [`BALANCER_ROUND_SECS`] of simulated time; a migration is done
//! within its round; the balancer takes the donor's first movable chunk in shard-key order and
//! moves at most one range size of it from its lower end.

/// The default range (chunk) size: 128 MB ("Modify Range Size").
pub const DEFAULT_RANGE_BYTES: u64 = 128 << 20;
/// The smallest and largest range size a collection may be given: 1 and 1024 MB.
pub const MIN_RANGE_BYTES: u64 = 1 << 20;
pub const MAX_RANGE_BYTES: u64 = 1024 << 20;
/// The migration threshold in range sizes: three (DOCS-15792).
pub const THRESHOLD_RANGES: u64 = 3;
/// Chunks per shard that sharding an empty collection by a hashed key creates ("Data
/// Partitioning with Chunks": two per shard by default).
pub const HASHED_CHUNKS_PER_SHARD: u64 = 2;
/// Simulated seconds between two balancing rounds: keyheat's assumption (MongoDB documents no
/// interval; the balancer runs continuously, a round after another).
pub const BALANCER_ROUND_SECS: i64 = 10;
/// The most shards a scenario may declare: keyheat's bound, to keep the report readable (a
/// sharded cluster may have many more).
pub const MAX_SHARDS: u32 = 64;

/// How a shard key orders documents into ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Ranges of the key's own values, in order: close values share a range.
    Ranged,
    /// Ranges of the key's hash: close values land apart.
    Hashed,
}

impl Strategy {
    pub fn id(self) -> &'static str {
        match self {
            Strategy::Ranged => "ranged",
            Strategy::Hashed => "hashed",
        }
    }
}

/// The data difference between two shards of a collection at which the balancer migrates:
/// three range sizes.
pub fn threshold_bytes(range_bytes: u64) -> u64 {
    THRESHOLD_RANGES.saturating_mul(range_bytes)
}

/// The lower bounds (as 64-bit hash values) of the chunks sharding an empty collection by a
/// hashed key creates, with the shard each is placed on: two per shard, evenly over the hash
/// space, each shard's two side by side (keyheat's placement; MongoDB documents that each
/// shard gets two, not which).
pub fn hashed_chunks(shards: u32) -> Vec<(u64, u32)> {
    let n = u64::from(shards) * HASHED_CHUNKS_PER_SHARD;
    (0..n)
        .map(|i| {
            let bound = u64::try_from(u128::from(i) * (1u128 << 64) / u128::from(n)).unwrap_or(u64::MAX);
            (bound, u32::try_from(i / HASHED_CHUNKS_PER_SHARD).unwrap_or(u32::MAX))
        })
        .collect()
}

/// The migrations of one balancing round, as (donor, recipient): the shard with the most data
/// gives to the one with the least, the second most to the second least, and so on, each
/// shard in at most one migration, while a pair's difference reaches the threshold.
pub fn round_pairs(bytes: &[u64], range_bytes: u64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..bytes.len()).collect();
    // Most data first; ties by shard number, so a round is deterministic.
    order.sort_by(|&a, &b| bytes[b].cmp(&bytes[a]).then(a.cmp(&b)));
    let threshold = threshold_bytes(range_bytes);
    let mut pairs = Vec::new();
    for i in 0..order.len() / 2 {
        let (donor, recipient) = (order[i], order[order.len() - 1 - i]);
        if bytes[donor].saturating_sub(bytes[recipient]) < threshold {
            break;
        }
        pairs.push((donor, recipient));
    }
    pairs
}

/// What the balancer can move off the lower end of a chunk, given the bytes of each of its
/// shard-key values in key order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// The chunk holds nothing: nothing to move.
    Empty,
    /// The whole chunk: it holds at most one range size.
    Whole { bytes: u64 },
    /// Its first `values` shard-key values, at most one range size: the chunk splits after them.
    Prefix { values: usize, bytes: u64 },
    /// Its first value alone holds more than one range size, and one value cannot be split:
    /// that value's range is jumbo.
    Jumbo { bytes: u64 },
}

/// [`Piece`] of a chunk whose values hold `values` bytes each, in key order.
pub fn piece(values: impl IntoIterator<Item = u64>, range_bytes: u64) -> Piece {
    let mut taken = 0u64;
    let mut count = 0usize;
    for bytes in values {
        if taken.saturating_add(bytes) > range_bytes {
            return if count == 0 {
                Piece::Jumbo { bytes }
            } else {
                Piece::Prefix { values: count, bytes: taken }
            };
        }
        taken += bytes;
        count += 1;
    }
    if count == 0 { Piece::Empty } else { Piece::Whole { bytes: taken } }
}

/// How much of the shard key's value a read gives, from the values it knows (what it was
/// given, and the constants it asks for), whatever path serves it: the collection's own key,
/// a secondary index or a scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    /// Every field of the key: its whole value.
    Whole,
    /// The leading fields of a compound key (the template's slots up to the first the read
    /// does not know), at least one of them.
    Prefix,
    /// Not even the first field.
    Nothing,
}

/// Which shards the router (mongos) sends a read to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// The one shard owning the range of the key's value.
    Owner,
    /// The shards owning the ranges that hold the prefix's values (one or several).
    PrefixOwners,
    /// Every shard holding the collection; the router merges their answers.
    Broadcast,
}

impl Route {
    /// Whether the router sends the read to the shards owning the value rather than to all.
    pub fn targeted(self) -> bool {
        self != Route::Broadcast
    }
}

/// Where the router sends a read that gives `given` of the key. MongoDB manual, "Sharded
/// Cluster Query Routing" (Targeted Operations vs. Broadcast Operations): "when the shard key
/// or a prefix of the shard key is a part of the query, the mongos performs a targeted
/// operation, routing queries to a subset of shards", and it "performs a broadcast operation
/// for queries that do not include the shard key, routing queries to all shards". What decides
/// is the query's values, not the index that serves it: a lookup through a secondary index
/// that also gives the shard key's value is targeted. "Hashed Sharding": an equality match on
/// a hashed key is targeted; a prefix of its value says nothing of its hash, so it is
/// broadcast (keyheat hashes the whole key's text).
pub fn route(strategy: Strategy, given: Given) -> Route {
    match (given, strategy) {
        (Given::Whole, _) => Route::Owner,
        (Given::Prefix, Strategy::Ranged) => Route::PrefixOwners,
        (Given::Prefix, Strategy::Hashed) | (Given::Nothing, _) => Route::Broadcast,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MB: u64 = 1 << 20;

    /// "Sharded Cluster Query Routing" (Targeted Operations vs. Broadcast Operations): the
    /// shard key's value, or a prefix of a compound key, targets the shards owning it; a query
    /// without it is broadcast. "Hashed Sharding": only the whole value targets a hashed key.
    #[test]
    fn a_read_goes_to_the_shards_owning_the_key_or_prefix_it_gives() {
        let cases = [
            (Strategy::Ranged, Given::Whole, Route::Owner),
            (Strategy::Ranged, Given::Prefix, Route::PrefixOwners),
            (Strategy::Ranged, Given::Nothing, Route::Broadcast),
            (Strategy::Hashed, Given::Whole, Route::Owner),
            (Strategy::Hashed, Given::Prefix, Route::Broadcast),
            (Strategy::Hashed, Given::Nothing, Route::Broadcast),
        ];
        for (strategy, given, expected) in cases {
            let route = route(strategy, given);
            assert_eq!(route, expected, "{strategy:?} {given:?}");
            assert_eq!(
                route.targeted(),
                given == Given::Whole || (given == Given::Prefix && strategy == Strategy::Ranged)
            );
        }
    }

    /// (bytes per shard, range size, the round's pairs)
    type Round<'a> = (&'a [u64], u64, &'a [(usize, usize)]);

    /// "Sharded Cluster Balancer" and DOCS-15792: a round starts only at three range sizes of
    /// difference (384 MB at 128 MB); each shard in one migration; at most n/2 pairs.
    #[test]
    fn the_balancer_migrates_at_three_range_sizes_of_difference() {
        assert_eq!(threshold_bytes(DEFAULT_RANGE_BYTES), 384 * MB);
        // (bytes per shard, range size, pairs)
        let cases: [Round<'_>; 6] = [
            (&[383 * MB, 0], DEFAULT_RANGE_BYTES, &[]),
            (&[384 * MB, 0], DEFAULT_RANGE_BYTES, &[(0, 1)]),
            (&[0, 500 * MB, 100 * MB], DEFAULT_RANGE_BYTES, &[(1, 0)]),
            (&[10 * MB, 9 * MB, MB, 0], MB, &[(0, 3), (1, 2)]),
            (&[10 * MB, 3 * MB, 2 * MB, 0], MB, &[(0, 3)]),
            (&[5 * MB, 5 * MB], MB, &[]),
        ];
        for (bytes, range, pairs) in cases {
            assert_eq!(round_pairs(bytes, range), pairs, "{bytes:?}");
        }
    }

    /// A chunk moves whole when it holds at most a range size, else its lower values up to a
    /// range size; a first value past the range size cannot split ("Clear jumbo Flag").
    #[test]
    fn a_range_moves_up_to_its_size_and_one_value_past_it_is_jumbo() {
        // (bytes per value, range size, piece)
        let cases: [(&[u64], u64, Piece); 6] = [
            (&[], MB, Piece::Empty),
            (&[MB / 2, MB / 2], MB, Piece::Whole { bytes: MB }),
            (&[MB / 2, MB / 2, 1], MB, Piece::Prefix { values: 2, bytes: MB }),
            (&[3 * MB], MB, Piece::Jumbo { bytes: 3 * MB }),
            (&[3 * MB, 10], MB, Piece::Jumbo { bytes: 3 * MB }),
            (&[10, 3 * MB], MB, Piece::Prefix { values: 1, bytes: 10 }),
        ];
        for (values, range, expected) in cases {
            assert_eq!(piece(values.iter().copied(), range), expected, "{values:?}");
        }
    }

    /// "Data Partitioning with Chunks": two chunks per shard over the whole hash space.
    #[test]
    fn a_hashed_key_starts_with_two_chunks_per_shard_over_the_hash_space() {
        let chunks = hashed_chunks(3);
        assert_eq!(chunks.len(), 6);
        assert_eq!(chunks[0], (0, 0));
        assert_eq!(chunks.iter().map(|c| c.1).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 2]);
        // Evenly spaced: each a sixth of 2^64.
        let step = u64::MAX / 6;
        for pair in chunks.windows(2) {
            assert!((pair[1].0 - pair[0].0).abs_diff(step) <= 1, "{pair:?}");
        }
        assert_eq!(hashed_chunks(1), [(0, 0), (1 << 63, 0)]);
    }
}
