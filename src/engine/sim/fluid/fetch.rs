//! The fetch from the table after a Query of an index that lacks what the read returns
//! (`world::Fetch::Table`; practice-sessions `recommended`'s devices page, whose index of
//! sessions by user projects only the device and the creation time): per operation the
//! application sends one BatchGetItem of every item the Query returned (`exec::read`'s
//! `fetch_from_table`), each key rounded to 4 KB on its own, eventually consistent, at most
//! 100 keys a request, metered on the table's partitions holding the items.
//!
//! As rates, the fetch is one more read flow of the pattern, onto the table's key group, in
//! the units of one item's point read: a call fetches every item whose entry its Query
//! returned, so an item's share of the fetches is its index partition's share of the Query's
//! calls. Modelled only where the table's items are a population grown by puts of new
//! identities (`model::Growth`), one partition each: a preloaded item's share is that of the
//! index member its born values give it; an item a put made has the expected share of a
//! member its put picked (Σ over the members of the put's share × the Query's share), being
//! fetched when its member is picked. Items made during the tick count at half their share, as
//! the Query, asked at the tick's middle, counts half the tick's entries. Requests are the
//! calls whose Query returns an item (one BatchGetItem each): a member holding a preloaded
//! entry always returns one; another returns one once a put picked it before the call
//! (Poisson). Figures are expected values.
//!
//! Refused by name: a fetch after a Query of an index keyed by more than one member, a range
//! of part of the partition or a limit (the items fetched are then not the partition's), a
//! table not grown by puts of new identities, items in different read units, and a partition
//! that may hold more entries than one BatchGetItem takes (100) or one Query page: the expected
//! entries at the run's end plus six standard deviations of the puts' Poisson count, so that a
//! call needing a second request or page is beyond chance. At run time a fetching pattern
//! throttled anywhere is refused (`Replay::no_batch_refused`): per operation a throttled Query
//! retried later fetches nothing, and a batch is refused whole, neither of which rates follow.

use std::rc::Rc;

use crate::engine::model::RangeSpan;
use crate::engine::store::PAGE_BYTES;

use super::super::items::Val;
use super::super::regen::entry_bytes;
use super::super::world::{Fetch, World};
use super::model::{Flow, Model, Shares, Units, entry_plan, metered, preloaded_item};
use super::{FluidError, unsupported};

/// Standard deviations of a partition's Poisson count of new entries past its mean that must
/// still fit one BatchGetItem and one page (a bound that chance does not cross: ~10⁻⁹).
const TAIL_SIGMAS: f64 = 6.0;

/// A fetch from the table after a Query of an index, as rates.
#[derive(Debug, Clone)]
pub struct FetchFlow {
    /// The fetch's flow onto the table's group.
    pub flow: usize,
    /// Per preloaded item (its ordinal), its share of the fetches: its entry's member's share
    /// of the Query's calls (0 for an item without an entry).
    pub preloaded: Rc<[f64]>,
    /// An item a put made: its expected share (Σ put's share × Query's share over members).
    pub grown: f64,
    /// The Query's share of the members that hold a preloaded entry (each call of theirs
    /// returns an item), and (Query's share, put's share) of each member that holds none.
    pub loaded: f64,
    pub unloaded: Vec<(f64, f64)>,
}

impl FetchFlow {
    /// The fetch's shares of the table's members in a tick: the preloaded items', then the
    /// `made` items made before the tick, then half the share of each of the tick's `now`.
    pub fn shares(&self, first: u64, made: u64, now: u64) -> Rc<[f64]> {
        let grown = usize::try_from(made).unwrap_or(usize::MAX);
        let now = usize::try_from(now).unwrap_or(usize::MAX);
        let mut out = Vec::with_capacity(self.preloaded.len() + grown + now);
        out.extend_from_slice(&self.preloaded);
        out.resize(usize::try_from(first).unwrap_or(usize::MAX), 0.0);
        out.extend(std::iter::repeat_n(self.grown, grown));
        out.extend(std::iter::repeat_n(self.grown / 2.0, now));
        out.into()
    }

    /// The chance a call whose Query is asked after `puts` puts returns an item (and so
    /// sends its one BatchGetItem).
    pub fn returns_any(&self, puts: f64) -> f64 {
        self.loaded + self.unloaded.iter().map(|&(q, p)| q * -(-puts * p).exp_m1()).sum::<f64>()
    }
}

impl Model {
    /// The fetch flows of the reads of an index followed by a fetch from the table, once
    /// every pattern's flows and the preload are known (`puts`: each pattern's calls over the
    /// run). Refuses what it does not model, by name.
    pub(super) fn add_fetches(
        &mut self,
        world: &World,
        (seed, start_secs): (u64, i64),
        puts: &[u64],
    ) -> Result<(), FluidError> {
        let fetching = |f: &Flow| {
            !f.write && world.patterns[f.pattern].read.as_ref().is_some_and(|r| r.fetch == Fetch::Table)
        };
        let queries: Vec<usize> = (0..self.flows.len()).filter(|&f| fetching(&self.flows[f])).collect();
        for q in queries {
            let fetch = self.fetch_of(world, q, (seed, start_secs), puts)?;
            if let Some(growth) = self.growth.as_mut() {
                growth.flows.push(fetch.flow);
            }
            self.fetches.push(fetch);
        }
        Ok(())
    }

    fn fetch_of(
        &mut self,
        world: &World,
        q: usize,
        (seed, start_secs): (u64, i64),
        puts: &[u64],
    ) -> Result<FetchFlow, FluidError> {
        let query = &self.flows[q];
        let pattern = &world.patterns[query.pattern];
        let place = format!("pattern {}", pattern.name);
        let refuse = |what: &str| {
            Err(unsupported(
                &format!("a Query of an index followed by a fetch from the table, {what}"),
                &place,
            ))
        };
        if !metered(world) {
            return refuse("on a store that meters no capacity");
        }
        let read = pattern.read.as_ref().expect("a read flow has a plan");
        let whole = matches!(read.range, None | Some((_, RangeSpan::All)));
        if read.limit.is_some() || !whole || query.span_secs.is_some() {
            return refuse("of part of the partition (a range or a limit)");
        }
        let index = &self.groups[query.group];
        let Some(growth) = self.growth.as_ref().filter(|g| self.groups[g.group].entity == index.entity)
        else {
            return refuse("of items other than those puts of new identities make");
        };
        let (Some((attr, _)), true) =
            (index.member, index.axes.is_empty() && index.shards.is_none() && index.time.is_none())
        else {
            return refuse("of an index keyed by more than one member");
        };
        let Shares::Each(query_shares) = &query.shares else {
            return refuse("of an index whose partitions a Query picks otherwise than by shares");
        };
        let put = self.flows.iter().find(|f| f.write && f.group == query.group && f.pattern == growth.put);
        let Some(Shares::Each(put_shares)) = put.map(|f| &f.shares) else {
            return refuse("of an index whose entries its put writes otherwise than by shares");
        };
        let entry = put.map_or(0.0, |f| f.bytes);
        let metering = world.engine.profile().metering;
        #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a size in bytes")]
        let (most, least) = (
            metering.point_read(self.largest.ceil() as u64, false),
            metering.point_read(self.smallest.min(self.largest).floor() as u64, false),
        );
        if (most - least).abs() > 1e-9 {
            return refuse("of items in different read units");
        }
        // The entries a member's partition may hold by the run's end.
        let batch = world.engine.profile().batch_get_keys.unwrap_or(1) as f64;
        let made = puts.get(growth.put).copied().unwrap_or(0) as f64;
        let preload = &self.preload[query.group];
        let held = |m: usize| preload.get(&(m as u64)).map_or(0.0, |p| p.items);
        let most_entries = (0..put_shares.len().max(query_shares.len()))
            .filter(|&m| query_shares.get(m).is_some_and(|&s| s > 0.0))
            .map(|m| {
                let new = made * put_shares.get(m).copied().unwrap_or(0.0);
                held(m) + new + TAIL_SIGMAS * new.sqrt()
            })
            .fold(0.0, f64::max);
        if most_entries > batch {
            return refuse(&format!(
                "of a partition that may hold more items than one BatchGetItem takes ({batch})"
            ));
        }
        if most_entries * entry > PAGE_BYTES as f64 {
            return refuse("of a partition that may hold more than one Query page (1 MB)");
        }
        // Each preloaded item's share: its entry's member's.
        let e = index.entity;
        let Some((i, _)) = entry_plan(world, index) else { return refuse("of a local index") };
        let ent = &world.entities[e];
        let (mut vals, mut text) = (vec![Val::Absent; ent.attrs.len()], String::new());
        let preloaded: Rc<[f64]> = (0..growth.first)
            .map(|ordinal| {
                let size = preloaded_item(world, e, ordinal, (seed, start_secs), &mut vals, &mut text);
                match vals[attr] {
                    Val::Member(m) if entry_bytes(world, e, i, &vals, size, &mut text).is_some() => {
                        query_shares.get(usize::try_from(m).unwrap_or(usize::MAX)).copied().unwrap_or(0.0)
                    }
                    _ => 0.0,
                }
            })
            .collect();
        let grown = query_shares.iter().zip(put_shares.iter()).map(|(q, p)| q * p).sum();
        let (mut loaded, mut unloaded) = (0.0, Vec::new());
        for (m, &share) in query_shares.iter().enumerate().filter(|(_, s)| **s > 0.0) {
            if held(m) > 0.0 {
                loaded += share;
            } else {
                unloaded.push((share, put_shares.get(m).copied().unwrap_or(0.0)));
            }
        }
        let (pattern, table) = (query.pattern, growth.group);
        let fetch = FetchFlow { flow: self.flows.len(), preloaded, grown, loaded, unloaded };
        self.flows.push(Flow {
            pattern,
            group: table,
            write: false,
            shares: Shares::Each(fetch.shares(growth.first, 0, 0)),
            span_secs: None,
            bytes: 0.0,
            units: Units::Each(most),
        });
        Ok(fetch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(preloaded: &[f64], grown: f64, loaded: f64, unloaded: Vec<(f64, f64)>) -> FetchFlow {
        FetchFlow { flow: 0, preloaded: preloaded.into(), grown, loaded, unloaded }
    }

    /// A tick's shares: the preloaded items', the items made before the tick at the grown
    /// share, the tick's own at half of it.
    #[test]
    fn shares_follow_the_items_made_so_far() {
        let cases: [(u64, u64, &[f64]); 3] =
            [(0, 0, &[0.25, 0.0]), (2, 0, &[0.25, 0.0, 0.1, 0.1]), (1, 2, &[0.25, 0.0, 0.1, 0.05, 0.05])];
        let fetch = flow(&[0.25, 0.0], 0.1, 0.0, Vec::new());
        for (made, now, want) in cases {
            assert_eq!(&*fetch.shares(2, made, now), want, "made {made}, now {now}");
        }
    }

    /// A call returns an item when its member holds a preloaded entry, or once a put picked it.
    #[test]
    fn a_call_returns_an_item_once_its_member_holds_one() {
        let fetch = flow(&[], 0.0, 0.5, vec![(0.25, 0.5), (0.25, 0.0)]);
        let cases = [(0.0, 0.5), (2.0, 0.5 + 0.25 * (1.0 - (-1.0f64).exp())), (1e9, 0.75)];
        for (puts, want) in cases {
            assert!((fetch.returns_any(puts) - want).abs() < 1e-12, "{puts} puts");
        }
    }
}
