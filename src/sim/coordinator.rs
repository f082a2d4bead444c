//! The group coordinator of the classic consumer-group protocol, on the broker that leads the
//! group's `__consumer_offsets` partition.
//!
//! Sources: `kafka.coordinator.group.GroupCoordinator` (`handleJoinGroup` with KIP-394's
//! MEMBER_ID_REQUIRED round trip, `prepareRebalance`, `InitialDelayedJoin`, `onCompleteJoin`,
//! `handleSyncGroup`, `handleHeartbeat`, `handleLeaveGroup`, `onExpireHeartbeat`),
//! `GroupMetadata` (the states Empty, PreparingRebalance, CompletingRebalance, Stable, Dead;
//! `add`: the first member added leads; `remove`: `leaderId = members.keys.headOption`, the
//! first key of a Scala `mutable.HashMap`, see [`super::group_order`]) and
//! `GroupMetadataManager` (`storeGroup` appends the group to its `__consumer_offsets`
//! partition and answers once the append is committed; `loadGroupsForPartition` loads the
//! groups, as they were, on the partition's new leader).

use super::broker::Broker;
use super::config::{Profile, Settings};
use super::event::EventKind;
use super::group_order::{java_string_hash_code, scala_improved_hash, ScalaHashMapOrder};
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
    /// The initial delay of an empty group: whether a member arrived during it, and how much
    /// of the rebalance timeout is left for further delays.
    pub initial: Option<(bool, u64)>,
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
    /// The member ids in the iteration order of Kafka's Scala `mutable.HashMap`.
    pub order: ScalaHashMapOrder,
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
    /// The members, in the order they were added.
    pub members: Vec<Member>,
}

/// The coordinator's state on a broker.
#[derive(Debug, Clone, Default)]
pub struct CoordinatorState {
    /// Loaded groups by id.
    pub groups: BTreeMap<String, Group>,
    /// Timers by number.
    pub timers: BTreeMap<u64, GroupTimer>,
    next_timer: u64,
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
                order: ScalaHashMapOrder::new(),
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
        let member_id = if member_id.is_empty() {
            if member_ids_required(settings.profile) {
                group.pending.insert(new_member_id.clone());
                reply(Err((KafkaError::MemberIdRequired, new_member_id)), out, me);
                return;
            }
            new_member_id
        } else {
            member_id
        };
        let known = group.members.contains_key(&member_id);
        if !known && !group.pending.remove(&member_id) {
            reply(Err((KafkaError::UnknownMemberId, member_id)), out, me);
            return;
        }
        if known && group.state == GroupState::Stable && group.leader.as_ref() != Some(&member_id) {
            // A follower rejoining a stable group with the same subscription gets the current
            // generation back (no rebalance).
            let m = group.members.get_mut(&member_id).expect("known");
            if m.topics == topics {
                m.last_heard_ms = now;
                let joined = Joined {
                    generation: group.generation,
                    leader: group.leader.clone().unwrap_or_default(),
                    member_id: member_id.clone(),
                    protocol: group.protocol.clone().unwrap_or_default(),
                    members: Vec::new(),
                };
                reply(Ok(joined), out, me);
                return;
            }
        }
        if !known {
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
            if let Some(Rebalance {
                initial: Some((added, _)),
                ..
            }) = group.rebalance.as_mut()
            {
                *added = true;
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
            let m = group.members.get_mut(&member_id).expect("known");
            m.topics = topics;
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
        group.state = GroupState::PreparingRebalance;
        let timeout = group
            .members
            .values()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(settings.max_poll_interval_ms);
        let seq = group.rebalance.as_ref().map_or(0, |r| r.seq) + 1;
        let initial = was_empty.then(|| {
            let delay = settings.group_initial_rebalance_delay_ms.min(timeout);
            (false, timeout.saturating_sub(delay))
        });
        group.rebalance = Some(Rebalance { seq, initial });
        let generation = group.generation;
        let cs = &mut self.coordinator;
        if was_empty {
            let delay = settings.group_initial_rebalance_delay_ms.min(timeout);
            cs.timer(
                now + delay,
                GroupTimer::InitialDelay {
                    group: group_id.to_string(),
                    seq,
                },
                me,
                out,
            );
        }
        cs.timer(
            now + timeout,
            GroupTimer::JoinDeadline {
                group: group_id.to_string(),
                seq,
            },
            me,
            out,
        );
        out.event(
            EventKind::RebalanceStarted {
                group: group_id.to_string(),
                generation,
                reason: reason.to_string(),
                coordinator,
            },
            if was_empty {
                format!(
                    "an empty group waits group.initial.rebalance.delay.ms ({} ms) for more members, longer while they keep arriving, before it completes the join",
                    settings.group_initial_rebalance_delay_ms
                )
            } else {
                "every member must rejoin (JoinGroup) before the new generation starts; max.poll.interval.ms bounds the wait".to_string()
            },
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
        // Members that did not rejoin in time are dropped.
        let late: Vec<String> = self
            .coordinator
            .groups
            .get(group_id)
            .map(|g| {
                g.members
                    .values()
                    .filter(|m| !m.awaiting_join)
                    .map(|m| m.member_id.clone())
                    .collect()
            })
            .unwrap_or_default();
        for m in late {
            self.remove_member(
                now,
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
        let everyone: Vec<(String, Vec<String>)> = group
            .order
            .keys()
            .into_iter()
            .filter_map(|id| group.members.get(&id).map(|m| (id, m.topics.clone())))
            .collect();
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

    /// Removes a member; a departing leader is replaced at once by `members.keys.headOption`.
    fn remove_member(
        &mut self,
        _now: u64,
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
                let bucket = group.order.bucket_of(&next);
                let hash = scala_improved_hash(&next);
                let by_join = group.joined_order.first().cloned().unwrap_or_default();
                let order: Vec<String> = group.order.keys().iter().map(|k| name(k)).collect();
                group.leader_why = format!(
                    "leader {} left; Kafka takes members.keys.headOption of its Scala HashMap of member ids: {} is in bucket {bucket} of {} (hash {hash:#010x}, from String.hashCode {:#010x}), so the map yields {} first; by join order {} would lead",
                    m.client_id,
                    name(&next),
                    group.order.table_len(),
                    java_string_hash_code(&next),
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
        let members: Vec<Member> = group
            .joined_order
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
        self.remove_member(now, group_id, member_id, why, out);
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
                match r.initial {
                    Some((true, remaining)) if remaining > 0 => {
                        // More members arrived: wait another delay (InitialDelayedJoin).
                        let delay = settings.group_initial_rebalance_delay_ms.min(remaining);
                        r.initial = Some((false, remaining - delay));
                        self.coordinator.timer(
                            now + delay,
                            GroupTimer::InitialDelay { group, seq },
                            me,
                            out,
                        );
                    }
                    _ => {
                        r.initial = None;
                        self.try_complete_join(now, &group, settings, out);
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
    pub(crate) fn load_groups(&mut self, now: u64, tp: &TopicPartition, out: &mut Out) {
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
            let joined_order: Vec<String> = r.members.iter().map(|m| m.member_id.clone()).collect();
            let group = Group {
                id: id.clone(),
                partition: tp.clone(),
                state: r.state,
                generation: r.generation,
                protocol: r.protocol.clone(),
                leader: r.leader.clone(),
                leader_why: String::new(),
                leader_changed: false,
                order: ScalaHashMapOrder::from_insertion_order(&joined_order),
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
