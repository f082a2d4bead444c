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

pub mod causes;

use self::causes::{NoRetry, ProduceError, ProducerCause, RetryBackoff};
use super::broker::{Broker, BrokerStatus};
use super::cause::Cause;
use super::config::{
    ProducerClient, Profile, Settings, MAX_IN_FLIGHT_PER_CONNECTION, METADATA_MAX_AGE_MS,
    RECONNECT_BACKOFF_MS, RETRY_BACKOFF_MAX_MS,
};
use super::event::EventKind;
use super::message::{Body, KafkaError, ProduceBatch};
use super::net::BrokerId;
use super::replication::Role;
use super::rng::Rng;
use super::state::{BatchWait, ProducerBatchView, ProducerClientView, ProducerView};
use super::topic::{Acks, TopicPartition};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

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

/// The client-side errors, named as Kafka's `Errors` name them.
const NETWORK_EXCEPTION: &str = "NETWORK_EXCEPTION";
const REQUEST_TIMED_OUT: &str = "REQUEST_TIMED_OUT";
/// A batch that reached `delivery.timeout.ms` (2.1+): Kafka fails it with a `TimeoutException`.
const DELIVERY_TIMEOUT: &str = "DELIVERY_TIMEOUT";
/// A batch that waited in the accumulator longer than `request.timeout.ms` (before 2.1): a
/// `TimeoutException` too.
const BATCH_EXPIRED: &str = "BATCH_EXPIRED";

/// A batch the producer is not done with.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Batch {
    tp: TopicPartition,
    acks: Acks,
    records: u64,
    /// Its base sequence: records the client sent to the partition before it.
    sequence: u64,
    created_ms: u64,
    /// Kafka's `attempts`: how many times the batch was put back to be sent again.
    retries: u32,
    /// When it was last put back (`lastAttemptMs`).
    last_attempt_ms: u64,
    /// When its retry backoff ends.
    backoff_until_ms: u64,
    /// The error of its last try.
    error: Option<&'static str>,
    /// The leader epoch of the leader it was last sent to.
    sent_epoch: Option<u64>,
}

/// A produce request waiting for its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
struct InFlight {
    batch: Batch,
    broker: BrokerId,
    /// When the client gives up on it (`request.timeout.ms` after it was sent).
    timeout_ms: u64,
    /// The batch already failed (`delivery.timeout.ms`); the request still holds its place on
    /// the connection until answered.
    expired: bool,
}

/// Why a queue's first batch is not being sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blocked {
    /// No leader known, or the leader's broker refuses the connection.
    NoLeader(Option<BrokerId>),
    /// The retry backoff of its first batch.
    Backoff,
    /// Behind requests in flight (the connection's limit, or an idempotent producer's retry
    /// waiting for the batches before it).
    Behind,
}

/// A client's view of the leaders (`Metadata`).
#[derive(Debug, Clone, Default)]
struct Metadata {
    /// Leader (if any) and leader epoch, by partition.
    leaders: BTreeMap<TopicPartition, (Option<BrokerId>, u64)>,
    /// The last refresh.
    last_refresh_ms: Option<u64>,
    /// A refresh was asked for.
    update_requested: bool,
    /// Refreshes in a row that brought nothing new (3.7+: they back off exponentially).
    equivalent: u32,
    /// The earliest time of the next refresh.
    next_allowed_ms: u64,
}

/// A broker that refused the connection: when to try again, and how many refusals in a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Refused {
    until_ms: u64,
    failures: u32,
}

/// The current trouble of one partition's queue: from its first error to its next
/// acknowledgement.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Outage {
    retry_error: Option<&'static str>,
    fail_error: Option<&'static str>,
    retried: u64,
    failed: u64,
}

/// An acknowledged run of records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Acked {
    start: u64,
    end: u64,
    epoch: u64,
    acks: Acks,
}

/// One partition's account.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ledger {
    acked: Vec<Acked>,
    /// Records acknowledged.
    pub acked_records: u64,
    /// Records given up (an error not retried, or a timeout).
    pub failed_records: u64,
    /// Records sent again after an error (once per retry).
    pub retried_records: u64,
    /// Acknowledged records lost.
    pub lost_records: u64,
}

/// The producer clients and the ledger.
#[derive(Debug, Clone, Default)]
pub struct Producer {
    /// Streams by id.
    pub streams: BTreeMap<u64, Stream>,
    next_stream: u64,
    /// The accumulator: batches waiting to be sent, by partition and client, oldest first.
    queues: BTreeMap<(TopicPartition, Acks), VecDeque<Batch>>,
    /// Why each queue's first batch waits (after the last sender run).
    blocked: BTreeMap<(TopicPartition, Acks), Blocked>,
    in_flight: BTreeMap<u64, InFlight>,
    next_request: u64,
    /// The next sequence number, by client and partition.
    sequences: BTreeMap<(Acks, TopicPartition), u64>,
    metadata: Metadata,
    /// Open connections by client and broker: the broker process (incarnation) they reach.
    conns: BTreeMap<(Acks, BrokerId), u64>,
    refused: BTreeMap<BrokerId, Refused>,
    /// The sender's next wake-up, if one is scheduled.
    wake_at: Option<u64>,
    outages: BTreeMap<(TopicPartition, Acks), Outage>,
    /// The clients that have sent anything.
    clients: BTreeSet<Acks>,
    /// Accounts by partition.
    pub ledgers: BTreeMap<TopicPartition, Ledger>,
    /// Leader epochs won by unclean elections, by partition.
    pub unclean: BTreeMap<TopicPartition, BTreeSet<u64>>,
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
pub type Brokers = BTreeMap<BrokerId, Broker>;

/// "Committed records survive": no acknowledged acks=all record is lost unless an unclean
/// election chose a leader that lacked it (KIP-101's whole point).
pub const ACKED_RECORDS_SURVIVE: &str = "acknowledged acks=all records survive";

/// The producer id of a client. Kafka gives one only to an idempotent producer
/// (InitProducerId); the model numbers every client so that the log can tell a duplicate.
fn producer_id(acks: Acks) -> u64 {
    match acks {
        Acks::All => 0,
        Acks::One => 1,
        Acks::Zero => 2,
    }
}

/// The client's configuration; a combination Kafka refuses (checked before a produce starts)
/// falls back to the profile's defaults without idempotence.
fn client(settings: &Settings, acks: Acks) -> ProducerClient {
    settings
        .producer_client(acks)
        .unwrap_or_else(|_| ProducerClient {
            acks,
            retries: settings.profile.default_retries(),
            idempotent: false,
            request_timeout_ms: settings.request_timeout_ms,
            retry_backoff_ms: settings.retry_backoff_ms,
            delivery_timeout_ms: settings
                .profile
                .has_delivery_timeout()
                .then(|| settings.delivery_timeout()),
        })
}

/// `ExponentialBackoff.backoff(attempts)` (3.7+): `initial * 2^attempts`, times a random
/// factor in [0.8, 1.2), at most `max`.
fn exponential(initial: u64, max: u64, attempts: u32, rng: &mut Rng) -> u64 {
    let term = initial.saturating_mul(1u64 << attempts.min(20));
    let jittered = term.saturating_mul(800 + rng.up_to(399)) / 1000;
    jittered.min(max)
}

/// Whether Kafka retries the error: its exception is a `RetriableException`
/// (`org.apache.kafka.common.errors`, the same in 0.10.2.2, 2.0.1, 2.4.1 and 3.9.0).
fn retriable(error: &str) -> bool {
    matches!(
        error,
        "NOT_LEADER_OR_FOLLOWER"
            | "LEADER_NOT_AVAILABLE"
            | "NOT_ENOUGH_REPLICAS"
            | "NOT_ENOUGH_REPLICAS_AFTER_APPEND"
            | REQUEST_TIMED_OUT
            | NETWORK_EXCEPTION
    )
}

/// Whether the error says the metadata may be stale: its exception is an
/// `InvalidMetadataException` (`NetworkException` extends it), after which
/// `Sender.completeBatch` asks for a metadata update (0.10.2.2 to 3.9.0).
fn stale_metadata(error: &str) -> bool {
    matches!(
        error,
        "NOT_LEADER_OR_FOLLOWER" | "LEADER_NOT_AVAILABLE" | NETWORK_EXCEPTION
    )
}

/// What an error means, for the event log.
fn error_cause(error: &str, profile: Profile) -> ProduceError {
    match error {
        "NOT_ENOUGH_REPLICAS" => ProduceError::NotEnoughReplicas,
        "NOT_ENOUGH_REPLICAS_AFTER_APPEND" => ProduceError::NotEnoughReplicasAfterAppend,
        "NOT_LEADER_OR_FOLLOWER" => ProduceError::NotLeaderOrFollower,
        "LEADER_NOT_AVAILABLE" => ProduceError::LeaderNotAvailable,
        REQUEST_TIMED_OUT if profile.reports_client_timeouts() => ProduceError::NoAnswer,
        REQUEST_TIMED_OUT => ProduceError::FollowersTooSlow,
        NETWORK_EXCEPTION => ProduceError::ConnectionClosed,
        DELIVERY_TIMEOUT => ProduceError::DeliveryTimeout,
        BATCH_EXPIRED => ProduceError::BatchExpired,
        _ => ProduceError::Other,
    }
}

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
    pub fn clients_in_use(&self) -> BTreeSet<Acks> {
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

    /// Connections whose broker process died (crashed or stopped, perhaps started again)
    /// reset: every request in flight on them fails at once with NETWORK_EXCEPTION
    /// (`NetworkClient.processDisconnection`, `Sender.handleProduceResponse`'s
    /// `wasDisconnected`). Returns whether any did.
    pub fn check_connections(
        &mut self,
        now: u64,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) -> bool {
        let reset: Vec<(Acks, BrokerId)> = self
            .conns
            .iter()
            .filter(|((_, b), incarnation)| {
                !brokers
                    .get(b)
                    .is_some_and(|x| x.status.is_alive() && x.incarnation == **incarnation)
            })
            .map(|(k, _)| *k)
            .collect();
        if reset.is_empty() {
            return false;
        }
        for key in reset {
            self.disconnect(
                now,
                key,
                NETWORK_EXCEPTION,
                ProduceError::LeaderDied,
                settings,
                rng,
                out,
            );
        }
        self.poll(now, brokers, settings, rng, out);
        true
    }

    /// Closes the connection `key`: its requests fail with `error`.
    #[allow(clippy::too_many_arguments)]
    fn disconnect(
        &mut self,
        now: u64,
        key: (Acks, BrokerId),
        error: &'static str,
        cause: ProduceError,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        self.conns.remove(&key);
        let requests: Vec<u64> = self
            .in_flight
            .iter()
            .filter(|(_, f)| (f.batch.acks, f.broker) == key)
            .map(|(r, _)| *r)
            .collect();
        for r in requests {
            let f = self.in_flight.remove(&r).expect("listed above");
            if !f.expired {
                self.complete_error(now, f.batch, error, cause, settings, rng, out);
            }
        }
        // `MetadataUpdater.handleServerDisconnect`: the disconnect may mean stale metadata.
        self.metadata.update_requested = true;
    }

    /// `Sender.completeBatch` with an error: retry or fail. `canRetry` is
    /// `attempts < retries` and a retriable error in 0.10.2.2 and 2.0.1; from 2.1 (2.4.1,
    /// 3.9.0) also not `hasReachedDeliveryTimeout`.
    #[allow(clippy::too_many_arguments)]
    fn complete_error(
        &mut self,
        now: u64,
        mut batch: Batch,
        error: &'static str,
        cause: ProduceError,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        let cfg = client(settings, batch.acks);
        let profile = settings.profile;
        // `hasReachedDeliveryTimeout`: deliveryTimeoutMs <= now - createdMs.
        let timed_out = cfg
            .delivery_timeout_ms
            .is_some_and(|d| now.saturating_sub(batch.created_ms) >= d);
        if stale_metadata(error) {
            self.metadata.update_requested = true;
            if error == "NOT_LEADER_OR_FOLLOWER" && profile.skips_backoff_on_new_leader() {
                // KIP-951: the answer names the current leader; the client takes it at once.
                self.metadata.next_allowed_ms = now;
            }
        }
        if retriable(error) && batch.retries < cfg.retries && !timed_out {
            // `RecordAccumulator.reenqueue`: back to the front of the queue (`addFirst`; in
            // sequence order for an idempotent producer, `insertInSequenceOrder`), with
            // `lastAttemptMs = now`; the backoff is `retry.backoff.ms`, from 3.7
            // `retryBackoff.backoff(attempts - 1)` (KIP-580).
            batch.retries += 1;
            batch.last_attempt_ms = now;
            batch.backoff_until_ms = now
                + if profile.exponential_retry_backoff() {
                    exponential(
                        cfg.retry_backoff_ms,
                        RETRY_BACKOFF_MAX_MS,
                        batch.retries - 1,
                        rng,
                    )
                } else {
                    cfg.retry_backoff_ms
                };
            batch.error = Some(error);
            let records = batch.records;
            let tp = batch.tp.clone();
            let key = (tp.clone(), batch.acks);
            let queue = self.queues.entry(key.clone()).or_default();
            let at = queue.partition_point(|b| b.sequence < batch.sequence);
            queue.insert(at, batch);
            self.ledgers.entry(tp.clone()).or_default().retried_records += records;
            let outage = self.outages.entry(key).or_default();
            outage.retried += records;
            if outage.retry_error != Some(error) {
                outage.retry_error = Some(error);
                let backoff = if profile.exponential_retry_backoff() {
                    RetryBackoff::Exponential {
                        backoff_ms: cfg.retry_backoff_ms,
                        max_ms: RETRY_BACKOFF_MAX_MS,
                    }
                } else {
                    RetryBackoff::Fixed {
                        backoff_ms: cfg.retry_backoff_ms,
                    }
                };
                out.events.push((
                    EventKind::ProduceRetrying {
                        partition: tp.to_string(),
                        error: error.to_string(),
                        records,
                    },
                    ProducerCause::Retrying {
                        error: cause,
                        retries: cfg.retries,
                        delivery_timeout_ms: cfg.delivery_timeout_ms,
                        backoff,
                        idempotent: cfg.idempotent,
                    }
                    .into(),
                ));
            }
        } else {
            let because = if !retriable(error) {
                NoRetry::NotRetriable
            } else if timed_out {
                NoRetry::DeliveryTimeoutPassed {
                    delivery_timeout_ms: cfg.delivery_timeout_ms.unwrap_or_default(),
                }
            } else if cfg.retries == 0 {
                NoRetry::NoRetries
            } else {
                NoRetry::RetriesUsedUp {
                    retries: cfg.retries,
                }
            };
            self.failed(
                batch,
                error,
                ProducerCause::GaveUp {
                    error: cause,
                    because,
                },
                out,
            );
        }
    }

    /// A batch given up.
    fn failed(
        &mut self,
        batch: Batch,
        error: &'static str,
        cause: ProducerCause,
        out: &mut ProducerOut,
    ) {
        let ledger = self.ledgers.entry(batch.tp.clone()).or_default();
        ledger.failed_records += batch.records;
        let outage = self
            .outages
            .entry((batch.tp.clone(), batch.acks))
            .or_default();
        outage.failed += batch.records;
        if outage.fail_error != Some(error) {
            outage.fail_error = Some(error);
            out.events.push((
                EventKind::ProduceFailed {
                    partition: batch.tp.to_string(),
                    error: error.to_string(),
                    records: batch.records,
                },
                cause.into(),
            ));
        }
    }

    /// An acknowledged batch.
    fn acked(&mut self, batch: Batch, base: u64, epoch: u64, out: &mut ProducerOut) {
        let ledger = self.ledgers.entry(batch.tp.clone()).or_default();
        ledger.acked_records += batch.records;
        match ledger.acked.last_mut() {
            Some(last) if last.end == base && last.epoch == epoch && last.acks == batch.acks => {
                last.end = base + batch.records
            }
            _ => ledger.acked.push(Acked {
                start: base,
                end: base + batch.records,
                epoch,
                acks: batch.acks,
            }),
        }
        self.new_acks = true;
        self.recovered(
            (batch.tp, batch.acks),
            ProducerCause::AckedAgain {
                offset: base,
                leader_epoch: epoch,
            },
            out,
        );
    }

    /// The end of a queue's outage, if it had one.
    fn recovered(
        &mut self,
        key: (TopicPartition, Acks),
        cause: ProducerCause,
        out: &mut ProducerOut,
    ) {
        if let Some(o) = self.outages.remove(&key) {
            out.events.push((
                EventKind::ProduceRecovered {
                    partition: key.0.to_string(),
                    retried: o.retried,
                    failed: o.failed,
                },
                cause.into(),
            ));
        }
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

    /// When a batch waiting in the accumulator expires: 2.1+ `hasReachedDeliveryTimeout`
    /// (`ProducerBatch`, 2.4.1, 3.9.0); before, `maybeExpire` (`RecordBatch` in 0.10.2.2,
    /// `ProducerBatch` in 2.0.1, with `linger.ms` 0).
    fn expiry(batch: &Batch, cfg: &ProducerClient, settings: &Settings) -> u64 {
        match cfg.delivery_timeout_ms {
            Some(d) => batch.created_ms + d,
            // `maybeExpire`: expired once requestTimeoutMs < now - createdMs (a first try),
            // or < now - (lastAttemptMs + retryBackoffMs) (a retry).
            None if batch.retries == 0 => batch.created_ms + cfg.request_timeout_ms + 1,
            None => batch.last_attempt_ms + settings.retry_backoff_ms + cfg.request_timeout_ms + 1,
        }
    }

    fn expire(&mut self, now: u64, settings: &Settings, out: &mut ProducerOut) {
        let keys: Vec<(TopicPartition, Acks)> = self
            .queues
            .iter()
            .filter(|(k, q)| {
                q.front()
                    .is_some_and(|b| Self::expiry(b, &client(settings, k.1), settings) <= now)
            })
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            let cfg = client(settings, key.1);
            // `RecordAccumulator.expiredBatches` (2.1+) / `abortExpiredBatches` (before):
            // oldest first, stopping at the first batch that has not expired.
            while let Some(first) = self.queues.get(&key).and_then(|q| q.front()) {
                if Self::expiry(first, &cfg, settings) > now {
                    break;
                }
                let batch = self
                    .queues
                    .get_mut(&key)
                    .and_then(|q| q.pop_front())
                    .expect("looked at above");
                let (error, cause) = if cfg.delivery_timeout_ms.is_some() {
                    (
                        DELIVERY_TIMEOUT,
                        ProducerCause::ExpiredQueued {
                            delivery_timeout_ms: cfg.delivery_timeout_ms.unwrap_or_default(),
                        },
                    )
                } else {
                    (
                        BATCH_EXPIRED,
                        ProducerCause::ExpiredInAccumulator {
                            request_timeout_ms: cfg.request_timeout_ms,
                        },
                    )
                };
                self.failed(batch, error, cause, out);
            }
        }
        // `Sender.getExpiredInflightBatches` (2.1+): a batch in flight fails at its delivery
        // timeout too; its request keeps its place until answered.
        let expired: Vec<u64> = self
            .in_flight
            .iter()
            .filter(|(_, f)| {
                !f.expired
                    && client(settings, f.batch.acks)
                        .delivery_timeout_ms
                        .is_some_and(|d| f.batch.created_ms + d <= now)
            })
            .map(|(r, _)| *r)
            .collect();
        for r in expired {
            let f = self.in_flight.get_mut(&r).expect("listed above");
            f.expired = true;
            let batch = f.batch.clone();
            let d = client(settings, batch.acks)
                .delivery_timeout_ms
                .unwrap_or_default();
            self.failed(
                batch,
                DELIVERY_TIMEOUT,
                ProducerCause::ExpiredInFlight {
                    delivery_timeout_ms: d,
                },
                out,
            );
        }
    }

    /// The leader of `tp` as the brokers' metadata caches say: the newest leader epoch any
    /// running broker knows (a frozen broker answers nothing). `None` if none knows the
    /// partition.
    fn lookup(brokers: &Brokers, tp: &TopicPartition) -> Option<(Option<BrokerId>, u64)> {
        brokers
            .values()
            .filter(|b| matches!(b.status, BrokerStatus::Running | BrokerStatus::ShuttingDown))
            .filter_map(|b| b.metadata_partitions.get(tp))
            .max_by_key(|p| p.leader_epoch)
            .map(|p| (BrokerId::try_from(p.leader).ok(), p.leader_epoch))
    }

    /// `Metadata.timeToNextUpdate`: refreshes when a leader is missing, when asked for (no
    /// sooner than the refresh backoff: `retry.backoff.ms` in 0.10.2.2 to 2.4.1;
    /// `timeToAllowUpdate` with `equivalentResponseCount` from 3.7, 3.9.0) and every
    /// `metadata.max.age.ms`.
    fn maybe_refresh(&mut self, now: u64, brokers: &Brokers, settings: &Settings, rng: &mut Rng) {
        let missing = self
            .queues
            .iter()
            .any(|((tp, _), q)| !q.is_empty() && !self.metadata.leaders.contains_key(tp));
        let m = &mut self.metadata;
        let aged = m
            .last_refresh_ms
            .is_some_and(|t| now >= t + METADATA_MAX_AGE_MS);
        let asked = m.update_requested && now >= m.next_allowed_ms;
        if !(missing || aged || asked) {
            return;
        }
        let wanted: BTreeSet<TopicPartition> = self
            .queues
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|((tp, _), _)| tp.clone())
            .collect();
        let m = &mut self.metadata;
        let mut news = false;
        let known: Vec<TopicPartition> = m.leaders.keys().cloned().collect();
        for tp in wanted.into_iter().chain(known) {
            let Some((leader, epoch)) = Self::lookup(brokers, &tp) else {
                continue;
            };
            match m.leaders.get(&tp) {
                // KIP-320's rule: metadata with an older leader epoch is ignored.
                Some((_, old)) if *old > epoch => {}
                Some(old) if *old == (leader, epoch) => {}
                _ => {
                    news = true;
                    m.leaders.insert(tp, (leader, epoch));
                }
            }
        }
        m.equivalent = if news { 0 } else { m.equivalent + 1 };
        m.update_requested = false;
        m.last_refresh_ms = Some(now);
        // The refresh backoff: `retry.backoff.ms`; from 3.7 (KIP-580) it doubles with every
        // refresh that brings nothing new, up to `retry.backoff.max.ms`.
        let backoff = if settings.profile.exponential_retry_backoff() {
            exponential(
                settings.retry_backoff_ms,
                RETRY_BACKOFF_MAX_MS,
                m.equivalent.saturating_sub(1),
                rng,
            )
        } else {
            settings.retry_backoff_ms
        };
        m.next_allowed_ms = now + backoff;
    }

    /// Opens a connection to `broker` for client `acks` (`NetworkClient.ready` /
    /// `initiateConnect`): a process that listens accepts it (a frozen one too: its kernel
    /// does); a broker whose process is gone refuses it, which `NetworkClient` handles as a
    /// disconnect (a metadata update), and the client waits `reconnect.backoff.ms` before it
    /// tries that broker again (`ClusterConnectionStates`: flat in 0.10.2.2, exponential from
    /// 0.11, KIP-144). The batch stays in the accumulator: it was never sent.
    fn connect(
        &mut self,
        now: u64,
        acks: Acks,
        broker: BrokerId,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
    ) -> Option<u64> {
        if let Some(c) = self.conns.get(&(acks, broker)) {
            return Some(*c);
        }
        if self.refused.get(&broker).is_some_and(|r| now < r.until_ms) {
            return None;
        }
        match brokers.get(&broker).filter(|b| b.status.is_alive()) {
            Some(b) => {
                self.refused.remove(&broker);
                self.conns.insert((acks, broker), b.incarnation);
                Some(b.incarnation)
            }
            None => {
                let r = self.refused.entry(broker).or_insert(Refused {
                    until_ms: now,
                    failures: 0,
                });
                let (initial, max) = RECONNECT_BACKOFF_MS;
                let backoff = if settings.profile.exponential_reconnect_backoff() {
                    exponential(initial, max, r.failures, rng)
                } else {
                    initial
                };
                r.failures += 1;
                r.until_ms = now + backoff;
                // The refused connection is a disconnect: the client asks for metadata.
                self.metadata.update_requested = true;
                None
            }
        }
    }

    /// `RecordAccumulator.drain` and `Sender.sendProduceRequests` (0.10.2.2 to 3.9.0): a
    /// partition whose first batch backs off sends nothing (`first.attempts > 0 &&
    /// waitedTimeMs < retryBackoffMs`; 3.7+ `shouldBackoff`, skipped once the leader changed);
    /// a connection takes at most `max.in.flight.requests.per.connection` requests
    /// (`InFlightRequests.canSendMore`); one request carries one batch of a partition.
    fn drain(
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
    fn schedule(&mut self, now: u64, settings: &Settings, out: &mut ProducerOut) {
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

    /// Whether acknowledgements arrived since the last call.
    pub fn take_new_acks(&mut self) -> bool {
        std::mem::take(&mut self.new_acks)
    }

    /// Whether the producer has connections to watch.
    pub fn has_connections(&self) -> bool {
        !self.conns.is_empty()
    }

    /// The batches the producer is not done with, and the clients in use.
    pub fn view(&self, settings: &Settings) -> ProducerView {
        let mut batches: Vec<ProducerBatchView> = Vec::new();
        let mut push = |v: ProducerBatchView| match batches.last_mut() {
            Some(last)
                if last.partition == v.partition
                    && last.acks == v.acks
                    && last.waits == v.waits
                    && last.broker == v.broker
                    && last.attempt == v.attempt
                    && last.error == v.error =>
            {
                last.records += v.records;
                last.batches += 1;
                last.until_ms = match (last.until_ms, v.until_ms) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            _ => batches.push(v),
        };
        let keys: BTreeSet<(TopicPartition, Acks)> = self
            .queues
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(k, _)| k.clone())
            .chain(
                self.in_flight
                    .values()
                    .filter(|f| !f.expired)
                    .map(|f| (f.batch.tp.clone(), f.batch.acks)),
            )
            .collect();
        for key in keys {
            let cfg = client(settings, key.1);
            let mut flying: Vec<&InFlight> = self
                .in_flight
                .values()
                .filter(|f| !f.expired && f.batch.tp == key.0 && f.batch.acks == key.1)
                .collect();
            flying.sort_by_key(|f| f.batch.sequence);
            for f in flying {
                push(ProducerBatchView {
                    partition: key.0.to_string(),
                    acks: key.1,
                    records: f.batch.records,
                    batches: 1,
                    attempt: f.batch.retries + 1,
                    waits: BatchWait::InFlight,
                    broker: Some(f.broker),
                    until_ms: Some(f.timeout_ms),
                    error: f.batch.error,
                });
            }
            let blocked = self.blocked.get(&key).copied();
            for (i, b) in self.queues.get(&key).into_iter().flatten().enumerate() {
                let (waits, broker, until) = match blocked {
                    Some(Blocked::Backoff) if i == 0 => {
                        (BatchWait::RetryBackoff, None, b.backoff_until_ms)
                    }
                    Some(Blocked::NoLeader(l)) => (
                        BatchWait::WaitingForLeader,
                        l,
                        Self::expiry(b, &cfg, settings),
                    ),
                    _ => (BatchWait::Queued, None, Self::expiry(b, &cfg, settings)),
                };
                push(ProducerBatchView {
                    partition: key.0.to_string(),
                    acks: key.1,
                    records: b.records,
                    batches: 1,
                    attempt: b.retries + 1,
                    waits,
                    broker,
                    until_ms: Some(until),
                    error: b.error,
                });
            }
        }
        let clients = self
            .clients
            .iter()
            .map(|a| {
                let c = client(settings, *a);
                (
                    a.name().to_string(),
                    ProducerClientView {
                        retries: c.retries,
                        enable_idempotence: c.idempotent,
                        delivery_timeout_ms: c.delivery_timeout_ms,
                        request_timeout_ms: c.request_timeout_ms,
                        retry_backoff_ms: c.retry_backoff_ms,
                    },
                )
            })
            .collect();
        ProducerView { clients, batches }
    }

    /// Compares the acknowledged records with each partition's current leader log.
    pub fn check_losses(
        &mut self,
        brokers: &Brokers,
        leaders: &BTreeMap<TopicPartition, (BrokerId, u64)>,
        settings: &Settings,
        out: &mut ProducerOut,
    ) {
        for (tp, ledger) in self.ledgers.iter_mut() {
            let Some(&(leader, leader_epoch)) = leaders.get(tp) else {
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
            let mut kept = Vec::new();
            for a in std::mem::take(&mut ledger.acked) {
                // The part of the run the leader still holds in the same epoch.
                let held = log
                    .runs_from(a.start)
                    .into_iter()
                    .find(|r| r.epoch == a.epoch)
                    .map(|r| (r.start.max(a.start), r.end.min(a.end)))
                    .filter(|(s, e)| s < e);
                let (lost_from, lost_to) = match held {
                    Some((s, e)) if s == a.start && e == a.end => {
                        kept.push(a);
                        continue;
                    }
                    Some((s, e)) => {
                        if s > a.start {
                            (a.start, s)
                        } else {
                            kept.push(Acked { end: e, ..a });
                            (e, a.end)
                        }
                    }
                    None => (a.start, a.end),
                };
                let n = lost_to - lost_from;
                ledger.lost_records += n;
                let unclean = self
                    .unclean
                    .get(tp)
                    .is_some_and(|eps| eps.iter().any(|e| *e > a.epoch && *e <= leader_epoch));
                let reason = if unclean {
                    "an unclean leader election chose a replica that lacked them".to_string()
                } else if !settings.profile.truncates_by_leader_epoch() {
                    "a follower truncated them away at its high watermark and then became leader (before 0.11, KafkaTruncateToHighWatermark)".to_string()
                } else if a.acks == Acks::One {
                    "acks=1: only the old leader had them when it lost leadership".to_string()
                } else {
                    "acknowledged by every ISR member yet gone".to_string()
                };
                out.events.push((
                    EventKind::RecordsLost {
                        partition: tp.to_string(),
                        from_offset: lost_from,
                        to_offset: lost_to,
                        records: n,
                        acks: a.acks.name().into(),
                        reason: reason.clone(),
                    },
                    ProducerCause::OffsetsGone {
                        leader,
                        leader_epoch,
                        acked_epoch: a.epoch,
                    }
                    .into(),
                ));
                if a.acks == Acks::All && !unclean {
                    out.violations.push((
                        ACKED_RECORDS_SURVIVE.to_string(),
                        format!(
                            "{tp}: {n} acks=all record(s) at offsets {lost_from}..{lost_to} lost without an unclean election ({reason})"
                        ),
                    ));
                }
            }
            ledger.acked = kept;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::message::PartitionInfo;
    use crate::sim::{Command, Setup, World};
    use crate::sim::{TopicConfig, TopicSpec};

    fn tp() -> TopicPartition {
        TopicPartition::new("orders", 0)
    }

    /// Brokers 1..=3, running unless listed in `down` (crashed) or `frozen` (paused); every
    /// running one's metadata names `leader` in leader epoch `epoch` for orders-0.
    fn brokers(leader: i64, epoch: u64, down: &[BrokerId], frozen: &[BrokerId]) -> Brokers {
        (1..=3)
            .map(|id| {
                let mut b = Broker::new(id);
                b.incarnation = 1;
                b.status = if down.contains(&id) {
                    BrokerStatus::Crashed
                } else if frozen.contains(&id) {
                    BrokerStatus::Paused {
                        since_ms: 0,
                        until_ms: 1_000_000,
                    }
                } else {
                    BrokerStatus::Running
                };
                b.metadata_partitions.insert(
                    tp(),
                    PartitionInfo {
                        tp: tp(),
                        leader,
                        leader_epoch: epoch,
                        isr: vec![1, 2, 3],
                        zk_version: 0,
                        replicas: vec![2, 3, 1],
                    },
                );
                (id, b)
            })
            .collect()
    }

    fn crash(b: &mut Brokers, id: BrokerId) {
        let x = b.get_mut(&id).unwrap();
        x.status = BrokerStatus::Crashed;
        x.incarnation += 1;
    }

    fn events(out: &ProducerOut) -> Vec<(&'static str, String)> {
        out.events
            .iter()
            .map(|(k, _)| (k.name(), k.to_string()))
            .collect()
    }

    fn sent(out: &ProducerOut) -> Vec<(BrokerId, u64, u64)> {
        out.sends
            .iter()
            .map(|(b, body)| match body {
                Body::Produce { batch, records, .. } => (*b, batch.sequence, *records),
                other => panic!("not a produce: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_batch_for_a_dead_leader_waits_and_goes_to_the_next_leader() {
        let settings = Settings::for_profile(Profile::V3_9);
        let mut rng = Rng::new(1);
        let mut p = Producer::default();
        let mut b = brokers(2, 0, &[2], &[]);
        let mut out = ProducerOut::default();
        p.send(
            1_000,
            &tp(),
            5,
            Acks::All,
            &b,
            &settings,
            &mut rng,
            &mut out,
        );
        // The connection is refused: nothing goes out, nothing fails, it waits.
        assert!(out.sends.is_empty());
        assert!(out.events.is_empty());
        let v = p.view(&settings);
        assert_eq!(v.batches.len(), 1);
        assert_eq!(
            (
                v.batches[0].waits,
                v.batches[0].broker,
                v.batches[0].until_ms,
                v.batches[0].attempt
            ),
            (BatchWait::WaitingForLeader, Some(2), Some(121_000), 1)
        );
        // The controller elects broker 3; the producer sees it at its next metadata refresh,
        // within its backoff (100 ms, ±20 %).
        b = brokers(3, 1, &[2], &[]);
        let mut wake = out.wake.expect("a wake-up");
        let mut now = wake;
        for _ in 0..10 {
            let mut o = ProducerOut::default();
            p.on_wake(now, wake, &b, &settings, &mut rng, &mut o);
            if !o.sends.is_empty() {
                assert_eq!(sent(&o), vec![(3, 0, 5)]);
                break;
            }
            wake = o.wake.expect("still waiting, so a wake-up");
            now = wake;
        }
        assert!(now <= 1_200, "sent at {now}");
        assert!(!p.ledgers.contains_key(&tp()), "nothing failed or retried");
        assert_eq!(p.view(&settings).batches[0].waits, BatchWait::InFlight);
    }

    #[test]
    fn a_reset_connection_fails_the_batch_before_2_1_and_retries_it_after() {
        for (profile, kind, failed, retried) in [
            (Profile::V0_10, "produce_failed", 5, 0),
            (Profile::V2_0, "produce_failed", 5, 0),
            (Profile::V2_4, "produce_retrying", 0, 5),
            (Profile::V3_9, "produce_retrying", 0, 5),
        ] {
            let settings = Settings::for_profile(profile);
            let mut rng = Rng::new(1);
            let mut p = Producer::default();
            let mut b = brokers(2, 0, &[], &[]);
            let mut out = ProducerOut::default();
            p.send(
                1_000,
                &tp(),
                5,
                Acks::All,
                &b,
                &settings,
                &mut rng,
                &mut out,
            );
            assert_eq!(sent(&out), vec![(2, 0, 5)]);
            assert_eq!(out.timeouts.len(), 1);
            // Nothing changed: no reset.
            let mut out = ProducerOut::default();
            assert!(!p.check_connections(1_001, &b, &settings, &mut rng, &mut out));
            crash(&mut b, 2);
            let mut out = ProducerOut::default();
            assert!(p.check_connections(1_002, &b, &settings, &mut rng, &mut out));
            let ev = events(&out);
            assert_eq!(ev.len(), 1, "{profile:?}: {ev:?}");
            assert_eq!(ev[0].0, kind, "{profile:?}");
            assert!(ev[0].1.contains("NETWORK_EXCEPTION"), "{ev:?}");
            let l = &p.ledgers[&tp()];
            assert_eq!(
                (l.failed_records, l.retried_records, l.acked_records),
                (failed, retried, 0),
                "{profile:?}"
            );
            // Nothing is sent to the dead broker again.
            assert!(out.sends.is_empty());
            let v = p.view(&settings);
            if retried > 0 {
                assert_eq!(
                    (v.batches[0].attempt, v.batches[0].error, v.batches[0].waits),
                    (2, Some(NETWORK_EXCEPTION), BatchWait::RetryBackoff),
                    "{profile:?}"
                );
            } else {
                assert!(v.batches.is_empty(), "{profile:?}: {v:?}");
            }
        }
    }

    #[test]
    fn a_waiting_batch_expires_after_request_timeout_before_2_1_and_delivery_timeout_after() {
        for (profile, not_yet, expired, error) in [
            (Profile::V0_10, 31_000, 31_001, BATCH_EXPIRED),
            (Profile::V2_0, 31_000, 31_001, BATCH_EXPIRED),
            (Profile::V2_4, 120_999, 121_000, DELIVERY_TIMEOUT),
            (Profile::V3_9, 120_999, 121_000, DELIVERY_TIMEOUT),
        ] {
            let settings = Settings::for_profile(profile);
            let mut rng = Rng::new(1);
            let mut p = Producer::default();
            // Offline: no leader.
            let b = brokers(-1, 1, &[2], &[]);
            let mut out = ProducerOut::default();
            p.send(
                1_000,
                &tp(),
                5,
                Acks::All,
                &b,
                &settings,
                &mut rng,
                &mut out,
            );
            assert!(out.sends.is_empty());
            let v = p.view(&settings);
            assert_eq!(
                (
                    v.batches[0].waits,
                    v.batches[0].broker,
                    v.batches[0].until_ms
                ),
                (BatchWait::WaitingForLeader, None, Some(expired)),
                "{profile:?}"
            );
            let mut out = ProducerOut::default();
            p.poll(not_yet, &b, &settings, &mut rng, &mut out);
            assert_eq!(p.ledgers.get(&tp()).map_or(0, |l| l.failed_records), 0);
            p.poll(expired, &b, &settings, &mut rng, &mut out);
            assert_eq!(p.ledgers[&tp()].failed_records, 5, "{profile:?}");
            let ev = events(&out);
            assert_eq!(ev.len(), 1);
            assert!(ev[0].1.contains(error), "{profile:?}: {ev:?}");
        }
    }

    #[test]
    fn acks_0_batches_wait_expire_and_are_done_once_sent() {
        let settings = Settings::for_profile(Profile::V3_9);
        let mut rng = Rng::new(1);
        let mut p = Producer::default();
        let b = brokers(2, 0, &[2], &[]);
        let mut out = ProducerOut::default();
        p.send(
            1_000,
            &tp(),
            3,
            Acks::Zero,
            &b,
            &settings,
            &mut rng,
            &mut out,
        );
        p.poll(121_000, &b, &settings, &mut rng, &mut out);
        assert_eq!(p.ledgers[&tp()].failed_records, 3);
        // Broker 3 leads now; the producer learns it when broker 2 refuses the connection.
        let b = brokers(3, 1, &[2], &[]);
        let mut out = ProducerOut::default();
        let now = 200_000;
        p.send(now, &tp(), 4, Acks::Zero, &b, &settings, &mut rng, &mut out);
        assert!(out.sends.is_empty());
        let wake = out.wake.expect("a wake-up");
        assert!(wake <= 200_120, "{wake}");
        let mut out = ProducerOut::default();
        p.on_wake(wake, wake, &b, &settings, &mut rng, &mut out);
        assert_eq!(sent(&out), vec![(3, 3, 4)]);
        assert!(out.timeouts.is_empty());
        assert!(p.view(&settings).batches.is_empty());
        let ev = events(&out);
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].0, "produce_recovered");
        assert_eq!(p.ledgers[&tp()].acked_records, 0);
    }

    #[test]
    fn a_frozen_leader_holds_five_requests_until_the_request_timeout_closes_the_connection() {
        for (profile, error) in [
            (Profile::V2_4, NETWORK_EXCEPTION),
            (Profile::V3_9, REQUEST_TIMED_OUT),
        ] {
            let settings = Settings::for_profile(profile);
            let mut rng = Rng::new(1);
            let mut p = Producer::default();
            let b = brokers(2, 0, &[], &[2]);
            let mut requests = Vec::new();
            for i in 0..7 {
                let mut out = ProducerOut::default();
                p.send(
                    1_000 + i * 100,
                    &tp(),
                    2,
                    Acks::All,
                    &b,
                    &settings,
                    &mut rng,
                    &mut out,
                );
                requests.extend(out.timeouts.iter().map(|(at, r)| (*at, *r)));
            }
            // max.in.flight.requests.per.connection = 5: two batches wait behind them.
            assert_eq!(requests.len(), 5);
            assert_eq!(requests[0], (31_000, 1));
            let v = p.view(&settings);
            assert_eq!(
                v.batches
                    .iter()
                    .map(|x| (x.waits, x.batches, x.records))
                    .collect::<Vec<_>>(),
                vec![(BatchWait::InFlight, 5, 10), (BatchWait::Queued, 2, 4)]
            );
            let mut out = ProducerOut::default();
            p.on_request_timeout(31_000, 1, &b, &settings, &mut rng, &mut out);
            // One event for the five requests that failed together.
            let ev = events(&out);
            assert_eq!(ev.len(), 1, "{ev:?}");
            assert!(
                ev[0].0 == "produce_retrying" && ev[0].1.contains(error),
                "{profile:?}: {ev:?}"
            );
            assert_eq!(p.ledgers[&tp()].retried_records, 10);
            // The other timers of the closed connection find nothing left.
            let mut later = ProducerOut::default();
            p.on_request_timeout(31_100, 2, &b, &settings, &mut rng, &mut later);
            assert!(later.events.is_empty());
        }
    }

    #[test]
    fn an_idempotent_producer_resends_a_retried_batch_alone_and_in_order() {
        let settings = Settings::for_profile(Profile::V3_9);
        let mut rng = Rng::new(3);
        let mut p = Producer::default();
        let mut b = brokers(2, 0, &[], &[]);
        for i in 0..3 {
            let mut out = ProducerOut::default();
            p.send(
                1_000 + i,
                &tp(),
                2,
                Acks::All,
                &b,
                &settings,
                &mut rng,
                &mut out,
            );
        }
        crash(&mut b, 2);
        let mut out = ProducerOut::default();
        p.check_connections(1_010, &b, &settings, &mut rng, &mut out);
        assert_eq!(events(&out).len(), 1);
        // Broker 3 leads; the first retried batch goes alone, the next once it is answered.
        let b = brokers(3, 1, &[2], &[]);
        let mut now = 1_010;
        let mut wake = out.wake.expect("a wake-up");
        let mut first = Vec::new();
        for _ in 0..20 {
            now = wake;
            let mut o = ProducerOut::default();
            p.on_wake(now, wake, &b, &settings, &mut rng, &mut o);
            if !o.sends.is_empty() {
                first = sent(&o);
                break;
            }
            wake = o.wake.expect("a wake-up");
        }
        assert_eq!(first, vec![(3, 0, 2)]);
        let mut o = ProducerOut::default();
        p.on_response(now + 5, 4, Ok((0, 0)), &b, &settings, &mut rng, &mut o);
        assert_eq!(sent(&o), vec![(3, 2, 2)]);
        // The answer names the original offset and leader epoch: the ledger keeps them.
        assert_eq!(
            p.ledgers[&tp()].acked,
            vec![Acked {
                start: 0,
                end: 2,
                epoch: 0,
                acks: Acks::All
            }]
        );
        let ev = events(&o);
        assert_eq!(ev[0].0, "produce_recovered");
    }

    #[test]
    fn without_idempotence_the_retries_go_out_together() {
        let settings = Settings::for_profile(Profile::V2_4);
        let mut rng = Rng::new(3);
        let mut p = Producer::default();
        let mut b = brokers(2, 0, &[], &[]);
        for i in 0..3 {
            let mut out = ProducerOut::default();
            p.send(
                1_000 + i,
                &tp(),
                2,
                Acks::All,
                &b,
                &settings,
                &mut rng,
                &mut out,
            );
        }
        crash(&mut b, 2);
        let mut out = ProducerOut::default();
        p.check_connections(1_010, &b, &settings, &mut rng, &mut out);
        let b = brokers(3, 1, &[2], &[]);
        // 2.4: a flat retry.backoff.ms of 100 and metadata refreshes 100 ms apart.
        let mut o = ProducerOut::default();
        p.poll(1_110, &b, &settings, &mut rng, &mut o);
        assert_eq!(sent(&o), vec![(3, 0, 2), (3, 2, 2), (3, 4, 2)]);
    }

    #[test]
    fn the_producer_settings_follow_the_profile_and_kafkas_checks() {
        let c = |p: Profile, acks: Acks| Settings::for_profile(p).producer_client(acks).unwrap();
        assert_eq!(
            (
                c(Profile::V0_10, Acks::All).retries,
                c(Profile::V0_10, Acks::All).idempotent
            ),
            (0, false)
        );
        assert_eq!(c(Profile::V2_0, Acks::All).delivery_timeout_ms, None);
        assert_eq!(c(Profile::V2_4, Acks::All).retries, i32::MAX as u32);
        assert_eq!(
            c(Profile::V2_4, Acks::All).delivery_timeout_ms,
            Some(120_000)
        );
        assert!(!c(Profile::V2_4, Acks::All).idempotent);
        assert!(c(Profile::V3_9, Acks::All).idempotent);
        // 3.0+: idempotence left at its default turns off for acks=1.
        assert!(!c(Profile::V3_9, Acks::One).idempotent);
        let mut s = Settings::for_profile(Profile::V3_9);
        s.set("enable.idempotence", &serde_json::json!(true))
            .unwrap();
        assert!(s
            .producer_client(Acks::One)
            .unwrap_err()
            .contains("Must set acks to all"));
        s.set("retries", &serde_json::json!(0)).unwrap();
        assert!(s
            .producer_client(Acks::All)
            .unwrap_err()
            .contains("non-zero"));
        // 2.0 with idempotence: retries becomes Integer.MAX_VALUE.
        let mut s = Settings::for_profile(Profile::V2_0);
        s.set("enable.idempotence", &serde_json::json!(true))
            .unwrap();
        assert_eq!(
            s.producer_client(Acks::All).unwrap().retries,
            i32::MAX as u32
        );
        assert_eq!(s.default_acks(), Acks::All);
        // Settings a release does not have are refused, and change nothing.
        let mut s = Settings::for_profile(Profile::V0_10);
        let e = s
            .set("enable.idempotence", &serde_json::json!(true))
            .unwrap_err();
        assert!(e.contains("0.11"), "{e}");
        let e = s
            .set("delivery.timeout.ms", &serde_json::json!(200_000))
            .unwrap_err();
        assert!(e.contains("2.1"), "{e}");
        assert_eq!(s, Settings::for_profile(Profile::V0_10));
        // delivery.timeout.ms below request.timeout.ms is refused (KafkaProducer).
        let mut overrides = BTreeMap::new();
        overrides.insert("delivery.timeout.ms".to_string(), serde_json::json!(20_000));
        let e = Settings::with_overrides(Profile::V3_9, &overrides).unwrap_err();
        assert!(e.contains("request.timeout.ms (30000)"), "{e}");
        overrides.insert("request.timeout.ms".to_string(), serde_json::json!(10_000));
        assert!(Settings::with_overrides(Profile::V3_9, &overrides).is_ok());
        // Unset, it follows a larger request.timeout.ms.
        let mut s = Settings::for_profile(Profile::V3_9);
        s.set("request.timeout.ms", &serde_json::json!(200_000))
            .unwrap();
        assert_eq!(s.delivery_timeout(), 200_000);
    }

    #[test]
    fn producer_settings_that_kafka_refuses_change_nothing() {
        let mut w = replicated_world(Profile::V3_9);
        w.advance_to(2_000);
        let stream = |acks| Command::Produce {
            topic: "T".into(),
            partition: 0,
            records: None,
            acks,
            rate_per_s: Some(10),
            for_ms: None,
        };
        w.apply(stream(Acks::One)).unwrap();
        let before = w.settings().clone();
        let set = |key: &str, value: serde_json::Value| Command::SetConfig {
            key: key.into(),
            value,
            topic: None,
        };
        let e = w
            .apply(set("enable.idempotence", serde_json::json!(true)))
            .unwrap_err();
        assert!(
            e.starts_with("the producer with acks=1 would refuse it: Must set acks to all"),
            "{e}"
        );
        let e = w
            .apply(set("delivery.timeout.ms", serde_json::json!(1_000)))
            .unwrap_err();
        assert!(e.contains("request.timeout.ms (30000)"), "{e}");
        assert_eq!(w.settings(), &before);
        // Set while nothing conflicts, it holds; then an acks=1 produce is refused.
        let mut w = replicated_world(Profile::V3_9);
        w.advance_to(2_000);
        w.apply(set("enable.idempotence", serde_json::json!(true)))
            .unwrap();
        let e = w.apply(stream(Acks::One)).unwrap_err();
        assert!(e.contains("KafkaProducer refuses its settings"), "{e}");
        assert!(w.state().producer.clients.is_empty());
    }

    /// Brokers 1, 2, 3 with partition T-0 on [2, 3, 1], 20 ms latency and no jitter: a
    /// record batch produced at 2 s reaches the followers at 2.04 s and its acknowledgement
    /// would leave the leader at 2.06 s.
    fn replicated_world(profile: Profile) -> World {
        let mut settings = Settings::for_profile(profile);
        settings.network_latency_ms = 20;
        settings.network_jitter_ms = 0;
        let mut setup = Setup::with_brokers(1, settings, 3);
        setup.topics = vec![TopicSpec {
            name: "T".into(),
            replicas: vec![vec![2, 3, 1]],
            config: TopicConfig::default(),
        }];
        World::new(&setup)
    }

    #[test]
    fn a_retry_of_a_replicated_batch_is_written_twice_without_idempotence_and_once_with_it() {
        for (profile, leo, dup, kind) in [
            (Profile::V2_4, 10, 5, "duplicate_written"),
            (Profile::V3_9, 5, 0, "duplicate_dropped"),
        ] {
            let mut w = replicated_world(profile);
            w.advance_to(2_000);
            w.apply(Command::Produce {
                topic: "T".into(),
                partition: 0,
                records: Some(5),
                acks: Acks::All,
                rate_per_s: None,
                for_ms: None,
            })
            .unwrap();
            w.advance_to(2_050);
            assert_eq!(w.state().partitions["T-0"].log_end_offsets[&3], 5);
            w.apply(Command::Crash(2)).unwrap();
            w.advance_to(60_000);
            let s = w.state();
            let p = &s.partitions["T-0"];
            assert_eq!(p.leader, 3, "{profile:?}");
            assert_eq!(
                (p.log_end_offsets[&3], p.duplicate_records, p.acked_records),
                (leo, dup, 5),
                "{profile:?}"
            );
            assert_eq!((p.retried_records, p.failed_records), (5, 0));
            let found: Vec<String> = w
                .events()
                .iter()
                .filter(|e| e.kind.name() == kind)
                .map(|e| e.kind.to_string())
                .collect();
            assert_eq!(found.len(), 1, "{profile:?}: {found:?}");
            if dup > 0 {
                assert!(
                    found[0].contains("offsets 5..10 (first copy at 0)"),
                    "{found:?}"
                );
            } else {
                assert!(found[0].contains("at offset 0"), "{found:?}");
            }
            assert!(s.violations.is_empty(), "{:?}", s.violations);
        }
    }
}
