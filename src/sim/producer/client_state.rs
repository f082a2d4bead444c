//! What a producer client holds besides its streams: the accumulator's batches
//! (`ProducerBatch`), the requests in flight (`InFlightRequests`), why a queue waits, the
//! client's metadata (`Metadata`), the brokers that refused a connection
//! (`ClusterConnectionStates`) and the trouble of each queue between its first error and its
//! next acknowledgement.

use crate::collections::VecMap;
use crate::sim::net::BrokerId;
use crate::sim::topic::{Acks, TopicPartition};

/// A batch the producer is not done with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Batch {
    pub(super) tp: TopicPartition,
    pub(super) acks: Acks,
    pub(super) records: u64,
    /// Its base sequence: records the client sent to the partition before it.
    pub(super) sequence: u64,
    pub(super) created_ms: u64,
    /// Kafka's `attempts`: how many times the batch was put back to be sent again.
    pub(super) retries: u32,
    /// When it was last put back (`lastAttemptMs`).
    pub(super) last_attempt_ms: u64,
    /// When its retry backoff ends.
    pub(super) backoff_until_ms: u64,
    /// The error of its last try.
    pub(super) error: Option<&'static str>,
    /// The leader epoch of the leader it was last sent to.
    pub(super) sent_epoch: Option<u64>,
}

/// A produce request waiting for its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct InFlight {
    pub(super) batch: Batch,
    pub(super) broker: BrokerId,
    /// When the client gives up on it (`request.timeout.ms` after it was sent).
    pub(super) timeout_ms: u64,
    /// The batch already failed (`delivery.timeout.ms`); the request still holds its place on
    /// the connection until answered.
    pub(super) expired: bool,
}

/// Why a queue's first batch is not being sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Blocked {
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
pub(super) struct Metadata {
    /// Leader (if any) and leader epoch, by partition.
    pub(super) leaders: VecMap<TopicPartition, (Option<BrokerId>, u64)>,
    /// The last refresh.
    pub(super) last_refresh_ms: Option<u64>,
    /// A refresh was asked for.
    pub(super) update_requested: bool,
    /// Refreshes in a row that brought nothing new (3.7+: they back off exponentially).
    pub(super) equivalent: u32,
    /// The earliest time of the next refresh.
    pub(super) next_allowed_ms: u64,
}

/// A broker that refused the connection: when to try again, and how many refusals in a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Refused {
    pub(super) until_ms: u64,
    pub(super) failures: u32,
}

/// The current trouble of one partition's queue: from its first error to its next
/// acknowledgement.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Outage {
    pub(super) retry_error: Option<&'static str>,
    pub(super) fail_error: Option<&'static str>,
    pub(super) retried: u64,
    pub(super) failed: u64,
}
