use super::*;
use crate::engine::hash::hash_bytes;

/// The page a plain walk over the rows reads (the rule, without block sums).
fn walk(sizes: &[u32], from: usize, end: usize, forward: bool, limit: usize) -> (usize, u64, bool) {
    let positions: Vec<usize> = if forward { (from..end).collect() } else { (end..=from).rev().collect() };
    let (mut count, mut bytes) = (0, 0u64);
    for i in positions {
        bytes += u64::from(sizes[i]);
        count += 1;
        if count >= limit || bytes >= PAGE_BYTES {
            return (count, bytes, true);
        }
    }
    (count, bytes, false)
}

proptest::proptest! {
    #[test]
    fn block_sums_page_like_a_walk(
        sizes in proptest::collection::vec(1u32..40_000, 0..700),
        from in 0usize..700,
        span in 0usize..700,
        forward: bool,
        limit in 1usize..400,
        edits in proptest::collection::vec((0usize..700, 1u32..40_000, 0u8..3), 0..20),
    ) {
        let mut ledger = Ledger::new(Codec::Inline, 0);
        let p = ledger.intern(KeyType::S, b"k", 7);
        let mut model: Vec<(u64, u32)> = Vec::new();
        for (i, &size) in sizes.iter().enumerate() {
            ledger.put(p, SortRef::Inline(2 * i as u64), size, 0);
            model.push((2 * i as u64, size));
        }
        // Overwrites, middle inserts and removals keep the block sums right.
        for (at, size, kind) in edits {
            match kind {
                0 if !model.is_empty() => {
                    let i = at % model.len();
                    ledger.put(p, SortRef::Inline(model[i].0), size, 0);
                    model[i].1 = size;
                }
                1 => {
                    let key = 2 * (at as u64) + 1;
                    if let Err(i) = model.binary_search_by_key(&key, |m| m.0) {
                        ledger.put(p, SortRef::Inline(key), size, 0);
                        model.insert(i, (key, size));
                    }
                }
                _ if !model.is_empty() => {
                    let i = at % model.len();
                    ledger.remove(p, SortRef::Inline(model[i].0));
                    model.remove(i);
                }
                _ => {}
            }
        }
        let sizes: Vec<u32> = model.iter().map(|m| m.1).collect();
        proptest::prop_assert_eq!(ledger.partition(p).rows().iter().map(|r| r.size).collect::<Vec<_>>(), sizes.clone());
        if sizes.is_empty() {
            return Ok(());
        }
        let from = from % sizes.len();
        let (first, end) = if forward { (from, (from + span).min(sizes.len())) } else { (from, from.saturating_sub(span)) };
        if forward && first >= end {
            return Ok(());
        }
        let expected = walk(&sizes, first, end, forward, limit);
        proptest::prop_assert_eq!(ledger.partition(p).page(first, end, forward, limit, PAGE_BYTES), expected);
        let total: u64 = sizes.iter().map(|&s| u64::from(s)).sum();
        proptest::prop_assert_eq!((ledger.items(), ledger.bytes()), (sizes.len() as u64, total));
    }
}

#[test]
fn byte_keys_compact_their_arena_and_keep_order() {
    let mut ledger = Ledger::new(Codec::Bytes, 100);
    let p = ledger.intern(KeyType::S, b"CUSTOMER#1", hash_bytes(b"CUSTOMER#1"));
    for round in 0..50u32 {
        for i in 0..100u32 {
            let key = format!("ORDER#{i:05}-{round}");
            ledger.put(p, SortRef::Bytes(key.as_bytes()), 10, i);
        }
        for i in 0..100u32 {
            let key = format!("ORDER#{i:05}-{round}");
            assert!(ledger.remove(p, SortRef::Bytes(key.as_bytes())).is_some());
        }
    }
    ledger.put(p, SortRef::Bytes(b"PROFILE"), 30, 1);
    ledger.put(p, SortRef::Bytes(b"ORDER#2"), 20, 2);
    let part = ledger.partition(p);
    assert!(part.arena.len() < 4096 + 64, "dead bytes were compacted away: {}", part.arena.len());
    let keys: Vec<Vec<u8>> = part.rows().iter().map(|r| part.sk_bytes(&r).to_vec()).collect();
    assert_eq!(keys, [b"ORDER#2".to_vec(), b"PROFILE".to_vec()]);
    // Stored bytes carry the 100-byte overhead per row.
    assert_eq!((ledger.items(), ledger.bytes()), (2, 250));
    assert_eq!(ledger.live_partitions(), 1);
    ledger.remove(p, SortRef::Bytes(b"PROFILE"));
    ledger.remove(p, SortRef::Bytes(b"ORDER#2"));
    assert_eq!((ledger.items(), ledger.bytes(), ledger.live_partitions()), (0, 0, 0));
}

#[test]
fn interning_finds_keys_and_keeps_types_apart() {
    let mut ledger = Ledger::new(Codec::Inline, 0);
    let a = ledger.intern(KeyType::S, b"17", hash_bytes(b"17"));
    let b = ledger.intern(KeyType::N, b"17", hash_bytes(b"17"));
    assert_ne!(a, b, "an S key and an N key with the same text are different partitions");
    assert_eq!(ledger.find(KeyType::S, b"17", hash_bytes(b"17")), Some(a));
    assert_eq!(ledger.find(KeyType::N, b"17", hash_bytes(b"17")), Some(b));
    // A forced hash collision still tells keys apart.
    let c = ledger.intern(KeyType::S, b"other", hash_bytes(b"17"));
    assert_eq!(ledger.find(KeyType::S, b"other", hash_bytes(b"17")), Some(c));
    assert_eq!(ledger.key_of(c), b"other");
}

#[test]
fn keys_sharing_a_cache_slot_are_each_found_in_any_order() {
    // Hashes equal in their low bits share a slot of the cache of partitions found; equal
    // hashes share one too, and a chain in the lookup.
    let keys: [(&[u8], u64); 4] = [(b"a", 7), (b"b", 7 + 256), (b"c", 7 + (1 << 40)), (b"d", 7)];
    let mut ledger = Ledger::new(Codec::Inline, 0);
    let ids: Vec<u32> = keys.iter().map(|&(key, hash)| ledger.intern(KeyType::S, key, hash)).collect();
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [0, 3, 0, 1], [2, 2, 1, 3]] {
        for k in order {
            let (key, hash) = keys[k];
            assert_eq!(ledger.find(KeyType::S, key, hash), Some(ids[k]), "key {k} in order {order:?}");
        }
    }
    assert_eq!(ledger.find(KeyType::S, b"e", 7), None, "a key never interned is not found");
    assert_eq!(ledger.find(KeyType::N, b"a", 7), None, "nor a key of another type");
}

#[test]
fn scan_totals_count_marks_and_split_bytes_by_range() {
    let mut ledger = Ledger::new(Codec::Inline, 0);
    ledger.enable_scan(1);
    let mut expected_marks = 0;
    for k in 0..3000u32 {
        let key = format!("c{k}");
        let p = ledger.intern(KeyType::S, key.as_bytes(), hash_bytes(key.as_bytes()));
        for i in 0..(k % 7) {
            ledger.put(p, SortRef::Inline(u64::from(i)), 150 + k % 50, k);
            if (k + i) % 10 == 0 {
                ledger.mark(p, 0, 1);
                expected_marks += 1;
            }
        }
    }
    let ranges = [0, u64::MAX / 3, u64::MAX / 3 * 2];
    let (mut cursor, mut count, mut bytes, mut marked, mut pages) = (ScanCursor::default(), 0, 0, 0, 0);
    let mut by_range = [0u64; 3];
    loop {
        let page = ledger.scan_page(
            cursor,
            500,
            &ranges,
            ScanMode::Totals {
                mark: Some(0),
                partial: &mut |p, r| (r.id + u32::try_from(r.sk).unwrap()) % 10 == 0 && ledger_id(p),
            },
        );
        count += page.count;
        bytes += page.bytes;
        marked += page.matched;
        pages += 1;
        for (r, b) in &page.by_range {
            by_range[*r] += b;
        }
        match page.next {
            Some(next) if page.stopped => cursor = next,
            _ => break,
        }
    }
    assert_eq!(count, ledger.items());
    assert_eq!(bytes, ledger.bytes());
    assert_eq!(marked, expected_marks);
    assert_eq!(by_range.iter().sum::<u64>(), ledger.bytes());
    assert!(by_range.iter().all(|&b| b > 0));
    assert!(pages >= ledger.items().div_ceil(500) && pages <= ledger.items().div_ceil(500) + 1);
}

/// Every partition in this test may hold marked rows.
fn ledger_id(_: u32) -> bool {
    true
}

/// A prefix read's logical partitions: those placed in the prefix's range whose key has the
/// prefix, in scan order — the same through the scan index's buckets as by a look at every
/// partition, and never a key placed in the range under another prefix.
#[test]
fn partitions_in_a_range_are_those_with_the_prefix_in_scan_order() {
    use crate::engine::profile::cosmos;
    let keys: Vec<String> = (0..40)
        .flat_map(|t| (0..3).map(move |b| format!("tenant-{t:02}{}{b}", cosmos::LEVEL_SEPARATOR)))
        .collect();
    let mut plain = Ledger::new(Codec::Inline, 0);
    let mut indexed = Ledger::new(Codec::Inline, 0);
    indexed.enable_scan(0);
    for key in &keys {
        let hash = cosmos::placement(key.as_bytes(), hash_bytes);
        plain.intern(KeyType::S, key.as_bytes(), hash);
        indexed.intern(KeyType::S, key.as_bytes(), hash);
    }
    let range = cosmos::prefix_range(b"tenant-07", 2, 1, hash_bytes);
    let under = format!("tenant-07{}", cosmos::LEVEL_SEPARATOR);
    let found = |ledger: &Ledger, prefix: &[u8]| -> Vec<String> {
        let parts = ledger.partitions_in(range, prefix);
        parts.iter().map(|&p| String::from_utf8_lossy(ledger.key_of(p)).into_owned()).collect()
    };
    let mut want: Vec<&String> = keys.iter().filter(|k| k.starts_with(&under)).collect();
    want.sort_by_key(|k| (cosmos::placement(k.as_bytes(), hash_bytes), k.as_bytes().to_vec()));
    assert_eq!(found(&plain, under.as_bytes()), want.iter().map(|k| (*k).clone()).collect::<Vec<_>>());
    assert_eq!(found(&indexed, under.as_bytes()), found(&plain, under.as_bytes()));
    // Another prefix's keys are placed elsewhere: none of them in this range.
    assert!(found(&plain, b"tenant-08").is_empty());
}
