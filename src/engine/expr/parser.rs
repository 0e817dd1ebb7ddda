//! The parser's shared machinery: the token cursor, DynamoDB's syntax-error message, limits,
//! placeholder resolution, document paths, and operands (paths, values and function calls).
//!
//! A syntax error stops the parse at once. Other mistakes (an undefined `#name`, a reserved
//! word, a misused function…) are recorded and the parse goes on, because DynamoDB reports a
//! syntax error anywhere in the text before any of them, and then the most important of them
//! (the order of [`Problem`]). The grammars themselves live in `condition`, `update` and
//! `projection`.

use super::lexer::{Kind, Token, tokenize};
use super::path::{Path, Step};
use super::reserved::is_reserved;
use super::{ExprError, ExpressionContext, ExpressionKind};
use crate::engine::value::{AttributeValue, MAX_NESTING_LEVELS};

/// Longest expression DynamoDB accepts, in bytes (AWS "Constraints": "The maximum length of any
/// expression string is 4 KB").
pub(super) const MAX_EXPRESSION_BYTES: usize = 4096;
/// Operators and functions allowed in one expression (AWS "Constraints"; DynamoDB's message is
/// "The expression contains too many operators; operator count: 301").
pub(super) const MAX_OPERATORS: usize = 300;
/// Nesting of operands: function calls inside function calls and parentheses around operands,
/// the only recursion left in the parsers (a condition's own parentheses use a heap stack).
/// DynamoDB documents no such limit; real expressions nest a few `if_not_exists` at most, and
/// the limit keeps 4 KB of `size(size(…` from exhausting the stack (a level takes about 3 KB of
/// stack in a debug build).
pub(super) const MAX_DEPTH: usize = 128;

/// Recorded (non-syntax) mistakes, most important first: the first recorded message of the
/// first kind present is the one reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Problem {
    Limit,
    Parens,
    UnknownFunction,
    MisusedFunction,
    Reserved,
    Section,
    Undefined,
    OperandCount,
    Overlap,
    Conflict,
    Distinct,
    OperandType,
}

const PROBLEM_KINDS: usize = Problem::OperandType as usize + 1;

/// An operand before the grammar decides what it may be: function calls keep their raw
/// arguments so each grammar can apply its own rules to them.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Raw {
    Path(Path),
    Value(AttributeValue),
    Call { name: String, args: Vec<Raw> },
}

pub(super) struct Parser<'a> {
    source: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    kind: ExpressionKind,
    ctx: &'a mut ExpressionContext,
    problems: [Option<String>; PROBLEM_KINDS],
    operators: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    /// Rejects an empty or oversized expression before lexing it.
    pub fn new(
        kind: ExpressionKind,
        source: &'a str,
        ctx: &'a mut ExpressionContext,
    ) -> Result<Parser<'a>, ExprError> {
        if source.trim().is_empty() {
            return Err(invalid(kind, "The expression can not be empty;"));
        }
        if source.len() > MAX_EXPRESSION_BYTES {
            return Err(invalid(
                kind,
                &format!(
                    "Expression size has exceeded the maximum allowed size; expression size: {}",
                    source.len()
                ),
            ));
        }
        Ok(Parser {
            source,
            tokens: tokenize(source),
            pos: 0,
            kind,
            ctx,
            problems: Default::default(),
            operators: 0,
            depth: 0,
        })
    }

    pub fn peek(&self) -> Kind {
        self.tokens[self.pos].kind
    }

    pub fn peek_at(&self, ahead: usize) -> Kind {
        self.tokens.get(self.pos + ahead).map_or(Kind::Eof, |t| t.kind)
    }

    fn text(&self) -> &'a str {
        self.tokens[self.pos].text(self.source)
    }

    pub fn advance(&mut self) {
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
    }

    /// True when the current token is the (case-insensitive) keyword `word`.
    pub fn at_keyword(&self, word: &str) -> bool {
        self.peek() == Kind::Ident && self.text().eq_ignore_ascii_case(word)
    }

    pub fn at_any_keyword(&self, words: &[&str]) -> bool {
        words.iter().any(|w| self.at_keyword(w))
    }

    pub fn expect(&mut self, kind: Kind) -> Result<(), ExprError> {
        if self.peek() == kind {
            self.advance();
            Ok(())
        } else {
            Err(self.syntax_error())
        }
    }

    pub fn expect_keyword(&mut self, word: &str) -> Result<(), ExprError> {
        if self.at_keyword(word) {
            self.advance();
            Ok(())
        } else {
            Err(self.syntax_error())
        }
    }

    /// DynamoDB's syntax error at the current token. `near` spans from the previous token to
    /// the next one: `token: "=", near: "SET ="`, `token: ":", near: "hits : incr"`,
    /// `token: "<EOF>", near: "+"`.
    pub fn syntax_error(&self) -> ExprError {
        let token = self.tokens[self.pos];
        let previous = self.pos.checked_sub(1).map(|i| self.tokens[i]);
        let start = previous.map_or(token.start, |t| t.start);
        let end = match (token.kind, self.tokens.get(self.pos + 1)) {
            (Kind::Eof, _) => previous.map_or(token.end, |t| t.end),
            (_, Some(next)) if next.kind != Kind::Eof => next.end,
            _ => token.end,
        };
        let shown = if token.kind == Kind::Eof { "<EOF>" } else { token.text(self.source) };
        invalid(
            self.kind,
            &format!("Syntax error; token: \"{shown}\", near: \"{}\"", &self.source[start..end]),
        )
    }

    pub fn error(&self, message: &str) -> ExprError {
        invalid(self.kind, message)
    }

    pub fn record(&mut self, problem: Problem, message: String) {
        let slot = &mut self.problems[problem as usize];
        if slot.is_none() {
            *slot = Some(message);
        }
    }

    /// The most important recorded problem, as the parse's error.
    pub fn finish(self) -> Result<(), ExprError> {
        match self.problems.iter().flatten().next() {
            Some(message) => Err(invalid(self.kind, message)),
            None => Ok(()),
        }
    }

    pub fn count_operator(&mut self) {
        self.operators += 1;
        if self.operators == MAX_OPERATORS + 1 {
            self.record(
                Problem::Limit,
                format!("The expression contains too many operators; operator count: {}", self.operators),
            );
        }
    }

    pub fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(&format!(
                "The expression is nested too deeply; more than {MAX_DEPTH} levels of function calls or parentheses around an operand"
            )));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// `path := (ident | #name) ('.' (ident | #name) | '[' digits ']')*`. Words in `keywords`
    /// are grammar words and cannot name an attribute. A path reaches at most as deep as a
    /// document nests (AWS "Constraints": "nested attributes up to 32 levels deep"): 33 parts
    /// are refused with DynamoDB's message (as recorded by ScyllaDB's Alternator tests,
    /// `test_projection_expression.py`).
    pub fn path(&mut self, keywords: &[&str]) -> Result<Path, ExprError> {
        let mut steps = vec![Step::Key(self.path_name(keywords)?)];
        loop {
            match self.peek() {
                Kind::Dot => {
                    self.advance();
                    steps.push(Step::Key(self.path_name(keywords)?));
                }
                Kind::LBracket => {
                    self.advance();
                    if self.peek() != Kind::Number {
                        return Err(self.syntax_error());
                    }
                    let index = self.text().parse::<usize>().map_err(|_| self.syntax_error())?;
                    self.advance();
                    self.expect(Kind::RBracket)?;
                    steps.push(Step::Index(index));
                }
                _ => break,
            }
        }
        if steps.len() > MAX_NESTING_LEVELS {
            self.record(
                Problem::Limit,
                format!("The document path has too many nesting levels; nesting levels: {}", steps.len()),
            );
        }
        Ok(Path::new(steps).expect("a parsed path starts with a name"))
    }

    fn path_name(&mut self, keywords: &[&str]) -> Result<String, ExprError> {
        match self.peek() {
            Kind::Ident if !self.at_any_keyword(keywords) => {
                let name = self.text();
                if is_reserved(name) {
                    self.record(
                        Problem::Reserved,
                        format!("Attribute name is a reserved keyword; reserved keyword: {name}"),
                    );
                }
                self.advance();
                Ok(name.to_owned())
            }
            Kind::Name => {
                let placeholder = self.text();
                self.advance();
                if let Some(name) = self.ctx.use_name(placeholder) {
                    return Ok(name.to_owned());
                }
                self.record(
                    Problem::Undefined,
                    format!(
                        "An expression attribute name used in the document path is not defined; \
                         attribute name: {placeholder}"
                    ),
                );
                Ok(String::new())
            }
            _ => Err(self.syntax_error()),
        }
    }

    /// The value of the `:value` token at the cursor (the caller checked the kind).
    pub fn value(&mut self) -> AttributeValue {
        let placeholder = self.text();
        self.advance();
        if let Some(value) = self.ctx.use_value(placeholder) {
            return value.clone();
        }
        self.record(
            Problem::Undefined,
            format!("An expression attribute value used in expression is not defined; attribute value: {placeholder}"),
        );
        AttributeValue::Null
    }

    /// `operand := :value | name '(' args ')' | path`.
    pub fn operand(&mut self, keywords: &[&str]) -> Result<Raw, ExprError> {
        match self.peek() {
            Kind::Value => Ok(Raw::Value(self.value())),
            Kind::Ident if self.peek_at(1) == Kind::LParen && !self.at_any_keyword(keywords) => {
                let name = self.text().to_owned();
                self.advance();
                self.advance();
                self.count_operator();
                self.enter()?;
                let mut args = vec![self.operand_in_parens(keywords)?.0];
                while self.peek() == Kind::Comma {
                    self.advance();
                    args.push(self.operand_in_parens(keywords)?.0);
                }
                self.expect(Kind::RParen)?;
                self.leave();
                Ok(Raw::Call { name, args })
            }
            _ => Ok(Raw::Path(self.path(keywords)?)),
        }
    }

    /// `'(' operand ')' | operand`; the flag says whether parentheses were there. Parentheses
    /// around parentheses are DynamoDB's "redundant parentheses" mistake.
    pub fn operand_in_parens(&mut self, keywords: &[&str]) -> Result<(Raw, bool), ExprError> {
        if self.peek() != Kind::LParen {
            return Ok((self.operand(keywords)?, false));
        }
        self.advance();
        self.enter()?;
        let (inner, parenthesized) = self.operand_in_parens(keywords)?;
        if parenthesized {
            self.record_redundant_parens();
        }
        self.expect(Kind::RParen)?;
        self.leave();
        Ok((inner, true))
    }

    pub fn record_redundant_parens(&mut self) {
        self.record(Problem::Parens, "The expression has redundant parentheses;".to_owned());
    }

    pub fn at_eof(&self) -> bool {
        self.peek() == Kind::Eof
    }
}

/// `Invalid <Parameter>: <message>`, the prefix DynamoDB puts on every parse-time error.
pub(super) fn invalid(kind: ExpressionKind, message: &str) -> ExprError {
    ExprError { message: format!("Invalid {}: {message}", kind.parameter()) }
}

/// The names DynamoDB's update messages use for value types (`operator: ADD, operand type: STRING`).
pub(super) fn long_type_name(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "STRING",
        AttributeValue::N(_) => "NUMBER",
        AttributeValue::B(_) => "BINARY",
        AttributeValue::Bool(_) => "BOOLEAN",
        AttributeValue::Null => "NULL",
        AttributeValue::L(_) => "LIST",
        AttributeValue::M(_) => "MAP",
        AttributeValue::Ss(_) => "STRING_SET",
        AttributeValue::Ns(_) => "NUMBER_SET",
        AttributeValue::Bs(_) => "BINARY_SET",
    }
}

/// `Incorrect number of operands…` for a function called with the wrong number of arguments.
pub(super) fn operand_count_message(function: &str, count: usize) -> String {
    format!(
        "Incorrect number of operands for operator or function; operator or function: {function}, \
         number of operands: {count}"
    )
}

pub(super) fn operand_type_message(function: &str, descriptor: &str) -> String {
    format!(
        "Incorrect operand type for operator or function; operator or function: {function}, operand type: {descriptor}"
    )
}

pub(super) fn document_path_message(function: &str) -> String {
    format!("Operator or function requires a document path; operator or function: {function}")
}

pub(super) fn misused_function_message(function: &str) -> String {
    format!("The function is not allowed to be used this way in an expression; function: {function}")
}

pub(super) fn unknown_function_message(function: &str) -> String {
    format!("Invalid function name; function: {function}")
}
