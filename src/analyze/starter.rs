//! A starter scenario fitted to an analyzed table, as RON text, so the table's own data opens in
//! the workbench (`keyheat check FILE.ron`, `keyheat tui FILE.ron`).
//!
//! Each partition-key shape (`CUSTOMER#…`) becomes a population with as many members as the
//! table has partition keys of that shape, picked by a `Zipf(s)` popularity whose exponent is
//! the one fitted to those partitions' item counts (`Uniform` when it fits under 0.05). Each key
//! shape (partition and sort key together) becomes an entity with as many items as the table
//! has of it: an entity with one item per partition key (a `PROFILE`) owns the partition
//! population (`New`), every other entity owns a population of its own items and picks its
//! partition by the popularity, so the preload spreads its items with the fitted skew. An
//! item's `payload` pads it to the shape's mean size (by the store's item-size rules).
//!
//! The replay keeps every item in memory, so a table past [`MAX_ITEMS`] is scaled down, every
//! count by the same factor: shares, skew and item sizes stay, partition sizes shrink, and the
//! file says by how much. Analyze sees the data, not how it is read: the scenario has no access
//! patterns (the format needs none) and says where to add them.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::shape::Shape;
use super::tally::{Analysis, ShapeRow};
use crate::engine::planner::numbers;
use crate::engine::value::MAX_ITEM_BYTES;

/// Items the starter scenario preloads at most.
pub const MAX_ITEMS: u64 = 1_000_000;
/// An exponent below this is written as `Uniform`.
const UNIFORM_BELOW: f64 = 0.05;
const PAYLOAD: &str = "payload";

struct Population {
    name: String,
    /// The id attribute a partition population's members are written to (`customer_id`).
    attribute: String,
    count: u64,
    width: usize,
    zipf: Option<f64>,
}

struct KeyPart {
    /// The template text.
    template: String,
    /// Bytes of a value the template writes.
    bytes: usize,
}

struct Entity {
    name: String,
    shape: String,
    items: u64,
    /// (name, generator) of the id attributes.
    ids: Vec<(String, String, usize)>,
    pk: KeyPart,
    sk: Option<KeyPart>,
    mean_bytes: f64,
    payload: usize,
}

/// The scenario for `analysis`, named after `table`.
pub fn starter_scenario(analysis: &Analysis, table: &str) -> String {
    let scale = scale(analysis.totals.items);
    let pk_attr = &analysis.keys.partition.attribute;
    let sk_attr = analysis.keys.sort.as_ref().map(|s| s.attribute.as_str());
    let mut used: BTreeSet<String> =
        [pk_attr.clone(), PAYLOAD.to_owned()].into_iter().chain(sk_attr.map(str::to_owned)).collect();
    let mut populations: Vec<Population> = Vec::new();
    // Per partition shape: its population (None for a marker key) and whether an entity owns it.
    let mut groups: Vec<(Shape, Option<usize>, bool)> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    for row in &analysis.partition_shapes {
        let Some((shape, _)) = &row.shape else {
            skipped.push(format!("{} items of key shapes past the first 64 (other)", row.items));
            continue;
        };
        // A marker partition key (`CONFIG`) is one partition: no population to pick from.
        let pop = if let Shape::Marker(_) = shape {
            None
        } else {
            let base = snake(shape.word().unwrap_or(kind_word(shape)));
            let name = unique(&plural(&base), &mut used);
            let attribute = unique(&format!("{base}_id"), &mut used);
            let count = scaled(row.partitions, scale);
            let zipf = row.skew.zipf_s.filter(|&s| s >= UNIFORM_BELOW);
            populations.push(Population { name, attribute, count, width: digits(count), zipf });
            Some(populations.len() - 1)
        };
        groups.push((shape.clone(), pop, false));
    }
    let mut entities: Vec<Entity> = Vec::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    for row in &analysis.shapes {
        let Some((pk_shape, sk_shape)) = &row.shape else {
            if !skipped.iter().any(|s| s.contains("(other)")) {
                skipped.push(format!("{} items of key shapes past the first 64 (other)", row.items));
            }
            continue;
        };
        if sk_attr.is_some() && sk_shape.is_none() {
            skipped.push(format!("{} items of shape {} that have no sort key", row.items, row.partition_key));
            continue;
        }
        let Some(g) = groups.iter().position(|(s, _, _)| s == pk_shape) else { continue };
        entities.push(entity(
            row,
            &mut groups[g],
            sk_shape.as_ref(),
            &mut populations,
            &mut used,
            &mut names,
            scale,
        ));
    }
    for e in &mut entities {
        let ids: usize = e.ids.iter().map(|(name, _, width)| name.len() + width).sum();
        let keys =
            pk_attr.len() + e.pk.bytes + e.sk.as_ref().map_or(0, |sk| sk_attr.map_or(0, str::len) + sk.bytes);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let mean = e.mean_bytes.round() as usize;
        e.payload = mean.saturating_sub(ids + keys + PAYLOAD.len()).clamp(1, MAX_ITEM_BYTES / 2);
    }
    write(analysis, table, scale, &populations, &entities, &skipped)
}

fn label(row: &ShapeRow) -> String {
    match &row.sort_key {
        Some(sk) => format!("{} / {sk}", row.partition_key),
        None => row.partition_key.clone(),
    }
}

fn entity(
    row: &ShapeRow,
    group: &mut (Shape, Option<usize>, bool),
    sk_shape: Option<&Shape>,
    populations: &mut Vec<Population>,
    used: &mut BTreeSet<String>,
    names: &mut BTreeSet<String>,
    scale: f64,
) -> Entity {
    let (pk_shape, pop, taken) = group;
    let one_each = row.items == row.partitions;
    let owner = one_each && !*taken && pop.is_some();
    let mut ids = Vec::new();
    let pk_id = pop.map(|p| {
        let population = &populations[p];
        let attribute = population.attribute.clone();
        let generator = if owner {
            format!("New({:?})", population.name)
        } else {
            format!("Pick({:?})", population.name)
        };
        (attribute, generator, population.width)
    });
    if owner {
        *taken = true;
    }
    let pk = key_part(pk_shape, pk_id.as_ref().map(|(a, _, w)| (a.as_str(), *w)));
    ids.extend(pk_id.clone());
    let sk = match sk_shape {
        None => None,
        // An owner's items are one per partition key: its sort key can reuse the partition's id.
        Some(Shape::Marker(word)) if owner || (one_each && pop.is_none()) => {
            Some(KeyPart { template: literal(word), bytes: word.len() })
        }
        Some(shape) if owner => Some(key_part(shape, pk_id.as_ref().map(|(a, _, w)| (a.as_str(), *w)))),
        Some(shape) => {
            let base = snake(shape.word().unwrap_or("item"));
            let (attribute, width) =
                own_population(&base, scaled(row.items, scale), populations, used, &mut ids);
            let part = match shape {
                // A marker shared by several items of a partition needs an id to stay unique.
                Shape::Marker(word) => KeyPart {
                    template: format!("{}#{{{attribute}}}", literal(word)),
                    bytes: word.len() + 1 + width,
                },
                other => key_part(other, Some((&attribute, width))),
            };
            Some(part)
        }
    };
    if !ids.iter().any(|(_, g, _)| g.starts_with("New(")) {
        // Nothing creates items of a shape keyed by a marker alone (a single partition).
        own_population("item", scaled(row.items, scale), populations, used, &mut ids);
    }
    let word = |s: &Shape| camel(s.word().unwrap_or(kind_word(s)));
    let base = format!("{}{}", word(pk_shape), sk_shape.map(word).unwrap_or_default());
    let name = unique(&base, names);
    Entity {
        name,
        shape: label(row),
        items: row.items,
        ids,
        pk,
        sk,
        mean_bytes: row.mean_item_bytes,
        payload: 0,
    }
}

/// A population of an entity's own items (`orders`, `count` members), and its `New` id attribute
/// pushed onto `ids`; returns the attribute and the width of its values.
fn own_population(
    base: &str,
    count: u64,
    populations: &mut Vec<Population>,
    used: &mut BTreeSet<String>,
    ids: &mut Vec<(String, String, usize)>,
) -> (String, usize) {
    let name = unique(&plural(base), used);
    let attribute = unique(&format!("{base}_id"), used);
    let width = digits(count);
    ids.push((attribute.clone(), format!("New({name:?})"), width));
    populations.push(Population { name, attribute: attribute.clone(), count, width, zipf: None });
    (attribute, width)
}

/// The template for a key of `shape` whose varying part is the attribute `id` (name, width).
fn key_part(shape: &Shape, id: Option<(&str, usize)>) -> KeyPart {
    match (shape, id) {
        (Shape::Marker(word), _) => KeyPart { template: literal(word), bytes: word.len() },
        (Shape::Prefixed { prefix, separator }, Some((id, width))) => KeyPart {
            template: format!("{}{}{{{id}}}", literal(prefix), literal(separator)),
            bytes: prefix.len() + separator.len() + width,
        },
        (_, Some((id, width))) => KeyPart { template: format!("{{{id}}}"), bytes: width },
        (_, None) => KeyPart { template: "KEY".to_owned(), bytes: 3 },
    }
}

/// Literal template text: braces would open a slot, so they are left out.
fn literal(text: &str) -> String {
    text.replace(['{', '}'], "")
}

fn kind_word(shape: &Shape) -> &'static str {
    match shape {
        Shape::Number => "number",
        Shape::Binary => "binary",
        _ => "key",
    }
}

/// The factor every count is multiplied by: 1 up to [`MAX_ITEMS`] items.
fn scale(items: u64) -> f64 {
    if items > MAX_ITEMS { MAX_ITEMS as f64 / items as f64 } else { 1.0 }
}

#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn scaled(count: u64, scale: f64) -> u64 {
    ((count as f64 * scale).round() as u64).max(1)
}

fn digits(count: u64) -> usize {
    count.saturating_sub(1).max(1).to_string().len()
}

/// `customer` → `customers`, `entry` → `entries`: a population's name.
fn plural(word: &str) -> String {
    match word.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) => format!("{stem}ies"),
        _ if word.ends_with('s') || word.ends_with('x') => format!("{word}es"),
        _ => format!("{word}s"),
    }
}

/// `CUSTOMER` → `customer`, `OrderItem` → `orderitem`: a name for a population or an attribute.
fn snake(word: &str) -> String {
    let text: String =
        word.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let text = text.trim_matches('_').to_owned();
    if text.is_empty() { "key".to_owned() } else { text }
}

/// `CUSTOMER` → `Customer`, `order_item` → `OrderItem`: an entity's name.
fn camel(word: &str) -> String {
    snake(word)
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut chars = p.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

/// `base`, or `base2`, `base3`… — the first not in `used`, which takes it.
fn unique(base: &str, used: &mut BTreeSet<String>) -> String {
    let mut name = base.to_owned();
    let mut n = 1;
    while used.contains(&name) {
        n += 1;
        name = format!("{base}{n}");
    }
    used.insert(name.clone());
    name
}

fn write(
    analysis: &Analysis,
    table: &str,
    scale: f64,
    populations: &[Population],
    entities: &[Entity],
    skipped: &[String],
) -> String {
    let mut o = String::new();
    write_header(&mut o, analysis, table, scale, skipped);
    let totals = &analysis.totals;
    o.push_str("(\n");
    let _ = writeln!(o, "    name: {:?},", scenario_name(table));
    let _ = writeln!(o, "    title: {:?},", format!("{table} (fitted by keyheat analyze)"));
    let _ = writeln!(
        o,
        "    story: {:?},",
        format!(
            "The data of table {table}: {} items over {} partition keys, fitted by keyheat analyze. Add the access patterns the application uses.",
            numbers::count(totals.items as f64),
            numbers::count(totals.partitions as f64)
        )
    );
    o.push_str("    engine: DynamoDB,\n    entities: [\n");
    write_entities(&mut o, entities);
    o.push_str("    ],\n    populations: [\n");
    write_populations(&mut o, populations);
    o.push_str("    ],\n    patterns: [],\n    variants: [\n        (\n            name: \"analyzed\",\n");
    write_variant(&mut o, analysis, table, entities);
    o.push_str("    workload: (duration: \"1h\", tick: \"1s\", seed: 1, start: \"2025-01-01\"),\n)\n");
    o
}

/// The comments above the scenario: where it was fitted from, what was measured, how the
/// populations and sizes were fitted, any scaling and what was left out.
fn write_header(o: &mut String, analysis: &Analysis, table: &str, scale: f64, skipped: &[String]) {
    let totals = &analysis.totals;
    let _ = writeln!(
        o,
        "// Fitted by `keyheat analyze` to the data of table {table:?} ({}).",
        analysis.source.path
    );
    let _ = writeln!(
        o,
        "// Measured: {} items in {} partition keys, {}; each entity below is a key shape.",
        numbers::count(totals.items as f64),
        numbers::count(totals.partitions as f64),
        numbers::bytes(totals.bytes as f64)
    );
    o.push_str(
        "// Populations count the partition keys of each shape; their popularity is Zipf(s) with s fitted\n",
    );
    o.push_str(
        "// by least squares on ln(item count) against ln(rank) over those partitions — an estimate.\n",
    );
    o.push_str("// Item sizes are each shape's mean (a `payload` pads the item to it); the spread is not modelled.\n");
    if scale < 1.0 {
        let _ = writeln!(
            o,
            "// SCALED: the replay keeps every item in memory, so every count is the table's × {scale:.6} (at most\n// {MAX_ITEMS} items): shares, skew and item sizes are the table's, partition sizes shrink by that factor."
        );
    }
    for s in skipped {
        let _ = writeln!(o, "// Left out: {s}.");
    }
    o.push_str(
        "// No access patterns: analyze sees the data, not how it is read. Add yours (scenarios/README.md,\n",
    );
    o.push_str("// \"Access patterns\") and `keyheat check` shows how these keys serve them.\n");
}

/// Each entity (one key shape): its id attributes and the payload that pads it to its mean size.
fn write_entities(o: &mut String, entities: &[Entity]) {
    for e in entities {
        let _ = writeln!(o, "        // {}: {} items in the table", e.shape, numbers::count(e.items as f64));
        let _ = writeln!(o, "        (\n            name: {:?},\n            attributes: [", e.name);
        for (name, generator, _) in &e.ids {
            let _ = writeln!(o, "                (name: {name:?}, type: S, gen: {generator}),");
        }
        let _ = writeln!(o, "                (name: {PAYLOAD:?}, type: S, gen: Payload({})),", e.payload);
        o.push_str("            ],\n        ),\n");
    }
}

/// Each population, with its fitted popularity.
fn write_populations(o: &mut String, populations: &[Population]) {
    for p in populations {
        let popularity = match p.zipf {
            Some(s) => format!("Zipf(s: {s:.2})"),
            None => "Uniform".to_owned(),
        };
        let _ = writeln!(
            o,
            "        (name: {:?}, count: {}, ids: {:?}, popularity: {popularity}),",
            p.name,
            p.count,
            format!("{{:0{}}}", p.width)
        );
    }
}

/// The one variant's description, table key and each entity's key templates.
fn write_variant(o: &mut String, analysis: &Analysis, table: &str, entities: &[Entity]) {
    let _ = writeln!(
        o,
        "            description: {:?},",
        format!("The keys of table {table} as its data shows them.")
    );
    let _ = match &analysis.keys.sort {
        Some(sk) => writeln!(
            o,
            "            table: (pk: {:?}, sk: {:?}),",
            analysis.keys.partition.attribute, sk.attribute
        ),
        None => writeln!(o, "            table: (pk: {:?}),", analysis.keys.partition.attribute),
    };
    o.push_str("            keys: {\n");
    for e in entities {
        let _ = match &e.sk {
            Some(sk) => {
                writeln!(o, "                {:?}: (pk: {:?}, sk: {:?}),", e.name, e.pk.template, sk.template)
            }
            None => writeln!(o, "                {:?}: (pk: {:?}),", e.name, e.pk.template),
        };
    }
    o.push_str("            },\n        ),\n    ],\n");
}

/// A scenario name from a table's: lowercase letters, digits and `-`.
fn scenario_name(table: &str) -> String {
    let mut out = String::new();
    for c in table.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_owned();
    if out.is_empty() { "analyzed".to_owned() } else { out }
}
