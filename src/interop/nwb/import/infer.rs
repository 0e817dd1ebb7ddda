//! What sample values show: a key template from key values (`CUSTOMER#c01` →
//! `CUSTOMER#{customer_id}`), the attribute a slot reads, an id format, the value that makes an
//! index sparse, a generator for a value attribute. Pure functions of the samples.

use std::collections::BTreeSet;

use super::text::ron_str;
use crate::engine::model::{AttrType, format_id, id_format_is_valid};
use crate::engine::number::Number;
use crate::engine::template::{Part, Template};
use crate::engine::value::{AttributeValue, Item};

/// `Orders App` → `orders-app`.
pub(super) fn slug(text: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if c.is_ascii_uppercase() && previous_lower {
            out.push('-');
        }
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
            previous_lower = false;
        }
    }
    let out = out.trim_matches('-').to_owned();
    if out.is_empty() { "imported".to_owned() } else { out }
}

/// `CustomerId` → `customer_id`, `ORDER` → `order`: a name a template slot can hold.
pub(super) fn snake(text: &str) -> String {
    slug(text).replace('-', "_")
}

/// An alias that is a keyheat template with at least one slot.
pub(super) fn alias_template(alias: &str) -> Option<Template> {
    if !alias.contains('{') {
        return None;
    }
    Template::parse(alias).ok().filter(|t| t.attributes().next().is_some() || t.fanout() > 1)
}

/// The alias as literal text.
pub(super) fn constant(alias: &str) -> Template {
    let text = if alias.is_empty() { "KEY" } else { alias };
    Template::from_parts(vec![Part::Literal(text.to_owned())]).unwrap_or_else(|_| {
        Template::parse("KEY").unwrap_or_else(|_| unreachable!("a plain word is a template"))
    })
}

/// A key value's text (S as is, N canonical, B base64), as templates write it.
pub(super) fn key_text(value: &AttributeValue) -> Option<String> {
    value.as_key().map(|k| match k {
        crate::engine::value::KeyValue::S(s) => s,
        other => other.to_string(),
    })
}

pub(super) fn descriptor(value: &AttributeValue) -> &'static str {
    match value {
        AttributeValue::S(_) => "S",
        AttributeValue::N(_) => "N",
        AttributeValue::B(_) => "B",
        AttributeValue::Bool(_) => "BOOL",
        AttributeValue::Null => "NULL",
        AttributeValue::L(_) => "L",
        AttributeValue::M(_) => "M",
        AttributeValue::Ss(_) => "SS",
        AttributeValue::Ns(_) => "NS",
        AttributeValue::Bs(_) => "BS",
    }
}

pub(super) fn number(value: &AttributeValue) -> Option<f64> {
    match value {
        AttributeValue::N(n) => n.to_string().parse().ok(),
        _ => None,
    }
}

/// A number attribute that holds times: named so, or every sample is epoch seconds of
/// 2001–2096.
pub(super) fn is_time(name: &str, numbers: &[f64]) -> bool {
    let named = name.ends_with("_at")
        || name.ends_with("_time")
        || name.ends_with("At")
        || name == "ttl"
        || name.ends_with("expires");
    named || (!numbers.is_empty() && numbers.iter().all(|n| (1e9..4e9).contains(n) && n.fract() == 0.0))
}

/// An attribute whose values are ids (text), not numbers or times.
pub(super) fn is_id(items: &[Item], attribute: &str) -> bool {
    items.iter().filter_map(|i| i.get(attribute)).all(|v| matches!(v, AttributeValue::S(_)))
}

pub(super) fn mean_size(values: &[&AttributeValue], default: u32) -> u32 {
    if values.is_empty() {
        return default;
    }
    let total: usize = values.iter().map(|v| v.size()).sum();
    u32::try_from(total.div_ceil(values.len())).unwrap_or(u32::MAX).max(1)
}

/// `c01`, `c02`, `c17` → `c{:02}`; `None` when the ids are not a prefix and digits.
pub(super) fn id_format(samples: &[String]) -> Option<String> {
    let first = samples.first()?;
    let digits_at = first.find(|c: char| c.is_ascii_digit())?;
    let prefix = &first[..digits_at];
    let width = first.len() - digits_at;
    let fits = |s: &String| {
        s.len() == prefix.len() + width
            && s.starts_with(prefix)
            && s[prefix.len()..].bytes().all(|b| b.is_ascii_digit())
    };
    if !samples.iter().all(fits) || prefix.contains(['{', '}']) {
        return None;
    }
    let format = if width > 1 { format!("{prefix}{{:0{width}}}") } else { format!("{prefix}{{}}") };
    (id_format_is_valid(&format) && format_id(&format, 0).len() == prefix.len() + width.max(1))
        .then_some(format)
}

/// Matches `value` against the template's literal structure: each slot takes the text up to the
/// next literal (the last, the rest). The slots' texts, or `None`.
pub(super) fn match_template(template: &Template, value: &str) -> Option<Vec<String>> {
    let mut rest = value;
    let mut slots = Vec::new();
    let parts = template.parts();
    for (i, part) in parts.iter().enumerate() {
        if let Part::Literal(text) = part {
            rest = rest.strip_prefix(text.as_str())?;
            continue;
        }
        let end = match parts.get(i + 1) {
            Some(Part::Literal(next)) => rest.find(next.as_str())?,
            _ => rest.len(),
        };
        if end == 0 {
            return None;
        }
        slots.push(rest[..end].to_owned());
        rest = &rest[end..];
    }
    rest.is_empty().then_some(slots)
}

/// The template the values of `attribute` on `items` show (see the module documentation).
/// `numeric`: the key attribute is N (a template of one slot keeps the number).
pub(super) fn infer(
    items: &[&Item],
    attribute: &str,
    alias: &str,
    numeric: bool,
    key_names: &[String],
) -> Template {
    let values: Vec<String> = items.iter().filter_map(|i| i.get(attribute)).filter_map(key_text).collect();
    if numeric {
        let name = matching_attribute(items, &values, key_names).map_or_else(|| snake(alias), |(n, _)| n);
        return Template::from_parts(vec![Part::Attr { name, pad: None }])
            .unwrap_or_else(|_| constant(alias));
    }
    let split: Vec<Vec<&str>> = values.iter().map(|v| v.split('#').collect()).collect();
    let count = split[0].len();
    let segments: Vec<Vec<String>> = if split.iter().all(|s| s.len() == count) {
        (0..count).map(|p| split.iter().map(|s| s[p].to_owned()).collect()).collect()
    } else {
        vec![values.clone()]
    };
    let varying: Vec<usize> =
        (0..segments.len()).filter(|&p| segments[p].iter().any(|s| *s != segments[p][0])).collect();
    let mut parts = Vec::new();
    let mut used: Vec<String> = Vec::new();
    for (p, texts) in segments.iter().enumerate() {
        if p > 0 {
            parts.push(Part::Literal("#".to_owned()));
        }
        let attribute = matching_attribute(items, texts, key_names);
        // A constant is text, unless it is the whole value and an attribute holds it (a sparse
        // index keyed by `{status}` whose samples are all PENDING).
        if !varying.contains(&p) && (segments.len() > 1 || attribute.is_none()) {
            parts.push(Part::Literal(texts[0].clone()));
            continue;
        }
        let (mut name, pad) = attribute.unwrap_or_else(|| {
            let previous = p.checked_sub(1).filter(|q| !varying.contains(q)).map(|q| segments[q][0].as_str());
            let name = match previous {
                Some(literal) if literal.chars().any(|c| c.is_ascii_alphabetic()) => {
                    format!("{}_id", snake(literal))
                }
                _ if varying.len() == 1 => snake(alias),
                _ => format!("{}_{}", snake(alias), p + 1),
            };
            (name, None)
        });
        while used.contains(&name) {
            name.push('_');
        }
        used.push(name.clone());
        parts.push(Part::Attr { name, pad });
    }
    Template::from_parts(parts).unwrap_or_else(|_| constant(alias))
}

/// An attribute (not a key attribute) whose value on every item is the segment's text, or its
/// number zero-padded to the segment's width: its name and padding.
pub(super) fn matching_attribute(
    items: &[&Item],
    texts: &[String],
    key_names: &[String],
) -> Option<(String, Option<u8>)> {
    let candidates: BTreeSet<&String> =
        items.iter().flat_map(|i| i.keys()).filter(|k| !key_names.contains(k)).collect();
    for name in candidates {
        let values: Option<Vec<&AttributeValue>> = items.iter().map(|i| i.get(name)).collect();
        let Some(values) = values else { continue };
        if values.iter().zip(texts).all(|(v, t)| key_text(v).as_deref() == Some(t.as_str())) {
            return Some((name.clone(), None));
        }
        // `{x:0W}` pads the whole part to W digits and keeps any fraction (`000000008606.05`).
        let whole = |t: &str| t.split_once('.').map_or(t.len(), |(w, _)| w.len());
        let width = whole(&texts[0]);
        let padded =
            texts.iter().all(|t| whole(t) == width && t.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
                && values.iter().zip(texts).all(
                    |(v, t)| matches!(v, AttributeValue::N(n) if Number::parse(t).is_ok_and(|m| m == *n)),
                );
        if padded && width > 1 {
            return Some((name.clone(), u8::try_from(width).ok()));
        }
    }
    None
}

/// The attribute value that sets the items carrying `key` apart from the rest, if one does; of
/// several, the attribute with the fewest distinct values (a status, not an address).
pub(super) fn gate(items: &[Item], key: &str, key_names: &[String]) -> Option<(String, String)> {
    let (carrying, rest): (Vec<&Item>, Vec<&Item>) = items.iter().partition(|i| i.contains_key(key));
    let first = carrying.first()?;
    let distinct = |name: &str| {
        items
            .iter()
            .filter_map(|i| i.get(name))
            .collect::<Vec<_>>()
            .iter()
            .fold(Vec::<&AttributeValue>::new(), |mut seen, v| {
                if !seen.contains(v) {
                    seen.push(v);
                }
                seen
            })
            .len()
    };
    first
        .iter()
        .filter(|(n, _)| !key_names.contains(n))
        .filter_map(|(name, value)| {
            let AttributeValue::S(text) = value else { return None };
            let same = carrying.iter().all(|i| i.get(name) == Some(value));
            let apart = rest.iter().all(|i| i.get(name) != Some(value));
            (same && apart && !rest.is_empty()).then(|| (distinct(name), name.clone(), text.clone()))
        })
        .min()
        .map(|(_, name, text)| (name, text))
}

/// Distinct whole-number samples up to which a number is drawn from the samples themselves.
const MAX_SAMPLED_WHOLES: usize = 12;

/// A number generator (RON) for the samples of a number attribute, and why. Generated numbers
/// keep two decimals and an item's size counts a number's digits, so whole-number samples are
/// drawn as the values they are (each as often as it appears) while there are few of them, and
/// one value is `Fixed`; only a wide spread of values falls back to a range.
fn number_generator(numbers: &[f64]) -> (String, &'static str) {
    let Some((lo, hi)) =
        numbers.iter().copied().reduce(f64::min).zip(numbers.iter().copied().reduce(f64::max))
    else {
        return ("Number(Uniform(0.0, 100.0))".to_owned(), "no samples");
    };
    // Samples are compared exactly: they are the model's own numbers, not computed ones.
    if lo.total_cmp(&hi).is_eq() {
        return (format!("Number(Fixed({lo:?}))"), "the samples' one value");
    }
    let whole = numbers.iter().all(|n| n.fract() == 0.0);
    let mut distinct: Vec<f64> = numbers.to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    if whole && distinct.len() <= MAX_SAMPLED_WHOLES {
        let weights: Vec<String> = distinct
            .iter()
            .map(|v| {
                format!(
                    "({:?}, Fixed({v:?}))",
                    numbers.iter().filter(|n| n.total_cmp(v).is_eq()).count() as f64
                )
            })
            .collect();
        return (
            format!("Number(Weighted([{}]))", weights.join(", ")),
            "the samples' whole numbers, as often as they appear",
        );
    }
    let guess = if whole {
        "uniform over the samples' range, with two decimals where the samples are whole numbers (a number's size counts its digits)"
    } else {
        "uniform over the samples' range"
    };
    (format!("Number(Uniform({lo:?}, {hi:?}))"), guess)
}

/// A generator for a value attribute of DynamoDB type `ty` from its sample values: the keyheat
/// type, the generator (RON) and why it is a guess; `Err(ty)` for a type keyheat does not model.
pub(super) fn generator<'t>(
    name: &str,
    ty: &'t str,
    values: &[&AttributeValue],
) -> Result<(AttrType, String, &'static str), &'t str> {
    Ok(match ty {
        "N" => {
            let numbers: Vec<f64> = values.iter().filter_map(|v| number(v)).collect();
            if is_time(name, &numbers) {
                (AttrType::Time, "Now".to_owned(), "a time: the write's")
            } else {
                let (generator, guess) = number_generator(&numbers);
                (AttrType::N, generator, guess)
            }
        }
        "BOOL" => {
            let trues = values.iter().filter(|v| matches!(v, AttributeValue::Bool(true))).count();
            let share = if values.is_empty() { 0.5 } else { trues as f64 / values.len() as f64 };
            (AttrType::Bool, format!("Chance({share:?})"), "the samples' share of true")
        }
        "B" => (AttrType::B, format!("Payload({})", mean_size(values, 16)), "the samples' mean size"),
        "S" => {
            let texts: Vec<&str> = values
                .iter()
                .filter_map(|v| match v {
                    AttributeValue::S(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect();
            let distinct: BTreeSet<&str> = texts.iter().copied().collect();
            // A few values that repeat are a category (a status); anything else is text.
            if !distinct.is_empty() && distinct.len() <= 5 && distinct.len() < texts.len().max(2) {
                let weights: Vec<String> = distinct
                    .iter()
                    .map(|v| {
                        format!("({}, {:?})", ron_str(v), texts.iter().filter(|t| *t == v).count() as f64)
                    })
                    .collect();
                (
                    AttrType::S,
                    format!("OneOf([{}])", weights.join(", ")),
                    "the samples' values, as often as they appear",
                )
            } else {
                (AttrType::S, format!("Payload({})", mean_size(values, 16)), "text of the samples' mean size")
            }
        }
        other => return Err(other),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(pairs: &[(&str, AttributeValue)]) -> Item {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
    }

    fn s(text: &str) -> AttributeValue {
        AttributeValue::s(text)
    }

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(Number::parse(text).unwrap())
    }

    #[test]
    fn templates_are_recovered_from_sample_values() {
        let keys = vec!["PK".to_owned(), "SK".to_owned()];
        let cases: Vec<(Vec<Item>, &str, &str)> = vec![
            // A new id, named after the literal before it.
            (
                vec![item(&[("PK", s("CUSTOMER#c01"))]), item(&[("PK", s("CUSTOMER#c02"))])],
                "CustomerId",
                "CUSTOMER#{customer_id}",
            ),
            // A constant.
            (vec![item(&[("PK", s("PROFILE"))]), item(&[("PK", s("PROFILE"))])], "Profile", "PROFILE"),
            // An attribute the items carry, zero-padded.
            (
                vec![
                    item(&[("PK", s("ITEM#001")), ("line", n("1"))]),
                    item(&[("PK", s("ITEM#012")), ("line", n("12"))]),
                ],
                "Line",
                "ITEM#{line:03}",
            ),
            // Padded with a fraction kept.
            (
                vec![
                    item(&[("PK", s("000000008606.05")), ("spend", n("8606.05"))]),
                    item(&[("PK", s("000000000006.3")), ("spend", n("6.3"))]),
                ],
                "Spend",
                "{spend:012}",
            ),
            // An attribute the items carry, as it is.
            (
                vec![
                    item(&[("PK", s("U#ann#x")), ("user", s("ann"))]),
                    item(&[("PK", s("U#bob#x")), ("user", s("bob"))]),
                ],
                "User",
                "U#{user}#x",
            ),
            // Shapes that differ: one slot named after the alias.
            (vec![item(&[("PK", s("a#b"))]), item(&[("PK", s("c"))])], "OrderKey", "{order_key}"),
        ];
        for (items, alias, expected) in cases {
            let refs: Vec<&Item> = items.iter().collect();
            assert_eq!(infer(&refs, "PK", alias, false, &keys).source(), expected, "{alias}");
        }
    }

    #[test]
    fn template_matching_takes_each_slot_up_to_the_next_literal() {
        let t = Template::parse("ORDER#{order_id}#{line}").unwrap();
        assert_eq!(match_template(&t, "ORDER#o1#7"), Some(vec!["o1".to_owned(), "7".to_owned()]));
        assert_eq!(match_template(&t, "CUSTOMER#o1#7"), None);
        assert_eq!(match_template(&t, "ORDER##7"), None);
    }

    #[test]
    fn id_formats_follow_the_samples() {
        let ids = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(id_format(&ids(&["c01", "c17"])), Some("c{:02}".to_owned()));
        assert_eq!(id_format(&ids(&["o7"])), Some("o{}".to_owned()));
        assert_eq!(id_format(&ids(&["c01", "x17"])), None);
        assert_eq!(id_format(&ids(&["alice"])), None);
    }

    #[test]
    fn numbers_are_guessed_from_their_samples() {
        let cases: &[(&[&str], &str)] = &[
            (&[], "Number(Uniform(0.0, 100.0))"),
            // One value, however often: that value, not a range around it.
            (&["1", "1", "1"], "Number(Fixed(1.0))"),
            (&["2.5"], "Number(Fixed(2.5))"),
            // Few whole numbers: each as often as the samples hold it.
            (&["1", "3", "1"], "Number(Weighted([(2.0, Fixed(1.0)), (1.0, Fixed(3.0))]))"),
            // Fractions, or whole numbers too many to list: their range.
            (&["1.5", "7.25"], "Number(Uniform(1.5, 7.25))"),
            (
                &["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"],
                "Number(Uniform(1.0, 13.0))",
            ),
        ];
        for (samples, expected) in cases {
            let values: Vec<AttributeValue> = samples.iter().map(|t| n(t)).collect();
            let refs: Vec<&AttributeValue> = values.iter().collect();
            let (ty, generator, _) = generator("copies", "N", &refs).unwrap();
            assert_eq!((ty, generator.as_str()), (AttrType::N, *expected), "{samples:?}");
        }
    }

    #[test]
    fn names_become_slugs_and_slot_names() {
        assert_eq!(slug("Orders App"), "orders-app");
        assert_eq!(snake("CustomerId"), "customer_id");
        assert_eq!(snake("ORDER"), "order");
        assert_eq!(slug("!!"), "imported");
    }

    #[test]
    fn a_gate_is_the_value_only_the_indexed_items_share() {
        let keys = vec!["GSI1PK".to_owned()];
        let items = vec![
            item(&[("status", s("PENDING")), ("GSI1PK", s("PENDING"))]),
            item(&[("status", s("SHIPPED"))]),
            item(&[("status", s("PENDING")), ("GSI1PK", s("PENDING"))]),
        ];
        assert_eq!(gate(&items, "GSI1PK", &keys), Some(("status".to_owned(), "PENDING".to_owned())));
        // One indexed item is told apart by its unique address too; the status has fewer values.
        let mut one = vec![items[0].clone(), items[1].clone(), items[1].clone()];
        for (i, it) in one.iter_mut().enumerate() {
            it.insert("address".to_owned(), s(&format!("street {i}")));
        }
        assert_eq!(gate(&one, "GSI1PK", &keys), Some(("status".to_owned(), "PENDING".to_owned())));
        let mixed = vec![item(&[("status", s("A")), ("GSI1PK", s("x"))]), item(&[("status", s("A"))])];
        assert_eq!(gate(&mixed, "GSI1PK", &keys), None);
    }
}
