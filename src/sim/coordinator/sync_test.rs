//! SyncGroup: the leader's assignment is stored, and the members get their parts once it is
//! committed.

use super::causes::CoordinatorCause;
use super::harness::{group_timer, kinds, Harness, G, REBALANCE_TIMEOUT, SESSION_TIMEOUT};
use super::state::{GroupState, GroupWrite};
use crate::collections::VecMap;
use crate::sim::config::Profile;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, KafkaError};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

/// 3.9: generation 1 of c-1 (the leader) and c-2, waiting for the leader's assignment.
fn completing() -> Harness {
    let mut h = Harness::new(Profile::V3_9);
    h.join_new(0, 1, "c1", "c-1");
    h.join_new(1_000, 2, "c2", "c-2");
    h.advance(6_000);
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 2));
    h
}

fn orders(p: u32) -> TopicPartition {
    TopicPartition::new("orders", p)
}

fn sync_response(
    c: u32,
    result: Result<Vec<TopicPartition>, KafkaError>,
) -> (Endpoint, Endpoint, Body) {
    (
        Endpoint::Broker(1),
        Endpoint::Consumer(c),
        Body::SyncGroupResponse {
            group: G.into(),
            result,
        },
    )
}

#[test]
fn the_leaders_syncgroup_appends_the_group_and_answers_nobody_before_the_commit() {
    let mut h = completing();
    let tp = h.node.tp();
    let (out, appended) = h.node.input(6_100, |c| {
        c.on_sync_group(
            Endpoint::Consumer(1),
            (G.into(), 1, "c-1".into()),
            vec![
                ("c-1".into(), vec![orders(0)]),
                ("c-2".into(), vec![orders(1)]),
                ("c-9".into(), vec![orders(2)]),
            ],
        )
    });
    assert!(out.sends.is_empty() && out.timers.is_empty() && out.events.is_empty());
    assert_eq!(
        appended,
        std::slice::from_ref(&tp),
        "the replica manager takes it from here"
    );
    let assignment: VecMap<String, Vec<(String, u32)>> = [
        ("c-1".to_string(), vec![("orders".to_string(), 0)]),
        ("c-2".to_string(), vec![("orders".to_string(), 1)]),
    ]
    .into();
    assert_eq!(
        h.node.state.writes,
        [GroupWrite {
            tp: tp.clone(),
            end: 1,
            group: G.into(),
            generation: 1,
            assignment: Some(assignment),
        }],
        "a member the group does not know (c-9) is left out"
    );
    let log = &h.node.logs.0[&tp].log;
    assert_eq!((log.leo, log.hw, log.epochs.clone()), (1, 0, vec![(1, 0)]));
    let record = h.node.last_record();
    assert_eq!(
        (
            record.state,
            record.generation,
            record.protocol.as_deref(),
            record.leader.as_deref()
        ),
        (GroupState::Stable, 1, Some("range"), Some("c-1"))
    );
    let members: Vec<(&str, &[(String, u32)])> = record
        .members
        .iter()
        .map(|m| (m.member_id.as_str(), m.assignment.as_slice()))
        .collect();
    assert_eq!(
        members,
        [
            ("c-1", &[("orders".to_string(), 0)][..]),
            ("c-2", &[("orders".to_string(), 1)][..])
        ]
    );
    let g = h.group();
    assert_eq!(g.state, GroupState::CompletingRebalance);
    assert_eq!(g.awaiting_sync.iter().collect::<Vec<_>>(), ["c-1"]);
    assert!(g.members.values().all(|m| m.assignment.is_empty()));
}

#[test]
fn the_commit_makes_the_group_stable_and_answers_the_members_waiting() {
    let mut h = completing();
    let tp = h.node.tp();
    // c-2's SyncGroup first: it waits. Then the leader's, whose append is not committed yet.
    h.node.input(6_050, |c| {
        c.on_sync_group(
            Endpoint::Consumer(2),
            (G.into(), 1, "c-2".into()),
            Vec::new(),
        )
    });
    h.node.input(6_100, |c| {
        c.on_sync_group(
            Endpoint::Consumer(1),
            (G.into(), 1, "c-1".into()),
            vec![
                ("c-1".into(), vec![orders(0)]),
                ("c-2".into(), vec![orders(1)]),
            ],
        )
    });
    // The high watermark passes nothing yet: no answer.
    let (out, _) = h.node.input(6_150, |c| c.complete_writes(&tp, 0));
    assert!(out.sends.is_empty() && out.events.is_empty());
    let (out, appended) = h.node.input(6_200, |c| c.complete_writes(&tp, 1));
    assert!(appended.is_empty());
    assert_eq!(
        out.sends,
        [
            sync_response(1, Ok(vec![orders(0)])),
            sync_response(2, Ok(vec![orders(1)]))
        ]
    );
    // propagateAssignment: each member answered gets a fresh session deadline (timers 1 and 4
    // were the members' expiries as pending members, 2 and 5 their JoinGroups' as new members,
    // 3 and 6 the initial delay and its extension, 7 and 8 generation 1's sessions, 9 its
    // SyncGroup deadline).
    assert_eq!(
        out.timers,
        [
            group_timer(6_200 + SESSION_TIMEOUT, 10),
            group_timer(6_200 + SESSION_TIMEOUT, 11)
        ]
    );
    assert_eq!(h.group().members["c-1"].session_timer, 10);
    assert_eq!(h.group().members["c-2"].session_timer, 11);
    assert_eq!(
        out.events,
        [(
            EventKind::GroupStable {
                group: G.into(),
                generation: 1,
                coordinator: 1,
                assignment: "c1: [orders-0]; c2: [orders-1]".into(),
            },
            CoordinatorCause::AssignmentStored {
                assignor: "range".into(),
                tp: TopicPartition::new("__consumer_offsets", 12)
            }
            .into()
        )]
    );
    assert_eq!(h.state(), (GroupState::Stable, 1, 2));
    assert!(h.node.state.writes.is_empty());
    // A SyncGroup in the Stable group is answered at once with the member's part.
    let (out, appended) = h.node.input(7_000, |c| {
        c.on_sync_group(
            Endpoint::Consumer(2),
            (G.into(), 1, "c-2".into()),
            Vec::new(),
        )
    });
    assert!(appended.is_empty());
    assert_eq!(out.sends, [sync_response(2, Ok(vec![orders(1)]))]);
    // ... and a fresh session deadline (doSyncGroup's Stable case).
    assert_eq!(out.timers, [group_timer(7_000 + SESSION_TIMEOUT, 12)]);
}

#[test]
fn a_syncgroup_of_another_generation_or_during_a_rebalance_is_refused() {
    let mut h = completing();
    let (out, appended) = h.node.input(6_100, |c| {
        c.on_sync_group(
            Endpoint::Consumer(2),
            (G.into(), 0, "c-2".into()),
            Vec::new(),
        )
    });
    assert!(appended.is_empty());
    assert_eq!(
        out.sends,
        [sync_response(2, Err(KafkaError::IllegalGeneration))]
    );
    // c-2 waits for the assignment when c-1 leaves: the rebalance tells it to rejoin.
    h.node.input(6_200, |c| {
        c.on_sync_group(
            Endpoint::Consumer(2),
            (G.into(), 1, "c-2".into()),
            Vec::new(),
        )
    });
    let out = h.leave(6_300, 1, "c-1");
    assert_eq!(
        out.sends[1],
        sync_response(2, Err(KafkaError::RebalanceInProgress))
    );
    let (out, _) = h.node.input(6_400, |c| {
        c.on_sync_group(
            Endpoint::Consumer(2),
            (G.into(), 1, "c-2".into()),
            Vec::new(),
        )
    });
    assert_eq!(
        out.sends,
        [sync_response(2, Err(KafkaError::RebalanceInProgress))]
    );
}

fn no_sync_in_time() -> CoordinatorCause {
    CoordinatorCause::NoSyncInTime {
        rebalance_timeout_ms: REBALANCE_TIMEOUT,
    }
}

#[test]
fn from_3_0_a_follower_without_a_syncgroup_is_removed_after_the_rebalance_timeout() {
    // DelayedSync (KAFKA-12890): the join completed at 6 s; the leader's SyncGroup makes the
    // group Stable, c-2's never comes. At 6 s + the rebalance timeout c-2 is removed (its
    // session would last to 606 s) and the group rebalances.
    let mut h = completing();
    h.sync(6_100, 1, "c-1", Vec::new());
    assert_eq!(h.state(), (GroupState::Stable, 1, 2));
    let out = h.advance(6_000 + REBALANCE_TIMEOUT - 1);
    assert!(out.events.is_empty());
    let out = h.advance(6_000 + REBALANCE_TIMEOUT);
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
                no_sync_in_time().into()
            ),
            (
                EventKind::RebalanceStarted {
                    group: G.into(),
                    generation: 1,
                    reason: "a member left the group (no SyncGroup in time)".into(),
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
fn from_3_0_a_leader_without_a_syncgroup_is_removed_and_the_waiting_followers_told_to_rejoin() {
    let mut h = completing();
    h.sync(6_100, 2, "c-2", Vec::new());
    let out = h.advance(6_000 + REBALANCE_TIMEOUT);
    assert_eq!(kinds(&out), ["member_removed", "rebalance_started"]);
    assert_eq!(
        out.sends,
        [sync_response(2, Err(KafkaError::RebalanceInProgress))]
    );
    assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 1));
    assert_eq!(h.group().leader.as_deref(), Some("c-2"));
}

#[test]
fn the_syncgroup_deadline_does_nothing_once_every_member_synced_or_before_3_0() {
    let mut h = completing();
    h.sync(6_100, 1, "c-1", Vec::new());
    h.sync(6_200, 2, "c-2", Vec::new());
    let out = h.advance(6_000 + REBALANCE_TIMEOUT);
    assert!(out.events.is_empty() && out.sends.is_empty());
    assert_eq!(h.state(), (GroupState::Stable, 1, 2));
    // 2.4 has no DelayedSync: a member that never syncs stays until its session ends.
    let mut h = Harness::new(Profile::V2_4);
    h.join_new(0, 1, "c1", "c-1");
    h.join_new(1_000, 2, "c2", "c-2");
    h.advance(6_000);
    h.sync(6_100, 1, "c-1", Vec::new());
    let out = h.advance(6_000 + REBALANCE_TIMEOUT);
    assert!(out.events.is_empty() && out.sends.is_empty());
    assert_eq!(h.state(), (GroupState::Stable, 1, 2));
}
