//! The Goals panel: each of the scenario's goals, ✔ or ✘ with the measured value as the engine
//! grades the replay so far, a dim `—` (pending) while it cannot yet, and a dim `–` "not graded"
//! when the replay ended without giving it anything to judge.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::{PENDING, block, text};
use crate::engine::model::Goal;
use crate::engine::sim::report::GoalStatus;
use crate::report::run::goal_mark;
use crate::tui::action::Panel;
use crate::tui::theme::Theme;
use crate::tui::view::{GoalRow, GoalState};

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
            let state = self.live.iter().find(|l| l.name == goal.name).map(|l| (l.state, l));
            let line = match state {
                Some((GoalState::Met, l)) => Line::from(vec![
                    Span::styled("✔ ", t.ok()),
                    Span::raw(goal.name.clone()),
                    Span::styled(format!("  {}", l.value), t.dim()),
                ]),
                Some((GoalState::Missed, l)) => Line::from(vec![
                    Span::styled("✘ ", t.bad()),
                    Span::raw(goal.name.clone()),
                    Span::styled(format!("  {}", l.value), t.bad()),
                ]),
                // As `keyheat run` marks and words it: the run ended with nothing to judge.
                Some((GoalState::NotGraded, _)) => Line::from(vec![
                    Span::styled(format!("{} ", goal_mark(GoalStatus::NotGraded)), t.dim()),
                    Span::styled(goal.name.clone(), t.dim()),
                    Span::styled("  not graded", t.dim()),
                ]),
                Some((GoalState::Pending, _)) | None => Line::from(vec![
                    Span::styled(format!("{PENDING} "), t.dim()),
                    Span::styled(goal.name.clone(), t.dim()),
                ]),
            };
            lines.push(line);
        }
        let mut frame = block(Panel::Goals, self.focused, t);
        let hidden = below(&lines, area, self.scroll);
        if hidden > 0 {
            // Goals past the bottom edge are still goals the run is graded on: say so.
            frame = frame.title_bottom(Span::styled(format!("+{hidden} more ↓"), t.dim()));
        }
        text(lines, frame, self.scroll, area, buf);
    }
}

/// Lines that start below the panel's last row, each line taking as many rows as it wraps to.
fn below(lines: &[Line<'_>], area: Rect, scroll: u16) -> usize {
    let width = usize::from(area.width.saturating_sub(2)).max(1);
    let last = usize::from(scroll) + usize::from(area.height.saturating_sub(2));
    let mut row = 0;
    let mut hidden = 0;
    for line in lines {
        if row >= last {
            hidden += 1;
        }
        row += line.width().div_ceil(width).max(1);
    }
    hidden
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::GoalCheck;

    fn goal(name: &str) -> Goal {
        Goal { name: name.to_owned(), check: GoalCheck::MaxThrottledRatio(0.01), hint: None, within: None }
    }

    fn row(name: &str, state: GoalState, value: &str) -> GoalRow {
        GoalRow { name: name.to_owned(), state, value: value.to_owned() }
    }

    /// The panel's lines as text, and the style of each line's first cell.
    fn draw(goals: &[Goal], live: &[GoalRow]) -> Vec<(String, ratatui::style::Style)> {
        let area = Rect::new(0, 0, 40, 6);
        let mut buf = Buffer::empty(area);
        let theme = Theme::DARK;
        GoalsPanel { goals, live, focused: false, scroll: 0, theme }.render(area, &mut buf);
        (1..5)
            .map(|y| {
                let text: String = (1..39).map(|x| buf[(x, y)].symbol()).collect();
                (text.trim_end().to_owned(), buf[(1, y)].style())
            })
            .collect()
    }

    #[test]
    fn goals_below_the_edge_are_counted_on_the_bottom_border() {
        let goals: Vec<Goal> = (1..=7).map(|i| goal(&format!("goal {i}"))).collect();
        let area = Rect::new(0, 0, 40, 6);
        for (scroll, more) in [(0, Some("+3 more ↓")), (2, Some("+1 more ↓")), (3, None)] {
            let mut buf = Buffer::empty(area);
            let theme = Theme::MONO;
            GoalsPanel { goals: &goals, live: &[], focused: true, scroll, theme }.render(area, &mut buf);
            let bottom: String = (0..40).map(|x| buf[(x, 5)].symbol()).collect();
            match more {
                Some(text) => assert!(bottom.contains(text), "{scroll}: {bottom}"),
                None => assert!(!bottom.contains("more"), "{scroll}: {bottom}"),
            }
        }
    }

    #[test]
    fn a_goal_with_nothing_measured_is_pending_and_dim() {
        let goals = [goal("latency target"), goal("no throttling"), goal("cheap"), goal("never seen")];
        let live = [
            row("latency target", GoalState::Pending, "0 ms"),
            row("no throttling", GoalState::Met, "0%"),
            row("cheap", GoalState::Missed, "$90"),
        ];
        let lines = draw(&goals, &live);
        let text: Vec<&str> = lines.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(text, ["— latency target", "✔ no throttling  0%", "✘ cheap  $90", "— never seen"]);
        let dim = Theme::DARK.dim();
        assert_eq!(lines[0].1.fg, dim.fg);
        assert_eq!(lines[3].1.fg, dim.fg);
        assert_ne!(lines[1].1.fg, dim.fg);
        // Pending says nothing about the value it would show: no "0 ms" before a call.
        assert!(!text[0].contains("0 ms"));
    }

    /// (state, the line, dim): a goal the ended replay gave nothing to judge says so, as the
    /// run report does, and is neither met nor missed.
    #[test]
    fn each_state_has_its_mark_and_words() {
        let dim = Theme::DARK.dim();
        let cases = [
            (GoalState::Pending, "— latency target", true),
            (GoalState::NotGraded, "– latency target  not graded", true),
            (GoalState::Met, "✔ latency target  9 ms", false),
            (GoalState::Missed, "✘ latency target  9 ms", false),
        ];
        for (state, expected, dimmed) in cases {
            let lines = draw(&[goal("latency target")], &[row("latency target", state, "9 ms")]);
            assert_eq!(lines[0].0, expected, "{state:?}");
            assert_eq!(lines[0].1.fg == dim.fg, dimmed, "{state:?}");
        }
    }
}
