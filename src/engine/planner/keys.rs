//! What a pattern's inputs make of a key template: whether they pin one partition, an
//! enumerable set of partitions (time buckets over the queried range, write shards, a hash of an
//! unknown attribute), or none; and which sort key condition they allow. Also how keys are
//! written as Cassandra columns. The terms are the dialect's to write (`dialect`).

use std::borrow::Cow;

use super::dialect::{Term, Test};
use super::numbers;
use crate::engine::model::{AccessPattern, EntityKeys, RangeSpan};
use crate::engine::profile::Language;
use crate::engine::template::{Part, Template};
use crate::engine::time::Resolution;

const DAY: f64 = 86_400.0;

/// Seconds one bucket of a time part spans: (shortest, longest) — calendar months and years vary,
/// and a class bucket's widths vary by class.
pub fn bucket_width(part: &Part) -> Option<(f64, f64)> {
    match part {
        Part::Class(class) => {
            class.parts().filter_map(bucket_width).reduce(|a, b| (a.0.min(b.0), a.1.max(b.1)))
        }
        Part::Bucket { width, .. } => Some((width.as_secs_f64(), width.as_secs_f64())),
        Part::Time { format, .. } => format.resolution().map(|r| match r {
            Resolution::Second => (1.0, 1.0),
            Resolution::Minute => (60.0, 60.0),
            Resolution::Hour => (3600.0, 3600.0),
            Resolution::Day => (DAY, DAY),
            Resolution::Week => (7.0 * DAY, 7.0 * DAY),
            Resolution::Month => (28.0 * DAY, 31.0 * DAY),
            Resolution::Year => (365.0 * DAY, 366.0 * DAY),
        }),
        _ => None,
    }
}

/// "daily", "monthly", "10d" — how a bucket reads in a message.
pub fn bucket_label(part: &Part) -> String {
    match part {
        Part::Class(class) => {
            let labels: Vec<String> = class.parts().map(bucket_label).collect();
            format!("{} (by {})", labels.join("/"), class.by)
        }
        Part::Bucket { width, .. } => format!("{width}"),
        Part::Time { format, .. } => match format.resolution() {
            Some(Resolution::Second) => "per-second".to_owned(),
            Some(Resolution::Minute) => "per-minute".to_owned(),
            Some(Resolution::Hour) => "hourly".to_owned(),
            Some(Resolution::Day) => "daily".to_owned(),
            Some(Resolution::Week) => "weekly".to_owned(),
            Some(Resolution::Month) => "monthly".to_owned(),
            Some(Resolution::Year) => "yearly".to_owned(),
            None => format!("{:?}", format.source()),
        },
        _ => String::new(),
    }
}

/// How one call reaches the partitions of a partition key template.
#[derive(Debug, Clone, PartialEq)]
pub struct Reach {
    /// Requests per call (1 = one partition).
    pub fanout: u32,
    /// The part of `fanout` that comes from shards and hashes (not from time buckets): each of
    /// those partitions holds a slice of the same items.
    pub shards: u32,
    /// Requests per call on average: a range reaching back d seconds over buckets w seconds wide
    /// touches 1 + d/w of them on average (at most `fanout`), d counting only the workload's
    /// time (the replay asks no bucket from before it began).
    pub mean_fanout: f64,
    /// Why it is more than one, per part.
    pub notes: Vec<FanoutNote>,
}

/// Why a read asks more than one partition, per part of its key; `report::reasons` words it.
#[derive(Debug, Clone, PartialEq)]
pub enum FanoutNote {
    /// `shard(count)`: the writer picked one shard at random, so the reader asks all.
    Shards { count: u32 },
    /// `hash(name, count)` of an attribute the reader does not give: one request per value.
    Hashes { name: String, count: u32 },
    /// A range over the last `secs` spans `best`–`worst` of the `width` buckets of `name`.
    LastBuckets { secs: f64, best: u32, worst: u32, width: String, name: String },
    /// Every `width` bucket of `name` over the workload's `secs`: `count` of them.
    AllBuckets { width: String, name: String, secs: f64, count: u32 },
}

/// What a key's class decides, which a caller must know the class to choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassChoice {
    ShardCount,
    BucketWidth,
}

/// Why a pattern cannot compute a partition key: the input its template needs and the pattern
/// does not give (`key` is the template as written). `report::reasons` words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyGap {
    Attribute {
        key: String,
        attribute: String,
    },
    /// A time bucket (`bucket` wide) the pattern neither gives nor ranges over a bounded time.
    Bucket {
        key: String,
        attribute: String,
        bucket: String,
    },
    /// Only a writer must compute the hash; a reader asks every hash value.
    Hash {
        key: String,
        attribute: String,
        count: u32,
    },
    /// `choice` is what the class decides.
    Class {
        key: String,
        by: String,
        choice: ClassChoice,
    },
}

/// Which partitions of `pk` the pattern can compute. A writer picks its own `shard(N)`; a reader
/// must try every shard. `Err` says which input is missing.
pub fn reach(p: &AccessPattern, pk: &Template, writer: bool, workload_secs: f64) -> Result<Reach, KeyGap> {
    let mut reach = Reach { fanout: 1, shards: 1, mean_fanout: 1.0, notes: Vec::new() };
    for part in pk.parts() {
        let plain = plain(part, p, writer, pk)?;
        let part: &Part = &plain;
        match part {
            Part::Class(_) | Part::Literal(_) => {}
            Part::Attr { name, .. } => {
                if !p.knows(name) {
                    return Err(KeyGap::Attribute { key: pk.source().to_owned(), attribute: name.clone() });
                }
            }
            Part::Time { name, .. } | Part::Bucket { name, .. } => {
                if !p.knows(name) {
                    buckets(p, pk, part, name, workload_secs, &mut reach)?;
                }
            }
            Part::Shard { count } => {
                // One shard is one key: nothing to ask beyond it (a class slot's `else = 1`).
                if !writer && *count > 1 {
                    reach.fanout = reach.fanout.saturating_mul(*count);
                    reach.shards = reach.shards.saturating_mul(*count);
                    reach.mean_fanout *= f64::from(*count);
                    reach.notes.push(FanoutNote::Shards { count: *count });
                }
            }
            Part::Hash { name, count } => {
                if !p.knows(name) {
                    if writer {
                        return Err(KeyGap::Hash {
                            key: pk.source().to_owned(),
                            attribute: name.clone(),
                            count: *count,
                        });
                    }
                    reach.fanout = reach.fanout.saturating_mul(*count);
                    reach.shards = reach.shards.saturating_mul(*count);
                    reach.mean_fanout *= f64::from(*count);
                    reach.notes.push(FanoutNote::Hashes { name: name.clone(), count: *count });
                }
            }
        }
    }
    Ok(reach)
}

/// The time buckets of `name` (a time or bucket part of `pk` the pattern does not give) a call
/// asks: those its range reaches back over, or every one over the workload. A key without such
/// a range cannot be computed.
fn buckets(
    p: &AccessPattern,
    pk: &Template,
    part: &Part,
    name: &str,
    workload_secs: f64,
    reach: &mut Reach,
) -> Result<(), KeyGap> {
    let ranged = p.range.as_ref().filter(|r| r.attribute == name);
    let (shortest, _) = bucket_width(part).unwrap_or((1.0, 1.0));
    let label = bucket_label(part);
    match ranged.map(|r| &r.span) {
        Some(RangeSpan::Last(d)) => {
            let secs = d.as_secs_f64();
            let worst = numbers::ceil_u32(secs / shortest).saturating_add(1);
            let best = numbers::ceil_u32(secs / shortest).max(1);
            reach.fanout = reach.fanout.saturating_mul(worst);
            // Only buckets since the workload began hold items to ask: on average a call
            // reaches back min(d, t) over the run's moments t.
            let back = if secs >= workload_secs {
                workload_secs / 2.0
            } else {
                secs - secs * secs / (2.0 * workload_secs)
            };
            reach.mean_fanout *= (1.0 + back / shortest).min(f64::from(worst));
            reach.notes.push(FanoutNote::LastBuckets {
                secs,
                best,
                worst,
                width: label.clone(),
                name: name.to_owned(),
            });
        }
        Some(RangeSpan::All) => {
            let count = numbers::ceil_u32(workload_secs / shortest).saturating_add(1);
            reach.fanout = reach.fanout.saturating_mul(count);
            reach.mean_fanout *= f64::from(count);
            reach.notes.push(FanoutNote::AllBuckets {
                width: label.clone(),
                name: name.to_owned(),
                secs: workload_secs,
                count,
            });
        }
        Some(RangeSpan::BeginsWith(_)) | None => {
            return Err(KeyGap::Bucket {
                key: pk.source().to_owned(),
                attribute: name.to_owned(),
                bucket: label,
            });
        }
    }
    Ok(())
}

/// The plain slot a class slot stands for in a read or a write: a writer knows its item's
/// class, and so does a reader given the class attribute (the planner costs each class on its
/// own layout, `Template::specialized`; this is the unlisted values' one). A reader without it
/// asks every shard any class uses; it cannot tell a bucket's width.
fn plain<'t>(
    part: &'t Part,
    p: &AccessPattern,
    writer: bool,
    pk: &Template,
) -> Result<Cow<'t, Part>, KeyGap> {
    match part {
        Part::Class(class) if p.knows(&class.by) => Ok(Cow::Borrowed(class.case(None))),
        Part::Class(class) if !writer && matches!(class.other, Part::Shard { .. }) => {
            Ok(Cow::Owned(Part::Shard { count: part.fanout() }))
        }
        Part::Class(class) => Err(KeyGap::Class {
            key: pk.source().to_owned(),
            by: class.by.clone(),
            choice: if matches!(class.other, Part::Shard { .. }) {
                ClassChoice::ShardCount
            } else {
                ClassChoice::BucketWidth
            },
        }),
        part => Ok(Cow::Borrowed(part)),
    }
}

/// What a pattern's inputs allow on the sort key.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SortCondition {
    /// The sort key condition's terms (none: every item of the partition).
    pub terms: Vec<Term>,
    /// The whole sort key is known: one item.
    pub exact: bool,
    /// The pattern's range narrows the key condition (possibly coarsely: a calendar slot).
    pub range_by_key: bool,
    /// Items come back in the range attribute's order, so the pattern's order and limit hold.
    pub ordered: bool,
    /// Attributes whose equality (or the range) the condition applies exactly, so no filter is
    /// needed for them. A slot after the first unknown one is not among them: its attribute
    /// becomes a filter.
    pub consumed: Vec<String>,
}

/// Walks `sk` left to right: literals and known slots form an exact prefix; the first slot over
/// the ranged attribute gives a range condition; any other unknown slot ends the condition.
/// In `language`'s terms: on the one sort key attribute `sk_name`, or on the key's columns.
pub fn sort_condition(
    p: &AccessPattern,
    sk: Option<&Template>,
    sk_name: &str,
    language: Language,
) -> SortCondition {
    let Some(sk) = sk else {
        return SortCondition { exact: true, ..SortCondition::default() };
    };
    let by_column = language.key_columns();
    let mut prefix = false;
    let mut columns: Vec<Term> = Vec::new();
    let mut consumed: Vec<String> = Vec::new();
    for part in sk.parts() {
        let attribute = part.attribute();
        let known = match part {
            Part::Literal(_) => {
                prefix = true;
                continue;
            }
            Part::Shard { .. } => false,
            _ => attribute.is_some_and(|a| p.knows(a)),
        };
        if known {
            prefix = true;
            columns.extend(cql_column(part).map(|c| Term::equals(c, "sk")));
            // Only the value itself is an equality; a calendar slot or a hash of it is coarser.
            if let Part::Attr { name, .. } = part {
                consumed.push(name.clone());
            }
            continue;
        }
        let ranged = p.range.as_ref().filter(|r| attribute == Some(r.attribute.as_str()));
        let column = cql_column(part).unwrap_or_default();
        let exact_slot = matches!(part, Part::Attr { .. });
        // The literal and known prefix of the key, as the one attribute sees it.
        let key_prefix = || Term::new(sk_name, Test::Prefix("prefix".to_owned()));
        let (term, by_key) = match ranged.map(|r| &r.span) {
            Some(RangeSpan::Last(_)) => {
                if exact_slot {
                    consumed.extend(attribute.map(str::to_owned));
                }
                if by_column {
                    (Some(Term::new(column, Test::AtLeast("from".to_owned()))), true)
                } else if prefix {
                    // The prefix bounds the range above: everything after it is another key's.
                    (Some(Term::new(sk_name, Test::Between("from".to_owned(), "to".to_owned()))), true)
                } else {
                    (Some(Term::new(sk_name, Test::AtLeast("from".to_owned()))), true)
                }
            }
            Some(RangeSpan::BeginsWith(_)) if matches!(part, Part::Attr { pad: None, .. }) => {
                consumed.extend(attribute.map(str::to_owned));
                let field = if by_column { column } else { sk_name.to_owned() };
                (Some(Term::new(field, Test::Prefix("prefix".to_owned()))), true)
            }
            // A column holds no literal: only the known columns before it narrow the read.
            Some(RangeSpan::All) => ((prefix && !by_column).then(key_prefix), true),
            _ => ((prefix && !by_column).then(key_prefix), false),
        };
        let terms =
            if by_column { columns.into_iter().chain(term).collect() } else { term.into_iter().collect() };
        return SortCondition { terms, exact: false, range_by_key: by_key, ordered: by_key, consumed };
    }
    let terms = if by_column { columns } else { vec![Term::equals(sk_name, "sk")] };
    SortCondition { terms, exact: true, range_by_key: false, ordered: false, consumed }
}

/// The attributes a partition key's equality applies exactly: its plain `{attribute}` slots.
/// Buckets, calendar slots and hashes pick a partition but do not test the value.
pub fn partition_consumes(pk: &Template) -> impl Iterator<Item = &str> {
    pk.parts().iter().filter_map(|part| match part {
        Part::Attr { name, .. } => Some(name.as_str()),
        _ => None,
    })
}

/// The partition key condition's terms: the one attribute `pk_name` equal to the key, or in
/// `language`'s columns one equality per column.
pub fn partition_condition(pk: &Template, pk_name: &str, language: Language) -> Vec<Term> {
    if language.key_columns() {
        let columns: Vec<Term> =
            pk.parts().iter().filter_map(cql_column).map(|c| Term::equals(c, "pk")).collect();
        if columns.is_empty() { vec![Term::equals("pk", "pk")] } else { columns }
    } else {
        vec![Term::equals(pk_name, "pk")]
    }
}

/// The Cassandra column a slot becomes (literals are not stored: a Cassandra key is typed
/// columns, not concatenated text).
pub fn cql_column(part: &Part) -> Option<String> {
    match part {
        Part::Class(class) => cql_column(&class.other),
        Part::Literal(_) => None,
        Part::Attr { name, .. } => Some(name.clone()),
        Part::Time { name, format } => Some(match format.resolution() {
            Some(Resolution::Second) => format!("{name}_second"),
            Some(Resolution::Minute) => format!("{name}_minute"),
            Some(Resolution::Hour) => format!("{name}_hour"),
            Some(Resolution::Day) => format!("{name}_day"),
            Some(Resolution::Week) => format!("{name}_week"),
            Some(Resolution::Month) => format!("{name}_month"),
            Some(Resolution::Year) => format!("{name}_year"),
            None => format!("{name}_text"),
        }),
        Part::Bucket { name, .. } => Some(format!("{name}_bucket")),
        Part::Shard { .. } => Some("shard".to_owned()),
        Part::Hash { name, .. } => Some(format!("{name}_hash")),
    }
}

/// A Cassandra primary key: its partition columns, then its clustering columns, each named as
/// [`cql_column`] names a template part. Shown `PRIMARY KEY ((sensor_id, reading_time_day),
/// reading_time)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CqlPrimaryKey {
    pub partition: Vec<String>,
    pub clustering: Vec<String>,
}

impl CqlPrimaryKey {
    /// The primary key of `keys`. For a materialized view over `base`, the base table's key
    /// columns it lacks are appended as clustering columns: Cassandra requires a view's primary
    /// key to include every column of the base table's.
    pub fn of(keys: &EntityKeys, base: Option<&EntityKeys>) -> CqlPrimaryKey {
        let mut partition: Vec<String> = keys.pk.parts().iter().filter_map(cql_column).collect();
        if partition.is_empty() {
            partition.push("pk".to_owned());
        }
        let mut sk: Vec<String> =
            keys.sk.iter().flat_map(|s| s.parts().iter().filter_map(cql_column)).collect();
        if let Some(base) = base {
            let mut base_columns: Vec<String> = base.pk.parts().iter().filter_map(cql_column).collect();
            if base_columns.is_empty() {
                base_columns.push("pk".to_owned());
            }
            base_columns.extend(base.sk.iter().flat_map(|s| s.parts().iter().filter_map(cql_column)));
            for column in base_columns {
                if !sk.contains(&column) {
                    sk.push(column);
                }
            }
        }
        let mut clustering: Vec<String> = Vec::new();
        for column in sk {
            if !partition.contains(&column) && !clustering.contains(&column) {
                clustering.push(column);
            }
        }
        CqlPrimaryKey { partition, clustering }
    }

    /// Every column of the key, partition columns first.
    pub fn columns(&self) -> impl Iterator<Item = &str> {
        self.partition.iter().chain(&self.clustering).map(String::as_str)
    }
}

impl std::fmt::Display for CqlPrimaryKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PRIMARY KEY (({})", self.partition.join(", "))?;
        if !self.clustering.is_empty() {
            write!(f, ", {}", self.clustering.join(", "))?;
        }
        f.write_str(")")
    }
}
