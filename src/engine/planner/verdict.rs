//! What the planner found for each pattern, as values: how a read is served — by its keys, by a
//! Query, one request per entity, class by class — or why it is not (a Scan, a search); what a
//! write writes and whether its caller can name the item; why each other place does not serve a
//! read or costs more. The planner decides and fills these in; `Display` here words them, and
//! `check`'s text, Markdown and JSON and the warnings that quote a plan all show those words. Two
//! parts arrive as text: a missing key input words itself (`keys::KeyGap`), and the notes on why
//! a read fans out (`shard(10): one request per shard`) come from the key template's slots.

use std::fmt::{self, Display, Formatter};

use serde::Serialize;
use serde::ser::SerializeStruct as _;

use super::{CQL_PAGE_ROWS, IndexId, Operation, PAGE_BYTES, WriteTarget, keys, numbers};
use crate::engine::model::{IndexKind, Projection};

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

impl Display for Verdict {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Pending => Ok(()),
            Verdict::Read(read) => read.fmt(f),
            Verdict::Write(write) => write.fmt(f),
        }
    }
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        flag_and_reason(serializer, ("Verdict", "served"), self.served(), self)
    }
}

/// A verdict as `check`'s JSON has it: whether it serves (under `flag`), then its words.
fn flag_and_reason<S: serde::Serializer>(
    serializer: S,
    (name, flag): (&'static str, &'static str),
    serves: bool,
    words: &impl Display,
) -> Result<S::Ok, S::Error> {
    let mut out = serializer.serialize_struct(name, 2)?;
    out.serialize_field(flag, &serves)?;
    out.serialize_field("reason", &words.to_string())?;
    out.end()
}

/// A read's verdict, and what its transaction (if it asks for one) came to.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadVerdict {
    pub how: ReadHow,
    pub transaction: Option<TransactRead>,
}

impl Display for ReadVerdict {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.how {
            ReadHow::Served(served) => served.fmt(f)?,
            ReadHow::Split(split) => split.fmt(f)?,
            ReadHow::Scan(scan) => scan.fmt(f)?,
            ReadHow::Search { attribute, cql } => write!(
                f,
                "contains({attribute}, word) looks for a word inside the text: no key condition can test that, and no \
                 key narrows the search to one partition, so a Scan with that filter would read the whole table on \
                 every call. Serve it with a search index fed by the same writes (e.g. OpenSearch via {})",
                streams(*cql)
            )?,
        }
        match self.transaction {
            None => Ok(()),
            Some(tx) => tx.fmt(f),
        }
    }
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
    Search { attribute: String, cql: bool },
}

/// The Search case's change feed, by engine.
fn streams(cql: bool) -> &'static str {
    if cql { "Cassandra CDC" } else { "DynamoDB Streams" }
}

/// A read a place's keys serve: how, and what else the read brings.
#[derive(Debug, Clone, PartialEq)]
pub struct Served {
    pub access: Access,
    /// The children embedded in the item read, which come with it.
    pub embedded: Vec<Embedded>,
    /// The attribute a `contains` filter searches: every item the key reaches is read.
    pub contains: Option<String>,
    pub cql: bool,
}

impl Display for Served {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.access.fmt(f)?;
        for e in &self.embedded {
            write!(f, "; its {} items come with it, embedded in its {} list", e.entity, e.list)?;
            if let Some(n) = e.keep_latest {
                write!(f, " (the newest {n})")?;
            }
        }
        if let Some(attribute) = &self.contains {
            write!(
                f,
                "; contains({attribute}, :word) is a filter, so every item the key reaches is read to find the \
                 matches — a search index fed by the same writes (e.g. OpenSearch via {}) finds them without \
                 reading the rest",
                streams(self.cql)
            )?;
        }
        Ok(())
    }
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
        cql: bool,
    },
    /// `fanout` full keys, one per shard or bucket (`notes`): a BatchGetItem.
    Keys {
        fanout: u32,
        notes: Vec<String>,
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
                if items_clause(q.items, q.bytes, q.noun()) == items_clause(items, bytes, q.noun()) =>
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

impl Display for Access {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Access::Key { cql } => {
                write!(f, "the full primary key is known: one {}", if *cql { "row" } else { "item" })
            }
            Access::Keys { fanout, notes } => write!(f, "{fanout} keys, one per {}", notes.join("; ")),
            Access::Query(q) => q.fmt(f),
            Access::Classes { by, mean_fanout, classes } => {
                write!(
                    f,
                    "by {by}, each class on its own layout — ×{} requests a call on average; ",
                    numbers::factor(*mean_fanout)
                )?;
                for (i, class) in classes.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    match &class.value {
                        Some(v) => write!(f, "{by} = {v}")?,
                        None => f.write_str("other values")?,
                    }
                    write!(f, " ({} of calls): {}", numbers::percent(class.share), class.access)?;
                }
                Ok(())
            }
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
    pub notes: Vec<String>,
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
    pub cql: bool,
}

impl QueryReading {
    fn noun(&self) -> &'static str {
        if self.cql { "rows" } else { "items" }
    }
}

impl Display for QueryReading {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if !self.notes.is_empty() {
            write!(f, "×{}: {}; ", self.fanout, self.notes.join("; "))?;
        }
        self.shape.fmt(f)?;
        if self.items_unknown {
            write!(f, "; ? {} per call", self.noun())?;
        } else {
            write!(f, "; {}", items_clause(self.items, self.bytes, self.noun()))?;
        }
        let requests = f64::from(self.fanout.max(1));
        if self.cql {
            let rows = self.items / requests;
            if rows > CQL_PAGE_ROWS as f64 {
                write!(f, ", {} per request", cql_pages(rows))?;
            }
        } else if self.bytes / requests > PAGE_BYTES {
            write!(f, ", {} per request", pages(self.bytes / requests))?;
        }
        if let Some(Stopped { limit, after_filter }) = self.stopped {
            write!(
                f,
                ", stopping at the limit of {limit}{}",
                if after_filter { " items that pass the filter" } else { "" }
            )?;
        }
        if let Some(order) = self.descending {
            let first = match order {
                Descending::NewestFirst => "newest first",
                Descending::HighestFirst => "highest first",
            };
            let clause = if self.cql { "ORDER BY … DESC" } else { "ScanIndexForward = false" };
            write!(f, ", {first} ({clause})")?;
        }
        if self.limit_after_range {
            f.write_str(
                ", unordered by the range attribute: the limit applies only after reading every match",
            )?;
        }
        match &self.fetch {
            None => Ok(()),
            Some(fetch) => fetch.fmt(f),
        }
    }
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

impl Display for QueryShape {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            QueryShape::Collection(entities) => {
                write!(f, "one partition holds {} together: read the item collection", entities.join(" and "))
            }
            QueryShape::WholeKey => f.write_str("the whole index key is known"),
            QueryShape::Range => f.write_str("the sort key applies the range"),
            QueryShape::Narrowed => f.write_str("the sort key narrows the partition to this entity's items"),
            QueryShape::InOrder => f.write_str("reads the partition in sort key order"),
            QueryShape::Whole => f.write_str("reads the whole partition"),
        }
    }
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
    pub cql: bool,
}

impl Display for FetchReading {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let FetchReading { index, projection, returned, .. } = self;
        let missing = self.missing.join(", ");
        let comes = if self.missing.len() == 1 { "comes" } else { "come" };
        let returned = numbers::count(*returned);
        match self.kind {
            // A view holds the columns it selects; the rest is one SELECT by primary key per row.
            IndexKind::Global if self.cql => {
                let holds = match projection {
                    Projection::KeysOnly => "only the key columns".to_owned(),
                    Projection::Include(names) => format!("the key columns and {}", names.join(", ")),
                    Projection::All => "every column".to_owned(),
                };
                write!(
                    f,
                    "; + fetch: view {index} holds {holds}, so {missing} {comes} from the table — one SELECT by \
                     primary key for each of the ~{returned} rows"
                )
            }
            IndexKind::Global => write!(
                f,
                "; + fetch: {index} projects {projection}, so {missing} {comes} from the table — BatchGetItem of the \
                 ~{returned} results ({} request{} of ≤ 100 keys), ~{} RCU",
                numbers::count(f64::from(self.requests)),
                if self.requests == 1 { "" } else { "s" },
                numbers::count(self.units)
            ),
            IndexKind::Local => write!(
                f,
                "; + fetch: {index} projects {projection}, so the Query fetches {missing} from the table for each of \
                 the ~{returned} results, ~{} RCU",
                numbers::count(self.units)
            ),
        }
    }
}

/// A `with` read whose entities live in different partitions: each entity's own read, sent
/// together.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    pub parts: Vec<SplitPart>,
    pub cql: bool,
}

impl Display for Split {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let entities: Vec<&str> = self.parts.iter().map(|x| x.entity.as_str()).collect();
        write!(
            f,
            "{} are in different partitions, so one request cannot read them together: {} requests sent at once, \
             one per entity — ",
            entities.join(" and "),
            self.parts.len()
        )?;
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            let operation = part.operation.map_or("?", |o| if self.cql { cql_verb(o) } else { o.name() });
            let place =
                part.index.as_ref().map_or_else(|| "table".to_owned(), |id| format!("index {}", id.name()));
            write!(f, "{}: {operation} on the {place} ({})", part.entity, part.verdict)?;
        }
        Ok(())
    }
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
}

impl Display for Scan {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (items, bytes) = (numbers::count(self.items), numbers::bytes(self.bytes));
        match &self.tables {
            Some(tables) => write!(
                f,
                "no key serves it: a full scan (SELECT … ALLOW FILTERING) reads all ~{items} rows ({bytes}) of the {} \
                 table{} on every call, {}",
                tables.join(" and "),
                if tables.len() == 1 { "" } else { "s" },
                cql_pages(self.items)
            ),
            None => write!(
                f,
                "no key serves it: a Scan reads all ~{items} items ({bytes}) of the table on every call, {}",
                pages(self.bytes)
            ),
        }
    }
}

/// A Get in a transaction: joined into one TransactGetItems, or why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactRead {
    Joined,
    /// It reads more items than a transaction holds (`most`).
    TooMany {
        items: u32,
        most: u32,
    },
    /// A transaction reads by full keys, and this design reads with a Query.
    NotByKey,
}

impl Display for TransactRead {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TransactRead::Joined => f.write_str(
                ", in one TransactGetItems (each item read twice, strongly consistent: 2 RCU per 4 KB)",
            ),
            TransactRead::TooMany { items, most } => write!(
                f,
                "; not a TransactGetItems: it reads {items} items and a transaction holds at most {most}, so the \
                 call reads without the transaction"
            ),
            TransactRead::NotByKey => f.write_str(
                "; not a TransactGetItems: a transaction reads items by their full keys, and this design reads with \
                 a Query, so the call reads without the transaction",
            ),
        }
    }
}

/// A write's verdict: whether the caller can name the item, and what one call writes when it is
/// served.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteVerdict {
    pub naming: Naming,
    /// One TransactWriteItems.
    pub transaction: bool,
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

impl Display for WriteVerdict {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.naming {
            Naming::Named(writes) => writes.fmt(f)?,
            Naming::Unnamed { gap, locate, then } => {
                write!(f, "{gap}: the application must read the item first to learn its key")?;
                if let Some(locate) = locate {
                    locate.fmt(f)?;
                }
                if let Some(writes) = then {
                    write!(f, "; then it {writes}")?;
                }
            }
        }
        if self.transaction && self.writes().is_some() {
            f.write_str(
                ", all in one TransactWriteItems (each table item written twice: prepare and commit)",
            )?;
        }
        Ok(())
    }
}

/// Why an update or delete cannot name its item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameGap {
    #[error(transparent)]
    Key(keys::KeyGap),
    #[error("the sort key {key} needs {}, which the pattern does not give", missing.join(", "))]
    SortKey { key: String, missing: Vec<String> },
}

/// The read a write sends first to learn its item's key.
#[derive(Debug, Clone, PartialEq)]
pub enum LocateRead {
    /// Nothing can serve that read either; its verdict says why.
    NotFound(Box<Verdict>),
    Found(Locating),
}

impl Display for LocateRead {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            LocateRead::NotFound(why) => write!(f, "; no read finds it either: {why}"),
            LocateRead::Found(read) => read.fmt(f),
        }
    }
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
    pub cql: bool,
}

impl Display for Locating {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let what = match (self.cql, self.scan) {
            (true, true) => "a SELECT of every partition".to_owned(),
            (true, false) => "a SELECT".to_owned(),
            (false, _) => format!("a {}", self.requests),
        };
        let noun = if self.cql { "row" } else { "item" };
        let shown = numbers::count(self.items);
        let plural = if shown == "1" { "" } else { "s" };
        let place = match &self.index {
            // A Cassandra index is a materialized view.
            Some(id) if self.cql && id.kind() == IndexKind::Global => format!("view {}", id.name()),
            index => IndexId::place(index.as_ref()),
        };
        write!(f, "; it reads it first with {what} on the {place} ({shown} {noun}{plural}")?;
        if !self.cql {
            write!(f, ", ~{} RCU", numbers::count(self.units))?;
        }
        f.write_str(" per call)")
    }
}

/// What one write call writes: each target and how many times (those written at all).
#[derive(Debug, Clone, PartialEq)]
pub struct Writes {
    pub targets: Vec<(WriteTarget, f64)>,
    pub items: f64,
    pub cql: bool,
}

impl Display for Writes {
    /// "writes 3 items per call: table ×1 + GSI by-user ×2" (rows and views for Cassandra).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let one = (self.items - 1.0).abs() < f64::EPSILON;
        let noun = match (self.cql, one) {
            (false, true) => "item",
            (false, false) => "items",
            (true, true) => "row",
            (true, false) => "rows",
        };
        write!(f, "writes {} {noun} per call: ", numbers::factor(self.items))?;
        for (i, (target, per_call)) in self.targets.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{} ×{}", target.shown(self.cql), numbers::factor(*per_call))?;
        }
        // Cassandra keeps a view by reading the base row first on each replica, to find the view
        // row a write replaces (Apache Cassandra docs, "Materialized Views").
        let to_view = |target: &WriteTarget| target.index().is_some_and(|i| i.kind() == IndexKind::Global);
        if self.cql && self.targets.iter().any(|(target, _)| to_view(target)) {
            f.write_str(", after a read of the base row on each replica (a view's read-before-write)")?;
        }
        Ok(())
    }
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

impl Serialize for Considered {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        flag_and_reason(serializer, ("Considered", "serves"), self.serves(), self)
    }
}

/// Why the table or an index cannot serve a read: the plan's alternatives say so.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unserved {
    #[error("{entity} {} are not in it", if *cql { "rows" } else { "items" })]
    NotHeld { entity: String, cql: bool },
    #[error(
        "{entity} and {other} have different partition keys there ({key} vs {other_key}), so one request cannot read both"
    )]
    KeysDiffer { entity: String, key: String, other: String, other_key: String },
    /// A sparse index's `only_when` that the pattern does not ask for.
    #[error("it only holds items where {attribute} = {value:?}; the pattern does not ask for that")]
    Sparse { attribute: String, value: String },
    #[error(transparent)]
    Key(#[from] keys::KeyGap),
}

impl Display for Considered {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Considered::CostsMore(cost) => write!(f, "also serves it ({cost}), but costs more"),
            Considered::Unserved(why) => why.fmt(f),
        }
    }
}

/// What one way of serving a read costs a call.
#[derive(Debug, Clone, PartialEq)]
pub struct Cost {
    pub operation: Operation,
    pub fanout: u32,
    pub fetch: bool,
    pub units: f64,
    pub bytes: f64,
    pub cql: bool,
}

impl Display for Cost {
    /// "Query ×2, ~5.5 RCU per call" (in the Cassandra profile, bytes read instead of units).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let fanout = if self.fanout > 1 { format!(" ×{}", self.fanout) } else { String::new() };
        let fetch = if self.fetch { " + fetch" } else { "" };
        if self.cql {
            write!(
                f,
                "{}{fanout}{fetch}, ~{} read per call",
                cql_verb(self.operation),
                numbers::bytes(self.bytes)
            )
        } else {
            write!(
                f,
                "{}{fanout}{fetch}, ~{} RCU per call",
                self.operation.name(),
                numbers::count(self.units)
            )
        }
    }
}

/// The CQL statement an operation becomes in the Cassandra profile.
pub fn cql_verb(operation: Operation) -> &'static str {
    match operation {
        // The loader refuses transactions in the Cassandra profile.
        Operation::GetItem | Operation::BatchGetItem | Operation::Query | Operation::TransactGetItems => {
            "SELECT"
        }
        Operation::Scan => "SELECT … ALLOW FILTERING",
        Operation::PutItem => "INSERT",
        Operation::UpdateItem => "UPDATE",
        Operation::DeleteItem => "DELETE",
        Operation::DeleteAndPut => "DELETE + INSERT",
        Operation::TransactWriteItems => "BEGIN BATCH … APPLY BATCH",
    }
}

/// "~45 items (4 KB) per call": what a plan's words say a call reads.
fn items_clause(items: f64, bytes: f64, noun: &str) -> String {
    format!("~{} {noun} ({}) per call", numbers::count(items), numbers::bytes(bytes))
}

/// `34 pages of 5,000 rows`: a CQL read's pages, by the driver's fetch size in rows.
fn cql_pages(rows: f64) -> String {
    let n = (rows / CQL_PAGE_ROWS as f64).ceil().max(1.0);
    let noun = if (n - 1.0).abs() < f64::EPSILON { "page" } else { "pages" };
    format!("{} {noun} of {} rows", numbers::count(n), numbers::count(CQL_PAGE_ROWS as f64))
}

/// `1 page` / `12 pages`.
fn pages(bytes: f64) -> String {
    let n = (bytes / PAGE_BYTES).ceil().max(1.0);
    format!("{} {} of 1 MB", numbers::count(n), if (n - 1.0).abs() < f64::EPSILON { "page" } else { "pages" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(items: f64, bytes: f64, fanout: u32) -> QueryReading {
        QueryReading {
            shape: QueryShape::Range,
            fanout,
            notes: Vec::new(),
            items,
            bytes,
            items_unknown: false,
            stopped: None,
            descending: None,
            limit_after_range: false,
            fetch: None,
            cql: false,
        }
    }

    fn read(how: ReadHow, transaction: Option<TransactRead>) -> Verdict {
        Verdict::Read(ReadVerdict { how, transaction })
    }

    fn served(access: Access) -> ReadHow {
        ReadHow::Served(Served { access, embedded: Vec::new(), contains: None, cql: false })
    }

    #[test]
    fn words_each_kind_of_verdict() {
        let newest = QueryReading {
            descending: Some(Descending::NewestFirst),
            stopped: Some(Stopped { limit: 20, after_filter: false }),
            ..query(20.0, 4_096.0, 1)
        };
        let paged = QueryReading { shape: QueryShape::Whole, ..query(3_000.0, 3.0 * PAGE_BYTES, 1) };
        let writes = Writes {
            targets: vec![
                (WriteTarget::Table, 1.0),
                (WriteTarget::Copy { entity: "Order".to_owned(), attribute: "name".to_owned() }, 2.5),
            ],
            items: 3.5,
            cql: false,
        };
        let gap = NameGap::SortKey { key: "MSG#{sent_at}".to_owned(), missing: vec!["sent_at".to_owned()] };
        let located = Locating {
            requests: "Query".to_owned(),
            scan: false,
            index: None,
            items: 1.0,
            units: 0.5,
            cql: false,
        };
        // (verdict, served, words)
        let cases = [
            (Verdict::Pending, false, String::new()),
            (read(served(Access::Key { cql: false }), None), true, "the full primary key is known: one item".to_owned()),
            (
                read(served(Access::Key { cql: false }), Some(TransactRead::Joined)),
                true,
                "the full primary key is known: one item, in one TransactGetItems (each item read twice, strongly \
                 consistent: 2 RCU per 4 KB)"
                    .to_owned(),
            ),
            (
                read(served(Access::Query(newest)), None),
                true,
                "the sort key applies the range; ~20 items (4 KB) per call, stopping at the limit of 20, newest \
                 first (ScanIndexForward = false)"
                    .to_owned(),
            ),
            (
                read(served(Access::Query(paged)), None),
                true,
                "reads the whole partition; ~3,000 items (3 MB) per call, 3 pages of 1 MB per request".to_owned(),
            ),
            (
                read(ReadHow::Scan(Scan { items: 1e6, bytes: 2.5 * PAGE_BYTES, tables: None }), None),
                false,
                "no key serves it: a Scan reads all ~1,000,000 items (2.5 MB) of the table on every call, 3 pages \
                 of 1 MB"
                    .to_owned(),
            ),
            (
                Verdict::Write(WriteVerdict { naming: Naming::Named(writes.clone()), transaction: true }),
                true,
                "writes 3.5 items per call: table ×1 + copy Order.name ×2.5, all in one TransactWriteItems (each \
                 table item written twice: prepare and commit)"
                    .to_owned(),
            ),
            (
                Verdict::Write(WriteVerdict {
                    naming: Naming::Unnamed {
                        gap: gap.clone(),
                        locate: Some(LocateRead::Found(located)),
                        then: Some(writes),
                    },
                    transaction: false,
                }),
                true,
                "the sort key MSG#{sent_at} needs sent_at, which the pattern does not give: the application must \
                 read the item first to learn its key; it reads it first with a Query on the table (1 item, ~0.5 \
                 RCU per call); then it writes 3.5 items per call: table ×1 + copy Order.name ×2.5"
                    .to_owned(),
            ),
            (
                Verdict::Write(WriteVerdict {
                    naming: Naming::Unnamed { gap, locate: None, then: None },
                    transaction: true,
                }),
                false,
                "the sort key MSG#{sent_at} needs sent_at, which the pattern does not give: the application must \
                 read the item first to learn its key"
                    .to_owned(),
            ),
        ];
        for (verdict, serves, words) in cases {
            assert_eq!(verdict.served(), serves, "{verdict:?}");
            assert_eq!(verdict.to_string(), words);
        }
    }

    #[test]
    fn serializes_as_served_and_reason() {
        let verdict = read(served(Access::Key { cql: true }), None);
        let json = serde_json::to_string(&verdict).expect("serializes");
        assert_eq!(json, r#"{"served":true,"reason":"the full primary key is known: one row"}"#);
    }

    #[test]
    fn hides_only_the_items_shown_with_the_plans_figures() {
        // A class read: the class whose figures are the plan's shows `?`, the other its own.
        let classes = vec![
            ClassAccess {
                value: Some("a".to_owned()),
                share: 0.5,
                access: Access::Query(query(10.0, 400.0, 1)),
            },
            ClassAccess { value: None, share: 0.5, access: Access::Query(query(99.0, 9_000.0, 1)) },
        ];
        let mut verdict =
            read(served(Access::Classes { by: "tier".to_owned(), mean_fanout: 1.0, classes }), None);
        verdict.hide_items(10.0, 400.0);
        let words = verdict.to_string();
        assert!(
            words.contains("tier = a (50% of calls): the sort key applies the range; ? items per call"),
            "{words}"
        );
        assert!(
            words.contains("other values (50% of calls): the sort key applies the range; ~99 items"),
            "{words}"
        );
    }

    #[test]
    fn counts_cql_pages_in_rows() {
        // (rows one partition request reads, words)
        let cases = [
            (0.0, "1 page of 5,000 rows"),
            (5_000.0, "1 page of 5,000 rows"),
            (5_001.0, "2 pages of 5,000 rows"),
            (165_701.0, "34 pages of 5,000 rows"),
        ];
        for (rows, text) in cases {
            assert_eq!(cql_pages(rows), text, "{rows}");
        }
    }

    #[test]
    fn counts_pages_in_words() {
        let mb = PAGE_BYTES;
        let cases = [
            (0.0, "1 page of 1 MB"),
            (mb, "1 page of 1 MB"),
            (mb + 1.0, "2 pages of 1 MB"),
            (12.5 * mb, "13 pages of 1 MB"),
        ];
        for (bytes, text) in cases {
            assert_eq!(pages(bytes), text, "{bytes}");
        }
    }
}
