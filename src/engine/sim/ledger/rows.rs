//! One partition's rows in sort-key order, packed so that a year of readings fits in memory.
//!
//! Rows live in blocks of at most [`BLOCK`]. A sealed block keeps each field of a row as its
//! offset from the block's least value, in as many bits as the block's spread needs, all of a
//! row's fields side by side in one bit string: rows of one block are close in every field
//! (readings seconds apart, sizes that differ in a digit, ids handed out in order), so a sealed
//! block of the sensors year takes about 26 bits a row, 4.5 bytes with its header, where a plain
//! [`Row`] takes 16. A block whose fields need more than 64 bits a row keeps them whole (64 + 32
//! + 32 bits): every row fits somewhere.
//!
//! The open tail, fewer than [`BLOCK`] plain rows, takes appends (time-ordered keys) in O(1) and
//! is sealed when it fills. Blocks vary in length like B-tree leaves: an insert, removal or
//! resize in a sealed block decodes, edits and re-encodes that block alone (splitting it past
//! [`BLOCK`] rows, merging a thin one with its successor), and later blocks only shift their
//! start positions and running byte sums, so a middle insert moves O(blocks) headers instead of
//! O(rows) rows. Each block keeps its rows' byte sum and the sum of the blocks before it, so a
//! page takes a run of whole blocks by a galloping search, without visiting or decoding them.
//!
//! The rows know nothing of codecs: a sort key is a `u64` (inline, or an arena reference), and
//! the caller compares it.

use std::cell::Cell;
use std::cmp::Ordering;
use std::ops::Range;

use super::Row;

/// Rows per block at most (and per sealed tail).
pub const BLOCK: usize = 64;

/// A sealed block: `len` rows bit-packed into `words`.
#[derive(Debug, Clone)]
struct Block {
    /// Row k at bits `k·width ..`, fields sort key, size, id from the low bits up; one spare word
    /// at the end, so that any field reads as the two words its first bit starts (`bits_at`).
    words: Box<[u64]>,
    /// The first row's sort key, so a search does not decode.
    first: u64,
    base_sk: u64,
    /// The sum of the rows' sizes.
    bytes: u64,
    /// The sum of the sizes of the rows in the blocks before this one: with `start`, a page
    /// finds how many whole blocks fit its limits by a galloping search, not a walk.
    before: u64,
    /// Position of the first row in the partition (`start()`): a u32, so the header stays one
    /// cache line (a partition's rows are items, whose ids are u32).
    start: u32,
    base_size: u32,
    base_id: u32,
    len: u8,
    /// Bits of the sort-key, size and id offsets.
    widths: [u8; 3],
}

/// The low `bits` bits set.
fn mask(bits: u8) -> u64 {
    if bits >= 64 { u64::MAX } else { (1 << bits) - 1 }
}

/// Bits needed to hold `spread`.
fn bits(spread: u64) -> u8 {
    u8::try_from(u64::BITS - spread.leading_zeros()).expect("at most 64 bits")
}

impl Block {
    fn encode(rows: &[Row], start: usize, before: u64) -> Block {
        assert!(!rows.is_empty() && rows.len() <= BLOCK, "a block holds 1..=BLOCK rows");
        let mut lo = Row { sk: u64::MAX, size: u32::MAX, id: u32::MAX };
        let mut hi = Row { sk: 0, size: 0, id: 0 };
        for row in rows {
            (lo.sk, hi.sk) = (lo.sk.min(row.sk), hi.sk.max(row.sk));
            (lo.size, hi.size) = (lo.size.min(row.size), hi.size.max(row.size));
            (lo.id, hi.id) = (lo.id.min(row.id), hi.id.max(row.id));
        }
        let mut widths =
            [bits(hi.sk - lo.sk), bits(u64::from(hi.size - lo.size)), bits(u64::from(hi.id - lo.id))];
        if widths.iter().map(|&w| usize::from(w)).sum::<usize>() > 64 {
            // Too spread to pack: whole fields, each row on its own pair of words.
            widths = [64, 32, 32];
            lo = Row { sk: 0, size: 0, id: 0 };
        }
        let [sk_bits, size_bits, _] = widths;
        let width = widths.iter().map(|&w| usize::from(w)).sum::<usize>();
        let mut words = vec![0u64; ((rows.len() * width).div_ceil(64) + 1).max(2)];
        for (k, row) in rows.iter().enumerate() {
            let (sk, size, id) = (row.sk - lo.sk, u64::from(row.size - lo.size), u64::from(row.id - lo.id));
            let at = k * width;
            if width <= 64 {
                // A shift by 64 comes only after fields of the other 64 bits, so the value
                // shifted is 0 and the wrapped shift leaves it 0.
                let packed = sk
                    | size.wrapping_shl(u32::from(sk_bits))
                    | id.wrapping_shl(u32::from(sk_bits + size_bits));
                put_bits(&mut words, at, packed);
            } else {
                put_bits(&mut words, at, sk);
                put_bits(&mut words, at + 64, size | id << 32);
            }
        }
        Block {
            words: words.into_boxed_slice(),
            first: rows[0].sk,
            base_sk: lo.sk,
            bytes: rows.iter().map(|r| u64::from(r.size)).sum(),
            before,
            start: u32::try_from(start).expect("a partition's rows are fewer than 2^32"),
            base_size: lo.size,
            base_id: lo.id,
            len: u8::try_from(rows.len()).expect("BLOCK fits in u8"),
            widths,
        }
    }

    fn len(&self) -> usize {
        usize::from(self.len)
    }

    fn start(&self) -> usize {
        self.start as usize
    }

    /// Position after the last row, and the byte sum of the rows up to it.
    fn end(&self) -> (usize, u64) {
        (self.start() + self.len(), self.before + self.bytes)
    }

    fn width(&self) -> usize {
        self.widths.iter().map(|&w| usize::from(w)).sum()
    }

    /// Row `k`'s field that starts `offset` bits into the row and is `bits` wide. A field of
    /// no bits is not read: at the end of the last row it may start past the spare word.
    fn field(&self, k: usize, offset: u8, bits: u8) -> u64 {
        if bits == 0 {
            return 0;
        }
        bits_at(&self.words, k * self.width() + usize::from(offset)) & mask(bits)
    }

    fn sk(&self, k: usize) -> u64 {
        self.base_sk + self.field(k, 0, self.widths[0])
    }

    fn size(&self, k: usize) -> u32 {
        let [sk_bits, size_bits, _] = self.widths;
        self.base_size + low_u32(self.field(k, sk_bits, size_bits))
    }

    fn row(&self, k: usize) -> Row {
        let [sk_bits, size_bits, id_bits] = self.widths;
        Row {
            sk: self.sk(k),
            size: self.size(k),
            id: self.base_id + low_u32(self.field(k, sk_bits + size_bits, id_bits)),
        }
    }

    /// The byte sum of rows `range`: the block's sum less the rows outside it when those are
    /// fewer, so no more than half the block is decoded.
    fn bytes_of(&self, range: Range<usize>) -> u64 {
        let len = self.len();
        if range.len() == len {
            return self.bytes;
        }
        // Each size read as the 64 bits from its first (`bits_at`), not as a row's 128: half
        // the instructions of a 24-hour chart's partial blocks.
        let [sk_bits, size_bits, _] = self.widths;
        let (width, mask) = (self.width(), mask(size_bits));
        let sizes = |rows: Range<usize>| {
            let count = rows.len() as u64;
            let offsets: u64 = if size_bits == 0 {
                0
            } else {
                rows.map(|k| bits_at(&self.words, k * width + usize::from(sk_bits)) & mask).sum()
            };
            count * u64::from(self.base_size) + offsets
        };
        if 2 * range.len() <= len {
            sizes(range)
        } else {
            self.bytes - sizes(0..range.start) - sizes(range.end..len)
        }
    }

    /// Decodes the rows into the front of `out`; returns how many.
    fn decode_into(&self, out: &mut [Row]) -> usize {
        for (k, slot) in out[..self.len()].iter_mut().enumerate() {
            *slot = self.row(k);
        }
        self.len()
    }

    #[cfg(test)]
    fn decode(&self) -> Vec<Row> {
        (0..self.len()).map(|k| self.row(k)).collect()
    }
}

/// The 64 bits of `words` from bit `at` up (zeros past the end of the next word): every
/// field sits within 64 bits of its first, and a block keeps a spare word at its end.
fn bits_at(words: &[u64], at: usize) -> u64 {
    let (word, shift) = (at / 64, at % 64);
    // Two shifts, so that a shift of 0 takes nothing from the next word without shifting by 64.
    (words[word] >> shift) | ((words[word + 1] << 1) << (63 - shift))
}

/// ORs `value`, at most 64 bits, into `words` from bit `at` up (`bits_at` reversed).
fn put_bits(words: &mut [u64], at: usize, value: u64) {
    let (word, shift) = (at / 64, at % 64);
    words[word] |= value << shift;
    words[word + 1] |= (value >> 1) >> (63 - shift);
}

/// A size or id offset, masked to at most 32 bits.
#[allow(clippy::cast_possible_truncation, reason = "masked to at most 32 bits")]
fn low_u32(v: u64) -> u32 {
    v as u32
}

/// Room for the rows of a block being edited: a full block and the row an insert adds.
type Scratch = [Row; BLOCK + 1];
const SCRATCH: Scratch = [Row { sk: 0, size: 0, id: 0 }; BLOCK + 1];

/// A partition's rows: sealed blocks, then the open tail.
#[derive(Debug, Clone)]
pub struct Rows {
    blocks: Vec<Block>,
    /// Rows in sealed blocks; the tail's first row is at this position.
    sealed: usize,
    /// Fewer than [`BLOCK`] rows, unpacked: where appends go.
    tail: Vec<Row>,
    /// The block the last search among the blocks ended in (`u32::MAX`: none yet), where the
    /// next one starts: a sliding window's lower bound (the last 24 hours) is a block or two
    /// from where it was. Only a guess: an edit that shifts blocks makes the search longer,
    /// never wrong.
    hint: Cell<u32>,
}

impl Default for Rows {
    fn default() -> Rows {
        Rows { blocks: Vec::new(), sealed: 0, tail: Vec::new(), hint: Cell::new(u32::MAX) }
    }
}

impl Rows {
    pub fn len(&self) -> usize {
        self.sealed + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The block holding position `i` and the row's place in it; block `blocks.len()` is the tail.
    fn locate(&self, i: usize) -> (usize, usize) {
        if i >= self.sealed {
            return (self.blocks.len(), i - self.sealed);
        }
        // Blocks are full unless edits in the middle split or thinned them.
        if let Some(block) = self.blocks.get(i / BLOCK)
            && block.start() <= i
            && i < block.start() + block.len()
        {
            return (i / BLOCK, i - block.start());
        }
        let b = self.blocks.partition_point(|block| block.start() <= i) - 1;
        (b, i - self.blocks[b].start())
    }

    /// The byte sum of the rows before position `i` (`i` may be `len()`): a block's running
    /// sum and the sizes of the smaller part of its block.
    fn bytes_before(&self, i: usize) -> u64 {
        match self.locate(i) {
            (b, k) if b < self.blocks.len() => self.blocks[b].before + self.blocks[b].bytes_of(0..k),
            (_, k) => {
                let sealed = self.blocks.last().map_or(0, |last| last.end().1);
                sealed + self.tail[..k].iter().map(|row| u64::from(row.size)).sum::<u64>()
            }
        }
    }

    fn block_len(&self, b: usize) -> usize {
        self.blocks.get(b).map_or(self.tail.len(), Block::len)
    }

    pub fn get(&self, i: usize) -> Row {
        assert!(i < self.len(), "row {i} of {}", self.len());
        match self.locate(i) {
            (b, k) if b < self.blocks.len() => self.blocks[b].row(k),
            (_, k) => self.tail[k],
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        self.range(0..self.len())
    }

    /// The rows at positions `range`, in order.
    pub fn range(&self, range: Range<usize>) -> Iter<'_> {
        assert!(range.end <= self.len(), "rows {range:?} of {}", self.len());
        let (block, k) = self.locate(range.start);
        Iter { rows: self, block, k, left: range.end.saturating_sub(range.start) }
    }

    /// First position whose sort key is not below the sought one (`Ok` when equal); `cmp`
    /// compares a row's sort key with the sought key.
    ///
    /// Writes append and reads ask for the newest rows, so the search looks at the tail first
    /// (an append compares with the last row only), then gallops over the blocks' first keys
    /// (1, 2, 4… blocks) from the block the last search ended in — the last block at first —
    /// before bisecting: O(log distance from there), touching block headers rather than rows,
    /// and near where the partition was last read rather than its cold middle. A 24-hour
    /// window asked again finds its lower bound a block or two on, in a few headers still in
    /// cache, where a gallop from the end crossed the day's ~90 blocks at a cache miss each.
    pub fn search_by(&self, mut cmp: impl FnMut(u64) -> Ordering) -> Result<usize, usize> {
        if let Some(last) = self.tail.last() {
            if cmp(last.sk) == Ordering::Less {
                return Err(self.len());
            }
            if cmp(self.tail[0].sk) != Ordering::Greater {
                let sealed = self.sealed;
                return self.tail.binary_search_by(|r| cmp(r.sk)).map(|k| sealed + k).map_err(|k| sealed + k);
            }
        }
        let Some(at) = self.blocks.len().checked_sub(1) else { return Err(0) };
        let below = self.blocks_below(&mut cmp, (self.hint.get() as usize).min(at));
        let Some(b) = below.checked_sub(1) else { return Err(0) };
        self.hint.set(u32::try_from(b).unwrap_or(u32::MAX));
        let block = &self.blocks[b];
        let (mut a, mut z) = (0, block.len());
        while a < z {
            let mid = a + (z - a) / 2;
            match cmp(block.sk(mid)) {
                Ordering::Less => a = mid + 1,
                Ordering::Greater => z = mid,
                Ordering::Equal => return Ok(block.start() + mid),
            }
        }
        Err(block.start() + a)
    }

    /// How many blocks start at or below the sought key, galloping from block `from` up or
    /// down (1, 2, 4… blocks), then bisecting the last step.
    fn blocks_below(&self, mut cmp: impl FnMut(u64) -> Ordering, from: usize) -> usize {
        let mut above = |b: usize| cmp(self.blocks[b].first) == Ordering::Greater;
        // blocks[..lo] start at or below the key, blocks[hi..] above it.
        let (mut lo, mut hi, mut step) = (0, self.blocks.len(), 1);
        if above(from) {
            hi = from;
            while step <= hi {
                let at = hi - step;
                if !above(at) {
                    lo = at + 1;
                    break;
                }
                hi = at;
                step *= 2;
            }
        } else {
            lo = from + 1;
            while lo + step - 1 < hi {
                let at = lo + step - 1;
                if above(at) {
                    hi = at;
                    break;
                }
                lo = at + 1;
                step *= 2;
            }
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if above(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// The first position whose row fails `pred`, which holds for a prefix of the rows.
    pub fn partition_point(&self, mut pred: impl FnMut(&Row) -> bool) -> usize {
        let (mut a, mut z) = (0, self.len());
        while a < z {
            let mid = a + (z - a) / 2;
            if pred(&self.get(mid)) {
                a = mid + 1;
            } else {
                z = mid;
            }
        }
        a
    }

    /// Appends a row whose key is above every other.
    pub fn push(&mut self, row: Row) {
        self.insert(self.len(), row);
    }

    /// Appends `row` when the open tail holds a row and `above` says the row's key is above
    /// the tail's last: what `search_by` then `insert` do for a put of the newest key, without
    /// the search. False, and nothing changes, otherwise.
    #[inline]
    pub fn append_above(&mut self, row: Row, above: impl FnOnce(u64) -> bool) -> bool {
        if !self.tail.last().is_some_and(|last| above(last.sk)) {
            return false;
        }
        self.tail.push(row);
        if self.tail.len() == BLOCK {
            self.seal_tail();
        }
        true
    }

    /// Inserts `row` at position `i`.
    ///
    /// Inlined for its common case, a row into the open tail: called, `row` came by address
    /// from the caller's stack, written a field at a time and read back whole, a load that
    /// waits for both stores (two thirds of an insert's time).
    #[inline]
    pub fn insert(&mut self, i: usize, row: Row) {
        assert!(i <= self.len(), "insert at {i} of {}", self.len());
        if i < self.sealed {
            return self.insert_sealed(i, row);
        }
        self.tail.insert(i - self.sealed, row);
        if self.tail.len() == BLOCK {
            self.seal_tail();
        }
    }

    /// The full tail becomes a block.
    #[inline(never)]
    fn seal_tail(&mut self) {
        let before = self.blocks.last().map_or(0, |last| last.end().1);
        self.blocks.push(Block::encode(&self.tail, self.sealed, before));
        self.sealed += BLOCK;
        self.tail.clear();
    }

    /// `insert` into a sealed block.
    #[inline(never)]
    fn insert_sealed(&mut self, i: usize, row: Row) {
        // Edits decode into a buffer on the stack: no allocation but the new block's words.
        let (b, k) = self.locate(i);
        let mut rows = SCRATCH;
        let n = self.blocks[b].decode_into(&mut rows);
        rows.copy_within(k..n, k + 1);
        rows[k] = row;
        self.rewrite(b, 1, &rows[..=n]);
    }

    pub fn remove(&mut self, i: usize) -> Row {
        assert!(i < self.len(), "remove at {i} of {}", self.len());
        if i >= self.sealed {
            return self.tail.remove(i - self.sealed);
        }
        let (b, k) = self.locate(i);
        let mut rows = SCRATCH;
        let n = self.blocks[b].decode_into(&mut rows);
        let old = rows[k];
        rows.copy_within(k + 1..n, k);
        let n = n - 1;
        // A thin block joins its successor, so removals cannot leave a header per row.
        let next = self.blocks.get(b + 1).map(Block::len);
        if n < BLOCK / 4 && next.is_some_and(|next| n + next <= BLOCK) {
            let joined = n + self.blocks[b + 1].decode_into(&mut rows[n..]);
            self.rewrite(b, 2, &rows[..joined]);
        } else {
            self.rewrite(b, 1, &rows[..n]);
        }
        old
    }

    /// Gives row `i` a new size and id; returns the row as it was.
    pub fn set(&mut self, i: usize, size: u32, id: u32) -> Row {
        let (b, k) = self.locate(i);
        if b == self.blocks.len() {
            let row = &mut self.tail[k];
            let old = *row;
            (row.size, row.id) = (size, id);
            return old;
        }
        let mut rows = SCRATCH;
        let n = self.blocks[b].decode_into(&mut rows);
        let old = rows[k];
        (rows[k].size, rows[k].id) = (size, id);
        self.rewrite(b, 1, &rows[..n]);
        old
    }

    /// Replaces blocks `b..b + count` by `rows` (none, one block, or two halves past
    /// [`BLOCK`]) and shifts the blocks after them.
    fn rewrite(&mut self, b: usize, count: usize, rows: &[Row]) {
        let (start, before) = (self.blocks[b].start(), self.blocks[b].before);
        let old: usize = self.blocks[b..b + count].iter().map(Block::len).sum();
        let old_bytes: u64 = self.blocks[b..b + count].iter().map(|block| block.bytes).sum();
        let half = rows.len().div_ceil(2);
        let (one, two) = match rows.len() {
            0 => (None, None),
            n if n <= BLOCK => (Some(Block::encode(rows, start, before)), None),
            _ => {
                let one = Block::encode(&rows[..half], start, before);
                let two = Block::encode(&rows[half..], start + half, before + one.bytes);
                (Some(one), Some(two))
            }
        };
        let new_bytes = one.iter().chain(&two).map(|block| block.bytes).sum::<u64>();
        let after = b + usize::from(one.is_some()) + usize::from(two.is_some());
        self.blocks.splice(b..b + count, one.into_iter().chain(two));
        let (grew, shrank) = (rows.len().saturating_sub(old), old.saturating_sub(rows.len()));
        for block in &mut self.blocks[after..] {
            block.start =
                u32::try_from(block.start() + grew - shrank).expect("a partition's rows are fewer than 2^32");
            block.before = block.before + new_bytes - old_bytes;
        }
        self.sealed = self.sealed + grew - shrank;
    }

    /// Rows from `from` onward (forward) or `from` downward (backward) until `limit` rows or
    /// `page_bytes`: how many were read, their bytes, and whether a limit stopped the walk. `end`
    /// bounds the walk (exclusive forward, inclusive lower end backward). A page whose rows
    /// cannot reach `page_bytes` is taken by two running sums; any other walks a block (or the
    /// tail) at a time: whole blocks that fit below both limits are taken by their byte
    /// sums, and a block the row limit ends in, when its bytes cannot reach `page_bytes`, by
    /// decoding the sizes of whichever part of it is smaller (`Block::bytes_of`).
    pub fn page(
        &self,
        from: usize,
        end: usize,
        forward: bool,
        limit: usize,
        page_bytes: u64,
    ) -> (usize, u64, bool) {
        let available = if forward { end - from } else { from + 1 - end };
        // A walk reads a row before it checks the limit: a limit of 0 reads one row, as 1 does.
        let limit = limit.max(1);
        // A page the byte limit cannot stop is its row count, and its bytes the difference of
        // two running sums: two block headers and two partial blocks, however long the page
        // (a galloping search over the headers touched a cold header at every probe).
        let take = limit.min(available);
        if take > 0 {
            let (low, high) = if forward { (from, from + take) } else { (from + 1 - take, from + 1) };
            let bytes = self.bytes_before(high) - self.bytes_before(low);
            if bytes < page_bytes {
                return (take, bytes, take == limit);
            }
        }
        let (mut count, mut bytes) = (0usize, 0u64);
        let (mut b, mut k) = self.locate(from);
        while count < available {
            // Whole blocks that fit below both limits are taken by their sums: a long page is
            // mostly these. Whether a run of them that ends the walk at `count` rows and `bytes`
            // fits holds for a prefix of the runs (both sums grow with the run), so the longest
            // is found by a galloping search over the blocks' running sums, not a walk of them:
            // a page of a month's readings spans thousands of blocks.
            let fits = |count: usize, bytes: u64| count <= available && count < limit && bytes < page_bytes;
            if forward && let Some(head) = self.blocks.get(b).filter(|_| k == 0) {
                let (from, below) = (head.start(), head.before);
                let run = prefix_len(self.blocks.len() - b, |i| {
                    let (end, through) = self.blocks[b + i].end();
                    fits(count + (end - from), bytes + (through - below))
                });
                if run > 0 {
                    let (end, through) = self.blocks[b + run - 1].end();
                    (count, bytes, b) = (count + (end - from), bytes + (through - below), b + run);
                }
            } else if !forward && self.blocks.get(b).is_some_and(|block| k + 1 == block.len()) {
                let (end, through) = self.blocks[b].end();
                let taken = prefix_len(b + 1, |i| {
                    let block = &self.blocks[b - i];
                    fits(count + (end - block.start()), bytes + (through - block.before))
                });
                if taken > 0 {
                    let low = &self.blocks[b + 1 - taken];
                    (count, bytes) = (count + (end - low.start()), bytes + (through - low.before));
                }
                if taken > b {
                    // Every block down to the first: the walk has read all it may.
                    break;
                }
                b -= taken;
                k = self.blocks[b].len() - 1;
            }
            if count == available {
                break;
            }
            let len = self.block_len(b);
            // The rows of this block the walk reads: `run` of them from `k` in reading order.
            let run = (if forward { len - k } else { k + 1 }).min(available - count);
            let first = if forward { k } else { k + 1 - run };
            match self.blocks.get(b) {
                Some(block) if bytes + block.bytes < page_bytes => {
                    // No row of this block can reach the byte limit: only the row limit stops.
                    let take = run.min(limit - count);
                    let at = if forward { first } else { first + run - take };
                    bytes += block.bytes_of(at..at + take);
                    count += take;
                    if count >= limit {
                        return (count, bytes, true);
                    }
                }
                Some(block) => {
                    for i in 0..run {
                        bytes += u64::from(block.size(if forward { k + i } else { k - i }));
                        count += 1;
                        if count >= limit || bytes >= page_bytes {
                            return (count, bytes, true);
                        }
                    }
                }
                None => {
                    let rows = &self.tail[first..first + run];
                    let mut step = |row: &Row| {
                        bytes += u64::from(row.size);
                        count += 1;
                        count >= limit || bytes >= page_bytes
                    };
                    let stopped =
                        if forward { rows.iter().any(&mut step) } else { rows.iter().rev().any(&mut step) };
                    if stopped {
                        return (count, bytes, true);
                    }
                }
            }
            if forward {
                (b, k) = (b + 1, 0);
            } else if b > 0 {
                (b, k) = (b - 1, self.block_len(b - 1) - 1);
            } else {
                break;
            }
        }
        (count, bytes, false)
    }
}

/// How many of `0..len` `holds` is true of, when it holds for a prefix of them: probes 1, 2,
/// 4… ahead, then bisects the last step. O(log of the answer), and it touches only what lies
/// near the start (a page's run of blocks from its first, not the middle of a year of them).
fn prefix_len(len: usize, holds: impl Fn(usize) -> bool) -> usize {
    // `holds` is true below `lo` and false at `hi` (or `hi` is `len`).
    let (mut lo, mut step) = (0, 1);
    let mut hi = len;
    while lo < len {
        let probe = (lo + step - 1).min(len - 1);
        if !holds(probe) {
            hi = probe;
            break;
        }
        lo = probe + 1;
        step *= 2;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if holds(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

impl FromIterator<Row> for Rows {
    /// Rows already in sort-key order.
    fn from_iter<I: IntoIterator<Item = Row>>(rows: I) -> Rows {
        let mut out = Rows::default();
        for row in rows {
            out.push(row);
        }
        out
    }
}

/// Rows of a range, decoded in order.
pub struct Iter<'a> {
    rows: &'a Rows,
    block: usize,
    k: usize,
    left: usize,
}

impl Iterator for Iter<'_> {
    type Item = Row;

    fn next(&mut self) -> Option<Row> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let Some(block) = self.rows.blocks.get(self.block) else {
            self.k += 1;
            return Some(self.rows.tail[self.k - 1]);
        };
        let row = block.row(self.k);
        self.k += 1;
        if self.k == block.len() {
            (self.block, self.k) = (self.block + 1, 0);
        }
        Some(row)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests;
