//! How the planner writes numbers in messages: thousands separators, binary byte units (as
//! DynamoDB's limits are stated), percentages and spans of time. Deterministic: no locale.

/// `10,512,000`; one decimal below 100 and when not whole (`3.3`); below 1, two significant
/// digits (`0.33`, `0.0012`), so a small rate never reads as 0.
pub fn count(x: f64) -> String {
    if !x.is_finite() {
        return "∞".to_owned();
    }
    if x.abs() < 1.0 && x != 0.0 {
        // Decimals for two significant digits: 0.33 needs 2, 0.0012 needs 4 (at most 12).
        let digits = floor_u64(-x.abs().log10()).min(10) as usize + 2;
        return trim(format!("{x:.digits$}"));
    }
    if x.abs() < 100.0 && x.fract().abs() > 1e-9 {
        return trim(format!("{x:.1}"));
    }
    group(x.round())
}

/// A multiplier or per-call count: whole numbers plainly, fractions to three decimals
/// (`1.003`, `0.006`), so a sparse index's small share stays visible.
pub fn factor(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 || x.abs() >= 100.0 { count(x) } else { trim(format!("{x:.3}")) }
}

/// `x` rounded up to a whole count for u32 arithmetic. Float-to-int `as` saturates (Rust ≥ 1.45)
/// and NaN becomes 0, so no input can wrap.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn ceil_u32(x: f64) -> u32 {
    x.ceil() as u32
}

/// `x` rounded down to a whole count (saturating, as `ceil_u32`).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn floor_u64(x: f64) -> u64 {
    x.floor() as u64
}

/// A rate with one decimal: `3,333.3`, `0.1`, `2,000`.
pub fn rate(x: f64) -> String {
    if x.abs() >= 1000.0 {
        let whole = group(x.trunc());
        let tenth = floor_u64((x.fract().abs() * 10.0).round());
        return if tenth == 0 || tenth == 10 { group(x.round()) } else { format!("{whole}.{tenth}") };
    }
    count(x)
}

fn trim(text: String) -> String {
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_owned() } else { text }
}

fn group(x: f64) -> String {
    let negative = x < 0.0;
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if negative { format!("-{out}") } else { out }
}

/// `52 B`, `1.5 KB`, `521 MB`, `5.1 GB`, `49 PB`: binary units, three significant figures;
/// past the largest unit, whole numbers with separators.
pub fn bytes(x: f64) -> String {
    const UNITS: [&str; 7] = ["B", "KB", "MB", "GB", "TB", "PB", "EB"];
    if !x.is_finite() {
        return "∞ B".to_owned();
    }
    let mut value = x;
    let mut unit = 0;
    while value.abs() >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        return format!("{} B", value.round());
    }
    let text = if value.abs() >= 1000.0 {
        group(value.round())
    } else if value.abs() >= 100.0 {
        format!("{value:.0}")
    } else if value.abs() >= 10.0 {
        trim(format!("{value:.1}"))
    } else {
        trim(format!("{value:.2}"))
    };
    format!("{text} {}", UNITS[unit])
}

/// `25%`, `13.5%`, `0.01%`; a share too small for two decimals reads `<0.01%`, not `0%`.
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    if p > 0.0 && p < 0.005 {
        return "<0.01%".to_owned();
    }
    if p >= 10.0 || p == 0.0 { trim(format!("{p:.1}")) + "%" } else { trim(format!("{p:.2}")) + "%" }
}

/// A span of seconds in the largest unit that reads well: `45 s`, `3.6 h`, `3.5 days`, `2.1 years`.
pub fn span(secs: f64) -> String {
    const DAY: f64 = 86_400.0;
    let (value, unit) = if secs < 120.0 {
        (secs, "s")
    } else if secs < 7200.0 {
        (secs / 60.0, "min")
    } else if secs < 2.0 * DAY {
        (secs / 3600.0, "h")
    } else if secs < 730.0 * DAY {
        (secs / DAY, "days")
    } else {
        (secs / (365.0 * DAY), "years")
    };
    let text = if value >= 10.0 { format!("{value:.0}") } else { trim(format!("{value:.1}")) };
    format!("{text} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers_for_messages() {
        let counts =
            [(10_512_000.0, "10,512,000"), (3.33, "3.3"), (0.333, "0.33"), (100.4, "100"), (0.0, "0")];
        let small = [(0.001, "0.001"), (0.00123, "0.0012"), (0.05, "0.05"), (0.999, "1"), (-0.004, "-0.004")];
        for (x, text) in small {
            assert_eq!(count(x), text, "{x}");
        }
        for (x, text) in counts {
            assert_eq!(count(x), text, "{x}");
        }
        let rates = [(3333.33, "3,333.3"), (2000.0, "2,000"), (0.1, "0.1"), (1999.96, "2,000")];
        for (x, text) in rates {
            assert_eq!(rate(x), text, "{x}");
        }
        let sizes = [
            (52.0, "52 B"),
            (1536.0, "1.5 KB"),
            (546_000_000.0, "521 MB"),
            (10.0 * 1024.0 * 1024.0 * 1024.0, "10 GB"),
            // Past terabytes: PB and EB, then separators (never "50197 TB").
            (50_197.0 * 1024f64.powi(4), "49 PB"),
            (3.0 * 1024f64.powi(7), "3,072 EB"),
        ];
        for (x, text) in sizes {
            assert_eq!(bytes(x), text, "{x}");
        }
        let factors = [(1.0, "1"), (1.003, "1.003"), (0.006, "0.006"), (2.5, "2.5"), (315.4, "315")];
        for (x, text) in factors {
            assert_eq!(factor(x), text, "{x}");
        }
        let shares = [
            (0.25, "25%"),
            (0.135, "13.5%"),
            (0.0001, "0.01%"),
            (1.0, "100%"),
            (0.000_01, "<0.01%"),
            (0.0, "0%"),
        ];
        for (x, text) in shares {
            assert_eq!(percent(x), text, "{x}");
        }
        let spans =
            [(45.0, "45 s"), (13_000.0, "3.6 h"), (302_400.0, "3.5 days"), (31_536_000.0, "365 days")];
        for (x, text) in spans {
            assert_eq!(span(x), text, "{x}");
        }
    }
}
