//! A member leaves: LeaveGroup, an expired session or a missed rejoin, and the leader that
//! follows a departing one.
//!
//! Sources: `GroupCoordinator.handleLeaveGroup`, `onMemberFailure` (0.10.2.2) /
//! `removeMemberAndUpdateGroup` (2.0.1, 2.4.1, 3.9.0), and `GroupMetadata.remove`, which picks the next leader as the
//! first key of the member map (`members.keys.head` in 0.10.2.2 and 2.0.1,
//! `members.keys.headOption` in 2.4.1 and 3.9.0), in the order of the Scala `mutable.HashMap`
//! of the profile's build ([`crate::sim::group_order`]).

use super::causes::{CoordinatorCause, MapHead, MapWalk};
use super::state::GroupState;
use super::Coordinator;
use crate::sim::config::Profile;
use crate::sim::event::EventKind;
use crate::sim::group_order::{java_string_hash_code, MemberOrder, ScalaVersion};
use crate::sim::message::{Body, KafkaError};
use crate::sim::net::Endpoint;

/// Why `next` (named `name`) is the first key of `order`, in the words of the profile's Scala
/// version: `GroupMetadata.remove` takes `members.keys.head` (0.10.2.2, 2.0.1) or
/// `members.keys.headOption` (2.4.1, 3.9.0) of a `mutable.HashMap`, whose order
/// [`crate::sim::group_order`] models.
fn explain_pick(profile: Profile, order: &MemberOrder, next: &str, name: &str) -> MapHead {
    let scala = order.scala_version();
    let buckets = order.table_len();
    MapHead {
        kafka: profile.name(),
        scala: scala.name(),
        head_option: profile >= Profile::V2_4,
        walk: match scala {
            ScalaVersion::V2_13 => MapWalk::Scala213,
            ScalaVersion::V2_11 | ScalaVersion::V2_12 => MapWalk::HashTable {
                doubled: buckets > crate::sim::group_order::SCALA_HASHMAP_INITIAL_BUCKETS,
            },
        },
        member: name.to_string(),
        bucket: order.bucket_of(next),
        buckets,
        hash: order.improved_hash(next),
        code: java_string_hash_code(next),
    }
}

impl Coordinator<'_> {
    /// Removes a member; a departing leader is replaced at once by the first key of the member
    /// map (`GroupMetadata.remove`).
    pub(super) fn remove_member(&mut self, group_id: &str, member_id: &str, why: CoordinatorCause) {
        let profile = self.settings.profile;
        let coordinator = self.me;
        let Some(group) = self.state.groups.get_mut(group_id) else {
            return;
        };
        let Some(m) = group.members.remove(member_id) else {
            return;
        };
        if m.awaiting_join && profile >= Profile::V2_4 {
            // removeMemberAndUpdateGroup (2.4.1, 3.9.0): a member removed while its JoinGroup
            // waits is answered UNKNOWN_MEMBER_ID, so that a live consumer joins again.
            self.out.send(
                Endpoint::Broker(coordinator),
                Endpoint::Consumer(m.consumer),
                Body::JoinGroupResponse {
                    group: group_id.to_string(),
                    result: Err((KafkaError::UnknownMemberId, String::new())),
                },
            );
        }
        group.order.remove(member_id);
        group.awaiting_sync.remove(member_id);
        group.pending_sync.remove(member_id);
        group.joined_order.retain(|x| x != member_id);
        self.out.event(
            EventKind::GroupMemberRemoved {
                group: group_id.to_string(),
                member: m.client_id.clone(),
                member_id: member_id.to_string(),
                coordinator,
            },
            why,
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
                group.leader_why = Some(CoordinatorCause::LeaderLeft {
                    left: m.client_id.clone(),
                    head: explain_pick(profile, &group.order, &next, &name(&next)),
                    order,
                    by_join: name(&by_join),
                });
            }
        }
    }

    /// `handleLeaveGroup`.
    pub(crate) fn on_leave_group(
        &mut self,
        from: Endpoint,
        (group_id, member_id): (String, String),
    ) {
        let me = self.endpoint();
        self.out.send(
            me,
            from,
            Body::LeaveGroupResponse {
                group: group_id.clone(),
            },
        );
        if self.group_check(&group_id).is_err() {
            return;
        }
        // handleLeaveGroup (2.4.1, 3.9.0): a pending member's LeaveGroup drops it
        // (`removePendingMemberAndUpdateGroup`), which may complete a join that waited for it.
        if let Some(g) = self.state.groups.get_mut(&group_id) {
            if let Some(timer) = g.pending.remove(&member_id) {
                let preparing = g.state == GroupState::PreparingRebalance;
                self.state.timers.remove(&timer);
                if preparing {
                    self.try_complete_join(&group_id);
                }
                return;
            }
        }
        self.member_gone(&group_id, &member_id, CoordinatorCause::LeftCleanly);
    }

    /// A member left or its session expired (`GroupCoordinator.onMemberFailure` in 0.10.2.2,
    /// `removeMemberAndUpdateGroup` from 2.0.1): removed, and the rebalance goes on or starts.
    pub(super) fn member_gone(&mut self, group_id: &str, member_id: &str, why: CoordinatorCause) {
        let Some(state) = self.state.groups.get(group_id).map(|g| g.state) else {
            return;
        };
        // The rebalance's reason names the departure by the words before the first colon of
        // its sentence: "LeaveGroup", "session expired".
        let words = why.english();
        self.remove_member(group_id, member_id, why);
        match state {
            GroupState::Stable | GroupState::CompletingRebalance => {
                let name = words.split(':').next().unwrap_or(&words).to_string();
                self.prepare_rebalance(group_id, &format!("a member left the group ({name})"))
            }
            GroupState::PreparingRebalance => self.try_complete_join(group_id),
            GroupState::Empty | GroupState::Dead => {}
        }
    }
}
