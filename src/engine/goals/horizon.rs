//! Size goals with a horizon: "no partition past 10 GB within a year" judged on a replay that
//! lasts an hour. The grade projects the busiest value of every partition key the puts fill to
//! the horizon, with the planner's arithmetic (each put pattern's mean rate × the share the
//! busiest key takes × the item size, over the horizon or the key's time bucket or item lifetime,
//! whichever is shorter — what `check`'s `unbounded-partition` warning reports), and never below
//! what the replay measured.
//!
//! It reads the scenario, the variant and the report; it never runs the workload.

use super::GoalUnit;
use crate::engine::model::{GoalCheck, Scenario, Variant};
use crate::engine::planner::{self, Busiest, numbers};
use crate::engine::time::SimDuration;

/// Where the busiest partition of a design is headed at a goal's horizon.
#[derive(Debug, Clone, PartialEq)]
pub struct Projection {
    /// Bytes or items, as the goal counts them.
    pub value: f64,
    pub unit: GoalUnit,
    /// Which key: `table CH#{channel_id}`.
    pub subject: String,
    pub horizon: SimDuration,
}

impl Projection {
    /// `25.6 GB at 1 year (table CH#{channel_id})`.
    pub fn describe(&self) -> String {
        format!("{} at {} ({})", self.unit.format(self.value), label(self.horizon), self.subject)
    }
}

/// The busiest partition at `horizon` as a size goal counts it; `None` for other goals, and when
/// no put fills a partition.
pub fn project(
    scenario: &Scenario,
    variant: &Variant,
    check: &GoalCheck,
    horizon: SimDuration,
) -> Option<Projection> {
    let (measure, unit): (fn(&Busiest) -> f64, GoalUnit) = match check {
        GoalCheck::MaxPartitionBytes(_) => (|b| b.bytes, GoalUnit::Bytes),
        GoalCheck::MaxPartitionItems(_) => (|b| b.rows, GoalUnit::Items),
        _ => return None,
    };
    planner::busiest_partitions(scenario, variant, horizon.as_secs_f64())
        .into_iter()
        .max_by(|a, b| measure(a).total_cmp(&measure(b)))
        .map(|b| Projection { value: measure(&b), unit, subject: b.subject, horizon })
}

/// A horizon as people say it: `1 year`, `2 years`, `30 days`, `6 h`.
pub fn label(horizon: SimDuration) -> String {
    const YEAR: u64 = 365 * 86_400;
    let secs = horizon.as_millis() / 1000;
    match secs / YEAR {
        1 if secs.is_multiple_of(YEAR) => "1 year".to_owned(),
        n if n > 1 && secs.is_multiple_of(YEAR) => format!("{n} years"),
        _ => numbers::span(horizon.as_secs_f64()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::PatternRef;

    fn days(n: u64) -> SimDuration {
        SimDuration::from_secs(n * 86_400)
    }

    #[test]
    fn labels_horizons_as_people_say_them() {
        let cases =
            [(days(365), "1 year"), (days(730), "2 years"), (days(30), "30 days"), (days(400), "400 days")];
        for (horizon, text) in cases {
            assert_eq!(label(horizon), text, "{horizon}");
        }
    }

    /// practice-chat: a partition per channel reaches ~25.6 GB in a year (the file's arithmetic);
    /// a 10-day bucket holds ~750 MB whatever the horizon.
    #[test]
    fn projects_the_busiest_partition_to_the_horizon() {
        let loaded = crate::engine::testing::fixture("practice-chat");
        let s = &loaded.scenario;
        let gib = f64::from(1u32 << 30);
        let check = GoalCheck::MaxPartitionBytes(10 << 30);
        let cases =
            [("naive", 365, 24.0, 27.0), ("recommended", 365, 0.6, 0.8), ("recommended", 30, 0.6, 0.8)];
        for (variant, horizon, low, high) in cases {
            let v = loaded.variant(Some(variant)).expect("variant");
            let p = project(s, v, &check, days(horizon)).expect("puts fill partitions");
            assert!(p.value / gib > low && p.value / gib < high, "{variant} at {horizon} days: {p:?}");
            assert!(p.subject.starts_with("table CH#{channel_id}"), "{p:?}");
        }
        let naive = loaded.variant(Some("naive")).expect("naive");
        assert_eq!(
            project(
                s,
                naive,
                &GoalCheck::NoScan(PatternRef::new(s.patterns[0].name.clone(), s.patterns[0].id())),
                days(365)
            ),
            None
        );
        let items = project(s, naive, &GoalCheck::MaxPartitionItems(1), days(365)).expect("items");
        assert_eq!(items.unit, GoalUnit::Items);
        assert!(items.describe().contains("items at 1 year (table CH#{channel_id})"), "{items:?}");
    }
}
