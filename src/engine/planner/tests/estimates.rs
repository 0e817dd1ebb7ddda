//! The numbers behind plans and warnings: item counts, item sizes, who a read's load lands on,
//! write amplification, and which warnings fire.

use super::super::estimate::Estimator;
use super::{Finding, WarningCode, pattern, plan_of, plan_src};
use crate::scenario;

/// Memberships keyed by two picked ids, devices keyed by a hash of their id next to the id, a
/// counter nobody puts, and a catalog nobody writes.
const KEYS: &str = r#"(
    name: "keys", title: "Key spaces",
    entities: [
        (name: "Membership", attributes: [
            (name: "channel_id", type: S, gen: Pick("channels")),
            (name: "user_id", type: S, gen: Pick("users")),
        ]),
        (name: "Device", attributes: [
            (name: "device_id", type: S, gen: Pick("devices")),
            (name: "state", type: S, gen: Payload(100)),
        ]),
        (name: "Counter", attributes: [
            (name: "device_id", type: S, gen: Pick("devices")),
            (name: "n", type: N, gen: Number(Uniform(0, 100))),
        ]),
        (name: "Product", attributes: [
            (name: "sku", type: S, gen: Pick("skus")),
            (name: "color", type: S, gen: OneOf([("red", 1), ("blue", 1), ("green", 1)])),
        ]),
    ],
    populations: [
        (name: "channels", count: 50000, ids: "ch{}", popularity: Zipf(s: 0.99)),
        (name: "users", count: 1000000, ids: "u{}"),
        (name: "devices", count: 100, ids: "d{:03}", popularity: Zipf(s: 1.2)),
        (name: "skus", count: 2000, ids: "p{}"),
    ],
    patterns: [
        (name: "join", action: Put, entity: "Membership", given: ["channel_id", "user_id"], rate: 20),
        (name: "members", action: List, entity: "Membership", given: ["channel_id"], rate: 50),
        (name: "set-state", action: Put, entity: "Device", given: ["device_id"], rate: 100),
        (name: "get-state", action: Get, entity: "Device", given: ["device_id"], rate: 4000),
        (name: "all-devices", action: List, entity: "Device", rate: 1),
        (name: "bump", action: Update, entity: "Counter", given: ["device_id"], sets: ["n"], rate: 500),
        (name: "product", action: Get, entity: "Product", given: ["sku", "color"], rate: 1),
    ],
    variants: [(name: "v", keys: {
        "Membership": (pk: "CH#{channel_id}", sk: "U#{user_id}"),
        "Device": (pk: "DEV#{hash(device_id, 8)}", sk: "{device_id}"),
        "Counter": (pk: "C#{device_id}#{shard(4)}", sk: "N"),
        "Product": (pk: "P#{sku}", sk: "{color}"),
    })],
    workload: (duration: "30d", tick: "1s", seed: 1),
)"#;

#[test]
fn items_are_bounded_by_writes_and_by_the_joint_key_space() {
    let loaded = scenario::parse("keys.ron", KEYS).unwrap();
    let est = Estimator::new(&loaded.scenario, &loaded.scenario.variants[0]);
    let month = 30.0 * 86_400.0;
    // (entity, items at the end of the run)
    let cases = [
        // 20 joins a second for 30 days, far below 50,000 × 1,000,000 pairs.
        ("Membership", 20.0 * month),
        // hash(device_id, 8) next to device_id adds nothing: 100 devices, 100 items.
        ("Device", 100.0),
        // Upserted by its updates: 100 devices × 4 shards.
        ("Counter", 400.0),
        // Nobody writes it: every key it can hold, 2,000 skus × 3 colours.
        ("Product", 6000.0),
    ];
    for (entity, items) in cases {
        let got = est.items_total(loaded.scenario.entity(entity).expect("entity").id());
        assert!((got - items).abs() < 1e-6 * items, "{entity}: {got} items, expected {items}");
    }
    let plan = super::super::plan(&loaded.scenario, &loaded.scenario.variants[0]);
    // A channel's members: the memberships over 50,000 channels, not 1,000,000 users each —
    // as many as a reader finds on average over the run (half the run's joins), in the
    // channels it picks: it picks them by the same Zipf the joins did, so Σ pᵢ² of them.
    let zipf = crate::engine::workload::Popularity::Zipf { s: 0.99, scrambled: true };
    let share = super::super::load::meeting(&zipf, &zipf, 50_000, 1);
    assert!(share > 30.0 / 50_000.0, "a popular channel holds far more than the average: {share}");
    let members = pattern(&plan, "members").items_read.unwrap_or_default();
    assert!((members - 20.0 * month / 2.0 * share).abs() < 1e-6 * members, "{members}");
    assert!((pattern(&plan, "all-devices").items_read.unwrap_or_default() - 100.0).abs() < 1e-9);
}

#[test]
fn a_reader_loads_only_the_shards_it_hits() {
    let plan = plan_src(KEYS, "v");
    // get-state knows device_id, so it reads one hash shard: 4,000/s × 36.8% (the hottest
    // device's 27.8% plus an eighth of the rest) × 0.5 RCU = 735.7 RCU/s, under 3,000.
    let devices = |w: &&super::Warning| w.code == WarningCode::HotPartition && w.subject.contains("DEV#");
    assert!(!plan.warnings.iter().any(|w| devices(&w)), "{:#?}", plan.warnings);
    let hot = KEYS.replace("rate: 4000", "rate: 20000");
    let plan = plan_src(&hot, "v");
    let w = plan.warnings.iter().find(devices).expect("20,000/s is hot");
    assert!(
        w.to_string().contains("get-state 20,000/s × 36.8%") && w.to_string().contains("= 3,678.5 RCU/s"),
        "{}",
        w.to_string()
    );
    // all-devices asks every shard once per call: 100% of its calls on each, not 8 × 36.8%.
    assert!(w.to_string().contains("all-devices 1/s × 100%"), "{}", w.to_string());
}

/// Three writes of one membership per update in `wide`; two in `narrow`; aggregates on one
/// item in `stats`.
const WRITES: &str = r#"(
    name: "writes", title: "Writes",
    entities: [
        (name: "Membership", attributes: [
            (name: "channel_id", type: S, gen: New("channels")),
            (name: "user_id", type: S, gen: Pick("users")),
            (name: "last_read", type: Time, gen: Now),
            (name: "status", type: S, gen: Sometimes(0.99, OneOf([("ACTIVE", 90), ("BANNED", 1), ("IDLE", 9)]))),
            (name: "total", type: N, gen: Number(Uniform(1, 100))),
        ]),
        (name: "Stats", attributes: [
            (name: "user_id", type: S, gen: Pick("users")),
            (name: "joins", type: N, gen: Number(Uniform(0, 9))),
            (name: "spend", type: N, gen: Number(Uniform(0, 9))),
        ]),
    ],
    populations: [
        (name: "channels", count: 1000, ids: "ch{}"),
        (name: "users", count: 1000, ids: "u{}"),
    ],
    patterns: [
        (name: "join", action: Put, entity: "Membership", given: ["user_id"], rate: 2000),
        (name: "mark-read", action: Update, entity: "Membership", given: ["channel_id"], sets: ["last_read"], rate: 10),
        (name: "ban", action: Update, entity: "Membership", given: ["channel_id"], sets: ["status"], rate: 1),
    ],
    variants: [
        (name: "narrow", keys: {"Membership": (pk: "CH#{channel_id}")},
         indexes: [(name: "by-read", keys: {"Membership": (pk: "{user_id}", sk: "{last_read}")})]),
        (name: "wide", keys: {"Membership": (pk: "CH#{channel_id}")},
         indexes: [
            (name: "by-read", keys: {"Membership": (pk: "{user_id}", sk: "{last_read}")}),
            (name: "recent", keys: {"Membership": (pk: "R#{last_read}")}),
         ]),
        (name: "stats", keys: {"Membership": (pk: "CH#{channel_id}"), "Stats": (pk: "S#{user_id}")},
         indexes: [(name: "by-status", keys: {"Membership": (pk: "{status}")})],
         aggregates: [
            (name: "joins", entity: "Stats", on: ["join"], attribute: "joins", op: Count),
            (name: "spend", entity: "Stats", on: ["join"], attribute: "spend", op: Sum("total")),
         ]),
        (name: "sparse", keys: {"Membership": (pk: "CH#{channel_id}")},
         indexes: [(name: "banned", keys: {"Membership": (pk: "{status}")}, only_when: ("status", "BANNED"))]),
    ],
    workload: (duration: "30d", tick: "1s", seed: 1),
)"#;

#[test]
fn write_amplification_counts_the_writes_beyond_the_base_item_and_warns_above_two() {
    // (variant, pattern, write amplification, warned)
    let cases = [
        // A key change in one GSI: delete + put, 2 — at the limit, not above it.
        ("narrow", "mark-read", 2.0, false),
        // In two GSIs: 4.
        ("wide", "mark-read", 4.0, true),
        ("narrow", "join", 1.0, false),
        // Two aggregates of one Stats item: one UpdateItem, one write.
        ("stats", "join", 1.99, false),
    ];
    for (variant, name, amplification, warned) in cases {
        let plan = plan_src(WRITES, variant);
        let p = pattern(&plan, name);
        let wa = p.write_amplification.unwrap_or_default();
        assert!((wa - amplification).abs() < 1e-9, "{variant}/{name}: {wa}: {p:#?}");
        let warning =
            plan.warnings.iter().find(|w| w.code == WarningCode::WriteAmplification && w.subject == name);
        assert_eq!(warning.is_some(), warned, "{variant}/{name}: {:#?}", plan.warnings);
        if let Some(w) = warning {
            assert!(
                w.to_string().contains(&format!("write amplification of {amplification}")),
                "{}",
                w.to_string()
            );
        }
    }
    let stats = plan_src(WRITES, "stats");
    let targets: Vec<String> = pattern(&stats, "join").writes.iter().map(|w| w.target.to_string()).collect();
    assert_eq!(targets, ["table", "GSI by-status", "aggregate joins + spend"]);
}

#[test]
fn only_an_only_when_index_is_exempt_from_low_cardinality() {
    // `status` is present on 99% of memberships: still 3 values, still flagged.
    let stats = plan_src(WRITES, "stats");
    let w = stats.warnings.iter().find(|w| w.code == WarningCode::LowCardinalityIndex);
    assert!(w.is_some_and(
        |w| w.subject == "GSI by-status {status}" && w.to_string().contains("takes only 3 values")
    ));
    let sparse = plan_src(WRITES, "sparse");
    assert!(
        sparse.warnings.iter().all(|w| w.code != WarningCode::LowCardinalityIndex),
        "{:#?}",
        sparse.warnings
    );
}

#[test]
fn one_item_is_said_only_of_a_table_item() {
    // Every membership lands on R#{last_read} for the current second: hot, but an index
    // partition of many items, which a split by sort key can spread.
    let wide = plan_src(&WRITES.replace("rate: 10)", "rate: 800)"), "wide");
    let w = wide.warnings.iter().find(|w| w.code == WarningCode::HotPartition).expect("R#{last_read} is hot");
    assert!(w.subject.starts_with("GSI recent") && !w.to_string().contains("one item"), "{}", w.to_string());
    // The counter is one table item.
    let counters = plan_of("counters", "naive");
    let w = counters.warnings.iter().find(|w| w.code == WarningCode::HotPartition).expect("hot counter");
    assert!(w.to_string().contains("it is one item"), "{}", w.to_string());
}

#[test]
fn sparse_index_keys_count_by_the_share_of_items_that_carry_them() {
    let naive = crate::engine::testing::fixture("orders");
    let variant = |name: &str| naive.scenario.variant(name).unwrap();
    let order = naive.scenario.entity("Order").expect("Order").id();
    let plain = Estimator::new(&naive.scenario, variant("naive")).item_bytes(order);
    let sparse = Estimator::new(&naive.scenario, variant("recommended")).item_bytes(order);
    // 0.3% of orders are pending and carry GSI1PK/GSI1SK: well under a byte on average.
    assert!(sparse > plain && sparse - plain < 1.0, "{plain} vs {sparse}");
    let page = pattern(&plan_of("orders", "recommended"), "customer-page").units_per_call;
    assert!((page - pattern(&plan_of("orders", "naive"), "customer-page").units_per_call).abs() < 1e-9);
}

#[test]
fn reading_an_owned_id_follows_the_populations_popularity() {
    // Reading a channel by its id (a `New` id: the entity owns the population) picks by the
    // population's popularity, Zipf here, not "a new value per item".
    let source = r#"(
        name: "channels", title: "Channels",
        entities: [(name: "Channel", attributes: [
            (name: "channel_id", type: S, gen: New("channels")),
            (name: "title", type: S, gen: Payload(40)),
        ])],
        populations: [(name: "channels", count: 1000, ids: "ch{}", popularity: Zipf(s: 1.0))],
        patterns: [(name: "get-channel", action: Get, entity: "Channel", given: ["channel_id"], rate: 50000)],
        variants: [(name: "v", keys: {"Channel": (pk: "CH#{channel_id}")})],
        workload: (duration: "30d", tick: "1s", seed: 1),
    )"#;
    let plan = plan_src(source, "v");
    // 50,000/s × 1/H(1000, 1) = 13.4% × 0.5 RCU = 3,340 RCU/s on the top channel.
    let w =
        plan.warnings.iter().find(|w| w.code == WarningCode::HotPartition).expect("the top channel is hot");
    assert!(
        w.to_string().contains("get-channel 50,000/s × 13.4% (channel_id: Zipf(s: 1) over 1,000 channels)"),
        "{}",
        w.to_string()
    );
}

/// A concert's seats sold by create-once puts: one event takes every booking, 50 seats, 400
/// attempts a second for a minute, so most attempts find the seat taken.
const SEATS: &str = r#"(
    name: "seats", title: "Seats",
    entities: [(name: "Booking", attributes: [
        (name: "event_id", type: S, gen: Pick("events")),
        (name: "seat", type: S, gen: Pick("seats")),
        (name: "holder", type: S, gen: Payload(200)),
    ])],
    populations: [
        (name: "events", count: 1, ids: "event-{}"),
        (name: "seats", count: 50, ids: "seat-{:02}"),
    ],
    patterns: [(name: "book", action: Put, entity: "Booking", given: ["event_id", "seat"], condition: NotExists, rate: 400)],
    variants: [(name: "v", keys: {"Booking": (pk: "EVENT#{event_id}", sk: "SEAT#{seat}")})],
    workload: (duration: "60s", tick: "1s", seed: 1),
)"#;

#[test]
fn a_refused_create_once_put_is_charged_instead_of_its_write() {
    // Every attempt costs 1 WCU, landed or refused: 400 WCU/s on the event's key, not 400 plus
    // the refused ones again. The landed writes are the share that finds the seat free.
    let plan = plan_src(SEATS, "v");
    let refused = pattern(&plan, "book").condition.as_ref().expect("a create-once put").failure_rate;
    assert!(refused > 0.9, "{refused}");
    let hot = plan.warnings.iter().find(|w| w.code == WarningCode::HotPartition);
    assert!(hot.is_none(), "400 attempts a second fit one partition: {hot:?}");
    let loud = plan_src(&SEATS.replace("rate: 400", "rate: 1200"), "v");
    let w = loud.warnings.iter().find(|w| w.code == WarningCode::HotPartition).expect("1,200 WCU/s is hot");
    assert!(w.to_string().contains("takes 1,200 WCU/s"), "{}", w.to_string());
    assert!(w.to_string().contains("find the key free"), "{}", w.to_string());
}

/// Orders indexed by their status alone: 1,000 new PLACED orders a second, and 400 updates a
/// second advancing one of them (PLACED → SHIPPED → DELIVERED).
const STATUS: &str = r#"(
    name: "status", title: "Status",
    entities: [(name: "Order", attributes: [
        (name: "order_id", type: S, gen: New("orders")),
        (name: "status", type: S, gen: States(["PLACED", "SHIPPED", "DELIVERED"])),
        (name: "lines", type: S, gen: Payload(500)),
    ])],
    populations: [(name: "orders", count: 5000, ids: "o{:06}")],
    patterns: [
        (name: "place", action: Put, entity: "Order", given: ["order_id"], rate: 1000),
        (name: "advance", action: Update, entity: "Order", given: ["order_id"], sets: ["status"], rate: 400),
    ],
    variants: [(name: "v", keys: {"Order": (pk: "O#{order_id}")},
                indexes: [(name: "by-status", keys: {"Order": (pk: "STATUS#{status}", sk: "{order_id}")})])],
    workload: (duration: "2m", tick: "1s", seed: 1),
)"#;

#[test]
fn a_state_keyed_index_adds_up_the_loads_on_one_state() {
    // The puts load PLACED and the updates load SHIPPED most (in and out): the busiest value is
    // PLACED, which takes the puts and the updates that find an order PLACED (each moves one
    // entry out of it) — not the puts plus the updates' load on SHIPPED.
    let loaded = scenario::parse("status.ron", STATUS).expect("loads");
    let s = &loaded.scenario;
    let est = Estimator::new(s, s.variant("v").expect("v"));
    let order = s.entity("Order").expect("Order");
    let status = crate::engine::model::ItemAttr::Own(order.attribute_id("status").expect("status"));
    let found = super::super::transition::found(&est, order.id(), status).expect("updates advance it");
    let expected = 1000.0 + 400.0 * found[0];
    let plan = plan_src(STATUS, "v");
    let w = plan.warnings.iter().find(|w| w.code == WarningCode::HotPartition).expect("STATUS#PLACED is hot");
    assert!(w.to_string().contains("move an entry out of or into \"PLACED\""), "{}", w.to_string());
    let Finding::HotPartition(load) = &w.finding else { panic!("a hot partition's finding: {w:?}") };
    let figure = load.wcu.expect("past what a partition serves");
    assert!((figure - expected).abs() < 0.1, "{figure} ≠ {expected}");
}

/// MongoDB: a comment embedded in its post is an array element of BSON (bsonspec.org): its type
/// byte, its index's name terminator, and an embedded document of its fields, the time a UTC
/// datetime of 8 bytes as the replay stores it (`sim::items::bson_value_size`).
#[test]
fn on_mongodb_an_embedded_comment_is_sized_as_the_replay_stores_it() {
    let source = r#"(
        name: "thread", title: "thread", engines: [MongoDB],
        entities: [
            (name: "Post", attributes: [(name: "post_id", type: S, gen: New("posts"))]),
            (name: "Comment", attributes: [
                (name: "post_id", type: S, gen: Pick("posts")),
                (name: "at", type: Time, gen: Now),
                (name: "body", type: S, gen: Payload(1000)),
            ]),
        ],
        populations: [(name: "posts", count: 1, ids: "p{}")],
        patterns: [
            (name: "comment", action: Put, entity: "Comment", given: ["post_id"], keys: Fixed(0), rate: 2),
        ],
        variants: [(
            name: "whole",
            keys: {"Post": (pk: "POST#{post_id}", sk: "POST")},
            embeds: [(entity: "Comment", into: "Post", by: "post_id")],
        )],
        workload: (duration: "300s", tick: "1s", seed: 7),
    )"#;
    let loaded = scenario::parse("thread.ron", source).expect("test scenario");
    let loaded = loaded.on_engine(crate::engine::model::Engine::MongoDb).expect("listed");
    let variant = loaded.variant(Some("whole")).expect("variant");
    let est = Estimator::new(&loaded.scenario, variant);
    // The element's type byte and name terminator 2, the document's frame 5; `at` 1 + 2 + 1 + 8
    // (a UTC datetime, not the int32 its epoch seconds would fit); `body` 1 + 4 + 1 + a string's
    // 4 + 1,000 + 1.
    let expected = 2 + 5 + (1 + 2 + 1 + 8) + (1 + 4 + 1 + (4 + 1000 + 1));
    let element = est.element_bytes(&variant.embeds[0]);
    assert!((element - f64::from(expected)).abs() < 1e-9, "{element} vs {expected}");
}

/// A lookup of one id picked from a population the puts grow: each read picks among the ids
/// that exist when it is made, every one of which has its item, so it finds one — not the
/// items on average over the run spread over the ids at its end (shard-keys' get-order: 0.5).
/// A population nothing grows keeps its items per member.
#[test]
fn a_lookup_of_an_id_from_a_growing_population_finds_its_item() {
    let source = |orders: u64, keys: &str| {
        format!(
            r#"(
            name: "growing", title: "Growing ids",
            entities: [(name: "Order", attributes: [
                (name: "order_id", type: S, gen: New("orders")),
                (name: "customer_id", type: S, gen: Pick("customers")),
            ])],
            populations: [
                (name: "orders", count: {orders}, ids: "o{{}}"),
                (name: "customers", count: 1000, ids: "c{{}}"),
            ],
            patterns: [
                (name: "place", action: Put, entity: "Order", given: ["customer_id"], rate: 200),
                (name: "get", action: Get, entity: "Order", given: ["order_id"], keys: {keys}, rate: 100),
                (name: "of-customer", action: List, entity: "Order", given: ["customer_id"], rate: 10),
            ],
            variants: [(name: "v",
                keys: {{"Order": (pk: "{{customer_id}}", sk: "{{order_id}}")}},
                indexes: [(name: "by-id", keys: {{"Order": (pk: "{{order_id}}")}})],
            )],
            workload: (duration: "60s", tick: "1s", seed: 3),
        )"#
        )
    };
    // (orders at the start, how the lookup picks, pattern, items per call). A minute of puts
    // adds 12,000 orders; a customer's orders are those a read finds on average over the run,
    // (start + 6,000) over 1,000 customers, as before.
    let cases = [
        (1, "Uniform", "get", 1.0),
        (12_000, "Uniform", "get", 1.0),
        (1, "Zipf(s: 0.9)", "get", 1.0),
        (1, "Uniform", "of-customer", 6.001),
        (12_000, "Uniform", "of-customer", 18.0),
    ];
    for (orders, keys, name, expected) in cases {
        let plan = plan_src(&source(orders, keys), "v");
        let items = pattern(&plan, name).items_read.expect("a read's items");
        assert!(
            (items - expected).abs() < 1e-3 * expected,
            "{orders} orders, {keys}, {name}: {items} items a call, expected {expected}"
        );
    }
}
