//! An append-only history whose clones share what was already written.
//!
//! The world's event trace only grows, and a face that keeps snapshots of the world (a
//! timeline to scrub, a lesson's checkpoints) clones the world many times. A plain `Vec` would
//! copy the whole trace at every snapshot. A [`History`] keeps its items in sealed chunks
//! behind reference counts plus one short open chunk: cloning it copies a pointer per sealed
//! chunk and at most [`CHUNK`] items, and a clone that goes on appending (a fork) never
//! disturbs the items its original sees.
//!
//! A long run can compact it ([`History::compact_before`]): the oldest sealed chunks are
//! dropped whole, and the history remembers how many items went, so that every item kept keeps
//! its index (the index is the item's place in the whole run, as the page's event log and its
//! links to events use it) and [`History::len`] still counts every item ever written.

use std::fmt;
use std::ops::Index;
use std::sync::Arc;

/// How many items a sealed chunk holds.
pub const CHUNK: usize = 256;

/// An append-only sequence with cheap clones (see the module doc).
pub struct History<T> {
    sealed: Vec<Arc<[T]>>,
    open: Vec<T>,
    /// How many sealed chunks compaction dropped from the front.
    dropped: usize,
}

impl<T> Default for History<T> {
    fn default() -> Self {
        History {
            sealed: Vec::new(),
            open: Vec::with_capacity(CHUNK),
            dropped: 0,
        }
    }
}

impl<T: Clone> Clone for History<T> {
    fn clone(&self) -> Self {
        History {
            sealed: self.sealed.clone(),
            open: self.open.clone(),
            dropped: self.dropped,
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for History<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq> PartialEq for History<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self.first_index() == other.first_index()
            && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl<T> History<T> {
    /// An empty history.
    pub fn new() -> Self {
        History::default()
    }

    /// The number of items written, those compaction dropped included: the index the next
    /// item gets.
    pub fn len(&self) -> usize {
        (self.dropped + self.sealed.len()) * CHUNK + self.open.len()
    }

    /// The index of the oldest item kept: how many compaction dropped.
    pub fn first_index(&self) -> usize {
        self.dropped * CHUNK
    }

    /// Drops the oldest items, whole chunks at a time, so that the first one kept is at most
    /// `index` (items at `index` and later all stay); returns how many went. Indices do not
    /// change.
    pub fn compact_before(&mut self, index: usize) -> usize {
        let chunks = (index.saturating_sub(self.first_index()) / CHUNK).min(self.sealed.len());
        self.sealed.drain(..chunks);
        self.dropped += chunks;
        chunks * CHUNK
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends an item.
    pub fn push(&mut self, item: T) {
        self.open.push(item);
        if self.open.len() == CHUNK {
            let full = std::mem::replace(&mut self.open, Vec::with_capacity(CHUNK));
            self.sealed.push(Arc::from(full));
        }
    }

    /// The item at `index`, if there is one (and compaction did not drop it).
    pub fn get(&self, index: usize) -> Option<&T> {
        let index = index.checked_sub(self.first_index())?;
        let (chunk, at) = (index / CHUNK, index % CHUNK);
        match self.sealed.get(chunk) {
            Some(c) => c.get(at),
            None if chunk == self.sealed.len() => self.open.get(at),
            None => None,
        }
    }

    /// The last item.
    pub fn last(&self) -> Option<&T> {
        self.open
            .last()
            .or_else(|| self.sealed.last().and_then(|c| c.last()))
    }

    /// Every item kept with its index, oldest first.
    pub fn indexed(&self) -> impl Iterator<Item = (usize, &T)> + '_ {
        let first = self.first_index();
        self.iter()
            .enumerate()
            .map(move |(i, item)| (first + i, item))
    }

    /// Every item kept, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        self.sealed
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.open.iter())
    }

    /// The items kept from `index` on (none when `index` is past the end).
    pub fn since(&self, index: usize) -> impl Iterator<Item = &T> + '_ {
        let index = index.saturating_sub(self.first_index());
        let first = (index / CHUNK).min(self.sealed.len());
        let skip = index - first * CHUNK;
        self.sealed[first..]
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.open.iter())
            .skip(skip)
    }

    /// Every item kept, copied into a `Vec`, oldest first.
    pub fn to_vec(&self) -> Vec<T>
    where
        T: Clone,
    {
        self.iter().cloned().collect()
    }

    /// How many sealed chunks it holds (each shared by its clones).
    pub fn sealed_chunks(&self) -> usize {
        self.sealed.len()
    }

    /// How many sealed chunks this history shares with `other` (the same allocation): what a
    /// snapshot did not have to copy.
    pub fn shared_chunks_with(&self, other: &History<T>) -> usize {
        let (mine, theirs) = (
            self.sealed
                .iter()
                .skip(other.dropped.saturating_sub(self.dropped)),
            other
                .sealed
                .iter()
                .skip(self.dropped.saturating_sub(other.dropped)),
        );
        mine.zip(theirs)
            .take_while(|(a, b)| Arc::ptr_eq(a, b))
            .count()
    }
}

impl<T> Index<usize> for History<T> {
    type Output = T;
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(item) => item,
            None => panic!(
                "history index {index} out of range ({} items, {} compacted)",
                self.len(),
                self.first_index()
            ),
        }
    }
}

impl<'a, T> IntoIterator for &'a History<T> {
    type Item = &'a T;
    type IntoIter = Box<dyn DoubleEndedIterator<Item = &'a T> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<T> FromIterator<T> for History<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut h = History::new();
        for item in iter {
            h.push(item);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(n: usize) -> History<usize> {
        (0..n).collect()
    }

    #[test]
    fn items_read_back_in_order_across_chunk_boundaries() {
        for n in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 7] {
            let h = numbers(n);
            assert_eq!(h.len(), n);
            assert_eq!(
                h.iter().copied().collect::<Vec<_>>(),
                (0..n).collect::<Vec<_>>()
            );
            assert_eq!(h.iter().next_back().copied(), n.checked_sub(1));
            assert_eq!(h.last().copied(), n.checked_sub(1));
            for i in [0, CHUNK - 1, CHUNK, n.saturating_sub(1), n, n + CHUNK] {
                assert_eq!(h.get(i).copied(), (i < n).then_some(i), "get({i}) of {n}");
                assert_eq!(
                    h.since(i).copied().collect::<Vec<_>>(),
                    (i.min(n)..n).collect::<Vec<_>>(),
                    "since({i}) of {n}"
                );
            }
        }
    }

    #[test]
    fn a_clone_shares_the_sealed_chunks_and_forks_independently() {
        let original = numbers(3 * CHUNK + 10);
        let mut fork = original.clone();
        assert_eq!(fork.shared_chunks_with(&original), 3);
        for i in 0..2 * CHUNK {
            fork.push(10_000 + i);
        }
        // The fork sealed its copy of the open chunk and more; the original is untouched.
        assert_eq!(fork.shared_chunks_with(&original), 3);
        assert_eq!(original.len(), 3 * CHUNK + 10);
        assert_eq!(original.last(), Some(&(3 * CHUNK + 9)));
        assert_eq!(fork[3 * CHUNK + 10], 10_000);
        assert_eq!(fork.len(), 5 * CHUNK + 10);
        assert_ne!(fork, original);
        assert_eq!(original.clone(), original);
    }

    #[test]
    fn compaction_drops_whole_old_chunks_and_keeps_indices() {
        let mut h = numbers(4 * CHUNK + 10);
        let snapshot = h.clone();
        assert_eq!(h.compact_before(CHUNK - 1), 0);
        assert_eq!(h.compact_before(2 * CHUNK + 5), 2 * CHUNK);
        assert_eq!(h.first_index(), 2 * CHUNK);
        assert_eq!(h.len(), 4 * CHUNK + 10);
        assert_eq!(h.get(2 * CHUNK - 1), None);
        assert_eq!(h.get(2 * CHUNK + 5), Some(&(2 * CHUNK + 5)));
        assert_eq!(h[4 * CHUNK + 9], 4 * CHUNK + 9);
        assert_eq!(h.iter().count(), 2 * CHUNK + 10);
        assert!(h.indexed().all(|(i, item)| i == *item));
        assert_eq!(h.since(0).next(), Some(&(2 * CHUNK)));
        assert_eq!(h.since(3 * CHUNK).next(), Some(&(3 * CHUNK)));
        // What is kept is still shared with a clone taken before.
        assert_eq!(h.shared_chunks_with(&snapshot), 2);
        assert_eq!(snapshot.shared_chunks_with(&h), 2);
        assert_ne!(h, snapshot);
        h.push(4 * CHUNK + 10);
        assert_eq!(h.len(), 4 * CHUNK + 11);
        // Never past the open chunk.
        assert_eq!(h.compact_before(usize::MAX), 2 * CHUNK);
        assert_eq!(h.first_index(), 4 * CHUNK);
        assert_eq!(h.iter().count(), 11);
    }

    #[test]
    #[should_panic(expected = "history index 5 out of range (5 items, 0 compacted)")]
    fn indexing_past_the_end_names_the_index() {
        let _ = numbers(5)[5];
    }
}
