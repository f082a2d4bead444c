//! SyncGroup: the leader's assignment is stored, and every member gets its part once the
//! record is committed.
//!
//! Sources: `GroupCoordinator.handleSyncGroup` / `doSyncGroup` (the leader's SyncGroup in
//! CompletingRebalance, AwaitingSync in 0.10.2.2, stores the group with
//! `GroupMetadataManager.storeGroup`; its callback moves the group to Stable and answers the
//! members waiting).

use super::causes::CoordinatorCause;
use super::state::{GroupState, GroupWrite};
use super::{tp_list, Coordinator};
use crate::collections::VecMap;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, KafkaError, Out};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

impl Coordinator<'_> {
    /// `handleSyncGroup`.
    pub(crate) fn on_sync_group(
        &mut self,
        from: Endpoint,
        (group_id, generation, member_id): (String, u32, String),
        assignment: Vec<(String, Vec<TopicPartition>)>,
    ) {
        let me = self.endpoint();
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
        if let Err(e) = self.group_check(&group_id) {
            reply(Err(e), self.out);
            return;
        }
        let Some(group) = self.state.groups.get_mut(&group_id) else {
            reply(Err(KafkaError::UnknownMemberId), self.out);
            return;
        };
        if !group.members.contains_key(&member_id) {
            reply(Err(KafkaError::UnknownMemberId), self.out);
            return;
        }
        if generation != group.generation {
            reply(Err(KafkaError::IllegalGeneration), self.out);
            return;
        }
        match group.state {
            GroupState::PreparingRebalance => reply(Err(KafkaError::RebalanceInProgress), self.out),
            GroupState::Stable => {
                // removePendingSyncMember (3.0+).
                group.pending_sync.remove(&member_id);
                let m = &group.members[&member_id];
                let (a, timeout) = (tp_list(&m.assignment), m.session_timeout_ms);
                reply(Ok(a), self.out);
                // doSyncGroup, Stable: the current assignment, and
                // `completeAndScheduleNextHeartbeatExpiration` (0.10.2.2 to 3.9.0).
                self.schedule_session(&group_id, &member_id, timeout);
            }
            GroupState::CompletingRebalance => {
                group.awaiting_sync.insert(member_id.clone());
                // removePendingSyncMember (3.0+).
                group.pending_sync.remove(&member_id);
                if group.leader.as_deref() == Some(&member_id) {
                    let mut map: VecMap<String, Vec<(String, u32)>> = VecMap::new();
                    for (m, tps) in assignment {
                        if group.members.contains_key(&m) {
                            map.insert(
                                m,
                                tps.into_iter().map(|tp| (tp.topic, tp.partition)).collect(),
                            );
                        }
                    }
                    self.store_group(&group_id, Some(map));
                }
            }
            GroupState::Empty | GroupState::Dead => {
                reply(Err(KafkaError::UnknownMemberId), self.out)
            }
        }
    }

    /// Completes the group writes the high watermark of `tp` has passed (the replica manager
    /// calls it when the high watermark moves): a stored assignment of the current generation
    /// makes the group Stable and answers the SyncGroups waiting for it.
    pub(crate) fn complete_writes(&mut self, tp: &TopicPartition, hw: u64) {
        let (done, keep): (Vec<GroupWrite>, Vec<GroupWrite>) =
            std::mem::take(&mut self.state.writes)
                .into_iter()
                .partition(|w| w.tp == *tp && w.end <= hw);
        self.state.writes = keep;
        let me = self.endpoint();
        let coordinator = self.me;
        for w in done {
            let Some(group) = self.state.groups.get_mut(&w.group) else {
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
            let mut answered = Vec::new();
            for id in std::mem::take(&mut group.awaiting_sync) {
                if let Some(m) = group.members.get(&id) {
                    self.out.send(
                        me,
                        Endpoint::Consumer(m.consumer),
                        Body::SyncGroupResponse {
                            group: w.group.clone(),
                            result: Ok(tp_list(&m.assignment)),
                        },
                    );
                    answered.push((id, m.session_timeout_ms));
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
            self.out.event(
                EventKind::GroupStable {
                    group: w.group.clone(),
                    generation: group.generation,
                    coordinator,
                    assignment: summary.join("; "),
                },
                CoordinatorCause::AssignmentStored {
                    assignor: group.protocol.clone().unwrap_or_default(),
                    tp: w.tp.clone(),
                },
            );
            // propagateAssignment (0.10.2.2 to 3.9.0): each member answered gets a fresh
            // session deadline (`completeAndScheduleNextHeartbeatExpiration`), since an
            // expiration while it waited was ignored.
            for (id, timeout) in answered {
                self.schedule_session(&w.group, &id, timeout);
            }
        }
    }
}
