//! The group coordinator's causes: members joining and leaving (`GroupCoordinator.
//! handleJoinGroup`, `handleLeaveGroup`, `onMemberFailure` / `removeMemberAndUpdateGroup`), the
//! leader a group picks (`GroupMetadata.add`, `GroupMetadata.remove`), rebalances and their
//! delays (`prepareRebalance`, `InitialDelayedJoin`, KIP-134), the stored assignment, and a
//! coordinator moving with the leadership of its `__consumer_offsets` partition.

use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;
use crate::text::{causes as m, English, Words};

/// How the Scala `mutable.HashMap` of member ids is walked to find its first key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapWalk {
    /// Scala 2.13: buckets from 0 up, each by ascending hash.
    Scala213,
    /// Scala 2.11 and 2.12 (`HashTable`): buckets from the last down, each newest first.
    HashTable {
        /// The table doubled since it was made, which reversed the order within a bucket.
        doubled: bool,
    },
}

/// Why a member is the first key of the member map (`GroupMetadata.remove` takes
/// `members.keys.head` in 0.10.2.2 and 2.0.1, `members.keys.headOption` in 2.4.1 and 3.9.0),
/// with the figures of the profile's Scala `mutable.HashMap`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapHead {
    /// The Kafka version, e.g. `"2.4"`.
    pub kafka: &'static str,
    /// The Scala version of its build, e.g. `"2.12"`.
    pub scala: &'static str,
    /// `members.keys.headOption` (2.4+) rather than `members.keys.head`.
    pub head_option: bool,
    /// How the map is walked.
    pub walk: MapWalk,
    /// The member's client id.
    pub member: String,
    /// Its bucket.
    pub bucket: usize,
    /// The number of buckets.
    pub buckets: usize,
    /// Its (improved) hash.
    pub hash: i32,
    /// `String.hashCode` of its member id.
    pub code: i32,
}

impl MapHead {
    /// The English words.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The words in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        let MapHead {
            kafka,
            scala,
            head_option,
            walk,
            member,
            bucket,
            buckets,
            hash,
            code,
        } = self;
        let head = if *head_option {
            "members.keys.headOption"
        } else {
            "members.keys.head"
        };
        let msg = match walk {
            MapWalk::Scala213 => m::CAUSE_MAP_HEAD_SCALA_213,
            MapWalk::HashTable { doubled: false } => m::CAUSE_MAP_HEAD_HASH_TABLE,
            MapWalk::HashTable { doubled: true } => m::CAUSE_MAP_HEAD_HASH_TABLE_DOUBLED,
        };
        tr.f(
            msg,
            &[
                ("kafka", kafka),
                ("scala", scala),
                ("head", &head),
                ("bits", &buckets.trailing_zeros()),
                ("member", member),
                ("bucket", bucket),
                ("buckets", buckets),
                ("hash", &format!("{hash:#010x}")),
                ("code", &format!("{code:#010x}")),
            ],
        )
    }
}

/// Why the group coordinator did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoordinatorCause {
    /// JoinGroup adds a member.
    MemberAdded,
    /// The first member added leads (`GroupMetadata.add`).
    FirstMemberLeads,
    /// The leader left; the first key of the member map leads (`GroupMetadata.remove`).
    LeaderLeft {
        /// The departed leader's client id.
        left: String,
        /// Why the new leader is the map's first key.
        head: MapHead,
        /// The client ids in the map's order.
        order: Vec<String>,
        /// Who would lead by join order.
        by_join: String,
    },
    /// LeaveGroup.
    LeftCleanly,
    /// No heartbeat within the member's `session.timeout.ms`.
    SessionExpired {
        /// The member's `session.timeout.ms`.
        session_timeout_ms: u64,
    },
    /// The member did not rejoin within the rebalance timeout.
    DidNotRejoin,
    /// 3.0+: the member had not sent SyncGroup within the rebalance timeout after the join
    /// completed (`DelayedSync`, `onExpirePendingSync`, KAFKA-12890).
    NoSyncInTime {
        /// The group's rebalance timeout (the largest `max.poll.interval.ms` of its members).
        rebalance_timeout_ms: u64,
    },
    /// A new member's JoinGroup waited `NewMemberJoinTimeoutMs` without the rebalance
    /// completing (2.4.1, 3.9.0: `addMemberAndRebalance`, `onExpireHeartbeat`).
    NewMemberJoinTimedOut {
        /// `GroupCoordinator.NewMemberJoinTimeoutMs`.
        timeout_ms: u64,
    },
    /// 0.10: no initial rebalance delay (KIP-134 came in 0.11).
    NoInitialDelay,
    /// A rebalance of a non-empty group: every member must rejoin.
    EveryMemberRejoins,
    /// A brand-new group's initial delay, extended while members arrive (`InitialDelayedJoin`).
    InitialDelayNewGroup {
        /// `group.initial.rebalance.delay.ms`.
        delay_ms: u64,
    },
    /// An emptied group's initial delay, extended once more by the new-member flag its
    /// generation-0 delay left set.
    InitialDelayExtendedOnce {
        /// The group's generation.
        generation: u32,
        /// `group.initial.rebalance.delay.ms`.
        delay_ms: u64,
    },
    /// An emptied group's initial delay, once.
    InitialDelayOnce {
        /// The group's generation.
        generation: u32,
        /// `group.initial.rebalance.delay.ms`.
        delay_ms: u64,
    },
    /// The join completed with no members.
    EmptyAfterRebalance,
    /// The leader's assignment is committed to the group's partition of `__consumer_offsets`.
    AssignmentStored {
        /// The assignor's name.
        assignor: String,
        /// The group's partition of `__consumer_offsets`.
        tp: TopicPartition,
    },
    /// The broker now leads the group's partition of `__consumer_offsets` and loads the group.
    CoordinatorMoved {
        /// The new coordinator.
        broker: BrokerId,
        /// The group's partition of `__consumer_offsets`.
        tp: TopicPartition,
    },
}

impl CoordinatorCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            CoordinatorCause::MemberAdded => tr.t(m::CAUSE_COORD_MEMBER_ADDED),
            CoordinatorCause::FirstMemberLeads => tr.t(m::CAUSE_COORD_FIRST_MEMBER_LEADS),
            CoordinatorCause::LeaderLeft {
                left,
                head,
                order,
                by_join,
            } => tr.f(
                m::CAUSE_COORD_LEADER_LEFT,
                &[
                    ("left", left),
                    ("head", &head.render(tr)),
                    ("order", &order.join(&tr.t(m::ENUM_SEP))),
                    ("by_join", by_join),
                ],
            ),
            CoordinatorCause::LeftCleanly => tr.t(m::CAUSE_COORD_LEFT_CLEANLY),
            CoordinatorCause::SessionExpired { session_timeout_ms } => tr.f(
                m::CAUSE_COORD_SESSION_EXPIRED,
                &[("session_timeout_ms", session_timeout_ms)],
            ),
            CoordinatorCause::DidNotRejoin => tr.t(m::CAUSE_COORD_DID_NOT_REJOIN),
            CoordinatorCause::NoSyncInTime {
                rebalance_timeout_ms,
            } => tr.f(
                m::CAUSE_COORD_NO_SYNC_IN_TIME,
                &[("rebalance_timeout_ms", rebalance_timeout_ms)],
            ),
            CoordinatorCause::NewMemberJoinTimedOut { timeout_ms } => tr.f(
                m::CAUSE_COORD_NEW_MEMBER_JOIN_TIMED_OUT,
                &[("timeout_ms", timeout_ms)],
            ),
            CoordinatorCause::NoInitialDelay => tr.t(m::CAUSE_COORD_NO_INITIAL_DELAY),
            CoordinatorCause::EveryMemberRejoins => tr.t(m::CAUSE_COORD_EVERY_MEMBER_REJOINS),
            CoordinatorCause::InitialDelayNewGroup { delay_ms } => tr.f(
                m::CAUSE_COORD_INITIAL_DELAY_NEW_GROUP,
                &[("delay_ms", delay_ms)],
            ),
            CoordinatorCause::InitialDelayExtendedOnce {
                generation,
                delay_ms,
            } => tr.f(
                m::CAUSE_COORD_INITIAL_DELAY_EXTENDED_ONCE,
                &[("generation", generation), ("delay_ms", delay_ms)],
            ),
            CoordinatorCause::InitialDelayOnce {
                generation,
                delay_ms,
            } => tr.f(
                m::CAUSE_COORD_INITIAL_DELAY_ONCE,
                &[("generation", generation), ("delay_ms", delay_ms)],
            ),
            CoordinatorCause::EmptyAfterRebalance => tr.t(m::CAUSE_COORD_EMPTY_AFTER_REBALANCE),
            CoordinatorCause::AssignmentStored { assignor, tp } => tr.f(
                m::CAUSE_COORD_ASSIGNMENT_STORED,
                &[("assignor", assignor), ("tp", tp)],
            ),
            CoordinatorCause::CoordinatorMoved { broker, tp } => tr.f(
                m::CAUSE_COORD_COORDINATOR_MOVED,
                &[("broker", broker), ("tp", tp)],
            ),
        }
    }
}
