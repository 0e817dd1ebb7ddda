//! `--fidelity` on `keyheat run` and `compare`: the report says which replay made it, `auto`
//! replays a run too large for the per-operation replay as rates and says so on stderr, and a
//! variant the fluid replay does not model is refused with exit 2 and the feature's name.

mod common;

use common::{keyheat, stderr, stdout};

fn json(args: &[&str]) -> serde_json::Value {
    let out = keyheat(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(&out)))
}

#[test]
fn every_report_names_its_fidelity() {
    // (args, fidelity, has bands)
    let cases: [(&[&str], &str, bool); 3] = [
        (&["run", "chat", "--duration", "1h", "--format", "json", "--fidelity", "ops"], "operations", false),
        (&["run", "chat", "--duration", "1h", "--format", "json", "--fidelity", "rates"], "rates", true),
        // Short: auto replays it call by call.
        (&["run", "chat", "--duration", "1h", "--format", "json"], "operations", false),
    ];
    for (args, fidelity, bands) in cases {
        let report = json(args);
        assert_eq!(report["fidelity"], fidelity, "{args:?}");
        assert_eq!(report.get("bands").is_some(), bands, "{args:?}");
        // A rates report's latency is null and says why; a per-operation one's is a number.
        let open = &report["patterns"][1];
        assert_eq!(open["latency_ms_p99"].is_null(), bands, "{args:?}: {open}");
        assert_eq!(open["latency_ms_p50"].is_null(), bands, "{args:?}: {open}");
        assert_eq!(open["latency_p99_missing"] == "not_modelled", bands, "{args:?}: {open}");
    }
    // A latency goal not graded as rates has no value, so none that is a bound: compare writes
    // the flag it keeps (a run report writes it only beside a value).
    let compared = json(&["compare", "chat", "--duration", "1h", "--format", "json", "--fidelity", "rates"]);
    for goal in compared["goals"].as_array().expect("goals") {
        for cell in goal["results"].as_array().expect("cells") {
            assert!(cell.get("value_is_lower_bound").is_none(), "{goal}");
        }
    }
    let text = keyheat(&["run", "chat", "--duration", "1h", "--fidelity", "rates"]);
    assert!(stdout(&text).contains("replayed as rates"), "{}", stdout(&text));
    // Nothing was timed: no latency figure, no ✔ against a target, no "never completed".
    let patterns = stdout(&text);
    let from = patterns.find("Access patterns").expect("the patterns table");
    let to = patterns.find("\nGoals:").expect("the goals");
    let patterns = &patterns[from..to];
    assert!(patterns.contains("latency and items per call are not modelled"), "{patterns}");
    assert!(!patterns.contains(" ms ") && !patterns.contains('✔'), "{patterns}");
    assert!(!patterns.contains("never completed"), "{patterns}");
    let md = keyheat(&["run", "chat", "--duration", "1h", "--fidelity", "rates", "--format", "md"]);
    assert!(stdout(&md).contains("replayed as rates"), "{}", stdout(&md));
}

#[test]
fn auto_replays_a_run_too_large_per_operation_as_rates_and_says_so() {
    // 1.2×10⁹ calls, past the 10⁹ a per-operation replay is given.
    let out = keyheat(&["run", "tests/fixtures/sensor-fleet.ron", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("too many to replay per operation"), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["fidelity"], "rates");
    assert!(
        report["notes"][0].as_str().is_some_and(|n| n.contains("--fidelity auto")),
        "{}",
        report["notes"]
    );
}

#[test]
fn a_variant_the_fluid_replay_does_not_model_exits_2_naming_the_feature() {
    let out = keyheat(&["run", "orders", "--fidelity", "rates", "--duration", "1m"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "--fidelity rates does not model picks from a population that grows (by growth_per_day, or by puts of new items not keyed by their identity alone) yet (entity OrderItem, attribute order_id)"
        ),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_cosmos_db_run_as_rates_is_refused_by_what_it_uses() {
    // counters `naive` and tenant-files on Cosmos DB replay as rates (tests/fluid_agreement.rs),
    // hierarchical keys and tenant-files `recommended`'s auditor's query of the tenant, the key's
    // first level, among them; over an hour the whale's physical partition splits among the
    // whale's buckets (40–60 minutes in), and that query would send a request to each half.
    let out = keyheat(&[
        "run",
        "tenant-files",
        "--variant",
        "recommended",
        "--fidelity",
        "rates",
        "--duration",
        "1h",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "--fidelity rates does not model a query of a hierarchical key's first levels that two physical partitions hold"
        ),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn compare_as_rates_compares_reports_made_alike() {
    let out = keyheat(&["compare", "chat", "--fidelity", "rates", "--duration", "1d"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("recommended"), "{}", stdout(&out));
}

/// Same seed, same bytes, as rates too: chat's memberships see ticks with a join and ticks
/// without, so the fluid replay's sums run over several kinds of tick (in an order it must fix).
#[test]
fn a_rates_report_is_the_same_bytes_every_time() {
    let args = [
        "run",
        "chat",
        "--variant",
        "recommended",
        "--duration",
        "3d",
        "--fidelity",
        "rates",
        "--format",
        "json",
    ];
    let first = keyheat(&args);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    for _ in 0..2 {
        assert_eq!(keyheat(&args).stdout, first.stdout);
    }
}

/// discord-scale is too large to replay per operation at any length worth reading: a day is
/// 1.7×10⁹ calls. `auto` replays it as rates and the text report says so.
#[test]
fn discord_scale_replays_as_rates_by_default() {
    let out = keyheat(&["run", "discord-scale", "--duration", "1d"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("too many to replay per operation"), "{}", stderr(&out));
    assert!(stdout(&out).contains("replayed as rates"), "{}", stdout(&out));
    let report = json(&["run", "discord-scale", "--duration", "1d", "--format", "json"]);
    assert_eq!(report["fidelity"], "rates");
}

/// The year the lesson quotes, as `keyheat run discord-scale` replays it (as rates, by
/// default): the busiest channel's largest partition under each design, as its text prints it.
#[test]
#[ignore = "a year of 6.2×10¹¹ calls as rates: seconds in release, minutes in debug (`cargo test --release --test fidelity -- --ignored`)"]
fn discord_scale_reports_the_largest_partitions_its_lesson_states() {
    let lesson = keyheat::scenario::load("discord-scale").expect("bundled").scenario.lesson;
    // (variant, the text report's largest partition)
    let cases = [
        ("naive", "296 GB, 1,494,799,788 rows: ch-0743107"),
        ("monthly-buckets", "25.2 GB, 126,955,598 rows: ch-0743107#2025-01"),
        ("recommended", "8.12 GB, 40,953,419 rows: ch-0743107#2009"),
    ];
    for (variant, largest) in cases {
        let out = keyheat(&["run", "discord-scale", "--variant", variant]);
        assert_eq!(out.status.code(), Some(0), "{variant}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("replayed as rates"), "{variant}: {text}");
        assert!(text.contains(&format!("largest                {largest}")), "{variant}: {text}");
        let (size, rows) = largest.split_once(", ").expect("size, rows");
        let rows = rows.split(' ').next().expect("rows");
        assert!(lesson.contains(rows) && lesson.contains(size), "{variant}: the lesson lacks {largest}");
    }
}
