//! KeyConditionExpression: the terms Query gets, and what it refuses.

use serde_json::json;

use super::{context, value};
use crate::engine::expr::{KeyOp, KeyTerm, parse_key_condition};

fn terms(text: &str) -> Vec<(String, KeyOp)> {
    let condition = parse_key_condition(text, &mut context()).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    condition.terms.into_iter().map(|KeyTerm { attribute, op }| (attribute, op)).collect()
}

#[test]
fn accepted_shapes() {
    let s = || value(&json!({"S": "hello"}));
    let he = || value(&json!({"S": "he"}));
    let n = |x: &str| value(&json!({"N": x}));
    let pk = |op| ("pk".to_owned(), op);
    let sk = |op| ("sk".to_owned(), op);
    let cases = [
        ("pk = :s", vec![pk(KeyOp::Eq(s()))]),
        ("#p = :s", vec![pk(KeyOp::Eq(s()))]),
        ("pk = :s AND sk = :n5", vec![pk(KeyOp::Eq(s())), sk(KeyOp::Eq(n("5")))]),
        ("pk = :s AND sk < :n5", vec![pk(KeyOp::Eq(s())), sk(KeyOp::Lt(n("5")))]),
        ("pk = :s AND sk <= :n5", vec![pk(KeyOp::Eq(s())), sk(KeyOp::Le(n("5")))]),
        ("pk = :s AND sk > :n5", vec![pk(KeyOp::Eq(s())), sk(KeyOp::Gt(n("5")))]),
        ("pk = :s AND sk >= :n5", vec![pk(KeyOp::Eq(s())), sk(KeyOp::Ge(n("5")))]),
        ("pk = :s and sk BETWEEN :n4 AND :n6", vec![pk(KeyOp::Eq(s())), sk(KeyOp::Between(n("4"), n("6")))]),
        ("pk = :s AND begins_with(sk, :he)", vec![pk(KeyOp::Eq(s())), sk(KeyOp::BeginsWith(he()))]),
        ("begins_with(sk, :he) AND pk = :s", vec![sk(KeyOp::BeginsWith(he())), pk(KeyOp::Eq(s()))]),
        // A value on the left flips the comparison.
        (":n5 > sk AND :s = pk", vec![sk(KeyOp::Lt(n("5"))), pk(KeyOp::Eq(s()))]),
        (":n5 <= sk AND pk = :s", vec![sk(KeyOp::Ge(n("5"))), pk(KeyOp::Eq(s()))]),
        ("(pk = :s) AND (sk = :n5)", vec![pk(KeyOp::Eq(s())), sk(KeyOp::Eq(n("5")))]),
        ("(pk = :s AND sk = :n5)", vec![pk(KeyOp::Eq(s())), sk(KeyOp::Eq(n("5")))]),
    ];
    for (text, expected) in cases {
        assert_eq!(terms(text), expected, "{text}");
    }
}

#[test]
fn refused_shapes() {
    let cases = [
        ("pk = :s OR sk = :n5", "Invalid operator used in KeyConditionExpression: OR"),
        ("NOT pk = :s", "Invalid operator used in KeyConditionExpression: NOT"),
        ("pk IN (:s, :he)", "Invalid operator used in KeyConditionExpression: IN"),
        ("pk <> :s", "Invalid operator used in KeyConditionExpression: <>"),
        ("attribute_exists(pk)", "Invalid operator used in KeyConditionExpression: attribute_exists"),
        ("attribute_not_exists(pk)", "Invalid operator used in KeyConditionExpression: attribute_not_exists"),
        ("attribute_type(pk, :S)", "Invalid operator used in KeyConditionExpression: attribute_type"),
        ("pk = :s AND contains(sk, :he)", "Invalid operator used in KeyConditionExpression: contains"),
        ("pk = :s AND sk = :n5 AND x = :n4", "Conditions can be of length 1 or 2 only"),
        ("pk = :s AND pk = :he", "KeyConditionExpressions must only contain one condition per key"),
        ("pk.x = :s", "KeyConditionExpressions cannot have conditions on nested attributes"),
        ("pk[0] = :s", "KeyConditionExpressions cannot have conditions on nested attributes"),
        (
            "pk = sk",
            "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition",
        ),
        (
            "pk = :s AND sk BETWEEN :n4 AND x",
            "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition",
        ),
        (":s = :he", "Invalid condition in KeyConditionExpression: No key attribute specified"),
        ("size(pk) = :n5", "KeyConditionExpressions cannot contain nested operations"),
        (
            "pk = :s AND :n5 BETWEEN sk AND :n6",
            "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand",
        ),
        (
            "begins_with(:s, pk)",
            "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand",
        ),
        ("pk = :s AND", r#"Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: "AND""#),
        (
            "status = :s",
            "Invalid KeyConditionExpression: Attribute name is a reserved keyword; reserved keyword: status",
        ),
        ("", "Invalid KeyConditionExpression: The expression can not be empty;"),
        (
            "pk = :s AND sk < :true",
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: BOOL",
        ),
    ];
    for (text, expected) in cases {
        let error = parse_key_condition(text, &mut context()).expect_err(text);
        assert_eq!(error.message, expected, "{text}");
    }
}
