//! Colours and styles, and the heatmap's colour ramp. One place decides what colour means so the
//! panels stay readable on dark and light terminals and with `NO_COLOR` (no colour at all: shade
//! characters and bold/reverse carry the meaning instead).
//!
//! The heatmap ramp is viridis (Smith & van der Walt, matplotlib's default colormap): perceptually
//! uniform, readable by people with the common colour-vision deficiencies and monotonic in
//! lightness, so it also survives a greyscale projector.

use ratatui::style::{Color, Modifier, Style};

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
// The casts below are of values clamped to small non-negative ranges first.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn ramp(x: f32) -> (u8, u8, u8) {
    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    let scaled = x * (VIRIDIS.len() - 1) as f32;
    let low = (scaled.floor() as usize).min(VIRIDIS.len() - 2);
    let t = scaled - low as f32;
    let (a, b) = (VIRIDIS[low], VIRIDIS[low + 1]);
    let mix = |p: u8, q: u8| (f32::from(p) + (f32::from(q) - f32::from(p)) * t).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The shade character for intensity `x`: blank only for exactly nothing, so any load shows.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn shade(x: f32) -> char {
    if x.is_nan() || x <= 0.0 {
        return SHADES[0];
    }
    let step = (x.clamp(0.0, 1.0) * 4.0).ceil() as usize;
    SHADES[step.clamp(1, 4)]
}

/// Styles for everything the UI draws, with or without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    /// `NO_COLOR` set to anything non-empty turns colour off (no-color.org).
    pub fn from_no_color(no_color: Option<&str>) -> Theme {
        Theme { color: no_color.is_none_or(str::is_empty) }
    }

    pub fn heat(self, x: f32) -> Color {
        let (r, g, b) = ramp(x);
        if self.color { Color::Rgb(r, g, b) } else { Color::Reset }
    }

    /// The heatmap cursor: white on the ramp (viridis never reaches white).
    pub fn cursor(self) -> Color {
        if self.color { Color::Rgb(0xff, 0xff, 0xff) } else { Color::Reset }
    }

    fn fg(self, color: Color) -> Style {
        if self.color { Style::new().fg(color) } else { Style::new() }
    }

    pub fn border(self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            (true, false) => Style::new().add_modifier(Modifier::BOLD),
            (false, _) => Style::new(),
        }
    }

    pub fn title(self, focused: bool) -> Style {
        self.border(focused).add_modifier(Modifier::BOLD)
    }

    pub fn ok(self) -> Style {
        self.fg(Color::Green)
    }

    pub fn bad(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    pub fn warn(self) -> Style {
        self.fg(Color::Yellow)
    }

    pub fn dim(self) -> Style {
        if self.color { Style::new().fg(Color::DarkGray) } else { Style::new() }
    }

    pub fn key(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    pub fn header(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn selected(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub fn limit(self) -> Style {
        self.fg(Color::Red)
    }

    pub fn error(self) -> Style {
        self.bad()
    }

    /// One colour per series of a chart, told apart by marker and legend as well.
    pub fn series(self, i: usize) -> Style {
        const SERIES: [Color; 5] = [Color::Cyan, Color::Yellow, Color::Magenta, Color::Green, Color::Blue];
        self.fg(SERIES[i % SERIES.len()])
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
    fn no_color_means_no_colour() {
        assert!(Theme::from_no_color(None).color);
        assert!(Theme::from_no_color(Some("")).color);
        let mono = Theme::from_no_color(Some("1"));
        assert!(!mono.color);
        assert_eq!(mono.heat(0.7), Color::Reset);
        assert_eq!(mono.ok().fg, None);
    }
}
