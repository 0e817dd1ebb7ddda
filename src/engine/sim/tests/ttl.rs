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

const PATTERN_TTL: &str = include_str!("../../../../tests/fixtures/pattern-ttl.ron");

fn run_variant(name: &str, source: &str) -> RunReport {
    let loaded = scenario::parse(name, source).expect("test scenario");
    let variant = loaded.variant(None).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    sim.report()
}

#[test]
fn a_write_sets_its_items_expiry_and_an_update_slides_it() {
    // 0.2 logins a second for three days (51,840 sessions), each expiring 30 minutes after its
    // put, and DynamoDB deleting it 48 hours after that.
    // (case, text replaced, by): the fixture, its touches not sliding, no write setting a ttl.
    let cases = [
        ("fixture", "", ""),
        ("no slide", r#"rate: 0.5, ttl: "30m""#, "rate: 0.5"),
        ("table lifetime", r#", ttl: "30m""#, ""),
    ];
    let reports: Vec<RunReport> = cases
        .iter()
        .map(|(name, from, to)| {
            run_variant(
                name,
                &if from.is_empty() { PATTERN_TTL.to_owned() } else { PATTERN_TTL.replace(from, to) },
            )
        })
        .collect();
    let [sliding, put_only, table] = &reports[..] else { unreachable!() };
    // The put's 30 minutes, not the table's 24 hours: what was written before the last 48.5 hours
    // is gone (0.2/s × (72 h − 48.5 h) ≈ 16,920), nothing else.
    assert!((16_000..=18_000).contains(&put_only.totals.ttl_deletes), "{:?}", put_only.totals);
    assert!((34_000..=36_000).contains(&put_only.totals.items), "{:?}", put_only.totals);
    // The table's own 24 h + 48 h reaches the end of the run: nothing is deleted.
    assert_eq!(table.totals.ttl_deletes, 0);
    // Each touch pushes its session's expiry to 30 minutes after the touch: sessions touched
    // later stay longer, so fewer are gone by the end.
    assert!(sliding.totals.ttl_deletes < put_only.totals.ttl_deletes, "{:?}", sliding.totals);
    assert!(sliding.totals.items > put_only.totals.items, "{:?}", sliding.totals);
    // Every expired session stays readable until deleted: a user's sessions are 48 hours' worth.
    let read =
        |r: &RunReport| r.patterns.iter().find(|p| p.name == "my-sessions").expect("pattern").avg_items_read;
    assert!(read(put_only) > 200.0, "{}", read(put_only));
    assert!(read(table) > read(put_only), "{} vs {}", read(table), read(put_only));
}

#[test]
fn on_cassandra_a_touched_row_lives_its_ttl_after_the_touch() {
    let cassandra = PATTERN_TTL.replace("title: ", "engine: Cassandra, title: ");
    let sliding = run_variant("cassandra", &cassandra);
    let put_only = run_variant("cassandra", &cassandra.replace(r#"rate: 0.5, ttl: "30m""#, "rate: 0.5"));
    // 30 minutes of logins live (0.2/s × 1,800 s = 360) without the slide; touched rows stay on.
    assert!((330..=420).contains(&put_only.totals.items), "{:?}", put_only.totals);
    assert!(sliding.totals.items > put_only.totals.items + 200, "{:?}", sliding.totals);
}
