//! A query on the first levels of a hierarchical partition key (Cosmos DB): routed to the
//! physical partitions that hold the prefix's placements (`cosmos::prefix_range`,
//! `cosmos::partitions_holding`), one request to each, which reads the logical partitions under
//! the prefix that partition holds. Each request is charged as one query page there (the
//! profile's page: a base per partition visited and the KB it loads) and metered on that
//! partition's budget alone; a refused one is retried by itself, as a fan-out's Query is.
//!
//! keyheat reads a partition's logical partitions one after another, each in sort key order,
//! until the request's limit: the items a merged `ORDER BY` would read are as many, but across
//! logical partitions they are not the same ones (keyheat's simplification).

use super::{Limits, Read, ReadCall};
use crate::engine::hash::hash_bytes;
use crate::engine::planner::Operation;
use crate::engine::profile::cosmos::{self, LEVEL_SEPARATOR};
use crate::engine::sim::Simulation;
use crate::engine::sim::exec::{Call, Items, Resume};
use crate::engine::sim::items::Val;
use crate::engine::sim::latency;
use crate::engine::sim::meter::{Meter, READ};
use crate::engine::sim::table::PartKey;
use crate::engine::sim::templates::render_slot;
use crate::engine::sim::world::{PrefixPlan, ReadPlan};

impl Simulation {
    /// Every request of one call of a prefix read: one per physical partition holding the
    /// prefix (a retry: the one refused).
    pub(super) fn prefix_query(
        &mut self,
        call: Call,
        plan: &ReadPlan,
        known: &[Val],
        resume: Option<&Resume>,
        prefix: PrefixPlan,
    ) {
        let read = ReadCall { call, plan, known, resume };
        let Some(text) = self.prefix_text(plan, known, prefix.given) else {
            self.figures.totals.unserved_calls += 1;
            return;
        };
        let range = self.sort_range(plan, known, call.time_ms);
        // As a Query's.
        let Limits { request: request_limit, call: limit, want } = Limits::of(plan);
        let starts = self.storage.groups[plan.group].meter.as_ref().map_or_else(|| vec![0], Meter::starts);
        let placed = cosmos::prefix_range(text.as_bytes(), prefix.levels, prefix.given, hash_bytes);
        let visited = cosmos::partitions_holding(&starts, placed);
        let mut under = text.into_bytes();
        under.push(LEVEL_SEPARATOR as u8);
        let ledger = self.ledger(plan.group);
        let logical: Vec<PartKey> = ledger
            .partitions_in(placed, &under)
            .into_iter()
            .map(|p| {
                let part = ledger.partition(p);
                PartKey { key_type: part.key_type, text: ledger.key_of(p).to_vec(), hash: part.hash }
            })
            .collect();
        if resume.is_none() {
            self.figures.stats[call.pattern].fanout += visited.clone().count() as u64;
        }
        // What the call returned before this retry (`Retries::answered`).
        let answered = (call.pattern, call.index);
        let earlier = match resume {
            Some(_) => self.retries.answered.get(&answered).and_then(|a| a.first()).copied().unwrap_or(0),
            None => 0,
        };
        let mut times = Vec::new();
        let mut returned = 0u64;
        for (request, i) in (0u32..).zip(visited) {
            if resume.is_some_and(|r| r.request != request) {
                continue;
            }
            // The partition's share of the prefix's placements, and the logical partitions there.
            let first = starts[i].max(placed.0);
            let last = starts.get(i + 1).map_or(u64::MAX, |next| next - 1).min(placed.1);
            let keys: Vec<&PartKey> = logical.iter().filter(|k| (first..=last).contains(&k.hash)).collect();
            let limits = (request_limit, want - returned.min(want));
            match self.prefix_request(read, (request, first), &keys, &range, limits, &times) {
                Some(served) => {
                    returned += served.matched;
                    times.push(served.ms);
                }
                None => times.push(f64::NAN),
            }
        }
        let counted = (earlier + returned).min(limit) - earlier.min(limit);
        self.read_items(call.pattern, Items { read: 0, returned: counted });
        if resume.is_some() || self.retries.running.queued > 0 {
            let parts = self.retries.answered.entry(answered).or_default();
            if parts.is_empty() {
                parts.push(0);
            }
            parts[0] = earlier + returned;
        }
        self.finish_read(call, resume, &times);
    }

    /// The text of the key's first `given` levels a call computes: its slots rendered up to the
    /// separator that ends the last level given. `None` when a slot before it has no value.
    fn prefix_text(&self, plan: &ReadPlan, known: &[Val], given: usize) -> Option<String> {
        let ent = &self.world.entities[plan.entities[0]];
        let mut text = String::new();
        for slot in &plan.pk.slots {
            if !render_slot(slot, &ent.attrs, known, &self.world.pops, &mut text) {
                return None;
            }
            if let Some((end, _)) = text.match_indices(LEVEL_SEPARATOR).nth(given.checked_sub(1)?) {
                text.truncate(end);
                return Some(text);
            }
        }
        None
    }

    /// One request of a prefix read, to the physical partition holding placement `at.1`: the
    /// logical partitions `keys` it holds under the prefix, read until the limit, charged as one
    /// page and metered there. What it read, or `None` when the partition refused it (its retry
    /// is queued).
    fn prefix_request(
        &mut self,
        read: ReadCall<'_>,
        (request, at): (u32, u64),
        keys: &[&PartKey],
        range: &super::Range,
        limits: (usize, u64),
        times: &[f64],
    ) -> Option<Read> {
        let ReadCall { call, plan, known, resume } = read;
        let (mut left, mut wanted) = limits;
        let mut served = Read::default();
        let mut bytes = Vec::with_capacity(keys.len());
        for pk in keys {
            if left == 0 || wanted == 0 {
                break;
            }
            let one = self.query_partition(plan, known, pk, range, call.time_ms, (left, wanted));
            left = left.saturating_sub(usize::try_from(one.items).unwrap_or(usize::MAX));
            wanted -= one.matched.min(wanted);
            served.items += one.items;
            served.matched += one.matched;
            served.bytes += one.bytes;
            bytes.push(one.bytes);
        }
        let profile = self.world.engine.profile();
        served.units = profile.metering.page(served.bytes);
        served.ms = latency::page_ms(profile.latency, Operation::Query, served.items, served.bytes);
        served.pages = 1;
        if resume.is_none() {
            let stats = &mut self.figures.stats[call.pattern];
            stats.requests += 1;
            stats.pages += 1;
            self.figures.totals.requests += 1;
        }
        if profile.metered()
            && let Err(refusal) = self.meter_read(plan.group, &[(at, served.units)])
        {
            self.refused(plan.group, refusal, keys.iter().copied(), resume.is_none());
            self.read_refused(call, resume, request, served.ms, !times.iter().any(|t: &f64| t.is_nan()));
            return None;
        }
        if self.observing() {
            let limit = u32::try_from(limits.0).ok();
            for pk in keys.iter().take(bytes.len()) {
                self.tell_query(&read.observed(), pk, limit, &[]);
            }
        }
        self.spend(call, READ, served.units);
        // The page's units fall on the logical partitions it read, by the bytes each gave.
        for (pk, &b) in keys.iter().zip(&bytes) {
            let share = if served.bytes == 0 { 0.0 } else { served.units * b as f64 / served.bytes as f64 };
            self.read_load(plan.group, pk, share, b);
        }
        self.read_items(call.pattern, Items { read: served.items, returned: 0 });
        let stats = &mut self.figures.stats[call.pattern];
        stats.partitions_touched += bytes.len() as u64;
        stats.span.partitions += bytes.len() as f64;
        Some(served)
    }
}
