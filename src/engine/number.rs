//! DynamoDB's number type: an exact decimal of up to 38 significant digits.
//!
//! Numbers are kept as `coefficient × 10^exponent` with the coefficient stripped of trailing
//! zeros, so equal values have equal representations (derived `Eq`/`Hash` are value equality) and
//! the canonical text drops leading and trailing zeros, as DynamoDB does when it returns a number.
//! Range (AWS, "Naming rules and data types"): magnitudes from 1E-130 to 9.99…E+125, 38 digits.

use std::cmp::Ordering;
use std::fmt;

/// Most significant digits a number may carry.
pub const MAX_DIGITS: u32 = 38;
/// Decimal exponent of the first digit of the largest magnitude (9.99…E+125).
const MAX_LEADING_EXP: i32 = 125;
/// Decimal exponent of the first digit of the smallest magnitude (1E-130).
const MIN_LEADING_EXP: i32 = -130;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("A value provided cannot be converted into a number: {0:?}")]
    NotANumber(String),
    #[error("Attempting to store more than 38 significant digits in a Number")]
    TooManyDigits,
    #[error("Number overflow. Attempting to store a number with magnitude larger than supported range")]
    Overflow,
    #[error("Number underflow. Attempting to store a number with magnitude smaller than supported range")]
    Underflow,
}

/// An exact decimal. Zero is `{negative: false, coefficient: 0, exponent: 0}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Number {
    negative: bool,
    coefficient: u128,
    exponent: i32,
}

impl Number {
    pub const ZERO: Number = Number { negative: false, coefficient: 0, exponent: 0 };

    /// Parses DynamoDB's number text: `[+-]digits[.digits][e[+-]digits]`.
    pub fn parse(text: &str) -> Result<Number, NumberError> {
        let bad = || NumberError::NotANumber(text.to_owned());
        let bytes = text.as_bytes();
        let mut pos = 0;
        let negative = match bytes.first() {
            Some(b'-') => {
                pos = 1;
                true
            }
            Some(b'+') => {
                pos = 1;
                false
            }
            _ => false,
        };
        // Significant digits, and how many of them sit after the decimal point.
        let mut digits: Vec<u8> = Vec::with_capacity(bytes.len());
        let mut fraction_digits: i64 = 0;
        let mut seen_digit = false;
        let mut seen_point = false;
        while pos < bytes.len() {
            match bytes[pos] {
                d @ b'0'..=b'9' => {
                    seen_digit = true;
                    if seen_point {
                        fraction_digits += 1;
                    }
                    if !(digits.is_empty() && d == b'0') {
                        digits.push(d - b'0');
                    }
                }
                b'.' if !seen_point => seen_point = true,
                b'e' | b'E' => break,
                _ => return Err(bad()),
            }
            pos += 1;
        }
        if !seen_digit {
            return Err(bad());
        }
        let mut exponent: i64 = 0;
        if pos < bytes.len() {
            // bytes[pos] is the 'e'.
            let rest = &text[pos + 1..];
            let (sign, body) = match rest.as_bytes().first() {
                Some(b'-') => (-1, &rest[1..]),
                Some(b'+') => (1, &rest[1..]),
                _ => (1, rest),
            };
            if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            // Zero is zero whatever its exponent (`0e9999999`), so it never reaches the range check.
            if digits.is_empty() {
                return Ok(Number::ZERO);
            }
            // Anything past six digits is out of range whatever the (non-zero) mantissa.
            let trimmed = body.trim_start_matches('0');
            if trimmed.len() > 6 {
                return Err(if sign > 0 { NumberError::Overflow } else { NumberError::Underflow });
            }
            exponent = sign * trimmed.parse::<i64>().unwrap_or(0);
        }
        if digits.is_empty() {
            return Ok(Number::ZERO);
        }
        let mut exponent = exponent - fraction_digits;
        while digits.last() == Some(&0) {
            digits.pop();
            exponent += 1;
        }
        if digits.len() > MAX_DIGITS as usize {
            return Err(NumberError::TooManyDigits);
        }
        let coefficient = digits.iter().fold(0u128, |acc, &d| acc * 10 + u128::from(d));
        let exponent = i32::try_from(exponent)
            .map_err(|_| if exponent > 0 { NumberError::Overflow } else { NumberError::Underflow })?;
        Number::checked(negative, coefficient, exponent)
    }

    /// Strips trailing zeros into the exponent; zero becomes the one canonical zero.
    fn normalize(&mut self) {
        if self.coefficient == 0 {
            *self = Number::ZERO;
            return;
        }
        while self.coefficient.is_multiple_of(10) {
            self.coefficient /= 10;
            self.exponent += 1;
        }
    }

    /// Builds a normalized number and checks DynamoDB's range.
    fn checked(negative: bool, coefficient: u128, exponent: i32) -> Result<Number, NumberError> {
        let mut n = Number { negative, coefficient, exponent };
        n.normalize();
        if n.is_zero() {
            return Ok(n);
        }
        if digit_count(n.coefficient) > MAX_DIGITS {
            return Err(NumberError::TooManyDigits);
        }
        let leading = n.leading_exponent();
        if leading > MAX_LEADING_EXP {
            Err(NumberError::Overflow)
        } else if leading < MIN_LEADING_EXP {
            Err(NumberError::Underflow)
        } else {
            Ok(n)
        }
    }

    pub fn from_i64(value: i64) -> Number {
        // 19 digits at most, far inside DynamoDB's range: normalization alone is needed.
        let mut n =
            Number { negative: value < 0, coefficient: u128::from(value.unsigned_abs()), exponent: 0 };
        n.normalize();
        n
    }

    pub fn from_u64(value: u64) -> Number {
        let mut n = Number { negative: false, coefficient: u128::from(value), exponent: 0 };
        n.normalize();
        n
    }

    pub fn is_zero(&self) -> bool {
        self.coefficient == 0
    }

    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// Significant digits, leading and trailing zeros dropped (zero has none).
    pub fn significant_digits(&self) -> u32 {
        if self.is_zero() { 0 } else { digit_count(self.coefficient) }
    }

    /// Decimal exponent of the first significant digit (`123.4` → 2, `0.05` → -2).
    fn leading_exponent(&self) -> i32 {
        self.exponent + digit_count(self.coefficient).cast_signed() - 1
    }

    /// Bytes this number takes in an item. AWS documents "about one byte per two significant
    /// digits, plus one"; the exact rule here follows the open-source emulator dynalite: zero is 1
    /// byte; otherwise 1 + ceil(d/2), plus 1 when both d and the first digit's exponent are even,
    /// plus 1 when negative. keyheat marks this size as approximate where it shows it.
    pub fn size(&self) -> usize {
        if self.is_zero() {
            return 1;
        }
        let d = self.significant_digits() as usize;
        let mut size = 1 + d.div_ceil(2);
        if d.is_multiple_of(2) && self.leading_exponent() % 2 == 0 {
            size += 1;
        }
        if self.negative {
            size += 1;
        }
        size
    }

    pub fn checked_add(&self, other: &Number) -> Result<Number, NumberError> {
        if self.is_zero() {
            return Ok(other.clone());
        }
        if other.is_zero() {
            return Ok(self.clone());
        }
        // Align both coefficients to the smaller exponent. A gap too wide to align exactly in
        // 128 bits would need more than 38 digits, which DynamoDB refuses too.
        let exponent = self.exponent.min(other.exponent);
        let a = scale_up(self.coefficient, self.exponent - exponent).ok_or(NumberError::TooManyDigits)?;
        let b = scale_up(other.coefficient, other.exponent - exponent).ok_or(NumberError::TooManyDigits)?;
        let (negative, coefficient) = match (self.negative, other.negative) {
            (x, y) if x == y => (x, a.checked_add(b).ok_or(NumberError::TooManyDigits)?),
            (x, _) if a >= b => (x, a - b),
            (_, y) => (y, b - a),
        };
        Number::checked(negative, coefficient, exponent)
    }

    pub fn checked_sub(&self, other: &Number) -> Result<Number, NumberError> {
        self.checked_add(&other.negated())
    }

    pub fn negated(&self) -> Number {
        if self.is_zero() {
            return Number::ZERO;
        }
        Number { negative: !self.negative, ..self.clone() }
    }

    /// The nearest `f64` (for simulation arithmetic and charts, never for stored values).
    pub fn to_f64(&self) -> f64 {
        self.to_string().parse().unwrap_or(f64::NAN)
    }

    /// The value as an `i64` when it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        if self.exponent < 0 {
            return None;
        }
        let magnitude = scale_up(self.coefficient, self.exponent)?;
        if self.negative {
            0i64.checked_sub_unsigned(u64::try_from(magnitude).ok()?)
        } else {
            i64::try_from(magnitude).ok()
        }
    }

    fn cmp_magnitude(&self, other: &Number) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            (false, false) => {}
        }
        self.leading_exponent().cmp(&other.leading_exponent()).then_with(|| {
            // Same leading exponent: compare the digit strings left-aligned.
            let (da, db) = (digit_count(self.coefficient), digit_count(other.coefficient));
            let width = da.max(db);
            let a = self.coefficient * 10u128.pow(width - da);
            let b = other.coefficient * 10u128.pow(width - db);
            a.cmp(&b)
        })
    }
}

impl Ord for Number {
    fn cmp(&self, other: &Number) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::str::FromStr for Number {
    type Err = NumberError;
    fn from_str(s: &str) -> Result<Number, NumberError> {
        Number::parse(s)
    }
}

impl From<i64> for Number {
    fn from(value: i64) -> Number {
        Number::from_i64(value)
    }
}

/// Canonical text: plain decimal notation when it stays short, scientific (`1.5E+40`) otherwise.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.write_str("0");
        }
        if self.negative {
            f.write_str("-")?;
        }
        let digits = self.coefficient.to_string();
        let leading = self.leading_exponent();
        if (-7..=40).contains(&leading) {
            if self.exponent >= 0 {
                f.write_str(&digits)?;
                for _ in 0..self.exponent {
                    f.write_str("0")?;
                }
            } else {
                let fraction = self.exponent.unsigned_abs() as usize;
                if fraction >= digits.len() {
                    f.write_str("0.")?;
                    for _ in 0..fraction - digits.len() {
                        f.write_str("0")?;
                    }
                    f.write_str(&digits)?;
                } else {
                    let (int, frac) = digits.split_at(digits.len() - fraction);
                    write!(f, "{int}.{frac}")?;
                }
            }
            Ok(())
        } else {
            let (first, rest) = digits.split_at(1);
            f.write_str(first)?;
            if !rest.is_empty() {
                write!(f, ".{rest}")?;
            }
            write!(f, "E{}{leading}", if leading >= 0 { "+" } else { "" })
        }
    }
}

fn digit_count(mut n: u128) -> u32 {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

fn scale_up(coefficient: u128, by: i32) -> Option<u128> {
    let by = u32::try_from(by).ok()?;
    10u128.checked_pow(by).and_then(|p| coefficient.checked_mul(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap()
    }

    #[test]
    fn parses_and_prints_canonically() {
        let cases = [
            ("0", "0"),
            ("-0", "0"),
            ("000.000", "0"),
            ("1", "1"),
            ("+1", "1"),
            ("01.50", "1.5"),
            ("-12.340", "-12.34"),
            (".5", "0.5"),
            ("5.", "5"),
            ("1e3", "1000"),
            ("1.5E-3", "0.0015"),
            ("100", "100"),
            ("1E+100", "1E+100"),
            ("-1.25e-100", "-1.25E-100"),
            ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
            ("1000000000000000000000000000000000000000000", "1E+42"),
            // Zero with any exponent is zero, even one far out of range.
            ("0e9999999", "0"),
            ("-0.000E-99999999999", "0"),
            ("0E+126", "0"),
        ];
        for (input, shown) in cases {
            assert_eq!(n(input).to_string(), shown, "input {input}");
            assert_eq!(n(shown), n(input), "round trip of {input}");
        }
    }

    #[test]
    fn rejects_what_dynamodb_rejects() {
        let cases = [
            ("", NumberError::NotANumber(String::new())),
            ("abc", NumberError::NotANumber("abc".into())),
            ("1.2.3", NumberError::NotANumber("1.2.3".into())),
            ("1e", NumberError::NotANumber("1e".into())),
            (" 1", NumberError::NotANumber(" 1".into())),
            ("-", NumberError::NotANumber("-".into())),
            ("123456789012345678901234567890123456789", NumberError::TooManyDigits),
            ("1E+126", NumberError::Overflow),
            ("1E-131", NumberError::Underflow),
            ("1e9999999999", NumberError::Overflow),
            ("0e", NumberError::NotANumber("0e".into())),
            ("0e+x", NumberError::NotANumber("0e+x".into())),
        ];
        for (input, error) in cases {
            assert_eq!(Number::parse(input), Err(error), "input {input:?}");
        }
        assert!(Number::parse("9.9999999999999999999999999999999999999E+125").is_ok());
        assert!(Number::parse("1E-130").is_ok());
    }

    #[test]
    fn size_follows_the_digit_rule() {
        // (value, bytes): 1 + ceil(d/2), +1 if d and leading exponent even, +1 if negative.
        let cases = [
            ("0", 1),
            ("1", 2),                                       // d=1
            ("10", 2),                                      // d=1
            ("12", 2),                                      // d=2, leading exp 1 (odd)
            ("123", 3),                                     // d=3
            ("1.2", 3),                                     // d=2, leading exp 0 (even) → +1
            ("1234", 3),                                    // d=4, exp 3
            ("-1", 3),                                      // negative
            ("0.12", 2),                                    // d=2, exp -1
            ("12345678901234567890123456789012345678", 20), // d=38, exp 37
        ];
        for (value, bytes) in cases {
            assert_eq!(n(value).size(), bytes, "value {value}");
        }
    }

    #[test]
    fn arithmetic_is_exact() {
        let cases = [
            ("1", "2", "3"),
            ("0.1", "0.2", "0.3"),
            ("-5", "3", "-2"),
            ("5", "-5", "0"),
            ("1E+20", "1", "100000000000000000001"),
            ("-1.5", "-1.5", "-3"),
        ];
        for (a, b, sum) in cases {
            assert_eq!(n(a).checked_add(&n(b)).unwrap(), n(sum), "{a} + {b}");
            assert_eq!(n(sum).checked_sub(&n(b)).unwrap(), n(a), "{sum} - {b}");
        }
        assert_eq!(n("1E+100").checked_add(&n("1")), Err(NumberError::TooManyDigits));
        assert_eq!(n("9E+125").checked_add(&n("1E+125")), Err(NumberError::Overflow));
    }

    #[test]
    fn orders_numerically() {
        let sorted = ["-100", "-2.5", "-1", "-0.001", "0", "0.001", "0.5", "1", "1.01", "9", "10", "1E+50"];
        for pair in sorted.windows(2) {
            assert!(n(pair[0]) < n(pair[1]), "{} < {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn converts_to_machine_numbers() {
        assert_eq!(n("42").to_i64(), Some(42));
        assert_eq!(n("-42").to_i64(), Some(-42));
        assert_eq!(n("4.2").to_i64(), None);
        assert_eq!(n("-9223372036854775808").to_i64(), Some(i64::MIN));
        assert_eq!(n("9223372036854775808").to_i64(), None);
        assert!((n("2.5").to_f64() - 2.5).abs() < f64::EPSILON);
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in "\\PC{0,40}") {
            let _ = Number::parse(&s);
        }

        #[test]
        fn order_matches_f64_for_small_decimals(a in -1_000_000i64..1_000_000, b in -1_000_000i64..1_000_000, ea in 0i32..6, eb in 0i32..6) {
            let x = Number::parse(&format!("{a}e-{ea}")).unwrap();
            let y = Number::parse(&format!("{b}e-{eb}")).unwrap();
            let (fx, fy) = (a as f64 / 10f64.powi(ea), b as f64 / 10f64.powi(eb));
            prop_assert_eq!(x.cmp(&y), fx.partial_cmp(&fy).unwrap());
            prop_assert_eq!(Number::parse(&x.to_string()).unwrap(), x.clone());
            let sum = x.checked_add(&y).unwrap();
            prop_assert!((sum.to_f64() - (fx + fy)).abs() < 1e-6);
        }
    }
}
