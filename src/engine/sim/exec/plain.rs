//! Plain puts: a PutItem call whose item nothing but its own row hangs on, written in one pass.
//!
//! Most of a year's operations in a write-heavy scenario (`sensors`: 105 M of 115 M) are puts
//! of new items into a table of a store that neither meters nor checks them (Cassandra), with
//! no index, TTL, copy, embed, aggregate, condition, numbered attribute or Scan mark to keep
//! up. `write` takes each through every check those features need; this path does only what
//! such a put does — the same steps in the same order, so the run is the same to the bit
//! (`tests::plain_path`) — and skips the rest. Which patterns qualify is decided once, at
//! setup (`plain_patterns`); an observed replay never takes it (the observer is told each
//! write with its old item, which only the full path looks up). Where the keys allow, a put
//! also skips building its key text ([`Shortcut`]): its member's partition is remembered.

use std::cell::Cell;

use crate::engine::model::{Action, AttrType};
use crate::engine::planner::Operation;
use crate::engine::profile::Sizing;
use crate::engine::sim::Simulation;
use crate::engine::sim::items::{
    Gen, Val, digits, generate_own, member_format, number_size, to_hundredths, value_size,
};
use crate::engine::sim::keys::{Codec, SortRef};
use crate::engine::sim::latency;
use crate::engine::sim::ledger::Row;
use crate::engine::sim::meter::WRITE;
use crate::engine::sim::regen::BirthInfo;
use crate::engine::sim::regen::{keys_of, memo_slot};
use crate::engine::sim::state::NO_ROW;
use crate::engine::sim::table::Touch;
use crate::engine::sim::templates::{Memo, Slot};
use crate::engine::sim::world::{BornStep, Origin, World, member_pop};
use crate::engine::workload::Quick;

use super::Call;
use super::write::WriteStatus;

/// Per pattern, whether its calls are plain puts (see the module doc).
pub(in crate::engine::sim) fn plain_patterns(sim: &Simulation) -> Vec<bool> {
    let world = &sim.world;
    let profile = world.engine.profile();
    let store_plain = !profile.metered() && profile.blind_writes && sim.shards.is_none();
    world
        .patterns
        .iter()
        .map(|p| {
            store_plain
                && p.action == Action::Put
                && p.operation == Some(Operation::PutItem)
                && p.locate.is_none()
                && p.parts.is_empty()
                && p.aggregates.is_empty()
                && p.condition.is_none()
                && p.ttl_secs.is_none()
                && plain_entity(sim, world, p.entity)
        })
        .collect()
}

/// Whether an entity's new items keep nothing up but their own row: its table has no index
/// and no Scan marks, and the entity has no TTL, numbered attributes, copies or embedding.
fn plain_entity(sim: &Simulation, world: &World, entity: usize) -> bool {
    let ent = &world.entities[entity];
    let Some(t) = ent.table else { return false };
    sim.storage.tables[t].indexes.is_empty()
        && sim.upkeep.scan_marks[t].is_empty()
        && ent.added.ttl.is_none()
        && ent.numbered.is_empty()
        && ent.copies.is_empty()
        && !sim.upkeep.copies.iter().any(|c| c.to == entity)
        && sim.upkeep.embed_of(entity).is_none()
        && sim.upkeep.multikeys.is_empty()
}

/// How a plain put's item is placed when its keys allow a shortcut: a partition key memoized
/// per member (and per day, hour… of a formatted time), a sort key that is one time
/// kept inline (or none), and attributes sized as DynamoDB sizes them, with no key attributes
/// of their own (Cassandra). Then an item's partition is the one its member's last item went
/// to in the same quantum of time, and its size the sum of its values' sizes: no key text is
/// built or looked up. The first item of a member (or quantum) goes the generic way and
/// teaches the shortcut its partition (`learn`).
#[derive(Debug)]
pub(in crate::engine::sim) struct Shortcut {
    memo: Memo,
    /// The attribute the inline sort key reads; `None` when the key is 0 (no sort key).
    sort: Option<usize>,
    /// Per attribute, how a put fills and sizes it.
    attrs: Vec<AttrFill>,
    /// The last number sized the general way, and its size. A reading's time repeats from one
    /// put to the next within its second, and a time's size is a digit count and a loop over
    /// its trailing zeros.
    last_number: Cell<(i64, usize)>,
    /// Per member: the quantum of time its partition is of, the partition and its key's hash
    /// (`u32::MAX`: none learnt yet). 24 bytes a member up to the highest seen, at most
    /// `SHORTCUT_MEMBERS` of them (24 MiB): what a million-member population costs a pattern.
    parts: Vec<(i64, u32, u64)>,
    /// How many puts took the shortcut: a test holds it to being taken.
    pub(in crate::engine::sim) taken: u64,
}

/// One attribute of a put's new item: where its value comes from, the bytes of its name, and
/// the fixed bytes and the width of its members' ids when they are text (`IdFormat::len`, as
/// `value_size` sizes a member): a sensor's id, in every reading. One entry per attribute, so
/// that a put walks one slice rather than indexing three.
#[derive(Debug, Clone, Copy)]
struct AttrFill {
    fill: Fill,
    name: usize,
    format: Option<(usize, usize)>,
}

/// Where one attribute of a put's new item gets its value, as `Simulation::born_vals` decides
/// for the pattern: a drawn number, made and pushed in place, or any other value.
#[derive(Debug, Clone, Copy)]
enum Fill {
    /// A drawn uniform or normal number (`BornStep::Drawn` of `Gen::Number`): its stream's
    /// draw key, the draw, and whether it is a time (whole seconds).
    Number {
        key: u64,
        draw: Quick,
        whole: bool,
    },
    Value(Source),
}

/// Where a value other than a drawn number comes from: a value the call gives, a value the
/// pattern fixes, or the entity's own step.
#[derive(Debug, Clone, Copy)]
enum Source {
    Absent,
    Given,
    /// The call's first given, a member its pattern's `keys` distribution picks from stream
    /// `stream` (`Simulation::given_val`'s first choice, with its lookups made once).
    Keyed {
        stream: u64,
    },
    Fixed(Val),
    Born(BornStep),
}

/// Members of a population the shortcut remembers partitions for; the rest go the generic way.
const SHORTCUT_MEMBERS: u64 = 1 << 20;

/// Where a shortcut put lands and how large it is.
struct Spot {
    partition: u32,
    hash: u64,
    sort: u64,
    size: u32,
}

impl Shortcut {
    /// The shortcut for pattern `pattern`'s puts, when they are plain and the keys allow it.
    pub(in crate::engine::sim) fn for_pattern(sim: &Simulation, pattern: usize) -> Option<Shortcut> {
        let (world, plain) = (&sim.world, sim.upkeep.plain[pattern]);
        let profile = world.engine.profile();
        if !plain || profile.sizing != Sizing::Attributes || profile.key_attributes {
            return None;
        }
        let ent = &world.entities[world.patterns[pattern].entity];
        let memo = ent.pk.as_ref()?.memo?;
        let table = &world.tables[ent.table?];
        let sort = match &ent.sk {
            None => None,
            Some(sk) if table.codec == Codec::Inline => match sk.slots.as_slice() {
                [Slot::Attr { attr, .. }] => Some(*attr),
                _ => None,
            },
            Some(_) => return None,
        };
        let fills = fills(world, &sim.draw_keys[world.patterns[pattern].entity], pattern);
        let attrs = fills
            .into_iter()
            .zip(&ent.attrs)
            .map(|(fill, a)| AttrFill { fill, name: a.name.len(), format: member_format(a, &world.pops) })
            .collect();
        Some(Shortcut {
            memo,
            sort,
            attrs,
            last_number: Cell::new((0, number_size(0))),
            parts: Vec::new(),
            taken: 0,
        })
    }

    /// The values call `birth` of the pattern gives its new item `ordinal` into `vals`, as
    /// `Simulation::born_vals` makes them, and the item's size: the sum of its present values'
    /// names and sizes.
    fn fill(
        &self,
        sim: &Simulation,
        entity: usize,
        ordinal: u32,
        birth: BirthInfo,
        vals: &mut Vec<Val>,
    ) -> usize {
        // Each value is written into its slot, not pushed: the buffer is the pattern's last
        // put's, already this long, and pushes (a capacity check and a length update each)
        // were 2% of a `sensors` day's instructions.
        vals.resize(self.attrs.len(), Val::Absent);
        let Origin::Pattern(pattern) = birth.origin else {
            unreachable!("a put's item is born of its pattern's call")
        };
        let attrs = &sim.world.entities[entity].attrs;
        let secs = i64::try_from(birth.time_ms / 1000).unwrap_or(i64::MAX);
        let draw_keys = &sim.draw_keys[entity];
        let mut size = 0;
        for (i, ((slot, fill), a)) in vals.iter_mut().zip(&self.attrs).zip(attrs).enumerate() {
            // A drawn number is written where it is made. Made into one value that every arm
            // then pushed, it was written to the stack a field at a time and read back
            // whole, a load that waits for both stores: a fifth of a put's time.
            let source = match fill.fill {
                Fill::Number { key, draw, whole } => {
                    let h = to_hundredths(draw.sample_keyed(key, u64::from(ordinal)), whole);
                    size += fill.name + number_size(h);
                    *slot = Val::Num(h);
                    continue;
                }
                Fill::Value(source) => source,
            };
            let val = match source {
                Source::Absent => Val::Absent,
                Source::Given => {
                    sim.given_val(usize::from(pattern), i, birth.call, birth.tick, birth.time_ms)
                }
                Source::Keyed { stream } => {
                    let (p, call) = (usize::from(pattern), birth.call);
                    sim.keyed_pick(p, stream, call, birth.tick)
                        .unwrap_or_else(|| sim.given_val(p, i, call, birth.tick, birth.time_ms))
                }
                Source::Fixed(val) => val,
                Source::Born(BornStep::Ordinal) => Val::Member(u64::from(ordinal)),
                Source::Born(BornStep::Member(pop)) => sim
                    .pick_member(pop, None, a.stream, u64::from(ordinal), birth.tick)
                    .map_or(Val::Absent, Val::Member),
                Source::Born(BornStep::Drawn) => {
                    generate_own(a, draw_keys[i], sim.seed, u64::from(ordinal), secs)
                }
            };
            size += match (val, fill.format) {
                (Val::Absent, _) => 0,
                (Val::Num(h), _) => fill.name + self.number_size(h),
                (Val::Member(m), Some((fixed, width))) => fill.name + fixed + digits(m).max(width),
                _ => fill.name + value_size(a, val, &sim.world.pops),
            };
            *slot = val;
        }
        size
    }

    /// `number_size(h)`, remembered for the next put's same number.
    fn number_size(&self, h: i64) -> usize {
        let (last, size) = self.last_number.get();
        if h == last {
            return size;
        }
        let size = number_size(h);
        self.last_number.set((h, size));
        size
    }

    /// Where the item of `vals`, `size` bytes, lands, if its member's partition is known for
    /// its time.
    fn spot(&self, vals: &[Val], size: usize) -> Option<Spot> {
        let (member, quantum) = memo_slot(self.memo, vals)?;
        let &(q, partition, hash) = self.parts.get(usize::try_from(member).ok()?)?;
        if q != quantum || partition == u32::MAX {
            return None;
        }
        // As `regen::inline_secs` reads an inline sort key.
        let sort = self.sort.map_or(0, |attr| u64::try_from(vals[attr].secs().unwrap_or(0)).unwrap_or(0));
        Some(Spot { partition, hash, sort, size: u32::try_from(size).unwrap_or(u32::MAX) })
    }

    /// Remembers that the item of `vals` went to partition `partition` (key hash `hash`).
    fn learn(&mut self, vals: &[Val], partition: u32, hash: u64) {
        let Some((member, quantum)) = memo_slot(self.memo, vals) else { return };
        let Ok(slot) = usize::try_from(member) else { return };
        if member >= SHORTCUT_MEMBERS {
            return;
        }
        if self.parts.len() <= slot {
            self.parts.resize(slot + 1, (0, u32::MAX, 0));
        }
        self.parts[slot] = (quantum, partition, hash);
    }
}

/// Per attribute of pattern `pattern`'s entity, where a put's new item gets its value: the
/// pattern's born steps, then the call's givens (but a new identity), then its fixed values, in
/// `Simulation::born_vals`'s order (a plain put has no TTL or copies to fill after them).
/// `draw_keys` are the entity's attributes' draw keys (`Simulation::draw_keys`).
fn fills(world: &World, draw_keys: &[u64], pattern: usize) -> Vec<Fill> {
    let p = &world.patterns[pattern];
    let ent = &world.entities[p.entity];
    let mut fills = vec![Fill::Value(Source::Absent); ent.attrs.len()];
    for &(i, step) in &p.born {
        let a = &ent.attrs[i];
        // As `items::generate_own` draws a number.
        let quick = match (&a.source, step) {
            (Gen::Number(sampler), BornStep::Drawn) => sampler.quick(),
            _ => None,
        };
        fills[i] = match quick {
            Some(draw) => Fill::Number { key: draw_keys[i], draw, whole: a.ty == AttrType::Time },
            None => Fill::Value(Source::Born(step)),
        };
    }
    let identity = ent.identity.map(|(a, _)| a);
    for &g in &p.givens {
        if !(identity == Some(g) && matches!(ent.attrs[g].source, Gen::New(_))) {
            // As `Simulation::given_val` chooses.
            let keyed = keys_of(p, g).is_some() && member_pop(&ent.attrs[g].source).is_some();
            let source = if keyed { Source::Keyed { stream: p.given_streams[g] } } else { Source::Given };
            fills[g] = Fill::Value(source);
        }
    }
    if p.action == Action::Put {
        for &(attr, value) in &p.equals {
            fills[attr] = Fill::Value(Source::Fixed(value));
        }
    }
    fills
}

impl Simulation {
    /// A plain put's first (and, on a store that never throttles, only) request: `write`'s
    /// steps for such a put, in its order.
    pub(super) fn plain_put(&mut self, call: Call) {
        let pattern = call.pattern;
        let entity = self.world.patterns[pattern].entity;
        let Some(t_idx) = self.world.entities[entity].table else { return };
        let origin = Origin::Pattern(u16::try_from(pattern).unwrap_or(u16::MAX));
        let ordinal = self.alloc_put(call, entity);
        self.scratch.located = None;
        let mut vals = std::mem::take(&mut self.scratch.vals);
        let birth = BirthInfo { origin, call: call.index, tick: call.tick, time_ms: call.time_ms };
        // Borrowed where it is, not taken out and put back: the move was 4% of a put.
        let shortcut = self.upkeep.shortcuts[pattern].as_ref();
        let size = if let Some(shortcut) = shortcut {
            shortcut.fill(self, entity, ordinal, birth, &mut vals)
        } else {
            self.born_vals(entity, ordinal, birth, &mut vals);
            0
        };
        let spot = shortcut.and_then(|s| s.spot(&vals, size));
        let figures = &mut self.figures.stats[pattern];
        figures.requests += 1;
        figures.fanout += 1;
        figures.max_fanout = figures.max_fanout.max(1);
        self.figures.totals.requests += 1;
        self.scratch.written = 0;
        self.scratch.transacted = 0;
        let status = if let Some(spot) = spot {
            if let Some(shortcut) = &mut self.upkeep.shortcuts[pattern] {
                shortcut.taken += 1;
            }
            if self.too_large_size(spot.size) {
                WriteStatus::TooLarge
            } else {
                let id = self.world.handle(entity, ordinal);
                let table = &mut self.storage.tables[t_idx];
                let (replaced, touch) =
                    table.put_plain_at(spot.partition, spot.hash, SortRef::Inline(spot.sort), spot.size, id);
                self.plain_landed(pattern, entity, t_idx, touch, replaced, (spot.size, id));
                WriteStatus::Done
            }
        } else {
            let mut bufs = self.scratch.write.take().unwrap_or_default();
            let status = if !self.place(entity, ordinal, &vals, &mut bufs.placed) {
                WriteStatus::Invalid
            } else if self.too_large(&bufs.placed) {
                WriteStatus::TooLarge
            } else {
                let placed = &bufs.placed;
                let mut touches = std::mem::take(&mut self.storage.touches);
                let applied = self.storage.tables[t_idx].write_plain(None, Some(placed), &mut touches);
                let touch = touches[0];
                self.storage.touches = touches;
                self.plain_landed(pattern, entity, t_idx, touch, applied.replaced, (placed.size, placed.id));
                if let Some(shortcut) = &mut self.upkeep.shortcuts[pattern] {
                    shortcut.learn(&vals, touch.partition, touch.hash);
                }
                WriteStatus::Done
            };
            self.scratch.write = Some(bufs);
            status
        };
        self.scratch.vals = vals;
        let written = latency::write_extra_ms(self.world.engine.profile().latency, self.scratch.written);
        let ms = latency::WRITE_MS + written;
        if status != WriteStatus::Done {
            self.write_failed(pattern, status);
        }
        self.completed(call, None, ms);
    }

    /// The row written and its bookkeeping: `write_item`'s `landed` for a put nothing else
    /// hangs on, into a table nothing meters. `touch` and `replaced` are what the table's
    /// write gave; `(size, id)` the new row's.
    fn plain_landed(
        &mut self,
        pattern: usize,
        entity: usize,
        t_idx: usize,
        touch: Touch,
        replaced: Option<Row>,
        (size, id): (u32, u32),
    ) {
        let totals = &mut self.figures.totals;
        totals.item_writes += 1;
        totals.base_writes += 1;
        let group = self.storage.group_of[t_idx][touch.group];
        let ring = self.world.engine.profile().ring().is_some();
        if ring && self.figures.span_ru.is_none() && self.storage.load(group, touch.partition).row != NO_ROW {
            self.defer_put(group, touch.partition);
        } else {
            self.touch(group, touch.partition, WRITE, 1.0, 0);
            // `node_load` of the put on its replicas, then `settle`, in one walk of them.
            if self.settle_written(group, touch.partition, u32::from(ring)) {
                self.register_if_large(group, touch.partition);
            }
        }
        let old = replaced.map(|row| row.id);
        if let Some(h) = old
            && h != id
        {
            self.items.overrides.remove(&h);
        }
        let totals = &mut self.figures.totals;
        totals.largest_item = totals.largest_item.max(size);
        if old.is_some() {
            totals.rewrites += 1;
            totals.rewritten_bytes += u64::from(size);
        }
        self.scratch.written += u64::from(size);
        if !self.world.entities[entity].upsert && old.is_some_and(|h| h != id) {
            self.figures.overwrote(Some(pattern));
        }
    }
}
