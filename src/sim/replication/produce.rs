//! Produce requests on the leader: appends, acks, `DelayedProduce`, and the high watermark that completes them (`Partition.appendRecordsToLeader`, `maybeIncrementLeaderHW`).

use super::causes::ReplicationCause;
use super::timers::ReplicaTimer;
use super::{ReplicaManager, Role, WaitingProduce};
use crate::sim::config::Settings;
use crate::sim::event::EventKind;
use crate::sim::log::BatchMark;
use crate::sim::message::{Body, KafkaError, Out, ProduceBatch, Timer};
use crate::sim::net::Endpoint;
use crate::sim::topic::{Acks, TopicPartition};

impl ReplicaManager<'_> {
    /// `appendRecordsToLeader`, with acks and `min.insync.replicas` (`Partition`), and the
    /// producer state check of `Log.append` (2.4.1) / `UnifiedLog.append` (3.9.0): the batch of
    /// an idempotent producer that the log already holds is not written again.
    #[inline(never)]
    pub(crate) fn on_produce(
        &mut self,
        now: u64,
        from: Endpoint,
        (request, tp, records, acks, batch): (u64, TopicPartition, u64, Acks, ProduceBatch),
        settings: &Settings,
        out: &mut Out,
    ) {
        let min_isr = self.min_insync(settings, &tp);
        let reply = |result: Result<(u64, u64), KafkaError>, out: &mut Out| {
            if acks != Acks::Zero {
                out.send(
                    Endpoint::Broker(self.id),
                    from,
                    Body::ProduceResponse {
                        request,
                        tp: tp.clone(),
                        result,
                    },
                );
            }
        };
        let Some((epoch, isr_len)) = self.replicas.get(&tp).and_then(|r| {
            r.state.as_ref().and_then(|s| match s.role {
                Role::Leader(_) => Some((s.leader_epoch, s.isr.len())),
                Role::Follower { .. } => None,
            })
        }) else {
            reply(Err(KafkaError::NotLeaderOrFollower), out);
            return;
        };
        // `Partition.appendRecordsToLeader`: checked before the log looks at the batch.
        if acks == Acks::All && isr_len < min_isr {
            reply(Err(KafkaError::NotEnoughReplicas), out);
            return;
        }
        let id = self.id;
        let replica = self.replicas.get_mut(&tp).expect("checked above");
        // `analyzeAndValidateProducerState` (0.11+, KIP-98): a client batch of an idempotent
        // producer is looked up among the last batches of its producer id
        // (`ProducerStateEntry.findDuplicateBatch`, the last NUM_BATCHES_TO_RETAIN = 5); the
        // producer never has more than 5 in flight, so those always hold a retried one. The
        // answer carries the offsets of the copy the log has. Followers build the same
        // producer state from the batches they replicate, so a new leader knows them too.
        let held = if batch.idempotent {
            replica.log.find_batch(batch.producer, batch.sequence)
        } else {
            None
        };
        let (base, end, base_epoch) = match held {
            Some(first) => {
                let first_epoch = replica.log.epoch_at(first).unwrap_or(epoch);
                out.event(
                    EventKind::DuplicateDropped {
                        broker: id,
                        partition: tp.to_string(),
                        offset: first,
                        records,
                    },
                    ReplicationCause::DuplicateDropped {
                        producer_id: batch.producer,
                        sequence: batch.sequence,
                        first_epoch,
                    },
                );
                (first, first + records, first_epoch)
            }
            None => {
                let (base, first) = replica.log.append_batch(
                    epoch,
                    BatchMark {
                        producer: batch.producer,
                        sequence: batch.sequence,
                        records,
                        duplicate: false,
                    },
                );
                if let Some(first) = first {
                    out.event(
                        EventKind::DuplicateWritten {
                            broker: id,
                            partition: tp.to_string(),
                            from_offset: base,
                            to_offset: base + records,
                            records,
                            first_offset: first,
                        },
                        ReplicationCause::DuplicateWritten,
                    );
                }
                (base, replica.log.leo, epoch)
            }
        };
        match acks {
            Acks::Zero => {}
            Acks::One => reply(Ok((base, base_epoch)), out),
            Acks::All => {
                // `ReplicaManager.appendRecords`: a DelayedProduce waits until the high
                // watermark passes the batch (for a duplicate, the copy the log holds).
                self.waiting_produce.insert(
                    request,
                    WaitingProduce {
                        tp: tp.clone(),
                        end,
                        base: (base, base_epoch),
                        from,
                    },
                );
                out.timer(
                    now + settings.request_timeout_ms,
                    self.me(),
                    Timer::Replica(ReplicaTimer::ProduceTimeout { request }),
                );
            }
        }
        self.maybe_advance_hw(now, &tp, settings, out);
        if held.is_none() {
            self.answer_delayed_fetches(now, &tp, settings, out);
        }
    }

    /// After the leader appended on its own (a group record): advance the high watermark and
    /// answer held fetches.
    pub(crate) fn after_append(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
        self.maybe_advance_hw(now, tp, settings, out);
        self.answer_delayed_fetches(now, tp, settings, out);
    }

    pub(crate) fn on_produce_timeout(&mut self, request: u64, out: &mut Out) {
        if let Some(w) = self.waiting_produce.remove(&request) {
            out.send(
                self.me(),
                w.from,
                Body::ProduceResponse {
                    request,
                    tp: w.tp,
                    result: Err(KafkaError::RequestTimedOut),
                },
            );
        }
    }

    pub(super) fn fail_waiting_produce(
        &mut self,
        tp: &TopicPartition,
        error: KafkaError,
        out: &mut Out,
    ) {
        let ids: Vec<u64> = self
            .waiting_produce
            .iter()
            .filter(|(_, w)| w.tp == *tp)
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            let w = self.waiting_produce.remove(&id).expect("listed above");
            out.send(
                self.me(),
                w.from,
                Body::ProduceResponse {
                    request: id,
                    tp: w.tp,
                    result: Err(error),
                },
            );
        }
    }

    /// `maybeIncrementLeaderHW`: the high watermark is the smallest log end offset in the ISR
    /// (from 3.7 it stays put while the ISR is smaller than `min.insync.replicas`). Waiting
    /// acks=all produces complete when it passes them.
    pub(super) fn maybe_advance_hw(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
        let min_isr = self.min_insync(settings, tp);
        let id = self.id;
        let Some(replica) = self.replicas.get_mut(tp) else {
            return;
        };
        let Some(st) = replica.state.as_ref() else {
            return;
        };
        let Role::Leader(ls) = &st.role else {
            return;
        };
        if settings.profile.freezes_hw_under_min_isr() && st.isr.len() < min_isr {
            return;
        }
        let isr_len = st.isr.len();
        // The "maximal ISR": a follower whose addition is still on its way to ZooKeeper already
        // holds the high watermark back (KIP-497), so it never joins below it. Only assigned
        // replicas count (`remoteReplicasMap`, 3.9.0; `assignedReplicas`, 2.0.1): a replica a
        // reassignment removed may linger in the ISR until the controller takes it out.
        let hw = st
            .isr
            .iter()
            .chain(ls.pending_isr.iter().flatten())
            .filter_map(|r| {
                if *r == id {
                    Some(replica.log.leo)
                } else {
                    ls.followers.get(r).map(|p| p.leo)
                }
            })
            .min()
            .unwrap_or(replica.log.leo)
            .min(replica.log.leo);
        if hw > replica.log.hw {
            replica.log.hw = hw;
        }
        let hw = replica.log.hw;
        if !self.coordinator.writes.is_empty() {
            self.with_coordinator(now, settings, out, |c| c.complete_writes(tp, hw));
        }
        let done: Vec<u64> = self
            .waiting_produce
            .iter()
            .filter(|(_, w)| w.tp == *tp && w.end <= hw)
            .map(|(id, _)| *id)
            .collect();
        for request in done {
            let w = self.waiting_produce.remove(&request).expect("listed above");
            let result = if isr_len < min_isr {
                Err(KafkaError::NotEnoughReplicasAfterAppend)
            } else {
                Ok(w.base)
            };
            out.send(
                Endpoint::Broker(id),
                w.from,
                Body::ProduceResponse {
                    request,
                    tp: w.tp,
                    result,
                },
            );
        }
    }
}
