//! The digits of a DynamoDB number, held on the stack, and the two things key slots do with them:
//! write a number so that it sorts as text (`{score:010}`) and turn epoch seconds into whole
//! milliseconds (`{sent_at:%Y-%m}`, `{bucket(sent_at, 10d)}`). Expansion runs ~100M times per
//! simulated run, so nothing here allocates.
//!
//! Sortable form (decided here, documented in DESIGN.md §6's table as "zero-padded"): with width
//! `w`, a number `x` whose integer part fits in `w` digits is written as
//! - `x ≥ 0`: the integer part zero-padded to `w` digits, then `.` and the fraction if any
//!   (`7` → `0000000007`, `12.5` → `0000000012.5`);
//! - `x < 0`: `-` and then `10^w + x` written the same way, the ten's complement (`-3` →
//!   `-9999999997`, `-2.5` → `-9999999997.5`).
//!
//! `-` sorts before every digit, so negatives come first; within one sign the integer parts have
//! equal length and the fraction continues the comparison digit by digit, and a shorter text that
//! is a prefix of a longer one is the smaller number in both halves. So text order is numeric
//! order, and distinct numbers give distinct texts. A number whose integer part needs more than
//! `w` digits is written in full, unpadded (`-` and its magnitude when negative), as printf does:
//! it keeps a distinct key but no longer sorts among the padded ones.

use std::fmt;

use crate::engine::number::Number;
use crate::engine::time::push_integer;

/// DynamoDB numbers carry at most 38 significant digits.
const MAX_DIGITS: usize = 38;

/// `0.d₁d₂…dₖ × 10^point`: significant digits without leading or trailing zeros, and where the
/// decimal point falls relative to the first of them (`123.4`: digits 1234, point 3; `0.05`:
/// digits 5, point -1). Zero has no digits.
pub(super) struct Decimal {
    negative: bool,
    digits: [u8; MAX_DIGITS],
    len: usize,
    point: i32,
}

/// Appends the number's canonical text, as `Display` prints it. Integers, the common case, are
/// written digit by digit without allocating (`Number`'s `Display` builds a `String`).
pub(super) fn write_canonical(number: &Number, out: &mut impl TextSink) {
    match number.to_i64() {
        Some(integer) => out.push_integer(integer),
        None => out.push_display(number),
    }
}

/// Where `write_canonical` writes: the key being built, or a stack buffer for hashing.
pub(super) trait TextSink {
    fn push_integer(&mut self, value: i64);
    fn push_display(&mut self, value: &Number);
}

impl TextSink for String {
    fn push_integer(&mut self, value: i64) {
        push_integer(self, i128::from(value));
    }

    fn push_display(&mut self, value: &Number) {
        // Writing into a String cannot fail.
        let _ = fmt::Write::write_fmt(self, format_args!("{value}"));
    }
}

impl TextSink for StackText {
    fn push_integer(&mut self, value: i64) {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        let mut magnitude = value.unsigned_abs();
        loop {
            start -= 1;
            digits[start] = b'0' + u8::try_from(magnitude % 10).unwrap_or(0);
            magnitude /= 10;
            if magnitude == 0 {
                break;
            }
        }
        if value < 0 {
            self.push_bytes(b"-");
        }
        self.push_bytes(&digits[start..]);
    }

    fn push_display(&mut self, value: &Number) {
        // Canonical text is at most ~47 bytes (38 digits, sign, point, exponent or leading
        // zeros), within StackText's 64.
        fmt::Write::write_fmt(self, format_args!("{value}"))
            .expect("a number's canonical text fits in 64 bytes");
    }
}

/// `floor(x × 1000)` for `x` epoch seconds: the epoch milliseconds of a time attribute. `None`
/// when it does not fit in an `i128` (far beyond any calendar date).
pub(super) fn epoch_millis(seconds: &Number) -> Option<i128> {
    match seconds.to_i64() {
        Some(integer) => Some(i128::from(integer) * 1000),
        None => Decimal::of(seconds).floor_millis(),
    }
}

impl Decimal {
    /// Reads the number's canonical text (`-12.5`, `1.5E+40`, `0.0015`) into digits.
    pub(super) fn of(number: &Number) -> Decimal {
        let mut text = StackText::new();
        // Canonical text is at most ~47 bytes (DynamoDB's 38 digits, sign, point, exponent or
        // leading zeros), within StackText's capacity.
        write_canonical(number, &mut text);
        let mut decimal = Decimal { negative: false, digits: [0; MAX_DIGITS], len: 0, point: 0 };
        let mut seen_point = false;
        let mut exponent: i32 = 0;
        // Zeros after a significant digit, held back until a non-zero digit shows they are not
        // trailing: the text of 1E+40 has 41 digits but one significant one.
        let mut zeros = 0;
        let bytes = text.as_bytes();
        for (i, &byte) in bytes.iter().enumerate() {
            match byte {
                b'-' => decimal.negative = true,
                b'.' => seen_point = true,
                b'E' => {
                    exponent =
                        std::str::from_utf8(&bytes[i + 1..]).ok().and_then(|e| e.parse().ok()).unwrap_or(0);
                    break;
                }
                b'0' if decimal.len == 0 => {
                    // A leading zero: before the point it is the lone `0` of `0.05`, after it
                    // it moves the point left.
                    if seen_point {
                        decimal.point -= 1;
                    }
                }
                digit => {
                    if !seen_point {
                        decimal.point += 1;
                    }
                    if digit == b'0' {
                        zeros += 1;
                    } else {
                        for _ in 0..zeros {
                            decimal.push(0);
                        }
                        zeros = 0;
                        decimal.push(digit - b'0');
                    }
                }
            }
        }
        if decimal.len == 0 {
            decimal.negative = false;
            decimal.point = 0;
        }
        decimal.point += exponent;
        decimal
    }

    fn push(&mut self, digit: u8) {
        // Canonical text has at most MAX_DIGITS significant digits; a longer one is dropped
        // rather than read past the array.
        if let Some(slot) = self.digits.get_mut(self.len) {
            *slot = digit;
            self.len += 1;
        }
    }

    fn digit(&self, position: i32) -> u8 {
        // Digit at `position` counted from the first significant digit; zeros outside them.
        usize::try_from(position).ok().filter(|&p| p < self.len).map_or(0, |p| self.digits[p])
    }

    /// Digits before the decimal point (0 for zero and pure fractions).
    fn integer_len(&self) -> i32 {
        if self.len == 0 { 0 } else { self.point.max(0) }
    }

    /// Positions (relative to the first significant digit) of the digits after the decimal
    /// point, leading zeros included (`0.05`: positions -1 and 0).
    fn fraction_positions(&self) -> std::ops::Range<i32> {
        self.point..self.len_i32().max(self.point)
    }

    fn len_i32(&self) -> i32 {
        // len ≤ 38.
        i32::try_from(self.len).unwrap_or(i32::MAX)
    }

    /// Appends the sortable form described in the module docs.
    pub(super) fn write_sortable(&self, width: u8, out: &mut String) {
        let width = i32::from(width);
        if self.integer_len() > width {
            self.write_plain(out);
            return;
        }
        let fraction = self.fraction_positions();
        // Integer digit k of the padded field (0-based from the left) is at digit position
        // point - width + k.
        let integer = (self.point - width)..self.point;
        if !self.negative {
            for position in integer {
                out.push(char::from(b'0' + self.digit(position)));
            }
            if !fraction.is_empty() {
                out.push('.');
                for position in fraction {
                    out.push(char::from(b'0' + self.digit(position)));
                }
            }
            return;
        }
        // 10^w - m: nine's complement of every digit, plus one in the last place. The last
        // fraction digit is non-zero, so its 10 - d needs no carry; without a fraction the +1
        // carries through the complement's trailing nines (m's trailing zeros). m < 10^w, so
        // the carry stops inside the field.
        let mut field = [0u8; 256];
        let field = &mut field[..integer.len()];
        for (slot, position) in field.iter_mut().zip(integer) {
            *slot = 9 - self.digit(position);
        }
        if fraction.is_empty() {
            for slot in field.iter_mut().rev() {
                if *slot == 9 {
                    *slot = 0;
                } else {
                    *slot += 1;
                    break;
                }
            }
        }
        out.push('-');
        out.extend(field.iter().map(|&d| char::from(b'0' + d)));
        if !fraction.is_empty() {
            out.push('.');
            let last = fraction.end - 1;
            for position in fraction {
                let complement = if position == last { 10 } else { 9 } - self.digit(position);
                out.push(char::from(b'0' + complement));
            }
        }
    }

    /// Appends the number in plain decimal notation, never scientific (`1E+3` → `1000`).
    fn write_plain(&self, out: &mut String) {
        if self.len == 0 {
            out.push('0');
            return;
        }
        if self.negative {
            out.push('-');
        }
        if self.point <= 0 {
            out.push('0');
        }
        for position in 0..self.point {
            out.push(char::from(b'0' + self.digit(position)));
        }
        let fraction = self.fraction_positions();
        if !fraction.is_empty() {
            out.push('.');
            for position in fraction {
                out.push(char::from(b'0' + self.digit(position)));
            }
        }
    }

    /// `floor(x × 1000)`, the general case of `epoch_millis`.
    fn floor_millis(&self) -> Option<i128> {
        let point = self.point + 3;
        if point > 38 {
            return None;
        }
        let mut whole: i128 = 0;
        for position in 0..point {
            whole = whole * 10 + i128::from(self.digit(position));
        }
        let has_fraction = self.len_i32() > point;
        Some(match (self.negative, has_fraction) {
            (false, _) => whole,
            (true, false) => -whole,
            (true, true) => -whole - 1,
        })
    }
}

/// A fixed 64-byte buffer for a number's text, so formatting one does not allocate.
pub(super) struct StackText {
    bytes: [u8; 64],
    len: usize,
}

impl StackText {
    pub(super) fn new() -> StackText {
        StackText { bytes: [0; 64], len: 0 }
    }

    pub(super) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Appends bytes, dropping any past the capacity (never reached by a number's text).
    fn push_bytes(&mut self, bytes: &[u8]) {
        let end = (self.len + bytes.len()).min(self.bytes.len());
        self.bytes[self.len..end].copy_from_slice(&bytes[..end - self.len]);
        self.len = end;
    }
}

impl fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sortable(text: &str, width: u8) -> String {
        let mut out = String::new();
        Decimal::of(&Number::parse(text).unwrap()).write_sortable(width, &mut out);
        out
    }

    #[test]
    fn writes_sortable_numbers() {
        let cases = [
            ("0", 5, "00000"),
            ("7", 5, "00007"),
            ("12.5", 5, "00012.5"),
            ("0.05", 5, "00000.05"),
            ("99999", 5, "99999"),
            ("1E+3", 5, "01000"),
            ("1.5E-8", 3, "000.000000015"),
            ("-3", 5, "-99997"),
            ("-99999", 5, "-00001"),
            ("-2.5", 5, "-99997.5"),
            ("-0.25", 5, "-99999.75"),
            ("-10", 5, "-99990"),
            ("-100", 3, "-900"),
            // Wider than the field: written in full.
            ("123456", 5, "123456"),
            ("123456.5", 5, "123456.5"),
            ("-100000", 5, "-100000"),
            ("1E+40", 3, "10000000000000000000000000000000000000000"),
        ];
        for (number, width, text) in cases {
            assert_eq!(sortable(number, width), text, "{number} in {width}");
        }
    }

    #[test]
    fn converts_epoch_seconds_to_millis() {
        for seconds in ["0", "1709251200", "-2", "1.5", "-1.0005", "1E+30", "1E+40"] {
            let number = Number::parse(seconds).unwrap();
            assert_eq!(epoch_millis(&number), Decimal::of(&number).floor_millis(), "{seconds}");
        }
        let cases = [
            ("0", 0),
            ("1709251200", 1_709_251_200_000),
            ("1.5", 1500),
            ("1.0005", 1000),
            ("-1.0005", -1001),
            ("-2", -2000),
            ("0.0001", 0),
            ("-0.0001", -1),
            ("1E+30", 1_000_000_000_000_000_000_000_000_000_000_000),
        ];
        for (seconds, millis) in cases {
            assert_eq!(
                Decimal::of(&Number::parse(seconds).unwrap()).floor_millis(),
                Some(millis),
                "{seconds}"
            );
        }
        assert_eq!(Decimal::of(&Number::parse("1E+40").unwrap()).floor_millis(), None);
    }

    fn decimal() -> impl Strategy<Value = Number> {
        (-10_000_000i64..10_000_000, 0u32..4)
            .prop_map(|(units, scale)| Number::parse(&format!("{units}e-{scale}")).unwrap())
    }

    proptest! {
        #[test]
        fn sortable_text_order_is_numeric_order(a in decimal(), b in decimal(), width in 4u8..12) {
            // Integer parts up to 7 digits: within the field for width ≥ 7, partly beyond it below.
            let (ta, tb) = (sortable(&a.to_string(), width), sortable(&b.to_string(), width));
            let fits = |n: &Number| n.to_f64().abs() < 10f64.powi(i32::from(width));
            if fits(&a) && fits(&b) {
                prop_assert_eq!(ta.cmp(&tb), a.cmp(&b), "{} → {}, {} → {}", a, ta, b, tb);
            } else {
                prop_assert_eq!(ta == tb, a == b);
            }
        }

        #[test]
        fn reads_back_the_digits(a in decimal()) {
            let mut out = String::new();
            Decimal::of(&a).write_plain(&mut out);
            prop_assert_eq!(Number::parse(&out).unwrap(), a);
        }
    }
}
