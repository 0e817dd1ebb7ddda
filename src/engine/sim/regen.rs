//! Making items from the seed: the values an item was born with (or has now, with its overrides),
//! the values a call gives, and where an item sits (its [`Placed`]: keys, size, index entries).

use crate::engine::hash::{combine, mix64};
use crate::engine::model::Action;
use crate::engine::profile::{IndexEntries, Sizing, json};
use crate::engine::value::KeyType;
use crate::engine::workload::Popularity;

use super::Simulation;
use super::items::{Gen, Val, field_size, generate, generate_own, value_size};
use super::keys::{Codec, SortBuf, push_component, push_number};
use super::table::{Entry, PartKey, Placed};
use super::templates::{Memo, Slot, TemplatePlan, expand};
use super::world::{Birth, BornStep, EntityRt, EntryPlan, IndexRt, Origin, PatternRt, Projected, member_pop};

/// One item being placed, and what every step of placing it shares: whose it is and in which
/// table, its values, the writer's shard draws and the scratch text its key templates expand
/// into (one buffer, reused from call to call).
struct Placing<'k> {
    entity: usize,
    table: usize,
    vals: &'k [Val],
    shard: &'k mut dyn FnMut(u32, u32) -> u32,
    text: &'k mut String,
}

/// An item's entry position in one index, before its size is known.
struct EntryKey<'w> {
    pk: PartKey,
    key: Vec<u8>,
    /// The index key attributes the item carries: (name, value bytes).
    names: Vec<(&'w str, usize)>,
}

/// Members of one entity whose partition keys are memoized (`Scratch::pk_memo`).
const MEMO_MEMBERS: usize = 1 << 20;

/// Where and when an item was born.
#[derive(Debug, Clone, Copy)]
pub struct BirthInfo {
    pub origin: Origin,
    pub call: u64,
    pub tick: u32,
    pub time_ms: u64,
}

fn val_hash(v: Val) -> u64 {
    match v {
        Val::Absent => 0,
        Val::Member(m) => mix64(m ^ 1),
        Val::Num(h) => mix64(h.cast_unsigned() ^ 2),
        Val::Choice(i) => mix64(u64::from(i) ^ 3),
        Val::Payload(len, salt) => mix64((u64::from(len) << 32 | u64::from(salt)) ^ 4),
        Val::Bool(b) => mix64(u64::from(b) ^ 5),
        Val::List(bytes, count) => mix64((u64::from(bytes) << 32 | u64::from(count)) ^ 6),
    }
}

/// The distribution a call of `pattern` picks its value of attribute `attr` by, when that is a
/// member of a population: the pattern's `keys` for its first given, else none (the
/// population's own popularity).
pub(super) fn keys_of(pattern: &PatternRt, attr: usize) -> Option<&Popularity> {
    pattern.keys.as_ref().filter(|_| pattern.givens.first() == Some(&attr))
}

impl Simulation {
    pub(super) fn birth(&self, entity: usize, ordinal: u32) -> Option<BirthInfo> {
        let births = &self.world.entities[entity].births;
        let i = births.partition_point(|b| b.first <= ordinal);
        let b: &Birth = births.get(i.checked_sub(1)?)?;
        if ordinal >= self.world.entities[entity].next {
            return None;
        }
        let call = if b.stepping { b.call + u64::from(ordinal - b.first) } else { b.call };
        let time_ms = match b.origin {
            Origin::Initial => self.pacing.start_ms,
            Origin::Growth | Origin::Aggregate => self.pacing.tick_start(b.tick),
            Origin::Pattern(_) => self.pacing.call_time(b.tick, call - b.tick_first, b.tick_calls),
        };
        Some(BirthInfo { origin: b.origin, call, tick: b.tick, time_ms })
    }

    /// A member of population `pop` for a draw of stream `stream`, as the population stood at the
    /// start of `tick`, by `popularity` (the population's own when `None`).
    pub(super) fn pick_member(
        &self,
        pop: usize,
        popularity: Option<&Popularity>,
        stream: u64,
        index: u64,
        tick: u32,
    ) -> Option<u64> {
        let p = &self.world.pops[pop];
        if tick == self.pacing.tick && popularity.is_none() {
            return p.pick(self.seed, stream, index);
        }
        let n = p.size_at(tick);
        popularity.unwrap_or(&p.popularity).pick(n, self.seed, stream, index)
    }

    /// The value call `call` of pattern `p` gives for attribute `attr` of its entity.
    pub(super) fn given_val(&self, p: usize, attr: usize, call: u64, tick: u32, time_ms: u64) -> Val {
        let pattern = &self.world.patterns[p];
        let a = &self.world.entities[pattern.entity].attrs[attr];
        let stream = pattern.given_streams[attr];
        if let Some(pop) = member_pop(&a.source) {
            let keys = keys_of(pattern, attr);
            if let Some(val) = keys.and_then(|_| self.keyed_pick(p, stream, call, tick)) {
                return val;
            }
            return self.pick_member(pop, keys, stream, call, tick).map_or(Val::Absent, Val::Member);
        }
        let secs = i64::try_from(time_ms / 1000).unwrap_or(i64::MAX);
        generate(&a.source, self.seed, stream, call, secs, a.ty)
    }

    /// The member call `call` of pattern `p` gives for its first given, picked by the pattern's
    /// `keys` distribution from stream `stream`, when the open tick's picker holds for it (the
    /// call is of the open tick); `None` sends the caller to `pick_member`. Inlined: called, it
    /// returned its `Option<Val>` through the stack a field at a time, and the caller's one
    /// wide load of it waited for both stores (a tenth of a plain put's fill).
    #[inline(always)]
    #[expect(clippy::inline_always, reason = "a call returns its Option<Val> through the stack")]
    pub(super) fn keyed_pick(&self, p: usize, stream: u64, call: u64, tick: u32) -> Option<Val> {
        let picker = self.pacing.keys_pickers[p].as_ref().filter(|_| tick == self.pacing.tick)?;
        Some(picker.pick(self.seed, stream, call).map_or(Val::Absent, Val::Member))
    }

    /// The values item `ordinal` of `entity` was born with, into `out`.
    pub(super) fn born_vals(&self, entity: usize, ordinal: u32, birth: BirthInfo, out: &mut Vec<Val>) {
        let ent = &self.world.entities[entity];
        out.clear();
        out.resize(ent.attrs.len(), Val::Absent);
        let secs = i64::try_from(birth.time_ms / 1000).unwrap_or(i64::MAX);
        // Steps compiled once (`world::born_steps`); a call's givens are filled in below.
        let steps = match birth.origin {
            Origin::Pattern(p) => &self.world.patterns[usize::from(p)].born,
            _ => &ent.born,
        };
        for &(i, step) in steps {
            let a = &ent.attrs[i];
            out[i] = match step {
                BornStep::Ordinal => Val::Member(u64::from(ordinal)),
                BornStep::Member(pop) => self
                    .pick_member(pop, None, a.stream, u64::from(ordinal), birth.tick)
                    .map_or(Val::Absent, Val::Member),
                BornStep::Drawn => {
                    generate_own(a, self.draw_keys[entity][i], self.seed, u64::from(ordinal), secs)
                }
            };
        }
        if let Origin::Pattern(p) = birth.origin {
            let identity = ent.identity.map(|(a, _)| a);
            let p = usize::from(p);
            for &g in &self.world.patterns[p].givens {
                let is_new_identity = identity == Some(g) && matches!(ent.attrs[g].source, Gen::New(_));
                if !is_new_identity {
                    out[g] = self.given_val(p, g, birth.call, birth.tick, birth.time_ms);
                }
            }
            // A put's `equals` fixes the value it writes (`status: "PLACED"` on a new order).
            if self.world.patterns[p].action == Action::Put {
                for &(attr, value) in &self.world.patterns[p].equals {
                    out[attr] = value;
                }
            }
            // The writer's own expiry (`ttl` on the pattern) replaces the variant's lifetime.
            if let (Some(ttl), Some(attr)) = (self.world.patterns[p].ttl_secs, ent.added.ttl) {
                out[attr] = Val::time(secs.saturating_add(ttl));
            }
        }
        // Copies: the source item's value now (an item is written with the current value).
        for &(i, c) in &ent.copies {
            out[i] = self.copy_source_val(c, out).unwrap_or(Val::Absent);
        }
    }

    /// One attribute of item `ordinal` as it is now, without regenerating the others when it is
    /// drawn on its own (a payload, a number, a choice…): what a filter on one attribute reads.
    pub(super) fn current_val(&self, entity: usize, ordinal: u32, attr: usize) -> Val {
        let handle = self.world.handle(entity, ordinal);
        if let Some(&(_, val)) =
            self.items.overrides.get(&handle).and_then(|c| c.iter().find(|(a, _)| usize::from(*a) == attr))
        {
            return val;
        }
        let a = &self.world.entities[entity].attrs[attr];
        let Some(birth) = self.birth(entity, ordinal) else { return Val::Absent };
        let given = match birth.origin {
            Origin::Pattern(p) => {
                let p = &self.world.patterns[usize::from(p)];
                p.givens.contains(&attr)
                    || (p.action == Action::Put && p.equals.iter().any(|&(a, _)| a == attr))
            }
            _ => false,
        };
        if given || matches!(a.source, Gen::Pick(_) | Gen::New(_) | Gen::Copy(_) | Gen::Kept) {
            let mut vals = Vec::new();
            self.current_vals(entity, ordinal, &mut vals);
            return vals[attr];
        }
        let secs = i64::try_from(birth.time_ms / 1000).unwrap_or(i64::MAX);
        generate_own(a, self.draw_keys[entity][attr], self.seed, u64::from(ordinal), secs)
    }

    /// The value a copy holder gets: the source item (the member of the source entity's own
    /// population that the holder's `by` attribute names) and its attribute.
    pub(super) fn copy_source_val(&self, copy: usize, holder: &[Val]) -> Option<Val> {
        let plan = self.upkeep.copies.get(copy)?;
        let Val::Member(member) = holder[plan.by_attr] else { return None };
        let ordinal = u32::try_from(member).ok()?;
        let from = &self.world.entities[plan.from];
        if ordinal >= from.next {
            return None;
        }
        let mut vals = Vec::new();
        self.current_vals(plan.from, ordinal, &mut vals);
        Some(vals[plan.from_attr])
    }

    /// The values item `ordinal` of `entity` has now: born values plus overrides.
    pub(super) fn current_vals(&self, entity: usize, ordinal: u32, out: &mut Vec<Val>) {
        if let Some(birth) = self.birth(entity, ordinal) {
            self.born_vals(entity, ordinal, birth, out);
        } else {
            out.clear();
            out.resize(self.world.entities[entity].attrs.len(), Val::Absent);
        }
        if let Some(changes) = self.items.overrides.get(&self.world.handle(entity, ordinal)) {
            for &(attr, val) in changes {
                out[usize::from(attr)] = val;
            }
        }
    }

    /// What the writer's shard draws of an item come from: the call that wrote it, or for
    /// items no call wrote, the entity and the ordinal.
    pub(super) fn shard_key(&self, entity: usize, ordinal: u32) -> (u64, u64) {
        match self.birth(entity, ordinal) {
            Some(BirthInfo { origin: Origin::Pattern(p), call, .. }) => {
                (self.world.patterns[usize::from(p)].stream, call)
            }
            _ => (self.world.entities[entity].attrs.first().map_or(0, |a| a.stream), u64::from(ordinal)),
        }
    }

    /// The writer's draw for shard slot `slot` (of `count` shards) under a shard key.
    pub(super) fn shard_draw(&self, key: (u64, u64), slot: u32, count: u32) -> u32 {
        let index = combine(&[key.1, u64::from(slot)]);
        let draw =
            crate::engine::workload::below(self.seed, key.0 ^ 0x5348_4152_4421, index, u64::from(count));
        u32::try_from(draw).unwrap_or(0)
    }

    /// Bytes a key takes as an attribute value (S text, N number, B bytes), as the store sizes
    /// values: DynamoDB's rules, or JSON's (a quoted string, decimal text, base64).
    fn key_size(&self, key_type: KeyType, text: &str) -> usize {
        key_size(self.world.engine.profile().sizing, key_type, text)
    }

    /// Where item `ordinal` of `entity` with values `vals` sits: keys, size, index entries.
    /// `None` when its table keys do not expand (the item lacks a key attribute).
    pub(super) fn place(&self, entity: usize, ordinal: u32, vals: &[Val], out: &mut Placed) -> bool {
        self.place_with(entity, ordinal, vals, None, out)
    }

    /// The entry child `ordinal` of `entity` (values `vals`), embedded in the parent placed at
    /// `parent`, keys in index `index` of table `table` (a multikey index over the parent's
    /// list): its position from the child's values, the parent's table key as the tie, sized as
    /// the store sizes an entry. `None` when the child lacks a key value.
    pub(super) fn element_entry(
        &self,
        (entity, ordinal): (usize, u32),
        vals: &[Val],
        (table, index): (usize, usize),
        parent: &Placed,
    ) -> Option<Entry> {
        let plan = self.world.entities[entity].entries.get(index)?.as_ref()?;
        let rt = &self.world.tables[table].indexes[index];
        let mut shard = |slot: u32, count: u32| self.shard_draw(self.shard_key(entity, ordinal), slot, count);
        let mut text = String::new();
        let mut item = Placing { entity, table, vals, shard: &mut shard, text: &mut text };
        let position = self.entry_position(&mut item, plan, rt, parent)?;
        Some(self.entry_of(&item, plan, position, &[], 0))
    }

    /// The partition key of a template that reads one member attribute (and perhaps one
    /// formatted time) and literals, from a memo: it is the same text every time that member
    /// writes (in that day, hour… of the time).
    fn memo_key(
        &self,
        entity: usize,
        memo: crate::engine::sim::templates::Memo,
        pk: &TemplatePlan,
        vals: &[Val],
        out: &mut PartKey,
    ) -> bool {
        let Some((member, quantum)) = memo_slot(memo, vals) else { return false };
        let mut memo = self.scratch.pk_memo.borrow_mut();
        let Ok(slot) = usize::try_from(member) else { return false };
        if slot >= MEMO_MEMBERS {
            return false;
        }
        let entries = &mut memo[entity];
        if entries.len() <= slot {
            entries.resize(slot + 1, None);
        }
        if let Some((q, hash, text)) = &entries[slot]
            && *q == quantum
        {
            out.key_type = pk.key_type;
            out.text.clear();
            out.text.extend_from_slice(text);
            out.hash = *hash;
            return true;
        }
        let mut text = String::new();
        let ent = &self.world.entities[entity];
        if expand(pk, &ent.attrs, vals, &self.world.pops, &mut |_, _| 0, &mut text).is_none() {
            return false;
        }
        out.set(pk.key_type, text.as_bytes());
        entries[slot] = Some((quantum, out.hash, text.into_bytes().into_boxed_slice()));
        true
    }

    /// `place` with the writer's shards drawn from `shard_key` (a call about to write), or from
    /// the item's birth when `None`.
    pub(super) fn place_with(
        &self,
        entity: usize,
        ordinal: u32,
        vals: &[Val],
        shard_key: Option<(u64, u64)>,
        out: &mut Placed,
    ) -> bool {
        let Some(table) = self.world.entities[entity].table else { return false };
        let key_cell = std::cell::Cell::new(shard_key);
        let mut shard = |slot: u32, count: u32| {
            let key = key_cell.get().unwrap_or_else(|| {
                let key = self.shard_key(entity, ordinal);
                key_cell.set(Some(key));
                key
            });
            self.shard_draw(key, slot, count)
        };
        let mut text = std::mem::take(&mut *self.scratch.text.borrow_mut());
        let mut item = Placing { entity, table, vals, shard: &mut shard, text: &mut text };
        let placed = self.place_item(&mut item, out);
        *self.scratch.text.borrow_mut() = text;
        if placed {
            out.id = self.world.handle(entity, ordinal);
        }
        placed
    }

    /// The item's keys, index entries and size into `out`; false when a key template lacks a
    /// value. On DynamoDB the key attributes count towards the item's size, so their sizes are
    /// gathered as each key is expanded.
    fn place_item(&self, item: &mut Placing<'_>, out: &mut Placed) -> bool {
        let world = &self.world;
        let Some(pk_type) = self.place_pk(item, out) else { return false };
        let table = &world.tables[item.table];
        let mut key_attrs: Vec<(&str, usize)> = Vec::new();
        if world.engine.profile().key_attributes {
            key_attrs.push((&table.pk_name, self.key_size(pk_type, item.text)));
        }
        if self.place_sk(item, &mut key_attrs, out).is_none() {
            return false;
        }
        let sizing = world.engine.profile().sizing;
        let attrs: usize = sizing.document_overhead()
            + world.entities[item.entity]
                .attrs
                .iter()
                .zip(item.vals)
                .filter(|(_, v)| **v != Val::Absent)
                .map(|(a, &v)| field_size(sizing, a, v, &world.pops))
                .sum::<usize>();
        let size = self.place_entries(item, &mut key_attrs, attrs, out);
        out.size = u32::try_from(size).unwrap_or(u32::MAX);
        true
    }

    /// The partition key into `out.pk`, from the population member's memo when the template
    /// allows (its text then copied into the scratch only where the store sizes a key
    /// attribute from it), else expanded; `None` when a value it needs is absent.
    fn place_pk(&self, item: &mut Placing<'_>, out: &mut Placed) -> Option<KeyType> {
        let world = &self.world;
        let ent = &world.entities[item.entity];
        let pk = ent.pk.as_ref()?;
        if pk.memo.is_some_and(|memo| self.memo_key(item.entity, memo, pk, item.vals, &mut out.pk)) {
            if world.engine.profile().key_attributes {
                item.text.clear();
                item.text.push_str(&String::from_utf8_lossy(&out.pk.text));
            }
            return Some(pk.key_type);
        }
        let pk_type = expand(pk, &ent.attrs, item.vals, &world.pops, item.shard, item.text)?;
        out.pk.set(pk_type, item.text.as_bytes());
        Some(pk_type)
    }

    /// The sort key into `out.sk` in the table's codec, its key attribute's size pushed onto
    /// `key_attrs` on DynamoDB; `None` (and `out.sk` untouched) when a value it needs is absent.
    fn place_sk<'w>(
        &'w self,
        item: &mut Placing<'_>,
        key_attrs: &mut Vec<(&'w str, usize)>,
        out: &mut Placed,
    ) -> Option<()> {
        let world = &self.world;
        let ent = &world.entities[item.entity];
        let table = &world.tables[item.table];
        let key_attributes = world.engine.profile().key_attributes;
        out.sk = match &ent.sk {
            None => None,
            // Inline keys come straight from the value; DynamoDB sizes the key attribute from it.
            Some(sk) if table.codec == Codec::Inline => {
                let secs = inline_secs(sk, item.vals);
                if key_attributes && let Some(name) = &table.sk_name {
                    let bytes = super::items::sized_number(
                        world.engine.profile().sizing,
                        i64::try_from(secs).unwrap_or(i64::MAX).saturating_mul(100),
                    );
                    key_attrs.push((name, bytes));
                }
                Some(SortBuf::Inline(secs))
            }
            Some(sk) => {
                let sk_type = expand(sk, &ent.attrs, item.vals, &world.pops, item.shard, item.text)?;
                if key_attributes && let Some(name) = &table.sk_name {
                    key_attrs.push((name, self.key_size(sk_type, item.text)));
                }
                Some(sort_buf(table.codec, sk, sk_type, item.text, item.vals))
            }
        };
        Some(())
    }

    /// The item's index entries into `out.entries`, and its size. Every entry's position
    /// comes first: on DynamoDB an index's key attributes are the item's attributes too, so
    /// they count towards the item's size, which an ALL projection's entry then takes whole.
    fn place_entries<'w>(
        &'w self,
        item: &mut Placing<'_>,
        key_attrs: &mut Vec<(&'w str, usize)>,
        attrs_size: usize,
        out: &mut Placed,
    ) -> usize {
        let ent = &self.world.entities[item.entity];
        let table = &self.world.tables[item.table];
        let key_attributes = self.world.engine.profile().key_attributes;
        out.entries.clear();
        let mut positions: Vec<Option<EntryKey<'_>>> = Vec::with_capacity(ent.entries.len());
        for (plan, index) in ent.entries.iter().zip(&table.indexes) {
            let position = plan.as_ref().and_then(|plan| self.entry_position(item, plan, index, out));
            if let Some(position) = &position
                && key_attributes
            {
                for &(name, bytes) in &position.names {
                    if !key_attrs.iter().any(|(n, _)| *n == name) {
                        key_attrs.push((name, bytes));
                    }
                }
            }
            positions.push(position);
        }
        let sizing = self.world.engine.profile().sizing;
        let size = attrs_size + key_attrs.iter().map(|(n, b)| sizing.field(n.len(), *b)).sum::<usize>();
        for (plan, position) in ent.entries.iter().zip(positions) {
            let entry = plan
                .as_ref()
                .zip(position)
                .map(|(plan, position)| self.entry_of(item, plan, position, key_attrs, size));
            out.entries.push(entry);
        }
        size
    }

    /// Where an item's entry sits in one index: the index partition key and the entry's
    /// position (index sort key, then the table key as the tie, as `store::index` orders
    /// entries); `None` when the item is not in the index (gated out, or a key attribute absent).
    fn entry_position<'w>(
        &'w self,
        item: &mut Placing<'_>,
        plan: &EntryPlan,
        index: &'w IndexRt,
        table_key: &Placed,
    ) -> Option<EntryKey<'w>> {
        let vals = item.vals;
        if let Some((attr, value)) = plan.gate
            && vals[attr] != value
        {
            return None;
        }
        let attrs = &self.world.entities[item.entity].attrs;
        let pops = &self.world.pops;
        let (shard, text) = (&mut *item.shard, &mut *item.text);
        let mut names: Vec<(&'w str, usize)> = Vec::new();
        let pk = match &plan.pk {
            Some(pk) => {
                let key_type = expand(pk, attrs, vals, pops, shard, text)?;
                names.push((&index.pk_name, self.key_size(key_type, text)));
                PartKey::new(key_type, text.as_bytes())
            }
            None => table_key.pk.clone(),
        };
        let mut key = Vec::new();
        if let Some(sk) = &plan.sk {
            let key_type = expand(sk, attrs, vals, pops, shard, text)?;
            if let Some(name) = &index.sk_name {
                names.push((name, self.key_size(key_type, text)));
            }
            let mut body = Vec::new();
            match key_type {
                KeyType::N => push_number(text, &mut body),
                _ => body.extend_from_slice(text.as_bytes()),
            }
            push_component(&body, &mut key);
        } else {
            push_component(&[], &mut key);
        }
        key.extend_from_slice(&table_key.pk.hash.to_be_bytes());
        let mut pk_bytes = Vec::new();
        match table_key.pk.key_type {
            KeyType::N => push_number(&String::from_utf8_lossy(&table_key.pk.text), &mut pk_bytes),
            _ => pk_bytes.extend_from_slice(&table_key.pk.text),
        }
        push_component(&pk_bytes, &mut key);
        match &table_key.sk {
            Some(SortBuf::Inline(v)) => key.extend_from_slice(&v.to_be_bytes()),
            Some(SortBuf::Bytes(b)) => key.extend_from_slice(b),
            None => {}
        }
        Some(EntryKey { pk, key, names })
    }

    /// An index entry: its size by the projection (table keys, index keys and projected
    /// attributes; the whole item for ALL) and a digest of what it carries.
    fn entry_of(
        &self,
        item: &Placing<'_>,
        plan: &EntryPlan,
        position: EntryKey<'_>,
        key_attrs: &[(&str, usize)],
        item_size: usize,
    ) -> Entry {
        let vals = item.vals;
        let ent = &self.world.entities[item.entity];
        let table = &self.world.tables[item.table];
        let key_attributes = self.world.engine.profile().key_attributes;
        let sizing = self.world.engine.profile().sizing;
        let mut size = 0usize;
        let mut digest: Vec<u64> = Vec::new();
        if let IndexEntries::KeyAndRecordId { record_id_bytes } = self.world.engine.profile().index_entries {
            // The indexed fields' values and a record id, whatever the index projects: the entry
            // changes only when an indexed value does.
            let keyed = keyed_attrs(ent, plan, vals);
            size = keyed_bytes(ent, &keyed, vals, &self.world.pops, record_id_bytes);
            digest.extend(keyed.iter().map(|&a| val_hash(vals[a])));
        } else if let Projected::All = plan.projected {
            size = item_size;
            digest.extend(vals.iter().map(|&v| val_hash(v)));
        } else {
            let mut seen: Vec<&str> = Vec::new();
            let table_keys = key_attrs
                .iter()
                .filter(|(n, _)| *n == table.pk_name.as_str() || table.sk_name.as_deref() == Some(*n));
            for &(name, bytes) in table_keys.chain(position.names.iter()) {
                if !seen.contains(&name) {
                    seen.push(name);
                    size += sizing.field(name.len(), bytes);
                }
            }
            for a in carried_attrs(ent, plan, key_attributes) {
                let attr = &ent.attrs[a];
                if vals[a] != Val::Absent && !seen.contains(&attr.name.as_str()) {
                    seen.push(&attr.name);
                    size += field_size(sizing, attr, vals[a], &self.world.pops);
                    digest.push(val_hash(vals[a]));
                }
            }
        }
        Entry {
            pk: position.pk,
            key: position.key,
            size: u32::try_from(size).unwrap_or(u32::MAX),
            digest: combine(&digest),
        }
    }
}

/// Which memo entry a memoized key of `vals` is: its member, and the quantum of its time
/// (0 without one); `None` when either value is missing or the time is out of range.
pub(super) fn memo_slot(memo: Memo, vals: &[Val]) -> Option<(u64, i64)> {
    let Val::Member(member) = vals[memo.member] else { return None };
    let quantum = match memo.time {
        None => 0,
        Some((attr, quantum)) => match vals[attr] {
            Val::Num(h) => h.checked_mul(10)?.div_euclid(quantum),
            _ => return None,
        },
    };
    Some((member, quantum))
}

/// An inline sort key: the epoch seconds of the template's one time attribute
/// (`exec::plain::Shortcut::spot` reads it the same way).
fn inline_secs(sk: &TemplatePlan, vals: &[Val]) -> u64 {
    match sk.slots.as_slice() {
        [Slot::Attr { attr, .. }] => u64::try_from(vals[*attr].secs().unwrap_or(0)).unwrap_or(0),
        _ => 0,
    }
}

/// A sort key in the table's codec from its expanded text.
pub fn sort_buf(codec: Codec, sk: &TemplatePlan, key_type: KeyType, text: &str, vals: &[Val]) -> SortBuf {
    match codec {
        Codec::Inline => SortBuf::Inline(inline_secs(sk, vals)),
        Codec::Bytes => {
            let mut bytes = Vec::with_capacity(text.len() + 4);
            match key_type {
                KeyType::N => push_number(text, &mut bytes),
                _ => bytes.extend_from_slice(text.as_bytes()),
            }
            SortBuf::Bytes(bytes)
        }
    }
}

/// Bytes a key attribute's value takes, as `sizing` counts it.
fn key_size(sizing: Sizing, key_type: KeyType, text: &str) -> usize {
    match (key_type, sizing) {
        (KeyType::N, _) => text.parse::<f64>().map_or(text.len(), |x| {
            super::items::sized_number(sizing, super::items::to_hundredths(x, false))
        }),
        (KeyType::S, Sizing::Json) => json::string_size(text),
        (KeyType::B, Sizing::Json) => json::base64_size(text.len()),
        (KeyType::S | KeyType::B, _) => text.len(),
    }
}

/// The bytes an item of `entity` with `vals` adds for its key attributes on a store that stores
/// them (DynamoDB): its table's (`PK`, `SK`) and each index's whose key expands, every name
/// once, as `place_item` and `place_entries` count them; 0 elsewhere, or when a table key lacks
/// a value. For the fluid replay's sampled sizes.
pub(super) fn key_bytes(
    world: &super::world::World,
    entity: usize,
    vals: &[Val],
    text: &mut String,
) -> usize {
    let profile = world.engine.profile();
    let ent = &world.entities[entity];
    let (Some(t), true) = (ent.table, profile.key_attributes) else { return 0 };
    let Some(table_keys) = table_key_fields(world, entity, vals, text) else { return 0 };
    let table = &world.tables[t];
    let sizing = profile.sizing;
    let mut bytes: usize = table_keys.iter().map(|(name, size)| sizing.field(name.len(), *size)).sum();
    // An index's key attributes are the item's too (`place_entries`): each name once, the
    // table's first.
    let mut names: Vec<&str> = table_keys.iter().map(|(name, _)| *name).collect();
    for i in 0..table.indexes.len() {
        let Some(keys) = index_key_fields(world, entity, i, vals, text) else { continue };
        for (name, size) in keys {
            if !names.contains(&name) {
                names.push(name);
                bytes += sizing.field(name.len(), size);
            }
        }
    }
    bytes
}

/// The table's key attributes of an item of `entity` with `vals`: each name and the bytes of
/// its value, as `place_pk` and `place_sk` size them; `None` when a table key lacks a value.
fn table_key_fields<'w>(
    world: &'w super::world::World,
    entity: usize,
    vals: &[Val],
    text: &mut String,
) -> Option<Vec<(&'w str, usize)>> {
    let sizing = world.engine.profile().sizing;
    let ent = &world.entities[entity];
    let table = &world.tables[ent.table?];
    let pk_type = expand(ent.pk.as_ref()?, &ent.attrs, vals, &world.pops, &mut |_, _| 0, text)?;
    let mut out = vec![(table.pk_name.as_str(), key_size(sizing, pk_type, text))];
    if let (Some(sk), Some(name)) = (&ent.sk, &table.sk_name) {
        let value = if table.codec == Codec::Inline {
            let secs = inline_secs(sk, vals);
            super::items::sized_number(sizing, i64::try_from(secs).unwrap_or(i64::MAX).saturating_mul(100))
        } else {
            let sk_type = expand(sk, &ent.attrs, vals, &world.pops, &mut |_, _| 0, text)?;
            key_size(sizing, sk_type, text)
        };
        out.push((name.as_str(), value));
    }
    Some(out)
}

/// Index `i`'s key attributes of an item of `entity` with `vals`, as `entry_position` names
/// them; `None` when the item has no entry there (no plan, gated out, or a key attribute
/// absent: then it has no key attributes for it either).
fn index_key_fields<'w>(
    world: &'w super::world::World,
    entity: usize,
    i: usize,
    vals: &[Val],
    text: &mut String,
) -> Option<Vec<(&'w str, usize)>> {
    let sizing = world.engine.profile().sizing;
    let ent = &world.entities[entity];
    let index = &world.tables[ent.table?].indexes[i];
    let plan = ent.entries.get(i)?.as_ref()?;
    if plan.gate.is_some_and(|(attr, value)| vals[attr] != value) {
        return None;
    }
    let mut keys: Vec<(&str, usize)> = Vec::new();
    let pk = plan.pk.as_ref().map(|pk| (pk, index.pk_name.as_str()));
    let sk = plan.sk.as_ref().map(|sk| (sk, index.sk_name.as_deref()));
    for (template, name) in pk.map(|(t, n)| (t, Some(n))).into_iter().chain(sk) {
        let key_type = expand(template, &ent.attrs, vals, &world.pops, &mut |_, _| 0, text)?;
        if let Some(name) = name {
            keys.push((name, key_size(sizing, key_type, text)));
        }
    }
    Some(keys)
}

/// The attributes an index entry of less than the whole item carries beyond the key fields:
/// the projected ones, and without key attributes (Cassandra) the key columns of the table and
/// the index, which an index row holds. The per-operation replay's entries and the fluid
/// replay's sampled entry sizes both count these.
fn carried_attrs(ent: &EntityRt, plan: &EntryPlan, key_attributes: bool) -> Vec<usize> {
    let mut carried: Vec<usize> = match &plan.projected {
        Projected::Attrs(attrs) => attrs.clone(),
        _ => Vec::new(),
    };
    if !key_attributes {
        let templates = ent.pk.iter().chain(&ent.sk).chain(&plan.pk).chain(&plan.sk);
        carried.extend(templates.flat_map(TemplatePlan::attrs));
    }
    carried
}

/// The attributes whose values an entry of key and record id holds (MongoDB,
/// `IndexEntries::KeyAndRecordId`): the index key's (the table's partition key's where the
/// index names none), each once, those the item has.
fn keyed_attrs(ent: &EntityRt, plan: &EntryPlan, vals: &[Val]) -> Vec<usize> {
    let mut keyed: Vec<usize> = Vec::new();
    let pk = plan.pk.as_ref().or(ent.pk.as_ref());
    for a in pk.into_iter().chain(&plan.sk).flat_map(TemplatePlan::attrs) {
        if vals[a] != Val::Absent && !keyed.contains(&a) {
            keyed.push(a);
        }
    }
    keyed
}

/// The bytes of an entry of key and record id holding `keyed`'s values: each sized by
/// `items::value_size` (a text its bytes, a number or a time its digits: keyheat's
/// approximation of the entry's KeyString, not the value's BSON size in the document), and
/// the record id.
fn keyed_bytes(
    ent: &EntityRt,
    keyed: &[usize],
    vals: &[Val],
    pops: &[super::items::Pop],
    record_id: usize,
) -> usize {
    keyed.iter().map(|&a| value_size(&ent.attrs[a], vals[a], pops)).sum::<usize>() + record_id
}

/// The bytes of the entry an item of `entity` with `vals` (of `item_size` bytes) has in index
/// `i`, as `entry_of` sizes it: on a store whose entries are keys and projected attributes
/// (DynamoDB, Cassandra's views) the whole item for ALL, else the table's key attributes, the
/// index's and the projected attributes, each name once; on one whose entries are the indexed
/// values and a record id (MongoDB), those, whatever the index projects. `None` when it has no
/// entry there. For the fluid replay's sampled entry sizes.
pub(super) fn entry_bytes(
    world: &super::world::World,
    entity: usize,
    i: usize,
    vals: &[Val],
    item_size: usize,
    text: &mut String,
) -> Option<usize> {
    let profile = world.engine.profile();
    let ent = &world.entities[entity];
    let index_keys = index_key_fields(world, entity, i, vals, text)?;
    let plan = ent.entries.get(i)?.as_ref()?;
    if let IndexEntries::KeyAndRecordId { record_id_bytes } = profile.index_entries {
        return Some(keyed_bytes(ent, &keyed_attrs(ent, plan, vals), vals, &world.pops, record_id_bytes));
    }
    if let Projected::All = plan.projected {
        return Some(item_size);
    }
    let sizing = profile.sizing;
    let table_keys =
        if profile.key_attributes { table_key_fields(world, entity, vals, text)? } else { Vec::new() };
    let mut seen: Vec<&str> = Vec::new();
    let mut size = 0;
    for (name, bytes) in table_keys.into_iter().chain(index_keys) {
        if !seen.contains(&name) {
            seen.push(name);
            size += sizing.field(name.len(), bytes);
        }
    }
    for a in carried_attrs(ent, plan, profile.key_attributes) {
        let attr = &ent.attrs[a];
        if vals[a] != Val::Absent && !seen.contains(&attr.name.as_str()) {
            seen.push(&attr.name);
            size += field_size(sizing, attr, vals[a], &world.pops);
        }
    }
    Some(size)
}
