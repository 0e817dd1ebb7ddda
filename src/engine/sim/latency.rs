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
//! - Retries: the AWS SDKs retry throttled DynamoDB requests with exponential backoff, a 25 ms
//!   base doubling per attempt, up to 10 retries (AWS SDK for Java 1.x
//!   `PredefinedRetryPolicies.DYNAMODB_DEFAULT`; delays capped at 20 s). keyheat uses the
//!   delays without jitter so runs stay deterministic: a retried request adds its waits and the
//!   base of every attempt.
//! - Cassandra: the same request costs, and a read of a large partition pays 1 ms per 10 MB of
//!   the partition, standing for what large partitions cost Cassandra reads (index samples,
//!   more SSTables and compaction work, GC pressure — DataStax's guidance to keep partitions
//!   under ~100 MB). Cassandra never throttles; it gets slow.

use crate::engine::planner::Operation;

pub const WRITE_MS: f64 = 4.0;
pub const GET_MS: f64 = 4.0;
pub const QUERY_MS: f64 = 5.0;
pub const PER_4KB_MS: f64 = 0.2;
pub const FANOUT_EXTRA_MS: f64 = 0.5;
pub const CASSANDRA_MS_PER_10MB: f64 = 1.0;

/// The first retry waits this long; each further one twice the last.
pub const BACKOFF_BASE_MS: u64 = 25;
/// No single wait is longer.
pub const BACKOFF_CAP_MS: u64 = 20_000;
/// Retries after the first attempt before the client gives up.
pub const MAX_RETRIES: u32 = 10;

/// The base time of one request of `operation`.
pub fn base_ms(operation: Operation) -> f64 {
    match operation {
        Operation::GetItem => GET_MS,
        Operation::PutItem | Operation::UpdateItem | Operation::DeleteItem => WRITE_MS,
        Operation::Query | Operation::Scan | Operation::BatchGetItem => QUERY_MS,
    }
}

/// One page (or one request) that read `bytes`.
pub fn request_ms(operation: Operation, bytes: u64) -> f64 {
    base_ms(operation) + PER_4KB_MS * bytes.div_ceil(4096) as f64
}

/// The wait before retry number `retry` (1-based).
pub fn backoff_ms(retry: u32) -> u64 {
    BACKOFF_BASE_MS.saturating_mul(1u64 << (retry - 1).min(20)).min(BACKOFF_CAP_MS)
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

/// The notes a report prints about this model: the throttling retries for DynamoDB, the
/// partition-size penalty for Cassandra (which never throttles).
pub fn notes(cassandra: bool) -> Vec<String> {
    let mut notes = vec![format!(
        "Latencies are modelled, not measured: {GET_MS} ms per GetItem or write, {QUERY_MS} ms per Query, Scan or BatchGetItem page, plus {PER_4KB_MS} ms per 4 KB read; pages of one request follow each other; fan-out requests run in parallel (the slowest, plus {FANOUT_EXTRA_MS} ms per extra request)."
    )];
    notes.push(if cassandra {
        format!(
            "Cassandra profile: no capacity units and no throttling; a read also pays {CASSANDRA_MS_PER_10MB} ms per 10 MB of the partition it reads (large partitions make reads slow)."
        )
    } else {
        format!(
            "Throttled requests are retried by the simulated client as the AWS SDKs do for DynamoDB: {BACKOFF_BASE_MS} ms doubling per retry (capped at {} s), at most {MAX_RETRIES} retries, no jitter; the waits count in the latency and a request that runs out of retries fails (a failed write never lands).",
            BACKOFF_CAP_MS / 1000
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
    fn backoff_doubles_from_25ms_and_caps_at_20s() {
        let waits: Vec<u64> = (1..=MAX_RETRIES).map(backoff_ms).collect();
        assert_eq!(waits, [25, 50, 100, 200, 400, 800, 1600, 3200, 6400, 12_800]);
        assert_eq!(backoff_ms(11), 20_000);
        assert_eq!(backoff_ms(40), 20_000);
    }

    #[test]
    fn fanouts_run_in_parallel() {
        assert!((fanout_ms(&[5.0]) - 5.0).abs() < 1e-9);
        assert!((fanout_ms(&[5.0, 9.0, 6.0]) - 10.0).abs() < 1e-9);
        assert!(fanout_ms(&[]).abs() < 1e-9);
        assert!((cassandra_partition_ms(150_000_000) - 15.0).abs() < 1e-9);
    }
}
