//! The Indexes panel: per GSI/LSI, its write units against the table's, its storage against the
//! base table's, replication lag, throttles and hottest key. In the Cassandra profile an index is
//! a materialized view: the rows written for it, its storage, its hottest key (no units, no lag
//! or throttles: the base replicas write the view as they apply the base write).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{PENDING, block, text};
use crate::engine::model::Variant;
use crate::engine::planner::numbers;
use crate::tui::action::Panel;
use crate::tui::theme::Theme;
use crate::tui::view::IndexRow;

pub struct IndexesPanel<'a> {
    pub variant: &'a Variant,
    /// The Cassandra profile: views, in CQL's words.
    pub cql: bool,
    pub live: &'a [IndexRow],
    pub focused: bool,
    pub scroll: u16,
    pub theme: Theme,
}

impl Widget for IndexesPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let mut lines = Vec::new();
        if self.variant.indexes.is_empty() {
            let none = if self.cql { "no materialized views" } else { "no secondary indexes" };
            lines.push(Line::styled(none, t.dim()));
        }
        for index in &self.variant.indexes {
            let kind = if self.cql {
                format!(" materialized view · {}", super::schema::view_columns(&index.projection))
            } else {
                format!(" {} · {}", index.kind.short(), index.projection)
            };
            lines.push(Line::from(vec![
                Span::styled(index.name.clone(), t.header()),
                Span::styled(kind, t.dim()),
            ]));
            let live = self.live.iter().find(|l| l.name == index.name);
            let figure = |f: &dyn Fn(&IndexRow) -> String| live.map_or(PENDING.to_owned(), f);
            if self.cql {
                lines.push(Line::raw(format!(
                    "  view writes {} · storage ×{} of base · hottest {}",
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
