//! The heatmap of a run replayed as rates: the **expected** load, per second, of a bounded set
//! of partitions — the top ranks of each key group's popularity, in the time slot current in
//! each tick — in the metric and units the per-operation heatmap shows (`Metric::ReadUnits`,
//! `Metric::WriteUnits`: capacity units where the store meters them, requests where it does
//! not), each cell the largest tick of its column as a registry column keeps its peak.
//!
//! A cell is the model's own expectation, never a draw: a tick's calls of each pattern (the
//! replay's exact sequence) times the member's share of them (`Popularity::shares`, as the
//! report sums them), times what one request costs there — a put's or GetItem's fixed units, a
//! Query's units of what its partition holds (`Capacity::query_units`), 1 off DynamoDB — and,
//! on a metered store, the share of its partition's demand the meter served that tick.
//!
//! What it must never do: grow with the population or the run. It keeps `ROWS` rows of
//! `COLUMNS` columns whatever the members (10⁶) and the calls (10¹²), and per tick it does
//! work per row only on a metered store (which already weighs every member each tick); off
//! one, a column gathers the distinct call counts of its ticks (a steady rate gives two) and
//! weighs its rows once per count when it closes.
//!
//! Reads are counted on the partition of the slot current when they ask (a read whose range
//! reaches into the slot before asks that one too, which has no row here), and counted whether
//! or not the partition holds an item yet; the column totals count every partition a read asks.

use std::ops::Range;

use crate::engine::metrics::{
    Clock, GroupId, GroupKind, HeatmapMatrix, Metric, PartitionId, RowOrdering, SortKey, SourceRow, Tick,
    columns,
};
use crate::engine::time::{SimDuration, SimTime};
use crate::engine::value::KeyValue;

use super::super::meter::{READ, WRITE};
use super::super::world::World;
use super::model::{Model, Shares, Units};
use super::replay::Replay;

/// Rows kept over every key group: as many as a tall panel shows (two partitions a line with
/// colour, ~100 on a 60-line terminal, `tui::panels::heatmap::grid_size`); a shorter panel
/// merges the coldest, as it does a per-operation run's partitions.
pub const ROWS: usize = 128;
/// Columns kept over the run: more than a wide panel shows; a panel's columns take the largest
/// of those they cover, as the registry's resampling does.
pub const COLUMNS: usize = 256;
/// Distinct call counts a column gathers before it weighs its rows at once.
const OPEN_COUNTS: usize = 32;

/// One pattern's calls onto a row's partition: the pattern, the member's share of its calls,
/// the units of one request (`None`: a Query's, from what the partition holds), the direction.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Term {
    flow: usize,
    pattern: usize,
    share: f64,
    units: Option<f64>,
    dim: usize,
}

/// A rank of one key group's popularity.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedRow {
    /// The table or index (`ExpectedHeat::groups`).
    pub group: GroupId,
    /// Its place in the key group's popularity, hottest 0.
    pub rank: usize,
    /// The partition key it stands for from each recorded column on (a time slot changes it),
    /// as the per-operation replay writes the key of that member in that slot.
    pub keys: Vec<(usize, String)>,
}

/// The expected heatmap of a run replayed as rates. See the module documentation.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedHeat {
    clock: Clock,
    ticks: u32,
    /// Table and index names, by `GroupId`.
    pub groups: Vec<String>,
    /// What each of `groups` is: the table or an index of its kind.
    pub kinds: Vec<GroupKind>,
    /// Partitions of each time slot over every key group (their members): what the rows are
    /// the hottest of.
    pub partitions: u64,
    pub rows: Vec<ExpectedRow>,
    /// Recorded columns' ticks.
    cols: Vec<Range<Tick>>,
    /// Row-major, rows × columns: the largest expected load per second of the column's ticks,
    /// [read, write].
    cells: Vec<[f32; 2]>,
    /// Per column, every partition's expected load per second summed, its largest tick.
    totals: Vec<[f32; 2]>,
}

impl ExpectedHeat {
    /// Whether the rates record `metric`: load, not sizes or throttles.
    pub fn records(metric: Metric) -> bool {
        matches!(metric, Metric::ReadUnits | Metric::WriteUnits)
    }

    pub fn start(&self) -> SimTime {
        self.clock.start()
    }

    /// The matrix the panel draws, `cols` columns over the run and at most `rows` rows (the
    /// coldest merge as `HeatmapMatrix::build` merges them); `None` for a metric the rates do
    /// not record or a panel too small for the groups.
    pub fn matrix(
        &self,
        metric: Metric,
        order: RowOrdering,
        rows: usize,
        cols: usize,
    ) -> Option<HeatmapMatrix> {
        if !Self::records(metric) || rows == 0 || cols == 0 || self.rows.is_empty() {
            return None;
        }
        let dim = if metric == Metric::WriteUnits { WRITE } else { READ };
        let n = self.cols.len();
        let recorded = |r: usize| &self.cells[r * n..(r + 1) * n];
        let keys: Vec<SortKey> =
            self.rows.iter().map(|row| SortKey::Key(KeyValue::S(last_key(row).to_owned()))).collect();
        let sources: Vec<SourceRow<'_>> = (0u32..)
            .zip(&self.rows)
            .map(|(i, row)| SourceRow {
                id: PartitionId(i),
                group: row.group,
                label: last_key(row),
                key: &keys[i as usize],
                heat: recorded(i as usize).iter().map(|c| c[dim]).fold(0.0, f32::max),
            })
            .collect();
        let range = Tick(0)..Tick(self.ticks);
        let wanted: Vec<Range<Tick>> = columns(range.clone(), cols).collect();
        let col_times = wanted.iter().map(|c| self.clock.span(c.clone())).collect();
        // Per column drawn, the recorded columns it covers (in part): it takes their largest.
        let covering: Vec<Range<usize>> = wanted
            .iter()
            .map(|c| {
                let from = self.cols.partition_point(|k| k.end <= c.start);
                let to = self.cols.partition_point(|k| k.start < c.end);
                from..to.max(from)
            })
            .collect();
        let mut matrix = HeatmapMatrix::build(metric, order, col_times, &sources, rows, |i, out| {
            for (o, ks) in out.iter_mut().zip(&covering) {
                *o = recorded(i)[ks.clone()].iter().map(|c| c[dim]).fold(0.0, f32::max);
            }
        })
        .ok()?;
        matrix.totals = covering
            .iter()
            .map(|ks| self.totals[ks.clone()].iter().map(|c| c[dim]).fold(0.0, f32::max))
            .collect();
        Some(matrix)
    }

    /// The partition key source row `row` stands for at `at` (a time slot changes it).
    pub fn key_at(&self, row: PartitionId, at: SimTime) -> Option<&str> {
        let row = self.rows.get(row.0 as usize)?;
        let tick = self.clock.tick_at(at);
        let col = self.cols.iter().position(|c| c.end > tick).unwrap_or(self.cols.len().saturating_sub(1));
        row.keys.iter().rev().find(|(from, _)| *from <= col).or(row.keys.first()).map(|(_, k)| k.as_str())
    }

    /// The expected load per second of source row `row` in each recorded column, [read, write]
    /// (for tests).
    #[cfg(test)]
    pub fn recorded(&self, row: usize) -> &[[f32; 2]] {
        let n = self.cols.len();
        &self.cells[row * n..(row + 1) * n]
    }
}

/// A load per second as a cell holds it (the matrix's cells are `f32`, as the registry's).
#[expect(clippy::cast_possible_truncation, reason = "a cell's load, drawn as a colour")]
fn narrow(value: f64) -> f32 {
    value as f32
}

fn last_key(row: &ExpectedRow) -> &str {
    row.keys.last().map_or("", |(_, k)| k.as_str())
}

/// Gathers an [`ExpectedHeat`] while the fluid replay runs.
#[derive(Debug, Clone)]
pub struct Recorder {
    heat: ExpectedHeat,
    /// Per row: its key group (`Model::groups`) and member.
    members: Vec<(usize, u64)>,
    /// Per row: the patterns that load its partition.
    terms: Vec<Vec<Term>>,
    tick_secs: f64,
    metered: bool,
    /// The open column, and the distinct call counts (per pattern) of its ticks so far.
    col: usize,
    open: Vec<Vec<u64>>,
    /// Per capacity, per pattern: units served up to the last tick, [read, write].
    served: Vec<Vec<[f64; 2]>>,
}

impl Recorder {
    /// Picks each key group's hottest members (by its patterns' mean rates, shares and units
    /// per request), up to its part of `ROWS`.
    pub fn new(
        world: &World,
        model: &Model,
        (start_ms, tick_ms, ticks): (u64, u64, u32),
        metered: bool,
    ) -> Recorder {
        let clock = Clock::new(SimTime::from_millis(start_ms), SimDuration::from_millis(tick_ms.max(1)))
            .expect("a tick longer than zero (checked by tick_count)");
        let mut names: Vec<usize> = Vec::new();
        let shared = sharing(model);
        let per_group = (ROWS / shared.len().max(1)).max(1);
        let (mut rows, mut members, mut terms) = (Vec::new(), Vec::new(), Vec::new());
        let mut partitions = 0;
        for groups in &shared {
            let g = groups[0];
            let group = &model.groups[g];
            let flows: Vec<usize> =
                (0..model.flows.len()).filter(|&f| groups.contains(&model.flows[f].group)).collect();
            partitions += group.members;
            let id = names.iter().position(|&w| w == group.group).unwrap_or_else(|| {
                names.push(group.group);
                names.len() - 1
            });
            let group_id = GroupId(u16::try_from(id).unwrap_or(u16::MAX));
            for (rank, m) in hottest(world, model, &flows, group.members, per_group).into_iter().enumerate() {
                let member = usize::try_from(m).unwrap_or(usize::MAX);
                let row_terms = flows
                    .iter()
                    .map(|&f| {
                        let flow = &model.flows[f];
                        let units = match (metered, flow.units) {
                            (false, _) => Some(1.0),
                            (true, Units::Each(u)) => Some(u),
                            (true, Units::Query { .. }) => None,
                        };
                        let dim = if flow.write { WRITE } else { READ };
                        Term { flow: f, pattern: flow.pattern, share: flow.shares.of(member), units, dim }
                    })
                    .filter(|t| t.share > 0.0)
                    .collect();
                rows.push(ExpectedRow { group: group_id, rank, keys: Vec::new() });
                members.push((g, m));
                terms.push(row_terms);
            }
        }
        let cols: Vec<Range<Tick>> = columns(Tick(0)..Tick(ticks), COLUMNS).collect();
        let heat = ExpectedHeat {
            clock,
            ticks,
            groups: names.iter().map(|&w| world.group_name(w)).collect(),
            kinds: names.iter().map(|&w| world.metrics_kind(w)).collect(),
            partitions,
            cells: vec![[0.0; 2]; rows.len() * cols.len()],
            totals: vec![[0.0; 2]; cols.len()],
            rows,
            cols,
        };
        Recorder {
            heat,
            members,
            terms,
            tick_secs: tick_ms as f64 / 1000.0,
            metered,
            col: 0,
            open: Vec::new(),
            served: Vec::new(),
        }
    }

    /// The rows' (key group, member), for the capacities to report what they served them.
    pub fn watched(&self) -> &[(usize, u64)] {
        &self.members
    }

    /// Tick `t`, whose calls per pattern were `n`, as `replay` (its capacities and fan-outs
    /// already ticked) holds it.
    pub fn tick(&mut self, t: u32, n: &[u64], replay: &Replay<'_>) {
        while self.heat.cols.get(self.col).is_some_and(|c| c.end.0 <= t) {
            self.close(replay);
        }
        if self.col >= self.heat.cols.len() {
            return;
        }
        let total = if self.metered { self.served_now(replay) } else { unmetered_total(replay, n) };
        let cell = &mut self.heat.totals[self.col];
        for dim in [READ, WRITE] {
            cell[dim] = cell[dim].max(narrow(total[dim] / self.tick_secs));
        }
        if self.metered {
            let now_ms = replay.start_ms + u64::from(t) * replay.tick_ms;
            for r in 0..self.members.len() {
                let load = self.metered_load(r, t, now_ms, n, replay);
                self.raise(r, load);
            }
        } else if !self.open.iter().any(|v| v[..] == n[..]) {
            self.open.push(n.to_vec());
            if self.open.len() >= OPEN_COUNTS {
                self.weigh_open();
            }
        }
    }

    /// The heatmap, once every tick has been recorded.
    pub fn finish(mut self, replay: &Replay<'_>) -> ExpectedHeat {
        while self.col < self.heat.cols.len() {
            self.close(replay);
        }
        self.heat
    }

    fn raise(&mut self, r: usize, load: [f64; 2]) {
        let n = self.heat.cols.len();
        let cell = &mut self.heat.cells[r * n + self.col];
        for dim in [READ, WRITE] {
            cell[dim] = cell[dim].max(narrow(load[dim] / self.tick_secs));
        }
    }

    /// Off a metered store: each distinct call count of the open column, weighed on every row.
    fn weigh_open(&mut self) {
        let open = std::mem::take(&mut self.open);
        for r in 0..self.members.len() {
            for calls in &open {
                let mut load = [0.0; 2];
                for term in &self.terms[r] {
                    load[term.dim] += calls[term.pattern] as f64 * term.share * term.units.unwrap_or(1.0);
                }
                self.raise(r, load);
            }
        }
    }

    /// A row's expected units in tick `t` on a metered store: its requests, their units, and the
    /// share of its partition's demand the meter served.
    fn metered_load(&self, row: usize, t: u32, now_ms: u64, n: &[u64], replay: &Replay<'_>) -> [f64; 2] {
        let (group, member) = self.members[row];
        let capacity = replay.capacity_of(group);
        let mid = (now_ms as f64 + replay.tick_ms as f64 / 2.0) / 1000.0;
        let mut load = [0.0; 2];
        for term in &self.terms[row] {
            let units = match (term.units, capacity) {
                (Some(each), _) => each,
                (None, Some(meter)) => meter.current_query_units(&replay.model, term.flow, member, mid, t),
                (None, None) => 0.0,
            };
            load[term.dim] += n[term.pattern] as f64 * term.share * units;
        }
        let served = capacity.and_then(|meter| meter.watched_served(row)).unwrap_or([1.0; 2]);
        [load[READ] * served[READ], load[WRITE] * served[WRITE]]
    }

    /// Every partition's units served in the tick just run, over every meter.
    fn served_now(&mut self, replay: &Replay<'_>) -> [f64; 2] {
        if self.served.len() != replay.capacities.len() {
            self.served = replay.capacities.iter().map(|c| vec![[0.0; 2]; c.figures.units.len()]).collect();
        }
        let mut total = [0.0; 2];
        for (before, capacity) in self.served.iter_mut().zip(&replay.capacities) {
            for (b, now) in before.iter_mut().zip(&capacity.figures.units) {
                for dim in [READ, WRITE] {
                    total[dim] += now[dim] - b[dim];
                }
                *b = *now;
            }
        }
        total
    }

    /// Closes the open column: its call counts weighed, and each row's key in it.
    fn close(&mut self, replay: &Replay<'_>) {
        self.weigh_open();
        let Some(col) = self.heat.cols.get(self.col).cloned() else { return };
        let last = col.end.0.saturating_sub(1).max(col.start.0);
        let at_ms = replay.start_ms + u64::from(last) * replay.tick_ms;
        let at_secs = i64::try_from(at_ms / 1000).unwrap_or(i64::MAX);
        for (row, &(g, m)) in self.heat.rows.iter_mut().zip(&self.members) {
            let key = super::model::key_text(replay.world, &replay.model.groups[g], m, at_secs);
            if row.keys.last().is_none_or(|(_, k)| *k != key) {
                row.keys.push((self.col, key));
            }
        }
        self.col += 1;
    }
}

/// The key groups whose members share their partitions, in model order: entities of one table
/// whose partition keys are the same text for the same member (a single-table design's
/// customer and its orders) load the same partitions, so they rank and draw as one — the
/// partition groups the model found (`Model::lead`).
fn sharing(model: &Model) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (g, &lead) in model.lead.iter().enumerate() {
        match out.iter_mut().find(|gs| gs[0] == lead) {
            Some(gs) => gs.push(g),
            None => out.push(vec![g]),
        }
    }
    out
}

/// Every partition's expected load in a tick off a metered store: a write request per write,
/// a read request on every partition a read asks.
fn unmetered_total(replay: &Replay<'_>, n: &[u64]) -> [f64; 2] {
    let mut total = [0.0; 2];
    for (f, flow) in replay.model.flows.iter().enumerate() {
        let calls = n[flow.pattern] as f64;
        if flow.write {
            total[WRITE] += calls;
        } else {
            total[READ] += calls * replay.asked_now(f);
        }
    }
    total
}

/// The `k` members of a key group with the most expected load (its flows' mean rates × the
/// member's share × units per request, a Query's counted as one), the hottest first, the lower
/// member first on a tie. `Seq` and a key without a member need no ranking.
fn hottest(world: &World, model: &Model, flows: &[usize], members: u64, k: usize) -> Vec<u64> {
    let k64 = u64::try_from(k).unwrap_or(u64::MAX).min(members);
    if flows.iter().all(|&f| !matches!(model.flows[f].shares, Shares::Each(_))) {
        return (0..k64).collect();
    }
    let weight = |m: u64| -> f64 {
        let member = usize::try_from(m).unwrap_or(usize::MAX);
        flows
            .iter()
            .map(|&f| {
                let flow = &model.flows[f];
                let units = match flow.units {
                    Units::Each(u) if u > 0.0 => u,
                    _ => 1.0,
                };
                world.patterns[flow.pattern].rate * flow.shares.of(member) * units
            })
            .sum()
    };
    let mut ranked: Vec<(u64, f64)> = (0..members).map(|m| (m, weight(m))).collect();
    let order = |a: &(u64, f64), b: &(u64, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    let k = usize::try_from(k64).unwrap_or(usize::MAX);
    if ranked.len() > k && k > 0 {
        ranked.select_nth_unstable_by(k - 1, order);
    }
    ranked.truncate(k);
    ranked.sort_by(order);
    ranked.into_iter().map(|(m, _)| m).collect()
}

#[cfg(test)]
mod tests {
    use super::super::run_with_heat;
    use super::*;
    use crate::engine::sim::{RunOptions, RunReport};

    /// `scenario`'s variant replayed as rates for `secs`, with its expected heatmap.
    fn heat(scenario: &str, variant: &str, secs: u64) -> (RunReport, ExpectedHeat) {
        let loaded = crate::scenario::load(scenario).expect("bundled");
        let variant = loaded.variant(Some(variant)).expect("variant");
        let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(secs)) };
        run_with_heat(&loaded.scenario, variant, &options, &mut |_| true)
            .expect("replays as rates")
            .expect("not given up")
    }

    /// Every row's write cells: (row, column) → expected writes per second.
    fn writes(h: &ExpectedHeat) -> Vec<Vec<f32>> {
        (0..h.rows.len()).map(|r| h.recorded(r).iter().map(|c| c[WRITE]).collect()).collect()
    }

    /// Each group carries its kind with its name, as the per-operation replay registers it: a
    /// view decides from the kind, not the name, whether a group's partitions split at the size
    /// line. (scenario, variant, groups by name and kind)
    #[test]
    fn each_group_says_what_it_is() {
        type Groups = &'static [(&'static str, GroupKind)];
        let cases: [(&str, &str, Groups); 2] = [
            ("sensors", "naive", &[("Sensor", GroupKind::Table), ("Reading", GroupKind::Table)]),
            (
                "leaderboard",
                "naive",
                &[("leaderboard", GroupKind::Table), ("by-score", GroupKind::GlobalIndex)],
            ),
        ];
        for (scenario, variant, want) in cases {
            let (_, h) = heat(scenario, variant, 60);
            let got: Vec<(&str, GroupKind)> =
                h.groups.iter().map(String::as_str).zip(h.kinds.iter().copied()).collect();
            assert_eq!(got, want, "{scenario} {variant}");
        }
    }

    /// sensors' readings and sensor reads pick their sensor uniformly: in each table (Cassandra
    /// keeps sensors and readings apart) every sensor's partition expects the same load, its
    /// 1/50 of the calls, and the rows are the 50 sensors' own keys.
    #[test]
    fn a_uniform_group_gives_equal_rows() {
        let (_, h) = heat("sensors", "naive", 3600);
        assert_eq!((h.rows.len(), h.partitions, h.groups.len()), (100, 100, 2));
        for group in [GroupId(0), GroupId(1)] {
            let rows: Vec<usize> = (0..h.rows.len()).filter(|&r| h.rows[r].group == group).collect();
            assert_eq!(rows.len(), 50, "{}", h.groups[0]);
            let cells = |r: usize| h.recorded(r).to_vec();
            for &r in &rows {
                assert_eq!(cells(r), cells(rows[0]), "row {r} of {}", h.groups[usize::from(group.0)]);
            }
            assert!(cells(rows[0]).iter().any(|c| c[READ] + c[WRITE] > 0.0), "{}", h.groups[0]);
            let keys: Vec<&str> = rows.iter().map(|&r| last_key(&h.rows[r])).collect();
            assert_eq!(keys[..3], ["sensor-00000", "sensor-00001", "sensor-00002"]);
        }
        // The readings' rows expect their share of every reading written.
        let readings = (0..h.rows.len()).find(|&r| h.recorded(r).iter().all(|c| c[WRITE] > 0.0));
        assert!(readings.is_some(), "a readings row");
    }

    /// discord-scale's channels follow Zipf (s = 0.7): rank k expects (k + 1)^−0.7 of the
    /// hottest channel's writes, in every column; together the rows expect no more than every
    /// partition does, which is the pattern's rate.
    #[test]
    fn a_zipf_groups_rows_fall_with_rank_and_sum_to_at_most_its_rate() {
        let (report, h) = heat("discord-scale", "recommended", 3600);
        assert_eq!((h.rows.len(), h.partitions), (ROWS, 1_000_000));
        let rows = writes(&h);
        for (k, row) in rows.iter().enumerate() {
            let want = (k as f64 + 1.0).powf(-0.7);
            for (c, (&got, &top)) in row.iter().zip(&rows[0]).enumerate() {
                let ratio = f64::from(got) / f64::from(top);
                assert!((ratio - want).abs() < 1e-5, "rank {k}, column {c}: {ratio} against {want}");
            }
        }
        // The hottest channel takes 1/H(10⁶; 0.7) = 0.48% of 9,838 messages a second.
        assert!((45.0..49.0).contains(&rows[0][0]), "{}", rows[0][0]);
        let rate = 9838.0;
        let tick = report.tick_s;
        for c in 0..h.cols.len() {
            let sum: f32 = rows.iter().map(|r| r[c]).sum();
            let total = h.totals[c][WRITE];
            assert!(sum <= total * (1.0 + 1e-6), "column {c}: rows {sum} > every partition {total}");
            // A tick's calls are the rate's, floored, with the carry: at most one more.
            assert!(f64::from(total) <= rate + 1.0 / tick + 1e-3, "column {c}: {total}");
        }
        // Each rank is a real key: its channel in the bucket current at the end.
        let top = last_key(&h.rows[0]);
        assert!(top.starts_with("ch-") && top.contains('#'), "{top}");
    }

    /// practice-chat `naive` keys a channel's messages (15 a second) and memberships (a join
    /// every 10 seconds) by the channel: one partition each, one row each, whose write cells
    /// count both — 15 messages' share a tick, 16 in a column holding a join's tick.
    #[test]
    fn two_entities_sharing_partitions_draw_as_one_row() {
        let (_, h) = heat("practice-chat", "naive", 600);
        assert_eq!((h.partitions, h.groups.len()), (10_000, 1));
        let keys: std::collections::BTreeSet<&str> = h.rows.iter().map(last_key).collect();
        assert_eq!(keys.len(), h.rows.len(), "a partition drawn twice");
        let top = &writes(&h)[0];
        let (least, most) = top.iter().fold((f32::MAX, 0.0f32), |(l, m), &c| (l.min(c), m.max(c)));
        assert!((most / least - 16.0 / 15.0).abs() < 1e-4, "{least} to {most}");
    }

    /// practice-saas's whale tenant asks its partition for more than 1,000 WCU a second: its
    /// row expects its part of what the meter served the partition (which other tenants share),
    /// under the partition's limit, not the 1,300 or so it asked for.
    #[test]
    fn a_throttled_partitions_row_expects_what_it_was_served() {
        let (report, h) = heat("practice-saas", "naive", 120);
        assert!(report.totals.throttled_ops > 0, "the whale throttles");
        let whale = writes(&h)[0].clone();
        assert_eq!(last_key(&h.rows[0]), "TENANT#tenant-0000");
        let limit = crate::engine::metrics::PARTITION_WCU_PER_S;
        assert!(whale.iter().all(|&c| f64::from(c) <= limit * 1.001), "{whale:?}");
        assert!(whale.iter().all(|&c| f64::from(c) >= 0.8 * limit), "{whale:?}");
    }
}
