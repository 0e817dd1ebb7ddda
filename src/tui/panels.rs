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
pub mod shards;
pub mod sizes;
pub mod status;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Widget, Wrap};

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

/// A panel collapsed to one row to leave its place to another: a rule with its title and a
/// one-line `summary`, of which what does not fit is left out. A click on it focuses the
/// panel, which then takes the room.
pub fn collapsed(panel: Panel, summary: Vec<Chunk>, area: Rect, buf: &mut Buffer, theme: Theme) {
    let mut chunks = vec![Chunk::new("", vec![Span::styled(panel.title().to_owned(), theme.title(false))])];
    let mut summary = summary.into_iter();
    // The summary's first chunk goes with the title, so that it is never left out.
    if let Some(first) = summary.next() {
        chunks[0].spans.push(Span::raw(" · "));
        chunks[0].spans.extend(first.spans);
    }
    chunks.extend(summary);
    let title = one_line(chunks, usize::from(area.width));
    Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border(false))
        .title(title)
        .render(Rect { height: area.height.min(1), ..area }, buf);
}

/// Empties `area` for a box drawn over the screen, to the theme's background (ratatui's `Clear`
/// alone leaves the terminal's, which is wrong under a light palette).
pub fn clear(area: Rect, buf: &mut Buffer, theme: Theme) {
    Clear.render(area, buf);
    buf.set_style(area, theme.base());
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

/// Columns `text` takes on a terminal (ASCII is one each; the rest asks ratatui's measure).
pub fn width_of(text: &str) -> usize {
    if text.is_ascii() { text.len() } else { Span::raw(text).width() }
}

/// `text` cut to at most `width` columns, ending in `…` when anything was cut.
pub fn ellipsize(text: &str, width: usize) -> String {
    if width_of(text) <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = if c.is_ascii() { 1 } else { width_of(c.encode_utf8(&mut [0; 4])) };
        // One column stays free for the ellipsis.
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    if width > 0 {
        out.push('…');
    }
    out
}

/// `chunks` on one line `width` wide: the first (cut with an ellipsis when it must be), then
/// those of the rest that fit, in order.
pub fn one_line(chunks: Vec<Chunk>, width: usize) -> Line<'static> {
    let mut chunks = chunks.into_iter();
    let Some(first) = chunks.next() else { return Line::default() };
    let mut line = flow(vec![first], width, 0).pop().unwrap_or_default();
    let mut used = line.width();
    for chunk in chunks {
        let w = width_of(chunk.sep) + chunk.width();
        if used + w <= width {
            used += w;
            line.spans.push(Span::raw(chunk.sep));
            line.spans.extend(chunk.spans);
        }
    }
    line
}

/// A piece of a line that is never split: `sep` goes before it unless it starts a line.
pub struct Chunk {
    pub sep: &'static str,
    pub spans: Vec<Span<'static>>,
}

impl Chunk {
    pub fn new(sep: &'static str, spans: Vec<Span<'static>>) -> Chunk {
        Chunk { sep, spans }
    }

    fn width(&self) -> usize {
        self.spans.iter().map(|s| width_of(&s.content)).sum()
    }
}

/// Lays `chunks` out in lines at most `width` columns wide, each chunk whole: one that does not
/// fit on the current line starts the next, after `indent` spaces; one wider than a line is cut
/// with an ellipsis. A narrow panel shows this instead of a word cut in half.
pub fn flow(chunks: Vec<Chunk>, width: usize, indent: usize) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for chunk in chunks {
        let w = chunk.width();
        let sep = width_of(chunk.sep);
        if !line.is_empty() && used + sep + w > width {
            lines.push(Line::from(std::mem::take(&mut line)));
            used = 0;
        }
        if line.is_empty() {
            if !lines.is_empty() && indent > 0 && indent + w <= width {
                line.push(Span::raw(" ".repeat(indent)));
                used = indent;
            }
        } else {
            line.push(Span::raw(chunk.sep));
            used += sep;
        }
        for span in chunk.spans {
            let room = width.saturating_sub(used);
            let w = width_of(&span.content);
            if w <= room {
                used += w;
                line.push(span);
            } else {
                if room > 0 {
                    line.push(Span::styled(ellipsize(&span.content, room), span.style));
                }
                used = width;
                break;
            }
        }
    }
    if !line.is_empty() {
        lines.push(Line::from(line));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect()).collect()
    }

    #[test]
    fn ellipsize_cuts_only_what_does_not_fit() {
        let cases = [
            ("short", 10, "short"),
            ("exactly", 7, "exactly"),
            ("too long", 7, "too lo…"),
            ("x", 0, ""),
            ("fan-out ×2", 9, "fan-out …"),
            ("—", 1, "—"),
        ];
        for (text, width, want) in cases {
            assert_eq!(ellipsize(text, width), want, "{text:?} at {width}");
            assert!(width_of(&ellipsize(text, width)) <= width);
        }
    }

    #[test]
    fn flow_keeps_chunks_whole_and_indents_continuations() {
        let chunks = || {
            vec![
                Chunk::new("", vec![Span::raw("31,125 calls")]),
                Chunk::new(" · ", vec![Span::raw("0.5 RCU each")]),
                Chunk::new(" · ", vec![Span::raw("p99 "), Span::raw("4.2ms/10ms")]),
            ]
        };
        let cases: [(usize, &[&str]); 4] = [
            (80, &["31,125 calls · 0.5 RCU each · p99 4.2ms/10ms"]),
            (30, &["31,125 calls · 0.5 RCU each", "  p99 4.2ms/10ms"]),
            // The indent gives way to a chunk that fits only without it.
            (14, &["31,125 calls", "  0.5 RCU each", "p99 4.2ms/10ms"]),
            (8, &["31,125 …", "0.5 RCU…", "p99 4.2…"]),
        ];
        for (width, want) in cases {
            let lines = flow(chunks(), width, 2);
            let got = plain(&lines);
            assert!(got.iter().all(|l| width_of(l) <= width), "{got:?} wider than {width}");
            assert_eq!(got, want, "at {width}");
        }
        assert!(flow(Vec::new(), 10, 2).is_empty());
    }

    #[test]
    fn times_read_as_utc() {
        let t = SimTime::parse("2025-03-01T14:05:09Z").unwrap();
        assert_eq!(short_time(t), "03-01 14:05");
        assert_eq!(clock_time(t), "2025-03-01 14:05:09");
    }
}
