//! Scala 2.13's `mutable.HashMap` key order (see the rules in [the module above](super)).

use super::java::java_string_hash_code;

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
