//! What the planner found for each pattern, as values: how a read is served — by its keys, by a
//! Query, one request per entity, class by class — or why it is not (a Scan, a search); what a
//! write writes and whether its caller can name the item; why each other place does not serve a
//! read or costs more. The planner decides and fills these in; it never words them. Their words
//! (`Display`, and the `served`/`reason` pairs `check`'s JSON writes) live in `report::reasons`,
//! and `check`'s text, Markdown and JSON and the warnings that quote a plan all show those words.
//! A missing key input (`keys::KeyGap`) and the notes on why a read fans out
//! (`keys::FanoutNote`) are values too, worded in `report::reasons::keys`.

use super::{IndexId, Operation, WriteTarget, keys, numbers};
use crate::engine::model::{Engine, IndexKind, Projection};

/// How a pattern is served, or why it is not. Serialized as `check`'s JSON has it: `served` and
/// `reason`, side by side (flattened into its plan, which then serializes as a map: fine for
/// JSON, the only format a plan is written in).
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A plan still being built; no finished plan has it.
    Pending,
    Read(ReadVerdict),
    Write(WriteVerdict),
}

impl Verdict {
    /// Whether the keys serve the pattern: false for a Scan, for something no key can serve, and
    /// for an update or delete whose key the caller cannot compute (unless a direct lookup finds
    /// it first).
    pub fn served(&self) -> bool {
        match self {
            Verdict::Pending => false,
            Verdict::Read(read) => matches!(read.how, ReadHow::Served(_) | ReadHow::Split(_)),
            Verdict::Write(write) => write.writes().is_some(),
        }
    }

    /// Takes the items a call reads out of the words wherever they are shown as `~items (bytes)
    /// per call` with these figures: `check` cannot predict them (`unpredictable`).
    pub fn hide_items(&mut self, items: f64, bytes: f64) {
        let Verdict::Read(read) = self else { return };
        match &mut read.how {
            ReadHow::Served(served) => served.access.hide_items(items, bytes),
            ReadHow::Split(split) => {
                for part in &mut split.parts {
                    part.verdict.hide_items(items, bytes);
                }
            }
            ReadHow::Scan(_) | ReadHow::Search { .. } => {}
        }
    }
}

/// A read's verdict, and what its transaction (if it asks for one) came to.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadVerdict {
    pub how: ReadHow,
    pub transaction: Option<TransactRead>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ReadHow {
    /// A place's keys serve it.
    Served(Served),
    /// Its entities live in different partitions: one request each, sent together.
    Split(Split),
    /// No key serves it: a Scan with the pattern's inputs as a filter.
    Scan(Scan),
    /// `contains(attribute, word)` with nothing to narrow it: no key can serve it.
    Search { attribute: String, engine: Engine },
}

/// A read a place's keys serve: how, and what else the read brings.
#[derive(Debug, Clone, PartialEq)]
pub struct Served {
    pub access: Access,
    /// The children embedded in the item read, which come with it.
    pub embedded: Vec<Embedded>,
    /// The attribute a `contains` filter searches: every item the key reaches is read.
    pub contains: Option<String>,
    /// The store, whose words the verdict is told in.
    pub engine: Engine,
}

/// An embedded child entity: its items live in the parent's `list`.
#[derive(Debug, Clone, PartialEq)]
pub struct Embedded {
    pub entity: String,
    pub list: String,
    pub keep_latest: Option<u32>,
}

/// How one place reads what the pattern asks.
#[derive(Debug, Clone, PartialEq)]
pub enum Access {
    /// The full primary key is known: one GetItem.
    Key {
        engine: Engine,
    },
    /// `fanout` full keys, one per shard or bucket (`notes`): a BatchGetItem.
    Keys {
        fanout: u32,
        notes: Vec<keys::FanoutNote>,
    },
    Query(QueryReading),
    /// The partition key's layout depends on a class the reader knows (`by`): each class read
    /// on its own layout, mixed by the share of calls each takes.
    Classes {
        by: String,
        mean_fanout: f64,
        classes: Vec<ClassAccess>,
    },
}

impl Access {
    fn hide_items(&mut self, items: f64, bytes: f64) {
        match self {
            // Compared as shown, not as numbers: what `check` must not show is the text a reader
            // sees, and a class's or a part's own figures can round to the plan's.
            Access::Query(q)
                if numbers::count(q.items) == numbers::count(items)
                    && numbers::bytes(q.bytes) == numbers::bytes(bytes) =>
            {
                q.items_unknown = true;
            }
            Access::Classes { classes, .. } => {
                for class in classes {
                    class.access.hide_items(items, bytes);
                }
            }
            Access::Key { .. } | Access::Keys { .. } | Access::Query(_) => {}
        }
    }
}

/// One class's read: its value (`None` for every value without a case of its own) and the
/// share of calls that ask it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassAccess {
    pub value: Option<String>,
    pub share: f64,
    pub access: Access,
}

/// Why a Query serves the pattern, and what one call reads.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryReading {
    pub shape: QueryShape,
    /// Partitions queried per call, and why more than one (`shard(10): one request per shard`).
    pub fanout: u32,
    pub notes: Vec<keys::FanoutNote>,
    /// Items (rows) one call reads, and their bytes.
    pub items: f64,
    pub bytes: f64,
    /// `check` cannot predict the items: shown as `?`.
    pub items_unknown: bool,
    /// The limit that stopped the read early.
    pub stopped: Option<Stopped>,
    /// Read in descending sort key order.
    pub descending: Option<Descending>,
    /// A limit over a range the sort key does not order: it applies only after every match.
    pub limit_after_range: bool,
    /// The table items fetched for what an index does not project.
    pub fetch: Option<FetchReading>,
    /// A query on the first levels of a hierarchical partition key, not all of them: `fanout`
    /// counts the physical partitions holding the prefix, not logical partitions.
    pub prefix: Option<Box<KeyPrefix>>,
    /// The store: its nouns, and how its words ask for descending order
    /// (`Vocabulary::descending`).
    pub engine: Engine,
}

/// A read that gives the first levels of a partition key of several levels (Cosmos DB's
/// hierarchical partition keys) but not the rest: it is routed to the physical partitions that
/// hold the prefix (`profile::PrefixReads::ByPlacement`), where it reads every logical partition
/// under the prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPrefix {
    /// The paths of the levels given, in order (`tenant_id`).
    pub given: Vec<String>,
    /// How many levels the key has.
    pub levels: usize,
    /// The physical partitions the container starts with, out of which the prefix's are
    /// visited (`None` when the plan cannot tell).
    pub of: Option<u32>,
}

/// A Query stopped by the pattern's limit before it read every match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    pub limit: u32,
    /// The limit counts the items that pass a filter (DynamoDB's `Limit` counts items read).
    pub after_filter: bool,
}

/// A read in descending sort key order: "newest" only when the order is over a time; a score
/// or a name runs highest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Descending {
    NewestFirst,
    HighestFirst,
}

/// What a Query's key condition does with the partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryShape {
    /// One partition holds these entities together: the item collection is read.
    Collection(Vec<String>),
    /// The whole (index) key is known.
    WholeKey,
    /// The sort key applies the pattern's range.
    Range,
    /// The sort key narrows the partition to the entity's items.
    Narrowed,
    /// No sort key condition; a limit stops the read in sort key order.
    InOrder,
    /// No sort key condition: the whole partition.
    Whole,
}

/// The table items a Query on an index fetches for the attributes it does not project.
#[derive(Debug, Clone, PartialEq)]
pub struct FetchReading {
    pub index: String,
    pub kind: IndexKind,
    pub projection: Projection,
    /// The attributes the pattern needs that the index does not hold.
    pub missing: Vec<String>,
    /// Items fetched per call, in how many BatchGetItem requests (a GSI's), for how many units.
    pub returned: f64,
    pub requests: u32,
    pub units: f64,
    /// On a store whose index entries are keys and record ids (MongoDB): the entity whose
    /// documents the query's FETCH stage reads whole, and the bytes it reads a call.
    pub documents: Option<Box<(String, f64)>>,
    pub engine: Engine,
}

/// A `with` read whose entities live in different partitions: each entity's own read, sent
/// together.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    pub parts: Vec<SplitPart>,
    pub engine: Engine,
}

/// One entity's read of a split read.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitPart {
    pub entity: String,
    pub operation: Option<Operation>,
    pub index: Option<IndexId>,
    pub verdict: Verdict,
}

/// A Scan: what one call reads. `tables` names the Cassandra profile's tables (one per entity);
/// a DynamoDB Scan reads the one table.
#[derive(Debug, Clone, PartialEq)]
pub struct Scan {
    pub items: f64,
    pub bytes: f64,
    pub tables: Option<Vec<String>>,
    pub engine: Engine,
}

/// A Get in a transaction: joined into one TransactGetItems, or why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactRead {
    Joined {
        engine: Engine,
    },
    /// It reads more items than the store's transaction holds (`most`).
    TooMany {
        items: u32,
        most: u32,
        engine: Engine,
    },
    /// keyheat joins reads by full keys to a transaction, and this design reads with a Query.
    NotByKey {
        engine: Engine,
    },
}

/// A write's verdict: whether the caller can name the item, and what one call writes when it is
/// served.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteVerdict {
    pub naming: Naming,
    /// One transaction: DynamoDB's TransactWriteItems, MongoDB's multi-document transaction.
    pub transaction: bool,
    /// The store, for its words.
    pub engine: Engine,
}

impl WriteVerdict {
    /// What a call writes; `None` when the write is not served.
    pub fn writes(&self) -> Option<&Writes> {
        match &self.naming {
            Naming::Named(writes) => Some(writes),
            Naming::Unnamed { then, .. } => then.as_ref(),
        }
    }
}

/// Whether the caller can compute the item's key.
#[derive(Debug, Clone, PartialEq)]
pub enum Naming {
    /// It can: the write goes straight to the item.
    Named(Writes),
    /// It cannot (`gap`). An update or delete reads first to learn the key (`locate`); when
    /// that read finds the item alone, a direct lookup, the write is served and writes `then`.
    Unnamed { gap: NameGap, locate: Option<LocateRead>, then: Option<Writes> },
}

/// Why an update or delete cannot name its item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameGap {
    Key(keys::KeyGap),
    /// The sort key (`key` as written) needs inputs the pattern does not give.
    SortKey {
        key: String,
        missing: Vec<String>,
    },
}

/// The read a write sends first to learn its item's key.
#[derive(Debug, Clone, PartialEq)]
pub enum LocateRead {
    /// Nothing can serve that read either; its verdict says why.
    NotFound(Box<Verdict>),
    Found(Locating),
}

/// What the locating read costs per call.
#[derive(Debug, Clone, PartialEq)]
pub struct Locating {
    /// Its requests (`Query ×2`, `Scan`).
    pub requests: String,
    pub scan: bool,
    pub index: Option<IndexId>,
    pub items: f64,
    pub units: f64,
    /// The store it reads, for its words: its requests, records, places and units.
    pub engine: Engine,
}

/// What one write call writes: each target and how many times (those written at all).
#[derive(Debug, Clone, PartialEq)]
pub struct Writes {
    pub targets: Vec<(WriteTarget, f64)>,
    pub items: f64,
    pub engine: Engine,
}

/// Why another place does not serve a read, or costs more than the one chosen. Serialized as
/// `serves` and `reason`, side by side.
#[derive(Debug, Clone, PartialEq)]
pub enum Considered {
    CostsMore(Cost),
    Unserved(Unserved),
}

impl Considered {
    pub fn serves(&self) -> bool {
        matches!(self, Considered::CostsMore(_))
    }
}

/// Why the table or an index cannot serve a read: the plan's alternatives say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unserved {
    /// The place holds no items of `entity`.
    NotHeld { entity: String, engine: Engine },
    /// Two entities a read asks together are under different partition keys there.
    KeysDiffer { entity: String, key: String, other: String, other_key: String, engine: Engine },
    /// A sparse index's `only_when` that the pattern does not ask for.
    Sparse { attribute: String, value: String },
    /// The place's key needs an input the pattern does not give; `engine` names the key in its
    /// store's words.
    Key { gap: keys::KeyGap, engine: Engine },
}

/// What one way of serving a read costs a call.
#[derive(Debug, Clone, PartialEq)]
pub struct Cost {
    pub operation: Operation,
    pub fanout: u32,
    pub fetch: bool,
    pub units: f64,
    pub bytes: f64,
    pub engine: Engine,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(items: f64, bytes: f64) -> Access {
        Access::Query(QueryReading {
            shape: QueryShape::Range,
            fanout: 1,
            notes: Vec::new(),
            items,
            bytes,
            items_unknown: false,
            stopped: None,
            descending: None,
            limit_after_range: false,
            fetch: None,
            prefix: None,
            engine: Engine::DynamoDb,
        })
    }

    /// Each class's read, and whether its items are hidden.
    fn hidden(verdict: &Verdict) -> Vec<(Option<&str>, bool)> {
        let Verdict::Read(ReadVerdict { how: ReadHow::Served(served), .. }) = verdict else {
            panic!("a served read: {verdict:?}")
        };
        let Access::Classes { classes, .. } = &served.access else { panic!("a class read: {verdict:?}") };
        let unknown = |a: &Access| matches!(a, Access::Query(q) if q.items_unknown);
        classes.iter().map(|c| (c.value.as_deref(), unknown(&c.access))).collect()
    }

    #[test]
    fn hides_only_the_items_shown_with_the_plans_figures() {
        // A class read: the class whose figures are the plan's hides them, the other keeps its
        // own; a figure that rounds to the plan's (10.02 items, 400.3 bytes) is the one shown.
        let classes = vec![
            ClassAccess { value: Some("a".to_owned()), share: 0.4, access: query(10.0, 400.0) },
            ClassAccess { value: Some("b".to_owned()), share: 0.3, access: query(10.02, 400.3) },
            ClassAccess { value: None, share: 0.3, access: query(99.0, 9_000.0) },
        ];
        let access = Access::Classes { by: "tier".to_owned(), mean_fanout: 1.0, classes };
        let served = Served { access, embedded: Vec::new(), contains: None, engine: Engine::DynamoDb };
        let mut verdict = Verdict::Read(ReadVerdict { how: ReadHow::Served(served), transaction: None });
        assert_eq!(hidden(&verdict), [(Some("a"), false), (Some("b"), false), (None, false)]);
        verdict.hide_items(10.0, 400.0);
        assert_eq!(hidden(&verdict), [(Some("a"), true), (Some("b"), true), (None, false)]);
    }
}
