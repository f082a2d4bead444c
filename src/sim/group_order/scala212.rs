//! Scala 2.11 and 2.12's `mutable.HashMap` (the `HashTable` trait) key order (see the rules in
//! [the module above](super)).

use super::java::java_string_hash_code;
use super::scala213::SCALA_HASHMAP_INITIAL_BUCKETS;

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
