//! Starting a run: the tick count, the compiled world, one meter per table and GSI with its
//! registry rows, the Cassandra ring, pattern rows, copies, Scan marks and the preloaded items.

use std::cell::RefCell;
use std::collections::{BinaryHeap, HashMap};

use super::flush::Figures;
use super::items::CopyPlan;
use super::meter::{self, Meter};
use super::pacing::{Pacing, TickCalls};
use super::state::{GroupState, ItemState, NO_ROW, Node, PatternStats, Storage, Totals};
use super::table::{IndexKind, Table};
use super::world::{Birth, Filter, Origin, World};
use super::{
    METRIC_TICKS, RunOptions, Scratch, SimError, Simulation, physical_label,
    upkeep::{self, Upkeep},
};
use crate::engine::metrics::{Clock, GroupInfo, GroupKind, Layer, Metrics, RowInfo, SortKey};
use crate::engine::model::{Capacity, Engine, Scenario, Variant};
use crate::engine::planner::{self, Operation};
use crate::engine::profile::{Indexes, cosmos};
use crate::engine::store::ITEM_COLLECTION_LIMIT;
use crate::engine::time::{SimDuration, SimTime};
use crate::engine::workload::RateShape;

/// The ticks a run of `duration` in ticks of `tick` takes: the rule `run` applies to
/// `--duration` and the scenario loader to a file's workload.
pub(crate) fn tick_count(tick: SimDuration, duration: SimDuration) -> Result<u32, SimError> {
    if tick == SimDuration::ZERO {
        return Err(SimError::ZeroTick);
    }
    if duration < tick {
        return Err(SimError::ShorterThanATick { duration, tick });
    }
    let (ms, tick_ms) = (duration.as_millis(), tick.as_millis());
    // Too many ticks is said first: the whole numbers on either side would be as many.
    let ticks = u32::try_from(ms / tick_ms).map_err(|_| SimError::TooManyTicks { duration, tick })?;
    // A run replays whole ticks: rounding a duration to them would report a run other than the
    // one asked for.
    if !ms.is_multiple_of(tick_ms) {
        let below = SimDuration::from_millis(ms / tick_ms * tick_ms);
        return Err(SimError::NotWholeTicks { duration, tick, below, above: below + tick });
    }
    Ok(ticks)
}

/// Whether a run's entities would outgrow the per-operation replay's item handles (what
/// `Simulation::new` refuses with `SimError::TooManyItems`).
pub fn too_many_items(scenario: &Scenario, variant: &Variant, options: &RunOptions) -> bool {
    let plan = planner::plan(scenario, variant);
    let world = super::world::compile(scenario, variant, &plan.patterns);
    let duration = options.duration.unwrap_or(scenario.workload.duration);
    matches!(check_ordinals(&world, duration), Err(SimError::TooManyItems { .. }))
}

/// Refuses a run whose entities would outgrow their item handles (every rate at its peak).
fn check_ordinals(world: &World, duration: SimDuration) -> Result<(), SimError> {
    let limit = world.ordinal_limit();
    let secs = duration.as_secs_f64();
    for (e, ent) in world.entities.iter().enumerate() {
        let owned = ent.identity.map_or(0.0, |(_, pop)| {
            let p = &world.pops[pop];
            p.initial as f64 + p.growth_per_day * secs / 86_400.0
        });
        let writes: f64 = world
            .patterns
            .iter()
            .filter(|p| p.entity == e && !p.action.is_read())
            .map(|p| {
                let peak = p.shapes.iter().fold(1.0f64, |f, shape| match shape {
                    RateShape::Diurnal { factor, .. } | RateShape::Spike { factor, .. } => {
                        f * factor.max(1.0)
                    }
                    RateShape::Constant => f,
                });
                p.rate * peak * secs
            })
            .sum();
        if owned + writes >= limit as f64 {
            return Err(SimError::TooManyItems { entity: ent.name.clone(), limit });
        }
    }
    Ok(())
}

/// Every group's state: a meter with its physical rows for a table or GSI of a store that
/// meters capacity units (an LSI is metered with its table).
fn groups(
    world: &World,
    engine: Engine,
    variant: &Variant,
    tick_secs: f64,
    metrics: &mut Metrics,
) -> Result<Vec<GroupState>, SimError> {
    let mut groups = Vec::with_capacity(world.groups.len());
    for (g, &(t, _)) in world.groups.iter().enumerate() {
        let registry =
            metrics.add_group(GroupInfo { name: world.group_name(g), kind: world.metrics_kind(g) })?;
        let metered = engine.profile().metered() && world.group_kind(g) != Some(IndexKind::Local);
        let meter = metered.then(|| {
            let mut rows = |lo: u64| {
                let row = RowInfo {
                    group: registry,
                    layer: Layer::Physical,
                    label: physical_label(lo),
                    key: SortKey::HashStart(lo),
                };
                metrics.add_partition(row).map_or(NO_ROW, |id| id.0)
            };
            new_meter(engine, variant, tick_secs, &mut rows)
        });
        groups.push(GroupState {
            meter,
            metered_by: if metered { g } else { world.tables[t].group },
            loads: Vec::new(),
            registry,
            units: [0.0; 2],
            throttled: 0,
            entry_writes: 0,
            max_lag_secs: 0.0,
            stale_reads: 0,
        });
    }
    Ok(groups)
}

/// A new meter of a table or GSI of `variant` on `engine`, a metered store: a Cosmos DB
/// container's partitions sharing its throughput, or DynamoDB's under the variant's capacity.
/// The fluid replay meters with the same one, so both replays start from the same partitions
/// and budgets. `rows` gives each physical partition's registry row, by where its range starts.
pub(super) fn new_meter(
    engine: Engine,
    variant: &Variant,
    tick_secs: f64,
    rows: &mut dyn FnMut(u64) -> u32,
) -> Meter {
    if engine.profile().request_units() {
        Meter::shared(variant.cosmos_throughput(), tick_secs, rows)
    } else {
        let capacity = capacity(variant);
        Meter::new(Meter::initial_partitions(capacity), capacity, tick_secs, rows)
    }
}

/// The Cassandra ring's nodes, each a physical row of its own group.
fn ring(nodes: usize, replicas: usize, metrics: &mut Metrics) -> Result<Vec<Node>, SimError> {
    let name = format!("ring ({nodes} nodes, RF {replicas})");
    let group = metrics.add_group(GroupInfo { name, kind: GroupKind::Table })?;
    (0..nodes)
        .map(|n| {
            let lo = u64::try_from((u128::from(n as u64) << 64) / nodes as u128).unwrap_or(0);
            let row = RowInfo {
                group,
                layer: Layer::Physical,
                label: format!("node {}", n + 1),
                key: SortKey::HashStart(lo),
            };
            let id = metrics.add_partition(row)?;
            Ok(Node { row: id.0, ..Node::default() })
        })
        .collect()
}

/// Ticks in the heat-split window.
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "a positive count of ticks")]
fn window_ticks(tick_secs: f64) -> u32 {
    (meter::HEAT_WINDOW_SECS / tick_secs).ceil().max(1.0) as u32
}

/// The variant's denormalized copies, bound to attribute slots.
fn copy_plans(world: &World, variant: &Variant) -> Vec<CopyPlan> {
    variant
        .copies
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let to = c.ids.to().index();
            Some(CopyPlan {
                from: c.ids.from().index(),
                from_attr: c.ids.attribute()?.index(),
                to,
                as_attr: world.entities[to].added.copy(i)?,
                by_attr: c.ids.by()?.index(),
            })
        })
        .collect()
}

/// The metrics store for a run of `ticks` ticks, and its stride: how many ticks one metric
/// step spans (a whole number, so a long run keeps at most `METRIC_TICKS` steps).
fn metrics(start: SimTime, tick: SimDuration, ticks: u32) -> Result<(Metrics, u32), SimError> {
    let stride = u32::try_from(u64::from(ticks).div_ceil(METRIC_TICKS)).unwrap_or(1).max(1);
    let clock = Clock::new(start, SimDuration::from_millis(tick.as_millis() * u64::from(stride)))?;
    Ok((Metrics::new(clock), stride))
}

/// The variant's provisioned [read, write] capacity; `None` on demand.
pub(super) fn capacity(variant: &Variant) -> Option<[f64; 2]> {
    match variant.capacity {
        Capacity::OnDemand => None,
        Capacity::Provisioned { read, write } => Some([f64::from(read), f64::from(write)]),
    }
}

/// Every pattern's figures, each with its registry row in the metrics.
fn pattern_stats(world: &World, metrics: &mut Metrics) -> Result<Vec<PatternStats>, SimError> {
    world
        .patterns
        .iter()
        .map(|p| {
            let id = metrics.add_pattern(p.name.clone())?;
            Ok(PatternStats { registry: Some(id), ..PatternStats::default() })
        })
        .collect()
}

/// Every table, empty, in its sort-key codec with its indexes; paged by rows where the store
/// pages by rows.
fn tables(world: &World, engine: Engine) -> Vec<Table> {
    world
        .tables
        .iter()
        .map(|t| {
            let kinds: Vec<_> = t.indexes.iter().map(|i| i.kind).collect();
            let mut table = Table::new(t.codec, &kinds, ITEM_COLLECTION_LIMIT);
            table.charge_with(engine.profile().metering);
            if engine.profile().indexes == Indexes::Automatic {
                // Cosmos DB: a logical partition holds at most 20 GB, and a write past it fails.
                table.limit_partitions(cosmos::LOGICAL_PARTITION_BYTES);
            }
            if engine.profile().page_rows().is_some() {
                table.page_by_rows();
            }
            if !engine.profile().index_entries.are_items() {
                table.entries_without_overhead();
            }
            table
        })
        .collect()
}

/// Per table, its group and its indexes' groups.
fn group_of(world: &World) -> Vec<Vec<usize>> {
    world
        .tables
        .iter()
        .map(|t| std::iter::once(t.group).chain(t.indexes.iter().map(|i| i.group)).collect())
        .collect()
}

/// The variant's read-through cache, fronting the patterns it names (by the world's order).
fn item_cache(variant: &Variant, world: &World) -> Option<super::cache::ItemCache> {
    variant.cache.as_ref().map(|c| super::cache::ItemCache::new(c, world.patterns.len()))
}

/// The sharded collection a variant declares, empty (`sharding` is refused by the loader on any
/// store but MongoDB, so only a MongoDB replay gets here with one).
fn cluster(variant: &Variant, world: &super::world::World, start_ms: u64) -> Option<super::shards::Cluster> {
    let s = variant.sharding.as_ref()?;
    let entity = s.entity_id.index();
    let table = world.tables.iter().position(|t| t.entities.contains(&entity))?;
    let key = variant
        .keys
        .iter()
        .find(|k| k.entity == s.entity)
        .map_or_else(String::new, |k| k.pk.source().to_owned());
    Some(super::shards::Cluster::new(s, table, key, start_ms))
}

impl Simulation {
    /// Prepares a run: compiles the scenario for the variant, loads the initial items (members of
    /// populations an entity owns) and opens tick 0.
    pub fn new(scenario: &Scenario, variant: &Variant, options: &RunOptions) -> Result<Simulation, SimError> {
        Simulation::loading(scenario, variant, options, &mut |_| true)?.ok_or(SimError::Cancelled)
    }

    /// [`Simulation::new`] for a caller that shows the load and may give it up: `progress` gets
    /// the fraction of the initial items loaded now and then (a million items take seconds) and
    /// returns false to stop; the result is then `Ok(None)`. The run is the same either way.
    pub fn loading(
        scenario: &Scenario,
        variant: &Variant,
        options: &RunOptions,
        progress: &mut dyn FnMut(f64) -> bool,
    ) -> Result<Option<Simulation>, SimError> {
        let mut sim = Simulation::prepare(scenario, variant, options)?;
        Ok(sim.preload(progress).then_some(sim))
    }

    /// [`Simulation::new`] with an observer told every request the replay serves, the
    /// preload's first (see `observe`).
    pub fn observed(
        scenario: &Scenario,
        variant: &Variant,
        options: &RunOptions,
        observer: Box<dyn super::observe::Observer>,
    ) -> Result<Simulation, SimError> {
        let mut sim = Simulation::prepare(scenario, variant, options)?;
        sim.observing =
            Some(super::observe::Observing { observer, scan_from: HashMap::new(), appending: None });
        sim.preload(&mut |_| true);
        Ok(sim)
    }

    /// The run compiled, with an empty table: what the preload starts from.
    fn prepare(scenario: &Scenario, variant: &Variant, options: &RunOptions) -> Result<Simulation, SimError> {
        let workload = &scenario.workload;
        let tick = workload.tick;
        let duration = options.duration.unwrap_or(workload.duration);
        let ticks = tick_count(tick, duration)?;
        let plan = planner::plan(scenario, variant);
        let world = super::world::compile(scenario, variant, &plan.patterns);
        check_ordinals(&world, duration)?;
        let (mut metrics, stride) = metrics(workload.start, tick, ticks)?;
        let tick_secs = tick.as_secs_f64();
        let groups = groups(&world, scenario.engine, variant, tick_secs, &mut metrics)?;
        // Normalized RU is a Cosmos DB figure; another store's run keeps no series for it.
        let shares = scenario.engine.profile().metering == crate::engine::profile::Metering::RequestUnits;
        if shares {
            metrics.track_normalized_ru();
        }
        let nodes = match scenario.engine.profile().ring() {
            Some((nodes, replicas, _)) => ring(nodes, replicas, &mut metrics)?,
            None => Vec::new(),
        };
        let stats = pattern_stats(&world, &mut metrics)?;
        let tables = tables(&world, scenario.engine);
        let copies = copy_plans(&world, variant);
        let embeds = super::embed::compile(&world, variant);
        let (patterns, entities) = (world.patterns.len(), world.entities.len());
        let seed = options.seed.unwrap_or(workload.seed);
        let draw_keys = world
            .entities
            .iter()
            .map(|e| e.attrs.iter().map(|a| crate::engine::workload::draw_key(seed, a.stream)).collect())
            .collect();
        let mut sim = Simulation {
            scenario: scenario.name.clone(),
            variant: variant.name.clone(),
            seed,
            draw_keys,
            retries: super::exec::Retries::new(workload.retry.clone()),
            pacing: Pacing {
                start_ms: workload.start.as_millis(),
                tick_ms: tick.as_millis(),
                tick_secs,
                ticks,
                tick: 0,
                mid_tick: false,
                window_ticks: window_ticks(tick_secs),
                window: 0,
                calls: vec![TickCalls::default(); patterns],
                keys_pickers: vec![None; patterns],
            },
            storage: Storage {
                tables,
                groups,
                nodes,
                group_of: group_of(&world),
                touches: Vec::new(),
                unsettled: Vec::new(),
            },
            items: ItemState {
                overrides: HashMap::new(),
                versions: HashMap::new(),
                ttl: vec![BinaryHeap::new(); entities],
                grown: vec![0; scenario.populations.len()],
                nth: HashMap::new(),
                copy_holders: vec![HashMap::new(); copies.len()],
                cache: item_cache(variant, &world),
            },
            figures: Figures {
                metrics,
                stride,
                span: 0,
                span_rows: Vec::new(),
                span_ru: shares.then(Vec::new),
                logical_rows: 0,
                hot_rows: 0,
                totals: Totals::default(),
                stats,
            },
            scratch: Scratch { pk_memo: RefCell::new(vec![Vec::new(); entities]), ..Scratch::default() },
            upkeep: Upkeep {
                copies,
                aggregates: upkeep::AggregatePlan::compile(&world, variant),
                multikeys: super::multikey::compile(&world, &embeds),
                embeds,
                scan_marks: Vec::new(),
                plain: Vec::new(),
                shortcuts: Vec::new(),
            },
            replication: super::exec::Replication::default(),
            observing: None,
            shards: cluster(variant, &world, workload.start.as_millis()),
            world,
        };
        sim.enable_scans();
        sim.upkeep.plain = super::exec::plain_patterns(&sim);
        sim.upkeep.shortcuts =
            (0..sim.world.patterns.len()).map(|p| super::exec::Shortcut::for_pattern(&sim, p)).collect();
        Ok(sim)
    }

    /// Ledger marks for Scans whose filter is constant (their matches are counted as items are
    /// written, so a Scan need not look at every item).
    fn enable_scans(&mut self) {
        let mut marks: Vec<Vec<usize>> = vec![Vec::new(); self.storage.tables.len()];
        for (p, pattern) in self.world.patterns.iter_mut().enumerate() {
            if pattern.operation != Some(Operation::Scan) {
                continue;
            }
            let Some(read) = &mut pattern.read else { continue };
            if read.filter.iter().all(|f| matches!(f, Filter::Equals(..) | Filter::Prefix(..))) {
                read.mark = Some(marks[read.table].len());
                marks[read.table].push(p);
            }
        }
        for (t, table) in self.storage.tables.iter_mut().enumerate() {
            // A Scan pattern's table, the table a write scans first to learn its key, or a prefix
            // read's.
            let scanned = self.world.patterns.iter().any(|p| {
                (p.operation == Some(Operation::Scan) && p.read.as_ref().is_some_and(|r| r.table == t))
                    || p.locate.as_ref().is_some_and(|(op, r)| *op == Operation::Scan && r.table == t)
                    // A prefix read finds its logical partitions by their placements.
                    || p.read.as_ref().is_some_and(|r| r.table == t && r.prefix.is_some())
            });
            if scanned {
                table.base.enable_scan(marks[t].len());
            }
        }
        self.upkeep.scan_marks = marks;
    }

    /// The items there at the start: one per member of every population an entity owns. They
    /// cost nothing (the table was loaded before the run). False when `progress` said stop.
    fn preload(&mut self, progress: &mut dyn FnMut(f64) -> bool) -> bool {
        /// Items loaded between two calls of `progress`.
        const EVERY: u32 = 4096;
        let total: u64 = (0..self.world.entities.len())
            .filter_map(|e| {
                let ent = &self.world.entities[e];
                ent.identity.filter(|_| ent.table.is_some()).map(|(_, pop)| self.world.pops[pop].initial)
            })
            .sum();
        let mut loaded = 0u64;
        if !progress(0.0) {
            return false;
        }
        for e in 0..self.world.entities.len() {
            let Some((_, pop)) = self.world.entities[e].identity else { continue };
            let count = self.world.pops[pop].initial;
            if count == 0 || self.world.entities[e].table.is_none() {
                continue;
            }
            let count = u32::try_from(count).unwrap_or(u32::MAX);
            self.world.entities[e].births.push(Birth {
                first: 0,
                tick: 0,
                origin: Origin::Initial,
                call: 0,
                tick_first: 0,
                tick_calls: 0,
                stepping: true,
            });
            self.world.entities[e].next = count;
            for ordinal in 0..count {
                self.write_free(e, ordinal);
                loaded += 1;
                if ordinal % EVERY == EVERY - 1 && !progress(loaded as f64 / total.max(1) as f64) {
                    return false;
                }
            }
        }
        for g in 0..self.storage.groups.len() {
            self.settle_bytes(g);
        }
        true
    }
}
