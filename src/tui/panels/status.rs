//! The status line: the simulated clock, speed, seed and variant, then either the latest message
//! or key hints (looked up in the key table, so they cannot name a key that does nothing).
//!
//! Nothing is cut mid-word: hints that do not fit are left out, least important first (the rest
//! keep their order), and a message too long for the line ends in an ellipsis.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{clock_time, ellipsize, width_of};
use crate::engine::planner::numbers;
use crate::engine::time::SimTime;
use crate::tui::theme::Theme;
use crate::tui::view::Progress;

/// A key hint: `space pause`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    pub key: String,
    pub what: &'static str,
    /// Lower stays longer when the line is short.
    pub priority: u8,
}

/// Columns a hint takes, with the gap after it.
fn hint_width(h: &Hint) -> usize {
    width_of(&h.key) + 1 + width_of(h.what) + 2
}

/// Which hints fit in `width` columns: the most important first, shown in their own order.
pub fn fit_hints(hints: &[Hint], width: usize) -> Vec<&Hint> {
    let mut by_priority: Vec<usize> = (0..hints.len()).collect();
    by_priority.sort_by_key(|&i| hints[i].priority);
    let mut used = 0;
    let mut keep = vec![false; hints.len()];
    for i in by_priority {
        let w = hint_width(&hints[i]);
        // The last hint's trailing gap may fall off the edge.
        if used + w - 2 <= width {
            used += w;
            keep[i] = true;
        }
    }
    hints.iter().zip(keep).filter_map(|(h, k)| k.then_some(h)).collect()
}

/// The hints that fit in `width` columns as spans: `key` styled, then what it does.
pub fn hint_spans(hints: &[Hint], width: usize, theme: Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    for h in fit_hints(hints, width) {
        spans.push(Span::styled(h.key.clone(), theme.key()));
        spans.push(Span::raw(format!(" {}  ", h.what)));
    }
    spans
}

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
    /// The store the run replays on (`Cosmos DB`): the file's own, or the one `--engine` chose.
    pub store: &'a str,
    pub message: Option<(&'a str, MessageKind)>,
    pub hints: &'a [Hint],
    pub theme: Theme,
}

impl Widget for StatusLine<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let time = match self.progress {
            Some(p) => format!("{} {}", self.state, clock_time(p.now)),
            None => format!("{} {}", self.state, clock_time(self.start)),
        };
        let progress = self.progress.map(|p| {
            format!(
                " (+{}, {})",
                numbers::span(p.now.since(p.start).as_secs_f64()),
                numbers::percent(p.fraction())
            )
        });
        let width = usize::from(area.width);
        let seed = format!(" · seed {}", self.seed);
        let tail = format!(" · {}", self.variant);
        let pace = format!(" · {}", self.speed);
        let store = format!(" · {}", self.store);
        // The head gives way to the hints that matter most (help, play/pause): first the seed,
        // then the progress in brackets, then the store; the clock, speed and variant stay.
        let heads = [
            (progress.clone().unwrap_or_default(), format!("{pace}{store}{seed}{tail}")),
            (progress.clone().unwrap_or_default(), format!("{pace}{store}{tail}")),
            (String::new(), format!("{pace}{store}{tail}")),
            (String::new(), format!("{pace}{tail}")),
        ];
        let room_after = |(progress, meta): &(String, String)| {
            width.saturating_sub(width_of(&time) + width_of(progress) + width_of(meta) + 3)
        };
        let essential = self.hints.iter().filter(|h| h.priority <= 1).count();
        let fits = |head: &(String, String)| {
            self.message.is_some()
                || fit_hints(self.hints, room_after(head)).iter().filter(|h| h.priority <= 1).count()
                    == essential
        };
        let (progress, meta) = heads.iter().find(|h| fits(h)).unwrap_or(&heads[heads.len() - 1]);
        let clock = format!("{time}{progress}");
        let head = ellipsize(&format!("{clock}{meta}"), width);
        let room = width.saturating_sub(width_of(&head) + 3);
        let mut spans = vec![
            Span::styled(head.get(..clock.len()).unwrap_or(&head).to_owned(), t.header()),
            Span::styled(head.get(clock.len()..).unwrap_or_default().to_owned(), t.dim()),
            Span::raw(" │ "),
        ];
        match self.message {
            Some((text, kind)) => {
                let style = if kind == MessageKind::Error { t.bad() } else { t.warn() };
                spans.push(Span::styled(ellipsize(text, room), style));
            }
            None => spans.extend(hint_spans(self.hints, room, t)),
        }
        Paragraph::new(Line::from(spans)).render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints() -> Vec<Hint> {
        [
            ("space", "pause", 1),
            ("e", "edit", 3),
            ("v", "variant", 4),
            ("c", "compare", 5),
            ("?", "help", 0),
            ("q", "quit", 2),
        ]
        .into_iter()
        .map(|(key, what, priority)| Hint { key: key.to_owned(), what, priority })
        .collect()
    }

    fn shown(width: usize) -> Vec<&'static str> {
        fit_hints(&hints(), width).iter().map(|h| h.what).collect()
    }

    #[test]
    fn short_lines_drop_the_least_important_hints_first() {
        let cases: [(usize, &[&str]); 6] = [
            (200, &["pause", "edit", "variant", "compare", "help", "quit"]),
            (40, &["pause", "edit", "help", "quit"]),
            (20, &["pause", "help"]),
            (6, &["help"]),
            (5, &[]),
            (0, &[]),
        ];
        for (width, want) in cases {
            assert_eq!(shown(width), want, "at {width}");
        }
    }

    fn line(width: u16, message: Option<(&str, MessageKind)>, speed: &str) -> String {
        let area = Rect::new(0, 0, width, 1);
        let mut buf = Buffer::empty(area);
        let hints = hints();
        let start = SimTime::parse("2025-01-01T00:00:00Z").expect("a valid time");
        let progress = Progress {
            start,
            now: start + crate::engine::time::SimDuration::from_secs(65_000),
            end: start + crate::engine::time::SimDuration::from_secs(30 * 86_400),
            tick: crate::engine::time::SimDuration::from_secs(60),
        };
        StatusLine {
            state: "▶",
            progress: Some(progress),
            start,
            speed,
            seed: 7,
            variant: "naive",
            store: "Cosmos DB",
            message,
            hints: &hints,
            theme: Theme::MONO,
        }
        .render(area, &mut buf);
        (0..width).map(|x| buf[(x, 0)].symbol()).collect::<String>().trim_end().to_owned()
    }

    #[test]
    fn the_line_ends_on_a_whole_hint_or_an_ellipsis() {
        let whole = ["help", "quit", "pause", "edit", "variant", "compare"];
        for speed in ["1h/s", "max speed"] {
            for width in [80, 100, 120] {
                let text = line(width, None, speed);
                assert!(whole.iter().any(|w| text.ends_with(w)), "{text:?} at {width}");
                assert!(text.contains("? help") && text.contains("space pause"), "{text:?} at {width}");
                assert!(text.contains(speed) && text.contains("naive"), "{text:?} at {width}");
            }
        }
        // Wide: everything. Narrow: the seed goes before play/pause would, the store stays.
        assert!(line(120, None, "max speed").contains("· Cosmos DB · seed 7 · naive"));
        let narrow = line(80, None, "max speed");
        assert!(!narrow.contains("seed"), "{narrow}");
        assert!(narrow.starts_with("▶ 2025-01-01 18:03:20 · max speed · Cosmos DB · naive │"), "{narrow}");
        // With a shorter speed and a wider line the progress in brackets and the seed fit too.
        let narrow = line(100, None, "1h/s");
        assert!(narrow.starts_with("▶ 2025-01-01 18:03:20 (+18 h"), "{narrow}");
        assert!(narrow.contains(") · 1h/s · Cosmos DB · seed 7 · naive │"), "{narrow}");
        let long = "the replay reached the end of the workload and this message goes on well past the edge";
        let text = line(80, Some((long, MessageKind::Info)), "1h/s");
        assert!(text.ends_with('…'), "{text}");
        assert_eq!(text.chars().count(), 80);
    }
}
