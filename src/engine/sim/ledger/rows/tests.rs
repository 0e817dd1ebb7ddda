use super::*;

fn row(sk: u64, size: u32, id: u32) -> Row {
    Row { sk, size, id }
}

/// Rows of a sensor's partition: a reading every 15 s, sizes 72..=76, ids ~50 apart.
fn readings(n: usize) -> Vec<Row> {
    (0..u32::try_from(n).unwrap())
        .map(|i| row(1_700_000_000 + 15 * u64::from(i), 72 + i % 5, 1_000 + 50 * i))
        .collect()
}

fn rows_of(rows: &[Row]) -> Rows {
    rows.iter().copied().collect()
}

#[test]
fn blocks_decode_to_the_rows_they_encode() {
    // (case, rows, bits a row)
    let cases: Vec<(&str, Vec<Row>, usize)> = vec![
        ("readings", readings(64), 10 + 3 + 12),
        ("one row", vec![row(u64::MAX, u32::MAX, u32::MAX)], 0),
        ("equal sizes and ids", (0..64).map(|i| row(i, 7, 9)).collect(), 6),
        ("byte-codec references", (0..64).map(|i| row((i * 24) << 20 | 0x11, 100, 5)).collect(), 31),
        ("spread of exactly 64 bits", vec![row(0, 0, 0), row(u64::MAX >> 10, 1023, 0)], 64),
        ("too spread: whole fields", vec![row(0, 0, 0), row(u64::MAX, u32::MAX, u32::MAX)], 128),
        ("wide keys, narrow rest", vec![row(1, 5, 5), row(u64::MAX, 6, 6)], 128),
        ("sizes and ids at their limits", vec![row(5, u32::MAX, 0), row(6, 0, u32::MAX)], 128),
    ];
    for (case, rows, width) in cases {
        let block = Block::encode(&rows, 0, 0);
        assert_eq!(block.width(), width, "{case}");
        assert_eq!(block.decode(), rows, "{case}");
        assert_eq!(block.bytes, rows.iter().map(|r| u64::from(r.size)).sum::<u64>(), "{case}");
        assert_eq!(block.first, rows[0].sk, "{case}");
        for (k, r) in rows.iter().enumerate() {
            assert_eq!((block.sk(k), block.size(k)), (r.sk, r.size), "{case} row {k}");
        }
    }
}

#[test]
fn a_year_of_readings_packs_below_five_bytes_a_row() {
    let rows = rows_of(&readings(64 * 1000 + 10));
    let heap = rows.blocks.iter().map(|b| size_of::<Block>() + 8 * b.words.len()).sum::<usize>()
        + rows.tail.capacity() * size_of::<Row>();
    assert!(heap * 10 < rows.len() * 50, "{} bytes a row", heap as f64 / rows.len() as f64);
    assert_eq!(size_of::<Block>(), 64, "a block header is one cache line");
}

/// Every way of reading `rows` agrees with `model`.
fn agree(rows: &Rows, model: &[Row]) {
    assert_eq!(rows.len(), model.len());
    assert_eq!(rows.iter().collect::<Vec<_>>(), model);
    for (i, r) in model.iter().enumerate() {
        assert_eq!(rows.get(i), *r, "row {i}");
        assert_eq!(rows.search_by(|sk| sk.cmp(&r.sk)), Ok(i));
        assert_eq!(
            rows.search_by(|sk| sk.cmp(&(r.sk + 1))),
            model.binary_search_by_key(&(r.sk + 1), |m| m.sk)
        );
    }
    let (mut start, mut before) = (0, 0);
    for block in &rows.blocks {
        assert_eq!(block.start(), start, "blocks start where the one before ends");
        assert_eq!(block.before, before, "a block's running sum is its predecessors' bytes");
        assert!(block.len() > 0 && block.len() <= BLOCK);
        start += block.len();
        before += block.bytes;
    }
    assert_eq!(start, rows.sealed);
    assert!(rows.tail.len() < BLOCK);
}

#[test]
fn edits_in_a_sealed_block_re_encode_it() {
    // (case, edit at position, edit)
    type Edit = fn(&mut Rows, &mut Vec<Row>, usize);
    let insert: Edit = |rows, model, i| {
        let r = row(model[i].sk - 1, 40_000, 7);
        rows.insert(i, r);
        model.insert(i, r);
    };
    let remove: Edit = |rows, model, i| assert_eq!(rows.remove(i), model.remove(i));
    let resize: Edit = |rows, model, i| {
        assert_eq!(rows.set(i, u32::MAX, 3), model[i]);
        (model[i].size, model[i].id) = (u32::MAX, 3);
    };
    let cases: [(&str, usize, Edit); 9] = [
        ("insert in the middle of a full block splits it", 70, insert),
        ("insert before a block's first row", 64, insert),
        ("insert at the very front", 0, insert),
        ("insert at the tail's first row", 192, insert),
        ("remove from the middle", 100, remove),
        ("remove a block's first row", 128, remove),
        ("remove from the tail", 195, remove),
        ("resize past the packed width", 65, resize),
        ("resize in the tail", 193, resize),
    ];
    for (case, at, edit) in cases {
        let mut model: Vec<Row> = readings(200).iter().map(|r| row(r.sk * 2, r.size, r.id)).collect();
        let mut rows = rows_of(&model);
        assert_eq!((rows.blocks.len(), rows.sealed), (3, 192), "{case}");
        edit(&mut rows, &mut model, at);
        agree(&rows, &model);
    }
}

#[test]
fn the_tail_seals_at_a_full_block_and_thin_blocks_merge() {
    let all = readings(300);
    let mut rows = Rows::default();
    for (i, r) in all.iter().enumerate() {
        rows.push(*r);
        assert_eq!(rows.blocks.len(), (i + 1) / BLOCK, "sealed only when full");
    }
    agree(&rows, &all);
    // Emptying the first block one row at a time: it merges into the next once thin enough.
    let mut model = all.clone();
    for _ in 0..60 {
        assert_eq!(rows.remove(0), model.remove(0));
        agree(&rows, &model);
    }
    assert!(rows.blocks.len() <= 4);
    // Removing every row, from the tail back, leaves an empty partition.
    while let Some(last) = model.pop() {
        assert_eq!(rows.remove(model.len()), last);
    }
    agree(&rows, &[]);
    assert!(rows.blocks.is_empty() && rows.sealed == 0);
}

#[test]
fn an_empty_partition_finds_nothing() {
    let rows = Rows::default();
    assert!(rows.is_empty());
    assert_eq!(rows.search_by(|sk| sk.cmp(&5)), Err(0));
    assert_eq!(rows.partition_point(|_| true), 0);
    assert_eq!(rows.range(0..0).count(), 0);
    assert_eq!(rows.page(0, 0, true, 10, 1_000), (0, 0, false));
}

/// A plain walk over `model`: what `Rows::page` must give.
fn walk(
    model: &[Row],
    from: usize,
    end: usize,
    forward: bool,
    limit: usize,
    page_bytes: u64,
) -> (usize, u64, bool) {
    let positions: Vec<usize> = if forward { (from..end).collect() } else { (end..=from).rev().collect() };
    let (mut count, mut bytes) = (0, 0u64);
    for i in positions {
        bytes += u64::from(model[i].size);
        count += 1;
        if count >= limit || bytes >= page_bytes {
            return (count, bytes, true);
        }
    }
    (count, bytes, false)
}

#[test]
fn pages_stop_where_a_walk_stops_at_block_edges() {
    let model = readings(300);
    let rows = rows_of(&model);
    for from in [0, 63, 64, 100, 127, 128, 191, 192, 299] {
        for forward in [true, false] {
            let end = if forward { model.len() } else { 0 };
            let walked: Vec<usize> =
                if forward { (from..end).collect() } else { (end..=from).rev().collect() };
            // Byte limits at, just below and just above the bytes read up to every row.
            let mut read = 0;
            for i in walked {
                read += u64::from(model[i].size);
                for page_bytes in [read - 1, read, read + 1, u64::MAX] {
                    for limit in [0, 1, 31, 32, 33, 63, 64, 65, 100, 128, 129, usize::MAX] {
                        assert_eq!(
                            rows.page(from, end, forward, limit, page_bytes),
                            walk(&model, from, end, forward, limit, page_bytes),
                            "from {from} forward {forward} limit {limit} bytes {page_bytes}"
                        );
                    }
                }
            }
        }
    }
}

#[derive(Debug, Clone)]
enum Op {
    /// Write key `k` (insert, or resize where present) with a size and id.
    Put(u64, u32, u32),
    Remove(usize),
    Query(u64),
    Page {
        from: usize,
        span: usize,
        forward: bool,
        limit: usize,
        page_bytes: u64,
    },
}

fn op() -> impl proptest::strategy::Strategy<Value = Op> {
    use proptest::prelude::*;
    prop_oneof![
        4 => (0u64..3000, 0u32..70_000, any::<u32>()).prop_map(|(k, s, i)| Op::Put(k, s, i)),
        1 => (0u64..3000, any::<u32>(), 0u32..100).prop_map(|(k, s, i)| Op::Put(k * 1_000_000_007, s, i)),
        2 => any::<usize>().prop_map(Op::Remove),
        1 => (0u64..3000).prop_map(Op::Query),
        // Pages by rows only (CQL) too: no byte limit.
        1 => (any::<usize>(), 0usize..600, any::<bool>(), 0usize..300, prop_oneof![1u64..2_000_000, Just(u64::MAX)])
            .prop_map(|(from, span, forward, limit, page_bytes)| Op::Page { from, span, forward, limit, page_bytes }),
    ]
}

proptest::proptest! {
    #[test]
    fn packed_rows_behave_like_a_vec(appends in 0usize..400, ops in proptest::collection::vec(op(), 0..120)) {
        let mut model: Vec<Row> = (0..u32::try_from(appends).unwrap()).map(|i| row(3 * u64::from(i), 70 + i % 7, 10 * i)).collect();
        let mut rows = rows_of(&model);
        for op in ops {
            match op {
                Op::Put(k, size, id) => match model.binary_search_by_key(&k, |r| r.sk) {
                    Ok(i) => {
                        proptest::prop_assert_eq!(rows.search_by(|sk| sk.cmp(&k)), Ok(i));
                        proptest::prop_assert_eq!(rows.set(i, size, id), model[i]);
                        (model[i].size, model[i].id) = (size, id);
                    }
                    Err(i) => {
                        proptest::prop_assert_eq!(rows.search_by(|sk| sk.cmp(&k)), Err(i));
                        rows.insert(i, row(k, size, id));
                        model.insert(i, row(k, size, id));
                    }
                },
                Op::Remove(at) if !model.is_empty() => {
                    let i = at % model.len();
                    proptest::prop_assert_eq!(rows.remove(i), model.remove(i));
                }
                Op::Query(k) => {
                    let i = model.partition_point(|r| r.sk < k);
                    proptest::prop_assert_eq!(rows.partition_point(|r| r.sk < k), i);
                    let upto = (i + 70).min(model.len());
                    proptest::prop_assert_eq!(rows.range(i..upto).collect::<Vec<_>>(), &model[i..upto]);
                }
                Op::Page { from, span, forward, limit, page_bytes } if !model.is_empty() => {
                    let from = from % model.len();
                    let end = if forward { (from + span + 1).min(model.len()) } else { from.saturating_sub(span) };
                    proptest::prop_assert_eq!(
                        rows.page(from, end, forward, limit, page_bytes),
                        walk(&model, from, end, forward, limit, page_bytes)
                    );
                }
                Op::Remove(_) | Op::Page { .. } => {}
            }
        }
        agree(&rows, &model);
    }
}

#[test]
fn a_galloping_search_finds_every_prefix_and_looks_near_the_start() {
    for len in 0..40 {
        for cut in 0..=len {
            let probes = std::cell::RefCell::new(Vec::new());
            let found = prefix_len(len, |i| {
                probes.borrow_mut().push(i);
                i < cut
            });
            assert_eq!(found, cut, "len {len}, cut {cut}");
            // Never further than twice the answer (plus the first probe) from the start.
            let furthest = probes.borrow().iter().copied().max().unwrap_or(0);
            assert!(furthest <= 2 * cut + 1, "len {len}, cut {cut}: probed {furthest}");
        }
    }
}

#[test]
fn an_append_above_the_last_key_is_a_push_and_anything_else_is_left_to_insert() {
    let mut rows = rows_of(&readings(BLOCK - 1));
    let mut model = readings(BLOCK + 1);
    let last = model[BLOCK - 2].sk;
    // (case, key, taken)
    for (case, sk, taken) in [("the same key", last, false), ("an older key", last - 1, false)] {
        assert_eq!(rows.append_above(row(sk, 1, 1), |l| l < sk), taken, "{case}");
        assert_eq!(rows.len(), BLOCK - 1, "{case}");
    }
    // The append that fills the tail seals it; the next finds no tail to compare with.
    assert!(rows.append_above(model[BLOCK - 1], |l| l < model[BLOCK - 1].sk));
    assert_eq!(rows.blocks.len(), 1);
    assert!(!rows.append_above(model[BLOCK], |l| l < model[BLOCK].sk));
    rows.push(model[BLOCK]);
    model.truncate(BLOCK + 1);
    agree(&rows, &model);
}

#[test]
fn a_search_starts_from_the_block_the_last_one_ended_in() {
    let model = readings(BLOCK * 300 + 10);
    let rows = rows_of(&model);
    // Compares of one search: the tail's two, the blocks' first keys, a bisection of a block.
    let search = |i: usize| {
        let (key, mut compares) = (model[i].sk, 0);
        let found = rows.search_by(|sk| {
            compares += 1;
            sk.cmp(&key)
        });
        assert_eq!(found, Ok(i), "row {i}");
        compares
    };
    let in_block = 7;
    // (case, row sought, most compares)
    let cases = [
        (
            "a window's lower bound, first asked: gallops 200 blocks from the end",
            100 * BLOCK + 5,
            2 + 16 + in_block,
        ),
        ("the same window a little later: the same block", 100 * BLOCK + 37, 2 + 2 + in_block),
        ("later still: the next block", 101 * BLOCK + 20, 2 + 4 + in_block),
        ("a window that moved three blocks on", 104 * BLOCK + 1, 2 + 6 + in_block),
        ("a month back from there: a gallop down", 10 * BLOCK, 2 + 14 + in_block),
    ];
    for (case, at, most) in cases {
        let compares = search(at);
        assert!(compares <= most, "{case}: {compares} compares, at most {most}");
    }
    // Edits that shift the blocks leave the hint a guess: every row is still found.
    let mut rows = rows;
    let mut model = model;
    for i in [5, 40 * BLOCK, 150 * BLOCK] {
        rows.remove(i);
        model.remove(i);
    }
    agree(&rows, &model);
}
