//! Transactions (issue 12): a TransactWriteItems writes the call's item and its aggregates all or
//! nothing, each item twice (prepare and commit); a TransactGetItems reads each item twice,
//! strongly consistent — and `check` predicts the same units.

use crate::engine::planner::{self, Operation};
use crate::engine::sim::report::{PatternReport, RunReport};
use crate::engine::sim::{RunOptions, Simulation};
use crate::engine::value::AttributeValue;
use crate::scenario;

/// Orders placed with their customer's stats in a transaction and without, seats booked once
/// with the event's count in the same transaction, and orders read in a TransactGetItems.
const TRANSACTIONS: &str = include_str!("../../../../tests/fixtures/transactions.ron");

fn replay(source: &str) -> (Simulation, RunReport, planner::Plan) {
    let loaded = scenario::parse("transactions.ron", source).expect("test scenario");
    let variant = loaded.variant(None).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let report = sim.report();
    (sim, report, planner::plan(&loaded.scenario, variant))
}

fn pattern<'a>(r: &'a RunReport, name: &str) -> &'a PatternReport {
    r.patterns.iter().find(|p| p.name == name).expect("pattern")
}

fn planned(plan: &planner::Plan, name: &str) -> f64 {
    plan.patterns.iter().find(|p| p.name == name).expect("planned").units_per_call
}

/// The sum of a number attribute over the table's items whose partition key starts with
/// `prefix` (an aggregate's counts).
fn total(sim: &Simulation, prefix: &str, attribute: &str) -> f64 {
    sim.partitions()
        .iter()
        .filter(|p| p.key.starts_with(prefix))
        .flat_map(|p| sim.items_in(&p.group, &p.key, usize::MAX))
        .filter_map(|view| match view.item.get(attribute) {
            Some(AttributeValue::N(n)) => Some(n.to_f64()),
            _ => None,
        })
        .sum()
}

#[test]
fn a_transaction_writes_each_item_twice_in_one_request() {
    let (_, r, plan) = replay(TRANSACTIONS);
    let (one, separate) = (pattern(&r, "place"), pattern(&r, "place-plain"));
    // Two ~700-byte items a call: 1 WCU each, twice in the transaction.
    assert_eq!(one.calls, 3_000);
    assert!((one.wcu - 4.0 * 3_000.0).abs() < 1e-9, "{}", one.wcu);
    assert!((separate.wcu - 2.0 * 3_000.0).abs() < 1e-9, "{}", separate.wcu);
    // One request a call, against a PutItem and an UpdateItem; two rounds of the latency model.
    assert_eq!((one.requests, separate.requests), (3_000, 6_000));
    assert!((one.latency_ms_p50 - 8.0).abs() < 1e-9, "{}", one.latency_ms_p50);
    assert_eq!(one.single_operation(), Some(Operation::TransactWriteItems));
    assert!((planned(&plan, "place") - 4.0).abs() < 1e-9);
    assert!((planned(&plan, "place-plain") - 2.0).abs() < 1e-9);
}

#[test]
fn a_cancelled_booking_counts_nothing() {
    let (sim, r, plan) = replay(TRANSACTIONS);
    let book = pattern(&r, "book");
    let landed = book.calls - book.condition_failed;
    // By hand: 1,200 bookings over 2,000 seats, 1,200 − 2,000·(1 − e^(−0.6)) ≈ 297 refused.
    assert!((270..350).contains(&book.condition_failed), "{}", book.condition_failed);
    // The event's count moved only with the bookings that landed.
    let booked = total(&sim, "EVENT#", "booked");
    assert!((booked - landed as f64).abs() < 1e-9, "{booked} booked, {landed} landed");
    // A landed booking: 2 items × 2 WCU; a refused one: its failed condition, 1 WCU.
    let wcu = 4.0 * landed as f64 + book.condition_failed as f64;
    assert!((book.wcu - wcu).abs() < 1e-9, "{} WCU, expected {wcu}", book.wcu);
    let predicted = planned(&plan, "book");
    let measured = book.wcu / book.calls as f64;
    assert!((predicted - measured).abs() < 0.05 * measured, "check {predicted}, run {measured}");
}

#[test]
fn a_transactional_get_reads_twice_strongly_consistent() {
    let (_, r, plan) = replay(TRANSACTIONS);
    let get = pattern(&r, "get-order");
    // One item under 4 KB: 1 RCU strongly consistent, twice; an eventual GetItem costs 0.5.
    assert!((get.rcu - 2.0 * get.calls as f64).abs() < 1e-9, "{} RCU for {} calls", get.rcu, get.calls);
    assert!((planned(&plan, "get-order") - 2.0).abs() < 1e-9);
    let untransacted = replay(&TRANSACTIONS.replace("rate: 40, transaction: true", "rate: 40")).1;
    let eventual = pattern(&untransacted, "get-order");
    assert!((eventual.rcu - 0.5 * eventual.calls as f64).abs() < 1e-9, "{}", eventual.rcu);
}

#[test]
fn a_throttled_transaction_writes_nothing_so_counts_agree() {
    // Every order of one customer, 700 a second: the stats item asks 2 × 700 WCU/s of one key
    // in the transaction (1,000 serve), 700 without.
    let hot = TRANSACTIONS
        .replace(r#"(name: "customers", count: 5000"#, r#"(name: "customers", count: 1"#)
        .replace("rate: 50, transaction: true", "rate: 700, transaction: true")
        .replace(r#"on: ["place", "place-plain"]"#, r#"on: ["place"]"#);
    let (sim, r, _) = replay(&hot);
    let place = pattern(&r, "place");
    assert!(place.throttled > 0, "the hot stats item throttles");
    // All or nothing: the count is exactly the orders that landed, however many were throttled.
    let (counted, landed) = (total(&sim, "CUSTOMER#", "orders"), place.landed_writes.unwrap_or(0));
    assert!((counted - landed as f64).abs() < 1e-9, "{counted} counted, {landed} landed");

    // Without the transaction the order lands first and its count is a request of its own,
    // which the hot key throttles at 1,200 a second: counts fall behind the orders.
    let (sim, r, _) = replay(&hot.replace("rate: 700, transaction: true", "rate: 1200"));
    let place = pattern(&r, "place");
    let (counted, landed) = (total(&sim, "CUSTOMER#", "orders"), place.landed_writes.unwrap_or(0));
    assert!(counted < landed as f64, "{counted} counted, {landed} landed");
}

/// A refused write is counted on the partition that refused it whether it was sent alone or in a
/// transaction (prepare and commit both ask the hot stats item), so the partitions' throttles
/// account for every call that was throttled there.
#[test]
fn a_refused_transaction_is_counted_on_its_partition() {
    let hot = TRANSACTIONS
        .replace(r#"(name: "customers", count: 5000"#, r#"(name: "customers", count: 1"#)
        .replace(r#"on: ["place", "place-plain"]"#, r#"on: ["place"]"#);
    let cases = [
        ("in a transaction", hot.replace("rate: 50, transaction: true", "rate: 700, transaction: true")),
        ("alone", hot.replace("rate: 50, transaction: true", "rate: 1200")),
    ];
    for (how, source) in cases {
        let (sim, r, _) = replay(&source);
        let place = pattern(&r, "place");
        assert!(place.throttled > 0, "{how}: the hot stats item throttles");
        let partitions = sim.partitions();
        let stats = partitions.iter().find(|p| p.key.starts_with("CUSTOMER#")).expect("listed");
        assert!(stats.throttled > 0, "{how}: the stats item's partition counts no throttles");
        // Each throttled call counted at least its first refusal somewhere; retries count again.
        let counted: u64 = partitions.iter().map(|p| p.throttled).sum();
        assert!(counted >= place.throttled, "{how}: {counted} on the partitions, {} calls", place.throttled);
    }
}

/// A report of 5 MB filed in a transaction, on `engine`.
fn big_transaction(engine: &str) -> String {
    format!(
        r#"(
    name: "big", title: "big",
    entities: [(name: "Report", attributes: [
        (name: "report_id", type: S, gen: New("reports")),
        (name: "body", type: S, gen: Payload(5000000)),
    ])],
    populations: [(name: "reports", count: 2, ids: "r{{:04}}")],
    patterns: [(name: "file", action: Put, entity: "Report", given: ["report_id"], rate: 1, transaction: true)],
    variants: [(name: "one", keys: {{"Report": (pk: "REPORT#{{report_id}}", sk: "REPORT")}})],
    engine: {engine},
    workload: (duration: "5s", tick: "1s", seed: 3),
)"#
    )
}

/// A transaction past 4 MB, DynamoDB's most ("Amazon DynamoDB Transactions: How it works"):
/// MongoDB commits it, its 5 MB document within 16 MB and its transaction under no total size
/// since 4.2 ("Production Considerations", Oplog Size Limit). DynamoDB cannot be handed it
/// whole: a replayed transaction is the call's item and one item per aggregated entity, each at
/// most 400 KB, so its loader refuses the document before the transaction's 4 MB could (the
/// profile's limits are tested in `profile::transactions`).
#[test]
fn a_mongodb_transaction_past_4_mb_commits() {
    let (_, r, _) = replay(&big_transaction("MongoDB"));
    let file = pattern(&r, "file");
    assert_eq!((file.calls, file.item_size_errors, file.failed), (5, 0, 0));
    assert_eq!(file.single_operation(), Some(Operation::TransactWriteItems));
    let Err(refused) = scenario::parse("big.ron", &big_transaction("DynamoDB")) else {
        panic!("DynamoDB's loader takes a 5 MB document")
    };
    assert!(format!("{refused:?}").contains("400 KB item limit"), "{refused:?}");
}

/// MongoDB sends a transaction's writes one after another, then commits once (MongoDB blog,
/// "Performance Best Practices: Transactions and Read / Write Concerns"): an order and its
/// customer's stats take three rounds of 4 ms (keyheat's assumption for each), where
/// DynamoDB's prepare and commit take two; MongoDB meters no units to double.
#[test]
fn a_mongodb_transaction_sends_each_write_then_commits() {
    let (_, r, plan) = replay(&TRANSACTIONS.replace("    workload:", "    engine: MongoDB,\n    workload:"));
    let place = pattern(&r, "place");
    assert_eq!(place.calls, 3_000);
    // Three rounds, plus building the ~1 KB of documents written (0.2 ms per 4 KB).
    assert!((12.0..12.1).contains(&place.latency_ms_p50), "{}", place.latency_ms_p50);
    assert_eq!(place.single_operation(), Some(Operation::TransactWriteItems));
    let get = pattern(&r, "get-order");
    assert_eq!(get.single_operation(), Some(Operation::TransactGetItems));
    assert!(planned(&plan, "place") < 4.0, "{}", planned(&plan, "place"));
}
