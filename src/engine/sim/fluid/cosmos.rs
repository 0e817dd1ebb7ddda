//! What the fluid replay models of Cosmos DB's request units, and what it refuses by name.
//!
//! Modelled: point reads and updates of items sized as their JSON (system properties included),
//! charged by Microsoft's table of RU by document size (`profile::cosmos`): an update a replace,
//! two writes by size; the container's meter (`Meter::shared`, the per-operation replay's own),
//! each physical partition serving its even share of the RU/s and whole the request that finds
//! any budget left; 429s retried under the client's policy, if it waits without jitter. Refused
//! here, before the run: what costs, routes or retries otherwise, each named for why.

use crate::engine::model::{Action, Variant};
use crate::engine::planner::Operation;
use crate::engine::retry::{Jitter, RetryPolicy};

use super::super::world::World;
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
    // A hierarchical key places a first level's logical partitions together and routes a read of
    // a prefix to the physical partitions holding it (`cosmos::prefix_range`): placements and
    // fan-out the rates do not follow.
    if let Some(keys) = variant.keys.iter().find(|k| k.pk.level_count() > 1) {
        return Err(unsupported(
            "hierarchical partition keys (a logical partition per whole key, placed by its first level; a read of a prefix sent to the partitions holding it)",
            &format!("{place}, entity {}", keys.entity),
        ));
    }
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
        // refused by its condition is charged as that replace (`Metering::failed_write`): a put's
        // charge depends on whether its key holds an item, which rates charge at one figure.
        if pattern.action == Action::Put {
            return Err(unsupported(
                "puts on Cosmos DB (a put that finds its item is a replace at twice a create's RU, and a create-once put refused by its condition is charged as that replace)",
                &at,
            ));
        }
        // A read of one item by its key is a point read; any other read is a query.
        let point = matches!(pattern.operation, Some(Operation::GetItem | Operation::BatchGetItem));
        if pattern.action.is_read() && !point {
            return Err(unsupported(
                "queries on Cosmos DB (a page charged 2.5 RU and 1 RU a KB it loads on every physical partition it visits)",
                &at,
            ));
        }
        if !pattern.action.is_read() && pattern.operation != Some(Operation::UpdateItem) {
            let request =
                pattern.operation.map_or_else(|| format!("{:?}", pattern.action), |o| format!("{o:?}"));
            return Err(unsupported(&format!("{request} requests on Cosmos DB"), &at));
        }
    }
    Ok(())
}

/// The most of an update's landed writes that may create their item on Cosmos DB
/// (`check_creates`).
const MOST_CREATES: f64 = 0.01;

/// Refuses a Cosmos DB run whose items number more than 1% of its landed writes. An update of a
/// key that holds no item creates it, at half a replace's RU (one write by size, not two); the
/// rates charge every update as a replace, on the meter too, where the per-operation replay
/// charges each key's first update as a create. The items bound the creates (a preloaded item
/// is replaced, so this may refuse more than it must): up to 1% of the writes, the demand the
/// meter decides throttling on and the RU reported are at most 0.5% high (counters: 500 or
/// 5,000 keys under 7.2 million likes).
pub fn check_creates(report: &super::RunReport) -> Result<(), FluidError> {
    let landed: u64 = report.patterns.iter().filter_map(|p| p.landed_writes).sum();
    if report.totals.items as f64 > MOST_CREATES * landed as f64 {
        return Err(unsupported(
            &format!(
                "updates of more keys than 1% of their writes on Cosmos DB ({} items of {landed} writes: a key's first update creates its item at half a replace's RU, and rates charge every update as a replace)",
                report.totals.items
            ),
            &format!("scenario {}, variant {}", report.scenario, report.variant),
        ));
    }
    Ok(())
}
