//! [`VecSet`]: a set kept as a sorted vector.

use super::{range_of, search, sort_dedup_last};
use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::ops::RangeBounds;

/// A set kept as a sorted vector: `BTreeSet`'s order and interface (the part this crate uses)
/// for small sets.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VecSet<T> {
    items: Vec<T>,
}

impl<T> VecSet<T> {
    /// An empty set.
    pub const fn new() -> Self {
        VecSet { items: Vec::new() }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Removes every element.
    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// The elements in ascending order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The smallest element.
    pub fn first(&self) -> Option<&T> {
        self.items.first()
    }

    /// The largest element.
    pub fn last(&self) -> Option<&T> {
        self.items.last()
    }

    /// Removes and returns the smallest element.
    pub fn pop_first(&mut self) -> Option<T> {
        if self.items.is_empty() {
            None
        } else {
            Some(self.items.remove(0))
        }
    }

    /// Removes and returns the largest element.
    pub fn pop_last(&mut self) -> Option<T> {
        self.items.pop()
    }

    /// Keeps only the elements for which `f` holds, in order.
    pub fn retain<F: FnMut(&T) -> bool>(&mut self, f: F) {
        self.items.retain(f);
    }
}

impl<T: Ord> VecSet<T> {
    fn find<Q>(&self, value: &Q) -> Result<usize, usize>
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        search(&self.items, value, |x: &T| x.borrow())
    }

    /// A set of `items` in any order, without repeats.
    fn from_vec(mut items: Vec<T>) -> Self {
        sort_dedup_last(&mut items, |a, b| a < b);
        VecSet { items }
    }

    /// Whether the set has `value`.
    pub fn contains<Q>(&self, value: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(value).is_ok()
    }

    /// The element equal to `value`.
    pub fn get<Q>(&self, value: &Q) -> Option<&T>
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(value).ok().map(|i| &self.items[i])
    }

    /// Adds `value`; whether it was not there yet (if it was, the set is unchanged).
    pub fn insert(&mut self, value: T) -> bool {
        match self.find(&value) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, value);
                true
            }
        }
    }

    /// Removes `value`; whether it was there.
    pub fn remove<Q>(&mut self, value: &Q) -> bool
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.take(value).is_some()
    }

    /// Removes and returns the element equal to `value`.
    pub fn take<Q>(&mut self, value: &Q) -> Option<T>
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        match self.find(value) {
            Ok(i) => Some(self.items.remove(i)),
            Err(_) => None,
        }
    }

    /// The elements that fall in `range`, in ascending order.
    pub fn range<Q, R>(&self, range: R) -> std::slice::Iter<'_, T>
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
        R: RangeBounds<Q>,
    {
        let (start, end) = range_of(&self.items, &range, |x: &T| x.borrow());
        self.items[start..end].iter()
    }

    /// Moves every element of `other` into this set.
    pub fn append(&mut self, other: &mut Self) {
        if self.items.is_empty() {
            std::mem::swap(&mut self.items, &mut other.items);
        } else {
            self.extend(std::mem::take(&mut other.items));
        }
    }

    /// Splits the set at `value`: the elements from `value` on are returned, the others stay.
    pub fn split_off<Q>(&mut self, value: &Q) -> Self
    where
        T: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        let at = self.items.partition_point(|x| x.borrow() < value);
        VecSet {
            items: self.items.split_off(at),
        }
    }

    /// Whether every element of this set is in `other`.
    pub fn is_subset(&self, other: &Self) -> bool {
        self.items.iter().all(|x| other.contains(x))
    }
}

impl<T> Default for VecSet<T> {
    fn default() -> Self {
        VecSet::new()
    }
}

impl<T: fmt::Debug> fmt::Debug for VecSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T: Ord> FromIterator<T> for VecSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        VecSet::from_vec(iter.into_iter().collect())
    }
}

impl<T: Ord, const N: usize> From<[T; N]> for VecSet<T> {
    fn from(items: [T; N]) -> Self {
        VecSet::from_vec(Vec::from(items))
    }
}

impl<T: Ord> Extend<T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.insert(x);
        }
    }
}

impl<'a, T: Ord + Copy> Extend<&'a T> for VecSet<T> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<T> IntoIterator for VecSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> std::vec::IntoIter<T> {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a VecSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> std::slice::Iter<'a, T> {
        self.items.iter()
    }
}

impl<T: Serialize> Serialize for VecSet<T> {
    /// A sequence, as a `BTreeSet` is serialized.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self)
    }
}

impl<'de, T> Deserialize<'de> for VecSet<T>
where
    T: Deserialize<'de> + Ord,
{
    /// From a sequence, as a `BTreeSet` is deserialized (repeats dropped).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::deserialize(deserializer).map(VecSet::from_vec)
    }
}
