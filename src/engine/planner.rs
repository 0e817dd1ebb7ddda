//! The planner: static analysis of a key design before any workload runs. For every access
//! pattern it finds how the variant's keys serve it (GetItem, Query with the key condition it
//! would send, a fan-out of N requests, or a Scan — or nothing, with the reason), what each write
//! costs in items written (the write amplification), and it warns about designs that break under
//! load (unbounded or hot partitions, low-cardinality indexes, Scans) with the arithmetic shown.
//!
//! Estimates use the scenario's own numbers: pattern rates, population sizes and popularity, and
//! item sizes computed with `value::item_size` on a representative generated item. Reads are
//! costed as eventually consistent (DynamoDB's default; GSIs allow nothing else). The planner
//! never runs the store; the simulator measures what the planner predicts.

mod estimate;
mod keys;
mod load;
pub mod numbers;
mod read;
mod warnings;
mod write;

use serde::Serialize;

use super::model::{Engine, Scenario, Variant};

/// DynamoDB: one physical partition serves at most this many write units per second
/// (AWS developer guide, "Designing partition keys to distribute your workload").
pub const PARTITION_WCU: f64 = 1000.0;
/// DynamoDB: and at most this many read units per second (same source).
pub const PARTITION_RCU: f64 = 3000.0;
/// DynamoDB: an item collection (table + LSI items of one partition key) stops at 10 GB when the
/// table has an LSI; without one, the guide still names 10 GB as the point a partition splits.
pub const DYNAMODB_PARTITION_BYTES: f64 = 10.0 * 1024.0 * 1024.0 * 1024.0;
/// Cassandra / DataStax guidance: keep a partition under ~100 MB…
pub const CASSANDRA_PARTITION_BYTES: f64 = 100.0 * 1024.0 * 1024.0;
/// …and under ~100,000 rows.
pub const CASSANDRA_PARTITION_ROWS: f64 = 100_000.0;
/// A Query or Scan call reads at most 1 MB before it returns a page (AWS Query docs).
pub const PAGE_BYTES: f64 = 1024.0 * 1024.0;
/// An index whose partition key takes at most this many values concentrates its load.
pub const LOW_CARDINALITY: f64 = 10.0;
/// Index and copy writes per base write above which a write is flagged.
pub const WRITE_AMPLIFICATION_LIMIT: f64 = 2.0;

/// How one variant of a scenario serves its access patterns, and what to worry about.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub scenario: String,
    pub variant: String,
    pub engine: &'static str,
    /// Where each entity's items land, per table and index.
    pub layouts: Vec<Layout>,
    pub patterns: Vec<PatternPlan>,
    pub warnings: Vec<Warning>,
}

/// One entity's key in the table or an index, written the engine's way: `PK = CUSTOMER#{id},
/// SK = ORDER#{order_id}` for DynamoDB, `PRIMARY KEY ((sensor_id, day), reading_time)` for
/// Cassandra.
#[derive(Debug, Clone, Serialize)]
pub struct Layout {
    pub entity: String,
    /// `None` for the table.
    pub index: Option<String>,
    /// `table`, `GSI` or `LSI`.
    pub index_kind: &'static str,
    pub key: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Read,
    Write,
}

/// The request a pattern sends (DynamoDB API names; the Cassandra profile maps them to CQL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Operation {
    GetItem,
    BatchGetItem,
    Query,
    Scan,
    PutItem,
    UpdateItem,
    DeleteItem,
}

impl Operation {
    pub fn name(self) -> &'static str {
        match self {
            Operation::GetItem => "GetItem",
            Operation::BatchGetItem => "BatchGetItem",
            Operation::Query => "Query",
            Operation::Scan => "Scan",
            Operation::PutItem => "PutItem",
            Operation::UpdateItem => "UpdateItem",
            Operation::DeleteItem => "DeleteItem",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PatternPlan {
    pub name: String,
    pub kind: Kind,
    /// The base rate the file gives (calls per second), which the rate shapes multiply.
    pub rate: f64,
    /// Calls per second on average over the run.
    pub mean_rate: f64,
    /// Calls per second at the shapes' peak (what the hot-partition check uses).
    pub peak_rate: f64,
    /// `None` when nothing can serve the pattern.
    pub operation: Option<Operation>,
    /// The index that serves it; `None` for the table.
    pub index: Option<String>,
    /// Requests per call: partitions queried or keys fetched.
    pub fanout: u32,
    pub key_condition: Option<String>,
    pub filter: Option<String>,
    /// Whether the keys serve it: false for a Scan, for something no key can serve, and for an
    /// update or delete whose key the caller cannot compute.
    pub served: bool,
    pub reason: String,
    /// Every other place that was considered, and why it does not serve or costs more.
    pub alternatives: Vec<Alternative>,
    /// Estimated read units (eventually consistent) or write units per call.
    pub units_per_call: f64,
    /// Items a read call reads (before any filter) in total across its requests.
    pub items_read: Option<f64>,
    /// Bytes those items take.
    pub bytes_read: Option<f64>,
    /// What one write call writes.
    pub writes: Vec<ItemWrite>,
    /// Items written per call / 1 (the base item).
    pub write_amplification: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Alternative {
    /// `table` or the index name.
    pub index: String,
    pub serves: bool,
    pub reason: String,
}

/// One item (or index entry) a write call writes, with how many per call on average.
#[derive(Debug, Clone, Serialize)]
pub struct ItemWrite {
    pub target: String,
    pub per_call: f64,
    pub units_each: f64,
    pub why: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningCode {
    Unserved,
    Scan,
    UnboundedPartition,
    LargePartition,
    HotPartition,
    LowCardinalityIndex,
    WriteAmplification,
}

impl WarningCode {
    pub fn id(self) -> &'static str {
        match self {
            WarningCode::Unserved => "unserved",
            WarningCode::Scan => "scan",
            WarningCode::UnboundedPartition => "unbounded-partition",
            WarningCode::LargePartition => "large-partition",
            WarningCode::HotPartition => "hot-partition",
            WarningCode::LowCardinalityIndex => "low-cardinality-index",
            WarningCode::WriteAmplification => "write-amplification",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    pub code: WarningCode,
    /// The pattern, partition key or index the warning is about.
    pub subject: String,
    /// What is wrong, with the inputs and arithmetic that show it.
    pub message: String,
}

/// Plans every pattern of the scenario under `variant` (which must be one of its variants).
pub fn plan(scenario: &Scenario, variant: &Variant) -> Plan {
    let est = estimate::Estimator::new(scenario, variant);
    let patterns: Vec<PatternPlan> = scenario
        .patterns
        .iter()
        .map(|p| if p.action.is_read() { read::plan(&est, p) } else { write::plan(&est, p) })
        .collect();
    let mut warnings = warnings::collect(&est, &patterns);
    warnings.sort_by(|a, b| (a.code, &a.subject).cmp(&(b.code, &b.subject)));
    Plan {
        scenario: scenario.name.clone(),
        variant: variant.name.clone(),
        engine: scenario.engine.id(),
        layouts: layouts(scenario, variant),
        patterns,
        warnings,
    }
}

fn layouts(scenario: &Scenario, variant: &Variant) -> Vec<Layout> {
    let mut out = Vec::new();
    let key = |pk_attr: &str, sk_attr: Option<&str>, keys: &super::model::EntityKeys| match scenario.engine {
        Engine::Cassandra => keys::cql_primary_key(keys),
        Engine::DynamoDb => match (&keys.sk, sk_attr) {
            (Some(sk), Some(sk_attr)) => {
                format!("{pk_attr} = {}, {sk_attr} = {}", keys.pk.source(), sk.source())
            }
            _ => format!("{pk_attr} = {}", keys.pk.source()),
        },
    };
    for entity in &scenario.entities {
        if let Some(k) = variant.keys_of(&entity.name) {
            out.push(Layout {
                entity: entity.name.clone(),
                index: None,
                index_kind: "table",
                key: key(&variant.table_pk, variant.table_sk.as_deref(), k),
            });
        }
        for index in &variant.indexes {
            if let Some(k) = index.keys_of(&entity.name) {
                out.push(Layout {
                    entity: entity.name.clone(),
                    index: Some(index.name.clone()),
                    index_kind: index.kind.short(),
                    key: key(&index.pk_attribute, index.sk_attribute.as_deref(), k),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    fn plan_of(name: &str, variant: &str) -> Plan {
        let loaded = scenario::load(name).unwrap();
        plan(&loaded.scenario, loaded.variant(Some(variant)).unwrap())
    }

    fn pattern<'a>(plan: &'a Plan, name: &str) -> &'a PatternPlan {
        plan.patterns.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no pattern {name}"))
    }

    #[test]
    fn each_bundled_lesson_warns_in_naive_and_not_in_recommended() {
        let cases = [
            ("sensors", WarningCode::UnboundedPartition, "{sensor_id}"),
            ("orders", WarningCode::Scan, "pending-orders"),
            ("counters", WarningCode::HotPartition, "COUNTER#{stream_id}"),
        ];
        for (name, code, subject) in cases {
            let naive = plan_of(name, "naive");
            assert!(
                naive.warnings.iter().any(|w| w.code == code && w.subject.contains(subject)),
                "{name} naive: {:#?}",
                naive.warnings
            );
            let fixed = plan_of(name, "recommended");
            assert!(
                fixed.warnings.iter().all(|w| w.code != code),
                "{name} recommended: {:#?}",
                fixed.warnings
            );
        }
    }

    #[test]
    fn plans_the_bundled_patterns() {
        // (scenario, variant, pattern, operation, index, fan-out, key condition, served)
        type Case<'a> = (&'a str, &'a str, &'a str, Operation, Option<&'a str>, u32, Option<&'a str>, bool);
        let cases: &[Case] = &[
            (
                "sensors",
                "naive",
                "last-24h",
                Operation::Query,
                None,
                1,
                Some("sensor_id = ? AND reading_time >= ?"),
                true,
            ),
            (
                "sensors",
                "recommended",
                "last-24h",
                Operation::Query,
                None,
                2,
                Some("sensor_id = ? AND reading_time_day = ? AND reading_time >= ?"),
                true,
            ),
            ("sensors", "recommended", "monthly-report", Operation::Query, None, 31, None, true),
            ("sensors", "naive", "get-sensor", Operation::GetItem, None, 1, Some("sensor_id = ?"), true),
            ("orders", "naive", "pending-orders", Operation::Scan, None, 1, None, false),
            (
                "orders",
                "recommended",
                "pending-orders",
                Operation::Query,
                Some("pending"),
                1,
                Some("GSI1PK = :pk"),
                true,
            ),
            ("orders", "naive", "customer-page", Operation::Query, None, 1, Some("PK = :pk"), true),
            (
                "orders",
                "naive",
                "get-customer",
                Operation::GetItem,
                None,
                1,
                Some("PK = :pk AND SK = :sk"),
                true,
            ),
            (
                "orders",
                "naive",
                "order-items",
                Operation::Query,
                None,
                1,
                Some("PK = :pk AND begins_with(SK, :prefix)"),
                true,
            ),
            (
                "orders",
                "naive",
                "ship-order",
                Operation::UpdateItem,
                None,
                1,
                Some("PK = :pk AND SK = :sk"),
                true,
            ),
            ("orders", "naive", "place-order", Operation::PutItem, None, 1, None, true),
            ("counters", "naive", "read-count", Operation::GetItem, None, 1, Some("PK = :pk"), true),
            (
                "counters",
                "recommended",
                "read-count",
                Operation::BatchGetItem,
                None,
                10,
                Some("PK = :pk"),
                true,
            ),
            ("counters", "recommended", "like", Operation::UpdateItem, None, 1, Some("PK = :pk"), true),
        ];
        for (name, variant, pattern_name, operation, index, fanout, key_condition, served) in cases {
            let plan = plan_of(name, variant);
            let p = pattern(&plan, pattern_name);
            let what = format!("{name}/{variant}/{pattern_name}: {p:#?}");
            assert_eq!(p.operation, Some(*operation), "{what}");
            assert_eq!(p.index.as_deref(), *index, "{what}");
            assert_eq!(p.fanout, *fanout, "{what}");
            if key_condition.is_some() || *operation == Operation::Scan {
                assert_eq!(p.key_condition.as_deref(), *key_condition, "{what}");
            }
            assert_eq!(p.served, *served, "{what}");
        }
    }

    #[test]
    fn the_naive_sensor_partition_passes_cassandras_guidance_within_the_run() {
        let plan = plan_of("sensors", "naive");
        let w = plan.warnings.iter().find(|w| w.code == WarningCode::UnboundedPartition).unwrap();
        // 3.3 puts/s over 50 sensors for 365 days: 2.1 million rows of ~71 bytes.
        for part in [
            "3.3/s",
            "uniform over 50 sensors",
            "0.07 rows/s",
            "2,102,379 rows",
            "142 MB",
            "365 days",
            "17 days",
        ] {
            assert!(w.message.contains(part), "{part:?} missing from {}", w.message);
        }
    }

    #[test]
    fn the_hot_counter_shows_its_arithmetic() {
        let plan = plan_of("counters", "naive");
        let w = plan.warnings.iter().find(|w| w.code == WarningCode::HotPartition).unwrap();
        // Zipf(s: 1.1) over 500 streams puts 19.2% on the top one: 8,000 × 0.192 × 1 WCU.
        for part in ["like 8,000/s × 19.2%", "× 1 WCU = 1,534.5 WCU/s", "1,000 WCU/s", "one item"] {
            assert!(w.message.contains(part), "{part:?} missing from {}", w.message);
        }
    }

    /// A chat-like scenario exercising what the bundled ones do not: full-text search, index
    /// projections, hash shards, LSIs, copies, aggregates and low-cardinality indexes.
    const CHAT: &str = r#"(
        name: "chat", title: "Chat",
        entities: [
            (name: "Channel", attributes: [
                (name: "channel_id", type: S, gen: New("channels")),
                (name: "title", type: S, gen: Payload(30)),
                (name: "kind", type: S, gen: OneOf([("public", 8), ("private", 2)])),
                (name: "messages", type: N, gen: Number(Uniform(0, 100000))),
            ]),
            (name: "Message", attributes: [
                (name: "channel_id", type: S, gen: Pick("channels")),
                (name: "sent_at", type: Time, gen: Now),
                (name: "author", type: S, gen: Pick("users")),
                (name: "body", type: S, gen: Payload(120)),
            ]),
        ],
        populations: [
            (name: "channels", count: 1000, ids: "ch{}", popularity: Zipf()),
            (name: "users", count: 50000, ids: "u{}"),
        ],
        patterns: [
            (name: "post", action: Put, entity: "Message", given: ["channel_id"], rate: 100),
            (name: "recent", action: List, entity: "Message", given: ["channel_id"],
             range: (attribute: "sent_at", span: Last("1h")), order: Desc, limit: 50, rate: 500),
            (name: "by-author", action: List, entity: "Message", given: ["author"], rate: 5),
            (name: "author-in-channel", action: List, entity: "Message", given: ["channel_id", "author"], rate: 5),
            (name: "search", action: List, entity: "Message", given: ["channel_id"], contains: "body", rate: 2),
            (name: "edit", action: Update, entity: "Message", given: ["channel_id"], sets: ["body"], rate: 1),
            (name: "rename", action: Update, entity: "Channel", given: ["channel_id"], sets: ["title"], rate: 1),
        ],
        variants: [
            (name: "plain", keys: {
                "Channel": (pk: "CH#{channel_id}", sk: "META"),
                "Message": (pk: "CH#{channel_id}", sk: "MSG#{sent_at}"),
            }),
            (name: "keys-only", keys: {
                "Channel": (pk: "CH#{channel_id}", sk: "META"),
                "Message": (pk: "CH#{channel_id}", sk: "MSG#{sent_at}"),
            }, indexes: [
                (name: "by-author", keys: {"Message": (pk: "{author}", sk: "{sent_at}")}, projection: KeysOnly),
            ]),
            (name: "heavy", keys: {
                "Channel": (pk: "CH#{channel_id}", sk: "META"),
                "Message": (pk: "CH#{channel_id}#{hash(author, 4)}", sk: "MSG#{sent_at}"),
            }, indexes: [
                (name: "by-author", keys: {"Message": (pk: "{author}", sk: "{sent_at}")}),
                (name: "by-kind", keys: {"Channel": (pk: "{kind}", sk: "{channel_id}")}),
                (name: "lsi-author", kind: Local, keys: {"Message": (sk: "{author}")}, projection: KeysOnly),
                (name: "copy-1", keys: {"Message": (pk: "{channel_title}")}),
                (name: "copy-2", keys: {"Message": (pk: "T#{channel_title}", sk: "{sent_at}")}),
            ], copies: [
                (from: "Channel", attribute: "title", to: "Message", as: "channel_title", by: "channel_id"),
            ], aggregates: [
                (name: "message-count", entity: "Channel", on: ["post"], attribute: "messages", op: Count),
            ]),
        ],
        workload: (duration: "30d", tick: "1s", seed: 1),
    )"#;

    fn chat(variant: &str) -> Plan {
        let loaded = scenario::parse("chat.ron", CHAT).unwrap();
        plan(&loaded.scenario, loaded.variant(Some(variant)).unwrap())
    }

    #[test]
    fn full_text_search_is_unserved_with_what_would_serve_it() {
        let plan = chat("plain");
        let p = pattern(&plan, "search");
        assert_eq!((p.operation, p.served), (None, false));
        assert!(
            p.reason.contains("search index fed by the same writes (e.g. OpenSearch via DynamoDB Streams)"),
            "{}",
            p.reason
        );
        assert!(plan.warnings.iter().any(|w| w.code == WarningCode::Unserved && w.subject == "search"));
    }

    #[test]
    fn says_why_an_index_does_not_serve() {
        let plan = chat("keys-only");
        let p = pattern(&plan, "by-author");
        assert_eq!(p.operation, Some(Operation::Scan));
        let reasons: Vec<(&str, &str)> =
            p.alternatives.iter().map(|a| (a.index.as_str(), a.reason.as_str())).collect();
        assert_eq!(
            reasons,
            [
                (
                    "table",
                    "its partition key CH#{channel_id} needs channel_id, which the pattern does not give"
                ),
                // channel_id is part of the table key every entry carries.
                (
                    "GSI by-author",
                    "it projects KEYS_ONLY and the pattern needs body (a GetItem per result would fetch the rest)"
                ),
            ]
        );
        assert!(plan.warnings.iter().any(|w| w.code == WarningCode::Scan && w.subject == "by-author"));
    }

    #[test]
    fn plans_hash_fanout_lsis_and_sort_key_ranges() {
        let plain = chat("plain");
        assert_eq!(
            pattern(&plain, "recent").key_condition.as_deref(),
            Some("PK = :pk AND SK BETWEEN :from AND :to")
        );
        let heavy = chat("heavy");
        let recent = pattern(&heavy, "recent");
        assert_eq!((recent.operation, recent.fanout), (Some(Operation::Query), 4), "{recent:#?}");
        assert!(recent.reason.contains("hash(author, 4) with author unknown"), "{}", recent.reason);
        // Knowing the author picks the hash shard, and the LSI's sort key pins the author.
        let both = pattern(&heavy, "author-in-channel");
        assert_eq!(both.fanout, 1, "{both:#?}");
        assert_eq!(both.index.as_deref(), Some("lsi-author"), "{both:#?}");
        assert_eq!(both.key_condition.as_deref(), Some("PK = :pk AND LSI1SK = :sk"));
        let by_author = pattern(&heavy, "by-author");
        assert_eq!(
            (by_author.operation, by_author.index.as_deref()),
            (Some(Operation::Query), Some("by-author"))
        );
        // An update that gives no sort key cannot name its item.
        let edit = pattern(&plain, "edit");
        assert!(!edit.served && edit.reason.contains("needs sent_at"), "{edit:#?}");
        assert!(plain.warnings.iter().any(|w| w.code == WarningCode::Unserved && w.subject == "edit"));
    }

    #[test]
    fn counts_every_item_a_write_writes() {
        let heavy = chat("heavy");
        let post = pattern(&heavy, "post");
        let targets: Vec<(&str, f64)> = post.writes.iter().map(|w| (w.target.as_str(), w.per_call)).collect();
        assert_eq!(
            targets,
            [
                ("table", 1.0),
                ("GSI by-author", 1.0),
                ("LSI lsi-author", 1.0),
                ("GSI copy-1", 1.0),
                ("GSI copy-2", 1.0),
                ("aggregate message-count", 1.0),
                // The count is projected (ALL) into the channel's by-kind entry.
                ("GSI by-kind (aggregate)", 1.0),
            ]
        );
        assert_eq!(post.write_amplification, Some(7.0));
        assert!(
            heavy.warnings.iter().any(|w| w.code == WarningCode::WriteAmplification && w.subject == "post")
        );
        // Renaming a channel rewrites its title on every message that copies it (100 posts/s
        // for 30 days over 1,000 channels: 259,200 messages per channel), those messages'
        // entries in by-author (which projects ALL), and their entries in the two indexes keyed
        // by the copy (delete + put each). The KEYS_ONLY LSI is untouched.
        let rename = pattern(&heavy, "rename");
        let copies: Vec<(&str, f64)> = rename
            .writes
            .iter()
            .filter(|w| w.target.contains("copy"))
            .map(|w| (w.target.as_str(), w.per_call.round()))
            .collect();
        assert_eq!(
            copies,
            [
                ("copy Message.channel_title", 259_200.0),
                ("GSI by-author (copy)", 259_200.0),
                ("GSI copy-1 (copy)", 518_400.0),
                ("GSI copy-2 (copy)", 518_400.0),
            ]
        );
    }

    #[test]
    fn flags_a_low_cardinality_index() {
        let heavy = chat("heavy");
        let w = heavy.warnings.iter().find(|w| w.code == WarningCode::LowCardinalityIndex).unwrap();
        assert_eq!(w.subject, "GSI by-kind {kind}");
        assert!(w.message.contains("takes only 2 values") && w.message.contains("80%"), "{}", w.message);
    }

    #[test]
    fn the_readme_example_checks_as_documented() {
        let readme = include_str!("../../scenarios/README.md");
        let start = readme.find("```ron\n").expect("the README has a RON example") + "```ron\n".len();
        let end = start + readme[start..].find("```").expect("the example ends");
        let loaded = scenario::parse("README.md", &readme[start..end]).unwrap();
        let naive = plan(&loaded.scenario, loaded.variant(Some("naive")).unwrap());
        let recent = pattern(&naive, "recent");
        assert_eq!(
            (recent.operation, recent.key_condition.as_deref()),
            (Some(Operation::Query), Some("PK = :pk AND SK >= :from"))
        );
        assert_eq!(pattern(&naive, "search").operation, None);
        let codes: Vec<WarningCode> = naive.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, [WarningCode::Unserved, WarningCode::UnboundedPartition]);
        let fixed = plan(&loaded.scenario, loaded.variant(Some("recommended")).unwrap());
        assert_eq!(pattern(&fixed, "recent").fanout, 2);
        assert!(fixed.warnings.iter().all(|w| w.code != WarningCode::UnboundedPartition));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Whatever numbers a file holds, planning never panics and every number it prints is finite.
        #[test]
        fn planning_any_numbers_never_panics(
            rate in 0.0f64..1e9,
            count in 0u64..1_000_000_000_000,
            bytes in 0u32..409_600,
            duration in 1u32..20_000,
        ) {
            let source = CHAT
                .replace("rate: 100", &format!("rate: {rate}"))
                .replace("count: 1000,", &format!("count: {count},"))
                .replace("Payload(120)", &format!("Payload({bytes})"))
                .replace("\"30d\"", &format!("\"{duration}d\""));
            if let Ok(loaded) = scenario::parse("chat.ron", &source) {
                for variant in &loaded.scenario.variants {
                    let plan = plan(&loaded.scenario, variant);
                    for p in &plan.patterns {
                        proptest::prop_assert!(p.units_per_call.is_finite(), "{p:?}");
                    }
                    for w in &plan.warnings {
                        proptest::prop_assert!(!w.message.contains("NaN") && !w.message.contains("inf"), "{}", w.message);
                    }
                }
            }
        }
    }

    #[test]
    fn output_is_deterministic() {
        let a = serde_json::to_string(&chat("heavy")).unwrap();
        let b = serde_json::to_string(&chat("heavy")).unwrap();
        assert_eq!(a, b);
    }
}
