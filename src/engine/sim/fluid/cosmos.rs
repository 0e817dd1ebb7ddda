//! What the fluid replay models of Cosmos DB's request units, and what it refuses by name.
//!
//! Modelled: point reads, updates, puts and queries of one logical partition, of items sized as
//! their JSON (system properties included), charged by Microsoft's table of RU by document size
//! (`profile::cosmos`): an update a replace, two writes by size; a put a create, one write, where
//! its key cannot be taken (`check_puts`); a query one page on its partition (2.5 RU and 1 RU a
//! started KB loaded); the container's meter (`Meter::shared`, the per-operation replay's own),
//! each physical partition serving its even share of the RU/s and whole the request that finds
//! any budget left; 429s retried under the client's policy, if it waits without jitter.
//! Hierarchical partition keys: a logical partition per whole key (a member and a bucket of the
//! write time are a partition per bucket, as on any store), placed by its first level as the
//! store places it (`capacity`'s `placed`: `cosmos::placement`), so a tenant's buckets share a
//! physical partition; a read that names each full key is a query of each, and a query of the
//! key's first levels — the member, its buckets under it — one page of the member's items so
//! far there. Refused here, before the run: what costs, routes or retries otherwise, each named
//! for why.

use crate::engine::model::{Action, Variant};
use crate::engine::planner::Operation;
use crate::engine::profile::cosmos::{LEVEL_SEPARATOR, LOGICAL_PARTITION_BYTES};
use crate::engine::retry::{Jitter, RetryPolicy};
use crate::engine::value::KeyType;

use super::super::items::key_label;
use super::super::world::World;
use super::model::{Flow, Model, SAMPLES, Shares};
use super::{FluidError, unsupported};

/// Refuses, on Cosmos DB, what the fluid replay does not charge or route as the per-operation
/// replay does, or retry as it does (`retry`, the client's policy).
pub fn check(world: &World, variant: &Variant, retry: &RetryPolicy, place: &str) -> Result<(), FluidError> {
    // Under fixed waits (the Cosmos DB SDK's 1 s) a retry comes back at the place in its second
    // where it was refused, and the rates follow it there (forty slots a tick). Jittered waits
    // bring retries back across the second, onto budgets the rates spend otherwise: counters
    // `naive` under the AWS SDK's policy (500 ms doubling, equal jitter), two minutes, had 14%
    // more 429 responses as rates than per operation (1,976,410 against 1,732,507), though its
    // first attempts' 429s agreed.
    if retry.jitter != Jitter::None {
        return Err(unsupported(
            "a retry policy with jitter on Cosmos DB (retries that come back anywhere in a second meet budgets the rates spend otherwise)",
            place,
        ));
    }
    // A hierarchical key's logical partition is its whole key, placed by its first level
    // (`capacity`'s `placed`, the store's `cosmos::placement`): a key of a member and a bucket
    // of the write time is a member's partition per bucket, as on any store. A read of a prefix
    // goes to the physical partitions holding it and reads the logical partitions under it
    // there one after another (`exec::read::prefix`): where the prefix is the member and the
    // rest of the key its time slot, that is one page of the member's items so far on the one
    // partition holding its buckets (`model::prefix_read`, `Capacity::query_window`).
    if let Some(index) = variant.indexes.first() {
        return Err(unsupported(
            "secondary indexes on Cosmos DB (its automatic index: a query of another key visits every physical partition)",
            &format!("{place}, index {}", index.name),
        ));
    }
    if !variant.aggregates.is_empty() {
        return Err(unsupported("maintained aggregates on Cosmos DB", place));
    }
    for pattern in &world.patterns {
        let at = format!("pattern {}", pattern.name);
        // A put that finds an item replaces it, at twice a create's RU, and a create-once put
        // refused by its condition is charged as that replace (`Metering::failed_write`): a put
        // is modelled only where its key cannot be taken (`check_puts`, once the key's repeats
        // are known), and a create-once put, whose every refusal is such a charge, not at all.
        if pattern.action == Action::Put && pattern.condition.is_some() {
            return Err(unsupported(
                "create-once puts on Cosmos DB (a put refused by its condition is charged as the replace it would have been)",
                &at,
            ));
        }
        // A read of one item by its key is a point read; a Query reads one logical partition (the
        // table's key given whole; a read of a prefix, `model::prefix_read`), one page of at most
        // 1 MB on the physical partition holding it (`Capacity::query_units`, by the profile's
        // `page`: 2.5 RU and 1 RU a started KB). Anything else visits every physical partition.
        let point = matches!(pattern.operation, Some(Operation::GetItem | Operation::BatchGetItem));
        if pattern.action.is_read() && !point && pattern.operation != Some(Operation::Query) {
            return Err(unsupported(
                "queries of more than one logical partition on Cosmos DB (a page charged 2.5 RU and 1 RU a KB it loads on every physical partition it visits)",
                &at,
            ));
        }
        if pattern.action == Action::Put {
            continue;
        }
        if !pattern.action.is_read() && pattern.operation != Some(Operation::UpdateItem) {
            let request =
                pattern.operation.map_or_else(|| format!("{:?}", pattern.action), |o| format!("{o:?}"));
            return Err(unsupported(&format!("{request} requests on Cosmos DB"), &at));
        }
    }
    Ok(())
}

/// The most puts in which one may find its key taken, bounded above (`check_puts`): each such
/// put is a replace, at twice a create's RU, so the RU charged and the items kept are at most
/// 0.1% off.
const MOST_TAKEN: f64 = 1e-3;

/// Refuses puts on Cosmos DB whose key may already hold an item. A put is charged as a create
/// (one write by the document's size); one that finds its key taken is a replace, at twice
/// that, which rates do not charge. Decided from the key: a sort key that holds the write time
/// meets only the writes of its own second (`SortRepeats::per_second`), and its other parts
/// repeat with the chance `SortRepeats::collide` sampled from the replay's own generators
/// (`SAMPLES` draws: where no two drew the same, the rule of three bounds the chance by 3 over
/// the pairs drawn). A put meets each other write of its key in its second with that chance, so
/// it finds its key taken with at most the busiest key's writes a second at the patterns' peak
/// (`peak_rates`, per pattern) times it. tenant-files `naive` (`{uploaded_at}#{seq}`, a number
/// of 10⁹ values): the whale's ~250 uploads a second times 3.6×10⁻⁷, 9×10⁻⁵ of a put.
pub fn check_puts(world: &World, model: &Model, peak_rates: &[f64]) -> Result<(), FluidError> {
    let pairs = (SAMPLES * (SAMPLES - 1) / 2) as f64;
    for (g, group) in model.groups.iter().enumerate() {
        let puts: Vec<&Flow> = model
            .flows
            .iter()
            .filter(|f| f.group == g && f.write && world.patterns[f.pattern].action == Action::Put)
            .collect();
        // A put of a new identity makes a key of its own (`Shares::Fresh`): none is taken.
        if puts.iter().all(|f| matches!(f.shares, Shares::Fresh { .. })) {
            continue;
        }
        let Some(first) = puts.first() else { continue };
        let place = format!("pattern {}", world.patterns[first.pattern].name);
        let taken = "puts on Cosmos DB whose key may hold an item (a put that finds its item is a replace at twice a create's RU)";
        // Without the write time, a sort key meets every write of its partition over the run.
        if !group.sort.per_second || !model.preload[g].is_empty() {
            return Err(unsupported(
                &format!("{taken}: a sort key without the write time, or preloaded items"),
                &place,
            ));
        }
        let collide = group.sort.collide.max(3.0 / pairs);
        let busiest: f64 = puts
            .iter()
            .map(|f| {
                let most = match &f.shares {
                    Shares::Each(s) => s.iter().copied().fold(0.0, f64::max),
                    Shares::Seq(n) => 1.0 / *n as f64,
                    Shares::One => 1.0,
                    Shares::Fresh { .. } => 0.0,
                    // The busiest tick's favourite: a `Latest` pick's newest member.
                    Shares::Recent { now, .. } => now.iter().copied().fold(0.0, f64::max),
                };
                peak_rates.get(f.pattern).copied().unwrap_or(f64::INFINITY) * most
            })
            .sum();
        if busiest * collide > MOST_TAKEN {
            return Err(unsupported(
                &format!(
                    "{taken}: up to {:.1e} of a put finds its key taken ({busiest:.0} writes a second on the busiest key, each meeting another with the chance {collide:.1e})",
                    busiest * collide
                ),
                &place,
            ));
        }
    }
    Ok(())
}

/// A partition key's text as the reports name it: a hierarchical key's levels as a JSON list
/// (`items::key_label`, the per-operation replay's), any other key as it is.
pub fn label(text: String) -> String {
    if text.contains(LEVEL_SEPARATOR) { key_label(KeyType::S, text.as_bytes()) } else { text }
}

/// Refuses a Cosmos DB run in which a logical partition may reach its 20 GB: past it, every
/// write to it fails (403, substatus 1014) and its items stop growing, which the rates do not
/// follow — they keep each partition's writes coming. Refused once the largest logical
/// partition's band (its 99.9% quantile) comes within one item of the limit.
pub fn check_logical_limit(report: &super::RunReport) -> Result<(), FluidError> {
    let Some(bands) = &report.bands else { return Ok(()) };
    let largest = report.totals.largest_item_bytes as f64;
    let limit = LOGICAL_PARTITION_BYTES as f64;
    if bands.max_bytes.high + largest >= limit {
        return Err(unsupported(
            &format!(
                "writes to a logical partition past 20 GB on Cosmos DB (refused, 403 substatus 1014: the largest logical partition reaches up to {:.1} GB)",
                bands.max_bytes.high / f64::from(1u32 << 30)
            ),
            &format!("scenario {}, variant {}", report.scenario, report.variant),
        ));
    }
    Ok(())
}

/// Refuses, on Cosmos DB, a key group of new items (`Growth`) two patterns pick with different
/// shares in one direction (reads, or writes). Elsewhere such a peak is the sum of each
/// pattern's draw (`Replay::metered_peak`), but a grown group's peak (`Replay::grown_peak`)
/// draws one Binomial of their calls at their mean share, which spreads too much where one
/// share is far above the other: practice-shortener on Cosmos DB with a second, uniform resolve
/// beside its weighted one (60 a second each, a minute) drew a peak of 60 RU/s (band 55–71)
/// where per operation it was 54–55.
pub fn check_grown_peaks(world: &World, model: &Model) -> Result<(), FluidError> {
    let Some(growth) = &model.growth else { return Ok(()) };
    for (f, flow) in model.flows.iter().enumerate().filter(|(_, flow)| flow.group == growth.group) {
        let unequal = model.flows[..f].iter().find(|other| {
            other.group == flow.group
                && other.write == flow.write
                && other.pattern != flow.pattern
                && !other.shares.same(&flow.shares)
        });
        if let Some(other) = unequal {
            return Err(unsupported(
                "new items two patterns pick with different shares on Cosmos DB (the peak of a partition of new items is drawn at their mean share, which is their sum only where the shares are equal)",
                &format!(
                    "patterns {} and {}",
                    world.patterns[other.pattern].name, world.patterns[flow.pattern].name
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::label;

    /// A hierarchical key is named by its levels as a JSON list, as the per-operation replay's
    /// reports name it; any other key as it is.
    #[test]
    fn a_hierarchical_keys_label_lists_its_levels() {
        // (key text, label)
        let cases = [
            ("tenant-000", "tenant-000"),
            ("TENANT#7#2914704", "TENANT#7#2914704"),
            ("tenant-000\u{1f}2914704", r#"["tenant-000","2914704"]"#),
            ("a\u{1f}b\u{1f}c", r#"["a","b","c"]"#),
        ];
        for (text, want) in cases {
            assert_eq!(label(text.to_owned()), want, "{text:?}");
        }
    }
}
