//! Write patterns: the request, whether the caller can compute the key, and every item one call
//! writes — the table item, each index entry, each denormalized copy and each maintained
//! aggregate — which is the write amplification.

use super::dialect::Term;
use super::estimate::Estimator;
use super::keys;
use super::verdict::{LocateRead, Locating, NameGap, Naming, Verdict, WriteVerdict, Writes};
use super::{IndexId, ItemWrite, Kind, Lands, Operation, PatternPlan, Via, WriteTarget};
use crate::engine::model::{
    AccessPattern, Action, Aggregate, AggregateOp, AttrId, Condition, Embed, Entity, EntityId, EntityKeys,
    Index, ItemAttr,
};
use crate::engine::profile::Metering;
use crate::engine::store::EntryWrite;
use crate::engine::template::Template;

pub fn plan(est: &Estimator<'_>, p: &AccessPattern) -> PatternPlan {
    let variant = est.variant;
    // A put of an embedded child appends it to its parent item; embedded whole, that update is
    // the only write, and the caller knows the child's reference to its parent.
    let embed = variant.embed_of(p.entity_id()).filter(|_| p.action == Action::Put);
    let whole = embed.filter(|e| e.keep_latest.is_none());
    let written = whole.map_or(p.entity_id(), Embed::into_id);
    let keys =
        variant.keys_for(written).expect("the loader checked that every written entity has table keys");
    let with_parent;
    let p_named = match whole {
        Some(e) => {
            // Its names are the parent's but its ids stay the child's: whatever reads this
            // stand-in follows names (the entity whose keys it reads is `written`).
            with_parent = AccessPattern {
                entity: e.into.clone(),
                given: p.given.iter().cloned().chain([e.by.clone()]).collect(),
                ..p.clone()
            };
            &with_parent
        }
        None => p,
    };
    let moved = moved_key_attributes(p, keys);
    let mut out = PatternPlan {
        operation: Some(operation(p, whole.is_some(), &moved)),
        ..PatternPlan::start(p, Kind::Write, est.secs)
    };
    let gap = if p.action != Action::Put || whole.is_some() {
        name_the_item(est, p_named, written, keys, &mut out).err()
    } else {
        None
    };
    if whole.is_none() && !moved.is_empty() {
        moving(est, p, &moved, &mut out.writes);
    } else if whole.is_none() {
        own_item(est, p, &mut out.writes);
    }
    if let Some(embed) = embed {
        embedding(est, p, embed, &mut out.writes);
    }
    copies(est, p, &mut out.writes);
    aggregates(est, p, &mut out.writes);
    if p.transaction {
        transaction(est, &mut out);
    }
    out.units_per_call = out.writes.iter().map(|w| w.per_call * w.units_each).sum();
    out.claim = super::condition::claim(est, p);
    if let Some(c) = out.claim.as_ref().filter(|_| p.transaction) {
        // A taken claim cancels the transaction: charged the claim's failed write alone.
        out.units_per_call =
            (1.0 - c.failure_rate) * out.units_per_call + c.failure_rate * c.failed_units_each;
    }
    out.condition = super::condition::plan(est, p);
    charge_condition(p, &mut out);
    // The base item itself is the one write that is not amplification, and an index entry
    // that is no item (MongoDB's) is none either, as a run counts them.
    // (A fold from 0.0: an empty f64 sum is -0.0.)
    let engine = est.scenario.engine;
    out.write_amplification = Some(
        out.writes.iter().skip(1).filter(|w| w.target.is_item(engine)).fold(0.0, |sum, w| sum + w.per_call),
    );
    decide(est, p, gap, &mut out);
    out
}

/// The write's verdict: served when the caller names the item, or when an update or delete
/// finds it first with a direct lookup. The read first is planned here: a Query whose key the
/// givens make finds the item alone, and the write is two direct requests; a Scan, or a Query
/// that reads a partition for it, leaves it unserved, at a cost that grows with the data.
fn decide(est: &Estimator<'_>, p: &AccessPattern, gap: Option<NameGap>, out: &mut PatternPlan) {
    let writes = Writes {
        targets: out
            .writes
            .iter()
            .filter(|w| w.per_call > 0.0)
            .map(|w| (w.target.clone(), w.per_call))
            .collect(),
        items: out.items_written(est.scenario.engine),
        engine: est.scenario.engine,
    };
    let naming = match gap {
        None => Naming::Named(writes),
        Some(gap) if matches!(p.action, Action::Update | Action::Delete) => {
            let locate = super::read::plan(est, &p.locating());
            let alone = locate.items_read.is_some_and(|n| n <= 1.5);
            let then = (locate.served() && locate.filter.is_none() && alone).then_some(writes);
            let naming = Naming::Unnamed { gap, locate: Some(locating(est, &locate)), then };
            out.locate = Some(Box::new(locate));
            naming
        }
        Some(gap) => Naming::Unnamed { gap, locate: None, then: None },
    };
    out.verdict =
        Verdict::Write(WriteVerdict { naming, transaction: p.transaction, engine: est.scenario.engine });
}

/// What the read an update or delete sends first to learn its key costs: the requests, where,
/// the items they read and their read units, per call.
fn locating(est: &Estimator<'_>, locate: &PatternPlan) -> LocateRead {
    if locate.operation.is_none() {
        return LocateRead::NotFound(Box::new(locate.verdict.clone()));
    }
    LocateRead::Found(Locating {
        requests: locate.requests(|op| super::verb(est.language, op)),
        scan: locate.operation == Some(Operation::Scan),
        index: locate.index.clone(),
        items: locate.items_read.unwrap_or(0.0),
        units: locate.units_per_call,
        engine: est.scenario.engine,
    })
}

/// The request a write sends: an append to an embedding parent is an UpdateItem of it, and an
/// update that moves the item's key (`moved`) a delete and a put.
fn operation(p: &AccessPattern, appends_to_parent: bool, moved: &[&str]) -> Operation {
    match p.action {
        Action::Put if appends_to_parent => Operation::UpdateItem,
        Action::Put => Operation::PutItem,
        Action::Update if !moved.is_empty() => Operation::DeleteAndPut,
        Action::Update => Operation::UpdateItem,
        Action::Delete => Operation::DeleteItem,
        Action::Get | Action::List => unreachable!("read patterns are planned by `read`"),
    }
}

/// Why a write writes an item, with the figures its words quote: `report::findings` words it
/// (and writes it as `why` in `check`'s JSON).
#[derive(Debug, Clone, PartialEq)]
pub enum WriteWhy {
    /// The pattern's own `entity` item, of `bytes`.
    Item { entity: String, bytes: f64 },
    /// The DeleteItem of an item at its old key: the update sets `moved`, part of the table key.
    MovedFrom { entity: String, bytes: f64, moved: Vec<String> },
    /// The PutItem of the item at its new key.
    MovedTo { entity: String, bytes: f64 },
    /// An index entry.
    Entry(EntryWhy),
    /// An embedded child (`child`, ~`child_bytes`) appended to its `parent`'s `list` (~`bytes`
    /// on average), keeping the newest `kept` or all of them.
    Append { parent: String, child: String, child_bytes: f64, list: String, kept: Option<u32>, bytes: f64 },
    /// `copies` copies of `attribute` on `holder` items to rewrite: `holders` of them × the
    /// share referring to the source the pattern picks (`picked`: the share and how it is
    /// picked), or ÷ the `sources` of `source` there are.
    Copies {
        holders: f64,
        holder: String,
        picked: Option<(f64, String)>,
        sources: f64,
        source: String,
        copies: f64,
        attribute: String,
    },
    /// One write of the `entity` aggregate item: a claim's create-once put recording these
    /// attributes, or an update of each (`attribute +1`, `attribute +summed`).
    Aggregate { entity: String, claim: bool, updates: Vec<(String, AggregateOp)> },
    /// A table item of a transaction, written twice (prepare and commit).
    Transacted(Box<WriteWhy>),
}

/// Why an index entry is written, and how often.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryWhy {
    pub rewrite: EntryRewrite,
    /// An update that decides whether the item is in a sparse index.
    pub membership: Option<Membership>,
    /// The share of `entity`'s items in a sparse index, when below 1.
    pub sparse: Option<(f64, String)>,
    /// The bytes of one entry.
    pub bytes: f64,
    /// The item moves (a key update): its entry is deleted and put again.
    pub moving: bool,
}

/// What one write does to an item's entry; `odds`: the share of updates that change what it
/// looks at, when a fresh draw can repeat the value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EntryRewrite {
    KeyChanges { odds: Option<f64> },
    ProjectedChanges { odds: Option<f64> },
    Unchanged,
    OnePerItem,
}

/// An update of the attribute a sparse index selects on.
#[derive(Debug, Clone, PartialEq)]
pub enum Membership {
    /// It advances a lifecycle one state: the item enters the index on `enter` of updates
    /// (from `from`, or from nothing) and leaves on `leave`.
    Advances { attribute: String, states: Vec<String>, enter: f64, from: Option<String>, leave: f64 },
    /// It redraws the attribute: the item enters or leaves on `moves` of updates.
    Redraws { attribute: String, moves: f64 },
}

/// The pattern's own item in the table and its entries in every index that holds it.
fn own_item(est: &Estimator<'_>, p: &AccessPattern, writes: &mut Vec<ItemWrite>) {
    let item_bytes = est.item_bytes(p.entity_id());
    writes.push(ItemWrite {
        target: WriteTarget::Table,
        per_call: 1.0,
        units_each: est.metering.write_for(item_bytes, p.action == Action::Update),
        why: WriteWhy::Item { entity: p.entity.clone(), bytes: item_bytes },
        lands: Lands { entity: p.entity_id(), via: Via::Own },
    });
    // A version check sets its version too (`SET version = version + 1`).
    let mut sets = p.sets.clone();
    let mut set_attrs: Vec<Option<ItemAttr>> = p.sets_ids().iter().map(|&a| Some(ItemAttr::Own(a))).collect();
    if let Some(Condition::Version(v)) = &p.condition {
        sets.push(v.clone());
        set_attrs.push(p.version_id().map(ItemAttr::Own));
    }
    let own = est.entity(p.entity_id());
    for position in 0..est.variant.indexes.len() {
        if let Some(w) = index_write(est, p, position, own, (&sets, &set_attrs), &WriteTarget::Table) {
            writes.push(w);
        }
    }
}

/// Adds what a conditional write's failures cost to the units per call (`out.condition` is
/// planned): a cancelled transaction, as a lone write, is charged its failed condition (see
/// `transaction`).
fn charge_condition(p: &AccessPattern, out: &mut PatternPlan) {
    let Some(c) = &out.condition else { return };
    let failed = c.failure_rate * c.failed_units_each;
    out.units_per_call = match p.condition {
        // A refused put writes nothing but the charge.
        Some(Condition::NotExists) => (1.0 - c.failure_rate) * out.units_per_call + failed,
        // A lost race is charged, then its retry writes as any call does.
        _ => out.units_per_call + failed,
    };
}

/// Makes the call one transaction. On DynamoDB, one TransactWriteItems: its table items (its
/// own, and the aggregate items it maintains) are each written twice, once to prepare the
/// transaction and once to commit it (AWS developer guide, "Amazon DynamoDB Transactions: How it
/// works", capacity management). Index entries are not part of it: the committed items' changes
/// propagate to the GSIs afterwards, charged once. A transaction cancelled by a failed condition
/// is charged for that item as a failed conditional write, its other items nothing: keyheat's
/// reading, since AWS does not say what a cancelled transaction consumes. MongoDB meters no
/// units: a multi-document transaction writes each document once, and commits them together.
fn transaction(est: &Estimator<'_>, out: &mut PatternPlan) {
    out.operation = Some(Operation::TransactWriteItems);
    if est.scenario.engine.profile().metering != Metering::Units {
        return;
    }
    for w in out.writes.iter_mut().filter(|w| w.target.index().is_none()) {
        w.units_each *= 2.0;
        w.why = WriteWhy::Transacted(Box::new(w.why.clone()));
    }
}

/// The attributes an update sets that are part of the entity's table key.
pub fn moved_key_attributes<'p>(p: &'p AccessPattern, keys: &EntityKeys) -> Vec<&'p str> {
    if p.action != Action::Update {
        return Vec::new();
    }
    let keyed =
        |s: &str| keys.pk.attributes().chain(keys.sk.iter().flat_map(Template::attributes)).any(|a| a == s);
    p.sets.iter().map(String::as_str).filter(|s| keyed(s)).collect()
}

/// An update that sets a key attribute moves the item: DynamoDB refuses an UpdateItem that
/// changes a key attribute ("Cannot update attribute …. This attribute is part of the key"), so
/// the application deletes the item and puts it at its new key — two writes of the whole item,
/// and every index entry of it deleted and written again.
fn moving(est: &Estimator<'_>, p: &AccessPattern, moved: &[&str], writes: &mut Vec<ItemWrite>) {
    let item_bytes = est.item_bytes(p.entity_id());
    let own = || Lands { entity: p.entity_id(), via: Via::Own };
    writes.push(ItemWrite {
        target: WriteTarget::Table,
        per_call: 1.0,
        units_each: est.metering.write_for(item_bytes, false),
        why: WriteWhy::MovedFrom {
            entity: p.entity.clone(),
            bytes: item_bytes,
            moved: moved.iter().map(|&m| m.to_owned()).collect(),
        },
        lands: own(),
    });
    writes.push(ItemWrite {
        target: WriteTarget::Table,
        per_call: 1.0,
        units_each: est.metering.write_for(item_bytes, false),
        why: WriteWhy::MovedTo { entity: p.entity.clone(), bytes: item_bytes },
        lands: own(),
    });
    let put = AccessPattern { action: Action::Put, ..p.clone() };
    for position in 0..est.variant.indexes.len() {
        if let Some(mut w) =
            index_write(est, &put, position, est.entity(p.entity_id()), (&[], &[]), &WriteTarget::Table)
        {
            w.per_call *= 2.0;
            if let WriteWhy::Entry(entry) = &mut w.why {
                entry.moving = true;
            }
            writes.push(w);
        }
    }
}

/// An update or delete (or an append to an embedding parent) names the item by its full key;
/// the caller must be able to compute it, and then the key condition is set. A constant
/// attribute (`Text(…)`) is known to every caller.
fn name_the_item(
    est: &Estimator<'_>,
    p: &AccessPattern,
    written: EntityId,
    keys: &EntityKeys,
    out: &mut PatternPlan,
) -> Result<(), NameGap> {
    let variant = est.variant;
    let known = super::read::with_constants(est, written, p);
    let sk_known = keys.sk.as_ref().is_none_or(|sk| sk.attributes().all(|a| known.knows(a)));
    match keys::reach(&known, &keys.pk, true, est.secs) {
        Err(why) => Err(NameGap::Key(why)),
        Ok(_) if !sk_known => Err(NameGap::SortKey {
            key: keys.sk.as_ref().map_or("", Template::source).to_owned(),
            missing: keys
                .sk
                .iter()
                .flat_map(Template::attributes)
                .filter(|a| !known.knows(a))
                .map(str::to_owned)
                .collect(),
        }),
        Ok(_) => {
            let mut terms = keys::partition_condition(&keys.pk, &variant.table_pk, est.language);
            match (&keys.sk, &variant.table_sk) {
                (Some(_), Some(name)) if !est.language.key_columns() => terms.push(Term::equals(name, "sk")),
                (Some(sk), _) => {
                    terms.extend(
                        sk.parts().iter().filter_map(keys::cql_column).map(|c| Term::equals(c, "sk")),
                    );
                }
                (None, _) => {}
            }
            out.key_condition = est.language.filter(&terms);
            Ok(())
        }
    }
}

/// The entries one write of `entity` makes in `index`: a put or delete writes one entry when the
/// item is in the index; an update rewrites the entry when it changes a projected attribute and
/// deletes + puts it (2) when it changes the index key (AWS GSI docs). `position` is the index's
/// in the variant; `of` is the item whose entry it is (the pattern's own, a copy, ...).
fn index_write(
    est: &Estimator<'_>,
    p: &AccessPattern,
    position: usize,
    entity: &Entity,
    (sets, set_attrs): (&[String], &[Option<ItemAttr>]),
    of: &WriteTarget,
) -> Option<ItemWrite> {
    let index = &est.variant.indexes[position];
    let keys = index.keys_for(entity.id())?;
    let presence = presence_in(est, p, index, entity.id());
    if presence == 0.0 {
        return None;
    }
    // An update that redraws the attribute a sparse index selects on moves the item in or out
    // of it: in before (the index's share s) and out after, or the reverse, is one entry
    // write (a delete or a put) on 2s(1 − s) of updates; in both times, the entry is rewritten
    // as below.
    let membership = match (p.action, &index.only_when) {
        (Action::Update, Some((attribute, _))) if sets.contains(attribute) => Some(attribute.as_str()),
        _ => None,
    };
    let (per_item, rewrite) = entry_rewrites(est, p, index, keys, entity.id(), (sets, set_attrs), membership);
    let (per_call, membership) = match membership {
        Some(attribute) => {
            let (per_call, moves) = membership_writes(est, index, entity.id(), attribute, presence, per_item);
            (per_call, Some(moves))
        }
        None => (per_item * presence, None),
    };
    let bytes = est.entry_bytes(Some(index), entity.id());
    let why = EntryWhy {
        rewrite,
        membership,
        sparse: (presence < 1.0).then(|| (presence, entity.name.clone())),
        bytes,
        moving: false,
    };
    Some(ItemWrite {
        target: WriteTarget::Entry { index: IndexId::new(position, index), of: Box::new(of.clone()) },
        per_call,
        units_each: est.metering.write_for(bytes, false),
        why: WriteWhy::Entry(why),
        lands: Lands { entity: entity.id(), via: of.via() },
    })
}

/// The share of `entity`'s items in `index` when `p` writes them. A put whose `equals` fixes a
/// sparse index's attribute is all in it or none of it; so is a put that starts a lifecycle in
/// its first state.
fn presence_in(est: &Estimator<'_>, p: &AccessPattern, index: &Index, entity: EntityId) -> f64 {
    let put_of_own = p.action == Action::Put && entity == p.entity_id();
    if put_of_own
        && let Some((attribute, value)) = &index.only_when
        && let Some((_, fixed)) = p.equals.iter().find(|(a, _)| a == attribute)
    {
        if fixed == value { est.key_presence(entity, index) } else { 0.0 }
    } else if put_of_own
        && let Some((_, value)) = &index.only_when
        && let Some(selects) = index.only_when_id(entity).map(ItemAttr::Own)
        && let Some(first) = super::transition::states(est, entity, selects).and_then(<[String]>::first)
    {
        // A lifecycle starts in its first state: a put is in the sparse index or not at all.
        if first == value { est.key_presence(entity, index) } else { 0.0 }
    } else {
        est.presence(entity, Some(index))
    }
}

/// Entry writes per item in the index and why: an update that changes the index key deletes
/// and puts the entry, one that changes only a projected attribute rewrites it, a put or delete
/// writes one. `membership` is the sparse index's selecting attribute when the update redraws
/// it (`membership_writes` counts those moves, so it is not part of the key here).
fn entry_rewrites(
    est: &Estimator<'_>,
    p: &AccessPattern,
    index: &Index,
    keys: &EntityKeys,
    entity: EntityId,
    (sets, set_attrs): (&[String], &[Option<ItemAttr>]),
    membership: Option<&str>,
) -> (f64, EntryRewrite) {
    let key_attrs: Vec<&str> = keys
        .pk
        .attributes()
        .chain(keys.sk.iter().flat_map(Template::attributes))
        .chain(index.only_when.iter().map(|(a, _)| a.as_str()))
        .filter(|a| Some(*a) != membership)
        .collect();
    // A fresh draw can repeat the value the item holds: then the entry stays as it is.
    let changes = |which: &dyn Fn(&str) -> bool| {
        let attrs = sets.iter().zip(set_attrs).filter(|(s, _)| which(s)).map(|(_, a)| *a);
        // An attribute the items do not carry (none is so set) takes a new value.
        1.0 - attrs.map(|a| 1.0 - a.map_or(1.0, |a| est.change_share(entity, a))).product::<f64>()
    };
    let key_change = changes(&|s| key_attrs.contains(&s));
    // Given the key stays, the entry is rewritten for the projected attributes outside it.
    let carried_change = changes(&|s| index.projection.carries(s) && !key_attrs.contains(&s));
    let odds = |share: f64| (share < 1.0 - 1e-9).then_some(share);
    // The store's rule per entry (`EntryWrite`), weighted by how often each case happens.
    let writes = |w: EntryWrite| f64::from(w.writes());
    match p.action {
        Action::Update if key_change > 0.0 => (
            writes(EntryWrite::Move) * key_change
                + (1.0 - key_change) * carried_change * writes(EntryWrite::InPlace),
            EntryRewrite::KeyChanges { odds: odds(key_change) },
        ),
        Action::Update if carried_change > 0.0 => (
            carried_change * writes(EntryWrite::InPlace),
            EntryRewrite::ProjectedChanges { odds: odds(carried_change) },
        ),
        Action::Update => (0.0, EntryRewrite::Unchanged),
        Action::Delete => (writes(EntryWrite::Delete), EntryRewrite::OnePerItem),
        _ => (writes(EntryWrite::Put), EntryRewrite::OnePerItem),
    }
}

/// Entry writes per call, and why, for an update that redraws `attribute`, which decides what
/// the sparse index holds: the item enters or leaves it, or stays in and is rewritten
/// (`per_item`, for `why`). A lifecycle moves one state at a time; any other attribute is a
/// fresh draw, in with the index's share `presence`.
fn membership_writes(
    est: &Estimator<'_>,
    index: &Index,
    entity: EntityId,
    attribute: &str,
    presence: f64,
    per_item: f64,
) -> (f64, Membership) {
    let selects = index.only_when_id(entity).map(ItemAttr::Own);
    if let Some(value) = index.only_when.as_ref().map(|(_, v)| v)
        && let Some(selects) = selects
        && let Some(states) = super::transition::states(est, entity, selects)
        && let Some(found) = super::transition::found(est, entity, selects)
    {
        // A lifecycle moves one step: the item enters the index from the state before `value`
        // and leaves it from `value` itself, unless `value` is final (it then stays in).
        let k = states.iter().position(|s| s == value).unwrap_or(0);
        let last = states.len() - 1;
        let enter = if k > 0 { found[k - 1] } else { 0.0 };
        let (leave, stay) = if k < last { (found[k], 0.0) } else { (0.0, found[k]) };
        let keyed = est.key_presence(entity, index);
        let per_call = keyed * (enter + leave + stay * per_item);
        let why = Membership::Advances {
            attribute: attribute.to_owned(),
            states: states.to_vec(),
            enter,
            from: (k > 0).then(|| states[k - 1].clone()),
            leave,
        };
        return (per_call, why);
    }
    let moves = 2.0 * presence * (1.0 - presence);
    (moves + presence * presence * per_item, Membership::Redraws { attribute: attribute.to_owned(), moves })
}

/// A put of an embedded child is an UpdateItem of its parent that appends it to the list
/// (charged, like any update, by the larger of the item before and after), plus the parent's
/// index entries that project the list.
fn embedding(est: &Estimator<'_>, p: &AccessPattern, embed: &Embed, writes: &mut Vec<ItemWrite>) {
    let bytes = est.item_bytes(embed.into_id());
    let element = est.element_bytes(embed);
    writes.push(ItemWrite {
        target: WriteTarget::List(embed.as_name.clone()),
        per_call: 1.0,
        units_each: est.metering.write_for(bytes, true),
        why: WriteWhy::Append {
            parent: embed.into.clone(),
            child: embed.entity.clone(),
            child_bytes: element,
            list: embed.as_name.clone(),
            kept: embed.keep_latest,
            bytes,
        },
        lands: Lands { entity: embed.into_id(), via: Via::Append },
    });
    // A multikey index over the list: one entry for a child whose key value the list lacks.
    for (position, ix) in est.variant.indexes.iter().enumerate() {
        let Some(keys) =
            ix.keys_for(embed.entity_id()).filter(|_| est.variant.multikey_of(ix) == Some(embed))
        else {
            continue;
        };
        let repeat = est.spread(Some(ix), keys.pk_bound(), None).typical;
        writes.push(ItemWrite {
            target: WriteTarget::Entry {
                index: IndexId::new(position, ix),
                of: Box::new(WriteTarget::List(embed.as_name.clone())),
            },
            per_call: est.multikey_new_share(embed, repeat),
            units_each: 0.0,
            why: WriteWhy::Entry(EntryWhy {
                rewrite: EntryRewrite::OnePerItem,
                membership: None,
                sparse: None,
                bytes: est.entry_bytes(Some(ix), embed.entity_id()),
                moving: false,
            }),
            lands: Lands { entity: embed.into_id(), via: Via::Append },
        });
    }
    let sets = [embed.as_name.clone()];
    let same = |e: &&Embed| {
        e.entity_id() == embed.entity_id() && e.into_id() == embed.into_id() && e.as_name == embed.as_name
    };
    let appended = est.variant.embeds.iter().position(|e| same(&e)).map(ItemAttr::List);
    let update = AccessPattern { action: Action::Update, sets: sets.to_vec(), ..p.clone() };
    let list = WriteTarget::List(embed.as_name.clone());
    for position in 0..est.variant.indexes.len() {
        if let Some(w) =
            index_write(est, &update, position, est.entity(embed.into_id()), (&sets, &[appended]), &list)
            && w.per_call > 0.0
        {
            writes.push(w);
        }
    }
}

/// An update of a copied attribute rewrites it on every item holding a copy.
fn copies(est: &Estimator<'_>, p: &AccessPattern, writes: &mut Vec<ItemWrite>) {
    if p.action != Action::Update {
        return;
    }
    let rewritten = |a: Option<AttrId>| a.is_some_and(|a| p.sets_ids().contains(&a));
    let all = est.variant.copies.iter().enumerate();
    for (i, copy) in all.filter(|(_, c)| c.ids.from() == p.entity_id() && rewritten(c.ids.attribute())) {
        let Some(from_keys) = est.variant.keys_for(copy.ids.from()) else { continue };
        // A call rewrites the copies there are when it runs: on average over the run, the
        // items the entity starts with and half of those the run adds.
        let holders = est.items_mean(copy.ids.to());
        let bytes = est.item_bytes(copy.ids.to());
        // The source the update picks holds as many copies as its popularity gave it; without
        // a population to weigh, the average source.
        let picked = est.copy_share(p, copy);
        let sources = match &picked {
            Some(_) => 1.0,
            None => est.spread(None, from_keys.pk_bound(), None).distinct.max(1.0),
        };
        let per_source = picked.as_ref().map_or(holders / sources, |(share, _)| holders * share);
        let why = WriteWhy::Copies {
            holders,
            holder: copy.to.clone(),
            picked,
            sources,
            source: copy.from.clone(),
            copies: per_source,
            attribute: copy.attribute.clone(),
        };
        writes.push(ItemWrite {
            target: WriteTarget::Copy { entity: copy.to.clone(), attribute: copy.as_name.clone() },
            per_call: per_source,
            units_each: est.metering.write_for(bytes, true),
            why,
            lands: Lands { entity: copy.ids.to(), via: Via::Copy },
        });
        let copied = WriteTarget::Copy { entity: copy.to.clone(), attribute: copy.as_name.clone() };
        for position in 0..est.variant.indexes.len() {
            let sets = [copy.as_name.clone()];
            let fake = AccessPattern { action: Action::Update, sets: sets.to_vec(), ..p.clone() };
            let holder = est.entity(copy.ids.to());
            if let Some(mut w) =
                index_write(est, &fake, position, holder, (&sets, &[Some(ItemAttr::Copy(i))]), &copied)
                && w.per_call > 0.0
            {
                w.per_call *= per_source;
                writes.push(w);
            }
        }
    }
}

/// Every write of a triggering pattern updates the aggregate item (and its index entries).
/// Aggregates of one entity that the same write maintains live on the same item (its key comes
/// from the triggering item), so one UpdateItem does them all (`orders += 1, spend += total`).
fn aggregates(est: &Estimator<'_>, p: &AccessPattern, writes: &mut Vec<ItemWrite>) {
    let mine: Vec<&Aggregate> = est.variant.aggregates.iter().filter(|a| a.ids.on(p.id())).collect();
    let mut entities: Vec<&Entity> = Vec::new();
    for a in &mine {
        if !entities.iter().any(|e| e.id() == a.ids.entity()) {
            entities.push(est.entity(a.ids.entity()));
        }
    }
    for e in entities {
        let entity = e.name.as_str();
        let group: Vec<&Aggregate> = mine.iter().copied().filter(|a| a.ids.entity() == e.id()).collect();
        let bytes = est.item_bytes(e.id());
        // A claim's item holds the claim alone (the loader checks): a create-once put of it.
        let claim = group.iter().any(|a| a.op == AggregateOp::Claim);
        let why = WriteWhy::Aggregate {
            entity: entity.to_owned(),
            claim,
            updates: group.iter().map(|a| (a.attribute.clone(), a.op.clone())).collect(),
        };
        let aggregate = WriteTarget::Aggregate(group.iter().map(|a| a.name.clone()).collect());
        writes.push(ItemWrite {
            target: aggregate.clone(),
            per_call: 1.0,
            units_each: est.metering.write_for(bytes, !claim),
            why,
            lands: Lands { entity: e.id(), via: Via::Aggregate },
        });
        let sets: Vec<String> = group.iter().map(|a| a.attribute.clone()).collect();
        let set_attrs: Vec<Option<ItemAttr>> =
            group.iter().map(|a| a.ids.attribute().map(ItemAttr::Own)).collect();
        let action = if claim { Action::Put } else { Action::Update };
        let update = AccessPattern { action, sets: sets.clone(), ..p.clone() };
        for position in 0..est.variant.indexes.len() {
            if let Some(w) = index_write(est, &update, position, e, (&sets, &set_attrs), &aggregate)
                && w.per_call > 0.0
            {
                writes.push(w);
            }
        }
    }
}
