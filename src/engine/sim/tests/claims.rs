//! Uniqueness claims (issue 12): a put that claims its email in the same transaction is
//! cancelled when the email is taken; one that claims it in a request of its own has landed by
//! then, and leaves two users with the email. `check` predicts both.

use std::collections::HashMap;

use crate::engine::planner;
use crate::engine::sim::report::PatternReport;
use crate::engine::sim::{RunOptions, Simulation};
use crate::engine::value::AttributeValue;
use crate::scenario;

/// Sign-ups with an email claim, in a transaction and as two requests.
const CLAIMS: &str = include_str!("../../../../tests/fixtures/claims.ron");

#[test]
fn a_claim_in_a_transaction_refuses_the_duplicate_and_a_separate_one_lets_it_land() {
    let loaded = scenario::parse("claims.ron", CLAIMS).expect("test scenario");
    let variant = loaded.variant(None).expect("variant");
    let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    while sim.step() {}
    let report = sim.report();
    let pattern =
        |name: &str| -> &PatternReport { report.patterns.iter().find(|p| p.name == name).expect("pattern") };
    let (safe, separate) = (pattern("sign-up"), pattern("sign-up-plain"));
    // 1,200 claims over 3,000 emails: ~211 find theirs taken (the fixture's arithmetic).
    let taken = safe.condition_failed + separate.duplicates;
    assert!((170..250).contains(&taken), "{taken}");
    assert_eq!((safe.duplicates, separate.condition_failed), (0, 0));
    assert!(
        safe.condition_failed > 60 && separate.duplicates > 60,
        "{} {}",
        safe.condition_failed,
        separate.duplicates
    );

    // Every email's users: the one whose claim landed, plus each plain sign-up refused after its
    // user had landed. The preloaded user took no claim, so it is left out.
    let mut users_by_email: HashMap<String, u64> = HashMap::new();
    for p in sim.partitions().iter().filter(|p| p.key.starts_with("USER#") && p.key != "USER#u000000") {
        for view in sim.items_in(&p.group, &p.key, usize::MAX) {
            if let Some(AttributeValue::S(email)) = view.item.get("email") {
                *users_by_email.entry(email.clone()).or_default() += 1;
            }
        }
    }
    let extra: u64 = users_by_email.values().map(|n| n - 1).sum();
    assert_eq!(extra, separate.duplicates);
    let claims = sim.partitions().iter().filter(|p| p.key.starts_with("EMAIL#")).count() as u64;
    assert_eq!(claims, users_by_email.len() as u64);

    // A transactional sign-up: 4 WCU landed, 1 WCU cancelled; a plain one 2 WCU either way.
    let landed = safe.calls - safe.condition_failed;
    assert!((safe.wcu - (4.0 * landed as f64 + safe.condition_failed as f64)).abs() < 1e-9, "{}", safe.wcu);
    assert!((separate.wcu - 2.0 * separate.calls as f64).abs() < 1e-9, "{}", separate.wcu);

    // `check`: the same taken share for both, the cancellations in the transaction's units, and
    // an `unsafe-claim` warning for the plain sign-up alone.
    let plan = planner::plan(&loaded.scenario, variant);
    let planned = |name: &str| plan.patterns.iter().find(|p| p.name == name).expect("planned");
    let share = planned("sign-up").claim.as_ref().expect("a claim").failure_rate;
    assert!((share - 211.0 / 1200.0).abs() < 0.005, "{share}");
    let units = (1.0 - share) * 4.0 + share;
    assert!((planned("sign-up").units_per_call - units).abs() < 1e-9);
    assert!((planned("sign-up-plain").units_per_call - 2.0).abs() < 1e-9);
    let unsafe_claims: Vec<&str> = plan
        .warnings
        .iter()
        .filter(|w| w.code == planner::WarningCode::UnsafeClaim)
        .map(|w| w.subject.as_str())
        .collect();
    assert_eq!(unsafe_claims, ["sign-up-plain"]);
}
