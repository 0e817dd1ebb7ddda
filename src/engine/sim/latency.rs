//! The latency model. Every latency keyheat shows is *modelled*, not measured: a request's time is
//! a fixed base plus a cost per 4 KB read, pages of one Query or Scan follow each other, the
//! requests of a fan-out run in parallel, and a throttled request waits for the client's backoff.
//!
//! The numbers, and why:
//! - Base per request: 4 ms for GetItem and the writes, 5 ms for Query, Scan and BatchGetItem.
//!   DynamoDB answers single-item requests in "single-digit milliseconds" (AWS product page);
//!   a few milliseconds of network and SDK time on top is typical inside a region.
//! - 0.2 ms per 4 KB read: a full 1 MB page then takes about 56 ms, in line with the tens of
//!   milliseconds large Query pages take in practice.
//! - Fan-out: requests run in parallel, so the call takes as long as its slowest request, plus
//!   0.5 ms per extra request for the client to issue them and merge the results.
//! - Retries: the simulated client follows the scenario's retry policy ([`crate::engine::retry`];
//!   by default the AWS SDK for Java 1.x DynamoDB policy, 500 ms with equal jitter, 20 s cap, 10
//!   retries), its jitter drawn from the run's seed: a retried request adds its waits and the
//!   base of every attempt.
//! - Cassandra reads go by partitions and rows, not DynamoDB's 1 MB pages ([`cql_page_ms`]):
//!   - one SELECT per partition a read touches; a read over several partitions (time buckets,
//!     shards) asks them **one after another**, so the call takes the sum of its requests. That is
//!     what a per-bucket loop does (newest bucket first, stopping at the limit), and how Cassandra
//!     itself pages a `WHERE pk IN (…)` read (its `MultiPartitionPager` reads the partitions in
//!     turn). An application may issue the SELECTs asynchronously instead and wait for the
//!     slowest; keyheat models the sequential read, the one a lesson about bucketing must price.
//!   - each SELECT is paged by rows: the driver's default fetch size is 5,000 rows (DataStax Java
//!     driver, `datastax-java-driver.basic.request.page-size = 5000`, manual "Paging"; the C#
//!     and Python drivers use the same default), and every page is a round trip.
//!   - a page costs 5 ms (4 ms for a single-row SELECT and for writes), as a DynamoDB request does
//!     (a coordinator round trip at QUORUM inside a data centre), plus 0.005 ms per row read:
//!     keyheat's own assumption, a replica reading and the driver decoding about 200,000 small
//!     rows a second; a full page of 5,000 rows then takes 30 ms.
//!   - a read of a large partition pays 1 ms per 10 MB of the partition, once per partition
//!     request, standing for what large partitions cost Cassandra reads (the partition index,
//!     more SSTables and compaction work, GC pressure — DataStax's guidance to keep partitions
//!     under ~100 MB); also keyheat's own figure.
//!
//!   Cassandra never throttles; it gets slow.
//! - A read through the variant's cache (DAX): a hit takes [`CACHE_HIT_MS`], and a miss that
//!   amount on top of the table's request. AWS says DAX answers cache hits "in microseconds"
//!   ("In-memory acceleration with DynamoDB Accelerator (DAX)"); 0.5 ms for the hit's round trip
//!   from the client, network and SDK included, is keyheat's own figure.

use crate::engine::planner::Operation;
use crate::engine::profile::{Fanout, Latency, mongo};
use crate::engine::retry::RetryPolicy;

pub const WRITE_MS: f64 = 4.0;
pub const GET_MS: f64 = 4.0;
pub const QUERY_MS: f64 = 5.0;
pub const PER_4KB_MS: f64 = 0.2;
pub const FANOUT_EXTRA_MS: f64 = 0.5;
/// A cache hit's round trip (keyheat's figure; see the module notes).
pub const CACHE_HIT_MS: f64 = 0.5;
pub const CASSANDRA_MS_PER_10MB: f64 = 1.0;
pub use crate::engine::planner::CQL_PAGE_ROWS;
/// Time per row a CQL read returns (keyheat's own assumption, see the module notes).
pub const CQL_PER_ROW_MS: f64 = 0.005;

/// The base time of one request of `operation`.
pub fn base_ms(operation: Operation) -> f64 {
    match operation {
        Operation::GetItem => GET_MS,
        Operation::PutItem | Operation::UpdateItem | Operation::DeleteItem => WRITE_MS,
        // Two writes, one after the other; DynamoDB's transaction's two rounds, prepare then
        // commit, each over its items in parallel (keyheat's model: AWS gives no latency for
        // them). A replayed write call takes its store's rounds (`transactions::Commit`).
        Operation::DeleteAndPut | Operation::TransactWriteItems => 2.0 * WRITE_MS,
        Operation::TransactGetItems => 2.0 * GET_MS,
        Operation::Query | Operation::Scan | Operation::BatchGetItem => QUERY_MS,
    }
}

/// One page (or one request) that read `bytes`.
pub fn request_ms(operation: Operation, bytes: u64) -> f64 {
    base_ms(operation) + PER_4KB_MS * bytes.div_ceil(4096) as f64
}

/// The time a request spends reading `bytes` more (a document a MongoDB query fetches after
/// its index entry).
pub fn read_bytes_ms(bytes: u64) -> f64 {
    PER_4KB_MS * bytes.div_ceil(4096) as f64
}

/// A fan-out's time from its requests' times.
pub fn fanout_ms(requests: &[f64]) -> f64 {
    let slowest = requests.iter().copied().fold(0.0, f64::max);
    slowest + FANOUT_EXTRA_MS * requests.len().saturating_sub(1) as f64
}

/// One page of a CQL read (or one single-row SELECT) that read `rows`.
pub fn cql_page_ms(operation: Operation, rows: u64) -> f64 {
    base_ms(operation) + CQL_PER_ROW_MS * rows as f64
}

/// One page of `rows` rows and `bytes` bytes: by rows for a statement, by 4 KB for a request.
pub fn page_ms(model: Latency, operation: Operation, rows: u64, bytes: u64) -> f64 {
    match model {
        Latency::Statements => cql_page_ms(operation, rows),
        Latency::Requests | Latency::Documents => request_ms(operation, bytes),
    }
}

/// What a write that leaves its document `bytes` long spends writing it, on top of its base:
/// nothing where the model charges writes a base only; building and writing the document's
/// whole new version where the store applies an update to the whole document (MongoDB,
/// [`mongo::update_ms`], keyheat's assumption).
pub fn write_extra_ms(model: Latency, bytes: u64) -> f64 {
    match model {
        Latency::Requests | Latency::Statements => 0.0,
        Latency::Documents => mongo::update_ms(bytes),
    }
}

/// A call that sent several requests, each taking its time in `requests`: the slowest (and a
/// little per extra request) when they go together, their sum when they go one after another.
pub fn calls_ms(fanout: Fanout, requests: &[f64]) -> f64 {
    match fanout {
        Fanout::Parallel => fanout_ms(requests),
        Fanout::Sequential => requests.iter().sum(),
    }
}

/// Extra read time for a Cassandra partition of `bytes`.
pub fn cassandra_partition_ms(bytes: u64) -> f64 {
    CASSANDRA_MS_PER_10MB * bytes as f64 / 10_000_000.0
}

/// The notes a report prints about this model: the client's retry policy for requests (which
/// can be throttled), the partition-size penalty for statements (Cassandra never throttles).
pub fn notes(model: Latency, retry: &RetryPolicy) -> Vec<String> {
    if model == Latency::Statements {
        return vec![
            format!(
                "Latencies are modelled, not measured (keyheat's own model): one SELECT per partition a read touches, the partitions read one after another (a per-bucket loop; Cassandra pages an IN over partition keys the same way); each SELECT paged by {} rows (the DataStax Java driver's default page size), {QUERY_MS} ms per page ({GET_MS} ms per single-row SELECT or write) plus {CQL_PER_ROW_MS} ms per row read.",
                crate::engine::planner::numbers::count(CQL_PAGE_ROWS as f64)
            ),
            format!(
                "Cassandra profile: no capacity units and no throttling; a read also pays {CASSANDRA_MS_PER_10MB} ms per 10 MB of each partition it reads (large partitions make reads slow)."
            ),
        ];
    }
    if model == Latency::Documents {
        return vec![
            format!(
                "Latencies are modelled, not measured (keyheat's own model): {GET_MS} ms per findOne or write, {QUERY_MS} ms per find, plus {PER_4KB_MS} ms per 4 KB read; requests to several keys run in parallel (the slowest, plus {FANOUT_EXTRA_MS} ms per extra request)."
            ),
            format!(
                "MongoDB builds the whole new version of a document on every update, however little it changed, so keyheat charges every write {GET_MS} ms plus {PER_4KB_MS} ms per 4 KB of the document it leaves for building and writing that version (keyheat's assumption, ~20 MB/s: the rate its reads are charged at, not a MongoDB figure; WiredTiger itself flushes at checkpoint or eviction, and journals small updates as deltas). A document that grows makes each of its writes slower."
            ),
            "MongoDB profile: one replica set (sharding is not modelled); no capacity units and no throttling, so the read and write figures of partitions and patterns count operations (the JSON report's rcu and wcu totals stay 0).".to_owned(),
        ];
    }
    vec![
        format!(
            "Latencies are modelled, not measured: {GET_MS} ms per GetItem or write, {QUERY_MS} ms per Query, Scan or BatchGetItem page, plus {PER_4KB_MS} ms per 4 KB read; pages of one request follow each other; fan-out requests run in parallel (the slowest, plus {FANOUT_EXTRA_MS} ms per extra request)."
        ),
        format!(
            "Throttled requests are retried by the simulated client under the retry policy {}; the jitter is drawn from the run's seed, the waits count in the latency, and a request that runs out of retries fails (a failed write never lands).",
            retry.describe()
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_cost_a_base_plus_their_reads() {
        // (operation, bytes, expected ms)
        let cases = [
            (Operation::GetItem, 0, 4.0),
            (Operation::PutItem, 0, 4.0),
            (Operation::GetItem, 400, 4.2),
            (Operation::Query, 4096, 5.2),
            (Operation::Query, 4097, 5.4),
            (Operation::Scan, 1 << 20, 5.0 + 0.2 * 256.0),
        ];
        for (operation, bytes, expected) in cases {
            assert!((request_ms(operation, bytes) - expected).abs() < 1e-9, "{operation:?} {bytes}");
        }
    }

    /// A write pays for its document only where an update builds the whole document's new
    /// version (MongoDB): 0.2 ms per 4 KB, keyheat's assumption, so a growing document's
    /// writes slow.
    #[test]
    fn only_a_store_that_rewrites_documents_charges_a_write_by_its_size() {
        // (model, document bytes, extra ms)
        let cases = [
            (Latency::Requests, 1 << 20, 0.0),
            (Latency::Statements, 1 << 20, 0.0),
            (Latency::Documents, 0, 0.0),
            (Latency::Documents, 51_573, 51_573.0 / 20_480.0),
            (Latency::Documents, 1 << 20, 51.2),
            (Latency::Documents, 16_777_216, 819.2),
        ];
        for (model, bytes, ms) in cases {
            assert!((write_extra_ms(model, bytes) - ms).abs() < 1e-9, "{model:?} {bytes}");
        }
        let sizes = [1_000, 10_000, 100_000, 1_000_000];
        let times: Vec<f64> = sizes.iter().map(|&b| write_extra_ms(Latency::Documents, b)).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    }

    #[test]
    fn fanouts_run_in_parallel() {
        assert!((fanout_ms(&[5.0]) - 5.0).abs() < 1e-9);
        assert!((fanout_ms(&[5.0, 9.0, 6.0]) - 10.0).abs() < 1e-9);
        assert!(fanout_ms(&[]).abs() < 1e-9);
        assert!((cassandra_partition_ms(150_000_000) - 15.0).abs() < 1e-9);
    }

    #[test]
    fn cql_reads_cost_pages_of_rows_one_partition_after_another() {
        // (operation, rows on the page, expected ms)
        let pages = [
            (Operation::GetItem, 0, 4.0),
            (Operation::GetItem, 1, 4.005),
            (Operation::Query, 0, 5.0),
            (Operation::Query, 5_000, 30.0),
            (Operation::Scan, 2_000, 15.0),
        ];
        for (operation, rows, expected) in pages {
            assert!((cql_page_ms(operation, rows) - expected).abs() < 1e-9, "{operation:?} {rows}");
        }
        // Partitions read in turn: the sum, not the slowest.
        assert!((calls_ms(Fanout::Sequential, &[30.0, 12.5, 5.0]) - 47.5).abs() < 1e-9);
        assert!(calls_ms(Fanout::Sequential, &[]).abs() < 1e-9);
    }
}
