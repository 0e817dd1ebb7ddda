//! The short forms' tokens: words (names and keywords; in backticks, any name), strings in
//! double quotes with `\"` and `\\` escapes, numbers, and the symbols of key conditions and
//! filters, each with the column where it starts (1-based, in characters) for messages.

/// A token and the column (1-based, in characters) where it starts.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Token {
    pub kind: Tok,
    pub col: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    /// A name or keyword (or a name in backticks: `quoted` is then true).
    Word {
        text: String,
        quoted: bool,
    },
    Str(String),
    Num(String),
    Sym(&'static str),
}

use super::ShortError;

const SYMBOLS: [&str; 12] = ["<>", "<=", ">=", "=", "<", ">", "(", ")", ",", ".", "[", "]"];

pub(super) fn lex(line: &str) -> Result<Vec<Token>, ShortError> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '"' || c == '`' {
            let mut text = String::new();
            let mut j = i + 1;
            loop {
                match chars.get(j) {
                    None => {
                        let what = if c == '"' { "string" } else { "name" };
                        return Err(ShortError::at(col, format!("this {what} has no closing {c}")));
                    }
                    Some(&d) if d == c => break,
                    Some('\\') if c == '"' => match chars.get(j + 1) {
                        Some(&e @ ('"' | '\\')) => {
                            text.push(e);
                            j += 2;
                        }
                        _ => return Err(ShortError::at(j + 1, "expected \\\" or \\\\ after a backslash")),
                    },
                    Some(&d) => {
                        text.push(d);
                        j += 1;
                    }
                }
            }
            out.push(Token {
                kind: if c == '"' { Tok::Str(text) } else { Tok::Word { text, quoted: true } },
                col,
            });
            i = j + 1;
            continue;
        }
        let starts_number =
            c.is_ascii_digit() || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit));
        if starts_number {
            let mut j = i + 1;
            let mut seen_exponent = false;
            while let Some(&d) = chars.get(j) {
                let sign_after_exponent = (d == '+' || d == '-') && matches!(chars[j - 1], 'e' | 'E');
                if d.is_ascii_digit() || d == '.' || sign_after_exponent {
                    j += 1;
                } else if (d == 'e' || d == 'E') && !seen_exponent {
                    seen_exponent = true;
                    j += 1;
                } else {
                    break;
                }
            }
            if chars.get(j).is_some_and(|d| d.is_alphanumeric() || *d == '_') {
                return Err(ShortError::at(col, "a number runs into letters; quote it if it is a string"));
            }
            out.push(Token { kind: Tok::Num(chars[i..j].iter().collect()), col });
            i = j;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let mut j = i + 1;
            while chars.get(j).is_some_and(|d| d.is_alphanumeric() || *d == '_' || *d == '-') {
                j += 1;
            }
            out.push(Token { kind: Tok::Word { text: chars[i..j].iter().collect(), quoted: false }, col });
            i = j;
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
        match SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            Some(sym) => {
                out.push(Token { kind: Tok::Sym(sym), col });
                i += sym.len();
            }
            None => return Err(ShortError::at(col, format!("unexpected character {c:?}"))),
        }
    }
    Ok(out)
}
