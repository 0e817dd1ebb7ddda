//! The workbench console: one DynamoDB read request answered against the replay's table as it
//! stands, with the answer `keyheat ops` would print for the same items.
//!
//! The replay keeps no items, only 16-byte rows ([`super::ledger`]). A request is answered in
//! three steps: the ledger finds the rows the request can read (the partition and sort-key range
//! of a Query from its key condition, a Scan's partitions in the store's scan order from its
//! ExclusiveStartKey, a GetItem's row), in reading order, until the page is full (`Limit` items
//! or 1 MB read, sized as the store sizes items and index entries); those items are regenerated
//! from the seed, with their key attributes; and they are loaded into a fresh
//! `engine::store::Store` with the replay's key schema, which executes the request: a
//! [`ConsoleRequest`], which `ops::short::ConsoleRead` implements with `keyheat ops`'s own parser
//! (the engine knows nothing of the protocol's requests). So items, Count/ScannedCount,
//! LastEvaluatedKey, validation messages and ConsumedCapacity (TOTAL and INDEXES) are the store's
//! own, and equal what a store holding the whole table would answer (`tests` holds the two
//! against each other).
//!
//! Names: DynamoDB: one table named after the scenario, with the variant's key attribute names
//! (`PK`/`SK` unless renamed) and its indexes by name. Cassandra: one table per entity, named
//! after it; its items carry the same key attributes, capacity units do not apply (the answer
//! says so instead of reporting them), and the answer speaks CQL: `Rows`, `RowCount`,
//! `RowsRead`, `PagingState`. Table and index names DynamoDB would refuse
//! (`by status`, a Cassandra index over several entities) are served under an alias and reported
//! under their own name.
//!
//! `window` finds the rows a read reads. Only reads: GetItem, Query, Scan, BatchGetItem ([`Read`]);
//! writes and table changes are refused by `ConsoleRead`, since a write would change the run
//! being measured. Nothing here panics on any input.

use serde_json::Value as Json;

use super::Simulation;
use super::items;
use super::world::Projected;
use crate::engine::store::{
    BatchGetItem, BillingMode, CreateTable, GetItem, IndexSpec, KeyAttribute, KeySchema, ProjectionType,
    PutItem, Query, ReturnValues, Scan, Store, StoreConfig, StoreError, TableSpec,
};
use crate::engine::value::{Item, KeyType};

/// One read request for the console, as a protocol parsed it (`ops::short::ConsoleRead`).
pub trait ConsoleRequest {
    /// What it reads, for the console to gather those items.
    fn read(&self) -> Read<'_>;

    /// Renames tables and indexes (`rename` answers `None` for a name it keeps), for a store
    /// that holds them under other names.
    fn rename(&mut self, rename: &dyn Fn(&str) -> Option<String>);

    /// Executes the request on `store` and returns the response body `keyheat ops` would print;
    /// `Err` is the store's exception.
    fn answer(self, store: &mut Store) -> Result<Json, StoreError>;
}

/// What a [`ConsoleRequest`] reads, for the console to gather the items it can read.
#[derive(Debug, Clone, Copy)]
pub enum Read<'a> {
    GetItem(&'a GetItem),
    Query(&'a Query),
    Scan(&'a Scan),
    BatchGetItem(&'a BatchGetItem),
}

/// One table's key attribute names, and those of its indexes: what a console request can name
/// (`ops::short::expand` reads short forms with them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableKeys {
    pub name: String,
    pub pk: String,
    pub sk: Option<String>,
    pub indexes: Vec<IndexKeys>,
}

/// One secondary index's name and key attribute names (an LSI's `pk` is the table's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexKeys {
    pub name: String,
    pub pk: String,
    pub sk: Option<String>,
}

/// The answer's parts in CQL's words, for the Cassandra profile: the request is read with
/// DynamoDB's shorthand (there is no CQL parser), but what comes back are rows of partitions, a
/// paging state, no capacity units.
fn cql_words(answer: &mut Json) {
    let Json::Object(fields) = answer else { return };
    let had_capacity = fields.remove("ConsumedCapacity").is_some();
    for (dynamodb, cql) in [
        ("Item", "Row"),
        ("Items", "Rows"),
        ("Count", "RowCount"),
        ("ScannedCount", "RowsRead"),
        ("LastEvaluatedKey", "PagingState"),
    ] {
        if let Some(value) = fields.remove(dynamodb) {
            fields.insert(cql.into(), value);
        }
    }
    if had_capacity {
        fields.insert(
            "Note".into(),
            Json::from(
                "Cassandra profile: capacity units do not apply (load is counted in operations and bytes)",
            ),
        );
    }
}

/// Why the console did not answer a request with items. (A request it cannot take never gets
/// here: the protocol that parsed it refuses it, with its own error.)
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConsoleError {
    /// A replay's table that the store refuses to create: the console's bug, not the user's.
    #[error("the console cannot hold table {table} in a store: {source}")]
    Table { table: String, source: StoreError },
    /// The store's answer was an exception, under the real names; shown as DynamoDB names it
    /// (`ValidationException: …`).
    #[error("{kind}: {0}", kind = .0.type_name())]
    Answer(StoreError),
}

/// Most keys one BatchGetItem may name (AWS); more are refused by the store, so none are read.
const MAX_BATCH_KEYS: usize = 100;

/// What one read gathers: per table (by position in the world), the items to load.
type Gathered = Vec<(usize, Vec<Item>)>;

impl Simulation {
    /// Answers one console request, read against the replay's table as it stands now. `Ok` is
    /// the response `keyheat ops` would print for the same items, as a value for the caller to
    /// lay out; `Err` says why not: the exception and its message (`ValidationException: …`).
    pub fn console(&self, mut read: impl ConsoleRequest) -> Result<Json, ConsoleError> {
        let gathered = self.gather(read.read());
        let aliases = self.aliases();
        read.rename(&|name| aliases.iter().find(|(real, _)| real == name).map(|(_, alias)| alias.clone()));
        let mut store = Store::new(StoreConfig::default());
        for t in 0..self.world.tables.len() {
            let spec = self.table_spec(t, &aliases);
            let name = self.world.tables[t].name.clone();
            store
                .create_table(CreateTable { spec, index_lag: None })
                .map_err(|source| ConsoleError::Table { table: name, source })?;
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
        let mut answer =
            read.answer(&mut store).map_err(|e| ConsoleError::Answer(unalias_error(&aliases, e)))?;
        unalias(&aliases, &mut answer);
        if self.world.engine.profile().cql() {
            cql_words(&mut answer);
        }
        Ok(answer)
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
        self.embedded_lists(e, ordinal, &vals, &mut item, None);
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

/// The store's exception with real names in its text: the store knows tables and indexes by
/// their aliases, and its messages name them.
fn unalias_error(aliases: &[(String, String)], error: StoreError) -> StoreError {
    let text = |text: String| unalias_text(aliases, text);
    match error {
        StoreError::Validation(message) => StoreError::Validation(text(message)),
        StoreError::ResourceNotFound(table) => StoreError::ResourceNotFound(text(table)),
        StoreError::ResourceInUse(table) => StoreError::ResourceInUse(text(table)),
        StoreError::ItemCollectionSizeLimitExceeded { partition_key, would_be, limit } => {
            StoreError::ItemCollectionSizeLimitExceeded {
                partition_key: text(partition_key),
                would_be,
                limit,
            }
        }
        failed @ StoreError::ConditionalCheckFailed { .. } => failed,
    }
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

mod window;

#[cfg(test)]
mod tests;
