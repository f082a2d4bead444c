//! The sender (`Sender.sendProducerData`): draining the accumulator into produce requests
//! (`RecordAccumulator.drain`, `Sender.sendProduceRequests`), one batch of a partition per
//! request and at most `max.in.flight.requests.per.connection` requests on a connection, and
//! the sender's next wake-up.

use super::causes::ProducerCause;
use super::client::{client, producer_id};
use super::client_state::{Blocked, InFlight};
use super::{Brokers, Producer, ProducerOut};
use crate::sim::config::{Settings, MAX_IN_FLIGHT_PER_CONNECTION};
use crate::sim::message::{Body, ProduceBatch};
use crate::sim::rng::Rng;
use crate::sim::topic::{Acks, TopicPartition};

impl Producer {
    /// `RecordAccumulator.drain` and `Sender.sendProduceRequests` (0.10.2.2 to 3.9.0): a
    /// partition whose first batch backs off sends nothing (`first.attempts > 0 &&
    /// waitedTimeMs < retryBackoffMs`; 3.7+ `shouldBackoff`, skipped once the leader changed);
    /// a connection takes at most `max.in.flight.requests.per.connection` requests
    /// (`InFlightRequests.canSendMore`); one request carries one batch of a partition.
    pub(super) fn drain(
        &mut self,
        now: u64,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        self.blocked.clear();
        let keys: Vec<(TopicPartition, Acks)> = self
            .queues
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            let (tp, acks) = key.clone();
            let cfg = client(settings, acks);
            while let Some(first) = self.queues.get(&key).and_then(|q| q.front()) {
                let Some(&(leader, epoch)) = self.metadata.leaders.get(&tp) else {
                    self.metadata.update_requested = true;
                    self.blocked.insert(key.clone(), Blocked::NoLeader(None));
                    break;
                };
                let Some(leader) = leader else {
                    // `RecordAccumulator.ready`: an unknown leader asks for a refresh.
                    self.metadata.update_requested = true;
                    self.blocked.insert(key.clone(), Blocked::NoLeader(None));
                    break;
                };
                if first.retries > 0 && now < first.backoff_until_ms {
                    let new_leader = settings.profile.skips_backoff_on_new_leader()
                        && first.sent_epoch.is_some_and(|e| epoch > e);
                    if !new_leader {
                        self.blocked.insert(key.clone(), Blocked::Backoff);
                        break;
                    }
                }
                let key_in_flight = self
                    .in_flight
                    .values()
                    .filter(|f| f.batch.tp == tp && f.batch.acks == acks)
                    .count();
                // An idempotent producer sends a retried batch only as the first of its
                // partition in flight (`shouldStopDrainBatchesForPartition`).
                if cfg.idempotent && first.retries > 0 && key_in_flight > 0 {
                    self.blocked.insert(key.clone(), Blocked::Behind);
                    break;
                }
                let Some(conn) = self.connect(now, acks, leader, brokers, settings, rng) else {
                    self.blocked
                        .insert(key.clone(), Blocked::NoLeader(Some(leader)));
                    break;
                };
                let on_conn = self
                    .in_flight
                    .values()
                    .filter(|f| f.batch.acks == acks && f.broker == leader)
                    .count();
                if on_conn >= MAX_IN_FLIGHT_PER_CONNECTION {
                    self.blocked.insert(key.clone(), Blocked::Behind);
                    break;
                }
                let mut batch = self
                    .queues
                    .get_mut(&key)
                    .and_then(|q| q.pop_front())
                    .expect("looked at above");
                batch.sent_epoch = Some(epoch);
                self.next_request += 1;
                let request = self.next_request;
                out.sends.push((
                    leader,
                    Body::Produce {
                        request,
                        tp: tp.clone(),
                        records: batch.records,
                        acks,
                        batch: ProduceBatch {
                            producer: producer_id(acks),
                            sequence: batch.sequence,
                            idempotent: cfg.idempotent,
                        },
                        conn,
                    },
                ));
                // acks=0: done once sent (`handleProduceResponse`, "the acks = 0 case").
                if acks == Acks::Zero {
                    self.recovered(
                        key.clone(),
                        ProducerCause::SentAgainAcksZero { leader },
                        out,
                    );
                } else {
                    let timeout_ms = now + cfg.request_timeout_ms;
                    out.timeouts.push((timeout_ms, request));
                    self.in_flight.insert(
                        request,
                        InFlight {
                            batch,
                            broker: leader,
                            timeout_ms,
                            expired: false,
                        },
                    );
                }
            }
        }
    }

    /// Asks for a wake-up at the next moment the sender has something to do.
    pub(super) fn schedule(&mut self, now: u64, settings: &Settings, out: &mut ProducerOut) {
        let mut next: Option<u64> = None;
        let mut at = |t: u64| {
            if t > now {
                next = Some(next.map_or(t, |n| n.min(t)));
            }
        };
        for (key, q) in &self.queues {
            let Some(first) = q.front() else {
                continue;
            };
            let cfg = client(settings, key.1);
            at(Self::expiry(first, &cfg, settings));
            match self.blocked.get(key) {
                Some(Blocked::Backoff) => at(first.backoff_until_ms),
                Some(Blocked::NoLeader(b)) => {
                    at(self.metadata.next_allowed_ms);
                    if let Some(r) = b.and_then(|b| self.refused.get(&b)) {
                        at(r.until_ms);
                    }
                }
                Some(Blocked::Behind) | None => {}
            }
        }
        for f in self.in_flight.values().filter(|f| !f.expired) {
            if let Some(d) = client(settings, f.batch.acks).delivery_timeout_ms {
                at(f.batch.created_ms + d);
            }
        }
        if let Some(t) = next {
            if self.wake_at.is_none_or(|w| w <= now || t < w) {
                self.wake_at = Some(t);
                out.wake = Some(t);
            }
        }
    }
}
