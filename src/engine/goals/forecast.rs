//! What the plan predicts for each goal before anything runs (`keyheat check`). A goal the
//! planner can judge by itself gets a predicted ✔ or ✘ with the plan's numbers: whether a pattern
//! is served by a Scan, how many requests a call needs, the write amplification at the patterns'
//! mean rates, a price the profile cannot have. A goal only a replay can measure (partition sizes
//! over time, throttling, modelled latency, the bill) says so and names the plan's warnings that
//! bear on it.
//!
//! A forecast is never a measurement and never grades anything: `keyheat run` does (see
//! `goals::evaluate`), and its numbers can differ (throttled writes, paging, the run's length).

mod shards;

use serde::Serialize;

use crate::engine::model::{Engine, Goal, GoalCheck, PatternRef, Scenario, Variant};
use crate::engine::planner::{
    Operation, PatternPlan, Plan, Subject, Warning, WarningCode, cosmos_verb, cql_verb, mongo_verb, numbers,
    verb,
};
use crate::engine::profile::{Language, Pricing};
use crate::engine::sim::report::GoalHint;

/// One goal as the plan sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoalForecast {
    pub name: String,
    /// `Some(true)`: the plan predicts it passes; `Some(false)`: that it fails; `None`: only
    /// `keyheat run` can tell.
    pub predicted: Option<bool>,
    /// What the prediction rests on, or what the run will measure.
    pub detail: String,
    /// The plan's warnings that bear on the goal, as `code — subject`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<String>,
    /// In a practice problem: the hint the goal links to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<GoalHint>,
}

/// What the plan of `variant` predicts for every goal of the scenario, in file order.
pub fn forecast(scenario: &Scenario, variant: &Variant, plan: &Plan) -> Vec<GoalForecast> {
    let view =
        View { engine: scenario.engine, secs: scenario.workload.duration.as_secs_f64(), plan, variant };
    scenario
        .goals
        .iter()
        .map(|goal| {
            let (mut predicted, mut detail, codes, subject) = view.goal(&goal.check, scenario);
            if let Some((sure, text)) = horizon(scenario, variant, goal) {
                (predicted, detail) = (sure, text);
            }
            let related = plan
                .warnings
                .iter()
                .filter(|w| codes.contains(&w.code) && subject.as_ref().is_none_or(|s| w.about == *s))
                .map(|w| format!("{} — {}", w.code.id(), w.subject))
                .collect();
            GoalForecast {
                name: goal.name.clone(),
                predicted,
                detail,
                related,
                hint: scenario
                    .goal_hint(goal)
                    .map(|(number, text)| GoalHint { number, text: text.to_owned() }),
            }
        })
        .collect()
}

/// A size goal whose horizon is past the replay: the plan's projection to it. Past the limit it
/// fails for sure (`run` grades the larger of the projection and what it measures); within it,
/// only the replay can say whether a partition it measures is larger.
fn horizon(scenario: &Scenario, variant: &Variant, goal: &Goal) -> Option<(Option<bool>, String)> {
    let h = goal.within.filter(|&h| h > scenario.workload.duration)?;
    let limit = match goal.check {
        GoalCheck::MaxPartitionBytes(limit) | GoalCheck::MaxPartitionItems(limit) => limit as f64,
        _ => return None,
    };
    let p = super::horizon::project(scenario, variant, &goal.check, h)?;
    let target = p.unit.format(limit);
    Some(if p.value > limit {
        (Some(false), format!("projected: {} > {target}", p.describe()))
    } else {
        (
            None,
            format!(
                "projected: {} ≤ {target}; {RUN} the larger of this and the largest partition the replay measures",
                p.describe()
            ),
        )
    })
}

/// What the forecast of one goal reads.
struct View<'a> {
    engine: Engine,
    /// The workload's length: what "within the run" means.
    secs: f64,
    plan: &'a Plan,
    /// The design planned: its sharded collection, for a shard-share goal.
    variant: &'a Variant,
}

/// A goal's prediction, its detail, and which warnings bear on it (about one subject, or any).
type Judged = (Option<bool>, String, &'static [WarningCode], Option<Subject>);

/// What `keyheat run` grades a goal on, for goals the plan cannot predict.
const RUN: &str = "judged by `keyheat run`:";

impl View<'_> {
    fn goal(&self, check: &GoalCheck, scenario: &Scenario) -> Judged {
        use WarningCode::{
            HotPartition, LargePartition, LowCardinalityIndex, Scan, UnboundedPartition, Unserved,
            WriteAmplification,
        };
        match check {
            GoalCheck::MaxPartitionBytes(limit) => (
                None,
                format!(
                    "{RUN} the largest partition of the {} at the end of the replay, against {}",
                    self.engine.words().any_place,
                    numbers::bytes(*limit as f64)
                ),
                &[UnboundedPartition, LargePartition],
                None,
            ),
            GoalCheck::MaxPartitionItems(limit) => (
                None,
                format!(
                    "{RUN} the most {} any partition holds at the end of the replay, against {}",
                    self.engine.words().item.many,
                    numbers::count(*limit as f64)
                ),
                &[UnboundedPartition, LargePartition],
                None,
            ),
            GoalCheck::MaxThrottledRatio(limit) => (
                None,
                format!(
                    "{RUN} the share of requests throttled over the replay, against {}",
                    numbers::percent(*limit)
                ),
                &[HotPartition, LowCardinalityIndex],
                None,
            ),
            GoalCheck::NoScan(name) => {
                let (predicted, detail) = self.no_scan(name);
                (predicted, detail, &[Scan, Unserved], Some(Subject::Pattern(name.id())))
            }
            GoalCheck::MaxFanout(name, limit) => {
                let (predicted, detail) = self.fanout(name, *limit);
                (predicted, detail, &[Scan, Unserved], Some(Subject::Pattern(name.id())))
            }
            GoalCheck::MaxIndexWriteAmplification(limit) => {
                let (predicted, detail) = self.amplification(*limit);
                (predicted, detail, &[WriteAmplification], None)
            }
            GoalCheck::LatencyTarget(name) => {
                let target =
                    (scenario.patterns.get(name.id().index())).and_then(|p| p.latency_target_ms).map_or_else(
                        || "its target".to_owned(),
                        |ms| format!("its {} ms target", numbers::count(ms)),
                    );
                (
                    None,
                    format!("{RUN} the modelled p99 latency of {name} against {target}"),
                    &[Scan, Unserved],
                    Some(Subject::Pattern(name.id())),
                )
            }
            GoalCheck::MaxFailedWrites(limit) => self.failed_writes(*limit),
            GoalCheck::MaxShardShare(limit) => shards::share(scenario, self.variant, *limit),
            GoalCheck::MaxMonthlyCost(limit) => match self.engine.profile().pricing {
                // The grader refuses a cost goal without a price, so this one is sure.
                Pricing::SelfManaged => (
                    Some(false),
                    format!(
                        "the {} profile is self-managed and has no price, so `keyheat run` cannot grade a monthly cost",
                        self.engine
                    ),
                    &[],
                    None,
                ),
                Pricing::Servers => (
                    Some(false),
                    format!(
                        "{} is priced by its servers, not per request, so `keyheat run` cannot grade a monthly cost",
                        self.engine
                    ),
                    &[],
                    None,
                ),
                Pricing::Unlisted => (
                    Some(false),
                    format!(
                        "keyheat holds no sourced price list for {}, so `keyheat run` cannot grade a monthly cost",
                        self.engine
                    ),
                    &[],
                    None,
                ),
                Pricing::OnDemand => (
                    None,
                    format!(
                        "{RUN} the bill projected to a month from the replay, against {}",
                        crate::engine::cost::usd(*limit)
                    ),
                    &[Scan, WriteAmplification],
                    None,
                ),
            },
        }
    }

    /// An item the plan sees passing 400 KB within the run refuses every later write, and a key
    /// the plan sees colliding loses the items puts land on; other failed writes (throttled past
    /// the last retry) only a replay shows.
    fn failed_writes(&self, limit: u64) -> Judged {
        use WarningCode::{HotPartition, KeyCollision, UnboundedItem};
        // Only "none may be lost" is sure: how many are lost depends on the replay.
        let sure = |w: &&Warning| {
            (w.code == UnboundedItem && w.limit_after.is_some_and(|secs| secs <= self.secs))
                || w.code == KeyCollision
        };
        let lost = self.plan.warnings.iter().filter(|_| limit == 0).find(sure);
        let detail = match lost {
            Some(w) if w.code == KeyCollision => format!(
                "{} items share table keys: a put onto another item's key replaces it, and it is lost",
                w.subject
            ),
            Some(w) => {
                format!(
                    "{} items pass 400 KB within the run, and DynamoDB refuses every later write to them",
                    w.subject
                )
            }
            None => format!(
                "{RUN} the writes that are lost (refused, throttled past the last retry, or overwritten by a put with the same key), against {}",
                numbers::count(limit as f64)
            ),
        };
        (lost.map(|_| false), detail, &[UnboundedItem, KeyCollision, HotPartition], None)
    }

    /// The language the forecast's sentences speak: the store's own.
    fn language(&self) -> Language {
        self.engine.profile().language
    }

    /// The plan of a pattern: the plan lists the scenario's patterns in its order.
    fn pattern(&self, target: &PatternRef) -> Option<&PatternPlan> {
        self.plan.patterns.get(target.id().index())
    }

    /// "Query ×2 on the table", "a Scan of the table", "SELECT on view by_user".
    fn served(&self, p: &PatternPlan, op: Operation) -> String {
        let place = match (&p.index, self.language()) {
            (None, _) => format!("the {}", self.engine.words().table),
            (Some(id), Language::Cql) => format!("view {}", id.name()),
            (Some(id), Language::MongoDb) => format!("index {}", id.name()),
            (Some(id), Language::DynamoDbApi | Language::CosmosNoSql) => id.label(),
        };
        if op == Operation::Scan {
            return match self.language() {
                Language::DynamoDbApi => format!("a Scan of {place}"),
                Language::Cql => format!("a full scan of {place} ({})", cql_verb(op)),
                Language::CosmosNoSql => format!("a {} of the container", cosmos_verb(op)),
                Language::MongoDb => format!("a {}", mongo_verb(op)),
            };
        }
        let fanout = if p.fanout > 1 { format!(" ×{}", p.fanout) } else { String::new() };
        format!("{}{fanout} on {place}", verb(self.language(), op))
    }

    fn no_scan(&self, target: &PatternRef) -> (Option<bool>, String) {
        let name = target.name();
        let Some(p) = self.pattern(target) else { return (None, format!("{name} is not in the plan")) };
        // A write that scans to learn its key is graded on that Scan.
        let p = p.locate.as_deref().filter(|l| l.operation == Some(Operation::Scan)).unwrap_or(p);
        match p.operation {
            None => (Some(false), format!("nothing serves {name}: no key or index finds its items")),
            Some(Operation::Scan) => {
                let cost = match self.language() {
                    Language::DynamoDbApi => format!("~{} RCU per call", numbers::count(p.units_per_call)),
                    Language::CosmosNoSql => format!("~{} RU per call", numbers::count(p.units_per_call)),
                    Language::Cql | Language::MongoDb => {
                        format!("~{} per call", numbers::bytes(p.bytes_read.unwrap_or(0.0)))
                    }
                };
                let scan = match self.language() {
                    Language::DynamoDbApi => "a Scan".to_owned(),
                    Language::CosmosNoSql => format!("a {}", cosmos_verb(Operation::Scan)),
                    Language::Cql => format!("a full scan ({})", cql_verb(Operation::Scan)),
                    Language::MongoDb => format!("a {}", mongo_verb(Operation::Scan)),
                };
                (
                    Some(false),
                    format!(
                        "{name} is served by {scan}: every call reads the whole table ({cost} at the end of the replay) and more as it grows"
                    ),
                )
            }
            Some(op) => (Some(true), format!("{name} is served by {}", self.served(p, op))),
        }
    }

    fn fanout(&self, target: &PatternRef, limit: u32) -> (Option<bool>, String) {
        let name = target.name();
        let Some(p) = self.pattern(target) else { return (None, format!("{name} is not in the plan")) };
        let Some(op) = p.operation else {
            return (None, format!("nothing serves {name}, so the plan has no requests to count"));
        };
        let Some(requests) = p.requests_per_call(self.engine) else {
            let read = p.bytes_read.map_or_else(String::new, |b| format!(" (~{})", numbers::bytes(b)));
            return (
                None,
                format!(
                    "judged by `keyheat run`: {name} is served by {}, and a call may read more than a 1 MB page{read}; every page is a request of its own",
                    self.served(p, op)
                ),
            );
        };
        let passed = requests <= limit;
        let noun = if requests == 1 { "request" } else { "requests" };
        (
            Some(passed),
            format!(
                "{name} is served by {}: {requests} {noun} per call {} {limit}",
                self.served(p, op),
                if passed { "≤" } else { ">" }
            ),
        )
    }

    /// Items written per base item written, the base included, at the write patterns' mean rates:
    /// what the replay measures over the run when no write is refused or throttled away.
    fn amplification(&self, limit: f64) -> (Option<bool>, String) {
        let writes: Vec<(f64, f64)> = self
            .plan
            .patterns
            .iter()
            .filter_map(|p| p.write_amplification.map(|extra| (p.mean_rate, extra)))
            .collect();
        let base: f64 = writes.iter().map(|(rate, _)| rate).sum();
        if base <= 0.0 {
            return (None, "no pattern writes, so the plan has no writes to count".to_owned());
        }
        let value = 1.0 + writes.iter().map(|(rate, extra)| rate * extra).sum::<f64>() / base;
        let passed = value <= limit + 1e-9;
        let amplified = self.engine.words().amplified;
        let noun = amplified.written;
        (
            Some(passed),
            format!(
                "~{} {} written per base {} ({}) at the write patterns' mean rates {} {}",
                numbers::factor(value),
                if numbers::factor(value) == "1" { noun.one } else { noun.many },
                noun.one,
                amplified.places,
                if passed { "≤" } else { ">" },
                numbers::factor(limit)
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::planner;

    fn forecasts(name: &str, variant: &str) -> Vec<GoalForecast> {
        let loaded = crate::engine::testing::fixture(name);
        let variant = loaded.variant(Some(variant)).expect("the variant exists");
        let plan = planner::plan(&loaded.scenario, variant);
        forecast(&loaded.scenario, variant, &plan)
    }

    fn find<'f>(all: &'f [GoalForecast], name: &str) -> &'f GoalForecast {
        all.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no goal {name:?} in {all:?}"))
    }

    /// (scenario, variant, goal, prediction, detail fragment, a related warning if any).
    type Case = (&'static str, &'static str, &'static str, Option<bool>, &'static str, Option<&'static str>);

    fn assert_forecasts(cases: &[Case]) {
        for (scenario, variant, goal, predicted, detail, related) in cases {
            let all = forecasts(scenario, variant);
            let f = find(&all, goal);
            let label = format!("{scenario}/{variant}/{goal}");
            assert_eq!(f.predicted, *predicted, "{label}: {f:?}");
            assert!(f.detail.contains(detail), "{label}: {:?} lacks {detail:?}", f.detail);
            if let Some(related) = related {
                assert!(f.related.iter().any(|r| r == related), "{label}: {:?}", f.related);
            }
        }
    }

    /// `shard-keys` with its shard-share goal's share (and, when given, by-country's `Ranged`)
    /// replaced: (share, by-country's key, variant, prediction, detail fragment).
    #[test]
    fn a_shard_share_goal_is_predicted_where_the_shard_key_decides_it() {
        const GOAL: &str = "no shard takes more than half the inserts";
        let source = crate::scenario::BUNDLED
            .iter()
            .find(|(name, ..)| *name == "shard-keys")
            .map(|(_, _, text)| *text)
            .expect("bundled");
        let by_country = "(pk: \"{country}\", sk: \"{order_id}\"),";
        let cases: [(&str, &str, &str, Option<bool>, &str); 7] = [
            // "Choose a Shard Key": an increasing ranged key puts every insert on one shard.
            (
                "0.5",
                "Ranged",
                "naive",
                Some(false),
                "starts with created_at, the write time: every insert is the largest key yet and goes to the range ending at MaxKey, on one shard — 100% > 50%",
            ),
            ("1.0", "Ranged", "naive", Some(true), "100% ≤ 100%"),
            // "Hashed Sharding": a new value per document hashes evenly.
            (
                "0.5",
                "Ranged",
                "recommended",
                Some(true),
                "the hashed shard key {order_id} is new for every document: its hashes spread the inserts evenly over 3 shards, ~33.3% ≤ 50%",
            ),
            // Too close to an even share for sampling noise: the replay's to say.
            (
                "0.34",
                "Ranged",
                "recommended",
                None,
                "judged by `keyheat run`: the busiest shard's share of the inserts into Order, against 34% (shard key {order_id}, hashed)",
            ),
            // Under an even share no key passes.
            (
                "0.3",
                "Ranged",
                "recommended",
                Some(false),
                "3 shards: the busiest takes at least an even share of the inserts, 33.3% > 30%",
            ),
            // Five countries: the US's 40% never splits, whatever the strategy.
            (
                "0.5",
                "Ranged",
                "by-country",
                None,
                "US on 40% of the inserts: one value's documents never split, so its shard takes at least that (40% ≤ 50%)",
            ),
            (
                "0.35",
                "Hashed",
                "by-country",
                Some(false),
                "the shard key {country} takes 5 values, US on 40% of the inserts: one value's documents never split, so its shard takes at least that, 40% > 35%",
            ),
        ];
        for (share, strategy, variant, predicted, detail) in cases {
            let text = source.replace("MaxShardShare(0.5)", &format!("MaxShardShare({share})"));
            // by-country's sharding is the file's last: change its strategy alone.
            let at = text.find(by_country).expect("by-country's keys");
            let text = format!(
                "{}{}",
                &text[..at],
                text[at..].replacen("key: Ranged", &format!("key: {strategy}"), 1)
            );
            let loaded = crate::scenario::parse("shard-keys.ron", &text).expect("parses");
            let v = loaded.variant(Some(variant)).expect("the variant exists");
            let all = forecast(&loaded.scenario, v, &planner::plan(&loaded.scenario, v));
            let f = find(&all, GOAL);
            assert_eq!(f.predicted, predicted, "{share} {variant}: {f:?}");
            assert!(f.detail.contains(detail), "{share} {variant}: {:?} lacks {detail:?}", f.detail);
        }
        // A variant that shards nothing leaves it to the replay, which does not grade it.
        let unsharded = source.replace(
            "            sharding: (collection: \"Order\", shards: 3, key: Hashed, range_size: \"1MB\"),\n",
            "",
        );
        let loaded = crate::scenario::parse("shard-keys.ron", &unsharded).expect("parses");
        let v = loaded.variant(Some("recommended")).expect("recommended");
        assert!(v.sharding.is_none());
        let all = forecast(&loaded.scenario, v, &planner::plan(&loaded.scenario, v));
        let f = find(&all, GOAL);
        assert_eq!(f.predicted, None);
        assert!(
            f.detail.contains("the variant shards no collection: `keyheat run` leaves the goal not graded"),
            "{f:?}"
        );
    }

    #[test]
    fn predicts_what_the_plan_can_judge() {
        assert_forecasts(&[
            (
                "orders",
                "naive",
                "the warehouse never scans",
                Some(false),
                "pending-orders is served by a Scan: every call reads the whole table (~",
                Some("scan — pending-orders"),
            ),
            (
                "orders",
                "recommended",
                "the warehouse never scans",
                Some(true),
                "pending-orders is served by Query",
                None,
            ),
            (
                "practice-chat",
                "naive",
                "opening a channel sends at most 2 requests",
                Some(true),
                "recent-messages is served by Query on the table: 1 request per call ≤ 2",
                None,
            ),
            (
                "practice-sensor",
                "recommended",
                "the live chart sends at most 2 requests",
                Some(true),
                "last-hour is served by SELECT ×2 on the table: 2 requests per call ≤ 2",
                None,
            ),
            (
                "practice-chat",
                "naive",
                "my conversations never scans",
                Some(false),
                "my-conversations is served by a Scan",
                Some("scan — my-conversations"),
            ),
            (
                "practice-top-customers",
                "naive",
                "an order writes at most 4 items",
                Some(true),
                "~1 item written per base item",
                None,
            ),
            (
                "practice-social",
                "naive",
                "a write writes at most 3 items",
                Some(true),
                "at the write patterns' mean rates ≤ 3",
                None,
            ),
            (
                "social-feed",
                "embedded-comments",
                "every write lands",
                Some(false),
                "Post items pass 400 KB within the run",
                Some("unbounded-item — Post"),
            ),
            ("social-feed", "recommended", "every write lands", None, "judged by `keyheat run`", None),
            (
                "practice-search",
                "naive",
                "no index that serves nothing (1 item written per message)",
                Some(false),
                "~2 items written per base item (table, indexes, copies and aggregates) at the write patterns' mean rates > 1",
                None,
            ),
        ]);
    }

    /// A size goal `within` a horizon past the replay is projected to it: past the limit it fails
    /// for sure; within it the replay may still measure a larger partition.
    #[test]
    fn projects_a_size_goal_to_its_horizon() {
        assert_forecasts(&[
            (
                "practice-chat",
                "naive",
                "no partition past 10 GB within a year",
                Some(false),
                "projected: 25.5 GB at 1 year (table CH#{channel_id}) > 10 GB",
                Some("unbounded-partition — table CH#{channel_id}"),
            ),
            (
                "practice-chat",
                "recommended",
                "no partition past 10 GB within a year",
                None,
                "≤ 10 GB; judged by `keyheat run`: the larger of this and the largest partition the replay measures",
                None,
            ),
        ]);
    }

    #[test]
    fn leaves_to_a_run_what_only_a_run_can_measure() {
        assert_forecasts(&[
            (
                "sensors",
                "recommended",
                "partitions stay under 100 MB",
                None,
                "judged by `keyheat run`: the largest partition of the tables or any view at the end of the replay, against 100 MB",
                None,
            ),
            (
                "practice-sensor",
                "naive",
                "partitions stay under 100,000 rows",
                None,
                "the most rows any partition holds at the end of the replay, against 100,000",
                Some("unbounded-partition — table {sensor_id}"),
            ),
            // A Scan's pages are requests the plan does not count: the run judges them.
            (
                "practice-social",
                "naive",
                "a post with its comments is one request",
                None,
                "a call may read more than a 1 MB page (~",
                Some("scan — post-with-comments"),
            ),
            (
                "practice-top-customers",
                "naive",
                "no throttled orders",
                None,
                "judged by `keyheat run`: the share of requests throttled",
                None,
            ),
            (
                "practice-top-customers",
                "naive",
                "the dashboard meets its latency target",
                None,
                "judged by `keyheat run`: the modelled p99 latency of top-customers against its",
                Some("scan — top-customers"),
            ),
        ]);
    }

    #[test]
    fn every_goal_gets_a_forecast_and_a_practice_goal_its_hint() {
        for loaded in crate::engine::testing::fixtures() {
            let s = &loaded.scenario;
            for variant in &s.variants {
                let plan = planner::plan(s, variant);
                let all = forecast(s, variant, &plan);
                let names: Vec<&str> = all.iter().map(|f| f.name.as_str()).collect();
                let expected: Vec<&str> = s.goals.iter().map(|g| g.name.as_str()).collect();
                assert_eq!(names, expected, "{}/{}", s.name, variant.name);
                for (f, g) in all.iter().zip(&s.goals) {
                    assert_eq!(f.hint.as_ref().map(|h| h.number), g.hint, "{}: {}", s.name, g.name);
                    // A prediction names the plan's numbers; anything else defers to the run.
                    assert!(f.predicted.is_some() || f.detail.contains("keyheat run"), "{f:?}");
                }
            }
        }
    }

    #[test]
    fn a_cost_goal_cannot_pass_without_a_price() {
        let loaded = crate::engine::testing::fixture("sensors");
        let mut scenario = loaded.scenario.clone();
        scenario.goals = vec![crate::engine::model::Goal {
            name: "cheap".to_owned(),
            check: GoalCheck::MaxMonthlyCost(10.0),
            hint: None,
            within: None,
        }];
        let variant = &scenario.variants[0];
        let plan = planner::plan(&scenario, variant);
        let f = &forecast(&scenario, variant, &plan)[0];
        assert_eq!(f.predicted, Some(false), "{f:?}");
        assert!(f.detail.contains("no price"), "{f:?}");
    }
}
