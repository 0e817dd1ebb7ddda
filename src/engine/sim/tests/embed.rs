//! Embedding: a child's put appends it to its parent item, which grows until DynamoDB refuses it
//! at 400 KB (embedded whole), or keeps only the newest children (the subset pattern). The
//! parent's size, capacity units and regenerated list agree with each other exactly.

use crate::engine::model::Engine;
use crate::engine::planner::Operation;
use crate::engine::sim::report::RunReport;
use crate::engine::sim::{RunOptions, Simulation};
use crate::engine::value::{AttributeValue, Item, MAX_ITEM_BYTES, item_size};
use crate::scenario;

/// Two ~1 KB comments a second on one post, read with its comments once a second.
const THREAD: &str = r#"(
    name: "thread", title: "thread",
    entities: [
        (name: "Post", attributes: [
            (name: "post_id", type: S, gen: New("posts")),
            (name: "title", type: S, gen: Payload(100)),
        ]),
        (name: "Comment", attributes: [
            (name: "post_id", type: S, gen: Pick("posts")),
            (name: "at", type: Time, gen: Now),
            (name: "seq", type: N, gen: Number(Uniform(0, 1000000000))),
            (name: "body", type: S, gen: Payload(1000)),
        ]),
    ],
    populations: [(name: "posts", count: 1, ids: "p{}")],
    patterns: [
        (name: "comment", action: Put, entity: "Comment", given: ["post_id"], keys: Fixed(0), rate: 2),
        (name: "read", action: List, entity: "Post", with: ["Comment"], given: ["post_id"], keys: Fixed(0), rate: 1),
    ],
    variants: [
        (
            name: "whole",
            keys: {"Post": (pk: "POST#{post_id}", sk: "POST")},
            embeds: [(entity: "Comment", into: "Post", by: "post_id")],
        ),
        (
            name: "subset",
            keys: {"Post": (pk: "POST#{post_id}", sk: "POST"), "Comment": (pk: "POST#{post_id}", sk: "C#{at}#{seq}")},
            embeds: [(entity: "Comment", into: "Post", by: "post_id", as: "recent", keep_latest: Some(5))],
            // Projects everything, the list included.
            indexes: [(name: "by-title", keys: {"Post": (pk: "T#{title}")})],
        ),
    ],
    workload: (duration: "300s", tick: "1s", seed: 7),
)"#;

fn run(variant: &str) -> (Simulation, RunReport) {
    let loaded = scenario::parse("thread.ron", THREAD).expect("test scenario");
    let variant = loaded.variant(Some(variant)).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let report = sim.report();
    (sim, report)
}

fn list_len(sim: &Simulation, name: &str) -> (usize, u32) {
    let post = sim.item_named("Post", 0).expect("the post exists");
    // The regenerated item, list included, has exactly the size the table holds.
    assert_eq!(item_size(&post.item), post.size as usize, "{:?}", post.item.keys());
    match post.item.get(name) {
        Some(AttributeValue::L(list)) => (list.len(), post.size),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_post_embedding_every_comment_grows_until_writes_are_refused_at_400_kb() {
    let (sim, report) = run("whole");
    let comment = report.patterns.iter().find(|p| p.name == "comment").expect("comment");
    assert_eq!(comment.calls, 600);
    let refused = report.totals.item_size_errors;
    // ~1,030 bytes a comment: the post fills up after ~395 of them and refuses the rest.
    assert!((190..=215).contains(&refused), "{refused}");
    assert_eq!(
        (comment.failed, comment.item_size_errors, report.totals.failed_ops),
        (refused, refused, refused)
    );
    let (embedded, size) = list_len(&sim, "comments");
    assert_eq!(embedded as u64 + refused, comment.calls);
    assert_eq!(u64::from(size), report.totals.largest_item_bytes);
    assert!(size as usize <= MAX_ITEM_BYTES && size as usize > MAX_ITEM_BYTES - 1_100, "{size}");
    // The comments are not items: the table holds the post alone.
    assert_eq!(report.totals.items, 1);
    // An update is charged for the larger of the item before and after, rounded up to 1 KB:
    // the k-th comment costs about k KB, so the appends cost about n²/2 KB in all.
    let element = f64::from(size - 100) / embedded as f64;
    let expected: f64 = (1..=embedded).map(|k| ((110.0 + k as f64 * element) / 1024.0).ceil()).sum();
    assert!((comment.wcu / expected - 1.0).abs() < 0.02, "{} vs {expected}", comment.wcu);
    // Reading the post reads its comments: the last reads cost 400 KB / 4 KB × ½ = 50 RCU.
    let read = report.patterns.iter().find(|p| p.name == "read").expect("read");
    assert_eq!((read.single_operation(), read.avg_fanout), (Some(Operation::GetItem), 1.0));
    assert!(read.rcu_per_call_end.is_some_and(|end| (end - 50.0).abs() < 0.01), "{read:?}");
    assert!(read.rcu_per_call_start.is_some_and(|start| start < 10.0), "{read:?}");
}

#[test]
fn the_subset_pattern_keeps_the_newest_comments_and_every_comment_as_an_item() {
    let (sim, report) = run("subset");
    let comment = report.patterns.iter().find(|p| p.name == "comment").expect("comment");
    assert_eq!((report.totals.failed_ops, report.totals.item_size_errors), (0, 0));
    // Every comment is an item; the post keeps 5 in its list, so it stays ~5 KB.
    assert_eq!(report.totals.items, 1 + comment.calls);
    let (embedded, size) = list_len(&sim, "recent");
    assert_eq!(embedded, 5);
    assert!((5_000..6_000).contains(&size), "{size}");
    assert_eq!(u64::from(size), report.totals.largest_item_bytes);
    // Two requests a comment: the comment's item and the post's update, which rewrites the
    // post's index entry every time — the list changes even when it keeps its length and size.
    assert_eq!(comment.requests, 2 * comment.calls);
    assert_eq!(report.indexes[0].entry_writes, comment.calls);
    assert!((report.totals.write_amplification - 3.0).abs() < 1e-9, "{}", report.totals.write_amplification);
    // The call pays for all three: 2 WCU for the ~1.1 KB comment, 6 each for the ~5.5 KB post
    // and its entry (a little less while the list fills).
    assert!((comment.wcu / comment.calls as f64 - 14.0).abs() < 0.1, "{comment:?}");
    // The list holds the newest five: their times are the last of the run.
    let post = sim.item_named("Post", 0).expect("post");
    let Some(AttributeValue::L(list)) = post.item.get("recent") else { panic!("{:?}", post.item) };
    let times: Vec<f64> = list
        .iter()
        .map(|c| match c {
            AttributeValue::M(m) => match m.get("at") {
                Some(AttributeValue::N(n)) => n.to_string().parse().expect("a time"),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first: {times:?}");
    // Two a second: the newest five span the last ~2.5 seconds of the run.
    let written_last = sim.now().as_millis() as f64 / 1000.0;
    assert!(times.iter().all(|&t| written_last - t <= 3.5), "{times:?} vs {written_last}");
    let read = report.patterns.iter().find(|p| p.name == "read").expect("read");
    assert_eq!(read.single_operation(), Some(Operation::GetItem));
    assert!(read.rcu_per_call_end.is_some_and(|end| (end - 1.0).abs() < 1e-9), "{read:?}");
}

/// MongoDB: the post is a BSON document that may grow to 16 MiB, each append builds its whole
/// new version, and the update that would pass the limit is
/// refused. 100 KB comments, two a second: the post fills in ~84 s.
#[test]
fn on_mongodb_a_post_is_refused_past_16_mib_and_each_append_builds_it_whole() {
    use crate::engine::model::Engine;
    use crate::engine::profile::{bson, mongo};
    let source = THREAD
        .replace("Payload(1000)", "Payload(100000)")
        .replace(r#"title: "thread","#, r#"title: "thread", engines: [MongoDB],"#);
    let loaded = scenario::parse("thread.ron", &source).expect("test scenario");
    let loaded = loaded.on_engine(Engine::MongoDb).expect("listed");
    let variant = loaded.variant(Some("whole")).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let report = sim.report();
    let comment = report.patterns.iter().find(|p| p.name == "comment").expect("comment");
    let refused = report.totals.item_size_errors;
    let docs = report.documents.as_ref().expect("MongoDB reports its documents");
    let limit = bson::MAX_DOCUMENT_BYTES as u64;
    // A comment is ~100,030 bytes in the array: 167 fit, the other 433 of 600 are refused.
    // Counted independently of the refusal counters: the comments the stored post holds, its
    // list regenerated from the store. Every call either landed in it or was refused.
    let post = sim.item_named("Post", 0).expect("the post exists");
    let landed = match post.item.get("comments") {
        Some(AttributeValue::L(list)) => list.len() as u64,
        other => panic!("{other:?}"),
    };
    assert!((160..=170).contains(&landed), "{landed}");
    assert_eq!(landed + refused, comment.calls);
    assert_eq!((comment.item_size_errors, docs.refused_too_large), (refused, refused));
    // The stored post is the largest document.
    assert_eq!(u64::from(post.size), docs.largest_document_bytes);
    assert!(
        docs.largest_document_bytes <= limit && docs.largest_document_bytes > limit - 100_100,
        "{docs:?}"
    );
    // Each refusal is an update's: its message, and the codes by server version.
    for words in [
        "document past 16 MB refused",
        "Resulting document after update is larger than 16777216",
        "10334",
        "17419",
    ] {
        assert!(docs.refusal.contains(words), "{words:?} in {}", docs.refusal);
    }
    // Every append built the whole post again: the k-th about k comments, ~n²/2 in all.
    assert_eq!(docs.updates, landed);
    let element = docs.largest_document_bytes as f64 / landed as f64;
    let expected = element * (landed * (landed + 1) / 2) as f64;
    assert!(
        (docs.new_version_bytes as f64 / expected - 1.0).abs() < 0.01,
        "{} vs {expected}",
        docs.new_version_bytes
    );
    // And each append is slower than the last: 4 ms plus 0.2 ms per 4 KB of the post, up to
    // ~820 ms for the last (the p99 of the 600 calls is the 6th slowest, a refusal took 4 ms).
    let slowest = 4.0 + mongo::update_ms(docs.largest_document_bytes);
    let p99 = comment.latency_ms_p99;
    assert!(p99 <= slowest + 0.1 && p99 > 0.9 * slowest, "{p99} vs {slowest}");
    assert!(comment.latency_ms_p50 < comment.latency_ms_p99);
}

/// Runs `source` on MongoDB (the file must list it).
fn run_on_mongodb(source: &str, variant: &str) -> RunReport {
    use crate::engine::model::Engine;
    let loaded = scenario::parse("test.ron", source).expect("test scenario");
    let loaded = loaded.on_engine(Engine::MongoDb).expect("listed");
    let variant = loaded.variant(Some(variant)).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    sim.report()
}

/// The exact limit, through the replay: a put of a document of exactly 16,777,216 bytes is
/// stored, one of 16,777,217 refused. A scenario's payload is at most 400 KB, so the body is 41
/// of them. By hand, BSON: the frame (4 + 1), the `_id` ObjectId (1 + 3 + 1 + 12),
/// `id: "d0"` (1 + 2 + 1 + 4 + 2 + 1 = 11) and each `bNN` of n bytes (1 + 3 + 1 + 4 + n + 1 =
/// 10 + n): 443 bytes besides the payloads.
#[test]
fn on_mongodb_a_document_of_exactly_16_mib_is_stored_and_one_byte_more_refused() {
    let scenario = |last: usize| {
        let fields: Vec<String> = (0..41)
            .map(|i| {
                let n = if i == 40 { last } else { 409_600 };
                format!(r#"(name: "b{i:02}", type: S, gen: Payload({n})),"#)
            })
            .collect();
        format!(
            r#"(
    name: "limit", title: "limit", engine: MongoDB,
    entities: [
        (name: "Doc", attributes: [
            (name: "id", type: S, gen: Pick("docs")),
            {}
        ]),
    ],
    populations: [(name: "docs", count: 1, ids: "d{{}}")],
    patterns: [(name: "put", action: Put, entity: "Doc", given: ["id"], keys: Fixed(0), rate: 1)],
    variants: [(name: "one", keys: {{"Doc": (pk: "DOC#{{id}}")}})],
    workload: (duration: "3s", tick: "1s", seed: 7),
)"#,
            fields.join("\n            ")
        )
    };
    let fits = 16_777_216 - 443 - 40 * 409_600;
    // (the last payload's bytes, document bytes, puts refused)
    let cases = [(fits, 16_777_216, 0), (fits + 1, 16_777_217, 3)];
    for (last, bytes, refused) in cases {
        let report = run_on_mongodb(&scenario(last), "one");
        let put = report.patterns.iter().find(|p| p.name == "put").expect("put");
        assert_eq!(put.calls, 3, "{bytes}");
        assert_eq!((report.totals.item_size_errors, put.item_size_errors), (refused, refused), "{bytes}");
        let docs = report.documents.as_ref().expect("MongoDB reports its documents");
        let stored = if refused == 0 { bytes } else { 0 };
        assert_eq!(docs.largest_document_bytes, stored, "{bytes}");
    }
}

/// On MongoDB an index entry is the indexed values and a record id, never a copy of the
/// document: the by-title entry of the post is its 100-byte title plus 8 (an int64 RecordId,
/// keyheat's assumption), however many comments the post holds, and an append that leaves the
/// title as it was writes no entry. On DynamoDB the same index projects ALL: its entry is the
/// whole item and is written again with every append.
#[test]
fn on_mongodb_an_index_entry_is_its_key_and_a_record_id() {
    use crate::engine::profile::mongo;
    let source = THREAD.replace(r#"title: "thread","#, r#"title: "thread", engines: [MongoDB],"#);
    let mongodb = run_on_mongodb(&source, "subset");
    let index = mongodb.indexes.iter().find(|i| i.name == "by-title").expect("by-title");
    assert_eq!((index.items, index.bytes), (1, 100 + 8));
    assert_eq!(mongo::RECORD_ID_BYTES, 8);
    assert_eq!(index.entry_writes, 0);
    // Each comment is two document writes (the comment, the post's append), none an entry.
    let comment = mongodb.patterns.iter().find(|p| p.name == "comment").expect("comment");
    assert_eq!(comment.calls, 600);
    assert!(
        (mongodb.totals.write_amplification - 2.0).abs() < 1e-9,
        "{}",
        mongodb.totals.write_amplification
    );
    let (_, dynamodb) = run("subset");
    let index = dynamodb.indexes.iter().find(|i| i.name == "by-title").expect("by-title");
    assert!(index.bytes > 100 + 8 + 100 && index.entry_writes >= 600, "{index:?}");
    assert!(dynamodb.totals.write_amplification > 2.9, "{}", dynamodb.totals.write_amplification);
}

/// A put onto the key of a document already there replaces it with a new version the server
/// builds whole, as an update does: counted among the updates with its bytes. Three puts of one
/// key: an insert, then two replacements of a document of 44 + 1,000 bytes (BSON, as in the
/// 16 MB test: frame, `_id`, `id: "d0"`, `body`).
#[test]
fn on_mongodb_a_put_replacing_a_document_counts_as_an_update() {
    let source = r#"(
    name: "replace", title: "replace", engine: MongoDB,
    entities: [
        (name: "Doc", attributes: [
            (name: "id", type: S, gen: Pick("docs")),
            (name: "body", type: S, gen: Payload(1000)),
        ]),
    ],
    populations: [(name: "docs", count: 1, ids: "d{}")],
    patterns: [(name: "put", action: Put, entity: "Doc", given: ["id"], keys: Fixed(0), rate: 1)],
    variants: [(name: "one", keys: {"Doc": (pk: "DOC#{id}")})],
    workload: (duration: "3s", tick: "1s", seed: 7),
)"#;
    let report = run_on_mongodb(source, "one");
    let docs = report.documents.as_ref().expect("MongoDB reports its documents");
    assert_eq!(docs.largest_document_bytes, 1_044);
    assert_eq!((docs.updates, docs.new_version_bytes), (2, 2 * 1_044), "{docs:?}");
}

/// MongoDB: the post as the replay regenerates it, measured by BSON's grammar (`bson`) with the
/// `_id` MongoDB adds and each comment's time a UTC datetime, is exactly the size the collection
/// holds, however many comments it has.
#[test]
fn on_mongodb_a_posts_bson_size_is_the_size_stored() {
    use crate::engine::profile::bson;
    let source = THREAD.replace(r#"title: "thread","#, r#"title: "thread", engines: [MongoDB],"#);
    the_post_is_stored_at_its_size(&source, Engine::MongoDb, |post| {
        bson::dated_document_size(post, &|name| name == "at") + bson::GENERATED_ID_BYTES
    });
}

/// Cosmos DB: the post as the replay regenerates it, measured as its JSON (`json`) with the `id`
/// and the service's properties and each comment's time an ISO 8601 string, is exactly the size
/// the container holds, however many comments it has: the replay's per-field sizes, the key
/// attributes' and the list's commas add up to the text.
#[test]
fn on_cosmos_db_a_posts_json_size_is_the_size_stored() {
    use crate::engine::profile::json;
    // Cosmos DB has no secondary indexes to declare: `subset`'s goes.
    let source = THREAD
        .replace(r#"title: "thread","#, r#"title: "thread", engines: [CosmosDB],"#)
        .replace(r#"indexes: [(name: "by-title", keys: {"Post": (pk: "T#{title}")})],"#, "");
    the_post_is_stored_at_its_size(&source, Engine::CosmosDb, |post| {
        json::dated_item_size(post, &|name| name == "at")
    });
}

/// Replays `whole` of `source` on `engine` and, at every step, holds the size the store keeps
/// for the post to `size` of the post as the replay regenerates it.
fn the_post_is_stored_at_its_size(source: &str, engine: Engine, size: impl Fn(&Item) -> usize) {
    let loaded = scenario::parse("thread.ron", source).expect("test scenario");
    let loaded = loaded.on_engine(engine).expect("listed");
    let variant = loaded.variant(Some("whole")).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    let mut checked = 0;
    while sim.step() {
        let Some(post) = sim.item_named("Post", 0) else { continue };
        let comments = match post.item.get("comments") {
            Some(AttributeValue::L(list)) => list.len(),
            _ => 0,
        };
        assert_eq!(size(&post.item), post.size as usize, "with {comments} comments: {:?}", post.item.keys());
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}
