//! A member leaves: the next leader in the order of the profile's Scala map.

use super::causes::CoordinatorCause;
use super::harness::{group_timer, Harness, G, REBALANCE_TIMEOUT};
use super::state::GroupState;
use crate::sim::config::Profile;
use crate::sim::event::EventKind;
use crate::sim::message::Body;
use crate::sim::net::Endpoint;

// ---- the next leader -----------------------------------------------------------------

#[test]
fn the_next_leader_follows_the_scala_map_of_the_profile() {
    for (profile, next) in [
        (Profile::V0_10, "c-2"),
        (Profile::V2_0, "c-2"),
        (Profile::V2_4, "c-2"),
        (Profile::V3_9, "c-3"),
    ] {
        // (Under 0.10 the first join completes at once and the others start a rebalance
        // that c-1 never rejoins: it leaves during it.)
        let mut h = Harness::new(profile);
        h.join_new(0, 1, "c1", "c-1");
        h.join_new(0, 2, "c2", "c-2");
        h.join_new(0, 3, "c3", "c-3");
        h.advance(10_000);
        h.leave(10_000, 1, "c-1");
        assert_eq!(h.group().leader.as_deref(), Some(next), "{profile:?}");
    }
    let why = |profile: Profile| {
        let mut h = Harness::new(profile);
        h.join_new(0, 1, "c1", "c-1");
        h.join_new(1_000, 2, "c2", "c-2");
        h.join_new(2_000, 3, "c3", "c-3");
        h.advance(6_000);
        h.leave(7_000, 1, "c-1");
        h.group()
            .leader_why
            .as_ref()
            .map(|w| w.english())
            .unwrap_or_default()
    };
    // 2.12: c-2's improved hash 0xcd18a433 has top bits 0xc = 12; c-3's 0x2d79202c has 2.
    assert_eq!(
        why(Profile::V2_4),
        "leader c1 left; Kafka 2.4's Scala 2.12 build takes members.keys.headOption of its mutable.HashMap of member ids, a HashTable that walks its buckets from the last down (bucket = the top 4 bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first: c2 is in bucket 12 of 16, the highest holding a member (improved hash 0xcd18a433, from String.hashCode 0x00017948), so the map yields c2, c3 in that order; by join order c2 would lead"
    );
    // 2.13: c-3's hash 96585 ^ 1 = 96584 = 0x17948 is in bucket 8; c-2's 0x17949 in 9.
    assert_eq!(
        why(Profile::V3_9),
        "leader c1 left; Kafka 3.9's Scala 2.13 build takes members.keys.headOption of its mutable.HashMap of member ids, which walks its buckets from 0 up (bucket = hash & (buckets - 1), hash = h ^ (h >>> 16) of String.hashCode h) and each bucket by ascending hash: c3 is in bucket 8 of 16 (hash 0x00017948, from String.hashCode 0x00017949), so the map yields c3, c2 in that order; by join order c2 would lead"
    );
    assert!(why(Profile::V2_0).starts_with(
        "leader c1 left; Kafka 2.0's Scala 2.11 build takes members.keys.head of its mutable.HashMap"
    ));
}

#[test]
fn the_leader_leaving_hands_leadership_to_the_head_of_the_map_at_once() {
    for (profile, next) in [
        (Profile::V2_0, "c-2"),
        (Profile::V2_4, "c-2"),
        (Profile::V3_9, "c-3"),
    ] {
        // Generation 1 of c-1 (leader), c-2, c-3, waiting for the leader's SyncGroup; timers
        // 1 and 2 were the initial delay and its extension, 3 to 5 the sessions (from 2.4 each
        // member also had an expiry as a pending member and one of its JoinGroup as a new
        // member: 12 is the next, and in 3.9 13, after generation 1's SyncGroup deadline).
        let mut h = Harness::new(profile);
        h.join_new(0, 1, "c1", "c-1");
        h.join_new(1_000, 2, "c2", "c-2");
        h.join_new(2_000, 3, "c3", "c-3");
        h.advance(6_000);
        assert_eq!(h.state(), (GroupState::CompletingRebalance, 1, 3));
        let (out, appended) = h.node.input(7_000, |c| {
            c.on_leave_group(Endpoint::Consumer(1), (G.into(), "c-1".into()))
        });
        assert!(appended.is_empty());
        assert_eq!(
            out.sends,
            [(
                Endpoint::Broker(1),
                Endpoint::Consumer(1),
                Body::LeaveGroupResponse { group: G.into() }
            )]
        );
        let next_timer = match profile {
            Profile::V3_9 => 13,
            Profile::V2_4 => 12,
            _ => 6,
        };
        assert_eq!(
            out.timers,
            [group_timer(7_000 + REBALANCE_TIMEOUT, next_timer)],
            "{profile:?}"
        );
        assert_eq!(
            out.events,
            [
                (
                    EventKind::GroupMemberRemoved {
                        group: G.into(),
                        member: "c1".into(),
                        member_id: "c-1".into(),
                        coordinator: 1,
                    },
                    CoordinatorCause::LeftCleanly.into()
                ),
                (
                    EventKind::RebalanceStarted {
                        group: G.into(),
                        generation: 1,
                        reason: "a member left the group (LeaveGroup)".into(),
                        coordinator: 1,
                    },
                    CoordinatorCause::EveryMemberRejoins.into()
                ),
            ],
            "{profile:?}"
        );
        let g = h.group();
        assert_eq!(g.leader.as_deref(), Some(next), "{profile:?}");
        assert!(g.leader_changed, "the next completed join tells of it");
        assert_eq!(h.state(), (GroupState::PreparingRebalance, 1, 2));
    }
}

#[test]
fn a_leave_from_an_unknown_member_or_at_a_broker_that_is_not_the_coordinator_changes_nothing() {
    let mut h = Harness::new(Profile::V3_9);
    h.join_new(0, 1, "c1", "c-1");
    let response = (
        Endpoint::Broker(1),
        Endpoint::Consumer(9),
        Body::LeaveGroupResponse { group: G.into() },
    );
    let (out, _) = h.node.input(100, |c| {
        c.on_leave_group(Endpoint::Consumer(9), (G.into(), "c-9".into()))
    });
    assert_eq!(out.sends, std::slice::from_ref(&response));
    assert!(out.timers.is_empty() && out.events.is_empty());
    let tp = h.node.tp();
    h.node.logs.0.get_mut(&tp).unwrap().leads = false;
    let (out, _) = h.node.input(200, |c| {
        c.on_leave_group(Endpoint::Consumer(9), (G.into(), "c-1".into()))
    });
    assert_eq!(out.sends, [response]);
    assert!(out.timers.is_empty() && out.events.is_empty());
    assert_eq!(h.state(), (GroupState::PreparingRebalance, 0, 1));
}
