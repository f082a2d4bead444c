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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_coordinator_cause_renders_its_sentence() {
        let head = |walk, head_option| MapHead {
            kafka: "2.4",
            scala: "2.12",
            head_option,
            walk,
            member: "c2".into(),
            bucket: 15,
            buckets: 16,
            hash: -0x1234_5678,
            code: 0x0abc_def0,
        };
        let tp = TopicPartition::new("__consumer_offsets", 7);
        let cases = [
            (CoordinatorCause::MemberAdded, "JoinGroup: the coordinator adds the member (its id is the client id plus a random UUID)".to_string()),
            (CoordinatorCause::FirstMemberLeads, "the first member added to the group leads (GroupMetadata.add: there was no leader yet)".into()),
            (CoordinatorCause::LeaderLeft { left: "c1".into(), head: head(MapWalk::HashTable { doubled: false }, true), order: vec!["c2".into(), "c3".into()], by_join: "c3".into() }, "leader c1 left; Kafka 2.4's Scala 2.12 build takes members.keys.headOption of its mutable.HashMap of member ids, a HashTable that walks its buckets from the last down (bucket = the top 4 bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first: c2 is in bucket 15 of 16, the highest holding a member (improved hash 0xedcba988, from String.hashCode 0x0abcdef0), so the map yields c2, c3 in that order; by join order c3 would lead".into()),
            (CoordinatorCause::LeaderLeft { left: "c1".into(), head: MapHead { buckets: 32, ..head(MapWalk::HashTable { doubled: true }, false) }, order: vec!["c2".into()], by_join: "c2".into() }, "leader c1 left; Kafka 2.4's Scala 2.12 build takes members.keys.head of its mutable.HashMap of member ids, a HashTable that walks its buckets from the last down (bucket = the top 5 bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first (each doubling of the table reversed the order within a bucket): c2 is in bucket 15 of 32, the highest holding a member (improved hash 0xedcba988, from String.hashCode 0x0abcdef0), so the map yields c2 in that order; by join order c2 would lead".into()),
            (CoordinatorCause::LeaderLeft { left: "c1".into(), head: MapHead { kafka: "3.9", scala: "2.13", ..head(MapWalk::Scala213, true) }, order: vec!["c2".into(), "c3".into()], by_join: "c3".into() }, "leader c1 left; Kafka 3.9's Scala 2.13 build takes members.keys.headOption of its mutable.HashMap of member ids, which walks its buckets from 0 up (bucket = hash & (buckets - 1), hash = h ^ (h >>> 16) of String.hashCode h) and each bucket by ascending hash: c2 is in bucket 15 of 16 (hash 0xedcba988, from String.hashCode 0x0abcdef0), so the map yields c2, c3 in that order; by join order c3 would lead".into()),
            (CoordinatorCause::LeftCleanly, "LeaveGroup: the consumer left cleanly".into()),
            (CoordinatorCause::SessionExpired { session_timeout_ms: 10_000 }, "session expired: no heartbeat within session.timeout.ms (10000 ms)".into()),
            (CoordinatorCause::DidNotRejoin, "it did not rejoin within the rebalance timeout (max.poll.interval.ms)".into()),
            (CoordinatorCause::NoSyncInTime { rebalance_timeout_ms: 300_000 }, "no SyncGroup in time: the member had not sent SyncGroup within the rebalance timeout (max.poll.interval.ms, 300000 ms) after the join completed, so the coordinator removes it and rebalances (KAFKA-12890, 3.0)".into()),
            (CoordinatorCause::NewMemberJoinTimedOut { timeout_ms: 300_000 }, "new member's JoinGroup expired: the rebalance did not complete within NewMemberJoinTimeoutMs (300000 ms) of its joining, so the coordinator removes it and answers UNKNOWN_MEMBER_ID; the consumer joins again as a new member".into()),
            (CoordinatorCause::NoInitialDelay, "Kafka 0.10 has no initial rebalance delay (KIP-134 came in 0.11): the join completes as soon as every member has joined, here at once; a later member starts another rebalance".into()),
            (CoordinatorCause::EveryMemberRejoins, "every member must rejoin (JoinGroup) before the new generation starts; max.poll.interval.ms bounds the wait".into()),
            (CoordinatorCause::InitialDelayNewGroup { delay_ms: 3_000 }, "a brand-new group (generation 0) waits group.initial.rebalance.delay.ms (3000 ms) for more members, and another delay (up to max.poll.interval.ms in all) each time a new member arrived during the last one, then completes the join".into()),
            (CoordinatorCause::InitialDelayExtendedOnce { generation: 2, delay_ms: 3_000 }, "an emptied group (generation 2) waits group.initial.rebalance.delay.ms (3000 ms), then completes the join with the members that came; only a brand-new group's delay is extended, but the new-member flag left set by its generation-0 delay extends this one once more".into()),
            (CoordinatorCause::InitialDelayOnce { generation: 2, delay_ms: 3_000 }, "an emptied group (generation 2) waits group.initial.rebalance.delay.ms (3000 ms) once, then completes the join with the members that came: only a brand-new group (generation 0) extends the delay while members keep arriving".into()),
            (CoordinatorCause::EmptyAfterRebalance, "the rebalance completed with no members: the group is Empty, and the generation still moves on".into()),
            (CoordinatorCause::AssignmentStored { assignor: "range".into(), tp: tp.clone() }, "the leader's range assignment was written to __consumer_offsets-7 and committed; SyncGroup hands each member its part".into()),
            (CoordinatorCause::CoordinatorMoved { broker: 2, tp }, "broker 2 now leads __consumer_offsets-7, so it coordinates the group: it loads the group as stored there (same state, generation, leader and members) and gives every member a fresh session deadline, so there is no rebalance".into()),
        ];
        let zh = crate::i18n::testing::zh();
        for (cause, text) in cases {
            assert_eq!(cause.english(), text, "{cause:?}");
            crate::i18n::testing::assert_chinese(&cause.render(&zh), &cause.english());
        }
    }
}
