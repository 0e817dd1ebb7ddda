//! The fluid replay (`--fidelity rates`): the workload as rates and sizes per tick instead of
//! one call at a time, so a year of 10¹² writes replays in seconds. It produces the same
//! [`RunReport`] as the per-operation replay, marked `fidelity: rates`.
//!
//! # What it computes, and how it agrees with the per-operation replay
//!
//! - **Calls**: each pattern's calls per tick are the per-operation replay's own sequence
//!   (`rate × shape × tick + carry`, floored), so call counts agree exactly.
//! - **Picks**: each member of a population gets its exact share of a pattern's calls
//!   (`Popularity::shares`, with the run's seed placing a scrambled Zipf's ranks as `pick`
//!   does), so the busiest key is the same key, with the same text.
//! - **Sizes**: a partition's items are the expected number of distinct keys its writes leave
//!   (writes whose sort keys meet replace each other: within a second when the key holds the
//!   write time; `Seq` picks are counted exactly); bytes use the mean item size of the replay's
//!   own generators, sampled; preloaded items are placed one by one, exactly. Two writes' sort
//!   keys meet with Σ share² of a pick, as if its values were equally likely — exact for a
//!   uniform pick, a few dozen values where thousands are drawn for a Zipf one (`model::Skew`,
//!   judged by the popularity each put picks with: its pattern's `keys` for its first given,
//!   else the population's; a `New` attribute other than the identity is a pick too):
//!   puts whose sort key varies only by a member picked with unequal shares count their items
//!   as updates do (`distinct`, the expected distinct members their landed puts picked, from
//!   the real shares), and such a pick beside the write time or another varying value is
//!   refused, as are such puts onto preloaded partitions (which members the preload holds is
//!   not kept). An index's sort key of such a pick, on items puts replace, is still counted by
//!   Σ share² (practice-chat `recommended`'s memberships by user: a few hundred joins over
//!   5,000 users, so two rarely meet).
//! - **Largest partition and peaks**: the per-operation figure is a maximum of random counts
//!   (over partitions and ticks), so it is itself a draw. The fluid replay reports the **median
//!   of that maximum**, computed from Binomial counts per tick (`extremes`), with the band from
//!   its 0.1% to its 99.9% quantile in `RunReport::bands`; the agreement test holds the
//!   per-operation figure to that band, or to 2% where the band is narrower. A `Seq` pick's
//!   peak is exact (⌈calls / members⌉ per tick). Where patterns pick one key with different
//!   shares, a member's requests in a tick are the sum of each pattern's own Binomial, at its
//!   own units (`extremes::Maxima::mixed`: lanes of one unit cost summed exactly on whole
//!   counts, a Poisson binomial; each law convolved once and remembered), not one Binomial at
//!   their mean share, which spreads too much where one share is far above the other — on
//!   DynamoDB and Cosmos DB alike, where the partition never throttled. A DynamoDB partition
//!   that throttled keeps the mean share (its band wider than the sum's); Cosmos DB refuses it.
//! - **Row-paged reads** (Cassandra, `pages`): a read sends one request a page of the driver's
//!   fetch size (R = 5,000 rows) on each partition it asks, and a page stops at R rows even
//!   when none is left, so a range of K rows takes ⌊K/R⌋ + 1 (one where the call's limit fits
//!   in a page). K is the member's puts in the range so far (each put flow's share of its
//!   calls between the range's ends, a tick's calls spread evenly over it), less those whose
//!   sort key repeats a taken one (`new_rows`: equally likely values, Poisson counts, within
//!   the second where the key holds the write time), and its preloaded rows; its expected
//!   pages are 1 + Σⱼ P(K ≥ jR) under a Normal count, weighed over the members the read picks
//!   (walked by their largest put share, stopping at the first that cannot reach a page). A
//!   call's most requests (`max_requests`) approximate the busiest call's: the busiest
//!   member's pages at its expected rows at a tick's middle, not the median of a maximum (a
//!   run's busiest call may ask later in its tick). A Scan pages over every row of its table:
//!   the preload's and the distinct keys of every put so far at its tick's middle. Refused
//!   where a page is within reach: a sharded key, a read of part of a partition other than a
//!   span of write time (a clustering value it gives or fixes, a prefix, a range the key
//!   cannot apply), a limit past a page over several buckets, partitions an update or a
//!   delete writes, sort keys repeating by a skewed pick; and a filtered read with a limit, a
//!   Scan that stops at its limit, and a Scan of a table an update writes.
//! - **Write shards** (`model::Shards`): a partition key's `shard(n)` — or a class slot of
//!   shards whose class is the key's member (`shard(by: tenant_id, tenant-0000 = 8, else =
//!   1)`: each member its class's count) — makes each shard of each member a partition of its
//!   own. A put draws its shard uniformly (`regen::shard_draw`), so each shard gets its
//!   member's share over the count; a read asks every shard of its member (`exec::read`'s
//!   `partition_keys`), one request and one Query's units each, so a call's requests and
//!   partitions asked are its member's shard count — or, a Get of them, one BatchGetItem of
//!   every shard on DynamoDB (one request a call, each key's units on its own partition; a run
//!   stops once a batch would be refused, since a batch is refused and retried whole). Peaks,
//!   bands and sizes are per shard, as the per-operation replay's are per key.
//! - **Keys of several attributes** (`axes`): a partition key with a second member (a seat of an
//!   event) or a drawn value of a small stated set (a choice, a lifecycle's state, a chance, a
//!   constant text) beside its member has a partition per distinct key text, numbered after the
//!   member in mixed radix. A call's chance of one is the product of its chances on each
//!   attribute (each is drawn from its own stream): a member's popularity share, a drawn value's
//!   stated weight (a new item's lifecycle in its first state), a constant read with (`equals`)
//!   certain. A `hash(attr, n)` slot is such an attribute too: its n slots' chances are those of
//!   the hashed attribute's values (a member's shares, a drawn value's weights), summed by the
//!   slot the replay's own hash puts each in. A read that does not give the hashed value asks
//!   every slot (`exec::read`'s `partition_keys`), one request each, as a read of a write shard
//!   asks every shard: each slot gets the whole call, and a call's requests and partitions asked
//!   are the slots' count (`Axis::scattered`; practice-top-customers `recommended`'s top 10, 32
//!   Queries of 10 entries). A hash of the new item's own identity (practice-shop
//!   `recommended`'s sparse index, `TOSHIP#{hash(order_id, 8)}`) puts each put in its new id's
//!   slot; the ids a run makes are known (the one put pattern's call k makes member `initial +
//!   k`), so a put's chance of a slot is the share of the run's new ids hashed there
//!   (`axes::fresh_spread`), exact over the run, and within a tick a draw at that share (the
//!   replay's hash spreads consecutive ids as independent draws would: practice-shop's 120,000
//!   new ids take 12.3% to 12.7% of them a slot). Refused: a drawn number, time or payload in a
//!   partition key or hashed there, `Seq` picks there, a write shard beside them, a hash of the
//!   new item's own identity whose ids two put patterns or `growth_per_day` number, and a hash
//!   of an attribute the key or its sort key also holds.
//! - **Updates** (UpdateItem, `exec::write`): a call names the item its givens key (a sharded key's
//!   shard drawn as a put's) and creates it when the key holds none, so an update counts as a put
//!   of that key: its member's share of the calls, the item it leaves (the givens, the item's own
//!   draws and fresh draws of its `sets`: the generators a put samples) for bytes, the distinct
//!   keys its landed writes touched for items, never an overwrite, and on DynamoDB the write units
//!   of the larger of the item's size before and after (DESIGN.md §4; both such items, so fixed
//!   when every sampled item is in one unit). A key written over its life is kept if one of its
//!   writes landed, not in proportion to those that did. An update's constants (`equals`: those
//!   its pattern states, and a text every item holds, such as leaderboard's `board`) only fill
//!   the key it names its item by; one outside the table's key changes nothing it writes (the
//!   item keeps its own value there). An update that sets an index's sort-key attribute
//!   (`moves`: leaderboard's score) names a preloaded item by its identity and moves its entry
//!   — a delete and a put on the partition the item's other values keep it in, two entry writes
//!   (`Model::moved_flows`, as an aggregate's update of an indexed value) — so each index
//!   partition gets the shares of the members whose preloaded entries it holds, and the table
//!   and the index keep the preload's items and bytes. A sort key of a constant, or of the
//!   partition's own attributes, keeps one item a partition; one of a picked member
//!   (`distinct`: practice-ratelimit `naive`, pk `RL#{bucket(at, 1m)}`, sk `{client_id}`) names
//!   one item per member within the partition, so the partition's write units and throttling
//!   are its updates' (each on the one partition key), and its items the expected distinct
//!   members its landed updates picked, `Σⱼ 1 − Πᵢ (1 − sᵢ·λ·pᵢⱼ)^cᵢ` over each write flow `i`'s
//!   `cᵢ` calls of the bucket, the partition's share `sᵢ` of them, its landed share `λ` and the
//!   pick's shares `pᵢⱼ` (exactly, not as equally likely values), with the spread of
//!   independent items for the largest partition's band (an upper bound). A bucket's items are counted when it closes,
//!   from the writes landed by then, so a bucket that closes with half a write or more still
//!   waiting for its retry is refused at run time, whatever writes it — puts, updates, index
//!   entries (practice-ratelimit `naive` past its first minute: its retries land on the closed
//!   window's key through the next). Refused: updates stepping a lifecycle of items puts of
//!   new identities make (`lifecycle`: practice-shop's `advance`, whose writes depend on the
//!   state each order is in — the expected items in each state, and the index entries a step
//!   removes or moves, are not kept), updates of items puts
//!   also write (the item is whichever wrote last), of an entity with its own identity other
//!   than such a move, of items with a sort key of anything else that varies (a time, a drawn
//!   value, two picked members, a `Seq` pick), named by a picked member and also written by
//!   another write, version-checked or read by a Query or Scan (their units count the writes,
//!   not the items kept), of items with
//!   index entries the update rewrites in place, moves to another partition or gates, updates
//!   that name their item by a constant in the table's key, that set a key attribute (the item
//!   moves), or set an attribute whose next value depends on its last (`Sometimes`, a
//!   lifecycle, kept or copied values).
//! - **Capacity and throttling** (DynamoDB, `capacity`): each tick's expected demand in
//!   units — a put's and a GetItem's fixed units (every sampled item in one write unit, every
//!   item under 4 KB, or refused), a Query's units of `min(limit, n)` items of the group's mean
//!   size rounded up to 4 KB, averaged over `n`, its partition's preloaded items and a Poisson
//!   count of the writes in its range — is fed to the
//!   per-operation replay's own [`Meter`](super::meter::Meter) per physical partition, in ten
//!   slots of the tick; the meter's partition budgets and on-demand or provisioned allowance
//!   decide what is served, at most `E[X] − E[(X − budget)⁺]` of a Binomial demand `X`; the
//!   rest is retried over the retry policy's waits and fails past its last retry. Throttled
//!   requests, retries, failures, units and the writes that landed (hence items and bytes) are
//!   expected values. Peaks are in units; in a tick in which a partition throttled, its
//!   busiest keys' loads are their part of what it served (`Capacity::thinned`).
//!   Partitions split for size and for heat as the meter calls for them, at the points the
//!   per-operation replay's own `split_point` and `heat_split_points` give for every key's
//!   expected bytes or recent load.
//! - **Aggregates** (`aggregate`, `upkeep`'s `aggregate`): each put of a pattern an aggregate is
//!   `on` brings one UpdateItem, a request of the call's pattern, of the aggregated item its
//!   values key, per aggregated entity (a count adds 1, a sum the put's attribute): a write flow
//!   of the put's pattern onto that entity's partitions, each member the put's share of the
//!   member its key attribute picks — an aggregate item is as hot as the keys that feed it — in
//!   write units of the larger of the item's size before and after (DESIGN.md §4; the value may
//!   grow to the largest number's bytes: the same units for every sampled item, or refused).
//!   The items it updates are the preloaded ones, one a member, so items and bytes are the
//!   preload's (the value's few bytes of growth left out). Its requests, units, throttling and
//!   retries are its pattern's; its writes count in write amplification as the per-operation
//!   replay's `aggregate_writes` do. An index whose sort key holds the value has the item's
//!   entry moved by every update — a delete and a put on the partition the item's other values
//!   keep it in, two entry writes of the entry's units (`Model::moved_flows`) — so each index
//!   partition gets the shares of the members whose preloaded entries it holds, and keeps their
//!   count; a Query of the index reads those entries. The peak of a partition a put and its
//!   aggregate's update both load (a customer's orders and profile under one key) is one draw
//!   of the call's pick, with both requests' units (`Replay::lanes`). A put refused on the table
//!   is refused at run time (below): retried, it brings its aggregate when it lands. Refused:
//!   claims, aggregates of other writes than a PutItem (an update, a transaction), of items not
//!   all preloaded (an update that creates one holds only its keys and value), that calls also
//!   write, with index entries the update would rewrite in place, move to another partition or
//!   gate, or read by a Query of the table or a Scan, and aggregate keys not made of the put's
//!   pick of the item's member alone (a sort key that varies, a shard, a time).
//! - **Create-once puts** (`condition: NotExists`, `condition`): a put onto a key an item holds
//!   is refused, writes nothing and still consumes the write units of the larger of the two
//!   items (DESIGN.md §4), so every put is metered as an unconditional one; of the puts that
//!   landed on a key the first makes the item and the rest are refused — the items are the
//!   distinct keys the landed puts touched, as for unconditional puts, and the puts refused are
//!   the landed puts less those items (per pattern and in total: `condition_failed`), where an
//!   unconditional put would have overwritten one. Refused: create-once puts of items another
//!   pattern or the preload writes, with index entries or aggregates, or of an upserted entity.
//! - **Version-checked updates** (`condition: Version`, `version`): a call reads its item
//!   (strongly consistent) and writes it on the version read; it loses its race when another
//!   update of the item landed within its read-to-write time (exponential, mean 8 ms), with the
//!   chance `pₘ = r·qₘ / (1 − r + r·qₘ)`, `r = e^(−1/(λ·W))`, of an item taking share `qₘ` of
//!   calls evenly spaced at λ a second (the planner's `conflict_chance`), and a lost race adds a
//!   failed write (charged the item's write units) and a read again. The read and the lost
//!   races are flows of their own onto the item's partition (shares `qₘ` and `qₘ·pₘ`) that
//!   write nothing (`Model::charges`); lost races, their requests and units are expected
//!   values, and a peak counts each call's expected lost races with it (its band is the calls'
//!   count's, without the races' own spread). practice-ledger `recommended`: ~2,206 lost races
//!   as rates, 2,172 per operation (2,114 to 2,229 under seeds 1 to 8). Refused: version checks
//!   off a store metered in read and write units, of items another pattern writes, under a rate
//!   shape, of `Seq` picks, with a Query or Scan of the items, of items whose reads or failed
//!   writes fall in different units, and at run time a partition that throttles a version-checked
//!   update's request (its retry reads and races again later, and which writes land when decides
//!   the races: practice-ledger `naive`, ~1,470 write units a second asked of one key).
//! - **TTL** (`ttl`): an expired item is deleted by the store's sweeper the profile's delay
//!   after its expiry (DynamoDB: 48 hours, free), and read until then. The fluid replay deletes
//!   nothing, so it replays a TTL only over a run that ends before the sweeper can reach an item
//!   — the start plus the shortest lifetime (the variant's, or a writer's own `ttl`) plus the
//!   delay — and refuses a longer one; until then the expiry is an attribute of the items like
//!   another, in their sampled sizes.
//! - **Global secondary indexes** (DynamoDB, DESIGN.md §4): each has its own meter, partitions
//!   and splits (`scopes`). Every put writes its entry on the index partition holding its index
//!   key, in write units of the entry's size, sampled as the per-operation replay sizes it
//!   (`regen::entry_bytes`): an `All` projection's is the item, whose size counts the index's
//!   key attributes too; a `KeysOnly` or `Include` entry holds the table's and the index's key
//!   attributes and the projected ones. A Query of the index reads the entries of its range
//!   there, of the entries' size, eventually consistent, as a Query of the table does. A sparse
//!   index (`only_when`) gets an entry from the share of puts whose gated attribute takes the
//!   value (a choice's weight, a lifecycle's first state, a chance's odds), drawn apart from the
//!   member, so each member's entry writes are that share of its puts; a gated attribute in the
//!   index key is then the value's constant text. Entries never replace each other (their place
//!   ends with the table key) unless their items do. Index figures (entry writes, items, bytes
//!   with the 100-byte entry overhead, units, throttled reads, its busiest physical partition and
//!   key) fill `IndexReport` as the per-operation replay's do; preloaded entries are placed one
//!   by one. A put that replaces an item writes its entry once only if the table's key fixes the
//!   index's: an index whose key such a put may change (the entry moves: two writes) is refused,
//!   and so is a sparse or partly projected index of items puts may replace (the entry is
//!   rewritten only when what it projects changed, and may come or go).
//! - **Scans** (DynamoDB, `capacity::scan`): a call reads the whole table at its tick's middle
//!   as the per-operation replay pages it (`exec::read`'s `scan`): what every physical
//!   partition holds then (the preload and the writes landed, overwrites not taken off, as for
//!   the splits), in pages of 1 MB and the overshoot of their last item (half a mean item),
//!   each `Metering::page` of its bytes (0.5 read unit per started 4 KB), and a last page of
//!   the rest. Each partition is metered for the part of the call's units and pages (its
//!   requests) whose bytes it holds, in the tick's slots like any read; the work per tick is
//!   one pass over the physical partitions. A call's pages are its requests, the most pages a
//!   call read its `max_requests`, and its units per call over the run's first and last tenth
//!   its `rcu_per_call_start`/`_end`: a Scan's cost grows with the table.
//! - **Filtered Queries** (DynamoDB, `model::filter_chance`): a filter is applied after a
//!   Query's items are read and charged (DESIGN.md §4: units and the 1 MB page count the items
//!   before it), so a filtered Query asks for every item of its range, as the per-operation
//!   replay's request does (`exec::read`'s `Limits`), and reads on until the call has its
//!   limit's matches: where they are rare it reads the whole range and costs what an
//!   unfiltered Query without a limit does. Its filter is a word search in a generated text
//!   (`contains(body, :word)`: the call's random five-letter word, at most
//!   `(len − 4)·(20/512)·(2/32)⁴` likely in a text of `len` random letters, `items::word_chance`);
//!   a call's matches are at most a Poisson count of that chance times its items over every
//!   bucket it asks, and a run in which they may reach its limit before its range ends (with a
//!   chance over 10⁻³, `capacity::filter_may_stop`) is refused. What the filter returns changes
//!   no figure the report fills (items returned per call are left at 0, as for every read).
//!   The peak of a partition such a Query reads sums each pattern's requests in a tick at that
//!   pattern's own units (`extremes::Maxima::mixed`; a Query's units its member's most over the
//!   run, as for every Query's peak, so the band leans high where the range grows): a channel
//!   search's ~30 read units beside ~1.5 of opening the channel, where requests at their mean
//!   units would put the peak at half what two searches of one second read. practice-search
//!   `recommended` over ten minutes (its bundled two hours are refused: the busiest channel's
//!   bucket then holds more than one 1 MB page). Refused: other filters (a given value, a constant, a time, a prefix: their
//!   matches follow values rates do not keep), a word search in a value other than a generated
//!   text, that peak on a partition that throttles, and that peak where the sum's law would
//!   pass `extremes::MAX_ATOMS` atoms once values equal to 10⁻¹² are merged (lanes of
//!   unrelated units with many requests each; lanes of one unit cost never multiply).
//! - **GSI queues** (`capacity::Capacity::queue_slot`, DESIGN.md §4): where every entry write of
//!   an index moves an updated value's entry (leaderboard's score) and the update has entries in
//!   no other index and no aggregate, an index partition queues the entry writes its budget leaves
//!   short, as the per-operation replay's admission does (`exec`'s `admit`): in each slot of a
//!   tick, with nothing queued reads and writes share the budget and the writes it leaves short
//!   queue; with writes queued every entry write waits behind them (reads alone take the
//!   budget); the queue holds at most 5 s of the partition's write capacity
//!   (`meter::GSI_BACKLOG_SECS`), and a write that finds it full is refused whole — throttled,
//!   retried over the policy's waits, given up past its last retry, as any refused request —
//!   so the table's meter takes only the writes the index admitted, new and retried
//!   (`Queues::admitted_calls`, once the queue has refused one). The queue is the
//!   per-operation replay's own (`Meter::drain`: what each tick leaves of the partition's budget
//!   applies it, in order); each slot's queued writes go in as pieces spread over the part of
//!   the slot they came in, so the lag — the oldest queued write's wait at a tick's end
//!   (`Meter::lag_secs`), at most over the run — counts from their arrival. A read served while
//!   its partition has writes queued is stale. The index's units and entry writes are the writes
//!   it admitted (served at once or queued), its throttled requests its reads' and the writes
//!   its full queue refused. What is still queued at the end changes no entry (a move keeps the
//!   index's entries and bytes), so other entry writes — new entries, missing from the index and
//!   its Queries until they drain — are refused (below). leaderboard `naive`: ~6 s of lag,
//!   40% of requests throttled, ~10,800 game ends given up, as per operation.
//! - **Refused at run time** (the tick it happens): an index partition that cannot serve all of its
//!   entry writes at once, other than the queues above — they would queue (replication lag,
//!   stale reads) and a full queue would throttle the table's writes (back-pressure), refusing a
//!   write with entries in several indexes on all of them — once the expected writes it refused
//!   over the run reach 10⁻³ (`capacity::GUARDED_REFUSALS`: the per-operation replay refuses
//!   one with at most that chance; a demand whose random tail only grazes the budget,
//!   practice-top-customers `recommended`'s busiest index partition at ~80% of its 1,000 write
//!   units through the flash sale, refuses ~10⁻⁴ of a write); a queue of the random bursts of
//!   a demand not clearly past its partition's budget (below it, or within 3 standard deviations
//!   above: `NEAR_SDS`), once 10⁻³
//!   of a unit was queued so (expected values follow neither how often such a queue exists —
//!   its stale reads — nor its lag: leaderboard `recommended`, whose busiest index partition
//!   holds 6 of the 16 hash() slots at ~95% of its budget: per operation 1 s of lag, 14,568 stale
//!   reads and 24 to 144 top-10 Queries throttled by seed); a split of an index partition with
//!   writes queued (the pieces of a queue keep no key to split by; a partition one key loads
//!   cannot split, and keeps its queue); a table that throttles writes of items with index
//!   entries or aggregates (their retries write the entries and the aggregates later; an
//!   aggregate's own update refused is retried as any write), and a Scan
//!   whose page a partition or the table refuses (the call waits there with the rest of its
//!   pages, and its budget leaves the tick's other requests short, none of which a flow
//!   follows). Replication lag and stale reads are therefore 0 in a report without a queue.
//! - **Refused on DynamoDB**: local indexes, a sparse index gated on a member, a number, a time
//!   or a payload (no stated chance of the value), a Query of an index followed by a fetch from
//!   the table of what it does not project other than those modelled below (`fetch`), a Scan
//!   that stops at its Limit (no order binds it: it reads until it has that many matches),
//!   Queries with a filter other than the word searches below and Queries past one 1 MB
//!   page. A formatted time in a partition key (`{sent_at:%Y-%m}`) is a bucket of its calendar
//!   period's own length (`capacity::buckets`).
//! - **Request units** (Cosmos DB, `cosmos`): point reads, updates, puts and queries of one
//!   logical partition, items sized as their JSON, charged by the profile's table of RU by size
//!   (an update a replace, but a key's first, which creates its item at a create's RU — half
//!   a replace's; a put a create, its RU the sampled items' mean charge, where its key
//!   cannot be taken: `check_puts`; a query one page on its partition, 2.5 RU and 1 RU a started
//!   KB of the items it loads, as a DynamoDB Query's page is weighed), are fed to the
//!   per-operation replay's own container meter (`setup::new_meter`): each physical partition
//!   serves its even share of the RU/s, and whole the request that finds any budget left, so
//!   it serves past its budget by half the crossing request's RU on average (`overdraft`), owed
//!   by the next ticks. A key's first update (`capacity::creates`): each partition key keeps
//!   its chance of holding no item yet, and in a tick its expected requests up to the first
//!   that lands (at the partition's last landed share) are creates, so each request of the key
//!   asks its mean RU; once served, the tick's landed share takes that chance down, as the items
//!   counted at a bucket's close are. A refused create is retried at a create's RU, and the
//!   peaks weigh every update as a replace (a key's first second one create's saving high, at
//!   most): expectations. counters `recommended` over ten seconds (~4,700 of 80,000 likes
//!   create their shard's counter, 2.4% of the RU) and counters over 100,000 streams picked
//!   uniformly agree per operation. Under a retry policy without jitter (the Cosmos DB SDK's 1 s) a tick is
//!   forty slots, not ten: each retry comes back at the place in its tick it was refused at.
//!   `RequestUnitsReport` is filled from the expected values, without normalized RU consumption
//!   (a busiest second is a maximum of random demand). Refused: retry policies with jitter,
//!   create-once puts, puts whose key may hold an item (a replace, twice a create's RU),
//!   queries of more than one logical partition, a partition two patterns pick with different
//!   shares while it throttles (their peak: each pattern's lane of `extremes::Maxima::mixed`
//!   where nothing throttles; a throttled DynamoDB partition keeps their mean share) or among
//!   new items (`Growth`),
//!   queries of a hierarchical key's first levels (sent to the physical partitions holding
//!   the prefix) but where the prefix is the key's member and the rest its time slot, on one
//!   physical partition (one page of the member's items so far: `model::prefix_read`),
//!   secondary indexes and aggregates on Cosmos DB, and first updates (a
//!   create) of keys with a time slot (each bucket's keys are created anew), of items named by
//!   a picked sort-key member (a create per member a partition's updates pick) or of `Seq`
//!   picks (a member's calls come in turn, not as draws); after the run, a logical
//!   partition that may reach 20 GB (writes past it are refused) and 429s more than 2% of which came in seconds whose
//!   expected demand was within 3 standard deviations of the partition's share
//!   (`Capacity::check_tail`).
//! - **Shared partitions** (`shared`): a single-table design's entities under one partition key
//!   (practice-chat `naive`'s memberships and messages under the channel's; practice-top-customers
//!   `naive`'s profile and orders under the customer's) share each partition. Each entity keeps its
//!   own key group for its writes, the items they replace and what a Query of its sort-key range
//!   reads; the partition is seen once for its items and bytes (both entities', member by
//!   member), its load in a tick (every flow of either: each key the sum of both entities'
//!   expected loads), the table's partition count, its largest and its hottest, and the meter
//!   puts both on one physical partition (one key hash) and never splits between them. Refused:
//!   keys that are not the same partitions member for member (some shared, others not), a time
//!   slot or a write shard in them, index entries sharing partitions, and sort keys without
//!   distinct literal prefixes (chat `naive` on DynamoDB: a Query of a channel's members would
//!   read its messages, and items of the two could replace each other).
//! - **Puts of new identities** (`model::Growth`, `growth`): a put keyed by the new item's own
//!   identity makes a member of its own, numbered after the members so far (call k of the run
//!   member `initial + k`, `Shares::Fresh`: exact, one put a key), and a GetItem by that
//!   identity picks among the members at the start of its tick (`Pop::start_tick`), so the
//!   replay works each read's shares out anew every tick (`Popularity::shares` over the tick's
//!   size: a Zipf's ranks placed anew, `Latest` following the newest). The new member's item is
//!   kept with its partition's landed share. Peaks are gathered tick by tick (every member's
//!   count in bins of shares within 0.1%), a key's own peak in the top list is its busiest
//!   tick's. practice-shortener `naive` (its ~4.5 KB links one read unit each: a GetItem's
//!   units are any item's where every item takes the same) and practice-sessions `naive`.
//!   The items' index entries are keyed by their other values (practice-sessions
//!   `recommended`'s `USER#{user_id}`): the index side of such a put is an ordinary put of a
//!   picked key — each member's share of the entry writes, in write units of the entry, its
//!   partition growing by the entries that landed, a Query of it reading them as they come
//!   (above) — and, each put a key of its own, no entry is ever rewritten. A Query of such an
//!   index followed by a fetch from the table of what it does not project (`fetch`: the
//!   devices page's BatchGetItem of the sessions its Query returned) is one more read flow of
//!   the page onto the table's members, in one point read's units each: a preloaded item's
//!   share is its entry's member's share of the Query's calls, a grown item's the expected
//!   one (Σ put's share × Query's share), the tick's own at half of it, as the Query asked at
//!   the tick's middle counts half the tick's entries; its requests are the calls whose Query
//!   returns an item, expected. Refused there: a range of part of the partition or a limit,
//!   an index keyed by more than one member, items in different read units, a partition that
//!   may hold more entries than one BatchGetItem (100) or one Query page takes, and, at run
//!   time, a fetching pattern throttled anywhere (a Query retried after a throttle fetches
//!   nothing). Each tick weighs
//!   every member: a long run of a large population is slow. Refused: another write of the
//!   items, growth by `growth_per_day` besides, a key of more than the identity, an index keyed
//!   by the identity, shared partitions, and reads other than GetItems of the population.
//!   Puts of another entity whose partition key's member picks from such a population
//!   (`Growth::kids`: a comment under `COMMENT#{post_id}`, picking its post by `Latest` among
//!   the posts so far) pick among the members at their tick's start as the reads do, so each
//!   tick's shares are worked out anew (`Shares::Recent`: the tick's, and their mean over the
//!   calls so far) and the hot partition moves on with each new member. A partition's writes
//!   are its shares summed over the ticks (exact in expectation); its items and their spread
//!   are counted at the mean share (the variance `calls·s̄(1 − s̄)` bounds the ticks' summed
//!   Binomial variances from above, a chance of no write and two writes meeting within a
//!   second are first order in the shares); peaks are gathered tick by tick as above. Edited
//!   practice-social (posts and comments alone, each comment under its post apart from the
//!   post's item, 2,000 a second for a minute) agrees. Refused there: a pick from such a
//!   population other than the partition key's member (a sort key, an index key, the item's
//!   values), a key of more than the pick, index entries of such items, shared partitions,
//!   reads and updates of such partitions (what a partition holds follows the picks as they
//!   moved on), two patterns' puts onto them (the grown peak is one draw at their mean share),
//!   picks by anything but `Latest` (a key's peak is its busiest tick's one draw, true where
//!   the favourite moves on each tick; a steady Zipf share's would be many ticks' maximum, and
//!   `Seq` counts are exact, not drawn), `Nth` numbers of such a member, and picks from a population that grows by
//!   `growth_per_day` or whose new items are not keyed by their identity alone (orders' line
//!   items pick their order, kept under its customer's key).
//! - **Read caches** (DAX's item cache, `cache`): in front of the GetItems of a population puts
//!   of new identities grow, a key misses on its first read of the run (the read fills its
//!   entry) and hits after, the reads of its tick too; a hit costs the table nothing. Each tick a
//!   fronted read's shares become each member's expected misses over the tick's calls — the
//!   chance it is read in the tick and never before — so only misses reach the table's units,
//!   throttling, peaks (a key's misses in a tick are 0 or 1: a Bernoulli draw) and heatmap;
//!   the pattern's requests are its misses, and its cache section's hits, misses and read
//!   units saved (each hit an item's eventually consistent units) are expected values.
//!   practice-shortener `recommended` (~94% hits over its minute, nothing throttled). Refused:
//!   a run longer than the TTL (an entry expires and the next read refills it), a cache the
//!   keys its reads may ask outnumber (LRU eviction), one in front of other reads or of two
//!   patterns' reads of the same keys, on a store without read units, and at run time a
//!   fronted read the table throttles (a refused miss fills nothing; its retry asks again).
//! - **Numbered attributes** (`Nth(by)`, `nth`): a put's number is one more than the items of
//!   its `by` member landed before it (a throttled put numbers itself again when retried), so a
//!   key holding the number beside its member (orders' `ORDER#{order_id}` / `ITEM#{line:03}`)
//!   never repeats: each put a new item, no overwrite. The number's bytes are in every sampled
//!   item, as 1's: a run is replayed only if every number its busiest member may reach (a
//!   Chernoff bound on its Binomial count, union-bounded over the members, past with a chance
//!   of 10⁻⁶: an expectation's tail) takes the same bytes in the item, its key and its index
//!   entries (a DynamoDB number's size grows with its digits from 100 on). orders' line items
//!   alone (`tests/fluid_agreement.rs`). Refused: numbers that may reach other sizes, in a
//!   partition key, in a sort key without their member in the partition key (two members'
//!   items of one number would replace each other), numbered by a value that is not a picked
//!   member, and numbers of preloaded items.
//! - **Refused on every store**: updates, aggregates, conditions and keys of the shapes above,
//!   deletes, shared partitions of the shapes above, a class slot whose class is not the key's member or whose cases are
//!   buckets, two shard slots in one key, `Seq` picks and preloaded items of a sharded key (the
//!   shard is a draw the fluid replay does not make), read caches of the shapes above,
//!   denormalized copies and embedded lists kept whole (a parent document grows with each
//!   child, and a multikey index keys its list's distinct values).
//! - **Embedded lists of the newest children** (the subset pattern, `keep_latest: Some(n)`,
//!   `embed`): each landed put of the child is an item of its own and brings one UpdateItem of
//!   its parent appending it to the parent's list of the newest `n` — a write flow of the put's
//!   pattern onto the parents (each the put's share of the member its `by` attribute picks), one
//!   more request a call and a side write in write amplification, as an aggregate's update. The
//!   parents are the preloaded items; a parent's bytes are its document and its list of
//!   `min(K, n)` elements of the child's sampled mean size (with their BSON names), `K` its
//!   Binomial count of landed appends, so its expected bytes and the new versions its appends
//!   build (the documents section) are expectations over that draw, per parent; the largest
//!   document is a bound, not a median: the largest parent with a full list of the largest
//!   sampled child (the report's notes say so). reviews `recommended` without its index
//!   agrees on MongoDB (`tests/fluid_agreement.rs`). Refused: lists kept whole (reviews
//!   `naive`, social-feed `embedded-comments`), embeds on a store metered in capacity units (an
//!   UpdateItem is charged for the whole item, which grows with its list), children written by
//!   other than a PutItem, parents calls also write, not all preloaded, not keyed by the picked
//!   member alone, or with index entries or views.
//! - **Whole documents** (MongoDB, `Latency::Documents`): items are documents sized as BSON
//!   by the profile's rules, as any item is by its store's, and every write onto a key holding
//!   a document builds the document's whole new version: the report's documents section
//!   (`DocumentsReport`) counts those writes — the landed writes less the keys they created,
//!   as for overwrites — and their bytes, each the mean document its bucket's writes leave
//!   (their flows' mean items weighted by calls: where one flow creates keys and another
//!   rewrites them with documents of another size, the mix's mean, not the rewrites'); its
//!   largest document is the model's largest (the preload's, and the writes' sampled). Nothing
//!   throttles. Latency, which grows with the document rebuilt, is not modelled (the notes say
//!   so). Refused, named, before anything else the run uses: sharded collections (ranges, the
//!   balancer's migrations, jumbo ranges: shard-keys), embedded lists kept whole (a parent
//!   document that grows with each child: reviews `naive`, social-feed's `embedded-comments`;
//!   a multikey index, one entry per distinct value of such a list, with it) and copies
//!   (social-feed `naive`); then aggregates, create-once puts and a document sampled past the
//!   16 MB limit (`documents_check`). counters, listed for MongoDB, replays.
//! - **Secondary indexes on MongoDB** (`mongo_index`): an entry is the indexed values and a
//!   record id, modelled as a GSI's entries are (above) where the rules are the same — one
//!   entry per put on the index key it names, sized per sampled item as the per-operation
//!   replay sizes it (`regen::entry_bytes`: the values by keyheat's approximation of their
//!   KeyString — a text its bytes, a number or a time its digits — and 8 bytes, no
//!   100-byte overhead), a find through the index one request on its key, whose documents'
//!   FETCH is within the request — but an entry is no item written (write amplification
//!   leaves it out) and nothing is metered. reviews `recommended` replays and agrees
//!   (`tests/fluid_agreement.rs`). Refused: index entries of documents a put may replace (a
//!   replace writes its entry only when an indexed value changes: social-feed `recommended`'s
//!   upserted follow edges).
//!
//! # What it must never do
//!
//! Report a figure it did not model as if it had: a variant that uses anything outside the
//! supported set is refused with [`FluidError::Unsupported`], naming the feature and where it is.
//! Figures of the report the fluid replay leaves at 0 (latency, pages, items read per call; read
//! and write units off DynamoDB) are named in the report's notes, and goals on them are not
//! graded (`judge`).

mod aggregate;
mod axes;
mod cache;
mod capacity;
mod condition;
mod cosmos;
mod distinct;
mod embed;
mod extremes;
mod fetch;
mod growth;
mod heat;
mod lifecycle;
mod model;
mod mongo_index;
mod moves;
mod nth;
mod pages;
mod replay;
mod report;
mod shared;
mod ttl;
mod version;

pub use extremes::Band;
pub use heat::{ExpectedHeat, ExpectedRow};

use crate::engine::model::{Engine, Scenario, Variant};
use crate::engine::planner;
use crate::engine::profile::Latency;

use super::report::RunReport;
use super::{RunOptions, SimError, tick_count};

/// Calls past which `--fidelity auto` replays as rates. Auto is for runs the per-operation
/// replay cannot serve, not for runs it serves slowly: below this, a report is exact and
/// grades latency. At the 2–3×10⁶ calls a second a release build replays sensors' year
/// (`benches/sim.rs`), 10⁹ calls take six to eight minutes; every bundled scenario's default
/// run stays well under it (sensors' year is 1.1×10⁸).
pub const OPS_BUDGET: f64 = 1e9;

/// Why a run cannot replay as rates.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FluidError {
    #[error("--fidelity rates does not model {feature} yet ({place})")]
    Unsupported { feature: String, place: String },
    #[error(transparent)]
    Sim(#[from] SimError),
}

fn unsupported(feature: &str, place: &str) -> FluidError {
    FluidError::Unsupported { feature: feature.to_owned(), place: place.to_owned() }
}

/// The calls a run of `variant` makes, from the planner's mean rates.
pub fn expected_calls(scenario: &Scenario, variant: &Variant, options: &RunOptions) -> f64 {
    let secs = options.duration.unwrap_or(scenario.workload.duration).as_secs_f64();
    planner::plan(scenario, variant).patterns.iter().map(|p| p.mean_rate * secs).sum()
}

/// Replays the workload as rates and reports. `progress` gets the fraction done now and then.
pub fn run(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<RunReport, FluidError> {
    let report = run_until(scenario, variant, options, &mut |f| {
        progress(f);
        true
    })?;
    report.ok_or(FluidError::Sim(SimError::Cancelled))
}

/// [`run`], for a caller that may give the replay up (the workbench, when a newer restart is
/// asked for): `progress` returns false to stop it, and then there is no report (`Ok(None)`).
pub fn run_until(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<Option<RunReport>, FluidError> {
    Ok(run_with_heat(scenario, variant, options, progress)?.map(|(report, _)| report))
}

/// [`run_until`], with the expected heatmap of the hottest partitions ([`ExpectedHeat`]) the
/// workbench draws for a run replayed as rates.
pub fn run_with_heat(
    scenario: &Scenario,
    variant: &Variant,
    options: &RunOptions,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<Option<(RunReport, ExpectedHeat)>, FluidError> {
    let place = format!("scenario {}, variant {}", scenario.name, variant.name);
    let profile = scenario.engine.profile();
    // What the fluid replay keeps no rates of is refused by its own name first, before the
    // store's profile: a sharded collection's documents live in ranges that the balancer
    // migrates between shards, some of them jumbo (`shards::Cluster`), and a parent document
    // grows with each child embedded whole in it (the subset pattern's bounded list is
    // modelled: `embed`).
    let extras = [
        (variant.sharding.is_some(), "sharded collections (ranges, the balancer's migrations, jumbo ranges)"),
        (!variant.copies.is_empty(), "denormalized copies"),
        (
            variant.embeds.iter().any(|e| e.keep_latest.is_none()),
            "embedded lists kept whole (a parent document that grows with every child, and a multikey index of its list's distinct values)",
        ),
    ];
    if let Some((_, feature)) = extras.iter().find(|(used, _)| *used) {
        return Err(unsupported(feature, &place));
    }
    let workload = &scenario.workload;
    let duration = options.duration.unwrap_or(workload.duration);
    let ticks = tick_count(workload.tick, duration)?;
    let seed = options.seed.unwrap_or(workload.seed);
    let plan = planner::plan(scenario, variant);
    let world = super::world::compile(scenario, variant, &plan.patterns);
    if profile.request_units() {
        cosmos::check(&world, variant, &workload.retry, &place)?;
    }
    let lifetime = variant.ttl.as_ref().map(|t| i64::try_from(t.lifetime.as_secs()).unwrap_or(i64::MAX));
    let last_tick_secs = i64::try_from(u64::from(ticks.saturating_sub(1)) * workload.tick.as_millis() / 1000);
    ttl::check(&world, lifetime, last_tick_secs.unwrap_or(i64::MAX), &place)?;
    let start_ms = workload.start.as_millis();
    let start_secs = i64::try_from(start_ms / 1000).unwrap_or(i64::MAX);
    // A population that puts of new identities grow ends with as many more members as the puts'
    // calls (`model::Growth`), and a member's `Nth` numbers reach its puts' count (`nth`):
    // counted only where an entity has an identity such a put makes, or numbered attributes.
    let grown = world.entities.iter().enumerate().any(|(e, ent)| {
        ent.identity.is_some_and(|(a, _)| matches!(ent.attrs[a].source, super::items::Gen::New(_)))
            && world.patterns.iter().any(|p| p.entity == e && p.action == crate::engine::model::Action::Put)
    });
    let numbered = world.entities.iter().any(|ent| !ent.numbered.is_empty());
    let puts = if grown || numbered {
        replay::calls_over(&world, (start_ms, workload.tick.as_millis(), ticks))
    } else {
        vec![0; world.patterns.len()]
    };
    let mut model = model::Model::compile(&world, seed, start_secs, &puts)?;
    if profile.request_units() {
        let peaks: Vec<f64> = plan.patterns.iter().map(|p| p.peak_rate).collect();
        cosmos::check_puts(&world, &model, &peaks)?;
        cosmos::check_grown_peaks(&world, &model)?;
    }
    let aggregates = super::upkeep::AggregatePlan::compile(&world, variant);
    model.add_aggregates(&world, &aggregates, (seed, start_secs))?;
    let embeds: Vec<_> = super::embed::compile(&world, variant).into_iter().map(|e| e.plan).collect();
    model.add_embeds(&world, &embeds, (seed, start_secs))?;
    if profile.latency == Latency::Documents {
        documents_check(&model, scenario.engine, &place)?;
    }
    if let Some(spec) = &variant.cache {
        model.cache = Some(cache::CacheModel::compile(&world, &model, spec, duration.as_millis(), &place)?);
    }
    let tick_ms = workload.tick.as_millis();
    let meters = if profile.metered() { scopes(&world, &model) } else { Vec::new() };
    let capacities = meters
        .into_iter()
        .map(|scope| {
            capacity::Capacity::new(
                &world,
                &model,
                scope,
                variant,
                workload.retry.clone(),
                (start_ms, tick_ms),
            )
        })
        .collect();
    let mut replay = replay::Replay::new(&world, model, (start_ms, tick_ms, ticks), capacities);
    if !progress(0.0) || !replay.run(progress)? || !progress(1.0) {
        return Ok(None);
    }
    for capacity in &replay.capacities {
        capacity.check_tail()?;
    }
    let report = replay.report(&scenario.name, &variant.name, seed)?;
    if profile.request_units() {
        cosmos::check_logical_limit(&report)?;
    }
    let heat = replay.heat.take().map(|h| h.finish(&replay));
    Ok(heat.map(|heat| (report, heat)))
}

/// What a store of whole documents (MongoDB: `Latency::Documents`) needs beyond the items as
/// sized by its profile (BSON) and a new version of the whole document per write to a key that
/// holds one (`DocumentsReport`): refused are aggregates
/// (an update of a document the call does not name) and create-once puts (a duplicate key
/// error), which rates do not count as the per-operation replay does, and documents sampled
/// past the store's limit (a write of one is refused whole).
fn documents_check(model: &model::Model, engine: Engine, place: &str) -> Result<(), FluidError> {
    let limit = engine.profile().item_limit;
    let uses = [
        (!model.aggregate_flows.is_empty(), "aggregates".to_owned()),
        (!model.create_once.is_empty(), "create-once puts".to_owned()),
        (
            limit.is_some_and(|l| model.largest > l as f64),
            format!("documents past the {} byte limit", limit.unwrap_or(0)),
        ),
    ];
    match uses.iter().find(|(used, _)| *used) {
        Some((_, feature)) => Err(unsupported(&format!("{feature} on {engine}"), place)),
        None => Ok(()),
    }
}

/// What each meter of a metered store serves: the table's key groups, then each global
/// secondary index's (its own partitions and capacity, DESIGN.md §4). A GSI's partitions queue
/// the entry writes their budget leaves short, and a full queue refuses the table's write
/// (back-pressure), which the client retries (`capacity::Capacity::queue_slot`), where every
/// entry write of the index is an update's move of its entry and the update has entries in no
/// other index and no aggregate. The writes none of the meters may refuse are those the fluid
/// replay does not follow past a refusal: any other index's entry writes (they would queue: a
/// new entry held back is missing from the index's entries and Queries until it drains, and a
/// write refused by one index's full queue is refused on every index), and a table write that
/// has index entries or aggregates (retried, it writes them when it lands).
fn scopes(world: &super::world::World, model: &model::Model) -> Vec<capacity::Scope> {
    let patterns = world.patterns.len();
    let writes_more: Vec<bool> = (0..patterns)
        .map(|p| {
            model.flows.iter().enumerate().any(|(f, flow)| {
                flow.pattern == p
                    && flow.write
                    && (model.groups[flow.group].index || model.aggregate_flows.contains(&f))
            })
        })
        .collect();
    // Per pattern: the one index its writes have entries in, if one, and no aggregate.
    let one_index: Vec<Option<usize>> = (0..patterns)
        .map(|p| {
            let mut indexes = model
                .flows
                .iter()
                .filter(|flow| flow.pattern == p && flow.write && model.groups[flow.group].index)
                .map(|flow| model.groups[flow.group].group);
            let first = indexes.next()?;
            let aggregated = model.aggregate_flows.iter().any(|&f| model.flows[f].pattern == p);
            (indexes.all(|g| g == first) && !aggregated).then_some(first)
        })
        .collect();
    let versioned: Vec<bool> = (0..patterns).map(|p| model.versions.iter().any(|v| v.pattern == p)).collect();
    let mut out = vec![capacity::Scope {
        groups: model.groups.iter().map(|g| !g.index).collect(),
        guarded: writes_more,
        queue: false,
        queues: vec![false; patterns],
        feature: "a table throttling writes of items with index entries or aggregates (their retries write those later)",
        place: "the table".to_owned(),
        versioned: versioned.clone(),
    }];
    let mut indexes: Vec<usize> = model.groups.iter().filter(|g| g.index).map(|g| g.group).collect();
    indexes.dedup();
    for index in indexes {
        let groups: Vec<bool> = model.groups.iter().map(|g| g.index && g.group == index).collect();
        // The queue is modelled where every entry write moves an entry (an update of the
        // indexed value): what it holds back at the end changes neither the index's entries nor
        // what a Query of it reads; and where each such write has entries in this index alone.
        let writes: Vec<usize> = (0..model.flows.len())
            .filter(|&f| model.flows[f].write && groups[model.flows[f].group])
            .collect();
        let queue = !writes.is_empty()
            && writes
                .iter()
                .all(|&f| model.moved_flows.contains(&f) && one_index[model.flows[f].pattern] == Some(index));
        let queues: Vec<bool> =
            (0..patterns).map(|p| queue && writes.iter().any(|&f| model.flows[f].pattern == p)).collect();
        out.push(capacity::Scope {
            groups,
            guarded: queues.iter().map(|q| !q).collect(),
            queue,
            queues,
            feature: "an index partition short of capacity for its entry writes (they queue, and back-pressure throttles the table's writes), other than a pattern's own updates moving their entries in that index alone, with no aggregate",
            place: format!("index {}", world.group_name(index)),
            versioned: versioned.clone(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text to find in a scenario, and what to put there.
    type Edit = (&'static str, &'static str);

    /// `scenario`'s bundled text with `edits` (each must apply), replayed as rates for an hour.
    fn rates(scenario: &str, edits: &[(&str, &str)], variant: &str) -> Result<RunReport, FluidError> {
        rates_for(scenario, edits, variant, 3600)
    }

    /// [`rates`] for `secs` seconds.
    fn rates_for(
        scenario: &str,
        edits: &[(&str, &str)],
        variant: &str,
        secs: u64,
    ) -> Result<RunReport, FluidError> {
        let mut source = crate::scenario::load(scenario).expect("bundled").source().to_owned();
        for (from, to) in edits {
            assert!(source.contains(from), "{scenario}: no {from:?} to edit");
            source = source.replacen(from, to, 1);
        }
        let loaded =
            crate::scenario::parse(&format!("{scenario}.ron"), &source).unwrap_or_else(|e| panic!("{e}"));
        let variant = loaded.variant(Some(variant)).expect("variant");
        let options =
            RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(secs)) };
        run(&loaded.scenario, variant, &options, &mut |_| {})
    }

    /// practice-chat's index of memberships by user, up to its projection.
    const BY_USER: &str = "sk: \"CH#{channel_id}\")}),";
    const USERS_ONE: Edit =
        ("(name: \"users\", count: 5000, ids: \"u{:04}\")", "(name: \"users\", count: 1, ids: \"u{:04}\")");
    const CHANNELS_ONE: Edit = ("count: 10000, ids: \"ch-{:05}\"", "count: 1, ids: \"ch-{:05}\"");
    const JOINS_2000: Edit = (
        "given: [\"channel_id\", \"user_id\"], rate: 0.1,",
        "given: [\"channel_id\", \"user_id\"], rate: 2000,",
    );

    /// practice-top-customers `recommended`'s index of the total, by its 32 hash() slots.
    const TOTAL_INDEX: &str = "keys: {\"Customer\": (pk: \"SPEND#{hash(customer_id, 32)}\", sk: \"{lifetime_spend:012}\")}, projection: Include([\"name\"])";

    /// practice-top-customers `recommended`: its top 10 gives no customer, so it asks every one
    /// of its index's 32 hash() slots, one Query each (`Axis::scattered`); each order's update
    /// of its customer's total moves the customer's entry (a delete and a put: two entry
    /// writes, `Model::moved_flows`), and the index keeps its 100,000 preloaded entries.
    #[test]
    fn a_top_10_asks_every_slot_and_each_total_moves_its_entry() {
        let report = rates("practice-top-customers", &[], "recommended").expect("replays as rates");
        let top = report.patterns.iter().find(|p| p.name == "top-customers").expect("pattern");
        assert!(top.calls > 0);
        assert_eq!((top.avg_fanout, top.max_fanout, top.requests), (32.0, 32, top.calls * 32));
        let orders = report.patterns.iter().find(|p| p.name == "place-order").expect("pattern").calls;
        let index = &report.indexes[0];
        // Expected values, rounded: within a write of two per order.
        assert!(index.entry_writes.abs_diff(2 * orders) <= 1, "{orders} orders: {index:?}");
        assert_eq!(index.items, 100_000, "{index:?}");
        // The total outside the index's sort key: each update rewrites the whole entry in place
        // (an `All` projection), which rates do not follow.
        let in_place =
            "keys: {\"Customer\": (pk: \"SPEND#{hash(customer_id, 32)}\", sk: \"{name}\")}, projection: All";
        match rates("practice-top-customers", &[(TOTAL_INDEX, in_place)], "recommended") {
            Err(FluidError::Unsupported { feature, .. }) => {
                assert!(
                    feature.contains("an aggregate of items with index entries it rewrites in place"),
                    "{feature}"
                );
            }
            other => panic!("practice-top-customers, its total outside the index's sort key: {other:?}"),
        }
    }

    /// Puts whose partition picks from a population puts of new identities grow are modelled
    /// as the partition key's member alone (`model::Growth::kids`); the rest of what such a
    /// pick asks is refused by name, at the entity (practice-social `recommended`'s comments,
    /// which pick their post by `Latest` among those publish makes). The refusals of reads,
    /// updates and two patterns' puts of such partitions are held in tests/fluid_agreement.rs.
    #[test]
    fn picks_from_a_grown_population_rates_cannot_follow_are_refused_by_name() {
        const COMMENT_KEY: &str =
            "\"Comment\": (pk: \"POST#{post_id}\", sk: \"COMMENT#{commented_at}#{seq}\"),";
        // (edits, words of the refusal)
        let cases: [(&[Edit], &str); 3] = [
            // An index of the comments: its entries' partitions are not the post's.
            (
                &[(
                    "indexes: [\n                (name: \"posts-by-author\",",
                    "indexes: [\n                (name: \"comments-by-author\", keys: {\"Comment\": (pk: \"AUTHOR#{author_id}\", sk: \"{commented_at}\")}),\n                (name: \"posts-by-author\",",
                )],
                "index entries of items whose partition picks from a population that grows",
            ),
            // A month's bucket beside the post: each bucket's partitions begin anew.
            (
                &[(
                    COMMENT_KEY,
                    "\"Comment\": (pk: \"POST#{post_id}#{commented_at:%Y-%m}\", sk: \"COMMENT#{commented_at}#{seq}\"),",
                )],
                "a partition key of a pick from a population that grows, beside",
            ),
            // The post in the sort key, under its author's key: how often two comments' keys
            // meet follows the picks as they move on.
            (
                &[(
                    COMMENT_KEY,
                    "\"Comment\": (pk: \"USER#{author_id}\", sk: \"C#{post_id}#{commented_at}#{seq}\"),",
                )],
                "a population that grows",
            ),
        ];
        for (edits, words) in cases {
            match rates("practice-social", edits, "recommended") {
                Err(FluidError::Unsupported { feature, place }) => {
                    assert!(feature.contains(words), "{edits:?}: refused for {feature:?}");
                    assert!(place.starts_with("entity Comment"), "{edits:?}: refused at {place:?}");
                }
                other => panic!("{edits:?}: {other:?}"),
            }
        }
    }

    /// What the fluid replay cannot model is refused by name, never replayed wrongly: each case
    /// is a feature the per-operation replay gives a different answer for.
    #[test]
    fn what_rates_cannot_model_is_refused_by_name() {
        // (scenario, edits, variant, words of the refusal)
        let cases: [(&str, &[Edit], &str, &str); 9] = [
            // Puts of new sensors grow the population the readings pick from.
            (
                "sensors",
                &[(
                    "name: \"get-sensor\",\n            description: \"Show a sensor's details.\",\n            action: Get,",
                    "name: \"get-sensor\",\n            description: \"Add a sensor.\",\n            action: Put,",
                )],
                "naive",
                "a population that grows",
            ),
            (
                "sensors",
                &[(
                    "(name: \"sensors\", count: 50, ids: \"sensor-{:05}\", popularity: Uniform)",
                    "(name: \"sensors\", count: 50, ids: \"sensor-{:05}\", popularity: Uniform, growth_per_day: 5)",
                )],
                "naive",
                "a population that grows",
            ),
            // A sparse key: readings without a sensor go nowhere per operation.
            (
                "sensors",
                &[(
                    "(name: \"sensor_id\", type: S, gen: Pick(\"sensors\")),\n                (name: \"reading_time\"",
                    "(name: \"sensor_id\", type: S, gen: Sometimes(0.5, Pick(\"sensors\"))),\n                (name: \"reading_time\"",
                )],
                "naive",
                "only sometimes has",
            ),
            // A constant the put writes.
            (
                "chat",
                &[(
                    "given: [\"channel_id\"],\n            rate: 1,",
                    "given: [\"channel_id\"],\n            equals: {\"body\": \"hi\"},\n            rate: 1,",
                )],
                "naive",
                "constant values",
            ),
            // Indexes on a metered table: an entry of less than the whole item, or a sparse
            // one, of items puts replace (whether the entry is rewritten, or comes or goes,
            // depends on the values replaced); a local index (it shares the table's partitions).
            (
                "practice-chat",
                &[(BY_USER, "sk: \"CH#{channel_id}\")}, projection: KeysOnly),")],
                "recommended",
                "partly projected index on items a put may replace",
            ),
            (
                "practice-chat",
                &[(BY_USER, "sk: \"CH#{channel_id}\")}, only_when: (\"channel_id\", \"ch-00001\")),")],
                "recommended",
                "a sparse or partly projected index on items a put may replace",
            ),
            (
                "practice-chat",
                &[(
                    "(name: \"by-user\", keys: {\"Membership\": (pk: \"USER#{user_id}\", sk: \"CH#{channel_id}\")}),",
                    "(name: \"by-user\", kind: Local, keys: {\"Membership\": (sk: \"USER#{user_id}\")}),",
                )],
                "recommended",
                "a local index",
            ),
            // Every membership of one user: 2,000 entry writes a second on one index partition
            // (1,000 WCU/s), which would queue and hold back the table's writes.
            (
                "practice-chat",
                &[USERS_ONE, JOINS_2000],
                "recommended",
                "an index partition short of capacity",
            ),
            // Every membership in one channel: the table throttles puts whose entries would
            // then be written with their retries.
            (
                "practice-chat",
                &[CHANNELS_ONE, JOINS_2000],
                "recommended",
                "a table throttling writes of items with index entries",
            ),
        ];
        for (scenario, edits, variant, words) in cases {
            match rates(scenario, edits, variant) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "{scenario} {edits:?}: refused for {feature:?}");
                }
                other => panic!("{scenario} {edits:?}: {other:?}"),
            }
        }
    }

    /// practice-shop's `advance` steps the orders the puts make through their states
    /// (`fluid::lifecycle`) and is refused by the lifecycle's name in both variants (a sparse
    /// index gated on the first state; an index keyed by the state); the same update setting a
    /// fresh draw of a choice instead is not a lifecycle's step, and keeps the refusal of items
    /// puts also write. Ten seconds: an hour's puts would number more new orders than rates
    /// keep partitions for, refused first.
    #[test]
    fn lifecycle_steps_of_new_items_are_refused_by_name() {
        const STEPPED: &str = "an update stepping a lifecycle of items puts of new identities make";
        let one_of: Edit = (
            "gen: States([\"PLACED\", \"SHIPPED\", \"DELIVERED\"])",
            "gen: OneOf([(\"PLACED\", 1.0), (\"SHIPPED\", 1.0), (\"DELIVERED\", 1.0)])",
        );
        // (edits, variant, words of the refusal)
        let cases: [(&[Edit], &str, &str); 3] = [
            (&[], "recommended", STEPPED),
            (&[], "naive", STEPPED),
            (&[one_of], "naive", "an update of items puts also write"),
        ];
        for (edits, variant, words) in cases {
            match rates_for("practice-shop", edits, variant, 10) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "{variant} {edits:?}: refused for {feature:?}");
                }
                other => panic!("practice-shop {variant} {edits:?}: {other:?}"),
            }
        }
    }

    /// On a row-paged store (Cassandra) rates count a Scan's pages over the rows its table's puts
    /// add, and a Query's over a member's rows in a span of their write time: a Scan that stops
    /// at its limit, a Scan of a table an update writes, and a Query of part of a partition that
    /// may hold a page of rows are refused by name.
    #[test]
    fn row_paged_reads_rates_cannot_count_are_refused_by_name() {
        let scan_limit: Edit = (
            "given: [\"user_id\"],\n            rate: 0.001,",
            "given: [\"user_id\"],\n            limit: 10,\n            rate: 0.001,",
        );
        // counters on Cassandra, its count read by a Scan of every stream's counter.
        let counters_scanned: [Edit; 2] = [
            ("engines: [Cassandra, CosmosDB],", "engine: Cassandra,"),
            (
                "action: Get,\n            entity: \"Counter\",\n            given: [\"stream_id\"],",
                "action: List,\n            entity: \"Counter\",\n            given: [],",
            ),
        ];
        // A clustering column the chart gives, before the time it ranges over: a thousandth of
        // the sensor's rows.
        let given_ms: [Edit; 2] = [
            (
                "given: [\"sensor_id\"],\n            range: (attribute: \"reading_time\", span: Last(\"1h\")),",
                "given: [\"sensor_id\", \"ms\"],\n            range: (attribute: \"reading_time\", span: Last(\"1h\")),",
            ),
            ("sk: \"{reading_time}#{ms:03}\"", "sk: \"{ms:03}#{reading_time}\""),
        ];
        // (scenario, edits, variant, seconds, words of the refusal)
        let cases: [(&str, &[Edit], &str, u64, &str); 3] = [
            ("chat", &[scan_limit], "naive", 1_140, "a Scan that stops at its Limit"),
            (
                "counters",
                &counters_scanned,
                "naive",
                10,
                "a row-paged Scan of a table whose rows a write adds",
            ),
            ("practice-sensor", &given_ms, "naive", 600, "a row-paged read of part of a partition"),
        ];
        for (scenario, edits, variant, secs, words) in cases {
            match rates_for(scenario, edits, variant, secs) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "{scenario} {edits:?}: refused for {feature:?}");
                }
                other => panic!("{scenario} {edits:?}: {other:?}"),
            }
        }
    }

    /// A filtered Query is modelled where its filter is a word search in a generated text whose
    /// matches cannot stop it before its range ends (practice-search `recommended`); other
    /// filters, a word search whose matches may reach the call's limit, and a range past one
    /// page are refused by name, at the pattern as the scenario names it.
    #[test]
    fn filtered_queries_rates_cannot_model_are_refused_by_name() {
        // (edits, seconds, words of the refusal)
        let cases: [(&[Edit], u64, &str); 4] = [
            // The author given too: a filter of the call's value beside the word.
            (
                &[(
                    "given: [\"channel_id\"],\n            range: (attribute: \"sent_at\", span: Last(\"30d\")),",
                    "given: [\"channel_id\", \"author_id\"],\n            range: (attribute: \"sent_at\", span: Last(\"30d\")),",
                )],
                1,
                "a Query with a filter other than a word search",
            ),
            // A word searched for in a member's id.
            (
                &[(
                    "contains: \"body\",\n            order: Desc,",
                    "contains: \"author_id\",\n            order: Desc,",
                )],
                1,
                "word search in a value other than a generated text",
            ),
            // One match wanted: the busiest channel's few messages after a minute may hold it
            // (~2·10⁻⁴ a message, over its 3 or 4 buckets) before the range ends.
            (
                &[("order: Desc,\n            limit: 20,", "order: Desc,\n            limit: 1,")],
                60,
                "a Query whose filter may find its limit's matches before the end of its range",
            ),
            // A hundred times the messages: the busiest channel's bucket (~9% of 1,000 puts a
            // second of ~350 bytes) passes 1 MB within the minute.
            (
                &[(
                    "action: Put, entity: \"Message\", given: [\"channel_id\"], rate: 10,",
                    "action: Put, entity: \"Message\", given: [\"channel_id\"], rate: 1000,",
                )],
                60,
                "a Query that reads more than one 1 MB page",
            ),
        ];
        for (edits, secs, words) in cases {
            match rates_for("practice-search", edits, "recommended", secs) {
                Err(FluidError::Unsupported { feature, place }) => {
                    assert!(feature.contains(words), "{edits:?}: refused for {feature:?}");
                    assert_eq!(place, "pattern search-in-channel", "{edits:?}: refused at {place:?}");
                }
                other => panic!("{edits:?}: {other:?}"),
            }
        }
        rates_for("practice-search", &[], "recommended", 60).expect("replays as rates");
    }

    /// `scenario`'s bundled text with `edits`, on MongoDB, each variant replayed as rates for an
    /// hour: by variant, the feature its refusal names, or `None` where it replays.
    fn on_mongodb(scenario: &str, edits: &[Edit]) -> Vec<(String, Option<String>)> {
        let mut source = crate::scenario::load(scenario).expect("bundled").source().to_owned();
        for (from, to) in edits {
            assert!(source.contains(from), "{scenario}: no {from:?} to edit");
            source = source.replacen(from, to, 1);
        }
        let loaded = crate::scenario::parse(&format!("{scenario}.ron"), &source)
            .and_then(|l| l.on_engine(Engine::MongoDb))
            .unwrap_or_else(|e| panic!("{e}"));
        let options =
            RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(3600)) };
        let mut out = Vec::new();
        for variant in &loaded.scenario.variants {
            match run(&loaded.scenario, variant, &options, &mut |_| {}) {
                Ok(report) => {
                    assert!(report.documents.is_some(), "{scenario} {}: no documents section", variant.name);
                    out.push((variant.name.clone(), None));
                }
                Err(FluidError::Unsupported { feature, .. }) => {
                    out.push((variant.name.clone(), Some(feature)));
                }
                Err(e) => panic!("{scenario} {} on MongoDB: {e}", variant.name),
            }
        }
        out
    }

    /// A MongoDB run is refused for the first thing it uses that rates keep nothing of, named:
    /// a sharded collection's ranges, embedded lists kept whole, copies, and past those index
    /// entries of documents a put may replace (social-feed `recommended`'s upserted follow
    /// edges) or an update rewrites (counters `naive` given an index). reviews `recommended`
    /// (the subset pattern's lists and an index by author) and counters replay (their
    /// agreement: `tests/fluid_agreement.rs`).
    #[test]
    fn mongodb_runs_are_refused_for_what_they_use() {
        /// A variant's name and the feature its refusal names (none: it replays).
        type Refusal = (&'static str, Option<&'static str>);
        const SHARDED: &str = "sharded collections (ranges, the balancer's migrations, jumbo ranges)";
        const WHOLE_LISTS: &str = "embedded lists kept whole (a parent document that grows with every child, and a multikey index of its list's distinct values)";
        const REPLACED: &str = "index entries of documents a put may replace on MongoDB (a replace writes its entry only when an indexed value changes)";
        // counters listed for MongoDB (Cosmos DB dropped: it has no indexes), `naive`'s counter
        // indexed by its stream.
        let indexed: [Edit; 2] = [
            ("engines: [Cassandra, CosmosDB],", "engines: [Cassandra, MongoDB],"),
            (
                "\"Counter\": (pk: \"COUNTER#{stream_id}\"),\n            },",
                "\"Counter\": (pk: \"COUNTER#{stream_id}\"),\n            },\n            indexes: [(name: \"by-stream\", keys: {\"Counter\": (pk: \"S#{stream_id}\")})],",
            ),
        ];
        let cases: [(&str, &[Edit], &[Refusal]); 5] = [
            (
                "shard-keys",
                &[],
                &[("naive", Some(SHARDED)), ("recommended", Some(SHARDED)), ("by-country", Some(SHARDED))],
            ),
            ("reviews", &[], &[("naive", Some(WHOLE_LISTS)), ("recommended", None)]),
            (
                "social-feed",
                &[],
                &[
                    ("naive", Some("denormalized copies")),
                    ("recommended", Some(REPLACED)),
                    ("embedded-comments", Some(WHOLE_LISTS)),
                ],
            ),
            (
                "counters",
                &indexed,
                &[("naive", Some("an update of an item with index entries")), ("recommended", None)],
            ),
            (
                "counters",
                &[("engines: [Cassandra, CosmosDB],", "engines: [Cassandra, CosmosDB, MongoDB],")],
                &[("naive", None), ("recommended", None)],
            ),
        ];
        for (scenario, edits, expected) in cases {
            let expected: Vec<(String, Option<String>)> =
                expected.iter().map(|(v, f)| ((*v).to_owned(), f.map(str::to_owned))).collect();
            assert_eq!(on_mongodb(scenario, edits), expected, "{scenario} {edits:?} on MongoDB");
        }
    }

    /// Partitions two entities share are modelled only where they are the same partitions, member
    /// for member, under no time slot (`shared`): anything else is refused by name.
    #[test]
    fn shared_partitions_rates_cannot_model_are_refused_by_name() {
        let cases: [(&[Edit], &str); 5] = [
            // Single-table partitions shared but not member for member: memberships keyed by
            // the first 5,000 of the channels' texts (the rest hold messages alone); and under
            // a time bucket, which closes each entity's partitions on its own.
            (
                &[
                    (
                        "(name: \"channel_id\", type: S, gen: Pick(\"channels\")),\n                (name: \"user_id\"",
                        "(name: \"channel_id\", type: S, gen: Pick(\"rooms\")),\n                (name: \"user_id\"",
                    ),
                    (
                        "popularity: Zipf(s: 0.99)),",
                        "popularity: Zipf(s: 0.99)),\n        (name: \"rooms\", count: 5000, ids: \"ch-{:05}\"),",
                    ),
                ],
                "share some partitions but not all",
            ),
            (
                &[
                    (
                        "\"Message\": (pk: \"CH#{channel_id}\",",
                        "\"Message\": (pk: \"CH#{channel_id}#{bucket(sent_at, 10d)}\",",
                    ),
                    (
                        "\"Membership\": (pk: \"CH#{channel_id}\",",
                        "\"Membership\": (pk: \"CH#{channel_id}#{bucket(joined_at, 10d)}\",",
                    ),
                ],
                "under a key with a time slot",
            ),
            // A third entity whose sort keys start inside the memberships' (`MEMBER#PIN#`
            // within `MEMBER#`), though apart from the messages' that lead the partition: a
            // Query of memberships would read its items too.
            (
                &[
                    (
                        "                (name: \"joined_at\", type: Time, gen: Now),\n            ],\n        ),\n",
                        "                (name: \"joined_at\", type: Time, gen: Now),\n            ],\n        ),\n        (name: \"Pin\", attributes: [(name: \"channel_id\", type: S, gen: Pick(\"channels\")), (name: \"pinned_at\", type: Time, gen: Now)]),\n",
                    ),
                    (
                        "\"Membership\": (pk: \"CH#{channel_id}\", sk: \"MEMBER#{user_id}\"),\n",
                        "\"Membership\": (pk: \"CH#{channel_id}\", sk: \"MEMBER#{user_id}\"),\n                \"Pin\": (pk: \"CH#{channel_id}\", sk: \"MEMBER#PIN#{pinned_at}\"),\n",
                    ),
                ],
                "sort keys without distinct literal prefixes",
            ),
            // A write shard in the shared key: each write draws its shard.
            (
                &[
                    (
                        "\"Message\": (pk: \"CH#{channel_id}\",",
                        "\"Message\": (pk: \"CH#{channel_id}#{shard(4)}\",",
                    ),
                    (
                        "\"Membership\": (pk: \"CH#{channel_id}\",",
                        "\"Membership\": (pk: \"CH#{channel_id}#{shard(4)}\",",
                    ),
                ],
                "or a write shard",
            ),
            // An index of both entities by room: their entries would share its partitions.
            (
                &[(
                    "\"Membership\": (pk: \"CH#{channel_id}\", sk: \"MEMBER#{user_id}\"),\n            },\n",
                    "\"Membership\": (pk: \"CH#{channel_id}\", sk: \"MEMBER#{user_id}\"),\n            },\n            indexes: [(name: \"by-room\", keys: {\"Message\": (pk: \"ROOM#{channel_id}\", sk: \"MSG#{sent_at}#{seq}\"), \"Membership\": (pk: \"ROOM#{channel_id}\", sk: \"MEMBER#{user_id}\")})],\n",
                )],
                "whose entries share an index's partitions",
            ),
        ];
        for (edits, words) in cases {
            match rates("practice-chat", edits, "naive") {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "practice-chat {edits:?}: refused for {feature:?}");
                }
                other => panic!("practice-chat {edits:?}: {other:?}"),
            }
        }
    }

    /// What a sharded key needs beyond a uniform or a class's shard draw is refused by name:
    /// each is a key the per-operation replay spreads by something rates do not follow.
    #[test]
    fn sharded_keys_rates_cannot_model_are_refused_by_name() {
        const SHARDED: &str = "(pk: \"TENANT#{tenant_id}#{shard(8)}\"";
        // (scenario, edits, variant, words of the refusal)
        let cases: [(&str, &[Edit], &str, &str); 11] = [
            // The shipping index's slot is a hash of the new order's own id, which growth by
            // growth_per_day would number between the puts' (`axes::new_ids`).
            (
                "practice-shop",
                &[("ids: \"o{:07}\")", "ids: \"o{:07}\", growth_per_day: 1000)")],
                "recommended",
                "a hash() slot of the new item's own identity, whose ids two put patterns or growth_per_day number",
            ),
            // A hash of two million buyers: each value would be hashed to place it.
            (
                "practice-tickets",
                &[
                    ("pk: \"EVENT#{event_id}\"", "pk: \"EVENT#{event_id}#{hash(customer_id, 2)}\""),
                    ("count: 1000000, ids: \"c{:07}\"", "count: 2000000, ids: \"c{:07}\""),
                ],
                "naive",
                "a partition key of more than",
            ),
            // A drawn number in a partition key has no small stated set of values.
            (
                "practice-saas",
                &[(SHARDED, "(pk: \"TENANT#{tenant_id}#{seq}\"")],
                "recommended",
                "a partition key of a drawn number",
            ),
            // The hash of the key's own member names the member's one partition twice.
            (
                "practice-saas",
                &[(SHARDED, "(pk: \"TENANT#{tenant_id}#{hash(tenant_id, 4)}\"")],
                "recommended",
                "a hash() slot of an attribute the key also holds",
            ),
            // A write shard beside a second member.
            (
                "practice-tickets",
                &[("pk: \"SEAT#{event_id}#{seat}\"", "pk: \"SEAT#{event_id}#{seat}#{shard(2)}\"")],
                "recommended",
                "a write shard in a partition key of two members",
            ),
            // A hash spreads a tenant's events by their `seq`, which the sort key holds too (and
            // a drawn number).
            (
                "practice-saas",
                &[(SHARDED, "(pk: \"TENANT#{tenant_id}#{hash(seq, 8)}\"")],
                "recommended",
                "a sort key of the attribute a hash() slot",
            ),
            // A class the reader does not pick by: the events' actor.
            (
                "practice-saas",
                &[(SHARDED, "(pk: \"TENANT#{tenant_id}#{shard(by: actor, x = 8, else = 1)}\"")],
                "recommended",
                "a class slot whose class is not the key's member",
            ),
            (
                "practice-saas",
                &[(SHARDED, "(pk: \"TENANT#{tenant_id}#{shard(2)}#{shard(4)}\"")],
                "recommended",
                "two shard or class slots",
            ),
            // Seq's exact counts per member, but a draw per shard.
            (
                "practice-saas",
                &[("popularity: Weighted([(0.5, Zipf(s: 0.99)), (0.5, Fixed(0))])", "popularity: Seq")],
                "recommended",
                "Seq picks of a sharded key",
            ),
            // A preloaded membership's shard is the per-operation replay's draw for its ordinal.
            (
                "practice-chat",
                &[(
                    "10d)}\", sk: \"MSG#{sent_at}#{seq}\"),\n                \"Membership\": (pk: \"CH#{channel_id}\"",
                    "10d)}\", sk: \"MSG#{sent_at}#{seq}\"),\n                \"Membership\": (pk: \"CH#{channel_id}#{shard(4)}\"",
                )],
                "recommended",
                "preloaded items of a sharded key",
            ),
            // A membership joined again is put again: its index entry's shard is drawn again.
            (
                "practice-chat",
                &[("(pk: \"USER#{user_id}\"", "(pk: \"USER#{user_id}#{shard(4)}\"")],
                "recommended",
                "the entry moves",
            ),
        ];
        for (scenario, edits, variant, words) in cases {
            match rates(scenario, edits, variant) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "{scenario} {edits:?}: refused for {feature:?}");
                }
                other => panic!("{scenario} {edits:?}: {other:?}"),
            }
        }
    }

    /// A put keyed by the new item's own identity makes a member, and a partition, of its own
    /// (`model::Growth`), and reads pick among the members so far: practice-shortener `naive`
    /// over its minute holds its preloaded links and those its puts landed, each its own
    /// partition, and a key's busiest tick takes one put (5 write units of a ~4.5 KB link), not a
    /// draw. What such a population needs beyond one put that makes it, a key of its identity
    /// alone and GetItems is refused by name.
    #[test]
    fn puts_of_new_identities_grow_what_reads_pick_from_or_are_refused_by_name() {
        const SESSIONS: &str = "(name: \"sessions\", count: 20000, ids: \"s{:09}\", popularity: Latest)";
        const RESOLVE: &str = "description: \"Follow a short link: its code to the long URL and preview.\",\n            action: Get,";
        const LINK_KEY: &str = "keys: {\"Link\": (pk: \"LINK#{code}\", sk: \"LINK\")},";
        const CHECK: &str = "given: [\"session_id\"], rate: 300, latency_ms: 10),";
        const TAG_KEYS: &str = "keys: {\"Link\": (pk: \"LINK#{code}\", sk: \"LINK\"), \"Tag\": (pk: \"TAG#{tag}\", sk: \"TAG\")},";
        // Each tick works out every member's share anew: a minute, not an hour.
        let report = rates_for("practice-shortener", &[], "naive", 60).expect("replays as rates");
        let puts = report.patterns.iter().find(|p| p.name == "create").expect("pattern");
        assert_eq!(puts.calls, 50 * 60);
        let landed = report.totals.items - 100_000;
        assert!(landed > 0 && landed <= puts.calls, "{landed} of {} puts landed", puts.calls);
        assert_eq!(report.partitions.logical, report.totals.items);
        assert!((report.partitions.peak_wcu_per_s - 5.0).abs() < 1e-9, "{:?}", report.partitions);
        // (scenario, edits, variant, words of the refusal)
        let cases: [(&str, &[Edit], &str, &str); 8] = [
            // Tags made by puts too: a second population grown by puts.
            (
                "practice-shortener",
                &[
                    (
                        "    ],\n    populations: [\n",
                        "        (name: \"Tag\", attributes: [(name: \"tag\", type: S, gen: New(\"tags\")), (name: \"body\", type: S, gen: Payload(200))]),\n    ],\n    populations: [\n        (name: \"tags\", count: 1000, ids: \"t{:05}\"),\n",
                    ),
                    (
                        "    patterns: [\n",
                        "    patterns: [\n        (name: \"new-tag\", description: \"A tag.\", action: Put, entity: \"Tag\", given: [\"tag\"], rate: 5, latency_ms: 20),\n",
                    ),
                    // Both variants' keys.
                    (LINK_KEY, TAG_KEYS),
                    (LINK_KEY, TAG_KEYS),
                ],
                "naive",
                "puts of new identities of two entities",
            ),
            (
                "practice-sessions",
                &[(
                    SESSIONS,
                    "(name: \"sessions\", count: 20000, ids: \"s{:09}\", popularity: Latest, growth_per_day: 100)",
                )],
                "naive",
                "with growth by growth_per_day besides",
            ),
            // A session refreshed by an update too: its writes are not the put's alone.
            (
                "practice-sessions",
                &[(
                    CHECK,
                    "given: [\"session_id\"], rate: 300, latency_ms: 10),\n        (name: \"touch\", description: \"Refresh a session.\", action: Update, entity: \"Session\", given: [\"session_id\"], sets: [\"data\"], rate: 10, latency_ms: 10),",
                )],
                "naive",
                "with another write of the items",
            ),
            (
                "practice-shortener",
                &[(LINK_KEY, "keys: {\"Link\": (pk: \"LINK#{code}#{shard(2)}\", sk: \"LINK\")},")],
                "naive",
                "with a key of more than the new identity",
            ),
            // A link's versions by time, resolved by a Query of its partition.
            (
                "practice-shortener",
                &[
                    (LINK_KEY, "keys: {\"Link\": (pk: \"LINK#{code}\", sk: \"{created_at}\")},"),
                    (
                        RESOLVE,
                        "description: \"Follow a short link: its code to the long URL and preview.\",\n            action: List,",
                    ),
                ],
                "naive",
                "a read other than a GetItem of a population that puts of new identities grow",
            ),
            // An index keyed by the new session's own id: each entry a partition the put makes.
            (
                "practice-sessions",
                &[("pk: \"USER#{user_id}\", sk: \"{created_at}\"", "pk: \"S#{session_id}\"")],
                "recommended",
                "a put keyed by the new item's own identity",
            ),
            // The devices page's fetch from the table is modelled (`fetch`) for a Query of the
            // whole partition: with a limit the items fetched are not the partition's.
            (
                "practice-sessions",
                &[(
                    "range: (attribute: \"created_at\", span: All),",
                    "range: (attribute: \"created_at\", span: All),\n            limit: 2,",
                )],
                "recommended",
                "a Query of an index followed by a fetch from the table, of part of the partition",
            ),
            // 20 users of ~1,000 sessions each: a call's fetch would take ten BatchGetItems.
            (
                "practice-sessions",
                &[("(name: \"users\", count: 5000,", "(name: \"users\", count: 20,")],
                "recommended",
                "a partition that may hold more items than one BatchGetItem takes (100)",
            ),
        ];
        for (scenario, edits, variant, words) in cases {
            match rates_for(scenario, edits, variant, 60) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "{scenario} {edits:?}: refused for {feature:?}");
                }
                other => panic!("{scenario} {edits:?}: {other:?}"),
            }
        }
    }

    /// What an update needs beyond a fresh draw of its sets on an item of its own key is
    /// refused by name: each makes the item's size, its units or its entries depend on what
    /// the key held before, or meters a batch whole.
    #[test]
    fn updates_rates_cannot_model_are_refused_by_name() {
        const NAIVE_KEY: &str = "\"Counter\": (pk: \"COUNTER#{stream_id}\"),\n            },";
        const READ_CAPACITY: &str = "capacity: Provisioned(read: 12000, write: 16000),\n            throughput: Manual(200000),\n            keys: {\n                \"Counter\": (pk: \"COUNTER#{stream_id}#{shard(10)}\"),";
        const READ_TENTH: &str = "capacity: Provisioned(read: 1200, write: 16000),\n            throughput: Manual(200000),\n            keys: {\n                \"Counter\": (pk: \"COUNTER#{stream_id}#{shard(10)}\"),";
        // (edits, variant, words of the refusal)
        const LIKES: &str = "(name: \"likes\", type: N, gen: Number(Uniform(0, 1000000))),";
        let cases: [(&[Edit], &str, &str); 7] = [
            // A like that also puts the counter: the item holds whichever wrote it last.
            (&[("action: Get,", "action: Put,")], "naive", "an update of items puts also write"),
            // No fresh draw: a `Sometimes` keeps the last value when it draws none.
            (
                &[("gen: Number(Uniform(0, 1000000))", "gen: Sometimes(0.5, Number(Uniform(0, 1000000)))")],
                "naive",
                "an update that sets likes (Sometimes",
            ),
            // An entry rewritten by what the update sets (Cosmos DB dropped: it has no indexes).
            (
                &[
                    ("engines: [Cassandra, CosmosDB],", "engines: [Cassandra],"),
                    (
                        NAIVE_KEY,
                        "\"Counter\": (pk: \"COUNTER#{stream_id}\"),\n            },\n            indexes: [(name: \"by-stream\", keys: {\"Counter\": (pk: \"S#{stream_id}\")})],",
                    ),
                ],
                "naive",
                "an update of an item with index entries",
            ),
            // An entry keyed by what the update sets moves (as leaderboard's score does), of a
            // counter no identity names (the first update creates it: its keys and likes only).
            (
                &[
                    ("engines: [Cassandra, CosmosDB],", "engines: [Cassandra],"),
                    (
                        NAIVE_KEY,
                        "\"Counter\": (pk: \"COUNTER#{stream_id}\"),\n            },\n            indexes: [(name: \"by-likes\", keys: {\"Counter\": (pk: \"S#{stream_id}\", sk: \"{likes}\")})],",
                    ),
                ],
                "naive",
                "an update that sets likes, an index key attribute (the entry moves",
            ),
            // A text every counter holds, in the key: the call names its item by the constant.
            (
                &[
                    (
                        LIKES,
                        "(name: \"likes\", type: N, gen: Number(Uniform(0, 1000000))),\n                (name: \"board\", type: S, gen: Text(\"season-12\")),",
                    ),
                    ("(pk: \"COUNTER#{stream_id}\")", "(pk: \"COUNTER#{board}#{stream_id}\")"),
                ],
                "naive",
                "an update that names its item by a constant (board equals",
            ),
            // The update moves its item (DeleteItem and PutItem).
            (
                &[("sets: [\"likes\"]", "sets: [\"likes\", \"stream_id\"]")],
                "naive",
                "update served by DeleteItem",
            ),
            // A tenth of the read capacity: the counts' batches are refused, each whole.
            (
                &[(READ_CAPACITY, READ_TENTH)],
                "recommended",
                "a BatchGetItem refused by one of its partitions",
            ),
        ];
        for (edits, variant, words) in cases {
            match rates("counters", edits, variant) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "counters {edits:?}: refused for {feature:?}");
                }
                other => panic!("counters {edits:?}: {other:?}"),
            }
        }
    }

    /// On Cosmos DB a key's first update is a create (`capacity::creates`), followed key by key
    /// from each one's chance of holding no item yet; where that is not how the keys fill, the
    /// update is refused by name: a key with a time slot (each bucket's keys created anew), an
    /// item named by a picked sort-key member (a create per member picked in a partition) and
    /// `Seq` picks (a member's calls come in turn). counters as bundled replays.
    #[test]
    fn first_updates_on_cosmos_db_rates_cannot_follow_are_refused_by_name() {
        const NAIVE_KEY: &str = "\"Counter\": (pk: \"COUNTER#{stream_id}\"),";
        const LIKES: &str = "(name: \"likes\", type: N, gen: Number(Uniform(0, 1000000))),";
        let on_cosmos = |edits: &[Edit]| {
            let mut source = crate::scenario::load("counters").expect("bundled").source().to_owned();
            for (from, to) in edits {
                assert!(source.contains(from), "counters: no {from:?} to edit");
                source = source.replacen(from, to, 1);
            }
            let loaded = crate::scenario::parse("counters.ron", &source)
                .and_then(|l| l.on_engine(Engine::CosmosDb))
                .unwrap_or_else(|e| panic!("{e}"));
            let variant = loaded.variant(Some("naive")).expect("variant").clone();
            let options =
                RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(10)) };
            run(&loaded.scenario, &variant, &options, &mut |_| {})
        };
        // (edits, words of the refusal; none: it replays)
        let cases: [(&[Edit], Option<&str>); 4] = [
            (&[], None),
            (
                &[
                    (
                        LIKES,
                        "(name: \"likes\", type: N, gen: Number(Uniform(0, 1000000))),\n                (name: \"at\", type: Time, gen: Now),",
                    ),
                    (
                        "given: [\"stream_id\"],\n            sets:",
                        "given: [\"stream_id\", \"at\"],\n            sets:",
                    ),
                    (
                        "given: [\"stream_id\"],\n            rate: 2000",
                        "given: [\"stream_id\", \"at\"],\n            rate: 2000",
                    ),
                    (NAIVE_KEY, "\"Counter\": (pk: \"COUNTER#{stream_id}#{bucket(at, 1m)}\"),"),
                ],
                Some("first updates of keys with a time slot"),
            ),
            (
                &[(NAIVE_KEY, "\"Counter\": (pk: \"COUNTERS\", sk: \"{stream_id}\"),")],
                Some("first updates of items named by a picked sort-key member"),
            ),
            (
                &[("sets: [\"likes\"],", "sets: [\"likes\"],\n            keys: Seq,")],
                Some("first updates of Seq picks on Cosmos DB"),
            ),
        ];
        for (edits, words) in cases {
            match (on_cosmos(edits), words) {
                (Ok(_), None) => {}
                (Err(FluidError::Unsupported { feature, .. }), Some(words)) => {
                    assert!(feature.contains(words), "counters {edits:?}: refused for {feature:?}");
                }
                (other, _) => panic!("counters {edits:?}: {other:?}"),
            }
        }
    }

    /// A put naming its item by a member picked with unequal shares (practice-ratelimit's
    /// counters written by puts) is modelled where that pick is all its sort key varies by
    /// (`tests/fluid_agreement.rs`); beside anything else that varies, Σ share² would count its
    /// keys as if the members were equally likely, so it is refused by name.
    #[test]
    fn puts_of_skewed_sort_keys_rates_cannot_count_are_refused_by_name() {
        const PUT: Edit = (
            "action: Update,\n            entity: \"Counter\",\n            given: [\"client_id\", \"at\"],\n            sets: [\"hits\"],\n            ttl: \"2m\",",
            "action: Put,\n            entity: \"Counter\",",
        );
        // (edits, words of the refusal)
        let cases: [(&[(&str, &str)], &str); 1] = [
            // The write time beside the client (Zipf over 20,000).
            (
                &[PUT, ("sk: \"{client_id}\"", "sk: \"{client_id}#{at}\"")],
                "a put with a sort key of a member picked with unequal shares beside the write time",
            ),
        ];
        for (edits, words) in cases {
            match rates_for("practice-ratelimit", edits, "naive", 1) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "practice-ratelimit {edits:?}: refused for {feature:?}");
                }
                other => panic!("practice-ratelimit {edits:?}: {other:?}"),
            }
        }
        // The pick alone in the sort key: replays.
        rates_for("practice-ratelimit", &[PUT], "naive", 60).expect("a picked member alone: replays");
    }

    /// Whether a put's sort-key pick is skewed is judged by the popularity the put picks with:
    /// its pattern's `keys` for its first given (`model::popularity_of`), not its population's.
    #[test]
    fn skewed_sort_key_picks_are_judged_by_the_pattern_s_keys() {
        // A put of the client's counter this second, the client the put's first given.
        const KEYED_PUT: &str = "action: Update,\n            entity: \"Counter\",\n            given: [\"client_id\", \"at\"],\n            sets: [\"hits\"],\n            ttl: \"2m\",";
        const WITH_TIME: Edit = ("sk: \"{client_id}\"", "sk: \"{client_id}#{at}\"");
        const UNIFORM_CLIENTS: Edit = ("popularity: Zipf(s: 0.99))", "popularity: Uniform)");
        let put = |keys: &str| {
            format!(
                "action: Put,\n            entity: \"Counter\",\n            given: [\"client_id\", \"at\"],\n            keys: {keys},"
            )
        };
        let (zipf_put, uniform_put) = (put("Zipf(s: 0.99)"), put("Uniform"));
        // Clients equally likely, but the put picks them by Zipf: refused as skewed.
        let edits = [(KEYED_PUT, zipf_put.as_str()), WITH_TIME, UNIFORM_CLIENTS];
        match rates_for("practice-ratelimit", &edits, "naive", 1) {
            Err(FluidError::Unsupported { feature, place }) => {
                assert!(
                    feature.contains("a member picked with unequal shares beside the write time"),
                    "{feature}"
                );
                assert_eq!(place, "entity Counter");
            }
            other => panic!("a Zipf-keyed put of a uniform population: {other:?}"),
        }
        // Clients by Zipf, but the put picks them uniformly: Σ share² is exact, and it replays.
        let edits = [(KEYED_PUT, uniform_put.as_str()), WITH_TIME];
        rates_for("practice-ratelimit", &edits, "naive", 1).expect("a uniformly keyed put: replays");
        // The client a New attribute other than the counter's identity (it picks a member, as
        // a Pick does), the one preloaded counter in the first window's partition: refused for
        // the preload, not as a sort key of something other than a picked member.
        let edits = [
            (KEYED_PUT, zipf_put.as_str()),
            (
                "(name: \"client_id\", type: S, gen: Pick(\"clients\")),",
                "(name: \"counter_id\", type: S, gen: New(\"counters\")),\n                (name: \"client_id\", type: S, gen: New(\"clients\")),",
            ),
            (
                "(name: \"clients\", count: 20000,",
                "(name: \"counters\", count: 1, ids: \"c{:09}\"),\n        (name: \"clients\", count: 20000,",
            ),
        ];
        match rates_for("practice-ratelimit", &edits, "naive", 1) {
            Err(FluidError::Unsupported { feature, place }) => {
                assert!(
                    feature.contains("a member picked with unequal shares, onto preloaded partitions"),
                    "{feature}"
                );
                assert_eq!(place, "pattern count-request");
            }
            other => panic!("a put of a New member's counter: {other:?}"),
        }
    }

    /// An update naming its item by a picked member in its sort key is modelled
    /// (`distinct`: practice-ratelimit `naive`); anything else varying there is refused by
    /// name, and so is a sort key of the partition's own member kept as one item a partition
    /// (counters with `LIKES#{stream_id}`: replays).
    #[test]
    fn updates_of_sort_keys_rates_cannot_model_are_refused_by_name() {
        // (edits, words of the refusal)
        let cases: [(&[(&str, &str)], &str); 1] = [
            // The write time beside the client: a time in the sort key.
            (
                &[("sk: \"{client_id}\"", "sk: \"{client_id}#{at}\"")],
                "a sort key of attributes other than one picked member",
            ),
        ];
        for (edits, words) in cases {
            match rates_for("practice-ratelimit", edits, "naive", 1) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "practice-ratelimit {edits:?}: refused for {feature:?}");
                }
                other => panic!("practice-ratelimit {edits:?}: {other:?}"),
            }
        }
        let own =
            [("(pk: \"COUNTER#{stream_id}\")", "(pk: \"COUNTER#{stream_id}\", sk: \"LIKES#{stream_id}\")")];
        let report = rates_for("counters", &own, "naive", 60).expect("one item a partition: replays");
        assert_eq!(report.fidelity, crate::engine::sim::report::Fidelity::Rates);
    }

    /// What an update that moves its item's index entries needs beyond a preloaded item named
    /// by its identity, whose entries move within their partitions under a number, is refused
    /// by name (leaderboard `naive`, whose first projection is edited): each makes an entry's
    /// size, its place or the item's depend on what the item held.
    #[test]
    fn updates_that_move_entries_rates_cannot_model_are_refused_by_name() {
        const SETS: &str = "sets: [\"score\", \"games\", \"updated_at\"],";
        const INCLUDE: &str = "projection: Include([\"name\"]),";
        const ENTRY_WORDS: &str =
            "with index entries it rewrites in place, moves to another partition, or gates";
        // (edits, words of the refusal)
        let cases: [(&[Edit], &str); 5] = [
            // The entry projects the games the update sets too: rewritten with their new size.
            (&[(INCLUDE, "projection: Include([\"name\", \"games\"]),")], ENTRY_WORDS),
            (&[(INCLUDE, "projection: All,")], ENTRY_WORDS),
            // Players joining through the run: not every item the update names is preloaded.
            (
                &[(
                    "ids: \"p{:06}\", popularity: Uniform)",
                    "ids: \"p{:06}\", popularity: Uniform, growth_per_day: 1000)",
                )],
                "of items not all preloaded",
            ),
            // The name in the sort key: its new value's size is not bounded by a number's.
            (
                &[
                    ("pk: \"{board}\", sk: \"{score:012}\"", "pk: \"{board}\", sk: \"{name}\""),
                    (SETS, "sets: [\"name\", \"games\", \"updated_at\"],"),
                ],
                "of a sort-key attribute other than a number",
            ),
            // Two sort-key attributes set at once.
            (
                &[("pk: \"{board}\", sk: \"{score:012}\"", "pk: \"{board}\", sk: \"{score:012}#{games}\"")],
                "of more than one sort-key attribute",
            ),
        ];
        for (edits, words) in cases {
            match rates("leaderboard", edits, "naive") {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains("an update that sets"), "leaderboard {edits:?}: {feature:?}");
                    assert!(feature.contains(words), "leaderboard {edits:?}: refused for {feature:?}");
                }
                other => panic!("leaderboard {edits:?}: {other:?}"),
            }
        }
    }

    /// What a condition needs beyond a create-once put that alone writes its items is refused
    /// by name: each makes whether a put is refused, or what it costs, depend on something
    /// rates do not follow.
    #[test]
    fn conditions_rates_cannot_model_are_refused_by_name() {
        // (scenario, edits, variant, words of the refusal)
        let cases: [(&str, &[Edit], &str, &str); 7] = [
            // A buyer's check that puts the booking too: the seat may be taken by either.
            (
                "practice-tickets",
                &[(
                    "action: Get,\n            entity: \"Booking\",",
                    "action: Put,\n            entity: \"Booking\",",
                )],
                "naive",
                "a create-once put of items another pattern or the preload also writes",
            ),
            // A refused put writes no entry: an index of bookings by seat.
            (
                "practice-tickets",
                &[(
                    "keys: {\"Booking\": (pk: \"EVENT#{event_id}\", sk: \"SEAT#{seat}\")},",
                    "keys: {\"Booking\": (pk: \"EVENT#{event_id}\", sk: \"SEAT#{seat}\")},\n            indexes: [(name: \"by-seat\", keys: {\"Booking\": (pk: \"SEAT#{seat}\", sk: \"EVENT#{event_id}\")})],",
                )],
                "naive",
                "a create-once put of items with index entries or aggregates",
            ),
            // An upserted booking is meant to be replaced: the condition and the upsert pull
            // against each other.
            (
                "practice-tickets",
                &[("name: \"Booking\",\n", "name: \"Booking\",\n            upsert: true,\n")],
                "naive",
                "a create-once put of an upserted entity",
            ),
            // An order put in one transaction with the total it keeps up: a TransactWriteItems,
            // whose condition refuses the whole transaction.
            (
                "practice-top-customers",
                &[(
                    "given: [\"customer_id\"],\n            rate: 300,",
                    "given: [\"customer_id\"],\n            condition: NotExists,\n            transaction: true,\n            rate: 300,",
                )],
                "naive",
                "a create-once condition on a write other than a PutItem",
            ),
            // A posting reads its balance, then writes it on the version read: on the
            // settlement account's one key ~1,470 write units a second, which throttle; a
            // throttled call reads and races again later.
            ("practice-ledger", &[], "naive", "a partition throttling version-checked updates"),
            // Its chance to lose follows the rate of the moment.
            (
                "practice-ledger",
                &[(
                    "rate: 700,",
                    "rate: 700,\n            shape: [Spike(at: \"10m\", factor: 4, duration: \"10m\")],",
                )],
                "recommended",
                "a version-checked update under a rate shape",
            ),
            // Balances written by a second pattern too: its writes would race, or not.
            (
                "practice-ledger",
                &[(
                    "action: Get,\n            entity: \"Balance\",\n            given: [\"account_id\"],",
                    "action: Update,\n            entity: \"Balance\",\n            given: [\"account_id\"],\n            sets: [\"amount\"],",
                )],
                "recommended",
                "a version-checked update of items another pattern also writes",
            ),
        ];
        for (scenario, edits, variant, words) in cases {
            match rates(scenario, edits, variant) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "{scenario} {edits:?}: refused for {feature:?}");
                }
                other => panic!("{scenario} {edits:?}: {other:?}"),
            }
        }
    }

    /// What a read cache needs beyond entries that neither expire nor are evicted within the
    /// run, in front of one pattern's GetItems of a grown population that the table serves
    /// unthrottled, is refused by name (practice-shortener `recommended`, edited, a minute).
    #[test]
    fn read_caches_rates_cannot_model_are_refused_by_name() {
        const NAIVE_KEY: &str = "keys: {\"Session\": (pk: \"SESSION#{session_id}\")},";
        // (scenario, edits, variant, seconds, words of the refusal)
        let cases: [(&str, &[Edit], &str, u64, &str); 5] = [
            // A 30 s TTL over a minute: a key's entry expires and its next read refills it.
            (
                "practice-shortener",
                &[("ttl: \"5m\"", "ttl: \"30s\"")],
                "recommended",
                60,
                "a read cache whose entries may expire within the run",
            ),
            // 100,000 entries for the 103,000 links a minute's reads may ask: LRU evicts some.
            (
                "practice-shortener",
                &[("items: 200000", "items: 100000")],
                "recommended",
                60,
                "a read cache whose entries may be evicted (the 103000 keys",
            ),
            // 300,000 resolves a second: the first tick's misses alone throttle the partitions.
            (
                "practice-shortener",
                &[("rate: 6000,", "rate: 300000,")],
                "recommended",
                10,
                "a read cache in front of reads the table throttles",
            ),
            // A second pattern's GetItems of the same links, through the same entries.
            (
                "practice-shortener",
                &[
                    (
                        "    patterns: [\n",
                        "    patterns: [\n        (name: \"peek\", description: \"A link's preview.\", action: Get, entity: \"Link\", given: [\"code\"], rate: 10, latency_ms: 10),\n",
                    ),
                    ("patterns: [\"resolve\"]", "patterns: [\"resolve\", \"peek\"]"),
                ],
                "recommended",
                60,
                "a read cache in front of two patterns' reads of the same keys",
            ),
            // The devices page: a Scan, not a GetItem.
            (
                "practice-sessions",
                &[(
                    NAIVE_KEY,
                    "keys: {\"Session\": (pk: \"SESSION#{session_id}\")},\n            cache: (ttl: \"5m\", items: 50000, patterns: [\"my-devices\"]),",
                )],
                "naive",
                60,
                "a read cache in front of reads other than GetItems of a population puts of new identities grow",
            ),
        ];
        for (scenario, edits, variant, secs, words) in cases {
            match rates_for(scenario, edits, variant, secs) {
                Err(FluidError::Unsupported { feature, .. }) => {
                    assert!(feature.contains(words), "{scenario} {edits:?}: refused for {feature:?}");
                }
                other => panic!("{scenario} {edits:?}: {other:?}"),
            }
        }
    }

    /// orders' line items alone (as `tests/fluid_agreement.rs`'s `orders_line_items`: without the
    /// patterns that grow, update or read the orders, the items picking among the preloaded
    /// orders uniformly at 4 a second) with `edits`, replayed as rates for `secs` seconds.
    fn line_item_rates(edits: &[Edit], variant: &str, secs: u64) -> Result<RunReport, FluidError> {
        let mut source = crate::scenario::load("orders").expect("bundled").source().to_owned();
        for name in ["customer-page", "place-order", "ship-order", "pending-orders"] {
            let at = source.find(&format!("name: \"{name}\",")).expect("a pattern");
            let start = source[..at].rfind("        (\n").expect("a pattern's opening");
            let end =
                at + source[at..].find("\n        ),\n").expect("a pattern's end") + "\n        ),\n".len();
            source.replace_range(start..end, "");
            source = source
                .lines()
                .filter(|l| !l.contains(&format!("(\"{name}\"")))
                .collect::<Vec<_>>()
                .join("\n");
        }
        let uniform: [Edit; 2] = [
            ("            keys: Latest,\n            rate: 0.03,", "            rate: 4,"),
            ("ids: \"o{:09}\", popularity: Latest)", "ids: \"o{:09}\")"),
        ];
        for (from, to) in uniform.iter().chain(edits) {
            assert!(source.contains(from), "orders: no {from:?} to edit");
            source = source.replacen(from, to, 1);
        }
        let loaded = crate::scenario::parse("orders.ron", &source).unwrap_or_else(|e| panic!("{e}"));
        let variant = loaded.variant(Some(variant)).expect("variant");
        let options =
            RunOptions { seed: None, duration: Some(crate::engine::time::SimDuration::from_secs(secs)) };
        run(&loaded.scenario, variant, &options, &mut |_| {})
    }

    /// `Nth` numbers are modelled beside their member in a sort key, where every number a run may
    /// reach takes the bytes of 1 (`nth`); elsewhere they are refused by name.
    #[test]
    fn nth_attributes_rates_cannot_follow_are_refused_by_name() {
        const ITEM_KEY: &str = "\"OrderItem\": (pk: \"ORDER#{order_id}\", sk: \"ITEM#{line:03}\"),";
        // (edits, words of the refusal; none: replayed)
        let cases: [(&[Edit], Option<&str>); 6] = [
            (&[], None),
            // One order taking 1,000 items a second: millions of numbers, not sized one by one.
            (
                &[
                    ("(name: \"orders\", count: 20000,", "(name: \"orders\", count: 1,"),
                    ("            rate: 4,", "            rate: 1000,"),
                ],
                Some("Nth numbers past 1000000 for a member"),
            ),
            // 20 orders: ~1,700 items each in the first hour, and 101 takes other bytes than 1.
            (
                &[("(name: \"orders\", count: 20000,", "(name: \"orders\", count: 20,")],
                Some("Nth numbers whose size varies with their digits"),
            ),
            // An unpadded number's text grows at 10.
            (
                &[(ITEM_KEY, "\"OrderItem\": (pk: \"ORDER#{order_id}\", sk: \"ITEM#{line}\"),")],
                Some("varies with their digits"),
            ),
            // Line 1 of every order under one product's key: they replace each other.
            (
                &[(ITEM_KEY, "\"OrderItem\": (pk: \"PRODUCT#{product_id}\", sk: \"ITEM#{line:03}\"),")],
                Some("an Nth attribute in a sort key without the member that numbers it"),
            ),
            (
                &[(ITEM_KEY, "\"OrderItem\": (pk: \"ORDER#{order_id}#{line}\", sk: \"ITEM\"),")],
                Some("an Nth attribute in a partition key"),
            ),
        ];
        for (edits, words) in cases {
            match (line_item_rates(edits, "naive", 3600), words) {
                (Ok(report), None) => assert_eq!(report.totals.overwritten_items, 0, "{edits:?}"),
                (Err(FluidError::Unsupported { feature, .. }), Some(words)) => {
                    assert!(feature.contains(words), "{edits:?}: refused for {feature:?}");
                }
                (other, _) => panic!("{edits:?}: {other:?}"),
            }
        }
    }

    /// A format whose text comes back (`%H`) is refused when it does, a day in.
    #[test]
    fn a_time_text_that_comes_back_is_refused() {
        let source = crate::scenario::load("sensors").expect("bundled").source().to_owned();
        let source = source.replacen(
            "(pk: \"{sensor_id}#{reading_time:%Y-%m-%d}\"",
            "(pk: \"{sensor_id}#{reading_time:%H}\"",
            1,
        );
        let loaded = crate::scenario::parse("sensors.ron", &source).unwrap_or_else(|e| panic!("{e}"));
        let variant = loaded.variant(Some("recommended")).expect("variant");
        let options = RunOptions {
            seed: None,
            duration: Some(crate::engine::time::SimDuration::from_secs(2 * 86_400)),
        };
        match run(&loaded.scenario, variant, &options, &mut |_| {}) {
            Err(FluidError::Unsupported { feature, .. }) => {
                assert!(feature.contains("text repeats"), "{feature}");
            }
            other => panic!("{other:?}"),
        }
    }
}
