//! The replica manager's causes: truncation when a replica starts following
//! (`Partition.makeFollower`, KIP-101, KIP-279), LeaderAndIsr partitions ignored
//! (`ReplicaManager.becomeLeaderOrFollower`), ISR changes and their failures
//! (`Partition.maybeShrinkIsr` / `maybeExpandIsr`, `AlterPartitionManager`), and idempotent
//! duplicates (`ProducerStateEntry.findDuplicateBatch`).

use crate::text::{causes as m, English, Words};

/// How a leader writes an ISR change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IsrWrite {
    /// 2.7+: AlterPartition to the controller (KIP-497).
    AlterPartition,
    /// Before 2.7: the leader's conditional update of the partition state znode.
    ZkCompareAndSet,
}

/// Which rule took a follower out of the ISR (`Partition.getOutOfSyncReplicas`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShrinkRule {
    /// 2.1+: behind the leader's log end for longer than `replica.lag.time.max.ms`.
    BehindLogEnd,
    /// Before 2.1: no catch-up for `replica.lag.time.max.ms`, even with nothing written
    /// (KAFKA-7152).
    LagTimeAlone,
}

/// Why the replica manager did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplicationCause {
    /// The follower's log diverged from the new leader's (KIP-101, KIP-279).
    TruncatedAtDivergence,
    /// The follower was ahead of the new leader (OFFSET_OUT_OF_RANGE).
    TruncatedToLeaderEnd,
    /// Before 0.11: truncation to the high watermark on becoming follower
    /// (`KafkaTruncateToHighWatermark`).
    TruncatedToHighWatermark,
    /// A LeaderAndIsr partition with an older leader epoch.
    OlderLeaderEpochIgnored,
    /// Before 2.7: the leader's conditional ISR write met another zkVersion
    /// (`Partition.updateIsr`).
    IsrZkVersionChanged,
    /// INELIGIBLE_REPLICA (KIP-841): back to the last committed ISR.
    IsrIneligibleReplica,
    /// The controller refused an ISR change built on an older partition state (KIP-497).
    IsrStalePartitionState,
    /// A follower left the ISR.
    IsrShrunk {
        /// `replica.lag.time.max.ms`.
        replica_lag_time_max_ms: u64,
        /// The rule the profile follows.
        rule: ShrinkRule,
        /// How the leader writes the change.
        via: IsrWrite,
    },
    /// A follower caught up and joined the ISR.
    IsrExpanded {
        /// How the leader writes the change.
        via: IsrWrite,
    },
    /// `enable.idempotence=true`: a batch already in the log is not written again.
    DuplicateDropped {
        /// The batch's producer id.
        producer_id: u64,
        /// The batch's sequence.
        sequence: u64,
        /// The leader epoch its first copy was written in.
        first_epoch: u64,
    },
    /// `enable.idempotence=false`: a resent batch is written a second time.
    DuplicateWritten,
}

impl IsrWrite {
    /// The English words.
    pub fn english(self) -> String {
        self.render(&English)
    }

    /// The words in `tr`'s language.
    pub fn render(self, tr: &dyn Words) -> String {
        tr.t(match self {
            IsrWrite::AlterPartition => m::CAUSE_ISR_WRITE_ALTER_PARTITION,
            IsrWrite::ZkCompareAndSet => m::CAUSE_ISR_WRITE_ZK,
        })
    }
}

impl ReplicationCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            ReplicationCause::TruncatedAtDivergence => tr.t(m::CAUSE_REPL_TRUNCATED_AT_DIVERGENCE),
            ReplicationCause::TruncatedToLeaderEnd => tr.t(m::CAUSE_REPL_TRUNCATED_TO_LEADER_END),
            ReplicationCause::TruncatedToHighWatermark => {
                tr.t(m::CAUSE_REPL_TRUNCATED_TO_HIGH_WATERMARK)
            }
            ReplicationCause::OlderLeaderEpochIgnored => {
                tr.t(m::CAUSE_REPL_OLDER_LEADER_EPOCH_IGNORED)
            }
            ReplicationCause::IsrZkVersionChanged => tr.t(m::CAUSE_REPL_ISR_ZK_VERSION_CHANGED),
            ReplicationCause::IsrIneligibleReplica => tr.t(m::CAUSE_REPL_ISR_INELIGIBLE_REPLICA),
            ReplicationCause::IsrStalePartitionState => {
                tr.t(m::CAUSE_REPL_ISR_STALE_PARTITION_STATE)
            }
            ReplicationCause::IsrShrunk {
                replica_lag_time_max_ms,
                rule,
                via,
            } => {
                let how = via.render(tr);
                let msg = match rule {
                    ShrinkRule::BehindLogEnd => m::CAUSE_REPL_ISR_SHRUNK_BEHIND_LOG_END,
                    ShrinkRule::LagTimeAlone => m::CAUSE_REPL_ISR_SHRUNK_LAG_TIME_ALONE,
                };
                tr.f(
                    msg,
                    &[
                        ("replica_lag_time_max_ms", replica_lag_time_max_ms),
                        ("how", &how),
                    ],
                )
            }
            ReplicationCause::IsrExpanded { via } => {
                tr.f(m::CAUSE_REPL_ISR_EXPANDED, &[("how", &via.render(tr))])
            }
            ReplicationCause::DuplicateDropped {
                producer_id,
                sequence,
                first_epoch,
            } => tr.f(
                m::CAUSE_REPL_DUPLICATE_DROPPED,
                &[
                    ("producer_id", producer_id),
                    ("sequence", sequence),
                    ("first_epoch", first_epoch),
                ],
            ),
            ReplicationCause::DuplicateWritten => tr.t(m::CAUSE_REPL_DUPLICATE_WRITTEN),
        }
    }
}
