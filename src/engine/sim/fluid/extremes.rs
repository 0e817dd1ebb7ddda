//! The maximum of many independent counts, as the fluid replay reports a peak or a largest
//! partition: quantiles of `max` over (partition, tick) of Binomial counts, and of partition
//! sizes (exact items plus a count of those written). Pure functions of their inputs, no draws;
//! the only state is `Maxima`'s memory of answers already given.
//!
//! The per-operation replay reports one draw of that maximum. The fluid replay reports the
//! median of its distribution and a band from the 0.1% to the 99.9% quantile, which is what
//! `tests/fluid_agreement.rs` holds the per-operation figure to.

/// Quantiles the reports give: the band's ends and the median.
pub const LOW_Q: f64 = 0.001;
pub const MEDIAN_Q: f64 = 0.5;
pub const HIGH_Q: f64 = 0.999;

/// Above this mean a Binomial count is taken as normal (with a continuity correction): its
/// probabilities would underflow the recurrence from 0, and the normal is within 1e-3 there.
const NORMAL_ABOVE: f64 = 400.0;

/// A band: the 0.1% quantile, the median and the 99.9% quantile of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Band {
    pub low: f64,
    pub median: f64,
    pub high: f64,
}

impl Band {
    /// A figure known exactly.
    pub fn exact(x: f64) -> Band {
        Band { low: x, median: x, high: x }
    }

    pub fn scale(self, k: f64) -> Band {
        Band { low: self.low * k, median: self.median * k, high: self.high * k }
    }

    pub fn max(self, other: Band) -> Band {
        Band {
            low: self.low.max(other.low),
            median: self.median.max(other.median),
            high: self.high.max(other.high),
        }
    }
}

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// A non-negative count rounded up from a bound.
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a bound on a count, clamped")]
fn whole(x: f64) -> u64 {
    x.ceil().clamp(0.0, 9e15) as u64
}

/// The complementary error function (Numerical Recipes' `erfcc`, relative error < 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// P(Z > z) for a standard normal Z.
pub fn normal_tail(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// E[(X − c)⁺] for X ~ Normal(mean, sd²): what a random demand passes a budget `c` by, on
/// average. Not `(mean − c)⁺`: a demand whose mean fits still passes the budget in some ticks.
pub fn normal_excess(mean: f64, sd: f64, c: f64) -> f64 {
    if sd <= 0.0 {
        return (mean - c).max(0.0);
    }
    let d = (mean - c) / sd;
    let density = (-0.5 * d * d).exp() / (2.0 * std::f64::consts::PI).sqrt();
    ((mean - c) * normal_tail(-d) + sd * density).max(0.0)
}

/// P(X > x) for X ~ Binomial(n, p), for every x in `lo..=hi`.
pub fn binomial_tails(n: u64, p: f64, lo: u64, hi: u64) -> Vec<f64> {
    let len = usize::try_from(hi.saturating_sub(lo) + 1).unwrap_or(0);
    if n == 0 || p <= 0.0 {
        return vec![0.0; len];
    }
    let p = p.min(1.0);
    let mean = n as f64 * p;
    if mean > NORMAL_ABOVE {
        let sd = (mean * (1.0 - p)).sqrt().max(1e-9);
        return (lo..=hi).map(|x| normal_tail((x as f64 + 0.5 - mean) / sd)).collect();
    }
    if p >= 1.0 {
        // Every call lands: X is n.
        return (lo..=hi).map(|x| if x < n { 1.0 } else { 0.0 }).collect();
    }
    // The probabilities from 0 up by the recurrence, far enough past `hi` that the tail
    // beyond is below f64's resolution. The recurrence runs on logarithms: P(X = 0) = (1 − p)ⁿ
    // underflows to 0 for a share near 1 (p = 0.99, n = 200), and every term after it would.
    let top = hi.saturating_add(64 + whole(12.0 * mean.sqrt())).min(n);
    let log_ratio = p.ln() - (-p).ln_1p();
    let mut pmf = Vec::with_capacity(usize::try_from(top + 1).unwrap_or(0));
    let mut log_q = n as f64 * (-p).ln_1p();
    pmf.push(log_q.exp());
    for k in 0..top {
        log_q += ((n - k) as f64 / (k + 1) as f64).ln() + log_ratio;
        pmf.push(log_q.exp());
    }
    let mut tails = vec![0.0; len];
    let mut above = 0.0;
    for k in (lo..=top).rev() {
        if k <= hi {
            tails[usize::try_from(k - lo).unwrap_or(0)] = above;
        }
        above += pmf[usize::try_from(k).unwrap_or(0)];
    }
    tails
}

/// One kind of count that goes into a maximum: `times` independent copies of a
/// Binomial(`n`, `p`) (a partition's calls in a tick, for every tick with that many calls).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Draws {
    pub n: u64,
    pub p: f64,
    pub times: f64,
}

/// Quantiles (`LOW_Q`, `MEDIAN_Q`, `HIGH_Q`) of the maximum of every count in `draws`: the
/// smallest x with P(max ≤ x) ≥ q. Each `Draws` adds `times · ln P(X ≤ x)` to ln P(max ≤ x).
pub fn binomial_max(draws: &[Draws]) -> Band {
    let active = || draws.iter().filter(|d| d.times > 0.0 && d.n > 0 && d.p > 0.0);
    // Every quantile lies between the busiest draw's mean less 12 standard deviations (below
    // it, P(max ≤ x) is below 10⁻³⁰) and the highest mean plus 12: only that window is
    // computed, so a count of 10⁹ a tick costs a window of 10⁵, not a vector of 10⁹.
    let spread = |d: &Draws| {
        let mean = d.n as f64 * d.p;
        (mean, 12.0 * (mean * (1.0 - d.p.min(1.0))).sqrt() + 30.0)
    };
    let Some(hi) = active()
        .map(|d| {
            let (mean, sd12) = spread(d);
            whole((mean + sd12).min(d.n as f64))
        })
        .max()
    else {
        return Band::default();
    };
    let lo = active()
        .map(|d| {
            let (mean, sd12) = spread(d);
            whole((mean - sd12).max(0.0)).saturating_sub(1)
        })
        .max()
        .unwrap_or(0)
        .min(hi);
    let mut log_cdf = vec![0.0f64; usize::try_from(hi - lo + 1).unwrap_or(0)];
    for d in draws.iter().filter(|d| d.times > 0.0) {
        for (x, tail) in binomial_tails(d.n, d.p, lo, hi).into_iter().enumerate() {
            log_cdf[x] += d.times * (-tail).ln_1p();
        }
    }
    let quantile = |q: f64| {
        let target = q.ln();
        (lo + log_cdf.iter().position(|&l| l >= target).unwrap_or(log_cdf.len()) as u64) as f64
    };
    Band { low: quantile(LOW_Q), median: quantile(MEDIAN_Q), high: quantile(HIGH_Q) }
}

/// The most draws [`Maxima`] holds: past them, answers are computed and not kept.
const MAXIMA_HELD: usize = 1 << 20;

/// A list of draws to the bit: `(n, p, times)`.
type DrawBits = Vec<(u64, u64, u64)>;

/// A load's lanes to the bit: `(n, p, units)`.
type LaneBits = Vec<(u64, u64, u64)>;

/// The most atoms of laws [`Maxima`] holds (64 MB of them): past them, laws are computed and
/// not kept.
const LOADS_HELD: usize = 1 << 22;

/// [`binomial_max`] remembered by its draws (to the bit): the report weighs each kept
/// partition's member on its own, and a flat popularity's members are drawn alike — one
/// answer for them all, not one binomial tail per member. And [`mixed_max`]'s laws by their
/// lanes (to the bit): a member's loads repeat from tick to tick (the same calls at the same
/// shares), and members of one bin of shares share them, so each law is convolved once.
#[derive(Debug, Default)]
pub struct Maxima {
    known: RefCell<HashMap<DrawBits, Band>>,
    held: Cell<usize>,
    loads: RefCell<HashMap<LaneBits, Rc<Load>>>,
    loads_held: Cell<usize>,
}

impl Maxima {
    pub fn binomial(&self, draws: &[Draws]) -> Band {
        let key: Vec<(u64, u64, u64)> =
            draws.iter().map(|d| (d.n, d.p.to_bits(), d.times.to_bits())).collect();
        if let Some(&band) = self.known.borrow().get(&key) {
            return band;
        }
        let band = binomial_max(draws);
        if self.held.get() + key.len() <= MAXIMA_HELD {
            self.held.set(self.held.get() + key.len());
            self.known.borrow_mut().insert(key, band);
        }
        band
    }

    /// [`mixed_max`], each law convolved once: loads of the same lanes are one law whose copies
    /// are their `times` summed (each copy adds the same `ln P(load ≤ x)`), in the order first
    /// met, and a law already convolved for another call is taken from memory.
    pub fn mixed(&self, loads: &[Mixed]) -> Result<Band, TooManyAtoms> {
        let mut order: Vec<(LaneBits, f64)> = Vec::new();
        let mut at: HashMap<LaneBits, usize> = HashMap::new();
        for load in loads.iter().filter(|l| l.times > 0.0) {
            let key: LaneBits = load.lanes.iter().map(|&(n, p, u)| (n, p.to_bits(), u.to_bits())).collect();
            if let Some(&i) = at.get(&key) {
                order[i].1 += load.times;
            } else {
                at.insert(key.clone(), order.len());
                order.push((key, load.times));
            }
        }
        let mut laws: Vec<(Rc<Load>, f64)> = Vec::with_capacity(order.len());
        for (key, times) in order {
            let known = self.loads.borrow().get(&key).cloned();
            let law = if let Some(law) = known {
                law
            } else {
                let lanes: Vec<(u64, f64, f64)> =
                    key.iter().map(|&(n, p, u)| (n, f64::from_bits(p), f64::from_bits(u))).collect();
                let law = Rc::new(Load::of(&lanes)?);
                if self.loads_held.get() + law.atoms() <= LOADS_HELD {
                    self.loads_held.set(self.loads_held.get() + law.atoms());
                    self.loads.borrow_mut().insert(key, Rc::clone(&law));
                }
                law
            };
            laws.push((law, times));
        }
        let refs: Vec<(&Load, f64)> = laws.iter().map(|(law, times)| (law.as_ref(), *times)).collect();
        Ok(max_of_loads(&refs))
    }
}

/// A partition's size as a normal: mean and standard deviation (0: known exactly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Normal {
    pub mean: f64,
    pub sd: f64,
}

/// A partition's size in items: `base` items known exactly (the preload) and a count `N` of the
/// items its writes added, with that count's mean and variance. [`Sizes::max`] scales it (to
/// bytes, say).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Counted {
    pub base: f64,
    pub mean: f64,
    pub var: f64,
}

/// How one `Counted` size is drawn: `P(size ≤ x)`, on its own terms.
enum Law {
    /// Known exactly.
    Exact(f64),
    /// A Binomial(n, p) matched to the count's mean and variance, with `ln P(N ≤ k)` for `k` in
    /// `lo..lo + logs.len()` (below: impossible; above: certain), and the first index from
    /// which every entry is exactly 0 (`settled_from`).
    Binomial { lo: u64, logs: Vec<f64>, settled_from: usize },
    /// A count more spread than any Binomial: normal.
    Normal(Normal),
}

impl Law {
    fn of(c: &Counted) -> Law {
        if c.var <= 0.0 || c.mean <= 0.0 {
            return Law::Exact(c.mean.max(0.0));
        }
        if c.var >= c.mean {
            return Law::Normal(Normal { mean: c.mean, sd: c.var.sqrt() });
        }
        // Mean n·p and variance n·p·(1 − p).
        let p = 1.0 - c.var / c.mean;
        // A whole count: a Bernoulli's mean / p is 1 but for float noise, which must not round
        // it up to 2 (an item a key of one item cannot hold).
        let n = whole(c.mean / p - 1e-9).max(1);
        let p = c.mean / n as f64;
        let sd = (c.mean * (1.0 - p)).sqrt();
        let lo = whole((c.mean - 12.0 * sd - 30.0).max(0.0)).saturating_sub(1);
        let hi = whole((c.mean + 12.0 * sd + 30.0).min(n as f64));
        // The logarithms once, not once a step of every search.
        let logs: Vec<f64> = binomial_tails(n, p, lo, hi).into_iter().map(|tail| (-tail).ln_1p()).collect();
        let settled_from = logs.iter().rposition(|&l| l != 0.0).map_or(0, |i| i + 1);
        Law::Binomial { lo, logs, settled_from }
    }

    /// The table index of a real `k` (a Binomial's count is whole: ⌊k⌋), `None` below the table.
    fn index(lo: u64, k: f64) -> Option<usize> {
        if k < 0.0 {
            return None;
        }
        // Floored: the cast truncates, which for a count of 0 or more is the floor (and needs
        // no call to `floor`, which the search would make once per size per step).
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a count, floored")]
        let k = (k + 1e-9) as u64;
        if k < lo {
            return None;
        }
        Some(usize::try_from(k - lo).unwrap_or(usize::MAX))
    }

    /// ln P(N ≤ k) for a real `k`.
    fn log_cdf(&self, k: f64) -> f64 {
        match self {
            Law::Exact(x) => {
                if k >= *x - 1e-9 {
                    0.0
                } else {
                    f64::NEG_INFINITY
                }
            }
            Law::Normal(n) => (-normal_tail((k - n.mean) / n.sd)).ln_1p(),
            Law::Binomial { lo, logs, .. } => {
                Law::index(*lo, k).map_or(f64::NEG_INFINITY, |i| logs.get(i).copied().unwrap_or(0.0))
            }
        }
    }

    /// Whether `log_cdf` is exactly 0 at `k` and at every larger `k`: the size is certainly at
    /// most `k`, and its term adds nothing to a sum of them. (A normal's never is, on its own
    /// terms; it is kept.)
    fn settled(&self, k: f64) -> bool {
        match self {
            Law::Exact(_) => self.log_cdf(k) == 0.0,
            Law::Normal(_) => false,
            Law::Binomial { lo, settled_from, .. } => Law::index(*lo, k).is_some_and(|i| i >= *settled_from),
        }
    }
}

/// Many partitions' sizes, for the quantiles of their maximum at one or more scales (items, and
/// bytes at each partition's bytes per item): each size's law is built once, and once for all
/// sizes of the same count (a flat popularity's partitions are drawn alike).
pub struct Sizes<'a> {
    counts: &'a [Counted],
    laws: Vec<Law>,
    /// Per size, its law in `laws`.
    law_of: Vec<usize>,
}

impl<'a> Sizes<'a> {
    pub fn new(sizes: &'a [Counted]) -> Sizes<'a> {
        let mut laws = Vec::new();
        let mut known: HashMap<(u64, u64), usize> = HashMap::new();
        let law_of = sizes
            .iter()
            .map(|c| {
                *known.entry((c.mean.to_bits(), c.var.to_bits())).or_insert_with(|| {
                    laws.push(Law::of(c));
                    laws.len() - 1
                })
            })
            .collect();
        Sizes { counts: sizes, laws, law_of }
    }

    /// Quantiles of the maximum of independent partition sizes, each `scale(i) × (base + N)`:
    /// the exact items it started with and a count of those its writes added, a Binomial
    /// matched to that count's mean and variance, so that a partition a few writes reach (a
    /// preloaded one, say) grows by whole items — a normal of the same spread would put most
    /// of its chances between two sizes. Sizes of scale 0 are left out.
    pub fn max(&self, scale: impl Fn(usize) -> f64) -> Band {
        let spread = |c: &Counted| 12.0 * c.var.max(0.0).sqrt() + 30.0;
        let scaled: Vec<(f64, &Counted, &Law)> = (0..self.counts.len())
            .map(|i| (scale(i), &self.counts[i], &self.laws[self.law_of[i]]))
            .filter(|(s, ..)| *s > 0.0)
            .collect();
        let Some(top) = scaled.iter().map(|(s, c, _)| s * (c.base + c.mean + spread(c))).reduce(f64::max)
        else {
            return Band::default();
        };
        let floor =
            scaled.iter().map(|(s, c, _)| s * (c.base + (c.mean - spread(c)).max(0.0))).fold(0.0, f64::max);
        // The search never looks below `floor`: a size settled there adds exactly 0 to every
        // sum it makes (and its order among the others is kept), so it is left out.
        let active: Vec<(f64, f64, &Law)> = scaled
            .into_iter()
            .filter(|(s, c, law)| !law.settled(floor / s - c.base))
            .map(|(s, c, law)| (s, c.base, law))
            .collect();
        let log_cdf = |x: f64| -> f64 { active.iter().map(|(s, base, law)| law.log_cdf(x / s - base)).sum() };
        let at_floor = log_cdf(floor);
        // Every x up to this is known to have ln P(max ≤ x) below the quantile searched before,
        // so below the next (the quantiles are searched in increasing order): not evaluated.
        let mut known_below = f64::NEG_INFINITY;
        let mut quantile = |q: f64| {
            let target = q.ln();
            if at_floor >= target {
                return floor;
            }
            let (mut a, mut b) = (floor, top.max(floor));
            // Bisection to 100 steps; once a step changes neither end, no later one does.
            for _ in 0..100 {
                let mid = 0.5 * (a + b);
                let (a2, b2) = if mid > known_below && log_cdf(mid) >= target { (a, mid) } else { (mid, b) };
                if a2.to_bits() == a.to_bits() && b2.to_bits() == b.to_bits() {
                    break;
                }
                (a, b) = (a2, b2);
            }
            known_below = known_below.max(a);
            b
        };
        let low = quantile(LOW_Q);
        let median = quantile(MEDIAN_Q);
        let high = quantile(HIGH_Q);
        Band { low, median, high }
    }
}

/// One kind of load that goes into a maximum: `times` independent copies of a sum over lanes of
/// `units` times a Binomial(`n`, `p`) count — a partition's requests of several patterns in a
/// tick, each pattern's of its own units (a filtered Query's whole range beside limited reads).
#[derive(Debug, Clone, PartialEq)]
pub struct Mixed {
    pub lanes: Vec<(u64, f64, f64)>,
    pub times: f64,
}

/// Atoms of a load's law below this chance are dropped: the 99.9% quantile of a maximum over
/// 10¹⁰ copies looks no further than 10⁻¹³.
const ATOM_FLOOR: f64 = 1e-18;

/// The most atoms a load's law may hold once equal values are merged: about 16 MB of them.
/// Lanes of unrelated units make every combination of counts a value of its own, so their
/// number grows as the product of the lanes' counts; above this the maximum is refused rather
/// than computed for minutes. Lanes of one unit cost are summed on whole counts first
/// (`Lattice`), so they never multiply (practice-search `recommended`: at most 60 at a step).
pub const MAX_ATOMS: usize = 1 << 20;

/// The most pairs of atoms one step of a convolution may form before they are merged (64 MB of
/// them): the work of a step, bounded as its result is by [`MAX_ATOMS`].
const MAX_PAIRS: usize = 1 << 22;

/// The most products one sum of lanes of equal units may take on whole counts (`Lattice`):
/// two lanes of ~8,000 likely counts each (a mean of ~10⁶ requests a tick in each).
const MAX_LATTICE_WORK: usize = 1 << 26;

/// Values within this relative distance are one value: the same counts of the same units summed
/// in another order (1.7 + 3.4 and 3.4 + 1.7 + 0.0) differ in their last bits, not in the load
/// they stand for. Far below the 10⁻⁹ every quantile is searched to.
const SAME_VALUE: f64 = 1e-12;

/// A load whose law would need more than `cap` atoms (or pairs of atoms, or products on whole
/// counts): `atoms` of them at the step refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyAtoms {
    pub atoms: usize,
    pub cap: usize,
}

fn same_value(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME_VALUE * a.abs().max(b.abs())
}

/// Atoms sorted by value, those of the same value (to [`SAME_VALUE`]) merged into one at
/// their chance-weighted mean (their chances summed in the order they came): the law is the
/// same to 10⁻¹² of a value, and its number of atoms the number of values. Each atom is
/// compared with the first of its run, so a run never spans more than that; keeping the first
/// value instead of the mean would lean every merged value low.
fn merged(mut atoms: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    atoms.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(atoms.len());
    // The run's first value, and the sum of its values times their chances.
    let (mut first, mut weighed) = (f64::NAN, 0.0);
    for (v, q) in atoms {
        match out.last_mut() {
            Some(last) if same_value(first, v) => {
                last.1 += q;
                weighed += v * q;
                if last.1 > 0.0 {
                    last.0 = weighed / last.1;
                }
            }
            _ => {
                out.push((v, q));
                (first, weighed) = (v, v * q);
            }
        }
    }
    out
}

/// A Binomial(n, p) count's chances from `first` on, those of counts whose chance is below
/// [`ATOM_FLOOR`] at either end left out.
fn binomial_pmf(n: u64, p: f64) -> (u64, Vec<f64>) {
    let mean = n as f64 * p.min(1.0);
    let top = whole((mean + 12.0 * (mean * (1.0 - p.min(1.0))).sqrt() + 30.0).min(n as f64));
    let tails = binomial_tails(n, p, 0, top);
    let pmf: Vec<f64> =
        (0..tails.len()).map(|x| if x == 0 { 1.0 - tails[0] } else { tails[x - 1] - tails[x] }).collect();
    let first = pmf.iter().position(|&q| q > ATOM_FLOOR).unwrap_or(0);
    let last = pmf.iter().rposition(|&q| q > ATOM_FLOOR).unwrap_or(0);
    (first as u64, pmf[first..=last.max(first)].to_vec())
}

/// The sum of Binomial counts of one unit cost, on whole counts: chances of `first + i`
/// requests. A sum of Binomials of different chances (a Poisson binomial) is not a Binomial,
/// but its counts are whole: convolved as arrays, its size is the sum of the lanes' likely
/// counts, never their product, exactly.
struct Lattice {
    first: u64,
    pmf: Vec<f64>,
}

impl Lattice {
    fn of(lanes: &[(u64, f64)]) -> Result<Lattice, TooManyAtoms> {
        let mut sum = Lattice { first: 0, pmf: vec![1.0] };
        for &(n, p) in lanes {
            let (first, pmf) = binomial_pmf(n, p);
            let work = sum.pmf.len().saturating_mul(pmf.len());
            if work > MAX_LATTICE_WORK {
                return Err(TooManyAtoms { atoms: work, cap: MAX_LATTICE_WORK });
            }
            let mut out = vec![0.0; sum.pmf.len() + pmf.len() - 1];
            for (i, &a) in sum.pmf.iter().enumerate() {
                for (j, &b) in pmf.iter().enumerate() {
                    out[i + j] += a * b;
                }
            }
            // Trimmed at both ends as each lane's own counts are.
            let lo = out.iter().position(|&q| q > ATOM_FLOOR).unwrap_or(0);
            let hi = out.iter().rposition(|&q| q > ATOM_FLOOR).unwrap_or(0).max(lo);
            sum = Lattice { first: sum.first + first + lo as u64, pmf: out[lo..=hi].to_vec() };
        }
        Ok(sum)
    }

    fn atoms(&self, units: f64) -> Vec<(f64, f64)> {
        self.pmf
            .iter()
            .enumerate()
            .filter(|&(_, &q)| q > ATOM_FLOOR)
            .map(|(i, &q)| ((self.first + i as u64) as f64 * units, q))
            .collect()
    }
}

/// One load's law: its values in increasing order, with the chance of the atoms above each.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    values: Vec<f64>,
    tails: Vec<f64>,
}

impl Load {
    /// The convolution of `lanes`' Binomial counts, each scaled by its units: lanes of the same
    /// units (to [`SAME_VALUE`]) summed on whole counts first (`Lattice`), then each such sum's
    /// atoms convolved with the others', atoms of the same value merged.
    pub fn of(lanes: &[(u64, f64, f64)]) -> Result<Load, TooManyAtoms> {
        let mut used: Vec<(u64, f64, f64)> =
            lanes.iter().copied().filter(|&(n, p, _)| n > 0 && p > 0.0).collect();
        used.sort_by(|a, b| a.2.total_cmp(&b.2));
        let mut atoms = vec![(0.0f64, 1.0f64)];
        let mut k = 0;
        while k < used.len() {
            let units = used[k].2;
            let end = k + used[k..].iter().take_while(|l| same_value(l.2, units)).count();
            let counts: Vec<(u64, f64)> = used[k..end].iter().map(|&(n, p, _)| (n, p)).collect();
            k = end;
            let class = Lattice::of(&counts)?.atoms(units);
            let pairs = atoms.len().saturating_mul(class.len());
            if pairs > MAX_PAIRS {
                return Err(TooManyAtoms { atoms: pairs, cap: MAX_PAIRS });
            }
            atoms = merged(
                atoms
                    .iter()
                    .flat_map(|&(v, q)| class.iter().map(move |&(w, r)| (v + w, q * r)))
                    .filter(|&(_, q)| q > ATOM_FLOOR)
                    .collect(),
            );
            if atoms.len() > MAX_ATOMS {
                return Err(TooManyAtoms { atoms: atoms.len(), cap: MAX_ATOMS });
            }
        }
        let values: Vec<f64> = atoms.iter().map(|a| a.0).collect();
        // At most 1: a law convolved from thousands of atoms sums to 1 only to its rounding, and
        // a chance above 1 would make `ln P(load ≤ x)` NaN, which no quantile search survives.
        let mut tails = vec![0.0; atoms.len()];
        let mut above = 0.0;
        for i in (0..atoms.len()).rev() {
            tails[i] = f64::min(above, 1.0);
            above += atoms[i].1;
        }
        Ok(Load { values, tails })
    }

    fn atoms(&self) -> usize {
        self.values.len()
    }
}

/// Quantiles (`LOW_Q`, `MEDIAN_Q`, `HIGH_Q`) of the maximum of `times` copies of each law:
/// each adds `times · ln P(load ≤ x)` to ln P(max ≤ x).
fn max_of_loads(laws: &[(&Load, f64)]) -> Band {
    let log_cdf = |x: f64| -> f64 {
        laws.iter()
            .map(|(law, times)| {
                // The last atom at or below x: the chance of those above it.
                match law.values.partition_point(|&v| v <= x + 1e-9) {
                    0 => f64::NEG_INFINITY,
                    i => times * (-law.tails[i - 1]).ln_1p(),
                }
            })
            .sum()
    };
    let mut candidates: Vec<f64> = laws.iter().flat_map(|(law, _)| law.values.iter().copied()).collect();
    candidates.sort_by(f64::total_cmp);
    candidates.dedup_by(|a, b| (*a - *b).abs() <= 1e-9);
    if candidates.is_empty() {
        return Band::default();
    }
    let quantile = |q: f64| {
        let target = q.ln();
        let i = candidates.partition_point(|&x| log_cdf(x) < target);
        candidates[i.min(candidates.len() - 1)]
    };
    Band { low: quantile(LOW_Q), median: quantile(MEDIAN_Q), high: quantile(HIGH_Q) }
}

/// Quantiles (`LOW_Q`, `MEDIAN_Q`, `HIGH_Q`) of the maximum of every load in `loads`, in units:
/// each load's law is the convolution of its lanes' Binomial counts, each scaled by its units
/// ([`Load::of`]), and each adds `times · ln P(load ≤ x)` to ln P(max ≤ x). With one lane it is
/// [`binomial_max`] scaled by the lane's units. Refused ([`TooManyAtoms`]) where a law would
/// pass [`MAX_ATOMS`] atoms (or a step of it its work's caps). The plain form of
/// [`Maxima::mixed`], which the report uses.
#[cfg(test)]
pub fn mixed_max(loads: &[Mixed]) -> Result<Band, TooManyAtoms> {
    let laws: Vec<(Load, f64)> = loads
        .iter()
        .filter(|l| l.times > 0.0)
        .map(|l| Ok((Load::of(&l.lanes)?, l.times)))
        .collect::<Result<_, _>>()?;
    let refs: Vec<(&Load, f64)> = laws.iter().map(|(law, times)| (law, *times)).collect();
    Ok(max_of_loads(&refs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::workload::unit;

    #[test]
    fn a_mixed_maximum_of_one_lane_is_the_binomials_scaled() {
        // (n, p, units, times)
        let cases =
            [(2, 0.1, 29.5, 600.0), (20, 0.05, 1.5, 6000.0), (40, 0.5, 0.5, 10.0), (3, 1.0, 2.0, 5.0)];
        for (n, p, units, times) in cases {
            let mixed = mixed_max(&[Mixed { lanes: vec![(n, p, units)], times }]).unwrap();
            let binomial = binomial_max(&[Draws { n, p, times }]).scale(units);
            for (a, b) in
                [(mixed.low, binomial.low), (mixed.median, binomial.median), (mixed.high, binomial.high)]
            {
                assert!((a - b).abs() < 1e-9, "n {n}, p {p}: {mixed:?} against {binomial:?}");
            }
        }
    }

    #[test]
    fn a_mixed_maximum_sums_the_lanes_of_one_tick() {
        // Two searches of 30 units and twenty reads of 1.5 of one key, each a tenth likely to
        // pick it, over 600 ticks: against the maximum of sampled ticks (seeded, addressable).
        let load = Mixed { lanes: vec![(2, 0.1, 30.0), (20, 0.1, 1.5)], times: 600.0 };
        let band = mixed_max(std::slice::from_ref(&load)).unwrap();
        let runs = 400u64;
        let mut maxima: Vec<f64> = (0..runs)
            .map(|run| {
                (0..600u64)
                    .map(|t| {
                        let mut k = 0u64;
                        let mut load_t = 0.0;
                        for &(n, p, units) in &load.lanes {
                            for _ in 0..n {
                                k += 1;
                                if unit(11, run, (t << 20) | k) < p {
                                    load_t += units;
                                }
                            }
                        }
                        load_t
                    })
                    .fold(0.0, f64::max)
            })
            .collect();
        maxima.sort_by(f64::total_cmp);
        // Within two steps of a read's units (the maxima are whole counts of them), and about
        // 0.2% of the runs outside the band (0.8 expected of 400; at most 4 allowed).
        let median = maxima[maxima.len() / 2];
        assert!((median - band.median).abs() <= 3.0 + 1e-9, "sampled median {median}, {band:?}");
        let outside = maxima.iter().filter(|&&m| m < band.low - 1e-9 || m > band.high + 1e-9).count();
        assert!(outside <= 4, "{outside} of {runs} maxima outside {band:?}");
    }

    #[test]
    fn merging_atoms_keeps_the_law() {
        // (atoms in, atoms out): equal values summed, the rest kept, in value order.
        type Atoms = Vec<(f64, f64)>;
        let cases: [(Atoms, Atoms); 4] = [
            (vec![(3.0, 0.25), (0.0, 0.5), (3.0, 0.25)], vec![(0.0, 0.5), (3.0, 0.5)]),
            // 0.1 + 0.2 is 0.3 but for its last bit: one value, at their mean.
            (vec![(1.5, 0.5), (0.1 + 0.2, 0.25), (0.3, 0.25)], vec![(0.3, 0.5), (1.5, 0.5)]),
            (vec![(0.0, 1.0)], vec![(0.0, 1.0)]),
            // Two values 10⁻¹³ apart, the higher three times as likely: one atom at the mean.
            (vec![(1.0, 0.25), (1.0 + 1e-13, 0.75)], vec![(1.0 + 0.75e-13, 1.0)]),
        ];
        let moments = |atoms: &[(f64, f64)]| {
            let total: f64 = atoms.iter().map(|a| a.1).sum();
            let mean: f64 = atoms.iter().map(|a| a.0 * a.1).sum();
            let var: f64 = atoms.iter().map(|a| (a.0 - mean).powi(2) * a.1).sum();
            (total, mean, var)
        };
        for (atoms, want) in cases {
            let out = merged(atoms.clone());
            assert_eq!(out.len(), want.len(), "{atoms:?}: {out:?}");
            for (o, w) in out.iter().zip(&want) {
                assert!((o.0 - w.0).abs() <= 1e-15 && (o.1 - w.1).abs() <= 1e-15, "{atoms:?}: {out:?}");
            }
            let ((t0, m0, v0), (t1, m1, v1)) = (moments(&atoms), moments(&out));
            assert!(
                (t0 - t1).abs() < 1e-12 && (m0 - m1).abs() < 1e-12 && (v0 - v1).abs() < 1e-12,
                "{atoms:?}"
            );
        }
    }

    #[test]
    fn lanes_of_equal_units_merge_into_the_binomial_of_their_sum() {
        // Lanes of one chance and one unit cost are one Binomial of their requests together:
        // every value is reached by many combinations, merged into one atom each.
        // (lanes' n, p, units, times)
        let cases = [
            (vec![10, 20], 0.2, 1.5, 600.0),
            (vec![5, 5, 5, 5], 0.1, 30.0, 6000.0),
            (vec![40, 1, 7], 0.5, 1.0, 10.0),
        ];
        for (ns, p, units, times) in cases {
            let lanes = ns.iter().map(|&n| (n, p, units)).collect();
            let mixed = mixed_max(&[Mixed { lanes, times }]).unwrap();
            let binomial = binomial_max(&[Draws { n: ns.iter().sum(), p, times }]).scale(units);
            for (a, b) in
                [(mixed.low, binomial.low), (mixed.median, binomial.median), (mixed.high, binomial.high)]
            {
                assert!((a - b).abs() < 1e-9, "{ns:?}, p {p}: {mixed:?} against {binomial:?}");
            }
        }
    }

    #[test]
    fn a_load_past_the_cap_of_atoms_is_refused() {
        // Three lanes of unrelated units, ~170 likely counts each: every combination its own
        // value, 170³ ≈ 5·10⁶ atoms at the third step. Two such lanes (~3·10⁴) are answered.
        let lane = |units: f64| (1000, 0.1, units);
        let three = Mixed {
            lanes: vec![lane(1.0), lane(std::f64::consts::PI), lane(std::f64::consts::E)],
            times: 60.0,
        };
        match mixed_max(&[three]) {
            Err(TooManyAtoms { atoms, cap }) => assert!(atoms > cap && cap >= MAX_ATOMS, "{atoms} {cap}"),
            other => panic!("not refused: {other:?}"),
        }
        let two = Mixed { lanes: vec![lane(1.0), lane(std::f64::consts::PI)], times: 60.0 };
        assert!(mixed_max(&[two]).is_ok());
    }

    /// Lanes of one unit cost, however many requests, are summed on whole counts: two lanes of
    /// a million requests (~9,000 likely counts each, 8·10⁷ pairs, past every cap as a product)
    /// are answered, as the normal of their summed mean and variance.
    #[test]
    fn lanes_of_equal_units_never_multiply_their_atoms() {
        // (lanes, units)
        let cases = [
            (vec![(1_000_000, 0.5), (1_000_000, 0.3)], 1.0),
            (vec![(2_000_000, 0.01), (500_000, 0.9), (10, 0.5)], 2.5),
        ];
        for (lanes, units) in cases {
            let load = Mixed { lanes: lanes.iter().map(|&(n, p)| (n, p, units)).collect(), times: 1.0 };
            let band = mixed_max(&[load]).unwrap();
            let mean: f64 = lanes.iter().map(|&(n, p)| n as f64 * p).sum();
            let sd = lanes.iter().map(|&(n, p)| n as f64 * p * (1.0 - p)).sum::<f64>().sqrt();
            for (got, z) in [(band.low, -3.09), (band.median, 0.0), (band.high, 3.09)] {
                let want = (mean + z * sd) * units;
                assert!((got - want).abs() <= 0.01 * sd * units + units, "{lanes:?}: {band:?}");
            }
        }
    }

    /// A sum of Binomials of one unit cost and different chances (a Poisson binomial), on whole
    /// counts, against its law enumerated request by request.
    #[test]
    fn a_sum_of_unequal_binomials_is_their_poisson_binomial() {
        // (lanes' n, p)
        let cases = [vec![(3u64, 0.2), (2, 0.7)], vec![(1, 0.5), (4, 0.05), (2, 0.99)], vec![(5, 0.3)]];
        for lanes in cases {
            let chances: Vec<f64> = lanes.iter().flat_map(|&(n, p)| (0..n).map(move |_| p)).collect();
            // P(count = k), by every subset of the requests.
            let mut want = vec![0.0; chances.len() + 1];
            for mask in 0u32..(1 << chances.len()) {
                let q: f64 = chances
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| if mask & (1 << i) != 0 { p } else { 1.0 - p })
                    .product();
                want[mask.count_ones() as usize] += q;
            }
            let lattice = Lattice::of(&lanes).unwrap();
            for (k, &w) in want.iter().enumerate() {
                let got = (k as u64)
                    .checked_sub(lattice.first)
                    .and_then(|i| lattice.pmf.get(usize::try_from(i).ok()?));
                assert!((got.copied().unwrap_or(0.0) - w).abs() < 1e-12, "{lanes:?}: P({k}) {got:?} vs {w}");
            }
        }
    }

    /// Units that differ in their last bits (the same cost reached by another sum) are one
    /// class: the lanes' maximum is their summed Binomial's, not a product of atoms.
    #[test]
    fn units_equal_but_for_their_last_bits_are_one_class() {
        let units = 1.7f64;
        let other = 1.1f64 + 0.6;
        assert_ne!(units.to_bits(), other.to_bits());
        let (ns, p, times) = ([30u64, 50], 0.2, 600.0);
        let mixed = mixed_max(&[Mixed { lanes: vec![(ns[0], p, units), (ns[1], p, other)], times }]).unwrap();
        let binomial = binomial_max(&[Draws { n: ns.iter().sum(), p, times }]).scale(units);
        assert!((mixed.median - binomial.median).abs() < 1e-9, "{mixed:?} against {binomial:?}");
        assert!((mixed.high - binomial.high).abs() < 1e-9, "{mixed:?} against {binomial:?}");
    }

    /// `Maxima::mixed` answers as `mixed_max`: loads of the same lanes summed into one law's
    /// copies, a law convolved once and remembered.
    #[test]
    fn remembered_laws_answer_as_the_plain_maximum() {
        let a = vec![(20, 0.1, 1.5), (3, 0.02, 30.0)];
        let b = vec![(20, 0.1, 1.5), (3, 0.5, 30.0)];
        let loads = vec![
            Mixed { lanes: a.clone(), times: 100.0 },
            Mixed { lanes: b.clone(), times: 3.0 },
            Mixed { lanes: a, times: 500.0 },
            Mixed { lanes: b, times: 0.0 },
        ];
        let maxima = Maxima::default();
        let plain = mixed_max(&loads).unwrap();
        for _ in 0..2 {
            let remembered = maxima.mixed(&loads).unwrap();
            for (x, y) in [
                (remembered.low, plain.low),
                (remembered.median, plain.median),
                (remembered.high, plain.high),
            ] {
                assert!((x - y).abs() < 1e-9, "{remembered:?} against {plain:?}");
            }
        }
    }

    #[test]
    fn binomial_tails_sum_the_probabilities_above() {
        // (n, p, x, P(X > x)) computed by hand or from the normal where n·p is large.
        let cases = [
            (1, 0.5, 0, 0.5),
            (2, 0.5, 0, 0.75),
            (2, 0.5, 1, 0.25),
            (10, 0.1, 0, 1.0 - 0.9f64.powi(10)),
            (4, 0.25, 3, 0.25f64.powi(4)),
            // A share near 1: (1 − p)ⁿ = 10⁻⁴⁰⁰ underflows, the answer does not.
            (200, 0.99, 199, 0.99f64.powi(200)),
            (200, 0.99, 198, 0.99f64.powi(200) + 200.0 * 0.01 * 0.99f64.powi(199)),
            (5, 1.0, 4, 1.0),
            (5, 1.0, 5, 0.0),
        ];
        for (n, p, x, want) in cases {
            let got = binomial_tails(n, p, x, x)[0];
            assert!((got - want).abs() < 1e-10, "Binomial({n}, {p}) > {x}: {got} vs {want}");
        }
        let big = binomial_tails(1_000_000, 0.001, 1000, 1000)[0];
        assert!((big - 0.5).abs() < 0.02, "{big}");
    }

    /// A billion calls a tick on one key: the band is the normal's, and computing it does not
    /// allocate a billion-entry vector.
    #[test]
    fn a_huge_count_is_computed_in_a_window_around_it() {
        let band = binomial_max(&[Draws { n: 1_000_000_000, p: 0.5, times: 1.0 }]);
        let sd = (1e9f64 * 0.25).sqrt();
        assert!((band.median - 5e8).abs() <= 1.0, "{band:?}");
        assert!((band.low - (5e8 - 3.09 * sd)).abs() < 0.01 * sd, "{band:?}");
        assert!((band.high - (5e8 + 3.09 * sd)).abs() < 0.01 * sd, "{band:?}");
    }

    #[test]
    fn the_expected_excess_is_the_mean_of_the_overflow() {
        // Known points: E[(Z − 0)⁺] = φ(0) = 0.398 94; far above or below, the mean's excess.
        assert!((normal_excess(0.0, 1.0, 0.0) - 0.398_942).abs() < 1e-6);
        assert!((normal_excess(10.0, 1.0, 0.0) - 10.0).abs() < 1e-9);
        assert!(normal_excess(-10.0, 1.0, 0.0) < 1e-9);
        assert!((normal_excess(5.0, 0.0, 3.0) - 2.0).abs() < 1e-12);
        // Against a sum over a fine grid of the density.
        let (mean, sd, c) = (100.0, 15.0, 110.0);
        let step = 0.01;
        let grid: f64 = (0..20_000)
            .map(|k| {
                let x = mean - 100.0 + f64::from(k) * step;
                let z = (x - mean) / sd;
                (x - c).max(0.0) * (-0.5 * z * z).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt()) * step
            })
            .sum();
        assert!((normal_excess(mean, sd, c) - grid).abs() < 1e-3, "{grid}");
    }

    #[test]
    fn the_normal_tail_is_symmetric_and_right_at_known_points() {
        for (z, want) in [(0.0, 0.5), (1.0, 0.158_655_25), (3.0, 0.001_349_898), (-1.0, 0.841_344_75)] {
            assert!((normal_tail(z) - want).abs() < 1e-6, "{z}");
        }
    }

    /// The band holds the maximum of sampled Binomials: brute force against the analysis.
    #[test]
    fn binomial_max_brackets_sampled_maxima() {
        let cases = [(60u64, 0.095, 500u32), (6, 0.02, 2000), (30, 0.2, 1000), (40, 0.97, 300)];
        for (case, &(n, p, ticks)) in cases.iter().enumerate() {
            let band = binomial_max(&[Draws { n, p, times: f64::from(ticks) }]);
            let (mut below_median, mut under_median) = (0, 0);
            let runs = 200u64;
            for run in 0..runs {
                let mut max = 0u64;
                for t in 0..u64::from(ticks) {
                    let count = (0..n)
                        .filter(|&k| unit(7, case as u64 * 1000 + run, (t << 20) | k) < p)
                        .count() as u64;
                    max = max.max(count);
                }
                let max = max as f64;
                assert!(max >= band.low - 1.0 && max <= band.high + 1.0, "{n} {p}: {max} outside {band:?}");
                if max <= band.median {
                    below_median += 1;
                }
                if max < band.median {
                    under_median += 1;
                }
            }
            // The median: at least half the maxima at or below it, at most half under it (with
            // five standard deviations of 200 runs' slack).
            assert!(below_median >= 65, "{n} {p}: {below_median} of {runs} at or below the median");
            assert!(under_median <= 135, "{n} {p}: {under_median} of {runs} under the median");
        }
    }

    fn counted_max(sizes: &[Counted]) -> Band {
        Sizes::new(sizes).max(|_| 1.0)
    }

    /// The plain search `Sizes::max` shortens: every law a term, 100 bisection steps a quantile.
    fn bisected(sizes: &[Counted], scales: &[f64]) -> Band {
        let spread = |c: &Counted| 12.0 * c.var.max(0.0).sqrt() + 30.0;
        let laws: Vec<(Law, &Counted, f64)> =
            sizes.iter().zip(scales).filter(|(_, s)| **s > 0.0).map(|(c, &s)| (Law::of(c), c, s)).collect();
        let top = laws.iter().map(|(_, c, s)| s * (c.base + c.mean + spread(c))).reduce(f64::max).unwrap();
        let floor =
            laws.iter().map(|(_, c, s)| s * (c.base + (c.mean - spread(c)).max(0.0))).fold(0.0, f64::max);
        let log_cdf = |x: f64| -> f64 { laws.iter().map(|(law, c, s)| law.log_cdf(x / s - c.base)).sum() };
        let quantile = |q: f64| {
            let target = q.ln();
            let (mut a, mut b) = (floor, top.max(floor));
            if log_cdf(a) >= target {
                return a;
            }
            for _ in 0..100 {
                let mid = 0.5 * (a + b);
                if log_cdf(mid) >= target { b = mid } else { a = mid }
            }
            b
        };
        Band { low: quantile(LOW_Q), median: quantile(MEDIAN_Q), high: quantile(HIGH_Q) }
    }

    /// The shortened search (settled sizes left out, a step that changes nothing ends it, the
    /// points a lower quantile found below skipped) answers as the plain one, to the bit.
    #[test]
    fn the_shortened_search_answers_as_plain_bisection() {
        let count = |base: f64, mean: f64, var: f64| Counted { base, mean, var };
        // (sizes, a scale per size)
        let cases: Vec<(Vec<Counted>, Vec<f64>)> = vec![
            // A flat population: one law for all, at varied bytes per item.
            (vec![count(0.0, 1.2, 1.0); 500], (0..500).map(|i| 600.0 + f64::from(i) * 0.37).collect()),
            // Preloads, a few hot partitions, a normal and exact sizes among them.
            (
                (0..300)
                    .map(|i| match i % 5 {
                        0 => count(f64::from(i % 7), 0.3, 0.29),
                        1 => count(2.0, 40.0, 30.0),
                        2 => count(0.0, 200.0, 250.0),
                        3 => count(5.0, 0.0, 0.0),
                        _ => count(1.0, 4.5, 4.4),
                    })
                    .collect(),
                (0..300).map(|i| if i % 11 == 0 { 0.0 } else { 1.0 + f64::from(i % 3) * 150.25 }).collect(),
            ),
            // One hot partition far above many settled ones.
            (
                std::iter::once(count(0.0, 4500.0, 4400.0))
                    .chain(vec![count(3.0, 0.5, 0.45); 1000])
                    .collect(),
                vec![160.0; 1001],
            ),
            (vec![count(10.0, 0.07, 0.07 * (1.0 - 1e-4)); 2000], vec![225.0; 2000]),
        ];
        for (i, (sizes, scales)) in cases.iter().enumerate() {
            let got = Sizes::new(sizes).max(|k| scales[k]);
            let want = bisected(sizes, scales);
            for (a, b) in [(got.low, want.low), (got.median, want.median), (got.high, want.high)] {
                assert_eq!(a.to_bits(), b.to_bits(), "case {i}: {got:?} against {want:?}");
            }
        }
    }

    #[test]
    fn counted_max_of_exact_sizes_is_the_largest() {
        let exact = |base: f64| Counted { base, mean: 0.0, var: 0.0 };
        assert_eq!(counted_max(&[exact(10.0), exact(4.0)]), Band::exact(10.0));
        // A normal's spread where the count is more spread than a Binomial can be.
        let spread = counted_max(&[Counted { base: 0.0, mean: 100.0, var: 100.0 }]);
        assert!(
            (spread.median - 100.0).abs() < 0.01 && spread.low < 75.0 && spread.high > 125.0,
            "{spread:?}"
        );
    }

    /// A preloaded partition that few writes reach grows by whole items: 2,000 partitions of
    /// 10 items, each with 0.07 writes expected, have a largest of whole items, never between
    /// two: 11 at most 0.9% of the time ((e^−0.07 · 1.07)^2000), 12 at most 89%.
    #[test]
    fn a_rarely_written_partition_grows_by_whole_items() {
        let parts = vec![Counted { base: 10.0, mean: 0.07, var: 0.07 * (1.0 - 1e-4) }; 2000];
        let band = Sizes::new(&parts).max(|_| 225.0);
        for x in [band.low, band.median, band.high] {
            let items = x / 225.0;
            assert!((items - items.round()).abs() < 1e-6, "{band:?}");
        }
        assert!(
            (band.low - 11.0 * 225.0).abs() < 1e-3 && (band.median - 12.0 * 225.0).abs() < 1e-3,
            "{band:?}"
        );
        // One such partition: no write at all, most likely (e^−0.07 = 93%).
        let one = Sizes::new(&parts[..1]).max(|_| 225.0);
        assert!((one.low - 2250.0).abs() < 1e-6 && (one.median - 2250.0).abs() < 1e-6, "{one:?}");
    }
}
