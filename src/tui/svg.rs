//! A ratatui `Buffer` as an SVG picture, for slides and the README: a monospace grid with each
//! cell's foreground and background colour, bold/italic/underline/dim, box-drawing characters
//! kept as text, and the block elements the heatmap uses (`▀ ▄ █`) drawn as exact rectangles so
//! the picture has no font gaps. Pure: a buffer in, a string out.

use std::fmt::Write as _;

use ratatui::buffer::{Buffer, Cell};
use ratatui::style::{Color, Modifier, Style};

use super::theme::ansi_number;

/// Cell size in pixels; a monospace font at 15 px advances about 9 px.
const CELL_W: u32 = 9;
const CELL_H: u32 = 18;
const FONT_SIZE: u32 = 15;
/// The picture's own terminal colours where the theme leaves the terminal's (the dark palette).
const DEFAULT_BG: &str = "#1d1f21";
const DEFAULT_FG: &str = "#d8d8d8";

/// The colours a cell that names none is drawn in: the theme's base, else the defaults above.
struct Canvas {
    fg: String,
    bg: String,
}

impl Canvas {
    fn of(base: Style) -> Canvas {
        let pick = |c: Option<Color>, default: &str| c.and_then(css).unwrap_or_else(|| default.to_owned());
        Canvas { fg: pick(base.fg, DEFAULT_FG), bg: pick(base.bg, DEFAULT_BG) }
    }
}

/// The 16 ANSI colours as xterm draws them.
const ANSI: [&str; 16] = [
    "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5", "#7f7f7f",
    "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
];

/// A colour as CSS; `None` for the terminal's default.
pub fn css(color: Color) -> Option<String> {
    match color {
        Color::Rgb(r, g, b) => Some(format!("#{r:02x}{g:02x}{b:02x}")),
        Color::Indexed(i) => Some(indexed(i)),
        named => ansi_number(named).map(|i| ANSI[usize::from(i)].to_owned()),
    }
}

/// xterm's 256-colour palette: 16 ANSI, a 6×6×6 cube, 24 greys.
fn indexed(i: u8) -> String {
    match i {
        0..=15 => ANSI[usize::from(i)].to_owned(),
        16..=231 => {
            let n = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            format!("#{:02x}{:02x}{:02x}", level(n / 36), level(n / 6 % 6), level(n % 6))
        }
        232..=255 => {
            let v = 8 + 10 * (i - 232);
            format!("#{v:02x}{v:02x}{v:02x}")
        }
    }
}

/// `text` safe inside an XML element or attribute; characters XML 1.0 forbids become spaces.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The colours a cell shows, after `REVERSED`.
fn colors(cell: &Cell, canvas: &Canvas) -> (String, String) {
    let fg = css(cell.fg).unwrap_or_else(|| canvas.fg.clone());
    let bg = css(cell.bg).unwrap_or_else(|| canvas.bg.clone());
    if cell.modifier.contains(Modifier::REVERSED) { (bg, fg) } else { (fg, bg) }
}

/// A block element as (top, height) in eighths of the cell, drawn in the foreground colour.
fn block_element(symbol: &str) -> Option<(u32, u32)> {
    match symbol {
        "▀" => Some((0, 4)),
        "▄" => Some((4, 4)),
        "█" => Some((0, 8)),
        _ => None,
    }
}

#[derive(PartialEq)]
struct TextStyle {
    fg: String,
    modifier: Modifier,
}

/// The picture of `buf`; cells that name no colour take `base`'s (the theme's screen colours).
pub fn render(buf: &Buffer, base: Style) -> String {
    let canvas = Canvas::of(base);
    let area = buf.area;
    let (w, h) = (u32::from(area.width) * CELL_W, u32::from(area.height) * CELL_H);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = write!(out, r#"<rect width="{w}" height="{h}" fill="{}"/>"#, canvas.bg);
    let _ = write!(
        out,
        r#"<g font-family="'DejaVu Sans Mono','Menlo','Consolas',monospace" font-size="{FONT_SIZE}" xml:space="preserve">"#
    );
    for row in 0..area.height {
        let cells: Vec<&Cell> = (0..area.width).map(|x| &buf[(area.x + x, area.y + row)]).collect();
        let y = u32::from(row) * CELL_H;
        backgrounds(&cells, y, &canvas, &mut out);
        blocks(&cells, y, &canvas, &mut out);
        texts(&cells, y, &canvas, &mut out);
    }
    out.push_str("</g></svg>\n");
    out
}

/// Runs of one background colour (other than the default) as rectangles.
fn backgrounds(cells: &[&Cell], y: u32, canvas: &Canvas, out: &mut String) {
    let mut x = 0;
    while x < cells.len() {
        let bg = colors(cells[x], canvas).1;
        let mut end = x + 1;
        while end < cells.len() && colors(cells[end], canvas).1 == bg {
            end += 1;
        }
        if bg != canvas.bg {
            let _ = write!(
                out,
                r#"<rect x="{}" y="{y}" width="{}" height="{CELL_H}" fill="{bg}"/>"#,
                px(x),
                px(end - x)
            );
        }
        x = end;
    }
}

/// Unicode's braille dot numbering: bits 0-2 are the left column top down, 3-5 the right column,
/// 6-7 the bottom row.
const BRAILLE_DOTS: [(u32, u32); 8] = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3)];

/// The dots of a braille pattern (U+2800..U+28FF) as (column, row) in its 2×4 grid; charts draw
/// with them, and fonts disagree on their width.
fn braille_dots(symbol: &str) -> Option<Vec<(u32, u32)>> {
    let mut chars = symbol.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else { return None };
    let bits = u32::from(c).checked_sub(0x2800).filter(|&b| b <= 0xff)?;
    Some(BRAILLE_DOTS.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, &d)| d).collect())
}

fn blocks(cells: &[&Cell], y: u32, canvas: &Canvas, out: &mut String) {
    for (x, cell) in cells.iter().enumerate() {
        if let Some(dots) = braille_dots(cell.symbol()) {
            let fg = colors(cell, canvas).0;
            for (col, row) in dots {
                let _ = write!(
                    out,
                    r#"<rect x="{}" y="{}" width="2" height="2" fill="{fg}"/>"#,
                    px(x) + 2 + col * 4,
                    y + 2 + row * 4
                );
            }
        }
        if let Some((top, height)) = block_element(cell.symbol()) {
            let fg = colors(cell, canvas).0;
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="{CELL_W}" height="{}" fill="{fg}"/>"#,
                px(x),
                y + top * CELL_H / 8,
                height * CELL_H / 8
            );
        }
    }
}

/// Runs of one text style as `<text>` stretched to exactly their cells, so the grid holds
/// whatever font the viewer substitutes.
fn texts(cells: &[&Cell], y: u32, canvas: &Canvas, out: &mut String) {
    let style_of =
        |c: &Cell| TextStyle { fg: colors(c, canvas).0, modifier: c.modifier - Modifier::REVERSED };
    let drawn = |c: &Cell| block_element(c.symbol()).is_some() || braille_dots(c.symbol()).is_some();
    let blank = |c: &Cell| c.symbol().trim().is_empty() || drawn(c);
    let mut x = 0;
    while x < cells.len() {
        if blank(cells[x]) {
            x += 1;
            continue;
        }
        let style = style_of(cells[x]);
        let mut end = x + 1;
        while end < cells.len()
            && block_element(cells[end].symbol()).is_none()
            && style_of(cells[end]) == style
        {
            end += 1;
        }
        // Trailing blanks carry nothing.
        while end > x + 1 && blank(cells[end - 1]) {
            end -= 1;
        }
        let text: String =
            cells[x..end].iter().map(|c| if c.symbol().is_empty() { " " } else { c.symbol() }).collect();
        let mut attrs = String::new();
        if style.modifier.contains(Modifier::BOLD) {
            attrs.push_str(r#" font-weight="bold""#);
        }
        if style.modifier.contains(Modifier::ITALIC) {
            attrs.push_str(r#" font-style="italic""#);
        }
        if style.modifier.contains(Modifier::UNDERLINED) {
            attrs.push_str(r#" text-decoration="underline""#);
        }
        if style.modifier.contains(Modifier::DIM) {
            attrs.push_str(r#" opacity="0.6""#);
        }
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" textLength="{}" lengthAdjust="spacingAndGlyphs" fill="{}"{attrs}>{}</text>"#,
            px(x),
            y + CELL_H * 13 / 18,
            px(end - x),
            style.fg,
            escape(&text)
        );
        x = end;
    }
}

fn px(cells: usize) -> u32 {
    u32::try_from(cells).unwrap_or(u32::MAX / CELL_W) * CELL_W
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn escapes_xml() {
        let cases = [
            ("a<b>&c", "a&lt;b&gt;&amp;c"),
            (r#""q" 'a'"#, "&quot;q&quot; &apos;a&apos;"),
            ("tab\there\u{1}", "tab here "),
            ("┌─✔ ▀", "┌─✔ ▀"),
        ];
        for (text, want) in cases {
            assert_eq!(escape(text), want, "{text:?}");
        }
    }

    #[test]
    fn maps_colours() {
        let cases = [
            (Color::Reset, None),
            (Color::Red, Some("#cd0000")),
            (Color::Rgb(0xfd, 0xe7, 0x25), Some("#fde725")),
            (Color::Indexed(4), Some("#0000ee")),
            (Color::Indexed(16), Some("#000000")),
            (Color::Indexed(196), Some("#ff0000")),
            (Color::Indexed(231), Some("#ffffff")),
            (Color::Indexed(232), Some("#080808")),
            (Color::Indexed(255), Some("#eeeeee")),
        ];
        for (color, want) in cases {
            assert_eq!(css(color).as_deref(), want, "{color:?}");
        }
    }

    #[test]
    fn draws_a_small_buffer() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 2));
        buf.set_string(0, 0, "a<b", Style::new().fg(Color::Red).add_modifier(Modifier::BOLD));
        buf.set_string(4, 0, "▀", Style::new().fg(Color::Rgb(1, 2, 3)).bg(Color::Rgb(4, 5, 6)));
        buf.set_string(0, 1, "┌─┐", Style::new().bg(Color::Blue));
        let svg = render(&buf, Style::new());
        assert!(
            svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="54" height="36""#),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>\n"));
        // Bold red text, escaped, stretched over its three cells.
        assert!(
            svg.contains(r##"<text x="0" y="13" textLength="27" lengthAdjust="spacingAndGlyphs" fill="#cd0000" font-weight="bold">a&lt;b</text>"##),
            "{svg}"
        );
        // The half block: its background cell, then its upper half in the foreground colour.
        assert!(svg.contains(r##"<rect x="36" y="0" width="9" height="18" fill="#040506"/>"##), "{svg}");
        assert!(svg.contains(r##"<rect x="36" y="0" width="9" height="9" fill="#010203"/>"##), "{svg}");
        // Box drawing stays text, on its blue background run.
        assert!(svg.contains(r##"<rect x="0" y="18" width="27" height="18" fill="#0000ee"/>"##), "{svg}");
        assert!(svg.contains(">┌─┐</text>"), "{svg}");
        assert!(!svg.contains("▀"));
    }

    #[test]
    fn braille_becomes_dots() {
        assert_eq!(braille_dots("⠀"), Some(vec![]));
        assert_eq!(braille_dots("⠁"), Some(vec![(0, 0)]));
        assert_eq!(braille_dots("⣀"), Some(vec![(0, 3), (1, 3)]));
        assert_eq!(braille_dots("⠒").map(|d| d.len()), Some(2));
        assert_eq!(braille_dots("⣿").map(|d| d.len()), Some(8));
        assert_eq!(braille_dots("a"), None);
        assert_eq!(braille_dots("⠁⠁"), None);
        let mut buf = Buffer::empty(Rect::new(0, 0, 2, 1));
        buf.set_string(1, 0, "⠁", Style::new().fg(Color::Red));
        let svg = render(&buf, Style::new());
        assert!(svg.contains(r##"<rect x="11" y="2" width="2" height="2" fill="#cd0000"/>"##), "{svg}");
        assert!(!svg.contains("<text"), "{svg}");
    }

    #[test]
    fn reversed_swaps_colours() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 1));
        buf.set_string(0, 0, "x", Style::new().add_modifier(Modifier::REVERSED));
        let svg = render(&buf, Style::new());
        assert!(svg.contains(&format!(r#"fill="{DEFAULT_FG}"/>"#)), "{svg}");
        assert!(svg.contains(&format!(r#"fill="{DEFAULT_BG}">x</text>"#)), "{svg}");
    }
}
