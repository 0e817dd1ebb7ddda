//! TTL as rates: an item with an expiry is deleted by the store's sweeper the profile's
//! `ttl_delay_secs` after it expires (DynamoDB's "within 48 hours", free of write units;
//! DESIGN.md §4 and AWS "Time to Live (TTL)"), and read until then (`upkeep`'s `sweep_ttl`). The
//! fluid replay does not delete items, so it accepts a TTL only over a run that ends before the
//! sweeper can reach any item: every item's expiry is its write (or the run's start, for a
//! preloaded one) plus its lifetime — the variant's, or a writer's own `ttl` (a sliding expiry
//! moves it out, never in) — so none is swept before the start plus the shortest lifetime plus
//! the delay. Until then the TTL is an attribute like another: its bytes are in the items the
//! fluid replay samples (the variant adds it to each covered entity with the item's generators).

use super::super::world::World;
use super::{FluidError, unsupported};

/// Refuses a TTL whose sweeper could delete an item within the run: its last tick starts
/// `last_tick_secs` after the run's start.
pub fn check(
    world: &World,
    lifetime_secs: Option<i64>,
    last_tick_secs: i64,
    place: &str,
) -> Result<(), FluidError> {
    let covered = |e: usize| world.entities[e].added.ttl.is_some();
    if !(0..world.entities.len()).any(covered) {
        return Ok(());
    }
    // A writer's own `ttl` replaces the variant's lifetime on what it writes.
    let shortest = world
        .patterns
        .iter()
        .filter(|p| covered(p.entity))
        .filter_map(|p| p.ttl_secs)
        .chain(lifetime_secs)
        .min()
        .unwrap_or(i64::MAX);
    let delay = world.engine.profile().ttl_delay_secs;
    if last_tick_secs >= shortest.saturating_add(delay) {
        return Err(unsupported(
            &format!(
                "TTL deletes within the run (an item may expire {shortest} s after its write and be swept {delay} s later)"
            ),
            place,
        ));
    }
    Ok(())
}
