//! A read that gives the first levels of a hierarchical partition key (Cosmos DB) but not the
//! rest: on a store that routes such a read (`profile::PrefixReads::ByPlacement`) it is a query
//! of the physical partitions holding the prefix, not of the whole container. The planner costs
//! it as a query whose partition key is the prefix — every logical partition under it read
//! together — sent to each physical partition the prefix is on.

use super::super::keys;
use super::super::numbers;
use super::super::verdict::KeyPrefix;
use super::Located;
use crate::engine::model::{AccessPattern, Bound, Index};
use crate::engine::profile::{Placement, PrefixReads};
use crate::engine::template::{Part, Template};

/// A prefix read's routing: what the plan says of the prefix, and the physical partitions a
/// call visits.
#[derive(Debug, Clone)]
pub(super) struct Routed {
    pub key: KeyPrefix,
    /// Physical partitions holding the prefix: one, until the prefix's items outgrow what one
    /// holds and it splits (its items sit together, `cosmos::placement`).
    pub partitions: u32,
}

/// The longest prefix of `located`'s partition key (fewer levels than it has) that the pattern
/// computes as one value, as the key the query reads by, and how it is routed. `None` when the
/// store does not route prefixes, the key has one level, or the pattern does not give its first
/// level: a read naming only a later level reads every partition.
pub(super) fn shorten(
    est: &super::Estimator<'_>,
    p: &AccessPattern,
    place: Option<&Index>,
    located: &Located<'_>,
    pk_name: &str,
) -> Option<(Template, Routed)> {
    let profile = est.scenario.engine.profile();
    if profile.prefix_reads != PrefixReads::ByPlacement || located.prefix.is_some() {
        return None;
    }
    let (entity, pk, _) = located.templates[0];
    let levels = pk.template.level_count();
    let (given, short) = (1..levels).rev().find_map(|k| {
        let short = pk.template.first_levels(k)?;
        let reach = keys::reach(p, &short, false, est.secs).ok()?;
        (reach.fanout == 1).then_some((k, short))
    })?;
    let paths =
        pk.template.level_parts().take(given).enumerate().map(|(i, parts)| level_path(parts, i, pk_name));
    let bound = Bound { template: &short, slots: &pk.slots[..short.parts().len().min(pk.slots.len())], ..pk };
    // The prefix's items at the end of the run, against what a physical partition holds
    // before it splits.
    let bytes = est.items_total(entity)
        * est.presence(entity, place)
        * est.spread(place, bound, Some(p)).typical
        * est.entry_bytes(place, entity);
    let partitions = match profile.placement {
        Placement::HashRanges { split_bytes, .. } => numbers::ceil_u32(bytes / split_bytes as f64).max(1),
        Placement::Ring { .. } => 1,
    };
    let of = profile.request_units().then(|| est.variant.cosmos_throughput().initial_partitions());
    let key = KeyPrefix { given: paths.collect(), levels, of };
    Some((short, Routed { key, partitions }))
}

/// The path a level of a hierarchical key is stored at: the attribute itself when the level is
/// one plain `{attribute}`, else a property of its own named for the key and the level (`PK2`).
fn level_path(parts: &[Part], i: usize, pk_name: &str) -> String {
    match parts {
        [Part::Attr { name, pad: None }] => name.clone(),
        _ => format!("{pk_name}{}", i + 1),
    }
}
