//! Lifetimes in check's arithmetic: the expiry a write sets (a put's `ttl`, an update's sliding
//! `ttl`, else the variant's lifetime), plus the time the engine takes to delete an expired item.

use super::*;

const SESSIONS: &str = include_str!("../../../../tests/fixtures/pattern-ttl.ron");

#[test]
fn an_item_stays_its_expiry_plus_the_deletion_delay() {
    const DELAY: f64 = 48.0 * 3600.0;
    const RUN: f64 = 3.0 * 86_400.0;
    // (case, text replacements, expiry, seconds an item stays)
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], f64, f64);
    let cases: &[Case<'_>] = &[
        ("put and touch set 30 minutes", &[], 1800.0, 1800.0 + DELAY),
        (
            "the put's 2 hours outlast the touch's 30 minutes",
            &[(r#"rate: 0.2, ttl: "30m""#, r#"rate: 0.2, ttl: "2h""#)],
            7200.0,
            7200.0 + DELAY,
        ),
        (
            "a touch that slides 6 hours outlasts the put's 30 minutes",
            &[(r#"rate: 0.5, ttl: "30m""#, r#"rate: 0.5, ttl: "6h""#)],
            21_600.0,
            21_600.0 + DELAY,
        ),
        (
            "no write sets one: the variant's 24 hours, + 48 h, past the 3-day run",
            &[(r#", ttl: "30m""#, "")],
            86_400.0,
            RUN,
        ),
        (
            "Cassandra hides an expired row at once",
            &[("title: ", "engine: Cassandra, title: ")],
            1800.0,
            1800.0,
        ),
        // The TTL monitor runs every 60 seconds ("TTL Indexes").
        ("MongoDB deletes within a minute", &[("title: ", "engine: MongoDB, title: ")], 1800.0, 1860.0),
        // "An item no longer appears in query responses immediately after the TTL expires, even if
        // it hasn't yet been permanently deleted" (Microsoft Learn, "Time to Live (TTL) in Azure
        // Cosmos DB").
        (
            "Cosmos DB hides an expired item at once",
            &[("title: ", "engine: CosmosDB, title: ")],
            1800.0,
            1800.0,
        ),
    ];
    for (case, edits, expiry, stays) in cases {
        let source = edits.iter().fold(SESSIONS.to_owned(), |s, (from, to)| s.replace(from, to));
        let loaded = scenario::parse("pattern-ttl.ron", &source).expect("fixture");
        let variant = loaded.variant(None).expect("variant");
        let est = estimate::Estimator::new(&loaded.scenario, variant);
        let session = loaded.scenario.entity("Session").expect("Session").id();
        assert_eq!(est.expiry(session), Some(*expiry), "{case}");
        assert!((est.lifetime(session) - stays).abs() < 1e-6, "{case}: {}", est.lifetime(session));
    }
}

#[test]
fn a_read_over_expiring_items_counts_those_not_yet_deleted() {
    let loaded = scenario::parse("pattern-ttl.ron", SESSIONS).expect("fixture");
    let plan = plan(&loaded.scenario, loaded.variant(None).expect("variant"));
    // 0.2 logins/s over 100 users, each staying 30 min + 48 h, averaged over the 3-day run:
    // 0.002/s × (174,600 − 174,600² / (2 × 259,200)) ≈ 232 (the replay reads 244).
    let items = pattern(&plan, "my-sessions").items_read.expect("a read");
    assert!((225.0..240.0).contains(&items), "{items}");
}

#[test]
fn large_partition_names_the_expiry_and_the_deletion_delay_apart() {
    // One user logging in 10 times a second with 100 KB sessions: 30 minutes of them would
    // fit a partition; 30 minutes + 48 hours do not.
    let source = SESSIONS
        .replace(r#"count: 100, ids: "u{:03}""#, r#"count: 1, ids: "u{:03}""#)
        .replace("Payload(200)", "Payload(100000)")
        .replace("rate: 0.2, ttl", "rate: 10, ttl");
    let loaded = scenario::parse("pattern-ttl.ron", &source).expect("fixture");
    let plan = plan(&loaded.scenario, loaded.variant(None).expect("variant"));
    let warning = plan
        .warnings
        .iter()
        .find(|w| w.code == WarningCode::LargePartition)
        .unwrap_or_else(|| panic!("{:#?}", plan.warnings));
    for part in
        ["expires items 30 min after their last write", "deletes them up to 2 days later", "1,746,000 items"]
    {
        assert!(warning.to_string().contains(part), "{part}: {warning}");
    }
}
