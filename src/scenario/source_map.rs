//! Where each value of a RON file starts, so that a semantic error found after deserializing (an
//! unknown attribute in a template, a pattern input that does not exist) can name a line and a
//! column. serde forgets positions; rather than thread spans through every type, the loader
//! reports errors as a [`Path`] (`variants[1].keys["Order"].pk`) and this module finds that path
//! in the source.
//!
//! The reader here is only used on text ron has already accepted, so it is lenient: it never
//! fails, and an unexpected token is skipped.

use std::fmt;

/// A position in the source: 1-based line and column (in characters, as ron counts them).
/// Positions order as they read: by line, then column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub col: usize,
}

/// One step from a value to a value inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Field(&'static str),
    Index(usize),
    Key(String),
}

/// A way from the file's root value to one value inside it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Path(pub Vec<Segment>);

impl Path {
    pub fn root() -> Path {
        Path(Vec::new())
    }

    pub fn field(&self, name: &'static str) -> Path {
        self.with(Segment::Field(name))
    }

    pub fn index(&self, index: usize) -> Path {
        self.with(Segment::Index(index))
    }

    pub fn key(&self, key: &str) -> Path {
        self.with(Segment::Key(key.to_owned()))
    }

    fn with(&self, segment: Segment) -> Path {
        let mut segments = self.0.clone();
        segments.push(segment);
        Path(segments)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Field(name) if i == 0 => f.write_str(name)?,
                Segment::Field(name) => write!(f, ".{name}")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
                Segment::Key(key) => write!(f, "[{key:?}]")?,
            }
        }
        Ok(())
    }
}

#[derive(Debug)]
struct Node {
    start: Position,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// `Name(a: 1, b: 2)`, `(1, 2)`, `Some(x)`: named fields and positional items.
    Compound {
        name: Option<String>,
        fields: Vec<(String, Node)>,
        items: Vec<Node>,
    },
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
    /// A string literal: its decoded text, whether the source spells it byte for byte (no
    /// escapes, one line), so offsets inside it map to columns, and how many characters come
    /// before its text (`"` is 1, `r#"` is 3).
    Str {
        text: String,
        verbatim: bool,
        opening: usize,
    },
    Other,
}

/// The value tree of one RON source, with positions.
#[derive(Debug)]
pub struct SourceMap {
    root: Option<Node>,
}

impl SourceMap {
    pub fn new(source: &str) -> SourceMap {
        let tokens = tokenize(source);
        let mut reader = Reader { tokens: &tokens, at: 0 };
        reader.skip_attributes();
        SourceMap { root: reader.value() }
    }

    /// Where the value at `path` starts; the deepest value found along the path if the file has
    /// no such value (a default that was left out), `None` only for an empty file.
    pub fn locate(&self, path: &Path) -> Option<Position> {
        self.resolve(path).map(|node| node.start)
    }

    /// Where byte `offset` of the string at `path` is, when the string is written verbatim on one
    /// line; otherwise where the string starts.
    pub fn locate_in_string(&self, path: &Path, offset: usize) -> Option<Position> {
        let node = self.resolve(path)?;
        match &node.kind {
            Kind::Str { text, verbatim: true, opening }
                if offset <= text.len() && text.is_char_boundary(offset) =>
            {
                let chars = text[..offset].chars().count();
                Some(Position { line: node.start.line, col: node.start.col + opening + chars })
            }
            _ => Some(node.start),
        }
    }

    fn resolve(&self, path: &Path) -> Option<&Node> {
        let mut node = self.root.as_ref()?;
        for segment in &path.0 {
            node = unwrap_some(node);
            let next = match (&node.kind, segment) {
                (Kind::Compound { fields, .. }, Segment::Field(name)) => {
                    fields.iter().find(|(field, _)| field == name).map(|(_, value)| value)
                }
                (Kind::Compound { items, .. } | Kind::Seq(items), Segment::Index(index)) => items.get(*index),
                // The i-th entry of a map is named by its key (where a repeated key is).
                (Kind::Map(entries), Segment::Index(index)) => entries.get(*index).map(|(key, _)| key),
                (Kind::Map(entries), Segment::Key(key)) => entries
                    .iter()
                    .find(|(k, _)| matches!(&k.kind, Kind::Str { text, .. } if text == key))
                    .map(|(_, value)| value),
                _ => None,
            };
            match next {
                Some(next) => node = next,
                None => return Some(node),
            }
        }
        Some(unwrap_some(node))
    }
}

fn unwrap_some(node: &Node) -> &Node {
    match &node.kind {
        Kind::Compound { name: Some(name), fields, items }
            if name == "Some" && fields.is_empty() && items.len() == 1 =>
        {
            &items[0]
        }
        _ => node,
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Open(char),
    Close(char),
    Comma,
    Colon,
    Ident(String),
    Str {
        text: String,
        verbatim: bool,
        opening: usize,
    },
    /// Numbers, chars, `#`, `!` and anything else a value tree does not need to tell apart.
    Atom,
}

struct Scanner<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    col: usize,
}

impl Scanner<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn position(&self) -> Position {
        Position { line: self.line, col: self.col }
    }

    fn skip_block_comment(&mut self) {
        // RON block comments nest.
        let mut depth = 1;
        while depth > 0 {
            match self.bump() {
                None => return,
                Some('/') if self.peek() == Some('*') => {
                    self.bump();
                    depth += 1;
                }
                Some('*') if self.peek() == Some('/') => {
                    self.bump();
                    depth -= 1;
                }
                Some(_) => {}
            }
        }
    }

    /// After the opening quote of a `"…"` string.
    fn quoted(&mut self) -> Tok {
        let mut text = String::new();
        let mut verbatim = true;
        while let Some(c) = self.bump() {
            match c {
                '"' => break,
                '\\' => {
                    verbatim = false;
                    match self.bump() {
                        Some('n') => text.push('\n'),
                        Some('t') => text.push('\t'),
                        Some('r') => text.push('\r'),
                        Some('0') => text.push('\0'),
                        Some('u') => {
                            let mut hex = String::new();
                            while let Some(h) = self.bump() {
                                match h {
                                    '{' => {}
                                    '}' => break,
                                    h if h.is_ascii_hexdigit() && hex.len() < 6 => hex.push(h),
                                    _ => break,
                                }
                            }
                            if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                                text.push(c);
                            }
                        }
                        Some(other) => text.push(other),
                        None => break,
                    }
                }
                '\n' => {
                    verbatim = false;
                    text.push(c);
                }
                c => text.push(c),
            }
        }
        Tok::Str { text, verbatim, opening: 1 }
    }

    /// After the `r` of a raw string `r#"…"#`.
    fn raw(&mut self) -> Tok {
        let mut hashes = 0;
        while self.peek() == Some('#') {
            self.bump();
            hashes += 1;
        }
        self.bump(); // the opening quote
        let mut text = String::new();
        while let Some(c) = self.bump() {
            if c == '"' {
                let mut closing = 0;
                while closing < hashes && self.peek() == Some('#') {
                    self.bump();
                    closing += 1;
                }
                if closing == hashes {
                    break;
                }
                text.push('"');
                text.extend(std::iter::repeat_n('#', closing));
            } else {
                text.push(c);
            }
        }
        // A raw string has no escapes: one line of it maps to columns, after `r`, the `#`s and `"`.
        let verbatim = !text.contains('\n');
        Tok::Str { text, verbatim, opening: 2 + hashes }
    }

    fn char_literal(&mut self) {
        // After the opening `'`: one char or an escape, then `'`.
        if self.bump() == Some('\\') {
            self.bump();
        }
        while let Some(c) = self.bump() {
            if c == '\'' {
                break;
            }
        }
    }
}

/// What a token is, as far as error messages care: brackets, strings and everything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Open(char),
    Close(char),
    Str,
    Other,
}

/// Every token of the source with where it starts and where it ends (the position after its
/// last character), comments and whitespace left out.
pub fn marks(source: &str) -> Vec<(Position, Position, Mark)> {
    tokenize(source)
        .into_iter()
        .map(|(start, tok, end)| {
            let mark = match tok {
                Tok::Open(c) => Mark::Open(c),
                Tok::Close(c) => Mark::Close(c),
                Tok::Str { .. } => Mark::Str,
                _ => Mark::Other,
            };
            (start, end, mark)
        })
        .collect()
}

fn tokenize(source: &str) -> Vec<(Position, Tok, Position)> {
    let mut s = Scanner { chars: source.chars().peekable(), line: 1, col: 1 };
    let mut tokens = Vec::new();
    while let Some(c) = s.peek() {
        let start = s.position();
        if c.is_whitespace() {
            s.bump();
            continue;
        }
        s.bump();
        let tok = match c {
            '/' if s.peek() == Some('/') => {
                while s.peek().is_some_and(|c| c != '\n') {
                    s.bump();
                }
                continue;
            }
            '/' if s.peek() == Some('*') => {
                s.bump();
                s.skip_block_comment();
                continue;
            }
            '(' | '[' | '{' => Tok::Open(c),
            ')' | ']' | '}' => Tok::Close(c),
            ',' => Tok::Comma,
            ':' => Tok::Colon,
            '"' => s.quoted(),
            '\'' => {
                s.char_literal();
                Tok::Atom
            }
            'r' if matches!(s.peek(), Some('"' | '#')) => {
                // `r#ident` is a raw identifier, `r#"…"#` a raw string.
                let mut lookahead = s.chars.clone();
                while lookahead.peek() == Some(&'#') {
                    lookahead.next();
                }
                if lookahead.peek() == Some(&'"') {
                    s.raw()
                } else {
                    s.bump();
                    Tok::Ident(ident_rest(&mut s, String::new()))
                }
            }
            'b' if s.peek() == Some('"') => {
                s.bump();
                match s.quoted() {
                    Tok::Str { text, verbatim, .. } => Tok::Str { text, verbatim, opening: 2 },
                    other => other,
                }
            }
            c if c.is_alphabetic() || c == '_' => Tok::Ident(ident_rest(&mut s, c.to_string())),
            _ => {
                // A number or a stray character: consume the rest of a number-like run.
                while s
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'))
                {
                    s.bump();
                }
                Tok::Atom
            }
        };
        tokens.push((start, tok, s.position()));
    }
    tokens
}

fn ident_rest(s: &mut Scanner<'_>, mut ident: String) -> String {
    while let Some(c) = s.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
        ident.push(c);
        s.bump();
    }
    ident
}

struct Reader<'t> {
    tokens: &'t [(Position, Tok, Position)],
    at: usize,
}

impl<'t> Reader<'t> {
    fn peek(&self) -> Option<&'t Tok> {
        self.tokens.get(self.at).map(|(_, t, _)| t)
    }

    fn peek_at(&self, ahead: usize) -> Option<&'t Tok> {
        self.tokens.get(self.at + ahead).map(|(_, t, _)| t)
    }

    /// Skips `#![enable(…)]` lines at the top.
    fn skip_attributes(&mut self) {
        while self.peek() == Some(&Tok::Atom) && self.peek_at(1) == Some(&Tok::Atom) {
            self.at += 2;
            if self.peek() == Some(&Tok::Open('[')) {
                self.skip_group();
            }
        }
    }

    fn skip_group(&mut self) {
        let mut depth = 0usize;
        while let Some(tok) = self.peek() {
            self.at += 1;
            match tok {
                Tok::Open(_) => depth += 1,
                Tok::Close(_) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn value(&mut self) -> Option<Node> {
        let (start, tok, _) = self.tokens.get(self.at)?.clone();
        self.at += 1;
        let kind = match tok {
            Tok::Open('(') => self.compound(None),
            Tok::Open('[') => Kind::Seq(self.list()),
            Tok::Open('{') => self.map(),
            Tok::Ident(name) if self.peek() == Some(&Tok::Open('(')) => {
                self.at += 1;
                self.compound(Some(name))
            }
            Tok::Str { text, verbatim, opening } => Kind::Str { text, verbatim, opening },
            _ => Kind::Other,
        };
        Some(Node { start, kind })
    }

    /// After `(`: `name: value` fields and positional values up to `)`.
    fn compound(&mut self, name: Option<String>) -> Kind {
        let mut fields = Vec::new();
        let mut items = Vec::new();
        loop {
            match self.peek() {
                None => break,
                Some(Tok::Close(_)) => {
                    self.at += 1;
                    break;
                }
                Some(Tok::Comma) => self.at += 1,
                Some(Tok::Ident(field)) if self.peek_at(1) == Some(&Tok::Colon) => {
                    let field = field.clone();
                    self.at += 2;
                    if let Some(value) = self.value() {
                        fields.push((field, value));
                    }
                }
                Some(_) => items.extend(self.value()),
            }
        }
        Kind::Compound { name, fields, items }
    }

    fn list(&mut self) -> Vec<Node> {
        let mut items = Vec::new();
        loop {
            match self.peek() {
                None => break,
                Some(Tok::Close(_)) => {
                    self.at += 1;
                    break;
                }
                Some(Tok::Comma | Tok::Colon) => self.at += 1,
                Some(_) => items.extend(self.value()),
            }
        }
        items
    }

    fn map(&mut self) -> Kind {
        let mut entries = Vec::new();
        loop {
            match self.peek() {
                None => break,
                Some(Tok::Close(_)) => {
                    self.at += 1;
                    break;
                }
                Some(Tok::Comma) => self.at += 1,
                Some(_) => {
                    let Some(key) = self.value() else { break };
                    if self.peek() == Some(&Tok::Colon) {
                        self.at += 1;
                    }
                    if let Some(value) = self.value() {
                        entries.push((key, value));
                    }
                }
            }
        }
        Kind::Map(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SOURCE: &str = r##"#![enable(implicit_some)]
// a comment with "quotes" and (parens)
(
    name: "demo", /* block /* nested */ comment */
    entities: [
        (name: "A", attributes: [(name: "x", type: S, gen: Pick("pop"))]),
        Entity(name: "B\"q", attributes: []),
    ],
    keys: {
        "A": (pk: "A#{x}", sk: Some("ÉTÉ#{y}")),
        "B": (pk: r#"raw"#),
    },
    limit: Some(3),
    c: 'x', n: -1.5e3,
)
"##;

    fn at(line: usize, col: usize) -> Position {
        Position { line, col }
    }

    #[test]
    fn locates_values_by_path() {
        let map = SourceMap::new(SOURCE);
        let root = Path::root();
        let entities = root.field("entities");
        let keys = root.field("keys");
        let cases = [
            (root.field("name"), at(4, 11)),
            (entities.index(0).field("attributes").index(0).field("gen"), at(6, 60)),
            (entities.index(1), at(7, 9)),
            (entities.index(1).field("name"), at(7, 22)),
            (keys.key("A").field("pk"), at(10, 19)),
            (keys.key("A").field("sk"), at(10, 37)),
            (keys.key("B").field("pk"), at(11, 19)),
            (root.field("limit"), at(13, 17)),
            // Missing leaves resolve to the deepest value found.
            (entities.index(1).field("nope"), at(7, 9)),
            (entities.index(9), at(5, 15)),
            (root, at(3, 1)),
        ];
        for (path, position) in cases {
            assert_eq!(map.locate(&path), Some(position), "{path}");
        }
    }

    #[test]
    fn locates_offsets_inside_verbatim_strings() {
        let map = SourceMap::new(SOURCE);
        let keys = Path::root().field("keys");
        // "A#{x}" opens at col 19: byte 2 ('{') is at col 22.
        assert_eq!(map.locate_in_string(&keys.key("A").field("pk"), 2), Some(at(10, 22)));
        // Multi-byte characters count once: in "ÉTÉ#{y}" (quote at col 37) byte 5 is '#'.
        assert_eq!(map.locate_in_string(&keys.key("A").field("sk"), 5), Some(at(10, 41)));
        // An escaped string points at its start.
        let name = Path::root().field("entities").index(1).field("name");
        assert_eq!(map.locate_in_string(&name, 2), Some(at(7, 22)));
    }

    #[test]
    fn paths_print_like_code() {
        let path = Path::root().field("variants").index(1).field("keys").key("Order").field("pk");
        assert_eq!(path.to_string(), r#"variants[1].keys["Order"].pk"#);
    }

    proptest! {
        #[test]
        fn never_panics(text in "\\PC{0,80}") {
            let map = SourceMap::new(&text);
            let _ = map.locate(&Path::root().field("a").index(0).key("k"));
            let _ = map.locate_in_string(&Path::root().field("a"), 3);
        }
    }
}
