//! Distributions of numbers: item sizes, counts, attribute values. Ranges are half-open,
//! `Uniform(1, 100)` is 1 ≤ x < 100, so integer draws (`sample_u64`, which floors) give 1..=99.

use rand::RngExt;
use rand_distr::{Distribution as _, Exp, Normal, Zipf};
use serde::{Deserialize, Serialize};

use super::{Draw, ParamError, choose, validate_weights};

/// YCSB's default Zipf exponent ("zipfian constant" 0.99).
pub(super) fn default_s() -> f64 {
    0.99
}

/// Gaussian(a, b) puts the range at ±3 standard deviations around its middle.
const GAUSSIAN_SDS: f64 = 3.0;
/// Exp(a, b) has a scale of 1/5 of the range: the density falls by e^5 (≈150×) from a to b.
const EXP_SCALES: f64 = 5.0;
/// Rejection loops give up after this many attempts (each fails with probability ≤ 0.007).
const MAX_ATTEMPTS: u64 = 32;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Distribution {
    /// Always this value.
    Fixed(f64),
    /// Uniform over [a, b).
    Uniform(f64, f64),
    /// Normal with mean (a + b)/2 and sd (b - a)/6, truncated to [a, b) (±3 sd: the truncation
    /// removes 0.27% of the mass).
    Gaussian(f64, f64),
    /// Normal, unbounded.
    Normal { mean: f64, sd: f64 },
    /// Exponential starting at a with scale (b - a)/5, truncated to [a, b): mostly near a,
    /// thinning toward b. Mean ≈ a + 0.193·(b - a).
    Exp(f64, f64),
    /// Ranks 1..=n with P(k) ∝ k^-s: rank 1 is the most common value.
    Zipf {
        n: u64,
        #[serde(default = "default_s")]
        s: f64,
    },
    /// a, a + 1, a + 2, … wrapping before b: draw #i is a + (i mod ⌈b - a⌉). Ignores seed and
    /// stream.
    Seq(f64, f64),
    /// One of several values or distributions, by weight: `Weighted([(3, Fixed(1)), (1, Uniform(2, 9))])`.
    Weighted(Vec<(f64, Distribution)>),
}

impl Distribution {
    /// Draw #`index` of stream `stream` under `seed`.
    pub fn sample(&self, seed: u64, stream: u64, index: u64) -> f64 {
        self.sample_with(&mut Draw::new(seed, stream, index), index, &[])
    }

    /// `sample` floored to an integer, saturating at 0 and `u64::MAX` (sizes, counts).
    pub fn sample_u64(&self, seed: u64, stream: u64, index: u64) -> u64 {
        floor_u64(self.sample(seed, stream, index))
    }

    /// `sample` floored to an integer, saturating at the `i64` bounds.
    pub fn sample_i64(&self, seed: u64, stream: u64, index: u64) -> i64 {
        floor_i64(self.sample(seed, stream, index))
    }

    /// Prepares the distribution for many draws: Zipf's constants are computed once here
    /// instead of on every draw.
    pub fn sampler(&self) -> Sampler {
        let mut zipfs = Vec::new();
        self.prepare_zipfs(&mut zipfs);
        Sampler { distribution: self.clone(), zipfs }
    }

    fn prepare_zipfs(&self, out: &mut Vec<Zipf<f64>>) {
        match self {
            Distribution::Zipf { n, s } => out.extend(zipf((*n).max(1), *s)),
            Distribution::Weighted(branches) => branches.iter().for_each(|(_, d)| d.prepare_zipfs(out)),
            _ => {}
        }
    }

    fn zipf_nodes(&self) -> usize {
        match self {
            Distribution::Zipf { .. } => 1,
            Distribution::Weighted(branches) => branches.iter().map(|(_, d)| d.zipf_nodes()).sum(),
            _ => 0,
        }
    }

    /// `prepared` holds this subtree's Zipf samplers (`prepare_zipfs`), or is empty to have
    /// them computed on the spot.
    fn sample_with(&self, draw: &mut Draw, index: u64, prepared: &[Zipf<f64>]) -> f64 {
        match *self {
            Distribution::Fixed(v) => v,
            Distribution::Uniform(a, b) => draw.random_range(a..b),
            Distribution::Gaussian(a, b) => {
                let (mid, sd) = (f64::midpoint(a, b), (b - a) / (2.0 * GAUSSIAN_SDS));
                // Normals until one lands within ±3 sd (99.73% of them do).
                let x = Normal::new(mid, sd).ok().and_then(|normal| {
                    (0..MAX_ATTEMPTS)
                        .map(|_| normal.sample(draw))
                        .find(|x| (x - mid).abs() <= GAUSSIAN_SDS * sd)
                });
                below(x.unwrap_or(mid), b)
            }
            Distribution::Normal { mean, sd } => {
                Normal::new(mean, sd).map_or(mean, |normal| normal.sample(draw))
            }
            Distribution::Exp(a, b) => {
                // Exponentials until one lands within the range (all but e^-5, 0.7%, do).
                let x = Exp::new(EXP_SCALES / (b - a))
                    .ok()
                    .and_then(|exp| (0..MAX_ATTEMPTS).map(|_| exp.sample(draw)).find(|x| a + x < b));
                below(a + x.unwrap_or(0.0), b)
            }
            Distribution::Zipf { n, s } => match prepared.first() {
                Some(zipf) => zipf.sample(draw),
                None => zipf(n, s).map_or(1.0, |zipf| zipf.sample(draw)),
            },
            Distribution::Seq(a, b) => {
                let count = seq_len(a, b);
                a + (index % count) as f64
            }
            Distribution::Weighted(ref branches) => match choose(branches, draw.random()) {
                Some((i, branch)) => {
                    let skip: usize = branches[..i].iter().map(|(_, d)| d.zipf_nodes()).sum();
                    branch.sample_with(&mut draw.child(i as u64), index, prepared.get(skip..).unwrap_or(&[]))
                }
                None => f64::NAN, // unreachable for a validated (non-empty) list
            },
        }
    }

    /// The smallest and largest values a draw can take (for checks like "sizes are never
    /// negative"); a half-open range reports its open end.
    pub fn bounds(&self) -> (f64, f64) {
        match *self {
            Distribution::Fixed(v) => (v, v),
            Distribution::Uniform(a, b) | Distribution::Gaussian(a, b) | Distribution::Exp(a, b) => (a, b),
            Distribution::Normal { .. } => (f64::NEG_INFINITY, f64::INFINITY),
            Distribution::Zipf { n, .. } => (1.0, n as f64),
            Distribution::Seq(a, b) => (a, a + (seq_len(a, b) - 1) as f64),
            Distribution::Weighted(ref branches) => branches
                .iter()
                .map(|(_, d)| d.bounds())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), (l, h)| (low.min(l), high.max(h))),
        }
    }

    /// Checks the parameters; the message names the distribution and what was expected.
    pub fn validate(&self) -> Result<(), ParamError> {
        let finite = |name: &'static str, values: &[f64]| {
            if values.iter().all(|v| v.is_finite()) {
                Ok(())
            } else {
                Err(ParamError::NotFinite { name, values: values.to_vec() })
            }
        };
        let range = |name: &'static str, low: f64, high: f64| {
            finite(name, &[low, high])?;
            if low < high { Ok(()) } else { Err(ParamError::EmptyRange { name, low, high }) }
        };
        match *self {
            Distribution::Fixed(v) => finite("Fixed", &[v]),
            Distribution::Uniform(a, b) => range("Uniform", a, b),
            Distribution::Gaussian(a, b) => range("Gaussian", a, b),
            Distribution::Exp(a, b) => range("Exp", a, b),
            Distribution::Seq(a, b) => {
                range("Seq", a, b)?;
                if b - a > 9_007_199_254_740_992.0 {
                    return Err(ParamError::SeqTooLong { low: a, high: b });
                }
                Ok(())
            }
            Distribution::Normal { mean, sd } => {
                finite("Normal", &[mean, sd])?;
                if sd > 0.0 { Ok(()) } else { Err(ParamError::NormalSd { mean, sd }) }
            }
            Distribution::Zipf { n, s } => {
                if n == 0 {
                    Err(ParamError::ZipfNoValues)
                } else if !(s.is_finite() && s > 0.0) {
                    Err(ParamError::ZipfValuesExponent { n, s })
                } else {
                    Ok(())
                }
            }
            Distribution::Weighted(ref branches) => validate_weights(branches, Distribution::validate),
        }
    }
}

/// A `Distribution` prepared for many draws (`Distribution::sampler`). Draws equal
/// `Distribution::sample`, draw for draw.
#[derive(Debug, Clone)]
pub struct Sampler {
    distribution: Distribution,
    zipfs: Vec<Zipf<f64>>,
}

impl Sampler {
    pub fn sample(&self, seed: u64, stream: u64, index: u64) -> f64 {
        self.distribution.sample_with(&mut Draw::new(seed, stream, index), index, &self.zipfs)
    }

    /// `sample(seed, stream, index)` from the stream's key (`workload::draw_key(seed, stream)`).
    pub fn sample_keyed(&self, key: u64, index: u64) -> f64 {
        self.distribution.sample_with(&mut Draw::keyed(key, index), index, &self.zipfs)
    }

    /// This sampler as a [`Quick`] draw, when it is one of the shapes that has one.
    pub fn quick(&self) -> Option<Quick> {
        match self.distribution {
            Distribution::Uniform(a, b) => Some(Quick::Uniform(a, b)),
            Distribution::Normal { mean, sd } => Some(Quick::Normal(mean, Normal::new(mean, sd).ok())),
            _ => None,
        }
    }

    pub fn sample_u64(&self, seed: u64, stream: u64, index: u64) -> u64 {
        floor_u64(self.sample(seed, stream, index))
    }

    pub fn sample_i64(&self, seed: u64, stream: u64, index: u64) -> i64 {
        floor_i64(self.sample(seed, stream, index))
    }
}

/// A uniform or normal sampler with its distribution matched once: the draws of a hot loop
/// (every reading of a year of sensors draws two uniforms and a normal) without `sample_with`'s
/// call and match on every kind of distribution. Each draw is the one `sample_keyed` makes.
#[derive(Debug, Clone, Copy)]
pub enum Quick {
    Uniform(f64, f64),
    /// The mean, and the normal itself (`None`: its deviation is not one, and the mean is drawn).
    Normal(f64, Option<Normal<f64>>),
}

impl Quick {
    /// `Sampler::sample_keyed(key, index)` of the sampler this came from.
    #[inline]
    pub fn sample_keyed(self, key: u64, index: u64) -> f64 {
        let draw = &mut Draw::keyed(key, index);
        match self {
            Quick::Uniform(a, b) => draw.random_range(a..b),
            Quick::Normal(mean, normal) => normal.map_or(mean, |normal| normal.sample(draw)),
        }
    }
}

#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "float-to-int `as` saturates, as documented"
)]
fn floor_u64(x: f64) -> u64 {
    x.floor() as u64
}

#[expect(clippy::cast_possible_truncation, reason = "float-to-int `as` saturates, as documented")]
fn floor_i64(x: f64) -> i64 {
    x.floor() as i64
}

/// `x`, or the largest float below `end` when rounding carried it to the open end.
fn below(x: f64, end: f64) -> f64 {
    if x < end { x } else { end.next_down() }
}

#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "validated: 1 ≤ ⌈b - a⌉ ≤ 2^53")]
fn seq_len(a: f64, b: f64) -> u64 {
    ((b - a).ceil() as u64).max(1)
}

/// Zipf's law over ranks 1..=n with exponent `s` (rand_distr's, by rejection-inversion: W.
/// Hörmann and G. Derflinger, ACM TOMACS 6(3), 1996); `None` for parameters `validate` refuses.
pub(super) fn zipf(n: u64, s: f64) -> Option<Zipf<f64>> {
    Zipf::new(n as f64, s).ok()
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // draws are exact, deterministic values
mod tests {
    use super::*;

    #[test]
    fn a_quick_draw_is_the_samplers_own() {
        let shapes = [
            Distribution::Uniform(20.0, 80.0),
            Distribution::Uniform(-1e9, 1e-9),
            Distribution::Normal { mean: 21.5, sd: 4.0 },
            Distribution::Normal { mean: -3.0, sd: 0.0 },
            Distribution::Normal { mean: 7.0, sd: -1.0 },
        ];
        for distribution in shapes {
            let sampler = distribution.sampler();
            let quick = sampler.quick().expect("a uniform or a normal");
            for (key, index) in (0..20_000u64).map(|i| (super::super::draw_key(i % 7, i / 7), i)) {
                let (slow, fast) = (sampler.sample_keyed(key, index), quick.sample_keyed(key, index));
                assert_eq!(slow.to_bits(), fast.to_bits(), "{distribution:?} at {index}");
            }
        }
        assert!(Distribution::Fixed(1.0).sampler().quick().is_none());
    }

    fn stats(distribution: &Distribution, draws: u64) -> (f64, f64, f64, f64) {
        let (mut sum, mut sum_sq, mut low, mut high) = (0.0, 0.0, f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..draws {
            let x = distribution.sample(11, 5, i);
            sum += x;
            sum_sq += x * x;
            low = low.min(x);
            high = high.max(x);
        }
        let mean = sum / draws as f64;
        (mean, (sum_sq / draws as f64 - mean * mean).sqrt(), low, high)
    }

    #[test]
    fn draws_have_the_documented_moments() {
        // (distribution, mean, sd, tolerance on each, bounds the draws must stay within)
        let truncated_sd = 0.986_58; // sd of a normal truncated at ±3 sd, in sds
        let exp_mean = 0.2 - (-5f64).exp() / (1.0 - (-5f64).exp()); // truncated exponential, in ranges
        let cases = [
            (Distribution::Fixed(4.5), 4.5, 0.0, 1e-12, (4.5, 4.5)),
            (Distribution::Uniform(10.0, 20.0), 15.0, 10.0 / 12f64.sqrt(), 0.03, (10.0, 20.0)),
            (Distribution::Gaussian(0.0, 600.0), 300.0, 100.0 * truncated_sd, 1.0, (0.0, 600.0)),
            (Distribution::Normal { mean: -5.0, sd: 2.0 }, -5.0, 2.0, 0.02, (-30.0, 20.0)),
            (Distribution::Exp(100.0, 1100.0), 100.0 + 1000.0 * exp_mean, 0.0, 2.0, (100.0, 1100.0)),
            (Distribution::Seq(1.0, 5.0), 2.5, 1.25f64.sqrt(), 1e-9, (1.0, 4.0)),
        ];
        for (distribution, mean, sd, tolerance, (low, high)) in cases {
            let (m, s, l, h) = stats(&distribution, 100_000);
            assert!((m - mean).abs() <= tolerance, "{distribution:?}: mean {m}, expected {mean}");
            if sd > 0.0 && !matches!(distribution, Distribution::Exp(..)) {
                assert!((s - sd).abs() <= tolerance, "{distribution:?}: sd {s}, expected {sd}");
            }
            assert!(l >= low && h <= high, "{distribution:?}: draws span {l}..{h}");
            if matches!(
                distribution,
                Distribution::Uniform(..) | Distribution::Gaussian(..) | Distribution::Exp(..)
            ) {
                assert!(h < high, "{distribution:?}: the range is half-open");
            }
        }
    }

    #[test]
    fn integer_draws_floor_into_the_range() {
        let uniform = Distribution::Uniform(1.0, 100.0);
        let mut seen = [false; 101];
        for i in 0..20_000 {
            seen[usize::try_from(uniform.sample_u64(1, 2, i)).unwrap()] = true;
        }
        assert!(!seen[0] && !seen[100] && seen[1..100].iter().all(|&s| s), "1..=99 all drawn, 100 never");
        assert_eq!(Distribution::Fixed(-3.5).sample_u64(0, 0, 0), 0);
        assert_eq!(Distribution::Fixed(-3.5).sample_i64(0, 0, 0), -4);
        assert_eq!(Distribution::Fixed(1e30).sample_u64(0, 0, 0), u64::MAX);
        let seq: Vec<u64> = (0..7).map(|i| Distribution::Seq(3.0, 6.0).sample_u64(9, 9, i)).collect();
        assert_eq!(seq, [3, 4, 5, 3, 4, 5, 3]);
    }

    #[test]
    fn a_sampler_draws_what_sample_draws() {
        let all = [
            Distribution::Zipf { n: 1000, s: 0.99 },
            Distribution::Gaussian(1.0, 2.0),
            Distribution::Seq(0.0, 3.0),
            Distribution::Weighted(vec![
                (1.0, Distribution::Zipf { n: 10, s: 2.0 }),
                (1.0, Distribution::Uniform(0.0, 1.0)),
                (
                    1.0,
                    Distribution::Weighted(vec![
                        (1.0, Distribution::Fixed(3.0)),
                        (1.0, Distribution::Zipf { n: 5, s: 0.5 }),
                    ]),
                ),
            ]),
        ];
        for distribution in all {
            let sampler = distribution.sampler();
            for i in 0..500 {
                assert_eq!(
                    sampler.sample(8, 9, i).to_bits(),
                    distribution.sample(8, 9, i).to_bits(),
                    "{distribution:?}"
                );
                assert_eq!(sampler.sample_u64(8, 9, i), distribution.sample_u64(8, 9, i));
                assert_eq!(sampler.sample_i64(8, 9, i), distribution.sample_i64(8, 9, i));
            }
        }
    }

    #[test]
    fn zipf_values_are_ranks() {
        let zipf = Distribution::Zipf { n: 100, s: 0.99 };
        let ones = (0..50_000).filter(|&i| zipf.sample_u64(2, 0, i) == 1).count() as f64 / 50_000.0;
        let h: f64 = (1..=100).map(|k| f64::from(k).powf(-0.99)).sum();
        assert!((ones * h - 1.0).abs() < 0.04, "rank 1 share {ones}, expected {}", 1.0 / h);
        assert_eq!(zipf.bounds(), (1.0, 100.0));
    }

    #[test]
    fn weighted_picks_branches_by_weight() {
        let weighted = Distribution::Weighted(vec![
            (3.0, Distribution::Fixed(1.0)),
            (1.0, Distribution::Uniform(2.0, 9.0)),
        ]);
        let draws: Vec<f64> = (0..40_000).map(|i| weighted.sample(4, 4, i)).collect();
        let ones = draws.iter().filter(|&&x| x == 1.0).count() as f64 / 40_000.0;
        assert!((ones - 0.75).abs() < 0.01, "{ones}");
        assert!(draws.iter().all(|&x| x == 1.0 || (2.0..9.0).contains(&x)));
        // The second branch's draws are uniform on their own (independent of the choice).
        let rest: Vec<f64> = draws.iter().copied().filter(|&x| x != 1.0).collect();
        let mean = rest.iter().sum::<f64>() / rest.len() as f64;
        assert!((mean - 5.5).abs() < 0.06, "{mean}");
        assert_eq!(weighted.bounds(), (1.0, 9.0));
    }

    #[test]
    fn same_triple_same_value_and_seeds_differ() {
        let all = [
            Distribution::Uniform(0.0, 1.0),
            Distribution::Gaussian(0.0, 1.0),
            Distribution::Normal { mean: 0.0, sd: 1.0 },
            Distribution::Exp(0.0, 1.0),
            Distribution::Zipf { n: 1_000_000, s: 0.5 },
            Distribution::Weighted(vec![
                (1.0, Distribution::Uniform(0.0, 1.0)),
                (1.0, Distribution::Exp(0.0, 1.0)),
            ]),
        ];
        for distribution in all {
            let run = |seed: u64, stream: u64| {
                (0..64).map(|i| distribution.sample(seed, stream, i)).collect::<Vec<_>>()
            };
            assert_eq!(run(1, 1), run(1, 1), "{distribution:?}");
            assert_ne!(run(1, 1), run(2, 1), "{distribution:?}");
            assert_ne!(run(1, 1), run(1, 2), "{distribution:?}");
            // Draw #i alone equals draw #i of the run.
            assert_eq!(distribution.sample(1, 1, 37), run(1, 1)[37]);
        }
    }

    #[test]
    fn validation_names_the_problem() {
        let cases = [
            (Distribution::Uniform(5.0, 5.0), "range is empty"),
            (Distribution::Uniform(5.0, 1.0), "Uniform(low, high)"),
            (Distribution::Gaussian(0.0, f64::NAN), "finite"),
            (Distribution::Exp(1.0, 0.0), "Exp(low, high)"),
            (Distribution::Seq(0.0, 1e300), "2^53"),
            (Distribution::Fixed(f64::INFINITY), "finite"),
            (Distribution::Normal { mean: 0.0, sd: 0.0 }, "sd > 0"),
            (Distribution::Zipf { n: 0, s: 0.99 }, "n ≥ 1"),
            (Distribution::Zipf { n: 10, s: 0.0 }, "s > 0"),
            (Distribution::Zipf { n: 10, s: -1.0 }, "s > 0"),
            (Distribution::Weighted(vec![]), "at least one"),
            (Distribution::Weighted(vec![(0.0, Distribution::Fixed(1.0))]), "#1 has weight 0"),
            (
                Distribution::Weighted(vec![
                    (1.0, Distribution::Fixed(1.0)),
                    (1.0, Distribution::Uniform(2.0, 1.0)),
                ]),
                "#2: Uniform",
            ),
        ];
        for (distribution, words) in cases {
            let error = distribution.validate().expect_err(&format!("{distribution:?}")).to_string();
            assert!(error.contains(words), "{distribution:?}: {error}");
        }
        let fine = [
            Distribution::Fixed(0.0),
            Distribution::Uniform(-1.0, 1.0),
            Distribution::Normal { mean: 1.0, sd: 0.1 },
            Distribution::Zipf { n: 1, s: 3.0 },
            Distribution::Seq(0.0, 0.5),
        ];
        for distribution in fine {
            assert_eq!(distribution.validate(), Ok(()), "{distribution:?}");
        }
    }

    #[test]
    fn reads_from_json_in_serde_shape() {
        // Scenario files are RON (`Zipf(n: 10, s: 0.5)`); JSON shows the same serde shape.
        let cases = [
            (r#"{"Uniform":[1,100]}"#, Distribution::Uniform(1.0, 100.0)),
            (r#"{"Zipf":{"n":10}}"#, Distribution::Zipf { n: 10, s: 0.99 }),
            (r#"{"Normal":{"mean":800,"sd":200}}"#, Distribution::Normal { mean: 800.0, sd: 200.0 }),
            (
                r#"{"Weighted":[[3,{"Fixed":1}]]}"#,
                Distribution::Weighted(vec![(3.0, Distribution::Fixed(1.0))]),
            ),
        ];
        for (json, expected) in cases {
            assert_eq!(serde_json::from_str::<Distribution>(json).unwrap(), expected, "{json}");
        }
        assert!(serde_json::from_str::<Distribution>(r#"{"Normal":{"mean":1,"sd":2,"typo":3}}"#).is_err());
    }
}
