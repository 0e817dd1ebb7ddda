//! Zipf's law over ranks 1..=n, P(k) ∝ k^-s, in O(1) per draw for any n, by rejection-inversion:
//! W. Hörmann and G. Derflinger, "Rejection-inversion to generate variates from monotone discrete
//! distributions", ACM TOMACS 6(3):169–184, 1996.
//!
//! The method, for the decreasing h(x) = x^-s with antiderivative H: a uniform `u` over an
//! interval of H-values is inverted to x = H⁻¹(u), rounded to the rank k nearest x. The H-values
//! that round to k span [H(k-½), H(k+½)], at least h(k) wide because h is convex; `u` is accepted
//! when it falls in the top h(k) of that span, so each rank is accepted in proportion to h(k),
//! which is Zipf's law. The lower end of the interval is H(1½) - h(1), so rank 1's span is
//! exactly h(1) and is never rejected. Setup is a handful of `ln`/`exp` calls; acceptance is
//! above 90% for the exponents keyheat uses, so a draw costs a few of those calls too.

use super::Draw;

/// A prepared Zipf sampler for one (n, s).
#[derive(Debug, Clone, Copy)]
pub(super) struct Zipf {
    n: f64,
    s: f64,
    /// H(1½) - h(1): the low end of the u-interval.
    h_x1: f64,
    /// H(n + ½).
    h_n: f64,
    /// Squeeze: a draw with k - x ≤ this is accepted without evaluating H(k + ½).
    squeeze: f64,
}

/// Draws past this many rejections in a row fall back to rank 1. The chance of reaching it is
/// below 0.1^64 for the exponents here; the cap only makes the loop visibly finite.
const MAX_ATTEMPTS: u64 = 64;

impl Zipf {
    /// `n ≥ 1`, `s > 0` (validated by the callers).
    pub(super) fn new(n: u64, s: f64) -> Zipf {
        let mut zipf = Zipf { n: n as f64, s, h_x1: 0.0, h_n: 0.0, squeeze: 0.0 };
        zipf.h_x1 = zipf.big_h(1.5) - 1.0;
        zipf.h_n = zipf.big_h(zipf.n + 0.5);
        zipf.squeeze = 2.0 - zipf.big_h_inv(zipf.big_h(2.5) - zipf.h(2.0));
        zipf
    }

    /// h(x) = x^-s.
    fn h(&self, x: f64) -> f64 {
        (-self.s * x.ln()).exp()
    }

    /// H(x) = ∫₁ˣ t^-s dt = (x^(1-s) - 1) / (1 - s), and ln x when s = 1; written with
    /// expm1 so it stays accurate as s approaches 1.
    fn big_h(&self, x: f64) -> f64 {
        let log_x = x.ln();
        expm1_over_x((1.0 - self.s) * log_x) * log_x
    }

    /// The inverse of H: x = (1 + (1 - s)·y)^(1/(1-s)), and e^y when s = 1.
    fn big_h_inv(&self, y: f64) -> f64 {
        let t = ((1.0 - self.s) * y).max(-1.0);
        (ln1p_over_x(t) * y).exp()
    }

    /// A rank in 1..=n, using words `first_word..` of `draw` (one per attempt).
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "k is clamped to 1..=n")]
    pub(super) fn sample(&self, draw: Draw, first_word: u64) -> u64 {
        for attempt in 0..MAX_ATTEMPTS {
            // H is increasing, so h_n > h_x1; u runs over (h_x1, h_n].
            let u = self.h_n + draw.unit(first_word + attempt) * (self.h_x1 - self.h_n);
            let x = self.big_h_inv(u);
            let k = x.round().clamp(1.0, self.n);
            if k - x <= self.squeeze || u >= self.big_h(k + 0.5) - self.h(k) {
                return k as u64;
            }
        }
        1
    }

    /// Whether the squeeze accepts where the exact test would (tests only).
    #[cfg(test)]
    fn squeeze_is_sound_at(&self, u: f64) -> bool {
        let x = self.big_h_inv(u);
        let k = x.round().clamp(1.0, self.n);
        !(k - x <= self.squeeze) || u >= self.big_h(k + 0.5) - self.h(k) - 1e-12
    }
}

/// (e^x - 1) / x, 1 at x = 0.
fn expm1_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 { x.exp_m1() / x } else { 1.0 + x / 2.0 * (1.0 + x / 3.0) }
}

/// ln(1 + x) / x, 1 at x = 0.
fn ln1p_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 { x.ln_1p() / x } else { 1.0 - x * (0.5 - x / 3.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn harmonic(n: u64, s: f64) -> f64 {
        (1..=n).map(|k| (k as f64).powf(-s)).sum()
    }

    #[test]
    fn matches_the_exact_probabilities() {
        // (n, s, draws): the counts of ranks 1, 2 and 10 within 4 binomial standard deviations
        // of draws · k^-s / H(n, s) (under 2.5% for rank 1 here), and a chi-square over ranks
        // 1..=20 plus the tail below the p = 0.001 critical value.
        let cases = [
            (1000, 0.99, 200_000),
            (1000, 1.0, 200_000),
            (50, 0.5, 100_000),
            (1_000_000, 0.99, 200_000),
            (10, 2.0, 50_000),
        ];
        for (n, s, draws) in cases {
            let zipf = Zipf::new(n, s);
            let mut counts = vec![0u64; 21];
            for i in 0..draws {
                let k = zipf.sample(Draw::new(3, 0, i), 0);
                assert!((1..=n).contains(&k), "n={n} k={k}");
                counts[usize::try_from(k.min(21)).unwrap() - 1] += 1;
            }
            let total = harmonic(n, s);
            let p = |k: u64| (k as f64).powf(-s) / total;
            for k in [1, 2, 10].into_iter().filter(|&k| k <= n) {
                let observed = counts[usize::try_from(k - 1).unwrap()] as f64;
                let expected = p(k) * draws as f64;
                let sd = (expected * (1.0 - p(k))).sqrt();
                assert!(
                    (observed - expected).abs() < 4.0 * sd,
                    "n={n} s={s} rank {k}: {observed} vs {expected}"
                );
            }
            let mut chi2 = 0.0;
            let bins = n.min(20);
            let head: f64 = (1..=bins).map(p).sum();
            for k in 1..=bins {
                let expected = p(k) * draws as f64;
                chi2 += (counts[usize::try_from(k - 1).unwrap()] as f64 - expected).powi(2) / expected;
            }
            if n > 20 {
                let expected = (1.0 - head) * draws as f64;
                chi2 += (counts[20] as f64 - expected).powi(2) / expected;
            }
            // χ²(20 degrees of freedom) at p = 0.001 is 45.3.
            assert!(chi2 < 45.3, "n={n} s={s}: chi-square {chi2}");
        }
    }

    #[test]
    fn handles_huge_populations_in_constant_time() {
        // n = 10^8: setup and draws touch no table. Rank 1 holds 1/H(10^8, 0.99) of the draws;
        // H is computed by Euler–Maclaurin: ∫₁ⁿ + (1 + n^-s)/2 + s/12·(1 - n^(-s-1)), whose next
        // term is below 10^-3.
        let (n, s) = (100_000_000u64, 0.99);
        let nf = n as f64;
        let h = (nf.powf(1.0 - s) - 1.0) / (1.0 - s)
            + (1.0 + nf.powf(-s)) / 2.0
            + s / 12.0 * (1.0 - nf.powf(-s - 1.0));
        let zipf = Zipf::new(n, s);
        let draws = 200_000;
        let mut ones = 0;
        let mut max = 0;
        for i in 0..draws {
            let k = zipf.sample(Draw::new(9, 0, i), 0);
            ones += u64::from(k == 1);
            max = max.max(k);
        }
        let share = ones as f64 / draws as f64;
        assert!((share * h - 1.0).abs() < 0.05, "share {share} vs {}", 1.0 / h);
        assert!(max > 1_000_000 && max <= n, "{max}");
    }

    #[test]
    fn squeeze_never_accepts_what_the_exact_test_rejects() {
        for (n, s) in [(1000, 0.2), (1000, 0.99), (1000, 1.0), (1000, 1.5), (100, 3.0), (7, 0.99)] {
            let zipf = Zipf::new(n, s);
            for i in 0..20_000 {
                let u = zipf.h_n + Draw::new(1, 1, i).unit(0) * (zipf.h_x1 - zipf.h_n);
                assert!(zipf.squeeze_is_sound_at(u), "n={n} s={s} u={u}");
            }
        }
    }

    #[test]
    fn inverts_its_antiderivative() {
        for s in [0.1, 0.5, 0.99, 1.0, 1.0 + 1e-10, 2.0, 5.0] {
            let zipf = Zipf::new(10, s);
            // For large s, H flattens out (toward 1/(s-1)) and cannot tell far-apart x apart.
            let far = if s < 2.0 { 1e6 } else { 10.0 };
            for x in [0.5, 1.0, 1.5, 7.25, far] {
                let back = zipf.big_h_inv(zipf.big_h(x));
                assert!((back / x - 1.0).abs() < 1e-9, "s={s} x={x} back={back}");
            }
        }
    }

    #[test]
    fn a_population_of_one_is_always_rank_one() {
        let zipf = Zipf::new(1, 0.99);
        assert!((0..1000).all(|i| zipf.sample(Draw::new(0, 0, i), 0) == 1));
    }
}
