//! A read's verdict in words: the key or Query that serves it and what one call reads, a read
//! split by entity, a Scan or a search nothing can serve, and the transaction it asked for.

use std::fmt::{self, Display, Formatter};

use crate::engine::model::{Engine, IndexKind, Projection};
use crate::engine::planner::dialect::{Term, Test};
use crate::engine::planner::verdict::{
    Access, Descending, FetchReading, KeyPrefix, QueryReading, QueryShape, ReadHow, ReadVerdict, Scan,
    Served, Split, Stopped, TransactRead,
};
use crate::engine::planner::{CQL_PAGE_ROWS, PAGE_BYTES, numbers, verb};
use crate::engine::profile::Language;
use crate::engine::vocabulary;

impl Display for ReadVerdict {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.how {
            ReadHow::Served(served) => served.fmt(f)?,
            ReadHow::Split(split) => split.fmt(f)?,
            ReadHow::Scan(scan) => scan.fmt(f)?,
            ReadHow::Search { attribute, engine } => write!(
                f,
                "{} looks for a word inside the text: no key condition can test that, and no key narrows the \
                 search to one partition, so {} with that filter would read the whole {} on every call. Serve it \
                 with a search index fed by the same writes (e.g. OpenSearch via {})",
                engine
                    .profile()
                    .language
                    .filter(&[Term::new(attribute.as_str(), Test::Contains("word".into()))])
                    .unwrap_or_default(),
                a_scan(*engine),
                engine.words().table,
                engine.words().change_feed
            )?,
        }
        match self.transaction {
            None => Ok(()),
            Some(tx) => tx.fmt(f),
        }
    }
}

/// A read of every record, as the store names it.
fn a_scan(engine: Engine) -> &'static str {
    match engine.profile().language {
        Language::MongoDb => "a collection scan",
        // A query with no partition key reads every physical partition ("Query items in Azure
        // Cosmos DB for NoSQL": cross-partition queries).
        Language::CosmosNoSql => "a cross-partition query",
        Language::DynamoDbApi | Language::Cql => "a Scan",
    }
}

impl Display for Served {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.access.fmt(f)?;
        let words = self.engine.words();
        // Cassandra's words here have always been DynamoDB's (items), and its reports keep them.
        let item = if self.engine.profile().cql() { vocabulary::DYNAMODB.item } else { words.item };
        for e in &self.embedded {
            write!(f, "; its {} {} come with it, embedded in its {} list", e.entity, item.many, e.list)?;
            if let Some(n) = e.keep_latest {
                write!(f, " (the newest {n})")?;
            }
        }
        if let Some(attribute) = &self.contains {
            write!(
                f,
                "; contains({attribute}, :word) is a filter, so every {} the key reaches is read to find the \
                 matches — a search index fed by the same writes (e.g. OpenSearch via {}) finds them without \
                 reading the rest",
                item.one, words.change_feed
            )?;
        }
        Ok(())
    }
}

impl Display for Access {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Access::Key { engine } => {
                write!(f, "the full primary key is known: one {}", engine.words().item.one)
            }
            Access::Keys { fanout, notes } => {
                write!(f, "{fanout} keys, one per {}", super::keys::joined(notes))
            }
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

impl Display for QueryReading {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if !self.notes.is_empty() {
            write!(f, "×{}: {}; ", self.fanout, super::keys::joined(&self.notes))?;
        }
        match &self.prefix {
            Some(prefix) => {
                prefix_clause(f, prefix, self.fanout)?;
                // Every logical partition under the prefix is read, as a whole partition is.
                if !matches!(self.shape, QueryShape::InOrder | QueryShape::Whole) {
                    f.write_str("; ")?;
                    shape(f, &self.shape, self.engine)?;
                }
            }
            None => shape(f, &self.shape, self.engine)?,
        }
        if self.items_unknown {
            write!(f, "; ? {} per call", noun(self))?;
        } else {
            write!(f, "; {}", items_clause(self.items, self.bytes, noun(self)))?;
        }
        let requests = f64::from(self.fanout.max(1));
        if self.engine.profile().cql() {
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
            write!(f, ", {first} ({})", self.engine.words().descending)?;
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

/// `a query on the prefix [tenant_id] of the hierarchical key (1 of its 2 levels) — the
/// physical partitions holding the prefix (~1 of the 10 the container starts with), one request
/// each, reading every logical partition under it`. `check` does not know the layout a run
/// grows: `visits` is the plan's estimate (a prefix's items sit together until their partition
/// splits).
fn prefix_clause(f: &mut Formatter<'_>, prefix: &KeyPrefix, visits: u32) -> fmt::Result {
    write!(
        f,
        "a query on the prefix [{}] of the hierarchical key ({} of its {} levels) — the physical partitions \
         holding the prefix",
        prefix.given.join(", "),
        prefix.given.len(),
        prefix.levels
    )?;
    if let Some(of) = prefix.of {
        write!(f, " (~{visits} of the {of} the container starts with)")?;
    }
    f.write_str(", one request each, reading every logical partition under it")
}

impl Display for QueryShape {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        shape(f, self, Engine::DynamoDb)
    }
}

/// How a Query's key reaches what it reads, in the store's words. MongoDB has no partitions
/// outside a sharded cluster: what a "partition" is elsewhere is there the documents sharing
/// the leading field of the index the find uses, read in the order of its next field.
fn shape(f: &mut Formatter<'_>, shape: &QueryShape, engine: Engine) -> fmt::Result {
    if engine.profile().language == Language::MongoDb {
        let words = engine.words();
        return match shape {
            QueryShape::Collection(entities) => write!(
                f,
                "{} {} share one value of the {}: one find reads them together",
                entities.join(" and "),
                words.item.many,
                words.partition_key
            ),
            QueryShape::WholeKey => f.write_str("the whole index key is known"),
            QueryShape::Range => write!(f, "the {} applies the range", words.sort_key),
            QueryShape::Narrowed => {
                write!(
                    f,
                    "a prefix of the {} narrows the read to this entity's {}",
                    words.sort_key, words.item.many
                )
            }
            QueryShape::InOrder => write!(f, "reads the key's {} in index order", words.item.many),
            QueryShape::Whole => write!(f, "reads every {} with the key", words.item.one),
        };
    }
    match shape {
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

impl Display for FetchReading {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let FetchReading { index, projection, returned, .. } = self;
        let missing = self.missing.join(", ");
        let comes = if self.missing.len() == 1 { "comes" } else { "come" };
        let returned = numbers::count(*returned);
        if let Some((entity, bytes)) = self.documents.as_deref() {
            return write!(
                f,
                "; + fetch: {index}'s entries hold the indexed values and a record id, so the query's FETCH \
                 stage reads each of the ~{returned} {entity} documents whole (~{} a call)",
                numbers::bytes(*bytes)
            );
        }
        match self.kind {
            // A view holds the columns it selects; the rest is one SELECT by primary key per row.
            IndexKind::Global if self.engine.profile().cql() => {
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
            let language = self.engine.profile().language;
            let operation = part.operation.map_or("?", |o| match language {
                Language::Cql | Language::MongoDb => verb(language, o),
                Language::DynamoDbApi | Language::CosmosNoSql => o.name(),
            });
            let place = part
                .index
                .as_ref()
                .map_or_else(|| self.engine.words().table.to_owned(), |id| format!("index {}", id.name()));
            write!(f, "{}: {operation} on the {place} ({})", part.entity, part.verdict)?;
        }
        Ok(())
    }
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
                "no key serves it: {} reads all ~{items} {} ({bytes}) of the {} on every call, {}",
                a_scan(self.engine),
                self.engine.words().item.many,
                self.engine.words().table,
                pages(self.bytes)
            ),
        }
    }
}

impl Display for TransactRead {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            TransactRead::Joined { engine } if mongo(engine) => f.write_str(
                ", in one multi-document transaction (each document read once; MongoDB names no count of documents \
                 a transaction reads)",
            ),
            TransactRead::Joined { .. } => f.write_str(
                ", in one TransactGetItems (each item read twice, strongly consistent: 2 RCU per 4 KB)",
            ),
            TransactRead::TooMany { items, most, engine } => write!(
                f,
                "; not {}: it reads {items} {} and a transaction holds at most {most}, so the call reads without \
                 the transaction",
                a_transaction(engine),
                engine.words().item.many
            ),
            TransactRead::NotByKey { engine } if mongo(engine) => f.write_str(
                "; not in a multi-document transaction: keyheat joins reads of documents by their full key \
                 (findOne) to one, and this design reads with a find, so the call reads without the transaction",
            ),
            TransactRead::NotByKey { .. } => f.write_str(
                "; not a TransactGetItems: a transaction reads items by their full keys, and this design reads with \
                 a Query, so the call reads without the transaction",
            ),
        }
    }
}

/// Whether `engine` speaks MongoDB's words.
fn mongo(engine: Engine) -> bool {
    engine.profile().language == Language::MongoDb
}

/// The store's transactional read, as its words name it.
fn a_transaction(engine: Engine) -> &'static str {
    if mongo(engine) { "in a multi-document transaction" } else { "a TransactGetItems" }
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

/// What a Query's reader gets back: items, rows, documents.
fn noun(q: &QueryReading) -> &'static str {
    q.engine.words().item.many
}

#[cfg(test)]
mod tests {
    use super::*;

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
