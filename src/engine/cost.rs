//! What a run costs on DynamoDB in US dollars: the run itself, and a 30-day month at the run's
//! mean request rates with the final storage. Prices come from AWS's public price list for one
//! region and are stated in the report (`totals.price_source`) with the date they took effect.
//!
//! Reads the report's measured units and bytes; it never estimates load. The Cassandra profile is
//! self-managed: it has no price, and its costs stay 0 with the source saying so.

use super::model::{Capacity, IndexKind, Scenario, Variant};
use super::planner::numbers;
use super::profile::Pricing;
use super::sim::RunReport;

/// One region's DynamoDB prices for the Standard table class, in US dollars.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PriceList {
    pub region: &'static str,
    /// The date these prices took effect.
    pub effective: &'static str,
    /// On-demand: per million write request units (1 WRU = one write of up to 1 KB).
    pub per_million_wru: f64,
    /// On-demand: per million read request units (1 RRU = one strongly consistent read of up to
    /// 4 KB, ½ eventually consistent). The store's RCU figures are RRUs one for one.
    pub per_million_rru: f64,
    /// Storage, per GB-month, table and indexes alike.
    pub per_gb_month: f64,
    /// Provisioned: per write capacity unit-hour.
    pub per_wcu_hour: f64,
    /// Provisioned: per read capacity unit-hour.
    pub per_rcu_hour: f64,
}

/// US East (N. Virginia), Standard table class.
///
/// Sources: https://aws.amazon.com/dynamodb/pricing/on-demand/ and
/// https://aws.amazon.com/dynamodb/pricing/provisioned/ (us-east-1). On-demand request prices are
/// those after AWS's 50% on-demand price cut effective 2024-11-01 ($1.25 → $0.625 per million WRU,
/// $0.25 → $0.125 per million RRU), the latest figures found (summaries dated 2025-05 to 2025-08
/// agree). Storage: "the first 25 GB consumed per month is free, and prices start from $0.25 per
/// GB-month thereafter" (aws.amazon.com/dynamodb/pricing/). Provisioned: $0.00065 per WCU-hour,
/// $0.00013 per RCU-hour. GSI reads, writes and storage are billed at the table's prices.
pub const US_EAST_1: PriceList = PriceList {
    region: "us-east-1",
    effective: "2024-11-01",
    per_million_wru: 0.625,
    per_million_rru: 0.125,
    per_gb_month: 0.25,
    per_wcu_hour: 0.000_65,
    per_rcu_hour: 0.000_13,
};

/// The month a monthly figure projects to.
pub const MONTH_S: f64 = 30.0 * 86_400.0;
/// A billed gigabyte. AWS bills storage in GB-months; keyheat counts binary gigabytes, as it
/// states every other size (the difference is 7%).
pub const GB: f64 = 1024.0 * 1024.0 * 1024.0;
/// AWS: billable table storage is the raw item size plus 100 bytes of overhead per item (the
/// report's index sizes already include it per entry).
pub const ITEM_OVERHEAD_BYTES: f64 = 100.0;
/// What `price_source` says for a profile with no price.
pub const SELF_MANAGED: &str = "n/a: self-managed (Cassandra has no per-request price)";
/// What a report says for a managed store keyheat holds no sourced price list for.
pub const UNLISTED: &str =
    "n/a: keyheat holds no sourced Cosmos DB price list, so it shows no cost rather than an invented one";

/// What a report says for a store priced by its servers, not its requests (MongoDB).
pub const SERVERS: &str = "n/a: MongoDB is priced by the servers it runs on (or a hosted cluster's tier), not per request, so keyheat shows no cost";

/// Whether a report's `price_source` says the run has no price.
pub fn unpriced(price_source: &str) -> bool {
    [SELF_MANAGED, UNLISTED, SERVERS].contains(&price_source)
}

/// Dollars per component.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bill {
    pub reads: f64,
    pub writes: f64,
    pub storage: f64,
}

impl Bill {
    pub fn total(&self) -> f64 {
        self.reads + self.writes + self.storage
    }
}

/// The run's bill and the projected month's.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    pub run: Bill,
    pub month: Bill,
}

/// Billable storage at the end of the run: table items with their overhead, plus index entries.
pub fn billable_bytes(report: &RunReport) -> f64 {
    report.totals.table_bytes as f64
        + report.totals.items as f64 * ITEM_OVERHEAD_BYTES
        + report.totals.index_bytes as f64
}

/// Prices a DynamoDB run. `totals.rcu`/`totals.wcu` are every unit the run consumed, table and
/// indexes (as DynamoDB's `ConsumedCapacity` total counts them). Provisioned capacity is billed
/// per hour whether used or not, and each GSI is taken to be provisioned like the table (the
/// console's default for a new index); an LSI shares the table's capacity. Storage over the run is
/// billed at its final size, an upper bound for a table that grew. The free tier is not applied:
/// it is per account and region, shared by every table, so it says nothing about this design.
pub fn estimate(prices: &PriceList, capacity: Capacity, gsis: usize, report: &RunReport) -> Estimate {
    let duration = report.duration_s.max(0.0);
    let months_run = duration / MONTH_S;
    let storage_month = billable_bytes(report) / GB * prices.per_gb_month;
    let (run_reads, run_writes, month_reads, month_writes) = match capacity {
        Capacity::OnDemand => {
            let reads = report.totals.rcu / 1e6 * prices.per_million_rru;
            let writes = report.totals.wcu / 1e6 * prices.per_million_wru;
            // Mean rate × a month; a run of zero length has no rate to project.
            let scale = if duration > 0.0 { MONTH_S / duration } else { 0.0 };
            (reads, writes, reads * scale, writes * scale)
        }
        Capacity::Provisioned { read, write } => {
            let tables = 1.0 + gsis as f64;
            let read_hour = f64::from(read) * prices.per_rcu_hour * tables;
            let write_hour = f64::from(write) * prices.per_wcu_hour * tables;
            let (run_h, month_h) = (duration / 3600.0, MONTH_S / 3600.0);
            (read_hour * run_h, write_hour * run_h, read_hour * month_h, write_hour * month_h)
        }
    };
    Estimate {
        run: Bill { reads: run_reads, writes: run_writes, storage: storage_month * months_run },
        month: Bill { reads: month_reads, writes: month_writes, storage: storage_month },
    }
}

/// Fills the report's cost fields and adds a note on how they were priced.
pub fn price(scenario: &Scenario, variant: &Variant, report: &mut RunReport) {
    let unpriced = match scenario.engine.profile().pricing {
        Pricing::OnDemand => None,
        Pricing::SelfManaged => Some(SELF_MANAGED),
        Pricing::Unlisted => Some(UNLISTED),
        Pricing::Servers => Some(SERVERS),
    };
    if let Some(source) = unpriced {
        report.totals.cost_usd = 0.0;
        report.totals.monthly_cost_usd = 0.0;
        source.clone_into(&mut report.totals.price_source);
        return;
    }
    let prices = US_EAST_1;
    let gsis = variant.indexes.iter().filter(|i| i.kind == IndexKind::Global).count();
    let estimate = estimate(&prices, variant.capacity, gsis, report);
    report.totals.cost_usd = estimate.run.total();
    report.totals.monthly_cost_usd = estimate.month.total();
    report.totals.price_source = source(&prices, variant.capacity);
    report.notes.push(note(&prices, variant.capacity, gsis, &estimate));
}

fn source(prices: &PriceList, capacity: Capacity) -> String {
    let mode = match capacity {
        Capacity::OnDemand => "on-demand",
        Capacity::Provisioned { .. } => "provisioned",
    };
    format!(
        "AWS DynamoDB {mode}, {}, Standard table class, prices effective {}; free tier not applied",
        prices.region, prices.effective
    )
}

fn note(prices: &PriceList, capacity: Capacity, gsis: usize, e: &Estimate) -> String {
    let rates = match capacity {
        Capacity::OnDemand => format!(
            "on-demand at ${} per million write request units and ${} per million read request units",
            prices.per_million_wru, prices.per_million_rru
        ),
        Capacity::Provisioned { read, write } => format!(
            "provisioned {} RCU and {} WCU at ${} per RCU-hour and ${} per WCU-hour{}",
            numbers::count(f64::from(read)),
            numbers::count(f64::from(write)),
            prices.per_rcu_hour,
            prices.per_wcu_hour,
            if gsis > 0 {
                format!(", each of {gsis} GSIs provisioned like the table")
            } else {
                String::new()
            }
        ),
    };
    format!(
        "Cost ({}, prices effective {}): {rates}; storage at ${} per GB-month (items + 100 bytes each, \
         index entries included), billed at its final size. The 25 GB free tier is not applied. \
         Per month: reads {}, writes {}, storage {} — {}.",
        prices.region,
        prices.effective,
        prices.per_gb_month,
        usd(e.month.reads),
        usd(e.month.writes),
        usd(e.month.storage),
        match capacity {
            Capacity::OnDemand => "the run's mean request rates for 30 days",
            Capacity::Provisioned { .. } => "30 days of the provisioned capacity",
        }
    )
}

/// `$1,234.57`, `$12.50`, `$0.0042` (two significant figures below a cent), `$0.00`.
///
/// # Panics
///
/// Never: the decimals counted are between 3 and 12.
pub fn usd(x: f64) -> String {
    if !x.is_finite() {
        return "$∞".to_owned();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let a = x.abs();
    if a == 0.0 {
        return "$0.00".to_owned();
    }
    if a < 0.01 {
        // Two significant figures: enough to compare designs whose runs cost fractions of a cent.
        let mut decimals = 3;
        while a * 10f64.powi(decimals - 1) < 1.0 && decimals < 12 {
            decimals += 1;
        }
        let decimals = usize::try_from(decimals).expect("decimals stay between 3 and 12");
        return format!("{sign}${a:.decimals$}");
    }
    let cents = numbers::floor_u64((a * 100.0).round());
    let whole = numbers::count((cents / 100) as f64);
    format!("{sign}${whole}.{:02}", cents % 100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::report;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn prices_on_demand_runs_by_hand() {
        // One day: 2 million RRU, 4 million WRU, 10 GiB of items (1 M items) + 1 GiB of index.
        let mut r = report();
        r.duration_s = 86_400.0;
        r.totals.rcu = 2e6;
        r.totals.wcu = 4e6;
        r.totals.items = 1_000_000;
        r.totals.table_bytes = 10 * 1024 * 1024 * 1024;
        r.totals.index_bytes = 1024 * 1024 * 1024;
        let e = estimate(&US_EAST_1, Capacity::OnDemand, 1, &r);
        // 2 × $0.125 and 4 × $0.625.
        assert!(close(e.run.reads, 0.25) && close(e.run.writes, 2.5), "{e:?}");
        // 10 GiB + 100 MB of overhead (1e8 bytes) + 1 GiB, at $0.25 per GiB-month.
        let gib = 11.0 + 1e8 / GB;
        assert!(close(e.month.storage, gib * 0.25), "{e:?}");
        assert!(close(e.run.storage, gib * 0.25 / 30.0), "{e:?}");
        // A month is 30 of these days.
        assert!(close(e.month.reads, 7.5) && close(e.month.writes, 75.0), "{e:?}");
        assert!(close(e.month.total(), 82.5 + gib * 0.25));
    }

    #[test]
    fn prices_provisioned_capacity_per_hour_with_each_gsi() {
        // 100 RCU and 50 WCU for 2 hours, table + 2 GSIs, nothing stored.
        let mut r = report();
        r.duration_s = 7200.0;
        r.totals.rcu = 1e9; // used units do not matter when provisioned
        (r.totals.items, r.totals.table_bytes, r.totals.index_bytes) = (0, 0, 0);
        let capacity = Capacity::Provisioned { read: 100, write: 50 };
        let e = estimate(&US_EAST_1, capacity, 2, &r);
        let hour = 3.0 * (100.0 * 0.000_13 + 50.0 * 0.000_65);
        assert!(close(e.run.total(), 2.0 * hour), "{e:?}");
        assert!(close(e.month.total(), 720.0 * hour), "{e:?}");
    }

    #[test]
    fn a_zero_length_run_projects_nothing() {
        let mut r = report();
        r.duration_s = 0.0;
        r.totals.wcu = 10.0;
        let e = estimate(&US_EAST_1, Capacity::OnDemand, 0, &r);
        assert!(e.month.writes == 0.0 && e.run.writes > 0.0 && e.month.total().is_finite());
    }

    #[test]
    fn formats_dollars() {
        let cases = [
            (0.0, "$0.00"),
            (12.5, "$12.50"),
            (1234.567, "$1,234.57"),
            (0.004_23, "$0.0042"),
            (0.000_050_1, "$0.000050"),
            (-3.0, "-$3.00"),
            (0.999_9, "$1.00"),
        ];
        for (x, text) in cases {
            assert_eq!(usd(x), text, "{x}");
        }
    }
}
