//! The words for what a key needs and how far a read reaches: a missing key input
//! (`KeyGap`), quoted where nothing serves a pattern, and why a read asks more than one
//! partition (`FanoutNote`), quoted beside its fan-out.

use std::fmt::{self, Display, Formatter};

use crate::engine::planner::numbers;
use crate::engine::planner::{ClassChoice, FanoutNote, KeyGap};

impl Display for KeyGap {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        gap(f, self, "partition key")
    }
}

/// A missing key input, the key named `part` (`partition key`; a MongoDB index's `leading key
/// field`).
pub(super) fn gap(f: &mut Formatter<'_>, gap: &KeyGap, part: &str) -> fmt::Result {
    match gap {
        KeyGap::Attribute { key, attribute } => {
            write!(f, "its {part} {key} needs {attribute}, which the pattern does not give")
        }
        KeyGap::Bucket { key, attribute, bucket } => write!(
            f,
            "its {part} {key} needs {attribute} (a {bucket} bucket), which the pattern neither gives nor ranges \
                 over a bounded time"
        ),
        KeyGap::Hash { key, attribute, count } => {
            write!(f, "its {part} {key} needs {attribute} to compute hash({attribute}, {count})")
        }
        KeyGap::Class { key, by, choice } => write!(
            f,
            "its {part} {key} needs {by} to choose the {} of the item's class",
            match choice {
                ClassChoice::ShardCount => "shard count",
                ClassChoice::BucketWidth => "bucket width",
            }
        ),
    }
}

impl Display for FanoutNote {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            FanoutNote::Shards { count } => write!(
                f,
                "shard({count}): the writer picked one of {count} shards at random, so the reader asks all {count}"
            ),
            FanoutNote::Hashes { name, count } => {
                write!(f, "hash({name}, {count}) with {name} unknown: one request per hash value")
            }
            FanoutNote::LastBuckets { secs, best, worst, width, name } => write!(
                f,
                "the last {} span {best}–{worst} of the {width} buckets of {name}, one request per bucket",
                numbers::span(*secs)
            ),
            FanoutNote::AllBuckets { width, name, secs, count } => write!(
                f,
                "every {width} bucket of {name} over the workload's {} ({} buckets)",
                numbers::span(*secs),
                numbers::count(f64::from(*count))
            ),
        }
    }
}

/// Notes joined by `; `.
pub(super) fn joined(notes: &[FanoutNote]) -> String {
    notes.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}
