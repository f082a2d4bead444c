//! A replica's log as the model keeps it: not the records themselves but, per leader epoch,
//! the offset where that epoch's records begin (Kafka's leader-epoch cache,
//! `LeaderEpochFileCache`, KIP-101), the log end offset and the high watermark.
//!
//! A record is identified by its offset and the leader epoch it was written in: two logs that
//! hold the same epoch at an offset hold the same record there.

pub use super::batch_marks::BatchMark;
use super::batch_marks::BatchMarks;
use super::coordinator::state::GroupRecord;
use std::sync::Arc;

/// The content of a record the model keeps: a group's record, shared, so that copying a log,
/// a fetch answer or a world copies no record.
pub type Payload = Arc<GroupRecord>;

/// One replica's log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Log {
    /// `(leader epoch, start offset)` of each run of records, oldest first, with growing
    /// offsets; no run is empty.
    pub epochs: Vec<(u64, u64)>,
    /// Log end offset: the offset the next record gets.
    pub leo: u64,
    /// High watermark: records below it are committed.
    pub hw: u64,
    /// The few records whose content the model needs (the group coordinator's group
    /// metadata in `__consumer_offsets`), by offset.
    pub payloads: crate::collections::VecMap<u64, Payload>,
    /// Each producer batch in the log by its base offset: which producer sent it and with
    /// what sequence. Replicated with the records and truncated with them, like the producer
    /// state Kafka rebuilds from the log (`ProducerStateManager`).
    batches: BatchMarks,
    /// Records in the log that are a second (or later) copy of a batch.
    duplicate_records: u64,
}

/// A run of records all written in one leader epoch: offsets `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// The leader epoch they were written in.
    pub epoch: u64,
    /// The first offset.
    pub start: u64,
    /// One past the last offset.
    pub end: u64,
}

impl Log {
    /// Appends `n` records written in leader epoch `epoch`; returns their first offset.
    pub fn append(&mut self, epoch: u64, n: u64) -> u64 {
        let base = self.leo;
        if n == 0 {
            return base;
        }
        if self.epochs.last().map(|(e, _)| *e) != Some(epoch) {
            self.epochs.push((epoch, base));
        }
        self.leo += n;
        base
    }

    /// Appends one record with a payload; returns its offset.
    pub fn append_payload(&mut self, epoch: u64, payload: Payload) -> u64 {
        let offset = self.append(epoch, 1);
        self.payloads.insert(offset, payload);
        offset
    }

    /// Appends a producer batch of `mark.records` records in leader epoch `epoch`; returns its
    /// base offset and, when the log already held the batch, the base offset of the first copy
    /// (the new copy is then marked as a duplicate).
    pub fn append_batch(&mut self, epoch: u64, mark: BatchMark) -> (u64, Option<u64>) {
        let first = self.find_batch(mark.producer, mark.sequence);
        let base = self.append(epoch, mark.records);
        if mark.records > 0 {
            self.add_batch(
                base,
                BatchMark {
                    duplicate: first.is_some(),
                    ..mark
                },
            );
        }
        (base, first)
    }

    /// The base offset of the first copy of the batch (`producer`, `sequence`) in this log.
    pub fn find_batch(&self, producer: u64, sequence: u64) -> Option<u64> {
        self.batches.first_copy(producer, sequence)
    }

    fn add_batch(&mut self, base: u64, mark: BatchMark) {
        if mark.duplicate {
            self.duplicate_records += mark.records;
        }
        self.batches.push(base, mark);
    }

    /// The batch marks at `offset` and beyond (for a fetch answer).
    pub fn batches_from(&self, offset: u64) -> Vec<(u64, BatchMark)> {
        self.batches.from(offset).collect()
    }

    /// Takes the batch marks a fetch brought, for the records at `from` and beyond that this
    /// log now holds.
    pub fn add_fetched_batches(&mut self, from: u64, marks: &[(u64, BatchMark)]) {
        for (o, m) in marks {
            if *o >= from && *o < self.leo {
                // A run the leader had extended past what this log holds is cut at its end.
                let records = m.records.min(self.leo - o);
                self.add_batch(*o, BatchMark { records, ..*m });
            }
        }
    }

    /// Records in the log that are a second copy of a batch already in it.
    pub fn duplicate_records(&self) -> u64 {
        self.duplicate_records
    }

    /// How many marks of producer batches the log holds (a run of batches is one).
    pub fn batch_count(&self) -> usize {
        self.batches.len()
    }

    /// The payloads at `offset` and beyond.
    pub fn payloads_from(&self, offset: u64) -> Vec<(u64, Payload)> {
        self.payloads
            .range(offset..)
            .map(|(o, p)| (*o, p.clone()))
            .collect()
    }

    /// Appends runs fetched from a leader; they must start at this log's end.
    pub fn append_runs(&mut self, runs: &[Run]) {
        for r in runs {
            if r.end > r.start && r.start == self.leo {
                self.append(r.epoch, r.end - r.start);
            }
        }
    }

    /// The epoch of the record at `offset`, if the log has one there.
    pub fn epoch_at(&self, offset: u64) -> Option<u64> {
        if offset >= self.leo {
            return None;
        }
        self.epochs
            .iter()
            .rev()
            .find(|(_, start)| *start <= offset)
            .map(|(e, _)| *e)
    }

    /// The epoch of the last record.
    pub fn last_epoch(&self) -> Option<u64> {
        self.epochs.last().map(|(e, _)| *e)
    }

    /// The runs from `offset` to the end.
    pub fn runs_from(&self, offset: u64) -> Vec<Run> {
        let mut runs = Vec::new();
        for (i, (epoch, start)) in self.epochs.iter().enumerate() {
            let end = self.epochs.get(i + 1).map_or(self.leo, |(_, s)| *s);
            if end <= offset {
                continue;
            }
            runs.push(Run {
                epoch: *epoch,
                start: (*start).max(offset),
                end,
            });
        }
        runs
    }

    /// `OffsetsForLeaderEpoch` on this log: the largest epoch not above `epoch` and the offset
    /// where it ends (the start of the next epoch, or the log end). `None` when the log has
    /// nothing that old.
    pub fn end_offset_for(&self, epoch: u64) -> Option<(u64, u64)> {
        let i = self.epochs.iter().rposition(|(e, _)| *e <= epoch)?;
        let end = self.epochs.get(i + 1).map_or(self.leo, |(_, s)| *s);
        Some((self.epochs[i].0, end))
    }

    /// Removes every record at `offset` and beyond; the high watermark follows down.
    /// Returns how many records went.
    pub fn truncate_to(&mut self, offset: u64) -> u64 {
        if offset >= self.leo {
            return 0;
        }
        let gone = self.leo - offset;
        self.epochs.retain(|(_, start)| *start < offset);
        self.payloads.retain(|o, _| *o < offset);
        for (_, m) in self.batches.split_off(offset) {
            if m.duplicate {
                self.duplicate_records -= m.records;
            }
        }
        self.leo = offset;
        self.hw = self.hw.min(offset);
        gone
    }

    /// Where this log and a leader's diverge, by leader epoch (KIP-101 / KIP-279): the
    /// follower asks for the end offset of its last epoch and truncates to the smaller of that
    /// and its own end for the same epoch. `None`: nothing to truncate.
    pub fn divergence_with(&self, leader: &Log) -> Option<u64> {
        let mine = self.last_epoch()?;
        let point = match leader.end_offset_for(mine) {
            None => 0,
            Some((epoch, end)) => {
                let my_end = self.end_offset_for(epoch).map_or(0, |(_, e)| e);
                end.min(my_end)
            }
        };
        (point < self.leo).then_some(point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_keep_one_run_per_epoch() {
        let mut log = Log::default();
        assert_eq!(log.append(0, 3), 0);
        assert_eq!(log.append(0, 2), 3);
        assert_eq!(log.append(2, 1), 5);
        assert_eq!(log.epochs, vec![(0, 0), (2, 5)]);
        assert_eq!(log.leo, 6);
        assert_eq!(log.epoch_at(4), Some(0));
        assert_eq!(log.epoch_at(5), Some(2));
        assert_eq!(log.epoch_at(6), None);
        assert_eq!(
            log.runs_from(4),
            vec![
                Run {
                    epoch: 0,
                    start: 4,
                    end: 5
                },
                Run {
                    epoch: 2,
                    start: 5,
                    end: 6
                }
            ]
        );
    }

    #[test]
    fn truncation_drops_runs_and_pulls_the_high_watermark_down() {
        let mut log = Log::default();
        log.append(0, 5);
        log.append(1, 5);
        log.hw = 8;
        assert_eq!(log.truncate_to(4), 6);
        assert_eq!((log.leo, log.hw), (4, 4));
        assert_eq!(log.epochs, vec![(0, 0)]);
    }

    fn mark(producer: u64, sequence: u64, records: u64) -> BatchMark {
        BatchMark {
            producer,
            sequence,
            records,
            duplicate: false,
        }
    }

    #[test]
    fn a_batch_written_twice_is_marked_and_truncated_with_its_records() {
        let mut log = Log::default();
        assert_eq!(log.append_batch(0, mark(7, 0, 2)), (0, None));
        assert_eq!(log.append_batch(0, mark(7, 2, 3)), (2, None));
        // The second batch again (a retry): written at 5, first copy at 2.
        assert_eq!(log.append_batch(1, mark(7, 2, 3)), (5, Some(2)));
        assert_eq!(log.duplicate_records(), 3);
        assert!(log.batches.get(5).is_some_and(|m| m.duplicate));
        assert_eq!(log.find_batch(7, 2), Some(2));
        // Another producer's batch with the same sequence is not a duplicate.
        assert_eq!(log.append_batch(1, mark(8, 2, 1)), (8, None));
        assert_eq!(log.duplicate_records(), 3);
        // A follower copies the marks with the records.
        let mut follower = Log::default();
        follower.append_runs(&log.runs_from(0));
        follower.add_fetched_batches(0, &log.batches_from(0));
        assert_eq!(follower.duplicate_records(), 3);
        assert_eq!(follower.find_batch(8, 2), Some(8));
        // Truncating the duplicate takes its mark away; truncating the original too.
        log.truncate_to(5);
        assert_eq!(log.duplicate_records(), 0);
        assert_eq!(log.find_batch(7, 2), Some(2));
        assert_eq!(log.find_batch(8, 2), None);
        log.truncate_to(2);
        assert_eq!(log.find_batch(7, 2), None);
        assert_eq!(log.find_batch(7, 0), Some(0));
        assert_eq!(log.batches.len(), 1);
    }

    #[test]
    fn divergence_by_leader_epoch() {
        // The follower wrote 2 records in epoch 1 that the new leader (epoch 2) never got.
        let mut leader = Log::default();
        leader.append(1, 3);
        leader.append(2, 4);
        let mut follower = Log::default();
        follower.append(1, 5);
        assert_eq!(follower.divergence_with(&leader), Some(3));
        // A follower that is simply behind keeps everything.
        let mut behind = Log::default();
        behind.append(1, 2);
        assert_eq!(behind.divergence_with(&leader), None);
        // A leader with nothing that old: truncate everything.
        let mut fresh = Log::default();
        fresh.append(5, 1);
        let mut old = Log::default();
        old.append(3, 2);
        assert_eq!(old.divergence_with(&fresh), Some(0));
    }
}
