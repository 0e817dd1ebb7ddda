//! The workbench's panels, one file each. Every panel is a small struct borrowing what it shows
//! and implementing `Widget`; the arithmetic behind a picture (half-block packing, forecasts)
//! sits beside it in pure functions with tests.

pub mod goals;
pub mod heatmap;
pub mod indexes;
pub mod lesson;
pub mod patterns;
pub mod quiz;
pub mod schema;
pub mod sizes;
pub mod status;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Widget, Wrap};

use super::action::Panel;
use super::theme::Theme;
use crate::engine::time::SimTime;

/// The bordered block every panel sits in, titled exactly with the panel's name.
pub fn block(panel: Panel, focused: bool, theme: Theme) -> Block<'static> {
    framed(panel.title(), focused, theme)
}

pub fn framed(title: &str, focused: bool, theme: Theme) -> Block<'static> {
    Block::bordered()
        .border_type(if focused { BorderType::Thick } else { BorderType::Plain })
        .border_style(theme.border(focused))
        .title(Span::styled(title.to_owned(), theme.title(focused)))
}

/// Lines of text in a block, wrapped, scrolled by `scroll` lines.
pub fn text(lines: Vec<Line<'_>>, block: Block<'_>, scroll: u16, area: Rect, buf: &mut Buffer) {
    Paragraph::new(lines).block(block).wrap(Wrap { trim: false }).scroll((scroll, 0)).render(area, buf);
}

/// `03-01 14:05` (UTC): the month, day and minute a heatmap column or the clock shows.
pub fn short_time(t: SimTime) -> String {
    let c = t.civil();
    format!("{:02}-{:02} {:02}:{:02}", c.date.month(), c.date.day(), c.hour, c.minute)
}

/// `2025-03-01 14:05:09` (UTC).
pub fn clock_time(t: SimTime) -> String {
    let c = t.civil();
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        c.date.year(),
        c.date.month(),
        c.date.day(),
        c.hour,
        c.minute,
        c.second
    )
}

/// "—": a figure that needs a replay that has not produced it yet.
pub const PENDING: &str = "—";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_utc() {
        let t = SimTime::parse("2025-03-01T14:05:09Z").unwrap();
        assert_eq!(short_time(t), "03-01 14:05");
        assert_eq!(clock_time(t), "2025-03-01 14:05:09");
    }
}
