//! The imported scenario as RON text: the model's keys and indexes as a variant, the guesses
//! marked `GUESS` where a reader sees them.

use std::fmt::Write as _;

use super::infer::slug;
use super::{GUESS_POPULATION, GUESS_RATE, Importer};

impl Importer<'_> {
    pub(super) fn ron(&self) -> String {
        let mut o = String::new();
        let model = &self.model.model_name;
        let _ = writeln!(
            o,
            "// Imported by `keyheat import nwb` from the NoSQL Workbench model {model:?}, table {:?}.",
            self.table.table_name
        );
        o.push_str("// GUESS: the model gives keys, attributes and sample items, not how many items there are or how\n");
        o.push_str("// often each is read or written. Every line marked GUESS is keyheat's guess: set the population\n");
        o.push_str(
            "// counts, the rates and the generators to your application's before trusting a replay.\n",
        );
        o.push_str("// `guess: true` makes `keyheat check` warn about a count or rate until you set it and remove it.\n");
        if !self.notes.is_empty() {
            o.push_str("// Not mapped:\n");
            for note in self.notes.iter() {
                let _ = writeln!(o, "// - {note}");
            }
        }
        o.push_str("(\n");
        let _ = writeln!(o, "    name: {},", ron_str(&slug(model)));
        let _ = writeln!(o, "    title: {},", ron_str(&format!("{model} (imported from NoSQL Workbench)")));
        let description =
            self.model.model_metadata.as_ref().map(|m| m.description.trim()).filter(|d| !d.is_empty());
        let story = match description {
            Some(d) => {
                format!("{d} Imported from NoSQL Workbench: the populations and rates are guesses to set.")
            }
            None => "Imported from NoSQL Workbench: the populations and rates are guesses to set.".to_owned(),
        };
        let _ = writeln!(o, "    story: {},", ron_str(&story));
        o.push_str("    engine: DynamoDB,\n");
        self.entities_text(&mut o);
        self.patterns_text(&mut o);
        self.variant_text(&mut o);
        o.push_str("    workload: (duration: \"1h\", tick: \"1s\", seed: 1, start: \"2025-01-01\"), // GUESS: an hour to start with\n)\n");
        o
    }

    /// `entities` and `populations`.
    fn entities_text(&self, o: &mut String) {
        o.push_str("    entities: [\n");
        for e in &self.entities {
            let _ =
                writeln!(o, "        (\n            name: {},\n            attributes: [", ron_str(&e.name));
            for a in &e.attrs {
                let _ = write!(
                    o,
                    "                (name: {}, type: {}, gen: {}),",
                    ron_str(&a.name),
                    a.ty,
                    a.generator
                );
                if let Some(why) = &a.guess {
                    let _ = write!(o, " // GUESS: {why}");
                }
                o.push('\n');
            }
            o.push_str("            ],\n        ),\n");
        }
        o.push_str("    ],\n    populations: [\n");
        for p in &self.populations {
            let _ = writeln!(
                o,
                "        (name: {}, count: {GUESS_POPULATION}, ids: {}, guess: true), // GUESS: count ({} sample ids in the model)",
                ron_str(&p.name),
                ron_str(&p.ids),
                p.samples
            );
        }
        o.push_str("    ],\n");
    }

    /// A get for every entity, and a put for one nothing else creates.
    fn patterns_text(&self, o: &mut String) {
        o.push_str("    patterns: [\n");
        for e in &self.entities {
            let given = e.key_slots.iter().map(|s| ron_str(s)).collect::<Vec<_>>().join(", ");
            let kebab = slug(&e.name);
            let _ = writeln!(
                o,
                "        (name: {}, description: {}, action: Get, entity: {}, given: [{given}], rate: {GUESS_RATE:?}, guess: true), // GUESS: rate",
                ron_str(&format!("get-{kebab}")),
                ron_str(&format!("Read one {} by its key.", e.name)),
                ron_str(&e.name),
            );
            let owns = e.attrs.iter().any(|a| a.generator.starts_with("New("));
            if !owns {
                let picks: Vec<String> = e
                    .attrs
                    .iter()
                    .filter(|a| a.generator.starts_with("Pick("))
                    .map(|a| ron_str(&a.name))
                    .take(1)
                    .collect();
                let _ = writeln!(
                    o,
                    "        (name: {}, description: {}, action: Put, entity: {}, given: [{}], rate: {GUESS_RATE:?}, guess: true), // GUESS: rate",
                    ron_str(&format!("put-{kebab}")),
                    ron_str(&format!("Write one {}: nothing else creates them.", e.name)),
                    ron_str(&e.name),
                    picks.join(", ")
                );
            }
        }
        o.push_str("    ],\n");
    }

    /// The one variant: the table's keys, the facets' templates, the GSIs.
    fn variant_text(&self, o: &mut String) {
        o.push_str("    variants: [\n        (\n            name: \"imported\",\n");
        let _ = writeln!(
            o,
            "            description: {},",
            ron_str(&format!("The keys of table {} as the model draws them.", self.table.table_name))
        );
        let capacity = match (&self.table.billing_mode.as_deref(), &self.table.provisioned_capacity_settings)
        {
            (Some("PROVISIONED"), Some(s)) => format!(
                "Provisioned(read: {}, write: {})",
                s.provisioned_throughput.read_capacity_units, s.provisioned_throughput.write_capacity_units
            ),
            _ => "OnDemand".to_owned(),
        };
        let _ = writeln!(o, "            capacity: {capacity},");
        let keys = &self.table.key_attributes;
        match &keys.sort_key {
            Some(sk) => {
                let _ = writeln!(
                    o,
                    "            table: (pk: {}, sk: {}),",
                    ron_str(&keys.partition_key.attribute_name),
                    ron_str(&sk.attribute_name)
                );
            }
            None => {
                let _ =
                    writeln!(o, "            table: (pk: {}),", ron_str(&keys.partition_key.attribute_name));
            }
        }
        o.push_str("            keys: {\n");
        for e in &self.entities {
            let _ =
                writeln!(o, "                {}: {},", ron_str(&e.name), keys_ron(&e.pk, e.sk.as_deref()));
        }
        o.push_str("            },\n            indexes: [\n");
        for index in &self.indexes {
            let _ = write!(
                o,
                "                (\n                    name: {},\n                    pk_attribute: {},\n",
                ron_str(&index.name),
                ron_str(&index.pk_attribute)
            );
            if let Some(sk) = &index.sk_attribute {
                let _ = writeln!(o, "                    sk_attribute: {},", ron_str(sk));
            }
            let entries: Vec<String> = index
                .keys
                .iter()
                .map(|(e, pk, sk)| format!("{}: {}", ron_str(e), keys_ron(pk, sk.as_deref())))
                .collect();
            let _ = writeln!(o, "                    keys: {{{}}},", entries.join(", "));
            let _ = writeln!(o, "                    projection: {},", index.projection);
            if let Some((a, v)) = &index.only_when {
                let _ = writeln!(o, "                    only_when: ({}, {}),", ron_str(a), ron_str(v));
            }
            o.push_str("                ),\n");
        }
        o.push_str("            ],\n        ),\n    ],\n");
    }
}

fn keys_ron(pk: &str, sk: Option<&str>) -> String {
    match sk {
        Some(sk) => format!("(pk: {}, sk: {})", ron_str(pk), ron_str(sk)),
        None => format!("(pk: {})", ron_str(pk)),
    }
}

/// A RON string literal.
pub(super) fn ron_str(text: &str) -> String {
    format!("{text:?}")
}
