//! Conditional writes as rates: which the fluid replay follows, and what they cost.
//!
//! A create-once put (`condition: NotExists`, attribute_not_exists on the item's key) is
//! refused when an item holds its key (`exec::write`'s `refuse_taken_key`): it writes nothing —
//! no item, no bytes — and still consumes the write units of the larger of the item there and
//! the one refused (DESIGN.md §4, "a failed condition still charges": AWS developer guide,
//! "DynamoDB read and write operations"; `store::capacity::failed_write_units`). So every put
//! is metered as an unconditional one is, and of the puts that reached a key, the first landed
//! one makes the item and every later one is refused: the items are the distinct keys the landed
//! puts touched, as for unconditional puts (the first write survives instead of the last, drawn
//! from the same generators, so the mean size is the same), and the puts refused are the landed
//! puts less those items — where an unconditional put would have overwritten one.
//!
//! That holds while the refused put's units are the landed one's and nothing else a put brings
//! depends on whether it landed. Refused, by name: a create-once put of an entity that another
//! pattern writes too or that is preloaded (whether the key is taken, and the units of the item
//! there, depend on that writer), of items with index entries or an aggregate (a refused put
//! writes neither), and of an upserted entity. A version check (`condition: Version`) is an
//! UpdateItem's, whose read and races `version` models; on any other write it is refused.

use crate::engine::model::Action;
use crate::engine::planner::Operation;

use super::super::world::{CondRt, PatternRt, World};
use super::{FluidError, unsupported};

/// Whether pattern `p`'s condition is one the fluid replay models: `Ok(true)` for a
/// create-once put it follows, `Ok(false)` for a write without a condition; refused otherwise.
pub(super) fn create_once(
    world: &World,
    p: usize,
    pattern: &PatternRt,
    place: &str,
) -> Result<bool, FluidError> {
    let Some(condition) = pattern.condition else { return Ok(false) };
    let put = pattern.action == Action::Put && pattern.operation == Some(Operation::PutItem);
    match condition {
        CondRt::NotExists if put => {}
        // A version-checked update's read and races are its update's flows (`version`).
        CondRt::Version(_) if super::version::version_checked(pattern) => return Ok(false),
        CondRt::Version(_) => {
            return Err(unsupported("a version check on a write other than an UpdateItem", place));
        }
        CondRt::NotExists => {
            return Err(unsupported("a create-once condition on a write other than a PutItem", place));
        }
    }
    let e = pattern.entity;
    let ent = &world.entities[e];
    let others = world
        .patterns
        .iter()
        .enumerate()
        .any(|(q, other)| q != p && other.entity == e && !other.action.is_read());
    let preloaded = ent.identity.is_some_and(|(_, pop)| world.pops[pop].initial > 0);
    let refusal = if others || preloaded {
        Some(
            "a create-once put of items another pattern or the preload also writes (whether the key is taken depends on them)",
        )
    } else if ent.entries.iter().any(Option::is_some) || !pattern.aggregates.is_empty() {
        Some("a create-once put of items with index entries or aggregates (a refused put writes neither)")
    } else if ent.upsert {
        Some("a create-once put of an upserted entity")
    } else {
        None
    };
    match refusal {
        Some(feature) => Err(unsupported(feature, place)),
        None => Ok(true),
    }
}
