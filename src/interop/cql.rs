//! `keyheat export cql`: a Cassandra-profile variant as CQL: a keyspace, one `CREATE TABLE` per
//! entity and one `CREATE MATERIALIZED VIEW` per index, as the simulator models them (DESIGN §6).
//!
//! The primary keys are the planner's (`PRIMARY KEY ((sensor_id, reading_time_day),
//! reading_time)`, a view's with the base key columns it must hold); this module only reads them
//! back and gives each column a type: the entity's attributes by their type (`Time` is a
//! `timestamp`, `N` a `decimal`: DynamoDB numbers are decimals), the columns a key template
//! derives by what derives them (a calendar bucket `text`, a fixed window's index `bigint`, a
//! shard or hash `int`), which the application writes with the row. Literal text of a template is
//! not stored: a Cassandra key is typed columns, not concatenated text.
//!
//! Clustering order: the busiest read the table (or view) serves decides, and the comment says
//! which (a Cassandra table has one order; the other direction is a reversed read). The comment
//! above each table carries the planner's partition-size arithmetic when the planner finds a
//! partition passing Cassandra's guidance (~100 MB, ~100,000 rows), and says so when it finds
//! none. The default TTL is the variant's lifetime for the entities it expires.

use std::fmt::Write as _;

use crate::engine::model::{AttrType, Engine, Entity, Index, Order, Projection, Scenario, Variant};
use crate::engine::planner::{self, CqlPrimaryKey, IndexId, Plan, Subject, WarningCode};
use crate::engine::template::Part;

/// Why a scenario has no CQL form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CqlError {
    #[error(
        "{scenario} uses the {engine} profile; `export cql` writes the Cassandra profile's tables (use `export cloudformation` or `export nwb` for DynamoDB)"
    )]
    NotCassandra { scenario: String, engine: Engine },
}

/// The CQL script for `variant`.
pub fn render(scenario: &Scenario, variant: &Variant) -> Result<String, CqlError> {
    if !scenario.engine.profile().cql() {
        return Err(CqlError::NotCassandra { scenario: scenario.name.clone(), engine: scenario.engine });
    }
    let plan = planner::plan(scenario, variant);
    let keyspace = cql_name(&scenario.name);
    let mut out = format!(
        "-- keyheat: {} ({}), variant {}\n{}-- Replication factor 3, as keyheat's ring of 6 nodes models it.\n\
         CREATE KEYSPACE IF NOT EXISTS {keyspace}\n    WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 3}};\n\nUSE {keyspace};\n",
        scenario.title,
        scenario.name,
        variant.name,
        if variant.description.trim().is_empty() {
            String::new()
        } else {
            format!("-- {}\n", one_line(&variant.description))
        },
    );
    for entity in &scenario.entities {
        let Some(keys) = variant.keys_for(entity.id()) else { continue };
        let key = CqlPrimaryKey::of(keys, None);
        let table = cql_name(&entity.name);
        out.push('\n');
        out.push_str(&size_comment(scenario, variant, &plan, entity, None));
        let views: Vec<(IndexId, &Index, CqlPrimaryKey)> = (variant.indexes.iter().enumerate())
            .filter_map(|(at, index)| {
                let view_keys = index.keys_for(entity.id())?;
                Some((IndexId::new(at, index), index, CqlPrimaryKey::of(view_keys, Some(keys))))
            })
            .collect();
        // Every column a key of the table or of a view uses, after the entity's own attributes.
        let mut columns: Vec<(String, &'static str)> =
            entity.attributes.iter().map(|a| (a.name.clone(), cql_type(a.ty))).collect();
        let used = key.columns().chain(views.iter().flat_map(|(_, _, k)| k.columns())).collect::<Vec<_>>();
        for column in used {
            if !columns.iter().any(|(c, _)| c == column) {
                columns.push((column.to_owned(), derived_type(variant, entity, column)));
            }
        }
        let order = clustering(scenario, &plan, entity, None, &key);
        if let Some((_, note)) = &order {
            let _ = writeln!(out, "-- {note}");
        }
        let _ = writeln!(out, "CREATE TABLE {table} (");
        for (name, ty) in &columns {
            let _ = writeln!(out, "    {} {ty},", quote(name));
        }
        let _ = write!(out, "    {}\n)", cql(&key));
        let mut with = Vec::new();
        if let Some((order, _)) = order {
            with.push(order);
        }
        if let Some(ttl) = variant.ttl.as_ref().filter(|t| t.covers(entity.id())) {
            with.push(format!("default_time_to_live = {}", ttl.lifetime.as_secs()));
        }
        if !with.is_empty() {
            let _ = write!(out, "\nWITH {}", with.join("\n    AND "));
        }
        out.push_str(";\n");
        for (id, index, view_key) in &views {
            out.push('\n');
            out.push_str(&size_comment(scenario, variant, &plan, entity, Some(id)));
            let selected = match &index.projection {
                Projection::All => "*".to_owned(),
                projection => {
                    let mut names: Vec<String> = view_key.columns().map(str::to_owned).collect();
                    for (name, _) in &columns {
                        if projection.carries(name) && !names.contains(name) {
                            names.push(name.clone());
                        }
                    }
                    names.iter().map(|n| quote(n)).collect::<Vec<_>>().join(", ")
                }
            };
            let order = clustering(scenario, &plan, entity, Some(id), view_key);
            if let Some((_, note)) = &order {
                let _ = writeln!(out, "-- {note}");
            }
            let not_null: Vec<String> =
                view_key.columns().map(|c| format!("{} IS NOT NULL", quote(c))).collect();
            let _ = write!(
                out,
                "CREATE MATERIALIZED VIEW {} AS\n    SELECT {selected} FROM {table}\n    WHERE {}\n    {}",
                cql_name(&index.name),
                not_null.join(" AND "),
                cql(view_key)
            );
            if let Some((order, _)) = order {
                let _ = write!(out, "\n    WITH {order}");
            }
            out.push_str(";\n");
        }
    }
    Ok(out)
}

/// `PRIMARY KEY ((…), …)` with every column quoted as CQL needs it.
fn cql(key: &CqlPrimaryKey) -> String {
    let quoted = |columns: &[String]| columns.iter().map(|c| quote(c)).collect();
    CqlPrimaryKey { partition: quoted(&key.partition), clustering: quoted(&key.clustering) }.to_string()
}

fn cql_type(ty: AttrType) -> &'static str {
    match ty {
        AttrType::S => "text",
        AttrType::N => "decimal",
        AttrType::Time => "timestamp",
        AttrType::B => "blob",
        AttrType::Bool => "boolean",
    }
}

/// The type of a column a key template derives (not one of the entity's attributes).
fn derived_type(variant: &Variant, entity: &Entity, column: &str) -> &'static str {
    let templates = variant
        .keys_for(entity.id())
        .into_iter()
        .chain(variant.indexes.iter().filter_map(|i| i.keys_for(entity.id())))
        .flat_map(|k| std::iter::once(&k.pk).chain(&k.sk));
    for template in templates {
        for part in template.parts() {
            // A class slot is a column of its plain form (`shard`, `at_bucket`).
            let part = part.class().map_or(part, |c| &c.other);
            let ty = match part {
                Part::Bucket { name, .. } if column == format!("{name}_bucket") => "bigint",
                Part::Hash { name, .. } if column == format!("{name}_hash") => "int",
                Part::Shard { .. } if column == "shard" => "int",
                Part::Time { name, .. } if column.starts_with(&format!("{name}_")) => "text",
                _ => continue,
            };
            return ty;
        }
    }
    // The planner names an all-literal partition key `pk`: its text.
    "text"
}

/// `WITH CLUSTERING ORDER BY (…)` and why, from the busiest read served by the table (`index`
/// `None`) or the view; `None` without clustering columns.
fn clustering(
    scenario: &Scenario,
    plan: &Plan,
    entity: &Entity,
    index: Option<&IndexId>,
    key: &CqlPrimaryKey,
) -> Option<(String, String)> {
    if key.clustering.is_empty() {
        return None;
    }
    let busiest =
        plan.patterns
            .iter()
            .filter(|p| p.kind == planner::Kind::Read && p.served() && p.index.as_ref() == index)
            .filter_map(|p| Some((p, scenario.patterns.get(p.pattern.index())?)))
            .filter(|(_, p)| p.entity_id() == entity.id() && p.action == crate::engine::model::Action::List)
            .fold(None::<(&planner::PatternPlan, &crate::engine::model::AccessPattern)>, |best, next| {
                match best {
                    Some(b) if b.0.mean_rate >= next.0.mean_rate => Some(b),
                    _ => Some(next),
                }
            });
    let (direction, note) = match busiest {
        Some((plan, pattern)) => {
            let (direction, reads) = match pattern.order {
                Order::Desc => ("DESC", "newest first"),
                Order::Asc => ("ASC", "in order"),
            };
            (
                direction,
                format!(
                    "clustering order: {}, the busiest read here ({}/s), reads {reads}",
                    pattern.name,
                    planner::numbers::count(plan.mean_rate)
                ),
            )
        }
        None => ("ASC", "clustering order: no read of this entity lists rows here".to_owned()),
    };
    let columns = key.clustering.iter().map(|c| format!("{} {direction}", quote(c))).collect::<Vec<_>>();
    Some((format!("CLUSTERING ORDER BY ({})", columns.join(", ")), note))
}

/// The partition-size comment above a table (`index` `None`) or view: the partition warnings
/// of the key `entity`'s puts fill there.
fn size_comment(
    scenario: &Scenario,
    variant: &Variant,
    plan: &Plan,
    entity: &Entity,
    index: Option<&IndexId>,
) -> String {
    let keys = match index {
        None => variant.keys_for(entity.id()),
        Some(id) => id.resolve(variant).keys_for(entity.id()),
    };
    let Some(keys) = keys else { return String::new() };
    let place = index.map_or_else(|| "table".to_owned(), |id| format!("view {}", id.name()));
    let filled_here = |about: &Subject| matches!(about, Subject::PartitionKey { index: at, entities } if at.as_ref() == index && entities.contains(&entity.id()));
    let found: Vec<String> = plan
        .warnings
        .iter()
        .filter(|w| matches!(w.code, WarningCode::UnboundedPartition | WarningCode::LargePartition))
        .filter(|w| filled_here(&w.about))
        .map(ToString::to_string)
        .collect();
    let mut out = format!("-- {} ({place}): partition key {}\n", entity.name, keys.pk.source());
    if found.is_empty() {
        let _ = writeln!(
            out,
            "-- Partition size: keyheat check finds no partition passing Cassandra's guidance (~100 MB, ~100,000 rows) in the workload's {}.",
            scenario.workload.duration
        );
    }
    for message in found {
        let _ = writeln!(out, "-- Partition size: {}", one_line(&message));
    }
    out
}

/// A CQL name from a keyheat name: `OrderItem` → `order_item`, `by-score` → `by_score`.
pub fn cql_name(name: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if previous_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            previous_lower = false;
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            out.push('_');
            previous_lower = false;
        }
    }
    if !out.starts_with(|c: char| c.is_ascii_lowercase()) {
        out.insert(0, 't');
    }
    out
}

/// A column name as CQL reads it: bare when it is lower-case and not a reserved word, quoted
/// otherwise (a quoted name keeps its case).
fn quote(name: &str) -> String {
    const RESERVED: [&str; 40] = [
        "add",
        "allow",
        "alter",
        "and",
        "apply",
        "asc",
        "authorize",
        "batch",
        "begin",
        "by",
        "columnfamily",
        "create",
        "delete",
        "desc",
        "describe",
        "drop",
        "entries",
        "execute",
        "from",
        "full",
        "grant",
        "if",
        "in",
        "index",
        "infinity",
        "insert",
        "into",
        "keyspace",
        "limit",
        "modify",
        "norecursive",
        "of",
        "on",
        "order",
        "primary",
        "select",
        "set",
        "table",
        "to",
        "where",
    ];
    let bare = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !RESERVED.contains(&name);
    if bare { name.to_owned() } else { format!("\"{}\"", name.replace('"', "\"\"")) }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    #[test]
    fn names_and_quoting() {
        for (name, cql) in
            [("OrderItem", "order_item"), ("by-score", "by_score"), ("Reading", "reading"), ("9", "t9")]
        {
            assert_eq!(cql_name(name), cql, "{name}");
        }
        for (name, cql) in [("sensor_id", "sensor_id"), ("order", "\"order\""), ("Total", "\"Total\"")] {
            assert_eq!(quote(name), cql, "{name}");
        }
    }

    #[test]
    fn writes_primary_keys_with_their_columns_quoted() {
        let key = |partition: &[&str], clustering: &[&str]| CqlPrimaryKey {
            partition: partition.iter().map(ToString::to_string).collect(),
            clustering: clustering.iter().map(ToString::to_string).collect(),
        };
        let cases = [
            (key(&["sensor_id"], &[]), "PRIMARY KEY ((sensor_id))"),
            (
                key(&["sensor_id", "reading_time_day"], &["reading_time"]),
                "PRIMARY KEY ((sensor_id, reading_time_day), reading_time)",
            ),
            (key(&["a"], &["order", "c"]), "PRIMARY KEY ((a), \"order\", c)"),
            (key(&["Total"], &[]), "PRIMARY KEY ((\"Total\"))"),
        ];
        for (key, text) in cases {
            assert_eq!(cql(&key), text, "{key:?}");
        }
    }

    fn render_bundled(name: &str, variant: &str) -> Result<String, CqlError> {
        let loaded = scenario::load(name).unwrap();
        render(&loaded.scenario, loaded.variant(Some(variant)).unwrap())
    }

    #[test]
    fn a_dynamodb_scenario_is_refused_with_the_way_out() {
        let err = render_bundled("orders", "naive").unwrap_err();
        assert!(err.to_string().contains("export cloudformation"), "{err}");
    }

    #[test]
    fn bucket_columns_are_typed_and_ordered_by_the_busiest_read() {
        let cql = render_bundled("chat", "recommended").unwrap();
        assert!(cql.contains("    sent_at_bucket bigint,\n"), "{cql}");
        assert!(cql.contains("PRIMARY KEY ((channel_id, sent_at_bucket), sent_at, seq)"), "{cql}");
        assert!(cql.contains("WITH CLUSTERING ORDER BY (sent_at DESC, seq DESC)"), "{cql}");
        assert!(cql.contains("CREATE MATERIALIZED VIEW conversations_by_user AS"), "{cql}");
        let day = render_bundled("sensors", "recommended").unwrap();
        assert!(day.contains("    reading_time_day text,\n"), "{day}");
    }

    #[test]
    fn the_planners_partition_arithmetic_is_carried_over() {
        let naive = render_bundled("sensors", "naive").unwrap();
        assert!(
            naive.contains("-- Partition size: partition key {sensor_id} (table) has no time bucket"),
            "{naive}"
        );
        let fixed = render_bundled("sensors", "recommended").unwrap();
        assert!(fixed.contains("finds no partition passing Cassandra's guidance"), "{fixed}");
    }
}
