//! The group in `__consumer_offsets`: the stored record, a reload on a new leader, and a
//! coordinator that loses its offsets partition.

use super::causes::CoordinatorCause;
use super::harness::{group_timer, kinds, Harness, Node, G, SESSION_TIMEOUT};
use super::state::GroupState;
use crate::sim::config::Profile;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, KafkaError};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

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
    let tp = h.node.tp();
    let record = h.node.last_record();
    let stored: Vec<&str> = record
        .members
        .iter()
        .map(|m| m.member_id.as_str())
        .collect();
    assert_eq!(stored, ["c-12", "c-6"]);
    assert_eq!(record.joined_order, ["c-6", "c-12"]);
    let (out, appended) = h.node.input(20_000, |c| c.load_groups(&tp));
    assert!(appended.is_empty());
    assert_eq!(kinds(&out), ["coordinator_moved"]);
    let g = h.group();
    assert_eq!(g.order.keys(), ["c-6", "c-12"]);
    assert_eq!(g.joined_order, ["c-6", "c-12"]);
    assert_eq!(
        (g.state, g.generation, g.leader.as_deref()),
        (GroupState::Stable, 1, Some("c-6"))
    );
}

/// 3.9: generation 1 of c-1 (the leader) and c-2 made Stable with an assignment, and the log it
/// was stored in.
fn stored() -> Harness {
    let mut h = Harness::new(Profile::V3_9);
    h.join_new(0, 1, "c1", "c-1");
    h.join_new(1_000, 2, "c2", "c-2");
    h.advance(6_000);
    h.sync(
        6_100,
        1,
        "c-1",
        vec![
            ("c-1".into(), vec![TopicPartition::new("orders", 0)]),
            ("c-2".into(), vec![TopicPartition::new("orders", 1)]),
        ],
    );
    assert_eq!(h.state(), (GroupState::Stable, 1, 2));
    h
}

#[test]
fn a_new_leader_of_the_offsets_partition_loads_the_group_as_stored_with_fresh_sessions() {
    // Another broker's coordinator, with nothing in memory, gets the log (it follows it and
    // now leads it).
    let old = stored();
    let mut node = Node::new(Profile::V3_9);
    node.logs = old.node.logs.clone();
    let tp = node.tp();
    let (out, appended) = node.input(20_000, |c| c.load_groups(&tp));
    assert!(appended.is_empty());
    assert!(out.sends.is_empty());
    assert_eq!(
        out.timers,
        [
            group_timer(20_000 + SESSION_TIMEOUT, 1),
            group_timer(20_000 + SESSION_TIMEOUT, 2)
        ]
    );
    assert_eq!(
        out.events,
        [(
            EventKind::CoordinatorMoved {
                group: G.into(),
                broker: 1,
                generation: 1,
                state: "Stable".into(),
            },
            CoordinatorCause::CoordinatorMoved {
                broker: 1,
                tp: TopicPartition::new("__consumer_offsets", 12)
            }
            .into()
        )]
    );
    let g = node.group();
    assert_eq!(
        (
            g.state,
            g.generation,
            g.leader.as_deref(),
            g.protocol.as_deref()
        ),
        (GroupState::Stable, 1, Some("c-1"), Some("range"))
    );
    assert_eq!(
        g.members["c-2"].assignment,
        [("orders".to_string(), 1)],
        "the members keep their parts"
    );
    assert_eq!(
        g.members
            .values()
            .map(|m| m.last_heard_ms)
            .collect::<Vec<_>>(),
        [20_000, 20_000]
    );
}

#[test]
fn the_record_holds_the_members_without_the_coordinators_bookkeeping() {
    // What the coordinator keeps of a member for itself (when it last heard from it, its
    // waiting JoinGroup, its session timer) is not in the record; the rest is.
    let h = stored();
    let record = h.node.last_record();
    let live = h.group();
    assert!(live
        .members
        .values()
        .all(|m| m.last_heard_ms > 0 && m.session_timer > 0));
    assert_eq!(record.members.len(), 2);
    for m in &record.members {
        assert_eq!(
            (m.last_heard_ms, m.awaiting_join, m.session_timer),
            (0, false, 0),
            "{}",
            m.member_id
        );
        assert_eq!(live.members[&m.member_id].stored(m.assignment.clone()), *m);
    }
}

/// [`stored`], then c-1's rejoin starts generation 2, whose leader's SyncGroup is appended but
/// not committed when the broker stops leading the partition.
fn lost() -> (Harness, TopicPartition) {
    let mut h = stored();
    h.join_raw(7_000, 1, "c1", "c-1", "unused", &["orders"]);
    h.join_raw(7_100, 2, "c2", "c-2", "unused", &["orders"]);
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 2, 2));
    let (_, appended) = h.node.input(7_200, |c| {
        c.on_sync_group(
            Endpoint::Consumer(1),
            (G.into(), 2, "c-1".into()),
            Vec::new(),
        )
    });
    let tp = h.node.tp();
    assert_eq!(appended, std::slice::from_ref(&tp));
    assert_eq!(h.node.state.writes.len(), 1);
    h.node.logs.0.get_mut(&tp).unwrap().leads = false;
    (h, tp)
}

#[test]
fn a_coordinator_that_loses_its_offsets_partition_drops_its_groups_and_their_writes() {
    let (mut h, tp) = lost();
    let (out, appended) = h.node.input(7_300, |c| c.unload_groups(&tp));
    assert!(appended.is_empty());
    assert!(out.sends.is_empty() && out.timers.is_empty() && out.events.is_empty());
    let g = h.group();
    assert_eq!((g.state, g.generation), (GroupState::Dead, 2));
    assert!(g.rebalance.is_none() && g.awaiting_sync.is_empty());
    assert!(h.node.state.writes.is_empty());
    // A commit of the dropped write answers nobody.
    let (out, _) = h.node.input(7_400, |c| c.complete_writes(&tp, 2));
    assert!(out.sends.is_empty() && out.events.is_empty());
}

#[test]
fn after_losing_its_offsets_partition_the_coordinator_refuses_requests_and_its_timers_are_void() {
    let (mut h, tp) = lost();
    h.node.input(7_300, |c| c.unload_groups(&tp));
    let (out, _) = h.node.input(7_400, |c| {
        c.on_heartbeat(Endpoint::Consumer(2), (G.into(), 2, "c-2".into()))
    });
    assert_eq!(
        out.sends,
        [(
            Endpoint::Broker(1),
            Endpoint::Consumer(2),
            Body::HeartbeatResponse {
                group: G.into(),
                error: Some(KafkaError::NotCoordinator)
            }
        )]
    );
    assert!(out.timers.is_empty() && out.events.is_empty());
    // Timers 2 and 5 were the new members' JoinGroup expiries, 7 and 8 generation 1's
    // sessions, 9 its SyncGroup deadline, 10 c-1's session set by the answer to its SyncGroup,
    // 11 the rebalance's deadline, 12 and 13 are generation 2's sessions and 14 its SyncGroup
    // deadline: none does anything in the Dead group.
    assert_eq!(h.node.timer_ids(), [2, 5, 7, 8, 9, 10, 11, 12, 13, 14]);
    for id in [2, 5, 9, 10, 11, 12, 13, 14] {
        let (out, _) = h.node.input(800_000, |c| c.on_timer(id));
        assert!(out.sends.is_empty() && out.timers.is_empty() && out.events.is_empty());
    }
    assert_eq!(h.state(), (GroupState::Dead, 2, 2));
}
