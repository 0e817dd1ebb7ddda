//! A running simulation turned into the [`WorkbenchView`] the panels draw: the heatmap from the
//! metrics registry, the largest partitions' sizes over time, and the judged report of the run so
//! far (indexes, access patterns, goals, the figures compare shows). Reads only; pure but for the
//! cost of reading.

use std::fmt::Write as _;

use crate::engine::judge;
use crate::engine::metrics::{
    GroupId, GroupInfo, GroupKind, HeatmapQuery, Kind, Layer, Metric, Metrics, PartitionId, Rank, Series,
    Tick, columns,
};
use crate::engine::model::{Engine, Scenario, Variant};
use crate::engine::planner;
use crate::engine::profile::Metering;
use crate::engine::sim::fluid::ExpectedHeat;
use crate::engine::sim::report::{Fidelity, GoalStatus};
use crate::engine::sim::{RunReport, Simulation};
use crate::tui::view::{
    AsRates, Cost, Expected, GoalRow, GoalState, HeatmapView, IndexRow, P99, PatternRow, RowFacts,
    SizeSeries, SizesView, ViewRequest, WorkbenchView,
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
    let share = report.request_units.as_ref().map(|r| r.partition_ru_per_s);
    WorkbenchView {
        heatmap: heatmap(metrics, request, share, scenario.engine, variant),
        sizes: sizes(metrics, scenario, variant, request),
        indexes: indexes(&report),
        goals: goals(&report, sim.is_finished()),
        patterns: patterns(&report, scenario.engine),
        report: Some(Box::new(report)),
        rates: None,
    }
}

/// The panels of a run replayed as rates (`report`, judged: `judge::as_rates` then `finish`),
/// which makes `calls` calls. The fluid replay keeps no registry: the heatmap is the expected
/// load of the hottest partitions (`heat`; none for a metric it does not keep, as
/// `AsRates::HEATMAP` says), and sizes are at the end only (the sizes panel's note says so);
/// the rest is the report's, as for a run replayed call by call. Goals on latency are not
/// graded, as the report marks them.
pub fn rates(
    report: &RunReport,
    heat: &ExpectedHeat,
    (engine, variant): (Engine, &Variant),
    calls: f64,
    request: &ViewRequest,
) -> WorkbenchView {
    let splits = heat.kinds.iter().map(|&kind| kind_splits(engine, variant, kind)).collect();
    WorkbenchView {
        heatmap: expected_heatmap(heat, splits, request),
        sizes: ends(report, engine, variant, request.size_series),
        indexes: indexes(report),
        goals: goals(report, true),
        patterns: patterns(report, engine),
        report: Some(Box::new(report.clone())),
        rates: Some(AsRates { calls }),
    }
}

/// The heatmap of a run replayed as rates: the expected load of its hottest partitions, each
/// row labelled with the key it stands for at the end (the inspector: in the cursor's column).
fn expected_heatmap(heat: &ExpectedHeat, splits: Vec<bool>, request: &ViewRequest) -> Option<HeatmapView> {
    let matrix = heat.matrix(request.metric, request.order, request.rows, request.cols)?;
    if matrix.rows.is_empty() {
        return None;
    }
    let first = |row: &crate::engine::metrics::HeatRow| row.members.first().map_or(0, |id| id.0 as usize);
    let keys = matrix
        .rows
        .iter()
        .map(|row| {
            let mut keys: Vec<(usize, String)> = Vec::new();
            for (c, &(from, _)) in matrix.col_times.iter().enumerate() {
                let key = row.members.first().and_then(|&id| heat.key_at(id, from)).unwrap_or_default();
                if keys.last().is_none_or(|(_, k)| k != key) {
                    keys.push((c, key.to_owned()));
                }
            }
            keys
        })
        .collect();
    let first_keys = matrix
        .rows
        .iter()
        .map(|row| {
            heat.rows.get(first(row)).and_then(|r| r.keys.last()).map_or_else(String::new, |(_, k)| k.clone())
        })
        .collect();
    let ranks = matrix.rows.iter().map(|row| heat.rows.get(first(row)).map_or(0, |r| r.rank)).collect();
    Some(HeatmapView {
        facts: Vec::new(),
        groups: heat.groups.clone(),
        splits,
        start: heat.start(),
        first_keys,
        partition_ru_per_s: None,
        expected: Some(Expected { kept: heat.rows.len(), of: heat.partitions, keys, ranks }),
        matrix,
    })
}

/// The sizes panel of a run replayed as rates: no series (the fluid replay does not keep sizes
/// over time), and a note with the largest partitions at the end, as the report lists them.
fn ends(report: &RunReport, engine: Engine, variant: &Variant, shown: usize) -> SizesView {
    let (limit_bytes, _) = planner::partition_limits(engine);
    // The table's line: a rates run models no local index, so its GSIs split as the table does.
    let line = if planner::splits_at_size(engine, variant, None) { "splits at" } else { "limit" };
    let p = &report.partitions;
    let mut largest: Vec<&crate::engine::sim::report::PartitionReport> =
        p.top.iter().chain(&p.index_top).collect();
    largest.sort_by(|a, b| b.bytes.cmp(&a.bytes).then(a.key.cmp(&b.key)));
    let mut note = format!(
        "Replayed as rates: sizes at the end only, no history to chart. Largest partition (median of its maximum): {}, {} items; {line} {}.",
        planner::numbers::bytes(p.max_bytes as f64),
        planner::numbers::count(p.max_items as f64),
        planner::numbers::bytes(limit_bytes),
    );
    if !largest.is_empty() {
        note.push_str(" Largest at the end (expected):");
    }
    for part in largest.iter().take(shown) {
        let name = part.index.as_ref().map_or_else(|| part.key.clone(), |i| format!("{i}: {}", part.key));
        let (bytes, items) = (part.bytes as f64, part.items as f64);
        let _ = write!(
            note,
            "\n{name}  {}, {} items",
            planner::numbers::bytes(bytes),
            planner::numbers::count(items)
        );
    }
    SizesView { limit_bytes, series: Vec::new(), note: Some(note) }
}

/// The closed registry ticks: what the panels can show.
fn closed(metrics: &Metrics) -> std::ops::Range<Tick> {
    Tick(0)..metrics.now()
}

/// The heatmap `request` asks for; `partition_ru_per_s`: a Cosmos DB run's share per physical
/// partition, what its request units are coloured against.
fn heatmap(
    metrics: &Metrics,
    request: &ViewRequest,
    partition_ru_per_s: Option<f64>,
    engine: Engine,
    variant: &Variant,
) -> Option<HeatmapView> {
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
    let facts =
        matrix.rows.iter().map(|row| row_facts(metrics, &row.members, &query, matrix.cols())).collect();
    let groups = metrics.groups().map(|(_, g)| g.name.clone()).collect();
    let group_splits = splits(metrics, engine, variant);
    let splits = metrics.groups().map(|(id, _)| group_splits(id)).collect();
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
    Some(HeatmapView {
        matrix,
        facts,
        groups,
        splits,
        start: metrics.clock().start(),
        first_keys,
        partition_ru_per_s,
        expected: None,
    })
}

/// A row's partitions: items and bytes are levels now (summed over a merged row's members),
/// throttles the run's total and each column's own, in the matrix's columns.
fn row_facts(metrics: &Metrics, members: &[PartitionId], query: &HeatmapQuery, cols: usize) -> RowFacts {
    let series = |id: PartitionId, metric: Metric| metrics.partition_series(id, metric);
    let level = |id: PartitionId, metric: Metric| series(id, metric).map_or(0.0, Series::total);
    let mut facts = RowFacts::default();
    let mut by_col = vec![0.0; cols];
    let mut buffer = Vec::new();
    let counted = query.layer == Layer::Logical;
    for &id in members {
        if counted {
            *facts.items.get_or_insert(0) += planner::numbers::floor_u64(level(id, Metric::Items));
        }
        facts.bytes += planner::numbers::floor_u64(level(id, Metric::Bytes));
        facts.throttled += planner::numbers::floor_u64(level(id, Metric::Throttled));
        // Most partitions never throttle: only those that did are read column by column.
        if let Some(throttled) = series(id, Metric::Throttled).filter(|s| s.total() > 0.0) {
            throttled.resample_into(query.range.clone(), query.cols, &mut buffer);
            for (sum, column) in by_col.iter_mut().zip(&buffer) {
                *sum += column.value;
            }
        }
    }
    // Exact over the recent ticks; older columns share a coarser history bucket's count out by
    // their overlap with it (as the cells do), so a sum is rounded, not floored.
    facts.throttled_by_col =
        by_col.into_iter().map(|n: f64| planner::numbers::floor_u64(n.round())).collect();
    facts
}

/// The largest logical partitions' sizes over the run so far, oldest point first.
fn sizes(metrics: &Metrics, scenario: &Scenario, variant: &Variant, request: &ViewRequest) -> SizesView {
    let engine = scenario.engine;
    let (limit_bytes, _) = planner::partition_limits(engine);
    let range = closed(metrics);
    let clock = *metrics.clock();
    let top = metrics.top_partitions(Layer::Logical, None, Metric::Bytes, Rank::Total, request.size_series);
    let tables: Vec<GroupId> =
        metrics.groups().filter(|(_, g)| g.kind == GroupKind::Table).map(|(id, _)| id).collect();
    let splits = splits(metrics, engine, variant);
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
            let bucket_secs = metrics
                .groups()
                .find(|(g, _)| *g == info.group)
                .and_then(|(_, g)| bucket_secs(scenario, variant, g));
            Some(SizeSeries { label, points, splits: splits(info.group), bucket_secs })
        })
        .collect();
    SizesView { limit_bytes, series, note: None }
}

/// The longest time bucket of a table's or index's partition keys (`SizeSeries::bucket_secs`),
/// when every entity it holds buckets time in its partition key; `None` when one does not, or
/// the group is not found by its name (the replay names a table after the scenario, or after
/// its one entity, and an index by its own name, `index (entity)` per entity table).
fn bucket_secs(scenario: &Scenario, variant: &Variant, group: &GroupInfo) -> Option<f64> {
    let keys: Vec<&crate::engine::model::EntityKeys> = match group.kind {
        GroupKind::GlobalIndex | GroupKind::LocalIndex => {
            let index = variant.indexes.iter().find(|i| i.name == group.name)?;
            index.keys.iter().collect()
        }
        GroupKind::Table | GroupKind::Entity if group.name == scenario.name => variant.keys.iter().collect(),
        GroupKind::Table | GroupKind::Entity => {
            variant.keys.iter().filter(|k| k.entity == group.name).collect()
        }
    };
    let widths: Option<Vec<f64>> = keys
        .iter()
        .map(|k| {
            let entity = scenario.entities.iter().find(|e| e.name == k.entity)?;
            let written_at = |name: &str| {
                entity
                    .attribute(name)
                    .is_some_and(|a| matches!(a.generator, crate::engine::model::Generator::Now))
            };
            planner::bucket_secs(&k.pk, written_at)
        })
        .collect();
    widths?.into_iter().reduce(f64::max)
}

/// Per group, whether its partitions split at the line rather than stop there
/// (`SizeSeries::splits`, `HeatmapView::splits`): the store's rule for the variant
/// (`planner::splits_at_size`) by the group's kind.
fn splits(metrics: &Metrics, engine: Engine, variant: &Variant) -> impl Fn(GroupId) -> bool {
    let splits: Vec<(GroupId, bool)> =
        metrics.groups().map(|(id, g)| (id, kind_splits(engine, variant, g.kind))).collect();
    move |group| splits.iter().any(|&(id, splits)| id == group && splits)
}

/// Whether the partitions of a group of kind `kind` split at the line.
fn kind_splits(engine: Engine, variant: &Variant, kind: GroupKind) -> bool {
    use crate::engine::model::IndexKind;
    let index = match kind {
        GroupKind::GlobalIndex => Some(IndexKind::Global),
        GroupKind::LocalIndex => Some(IndexKind::Local),
        GroupKind::Table | GroupKind::Entity => None,
    };
    planner::splits_at_size(engine, variant, index)
}

/// Per group of `variant`'s design, the table first and then each index in its order, whether
/// its partitions split at the line: what the heatmap's legend says before a run has drawn any.
pub fn design_splits(engine: Engine, variant: &Variant) -> Vec<bool> {
    let index = |i: &crate::engine::model::Index| Some(i.kind);
    std::iter::once(None)
        .chain(variant.indexes.iter().map(index))
        .map(|kind| planner::splits_at_size(engine, variant, kind))
        .collect()
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

/// The graded goals (in the scenario's order, as `goals::evaluate` returns them), each as the
/// engine graded the run so far: a goal it could not grade is pending while the replay runs
/// (its pattern may yet be called) and not graded once the replay has ended, as `keyheat run`
/// says it.
fn goals(report: &RunReport, finished: bool) -> Vec<GoalRow> {
    report
        .goals
        .iter()
        .map(|g| {
            let value = g.value.map_or_else(
                || "—".to_owned(),
                |_| crate::report::run::goal_value(g.status, g.value, g.lower_bound, g.unit),
            );
            GoalRow { name: g.name.clone(), state: goal_state(g.status, finished), value }
        })
        .collect()
}

fn goal_state(status: GoalStatus, finished: bool) -> GoalState {
    match status {
        GoalStatus::Passed => GoalState::Met,
        GoalStatus::Failed => GoalState::Missed,
        GoalStatus::NotGraded if finished => GoalState::NotGraded,
        GoalStatus::NotGraded => GoalState::Pending,
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
            // Replayed as rates: latency and items read per call are not modelled (the report's
            // notes say so); what a write sends is.
            let rates = report.fidelity == Fidelity::Rates;
            let cost = match (engine.profile().metering, p.kind) {
                (Metering::Operations, planner::Kind::Read) if rates => None,
                (Metering::Units, _) => crate::report::run::cost(p, engine).map(|(x, _, _)| Cost::Units(x)),
                (Metering::RequestUnits, _) => {
                    crate::report::run::cost(p, engine).map(|(x, _, _)| Cost::RequestUnits(x))
                }
                (Metering::Operations, planner::Kind::Read) => {
                    Some(Cost::Read(p.avg_items_read, engine.words().item))
                }
                (Metering::Operations, _) => {
                    (p.calls > 0).then(|| Cost::Writes(p.requests as f64 / p.calls as f64))
                }
            };
            let p99 = if rates && p.calls > 0 { P99::NotModelled } else { P99::of(p) };
            PatternRow { name: p.name.clone(), calls: p.calls, cost, p99 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::metrics::RowOrdering;
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
        // Before a registry tick closes there is nothing to draw in the heatmap yet. The engine
        // grades only what the plan decides (the fan-out of a read nothing has called yet); the
        // goals it cannot grade wait for the replay.
        let empty = build(&sim, &loaded.scenario, variant, &request());
        assert!(empty.heatmap.is_none());
        let pending: Vec<&str> =
            empty.goals.iter().filter(|g| g.state == GoalState::Pending).map(|g| g.name.as_str()).collect();
        assert_eq!(
            pending,
            ["≤ 0.1% of requests throttled", "likes meet their latency target"],
            "{:?}",
            empty.goals
        );
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
        assert!(view.patterns.iter().all(|p| p.calls > 0 && p.p99 != P99::Pending), "{:?}", view.patterns);
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

    /// Each heatmap cell counts the requests its row throttled in that cell's own time, not the
    /// run's total: the hot counter's cells differ, each is its ticks' throttles, and together
    /// they add up to the total so far.
    #[test]
    fn each_cell_counts_the_throttles_of_its_own_time() {
        let (loaded, mut sim) = naive("counters", 20);
        let variant = loaded.variant(Some("naive")).expect("counters has naive");
        while sim.step() {}
        let view = build(&sim, &loaded.scenario, variant, &request());
        let heat = view.heatmap.expect("a heatmap once ticks have closed");
        let metrics = sim.metrics();
        let clock = metrics.clock();
        let mut throttling = 0;
        for (row, facts) in heat.matrix.rows.iter().zip(&heat.facts) {
            assert_eq!(facts.throttled_by_col.len(), heat.matrix.cols(), "{}", row.label);
            assert_eq!(facts.throttled_by_col.iter().sum::<u64>(), facts.throttled, "{}", row.label);
            // 20 one-second ticks are all recent: every column is exact.
            for (&(from, to), &got) in heat.matrix.col_times.iter().zip(&facts.throttled_by_col) {
                let ticks = clock.tick_at(from).0..clock.tick_at(to).0;
                let want: f64 = row
                    .members
                    .iter()
                    .filter_map(|&id| metrics.partition_series(id, Metric::Throttled))
                    .flat_map(|s| ticks.clone().map(|t| s.value_at(Tick(t)).expect("a recent tick")))
                    .sum();
                assert_eq!(got, planner::numbers::floor_u64(want), "{} at {from}", row.label);
            }
            if facts.throttled > 0 {
                throttling += 1;
                let first = facts.throttled_by_col[0];
                assert!(facts.throttled_by_col.iter().any(|&n| n != first), "{facts:?}");
                assert!(facts.throttled_by_col.iter().all(|&n| n < facts.throttled), "{facts:?}");
            }
        }
        assert!(throttling > 0, "the naive counter throttles");
    }

    /// (the engine's status, the replay ended, what the panel shows).
    #[test]
    fn a_goal_the_engine_could_not_grade_waits_until_the_replay_ends() {
        let cases = [
            (GoalStatus::Passed, false, GoalState::Met),
            (GoalStatus::Passed, true, GoalState::Met),
            (GoalStatus::Failed, false, GoalState::Missed),
            (GoalStatus::Failed, true, GoalState::Missed),
            (GoalStatus::NotGraded, false, GoalState::Pending),
            (GoalStatus::NotGraded, true, GoalState::NotGraded),
        ];
        for (status, finished, want) in cases {
            assert_eq!(goal_state(status, finished), want, "{status:?}, finished {finished}");
        }
    }

    /// A latency goal whose pattern made no calls is pending while the replay runs, and not
    /// graded at the end: never met on a figure of nothing.
    #[test]
    fn a_goal_with_no_calls_is_not_graded_at_the_end() {
        let (loaded, mut sim) = naive("counters", 2);
        let variant = loaded.variant(Some("naive")).expect("counters has naive");
        let at = |sim: &Simulation| {
            let view = build(sim, &loaded.scenario, variant, &request());
            let report = view.report.expect("a judged report");
            let graded: Vec<GoalStatus> = report.goals.iter().map(|g| g.status).collect();
            (view.goals, graded)
        };
        let (rows, statuses) = at(&sim);
        for (row, status) in rows.iter().zip(&statuses) {
            assert_eq!(row.state, goal_state(*status, false), "{row:?}");
        }
        assert!(rows.iter().all(|g| g.state != GoalState::NotGraded), "{rows:?}");
        while sim.step() {}
        let (rows, statuses) = at(&sim);
        for (row, status) in rows.iter().zip(&statuses) {
            assert_eq!(row.state, goal_state(*status, true), "{row:?}");
        }
        assert!(rows.iter().all(|g| g.state != GoalState::Pending), "{rows:?}");
    }
}
