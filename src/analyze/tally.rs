//! The sums over a table's items, kept per partition key and per key shape, and what they come
//! to ([`Analysis`]). An item is sized with the store's `item_size` and then dropped: memory holds
//! one small record per partition key and per shape, never the items.

use std::collections::HashMap;

use serde::Serialize;

use super::fit::{self, Bucket, Skew};
use super::keys::KeySchema;
use super::read::{Place, SourceInfo};
use super::shape::Shape;
use super::{AnalyzeError, TOP};
use crate::engine::store::{
    ITEM_COLLECTION_LIMIT, READ_UNIT_BYTES, WRITE_UNIT_BYTES, read_units, write_units,
};
use crate::engine::value::{AttributeValue, Item, KeyValue, MAX_ITEM_BYTES, item_size};

/// Key shapes kept apart; items of any further shape are summed as `(other)`, so a key rule that
/// misreads ids as prefixes cannot make the table grow with the items.
pub const MAX_SHAPES: usize = 64;
/// An item this large is near the 400 KB limit: three quarters of it, little room to grow.
pub const NEAR_ITEM_BYTES: u64 = 300 << 10;
/// The busiest partition holding this share of the items is called a hot key.
const HOT_SHARE: f64 = 0.10;
/// A partition past this share of the 10 GB item-collection limit is named.
const LARGE_SHARE: f64 = 0.5;
/// A shape's fitted exponent from here on is called steep (Zipf's law proper is s = 1).
const STEEP_S: f64 = 1.0;
/// Shapes with fewer partitions are too small for a skew finding.
const SKEW_MIN_PARTITIONS: u64 = 20;
/// Items over 1 KB past this share make writes cost more than a unit in general.
const COSTLY_SHARE: f64 = 0.5;
/// The busiest 10% holding at most this share of the items is an even spread.
const EVEN_SHARE: f64 = 0.2;

/// The analysis of a table's data: what `keyheat analyze` reports, and its JSON form.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    pub source: SourceInfo,
    pub keys: KeySchema,
    pub totals: Totals,
    /// How the items spread over the partition keys.
    pub skew: Skew,
    /// DynamoDB's 10 GB limit on an item collection (a partition key's items), which applies to
    /// a table with a local secondary index.
    pub item_collection_limit: u64,
    pub largest_by_bytes: Vec<PartitionRow>,
    pub largest_by_items: Vec<PartitionRow>,
    /// The item size limit, 400 KB.
    pub max_item_bytes: u64,
    /// What counts as near it ([`NEAR_ITEM_BYTES`]).
    pub near_item_bytes: u64,
    pub largest_items: Vec<ItemRow>,
    pub histogram: Vec<Bucket>,
    /// Shapes of the partition key alone: one per kind of partition.
    pub partition_shapes: Vec<ShapeRow>,
    /// Shapes of the partition and sort key together: one per kind of item (entity).
    pub shapes: Vec<ShapeRow>,
    pub findings: Vec<Finding>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Totals {
    pub items: u64,
    pub bytes: u64,
    pub partitions: u64,
    pub mean_item_bytes: f64,
    pub max_item_bytes: u64,
    /// Items over 1 KB: a write of one costs more than 1 WCU.
    pub items_over_1kb: u64,
    /// Items over 4 KB: a strongly consistent read of one costs more than 1 RCU.
    pub items_over_4kb: u64,
    pub items_near_limit: u64,
    pub items_over_limit: u64,
    /// Write units to put every item once (each rounded up to 1 KB).
    pub write_units: u64,
    /// Read units to get every item once, strongly consistent (each rounded up to 4 KB).
    pub read_units: u64,
    /// Items without the sort key attribute (a table with a sort key has none).
    pub items_without_sort_key: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartitionRow {
    pub key: String,
    pub items: u64,
    pub bytes: u64,
    pub item_share: f64,
    /// bytes / the 10 GB item-collection limit.
    pub limit_share: f64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemRow {
    pub partition_key: String,
    pub sort_key: Option<String>,
    pub bytes: u64,
    /// file:line of the item.
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShapeRow {
    /// The partition key's shape (`CUSTOMER#…`), or `(other)` past [`MAX_SHAPES`].
    pub partition_key: String,
    /// The sort key's shape; `None` for partition shapes, a table without a sort key, or items
    /// without one.
    pub sort_key: Option<String>,
    pub items: u64,
    pub bytes: u64,
    /// Distinct partition keys holding items of this shape.
    pub partitions: u64,
    pub mean_item_bytes: f64,
    pub max_item_bytes: u64,
    /// The sort key's value when every item of the shape has the same one (`PROFILE`).
    pub constant_sort_key: Option<String>,
    /// Over the partitions holding the shape, by their items of the shape.
    pub skew: Skew,
    #[serde(skip)]
    pub shape: Option<(Shape, Option<Shape>)>,
}

/// What the data says, for the report to put in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum Finding {
    /// One partition holds a large share of the items.
    HotPartition {
        key: String,
        share: f64,
        partitions: u64,
    },
    /// A partition is past half of the 10 GB item-collection limit.
    LargePartition {
        key: String,
        bytes: u64,
        limit_share: f64,
    },
    OversizedItems {
        count: u64,
    },
    NearLimitItems {
        count: u64,
    },
    /// Most items are over 1 KB.
    CostlyWrites {
        share: f64,
        mean_write_units: f64,
    },
    /// A shape's items crowd into few of its partitions.
    SteepSkew {
        shape: String,
        zipf_s: f64,
        top_10pct_share: f64,
    },
    /// Items spread evenly over many partitions.
    EvenSpread {
        partitions: u64,
        top_10pct_share: f64,
    },
}

struct Partition {
    items: u64,
    bytes: u64,
    /// Items per shape, the first inline (most partitions hold one or two shapes).
    first: (u16, u64),
    more: Vec<(u16, u64)>,
}

impl Partition {
    fn count(&mut self, shape: u16) {
        if self.first.0 == shape {
            self.first.1 += 1;
        } else if let Some(entry) = self.more.iter_mut().find(|(s, _)| *s == shape) {
            entry.1 += 1;
        } else {
            self.more.push((shape, 1));
        }
    }

    fn shapes(&self) -> impl Iterator<Item = (u16, u64)> + '_ {
        std::iter::once(self.first).chain(self.more.iter().copied())
    }
}

#[derive(Default)]
struct ShapeTotals {
    items: u64,
    bytes: u64,
    max_item: u64,
    first_sort: Option<String>,
    sort_varies: bool,
}

type ShapeKey = Option<(Shape, Option<Shape>)>;
/// Partitions whose keys have one shape: the shape, their totals, their item counts.
type Group = (ShapeKey, ShapeTotals, Vec<u64>);

pub struct Tally {
    schema: KeySchema,
    index: HashMap<KeyValue, u32>,
    partitions: Vec<Partition>,
    shape_ids: HashMap<ShapeKey, u16>,
    shapes: Vec<(ShapeKey, ShapeTotals)>,
    items: u64,
    bytes: u64,
    max_item: u64,
    write_units: u64,
    read_units: u64,
    histogram: Vec<Bucket>,
    largest: Vec<ItemRow>,
    near_limit: u64,
    without_sort: u64,
}

impl Tally {
    pub fn new(schema: KeySchema) -> Tally {
        Tally {
            schema,
            index: HashMap::new(),
            partitions: Vec::new(),
            shape_ids: HashMap::new(),
            shapes: Vec::new(),
            items: 0,
            bytes: 0,
            max_item: 0,
            write_units: 0,
            read_units: 0,
            histogram: fit::buckets(),
            largest: Vec::new(),
            near_limit: 0,
            without_sort: 0,
        }
    }

    pub fn add(&mut self, item: Item, place: &Place) -> Result<(), AnalyzeError> {
        let pk_name = &self.schema.partition.attribute;
        let Some(pk) = item.get(pk_name).and_then(AttributeValue::as_key) else {
            let how = if self.schema.partition.inferred() { " (inferred from the first items)" } else { "" };
            let names: Vec<&str> = item.keys().map(String::as_str).collect();
            return Err(AnalyzeError::Item {
                file: place.file.to_string(),
                line: place.line,
                message: format!(
                    "the item has no partition key {pk_name}{how} as a string, number or binary; its attributes are {}; name the key with --partition-key NAME",
                    names.join(", ")
                ),
            });
        };
        let sk =
            self.schema.sort.as_ref().and_then(|s| item.get(&s.attribute)).and_then(AttributeValue::as_key);
        if self.schema.sort.is_some() && sk.is_none() {
            self.without_sort += 1;
        }
        let size = item_size(&item) as u64;
        drop(item);
        self.items += 1;
        self.bytes += size;
        self.max_item = self.max_item.max(size);
        self.write_units += units(write_units(size));
        self.read_units += units(read_units(size, true));
        let bucket = &mut self.histogram[fit::bucket_of(size)];
        bucket.items += 1;
        bucket.bytes += size;
        if size > NEAR_ITEM_BYTES {
            self.near_limit += 1;
        }
        let shape = self.shape_id(&pk, sk.as_ref());
        let totals = &mut self.shapes[usize::from(shape)].1;
        totals.items += 1;
        totals.bytes += size;
        totals.max_item = totals.max_item.max(size);
        // Compared without building the text, which would cost an allocation per item.
        if totals.items == 1 {
            totals.first_sort = sk.as_ref().map(ToString::to_string);
        } else if !totals.sort_varies && !same_text(totals.first_sort.as_deref(), sk.as_ref()) {
            totals.sort_varies = true;
        }
        if self.largest.len() < TOP || self.largest.last().is_some_and(|l| l.bytes < size) {
            self.keep_large(ItemRow {
                partition_key: pk.to_string(),
                sort_key: sk.as_ref().map(ToString::to_string),
                bytes: size,
                at: place.to_string(),
            });
        }
        let next = u32::try_from(self.partitions.len()).unwrap_or(u32::MAX);
        let p = *self.index.entry(pk).or_insert(next);
        if p == next {
            self.partitions.push(Partition { items: 0, bytes: 0, first: (shape, 0), more: Vec::new() });
        }
        let partition = &mut self.partitions[p as usize];
        partition.items += 1;
        partition.bytes += size;
        partition.count(shape);
        Ok(())
    }

    /// The id of the item's shape, new ones past [`MAX_SHAPES`] going to `(other)`.
    fn shape_id(&mut self, pk: &KeyValue, sk: Option<&KeyValue>) -> u16 {
        let key = Some((Shape::of(pk), sk.map(Shape::of)));
        if let Some(&id) = self.shape_ids.get(&key) {
            return id;
        }
        let key = if self.shapes.len() < MAX_SHAPES { key } else { None };
        let next = u16::try_from(self.shapes.len()).unwrap_or(u16::MAX);
        let id = *self.shape_ids.entry(key.clone()).or_insert(next);
        if id == next {
            self.shapes.push((key, ShapeTotals::default()));
        }
        id
    }

    fn keep_large(&mut self, row: ItemRow) {
        let at = self.largest.partition_point(|l| l.bytes >= row.bytes);
        self.largest.insert(at, row);
        self.largest.truncate(TOP);
    }

    /// Item counts per partition holding each shape, and the partitions grouped by the shape of
    /// their key (its totals and item counts), past [`MAX_SHAPES`] into `(other)`.
    fn per_shape(
        partitions: &[Partition],
        shapes: usize,
        keys: &[(KeyValue, u32)],
    ) -> (Vec<Vec<u64>>, Vec<Group>) {
        let mut per_shape: Vec<Vec<u64>> = vec![Vec::new(); shapes];
        let mut groups: Vec<Group> = Vec::new();
        let mut index: HashMap<ShapeKey, usize> = HashMap::new();
        for ((key, _), p) in keys.iter().zip(partitions) {
            for (s, n) in p.shapes() {
                per_shape[usize::from(s)].push(n);
            }
            let shape = Some((Shape::of(key), None));
            let shape = if index.contains_key(&shape) || index.len() < MAX_SHAPES { shape } else { None };
            let next = groups.len();
            let g = *index.entry(shape.clone()).or_insert(next);
            if g == next {
                groups.push((shape, ShapeTotals::default(), Vec::new()));
            }
            let group = &mut groups[g];
            group.1.items += p.items;
            group.1.bytes += p.bytes;
            group.2.push(p.items);
        }
        (per_shape, groups)
    }

    fn totals(&self) -> Totals {
        let over_limit = self.histogram.last().map_or(0, |b| b.items);
        Totals {
            items: self.items,
            bytes: self.bytes,
            partitions: self.partitions.len() as u64,
            mean_item_bytes: ratio(self.bytes, self.items),
            max_item_bytes: self.max_item,
            items_over_1kb: self
                .histogram
                .iter()
                .filter(|b| b.above >= WRITE_UNIT_BYTES)
                .map(|b| b.items)
                .sum(),
            items_over_4kb: self
                .histogram
                .iter()
                .filter(|b| b.above >= READ_UNIT_BYTES)
                .map(|b| b.items)
                .sum(),
            items_near_limit: self.near_limit - over_limit,
            items_over_limit: over_limit,
            write_units: self.write_units,
            read_units: self.read_units,
            items_without_sort_key: self.without_sort,
        }
    }

    pub fn finish(mut self, source: SourceInfo, mut notes: Vec<String>) -> Analysis {
        let totals = self.totals();
        let total_items = self.items;
        let mut keys: Vec<(KeyValue, u32)> = std::mem::take(&mut self.index).into_iter().collect();
        keys.sort_unstable_by_key(|(_, p)| *p);
        let row = |key: &KeyValue, p: &Partition| PartitionRow {
            key: key.to_string(),
            items: p.items,
            bytes: p.bytes,
            item_share: ratio(p.items, total_items),
            limit_share: ratio(p.bytes, ITEM_COLLECTION_LIMIT),
        };
        let top_by = |value: &dyn Fn(&Partition) -> u64| {
            let mut order: Vec<usize> = (0..self.partitions.len()).collect();
            let cut = TOP.min(order.len());
            let by = |a: &usize, b: &usize| {
                value(&self.partitions[*b]).cmp(&value(&self.partitions[*a])).then(a.cmp(b))
            };
            if cut < order.len() {
                order.select_nth_unstable_by(cut, by);
                order.truncate(cut);
            }
            order.sort_unstable_by(by);
            order.into_iter().map(|i| row(&keys[i].0, &self.partitions[i])).collect::<Vec<_>>()
        };
        let largest_by_bytes = top_by(&|p| p.bytes);
        let largest_by_items = top_by(&|p| p.items);

        let mut all: Vec<u64> = self.partitions.iter().map(|p| p.items).collect();
        all.sort_unstable_by(|a, b| b.cmp(a));
        let skew = Skew::of(&all);
        drop(all);

        let (per_shape, pk_groups) = Tally::per_shape(&self.partitions, self.shapes.len(), &keys);
        let shape_row = |key: &ShapeKey, totals: &ShapeTotals, mut counts: Vec<u64>, max: u64| {
            counts.sort_unstable_by(|a, b| b.cmp(a));
            let (partition_key, sort_key) = match key {
                Some((pk, sk)) => (pk.to_string(), sk.as_ref().map(ToString::to_string)),
                None => ("(other)".to_owned(), None),
            };
            ShapeRow {
                partition_key,
                sort_key,
                items: totals.items,
                bytes: totals.bytes,
                partitions: counts.len() as u64,
                mean_item_bytes: ratio(totals.bytes, totals.items),
                max_item_bytes: max,
                constant_sort_key: totals.first_sort.clone().filter(|_| !totals.sort_varies),
                skew: Skew::of(&counts),
                shape: key.clone(),
            }
        };
        let mut shapes: Vec<ShapeRow> = self
            .shapes
            .iter()
            .zip(per_shape)
            .map(|((key, totals), counts)| shape_row(key, totals, counts, totals.max_item))
            .collect();
        shapes.sort_by(|a, b| b.items.cmp(&a.items).then(a.partition_key.cmp(&b.partition_key)));
        let mut partition_shapes: Vec<ShapeRow> = pk_groups
            .into_iter()
            .map(|(key, totals, counts)| {
                let max = self
                    .shapes
                    .iter()
                    .filter(|(k, _)| k.as_ref().map(|(pk, _)| pk) == key.as_ref().map(|(pk, _)| pk))
                    .map(|(_, t)| t.max_item)
                    .max()
                    .unwrap_or(0);
                shape_row(&key, &totals, counts, max)
            })
            .collect();
        partition_shapes.sort_by(|a, b| b.items.cmp(&a.items).then(a.partition_key.cmp(&b.partition_key)));
        if self.shapes.iter().any(|(k, _)| k.is_none()) {
            notes.push(format!(
                "more than {MAX_SHAPES} key shapes: items of the rest are counted together as (other)"
            ));
        }

        let findings = findings(&totals, &skew, &largest_by_items, &largest_by_bytes, &shapes);
        Analysis {
            source,
            keys: self.schema,
            totals,
            skew,
            item_collection_limit: ITEM_COLLECTION_LIMIT,
            largest_by_bytes,
            largest_by_items,
            max_item_bytes: MAX_ITEM_BYTES as u64,
            near_item_bytes: NEAR_ITEM_BYTES,
            largest_items: self.largest,
            histogram: self.histogram,
            partition_shapes,
            shapes,
            findings,
            notes,
        }
    }
}

/// Whether `key` reads as `text` (both absent counts as the same).
fn same_text(text: Option<&str>, key: Option<&KeyValue>) -> bool {
    match (text, key) {
        (None, None) => true,
        (Some(text), Some(KeyValue::S(s))) => text == s,
        (Some(text), Some(key)) => text == key.to_string(),
        _ => false,
    }
}

/// Capacity units are whole for single items (halves only come with eventual consistency).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn units(x: f64) -> u64 {
    x as u64
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn findings(
    totals: &Totals,
    skew: &Skew,
    by_items: &[PartitionRow],
    by_bytes: &[PartitionRow],
    shapes: &[ShapeRow],
) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(top) = by_items.first().filter(|t| t.item_share >= HOT_SHARE && totals.partitions > 1) {
        out.push(Finding::HotPartition {
            key: top.key.clone(),
            share: top.item_share,
            partitions: totals.partitions,
        });
    }
    for row in by_bytes.iter().filter(|r| r.limit_share >= LARGE_SHARE) {
        out.push(Finding::LargePartition {
            key: row.key.clone(),
            bytes: row.bytes,
            limit_share: row.limit_share,
        });
    }
    if totals.items_over_limit > 0 {
        out.push(Finding::OversizedItems { count: totals.items_over_limit });
    }
    if totals.items_near_limit > 0 {
        out.push(Finding::NearLimitItems { count: totals.items_near_limit });
    }
    let over_1kb = ratio(totals.items_over_1kb, totals.items);
    if over_1kb >= COSTLY_SHARE {
        out.push(Finding::CostlyWrites {
            share: over_1kb,
            mean_write_units: ratio(totals.write_units, totals.items),
        });
    }
    for shape in shapes.iter().filter(|s| s.partitions >= SKEW_MIN_PARTITIONS) {
        if let Some(s) = shape.skew.zipf_s.filter(|&s| s >= STEEP_S) {
            let name = match &shape.sort_key {
                Some(sk) => format!("{} / {sk}", shape.partition_key),
                None => shape.partition_key.clone(),
            };
            out.push(Finding::SteepSkew {
                shape: name,
                zipf_s: s,
                top_10pct_share: shape.skew.top_10pct_share,
            });
        }
    }
    if out.is_empty() && totals.partitions >= SKEW_MIN_PARTITIONS && skew.top_10pct_share <= EVEN_SHARE {
        out.push(Finding::EvenSpread {
            partitions: totals.partitions,
            top_10pct_share: skew.top_10pct_share,
        });
    }
    out
}
