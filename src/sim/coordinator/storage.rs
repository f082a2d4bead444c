//! The group in `__consumer_offsets`: the coordinator appends a group's record to its offsets
//! partition and acts once the record is committed; the broker that becomes leader of an
//! offsets partition loads the groups stored there, and the one that stops leading it
//! unloads them.
//!
//! Sources: `GroupMetadataManager.storeGroup` (the record: `groupMetadataValue`, with the
//! members in `group.allMemberMetadata`'s order), `loadGroupsForPartition` /
//! `GroupMetadata.loadGroup`, `removeGroupsForPartition` (`GroupMetadataManager.scala` in
//! 2.0.1, 2.4.1 and 3.9.0, `kafka/coordinator/GroupMetadataManager.scala` in 0.10.2.2).
//!
//! Kafka's record is binary (the `GroupMetadataValue` schema); the model's log holds the
//! [`GroupRecord`] itself, which a follower's fetch copies and a truncation drops with its
//! offset. A member is stored without the coordinator's bookkeeping of it ([`Member::stored`]),
//! so a group loaded from the log is exactly the group stored.

use super::causes::CoordinatorCause;
use super::state::{Group, GroupRecord, GroupState, GroupWrite, Member};
use super::Coordinator;
use crate::collections::{VecMap, VecSet};
use crate::sim::event::EventKind;
use crate::sim::group_order::MemberOrder;
use crate::sim::topic::TopicPartition;
use std::sync::Arc;

impl Coordinator<'_> {
    /// `storeGroup`: append the group to its partition; act once the append is committed.
    pub(super) fn store_group(
        &mut self,
        group_id: &str,
        assignment: Option<VecMap<String, Vec<(String, u32)>>>,
    ) {
        let Some(group) = self.state.groups.get(group_id) else {
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
            .map(|m| {
                m.stored(
                    assignment
                        .as_ref()
                        .and_then(|a| a.get(&m.member_id).cloned())
                        .unwrap_or_default(),
                )
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
        let Some(offset) = self.offsets.append(&tp, Arc::new(record)) else {
            return;
        };
        self.state.writes.push(GroupWrite {
            tp: tp.clone(),
            end: offset + 1,
            group: group_id.to_string(),
            generation,
            assignment,
        });
        self.appended.push(tp);
    }

    /// `loadGroupsForPartition`: this broker now leads an offsets partition; it loads the groups
    /// stored there as they were, with fresh heartbeat deadlines: no rebalance.
    pub(crate) fn load_groups(&mut self, tp: &TopicPartition) {
        // What this broker held from an earlier term is stale: the log is the truth.
        self.state.groups.retain(|_, g| g.partition != *tp);
        let Some(log) = self.offsets.log(tp) else {
            return;
        };
        let mut latest: VecMap<String, GroupRecord> = VecMap::new();
        for r in log.payloads.values() {
            latest.insert(r.group.clone(), GroupRecord::clone(r));
        }
        let (now, settings) = (self.now, self.settings);
        let coordinator = self.me;
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
                leader_why: None,
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
                pending: VecMap::new(),
                awaiting_sync: VecSet::new(),
                pending_sync: VecSet::new(),
                rebalance: None,
                joined_order,
            };
            self.out.event(
                EventKind::CoordinatorMoved {
                    group: id.clone(),
                    broker: coordinator,
                    generation: group.generation,
                    state: group.state.name().into(),
                },
                CoordinatorCause::CoordinatorMoved {
                    broker: coordinator,
                    tp: tp.clone(),
                },
            );
            loaded.push((id.clone(), group));
        }
        for (id, group) in loaded {
            let members: Vec<(String, u64)> = group
                .members
                .values()
                .map(|m| (m.member_id.clone(), m.session_timeout_ms))
                .collect();
            self.state.groups.insert(id.clone(), group);
            for (m, t) in members {
                self.schedule_session(&id, &m, t);
            }
        }
    }

    /// This broker no longer leads an offsets partition: its groups become Dead here
    /// (`removeGroupsForPartition`); a JoinGroup that still reaches them is refused.
    pub(crate) fn unload_groups(&mut self, tp: &TopicPartition) {
        for g in self.state.groups.values_mut() {
            if g.partition == *tp {
                g.state = GroupState::Dead;
                g.rebalance = None;
                g.awaiting_sync.clear();
                g.pending_sync.clear();
            }
        }
        self.state.writes.retain(|w| w.tp != *tp);
    }
}
