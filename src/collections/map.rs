//! [`VecMap`]: a map kept as a vector sorted by key.

use super::{range_of, search, sort_dedup_last};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::iter::FusedIterator;
use std::marker::PhantomData;
use std::ops::{Index, RangeBounds};

/// A map kept as a vector of `(key, value)` sorted by key: `BTreeMap`'s order and interface
/// (the part this crate uses) for small maps.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

fn key_of<K, V>(entry: &(K, V)) -> &K {
    &entry.0
}

impl<K, V> VecMap<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries in ascending key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter(self.entries.iter())
    }

    /// The entries in ascending key order, values mutable.
    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys in ascending order.
    pub fn keys(&self) -> Keys<'_, K, V> {
        Keys(self.entries.iter())
    }

    /// The values in ascending key order.
    pub fn values(&self) -> Values<'_, K, V> {
        Values(self.entries.iter())
    }

    /// The values in ascending key order, mutable.
    pub fn values_mut(&mut self) -> ValuesMut<'_, K, V> {
        ValuesMut(self.entries.iter_mut())
    }

    /// The keys in ascending order, by value.
    pub fn into_keys(self) -> IntoKeys<K, V> {
        IntoKeys(self.entries.into_iter())
    }

    /// The values in ascending key order, by value.
    pub fn into_values(self) -> IntoValues<K, V> {
        IntoValues(self.entries.into_iter())
    }

    /// The entry with the smallest key.
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// The entry with the largest key.
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Removes and returns the entry with the smallest key.
    pub fn pop_first(&mut self) -> Option<(K, V)> {
        if self.entries.is_empty() {
            None
        } else {
            Some(self.entries.remove(0))
        }
    }

    /// Removes and returns the entry with the largest key.
    pub fn pop_last(&mut self) -> Option<(K, V)> {
        self.entries.pop()
    }

    /// Keeps only the entries for which `f` holds, in order.
    pub fn retain<F: FnMut(&K, &mut V) -> bool>(&mut self, mut f: F) {
        self.entries.retain_mut(|(k, v)| f(k, v));
    }
}

impl<K: Ord, V> VecMap<K, V> {
    fn find<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        search(&self.entries, key, |e| key_of(e).borrow())
    }

    /// A map of `entries` in any order; of equal keys the last wins (as collecting into a
    /// `BTreeMap`).
    fn from_vec(mut entries: Vec<(K, V)>) -> Self {
        sort_dedup_last(&mut entries, |a, b| a.0 < b.0);
        VecMap { entries }
    }

    /// The value of `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The entry of `key`.
    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| {
            let (k, v) = &self.entries[i];
            (k, v)
        })
    }

    /// The value of `key`, mutable.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        match self.find(key) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    /// Whether the map has `key`.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).is_ok()
    }

    /// Sets the value of `key`, returning the old one (the key itself is kept, as a
    /// `BTreeMap` keeps it).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.remove_entry(key).map(|(_, v)| v)
    }

    /// Removes `key`, returning its entry.
    pub fn remove_entry<Q>(&mut self, key: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        match self.find(key) {
            Ok(i) => Some(self.entries.remove(i)),
            Err(_) => None,
        }
    }

    /// The place of `key` in the map, to read, change or fill.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        match self.find(&key) {
            Ok(index) => Entry::Occupied(OccupiedEntry {
                entries: &mut self.entries,
                index,
            }),
            Err(index) => Entry::Vacant(VacantEntry {
                entries: &mut self.entries,
                index,
                key,
            }),
        }
    }

    /// The entries whose keys fall in `range`, in ascending key order.
    pub fn range<Q, R>(&self, range: R) -> Iter<'_, K, V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        let (start, end) = range_of(&self.entries, &range, |e| key_of(e).borrow());
        Iter(self.entries[start..end].iter())
    }

    /// The entries whose keys fall in `range`, in ascending key order, values mutable.
    pub fn range_mut<Q, R>(&mut self, range: R) -> IterMut<'_, K, V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        let (start, end) = range_of(&self.entries, &range, |e| key_of(e).borrow());
        IterMut(self.entries[start..end].iter_mut())
    }

    /// Moves every entry of `other` into this map (of equal keys, `other`'s value wins).
    pub fn append(&mut self, other: &mut Self) {
        if self.entries.is_empty() {
            std::mem::swap(&mut self.entries, &mut other.entries);
        } else {
            self.extend(std::mem::take(&mut other.entries));
        }
    }

    /// Splits the map at `key`: the entries from `key` on are returned, the others stay.
    pub fn split_off<Q>(&mut self, key: &Q) -> Self
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let at = self.entries.partition_point(|e| key_of(e).borrow() < key);
        VecMap {
            entries: self.entries.split_off(at),
        }
    }
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K, Q, V> Index<&Q> for VecMap<K, V>
where
    K: Borrow<Q> + Ord,
    Q: Ord + ?Sized,
{
    type Output = V;

    /// The value of `key`; panics if the map has no such key.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        VecMap::from_vec(iter.into_iter().collect())
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for VecMap<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        VecMap::from_vec(Vec::from(entries))
    }
}

impl<K: Ord, V> Extend<(K, V)> for VecMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<'a, K: Ord + Copy, V: Copy> Extend<(&'a K, &'a V)> for VecMap<K, V> {
    fn extend<I: IntoIterator<Item = (&'a K, &'a V)>>(&mut self, iter: I) {
        self.extend(iter.into_iter().map(|(k, v)| (*k, *v)));
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = IntoIter<K, V>;

    fn into_iter(self) -> IntoIter<K, V> {
        IntoIter(self.entries.into_iter())
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut VecMap<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;

    fn into_iter(self) -> IterMut<'a, K, V> {
        self.iter_mut()
    }
}

/// Implements the iterator traits for a wrapper of a slice or vector iterator that maps
/// each item with `$map`.
macro_rules! wrapped_iter {
    ($name:ident $(<$lt:lifetime>)?, $inner:ty, $item:ty, $doc:literal, |$x:pat_param| $map:expr) => {
        #[doc = $doc]
        #[derive(Debug)]
        pub struct $name<$($lt,)? K, V>($inner);

        impl<$($lt,)? K, V> Iterator for $name<$($lt,)? K, V> {
            type Item = $item;

            fn next(&mut self) -> Option<$item> {
                self.0.next().map(|$x| $map)
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                self.0.size_hint()
            }

            fn nth(&mut self, n: usize) -> Option<$item> {
                self.0.nth(n).map(|$x| $map)
            }

            fn last(mut self) -> Option<$item> {
                self.next_back()
            }

            fn count(self) -> usize {
                self.0.len()
            }
        }

        impl<$($lt,)? K, V> DoubleEndedIterator for $name<$($lt,)? K, V> {
            fn next_back(&mut self) -> Option<$item> {
                self.0.next_back().map(|$x| $map)
            }
        }

        impl<$($lt,)? K, V> ExactSizeIterator for $name<$($lt,)? K, V> {
            fn len(&self) -> usize {
                self.0.len()
            }
        }

        impl<$($lt,)? K, V> FusedIterator for $name<$($lt,)? K, V> {}
    };
}

wrapped_iter!(
    Iter<'a>,
    std::slice::Iter<'a, (K, V)>,
    (&'a K, &'a V),
    "The entries of a [`VecMap`], by reference.",
    |(k, v)| (k, v)
);
wrapped_iter!(
    IterMut<'a>,
    std::slice::IterMut<'a, (K, V)>,
    (&'a K, &'a mut V),
    "The entries of a [`VecMap`], values mutable.",
    |(k, v)| (&*k, v)
);
wrapped_iter!(
    Keys<'a>,
    std::slice::Iter<'a, (K, V)>,
    &'a K,
    "The keys of a [`VecMap`].",
    |(k, _)| k
);
wrapped_iter!(
    Values<'a>,
    std::slice::Iter<'a, (K, V)>,
    &'a V,
    "The values of a [`VecMap`].",
    |(_, v)| v
);
wrapped_iter!(
    ValuesMut<'a>,
    std::slice::IterMut<'a, (K, V)>,
    &'a mut V,
    "The values of a [`VecMap`], mutable.",
    |(_, v)| v
);
wrapped_iter!(
    IntoIter,
    std::vec::IntoIter<(K, V)>,
    (K, V),
    "The entries of a [`VecMap`], by value.",
    |e| e
);
wrapped_iter!(
    IntoKeys,
    std::vec::IntoIter<(K, V)>,
    K,
    "The keys of a [`VecMap`], by value.",
    |(k, _)| k
);
wrapped_iter!(
    IntoValues,
    std::vec::IntoIter<(K, V)>,
    V,
    "The values of a [`VecMap`], by value.",
    |(_, v)| v
);

impl<K, V> Clone for Iter<'_, K, V> {
    fn clone(&self) -> Self {
        Iter(self.0.clone())
    }
}

impl<K, V> Clone for Keys<'_, K, V> {
    fn clone(&self) -> Self {
        Keys(self.0.clone())
    }
}

impl<K, V> Clone for Values<'_, K, V> {
    fn clone(&self) -> Self {
        Values(self.0.clone())
    }
}

/// A key's place in a [`VecMap`] ([`VecMap::entry`]).
pub enum Entry<'a, K, V> {
    /// The key is in the map.
    Occupied(OccupiedEntry<'a, K, V>),
    /// The key is not in the map.
    Vacant(VacantEntry<'a, K, V>),
}

/// A key's place in a [`VecMap`] that has it.
pub struct OccupiedEntry<'a, K, V> {
    entries: &'a mut Vec<(K, V)>,
    index: usize,
}

/// A key's place in a [`VecMap`] that does not have it.
pub struct VacantEntry<'a, K, V> {
    entries: &'a mut Vec<(K, V)>,
    index: usize,
    key: K,
}

impl<'a, K, V> Entry<'a, K, V> {
    /// The key.
    pub fn key(&self) -> &K {
        match self {
            Entry::Occupied(e) => e.key(),
            Entry::Vacant(e) => e.key(),
        }
    }

    /// The value, `default` put in first if there was none.
    pub fn or_insert(self, default: V) -> &'a mut V {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(default),
        }
    }

    /// The value, `default()` put in first if there was none.
    pub fn or_insert_with<F: FnOnce() -> V>(self, default: F) -> &'a mut V {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(default()),
        }
    }

    /// The value, `default(&key)` put in first if there was none.
    pub fn or_insert_with_key<F: FnOnce(&K) -> V>(self, default: F) -> &'a mut V {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let value = default(&e.key);
                e.insert(value)
            }
        }
    }

    /// The value, the default value put in first if there was none.
    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    /// Changes the value with `f` if there is one.
    pub fn and_modify<F: FnOnce(&mut V)>(mut self, f: F) -> Self {
        if let Entry::Occupied(e) = &mut self {
            f(e.get_mut());
        }
        self
    }
}

impl<'a, K, V> OccupiedEntry<'a, K, V> {
    /// The key.
    pub fn key(&self) -> &K {
        &self.entries[self.index].0
    }

    /// The value.
    pub fn get(&self) -> &V {
        &self.entries[self.index].1
    }

    /// The value, mutable.
    pub fn get_mut(&mut self) -> &mut V {
        &mut self.entries[self.index].1
    }

    /// The value, mutable for as long as the map is borrowed.
    pub fn into_mut(self) -> &'a mut V {
        &mut self.entries[self.index].1
    }

    /// Sets the value, returning the old one.
    pub fn insert(&mut self, value: V) -> V {
        std::mem::replace(self.get_mut(), value)
    }

    /// Removes the entry, returning its value.
    pub fn remove(self) -> V {
        self.remove_entry().1
    }

    /// Removes the entry, returning it.
    pub fn remove_entry(self) -> (K, V) {
        self.entries.remove(self.index)
    }
}

impl<'a, K, V> VacantEntry<'a, K, V> {
    /// The key.
    pub fn key(&self) -> &K {
        &self.key
    }

    /// The key, given back.
    pub fn into_key(self) -> K {
        self.key
    }

    /// Puts `value` in under the key.
    pub fn insert(self, value: V) -> &'a mut V {
        self.entries.insert(self.index, (self.key, value));
        &mut self.entries[self.index].1
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    /// A map, as a `BTreeMap` is serialized.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self)
    }
}

impl<'de, K, V> Deserialize<'de> for VecMap<K, V>
where
    K: Deserialize<'de> + Ord,
    V: Deserialize<'de>,
{
    /// From a map, as a `BTreeMap` is deserialized (of equal keys the last wins).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);

        impl<'de, K, V> Visitor<'de> for MapVisitor<K, V>
        where
            K: Deserialize<'de> + Ord,
            V: Deserialize<'de>,
        {
            type Value = VecMap<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(VecMap::from_vec(entries))
            }
        }

        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}
