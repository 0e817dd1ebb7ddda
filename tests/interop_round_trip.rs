//! `import nwb` of what `export nwb` wrote gives back the same design: for every bundled
//! DynamoDB scenario and variant, the table's key names, every entity's key templates, and every
//! GSI (key names, templates, projection, `only_when`) and the capacity — except a GSI template
//! with a computed slot (hash, shard, bucket, date), which NoSQL Workbench cannot hold and which
//! the export names on stderr.
//!
//! `leaderboard` and `social-feed` have a test of their own, ignored by default: drawing their
//! sample items starts a simulation over 200,000 players (or a follower graph) that takes minutes
//! in a debug build (15 s a variant in release). Nothing in their designs is lost that the others
//! keep: run it with `cargo test --release --test interop_round_trip -- --ignored`.

use keyheat::engine::model::{IndexKind, Variant};
use keyheat::engine::template::Template;
use keyheat::interop::nwb;
use keyheat::scenario;

/// What a round trip must keep, as comparable text.
fn design(variant: &Variant, lossy: &[&str]) -> Vec<String> {
    let mut out = vec![
        format!("table pk {} sk {:?}", variant.table_pk, variant.table_sk),
        format!("capacity {:?}", variant.capacity),
    ];
    let mut keys: Vec<String> = variant
        .keys
        .iter()
        .filter(|k| !variant.embedded_whole(k.entity_id()))
        .map(|k| format!("{}: {} / {:?}", k.entity, k.pk.source(), k.sk.as_ref().map(Template::source)))
        .collect();
    keys.sort();
    out.extend(keys);
    for index in variant.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
        out.push(format!(
            "index {} on {} / {:?}: {} only_when {:?}",
            index.name, index.pk_attribute, index.sk_attribute, index.projection, index.only_when
        ));
        if lossy.contains(&index.name.as_str()) {
            continue;
        }
        let mut keys: Vec<String> = index
            .keys
            .iter()
            .map(|k| format!("  {}: {} / {:?}", k.entity, k.pk.source(), k.sk.as_ref().map(Template::source)))
            .collect();
        keys.sort();
        out.extend(keys);
    }
    out
}

/// The scenarios whose simulation is slow to start in a debug build.
const SLOW: [&str; 2] = ["leaderboard", "social-feed"];

#[test]
fn export_then_import_keeps_the_keys_and_indexes() {
    let checked = round_trip(|name| !SLOW.contains(&name));
    assert!(checked >= 8, "only {checked} variants were round-tripped");
}

#[test]
#[ignore = "minutes in a debug build: run with `cargo test --release --test interop_round_trip -- --ignored`"]
fn export_then_import_keeps_the_keys_and_indexes_of_leaderboard_and_social_feed() {
    let checked = round_trip(|name| SLOW.contains(&name));
    assert_eq!(checked, 5, "leaderboard's 2 variants and social-feed's 3");
}

/// Round-trips every variant of the bundled DynamoDB scenarios `pick` chooses; how many.
fn round_trip(pick: impl Fn(&str) -> bool) -> usize {
    let mut checked = 0;
    for loaded in scenario::bundled() {
        let s = &loaded.scenario;
        if s.engine != keyheat::engine::model::Engine::DynamoDb || !pick(&s.name) {
            continue;
        }
        for variant in &s.variants {
            let exported =
                nwb::export(s, variant).unwrap_or_else(|e| panic!("{} {}: {e}", s.name, variant.name));
            let imported = nwb::import("exported.json", &exported.json, None)
                .unwrap_or_else(|e| panic!("{} {}: {e}", s.name, variant.name));
            let back = scenario::parse("imported.ron", &imported.ron).expect("the imported scenario loads");
            let again = back.variant(None).expect("it has a variant");
            let lossy: Vec<&str> = variant
                .indexes
                .iter()
                .map(|i| i.name.as_str())
                .filter(|name| exported.notes.iter().any(|n| n.starts_with(&format!("index {name}: "))))
                .filter(|name| {
                    exported.notes.iter().any(|n| n.contains("computes its value") && n.contains(*name))
                })
                .collect();
            assert_eq!(
                design(again, &lossy),
                design(variant, &lossy),
                "{} / {}:\n{}",
                s.name,
                variant.name,
                imported.ron
            );
            checked += 1;
        }
    }
    checked
}
