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

#[cfg(test)]
mod tests {
    use super::super::{FluidError, run};
    use crate::engine::sim::RunOptions;
    use crate::engine::time::SimDuration;

    /// A text to find in the scenario, and what to put there.
    type Edit = (&'static str, &'static str);

    /// practice-shop with `edits`, its `variant` replayed as rates for ten seconds: the feature
    /// it is refused for.
    fn refused(edits: &[Edit], variant: &str) -> String {
        let mut source = crate::scenario::load("practice-shop").expect("bundled").source().to_owned();
        for (from, to) in edits {
            assert!(source.contains(from), "no {from:?} to edit");
            source = source.replacen(from, to, 1);
        }
        let loaded = crate::scenario::parse("practice-shop.ron", &source).unwrap_or_else(|e| panic!("{e}"));
        let chosen = loaded.variant(Some(variant)).expect("variant");
        let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(10)) };
        match run(&loaded.scenario, chosen, &options, &mut |_| {}) {
            Err(FluidError::Unsupported { feature, .. }) => feature,
            other => panic!("{variant} {edits:?}: {other:?}"),
        }
    }

    /// Table-driven: practice-shop's `advance` is refused by the lifecycle's name in both
    /// variants (a sparse index gated on the first state; an index keyed by the state); the
    /// same update setting a fresh draw of a choice instead is not a lifecycle's step, and
    /// keeps the refusal of items puts also write.
    #[test]
    fn lifecycle_steps_of_new_items_are_refused_by_name() {
        const STATES: &str = "gen: States([\"PLACED\", \"SHIPPED\", \"DELIVERED\"])";
        const ONE_OF: &str = "gen: OneOf([(\"PLACED\", 1.0), (\"SHIPPED\", 1.0), (\"DELIVERED\", 1.0)])";
        const STEPPED: &str = "an update stepping a lifecycle of items puts of new identities make";
        let cases: [(&[Edit], &str, &str); 3] = [
            (&[], "recommended", STEPPED),
            (&[], "naive", STEPPED),
            (&[(STATES, ONE_OF)], "naive", "an update of items puts also write"),
        ];
        for (edits, variant, words) in cases {
            let feature = refused(edits, variant);
            assert!(feature.contains(words), "{variant} {edits:?}: refused for {feature:?}");
        }
    }
}
