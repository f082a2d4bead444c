//! Small ordered collections: [`VecMap`] and [`VecSet`], a map and a set kept in one vector
//! sorted by key and searched by bisection.
//!
//! They stand in for `std`'s `BTreeMap` and `BTreeSet` where a collection stays small (a map by
//! broker, partition, member or group): the same order (ascending by key), the same iteration
//! items, `Debug` output, comparison and hashing, and the same serde form (a map, a
//! sequence). What they save is code: a B-tree's insert, remove, rebalance and clone are
//! generated again for every key and value type, a sorted vector's handful of short methods
//! are not much more than the vector's own. Inserting or removing in the middle moves the
//! entries after it, so a collection that grows large and is drained from the front (the
//! world's event queue) stays a `BTreeMap`.
//!
//! The crate sorts with [`sort`], [`sort_by`] and [`sort_by_key`] rather than the slice
//! methods, for the same reason: one copy of the sort's algorithm instead of one for every
//! element type.

use std::ops::{Bound, RangeBounds};

mod map;
mod set;
mod sort;
#[cfg(test)]
mod tests;

pub use map::{
    Entry, IntoIter, IntoKeys, IntoValues, Iter, IterMut, Keys, OccupiedEntry, VacantEntry, Values,
    ValuesMut, VecMap,
};
pub use set::VecSet;
pub use sort::{sort, sort_by, sort_by_key};

/// Where `key` is among `keys` (sorted ascending): `Ok(index)` if there, else `Err(index)`
/// where it would go.
fn search<T, Q>(items: &[T], key: &Q, key_of: impl Fn(&T) -> &Q) -> Result<usize, usize>
where
    Q: Ord + ?Sized,
{
    items.binary_search_by(|item| key_of(item).cmp(key))
}

/// The index range of the sorted `items` whose keys fall in `range`.
fn range_of<T, Q, R>(items: &[T], range: &R, key_of: impl Fn(&T) -> &Q) -> (usize, usize)
where
    Q: Ord + ?Sized,
    R: RangeBounds<Q>,
{
    let start = match range.start_bound() {
        Bound::Included(s) => items.partition_point(|x| key_of(x) < s),
        Bound::Excluded(s) => items.partition_point(|x| key_of(x) <= s),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(e) => items.partition_point(|x| key_of(x) <= e),
        Bound::Excluded(e) => items.partition_point(|x| key_of(x) < e),
        Bound::Unbounded => items.len(),
    };
    (start, end.max(start))
}

/// Sorts `items` by key (stably) and keeps the last of each run of equal keys: what
/// collecting into a `BTreeMap` or `BTreeSet` keeps.
fn sort_dedup_last<T>(items: &mut Vec<T>, less: impl Fn(&T, &T) -> bool) {
    if items.windows(2).all(|w| less(&w[0], &w[1])) {
        return;
    }
    sort::sort_by_less(items, &less);
    items.dedup_by(|later, kept| {
        let same = !less(kept, later);
        if same {
            std::mem::swap(later, kept);
        }
        same
    });
}
