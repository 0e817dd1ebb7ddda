//! Which member of a population an operation touches: an index in 0..n, where n is the
//! population's size at the moment of the draw (it may grow as items are written, which is what
//! `Latest` follows).

use rand::RngExt;
use rand_distr::{Distribution as _, Zipf};
use serde::{Deserialize, Serialize};

use super::distribution::{default_s, zipf};
use super::{Draw, ParamError, choose, validate_weights};
use crate::engine::hash::mix64;

fn scrambled_by_default() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Popularity {
    /// Every member equally likely.
    Uniform,
    /// Zipf's law over the members (P ∝ rank^-s). Scrambled by default: the ranks are spread
    /// over the indexes by a permutation keyed by the seed, so the hottest members are not
    /// neighbours (YCSB's "scrambled zipfian"); `scrambled: false` makes index 0 the hottest.
    /// RON: `Zipf()`, `Zipf(s: 1.2)`, `Zipf(scrambled: false)`.
    Zipf {
        #[serde(default = "default_s")]
        s: f64,
        #[serde(default = "scrambled_by_default")]
        scrambled: bool,
    },
    /// The most recently added members are the most likely: Zipf (s = 0.99) over recency, index
    /// n - 1 being the newest (YCSB's "latest").
    Latest,
    /// A `data` fraction of the members (the lowest indexes) gets an `ops` fraction of the
    /// operations, uniformly within the hot and the cold set (YCSB's hotspot).
    Hotspot { data: f64, ops: f64 },
    /// Members in order, wrapping: draw #i touches i mod n (a loader, a scan-like sweep).
    Seq,
    /// Always this member (clamped to the last one): a single hot key.
    Fixed(u64),
    /// A mix of the above, by weight: `Weighted([(0.9, Zipf()), (0.1, Fixed(0))])`.
    Weighted(Vec<(f64, Popularity)>),
}

impl Popularity {
    /// The member draw #`index` of stream `stream` touches in a population of `n`; `None` when
    /// the population is empty.
    pub fn pick(&self, n: u64, seed: u64, stream: u64, index: u64) -> Option<u64> {
        (n > 0).then(|| self.pick_with(n, seed, &mut Draw::new(seed, stream, index), index, &[]))
    }

    /// Prepares picks from a population that stays at `n` members: Zipf's constants are
    /// computed once here instead of on every draw, which halves the cost of a Zipf pick.
    pub fn picker(&self, n: u64) -> Picker {
        let mut zipfs = Vec::new();
        self.prepare_zipfs(n, &mut zipfs);
        Picker { popularity: self.clone(), n, seq: Remainder::new(n), zipfs }
    }

    /// The Zipf samplers of this tree's `Zipf` and `Latest` nodes, depth first.
    fn prepare_zipfs(&self, n: u64, out: &mut Vec<Zipf<f64>>) {
        match self {
            Popularity::Zipf { s, .. } => out.extend(zipf(n.max(1), *s)),
            Popularity::Latest => out.extend(zipf(n.max(1), default_s())),
            Popularity::Weighted(branches) => branches.iter().for_each(|(_, b)| b.prepare_zipfs(n, out)),
            _ => {}
        }
    }

    fn zipf_nodes(&self) -> usize {
        match self {
            Popularity::Zipf { .. } | Popularity::Latest => 1,
            Popularity::Weighted(branches) => branches.iter().map(|(_, b)| b.zipf_nodes()).sum(),
            _ => 0,
        }
    }

    /// `prepared` holds this subtree's Zipf samplers (`prepare_zipfs`), or is empty to have
    /// them computed on the spot.
    fn pick_with(&self, n: u64, seed: u64, draw: &mut Draw, index: u64, prepared: &[Zipf<f64>]) -> u64 {
        // A rank in 1..=n (rand_distr gives it as a whole float).
        let rank = |s: f64, draw: &mut Draw| {
            let k = match prepared.first() {
                Some(zipf) => zipf.sample(draw),
                None => zipf(n, s).map_or(1.0, |zipf| zipf.sample(draw)),
            };
            whole(k).clamp(1, n)
        };
        match *self {
            Popularity::Uniform => draw.random_range(0..n),
            Popularity::Zipf { s, scrambled } => {
                let rank = rank(s, draw) - 1;
                if scrambled { scramble(rank, n, seed) } else { rank }
            }
            Popularity::Latest => n - rank(default_s(), draw),
            Popularity::Hotspot { data, ops } => {
                let hot = hot_set(n, data);
                if hot == n {
                    draw.random_range(0..n)
                } else if draw.random::<f64>() < ops {
                    draw.random_range(0..hot)
                } else {
                    draw.random_range(hot..n)
                }
            }
            Popularity::Seq => seq(index, n),
            Popularity::Fixed(member) => member.min(n - 1),
            Popularity::Weighted(ref branches) => match choose(branches, draw.random()) {
                Some((i, branch)) => {
                    let skip: usize = branches[..i].iter().map(|(_, b)| b.zipf_nodes()).sum();
                    let prepared = prepared.get(skip..).unwrap_or(&[]);
                    branch.pick_with(n, seed, &mut draw.child(i as u64), index, prepared)
                }
                None => 0, // unreachable for a validated (non-empty) list
            },
        }
    }

    /// The chance that a draw touches each member of a population of `n` (`n` ≥ 1), in member
    /// order: the distribution `pick` samples, written out so the planner can weigh one
    /// popularity against another (Σ qᵢ·pᵢ is the chance two picks meet). `seed` places a
    /// scrambled Zipf's ranks as `pick` does. Costs O(n).
    pub fn shares(&self, n: u64, seed: u64) -> Vec<f64> {
        let n = n.max(1);
        let len = usize::try_from(n).unwrap_or(usize::MAX);
        let mut out = vec![0.0; len];
        self.add_shares(n, seed, 1.0, &mut out);
        out
    }

    fn add_shares(&self, n: u64, seed: u64, weight: f64, out: &mut [f64]) {
        let zipf = |out: &mut [f64], s: f64, place: &dyn Fn(u64) -> u64| {
            // Each rank's weight once: `powf` is most of the cost at a million members, and the
            // planner asks for a population's shares several times a run.
            let weights: Vec<f64> = (1..=n).map(|k| (k as f64).powf(-s)).collect();
            let total: f64 = weights.iter().sum();
            for (rank, w) in (0..n).zip(weights) {
                out[to_index(place(rank))] += weight * w / total;
            }
        };
        match *self {
            Popularity::Uniform | Popularity::Seq => out.iter_mut().for_each(|x| *x += weight / n as f64),
            Popularity::Zipf { s, scrambled } => {
                zipf(out, s, &|rank| if scrambled { scramble(rank, n, seed) } else { rank });
            }
            Popularity::Latest => zipf(out, default_s(), &|rank| n - 1 - rank),
            Popularity::Hotspot { data, ops } => {
                let hot = hot_set(n, data);
                for (i, x) in out.iter_mut().enumerate() {
                    *x += weight
                        * match (hot == n, (i as u64) < hot) {
                            (true, _) => 1.0 / n as f64,
                            (false, true) => ops / hot as f64,
                            (false, false) => (1.0 - ops) / (n - hot) as f64,
                        };
                }
            }
            Popularity::Fixed(member) => out[to_index(member.min(n - 1))] += weight,
            Popularity::Weighted(ref branches) => {
                let total: f64 = branches.iter().map(|(w, _)| w).sum();
                for (w, branch) in branches {
                    branch.add_shares(n, seed, weight * w / total, out);
                }
            }
        }
    }

    /// Checks the parameters; the message names the choice and what was expected.
    pub fn validate(&self) -> Result<(), ParamError> {
        match *self {
            Popularity::Uniform | Popularity::Latest | Popularity::Seq | Popularity::Fixed(_) => Ok(()),
            Popularity::Zipf { s, .. } => {
                if s.is_finite() && s > 0.0 {
                    Ok(())
                } else {
                    Err(ParamError::ZipfExponent { s })
                }
            }
            Popularity::Hotspot { data, ops } => {
                if !(data > 0.0 && data <= 1.0) {
                    Err(ParamError::HotspotData { data })
                } else if !(0.0..=1.0).contains(&ops) {
                    Err(ParamError::HotspotOps { ops })
                } else {
                    Ok(())
                }
            }
            Popularity::Weighted(ref branches) => validate_weights(branches, Popularity::validate),
        }
    }
}

/// A `Popularity` prepared for a population of fixed size (`Popularity::picker`). Picks equal
/// `Popularity::pick` with the same n, draw for draw.
#[derive(Debug, Clone)]
pub struct Picker {
    popularity: Popularity,
    n: u64,
    /// `n` as a reciprocal for `Popularity::Seq`'s remainder (`Remainder`).
    seq: Remainder,
    zipfs: Vec<Zipf<f64>>,
}

impl Picker {
    pub fn population(&self) -> u64 {
        self.n
    }

    pub fn pick(&self, seed: u64, stream: u64, index: u64) -> Option<u64> {
        let n = self.n;
        (n > 0).then(|| match self.popularity {
            // Keys on a schedule draw nothing: no draw to key (the hash is most of a pick).
            Popularity::Seq => self.seq.of(index),
            _ => self.popularity.pick_with(n, seed, &mut Draw::new(seed, stream, index), index, &self.zipfs),
        })
    }
}

/// Draw #`index` of a schedule over `n` members (`Popularity::Seq`): each in turn.
fn seq(index: u64, n: u64) -> u64 {
    index % n
}

/// `x % n` for a fixed `n`, by a multiplication with `n`'s reciprocal. A schedule's pick is the
/// call's index modulo the population (`seq`), on every call: a division's latency there was a
/// twentieth of a plain put's fill (`sensors`).
#[derive(Debug, Clone, Copy)]
struct Remainder {
    n: u64,
    /// ⌊(2⁶⁴ − 1) / n⌋ (0 for n = 0, which is never divided by).
    reciprocal: u64,
}

impl Remainder {
    fn new(n: u64) -> Remainder {
        Remainder { n, reciprocal: u64::MAX.checked_div(n).unwrap_or(0) }
    }

    /// `x % n`, for n > 0. With m = ⌊(2⁶⁴ − 1)/n⌋, m ≥ 2⁶⁴/n − 1, so q = ⌊x·m / 2⁶⁴⌋ lies in
    /// (x/n − 2, x/n): at most one below ⌊x/n⌋, and x − q·n is under 2n.
    fn of(self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.reciprocal)) >> 64) as u64;
        let r = x - q * self.n;
        if r >= self.n { r - self.n } else { r }
    }
}

/// A member index as a slice index (`shares` allocates one slot per member).
fn to_index(member: u64) -> usize {
    usize::try_from(member).unwrap_or(usize::MAX)
}

/// A whole, non-negative float (a Zipf rank) as an integer.
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "float-to-int `as` saturates")]
fn whole(x: f64) -> u64 {
    x as u64
}

/// Members in the hot set: `data` of them, rounded, at least one.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "0 < data ≤ 1, so 0 ≤ data·n ≤ n"
)]
fn hot_set(n: u64, data: f64) -> u64 {
    ((data * n as f64).round() as u64).clamp(1, n)
}

/// A bijection on 0..n keyed by `seed`: a four-round balanced Feistel network over the smallest
/// even number of bits that holds n - 1, cycle-walking until the value falls below n. The
/// network's domain is under 4n, so a walk takes under four rounds of the network on average;
/// it always ends because the walk follows a cycle of a permutation through `x` itself.
pub(super) fn scramble(x: u64, n: u64, seed: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    let bits = u64::BITS - (n - 1).leading_zeros();
    let half = bits.div_ceil(2);
    let mask = (1u64 << half) - 1;
    let keys = [1u64, 2, 3, 4].map(|round| mix64(seed ^ round.wrapping_mul(0xd1b5_4a32_d192_ed03)));
    let mut v = x % n;
    loop {
        let (mut left, mut right) = (v >> half, v & mask);
        for key in keys {
            (left, right) = (right, left ^ (mix64(right ^ key) & mask));
        }
        v = (left << half) | right;
        if v < n {
            return v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(popularity: &Popularity, n: u64, draws: u64) -> Vec<u64> {
        let mut counts = vec![0u64; usize::try_from(n).unwrap()];
        for i in 0..draws {
            let member = popularity.pick(n, 17, 3, i).unwrap();
            counts[usize::try_from(member).unwrap()] += 1;
        }
        counts
    }

    #[test]
    fn remainders_by_reciprocal_are_remainders() {
        let divisors = [
            1,
            2,
            3,
            7,
            10,
            1000,
            40_000,
            1 << 32,
            (1 << 32) + 1,
            u64::MAX / 3,
            1 << 63,
            (1 << 63) + 1,
            u64::MAX - 1,
            u64::MAX,
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for n in divisors {
            let r = Remainder::new(n);
            let edges = [
                0,
                1,
                n - 1,
                n,
                n.wrapping_add(1),
                n.wrapping_mul(2).wrapping_sub(1),
                u64::MAX - 1,
                u64::MAX,
            ];
            for e in edges {
                assert_eq!(r.of(e), e % n, "{e} % {n}");
            }
            for _ in 0..10_000 {
                x = mix64(x);
                assert_eq!(r.of(x), x % n, "{x} % {n}");
                assert_eq!(r.of(x >> 20), (x >> 20) % n, "{} % {n}", x >> 20);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn a_remainder_by_reciprocal_is_the_remainder(x: u64, n in 1u64..) {
            proptest::prop_assert_eq!(Remainder::new(n).of(x), x % n);
        }
    }

    fn harmonic(n: u64, s: f64) -> f64 {
        (1..=n).map(|k| (k as f64).powf(-s)).sum()
    }

    #[test]
    fn shares_are_what_pick_draws() {
        let cases = [
            Popularity::Uniform,
            Popularity::Zipf { s: 0.99, scrambled: true },
            Popularity::Zipf { s: 1.2, scrambled: false },
            Popularity::Latest,
            Popularity::Hotspot { data: 0.1, ops: 0.9 },
            Popularity::Fixed(3),
            Popularity::Weighted(vec![
                (0.7, Popularity::Fixed(0)),
                (0.3, Popularity::Zipf { s: 1.0, scrambled: true }),
            ]),
        ];
        let (n, draws) = (50, 200_000);
        for popularity in cases {
            let shares = popularity.shares(n, 17);
            assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{popularity:?}");
            for (member, count) in counts(&popularity, n, draws).into_iter().enumerate() {
                let seen = count as f64 / draws as f64;
                // Within 5 standard errors of a binomial share.
                let sd = (shares[member] * (1.0 - shares[member]) / draws as f64).sqrt();
                assert!(
                    (seen - shares[member]).abs() <= 5.0 * sd + 1e-4,
                    "{popularity:?} member {member}: {seen} vs {}",
                    shares[member]
                );
            }
        }
    }

    #[test]
    fn scrambling_is_a_permutation() {
        for n in [1, 2, 3, 5, 16, 17, 1000, 4097] {
            for seed in [0, 1, u64::MAX] {
                let mut seen = vec![false; usize::try_from(n).unwrap()];
                for x in 0..n {
                    let y = scramble(x, n, seed);
                    assert!(y < n && !seen[usize::try_from(y).unwrap()], "n={n} seed={seed} x={x} y={y}");
                    seen[usize::try_from(y).unwrap()] = true;
                }
            }
        }
        // Far from the identity, and different per seed.
        let moved = (0..1000).filter(|&x| scramble(x, 1000, 1) != x).count();
        assert!(moved > 990, "{moved}");
        assert!((0..1000).any(|x| scramble(x, 1000, 1) != scramble(x, 1000, 2)));
        assert!(scramble(123_456_789, 100_000_000_000, 5) < 100_000_000_000);
    }

    #[test]
    fn zipf_top_share_matches_the_harmonic_number() {
        let n = 1000;
        let expected = 1.0 / harmonic(n, 0.99);
        for scrambled in [false, true] {
            let counts = counts(&Popularity::Zipf { s: 0.99, scrambled }, n, 200_000);
            let top = counts.iter().copied().max().unwrap() as f64 / 200_000.0;
            assert!((top / expected - 1.0).abs() < 0.03, "scrambled={scrambled}: {top} vs {expected}");
            let hottest = counts.iter().position(|&c| c == *counts.iter().max().unwrap()).unwrap();
            if scrambled {
                // The five hottest members are not the first five indexes, nor neighbours.
                let mut order: Vec<usize> = (0..counts.len()).collect();
                order.sort_by_key(|&i| std::cmp::Reverse(counts[i]));
                assert_ne!(order[..5].to_vec(), [0, 1, 2, 3, 4]);
                assert!(order[..5].windows(2).any(|w| w[0].abs_diff(w[1]) > 1), "{:?}", &order[..5]);
            } else {
                assert_eq!(hottest, 0);
                assert!(counts[0] > counts[1] && counts[1] > counts[9] && counts[9] > counts[999]);
            }
        }
    }

    #[test]
    fn latest_favours_the_newest_members() {
        let n = 500;
        let counts = counts(&Popularity::Latest, n, 100_000);
        let share = counts[499] as f64 / 100_000.0;
        let expected = 1.0 / harmonic(n, 0.99);
        assert!((share / expected - 1.0).abs() < 0.04, "{share} vs {expected}");
        assert!(counts[499] > counts[498] && counts[498] > counts[450] && counts[450] > counts[0]);
        // As the population grows, the newest member takes over.
        assert_eq!(Popularity::Latest.pick(1, 0, 0, 0), Some(0));
    }

    #[test]
    fn hotspot_sends_the_ops_fraction_to_the_data_fraction() {
        let cases = [(0.2, 0.8, 1000), (0.01, 0.5, 10_000), (0.5, 0.5, 10), (1.0, 0.3, 100)];
        for (data, ops, n) in cases {
            let counts = counts(&Popularity::Hotspot { data, ops }, n, 100_000);
            let hot = hot_set(n, data);
            let share = counts[..usize::try_from(hot).unwrap()].iter().sum::<u64>() as f64 / 100_000.0;
            let expected = if hot == n { 1.0 } else { ops };
            assert!((share - expected).abs() < 0.01, "data={data} ops={ops}: hot share {share}");
            // Uniform inside the hot set: the busiest hot member within 25% of the hot mean.
            let hot_counts = &counts[..usize::try_from(hot).unwrap()];
            let mean = hot_counts.iter().sum::<u64>() as f64 / hot as f64;
            assert!(hot_counts.iter().all(|&c| (c as f64 - mean).abs() < 0.25 * mean), "data={data}");
        }
    }

    #[test]
    fn simple_choices() {
        let seq: Vec<u64> = (0..5).map(|i| Popularity::Seq.pick(3, 1, 1, i).unwrap()).collect();
        assert_eq!(seq, [0, 1, 2, 0, 1]);
        assert_eq!(Popularity::Fixed(7).pick(100, 0, 0, 0), Some(7));
        assert_eq!(Popularity::Fixed(700).pick(100, 0, 0, 0), Some(99));
        assert_eq!(Popularity::Uniform.pick(0, 0, 0, 0), None);
        let uniform = counts(&Popularity::Uniform, 10, 100_000);
        assert!(uniform.iter().all(|&c| (9_600..=10_400).contains(&c)), "{uniform:?}");
        // A celebrity: half the reads on member 0, the rest uniform.
        let celebrity = Popularity::Weighted(vec![(1.0, Popularity::Fixed(0)), (1.0, Popularity::Uniform)]);
        let counts = counts(&celebrity, 100, 100_000);
        let share = counts[0] as f64 / 100_000.0;
        assert!((share - 0.505).abs() < 0.01, "{share}");
    }

    #[test]
    fn a_picker_picks_what_pick_picks() {
        let all = [
            Popularity::Uniform,
            Popularity::Zipf { s: 0.99, scrambled: true },
            Popularity::Zipf { s: 1.3, scrambled: false },
            Popularity::Latest,
            Popularity::Hotspot { data: 0.2, ops: 0.8 },
            // Picked without a draw by the picker.
            Popularity::Seq,
            Popularity::Weighted(vec![
                (1.0, Popularity::Zipf { s: 0.5, scrambled: false }),
                (1.0, Popularity::Seq),
                (1.0, Popularity::Uniform),
                (
                    1.0,
                    Popularity::Weighted(vec![
                        (1.0, Popularity::Latest),
                        (1.0, Popularity::Zipf { s: 2.0, scrambled: false }),
                    ]),
                ),
            ]),
        ];
        for popularity in all {
            for n in [0, 1, 7, 1_000_000] {
                let picker = popularity.picker(n);
                assert_eq!(picker.population(), n);
                for i in 0..500 {
                    assert_eq!(
                        picker.pick(5, 6, i),
                        popularity.pick(n, 5, 6, i),
                        "{popularity:?} n={n} i={i}"
                    );
                }
            }
        }
    }

    #[test]
    fn same_triple_same_member_and_seeds_differ() {
        let all = [
            Popularity::Uniform,
            Popularity::Zipf { s: 0.99, scrambled: true },
            Popularity::Latest,
            Popularity::Hotspot { data: 0.2, ops: 0.8 },
        ];
        for popularity in all {
            let run = |seed: u64, stream: u64| {
                (0..64).map(|i| popularity.pick(1_000_000, seed, stream, i)).collect::<Vec<_>>()
            };
            assert_eq!(run(1, 1), run(1, 1), "{popularity:?}");
            assert_ne!(run(1, 1), run(2, 1), "{popularity:?}");
            assert_ne!(run(1, 1), run(1, 2), "{popularity:?}");
        }
    }

    #[test]
    fn validation_names_the_problem() {
        let cases = [
            (Popularity::Zipf { s: 0.0, scrambled: true }, "s > 0"),
            (Popularity::Hotspot { data: 0.0, ops: 0.8 }, "hot fraction"),
            (Popularity::Hotspot { data: 1.5, ops: 0.8 }, "hot fraction"),
            (Popularity::Hotspot { data: 0.2, ops: 1.2 }, "fraction of operations"),
            (Popularity::Hotspot { data: f64::NAN, ops: 0.5 }, "hot fraction"),
            (
                Popularity::Weighted(vec![(1.0, Popularity::Uniform), (-1.0, Popularity::Latest)]),
                "#2 has weight -1",
            ),
        ];
        for (popularity, words) in cases {
            let error = popularity.validate().expect_err(&format!("{popularity:?}")).to_string();
            assert!(error.contains(words), "{popularity:?}: {error}");
        }
        assert_eq!(Popularity::Hotspot { data: 0.2, ops: 0.8 }.validate(), Ok(()));
    }

    #[test]
    fn reads_from_json_in_serde_shape() {
        let cases = [
            (r#""Uniform""#, Popularity::Uniform),
            (r#"{"Zipf":{}}"#, Popularity::Zipf { s: 0.99, scrambled: true }),
            (r#"{"Zipf":{"scrambled":false}}"#, Popularity::Zipf { s: 0.99, scrambled: false }),
            (r#"{"Hotspot":{"data":0.2,"ops":0.8}}"#, Popularity::Hotspot { data: 0.2, ops: 0.8 }),
        ];
        for (json, expected) in cases {
            assert_eq!(serde_json::from_str::<Popularity>(json).unwrap(), expected, "{json}");
        }
    }
}
