//! The replica manager's own timers and the purposes of its ZooKeeper requests.
//!
//! A leaf module (it imports nothing of the simulation but ids and partitions), so that the
//! shared timer type and the ZooKeeper client's request table can name them without an import
//! circle.

use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;

/// One of the replica manager's timers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplicaTimer {
    /// Leader: the ISR-expiration check, every `replica.lag.time.max.ms` / 2.
    IsrExpiration,
    /// Leader: a fetch held for lack of data is answered now (`replica.fetch.wait.max.ms`).
    DelayedFetch {
        /// The follower that fetched.
        follower: BrokerId,
        /// Its fetch's correlation id.
        correlation_id: u64,
    },
    /// Follower: a fetch got no answer in time (`replica.socket.timeout.ms`).
    FetchTimeout {
        /// The leader fetched from.
        leader: BrokerId,
        /// The fetch's correlation id.
        correlation_id: u64,
    },
    /// Follower: the back-off after a fetch error is over.
    FetchBackoff {
        /// The leader fetched from.
        leader: BrokerId,
    },
    /// Leader: an acks=all produce waited `request.timeout.ms`.
    ProduceTimeout {
        /// The produce request.
        request: u64,
    },
}

/// What one of the replica manager's ZooKeeper requests was for (the leader's own ISR writes,
/// before 2.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplicaPending {
    /// The leader's compare-and-set of a partition's ISR.
    WriteIsr {
        /// The partition.
        tp: TopicPartition,
        /// The ISR written.
        isr: Vec<BrokerId>,
        /// The leader epoch it was written in.
        leader_epoch: u64,
    },
    /// After a BADVERSION on that compare-and-set: read the znode to see whether it already
    /// holds the change (a retried request whose first reply was lost).
    CheckIsrWrite {
        /// The partition.
        tp: TopicPartition,
        /// The ISR written.
        isr: Vec<BrokerId>,
        /// The leader epoch it was written in.
        leader_epoch: u64,
    },
    /// The leader's `/isr_change_notification` for the controller.
    NotifyIsrChange,
}
