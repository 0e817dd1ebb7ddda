//! The simulated client's retry policy: how long a throttled request waits before each retry,
//! and when the client gives up. A policy is data (a scenario may name one or give its numbers);
//! the simulator draws the jitter from the run's seed, so reports stay byte-identical.
//!
//! The default is the policy most DynamoDB code in the wild still runs: the AWS SDK for Java 1.x,
//! `PredefinedRetryPolicies.DYNAMODB_DEFAULT`. Its backoff strategy treats throttling errors
//! (`ProvisionedThroughputExceededException`, `ThrottlingException`) apart from other errors:
//! a throttled request waits `ceil / 2 + uniform(0 ..= ceil / 2)` ("equal jitter") with
//! `ceil = min(500 ms × 2^(retry − 1), 20 s)`, and the client gives up after 10 retries. Other
//! retryable errors start from 25 ms with full jitter; the replay raises none of them (its only
//! retryable error is throttling), so they are not modelled.
//!
//! This module must never read the wall clock or a global random source: the caller passes the
//! draw.

/// How a wait is spread below its exponential ceiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Jitter {
    /// Exactly the ceiling.
    None,
    /// Half the ceiling plus a uniform draw of up to the other half.
    Equal,
    /// A uniform draw from zero to the ceiling.
    Full,
}

/// A client's retry policy for throttled requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// How reports name it (`aws-java-v1-dynamodb`, `none`, `custom`).
    pub name: String,
    /// The first retry's ceiling; each further retry doubles it.
    pub base_ms: u64,
    /// No ceiling is higher.
    pub cap_ms: u64,
    /// Retries after the first attempt before the client gives up.
    pub max_retries: u32,
    pub jitter: Jitter,
}

/// The named policies a scenario can choose, each with where its numbers come from.
pub const NAMED: [(&str, &str); 3] = [
    (
        "aws-java-v1-dynamodb",
        "AWS SDK for Java 1.x PredefinedRetryPolicies.DYNAMODB_DEFAULT: throttled requests back off from 500 ms with equal jitter, capped at 20 s, 10 retries",
    ),
    ("none", "no retries: a throttled request fails at once (what a client with retries turned off sees)"),
    (
        "cosmos-sdk",
        "the Cosmos DB SDKs' default for 429s: 9 retries (.NET MaxRetryAttemptsOnRateLimitedRequests), each after the service's x-ms-retry-after-ms, which keyheat takes as 1 s (its assumption: the partition's budget resets every second)",
    ),
];

/// The most a policy may ask for: more retries than this only hide a run's failures for longer.
pub const MAX_RETRIES_LIMIT: u32 = 30;

impl RetryPolicy {
    /// The default: the AWS SDK for Java 1.x DynamoDB policy.
    pub fn aws_java_v1_dynamodb() -> RetryPolicy {
        RetryPolicy {
            name: NAMED[0].0.to_owned(),
            base_ms: 500,
            cap_ms: 20_000,
            max_retries: 10,
            jitter: Jitter::Equal,
        }
    }

    /// The Cosmos DB SDKs' default for requests refused with 429: retry 9 times
    /// ([`crate::engine::profile::cosmos::RATE_LIMIT_RETRIES`]), each after the wait the
    /// service's `x-ms-retry-after-ms` header gives ("Common Azure Cosmos DB REST response
    /// headers"), within 30 s of waits in all (.NET `MaxRetryWaitTimeOnRateLimitedRequests`).
    /// Microsoft does not publish the wait the service gives: keyheat's assumption is 1 s, the
    /// period a partition's budget resets on ("Diagnose and troubleshoot request rate too large
    /// (429) exceptions"), so 9 retries wait 9 s, within the 30 s.
    pub fn cosmos_sdk() -> RetryPolicy {
        RetryPolicy {
            name: NAMED[2].0.to_owned(),
            base_ms: 1000,
            cap_ms: 1000,
            max_retries: crate::engine::profile::cosmos::RATE_LIMIT_RETRIES,
            jitter: Jitter::None,
        }
    }

    /// A policy by its name in [`NAMED`].
    pub fn named(name: &str) -> Option<RetryPolicy> {
        match name {
            "aws-java-v1-dynamodb" => Some(RetryPolicy::aws_java_v1_dynamodb()),
            "cosmos-sdk" => Some(RetryPolicy::cosmos_sdk()),
            "none" => Some(RetryPolicy {
                name: "none".to_owned(),
                base_ms: 0,
                cap_ms: 0,
                max_retries: 0,
                jitter: Jitter::None,
            }),
            _ => None,
        }
    }

    /// The ceiling of retry number `retry` (1-based): the base doubled per earlier retry, capped.
    pub fn ceiling_ms(&self, retry: u32) -> u64 {
        self.base_ms.saturating_mul(1u64 << retry.saturating_sub(1).min(40)).min(self.cap_ms)
    }

    /// The wait before retry number `retry` (1-based), with `draw` uniform in [0, 1) from the
    /// caller's seeded stream.
    pub fn wait_ms(&self, retry: u32, draw: f64) -> u64 {
        let ceiling = self.ceiling_ms(retry);
        let spread = |range: u64| -> u64 {
            // A draw in [0, 1) picks one of `range + 1` whole milliseconds, as the SDK's
            // `Random.nextInt(range + 1)` does.
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "draw < 1 keeps the product below range + 1"
            )]
            let picked = (draw.clamp(0.0, 1.0) * (range + 1) as f64) as u64;
            picked.min(range)
        };
        match self.jitter {
            Jitter::None => ceiling,
            Jitter::Equal => ceiling / 2 + spread(ceiling / 2),
            Jitter::Full => spread(ceiling),
        }
    }

    /// The shortest and longest [`RetryPolicy::wait_ms`] of retry number `retry`, between which
    /// its draws spread evenly: what the fluid replay spreads throttled demand over.
    pub fn wait_range_ms(&self, retry: u32) -> (f64, f64) {
        let ceiling = self.ceiling_ms(retry);
        match self.jitter {
            Jitter::None => (ceiling as f64, ceiling as f64),
            Jitter::Equal => ((ceiling / 2) as f64, (ceiling / 2 + ceiling / 2) as f64),
            Jitter::Full => (0.0, ceiling as f64),
        }
    }

    /// One line for a report: the policy's name and numbers.
    pub fn describe(&self) -> String {
        if self.max_retries == 0 {
            return format!("{}: no retries, a throttled request fails at once", self.name);
        }
        if self.jitter == Jitter::None && self.base_ms == self.cap_ms {
            // A wait that never grows (the Cosmos DB SDKs wait what the service says).
            return format!(
                "{}: throttled requests wait {} s before each retry, at most {} retries",
                self.name,
                self.base_ms as f64 / 1000.0,
                self.max_retries
            );
        }
        let jitter = match self.jitter {
            Jitter::None => "no jitter",
            Jitter::Equal => "equal jitter",
            Jitter::Full => "full jitter",
        };
        format!(
            "{}: throttled requests wait from {} ms doubling per retry ({jitter}), capped at {} s, at most {} retries",
            self.name,
            self.base_ms,
            self.cap_ms as f64 / 1000.0,
            self.max_retries
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // AWS SDK for Java 1.x, PredefinedRetryPolicies: DYNAMODB_DEFAULT uses
    // SDK_DEFAULT_THROTTLED_BASE_DELAY (500 ms), SDK_DEFAULT_MAX_BACKOFF_IN_MILLISECONDS (20 s) and
    // DYNAMODB_DEFAULT_MAX_ERROR_RETRY (10); throttled errors use EqualJitterBackoffStrategy.
    #[test]
    fn the_default_is_the_java_v1_dynamodb_policy() {
        let p = RetryPolicy::aws_java_v1_dynamodb();
        let ceilings: Vec<u64> = (1..=p.max_retries).map(|r| p.ceiling_ms(r)).collect();
        assert_eq!(ceilings, [500, 1000, 2000, 4000, 8000, 16_000, 20_000, 20_000, 20_000, 20_000]);
        assert_eq!(p.ceiling_ms(40), 20_000);
        assert_eq!(RetryPolicy::named("aws-java-v1-dynamodb"), Some(p));
    }

    // Cosmos DB: 9 retries (.NET MaxRetryAttemptsOnRateLimitedRequests); the service's
    // retry-after taken as the 1 s a partition's budget resets on (keyheat's assumption), so
    // the waits stay within the SDK's 30 s MaxRetryWaitTimeOnRateLimitedRequests.
    #[test]
    fn the_wait_range_holds_every_draw() {
        for policy in [RetryPolicy::aws_java_v1_dynamodb(), RetryPolicy::cosmos_sdk()] {
            for retry in 1..=policy.max_retries {
                let (lo, hi) = policy.wait_range_ms(retry);
                for draw in [0.0, 0.3, 0.999_999] {
                    let wait = policy.wait_ms(retry, draw) as f64;
                    assert!(
                        lo <= wait && wait <= hi,
                        "{} retry {retry}: {wait} outside {lo}..{hi}",
                        policy.name
                    );
                }
                assert!((policy.wait_ms(retry, 0.0) as f64 - lo).abs() < 1e-9);
            }
        }
        assert_eq!(RetryPolicy::aws_java_v1_dynamodb().wait_range_ms(1), (250.0, 500.0));
    }

    #[test]
    fn the_cosmos_policy_waits_a_second_nine_times() {
        let p = RetryPolicy::cosmos_sdk();
        let waits: Vec<u64> = (1..=p.max_retries).map(|r| p.wait_ms(r, 0.7)).collect();
        assert_eq!(waits, [1000; 9]);
        assert!(waits.iter().sum::<u64>() <= 30_000);
        assert_eq!(
            p.describe(),
            "cosmos-sdk: throttled requests wait 1 s before each retry, at most 9 retries"
        );
        assert_eq!(RetryPolicy::named("cosmos-sdk"), Some(p));
    }

    #[test]
    fn equal_jitter_waits_between_half_the_ceiling_and_the_ceiling() {
        let p = RetryPolicy::aws_java_v1_dynamodb();
        // (retry, draw, wait)
        let cases =
            [(1, 0.0, 250), (1, 0.999_999, 500), (1, 0.5, 375), (3, 0.0, 1000), (9, 0.999_999, 20_000)];
        for (retry, draw, wait) in cases {
            assert_eq!(p.wait_ms(retry, draw), wait, "retry {retry}, draw {draw}");
        }
    }

    #[test]
    fn full_and_no_jitter_follow_their_rules() {
        let full = RetryPolicy { jitter: Jitter::Full, ..RetryPolicy::aws_java_v1_dynamodb() };
        assert_eq!(full.wait_ms(1, 0.0), 0);
        assert_eq!(full.wait_ms(2, 0.999_999), 1000);
        let fixed = RetryPolicy { jitter: Jitter::None, ..RetryPolicy::aws_java_v1_dynamodb() };
        assert_eq!(fixed.wait_ms(2, 0.3), 1000);
        let none = RetryPolicy::named("none").unwrap();
        assert_eq!(none.max_retries, 0);
        assert!(RetryPolicy::named("exponential").is_none());
    }

    #[test]
    fn every_named_policy_resolves_and_describes_itself() {
        for (name, _) in NAMED {
            let p = RetryPolicy::named(name).unwrap_or_else(|| panic!("{name}"));
            assert!(p.describe().starts_with(name));
        }
        assert_eq!(
            RetryPolicy::aws_java_v1_dynamodb().describe(),
            "aws-java-v1-dynamodb: throttled requests wait from 500 ms doubling per retry (equal jitter), capped at 20 s, at most 10 retries"
        );
    }
}
