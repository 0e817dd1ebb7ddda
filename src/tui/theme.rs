//! Colours and styles, and the heatmap's colour ramps. One place decides what colour means so the
//! panels stay readable in each of the three palettes — `dark` (the terminal's own colours, as
//! keyheat always looked), `light` (for light terminals and slides) and `high-contrast` (for a
//! projector) — and with `NO_COLOR` (no colour at all: shade characters and bold/reverse carry
//! the meaning instead). Panels never name a colour; they ask the theme for a style.
//!
//! The heatmap's ramp is ordered by lightness in every palette, so "hotter" survives a greyscale
//! projector and the common colour-vision deficiencies:
//! - dark: viridis (Smith & van der Walt, matplotlib's default colormap), perceptually uniform,
//!   dark → bright: on a dark background the hot cells glow.
//! - light: ColorBrewer's sequential YlOrRd, 9 classes (Cynthia Brewer, colorbrewer2.org, marked
//!   there as colour-blind safe), pale → dark: on a white background the cold cells fade into
//!   the page and the hot ones stand out. Viridis reads backwards there (its bright end vanishes
//!   on white, its dark end shouts), which is why the light palette does not reuse it.
//! - high contrast: four levels, keyheat's choice — one shade character each (`░▒▓█`, readable in
//!   black and white) in four xterm-256 colours of rising luminance on black, so a washed-out
//!   projector still shows the order twice.
//!
//! Text colours of the light and high-contrast palettes meet WCAG 2.1's contrast ratios against
//! their background (4.5:1, level AA; 7:1, level AAA for the projector) — a test checks it.

use ratatui::style::{Color, Modifier, Style};

/// The palettes `--theme` and the workbench's theme key choose between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Palette {
    /// The terminal's own colours, heatmap in viridis.
    #[default]
    Dark,
    /// Dark text on white, heatmap in ColorBrewer's YlOrRd.
    Light,
    /// White on black for a projector: strong colours, heatmap in four shaded levels.
    HighContrast,
}

impl Palette {
    pub const ALL: [Palette; 3] = [Palette::Dark, Palette::Light, Palette::HighContrast];

    /// The name `--theme` takes.
    pub fn name(self) -> &'static str {
        match self {
            Palette::Dark => "dark",
            Palette::Light => "light",
            Palette::HighContrast => "high-contrast",
        }
    }

    /// The palette the theme key switches to.
    pub fn next(self) -> Palette {
        let at = Palette::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Palette::ALL[(at + 1) % Palette::ALL.len()]
    }

    fn colors(self) -> &'static Colors {
        match self {
            Palette::Dark => &DARK,
            Palette::Light => &LIGHT,
            Palette::HighContrast => &HIGH_CONTRAST,
        }
    }
}

/// What each role is drawn in, per palette.
struct Colors {
    /// The screen's text and background; `Reset` is the terminal's own.
    fg: Color,
    bg: Color,
    /// Focused borders and key names.
    accent: Color,
    ok: Color,
    bad: Color,
    warn: Color,
    dim: Color,
    /// The heatmap's cursor: a colour its ramp never reaches.
    cursor: Color,
    series: [Color; 5],
}

const DARK: Colors = Colors {
    fg: Color::Reset,
    bg: Color::Reset,
    accent: Color::Cyan,
    ok: Color::Green,
    bad: Color::Red,
    warn: Color::Yellow,
    dim: Color::DarkGray,
    // Viridis never reaches white.
    cursor: Color::Rgb(0xff, 0xff, 0xff),
    series: [Color::Cyan, Color::Yellow, Color::Magenta, Color::Green, Color::Blue],
};

/// GitHub Primer's light-theme text colours (darker steps where the usual ones fall short of 7:1).
const LIGHT: Colors = Colors {
    fg: Color::Rgb(0x1f, 0x23, 0x28),
    bg: Color::Rgb(0xff, 0xff, 0xff),
    accent: Color::Rgb(0x05, 0x50, 0xae),
    ok: Color::Rgb(0x11, 0x63, 0x29),
    bad: Color::Rgb(0xa4, 0x0e, 0x26),
    warn: Color::Rgb(0x7d, 0x4e, 0x00),
    dim: Color::Rgb(0x57, 0x60, 0x6a),
    // Blue: a hue YlOrRd never takes.
    cursor: Color::Rgb(0x05, 0x50, 0xae),
    series: [
        Color::Rgb(0x05, 0x50, 0xae),
        Color::Rgb(0x95, 0x38, 0x00),
        Color::Rgb(0x66, 0x39, 0xba),
        Color::Rgb(0x11, 0x63, 0x29),
        Color::Rgb(0xa4, 0x0e, 0x26),
    ],
};

const HIGH_CONTRAST: Colors = Colors {
    fg: Color::Rgb(0xff, 0xff, 0xff),
    bg: Color::Rgb(0x00, 0x00, 0x00),
    accent: Color::Rgb(0x00, 0xff, 0xff),
    ok: Color::Rgb(0x00, 0xff, 0x00),
    bad: Color::Rgb(0xff, 0x87, 0x87),
    warn: Color::Rgb(0xff, 0xff, 0x00),
    dim: Color::Rgb(0xc6, 0xc6, 0xc6),
    // The cell is drawn reversed as well: the cursor never depends on colour alone.
    cursor: Color::Rgb(0xff, 0x00, 0xff),
    series: [
        Color::Rgb(0x00, 0xff, 0xff),
        Color::Rgb(0xff, 0xff, 0x00),
        Color::Rgb(0xff, 0x87, 0xff),
        Color::Rgb(0x00, 0xff, 0x00),
        Color::Rgb(0x87, 0xd7, 0xff),
    ],
};

/// ColorBrewer YlOrRd, 9 classes (colorbrewer2.org), pale to dark.
const YLORRD: [(u8, u8, u8); 9] = [
    (0xff, 0xff, 0xcc),
    (0xff, 0xed, 0xa0),
    (0xfe, 0xd9, 0x76),
    (0xfe, 0xb2, 0x4c),
    (0xfd, 0x8d, 0x3c),
    (0xfc, 0x4e, 0x2a),
    (0xe3, 0x1a, 0x1c),
    (0xbd, 0x00, 0x26),
    (0x80, 0x00, 0x26),
];

/// The high-contrast levels, one per shade character `░▒▓█`: xterm-256 colours 33, 41, 220 and
/// 231, in rising luminance.
const LEVELS: [(u8, u8, u8); 4] =
    [(0x00, 0x87, 0xff), (0x00, 0xd7, 0x5f), (0xff, 0xd7, 0x00), (0xff, 0xff, 0xff)];

/// A named colour's number among the terminal's 16 (0–7 normal, 8–15 bright), as the SVG and
/// asciinema writers both number them; `None` for the default, indexed and RGB colours.
pub fn ansi_number(color: Color) -> Option<u8> {
    Some(match color {
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        Color::Reset | Color::Indexed(_) | Color::Rgb(..) => return None,
    })
}

/// Viridis at nine evenly spaced points, as R's `viridisLite::viridis(9)` lists them.
const VIRIDIS: [(u8, u8, u8); 9] = [
    (0x44, 0x01, 0x54),
    (0x47, 0x2d, 0x7b),
    (0x3b, 0x52, 0x8b),
    (0x2c, 0x72, 0x8e),
    (0x21, 0x90, 0x8c),
    (0x27, 0xad, 0x81),
    (0x5d, 0xc8, 0x63),
    (0xaa, 0xdc, 0x32),
    (0xfd, 0xe7, 0x25),
];

/// Shade characters from empty to full, for terminals without colour.
const SHADES: [char; 5] = [' ', '░', '▒', '▓', '█'];

/// The colour of intensity `x` (0..=1, clamped; NaN is 0) on the viridis ramp, interpolated
/// linearly between the samples.
pub fn ramp(x: f32) -> (u8, u8, u8) {
    interpolate(&VIRIDIS, x)
}

/// The colour of intensity `x` on `samples`, interpolated linearly between them.
// The casts below are of values clamped to small non-negative ranges first.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn interpolate(samples: &[(u8, u8, u8)], x: f32) -> (u8, u8, u8) {
    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    let scaled = x * (samples.len() - 1) as f32;
    let low = (scaled.floor() as usize).min(samples.len() - 2);
    let t = scaled - low as f32;
    let (a, b) = (samples[low], samples[low + 1]);
    let mix = |p: u8, q: u8| (f32::from(p) + (f32::from(q) - f32::from(p)) * t).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The shade character for intensity `x`: blank only for exactly nothing, so any load shows.
pub fn shade(x: f32) -> char {
    SHADES[level(x)]
}

/// Which of the four quarters `x` falls in (1..=4), 0 for exactly nothing.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn level(x: f32) -> usize {
    if x.is_nan() || x <= 0.0 {
        return 0;
    }
    ((x.clamp(0.0, 1.0) * 4.0).ceil() as usize).clamp(1, 4)
}

/// Styles for everything the UI draws: a palette, with or without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub palette: Palette,
    /// `false` under `NO_COLOR`: whatever the palette, nothing is coloured.
    pub color: bool,
}

impl Theme {
    /// The dark palette in colour: what keyheat draws unless told otherwise.
    pub const DARK: Theme = Theme { palette: Palette::Dark, color: true };
    /// No colour at all (`NO_COLOR`).
    pub const MONO: Theme = Theme { palette: Palette::Dark, color: false };

    /// `palette`, unless `NO_COLOR` is set to anything non-empty (no-color.org): then no colour.
    pub fn new(palette: Palette, no_color: Option<&str>) -> Theme {
        Theme { palette, color: no_color.is_none_or(str::is_empty) }
    }

    /// The dark palette, or none under `NO_COLOR`.
    pub fn from_no_color(no_color: Option<&str>) -> Theme {
        Theme::new(Palette::Dark, no_color)
    }

    /// The same theme in the next palette (`NO_COLOR` still wins).
    #[must_use]
    pub fn next(self) -> Theme {
        Theme { palette: self.palette.next(), ..self }
    }

    fn colors(self) -> &'static Colors {
        self.palette.colors()
    }

    /// Whether the heatmap packs two partitions into a character (`▀`, upper in the foreground,
    /// lower in the background). Without colour, and on the projector where a shade character
    /// carries each level, a character holds one partition.
    pub fn half_blocks(self) -> bool {
        self.color && self.palette != Palette::HighContrast
    }

    /// The screen's own text and background: drawn under everything, so a light palette is light
    /// on any terminal (and in an SVG or a recording).
    pub fn base(self) -> Style {
        let c = self.colors();
        if self.color { Style::new().fg(c.fg).bg(c.bg) } else { Style::new() }
    }

    /// The heatmap colour of intensity `x` (0..=1).
    pub fn heat(self, x: f32) -> Color {
        if !self.color {
            return Color::Reset;
        }
        let (r, g, b) = match self.palette {
            Palette::Dark => ramp(x),
            Palette::Light => interpolate(&YLORRD, x),
            // Exactly nothing is the background.
            Palette::HighContrast => match level(x) {
                0 => return self.colors().bg,
                n => LEVELS[n - 1],
            },
        };
        Color::Rgb(r, g, b)
    }

    /// A heatmap cell of one partition (without half blocks): its shade character, coloured in
    /// the high-contrast palette.
    pub fn shaded_cell(self, x: f32) -> (char, Style) {
        (shade(x), self.fg(self.heat(x)))
    }

    /// The heatmap cursor's colour (half blocks) — one its ramp never reaches.
    pub fn cursor(self) -> Color {
        if self.color { self.colors().cursor } else { Color::Reset }
    }

    /// The heatmap cursor on a shaded cell: reversed, and coloured where there is colour.
    pub fn cursor_cell(self) -> Style {
        self.fg(self.cursor()).add_modifier(Modifier::REVERSED)
    }

    fn fg(self, color: Color) -> Style {
        if self.color { Style::new().fg(color) } else { Style::new() }
    }

    pub fn border(self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::new().fg(self.colors().accent).add_modifier(Modifier::BOLD),
            (true, false) => Style::new().add_modifier(Modifier::BOLD),
            (false, _) => Style::new(),
        }
    }

    pub fn title(self, focused: bool) -> Style {
        self.border(focused).add_modifier(Modifier::BOLD)
    }

    pub fn ok(self) -> Style {
        self.fg(self.colors().ok)
    }

    pub fn bad(self) -> Style {
        self.fg(self.colors().bad).add_modifier(Modifier::BOLD)
    }

    pub fn warn(self) -> Style {
        self.fg(self.colors().warn)
    }

    pub fn dim(self) -> Style {
        self.fg(self.colors().dim)
    }

    pub fn key(self) -> Style {
        self.fg(self.colors().accent).add_modifier(Modifier::BOLD)
    }

    pub fn header(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn selected(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    /// A text cursor (the editor's, a prompt's): reversed in every palette, so the same with or
    /// without colour.
    pub const fn text_cursor() -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    /// Selected text in the editor (reversed and dim in every palette).
    pub const fn selection() -> Style {
        Style::new().add_modifier(Modifier::REVERSED.union(Modifier::DIM))
    }

    /// Text with nothing to say about it (a plain line among styled ones).
    pub fn plain(self) -> Style {
        Style::new()
    }

    /// The place an error points at (the editor's underline).
    pub fn mark(self) -> Style {
        Style::new().add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
    }

    pub fn limit(self) -> Style {
        self.fg(self.colors().bad)
    }

    pub fn error(self) -> Style {
        self.bad()
    }

    /// One colour per series of a chart, told apart by marker and legend as well.
    pub fn series(self, i: usize) -> Style {
        let series = &self.colors().series;
        self.fg(series[i % series.len()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_hits_its_samples_and_stays_monotonic_in_lightness() {
        assert_eq!(ramp(0.0), VIRIDIS[0]);
        assert_eq!(ramp(1.0), VIRIDIS[8]);
        assert_eq!(ramp(0.5), VIRIDIS[4]);
        assert_eq!(ramp(-3.0), VIRIDIS[0]);
        assert_eq!(ramp(7.0), VIRIDIS[8]);
        assert_eq!(ramp(f32::NAN), VIRIDIS[0]);
        // Relative luminance (Rec. 709 weights) rises along the ramp: brighter means hotter.
        let luma =
            |(r, g, b): (u8, u8, u8)| 0.2126 * f32::from(r) + 0.7152 * f32::from(g) + 0.0722 * f32::from(b);
        let mut last = -1.0;
        for i in 0..=100 {
            let l = luma(ramp(i as f32 / 100.0));
            assert!(l >= last - 0.5, "luma falls at {i}: {l} < {last}");
            last = l;
        }
    }

    #[test]
    fn shades_step_in_quarters_and_any_load_shows() {
        let cases = [
            (0.0, ' '),
            (f32::NAN, ' '),
            (1e-6, '░'),
            (0.25, '░'),
            (0.26, '▒'),
            (0.5, '▒'),
            (0.75, '▓'),
            (0.9, '█'),
            (2.0, '█'),
        ];
        for (x, c) in cases {
            assert_eq!(shade(x), c, "{x}");
        }
    }

    #[test]
    fn no_color_means_no_colour_in_every_palette() {
        assert!(Theme::from_no_color(None).color);
        assert!(Theme::from_no_color(Some("")).color);
        for palette in Palette::ALL {
            let mono = Theme::new(palette, Some("1"));
            assert!(!mono.color);
            assert_eq!(mono.heat(0.7), Color::Reset);
            assert_eq!(mono.ok().fg, None);
            assert_eq!(mono.base(), Style::new());
            assert_eq!(mono.shaded_cell(0.7).1.fg, None);
            assert!(!mono.half_blocks());
        }
    }

    #[test]
    fn the_theme_key_visits_every_palette_and_comes_back() {
        let mut t = Theme::DARK;
        let mut seen = Vec::new();
        for _ in 0..Palette::ALL.len() {
            seen.push(t.palette);
            t = t.next();
        }
        assert_eq!(seen, Palette::ALL);
        assert_eq!(t, Theme::DARK);
        assert!(!Theme::MONO.next().color, "NO_COLOR survives the key");
    }

    /// WCAG 2.1 relative luminance of an sRGB colour.
    fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.039_28 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    fn rgb(c: Color) -> (u8, u8, u8) {
        match c {
            Color::Rgb(r, g, b) => (r, g, b),
            other => panic!("{other:?} is not an RGB colour"),
        }
    }

    #[test]
    fn text_meets_wcag_contrast_in_the_light_and_projector_palettes() {
        // WCAG 2.1: 4.5:1 for level AA (1.4.3), 7:1 for AAA (1.4.6).
        for (palette, least) in [(Palette::Light, 4.5), (Palette::HighContrast, 7.0)] {
            let c = palette.colors();
            let bg = luminance(rgb(c.bg));
            let mut text = vec![c.fg, c.accent, c.ok, c.bad, c.warn, c.dim];
            text.extend(c.series);
            for color in text {
                let l = luminance(rgb(color));
                let ratio = (l.max(bg) + 0.05) / (l.min(bg) + 0.05);
                assert!(ratio >= least, "{palette:?} {color:?}: {ratio:.2} < {least}");
            }
        }
    }

    #[test]
    fn every_ramp_is_ordered_by_lightness_away_from_its_background() {
        // Hotter is further from the background: brighter on dark, darker on white.
        for palette in Palette::ALL {
            let t = Theme::new(palette, None);
            let away = |x: f32| {
                let l = luminance(rgb(t.heat(x)));
                if palette == Palette::Light { -l } else { l }
            };
            let mut last = f64::NEG_INFINITY;
            for i in 1..=100 {
                let x = i as f32 / 100.0;
                assert!(away(x) >= last - 1e-3, "{palette:?} turns back at {x}");
                last = away(x);
            }
        }
        assert_eq!(Theme::new(Palette::Light, None).heat(0.0), Color::Rgb(0xff, 0xff, 0xcc));
        assert_eq!(Theme::new(Palette::Light, None).heat(1.0), Color::Rgb(0x80, 0x00, 0x26));
    }

    #[test]
    fn the_projector_has_four_levels_each_with_its_own_shade() {
        let t = Theme::new(Palette::HighContrast, None);
        assert!(!t.half_blocks());
        let cells: Vec<(char, Style)> = [0.1, 0.3, 0.6, 0.9].iter().map(|&x| t.shaded_cell(x)).collect();
        let chars: Vec<char> = cells.iter().map(|c| c.0).collect();
        assert_eq!(chars, ['░', '▒', '▓', '█']);
        let mut colours: Vec<Option<Color>> = cells.iter().map(|c| c.1.fg).collect();
        colours.dedup();
        assert_eq!(colours.len(), 4, "four distinct colours");
        assert_eq!(t.shaded_cell(0.0).0, ' ');
        assert_eq!(t.shaded_cell(0.26), t.shaded_cell(0.5), "a level is one look");
    }
}
