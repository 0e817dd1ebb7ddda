//! `collection-order`: a parent read with its children, ordered and limited, must start at the
//! end of the item collection where the parent's sort key sorts.

use super::plan_src;
use crate::engine::planner::WarningCode;

/// Customers with their orders in one partition (`tests/fixtures/customer-orders.ron`).
const TOGETHER: &str = include_str!("../../../../tests/fixtures/customer-orders.ron");

/// Whether `check` warns `collection-order` for the read `order: …, limit: …` (`read` replaces
/// the pattern's end) with the Customer's sort key `parent` and the Order's `child`.
fn warns(read: &str, parent: &str, child: &str) -> bool {
    let source = TOGETHER
        .replace(
            r#"given: ["customer_id"], rate: 20)"#,
            &format!(r#"given: ["customer_id"]{read}, rate: 20)"#),
        )
        .replacen(
            r#"(pk: "CUST#{customer_id}", sk: "PROFILE")"#,
            &format!(r#"(pk: "CUST#{{customer_id}}", sk: "{parent}")"#),
            1,
        )
        .replacen(r#"sk: "ORDER#{order_id}""#, &format!(r#"sk: "{child}""#), 1);
    plan_src(&source, "together").warnings.iter().any(|w| w.code == WarningCode::CollectionOrder)
}

#[test]
fn a_limited_read_must_start_where_the_parent_sorts() {
    let cases = [
        // Desc reads from the highest sort key: PROFILE > ORDER#…, A#PROFILE < ORDER#….
        (", order: Desc, limit: 5", "PROFILE", "ORDER#{placed_at}", false),
        (", order: Desc, limit: 5", "A#PROFILE", "ORDER#{placed_at}", true),
        // Asc reads from the lowest.
        (", limit: 5", "PROFILE", "ORDER#{placed_at}", true),
        (", limit: 5", "A#PROFILE", "ORDER#{placed_at}", false),
        // A whole literal that is a prefix of the children's sorts before them.
        (", order: Desc, limit: 5", "ORDER", "ORDER#{placed_at}", true),
        // Where the slots decide, nothing is said; without a limit every item comes back.
        (", order: Desc, limit: 5", "ORDER#{customer_id}", "ORDER#{placed_at}", false),
        (", order: Desc", "A#PROFILE", "ORDER#{placed_at}", false),
    ];
    for (read, parent, child, expected) in cases {
        assert_eq!(warns(read, parent, child), expected, "{read} with {parent} / {child}");
    }
}
