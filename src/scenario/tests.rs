//! Loading scenario files: the bundled ones, and one broken in one place at a time, whose
//! error must name the file, say what was expected and point at the place to fix.

use super::*;
use crate::engine::model::ItemAttr;
use crate::engine::retry::RetryPolicy;
use proptest::prelude::*;

const MINI: &str = r#"// A tiny scenario the tests break in one place at a time.
(
name: "mini",
title: "Mini",
entities: [
    (
        name: "User",
        attributes: [
            (name: "user_id", type: S, gen: New("users")),
            (name: "name", type: S, gen: Payload(12)),
        ],
    ),
    (
        name: "Post",
        attributes: [
            (name: "user_id", type: S, gen: Pick("users")),
            (name: "posted_at", type: Time, gen: Now),
            (name: "body", type: S, gen: Payload(200)),
        ],
    ),
],
populations: [(name: "users", count: 1000, ids: "u{}")],
patterns: [
    (name: "user-posts", action: List, entity: "Post", given: ["user_id"], range: (attribute: "posted_at", span: Last("7d")), order: Desc, limit: 20, rate: 10),
    (name: "write-post", action: Put, entity: "Post", given: ["user_id"], rate: 1),
],
variants: [
    (
        name: "only",
        keys: {
            "User": (pk: "USER#{user_id}", sk: "PROFILE"),
            "Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },
    ),
],
workload: (duration: "30d", tick: "1s", seed: 1),
practice: (prompt: "Design the keys.", hints: ["Start from the patterns."], solution: "only"),
)
"#;

/// 1-based line and column (in characters) of byte `at` in `text`.
fn position_of(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Parsing `text` fails with an error that says `message` and points at the line and column of
/// byte `at`, where the case's `marker` is.
fn assert_error_at(text: &str, message: &str, marker: &str, at: Option<usize>) {
    let at = at.unwrap_or_else(|| panic!("marker {marker} in the text"));
    let err = parse("mini.ron", text).expect_err(message).to_string();
    let (line, col) = position_of(text, at);
    assert!(err.contains(message), "{err}\nshould say: {message}");
    assert!(
        err.starts_with(&format!("mini.ron:{line}:{col}:")),
        "{err}\nshould point at {line}:{col} ({marker})"
    );
}

#[test]
fn the_mini_scenario_loads() {
    let loaded = parse("mini.ron", MINI).unwrap();
    let s = &loaded.scenario;
    assert_eq!((s.name.as_str(), s.entities.len(), s.patterns.len(), s.variants.len()), ("mini", 2, 2, 1));
    assert_eq!(s.variants[0].table_sk.as_deref(), Some("SK"));
    assert_eq!(s.practice.as_ref().map(|p| p.solution.as_str()), Some("only"));
    // The solution is the only variant, so it is also the default.
    assert_eq!(loaded.variant(None).unwrap().name, "only");
}

#[test]
fn every_bundled_scenario_loads_with_naive_and_recommended() {
    for (name, file, text) in BUNDLED {
        let loaded = parse(file, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(loaded.scenario.name, *name);
        for variant in ["naive", "recommended"] {
            assert!(loaded.variant(Some(variant)).is_ok(), "{name} lacks {variant}");
        }
    }
    assert_eq!(bundled().len(), BUNDLED.len());
}

/// Each case breaks MINI by one replacement; the error must name the file, say what is wrong
/// and point at `marker` (+ `shift` characters) in the broken text.
#[test]
fn errors_point_at_the_offending_value() {
    let cases: &[(&str, &str, &str, &str, usize)] = &[
        // (replace, with, message contains, marker, shift)
        (r#"title: "Mini","#, r#"title: "Mini""#, "comma", "entities: [", 0),
        (
            r#"(name: "name", type: S, gen: Payload(12))"#,
            r#"(name: "name", type: S, gen: Payload(12), colour: 3)"#,
            "colour",
            "colour",
            0,
        ),
        ("action: Put,", "action: Post,", "Post", "Post,", 0),
        (
            r#"sk: "POST#{posted_at}""#,
            r#"sk: "POST#{postedat}""#,
            r#"unknown attribute "postedat""#,
            "postedat}",
            0,
        ),
        (
            r#"sk: "POST#{posted_at}""#,
            r#"sk: "POST#{posted_at""#,
            "bad key template",
            r#""POST#{posted_at""#,
            6,
        ),
        (
            r#"solution: "only""#,
            r#"solution: "best""#,
            r#"unknown variant "best"; the variants are: only"#,
            r#""best""#,
            0,
        ),
        (
            r#"given: ["user_id"], rate: 1"#,
            r#"given: ["userid"], rate: 1"#,
            r#"Post has no attribute "userid""#,
            r#""userid""#,
            0,
        ),
        (
            r#"entity: "Post", given: ["user_id"], rate: 1"#,
            r#"entity: "Posts", given: ["user_id"], rate: 1"#,
            r#"unknown entity "Posts""#,
            r#""Posts""#,
            0,
        ),
        (
            r#"gen: Pick("users")"#,
            r#"gen: Pick("user")"#,
            r#"unknown population "user""#,
            r#"Pick("user")"#,
            0,
        ),
        (r#"Last("7d")"#, r#"Last("7 days")"#, "is not a duration", r#""7 days""#, 0),
        (
            r#"(name: "body", type: S, gen: Payload(200))"#,
            r#"(name: "body", type: N, gen: Nth("posted_at"))"#,
            r#"Nth("posted_at") numbers the items of one member"#,
            r#""posted_at"))"#,
            0,
        ),
        (
            r#"(name: "body", type: S, gen: Payload(200))"#,
            r#"(name: "body", type: N, gen: Sometimes(0.5, Nth("user_id")))"#,
            "it cannot be Sometimes",
            r#"Nth("user_id")))"#,
            0,
        ),
        (
            "order: Desc, limit: 20",
            r#"order: Desc, limit: 20, contains: "user_id""#,
            "the pattern already knows all of user_id",
            r#""user_id", rate: 10"#,
            0,
        ),
        (
            r#"(name: "body", type: S, gen: Payload(200))"#,
            r#"(name: "body", type: S, gen: Nth("user_id"))"#,
            "makes a whole number (N)",
            r#"Nth("user_id")"#,
            0,
        ),
        (
            r#""User": (pk: "USER#{user_id}", sk: "PROFILE"),"#,
            r#""User": (pk: "USER#{user_id}"),"#,
            "no sort key template",
            r#"(pk: "USER#{user_id}"),"#,
            0,
        ),
        (
            r#"(name: "write-post", action: Put"#,
            r#"(name: "user-posts", action: Put"#,
            r#"two patterns are named "user-posts""#,
            r#""user-posts", action: Put"#,
            0,
        ),
    ];
    assert_points(cases);
}

/// A variant's read-through cache: its TTL defaults to DAX's 5 minutes, and each mistake is an
/// error at the value.
#[test]
fn a_read_cache_is_checked_at_its_place() {
    const KEYS: &str = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#;
    let with = |cache: &str| MINI.replacen(KEYS, &format!("{KEYS}\n        cache: {cache},"), 1);
    let loaded = parse("mini.ron", &with(r#"(items: 1000, patterns: ["user-posts"])"#)).expect("a cache");
    let cache = loaded.scenario.variants[0].cache.clone().expect("declared");
    assert_eq!((cache.ttl, cache.items), (crate::engine::time::SimDuration::from_secs(300), 1000));
    let id = |name: &str| loaded.scenario.pattern(name).expect("a pattern").id();
    assert!(loaded.scenario.variants[0].cache_for(id("user-posts")).is_some());
    assert!(loaded.scenario.variants[0].cache_for(id("write-post")).is_none());
    // (cache, message, marker)
    let cases = [
        (
            r#"(ttl: "0s", items: 10, patterns: ["user-posts"])"#,
            "a cache TTL must be longer than 0s",
            r#""0s""#,
        ),
        (r#"(ttl: "5 min", items: 10, patterns: ["user-posts"])"#, "", r#""5 min""#),
        (r#"(items: 0, patterns: ["user-posts"])"#, "a cache holds 1 to 10,000,000 items", "0, patterns"),
        (r"(items: 10, patterns: [])", "name the read patterns the cache fronts", "[])"),
        (r#"(items: 10, patterns: ["user-post"])"#, "did you mean user-posts?", r#""user-post""#),
        (r#"(items: 10, patterns: ["write-post"])"#, "pattern \"write-post\" writes", r#""write-post""#),
        (r#"(items: 10, patterns: ["user-posts", "user-posts"])"#, "", r#""user-posts"])"#),
        (r#"(items: 10, patterns: ["user-posts"], size: 3)"#, "size", "size"),
    ];
    for (cache, message, marker) in cases {
        let text = with(cache);
        assert_error_at(&text, message, marker, text.rfind(marker));
    }
}

/// A lifecycle (`States`) is text, moves through two or more distinct states, and is on every
/// item; a sparse index can select one of its states, and only one of them.
#[test]
fn states_are_checked_at_their_place() {
    let with_states = |states: &str| {
        MINI.replacen(
            r#"(name: "name", type: S, gen: Payload(12)),"#,
            &format!(
                r#"(name: "name", type: S, gen: Payload(12)), (name: "stage", type: S, gen: {states}),"#
            ),
            1,
        )
    };
    let ok = parse("mini.ron", &with_states(r#"States(["NEW", "ACTIVE", "CLOSED"])"#)).unwrap();
    let stage = ok.scenario.entities[0].attribute("stage").map(|a| a.generator.clone());
    assert_eq!(
        stage,
        Some(crate::engine::model::Generator::States(vec!["NEW".into(), "ACTIVE".into(), "CLOSED".into()]))
    );
    let cases: Vec<(String, &str, &str)> = vec![
        (with_states(r#"States(["ONLY"])"#), "States needs at least two states", "States("),
        (with_states(r#"States(["NEW", "NEW"])"#), "\"NEW\" is listed twice", r#""NEW"])"#),
        (with_states(r#"States(["NEW", ""])"#), "a state cannot be empty text", r#"""])"#),
        (
            with_states(r#"Sometimes(0.5, States(["NEW", "CLOSED"]))"#),
            "States is a lifecycle every item goes through",
            "States(",
        ),
        (
            MINI.replacen(
                r#"(name: "user_id", type: S, gen: New("users")),"#,
                r#"(name: "user_id", type: S, gen: New("users")), (name: "n", type: N, gen: States(["A", "B"])),"#,
                1,
            ),
            "this generator makes text (S), but the attribute's type is N",
            "States(",
        ),
    ];
    for (text, message, marker) in cases {
        assert_error_at(&text, message, marker, text.find(marker));
    }
}

/// A write's condition fits its action and names a number the update can increment.
#[test]
fn conditions_are_checked_at_their_place() {
    const UPDATE: &str = r#"(name: "rename", action: Update, entity: "User", given: ["user_id"], sets: ["name"], rate: 1, condition: "#;
    let with_update = |condition: &str| {
        MINI.replacen(
            r#"(name: "write-post","#,
            &format!("{UPDATE}{condition}),\n    (name: \"write-post\","),
            1,
        )
    };
    let ok = MINI.replacen(
        r#"given: ["user_id"], rate: 1)"#,
        r#"given: ["user_id"], rate: 1, condition: NotExists)"#,
        1,
    );
    let loaded = parse("mini.ron", &ok).unwrap();
    assert_eq!(loaded.scenario.patterns[1].condition, Some(crate::engine::model::Condition::NotExists));
    let cases: Vec<(String, &str, &str)> = vec![
        (with_update("NotExists"), "NotExists makes a put create its item once", "NotExists)"),
        (
            with_update(r#"Version("name")"#),
            "a version is a number the update adds 1 to, but name is S",
            r#""name")"#,
        ),
        (with_update(r#"Version("nom")"#), r#"User has no attribute "nom""#, r#""nom")"#),
        (
            MINI.replacen(
                r#"given: ["user_id"], rate: 1)"#,
                r#"given: ["user_id"], rate: 1, condition: Version("body"))"#,
                1,
            ),
            "Version(…) is a read-modify-write",
            r#"Version("body")"#,
        ),
    ];
    for (text, message, marker) in cases {
        assert_error_at(&text, message, marker, text.find(marker));
    }
}

/// A write's `ttl` sets the expiry the variant's TTL attribute holds: only a put or an update
/// writes one, it is a duration > 0, and the variant must have a TTL attribute for the entity.
#[test]
fn pattern_ttls_are_checked_at_their_place() {
    const POST_KEYS: &str = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#;
    let expiring = |entities: &str| {
        MINI.replacen(
            POST_KEYS,
            &format!("{POST_KEYS}\n        ttl: (attribute: \"expires\", lifetime: \"24h\", entities: [{entities}]),"),
            1,
        )
    };
    let with_ttl = |text: &str, ttl: &str| {
        text.replacen(
            r#"given: ["user_id"], rate: 1)"#,
            &format!(r#"given: ["user_id"], rate: 1, ttl: {ttl})"#),
            1,
        )
    };
    let ok = with_ttl(&expiring(r#""Post""#), r#""15m""#);
    let loaded = parse("mini.ron", &ok).unwrap();
    assert_eq!(loaded.scenario.patterns[1].ttl, Some(crate::engine::time::SimDuration::from_secs(900)));
    let read =
        expiring(r#""Post""#).replacen("limit: 20, rate: 10)", r#"limit: 20, rate: 10, ttl: "15m")"#, 1);
    let cases: Vec<(String, &str, &str)> = vec![
        (read, "a list pattern writes no attribute", r#""15m")"#),
        (with_ttl(&expiring(r#""Post""#), r#""0s""#), "a ttl must be longer than 0s", r#""0s")"#),
        (with_ttl(&expiring(r#""Post""#), r#""-15m""#), "a ttl is how long the item lives", r#""-15m")"#),
        (with_ttl(&expiring(r#""Post""#), r#""soon""#), "soon", r#""soon")"#),
        (
            with_ttl(&expiring(r#""User""#), r#""15m""#),
            r#"pattern "write-post" (patterns[1]) sets the expiry of Post items (ttl: "15m"), but variant "only" has no TTL attribute for Post"#,
            r#"["User"]"#,
        ),
        (
            with_ttl(MINI, r#""15m""#),
            r#"but variant "only" has no TTL attribute for Post; add ttl: (attribute:"#,
            "(\n        name: \"only\"",
        ),
    ];
    for (text, message, marker) in cases {
        assert_error_at(&text, message, marker, text.find(marker));
    }
}

/// A goal's `hint: N` names one of the practice problem's hints, and only a practice problem has
/// them; a wrong link is an error at the number.
#[test]
fn goal_hint_links_are_checked() {
    let goal = |hint: &str| {
        format!(
            r#"workload: (duration: "30d", tick: "1s", seed: 1),
goals: [(name: "posts never scan", check: NoScan("user-posts"){hint})],"#
        )
    };
    let from = r#"workload: (duration: "30d", tick: "1s", seed: 1),"#;
    let linked = MINI.replacen(from, &goal(", hint: 1"), 1);
    let loaded = parse("mini.ron", &linked).unwrap();
    let s = &loaded.scenario;
    assert_eq!(s.goals[0].hint, Some(1));
    assert_eq!(s.goal_hint(&s.goals[0]), Some((1, "Start from the patterns.")));
    let cases: Vec<(String, &str, &str)> = vec![
        (goal(", hint: 2"), "no hint 2: the practice problem has 1 hint (hint: 1)", "hint: 2"),
        (goal(", hint: 0"), "no hint 0: the practice problem has 1 hint", "hint: 0"),
    ];
    // The error points at the number, 6 characters into `hint: N`.
    let owned: Vec<(&str, &str, &str, &str, usize)> =
        cases.iter().map(|(to, message, marker)| (from, to.as_str(), *message, *marker, 6)).collect();
    assert_points(&owned);
    // Without `practice` a goal has no hints to link to.
    let no_practice = linked.replacen(
        r#"practice: (prompt: "Design the keys.", hints: ["Start from the patterns."], solution: "only"),"#,
        "",
        1,
    );
    let error = parse("mini.ron", &no_practice).expect_err("a hint without practice is refused");
    let LoadError::At { line, col, message, .. } = &error else { panic!("{error:?}") };
    assert!(message.contains("has no `practice`"), "{message}");
    let at = no_practice.find("hint: 1").expect("the hint link") + 6;
    assert_eq!((*line, *col), position_of(&no_practice, at), "{error}");
}

/// Each case breaks MINI by one replacement; the error must name the file, say `message` and
/// point at `marker` (+ `shift` characters) in the broken text.
fn assert_points(cases: &[(&str, &str, &str, &str, usize)]) {
    for (from, to, message, marker, shift) in cases {
        assert!(MINI.contains(from), "case {from:?} does not apply");
        let broken = MINI.replacen(from, to, 1);
        let error = parse("mini.ron", &broken).err().unwrap_or_else(|| panic!("{to:?} loaded"));
        let LoadError::At { file, line, col, message: text } = &error else { panic!("{error:?}") };
        assert_eq!(file, "mini.ron");
        assert!(text.contains(message), "{to:?}: {text:?} lacks {message:?}");
        let at = broken.find(marker).unwrap_or_else(|| panic!("marker {marker:?} missing"));
        let (want_line, want_col) = position_of(&broken, at);
        assert_eq!((*line, *col), (want_line, want_col + shift), "{to:?}: {error}");
        assert!(error.to_string().starts_with(&format!("mini.ron:{line}:{col}: ")), "{error}");
    }
}

#[test]
fn a_workload_names_its_retry_policy_or_gives_its_numbers() {
    let with = |retry: &str| MINI.replacen("seed: 1)", &format!("seed: 1, retry: {retry})"), 1);
    let default = parse("mini.ron", MINI).expect("mini");
    assert_eq!(default.scenario.workload.retry, RetryPolicy::aws_java_v1_dynamodb());
    let none = parse("mini.ron", &with(r#"Named("none")"#)).expect("named");
    assert_eq!(none.scenario.workload.retry.max_retries, 0);
    let custom = parse("mini.ron", &with("Custom(base_ms: 100, cap_ms: 5000, retries: 5, jitter: Full)"))
        .expect("custom");
    let p = &custom.scenario.workload.retry;
    assert_eq!((p.name.as_str(), p.base_ms, p.cap_ms, p.max_retries), ("custom", 100, 5000, 5));
    assert_eq!(p.jitter, crate::engine::retry::Jitter::Full);
    assert_points(&[
        (
            "seed: 1)",
            r#"seed: 1, retry: Named("sdk"))"#,
            r#"unknown retry policy "sdk"; expected one of aws-java-v1-dynamodb, none"#,
            "Named",
            0,
        ),
        (
            "seed: 1)",
            "seed: 1, retry: Custom(base_ms: 100, cap_ms: 5000, retries: 31, jitter: Full))",
            "at most 30 times",
            "Custom",
            0,
        ),
        (
            "seed: 1)",
            "seed: 1, retry: Custom(base_ms: 100, cap_ms: 50, retries: 3, jitter: None))",
            "cap_ms must be at least base_ms",
            "Custom",
            0,
        ),
    ]);
}

/// MINI with an `embeds` list in its variant (and Post's keys as `post_keys`).
fn with_embeds(post_keys: &str, embeds: &str) -> String {
    let keys = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#;
    assert!(MINI.contains(keys));
    MINI.replacen(keys, &format!("{post_keys}\n        }},\n        embeds: [{embeds}],"), 1)
}

#[test]
fn embeds_name_a_parent_by_its_id_and_a_whole_child_has_no_keys() {
    let post_keys = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),"#;
    let subset = r#"(entity: "Post", into: "User", by: "user_id", keep_latest: Some(5))"#;
    let loaded = parse("mini.ron", &with_embeds(post_keys, subset)).unwrap();
    let embed = &loaded.scenario.variants[0].embeds[0];
    assert_eq!((embed.as_name.as_str(), embed.keep_latest), ("posts", Some(5)));
    // (keys of Post, embeds, message contains, marker)
    let whole = r#"(entity: "Post", into: "User", by: "user_id")"#;
    let cases = [
        (
            post_keys,
            whole,
            "embedded whole in User (no keep_latest), so it has no items of its own",
            r#"(pk: "USER#{user_id}", sk: "POST#"#,
        ),
        (
            "",
            whole,
            r#"pattern "user-posts" (patterns[0]) reads Post, which variant "only" embeds whole"#,
            "[(entity",
        ),
        (
            post_keys,
            r#"(entity: "Post", into: "User", by: "posted_at", keep_latest: Some(5))"#,
            r#"by: "user_id""#,
            r#""posted_at", keep"#,
        ),
        (
            post_keys,
            r#"(entity: "Post", into: "Users", by: "user_id", keep_latest: Some(5))"#,
            r#"unknown entity "Users""#,
            r#""Users""#,
        ),
        (
            post_keys,
            r#"(entity: "Post", into: "User", by: "user_id", keep_latest: Some(0))"#,
            "at least 1",
            "0))",
        ),
        (
            post_keys,
            r#"(entity: "Post", into: "User", by: "user_id", as: "name", keep_latest: Some(5))"#,
            r#"User already has an attribute "name""#,
            r#"(entity: "Post""#,
        ),
        ("", subset, "keep_latest: Some(5) keeps Post items of their own", "5))"),
        (
            post_keys,
            r#"(entity: "Post", into: "User", by: "user_id", as: "PK", keep_latest: Some(5))"#,
            r#""PK" is a key or TTL attribute"#,
            r#"(entity: "Post""#,
        ),
    ];
    for (keys, embeds, message, marker) in cases {
        let text = with_embeds(keys, embeds);
        let error = parse("mini.ron", &text).err().unwrap_or_else(|| panic!("{embeds} loaded"));
        let LoadError::At { line, col, message: said, .. } = &error else { panic!("{error:?}") };
        assert!(said.contains(message), "{embeds}: {said}");
        // The last occurrence: the embed is the file's last use of its text.
        let at = text.rfind(marker).unwrap_or_else(|| panic!("marker {marker:?} missing"));
        assert_eq!((*line, *col), position_of(&text, at), "{embeds}: {error}");
    }
}

/// Values that cannot be right, and keys given twice, are errors at the offending value.
#[test]
fn nonsense_values_and_repeated_keys_are_errors() {
    let cases: &[(&str, &str, &str, &str, usize)] = &[
        // A key given twice in a map: the second is reported, never silently dropped.
        (
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),"#,
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"), "User": (pk: "U#{nope}", sk: "P"),"#,
            r#""User" is given twice in this map"#,
            r#""User": (pk: "U#"#,
            0,
        ),
        (
            r#"given: ["user_id"], range:"#,
            r#"given: ["user_id"], equals: {"body": "x", "body": "y"}, range:"#,
            r#""body" is given twice"#,
            r#""body": "y""#,
            0,
        ),
        // Values that cannot be right.
        (
            r#"ids: "u{}")"#,
            r#"ids: "u{}", popularity: Fixed(1000))"#,
            "Fixed(1000) picks member 1000, but users has 1000 members (numbered 0 to 999)",
            "Fixed(1000)",
            0,
        ),
        (r#"Last("7d")"#, r#"Last("0s")"#, "needs a span longer than 0s", r#""0s""#, 0),
        (
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#,
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },
        ttl: (attribute: "expires", lifetime: "0s", entities: ["Post"]),"#,
            "a TTL lifetime must be longer than 0s",
            r#""0s", entities"#,
            0,
        ),
        (r#"Last("7d")"#, r#"BeginsWith("2025")"#, "but posted_at is Time (not text)", "BeginsWith", 0),
        (
            r#"given: ["user_id"], rate: 1)"#,
            r#"given: ["user_id"], rate: 1e300)"#,
            "the rate is at most 1,000,000 calls per second",
            "1e300",
            0,
        ),
        (
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#,
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },
        indexes: [(name: "i", keys: {"Post": (pk: "{user_id}")}, only_when: ("user_id", "nobody"))],"#,
            r#"only_when: user_id = "nobody" never matches: the values of user_id are ids of users like "u0""#,
            r#""nobody""#,
            0,
        ),
        (
            r#"given: ["user_id"], range:"#,
            r#"given: ["user_id"], equals: {"user_id": "someone"}, range:"#,
            "never matches",
            r#""someone""#,
            0,
        ),
        (
            r#"sk: "POST#{posted_at}""#,
            r#"sk: "POST#{body:010}""#,
            "zero-pads a number so it sorts as text, but body is S",
            "body:010}",
            0,
        ),
        // A replay advances whole ticks, so a file's duration is a whole number of them.
        (
            r#"tick: "1s""#,
            r#"tick: "7s""#,
            "the duration (30d) is not a whole number of ticks (7s)",
            r#""30d""#,
            0,
        ),
        // A bucket or time format reads epoch seconds: text, or a number that is no time, is refused.
        (
            r#"sk: "POST#{posted_at}""#,
            r#"sk: "POST#{bucket(body, 1d)}""#,
            "body is S but a time format or bucket needs a Time attribute (epoch seconds)",
            "body, 1d)",
            0,
        ),
    ];
    assert_points(cases);
}

/// A number is a time only when its items are written with the write's time: a bucket of a
/// drawn number is refused, a bucket of an N written as Now is not.
#[test]
fn a_bucket_of_a_number_needs_the_number_to_be_a_time() {
    let with = |generator: &str| {
        MINI.replacen(
            r#"(name: "body", type: S, gen: Payload(200))"#,
            &format!(
                r#"(name: "body", type: S, gen: Payload(200)), (name: "score", type: N, gen: {generator})"#
            ),
            1,
        )
        .replacen(r#"sk: "POST#{posted_at}""#, r#"sk: "POST#{bucket(score, 1d)}""#, 1)
    };
    let drawn = parse("mini.ron", &with("Number(Uniform(0, 9))")).err().map(|e| e.to_string());
    assert!(
        drawn.as_deref().is_some_and(|e| e.ends_with(
            "score is N but a time format or bucket needs a Time attribute (epoch seconds), or an N written as Now"
        )),
        "{drawn:?}"
    );
    for timed in ["Now", "NowPlus(\"1d\")", "Sometimes(0.5, Now)"] {
        assert!(parse("mini.ron", &with(timed)).is_ok(), "{timed}");
    }
}

/// Counts that size the replay's work are bounded, each at the line:col that sets it.
#[test]
fn counts_past_their_limits_are_errors_where_they_are_written() {
    let cases: &[(&str, &str, &str, &str, usize)] = &[
        (
            r#"given: ["user_id"], rate: 1)"#,
            r#"given: ["user_id"], rate: 1e9)"#,
            "the rate is at most 1,000,000 calls per second (at the shapes' peak): the replay simulates every call",
            "1e9",
            0,
        ),
        ("count: 1000,", "count: 2000000000000,", "at most 10,000,000 members", "2000000000000", 0),
        (
            "count: 1000,",
            "count: 10000000000,",
            "a population has at most 10,000,000 members (each can own an item the replay keeps in memory); \
             found 10,000,000,000",
            "10000000000",
            0,
        ),
        (r#"duration: "30d""#, r#"duration: "99999w""#, "at most 100 years", r#""99999w""#, 0),
        // So is a read's fan-out over time buckets: 7 days of 1-minute buckets is 10,081.
        (
            r#"pk: "USER#{user_id}", sk: "POST"#,
            r#"pk: "USER#{user_id}#{bucket(posted_at, 1m)}", sk: "POST"#,
            "reads the last 1w of posted_at: buckets of 1m make that 10,081 partitions a call, and a read \
             may ask at most 10,000",
            "{bucket(posted_at, 1m)}",
            0,
        ),
        // Calendar texts count too: a text a minute over the last week is past 10,000.
        (
            r#"pk: "USER#{user_id}", sk: "POST"#,
            r#"pk: "USER#{user_id}#{posted_at:%F %H:%M}", sk: "POST"#,
            "reads the last 1w of posted_at: the texts of \"%F %H:%M\" make that more than 10,000 partitions",
            "{posted_at:%F %H:%M}",
            0,
        ),
        // A write shard count is bounded, at the count itself.
        (
            r#"pk: "USER#{user_id}", sk: "POST"#,
            r#"pk: "USER#{user_id}#{shard(1000000000)}", sk: "POST"#,
            "a shard count is at most 10,000: a reader who does not know the shard asks every one",
            "1000000000)",
            0,
        ),
    ];
    assert_points(cases);
}

/// RON slips, in words that say what was expected, and positions at the place to fix.
#[test]
fn syntax_slips_say_what_was_expected_where_the_fix_goes() {
    let cases: &[(&str, &str, &str, &str, usize)] = &[
        ("count: 1000,", "count: 1000.5,", "`count` takes a whole number; found 1000.5", "1000.5", 0),
        ("count: 1000,", "count: -5,", "`count` takes a whole number from 0", "-5", 0),
        (
            "limit: 20, rate: 10),",
            "limit: 20, rate: 10,",
            "expected a field name (`name: value`) or `)`, found `(`; the `(` at",
            r#"(name: "write-post""#,
            0,
        ),
        (r#"title: "Mini","#, "", "missing field `title`: the Scenario that starts here", "(\n", 0),
        (r#"title: "Mini","#, r#"title: "Mini,"#, "this string is not closed on line", r#""Mini,"#, 0),
        (
            r#"given: ["user_id"], rate: 1)"#,
            r#"given: "user_id", rate: 1)"#,
            "`given` takes a list",
            r#""user_id", rate: 1)"#,
            0,
        ),
        // Positions: the slot, not the same text earlier; a raw string; trailing text.
        (
            r#"sk: "POST#{posted_at}""#,
            r#"sk: "posted#{posted}""#,
            r#"unknown attribute "posted""#,
            "posted}",
            0,
        ),
        (
            r#"sk: "POST#{posted_at}""#,
            r#"sk: r"POST#{postedat}""#,
            r#"unknown attribute "postedat""#,
            "postedat}",
            0,
        ),
        (
            r#"practice: (prompt: "Design the keys.", hints: ["Start from the patterns."], solution: "only"),
)"#,
            r#"practice: (prompt: "Design the keys.", hints: ["Start from the patterns."], solution: "only"),
)

(extra)"#,
            "expected the end of the file",
            "(extra)",
            0,
        ),
    ];
    assert_points(cases);
    // A byte order mark is not a syntax error.
    assert!(parse("mini.ron", &format!("\u{feff}{MINI}")).is_ok());
}

#[test]
fn an_unknown_variant_lists_the_variants_and_points_at_them() {
    let loaded = parse("mini.ron", MINI).unwrap();
    let error = loaded.variant(Some("nope")).unwrap_err();
    let (line, col) = position_of(MINI, MINI.find("variants: [").unwrap() + "variants: ".len());
    assert_eq!(
        error.to_string(),
        format!(
            "mini.ron:{line}:{col}: no variant named \"nope\"; the only variant is the problem's solution"
        )
    );
    // A practice problem's solution is not listed: a typo does not give the answer away.
    let two = MINI.replacen(
        "variants: [",
        "variants: [(name: \"mine\", keys: {\"User\": (pk: \"U#{user_id}\", sk: \"P\"), \"Post\": (pk: \"U#{user_id}\", sk: \"{posted_at}\")}),",
        1,
    );
    let error = parse("mini.ron", &two).unwrap().variant(Some("nope")).unwrap_err().to_string();
    assert!(error.ends_with("the variants are: mine (and the problem's solution)"), "{error}");
    let plain = MINI.replace("practice: (prompt: \"Design the keys.\", hints: [\"Start from the patterns.\"], solution: \"only\"),\n", "");
    let error = parse("mini.ron", &plain).unwrap().variant(Some("nope")).unwrap_err().to_string();
    assert!(error.ends_with("the variants are: only"), "{error}");
    assert_eq!(loaded.variant(None).unwrap().name, "only");
}

#[test]
fn loads_files_and_names_what_is_missing() {
    let error = load("no-such-scenario").unwrap_err();
    assert!(
        error.to_string().contains("the bundled scenarios are: sensors, orders, counters, chat"),
        "{error}"
    );
    assert!(load("sensors").is_ok());
    // A path is a file, not a scenario name.
    let error = load("no-such-dir/nonexist.ron").unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "no-such-dir/nonexist.ron: no such file (a bundled scenario is named without `.ron`: {})",
            BUNDLED.iter().map(|(name, _, _)| *name).collect::<Vec<_>>().join(", ")
        )
    );
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse("x.ron", &text);
    }

    #[test]
    fn mutated_scenarios_never_panic(cut in 0usize..MINI.len(), len in 0usize..12, insert in "[(){}\\[\\]\":,a-z0-9 ]{0,6}") {
        let mut text = MINI.to_owned();
        if text.is_char_boundary(cut) && text.is_char_boundary((cut + len).min(text.len())) {
            text.replace_range(cut..(cut + len).min(text.len()), &insert);
            let _ = parse("x.ron", &text);
        }
    }
}

/// A lookup by a value no caller can know would find nothing and cost nothing: an error where
/// the value is given.
#[test]
fn a_lookup_names_only_values_a_caller_can_know() {
    let get = r#"(name: "write-post", action: Put, entity: "Post", given: ["user_id"], rate: 1),"#;
    assert_points(&[(
        get,
        r#"(name: "write-post", action: Get, entity: "Post", given: ["user_id", "body"], rate: 1),"#,
        "body is a Payload",
        r#""body"], rate: 1),"#,
        0,
    )]);
    // An Nth number given to an update: the replay cannot tell which line is meant.
    let numbered = MINI
        .replacen(
            r#"(name: "body", type: S, gen: Payload(200)),"#,
            r#"(name: "body", type: S, gen: Payload(200)), (name: "n", type: N, gen: Nth("user_id")),"#,
            1,
        )
        .replacen(
            get,
            r#"(name: "write-post", action: Update, entity: "Post", given: ["user_id", "n"], sets: ["body"], rate: 1),"#,
            1,
        );
    let error = parse("mini.ron", &numbered).expect_err("an Nth number given to an update");
    assert!(error.to_string().contains("n numbers each user_id's items (Nth)"), "{error}");
    // A put gives its values; the same attributes are fine there.
    let put = MINI.replacen(
        get,
        r#"(name: "write-post", action: Put, entity: "Post", given: ["user_id", "body"], rate: 1),"#,
        1,
    );
    parse("mini.ron", &put).expect("a put may give a payload");
}

/// A payload must fit one item of the store the file is built for: DynamoDB's 400 KB, Cosmos
/// DB's 2 MB, MongoDB's 16 MB ("Service, account, and table quotas", "Azure Cosmos DB service
/// quotas", "MongoDB Limits and Thresholds"); the Cassandra profile has no item limit, and
/// keyheat holds it to 400 KB as its own bound. The error points at the payload.
#[test]
fn a_payload_fits_the_item_limit_of_its_store() {
    // (engine line, payload bytes, the error's words or None)
    let cases = [
        ("", 409_600, None),
        ("", 409_601, Some("cannot fit in DynamoDB's 400 KB item limit")),
        ("engine: CosmosDB,", 409_601, None),
        ("engine: CosmosDB,", 2_097_153, Some("cannot fit in Cosmos DB's 2 MB item limit")),
        ("engine: MongoDB,", 2_097_153, None),
        ("engine: MongoDB,", 16_777_217, Some("cannot fit in MongoDB's 16 MB item limit")),
        ("engine: Cassandra,", 409_601, Some("past the 400 KB keyheat generates on Cassandra")),
    ];
    for (engine, bytes, words) in cases {
        let text = MINI.replacen("title: \"Mini\",", &format!("title: \"Mini\", {engine}"), 1).replacen(
            "gen: Payload(200)",
            &format!("gen: Payload({bytes})"),
            1,
        );
        match (parse("mini.ron", &text), words) {
            (Ok(_), None) => {}
            (Err(_), Some(words)) => {
                let at = text.find(&format!("Payload({bytes})"));
                assert_error_at(&text, words, "the payload", at);
            }
            (other, words) => panic!("{engine} {bytes}: {:?} for {words:?}", other.map(|_| ())),
        }
    }
}

/// A class slot names an attribute the items carry and values its generator writes: a listed
/// value no item can hold is a layout nothing uses, an error at the value. It sits in a
/// partition key.
#[test]
fn class_slots_name_attributes_and_values_the_items_hold() {
    let post = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),"#;
    let with = |pk: &str| format!(r#""Post": (pk: "{pk}", sk: "POST#{{posted_at}}"),"#);
    let ok = MINI.replacen(post, &with("USER#{user_id}#{shard(by: user_id, u7 = 8, else = 1)}"), 1);
    let loaded = parse("mini.ron", &ok).unwrap();
    assert_eq!(loaded.scenario.variants[0].keys_named("Post").map(|k| k.pk.fanout()), Some(8));
    let cases = [
        (with("U#{shard(by: user, u7 = 8, else = 1)}"), r#"unknown class attribute "user""#, "user, u7"),
        (
            with("U#{user_id}#{shard(by: user_id, u7 = 8, x9 = 4, else = 1)}"),
            r#"class value: user_id = "x9" never matches"#,
            "x9 =",
        ),
        (with("U#{shard(by: user_id, u7 = 0, else = 1)}"), "count from 1", "0, else"),
        (
            with("U#{user_id}#{shard(by: user_id, u1000 = 8, else = 1)}"),
            r#"class value: user_id = "u1000" is no member of users, which has 1000 (u0 … u999)"#,
            "u1000",
        ),
        // A class's reader asks its own buckets: a 1-second class over the last 7 days is too many.
        (
            with("U#{user_id}#{bucket(posted_at, by: user_id, u7 = 1s, else = 1d)}"),
            "buckets of 1s make that 604,801 partitions",
            "{bucket(",
        ),
        // In a sort key a class layout chooses no partition: it belongs in the pk.
        (
            r#""Post": (pk: "USER#{user_id}", sk: "P#{shard(by: user_id, u7 = 8, else = 1)}#{posted_at}"),"#
                .to_owned(),
            "a class slot in the sort key",
            "{shard(by",
        ),
    ];
    for (to, message, marker) in &cases {
        let text = MINI.replacen(post, to, 1);
        // Posts pick users and, once no User is written New, nothing grows the 1,000 of them.
        let text = text.replace(r#"gen: New("users")"#, r#"gen: Pick("users")"#);
        let error = parse("mini.ron", &text).err().unwrap_or_else(|| panic!("{to:?} loaded"));
        let LoadError::At { line, col, message: said, .. } = &error else { panic!("{error:?}") };
        let at = text.find(marker).unwrap_or_else(|| panic!("marker {marker:?} missing"));
        assert!(said.contains(message), "{to}: {said}");
        assert_eq!((*line, *col), position_of(&text, at), "{to}: {error}");
    }
}

/// A claim (`op: Claim`) is taken by a put carrying the value it records, and its item holds
/// the claim alone: each rule is an error at the `on` entry that breaks it.
#[test]
fn claims_are_checked_at_their_place() {
    let with_aggregates = |aggregates: &str| {
        MINI.replacen(
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#,
            &format!(
                r#""Post": (pk: "USER#{{user_id}}", sk: "POST#{{posted_at}}"),
        }},
        aggregates: [{aggregates}],"#
            ),
            1,
        )
    };
    let claim = r#"(name: "claim", entity: "User", on: ["write-post"], attribute: "user_id", op: Claim)"#;
    let loaded = parse("mini.ron", &with_aggregates(claim)).unwrap();
    let variant = loaded.variant(None).unwrap();
    assert_eq!(variant.aggregates[0].op, crate::engine::model::AggregateOp::Claim);
    let update = with_aggregates(
        r#"(name: "claim", entity: "User", on: ["user-posts"], attribute: "user_id", op: Claim)"#,
    )
    .replacen(r#"(name: "user-posts", action: List,"#, r#"(name: "touch", action: Update, entity: "Post", given: ["user_id", "posted_at"], sets: ["body"], rate: 1),
    (name: "user-posts", action: List,"#, 1)
    .replacen(r#"on: ["user-posts"]"#, r#"on: ["touch"]"#, 1);
    let cases = [
        (
            update,
            r#"pattern "touch" is not a Put: a claim is taken by the put that creates its owner"#,
            r#"on: ["touch"]"#,
        ),
        (
            with_aggregates(
                r#"(name: "claim", entity: "User", on: ["write-post"], attribute: "name", op: Claim)"#,
            ),
            r#"the claim records name, but Post items (put by "write-post") have no such attribute"#,
            r#"on: ["write-post"], attribute: "name""#,
        ),
        (
            with_aggregates(&format!(
                r#"(name: "posts", entity: "User", on: ["write-post"], attribute: "name", op: Count), {claim}"#
            )),
            r#"aggregate "posts" also keeps User items on "write-post": a claim's item holds the claim alone"#,
            r#"on: ["write-post"], attribute: "user_id""#,
        ),
    ];
    for (text, message, marker) in cases {
        // The error points at the pattern's name in the `on` list.
        assert_error_at(&text, message, marker, text.find(marker).map(|at| at + 5));
    }
}

/// `transaction: true` is refused where no transaction can hold the call: a List (a Query), the
/// Cassandra profile, and a write whose copies fan out to every referring item.
#[test]
fn transactions_are_checked_at_their_place() {
    let ok = MINI.replacen(
        r#"given: ["user_id"], rate: 1)"#,
        r#"given: ["user_id"], rate: 1, transaction: true)"#,
        1,
    );
    let loaded = parse("mini.ron", &ok).unwrap();
    assert!(loaded.scenario.patterns[1].transaction);
    let list = MINI.replacen("limit: 20, rate: 10)", "limit: 20, rate: 10, transaction: true)", 1);
    let cassandra = ok.replacen("title: \"Mini\",", "title: \"Mini\",\nengine: Cassandra,", 1);
    let copied = MINI
        .replacen(
            r#"(name: "write-post", action: Put, entity: "Post", given: ["user_id"], rate: 1),"#,
            r#"(name: "write-post", action: Put, entity: "Post", given: ["user_id"], rate: 1),
    (name: "rename", action: Update, entity: "User", given: ["user_id"], sets: ["name"], rate: 1, transaction: true),"#,
            1,
        )
        .replacen(
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#,
            r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },
        copies: [(from: "User", attribute: "name", to: "Post", by: "user_id")],"#,
            1,
        );
    let cases: Vec<(String, &str, &str)> = vec![
        (list, "a List is a Query, which no transaction can hold", "true)"),
        (cassandra, "the Cassandra profile has no transactions across rows", "true)"),
        (
            copied,
            r#"pattern "rename" (patterns[2]) is a transaction: its own item and the aggregates it maintains; variant "only" copies User.name onto every Post item"#,
            "(\n        name: \"only\"",
        ),
    ];
    for (text, message, marker) in cases {
        assert_error_at(&text, message, marker, text.find(marker));
    }
}

#[test]
fn a_variant_adds_each_attribute_name_to_an_item_once() {
    let keys = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#;
    let with = |added: &str| MINI.replacen(keys, &format!("{keys}\n        {added}"), 1);
    let name = r#"(from: "User", attribute: "name", to: "Post", by: "user_id")"#;
    let id_as_name = r#"(from: "User", attribute: "user_id", to: "Post", by: "user_id", as: "name")"#;
    let as_pk = r#"(from: "User", attribute: "name", to: "Post", by: "user_id", as: "PK")"#;
    let as_expiry = r#"(from: "User", attribute: "name", to: "Post", by: "user_id", as: "expires_at")"#;
    let ttl = r#"ttl: (attribute: "expires_at", lifetime: "30d", entities: ["Post"]),"#;
    // (what the variant adds, message contains, marker of where it points)
    let cases = [
        (
            format!("copies: [{name}, {id_as_name}],"),
            r#"this copy adds "name" to Post items, which the variant's copy already adds"#,
            id_as_name,
        ),
        (format!("copies: [{as_pk}],"), r#""PK" is a key attribute of this variant; name the copy"#, as_pk),
        (
            format!("{ttl}\n        copies: [{as_expiry}],"),
            r#"this copy adds "expires_at" to Post items, which the variant's TTL attribute already adds"#,
            as_expiry,
        ),
    ];
    for (added, message, marker) in cases {
        let text = with(&added);
        assert_error_at(&text, message, marker, text.find(marker));
    }
    parse("mini.ron", &with(&format!("copies: [{name}],"))).expect("one copy loads");
}

/// The loader binds what a planner or simulator later reads by id: a key template on the items
/// of the entities whose writes land under it, a copy's `by` on its source, and a copied
/// `Nth` number's `by` on the holder.
#[test]
fn keys_and_copies_are_bound_on_the_entities_that_write_them() {
    let keys = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#;
    let added = r#"aggregates: [(name: "post-count", entity: "User", on: ["write-post"], attribute: "posts", op: Count)],
        copies: [(from: "User", attribute: "name", to: "Post", by: "user_id", as: "author")],"#;
    let name = r#"(name: "name", type: S, gen: Payload(12)),"#;
    let text = MINI.replacen(keys, &format!("{keys}\n        {added}"), 1).replacen(
        name,
        &format!("{name}\n            (name: \"posts\", type: N, gen: Number(Uniform(0, 100))),"),
        1,
    );
    let loaded = parse("mini.ron", &text).expect("the aggregate and the copy load");
    let s = &loaded.scenario;
    let v = &s.variants[0];
    let id = |entity: &str, attribute: &str| {
        let e = s.entity(entity).expect("entity");
        ItemAttr::Own(e.attribute_id(attribute).expect("attribute"))
    };
    let (user, post) = (s.entity("User").expect("User").id(), s.entity("Post").expect("Post").id());
    let user_keys = v.keys_for(user).expect("User keys");
    // (keys bound on, what `USER#{user_id}`'s slot reads there)
    let cases = [(post, Some(id("Post", "user_id"))), (user, None)];
    for (on, reads) in cases {
        let slot = user_keys.pk_bound_on(on).map(|b| b.parts().find_map(|(_, slot)| slot.reads));
        assert_eq!(slot.flatten(), reads, "User's key on entity {on:?}");
    }
    let copy = &v.copies[0];
    assert_eq!(copy.ids.by_on_source().map(ItemAttr::Own), Some(id("User", "user_id")));
    assert_eq!(copy.ids.numbered_by(), None, "a copied name numbers nothing");
}

/// A file may list other stores to be replayed on: it must be valid on each, and a store it
/// does not list is refused where the file names its own.
#[test]
fn other_engines_are_listed_and_checked_on_each() {
    const TITLE: &str = "title: \"Mini\",\n";
    const KEYS: &str = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),
        },"#;
    let with = |engines: &str| MINI.replacen(TITLE, &format!("{TITLE}engines: {engines},\n"), 1);
    // (engines, message, marker)
    let broken = [
        ("[DynamoDB]", "DynamoDB is listed already (as `engine` or earlier in `engines`)", "DynamoDB]"),
        ("[Cassandra, Cassandra]", "Cassandra is listed already", "Cassandra]"),
        ("[Mongo]", "", "Mongo]"),
    ];
    for (engines, message, marker) in broken {
        let text = with(engines);
        assert_error_at(&text, message, marker, text.find(marker));
    }
    // A variant Cassandra cannot hold is an error on Cassandra, said so, where it is written.
    let cached = with("[Cassandra]").replacen(
        KEYS,
        &format!("{KEYS}\n        cache: (items: 10, patterns: [\"user-posts\"]),"),
        1,
    );
    let marker = "(items: 10";
    assert_error_at(&cached, "(on Cassandra, which `engines` lists)", marker, cached.find(marker));

    let loaded = parse("mini.ron", &with("[Cassandra]")).expect("valid on both");
    assert_eq!(loaded.scenario.engines, [Engine::DynamoDb, Engine::Cassandra]);
    assert_eq!(loaded.scenario.engine, Engine::DynamoDb);
    let on = loaded.on_engine(Engine::Cassandra).expect("listed");
    assert_eq!(
        (on.scenario.engine, on.scenario.engines.clone()),
        (Engine::Cassandra, loaded.scenario.engines)
    );

    let alone = parse("mini.ron", MINI).expect("mini");
    let refused = alone.on_engine(Engine::Cassandra).expect_err("not listed").to_string();
    assert!(
        refused
            .contains("mini is replayed on DynamoDB only; to replay it on Cassandra, list it in `engines`"),
        "{refused}"
    );
}

/// A Cosmos DB container's throughput: at least 400 RU/s manual in steps of 100, autoscale's
/// maximum at least 1,000 in steps of 1,000, either at most 1,000,000 ("Azure Cosmos DB service
/// quotas"; "Create … with autoscale throughput"); 400 RU/s when the file does not say; DynamoDB
/// ignores it.
#[test]
fn a_cosmos_db_container_states_its_throughput_within_the_quotas() {
    use crate::engine::profile::cosmos::Throughput;
    const NAME: &str = "name: \"only\",";
    let with = |throughput: &str| {
        MINI.replacen("title: \"Mini\",\n", "title: \"Mini\",\nengines: [CosmosDB],\n", 1).replacen(
            NAME,
            &format!("{NAME}\n        throughput: {throughput},"),
            1,
        )
    };
    // (throughput, message)
    let refused = [
        ("Manual(300)", "manual throughput is at least 400 RU/s, in steps of 100; found 300"),
        ("Manual(450)", "in steps of 100; found 450"),
        ("Autoscale(max: 1500)", "autoscale's maximum is at least 1000 RU/s, in steps of 1000; found 1500"),
        ("Manual(1000100)", "a container's throughput is at most 1000000 RU/s"),
        (
            "Autoscale(max: 4294967000)",
            "at most 1000000 RU/s (Azure's default limit; more needs a support ticket); found 4294967000",
        ),
    ];
    for (throughput, message) in refused {
        let text = with(throughput);
        let marker = throughput.split('(').next().unwrap_or(throughput);
        assert_error_at(
            &text,
            message,
            marker,
            text.find(&format!("throughput: {marker}")).map(|at| at + 12),
        );
    }
    // (file, throughput on Cosmos DB)
    let cases = [
        (with("Manual(20000)"), Throughput::Manual(20_000.0)),
        (with("Autoscale(max: 40000)"), Throughput::Autoscale { max: 40_000.0 }),
        (with("Manual(1000000)"), Throughput::Manual(1_000_000.0)),
        (
            MINI.replacen("title: \"Mini\",\n", "title: \"Mini\",\nengines: [CosmosDB],\n", 1),
            Throughput::Manual(400.0),
        ),
    ];
    for (text, throughput) in cases {
        let loaded = parse("mini.ron", &text).expect("valid");
        let on = loaded.on_engine(Engine::CosmosDb).expect("listed");
        assert_eq!(on.variant(Some("only")).expect("only").cosmos_throughput(), throughput);
        assert_eq!(on.scenario.workload.retry.name, "cosmos-sdk", "Cosmos DB's own client by default");
        assert_eq!(loaded.scenario.workload.retry.name, "aws-java-v1-dynamodb");
    }
}

/// A sharded collection is MongoDB's ("Data Partitioning with Chunks"): refused with its line and
/// column on any other store; on MongoDB its collection must exist, 1 to 64 shards, and a range
/// size between 1 and 1024 MB ("Modify Range Size in a Sharded Cluster"), 128 MB by default.
#[test]
fn sharding_is_refused_off_mongodb_and_checked_on_it() {
    use crate::engine::profile::sharding::{DEFAULT_RANGE_BYTES, Strategy};
    const NAME: &str = "name: \"only\",";
    let with = |engine: &str, sharding: &str| {
        MINI.replacen("title: \"Mini\",\n", &format!("title: \"Mini\",\n{engine}"), 1).replacen(
            NAME,
            &format!("{NAME}\n        sharding: {sharding},"),
            1,
        )
    };
    let hashed = "(collection: \"Post\", shards: 3, key: Hashed)";
    // (engine line, sharding, message, marker the error points at)
    let refused = [
        (
            "",
            hashed,
            "sharding is MongoDB's (shard keys, ranges and the balancer): the DynamoDB profile has none",
            "sharding: ",
        ),
        ("engine: Cassandra,\n", hashed, "the Cassandra profile has none", "sharding: "),
        (
            "engine: DynamoDB,\nengines: [MongoDB],\n",
            hashed,
            "Replay on MongoDB (`--engine mongodb`, when the file lists it) or drop `sharding`",
            "sharding: ",
        ),
        (
            "engine: MongoDB,\n",
            "(collection: \"Nope\", shards: 3, key: Ranged)",
            "no entity is named \"Nope\"; the collections are: User, Post",
            "\"Nope\"",
        ),
        (
            "engine: MongoDB,\n",
            "(collection: \"Post\", shards: 0, key: Ranged)",
            "a sharded cluster here has 1 to 64 shards; found 0",
            "0, key",
        ),
        (
            "engine: MongoDB,\n",
            "(collection: \"Post\", shards: 3, key: Ranged, range_size: \"2GB\")",
            "a range size is between 1MB and 1024MB",
            "\"2GB\"",
        ),
        (
            "engine: MongoDB,\n",
            "(collection: \"Post\", shards: 3, key: Ranged, range_size: \"lots\")",
            "expected a size like",
            "\"lots\"",
        ),
    ];
    for (engine, sharding, message, marker) in refused {
        let text = with(engine, sharding);
        let at = text.find(marker).map(|at| if marker == "sharding: " { at + marker.len() } else { at });
        assert_error_at(&text, message, marker, at);
    }
    let loaded = parse("mini.ron", &with("engine: MongoDB,\n", hashed)).expect("valid on MongoDB");
    let s = loaded.variant(Some("only")).expect("only").sharding.clone().expect("sharded");
    assert_eq!(
        (s.entity.as_str(), s.shards, s.strategy, s.range_bytes),
        ("Post", 3, Strategy::Hashed, DEFAULT_RANGE_BYTES)
    );
    assert_eq!(s.entity_id.index(), 1);
}

/// `MaxShardShare` grades a sharded MongoDB collection: refused with its line and column on a
/// store that shards nothing, and its share must be more than 0 and at most 1; a share that is
/// not a number is RON's error, placed too.
#[test]
fn a_shard_share_goal_is_mongodbs_and_a_share_of_at_most_one() {
    const WORKLOAD: &str = "workload: (duration: \"30d\", tick: \"1s\", seed: 1),\n";
    let with = |engine: &str, check: &str| {
        MINI.replacen("title: \"Mini\",\n", &format!("title: \"Mini\",\n{engine}"), 1).replacen(
            WORKLOAD,
            &format!("{WORKLOAD}goals: [(name: \"spread\", check: {check})],\n"),
            1,
        )
    };
    // (engine line, check, message, marker the error points at)
    let refused = [
        (
            "",
            "MaxShardShare(0.5)",
            "MaxShardShare grades the shards of a sharded MongoDB collection: the DynamoDB profile has none",
            "MaxShardShare",
        ),
        ("engine: Cassandra,\n", "MaxShardShare(0.5)", "the Cassandra profile has none", "MaxShardShare"),
        (
            "engine: MongoDB,\n",
            "MaxShardShare(1.5)",
            "is more than 0 and at most 1 (0.5 is half), found 1.5",
            "1.5",
        ),
        ("engine: MongoDB,\n", "MaxShardShare(0.0)", "found 0", "0.0"),
        ("engine: MongoDB,\n", "MaxShardShare(-0.2)", "found -0.2", "-0.2"),
        (
            "engine: MongoDB,\n",
            "MaxShardShare(\"half\")",
            "`MaxShardShare` takes a number; found `\"half\"`",
            "\"half\"",
        ),
    ];
    for (engine, check, message, marker) in refused {
        let text = with(engine, check);
        let start = text.find("goals: ").expect("the goal is in");
        let at = text[start..].find(marker).map(|at| start + at);
        assert_error_at(&text, message, marker, at);
    }
    let loaded =
        parse("mini.ron", &with("engine: MongoDB,\n", "MaxShardShare(0.5)")).expect("valid on MongoDB");
    assert_eq!(loaded.scenario.goals[0].check, crate::engine::model::GoalCheck::MaxShardShare(0.5));
}

/// A hierarchical partition key is Cosmos DB's ("Hierarchical partition keys in Azure Cosmos
/// DB": up to three levels, one definition per container): its levels are checked as templates
/// where each is written, and the list is refused with its line and column on any other store.
#[test]
fn hierarchical_keys_are_cosmos_dbs_and_checked_where_written() {
    const POST: &str = r#""Post": (pk: "USER#{user_id}", sk: "POST#{posted_at}"),"#;
    let with = |engine: &str, user: &str, post: &str| {
        MINI.replacen("title: \"Mini\",\n", &format!("title: \"Mini\",\n{engine}"), 1)
            .replacen(r#""User": (pk: "USER#{user_id}", sk: "PROFILE"),"#, user, 1)
            .replacen(POST, post, 1)
    };
    let user = r#""User": (pk: ["U", "{user_id}"], sk: "PROFILE"),"#;
    let post = r#""Post": (pk: ["U", "{user_id}"], sk: "POST#{posted_at}"),"#;
    // (engine line, User keys, Post keys, message, marker the error points at)
    let refused = [
        (
            "",
            user,
            post,
            "a partition key of levels (a hierarchical partition key) is Cosmos DB's: the DynamoDB profile's partition key is one value. Write one template that joins the values, pk: \"U#{user_id}\"",
            "[\"U\"",
        ),
        ("engine: Cassandra,\n", user, post, "the Cassandra profile's partition key is one value", "[\"U\""),
        ("engine: DynamoDB,\nengines: [CosmosDB],\n", user, post, "the DynamoDB profile", "[\"U\""),
        (
            "engine: CosmosDB,\n",
            user,
            r#""Post": (pk: ["U", "{user}"], sk: "POST#{posted_at}"),"#,
            "unknown attribute \"user\"",
            "user}\"], sk: \"POST",
        ),
        (
            "engine: CosmosDB,\n",
            r#""User": (pk: ["a", "b", "c", "{user_id}"], sk: "PROFILE"),"#,
            post,
            "a hierarchical partition key has 1 to 3 levels (\"Hierarchical partition keys in Azure Cosmos DB\"); found 4",
            "\"{user_id}\"], sk: \"PROFILE",
        ),
        (
            "engine: CosmosDB,\n",
            r#""User": (pk: [], sk: "PROFILE"),"#,
            post,
            "a hierarchical partition key has 1 to 3 levels",
            "[], sk",
        ),
        (
            "engine: CosmosDB,\n",
            user,
            r#""Post": (pk: ["U", "{user_id}", "{posted_at}"], sk: "POST#{posted_at}"),"#,
            "Post's partition key has 3 level(s) and User's 2: the entities of a container share its partition key definition",
            "[\"U\", \"{user_id}\", \"{posted_at}\"]",
        ),
        (
            "engine: CosmosDB,\n",
            r#""User": (pk: 7, sk: "PROFILE"),"#,
            post,
            "Expected a key template like \"USER#{user_id}\", or a list of levels like [\"{tenant_id}\", \"{user_id}\"]",
            "7, sk",
        ),
        (
            "engine: CosmosDB,\n",
            r#""User": (pk: ["U", 7], sk: "PROFILE"),"#,
            post,
            "this field takes a string in double quotes; found `7`",
            "7], sk",
        ),
        (
            "engine: CosmosDB,\n",
            "\"User\": (pk: \"U\u{1f}{user_id}\", sk: \"PROFILE\"),",
            post,
            "the control character U+001F is keyheat's separator of a key's levels",
            "\u{1f}",
        ),
    ];
    for (engine, user, post, message, marker) in refused {
        let text = with(engine, user, post);
        let at = if marker.starts_with("[\"U\"") && engine.is_empty() || engine.contains("Cassandra") {
            text.find(user).map(|at| at + user.find('[').unwrap_or(0))
        } else {
            text.find(marker)
        };
        assert_error_at(&text, message, marker, at);
    }
    // On Cosmos DB: one key of two levels per entity; a list of one level is a plain key.
    let loaded = parse("mini.ron", &with("engine: CosmosDB,\n", user, post)).expect("valid on Cosmos DB");
    let keys = loaded.variant(Some("only")).expect("only").keys_named("Post").expect("Post").pk.clone();
    assert_eq!(keys.level_count(), 2);
    assert_eq!(keys.source(), r#"["U","{user_id}"]"#);
    assert_eq!(
        crate::engine::template::Template::try_from(keys.source().to_owned()).as_ref(),
        Ok(&keys),
        "its source reads back"
    );
    let one = with(
        "engine: CosmosDB,\n",
        r#""User": (pk: ["U#{user_id}"], sk: "PROFILE"),"#,
        r#""Post": (pk: ["U#{user_id}"], sk: "POST#{posted_at}"),"#,
    );
    let loaded = parse("mini.ron", &one).expect("valid");
    let pk = &loaded.variant(Some("only")).expect("only").keys_named("Post").expect("Post").pk;
    assert_eq!((pk.level_count(), pk.source()), (1, "U#{user_id}"));
}

/// A multikey index (an index on the elements of a list embedded whole) is MongoDB's, keys one
/// entity, holds each element's key and the parent's record id, and is the only way to read the
/// children alone: each case breaks `reviews` by one replacement, and the error points at the
/// place named (the last occurrence of `marker`).
#[test]
fn a_multikey_index_is_refused_where_the_store_has_none() {
    let (_, _, reviews) = BUNDLED.iter().find(|(name, ..)| *name == "reviews").expect("reviews is bundled");
    let index = r#"keys: {"Review": (pk: "{author_id}")})],"#;
    // (replace, with, message contains, marker)
    let cases = [
        (
            "engine: MongoDB,",
            "engine: DynamoDB,",
            "MongoDB multikey index, and DynamoDB indexes top-level",
            r#"(pk: "{author_id}")}"#,
        ),
        (
            "engine: MongoDB,",
            "engine: Cassandra,",
            "and Cassandra indexes top-level attributes only",
            r#"(pk: "{author_id}")"#,
        ),
        (
            index,
            r#"keys: {"Review": (pk: "{author_id}"), "Product": (pk: "{name}")})],"#,
            "so it keys only Review",
            r#"(pk: "{author_id}")"#,
        ),
        (
            index,
            r#"keys: {"Review": (pk: "{author_id}")}, projection: KeysOnly)],"#,
            "no `projection`",
            "(name: \"reviews-by-author\"",
        ),
        (
            r#"given: ["author_id"], keys: Uniform"#,
            r#"given: ["product_id"], keys: Uniform"#,
            r#"only the multikey index "reviews-by-author" reaches them, and it needs "author_id" given"#,
            "[(entity: \"Review\", into: \"Product\", by: \"product_id\", as: \"reviews\")]",
        ),
    ];
    for (replace, with, message, marker) in cases {
        assert!(reviews.contains(replace), "{replace}");
        let text = reviews.replacen(replace, with, 1);
        let error = parse("reviews.ron", &text).err().unwrap_or_else(|| panic!("{with} loaded")).to_string();
        assert!(error.contains(message), "{with}: {error}");
        let at = text.find(marker).unwrap_or_else(|| panic!("marker {marker}"));
        let (line, col) = position_of(&text, at);
        assert!(
            error.starts_with(&format!("reviews.ron:{line}:{col}:")),
            "{with}: {error} (marker at {line}:{col})"
        );
    }
    // As bundled, on MongoDB: the index over Product's list, and the read through it.
    let loaded = parse("reviews.ron", reviews).unwrap();
    let naive = loaded.variant(Some("naive")).unwrap();
    let list = naive.multikey_of(&naive.indexes[0]).expect("a multikey index");
    assert_eq!(
        (list.entity.as_str(), list.into.as_str(), list.as_name.as_str()),
        ("Review", "Product", "reviews")
    );
    // With the subset pattern the children are documents of their own: an ordinary index.
    let recommended = loaded.variant(Some("recommended")).unwrap();
    assert!(recommended.multikey_of(&recommended.indexes[0]).is_none());
}
