//! What one transaction may hold, and how it commits, on a store that has transactions:
//! DynamoDB's TransactWriteItems and TransactGetItems, MongoDB's multi-document transactions.
//! The replay refuses a transaction past the store's limits and the planner keeps a read out
//! of one past them; a limit the store does not impose is `None`, and guidance that is not a
//! limit refuses nothing.
//!
//! Sources:
//! - DynamoDB: "Amazon DynamoDB Transactions: How it works" (AWS developer guide) and the
//!   service quotas: a transaction holds at most 100 actions, each on an item of its own, and
//!   its items add up to at most 4 MB; every item is written twice, once to prepare the
//!   transaction and once to commit it.
//! - MongoDB: "Production Considerations" for transactions
//!   (mongodb.com/docs/manual/core/transactions-production-consideration/). Its Oplog Size
//!   Limit: since 4.2 a transaction's writes go in as many oplog entries as they need, which
//!   removed the 16 MB total a single entry held in 4.0; each entry is still a BSON document of
//!   at most 16 MB, which one document already is (`bson::MAX_DOCUMENT_BYTES`). So no byte
//!   limit on the transaction. Its Runtime Limit is a time, not a size: under a minute by
//!   default (`transactionLifetimeLimitSeconds`, 60 s), after which the server aborts it; a
//!   replayed transaction is one call's writes, far shorter. The page names no count of
//!   documents. The 1,000 documents is MongoDB's blog, "Performance Best Practices:
//!   Transactions and Read / Write Concerns" (Mat Keep, Henrik Ingo): no hard limit on the
//!   documents a transaction reads, and, as a best practice, no more than 1,000 modified in
//!   one — guidance, so it refuses nothing.
//! - MongoDB's commit: the same post says that with write concern `majority` ten updates made
//!   in a transaction "are all replicated together at commit time", where ten made alone each
//!   wait for a replication round trip. The statements run on the primary one after another in
//!   the transaction's session, then `commitTransaction` waits once for the majority.

/// What one transaction may hold on a store, and how it commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transactions {
    /// The most items (documents) one transaction may read or write; `None`: no limit.
    pub items: Option<u32>,
    /// The most bytes a transaction's items may add up to; `None`: no limit.
    pub bytes: Option<u64>,
    /// Whether each item may be written once in a transaction: DynamoDB refuses two actions
    /// on one item; a MongoDB transaction may write a document again.
    pub distinct_items: bool,
    /// How it commits, which is what it takes: see [`Commit::rounds`].
    pub commit: Commit,
}

/// How a store commits a transaction's writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commit {
    /// Two rounds, a prepare then a commit, each over all of its items together (DynamoDB's
    /// TransactWriteItems, one request).
    PrepareAndCommit,
    /// Each write a statement of its own, sent one after another in the transaction's
    /// session, then one `commitTransaction` that waits for the majority (MongoDB).
    Statements,
}

/// DynamoDB's limits ("Amazon DynamoDB Transactions: How it works"): 100 items, 4 MB.
pub const DYNAMODB: Transactions = Transactions {
    items: Some(100),
    bytes: Some(4 * 1024 * 1024),
    distinct_items: true,
    commit: Commit::PrepareAndCommit,
};

/// MongoDB's: no count of documents and no total size since 4.2 ("Production
/// Considerations", Oplog Size Limit); the 1,000 modified documents is a best practice, not a
/// limit (see the module notes).
pub const MONGODB: Transactions =
    Transactions { items: None, bytes: None, distinct_items: false, commit: Commit::Statements };

impl Transactions {
    /// Whether a transaction whose items add up to `bytes` is refused for its size.
    pub fn too_large(&self, bytes: u64) -> bool {
        self.bytes.is_some_and(|most| bytes > most)
    }

    /// The most items a transaction holds, when `items` is more than that (the read or write
    /// goes without the transaction, or is refused).
    pub fn too_many(&self, items: u32) -> Option<u32> {
        self.items.filter(|&most| items > most)
    }
}

impl Commit {
    /// The round trips a transaction of `writes` items takes, each charged a write's base
    /// latency: DynamoDB's prepare and commit, whatever its items (keyheat's model: AWS gives
    /// no latency for them); on MongoDB each write's statement then the commit. That each
    /// statement and the commit cost one write's base is keyheat's assumption: MongoDB gives
    /// the order (the writes, then one commit that waits for the majority), not the times.
    pub fn rounds(self, writes: usize) -> f64 {
        match self {
            Commit::PrepareAndCommit => 2.0,
            Commit::Statements => (writes + 1) as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each store's transaction limits, with the page they come from: DynamoDB refuses a
    /// transaction past 100 items or 4 MB ("Amazon DynamoDB Transactions: How it works");
    /// MongoDB has no count and, since 4.2, no total size ("Production Considerations",
    /// Oplog Size Limit), its 1,000 modified documents being a best practice (MongoDB blog,
    /// "Performance Best Practices: Transactions and Read / Write Concerns").
    #[test]
    fn each_store_holds_a_transaction_to_its_own_limits() {
        let mb = 1024 * 1024;
        // (store, items, bytes, too many, too large)
        let cases = [
            ("DynamoDB", DYNAMODB, 100, 4 * mb, None, false),
            ("DynamoDB", DYNAMODB, 101, 4 * mb + 1, Some(100), true),
            ("MongoDB", MONGODB, 101, 4 * mb + 1, None, false),
            // Past the 1,000 documents guidance and past the 16 MB a 4.0 transaction held.
            ("MongoDB", MONGODB, 1_001, 17 * mb, None, false),
        ];
        for (store, limits, items, bytes, too_many, too_large) in cases {
            assert_eq!(limits.too_many(items), too_many, "{store} {items} items");
            assert_eq!(limits.too_large(bytes), too_large, "{store} {bytes} bytes");
        }
    }

    /// DynamoDB commits in two rounds whatever its items; MongoDB sends each write, then
    /// commits once.
    #[test]
    fn each_store_commits_in_its_own_rounds() {
        // (commit, writes, rounds)
        let cases = [
            (Commit::PrepareAndCommit, 1, 2.0),
            (Commit::PrepareAndCommit, 3, 2.0),
            (Commit::Statements, 1, 2.0),
            (Commit::Statements, 3, 4.0),
        ];
        for (commit, writes, rounds) in cases {
            assert!((commit.rounds(writes) - rounds).abs() < 1e-9, "{commit:?} {writes}");
        }
    }
}
