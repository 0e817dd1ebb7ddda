//! Each store's words for the things every store has: what one stored record is called, what a
//! secondary index is, what the machines under the partitions are, what a read or a write
//! counts in. Reports, goals, warnings and the workbench take their nouns from here, so a store
//! is described in its own vocabulary everywhere (items and RCUs on DynamoDB, rows and
//! materialized views on Cassandra) and a new store profile brings one table of words, not a
//! branch in every panel.

use super::model::Engine;

/// A noun with its plural.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Noun {
    pub one: &'static str,
    pub many: &'static str,
}

impl Noun {
    /// The form for `count` of them: `1 item`, `0 items`, `2.5 items`.
    pub fn of(self, count: f64) -> &'static str {
        if (count - 1.0).abs() < 1e-9 { self.one } else { self.many }
    }
}

/// What a heatmap cell or a total of reads or writes counts in this store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    /// The metric's name in a legend: `read units`, `reads`.
    pub name: &'static str,
    /// Per second: `RCU/s`, `reads/s`.
    pub per_second: &'static str,
}

/// One store's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vocabulary {
    /// One stored record: an item (DynamoDB), a row (Cassandra).
    pub item: Noun,
    /// What a global secondary index is called before its name: `GSI`, `view`.
    pub global_index: &'static str,
    /// Every place an item can be written to, in a phrase: `table or any index`.
    pub any_place: &'static str,
    /// The places whose writes a run's write amplification counts, listed: `table, indexes`.
    pub places: &'static str,
    /// What the heatmap's physical layer shows: DynamoDB's physical partitions, Cassandra's
    /// ring of nodes.
    pub physical: &'static str,
    pub reads: Counted,
    pub writes: Counted,
    /// The headings of a partition's busiest second of reads and of writes, in a table of
    /// partitions: `RCU/s pk` and `WCU/s pk` (the units at the peak), `reads/s`.
    pub peak_reads: &'static str,
    pub peak_writes: &'static str,
    /// What write amplification counts: the writes of one base write, everything included.
    pub amplified: Amplified,
    /// How a read asks for the range in descending order: `ScanIndexForward = false`,
    /// `ORDER BY … DESC`.
    pub descending: &'static str,
    /// Where a design's records live, as a plan names the place it reads: `table`,
    /// `collection`.
    pub table: &'static str,
    /// The part of a key that picks where its records live, and the part that orders them
    /// there: `partition key` and `sort key`; a MongoDB key's leading field and the field after
    /// it (an unsharded collection has no partitions: the fields are an index's, in order).
    pub partition_key: &'static str,
    pub sort_key: &'static str,
    /// What feeds another system every write, for a search index to follow: `DynamoDB Streams`.
    pub change_feed: &'static str,
}

/// What write amplification counts, named: `items written per base item (table, indexes, copies
/// and aggregates)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amplified {
    /// What is written, the base write's record and each copy of it.
    pub written: Noun,
    /// Where the counted writes go.
    pub places: &'static str,
}

/// What keyheat's plan counts as written by a base write on DynamoDB (and, in the same words,
/// on the stores that followed it).
const ITEMS_AMPLIFIED: Amplified = Amplified {
    written: Noun { one: "item", many: "items" },
    places: "table, indexes, copies and aggregates",
};

pub(crate) const DYNAMODB: Vocabulary = Vocabulary {
    item: Noun { one: "item", many: "items" },
    global_index: "GSI",
    any_place: "table or any index",
    places: "table, indexes",
    physical: "physical",
    reads: Counted { name: "read units", per_second: "RCU/s" },
    writes: Counted { name: "write units", per_second: "WCU/s" },
    peak_reads: "RCU/s pk",
    peak_writes: "WCU/s pk",
    amplified: ITEMS_AMPLIFIED,
    descending: "ScanIndexForward = false",
    table: "table",
    partition_key: "partition key",
    sort_key: "sort key",
    change_feed: "DynamoDB Streams",
};

/// Cassandra has no capacity units: it counts the reads and writes themselves.
pub(crate) const CASSANDRA: Vocabulary = Vocabulary {
    item: Noun { one: "row", many: "rows" },
    global_index: "view",
    any_place: "tables or any view",
    places: "tables, views",
    physical: "nodes",
    reads: Counted { name: "reads", per_second: "reads/s" },
    writes: Counted { name: "writes", per_second: "writes/s" },
    peak_reads: "reads/s",
    peak_writes: "writes/s",
    amplified: ITEMS_AMPLIFIED,
    descending: "ORDER BY … DESC",
    table: "table",
    partition_key: "partition key",
    sort_key: "sort key",
    change_feed: "Cassandra CDC",
};

/// Cosmos DB charges reads and writes in one currency, request units: a cell or a total counts
/// the RU of reads or of writes, of one budget ("Request Units in Azure Cosmos DB").
pub(crate) const COSMOSDB: Vocabulary = Vocabulary {
    item: Noun { one: "item", many: "items" },
    global_index: "index",
    any_place: "container",
    places: "container",
    physical: "physical partitions",
    reads: Counted { name: "read RU", per_second: "RU/s" },
    writes: Counted { name: "write RU", per_second: "RU/s" },
    peak_reads: "rd RU/s",
    peak_writes: "wr RU/s",
    amplified: ITEMS_AMPLIFIED,
    // A query orders by a property with its `ORDER BY` clause ("ORDER BY (NoSQL query)").
    descending: "ORDER BY … DESC",
    // Items live in a container ("Databases, containers, and items in Azure Cosmos DB").
    table: "container",
    partition_key: "partition key",
    sort_key: "sort key",
    // "Change feed in Azure Cosmos DB".
    change_feed: "the change feed",
};

/// MongoDB stores documents in collections and meters nothing: a cell or a total counts the
/// reads and writes of documents themselves, as Cassandra's do of rows. A find asks for
/// descending order with a sort document of -1 ("cursor.sort()", MongoDB manual).
pub(crate) const MONGODB: Vocabulary = Vocabulary {
    item: Noun { one: "document", many: "documents" },
    global_index: "index",
    any_place: "collections or any index",
    // An index entry is a key and a record id, not a document: the run counts no index write.
    places: "collections",
    physical: "replica set",
    reads: Counted { name: "reads", per_second: "reads/s" },
    writes: Counted { name: "writes", per_second: "writes/s" },
    peak_reads: "reads/s",
    peak_writes: "writes/s",
    // Neither does a plan: a key and a record id the server writes beside the document.
    amplified: Amplified {
        written: Noun { one: "document", many: "documents" },
        places: "collections, copies and aggregates",
    },
    descending: "sort: {…: -1}",
    table: "collection",
    partition_key: "leading key field",
    sort_key: "second key field",
    // "Change Streams" (MongoDB manual): an application subscribes to a collection's changes.
    change_feed: "change streams",
};

impl Engine {
    /// This store's words.
    pub fn words(self) -> &'static Vocabulary {
        self.profile().words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_noun_is_singular_for_exactly_one() {
        let item = Engine::DynamoDb.words().item;
        // (count, the form)
        let cases = [(0.0, "items"), (1.0, "item"), (1.0 + 1e-12, "item"), (1.5, "items"), (2.0, "items")];
        for (count, form) in cases {
            assert_eq!(item.of(count), form, "{count}");
        }
        assert_eq!(Engine::Cassandra.words().item.of(1.0), "row");
        assert_eq!(Engine::CosmosDb.words().item.of(2.0), "items");
        assert_eq!(Engine::MongoDb.words().item.of(2.0), "documents");
    }

    /// The words a report puts where DynamoDB's units and API would be: MongoDB's are its own
    /// (documents in collections, a sort of -1), never RCU, WCU or ScanIndexForward.
    #[test]
    fn each_store_names_peaks_amplification_and_order_in_its_own_words() {
        // (engine, peak reads, peak writes, written, counted by a run, by a plan, descending)
        let cases = [
            (
                Engine::DynamoDb,
                "RCU/s pk",
                "WCU/s pk",
                "items",
                "table, indexes",
                "table, indexes, copies and aggregates",
                "ScanIndexForward = false",
            ),
            (
                Engine::Cassandra,
                "reads/s",
                "writes/s",
                "items",
                "tables, views",
                "table, indexes, copies and aggregates",
                "ORDER BY … DESC",
            ),
            (
                Engine::CosmosDb,
                "rd RU/s",
                "wr RU/s",
                "items",
                "container",
                "table, indexes, copies and aggregates",
                "ORDER BY … DESC",
            ),
            // A MongoDB index entry is a key and a record id: neither a run nor a plan counts
            // an index write.
            (
                Engine::MongoDb,
                "reads/s",
                "writes/s",
                "documents",
                "collections",
                "collections, copies and aggregates",
                "sort: {…: -1}",
            ),
        ];
        for (engine, reads, writes, written, places, planned, descending) in cases {
            let w = engine.words();
            assert_eq!((w.peak_reads, w.peak_writes), (reads, writes), "{engine}");
            assert_eq!((w.amplified.written.many, w.places, w.amplified.places), (written, places, planned));
            assert_eq!(w.descending, descending, "{engine}");
        }
    }
}
