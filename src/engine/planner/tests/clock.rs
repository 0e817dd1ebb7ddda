//! A caller that gives a time the items hold as their write time gives its own clock: every
//! current call lands in the current time bucket, as the writes that fill it do.

use super::*;

const WINDOWS: &str = r#"(
    name: "windows", title: "per-minute counters",
    entities: [(name: "Counter", attributes: [
        (name: "client_id", type: S, gen: Pick("clients")),
        (name: "at", type: Time, gen: Now),
        (name: "hits", type: N, gen: Number(Uniform(1, 100))),
    ])],
    populations: [(name: "clients", count: 20000, ids: "c{:05}", popularity: Zipf(s: 0.99))],
    patterns: [
        (name: "count", action: Update, entity: "Counter", given: ["client_id", "at"], sets: ["hits"], rate: 1500),
        (name: "usage", action: Get, entity: "Counter", given: ["client_id", "at"], rate: 50),
    ],
    variants: [
        (name: "by-window", keys: {"Counter": (pk: "RL#{bucket(at, 1m)}", sk: "{client_id}")}),
        (name: "by-client-window", keys: {"Counter": (pk: "RL#{client_id}#{bucket(at, 1m)}", sk: "W")}),
    ],
    workload: (duration: "2m", tick: "1s", seed: 1),
)"#;

#[test]
fn a_given_write_time_lands_every_call_in_the_current_bucket() {
    let loaded = scenario::parse("windows.ron", WINDOWS).expect("loads");
    let cases = [
        // Every client's count this minute on one key: 1,500 WCU/s against 1,000.
        ("by-window", vec![(WarningCode::HotPartition, "table RL#{bucket(at, 1m)}".to_owned())]),
        // The busiest client's window: ~9% of 1,500.
        ("by-client-window", vec![]),
    ];
    for (variant, expected) in cases {
        let plan = plan(&loaded.scenario, loaded.variant(Some(variant)).expect("variant"));
        let warnings: Vec<(WarningCode, String)> =
            plan.warnings.iter().map(|w| (w.code, w.subject.clone())).collect();
        assert_eq!(warnings, expected, "{variant}");
    }
}
