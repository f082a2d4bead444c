//! The orders and hashes the group coordinator depends on: which `__consumer_offsets` partition
//! coordinates a group, what a member id looks like, and in which order Kafka's member map
//! yields its keys (which decides the next group leader).
//!
//! Everything here is pure: randomness comes only from the [`Rng`] passed in.
//!
//! Sources (paths in apache/kafka unless named otherwise):
//! - **Java `String.hashCode`** (`java.lang.String`): `s[0]*31^(n-1) + ... + s[n-1]` over the
//!   string's UTF-16 code units, in wrapping `int` arithmetic: [`java_string_hash_code`].
//! - **The coordinator partition**: `GroupMetadataManager.partitionFor` in
//!   `core/src/main/scala/kafka/coordinator/group/GroupMetadataManager.scala` is
//!   `Utils.abs(groupId.hashCode) % groupMetadataTopicPartitionCount`, and `Utils.abs` in
//!   `clients/src/main/java/org/apache/kafka/common/utils/Utils.java` maps `Integer.MIN_VALUE`
//!   to 0 (unlike `Math.abs`): [`coordinator_partition`].
//! - **Member ids**: `GroupMetadata.generateMemberId` in
//!   `core/src/main/scala/kafka/coordinator/group/GroupMetadata.scala` is
//!   `clientId + "-" + UUID.randomUUID().toString` (the `group.instance.id` instead of the client
//!   id for a static member). `java.util.UUID.randomUUID` takes 16 random bytes, then sets the
//!   version nibble to 4 and the variant bits to `10`; `toString` prints lowercase hex as
//!   8-4-4-4-12: [`random_uuid`], [`member_id`], [`member_id_for`].
//! - **The member map's order**: `GroupMetadata` keeps `members` in a
//!   `scala.collection.mutable.HashMap[String, MemberMetadata]` and, when the leader is removed,
//!   picks the first key: `members.keys.head` (`GroupMetadata.remove`, 0.10.2.2 and 2.0.1) or
//!   `members.keys.headOption` (2.4.1, 3.9.0); `maybeElectNewJoinedLeader` picks
//!   `members.find(...)`, the first key in the same order. That order belongs to the Scala
//!   library of the Kafka binary, so it is chosen per profile by
//!   [`Profile::scala_version`](super::config::Profile::scala_version) and held as a
//!   [`MemberOrder`]. Kafka's recommended downloads were built with Scala 2.11 for 0.10.2 and
//!   2.0 (`gradle.properties`: `scalaVersion=2.11.12` at 2.0.1; 0.10.2.2's default build was
//!   2.10.6, whose `HashTable` gives the same order, but its recommended download was the 2.11
//!   one), 2.12 for 2.4 (`2.12.10` at 2.4.1), and 2.13 since 2.6 (`2.13.2` at 2.6, `2.13.14` at
//!   3.9).
//! - **Scala 2.13** (`src/library/scala/collection/mutable/HashMap.scala` in scala/scala; the
//!   rules below read the same at tags v2.13.0 and v2.13.14 and on branch 2.13.x) is modelled by
//!   [`ScalaHashMapOrder`]:
//!   - `computeHash(key) = improveHash(key.##)`, `improveHash(h) = h ^ (h >>> 16)`; for a `String`,
//!     `##` is `hashCode`.
//!   - The default constructor uses `defaultInitialCapacity = 16` and `defaultLoadFactor = 0.75`:
//!     `tableSizeFor(16) = 16` buckets, `threshold = newThreshold(16) = (16 * 0.75).toInt = 12`.
//!   - `put`/`update` (`put0`) first grow when `contentSize + 1 >= threshold` (even when the key is
//!     already present), to `table.length * 2`, with `threshold = newThreshold(newlen)`.
//!   - A key lives in bucket `index(hash) = hash & (table.length - 1)`.
//!   - Within a bucket the nodes are kept in ascending hash order (the class invariant "Every bucket
//!     is sorted in ascendent hash order"; `put0` walks past nodes with `n.hash <= hash`, so a new
//!     key goes *after* keys of an equal hash). Hashes are Scala `Int`s: the comparison is signed.
//!   - `growTable` splits each bucket `i` into `i` and `i + oldlen` by the bit `hash & oldlen`,
//!     keeping the nodes' relative order, so the invariant survives growth.
//!   - `remove0` unlinks the node; nothing ever shrinks the table (not `remove`, not `clear`),
//!     so the bucket count depends on the largest size the map ever reached.
//!   - The iterator (`HashMapIterator`) walks buckets `0, 1, 2, ...` and each bucket's list in
//!     order; `keys`/`keySet`/`keysIterator` and `find` use that order.
//!
//!   Net effect: keys iterate by (bucket index, signed improved hash, insertion order among equal
//!   hashes), where the bucket count is 16 doubled once per growth.
//! - **Scala 2.11 and 2.12**: `mutable.HashMap` mixes in the `HashTable` trait
//!   (`src/library/scala/collection/mutable/HashTable.scala` and `HashMap.scala`, v2.11.12 and
//!   v2.12.10; `scala.util.hashing.byteswap32` in `src/library/scala/util/hashing/package.scala`),
//!   modelled by [`Scala212HashMapOrder`]:
//!   - The hash is `improve(key.##, seedvalue) = rotateRight(byteswap32(hashCode), seedvalue)`,
//!     with `seedvalue = tableSizeSeed = bitCount(table.length - 1) = 4`, fixed when the
//!     16-bucket table is made (`resize` does not touch it).
//!   - The bucket is the *top* bits of that hash: `improve(...) >>> numberOfLeadingZeros(length - 1)`.
//!   - `addEntry0` prepends a new key to its bucket and doubles the table once `tableSize >
//!     threshold` (`threshold = length * 750 / 1000`: at the 13th key, the 25th, the 49th...).
//!   - `resize` re-links the old buckets from the last down, each from its head, prepending
//!     every entry to its new bucket, which reverses each bucket's order.
//!   - `removeEntry` unlinks; the table never shrinks.
//!   - `entriesIterator` (behind `keys`) starts at the last populated bucket and walks down to 0.
//!
//!   Net effect: keys iterate from the highest bucket down, newest first within a bucket (each
//!   doubling reversed the keys then present). The two versions differ only in `index` (2.12
//!   adds `& (length - 1)`, 2.11 special-cases a length of 1), which gives the same bucket for
//!   every table a `HashMap` can have, in `capacity` (`nextPositivePowerOfTwo` against
//!   `powerOfTwo`, both 16 for 16) and in `getOrElseUpdate`, which Kafka's member map does not
//!   use: the order is the same.
//!
//! A coordinator failover loads the group into a *new* `GroupMetadata` (`GroupMetadata.loadGroup`
//! adds the stored members one by one, in the order the record lists them, which is the old
//! map's iteration order: `GroupMetadataManager` writes `allMemberMetadata = members.values.toList`),
//! so the reloaded map's bucket count follows the members present at load time, not the old
//! map's history: build a fresh [`MemberOrder`] then.

use super::rng::Rng;

/// Java's `String.hashCode`: `h = 31 * h + c` over the UTF-16 code units `c` of `s`, with `int`
/// (wrapping, two's complement) arithmetic. Characters outside the Basic Multilingual Plane count
/// as two code units (a surrogate pair), as in Java.
pub fn java_string_hash_code(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// Kafka's `Utils.abs`: the absolute value, except that `i32::MIN` (whose absolute value does not
/// fit) gives 0 rather than `Math.abs`'s `Integer.MIN_VALUE`.
pub fn kafka_utils_abs(n: i32) -> i32 {
    if n == i32::MIN {
        0
    } else {
        n.abs()
    }
}

/// The `__consumer_offsets` partition whose leader coordinates `group_id`:
/// `Utils.abs(groupId.hashCode) % partitions` (`GroupMetadataManager.partitionFor`).
///
/// `partitions` is `offsets.topic.num.partitions` (50 by default) and must be at least 1.
pub fn coordinator_partition(group_id: &str, partitions: u32) -> u32 {
    assert!(
        partitions > 0,
        "offsets.topic.num.partitions must be at least 1"
    );
    // Utils.abs gives a value in 0..=i32::MAX, so the cast is lossless.
    (kafka_utils_abs(java_string_hash_code(group_id)) as u32) % partitions
}

/// A random (version 4, IETF variant) UUID formatted as Java's `UUID.randomUUID().toString()`:
/// 36 characters, lowercase hex in groups 8-4-4-4-12. The 122 random bits come from `rng`
/// (two draws), so the same seed gives the same UUIDs.
pub fn random_uuid(rng: &mut Rng) -> String {
    // Java: randomBytes[6] = (randomBytes[6] & 0x0f) | 0x40; randomBytes[8] = (randomBytes[8] & 0x3f) | 0x80;
    // with the most significant long made of bytes 0..8 and the least significant of 8..16.
    let msb = (rng.next_u64() & !0x0000_0000_0000_F000) | 0x0000_0000_0000_4000;
    let lsb = (rng.next_u64() & !0xC000_0000_0000_0000) | 0x8000_0000_0000_0000;
    java_uuid_string(msb, lsb)
}

/// `java.util.UUID.toString` of the UUID with these most and least significant 64 bits.
fn java_uuid_string(msb: u64, lsb: u64) -> String {
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        msb >> 32,
        (msb >> 16) & 0xFFFF,
        msb & 0xFFFF,
        lsb >> 48,
        lsb & 0xFFFF_FFFF_FFFF
    )
}

/// A dynamic member's id as the GroupCoordinator makes it: `client_id + "-" + UUID`
/// (`GroupMetadata.generateMemberId` without a `group.instance.id`).
pub fn member_id(client_id: &str, rng: &mut Rng) -> String {
    member_id_for(client_id, None, rng)
}

/// A member's id as `GroupMetadata.generateMemberId` makes it: the `group.instance.id` of a static
/// member (KIP-345) or else the client id, then `-` and a random UUID.
pub fn member_id_for(client_id: &str, group_instance_id: Option<&str>, rng: &mut Rng) -> String {
    let prefix = group_instance_id.unwrap_or(client_id);
    format!("{prefix}-{}", random_uuid(rng))
}

/// Scala 2.13's `mutable.HashMap.improveHash` of Java's `String.hashCode`: `h ^ (h >>> 16)`.
/// This is the hash a key is bucketed and sorted by.
pub fn scala_improved_hash(key: &str) -> i32 {
    let h = java_string_hash_code(key) as u32;
    (h ^ (h >> 16)) as i32
}

/// The initial bucket count of a `mutable.HashMap()` (`tableSizeFor(defaultInitialCapacity = 16)`).
pub const SCALA_HASHMAP_INITIAL_BUCKETS: usize = 16;

/// `newThreshold(size) = (size * 0.75).toInt` for the default load factor; exact for the
/// power-of-two sizes (>= 16) a table can have.
fn threshold_for(buckets: usize) -> usize {
    buckets / 4 * 3
}

/// The bucket count of a default `mutable.HashMap` after it has held at most `peak_size` keys
/// (and was only ever `put` new keys): 16, doubled while `peak_size >= 0.75 * buckets`. So 0..=11
/// keys fit in 16 buckets, 12..=23 in 32, 24..=47 in 64, and so on.
pub fn scala_table_len_for_peak(peak_size: usize) -> usize {
    let mut buckets = SCALA_HASHMAP_INITIAL_BUCKETS;
    while peak_size >= threshold_for(buckets) {
        buckets *= 2;
    }
    buckets
}

/// One key in the model: its improved hash, kept beside it as Scala's `Node` keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Node {
    hash: i32,
    key: String,
}

/// The key order of a Scala 2.13 `mutable.HashMap[String, _]` created with `new HashMap`
/// (16 buckets, load factor 0.75), under `put` and `remove`: the order in which `keys`,
/// `keys.headOption` and `find` visit the keys. See the module doc for the rules and their source.
///
/// Values are not modelled: only the keys decide the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScalaHashMapOrder {
    /// `table`: each bucket's keys in list order (ascending signed hash, then insertion).
    table: Vec<Vec<Node>>,
    /// `threshold`: the next size at which `put` grows the table.
    threshold: usize,
    /// `contentSize`.
    size: usize,
}

impl Default for ScalaHashMapOrder {
    fn default() -> Self {
        Self::new()
    }
}

impl ScalaHashMapOrder {
    /// An empty map as `new mutable.HashMap[String, V]` makes it: 16 buckets, threshold 12.
    pub fn new() -> Self {
        ScalaHashMapOrder {
            table: vec![Vec::new(); SCALA_HASHMAP_INITIAL_BUCKETS],
            threshold: threshold_for(SCALA_HASHMAP_INITIAL_BUCKETS),
            size: 0,
        }
    }

    /// A fresh map into which `keys` were `put` in this order (duplicates are `put` again,
    /// which changes nothing but may grow the table, as in Scala).
    pub fn from_insertion_order<S: AsRef<str>>(keys: &[S]) -> Self {
        let mut map = Self::new();
        for key in keys {
            map.insert(key.as_ref());
        }
        map
    }

    /// `put(key, _)`: grows first if `size + 1 >= threshold` (even if the key is present), then
    /// adds the key after every key of its bucket whose hash is lower or equal. Returns whether
    /// the key was new.
    pub fn insert(&mut self, key: &str) -> bool {
        if self.size + 1 >= self.threshold {
            let doubled = self.table.len() * 2;
            self.grow_table(doubled);
        }
        let hash = scala_improved_hash(key);
        let idx = self.index(hash);
        let bucket = &mut self.table[idx];
        let mut pos = 0;
        while pos < bucket.len() && bucket[pos].hash <= hash {
            if bucket[pos].hash == hash && bucket[pos].key == key {
                return false;
            }
            pos += 1;
        }
        bucket.insert(
            pos,
            Node {
                hash,
                key: key.to_string(),
            },
        );
        self.size += 1;
        true
    }

    /// `remove(key)`: unlinks the key if present (the table never shrinks). Returns whether it
    /// was present.
    pub fn remove(&mut self, key: &str) -> bool {
        let hash = scala_improved_hash(key);
        let idx = self.index(hash);
        let bucket = &mut self.table[idx];
        match bucket
            .iter()
            .take_while(|n| n.hash <= hash)
            .position(|n| n.hash == hash && n.key == key)
        {
            Some(pos) => {
                bucket.remove(pos);
                self.size -= 1;
                true
            }
            None => false,
        }
    }

    /// Whether `key` is in the map.
    pub fn contains(&self, key: &str) -> bool {
        let hash = scala_improved_hash(key);
        self.table[self.index(hash)]
            .iter()
            .any(|n| n.hash == hash && n.key == key)
    }

    /// The number of keys (`size`).
    pub fn len(&self) -> usize {
        self.size
    }

    /// Whether the map holds no key.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The current bucket count (`table.length`): 16, doubled at each growth, never shrunk.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// The bucket `key` lives in (or would live in) at the current table size.
    pub fn bucket_of(&self, key: &str) -> usize {
        self.index(scala_improved_hash(key))
    }

    /// The keys in Scala's iteration order, borrowed.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.table.iter().flatten().map(|n| n.key.as_str())
    }

    /// The keys in Scala's iteration order (`keys.toList`).
    pub fn keys(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }

    /// `keys.headOption`: the first key in iteration order.
    pub fn head_key(&self) -> Option<&str> {
        self.iter().next()
    }

    /// `find(p)`: the first key in iteration order that satisfies `pred` (as
    /// `GroupMetadata.maybeElectNewJoinedLeader` uses it).
    pub fn find_first<F: FnMut(&str) -> bool>(&self, mut pred: F) -> Option<&str> {
        self.iter().find(|k| pred(k))
    }

    fn index(&self, hash: i32) -> usize {
        (hash as u32 as usize) & (self.table.len() - 1)
    }

    /// `growTable(newlen)`: split every bucket by successive bits of the hash, keeping each
    /// node's relative order, until the table has `newlen` buckets.
    fn grow_table(&mut self, newlen: usize) {
        self.threshold = threshold_for(newlen);
        let mut oldlen = self.table.len();
        self.table.resize(newlen, Vec::new());
        while oldlen < newlen {
            for i in 0..oldlen {
                let (low, high): (Vec<Node>, Vec<Node>) = std::mem::take(&mut self.table[i])
                    .into_iter()
                    .partition(|n| (n.hash as u32 as usize) & oldlen == 0);
                self.table[i] = low;
                self.table[i + oldlen] = high;
            }
            oldlen *= 2;
        }
    }
}

/// `keys.headOption` of a fresh `mutable.HashMap` into which `keys_in_insertion_order` were put:
/// the key that iterates first.
pub fn head_key<S: AsRef<str>>(keys_in_insertion_order: &[S]) -> Option<String> {
    ScalaHashMapOrder::from_insertion_order(keys_in_insertion_order)
        .head_key()
        .map(str::to_string)
}

/// The group leader Kafka picks when the leader leaves: `members.keys.headOption` after
/// `members.remove(leader)` (`GroupMetadata.remove`), for a group whose member map held the
/// remaining members plus the departed leader and never more. Pass the remaining member ids in
/// the order they were added; `None` if none remain.
///
/// The bucket count depends on the largest size the map ever reached: when the group once had more
/// members than `remaining + 1`, use [`next_leader_with_peak`], or better, keep a
/// [`ScalaHashMapOrder`] per group and call `remove` then `head_key`, which is exact by construction.
pub fn next_leader<S: AsRef<str>>(remaining_member_ids_in_insertion_order: &[S]) -> Option<String> {
    let peak = remaining_member_ids_in_insertion_order.len() + 1;
    next_leader_with_peak(remaining_member_ids_in_insertion_order, peak)
}

/// As [`next_leader`], for a member map whose largest size ever was `peak_size` (at least the
/// number of remaining members; a smaller value is taken as that number).
pub fn next_leader_with_peak<S: AsRef<str>>(
    remaining_member_ids_in_insertion_order: &[S],
    peak_size: usize,
) -> Option<String> {
    let mut map = ScalaHashMapOrder::from_insertion_order(remaining_member_ids_in_insertion_order);
    let target = scala_table_len_for_peak(peak_size);
    if target > map.table_len() {
        // Growing later instead of earlier gives the same buckets: the split keeps relative order
        // and every bucket stays sorted by hash, then insertion.
        map.grow_table(target);
    }
    map.head_key().map(str::to_string)
}

/// The Scala library whose `mutable.HashMap` a Kafka build runs on: it decides the member map's
/// iteration order (see [`MemberOrder`]). Which one a profile uses is
/// [`Profile::scala_version`](super::config::Profile::scala_version).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScalaVersion {
    /// Scala 2.11: `mutable.HashMap` is the `HashTable` trait; same order as 2.12.
    V2_11,
    /// Scala 2.12: the `HashTable` trait, modelled by [`Scala212HashMapOrder`].
    V2_12,
    /// Scala 2.13: the rewritten `mutable.HashMap`, modelled by [`ScalaHashMapOrder`].
    V2_13,
}

impl ScalaVersion {
    /// `"2.11"`, `"2.12"` or `"2.13"`.
    pub fn name(self) -> &'static str {
        match self {
            ScalaVersion::V2_11 => "2.11",
            ScalaVersion::V2_12 => "2.12",
            ScalaVersion::V2_13 => "2.13",
        }
    }
}

/// Scala's `scala.util.hashing.byteswap32` (`src/library/scala/util/hashing/package.scala`, the
/// same in v2.11.12 and v2.12.10): `hc = v * 0x9e3775cd; hc = Integer.reverseBytes(hc);
/// hc * 0x9e3775cd`, in wrapping `Int` arithmetic.
pub fn byteswap32(v: i32) -> i32 {
    const M: i32 = 0x9e37_75cd_u32 as i32;
    v.wrapping_mul(M).swap_bytes().wrapping_mul(M)
}

/// The seed of every `mutable.HashMap` Kafka makes under Scala 2.11/2.12:
/// `tableSizeSeed = Integer.bitCount(table.length - 1)` taken when the 16-bucket table is made
/// (`bitCount(15) = 4`). `resize` does not change `seedvalue`.
pub const SCALA212_SEED: u32 = 4;

/// `HashTable.HashUtils.improve(hcode, seed) = Integer.rotateRight(byteswap32(hcode), seed)`
/// (Scala 2.11/2.12; 2.10 wrote the same rotation out as `(i >>> seed % 32) | (i << (32 - seed % 32))`).
pub fn scala212_improve(hcode: i32, seed: u32) -> i32 {
    byteswap32(hcode).rotate_right(seed)
}

/// The improved hash of a member id in a Kafka `mutable.HashMap` under Scala 2.11/2.12:
/// `improve(key.##, 4)`, where `##` of a `String` is its `hashCode`.
pub fn scala212_improved_hash(key: &str) -> i32 {
    scala212_improve(java_string_hash_code(key), SCALA212_SEED)
}

/// `HashTable.newThreshold(750, size) = size * 750 / 1000` (the default load factor 75%).
fn scala212_threshold(buckets: usize) -> usize {
    buckets * 750 / 1000
}

/// The key order of a Scala 2.11/2.12 `mutable.HashMap[String, _]` made with `new HashMap`,
/// under `put` and `remove`: the order in which `keys`, `keys.head`/`headOption` and `find`
/// visit the keys. A model of the `HashTable` trait (`src/library/scala/collection/mutable/
/// HashTable.scala` and `HashMap.scala`, v2.11.12 and v2.12.10):
///
/// - The table starts with `capacity(initialSize = 16)` = 16 buckets, `threshold = 16 * 750 /
///   1000 = 12`, and `seedvalue = bitCount(15) = 4`, never changed afterwards.
/// - `index(hcode)` is `improve(hcode, seedvalue) >>> numberOfLeadingZeros(table.length - 1)`:
///   the *top* log2(length) bits of the improved hash (2.12 also masks with `& (length - 1)`,
///   which changes nothing for a length of 2 or more; 2.11 returns 0 for a length of 1).
/// - `put` is `findOrAddEntry`: an existing key changes nothing; a new one goes through
///   `addEntry0`, which *prepends* it to its bucket, then doubles the table if `tableSize >
///   threshold` (so at the 13th key, then the 25th, 49th...).
/// - `resize` walks the old buckets from `oldTable.length - 1` down to 0, each bucket from its
///   head, prepending every entry to its new bucket: the new bucket `j` receives the entries of
///   old bucket `j / 2` only, in reverse order.
/// - `removeEntry` unlinks the entry; nothing shrinks the table.
/// - `entriesIterator` (behind `keysIterator`, `keySet` and `foreachEntry`) starts at
///   `lastPopulatedIndex` and walks the buckets down to 0, each from its head.
///
/// Net effect: keys iterate from the highest bucket down, and within a bucket the newest key
/// first, except that each doubling of the table reversed the order of the keys then present.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scala212HashMapOrder {
    /// `table`: each bucket's keys from its head.
    table: Vec<Vec<String>>,
    /// `threshold`.
    threshold: usize,
    /// `tableSize`.
    size: usize,
}

impl Default for Scala212HashMapOrder {
    fn default() -> Self {
        Self::new()
    }
}

impl Scala212HashMapOrder {
    /// An empty map as `new mutable.HashMap[String, V]` makes it: 16 buckets, threshold 12.
    pub fn new() -> Self {
        Scala212HashMapOrder {
            table: vec![Vec::new(); SCALA_HASHMAP_INITIAL_BUCKETS],
            threshold: scala212_threshold(SCALA_HASHMAP_INITIAL_BUCKETS),
            size: 0,
        }
    }

    /// A fresh map into which `keys` were `put` in this order (a repeated key changes nothing).
    pub fn from_insertion_order<S: AsRef<str>>(keys: &[S]) -> Self {
        let mut map = Self::new();
        for key in keys {
            map.insert(key.as_ref());
        }
        map
    }

    /// `put(key, _)`: a new key goes to the head of its bucket, then the table doubles if the
    /// size passed the threshold. Returns whether the key was new.
    pub fn insert(&mut self, key: &str) -> bool {
        let h = self.bucket_of(key);
        if self.table[h].iter().any(|k| k == key) {
            return false;
        }
        self.table[h].insert(0, key.to_string());
        self.size += 1;
        if self.size > self.threshold {
            self.resize(2 * self.table.len());
        }
        true
    }

    /// `remove(key)`: unlinks the key if present. Returns whether it was present.
    pub fn remove(&mut self, key: &str) -> bool {
        let h = self.bucket_of(key);
        match self.table[h].iter().position(|k| k == key) {
            Some(pos) => {
                self.table[h].remove(pos);
                self.size -= 1;
                true
            }
            None => false,
        }
    }

    /// Whether `key` is in the map.
    pub fn contains(&self, key: &str) -> bool {
        self.table[self.bucket_of(key)].iter().any(|k| k == key)
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.size
    }

    /// Whether the map holds no key.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The current bucket count: 16, doubled at each resize, never shrunk.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// `index(elemHashCode(key))`: the bucket `key` lives in (or would live in).
    pub fn bucket_of(&self, key: &str) -> usize {
        // numberOfLeadingZeros(table.length - 1) of an Int: 28 for 16 buckets, so the top 4 bits.
        let shift = ((self.table.len() - 1) as u32).leading_zeros();
        ((scala212_improved_hash(key) as u32) >> shift) as usize
    }

    /// The keys in Scala's iteration order, borrowed: buckets from the last down, each from
    /// its head.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.table.iter().rev().flatten().map(String::as_str)
    }

    /// The keys in Scala's iteration order (`keys.toList`).
    pub fn keys(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }

    /// `keys.headOption`: the first key in iteration order.
    pub fn head_key(&self) -> Option<&str> {
        self.iter().next()
    }

    /// `find(p)`: the first key in iteration order that satisfies `pred`.
    pub fn find_first<F: FnMut(&str) -> bool>(&self, mut pred: F) -> Option<&str> {
        self.iter().find(|k| pred(k))
    }

    /// `resize(newSize)`: old buckets from the top down, each from its head, every entry
    /// prepended to its new bucket.
    fn resize(&mut self, new_size: usize) {
        let old = std::mem::replace(&mut self.table, vec![Vec::new(); new_size]);
        for bucket in old.into_iter().rev() {
            for key in bucket {
                let h = self.bucket_of(&key);
                self.table[h].insert(0, key);
            }
        }
        self.threshold = scala212_threshold(new_size);
    }
}

/// A Kafka group's member map, in the iteration order of the Scala library its build runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberOrder {
    /// Scala 2.11 or 2.12: the `HashTable` trait.
    HashTable(ScalaVersion, Scala212HashMapOrder),
    /// Scala 2.13.
    Scala213(ScalaHashMapOrder),
}

impl MemberOrder {
    /// An empty `new mutable.HashMap` under `scala`.
    pub fn new(scala: ScalaVersion) -> Self {
        match scala {
            ScalaVersion::V2_11 | ScalaVersion::V2_12 => {
                MemberOrder::HashTable(scala, Scala212HashMapOrder::new())
            }
            ScalaVersion::V2_13 => MemberOrder::Scala213(ScalaHashMapOrder::new()),
        }
    }

    /// A fresh map into which `keys` were `put` in this order (as `GroupMetadata.loadGroup`
    /// adds the stored members).
    pub fn from_insertion_order<S: AsRef<str>>(scala: ScalaVersion, keys: &[S]) -> Self {
        let mut map = Self::new(scala);
        for k in keys {
            map.insert(k.as_ref());
        }
        map
    }

    /// The Scala version whose order this is.
    pub fn scala_version(&self) -> ScalaVersion {
        match self {
            MemberOrder::HashTable(v, _) => *v,
            MemberOrder::Scala213(_) => ScalaVersion::V2_13,
        }
    }

    /// `put(key, _)`; returns whether the key was new.
    pub fn insert(&mut self, key: &str) -> bool {
        match self {
            MemberOrder::HashTable(_, m) => m.insert(key),
            MemberOrder::Scala213(m) => m.insert(key),
        }
    }

    /// `remove(key)`; returns whether it was present.
    pub fn remove(&mut self, key: &str) -> bool {
        match self {
            MemberOrder::HashTable(_, m) => m.remove(key),
            MemberOrder::Scala213(m) => m.remove(key),
        }
    }

    /// The keys in iteration order.
    pub fn keys(&self) -> Vec<String> {
        match self {
            MemberOrder::HashTable(_, m) => m.keys(),
            MemberOrder::Scala213(m) => m.keys(),
        }
    }

    /// `keys.headOption`.
    pub fn head_key(&self) -> Option<&str> {
        match self {
            MemberOrder::HashTable(_, m) => m.head_key(),
            MemberOrder::Scala213(m) => m.head_key(),
        }
    }

    /// The bucket `key` lives in.
    pub fn bucket_of(&self, key: &str) -> usize {
        match self {
            MemberOrder::HashTable(_, m) => m.bucket_of(key),
            MemberOrder::Scala213(m) => m.bucket_of(key),
        }
    }

    /// The bucket count.
    pub fn table_len(&self) -> usize {
        match self {
            MemberOrder::HashTable(_, m) => m.table_len(),
            MemberOrder::Scala213(m) => m.table_len(),
        }
    }

    /// The hash the map buckets `key` by: `improve(hashCode, 4)` under 2.11/2.12,
    /// `h ^ (h >>> 16)` under 2.13.
    pub fn improved_hash(&self, key: &str) -> i32 {
        match self {
            MemberOrder::HashTable(..) => scala212_improved_hash(key),
            MemberOrder::Scala213(_) => scala_improved_hash(key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    /// The order by the rule the module doc states, computed independently of the bucket lists:
    /// sort by (bucket at `table_len`, signed improved hash, insertion position).
    fn oracle_order(keys_in_insertion_order: &[String], table_len: usize) -> Vec<String> {
        let mut v: Vec<(usize, i32, usize, String)> = keys_in_insertion_order
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let h = scala_improved_hash(k);
                ((h as u32 as usize) & (table_len - 1), h, i, k.clone())
            })
            .collect();
        v.sort();
        v.into_iter().map(|(_, _, _, k)| k).collect()
    }

    // ---- Java String.hashCode -------------------------------------------------------------

    #[test]
    fn hash_code_known_values() {
        assert_eq!(java_string_hash_code(""), 0);
        assert_eq!(java_string_hash_code("a"), 97);
        // 'a' * 31 + 'b' = 97 * 31 + 98 = 3105
        assert_eq!(java_string_hash_code("ab"), 3105);
        // The classic collision: 'A'*31+'a' = 65*31+97 = 2112 = 66*31+66 = 'B'*31+'B'.
        assert_eq!(java_string_hash_code("Aa"), 2112);
        assert_eq!(java_string_hash_code("BB"), 2112);
        // "my-group": m=109 y=121 '-'=45 g=103 r=114 o=111 u=117 p=112, 31-polynomial mod 2^32
        // = 2388469534 = 0x8E5D_271E, i.e. -1906497762 as an int (checked with jshell).
        assert_eq!(java_string_hash_code("my-group"), -1_906_497_762);
        // A string whose hashCode is Integer.MIN_VALUE (a well-known Java example).
        assert_eq!(java_string_hash_code("polygenelubricants"), i32::MIN);
    }

    #[test]
    fn hash_code_counts_utf16_units() {
        // U+00E9 is one UTF-16 unit (two UTF-8 bytes): hashCode = 0xE9 = 233.
        assert_eq!(java_string_hash_code("é"), 233);
        // U+1F600 is the surrogate pair D83D DE00: 0xD83D * 31 + 0xDE00 = 55357*31 + 56832
        // = 1716067 + 56832 = 1772899.
        assert_eq!(java_string_hash_code("\u{1F600}"), 1_772_899);
        // 'a', D83D, DE00, 'b': ((97*31 + 55357)*31 + 56832)*31 + 98 = 57849694.
        assert_eq!(java_string_hash_code("a\u{1F600}b"), 57_849_694);
    }

    // ---- coordinator partition ------------------------------------------------------------

    #[test]
    fn coordinator_partition_of_my_group_is_12() {
        // |-1906497762| = 1906497762 = 50 * 38129955 + 12.
        assert_eq!(coordinator_partition("my-group", 50), 12);
        assert_eq!(coordinator_partition("", 50), 0);
        assert_eq!(coordinator_partition("a", 50), 97 % 50);
        assert_eq!(coordinator_partition("a", 1), 0);
    }

    #[test]
    fn utils_abs_maps_min_value_to_zero() {
        assert_eq!(kafka_utils_abs(i32::MIN), 0);
        assert_eq!(kafka_utils_abs(-5), 5);
        assert_eq!(kafka_utils_abs(i32::MAX), i32::MAX);
        // Math.abs(MIN_VALUE) % 50 would be -48 in Java; Utils.abs gives partition 0.
        assert_eq!(coordinator_partition("polygenelubricants", 50), 0);
    }

    #[test]
    fn coordinator_partition_is_in_range() {
        let mut rng = Rng::new(11);
        for _ in 0..500 {
            let g = random_uuid(&mut rng);
            assert!(coordinator_partition(&g, 50) < 50);
            assert!(coordinator_partition(&g, 7) < 7);
        }
    }

    // ---- UUIDs and member ids -------------------------------------------------------------

    fn assert_java_uuid_format(u: &str) {
        assert_eq!(u.len(), 36, "{u}");
        for (i, c) in u.chars().enumerate() {
            if [8, 13, 18, 23].contains(&i) {
                assert_eq!(c, '-', "{u}");
            } else {
                assert!(c.is_ascii_digit() || ('a'..='f').contains(&c), "{u}");
            }
        }
        // Version 4 in the first nibble of the third group, variant 10xx in the fourth.
        assert_eq!(&u[14..15], "4", "{u}");
        assert!("89ab".contains(&u[19..20]), "{u}");
    }

    #[test]
    fn uuid_string_matches_java() {
        // jshell: new UUID(0x0123456789abcdefL, 0xfedcba9876543210L).toString()
        assert_eq!(
            java_uuid_string(0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210),
            "01234567-89ab-cdef-fedc-ba9876543210"
        );
        assert_eq!(
            java_uuid_string(0, 0),
            "00000000-0000-0000-0000-000000000000"
        );
    }

    #[test]
    fn uuid_has_java_format_version_and_variant() {
        let mut rng = Rng::new(1);
        for _ in 0..200 {
            assert_java_uuid_format(&random_uuid(&mut rng));
        }
    }

    #[test]
    fn uuid_is_deterministic_per_seed() {
        let a: Vec<String> = {
            let mut r = Rng::new(42);
            (0..5).map(|_| random_uuid(&mut r)).collect()
        };
        let b: Vec<String> = {
            let mut r = Rng::new(42);
            (0..5).map(|_| random_uuid(&mut r)).collect()
        };
        let c: Vec<String> = {
            let mut r = Rng::new(43);
            (0..5).map(|_| random_uuid(&mut r)).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
        // Successive UUIDs from one generator differ.
        assert_ne!(a[0], a[1]);
    }

    #[test]
    fn member_id_is_client_id_dash_uuid() {
        let mut r1 = Rng::new(5);
        let mut r2 = Rng::new(5);
        let id = member_id("consumer-1", &mut r1);
        let uuid = random_uuid(&mut r2);
        assert_eq!(id, format!("consumer-1-{uuid}"));
        assert_java_uuid_format(&id["consumer-1-".len()..]);
        // A static member's id starts with its group.instance.id instead.
        let mut r3 = Rng::new(5);
        let s = member_id_for("consumer-1", Some("instance-a"), &mut r3);
        assert_eq!(s, format!("instance-a-{uuid}"));
    }

    // ---- Scala 2.13 mutable.HashMap order -------------------------------------------------

    #[test]
    fn improved_hash_folds_high_bits() {
        // Small hashes (< 65536) are unchanged: h >>> 16 == 0.
        assert_eq!(scala_improved_hash("a"), 97);
        // "c-1": (99*31 + 45)*31 + 49 = 96583 = 0x1_7947; 0x1_7947 ^ 0x1 = 0x1_7946 = 96582.
        assert_eq!(java_string_hash_code("c-1"), 96_583);
        assert_eq!(scala_improved_hash("c-1"), 96_582);
        // "my-group": 0x8E5D_271E ^ 0x8E5D = 0x8E5D_A943 = -1906464445 as an int.
        assert_eq!(scala_improved_hash("my-group"), -1_906_464_445);
    }

    #[test]
    fn small_map_iterates_by_bucket_not_insertion() {
        // "c-1" -> 0x1_7946 -> bucket 6; "c-2": 96584 = 0x1_7948 ^ 1 = 0x1_7949 -> bucket 9;
        // "c-3": 96585 = 0x1_7949 ^ 1 = 0x1_7948 -> bucket 8.
        let map = ScalaHashMapOrder::from_insertion_order(&["c-1", "c-2", "c-3"]);
        assert_eq!(map.bucket_of("c-1"), 6);
        assert_eq!(map.bucket_of("c-2"), 9);
        assert_eq!(map.bucket_of("c-3"), 8);
        assert_eq!(map.keys(), strings(&["c-1", "c-3", "c-2"]));
        assert_eq!(map.head_key(), Some("c-1"));
        assert_eq!(map.table_len(), 16);
    }

    #[test]
    fn next_leader_differs_from_join_order() {
        // Leader "c-1" leaves; join order would pick "c-2", the hash map yields "c-3" (bucket 8 < 9).
        assert_eq!(next_leader(&["c-2", "c-3"]), Some("c-3".to_string()));
        let mut map = ScalaHashMapOrder::from_insertion_order(&["c-1", "c-2", "c-3"]);
        assert!(map.remove("c-1"));
        assert_eq!(map.head_key(), Some("c-3"));
        assert!(!map.remove("c-1"));
        assert_eq!(next_leader::<&str>(&[]), None);
        assert_eq!(next_leader(&["only"]), Some("only".to_string()));
    }

    #[test]
    fn within_a_bucket_keys_sort_by_signed_hash() {
        // "#" = 35 = 0x23 -> bucket 3; "my-group" -> 0x8E5D_A943 -> bucket 3 too. The negative
        // hash (-1906464445) sorts first although it was inserted last; an unsigned comparison
        // would put it last.
        let map = ScalaHashMapOrder::from_insertion_order(&["#", "my-group"]);
        assert_eq!(map.bucket_of("#"), 3);
        assert_eq!(map.bucket_of("my-group"), 3);
        assert_eq!(map.keys(), strings(&["my-group", "#"]));
        // Within one bucket, the lower hash first: 'Q' = 81 and 'a' = 97 are both in bucket 1.
        let map = ScalaHashMapOrder::from_insertion_order(&["a", "Q"]);
        assert_eq!(map.keys(), strings(&["Q", "a"]));
    }

    #[test]
    fn equal_hashes_keep_insertion_order() {
        // "Aa" and "BB" both hash to 2112 (bucket 0): the later one goes after the earlier one.
        let mut map = ScalaHashMapOrder::from_insertion_order(&["BB", "Aa"]);
        assert_eq!(map.keys(), strings(&["BB", "Aa"]));
        // Re-putting an existing key changes nothing.
        assert!(!map.insert("BB"));
        assert_eq!(map.keys(), strings(&["BB", "Aa"]));
        // Removed and added again, it goes behind its equal-hash neighbour.
        assert!(map.remove("BB"));
        assert!(map.insert("BB"));
        assert_eq!(map.keys(), strings(&["Aa", "BB"]));
        assert!(map.contains("Aa") && map.contains("BB") && !map.contains("Ab"));
    }

    #[test]
    fn table_grows_at_the_twelfth_key_and_reorders() {
        // 'Q' = 81 = 0b101_0001: bucket 1 of 16, bucket 17 of 32. 'a' = 97 = 0b110_0001: bucket 1
        // of both. 'b'..'j' (98..106) are in buckets 2..10 of both tables.
        let mut keys = strings(&["Q", "a"]);
        keys.extend(('b'..='j').map(|c| c.to_string()));
        assert_eq!(keys.len(), 11);
        let mut map = ScalaHashMapOrder::from_insertion_order(&keys);
        // 11 keys: size + 1 reached the threshold 12 only at the 12th put, so still 16 buckets.
        assert_eq!(map.table_len(), 16);
        let mut expected = strings(&["Q", "a"]);
        expected.extend(('b'..='j').map(|c| c.to_string()));
        assert_eq!(map.keys(), expected);
        // The 12th put: 11 + 1 >= 12, so the table doubles to 32 (threshold 24) first.
        map.insert("k");
        assert_eq!(map.table_len(), 32);
        let mut expected: Vec<String> = ('a'..='k').map(|c| c.to_string()).collect();
        expected.push("Q".to_string());
        assert_eq!(map.keys(), expected);
        // Removing keys never shrinks the table.
        for k in ('b'..='k').map(|c| c.to_string()) {
            map.remove(&k);
        }
        assert_eq!(map.len(), 2);
        assert_eq!(map.table_len(), 32);
        assert_eq!(map.keys(), strings(&["a", "Q"]));
        // ...whereas a fresh map of the same two keys has 16 buckets and the other order.
        assert_eq!(head_key(&["Q", "a"]), Some("Q".to_string()));
    }

    #[test]
    fn growth_points() {
        assert_eq!(scala_table_len_for_peak(0), 16);
        assert_eq!(scala_table_len_for_peak(11), 16);
        assert_eq!(scala_table_len_for_peak(12), 32);
        assert_eq!(scala_table_len_for_peak(23), 32);
        assert_eq!(scala_table_len_for_peak(24), 64);
        assert_eq!(scala_table_len_for_peak(47), 64);
        assert_eq!(scala_table_len_for_peak(48), 128);
        for n in 0..100usize {
            let keys: Vec<String> = (0..n).map(|i| format!("member-{i}")).collect();
            let map = ScalaHashMapOrder::from_insertion_order(&keys);
            assert_eq!(map.table_len(), scala_table_len_for_peak(n), "n = {n}");
            assert_eq!(map.len(), n);
        }
        // Scala grows on put even when the key is already present.
        let keys: Vec<String> = (0..11).map(|i| format!("member-{i}")).collect();
        let mut map = ScalaHashMapOrder::from_insertion_order(&keys);
        assert_eq!(map.table_len(), 16);
        assert!(!map.insert("member-0"));
        assert_eq!(map.table_len(), 32);
    }

    #[test]
    fn next_leader_depends_on_the_peak_size() {
        // 12 members: "@" (64, bucket 0) leads; then 'Q', 'a', 'b'..'j'. Twelve puts grew the
        // table to 32, where 'a' (bucket 1) precedes 'Q' (bucket 17). Join order would say 'Q'.
        let mut all = strings(&["@", "Q", "a"]);
        all.extend(('b'..='j').map(|c| c.to_string()));
        assert_eq!(all.len(), 12);
        let mut map = ScalaHashMapOrder::from_insertion_order(&all);
        assert_eq!(map.head_key(), Some("@"));
        map.remove("@");
        assert_eq!(map.head_key(), Some("a"));
        let remaining = &all[1..];
        assert_eq!(next_leader(remaining), Some("a".to_string()));
        // A map that never held more than these 11 (e.g. reloaded after a coordinator failover)
        // has 16 buckets, where 'Q' (81 < 97 in bucket 1) comes first.
        assert_eq!(
            next_leader_with_peak(remaining, remaining.len()),
            Some("Q".to_string())
        );
        assert_eq!(head_key(remaining), Some("Q".to_string()));
    }

    #[test]
    fn model_matches_the_sorted_rule_under_random_puts_and_removes() {
        // Random histories of joins and leaves: the bucket-list model must agree with the rule
        // "(bucket at the table size of the peak, signed hash, insertion order)".
        for seed in 0..40u64 {
            let mut rng = Rng::new(seed);
            let mut map = ScalaHashMapOrder::new();
            let mut present: Vec<String> = Vec::new(); // in insertion order
            let mut peak = 0usize;
            for _ in 0..120 {
                let join = present.is_empty() || rng.up_to(2) > 0;
                if join {
                    let id = member_id("consumer", &mut rng);
                    assert!(map.insert(&id));
                    present.push(id);
                    peak = peak.max(present.len());
                } else {
                    let i = rng.up_to(present.len() as u64 - 1) as usize;
                    let id = present.remove(i);
                    assert!(map.remove(&id));
                }
                assert_eq!(map.len(), present.len());
                assert_eq!(map.table_len(), scala_table_len_for_peak(peak));
                assert_eq!(map.keys(), oracle_order(&present, map.table_len()));
                assert_eq!(
                    next_leader_with_peak(&present, peak).as_deref(),
                    map.head_key()
                );
            }
        }
    }

    #[test]
    fn order_differs_from_insertion_order_for_random_member_ids() {
        let mut rng = Rng::new(2024);
        let ids: Vec<String> = (0..5)
            .map(|i| member_id(&format!("consumer-{i}"), &mut rng))
            .collect();
        let map = ScalaHashMapOrder::from_insertion_order(&ids);
        assert_ne!(map.keys(), ids);
        let mut sorted_map = map.keys();
        sorted_map.sort();
        let mut sorted_ids = ids.clone();
        sorted_ids.sort();
        assert_eq!(sorted_map, sorted_ids);
        // Across seeds, the leader after the first member leaves is not always the second joiner.
        let mut differs = 0;
        for seed in 0..50 {
            let mut rng = Rng::new(seed);
            let ids: Vec<String> = (0..4)
                .map(|i| member_id(&format!("consumer-{i}"), &mut rng))
                .collect();
            if next_leader(&ids[1..]).as_deref() != Some(ids[1].as_str()) {
                differs += 1;
            }
        }
        assert!(differs > 0);
    }

    #[test]
    fn find_first_follows_iteration_order() {
        let map = ScalaHashMapOrder::from_insertion_order(&["c-1", "c-2", "c-3"]);
        assert_eq!(map.find_first(|k| k != "c-1"), Some("c-3"));
        assert_eq!(map.find_first(|_| false), None);
        assert!(ScalaHashMapOrder::default().is_empty());
    }

    // ---- Scala 2.11/2.12 mutable.HashMap (HashTable) order --------------------------------

    /// A line-by-line port of Scala's `HashTable` trait as `mutable.HashMap[String, _]` uses it
    /// (v2.12.10 `src/library/scala/collection/mutable/HashTable.scala`, with v2.11.12's
    /// `index` checked beside it): entries in an arena, linked by `next` indices; `table` holds
    /// each bucket's first entry. Only what a `HashMap` made with `new` and used with `put` and
    /// `remove` reaches is ported (no size map, no serialization).
    struct PortEntry {
        key: String,
        next: Option<usize>,
    }

    struct HashTablePort {
        entries: Vec<PortEntry>,
        table: Vec<Option<usize>>,
        table_size: i32,
        threshold: i32,
        seedvalue: i32,
        load_factor: i32,
    }

    impl HashTablePort {
        // HashTable.newThreshold(_loadFactor, size) = ((size.toLong * _loadFactor) / loadFactorDenum).toInt
        fn new_threshold(load_factor: i32, size: i32) -> i32 {
            ((i64::from(size) * i64::from(load_factor)) / 1000) as i32
        }

        // 2.12: nextPositivePowerOfTwo(target) = 1 << -numberOfLeadingZeros(target - 1);
        // 2.11: powerOfTwo(target) by or-ing the shifted bits. Both give 16 for 16.
        fn capacity(expected_size: i32) -> usize {
            let v212 =
                1i32.wrapping_shl((-(((expected_size - 1) as u32).leading_zeros() as i32)) as u32);
            let mut c = expected_size - 1;
            c |= ((c as u32) >> 1) as i32;
            c |= ((c as u32) >> 2) as i32;
            c |= ((c as u32) >> 4) as i32;
            c |= ((c as u32) >> 8) as i32;
            c |= ((c as u32) >> 16) as i32;
            assert_eq!(v212, c + 1);
            v212 as usize
        }

        fn new() -> Self {
            // @transient protected var table = new Array(initialCapacity)   (capacity(initialSize = 16))
            let table = vec![None; Self::capacity(16)];
            // protected var seedvalue: Int = tableSizeSeed = Integer.bitCount(table.length - 1)
            let seedvalue = ((table.len() - 1) as u32).count_ones() as i32;
            HashTablePort {
                entries: Vec::new(),
                table,
                table_size: 0,
                // threshold = initialThreshold(_loadFactor) = newThreshold(_loadFactor, initialCapacity)
                threshold: Self::new_threshold(750, 16),
                seedvalue,
                load_factor: 750,
            }
        }

        // elemHashCode(key) = key.##  (String: hashCode)
        fn elem_hash_code(key: &str) -> i32 {
            java_string_hash_code(key)
        }

        // improve(hcode, seed) = rotateRight(byteswap32(hcode), seed)
        fn improve(hcode: i32, seed: i32) -> i32 {
            // Integer.rotateRight(i, distance) = (i >>> distance) | (i << -distance)
            let i = byteswap32(hcode) as u32;
            (i.wrapping_shr(seed as u32) | i.wrapping_shl((-seed) as u32)) as i32
        }

        fn index(&self, hcode: i32) -> usize {
            let len = self.table.len() as i32;
            // 2.12.10: val ones = table.length - 1
            //          val exponent = Integer.numberOfLeadingZeros(ones)
            //          (improve(hcode, seedvalue) >>> exponent) & ones
            let ones = len - 1;
            let exponent = (ones as u32).leading_zeros();
            let v212 = ((Self::improve(hcode, self.seedvalue) as u32).wrapping_shr(exponent)
                as i32)
                & ones;
            // 2.11.12: if (table.length == 1) 0
            //          else improve(hcode, seedvalue) >>> numberOfLeadingZeros(table.length - 1)
            let v211 = if len == 1 {
                0
            } else {
                (Self::improve(hcode, self.seedvalue) as u32)
                    .wrapping_shr(((len - 1) as u32).leading_zeros()) as i32
            };
            assert_eq!(v212, v211, "2.11 and 2.12 index agree (table {len})");
            v212 as usize
        }

        // private[this] def findEntry0(key: A, h: Int): Entry
        fn find_entry0(&self, key: &str, h: usize) -> Option<usize> {
            let mut e = self.table[h];
            while let Some(x) = e {
                if self.entries[x].key == key {
                    break;
                }
                e = self.entries[x].next;
            }
            e
        }

        // private[this] def addEntry0(e: Entry, h: Int)
        fn add_entry0(&mut self, e: usize, h: usize) {
            self.entries[e].next = self.table[h];
            self.table[h] = Some(e);
            self.table_size += 1;
            if self.table_size > self.threshold {
                self.resize(2 * self.table.len());
            }
        }

        // protected def findOrAddEntry[B](key: A, value: B): Entry  (HashMap.put)
        fn find_or_add_entry(&mut self, key: &str) -> Option<usize> {
            let h = self.index(Self::elem_hash_code(key));
            let e = self.find_entry0(key, h);
            if e.is_some() {
                e
            } else {
                self.entries.push(PortEntry {
                    key: key.to_string(),
                    next: None,
                });
                self.add_entry0(self.entries.len() - 1, h);
                None
            }
        }

        // protected def removeEntry(key: A): Entry  (HashMap.remove)
        fn remove_entry(&mut self, key: &str) -> Option<usize> {
            let h = self.index(Self::elem_hash_code(key));
            // var e = table(h); if (e != null) {
            if let Some(mut e) = self.table[h] {
                if self.entries[e].key == key {
                    self.table[h] = self.entries[e].next;
                    self.table_size -= 1;
                    self.entries[e].next = None;
                    return Some(e);
                } else {
                    let mut e1 = self.entries[e].next;
                    // while (e1 != null && !elemEquals(e1.key, key)) { e = e1; e1 = e1.next }
                    while let Some(x1) = e1.filter(|&x| self.entries[x].key != key) {
                        e = x1;
                        e1 = self.entries[x1].next;
                    }
                    if let Some(x1) = e1 {
                        self.entries[e].next = self.entries[x1].next;
                        self.table_size -= 1;
                        self.entries[x1].next = None;
                        return Some(x1);
                    }
                }
            }
            None
        }

        // private def resize(newSize: Int)
        fn resize(&mut self, new_size: usize) {
            let old_table = std::mem::replace(&mut self.table, vec![None; new_size]);
            let mut i = old_table.len() as i32 - 1;
            while i >= 0 {
                let mut e = old_table[i as usize];
                while let Some(x) = e {
                    let h = self.index(Self::elem_hash_code(&self.entries[x].key));
                    let e1 = self.entries[x].next;
                    self.entries[x].next = self.table[h];
                    self.table[h] = Some(x);
                    e = e1;
                }
                i -= 1;
            }
            self.threshold = Self::new_threshold(self.load_factor, new_size as i32);
        }

        // private def lastPopulatedIndex
        fn last_populated_index(&self) -> usize {
            let mut idx = self.table.len() - 1;
            while self.table[idx].is_none() && idx > 0 {
                idx -= 1;
            }
            idx
        }

        // protected def entriesIterator: Iterator[Entry]  (keysIterator maps it to the keys)
        fn keys(&self) -> Vec<String> {
            let mut out = Vec::new();
            let mut idx = self.last_populated_index();
            let mut es = self.table[idx];
            // def hasNext = es != null
            while let Some(res) = es {
                // def next() = { val res = es; es = es.next; while (es == null && idx > 0) {...}; res }
                es = self.entries[res].next;
                while es.is_none() && idx > 0 {
                    idx -= 1;
                    es = self.table[idx];
                }
                out.push(self.entries[res].key.clone());
            }
            out
        }
    }

    #[test]
    fn byteswap32_known_values() {
        // 0 * anything = 0, reversed 0, times M 0.
        assert_eq!(byteswap32(0), 0);
        // 0x0100_0000 * 0x9E37_75CD mod 2^32 keeps only M's low byte, shifted: 0xCD00_0000;
        // reverseBytes: 0x0000_00CD = 205; 205 * 0x9E37_75CD = 205 * 2654434765 = 544159126825
        // = 126 * 2^32 + 2993247529, and 2993247529 = 0xB269_5529.
        assert_eq!(byteswap32(0x0100_0000), 0xB269_5529_u32 as i32);
        // 1 * M = 0x9E37_75CD; reverseBytes: 0xCD75_379E; 0xCD75_379E * 0x9E37_75CD mod 2^32
        // = 0x903A_BF86.
        assert_eq!(byteswap32(1), 0x903A_BF86_u32 as i32);
        // improve(1, 4): 0x903A_BF86 rotated right by 4 = 0x6903_ABF8 (the low nibble 6 moves
        // to the top).
        assert_eq!(scala212_improve(1, 4), 0x6903_ABF8);
        assert_eq!(SCALA212_SEED, (16u32 - 1).count_ones());
    }

    #[test]
    fn scala212_buckets_are_the_top_bits_of_the_improved_hash() {
        // "c-1".hashCode = 96583 = 0x1_7947. 96583 * M mod 2^32 = 0x8DDC_90DB; reversed:
        // 0xDB90_DC8D; times M: 0x7018_0DE9; rotated right by 4: 0x9701_80DE. 16 buckets:
        // numberOfLeadingZeros(15) = 28, so the bucket is 0x9701_80DE >>> 28 = 9.
        assert_eq!(java_string_hash_code("c-1"), 96_583);
        assert_eq!(byteswap32(96_583), 0x7018_0DE9);
        assert_eq!(scala212_improved_hash("c-1"), 0x9701_80DE_u32 as i32);
        // "c-2" (96584): 0xD18A_433C -> 0xCD18_A433 -> bucket 12 (0xC).
        assert_eq!(scala212_improved_hash("c-2"), 0xCD18_A433_u32 as i32);
        // "c-3" (96585): 0xD792_02C2 -> 0x2D79_202C -> bucket 2.
        assert_eq!(scala212_improved_hash("c-3"), 0x2D79_202C);
        let map = Scala212HashMapOrder::from_insertion_order(&["c-1", "c-2", "c-3"]);
        assert_eq!(map.bucket_of("c-1"), 9);
        assert_eq!(map.bucket_of("c-2"), 12);
        assert_eq!(map.bucket_of("c-3"), 2);
        // From the last bucket down: 12, 9, 2.
        assert_eq!(map.keys(), strings(&["c-2", "c-1", "c-3"]));
        assert_eq!(map.table_len(), 16);
        // Scala 2.13 orders the same keys from bucket 0 up: c-1 (6), c-3 (8), c-2 (9).
        assert_eq!(
            ScalaHashMapOrder::from_insertion_order(&["c-1", "c-2", "c-3"]).keys(),
            strings(&["c-1", "c-3", "c-2"])
        );
    }

    #[test]
    fn scala212_and_213_pick_different_next_leaders() {
        // Leader c-1 leaves a group of c-1, c-2, c-3: 2.12 yields c-2 (bucket 12 before 2),
        // 2.13 yields c-3 (bucket 8 before 9).
        let mut m212 =
            MemberOrder::from_insertion_order(ScalaVersion::V2_12, &["c-1", "c-2", "c-3"]);
        let mut m213 =
            MemberOrder::from_insertion_order(ScalaVersion::V2_13, &["c-1", "c-2", "c-3"]);
        assert!(m212.remove("c-1") && m213.remove("c-1"));
        assert_eq!(m212.head_key(), Some("c-2"));
        assert_eq!(m213.head_key(), Some("c-3"));
        assert_eq!(m212.scala_version(), ScalaVersion::V2_12);
        assert_eq!(m213.scala_version(), ScalaVersion::V2_13);
        // 2.11 is the same HashTable.
        let m211 = MemberOrder::from_insertion_order(ScalaVersion::V2_11, &["c-2", "c-3"]);
        assert_eq!(m211.keys(), m212.keys());
        assert_eq!(m211.scala_version().name(), "2.11");
        assert_eq!(m212.improved_hash("c-2"), scala212_improved_hash("c-2"));
        assert_eq!(m213.improved_hash("c-2"), scala_improved_hash("c-2"));
    }

    #[test]
    fn scala212_newest_first_within_a_bucket() {
        // "c-6" (96588) -> 0x46F6_6745 and "c-12" (2994123) -> 0x430F_1B60: both bucket 4.
        let map = Scala212HashMapOrder::from_insertion_order(&["c-6", "c-12"]);
        assert_eq!((map.bucket_of("c-6"), map.bucket_of("c-12")), (4, 4));
        assert_eq!(map.keys(), strings(&["c-12", "c-6"]));
        let mut map = Scala212HashMapOrder::from_insertion_order(&["c-12", "c-6"]);
        assert_eq!(map.keys(), strings(&["c-6", "c-12"]));
        // Re-putting a present key changes nothing; removed and put again, it goes first.
        assert!(!map.insert("c-12"));
        assert_eq!(map.keys(), strings(&["c-6", "c-12"]));
        assert!(map.remove("c-12") && !map.remove("c-12"));
        assert!(map.insert("c-12"));
        assert_eq!(map.keys(), strings(&["c-12", "c-6"]));
        assert!(map.contains("c-6") && !map.contains("c-7"));
        assert_eq!(map.find_first(|k| k != "c-12"), Some("c-6"));
    }

    #[test]
    fn scala212_grows_after_the_thirteenth_key_and_reverses_buckets() {
        // c-1..c-12 in 16 buckets (top 4 bits): 14: c-11, c-5 (newest first); 13: c-8; 12: c-2;
        // 9: c-1; 8: c-10, c-4; 7: c-7; 4: c-12, c-6; 3: c-9; 2: c-3.
        let keys: Vec<String> = (1..=12).map(|i| format!("c-{i}")).collect();
        let mut map = Scala212HashMapOrder::from_insertion_order(&keys);
        assert_eq!(
            map.table_len(),
            16,
            "12 keys: tableSize 12 is not > threshold 12"
        );
        assert_eq!(
            map.keys(),
            strings(&[
                "c-11", "c-5", "c-8", "c-2", "c-1", "c-10", "c-4", "c-7", "c-12", "c-6", "c-9",
                "c-3"
            ])
        );
        // c-13 makes tableSize 13 > 12: resize to 32 (threshold 24). The top 5 bits:
        // c-5 29, c-11 28, c-8 27, c-2 25, c-13 21, c-1 18, c-4 17, c-10 16, c-7 15,
        // c-6 and c-12 8, c-9 6, c-3 5. Old bucket 4 (c-12, c-6) was walked from its head and
        // each entry prepended: new bucket 8 holds c-6, c-12, reversed.
        assert!(map.insert("c-13"));
        assert_eq!(map.table_len(), 32);
        assert_eq!(
            map.keys(),
            strings(&[
                "c-5", "c-11", "c-8", "c-2", "c-13", "c-1", "c-4", "c-10", "c-7", "c-6", "c-12",
                "c-9", "c-3"
            ])
        );
        // Removing never shrinks: a map that once grew keeps its 32 buckets.
        for k in &keys {
            map.remove(k);
        }
        assert_eq!((map.len(), map.table_len()), (1, 32));
        // The next doublings: after the 25th key (threshold 24) and the 49th (threshold 48).
        let many: Vec<String> = (0..49).map(|i| format!("m-{i}")).collect();
        assert_eq!(
            Scala212HashMapOrder::from_insertion_order(&many[..24]).table_len(),
            32
        );
        assert_eq!(
            Scala212HashMapOrder::from_insertion_order(&many[..25]).table_len(),
            64
        );
        assert_eq!(
            Scala212HashMapOrder::from_insertion_order(&many[..48]).table_len(),
            64
        );
        assert_eq!(
            Scala212HashMapOrder::from_insertion_order(&many).table_len(),
            128
        );
        // Scala 2.13 grows earlier (at the 12th put): the two differ for 12 keys.
        assert_eq!(
            ScalaHashMapOrder::from_insertion_order(&keys).table_len(),
            32
        );
    }

    #[test]
    fn scala212_model_matches_a_port_of_hashtable_under_random_puts_and_removes() {
        // 300 random histories of member-id keys: joins (put of a new id), leaves (remove),
        // repeated puts of present ids and removes of absent ones. Some histories grow past 48
        // keys, so tables of 16 to 128 (or more) buckets and several resizes are covered.
        let mut max_len = 0;
        for seed in 0..300u64 {
            let mut rng = Rng::new(seed);
            let mut model = Scala212HashMapOrder::new();
            let mut port = HashTablePort::new();
            let mut present: Vec<String> = Vec::new();
            let join_weight = 1 + seed % 3; // joins : leaves = 1:1, 2:1 or 3:1
            for step in 0..200 {
                let r = rng.up_to(join_weight + 2);
                if present.is_empty() || r < join_weight {
                    let id = member_id(&format!("consumer-{}", step % 7), &mut rng);
                    assert!(model.insert(&id));
                    assert!(port.find_or_add_entry(&id).is_none());
                    present.push(id);
                } else if r == join_weight {
                    let i = rng.up_to(present.len() as u64 - 1) as usize;
                    let id = present.remove(i);
                    assert!(model.remove(&id));
                    assert!(port.remove_entry(&id).is_some());
                    // Removing it again finds nothing in either.
                    assert!(!model.remove(&id));
                    assert!(port.remove_entry(&id).is_none());
                } else {
                    let i = rng.up_to(present.len() as u64 - 1) as usize;
                    let id = present[i].clone();
                    assert!(!model.insert(&id));
                    assert!(port.find_or_add_entry(&id).is_some());
                }
                assert_eq!(model.len(), present.len());
                assert_eq!(port.table_size as usize, present.len());
                assert_eq!(
                    model.table_len(),
                    port.table.len(),
                    "seed {seed} step {step}"
                );
                let keys = port.keys();
                assert_eq!(model.keys(), keys, "seed {seed} step {step}");
                assert_eq!(model.head_key(), keys.first().map(String::as_str));
                for k in &present {
                    let h = port.index(HashTablePort::elem_hash_code(k));
                    assert_eq!(model.bucket_of(k), h);
                    assert_eq!(port.find_entry0(k, h).is_some(), model.contains(k));
                }
                max_len = max_len.max(model.table_len());
            }
        }
        assert!(
            max_len >= 128,
            "the histories reach several resizes: {max_len}"
        );
    }

    #[test]
    fn scala211_212_and_210_index_formulas_agree() {
        // 2.12 masks with `& ones`; 2.11 does not; 2.10 uses an arithmetic shift by
        // 32 - bitCount(ones), then `& ones`. For every power-of-two table from 2 buckets up,
        // the three take the same top bits.
        let mut rng = Rng::new(7);
        for _ in 0..2_000 {
            let improved = rng.next_u64() as u32 as i32;
            for log in 1..=30u32 {
                let len = 1i32 << log;
                let ones = len - 1;
                let v212 = ((improved as u32) >> (ones as u32).leading_zeros()) as i32 & ones;
                let v211 = ((improved as u32) >> ((len - 1) as u32).leading_zeros()) as i32;
                let v210 = (improved >> (32 - (ones as u32).count_ones())) & ones;
                assert_eq!(v212, v211);
                assert_eq!(v212, v210);
            }
        }
    }
}
