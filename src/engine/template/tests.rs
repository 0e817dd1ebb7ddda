use proptest::prelude::*;

use super::*;
use crate::engine::number::Number;

fn attr(name: &str) -> Part {
    Part::Attr { name: name.into(), pad: None }
}

fn lit(text: &str) -> Part {
    Part::Literal(text.into())
}

fn days(n: u64) -> SimDuration {
    SimDuration::from_secs(n * 86_400)
}

fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

fn num(text: &str) -> AttributeValue {
    AttributeValue::N(Number::parse(text).unwrap())
}

#[test]
fn parses_every_slot_form() {
    let time = |f: &str| TimeFormat::parse(f).unwrap();
    let cases = [
        ("USER#{user_id}", vec![lit("USER#"), attr("user_id")]),
        ("{user_id}", vec![attr("user_id")]),
        ("{ user_id }", vec![attr("user_id")]),
        ("{score:010}", vec![Part::Attr { name: "score".into(), pad: Some(10) }]),
        ("{sent_at:%Y-%m}#x", vec![Part::Time { name: "sent_at".into(), format: time("%Y-%m") }, lit("#x")]),
        ("{ts:%H:%M}", vec![Part::Time { name: "ts".into(), format: time("%H:%M") }]),
        (
            "{c}#{bucket(sent_at, 10d)}",
            vec![attr("c"), lit("#"), Part::Bucket { name: "sent_at".into(), width: days(10) }],
        ),
        ("{bucket( ts ,1h )}", vec![Part::Bucket { name: "ts".into(), width: SimDuration::from_secs(3600) }]),
        ("C#{shard(8)}", vec![lit("C#"), Part::Shard { count: 8 }]),
        ("{shard(10000)}", vec![Part::Shard { count: 10_000 }]),
        (
            "{shard(100)}{hash(d, 100)}",
            vec![Part::Shard { count: 100 }, Part::Hash { name: "d".into(), count: 100 }],
        ),
        ("{hash(device_id, 16)}", vec![Part::Hash { name: "device_id".into(), count: 16 }]),
        ("{{literal}} {a}{b}", vec![lit("{literal} "), attr("a"), attr("b")]),
        ("}}{{", vec![lit("}{")]),
        ("STATIC", vec![lit("STATIC")]),
        ("é{name-2_b}ü", vec![lit("é"), attr("name-2_b"), lit("ü")]),
    ];
    for (source, parts) in cases {
        let template = Template::parse(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        assert_eq!(template.parts(), parts.as_slice(), "{source}");
        assert_eq!(template.source(), source);
        assert_eq!(template.to_string(), source);
    }
}

/// The slot-form table is what the parser dispatches on and what the editor's cheat sheet shows:
/// every example in it parses, and its slot is of the form that lists it.
#[test]
fn every_slot_form_in_the_table_parses_its_own_example() {
    let mut names: Vec<&str> = SLOT_FORMS.iter().map(|f| f.name).collect();
    names.dedup();
    assert_eq!(names.len(), SLOT_FORMS.len(), "form names are unique");
    for form in SLOT_FORMS {
        let template = Template::parse(form.example).unwrap_or_else(|e| panic!("{}: {e}", form.example));
        let forms: Vec<&str> = template.parts().iter().filter_map(SlotForm::of).map(|f| f.name).collect();
        assert_eq!(forms.last(), Some(&form.name), "{}: {forms:?}", form.example);
        // The syntax parses too once its placeholders are filled in.
        let filled = form.syntax.replace("attr", "a").replace('N', "4");
        let part = Template::parse(&filled).unwrap_or_else(|e| panic!("{filled}: {e}")).parts()[0].clone();
        assert_eq!(SlotForm::of(&part).map(|f| f.name), Some(form.name), "{filled}");
        assert_eq!(form.function().is_some(), form.syntax.contains('('), "{}", form.syntax);
    }
}

#[test]
fn reports_errors_at_their_byte_offset() {
    // (source, offset, words the message must contain)
    let cases = [
        ("", 0, "cannot be empty"),
        ("USER#{user_id", 5, "unclosed `{`"),
        ("USER#user_id}", 12, "unmatched `}`"),
        ("a{}", 1, "empty slot"),
        ("a{  }", 1, "empty slot"),
        ("{a{b}}", 2, "`{` inside a slot"),
        ("é{user id}", 7, "unexpected ` ` after `user`"),
        ("{naïve}", 3, "unexpected `ï`"),
        ("{user_id:10}", 9, "zero-pad width"),
        ("{user_id:0}", 9, "zero-pad width"),
        ("{user_id:041}", 9, "1 to 40 digits"),
        ("{user_id:0x}", 9, "zero-pad width"),
        ("{user_id:}", 9, "zero-pad width"),
        ("{ts:%Y-%Q}", 7, "unknown time directive %Q"),
        ("{ts:%}", 4, "lone %"),
        ("{shard()}", 1, "shard(N)"),
        ("{shard(0)}", 7, "count from 1"),
        ("{shard(-1)}", 7, "count from 1"),
        ("{shard(+8)}", 7, "count from 1"),
        // Counts are bounded: each is a request for a reader who does not know the shard.
        ("{shard(10001)}", 7, "a shard count is at most 10,000"),
        ("{shard(1000000000)}", 7, "at most 10,000: a reader who does not know the shard asks every one"),
        ("{shard(4294967295)}", 7, "at most 10,000"),
        ("{shard(99999999999999999999999)}", 7, "at most 10,000"),
        ("{hash(d, 100000)}", 9, "a shard count is at most 10,000"),
        // And so is their product: the second slot takes it past the limit.
        ("A{shard(100)}#{hash(d, 101)}", 14, "10,100 keys in all"),
        ("{shard(10000)}{shard(2)}", 14, "at most 10,000"),
        ("{shard(8, 9)}", 1, "shard(N)"),
        ("{shard(8}", 8, "expected `)`"),
        ("{hash(device_id)}", 1, "hash(attr, N)"),
        ("{hash(device id, 8)}", 12, "attribute name"),
        ("{hash(d, x)}", 9, "count from 1"),
        ("{bucket(ts, 10)}", 12, "not a duration"),
        ("{bucket(ts, 0d)}", 12, "longer than zero"),
        ("{bucket(, 1d)}", 1, "bucket(attr, 10d)"),
        ("{buckets(ts, 1d)}", 1, "unknown function `buckets`"),
        ("x{(8)}", 2, "expected an attribute name"),
    ];
    for (source, offset, words) in cases {
        let error = Template::parse(source).expect_err(source);
        assert_eq!(error.offset, offset, "{source}: {error}");
        assert!(error.message.contains(words), "{source}: {error}");
        assert!(error.to_string().ends_with(&format!("(at byte {offset})")), "{error}");
    }
}

fn classes(by: &str, cases: &[(&str, Part)], other: Part) -> Part {
    let cases = cases.iter().map(|(v, p)| ((*v).to_owned(), p.clone())).collect();
    Part::Class(Box::new(ClassSlot { by: by.into(), cases, other }))
}

#[test]
fn parses_class_slots() {
    let hour = SimDuration::from_secs(3600);
    let bucket = |width| Part::Bucket { name: "at".into(), width };
    let cases = [
        (
            "T#{tenant_id}#{shard(by: tenant_id, tenant-0000 = 16, else = 1)}",
            vec![
                lit("T#"),
                attr("tenant_id"),
                lit("#"),
                classes("tenant_id", &[("tenant-0000", Part::Shard { count: 16 })], Part::Shard { count: 1 }),
            ],
        ),
        (
            "{shard(by: kind, big = 8, v1.2 = 4, else = 2)}",
            vec![classes(
                "kind",
                &[("big", Part::Shard { count: 8 }), ("v1.2", Part::Shard { count: 4 })],
                Part::Shard { count: 2 },
            )],
        ),
        (
            "{d}#{bucket(at, by: d, dev-00 = 1h, else = 30d)}",
            vec![attr("d"), lit("#"), classes("d", &[("dev-00", bucket(hour))], bucket(days(30)))],
        ),
        ("{bucket( at ,by:d,x=1h,else=30d )}", vec![classes("d", &[("x", bucket(hour))], bucket(days(30)))]),
    ];
    for (source, parts) in cases {
        let template = Template::parse(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        assert_eq!(template.parts(), parts.as_slice(), "{source}");
        // The canonical source reads back to the same parts.
        let again = Template::from_parts(parts.clone()).unwrap_or_else(|e| panic!("{source}: {e}"));
        assert_eq!(again.parts(), parts.as_slice(), "{source}");
    }
    let whale = Template::parse("{t}#{bucket(at, by: d, x = 1h, else = 30d)}").unwrap();
    assert_eq!(whale.attributes().collect::<Vec<_>>(), ["t", "d", "at"]);
    assert_eq!(whale.fanout(), 1);
    let sharded = Template::parse("{shard(by: t, a = 16, b = 4, else = 1)}").unwrap();
    assert_eq!(sharded.fanout(), 16, "a reader who does not know the class asks the largest class's shards");
    let special = sharded.specialized(|c| c.case(Some("b")).clone());
    assert_eq!((special.source(), special.fanout()), ("{shard(4)}", 4));
}

#[test]
fn class_slot_errors_point_at_their_place() {
    let cases = [
        ("{shard(by: t)}", 1, "no class value is listed"),
        ("{shard(by: t, a = 8)}", 19, "expected `else = …` last"),
        ("{shard(by: t, else = 1, a = 8)}", 24, "`else = …` comes last"),
        ("{shard(by: t, a = 8, a = 4, else = 1)}", 21, "listed twice"),
        ("{shard(by: t, a = 0, else = 1)}", 18, "count from 1"),
        ("{shard(by: t, a = 10001, else = 1)}", 18, "at most 10,000"),
        ("{shard(by: t, a 8, else = 1)}", 14, "expected `value = …`"),
        ("{shard(by: t, a b = 8, else = 1)}", 15, "letters, digits, _, - and . only"),
        ("{shard(by: t, = 8, else = 1)}", 14, "expected a class value"),
        ("{shard(by: t, a =, else = 1)}", 17, "expected a value after `a =`"),
        ("{shard(by:, a = 1, else = 1)}", 10, "class attribute's name after `by:`"),
        ("{shard(by t, a = 1, else = 1)}", 7, "by: class_attr"),
        ("{shard(by: t u, a = 1, else = 1)}", 12, "attribute name"),
        ("{bucket(at, by: d, x = 0d, else = 1d)}", 23, "longer than zero"),
        ("{bucket(at, by: d, x = 1h, else = 5)}", 34, "not a duration"),
        ("{shard(by: t, a = 10000, else = 1)}{shard(2)}", 35, "at most 10,000"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(source, offset, words)| {
            let error = Template::parse(source).expect_err(source);
            (error.offset != *offset || !error.message.contains(words)).then(|| format!("{source}: {error}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_class_slot_expands_by_its_class_value() {
    let template = Template::parse("T#{tenant_id}#{shard(by: tenant_id, big = 8, else = 1)}").unwrap();
    let key = |tenant: &str, draw: u32| {
        template.expand(&item(&[("tenant_id", AttributeValue::s(tenant))]), &mut |n| draw % n)
    };
    // (tenant, the writer's draw, key): the listed value takes its draw among 8 shards, any
    // other value its one shard, whatever the draw.
    let cases = [("big", 5, "T#big#5"), ("big", 13, "T#big#5"), ("small", 5, "T#small#0"), ("b", 7, "T#b#0")];
    for (tenant, draw, want) in cases {
        assert_eq!(key(tenant, draw), Some(KeyValue::S(want.into())), "{tenant}");
    }
    let buckets = Template::parse("{d}#{bucket(at, by: kind, 7 = 1h, else = 30d)}").unwrap();
    let at = |kind: AttributeValue| {
        buckets
            .expand(&item(&[("d", AttributeValue::s("x")), ("kind", kind), ("at", num("7200"))]), &mut |_| 0)
    };
    // A number class is matched by its canonical text.
    assert_eq!(at(num("7")), Some(KeyValue::S("x#2".into())));
    assert_eq!(at(num("8")), Some(KeyValue::S("x#0".into())));
    assert_eq!(at(AttributeValue::Bool(true)), None, "a class the key cannot read makes no key");
    assert_eq!(buckets.expand(&item(&[("d", AttributeValue::s("x")), ("at", num("1"))]), &mut |_| 0), None);
}

#[test]
fn expands_items_into_keys() {
    let full = item(&[
        ("user_id", AttributeValue::s("u-42")),
        ("score", num("1234")),
        ("neg", num("-3")),
        ("frac", num("12.5")),
        ("sent_at", num("1709280309")), // 2024-03-01T08:05:09Z
        ("early", num("-1.5")),         // 1969-12-31T23:59:58.5Z
        ("blob", AttributeValue::B(vec![0xde, 0xad, 0xbe, 0xef])),
        ("flag", AttributeValue::Bool(true)),
        ("label", AttributeValue::s("2024-03-01")),
    ]);
    let s = |text: &str| Some(KeyValue::S(text.into()));
    let cases = [
        ("USER#{user_id}", s("USER#u-42")),
        ("{user_id}", s("u-42")),
        ("{score}", Some(KeyValue::N(Number::from_i64(1234)))),
        ("{blob}", Some(KeyValue::B(vec![0xde, 0xad, 0xbe, 0xef]))),
        ("B#{blob}", s("B#3q2+7w==")),
        ("{score:06}", s("001234")),
        ("{score:03}", s("1234")),
        ("{neg:04}", s("-9997")),
        ("{frac:04}", s("0012.5")),
        ("{user_id:06}", s("u-42")),
        ("{sent_at:%Y-%m}", s("2024-03")),
        ("D#{sent_at:%F %T}", s("D#2024-03-01 08:05:09")),
        ("{early:%F %T}", s("1969-12-31 23:59:58")),
        ("{bucket(sent_at, 10d)}", s("1978")), // 1709280309 / 864000 = 1978.3
        ("{bucket(sent_at, 1h)}", s("474800")),
        ("{bucket(early, 1s)}", s("-2")),
        ("{hash(user_id, 1)}", s("0")),
        ("{score}#{user_id}", s("1234#u-42")),
        ("{{{user_id}}}", s("{u-42}")),
        ("STATIC", s("STATIC")),
        // Missing attributes and unreadable types: no key.
        ("USER#{missing}", None),
        ("{missing}", None),
        ("{flag}", None),
        ("X{flag}", None),
        ("{label:%Y}", None),
        ("{bucket(label, 1d)}", None),
        ("{hash(flag, 4)}", None),
        ("{missing:010}", None),
    ];
    for (source, expected) in cases {
        let template = Template::parse(source).unwrap();
        let key = template.expand(&full, &mut |_| panic!("no shard slot in {source}"));
        assert_eq!(key, expected, "{source}");
    }
}

#[test]
fn hashes_the_canonical_bytes() {
    let template = Template::parse("{hash(id, 1000)}").unwrap();
    let cases = [
        (AttributeValue::s("sensor-1"), hash_bytes(b"sensor-1") % 1000),
        (num("042.50"), hash_bytes(b"42.5") % 1000),
        (AttributeValue::B(vec![1, 2, 3]), hash_bytes(&[1, 2, 3]) % 1000),
    ];
    for (value, shard) in cases {
        let key = template.expand(&item(&[("id", value.clone())]), &mut |_| 0).unwrap();
        assert_eq!(key, KeyValue::S(shard.to_string()), "{value:?}");
        // The same bytes the store hashes a key value by.
        let as_key = value.as_key().unwrap();
        assert_eq!(hash_bytes(&as_key.hash_bytes()) % 1000, shard);
    }
}

#[test]
fn draws_write_shards_from_the_caller() {
    let template = Template::parse("C#{shard(8)}#{hash(id, 4)}").unwrap();
    let counter = item(&[("id", AttributeValue::s("likes"))]);
    let hash = hash_bytes(b"likes") % 4;
    let mut asked = Vec::new();
    for draw in [0, 7, 8, 13] {
        let key = template.expand(&counter, &mut |n| {
            asked.push(n);
            draw
        });
        assert_eq!(key, Some(KeyValue::S(format!("C#{}#{hash}", draw % 8))));
    }
    assert_eq!(asked, [8, 8, 8, 8]);
}

#[test]
fn expands_into_a_reused_buffer() {
    let template = Template::parse("{a}#{b:05}").unwrap();
    let mut out = String::from("stale text");
    assert!(template.expand_into(
        &item(&[("a", AttributeValue::s("x")), ("b", num("7"))]),
        &mut |_| 0,
        &mut out
    ));
    assert_eq!(out, "x#00007");
    let capacity = out.capacity();
    assert!(!template.expand_into(&item(&[("a", AttributeValue::s("x"))]), &mut |_| 0, &mut out));
    assert_eq!(out, "");
    // Accessor form: values from anywhere, no Item needed.
    let b = num("42");
    assert!(!template.expand_with(|name| (name == "b").then_some(&b), &mut |_| 0, &mut out));
    let a = AttributeValue::s("y");
    assert!(template.expand_with(|name| if name == "a" { Some(&a) } else { Some(&b) }, &mut |_| 0, &mut out));
    assert_eq!(out, "y#00042");
    assert!(out.capacity() >= capacity);
}

#[test]
fn describes_itself_to_the_planner() {
    // (source, attributes, literal prefix, fan-out, single attribute)
    let cases = [
        ("USER#{user_id}", vec!["user_id"], "USER#", 1, None),
        ("{user_id}", vec!["user_id"], "", 1, Some("user_id")),
        ("{user_id:05}", vec!["user_id"], "", 1, None),
        ("MSG#{c}#{bucket(ts, 1d)}#{ts:%H}#{c}", vec!["c", "ts"], "MSG#", 1, None),
        ("C#{shard(8)}#{hash(d, 4)}", vec!["d"], "C#", 32, None),
        ("{shard(100)}{shard(100)}", vec![], "", 10_000, None),
        ("{{x}}", vec![], "{x}", 1, None),
    ];
    for (source, attributes, prefix, fanout, single) in cases {
        let template = Template::parse(source).unwrap();
        assert_eq!(template.attributes().collect::<Vec<_>>(), attributes, "{source}");
        assert_eq!(template.literal_prefix(), prefix, "{source}");
        assert_eq!(template.fanout(), fanout, "{source}");
        assert_eq!(template.single_attribute(), single, "{source}");
    }
}

#[test]
fn builds_from_parts_and_reads_from_text() {
    let template = Template::from_parts(vec![
        lit("MSG#{"),
        attr("channel"),
        lit(""),
        lit("#"),
        Part::Bucket { name: "ts".into(), width: days(10) },
    ])
    .unwrap();
    assert_eq!(template.source(), "MSG#{{{channel}#{bucket(ts, 10d)}");
    let bad = [
        vec![],
        vec![attr("two words")],
        vec![Part::Shard { count: 0 }],
        vec![Part::Bucket { name: "ts".into(), width: SimDuration::ZERO }],
        vec![Part::Time { name: "ts".into(), format: TimeFormat::parse("no directive").unwrap() }],
        vec![Part::Time { name: "ts".into(), format: TimeFormat::parse("%Y}").unwrap() }],
        vec![Part::Attr { name: "n".into(), pad: Some(0) }],
    ];
    for parts in bad {
        assert!(Template::from_parts(parts.clone()).is_err(), "{parts:?}");
    }
    let json = serde_json::to_string(&template).unwrap();
    assert_eq!(json, r#""MSG#{{{channel}#{bucket(ts, 10d)}""#);
    assert_eq!(serde_json::from_str::<Template>(&json).unwrap(), template);
    let error = serde_json::from_str::<Template>(r#""{shard(0)}""#).unwrap_err();
    assert!(error.to_string().contains("count from 1"), "{error}");
}

fn name() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_-]{0,6}"
}

fn part() -> impl Strategy<Value = Part> {
    prop_oneof![
        "[^{}]{1,5}|\\{|\\}".prop_map(Part::Literal),
        (name(), proptest::option::of(1..=MAX_PAD)).prop_map(|(name, pad)| Part::Attr { name, pad }),
        (name(), prop::sample::select(vec!["%Y-%m", "%F", "%G-W%V", "d%j.%H", "%s"]))
            .prop_map(|(name, f)| Part::Time { name, format: TimeFormat::parse(f).unwrap() }),
        (name(), 1u64..100_000_000)
            .prop_map(|(name, ms)| Part::Bucket { name, width: SimDuration::from_millis(ms) }),
        (1u32..1000).prop_map(|count| Part::Shard { count }),
        (name(), 1u32..1000).prop_map(|(name, count)| Part::Hash { name, count }),
        (name(), prop::collection::btree_map("[a-z0-9.-]{1,4}", 1u32..100, 1..3), 1u32..100).prop_map(
            |(by, cases, other)| Part::Class(Box::new(ClassSlot {
                by,
                cases: cases
                    .into_iter()
                    .filter(|(v, _)| v != "else")
                    .map(|(v, n)| (v, Part::Shard { count: n }))
                    .collect(),
                other: Part::Shard { count: other },
            }))
        ),
        (name(), name(), prop::collection::btree_map("[a-z0-9.-]{1,4}", 1u64..100_000, 1..3), 1u64..100_000)
            .prop_map(|(time, by, cases, other)| Part::Class(Box::new(ClassSlot {
                by,
                cases: cases
                    .into_iter()
                    .filter(|(v, _)| v != "else")
                    .map(|(v, s)| (v, Part::Bucket { name: time.clone(), width: SimDuration::from_secs(s) }))
                    .collect(),
                other: Part::Bucket { name: time, width: SimDuration::from_secs(other) },
            }))),
    ]
}

/// Parts a template may hold: their shard and hash counts multiply to at most `MAX_SHARDS`.
fn parts() -> impl Strategy<Value = Vec<Part>> {
    prop::collection::vec(part(), 1..6).prop_filter("the counts multiply past MAX_SHARDS", |parts| {
        parts.iter().map(|p| u64::from(p.fanout())).product::<u64>() <= u64::from(MAX_SHARDS)
    })
}

proptest! {
    #[test]
    fn parse_never_panics(source in "\\PC{0,40}") {
        if let Err(error) = Template::parse(&source) {
            prop_assert!(error.offset <= source.len() && source.is_char_boundary(error.offset), "{error}");
        }
    }

    #[test]
    fn parse_never_panics_on_template_like_text(source in "[{}():,%0-9a-z ]{0,24}") {
        let _ = Template::parse(&source);
    }

    #[test]
    fn parse_never_panics_on_class_slot_like_text(args in "[a-z0-9:=,. -]{0,30}", bucket in any::<bool>()) {
        let source = if bucket { format!("{{bucket(at, by{args})}}") } else { format!("{{shard(by{args})}}") };
        if let Err(error) = Template::parse(&source) {
            prop_assert!(error.offset <= source.len(), "{source}: {error}");
        }
    }

    #[test]
    fn no_template_spreads_past_the_limit(
        counts in prop::collection::vec("[0-9]{1,12}", 1..4),
        hashed in any::<bool>(),
    ) {
        let source: String = counts
            .iter()
            .map(|n| if hashed { format!("{{hash(d, {n})}}") } else { format!("{{shard({n})}}") })
            .collect();
        if let Ok(template) = Template::parse(&source) {
            prop_assert!(template.fanout() <= MAX_SHARDS, "{source}: {}", template.fanout());
        }
    }

    #[test]
    /// Whatever slot the parser accepts has its form in the table the cheat sheet shows.
    fn every_parsed_slot_has_a_form_in_the_table(parts in parts()) {
        let template = Template::from_parts(parts).unwrap();
        for part in template.parts() {
            let form = SlotForm::of(part);
            prop_assert_eq!(form.is_none(), matches!(part, Part::Literal(_)), "{:?}", part);
            if let Some(form) = form {
                prop_assert!(SLOT_FORMS.iter().any(|f| std::ptr::eq(f, form)));
                prop_assert_eq!(
                    form.function().is_some(),
                    matches!(part, Part::Bucket { .. } | Part::Shard { .. } | Part::Hash { .. } | Part::Class(_))
                );
            }
        }
    }

    #[test]
    fn canonical_source_reads_back(parts in parts()) {
        let template = Template::from_parts(parts).unwrap();
        let again = Template::parse(&template.to_string()).unwrap();
        prop_assert_eq!(&again, &template);
    }

    #[test]
    fn expansion_is_a_function_of_item_and_draws(
        parts in parts(),
        seconds in -10_000_000_000i64..10_000_000_000,
        draws in prop::collection::vec(any::<u32>(), 8),
    ) {
        let template = Template::from_parts(parts).unwrap();
        let item: Item = template.attributes().map(|a| (a.to_owned(), AttributeValue::n(seconds))).collect();
        let run = || {
            let mut next = draws.iter().copied().cycle();
            template.expand(&item, &mut |_| next.next().unwrap_or(0))
        };
        let first = run();
        prop_assert!(first.is_some());
        prop_assert_eq!(first, run());
    }

    #[test]
    fn padded_numbers_sort_as_text(a in -99_999_999i64..99_999_999, b in -99_999_999i64..99_999_999, scale in 0u32..3) {
        let template = Template::parse("S#{score:08}").unwrap();
        let key = |units: i64| {
            let value = AttributeValue::N(Number::parse(&format!("{units}e-{scale}")).unwrap());
            match template.expand(&item(&[("score", value)]), &mut |_| 0) {
                Some(KeyValue::S(text)) => text,
                other => panic!("{other:?}"),
            }
        };
        prop_assert_eq!(key(a).cmp(&key(b)), a.cmp(&b));
    }
}
