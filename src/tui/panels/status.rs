//! The status line: the simulated clock, speed, seed and variant, then either the latest message
//! or key hints (looked up in the key table, so they cannot name a key that does nothing).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::clock_time;
use crate::engine::planner::numbers;
use crate::engine::time::SimTime;
use crate::tui::theme::Theme;
use crate::tui::view::Progress;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    Info,
    Error,
}

pub struct StatusLine<'a> {
    /// `▶`, `⏸`, `⏭`.
    pub state: &'a str,
    pub progress: Option<Progress>,
    /// The workload's start, shown before any replay.
    pub start: SimTime,
    pub speed: &'a str,
    pub seed: u64,
    pub variant: &'a str,
    pub message: Option<(&'a str, MessageKind)>,
    /// (key, what it does).
    pub hints: &'a [(String, &'static str)],
    pub theme: Theme,
}

impl Widget for StatusLine<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let clock = match self.progress {
            Some(p) => format!(
                "{} {} (+{}, {})",
                self.state,
                clock_time(p.now),
                numbers::span(p.now.since(p.start).as_secs_f64()),
                numbers::percent(p.fraction())
            ),
            None => format!("{} {}", self.state, clock_time(self.start)),
        };
        let mut spans = vec![
            Span::styled(clock, t.header()),
            Span::styled(format!(" · {} · seed {} · {}", self.speed, self.seed, self.variant), t.dim()),
            Span::raw(" │ "),
        ];
        match self.message {
            Some((text, MessageKind::Error)) => spans.push(Span::styled(text.to_owned(), t.bad())),
            Some((text, MessageKind::Info)) => spans.push(Span::styled(text.to_owned(), t.warn())),
            None => {
                for (key, what) in self.hints {
                    spans.push(Span::styled(key.clone(), t.key()));
                    spans.push(Span::raw(format!(" {what}  ")));
                }
            }
        }
        Paragraph::new(Line::from(spans)).render(area, buf);
    }
}
