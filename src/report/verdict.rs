//! What a failed goal means and where to look next: one line under each ✘ in `keyheat run`'s text
//! and Markdown reports, so a learner (or a graded practice answer) is told not only that a goal
//! failed but what the number says about the key design and which kind of change fixes it.
//!
//! The line is read from the graded result alone (its unit says which kind of goal it is, its
//! detail what was measured) plus the pattern reports, so it works for any scenario file. A
//! practice problem's goal that links a hint (`hint: N` in the file) adds `see hint N` and the
//! hint; `keyheat check` links hints the same way for goals the plan predicts to fail.

use crate::engine::goals::{self, GoalUnit, lost};
use crate::engine::model::Engine;
use crate::engine::planner::{Operation, numbers};
use crate::engine::profile::cosmos;
use crate::engine::sim::report::{GoalHint, GoalResult, GoalStatus, RunReport};

/// A hint at most this many characters long is printed on the line that links it; a longer one
/// gets a line of its own in text reports.
pub const SHORT_HINT: usize = 40;

/// How a failed goal of a practice problem points at the hint that helps with it, in text:
/// `see hint 2` to end the "→" line, plus the hint on a line of its own (`Hint 2: …`) unless it
/// is short enough to follow on the same line (`see hint 2: Shard it.`).
pub fn hint_link(hint: &GoalHint) -> (String, Option<String>) {
    if hint.text.chars().count() <= SHORT_HINT {
        (inline_hint(hint), None)
    } else {
        (format!("see hint {}", hint.number), Some(format!("Hint {}: {}", hint.number, hint.text)))
    }
}

/// `see hint 2: …` with the hint's text, for a Markdown cell.
pub fn inline_hint(hint: &GoalHint) -> String {
    format!("see hint {}: {}", hint.number, hint.text)
}

/// What one partition serves a second, in the store's terms: DynamoDB's fixed per-partition
/// units, or on Cosmos DB each physical partition's share of the container's throughput (at most
/// 10,000 RU/s, reads and writes together), with the run's figures when the report has them.
fn partition_limit(report: &RunReport) -> String {
    if !report.engine.profile().request_units() {
        return "1,000 WCU or 3,000 RCU a second; a throttled index throttles its table's writes".to_owned();
    }
    let cap = numbers::count(cosmos::PARTITION_RU_PER_S);
    match &report.request_units {
        Some(ru) => format!(
            "{} RU/s, its share of the container's {} RU/s over {} physical partitions, at most \
             {cap} RU/s; reads and writes share it",
            numbers::count(ru.partition_ru_per_s),
            numbers::count(ru.provisioned_ru_per_s),
            numbers::count(ru.physical_partitions as f64),
        ),
        None => format!(
            "its physical partition's share of the container's RU/s, at most {cap} RU/s; reads \
             and writes share it"
        ),
    }
}

/// One line for a failed goal: what the measurement means and the kind of fix; `None` when it
/// passed.
pub fn explain(report: &RunReport, goal: &GoalResult) -> Option<String> {
    if goal.status != GoalStatus::Failed {
        return None;
    }
    if report.engine.profile().cql()
        && let Some(line) = explain_cql(report, goal)
    {
        return Some(line);
    }
    let line = match goal.unit {
        GoalUnit::Bytes | GoalUnit::Items | GoalUnit::Rows => {
            "a partition key with no time bucket (or too coarse a one) keeps collecting items: \
             put a time bucket in the partition key, small enough for the busiest key"
                .to_owned()
        }
        GoalUnit::Ratio if goal.detail.starts_with(goals::BUSIEST_SHARD) => busiest_shard(report),
        GoalUnit::Ratio => format!(
            "one partition got more than it serves ({}): spread the hot key — write shards, a \
             hash of an id in the key, or no copy per follower — or, for one item read too \
             often, a read-through cache in front of its reads",
            partition_limit(report)
        ),
        GoalUnit::Count if goal.detail.starts_with("nothing serves") => {
            "no key or index finds these items: give the pattern a key whose partition key it \
             knows — or, for a question no key can answer (a word inside a text), a different \
             store fed by the same writes"
                .to_owned()
        }
        GoalUnit::Count if goal.detail.contains(lost::WRITES_LOST) => {
            lost_writes(&goal.detail, report.engine)
        }
        GoalUnit::Count => match report.engine {
            Engine::CosmosDb => {
                "the pattern runs a cross-partition query: no partition key serves it, so every \
                 call visits every physical partition and costs more RU as the container grows — key \
                 the items (or a copy of them) by what the pattern is given"
                    .to_owned()
            }
            Engine::MongoDb => "the pattern runs a collection scan: no index serves it, so every call reads \
                 the whole collection and takes longer as it grows — add an index on what the pattern \
                 is given"
                .to_owned(),
            Engine::DynamoDb | Engine::Cassandra => {
                "the pattern runs a Scan: no key serves it, so every call \
                 reads the whole table and costs more as the table grows — add an index (or sort key) \
                 keyed by what the pattern is given"
                    .to_owned()
            }
        },
        GoalUnit::Requests => {
            "one call asks too many partitions: fewer, larger time buckets or fewer shards".to_owned()
        }
        GoalUnit::Factor => {
            "each write also writes index entries, copies or aggregates: drop an index nothing \
             reads, keep indexed attributes stable, or pull instead of copying to every reader"
                .to_owned()
        }
        GoalUnit::Milliseconds => slow(report, goal),
        GoalUnit::Usd => "the design costs more than the budget: look for Scans, write amplification and \
             over-large items"
            .to_owned(),
    };
    Some(line)
}

/// Why one shard took too many of a sharded collection's inserts, from its Shards section:
/// ranges of one value too big to split, or a ranged key whose inserts all land in its last
/// range, or a hashed key of too few values.
fn busiest_shard(report: &RunReport) -> String {
    match report.shards.as_ref() {
        Some(s) if s.jumbo_ranges > 0 => {
            "the shard key has too few values: a value's documents never split, so its \
             range outgrows the range size (jumbo) and stays where it is — shard by a key with \
             many values, or add one (a hashed id) after the few"
                .to_owned()
        }
        Some(s) if s.strategy == "ranged" => {
            "the ranged shard key sends the inserts to one range: a key that always grows \
             (a time, an ObjectId) puts every insert in the range ending at MaxKey, on one shard \
             — shard by a hashed key, or lead with a field whose values do not increase"
                .to_owned()
        }
        _ => "a few shard-key values take most of the inserts, and the hash of each goes to one \
             shard — shard by a key with many, evenly used values"
            .to_owned(),
    }
}

/// The Cassandra profile's lines where DynamoDB's would name its own things (items, Scans,
/// indexes, 1 MB pages); `None` where the DynamoDB line holds for both.
fn explain_cql(report: &RunReport, goal: &GoalResult) -> Option<String> {
    let line = match goal.unit {
        GoalUnit::Bytes | GoalUnit::Items | GoalUnit::Rows => {
            "a partition key with no time bucket (or too coarse a one) keeps collecting rows: put              a time bucket in the partition key, small enough for the busiest key"
        }
        GoalUnit::Count if goal.detail.starts_with("nothing serves") => {
            "no key or view finds these rows: give the pattern a table (or materialized view)              whose partition key it knows — or, for a question no key can answer (a word inside              a text), a different store fed by the same writes"
        }
        GoalUnit::Count if !goal.detail.contains(lost::WRITES_LOST) => {
            "the pattern runs a full scan (SELECT … ALLOW FILTERING): no key serves it, so every              call reads the whole table and costs more as the table grows — add a table or              materialized view keyed by what the pattern is given"
        }
        GoalUnit::Factor => {
            "each write also writes view rows or copies: drop a view nothing reads, keep its key              columns stable, or pull instead of copying to every reader"
        }
        GoalUnit::Milliseconds => {
            let pattern = report.patterns.iter().find(|p| goal.detail.starts_with(&format!("{} ", p.name)));
            match pattern {
                Some(p) if p.single_operation() == Some(Operation::Scan) => {
                    "slow because it scans: every call pages through the whole table"
                }
                Some(p) if p.avg_fanout > 1.5 => {
                    "slow because each call asks several partitions, one after another: fewer,                      larger time buckets, or a narrower range"
                }
                Some(p) if p.avg_pages > 1.5 => {
                    "slow because each call reads several pages of rows: read fewer rows per call                      (a narrower range, a smaller partition)"
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(line.to_owned())
}

/// What fixes each cause of lost writes the goal's detail names, most common first, in the
/// store's words.
fn lost_writes(detail: &str, engine: Engine) -> String {
    let too_large = match engine {
        Engine::CosmosDb => {
            "an item grows with every write until Cosmos DB refuses it at 2 MB (413): keep the newest children in the item and the rest as items of their own (the subset pattern), or reference them instead of embedding"
        }
        Engine::MongoDb => {
            "a document grows with every write until MongoDB refuses it at 16 MB: keep the newest children in the document and the rest as documents of their own (the subset pattern), or reference them instead of embedding"
        }
        Engine::DynamoDb | Engine::Cassandra => {
            "an item grows with every write until DynamoDB refuses it at 400 KB: keep the newest children in the item and the rest as items of their own (the subset pattern), or reference them instead of embedding"
        }
    };
    let full_partition = match engine {
        Engine::CosmosDb => {
            "a logical partition passed 20 GB, which Cosmos DB refuses (403, substatus 1014): put more in the partition key (a time bucket), or use a hierarchical partition key"
        }
        Engine::DynamoDb | Engine::Cassandra | Engine::MongoDb => {
            "an item collection passed 10 GB, which a table with an LSI refuses: put more in the partition key (a time bucket), or use a GSI"
        }
    };
    let fixes = [
        (
            lost::THROTTLED,
            "writes throttled past the client's retries are lost data: spread the hot key so its writes are not throttled",
        ),
        (lost::too_large(engine), too_large),
        (lost::full_partition(engine), full_partition),
        (
            lost::REPLACED,
            "a put replaced another item at the same key: the key does not tell the items apart — add what does (an id, a finer time) or make the put create-once (condition: NotExists)",
        ),
        (
            lost::PRELOAD_REPLACED,
            "items of the initial load share keys: the key does not tell the items apart — add what does",
        ),
        (
            lost::NO_ITEM,
            "a write found no key to write: give it the attributes its key needs, or the parent it needs",
        ),
    ];
    let lines: Vec<&str> =
        fixes.iter().filter(|(cause, _)| detail.contains(cause)).map(|(_, fix)| *fix).collect();
    if lines.is_empty() {
        "writes were lost: see the causes the goal names".to_owned()
    } else {
        lines.join("; ")
    }
}

/// Why a pattern missed its latency target, from what its report shows.
fn slow(report: &RunReport, goal: &GoalResult) -> String {
    let pattern = report.patterns.iter().find(|p| goal.detail.starts_with(&format!("{} ", p.name)));
    match pattern {
        Some(p) if p.single_operation() == Some(Operation::Scan) => {
            "slow because it scans: every call pages through the whole table".to_owned()
        }
        Some(p) if p.throttled > 0 || p.retries > 0 => {
            "slow because its requests were throttled and retried with backoff: fix the hot \
             partition first"
                .to_owned()
        }
        Some(p) if p.avg_pages > 1.5 => {
            "slow because each call reads several 1 MB pages: read less per call (a narrower \
             range, a smaller partition)"
                .to_owned()
        }
        _ => "the modelled latency is above the target: see the pattern's row above".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing;

    #[test]
    fn a_throttled_partition_is_told_the_stores_partition_limit() {
        use crate::engine::model::Engine;
        let cases = [
            (Engine::DynamoDb, "(1,000 WCU or 3,000 RCU a second; a throttled index", "RU/s"),
            (
                Engine::CosmosDb,
                "share of the container's RU/s, at most 10,000 RU/s; reads and writes share it",
                "WCU",
            ),
        ];
        for (engine, said, unsaid) in cases {
            let mut report = testing::report();
            report.engine = engine;
            report.request_units = None;
            let goal = GoalResult {
                unit: GoalUnit::Ratio,
                ..testing::goal("g", false, "5 of 9 requests throttled")
            };
            let line = explain(&report, &goal).expect("a failed goal gets a line");
            assert!(line.contains(said) && !line.contains(unsaid), "{engine}: {line}");
        }
    }

    /// A lost write and a scan are explained in the store's words: its limit, its refusal,
    /// its scan (Cosmos DB 2 MB and 20 GB, MongoDB 16 MB and collection scans).
    #[test]
    fn a_lost_write_and_a_scan_are_explained_in_the_stores_words() {
        use crate::engine::model::Engine;
        // (engine, detail, said, unsaid)
        let cases = [
            (Engine::CosmosDb, "3 writes lost (3 item past 2 MB) > 0", "refuses it at 2 MB (413)", "400 KB"),
            (Engine::CosmosDb, "2 writes lost (2 logical partition past 20 GB) > 0", "substatus 1014", "LSI"),
            (Engine::MongoDb, "3 writes lost (3 document past 16 MB) > 0", "refuses it at 16 MB", "400 KB"),
            (Engine::DynamoDb, "3 writes lost (3 item past 400 KB) > 0", "refuses it at 400 KB", "16 MB"),
            (Engine::MongoDb, "search ran 3 collection scans (find)", "add an index on what", "Scan"),
            (Engine::CosmosDb, "search ran 3 cross-partition queries", "every physical partition", "Scan"),
        ];
        for (engine, detail, said, unsaid) in cases {
            let mut report = testing::report();
            report.engine = engine;
            let goal = GoalResult { unit: GoalUnit::Count, ..testing::goal("g", false, detail) };
            let line = explain(&report, &goal).expect("a failed goal gets a line");
            assert!(line.contains(said) && !line.contains(unsaid), "{engine} {detail}: {line}");
        }
    }

    #[test]
    fn a_failed_goal_gets_a_line_and_a_passed_one_none() {
        let report = testing::report();
        let goal = |unit, detail: &str, passed| GoalResult {
            name: "g".to_owned(),
            status: GoalStatus::of(passed),
            value: Some(1.0),
            lower_bound: false,
            target: 0.0,
            unit,
            detail: detail.to_owned(),
            hint: None,
        };
        assert_eq!(explain(&report, &goal(GoalUnit::Count, "x ran 3 Scans", true)), None);
        let cases = [
            (GoalUnit::Count, "search ran 3 Scans", "runs a Scan"),
            (GoalUnit::Count, "nothing serves search: no key or index finds its items", "a different store"),
            (GoalUnit::Count, "3,412 writes lost (3,412 item past 400 KB) > 0", "subset pattern"),
            (GoalUnit::Count, "9 writes lost (9 throttled past the last retry) > 0", "spread the hot key"),
            (
                GoalUnit::Count,
                "21 writes lost (21 item replaced by a put with the same key) > 0",
                "the key does not tell the items apart",
            ),
            (GoalUnit::Count, "2 writes lost (2 item collection past 10 GB) > 0", "time bucket"),
            (GoalUnit::Bytes, "largest partition 1 GB", "time bucket"),
            (GoalUnit::Items, "largest partition 200,000 items", "time bucket"),
            (GoalUnit::Ratio, "5 of 9 requests throttled", "spread the hot key"),
            (GoalUnit::Requests, "recent (Query ×9)", "fewer, larger time buckets"),
            (GoalUnit::Factor, "3 item writes per base write", "drop an index"),
            (GoalUnit::Usd, "projected monthly cost", "budget"),
            (GoalUnit::Milliseconds, "nobody p99 9 ms", "above the target"),
        ];
        for (unit, detail, part) in cases {
            let line = explain(&report, &goal(unit, detail, false)).expect("a failed goal is explained");
            assert!(line.contains(part), "{unit:?}: {line}");
        }
    }

    #[test]
    fn a_short_hint_follows_its_link_and_a_long_one_gets_its_own_line() {
        let hint = |text: &str| GoalHint { number: 2, text: text.to_owned() };
        let long = "Every order changes the total, so its index entry moves: 2 index writes per order.";
        let cases = [
            ("Shard it.", ("see hint 2: Shard it.", None)),
            (long, ("see hint 2", Some(format!("Hint 2: {long}")))),
        ];
        for (text, (link, line)) in cases {
            assert_eq!(hint_link(&hint(text)), (link.to_owned(), line), "{text}");
            assert_eq!(inline_hint(&hint(text)), format!("see hint 2: {text}"));
        }
    }
}
