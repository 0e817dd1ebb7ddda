//! Azure Cosmos DB (API for NoSQL): request units, the one currency every operation is charged
//! in, and the limits of its partitions. Every figure names the page of Microsoft's
//! documentation it comes from (learn.microsoft.com/azure/cosmos-db/…); where the documentation
//! gives only some points of a rule, the rest is keyheat's assumption and says so here and in
//! the reports.
//!
//! What Microsoft documents ("Request Units in Azure Cosmos DB", "Optimize request cost in Azure
//! Cosmos DB"):
//! - a point read (by id and partition key) of a 1 KB item costs 1 RU, of a 100 KB item 10 RU;
//! - inserting a 1 KB item with indexing off costs about 5.5 RU, and replacing an item costs
//!   twice inserting it;
//! - reads at strong or bounded-staleness consistency cost twice as much;
//! - a query's charge grows with the items it loads (1,000 items of 1 KB ≈ 1,000 RU), and a
//!   query across partitions adds about 2–3 RU for each physical partition it visits
//!   ("Partitioning and horizontal scaling");
//! - a request refused with 429 is not charged; other failed requests are.
//!
//! What keyheat assumes, because nothing is published: point reads between the documented sizes
//! follow the straight line through them (and go on along it to the 2 MB item limit); a write of
//! a larger item costs its 1 KB charge per started KB; a query pays 1 RU per started KB it loads
//! plus a page's base of 2.5 RU, the middle of the documented 2–3 RU per partition visited.

/// One physical partition serves at most 10,000 RU/s ("Partitioning and horizontal scaling":
/// "each individual physical partition can provide a throughput of up to 10,000 request units
/// per second"; "Azure Cosmos DB service quotas": maximum RUs per partition, logical and
/// physical). A logical partition lives on one physical partition, so it is held to the same.
pub const PARTITION_RU_PER_S: f64 = 10_000.0;

/// A physical partition stores at most 50 GB and splits past it ("Partitioning and horizontal
/// scaling").
pub const PHYSICAL_PARTITION_BYTES: u64 = 50 << 30;

/// A logical partition (all the items of one partition key value) holds at most 20 GB
/// ("Partitioning and horizontal scaling"; "Azure Cosmos DB service quotas"). Hierarchical
/// partition keys lift it for a key's prefixes, not for one whole key.
pub const LOGICAL_PARTITION_BYTES: u64 = 20 << 30;

/// The largest item: 2 MB, measured as the UTF-8 length of its JSON ("Azure Cosmos DB service
/// quotas"). keyheat reads the megabyte as 1,024 × 1,024 bytes.
pub const MAX_ITEM_BYTES: usize = 2 * 1024 * 1024;

/// The least manual throughput a container is given: 400 RU/s, set in steps of 100 ("Azure
/// Cosmos DB service quotas").
pub const MIN_MANUAL_RU_PER_S: f64 = 400.0;

/// The SDKs retry a request refused with 429 this many times by default, waiting the time the
/// response's `x-ms-retry-after-ms` gives (.NET `CosmosClientOptions
/// .MaxRetryAttemptsOnRateLimitedRequests`: 9).
pub const RATE_LIMIT_RETRIES: u32 = 9;

/// Planning figures for the physical partitions a new container starts with ("Best practices
/// for scaling provisioned throughput", large data ingestion): 6,000 RU/s each for manual
/// throughput, 10,000 for autoscale. Microsoft calls them a heuristic, not a guarantee.
pub const MANUAL_RU_PER_NEW_PARTITION: f64 = 6_000.0;
pub const AUTOSCALE_RU_PER_NEW_PARTITION: f64 = 10_000.0;

/// Documented point-read charges: (item bytes, RU).
const POINT_READS: [(f64, f64); 2] = [(1024.0, 1.0), (100.0 * 1024.0, 10.0)];
/// Inserting a 1 KB item with indexing off ("Optimize request cost", writing data).
const INSERT_1KB_RU: f64 = 5.5;
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

/// A point read's RU for an item of `bytes`: 1 RU up to 1 KB, then the straight line through
/// the documented 100 KB = 10 RU (keyheat's assumption between and beyond).
pub fn point_read_ru(bytes: u64, consistency: Consistency) -> f64 {
    let [(x0, y0), (x1, y1)] = POINT_READS;
    let bytes = bytes as f64;
    let ru = if bytes <= x0 { y0 } else { y0 + (bytes - x0) * (y1 - y0) / (x1 - x0) };
    ru * consistency.factor()
}

/// An insert's RU for an item of `bytes` with indexing off: 5.5 RU per started KB (the
/// documented 1 KB charge; per KB beyond it is keyheat's assumption).
pub fn insert_ru(bytes: u64) -> f64 {
    INSERT_1KB_RU * started_kb(bytes)
}

/// A replace (or an upsert of an existing item) costs twice the insert of the same item
/// ("Optimize request cost").
pub fn replace_ru(bytes: u64) -> f64 {
    2.0 * insert_ru(bytes)
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
            (
                "point read 1 KB",
                point_read_ru(kb, Consistency::Relaxed),
                1.0,
                "Request Units: 1 KB read = 1 RU",
            ),
            ("point read 100 B", point_read_ru(100, Consistency::Relaxed), 1.0, "the 1 RU minimum"),
            (
                "point read 100 KB",
                point_read_ru(100 * kb, Consistency::Relaxed),
                10.0,
                "Optimize request cost",
            ),
            ("point read 1 KB strong", point_read_ru(kb, Consistency::Strong), 2.0, "strong reads cost 2×"),
            (
                "point read 50.5 KB",
                point_read_ru(50 * kb + 512, Consistency::Relaxed),
                5.5,
                "keyheat: the line",
            ),
            ("insert 1 KB", insert_ru(kb), 5.5, "Optimize request cost: ~5.5 RU, indexing off"),
            ("insert 1.5 KB", insert_ru(kb + 512), 11.0, "keyheat: per started KB"),
            ("replace 1 KB", replace_ru(kb), 11.0, "Optimize request cost: replace = 2× insert"),
            ("query 1,000 × 1 KB", query_page_ru(1000 * kb, Consistency::Relaxed), 1002.5, "~1,000 RU"),
        ];
        for (what, ru, expected, source) in cases {
            assert!(close(ru, expected), "{what}: {ru} RU, expected {expected} ({source})");
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

    #[test]
    fn limits_are_cosmos_dbs() {
        assert_eq!(LOGICAL_PARTITION_BYTES, 21_474_836_480);
        assert_eq!(PHYSICAL_PARTITION_BYTES, 53_687_091_200);
        assert_eq!(MAX_ITEM_BYTES, 2_097_152);
        assert_eq!(RATE_LIMIT_RETRIES, 9);
    }
}
