//! The orders and hashes the group coordinator depends on: which `__consumer_offsets` partition
//! coordinates a group, what a member id looks like, and in which order Kafka's member map
//! yields its keys (which decides the next group leader).
//!
//! Everything here is pure: randomness comes only from the [`Rng`](crate::sim::rng::Rng) passed in.
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

mod java;
mod scala212;
mod scala213;

pub use java::{
    coordinator_partition, java_string_hash_code, kafka_utils_abs, member_id, member_id_for,
    random_uuid,
};
pub use scala212::*;
pub use scala213::*;

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
mod tests;
