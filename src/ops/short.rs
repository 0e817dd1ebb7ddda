//! The console's side of `keyheat ops`: short forms that expand into the protocol's JSON, and
//! read-only requests answered by a store the caller fills for them.
//!
//! # Short forms
//!
//! The TUI console accepts a request as `keyheat ops` JSON (a line starting with `{`) or as one
//! of these lines, which [`expand`] turns into that JSON (as a value, not text):
//!
//! ```text
//! get   [table T] pk = "USER#42" [and sk = "PROFILE"]
//! query [table T] [index I] pk = "USER#42" [and SORT] [desc|asc] [limit N] [filter EXPR] [count] [consistent]
//! scan  [table T] [index I] [limit N] [filter EXPR] [count] [consistent]
//!
//! SORT: sk = V | sk < V | sk <= V | sk > V | sk >= V | sk between V and V | begins_with(sk, V)
//! ```
//!
//! `pk` and `sk` stand for the partition and sort key attributes of what is read (the table, or
//! the index named); the real attribute names are accepted too. A value in double quotes is a
//! string (S), with `\"` and `\\` escapes; an unquoted number is a number (N). A filter is a
//! FilterExpression written with plain attribute names and literal values (`filter status =
//! "PENDING" and total > 100`); every name and value becomes an ExpressionAttributeNames /
//! ExpressionAttributeValues placeholder, so reserved words (`status`, `name`, `count`…) are safe,
//! and a name in backticks may hold any character. The filter ends at the end of the line or at
//! `limit`, `desc`, `asc`, `count` or `consistent` where the expression is complete. Keywords
//! are case-insensitive. Expanded requests ask for `ReturnConsumedCapacity: INDEXES`. Errors
//! name the column (1-based, in characters) and what was expected there.
//!
//! The caller describes the tables with [`TableKeys`]; the first is the one read when the line
//! names no `table`.
//!
//! # Read-only requests
//!
//! [`ConsoleRead`] (in `read`) parses one request with the same code as `keyheat ops` (so the
//! same parameters, defaults and messages), refuses actions that write or change a store, and
//! answers the rest from a store the caller fills with what the request can read, serialized
//! exactly as `keyheat ops` prints it.

use serde_json::{Map, Value as Json};

use crate::engine::number::Number;

mod lex;
mod read;

use lex::{Tok, Token, lex};
pub use read::{ConsoleRead, LineError, RequestError, console};

pub use crate::engine::sim::{IndexKeys, Read, TableKeys};

/// Why a line is no short form: where it goes wrong and what was expected there, for the
/// console to show (`col 9: expected a quoted string or a number after "="`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShortError {
    /// `col` is 1-based, in characters.
    #[error("col {col}: {message}")]
    At { col: usize, message: String },
    /// No line can be read: there is no table to default to.
    #[error("the replay has no table to read")]
    NoTable,
}

impl ShortError {
    fn at(col: usize, message: impl Into<String>) -> ShortError {
        ShortError::At { col, message: message.into() }
    }
}

/// Expands a short form into the `keyheat ops` request it stands for, as a JSON value (see the
/// module documentation), for [`ConsoleRead::from_json`]. `tables` must not be empty; the first
/// is the default table.
pub fn expand(line: &str, tables: &[TableKeys]) -> Result<Json, ShortError> {
    let tokens = lex(line)?;
    let mut p = Parser { tokens, at: 0, end_col: line.chars().count() + 1 };
    let request = p.request(tables)?;
    Ok(Json::Object(request))
}

/// Which of the read's key attributes a name in the line means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyPart {
    Partition,
    Sort,
}

/// The key attribute names of what a request reads.
struct Target<'a> {
    pk: &'a str,
    sk: Option<&'a str>,
}

impl Target<'_> {
    fn names(&self) -> String {
        match self.sk {
            Some(sk) => format!("pk ({}) or sk ({sk})", self.pk),
            None => format!("pk ({}); it has no sort key", self.pk),
        }
    }
}

/// Words that end a filter where its expression is complete (all DynamoDB reserved words, so
/// no bare attribute of a real expression is mistaken for one).
const CLAUSES: [&str; 5] = ["limit", "desc", "asc", "count", "consistent"];
const FUNCTIONS: [&str; 6] =
    ["attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains", "size"];
const OPERATORS: [&str; 5] = ["and", "or", "not", "between", "in"];

/// ExpressionAttributeNames and ExpressionAttributeValues being built.
#[derive(Default)]
struct Placeholders {
    names: Map<String, Json>,
    values: Map<String, Json>,
}

impl Placeholders {
    /// The `#` placeholder of `name` (one per distinct name), numbered with `prefix`.
    fn name(&mut self, prefix: &str, name: &str) -> String {
        if let Some((key, _)) =
            self.names.iter().find(|(k, v)| k.starts_with(prefix) && v.as_str() == Some(name))
        {
            return key.clone();
        }
        let count = self.names.keys().filter(|k| k.starts_with(prefix)).count();
        let key = format!("{prefix}{count}");
        self.names.insert(key.clone(), Json::from(name));
        key
    }

    fn value(&mut self, prefix: &str, value: Json) -> String {
        let count = self.values.keys().filter(|k| k.starts_with(prefix)).count();
        let key = format!("{prefix}{count}");
        self.values.insert(key.clone(), value);
        key
    }
}

/// What follows the key condition.
#[derive(Default)]
struct Options {
    forward: Option<bool>,
    limit: Option<u64>,
    filter: Option<String>,
    count: bool,
    consistent: bool,
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    end_col: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.kind)
    }

    fn peek_at(&self, offset: usize) -> Option<&Tok> {
        self.tokens.get(self.at + offset).map(|t| &t.kind)
    }

    fn col(&self) -> usize {
        self.tokens.get(self.at).map_or(self.end_col, |t| t.col)
    }

    fn error(&self, message: &str) -> ShortError {
        ShortError::at(self.col(), message)
    }

    /// The next token is this keyword (case-insensitive, not in backticks).
    fn at_keyword(&self, keyword: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word { text, quoted: false }) if text.eq_ignore_ascii_case(keyword))
    }

    fn eat_keyword(&mut self, keyword: &str) -> bool {
        let at = self.at_keyword(keyword);
        if at {
            self.at += 1;
        }
        at
    }

    fn expect_keyword(&mut self, keyword: &str, context: &str) -> Result<(), ShortError> {
        if self.eat_keyword(keyword) {
            Ok(())
        } else {
            Err(self.error(&format!("expected {keyword} {context}")))
        }
    }

    fn expect_sym(&mut self, sym: &str, context: &str) -> Result<(), ShortError> {
        if matches!(self.peek(), Some(Tok::Sym(s)) if *s == sym) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected \"{sym}\" {context}")))
        }
    }

    /// A table or index name: a word or a quoted string.
    fn name(&mut self, what: &str) -> Result<String, ShortError> {
        match self.peek() {
            Some(Tok::Word { text, .. } | Tok::Str(text)) => {
                let text = text.clone();
                self.at += 1;
                Ok(text)
            }
            _ => Err(self.error(&format!("expected {what}"))),
        }
    }

    fn value(&mut self, after: &str) -> Result<Json, ShortError> {
        let col = self.col();
        match self.peek() {
            Some(Tok::Str(text)) => {
                let value = serde_json::json!({ "S": text });
                self.at += 1;
                Ok(value)
            }
            Some(Tok::Num(text)) => {
                let number = Number::parse(text)
                    .map_err(|e| ShortError::at(col, format!("{text} is not a number: {e}")))?;
                self.at += 1;
                Ok(serde_json::json!({ "N": number.to_string() }))
            }
            _ => Err(self.error(&format!("expected a quoted string or a number after {after}"))),
        }
    }

    fn request(&mut self, tables: &[TableKeys]) -> Result<Map<String, Json>, ShortError> {
        let verb = match self.peek() {
            Some(Tok::Word { text, quoted: false }) => text.to_ascii_lowercase(),
            _ => String::new(),
        };
        if !matches!(verb.as_str(), "get" | "query" | "scan") {
            return Err(self.error("expected get, query or scan (or a JSON request starting with {)"));
        }
        self.at += 1;
        let table = self.table(tables)?;
        let index = if verb == "get" { None } else { self.index(table)? };
        let target = match index {
            Some(ix) => Target { pk: &ix.pk, sk: ix.sk.as_deref() },
            None => Target { pk: &table.pk, sk: table.sk.as_deref() },
        };
        let mut out = Map::new();
        let op = match verb.as_str() {
            "get" => "GetItem",
            "query" => "Query",
            _ => "Scan",
        };
        out.insert("op".into(), Json::from(op));
        out.insert("TableName".into(), Json::from(table.name.as_str()));
        if let Some(ix) = index {
            out.insert("IndexName".into(), Json::from(ix.name.as_str()));
        }
        let mut holders = Placeholders::default();
        match verb.as_str() {
            "get" => {
                out.insert("Key".into(), Json::Object(self.get_key(&target)?));
                if let Some(tok) = self.tokens.get(self.at) {
                    // The usual slip: the sort key written without `and`.
                    let hint = match (&tok.kind, target.sk) {
                        (Tok::Word { text, .. }, Some(sk))
                            if text == sk || text.eq_ignore_ascii_case("sk") =>
                        {
                            format!(" — join the sort key with and: … and {sk} = …")
                        }
                        _ => String::new(),
                    };
                    return Err(ShortError::at(tok.col, format!("a get ends after its key{hint}")));
                }
            }
            "query" => {
                let condition = self.key_condition(&target, &mut holders)?;
                out.insert("KeyConditionExpression".into(), Json::from(condition));
            }
            _ => {}
        }
        if verb != "get" {
            let options = self.options(verb == "query", &mut holders)?;
            if let Some(filter) = options.filter {
                out.insert("FilterExpression".into(), Json::from(filter));
            }
            if !holders.names.is_empty() {
                out.insert("ExpressionAttributeNames".into(), Json::Object(holders.names));
            }
            if !holders.values.is_empty() {
                out.insert("ExpressionAttributeValues".into(), Json::Object(holders.values));
            }
            if let Some(forward) = options.forward {
                out.insert("ScanIndexForward".into(), Json::Bool(forward));
            }
            if let Some(limit) = options.limit {
                out.insert("Limit".into(), Json::from(limit));
            }
            if options.count {
                out.insert("Select".into(), Json::from("COUNT"));
            }
            if options.consistent {
                out.insert("ConsistentRead".into(), Json::Bool(true));
            }
        }
        out.insert("ReturnConsumedCapacity".into(), Json::from("INDEXES"));
        Ok(out)
    }

    fn table<'t>(&mut self, tables: &'t [TableKeys]) -> Result<&'t TableKeys, ShortError> {
        let Some(first) = tables.first() else {
            return Err(ShortError::NoTable);
        };
        if !self.eat_keyword("table") {
            return Ok(first);
        }
        let col = self.col();
        let name = self.name("a table name after table")?;
        tables.iter().find(|t| t.name == name).ok_or_else(|| {
            let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
            ShortError::at(col, format!("no table {name:?}; the tables are {}", names.join(", ")))
        })
    }

    fn index<'t>(&mut self, table: &'t TableKeys) -> Result<Option<&'t IndexKeys>, ShortError> {
        if !self.eat_keyword("index") {
            return Ok(None);
        }
        let col = self.col();
        let name = self.name("an index name after index")?;
        let found = table.indexes.iter().find(|i| i.name == name);
        found.map(Some).ok_or_else(|| {
            if table.indexes.is_empty() {
                ShortError::at(col, format!("table {} has no indexes", table.name))
            } else {
                let names: Vec<&str> = table.indexes.iter().map(|i| i.name.as_str()).collect();
                ShortError::at(
                    col,
                    format!(
                        "table {} has no index {name:?}; its indexes are {}",
                        table.name,
                        names.join(", ")
                    ),
                )
            }
        })
    }

    /// A key attribute named in the line: `pk`, `sk`, or the real name.
    fn key_name(&mut self, target: &Target<'_>) -> Result<(KeyPart, String), ShortError> {
        let part = match self.peek() {
            Some(Tok::Word { text, quoted }) => {
                if text == target.pk || (!quoted && text.eq_ignore_ascii_case("pk")) {
                    Some(KeyPart::Partition)
                } else if target
                    .sk
                    .is_some_and(|sk| text == sk || (!quoted && text.eq_ignore_ascii_case("sk")))
                {
                    Some(KeyPart::Sort)
                } else {
                    None
                }
            }
            _ => None,
        };
        let Some(part) = part else {
            return Err(self.error(&format!("expected a key attribute: {}", target.names())));
        };
        self.at += 1;
        let name = match part {
            KeyPart::Partition => target.pk,
            KeyPart::Sort => target.sk.unwrap_or_default(),
        };
        Ok((part, name.to_owned()))
    }

    fn get_key(&mut self, target: &Target<'_>) -> Result<Map<String, Json>, ShortError> {
        let mut key = Map::new();
        loop {
            let col = self.col();
            let (_, name) = self.key_name(target)?;
            if key.contains_key(&name) {
                return Err(ShortError::at(col, format!("{name} is given twice")));
            }
            self.expect_sym("=", &format!("after {name} (a get names the whole key)"))?;
            key.insert(name, self.value("\"=\"")?);
            if !self.eat_keyword("and") {
                break;
            }
        }
        Ok(key)
    }

    fn key_condition(
        &mut self,
        target: &Target<'_>,
        holders: &mut Placeholders,
    ) -> Result<String, ShortError> {
        let col = self.col();
        let (part, name) = self.key_name(target)?;
        if part != KeyPart::Partition {
            return Err(ShortError::at(
                col,
                format!("a query starts with the partition key: pk ({}) = …", target.pk),
            ));
        }
        self.expect_sym("=", &format!("after {name} (a query asks one partition)"))?;
        let value = self.value("\"=\"")?;
        let mut text = format!("#pk = {}", holders.value(":pk", value));
        holders.names.insert("#pk".into(), Json::from(name));
        if !self.eat_keyword("and") {
            return Ok(text);
        }
        text.push_str(" AND ");
        text.push_str(&self.sort_condition(target, holders)?);
        Ok(text)
    }

    fn sort_condition(
        &mut self,
        target: &Target<'_>,
        holders: &mut Placeholders,
    ) -> Result<String, ShortError> {
        let Some(sk) = target.sk else {
            return Err(self.error("this has no sort key, so a query names only the partition key"));
        };
        let mut sort_name = |p: &mut Parser| -> Result<(), ShortError> {
            let col = p.col();
            match p.key_name(target)? {
                (KeyPart::Sort, _) => {
                    holders.names.insert("#sk".into(), Json::from(sk));
                    Ok(())
                }
                (KeyPart::Partition, _) => {
                    Err(ShortError::at(col, format!("expected the sort key: sk ({sk})")))
                }
            }
        };
        if self.eat_keyword("begins_with") {
            self.expect_sym("(", "after begins_with")?;
            sort_name(self)?;
            self.expect_sym(",", "after the sort key in begins_with")?;
            let value = self.value("\",\"")?;
            self.expect_sym(")", "to close begins_with")?;
            return Ok(format!("begins_with(#sk, {})", holders.value(":sk", value)));
        }
        sort_name(self)?;
        if self.eat_keyword("between") {
            let low = self.value("between")?;
            self.expect_keyword("and", "between the two bounds")?;
            let high = self.value("and")?;
            let (low, high) = (holders.value(":sk", low), holders.value(":sk", high));
            return Ok(format!("#sk BETWEEN {low} AND {high}"));
        }
        let op = match self.peek() {
            Some(Tok::Sym(op @ ("=" | "<" | "<=" | ">" | ">="))) => *op,
            _ => {
                return Err(self.error(&format!("expected =, <, <=, >, >= or between after {sk}")));
            }
        };
        self.at += 1;
        let value = self.value(&format!("\"{op}\""))?;
        Ok(format!("#sk {op} {}", holders.value(":sk", value)))
    }

    fn options(&mut self, query: bool, holders: &mut Placeholders) -> Result<Options, ShortError> {
        let mut options = Options::default();
        while let Some(tok) = self.peek() {
            let col = self.col();
            let word = match tok {
                Tok::Word { text, quoted: false } => text.to_ascii_lowercase(),
                _ => String::new(),
            };
            let twice = |given: bool| {
                if given { Err(ShortError::at(col, format!("{word} is given twice"))) } else { Ok(()) }
            };
            match word.as_str() {
                "desc" | "asc" if !query => {
                    return Err(ShortError::at(col, "a scan has no order; desc and asc are for query"));
                }
                "desc" | "asc" => {
                    twice(options.forward.is_some())?;
                    options.forward = Some(word == "asc");
                    self.at += 1;
                }
                "limit" => {
                    twice(options.limit.is_some())?;
                    self.at += 1;
                    let limit = match self.peek() {
                        Some(Tok::Num(n)) => n.parse::<u64>().ok().filter(|&n| n > 0),
                        _ => None,
                    };
                    let Some(limit) = limit else {
                        return Err(self.error("expected a whole number of items (1 or more) after limit"));
                    };
                    self.at += 1;
                    options.limit = Some(limit);
                }
                "count" => {
                    twice(options.count)?;
                    options.count = true;
                    self.at += 1;
                }
                "consistent" => {
                    twice(options.consistent)?;
                    options.consistent = true;
                    self.at += 1;
                }
                "filter" => {
                    twice(options.filter.is_some())?;
                    self.at += 1;
                    options.filter = Some(self.filter(holders)?);
                }
                _ => {
                    let order = if query { "desc, asc, " } else { "" };
                    return Err(ShortError::at(
                        col,
                        format!(
                            "expected {order}limit N, filter …, count or consistent (or the end of the line)"
                        ),
                    ));
                }
            }
        }
        Ok(options)
    }

    /// A filter written with plain names and literal values, as FilterExpression text with
    /// placeholders.
    fn filter(&mut self, holders: &mut Placeholders) -> Result<String, ShortError> {
        let start = self.col();
        let mut pieces: Vec<String> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let mut expect_operand = true;
        while let Some(tok) = self.peek().cloned() {
            let col = self.col();
            match tok {
                Tok::Word { text, quoted } => {
                    let lower = text.to_ascii_lowercase();
                    if !quoted && !expect_operand && open.is_empty() && CLAUSES.contains(&lower.as_str()) {
                        break;
                    }
                    self.at += 1;
                    if !quoted && OPERATORS.contains(&lower.as_str()) {
                        pieces.push(lower.to_ascii_uppercase());
                        expect_operand = true;
                    } else if !quoted
                        && FUNCTIONS.contains(&lower.as_str())
                        && self.peek() == Some(&Tok::Sym("("))
                    {
                        self.at += 1;
                        open.push(col);
                        pieces.push(format!("{lower}("));
                        expect_operand = true;
                    } else {
                        let mut path = holders.name("#f", &text);
                        self.path_rest(&mut path, holders)?;
                        pieces.push(path);
                        expect_operand = false;
                    }
                }
                Tok::Str(_) | Tok::Num(_) => {
                    let value = self.value("the filter")?;
                    pieces.push(holders.value(":f", value));
                    expect_operand = false;
                }
                Tok::Sym("(") => {
                    self.at += 1;
                    open.push(col);
                    pieces.push("(".into());
                    expect_operand = true;
                }
                Tok::Sym(")") => {
                    if open.pop().is_none() {
                        return Err(ShortError::at(col, "this ) closes nothing"));
                    }
                    self.at += 1;
                    pieces.push(")".into());
                    expect_operand = false;
                }
                Tok::Sym(sym @ ("=" | "<>" | "<" | "<=" | ">" | ">=" | ",")) => {
                    self.at += 1;
                    pieces.push(sym.to_owned());
                    expect_operand = true;
                }
                Tok::Sym(sym) => {
                    return Err(ShortError::at(col, format!("unexpected \"{sym}\" in the filter")));
                }
            }
        }
        if let Some(col) = open.pop() {
            return Err(self.error(&format!("expected \")\" to close the \"(\" at col {col}")));
        }
        if pieces.is_empty() {
            return Err(ShortError::at(start, "expected a filter expression after filter"));
        }
        // No space between a function and "(" nor inside "(" … ")".
        let mut text = String::new();
        for piece in pieces {
            let glue = text.is_empty() || text.ends_with('(') || piece == ")" || piece == ",";
            if !glue {
                text.push(' ');
            }
            text.push_str(&piece);
        }
        Ok(text)
    }

    /// The rest of a document path after its first name: `.name` and `[n]` steps.
    fn path_rest(&mut self, path: &mut String, holders: &mut Placeholders) -> Result<(), ShortError> {
        loop {
            match (self.peek(), self.peek_at(1)) {
                (Some(Tok::Sym(".")), Some(Tok::Word { text, .. })) => {
                    let name = holders.name("#f", &text.clone());
                    path.push('.');
                    path.push_str(&name);
                    self.at += 2;
                }
                (Some(Tok::Sym(".")), _) => {
                    self.at += 1;
                    return Err(self.error("expected an attribute name after \".\""));
                }
                (Some(Tok::Sym("[")), Some(Tok::Num(n))) if n.bytes().all(|b| b.is_ascii_digit()) => {
                    let n = n.clone();
                    self.at += 2;
                    self.expect_sym("]", "after a list index")?;
                    path.push('[');
                    path.push_str(&n);
                    path.push(']');
                }
                (Some(Tok::Sym("[")), _) => {
                    self.at += 1;
                    return Err(self.error("expected a list index (a whole number) after \"[\""));
                }
                _ => return Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests;
