//! An aggregate kept by the writes of several entities: a sum adds the attribute of whichever
//! item triggered it, not only the first triggering entity's.

use crate::engine::sim::upkeep::Fold;
use crate::engine::sim::{RunOptions, Simulation};
use crate::scenario;

/// Orders and refunds, both counted and summed on their shop's item.
const SHOPS: &str = r#"(
    name: "shops",
    title: "Shops",
    entities: [
        (name: "Shop", attributes: [
            (name: "shop_id", type: S, gen: New("shops")),
            (name: "moves", type: N, gen: Number(Uniform(0, 10))),
            (name: "value", type: N, gen: Number(Uniform(0, 100))),
        ]),
        (name: "Order", attributes: [
            (name: "shop_id", type: S, gen: Pick("shops")),
            (name: "order_id", type: S, gen: New("orders")),
            (name: "amount", type: N, gen: Number(Uniform(1, 50))),
        ]),
        (name: "Refund", attributes: [
            (name: "shop_id", type: S, gen: Pick("shops")),
            (name: "refund_id", type: S, gen: New("refunds")),
            (name: "amount", type: N, gen: Number(Uniform(1, 50))),
        ]),
    ],
    populations: [
        (name: "shops", count: 20, ids: "s{:03}"),
        (name: "orders", count: 0, growth_per_day: 100000, ids: "o{:08}"),
        (name: "refunds", count: 0, growth_per_day: 100000, ids: "r{:08}"),
    ],
    patterns: [
        (name: "order", action: Put, entity: "Order", given: ["shop_id"], rate: 5),
        (name: "refund", action: Put, entity: "Refund", given: ["shop_id"], rate: 3),
    ],
    variants: [(
        name: "kept",
        keys: {
            "Shop": (pk: "SHOP#{shop_id}", sk: "META"),
            "Order": (pk: "SHOP#{shop_id}", sk: "ORDER#{order_id}"),
            "Refund": (pk: "SHOP#{shop_id}", sk: "REFUND#{refund_id}"),
        },
        aggregates: [
            (name: "moves", entity: "Shop", on: ["order", "refund"], attribute: "moves", op: Count),
            (name: "value", entity: "Shop", on: ["order", "refund"], attribute: "value", op: Sum("amount")),
        ],
    )],
    workload: (duration: "2m", tick: "1s", seed: 7),
)"#;

#[test]
fn a_sum_reads_the_attribute_of_each_entity_that_keeps_it() {
    let loaded = scenario::parse("shops.ron", SHOPS).expect("test scenario");
    let variant = loaded.variant(None).expect("variant");
    let sim = Simulation::new(&loaded.scenario, variant, &RunOptions::default()).expect("starts");
    let entity = |name: &str| sim.world.entities.iter().position(|e| e.name == name).expect("entity");
    let amount =
        |e: usize| sim.world.entities[e].attrs.iter().position(|a| a.name == "amount").expect("attr");
    let (order, refund) = (entity("Order"), entity("Refund"));
    let folds: Vec<&Fold> = sim.upkeep.aggregates.iter().map(|a| &a.fold).collect();
    assert_eq!(
        folds,
        [&Fold::Count, &Fold::Sum(vec![(order, amount(order)), (refund, amount(refund))])],
        "an order adds its amount, and so does a refund"
    );
}
