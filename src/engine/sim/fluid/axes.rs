//! Partition keys of more than one varying attribute. Beside the member that picks a key
//! group's partitions (`KeyGroup::member`), a key may hold a second member (a seat of an event:
//! `SEAT#{event_id}#{seat}`) or a drawn value of a small stated set (an order's status:
//! `STATUS#{status}`; a constant text: `{board}`), or a `hash(attr, n)` slot, which spreads
//! the items over `n` slots by the hash of another attribute's value (`{board}#{hash(player_id,
//! 16)}`). Each is an axis: its values multiply the group's partitions, numbered in mixed radix
//! after the member (`member × radix + digits`, the first axis most significant), so a
//! partition is one distinct key text.
//!
//! A call's chance of a partition is the product of its chances on each axis: every attribute
//! is drawn from its own stream (`Simulation::given_val`, `born_vals`), so a pick of one member
//! and a pick or a draw of another value are independent. On an axis, a member's chances are
//! its population's shares (`model::shares`, by the pattern's popularity for its first given,
//! as the per-operation replay picks it); a drawn value's are its generator's stated weights
//! (`model::drawn_share`: a choice's weight, a lifecycle's first state, a chance's odds); a
//! constant the pattern reads with (`equals`) is that value with certainty. A hash slot's
//! chances are those of the hashed attribute's values, summed by the slot each hashes to (the
//! per-operation replay's own hash of the value's text, `templates::expand`): exact for a pick
//! of a member or a draw of a stated set.
//!
//! A read that does not give the hashed value asks every slot, one request each, as a read of a
//! write shard asks every shard (`Axis::scattered`): each slot's chance is 1, and a call's
//! requests are the slots' count (`KeyGroup::shards_asked`).
//!
//! A hash of the new item's own identity (practice-shop `recommended`'s
//! `TOSHIP#{hash(order_id, 8)}`): each put's slot is the hash of the id it makes, and those ids
//! are known before the run — the one put pattern's call k makes member `initial + k`
//! (`Simulation::alloc`), its id text the population's format of that number — so the hashed
//! axis holds the members the run will have, and a put's chance of a slot is the share of the
//! run's new ids hashed to it (`fresh_spread`): exact over the run. Within a tick the slot's
//! count is taken as a draw at that share, as any pick's is (the replay's hash of consecutive
//! ids spreads them as independent draws would, so the peaks' bands hold).
//!
//! Refused, by name: a drawn number, time or payload in a partition key (its values are not a
//! small stated set), a key attribute a call neither gives nor draws, `Seq` picks (the pick
//! of call k is exact, a product of axes is not), write shards beside an axis, a hash of the
//! new item's own identity that two put patterns or `growth_per_day` also number (the ids'
//! order is not the calls'), and a hash of an attribute the key also holds.

use std::rc::Rc;

use crate::engine::model::Action;

use super::super::items::{Gen, Val};
use super::super::templates::{Slot, TemplatePlan, expand};
use super::super::world::{BornStep, PatternRt, World, member_pop};
use super::model::{KeyGroup, MAX_MEMBERS, Shares, drawn_share, popularity_of, shares};
use super::{FluidError, unsupported};

/// A partition-key attribute beside the group's member.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub attr: usize,
    pub kind: AxisKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AxisKind {
    /// A second member: its population's ids, in member order.
    Member { pop: usize, size: u64 },
    /// A drawn value: the values its generator can draw, each a distinct key text.
    Drawn(Rc<[Val]>),
    /// A `hash(attr, count)` slot: the hashed attribute's values (`of`, as an axis of their own)
    /// and the slot each hashes to, by value number.
    Hash { count: u32, of: Rc<Axis>, slots: Rc<[u32]> },
}

impl Axis {
    /// The axis of attribute `attr` of `entity`, or why its values cannot be counted.
    pub(super) fn of(world: &World, entity: usize, attr: usize, place: &str) -> Result<Axis, FluidError> {
        let source = &world.entities[entity].attrs[attr].source;
        let kind = if let Some(pop) = member_pop(source) {
            AxisKind::Member { pop, size: world.pops[pop].size }
        } else {
            AxisKind::Drawn(outcomes(source).ok_or_else(|| {
                unsupported(
                    "a partition key of a drawn number, time or payload (its values are not a small stated set)",
                    place,
                )
            })?)
        };
        Ok(Axis { attr, kind })
    }

    /// The axis of a `hash(attr, count)` slot of template `pk`: each of the hashed attribute's
    /// values with the slot the per-operation replay's expansion hashes it to. A hash of the
    /// entity's new identity holds the ids its puts will make too (`puts`: every pattern's calls
    /// over the run).
    pub(super) fn hashed(
        world: &World,
        entity: usize,
        (attr, count): (usize, u32),
        (pk, puts): (&TemplatePlan, &[u64]),
        place: &str,
    ) -> Result<Axis, FluidError> {
        let mut of = Axis::of(world, entity, attr, place)?;
        // The ids the run's puts make follow the initial members (`Simulation::alloc`).
        if let (Some(made), AxisKind::Member { pop, size }) =
            (new_ids(world, entity, attr, puts, place)?, &mut of.kind)
        {
            *size = world.pops[*pop].initial.saturating_add(made);
        }
        // Each value is hashed once here: a population past what a key group holds is refused
        // before that work, as the group would be.
        if of.len() > MAX_MEMBERS {
            return Err(unsupported(&format!("a partition key of more than {MAX_MEMBERS} values"), place));
        }
        let attrs = &world.entities[entity].attrs;
        let one = TemplatePlan { slots: vec![Slot::Hash { attr, count }], key_type: pk.key_type, memo: None };
        let mut vals = vec![Val::Absent; attrs.len()];
        let mut text = String::new();
        let mut slots = Vec::with_capacity(usize::try_from(of.len()).unwrap_or(0));
        for i in 0..of.len() {
            vals[attr] = of.value(i);
            expand(&one, attrs, &vals, &world.pops, &mut |_, _| 0, &mut text);
            slots.push(text.parse::<u32>().ok().filter(|&s| s < count).ok_or_else(|| {
                unsupported("a hash() slot whose value the fluid replay cannot place", place)
            })?);
        }
        Ok(Axis { attr, kind: AxisKind::Hash { count, of: Rc::new(of), slots: slots.into() } })
    }

    /// How many values the axis takes.
    pub fn len(&self) -> u64 {
        match &self.kind {
            AxisKind::Member { size, .. } => *size,
            AxisKind::Drawn(values) => values.len() as u64,
            AxisKind::Hash { count, .. } => u64::from(*count),
        }
    }

    /// The axis's value number `i` (for a hash slot, the first value hashed to it).
    fn value(&self, i: u64) -> Val {
        match &self.kind {
            AxisKind::Member { .. } => Val::Member(i),
            AxisKind::Drawn(values) => {
                usize::try_from(i).ok().and_then(|i| values.get(i)).copied().unwrap_or(Val::Absent)
            }
            AxisKind::Hash { of, slots, .. } => slots
                .iter()
                .position(|&s| u64::from(s) == i)
                .map_or(Val::Absent, |first| of.value(first as u64)),
        }
    }

    /// The number of value `v` on the axis, if it is one of its values.
    fn number(&self, v: Val) -> Option<u64> {
        match (&self.kind, v) {
            (AxisKind::Member { size, .. }, Val::Member(m)) if m < *size => Some(m),
            (AxisKind::Drawn(values), v) => values.iter().position(|&x| x == v).map(|i| i as u64),
            (AxisKind::Hash { of, slots, .. }, v) => {
                slots.get(usize::try_from(of.number(v)?).ok()?).map(|&s| u64::from(s))
            }
            _ => None,
        }
    }

    /// Whether a call of `pattern` asks every value of the axis: a read of a hash slot whose
    /// hashed attribute it neither gives nor compares with a constant.
    pub fn scattered(&self, pattern: &PatternRt) -> bool {
        matches!(self.kind, AxisKind::Hash { .. })
            && pattern.action.is_read()
            && !pattern.givens.contains(&self.attr)
            && !pattern.equals.iter().any(|(a, _)| *a == self.attr)
    }

    /// A call of `pattern`'s chance of each of the axis's values (on an axis it scatters over,
    /// 1 each: it asks them all).
    fn chances(
        &self,
        world: &World,
        pattern: &PatternRt,
        seed: u64,
        place: &str,
    ) -> Result<Vec<f64>, FluidError> {
        let n = usize::try_from(self.len()).unwrap_or(usize::MAX);
        if let Some(&(_, v)) = pattern.equals.iter().find(|(a, _)| *a == self.attr) {
            let mut out = vec![0.0; n];
            if let Some(x) = self.number(v).and_then(|i| out.get_mut(usize::try_from(i).ok()?)) {
                *x = 1.0;
            }
            return Ok(out);
        }
        let given = pattern.givens.contains(&self.attr);
        // A read's key holds what the call gives, never a draw.
        let born = (pattern.born.iter())
            .find(|(a, _)| *a == self.attr && !pattern.action.is_read())
            .map(|(_, s)| *s);
        let ent = &world.entities[pattern.entity];
        let source = &ent.attrs[self.attr].source;
        match (&self.kind, given, born) {
            // A read that does not give the hashed value asks every slot (`exec::read`'s
            // `partition_keys`), one request each: each slot gets the whole call, as each shard
            // of a sharded read does.
            (AxisKind::Hash { count, .. }, false, None) if pattern.action.is_read() => {
                Ok(vec![1.0; usize::try_from(*count).unwrap_or(0)])
            }
            // Each put's slot is its new id's: the share of the run's new ids hashed to it.
            (AxisKind::Hash { count, of, slots }, ..)
                if pattern.action == Action::Put && ent.identity.is_some_and(|(a, _)| a == self.attr) =>
            {
                let initial = match of.kind {
                    AxisKind::Member { pop, .. } => world.pops[pop].initial,
                    _ => of.len(),
                };
                Ok(fresh_spread(*count, initial, slots))
            }
            (AxisKind::Hash { count, of, slots }, ..) => {
                let mut out = vec![0.0; usize::try_from(*count).unwrap_or(0)];
                for (chance, &slot) in of.chances(world, pattern, seed, place)?.iter().zip(slots.iter()) {
                    if let Some(x) = out.get_mut(usize::try_from(slot).unwrap_or(usize::MAX)) {
                        *x += chance;
                    }
                }
                Ok(out)
            }
            (AxisKind::Member { pop, .. }, true, _)
            | (AxisKind::Member { pop, .. }, _, Some(BornStep::Member(_))) => {
                let popularity = if given {
                    popularity_of(world, pattern, self.attr, *pop)
                } else {
                    &world.pops[*pop].popularity
                };
                match shares(world, popularity, *pop, seed, place)? {
                    Shares::Each(s) => Ok(s.to_vec()),
                    Shares::Seq(_) => Err(unsupported(
                        "Seq picks in a partition key of two members or a drawn value (each call's pick is exact, their product is not)",
                        place,
                    )),
                    Shares::One => Ok(vec![1.0; n]),
                    Shares::Fresh { .. } | Shares::Recent { .. } => {
                        unreachable!("`shares` makes no put's new members")
                    }
                }
            }
            (AxisKind::Drawn(values), true, _) | (AxisKind::Drawn(values), _, Some(BornStep::Drawn)) => {
                Ok(values.iter().map(|&v| drawn_share(source, v).unwrap_or(0.0)).collect())
            }
            _ => Err(unsupported("a partition-key attribute a call neither gives nor draws", place)),
        }
    }
}

/// How many new ids of `entity`'s identity the run's puts make, when `attr` is that identity:
/// its one put pattern's calls (call k makes member `initial + k`). Refused where the ids' order
/// is not that pattern's calls: a second put pattern of the entity (their calls interleave) or
/// `growth_per_day` (the population grows between puts).
fn new_ids(
    world: &World,
    entity: usize,
    attr: usize,
    puts: &[u64],
    place: &str,
) -> Result<Option<u64>, FluidError> {
    let Some((_, pop)) = world.entities[entity].identity.filter(|&(a, _)| a == attr) else { return Ok(None) };
    let mut makers = (world.patterns.iter().enumerate())
        .filter(|(_, p)| p.entity == entity && p.action == Action::Put && p.operation.is_some());
    let Some((put, _)) = makers.next() else { return Ok(None) };
    if makers.next().is_some() || world.pops[pop].growth_per_day > 0.0 {
        return Err(unsupported(
            "a hash() slot of the new item's own identity, whose ids two put patterns or growth_per_day number (the ids' order is not one pattern's calls)",
            place,
        ));
    }
    Ok(Some(puts.get(put).copied().unwrap_or(0)))
}

/// A put's chance of each of a hash of its new identity's `count` slots: the share of the ids
/// the run's puts make (the members past the `initial` ones, by number) that `slots` puts
/// there. Exact over the run; none without puts.
fn fresh_spread(count: u32, initial: u64, slots: &[u32]) -> Vec<f64> {
    let mut out = vec![0.0; usize::try_from(count).unwrap_or(0)];
    let made = slots.get(usize::try_from(initial).unwrap_or(usize::MAX)..).unwrap_or(&[]);
    for &slot in made {
        if let Some(x) = out.get_mut(usize::try_from(slot).unwrap_or(usize::MAX)) {
            *x += 1.0;
        }
    }
    let n = made.len() as f64;
    if n > 0.0 {
        for x in &mut out {
            *x /= n;
        }
    }
    out
}

/// The values a generator draws, where they are a small stated set: a choice's texts (a
/// constant text is a choice of one), a lifecycle's states, a chance's two answers.
fn outcomes(source: &Gen) -> Option<Rc<[Val]>> {
    let count = match source {
        Gen::Choice(weights) => u32::try_from(weights.len()).ok()?,
        Gen::States(n) => *n,
        Gen::Chance(_) => return Some(Rc::from([Val::Bool(true), Val::Bool(false)])),
        _ => return None,
    };
    Some((0..count).map(Val::Choice).collect())
}

/// The values the group's partitions take past the member: the product of its axes' sizes.
/// (Saturating: a product past `MAX_MEMBERS` is refused, however far past.)
pub fn radix(axes: &[Axis]) -> u64 {
    axes.iter().map(Axis::len).fold(1, u64::saturating_mul)
}

/// A flow's shares of the group's partitions: the member's `base` shares (over `people`
/// members) times each axis's chances, in the group's numbering. Unchanged without axes.
pub(super) fn spread(
    world: &World,
    group: &KeyGroup,
    pattern: &PatternRt,
    base: Shares,
    seed: u64,
    place: &str,
) -> Result<Shares, FluidError> {
    if group.axes.is_empty() {
        return Ok(base);
    }
    let people = group.member.map_or(1, |(_, pop)| world.pops[pop].size);
    if matches!(base, Shares::Seq(_)) {
        return Err(unsupported(
            "Seq picks in a partition key of two members or a drawn value (each call's pick is exact, their product is not)",
            place,
        ));
    }
    let per_axis: Vec<Vec<f64>> =
        group.axes.iter().map(|a| a.chances(world, pattern, seed, place)).collect::<Result<_, _>>()?;
    Ok(Shares::Each(product(people, &base, &per_axis).into()))
}

/// Each partition's chance: the member's share times its value's chance on every axis.
fn product(people: u64, base: &Shares, per_axis: &[Vec<f64>]) -> Vec<f64> {
    let mut out: Vec<f64> = (0..people).map(|m| base.of(usize::try_from(m).unwrap_or(usize::MAX))).collect();
    for chances in per_axis {
        out = out.iter().flat_map(|&x| chances.iter().map(move |&c| x * c)).collect();
    }
    out
}

/// The partition an item of values `vals` lands in, from its member's number; `None` when a
/// value is not one of its axis's.
pub(super) fn place(axes: &[Axis], member: u64, vals: &[Val]) -> Option<u64> {
    axes.iter()
        .try_fold(member, |at, axis| at.checked_mul(axis.len())?.checked_add(axis.number(vals[axis.attr])?))
}

/// Writes partition `v`'s axis values into `vals` and returns its member's number.
pub(super) fn fill(axes: &[Axis], v: u64, vals: &mut [Val]) -> u64 {
    let mut rest = v;
    for axis in axes.iter().rev() {
        let n = axis.len().max(1);
        vals[axis.attr] = axis.value(rest % n);
        rest /= n;
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(n: u32) -> Axis {
        Axis { attr: 1, kind: AxisKind::Drawn((0..n).map(Val::Choice).collect()) }
    }

    #[test]
    fn a_generator_states_its_outcomes_or_has_none() {
        for (source, expected) in [
            (Gen::Choice(vec![1.0]), Some(vec![Val::Choice(0)])),
            (Gen::Choice(vec![3.0, 1.0]), Some(vec![Val::Choice(0), Val::Choice(1)])),
            (Gen::States(3), Some(vec![Val::Choice(0), Val::Choice(1), Val::Choice(2)])),
            (Gen::Chance(0.2), Some(vec![Val::Bool(true), Val::Bool(false)])),
            (Gen::Payload(16), None),
            (Gen::Now, None),
        ] {
            assert_eq!(outcomes(&source).map(|v| v.to_vec()), expected, "{source:?}");
        }
    }

    #[test]
    fn partitions_are_members_then_axes_in_mixed_radix() {
        // (member's number, first axis's value, second axis's value, partition)
        let axes = [drawn(3), Axis { attr: 2, kind: AxisKind::Member { pop: 0, size: 5 } }];
        assert_eq!(radix(&axes), 15);
        for (member, first, second, partition) in [(0, 0, 0, 0), (0, 0, 4, 4), (0, 1, 0, 5), (2, 2, 3, 43)] {
            let mut vals = vec![Val::Absent; 3];
            vals[1] = Val::Choice(first);
            vals[2] = Val::Member(second);
            assert_eq!(place(&axes, member, &vals), Some(partition));
            let mut back = vec![Val::Absent; 3];
            assert_eq!(fill(&axes, partition, &mut back), member);
            assert_eq!(back[1..], vals[1..]);
        }
        let mut outside = vec![Val::Absent; 3];
        outside[1] = Val::Choice(3);
        outside[2] = Val::Member(0);
        assert_eq!(place(&axes, 0, &outside), None);
    }

    #[test]
    fn a_hash_slot_names_its_first_value_and_places_each_by_its_slot() {
        // Three drawn values hashed to slots 1, 0, 1.
        let hash = Axis {
            attr: 1,
            kind: AxisKind::Hash { count: 2, of: Rc::new(drawn(3)), slots: Rc::from([1, 0, 1]) },
        };
        assert_eq!(hash.len(), 2);
        // (slot, the value that names it)
        for (slot, value) in [(0, Val::Choice(1)), (1, Val::Choice(0))] {
            assert_eq!(hash.value(slot), value);
        }
        // (value, its slot)
        for (value, slot) in [
            (Val::Choice(0), Some(1)),
            (Val::Choice(1), Some(0)),
            (Val::Choice(2), Some(1)),
            (Val::Choice(3), None),
        ] {
            assert_eq!(hash.number(value), slot, "{value:?}");
        }
    }

    #[test]
    fn a_put_of_a_new_id_takes_its_slot_by_the_share_of_the_runs_new_ids() {
        // (slots of every member by number, initial members, expected chance of each of 2 slots)
        let cases: [(&[u32], u64, [f64; 2]); 4] = [
            // Members 2..6 are the run's new ids: slots 1, 1, 0, 1.
            (&[0, 0, 1, 1, 0, 1], 2, [0.25, 0.75]),
            // No initial members: every id is new.
            (&[0, 1, 1, 0], 0, [0.5, 0.5]),
            // All new ids in one slot, whatever the initial ones hash to.
            (&[1, 1, 0, 0], 2, [1.0, 0.0]),
            // No puts: no chance anywhere.
            (&[0, 1], 2, [0.0, 0.0]),
        ];
        for (slots, initial, expected) in cases {
            assert_eq!(fresh_spread(2, initial, slots), expected, "{slots:?} from {initial}");
        }
    }

    #[test]
    fn a_partitions_chance_is_the_product_of_its_axes() {
        // (member shares, each axis's chances, expected partition chances)
        let cases: [(Shares, Vec<Vec<f64>>, Vec<f64>); 3] = [
            (Shares::One, vec![vec![0.75, 0.25]], vec![0.75, 0.25]),
            (
                Shares::Each(Rc::from([0.5, 0.5])),
                vec![vec![1.0, 0.0, 0.0]],
                vec![0.5, 0.0, 0.0, 0.5, 0.0, 0.0],
            ),
            (Shares::Each(Rc::from([0.9, 0.1])), vec![vec![0.5, 0.5]], vec![0.45, 0.45, 0.05, 0.05]),
        ];
        for (base, per_axis, expected) in cases {
            let people = match &base {
                Shares::Each(s) => s.len() as u64,
                _ => 1,
            };
            let got = product(people, &base, &per_axis);
            assert_eq!(got.len(), expected.len());
            for (g, e) in got.iter().zip(&expected) {
                assert!((g - e).abs() < 1e-12, "{got:?} vs {expected:?}");
            }
        }
    }
}
