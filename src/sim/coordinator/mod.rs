//! The group coordinator of the classic consumer-group protocol, on the broker that leads the
//! group's `__consumer_offsets` partition.
//!
//! Sources: `kafka.coordinator.group.GroupCoordinator` (`handleJoinGroup` with KIP-394's
//! MEMBER_ID_REQUIRED round trip, `prepareRebalance`, `InitialDelayedJoin`, `onCompleteJoin`,
//! `handleSyncGroup`, `handleHeartbeat`, `handleLeaveGroup`, `onExpireHeartbeat`),
//! `GroupMetadata` (the states Empty, PreparingRebalance, CompletingRebalance, Stable, Dead;
//! `add`: the first member added leads; `remove`: `leaderId = members.keys.headOption`, the
//! first key of a Scala `mutable.HashMap` in the order of the build's Scala version, see
//! [`super::group_order`]) and
//! `GroupMetadataManager` (`storeGroup` appends the group to its `__consumer_offsets`
//! partition and answers once the append is committed; `loadGroupsForPartition` loads the
//! groups, as they were, on the partition's new leader).
//!
//! The Kafka files are `core/src/main/scala/kafka/coordinator/group/` in 2.0.1, 2.4.1 and 3.9.0
//! and `core/src/main/scala/kafka/coordinator/` in 0.10.2.2. Here, one concern per file:
//!
//! - `state`: the group types (`GroupMetadata`, `MemberMetadata`), the stored record and the
//!   coordinator's state on a broker, with what each of its timers is for.
//! - `join`: JoinGroup, `prepareRebalance` and the join's completion (`GroupCoordinator.scala`:
//!   `handleJoinGroup` and the `do*JoinGroup` it calls, `addMemberAndRebalance`,
//!   `prepareRebalance`, `onCompleteJoin`; `DelayedJoin.scala`: `DelayedJoin`, and
//!   `InitialDelayedJoin` from 0.11, so not in 0.10.2.2).
//! - `sync`: SyncGroup and the answers once the leader's assignment is committed
//!   (`GroupCoordinator.scala`: `handleSyncGroup`, `doSyncGroup`'s store callback).
//! - `heartbeat`: Heartbeat (`GroupCoordinator.scala`: `handleHeartbeat`).
//! - `leave`: LeaveGroup, expired members and the next leader (`GroupCoordinator.scala`:
//!   `handleLeaveGroup`, `onMemberFailure` in 0.10.2.2 / `removeMemberAndUpdateGroup` from 2.0.1;
//!   `GroupMetadata.scala`: `remove`).
//! - `timers`: the coordinator's timers: the delayed joins and the session deadlines
//!   (`DelayedJoin.scala`, `DelayedHeartbeat.scala`, `GroupCoordinator.onExpireHeartbeat`).
//! - `storage`: the group in `__consumer_offsets` (`GroupMetadataManager.scala`: `storeGroup`,
//!   `loadGroupsForPartition`, `removeGroupsForPartition`).
//!
//! This file holds the handler, `Coordinator`: it borrows only its own state, the broker's
//! offsets logs (through `OffsetsLogs`, which the replica manager implements) and metadata
//! cache, and the output. The broker routes each group request, each group timer and each
//! change of leadership of an offsets partition to it. The other files import only from here,
//! `state` and the shared types (messages, events, settings), never the broker or the replica
//! manager. Tests: `harness` builds a coordinator in a given state; each `*_test.rs` feeds it
//! inputs and asserts the exact output.

pub mod causes;
mod heartbeat;
mod join;
mod leave;
pub(crate) mod state;
mod storage;
mod sync;
mod timers;

#[cfg(test)]
mod harness;
#[cfg(test)]
mod heartbeat_test;
#[cfg(test)]
mod join_test;
#[cfg(test)]
mod leave_test;
#[cfg(test)]
mod storage_test;
#[cfg(test)]
mod sync_test;

pub use state::{CoordinatorState, Group, GroupTimer};

use super::config::{Profile, Settings};
use super::log::{Log, Payload};
use super::message::{Body, KafkaError, Out, PartitionInfo};
use super::net::{BrokerId, Endpoint};
use super::topic::TopicPartition;
use crate::collections::VecMap;

/// The internal topic that stores groups.
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

/// The `__consumer_offsets` partition of a group.
pub fn group_partition(group: &str, settings: &Settings) -> TopicPartition {
    TopicPartition::new(
        OFFSETS_TOPIC,
        super::group_order::coordinator_partition(group, settings.offsets_topic_num_partitions),
    )
}

fn member_ids_required(profile: Profile) -> bool {
    // KIP-394 (2.2): a new member first gets its id, then joins with it.
    profile >= Profile::V2_4
}

fn sync_expires(profile: Profile) -> bool {
    // KAFKA-12890 (3.0): members that do not send SyncGroup within the rebalance timeout are
    // removed (`DelayedSync`).
    profile >= Profile::V3_9
}

fn new_members_expire(profile: Profile) -> bool {
    // KAFKA-7610 (2.2): a new member's JoinGroup expires after NewMemberJoinTimeoutMs.
    profile >= Profile::V2_4
}

fn tp_list(a: &[(String, u32)]) -> Vec<TopicPartition> {
    a.iter().map(|(t, p)| TopicPartition::new(t, *p)).collect()
}

/// What the coordinator uses of its broker's replicas: whether the broker leads an offsets
/// partition, the log it reads groups from, and appending a group record to it. The replica
/// manager implements it for the broker's replicas.
pub(crate) trait OffsetsLogs {
    /// Whether this broker leads `tp`.
    fn leads(&self, tp: &TopicPartition) -> bool;
    /// The log of `tp` on this broker, if it holds a replica of it.
    fn log(&self, tp: &TopicPartition) -> Option<&Log>;
    /// Appends `payload` as one record to `tp`'s log in the leader epoch the broker knows for
    /// it, and gives its offset; `None` (and nothing appended) when the broker holds no replica
    /// of `tp` or knows no state for it.
    fn append(&mut self, tp: &TopicPartition, payload: Payload) -> Option<u64>;
}

/// The group coordinator at work on one input: its groups, timers and pending writes, the
/// broker's `__consumer_offsets` logs it reads and appends to, the metadata cache it answers
/// FindCoordinator from, and the output.
pub(crate) struct Coordinator<'a> {
    /// The broker it runs on.
    pub(crate) me: BrokerId,
    /// The virtual time of the input.
    pub(crate) now: u64,
    /// The cluster's settings (the profile decides the rules).
    pub(crate) settings: &'a Settings,
    /// Its groups, timers and pending writes.
    pub(crate) state: &'a mut CoordinatorState,
    /// The broker's replicas, as far as the coordinator uses them.
    pub(crate) offsets: &'a mut dyn OffsetsLogs,
    /// The broker's metadata cache (the partition states of the latest UpdateMetadata).
    pub(crate) metadata: &'a VecMap<TopicPartition, PartitionInfo>,
    /// What the input makes the broker do.
    pub(crate) out: &'a mut Out,
    /// The offsets partitions a group record was appended to, in order.
    appended: Vec<TopicPartition>,
}

impl<'a> Coordinator<'a> {
    /// The coordinator of broker `me` at `now`.
    pub(crate) fn new(
        me: BrokerId,
        now: u64,
        settings: &'a Settings,
        state: &'a mut CoordinatorState,
        offsets: &'a mut dyn OffsetsLogs,
        metadata: &'a VecMap<TopicPartition, PartitionInfo>,
        out: &'a mut Out,
    ) -> Self {
        Coordinator {
            me,
            now,
            settings,
            state,
            offsets,
            metadata,
            out,
            appended: Vec::new(),
        }
    }

    /// The offsets partitions this input appended a group record to, in order: the replica
    /// manager takes each from there (high watermark, waiting fetches), and a commit comes back
    /// through [`Coordinator::complete_writes`]. An append is always the last step of an input,
    /// so handling them after the input gives the order of a call made right after the append.
    pub(crate) fn into_appended(self) -> Vec<TopicPartition> {
        self.appended
    }

    fn endpoint(&self) -> Endpoint {
        Endpoint::Broker(self.me)
    }

    /// FindCoordinator, answered from this broker's metadata cache.
    pub(crate) fn on_find_coordinator(&mut self, from: Endpoint, group: String) {
        let tp = group_partition(&group, self.settings);
        let result = match self.metadata.get(&tp) {
            Some(p) if p.leader >= 0 => Ok(p.leader as BrokerId),
            _ => Err(KafkaError::CoordinatorNotAvailable),
        };
        let me = self.endpoint();
        self.out
            .send(me, from, Body::FindCoordinatorResponse { group, result });
    }

    fn group_check(&self, group: &str) -> Result<(), KafkaError> {
        let tp = group_partition(group, self.settings);
        if self.offsets.leads(&tp) {
            Ok(())
        } else {
            Err(KafkaError::NotCoordinator)
        }
    }
}
