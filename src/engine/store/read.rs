//! Reads: GetItem, Query and Scan on a table or an index, with their capacity.
//!
//! GetItem rounds each item to 4 KB and charges a missing item the minimum. Query and Scan sum
//! the sizes of the items (or index entries) they read, before the filter, and round once; a
//! page stops after `Limit` items read or 1 MB read, the item that crosses 1 MB included (a full
//! eventually consistent Scan page costs 128.5 RCU on DynamoDB, which is what that gives). GSI
//! reads are eventually consistent. An LSI query that needs attributes the index does not
//! project fetches each table item at one more 4 KB-rounded read (AWS, "Local secondary
//! indexes": "Select").

use std::collections::BTreeSet;
use std::ops::Bound::{Excluded, Included, Unbounded};
use std::sync::Arc;

use crate::engine::expr::{Condition, Projection};
use crate::engine::value::{Item, KeyValue};

use super::capacity::{ConsumedCapacity, PAGE_BYTES, Target, read_units};
use super::error::StoreError;
use super::index::{EntryKey, Index, Tie};
use super::key::PartitionId;
use super::range::{entry_bound, key_bounds, map_bound, narrow, range_is_empty, segment_range};
use super::requests::{GetItemOutput, Query, QueryOutput, Scan, Select};
use super::schema::{IndexKind, KeySchema};
use super::table::{Stored, Table};

fn invalid(message: impl Into<String>) -> StoreError {
    StoreError::Validation(message.into())
}

/// What a Query or Scan reads: the table or one of its indexes.
#[derive(Clone, Copy)]
enum Source<'a> {
    Table,
    Index(Target, &'a Index),
}

/// What each returned item looks like.
#[derive(Clone, Copy)]
enum Shape<'a> {
    Count,
    /// What was read: the table item, or the index entry (ALL_PROJECTED_ATTRIBUTES).
    AsRead,
    /// The whole table item (ALL_ATTRIBUTES; an LSI fetches it).
    Full,
    Projected(&'a Projection),
}

impl Table {
    pub(crate) fn get_item(
        &self,
        key: &Item,
        consistent: bool,
        projection: Option<&Projection>,
    ) -> Result<GetItemOutput, StoreError> {
        let key = self.spec.key.key_from_request(key)?;
        let stored = self.get(&key);
        let mut consumed = self.new_capacity();
        let bytes = stored.map_or(0, |s| u64::from(s.size));
        consumed.charge(Target::Table, &key.partition, read_units(bytes, consistent), 0.0);
        let item = stored.map(|s| match projection {
            Some(p) => Arc::new(p.apply(&s.item)),
            None => Arc::clone(&s.item),
        });
        Ok(GetItemOutput { item, consumed })
    }

    pub(crate) fn query(&self, request: &Query) -> Result<QueryOutput, StoreError> {
        let source = self.source(request.index.as_deref(), request.consistent_read)?;
        let limit = check_limit(request.limit)?;
        let (shape, fetch) =
            Table::shape(source, request.select, request.projection.as_ref(), request.filter.as_ref())?;
        let key_schema = match source {
            Source::Table => &self.spec.key,
            Source::Index(_, index) => &index.spec().key,
        };
        let (partition_key, range) = key_bounds(key_schema, &request.key_condition)?;
        check_filter_keys(key_schema, request.filter.as_ref())?;
        let pid = PartitionId::new(partition_key);
        let start =
            request.exclusive_start_key.as_ref().map(|k| self.start_position(source, k)).transpose()?;
        if let Some((start_pid, _)) = &start
            && *start_pid != pid
        {
            return Err(invalid("The provided starting key is outside query constraints"));
        }
        let start_sort = start.map(|(_, s)| s);
        let mut page =
            Page::new(self, source, request.filter.as_ref(), shape, fetch, request.consistent_read, limit);
        let forward = request.scan_forward;
        match source {
            Source::Table => {
                if let Some(partition) = self.partitions.get(&pid) {
                    let start = start_sort.map(|s| match s {
                        StartSort::Table(sort) => sort,
                        StartSort::Index(_) => unreachable!("a table start key has a table sort key"),
                    });
                    let (lo, hi) =
                        narrow(map_bound(range.lo, Some), map_bound(range.hi, Some), start, forward);
                    if !range_is_empty(&lo, &hi) {
                        let items = partition.items.range((lo, hi)).map(|(_, s)| (&pid, s));
                        if forward { page.read_all(items)? } else { page.read_all(items.rev())? }
                    }
                }
            }
            Source::Index(_, index) => {
                if let Some(partition) = index.partitions.get(&pid) {
                    let start = start_sort.map(|s| match s {
                        StartSort::Index(key) => key,
                        StartSort::Table(_) => unreachable!("an index start key has an index position"),
                    });
                    let lo = entry_bound(range.lo, true);
                    let hi = entry_bound(range.hi, false);
                    let (lo, hi) = narrow(lo, hi, start, forward);
                    if !range_is_empty(&lo, &hi) {
                        let entries = partition.entries.range((lo, hi)).map(|(_, s)| (&pid, s));
                        if forward { page.read_all(entries)? } else { page.read_all(entries.rev())? }
                    }
                }
            }
        }
        Ok(page.finish(Some(&pid)))
    }

    pub(crate) fn scan(&self, request: &Scan) -> Result<QueryOutput, StoreError> {
        let source = self.source(request.index.as_deref(), request.consistent_read)?;
        let limit = check_limit(request.limit)?;
        let (shape, fetch) =
            Table::shape(source, request.select, request.projection.as_ref(), request.filter.as_ref())?;
        let (hash_lo, hash_hi) = match request.segment {
            Some((segment, total)) => segment_range(segment, total)?,
            None => (0, None),
        };
        let in_segment =
            move |pid: &PartitionId| pid.hash >= hash_lo && hash_hi.is_none_or(|hi| pid.hash < hi);
        let start =
            request.exclusive_start_key.as_ref().map(|k| self.start_position(source, k)).transpose()?;
        let mut page =
            Page::new(self, source, request.filter.as_ref(), shape, fetch, request.consistent_read, limit);
        match (source, start) {
            (Source::Table, start) => {
                let (first, after) = match start {
                    Some((pid, StartSort::Table(sort))) => (Included(pid.clone()), Some((pid, sort))),
                    None => (Unbounded, None),
                    Some((_, StartSort::Index(_))) => unreachable!("a table start key has a table sort key"),
                };
                let partitions = self.partitions.range((first, Unbounded)).filter(|(pid, _)| in_segment(pid));
                let items = partitions.flat_map(|(pid, partition)| {
                    let lo = match &after {
                        Some((start_pid, sort)) if start_pid == pid => Excluded(sort.clone()),
                        _ => Unbounded,
                    };
                    partition.items.range((lo, Unbounded)).map(move |(_, s)| (pid, s))
                });
                page.read_all(items)?;
            }
            (Source::Index(_, index), start) => {
                let (first, after) = match start {
                    Some((pid, StartSort::Index(key))) => (Included(pid.clone()), Some((pid, key))),
                    None => (Unbounded, None),
                    Some((_, StartSort::Table(_))) => {
                        unreachable!("an index start key has an index position")
                    }
                };
                let partitions =
                    index.partitions.range((first, Unbounded)).filter(|(pid, _)| in_segment(pid));
                let entries = partitions.flat_map(|(pid, partition)| {
                    let lo = match &after {
                        Some((start_pid, key)) if start_pid == pid => Excluded(key.clone()),
                        _ => Unbounded,
                    };
                    partition.entries.range((lo, Unbounded)).map(move |(_, s)| (pid, s))
                });
                page.read_all(entries)?;
            }
        }
        Ok(page.finish(None))
    }

    fn source(&self, index: Option<&str>, consistent: bool) -> Result<Source<'_>, StoreError> {
        let Some(name) = index else { return Ok(Source::Table) };
        let (kind, i, _) = self
            .spec
            .index(name)
            .ok_or_else(|| invalid(format!("The table does not have the specified index: {name}")))?;
        Ok(match kind {
            IndexKind::Global => {
                if consistent {
                    return Err(invalid("Consistent reads are not supported on global secondary indexes"));
                }
                Source::Index(Target::Global(i), &self.global[i])
            }
            IndexKind::Local => Source::Index(Target::Local(i), &self.local[i]),
        })
    }

    /// The output shape for `Select` and the projection, and whether an LSI read must fetch the
    /// table item (it needs attributes the index does not project).
    fn shape<'a>(
        source: Source<'_>,
        select: Option<Select>,
        projection: Option<&'a Projection>,
        filter: Option<&Condition>,
    ) -> Result<(Shape<'a>, bool), StoreError> {
        let index = match source {
            Source::Table => None,
            Source::Index(_, index) => Some(index),
        };
        let select = select.unwrap_or(match (projection, index) {
            (Some(_), _) => Select::SpecificAttributes,
            (None, Some(_)) => Select::AllProjectedAttributes,
            (None, None) => Select::AllAttributes,
        });
        if projection.is_some() && select != Select::SpecificAttributes {
            return Err(invalid(format!(
                "One or more parameter values were invalid: Select type {} cannot be combined with a ProjectionExpression",
                select.name()
            )));
        }
        let shape = match (select, projection) {
            (Select::SpecificAttributes, Some(p)) => Shape::Projected(p),
            (Select::SpecificAttributes, None) => {
                return Err(invalid(
                    "One or more parameter values were invalid: Select type SPECIFIC_ATTRIBUTES requires a ProjectionExpression",
                ));
            }
            (Select::Count, _) => Shape::Count,
            (Select::AllAttributes, _) => Shape::Full,
            (Select::AllProjectedAttributes, _) => Shape::AsRead,
        };
        let Some(index) = index else {
            if select == Select::AllProjectedAttributes {
                return Err(invalid(
                    "One or more parameter values were invalid: Select type ALL_PROJECTED_ATTRIBUTES is supported only for index queries",
                ));
            }
            return Ok((shape, false));
        };
        if index.projects_all() {
            return Ok((shape, false));
        }
        if select == Select::AllAttributes && index.kind() == IndexKind::Global {
            return Err(invalid(format!(
                "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global \
                 secondary index {} because its projection type is not ALL",
                index.name()
            )));
        }
        if index.kind() == IndexKind::Global {
            // A GSI never fetches from the table: attributes it lacks are simply absent.
            return Ok((shape, false));
        }
        let mut needed: BTreeSet<String> = filter.map(Condition::attributes).unwrap_or_default();
        if let Some(p) = projection {
            needed.extend(p.attributes());
        }
        let fetch = select == Select::AllAttributes || needed.iter().any(|name| !index.projects(name));
        Ok((shape, fetch))
    }

    /// Reads an ExclusiveStartKey: exactly the table key attributes, plus the index key
    /// attributes when reading an index.
    fn start_position(&self, source: Source<'_>, key: &Item) -> Result<(PartitionId, StartSort), StoreError> {
        let bad = || {
            invalid(
                "The provided starting key is invalid: The provided key element does not match the schema",
            )
        };
        let table_key = &self.spec.key;
        let index_key = match source {
            Source::Table => None,
            Source::Index(_, index) => Some(&index.spec().key),
        };
        let mut names: BTreeSet<&str> = table_key.attributes().map(|a| a.name.as_str()).collect();
        names.extend(index_key.iter().flat_map(|k| k.attributes()).map(|a| a.name.as_str()));
        if key.len() != names.len() || !names.iter().all(|n| key.contains_key(*n)) {
            return Err(bad());
        }
        let only = |schema: &KeySchema| -> Item {
            schema
                .attributes()
                .filter_map(|a| key.get(&a.name).map(|v| (a.name.clone(), v.clone())))
                .collect()
        };
        let table_position = table_key.key_from_request(&only(table_key)).map_err(|_| bad())?;
        match index_key {
            None => Ok((table_position.partition, StartSort::Table(table_position.sort))),
            Some(schema) => {
                let index_position = schema.key_from_request(&only(schema)).map_err(|_| bad())?;
                let entry = EntryKey { sort: index_position.sort, tie: Tie::Key(table_position) };
                Ok((index_position.partition, StartSort::Index(entry)))
            }
        }
    }

    /// The key attributes of an item read from `source` (a LastEvaluatedKey).
    fn last_key(&self, source: Source<'_>, item: &Item) -> Item {
        let index_key = match source {
            Source::Table => None,
            Source::Index(_, index) => Some(&index.spec().key),
        };
        self.spec
            .key
            .attributes()
            .chain(index_key.iter().flat_map(|k| k.attributes()))
            .filter_map(|a| item.get(&a.name).map(|v| (a.name.clone(), v.clone())))
            .collect()
    }
}

/// A Query's filter may not read the key attributes it queries (AWS, "Filter expressions for
/// the Query operation": "A filter expression cannot contain partition key or sort key
/// attributes"; message as DynamoDB's). For an index query these are the index's key attributes;
/// whether DynamoDB also refuses the table's is undocumented, so keyheat refuses only the queried
/// key schema's, as dynalite does. A Scan has no such rule.
fn check_filter_keys(schema: &KeySchema, filter: Option<&Condition>) -> Result<(), StoreError> {
    let Some(filter) = filter else { return Ok(()) };
    let read = filter.attributes();
    match schema.attributes().find(|a| read.contains(&a.name)) {
        Some(key) => Err(invalid(format!(
            "Filter Expression can only contain non-primary key attributes: Primary key attribute: {}",
            key.name
        ))),
        None => Ok(()),
    }
}

/// Where a page resumes inside its first partition.
enum StartSort {
    Table(Option<KeyValue>),
    Index(EntryKey),
}

fn check_limit(limit: Option<usize>) -> Result<usize, StoreError> {
    match limit {
        Some(0) => Err(invalid(
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
        )),
        Some(n) => Ok(n),
        None => Ok(usize::MAX),
    }
}

/// One Query or Scan page being read.
struct Page<'a> {
    table: &'a Table,
    source: Source<'a>,
    filter: Option<&'a Condition>,
    shape: Shape<'a>,
    fetch: bool,
    consistent: bool,
    limit: usize,
    items: Vec<Arc<Item>>,
    count: usize,
    scanned: usize,
    /// Bytes read per partition, in reading order.
    bytes: Vec<(&'a PartitionId, u64)>,
    consumed: ConsumedCapacity,
    last: Option<&'a Stored>,
}

impl<'a> Page<'a> {
    fn new(
        table: &'a Table,
        source: Source<'a>,
        filter: Option<&'a Condition>,
        shape: Shape<'a>,
        fetch: bool,
        consistent: bool,
        limit: usize,
    ) -> Page<'a> {
        // GSI reads are eventually consistent whatever the request says (it was validated).
        let consistent = consistent && !matches!(source, Source::Index(Target::Global(_), _));
        let consumed = table.new_capacity();
        Page {
            table,
            source,
            filter,
            shape,
            fetch,
            consistent,
            limit,
            items: Vec::new(),
            count: 0,
            scanned: 0,
            bytes: Vec::new(),
            consumed,
            last: None,
        }
    }

    fn read_all(
        &mut self,
        entries: impl Iterator<Item = (&'a PartitionId, &'a Stored)>,
    ) -> Result<(), StoreError> {
        let mut total = 0u64;
        for (pid, stored) in entries {
            let size = u64::from(stored.size);
            total += size;
            match self.bytes.last_mut() {
                Some((last, bytes)) if *last == pid => *bytes += size,
                _ => self.bytes.push((pid, size)),
            }
            self.scanned += 1;
            self.read_one(pid, stored)?;
            if self.scanned >= self.limit || total >= PAGE_BYTES {
                self.last = Some(stored);
                break;
            }
        }
        Ok(())
    }

    fn read_one(&mut self, pid: &'a PartitionId, stored: &'a Stored) -> Result<(), StoreError> {
        let item = if self.fetch {
            // An LSI entry without the needed attributes: read the table item too.
            let key = self.table.spec.key.key_of_item(&stored.item)?;
            let table_item =
                self.table.get(&key).expect("an LSI entry's item is in the table (LSIs never lag)");
            self.consumed.charge(
                Target::Table,
                pid,
                read_units(u64::from(table_item.size), self.consistent),
                0.0,
            );
            table_item
        } else {
            stored
        };
        if let Some(filter) = self.filter
            && !filter.evaluate(&item.item)?
        {
            return Ok(());
        }
        self.count += 1;
        match self.shape {
            Shape::Count => {}
            Shape::AsRead => self.items.push(Arc::clone(&stored.item)),
            Shape::Full => self.items.push(Arc::clone(&item.item)),
            Shape::Projected(p) => self.items.push(Arc::new(p.apply(&item.item))),
        }
        Ok(())
    }

    /// Charges the read: total bytes rounded once, shared among the partitions read in
    /// proportion to their bytes. `queried` is a Query's partition, charged the minimum when
    /// nothing was read.
    fn finish(mut self, queried: Option<&PartitionId>) -> QueryOutput {
        let target = match self.source {
            Source::Table => Target::Table,
            Source::Index(target, _) => target,
        };
        let total: u64 = self.bytes.iter().map(|(_, b)| b).sum();
        let units = read_units(total, self.consistent);
        if total == 0 {
            match queried {
                Some(pid) => self.consumed.charge(target, pid, units, 0.0),
                None => self.consumed.charge_unplaced(target, units),
            }
        } else {
            self.consumed.charge_shared(target, &self.bytes, units);
        }
        let last_evaluated_key = self.last.map(|s| self.table.last_key(self.source, &s.item));
        QueryOutput {
            items: self.items,
            count: self.count,
            scanned_count: self.scanned,
            last_evaluated_key,
            consumed: self.consumed,
        }
    }
}
