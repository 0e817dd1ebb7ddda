//! Class slots: a reader who knows the class attribute asks only its class's shards or
//! buckets, so a call costs the mix of the classes' layouts by the share of calls each takes;
//! the busiest key and the largest partition are those of the class that holds them.

use super::{access, pattern, plan_src};
use crate::engine::goals::forecast;
use crate::engine::planner::verdict::Access;
use crate::engine::planner::{self, PatternPlan, WarningCode};
use crate::engine::testing;
use crate::scenario;

/// 200 tenants, 2,000 events a second; tenant-000 takes 60% of them (1,200 WCU/s on one key
/// unsharded). The audit page reads a tenant's newest 20 of the last hour, 10 times a second.
fn whale() -> String {
    let variants = r#"[
        (name: "naive", keys: {"Event": (pk: "T#{tenant_id}", sk: "{at}#{seq}")}),
        (name: "all", keys: {"Event": (pk: "T#{tenant_id}#{shard(8)}", sk: "{at}#{seq}")}),
        (name: "whale", keys: {"Event": (
            pk: "T#{tenant_id}#{shard(by: tenant_id, tenant-000 = 8, else = 1)}", sk: "{at}#{seq}")}),
    ]"#;
    testing::whale_log(200, 2000, 10, variants, r#"(duration: "60s", tick: "1s", seed: 3)"#)
}

/// The share of calls the class `value` of `by` takes in a read served class by class.
fn class_share(p: &PatternPlan, by: &str, value: &str) -> f64 {
    let Access::Classes { by: of, classes, .. } = access(p) else {
        panic!("not read by class: {:#?}", p.verdict)
    };
    assert_eq!(of, by);
    let class = classes.iter().find(|c| c.value.as_deref() == Some(value));
    class.unwrap_or_else(|| panic!("no class {value}: {:#?}", p.verdict)).share
}

#[test]
fn a_reader_who_knows_the_class_pays_only_its_class_fanout() {
    // (variant, planned fan-out, hot-partition warning): sharding the whale alone spreads its
    // 1,200 WCU/s as sharding everyone does; the fan-out a call can make stays 8.
    let cases = [("naive", 1, true), ("all", 8, false), ("whale", 8, false)];
    for (variant, fanout, hot) in cases {
        let plan = plan_src(&whale(), variant);
        let page = pattern(&plan, "page");
        assert_eq!(page.fanout, fanout, "{variant}: {:#?}", page.verdict);
        let warned = plan.warnings.iter().any(|w| w.code == WarningCode::HotPartition);
        assert_eq!(warned, hot, "{variant}: {:#?}", plan.warnings);
    }
    let (all, whale) = (plan_src(&whale(), "all"), plan_src(&whale(), "whale"));
    let (all, whale) = (pattern(&all, "page"), pattern(&whale, "page"));
    // The whale's calls (60% + 0.4/200 of them) read 20 from each of 8 shards; the other 40%
    // read their 20 newest from one key instead of 8 × 20.
    let share = 0.6 + 0.4 / 200.0;
    let items = share * 160.0 + (1.0 - share) * 20.0;
    let read = whale.items_read.expect("items");
    assert!((read - items).abs() < 0.05 * items, "{read} items, expected ~{items}: {:#?}", whale.verdict);
    assert!(whale.units_per_call < all.units_per_call, "{} vs {}", whale.units_per_call, all.units_per_call);
    let whales = class_share(whale, "tenant_id", "tenant-000");
    assert!((whales - share).abs() < 1e-3, "{whales} of calls, expected {share}");
}

/// One 10 Hz device bucketed hourly, 50 at 0.02 Hz bucketed by 30 days (tests/fixtures): the
/// largest partition is then a slow device's month, not the fast device's month.
#[test]
fn a_class_bucket_sizes_each_class_by_its_own_width() {
    let source = include_str!("../../../../tests/fixtures/device-classes.ron");
    let detail = |variant: &str| {
        let loaded = scenario::parse("device-classes.ron", source).expect("fixture");
        let variant = loaded.variant(Some(variant)).expect("variant");
        let plan = planner::plan(&loaded.scenario, variant);
        let goals = forecast(&loaded.scenario, variant, &plan);
        let goal = goals.into_iter().find(|g| g.name.starts_with("no partition")).expect("size goal");
        (goal.predicted, goal.detail)
    };
    let (monthly, by_class) = (detail("monthly"), detail("by-class"));
    assert_eq!(monthly.0, Some(false), "{}", monthly.1);
    // Under the limit, only a replay can judge it (the partition it measures may be larger).
    assert_eq!(by_class.0, None, "{}", by_class.1);
    assert!(by_class.1.starts_with("projected: 6.11 MB at 30 days"), "{}", by_class.1);
    let plan = plan_src(source, "by-class");
    let dashboard = pattern(&plan, "dashboard");
    // dev-00 (50% + 0.5/51 of calls) asks 1–2 hourly buckets, the rest one or two 30-day ones.
    assert_eq!(dashboard.fanout, 2, "{:#?}", dashboard.verdict);
    let fast = class_share(dashboard, "device_id", "dev-00");
    assert!((fast - (0.5 + 0.5 / 51.0)).abs() < 1e-3, "{fast} of calls");
}
