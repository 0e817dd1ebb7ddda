//! The Cassandra profile's indexes are materialized views, held to CQL's rules for them (Apache
//! Cassandra documentation, CQL "Materialized Views"; DataStax CQL reference, `CREATE MATERIALIZED
//! VIEW`, "Restrictions"):
//! - the view's primary key holds every column of the base table's primary key. keyheat appends
//!   the ones a view's templates leave out as clustering columns (`planner::CqlPrimaryKey`),
//!   as `export cql` writes them, so no file can break this rule;
//! - it adds at most one column that is not in the base table's primary key: checked here, and a
//!   view that adds more is a load error at its key template;
//! - every key column is restricted `IS NOT NULL`: a row without a value for one is not in the
//!   view, which is how keyheat's sparse index behaves (an item without the attribute has no
//!   entry) and what `export cql` writes.

use super::{Result, problem};
use crate::engine::model::EntityKeys;
use crate::engine::planner::cql_column;
use crate::scenario::source_map::Path;

/// The columns of a primary key as the planner names them (an all-literal partition key is `pk`).
fn columns(keys: &EntityKeys) -> Vec<String> {
    let mut out: Vec<String> = keys.pk.parts().iter().filter_map(cql_column).collect();
    if out.is_empty() {
        out.push("pk".to_owned());
    }
    for column in keys.sk.iter().flat_map(|s| s.parts().iter().filter_map(cql_column)) {
        if !out.contains(&column) {
            out.push(column);
        }
    }
    out
}

/// The columns a view's key adds to its base table's primary key.
fn added(view: &EntityKeys, base: &EntityKeys) -> Vec<String> {
    let base = columns(base);
    columns(view).into_iter().filter(|c| !base.contains(c)).collect()
}

/// Checks each entity's view key against its table's key (`keys_path`: the view's `keys` map).
pub(super) fn check(
    keys_path: &Path,
    view: &str,
    entries: &[EntityKeys],
    tables: &[EntityKeys],
) -> Result<()> {
    for entry in entries {
        let Some(base) = tables.iter().find(|k| k.entity == entry.entity) else { continue };
        let added = added(entry, base);
        if added.len() > 1 {
            return Err(problem(
                &keys_path.key(&entry.entity),
                format!(
                    "materialized view {view}: its primary key adds {} columns that are not in {}'s primary key ({}); \
                     Cassandra allows at most one (CQL: a view's primary key is the base table's primary key \
                     columns plus at most one other column). Key the view by one of them, or keep a second \
                     table that the application writes",
                    added.len(),
                    entry.entity,
                    added.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::template::Template;

    fn keys(pk: &str, sk: Option<&str>) -> EntityKeys {
        EntityKeys::new(
            "Membership".to_owned(),
            Template::parse(pk).expect("template"),
            sk.map(|s| Template::parse(s).expect("template")),
        )
    }

    #[test]
    fn a_view_may_add_one_column_to_its_tables_key() {
        let base = keys("{channel_id}", Some("{user_id}"));
        // (view pk, view sk, columns it adds)
        let cases: [(&str, Option<&str>, &[&str]); 6] = [
            ("{user_id}", Some("{channel_id}"), &[]),
            ("{user_id}", None, &[]),
            ("{role}", Some("{channel_id}"), &["role"]),
            ("{user_id}#{joined_at:%Y-%m}", None, &["joined_at_month"]),
            ("{role}", Some("{joined_at}"), &["role", "joined_at"]),
            ("MEMBERS", Some("{role}"), &["pk", "role"]),
        ];
        for (pk, sk, want) in cases {
            assert_eq!(added(&keys(pk, sk), &base), want, "{pk} {sk:?}");
        }
    }
}
