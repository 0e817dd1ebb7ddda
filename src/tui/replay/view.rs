//! A running simulation turned into the [`WorkbenchView`] the panels draw: the heatmap from the
//! metrics registry, the largest partitions' sizes over time, and the judged report of the run so
//! far (indexes, access patterns, goals, the figures compare shows). Reads only; pure but for the
//! cost of reading.

use crate::engine::judge;
use crate::engine::metrics::{
    GroupId, HeatmapQuery, Kind, Layer, Metric, Metrics, PartitionId, Rank, Series, Tick, columns,
};
use crate::engine::model::{Engine, GoalCheck, Scenario, Variant};
use crate::engine::planner;
use crate::engine::sim::report::GoalStatus;
use crate::engine::sim::{RunReport, Simulation};
use crate::tui::view::{
    Cost, GoalRow, GoalState, HeatmapView, IndexRow, PatternRow, RowFacts, SizeSeries, SizesView,
    ViewRequest, WorkbenchView,
};

/// Everything the panels need from `sim` as it stands now, shaped as `request` asks.
pub fn build(
    sim: &Simulation,
    scenario: &Scenario,
    variant: &Variant,
    request: &ViewRequest,
) -> WorkbenchView {
    let metrics = sim.metrics();
    let mut report = sim.report();
    judge::finish(scenario, variant, &mut report);
    WorkbenchView {
        heatmap: heatmap(metrics, request),
        sizes: sizes(metrics, scenario.engine, request),
        indexes: indexes(&report),
        goals: goals(scenario, &report),
        patterns: patterns(&report, scenario.engine),
        report: Some(Box::new(report)),
    }
}

/// The closed registry ticks: what the panels can show.
fn closed(metrics: &Metrics) -> std::ops::Range<Tick> {
    Tick(0)..metrics.now()
}

fn heatmap(metrics: &Metrics, request: &ViewRequest) -> Option<HeatmapView> {
    let range = closed(metrics);
    if range.is_empty() || request.rows == 0 || request.cols == 0 {
        return None;
    }
    let query = HeatmapQuery {
        metric: request.metric,
        layer: request.layer,
        range,
        cols: request.cols,
        rows: request.rows,
        order: request.order,
    };
    // Too few rows for the groups (a tiny panel) draws nothing rather than something wrong.
    let matrix = metrics.heatmap(&query).ok()?;
    if matrix.rows.is_empty() {
        return None;
    }
    let facts = matrix.rows.iter().map(|row| row_facts(metrics, &row.members)).collect();
    let groups = metrics.groups().map(|(_, g)| g.name.clone()).collect();
    let first_keys = matrix
        .rows
        .iter()
        .map(|row| {
            row.members
                .first()
                .and_then(|&id| metrics.row_info(id))
                .map_or_else(|| row.label.clone(), |i| i.label.clone())
        })
        .collect();
    Some(HeatmapView { matrix, facts, groups, start: metrics.clock().start(), first_keys })
}

/// A row's partitions now: items and bytes are levels (summed over a merged row's members),
/// throttles the run's total.
fn row_facts(metrics: &Metrics, members: &[PartitionId]) -> RowFacts {
    let level =
        |id: PartitionId, metric: Metric| metrics.partition_series(id, metric).map_or(0.0, Series::total);
    let mut facts = RowFacts::default();
    for &id in members {
        facts.items += planner::numbers::floor_u64(level(id, Metric::Items));
        facts.bytes += planner::numbers::floor_u64(level(id, Metric::Bytes));
        facts.throttled += planner::numbers::floor_u64(level(id, Metric::Throttled));
    }
    facts
}

/// The largest logical partitions' sizes over the run so far, oldest point first.
fn sizes(metrics: &Metrics, engine: Engine, request: &ViewRequest) -> SizesView {
    let (limit_bytes, _) = planner::partition_limits(engine);
    let range = closed(metrics);
    let clock = *metrics.clock();
    let top = metrics.top_partitions(Layer::Logical, None, Metric::Bytes, Rank::Total, request.size_series);
    let tables: Vec<GroupId> = metrics
        .groups()
        .filter(|(_, g)| g.kind == crate::engine::metrics::GroupKind::Table)
        .map(|(id, _)| id)
        .collect();
    let series = top
        .iter()
        .filter_map(|&(id, _)| {
            let info = metrics.row_info(id)?;
            let series = metrics.partition_series(id, Metric::Bytes)?;
            debug_assert_eq!(series.kind(), Kind::Gauge, "bytes are a level");
            let resampled = series.resample(range.clone(), request.size_points.max(2));
            let points = columns(range.clone(), request.size_points.max(2))
                .zip(&resampled)
                .map(|(ticks, c)| (clock.tick_start(ticks.end).since(clock.start()).as_secs_f64(), c.value))
                .collect();
            // Index partitions say which index they are in; the table's need no prefix.
            let label = if tables.contains(&info.group) {
                info.label.clone()
            } else {
                let group = metrics.groups().find(|(g, _)| *g == info.group).map_or("", |(_, g)| &g.name);
                format!("{group}: {}", info.label)
            };
            Some(SizeSeries { label, points })
        })
        .collect();
    SizesView { limit_bytes, series }
}

fn indexes(report: &RunReport) -> Vec<IndexRow> {
    let table = report.totals.table_bytes as f64;
    report
        .indexes
        .iter()
        .map(|i| IndexRow {
            name: i.name.clone(),
            wcu_vs_table: i.wcu_vs_table,
            writes: i.entry_writes,
            storage_vs_base: if table > 0.0 { i.bytes as f64 / table } else { 0.0 },
            max_lag_s: i.max_lag_s,
            throttled: i.throttled_ops,
            hottest_key: i.hottest_key.clone(),
        })
        .collect()
}

/// The graded goals (in the scenario's order, as `goals::evaluate` returns them), pending while
/// nothing they read has been measured.
fn goals(scenario: &Scenario, report: &RunReport) -> Vec<GoalRow> {
    report
        .goals
        .iter()
        .zip(&scenario.goals)
        .map(|(g, goal)| {
            let state = match (measured(&goal.check, report), g.status) {
                (false, _) | (true, GoalStatus::NotGraded) => GoalState::Pending,
                (true, GoalStatus::Passed) => GoalState::Met,
                (true, GoalStatus::Failed) => GoalState::Missed,
            };
            let value = g.value.map_or_else(|| "—".to_owned(), |v| g.unit.format(v));
            GoalRow { name: g.name.clone(), state, value }
        })
        .collect()
}

/// Whether the run has measured what `check` reads: a pattern's goal needs a call of it (a
/// pattern the report lacks is a real failure, shown as one), a throttling or cost goal a
/// request, a size or amplification goal a write (or items already there).
fn measured(check: &GoalCheck, report: &RunReport) -> bool {
    let t = &report.totals;
    match check {
        GoalCheck::NoScan(pattern) | GoalCheck::MaxFanout(pattern, _) | GoalCheck::LatencyTarget(pattern) => {
            // The report lists the scenario's patterns in its order.
            report.patterns.get(pattern.id().index()).is_none_or(|p| p.calls > 0)
        }
        GoalCheck::MaxPartitionBytes(_) | GoalCheck::MaxPartitionItems(_) => {
            t.writes > 0 || report.partitions.max_items > 0
        }
        GoalCheck::MaxIndexWriteAmplification(_) | GoalCheck::MaxFailedWrites(_) => t.writes > 0,
        GoalCheck::MaxThrottledRatio(_) => t.requests > 0,
        GoalCheck::MaxMonthlyCost(_) => t.ops > 0,
    }
}

fn patterns(report: &RunReport, engine: Engine) -> Vec<PatternRow> {
    report
        .patterns
        .iter()
        .map(|p| {
            // The reports' figure: read units per call that completed, write units per write
            // that landed. Cassandra has no capacity units: a read costs the rows it reads, a
            // write its requests. `None` while nothing measures it.
            let cost = match (engine, p.kind) {
                (Engine::DynamoDb, _) => crate::report::run::cost(p, engine).map(|(x, _, _)| Cost::Units(x)),
                (Engine::Cassandra, planner::Kind::Read) => Some(Cost::RowsRead(p.avg_items_read)),
                (Engine::Cassandra, _) => {
                    (p.calls > 0).then(|| Cost::Writes(p.requests as f64 / p.calls as f64))
                }
            };
            PatternRow {
                name: p.name.clone(),
                calls: p.calls,
                cost,
                p99_ms: (p.calls > 0).then_some(p.latency_ms_p99),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::metrics::RowOrdering;
    use crate::engine::model::{PatternId, PatternRef};
    use crate::scenario;

    fn request() -> ViewRequest {
        ViewRequest {
            metric: Metric::WriteUnits,
            layer: Layer::Logical,
            order: RowOrdering::ByKey,
            rows: 40,
            cols: 60,
            size_points: 50,
            size_series: 3,
        }
    }

    /// A bundled scenario's naive variant, cut to `secs` of simulated time, ready to step.
    fn naive(name: &str, secs: u64) -> (scenario::Loaded, Simulation) {
        let loaded = scenario::load(name).expect("bundled");
        let variant = loaded.variant(Some("naive")).expect("every bundled scenario has naive");
        let options = crate::engine::sim::RunOptions {
            seed: None,
            duration: Some(crate::engine::time::SimDuration::from_secs(secs)),
        };
        let sim = Simulation::new(&loaded.scenario, variant, &options).expect("the scenario runs");
        (loaded, sim)
    }

    #[test]
    fn a_run_fills_every_panel() {
        let (loaded, mut sim) = naive("counters", 20);
        let variant = loaded.variant(Some("naive")).expect("counters has naive");
        // Before a registry tick closes there is nothing to draw in the heatmap yet, and no goal
        // has anything to judge.
        let empty = build(&sim, &loaded.scenario, variant, &request());
        assert!(empty.heatmap.is_none());
        assert!(empty.goals.iter().all(|g| g.state == GoalState::Pending), "{:?}", empty.goals);
        while sim.step() {}
        let view = build(&sim, &loaded.scenario, variant, &request());
        let heat = view.heatmap.expect("a heatmap once ticks have closed");
        assert!(!heat.matrix.rows.is_empty() && heat.matrix.cols() > 0);
        assert_eq!(heat.facts.len(), heat.matrix.rows.len());
        // The naive counter is one hot item: its row is at the write limit and throttles.
        assert!(heat.matrix.max >= 500.0, "{}", heat.matrix.max);
        assert!(heat.facts.iter().any(|f| f.throttled > 0), "{:?}", heat.facts);
        assert_eq!(view.goals.len(), loaded.scenario.goals.len());
        assert!(view.goals.iter().any(|g| g.state == GoalState::Missed), "{:?}", view.goals);
        assert_eq!(view.patterns.len(), loaded.scenario.patterns.len());
        assert!(view.patterns.iter().all(|p| p.calls > 0 && p.p99_ms.is_some()), "{:?}", view.patterns);
        assert!(!view.sizes.series.is_empty() && view.sizes.limit_bytes > 0.0);
        let points = &view.sizes.series[0].points;
        assert!(points.windows(2).all(|w| w[0].0 < w[1].0), "time runs forward: {points:?}");
        // The report compare lines up is the run's, judged, as `keyheat run` reports it.
        let mut report = sim.report();
        judge::finish(&loaded.scenario, variant, &mut report);
        assert_eq!(view.report.as_deref(), Some(&report));
        assert!(report.totals.throttled_ops > 0);
        // Each pattern costs what the reports say it does (read units over the calls that
        // completed, write units per write that landed), not units over every call.
        for (row, p) in view.patterns.iter().zip(&report.patterns) {
            let want = crate::report::run::cost(p, loaded.scenario.engine).map(|(x, _, _)| Cost::Units(x));
            assert_eq!(row.cost, want, "{}", p.name);
        }
        assert!(report.patterns.iter().any(|p| p.served_calls < p.calls), "some calls did not complete");
    }

    #[test]
    fn a_goal_waits_for_what_it_reads() {
        let mut report = crate::engine::testing::report();
        report.patterns[0].calls = 0;
        let at = |i: usize| PatternRef::new(report.patterns[i].name.clone(), PatternId::new(i));
        let idle = at(0);
        let busy = at(report.patterns.iter().position(|p| p.calls > 0).expect("the fixture has calls"));
        let cases = [
            (GoalCheck::NoScan(idle.clone()), false),
            (GoalCheck::LatencyTarget(idle.clone()), false),
            (GoalCheck::MaxFanout(idle, 1), false),
            (GoalCheck::NoScan(busy.clone()), true),
            (GoalCheck::LatencyTarget(busy), true),
            // Not in the report: a failure to show, not something to wait for.
            (GoalCheck::NoScan(PatternRef::new("no-such".to_owned(), PatternId::new(usize::MAX))), true),
            (GoalCheck::MaxThrottledRatio(0.01), true),
            (GoalCheck::MaxMonthlyCost(10.0), true),
            (GoalCheck::MaxPartitionBytes(1), true),
            (GoalCheck::MaxIndexWriteAmplification(2.0), true),
        ];
        for (check, want) in &cases {
            assert_eq!(measured(check, &report), *want, "{check:?}");
        }
        report.totals.ops = 0;
        report.totals.requests = 0;
        report.totals.writes = 0;
        report.partitions.max_items = 0;
        for check in [
            GoalCheck::MaxThrottledRatio(0.01),
            GoalCheck::MaxMonthlyCost(10.0),
            GoalCheck::MaxPartitionBytes(1),
            GoalCheck::MaxPartitionItems(1),
            GoalCheck::MaxIndexWriteAmplification(2.0),
        ] {
            assert!(!measured(&check, &report), "{check:?} with nothing measured");
        }
    }
}
