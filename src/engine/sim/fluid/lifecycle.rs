//! Updates that step a lifecycle (`States`) of items made by puts of new identities
//! (practice-shop's `advance`: an order picked among those that exist moves PLACED → SHIPPED →
//! DELIVERED), as the fluid replay sees them: refused, under their own name.
//!
//! Such an update is not a race between writers: a put makes each item once, before any update
//! can pick it (an update picks among the items at its tick's start), and the update names it by
//! its identity. What it writes depends on how many updates picked the item before: the state it
//! finds, hence the index entries it removes (a sparse index gated on the first state loses the
//! entry) or moves (an index keyed by the state: a delete and a put). Rates would follow it by
//! the expected count of items in each state — each update picks uniformly, so it moves items
//! out of state k at `updates × n_k / N`, an expectation — and the entries each step removes or
//! moves per tick; the replay carries neither yet, so the update is refused by this name rather
//! than by the one for items whose content depends on which writer landed last.

use super::super::items::Gen;
use super::super::world::{PatternRt, World};
use crate::engine::model::Action;

/// What rates lack to replay update `pattern`, when it steps a lifecycle of items that puts of
/// new identities make and names its item by that identity; `None` for any other update.
pub(super) fn refusal(world: &World, pattern: &PatternRt) -> Option<&'static str> {
    let ent = &world.entities[pattern.entity];
    let (identity, _) = ent.identity?;
    let named = pattern.givens.contains(&identity);
    let stepped = pattern.sets.iter().any(|&a| matches!(ent.attrs[a].source, Gen::States(_)));
    let made = world.patterns.iter().any(|q| q.entity == pattern.entity && q.action == Action::Put);
    (named && stepped && made).then_some(
        "an update stepping a lifecycle of items puts of new identities make (the expected items in each state, and the index entries each step removes or moves)",
    )
}
