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
//!   picks `leaderId = members.keys.headOption` (`GroupMetadata.remove`); `maybeElectNewJoinedLeader`
//!   picks `members.find(...)`, the first key in the same order. Kafka builds with Scala 2.13 by
//!   default since 2.6 (`gradle.properties`: `scalaVersion=2.12.10` at 2.5, `2.13.2` at 2.6,
//!   `2.13.14` at 3.9). Scala's `src/library/scala/collection/mutable/HashMap.scala` (scala/scala;
//!   the rules below read the same at tags v2.13.0 and v2.13.14 and on branch 2.13.x) is modelled
//!   by [`ScalaHashMapOrder`]:
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
//!   hashes), where the bucket count is 16 doubled once per growth. Scala 2.12 (Kafka's default
//!   up to 2.5, and its optional `_2.12` build after) uses a different `HashTable` and a different
//!   order; it is not modelled here.
//!
//! A coordinator failover loads the group into a *new* `GroupMetadata` (`GroupMetadata.loadGroup`
//! adds the stored members one by one), so the reloaded map's bucket count follows the members
//! present at load time, not the old map's history: build a fresh [`ScalaHashMapOrder`] then.

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
        // KAFKA-RULES §6: |-1906497762| = 1906497762 = 50 * 38129955 + 12.
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
}
