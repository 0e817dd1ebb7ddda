//! The words of each kind of verdict, and the shape `check`'s JSON gives them.

use crate::engine::planner::verdict::{
    Access, ClassAccess, Considered, Cost, Descending, LocateRead, Locating, NameGap, Naming, QueryReading,
    QueryShape, ReadHow, ReadVerdict, Scan, Served, Stopped, TransactRead, Unserved, Verdict, WriteVerdict,
    Writes,
};
use crate::engine::planner::{Operation, PAGE_BYTES, WriteTarget};

fn query(items: f64, bytes: f64, fanout: u32) -> QueryReading {
    QueryReading {
        shape: QueryShape::Range,
        fanout,
        notes: Vec::new(),
        items,
        bytes,
        items_unknown: false,
        stopped: None,
        descending: None,
        limit_after_range: false,
        fetch: None,
        cql: false,
    }
}

fn read(how: ReadHow, transaction: Option<TransactRead>) -> Verdict {
    Verdict::Read(ReadVerdict { how, transaction })
}

fn served(access: Access) -> ReadHow {
    ReadHow::Served(Served { access, embedded: Vec::new(), contains: None, cql: false })
}

#[test]
fn words_each_kind_of_verdict() {
    let newest = QueryReading {
        descending: Some(Descending::NewestFirst),
        stopped: Some(Stopped { limit: 20, after_filter: false }),
        ..query(20.0, 4_096.0, 1)
    };
    let paged = QueryReading { shape: QueryShape::Whole, ..query(3_000.0, 3.0 * PAGE_BYTES, 1) };
    let writes = Writes {
        targets: vec![
            (WriteTarget::Table, 1.0),
            (WriteTarget::Copy { entity: "Order".to_owned(), attribute: "name".to_owned() }, 2.5),
        ],
        items: 3.5,
        cql: false,
    };
    let gap = NameGap::SortKey { key: "MSG#{sent_at}".to_owned(), missing: vec!["sent_at".to_owned()] };
    let located = Locating {
        requests: "Query".to_owned(),
        scan: false,
        index: None,
        items: 1.0,
        units: 0.5,
        cql: false,
    };
    // (verdict, served, words)
    let cases = [
        (Verdict::Pending, false, String::new()),
        (read(served(Access::Key { cql: false }), None), true, "the full primary key is known: one item".to_owned()),
        (
            read(served(Access::Key { cql: false }), Some(TransactRead::Joined)),
            true,
            "the full primary key is known: one item, in one TransactGetItems (each item read twice, strongly \
             consistent: 2 RCU per 4 KB)"
                .to_owned(),
        ),
        (
            read(served(Access::Query(newest)), None),
            true,
            "the sort key applies the range; ~20 items (4 KB) per call, stopping at the limit of 20, newest \
             first (ScanIndexForward = false)"
                .to_owned(),
        ),
        (
            read(served(Access::Query(paged)), None),
            true,
            "reads the whole partition; ~3,000 items (3 MB) per call, 3 pages of 1 MB per request".to_owned(),
        ),
        (
            read(ReadHow::Scan(Scan { items: 1e6, bytes: 2.5 * PAGE_BYTES, tables: None }), None),
            false,
            "no key serves it: a Scan reads all ~1,000,000 items (2.5 MB) of the table on every call, 3 pages \
             of 1 MB"
                .to_owned(),
        ),
        (
            Verdict::Write(WriteVerdict { naming: Naming::Named(writes.clone()), transaction: true }),
            true,
            "writes 3.5 items per call: table ×1 + copy Order.name ×2.5, all in one TransactWriteItems (each \
             table item written twice: prepare and commit)"
                .to_owned(),
        ),
        (
            Verdict::Write(WriteVerdict {
                naming: Naming::Unnamed {
                    gap: gap.clone(),
                    locate: Some(LocateRead::Found(located)),
                    then: Some(writes),
                },
                transaction: false,
            }),
            true,
            "the sort key MSG#{sent_at} needs sent_at, which the pattern does not give: the application must \
             read the item first to learn its key; it reads it first with a Query on the table (1 item, ~0.5 \
             RCU per call); then it writes 3.5 items per call: table ×1 + copy Order.name ×2.5"
                .to_owned(),
        ),
        (
            Verdict::Write(WriteVerdict {
                naming: Naming::Unnamed { gap, locate: None, then: None },
                transaction: true,
            }),
            false,
            "the sort key MSG#{sent_at} needs sent_at, which the pattern does not give: the application must \
             read the item first to learn its key"
                .to_owned(),
        ),
    ];
    for (verdict, serves, words) in cases {
        assert_eq!(verdict.served(), serves, "{verdict:?}");
        assert_eq!(verdict.to_string(), words);
    }
}

#[test]
fn serializes_as_served_and_reason() {
    let verdict = read(served(Access::Key { cql: true }), None);
    let json = serde_json::to_string(&verdict).expect("serializes");
    assert_eq!(json, r#"{"served":true,"reason":"the full primary key is known: one row"}"#);
}

#[test]
fn words_hidden_items_as_a_question_mark_class_by_class() {
    // A class read: the class whose figures are the plan's shows `?`, the other its own.
    let classes = vec![
        ClassAccess { value: Some("a".to_owned()), share: 0.5, access: Access::Query(query(10.0, 400.0, 1)) },
        ClassAccess { value: None, share: 0.5, access: Access::Query(query(99.0, 9_000.0, 1)) },
    ];
    let mut verdict =
        read(served(Access::Classes { by: "tier".to_owned(), mean_fanout: 1.0, classes }), None);
    verdict.hide_items(10.0, 400.0);
    let words = verdict.to_string();
    assert!(
        words.contains("tier = a (50% of calls): the sort key applies the range; ? items per call"),
        "{words}"
    );
    assert!(
        words.contains("other values (50% of calls): the sort key applies the range; ~99 items"),
        "{words}"
    );
}

#[test]
fn words_why_another_place_does_not_serve() {
    let cost =
        |cql| Cost { operation: Operation::Query, fanout: 2, fetch: true, units: 5.5, bytes: 9_216.0, cql };
    // (considered, serves, words)
    let cases = [
        (
            Considered::CostsMore(cost(false)),
            true,
            "also serves it (Query ×2 + fetch, ~5.5 RCU per call), but costs more",
        ),
        (
            Considered::CostsMore(cost(true)),
            true,
            "also serves it (SELECT ×2 + fetch, ~9 KB read per call), but costs more",
        ),
        (
            Considered::Unserved(Unserved::NotHeld { entity: "Like".to_owned(), cql: true }),
            false,
            "Like rows are not in it",
        ),
        (
            Considered::Unserved(Unserved::KeysDiffer {
                entity: "Order".to_owned(),
                key: "C#{customer_id}".to_owned(),
                other: "Item".to_owned(),
                other_key: "O#{order_id}".to_owned(),
            }),
            false,
            "Order and Item have different partition keys there (C#{customer_id} vs O#{order_id}), so one request \
             cannot read both",
        ),
        (
            Considered::Unserved(Unserved::Sparse {
                attribute: "status".to_owned(),
                value: "open".to_owned(),
            }),
            false,
            r#"it only holds items where status = "open"; the pattern does not ask for that"#,
        ),
    ];
    for (considered, serves, words) in cases {
        assert_eq!(considered.serves(), serves, "{considered:?}");
        assert_eq!(considered.to_string(), words);
        let json = serde_json::to_string(&considered).expect("serializes");
        assert_eq!(json, serde_json::json!({"serves": serves, "reason": words}).to_string());
    }
}
