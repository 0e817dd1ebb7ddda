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
