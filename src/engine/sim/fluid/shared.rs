//! Partitions two entities share: a single-table design keys a channel's memberships and its
//! messages (or a customer's profile and its orders) by the same partition key, so one partition
//! holds, and is metered as one, both entities' items. The fluid replay keeps each entity's key
//! group apart for what is the entity's own — its writes, which items replace which, what a Query
//! of its sort-key range reads — and sees the partition once for what is the partition's: its
//! items and bytes, its load in a tick (every flow of either entity, each member the sum of both
//! entities' expected loads), the partitions the table has, the largest and the hottest.
//!
//! Groups that share partitions form a *partition group* led by its first key group
//! ([`Model::lead`]): the lead's peaks count the calls of every flow of the group
//! ([`Model::peak_flows`]), and its closed partitions take in the others' member by member
//! ([`merge`]). The capacity meter already puts two keys of one text on one physical partition
//! (they hash alike); its splits weigh such a key once, and its throttled members are the lead's.
//!
//! Modelled exactly only where the two entities' keys are the same partitions, member for member:
//! the same member population written as the same text (the partition key's member and literals),
//! no time slot or write shard, and sort keys that start with distinct literal prefixes
//! (`MSG#…` and `MEMBER#…`), so that neither entity's item replaces the other's and a Query of
//! one entity's sort-key range reads none of the other's items. Anything else is refused by name.

use std::collections::{BTreeMap, HashMap};

use super::super::templates::{Slot, TemplatePlan};
use super::super::world::World;
use super::model::{KeyGroup, Model, key_text};
use super::replay::{Part, Replay, prune};
use super::{FluidError, unsupported};

/// Per key group, the lead of its partition group: the first group whose partitions its items
/// share (itself when it shares none). Keys are compared as the per-operation replay writes them,
/// at the run's start. What the fluid replay cannot model exactly is refused (module doc).
pub(super) fn leads(world: &World, groups: &[KeyGroup], start_secs: i64) -> Result<Vec<usize>, FluidError> {
    let mut lead: Vec<usize> = (0..groups.len()).collect();
    for (a, first) in groups.iter().enumerate() {
        let candidate = |(b, other): &(usize, &KeyGroup)| {
            other.group == first.group && other.entity != first.entity && lead[*b] == *b
        };
        let others: Vec<(usize, &KeyGroup)> =
            groups.iter().enumerate().skip(a + 1).filter(candidate).collect();
        // Every member's text only where another entity's key group is in the same table (a
        // group led by another was weighed with its lead, whose partitions it has).
        if lead[a] != a || others.is_empty() {
            continue;
        }
        let texts: HashMap<String, u64> =
            (0..first.members).map(|v| (key_text(world, first, v, start_secs), v)).collect();
        for (b, other) in others {
            let texts_b: Vec<String> =
                (0..other.members).map(|v| key_text(world, other, v, start_secs)).collect();
            if !texts_b.iter().any(|t| texts.contains_key(t)) {
                continue;
            }
            let place = format!(
                "{} {}, entities {} and {}",
                if first.index { "index" } else { "table" },
                world.group_name(first.group),
                world.entities[first.entity].name,
                world.entities[other.entity].name
            );
            check_pair(world, (first, other), &texts, &texts_b, &place)?;
            // Every entity already in the partition is one a Query of `other` must not read.
            if let Some(joined) =
                (a + 1..b).find(|&c| lead[c] == a && !distinct_heads(world, &groups[c], other))
            {
                let place = format!(
                    "table {}, entities {} and {}",
                    world.group_name(other.group),
                    world.entities[groups[joined].entity].name,
                    world.entities[other.entity].name
                );
                return Err(unsupported(WITHOUT_PREFIXES, &place));
            }
            lead[b] = lead[a];
        }
    }
    Ok(lead)
}

/// Refuses a pair of key groups whose shared partitions the fluid replay would not model exactly.
fn check_pair(
    world: &World,
    (first, other): (&KeyGroup, &KeyGroup),
    texts: &HashMap<String, u64>,
    texts_b: &[String],
    place: &str,
) -> Result<(), FluidError> {
    // An index's entries carry their item's table key after the index key: two entities'
    // entries of one index key interleave, and the report counts an index's figures per entity.
    if first.index || other.index {
        return Err(unsupported("two entities whose entries share an index's partitions", place));
    }
    // A bucket closes each entity's partitions on its own, and a shard is drawn per write.
    if first.time.is_some() || other.time.is_some() || first.shards.is_some() || other.shards.is_some() {
        return Err(unsupported(
            "two entities whose items share partitions under a key with a time slot or a write shard",
            place,
        ));
    }
    // Member v of one must be member v of the other: the same numbering of the partitions.
    let same = first.members == other.members
        && texts_b.iter().enumerate().all(|(v, t)| texts.get(t) == Some(&(v as u64)));
    if !same {
        return Err(unsupported(
            "two entities whose items share some partitions but not all (their keys' members differ)",
            place,
        ));
    }
    if distinct_heads(world, first, other) { Ok(()) } else { Err(unsupported(WITHOUT_PREFIXES, place)) }
}

/// The refusal of entities sharing partitions whose sort keys do not start apart.
const WITHOUT_PREFIXES: &str = "two entities whose items share partitions under sort keys without distinct literal prefixes (a Query of one reads the other's items, and their items may replace each other)";

/// Whether two entities' sort keys start with literal texts neither of which begins the other
/// (`MSG#…` and `MEMBER#…`): no item of one falls in a Query of the other's prefix.
fn distinct_heads(world: &World, first: &KeyGroup, other: &KeyGroup) -> bool {
    let head = |g: &KeyGroup| world.entities[g.entity].sk.as_ref().map(literal_head);
    matches!((head(first), head(other)), (Some(a), Some(b)) if !a.starts_with(&b) && !b.starts_with(&a))
}

/// The literal text a sort key starts with (`MSG#` of `MSG#{sent_at}#{seq}`).
fn literal_head(sk: &TemplatePlan) -> String {
    sk.slots.iter().map_while(|s| if let Slot::Lit(text) = s { Some(text.as_str()) } else { None }).collect()
}

impl Model {
    /// Whether group `g` shares its partitions with another entity's group.
    pub fn shares_partitions(&self, g: usize) -> bool {
        let lead = self.lead[g];
        self.lead.iter().enumerate().any(|(h, &l)| l == lead && h != g)
    }

    /// The flows whose calls load the partitions group `g` leads, in one direction: its own and
    /// those of every group sharing them (none for a group led by another), in flow order.
    pub fn peak_flows(&self, g: usize, write: bool) -> Vec<usize> {
        (0..self.flows.len())
            .filter(|&f| {
                let flow = &self.flows[f];
                flow.write == write && self.lead[flow.group] == g
            })
            .collect()
    }
}

/// Folds every partition group's closed partitions into its lead's, member by member, once every
/// bucket has closed: a shared partition's items are both entities' (their spreads independent),
/// its bytes both entities' bytes, and it holds an item unless neither entity left one there (the
/// others' partition counts lose the partitions the lead already counts).
pub(super) fn merge(replay: &mut Replay<'_>) {
    let leads = replay.model.lead.clone();
    let mut merged = Vec::new();
    for (g, &lead) in leads.iter().enumerate() {
        if lead == g {
            continue;
        }
        let parts = std::mem::take(&mut replay.groups[g].kept);
        let kept = &mut replay.groups[lead].kept;
        let at: BTreeMap<u64, usize> = kept.iter().enumerate().map(|(i, p)| (p.member, i)).collect();
        let mut both = 0.0;
        for part in parts {
            match at.get(&part.member) {
                Some(&i) => {
                    both += (1.0 - kept[i].empty) * (1.0 - part.empty);
                    kept[i] = joined(&kept[i], &part);
                }
                None => kept.push(part),
            }
        }
        replay.groups[g].partitions -= both;
        merged.push(lead);
    }
    for lead in merged {
        prune(&mut replay.groups[lead].kept);
    }
}

/// One partition holding two entities' items.
fn joined(a: &Part, b: &Part) -> Part {
    let mean = a.items.mean + b.items.mean;
    let bytes = a.items.mean * a.bytes_per_item + b.items.mean * b.bytes_per_item;
    Part {
        member: a.member,
        at_secs: a.at_secs,
        items: super::extremes::Normal { mean, sd: a.items.sd.hypot(b.items.sd) },
        pre: a.pre + b.pre,
        bytes_per_item: if mean > 0.0 { bytes / mean } else { 0.0 },
        empty: a.empty * b.empty,
    }
}
