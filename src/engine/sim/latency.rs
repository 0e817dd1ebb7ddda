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
//! - Cassandra: the same request costs, and a read of a large partition pays 1 ms per 10 MB of
//!   the partition, standing for what large partitions cost Cassandra reads (index samples,
//!   more SSTables and compaction work, GC pressure — DataStax's guidance to keep partitions
//!   under ~100 MB). Cassandra never throttles; it gets slow.

use crate::engine::planner::Operation;
use crate::engine::retry::RetryPolicy;

pub const WRITE_MS: f64 = 4.0;
pub const GET_MS: f64 = 4.0;
pub const QUERY_MS: f64 = 5.0;
pub const PER_4KB_MS: f64 = 0.2;
pub const FANOUT_EXTRA_MS: f64 = 0.5;
pub const CASSANDRA_MS_PER_10MB: f64 = 1.0;

/// The base time of one request of `operation`.
pub fn base_ms(operation: Operation) -> f64 {
    match operation {
        Operation::GetItem => GET_MS,
        Operation::PutItem | Operation::UpdateItem | Operation::DeleteItem => WRITE_MS,
        // Two writes, one after the other.
        Operation::DeleteAndPut => 2.0 * WRITE_MS,
        Operation::Query | Operation::Scan | Operation::BatchGetItem => QUERY_MS,
    }
}

/// One page (or one request) that read `bytes`.
pub fn request_ms(operation: Operation, bytes: u64) -> f64 {
    base_ms(operation) + PER_4KB_MS * bytes.div_ceil(4096) as f64
}

/// A fan-out's time from its requests' times.
pub fn fanout_ms(requests: &[f64]) -> f64 {
    let slowest = requests.iter().copied().fold(0.0, f64::max);
    slowest + FANOUT_EXTRA_MS * requests.len().saturating_sub(1) as f64
}

/// Extra read time for a Cassandra partition of `bytes`.
pub fn cassandra_partition_ms(bytes: u64) -> f64 {
    CASSANDRA_MS_PER_10MB * bytes as f64 / 10_000_000.0
}

/// The notes a report prints about this model: the client's retry policy for DynamoDB, the
/// partition-size penalty for Cassandra (which never throttles).
pub fn notes(cassandra: bool, retry: &RetryPolicy) -> Vec<String> {
    let mut notes = vec![format!(
        "Latencies are modelled, not measured: {GET_MS} ms per GetItem or write, {QUERY_MS} ms per Query, Scan or BatchGetItem page, plus {PER_4KB_MS} ms per 4 KB read; pages of one request follow each other; fan-out requests run in parallel (the slowest, plus {FANOUT_EXTRA_MS} ms per extra request)."
    )];
    notes.push(if cassandra {
        format!(
            "Cassandra profile: no capacity units and no throttling; a read also pays {CASSANDRA_MS_PER_10MB} ms per 10 MB of the partition it reads (large partitions make reads slow)."
        )
    } else {
        format!(
            "Throttled requests are retried by the simulated client under the retry policy {}; the jitter is drawn from the run's seed, the waits count in the latency, and a request that runs out of retries fails (a failed write never lands).",
            retry.describe()
        )
    });
    notes
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

    #[test]
    fn fanouts_run_in_parallel() {
        assert!((fanout_ms(&[5.0]) - 5.0).abs() < 1e-9);
        assert!((fanout_ms(&[5.0, 9.0, 6.0]) - 10.0).abs() < 1e-9);
        assert!(fanout_ms(&[]).abs() < 1e-9);
        assert!((cassandra_partition_ms(150_000_000) - 15.0).abs() < 1e-9);
    }
}
