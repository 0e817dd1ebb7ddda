//! When each request is due on the wall clock, and how long a throttled one waits: pure
//! functions of the simulated time, the rate scale and the scenario's retry policy, so the
//! replay loop only sleeps and sends.

use std::time::Duration;

use crate::engine::hash::combine;
use crate::engine::retry::RetryPolicy;

/// The errors DynamoDB's SDKs retry as throttling: the table's or a partition's capacity, the
/// account's request rate, and the control plane's.
pub const THROTTLES: [&str; 3] =
    ["ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"];

/// The stream the retry jitter draws from, apart from the simulator's streams.
const JITTER_STREAM: u64 = 0x656e_6470_6f69_6e74;

pub fn is_throttle(error: &str) -> bool {
    THROTTLES.contains(&error)
}

/// How long after the replay's start a request made `at_ms` simulated milliseconds into the
/// workload is due: `--rate-scale 2` sends the same requests in half the time.
pub fn due(at_ms: u64, rate_scale: f64) -> Duration {
    Duration::from_secs_f64(at_ms as f64 / 1000.0 / rate_scale)
}

/// The retry waits of one run: the scenario's policy, with jitter drawn from the run's seed so
/// two runs wait alike.
#[derive(Debug, Clone)]
pub struct Backoff {
    pub policy: RetryPolicy,
    pub seed: u64,
}

impl Backoff {
    /// The wait before retry number `retry` (1-based) of request number `request`, or `None`
    /// when the policy has given up.
    pub fn wait(&self, request: u64, retry: u32) -> Option<Duration> {
        if retry > self.policy.max_retries {
            return None;
        }
        let hash = combine(&[self.seed, JITTER_STREAM, request, u64::from(retry)]);
        let draw = (hash >> 11) as f64 / (1u64 << 53) as f64;
        Some(Duration::from_millis(self.policy.wait_ms(retry, draw)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_scale_stretches_or_squeezes_the_schedule() {
        assert_eq!(due(10_000, 1.0), Duration::from_secs(10));
        assert_eq!(due(10_000, 2.0), Duration::from_secs(5));
        assert_eq!(due(10_000, 0.5), Duration::from_secs(20));
        assert_eq!(due(0, 3.0), Duration::ZERO);
    }

    #[test]
    fn throttles_back_off_by_the_policy_and_give_up_after_its_retries() {
        let backoff = Backoff { policy: RetryPolicy::aws_java_v1_dynamodb(), seed: 7 };
        for retry in 1..=10 {
            let wait = u64::try_from(backoff.wait(3, retry).unwrap().as_millis()).unwrap();
            let ceiling = backoff.policy.ceiling_ms(retry);
            assert!((ceiling / 2..=ceiling).contains(&wait), "retry {retry}: {wait} ms");
            assert_eq!(backoff.wait(3, retry), backoff.wait(3, retry), "seeded");
        }
        assert_eq!(backoff.wait(3, 11), None);
        let none = Backoff { policy: RetryPolicy::named("none").unwrap(), seed: 7 };
        assert_eq!(none.wait(0, 1), None);
        assert!(is_throttle("ThrottlingException") && !is_throttle("ValidationException"));
    }
}
