//! A ratatui `Buffer` as terminal output, for asciinema recordings (`keyheat record`): the first
//! frame drawn whole, each later one as the cells that changed, with cursor moves and SGR colours
//! (24-bit for RGB, the 16 ANSI colours as themselves) — what a terminal backend would write.
//! Pure: buffers in, a string out; no clock, so the same frames give the same bytes.
//!
//! The asciicast v2 file around the frames (a JSON header line, then `[time, "o", data]` event
//! lines) is written by [`Recording`]; times are whatever the caller counts, never the wall clock.
//! Format: <https://docs.asciinema.org/manual/asciicast/v2/>.

use std::fmt::Write as _;

use ratatui::buffer::{Buffer, Cell};
use ratatui::style::{Color, Modifier};
use serde::Serialize;

use super::theme::ansi_number;

/// Hides the cursor, clears the screen and homes: what the first frame starts with.
const START: &str = "\x1b[?25l\x1b[0m\x1b[2J\x1b[H";

/// The output that turns the screen `prev` showed (nothing yet: `None`) into `cur`. Empty when
/// nothing changed. `cur` and `prev` must be of one size.
pub fn frame(prev: Option<&Buffer>, cur: &Buffer) -> String {
    let area = cur.area;
    let mut out = String::new();
    if prev.is_none() {
        out.push_str(START);
    }
    // Where the terminal's cursor is and which style it writes in, as far as this frame knows.
    let mut at: Option<(u16, u16)> = None;
    let mut style: Option<Sgr> = None;
    for y in 0..area.height {
        for x in 0..area.width {
            let cell = &cur[(area.x + x, area.y + y)];
            // The second half of a wide character: the terminal filled it already.
            if cell.symbol().is_empty() {
                at = None;
                continue;
            }
            if prev.is_some_and(|p| p[(p.area.x + x, p.area.y + y)] == *cell) {
                continue;
            }
            if at != Some((x, y)) {
                let _ = write!(out, "\x1b[{};{}H", y + 1, x + 1);
            }
            let sgr = Sgr::of(cell);
            if style != Some(sgr) {
                out.push_str(&sgr.code());
                style = Some(sgr);
            }
            out.push_str(cell.symbol());
            at = Some((x + 1, y));
        }
    }
    if !out.is_empty() {
        out.push_str("\x1b[0m");
    }
    out
}

/// The attributes a cell is written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sgr {
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

impl Sgr {
    fn of(cell: &Cell) -> Sgr {
        Sgr { fg: cell.fg, bg: cell.bg, modifier: cell.modifier }
    }

    /// A full SGR sequence from a reset, so no attribute of the cell before leaks into this one.
    fn code(self) -> String {
        let mut parts = vec!["0".to_owned()];
        for (flag, code) in [
            (Modifier::BOLD, "1"),
            (Modifier::DIM, "2"),
            (Modifier::ITALIC, "3"),
            (Modifier::UNDERLINED, "4"),
            (Modifier::REVERSED, "7"),
            (Modifier::CROSSED_OUT, "9"),
        ] {
            if self.modifier.contains(flag) {
                parts.push(code.to_owned());
            }
        }
        parts.extend(color_code(self.fg, false));
        parts.extend(color_code(self.bg, true));
        format!("\x1b[{}m", parts.join(";"))
    }
}

/// The SGR parameter of a colour (`None` for the terminal's default, which the reset restores).
fn color_code(color: Color, background: bool) -> Option<String> {
    // Foreground 30–37 / 90–97, background 40–47 / 100–107; extended: 38 / 48.
    let (base, bright, extended) = if background { (40, 100, 48) } else { (30, 90, 38) };
    match color {
        Color::Indexed(i) => Some(format!("{extended};5;{i}")),
        Color::Rgb(r, g, b) => Some(format!("{extended};2;{r};{g};{b}")),
        named => ansi_number(named).map(|i| if i < 8 { base + i } else { bright + i - 8 }.to_string()),
    }
}

/// The header line of an asciicast v2 file. No `timestamp`: a recording made twice is the same
/// file.
#[derive(Serialize)]
struct Header<'a> {
    version: u8,
    width: u16,
    height: u16,
    title: &'a str,
    env: Env,
}

#[derive(Serialize)]
struct Env {
    #[serde(rename = "TERM")]
    term: &'static str,
}

/// An asciicast v2 recording being written: a header, then one output event per changed frame.
pub struct Recording {
    out: Vec<u8>,
    last: Option<Buffer>,
}

impl Recording {
    /// # Panics
    /// Never: a header of plain fields always serializes.
    pub fn new(width: u16, height: u16, title: &str) -> Recording {
        let header = Header { version: 2, width, height, title, env: Env { term: "xterm-256color" } };
        let mut out = serde_json::to_vec(&header).expect("a header of plain fields serializes");
        out.push(b'\n');
        Recording { out, last: None }
    }

    /// Adds `screen` as it looks `millis` into the recording (times must not go back); a frame
    /// that changes nothing adds no event.
    ///
    /// # Panics
    /// Never: a number and two strings always serialize.
    pub fn frame(&mut self, millis: u64, screen: Buffer) {
        let data = frame(self.last.as_ref(), &screen);
        if !data.is_empty() {
            // Whole milliseconds as seconds: 0.2, 1.4 — exact in decimal, shortest in JSON.
            #[allow(clippy::cast_precision_loss)]
            let time = millis as f64 / 1000.0;
            let event = serde_json::to_vec(&(time, "o", data)).expect("a number and strings serialize");
            self.out.extend(event);
            self.out.push(b'\n');
        }
        self.last = Some(screen);
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn colours_and_modifiers_become_sgr() {
        let cases = [
            (Style::new(), "\x1b[0m"),
            (Style::new().fg(Color::Red), "\x1b[0;31m"),
            (Style::new().fg(Color::DarkGray).bg(Color::White), "\x1b[0;90;107m"),
            (
                Style::new().fg(Color::Rgb(253, 231, 37)).bg(Color::Rgb(0, 0, 0)),
                "\x1b[0;38;2;253;231;37;48;2;0;0;0m",
            ),
            (Style::new().bg(Color::Indexed(196)), "\x1b[0;48;5;196m"),
            (Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED), "\x1b[0;1;7m"),
        ];
        for (style, want) in cases {
            let mut buf = Buffer::empty(Rect::new(0, 0, 1, 1));
            buf.set_string(0, 0, "x", style);
            assert_eq!(Sgr::of(&buf[(0, 0)]).code(), want, "{style:?}");
        }
    }

    #[test]
    fn the_first_frame_is_whole_and_later_ones_carry_only_changes() {
        let area = Rect::new(0, 0, 4, 2);
        let mut a = Buffer::empty(area);
        a.set_string(0, 0, "ab", Style::new().fg(Color::Green));
        let first = frame(None, &a);
        assert!(first.starts_with(START), "{first:?}");
        assert!(first.contains("\x1b[0;32mab\x1b[0m  "), "{first:?}");
        assert_eq!(frame(Some(&a), &a), "", "nothing changed, nothing written");
        let mut b = a.clone();
        b.set_string(3, 1, "z", Style::new());
        assert_eq!(frame(Some(&a), &b), "\x1b[2;4H\x1b[0mz\x1b[0m");
        // Two changes apart: the cursor moves between them.
        let mut c = b.clone();
        c.set_string(0, 0, "A", Style::new().fg(Color::Green));
        c.set_string(2, 0, "C", Style::new().fg(Color::Green));
        assert_eq!(frame(Some(&b), &c), "\x1b[1;1H\x1b[0;32mA\x1b[1;3HC\x1b[0m");
    }

    #[test]
    fn a_recording_is_a_header_and_timed_events_of_changed_frames() {
        let area = Rect::new(0, 0, 3, 1);
        let mut r = Recording::new(3, 1, "t");
        let mut screen = Buffer::empty(area);
        screen.set_string(0, 0, "a", Style::new());
        r.frame(0, screen.clone());
        r.frame(200, screen.clone());
        screen.set_string(1, 0, "b", Style::new());
        r.frame(400, screen);
        let text = String::from_utf8(r.into_bytes()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"version":2,"width":3,"height":1,"title":"t","env":{"TERM":"xterm-256color"}}"#
        );
        assert_eq!(lines.len(), 3, "the unchanged frame adds no event: {lines:?}");
        assert!(lines[1].starts_with(r#"[0.0,"o",""#), "{}", lines[1]);
        assert_eq!(lines[2], r#"[0.4,"o","\u001b[1;2H\u001b[0mb\u001b[0m"]"#);
    }
}
