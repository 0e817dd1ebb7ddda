//! The Goals panel: each of the scenario's goals, ✔ or ✘ with the measured value once a replay
//! has judged it, `·` before.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{PENDING, block, text};
use crate::engine::model::Goal;
use crate::tui::action::Panel;
use crate::tui::theme::Theme;
use crate::tui::view::GoalRow;

pub struct GoalsPanel<'a> {
    pub goals: &'a [Goal],
    pub live: &'a [GoalRow],
    pub focused: bool,
    pub scroll: u16,
    pub theme: Theme,
}

impl Widget for GoalsPanel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let mut lines = Vec::new();
        if self.goals.is_empty() {
            lines.push(Line::styled("the scenario sets no goals", t.dim()));
        }
        for goal in self.goals {
            let line = match self.live.iter().find(|l| l.name == goal.name) {
                Some(l) if l.passed => Line::from(vec![
                    Span::styled("✔ ", t.ok()),
                    Span::raw(goal.name.clone()),
                    Span::styled(format!("  {}", l.value), t.dim()),
                ]),
                Some(l) => Line::from(vec![
                    Span::styled("✘ ", t.bad()),
                    Span::raw(goal.name.clone()),
                    Span::styled(format!("  {}", l.value), t.bad()),
                ]),
                None => Line::from(vec![
                    Span::styled("· ", t.dim()),
                    Span::raw(goal.name.clone()),
                    Span::styled(format!("  {PENDING}"), t.dim()),
                ]),
            };
            lines.push(line);
        }
        text(lines, block(Panel::Goals, self.focused, t), self.scroll, area, buf);
    }
}
