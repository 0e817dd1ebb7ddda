//! The Schema panel: the current variant's keys — where each entity lands in the table, every
//! GSI and LSI with its keys and projection, TTL, denormalized copies and aggregates. Keys are
//! written in the editor's syntax (`"Reading": (pk: "…", sk: "…")`), never in a form the editor
//! would not take back.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{block, text};
use crate::engine::model::{Capacity, Engine, EntityKeys, Projection, Variant};
use crate::engine::planner::numbers;
use crate::engine::profile::cosmos::Throughput;
use crate::engine::profile::{IndexEntries, Indexes};
use crate::tui::action::Panel;
use crate::tui::theme::Theme;

/// The editor's state as the panel mentions it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DraftNote {
    None,
    /// An unapplied edit that loads.
    Valid,
    /// An unapplied edit with an error.
    Invalid,
}

pub struct SchemaPanel<'a> {
    pub variant: &'a Variant,
    /// The scenario's engine profile: how the panel words keys, indexes and capacity.
    pub engine: Engine,
    /// 1-based position of the variant and how many there are.
    pub position: (usize, usize),
    pub draft: DraftNote,
    pub focused: bool,
    pub scroll: u16,
    pub theme: Theme,
}

/// An entity's keys as a variant's `keys` map writes them: `(pk: "{sensor_id}", sk: "{ts}")`.
fn written(keys: &EntityKeys) -> String {
    match &keys.sk {
        Some(sk) => format!("(pk: {:?}, sk: {:?})", keys.pk.source(), sk.source()),
        None => format!("(pk: {:?})", keys.pk.source()),
    }
}

/// What a materialized view selects, in CQL's terms (a projection is DynamoDB's word).
pub fn view_columns(projection: &Projection) -> String {
    match projection {
        Projection::All => "all columns".to_owned(),
        Projection::KeysOnly => "key columns only".to_owned(),
        Projection::Include(names) => format!("key columns + {}", names.join(", ")),
    }
}

/// Entities' keys in the scenario's order of entities (the loader resolved every key's entity,
/// once each).
fn in_order(keys: &[EntityKeys]) -> Vec<&EntityKeys> {
    let mut keys: Vec<&EntityKeys> = keys.iter().collect();
    keys.sort_by_key(|k| k.entity_id());
    keys
}

impl Widget for SchemaPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let v = self.variant;
        // A store without capacity units (Cassandra: a node serves what its hardware can) has no
        // capacity modes: name the engine where a DynamoDB variant names its capacity.
        let capacity = match v.capacity {
            _ if !self.engine.profile().metered() => self.engine.to_string(),
            // Cosmos DB: the container's throughput, not DynamoDB's capacity.
            _ if self.engine.profile().request_units() => match v.cosmos_throughput() {
                Throughput::Manual(ru) => format!("{ru} RU/s manual"),
                Throughput::Autoscale { max } => format!("autoscale to {max} RU/s"),
            },
            Capacity::OnDemand => "on-demand".to_owned(),
            Capacity::Provisioned { read, write } => format!("provisioned {read} RCU / {write} WCU"),
        };
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("variant {}", v.name), t.header()),
            Span::styled(format!(" ({}/{}) · {capacity}", self.position.0, self.position.1), t.dim()),
        ])];
        match self.draft {
            DraftNote::None => {}
            DraftNote::Valid => {
                lines.push(Line::styled("✎ unapplied edit (e: open, Ctrl-S: apply)", t.warn()));
            }
            DraftNote::Invalid => {
                lines.push(Line::styled("✎ unapplied edit with an error (e: open)", t.bad()));
            }
        }
        // Keys are written as the editor takes them, so what a learner reads can be typed back.
        let listed = v.keys.iter().chain(v.indexes.iter().flat_map(|i| &i.keys));
        let width = listed.map(|k| k.entity.chars().count() + 3).max().unwrap_or(0);
        let entry = |keys: &EntityKeys, indent: &str| {
            Line::from(vec![
                Span::styled(format!("{indent}{:<width$} ", format!("\"{}\":", keys.entity)), t.header()),
                Span::raw(written(keys)),
            ])
        };
        for keys in in_order(&v.keys) {
            lines.push(entry(keys, ""));
        }
        for index in &v.indexes {
            let sparse = index
                .only_when
                .as_ref()
                .map(|(a, val)| format!(", only where {a} = {val}"))
                .unwrap_or_default();
            let profile = self.engine.profile();
            let (kind, columns) = if profile.indexes == Indexes::Views {
                ("view", view_columns(&index.projection))
            } else if matches!(profile.index_entries, IndexEntries::KeyAndRecordId { .. }) {
                // A MongoDB index projects nothing: its entries point at the documents.
                ("index", String::new())
            } else {
                (index.kind.short(), index.projection.to_string())
            };
            let detail = match (columns.as_str(), sparse.strip_prefix(", ")) {
                ("", None) => String::new(),
                ("", Some(only)) => format!(" ({only})"),
                (columns, _) => format!(" ({columns}{sparse})"),
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{kind} {}", index.name), t.key()),
                Span::styled(detail, t.dim()),
            ]));
            for keys in in_order(&index.keys) {
                lines.push(entry(keys, "  "));
            }
        }
        if let Some(ttl) = &v.ttl {
            lines.push(Line::from(vec![
                Span::styled("TTL ", t.key()),
                Span::raw(format!(
                    "{} = write time + {} on {}",
                    ttl.attribute,
                    numbers::span(ttl.lifetime.as_secs_f64()),
                    ttl.entities.join(", ")
                )),
            ]));
        }
        for c in &v.copies {
            lines.push(Line::from(vec![
                Span::styled("copy ", t.key()),
                Span::raw(format!("{}.{} → {}.{} (by {})", c.from, c.attribute, c.to, c.as_name, c.by)),
            ]));
        }
        for a in &v.aggregates {
            lines.push(Line::from(vec![
                Span::styled("aggregate ", t.key()),
                Span::raw(format!("{} on {}.{} ({})", a.name, a.entity, a.attribute, a.on.join(", "))),
            ]));
        }
        for e in &v.embeds {
            let kept = e.keep_latest.map_or_else(
                || "all of them, no items of their own".to_owned(),
                |n| format!("the newest {n}; every one also an item"),
            );
            lines.push(Line::from(vec![
                Span::styled("embed ", t.key()),
                Span::raw(format!("{} in {}.{} (by {}): {kept}", e.entity, e.into, e.as_name, e.by)),
            ]));
        }
        if !v.description.is_empty() {
            lines.push(Line::styled(v.description.clone(), t.dim()));
        }
        text(lines, block(Panel::Schema, self.focused, t), self.scroll, area, buf);
    }
}
