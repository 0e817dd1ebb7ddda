//! Simulator throughput against a bare `BTreeMap` doing the same operations, in the same run,
//! and the replay's speed and memory against the targets it is held to.
//!
//! First the targets: `sensors` for its whole default duration (a simulated year: ~105 million
//! readings of 50 sensors, Cassandra profile), each variant in a process of its own so its peak
//! memory is its own (Linux's `VmHWM`):
//! 1. variant `naive` alone: ≤ 10 s and ≤ 1 GiB peak memory;
//! 2. both variants one after the other, keeping both reports as `keyheat compare` does: peak
//!    memory ≤ 1.2× the larger single run.
//!
//! The workbench's target (`G` to the end in ≤ 1.25× the headless time) is measured by
//! `cargo bench --bench render`.
//!
//! Then two workloads against the `BTreeMap`:
//! - the `sensors` naive year (from the run above);
//! - a chat-like mix (DynamoDB): messages posted to a Zipf-chosen channel, and "the latest 50
//!   messages of a channel" read at a tenth of that rate, for one simulated hour (1,000 posts a
//!   second: 3.6 million messages).
//!
//! The baseline replays the same operation stream — the same number of writes and reads per
//! tick, keys drawn from the same distributions — on `BTreeMap<(u32, u64), u32>` (partition,
//! sort key → item size): an insert per write, a range walk per read (the last 24 hours of a
//! sensor; the newest 50 of a channel), a lookup per get. It has no capacity units, no pages, no
//! metrics: the ratio is what the simulator's bookkeeping costs.
//!
//! Then the fluid replay (`--fidelity rates`) of the same year, both variants, against the
//! per-operation year measured above: the speed-up, and its headline figures beside the
//! per-operation ones. Then the scale targets, ≤ 60 s each as rates: `discord-scale`'s year
//! (3.1×10¹¹ messages, 10⁶ channels), each variant, and 10¹² writes a year across the same
//! 10⁶ partitions. Then the fluid replay on a metered table: practice-saas `naive` for one
//! simulated day as rates, and the year at that pace.
//!
//! Run: `cargo bench --bench sim` (the targets, both workloads and their baselines), or
//! `target/release/deps/sim-* --sensors-year` (the simulator alone, for `/usr/bin/time -v`), or
//! `… --run SCENARIO VARIANT [DAYS]` (any bundled scenario; prints the report's headline figures),
//! or `… --scale` (the scale targets alone).
//! `… --year VARIANT` and `… --compare-year` are the processes the targets are measured in.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use keyheat::engine::sim::{RunOptions, RunReport, Simulation, fluid};
use keyheat::engine::time::SimDuration;
use keyheat::engine::workload::Popularity;
use keyheat::scenario;

const CHAT: &str = r#"(
    name: "chat-mix",
    title: "Chat: post to a channel, read its latest 50",
    entities: [
        (name: "Message", attributes: [
            (name: "channel_id", type: S, gen: Pick("channels")),
            (name: "message_id", type: S, gen: New("messages")),
            (name: "sent_at", type: Time, gen: Now),
            (name: "author", type: S, gen: Pick("users")),
            (name: "body", type: S, gen: Payload(120)),
        ]),
    ],
    populations: [
        (name: "channels", count: 10000, ids: "ch{:05}", popularity: Zipf()),
        (name: "users", count: 100000, ids: "u{}"),
        (name: "messages", count: 1, ids: "m{:010}"),
    ],
    patterns: [
        (name: "post", action: Put, entity: "Message", given: ["channel_id"], rate: 1000),
        (name: "latest", action: List, entity: "Message", given: ["channel_id"], order: Desc, limit: 50, rate: 100),
    ],
    variants: [
        (name: "naive", keys: {"Message": (pk: "CH#{channel_id}", sk: "{sent_at}#{message_id}")}),
    ],
    workload: (duration: "1h", tick: "1s", seed: 1, start: "2025-01-01"),
)"#;

/// Runs a simulation to the end; (report, seconds, operations).
fn simulate(
    scenario: &keyheat::engine::model::Scenario,
    variant: &str,
    options: &RunOptions,
) -> (RunReport, f64) {
    let variant = scenario.variant(variant).expect("the bench's variants exist");
    let start = Instant::now();
    let mut sim = Simulation::new(scenario, variant, options).expect("the bench's scenarios run");
    while sim.step() {}
    let report = sim.report();
    (report, start.elapsed().as_secs_f64())
}

/// A stream of (partition, sort key) writes and reads shaped like a pattern set: per tick,
/// `writes` inserts under partitions drawn by `popularity` out of `partitions`, then `reads`
/// reads; a read walks `read_span` seconds back from now (or, with `read_span` 0, the newest
/// `read_limit` entries).
struct Stream {
    ticks: u64,
    tick_secs: u64,
    writes_per_s: f64,
    reads_per_s: f64,
    gets_per_s: f64,
    partitions: u64,
    popularity: Popularity,
    read_span: u64,
    read_limit: usize,
    size: u32,
}

/// The whole part of a non-negative float (counts of operations).
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "non-negative counts far below 2^64"
)]
fn whole(x: f64) -> u64 {
    x.max(0.0) as u64
}

/// A member index as a map key (populations here are far below 2^32).
fn key32(member: u64) -> u32 {
    u32::try_from(member).expect("bench populations fit in u32")
}

/// Replays the stream on a BTreeMap; (operations, seconds).
fn baseline(s: &Stream) -> (u64, f64) {
    let start = Instant::now();
    let mut map: BTreeMap<(u32, u64), u32> = BTreeMap::new();
    let picker = s.popularity.picker(s.partitions);
    let (mut carry_w, mut carry_r, mut carry_g) = (0.0, 0.0, 0.0);
    let (mut ops, mut seen, mut draws) = (0u64, 0u64, 0u64);
    for tick in 0..s.ticks {
        let now = 1_735_689_600 + tick * s.tick_secs;
        carry_w += s.writes_per_s * s.tick_secs as f64;
        carry_r += s.reads_per_s * s.tick_secs as f64;
        carry_g += s.gets_per_s * s.tick_secs as f64;
        let writes = whole(carry_w.floor());
        carry_w -= writes as f64;
        for k in 0..writes {
            let p = key32(picker.pick(9, 1, draws).unwrap_or(0));
            draws += 1;
            // Spread over the tick as the simulator does (whole seconds).
            let t = now + (2 * k + 1) * s.tick_secs / (2 * writes.max(1));
            map.insert((p, t * 1_000_000 + draws % 1_000_000), s.size + key32(draws % 7));
            ops += 1;
        }
        let reads = whole(carry_r.floor());
        carry_r -= reads as f64;
        for _ in 0..reads {
            let p = key32(picker.pick(9, 2, draws).unwrap_or(0));
            draws += 1;
            let hi = (p, (now + 1) * 1_000_000);
            if s.read_span > 0 {
                let lo = (p, now.saturating_sub(s.read_span) * 1_000_000);
                seen += map.range(lo..hi).map(|(_, &v)| u64::from(v)).sum::<u64>();
            } else {
                seen +=
                    map.range((p, 0)..hi).rev().take(s.read_limit).map(|(_, &v)| u64::from(v)).sum::<u64>();
            }
            ops += 1;
        }
        let gets = whole(carry_g.floor());
        carry_g -= gets as f64;
        for _ in 0..gets {
            let p = key32(picker.pick(9, 3, draws).unwrap_or(0));
            draws += 1;
            seen += u64::from(map.get(&(p, 0)).copied().unwrap_or(1));
            ops += 1;
        }
    }
    black_box(seen);
    (ops, start.elapsed().as_secs_f64())
}

fn headline(name: &str, report: &RunReport, secs: f64) {
    let t = &report.totals;
    println!(
        "{name}: {} ops ({} writes, {} reads) over {:.0} simulated days in {secs:.2} s = {:.0} ops/s; {} items, {:.1} MB; largest partition {:.1} MB / {} items; throttled {}",
        t.ops,
        t.writes,
        t.reads,
        report.duration_s / 86_400.0,
        t.ops as f64 / secs,
        t.items,
        t.table_bytes as f64 / 1e6,
        report.partitions.max_bytes as f64 / 1e6,
        report.partitions.max_items,
        t.throttled_ops,
    );
}

fn sensors_year() -> (RunReport, f64) {
    let loaded = scenario::load("sensors").expect("bundled");
    simulate(&loaded.scenario, "naive", &RunOptions::default())
}

/// This process's peak resident memory in bytes (`VmHWM`), where the OS says (Linux).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// The line a measuring process ends with: `measured OPS SECONDS PEAK_BYTES` (peak 0: unknown).
fn print_measured(ops: u64, secs: f64) {
    println!("measured {ops} {secs:.3} {}", peak_memory().unwrap_or(0));
}

/// What one measuring process reported.
struct Measured {
    ops: u64,
    secs: f64,
    /// `None` where the OS does not say.
    peak: Option<u64>,
}

/// Runs this bench again with `args` in a process of its own and reads its `measured` line.
fn measure(args: &[&str]) -> Measured {
    let exe = std::env::current_exe().expect("the bench knows its own path");
    let out = std::process::Command::new(exe).args(args).output().expect("the bench runs itself");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{args:?} failed: {stdout}{}", String::from_utf8_lossy(&out.stderr));
    let line = stdout.lines().find_map(|l| l.strip_prefix("measured ")).expect("a measured line");
    let mut fields = line.split(' ');
    let mut next = || fields.next().expect("three fields");
    let (ops, secs, peak) = (next().parse().unwrap(), next().parse().unwrap(), next().parse().unwrap());
    Measured { ops, secs, peak: (peak > 0).then_some(peak) }
}

fn met(ok: bool) -> &'static str {
    if ok { "met" } else { "not met" }
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1u32 << 30)
}

/// The replay's targets, each measured in a process of its own; returns the naive year's run.
fn targets() -> Measured {
    let naive = measure(&["--year", "naive"]);
    let recommended = measure(&["--year", "recommended"]);
    let both = measure(&["--compare-year"]);
    println!("targets (sensors, a simulated year, one process each):");
    println!(
        "  1. naive year: {:.1} s (target ≤ 10 s: {}), {:.0} ops/s",
        naive.secs,
        met(naive.secs <= 10.0),
        naive.ops as f64 / naive.secs
    );
    match naive.peak {
        Some(peak) => {
            println!("     peak memory {:.2} GiB (target ≤ 1 GiB: {})", gib(peak), met(peak <= 1 << 30));
        }
        None => println!("     peak memory: not measured (no /proc/self/status here)"),
    }
    if let (Some(a), Some(b), Some(c)) = (naive.peak, recommended.peak, both.peak) {
        let ratio = c as f64 / a.max(b) as f64;
        println!(
            "  2. compare naive + recommended: peak {:.2} GiB; alone {:.2} / {:.2} GiB; {ratio:.2}× the larger (target ≤ 1.2×: {})",
            gib(c),
            gib(a),
            gib(b),
            met(ratio <= 1.2)
        );
    }
    println!("  (the workbench's target: cargo bench --bench render)");
    naive
}

/// Sensors' year as rates, each variant, against `ops_secs` (the per-operation naive year).
fn fluid_year(ops_secs: f64) {
    let loaded = scenario::load("sensors").expect("bundled");
    for variant in ["naive", "recommended"] {
        let v = loaded.scenario.variant(variant).expect("bundled variant");
        let start = Instant::now();
        let report =
            fluid::run(&loaded.scenario, v, &RunOptions::default(), &mut |_| {}).expect("replays as rates");
        let secs = start.elapsed().as_secs_f64();
        println!(
            "fluid      sensors {variant}, one year as rates: {secs:.3} s ({:.0}× faster than per operation); largest partition {} items, peak writes {:.4}/s",
            ops_secs / secs.max(1e-9),
            report.partitions.max_items,
            report.partitions.peak_wcu_per_s
        );
    }
}

/// The issue's scale targets, each ≤ 60 s as rates in a release build on one core:
/// discord-scale's year (3.1×10¹¹ messages across 10⁶ channels), every variant; and the same
/// year with the messages raised to 10¹² (31,710 a second) under its 10-day buckets, the
/// variant with the most buckets to close.
fn scale_targets() {
    let bundled = scenario::load("discord-scale").expect("bundled");
    let trillion = bundled.source().replacen(
        "given: [\"channel_id\"],\n            rate: 9838,",
        "given: [\"channel_id\"],\n            rate: 31710,",
        1,
    );
    let trillion = scenario::parse("discord-trillion.ron", &trillion).expect("the edited scenario loads");
    let cases = [
        (&bundled, "naive"),
        (&bundled, "monthly-buckets"),
        (&bundled, "recommended"),
        (&trillion, "recommended"),
    ];
    for (loaded, variant) in cases {
        let v = loaded.scenario.variant(variant).expect("bundled variant");
        let start = Instant::now();
        let report =
            fluid::run(&loaded.scenario, v, &RunOptions::default(), &mut |_| {}).expect("replays as rates");
        let secs = start.elapsed().as_secs_f64();
        println!(
            "scale      {} {variant}, a year as rates: {:.2e} writes across {} partitions in {secs:.1} s (target ≤ 60 s: {}); largest partition {} rows",
            loaded.scenario.name,
            report.totals.writes as f64,
            report.partitions.logical,
            met(secs <= 60.0),
            report.partitions.max_items
        );
    }
}

/// The fluid replay on a metered table (DynamoDB's capacity units, throttling and retries):
/// practice-saas `naive` (a whale tenant throttling its partition, one-second ticks) for one
/// simulated day, and the year that pace would take. The meter is served tick by tick and member
/// by member, so a metered year as rates is far from the 60 s target: it is printed, not hidden.
fn metered_day() {
    let loaded = scenario::load("practice-saas").expect("bundled");
    let v = loaded.scenario.variant("naive").expect("bundled variant");
    let options = RunOptions { seed: None, duration: Some(SimDuration::from_secs(86_400)) };
    let start = Instant::now();
    let report = fluid::run(&loaded.scenario, v, &options, &mut |_| {}).expect("replays as rates");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "metered    practice-saas naive, one day as rates: {:.2e} calls in {secs:.1} s; a year at this pace ≈ {:.0} s (target ≤ 60 s: {}); throttled {:.1}% of requests",
        report.totals.ops as f64,
        secs * 365.0,
        met(secs * 365.0 <= 60.0),
        100.0 * report.totals.throttled_ops as f64 / report.totals.requests.max(1) as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if args.first().map(String::as_str) == Some("--sensors-year") {
        let (report, secs) = sensors_year();
        headline("sensors naive, one year", &report, secs);
        return;
    }
    if args.first().map(String::as_str) == Some("--scale") {
        scale_targets();
        metered_day();
        return;
    }
    if args.first().map(String::as_str) == Some("--year") {
        let variant = args.get(1).map_or("naive", String::as_str);
        let loaded = scenario::load("sensors").expect("bundled");
        let (report, secs) = simulate(&loaded.scenario, variant, &RunOptions::default());
        print_measured(report.totals.ops, secs);
        return;
    }
    if args.first().map(String::as_str) == Some("--compare-year") {
        // As `keyheat compare` replays: one variant after the other, keeping every report.
        let loaded = scenario::load("sensors").expect("bundled");
        let start = Instant::now();
        let reports: Vec<RunReport> = ["naive", "recommended"]
            .iter()
            .map(|v| simulate(&loaded.scenario, v, &RunOptions::default()).0)
            .collect();
        print_measured(reports.iter().map(|r| r.totals.ops).sum(), start.elapsed().as_secs_f64());
        return;
    }
    if args.first().map(String::as_str) == Some("--run") {
        let name = args.get(1).map_or("sensors", String::as_str);
        let variant = args.get(2).map_or("naive", String::as_str);
        let duration = args
            .get(3)
            .and_then(|d| d.parse::<f64>().ok())
            .map(|d| SimDuration::from_millis(whole(d * 86_400_000.0)));
        let loaded = scenario::load(name).expect("a bundled scenario or a file");
        let (report, secs) = simulate(&loaded.scenario, variant, &RunOptions { seed: None, duration });
        headline(&format!("{name} {variant}"), &report, secs);
        for p in &report.patterns {
            println!(
                "  {:<16} {:>10} calls  rcu/call {:>9} → {:>9}  items read {:>9.1}  p50 {:>8.1} ms  p99 {:>8.1} ms  throttled {}",
                p.name,
                p.calls,
                p.rcu_per_call_start.map_or_else(|| "—".to_owned(), |x| format!("{x:.2}")),
                p.rcu_per_call_end.map_or_else(|| "—".to_owned(), |x| format!("{x:.2}")),
                p.avg_items_read,
                p.latency_ms_p50,
                p.latency_ms_p99,
                p.throttled
            );
        }
        return;
    }

    // (a) The targets, then the fluid year, then the naive year's stream on a BTreeMap.
    let naive = targets();
    fluid_year(naive.secs);
    scale_targets();
    metered_day();
    let sim_rate = naive.ops as f64 / naive.secs;
    let (ops, base_secs) = baseline(&Stream {
        ticks: 525_600,
        tick_secs: 60,
        writes_per_s: 3.3333,
        reads_per_s: 0.1,
        gets_per_s: 0.2,
        partitions: 50,
        popularity: Popularity::Uniform,
        read_span: 86_400,
        read_limit: usize::MAX,
        size: 72,
    });
    let base_rate = ops as f64 / base_secs;
    println!("baseline   sensors-like stream: {ops} ops in {base_secs:.2} s = {base_rate:.0} ops/s");
    println!("ratio      simulator / BTreeMap = {:.2}", sim_rate / base_rate);

    // (b) The chat-like mix for a simulated hour.
    let loaded = scenario::parse("chat-mix.ron", CHAT).expect("the bench's chat scenario parses");
    let (report, secs) = simulate(&loaded.scenario, "naive", &RunOptions::default());
    headline("simulator  chat mix (1 hour)", &report, secs);
    let sim_rate = report.totals.ops as f64 / secs;
    let (ops, base_secs) = baseline(&Stream {
        ticks: 3_600,
        tick_secs: 1,
        writes_per_s: 1000.0,
        reads_per_s: 100.0,
        gets_per_s: 0.0,
        partitions: 10_000,
        popularity: Popularity::Zipf { s: 0.99, scrambled: true },
        read_span: 0,
        read_limit: 50,
        size: 200,
    });
    let base_rate = ops as f64 / base_secs;
    println!("baseline   chat-like stream: {ops} ops in {base_secs:.2} s = {base_rate:.0} ops/s");
    println!("ratio      simulator / BTreeMap = {:.2}", sim_rate / base_rate);
}
