//! Writes: a put writes a new item (a new ordinal, values from the seed); an update or delete
//! names an existing item (by its identity, or by the key the call's givens make) and an update
//! draws new values for the attributes it sets — or creates the item, as UpdateItem does. Every
//! write goes through `Table::write_into` with metering as its check; its new values become the
//! item's overrides only once it lands.

use std::cmp::Reverse;

use crate::engine::hash::combine;
use crate::engine::model::Action;

use super::locate::LOCATE_RETRY;
use super::transact::Transaction;
use super::{Call, Refused, Resume, Through};
use crate::engine::planner::Operation;
use crate::engine::sim::items::{Gen, Val, generate};
use crate::engine::sim::latency;
use crate::engine::sim::ledger::Row;
use crate::engine::sim::meter::{Refusal, WRITE};
use crate::engine::sim::regen::BirthInfo;
use crate::engine::sim::table::{PartKey, Placed, Touch, WriteRefused};
use crate::engine::sim::world::CondRt;
use crate::engine::sim::world::Origin;
use crate::engine::sim::{Born, Simulation, WriteBufs};

/// No ordinal (a retry of a request that did not allocate one).
pub(super) const NO_ORDINAL: u32 = u32::MAX;

/// How a write went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::engine::sim) enum WriteStatus {
    Done,
    Throttled,
    /// The item's table keys do not expand (a key attribute is missing).
    Invalid,
    /// ItemCollectionSizeLimitExceeded.
    Collection,
    /// ValidationException: the item would be larger than 400 KB.
    TooLarge,
    /// ConditionalCheckFailedException: a create-once put found its key taken (charged, and
    /// nothing written).
    ConditionFailed,
}

/// One item write.
#[derive(Debug, Clone, Copy)]
pub(in crate::engine::sim) struct ItemWrite<'a> {
    pub entity: usize,
    pub ordinal: u32,
    /// The item's values after the write; `None` deletes it.
    pub vals: Option<&'a [Val]>,
    /// Attribute values that become the item's overrides once the write lands.
    pub changes: &'a [(u16, Val)],
    /// The pattern whose call writes it (`None`: growth, aggregates, copies).
    pub pattern: Option<usize>,
    /// The pattern whose call caused it — its own write, or an aggregate, copy or append it
    /// brought — whose cost it is (`None`: growth and the preload).
    pub caller: Option<usize>,
    pub now_ms: u64,
    /// The request's first attempt (a refusal then counts as a throttled request).
    pub first: bool,
    /// A put of a new item (a pattern's put or a population's growth, of an entity whose puts
    /// are not upserts): an item of another identity at its key is replaced whole, without an
    /// error, and lost.
    pub new_item: bool,
    /// The put half of an update that moved its item to a new key (delete, then put): the item
    /// keeps its identity, TTL and copy registrations.
    pub moved: bool,
    /// The write's condition: a create-once put is refused (and charged) when an item holds
    /// its key.
    pub condition: Option<CondRt>,
}

/// One write call's request as it is sent: the item it writes, and how.
struct Sending<'a> {
    call: Call,
    entity: usize,
    target: &'a Target,
    vals: &'a [Val],
    now_ms: u64,
    /// The request's first attempt.
    first: bool,
    /// The embedding that makes a put an append to its parent.
    embed: Option<usize>,
    /// The update changes the item's key: a delete and a put.
    moves: bool,
    transaction: bool,
}

/// The item an update or delete names.
pub(super) struct Target {
    pub ordinal: u32,
    /// The call allocated it (an update of a missing item).
    pub created: bool,
    pub changes: Vec<(u16, Val)>,
}

impl Simulation {
    pub(super) fn write(&mut self, call: Call, resume: Option<Resume>) {
        let pattern = call.pattern;
        let action = self.world.patterns[pattern].action;
        let entity = self.world.patterns[pattern].entity;
        let now_ms = resume.map_or(call.time_ms, |r| r.at_ms);
        if let Some(r) = resume.filter(|r| r.request != 0 && r.request != LOCATE_RETRY) {
            self.retry_side(call, &r);
            return;
        }
        let Some(located_ms) = self.locate(call, resume.as_ref()) else { return };
        // After the read it retried, the write is sent for the first time.
        let relocated = resume.is_some_and(|r| r.request == LOCATE_RETRY);
        let resume = resume.map(|r| Resume { request: 0, ..r });
        let mut vals = std::mem::take(&mut self.scratch.vals);
        let Some(target) = self.call_target(call, resume.as_ref(), &mut vals) else {
            self.scratch.vals = vals;
            // The read sent first found no item: the call ends with it, writing nothing.
            if self.world.patterns[pattern].locate.is_some() {
                self.completed(call, resume.as_ref(), located_ms);
            }
            return;
        };
        if resume.is_none() || relocated {
            // A write call addresses its item's key: one, as its mean fan-out says.
            let stats = &mut self.figures.stats[pattern];
            stats.requests += 1;
            stats.fanout += 1;
            stats.max_fanout = stats.max_fanout.max(1);
            self.figures.totals.requests += 1;
        }
        let Some((versioned, read_ms)) = self.read_first(call, &target, &vals, now_ms, resume.as_ref())
        else {
            self.scratch.vals = vals;
            return;
        };
        let sending = Sending {
            call,
            entity,
            target: &target,
            vals: &vals,
            now_ms,
            first: resume.is_none() || relocated,
            embed: self.upkeep.embed_of(entity).filter(|_| action == Action::Put),
            moves: action == Action::Update && self.moves_key(entity, &target.changes),
            transaction: self.world.patterns[pattern].operation == Some(Operation::TransactWriteItems),
        };
        self.scratch.written = 0;
        self.scratch.transacted = 0;
        let status = self.send(&sending);
        let profile = self.world.engine.profile();
        // Two writes one after the other when the item moves; a transaction's rounds by how
        // the store commits (DynamoDB's prepare and commit, MongoDB's statements then commit).
        let rounds = match profile.transactions {
            Some(limits) if sending.transaction => limits.commit.rounds(self.scratch.transacted.max(1)),
            _ if sending.moves => 2.0,
            _ => 1.0,
        };
        let written = latency::write_extra_ms(profile.latency, self.scratch.written);
        let ms = located_ms + read_ms + rounds * latency::WRITE_MS + written;
        match status {
            WriteStatus::Done => {
                self.completed(call, resume.as_ref(), ms);
                self.call_landed(&sending, versioned);
            }
            WriteStatus::Throttled => {
                // A moving item's delete may have landed: its retry puts the same item. An item
                // found by the read sent first is the one the retry writes, without that read.
                let located = self.world.patterns[pattern].locate.is_some();
                let ordinal = if action == Action::Put || target.created || sending.moves || located {
                    target.ordinal
                } else {
                    NO_ORDINAL
                };
                let refused =
                    Refused { request: 0, now_ms, base_ms: ms, reports: true, ordinal, cursor: None };
                self.throttled(call, resume.as_ref(), refused);
            }
            WriteStatus::ConditionFailed
            | WriteStatus::Invalid
            | WriteStatus::Collection
            | WriteStatus::TooLarge => {
                self.write_failed(pattern, status);
                self.completed(call, resume.as_ref(), ms);
            }
        }
        self.scratch.vals = vals;
    }

    /// The call's request: an append to the parent that embeds the item whole, a transaction,
    /// a move to a new key, or the write of the item itself.
    fn send(&mut self, s: &Sending<'_>) -> WriteStatus {
        let pattern = s.call.pattern;
        let action = self.world.patterns[pattern].action;
        match s.embed {
            // Embedded whole: the child's put is the append to its parent.
            Some(e) if self.upkeep.embeds[e].plan.keep.is_none() => {
                self.append(e, s.target.ordinal, s.vals, (Some(pattern), pattern), s.now_ms, s.first)
            }
            _ if s.transaction => self.transact(&Transaction {
                call: s.call,
                entity: s.entity,
                target: s.target,
                vals: s.vals,
                now_ms: s.now_ms,
                first: s.first,
                moves: s.moves,
            }),
            _ if s.moves => self.move_item(s.entity, s.target, s.vals, pattern, s.now_ms, s.first),
            _ => self.write_item(ItemWrite {
                entity: s.entity,
                ordinal: s.target.ordinal,
                vals: (action != Action::Delete).then_some(s.vals),
                changes: &s.target.changes,
                pattern: Some(pattern),
                caller: Some(pattern),
                now_ms: s.now_ms,
                first: s.first,
                new_item: action == Action::Put && !self.world.entities[s.entity].upsert,
                moved: false,
                condition: self.world.patterns[pattern].condition.filter(|_| action == Action::Put),
            }),
        }
    }

    /// What a call whose write landed brings: its version recorded, its numbered attributes counted,
    /// and its side writes — the copies an update rewrites, the parent's kept copy of an
    /// embedded child, the aggregates it maintains.
    #[inline]
    fn call_landed(&mut self, s: &Sending<'_>, versioned: Option<u32>) {
        let action = self.world.patterns[s.call.pattern].action;
        if let Some(handle) = versioned {
            self.version_landed(handle, s.now_ms);
        }
        if action == Action::Put {
            self.numbered(s.entity, s.vals);
        }
        let side = Call { time_ms: s.now_ms, ..s.call };
        if action == Action::Update && !self.upkeep.copies.is_empty() {
            for &(attr, _) in &s.target.changes {
                self.rewrite_copies(s.entity, s.target.ordinal, usize::from(attr), side);
            }
        }
        if let Some(e) = s.embed.filter(|&e| self.upkeep.embeds[e].plan.keep.is_some()) {
            self.append_side(e, s.target.ordinal, s.vals, side, None);
        }
        // A transaction wrote its aggregates with its own item.
        if action != Action::Delete
            && !s.transaction
            && !self.world.patterns[s.call.pattern].aggregates.is_empty()
        {
            self.maintain_aggregates(s.entity, s.vals, s.target.ordinal, side);
        }
    }

    /// A version-checked update's read (and the race it may lose): the item's handle and the
    /// reads' time; `(None, 0)` for any other write, `None` when the read was throttled.
    fn read_first(
        &mut self,
        call: Call,
        target: &Target,
        vals: &[Val],
        now_ms: u64,
        resume: Option<&Resume>,
    ) -> Option<(Option<u32>, f64)> {
        let p = &self.world.patterns[call.pattern];
        if !(matches!(p.condition, Some(CondRt::Version(_))) && p.action == Action::Update) {
            return Some((None, 0.0));
        }
        let entity = p.entity;
        self.version_read(call, entity, target, vals, now_ms, resume)
    }

    /// The aggregate updates a landed write of `call`'s pattern brings: one per aggregated item,
    /// which the first aggregate of each entity names.
    fn maintain_aggregates(&mut self, entity: usize, vals: &[Val], ordinal: u32, call: Call) {
        let mut items: Vec<usize> = Vec::new();
        for a in 0..self.world.patterns[call.pattern].aggregates.len() {
            let aggregate = self.world.patterns[call.pattern].aggregates[a];
            if !items.contains(&self.upkeep.aggregates[aggregate].entity) {
                items.push(self.upkeep.aggregates[aggregate].entity);
                self.aggregate(aggregate, entity, vals, ordinal, call, None);
            }
        }
    }

    /// The item a write call writes, with its values after the call in `vals`: a put's new item
    /// (its ordinal kept across retries), or the item an update or delete names.
    fn call_target(&mut self, call: Call, resume: Option<&Resume>, vals: &mut Vec<Val>) -> Option<Target> {
        let pattern = call.pattern;
        let (action, entity) = (self.world.patterns[pattern].action, self.world.patterns[pattern].entity);
        let origin = Origin::Pattern(u16::try_from(pattern).unwrap_or(u16::MAX));
        match action {
            Action::Put => {
                let ordinal = match resume {
                    Some(r) => r.ordinal,
                    None => self.alloc_put(call, entity),
                };
                let birth = BirthInfo { origin, call: call.index, tick: call.tick, time_ms: call.time_ms };
                self.born_vals(entity, ordinal, birth, vals);
                let changes = self.number(entity, vals);
                Some(Target { ordinal, created: true, changes })
            }
            Action::Update | Action::Delete => self.target(call, action, resume, vals),
            Action::Get | Action::List => None,
        }
    }

    /// The new item of put call `call` of `entity`: its ordinal, born of the call.
    pub(super) fn alloc_put(&mut self, call: Call, entity: usize) -> u32 {
        let pattern = call.pattern;
        let origin = Origin::Pattern(u16::try_from(pattern).unwrap_or(u16::MAX));
        let (first, n) = (self.pacing.calls[pattern].first, self.pacing.calls[pattern].n);
        let born = Born {
            origin,
            call: call.index,
            tick: call.tick,
            tick_first: first,
            tick_calls: n,
            stepping: true,
        };
        self.alloc(entity, born)
    }

    /// Whether an update's changes touch the entity's table key. DynamoDB refuses an UpdateItem
    /// that sets a key attribute (ValidationException: the attribute is part of the key), and
    /// a Cassandra UPDATE cannot set a primary-key column: the application deletes the item
    /// and puts it at its new key.
    fn moves_key(&self, entity: usize, changes: &[(u16, Val)]) -> bool {
        let ent = &self.world.entities[entity];
        let keyed = |attr: usize| ent.pk.iter().chain(ent.sk.iter()).any(|t| t.attrs().any(|a| a == attr));
        changes.iter().any(|&(attr, _)| keyed(usize::from(attr)))
    }

    /// An update that changes a key attribute: a DeleteItem of the item where it is, then a
    /// PutItem of it, with its values so far and the update's, at its new key — two requests,
    /// each metered and charged. A refused delete refuses the call; a refused put leaves the
    /// item deleted until the retry puts it.
    fn move_item(
        &mut self,
        entity: usize,
        target: &Target,
        vals: &[Val],
        pattern: usize,
        now_ms: u64,
        first: bool,
    ) -> WriteStatus {
        let handle = self.world.handle(entity, target.ordinal);
        let changes = self.items.with_changes(handle, &target.changes);
        let delete = ItemWrite {
            entity,
            ordinal: target.ordinal,
            vals: None,
            changes: &[],
            pattern: Some(pattern),
            caller: Some(pattern),
            now_ms,
            first,
            new_item: false,
            moved: false,
            condition: None,
        };
        let status = self.write_item(delete);
        if status != WriteStatus::Done {
            return status;
        }
        if first {
            self.figures.stats[pattern].requests += 1;
            self.figures.totals.requests += 1;
        }
        self.write_item(ItemWrite {
            entity,
            ordinal: target.ordinal,
            vals: Some(vals),
            changes: &changes,
            pattern: Some(pattern),
            caller: Some(pattern),
            now_ms,
            first,
            new_item: false,
            moved: true,
            condition: None,
        })
    }

    /// Whether the store refuses this item for its size (DynamoDB: 400 KB). Cassandra has no
    /// such limit on a row (its guidance is about partitions).
    pub(in crate::engine::sim) fn too_large(&self, placed: &Placed) -> bool {
        self.too_large_size(placed.size)
    }

    /// Whether an item of `size` bytes is past the store's item limit.
    pub(in crate::engine::sim) fn too_large_size(&self, size: u32) -> bool {
        self.world.engine.profile().item_limit.is_some_and(|limit| size as usize > limit)
    }

    /// Numbers a new item's `Nth` attributes: one more than the items of the same member written
    /// so far. The changes become the item's overrides when it lands (`numbered` then counts it).
    #[expect(
        clippy::inline_always,
        reason = "per-write bookkeeping that is empty for most entities: LLVM left the call"
    )]
    #[inline(always)]
    fn number(&self, entity: usize, vals: &mut [Val]) -> Vec<(u16, Val)> {
        let mut changes = Vec::new();
        for &(attr, by) in &self.world.entities[entity].numbered {
            let Val::Member(member) = vals[by] else { continue };
            let n = self.items.nth.get(&(entity, by, member)).copied().unwrap_or(0) + 1;
            vals[attr] = Val::Num(i64::from(n) * 100);
            changes.push((u16::try_from(attr).unwrap_or(u16::MAX), vals[attr]));
        }
        changes
    }

    /// Counts a new item that landed in its members' numbering.
    #[expect(
        clippy::inline_always,
        reason = "per-write bookkeeping that is empty for most entities: LLVM left the call"
    )]
    #[inline(always)]
    fn numbered(&mut self, entity: usize, vals: &[Val]) {
        for &(_, by) in &self.world.entities[entity].numbered {
            if let Val::Member(member) = vals[by] {
                *self.items.nth.entry((entity, by, member)).or_default() += 1;
            }
        }
    }

    /// Counts a write of `pattern`'s call that was refused for good (not throttled). A refused
    /// condition is not a lost write: the caller learns the key is taken.
    pub(in crate::engine::sim) fn write_failed(&mut self, pattern: usize, status: WriteStatus) {
        if status == WriteStatus::ConditionFailed {
            self.create_refused(pattern);
            return;
        }
        self.figures.stats[pattern].failed += 1;
        self.figures.totals.failed += 1;
        self.figures.totals.failed_writes += 1;
        match status {
            WriteStatus::Collection => {
                self.figures.stats[pattern].collection_errors += 1;
                self.figures.totals.collection_errors += 1;
            }
            WriteStatus::TooLarge => {
                self.figures.stats[pattern].item_size_errors += 1;
                self.figures.totals.item_size_errors += 1;
            }
            WriteStatus::Done
            | WriteStatus::Throttled
            | WriteStatus::Invalid
            | WriteStatus::ConditionFailed => {}
        }
    }

    /// The item an update or delete names, with its values after the call in `vals` (an update
    /// sets fresh draws of its `sets`). An update of a missing item creates it (as UpdateItem
    /// does); a delete of one names nothing.
    fn target(
        &mut self,
        call: Call,
        action: Action,
        resume: Option<&Resume>,
        vals: &mut Vec<Val>,
    ) -> Option<Target> {
        let entity = self.world.patterns[call.pattern].entity;
        let located = self.scratch.located.take();
        let (named, existing) = self.named_row(call, located, vals)?;
        let (ordinal, created) = match existing {
            Some(row) if self.world.entity_of(row.id) == entity => (self.world.ordinal_of(row.id), false),
            Some(_) => return None,
            None if action == Action::Delete => return None,
            None => match (named, resume.map(|r| r.ordinal).filter(|&o| o != NO_ORDINAL)) {
                (Some(o), _) | (None, Some(o)) => (o, named.is_none()),
                (None, None) => {
                    let origin = Origin::Pattern(u16::try_from(call.pattern).unwrap_or(u16::MAX));
                    let born = Born {
                        origin,
                        call: call.index,
                        tick: call.tick,
                        tick_first: call.index,
                        tick_calls: 1,
                        stepping: false,
                    };
                    (self.alloc(entity, born), true)
                }
            },
        };
        self.current_vals(entity, ordinal, vals);
        let changes =
            if action == Action::Update { self.update_changes(call, entity, vals) } else { Vec::new() };
        Some(Target { ordinal, created, changes })
    }

    /// The ordinal of the item an update or delete names by its identity, or by the item the
    /// read it sent first found (`located`) — `None`: it names one by the key its givens make —
    /// and the row now at that key. `None` when the call names nothing: a member not yet
    /// written, or a key its givens cannot make.
    fn named_row(
        &self,
        call: Call,
        located: Option<u32>,
        vals: &mut Vec<Val>,
    ) -> Option<(Option<u32>, Option<Row>)> {
        let pattern = &self.world.patterns[call.pattern];
        let entity = pattern.entity;
        let ent = &self.world.entities[entity];
        let t_idx = ent.table?;
        if let Some((identity, _)) = ent.identity
            && pattern.givens.contains(&identity)
        {
            // The call names an item by its identity; its key comes from its values.
            let Val::Member(m) = self.given_val(call.pattern, identity, call.index, call.tick, call.time_ms)
            else {
                return None;
            };
            let ordinal = u32::try_from(m).ok().filter(|&o| o < ent.next)?;
            return Some(self.row_of(entity, t_idx, ordinal, vals));
        }
        if let Some(handle) = located.filter(|&h| self.world.entity_of(h) == entity) {
            return Some(self.row_of(entity, t_idx, self.world.ordinal_of(handle), vals));
        }
        let mut known = Vec::new();
        self.inputs(call, &mut known);
        let shards = (pattern.stream, call.index);
        let mut placed = Placed::default();
        // A key the call's givens cannot make names nothing.
        if !self.place_with(entity, ent.next, &known, Some(shards), &mut placed) {
            return None;
        }
        Some((None, self.storage.tables[t_idx].current(&placed)))
    }

    /// Item `ordinal`, named: its values in `vals`, and the row now at its key.
    fn row_of(
        &self,
        entity: usize,
        t_idx: usize,
        ordinal: u32,
        vals: &mut Vec<Val>,
    ) -> (Option<u32>, Option<Row>) {
        let mut placed = Placed::default();
        self.current_vals(entity, ordinal, vals);
        // If another item now holds its key, that one is written.
        let row = self
            .place(entity, ordinal, vals, &mut placed)
            .then(|| self.storage.tables[t_idx].current(&placed));
        (Some(ordinal), row.flatten())
    }

    /// An update's changes to the item's values `vals`, applied to them: fresh draws of its
    /// `sets`, a sliding expiry, and the next version.
    fn update_changes(&self, call: Call, entity: usize, vals: &mut [Val]) -> Vec<(u16, Val)> {
        let pattern = &self.world.patterns[call.pattern];
        let mut changes = Vec::new();
        let set = |vals: &mut [Val], changes: &mut Vec<(u16, Val)>, attr: usize, value: Val| {
            vals[attr] = value;
            changes.push((u16::try_from(attr).unwrap_or(u16::MAX), value));
        };
        let secs = i64::try_from(call.time_ms / 1000).unwrap_or(0);
        for &attr in &pattern.sets {
            let a = &self.world.entities[entity].attrs[attr];
            let stream = combine(&[pattern.stream, 0x5e7, attr as u64]);
            let value = match (&a.source, vals[attr]) {
                // A lifecycle moves to its next state, not a fresh draw; the last state stays.
                (Gen::States(n), Val::Choice(i)) => Val::Choice((i + 1).min(n.saturating_sub(1))),
                _ => match generate(&a.source, self.seed, stream, call.index, secs, a.ty) {
                    Val::Absent => vals[attr],
                    value => value,
                },
            };
            set(vals, &mut changes, attr, value);
        }
        // A sliding expiry: SET expires_at = now + ttl, on every touch.
        if let (Some(ttl), Some(attr)) = (pattern.ttl_secs, self.world.entities[entity].added.ttl) {
            set(vals, &mut changes, attr, Val::time(secs.saturating_add(ttl)));
        }
        // SET version = version + 1 (numbers are held in hundredths).
        if let Some(CondRt::Version(attr)) = pattern.condition {
            let next = match vals[attr] {
                Val::Num(h) => Val::Num(h.saturating_add(100)),
                _ => Val::Num(100),
            };
            set(vals, &mut changes, attr, next);
        }
        changes
    }

    /// The item now at `placed`'s key, placed (regenerated when its index entries or Scan marks
    /// matter), with its values in `old_vals`.
    fn old_item(&self, t_idx: usize, placed: &Placed, old_vals: &mut Vec<Val>, out: &mut Placed) -> bool {
        let Some(row) = self.storage.tables[t_idx].current(placed) else { return false };
        if self.old_values_matter(t_idx) {
            let (entity, ordinal) = (self.world.entity_of(row.id), self.world.ordinal_of(row.id));
            self.current_vals(entity, ordinal, old_vals);
            if !self.place(entity, ordinal, old_vals, out) {
                return false;
            }
        } else {
            old_vals.clear();
            out.entries.clear();
            out.id = row.id;
        }
        // The old item sits where the row is.
        out.pk.clone_from(&placed.pk);
        out.sk.clone_from(&placed.sk);
        out.size = row.size;
        true
    }

    /// Writes (or deletes) one item through its table, metered.
    pub(in crate::engine::sim) fn write_item(&mut self, write: ItemWrite<'_>) -> WriteStatus {
        let entity = write.entity;
        let Some(t_idx) = self.world.entities[entity].table else { return WriteStatus::Invalid };
        let mut bufs = self.scratch.write.take().unwrap_or_default();
        let WriteBufs { placed, old_placed, old_vals } = &mut *bufs;
        let status = self.write_placed(write, t_idx, placed, old_placed, old_vals);
        self.scratch.write = Some(bufs);
        status
    }

    /// Writes (or deletes) one item through its table, metered, with the scratch buffers of
    /// `write_item`: the item placed at its key, and the item that held that key before.
    fn write_placed(
        &mut self,
        write: ItemWrite<'_>,
        t_idx: usize,
        placed: &mut Placed,
        old_placed: &mut Placed,
        old_vals: &mut Vec<Val>,
    ) -> WriteStatus {
        let mut current = Vec::new();
        let key_vals = if let Some(v) = write.vals {
            v
        } else {
            self.current_vals(write.entity, write.ordinal, &mut current);
            &current
        };
        if !self.place(write.entity, write.ordinal, key_vals, placed) {
            return WriteStatus::Invalid;
        }
        if write.vals.is_some() && self.too_large(placed) {
            // Refused before it is written: AWS documents no charge for a ValidationException,
            // so none is made (keyheat's reading).
            return WriteStatus::TooLarge;
        }
        // A write that needs nothing of the item it replaces until it lands learns which item
        // that was from the row its put replaced, rather than looking the key up first.
        let late = self.old_after(t_idx, &write);
        let has_old = !late && self.old_item(t_idx, placed, old_vals, old_placed);
        let old = has_old.then_some(&*old_placed);
        if let Some(status) = self.refuse_taken_key(t_idx, &write, placed, old) {
            return status;
        }
        if write.vals.is_none() && old.is_none() {
            // Deleting nothing still costs one write unit; it changes nothing.
            return WriteStatus::Done;
        }
        let new = write.vals.is_some().then_some(&*placed);
        let before = self.before_write(old.map(|o| o.id));
        let mut refused: Option<(usize, Refusal)> = None;
        let result =
            self.write_through(t_idx, Through { old, new, now_ms: write.now_ms, free: false }, &mut refused);
        let touches = std::mem::take(&mut self.storage.touches);
        let status = match result {
            Ok(applied) => {
                let old = if late {
                    // What `old_item` keeps when nothing is regenerated: the handle.
                    applied.replaced.map(|row| (row.id, &[][..]))
                } else {
                    old.map(|o| (o.id, old_vals.as_slice()))
                };
                self.landed(t_idx, &touches, applied.entry_writes, write, old, placed);
                if self.observing() {
                    self.tell_write(t_idx, &write, before, true);
                }
                WriteStatus::Done
            }
            Err(WriteRefused::Throttled) => {
                if let Some((group, refusal)) = refused {
                    self.refused(group, refusal, [&placed.pk], write.first);
                }
                WriteStatus::Throttled
            }
            Err(WriteRefused::CollectionLimit { .. }) => WriteStatus::Collection,
        };
        self.storage.touches = touches;
        status
    }

    /// Whether the item a write replaces in table `t_idx` is needed with its values (regenerated
    /// by `old_item`): to move its index entries, to unmark it for a Scan's filter, to rewrite
    /// copies. Without any of them only its handle and size are.
    fn old_values_matter(&self, t_idx: usize) -> bool {
        !self.world.tables[t_idx].indexes.is_empty()
            || !self.upkeep.scan_marks[t_idx].is_empty()
            || !self.upkeep.copies.is_empty()
    }

    /// Whether a write may learn the item it replaces from the row it replaced, instead of
    /// `old_item` looking the key up before it writes: a write that stores values (a put, an
    /// update, an aggregate, an append, a grown member's item) without a condition, unobserved,
    /// into a table of a store of blind writes (Cassandra) whose old values do not matter
    /// (`old_values_matter`). Before such a write lands nothing reads the old item: Cassandra
    /// meters no units (DynamoDB's are
    /// max(old, new)), there are no index entries to move and no collection to size, and
    /// `old_item` would keep only its handle, which `landed` then gets from the replaced row
    /// instead. Decided per write from facts fixed at setup, so the two paths share every step
    /// after it.
    fn old_after(&self, t_idx: usize, write: &ItemWrite<'_>) -> bool {
        self.world.engine.profile().blind_writes
            && write.vals.is_some()
            && write.condition.is_none()
            && !self.observing()
            && !self.old_values_matter(t_idx)
    }

    /// A create-once put whose key another item holds: attribute_not_exists fails, charged,
    /// nothing written, nothing lost. `None` when the write goes ahead.
    fn refuse_taken_key(
        &mut self,
        t_idx: usize,
        write: &ItemWrite<'_>,
        placed: &Placed,
        old: Option<&Placed>,
    ) -> Option<WriteStatus> {
        let old = old.filter(|old| write.condition == Some(CondRt::NotExists) && old.id != placed.id)?;
        Some(self.condition_failed(t_idx, &placed.pk, (old.size, placed.size), write.caller, write.first))
    }

    /// A create-once condition that found its key taken, at `pk` in table `t_idx`: charged as a
    /// failed conditional write of the item there and the one refused, `sizes` (before, after);
    /// `Throttled` when the partition refuses even that charge.
    pub(super) fn condition_failed(
        &mut self,
        t_idx: usize,
        pk: &PartKey,
        sizes: (u32, u32),
        caller: Option<usize>,
        first: bool,
    ) -> WriteStatus {
        let units = self.world.engine.profile().metering.failed_write(u64::from(sizes.0), u64::from(sizes.1));
        if self.charge_unchanged(t_idx, pk, WRITE, units, caller, first) {
            WriteStatus::ConditionFailed
        } else {
            WriteStatus::Throttled
        }
    }

    /// The bookkeeping of a write that landed at `placed`'s key over `old` (the handle and
    /// values of the item that held it): units and loads, Scan marks, overrides, the largest
    /// item, and a new item's TTL, copies and overwrite count.
    fn landed(
        &mut self,
        t_idx: usize,
        touches: &[Touch],
        entry_writes: u32,
        write: ItemWrite<'_>,
        old: Option<(u32, &[Val])>,
        placed: &Placed,
    ) {
        let old_handle = old.map(|(h, _)| h);
        self.after_write(t_idx, touches, entry_writes, &write);
        self.update_marks(t_idx, touches[0].partition, old, write);
        if let Some(h) = old_handle
            && (write.vals.is_none() || h != placed.id)
        {
            self.items.overrides.remove(&h);
        }
        // A document deleted or replaced at its key (not moved) takes its multikey entries.
        if let Some(h) = old_handle
            && !self.upkeep.multikeys.is_empty()
            && !write.moved
            && (write.vals.is_none() || h != placed.id || write.new_item)
        {
            self.unindex_parent(h, true);
        }
        self.items.keep_changes(placed.id, write.changes);
        if write.vals.is_some() {
            self.figures.totals.largest_item = self.figures.totals.largest_item.max(placed.size);
            // A new version of a document already at the key: an update of it, or a put that
            // replaces it under a new handle; the server builds either whole.
            if old_handle.is_some() {
                self.figures.totals.rewrites += 1;
                self.figures.totals.rewritten_bytes += u64::from(placed.size);
            }
            if write.pattern.is_some() {
                self.scratch.written += u64::from(placed.size);
            }
        }
        if let Some(vals) = write.vals
            && old_handle != Some(placed.id)
            && !write.moved
        {
            self.after_new_item(write.entity, write.ordinal, vals);
            if write.new_item && old_handle.is_some() {
                self.figures.overwrote(write.pattern);
            }
        }
    }

    /// Keeps the ledger marks of Scans with constant filters: an item written gains or loses
    /// the mark as its values match or not.
    #[expect(
        clippy::inline_always,
        reason = "per-write bookkeeping that is empty for most entities: LLVM left the call"
    )]
    #[inline(always)]
    fn update_marks(
        &mut self,
        t_idx: usize,
        partition: u32,
        old: Option<(u32, &[Val])>,
        write: ItemWrite<'_>,
    ) {
        for k in 0..self.upkeep.scan_marks[t_idx].len() {
            let before = old.is_some_and(|(handle, vals)| {
                self.mark_matches(t_idx, k, self.world.entity_of(handle), vals)
            });
            let after = write.vals.is_some_and(|vals| self.mark_matches(t_idx, k, write.entity, vals));
            if before != after {
                self.storage.tables[t_idx].base.mark(partition, k, if after { 1 } else { -1 });
            }
        }
    }

    /// Bookkeeping of a new item: its TTL expiry and, for copy holders, its source.
    #[expect(
        clippy::inline_always,
        reason = "per-write bookkeeping that is empty for most entities: LLVM left the call"
    )]
    #[inline(always)]
    fn after_new_item(&mut self, entity: usize, ordinal: u32, vals: &[Val]) {
        let handle = self.world.handle(entity, ordinal);
        if let Some(attr) = self.world.entities[entity].added.ttl
            && let Some(expires) = vals[attr].secs()
        {
            self.items.ttl[entity].push(Reverse((expires, handle)));
        }
        for (c, copy) in self.upkeep.copies.iter().enumerate() {
            if copy.to == entity
                && let Val::Member(m) = vals[copy.by_attr]
            {
                self.items.copy_holders[c].entry(m).or_default().push(handle);
            }
        }
    }

    /// Units, loads and bytes of a write that landed.
    fn after_write(&mut self, t_idx: usize, touches: &[Touch], entry_writes: u32, write: &ItemWrite<'_>) {
        let profile = self.world.engine.profile();
        let metered = profile.metered();
        let units: f64 = touches.iter().map(|t| t.units).sum();
        self.figures.totals.item_writes += 1;
        self.figures.totals.entry_writes += u64::from(entry_writes);
        if write.pattern.is_some() {
            self.figures.totals.base_writes += 1;
        }
        // A call's aggregates, copies and appends are its cost too, as `check` counts them.
        match write.caller {
            Some(pattern) if metered => {
                let call = Call { pattern, index: 0, tick: self.pacing.tick, time_ms: 0 };
                self.spend(call, WRITE, units);
            }
            None if metered => self.figures.totals.units[WRITE] += units,
            _ => {}
        }
        for (k, touch) in touches.iter().enumerate() {
            let group = self.storage.group_of[t_idx][touch.group];
            if touch.group > 0 {
                self.storage.groups[group].entry_writes += 1;
            }
            if metered {
                self.storage.groups[group].units[WRITE] += touch.units;
            }
            self.touch(group, touch.partition, WRITE, if metered { touch.units } else { 1.0 }, 0);
            if let Some((_, replicas, _)) = profile.ring()
                && touch.group == 0
            {
                self.node_load(touch.hash, replicas, 0);
            }
            let first =
                !touches[..k].iter().any(|t| t.group == touch.group && t.partition == touch.partition);
            if first {
                self.settle(group, touch.partition);
            }
        }
    }

    /// The preload: an initial item, written for free (the table was loaded before the run).
    pub(in crate::engine::sim) fn write_free(&mut self, entity: usize, ordinal: u32) {
        let Some(birth) = self.birth(entity, ordinal) else { return };
        let mut vals = Vec::new();
        self.born_vals(entity, ordinal, birth, &mut vals);
        let changes = self.number(entity, &mut vals);
        let Some(t_idx) = self.world.entities[entity].table else { return };
        let mut placed = Placed::default();
        if !self.place(entity, ordinal, &vals, &mut placed) {
            return;
        }
        // An item past 400 KB could not have been loaded either: counted, so the report says so.
        if self.too_large(&placed) {
            self.figures.totals.preload_refused += 1;
            return;
        }
        let (mut old_vals, mut old_placed) = (Vec::new(), Placed::default());
        let old = self.old_item(t_idx, &placed, &mut old_vals, &mut old_placed).then_some(&old_placed);
        let old_handle = old.map(|o| o.id);
        let before = self.before_write(old_handle);
        let written = self
            .write_through(
                t_idx,
                Through { old, new: Some(&placed), now_ms: self.pacing.start_ms, free: true },
                &mut None,
            )
            .is_ok();
        let touches = std::mem::take(&mut self.storage.touches);
        if written {
            self.figures.totals.largest_item = self.figures.totals.largest_item.max(placed.size);
            let write = ItemWrite {
                entity,
                ordinal,
                vals: Some(&vals),
                changes: &[],
                pattern: None,
                caller: None,
                now_ms: self.pacing.start_ms,
                first: true,
                new_item: true,
                moved: false,
                condition: None,
            };
            if !self.world.entities[entity].upsert && old_handle.is_some_and(|h| h != placed.id) {
                self.figures.totals.preload_overwritten += 1;
            }
            self.update_marks(
                t_idx,
                touches[0].partition,
                old_handle.map(|h| (h, old_vals.as_slice())),
                write,
            );
            self.after_new_item(entity, ordinal, &vals);
            if self.observing() {
                self.tell_write(t_idx, &write, before, false);
            }
            if !changes.is_empty() {
                self.items.overrides.insert(placed.id, changes);
                self.numbered(entity, &vals);
            }
        }
        self.storage.touches = touches;
    }

    /// A member a population gained by growth: its item, written as a metered PutItem outside
    /// any pattern.
    pub(in crate::engine::sim) fn write_growth(&mut self, entity: usize, ordinal: u32, tick: u32) {
        let Some(birth) = self.birth(entity, ordinal) else { return };
        let mut vals = Vec::new();
        self.born_vals(entity, ordinal, birth, &mut vals);
        let changes = self.number(entity, &mut vals);
        self.figures.totals.requests += 1;
        self.figures.totals.growth_writes += 1;
        let write = ItemWrite {
            entity,
            ordinal,
            vals: Some(&vals),
            changes: &changes,
            pattern: None,
            caller: None,
            now_ms: self.pacing.tick_start(tick),
            first: true,
            new_item: !self.world.entities[entity].upsert,
            moved: false,
            condition: None,
        };
        match self.write_item(write) {
            WriteStatus::Done => self.numbered(entity, &vals),
            status => {
                // Growth has no pattern to charge; its refusals still count.
                self.figures.totals.failed += 1;
                self.figures.totals.failed_writes += 1;
                if status == WriteStatus::TooLarge {
                    self.figures.totals.item_size_errors += 1;
                }
            }
        }
    }
}
