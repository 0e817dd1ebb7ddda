//! `keyheat tui` as a user starts it: a bad scenario or variant is a plain message and exit 2,
//! before the terminal is touched (so these run without one).
#![cfg(feature = "tui")]

mod common;

use common::keyheat;

#[test]
fn a_bad_scenario_or_variant_exits_2_with_a_message() {
    let cases: [(&[&str], &str); 3] = [
        (&["tui", "no-such-scenario"], "no bundled scenario is named \"no-such-scenario\""),
        (
            &["tui", "sensors", "--variant", "nope"],
            "no variant named \"nope\"; the variants are: naive, recommended",
        ),
        (&["tui", "sensors", "--seed", "minus-one"], "invalid value 'minus-one' for '--seed <SEED>'"),
    ];
    for (args, message) in cases {
        let out = keyheat(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    }
}

/// `--engine` is checked as `run --engine` checks it, before the terminal is touched: a store the
/// file does not list is refused naming the stores it does, an unknown store naming every store
/// keyheat replays on, and a store without a scenario says a scenario is needed.
#[test]
fn a_store_the_scenario_does_not_list_exits_2_with_the_ones_it_does() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["tui", "orders", "--engine", "cosmosdb"],
            "orders is replayed on DynamoDB only; to replay it on Cosmos DB, list it in `engines`",
        ),
        (
            &["tui", "social-feed", "--engine", "cassandra"],
            "social-feed is replayed on DynamoDB and MongoDB only; to replay it on Cassandra",
        ),
        (
            &["tui", "counters", "--engine", "oracle"],
            "no store is named \"oracle\"; keyheat replays on dynamodb, cassandra, cosmosdb, mongodb",
        ),
        (&["tui", "--engine", "cosmosdb"], "the following required arguments were not provided"),
    ];
    for (args, message) in cases {
        let out = keyheat(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    }
}
