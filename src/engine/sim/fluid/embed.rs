//! The subset pattern's embedded lists as rates (`model::Embed` with `keep_latest: Some(n)`;
//! the per-operation replay's `sim::embed`): each landed put of the child is an item of its own
//! and brings one UpdateItem of its parent, a request of the call's pattern, appending the child
//! to the parent's list, which keeps the newest `n`.
//!
//! The fluid replay follows the appends as a write flow of the put's pattern onto the parent's
//! group, each parent the put's share of the member its `by` attribute picks (a parent is as hot
//! as the children it gets). The parents are the preloaded items, one per member, so their
//! count is the preload's; their bytes are not: a parent holding `k` children is its preloaded
//! document plus its list, the list field's name, an empty list and `min(k, n)` elements of the
//! child's mean size (sampled from the put's own generators, as `sim::embed` sizes an element)
//! with their names (BSON's index digits). Over a run, a parent's landed appends `K` are a
//! Binomial draw (each call picks it with its share, and lands with its partition's landed
//! share), so its expected bytes are `E[list(min(K, n))]`, and the versions its appends build
//! (each rewrites the whole document: `DocumentsReport`) are `E[Σ_{j ≤ K} (doc + list(min(j, n)))]`
//! — both exact expectations of that draw, summed per parent, not a mean list applied to a mean
//! count. The largest document is the largest preloaded parent with a full list of the largest
//! sampled element: a bound (the report's notes say so), where the per-operation replay's is
//! whichever parent's newest `n` children happened to be largest.
//!
//! Refused by name: lists kept whole (the parent grows with every child, and a multikey index
//! keys the distinct values of its list), embeds on a store metered in capacity units (an
//! UpdateItem is charged for the whole item, which grows with its list), children written by
//! anything but a PutItem, parents that calls also write or that are not all preloaded (an
//! append to a missing parent is refused), parents not keyed by the picked member alone, and
//! parents with index entries or views (each append would rewrite them).

use crate::engine::model::Action;
use crate::engine::planner::Operation;

use super::super::embed::EmbedPlan;
use super::super::items::{Val, nested_field_size};
use super::super::world::{BornStep, World};
use super::model::{Flow, Model, Units, metered, popularity_of, shares, spread, write_samples};
use super::{FluidError, unsupported};

/// One embed's appends as rates.
#[derive(Debug, Clone)]
pub struct EmbedFlow {
    /// The appends' write flow (`Model::flows`) and the parents' key group.
    pub flow: usize,
    pub group: usize,
    /// Bytes the list field adds to a parent holding `k` children, for `k` in `0..=keep` (the
    /// last: a full list, which the subset pattern keeps).
    pub list: Vec<f64>,
}

impl EmbedFlow {
    /// For a parent of preloaded document `doc` bytes that gets `calls` of the flow's calls
    /// with the chance `chance` each of picking it and landing: the bytes its list adds, and
    /// the bytes of the new versions of its document its appends build, in expectation over
    /// its Binomial count of landed appends.
    pub fn expected(&self, calls: f64, chance: f64, doc: f64) -> (f64, f64) {
        let keep = self.list.len() - 1;
        let full = self.list[keep];
        let below = binomial_head(calls, chance.clamp(0.0, 1.0), keep);
        // P(K ≥ j) for j = 1..=keep, from the head of the distribution.
        let mut at_least = 1.0;
        let (mut grown, mut versions, mut counted) = (0.0, 0.0, 0.0);
        for (k, p) in below.iter().enumerate() {
            grown += p * self.list[k];
            at_least -= p;
            // The (k + 1)th append, which lands when K > k, leaves k + 1 children.
            versions += at_least * (doc + self.list[k + 1]);
            counted += at_least;
        }
        grown += at_least * full;
        // Every append past the keep-th leaves a full list: E[K] in all, less those above.
        let mean = calls * chance.clamp(0.0, 1.0);
        versions += (mean - counted).max(0.0) * (doc + full);
        (grown, versions)
    }
}

/// An embed's appends to one group's parents, and their flow's place among the group's write
/// flows (`replay`'s order).
#[derive(Debug, Clone, Copy)]
pub struct Appends<'m> {
    embed: &'m EmbedFlow,
    at: usize,
}

impl Appends<'_> {
    /// A parent's list and its appends' new versions ([`EmbedFlow::expected`]), from its shares
    /// of the write flows' `totals` calls, its landed share `landed` and its preloaded items and
    /// bytes.
    pub fn of(&self, shares: &[f64], totals: &[f64], landed: f64, (items, bytes): (f64, f64)) -> (f64, f64) {
        self.embed.expected(totals[self.at], shares[self.at] * landed, bytes / items.max(1.0))
    }
}

/// `P(K = k)` for `k < keep` of `K ~ Binomial(n, p)`; `n` is a count of calls. Stepped in
/// logs: `(1 − p)ⁿ` alone underflows to 0 once `n·p` passes ~745, where the head's later terms
/// are still far from 0.
fn binomial_head(n: f64, p: f64, keep: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(keep);
    if p >= 1.0 {
        out.extend((0..keep).map(|k| if (k as f64 - n).abs() < 0.5 { 1.0 } else { 0.0 }));
        return out;
    }
    let odds = p.ln() - (-p).ln_1p();
    let mut ln_pk = n * (-p).ln_1p();
    for k in 0..keep {
        out.push(ln_pk.exp());
        let k = k as f64;
        ln_pk = if n - k > 0.0 { ln_pk + (n - k).ln() - (k + 1.0).ln() + odds } else { f64::NEG_INFINITY };
    }
    out
}

impl Model {
    /// Whether flow `f` is a side write of its pattern's calls: an aggregate's update or an
    /// embed's append (one more request a call, counted in write amplification).
    pub fn side_write(&self, f: usize) -> bool {
        self.aggregate_flows.contains(&f) || self.embeds.iter().any(|e| e.flow == f)
    }

    /// The appends onto group `g`'s parents, if any: `write_flows` are the group's.
    pub fn appends_to(&self, g: usize, write_flows: &[usize]) -> Option<Appends<'_>> {
        let embed = self.embeds.iter().find(|e| e.group == g)?;
        let at = write_flows.iter().position(|&f| f == embed.flow)?;
        Some(Appends { embed, at })
    }

    /// The appends of every embed: one write flow per pattern that puts the child.
    pub fn add_embeds(
        &mut self,
        world: &World,
        plans: &[EmbedPlan],
        (seed, start_secs): (u64, i64),
    ) -> Result<(), FluidError> {
        for plan in plans {
            for (p, pattern) in world.patterns.iter().enumerate() {
                if pattern.entity == plan.child && pattern.action == Action::Put {
                    self.add_embed(world, p, plan, (seed, start_secs))?;
                }
            }
        }
        Ok(())
    }

    fn add_embed(
        &mut self,
        world: &World,
        p: usize,
        plan: &EmbedPlan,
        (seed, start_secs): (u64, i64),
    ) -> Result<(), FluidError> {
        let pattern = &world.patterns[p];
        let (child, parent) = (&world.entities[plan.child], &world.entities[plan.parent]);
        let place = format!(
            "pattern {}, {} embedded in {}.{}",
            pattern.name, child.name, parent.name, parent.attrs[plan.list_attr].name
        );
        let Some(keep) = plan.keep.filter(|&n| n > 0) else {
            return Err(unsupported(
                "embedded lists kept whole (a parent document that grows with every child, and a multikey index of its list's distinct values)",
                &place,
            ));
        };
        if metered(world) {
            return Err(unsupported(
                "embedded lists on a store metered in capacity units (an UpdateItem is charged for the whole item, which grows with its list)",
                &place,
            ));
        }
        let writes = |e: usize| world.patterns.iter().filter(move |q| q.entity == e && !q.action.is_read());
        if writes(plan.child).any(|q| q.action != Action::Put || q.operation != Some(Operation::PutItem)) {
            return Err(unsupported("embedded children written by other than a PutItem", &place));
        }
        if writes(plan.parent).next().is_some() {
            return Err(unsupported(
                "embedded lists of parents calls also write (the document holds what wrote it last)",
                &place,
            ));
        }
        if parent.entries.iter().any(Option::is_some) {
            return Err(unsupported(
                "embedded lists of parents with index entries or views (each append rewrites them)",
                &place,
            ));
        }
        let Some(g) = self.groups.iter().position(|k| k.entity == plan.parent && !k.index) else {
            return Err(unsupported("embedded lists of an entity the fluid replay does not keep", &place));
        };
        let group = &self.groups[g];
        let one_item = !group.sort.per_second && group.sort.collide >= 1.0;
        let keyed = group
            .member
            .filter(|_| one_item && group.shards.is_none() && group.time.is_none() && group.axes.is_empty());
        let Some((member, pop)) = keyed else {
            return Err(unsupported(
                "embedded lists of parents not keyed by one member alone (a sort key that varies, a shard or a time slot)",
                &place,
            ));
        };
        // The child names its parent by a member of the parent's population, given or picked.
        let picked = pattern.givens.contains(&plan.by_attr)
            || pattern.born.iter().any(|&(i, step)| i == plan.by_attr && step == BornStep::Member(pop));
        let preloaded = parent.identity.is_some_and(|(attr, q)| {
            attr == member && q == pop && world.pops[q].initial >= world.pops[q].size
        });
        if !picked || !preloaded {
            return Err(unsupported(
                "embedded lists of parents not all preloaded, or not named by the put's pick of one (an append to a missing parent is refused)",
                &place,
            ));
        }
        let base = shares(world, popularity_of(world, pattern, plan.by_attr, pop), pop, seed, &place)?;
        let shares = group.spread(base, false, &place)?;
        let (elements, largest) = element_sizes(world, p, plan, (seed, start_secs));
        let list = list_bytes(world, plan, elements, keep);
        let preload = &self.preload[g];
        let docs = preload.values().map(|d| d.bytes / d.items.max(1.0));
        let mean_doc = docs.clone().sum::<f64>() / preload.len().max(1) as f64;
        let largest_doc = docs.fold(0.0, f64::max);
        self.largest = self.largest.max(largest_doc + list_bytes(world, plan, largest, keep)[keep as usize]);
        // Appends change the item a key holds, on purpose: not overwrites.
        self.groups[g].upsert = true;
        self.embeds.push(EmbedFlow { flow: self.flows.len(), group: g, list });
        self.flows.push(Flow {
            pattern: p,
            group: g,
            write: true,
            shares,
            span_secs: None,
            bytes: mean_doc,
            units: Units::Each(0.0),
        });
        Ok(())
    }
}

/// The mean and the largest bytes one child takes as an element of its parent's list, over the
/// put's sampled items: its attributes but the one naming the parent, as `sim::embed` sizes it.
fn element_sizes(world: &World, p: usize, plan: &EmbedPlan, (seed, start_secs): (u64, i64)) -> (f64, f64) {
    let (_, samples) = write_samples(world, &world.patterns[p], seed, start_secs);
    let sizing = world.engine.profile().sizing;
    let attrs = &world.entities[plan.child].attrs;
    let sizes: Vec<usize> = samples
        .iter()
        .map(|vals| {
            let fields = attrs
                .iter()
                .zip(vals)
                .enumerate()
                .filter(|&(i, (_, v))| i != plan.by_attr && !matches!(v, Val::Absent | Val::List(..)))
                .map(|(_, (a, &v))| nested_field_size(sizing, a, v, &world.pops))
                .sum();
            sizing.list_element(fields)
        })
        .collect();
    let (mean, largest, _) = spread(&sizes);
    (mean, largest)
}

/// Bytes the list field adds to its parent holding `k` children of `element` bytes each, for
/// `k` in `0..=keep`: none without a child (the field is absent until the first append), else
/// the field's name, an empty list, the elements and their names (`profile::Sizing`).
fn list_bytes(world: &World, plan: &EmbedPlan, element: f64, keep: u32) -> Vec<f64> {
    let sizing = world.engine.profile().sizing;
    let name = world.entities[plan.parent].attrs[plan.list_attr].name.len();
    (0..=keep as usize)
        .map(|k| {
            if k == 0 {
                return 0.0;
            }
            let value = sizing.empty_list() as f64 + k as f64 * element + sizing.list_names(k) as f64;
            // A field's bytes are its name's and its value's: whole bytes here, the element's
            // mean fraction added back.
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "sizes in bytes")]
            let whole = value.floor() as usize;
            sizing.field(name, whole) as f64 + (value - value.floor())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of 3 that grows by 100 bytes a child after a 10-byte field.
    fn flow() -> EmbedFlow {
        EmbedFlow { flow: 0, group: 0, list: vec![0.0, 110.0, 210.0, 310.0] }
    }

    /// Against the sums over the Binomial's whole distribution, term by term.
    #[test]
    fn a_parents_list_and_versions_are_expectations_over_its_count_of_appends() {
        let pmf = |n: u32, p: f64, k: u32| {
            let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
            choose * p.powf(f64::from(k)) * (1.0 - p).powf(f64::from(n - k))
        };
        let doc = 700.0;
        let f = flow();
        for (n, p) in [(0u32, 0.5), (1, 0.5), (2, 0.3), (5, 0.2), (20, 0.1), (40, 0.9), (3, 1.0)] {
            let (mut grown, mut versions) = (0.0, 0.0);
            for k in 0..=n {
                let pk = if p >= 1.0 { f64::from(u8::from(k == n)) } else { pmf(n, p, k) };
                let list = |j: u32| f.list[usize::try_from(j).unwrap_or(usize::MAX).min(3)];
                grown += pk * list(k);
                versions += pk * (1..=k).map(|j| doc + list(j)).sum::<f64>();
            }
            let (g, v) = f.expected(f64::from(n), p, doc);
            assert!((g - grown).abs() < 1e-9, "n {n} p {p}: list {g} vs {grown}");
            assert!((v - versions).abs() < 1e-6, "n {n} p {p}: versions {v} vs {versions}");
        }
    }

    /// A head far from 0 where `(1 − p)ⁿ` alone underflows: 100,000 calls at 1%, the mean
    /// 1,000, the head below it about half the law (against the normal's tail).
    #[test]
    fn a_binomial_head_holds_past_the_underflow_of_its_first_term() {
        // (n, p, keep, P(K < keep) by the normal with a continuity correction)
        let cases =
            [(100_000.0, 0.01, 1_000, 0.4937), (100_000.0, 0.01, 1_100, 0.9992), (10.0, 0.5, 3, 0.0547)];
        for (n, p, keep, want) in cases {
            let head: f64 = binomial_head(n, p, keep).iter().sum();
            assert!((head - want).abs() < 0.01, "n {n} p {p} keep {keep}: {head} against {want}");
        }
    }

    /// A parent picked many times holds a full list for certain; one never picked, none.
    #[test]
    fn a_list_fills_to_what_it_keeps() {
        let f = flow();
        assert_eq!(f.expected(0.0, 0.3, 700.0), (0.0, 0.0));
        let (grown, versions) = f.expected(10_000.0, 0.5, 700.0);
        assert!((grown - 310.0).abs() < 1e-9);
        // 5,000 appends, all but the first two leave a full list.
        assert!((versions - (5_000.0 * 1_010.0 - 200.0 - 100.0)).abs() < 1e-6, "{versions}");
    }
}
