//! Key templates compiled against an entity's attribute slots, and their expansion over
//! compact values: the same text `template::Part::write` makes from real attributes (the
//! equivalence of the two is what the inspector test checks), without building the attributes.

use crate::engine::hash::hash_bytes;
use crate::engine::model::{AttrType, SlotAttrs};
use crate::engine::template::{Part, Template};
use std::cell::RefCell;

use crate::engine::time::{Resolution, SimDuration, TimeFormat, push_integer, push_padded};
use crate::engine::value::KeyType;

use super::items::{AttrPlan, Gen, Pop, Val, push_text, to_attribute};
use super::world::EntityRt;

/// One slot of a compiled key template.
#[derive(Debug, Clone)]
pub enum Slot {
    Lit(String),
    Attr {
        attr: usize,
        pad: Option<u8>,
        part: Part,
    },
    Time {
        attr: usize,
        format: TimeFormat,
        /// The format's text is constant within each `quantum` of milliseconds (see
        /// [`quantum_ms`]); `cache` holds the last quantum formatted and its text.
        quantum: i64,
        cache: RefCell<(i64, String)>,
    },
    Bucket {
        attr: usize,
        width_ms: i64,
    },
    Shard {
        count: u32,
        index: u32,
    },
    Hash {
        attr: usize,
        count: u32,
    },
    /// A slot chosen by the text of a class attribute (`attr`): the listed values' slots, else
    /// `other`. `scratch` holds the class value's text while it is looked up, so a key expands
    /// without allocating.
    Class {
        attr: usize,
        cases: Vec<(String, Slot)>,
        other: Box<Slot>,
        scratch: RefCell<String>,
    },
    /// An attribute the entity does not have: the template never yields a key.
    Missing,
}

impl Slot {
    /// The attributes the slot reads: one, or a class slot's class attribute and its bucket's
    /// time attribute.
    pub fn reads(&self) -> [Option<usize>; 2] {
        match self {
            Slot::Attr { attr, .. }
            | Slot::Time { attr, .. }
            | Slot::Bucket { attr, .. }
            | Slot::Hash { attr, .. } => [Some(*attr), None],
            Slot::Class { attr, other, .. } => match &**other {
                Slot::Bucket { attr: time, .. } => [Some(*attr), Some(*time)],
                _ => [Some(*attr), None],
            },
            _ => [None, None],
        }
    }

    /// The slot a class slot takes for these values (itself for any other slot); `None` when
    /// the class attribute is absent.
    pub fn select<'s>(&'s self, attrs: &[AttrPlan], vals: &[Val], pops: &[Pop]) -> Option<&'s Slot> {
        let Slot::Class { attr, cases, other, scratch } = self else { return Some(self) };
        let mut text = scratch.borrow_mut();
        text.clear();
        if !push_text(&attrs[*attr], vals[*attr], pops, &mut text) {
            return None;
        }
        Some(cases.iter().find(|(v, _)| *v == *text).map_or(&**other, |(_, slot)| slot))
    }

    /// For a class shard: the shard slot of its largest count, whose shards are every shard any
    /// class uses.
    pub fn widest_shard(&self) -> Option<Slot> {
        let Slot::Class { cases, other, .. } = self else { return None };
        let Slot::Shard { count, index } = **other else { return None };
        let most = cases.iter().filter_map(|(_, s)| match s {
            Slot::Shard { count, .. } => Some(*count),
            _ => None,
        });
        Some(Slot::Shard { count: most.fold(count, u32::max), index })
    }
}

#[derive(Debug, Clone)]
pub struct TemplatePlan {
    pub slots: Vec<Slot>,
    pub key_type: KeyType,
    /// When the template reads one population member written plainly (and at most one time
    /// attribute through a format), its keys can be memoized per member: see [`Memo`].
    pub memo: Option<Memo>,
}

/// How a template's keys are memoized: per member of `member`, and — when the template also
/// formats a time — per quantum of that time (`time`: the attribute and the quantum in ms), so
/// the memo holds each member's key of the current day (or hour…).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memo {
    pub member: usize,
    pub time: Option<(usize, i64)>,
}

/// Milliseconds within which a format prints the same text: its finest field's unit. Day and
/// coarser units all change on day boundaries (UTC), so a day is their quantum.
pub fn quantum_ms(format: &TimeFormat) -> i64 {
    match format.resolution() {
        Some(Resolution::Second) => 1000,
        Some(Resolution::Minute) => 60_000,
        Some(Resolution::Hour) => 3_600_000,
        _ => 86_400_000,
    }
}

/// One part compiled: `attr` is where the attribute its slot reads sits in the item, `by` a class
/// slot's class attribute (`Slot::Missing` when the items carry no such attribute). Shard slots
/// take the next number of `shards`.
fn compile(part: &Part, attr: Option<usize>, by: Option<usize>, shards: &mut u32) -> Slot {
    let bucket = |width: &SimDuration| {
        attr.map_or(Slot::Missing, |attr| Slot::Bucket {
            attr,
            width_ms: i64::try_from(width.as_millis()).unwrap_or(i64::MAX),
        })
    };
    match part {
        Part::Class(class) => {
            let Some(by) = by else { return Slot::Missing };
            // Every case of a class shard is the same draw, taken modulo its own count.
            let index = *shards;
            if matches!(class.other, Part::Shard { .. }) {
                *shards += 1;
            }
            let case = |part: &Part| match part {
                Part::Shard { count } => Slot::Shard { count: *count, index },
                Part::Bucket { width, .. } => bucket(width),
                _ => Slot::Missing,
            };
            Slot::Class {
                attr: by,
                cases: class.cases.iter().map(|(v, part)| (v.clone(), case(part))).collect(),
                other: Box::new(case(&class.other)),
                scratch: RefCell::new(String::new()),
            }
        }
        Part::Literal(text) => Slot::Lit(text.clone()),
        Part::Attr { pad, .. } => {
            attr.map_or(Slot::Missing, |attr| Slot::Attr { attr, pad: *pad, part: part.clone() })
        }
        Part::Time { format, .. } => attr.map_or(Slot::Missing, |attr| Slot::Time {
            attr,
            format: format.clone(),
            quantum: quantum_ms(format),
            cache: RefCell::new((i64::MIN, String::new())),
        }),
        Part::Bucket { width, .. } => bucket(width),
        Part::Shard { count } => {
            *shards += 1;
            Slot::Shard { count: *count, index: *shards - 1 }
        }
        Part::Hash { count, .. } => attr.map_or(Slot::Missing, |attr| Slot::Hash { attr, count: *count }),
    }
}

impl TemplatePlan {
    /// Compiles `template` against an entity's items, each part reading what its slot is bound
    /// to (`slots`, one per part: `EntityKeys::pk_slots`). Shard slots are numbered from
    /// `shard_base` so an item's shards are independent draws.
    pub fn new(template: &Template, slots: &[SlotAttrs], ent: &EntityRt, shard_base: u32) -> TemplatePlan {
        let attrs = &ent.attrs;
        let mut shards = shard_base;
        let compiled: Vec<Slot> = (template.parts().iter().enumerate())
            .map(|(i, part)| {
                let bound = slots.get(i).copied().unwrap_or_default();
                compile(
                    part,
                    bound.reads.and_then(|a| ent.attr(a)),
                    bound.by.and_then(|a| ent.attr(a)),
                    &mut shards,
                )
            })
            .collect();
        let slots = compiled;
        let single = template.single_attribute().and(slots.first()).and_then(|s| s.reads()[0]);
        let key_type = match single.map(|a| attrs[a].ty) {
            Some(AttrType::N | AttrType::Time) => KeyType::N,
            Some(AttrType::B) => KeyType::B,
            _ => KeyType::S,
        };
        let reads: Vec<&Slot> = slots.iter().filter(|s| !matches!(s, Slot::Lit(_))).collect();
        let plain_member = |attr: usize| attrs[attr].pop.is_some() && attrs[attr].ty == AttrType::S;
        let memo = match reads.as_slice() {
            [Slot::Attr { attr, pad: None, .. }] if plain_member(*attr) => {
                Some(Memo { member: *attr, time: None })
            }
            [Slot::Attr { attr, pad: None, .. }, Slot::Time { attr: time, quantum, .. }]
            | [Slot::Time { attr: time, quantum, .. }, Slot::Attr { attr, pad: None, .. }]
                if plain_member(*attr) =>
            {
                Some(Memo { member: *attr, time: Some((*time, *quantum)) })
            }
            _ => None,
        };
        TemplatePlan { slots, key_type, memo }
    }

    /// Shard slots in the template.
    pub fn shard_slots(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.slots.iter().filter_map(|s| match s {
            Slot::Shard { count, index } => Some((*index, *count)),
            Slot::Class { .. } => match s.widest_shard() {
                Some(Slot::Shard { count, index }) => Some((index, count)),
                _ => None,
            },
            _ => None,
        })
    }

    /// The attributes the template reads (a class slot: its class attribute and its own).
    pub fn attrs(&self) -> impl Iterator<Item = usize> + '_ {
        self.slots.iter().flat_map(Slot::reads).flatten()
    }

    /// When the template is exactly one `Time` attribute written by `Now`/`NowPlus`: its keys
    /// are non-negative epoch seconds and can live inline in a row.
    pub fn inline_time(&self, attrs: &[AttrPlan]) -> bool {
        match self.slots.as_slice() {
            [Slot::Attr { attr, pad: None, .. }] => {
                attrs[*attr].ty == AttrType::Time && is_time_gen(&attrs[*attr].source)
            }
            _ => false,
        }
    }
}

fn is_time_gen(generator: &Gen) -> bool {
    match generator {
        Gen::Now | Gen::NowPlus(_) => true,
        Gen::Sometimes(_, inner) => is_time_gen(inner),
        _ => false,
    }
}

/// Expands a compiled template over values into `out` (cleared first); the key's type, or
/// `None` when an attribute the template reads is absent or unreadable. `shard(i, n)` gives the
/// writer's draw for shard slot `i`.
pub fn expand(
    t: &TemplatePlan,
    attrs: &[AttrPlan],
    vals: &[Val],
    pops: &[Pop],
    shard: &mut dyn FnMut(u32, u32) -> u32,
    out: &mut String,
) -> Option<KeyType> {
    out.clear();
    for slot in &t.slots {
        let slot = slot.select(attrs, vals, pops)?;
        if let Slot::Shard { count, index } = slot {
            push_padded(out, u64::from(shard(*index, *count) % count), 1);
        } else if !render_slot(slot, attrs, vals, pops, out) {
            return None;
        }
    }
    Some(t.key_type)
}

/// Appends one slot's text for these values; false when it cannot (a missing attribute, a
/// shard, an unreadable type).
pub fn render_slot(slot: &Slot, attrs: &[AttrPlan], vals: &[Val], pops: &[Pop], out: &mut String) -> bool {
    match slot {
        Slot::Lit(text) => out.push_str(text),
        Slot::Missing | Slot::Shard { .. } => return false,
        Slot::Class { .. } => {
            return slot.select(attrs, vals, pops).is_some_and(|s| render_slot(s, attrs, vals, pops, out));
        }
        Slot::Attr { attr, pad, part } => {
            let a = &attrs[*attr];
            let val = vals[*attr];
            if pad.is_some() || a.ty == AttrType::B {
                // Zero-padded numbers and binary (base64) take the template's own path.
                let Some(value) = to_attribute(a, val, pops) else { return false };
                return part.write(Some(&value), &mut |_| 0, out);
            }
            return push_text(a, val, pops, out);
        }
        Slot::Time { attr, format, quantum, cache } => {
            let Val::Num(h) = vals[*attr] else { return false };
            let Some(ms) = h.checked_mul(10) else {
                return format.write_epoch_millis(i128::from(h) * 10, out);
            };
            let q = ms.div_euclid(*quantum);
            let mut cache = cache.borrow_mut();
            if cache.0 != q || q == i64::MIN {
                let from = out.len();
                if !format.write_epoch_millis(i128::from(h) * 10, out) {
                    return false;
                }
                cache.1.clear();
                cache.1.push_str(&out[from..]);
                cache.0 = q;
                return true;
            }
            out.push_str(&cache.1);
        }
        Slot::Bucket { attr, width_ms } => {
            let Val::Num(h) = vals[*attr] else { return false };
            push_integer(out, (i128::from(h) * 10).div_euclid(i128::from(*width_ms)));
        }
        Slot::Hash { attr, count } => {
            let mut text = String::new();
            if !push_text(&attrs[*attr], vals[*attr], pops, &mut text) {
                return false;
            }
            push_padded(out, hash_bytes(text.as_bytes()) % u64::from(*count), 1);
        }
    }
    true
}
