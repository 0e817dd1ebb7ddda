//! How a class slot (`{shard(by: tenant_id, tenant-0000 = 8, else = 1)}`) splits a pattern's
//! calls: the share of calls each class takes, and which of the members a reader picks belong
//! to a class. The planner costs a call of each class on that class's layout and mixes them by
//! these shares.

use super::{Estimator, unwrap_sometimes};
use crate::engine::model::{AccessPattern, Bound, EntityId, Generator, ItemAttr, parse_id};
use crate::engine::planner::load::MEETING_EXACT;
use crate::engine::planner::{keys, numbers};
use crate::engine::template::{ClassSlot, Part};

/// One class of a class slot: a listed value, or `None` for every value not listed.
pub type Class<'c> = Option<&'c str>;

/// A key's class slot and the attribute of the entity's items its `by` names.
#[derive(Debug, Clone, Copy)]
pub struct ClassOf<'c> {
    pub slot: &'c ClassSlot,
    pub by: Option<ItemAttr>,
}

impl<'c> ClassOf<'c> {
    /// The key's class slot, if it has one.
    pub fn in_key(key: Bound<'c>) -> Option<ClassOf<'c>> {
        key.parts().find_map(|(part, slot)| Some(ClassOf { slot: part.class()?, by: slot.by }))
    }
}

impl Estimator<'_> {
    /// The share of `p`'s calls on each class of `slot`, listed values first, then the rest;
    /// shares sum to 1. A class attribute picked from a population weighs each member by the
    /// pattern's pick (its `keys`, else the population's popularity); a `OneOf` by its weights;
    /// a constant is one class. Any other generator's values are taken as unlisted (its items
    /// cannot hold a listed value: the file's check refuses such a value).
    pub fn class_shares<'c>(
        &self,
        entity: EntityId,
        of: ClassOf<'c>,
        p: &AccessPattern,
    ) -> Vec<(Class<'c>, f64)> {
        let (e, slot) = (self.entity(entity), of.slot);
        let generator = of.by.and_then(|a| self.generator_of(e, a)).map(unwrap_sometimes);
        let mut listed: Vec<(Class<'c>, f64)> =
            slot.cases.iter().map(|(v, _)| (Some(v.as_str()), 0.0)).collect();
        match generator {
            Some(Generator::Pick(_) | Generator::New(_)) => {
                if let Some(shares) = self.member_classes(entity, of, p) {
                    for (class, share) in shares {
                        if let Some(entry) = listed.iter_mut().find(|(c, _)| *c == class) {
                            entry.1 += share;
                        }
                    }
                }
            }
            Some(Generator::OneOf(choices)) => {
                let total: f64 = choices.iter().map(|(_, w)| w).sum();
                for (class, share) in &mut listed {
                    let w: f64 =
                        choices.iter().filter(|(v, _)| Some(v.as_str()) == *class).map(|(_, w)| w).sum();
                    *share = if total > 0.0 { w / total } else { 0.0 };
                }
            }
            Some(Generator::Text(text)) => {
                for (class, share) in &mut listed {
                    *share = f64::from(u8::from(*class == Some(text.as_str())));
                }
            }
            _ => {}
        }
        let rest = (1.0 - listed.iter().map(|(_, s)| s).sum::<f64>()).max(0.0);
        listed.push((None, rest));
        listed
    }

    /// Each listed member's class and the share of `p`'s picks it takes, when the class
    /// attribute holds a population's member ids; `None` otherwise.
    fn member_classes<'c>(
        &self,
        entity: EntityId,
        of: ClassOf<'c>,
        p: &AccessPattern,
    ) -> Option<Vec<(Class<'c>, f64)>> {
        let (e, slot, by) = (self.entity(entity), of.slot, of.by?);
        let population = match self.generator_of(e, by).map(unwrap_sometimes)? {
            Generator::Pick(pop) | Generator::New(pop) => self.scenario.population(pop),
            _ => return None,
        };
        let popularity = self.pick_popularity(e, by, p)?;
        let n = numbers::floor_u64(self.population_size(population)).max(1);
        if n > MEETING_EXACT {
            return None;
        }
        let shares = popularity.shares(n, self.scenario.workload.seed);
        Some(
            slot.cases
                .iter()
                .filter_map(|(v, _)| {
                    let member = usize::try_from(parse_id(&population.id_format, v)?).ok()?;
                    Some((Some(v.as_str()), shares.get(member).copied().unwrap_or(0.0)))
                })
                .collect(),
        )
    }

    /// Whether member `index` of the class attribute's population is in `class` (a listed
    /// value names it, or, for `None`, no listed value does).
    pub fn member_in_class(&self, entity: EntityId, of: ClassOf<'_>, class: Class<'_>, index: u64) -> bool {
        let (e, slot) = (self.entity(entity), of.slot);
        let Some(population) = (match of.by.and_then(|a| self.generator_of(e, a)).map(unwrap_sometimes) {
            Some(Generator::Pick(pop) | Generator::New(pop)) => Some(self.scenario.population(pop)),
            _ => None,
        }) else {
            return true;
        };
        let named = |v: &str| parse_id(&population.id_format, v) == Some(index);
        match class {
            Some(v) => named(v),
            None => !slot.cases.iter().any(|(v, _)| named(v)),
        }
    }
}

impl Estimator<'_> {
    /// How a class shard spreads the writes of its busiest key: each member's share of the
    /// entity's items divided by its class's shard count, the largest of those against the
    /// largest share unsharded (the whale's 8 shards each take 1/8 of its load; a small tenant
    /// keeps its one key). The ratio multiplies the busiest key's share. When the class
    /// attribute is not a population's member, the busiest value is taken to be in the class
    /// with the fewest shards.
    pub fn class_shard_ratio(&self, entity: EntityId, of: ClassOf<'_>) -> f64 {
        let count = |part: &Part| f64::from(part.fanout().max(1));
        let fewest = of.slot.parts().map(count).fold(f64::INFINITY, f64::min);
        self.busiest_by_class(entity, of, |part| 1.0 / count(part)).map_or(1.0 / fewest, |(ratio, _)| ratio)
    }

    /// The busiest partition of a class bucket: the member whose share of the items times its
    /// class's bucket (at most the run) is largest — a 10 Hz device's hour against a slow
    /// device's month. Returns the ratio of that member's share to the busiest member's share,
    /// and its bucket in seconds; when the class attribute is not a population's member, the
    /// busiest value is taken to be in the class with the longest bucket.
    pub fn class_bucket_busiest(&self, entity: EntityId, of: ClassOf<'_>) -> (f64, f64) {
        let width = |part: &Part| keys::bucket_width(part).map_or(1.0, |(_, longest)| longest);
        let held = |part: &Part| width(part).min(self.secs.max(1.0));
        let longest = of.slot.parts().map(width).fold(0.0, f64::max);
        match self.busiest_by_class(entity, of, held) {
            Some((scaled, part)) => (scaled / held(part), width(part)),
            None => (1.0, longest),
        }
    }

    /// Over the members of the class attribute's population: the one whose share of the
    /// entity's items times `weight` of its class's slot is largest, as (its share ÷ the largest
    /// share, times that weight; its slot). `None` when the class attribute is not a member.
    fn busiest_by_class<'s>(
        &self,
        entity: EntityId,
        of: ClassOf<'s>,
        weight: impl Fn(&Part) -> f64,
    ) -> Option<(f64, &'s Part)> {
        let (e, slot, by) = (self.entity(entity), of.slot, of.by?);
        let Some(Generator::Pick(pop) | Generator::New(pop)) = self.generator_of(e, by).map(unwrap_sometimes)
        else {
            return None;
        };
        let population = self.scenario.population(pop);
        let written = self.written_popularity(e, by)?;
        let n = numbers::floor_u64(self.population_size(population)).max(1);
        if n > MEETING_EXACT {
            return None;
        }
        let shares = written.shares(n, self.scenario.workload.seed);
        let listed: Vec<(u64, &Part)> = slot
            .cases
            .iter()
            .filter_map(|(v, part)| Some((parse_id(&population.id_format, v)?, part)))
            .collect();
        let part_of = |i: u64| listed.iter().find(|(m, _)| *m == i).map_or(&slot.other, |(_, part)| *part);
        let busiest = shares.iter().copied().fold(0.0, f64::max);
        let (score, part) = shares
            .iter()
            .zip(0u64..)
            .map(|(w, i)| (w * weight(part_of(i)), part_of(i)))
            .fold((0.0, &slot.other), |best, next| if next.0 > best.0 { next } else { best });
        (busiest > 0.0).then(|| (score / busiest, part))
    }
}
