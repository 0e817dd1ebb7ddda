//! The expression lexer: text → tokens with byte spans, shared by every expression grammar.
//!
//! It never fails. A character no token can start becomes a one-character `Unknown` token, so
//! the parser reports it as DynamoDB does: `Syntax error; token: "_", near: "SET _123"`. Names
//! follow DynamoDB's lexer (AWS guide, "Expression attribute names"; checked by the Alternator
//! test suite against DynamoDB): a bare name starts with a letter and goes on with letters,
//! digits and `_`; after `#` or `:` any of those may come first.

/// What a token is. Keywords are plain `Ident`s; each grammar decides which words it reserves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Ident,
    /// `#name`, an ExpressionAttributeNames placeholder.
    Name,
    /// `:value`, an ExpressionAttributeValues placeholder.
    Value,
    /// Decimal digits (list indexes).
    Number,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Unknown,
    Eof,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub fn text<'t>(&self, source: &'t str) -> &'t str {
        &source[self.start..self.end]
    }
}

/// All tokens of `source`, ending with exactly one `Eof` (whose span is empty, at the end).
pub(super) fn tokenize(source: &str) -> Vec<Token> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::with_capacity(source.len() / 2 + 1);
    let mut pos = 0;
    while pos < bytes.len() {
        let b = bytes[pos];
        if b.is_ascii_whitespace() {
            pos += 1;
            continue;
        }
        let start = pos;
        let word_end = |from: usize| {
            from + bytes[from..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count()
        };
        let (kind, end) = match b {
            b'a'..=b'z' | b'A'..=b'Z' => (Kind::Ident, word_end(pos + 1)),
            b'0'..=b'9' => {
                (Kind::Number, pos + bytes[pos..].iter().take_while(|c| c.is_ascii_digit()).count())
            }
            b'#' | b':' => {
                let end = word_end(pos + 1);
                match (end > pos + 1, b) {
                    (true, b'#') => (Kind::Name, end),
                    (true, _) => (Kind::Value, end),
                    (false, _) => (Kind::Unknown, pos + 1),
                }
            }
            b'(' => (Kind::LParen, pos + 1),
            b')' => (Kind::RParen, pos + 1),
            b'[' => (Kind::LBracket, pos + 1),
            b']' => (Kind::RBracket, pos + 1),
            b',' => (Kind::Comma, pos + 1),
            b'.' => (Kind::Dot, pos + 1),
            b'=' => (Kind::Eq, pos + 1),
            b'+' => (Kind::Plus, pos + 1),
            b'-' => (Kind::Minus, pos + 1),
            b'<' => match bytes.get(pos + 1) {
                Some(b'>') => (Kind::Ne, pos + 2),
                Some(b'=') => (Kind::Le, pos + 2),
                _ => (Kind::Lt, pos + 1),
            },
            b'>' => match bytes.get(pos + 1) {
                Some(b'=') => (Kind::Ge, pos + 2),
                _ => (Kind::Gt, pos + 1),
            },
            _ => {
                // One whole character, so the span stays on a UTF-8 boundary.
                let width = source[pos..].chars().next().map_or(1, char::len_utf8);
                (Kind::Unknown, pos + width)
            }
        };
        tokens.push(Token { kind, start, end });
        pos = end;
    }
    tokens.push(Token { kind: Kind::Eof, start: source.len(), end: source.len() });
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds_and_texts(source: &str) -> Vec<(Kind, &str)> {
        tokenize(source).iter().map(|t| (t.kind, t.text(source))).collect()
    }

    #[test]
    fn splits_tokens_as_dynamodb_does() {
        use Kind::*;
        let cases: [(&str, Vec<(Kind, &str)>); 9] = [
            (
                "a.b[12]",
                vec![
                    (Ident, "a"),
                    (Dot, "."),
                    (Ident, "b"),
                    (LBracket, "["),
                    (Number, "12"),
                    (RBracket, "]"),
                ],
            ),
            ("#n0 = :v_1", vec![(Name, "#n0"), (Eq, "="), (Value, ":v_1")]),
            (
                "a<>b<=c>=d<e>f",
                vec![
                    (Ident, "a"),
                    (Ne, "<>"),
                    (Ident, "b"),
                    (Le, "<="),
                    (Ident, "c"),
                    (Ge, ">="),
                    (Ident, "d"),
                    (Lt, "<"),
                    (Ident, "e"),
                    (Gt, ">"),
                    (Ident, "f"),
                ],
            ),
            ("SET _123", vec![(Ident, "SET"), (Unknown, "_"), (Number, "123")]),
            ("hits : incr", vec![(Ident, "hits"), (Unknown, ":"), (Ident, "incr")]),
            ("# x", vec![(Unknown, "#"), (Ident, "x")]),
            ("#123a :_", vec![(Name, "#123a"), (Value, ":_")]),
            ("é!", vec![(Unknown, "é"), (Unknown, "!")]),
            (
                "f(a, b)+c-d",
                vec![
                    (Ident, "f"),
                    (LParen, "("),
                    (Ident, "a"),
                    (Comma, ","),
                    (Ident, "b"),
                    (RParen, ")"),
                    (Plus, "+"),
                    (Ident, "c"),
                    (Minus, "-"),
                    (Ident, "d"),
                ],
            ),
        ];
        for (source, mut expected) in cases {
            expected.push((Eof, ""));
            assert_eq!(kinds_and_texts(source), expected, "source {source:?}");
        }
    }

    #[test]
    fn eof_sits_at_the_end() {
        let tokens = tokenize("  a  ");
        assert_eq!(tokens.last(), Some(&Token { kind: Kind::Eof, start: 5, end: 5 }));
        assert_eq!(tokenize(""), vec![Token { kind: Kind::Eof, start: 0, end: 0 }]);
    }
}
