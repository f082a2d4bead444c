//! Unit tests of the group orders: Java hashes and ids, and both Scala member-map orders.

use super::java::java_uuid_string;
use super::*;
use crate::sim::rng::Rng;

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
        let v212 =
            ((Self::improve(hcode, self.seedvalue) as u32).wrapping_shr(exponent) as i32) & ones;
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
    let mut m212 = MemberOrder::from_insertion_order(ScalaVersion::V2_12, &["c-1", "c-2", "c-3"]);
    let mut m213 = MemberOrder::from_insertion_order(ScalaVersion::V2_13, &["c-1", "c-2", "c-3"]);
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
            "c-11", "c-5", "c-8", "c-2", "c-1", "c-10", "c-4", "c-7", "c-12", "c-6", "c-9", "c-3"
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
            "c-5", "c-11", "c-8", "c-2", "c-13", "c-1", "c-4", "c-10", "c-7", "c-6", "c-12", "c-9",
            "c-3"
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
