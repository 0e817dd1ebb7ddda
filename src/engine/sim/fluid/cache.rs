//! A read-through item cache as rates (DAX's item cache, `sim::cache`): per member and tick,
//! the expected misses of the GetItems the cache fronts, which alone reach the table.
//!
//! Per operation (`exec::read`'s `serve_from_cache`), a key misses on its first read, the read
//! fills the entry, and every later read of the key hits until the entry's TTL runs out, the
//! reads of the same tick too; a hit costs the table nothing. So, while no entry expires and
//! none is evicted, member `m` misses in tick `t` if it was read in `t` and never before: with
//! its pick share `p` of the tick's `n` calls, the chance of that is
//! `cold(m) × (1 − (1 − p)^n)`, `cold(m)` the chance no earlier tick read it, which then falls
//! by `(1 − p)^n`. Each tick the flow's shares become those expected misses over `n` (the
//! table's demand, its peaks and the heatmap follow them), and a key's misses in a tick are a
//! Bernoulli draw (0 or 1), not a Binomial of the tick's calls (`growth`'s peaks). The
//! report's hits and misses are expected values; what a hit saves is the item's eventually
//! consistent read units (`store::read_units`), the same for every item or refused.
//!
//! Refused by name: a cache whose entries may expire within the run (a run longer than the
//! TTL: the first read after an entry's expiry refills it, a renewal per key that rates do not
//! follow), whose entries may be evicted (the keys its reads may ask outnumber its items: which
//! entry LRU evicts is a draw rates do not make), in front of anything other than GetItems of a
//! population puts of new identities grow (`model::Growth`: the one group whose reads' shares
//! the replay works out anew each tick), on a store without read units, and, at run time, in
//! front of reads the table throttles (a refused miss fills nothing: the key misses again on
//! the next read and on its retry, which asks the cache again).

use std::rc::Rc;

use crate::engine::model::{PatternId, ReadCache};
use crate::engine::planner::Operation;
use crate::engine::store::read_units;

use super::super::world::World;
use super::model::{Model, Shares};
use super::{FluidError, unsupported};

/// Expected throttled first attempts of a fronted pattern past which a run is refused: the
/// per-operation replay refuses one with at most this chance.
const REFUSED_MISSES: f64 = 1e-3;

/// One read flow the cache fronts.
#[derive(Debug, Clone)]
pub struct Fronted {
    pub flow: usize,
    pub pattern: usize,
    /// The members' pick shares of the tick (the flow's own shares hold its misses').
    pub picks: Rc<[f64]>,
    /// Per member, the chance no read of it so far filled its entry.
    cold: Vec<f64>,
    /// Expected hits and misses over the run so far.
    pub hits: f64,
    pub misses: f64,
}

/// The cache as the fluid replay keeps it.
#[derive(Debug, Clone)]
pub struct CacheModel {
    pub fronted: Vec<Fronted>,
    /// Read units a hit saves: every item's, eventually consistent.
    pub saved_per_hit: f64,
}

impl CacheModel {
    /// The variant's `cache` over the model's flows, for a run of `run_ms` milliseconds; what
    /// it does not model is refused by name.
    pub fn compile(
        world: &World,
        model: &Model,
        spec: &ReadCache,
        run_ms: u64,
        place: &str,
    ) -> Result<CacheModel, FluidError> {
        if !world.engine.profile().metered() {
            return Err(unsupported("a read cache on a store without read units", place));
        }
        if run_ms > spec.ttl.as_millis() {
            return Err(unsupported(
                "a read cache whose entries may expire within the run (a run longer than its TTL: the first read after expiry refills the entry)",
                place,
            ));
        }
        let growth = model.growth.as_ref();
        let mut fronted = Vec::new();
        for (p, pattern) in world.patterns.iter().enumerate() {
            if !spec.serves(PatternId::new(p)) {
                continue;
            }
            let flows: Vec<usize> = (0..model.flows.len())
                .filter(|&f| model.flows[f].pattern == p && !model.flows[f].write)
                .collect();
            let grown = |f: &usize| growth.is_some_and(|g| g.flows.contains(f));
            if pattern.operation != Some(Operation::GetItem) || flows.is_empty() || !flows.iter().all(grown) {
                return Err(unsupported(
                    "a read cache in front of reads other than GetItems of a population puts of new identities grow",
                    &format!("pattern {}", pattern.name),
                ));
            }
            if fronted.iter().any(|c: &Fronted| model.flows[c.flow].group == model.flows[flows[0]].group) {
                return Err(unsupported(
                    "a read cache in front of two patterns' reads of the same keys (one's miss fills the other's hit)",
                    &format!("pattern {}", pattern.name),
                ));
            }
            for f in flows {
                // A grown population's GetItem picks by shares (`growing_shares`); anything else
                // is a read this model does not know, refused rather than assumed.
                let Shares::Each(picks) = &model.flows[f].shares else {
                    return Err(unsupported(
                        "a read cache in front of reads that pick their keys other than by shares",
                        &format!("pattern {}", pattern.name),
                    ));
                };
                fronted.push(Fronted {
                    flow: f,
                    pattern: p,
                    picks: Rc::clone(picks),
                    cold: Vec::new(),
                    hits: 0.0,
                    misses: 0.0,
                });
            }
        }
        // Every key a fronted read may ask is a member of the grown population by the run's end.
        let keys = growth.map_or(0, |g| g.members);
        if keys > spec.items {
            return Err(unsupported(
                &format!(
                    "a read cache whose entries may be evicted (the {keys} keys its reads may ask outnumber its {} items: which entry LRU evicts is a draw rates do not make)",
                    spec.items
                ),
                place,
            ));
        }
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a size in bytes")]
        let (most, least) = (
            read_units(model.largest.ceil() as u64, false),
            read_units(model.smallest.min(model.largest).floor() as u64, false),
        );
        if (most - least).abs() > 1e-9 {
            return Err(unsupported("a read cache of items of unequal read units (what a hit saves)", place));
        }
        Ok(CacheModel { fronted, saved_per_hit: most })
    }

    /// Whether flow `f` is one the cache fronts.
    pub fn fronts(&self, f: usize) -> bool {
        self.fronted.iter().any(|c| c.flow == f)
    }

    /// Flow `f`'s pick shares changed (a grown population's, `Replay::grow`): `true` when the
    /// cache keeps them, leaving the flow's shares to its misses.
    pub fn set_picks(&mut self, f: usize, picks: &Rc<[f64]>) -> bool {
        let Some(c) = self.fronted.iter_mut().find(|c| c.flow == f) else { return false };
        c.picks = Rc::clone(picks);
        true
    }

    /// The tick's expected misses: per fronted flow, its shares set to each member's chance of
    /// a miss over the tick's calls (`n` per pattern); the hits and misses counted.
    pub fn tick(&mut self, model: &mut Model, n: &[u64]) {
        for c in &mut self.fronted {
            let calls = n[c.pattern];
            if c.cold.len() < c.picks.len() {
                c.cold.resize(c.picks.len(), 1.0);
            }
            let mut shares = vec![0.0; c.picks.len()];
            let mut misses = 0.0;
            if calls > 0 {
                for ((share, cold), &p) in shares.iter_mut().zip(c.cold.iter_mut()).zip(c.picks.iter()) {
                    let miss = *cold * first_read_chance(p, calls);
                    *cold -= miss;
                    *share = miss / calls as f64;
                    misses += miss;
                }
            }
            c.misses += misses;
            c.hits += calls as f64 - misses;
            model.flows[c.flow].shares = Shares::Each(shares.into());
        }
    }

    /// Refuses a run whose table throttled a fronted read (`throttled`: expected first attempts
    /// refused so far, per pattern).
    pub fn check_throttled(&self, world: &World, throttled: &[f64]) -> Result<(), FluidError> {
        match self.fronted.iter().find(|c| throttled[c.pattern] >= REFUSED_MISSES) {
            Some(c) => Err(unsupported(
                "a read cache in front of reads the table throttles (a refused miss fills nothing, and its retry asks the cache again)",
                &format!("pattern {}", world.patterns[c.pattern].name),
            )),
            None => Ok(()),
        }
    }
}

/// The chance that at least one of `calls` calls, each picking a member with `p`, picks it.
fn first_read_chance(p: f64, calls: u64) -> f64 {
    if p <= 0.0 { 0.0 } else { -(calls as f64 * (-p).ln_1p()).exp_m1() }
}

#[cfg(test)]
mod tests {
    use super::first_read_chance;

    #[test]
    fn a_member_is_read_in_a_tick_with_the_chance_one_of_its_calls_picks_it() {
        // (share, calls, chance)
        let cases =
            [(0.0, 100, 0.0), (1.0, 1, 1.0), (0.5, 1, 0.5), (0.5, 2, 0.75), (0.1, 10, 1.0 - 0.9f64.powi(10))];
        for (p, calls, want) in cases {
            let got = first_read_chance(p, calls);
            assert!((got - want).abs() < 1e-12, "{p} over {calls}: {got}, not {want}");
        }
    }
}
