//! The words of the planner's warnings: each `Finding` told with its inputs and arithmetic, in
//! its store's vocabulary, so a reader can check it. A warning's `Display` is its message, and
//! `check`'s JSON writes it as `message` beside `code` and `subject`; the text and Markdown
//! reports, the CQL export and the workbench show the same words.

use std::fmt::{self, Display, Formatter, Write as _};

use serde::Serialize;
use serde::ser::SerializeStruct as _;

use crate::engine::model::AggregateOp;
use crate::engine::model::Engine;
use crate::engine::planner::cache::{CacheWhy, Eviction};
use crate::engine::planner::condition::{ConditionWhy, VERSION_WINDOW_MS};
use crate::engine::planner::finding::{
    Amplification, ClassValues, CollectionOrder, Collision, CopyBurst, Finding, GrowthTerm, Guidance,
    HotLoad, KeyUpdate, KeyValues, LoadTerm, LowCardinality, PartitionGrowth, ScanCost, Shape, SlotTerm,
    SpreadNote, UnboundedItem, UnsafeClaim, ValueNote, WrittenTerm,
};
use crate::engine::planner::numbers::{bytes, count, factor, percent, rate, span};
use crate::engine::planner::{
    EntryRewrite, EntryWhy, Membership, Operation, UnpredictableWhy, WriteWhy, verb,
};
use crate::engine::planner::{
    IndexId, PARTITION_RCU, PARTITION_WCU, Via, WRITE_AMPLIFICATION_LIMIT, Warning,
};
use crate::engine::profile::{Sizing, bson, cosmos, mongo};
use crate::engine::value::MAX_ITEM_BYTES;

impl Display for Warning {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let cql = self.engine.profile().cql();
        match &self.finding {
            Finding::Unserved { pattern, verdict } => write!(f, "{pattern}: {verdict}"),
            Finding::Scan(scan) => scan_cost(f, scan, cql),
            Finding::WriteAmplification(a) => amplification(f, a, self.engine),
            Finding::Partition(growth) => partition(f, growth, self.engine),
            Finding::HotPartition(load) => hot_partition(f, load),
            Finding::LowCardinality(low) => low_cardinality(f, low),
            Finding::UnboundedItem(item) if self.engine.profile().sizing == Sizing::Bson => {
                unbounded_document(f, item)
            }
            Finding::UnboundedItem(item) => unbounded_item(f, item, self.engine),
            Finding::OversizedItem { entity, size } => oversized_item(f, entity, *size, self.engine),
            Finding::KeyUpdate(update) => key_update(f, update, cql),
            Finding::GuessedCount { population, count: n } => write!(
                f,
                "population {population}: count {} is a guess; partition sizes and costs follow from it. Set how \
                 many there are, then remove `guess: true`",
                count(*n)
            ),
            Finding::GuessedRate { pattern, rate: r } => write!(
                f,
                "pattern {pattern}: rate {}/s is a guess; loads, throttling and costs follow from it. Set how \
                 often it runs, then remove `guess: true`",
                rate(*r)
            ),
            Finding::VersionContention { why } => write!(
                f,
                "Version-checked updates of one item come faster than a read-modify-write takes: {why}. Each lost \
                 race is a failed write (charged), another read and a retry, and the item's updates queue behind \
                 each other. Write the hot stream as items of their own (an append-only log with a create-once \
                 condition on a sequence number, summed later or into a balance by one writer) instead of \
                 rewriting one item, or spread it over several items."
            ),
            Finding::CollectionOrder(order) => collection_order(f, order),
            Finding::UnsafeClaim(claim) => unsafe_claim(f, claim),
            Finding::KeyCollision(collision) => key_collision(f, collision, self.engine),
        }
    }
}

/// A warning as `check`'s JSON has it: its code, what it is about, and its words.
impl Serialize for Warning {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Warning", 3)?;
        out.serialize_field("code", &self.code)?;
        out.serialize_field("subject", &self.subject)?;
        out.serialize_field("message", &self.to_string())?;
        out.end()
    }
}

/// Why a condition fails as often as it does: `condition …:` and `claim …:` in `check`'s text.
impl Display for ConditionWhy {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ConditionWhy::Refused { share, entity, by_member, transaction, failed_units } => write!(
                f,
                "~{} of the puts land on a key another {entity} item holds ({}): each is refused with {}, charged \
                 {} WCU and writes nothing — the caller learns the key is taken, nothing is lost",
                percent(*share),
                if *by_member {
                    "counted key by key over the members each put picks"
                } else {
                    "the key-collision arithmetic"
                },
                if *transaction {
                    "TransactionCanceledException (ConditionalCheckFailed), the whole transaction with it (keyheat \
                     charges the failed item as a failed conditional write and the others nothing: AWS does not say \
                     what a cancelled transaction consumes)"
                } else {
                    "ConditionalCheckFailedException"
                },
                count(*failed_units)
            ),
            ConditionWhy::Version { read, item_bytes, calls, busiest, lose, chance, failed_units } => write!(
                f,
                "each call reads the item first (GetItem, strongly consistent, {read} RCU for {}); at {}/s, the \
                 busiest item takes {} of the calls, one every {:.1} ms against a read-to-write window of \
                 {VERSION_WINDOW_MS} ms on average (keyheat's model), so {} of its updates lose the race: overall \
                 ~{} fail ({} WCU each), read again and retry",
                bytes(*item_bytes),
                rate(*calls),
                percent(*busiest),
                1000.0 / (calls * busiest).max(1e-9),
                percent(*lose),
                percent(*chance),
                count(*failed_units)
            ),
            ConditionWhy::Claim { share, entity, transaction, failed_units } => {
                match share {
                    Some(share) => write!(f, "~{} of the puts claim a value another put claimed first", percent(*share))?,
                    None => f.write_str(
                        "how often a claimed value is taken is not predicted: the claim's key holds something other \
                         than members the put picks",
                    )?,
                }
                if *transaction {
                    write!(
                        f,
                        "; in the transaction, a taken claim cancels it (TransactionCanceledException): the {entity} \
                         item is not written and the caller learns the value is taken; charged {} WCU for the failed \
                         claim (keyheat's reading: AWS does not say what a cancelled transaction consumes)",
                        count(*failed_units)
                    )
                } else {
                    write!(
                        f,
                        "; without a transaction, the {entity} item is its own request and has landed when the \
                         claim's PutItem is refused ({} WCU): each such put leaves two {entity} items with the value \
                         the claim was there to keep unique",
                        count(*failed_units)
                    )
                }
            }
        }
    }
}

/// A condition's reason as `check`'s JSON has it: its words.
impl Serialize for ConditionWhy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// What a read-through cache does: `cache:` in `check`'s text.
impl Display for CacheWhy {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let CacheWhy::Hits { ttl_secs, run_secs, calls, keys, hit, busiest, busiest_hit, eviction } = self
        else {
            return f.write_str(
                "the cache fronts this pattern, but its plan is not a GetItem or BatchGetItem: DAX answers a Query \
                 or Scan from its query cache, keyed by the request's exact parameters, which keyheat does not \
                 model — costed as uncached",
            );
        };
        let eviction = match eviction {
            Eviction::Fits { kept, items } => format!(
                "the {} keys it keeps on average fit its {} items, so eviction is ignored",
                count(*kept),
                count(*items)
            ),
            Eviction::Lru { items, keep_secs } => format!(
                "more keys live than its {} items hold: LRU eviction by Che's approximation keeps a key about {} s",
                count(*items),
                count(*keep_secs)
            ),
        };
        write!(
            f,
            "read-through cache (DAX item cache), TTL {} s: a key asked λ times a second hits with probability \
             λT/(1 + λT) (keyheat's TTL model: each miss opens a window of T in which its requests hit; the cache \
             starts cold, so over the {} s run a key's first request misses); at {}/s over {} keys by their \
             popularity, ~{} of calls hit and cost no RCU — the busiest key ({} of calls) hits {}; {eviction}",
            count(*ttl_secs),
            count(*run_secs),
            rate(*calls),
            count(*keys),
            percent(*hit),
            percent(*busiest),
            percent(*busiest_hit),
        )
    }
}

/// A cache's reason as `check`'s JSON has it: its words.
impl Serialize for CacheWhy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Why `check` shows a pattern's figure as `?`.
impl Display for UnpredictableWhy {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            UnpredictableWhy::Newest { given, filler, entity } => write!(
                f,
                "`{given}` is picked newest first (Latest) both here and by {filler}, which writes these {entity} \
                 items: the newest {given} is still gaining them, so how many a call finds depends on when in that \
                 life it is read — a correlation over time the planner does not model; run measures it"
            ),
            UnpredictableWhy::NotThereYet { entity, writers, creating, keys } => write!(
                f,
                "{entity} has no items when the run starts: a key exists once {} creates it, and the run makes ~{} \
                 such writes for {} possible keys ({} a key), so many keys are asked before they exist; how many a \
                 call finds depends on how far the writes have got (and on their throttling). A key that does not \
                 exist still costs its read",
                if writers.is_empty() { "an aggregate".to_owned() } else { writers.join(" or ") },
                count(*creating),
                count(*keys),
                factor(creating / keys),
            ),
            UnpredictableWhy::ParentApart { parent, by, times, list, kept, units } => write!(
                f,
                "each append rewrites the whole {parent} it lands on, and this pattern picks one {by} {}× as often \
                 as an even pick would: that {parent}'s {list} list is far longer than an average {parent}'s{}. \
                 check sizes an average {parent} ({} WCU), not the one picked, so it does not predict these units",
                count(*times),
                kept.map_or_else(
                    || ", and grows through the run toward 400 KB".to_owned(),
                    |n| format!(" (its newest {n} kept)")
                ),
                factor(*units),
            ),
        }
    }
}

/// An unpredictable figure's reason as `check`'s JSON has it: its words.
impl Serialize for UnpredictableWhy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Why a write writes an item: `check`'s column of writes, and its JSON `why`.
impl Display for WriteWhy {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            WriteWhy::Item { entity, bytes: b } => write!(f, "the {entity} item ({})", bytes(*b)),
            WriteWhy::MovedFrom { entity, bytes: b, moved } => write!(
                f,
                "DeleteItem of the {entity} item at its old key ({}): the update sets {}, part of the table key, \
                 which UpdateItem cannot change",
                bytes(*b),
                moved.join(", ")
            ),
            WriteWhy::MovedTo { entity, bytes: b } => {
                write!(f, "PutItem of the {entity} item at its new key ({})", bytes(*b))
            }
            WriteWhy::Entry(entry) => entry_why(f, entry),
            WriteWhy::Append { parent, child, child_bytes, list, kept, bytes: b } => write!(
                f,
                "UpdateItem of the {parent} item: appends the {child} (~{}) to its {list} list{}; ~{} on average, \
                 and an update is charged for the larger of the item before and after",
                bytes(*child_bytes),
                kept.map_or_else(
                    || ", which grows with every one until the item reaches 400 KB".to_owned(),
                    |n| format!(", keeping the newest {n}")
                ),
                bytes(*b)
            ),
            WriteWhy::Copies { .. } => copies(f, self, "items"),
            WriteWhy::Aggregate { entity, claim: true, updates } => write!(
                f,
                "one PutItem of {entity} on attribute_not_exists(PK), recording {}: the claim of its key, which a \
                 later put of the same value finds taken",
                updates.iter().map(|(attribute, _)| attribute.as_str()).collect::<Vec<_>>().join(", ")
            ),
            WriteWhy::Aggregate { entity, claim: false, updates } => {
                let updates: Vec<String> = updates
                    .iter()
                    .map(|(attribute, op)| match op {
                        AggregateOp::Count => format!("{attribute} +1"),
                        AggregateOp::Sum(summed) => format!("{attribute} +{summed}"),
                        AggregateOp::Claim => format!("{attribute} claimed"),
                    })
                    .collect();
                write!(f, "one UpdateItem of {entity}: {}", updates.join(", "))
            }
            WriteWhy::Transacted(inner) => write!(f, "{inner}, ×2 in the transaction (prepare and commit)"),
        }
    }
}

/// Why an index entry is written: `the update changes the index key: delete + put of the entry
/// (120 B per entry)`.
fn entry_why(f: &mut Formatter<'_>, entry: &EntryWhy) -> fmt::Result {
    let odds = |odds: Option<f64>| {
        odds.map_or_else(String::new, |share| {
            format!(" on {} of updates (a fresh draw can repeat the value)", percent(share))
        })
    };
    let rewrite = match entry.rewrite {
        EntryRewrite::KeyChanges { odds: o } => {
            format!("the update changes the index key{}: delete + put of the entry", odds(o))
        }
        EntryRewrite::ProjectedChanges { odds: o } => {
            format!("the update changes a projected attribute{}", odds(o))
        }
        EntryRewrite::Unchanged => "the update changes nothing the index holds".to_owned(),
        EntryRewrite::OnePerItem => "one entry per item in the index".to_owned(),
    };
    if entry.moving {
        f.write_str("the item moves: its entry is deleted and put again; ")?;
    }
    match &entry.membership {
        None => f.write_str(&rewrite)?,
        Some(Membership::Advances { attribute, states, enter, from, leave }) => write!(
            f,
            "the update advances {attribute} one state ({}), which decides what the index holds: the item enters \
             it on {} of updates (from {:?}) and leaves it on {}; when it stays in, {rewrite}",
            states.join(" → "),
            percent(*enter),
            from.as_deref().unwrap_or("nothing"),
            percent(*leave)
        )?,
        Some(Membership::Redraws { attribute, moves }) => write!(
            f,
            "the update redraws {attribute}, which decides what the index holds: the item enters or leaves it (one \
             entry write) on {} of updates; when it stays in, {rewrite}",
            percent(*moves)
        )?,
    }
    if let Some((share, entity)) = &entry.sparse {
        write!(f, "; sparse: {} of {entity} items are in it", percent(*share))?;
    }
    write!(f, " ({} per entry)", bytes(entry.bytes))
}

/// A write's reason as `check`'s JSON has it: its words.
impl Serialize for WriteWhy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A spread's reasons, or what no reason means: a key with no slots.
fn spread_notes(notes: &[SpreadNote], literal: &str) -> String {
    if notes.is_empty() {
        return literal.to_owned();
    }
    notes.iter().map(spread_note).collect::<Vec<_>>().join("; ")
}

/// `channel_id: Zipf(s: 1) over 1,000 channels`, `shard(4) spreads writes over 4 keys`.
fn spread_note(note: &SpreadNote) -> String {
    match note {
        SpreadNote::HashUnknown { name, count } => {
            format!("hash({name}, {count}) with {name} unknown: every call asks each of the {count}")
        }
        SpreadNote::Sparse { name, value } => format!("{name}: always {value:?} in this sparse index"),
        SpreadNote::Bucket { name, width } => {
            format!("{name} in {width} buckets: all current writes share one bucket")
        }
        SpreadNote::ClassShard { by, counts, others, writer_share } => {
            let counts: Vec<String> = counts
                .iter()
                .map(|(value, n)| format!("{value} ×{n}"))
                .chain(std::iter::once(format!("others ×{others}")))
                .collect();
            let counts = counts.join(", ");
            match writer_share {
                None => format!("shard(by: {by}): every call asks each shard of its class ({counts})"),
                Some(share) => format!(
                    "shard(by: {by}) spreads each class's writes over its shards ({counts}): the busiest key takes {} \
                     of its value's writes",
                    percent(*share)
                ),
            }
        }
        SpreadNote::Shard { count, reader: true } => {
            format!("shard({count}): every call asks each of the {count} shards")
        }
        SpreadNote::Shard { count, reader: false } => {
            format!("shard({count}) spreads writes over {count} keys")
        }
        SpreadNote::Value { name, hash: Some(count), values } => {
            format!("hash({name}, {count}) over {}", value_note(values))
        }
        SpreadNote::Value { name, hash: None, values } => format!("{name}: {}", value_note(values)),
    }
}

fn value_note(note: &ValueNote) -> String {
    match note {
        ValueNote::Asked { value, not: None } => format!("always {value:?}"),
        ValueNote::Asked { value, not: Some(busiest) } => format!("always {value:?}, not {busiest:?}"),
        ValueNote::Picked { popularity, members, population } => {
            format!("{popularity} over {} {population}", count(*members))
        }
        ValueNote::Constant(text) => format!("always {text:?}"),
        ValueNote::OneOf { values, top, share } => {
            format!("one of {values} values, {top:?} on {}", percent(*share))
        }
        ValueNote::Numbered { by } => format!("the item's number among those of one {by}"),
        ValueNote::States { states, top, share } => {
            format!("one of {states} states, {top:?} on {}", percent(*share))
        }
        ValueNote::Coin => "true or false".to_owned(),
        ValueNote::Fresh => "a new value per item".to_owned(),
        ValueNote::NewItem { first, not: None } => format!("a new item is {first:?}"),
        ValueNote::NewItem { first, not: Some(busiest) } => {
            format!("a new item is {first:?}, not {busiest:?}")
        }
        ValueNote::StateMoves { share, state } => {
            format!("{} of the update's entry writes move an entry out of or into {state:?}", percent(*share))
        }
    }
}

/// Terms joined by ` + `.
fn sum<T>(terms: &[T], term: impl Fn(&T) -> String) -> String {
    terms.iter().map(term).collect::<Vec<_>>().join(" + ")
}

fn scan_cost(f: &mut Formatter<'_>, scan: &ScanCost, cql: bool) -> fmt::Result {
    let (items, table) =
        (count(scan.items), format!("({}, the table after {})", bytes(scan.bytes), span(scan.secs)));
    let cost = if cql {
        format!(
            "{items} rows {table} per call, × {} calls/s = {}/s",
            rate(scan.calls),
            bytes(scan.bytes * scan.calls)
        )
    } else {
        format!(
            "{items} items {table} per call = {} RCU, × {} calls/s = {} RCU/s",
            count(scan.units_per_call),
            rate(scan.calls),
            count(scan.units_per_call * scan.calls)
        )
    };
    let why: Vec<String> = scan
        .places
        .iter()
        .map(|(index, considered)| format!("{}: {considered}", IndexId::place(index.as_ref())))
        .collect();
    write!(
        f,
        "{} is served only by a {}: it reads all ~{cost}, and the cost grows with the table. No key serves it: {}",
        scan.pattern,
        if cql { "full scan" } else { "Scan" },
        why.join("; ")
    )
}

/// How many copies a write rewrites, its holders counted in `noun`.
fn copies(f: &mut Formatter<'_>, why: &WriteWhy, noun: &str) -> fmt::Result {
    match why {
        WriteWhy::Copies { holders, holder, picked: Some((share, label)), copies, attribute, .. } => write!(
            f,
            "{} {holder} {noun} × {} ({label}) = {} copies of {attribute} to rewrite",
            count(*holders),
            percent(*share),
            count(*copies)
        ),
        WriteWhy::Copies { holders, holder, picked: None, sources, source, copies, attribute } => write!(
            f,
            "{} {holder} {noun} / {} {source} = {} copies of {attribute} to rewrite",
            count(*holders),
            count(*sources),
            count(*copies)
        ),
        other => other.fmt(f),
    }
}

/// Why a write lands where it does, its copies' holders in the store's words (what write
/// amplification counts them in: documents on MongoDB).
struct WhyIn<'a>(&'a WriteWhy, Engine);

impl Display for WhyIn<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        copies(f, self.0, self.1.words().amplified.written.many)
    }
}

fn amplification(f: &mut Formatter<'_>, a: &Amplification, engine: Engine) -> fmt::Result {
    let parts = sum(&a.writes, |w| {
        format!("{} ×{} ({})", w.target.shown(engine), factor(w.per_call), WhyIn(&w.why, engine))
    });
    write!(
        f,
        "{} has a write amplification of {}: it writes {} index, copy or aggregate {} per base write, above the \
         limit of {}: {parts}; at {} calls/s that is {} extra writes/s",
        a.pattern,
        factor(a.amplification),
        factor(a.amplification),
        engine.words().amplified.written.many,
        count(WRITE_AMPLIFICATION_LIMIT),
        rate(a.calls),
        rate(a.amplification * a.calls)
    )
}

fn partition(f: &mut Formatter<'_>, g: &PartitionGrowth, engine: Engine) -> fmt::Result {
    let items = engine.words().item.many;
    let shape = match &g.shape {
        Shape::Bucketed { secs } => {
            format!("is bucketed by time, yet one {} bucket of the busiest key fills up:", span(*secs))
        }
        Shape::Expiring { life, expiry: Some((expiry, delay)) } => format!(
            "expires {items} {} after their last write, and {engine} deletes them up to {} later (reads see them \
             until then), so the busiest key fills up for {}:",
            span(*expiry),
            span(*delay),
            span(*life)
        ),
        Shape::Expiring { life, expiry: None } => {
            format!("expires {items} after {}, yet until then the busiest key fills up:", span(*life))
        }
        Shape::Unbounded { sort_keys } => format!(
            "has no time bucket and every {} adds a new {} under sort key {}, so the busiest key grows \
             without bound:",
            verb(engine.profile().language, Operation::PutItem),
            engine.words().item.one,
            if sort_keys.is_empty() { "(none)".to_owned() } else { sort_keys.join(" / ") }
        ),
    };
    let guidance = match g.guidance {
        Guidance::Cassandra => "Cassandra's guidance is ~100 MB and ~100,000 rows per partition",
        Guidance::LocalIndex => "with a local index DynamoDB refuses writes to an item collection past 10 GB",
        Guidance::DynamoDb => {
            "DynamoDB's guidance is 10 GB per partition (beyond it the key's items are split across partitions by \
             sort key range; a table with an LSI refuses the writes)"
        }
        Guidance::CosmosDb => {
            "Cosmos DB refuses writes to a logical partition (one whole partition key value) past 20 GB (403, \
             substatus 1014), whatever the container's throughput: put more in the key, a time bucket or another \
             level of a hierarchical partition key"
        }
        Guidance::MongoDb => {
            "MongoDB limits each document to 16 MB, not the documents a key value groups: keyheat flags a key \
             whose documents together pass 16 MB, which one document embedding them could not hold (keyheat's \
             threshold); as a shard key, one value's documents are a range that cannot split (jumbo)"
        }
    };
    write!(
        f,
        "partition key {} ({}) {shape} {} → {} {items} × {} = {} after {}; {guidance} (reached after {})",
        g.pk,
        g.place,
        sum(&g.terms, |t| growth_term(t, items)),
        count(g.rows),
        bytes(g.bytes / g.rows),
        bytes(g.bytes),
        span(g.window),
        span(g.reached)
    )
}

/// `post 2/s × 100% (a literal key: always the same partition) = 2 items/s of 1.2 KB`.
fn growth_term(t: &GrowthTerm, items: &str) -> String {
    format!(
        "{} {}/s × {} ({}) = {} {items}/s of {}",
        t.pattern,
        rate(t.calls),
        percent(t.share),
        spread_notes(&t.notes, LITERAL_PARTITION),
        count(t.per_sec),
        bytes(t.size)
    )
}

/// What an empty list of a spread's notes means on a partition's load.
const LITERAL_PARTITION: &str = "a literal key: always the same partition";

fn hot_partition(f: &mut Formatter<'_>, load: &HotLoad) -> fmt::Result {
    if let Some(share) = load.ru_share {
        let ru = load.rcu.unwrap_or(0.0) + load.wcu.unwrap_or(0.0);
        let terms = sum(&load.terms, |t| load_term(t, ("RU", "RU")));
        return write!(
            f,
            "at peak, the busiest value of {} asks {} RU/s of one logical partition, which lives on one physical partition serving {} RU/s (the container's throughput divided evenly among its partitions, at most 10,000 RU/s; Cosmos DB never splits a partition for a hot key): {terms}",
            load.subject,
            rate(ru),
            rate(share),
        );
    }
    let mut over = Vec::new();
    if let Some(wcu) = load.wcu {
        over.push(format!(
            "{} WCU/s against the {} WCU/s one partition serves",
            rate(wcu),
            count(PARTITION_WCU)
        ));
    }
    if let Some(rcu) = load.rcu {
        over.push(format!(
            "{} RCU/s against the {} RCU/s one partition serves",
            rate(rcu),
            count(PARTITION_RCU)
        ));
    }
    let terms = sum(&load.terms, |t| load_term(t, ("RCU", "WCU")));
    let item_note = if load.single_item { "; it is one item, so no split for heat can help" } else { "" };
    match &load.burst {
        Some(burst) if over.is_empty() => {
            write!(f, "{}; its load at peak: {terms}{item_note}", copy_burst(burst))
        }
        burst => write!(
            f,
            "at peak, the busiest value of {} takes {}: {terms}{item_note}{}",
            load.subject,
            over.join(" and "),
            burst.as_ref().map_or(String::new(), |b| format!("; and {}", copy_burst(b)))
        ),
    }
}

/// One term of a hot partition's load, in the store's units for reads and writes.
fn load_term(term: &LoadTerm, (read, write): (&str, &str)) -> String {
    match term {
        LoadTerm::Write { pattern, via, entity, peak, share, notes, landed, units_each, per_call, units } => {
            let what = match via {
                Via::Own => String::new(),
                Via::Aggregate => format!(" (its {entity} aggregate)"),
                Via::Copy => format!(" (its copies on {entity})"),
                Via::Append => format!(" (the {entity} it appends to)"),
            };
            let landed =
                landed.map_or_else(String::new, |share| format!(" × {} find the key free", percent(share)));
            let per_call = if (per_call - 1.0).abs() < f64::EPSILON {
                String::new()
            } else {
                format!(" × {} per call", factor(*per_call))
            };
            format!(
                "{pattern}{what} {}/s × {} ({}){landed} × {} {write}{per_call} = {} {write}/s",
                rate(*peak),
                percent(*share),
                spread_notes(notes, LITERAL_PARTITION),
                count(*units_each),
                rate(*units)
            )
        }
        LoadTerm::FailedConditions { pattern, calls, lose, units_each, units } => format!(
            "{pattern} failed conditions {}/s × {} × {} {write} = {} {write}/s",
            rate(*calls),
            percent(*lose),
            count(*units_each),
            rate(*units)
        ),
        LoadTerm::ReadsBeforeWriting { pattern, units } => {
            format!("{pattern} reads before writing {} {read}/s", rate(*units))
        }
        LoadTerm::Read { pattern, peak, share, notes, missing_cache, per_request, units } => {
            let through = missing_cache
                .map_or_else(String::new, |miss| format!(" × {} missing the cache", percent(miss)));
            format!(
                "{pattern} {}/s × {} ({}){through} × {} {read} per request = {} {read}/s",
                rate(*peak),
                percent(*share),
                spread_notes(notes, LITERAL_PARTITION),
                count(*per_request),
                rate(*units)
            )
        }
    }
}

fn copy_burst(b: &CopyBurst) -> String {
    format!(
        "one {} call that picks the {} with the most copies rewrites ~{} {} items under one key at once ({} WCU), \
         and a partition serves {} WCU/s: the call takes at least {:.1} s and throttles meanwhile",
        b.pattern,
        b.source,
        count(b.copies),
        b.copy,
        count(b.units),
        count(PARTITION_WCU),
        b.units / PARTITION_WCU
    )
}

fn low_cardinality(f: &mut Formatter<'_>, low: &LowCardinality) -> fmt::Result {
    let values = if (low.distinct - 1.0).abs() < 1e-9 {
        "1 value".to_owned()
    } else {
        format!("{} values", count(low.distinct))
    };
    let busiest = low.items * low.hottest;
    write!(
        f,
        "{} partition key {} takes only {values} ({}): the busiest holds {} of the index — {} of {} {} entries × {} \
         = {} after {} — and takes {} of its {} entry writes/s of {} at peak",
        low.place,
        low.pk,
        spread_notes(&low.notes, "a literal key: every entry shares it"),
        percent(low.hottest),
        count(busiest),
        count(low.items),
        low.entity,
        bytes(low.entry_bytes),
        bytes(busiest * low.entry_bytes),
        span(low.secs),
        percent(low.hottest),
        rate(low.writes),
        low.entity
    )
}

fn unbounded_item(f: &mut Formatter<'_>, item: &UnboundedItem, engine: Engine) -> fmt::Result {
    let terms = sum(&item.terms, |(pattern, calls, share)| {
        format!("{pattern} {}/s × {}", rate(*calls), percent(*share))
    });
    let limit = ItemLimit::of(engine);
    // What an append costs at the limit: the whole item rewritten, by the store's own charge.
    let at_limit = limit.bytes as u64;
    let charge = engine.profile().metering.write(Some(at_limit), Some(at_limit));
    let cost = if engine.profile().request_units() {
        format!(
            "each append replaces the whole item, charged by its size (up to {} RU at the limit)",
            count(charge)
        )
    } else {
        format!(
            "each append is an update charged for the whole item (up to {} WCU, and as much again in each index \
             that projects the list)",
            count(charge)
        )
    };
    write!(
        f,
        "{} items embed every {} in their {} list (~{} each), so an item grows without bound: the busiest {} gets {} \
         children a second ({terms}), passes {} after ~{} children, ~{} ({}), and every later {} is refused ({}). \
         Until then {cost}. Keep the newest in the item and the rest as items of their own (keep_latest: \
         Some(N)), or do not embed",
        item.parent,
        item.child,
        item.list,
        bytes(item.child_bytes),
        item.parent,
        rate(item.per_sec),
        limit.name,
        count(item.children),
        span(item.secs),
        if item.within_run { "within this run" } else { "after this run ends" },
        item.child,
        limit.refusal,
    )
}

/// `oversized-item`: an entity's items past the store's item limit as generated.
fn oversized_item(f: &mut Formatter<'_>, entity: &str, size: f64, engine: Engine) -> fmt::Result {
    let limit = ItemLimit::of(engine);
    write!(
        f,
        "{entity} {} are ~{} with every attribute present ({} bytes), past {} ({} bytes): each one is refused \
         ({}), those of the initial load included, so they never reach {}. Make the large attributes smaller, \
         or keep them elsewhere ({}) and store a reference",
        limit.items,
        bytes(size),
        count(size),
        limit.name,
        count(limit.bytes as f64),
        limit.refusal,
        limit.home,
        limit.elsewhere,
    )
}

/// How a store words its item limit: the limit, what a write past it is answered, where items
/// live and where large values go instead. Only stores with an item limit warn of one
/// (`planner::warnings`); the Cassandra profile has none, and is worded as DynamoDB if asked.
struct ItemLimit {
    name: &'static str,
    bytes: usize,
    refusal: &'static str,
    items: &'static str,
    home: &'static str,
    elsewhere: &'static str,
}

impl ItemLimit {
    fn of(engine: Engine) -> ItemLimit {
        match engine {
            // Microsoft Learn, "Azure Cosmos DB service quotas" (2 MB an item) and Microsoft Q&A
            // 692455: a larger item answers "RequestEntityTooLarge (413)"; large values belong in
            // Blob Storage with a reference in the item (Azure Cosmos DB blog, "4 Design Patterns
            // to Deal with Large Item Sizes").
            Engine::CosmosDb => ItemLimit {
                name: "Cosmos DB's 2 MB item limit",
                bytes: cosmos::MAX_ITEM_BYTES,
                refusal: "413 Request Entity Too Large",
                items: "items",
                home: "the container",
                elsewhere: "Blob Storage",
            },
            // "MongoDB Limits and Thresholds" (16 MB); the insert path's refusal
            // (`profile::mongo`); GridFS for files past the limit (MongoDB manual, "GridFS").
            Engine::MongoDb => ItemLimit {
                name: "MongoDB's 16 MB document limit",
                bytes: bson::MAX_DOCUMENT_BYTES,
                refusal: "\"object to insert too large\"",
                items: "documents",
                home: "the collection",
                elsewhere: "GridFS",
            },
            Engine::DynamoDb | Engine::Cassandra => ItemLimit {
                name: "DynamoDB's 400 KB item limit",
                bytes: MAX_ITEM_BYTES,
                refusal: "ValidationException",
                items: "items",
                home: "the table",
                elsewhere: "S3",
            },
        }
    }
}

/// MongoDB's words for a document that embeds without bound: the 16 MB limit, the server's
/// refusal, and the whole document's new version built per append (`profile::mongo`).
fn unbounded_document(f: &mut Formatter<'_>, item: &UnboundedItem) -> fmt::Result {
    let terms = sum(&item.terms, |(pattern, calls, share)| {
        format!("{pattern} {}/s × {}", rate(*calls), percent(*share))
    });
    write!(
        f,
        "{} documents embed every {} in their {} array (~{} each), so a document grows without bound: the busiest {} \
         gets {} children a second ({terms}), passes MongoDB's 16 MB document limit after ~{} children, ~{} ({}), \
         and every later {} is refused (\"{}\", {}). Until then each append builds the whole document's new \
         version, so its writes slow as it grows (modelled). Keep the newest in the document and \
         the rest as documents of their own (the subset pattern, keep_latest: Some(N)), or reference them",
        item.parent,
        item.child,
        item.list,
        bytes(item.child_bytes),
        item.parent,
        rate(item.per_sec),
        count(item.children),
        span(item.secs),
        if item.within_run { "within this run" } else { "after this run ends" },
        item.child,
        mongo::TOO_LARGE_UPDATE,
        mongo::TOO_LARGE_UPDATE_CODES,
    )
}

fn key_update(f: &mut Formatter<'_>, update: &KeyUpdate, cql: bool) -> fmt::Result {
    let moved = update.moved.join(", ");
    let (refusal, elsewhere) = if cql {
        ("a Cassandra UPDATE cannot set a primary-key column", "a materialized view keyed by it")
    } else {
        (
            "DynamoDB rejects an UpdateItem that changes a key attribute (ValidationException: the attribute is \
             part of the key)",
            "a GSI keyed by it",
        )
    };
    let cost = if cql {
        "two writes a call".to_owned()
    } else if update.transaction {
        format!("{} WCU a call, the two in one transaction", count(update.units_per_call))
    } else {
        format!("{} WCU a call for two requests", count(update.units_per_call))
    };
    write!(
        f,
        "{} sets {moved}, part of {}'s table key: {refusal}, so each call deletes the item and puts it at its new \
         key — {cost}, and the item leaves its item collection. Keep {moved} out of the table key and in \
         {elsewhere}: the index moves its entry on an ordinary update",
        update.pattern, update.entity,
    )
}

fn collection_order(f: &mut Formatter<'_>, o: &CollectionOrder) -> fmt::Result {
    let (order, from, side, fix) = if o.desc {
        ("newest first (Desc)", "highest", "below", "above")
    } else {
        ("in ascending order", "lowest", "above", "below")
    };
    let (entity, child, limit) = (&o.entity, &o.child, o.limit);
    write!(
        f,
        "{} reads {entity} with its {child} items in one Query, {order}, stopping at {limit}: it reads the item \
         collection from its {from} sort key, but the {entity} item's sort key ({}) sorts {side} the {child} items' \
         ({}), so once a {entity} has {limit} {child} items or more the call returns them and not the {entity} \
         item. Give the {entity} a sort key that sorts {fix} theirs, or read it with a GetItem of its own",
        o.pattern, o.parent_sk, o.child_sk,
    )
}

fn unsafe_claim(f: &mut Formatter<'_>, c: &UnsafeClaim) -> fmt::Result {
    let expected = c.expected.map_or_else(String::new, |(refused, puts)| {
        format!(" Over the run that is ~{} of {} puts.", count(refused), count(puts))
    });
    write!(
        f,
        "{} puts its {} item and takes its claim ({}) in separate requests: {}.{expected} Put both in one \
         TransactWriteItems (`transaction: true`): a taken claim then cancels the put, and nothing is duplicated.",
        c.pattern, c.entity, c.expression, c.why
    )
}

fn key_collision(f: &mut Formatter<'_>, c: &Collision, engine: Engine) -> fmt::Result {
    let cql = engine.profile().cql();
    let (one, noun) = (engine.words().item.one, engine.words().item.many);
    let entity = &c.entity;
    let left_out = match &c.id {
        Some((attribute, population)) => format!(
            "leaves out {attribute}, the attribute that tells {entity} {noun} apart (New({population:?}))"
        ),
        None => {
            format!("holds nothing new for each {entity} item (no id drawn by New(…), no generated number)")
        }
    };
    let expires =
        c.lifetime.map_or_else(String::new, |l| format!("; each expires {} after it is written", span(l)));
    let share = if c.lost / c.items > 0.995 { "nearly all".to_owned() } else { percent(c.lost / c.items) };
    let what_happens = if cql {
        "An INSERT with the primary key of an existing row overwrites that row (Cassandra writes are upserts), \
         without an error"
    } else {
        "PutItem with the key of an existing item replaces that item whole, without an error"
    };
    let fix = match (&c.id, &c.sort_key) {
        (Some((a, _)), _) if cql => format!("Add {a} to the primary key as a clustering column"),
        (Some((a, _)), Some((name, sk))) => format!("Add {{{a}}} to the sort key ({name} = {sk}#{{{a}}})"),
        (Some((a, _)), None) => format!("Add {{{a}}} to the key"),
        (None, _) => {
            "Add an attribute that tells the items apart: an id drawn by New(…), or the write time with \
                      a sequence number (`{sent_at}#{seq}`)"
                .to_owned()
        }
    };
    write!(
        f,
        "{entity}'s table key {} {left_out}: it takes {} for ~{} {entity} {noun} written ({}{expires}), so an \
         estimated ~{} of them ({share}) land on a key another {entity} {one} already holds (an estimate: the \
         {noun} less the distinct keys they are expected to take, each {one}'s key drawn independently). \
         {what_happens}: those {noun} are silently lost. {fix}.",
        c.key,
        key_values(&c.values),
        count(c.items),
        c.terms.iter().map(written_term).collect::<Vec<_>>().join(" + "),
        count(c.lost),
    )
}

/// `shard(4): 4`, `customer_id: 1,000 values (Zipf(s: 0.9): like ~59 equally likely)`,
/// `at: 86,400 windows of a second in 1 d`.
fn slot_term(term: &SlotTerm) -> String {
    match term {
        SlotTerm::Shard { count: n } => format!("shard({n}): {n}"),
        SlotTerm::Hash { name, count: n, values } => format!("hash({name}, {n}): {}", count(*values)),
        SlotTerm::Attribute { name, values, like } => {
            let noun = if *values > 1.0 { "values" } else { "value" };
            let like = like.as_ref().map_or_else(String::new, |(label, effective)| {
                format!(" ({label}: like ~{} equally likely)", count(*effective))
            });
            format!("{name}: {} {noun}{like}", count(*values))
        }
        SlotTerm::NotWriteTime { label, name } => {
            format!("{label}: {name} is not the write time, counted once")
        }
        SlotTerm::Windows { label, values, width, lifetime } => format!(
            "{label}: {} {}{} in {}",
            count(*values),
            if *values > 1.0 { "windows" } else { "window" },
            if *width <= 1.0 { " of a second" } else { "" },
            span(*lifetime)
        ),
    }
}

/// `200,000 to start`, `place-order 10/s less 1/s of deletes over 30 d`.
fn written_term(term: &WrittenTerm) -> String {
    match term {
        WrittenTerm::Start { members } => format!("{} to start", count(*members)),
        WrittenTerm::Puts { puts, deletes, lifetime } => {
            let mut named: Vec<String> = puts.iter().map(|(p, r)| format!("{p} {}/s", rate(*r))).collect();
            if let Some(d) = deletes {
                named.push(format!("less {}/s of deletes", rate(*d)));
            }
            format!("{} over {}", named.join(" + "), span(*lifetime))
        }
    }
}

/// `~10,000 values (customer_id: 10,000 values)`, or that for each class of the class slot.
fn key_values(values: &KeyValues) -> String {
    let Some(by) = &values.by else {
        return values.classes.iter().map(class_values).collect();
    };
    let each: Vec<String> = values
        .classes
        .iter()
        .map(|c| {
            let label = c.class.as_ref().map_or_else(|| "other values".to_owned(), |v| format!("{by} = {v}"));
            format!("{label} ({} of the items) {}", percent(c.share), class_values(c))
        })
        .collect();
    format!("per class of {by}: {}", each.join("; "))
}

/// `~10,000 values (customer_id: 10,000 values)`, and how many equally likely values would repeat
/// as often when they are far fewer.
fn class_values(c: &ClassValues) -> String {
    if c.slots.is_empty() {
        return "1 value (a literal key)".to_owned();
    }
    let slots: Vec<String> = c.slots.iter().map(slot_term).collect();
    let mut text = format!("~{} values ({})", count(c.values), slots.join(" × "));
    if let Some(like) = c.like {
        let _ = write!(
            text,
            ", as likely to repeat as ~{} equally likely values (1/Σp², p each key value's chance),",
            count(like)
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::planner::{Subject, WarningCode};

    fn warning(code: WarningCode, engine: Engine, finding: Finding) -> String {
        let about = Subject::Pattern(crate::engine::model::PatternId::new(0));
        Warning { code, about, subject: String::new(), finding, engine, limit_after: None }.to_string()
    }

    /// A claim whose taken share is not predicted, without a transaction.
    const CLAIM_WHY: &str = "how often a claimed value is taken is not predicted: the claim's key holds something \
                             other than members the put picks; without a transaction, the User item is its own \
                             request and has landed when the claim's PutItem is refused (1 WCU): each such put \
                             leaves two User items with the value the claim was there to keep unique";

    fn assert_words(cases: Vec<(WarningCode, Finding, String)>) {
        for (code, finding, expected) in cases {
            assert_eq!(warning(code, Engine::DynamoDb, finding), expected, "{code:?}");
        }
    }

    /// The words of findings no bundled design shows (the others are pinned whole by the
    /// byte-identical reports of the bundled scenarios).
    #[test]
    fn an_oversized_item_and_a_collection_read_from_the_wrong_end_are_told() {
        let order = |desc| {
            Finding::CollectionOrder(CollectionOrder {
                pattern: "customer-with-orders".to_owned(),
                entity: "Customer".to_owned(),
                child: "Order".to_owned(),
                desc,
                limit: 10,
                parent_sk: "PROFILE".to_owned(),
                child_sk: "ORDER#{order_id}".to_owned(),
            })
        };
        assert_words(vec![
            (
                WarningCode::OversizedItem,
                Finding::OversizedItem { entity: "Photo".to_owned(), size: 512_000.0 },
                "Photo items are ~500 KB with every attribute present (512,000 bytes), past DynamoDB's 400 KB item \
                 limit (409,600 bytes): each one is refused (ValidationException), those of the initial load \
                 included, so they never reach the table. Make the large attributes smaller, or keep them elsewhere \
                 (S3) and store a reference"
                    .to_owned(),
            ),
            (
                WarningCode::CollectionOrder,
                order(true),
                "customer-with-orders reads Customer with its Order items in one Query, newest first (Desc), \
                 stopping at 10: it reads the item collection from its highest sort key, but the Customer item's \
                 sort key (PROFILE) sorts below the Order items' (ORDER#{order_id}), so once a Customer has 10 \
                 Order items or more the call returns them and not the Customer item. Give the Customer a sort key \
                 that sorts above theirs, or read it with a GetItem of its own"
                    .to_owned(),
            ),
            (
                WarningCode::CollectionOrder,
                order(false),
                "customer-with-orders reads Customer with its Order items in one Query, in ascending order, \
                 stopping at 10: it reads the item collection from its lowest sort key, but the Customer item's \
                 sort key (PROFILE) sorts above the Order items' (ORDER#{order_id}), so once a Customer has 10 \
                 Order items or more the call returns them and not the Customer item. Give the Customer a sort key \
                 that sorts below theirs, or read it with a GetItem of its own"
                    .to_owned(),
            ),
        ]);
    }

    /// `check` speaks of the store's own item limit, its refusal and where large values go: a
    /// Cosmos DB item is refused past 2 MB with a 413, a MongoDB document past 16 MB, never
    /// with DynamoDB's 400 KB (Microsoft Learn, "Azure Cosmos DB service quotas"; "MongoDB
    /// Limits and Thresholds").
    #[test]
    fn an_item_past_the_limit_is_told_in_its_stores_words() {
        let oversized = || Finding::OversizedItem { entity: "Photo".to_owned(), size: 3_000_000.0 };
        // (engine, the words)
        let cases = [
            (
                Engine::CosmosDb,
                "Photo items are ~2.86 MB with every attribute present (3,000,000 bytes), past Cosmos DB's 2 MB item \
                 limit (2,097,152 bytes): each one is refused (413 Request Entity Too Large), those of the initial \
                 load included, so they never reach the container. Make the large attributes smaller, or keep them \
                 elsewhere (Blob Storage) and store a reference",
            ),
            (
                Engine::MongoDb,
                "Photo documents are ~2.86 MB with every attribute present (3,000,000 bytes), past MongoDB's 16 MB \
                 document limit (16,777,216 bytes): each one is refused (\"object to insert too large\"), those of \
                 the initial load included, so they never reach the collection. Make the large attributes smaller, \
                 or keep them elsewhere (GridFS) and store a reference",
            ),
        ];
        for (engine, expected) in cases {
            assert_eq!(warning(WarningCode::OversizedItem, engine, oversized()), expected, "{engine}");
        }
        // An embedded list on Cosmos DB: refused at 2 MB, each append a replace of the whole
        // item (1,250 RU to delete 2 MB and 1,250 to insert it, the documented 2,048 KB row).
        let unbounded = Finding::UnboundedItem(UnboundedItem {
            parent: "Post".to_owned(),
            child: "Comment".to_owned(),
            list: "comments".to_owned(),
            child_bytes: 200.0,
            per_sec: 0.25,
            terms: vec![("comment-viral".to_owned(), 0.25, 1.0)],
            children: 10_400.0,
            secs: 41_600.0,
            within_run: false,
        });
        let said = warning(WarningCode::UnboundedItem, Engine::CosmosDb, unbounded);
        for words in [
            "passes Cosmos DB's 2 MB item limit after ~10,400 children",
            "is refused (413 Request Entity Too Large)",
            "each append replaces the whole item, charged by its size (up to 2,500 RU at the limit)",
        ] {
            assert!(said.contains(words), "{words:?} not in {said}");
        }
        assert!(!said.contains("400 KB") && !said.contains("WCU"), "{said}");
    }

    #[test]
    fn a_claim_apart_from_its_put_and_a_burst_of_copies_are_told() {
        let claim = |expected| {
            Finding::UnsafeClaim(UnsafeClaim {
                pattern: "register".to_owned(),
                entity: "User".to_owned(),
                expression: "attribute_not_exists(PK)".to_owned(),
                why: ConditionWhy::Claim {
                    share: None,
                    entity: "User".to_owned(),
                    transaction: false,
                    failed_units: 1.0,
                },
                expected,
            })
        };
        let burst = CopyBurst {
            pattern: "rename-repo".to_owned(),
            source: "Repo".to_owned(),
            copy: "Star".to_owned(),
            copies: 1077.0,
            units: 2154.0,
        };
        let hot = |wcu| {
            Finding::HotPartition(HotLoad {
                subject: "table REPO#{repo_id}".to_owned(),
                wcu,
                rcu: None,
                terms: vec![LoadTerm::ReadsBeforeWriting { pattern: "star".to_owned(), units: 12.5 }],
                single_item: true,
                burst: Some(burst.clone()),
                ru_share: None,
            })
        };
        let burst_words = "one rename-repo call that picks the Repo with the most copies rewrites ~1,077 Star items \
                           under one key at once (2,154 WCU), and a partition serves 1,000 WCU/s: the call takes at \
                           least 2.2 s and throttles meanwhile";
        assert_words(vec![
            (
                WarningCode::UnsafeClaim,
                claim(Some((12.0, 3000.0))),
                format!(
                    "register puts its User item and takes its claim (attribute_not_exists(PK)) in separate \
                     requests: {CLAIM_WHY}. Over the run that is ~12 of 3,000 puts. Put both in one \
                     TransactWriteItems (`transaction: true`): a taken claim then cancels the put, and nothing is \
                     duplicated."
                ),
            ),
            (
                WarningCode::UnsafeClaim,
                claim(None),
                format!(
                    "register puts its User item and takes its claim (attribute_not_exists(PK)) in separate \
                     requests: {CLAIM_WHY}. Put both in one TransactWriteItems (`transaction: true`): a taken claim \
                     then cancels the put, and nothing is duplicated."
                ),
            ),
            (
                WarningCode::HotPartition,
                hot(None),
                format!(
                    "{burst_words}; its load at peak: star reads before writing 12.5 RCU/s; it is one item, so no \
                     split for heat can help"
                ),
            ),
            (
                WarningCode::HotPartition,
                hot(Some(2400.0)),
                format!(
                    "at peak, the busiest value of table REPO#{{repo_id}} takes 2,400 WCU/s against the 1,000 WCU/s \
                     one partition serves: star reads before writing 12.5 RCU/s; it is one item, so no split for \
                     heat can help; and {burst_words}"
                ),
            ),
        ]);
    }
}
