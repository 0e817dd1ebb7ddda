//! TTL: expired items stay visible until the sweeper deletes them, for free, with their index
//! entries; rewrites reschedule; expiries over five years old are ignored.

use super::*;

#[test]
fn ttl_items_stay_visible_until_the_sweeper_deletes_them() {
    let table =
        TableSpec { global: vec![gsi("byStatus", "status", None, ProjectionType::KeysOnly)], ..spec("tbl") };
    let mut store = store_with(table);
    store
        .update_time_to_live(&UpdateTimeToLive {
            table: "tbl".into(),
            attribute: "expires".into(),
            enabled: true,
        })
        .unwrap();
    put(
        &mut store,
        item(json!({"PK": {"S": "s"}, "SK": {"S": "1"}, "expires": {"N": "100"}, "status": {"S": "X"}})),
    );
    put(&mut store, item(json!({"PK": {"S": "s"}, "SK": {"S": "2"}, "expires": {"N": "100"}})));
    put(&mut store, item(json!({"PK": {"S": "s"}, "SK": {"S": "3"}, "expires": {"S": "100"}})));
    let delay = DEFAULT_TTL_DELAY.as_secs();
    store.advance_to(SimTime::from_secs(101));
    assert!(get(&store, key("s", "1"), true).item.is_some(), "expired but not yet swept");
    // Item 2 gets a later expiry before the sweep: its old schedule no longer applies.
    put(&mut store, item(json!({"PK": {"S": "s"}, "SK": {"S": "2"}, "expires": {"N": "5000"}})));
    assert_eq!(store.advance_to(SimTime::from_secs(100 + delay - 1)).ttl_deleted, 0);
    let report = store.advance_to(SimTime::from_secs(100 + delay));
    assert_eq!(report.ttl_deleted, 1);
    assert!(get(&store, key("s", "1"), true).item.is_none());
    let t = store.table("tbl").unwrap();
    assert_eq!(t.ttl_deletes(), 1);
    assert_eq!(t.global_indexes()[0].item_count(), 0, "the sweep removes index entries");
    assert_eq!(store.advance_to(SimTime::from_secs(5000 + delay)).ttl_deleted, 1);
    // A string TTL attribute is ignored.
    assert!(get(&store, key("s", "3"), true).item.is_some());
}

#[test]
fn ttl_ignores_expiries_more_than_five_years_old_and_applies_to_existing_items() {
    let mut store = store_with(spec("tbl"));
    let six_years = 6 * 365 * 86_400;
    store.advance_to(SimTime::from_secs(six_years));
    put(&mut store, item(json!({"PK": {"S": "s"}, "SK": {"S": "old"}, "exp": {"N": "10"}})));
    put(&mut store, item(json!({"PK": {"S": "s"}, "SK": {"S": "new"}, "exp": {"N": six_years.to_string()}})));
    // Enabling TTL schedules items already in the table.
    store
        .update_time_to_live(&UpdateTimeToLive {
            table: "tbl".into(),
            attribute: "exp".into(),
            enabled: true,
        })
        .unwrap();
    let report = store.advance_by(SimDuration::from_secs(30 * 86_400));
    assert_eq!(report.ttl_deleted, 1);
    assert!(get(&store, key("s", "old"), true).item.is_some());
    let disable = UpdateTimeToLive { table: "tbl".into(), attribute: "exp".into(), enabled: false };
    store.update_time_to_live(&disable).unwrap();
    assert_eq!(message(store.update_time_to_live(&disable)), "TimeToLive is already disabled");
}
