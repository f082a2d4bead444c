//! JoinGroup and the rebalance it starts or completes.
//!
//! Sources: `GroupCoordinator.handleJoinGroup` (with KIP-394's MEMBER_ID_REQUIRED round trip
//! from 2.2), `doJoinGroup` (0.10.2.2, 2.0.1; in 2.4.1 with `doUnknownJoinGroup` for a member
//! without an id) / `doNewMemberJoinGroup` and `doCurrentMemberJoinGroup` (3.9.0),
//! `addMemberAndRebalance`, `updateMemberAndRebalance`,
//! `prepareRebalance`, `onCompleteJoin`; `DelayedJoin` and (from 0.11, KIP-134)
//! `InitialDelayedJoin` in `DelayedJoin.scala`; `GroupMetadata.add` (the first member added
//! leads).

use super::causes::CoordinatorCause;
use super::state::GroupTimer;
use super::state::NEW_MEMBER_JOIN_TIMEOUT_MS;
use super::state::{Group, GroupState, Member, Rebalance};
use super::{group_partition, member_ids_required, new_members_expire, sync_expires, Coordinator};
use crate::collections::{VecMap, VecSet};
use crate::sim::event::EventKind;
use crate::sim::group_order::MemberOrder;
use crate::sim::message::{Body, Joined, KafkaError, Out};
use crate::sim::net::Endpoint;

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

impl Coordinator<'_> {
    /// `handleJoinGroup`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn on_join_group(
        &mut self,
        from: Endpoint,
        (group_id, member_id, client_id): (String, String, String),
        (topics, assignor): (Vec<String>, String),
        (session_timeout_ms, rebalance_timeout_ms): (u64, u64),
        new_member_id: String,
    ) {
        let (now, settings) = (self.now, self.settings);
        let reply = |result: Result<Joined, (KafkaError, String)>, out: &mut Out, me| {
            out.send(
                me,
                from,
                Body::JoinGroupResponse {
                    group: group_id.clone(),
                    result,
                },
            );
        };
        let me = self.endpoint();
        if let Err(e) = self.group_check(&group_id) {
            reply(Err((e, member_id)), self.out, me);
            return;
        }
        let Endpoint::Consumer(consumer) = from else {
            return;
        };
        let coordinator = self.me;
        let partition = group_partition(&group_id, settings);
        let group = self
            .state
            .groups
            .entry(group_id.clone())
            .or_insert_with(|| Group {
                id: group_id.clone(),
                partition,
                state: GroupState::Empty,
                generation: 0,
                protocol: None,
                leader: None,
                leader_why: None,
                leader_changed: false,
                members: VecMap::new(),
                order: MemberOrder::new(settings.profile.scala_version()),
                new_member_added: false,
                pending: VecMap::new(),
                awaiting_sync: VecSet::new(),
                pending_sync: VecSet::new(),
                rebalance: None,
                joined_order: Vec::new(),
            });
        if group.state == GroupState::Dead {
            reply(
                Err((KafkaError::CoordinatorNotAvailable, member_id)),
                self.out,
                me,
            );
            return;
        }
        // Before KIP-394 (2.2) a member without an id is added at once with a new id
        // (`addMemberAndRebalance` makes it); from 2.2 it is told its id and must join again.
        let (member_id, fresh) = if member_id.is_empty() {
            if member_ids_required(settings.profile) {
                // doUnknownJoinGroup (2.4.1) / doDynamicNewMemberJoinGroup (3.9.0):
                // `group.addPendingMember`, and `addPendingMemberExpiration` with the
                // JoinGroup's session timeout.
                let timer = self.state.next_timer + 1;
                group.pending.insert(new_member_id.clone(), timer);
                reply(
                    Err((KafkaError::MemberIdRequired, new_member_id.clone())),
                    self.out,
                    me,
                );
                self.set_timer(
                    now + session_timeout_ms,
                    GroupTimer::PendingMember {
                        group: group_id.clone(),
                        member_id: new_member_id,
                    },
                );
                return;
            }
            (new_member_id, true)
        } else {
            (member_id, false)
        };
        let known = group.members.contains_key(&member_id);
        if !known && !fresh {
            // A pending member joins: its expiration is done with (`tryCompleteHeartbeat`
            // completes the DelayedHeartbeat of a pending member the group now has).
            let Some(timer) = group.pending.remove(&member_id) else {
                reply(Err((KafkaError::UnknownMemberId, member_id)), self.out, me);
                return;
            };
            self.state.timers.remove(&timer);
        }
        if known {
            // GroupCoordinator.doJoinGroup (0.10.2.2, 2.0.1, 2.4.1) / doCurrentMemberJoinGroup
            // (3.9.0), a known member: `member.matches(protocols)` compares the protocol names
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
                reply(Ok(joined), self.out, me);
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
                    is_new: new_members_expire(settings.profile),
                },
            );
            group.order.insert(&member_id);
            group.joined_order.push(member_id.clone());
            if group.leader.is_none() {
                group.leader = Some(member_id.clone());
                group.leader_changed = true;
                group.leader_why = Some(CoordinatorCause::FirstMemberLeads);
            }
            self.out.event(
                EventKind::GroupMemberJoined {
                    group: group_id.clone(),
                    member: client_id.clone(),
                    member_id: member_id.clone(),
                    coordinator,
                },
                CoordinatorCause::MemberAdded,
            );
        } else {
            // updateMemberAndRebalance: the new protocols, then the rebalance. From 3.4 the
            // timeouts of this JoinGroup too (`GroupMetadata.updateMember`, KAFKA-14009; 3.9.0),
            // so the next rebalance waits for the largest rebalance timeout now asked for and the
            // session timer runs with the new session timeout.
            let m = group.members.get_mut(&member_id).expect("known");
            m.topics = topics;
            m.assignor = assignor;
            if settings.profile.updates_member_timeouts_on_rejoin() {
                m.session_timeout_ms = session_timeout_ms;
                m.rebalance_timeout_ms = rebalance_timeout_ms;
            }
            m.awaiting_join = true;
            m.consumer = consumer;
            m.last_heard_ms = now;
        }
        let state = group.state;
        if !known && new_members_expire(settings.profile) {
            // addMemberAndRebalance (2.4.1, 3.9.0): `completeAndScheduleNextExpiration(group,
            // member, NewMemberJoinTimeoutMs)`: a new member cannot heartbeat while its JoinGroup
            // waits, so the JoinGroup itself expires.
            self.schedule_session(&group_id, &member_id, NEW_MEMBER_JOIN_TIMEOUT_MS);
        }
        let reason = if known {
            format!("member {client_id} rejoined")
        } else {
            format!("member {client_id} joined")
        };
        match state {
            GroupState::Empty | GroupState::Stable | GroupState::CompletingRebalance => {
                self.prepare_rebalance(&group_id, &reason)
            }
            GroupState::PreparingRebalance => self.try_complete_join(&group_id),
            GroupState::Dead => {}
        }
    }

    /// `prepareRebalance`: the group waits for its members to (re)join.
    pub(super) fn prepare_rebalance(&mut self, group_id: &str, reason: &str) {
        let (now, settings) = (self.now, self.settings);
        let me = self.endpoint();
        let coordinator = self.me;
        let Some(group) = self.state.groups.get_mut(group_id) else {
            return;
        };
        let mut answered = Vec::new();
        if group.state == GroupState::CompletingRebalance {
            // The members waiting for their assignment must rejoin
            // (`resetAndPropagateAssignmentError`); `propagateAssignment` gives each a fresh
            // session deadline, since an expiration while it waited was ignored.
            for m in std::mem::take(&mut group.awaiting_sync) {
                if let Some(member) = group.members.get(&m) {
                    self.out.send(
                        me,
                        Endpoint::Consumer(member.consumer),
                        Body::SyncGroupResponse {
                            group: group_id.to_string(),
                            result: Err(KafkaError::RebalanceInProgress),
                        },
                    );
                    answered.push((m, member.session_timeout_ms));
                }
            }
        }
        for (m, timeout) in answered {
            self.schedule_session(group_id, &m, timeout);
        }
        let Some(group) = self.state.groups.get_mut(group_id) else {
            return;
        };
        // removeSyncExpiration: a rebalance ends the wait for the generation's SyncGroups.
        group.pending_sync.clear();
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
        self.state.next_rebalance += 1;
        let seq = self.state.next_rebalance;
        let configured = settings.group_initial_rebalance_delay_ms;
        let initial = initial_delay.then(|| (configured, timeout.saturating_sub(configured)));
        group.rebalance = Some(Rebalance { seq, initial });
        let generation = group.generation;
        let stale_flag = group.new_member_added;
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
        self.set_timer(at, timer);
        let cause = if !initial_delay {
            if was_empty {
                CoordinatorCause::NoInitialDelay
            } else {
                CoordinatorCause::EveryMemberRejoins
            }
        } else if generation == 0 {
            CoordinatorCause::InitialDelayNewGroup {
                delay_ms: configured,
            }
        } else if stale_flag && timeout > configured {
            CoordinatorCause::InitialDelayExtendedOnce {
                generation,
                delay_ms: configured,
            }
        } else {
            CoordinatorCause::InitialDelayOnce {
                generation,
                delay_ms: configured,
            }
        };
        self.out.event(
            EventKind::RebalanceStarted {
                group: group_id.to_string(),
                generation,
                reason: reason.to_string(),
                coordinator,
            },
            cause,
        );
        self.try_complete_join(group_id);
    }

    /// `tryCompleteJoin` (what `DelayedJoin.tryComplete` asks): the join completes once every
    /// member has (re)joined and no pending member is left (`GroupMetadata.hasAllMembersJoined`:
    /// `members.size == numMembersAwaitingJoin && pendingMembers.isEmpty`, 2.4.1, 3.9.0; before
    /// KIP-394 there are none); an `InitialDelayedJoin` never completes early.
    pub(super) fn try_complete_join(&mut self, group_id: &str) {
        let Some(group) = self.state.groups.get(group_id) else {
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
        if group.members.values().all(|m| m.awaiting_join) && group.pending.is_empty() {
            self.complete_join(group_id);
        }
    }

    /// `onCompleteJoin`: the new generation, its leader, and the JoinGroup answers.
    pub(super) fn complete_join(&mut self, group_id: &str) {
        let now = self.now;
        // Members that did not rejoin in time are dropped (onCompleteJoin:
        // `group.notYetRejoinedMembers`, in the member map's order).
        let late: Vec<String> = self
            .state
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
            self.remove_member(group_id, &m, CoordinatorCause::DidNotRejoin);
        }
        let me = self.endpoint();
        let coordinator = self.me;
        let Some(group) = self.state.groups.get_mut(group_id) else {
            return;
        };
        group.generation += 1;
        group.rebalance = None;
        if group.members.is_empty() {
            group.state = GroupState::Empty;
            group.protocol = None;
            group.leader = None;
            self.out.event(
                EventKind::GroupEmpty {
                    group: group_id.to_string(),
                    generation: group.generation,
                    coordinator,
                },
                CoordinatorCause::EmptyAfterRebalance,
            );
            self.store_group(group_id, None);
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
            // Whoever sets `leader_changed` says why in `leader_why`.
            if let Some(why) = group.leader_why.clone() {
                self.out.event(
                    EventKind::GroupLeaderChosen {
                        group: group_id.to_string(),
                        member: name,
                        member_id: leader.clone(),
                        generation,
                    },
                    why,
                );
            }
        }
        let everyone = member_list(group);
        for m in group.members.values_mut() {
            m.awaiting_join = false;
            // onCompleteJoin: `member.isNew = false`; the session timeout applies from now.
            m.is_new = false;
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
            self.out.send(
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
        let rebalance_timeout = group
            .members
            .values()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(0);
        if sync_expires(self.settings.profile) {
            // onCompleteJoin (3.0+): `group.addPendingSyncMember` for every member, then
            // `schedulePendingSync`: a DelayedSync of the group's rebalance timeout.
            group.pending_sync = group.members.keys().cloned().collect();
        }
        for (id, timeout) in ids {
            self.schedule_session(group_id, &id, timeout);
        }
        if sync_expires(self.settings.profile) {
            self.set_timer(
                now + rebalance_timeout,
                GroupTimer::SyncDeadline {
                    group: group_id.to_string(),
                    generation,
                },
            );
        }
    }
}
