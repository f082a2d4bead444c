//! A log's producer-batch marks, kept so that a clone of the log (a snapshot of the world on
//! the page's timeline) shares what was already written instead of copying it.
//!
//! A mark stands for a run of batches: a batch that follows the last mark's (the next offsets,
//! the same producer, the next sequences, neither a second copy) extends it instead of adding
//! one, so that a steady stream keeps one mark per run instead of one per batch and a long run
//! of traffic does not grow the log's memory batch by batch. Nothing is lost by it: a producer's
//! sequences only grow (`Producer::send`), so the batches of one producer cover disjoint ranges
//! of sequences, and the batch whose base sequence is `s` is the one whose run holds `s`, at
//! the run's offset plus `s` minus the run's sequence. The runs are the longest such: the same
//! batches give the same marks however and whenever they were written, fetched or truncated.
//!
//! Marks are only ever appended at growing offsets and removed from the end (truncation), so
//! they live in sealed chunks of [`CHUNK`] behind reference counts plus one open chunk, like
//! the event history. Each chunk also notes, per producer, the smallest and largest sequence
//! among its first copies (marks not flagged duplicate), so finding the first copy of a batch
//! looks inside only the chunks whose range holds its sequence.

use std::sync::Arc;

/// A producer batch as the log remembers it, or a run of batches (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchMark {
    /// The producer (its producer id; the model tags every producer's batches, idempotent or
    /// not, so that it can tell a duplicate).
    pub producer: u64,
    /// The batch's base sequence: how many records the producer sent to the partition before.
    pub sequence: u64,
    /// How many records (of every batch of the run).
    pub records: u64,
    /// Whether an earlier copy of the same batch was already in the log when this one was
    /// written.
    pub duplicate: bool,
}

/// How many marks a sealed chunk holds.
pub const CHUNK: usize = 256;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Chunk {
    /// `(base offset, mark)`, growing offsets.
    marks: Vec<(u64, BatchMark)>,
    /// `(producer, least sequence, greatest sequence)` of the first copies.
    ranges: Vec<(u64, u64, u64)>,
}

impl Chunk {
    fn note(&mut self, mark: &BatchMark) {
        if mark.duplicate {
            return;
        }
        match self.ranges.iter_mut().find(|r| r.0 == mark.producer) {
            Some(r) => {
                r.1 = r.1.min(mark.sequence);
                r.2 = r.2.max(last_sequence(mark));
            }
            None => self
                .ranges
                .push((mark.producer, mark.sequence, last_sequence(mark))),
        }
    }

    fn may_hold(&self, producer: u64, sequence: u64) -> bool {
        self.ranges
            .iter()
            .any(|r| r.0 == producer && r.1 <= sequence && sequence <= r.2)
    }

    fn first_copy(&self, producer: u64, sequence: u64) -> Option<u64> {
        if !self.may_hold(producer, sequence) {
            return None;
        }
        self.marks
            .iter()
            .find(|(_, m)| {
                !m.duplicate
                    && m.producer == producer
                    && m.sequence <= sequence
                    && sequence <= last_sequence(m)
            })
            .map(|(o, m)| o + (sequence - m.sequence))
    }

    fn renote(&mut self) {
        self.ranges.clear();
        let marks = std::mem::take(&mut self.marks);
        for (_, m) in &marks {
            self.note(m);
        }
        self.marks = marks;
    }
}

/// The sequence of a mark's last record.
fn last_sequence(mark: &BatchMark) -> u64 {
    mark.sequence + mark.records.max(1) - 1
}

/// Whether `next`, written at `at`, extends the run `last` written at `from` (see the module
/// doc).
fn extends(from: u64, last: &BatchMark, at: u64, next: &BatchMark) -> bool {
    !last.duplicate
        && !next.duplicate
        && last.producer == next.producer
        && from + last.records == at
        && last.sequence + last.records == next.sequence
}

/// The part of the run `mark` at `from` that lies at `offset` and beyond (`offset` inside it).
fn tail(from: u64, mark: &BatchMark, offset: u64) -> (u64, BatchMark) {
    let skip = offset - from;
    (
        offset,
        BatchMark {
            sequence: mark.sequence + skip,
            records: mark.records - skip,
            ..*mark
        },
    )
}

/// The marks of one log, by base offset (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct BatchMarks {
    sealed: Vec<Arc<Chunk>>,
    open: Chunk,
}

impl PartialEq for BatchMarks {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for BatchMarks {}

impl BatchMarks {
    /// How many marks (runs of batches).
    pub fn len(&self) -> usize {
        self.sealed.iter().map(|c| c.marks.len()).sum::<usize>() + self.open.marks.len()
    }

    /// Every mark, by growing offset.
    pub fn iter(&self) -> impl Iterator<Item = &(u64, BatchMark)> {
        self.sealed
            .iter()
            .flat_map(|c| c.marks.iter())
            .chain(self.open.marks.iter())
    }

    /// The mark whose base offset is `offset` (from `offset` on, if a run holds it).
    #[cfg(test)]
    pub fn get(&self, offset: u64) -> Option<BatchMark> {
        self.from(offset)
            .next()
            .filter(|(o, _)| *o == offset)
            .map(|(_, m)| m)
    }

    /// Adds a mark after the others. A mark at or below the last one's offset (which the log
    /// never writes) replaces the marks from its offset on, so the order always holds.
    pub fn push(&mut self, base: u64, mark: BatchMark) {
        if self.last_offset().is_some_and(|last| last >= base) {
            // Out of order (the log never does this): rebuild in order, the new mark
            // replacing one at the same offset, as a map would.
            let mut all: crate::collections::VecMap<u64, BatchMark> =
                self.iter().copied().collect();
            all.insert(base, mark);
            *self = BatchMarks::default();
            for (o, m) in all {
                self.push(o, m);
            }
            return;
        }
        if let Some(chunk) = self.last_chunk() {
            if let Some((at, last)) = chunk.marks.last_mut() {
                if extends(*at, last, base, &mark) {
                    last.records += mark.records;
                    let run = *last;
                    chunk.note(&run);
                    return;
                }
            }
        }
        self.open.note(&mark);
        self.open.marks.push((base, mark));
        if self.open.marks.len() >= CHUNK {
            self.sealed.push(Arc::new(std::mem::take(&mut self.open)));
        }
    }

    /// The chunk that holds the last mark: the open one, or (when that is empty) the last
    /// sealed one, copied first if a clone shares it.
    fn last_chunk(&mut self) -> Option<&mut Chunk> {
        if self.open.marks.is_empty() {
            self.sealed.last_mut().map(Arc::make_mut)
        } else {
            Some(&mut self.open)
        }
    }

    fn last_offset(&self) -> Option<u64> {
        self.open
            .marks
            .last()
            .or_else(|| self.sealed.last().and_then(|c| c.marks.last()))
            .map(|(o, _)| *o)
    }

    /// The marks at `offset` and beyond, by growing offset; a run that holds `offset` is cut
    /// there.
    pub fn from(&self, offset: u64) -> impl Iterator<Item = (u64, BatchMark)> + '_ {
        // The first sealed chunk whose last mark reaches `offset`.
        let first = self.sealed.partition_point(|c| {
            c.marks
                .last()
                .is_some_and(|(o, m)| o + m.records.max(1) <= offset)
        });
        self.sealed[first..]
            .iter()
            .flat_map(|c| c.marks.iter())
            .chain(self.open.marks.iter())
            .filter_map(move |(o, m)| {
                if *o >= offset {
                    Some((*o, *m))
                } else if o + m.records > offset {
                    Some(tail(*o, m, offset))
                } else {
                    None
                }
            })
    }

    /// Removes and returns the marks at `offset` and beyond (oldest first).
    pub fn split_off(&mut self, offset: u64) -> Vec<(u64, BatchMark)> {
        let mut gone = Vec::new();
        loop {
            let cut = self.open.marks.partition_point(|(o, _)| *o < offset);
            let mut tail = self.open.marks.split_off(cut);
            tail.extend(gone);
            gone = tail;
            let reaches = matches!(
                self.sealed.last().and_then(|c| c.marks.last()),
                Some((o, _)) if *o >= offset
            );
            if cut > 0 || !reaches {
                break;
            }
            // The open chunk is empty and the last sealed one reaches `offset`: reopen it.
            let Some(last) = self.sealed.pop() else {
                break;
            };
            self.open = Arc::unwrap_or_clone(last);
        }
        self.open.renote();
        // A run that holds `offset` keeps what lies before it.
        if let Some(chunk) = self.last_chunk() {
            if let Some((at, last)) = chunk.marks.last_mut() {
                if *at + last.records > offset {
                    gone.insert(0, tail(*at, last, offset));
                    last.records = offset - *at;
                    chunk.renote();
                }
            }
        }
        gone
    }

    /// The base offset of the first copy (a mark not flagged duplicate) of the batch
    /// (`producer`, `sequence`), the one with the lowest offset if several.
    pub fn first_copy(&self, producer: u64, sequence: u64) -> Option<u64> {
        self.sealed
            .iter()
            .map(|c| &**c)
            .chain(std::iter::once(&self.open))
            .find_map(|c| c.first_copy(producer, sequence))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::Rng;
    use std::collections::BTreeMap;

    fn mark(producer: u64, sequence: u64, duplicate: bool) -> BatchMark {
        BatchMark {
            producer,
            sequence,
            records: 1,
            duplicate,
        }
    }

    /// Runs of one-record batches (every test mark's size) as the batches they stand for.
    fn expand(marks: impl IntoIterator<Item = (u64, BatchMark)>) -> Vec<(u64, BatchMark)> {
        marks
            .into_iter()
            .flat_map(|(o, m)| {
                (0..m.records).map(move |i| {
                    (
                        o + i,
                        BatchMark {
                            sequence: m.sequence + i,
                            records: 1,
                            ..m
                        },
                    )
                })
            })
            .collect()
    }

    /// The map the marks replace, with its index of first copies, as the log kept them.
    #[derive(Default)]
    struct Model {
        marks: BTreeMap<u64, BatchMark>,
        index: BTreeMap<(u64, u64), u64>,
    }

    impl Model {
        fn push(&mut self, o: u64, m: BatchMark) {
            if !m.duplicate {
                self.index.entry((m.producer, m.sequence)).or_insert(o);
            }
            self.marks.insert(o, m);
        }
        fn split_off(&mut self, offset: u64) -> Vec<(u64, BatchMark)> {
            let gone: Vec<_> = self.marks.split_off(&offset).into_iter().collect();
            for (o, m) in &gone {
                if self.index.get(&(m.producer, m.sequence)) == Some(o) {
                    self.index.remove(&(m.producer, m.sequence));
                }
            }
            gone
        }
    }

    #[test]
    fn marks_behave_as_the_map_and_index_they_replace() {
        let mut rng = Rng::new(7);
        for round in 0..20 {
            let mut marks = BatchMarks::default();
            let mut model = Model::default();
            let mut next = 0u64;
            let mut seqs = [0u64; 3];
            for _ in 0..2_000 {
                match rng.next_u64() % 10 {
                    0 => {
                        let back = rng.next_u64() % 600;
                        let offset = next.saturating_sub(back);
                        assert_eq!(expand(marks.split_off(offset)), model.split_off(offset));
                        next = offset;
                        // A producer's later batches may come again after a truncation.
                        for s in &mut seqs {
                            *s = s.saturating_sub(rng.next_u64() % 4);
                        }
                    }
                    _ => {
                        let p = rng.next_u64() % 3;
                        let retry = rng.next_u64() % 5 == 0 && seqs[p as usize] > 0;
                        let seq = if retry {
                            seqs[p as usize] - 1 - rng.next_u64() % seqs[p as usize].min(8)
                        } else {
                            seqs[p as usize] += 1;
                            seqs[p as usize]
                        };
                        let dup = marks.first_copy(p, seq).is_some();
                        assert_eq!(
                            marks.first_copy(p, seq),
                            model.index.get(&(p, seq)).copied(),
                            "round {round}: first copy of ({p}, {seq})"
                        );
                        next += 1 + rng.next_u64() % 3;
                        marks.push(next, mark(p, seq, dup));
                        model.push(next, mark(p, seq, dup));
                    }
                }
                assert_eq!(expand(marks.iter().copied()).len(), model.marks.len());
                assert!(marks.len() <= model.marks.len());
            }
            let all: Vec<_> = model.marks.iter().map(|(o, m)| (*o, *m)).collect();
            assert_eq!(expand(marks.iter().copied()), all);
            for from in [0, next / 3, next / 2, next, next + 1] {
                let want: Vec<_> = model.marks.range(from..).map(|(o, m)| (*o, *m)).collect();
                assert_eq!(expand(marks.from(from)), want);
            }
        }
    }

    #[test]
    fn a_clone_shares_the_sealed_chunks_and_a_fork_does_not_disturb_it() {
        // Batches a record apart in the log (another producer's between them): one mark each.
        let mut a = BatchMarks::default();
        for o in 0..1_000 {
            a.push(2 * o, mark(1, o, false));
        }
        let b = a.clone();
        assert!(Arc::ptr_eq(&a.sealed[0], &b.sealed[0]));
        a.split_off(1_000);
        a.push(1_000, mark(2, 0, false));
        assert_eq!(b.len(), 1_000);
        assert_eq!(b.get(1_400).map(|m| m.producer), Some(1));
        assert_eq!(a.len(), 501);
        assert_eq!(a.get(1_000).map(|m| m.producer), Some(2));
        assert_eq!(a.first_copy(1, 700), None);
        assert_eq!(b.first_copy(1, 700), Some(1_400));
    }

    #[test]
    fn a_steady_stream_keeps_one_mark_and_finds_each_batch_in_it() {
        let batch = |sequence| BatchMark {
            producer: 1,
            sequence,
            records: 3,
            duplicate: false,
        };
        let mut a = BatchMarks::default();
        for k in 0..1_000 {
            a.push(3 * k, batch(3 * k));
        }
        assert_eq!(a.len(), 1);
        assert_eq!(a.first_copy(1, 0), Some(0));
        assert_eq!(a.first_copy(1, 2_997), Some(2_997));
        assert_eq!(a.first_copy(1, 3_000), None);
        assert_eq!(a.first_copy(2, 3), None);
        // A fetch from inside the run gets its rest; a follower that writes it gets one mark.
        let rest: Vec<_> = a.from(1_500).collect();
        assert_eq!(
            rest,
            vec![(
                1_500,
                BatchMark {
                    sequence: 1_500,
                    records: 1_500,
                    ..batch(0)
                }
            )]
        );
        let mut follower = BatchMarks::default();
        for (o, m) in a.from(0).take_while(|(o, _)| *o < 1_500) {
            follower.push(
                o,
                BatchMark {
                    records: m.records.min(1_500 - o),
                    ..m
                },
            );
        }
        follower.push(1_500, rest[0].1);
        assert_eq!(follower, a);
        // A retry written again is a mark of its own; truncation cuts the run.
        a.push(
            3_000,
            BatchMark {
                duplicate: true,
                ..batch(300)
            },
        );
        assert_eq!(a.len(), 2);
        assert_eq!(a.first_copy(1, 300), Some(300));
        let gone = a.split_off(1_500);
        assert_eq!(gone.len(), 2);
        assert_eq!(gone[0], rest[0]);
        assert_eq!(a.len(), 1);
        assert_eq!(a.first_copy(1, 1_497), Some(1_497));
        assert_eq!(a.first_copy(1, 1_500), None);
        // The stream goes on: the run grows again.
        a.push(1_500, batch(1_500));
        assert_eq!(a.len(), 1);
        assert_eq!(a.first_copy(1, 1_500), Some(1_500));
    }
}
