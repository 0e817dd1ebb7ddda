//! The fluid replay's figures as a [`RunReport`], the same shape the per-operation replay fills:
//! sums as expected values, the largest partition and every peak as the median of its
//! maximum, with the band in `RunReport::bands`.

use std::collections::BTreeMap;

use crate::engine::planner::{Kind, Operation};
use crate::engine::profile::{Indexes, Latency};

use super::super::RING_NODES;
use super::super::meter::{READ, WRITE};
use super::super::report::{
    Bands, CacheReport, Fidelity, GroupBands, IndexReport, IndexType, Operations, PartitionReport,
    Partitions, PatternReport, RunReport, Totals,
};
use super::super::reporting::{documents_report, sort_partitions, top_rows};
use super::capacity::{Capacity, Figures};
use super::extremes::{Band, Counted, Draws, Mixed, Sizes, TooManyAtoms};
use super::model::{Shares, Units, batched, key_text};
use super::replay::{Part, Replay};
use super::{FluidError, unsupported};

/// Members whose peaks are weighed one by one, the most popular first; the rest are weighed in
/// bins of members whose shares are within `SHARE_BIN` of each other.
const PEAK_MEMBERS: usize = 4096;
/// The relative width of a bin of shares past `PEAK_MEMBERS`.
const SHARE_BIN: f64 = 0.01;
/// The top list of one table's or index's partitions, chosen as the per-operation replay
/// chooses it (`top_rows`): the largest and the hottest.
fn chosen(mut rows: Vec<PartitionReport>) -> Vec<PartitionReport> {
    let keys = top_rows(
        &mut rows,
        |r| [r.bytes as f64, r.peak_wcu_per_s, r.peak_rcu_per_s, r.throttled_ops as f64],
        |r| r.key.clone(),
    );
    rows.retain(|r| keys.contains(&r.key));
    rows
}

/// What group `g`'s peak in one direction weighs alike for every member: its flows, their lanes
/// and whether those pick with unequal shares (each a comparison of whole share lists), and a
/// Query's mean units (a pass over its members). `top` makes it once for all the partitions it
/// keeps, not once per partition: a short run may keep most partitions (its largest does not
/// yet stand out), and those passes, member count times kept count, outweighed the replay.
struct Weighing {
    flows: Vec<usize>,
    /// `Replay::lanes` of `flows`.
    lanes: Vec<usize>,
    /// `Replay::unequal_shares` of `flows` and `lanes`.
    unequal: bool,
    /// Per flow of `flows`, a Query's units per request where no one member is weighed: the
    /// mean of its members' most; empty where the group is not metered.
    mean_most: Vec<f64>,
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a rounded expected count")]
fn whole(x: f64) -> u64 {
    x.round().max(0.0) as u64
}

/// What the groups add up to, while the report is made.
#[derive(Debug)]
struct Gathered {
    partitions: Partitions,
    indexes: Vec<IndexReport>,
    bands: Bands,
    items: f64,
    bytes: f64,
    overwritten: f64,
    base_writes: f64,
    entry_writes: f64,
    /// Aggregates' updates.
    side_writes: f64,
    preload_overwritten: u64,
    /// The tables' writes onto a key holding an item, and the bytes of the items they left.
    rewrites: f64,
    rewritten_bytes: f64,
}

fn empty_partitions() -> Partitions {
    Partitions {
        logical: 0,
        physical: 0,
        max_bytes: 0,
        max_items: 0,
        peak_rcu_per_s: 0.0,
        peak_wcu_per_s: 0.0,
        top: Vec::new(),
        index_top: Vec::new(),
        physical_peak_rcu_per_s: 0.0,
        physical_peak_wcu_per_s: 0.0,
        splits: 0,
        splits_for_size: 0,
        splits_for_heat: 0,
        heat_splits_refused: 0,
        nodes: Vec::new(),
    }
}

impl Replay<'_> {
    /// The maximum over ticks and the members in `members` of group `g`'s calls in one tick, in
    /// direction `dim` (0 reads, 1 writes), as a band of counts per tick.
    fn peak(&self, g: usize, dim: usize, members: Option<&[u64]>) -> Result<Band, FluidError> {
        self.weighed_peak(&self.weighing(g, dim), g, dim, members)
    }

    /// Group `g`'s [`Weighing`] in direction `dim`.
    fn weighing(&self, g: usize, dim: usize) -> Weighing {
        let flows = self.groups[g].peak_flows[dim].clone();
        let lanes = self.lanes(&flows);
        let unequal = self.unequal_shares(&flows, &lanes);
        let mean_most = self.capacity_of(g).map_or_else(Vec::new, |capacity| {
            flows
                .iter()
                .map(|&f| {
                    let used: Vec<f64> =
                        capacity.most_units[f].iter().copied().filter(|&u| u > 0.0).collect();
                    if used.is_empty() { 0.0 } else { used.iter().sum::<f64>() / used.len() as f64 }
                })
                .collect()
        });
        Weighing { flows, lanes, unequal, mean_most }
    }

    /// [`Replay::peak`] with its [`Weighing`] made.
    fn weighed_peak(
        &self,
        weighing: &Weighing,
        g: usize,
        dim: usize,
        members: Option<&[u64]>,
    ) -> Result<Band, FluidError> {
        let state = &self.groups[g];
        let flows = &weighing.flows;
        if flows.is_empty() {
            return Ok(Band::default());
        }
        if self.model.growth.as_ref().is_some_and(|growth| growth.moves(g)) {
            return Ok(self.grown_peak(g, dim, members));
        }
        let hist = &state.peaks[dim];
        let group = &self.model.groups[g];
        if flows.iter().any(|&f| matches!(self.model.flows[f].shares, Shares::Seq(_))) {
            let [f] = flows[..] else {
                let place = format!("key of {}", self.world.group_name(group.group));
                return Err(unsupported("Seq picks beside other patterns on one key", &place));
            };
            let Shares::Seq(n) = self.model.flows[f].shares else { unreachable!("matched above") };
            // Call k takes member k mod n: a tick's busiest member gets ⌈calls / n⌉, exactly.
            let most = hist.keys().map(|v| v[0].div_ceil(n)).max().unwrap_or(0);
            if let Some(capacity) = self.capacity_of(g) {
                let units = match self.model.flows[f].units {
                    Units::Each(u) => u,
                    Units::Query { .. } => capacity.most_units[f].iter().copied().fold(0.0, f64::max),
                };
                return Ok(Band::exact(most as f64 * units));
            }
            return Ok(Band::exact(most as f64));
        }
        let share = |m: u64| -> Vec<f64> {
            let m = usize::try_from(m).unwrap_or(usize::MAX);
            flows.iter().map(|&f| self.model.flows[f].shares.of(m)).collect()
        };
        // (the share of each flow, how many members have it, the member when one)
        let mut weighed: Vec<(Vec<f64>, f64, Option<u64>)> = Vec::new();
        if let Some(list) = members {
            weighed.extend(list.iter().map(|&m| (share(m), 1.0, Some(m))));
        } else {
            let mut all: Vec<(u64, f64)> = (0..group.members).map(|m| (m, share(m).iter().sum())).collect();
            all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            weighed.extend(all.iter().take(PEAK_MEMBERS).map(|&(m, _)| (share(m), 1.0, Some(m))));
            // The rest, by share within 1% of each other: a flat popularity's million members
            // are one bin of a million equal draws, not 4096 of them.
            let mut bins: BTreeMap<i64, (Vec<f64>, f64)> = BTreeMap::new();
            for &(m, total) in all.iter().skip(PEAK_MEMBERS).filter(|(_, total)| *total > 0.0) {
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "a bin number: a share's log in 1% steps"
                )]
                let bin = (total.ln() / SHARE_BIN.ln_1p()).floor() as i64;
                let (sum, n) = bins.entry(bin).or_insert_with(|| (vec![0.0; flows.len()], 0.0));
                for (acc, x) in sum.iter_mut().zip(share(m)) {
                    *acc += x;
                }
                *n += 1.0;
            }
            weighed.extend(bins.into_values().map(|(sum, n)| (sum.iter().map(|x| x / n).collect(), n, None)));
        }
        if let Some(capacity) = self.capacity_of(g) {
            return self.metered_peak(capacity, g, dim, weighing, &weighed);
        }
        let mut draws = Vec::new();
        for (s, members, _) in weighed {
            for (calls, &ticks) in hist {
                let n: u64 = calls.iter().sum();
                let mean: f64 = calls.iter().zip(&s).map(|(&c, &x)| c as f64 * x).sum();
                // Several patterns on one key: a Binomial of their calls with the mean share
                // (the sum of Binomials of unequal shares, matched in mean).
                draws.push(Draws { n, p: ratio(mean, n as f64), times: ticks as f64 * members });
            }
        }
        Ok(self.maxima.binomial(&draws))
    }

    /// [`Replay::peak`] on a metered store: in units (each member's requests times its units per
    /// request), with the ticks in which a busy member's partition throttled weighed at the
    /// share of its demand the partition served (`Capacity::thinned`).
    fn metered_peak(
        &self,
        capacity: &Capacity,
        g: usize,
        dim: usize,
        weighing: &Weighing,
        weighed: &[(Vec<f64>, f64, Option<u64>)],
    ) -> Result<Band, FluidError> {
        let hist = &self.groups[g].peaks[dim];
        let thinned = &capacity.thinned[g][dim];
        let Weighing { flows, lanes, mean_most, .. } = weighing;
        if flows.iter().any(|&f| matches!(self.model.flows[f].units, Units::Query { filter: Some(_), .. })) {
            return self.mixed_peak(capacity, g, dim, weighing, weighed);
        }
        // Patterns picking the key with different shares: a member's requests in a tick are the
        // sum of their Binomials, which one Binomial at their mean share spreads too much where
        // one pattern's share is far above the other's (tenant-files on Cosmos DB: three reads
        // at a mean third put all three on the whale with a chance of 0.037 where it is
        // 0.0005). Each pattern its own lane (`mixed_max`), where the partition never throttled
        // (`mixed_peak` does not weigh the served share of a tick). Where it did, Cosmos DB,
        // whose peak in RU is whole requests', refuses by name; DynamoDB keeps the mean share
        // there, its band wider than the sum's (the throttled ticks' served share is weighed
        // that way only).
        if weighing.unequal {
            let throttled = !thinned.draws.is_empty() || !thinned.excluded.is_empty();
            let request_units = self.world.engine.profile().request_units();
            if !throttled {
                match self.mixed_law(capacity, g, dim, weighing, weighed) {
                    Ok(band) => return Ok(band),
                    // Past the atoms' cap DynamoDB keeps the mean share's Binomial below, as it
                    // did before the sum: its band wider than the sum's, but an answer.
                    Err(_) if !request_units => {}
                    Err(e) => return Err(self.too_many_atoms(g, &e)),
                }
            }
            if request_units {
                let place = format!("key of {}", self.world.group_name(self.model.groups[g].group));
                return Err(unsupported(
                    "a partition two patterns pick with different shares on Cosmos DB while it throttles (the served share of each pattern's requests is not followed)",
                    &place,
                ));
            }
        }
        let units = |s: &[f64], member: Option<u64>| -> f64 {
            let (mut num, mut den) = (0.0, 0.0);
            for (k, &f) in flows.iter().enumerate() {
                let flow = &self.model.flows[f];
                let u = match flow.units {
                    Units::Each(u) => u,
                    Units::Query { .. } => member
                        .and_then(|m| capacity.most_units[f].get(usize::try_from(m).ok()?).copied())
                        .unwrap_or(mean_most[k]),
                };
                // A flow folded into an earlier one adds its units to that one's requests.
                if lanes[k] == k {
                    den += s[k] * self.world.patterns[flow.pattern].rate;
                }
                // At its own share: a lost race's is its call's times the item's chance to lose.
                num += s[k] * self.world.patterns[flow.pattern].rate * u;
            }
            ratio(num, den)
        };
        // Draws by units per request (to 1e-3): each class's maximum in requests, then in units.
        let mut classes: BTreeMap<u64, (f64, Vec<Draws>)> = BTreeMap::new();
        for (s, count, member) in weighed {
            let u = units(s, *member);
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a class key")]
            let key = (u * 1000.0).round() as u64;
            let draws = &mut classes.entry(key).or_insert_with(|| (u, Vec::new())).1;
            for (calls, &ticks) in hist {
                let excluded =
                    member.and_then(|m| thinned.excluded.get(&(m, calls.clone())).copied()).unwrap_or(0);
                let ticks = ticks.saturating_sub(excluded);
                if ticks == 0 {
                    continue;
                }
                let own = |k: &usize| lanes[*k] == *k;
                let n: u64 = (0..calls.len()).filter(own).map(|k| calls[k]).sum();
                let mean: f64 = (0..calls.len()).filter(own).map(|k| calls[k] as f64 * s[k]).sum();
                draws.push(Draws { n, p: ratio(mean, n as f64), times: ticks as f64 * count });
            }
            if let Some(m) = member {
                for (&(_, n, part), &ticks) in thinned.draws.range((*m, 0, 0)..(*m + 1, 0, 0)) {
                    draws.push(Draws { n, p: f64::from_bits(part), times: ticks as f64 });
                }
            }
        }
        Ok(classes
            .into_values()
            .map(|(u, draws)| self.maxima.binomial(&draws).scale(u))
            .reduce(Band::max)
            .unwrap_or_default())
    }

    /// [`Replay::metered_peak`] of a partition a filtered Query reads: such a request reads its
    /// whole range, many times the units of the other reads of its key (practice-search: ~30
    /// read units a channel search against ~1.5 of opening the channel), so a member's load in
    /// a tick is not its requests at their mean units but the sum, pattern by pattern (lane by
    /// lane), of its requests times that pattern's units (`extremes::mixed_max`). A Query's units
    /// are its member's most over the run, as for every Query's peak: the band leans high
    /// where the range grows through the run. Ticks in which the partition throttled (whose
    /// loads are the part it served) are not weighed so: refused.
    fn mixed_peak(
        &self,
        capacity: &Capacity,
        g: usize,
        dim: usize,
        weighing: &Weighing,
        weighed: &[(Vec<f64>, f64, Option<u64>)],
    ) -> Result<Band, FluidError> {
        let thinned = &capacity.thinned[g][dim];
        if !thinned.draws.is_empty() || !thinned.excluded.is_empty() {
            let place = format!("key of {}", self.world.group_name(self.model.groups[g].group));
            return Err(unsupported(
                "the peak of a partition a filtered Query reads while it throttles",
                &place,
            ));
        }
        self.mixed_law(capacity, g, dim, weighing, weighed).map_err(|e| self.too_many_atoms(g, &e))
    }

    /// The maximum [`Replay::mixed_peak`] weighs, lane by lane, over ticks in which the
    /// partition never throttled; [`TooManyAtoms`] where a tick's law passes its caps.
    fn mixed_law(
        &self,
        capacity: &Capacity,
        g: usize,
        dim: usize,
        weighing: &Weighing,
        weighed: &[(Vec<f64>, f64, Option<u64>)],
    ) -> Result<Band, TooManyAtoms> {
        let hist = &self.groups[g].peaks[dim];
        let Weighing { flows, lanes, mean_most, .. } = weighing;
        let mut loads = Vec::new();
        for (s, count, member) in weighed {
            // Each lane's units per request: its flows' units at their shares (a flow folded into
            // an earlier one adds its units to that one's requests).
            let mut lane_units = vec![0.0; flows.len()];
            for (k, &f) in flows.iter().enumerate() {
                let flow = &self.model.flows[f];
                let u = match flow.units {
                    Units::Each(u) => u,
                    Units::Query { .. } => member
                        .and_then(|m| capacity.most_units[f].get(usize::try_from(m).ok()?).copied())
                        .unwrap_or(mean_most[k]),
                };
                let own = s[lanes[k]] * self.world.patterns[self.model.flows[flows[lanes[k]]].pattern].rate;
                lane_units[lanes[k]] += ratio(s[k] * self.world.patterns[flow.pattern].rate * u, own);
            }
            for (calls, &ticks) in hist {
                let lanes_of_tick = (0..calls.len())
                    .filter(|&k| lanes[k] == k)
                    .map(|k| (calls[k], s[k], lane_units[k]))
                    .collect();
                loads.push(Mixed { lanes: lanes_of_tick, times: ticks as f64 * count });
            }
        }
        self.maxima.mixed(&loads)
    }

    /// The refusal of a peak whose law passed its caps (`mixed_law`).
    fn too_many_atoms(&self, g: usize, e: &TooManyAtoms) -> FluidError {
        let place = format!("key of {}", self.world.group_name(self.model.groups[g].group));
        unsupported(
            &format!(
                "the peak of a partition whose patterns' requests (of different units or \
                 shares) make more than {} combinations in a tick ({} at one step)",
                e.cap, e.atoms
            ),
            &place,
        )
    }

    /// Per flow of `flows`, the first of them its requests go with: a flow of the same pattern
    /// whose shares are its own (an aggregate's update of the partition its put wrote: the
    /// same call's pick) is one draw with it, each call bringing both flows' units — not two
    /// independent draws, whose maximum would be less spread; so is a lost race's request with
    /// the call that lost it (`version`: each call its expected share of them). Itself
    /// otherwise.
    fn lanes(&self, flows: &[usize]) -> Vec<usize> {
        (0..flows.len())
            .map(|k| {
                let flow = &self.model.flows[flows[k]];
                if let Some(with) =
                    self.model.lost_with(flows[k]).and_then(|w| flows.iter().position(|&f| f == w))
                {
                    return with;
                }
                (0..k)
                    .find(|&j| {
                        let other = &self.model.flows[flows[j]];
                        other.pattern == flow.pattern && other.shares.same(&flow.shares)
                    })
                    .unwrap_or(k)
            })
            .collect()
    }

    /// Whether the own lanes of `flows` (`lanes`) pick their key with different shares.
    fn unequal_shares(&self, flows: &[usize], lanes: &[usize]) -> bool {
        let mut own = (0..flows.len()).filter(|&k| lanes[k] == k).map(|k| &self.model.flows[flows[k]].shares);
        let Some(first) = own.next() else { return false };
        own.any(|other| !first.same(other))
    }

    fn key_text(&self, g: usize, part: &Part) -> String {
        super::cosmos::label(key_text(self.world, &self.model.groups[g], part.member, part.at_secs))
    }

    /// The group's largest partition: items and bytes, as bands.
    fn largest(&self, g: usize) -> (Band, Band) {
        let kept = &self.groups[g].kept;
        let counts: Vec<Counted> = kept
            .iter()
            .map(|p| Counted {
                base: p.pre,
                mean: (p.items.mean - p.pre).max(0.0),
                var: p.items.sd * p.items.sd,
            })
            .collect();
        let sizes = Sizes::new(&counts);
        (sizes.max(|_| 1.0), sizes.max(|i| kept[i].bytes_per_item))
    }

    /// The partitions group `g` keeps (`Replay::keep`: those that may be its largest), named by
    /// their key, with their members' peaks: the rows the top list is chosen from.
    fn top(
        &self,
        g: usize,
        index: Option<&String>,
        prefix: &str,
    ) -> Result<Vec<PartitionReport>, FluidError> {
        let secs = self.tick_ms as f64 / 1000.0;
        let weighings = [self.weighing(g, 0), self.weighing(g, 1)];
        let mut out = Vec::new();
        for part in &self.groups[g].kept {
            let one = [part.member];
            let attempts = self
                .capacity_of(g)
                .map_or(0, |c| whole(c.attempts_of(&self.model, g, part.member, part.at_secs)));
            out.push(PartitionReport {
                key: format!("{prefix}{}", self.key_text(g, part)),
                index: index.cloned(),
                bytes: whole(part.items.mean * part.bytes_per_item),
                items: whole(part.items.mean),
                peak_rcu_per_s: self.weighed_peak(&weighings[0], g, 0, Some(&one))?.median / secs,
                peak_wcu_per_s: self.weighed_peak(&weighings[1], g, 1, Some(&one))?.median / secs,
                throttled_ops: attempts,
                throttled_attempts: index.is_none().then_some(attempts),
            });
        }
        Ok(out)
    }

    /// The tables', indexes' and bands' figures, group by group, with the sums `Totals` needs.
    fn groups_report(&self) -> Result<Gathered, FluidError> {
        let secs = self.tick_ms as f64 / 1000.0;
        let multi = self.world.tables.len() > 1;
        let mut out = Gathered {
            partitions: empty_partitions(),
            indexes: Vec::new(),
            bands: Bands::default(),
            items: 0.0,
            bytes: 0.0,
            overwritten: 0.0,
            base_writes: 0.0,
            entry_writes: 0.0,
            side_writes: 0.0,
            preload_overwritten: 0,
            rewrites: 0.0,
            rewritten_bytes: 0.0,
        };
        let mut table_rows: BTreeMap<usize, Vec<PartitionReport>> = BTreeMap::new();
        for (g, group) in self.model.groups.iter().enumerate() {
            let state = &self.groups[g];
            let name = self.world.group_name(group.group);
            if !group.index {
                out.rewrites += state.rewrites;
                out.rewritten_bytes += state.rewritten_bytes;
            }
            // A group whose partitions another leads (`shared`): its sums are its own, its
            // partitions' sizes and loads are the lead's.
            if self.model.lead[g] != g {
                out.items += state.items;
                out.bytes += state.bytes;
                out.overwritten += state.overwritten;
                out.base_writes += state.writes - state.aggregate_writes;
                out.side_writes += state.aggregate_writes;
                if !group.upsert {
                    out.preload_overwritten +=
                        self.model.preload[g].values().map(|p| p.overwritten).sum::<u64>();
                }
                out.partitions.logical += whole(state.partitions);
                continue;
            }
            let (items, bytes) = self.largest(g);
            let peaks = [self.peak(g, 0, None)?.scale(1.0 / secs), self.peak(g, 1, None)?.scale(1.0 / secs)];
            out.bands.groups.push(GroupBands {
                group: name.clone(),
                max_items: items,
                max_bytes: bytes,
                peak_reads_per_s: peaks[0],
                peak_writes_per_s: peaks[1],
            });
            if group.index {
                // An entry of key and record id (MongoDB) is no item written.
                if super::mongo_index::entries_are_items(self.world) {
                    out.entry_writes += state.writes;
                }
                out.indexes.push(self.index_report(g, name.clone(), bytes, peaks[1]));
                out.partitions.index_top.extend(chosen(self.top(g, Some(&name), "")?));
                continue;
            }
            if !group.upsert {
                out.preload_overwritten += self.model.preload[g].values().map(|p| p.overwritten).sum::<u64>();
            }
            out.items += state.items;
            out.bytes += state.bytes;
            out.overwritten += state.overwritten;
            // An aggregate's update is a write its call brings, not the call's own.
            out.base_writes += state.writes - state.aggregate_writes;
            out.side_writes += state.aggregate_writes;
            let p = &mut out.partitions;
            p.logical += whole(state.partitions);
            p.max_items = p.max_items.max(whole(items.median));
            p.max_bytes = p.max_bytes.max(whole(bytes.median));
            p.peak_rcu_per_s = p.peak_rcu_per_s.max(peaks[0].median);
            p.peak_wcu_per_s = p.peak_wcu_per_s.max(peaks[1].median);
            let prefix = if multi { format!("{name}/") } else { String::new() };
            // A table's entities are chosen from together, as the per-operation replay chooses
            // from the table's partitions.
            table_rows.entry(group.group).or_default().extend(self.top(g, None, &prefix)?);
            let b = &mut out.bands;
            b.max_items = b.max_items.max(items);
            b.max_bytes = b.max_bytes.max(bytes);
            b.peak_reads_per_s = b.peak_reads_per_s.max(peaks[0]);
            b.peak_writes_per_s = b.peak_writes_per_s.max(peaks[1]);
        }
        for rows in table_rows.into_values() {
            out.partitions.top.extend(chosen(rows));
        }
        sort_partitions(&mut out.partitions.top);
        sort_partitions(&mut out.partitions.index_top);
        if let Some((nodes, ..)) = self.world.engine.profile().ring() {
            out.partitions.physical = nodes as u64;
        }
        if let Some(capacity) = self.capacity() {
            let (meter, p) = (&capacity.meter, &mut out.partitions);
            p.physical = meter.parts.len() as u64;
            for i in 0..meter.parts.len() {
                p.physical_peak_rcu_per_s = p.physical_peak_rcu_per_s.max(meter.peak(i, READ));
                p.physical_peak_wcu_per_s = p.physical_peak_wcu_per_s.max(meter.peak(i, WRITE));
            }
            p.splits_for_size = meter.splits_size;
            p.splits_for_heat = meter.splits_heat;
            p.heat_splits_refused = meter.splits_blocked;
            p.splits = p.splits_for_size + p.splits_for_heat;
        }
        Ok(out)
    }

    /// The partition of group `g` whose key takes the most of its writes (the highest expected
    /// write peak, the figure the per-operation replay picks its hottest key by), the largest
    /// on a tie, among those that may be the largest.
    fn hottest(&self, g: usize) -> Option<&Part> {
        let state = &self.groups[g];
        let share = |p: &Part| -> f64 {
            let m = usize::try_from(p.member).unwrap_or(usize::MAX);
            state.write_flows.iter().map(|&f| self.model.flows[f].shares.of(m)).sum()
        };
        // `kept` is largest first: the first of the busiest wins.
        state.kept.iter().reduce(|best, p| if share(p) > share(best) { p } else { best })
    }

    fn index_report(&self, g: usize, name: String, bytes: Band, peak: Band) -> IndexReport {
        let state = &self.groups[g];
        let views = self.world.engine.profile().indexes == Indexes::Views;
        // On a metered store, the index's own meter: the units its entry writes were served
        // and its reads of partitions holding an entry (the per-operation replay's `units` of
        // the index's group, counted on its logical partitions), the requests it refused on
        // their first attempt (its reads, and the writes its full queue refused: `scopes`), its
        // busiest physical partition's peak (at least its busiest key's), the longest wait in
        // its queues and the reads it served while writes were queued.
        let (mut wcu, mut rcu, mut throttled, mut physical_peak) = (0.0, 0.0, 0.0, peak.median);
        let (mut lag, mut stale_reads) = (0.0, 0.0);
        if let Some(capacity) = self.capacity_of(g) {
            let f = &capacity.figures;
            wcu = f.units.iter().map(|u| u[WRITE]).sum();
            rcu = f.live_units.iter().sum();
            throttled = f.throttled.iter().sum();
            stale_reads = f.stale.iter().sum();
            // To the millisecond, as the per-operation replay's queued writes' times are.
            lag = (capacity.queues.max_lag * 1000.0).round() / 1000.0;
            let meter = &capacity.meter;
            // The meter is fed expected demand, so its peaks miss the random ones: a physical
            // partition's peak is at least its busiest key's (the median of its maximum).
            // Except where its writes queued: a key's load counts the writes its queue admitted,
            // its partition's the units its budget served.
            let metered = (0..meter.parts.len()).map(|i| meter.peak(i, WRITE)).fold(0.0, f64::max);
            physical_peak = if capacity.queues.max_lag > 0.0 { metered } else { metered.max(peak.median) };
        }
        let table_wcu: f64 = self.capacity().map_or(0.0, |c| c.figures.units.iter().map(|u| u[WRITE]).sum());
        IndexReport {
            name,
            kind: if views { IndexType::View } else { IndexType::Global },
            wcu,
            rcu,
            bytes: whole(state.bytes),
            items: whole(state.items),
            wcu_vs_table: ratio(wcu, table_wcu),
            max_lag_s: lag,
            throttled_ops: whole(throttled),
            hottest_key: self.hottest(g).map(|p| self.key_text(g, p)),
            hottest_key_peak_wcu_per_s: peak.median,
            peak_wcu_per_s: physical_peak,
            partitions: whole(state.partitions),
            max_partition_bytes: whole(bytes.median),
            entry_writes: whole(state.writes),
            stale_reads: whole(stale_reads),
        }
    }

    pub fn report(&self, scenario: &str, variant: &str, seed: u64) -> Result<RunReport, FluidError> {
        let gathered = self.groups_report()?;
        let patterns = self.pattern_reports();
        let summed = self.figures();
        let figures = summed.as_ref();
        let sum = |of: fn(&Figures) -> &Vec<f64>, writes: bool| -> u64 {
            figures.map_or(0, |f| {
                let per: &Vec<f64> = of(f);
                whole(
                    per.iter()
                        .zip(&self.world.patterns)
                        .filter(|(_, p)| !writes || !p.action.is_read())
                        .map(|(x, _)| x)
                        .sum(),
                )
            })
        };
        let units = |dim: usize| figures.map_or(0.0, |f| f.units.iter().map(|u| u[dim]).sum());
        let totals = Totals {
            ops: patterns.iter().map(|p| p.calls).sum(),
            reads: patterns.iter().filter(|p| p.kind == Kind::Read).map(|p| p.calls).sum(),
            writes: patterns.iter().filter(|p| p.kind == Kind::Write).map(|p| p.calls).sum(),
            requests: patterns.iter().map(|p| p.requests).sum(),
            rcu: units(READ),
            wcu: units(WRITE),
            throttled_ops: sum(|f| &f.throttled, false),
            failed_ops: sum(|f| &f.failed, false),
            failed_writes: sum(|f| &f.failed, true),
            gave_up: sum(|f| &f.failed, false),
            writes_gave_up: sum(|f| &f.failed, true),
            items: whole(gathered.items),
            table_bytes: whole(gathered.bytes),
            index_bytes: gathered.indexes.iter().map(|i| i.bytes).sum(),
            write_amplification: if gathered.base_writes > 0.0 {
                (gathered.base_writes + gathered.entry_writes + gathered.side_writes) / gathered.base_writes
            } else {
                1.0
            },
            cost_usd: 0.0,
            monthly_cost_usd: 0.0,
            price_source: String::new(),
            retries: sum(|f| &f.retries, false),
            ttl_deletes: 0,
            collection_limit_errors: 0,
            item_size_errors: 0,
            preload_item_size_errors: 0,
            overwritten_items: whole(gathered.overwritten),
            preload_overwritten_items: gathered.preload_overwritten,
            largest_item_bytes: whole(self.model.largest),
            condition_failed_writes: patterns.iter().map(|p| p.condition_failed).sum(),
            version_conflicts: patterns.iter().map(|p| p.version_conflicts).sum(),
        };
        let secs = (u64::from(self.ticks) * self.tick_ms) as f64 / 1000.0;
        let request_units = self.capacity().and_then(|c| c.request_units(&totals, secs));
        Ok(RunReport {
            scenario: scenario.to_owned(),
            variant: variant.to_owned(),
            seed,
            engine: self.world.engine,
            retry_policy: self.capacity().map(|c| c.policy_name().to_owned()),
            duration_s: (u64::from(self.ticks) * self.tick_ms) as f64 / 1000.0,
            tick_s: self.tick_ms as f64 / 1000.0,
            notes: self.notes(totals.ops),
            totals,
            partitions: gathered.partitions,
            indexes: gathered.indexes,
            patterns,
            goals: Vec::new(),
            fidelity: Fidelity::Rates,
            bands: Some(gathered.bands),
            request_units,
            // Nothing is refused past the limit: a run that samples a document past it is
            // refused (`documents_check`).
            documents: documents_report(
                self.world.engine.profile(),
                whole(self.model.largest),
                (
                    whole(gathered.rewrites),
                    whole(gathered.rewritten_bytes),
                    ratio(gathered.rewritten_bytes, gathered.rewrites),
                ),
                0,
            ),
            shards: None,
        })
    }

    /// What the report's figures are, and the Scans' model where the table is metered.
    fn notes(&self, calls: u64) -> Vec<String> {
        let metered = self.capacity().is_some();
        let request_units = self.capacity().is_some_and(|c| c.meter.provisioned_per_s().is_some());
        let queued = self.capacities.iter().any(|c| c.scope.queue && c.queues.max_lag > 0.0);
        let mut notes = fluid_notes(calls, metered, self.capacities.len() > 1, self.paging.is_some());
        if queued {
            // The index note's last words say lag and stale reads are 0: not in this run.
            for note in notes.iter_mut().filter(|n| n.starts_with("Global secondary indexes")) {
                *note = note.replace(INDEX_REFUSED_ZERO, INDEX_REFUSED_BUT_MOVES);
            }
            notes.push(QUEUE_NOTE.to_owned());
        }
        if request_units {
            // Cosmos DB's request units take the place of DynamoDB's capacity units.
            for note in notes.iter_mut().filter(|n| n.starts_with("Capacity as rates")) {
                REQUEST_UNITS_NOTE.clone_into(note);
            }
        }
        if self.world.engine.profile().latency == Latency::Documents {
            DOCUMENTS_UNMODELLED_NOTE.clone_into(&mut notes[1]);
            notes.push(DOCUMENTS_NOTE.to_owned());
            if self.model.groups.iter().any(|g| g.index) {
                notes.push(super::mongo_index::NOTE.to_owned());
            }
        }
        if !self.model.embeds.is_empty() {
            notes.push(EMBED_NOTE.to_owned());
        }
        if self.model.growth.is_some() {
            notes.push("A population grown by puts of new identities: each put makes a member, and a partition, of its own, numbered after the members so far; the reads pick among the members at each tick's start, their shares worked out anew each tick. A key's own peak in the top list is its busiest tick's (the table's peaks are every tick's); its throttled requests count its shares of the run's last tick.".to_owned());
        }
        if self.model.cache.is_some() {
            notes.push("A read cache as rates: a key misses on its first read of the run and hits after, while its entry lives (the run is no longer than the TTL, and the cache holds every key its reads may ask); per key and tick the expected misses — the chance it is read in the tick and never before — reach the table, its units, peaks (a key's misses in a tick are 0 or 1) and throttling, and the cache's hits and misses are expected values.".to_owned());
        }
        if !self.model.versions.is_empty() {
            notes.push(VERSION_NOTE.to_owned());
        }
        if self.paging.is_some() {
            notes.push(super::pages::NOTE.to_owned());
        }
        if self.model.flows.iter().any(|f| matches!(f.units, Units::Query { whole: true, .. })) {
            notes.push(PREFIX_NOTE.to_owned());
        }
        if metered && !self.model.scans.is_empty() {
            notes.push("Scans as rates: a call reads the whole table at its tick's middle — every physical partition's bytes then (the preload and the writes landed; overwrites are not taken off) — in pages of 1 MB and half a mean item, each 0.5 read unit per started 4 KB (eventually consistent), and one last page of the rest; each partition is metered the part of the units and pages (the requests) it holds the bytes for. A run in which a partition or the table would refuse a Scan's page (the call would wait there with the rest of its pages) is refused.".to_owned());
        }
        notes
    }

    /// Every meter's figures, per pattern, added up: a put's units are its table write's and its
    /// entry writes', as the per-operation replay charges a call every touch.
    fn figures(&self) -> Option<Figures> {
        let mut all = self.capacity()?.figures.clone();
        for capacity in &self.capacities[1..] {
            let f = &capacity.figures;
            for p in 0..all.units.len() {
                all.throttled[p] += f.throttled[p];
                all.retries[p] += f.retries[p];
                all.failed[p] += f.failed[p];
                all.units[p][READ] += f.units[p][READ];
                all.units[p][WRITE] += f.units[p][WRITE];
                all.live_units[p] += f.live_units[p];
                all.stale[p] += f.stale[p];
            }
        }
        Some(all)
    }

    /// Pattern `p`'s create-once puts refused by their condition: those of the groups its
    /// puts alone write (`condition::create_once`).
    fn condition_failed(&self, p: usize) -> f64 {
        let mine = |g: &usize| self.groups[*g].write_flows.iter().all(|&f| self.model.flows[f].pattern == p);
        self.model.create_once.iter().filter(|g| mine(g)).map(|&g| self.groups[g].condition_failed).sum()
    }

    fn pattern_reports(&self) -> Vec<PatternReport> {
        let mut out = Vec::new();
        let patterns = self.world.patterns.len();
        let pending = self.capacity().map(|_| {
            self.capacities.iter().map(|c| c.pending(patterns)).fold(vec![0.0; patterns], |mut all, one| {
                all.iter_mut().zip(one).for_each(|(a, x)| *a += x);
                all
            })
        });
        let summed = self.figures();
        for (p, pattern) in self.world.patterns.iter().enumerate() {
            let state = &self.patterns[p];
            let calls = state.calls;
            let figures = summed.as_ref();
            let (throttled, failed, retries, units) = figures.map_or((0.0, 0.0, 0.0, [0.0; 2]), |f| {
                (f.throttled[p], f.failed[p], f.retries[p], f.units[p])
            });
            // Calls that completed: not those that gave up, nor those waiting for a retry.
            let unfinished = failed + pending.as_ref().map_or(0.0, |w| w[p]);
            let completed = calls.saturating_sub(whole(unfinished));
            let read = pattern.action.is_read();
            let scan = self.model.scans.contains(&p);
            let asked = if read && !scan { state.asked } else { calls as f64 };
            // A BatchGetItem sends its member's shards in one request where the store batches
            // them (`model::batch_of_shards`), one a key where it does not.
            // A row-paged read sends a request a page of each partition it asks, a Scan a page of
            // its table (`pages`); a Get a request a key, a partition it asks.
            let by_page = matches!(pattern.operation, Some(Operation::Query | Operation::Scan));
            let paged = (read && self.paging.is_some()).then_some(if by_page { state.pages } else { asked });
            let requests = if batched(self.world, p) { calls as f64 } else { paged.unwrap_or(asked) };
            // A read the cache fronts sends a request only for its misses (`cache`).
            let fronted = self.model.cache.as_ref().and_then(|c| c.fronted.iter().find(|f| f.pattern == p));
            let requests = fronted.map_or(requests, |f| f.misses);
            // Each aggregated item's UpdateItem, and each parent's append (`embed`), is one
            // more request of the call's (its put is never refused: `fluid::scopes` guards an
            // aggregate's; an embed's store throttles nothing).
            let side = (0..self.model.flows.len())
                .filter(|&f| self.model.flows[f].pattern == p && self.model.side_write(f))
                .count();
            let requests = requests + (calls * side as u64) as f64 + state.fetch_requests;
            // A version check's read, and a lost race's failed write and read again (`version`;
            // none of them refused: `fluid::scopes` guards them).
            let lost = calls as f64 * self.model.lost_share(p);
            let versioned = self.model.versions.iter().any(|v| v.pattern == p);
            let requests = if versioned { requests + calls as f64 + 2.0 * lost } else { requests };
            let served = pattern.operation.is_some();
            // A metered Scan's pages, each a request, the most one call read, and its units per
            // call; pages and items per call stay untimed figures (`timed: false`).
            let scanned = figures.map(|f| f.scans[p]).filter(|_| scan && self.capacity().is_some());
            let per_call = |(units, calls): (f64, f64)| (calls > 0.0).then(|| units / calls);
            out.push(PatternReport {
                name: pattern.name.clone(),
                kind: if read { Kind::Read } else { Kind::Write },
                operation: pattern.operation.map(Operations::from),
                index: pattern.index.clone(),
                calls,
                served_calls: if served { completed } else { 0 },
                served_rcu: units[READ],
                avg_fanout: ratio(asked, calls as f64),
                max_fanout: if read && !scan { state.max_asked } else { u64::from(calls > 0) },
                max_requests: match (scanned, paged) {
                    (Some(s), _) => s.most_pages,
                    (None, Some(_)) if by_page => state.most_pages,
                    (None, Some(_)) => state.max_asked,
                    (None, None) if read && served => self.most_requests(p, scan, fronted.map(|f| f.misses)),
                    (None, None) => 0,
                },
                avg_items_read: 0.0,
                avg_items_returned: 0.0,
                rcu: units[READ],
                wcu: units[WRITE],
                rcu_per_call_start: scanned.and_then(|s| per_call(s.head)),
                rcu_per_call_end: scanned.and_then(|s| per_call(s.tail)),
                throttled: whole(throttled),
                failed: whole(failed),
                latency_ms_p50: 0.0,
                latency_ms_p99: 0.0,
                timed: false,
                unfinished: 0,
                latency_target_ms: pattern.latency_target_ms,
                requests: match scanned {
                    _ if !served => 0,
                    Some(s) => whole(s.pages),
                    None => whole(requests),
                },
                landed_writes: (!read && served).then_some(completed),
                retries: whole(retries),
                // A Get's request is not a page: pages are a Query's or a Scan's (`exec::read`).
                avg_pages: paged.filter(|_| by_page).map_or(0.0, |pages| ratio(pages, calls as f64)),
                scans: if scan { calls } else { 0 },
                collection_errors: 0,
                item_size_errors: 0,
                overwrote: 0,
                condition_failed: whole(self.condition_failed(p) + lost),
                version_conflicts: whole(lost),
                duplicates: 0,
                stale_reads: whole(figures.map_or(0.0, |f| f.stale[p])),
                cache: fronted.map(|f| self.cache_report(calls, f.misses)),
            });
        }
        out
    }
}

impl Replay<'_> {
    /// The most requests one call of read pattern `p` sent on its first attempt, where rows do
    /// not page its reads (as the per-operation replay's `max_requests` counts them): a request
    /// for each partition it asked (a Query is one page there: a longer one is refused as
    /// rates), one for a batch of its shards where the store batches them, one for a Scan that
    /// pages nothing (a store that meters its pages counts them apart); none for a call its
    /// cache answered — so none at all where the expected misses round to none (`misses`) —
    /// and one more for the fetch of what an index does not project, where a Query returns any.
    fn most_requests(&self, p: usize, scan: bool, misses: Option<f64>) -> u64 {
        let state = &self.patterns[p];
        let own = if scan {
            1
        } else if batched(self.world, p) {
            u64::from(state.max_asked > 0)
        } else {
            state.max_asked
        };
        if misses.is_some_and(|m| whole(m) == 0) {
            return 0;
        }
        own + u64::from(whole(state.fetch_requests) > 0)
    }

    /// What the cache answered of a fronted pattern's `calls`: its expected misses, rounded, and
    /// the rest hits, each saving an item's read units.
    fn cache_report(&self, calls: u64, misses: f64) -> CacheReport {
        let misses = whole(misses).min(calls);
        let hits = calls - misses;
        let saved = self.model.cache.as_ref().map_or(0.0, |c| c.saved_per_hit);
        CacheReport {
            hits,
            misses,
            hit_ratio: ratio(hits as f64, calls as f64),
            rcu_saved: hits as f64 * saved,
        }
    }
}

/// How a rates replay meters Cosmos DB's request units (`capacity`, `cosmos`).
const REQUEST_UNITS_NOTE: &str = "Request units as rates: each tick's expected demand (calls × each key's share × its RU: a point read's and an update's — a replace, two writes — by the item's JSON size, from Microsoft's table by document size) was fed to the container's meter per physical partition in forty slots of the tick (under a retry policy without jitter, such as the Cosmos DB SDK's 1 s waits, a retry comes back at the place in the tick it was refused at; a policy with jitter is refused), each partition serving its even share of the container's RU/s and whole the request that finds any budget left (what it serves past its budget owed by the next seconds), at most E[X] − E[(X − budget)⁺] of a random demand X; the rest was retried after the retry policy's waits. Throttled requests (429s), retries, failures, RU and landed writes are expected values; every update is charged as a replace (a run whose keys number more than 1% of its writes is refused), and a run in which more than 2% of the throttled requests come from partitions whose demand is near their share is refused. Where partitions are pinned well past their share, requests given a 429 on their first attempt come out fewer as rates than per operation by more than the 2% the rest agrees within (counters `recommended` under `--seed 1`, two partitions pinned: 2.9% fewer over 2 minutes, 4% over 15; its 429 responses and RU within 2%). The busiest physical partition's peak (its RU per second, in the JSON's partitions and in compare) is the meter's own under that expected demand, not the median of a maximum: its busiest tick's expected load, below what one run reaches where a physical partition serves few requests a tick. Normalized RU consumption (a partition's busiest second, a maximum of its random demand) is not modelled, and is left out of the request units.";

/// How a rates replay charges a query of a hierarchical key's first level (`Units::Query`'s
/// `whole`), and where its load is counted.
const PREFIX_NOTE: &str = "Queries of a hierarchical key's first level as rates: the store sends one to the physical partition holding the member's logical partitions (its buckets), which reads them one after another until the limit — one page, charged over the Poisson count of the member's items so far (its limit's worth once it has that many). Its RU are counted on the physical partition exactly; among the member's logical partitions they are counted on the bucket open when it asks, where per operation they fall on the buckets it read, the first in the store's order (placement), so a logical partition's read peak and the expected heatmap place the query's load on the newest bucket.";

/// How a rates replay counts version-checked updates (`version`).
const VERSION_NOTE: &str = "Version checks as rates: each call of a version-checked update reads its item (strongly consistent) and writes it; it loses its race when another update of the item landed within its read-to-write time (exponential, mean 8 ms), with the chance the planner's contention model gives the item's share of the calls at their even spacing, and a lost race adds a failed write (charged) and a read again. Lost races (conditions failed, version conflicts), their units and requests are expected values; a peak counts each call's expected lost races with it, so its band is that of the calls' count alone, without the races' own spread (narrower than per operation's). A run in which a partition would throttle a version-checked update's request is refused: its retry would read and race again later.";

/// How a rates replay follows a GSI's queue, for a run in which entry writes queued.
const QUEUE_NOTE: &str = "Index queues as rates: this run's index entry writes are all moves of an updated value's entry in one index, so its index partitions queue the entry writes their budget leaves short (those take none of the budget then; while writes are queued every entry write waits behind them and reads alone take the budget), up to 5 seconds of the partition's write capacity; a write that finds its entry's queue full is refused whole and retried by the client (back-pressure), so the table takes only the writes its index admitted. The queue takes what each tick leaves of its partition's budget; the lag is the longest wait of a queued write at a tick's end, and reads served while the partition had writes queued are stale. What is still queued at the end changes none of the index's entries (a move keeps them).";

/// What a fluid report of whole documents (MongoDB) leaves out: latency, and with it the
/// modelled time each write takes to build its document's new version.
const DOCUMENTS_UNMODELLED_NOTE: &str = "Not modelled by the fluid replay yet: latency (— in the tables, null in the JSON; latency goals are not graded), and so neither the modelled time of building each write's new document version; pages and items read per call (likewise); a request is counted per partition a read asks.";
/// How a fluid report of whole documents (MongoDB) has its documents' figures.
const DOCUMENTS_NOTE: &str = "MongoDB as rates: documents sized as BSON, in one replica set's collections (the Partitions section counts distinct keys; no capacity units and no throttling, so the read and write figures count operations). In the documents section, updates are the expected writes onto a key that held a document (each builds the document's whole new version) and their bytes those writes times the mean document they leave (the mean per update is taken before either is rounded); the largest document is the largest of the preload and of the documents sampled from the writes' generators. A run that samples a document past 16 MB is refused.";

/// How a rates replay has its embedded lists' figures (`embed`), and what its largest document is.
const EMBED_NOTE: &str = "Embedded lists as rates: each landed put of a child appends it to its parent's list, which keeps the newest n; a parent's bytes and the bytes of the new versions its appends build are expectations over its drawn count of appends (its document plus min(count, n) children of the children's mean size). The largest document is a bound, not a median: the largest preloaded parent holding n children of the largest size sampled from the put's generators (a per-operation replay reaches it only where one parent's newest n children are all that large).";

/// The end of the index note: what a run with index queues says instead (`QUEUE_NOTE`).
const INDEX_REFUSED_ZERO: &str = "is refused, so replication lag and stale reads are 0 here.";
const INDEX_REFUSED_BUT_MOVES: &str = "is refused, but for entry writes that are all moves of an updated value's entry in one index, as in this run (below).";

/// What a fluid report's figures are, for its reader.
fn fluid_notes(calls: u64, metered: bool, indexes: bool, paged: bool) -> Vec<String> {
    // A row-paged store's requests are its pages (`pages`' note).
    let reads = if paged {
        "items read per call (likewise), and read and write units (0 here); a request is a page of rows"
    } else {
        "pages and items read per call (likewise), and read and write units (0 here); a request is counted per partition a read asks"
    };
    let mut notes = vec![
        format!(
            "Replayed as rates (--fidelity rates): the {calls} calls were counted per tick, not made one by one. Sums, item counts and sizes are expected values; the largest partition and every peak are the median of their maximum over partitions and ticks, with its 0.1%–99.9% band in the JSON report's bands (a per-operation replay reports one draw from that band)."
        ),
        format!(
            "Not modelled by the fluid replay yet: latency (— in the tables, null in the JSON; latency goals are not graded), {reads}; the ring's {RING_NODES} nodes are not broken down."
        ),
    ];
    if metered {
        "Not modelled by the fluid replay yet: latency (— in the tables, null in the JSON; latency goals are not graded), pages and items read per call (likewise); a request is counted per partition a read asks.".clone_into(&mut notes[1]);
        notes.push("Capacity as rates: each tick's expected demand (calls × each key's share × its units: a put's and a GetItem's fixed units, a Query's units of the items its partition holds in its range, min(limit, expected items) × their mean size rounded up to 4 KB) was fed to DynamoDB's meter per physical partition in ten slots of the tick, which served what its partition budgets and the table's allowance let through, at most E[X] − E[(X − budget)⁺] of a random demand X; the rest was retried after the retry policy's waits (spread evenly over each retry's jitter). Throttled requests, retries, failures, units and landed writes are expected values; a peak under throttling weighs the served share of its partition's busiest keys. The busiest physical partition's peak is the meter's own under that expected demand, not the median of a maximum: its busiest tick's expected load, below what one run reaches where a physical partition serves few requests a tick.".to_owned());
    }
    if indexes {
        notes.push("Global secondary indexes as rates: each index has its own meter and partitions; every put writes its entry (units by the entry's size, 1 KB per unit: the whole item, or its keys and the attributes the index projects) on the index partition holding its index key, a sparse index's on the share of puts its gate admits, and a Query of the index reads its entries there, metered the same way. A run in which an index partition would fall short of its entry writes (they would queue, lag, and hold back the table's writes) or the table would throttle a write with index entries is refused, so replication lag and stale reads are 0 here.".to_owned());
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_with_index_queues_rewrites_the_index_notes_last_words() {
        let notes = fluid_notes(1, true, true, false);
        let index = notes.iter().find(|n| n.starts_with("Global secondary indexes")).expect("an index note");
        assert!(index.ends_with(INDEX_REFUSED_ZERO), "{index}");
    }

    fn row(key: &str, bytes: u64, peaks: [f64; 2], throttled: u64) -> PartitionReport {
        PartitionReport {
            key: key.to_owned(),
            index: None,
            bytes,
            items: bytes / 100,
            peak_rcu_per_s: peaks[READ],
            peak_wcu_per_s: peaks[WRITE],
            throttled_ops: throttled,
            throttled_attempts: Some(throttled),
        }
    }

    /// A metered rates report's note says its busiest physical partition's peak is the meter's
    /// own, not the median of a maximum the first note gives every other peak: DynamoDB's note
    /// and Cosmos DB's, which takes its place.
    #[test]
    fn a_metered_note_says_the_physical_peak_is_the_meters_own() {
        let notes = fluid_notes(1, true, false, false);
        let capacity = notes.iter().find(|n| n.starts_with("Capacity as rates")).expect("metered");
        for (store, note) in [("DynamoDB", capacity.as_str()), ("Cosmos DB", REQUEST_UNITS_NOTE)] {
            assert!(
                note.contains("busiest physical partition's peak")
                    && note.contains("not the median of a maximum"),
                "{store}: {note}"
            );
        }
    }

    /// A table's rows from two entities: the five largest, and the five first by each peak and
    /// by throttles, whichever entity holds them — not five of each entity.
    #[test]
    fn the_top_list_is_the_largest_and_the_hottest_of_the_table() {
        let mut rows: Vec<PartitionReport> =
            (0..7u64).map(|i| row(&format!("MSG{i}"), 1_000_000 - i * 1000, [0.0, 0.0], 0)).collect();
        rows.extend((0..7u64).map(|i| row(&format!("MEM{i}"), 500 - i, [0.0, 0.0], 0)));
        // (a small partition's figures, whether it is listed)
        let cases =
            [([0.0, 0.0], 0, false), ([0.0, 9.0], 0, true), ([9.0, 0.0], 0, true), ([0.0, 0.0], 3, true)];
        for (peaks, throttled, listed) in cases {
            let mut table = rows.clone();
            table.push(row("HOT", 10, peaks, throttled));
            let keys: Vec<String> = chosen(table).into_iter().map(|r| r.key).collect();
            let mut expected: Vec<String> = (0..5).map(|i| format!("MSG{i}")).collect();
            if listed {
                expected.push("HOT".to_owned());
            }
            let mut sorted = keys.clone();
            sorted.sort();
            expected.sort();
            assert_eq!(sorted, expected, "peaks {peaks:?}, throttled {throttled}");
        }
    }
}
