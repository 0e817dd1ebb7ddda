//! Simulator tests that span modules: the compact table against the reference store and
//! whole-run behaviours (call counts, splits, GSI back-pressure,
//! TTL, retries).

mod aggregates;
mod behaviour;
mod cache;
mod chunks;
mod claims;
mod classes;
mod collisions;
mod conditions;
mod embed;
mod equivalence;
mod fetch;
mod key_update;
mod lag;
mod limit;
mod locate;
mod plain_puts;
mod prefix;
mod retries;
mod shards;
mod split;
mod states;
mod transactions;
mod ttl;
