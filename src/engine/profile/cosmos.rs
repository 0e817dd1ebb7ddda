//! Azure Cosmos DB (API for NoSQL): request units, the one currency every operation is charged
//! in, and the limits of its partitions. Every figure names the page of Microsoft's
//! documentation it comes from (learn.microsoft.com/azure/cosmos-db/…); where the documentation
//! gives only some points of a rule, the rest is keyheat's assumption and says so here and in
//! the reports.
//!
//! What Microsoft documents ("Understand request units consumption in Azure Cosmos DB", dated
//! 2026-04-21, which calls its figures illustrative; "Optimize request cost in Azure Cosmos DB"):
//! - the RU of a point read and of a write by document size, from 1 KB (1.00 and 4.95 RU) to
//!   2,048 KB (291.80 and 1,250 RU), at session or eventual consistency;
//! - a create is the write by size plus 0.2 RU per indexed term; a replace deletes the old
//!   document and inserts the new one (two writes by size) plus 0.2 RU per changed indexed term
//!   removed and inserted; a delete is the write by size plus 0.2 RU per indexed term removed;
//! - reads at strong or bounded-staleness consistency cost twice as much;
//! - a query's charge grows with the items it loads (1,000 items of 1 KB ≈ 1,000 RU), and a
//!   query across partitions adds about 2–3 RU for each physical partition it visits
//!   ("Partitioning and horizontal scaling");
//! - a request refused with 429 is not charged; other failed requests are.
//!
//! What keyheat assumes, because nothing more is published: a size between two documented
//! sizes costs the straight line between their charges (a size under 1 KB the 1 KB charge); the
//! 0.2 RU per indexed term is not added (keyheat does not count an item's terms), so writes are
//! a floor by about 0.2 RU per indexed property; a query pays 1 RU per started KB it loads plus
//! a page's base of 2.5 RU, the middle of the documented 2–3 RU per partition visited.

/// One physical partition serves at most 10,000 RU/s ("Partitioning and horizontal scaling":
/// "each individual physical partition can provide a throughput of up to 10,000 request units
/// per second"; "Azure Cosmos DB service quotas": maximum RUs per partition, logical and
/// physical). A logical partition lives on one physical partition, so it is held to the same.
pub const PARTITION_RU_PER_S: f64 = 10_000.0;

/// A physical partition stores at most 50 GB and splits past it ("Partitioning and horizontal
/// scaling").
pub const PHYSICAL_PARTITION_BYTES: u64 = 50 << 30;

/// A logical partition (all the items of one partition key value) holds at most 20 GB
/// ("Partitioning and horizontal scaling"; "Azure Cosmos DB service quotas"). With a
/// hierarchical key the logical partition is the whole key, all its levels: a first level (a
/// tenant) holds 20 GB times its distinct later levels ("Frequently asked questions on
/// hierarchical partition keys in Azure Cosmos DB").
pub const LOGICAL_PARTITION_BYTES: u64 = 20 << 30;

/// A container's partition key has at most three levels (paths), the hierarchical partition
/// key ("Hierarchical partition keys in Azure Cosmos DB", learn.microsoft.com/azure/cosmos-db/
/// hierarchical-partition-keys: "up to a three-level hierarchy"). One level is the classic key.
pub const MAX_KEY_LEVELS: usize = 3;

/// What joins the levels of a hierarchical key's value in keyheat's key text: the ASCII unit
/// separator, which the loader refuses inside a template, so a key text holds it only between
/// levels. keyheat's encoding, not the service's (which keeps the values as a JSON array).
pub const LEVEL_SEPARATOR: char = '\u{1f}';

/// The bits of the 64-bit placement each level takes, for keys of 1, 2 and 3 levels: the first
/// level the high bits, each later level the bits below the one before.
const LEVEL_BITS: [[u32; MAX_KEY_LEVELS]; MAX_KEY_LEVELS] = [[64, 0, 0], [32, 32, 0], [32, 16, 16]];

/// Where a key of one or more levels (`text`, its levels joined by [`LEVEL_SEPARATOR`]) is
/// placed in the hash space its physical partitions split by ranges. A one-level key is placed
/// by its hash, as before. A hierarchical key is placed by its levels' hashes, the first level's
/// in the high bits: "Azure Cosmos DB … co-locate[s] all the documents with the same first-level
/// key on the same physical partition" until that partition passes 50 GB and splits, when "a
/// single TenantId's data can span multiple physical partitions" ("Hierarchical partition keys
/// in Azure Cosmos DB"; its FAQ). Each level hashed on its own and the hashes side by side is
/// keyheat's reading of that (the SDKs' `MultiHash` kind, an effective key of one hash per
/// level); the bit widths are keyheat's.
pub fn placement(text: &[u8], hash: impl Fn(&[u8]) -> u64) -> u64 {
    // Every key of every store passes here: a one-level key must cost a word-at-a-time search
    // for the separator (a byte slice's `contains`), not a count of its levels.
    if !text.contains(&(LEVEL_SEPARATOR as u8)) {
        return hash(text);
    }
    let levels = text.split(|&b| b == LEVEL_SEPARATOR as u8).count();
    let widths = LEVEL_BITS[levels.min(MAX_KEY_LEVELS) - 1];
    let mut placed = 0u64;
    let mut below = 64u32;
    for (level, width) in text.split(|&b| b == LEVEL_SEPARATOR as u8).zip(widths) {
        below -= width;
        placed |= (hash(level) >> (64 - width)) << below;
    }
    placed
}

/// The range of placements `[first, last]` that the keys sharing the first `given` levels of
/// `text` (a key of `levels` levels; only its first `given` levels are read) occupy: a query
/// giving those levels visits only the physical partitions holding that range ("Queries by
/// prefix are efficiently routed to the subset of partitions that hold the data"; "Queries that
/// specify either `TenantId`, or both `TenantId` and `UserId`, are efficiently routed to only the
/// subset of physical partitions that contain the relevant data"). Giving every level is one
/// key; giving none is the whole space, a cross-partition query, as is giving a later level
/// without the first ("Queries that provide only the 'middle' of the hierarchy are
/// cross-partition queries"). The planner plans such a read as a query on the prefix
/// (`profile::PrefixReads::ByPlacement`), and the replay sends it to
/// [`partitions_holding`] this range, one request each, charged as a query page
/// ([`query_page_ru`]) and metered on that partition's share.
pub fn prefix_range(text: &[u8], levels: usize, given: usize, hash: impl Fn(&[u8]) -> u64) -> (u64, u64) {
    if given == 0 || levels <= 1 {
        return if given == 0 {
            (0, u64::MAX)
        } else {
            let h = hash(text);
            (h, h)
        };
    }
    let widths = LEVEL_BITS[levels.min(MAX_KEY_LEVELS) - 1];
    let mut first = 0u64;
    let mut below = 64u32;
    for (level, width) in text.split(|&b| b == LEVEL_SEPARATOR as u8).zip(widths).take(given) {
        below -= width;
        first |= (hash(level) >> (64 - width)) << below;
    }
    let rest = if below == 0 { 0 } else { u64::MAX >> (64 - below) };
    (first, first | rest)
}

/// The physical partitions (indexes into `starts`, the first placement of each, ascending) that
/// hold some of `[first, last]`: what a query over a key prefix visits, k of N.
pub fn partitions_holding(starts: &[u64], (first, last): (u64, u64)) -> std::ops::RangeInclusive<usize> {
    let at = |h: u64| starts.partition_point(|&s| s <= h).max(1) - 1;
    at(first)..=at(last)
}

/// The largest item: 2 MB, measured as the UTF-8 length of its JSON ("Azure Cosmos DB service
/// quotas"). keyheat reads the megabyte as 1,024 × 1,024 bytes.
pub const MAX_ITEM_BYTES: usize = 2 * 1024 * 1024;

/// The least manual throughput a container is given: 400 RU/s, set in steps of 100 ("Azure
/// Cosmos DB service quotas").
pub const MIN_MANUAL_RU_PER_S: f64 = 400.0;

/// The most RU/s a container is given: 1,000,000, raised only by a support ticket ("Azure
/// Cosmos DB service quotas", provisioned throughput: maximum RUs per container).
pub const MAX_CONTAINER_RU_PER_S: f64 = 1_000_000.0;

/// The SDKs retry a request refused with 429 this many times by default, waiting the time the
/// response's `x-ms-retry-after-ms` gives (.NET `CosmosClientOptions
/// .MaxRetryAttemptsOnRateLimitedRequests`: 9).
pub const RATE_LIMIT_RETRIES: u32 = 9;

/// Planning figures for the physical partitions a new container starts with ("Best practices
/// for scaling provisioned throughput", large data ingestion): 6,000 RU/s each for manual
/// throughput, 10,000 for autoscale. Microsoft calls them a heuristic, not a guarantee.
pub const MANUAL_RU_PER_NEW_PARTITION: f64 = 6_000.0;
pub const AUTOSCALE_RU_PER_NEW_PARTITION: f64 = 10_000.0;

/// The documented charges by document size ("Understand request units consumption", Document
/// size): (KB, point read RU, write RU).
const BY_SIZE: [(f64, f64, f64); 12] = [
    (1.0, 1.00, 4.95),
    (2.0, 1.04, 6.29),
    (4.0, 1.14, 6.67),
    (8.0, 1.33, 7.04),
    (16.0, 1.67, 9.52),
    (32.0, 2.19, 11.23),
    (64.0, 4.76, 22.67),
    (128.0, 9.95, 48.19),
    (256.0, 20.28, 98.29),
    (512.0, 40.95, 184.57),
    (1024.0, 145.90, 625.00),
    (2048.0, 291.80, 1250.00),
];
/// A query's base charge per page on each partition visited: keyheat's reading of "about 2–3 RU
/// per physical partition" for a query across partitions.
pub const QUERY_PAGE_BASE_RU: f64 = 2.5;

/// How a container's throughput is provisioned.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Throughput {
    /// A fixed RU/s.
    Manual(f64),
    /// Scales between a tenth of its maximum and the maximum ("Create Azure Cosmos DB containers
    /// and databases with autoscale throughput": 0.1 × Tmax ≤ T ≤ Tmax).
    Autoscale { max: f64 },
}

impl Throughput {
    /// The RU/s the container serves at most.
    pub fn ceiling(self) -> f64 {
        match self {
            Throughput::Manual(ru) => ru,
            Throughput::Autoscale { max } => max,
        }
    }

    /// Physical partitions a new container starts with (the planning figures above), at least
    /// one.
    pub fn initial_partitions(self) -> u32 {
        let per = match self {
            Throughput::Manual(_) => MANUAL_RU_PER_NEW_PARTITION,
            Throughput::Autoscale { .. } => AUTOSCALE_RU_PER_NEW_PARTITION,
        };
        partitions_for(self.ceiling(), per)
    }
}

/// The physical partitions raising a container's throughput to `ru_per_s` needs: a partition
/// serves 10,000 RU/s, so ROUNDUP(RU/s ÷ 10,000) ("Best practices for scaling provisioned
/// throughput": raising past what the partitions serve splits them, asynchronously, typically
/// in 4–6 hours).
pub fn partitions_to_serve(ru_per_s: f64) -> u32 {
    partitions_for(ru_per_s, PARTITION_RU_PER_S)
}

#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a small positive count")]
fn partitions_for(ru_per_s: f64, per_partition: f64) -> u32 {
    ((ru_per_s / per_partition).ceil() as u32).max(1)
}

/// Each physical partition's share of a container's throughput: "Throughput provisioned for a
/// container is divided evenly among physical partitions" ("Partitioning and horizontal
/// scaling"), and no partition serves more than 10,000 RU/s.
pub fn partition_share(ru_per_s: f64, partitions: u32) -> f64 {
    (ru_per_s / f64::from(partitions.max(1))).min(PARTITION_RU_PER_S)
}

/// Read consistency, as far as it changes a read's charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consistency {
    /// Session, consistent prefix or eventual: the documented charges.
    Relaxed,
    /// Strong or bounded staleness: every read, point or query, costs twice as much ("Optimize
    /// request cost").
    Strong,
}

impl Consistency {
    fn factor(self) -> f64 {
        match self {
            Consistency::Relaxed => 1.0,
            Consistency::Strong => 2.0,
        }
    }
}

/// A point read's RU for an item of `bytes` (the documented table; keyheat's straight line
/// between its sizes).
pub fn point_read_ru(bytes: u64, consistency: Consistency) -> f64 {
    by_size(bytes, |(_, read, _)| read) * consistency.factor()
}

/// The write of a document of `bytes`, by its size alone (the documented table; keyheat's
/// straight line between its sizes, and no indexed terms).
pub fn write_ru(bytes: u64) -> f64 {
    by_size(bytes, |(_, _, write)| write)
}

/// A create's RU for an item of `bytes`.
pub fn insert_ru(bytes: u64) -> f64 {
    write_ru(bytes)
}

/// A replace (or an upsert of an existing item) deletes the old document and inserts the new
/// one ("Understand request units consumption", Updates: 5.0 + 5.0 for 1 KB).
pub fn replace_ru(old_bytes: u64, new_bytes: u64) -> f64 {
    write_ru(old_bytes) + write_ru(new_bytes)
}

/// A delete's RU for an item of `bytes` ("Understand request units consumption", Delete).
pub fn delete_ru(bytes: u64) -> f64 {
    write_ru(bytes)
}

/// The charge `column` gives a document of `bytes`: the 1 KB figure up to 1 KB, the straight
/// line between two documented sizes, and past 2,048 KB (beyond the 2 MB item limit, so only a
/// refused write) the last segment's line.
fn by_size(bytes: u64, column: impl Fn((f64, f64, f64)) -> f64) -> f64 {
    let kb = bytes as f64 / 1024.0;
    let first = BY_SIZE[0];
    if kb <= first.0 {
        return column(first);
    }
    let upper = BY_SIZE.iter().position(|row| row.0 >= kb).unwrap_or(BY_SIZE.len() - 1);
    let (lo, hi) = (BY_SIZE[upper - 1], BY_SIZE[upper]);
    let (y0, y1) = (column(lo), column(hi));
    y0 + (kb - lo.0) * (y1 - y0) / (hi.0 - lo.0)
}

/// A query page's RU on one partition that loaded `bytes` of items: the base of a visit plus 1
/// RU per started KB loaded (the documented 1,000 items of 1 KB ≈ 1,000 RU).
pub fn query_page_ru(bytes: u64, consistency: Consistency) -> f64 {
    (QUERY_PAGE_BASE_RU + started_kb(bytes)) * consistency.factor()
}

/// Normalized RU consumption, the metric Azure Monitor shows for a container: the highest
/// share of its throughput any physical partition used in the interval, as a fraction of 1
/// ("How to monitor normalized RU/s": the maximum RU/s utilization across partition key ranges).
/// One partition at 1.0 while the rest idle is a hot partition.
pub fn normalized_consumption(used_ru_per_s: &[f64], share_ru_per_s: f64) -> f64 {
    if share_ru_per_s <= 0.0 {
        return 0.0;
    }
    used_ru_per_s.iter().fold(0.0, |m: f64, &u| m.max(u / share_ru_per_s))
}

fn started_kb(bytes: u64) -> f64 {
    bytes.div_ceil(1024).max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// The charges Microsoft documents, and keyheat's assumptions between them.
    #[test]
    fn charges_match_the_documented_points() {
        // (what, RU, expected, source)
        let kb = 1024;
        let cases = [
            ("point read 1 KB", point_read_ru(kb, Consistency::Relaxed), 1.0, "Understand RU: 1 KB 1.00"),
            ("point read 100 B", point_read_ru(100, Consistency::Relaxed), 1.0, "keyheat: the 1 KB charge"),
            (
                "point read 64 KB",
                point_read_ru(64 * kb, Consistency::Relaxed),
                4.76,
                "Understand RU: 64 KB 4.76",
            ),
            (
                "point read 2,048 KB",
                point_read_ru(2048 * kb, Consistency::Relaxed),
                291.8,
                "Understand RU: 2,048 KB 291.80",
            ),
            ("point read 1 KB strong", point_read_ru(kb, Consistency::Strong), 2.0, "strong reads cost 2×"),
            (
                "point read 96 KB",
                point_read_ru(96 * kb, Consistency::Relaxed),
                f64::midpoint(4.76, 9.95),
                "keyheat: the line between 64 and 128 KB",
            ),
            ("create 1 KB", insert_ru(kb), 4.95, "Understand RU: 1 KB write 4.95"),
            ("create 10 B", insert_ru(10), 4.95, "keyheat: the 1 KB charge"),
            ("create 128 KB", insert_ru(128 * kb), 48.19, "Understand RU: 128 KB write 48.19"),
            ("create 1.5 KB", insert_ru(kb + 512), f64::midpoint(4.95, 6.29), "keyheat: the line"),
            ("replace 1 KB", replace_ru(kb, kb), 9.9, "Understand RU: delete + insert"),
            ("replace 1 KB with 2 KB", replace_ru(kb, 2 * kb), 4.95 + 6.29, "Understand RU: delete + insert"),
            ("delete 4 KB", delete_ru(4 * kb), 6.67, "Understand RU: the write by size"),
            ("query 1,000 × 1 KB", query_page_ru(1000 * kb, Consistency::Relaxed), 1002.5, "~1,000 RU"),
        ];
        for (what, ru, expected, source) in cases {
            assert!(close(ru, expected), "{what}: {ru} RU, expected {expected} ({source})");
        }
    }

    /// The table's charges grow with size, so a larger document never costs less.
    #[test]
    fn charges_never_fall_as_documents_grow() {
        let mut last = (0.0, 0.0);
        for bytes in (0..=2 * 1024 * 1024).step_by(4093) {
            let now = (point_read_ru(bytes, Consistency::Relaxed), write_ru(bytes));
            assert!(now.0 >= last.0 && now.1 >= last.1, "{bytes} B: {now:?} after {last:?}");
            last = now;
        }
    }

    /// Partitions at creation and after a raise, and each one's share.
    #[test]
    fn throughput_is_divided_evenly_across_partitions() {
        // (throughput, partitions at creation)
        let created = [
            (Throughput::Manual(400.0), 1),
            (Throughput::Manual(6_000.0), 1),
            (Throughput::Manual(6_001.0), 2),
            (Throughput::Manual(150_000.0), 25),
            (Throughput::Autoscale { max: 250_000.0 }, 25),
        ];
        for (throughput, partitions) in created {
            assert_eq!(throughput.initial_partitions(), partitions, "{throughput:?}");
        }
        // 30,000 raised to 45,000 needs 5 partitions ("Best practices for scaling").
        assert_eq!(partitions_to_serve(45_000.0), 5);
        // 18,000 RU/s over 3 partitions: 6,000 each ("Partitioning and horizontal scaling").
        assert!(close(partition_share(18_000.0, 3), 6_000.0));
        // No partition serves more than 10,000, whatever is provisioned.
        assert!(close(partition_share(50_000.0, 2), 10_000.0));
    }

    /// The hot-partition reading: one range at its share, the others idle.
    #[test]
    fn normalized_consumption_is_the_busiest_partition() {
        // "How to monitor normalized RU/s": 6,000 and 8,000 of 10,000 each show 80%.
        assert!(close(normalized_consumption(&[6_000.0, 8_000.0], 10_000.0), 0.8));
        assert!(close(normalized_consumption(&[10_000.0, 300.0, 250.0], 10_000.0), 1.0));
        assert!(close(normalized_consumption(&[], 10_000.0), 0.0));
        assert!(close(normalized_consumption(&[5.0], 0.0), 0.0));
    }

    fn key(levels: &[&str]) -> Vec<u8> {
        levels.join(&LEVEL_SEPARATOR.to_string()).into_bytes()
    }

    /// Where keys land: a one-level key by its own hash, a hierarchical key with its first
    /// level's hash on top, so a tenant's keys sit together ("Hierarchical partition keys in
    /// Azure Cosmos DB": documents of one first-level key are co-located).
    #[test]
    fn a_hierarchical_key_is_placed_by_its_prefix_first() {
        use crate::engine::hash::hash_bytes;
        let h = |s: &str| hash_bytes(s.as_bytes());
        // (key, placement, why)
        let cases = [
            (key(&["tenant-7"]), h("tenant-7"), "one level: the key's hash, as before"),
            (
                key(&["tenant-7", "u1"]),
                (h("tenant-7") >> 32) << 32 | h("u1") >> 32,
                "two levels: 32 bits of each, the tenant's on top",
            ),
            (
                key(&["tenant-7", "u1", "d9"]),
                (h("tenant-7") >> 32) << 32 | (h("u1") >> 48) << 16 | h("d9") >> 48,
                "three levels: 32, 16 and 16 bits",
            ),
        ];
        for (text, placed, why) in cases {
            assert_eq!(placement(&text, hash_bytes), placed, "{why}");
        }
        // Every user of a tenant falls in the tenant's range, and no other tenant's key does.
        let tenant = prefix_range(&key(&["tenant-7", "u1"]), 2, 1, hash_bytes);
        for user in 0..200 {
            let p = placement(&key(&["tenant-7", &format!("u{user}")]), hash_bytes);
            assert!((tenant.0..=tenant.1).contains(&p), "u{user}");
            let other = placement(&key(&[&format!("tenant-{}", user + 100), "u1"]), hash_bytes);
            assert!(!(tenant.0..=tenant.1).contains(&other), "tenant-{}", user + 100);
        }
    }

    /// How far a query is routed, by the levels it gives ("Hierarchical partition keys in Azure
    /// Cosmos DB" and its FAQ: a prefix query goes to the partitions holding the prefix, the
    /// full key to one, a later level without the first to all of them).
    #[test]
    fn a_query_visits_the_partitions_its_prefix_spans() {
        use crate::engine::hash::hash_bytes;
        let text = key(&["tenant-7", "u1", "d9"]);
        let tenant = prefix_range(&text, 3, 1, hash_bytes);
        // Four partitions, one boundary inside the tenant's range (a split of its data).
        let inside = tenant.0 + (tenant.1 - tenant.0) / 2;
        let starts = [0, tenant.0 / 2, inside, tenant.1.saturating_add(1).max(inside + 1)];
        let full = placement(&text, hash_bytes);
        // (levels given, range, partitions visited, why)
        let cases = [
            (0, (0, u64::MAX), 0..=3, "no level: cross-partition, every partition"),
            (1, tenant, 1..=2, "the tenant: the 2 partitions its data spans"),
            (3, (full, full), partitions_holding(&starts, (full, full)), "the full key: one partition"),
        ];
        for (given, range, visited, why) in cases {
            assert_eq!(prefix_range(&text, 3, given, hash_bytes), range, "{why}");
            assert_eq!(partitions_holding(&starts, range), visited, "{why}");
        }
        assert_eq!(partitions_holding(&starts, (full, full)).count(), 1);
        // Two levels of three: a narrower range inside the tenant's.
        let two = prefix_range(&text, 3, 2, hash_bytes);
        assert!(tenant.0 <= two.0 && two.1 <= tenant.1 && two.1 - two.0 == (1 << 16) - 1);
    }

    #[test]
    fn limits_are_cosmos_dbs() {
        assert_eq!(LOGICAL_PARTITION_BYTES, 21_474_836_480);
        assert_eq!(PHYSICAL_PARTITION_BYTES, 53_687_091_200);
        assert_eq!(MAX_ITEM_BYTES, 2_097_152);
        assert_eq!(RATE_LIMIT_RETRIES, 9);
    }
}
