//! What the workload's vocabulary implies for load, in closed form: the share the most popular
//! member of a population takes under each popularity, the typical value of a distribution, and
//! a pattern's mean and peak rates under its rate shapes. The simulator draws; the planner
//! needs these expectations without drawing.

use super::numbers;
use crate::engine::model::AccessPattern;
use crate::engine::workload::{Distribution, Popularity, RateShape};

/// The share of picks that land on the most popular of `n` members.
pub fn hottest_share(popularity: &Popularity, n: f64) -> f64 {
    let n = n.max(1.0);
    match popularity {
        Popularity::Uniform | Popularity::Seq => 1.0 / n,
        // Scrambling moves the hottest member, not its share.
        Popularity::Zipf { s, .. } => 1.0 / harmonic(n, *s),
        // YCSB's latest: Zipf with s = 0.99 over recency.
        Popularity::Latest => 1.0 / harmonic(n, 0.99),
        Popularity::Hotspot { data, ops } => {
            let hot = (data * n).round().clamp(1.0, n);
            let cold = n - hot;
            let hot_each = ops / hot;
            if cold > 0.0 { hot_each.max((1.0 - ops) / cold) } else { 1.0 / n }
        }
        Popularity::Fixed(_) => 1.0,
        // An upper bound: as if every branch's hottest member were the same one.
        Popularity::Weighted(branches) => {
            let total: f64 = branches.iter().map(|(w, _)| w).sum();
            branches.iter().map(|(w, p)| w * hottest_share(p, n)).sum::<f64>() / total
        }
    }
}

/// H(n, s) = Σ k^-s for k = 1..=n: exact for the first 10,000 terms, the integral of x^-s
/// (midpoint rule) for the rest.
fn harmonic(n: f64, s: f64) -> f64 {
    const EXACT: f64 = 10_000.0;
    let exact_to = numbers::floor_u64(n.min(EXACT));
    let head: f64 = (1..=exact_to).map(|k| (k as f64).powf(-s)).sum();
    if n <= EXACT {
        return head;
    }
    let (a, b) = (EXACT + 0.5, n + 0.5);
    let tail =
        if (s - 1.0).abs() < 1e-12 { (b / a).ln() } else { (b.powf(1.0 - s) - a.powf(1.0 - s)) / (1.0 - s) };
    head + tail
}

/// The share the most popular member keeps over a whole run: a `Latest` pick favours whichever
/// member is newest, so over time no single member keeps more than an even share.
pub fn steady_share(popularity: &Popularity, n: f64) -> f64 {
    match popularity {
        Popularity::Latest => 1.0 / n.max(1.0),
        Popularity::Weighted(branches) => {
            let total: f64 = branches.iter().map(|(w, _)| w).sum();
            branches.iter().map(|(w, p)| w * steady_share(p, n)).sum::<f64>() / total
        }
        other => hottest_share(other, n),
    }
}

/// Members beyond which `meeting` stops writing out shares (O(n) each) and assumes two
/// different popularities independent.
pub const MEETING_EXACT: u64 = 4_000_000;

/// `hottest_share`, with a mix's branches placed where the workload puts them: a `Weighted`
/// pick's favourite takes what every branch gives that member, its shares added member by member
/// (`seed` places scrambled Zipf ranks as `pick` does), not the sum of each branch's own
/// favourite. A fixed tenant beside a scrambled Zipf over the same tenants is rarely Zipf's top
/// one. Exact up to `MEETING_EXACT` members; beyond, `hottest_share`'s upper bound.
pub fn placed_hottest_share(popularity: &Popularity, n: f64, seed: u64) -> f64 {
    match popularity {
        Popularity::Weighted(_) => {
            placed_max(popularity, n, seed).unwrap_or_else(|| hottest_share(popularity, n))
        }
        other => hottest_share(other, n),
    }
}

/// `steady_share`, with a mix's branches placed as `placed_hottest_share` places them; a
/// `Latest` branch spreads evenly over a run (its favourite moves on).
pub fn placed_steady_share(popularity: &Popularity, n: f64, seed: u64) -> f64 {
    match popularity {
        Popularity::Weighted(branches) => {
            let over_a_run = branches
                .iter()
                .map(|(w, p)| (*w, if *p == Popularity::Latest { Popularity::Uniform } else { p.clone() }))
                .collect();
            placed_max(&Popularity::Weighted(over_a_run), n, seed)
                .unwrap_or_else(|| steady_share(popularity, n))
        }
        other => steady_share(other, n),
    }
}

/// The largest share any one member takes, written out member by member; `None` past
/// `MEETING_EXACT` members.
fn placed_max(popularity: &Popularity, n: f64, seed: u64) -> Option<f64> {
    let members = numbers::floor_u64(n.round().max(1.0));
    (members <= MEETING_EXACT).then(|| popularity.shares(members, seed).into_iter().fold(0.0, f64::max))
}

/// The chance that two independent picks from `n` members, one made with `a` and one with `b`,
/// land on the same member: Σ aᵢ·bᵢ. With a = b that is the collision probability Σ pᵢ²
/// (Zipf: H(n, 2s) / H(n, s)²), which is how much more a popular member holds than the
/// average; with either uniform (or `Latest`) it is 1/n. `seed` places scrambled ranks as the workload does.
pub fn meeting(a: &Popularity, b: &Popularity, n: u64, seed: u64) -> f64 {
    let n = n.max(1);
    // `Latest` favours whichever member is newest when it picks: over a run the favourite
    // moves on, so what it wrote earlier is not what it (or another pick) favours later.
    let even = |p: &Popularity| matches!(p, Popularity::Uniform | Popularity::Seq | Popularity::Latest);
    if even(a) || even(b) {
        return 1.0 / n as f64;
    }
    if n > MEETING_EXACT {
        return match (a, b) {
            (Popularity::Zipf { s, .. }, Popularity::Zipf { s: t, .. }) if (s - t).abs() < 1e-12 => {
                harmonic(n as f64, 2.0 * s) / harmonic(n as f64, *s).powi(2)
            }
            _ => 1.0 / n as f64,
        };
    }
    let (a, b) = (a.shares(n, seed), b.shares(n, seed));
    a.iter().zip(&b).map(|(x, y)| x * y).sum()
}

pub fn popularity_label(popularity: &Popularity) -> String {
    match popularity {
        Popularity::Uniform => "uniform".to_owned(),
        Popularity::Zipf { s, .. } => format!("Zipf(s: {s})"),
        Popularity::Latest => "latest-first".to_owned(),
        Popularity::Hotspot { data, ops } => format!("Hotspot(data: {data}, ops: {ops})"),
        Popularity::Seq => "in sequence".to_owned(),
        Popularity::Fixed(_) => "always one member".to_owned(),
        Popularity::Weighted(_) => "a weighted mix".to_owned(),
    }
}

/// A typical value of the distribution (its mean, or its most common value), for sizing numbers.
pub fn typical(distribution: &Distribution) -> f64 {
    match distribution {
        Distribution::Fixed(v) => *v,
        Distribution::Uniform(a, b) | Distribution::Gaussian(a, b) | Distribution::Seq(a, b) => (a + b) / 2.0,
        Distribution::Normal { mean, .. } => *mean,
        // The workload's Exp(a, b): scale (b - a)/5 truncated at b, mean ≈ a + 0.193·(b - a).
        Distribution::Exp(a, b) => a + 0.193 * (b - a),
        Distribution::Zipf { .. } => 1.0,
        Distribution::Weighted(branches) => branches
            .iter()
            .fold(None::<&(f64, Distribution)>, |best, b| match best {
                Some(x) if x.0 >= b.0 => Some(x),
                _ => Some(b),
            })
            .map_or(0.0, |(_, d)| typical(d)),
    }
}

/// Calls per second on average over a run of `secs`: the base rate times each shape's mean
/// factor (the workload's diurnal cycle averages (1 + factor) / 2; a spike adds its excess for
/// its duration).
pub fn mean_rate(p: &AccessPattern, secs: f64) -> f64 {
    let factor: f64 = p
        .shapes
        .iter()
        .map(|shape| match shape {
            RateShape::Constant => 1.0,
            RateShape::Diurnal { factor, .. } => f64::midpoint(1.0, *factor),
            RateShape::Spike { at, factor, duration } => {
                let inside = (secs - at.as_secs_f64()).clamp(0.0, duration.as_secs_f64());
                1.0 + (factor - 1.0) * inside / secs.max(1.0)
            }
        })
        .product();
    p.rate * factor
}

/// Peak calls per second: the base rate times the shapes' peak factor.
pub fn peak_rate(p: &AccessPattern) -> f64 {
    p.rate * peak_factor(&p.shapes)
}

/// Peak rate / average rate: the product of each shape's largest factor.
pub fn peak_factor(shapes: &[RateShape]) -> f64 {
    shapes
        .iter()
        .map(|shape| match shape {
            RateShape::Constant => 1.0,
            RateShape::Diurnal { factor, .. } | RateShape::Spike { factor, .. } => factor.max(1.0),
        })
        .product()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hottest_shares_follow_the_popularity() {
        let zipf = |s: f64| Popularity::Zipf { s, scrambled: true };
        let cases = [
            (Popularity::Uniform, 1000.0, 0.001),
            (Popularity::Fixed(3), 1000.0, 1.0),
            // P(rank 1) = 1 / H(n, s): H(500, 1.1) = 5.2115…
            (zipf(1.1), 500.0, 0.191_88),
            (zipf(1.0), 4.0, 12.0 / 25.0),
            // 20% of 1,000 members take 80%: 0.8 / 200 each.
            (Popularity::Hotspot { data: 0.2, ops: 0.8 }, 1000.0, 0.004),
            (
                Popularity::Weighted(vec![(1.0, Popularity::Fixed(0)), (1.0, Popularity::Uniform)]),
                100.0,
                0.505,
            ),
        ];
        for (popularity, n, share) in cases {
            let got = hottest_share(&popularity, n);
            assert!((got - share).abs() < 1e-4, "{popularity:?} over {n}: {got}");
        }
        // Latest is hot at any moment but moves on: over a run no member keeps more than 1/n.
        assert!(hottest_share(&Popularity::Latest, 1e6) > 0.05);
        assert!((steady_share(&Popularity::Latest, 1e6) - 1e-6).abs() < 1e-12);
    }

    /// A mix's branches add up member by member: tenant-files' tenants, half a fixed whale and
    /// half a Zipf(0.99) over 500, give the whale ~50% when the Zipf is scrambled (its top rank
    /// lands elsewhere) and 50% + 14.4% when it is not (its top rank is member 0, the whale).
    #[test]
    fn a_mixs_favourite_takes_what_each_branch_gives_it() {
        let mix = |scrambled: bool| {
            Popularity::Weighted(vec![
                (0.5, Popularity::Zipf { s: 0.99, scrambled }),
                (0.5, Popularity::Fixed(0)),
            ])
        };
        let top = 0.5 / harmonic(500.0, 0.99);
        let seed = 21;
        let scrambled_whale = 0.5 + 0.5 * Popularity::Zipf { s: 0.99, scrambled: true }.shares(500, seed)[0];
        // (popularity, hottest, steady)
        let cases = [
            (mix(false), 0.5 + top, 0.5 + top),
            (mix(true), scrambled_whale, scrambled_whale),
            // Latest favours the newest member, not the whale (the oldest); over a run it is
            // even: the whale's half plus 1/500 of the rest.
            (
                Popularity::Weighted(vec![(0.5, Popularity::Latest), (0.5, Popularity::Fixed(0))]),
                0.5 + 0.5 * Popularity::Latest.shares(500, seed)[0],
                0.5 + 0.5 / 500.0,
            ),
            // Not a mix: the closed forms.
            (Popularity::Zipf { s: 0.99, scrambled: true }, 2.0 * top, 2.0 * top),
        ];
        for (popularity, hottest, steady) in cases {
            let got = placed_hottest_share(&popularity, 500.0, seed);
            assert!((got - hottest).abs() < 1e-9, "{popularity:?}: hottest {got}, expected {hottest}");
            let got = placed_steady_share(&popularity, 500.0, seed);
            assert!((got - steady).abs() < 1e-9, "{popularity:?}: steady {got}, expected {steady}");
        }
        assert!(scrambled_whale < 0.51, "the scrambled Zipf's top is not the whale: {scrambled_whale}");
        // The upper bound the closed form gives a mix, for comparison: as if both favoured one member.
        assert!((hottest_share(&mix(true), 500.0) - (0.5 + top)).abs() < 1e-9);
    }

    #[test]
    fn two_picks_meet_by_their_shares() {
        let zipf = |s: f64, scrambled: bool| Popularity::Zipf { s, scrambled };
        let h = |n: u64, s: f64| harmonic(n as f64, s);
        let cases = [
            // Either side even: 1/n.
            (Popularity::Uniform, zipf(0.99, true), 10_000, 1e-4),
            (Popularity::Latest, Popularity::Latest, 1_000, 1e-3),
            // A reader picking as the writer did: Σ pᵢ² = H(n, 2s) / H(n, s)².
            (zipf(0.99, true), zipf(0.99, true), 10_000, h(10_000, 1.98) / h(10_000, 0.99).powi(2)),
            (zipf(1.0, false), zipf(1.0, false), 20_000, h(20_000, 2.0) / h(20_000, 1.0).powi(2)),
            // social-feed: the 20 hottest of 20,000 users, against who follows them (Zipf 1,
            // unscrambled): H(20) / (20 · H(20,000)).
            (
                Popularity::Hotspot { data: 0.001, ops: 1.0 },
                zipf(1.0, false),
                20_000,
                h(20, 1.0) / (20.0 * h(20_000, 1.0)),
            ),
            (Popularity::Fixed(0), zipf(1.0, false), 100, 1.0 / h(100, 1.0)),
        ];
        for (a, b, n, want) in cases {
            let got = meeting(&a, &b, n, 7);
            assert!((got - want).abs() / want < 1e-6, "{a:?} × {b:?} over {n}: {got} vs {want}");
        }
        // Past the exact limit, equal Zipfs keep their closed form.
        let big = MEETING_EXACT + 1;
        let got = meeting(&zipf(0.99, true), &zipf(0.99, true), big, 7);
        assert!((got - h(big, 1.98) / h(big, 0.99).powi(2)).abs() < 1e-12);
    }

    #[test]
    fn the_harmonic_tail_matches_the_exact_sum() {
        for (n, s) in [(30_000.0, 0.99), (50_000.0, 1.0), (25_000.0, 1.3)] {
            let exact: f64 = (1..=numbers::floor_u64(n)).map(|k| (k as f64).powf(-s)).sum();
            let approx = harmonic(n, s);
            assert!((approx - exact).abs() / exact < 1e-7, "H({n}, {s}): {approx} vs {exact}");
        }
    }

    #[test]
    fn rates_average_and_peak_by_their_shapes() {
        let loaded = crate::engine::testing::fixture("orders");
        let place = loaded.scenario.pattern("place-order").unwrap();
        // Diurnal(factor: 3) on a base of 0.01/s: mean (1 + 3) / 2 × 0.01, peak 3 × 0.01.
        assert!((mean_rate(place, 86_400.0) - 0.02).abs() < 1e-9);
        assert!((peak_rate(place) - 0.03).abs() < 1e-9);
        let spike = RateShape::Spike {
            at: crate::engine::time::SimDuration::from_secs(100),
            factor: 11.0,
            duration: crate::engine::time::SimDuration::from_secs(50),
        };
        let spiked = AccessPattern { shapes: vec![spike], ..place.clone() };
        // 10× extra for 50 s of a 1,000 s run: a mean factor of 1.5.
        assert!((mean_rate(&spiked, 1000.0) - 0.015).abs() < 1e-9);
        assert!((peak_rate(&spiked) - 0.11).abs() < 1e-9);
    }
}
