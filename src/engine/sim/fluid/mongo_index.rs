//! Secondary indexes on a store whose index entries are the indexed values and a record id
//! (MongoDB, `IndexEntries::KeyAndRecordId`), as rates: where their rules differ from a
//! DynamoDB index's, whose model (`Model::compile`'s index groups, `scopes`, `report`) they
//! otherwise share.
//!
//! The same as a GSI's, and modelled there: every put of an item the index keys writes one
//! entry, on the index partition its index key names (a sparse index's on the share of puts
//! its gate admits), sized per sampled item as the per-operation replay sizes it
//! (`regen::entry_bytes`, which holds the rule for both stores); a Query of the index reads
//! the entries of its range there. On MongoDB nothing is metered or throttled, so a read or an
//! entry write is one operation on its partition's load and peaks, and a Query's FETCH of the
//! documents its entries point at happens within the request (bytes and latency only, which
//! rates do not model).
//!
//! What differs (MongoDB manual, "Indexes"; `profile::IndexEntries::KeyAndRecordId`):
//! - an entry is the indexed values, each sized by keyheat's approximation of its KeyString (a
//!   text its bytes, a number or a time its digits, as DynamoDB counts them, not its BSON
//!   size in the document), and an 8-byte record id (`mongo::RECORD_ID_BYTES`, keyheat's
//!   assumption), whatever the index projects; no
//!   100-byte per-entry overhead (DynamoDB's index storage rule, `entry_overhead`);
//! - an entry written is a key in the index's B-tree, not an item: write amplification counts
//!   the document writes alone (`entries_are_items`);
//! - a put that replaces a document writes its entry only when an indexed value changed, so
//!   the entry writes and their peaks follow the values replaced, not the puts landed: refused
//!   (`check_replaced`: social-feed `recommended`'s follow edges, upserted under an index by
//!   followee).
//!
//! It must never count an entry as an item written, or add DynamoDB's overhead to one.

use crate::engine::profile::{IndexEntries, Indexes};
use crate::engine::store::INDEX_ENTRY_OVERHEAD;

use super::super::world::World;
use super::{FluidError, unsupported};

/// What a report's notes say of indexes of key and record id replayed as rates.
pub(super) const NOTE: &str = "MongoDB indexes as rates: every put of a document an index keys writes one entry (a partial index's on the share of puts its filter admits) on the index key it names, of the indexed values (each sized by keyheat's approximation: a text its bytes, a number or a time its digits, not its BSON size in the document) and an 8-byte record id (keyheat's assumption), the entry's bytes sampled from the put's generators; entries are keys in the index, not documents, so write amplification leaves them out. A find through the index reads its key's entries and fetches their documents within the request (not a request of its own). A run whose puts may replace a document with index entries is refused (a replace writes its entry only when an indexed value changes).";

/// Whether the store's index entries are the indexed values and a record id.
pub(super) fn keyed(world: &World) -> bool {
    matches!(world.engine.profile().index_entries, IndexEntries::KeyAndRecordId { .. })
}

/// Bytes an index entry takes beyond its own: DynamoDB's 100 bytes per index item (DESIGN.md
/// §4, "index storage"), which the per-operation replay's index ledgers also count for a view
/// row; none for an entry of key and record id (`setup`'s `entries_without_overhead`).
pub(super) fn entry_overhead(world: &World) -> f64 {
    if keyed(world) { 0.0 } else { INDEX_ENTRY_OVERHEAD as f64 }
}

/// Whether an entry written counts as an item written in write amplification (not on
/// MongoDB: `IndexEntries::are_items`).
pub(super) fn entries_are_items(world: &World) -> bool {
    world.engine.profile().index_entries.are_items()
}

/// What a refusal calls an index: a view on a store of views (Cassandra), else an index
/// (DynamoDB's GSIs, MongoDB's indexes).
pub(super) fn index_word(world: &World) -> &'static str {
    if world.engine.profile().indexes == Indexes::Views { "view" } else { "index" }
}

/// Refuses index entries of key and record id on items a put may replace (`replaces`): the
/// replace writes the entry only when an indexed value changed (`table::index_change`: equal
/// digests of the indexed values write nothing), which follows the values replaced, not the
/// puts landed.
pub(super) fn check_replaced(world: &World, replaces: bool, place: &str) -> Result<(), FluidError> {
    if replaces && keyed(world) {
        return Err(unsupported(
            &format!(
                "index entries of documents a put may replace on {} (a replace writes its entry only when an indexed value changes)",
                world.engine
            ),
            place,
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::Engine;

    /// `scenario`'s `recommended` on `engine` (its own or one its file lists).
    fn world(scenario: &str, engine: Engine) -> World {
        let loaded = crate::scenario::load(scenario).expect("bundled");
        let loaded =
            if engine == loaded.scenario.engine { loaded } else { loaded.on_engine(engine).expect("engine") };
        let variant = loaded.variant(Some("recommended")).expect("variant");
        let plan = crate::engine::planner::plan(&loaded.scenario, variant);
        super::super::super::world::compile(&loaded.scenario, variant, &plan.patterns)
    }

    /// An entry of key and record id is no item: no 100-byte overhead, no item written; a
    /// projected entry (a GSI, a view row) is both, and its replaced items are not this
    /// module's to refuse.
    #[test]
    fn entries_of_key_and_record_id_are_keys_not_items() {
        // (scenario, engine, overhead, entries are items, replaced items refused, its word)
        let cases = [
            ("reviews", Engine::MongoDb, 0.0, false, true, "index"),
            ("social-feed", Engine::MongoDb, 0.0, false, true, "index"),
            ("social-feed", Engine::DynamoDb, 100.0, true, false, "index"),
            ("chat", Engine::Cassandra, 100.0, true, false, "view"),
        ];
        for (scenario, engine, overhead, items, refused, word) in cases {
            let world = world(scenario, engine);
            assert_eq!(index_word(&world), word, "{engine}");
            // Items no put replaces are never refused here.
            assert!(check_replaced(&world, false, "here").is_ok(), "{engine}");
            assert!((entry_overhead(&world) - overhead).abs() < 1e-9, "{engine}");
            assert_eq!(entries_are_items(&world), items, "{engine}");
            match check_replaced(&world, true, "here") {
                Err(FluidError::Unsupported { feature, place }) => {
                    assert!(refused && feature.contains("a replace writes its entry only when"), "{engine}");
                    assert!(feature.contains(&engine.to_string()) && place == "here", "{engine}: {feature}");
                }
                Ok(()) => assert!(!refused, "{engine}: not refused"),
                Err(e) => panic!("{engine}: {e}"),
            }
        }
    }

    /// An entry's bytes on MongoDB are the indexed values and the record id, whatever else the
    /// document holds: a review's entry by author is the author's id (10 bytes, `cust-00042`),
    /// its time (sized as a number of its hundredths of a second, as the per-operation replay
    /// sizes an indexed value: 6 bytes for 1,748,736,123 s) and the record id's 8, not the
    /// ~450-byte review.
    #[test]
    fn an_entry_is_its_indexed_values_and_a_record_id() {
        use super::super::super::items::Val;
        let world = world("reviews", Engine::MongoDb);
        let review = world.entities.iter().position(|e| e.name == "Review").expect("Review");
        let ent = &world.entities[review];
        let attr = |name: &str| ent.attrs.iter().position(|a| a.name == name).expect(name);
        let mut vals = vec![Val::Absent; ent.attrs.len()];
        vals[attr("author_id")] = Val::Member(42);
        vals[attr("reviewed_at")] = Val::time(1_748_736_123);
        let mut text = String::new();
        // (item bytes as given: they must not matter)
        for item in [0, 450, 100_000] {
            let bytes = super::super::super::regen::entry_bytes(&world, review, 0, &vals, item, &mut text);
            assert_eq!(bytes, Some(10 + 6 + 8), "an item of {item} bytes");
        }
        // Without its author the review has no entry there.
        vals[attr("author_id")] = Val::Absent;
        assert_eq!(super::super::super::regen::entry_bytes(&world, review, 0, &vals, 450, &mut text), None);
    }
}
