//! The crate's one sort: [`sort`], [`sort_by`] and [`sort_by_key`], stable, in place, with the
//! same results as the slice methods of the same names.
//!
//! Why the crate has its own: the slice methods are generic, so every element type and every
//! comparison the crate sorted with got a copy of the standard library's sort of its own in
//! the page's WebAssembly module (over forty copies, about 150 KB between them). Here the
//! algorithm is compiled once, in [`stable_order`], which sorts indices and sees the elements
//! only through a comparison of two indices; what stays generic is a few lines that compare
//! two elements and move each element to its place.
//!
//! A stable sort's result is fixed by its comparison (equal elements keep their order), so
//! this one gives exactly what the slice methods gave; where the crate sorted plain integers
//! unstably, the stable sort gives the same vector too, equal integers being indistinguishable.

use std::cmp::Ordering;

/// The length of the runs [`stable_order`] sorts by insertion before merging them.
const RUN: usize = 16;

/// The stable order of the indices `0..len` by `less` (a strict order of two indices): the
/// index that goes first, then the next, and so on; indices equal by `less` keep their order.
/// A merge sort (runs of [`RUN`] sorted by insertion, then merged in pairs until one is left):
/// `O(len log len)` comparisons.
#[inline(never)]
fn stable_order(len: usize, less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    for start in (0..len).step_by(RUN) {
        let end = (start + RUN).min(len);
        for i in start + 1..end {
            let x = order[i];
            let mut j = i;
            while j > start && less(x, order[j - 1]) {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = x;
        }
    }
    if len <= RUN {
        return order;
    }
    let mut merged = vec![0; len];
    let mut width = RUN;
    while width < len {
        for start in (0..len).step_by(2 * width) {
            let mid = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            let out = &mut merged[start..end];
            // Already in order (or no right-hand run): the runs stay as they are.
            if mid == end || !less(order[mid], order[mid - 1]) {
                out.copy_from_slice(&order[start..end]);
                continue;
            }
            let (mut l, mut r) = (start, mid);
            for slot in out {
                // The right-hand run's element goes first only if strictly less: stability.
                let take_right = l == mid || (r < end && less(order[r], order[l]));
                if take_right {
                    *slot = order[r];
                    r += 1;
                } else {
                    *slot = order[l];
                    l += 1;
                }
            }
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Puts `v` in `order` (`order[k]` is the index of the element that goes to `k`), one cycle of
/// the permutation at a time with swaps; each index done is marked in `order` by pointing at
/// itself.
fn apply<T>(v: &mut [T], mut order: Vec<usize>) {
    for i in 0..v.len() {
        let mut j = i;
        while order[j] != i {
            let next = order[j];
            v.swap(j, next);
            order[j] = j;
            j = next;
        }
        order[j] = j;
    }
}

/// Sorts `v` stably by `less` (a strict order: `less(a, b)` when `a` goes before `b`).
pub(super) fn sort_by_less<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    if v.len() < 2 {
        return;
    }
    let order = stable_order(v.len(), &mut |a, b| less(&v[a], &v[b]));
    apply(v, order);
}

/// Sorts `v` ascending, stably: what `v.sort()` does.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by_less(v, |a, b| a < b);
}

/// Sorts `v` stably by `cmp`: what `v.sort_by(cmp)` does.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    sort_by_less(v, |a, b| cmp(a, b) == Ordering::Less);
}

/// Sorts `v` stably by the key `key` gives each element: what `v.sort_by_key(key)` does.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by_less(v, |a, b| key(a) < key(b));
}

#[cfg(test)]
mod tests {
    use super::{sort, sort_by, sort_by_key};
    use crate::Rng;

    /// Pairs whose first field takes `distinct` values at most (so that many are equal by it)
    /// and whose second field is their place in the vector (so that a change of order among
    /// equal ones shows).
    fn pairs(rng: &mut Rng, len: usize, distinct: u64) -> Vec<(u64, usize)> {
        (0..len).map(|i| (rng.up_to(distinct - 1), i)).collect()
    }

    /// Sorts `v` by the first field with this module and with the slice method, and checks
    /// that the whole pairs come out the same.
    fn check(v: &[(u64, usize)]) {
        let mut ours = v.to_vec();
        sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
        let mut std = v.to_vec();
        std.sort_by_key(|p| p.0);
        assert_eq!(ours, std, "sorting {v:?}");
        let mut ours = v.to_vec();
        sort_by_key(&mut ours, |p| std::cmp::Reverse(p.0));
        let mut std = v.to_vec();
        std.sort_by_key(|p| std::cmp::Reverse(p.0));
        assert_eq!(ours, std, "sorting {v:?} descending");
    }

    #[test]
    fn random_vectors_sort_as_the_slice_sort_does_equal_ones_in_order() {
        let mut rng = Rng::new(11);
        for len in 0..=200 {
            for distinct in [1, 2, 5, 40, 1 << 40] {
                check(&pairs(&mut rng, len, distinct));
            }
        }
        for len in [1000, 1023, 1024, 1025, 3000, 4097] {
            for distinct in [3, 100, 1 << 40] {
                check(&pairs(&mut rng, len, distinct));
            }
        }
    }

    #[test]
    fn equal_sorted_and_reversed_vectors_sort_as_the_slice_sort_does() {
        for len in [0, 1, 2, 15, 16, 17, 31, 32, 33, 100, 257, 2500] {
            check(&(0..len).map(|i| (7, i)).collect::<Vec<_>>());
            check(&(0..len).map(|i| (i as u64, i)).collect::<Vec<_>>());
            check(&(0..len).map(|i| ((len - i) as u64, i)).collect::<Vec<_>>());
            check(
                &(0..len)
                    .map(|i| ((len - i) as u64 / 3, i))
                    .collect::<Vec<_>>(),
            );
        }
    }

    #[test]
    fn sort_orders_by_the_whole_element() {
        let mut rng = Rng::new(3);
        for len in [0, 1, 5, 16, 17, 200, 2000] {
            let v: Vec<(u64, String)> = (0..len)
                .map(|_| (rng.up_to(9), rng.up_to(5).to_string()))
                .collect();
            let mut ours = v.clone();
            sort(&mut ours);
            let mut std = v;
            std.sort();
            assert_eq!(ours, std);
        }
    }
}
