//! How reads are planned: filters for what the key does not apply, a fetch for what an index
//! does not project, limits, and the Cassandra profile's scans and views.

use super::{IndexId, Operation, access, how, pattern, plan_src};
use crate::engine::planner::verdict::{Access, Considered, Cost, ReadHow, Scan};
use crate::scenario;

/// Messages in channels, 100 a day per channel for 30 days; variants put the author first in
/// the sort key, bucket by day, or read by author through indexes that project less.
const MESSAGES: &str = r#"(
    name: "messages", title: "Messages",
    entities: [(name: "Msg", attributes: [
        (name: "channel_id", type: S, gen: Pick("channels")),
        (name: "author", type: S, gen: Pick("users")),
        (name: "sent_at", type: Time, gen: Now),
        (name: "kind", type: S, gen: OneOf([("text", 9), ("image", 1)])),
        (name: "body", type: S, gen: Payload(100)),
    ])],
    populations: [
        (name: "channels", count: 1000, ids: "c{:04}"),
        (name: "users", count: 1000, ids: "u{:04}"),
    ],
    patterns: [
        (name: "post", action: Put, entity: "Msg", given: ["channel_id"], rate: 1.1574074074074074),
        (name: "exact", action: Get, entity: "Msg", given: ["channel_id", "sent_at"], rate: 10),
        (name: "last-hour", action: List, entity: "Msg", given: ["channel_id"],
         range: (attribute: "sent_at", span: Last("1h")), rate: 10),
        (name: "author-prefix", action: List, entity: "Msg", given: ["channel_id"],
         range: (attribute: "author", span: BeginsWith("u00")), rate: 1),
        (name: "by-author", action: List, entity: "Msg", given: ["channel_id", "author"], rate: 1),
        (name: "first-50", action: List, entity: "Msg", given: ["channel_id"], limit: 50, rate: 1),
        (name: "images", action: List, entity: "Msg", given: ["channel_id"], equals: {"kind": "image"},
         limit: 10, rate: 1),
        (name: "newest", action: List, entity: "Msg", given: ["channel_id"],
         range: (attribute: "sent_at", span: Last("30d")), order: Desc, limit: 50, rate: 1),
        (name: "authors-newest", action: List, entity: "Msg", given: ["author"],
         range: (attribute: "sent_at", span: Last("30d")), order: Desc, limit: 20, rate: 1),
        (name: "authors-recent", action: List, entity: "Msg", given: ["author"],
         range: (attribute: "sent_at", span: Last("30d")), order: Desc, limit: 250, returns: ["body"], rate: 1),
    ],
    variants: [
        (name: "author-first", keys: {"Msg": (pk: "{channel_id}", sk: "{author}#{sent_at}")}),
        (name: "bucketed", keys: {"Msg": (pk: "{channel_id}#{bucket(sent_at, 1d)}", sk: "{sent_at}")},
         indexes: [(name: "by-author", keys: {"Msg": (pk: "{author}#{shard(4)}", sk: "{sent_at}")})]),
        (name: "keys-only", keys: {"Msg": (pk: "{channel_id}", sk: "{sent_at}")},
         indexes: [(name: "by-author", keys: {"Msg": (pk: "{author}", sk: "{sent_at}")}, projection: KeysOnly)]),
        (name: "include", keys: {"Msg": (pk: "{channel_id}", sk: "{sent_at}")},
         indexes: [(name: "by-author", keys: {"Msg": (pk: "{author}", sk: "{sent_at}")},
                    projection: Include(["body"]))]),
        (name: "local", keys: {"Msg": (pk: "{channel_id}", sk: "{sent_at}")},
         indexes: [(name: "by-kind", kind: Local, keys: {"Msg": (sk: "{kind}#{sent_at}")}, projection: KeysOnly)]),
    ],
    workload: (duration: "30d", tick: "1s", seed: 1),
)"#;

#[test]
fn sort_key_slots_after_the_first_unknown_one_become_filters() {
    // (pattern, key condition, filter): with SK {author}#{sent_at}, a caller who knows sent_at but
    // not the author cannot put sent_at in the key condition, so it filters on it.
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("exact", "PK = :pk", Some("sent_at = :sent_at")),
        ("last-hour", "PK = :pk", Some("sent_at >= :from")),
        ("author-prefix", "PK = :pk AND begins_with(SK, :prefix)", None),
        ("by-author", "PK = :pk AND begins_with(SK, :prefix)", None),
        ("images", "PK = :pk", Some("kind = :kind")),
    ];
    let plan = plan_src(MESSAGES, "author-first");
    for (name, key, filter) in cases {
        let p = pattern(&plan, name);
        assert_eq!(
            (p.key_condition.as_deref(), p.filter.as_deref()),
            (Some(*key), *filter),
            "{name}: {p:#?}"
        );
    }
    // The prefix narrows what is read: "u00…" is 100 of the 1,000 authors.
    let all = pattern(&plan, "last-hour").items_read.unwrap_or_default();
    let prefix = pattern(&plan, "author-prefix").items_read.unwrap_or_default();
    assert!((prefix / all - 0.1).abs() < 1e-6, "{prefix} of {all}");
}

#[test]
fn an_index_that_does_not_project_the_pattern_is_queried_and_fetched() {
    // (variant, pattern, index, fetch operation and requests): never a Scan.
    type Case<'a> = (&'a str, &'a str, &'a str, Option<(Operation, u32)>);
    let cases: &[Case] = &[
        ("keys-only", "authors-newest", "by-author", Some((Operation::BatchGetItem, 1))),
        // 250 results take 3 BatchGetItem requests of at most 100 keys.
        ("keys-only", "authors-recent", "by-author", Some((Operation::BatchGetItem, 3))),
        ("include", "authors-newest", "by-author", Some((Operation::BatchGetItem, 1))),
        // What the pattern returns is projected: nothing to fetch.
        ("include", "authors-recent", "by-author", None),
    ];
    for (variant, name, index, fetch) in cases {
        let plan = plan_src(MESSAGES, variant);
        let p = pattern(&plan, name);
        let what = format!("{variant}/{name}: {p:#?}");
        assert_eq!(
            (p.operation, p.index.as_ref().map(IndexId::name), p.served()),
            (Some(Operation::Query), Some(*index), true),
            "{what}"
        );
        assert_eq!(p.fetch.as_ref().map(|f| (f.operation, f.requests)), *fetch, "{what}");
        if let Some(f) = &p.fetch {
            // Each fetched item costs half a unit (≤ 4 KB, eventually consistent), within the call.
            assert!((f.units - f.items * 0.5).abs() < 1e-9 && p.units_per_call > f.units, "{what}");
            assert!(matches!(access(p), Access::Query(q) if q.fetch.is_some()), "{what}");
        }
    }
    let recent = pattern(&plan_src(MESSAGES, "keys-only"), "authors-recent").fetch.clone();
    // The limit of 250 cuts each call: an author gathers ~3,000 messages over the 30 days
    // (1,500 on average), so every call reaches it but those in the run's first sixteenth,
    // which find 187.5: (187.5 + 7 × 250) / 8.
    assert!(
        recent.as_ref().is_some_and(|f| (f.items - (187.5 + 7.0 * 250.0) / 8.0).abs() < 1e-6),
        "{recent:?}"
    );
    // An LSI fetches by itself, inside the Query: costed the same way (10 images: 5 RCU + the
    // index's 0.5), here dearer than reading the small partition.
    let local = plan_src(MESSAGES, "local");
    let images = pattern(&local, "images");
    let lsi = images
        .alternatives
        .iter()
        .find(|a| IndexId::place(a.index.as_ref()) == "LSI by-kind")
        .expect("considered");
    let Considered::CostsMore(cost) = &lsi.considered else { panic!("{lsi:?}") };
    let Cost { operation, fanout, fetch, units, .. } = cost;
    assert_eq!((*operation, *fanout, *fetch), (Operation::Query, 1, true), "{cost:?}");
    assert!((units - 5.5).abs() < 1e-9, "{cost:?}");
}

#[test]
fn a_limit_stops_every_query_that_can_stop() {
    // (variant, pattern, items read per call), with 100 messages per channel a day.
    let cases: &[(&str, &str, f64)] = &[
        // No range: the first 50 items of the partition.
        ("author-first", "first-50", 50.0),
        // A filter that 1 in 10 items pass: about 100 reads for 10 matches.
        ("author-first", "images", 100.0),
        // Newest first over daily buckets: the call stops at 50 in total, not 50 a bucket.
        ("bucketed", "newest", 50.0),
        // Over 4 write shards in order: each shard gives its newest 20 to merge them.
        ("bucketed", "authors-newest", 80.0),
    ];
    for (variant, name, items) in cases {
        let plan = plan_src(MESSAGES, variant);
        let p = pattern(&plan, name);
        let read = p.items_read.unwrap_or_default();
        assert!((read - items).abs() < 1e-6, "{variant}/{name}: {read} items, expected {items}: {p:#?}");
    }
    // A range the key does not order is read in full before the limit can apply.
    let limited =
        MESSAGES.replace(r#"span: Last("1h")), rate: 10"#, r#"span: Last("1h")), limit: 5, rate: 10"#);
    let plain = pattern(&plan_src(MESSAGES, "author-first"), "last-hour").items_read;
    assert_eq!(pattern(&plan_src(&limited, "author-first"), "last-hour").items_read, plain);
}

fn cassandra(source: &str) -> String {
    source.replace(r#"title: "Messages","#, r#"title: "Messages", engine: Cassandra,"#)
}

#[test]
fn a_cassandra_scan_reads_the_patterns_own_table_with_cql_placeholders() {
    // Likes outnumber messages ten to one; in Cassandra they are their own table, which a scan
    // of messages never reads.
    let source = r#"(
        name: "cql", title: "CQL", engine: Cassandra,
        entities: [
            (name: "Msg", attributes: [
                (name: "channel_id", type: S, gen: Pick("channels")),
                (name: "author", type: S, gen: Pick("users")),
                (name: "sent_at", type: Time, gen: Now),
            ]),
            (name: "Like", attributes: [
                (name: "user_id", type: S, gen: Pick("users")),
                (name: "at", type: Time, gen: Now),
            ]),
        ],
        populations: [(name: "channels", count: 10, ids: "c{}"), (name: "users", count: 10, ids: "u{}")],
        patterns: [
            (name: "post", action: Put, entity: "Msg", given: ["channel_id"], rate: 1),
            (name: "like", action: Put, entity: "Like", given: ["user_id"], rate: 10),
            (name: "by-author", action: List, entity: "Msg", given: ["author"],
             range: (attribute: "sent_at", span: Last("1d")), rate: 1),
        ],
        variants: [(name: "v", keys: {
            "Msg": (pk: "{channel_id}", sk: "{sent_at}"),
            "Like": (pk: "{user_id}", sk: "{at}"),
        })],
        workload: (duration: "10d", tick: "1s", seed: 1),
    )"#;
    let plan = plan_src(source, "v");
    let p = pattern(&plan, "by-author");
    assert_eq!(p.operation, Some(Operation::Scan), "{p:#?}");
    assert_eq!(p.filter.as_deref(), Some("author = ? AND sent_at >= ?"));
    // One message a second for 10 days; none of the likes.
    assert!((p.items_read.unwrap_or_default() - 864_000.0).abs() < 1.0, "{p:#?}");
    // A full scan of the one table that holds messages.
    assert!(
        matches!(how(p), ReadHow::Scan(Scan { tables: Some(t), .. }) if t == &["Msg"]),
        "{:#?}",
        p.verdict
    );
}

#[test]
fn a_cassandra_view_keeps_every_base_key_column() {
    // A view may add one column to its table's key (CQL): `author`, not `author` and `shard`.
    let sharded = cassandra(MESSAGES);
    let error = scenario::parse("case.ron", &sharded).expect_err("a view adding two columns is refused");
    assert!(
        error.to_string().contains("adds 2 columns that are not in Msg's primary key (author, shard)"),
        "{error}"
    );
    let source = sharded
        .replace(r#"(pk: "{author}#{shard(4)}", sk: "{sent_at}")"#, r#"(pk: "{author}", sk: "{sent_at}")"#);
    let plan = plan_src(&source, "bucketed");
    let view = plan.layouts.iter().find(|l| l.index.as_deref() == Some("by-author")).expect("the view");
    assert_eq!(view.key, "PRIMARY KEY ((author), sent_at, channel_id, sent_at_bucket)");
    // JSON keeps DynamoDB's operation names; the text report prints CQL.
    assert_eq!(pattern(&plan, "post").operation, Some(Operation::PutItem));
}

#[test]
fn a_constant_attribute_is_known_to_every_pattern() {
    // `game` is always "tetris": the top-N needs no input for it, and a sharded board with an
    // INCLUDE projection serves it with a Query per shard and a fetch — not a Scan.
    let source = r#"(
        name: "board", title: "Board",
        entities: [(name: "Score", attributes: [
            (name: "player_id", type: S, gen: Pick("players")),
            (name: "game", type: S, gen: Text("tetris")),
            (name: "score", type: N, gen: Number(Uniform(0, 1000000))),
            (name: "region", type: S, gen: OneOf([("eu", 1), ("us", 1)])),
        ])],
        populations: [(name: "players", count: 100000, ids: "p{}")],
        patterns: [
            (name: "submit", action: Update, entity: "Score", given: ["player_id"], sets: ["score"], rate: 10),
            (name: "top-100", action: List, entity: "Score", range: (attribute: "score", span: All),
             order: Desc, limit: 100, rate: 10),
        ],
        variants: [(name: "v", keys: {"Score": (pk: "P#{player_id}")}, indexes: [
            (name: "top", keys: {"Score": (pk: "{game}#{hash(player_id, 4)}", sk: "{score:010}")},
             projection: Include(["player_id"])),
        ])],
        workload: (duration: "1d", tick: "1s", seed: 1),
    )"#;
    let plan = plan_src(source, "v");
    let top = pattern(&plan, "top-100");
    assert_eq!(
        (top.operation, top.index.as_ref().map(IndexId::name), top.fanout),
        (Some(Operation::Query), Some("top"), 4)
    );
    assert_eq!((top.key_condition.as_deref(), top.filter.as_deref()), (Some("GSI1PK = :pk"), None));
    // 100 from each of 4 shards, and the 100 winners fetched for `region`.
    assert_eq!(top.items_read, Some(400.0));
    assert!(top.fetch.as_ref().is_some_and(|f| (f.items - 100.0).abs() < 1e-9), "{top:#?}");
}
