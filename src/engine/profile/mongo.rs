//! MongoDB's rules beside BSON's sizes ([`super::bson`]): what the server answers a write that
//! makes a document too large, what an update of a document costs by its size, what an index
//! entry holds, and how soon an expired document goes.
//!
//! Sources:
//! - "MongoDB Limits and Thresholds" (mongodb.com/docs/manual/reference/limits/): BSON
//!   documents at most 16 megabytes.
//! - The server's update path (mongodb/mongo, the update stage,
//!   `src/mongo/db/exec/update_stage.cpp`): the updated document is refused unless
//!   `newObj.objsize() <= BSONObjMaxUserSize`, with "Resulting document after update is larger
//!   than 16777216". Through the 6.x line that is `uassert(17419, …)`, so a driver reports code
//!   17419; recent servers refuse it with `ErrorCodes::BSONObjectTooLarge`, code 10334
//!   (`src/mongo/base/error_codes.yml`). An insert past the limit is refused on another path
//!   with another message: "object to insert too large. size in bytes: …, max size: 16777216"
//!   (`fixDocumentForInsert`, `src/mongo/db/ops/insert.cpp`, `ErrorCodes::BadValue`). A
//!   document of exactly 16,777,216 bytes is stored; one byte more is refused.
//! - What an update costs by the document's size. WiredTiger does not write a document to disk
//!   per update: "Updates modify data in the cache and are flushed to storage asynchronously,
//!   either by Checkpoint or Eviction" (WiredTiger Architecture Guide, "Cache",
//!   source.wiredtiger.com/mongodb-6.0/arch-cache.html), so many updates of one document
//!   collapse into one write, and reconciliation writes pages, not documents. Since MongoDB 3.6
//!   a small update to a large document is held and journalled as a delta, though "when flushed
//!   to disk, a full version of the document must still be constructed" (MongoDB DOCS-11416,
//!   jira.mongodb.org/browse/DOCS-11416). What grows with the document on every update is the
//!   server building its new version (the update applied to the whole document, checked
//!   against 16 MB): keyheat reports those bytes per update, and charges the update's latency
//!   by them ([`BUILD_BYTES_PER_MS`], keyheat's assumption). It claims no per-update disk write.
//! - "TTL Indexes" (mongodb.com/docs/manual/core/index-ttl/): the background task that removes
//!   expired documents runs every 60 seconds.

use super::bson::MAX_DOCUMENT_BYTES;

/// What a report calls a write refused for leaving a document past 16 MB, an insert or an
/// update alike (the server's messages differ by path).
pub const TOO_LARGE: &str = "document past 16 MB refused";
/// What the server answers an update that leaves a document past 16 MB.
pub const TOO_LARGE_UPDATE: &str = "Resulting document after update is larger than 16777216";
/// The codes of that answer, by server version.
pub const TOO_LARGE_UPDATE_CODES: &str =
    "code 10334 BSONObjectTooLarge on recent servers, 17419 on 6.x and earlier";
/// What the server answers an insert of a document past 16 MB.
pub const TOO_LARGE_INSERT: &str = "object to insert too large";

/// Bytes of the record id an index entry holds beside the indexed values: keyheat's
/// assumption, an int64 RecordId (the record store's key in WiredTiger, `RecordId` in
/// mongodb/mongo `src/mongo/db/record_id.h`); the server encodes it in the entry's KeyString
/// in 2 to 10 bytes depending on its value, and keyheat takes the int64's 8.
pub const RECORD_ID_BYTES: usize = 8;

/// How often MongoDB's TTL monitor deletes expired documents ("TTL Indexes").
pub const TTL_MONITOR_SECS: i64 = 60;

/// Bytes of a document's new version an update builds and writes per millisecond: keyheat's
/// assumption (20 MB/s, the 0.2 ms per 4 KB its latency model charges a read), no MongoDB
/// figure. It stands for what grows with the document on every update: building the new
/// version from the update and handing it to the storage engine (not a disk write of it).
pub const BUILD_BYTES_PER_MS: f64 = 4096.0 / 0.2;

/// Whether MongoDB stores a document of `bytes`: at most [`MAX_DOCUMENT_BYTES`].
pub fn accepts(bytes: usize) -> bool {
    bytes <= MAX_DOCUMENT_BYTES
}

/// The bytes of the new version an update builds of a document that is `bytes` after it: the
/// whole document, whatever the update changed.
pub fn new_version_bytes(bytes: u64) -> u64 {
    bytes
}

/// The time a write spends building and writing the new version of a document of `bytes`
/// (keyheat's assumption, [`BUILD_BYTES_PER_MS`]), on top of the request's base.
pub fn update_ms(bytes: u64) -> f64 {
    new_version_bytes(bytes) as f64 / BUILD_BYTES_PER_MS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server keeps a document of exactly 16 MB and refuses one byte more
    /// (`objsize() <= BSONObjMaxUserSize`).
    #[test]
    fn a_document_past_16_mib_is_refused() {
        // (bytes, stored)
        let cases =
            [(0, true), (16_777_215, true), (16_777_216, true), (16_777_217, false), (17_000_000, false)];
        for (bytes, stored) in cases {
            assert_eq!(accepts(bytes), stored, "{bytes}");
        }
    }

    /// Every update builds the document's whole new version, and keyheat's latency charges it
    /// by size: 0.2 ms per 4 KB (its assumption).
    #[test]
    fn an_update_costs_by_the_whole_document() {
        // (document bytes, bytes of the new version, ms)
        let cases =
            [(0, 0, 0.0), (4096, 4096, 0.2), (409_600, 409_600, 20.0), (16_777_216, 16_777_216, 819.2)];
        for (bytes, rewritten, ms) in cases {
            assert_eq!(new_version_bytes(bytes), rewritten, "{bytes}");
            assert!((update_ms(bytes) - ms).abs() < 1e-9, "{bytes}: {}", update_ms(bytes));
        }
        // Slower as the document grows.
        assert!(update_ms(2_000_000) > update_ms(1_000_000));
    }
}
