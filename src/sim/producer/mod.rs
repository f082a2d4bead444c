//! The producer clients and the record ledger.
//!
//! `acks` is a producer setting, so every `acks` value a scenario uses is its own producer
//! client (`KafkaProducer`), configured by the profile's defaults and the scenario's settings
//! ([`Settings::producer_client`]). Each client is modelled after Kafka's `Sender` and
//! `RecordAccumulator`:
//!
//! - A steady stream makes a batch every [`TICK_MS`]; a batch waits in the accumulator (one
//!   queue per partition, oldest first) until the sender can send it: the leader must be known
//!   from the client's metadata, the connection to it open, fewer than
//!   `max.in.flight.requests.per.connection` (5) requests out on it, and a retried batch past
//!   its backoff.
//! - The client's metadata is its own copy of the leaders (read from the brokers' metadata
//!   caches, the newest leader epoch first). It is refreshed when a leader is missing, after a
//!   disconnect or an error that says the metadata is stale, and every `metadata.max.age.ms`;
//!   never more often than `retry.backoff.ms` (exponentially less often while nothing changes
//!   from 3.7, KIP-580).
//! - A broker whose process is gone refuses the connection: the batch stays in the accumulator
//!   (it was never sent) and the client refreshes its metadata. A connection whose broker
//!   process dies resets: every request in flight on it fails at once with NETWORK_EXCEPTION.
//!   A frozen broker keeps its connections: its requests wait for `request.timeout.ms`, after
//!   which the client closes the connection and fails every request on it.
//! - A failed batch is retried after its backoff while `retries` allows, the error is
//!   retriable and (from 2.1) `delivery.timeout.ms` has not passed since the batch was
//!   created; otherwise it fails. Before 2.1 (`retries=0` by default) a batch still waiting in
//!   the accumulator fails once it has waited longer than `request.timeout.ms`.
//! - Every batch carries its producer id and sequence. An idempotent producer's retried batch
//!   that the leader already holds is not written again; without idempotence the leader writes
//!   it a second time (the log marks the copy as a duplicate).
//!
//! The ledger remembers every acknowledged record by offset and the leader epoch it was
//! written in. After every step it compares them with the current leader's log: a record the
//! leader no longer has at that offset in that epoch is lost for good, and the cause is named
//! (an unclean election, truncation to the high watermark before 0.11, acks=1).
//!
//! The files:
//! - this one: the [`Producer`], its streams and its entry points (`send`, a stream's `tick`,
//!   the sender's wake-up, a produce response, a request timeout, the loss check);
//! - `client_state.rs`: what a client holds (batches, requests in flight, metadata, refused
//!   connections, outages);
//! - `client.rs`: a client's configuration, producer id and backoff;
//! - `errors.rs`: the client-side errors and what the client makes of each;
//! - `sender.rs`: the accumulator's drain into requests and the sender's wake-ups;
//! - `metadata.rs`: the metadata refresh;
//! - `connections.rs`: opening, watching and closing connections;
//! - `completion.rs`: acknowledgements, retries and failures;
//! - `expiry.rs`: the batches' timeouts;
//! - `ledger.rs`: the ledger and lost records;
//! - `view.rs`: the [`ProducerView`](super::state::ProducerView).

pub mod causes;

use self::causes::{ProduceError, ProducerCause};
use super::broker::Broker;
use super::cause::Cause;
use super::config::Settings;
use super::event::EventKind;
use super::message::{Body, KafkaError};
use super::net::BrokerId;
use super::replication::Role;
use super::rng::Rng;
use super::topic::{Acks, TopicPartition};
use crate::collections::{VecMap, VecSet};
use client_state::{Batch, Blocked, InFlight, Metadata, Outage, Refused};
use errors::{error_cause, NETWORK_EXCEPTION, REQUEST_TIMED_OUT};
use ledger::LeaderLog;
use std::collections::VecDeque;

mod client;
mod client_state;
mod completion;
mod connections;
mod errors;
mod expiry;
mod ledger;
mod metadata;
mod sender;
mod view;

pub use ledger::Ledger;

/// How often a steady stream sends a batch.
pub const TICK_MS: u64 = 100;

/// A steady stream of records to one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stream {
    /// The partition.
    pub tp: TopicPartition,
    /// acks.
    pub acks: Acks,
    /// Records per second.
    pub rate_per_s: u64,
    /// Stop at this time (`None`: when stopped, or when `left` runs out).
    pub until_ms: Option<u64>,
    /// Records still to send (`None`: no limit).
    pub left: Option<u64>,
    /// Fractions of records carried to the next tick, in thousandths.
    carry: u64,
}

/// The producer clients and the ledger.
#[derive(Debug, Clone, Default)]
pub struct Producer {
    /// Streams by id.
    pub streams: VecMap<u64, Stream>,
    next_stream: u64,
    /// The accumulator: batches waiting to be sent, by partition and client, oldest first.
    queues: VecMap<(TopicPartition, Acks), VecDeque<Batch>>,
    /// Why each queue's first batch waits (after the last sender run).
    blocked: VecMap<(TopicPartition, Acks), Blocked>,
    in_flight: VecMap<u64, InFlight>,
    next_request: u64,
    /// The next sequence number, by client and partition.
    sequences: VecMap<(Acks, TopicPartition), u64>,
    metadata: Metadata,
    /// Open connections by client and broker: the broker process (incarnation) they reach.
    conns: VecMap<(Acks, BrokerId), u64>,
    refused: VecMap<BrokerId, Refused>,
    /// The sender's next wake-up, if one is scheduled.
    wake_at: Option<u64>,
    outages: VecMap<(TopicPartition, Acks), Outage>,
    /// The clients that have sent anything.
    clients: VecSet<Acks>,
    /// Accounts by partition.
    pub ledgers: VecMap<TopicPartition, Ledger>,
    /// Leader epochs won by unclean elections, by partition.
    pub unclean: VecMap<TopicPartition, VecSet<u64>>,
    /// Whether acknowledgements arrived since the last loss check.
    new_acks: bool,
}

/// What the producer wants the world to do.
#[derive(Debug, Default)]
pub struct ProducerOut {
    /// (leader, request) to send from the client.
    pub sends: Vec<(BrokerId, Body)>,
    /// Client timers: (at, request id) for request timeouts.
    pub timeouts: Vec<(u64, u64)>,
    /// The sender's next wake-up.
    pub wake: Option<u64>,
    /// Events.
    pub events: Vec<(EventKind, Cause)>,
    /// Violations: (invariant, detail).
    pub violations: Vec<(String, String)>,
}

/// What the producer sees of the brokers: their metadata caches (for its metadata requests)
/// and whether a process listens on each (for its connections).
pub type Brokers = VecMap<BrokerId, Broker>;

impl Producer {
    /// Starts a stream; returns its id.
    pub fn start_stream(&mut self, stream: Stream) -> u64 {
        self.next_stream += 1;
        self.streams.insert(self.next_stream, stream);
        self.next_stream
    }

    /// A new stream description.
    pub fn stream(
        tp: TopicPartition,
        acks: Acks,
        rate_per_s: u64,
        until_ms: Option<u64>,
        left: Option<u64>,
    ) -> Stream {
        Stream {
            tp,
            acks,
            rate_per_s,
            until_ms,
            left,
            carry: 0,
        }
    }

    /// Stops every stream to `tp`; returns whether there was one.
    pub fn stop(&mut self, tp: &TopicPartition) -> bool {
        let before = self.streams.len();
        self.streams.retain(|_, s| s.tp != *tp);
        self.streams.len() != before
    }

    /// The `acks` values of the clients with a stream or batches now.
    pub fn clients_in_use(&self) -> VecSet<Acks> {
        self.streams
            .values()
            .map(|s| s.acks)
            .chain(
                self.queues
                    .iter()
                    .filter(|(_, q)| !q.is_empty())
                    .map(|((_, a), _)| *a),
            )
            .chain(self.in_flight.values().map(|f| f.batch.acks))
            .collect()
    }

    /// `KafkaProducer.send`: one batch of `records` goes to the accumulator, then the sender
    /// runs.
    #[allow(clippy::too_many_arguments)]
    pub fn send(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        records: u64,
        acks: Acks,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        if records > 0 {
            // A client's sequences on a partition only grow (never reset): the logs keep runs
            // of batches as one mark and find a batch inside its run by this (batch_marks.rs).
            let seq = self.sequences.entry((acks, tp.clone())).or_default();
            let sequence = *seq;
            *seq += records;
            self.clients.insert(acks);
            self.queues
                .entry((tp.clone(), acks))
                .or_default()
                .push_back(Batch {
                    tp: tp.clone(),
                    acks,
                    records,
                    sequence,
                    created_ms: now,
                    retries: 0,
                    last_attempt_ms: now,
                    backoff_until_ms: 0,
                    error: None,
                    sent_epoch: None,
                });
        }
        self.poll(now, brokers, settings, rng, out);
    }

    /// One tick of stream `id`; returns whether it goes on.
    pub fn tick(
        &mut self,
        now: u64,
        id: u64,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) -> bool {
        let Some(s) = self.streams.get_mut(&id) else {
            return false;
        };
        if s.until_ms.is_some_and(|u| now >= u) || s.left == Some(0) {
            let tp = s.tp.clone();
            self.streams.remove(&id);
            out.events.push((
                EventKind::ProducerStopped {
                    partition: tp.to_string(),
                },
                ProducerCause::StreamDone.into(),
            ));
            return false;
        }
        let total = s.rate_per_s * TICK_MS + s.carry;
        let mut n = total / 1000;
        s.carry = total % 1000;
        if let Some(left) = s.left.as_mut() {
            n = n.min(*left);
            *left -= n;
        }
        let (tp, acks) = (s.tp.clone(), s.acks);
        self.send(now, &tp, n, acks, brokers, settings, rng, out);
        true
    }

    /// The sender's scheduled wake-up at `at`; an outdated one is ignored.
    pub fn on_wake(
        &mut self,
        now: u64,
        at: u64,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        if self.wake_at == Some(at) {
            self.wake_at = None;
            self.poll(now, brokers, settings, rng, out);
        }
    }

    /// A produce response.
    #[allow(clippy::too_many_arguments)]
    pub fn on_response(
        &mut self,
        now: u64,
        request: u64,
        result: Result<(u64, u64), KafkaError>,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        let Some(f) = self.in_flight.remove(&request) else {
            return;
        };
        if !f.expired {
            match result {
                Ok((base, epoch)) => self.acked(f.batch, base, epoch, out),
                Err(e) => {
                    let cause = error_cause(e.name(), settings.profile);
                    self.complete_error(now, f.batch, e.name(), cause, settings, rng, out);
                }
            }
        }
        self.poll(now, brokers, settings, rng, out);
    }

    /// `request.timeout.ms` passed since `request` was sent: if it is still unanswered the
    /// client closes the connection, which fails every request on it
    /// (`NetworkClient.handleTimedOutRequests`, 0.10.2.2 to 3.9.0).
    pub fn on_request_timeout(
        &mut self,
        now: u64,
        request: u64,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        let Some(f) = self.in_flight.get(&request) else {
            return;
        };
        // 3.5+ (KAFKA-14317) reports it as REQUEST_TIMED_OUT; before, as the disconnect.
        let error = if settings.profile.reports_client_timeouts() {
            REQUEST_TIMED_OUT
        } else {
            NETWORK_EXCEPTION
        };
        let cause = if settings.profile.reports_client_timeouts() {
            error_cause(REQUEST_TIMED_OUT, settings.profile)
        } else {
            ProduceError::NoAnswerDisconnect
        };
        let key = (f.batch.acks, f.broker);
        self.disconnect(now, key, error, cause, settings, rng, out);
        self.poll(now, brokers, settings, rng, out);
    }

    /// The sender loop (`Sender.sendProducerData`): expire batches, refresh the metadata if
    /// due, send what can go, and schedule the next wake-up.
    pub fn poll(
        &mut self,
        now: u64,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        self.expire(now, settings, out);
        self.maybe_refresh(now, brokers, settings, rng);
        self.drain(now, brokers, settings, rng, out);
        self.schedule(now, settings, out);
    }

    /// Whether acknowledgements arrived since the last call.
    pub fn take_new_acks(&mut self) -> bool {
        std::mem::take(&mut self.new_acks)
    }

    /// Whether the producer has connections to watch.
    pub fn has_connections(&self) -> bool {
        !self.conns.is_empty()
    }

    /// Compares the acknowledged records with each partition's current leader log.
    pub fn check_losses(
        &mut self,
        brokers: &Brokers,
        leader_of: impl Fn(&TopicPartition) -> Option<(BrokerId, u64)>,
        settings: &Settings,
        out: &mut ProducerOut,
    ) {
        for (tp, ledger) in self.ledgers.iter_mut() {
            let Some((leader, leader_epoch)) = leader_of(tp) else {
                continue;
            };
            let Some(log) = brokers.get(&leader).and_then(|b| {
                let r = b.replicas.get(tp)?;
                let st = r.state.as_ref()?;
                (st.leader_epoch == leader_epoch && matches!(st.role, Role::Leader(_)))
                    .then_some(&r.log)
            }) else {
                continue;
            };
            let now = LeaderLog {
                leader,
                leader_epoch,
                log,
            };
            ledger.check_losses(
                tp,
                now,
                self.unclean.get(tp),
                settings.profile,
                &mut out.events,
                &mut out.violations,
            );
        }
    }
}

#[cfg(test)]
mod client_test;
#[cfg(test)]
mod completion_test;
#[cfg(test)]
mod connections_test;
#[cfg(test)]
mod expiry_test;
#[cfg(test)]
mod harness;
#[cfg(test)]
mod ledger_test;
