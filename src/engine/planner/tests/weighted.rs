//! Popularity-weighted load (issues 11 and 12): every write a pattern makes counts on the key it
//! lands on, weighted by how the pattern picks that key, and a reader that picks popular keys
//! reads the popular keys' partitions.

use super::super::load::meeting;
use super::pattern;
use crate::engine::workload::Popularity;
use crate::scenario;

#[test]
fn a_skewed_reader_reads_the_popular_partitions() {
    // practice-search: messages and searches pick channels by the same Zipf(0.99) over 10,000,
    // so a search lands on a channel holding Σ pᵢ² = H(n, 1.98) / H(n, 0.99)² of the messages
    // (1.15%), not 1/10,000 — about 115 times the average channel.
    let loaded = scenario::load("practice-search").unwrap();
    let variant = loaded.variant(Some("naive")).unwrap();
    let plan = super::super::plan(&loaded.scenario, variant);
    let zipf = Popularity::Zipf { s: 0.99, scrambled: true };
    let share = meeting(&zipf, &zipf, 10_000, 404);
    let h = |n: u32, s: f64| (1..=n).map(|k| f64::from(k).powf(-s)).sum::<f64>();
    assert!((share - h(10_000, 1.98) / h(10_000, 0.99).powi(2)).abs() < 1e-9, "{share}");
    // 10 messages/s over the 6-hour run: a search at a random moment finds half of them.
    let want = 10.0 * 6.0 * 3_600.0 / 2.0 * share;
    let items = pattern(&plan, "search-in-channel").items_read.unwrap_or_default();
    assert!((items - want).abs() < 1e-6 * want, "{items} vs {want}");
}
