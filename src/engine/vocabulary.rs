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
    /// The places one base write writes to, listed: `table, indexes`.
    pub places: &'static str,
    /// What the heatmap's physical layer shows: DynamoDB's physical partitions, Cassandra's
    /// ring of nodes.
    pub physical: &'static str,
    pub reads: Counted,
    pub writes: Counted,
}

pub(crate) const DYNAMODB: Vocabulary = Vocabulary {
    item: Noun { one: "item", many: "items" },
    global_index: "GSI",
    any_place: "table or any index",
    places: "table, indexes",
    physical: "physical",
    reads: Counted { name: "read units", per_second: "RCU/s" },
    writes: Counted { name: "write units", per_second: "WCU/s" },
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
};

/// MongoDB stores documents in collections and meters nothing: a cell or a total counts the
/// reads and writes of documents themselves, as Cassandra's do of rows.
pub(crate) const MONGODB: Vocabulary = Vocabulary {
    item: Noun { one: "document", many: "documents" },
    global_index: "index",
    any_place: "collections or any index",
    places: "collections, indexes",
    physical: "replica set",
    reads: Counted { name: "reads", per_second: "reads/s" },
    writes: Counted { name: "writes", per_second: "writes/s" },
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
}
