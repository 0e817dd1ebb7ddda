//! Popularity-weighted load (issues 11 and 12): every write a pattern makes counts on the key it
//! lands on, weighted by how the pattern picks that key, and a reader that picks popular keys
//! reads the popular keys' partitions.

use super::super::estimate::Estimator;
use super::super::load::meeting;
use super::{WarningCode, pattern, plan_of};
use crate::engine::testing;
use crate::engine::workload::Popularity;
use crate::scenario;

#[test]
fn an_aggregates_index_entries_count_on_the_index_key_they_land_on() {
    // Every order (1,200/s in the flash sale) moves its customer's lifetime_spend, and so the
    // customer's entry under the one constant key SPEND: a delete and a put, 2,400 WCU/s.
    let plan = plan_of("practice-top-customers", "one-index-partition");
    let hot = plan
        .warnings
        .iter()
        .find(|w| w.code == WarningCode::HotPartition && w.subject == "GSI by-spend SPEND")
        .unwrap_or_else(|| panic!("no hot-partition warning on SPEND: {:#?}", plan.warnings));
    assert!(hot.to_string().contains("takes 2,400 WCU/s"), "{}", hot.to_string());
    assert!(
        hot.to_string().contains("place-order (its Customer aggregate) 1,200/s × 100%"),
        "{}",
        hot.to_string()
    );
    let low = plan
        .warnings
        .iter()
        .find(|w| w.code == WarningCode::LowCardinalityIndex)
        .expect("SPEND is one value");
    assert!(low.to_string().contains("100% of its 2,400 entry writes/s of Customer"), "{}", low.to_string());
    // Sharded over 16 keys (recommended), each takes 150 WCU/s: no warning.
    let fixed = plan_of("practice-top-customers", "recommended");
    assert!(!fixed.warnings.iter().any(|w| w.code == WarningCode::HotPartition), "{:#?}", fixed.warnings);
}

#[test]
fn an_aggregate_lands_on_the_key_its_triggering_writes_pick() {
    // A balance item per account, updated by every append to the account's stream; appends
    // pick accounts by Zipf(1.2) over 100: the busiest account takes 1/H(100, 1.2) = 27.8%.
    let source = r#"(
        name: "ledger", title: "Ledger",
        entities: [
            (name: "Event", attributes: [
                (name: "account_id", type: S, gen: Pick("accounts")),
                (name: "event_id", type: S, gen: New("events")),
                (name: "amount", type: N, gen: Number(Uniform(1, 100))),
            ]),
            (name: "Balance", attributes: [
                (name: "account_id", type: S, gen: New("accounts")),
                (name: "balance", type: N, gen: Number(Uniform(0, 1000))),
            ]),
        ],
        populations: [
            (name: "accounts", count: 100, ids: "a{:03}", popularity: Zipf(s: 1.2)),
            (name: "events", count: 1, ids: "e{}"),
        ],
        patterns: [(name: "append", action: Put, entity: "Event", given: ["account_id"], rate: 5000)],
        variants: [(name: "v",
            keys: {
                "Event": (pk: "ACCT#{account_id}", sk: "EVT#{event_id}"),
                "Balance": (pk: "ACCT#{account_id}", sk: "BALANCE"),
            },
            aggregates: [(name: "balance", entity: "Balance", on: ["append"], attribute: "balance", op: Sum("amount"))],
        )],
        workload: (duration: "1h", tick: "1s", seed: 1),
    )"#;
    let plan = super::plan_src(source, "v");
    let hot = plan
        .warnings
        .iter()
        .find(|w| w.code == WarningCode::HotPartition)
        .unwrap_or_else(|| panic!("the busiest account is hot: {:#?}", plan.warnings));
    // 5,000/s × 27.8% = 1,388 WCU/s of events, and as much again on its balance item.
    assert!(
        hot.to_string().contains("append (its Balance aggregate) 5,000/s × 27.8%"),
        "{}",
        hot.to_string()
    );
    assert!(hot.to_string().contains("takes 2,775.4 WCU/s"), "{}", hot.to_string());
}

#[test]
fn a_copy_fans_out_to_the_holders_of_the_source_the_update_picks() {
    // social-feed naive: a celebrity post (one of the 20 most followed of 20,000 users) is copied
    // onto every follow edge pointing at the celebrity. Edges pick whom they follow by Zipf(1.0)
    // (unscrambled), so the 20 hold H(20) / H(20,000) of them, a twentieth of that each:
    // ~8,600 copies a post, not the 25 of an average user.
    let loaded = testing::fixture("social-feed");
    let variant = loaded.variant(Some("naive")).unwrap();
    let est = Estimator::new(&loaded.scenario, variant);
    let plan = super::super::plan(&loaded.scenario, variant);
    let post = pattern(&plan, "celebrity-post");
    let copy = post.writes.iter().find(|w| w.target == "copy Follow.followee_post").expect("a copy");
    let zipf = Popularity::Zipf { s: 1.0, scrambled: false };
    let share = meeting(&Popularity::Hotspot { data: 0.001, ops: 1.0 }, &zipf, 20_000, 2006);
    let h = |n: u32, s: f64| (1..=n).map(|k| f64::from(k).powf(-s)).sum::<f64>();
    assert!((share - h(20, 1.0) / (20.0 * h(20_000, 1.0))).abs() < 1e-9, "{share}");
    // The copies there are when a call runs: on average over the run.
    let want = est.items_mean(loaded.scenario.entity("Follow").expect("Follow").id()) * share;
    assert!((copy.per_call - want).abs() < 1e-6 * want, "{} vs {want}", copy.per_call);
    assert!(copy.per_call > 8_000.0 && copy.per_call < 9_000.0, "{}", copy.per_call);
}

#[test]
fn a_skewed_reader_reads_the_popular_partitions() {
    // practice-search: messages and searches pick channels by the same Zipf(0.99) over 10,000,
    // so a search lands on a channel holding Σ pᵢ² = H(n, 1.98) / H(n, 0.99)² of the messages
    // (1.15%), not 1/10,000 — about 115 times the average channel.
    let loaded = testing::fixture("practice-search");
    let variant = loaded.variant(Some("naive")).unwrap();
    let plan = super::super::plan(&loaded.scenario, variant);
    let zipf = Popularity::Zipf { s: 0.99, scrambled: true };
    let share = meeting(&zipf, &zipf, 10_000, 404);
    let h = |n: u32, s: f64| (1..=n).map(|k| f64::from(k).powf(-s)).sum::<f64>();
    assert!((share - h(10_000, 1.98) / h(10_000, 0.99).powi(2)).abs() < 1e-9, "{share}");
    // 10 messages/s over the 2-hour run: a search at a random moment finds half of them.
    let want = 10.0 * 2.0 * 3_600.0 / 2.0 * share;
    let items = pattern(&plan, "search-in-channel").items_read.unwrap_or_default();
    assert!((items - want).abs() < 1e-6 * want, "{items} vs {want}");
}

/// A rename copied onto every star of a Zipf-popular repo (tests/fixtures/repo-stars.ron): each
/// call rewrites the copies of the repo it picks, weighted by that pick (145 on average over the
/// run, not the 3 of an average repo), and when the stars share the repo's key, the popular
/// repo's rename lands thousands of writes on one partition at once.
#[test]
fn copies_follow_the_pick_and_a_burst_onto_one_key_is_hot() {
    let source = include_str!("../../../../tests/fixtures/repo-stars.ron");
    let cases = [
        // (the Star items' partition key, a burst warning expected)
        ("REPO#{repo_id}", true),
        ("USER#{user_id}", false),
    ];
    for (star_pk, burst) in cases {
        let source =
            source.replace(r#""Star": (pk: "REPO#{repo_id}""#, &format!(r#""Star": (pk: "{star_pk}""#));
        let loaded = scenario::parse("repo-stars.ron", &source).expect("the fixture loads");
        let plan = super::super::plan(&loaded.scenario, loaded.variant(None).expect("one variant"));
        let rename = pattern(&plan, "rename");
        assert!((rename.units_per_call - 145.0).abs() < 0.5, "{star_pk}: {}", rename.units_per_call);
        let hot =
            plan.warnings.iter().find(|w| w.code == WarningCode::HotPartition && w.subject.contains(star_pk));
        match hot {
            Some(w) => {
                assert!(burst, "{star_pk}: {w}");
                assert!(
                    w.to_string().contains("rewrites ~1,077 Star items under one key at once"),
                    "{}",
                    w.to_string()
                );
            }
            None => assert!(!burst, "{star_pk}: no burst warning: {:#?}", plan.warnings),
        }
    }
}
