//! What happens besides the calls: the TTL sweeper, partition splits, maintained aggregates and
//! the rewrite of denormalized copies.

use std::cmp::Reverse;

use crate::engine::metrics::{Layer, RowInfo, SortKey};
use crate::engine::model::{AggregateOp, Bound, EntityId, PatternId, Variant};

use super::embed::{EMBED_REQUEST, Embedded};
use super::exec::{Call, ItemWrite, Refused, Resume, Through, WriteStatus};
use super::items::{CopyPlan, Val};
use super::meter::{WRITE, heat_split_points, split_point};
use super::state::NO_ROW;
use super::table::Placed;
use super::templates::TemplatePlan;
use super::world::{Filter, Origin, World};
use super::{Born, Simulation, physical_label};

/// Retry request numbers of side writes: aggregate `a` is `1 + a`, copy `c` is
/// `COPY_REQUEST + c` (0 is the call's own write).
const COPY_REQUEST: u32 = 0x4000;

/// A maintained aggregate, bound to attribute slots.
#[derive(Debug, Clone)]
pub(super) struct AggregatePlan {
    pub entity: usize,
    pub attr: usize,
    pub fold: Fold,
    /// (aggregate entity attribute, triggering entity, its attribute the key's same slot reads).
    pub keys: Vec<(usize, usize, usize)>,
}

/// What a triggering write does to an aggregate's attribute. A sum or a claim reads an
/// attribute of the triggering item: `(triggering entity, its attribute)`, one per entity whose
/// writes maintain the aggregate (the loader checks each has it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Fold {
    /// Adds one.
    Count,
    /// Adds the triggering item's attribute.
    Sum(Vec<(usize, usize)>),
    /// Takes the item once, recording the triggering item's attribute of the same name.
    Claim(Vec<(usize, usize)>),
}

impl Fold {
    /// The attribute of an item of `trigger` that a sum adds or a claim records.
    fn source(sources: &[(usize, usize)], trigger: usize) -> Option<usize> {
        sources.iter().find(|&&(entity, _)| entity == trigger).map(|&(_, attr)| attr)
    }
}

impl AggregatePlan {
    pub fn compile(world: &World, variant: &Variant) -> Vec<AggregatePlan> {
        variant
            .aggregates
            .iter()
            .filter_map(|a| {
                let entity = a.ids.entity().index();
                let attr = a.ids.attribute()?.index();
                let triggers: Vec<(PatternId, usize)> = (world.patterns.iter().enumerate())
                    .map(|(i, p)| (PatternId::new(i), p.entity))
                    .filter(|&(id, _)| a.ids.on(id))
                    .collect();
                // A sum or a claim reads the attribute of each triggering entity (patterns of one
                // entity read the same one).
                let mut folded: Vec<(usize, usize)> = Vec::new();
                for &(id, t) in &triggers {
                    if let Some(attr) = a.ids.folded(id)
                        && !folded.iter().any(|&(e, _)| e == t)
                    {
                        folded.push((t, attr.index()));
                    }
                }
                let fold = match &a.op {
                    AggregateOp::Count => Fold::Count,
                    AggregateOp::Sum(_) => Fold::Sum(folded),
                    AggregateOp::Claim => Fold::Claim(folded),
                };
                let triggers: Vec<usize> = triggers.into_iter().map(|(_, t)| t).collect();
                let keys = key_sources(world, variant, entity, &triggers);
                Some(AggregatePlan { entity, attr, fold, keys })
            })
            .collect()
    }
}

/// Where an aggregate item's key attributes come from: the aggregate entity's key templates read
/// each of them from the triggering item by the same slot (`EntityKeys::pk_bound_on`), so
/// compiled against each entity's attributes they pair them up, slot by slot: (aggregate entity
/// attribute, triggering entity, its attribute), for every trigger holding one.
fn key_sources(
    world: &World,
    variant: &Variant,
    entity: usize,
    triggers: &[usize],
) -> Vec<(usize, usize, usize)> {
    let Some(keys) = variant.keys_for(EntityId::new(entity)) else { return Vec::new() };
    let reads = |pk: Bound<'_>, sk: Option<Bound<'_>>| -> Vec<Option<usize>> {
        let ent = &world.entities[pk.entity.index()];
        let plans = std::iter::once(pk).chain(sk).map(|b| TemplatePlan::new(b.template, b.slots, ent, 0));
        plans.flat_map(|p| p.slots.into_iter().flat_map(|s| s.reads())).collect()
    };
    // `Variant::resolve` binds the keys on every entity of the `on` patterns.
    let theirs: Vec<(usize, Vec<Option<usize>>)> = (triggers.iter())
        .filter_map(|&t| {
            let on = EntityId::new(t);
            Some((t, reads(keys.pk_bound_on(on)?, keys.sk_bound_on(on))))
        })
        .collect();
    let mut sources = Vec::new();
    for (i, k) in reads(keys.pk_bound(), keys.sk_bound()).into_iter().enumerate() {
        let Some(k) = k else { continue };
        for (t, reads) in &theirs {
            if let Some(ta) = reads[i] {
                sources.push((k, *t, ta));
            }
        }
    }
    sources
}

/// What a write keeps up besides its own item, as the variant declares it: denormalized
/// copies, maintained aggregates, lists embedded in a parent (with each parent's list as it
/// stands), and the ledger marks of Scans with a constant filter. The plans are fixed when the
/// run starts; the write paths here and in `embed` follow them.
#[derive(Debug)]
pub(super) struct Upkeep {
    pub copies: Vec<CopyPlan>,
    pub aggregates: Vec<AggregatePlan>,
    /// Each embed, with the children now in every parent's list.
    pub embeds: Vec<Embedded>,
    /// The multikey indexes over the embeds' lists, with their entries' counts.
    pub multikeys: Vec<super::multikey::Multikey>,
    /// Per table: the Scan patterns whose constant filter has a ledger mark, by mark.
    pub scan_marks: Vec<Vec<usize>>,
    /// Per pattern: its calls are puts that keep nothing up (`exec::plain_patterns`).
    pub plain: Vec<bool>,
    /// Per pattern: how its plain puts skip building their keys (`exec::plain::Shortcut`).
    pub shortcuts: Vec<Option<super::exec::Shortcut>>,
}

impl Upkeep {
    /// The embed a child entity's puts go through, if any.
    pub fn embed_of(&self, child: usize) -> Option<usize> {
        self.embeds.iter().position(|e| e.plan.child == child)
    }
}

impl Simulation {
    /// Deletes items whose TTL expired the profile's `ttl_delay_secs` ago (DynamoDB's sweeper: 48 hours); free, and their
    /// index entries go too. Cassandra hides an expired row from reads at once: it goes at the
    /// first tick after expiry, and sizes count live rows (not the tombstones a compaction purges
    /// later).
    pub(super) fn sweep_ttl(&mut self, t: u32) {
        let now = i64::try_from(self.pacing.tick_start(t) / 1000).unwrap_or(i64::MAX);
        let delay = self.world.engine.profile().ttl_delay_secs;
        for e in 0..self.items.ttl.len() {
            while let Some(&Reverse((expires, handle))) = self.items.ttl[e].peek() {
                if expires.saturating_add(delay) > now {
                    break;
                }
                self.items.ttl[e].pop();
                let ordinal = self.world.ordinal_of(handle);
                let Some(t_idx) = self.world.entities[e].table else { continue };
                let mut vals = Vec::new();
                self.current_vals(e, ordinal, &mut vals);
                // An update pushed the expiry out since (a sliding `ttl`): not due yet.
                if let Some(current) = self.world.entities[e].added.ttl.and_then(|a| vals[a].secs())
                    && current > expires
                {
                    self.items.ttl[e].push(Reverse((current, handle)));
                    continue;
                }
                let mut placed = Placed::default();
                if !self.place(e, ordinal, &vals, &mut placed) {
                    continue;
                }
                if self.storage.tables[t_idx].current(&placed).is_none_or(|row| row.id != handle) {
                    continue; // overwritten or deleted since
                }
                let group_of: Vec<usize> = std::iter::once(self.world.tables[t_idx].group)
                    .chain(self.world.tables[t_idx].indexes.iter().map(|i| i.group))
                    .collect();
                let now_ms = self.pacing.tick_start(t);
                let through = Through { old: Some(&placed), new: None, now_ms, free: true };
                if self.write_through(t_idx, through, &mut None).is_err() {
                    continue;
                }
                let touches = std::mem::take(&mut self.storage.touches);
                self.figures.totals.ttl_deletes += 1;
                for k in 0..self.upkeep.scan_marks[t_idx].len() {
                    if self.mark_matches(t_idx, k, e, &vals) {
                        self.storage.tables[t_idx].base.mark(touches[0].partition, k, -1);
                    }
                }
                for touch in &touches {
                    self.settle(group_of[touch.group], touch.partition);
                }
                self.storage.touches = touches;
                self.items.overrides.remove(&handle);
                if !self.upkeep.multikeys.is_empty() {
                    self.unindex_parent(handle, false);
                }
            }
        }
    }

    /// Whether mark `k` of table `t_idx` (a Scan's constant filter) matches these values.
    pub(super) fn mark_matches(&self, t_idx: usize, k: usize, entity: usize, vals: &[Val]) -> bool {
        let sp = self.upkeep.scan_marks[t_idx][k];
        self.world.patterns[sp].read.as_ref().is_some_and(|rp| {
            rp.entities.first() == Some(&entity)
                && rp.filter.iter().all(|f| match f {
                    Filter::Equals(a, v) => vals[*a] == *v,
                    Filter::Prefix(a, prefix) => {
                        let mut text = String::new();
                        super::items::push_text(
                            &self.world.entities[entity].attrs[*a],
                            vals[*a],
                            &self.world.pops,
                            &mut text,
                        ) && text.starts_with(prefix.as_str())
                    }
                    _ => true,
                })
        })
    }

    /// Splits physical partitions that passed 10 GB or ran hot for a whole window.
    pub(super) fn split_partitions(&mut self, t: u32) {
        let window = t / self.pacing.window_ticks;
        for g in 0..self.storage.groups.len() {
            let candidates = match &self.storage.groups[g].meter {
                Some(meter) => meter.split_candidates(),
                None => continue,
            };
            // Highest first, so inserting after one keeps the others' positions.
            for &(i, for_size) in candidates.iter().rev() {
                let meter = self.storage.groups[g].meter.as_ref().expect("checked above");
                let lo = meter.parts[i].lo;
                let hi = meter.end(i);
                let mut keys: Vec<(u64, f64)> = Vec::new();
                for h in (0..self.storage.groups.len()).filter(|&h| self.storage.groups[h].metered_by == g) {
                    let (tt, index) = self.world.groups[h];
                    let ledger = match index {
                        None => &self.storage.tables[tt].base,
                        Some(x) => &self.storage.tables[tt].indexes[x].1,
                    };
                    for (q, part) in ledger.partitions().iter().enumerate() {
                        if part.hash < lo || hi.is_some_and(|hi| part.hash >= hi) {
                            continue;
                        }
                        let weight = if for_size {
                            part.bytes as f64
                        } else {
                            self.storage.groups[h].loads.get(q).map_or(0.0, |l| f64::from(l.recent(window)))
                        };
                        keys.push((part.hash, weight));
                    }
                }
                keys.sort_by_key(|k| k.0);
                // Highest boundary first: each split keeps partition `i` as the lower part.
                let mut points = if for_size {
                    split_point(&keys).into_iter().collect()
                } else {
                    heat_split_points(&keys)
                };
                points.sort_unstable_by(|a, b| b.cmp(a));
                if points.is_empty() {
                    self.storage.groups[g].meter.as_mut().expect("checked above").refuse_split(i);
                    continue;
                }
                for at in points {
                    let registry = self.storage.groups[g].registry;
                    let row = self
                        .figures
                        .metrics
                        .add_partition(RowInfo {
                            group: registry,
                            layer: Layer::Physical,
                            label: physical_label(at),
                            key: SortKey::HashStart(at),
                        })
                        .map_or(NO_ROW, |id| id.0);
                    let meter = self.storage.groups[g].meter.as_mut().expect("checked above");
                    meter.split(i, at, t, for_size, row, (0, 0));
                    self.recount_bytes(g, i);
                }
            }
        }
    }

    /// Recomputes the stored bytes of physical partitions `i` and `i + 1` of group `g`.
    fn recount_bytes(&mut self, g: usize, i: usize) {
        let meter = self.storage.groups[g].meter.as_ref().expect("split groups are metered");
        let bounds =
            [(meter.parts[i].lo, Some(meter.parts[i + 1].lo)), (meter.parts[i + 1].lo, meter.end(i + 1))];
        let mut sums = [0u64; 2];
        for h in (0..self.storage.groups.len()).filter(|&h| self.storage.groups[h].metered_by == g) {
            let (tt, index) = self.world.groups[h];
            let ledger = match index {
                None => &self.storage.tables[tt].base,
                Some(x) => &self.storage.tables[tt].indexes[x].1,
            };
            for part in ledger.partitions() {
                for (k, (lo, hi)) in bounds.iter().enumerate() {
                    if part.hash >= *lo && hi.is_none_or(|hi| part.hash < hi) {
                        sums[k] += part.bytes;
                    }
                }
            }
        }
        let meter = self.storage.groups[g].meter.as_mut().expect("split groups are metered");
        meter.parts[i].bytes = sums[0];
        meter.parts[i + 1].bytes = sums[1];
    }

    /// Updates aggregate `index`'s item for a write of `trigger` (an entity) with `vals` (item
    /// `ordinal`'s): the item keyed by the trigger's attributes gains 1 (a count) or the
    /// trigger's attribute (a sum), and is created if missing; every other aggregate of `call`'s
    /// pattern on the same entity changes in the same UpdateItem. A separate request of the
    /// pattern, retried like any write when throttled (`resume`: this is the retry).
    pub(super) fn aggregate(
        &mut self,
        index: usize,
        trigger: usize,
        vals: &[Val],
        ordinal: u32,
        call: Call,
        resume: Option<&Resume>,
    ) {
        let Some(item) = self.aggregate_item(index, trigger, vals, call.pattern) else { return };
        match item.taken {
            Some(stored) => self.claim_refused(index, &item, stored, call, (ordinal, resume)),
            None => self.write_aggregate(index, &item, call, (ordinal, false), resume),
        }
    }

    /// A claim's PutItem refused: the value is claimed already, and the call's own item, a
    /// request of its own, has landed with it — a duplicate. The refusal is charged as a failed
    /// conditional write (`stored`: the claim item's size); throttled, it is retried.
    fn claim_refused(
        &mut self,
        index: usize,
        item: &AggregateItem,
        stored: u32,
        call: Call,
        (ordinal, resume): (u32, Option<&Resume>),
    ) {
        let pattern = call.pattern;
        if resume.is_none() {
            self.figures.totals.requests += 1;
            self.figures.stats[pattern].requests += 1;
        }
        let Some(t_idx) = self.world.entities[item.entity].table else { return };
        let mut placed = Placed::default();
        if !self.place(item.entity, item.ordinal, &item.current, &mut placed) {
            return;
        }
        let units =
            self.world.engine.profile().metering.failed_write(u64::from(stored), u64::from(placed.size));
        if self.charge_unchanged(t_idx, &placed.pk, WRITE, units, Some(pattern), resume.is_none()) {
            self.figures.stats[pattern].duplicates += 1;
            return;
        }
        let request = u32::try_from(index + 1).unwrap_or(EMBED_REQUEST - 1).min(EMBED_REQUEST - 1);
        let now_ms = resume.map_or(call.time_ms, |r| r.at_ms);
        let refused = Refused { request, now_ms, base_ms: 0.0, reports: false, ordinal, cursor: None };
        self.throttled(call, resume, refused);
    }

    /// Writes aggregate `index`'s item as a request of `call`'s, retried like any write when
    /// throttled; `ordinal` is the triggering item's, which a retry starts from.
    /// `in_transaction`: the call's own TransactWriteItems holds it, so it is no request of its
    /// own.
    pub(super) fn write_aggregate(
        &mut self,
        index: usize,
        item: &AggregateItem,
        call: Call,
        (ordinal, in_transaction): (u32, bool),
        resume: Option<&Resume>,
    ) {
        let request = u32::try_from(index + 1).unwrap_or(EMBED_REQUEST - 1).min(EMBED_REQUEST - 1);
        let kind = if in_transaction { Side::InTransaction } else { Side::Aggregate };
        self.side_write(item.write(call, resume), call, (request, ordinal), resume, kind);
    }

    /// The item aggregate `index` keeps for a write of `trigger` with `vals` by `pattern`, with
    /// its values after the update: every aggregate of `pattern` on the same entity changes it
    /// (their keys come from the same trigger). `None` when its key does not expand. A claim
    /// that an item holds already comes back `taken`, its values those the put would write.
    pub(super) fn aggregate_item(
        &mut self,
        index: usize,
        trigger: usize,
        vals: &[Val],
        pattern: usize,
    ) -> Option<AggregateItem> {
        let plan = self.upkeep.aggregates.get(index).cloned()?;
        let entity = plan.entity;
        let mut keyed = vec![Val::Absent; self.world.entities[entity].attrs.len()];
        for &(attr, from, from_attr) in &plan.keys {
            if from == trigger {
                keyed[attr] = vals[from_attr];
            }
        }
        let t_idx = self.world.entities[entity].table?;
        let mut probe = Placed::default();
        if !self.place(entity, self.world.entities[entity].next, &keyed, &mut probe) {
            return None;
        }
        let held = self.storage.tables[t_idx].current(&probe).map(|row| (row.id, row.size));
        let existing = held.map(|(id, _)| id).filter(|&h| self.world.entity_of(h) == entity);
        // A claim's put is refused by any item at its key (attribute_not_exists).
        let taken = held.filter(|_| matches!(plan.fold, Fold::Claim(_))).map(|(_, size)| size);
        let mut changes: Vec<(u16, Val)> = Vec::new();
        let ordinal = match existing {
            Some(handle) if taken.is_none() => self.world.ordinal_of(handle),
            _ => {
                // A new aggregate item keeps its keys in its overrides.
                for &(attr, from, _) in &plan.keys {
                    if from == trigger {
                        changes.push((u16::try_from(attr).unwrap_or(u16::MAX), keyed[attr]));
                    }
                }
                match taken {
                    // Never written: the values the refused put would write, at the next ordinal.
                    Some(_) => self.world.entities[entity].next,
                    None => self.alloc(entity, Born::outside_calls(Origin::Aggregate, self.pacing.tick)),
                }
            }
        };
        let mut current = Vec::new();
        self.current_vals(entity, ordinal, &mut current);
        for &(attr, value) in &changes {
            current[usize::from(attr)] = value;
        }
        let group: Vec<usize> = self.world.patterns[pattern]
            .aggregates
            .iter()
            .copied()
            .filter(|&a| self.upkeep.aggregates[a].entity == entity)
            .collect();
        for a in group {
            let (attr, fold) = (self.upkeep.aggregates[a].attr, &self.upkeep.aggregates[a].fold);
            let value = match fold {
                Fold::Claim(sources) => {
                    Fold::source(sources, trigger).map_or(Val::Absent, |owner| vals[owner])
                }
                // Counts are kept in hundredths, as every number.
                Fold::Count => add(current[attr], 100),
                Fold::Sum(sources) => match Fold::source(sources, trigger).map(|summed| vals[summed]) {
                    Some(Val::Num(h)) => add(current[attr], h),
                    _ => add(current[attr], 0),
                },
            };
            current[attr] = value;
            changes.push((u16::try_from(attr).unwrap_or(u16::MAX), value));
        }
        Some(AggregateItem { entity, ordinal, current, changes, taken })
    }

    /// A write a call causes besides its own (an aggregate, a copy): one more request of the
    /// pattern. Refused, it is counted as throttled and retried with the client's backoff
    /// (`request`: which side write and the item its retry starts from); after the last retry
    /// it fails.
    fn side_write(
        &mut self,
        write: ItemWrite<'_>,
        call: Call,
        request: (u32, u32),
        resume: Option<&Resume>,
        kind: Side,
    ) {
        let pattern = call.pattern;
        if resume.is_none() && kind != Side::InTransaction {
            self.figures.totals.requests += 1;
            self.figures.stats[pattern].requests += 1;
        }
        match self.write_item(write) {
            WriteStatus::Done if kind == Side::Copy => self.figures.totals.copy_writes += 1,
            WriteStatus::Done => self.figures.totals.aggregate_writes += 1,
            WriteStatus::Throttled => {
                let refused = Refused {
                    request: request.0,
                    now_ms: write.now_ms,
                    base_ms: 0.0,
                    reports: false,
                    ordinal: request.1,
                    cursor: None,
                };
                self.throttled(call, resume, refused);
            }
            status => self.write_failed(pattern, status),
        }
    }

    /// A side write's retry: the aggregate recomputed from its trigger item, or the copy
    /// rewritten with its source's value now.
    pub(super) fn retry_side(&mut self, call: Call, resume: &Resume) {
        if resume.request >= COPY_REQUEST {
            self.rewrite_copy(
                usize::try_from(resume.request - COPY_REQUEST).unwrap_or(usize::MAX),
                resume.ordinal,
                call,
                Some(resume),
            );
            return;
        }
        if resume.request >= EMBED_REQUEST {
            self.retry_append(
                usize::try_from(resume.request - EMBED_REQUEST).unwrap_or(usize::MAX),
                call,
                resume,
            );
            return;
        }
        let entity = self.world.patterns[call.pattern].entity;
        let mut vals = Vec::new();
        self.current_vals(entity, resume.ordinal, &mut vals);
        let index = usize::try_from(resume.request - 1).unwrap_or(usize::MAX);
        self.aggregate(index, entity, &vals, resume.ordinal, call, Some(resume));
    }

    /// Rewrites every copy of attribute `attr` of item `ordinal` of `from` (an update set it):
    /// each holder that still exists is rewritten, one request each.
    pub(super) fn rewrite_copies(&mut self, from: usize, ordinal: u32, attr: usize, call: Call) {
        for c in 0..self.upkeep.copies.len() {
            let copy = &self.upkeep.copies[c];
            if copy.from != from || copy.from_attr != attr {
                continue;
            }
            let holders = self.items.copy_holders[c].get(&u64::from(ordinal)).cloned().unwrap_or_default();
            let mut alive = Vec::with_capacity(holders.len());
            for handle in holders {
                if self.rewrite_copy(c, handle, call, None) {
                    alive.push(handle);
                }
            }
            self.items.copy_holders[c].insert(u64::from(ordinal), alive);
        }
    }

    /// Rewrites copy `c` in holder `handle` with its source's current value; false when the
    /// holder is gone.
    fn rewrite_copy(&mut self, c: usize, handle: u32, call: Call, resume: Option<&Resume>) -> bool {
        let as_attr = self.upkeep.copies[c].as_attr;
        let (entity, o) = (self.world.entity_of(handle), self.world.ordinal_of(handle));
        let mut vals = Vec::new();
        self.current_vals(entity, o, &mut vals);
        let mut placed = Placed::default();
        let Some(t_idx) = self.world.entities[entity].table else { return false };
        if !self.place(entity, o, &vals, &mut placed)
            || self.storage.tables[t_idx].current(&placed).is_none_or(|r| r.id != handle)
        {
            return false; // gone: drop it from the holders
        }
        let value = self.copy_source_val(c, &vals).unwrap_or(Val::Absent);
        vals[as_attr] = value;
        let changes = [(u16::try_from(as_attr).unwrap_or(u16::MAX), value)];
        let write = caused_update(entity, o, &vals, &changes, call, resume);
        let request = COPY_REQUEST + u32::try_from(c).unwrap_or(0);
        self.side_write(write, call, (request, handle), resume, Side::Copy);
        true
    }
}

/// `value` (a number, or nothing yet) plus `delta` hundredths.
fn add(value: Val, delta: i64) -> Val {
    match value {
        Val::Num(h) => Val::Num(h.saturating_add(delta)),
        _ => Val::Num(delta),
    }
}

/// What a side write is, for the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Aggregate,
    Copy,
    /// An aggregate committed in its call's transaction. Only a GSI too far behind to queue its
    /// entries refuses it after the prepare; keyheat then retries it alone (its simplification).
    InTransaction,
}

/// An aggregate item with its values after one triggering write.
pub(super) struct AggregateItem {
    pub entity: usize,
    pub ordinal: u32,
    pub current: Vec<Val>,
    pub changes: Vec<(u16, Val)>,
    /// A claim whose value an item holds already: that item's size. Nothing is written.
    pub taken: Option<u32>,
}

impl AggregateItem {
    /// The UpdateItem of it that `call` causes.
    pub fn write(&self, call: Call, resume: Option<&Resume>) -> ItemWrite<'_> {
        caused_update(self.entity, self.ordinal, &self.current, &self.changes, call, resume)
    }
}

/// The UpdateItem of an item that `call` causes besides its own write (an aggregate, a copy),
/// leaving it with `vals`: the call's cost though not its pattern's write, at the retry's time
/// when `resume` is one.
fn caused_update<'a>(
    entity: usize,
    ordinal: u32,
    vals: &'a [Val],
    changes: &'a [(u16, Val)],
    call: Call,
    resume: Option<&Resume>,
) -> ItemWrite<'a> {
    ItemWrite {
        entity,
        ordinal,
        vals: Some(vals),
        changes,
        pattern: None,
        caller: Some(call.pattern),
        now_ms: resume.map_or(call.time_ms, |r| r.at_ms),
        first: resume.is_none(),
        new_item: false,
        moved: false,
        condition: None,
    }
}
