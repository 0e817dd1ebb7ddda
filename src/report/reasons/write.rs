//! A write's verdict in words: what one call writes, or why the caller cannot name its item and
//! the read it sends first to learn the key.

use std::fmt::{self, Display, Formatter};

use crate::engine::model::IndexKind;
use crate::engine::planner::verdict::{LocateRead, Locating, NameGap, Naming, WriteVerdict, Writes};
use crate::engine::planner::{WriteTarget, numbers};
use crate::engine::profile::{Language, Metering};
use crate::engine::vocabulary::Vocabulary;

impl Display for WriteVerdict {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.naming {
            Naming::Named(writes) => writes.fmt(f)?,
            Naming::Unnamed { gap, locate, then } => {
                let words = self.engine.words();
                name_gap(f, gap, words)?;
                write!(f, ": the application must read the {} first to learn its key", words.item.one)?;
                if let Some(locate) = locate {
                    locate.fmt(f)?;
                }
                if let Some(writes) = then {
                    write!(f, "; then it {writes}")?;
                }
            }
        }
        if self.transaction && self.writes().is_some() {
            f.write_str(match self.engine.profile().metering {
                Metering::Units => {
                    ", all in one TransactWriteItems (each table item written twice: prepare and commit)"
                }
                // MongoDB ("Transactions"): the writes are applied together at commit, or none.
                _ => ", all in one multi-document transaction (committed together, or not at all)",
            })?;
        }
        Ok(())
    }
}

/// Why the caller cannot name the record, in the store's words for the key's parts: `the sort
/// key …` on DynamoDB, `the second key field …` on MongoDB.
fn name_gap(f: &mut Formatter<'_>, gap: &NameGap, words: &Vocabulary) -> fmt::Result {
    match gap {
        NameGap::Key(gap) => super::keys::gap(f, gap, words.partition_key),
        NameGap::SortKey { key, missing } => {
            write!(
                f,
                "the {} {key} needs {}, which the pattern does not give",
                words.sort_key,
                missing.join(", ")
            )
        }
    }
}

impl Display for LocateRead {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            LocateRead::NotFound(why) => write!(f, "; no read finds it either: {why}"),
            LocateRead::Found(read) => read.fmt(f),
        }
    }
}

impl Display for Locating {
    /// "; it reads it first with a Query on the table (1 item, ~1 RCU per call)", in the
    /// store's words: a SELECT on a view and rows, a find on an index and documents, a query on
    /// the container and request units.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let profile = self.engine.profile();
        let words = self.engine.words();
        let cql = profile.cql();
        let what = match (cql, self.scan) {
            (true, true) => "a SELECT of every partition".to_owned(),
            (true, false) => "a SELECT".to_owned(),
            (false, _) => format!("a {}", self.requests),
        };
        let shown = numbers::count(self.items);
        let noun = if shown == "1" { words.item.one } else { words.item.many };
        let place = match &self.index {
            // A Cassandra index is a materialized view; a MongoDB one is an index, whatever
            // kind the variant declares.
            Some(id) if cql && id.kind() == IndexKind::Global => format!("view {}", id.name()),
            Some(id) if profile.language == Language::MongoDb => {
                format!("{} {}", words.global_index, id.name())
            }
            Some(id) => id.label(),
            None => words.table.to_owned(),
        };
        write!(f, "; it reads it first with {what} on the {place} ({shown} {noun}")?;
        match profile.metering {
            Metering::Units => write!(f, ", ~{} RCU", numbers::count(self.units))?,
            Metering::RequestUnits => write!(f, ", ~{} RU", numbers::count(self.units))?,
            Metering::Operations => {}
        }
        f.write_str(" per call)")
    }
}

impl Display for Writes {
    /// "writes 3 items per call: table ×1 + GSI by-user ×2" (rows and views for Cassandra,
    /// documents in a collection and indexes for MongoDB).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let one = (self.items - 1.0).abs() < f64::EPSILON;
        let item = self.engine.words().item;
        let noun = if one { item.one } else { item.many };
        write!(f, "writes {} {noun} per call: ", numbers::factor(self.items))?;
        let (items, keys): (Vec<_>, Vec<_>) =
            self.targets.iter().partition(|(target, _)| target.is_item(self.engine));
        let list = |f: &mut Formatter<'_>, targets: &[&(WriteTarget, f64)]| -> fmt::Result {
            for (i, (target, per_call)) in targets.iter().enumerate() {
                if i > 0 {
                    f.write_str(" + ")?;
                }
                write!(f, "{} ×{}", target.shown(self.engine), numbers::factor(*per_call))?;
            }
            Ok(())
        };
        list(f, &items)?;
        // A MongoDB index entry is a key and a record id the server writes beside the
        // document, not a document: named apart, and not in the count.
        if !keys.is_empty() {
            let n: f64 = keys.iter().map(|(_, per_call)| per_call).sum();
            let one = (n - 1.0).abs() < f64::EPSILON;
            write!(f, ", and {} index {} (", numbers::factor(n), if one { "key" } else { "keys" })?;
            list(f, &keys)?;
            f.write_str(")")?;
        }
        // Cassandra keeps a view by reading the base row first on each replica, to find the view
        // row a write replaces (Apache Cassandra docs, "Materialized Views").
        let to_view = |target: &WriteTarget| target.index().is_some_and(|i| i.kind() == IndexKind::Global);
        if self.engine.profile().cql() && self.targets.iter().any(|(target, _)| to_view(target)) {
            f.write_str(", after a read of the base row on each replica (a view's read-before-write)")?;
        }
        Ok(())
    }
}
