//! A read on Cosmos DB that gives the first levels of a hierarchical partition key is a query
//! routed to the physical partitions holding that prefix; one that gives a later level without
//! the first is a cross-partition query; one that gives every level reads logical partitions.

use super::{pattern, plan_src};
use crate::engine::planner::Operation;

const TENANT_FILES: &str = include_str!("../../../../scenarios/tenant-files.ron");

/// tenant-files with a read of 10 documents given `given` (`probe`), on a key of three levels
/// (tenant, owner, seq) in the recommended variant; an owner is one of 100 numbers, which a
/// caller can give.
fn three_levels(given: &str) -> String {
    TENANT_FILES
        .replacen(
            r#"(name: "owner", type: S, gen: Payload(24))"#,
            r#"(name: "owner", type: N, gen: Number(Uniform(0, 99)))"#,
            1,
        )
        .replacen(
            "    patterns: [\n",
            &format!(
                "    patterns: [\n        (name: \"probe\", action: List, entity: \"Document\", given: [{given}], limit: 10, rate: 0.05),\n"
            ),
            1,
        )
        .replacen(
            r#"pk: ["{tenant_id}", "{bucket(uploaded_at, 10m)}"]"#,
            r#"pk: ["{tenant_id}", "T#{owner}", "{seq}"]"#,
            1,
        )
}

#[test]
fn the_levels_a_read_gives_decide_its_shape() {
    // (given, the prefix's paths if it is one, the request)
    let cases: [(&str, Option<&[&str]>, Operation); 6] = [
        (r#""tenant_id""#, Some(&["tenant_id"]), Operation::Query),
        (r#""tenant_id", "owner""#, Some(&["tenant_id", "PK2"]), Operation::Query),
        // The second level missing: the first alone is the prefix.
        (r#""tenant_id", "seq""#, Some(&["tenant_id"]), Operation::Query),
        // Every level: one logical partition, no prefix.
        (r#""tenant_id", "owner", "seq""#, None, Operation::Query),
        // A later level without the first stays a query across every partition.
        (r#""owner""#, None, Operation::Scan),
        (r#""owner", "seq""#, None, Operation::Scan),
    ];
    for (given, prefix, operation) in cases {
        let plan = plan_src(&three_levels(given), "recommended");
        let p = pattern(&plan, "probe");
        assert_eq!(p.operation, Some(operation), "given {given}: {:#?}", p.verdict);
        let paths = p.key_prefix().map(|k| k.given.clone());
        let want = prefix.map(|paths| paths.iter().map(|&s| s.to_owned()).collect::<Vec<_>>());
        assert_eq!(paths, want, "given {given}");
        if let Some(k) = p.key_prefix() {
            assert_eq!((k.levels, k.of, p.fanout), (3, Some(10), 1), "given {given}");
            // The query tests each level it gives at its own path.
            let condition = p.key_condition.as_deref().unwrap_or_default();
            assert!(condition.starts_with("c.tenant_id = @tenant_id"), "{condition}");
            assert!(!condition.contains("c.PK = "), "{condition}");
        }
    }
}
