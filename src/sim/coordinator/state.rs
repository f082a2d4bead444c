//! The coordinator's state: its groups (`GroupMetadata`: the states, the members, the
//! generation, the leader, the member map's order), the record it stores
//! (`GroupMetadataManager`'s group metadata value), its writes waiting for a commit and what
//! its timers are for.

use super::causes::CoordinatorCause;
use crate::collections::{VecMap, VecSet};
use crate::sim::group_order::MemberOrder;
pub use crate::sim::state::GroupState;
use crate::sim::topic::TopicPartition;
// The group timers: thousands with short heartbeats, taken from the front (`timers`).
#[allow(clippy::disallowed_types)]
use std::collections::BTreeMap;

/// One member, as the coordinator knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// `client.id-UUID`.
    pub member_id: String,
    /// The client id (the member's name in scenarios).
    pub client_id: String,
    /// Subscribed topics.
    pub topics: Vec<String>,
    /// The assignor it asks for.
    pub assignor: String,
    /// Its session timeout.
    pub session_timeout_ms: u64,
    /// Its rebalance timeout (`max.poll.interval.ms`).
    pub rebalance_timeout_ms: u64,
    /// Where it is.
    pub consumer: u32,
    /// Its partitions in the current generation.
    pub assignment: Vec<(String, u32)>,
    /// When the coordinator last heard from it (not in the group record).
    pub last_heard_ms: u64,
    /// Its JoinGroup waiting for the rebalance to complete (not in the group record).
    pub awaiting_join: bool,
    /// The number of its current session timer (not in the group record).
    pub session_timer: u64,
    /// `MemberMetadata.isNew` (2.4.1, 3.9.0): added and not yet through a completed join; its
    /// JoinGroup expires after `NEW_MEMBER_JOIN_TIMEOUT_MS` (not in the group record).
    pub is_new: bool,
}

/// `GroupCoordinator.NewMemberJoinTimeoutMs` (5 minutes, 2.4.1, 3.9.0): how long a new member's
/// JoinGroup may wait for the rebalance to complete before the member is removed.
pub const NEW_MEMBER_JOIN_TIMEOUT_MS: u64 = 5 * 60 * 1000;

impl Member {
    /// The member as the group record holds it (`GroupMetadataManager.groupMetadataValue`
    /// writes its id, client, subscription, timeouts and `assignment`): the coordinator's
    /// bookkeeping of it (when it last heard from it, its waiting JoinGroup, its session
    /// timer) at its defaults.
    pub fn stored(&self, assignment: Vec<(String, u32)>) -> Member {
        Member {
            assignment,
            last_heard_ms: 0,
            awaiting_join: false,
            session_timer: 0,
            is_new: false,
            ..self.clone()
        }
    }
}

/// A rebalance in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rebalance {
    /// The number of this rebalance's timers.
    pub seq: u64,
    /// The `InitialDelayedJoin` of a rebalance that started from Empty: its `delayMs` and its
    /// `remainingMs` (how much of the rebalance timeout is left for further delays).
    pub initial: Option<(u64, u64)>,
}

/// One consumer group on its coordinator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The group id.
    pub id: String,
    /// Its `__consumer_offsets` partition.
    pub partition: TopicPartition,
    /// Its state.
    pub state: GroupState,
    /// The generation.
    pub generation: u32,
    /// The assignor of the current generation.
    pub protocol: Option<String>,
    /// The leader's member id.
    pub leader: Option<String>,
    /// Why the current leader leads (for the event log).
    pub leader_why: Option<CoordinatorCause>,
    /// Whether the leader changed since the last completed join.
    pub leader_changed: bool,
    /// Members by member id.
    pub members: VecMap<String, Member>,
    /// The member ids in the iteration order of Kafka's Scala `mutable.HashMap` (of the
    /// profile's Scala version).
    pub order: MemberOrder,
    /// `GroupMetadata.newMemberAdded`: a member was added during the initial delay of a brand-new
    /// group (generation 0), so the delay may be extended. Only `InitialDelayedJoin` clears it.
    pub new_member_added: bool,
    /// Member ids handed out with MEMBER_ID_REQUIRED and not yet used (KIP-394), each with
    /// the number of its expiry timer: a rebalance waits for them too
    /// (`GroupMetadata.hasAllMembersJoined`, 2.4.1, 3.9.0).
    pub pending: VecMap<String, u64>,
    /// Members waiting for their SyncGroup answer.
    pub awaiting_sync: VecSet<String>,
    /// 3.0+ (KAFKA-12890): the members of the generation whose SyncGroup has not arrived yet
    /// (`GroupMetadata.pendingSyncMembers`); a `GroupTimer::SyncDeadline` removes those still
    /// here after the rebalance timeout.
    pub pending_sync: VecSet<String>,
    /// The rebalance in progress.
    pub rebalance: Option<Rebalance>,
    /// The members in the order they were added (for the event log's comparison).
    pub joined_order: Vec<String>,
}

/// What a coordinator timer is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupTimer {
    /// The empty group's initial rebalance delay ends.
    InitialDelay {
        /// The group.
        group: String,
        /// The rebalance it belongs to.
        seq: u64,
    },
    /// The rebalance timeout ends.
    JoinDeadline {
        /// The group.
        group: String,
        /// The rebalance it belongs to.
        seq: u64,
    },
    /// 3.0+: the members of `generation` that have not sent SyncGroup by now are removed
    /// (`DelayedSync`, `GroupCoordinator.onExpirePendingSync`).
    SyncDeadline {
        /// The group.
        group: String,
        /// The generation whose SyncGroups it waits for.
        generation: u32,
    },
    /// A pending member (told its id with MEMBER_ID_REQUIRED, KIP-394) may not have joined
    /// within its session timeout (`GroupCoordinator.addPendingMemberExpiration`, 2.4.1, 3.9.0).
    PendingMember {
        /// The group.
        group: String,
        /// The member id it was given.
        member_id: String,
    },
    /// A member's session may have expired.
    Session {
        /// The group.
        group: String,
        /// The member.
        member_id: String,
        /// Its session timer number.
        seq: u64,
    },
}

/// A group write waiting for its commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupWrite {
    /// The partition written.
    pub tp: TopicPartition,
    /// The offset after the record.
    pub end: u64,
    /// The group.
    pub group: String,
    /// The generation written.
    pub generation: u32,
    /// The assignment to hand out on commit (member id -> partitions), for a SyncGroup.
    pub assignment: Option<VecMap<String, Vec<(String, u32)>>>,
}

/// The record `storeGroup` appends (`GroupMetadataValue`, simplified), kept in the log as it is
/// (see `storage.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRecord {
    /// The group id.
    pub group: String,
    /// `Stable` or `Empty`.
    pub state: GroupState,
    /// The generation.
    pub generation: u32,
    /// The assignor.
    pub protocol: Option<String>,
    /// The leader's member id.
    pub leader: Option<String>,
    /// The members in the member map's iteration order, as `GroupMetadataManager` writes
    /// `group.allMemberMetadata` (`members.values.toList`); `loadGroup` adds them back in
    /// this order.
    pub members: Vec<Member>,
    /// Not in Kafka's record: the member ids in the order they were added, kept only so that
    /// the event log can still compare a leader pick with the join order after a failover.
    pub joined_order: Vec<String>,
}

/// The coordinator's state on a broker.
#[derive(Debug, Clone, Default)]
pub struct CoordinatorState {
    /// Loaded groups by id.
    pub groups: VecMap<String, Group>,
    /// Timers by number: a `Timer::Group { id }` fired at the broker is looked up here. A
    /// `BTreeMap`: each heartbeat files a session timer and the older ones stay until they fire,
    /// so with short heartbeats there are thousands, taken from the front.
    #[allow(clippy::disallowed_types)]
    pub timers: BTreeMap<u64, GroupTimer>,
    /// The number of the last timer set (timer numbers are never reused).
    pub(super) next_timer: u64,
    /// The number of the last rebalance started on this broker (a timer of an older one is void).
    pub(super) next_rebalance: u64,
    /// Group writes waiting for the high watermark.
    pub writes: Vec<GroupWrite>,
}
