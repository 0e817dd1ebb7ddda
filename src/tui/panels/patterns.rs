//! The Access patterns panel: how the variant's keys serve each pattern (the planner's static
//! verdict: ✔ GetItem / Query / fan-out ×N, ✘ Scan or unserved) and, once a replay runs, its
//! calls, units per call and modelled p99 against the pattern's target.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{PENDING, block, text};
use crate::engine::planner::{Kind, Operation, PatternPlan, Plan, numbers};
use crate::tui::action::Panel;
use crate::tui::theme::Theme;
use crate::tui::view::PatternRow;

/// The verdict as the panel writes it: `✔ Query ×2 on by-status`, `✘ Scan`, `✘ unserved`.
pub fn verdict(p: &PatternPlan) -> (bool, String) {
    let on = p.index.as_ref().map(|i| format!(" on {i}")).unwrap_or_default();
    match p.operation {
        Some(Operation::Scan) => (false, format!("✘ Scan{on}")),
        None => (false, "✘ unserved".to_owned()),
        Some(op) if !p.served => (false, format!("✘ {}{on}", op.name())),
        Some(op) => {
            let fanout = if p.fanout > 1 { format!(" fan-out ×{}", p.fanout) } else { String::new() };
            // The planner counts writes beyond the base item; the panel shows all items written.
            let writes = match p.write_amplification {
                Some(extra) if p.kind == Kind::Write && extra > 1e-9 => {
                    format!(" → {} items", numbers::factor(1.0 + extra))
                }
                _ => String::new(),
            };
            (true, format!("✔ {}{fanout}{on}{writes}", op.name()))
        }
    }
}

pub struct PatternsPanel<'a> {
    pub plan: &'a Plan,
    /// Latency targets by pattern, in the plan's order.
    pub targets: &'a [Option<f64>],
    pub live: &'a [PatternRow],
    pub focused: bool,
    pub scroll: u16,
    pub theme: Theme,
}

impl Widget for PatternsPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let mut lines = Vec::new();
        for (i, p) in self.plan.patterns.iter().enumerate() {
            let (ok, verdict) = verdict(p);
            let style: Style = if ok { t.ok() } else { t.bad() };
            lines.push(Line::from(vec![
                Span::styled(format!("{} ", p.name), t.header()),
                Span::styled(verdict, style),
            ]));
            let live = self.live.iter().find(|l| l.name == p.name);
            let unit = live.and_then(|l| l.unit.as_deref()).unwrap_or(if p.kind == Kind::Read {
                "RCU"
            } else {
                "WCU"
            });
            let calls = live.map_or(PENDING.to_owned(), |l| numbers::count(l.calls as f64));
            let per_call = live.map_or(PENDING.to_owned(), |l| numbers::factor(l.units_per_call));
            let p99 = live
                .and_then(|l| l.p99_ms)
                .map_or(PENDING.to_owned(), |ms| format!("{}ms", numbers::count(ms)));
            let target = self.targets.get(i).copied().flatten();
            let late = matches!((live.and_then(|l| l.p99_ms), target), (Some(p), Some(t)) if p > t);
            let target = target.map(|ms| format!("/{}ms", numbers::count(ms))).unwrap_or_default();
            lines.push(Line::from(vec![
                Span::styled(format!("  {calls} calls · {per_call} {unit} each · p99 "), t.dim()),
                Span::styled(format!("{p99}{target}"), if late { t.bad() } else { t.dim() }),
            ]));
        }
        text(lines, block(Panel::Patterns, self.focused, t), self.scroll, area, buf);
    }
}
