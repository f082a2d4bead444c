//! The producer's causes: what a produce error means (`Sender.completeBatch`,
//! `NetworkClient`), retries and give-ups with the client settings that decide them
//! (`retries`, `retry.backoff.ms`, KIP-580's exponential backoff, `delivery.timeout.ms`,
//! `enable.idempotence`), batches expiring (`RecordAccumulator.expiredBatches` from 2.1,
//! `RecordBatch.maybeExpire` before), and acknowledged records a leader no longer holds.

use crate::sim::net::BrokerId;
use crate::text::{causes as m, English, Words};

/// What a produce error means, for the event log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProduceError {
    /// NOT_ENOUGH_REPLICAS: the ISR is below `min.insync.replicas`; nothing appended.
    NotEnoughReplicas,
    /// NOT_ENOUGH_REPLICAS_AFTER_APPEND: appended, but the ISR shrank below
    /// `min.insync.replicas` while it waited.
    NotEnoughReplicasAfterAppend,
    /// NOT_LEADER_OR_FOLLOWER: stale metadata.
    NotLeaderOrFollower,
    /// LEADER_NOT_AVAILABLE: the partition is offline.
    LeaderNotAvailable,
    /// REQUEST_TIMED_OUT from 3.5 (KAFKA-14317): no answer in time, the connection closed.
    NoAnswer,
    /// REQUEST_TIMED_OUT before 3.5: the broker's acks=all wait ran out.
    FollowersTooSlow,
    /// NETWORK_EXCEPTION: the connection closed with the request in flight.
    ConnectionClosed,
    /// Before 3.5: the client's request timeout, reported as the disconnect it causes.
    NoAnswerDisconnect,
    /// The leader's process died: its connection reset (`NetworkClient.processDisconnection`).
    LeaderDied,
    /// The batch reached `delivery.timeout.ms` (2.1+).
    DeliveryTimeout,
    /// The batch expired in the accumulator (before 2.1, `RecordBatch.maybeExpire`).
    BatchExpired,
    /// Any other error.
    Other,
}

impl ProduceError {
    /// The English words.
    pub fn english(self) -> String {
        self.render(&English)
    }

    /// The words in `tr`'s language.
    pub fn render(self, tr: &dyn Words) -> String {
        tr.t(match self {
            ProduceError::NotEnoughReplicas => m::CAUSE_PRODUCE_NOT_ENOUGH_REPLICAS,
            ProduceError::NotEnoughReplicasAfterAppend => {
                m::CAUSE_PRODUCE_NOT_ENOUGH_REPLICAS_AFTER_APPEND
            }
            ProduceError::NotLeaderOrFollower => m::CAUSE_PRODUCE_NOT_LEADER_OR_FOLLOWER,
            ProduceError::LeaderNotAvailable => m::CAUSE_PRODUCE_LEADER_NOT_AVAILABLE,
            ProduceError::NoAnswer => m::CAUSE_PRODUCE_NO_ANSWER,
            ProduceError::FollowersTooSlow => m::CAUSE_PRODUCE_FOLLOWERS_TOO_SLOW,
            ProduceError::ConnectionClosed => m::CAUSE_PRODUCE_CONNECTION_CLOSED,
            ProduceError::NoAnswerDisconnect => m::CAUSE_PRODUCE_NO_ANSWER_DISCONNECT,
            ProduceError::LeaderDied => m::CAUSE_PRODUCE_LEADER_DIED,
            ProduceError::DeliveryTimeout => m::CAUSE_PRODUCE_DELIVERY_TIMEOUT,
            ProduceError::BatchExpired => m::CAUSE_PRODUCE_BATCH_EXPIRED,
            ProduceError::Other => m::CAUSE_PRODUCE_OTHER,
        })
    }
}

/// The backoff before a retry (`retry.backoff.ms`; from 3.7 doubling, KIP-580).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryBackoff {
    /// `retry.backoff.ms` each time.
    Fixed {
        /// `retry.backoff.ms`.
        backoff_ms: u64,
    },
    /// `retry.backoff.ms` doubling up to `retry.backoff.max.ms`.
    Exponential {
        /// `retry.backoff.ms`.
        backoff_ms: u64,
        /// `retry.backoff.max.ms`.
        max_ms: u64,
    },
}

/// Why a failed batch is not retried (`Sender.canRetry`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRetry {
    /// The error is not retriable.
    NotRetriable,
    /// `delivery.timeout.ms` has passed since the batch was created.
    DeliveryTimeoutPassed {
        /// `delivery.timeout.ms`.
        delivery_timeout_ms: u64,
    },
    /// `retries=0`.
    NoRetries,
    /// Every retry is used up.
    RetriesUsedUp {
        /// `retries`.
        retries: u32,
    },
}

/// Why the producer did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProducerCause {
    /// A stream ran its duration or its record count.
    StreamDone,
    /// A batch goes back to the queue to be sent again.
    Retrying {
        /// What the error means.
        error: ProduceError,
        /// `retries`.
        retries: u32,
        /// `delivery.timeout.ms` (2.1+).
        delivery_timeout_ms: Option<u64>,
        /// The backoff.
        backoff: RetryBackoff,
        /// `enable.idempotence`.
        idempotent: bool,
    },
    /// A batch is given up after an error.
    GaveUp {
        /// What the error means.
        error: ProduceError,
        /// Why it is not retried.
        because: NoRetry,
    },
    /// A queued batch reached `delivery.timeout.ms` (2.1+).
    ExpiredQueued {
        /// `delivery.timeout.ms`.
        delivery_timeout_ms: u64,
    },
    /// A queued batch expired after `request.timeout.ms` (before 2.1).
    ExpiredInAccumulator {
        /// `request.timeout.ms`.
        request_timeout_ms: u64,
    },
    /// A batch in flight reached `delivery.timeout.ms` (`Sender.getExpiredInflightBatches`).
    ExpiredInFlight {
        /// `delivery.timeout.ms`.
        delivery_timeout_ms: u64,
    },
    /// The leader acknowledged a batch again after an outage.
    AckedAgain {
        /// The batch's base offset.
        offset: u64,
        /// The leader epoch it was written in.
        leader_epoch: u64,
    },
    /// acks=0: a batch went out again after an outage, which is all the producer learns
    /// (`Sender.handleProduceResponse`, "the acks = 0 case").
    SentAgainAcksZero {
        /// The leader it went to.
        leader: BrokerId,
    },
    /// The current leader does not hold acknowledged offsets.
    OffsetsGone {
        /// The current leader.
        leader: BrokerId,
        /// Its leader epoch.
        leader_epoch: u64,
        /// The leader epoch the records were acknowledged in.
        acked_epoch: u64,
    },
}

impl ProducerCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            ProducerCause::StreamDone => tr.t(m::CAUSE_PRODUCER_STREAM_DONE),
            ProducerCause::Retrying {
                error,
                retries,
                delivery_timeout_ms,
                backoff,
                idempotent,
            } => {
                let how = match (backoff, delivery_timeout_ms) {
                    (RetryBackoff::Fixed { backoff_ms }, None) => tr.f(
                        m::CAUSE_PRODUCER_RETRY_FIXED,
                        &[("retries", retries), ("backoff_ms", backoff_ms)],
                    ),
                    (RetryBackoff::Fixed { backoff_ms }, Some(d)) => tr.f(
                        m::CAUSE_PRODUCER_RETRY_FIXED_DELIVERY,
                        &[
                            ("retries", retries),
                            ("delivery_timeout_ms", d),
                            ("backoff_ms", backoff_ms),
                        ],
                    ),
                    (RetryBackoff::Exponential { backoff_ms, max_ms }, None) => tr.f(
                        m::CAUSE_PRODUCER_RETRY_EXPONENTIAL,
                        &[
                            ("retries", retries),
                            ("backoff_ms", backoff_ms),
                            ("max_ms", max_ms),
                        ],
                    ),
                    (RetryBackoff::Exponential { backoff_ms, max_ms }, Some(d)) => tr.f(
                        m::CAUSE_PRODUCER_RETRY_EXPONENTIAL_DELIVERY,
                        &[
                            ("retries", retries),
                            ("delivery_timeout_ms", d),
                            ("backoff_ms", backoff_ms),
                            ("max_ms", max_ms),
                        ],
                    ),
                };
                let dup = tr.t(if *idempotent {
                    m::CAUSE_PRODUCER_RESEND_IDEMPOTENT
                } else {
                    m::CAUSE_PRODUCER_RESEND_NOT_IDEMPOTENT
                });
                tr.f(
                    m::CAUSE_PRODUCER_RETRYING,
                    &[("error", &error.render(tr)), ("how", &how), ("dup", &dup)],
                )
            }
            ProducerCause::GaveUp { error, because } => {
                let error = error.render(tr);
                match because {
                    NoRetry::NotRetriable => error,
                    NoRetry::DeliveryTimeoutPassed {
                        delivery_timeout_ms,
                    } => tr.f(
                        m::CAUSE_PRODUCER_GAVE_UP_DELIVERY_TIMEOUT,
                        &[
                            ("error", &error),
                            ("delivery_timeout_ms", delivery_timeout_ms),
                        ],
                    ),
                    NoRetry::NoRetries => {
                        tr.f(m::CAUSE_PRODUCER_GAVE_UP_NO_RETRIES, &[("error", &error)])
                    }
                    NoRetry::RetriesUsedUp { retries } => tr.f(
                        m::CAUSE_PRODUCER_GAVE_UP_RETRIES_USED_UP,
                        &[("error", &error), ("retries", retries)],
                    ),
                }
            }
            ProducerCause::ExpiredQueued {
                delivery_timeout_ms,
            } => tr.f(
                m::CAUSE_PRODUCER_EXPIRED_QUEUED,
                &[
                    ("error", &ProduceError::DeliveryTimeout.render(tr)),
                    ("delivery_timeout_ms", delivery_timeout_ms),
                ],
            ),
            ProducerCause::ExpiredInAccumulator { request_timeout_ms } => tr.f(
                m::CAUSE_PRODUCER_EXPIRED_IN_ACCUMULATOR,
                &[
                    ("error", &ProduceError::BatchExpired.render(tr)),
                    ("request_timeout_ms", request_timeout_ms),
                ],
            ),
            ProducerCause::ExpiredInFlight {
                delivery_timeout_ms,
            } => tr.f(
                m::CAUSE_PRODUCER_EXPIRED_IN_FLIGHT,
                &[
                    ("error", &ProduceError::DeliveryTimeout.render(tr)),
                    ("delivery_timeout_ms", delivery_timeout_ms),
                ],
            ),
            ProducerCause::AckedAgain {
                offset,
                leader_epoch,
            } => tr.f(
                m::CAUSE_PRODUCER_ACKED_AGAIN,
                &[("offset", offset), ("leader_epoch", leader_epoch)],
            ),
            ProducerCause::SentAgainAcksZero { leader } => tr.f(
                m::CAUSE_PRODUCER_SENT_AGAIN_ACKS_ZERO,
                &[("leader", leader)],
            ),
            ProducerCause::OffsetsGone {
                leader,
                leader_epoch,
                acked_epoch,
            } => tr.f(
                m::CAUSE_PRODUCER_OFFSETS_GONE,
                &[
                    ("leader", leader),
                    ("leader_epoch", leader_epoch),
                    ("acked_epoch", acked_epoch),
                ],
            ),
        }
    }
}
