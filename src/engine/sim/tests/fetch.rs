//! A GSI that does not project what a pattern returns: the application fetches the items the
//! Query returned from the table (BatchGetItem), and the replay charges it as the plan does.

use crate::engine::planner;
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// 1,000 users in 10 teams, 5 KB each; "a team's members with their bios" through a KEYS_ONLY
/// index on the team.
const TEAMS: &str = r#"(
    name: "teams", title: "teams",
    entities: [
        (name: "User", attributes: [
            (name: "user_id", type: S, gen: New("users")),
            (name: "team", type: S, gen: Pick("teams")),
            (name: "bio", type: S, gen: Payload(5000)),
        ]),
    ],
    populations: [(name: "users", count: 1000, ids: "u{:04}"), (name: "teams", count: 10, ids: "t{}")],
    patterns: [
        (name: "team-members", action: List, entity: "User", given: ["team"], limit: 10, returns: ["bio"], rate: 2),
    ],
    variants: [
        (
            name: "keys-only",
            keys: {"User": (pk: "U#{user_id}", sk: "U")},
            indexes: [(name: "by-team", keys: {"User": (pk: "T#{team}", sk: "{user_id}")}, projection: KeysOnly)],
        ),
        (
            name: "all",
            keys: {"User": (pk: "U#{user_id}", sk: "U")},
            indexes: [(name: "by-team", keys: {"User": (pk: "T#{team}", sk: "{user_id}")})],
        ),
    ],
    workload: (duration: "60s", tick: "1s", seed: 3),
)"#;

#[test]
fn a_keys_only_gsi_query_is_followed_by_a_batch_get_of_its_items() {
    let loaded = scenario::parse("teams.ron", TEAMS).expect("test scenario");
    let mut per_call = Vec::new();
    for name in ["keys-only", "all"] {
        let variant = loaded.variant(Some(name)).expect("variant");
        let plan = planner::plan(&loaded.scenario, variant);
        let mut sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
        while sim.step() {}
        let report = sim.report();
        let p = &report.patterns[0];
        assert_eq!((p.calls, p.avg_items_returned), (120, 10.0), "{p:?}");
        let rcu = p.rcu / p.calls as f64;
        // The replay charges what the plan says: within 10%.
        let planned = plan.patterns[0].units_per_call;
        assert!((rcu / planned - 1.0).abs() < 0.1, "{name}: replay {rcu} vs plan {planned}");
        per_call.push((p.requests / p.calls, rcu));
    }
    // KEYS_ONLY: one Query of ten small entries (0.5 RCU) and one BatchGetItem of ten 5 KB items,
    // each rounded up to 8 KB and read eventually consistent (1 RCU each). ALL: one Query of ten
    // 5 KB entries, 50 KB rounded once (6.5 RCU).
    assert_eq!(per_call[0], (2, 10.5));
    assert_eq!(per_call[1], (1, 6.5));
}
