//! A read-through cache, predicted: the share of a cached read pattern's keys its item cache
//! answers (DAX; `model::ReadCache`), which `check` takes off the pattern's read units, its
//! items read and its load on the busiest partition.
//!
//! What AWS documents (DAX: How it works; Configuring your DAX cluster): GetItem and
//! BatchGetItem keys are answered from the item cache while their entry lives (the item TTL,
//! 5 minutes by default), a hit consumes no read capacity, a miss reads the table and fills the
//! cache, and a full cache evicts the least recently used entry. Query and Scan go through the
//! query cache, keyed by the request's exact parameters, which keyheat does not model: such a
//! pattern is costed as uncached.
//!
//! The prediction is keyheat's model, the one `sim::cache` replays:
//! - **TTL cache** (the renewal model of a TTL cache, as in Jung, Berger and Balakrishnan,
//!   "Modeling TTL-based Internet caches", INFOCOM 2003): a key asked λᵢ times a second misses,
//!   and the miss starts a window of T during which its requests hit; then the next request
//!   misses again. Each cycle holds 1 miss and λᵢT hits on average, so the key hits with
//!   probability λᵢT / (1 + λᵢT) and is in the cache that share of the time.
//! - **A cold start**: the replay's cache starts empty, as a new cluster's does, and a key's
//!   first request misses whatever its rate. Over a run of D from empty a key expects
//!   m(D) = (1 − e^(−λᵢD)) + λᵢ/(1 + λᵢT) · E[(D − T − τ)⁺] misses, τ ~ Exp(λᵢ) the time of
//!   its first request: that first miss, then the steady miss rate λᵢ/(1 + λᵢT) over what is
//!   left after its window (exact while D ≤ T, within a miss per key after). Its hit ratio over the run is 1 − m(D) / (λᵢD), which tends to λᵢT/(1 + λᵢT)
//!   as D grows. The hot-partition check uses the steady value: it is about the peak.
//! - **Capacity**: when the keys' mean occupancy Σ λᵢT / (1 + λᵢT) fits the cache's items, the
//!   TTL alone decides and eviction is ignored. Otherwise Che's approximation for LRU (Che,
//!   Tung and Wang, "Hierarchical Web caching systems", IEEE JSAC 2002): the cache keeps a key
//!   for a characteristic time t_C with Σ (1 − e^(−λᵢ t_C)) = C items, and a key hits with
//!   probability 1 − e^(−λᵢ t_C), never more than its TTL model allows.
//!
//! λᵢ is the pattern's mean rate times the key's share of its picks (its first given
//! attribute's popularity over the population, as `condition` weighs items).

use super::estimate::Estimator;
use super::load::mean_rate;
use crate::engine::model::{AccessPattern, ReadCache};

/// What the cache in front of a read pattern is predicted to do.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CachePlan {
    /// The entry lifetime (seconds) and the most items the cache holds.
    pub ttl_secs: f64,
    pub items: u64,
    /// The share of the pattern's keys answered from the cache.
    pub hit_ratio: f64,
    /// Read units per call the table would charge without the cache (`units_per_call` is what
    /// the misses cost).
    pub uncached_units_per_call: f64,
    /// Read units per second the hits save, at the mean rate.
    pub rcu_saved_per_s: f64,
    /// Whether the cache's capacity binds (Che's approximation applies) or the TTL alone decides.
    pub capacity_binds: bool,
    /// False when the cache fronts the pattern but the plan serves it with a Query or Scan (or
    /// reads split by entity), which the item cache never sees.
    pub applies: bool,
    /// The arithmetic, as values: `report::findings` words it (and writes it as `why` in
    /// `check`'s JSON).
    pub why: CacheWhy,
}

/// What a read-through cache does to a pattern's calls, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum CacheWhy {
    /// The plan is a Query or Scan (or reads split by entity), which an item cache never sees.
    NotAnItemRead,
    /// A TTL of `ttl_secs` over a run of `run_secs`: at `calls` a second over `keys` keys,
    /// `hit` of the calls hit; the busiest key (`busiest` of the calls) hits `busiest_hit`.
    Hits {
        ttl_secs: f64,
        run_secs: f64,
        calls: f64,
        keys: f64,
        hit: f64,
        busiest: f64,
        busiest_hit: f64,
        eviction: Eviction,
    },
}

/// Whether a cache's capacity binds.
#[derive(Debug, Clone, PartialEq)]
pub enum Eviction {
    /// The `kept` keys it holds on average fit its `items`.
    Fits { kept: f64, items: f64 },
    /// More keys live than its `items` hold: LRU keeps a key about `keep_secs` (Che).
    Lru { items: f64, keep_secs: f64 },
}

/// The chance a key asked `per_s` times a second hits a TTL cache of `ttl_secs`.
pub fn ttl_hit(per_s: f64, ttl_secs: f64) -> f64 {
    let x = per_s.max(0.0) * ttl_secs.max(0.0);
    x / (1.0 + x)
}

/// The share of its requests a key asked `per_s` times a second hits over `horizon_secs` of a
/// cache that starts empty (see the module's docs).
pub fn ttl_hit_over(per_s: f64, ttl_secs: f64, horizon_secs: f64) -> f64 {
    let asked = per_s.max(0.0) * horizon_secs;
    if asked <= 0.0 || !asked.is_finite() {
        return ttl_hit(per_s, ttl_secs);
    }
    let first = -(-asked).exp_m1();
    // The first miss comes at τ ~ Exp(λ); after its window the key misses at the steady rate
    // λ/(1 + λT) for the (D − T − τ)⁺ left, E[(a − τ)⁺] = a − (1 − e^(−λa))/λ.
    let left = (horizon_secs - ttl_secs).max(0.0);
    let after = if left > 0.0 { left + (-per_s * left).exp_m1() / per_s } else { 0.0 };
    let misses = first + per_s * after / (1.0 + per_s * ttl_secs);
    (1.0 - misses / asked).max(0.0)
}

/// Che's characteristic time of an LRU cache of `capacity` items under these per-key rates:
/// Σ (1 − e^(−λᵢ t)) = capacity. `None` when every key fits (fewer keys than items).
pub fn che_time(rates: &[f64], capacity: f64) -> Option<f64> {
    let live = rates.iter().filter(|&&r| r > 0.0).count() as f64;
    if live <= capacity {
        return None;
    }
    let held = |t: f64| rates.iter().map(|&r| -(-r * t).exp_m1()).sum::<f64>();
    let (mut lo, mut hi) = (0.0, 1.0);
    while held(hi) < capacity {
        hi *= 2.0;
    }
    // The sum rises with t: bisect to well under a percent of t_C.
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if held(mid) < capacity {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The hit probability of each key under the model: TTL, capped by Che's LRU when the mean
/// occupancy passes the capacity. Returns the per-key hits and whether the capacity binds.
/// Over `horizon_secs` from a cold cache.
pub fn key_hits(rates: &[f64], ttl_secs: f64, capacity: f64, horizon_secs: f64) -> (Vec<f64>, Option<f64>) {
    let occupancy: f64 = rates.iter().map(|&r| ttl_hit(r, ttl_secs)).sum();
    let ttl: Vec<f64> = rates.iter().map(|&r| ttl_hit_over(r, ttl_secs, horizon_secs)).collect();
    if occupancy <= capacity {
        return (ttl, None);
    }
    let Some(t_c) = che_time(rates, capacity) else { return (ttl, None) };
    let hits = rates.iter().zip(&ttl).map(|(&r, &h)| h.min(-(-r * t_c).exp_m1())).collect();
    (hits, Some(t_c))
}

/// The chance a call's key hits over a run of `horizon_secs`, weighed by the keys' shares of
/// the calls.
pub fn hit_ratio(
    shares: &[f64],
    calls_per_s: f64,
    cache: &ReadCache,
    horizon_secs: f64,
) -> (f64, Option<f64>) {
    let rates: Vec<f64> = shares.iter().map(|&q| q * calls_per_s).collect();
    let (hits, t_c) = key_hits(&rates, cache.ttl.as_secs_f64(), cache.items as f64, horizon_secs);
    (shares.iter().zip(&hits).map(|(q, h)| q * h).sum(), t_c)
}

/// The cache's plan for read pattern `p`, served by `operation` at `units` per call (`None`
/// when no cache fronts it).
pub fn plan(est: &Estimator<'_>, p: &AccessPattern, item_cache: bool, units: f64) -> Option<CachePlan> {
    let cache = est.variant.cache_for(p.id())?;
    let ttl_secs = cache.ttl.as_secs_f64();
    if !item_cache {
        return Some(CachePlan {
            ttl_secs,
            items: cache.items,
            hit_ratio: 0.0,
            uncached_units_per_call: units,
            rcu_saved_per_s: 0.0,
            capacity_binds: false,
            applies: false,
            why: CacheWhy::NotAnItemRead,
        });
    }
    let calls = mean_rate(p, est.secs);
    let shares = super::condition::item_shares(est, p);
    let (hit, t_c) = hit_ratio(&shares, calls, cache, est.secs);
    let busiest = shares.iter().copied().fold(0.0, f64::max);
    let busiest_hit = key_hit(est, p, busiest * calls);
    let eviction = match t_c {
        None => Eviction::Fits {
            kept: shares.iter().map(|&q| ttl_hit(q * calls, ttl_secs)).sum(),
            items: cache.items as f64,
        },
        Some(keep_secs) => Eviction::Lru { items: cache.items as f64, keep_secs },
    };
    Some(CachePlan {
        ttl_secs,
        items: cache.items,
        hit_ratio: hit,
        uncached_units_per_call: units,
        rcu_saved_per_s: calls * units * hit,
        capacity_binds: t_c.is_some(),
        applies: true,
        why: CacheWhy::Hits {
            ttl_secs,
            run_secs: est.secs,
            calls,
            keys: shares.len() as f64,
            hit,
            busiest,
            busiest_hit,
            eviction,
        },
    })
}

/// The chance the key asked `per_s` times a second hits the cache in front of `p` (0 when none
/// does): what the hot-partition check takes off the busiest key's reads.
pub fn key_hit(est: &Estimator<'_>, p: &AccessPattern, per_s: f64) -> f64 {
    est.variant.cache_for(p.id()).map_or(0.0, |c| ttl_hit(per_s, c.ttl.as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ttl_cache_hits_by_the_keys_rate_times_the_ttl() {
        // (requests per second, TTL s, hit probability)
        let cases = [
            (0.0, 300.0, 0.0),
            (1.0 / 300.0, 300.0, 0.5),
            (1.0, 300.0, 300.0 / 301.0),
            (5000.0, 300.0, 1_500_000.0 / 1_500_001.0),
            (2.0, 0.0, 0.0),
        ];
        for (per_s, ttl, expected) in cases {
            assert!((ttl_hit(per_s, ttl) - expected).abs() < 1e-12, "{per_s}/s, {ttl} s");
        }
    }

    #[test]
    fn a_cold_cache_misses_each_keys_first_request() {
        // (requests per second, TTL s, run s, hit share over the run)
        let cases = [
            // Asked once on average in a run shorter than the TTL: N − 1 of N requests hit.
            (1.0 / 60.0, 300.0, 60.0, 1.0 - (1.0 - (-1.0f64).exp())),
            // 10/s for a minute under a 5-minute TTL: all but the first of ~600.
            (10.0, 300.0, 60.0, 1.0 - (1.0 - (-600.0f64).exp()) / 600.0),
            // A run far longer than the TTL: the steady λT/(1 + λT).
            (1.0, 60.0, 1e9, 60.0 / 61.0),
        ];
        for (per_s, ttl, run, expected) in cases {
            let got = ttl_hit_over(per_s, ttl, run);
            assert!((got - expected).abs() < 1e-6, "{per_s}/s, TTL {ttl}, run {run}: {got} vs {expected}");
        }
    }

    #[test]
    fn che_time_fills_the_cache_exactly() {
        let rates: Vec<f64> = (1..=1000).map(|k| 100.0 / f64::from(k)).collect();
        for capacity in [10.0, 100.0, 500.0] {
            let t = che_time(&rates, capacity).expect("more keys than items");
            let held: f64 = rates.iter().map(|&r| 1.0 - (-r * t).exp()).sum();
            assert!((held - capacity).abs() < 1e-6, "capacity {capacity}: held {held}");
        }
        assert_eq!(che_time(&rates, 1000.0), None, "every key fits");
    }

    #[test]
    fn capacity_binds_only_when_the_ttl_working_set_does_not_fit() {
        // 1,000 keys at 1/s each and a 60 s TTL: each is cached 60/61 of the time, ~984 keys.
        let rates = vec![1.0; 1000];
        let (hits, t_c) = key_hits(&rates, 60.0, 2000.0, 1e12);
        assert!(t_c.is_none());
        assert!((hits[0] - 60.0 / 61.0).abs() < 1e-9);
        let (hits, t_c) = key_hits(&rates, 60.0, 100.0, 1e12);
        let t = t_c.expect("100 items hold a tenth of the keys");
        // Even keys: each holds 100/1000 of the time, 1 − e^(−t) = 0.1.
        assert!((hits[0] - 0.1).abs() < 1e-9 && (t - (1.0f64 / 0.9).ln()).abs() < 1e-6);
    }
}
