//! The UpdateExpression grammar and the checks DynamoDB makes on it before reading the item.
//!
//! ```text
//! update  := clause+                          each of SET, REMOVE, ADD, DELETE at most once
//! clause  := SET set (',' set)* | REMOVE path (',' path)*
//!          | ADD path :value (',' …)* | DELETE path :value (',' …)*
//! set     := path '=' value
//! value   := term | '(' term ')' | '(' operand ')' ('+' | '-') operand
//! term    := operand (('+' | '-') operand)?   exactly one operator at most: `a + b + c` is an error
//! operand := path | :value | if_not_exists(path, operand) | list_append(operand, operand)
//! ```
//!
//! No two actions may touch overlapping paths (`a` and `a.b`, or `a` twice). Function names are
//! case-sensitive; clause words are not. (AWS guide "Update expressions"; the Alternator and
//! dynalite test suites, both checked against DynamoDB.)

use super::ExprError;
use super::ast::{Action, SetOperand, SetValue};
use super::condition::is_known_function;
use super::lexer::Kind;
use super::parser::{
    Parser, Problem, Raw, document_path_message, long_type_name, misused_function_message,
    operand_count_message, operand_type_message, unknown_function_message,
};
use super::path::{Relation, relation_message};
use crate::engine::value::{AttributeValue, ValueType};

/// Clause words; they cannot be bare attribute names in an update.
pub(super) const KEYWORDS: [&str; 4] = ["SET", "REMOVE", "ADD", "DELETE"];

/// Parses a whole update; the actions come back in the order written.
pub(super) fn parse(parser: &mut Parser<'_>) -> Result<Vec<Action>, ExprError> {
    let mut actions = Vec::new();
    let mut seen = [false; KEYWORDS.len()];
    while !parser.at_eof() {
        let Some(clause) = KEYWORDS.iter().position(|word| parser.at_keyword(word)) else {
            return Err(parser.syntax_error());
        };
        parser.advance();
        if std::mem::replace(&mut seen[clause], true) {
            parser.record(
                Problem::Section,
                format!(
                    "The \"{}\" section can only be used once in an update expression;",
                    KEYWORDS[clause]
                ),
            );
        }
        loop {
            actions.push(parser.action(clause)?);
            if parser.peek() != Kind::Comma {
                break;
            }
            parser.advance();
        }
    }
    for (i, later) in actions.iter().enumerate() {
        for earlier in &actions[..i] {
            let relation = earlier.path().relation(later.path());
            if let Some(message) = relation_message(relation, earlier.path(), later.path()) {
                let problem =
                    if relation == Relation::Overlap { Problem::Overlap } else { Problem::Conflict };
                parser.record(problem, message);
            }
        }
    }
    Ok(actions)
}

impl Parser<'_> {
    fn action(&mut self, clause: usize) -> Result<Action, ExprError> {
        let path = self.path(&KEYWORDS)?;
        match KEYWORDS[clause] {
            "SET" => {
                self.expect(Kind::Eq)?;
                let value = self.set_value()?;
                Ok(Action::Set(path, value))
            }
            "REMOVE" => Ok(Action::Remove(path)),
            word => {
                if self.peek() != Kind::Value {
                    return Err(self.syntax_error());
                }
                let value = self.value();
                let allowed = match value.value_type() {
                    ValueType::Ss | ValueType::Ns | ValueType::Bs => true,
                    ValueType::N => word == "ADD",
                    _ => false,
                };
                if !allowed {
                    self.record(
                        Problem::OperandType,
                        format!(
                            "Incorrect operand type for operator or function; operator: {word}, operand type: {}",
                            long_type_name(&value)
                        ),
                    );
                }
                Ok(if word == "ADD" { Action::Add(path, value) } else { Action::Delete(path, value) })
            }
        }
    }

    fn set_value(&mut self) -> Result<SetValue, ExprError> {
        if self.peek() != Kind::LParen {
            return self.set_term();
        }
        self.advance();
        self.enter()?;
        let inner = self.set_term()?;
        self.expect(Kind::RParen)?;
        self.leave();
        match inner {
            SetValue::Operand(first) if matches!(self.peek(), Kind::Plus | Kind::Minus) => {
                self.arithmetic(first)
            }
            other => Ok(other),
        }
    }

    fn set_term(&mut self) -> Result<SetValue, ExprError> {
        let first = self.set_operand()?;
        if matches!(self.peek(), Kind::Plus | Kind::Minus) {
            return self.arithmetic(first);
        }
        Ok(SetValue::Operand(first))
    }

    /// `first (+|-) second`, with the cursor on the operator.
    fn arithmetic(&mut self, first: SetOperand) -> Result<SetValue, ExprError> {
        let plus = self.peek() == Kind::Plus;
        self.advance();
        self.count_operator();
        let second = self.set_operand()?;
        let symbol = if plus { "+" } else { "-" };
        for operand in [&first, &second] {
            if let Some(t) = operand.static_type().filter(|t| *t != ValueType::N) {
                self.record(Problem::OperandType, operand_type_message(symbol, t.descriptor()));
            }
        }
        Ok(if plus { SetValue::Plus(first, second) } else { SetValue::Minus(first, second) })
    }

    fn set_operand(&mut self) -> Result<SetOperand, ExprError> {
        let raw = self.operand_in_parens(&KEYWORDS)?.0;
        Ok(self.set_operand_of(raw, false))
    }

    /// DynamoDB refuses `list_append` directly inside `list_append` ("not allowed to be used
    /// this way"), though `if_not_exists` may nest anywhere.
    fn set_operand_of(&mut self, raw: Raw, inside_list_append: bool) -> SetOperand {
        let dummy = SetOperand::Value(AttributeValue::Null);
        let (name, args) = match raw {
            Raw::Path(path) => return SetOperand::Path(path),
            Raw::Value(value) => return SetOperand::Value(value),
            Raw::Call { name, args } => (name, args),
        };
        let function = name.as_str();
        match function {
            "if_not_exists" | "list_append" if args.len() != 2 => {
                self.record(Problem::OperandCount, operand_count_message(function, args.len()));
                for arg in args {
                    self.set_operand_of(arg, false);
                }
                dummy
            }
            "if_not_exists" => {
                let mut args = args.into_iter();
                let (Some(first), Some(fallback)) = (args.next(), args.next()) else {
                    unreachable!("if_not_exists has two arguments (checked above)")
                };
                let fallback = self.set_operand_of(fallback, inside_list_append);
                match first {
                    Raw::Path(path) => SetOperand::IfNotExists(path, Box::new(fallback)),
                    other => {
                        self.record(Problem::OperandType, document_path_message(function));
                        self.set_operand_of(other, false);
                        dummy
                    }
                }
            }
            "list_append" => {
                if inside_list_append {
                    self.record(Problem::MisusedFunction, misused_function_message(function));
                }
                let mut args = args.into_iter().map(|arg| self.set_operand_of(arg, true));
                let (Some(a), Some(b)) = (args.next(), args.next()) else {
                    unreachable!("list_append has two arguments (checked above)")
                };
                for operand in [&a, &b] {
                    if let Some(t) = operand.static_type().filter(|t| *t != ValueType::L) {
                        self.record(Problem::OperandType, operand_type_message(function, t.descriptor()));
                    }
                }
                SetOperand::ListAppend(Box::new(a), Box::new(b))
            }
            _ => {
                if is_known_function(function) {
                    self.record(Problem::MisusedFunction, misused_function_message(function));
                } else {
                    self.record(Problem::UnknownFunction, unknown_function_message(function));
                }
                for arg in args {
                    self.set_operand_of(arg, false);
                }
                dummy
            }
        }
    }
}
