//! The words of each kind of verdict, and the shape `check`'s JSON gives them.

use crate::engine::model::Engine::{Cassandra, CosmosDb, DynamoDb, MongoDb};
use crate::engine::model::{Index, IndexIds, IndexKind, Projection};
use crate::engine::planner::verdict::{
    Access, ClassAccess, Considered, Cost, Descending, Embedded, FetchReading, LocateRead, Locating, NameGap,
    Naming, QueryReading, QueryShape, ReadHow, ReadVerdict, Scan, Served, Stopped, TransactRead, Unserved,
    Verdict, WriteVerdict, Writes,
};
use crate::engine::planner::{FanoutNote, IndexId, KeyGap, Operation, PAGE_BYTES, WriteTarget};

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
        prefix: None,
        engine: DynamoDb,
    }
}

fn read(how: ReadHow, transaction: Option<TransactRead>) -> Verdict {
    Verdict::Read(ReadVerdict { how, transaction })
}

fn served(access: Access) -> ReadHow {
    ReadHow::Served(Served { access, embedded: Vec::new(), contains: None, engine: DynamoDb })
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
        engine: DynamoDb,
    };
    let gap = NameGap::SortKey { key: "MSG#{sent_at}".to_owned(), missing: vec!["sent_at".to_owned()] };
    let located = Locating {
        requests: "Query".to_owned(),
        scan: false,
        index: None,
        items: 1.0,
        units: 0.5,
        engine: DynamoDb,
    };
    // (verdict, served, words)
    let cases = [
        (Verdict::Pending, false, String::new()),
        (read(served(Access::Key { engine: DynamoDb }), None), true, "the full primary key is known: one item".to_owned()),
        (
            read(served(Access::Key { engine: DynamoDb }), Some(TransactRead::Joined { engine: DynamoDb })),
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
            read(ReadHow::Scan(Scan { items: 1e6, bytes: 2.5 * PAGE_BYTES, tables: None, engine: DynamoDb }), None),
            false,
            "no key serves it: a Scan reads all ~1,000,000 items (2.5 MB) of the table on every call, 3 pages \
             of 1 MB"
                .to_owned(),
        ),
        (
            Verdict::Write(WriteVerdict { naming: Naming::Named(writes.clone()), transaction: true, engine: DynamoDb }),
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
                engine: DynamoDb,
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
                engine: DynamoDb,
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

/// The decisions the planner's own tests assert as values, in the words `check` prints for them.
#[test]
fn words_searches_fetches_classes_and_cql_reads() {
    let search = ReadHow::Search { attribute: "body".to_owned(), engine: DynamoDb };
    let filtered = ReadHow::Served(Served {
        access: Access::Key { engine: DynamoDb },
        embedded: vec![Embedded {
            entity: "Comment".to_owned(),
            list: "comments".to_owned(),
            keep_latest: Some(50),
        }],
        contains: Some("body".to_owned()),
        engine: Cassandra,
    });
    let fetched = QueryReading {
        notes: vec![FanoutNote::Hashes { name: "author".to_owned(), count: 4 }],
        fetch: Some(FetchReading {
            index: "by-author".to_owned(),
            kind: IndexKind::Global,
            projection: Projection::KeysOnly,
            missing: vec!["body".to_owned()],
            returned: 250.0,
            requests: 3,
            units: 125.0,
            documents: None,
            engine: DynamoDb,
        }),
        ..query(250.0, 51_200.0, 4)
    };
    let class = |value: Option<&str>, share, items| ClassAccess {
        value: value.map(str::to_owned),
        share,
        access: Access::Query(query(items, 1_024.0, 1)),
    };
    let classes = Access::Classes {
        by: "tenant_id".to_owned(),
        mean_fanout: 5.2,
        classes: vec![class(Some("tenant-000"), 0.602, 20.0), class(None, 0.398, 2.0)],
    };
    let full_scan = Scan {
        items: 864_000.0,
        bytes: 100.0 * PAGE_BYTES,
        tables: Some(vec!["Msg".to_owned()]),
        engine: Cassandra,
    };
    // (verdict, words)
    let cases = [
        (
            read(search, None),
            "contains(body, :word) looks for a word inside the text: no key condition can test that, and no key \
             narrows the search to one partition, so a Scan with that filter would read the whole table on every \
             call. Serve it with a search index fed by the same writes (e.g. OpenSearch via DynamoDB Streams)",
        ),
        (
            read(filtered, None),
            "the full primary key is known: one item; its Comment items come with it, embedded in its comments \
             list (the newest 50); contains(body, :word) is a filter, so every item the key reaches is read to \
             find the matches — a search index fed by the same writes (e.g. OpenSearch via Cassandra CDC) finds \
             them without reading the rest",
        ),
        (
            read(served(Access::Query(fetched)), None),
            "×4: hash(author, 4) with author unknown: one request per hash value; the sort key applies the range; ~250 \
             items (50 KB) per call; + fetch: by-author projects KEYS_ONLY, so body comes from the table — \
             BatchGetItem of the ~250 results (3 requests of ≤ 100 keys), ~125 RCU",
        ),
        (
            read(served(classes), None),
            "by tenant_id, each class on its own layout — ×5.2 requests a call on average; tenant_id = tenant-000 \
             (60.2% of calls): the sort key applies the range; ~20 items (1 KB) per call | other values (39.8% of \
             calls): the sort key applies the range; ~2 items (1 KB) per call",
        ),
        (
            read(ReadHow::Scan(full_scan), None),
            "no key serves it: a full scan (SELECT … ALLOW FILTERING) reads all ~864,000 rows (100 MB) of the Msg \
             table on every call, 173 pages of 5,000 rows",
        ),
    ];
    for (verdict, words) in cases {
        assert_eq!(verdict.to_string(), words);
    }
}

/// A global index `by-order` keyed by `order_id` (a view on Cassandra), for the locating reads.
fn by_order() -> Index {
    Index {
        name: "by-order".to_owned(),
        kind: IndexKind::Global,
        pk_attribute: "order_id".to_owned(),
        sk_attribute: None,
        keys: Vec::new(),
        projection: Projection::All,
        only_when: None,
        ids: IndexIds::default(),
    }
}

#[test]
fn words_the_select_a_cql_write_sends_to_find_its_row() {
    let view = by_order();
    let locating = |scan, index, items| Locating {
        requests: String::new(),
        scan,
        index,
        items,
        units: 0.0,
        engine: Cassandra,
    };
    let update = |read| {
        let gap = NameGap::SortKey { key: "O#{order_id}".to_owned(), missing: vec!["order_id".to_owned()] };
        let writes = Writes { targets: vec![(WriteTarget::Table, 1.0)], items: 1.0, engine: Cassandra };
        let naming = Naming::Unnamed { gap, locate: Some(LocateRead::Found(read)), then: Some(writes) };
        Verdict::Write(WriteVerdict { naming, transaction: false, engine: Cassandra })
    };
    let needs = "the sort key O#{order_id} needs order_id, which the pattern does not give: the application must \
                 read the row first to learn its key; it reads it first with";
    // (the locating read, what the words say of it)
    let cases = [
        (locating(true, None, 2_000.0), "a SELECT of every partition on the table (2,000 rows per call)"),
        (
            locating(false, Some(IndexId::new(0, &view)), 1.0),
            "a SELECT on the view by-order (1 row per call)",
        ),
    ];
    for (read, words) in cases {
        let verdict = update(read);
        assert_eq!(verdict.to_string(), format!("{needs} {words}; then it writes 1 row per call: table ×1"));
    }
}

/// The read a write sends first is worded in its store's terms: a find on an index and
/// documents on MongoDB, a query on the container and request units on Cosmos DB.
#[test]
fn words_the_read_a_write_sends_first_in_each_stores_terms() {
    let index = by_order();
    let on_index = Some(IndexId::new(0, &index));
    // (engine, requests, index, items, units, words)
    let cases = [
        (
            DynamoDb,
            "Query",
            on_index.clone(),
            1.0,
            0.5,
            "a Query on the GSI by-order (1 item, ~0.5 RCU per call)",
        ),
        (MongoDb, "find", on_index, 1.0, 0.0, "a find on the index by-order (1 document per call)"),
        (
            MongoDb,
            "find (collection scan)",
            None,
            3.0,
            0.0,
            "a find (collection scan) on the collection (3 documents per call)",
        ),
        (CosmosDb, "query", None, 2.0, 3.5, "a query on the container (2 items, ~3.5 RU per call)"),
    ];
    for (engine, requests, index, items, units, words) in cases {
        let read = Locating { requests: requests.to_owned(), scan: false, index, items, units, engine };
        assert_eq!(read.to_string(), format!("; it reads it first with {words}"), "{engine}");
    }
}

#[test]
fn serializes_as_served_and_reason() {
    let verdict = read(served(Access::Key { engine: Cassandra }), None);
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
    let cost = |engine| Cost {
        operation: Operation::Query,
        fanout: 2,
        fetch: true,
        units: 5.5,
        bytes: 9_216.0,
        engine,
    };
    // (considered, serves, words)
    let cases = [
        (
            Considered::CostsMore(cost(DynamoDb)),
            true,
            "also serves it (Query ×2 + fetch, ~5.5 RCU per call), but costs more",
        ),
        (
            Considered::CostsMore(cost(Cassandra)),
            true,
            "also serves it (SELECT ×2 + fetch, ~9 KB read per call), but costs more",
        ),
        (
            Considered::Unserved(Unserved::NotHeld { entity: "Like".to_owned(), engine: Cassandra }),
            false,
            "Like rows are not in it",
        ),
        (
            Considered::Unserved(Unserved::KeysDiffer {
                entity: "Order".to_owned(),
                key: "C#{customer_id}".to_owned(),
                other: "Item".to_owned(),
                other_key: "O#{order_id}".to_owned(),
                engine: DynamoDb,
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

/// On MongoDB a verdict speaks of documents in collections, a key's leading and second fields
/// and a collection scan: never items, tables, partition keys or a Scan.
#[test]
fn words_each_verdict_in_mongodbs_terms() {
    let mongo = |shape| QueryReading { shape, engine: MongoDb, ..query(5.2, 1_710.0, 1) };
    let collection = QueryShape::Collection(vec!["Post".to_owned(), "Comment".to_owned()]);
    let index = Index {
        name: "posts-by-author".to_owned(),
        kind: IndexKind::Global,
        pk_attribute: "GSI1PK".to_owned(),
        sk_attribute: Some("GSI1SK".to_owned()),
        keys: Vec::new(),
        projection: Projection::All,
        only_when: None,
        ids: IndexIds::default(),
    };
    let writes = Writes {
        targets: vec![
            (WriteTarget::Table, 1.0),
            (WriteTarget::Entry { index: IndexId::new(0, &index), of: Box::new(WriteTarget::Table) }, 1.0),
        ],
        // An index entry is a key and a record id, no document.
        items: 1.0,
        engine: MongoDb,
    };
    // (verdict, words)
    let cases = [
        (
            read(served(Access::Key { engine: MongoDb }), None),
            "the full primary key is known: one document".to_owned(),
        ),
        (
            read(served(Access::Query(mongo(QueryShape::Range))), None),
            "the second key field applies the range; ~5.2 documents (1.67 KB) per call".to_owned(),
        ),
        (
            read(served(Access::Query(mongo(collection))), None),
            "Post and Comment documents share one value of the leading key field: one find reads them together; \
             ~5.2 documents (1.67 KB) per call"
                .to_owned(),
        ),
        (
            read(served(Access::Query(mongo(QueryShape::Narrowed))), None),
            "a prefix of the second key field narrows the read to this entity's documents; ~5.2 documents (1.67 \
             KB) per call"
                .to_owned(),
        ),
        (
            read(ReadHow::Scan(Scan { items: 1e6, bytes: 2.5 * PAGE_BYTES, tables: None, engine: MongoDb }), None),
            "no key serves it: a collection scan reads all ~1,000,000 documents (2.5 MB) of the collection on every \
             call, 3 pages of 1 MB"
                .to_owned(),
        ),
        (
            read(ReadHow::Search { attribute: "body".to_owned(), engine: MongoDb }, None),
            "{body: /:word/} looks for a word inside the text: no key condition can test that, and no key \
             narrows the search to one partition, so a collection scan with that filter would read the whole \
             collection on every call. Serve it with a search index fed by the same writes (e.g. OpenSearch via \
             change streams)"
                .to_owned(),
        ),
        (
            Verdict::Write(WriteVerdict { naming: Naming::Named(writes), transaction: false, engine: MongoDb }),
            "writes 1 document per call: collection ×1, and 1 index key (index posts-by-author ×1)".to_owned(),
        ),
        // Cosmos DB's query language tests the word with CONTAINS, over a container.
        (
            read(ReadHow::Search { attribute: "body".to_owned(), engine: CosmosDb }, None),
            "CONTAINS(c.body, @word) looks for a word inside the text: no key condition can test that, and no key \
             narrows the search to one partition, so a cross-partition query with that filter would read the whole \
             container on every call. Serve it with a search index fed by the same writes (e.g. OpenSearch via the \
             change feed)"
                .to_owned(),
        ),
    ];
    for (verdict, words) in cases {
        assert_eq!(verdict.to_string(), words);
    }
    // (considered, words)
    let gap = KeyGap::Attribute { key: "POST#{post_id}".to_owned(), attribute: "post_id".to_owned() };
    let cost = Cost {
        operation: Operation::Query,
        fanout: 2,
        fetch: false,
        units: 0.0,
        bytes: 9_216.0,
        engine: MongoDb,
    };
    let considered = [
        (
            Considered::Unserved(Unserved::NotHeld { entity: "User".to_owned(), engine: MongoDb }),
            "User documents are not in it",
        ),
        (
            Considered::Unserved(Unserved::Key { gap, engine: MongoDb }),
            "its leading key field POST#{post_id} needs post_id, which the pattern does not give",
        ),
        (Considered::CostsMore(cost), "also serves it (find ×2, ~9 KB read per call), but costs more"),
    ];
    for (considered, words) in considered {
        assert_eq!(considered.to_string(), words);
    }
}

/// A MongoDB write that cannot name its document reads the document first, in MongoDB's words
/// for the key's fields; in a transaction it writes each document once and commits them
/// together (MongoDB meters no units: nothing is written twice, as DynamoDB's prepare and commit
/// are).
#[test]
fn words_a_mongodb_write_that_reads_first_in_a_transaction() {
    let writes = Writes { targets: vec![(WriteTarget::Table, 1.0)], items: 1.0, engine: MongoDb };
    let verdict = Verdict::Write(WriteVerdict {
        naming: Naming::Unnamed {
            gap: NameGap::SortKey { key: "{posted_at}".to_owned(), missing: vec!["posted_at".to_owned()] },
            locate: None,
            then: Some(writes),
        },
        transaction: true,
        engine: MongoDb,
    });
    assert_eq!(
        verdict.to_string(),
        "the second key field {posted_at} needs posted_at, which the pattern does not give: the application must \
         read the document first to learn its key; then it writes 1 document per call: collection ×1, all in one \
         multi-document transaction (committed together, or not at all)"
    );
}

/// A read in a transaction, in each store's words: DynamoDB's TransactGetItems, read twice and
/// held to 100 items ("Amazon DynamoDB Transactions: How it works"); MongoDB's multi-document
/// transaction, each document read once, with no count of documents ("Production
/// Considerations" for transactions names none).
#[test]
fn words_a_transactional_read_in_each_stores_terms() {
    // (outcome, words)
    let cases = [
        (
            TransactRead::Joined { engine: DynamoDb },
            ", in one TransactGetItems (each item read twice, strongly consistent: 2 RCU per 4 KB)",
        ),
        (
            TransactRead::Joined { engine: MongoDb },
            ", in one multi-document transaction (each document read once; MongoDB names no count of documents \
             a transaction reads)",
        ),
        (
            TransactRead::TooMany { items: 120, most: 100, engine: DynamoDb },
            "; not a TransactGetItems: it reads 120 items and a transaction holds at most 100, so the call reads \
             without the transaction",
        ),
        (
            TransactRead::NotByKey { engine: MongoDb },
            "; not in a multi-document transaction: keyheat joins reads of documents by their full key (findOne) \
             to one, and this design reads with a find, so the call reads without the transaction",
        ),
    ];
    for (outcome, words) in cases {
        assert_eq!(outcome.to_string(), words, "{outcome:?}");
    }
}
