//! Heartbeat and the session deadline.

use super::causes::CoordinatorCause;
use super::harness::{group_timer, Harness, G, REBALANCE_TIMEOUT, SESSION_TIMEOUT};
use super::state::GroupState;
use super::state::GroupTimer;
use crate::sim::config::Profile;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, KafkaError};
use crate::sim::net::Endpoint;

/// 3.9: a Stable generation 1 of c-1 (the leader) and c-2. Timers 1 and 4 were their expiries
/// as pending members, 2 and 5 the expiries of their JoinGroups as new members (due at 300 s
/// and 301 s, void now), 3 and 6 the initial delay and its extension, 7 and 8 generation 1's
/// sessions and 9 its SyncGroup deadline (3.0's DelayedSync, void once both have synced); the
/// answers to the SyncGroups of c-1 and c-2 set their sessions (timers 10 and 11, due at 606.1 s
/// and 606.2 s), and c-1 heartbeats at 300 s (timer 12, due at 900 s).
fn stable() -> Harness {
    let mut h = Harness::new(Profile::V3_9);
    h.join_new(0, 1, "c1", "c-1");
    h.join_new(1_000, 2, "c2", "c-2");
    h.advance(6_000);
    h.sync(6_100, 1, "c-1", Vec::new());
    h.sync(6_200, 2, "c-2", Vec::new());
    h.heartbeat(300_000, 1, "c-1");
    assert_eq!(h.state(), (GroupState::Stable, 1, 2));
    assert_eq!(h.node.timer_ids(), [2, 5, 7, 8, 9, 10, 11, 12]);
    assert_eq!(h.group().members["c-2"].session_timer, 11);
    h
}

fn heartbeat_response(c: u32, error: Option<KafkaError>) -> (Endpoint, Endpoint, Body) {
    (
        Endpoint::Broker(1),
        Endpoint::Consumer(c),
        Body::HeartbeatResponse {
            group: G.into(),
            error,
        },
    )
}

#[test]
fn a_heartbeat_in_time_sets_a_new_session_deadline() {
    let mut h = stable();
    let (out, _) = h.node.input(400_000, |c| {
        c.on_heartbeat(Endpoint::Consumer(2), (G.into(), 1, "c-2".into()))
    });
    assert_eq!(out.sends, [heartbeat_response(2, None)]);
    assert_eq!(out.timers, [group_timer(400_000 + SESSION_TIMEOUT, 13)]);
    assert!(out.events.is_empty());
    assert_eq!(
        h.node.state.timers[&13],
        GroupTimer::Session {
            group: G.into(),
            member_id: "c-2".into(),
            seq: 13
        }
    );
    assert_eq!(h.group().members["c-2"].session_timer, 13);
    // The older session timer of c-2 (11) is void now.
    let (out, _) = h.node.input(606_200, |c| c.on_timer(11));
    assert!(out.sends.is_empty() && out.timers.is_empty() && out.events.is_empty());
    assert_eq!(h.state(), (GroupState::Stable, 1, 2));
}

#[test]
fn a_session_that_expires_removes_the_member_and_starts_a_rebalance() {
    let mut h = stable();
    let (out, appended) = h.node.input(606_200, |c| c.on_timer(11));
    assert!(appended.is_empty());
    assert!(out.sends.is_empty());
    assert_eq!(out.timers, [group_timer(606_200 + REBALANCE_TIMEOUT, 13)]);
    assert_eq!(
        out.events,
        [
            (
                EventKind::GroupMemberRemoved {
                    group: G.into(),
                    member: "c2".into(),
                    member_id: "c-2".into(),
                    coordinator: 1,
                },
                CoordinatorCause::SessionExpired {
                    session_timeout_ms: 600_000
                }
                .into()
            ),
            (
                EventKind::RebalanceStarted {
                    group: G.into(),
                    generation: 1,
                    reason: "a member left the group (session expired)".into(),
                    coordinator: 1,
                },
                CoordinatorCause::EveryMemberRejoins.into()
            ),
        ]
    );
    assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 1));
    assert_eq!(h.group().leader.as_deref(), Some("c-1"));
}

#[test]
fn a_heartbeat_after_the_session_timeout_is_from_an_unknown_member() {
    let mut h = stable();
    h.node.input(606_200, |c| c.on_timer(11));
    let (out, _) = h.node.input(606_300, |c| {
        c.on_heartbeat(Endpoint::Consumer(2), (G.into(), 1, "c-2".into()))
    });
    assert_eq!(
        out.sends,
        [heartbeat_response(2, Some(KafkaError::UnknownMemberId))]
    );
    assert!(out.timers.is_empty() && out.events.is_empty());
    // The member still in the group hears of the rebalance, and its session goes on.
    let (out, _) = h.node.input(606_400, |c| {
        c.on_heartbeat(Endpoint::Consumer(1), (G.into(), 1, "c-1".into()))
    });
    assert_eq!(
        out.sends,
        [heartbeat_response(1, Some(KafkaError::RebalanceInProgress))]
    );
    assert_eq!(out.timers, [group_timer(606_400 + SESSION_TIMEOUT, 14)]);
}

#[test]
fn a_member_waiting_in_joingroup_is_kept_alive_by_its_session_timer() {
    // shouldKeepAlive. A rebalance timeout (1000 s) longer than the session timeout: after
    // the pending members' expiries (1, 4), the new members' join expiries (2, 5), the initial
    // delay (3, 6), generation 1's sessions (7, 8) and SyncGroup deadline (9, due at 1006 s,
    // void since the rebalance), c-1's SyncGroup answer sets its session (timer 10), c-1 and
    // c-2 heartbeat at 300 s and 305 s (timers 11 and 12), c-1 rejoins at 310 s (deadline
    // timer 13) and still waits for c-2 when its session timer fires at 900 s: it sets another.
    let mut h = Harness::new(Profile::V3_9);
    h.rebalance_timeout = 1_000_000;
    h.join_new(0, 1, "c1", "c-1");
    h.join_new(1_000, 2, "c2", "c-2");
    h.advance(6_000);
    h.sync(6_100, 1, "c-1", Vec::new());
    h.heartbeat(300_000, 1, "c-1");
    h.advance(301_000);
    h.heartbeat(305_000, 2, "c-2");
    h.join_raw(310_000, 1, "c1", "c-1", "unused", &["orders"]);
    h.advance(899_999);
    assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 2));
    assert_eq!(h.node.timer_ids(), [9, 11, 12, 13]);
    let (out, _) = h.node.input(900_000, |c| c.on_timer(11));
    assert!(out.sends.is_empty() && out.events.is_empty());
    assert_eq!(out.timers, [group_timer(900_000 + SESSION_TIMEOUT, 14)]);
    assert_eq!(h.group().members["c-1"].session_timer, 14);
    assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 2));
}

#[test]
fn a_member_waiting_for_its_syncgroup_answer_is_kept_alive_and_the_answer_sets_its_session() {
    // shouldKeepMemberAlive (0.10.2.2, 2.0.1), MemberMetadata.hasSatisfiedHeartbeat (2.4.1,
    // 3.9.0): c-2 sent its SyncGroup at 6.05 s and waits for the leader's, which never comes.
    // Both sessions (timers 3 and 4) end at 606 s: c-2's expiration is ignored; c-1's removes
    // it, and the rebalance answers c-2 (REBALANCE_IN_PROGRESS) with a fresh session deadline
    // (propagateAssignment).
    // (A rebalance timeout of 1000 s puts 3.9's SyncGroup deadline after the sessions.)
    for profile in [Profile::V0_10, Profile::V2_0, Profile::V2_4, Profile::V3_9] {
        let mut h = Harness::new(profile);
        h.rebalance_timeout = 1_000_000;
        h.join_new(0, 1, "c1", "c-1");
        h.join_new(1_000, 2, "c2", "c-2");
        h.advance(6_000);
        // 0.10 has no initial delay: c-1's join made generation 1 at once, and c-2's started
        // another rebalance, which c-1's rejoin completes.
        let generation = if profile == Profile::V0_10 {
            h.join_raw(6_000, 1, "c1", "c-1", "unused", &["orders"]);
            2
        } else {
            1
        };
        assert_eq!(
            h.state(),
            (GroupState::CompletingRebalance, generation, 2),
            "{profile:?}"
        );
        let ids: Vec<u64> = ["c-1", "c-2"]
            .iter()
            .map(|m| h.group().members[*m].session_timer)
            .collect();
        let out = h.sync(6_050, 2, "c-2", Vec::new());
        assert!(out.sends.is_empty() && out.timers.is_empty(), "{profile:?}");
        let at = h.group().members["c-2"].last_heard_ms + SESSION_TIMEOUT;
        let (out, _) = h.node.input(at, |c| c.on_timer(ids[1]));
        assert!(
            out.sends.is_empty() && out.timers.is_empty() && out.events.is_empty(),
            "{profile:?}"
        );
        assert_eq!(
            h.state(),
            (GroupState::CompletingRebalance, generation, 2),
            "{profile:?}"
        );
        let (out, _) = h.node.input(at, |c| c.on_timer(ids[0]));
        assert_eq!(
            out.sends,
            [(
                Endpoint::Broker(1),
                Endpoint::Consumer(2),
                Body::SyncGroupResponse {
                    group: G.into(),
                    result: Err(KafkaError::RebalanceInProgress)
                }
            )],
            "{profile:?}"
        );
        let fresh = h.group().members["c-2"].session_timer;
        assert_eq!(
            out.timers[0],
            group_timer(at + SESSION_TIMEOUT, fresh),
            "{profile:?}"
        );
        assert_eq!(
            h.state(),
            (GroupState::PreparingRebalance, generation, 1),
            "{profile:?}"
        );
        assert_eq!(h.group().leader.as_deref(), Some("c-2"), "{profile:?}");
    }
}
