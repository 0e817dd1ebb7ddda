//! The workbench console: one DynamoDB read request answered against the replay's table as it
//! stands, with the answer `keyheat ops` would print for the same items.
//!
//! The replay keeps no items, only 16-byte rows ([`super::ledger`]). A request is answered in
//! three steps: the ledger finds the rows the request can read (the partition and sort-key range
//! of a Query from its key condition, a Scan's partitions in the store's scan order from its
//! ExclusiveStartKey, a GetItem's row), in reading order, until the page is full (`Limit` items
//! or 1 MB read, sized as the store sizes items and index entries); those items are regenerated
//! from the seed, with their key attributes; and they are loaded into a fresh
//! `engine::store::Store` with the replay's key schema, which executes the request parsed by
//! `ops::short::ConsoleRead`. So items, Count/ScannedCount, LastEvaluatedKey, validation messages
//! and ConsumedCapacity (TOTAL and INDEXES) are the store's own, and equal what a store holding
//! the whole table would answer (`tests` holds the two against each other).
//!
//! Names: DynamoDB: one table named after the scenario, with the variant's key attribute names
//! (`PK`/`SK` unless renamed) and its indexes by name. Cassandra: one table per entity, named
//! after it; its items carry the same key attributes, and capacity units do not apply (the
//! answer says so instead of reporting them). Table and index names DynamoDB would refuse
//! (`by status`, a Cassandra index over several entities) are served under an alias and reported
//! under their own name.
//!
//! Only reads: GetItem, Query, Scan, BatchGetItem. Writes and table changes are refused
//! (`ConsoleRead`), since a write would change the run being measured. Nothing here panics on
//! any input.

use std::cmp::Ordering;
use std::ops::Bound;

use serde_json::Value as Json;

use super::Simulation;
use super::items;
use super::keys::{Codec, SortBuf, entry_bound, push_component, push_number};
use super::ledger::{Ledger, Partition, Row};
use super::world::Projected;
use crate::engine::expr::KeyOp;
use crate::engine::hash::hash_bytes;
use crate::engine::model::Engine;
use crate::engine::number::Number;
use crate::engine::store::{
    BillingMode, CreateTable, IndexSpec, KeyAttribute, KeySchema, PAGE_BYTES, PartitionId, PrimaryKey,
    ProjectionType, PutItem, Query, ReturnValues, Scan, Store, StoreConfig, TableSpec,
};
use crate::engine::value::{AttributeValue, Item, KeyType, KeyValue, item_size};
use crate::ops::short::{self, ConsoleRead, IndexKeys, Read, TableKeys};

/// Rows read past the point where the page is full: the store decides where the page ends, and
/// a few more items than it reads cost little and make the window robust.
const SLACK_ROWS: usize = 2;
/// Most keys one BatchGetItem may name (AWS); more are refused by the store, so none are read.
const MAX_BATCH_KEYS: usize = 100;

/// What one read gathers: per table (by position in the world), the items to load.
type Gathered = Vec<(usize, Vec<Item>)>;

/// What a Query or Scan reads: a table or one of its indexes, with its key schema.
struct Source<'a> {
    ledger: &'a Ledger,
    /// How the ledger read holds sort keys, and how the table's does (an index entry's position
    /// ends with the table's sort key in the table's codec).
    codec: Codec,
    table_codec: Codec,
    key: KeySchema,
    table_key: KeySchema,
    /// The index's spec (for entry sizes and the entry order); `None` for the table.
    index: Option<IndexSpec>,
}

impl Simulation {
    /// Answers one console request: `keyheat ops` JSON (a line starting with `{`) or a short form
    /// (`ops::short`), read against the replay's table as it stands now. `Ok` is the response line
    /// `keyheat ops` would print for the same items; `Err` is a message: the exception and its
    /// message (`ValidationException: …`), a short form's mistake (`col 14: …`), or why a
    /// request that writes is refused.
    pub fn console(&self, request: &str) -> Result<String, String> {
        let line = request.trim();
        let json = if line.starts_with('{') {
            line.to_owned()
        } else {
            short::expand(line, &self.console_tables())?
        };
        let mut read = ConsoleRead::parse(&json)?;
        let gathered = self.gather(read.read());
        let aliases = self.aliases();
        read.rename(&|name| aliases.iter().find(|(real, _)| real == name).map(|(_, alias)| alias.clone()));
        let mut store = Store::new(StoreConfig::default());
        for t in 0..self.world.tables.len() {
            let spec = self.table_spec(t, &aliases);
            let name = self.world.tables[t].name.clone();
            store
                .create_table(CreateTable { spec, index_lag: None })
                .map_err(|e| format!("the console cannot hold table {name} in a store: {e}"))?;
        }
        for (t, found) in gathered {
            let table = alias_of(&aliases, &self.world.tables[t].name);
            for item in found {
                // An item DynamoDB would refuse (a key attribute missing or empty) is in no
                // real table either.
                let put = PutItem {
                    table: table.clone(),
                    item,
                    condition: None,
                    return_values: ReturnValues::None,
                };
                let _ = store.put_item(put);
            }
        }
        let mut answer = read.answer(&mut store).map_err(|e| unalias_text(&aliases, e))?;
        unalias(&aliases, &mut answer);
        if self.world.engine == Engine::Cassandra
            && let Json::Object(fields) = &mut answer
            && fields.remove("ConsumedCapacity").is_some()
        {
            fields.insert(
                "Note".into(),
                Json::from("Cassandra profile: capacity units do not apply (load is counted in operations and bytes)"),
            );
        }
        Ok(answer.to_string())
    }

    /// The tables a console request can name, with their key attribute names (for the short
    /// forms, and for hints): the first is the one read by default.
    pub fn console_tables(&self) -> Vec<TableKeys> {
        (0..self.world.tables.len())
            .map(|t| {
                let spec = self.table_spec(t, &[]);
                let keys =
                    |key: &KeySchema| (key.partition.name.clone(), key.sort.as_ref().map(|s| s.name.clone()));
                let (pk, sk) = keys(&spec.key);
                let indexes = spec
                    .global
                    .iter()
                    .chain(&spec.local)
                    .map(|i| {
                        let (pk, sk) = keys(&i.key);
                        IndexKeys { name: i.name.clone(), pk, sk }
                    })
                    .collect();
                TableKeys { name: spec.name, pk, sk, indexes }
            })
            .collect()
    }

    /// Names DynamoDB would refuse, each with the alias the console's store uses.
    fn aliases(&self) -> Vec<(String, String)> {
        let names: Vec<&str> = self
            .world
            .tables
            .iter()
            .flat_map(|t| std::iter::once(t.name.as_str()).chain(t.indexes.iter().map(|i| i.name.as_str())))
            .collect();
        let mut out = Vec::new();
        let mut n = 0;
        for name in &names {
            if valid_name(name) || out.iter().any(|(real, _)| real == name) {
                continue;
            }
            let alias = loop {
                n += 1;
                let alias = format!("keyheat-alias-{n}");
                if !names.contains(&alias.as_str()) {
                    break alias;
                }
            };
            out.push(((*name).to_owned(), alias));
        }
        out
    }

    /// Table `t` as a store table: its key schema and indexes as the replay keeps them.
    fn table_spec(&self, t: usize, aliases: &[(String, String)]) -> TableSpec {
        let table = &self.world.tables[t];
        let members = || table.entities.iter().map(|&e| &self.world.entities[e]);
        let pk_type = members().find_map(|e| e.pk.as_ref()).map_or(KeyType::S, |p| p.key_type);
        let pk = KeyAttribute::new(table.pk_name.clone(), pk_type);
        let sort = table.sk_name.as_ref().and_then(|name| {
            Some(KeyAttribute::new(name.clone(), members().find_map(|e| e.sk.as_ref())?.key_type))
        });
        let mut spec = TableSpec {
            name: alias_of(aliases, &table.name),
            key: KeySchema::new(pk.clone(), sort),
            global: Vec::new(),
            local: Vec::new(),
            billing: BillingMode::PayPerRequest,
        };
        for (i, index) in table.indexes.iter().enumerate() {
            let plans: Vec<_> = members().filter_map(|e| Some((e, e.entries.get(i)?.as_ref()?))).collect();
            let ipk = match index.kind {
                super::table::IndexKind::Local => pk.clone(),
                super::table::IndexKind::Global => {
                    let key_type =
                        plans.iter().find_map(|(_, p)| p.pk.as_ref()).map_or(pk_type, |p| p.key_type);
                    KeyAttribute::new(index.pk_name.clone(), key_type)
                }
            };
            let isk = index.sk_name.as_ref().and_then(|name| {
                Some(KeyAttribute::new(name.clone(), plans.iter().find_map(|(_, p)| p.sk.as_ref())?.key_type))
            });
            let mut include: Vec<String> = Vec::new();
            let mut all = false;
            for (e, plan) in &plans {
                match &plan.projected {
                    Projected::All => all = true,
                    Projected::KeysOnly => {}
                    Projected::Attrs(attrs) => {
                        for &a in attrs {
                            let name = &e.attrs[a].name;
                            if !include.contains(name) {
                                include.push(name.clone());
                            }
                        }
                    }
                }
            }
            let projection = match (all, include.is_empty()) {
                (true, _) => ProjectionType::All,
                (false, true) => ProjectionType::KeysOnly,
                (false, false) => ProjectionType::Include(include),
            };
            let index_spec = IndexSpec {
                name: alias_of(aliases, &index.name),
                key: KeySchema::new(ipk, isk),
                projection,
                throughput: None,
            };
            match index.kind {
                super::table::IndexKind::Global => spec.global.push(index_spec),
                super::table::IndexKind::Local => spec.local.push(index_spec),
            }
        }
        spec
    }

    /// An item as the console shows it: its attributes and its key attributes (Cassandra's
    /// too, so requests can name them), regenerated; `None` when no such item was ever written.
    fn console_item(&self, handle: u32) -> Option<Item> {
        let e = self.world.entity_of(handle);
        let ordinal = self.world.ordinal_of(handle);
        self.birth(e, ordinal)?;
        let mut vals = Vec::new();
        self.current_vals(e, ordinal, &mut vals);
        let ent = &self.world.entities[e];
        let mut item = items::materialize(&ent.attrs, &vals, &self.world.pops);
        item.extend(self.key_attributes(e, ordinal, &vals));
        Some(item)
    }

    fn table_named(&self, name: &str) -> Option<usize> {
        self.world.tables.iter().position(|t| t.name == name)
    }

    /// The items a request can read, per table. Anything the request gets wrong reads nothing:
    /// the store then answers with DynamoDB's message.
    fn gather(&self, read: Read<'_>) -> Gathered {
        match read {
            Read::GetItem(get) => self
                .table_named(&get.table)
                .map(|t| vec![(t, self.get_item(t, &get.key).into_iter().collect())])
                .unwrap_or_default(),
            Read::BatchGetItem(batch) => {
                if batch.tables.iter().map(|t| t.keys.len()).sum::<usize>() > MAX_BATCH_KEYS {
                    return Vec::new();
                }
                batch
                    .tables
                    .iter()
                    .filter_map(|entry| {
                        let t = self.table_named(&entry.table)?;
                        Some((t, entry.keys.iter().filter_map(|k| self.get_item(t, k)).collect()))
                    })
                    .collect()
            }
            Read::Query(query) => self
                .table_named(&query.table)
                .map(|t| vec![(t, self.query_items(t, query))])
                .unwrap_or_default(),
            Read::Scan(scan) => {
                self.table_named(&scan.table).map(|t| vec![(t, self.scan_items(t, scan))]).unwrap_or_default()
            }
        }
    }

    /// The item under a GetItem's key.
    fn get_item(&self, t: usize, key: &Item) -> Option<Item> {
        let spec = self.table_spec(t, &[]);
        let ledger = &self.tables[t].base;
        let codec = self.world.tables[t].codec;
        let pk = key.get(&spec.key.partition.name)?.as_key()?;
        let p = find_partition(ledger, &pk)?;
        let sk = match &spec.key.sort {
            Some(sort) => Some(key.get(&sort.name)?.as_key()?),
            None => None,
        };
        let at = match (&sk, codec) {
            (None, Codec::Inline) => SortBuf::Inline(0),
            (Some(KeyValue::N(n)), Codec::Inline) => SortBuf::Inline(u64::try_from(n.to_i64()?).ok()?),
            (Some(sk), Codec::Bytes) => SortBuf::Bytes(body(sk)),
            _ => return None,
        };
        let row = ledger.get(p, at.as_ref())?;
        self.console_item(row.id)
    }

    /// The table or index a Query or Scan reads.
    fn source(&self, t: usize, index: Option<&str>) -> Option<Source<'_>> {
        let spec = self.table_spec(t, &[]);
        let table = &self.tables[t];
        let table_codec = self.world.tables[t].codec;
        let Some(name) = index else {
            let key = spec.key.clone();
            return Some(Source {
                ledger: &table.base,
                codec: table_codec,
                table_codec,
                key,
                table_key: spec.key,
                index: None,
            });
        };
        let i = self.world.tables[t].indexes.iter().position(|ix| ix.name == name)?;
        let index = spec.global.iter().chain(&spec.local).find(|s| s.name == name)?.clone();
        Some(Source {
            ledger: &table.indexes.get(i)?.1,
            codec: Codec::Bytes,
            table_codec,
            key: index.key.clone(),
            table_key: spec.key,
            index: Some(index),
        })
    }

    /// The items a Query page reads (and a few more): its partition's rows in the key
    /// condition's range, past the ExclusiveStartKey, in the requested order.
    fn query_items(&self, t: usize, query: &Query) -> Vec<Item> {
        let Some(source) = self.source(t, query.index.as_deref()) else { return Vec::new() };
        let Some((pk, lo, hi)) = key_range(&source.key, query) else { return Vec::new() };
        let Some(p) = find_partition(source.ledger, &pk) else { return Vec::new() };
        let part = source.ledger.partition(p);
        let mut from = position(part, source.codec, &source.bound(&lo, true), true);
        let mut to = position(part, source.codec, &source.bound(&hi, false), false);
        let forward = query.scan_forward;
        let start = query.exclusive_start_key.as_ref().and_then(|k| Position::of(k, &source));
        if let Some(start) = &start {
            let rough = start.rough(&source, forward);
            if forward {
                from = from.max(position(part, source.codec, &rough, true));
            } else {
                to = to.min(position(part, source.codec, &rough, false));
            }
        }
        if from >= to {
            return Vec::new();
        }
        let rows = &part.rows()[from..to];
        let ordered: Box<dyn Iterator<Item = &Row>> =
            if forward { Box::new(rows.iter()) } else { Box::new(rows.iter().rev()) };
        let keep = |item: &Item| {
            let sk = source.key.sort.as_ref().and_then(|s| item.get(&s.name)?.as_key());
            let in_range = sk.is_none_or(|sk| inside(&sk, &lo, &hi));
            let after = start.as_ref().is_none_or(|s| {
                Position::of(item, &source).is_some_and(|at| if forward { at > *s } else { at < *s })
            });
            in_range && after
        };
        self.page(ordered.map(|r| (r.id, true)), query.limit, &source, &keep)
    }

    /// The items a Scan page reads (and a few more): partitions in the store's scan order (hash,
    /// then key), from the ExclusiveStartKey's, within the segment.
    fn scan_items(&self, t: usize, scan: &Scan) -> Vec<Item> {
        let Some(source) = self.source(t, scan.index.as_deref()) else { return Vec::new() };
        let (seg_lo, seg_hi) = match scan.segment {
            None => (0, None),
            Some((segment, total)) if total > 0 && total <= 1_000_000 && segment < total => {
                // The store's split: segment s of n covers hashes [s·2^64/n, (s+1)·2^64/n).
                let bound = |s: u64| (u128::from(s) << 64) / u128::from(total);
                (u64::try_from(bound(segment)).unwrap_or(u64::MAX), u64::try_from(bound(segment + 1)).ok())
            }
            Some(_) => return Vec::new(),
        };
        let ledger = source.ledger;
        let mut order: Vec<(PartitionId, u32)> = (0..u32::try_from(ledger.partitions().len())
            .unwrap_or(u32::MAX))
            .filter_map(|p| {
                let part = ledger.partition(p);
                let in_segment = part.hash >= seg_lo && seg_hi.is_none_or(|hi| part.hash < hi);
                (part.items() > 0 && in_segment).then(|| Some((partition_id(ledger, p)?, p))).flatten()
            })
            .collect();
        order.sort_unstable();
        let start = scan.exclusive_start_key.as_ref().and_then(|k| {
            let pk = k.get(&source.key.partition.name)?.as_key()?;
            Some((PartitionId::new(pk), Position::of(k, &source)?))
        });
        let first = start.as_ref().map_or(0, |(pid, _)| order.partition_point(|(q, _)| q < pid));
        let codec = source.codec;
        let rows = order[first..].iter().flat_map(|(pid, p)| {
            let part = ledger.partition(*p);
            // Only the start's own partition is read from inside, after the start.
            let (skip, check) = match &start {
                Some((start_pid, at)) if start_pid == pid => {
                    (position(part, codec, &at.rough(&source, true), true), true)
                }
                _ => (0, false),
            };
            part.rows()[skip.min(part.rows().len())..].iter().map(move |r| (r.id, check))
        });
        let keep = |item: &Item| {
            start.as_ref().is_none_or(|(_, at)| Position::of(item, &source).is_some_and(|p| p > *at))
        };
        self.page(rows, scan.limit, &source, &keep)
    }

    /// Regenerates the items of `rows` (with whether `keep` must pass them) until `limit` items
    /// or 1 MB were read, sized as the store sizes what it reads, plus [`SLACK_ROWS`].
    fn page(
        &self,
        rows: impl Iterator<Item = (u32, bool)>,
        limit: Option<usize>,
        source: &Source<'_>,
        keep: &dyn Fn(&Item) -> bool,
    ) -> Vec<Item> {
        let limit = match limit {
            Some(0) => return Vec::new(),
            Some(n) => n,
            None => usize::MAX,
        };
        let mut out = Vec::new();
        let (mut count, mut bytes, mut extra) = (0usize, 0u64, 0usize);
        for (handle, check) in rows {
            let Some(item) = self.console_item(handle) else { continue };
            if check && !keep(&item) {
                continue;
            }
            if count >= limit || bytes >= PAGE_BYTES {
                extra += 1;
                if extra > SLACK_ROWS {
                    break;
                }
            }
            count += 1;
            bytes += source.read_size(&item);
            out.push(item);
        }
        out
    }
}

impl Source<'_> {
    /// Bytes the store counts for reading `item` here: the item, or its index entry (table
    /// keys, index keys and projected attributes; `store::index`).
    fn read_size(&self, item: &Item) -> u64 {
        let included = match self.index.as_ref().map(|i| &i.projection) {
            None | Some(ProjectionType::All) => return item_size(item) as u64,
            Some(ProjectionType::KeysOnly) => &[][..],
            Some(ProjectionType::Include(names)) => names.as_slice(),
        };
        let mut names: Vec<&String> = self
            .table_key
            .attributes()
            .chain(self.key.attributes())
            .map(|a| &a.name)
            .chain(included)
            .collect();
        names.sort_unstable();
        names.dedup();
        names.iter().filter_map(|n| item.get(*n).map(|v| (n.len() + v.size()) as u64)).sum()
    }

    /// A bound on the sort key read, in the ledger's encoding: exact for byte-coded keys and
    /// index entries; for inline (whole epoch seconds) keys, one that takes in at least every
    /// key inside the bound.
    fn bound(&self, bound: &Bound<KeyValue>, lower: bool) -> Bound<SortBuf> {
        let value = match bound {
            Bound::Included(v) | Bound::Excluded(v) => v,
            Bound::Unbounded => return Bound::Unbounded,
        };
        if self.index.is_some() {
            let body = body(value);
            let b = match bound {
                Bound::Included(_) => Bound::Included(body.as_slice()),
                _ => Bound::Excluded(body.as_slice()),
            };
            return match entry_bound(b, lower) {
                Bound::Included(v) => Bound::Included(SortBuf::Bytes(v)),
                Bound::Excluded(v) => Bound::Excluded(SortBuf::Bytes(v)),
                Bound::Unbounded => Bound::Unbounded,
            };
        }
        match (self.codec, value) {
            (Codec::Bytes, v) => match bound {
                Bound::Included(_) => Bound::Included(SortBuf::Bytes(body(v))),
                _ => Bound::Excluded(SortBuf::Bytes(body(v))),
            },
            (Codec::Inline, KeyValue::N(n)) => {
                let x = n.to_f64();
                match (lower, x) {
                    (_, x) if x.is_nan() => Bound::Unbounded,
                    (true, x) if x < 1.0 => Bound::Unbounded,
                    (true, x) => Bound::Included(SortBuf::Inline(whole(x.floor()).saturating_sub(1))),
                    (false, x) if x < 0.0 => Bound::Excluded(SortBuf::Inline(0)),
                    (false, x) => Bound::Included(SortBuf::Inline(whole(x.ceil()).saturating_add(1))),
                }
            }
            // Another type than the key's: the store refuses the request.
            (Codec::Inline, _) => Bound::Unbounded,
        }
    }
}

/// A non-negative whole `f64` as `u64`, saturating.
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "clamped to the u64 range")]
fn whole(x: f64) -> u64 {
    x.clamp(0.0, u64::MAX as f64) as u64
}

/// Where an item (or an ExclusiveStartKey) sits in what is read, in the store's order: the
/// table's primary key; for an index, after the index sort key (`store::index`'s entry order).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Position {
    index_sort: Option<KeyValue>,
    table: PrimaryKey,
}

impl Position {
    fn of(item: &Item, source: &Source<'_>) -> Option<Position> {
        let read = |a: &KeyAttribute| item.get(&a.name).and_then(AttributeValue::as_key);
        let sort = match &source.table_key.sort {
            Some(s) => Some(read(s)?),
            None => None,
        };
        let table = PrimaryKey::new(read(&source.table_key.partition)?, sort);
        let index_sort = match (&source.index, &source.key.sort) {
            (Some(_), Some(s)) => Some(read(s)?),
            _ => None,
        };
        Some(Position { index_sort, table })
    }

    /// A ledger bound that takes in every row past this position in the reading direction (a
    /// lower bound forward, an upper one backward): exact where the encoding allows, else wider
    /// (the rows' own positions settle the rest).
    fn rough(&self, source: &Source<'_>, forward: bool) -> Bound<SortBuf> {
        if source.index.is_none() {
            return match &self.table.sort {
                // No sort key: the partition's one item is the start itself.
                None => Bound::Excluded(SortBuf::Inline(0)),
                Some(sk) => source.bound(&Bound::Included(sk.clone()), forward),
            };
        }
        // The entry's exact position: index sort key, then the table key (`sim::regen`'s
        // `entry_position`).
        let mut key = Vec::new();
        push_component(&self.index_sort.as_ref().map(body).unwrap_or_default(), &mut key);
        key.extend_from_slice(&self.table.partition.hash.to_be_bytes());
        push_component(&body(&self.table.partition.key), &mut key);
        let exact = match (&self.table.sort, source.table_codec) {
            (None, _) => true,
            (Some(KeyValue::N(n)), Codec::Inline) => match n.to_i64().and_then(|v| u64::try_from(v).ok()) {
                Some(v) => {
                    key.extend_from_slice(&v.to_be_bytes());
                    true
                }
                None => false,
            },
            (Some(sk), _) => {
                key.extend_from_slice(&body(sk));
                true
            }
        };
        if exact {
            return Bound::Excluded(SortBuf::Bytes(key));
        }
        match &self.index_sort {
            Some(sort) => source.bound(&Bound::Included(sort.clone()), forward),
            None => Bound::Unbounded,
        }
    }
}

/// A key value's order-preserving bytes as the ledger keeps them (S and B as they are, N by
/// `keys::push_number` of the canonical text).
fn body(value: &KeyValue) -> Vec<u8> {
    match value {
        KeyValue::S(s) => s.as_bytes().to_vec(),
        KeyValue::B(b) => b.clone(),
        KeyValue::N(n) => {
            let mut out = Vec::new();
            push_number(&n.to_string(), &mut out);
            out
        }
    }
}

/// The partition with this key in a ledger.
fn find_partition(ledger: &Ledger, key: &KeyValue) -> Option<u32> {
    let text = key.hash_bytes();
    ledger.find(key.key_type(), &text, hash_bytes(&text))
}

/// Partition `p`'s key as the store identifies it.
fn partition_id(ledger: &Ledger, p: u32) -> Option<PartitionId> {
    let text = ledger.key_of(p);
    let key = match ledger.partition(p).key_type {
        KeyType::S => KeyValue::S(String::from_utf8(text.to_vec()).ok()?),
        KeyType::N => KeyValue::N(Number::parse(std::str::from_utf8(text).ok()?).ok()?),
        KeyType::B => KeyValue::B(text.to_vec()),
    };
    Some(PartitionId::new(key))
}

/// Rows of a partition before a bound: the first row inside a lower bound, or the first past an
/// upper bound.
fn position(part: &Partition, codec: Codec, bound: &Bound<SortBuf>, lower: bool) -> usize {
    let rows = part.rows();
    let cmp = |row: &Row, key: &SortBuf| match (codec, key) {
        (Codec::Inline, SortBuf::Inline(v)) => row.sk.cmp(v),
        (Codec::Bytes, SortBuf::Bytes(b)) => part.sk_bytes(row).cmp(b.as_slice()),
        // A bound is always built in the codec of what it bounds.
        _ => Ordering::Less,
    };
    match (bound, lower) {
        (Bound::Unbounded, true) => 0,
        (Bound::Unbounded, false) => rows.len(),
        (Bound::Included(k), true) | (Bound::Excluded(k), false) => {
            rows.partition_point(|r| cmp(r, k) == Ordering::Less)
        }
        (Bound::Excluded(k), true) | (Bound::Included(k), false) => {
            rows.partition_point(|r| cmp(r, k) != Ordering::Greater)
        }
    }
}

/// A Query's partition key and sort-key range, read as `store::range` reads them; `None` where
/// the store refuses the condition (it then answers with the reason).
fn key_range(schema: &KeySchema, query: &Query) -> Option<(KeyValue, Bound<KeyValue>, Bound<KeyValue>)> {
    let terms = &query.key_condition.terms;
    let at = terms.iter().position(|t| t.attribute == schema.partition.name)?;
    let KeyOp::Eq(value) = &terms[at].op else { return None };
    let pk = value.as_key()?;
    let (mut lo, mut hi) = (Bound::Unbounded, Bound::Unbounded);
    for (i, term) in terms.iter().enumerate() {
        if i == at {
            continue;
        }
        schema.sort.as_ref().filter(|s| s.name == term.attribute)?;
        let key = |v: &AttributeValue| v.as_key();
        (lo, hi) = match &term.op {
            KeyOp::Eq(v) => (Bound::Included(key(v)?), Bound::Included(key(v)?)),
            KeyOp::Lt(v) => (Bound::Unbounded, Bound::Excluded(key(v)?)),
            KeyOp::Le(v) => (Bound::Unbounded, Bound::Included(key(v)?)),
            KeyOp::Gt(v) => (Bound::Excluded(key(v)?), Bound::Unbounded),
            KeyOp::Ge(v) => (Bound::Included(key(v)?), Bound::Unbounded),
            KeyOp::Between(a, b) => (Bound::Included(key(a)?), Bound::Included(key(b)?)),
            KeyOp::BeginsWith(v) => {
                let prefix = key(v)?;
                let next = successor(&prefix)?;
                (Bound::Included(prefix), next)
            }
        };
    }
    Some((pk, lo, hi))
}

/// The bound past every key that starts with `prefix` (`None`: not a string or binary).
fn successor(prefix: &KeyValue) -> Option<Bound<KeyValue>> {
    Some(match prefix {
        KeyValue::S(s) => {
            super::keys::prefix_successor(s).map_or(Bound::Unbounded, |n| Bound::Excluded(KeyValue::S(n)))
        }
        KeyValue::B(b) => {
            let mut bytes = b.clone();
            while bytes.last() == Some(&u8::MAX) {
                bytes.pop();
            }
            match bytes.last_mut() {
                Some(last) => {
                    *last += 1;
                    Bound::Excluded(KeyValue::B(bytes))
                }
                None => Bound::Unbounded,
            }
        }
        KeyValue::N(_) => return None,
    })
}

fn inside(key: &KeyValue, lo: &Bound<KeyValue>, hi: &Bound<KeyValue>) -> bool {
    let above = match lo {
        Bound::Included(v) => key >= v,
        Bound::Excluded(v) => key > v,
        Bound::Unbounded => true,
    };
    let below = match hi {
        Bound::Included(v) => key <= v,
        Bound::Excluded(v) => key < v,
        Bound::Unbounded => true,
    };
    above && below
}

/// DynamoDB's table and index names: 3 to 255 characters of `[a-zA-Z0-9_.-]` (AWS naming
/// rules, as `store::schema` checks them).
fn valid_name(name: &str) -> bool {
    (3..=255).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

fn alias_of(aliases: &[(String, String)], name: &str) -> String {
    aliases.iter().find(|(real, _)| real == name).map_or_else(|| name.to_owned(), |(_, alias)| alias.clone())
}

fn unalias_text(aliases: &[(String, String)], mut text: String) -> String {
    for (real, alias) in aliases {
        text = text.replace(alias.as_str(), real);
    }
    text
}

/// Puts real names back where a response names tables and indexes (keys re-sorted, as `ops`
/// sorts them).
fn unalias(aliases: &[(String, String)], answer: &mut Json) {
    if aliases.is_empty() {
        return;
    }
    let real = |name: &str| {
        aliases.iter().find(|(_, a)| a == name).map_or_else(|| name.to_owned(), |(r, _)| r.clone())
    };
    let rekey = |value: &mut Json| {
        if let Json::Object(map) = value {
            let mut entries: Vec<(String, Json)> =
                std::mem::take(map).into_iter().map(|(k, v)| (real(&k), v)).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            *map = entries.into_iter().collect();
        }
    };
    let Json::Object(fields) = answer else { return };
    for name in ["Responses", "UnprocessedKeys"] {
        if let Some(value) = fields.get_mut(name) {
            rekey(value);
        }
    }
    let consumed = match fields.get_mut("ConsumedCapacity") {
        Some(Json::Array(list)) => list.iter_mut().collect(),
        Some(one) => vec![one],
        None => Vec::new(),
    };
    for entry in consumed {
        let Json::Object(entry) = entry else { continue };
        if let Some(Json::String(table)) = entry.get_mut("TableName") {
            *table = real(table);
        }
        for name in ["GlobalSecondaryIndexes", "LocalSecondaryIndexes"] {
            if let Some(value) = entry.get_mut(name) {
                rekey(value);
            }
        }
    }
}

#[cfg(test)]
mod tests;
