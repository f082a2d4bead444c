//! JoinGroup and the rebalance: the initial delay per profile, a known member's rejoin, and
//! the join that completes the rebalance.

use super::causes::CoordinatorCause;
use super::harness::{
    cause_of, group_timer, joined, kinds, Harness, Node, G, REBALANCE_TIMEOUT, SESSION_TIMEOUT,
};
use super::state::GroupState;
use super::state::{GroupTimer, NEW_MEMBER_JOIN_TIMEOUT_MS};
use crate::sim::cause::Cause;
use crate::sim::config::Profile;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, KafkaError, Out, PartitionInfo};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

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
    assert_eq!(
        at,
        [NEW_MEMBER_JOIN_TIMEOUT_MS, 3_000],
        "the new member's JoinGroup expiry and the initial delay, no other deadline"
    );
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
fn a_known_members_join_group_updates_its_timeouts_from_3_4() {
    // GroupMetadata.updateMember (KAFKA-14009, 3.4; 3.9.0) takes the rebalance and session
    // timeouts of the new JoinGroup; 2.4.1's updateMember and 2.0.1's updateMemberAndRebalance
    // replace only the protocols.
    for (profile, updated) in [
        (Profile::V2_0, false),
        (Profile::V2_4, false),
        (Profile::V3_9, true),
    ] {
        let mut h = Harness::new(profile);
        h.join_new(0, 1, "c1", "c-1");
        h.advance(6_000);
        assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 1));
        // c1 joins again with other timeouts and another subscription (so a rebalance starts).
        let out = h.feed(6_100, |co| {
            co.on_join_group(
                Endpoint::Consumer(1),
                (G.into(), "c-1".into(), "c1".into()),
                (vec!["orders".into(), "payments".into()], "range".into()),
                (20_000, 120_000),
                "unused".into(),
            )
        });
        assert_eq!(kinds(&out), ["rebalance_started"], "{profile:?}");
        let m = &h.group().members["c-1"];
        let expected = if updated {
            (20_000, 120_000)
        } else {
            (SESSION_TIMEOUT, REBALANCE_TIMEOUT)
        };
        assert_eq!(
            (m.session_timeout_ms, m.rebalance_timeout_ms),
            expected,
            "{profile:?}"
        );
    }
}

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

// ---- one input, the exact output -------------------------------------------------------

fn member_joined(client: &str, id: &str) -> (EventKind, Cause) {
    (
        EventKind::GroupMemberJoined {
            group: G.into(),
            member: client.into(),
            member_id: id.into(),
            coordinator: 1,
        },
        CoordinatorCause::MemberAdded.into(),
    )
}

fn first_join(node: &mut Node, now: u64, id: &str, new_id: &str) -> Out {
    node.input(now, |c| {
        c.on_join_group(
            Endpoint::Consumer(1),
            (G.into(), id.into(), "c1".into()),
            (vec!["orders".into()], "range".into()),
            (SESSION_TIMEOUT, REBALANCE_TIMEOUT),
            new_id.into(),
        )
    })
    .0
}

#[test]
fn findcoordinator_names_the_leader_of_the_groups_offsets_partition_from_the_metadata_cache() {
    let mut node = Node::new(Profile::V3_9);
    let (out, _) = node.input(0, |c| {
        c.on_find_coordinator(Endpoint::Consumer(1), G.into())
    });
    let unknown = Body::FindCoordinatorResponse {
        group: G.into(),
        result: Err(KafkaError::CoordinatorNotAvailable),
    };
    assert_eq!(
        out.sends,
        [(Endpoint::Broker(1), Endpoint::Consumer(1), unknown)]
    );
    let tp = node.tp();
    node.metadata.insert(
        tp.clone(),
        PartitionInfo {
            tp,
            leader: 3,
            leader_epoch: 2,
            isr: vec![3],
            zk_version: 2,
            replicas: vec![3],
        },
    );
    let (out, _) = node.input(0, |c| {
        c.on_find_coordinator(Endpoint::Consumer(1), G.into())
    });
    let found = Body::FindCoordinatorResponse {
        group: G.into(),
        result: Ok(3),
    };
    assert_eq!(
        out.sends,
        [(Endpoint::Broker(1), Endpoint::Consumer(1), found)]
    );
    assert!(out.timers.is_empty() && out.events.is_empty());
}

#[test]
fn from_2_4_a_join_without_a_member_id_is_told_its_id_and_is_pending_until_its_session_ends() {
    let mut node = Node::new(Profile::V3_9);
    let out = first_join(&mut node, 0, "", "c-1");
    let required = Body::JoinGroupResponse {
        group: G.into(),
        result: Err((KafkaError::MemberIdRequired, "c-1".into())),
    };
    assert_eq!(
        out.sends,
        [(Endpoint::Broker(1), Endpoint::Consumer(1), required)]
    );
    // addPendingMemberExpiration: the pending member expires after its session timeout.
    assert_eq!(out.timers, [group_timer(SESSION_TIMEOUT, 1)]);
    assert_eq!(
        node.state.timers[&1],
        GroupTimer::PendingMember {
            group: G.into(),
            member_id: "c-1".into()
        }
    );
    assert!(out.events.is_empty());
    assert_eq!(node.summary(), (GroupState::Empty, 0, 0));
    let pending: Vec<(&String, &u64)> = node.group().pending.iter().collect();
    assert_eq!(pending, [(&"c-1".to_string(), &1)]);
    // The id handed out is accepted once; an id never handed out is not.
    let out = first_join(&mut node, 10, "c-9", "unused");
    let unknown = Body::JoinGroupResponse {
        group: G.into(),
        result: Err((KafkaError::UnknownMemberId, "c-9".into())),
    };
    assert_eq!(
        out.sends,
        [(Endpoint::Broker(1), Endpoint::Consumer(1), unknown)]
    );
}

#[test]
fn the_first_join_of_an_empty_group_waits_the_initial_rebalance_delay() {
    // 3.9: the join with the id handed out; 2.0: before KIP-394 the id is made at once.
    for (profile, id) in [(Profile::V3_9, "c-1"), (Profile::V2_0, "")] {
        let mut node = Node::new(profile);
        if !id.is_empty() {
            first_join(&mut node, 0, "", id);
        }
        let out = first_join(&mut node, 0, id, "c-1");
        assert!(
            out.sends.is_empty(),
            "{profile:?}: it waits for more members"
        );
        // In 3.9 timer 1 was the pending member's expiry, done with now that it joined, and
        // timer 2 is the expiry of its JoinGroup as a new member (NewMemberJoinTimeoutMs).
        let (t, timers) = if id.is_empty() {
            (1, vec![group_timer(3_000, 1)])
        } else {
            (
                3,
                vec![
                    group_timer(NEW_MEMBER_JOIN_TIMEOUT_MS, 2),
                    group_timer(3_000, 3),
                ],
            )
        };
        assert_eq!(out.timers, timers, "{profile:?}");
        assert_eq!(
            out.events,
            [
                member_joined("c1", "c-1"),
                (
                    EventKind::RebalanceStarted {
                        group: G.into(),
                        generation: 0,
                        reason: "member c1 joined".into(),
                        coordinator: 1,
                    },
                    CoordinatorCause::InitialDelayNewGroup { delay_ms: 3_000 }.into()
                ),
            ],
            "{profile:?}"
        );
        assert_eq!(
            node.state.timers[&t],
            GroupTimer::InitialDelay {
                group: G.into(),
                seq: 1
            }
        );
        let g = node.group();
        assert_eq!(node.summary(), (GroupState::PreparingRebalance, 0, 1));
        assert_eq!(g.leader.as_deref(), Some("c-1"));
        // InitialDelayedJoin(delay 3000, remaining 300000 - 3000).
        assert_eq!(
            g.rebalance.as_ref().map(|r| (r.seq, r.initial)),
            Some((1, Some((3_000, 297_000))))
        );
    }
}

#[test]
fn kafka_0_10_s_first_join_completes_the_rebalance_at_once() {
    let mut node = Node::new(Profile::V0_10);
    let out = first_join(&mut node, 0, "", "c-1");
    assert_eq!(out.sends, [joined(1, 1, "c-1", "c-1", &["c-1"])]);
    // The DelayedJoin's deadline (the rebalance timeout), then the member's session.
    assert_eq!(
        out.timers,
        [
            group_timer(REBALANCE_TIMEOUT, 1),
            group_timer(SESSION_TIMEOUT, 2)
        ]
    );
    assert_eq!(
        out.events,
        [
            member_joined("c1", "c-1"),
            (
                EventKind::RebalanceStarted {
                    group: G.into(),
                    generation: 0,
                    reason: "member c1 joined".into(),
                    coordinator: 1,
                },
                CoordinatorCause::NoInitialDelay.into()
            ),
            (
                EventKind::GroupLeaderChosen {
                    group: G.into(),
                    member: "c1".into(),
                    member_id: "c-1".into(),
                    generation: 1,
                },
                CoordinatorCause::FirstMemberLeads.into()
            ),
        ]
    );
    assert_eq!(node.summary(), (GroupState::CompletingRebalance, 1, 1));
    assert_eq!(
        node.state.timers[&2],
        GroupTimer::Session {
            group: G.into(),
            member_id: "c-1".into(),
            seq: 2
        }
    );
}

#[test]
fn the_end_of_the_initial_delay_completes_the_join_and_the_first_member_leads() {
    // 3.9: c-1 and c-2 join at 0 (c-2 during the delay, so it is extended once, to 6 s).
    // Timers 1 and 4 were their expiries as pending members, 2 and 5 are their JoinGroups'
    // as new members, 3 the initial delay.
    let mut h = Harness::new(Profile::V3_9);
    h.join_new(0, 1, "c1", "c-1");
    h.join_new(0, 2, "c2", "c-2");
    h.advance(3_000);
    assert_eq!(h.node.timer_ids(), [2, 5, 6], "the extension is 6");
    let (out, appended) = h.node.input(6_000, |c| c.on_timer(6));
    assert!(appended.is_empty());
    // Every member gets the new generation; the leader the member list in the map's order.
    assert_eq!(
        out.sends,
        [
            joined(1, 1, "c-1", "c-1", &["c-1", "c-2"]),
            joined(2, 1, "c-1", "c-2", &[]),
        ]
    );
    assert_eq!(
        out.timers,
        [
            group_timer(6_000 + SESSION_TIMEOUT, 7),
            group_timer(6_000 + SESSION_TIMEOUT, 8),
            // 3.0's DelayedSync: the SyncGroups are due within the rebalance timeout.
            group_timer(6_000 + REBALANCE_TIMEOUT, 9)
        ]
    );
    assert_eq!(
        out.events,
        [(
            EventKind::GroupLeaderChosen {
                group: G.into(),
                member: "c1".into(),
                member_id: "c-1".into(),
                generation: 1,
            },
            CoordinatorCause::FirstMemberLeads.into()
        )]
    );
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 2));
    assert!(h.group().rebalance.is_none());
}

#[test]
fn the_last_rejoin_completes_an_ordinary_rebalance() {
    // 2.0 (Scala 2.11's map yields c-2 before c-1): a Stable generation 1 of c-1 (leader) and
    // c-2; the leader's JoinGroup starts a rebalance; c-2's rejoin completes it.
    let mut h = Harness::new(Profile::V2_0);
    h.join_new(0, 1, "c1", "c-1");
    h.join_new(1_000, 2, "c2", "c-2");
    h.advance(6_000);
    h.sync(6_100, 1, "c-1", Vec::new());
    h.join_raw(7_000, 1, "c1", "c-1", "unused", &["orders"]);
    assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 2));
    let (out, appended) = h.node.input(7_100, |c| {
        c.on_join_group(
            Endpoint::Consumer(2),
            (G.into(), "c-2".into(), "c2".into()),
            (vec!["orders".into()], "range".into()),
            (SESSION_TIMEOUT, REBALANCE_TIMEOUT),
            "unused".into(),
        )
    });
    assert!(appended.is_empty());
    assert_eq!(
        out.sends,
        [
            joined(1, 2, "c-1", "c-1", &["c-2", "c-1"]),
            joined(2, 2, "c-1", "c-2", &[]),
        ]
    );
    // Timers 1 and 2: the initial delay and its extension; 3 and 4: generation 1's sessions;
    // 5: c-1's, set by the answer to its SyncGroup; 6: the rebalance's deadline; now
    // generation 2's sessions.
    assert_eq!(
        out.timers,
        [
            group_timer(7_100 + SESSION_TIMEOUT, 7),
            group_timer(7_100 + SESSION_TIMEOUT, 8)
        ]
    );
    assert!(out.events.is_empty(), "same leader, no new member");
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 2, 2));
}

/// 3.9, a rebalance timeout of 1000 s: a Stable generation 1 of c-1 (the leader) and c-2; c-3
/// joins at 7 s (a rebalance starts), c-4 is told its id at 7.01 s (pending), c-1 and c-2
/// rejoin at 7.02 s and 7.03 s.
fn waiting_for_a_pending_member() -> Harness {
    let mut h = Harness::new(Profile::V3_9);
    h.rebalance_timeout = 1_000_000;
    h.join_new(0, 1, "c1", "c-1");
    h.join_new(1_000, 2, "c2", "c-2");
    h.advance(6_000);
    h.sync(6_100, 1, "c-1", Vec::new());
    h.join_new(7_000, 3, "c3", "c-3");
    // c-4 asks for a session of 100 s: as a pending member it expires before c-3's JoinGroup
    // does (NewMemberJoinTimeoutMs, 300 s).
    h.session_timeout = 100_000;
    let out = h.join_raw(7_010, 4, "c4", "", "c-4", &["orders"]);
    h.session_timeout = SESSION_TIMEOUT;
    assert!(matches!(
        &out.sends[..],
        [(
            _,
            _,
            Body::JoinGroupResponse {
                result: Err((KafkaError::MemberIdRequired, _)),
                ..
            }
        )]
    ));
    h.join_raw(7_020, 1, "c1", "c-1", "unused", &["orders"]);
    let out = h.join_raw(7_030, 2, "c2", "c-2", "unused", &["orders"]);
    // Every member has rejoined, but GroupMetadata.hasAllMembersJoined also wants no pending
    // member (2.4.1, 3.9.0): the join waits.
    assert!(out.sends.is_empty() && out.events.is_empty());
    assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 3));
    h
}

#[test]
fn from_2_4_a_rebalance_waits_for_a_pending_member_and_its_join_completes_it() {
    let mut h = waiting_for_a_pending_member();
    let out = h.join_raw(7_040, 4, "c4", "c-4", "unused", &["orders"]);
    assert_eq!(kinds(&out), ["member_joined"]);
    assert_eq!(out.sends.len(), 4, "the four JoinGroup answers");
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 2, 4));
    assert!(h.group().pending.is_empty());
}

#[test]
fn from_2_4_a_pending_member_that_does_not_join_expires_and_the_join_completes() {
    let mut h = waiting_for_a_pending_member();
    // addPendingMemberExpiration: c-4's JoinGroup session timeout after it was told its id.
    h.advance(7_010 + 100_000 - 1);
    assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 3));
    let out = h.advance(7_010 + 100_000);
    assert_eq!(out.sends.len(), 3, "the three JoinGroup answers");
    assert!(h.group().pending.is_empty());
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 2, 3));
}

#[test]
fn from_2_4_a_pending_members_leavegroup_drops_it_and_the_join_completes() {
    // handleLeaveGroup: removePendingMemberAndUpdateGroup.
    let mut h = waiting_for_a_pending_member();
    let expiry = h.group().pending["c-4"];
    assert_eq!(
        h.node.state.timers[&expiry],
        GroupTimer::PendingMember {
            group: G.into(),
            member_id: "c-4".into()
        }
    );
    let out = h.leave(7_040, 4, "c-4");
    assert_eq!(
        out.sends.len(),
        4,
        "the LeaveGroup answer and three JoinGroup answers"
    );
    assert!(h.group().pending.is_empty());
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 2, 3));
    assert!(
        !h.node.state.timers.contains_key(&expiry),
        "its expiry is done with"
    );
}

#[test]
fn from_2_4_a_new_members_joingroup_expires_after_five_minutes() {
    // addMemberAndRebalance schedules the new member's expiration after NewMemberJoinTimeoutMs
    // (2.4.1, 3.9.0; not in 2.0.1). A rebalance timeout of 1000 s: c-2 joins the Stable
    // generation 1 of c-1 at 7 s, c-1 never rejoins and its session lasts until 606.1 s.
    for profile in [Profile::V2_0, Profile::V2_4, Profile::V3_9] {
        let mut h = Harness::new(profile);
        h.rebalance_timeout = 1_000_000;
        h.join_new(0, 1, "c1", "c-1");
        h.advance(6_000);
        h.sync(6_100, 1, "c-1", Vec::new());
        h.join_new(7_000, 2, "c2", "c-2");
        assert_eq!(
            h.state(),
            (GroupState::PreparingRebalance, 1, 2),
            "{profile:?}"
        );
        let out = h.advance(7_000 + NEW_MEMBER_JOIN_TIMEOUT_MS - 1);
        assert!(out.events.is_empty(), "{profile:?}");
        let out = h.advance(7_000 + NEW_MEMBER_JOIN_TIMEOUT_MS);
        if profile == Profile::V2_0 {
            assert!(out.events.is_empty() && out.sends.is_empty(), "{profile:?}");
            assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 2));
            continue;
        }
        // removeMemberAndUpdateGroup answers the waiting JoinGroup with UNKNOWN_MEMBER_ID.
        assert_eq!(
            out.sends,
            [(
                Endpoint::Broker(1),
                Endpoint::Consumer(2),
                Body::JoinGroupResponse {
                    group: G.into(),
                    result: Err((KafkaError::UnknownMemberId, String::new())),
                }
            )],
            "{profile:?}"
        );
        assert_eq!(
            out.events,
            [(
                EventKind::GroupMemberRemoved {
                    group: G.into(),
                    member: "c2".into(),
                    member_id: "c-2".into(),
                    coordinator: 1,
                },
                CoordinatorCause::NewMemberJoinTimedOut {
                    timeout_ms: 300_000
                }
                .into()
            )],
            "{profile:?}"
        );
        assert_eq!(
            h.state(),
            (GroupState::PreparingRebalance, 1, 1),
            "{profile:?}"
        );
        assert_eq!(h.group().leader.as_deref(), Some("c-1"));
    }
}

#[test]
fn a_completed_join_ends_a_new_members_join_expiry() {
    // onCompleteJoin: `member.isNew = false`, and the session timeout applies from then on.
    let mut h = Harness::new(Profile::V3_9);
    h.join_new(0, 1, "c1", "c-1");
    h.advance(6_000);
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 1));
    assert!(!h.group().members["c-1"].is_new);
    let out = h.advance(NEW_MEMBER_JOIN_TIMEOUT_MS);
    assert!(out.events.is_empty() && out.sends.is_empty());
    assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 1));
}
