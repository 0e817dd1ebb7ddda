//! The Indexes panel, in each store's terms. DynamoDB: per GSI/LSI, its write units against the
//! table's, its storage against the base table's, replication lag, throttles and hottest key.
//! Cassandra: an index is a materialized view: the rows written for it, its storage, its hottest
//! key (no units, no lag or throttles: the base replicas write the view as they apply the base
//! write). MongoDB: an index holds a key and a record id per document, written with the
//! document (no units, no lag, nothing throttles): its entries written, its storage against the
//! collection's, its hottest key. Cosmos DB declares no index: it indexes every property itself.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{Chunk, PENDING, block, text};
use crate::engine::model::{Engine, Variant};
use crate::engine::planner::numbers;
use crate::engine::profile::{IndexEntries, Indexes};
use crate::report::run::plural;
use crate::tui::action::Panel;
use crate::tui::theme::Theme;
use crate::tui::view::IndexRow;

pub struct IndexesPanel<'a> {
    pub variant: &'a Variant,
    /// The store, whose kind of index and words the panel uses.
    pub engine: Engine,
    pub live: &'a [IndexRow],
    pub focused: bool,
    pub scroll: u16,
    pub theme: Theme,
}

impl IndexesPanel<'_> {
    /// The panel collapsed to one line: its indexes by name, and what they throttled so far
    /// when any did (DynamoDB).
    pub fn summary(&self) -> Vec<Chunk> {
        let t = self.theme;
        let profile = self.engine.profile();
        let views = profile.indexes == Indexes::Views;
        let names: Vec<&str> = self.variant.indexes.iter().map(|i| i.name.as_str()).collect();
        let n = names.len() as u64;
        let what = match (profile.indexes, views) {
            (Indexes::Automatic, _) => "every property indexed".to_owned(),
            (_, true) if n == 0 => "no materialized views".to_owned(),
            (_, false) if n == 0 => "no secondary indexes".to_owned(),
            (_, true) => format!("{}: {}", plural(n, "view", "views"), names.join(", ")),
            (_, false) => format!("{}: {}", plural(n, "index", "indexes"), names.join(", ")),
        };
        let mut chunks = vec![Chunk::new("", vec![Span::styled(what, t.dim())])];
        let throttled: u64 = self.live.iter().map(|l| l.throttled).sum();
        if throttled > 0 {
            let throttled = format!("throttled {}", numbers::count(throttled as f64));
            chunks.push(Chunk::new(" · ", vec![Span::styled(throttled, t.bad())]));
        }
        chunks
    }
}

impl Widget for IndexesPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let profile = self.engine.profile();
        let views = profile.indexes == Indexes::Views;
        // A MongoDB index entry is the indexed values and a record id, never a projection.
        let keyed = matches!(profile.index_entries, IndexEntries::KeyAndRecordId { .. });
        let mut lines = Vec::new();
        if profile.indexes == Indexes::Automatic {
            // "Indexing policies in Azure Cosmos DB": by default every property of every item.
            lines.push(Line::styled("every property indexed (the default indexing policy)", t.dim()));
            lines.push(Line::styled("  charged in each write's RU; no index to declare", t.dim()));
        } else if self.variant.indexes.is_empty() {
            let none = if views { "no materialized views" } else { "no secondary indexes" };
            lines.push(Line::styled(none, t.dim()));
        }
        for index in &self.variant.indexes {
            let kind = if views {
                format!(" materialized view · {}", super::schema::view_columns(&index.projection))
            } else if keyed {
                " index · key → record id".to_owned()
            } else {
                format!(" {} · {}", index.kind.short(), index.projection)
            };
            lines.push(Line::from(vec![
                Span::styled(index.name.clone(), t.header()),
                Span::styled(kind, t.dim()),
            ]));
            let live = self.live.iter().find(|l| l.name == index.name);
            let figure = |f: &dyn Fn(&IndexRow) -> String| live.map_or(PENDING.to_owned(), f);
            if views || keyed {
                let (written, base) =
                    if views { ("view writes", "base") } else { ("entries written", "collection") };
                lines.push(Line::raw(format!(
                    "  {written} {} · storage ×{} of {base} · hottest {}",
                    figure(&|l| numbers::count(l.writes as f64)),
                    figure(&|l| numbers::factor(l.storage_vs_base)),
                    figure(&|l| l.hottest_key.clone().unwrap_or_else(|| "none".to_owned()))
                )));
                continue;
            }
            let throttled = live.is_some_and(|l| l.throttled > 0);
            lines.push(Line::from(vec![
                Span::raw(format!(
                    "  WCU ×{} of table · storage ×{} of base · lag {} · ",
                    figure(&|l| numbers::factor(l.wcu_vs_table)),
                    figure(&|l| numbers::factor(l.storage_vs_base)),
                    figure(&|l| numbers::span(l.max_lag_s)),
                )),
                Span::styled(
                    format!("throttled {}", figure(&|l| numbers::count(l.throttled as f64))),
                    if throttled { t.bad() } else { t.dim() },
                ),
                Span::raw(format!(
                    " · hottest {}",
                    figure(&|l| l.hottest_key.clone().unwrap_or_else(|| "none".to_owned()))
                )),
            ]));
        }
        text(lines, block(Panel::Indexes, self.focused, t), self.scroll, area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    /// (scenario, variant, store, shown, never shown)
    type Case = (&'static str, &'static str, Engine, &'static [&'static str], &'static [&'static str]);

    /// The panel names each store's kind of index in its words and shows only what that store
    /// measures: write units, lag and throttles on DynamoDB; a view's rows on Cassandra; a
    /// MongoDB index's entries against its collection; Cosmos DB's automatic indexing.
    #[test]
    fn each_store_shows_its_own_kind_of_index() {
        let cases: [Case; 4] = [
            (
                "orders",
                "recommended",
                Engine::DynamoDb,
                &["GSI · ", "WCU ×", "lag —", "throttled —"],
                &["collection"],
            ),
            (
                "chat",
                "recommended",
                Engine::Cassandra,
                &["materialized view", "view writes —", "of base"],
                &["WCU", "GSI"],
            ),
            (
                "shard-keys",
                "naive",
                Engine::MongoDb,
                &["by-id index · key → record id", "entries written —", "of collection"],
                &["WCU", "GSI", "lag", "throttled", "ALL"],
            ),
            (
                "counters",
                "naive",
                Engine::CosmosDb,
                &["every property indexed", "RU"],
                &["no secondary indexes", "WCU"],
            ),
        ];
        for (name, variant, engine, shown, never) in cases {
            let loaded = scenario::load_on(name, Some(engine)).expect("bundled");
            let variant = loaded.scenario.variants.iter().find(|v| v.name == variant).expect("the variant");
            let area = Rect::new(0, 0, 90, 8);
            let mut buf = Buffer::empty(area);
            let panel =
                IndexesPanel { variant, engine, live: &[], focused: false, scroll: 0, theme: Theme::MONO };
            panel.render(area, &mut buf);
            let screen: String = (0..area.height)
                .map(|y| (0..area.width).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
                .collect();
            for want in shown {
                assert!(screen.contains(want), "{engine}: {want:?} missing\n{screen}");
            }
            for unwanted in never {
                assert!(!screen.contains(unwanted), "{engine}: {unwanted:?} shown\n{screen}");
            }
        }
    }
}
