//! TTL by engine profile: DynamoDB's sweeper deletes an expired item about 48 hours late (it stays
//! readable until then); Cassandra hides an expired row from reads at once, so its live rows,
//! reads and sizes follow the lifetime alone.

use crate::engine::sim::report::RunReport;
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

const SESSIONS: &str = include_str!("../../../../tests/fixtures/cassandra-ttl.ron");

fn run(source: &str) -> RunReport {
    let loaded = scenario::parse("cassandra-ttl.ron", source).expect("test scenario");
    let variant = loaded.variant(Some("recommended")).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    sim.report()
}

#[test]
fn cassandra_drops_an_expired_row_at_once_and_dynamodb_two_days_later() {
    let cassandra = run(SESSIONS);
    let dynamodb = run(&SESSIONS.replace("engine: Cassandra", "engine: DynamoDB"));
    // One login a second for six hours, each living an hour.
    let written = 6 * 3600;
    // Cassandra: the last hour's rows (and the ones of the tick that has not swept yet).
    assert!((3_500..=3_700).contains(&cassandra.totals.items), "{}", cassandra.totals.items);
    assert!(cassandra.totals.items + cassandra.totals.ttl_deletes >= written, "{:?}", cassandra.totals);
    // DynamoDB: nothing is 48 hours past its expiry yet.
    assert_eq!(dynamodb.totals.ttl_deletes, 0);
    assert!(dynamodb.totals.items > written, "{}", dynamodb.totals.items);
    // Reads see what is live: a user's sessions are an hour's worth on Cassandra, and everything
    // written so far on DynamoDB.
    let read =
        |r: &RunReport| r.patterns.iter().find(|p| p.name == "my-sessions").expect("pattern").avg_items_read;
    assert!(read(&cassandra) < 400.0, "{}", read(&cassandra));
    assert!(read(&dynamodb) > 2.0 * read(&cassandra), "{} vs {}", read(&dynamodb), read(&cassandra));
    // The report says what Cassandra's figures count.
    assert!(
        cassandra.notes.iter().any(|n| n.contains("gc_grace_seconds") && n.contains("live rows")),
        "{:?}",
        cassandra.notes
    );
    assert!(!dynamodb.notes.iter().any(|n| n.contains("gc_grace_seconds")), "{:?}", dynamodb.notes);
}
