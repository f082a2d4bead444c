//! The coordinator's timers: the delayed join of a rebalance (`DelayedJoin`, and from 0.11 the
//! `InitialDelayedJoin` of an Empty group, in `DelayedJoin.scala`) and each member's session
//! deadline (`DelayedHeartbeat.scala`, `GroupCoordinator.onExpireHeartbeat`).
//!
//! The broker holds a coordinator timer as `Timer::Group { id }`; what it is for stays in the
//! coordinator's own table ([`CoordinatorState::timers`]), so a timer of a crashed process,
//! whose table is gone, finds nothing.

use super::causes::CoordinatorCause;
use super::state::{CoordinatorState, GroupState, GroupTimer};
use super::Coordinator;
use crate::sim::message::{Out, Timer};
use crate::sim::net::Endpoint;

impl CoordinatorState {
    /// Files `t` under a new number and asks for `Timer::Group` with that number at `now_plus`.
    pub(super) fn timer(
        &mut self,
        now_plus: u64,
        t: GroupTimer,
        me: Endpoint,
        out: &mut Out,
    ) -> u64 {
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

impl Coordinator<'_> {
    /// Sets a new timer.
    pub(super) fn set_timer(&mut self, at: u64, t: GroupTimer) {
        let me = self.endpoint();
        self.state.timer(at, t, me, self.out);
    }

    /// A fresh session deadline for a member (its older session timers become void).
    pub(super) fn schedule_session(&mut self, group_id: &str, member_id: &str, timeout: u64) {
        let now = self.now;
        let seq = self.state.next_timer + 1;
        if let Some(m) = self
            .state
            .groups
            .get_mut(group_id)
            .and_then(|g| g.members.get_mut(member_id))
        {
            m.session_timer = seq;
            m.last_heard_ms = now;
        } else {
            return;
        }
        self.set_timer(
            now + timeout,
            GroupTimer::Session {
                group: group_id.to_string(),
                member_id: member_id.to_string(),
                seq,
            },
        );
    }

    /// A coordinator timer fired.
    pub(crate) fn on_timer(&mut self, id: u64) {
        let now = self.now;
        let Some(t) = self.state.timers.remove(&id) else {
            return;
        };
        match t {
            GroupTimer::InitialDelay { group, seq } => {
                let configured = self.settings.group_initial_rebalance_delay_ms;
                let Some(g) = self.state.groups.get_mut(&group) else {
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
                        let delay = configured.min(remaining);
                        r.initial = Some((delay, remaining.saturating_sub(delay_ms)));
                        self.set_timer(now + delay, GroupTimer::InitialDelay { group, seq });
                    }
                    _ => {
                        r.initial = None;
                        self.complete_join(&group);
                    }
                }
            }
            GroupTimer::JoinDeadline { group, seq } => {
                let current = self
                    .state
                    .groups
                    .get(&group)
                    .and_then(|g| g.rebalance.as_ref())
                    .is_some_and(|r| r.seq == seq);
                if current {
                    self.complete_join(&group);
                }
            }
            GroupTimer::SyncDeadline { group, generation } => {
                // onExpirePendingSync (3.0+): in the same generation, while CompletingRebalance
                // or Stable, the members that have not sent SyncGroup are removed and the group
                // rebalances. A rebalance since then cleared them (removeSyncExpiration).
                let Some(g) = self.state.groups.get(&group) else {
                    return;
                };
                if g.generation != generation
                    || !matches!(
                        g.state,
                        GroupState::CompletingRebalance | GroupState::Stable
                    )
                    || g.pending_sync.is_empty()
                {
                    return;
                }
                let late: Vec<String> = g
                    .order
                    .keys()
                    .into_iter()
                    .filter(|id| g.pending_sync.contains(id))
                    .collect();
                let rebalance_timeout_ms = g
                    .members
                    .values()
                    .map(|m| m.rebalance_timeout_ms)
                    .max()
                    .unwrap_or(0);
                let why = CoordinatorCause::NoSyncInTime {
                    rebalance_timeout_ms,
                };
                let words = why.english();
                let name = words.split(':').next().unwrap_or(&words).to_string();
                for id in late {
                    self.remove_member(&group, &id, why.clone());
                }
                self.prepare_rebalance(&group, &format!("a member left the group ({name})"));
            }
            GroupTimer::PendingMember { group, member_id } => {
                // onExpireHeartbeat with `isPending` (2.4.1, 3.9.0): a pending member that did
                // not join in time is dropped (`removePendingMemberAndUpdateGroup`), which may
                // complete a join that waited for it. One that joined meanwhile completed its
                // DelayedHeartbeat (`tryCompleteHeartbeat`: `group.has(memberId)`).
                let Some(g) = self
                    .state
                    .groups
                    .get_mut(&group)
                    .filter(|g| g.state != GroupState::Dead)
                else {
                    return;
                };
                if g.pending.remove(&member_id).is_some()
                    && g.state == GroupState::PreparingRebalance
                {
                    self.try_complete_join(&group);
                }
            }
            GroupTimer::Session {
                group,
                member_id,
                seq,
            } => {
                let Some(g) = self
                    .state
                    .groups
                    .get(&group)
                    .filter(|g| g.state != GroupState::Dead)
                else {
                    return;
                };
                let Some(m) = g.members.get(&member_id) else {
                    return;
                };
                if m.session_timer != seq {
                    return;
                }
                if m.is_new {
                    // A new member's JoinGroup expired (2.4.1: `shouldKeepAlive`, `isNew`:
                    // `latestHeartbeat + NewMemberJoinTimeoutMs`; 3.9.0: `hasSatisfiedHeartbeat`
                    // checks `isNew` first): it goes even though it waits in JoinGroup.
                    let why = CoordinatorCause::NewMemberJoinTimedOut {
                        timeout_ms: super::state::NEW_MEMBER_JOIN_TIMEOUT_MS,
                    };
                    self.member_gone(&group, &member_id, why);
                    return;
                }
                if g.awaiting_sync.contains(&member_id) {
                    // A member waiting for its SyncGroup answer is kept alive, and this
                    // expiration is ignored: `shouldKeepMemberAlive` (0.10.2.2, 2.0.1:
                    // `awaitingSyncCallback != null`), `MemberMetadata.hasSatisfiedHeartbeat`
                    // (2.4.1, 3.9.0: `isAwaitingSync`). The answer sets its next deadline
                    // (`GroupCoordinator.propagateAssignment`).
                    return;
                }
                if m.awaiting_join {
                    // A member waiting in JoinGroup is kept alive (shouldKeepAlive).
                    let timeout = m.session_timeout_ms;
                    self.schedule_session(&group, &member_id, timeout);
                    return;
                }
                let why = CoordinatorCause::SessionExpired {
                    session_timeout_ms: m.session_timeout_ms,
                };
                self.member_gone(&group, &member_id, why);
            }
        }
    }
}
