//! The condition grammar (ConditionExpression, FilterExpression, KeyConditionExpression) and
//! the checks DynamoDB makes on it before looking at any item.
//!
//! ```text
//! condition  := term ((AND | OR) term)*          AND binds tighter than OR
//! term       := NOT* ('(' condition ')' | comparison | function '(' operand (',' operand)* ')')
//! comparison := operand comparator operand | operand BETWEEN operand AND operand
//!             | operand IN '(' operand (',' operand)* ')'
//! operand    := path | :value | size '(' operand ')' | '(' operand ')'
//! ```
//!
//! Which checks happen here rather than at evaluation follows DynamoDB (AWS guide "Comparison
//! operator and function reference"; the Alternator test suite, run against DynamoDB): a
//! `:value` of the wrong type for `<`, BETWEEN, `begins_with` or `size` is a ValidationException,
//! while an item attribute of the wrong type just makes the condition false.

use super::ast::{Comparator, Cond, Operand};
use super::lexer::Kind;
use super::parser::{
    Parser, Problem, Raw, document_path_message, misused_function_message, operand_count_message,
    operand_type_message, unknown_function_message,
};
use crate::engine::value::{AttributeValue, ValueType};

/// Words of the condition grammar; they cannot be bare attribute names.
pub(super) const KEYWORDS: [&str; 5] = ["AND", "OR", "NOT", "BETWEEN", "IN"];

/// Most values the list of one IN may hold: AWS "Comparison operator and function reference"
/// (Comparators: "The list can contain up to 100 values") and "Constraints" (Expression
/// parameters). The left operand is not one of them: `a IN (:v0, …, :v99)` is accepted, and a
/// list of 101 is refused with `number of operands: 101`, the list's length.
pub(super) const MAX_IN_OPERANDS: usize = 100;

/// What a piece of condition text turned out to be: a condition, or an operand that the text
/// around it has to compare (`(a) = :v`) or reject (`a AND …`).
enum Parsed {
    Cond(Cond),
    Operand(Raw),
}

struct Unit {
    parsed: Parsed,
    /// The unit is exactly a parenthesized group, so more parentheses around it are redundant.
    parens: bool,
}

impl Unit {
    fn cond(cond: Cond) -> Unit {
        Unit { parsed: Parsed::Cond(cond), parens: false }
    }
}

/// Parses a whole condition expression.
pub(super) fn parse(parser: &mut Parser<'_>) -> Result<Cond> {
    let unit = parser.expression()?;
    let cond = parser.require_condition(unit.parsed)?;
    if !parser.at_eof() {
        return Err(parser.syntax_error());
    }
    Ok(cond)
}

type Result<T> = std::result::Result<T, super::ExprError>;

/// One level of parentheses being parsed: the conditions so far, grouped for precedence.
#[derive(Default)]
struct Level {
    /// Finished OR branches.
    alternatives: Vec<Cond>,
    /// The AND chain being built.
    conjunction: Vec<Cond>,
    /// NOTs read before the next term.
    nots: usize,
}

impl Parser<'_> {
    /// `term ((AND | OR) term)*` with `term := NOT* ('(' expression ')' | operand …)`, AND
    /// binding tighter than OR and NOT tighter than both.
    ///
    /// Parentheses are kept on a heap stack rather than the call stack, so 4 KB of `(` cannot
    /// overflow it; the tree that comes out is as deep as its operators (at most 300 when the
    /// parse succeeds), which keeps evaluation's recursion bounded too.
    fn expression(&mut self) -> Result<Unit> {
        let mut levels = vec![Level::default()];
        loop {
            let top = levels.last_mut().expect("the outermost level is never popped");
            while self.at_keyword("NOT") {
                self.advance();
                self.count_operator();
                top.nots += 1;
            }
            if self.peek() == Kind::LParen {
                self.advance();
                levels.push(Level::default());
                continue;
            }
            let operand = self.operand(&KEYWORDS)?;
            let mut unit = self.after_operand(operand, false)?;
            // Place the unit; each `)` that follows closes a level, whose result is placed in turn.
            loop {
                let top = levels.last_mut().expect("the outermost level is never popped");
                let joined = self.at_keyword("AND") || self.at_keyword("OR");
                let alone = top.nots == 0 && top.conjunction.is_empty() && top.alternatives.is_empty();
                if joined || !alone {
                    let cond = self.require_condition(unit.parsed)?;
                    let top = levels.last_mut().expect("the outermost level is never popped");
                    let cond = if top.nots % 2 == 1 { Cond::Not(Box::new(cond)) } else { cond };
                    top.nots = 0;
                    top.conjunction.push(cond);
                    if joined {
                        if self.at_keyword("OR") {
                            let chain = std::mem::take(&mut top.conjunction);
                            top.alternatives.push(all_of(chain));
                        }
                        self.advance();
                        self.count_operator();
                        break;
                    }
                    let mut level = std::mem::take(top);
                    unit = Unit::cond(if level.alternatives.is_empty() {
                        all_of(level.conjunction)
                    } else {
                        level.alternatives.push(all_of(level.conjunction));
                        Cond::Or(level.alternatives)
                    });
                }
                // The level is complete; `unit` is its result.
                if levels.len() == 1 {
                    return Ok(unit);
                }
                self.expect(Kind::RParen)?;
                levels.pop();
                if unit.parens {
                    self.record_redundant_parens();
                }
                unit = match unit.parsed {
                    Parsed::Cond(cond) => Unit { parsed: Parsed::Cond(cond), parens: true },
                    Parsed::Operand(operand) => self.after_operand(operand, true)?,
                };
            }
        }
    }

    /// What follows an operand decides what it is part of.
    fn after_operand(&mut self, left: Raw, parens: bool) -> Result<Unit> {
        let comparator = match self.peek() {
            Kind::Eq => Some(Comparator::Eq),
            Kind::Ne => Some(Comparator::Ne),
            Kind::Lt => Some(Comparator::Lt),
            Kind::Le => Some(Comparator::Le),
            Kind::Gt => Some(Comparator::Gt),
            Kind::Ge => Some(Comparator::Ge),
            _ => None,
        };
        if let Some(comparator) = comparator {
            self.advance();
            self.count_operator();
            let right = self.operand_in_parens(&KEYWORDS)?.0;
            let (left, right) = (self.value_operand(left), self.value_operand(right));
            self.check_distinct(comparator.symbol(), &left, &right);
            if comparator.is_ordering() {
                self.check_orderable(comparator.symbol(), [&left, &right]);
            }
            return Ok(Unit::cond(Cond::Compare(comparator, left, right)));
        }
        if self.at_keyword("BETWEEN") {
            self.advance();
            self.count_operator();
            let low = self.operand_in_parens(&KEYWORDS)?.0;
            self.expect_keyword("AND")?;
            let high = self.operand_in_parens(&KEYWORDS)?.0;
            let (left, low, high) =
                (self.value_operand(left), self.value_operand(low), self.value_operand(high));
            self.check_orderable("BETWEEN", [&left, &low, &high]);
            self.check_bounds(&low, &high);
            return Ok(Unit::cond(Cond::Between(left, low, high)));
        }
        if self.at_keyword("IN") {
            self.advance();
            self.count_operator();
            self.expect(Kind::LParen)?;
            let mut list = vec![self.operand_in_parens(&KEYWORDS)?.0];
            while self.peek() == Kind::Comma {
                self.advance();
                list.push(self.operand_in_parens(&KEYWORDS)?.0);
            }
            self.expect(Kind::RParen)?;
            if list.len() > MAX_IN_OPERANDS {
                self.record(
                    Problem::Limit,
                    format!(
                        "The IN operator is provided with too many operands; number of operands: {}",
                        list.len()
                    ),
                );
            }
            let left = self.value_operand(left);
            let list = list.into_iter().map(|raw| self.value_operand(raw)).collect();
            return Ok(Unit::cond(Cond::In(left, list)));
        }
        match left {
            Raw::Call { name, args } if is_condition_function(&name) => {
                Ok(Unit { parsed: Parsed::Cond(self.condition_function(&name, args)), parens })
            }
            other => Ok(Unit { parsed: Parsed::Operand(other), parens }),
        }
    }

    /// A unit used where a condition must stand. A bare path or value is a syntax error at
    /// the token after it; `size(a)` alone is a misused function.
    fn require_condition(&mut self, parsed: Parsed) -> Result<Cond> {
        match parsed {
            Parsed::Cond(cond) => Ok(cond),
            Parsed::Operand(Raw::Call { name, args }) => {
                if is_known_function(&name) {
                    self.record(Problem::MisusedFunction, misused_function_message(&name));
                } else {
                    self.record(Problem::UnknownFunction, unknown_function_message(&name));
                }
                for arg in args {
                    self.value_operand(arg);
                }
                Ok(Cond::And(Vec::new()))
            }
            Parsed::Operand(_) => Err(self.syntax_error()),
        }
    }

    /// A raw operand where a value is needed: `size` is the only function allowed there.
    fn value_operand(&mut self, raw: Raw) -> Operand {
        match raw {
            Raw::Path(path) => Operand::Path(path),
            Raw::Value(value) => Operand::Value(value),
            Raw::Call { name, args } if name == "size" => {
                let count = args.len();
                let mut args: Vec<Operand> = args.into_iter().map(|arg| self.value_operand(arg)).collect();
                // The grammar gives every call at least one argument.
                let inner =
                    if args.is_empty() { Operand::Value(AttributeValue::Null) } else { args.swap_remove(0) };
                if count != 1 {
                    self.record(Problem::OperandCount, operand_count_message("size", count));
                } else if let Some(t @ (ValueType::N | ValueType::Bool | ValueType::Null)) =
                    inner.static_type()
                {
                    self.record(Problem::OperandType, operand_type_message("size", t.descriptor()));
                }
                Operand::Size(Box::new(inner))
            }
            Raw::Call { name, args } => {
                if is_known_function(&name) {
                    self.record(Problem::MisusedFunction, misused_function_message(&name));
                } else {
                    self.record(Problem::UnknownFunction, unknown_function_message(&name));
                }
                for arg in args {
                    self.value_operand(arg);
                }
                Operand::Value(AttributeValue::Null)
            }
        }
    }

    fn condition_function(&mut self, name: &str, args: Vec<Raw>) -> Cond {
        let count = args.len();
        let expected = if name.starts_with("attribute_") && name != "attribute_type" { 1 } else { 2 };
        if count != expected {
            self.record(Problem::OperandCount, operand_count_message(name, count));
            for arg in args {
                self.value_operand(arg);
            }
            return Cond::And(Vec::new());
        }
        let mut args = args.into_iter();
        let (Some(first), second) = (args.next(), args.next()) else {
            unreachable!("the argument count was checked above")
        };
        match (name, second) {
            ("attribute_exists" | "attribute_not_exists", None) => {
                let Raw::Path(path) = first else {
                    self.record(Problem::OperandType, document_path_message(name));
                    self.value_operand(first);
                    return Cond::And(Vec::new());
                };
                if name == "attribute_exists" { Cond::Exists(path) } else { Cond::NotExists(path) }
            }
            ("attribute_type", Some(second)) => {
                let operand = self.value_operand(first);
                let value_type = self.type_argument(second);
                Cond::Type(operand, value_type.unwrap_or(ValueType::Null))
            }
            ("begins_with", Some(second)) => {
                let (a, b) = (self.value_operand(first), self.value_operand(second));
                self.check_distinct(name, &a, &b);
                for operand in [&a, &b] {
                    if let Some(t) =
                        operand.static_type().filter(|t| !matches!(t, ValueType::S | ValueType::B))
                    {
                        self.record(Problem::OperandType, operand_type_message(name, t.descriptor()));
                    }
                }
                Cond::BeginsWith(a, b)
            }
            (_, Some(second)) => {
                let (a, b) = (self.value_operand(first), self.value_operand(second));
                self.check_distinct(name, &a, &b);
                Cond::Contains(a, b)
            }
            (_, None) => unreachable!("one-argument functions are the attribute_(not_)exists pair"),
        }
    }

    /// `attribute_type`'s second argument: a `:value` string naming a type.
    fn type_argument(&mut self, raw: Raw) -> Option<ValueType> {
        let found = match &raw {
            Raw::Value(AttributeValue::S(text)) => {
                let value_type = ValueType::from_descriptor(text);
                if value_type.is_none() {
                    self.record(
                        Problem::OperandType,
                        format!(
                            "Invalid attribute type name found; type: {text}, valid types: \
                             {{B,NULL,SS,BOOL,L,BS,N,NS,S,M}}"
                        ),
                    );
                }
                return value_type;
            }
            Raw::Value(other) => other.value_type().descriptor(),
            _ => "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}",
        };
        self.record(Problem::OperandType, operand_type_message("attribute_type", found));
        self.value_operand(raw);
        None
    }

    fn check_distinct(&mut self, operator: &str, a: &Operand, b: &Operand) {
        if let (Operand::Path(x), Operand::Path(y)) = (a, b)
            && x == y
        {
            self.record(
                Problem::Distinct,
                format!(
                    "The first operand must be distinct from the remaining operands for this operator or \
                     function; operator: {operator}, first operand: {x}"
                ),
            );
        }
    }

    /// Ordering needs S, N or B; a `:value` of another type is refused before evaluation.
    fn check_orderable<const N: usize>(&mut self, operator: &str, operands: [&Operand; N]) {
        for operand in operands {
            if let Some(t) = operand.static_type()
                && !matches!(t, ValueType::S | ValueType::N | ValueType::B)
            {
                self.record(Problem::OperandType, operand_type_message(operator, t.descriptor()));
            }
        }
    }

    /// BETWEEN with two `:value` bounds: same type, low ≤ high.
    fn check_bounds(&mut self, low: &Operand, high: &Operand) {
        let (Operand::Value(low), Operand::Value(high)) = (low, high) else {
            return;
        };
        let complaint = if low.value_type() != high.value_type() {
            "requires same data type for lower and upper bounds"
        } else if super::eval::order(low, high) == Some(std::cmp::Ordering::Greater) {
            "requires upper bound to be greater than or equal to lower bound"
        } else {
            return;
        };
        self.record(
            Problem::OperandType,
            format!(
                "The BETWEEN operator {complaint}; lower bound operand: AttributeValue: {}, upper bound \
                 operand: AttributeValue: {}",
                brief_value(low),
                brief_value(high)
            ),
        );
    }
}

/// One condition, or the AND of several.
fn all_of(terms: Vec<Cond>) -> Cond {
    match <[Cond; 1]>::try_from(terms) {
        Ok([one]) => one,
        Err(terms) => Cond::And(terms),
    }
}

/// A scalar as DynamoDB prints it in BETWEEN messages: `{N:5}`, `{S:dog}` (binary in base64).
fn brief_value(value: &AttributeValue) -> String {
    let descriptor = value.value_type().descriptor();
    match value.as_key() {
        Some(key) => format!("{{{descriptor}:{key}}}"),
        None => format!("{{{descriptor}}}"),
    }
}

fn is_condition_function(name: &str) -> bool {
    matches!(
        name,
        "attribute_exists" | "attribute_not_exists" | "attribute_type" | "begins_with" | "contains"
    )
}

/// Functions DynamoDB knows in some expression; using one in the wrong place is "not allowed
/// to be used this way" rather than "Invalid function name". Names are case-sensitive.
pub(super) fn is_known_function(name: &str) -> bool {
    is_condition_function(name) || matches!(name, "size" | "if_not_exists" | "list_append")
}
