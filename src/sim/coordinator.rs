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

use super::broker::Broker;
use super::config::{Profile, Settings};
use super::event::EventKind;
use super::group_order::{java_string_hash_code, MemberOrder, ScalaVersion};
use super::message::{Body, Joined, KafkaError, Out, Timer};
use super::net::{BrokerId, Endpoint};
use super::replication::Role;
use super::topic::TopicPartition;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The internal topic that stores groups.
pub const OFFSETS_TOPIC: &str = "__consumer_offsets";

/// A group's state (`GroupState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GroupState {
    /// No members.
    Empty,
    /// Waiting for the members to (re)join.
    PreparingRebalance,
    /// Joined; waiting for the leader's assignment.
    CompletingRebalance,
    /// Every member has its assignment.
    Stable,
    /// Gone from this coordinator.
    Dead,
}

impl GroupState {
    /// Kafka's name.
    pub fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
            GroupState::Dead => "Dead",
        }
    }
}

/// One member, as the coordinator knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// When the coordinator last heard from it.
    #[serde(skip)]
    pub last_heard_ms: u64,
    /// Its JoinGroup waiting for the rebalance to complete.
    #[serde(skip)]
    pub awaiting_join: bool,
    /// The number of its current session timer.
    #[serde(skip)]
    pub session_timer: u64,
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
    pub leader_why: String,
    /// Whether the leader changed since the last completed join.
    pub leader_changed: bool,
    /// Members by member id.
    pub members: BTreeMap<String, Member>,
    /// The member ids in the iteration order of Kafka's Scala `mutable.HashMap` (of the
    /// profile's Scala version).
    pub order: MemberOrder,
    /// `GroupMetadata.newMemberAdded`: a member was added during the initial delay of a brand-new
    /// group (generation 0), so the delay may be extended. Only `InitialDelayedJoin` clears it.
    pub new_member_added: bool,
    /// Member ids handed out with MEMBER_ID_REQUIRED and not yet used (KIP-394).
    pub pending: BTreeSet<String>,
    /// Members waiting for their SyncGroup answer.
    pub awaiting_sync: BTreeSet<String>,
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
    pub assignment: Option<BTreeMap<String, Vec<(String, u32)>>>,
}

/// The record `storeGroup` appends (`GroupMetadataValue`, simplified).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    #[serde(default)]
    pub joined_order: Vec<String>,
}

/// The coordinator's state on a broker.
#[derive(Debug, Clone, Default)]
pub struct CoordinatorState {
    /// Loaded groups by id.
    pub groups: BTreeMap<String, Group>,
    /// Timers by number.
    pub timers: BTreeMap<u64, GroupTimer>,
    next_timer: u64,
    /// The number of the last rebalance started on this broker (a timer of an older one is void).
    next_rebalance: u64,
    /// Group writes waiting for the high watermark.
    pub writes: Vec<GroupWrite>,
}

impl CoordinatorState {
    fn timer(&mut self, now_plus: u64, t: GroupTimer, me: Endpoint, out: &mut Out) -> u64 {
        self.next_timer += 1;
        self.timers.insert(self.next_timer, t);
        out.timer(
            now_plus,
            me,
            Timer::Group {
                id: self.next_timer,
            },
        );
        self.next_timer
    }
}

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

fn tp_list(a: &[(String, u32)]) -> Vec<TopicPartition> {
    a.iter().map(|(t, p)| TopicPartition::new(t, *p)).collect()
}

/// `group.currentMemberMetadata`: every member with its subscription, in the member map's
/// order (what the leader's JoinGroup response lists).
fn member_list(group: &Group) -> Vec<(String, Vec<String>)> {
    group
        .order
        .keys()
        .into_iter()
        .filter_map(|id| group.members.get(&id).map(|m| (id, m.topics.clone())))
        .collect()
}

/// Why `next` (named `name`) is the first key of `order`, in the words of the profile's Scala
/// version: `GroupMetadata.remove` takes `members.keys.head` (0.10.2.2, 2.0.1) or
/// `members.keys.headOption` (2.4.1, 3.9.0) of a `mutable.HashMap`, whose order
/// [`super::group_order`] models.
fn explain_pick(profile: Profile, order: &MemberOrder, next: &str, name: &str) -> String {
    let head = if profile >= Profile::V2_4 {
        "members.keys.headOption"
    } else {
        "members.keys.head"
    };
    let scala = order.scala_version();
    let buckets = order.table_len();
    let bucket = order.bucket_of(next);
    let hash = order.improved_hash(next);
    let code = java_string_hash_code(next);
    let build = format!(
        "Kafka {}'s Scala {} build takes {head} of its mutable.HashMap of member ids",
        profile.name(),
        scala.name()
    );
    match scala {
        ScalaVersion::V2_13 => format!(
            "{build}, which walks its buckets from 0 up (bucket = hash & (buckets - 1), hash = h ^ (h >>> 16) of String.hashCode h) and each bucket by ascending hash: {name} is in bucket {bucket} of {buckets} (hash {hash:#010x}, from String.hashCode {code:#010x})"
        ),
        ScalaVersion::V2_11 | ScalaVersion::V2_12 => format!(
            "{build}, a HashTable that walks its buckets from the last down (bucket = the top {} bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first{}: {name} is in bucket {bucket} of {buckets}, the highest holding a member (improved hash {hash:#010x}, from String.hashCode {code:#010x})",
            buckets.trailing_zeros(),
            if buckets > super::group_order::SCALA_HASHMAP_INITIAL_BUCKETS {
                " (each doubling of the table reversed the order within a bucket)"
            } else {
                ""
            }
        ),
    }
}

impl Broker {
    fn leads(&self, tp: &TopicPartition) -> bool {
        self.replicas
            .get(tp)
            .and_then(|r| r.state.as_ref())
            .is_some_and(|s| matches!(s.role, Role::Leader(_)))
    }

    /// FindCoordinator, answered from this broker's metadata cache.
    pub(crate) fn on_find_coordinator(
        &mut self,
        from: Endpoint,
        group: String,
        settings: &Settings,
        out: &mut Out,
    ) {
        let tp = group_partition(&group, settings);
        let result = match self.metadata_partitions.get(&tp) {
            Some(p) if p.leader >= 0 => Ok(p.leader as BrokerId),
            _ => Err(KafkaError::CoordinatorNotAvailable),
        };
        out.send(
            self.me(),
            from,
            Body::FindCoordinatorResponse { group, result },
        );
    }

    fn group_check(&self, group: &str, settings: &Settings) -> Result<(), KafkaError> {
        let tp = group_partition(group, settings);
        if self.leads(&tp) {
            Ok(())
        } else {
            Err(KafkaError::NotCoordinator)
        }
    }

    /// `handleJoinGroup`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn on_join_group(
        &mut self,
        now: u64,
        from: Endpoint,
        (group_id, member_id, client_id): (String, String, String),
        (topics, assignor): (Vec<String>, String),
        (session_timeout_ms, rebalance_timeout_ms): (u64, u64),
        new_member_id: String,
        settings: &Settings,
        out: &mut Out,
    ) {
        let reply = |result: Result<Joined, (KafkaError, String)>, out: &mut Out, me: Endpoint| {
            out.send(
                me,
                from,
                Body::JoinGroupResponse {
                    group: group_id.clone(),
                    result,
                },
            );
        };
        let me = self.me();
        if let Err(e) = self.group_check(&group_id, settings) {
            reply(Err((e, member_id)), out, me);
            return;
        }
        let Endpoint::Consumer(consumer) = from else {
            return;
        };
        let coordinator = self.id;
        let partition = group_partition(&group_id, settings);
        let group = self
            .coordinator
            .groups
            .entry(group_id.clone())
            .or_insert_with(|| Group {
                id: group_id.clone(),
                partition,
                state: GroupState::Empty,
                generation: 0,
                protocol: None,
                leader: None,
                leader_why: String::new(),
                leader_changed: false,
                members: BTreeMap::new(),
                order: MemberOrder::new(settings.profile.scala_version()),
                new_member_added: false,
                pending: BTreeSet::new(),
                awaiting_sync: BTreeSet::new(),
                rebalance: None,
                joined_order: Vec::new(),
            });
        if group.state == GroupState::Dead {
            reply(
                Err((KafkaError::CoordinatorNotAvailable, member_id)),
                out,
                me,
            );
            return;
        }
        // Before KIP-394 (2.2) a member without an id is added at once with a new id
        // (`addMemberAndRebalance` makes it); from 2.2 it is told its id and must join again.
        let (member_id, fresh) = if member_id.is_empty() {
            if member_ids_required(settings.profile) {
                group.pending.insert(new_member_id.clone());
                reply(Err((KafkaError::MemberIdRequired, new_member_id)), out, me);
                return;
            }
            (new_member_id, true)
        } else {
            (member_id, false)
        };
        let known = group.members.contains_key(&member_id);
        if !known && !fresh && !group.pending.remove(&member_id) {
            reply(Err((KafkaError::UnknownMemberId, member_id)), out, me);
            return;
        }
        if known {
            // GroupCoordinator.doJoinGroup (0.10.2.2, 2.0.1) / doCurrentMemberJoinGroup (2.4.1,
            // 3.9.0), a known member: `member.matches(protocols)` compares the protocol names
            // and metadata, here the assignor and the subscribed topics.
            let is_leader = group.leader.as_deref() == Some(member_id.as_str());
            let m = &group.members[&member_id];
            let unchanged = m.topics == topics && m.assignor == assignor;
            let current = match group.state {
                // CompletingRebalance (AwaitingSync in 0.10): the member probably missed its
                // JoinGroup response; it gets the current generation's result again, the leader
                // with the member list, and no rebalance starts.
                GroupState::CompletingRebalance => unchanged,
                // Stable: a follower gets the current generation back; the leader's JoinGroup
                // always forces a rebalance (it may see changes the metadata does not show).
                GroupState::Stable => unchanged && !is_leader,
                _ => false,
            };
            if current {
                let joined = Joined {
                    generation: group.generation,
                    leader: group.leader.clone().unwrap_or_default(),
                    member_id: member_id.clone(),
                    protocol: group.protocol.clone().unwrap_or_default(),
                    members: if is_leader {
                        member_list(group)
                    } else {
                        Vec::new()
                    },
                };
                reply(Ok(joined), out, me);
                return;
            }
        }
        if !known {
            // addMemberAndRebalance (2.0.1, 2.4.1, 3.9.0): `if (group.is(PreparingRebalance) &&
            // group.generationId == 0) group.newMemberAdded = true`, checked before the member
            // is added: only a brand-new group's initial delay is extended.
            if group.state == GroupState::PreparingRebalance && group.generation == 0 {
                group.new_member_added = true;
            }
            group.members.insert(
                member_id.clone(),
                Member {
                    member_id: member_id.clone(),
                    client_id: client_id.clone(),
                    topics,
                    assignor,
                    session_timeout_ms,
                    rebalance_timeout_ms,
                    consumer,
                    assignment: Vec::new(),
                    last_heard_ms: now,
                    awaiting_join: true,
                    session_timer: 0,
                },
            );
            group.order.insert(&member_id);
            group.joined_order.push(member_id.clone());
            if group.leader.is_none() {
                group.leader = Some(member_id.clone());
                group.leader_changed = true;
                group.leader_why = "the first member added to the group leads (GroupMetadata.add: there was no leader yet)".into();
            }
            out.event(
                EventKind::GroupMemberJoined {
                    group: group_id.clone(),
                    member: client_id.clone(),
                    member_id: member_id.clone(),
                    coordinator,
                },
                "JoinGroup: the coordinator adds the member (its id is the client id plus a random UUID)",
            );
        } else {
            // updateMemberAndRebalance: the new protocols, then the rebalance.
            let m = group.members.get_mut(&member_id).expect("known");
            m.topics = topics;
            m.assignor = assignor;
            m.awaiting_join = true;
            m.consumer = consumer;
            m.last_heard_ms = now;
        }
        let reason = if known {
            format!("member {client_id} rejoined")
        } else {
            format!("member {client_id} joined")
        };
        match group.state {
            GroupState::Empty | GroupState::Stable | GroupState::CompletingRebalance => {
                self.prepare_rebalance(now, &group_id, &reason, settings, out)
            }
            GroupState::PreparingRebalance => self.try_complete_join(now, &group_id, settings, out),
            GroupState::Dead => {}
        }
    }

    fn prepare_rebalance(
        &mut self,
        now: u64,
        group_id: &str,
        reason: &str,
        settings: &Settings,
        out: &mut Out,
    ) {
        let me = self.me();
        let coordinator = self.id;
        let Some(group) = self.coordinator.groups.get_mut(group_id) else {
            return;
        };
        if group.state == GroupState::CompletingRebalance {
            // The members waiting for their assignment must rejoin.
            for m in std::mem::take(&mut group.awaiting_sync) {
                if let Some(member) = group.members.get(&m) {
                    out.send(
                        me,
                        Endpoint::Consumer(member.consumer),
                        Body::SyncGroupResponse {
                            group: group_id.to_string(),
                            result: Err(KafkaError::RebalanceInProgress),
                        },
                    );
                }
            }
        }
        let was_empty = group.state == GroupState::Empty;
        // prepareRebalance (2.0.1, 2.4.1, 3.9.0): an Empty group gets an `InitialDelayedJoin` of
        // `groupInitialRebalanceDelayMs` with `remainingMs = max(rebalanceTimeoutMs - delay, 0)`,
        // which never completes early (`tryComplete` is false) and has no other deadline; any
        // other group a `DelayedJoin` bounded by the rebalance timeout. 0.10.2.2 always makes a
        // `DelayedJoin`.
        let initial_delay = was_empty && settings.profile.has_initial_rebalance_delay();
        group.state = GroupState::PreparingRebalance;
        let timeout = group
            .members
            .values()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(settings.max_poll_interval_ms);
        // Numbered per coordinator, never reused: a deadline left from an earlier rebalance of
        // this group must not complete a later one.
        self.coordinator.next_rebalance += 1;
        let seq = self.coordinator.next_rebalance;
        let configured = settings.group_initial_rebalance_delay_ms;
        let initial = initial_delay.then(|| (configured, timeout.saturating_sub(configured)));
        group.rebalance = Some(Rebalance { seq, initial });
        let generation = group.generation;
        let stale_flag = group.new_member_added;
        let cs = &mut self.coordinator;
        let (at, timer) = if initial_delay {
            (
                now + configured,
                GroupTimer::InitialDelay {
                    group: group_id.to_string(),
                    seq,
                },
            )
        } else {
            (
                now + timeout,
                GroupTimer::JoinDeadline {
                    group: group_id.to_string(),
                    seq,
                },
            )
        };
        cs.timer(at, timer, me, out);
        let cause = if !initial_delay {
            if was_empty {
                "Kafka 0.10 has no initial rebalance delay (KIP-134 came in 0.11): the join completes as soon as every member has joined, here at once; a later member starts another rebalance".to_string()
            } else {
                "every member must rejoin (JoinGroup) before the new generation starts; max.poll.interval.ms bounds the wait".to_string()
            }
        } else if generation == 0 {
            format!(
                "a brand-new group (generation 0) waits group.initial.rebalance.delay.ms ({configured} ms) for more members, and another delay (up to max.poll.interval.ms in all) each time a new member arrived during the last one, then completes the join"
            )
        } else if stale_flag && timeout > configured {
            format!(
                "an emptied group (generation {generation}) waits group.initial.rebalance.delay.ms ({configured} ms), then completes the join with the members that came; only a brand-new group's delay is extended, but the new-member flag left set by its generation-0 delay extends this one once more"
            )
        } else {
            format!(
                "an emptied group (generation {generation}) waits group.initial.rebalance.delay.ms ({configured} ms) once, then completes the join with the members that came: only a brand-new group (generation 0) extends the delay while members keep arriving"
            )
        };
        out.event(
            EventKind::RebalanceStarted {
                group: group_id.to_string(),
                generation,
                reason: reason.to_string(),
                coordinator,
            },
            cause,
        );
        self.try_complete_join(now, group_id, settings, out);
    }

    fn try_complete_join(&mut self, now: u64, group_id: &str, settings: &Settings, out: &mut Out) {
        let Some(group) = self.coordinator.groups.get(group_id) else {
            return;
        };
        if group.state != GroupState::PreparingRebalance {
            return;
        }
        if group
            .rebalance
            .as_ref()
            .is_some_and(|r| r.initial.is_some())
        {
            return;
        }
        if group.members.values().all(|m| m.awaiting_join) {
            self.complete_join(now, group_id, settings, out);
        }
    }

    /// `onCompleteJoin`: the new generation, its leader, and the JoinGroup answers.
    fn complete_join(&mut self, now: u64, group_id: &str, settings: &Settings, out: &mut Out) {
        // Members that did not rejoin in time are dropped (onCompleteJoin:
        // `group.notYetRejoinedMembers`, in the member map's order).
        let late: Vec<String> = self
            .coordinator
            .groups
            .get(group_id)
            .map(|g| {
                g.order
                    .keys()
                    .into_iter()
                    .filter(|id| g.members.get(id).is_some_and(|m| !m.awaiting_join))
                    .collect()
            })
            .unwrap_or_default();
        for m in late {
            self.remove_member(
                settings.profile,
                group_id,
                &m,
                "it did not rejoin within the rebalance timeout (max.poll.interval.ms)",
                out,
            );
        }
        let me = self.me();
        let coordinator = self.id;
        let Some(group) = self.coordinator.groups.get_mut(group_id) else {
            return;
        };
        group.generation += 1;
        group.rebalance = None;
        if group.members.is_empty() {
            group.state = GroupState::Empty;
            group.protocol = None;
            group.leader = None;
            out.event(
                EventKind::GroupEmpty {
                    group: group_id.to_string(),
                    generation: group.generation,
                    coordinator,
                },
                "the rebalance completed with no members: the group is Empty, and the generation still moves on",
            );
            self.store_group(now, group_id, None, settings, out);
            return;
        }
        group.state = GroupState::CompletingRebalance;
        group.protocol = group.members.values().next().map(|m| m.assignor.clone());
        let generation = group.generation;
        let leader = group.leader.clone().unwrap_or_default();
        if group.leader_changed {
            group.leader_changed = false;
            let name = group
                .members
                .get(&leader)
                .map(|m| m.client_id.clone())
                .unwrap_or_default();
            out.event(
                EventKind::GroupLeaderChosen {
                    group: group_id.to_string(),
                    member: name,
                    member_id: leader.clone(),
                    generation,
                },
                group.leader_why.clone(),
            );
        }
        let everyone = member_list(group);
        for m in group.members.values_mut() {
            m.awaiting_join = false;
            m.last_heard_ms = now;
            let joined = Joined {
                generation,
                leader: leader.clone(),
                member_id: m.member_id.clone(),
                protocol: group.protocol.clone().unwrap_or_default(),
                members: if m.member_id == leader {
                    everyone.clone()
                } else {
                    Vec::new()
                },
            };
            out.send(
                me,
                Endpoint::Consumer(m.consumer),
                Body::JoinGroupResponse {
                    group: group_id.to_string(),
                    result: Ok(joined),
                },
            );
        }
        let ids: Vec<(String, u64)> = group
            .members
            .values()
            .map(|m| (m.member_id.clone(), m.session_timeout_ms))
            .collect();
        for (id, timeout) in ids {
            self.schedule_session(now, group_id, &id, timeout, out);
        }
    }

    fn schedule_session(
        &mut self,
        now: u64,
        group_id: &str,
        member_id: &str,
        timeout: u64,
        out: &mut Out,
    ) {
        let me = self.me();
        let cs = &mut self.coordinator;
        let seq = cs.next_timer + 1;
        if let Some(m) = cs
            .groups
            .get_mut(group_id)
            .and_then(|g| g.members.get_mut(member_id))
        {
            m.session_timer = seq;
            m.last_heard_ms = now;
        } else {
            return;
        }
        cs.timer(
            now + timeout,
            GroupTimer::Session {
                group: group_id.to_string(),
                member_id: member_id.to_string(),
                seq,
            },
            me,
            out,
        );
    }

    /// Removes a member; a departing leader is replaced at once by the first key of the member
    /// map (`GroupMetadata.remove`).
    fn remove_member(
        &mut self,
        profile: Profile,
        group_id: &str,
        member_id: &str,
        why: &str,
        out: &mut Out,
    ) {
        let coordinator = self.id;
        let Some(group) = self.coordinator.groups.get_mut(group_id) else {
            return;
        };
        let Some(m) = group.members.remove(member_id) else {
            return;
        };
        group.order.remove(member_id);
        group.awaiting_sync.remove(member_id);
        group.joined_order.retain(|x| x != member_id);
        out.event(
            EventKind::GroupMemberRemoved {
                group: group_id.to_string(),
                member: m.client_id.clone(),
                member_id: member_id.to_string(),
                coordinator,
            },
            why.to_string(),
        );
        if group.leader.as_deref() == Some(member_id) {
            let next = group.order.head_key().map(str::to_string);
            group.leader = next.clone();
            group.leader_changed = next.is_some();
            if let Some(next) = next {
                let name = |id: &str| {
                    group
                        .members
                        .get(id)
                        .map_or(id.to_string(), |m| m.client_id.clone())
                };
                let by_join = group.joined_order.first().cloned().unwrap_or_default();
                let order: Vec<String> = group.order.keys().iter().map(|k| name(k)).collect();
                group.leader_why = format!(
                    "leader {} left; {}, so the map yields {} in that order; by join order {} would lead",
                    m.client_id,
                    explain_pick(profile, &group.order, &next, &name(&next)),
                    order.join(", "),
                    name(&by_join),
                );
            }
        }
    }

    /// `handleSyncGroup`.
    pub(crate) fn on_sync_group(
        &mut self,
        now: u64,
        from: Endpoint,
        (group_id, generation, member_id): (String, u32, String),
        assignment: Vec<(String, Vec<TopicPartition>)>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let me = self.me();
        let reply = |result: Result<Vec<TopicPartition>, KafkaError>, out: &mut Out| {
            out.send(
                me,
                from,
                Body::SyncGroupResponse {
                    group: group_id.clone(),
                    result,
                },
            );
        };
        if let Err(e) = self.group_check(&group_id, settings) {
            reply(Err(e), out);
            return;
        }
        let Some(group) = self.coordinator.groups.get_mut(&group_id) else {
            reply(Err(KafkaError::UnknownMemberId), out);
            return;
        };
        if !group.members.contains_key(&member_id) {
            reply(Err(KafkaError::UnknownMemberId), out);
            return;
        }
        if generation != group.generation {
            reply(Err(KafkaError::IllegalGeneration), out);
            return;
        }
        match group.state {
            GroupState::PreparingRebalance => reply(Err(KafkaError::RebalanceInProgress), out),
            GroupState::Stable => {
                let a = tp_list(&group.members[&member_id].assignment);
                reply(Ok(a), out);
            }
            GroupState::CompletingRebalance => {
                group.awaiting_sync.insert(member_id.clone());
                if group.leader.as_deref() == Some(&member_id) {
                    let mut map: BTreeMap<String, Vec<(String, u32)>> = BTreeMap::new();
                    for (m, tps) in assignment {
                        if group.members.contains_key(&m) {
                            map.insert(
                                m,
                                tps.into_iter().map(|tp| (tp.topic, tp.partition)).collect(),
                            );
                        }
                    }
                    self.store_group(now, &group_id, Some(map), settings, out);
                }
            }
            GroupState::Empty | GroupState::Dead => reply(Err(KafkaError::UnknownMemberId), out),
        }
    }

    /// `storeGroup`: append the group to its partition; act once the append is committed.
    fn store_group(
        &mut self,
        now: u64,
        group_id: &str,
        assignment: Option<BTreeMap<String, Vec<(String, u32)>>>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(group) = self.coordinator.groups.get(group_id) else {
            return;
        };
        let tp = group.partition.clone();
        // GroupMetadataManager.groupMetadataValue writes `group.allMemberMetadata`, i.e.
        // `members.values.toList`: the member map's order.
        let members: Vec<Member> = group
            .order
            .keys()
            .iter()
            .filter_map(|id| group.members.get(id))
            .map(|m| Member {
                assignment: assignment
                    .as_ref()
                    .and_then(|a| a.get(&m.member_id).cloned())
                    .unwrap_or_default(),
                ..m.clone()
            })
            .collect();
        let record = GroupRecord {
            group: group_id.to_string(),
            state: if assignment.is_some() {
                GroupState::Stable
            } else {
                GroupState::Empty
            },
            generation: group.generation,
            protocol: group.protocol.clone(),
            leader: group.leader.clone(),
            members,
            joined_order: group.joined_order.clone(),
        };
        let generation = group.generation;
        let Some((replica, epoch)) = self.replicas.get_mut(&tp).and_then(|r| {
            let e = r.state.as_ref().map(|s| s.leader_epoch)?;
            Some((r, e))
        }) else {
            return;
        };
        let offset = replica.log.append_payload(
            epoch,
            serde_json::to_string(&record).expect("a group record serializes"),
        );
        self.coordinator.writes.push(GroupWrite {
            tp: tp.clone(),
            end: offset + 1,
            group: group_id.to_string(),
            generation,
            assignment,
        });
        self.after_append(now, &tp, settings, out);
    }

    /// Completes the group writes the high watermark has passed (called by replication).
    pub(crate) fn complete_group_writes(&mut self, tp: &TopicPartition, hw: u64, out: &mut Out) {
        let (done, keep): (Vec<GroupWrite>, Vec<GroupWrite>) =
            std::mem::take(&mut self.coordinator.writes)
                .into_iter()
                .partition(|w| w.tp == *tp && w.end <= hw);
        self.coordinator.writes = keep;
        let me = self.me();
        let coordinator = self.id;
        for w in done {
            let Some(group) = self.coordinator.groups.get_mut(&w.group) else {
                continue;
            };
            let Some(assignment) = w.assignment else {
                continue;
            };
            if group.generation != w.generation || group.state != GroupState::CompletingRebalance {
                continue;
            }
            for (id, m) in group.members.iter_mut() {
                m.assignment = assignment.get(id).cloned().unwrap_or_default();
            }
            group.state = GroupState::Stable;
            for id in std::mem::take(&mut group.awaiting_sync) {
                if let Some(m) = group.members.get(&id) {
                    out.send(
                        me,
                        Endpoint::Consumer(m.consumer),
                        Body::SyncGroupResponse {
                            group: w.group.clone(),
                            result: Ok(tp_list(&m.assignment)),
                        },
                    );
                }
            }
            let summary: Vec<String> = group
                .members
                .values()
                .map(|m| {
                    let parts: Vec<String> = m
                        .assignment
                        .iter()
                        .map(|(t, p)| format!("{t}-{p}"))
                        .collect();
                    format!("{}: [{}]", m.client_id, parts.join(", "))
                })
                .collect();
            out.event(
                EventKind::GroupStable {
                    group: w.group.clone(),
                    generation: group.generation,
                    coordinator,
                    assignment: summary.join("; "),
                },
                format!(
                    "the leader's {} assignment was written to {} and committed; SyncGroup hands each member its part",
                    group.protocol.clone().unwrap_or_default(),
                    w.tp
                ),
            );
        }
    }

    /// `handleHeartbeat`.
    pub(crate) fn on_heartbeat(
        &mut self,
        now: u64,
        from: Endpoint,
        (group_id, generation, member_id): (String, u32, String),
        settings: &Settings,
        out: &mut Out,
    ) {
        let error = match self.group_check(&group_id, settings) {
            Err(e) => Some(e),
            Ok(()) => match self.coordinator.groups.get(&group_id) {
                None => Some(KafkaError::UnknownMemberId),
                Some(g) if !g.members.contains_key(&member_id) => Some(KafkaError::UnknownMemberId),
                Some(g) if g.generation != generation => Some(KafkaError::IllegalGeneration),
                Some(g) => match g.state {
                    GroupState::PreparingRebalance => Some(KafkaError::RebalanceInProgress),
                    _ => None,
                },
            },
        };
        if !matches!(
            error,
            Some(
                KafkaError::NotCoordinator
                    | KafkaError::UnknownMemberId
                    | KafkaError::IllegalGeneration
            )
        ) {
            let timeout = self
                .coordinator
                .groups
                .get(&group_id)
                .and_then(|g| g.members.get(&member_id))
                .map(|m| m.session_timeout_ms)
                .unwrap_or(settings.consumer_session_timeout_ms);
            self.schedule_session(now, &group_id, &member_id, timeout, out);
        }
        out.send(
            self.me(),
            from,
            Body::HeartbeatResponse {
                group: group_id,
                error,
            },
        );
    }

    /// `handleLeaveGroup`.
    pub(crate) fn on_leave_group(
        &mut self,
        now: u64,
        from: Endpoint,
        (group_id, member_id): (String, String),
        settings: &Settings,
        out: &mut Out,
    ) {
        out.send(
            self.me(),
            from,
            Body::LeaveGroupResponse {
                group: group_id.clone(),
            },
        );
        if self.group_check(&group_id, settings).is_err() {
            return;
        }
        self.member_gone(
            now,
            &group_id,
            &member_id,
            "LeaveGroup: the consumer left cleanly",
            settings,
            out,
        );
    }

    fn member_gone(
        &mut self,
        now: u64,
        group_id: &str,
        member_id: &str,
        why: &str,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(state) = self.coordinator.groups.get(group_id).map(|g| g.state) else {
            return;
        };
        self.remove_member(settings.profile, group_id, member_id, why, out);
        match state {
            GroupState::Stable | GroupState::CompletingRebalance => {
                let name = why.split(':').next().unwrap_or(why).to_string();
                self.prepare_rebalance(
                    now,
                    group_id,
                    &format!("a member left the group ({name})"),
                    settings,
                    out,
                )
            }
            GroupState::PreparingRebalance => self.try_complete_join(now, group_id, settings, out),
            GroupState::Empty | GroupState::Dead => {}
        }
    }

    /// A coordinator timer fired.
    pub(crate) fn on_group_timer(&mut self, now: u64, id: u64, settings: &Settings, out: &mut Out) {
        let Some(t) = self.coordinator.timers.remove(&id) else {
            return;
        };
        match t {
            GroupTimer::InitialDelay { group, seq } => {
                let me = self.me();
                let Some(g) = self.coordinator.groups.get_mut(&group) else {
                    return;
                };
                let Some(r) = g.rebalance.as_mut().filter(|r| r.seq == seq) else {
                    return;
                };
                // InitialDelayedJoin.onComplete (2.0.1, 2.4.1, 3.9.0): `if (group.newMemberAdded
                // && remainingMs != 0)` clear the flag and wait again, `delay = min(configured,
                // remainingMs)`, `remaining = max(remainingMs - delayMs, 0)`; otherwise
                // `super.onComplete()`, i.e. `onCompleteJoin` with the members present.
                match r.initial {
                    Some((delay_ms, remaining)) if g.new_member_added && remaining != 0 => {
                        g.new_member_added = false;
                        let delay = settings.group_initial_rebalance_delay_ms.min(remaining);
                        r.initial = Some((delay, remaining.saturating_sub(delay_ms)));
                        self.coordinator.timer(
                            now + delay,
                            GroupTimer::InitialDelay { group, seq },
                            me,
                            out,
                        );
                    }
                    _ => {
                        r.initial = None;
                        self.complete_join(now, &group, settings, out);
                    }
                }
            }
            GroupTimer::JoinDeadline { group, seq } => {
                let current = self
                    .coordinator
                    .groups
                    .get(&group)
                    .and_then(|g| g.rebalance.as_ref())
                    .is_some_and(|r| r.seq == seq);
                if current {
                    self.complete_join(now, &group, settings, out);
                }
            }
            GroupTimer::Session {
                group,
                member_id,
                seq,
            } => {
                let Some(m) = self
                    .coordinator
                    .groups
                    .get(&group)
                    .filter(|g| g.state != GroupState::Dead)
                    .and_then(|g| g.members.get(&member_id))
                else {
                    return;
                };
                if m.session_timer != seq {
                    return;
                }
                if m.awaiting_join {
                    // A member waiting in JoinGroup is kept alive (shouldKeepAlive).
                    let timeout = m.session_timeout_ms;
                    self.schedule_session(now, &group, &member_id, timeout, out);
                    return;
                }
                let why = format!(
                    "session expired: no heartbeat within session.timeout.ms ({} ms)",
                    m.session_timeout_ms
                );
                self.member_gone(now, &group, &member_id, &why, settings, out);
            }
        }
    }

    /// `loadGroupsForPartition`: this broker now leads an offsets partition; it loads the groups
    /// stored there as they were, with fresh heartbeat deadlines: no rebalance.
    pub(crate) fn load_groups(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
        // What this broker held from an earlier term is stale: the log is the truth.
        self.coordinator.groups.retain(|_, g| g.partition != *tp);
        let Some(replica) = self.replicas.get(tp) else {
            return;
        };
        let mut latest: BTreeMap<String, GroupRecord> = BTreeMap::new();
        for payload in replica.log.payloads.values() {
            if let Ok(r) = serde_json::from_str::<GroupRecord>(payload) {
                latest.insert(r.group.clone(), r);
            }
        }
        let coordinator = self.id;
        let mut loaded = Vec::new();
        for (id, r) in latest {
            // GroupMetadata.loadGroup adds the stored members one by one, in the record's order,
            // to a new map.
            let stored: Vec<String> = r.members.iter().map(|m| m.member_id.clone()).collect();
            let joined_order: Vec<String> = if r.joined_order.is_empty() {
                stored.clone()
            } else {
                r.joined_order
                    .iter()
                    .filter(|id| stored.contains(id))
                    .cloned()
                    .collect()
            };
            let group = Group {
                id: id.clone(),
                partition: tp.clone(),
                state: r.state,
                generation: r.generation,
                protocol: r.protocol.clone(),
                leader: r.leader.clone(),
                leader_why: String::new(),
                leader_changed: false,
                order: MemberOrder::from_insertion_order(settings.profile.scala_version(), &stored),
                new_member_added: false,
                members: r
                    .members
                    .into_iter()
                    .map(|m| {
                        (
                            m.member_id.clone(),
                            Member {
                                last_heard_ms: now,
                                ..m
                            },
                        )
                    })
                    .collect(),
                pending: BTreeSet::new(),
                awaiting_sync: BTreeSet::new(),
                rebalance: None,
                joined_order,
            };
            out.event(
                EventKind::CoordinatorMoved {
                    group: id.clone(),
                    broker: coordinator,
                    generation: group.generation,
                    state: group.state.name().into(),
                },
                format!("broker {coordinator} now leads {tp}, so it coordinates the group: it loads the group as stored there (same state, generation, leader and members) and gives every member a fresh session deadline, so there is no rebalance"),
            );
            loaded.push((id.clone(), group));
        }
        for (id, group) in loaded {
            let members: Vec<(String, u64)> = group
                .members
                .values()
                .map(|m| (m.member_id.clone(), m.session_timeout_ms))
                .collect();
            self.coordinator.groups.insert(id.clone(), group);
            for (m, t) in members {
                self.schedule_session(now, &id, &m, t, out);
            }
        }
    }

    /// This broker no longer leads an offsets partition: its groups become Dead here
    /// (`removeGroupsForPartition`); a JoinGroup that still reaches them is refused.
    pub(crate) fn unload_groups(&mut self, tp: &TopicPartition) {
        for g in self.coordinator.groups.values_mut() {
            if g.partition == *tp {
                g.state = GroupState::Dead;
                g.rebalance = None;
                g.awaiting_sync.clear();
            }
        }
        self.coordinator.writes.retain(|w| w.tp != *tp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::log::Log;
    use crate::sim::replication::{LeaderState, Replica, ReplicaState};

    const G: &str = "my-group";

    /// A lone broker 1 that leads the group's `__consumer_offsets` partition (ISR [1], so every
    /// group write commits at once), fed requests and its own timers by hand.
    struct Harness {
        broker: Broker,
        settings: Settings,
        /// Coordinator timers not fired yet: (fire at, timer id).
        timers: BTreeSet<(u64, u64)>,
        /// The rebalance timeout the members send.
        rebalance_timeout: u64,
    }

    impl Harness {
        fn new(profile: Profile) -> Self {
            let settings = Settings::for_profile(profile);
            let mut broker = Broker::new(1);
            broker.replicas.insert(
                group_partition(G, &settings),
                Replica {
                    log: Log::default(),
                    state: Some(ReplicaState {
                        leader: Some(1),
                        leader_epoch: 1,
                        isr: vec![1],
                        replicas: vec![1],
                        zk_version: 0,
                        controller_epoch: 1,
                        role: Role::Leader(LeaderState::default()),
                    }),
                },
            );
            Harness {
                broker,
                settings,
                timers: BTreeSet::new(),
                rebalance_timeout: 300_000,
            }
        }

        fn keep(&mut self, out: Out) -> Out {
            for (at, _, t) in &out.timers {
                if let Timer::Group { id } = t {
                    self.timers.insert((*at, *id));
                }
            }
            out
        }

        /// Fires the coordinator timers due up to `to`, in time order; returns what they did.
        fn advance(&mut self, to: u64) -> Out {
            let mut all = Out::default();
            while let Some(&(at, id)) = self.timers.iter().next().filter(|(at, _)| *at <= to) {
                self.timers.remove(&(at, id));
                let mut out = Out::default();
                self.broker.on_group_timer(at, id, &self.settings, &mut out);
                let out = self.keep(out);
                all.sends.extend(out.sends);
                all.timers.extend(out.timers);
                all.events.extend(out.events);
            }
            all
        }

        fn no_timer_due_before(&self, at: u64) {
            assert!(
                self.timers.iter().next().is_none_or(|(t, _)| *t >= at),
                "advance first: a timer is due before {at}"
            );
        }

        /// A JoinGroup from consumer `c` with member id `id` ("" for none); `new_id` is the id the
        /// coordinator hands out if it makes one.
        fn join_raw(
            &mut self,
            at: u64,
            c: u32,
            client: &str,
            id: &str,
            new_id: &str,
            topics: &[&str],
        ) -> Out {
            self.no_timer_due_before(at);
            let mut out = Out::default();
            self.broker.on_join_group(
                at,
                Endpoint::Consumer(c),
                (G.into(), id.into(), client.into()),
                (
                    topics.iter().map(|t| t.to_string()).collect(),
                    "range".into(),
                ),
                (600_000, self.rebalance_timeout),
                new_id.into(),
                &self.settings,
                &mut out,
            );
            self.keep(out)
        }

        /// A new member joins and gets member id `id` (through KIP-394's MEMBER_ID_REQUIRED
        /// round trip where the profile has it).
        fn join_new(&mut self, at: u64, c: u32, client: &str, id: &str) -> Out {
            if member_ids_required(self.settings.profile) {
                let out = self.join_raw(at, c, client, "", id, &["orders"]);
                assert!(matches!(
                    &out.sends[..],
                    [(_, _, Body::JoinGroupResponse { result: Err((KafkaError::MemberIdRequired, given)), .. })] if given == id
                ));
                self.join_raw(at, c, client, id, "unused", &["orders"])
            } else {
                self.join_raw(at, c, client, "", id, &["orders"])
            }
        }

        fn leave(&mut self, at: u64, c: u32, id: &str) -> Out {
            self.no_timer_due_before(at);
            let mut out = Out::default();
            self.broker.on_leave_group(
                at,
                Endpoint::Consumer(c),
                (G.into(), id.into()),
                &self.settings,
                &mut out,
            );
            self.keep(out)
        }

        fn sync(
            &mut self,
            at: u64,
            c: u32,
            id: &str,
            assignment: Vec<(String, Vec<TopicPartition>)>,
        ) -> Out {
            self.no_timer_due_before(at);
            let generation = self.group().generation;
            let mut out = Out::default();
            self.broker.on_sync_group(
                at,
                Endpoint::Consumer(c),
                (G.into(), generation, id.into()),
                assignment,
                &self.settings,
                &mut out,
            );
            self.keep(out)
        }

        fn group(&self) -> &Group {
            &self.broker.coordinator.groups[G]
        }

        fn state(&self) -> (GroupState, u32, usize) {
            let g = self.group();
            (g.state, g.generation, g.members.len())
        }
    }

    fn kinds(out: &Out) -> Vec<&'static str> {
        out.events.iter().map(|(k, _)| k.name()).collect()
    }

    fn cause_of<'a>(out: &'a Out, kind: &str) -> &'a str {
        out.events
            .iter()
            .find(|(k, _)| k.name() == kind)
            .map(|(_, c)| c.as_str())
            .unwrap_or_else(|| panic!("no {kind} event in {:?}", kinds(out)))
    }

    fn joined(
        c: u32,
        generation: u32,
        leader: &str,
        id: &str,
        members: &[&str],
    ) -> (Endpoint, Endpoint, Body) {
        (
            Endpoint::Broker(1),
            Endpoint::Consumer(c),
            Body::JoinGroupResponse {
                group: G.into(),
                result: Ok(Joined {
                    generation,
                    leader: leader.into(),
                    member_id: id.into(),
                    protocol: "range".into(),
                    members: members
                        .iter()
                        .map(|m| (m.to_string(), vec!["orders".to_string()]))
                        .collect(),
                }),
            },
        )
    }

    // ---- the initial rebalance delay -----------------------------------------------------

    #[test]
    fn only_a_brand_new_group_extends_the_initial_delay() {
        for profile in [Profile::V2_0, Profile::V2_4, Profile::V3_9] {
            let mut h = Harness::new(profile);
            // Generation 0: c1 at 0 starts a 3 s delay; c2 (1 s) and c3 (2 s) arrive during it,
            // so at 3 s it is extended by another 3 s; nobody arrives in that one: done at 6 s.
            let out = h.join_new(0, 1, "c1", "c-1");
            assert_eq!(
                cause_of(&out, "rebalance_started"),
                "a brand-new group (generation 0) waits group.initial.rebalance.delay.ms (3000 ms) for more members, and another delay (up to max.poll.interval.ms in all) each time a new member arrived during the last one, then completes the join"
            );
            h.join_new(1_000, 2, "c2", "c-2");
            h.join_new(2_000, 3, "c3", "c-3");
            assert!(h.group().new_member_added);
            h.advance(5_999);
            assert_eq!(
                h.state(),
                (GroupState::PreparingRebalance, 0, 3),
                "{profile:?}"
            );
            assert!(
                !h.group().new_member_added,
                "the 3 s extension cleared the flag"
            );
            let out = h.advance(6_000);
            assert_eq!(
                h.state(),
                (GroupState::CompletingRebalance, 1, 3),
                "{profile:?}"
            );
            assert_eq!(out.sends.len(), 3);
            // Everyone leaves: the group is Empty at generation 2.
            h.leave(7_000, 1, "c-1");
            h.leave(7_000, 2, "c-2");
            let out = h.leave(7_000, 3, "c-3");
            assert_eq!(kinds(&out), ["member_removed", "group_empty"]);
            assert_eq!(h.state(), (GroupState::Empty, 2, 0));
            // Generation 2: c4 at 10 s, c5 at 11 s, c6 at 12 s. One delay only: done at 13 s
            // with the three of them.
            let out = h.join_new(10_000, 4, "c4", "c-4");
            assert_eq!(
                cause_of(&out, "rebalance_started"),
                "an emptied group (generation 2) waits group.initial.rebalance.delay.ms (3000 ms) once, then completes the join with the members that came: only a brand-new group (generation 0) extends the delay while members keep arriving"
            );
            h.join_new(11_000, 5, "c5", "c-5");
            h.join_new(12_000, 6, "c6", "c-6");
            assert!(!h.group().new_member_added, "not set after generation 0");
            h.advance(12_999);
            assert_eq!(h.state(), (GroupState::PreparingRebalance, 2, 3));
            let out = h.advance(13_000);
            assert_eq!(h.state(), (GroupState::CompletingRebalance, 3, 3));
            assert_eq!(out.sends.len(), 3);
            // The next joiner starts an ordinary rebalance.
            let out = h.join_new(14_000, 7, "c7", "c-7");
            assert_eq!(kinds(&out), ["member_joined", "rebalance_started"]);
            assert_eq!(
                cause_of(&out, "rebalance_started"),
                "every member must rejoin (JoinGroup) before the new generation starts; max.poll.interval.ms bounds the wait"
            );
            assert_eq!(h.state(), (GroupState::PreparingRebalance, 3, 4));
        }
    }

    #[test]
    fn the_initial_delay_is_not_clamped_and_sets_no_other_deadline() {
        // A rebalance timeout (1 s) shorter than the delay (3 s): InitialDelayedJoin still waits
        // the configured delay, with remainingMs = max(1000 - 3000, 0) = 0, so no extension.
        let mut h = Harness::new(Profile::V3_9);
        h.rebalance_timeout = 1_000;
        let out = h.join_new(0, 1, "c1", "c-1");
        let at: Vec<u64> = out.timers.iter().map(|(at, _, _)| *at).collect();
        assert_eq!(at, [3_000], "one timer: the initial delay");
        h.join_new(500, 2, "c2", "c-2");
        h.advance(2_999);
        assert_eq!(h.state(), (GroupState::PreparingRebalance, 0, 2));
        h.advance(3_000);
        assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 2));
    }

    #[test]
    fn a_new_member_flag_left_from_generation_0_extends_a_later_delay_once() {
        // Rebalance timeout 5 s, delay 3 s. Generation 0: c1 at 0 -> InitialDelayedJoin(3000,
        // remaining 2000); c2 at 1 s sets the flag; at 3 s: extend by min(3000, 2000) = 2000 with
        // remaining max(2000 - 3000, 0) = 0; c3 at 4 s sets the flag again; at 5 s the
        // remaining is 0, so the join completes and the flag stays set.
        let mut h = Harness::new(Profile::V3_9);
        h.rebalance_timeout = 5_000;
        h.join_new(0, 1, "c1", "c-1");
        h.join_new(1_000, 2, "c2", "c-2");
        h.advance(3_000);
        h.join_new(4_000, 3, "c3", "c-3");
        h.advance(4_999);
        assert_eq!(h.state(), (GroupState::PreparingRebalance, 0, 3));
        h.advance(5_000);
        assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 3));
        assert!(h.group().new_member_added);
        h.leave(6_000, 1, "c-1");
        h.leave(6_000, 2, "c-2");
        h.leave(6_000, 3, "c-3");
        assert_eq!(h.state(), (GroupState::Empty, 2, 0));
        // Generation 2: the left-over flag extends the first delay (13 s) by 2 s, once.
        let out = h.join_new(10_000, 4, "c4", "c-4");
        assert_eq!(
            cause_of(&out, "rebalance_started"),
            "an emptied group (generation 2) waits group.initial.rebalance.delay.ms (3000 ms), then completes the join with the members that came; only a brand-new group's delay is extended, but the new-member flag left set by its generation-0 delay extends this one once more"
        );
        h.advance(13_000);
        assert_eq!(h.state(), (GroupState::PreparingRebalance, 2, 1));
        assert!(!h.group().new_member_added);
        h.advance(14_999);
        assert_eq!(h.state(), (GroupState::PreparingRebalance, 2, 1));
        h.advance(15_000);
        assert_eq!(h.state(), (GroupState::CompletingRebalance, 3, 1));
    }

    #[test]
    fn kafka_0_10_completes_the_first_join_at_once() {
        let mut h = Harness::new(Profile::V0_10);
        let out = h.join_new(0, 1, "c1", "c-1");
        assert_eq!(
            kinds(&out),
            ["member_joined", "rebalance_started", "group_leader_chosen"]
        );
        assert_eq!(
            cause_of(&out, "rebalance_started"),
            "Kafka 0.10 has no initial rebalance delay (KIP-134 came in 0.11): the join completes as soon as every member has joined, here at once; a later member starts another rebalance"
        );
        assert_eq!(out.sends, [joined(1, 1, "c-1", "c-1", &["c-1"])]);
        assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 1));
        // A second member a second later starts another rebalance.
        let out = h.join_new(1_000, 2, "c2", "c-2");
        assert_eq!(kinds(&out), ["member_joined", "rebalance_started"]);
        assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 2));
    }

    // ---- a known member's JoinGroup ------------------------------------------------------

    #[test]
    fn a_rejoin_in_completing_rebalance_with_unchanged_metadata_gets_the_current_generation() {
        // Member ids c-1 (the leader) and c-2: the leader's member list is in map order,
        // c-2 (bucket 12) before c-1 (bucket 9) under Scala 2.11/2.12, c-1 (bucket 6) before
        // c-2 (bucket 9) under 2.13.
        for (profile, list) in [
            (Profile::V2_0, ["c-2", "c-1"]),
            (Profile::V2_4, ["c-2", "c-1"]),
            (Profile::V3_9, ["c-1", "c-2"]),
        ] {
            let mut h = Harness::new(profile);
            h.join_new(0, 1, "c1", "c-1");
            h.join_new(1_000, 2, "c2", "c-2");
            let out = h.advance(6_000);
            assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 2));
            assert!(out.sends.contains(&joined(2, 1, "c-1", "c-2", &[])));
            // c2's JoinGroup response was lost: it rejoins with the same metadata and gets
            // generation 1 again; nothing else happens.
            let out = h.join_raw(6_100, 2, "c2", "c-2", "unused", &["orders"]);
            assert_eq!(out.sends, [joined(2, 1, "c-1", "c-2", &[])], "{profile:?}");
            assert!(out.events.is_empty() && out.timers.is_empty());
            assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 2));
            assert!(h.group().rebalance.is_none());
            // The leader gets the member list as well.
            let out = h.join_raw(6_200, 1, "c1", "c-1", "unused", &["orders"]);
            assert_eq!(
                out.sends,
                [joined(1, 1, "c-1", "c-1", &list)],
                "{profile:?}"
            );
            assert!(out.events.is_empty() && out.timers.is_empty());
            // With a changed subscription: a rebalance.
            let out = h.join_raw(6_300, 2, "c2", "c-2", "unused", &["orders", "payments"]);
            assert!(out.sends.is_empty(), "it waits for the new generation");
            assert_eq!(kinds(&out), ["rebalance_started"]);
            assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 2));
        }
        // Kafka 0.10 (AwaitingSync) does the same.
        let mut h = Harness::new(Profile::V0_10);
        h.join_new(0, 1, "c1", "c-1");
        let out = h.join_raw(100, 1, "c1", "c-1", "unused", &["orders"]);
        assert_eq!(out.sends, [joined(1, 1, "c-1", "c-1", &["c-1"])]);
        assert!(out.events.is_empty());
    }

    #[test]
    fn in_a_stable_group_only_a_follower_gets_the_current_generation_back() {
        let mut h = Harness::new(Profile::V3_9);
        h.join_new(0, 1, "c1", "c-1");
        h.join_new(1_000, 2, "c2", "c-2");
        h.advance(6_000);
        let a = vec![
            ("c-1".to_string(), vec![TopicPartition::new("orders", 0)]),
            ("c-2".to_string(), vec![TopicPartition::new("orders", 1)]),
        ];
        let out = h.sync(6_100, 1, "c-1", a);
        assert_eq!(kinds(&out), ["group_stable"]);
        assert_eq!(h.state(), (GroupState::Stable, 1, 2));
        // A follower with the same metadata: generation 1 back, no member list, no rebalance.
        let out = h.join_raw(7_000, 2, "c2", "c-2", "unused", &["orders"]);
        assert_eq!(out.sends, [joined(2, 1, "c-1", "c-2", &[])]);
        assert!(out.events.is_empty());
        assert_eq!(h.state(), (GroupState::Stable, 1, 2));
        // The leader with the same metadata forces a rebalance.
        let out = h.join_raw(7_100, 1, "c1", "c-1", "unused", &["orders"]);
        assert!(out.sends.is_empty());
        assert_eq!(kinds(&out), ["rebalance_started"]);
        assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 2));
    }

    // ---- the next leader -----------------------------------------------------------------

    #[test]
    fn the_next_leader_follows_the_scala_map_of_the_profile() {
        for (profile, next) in [
            (Profile::V0_10, "c-2"),
            (Profile::V2_0, "c-2"),
            (Profile::V2_4, "c-2"),
            (Profile::V3_9, "c-3"),
        ] {
            // (Under 0.10 the first join completes at once and the others start a rebalance
            // that c-1 never rejoins: it leaves during it.)
            let mut h = Harness::new(profile);
            h.join_new(0, 1, "c1", "c-1");
            h.join_new(0, 2, "c2", "c-2");
            h.join_new(0, 3, "c3", "c-3");
            h.advance(10_000);
            h.leave(10_000, 1, "c-1");
            assert_eq!(h.group().leader.as_deref(), Some(next), "{profile:?}");
        }
        let why = |profile: Profile| {
            let mut h = Harness::new(profile);
            h.join_new(0, 1, "c1", "c-1");
            h.join_new(1_000, 2, "c2", "c-2");
            h.join_new(2_000, 3, "c3", "c-3");
            h.advance(6_000);
            h.leave(7_000, 1, "c-1");
            h.group().leader_why.clone()
        };
        // 2.12: c-2's improved hash 0xcd18a433 has top bits 0xc = 12; c-3's 0x2d79202c has 2.
        assert_eq!(
            why(Profile::V2_4),
            "leader c1 left; Kafka 2.4's Scala 2.12 build takes members.keys.headOption of its mutable.HashMap of member ids, a HashTable that walks its buckets from the last down (bucket = the top 4 bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first: c2 is in bucket 12 of 16, the highest holding a member (improved hash 0xcd18a433, from String.hashCode 0x00017948), so the map yields c2, c3 in that order; by join order c2 would lead"
        );
        // 2.13: c-3's hash 96585 ^ 1 = 96584 = 0x17948 is in bucket 8; c-2's 0x17949 in 9.
        assert_eq!(
            why(Profile::V3_9),
            "leader c1 left; Kafka 3.9's Scala 2.13 build takes members.keys.headOption of its mutable.HashMap of member ids, which walks its buckets from 0 up (bucket = hash & (buckets - 1), hash = h ^ (h >>> 16) of String.hashCode h) and each bucket by ascending hash: c3 is in bucket 8 of 16 (hash 0x00017948, from String.hashCode 0x00017949), so the map yields c3, c2 in that order; by join order c2 would lead"
        );
        assert!(why(Profile::V2_0).starts_with(
            "leader c1 left; Kafka 2.0's Scala 2.11 build takes members.keys.head of its mutable.HashMap"
        ));
    }

    #[test]
    fn the_stored_member_order_is_the_map_order_and_a_reload_adds_them_back_in_it() {
        // c-6 and c-12 share bucket 4 under Scala 2.12. Added c-6 then c-12, the map yields
        // c-12 first (newest first); the record lists them so; loadGroup adds c-12, then c-6,
        // so the reloaded map yields c-6 first.
        let mut h = Harness::new(Profile::V2_4);
        h.join_new(0, 1, "c1", "c-6");
        h.join_new(1_000, 2, "c2", "c-12");
        h.advance(6_000);
        assert_eq!(h.group().order.keys(), ["c-12", "c-6"]);
        h.sync(6_100, 1, "c-6", Vec::new());
        assert_eq!(h.state(), (GroupState::Stable, 1, 2));
        let tp = group_partition(G, &h.settings);
        let payload = h.broker.replicas[&tp]
            .log
            .payloads
            .values()
            .last()
            .unwrap()
            .clone();
        let record: GroupRecord = serde_json::from_str(&payload).unwrap();
        let stored: Vec<&str> = record
            .members
            .iter()
            .map(|m| m.member_id.as_str())
            .collect();
        assert_eq!(stored, ["c-12", "c-6"]);
        assert_eq!(record.joined_order, ["c-6", "c-12"]);
        let mut out = Out::default();
        let settings = h.settings.clone();
        h.broker.load_groups(20_000, &tp, &settings, &mut out);
        assert_eq!(kinds(&out), ["coordinator_moved"]);
        let g = h.group();
        assert_eq!(g.order.keys(), ["c-6", "c-12"]);
        assert_eq!(g.joined_order, ["c-6", "c-12"]);
        assert_eq!(
            (g.state, g.generation, g.leader.as_deref()),
            (GroupState::Stable, 1, Some("c-6"))
        );
    }
}
