//! Tests of the countdowns the views carry: each one reaches zero when the rule it counts down
//! to acts (a session expires, a follower leaves the ISR, a rebalance's delay ends, a member's
//! session at the coordinator runs out, a controller request is sent again), in small worlds.

use crate::sim::commands::{Command, GroupSpec, Setup};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::state::RebalanceWait;
use crate::sim::world::{zk_clock, World};
use crate::sim::{EventKind, Profile, Settings, TopicConfig, TopicSpec};

fn with_topic(profile: Profile) -> World {
    let mut setup = Setup::with_brokers(1, Settings::for_profile(profile), 3);
    setup.topics = vec![TopicSpec {
        name: "T".into(),
        replicas: vec![vec![1, 2, 3]],
        config: TopicConfig::default(),
    }];
    World::new(&setup)
}

/// The times of the events `pick` selects, in order.
fn event_times(w: &World, pick: impl Fn(&EventKind) -> bool) -> Vec<u64> {
    w.events()
        .iter()
        .filter(|e| pick(&e.kind))
        .map(|e| e.time_ms)
        .collect()
}

#[test]
fn each_session_counts_down_to_its_expiry_on_a_tick_boundary() {
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(10_000);
    let s = w.state();
    assert_eq!(
        s.sessions.iter().map(|v| v.owner).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let clock = zk_clock(1);
    for v in &s.sessions {
        // 3.9's zookeeper.session.timeout.ms, within ZooKeeper's 2 to 20 ticks.
        assert_eq!(v.timeout_ms, 18_000);
        assert_eq!(
            v.expires_in_ms,
            clock.next_boundary_after(v.last_heard_ms + 18_000) - 10_000
        );
        // A running, connected broker's session is not running out.
        assert_eq!(s.brokers[&v.owner].session_countdown_ms, None);
    }
    // Broker 2 dies and is started again before ZooKeeper expired its old session: a second
    // session opens (at 12.005 s), and closes when the old one's /brokers/ids/2 refuses the
    // registration (NODEEXISTS, at 12.022 s).
    w.apply(Command::Crash(2)).unwrap();
    let old = w.state().sessions[1].clone();
    assert_eq!(old.owner, 2);
    w.advance_to(12_000);
    w.apply(Command::Start(2)).unwrap();
    w.advance_to(12_010);
    let s = w.state();
    let of_2: Vec<_> = s.sessions.iter().filter(|v| v.owner == 2).collect();
    assert_eq!(of_2.len(), 2);
    assert_eq!(of_2[0].session, old.session);
    assert_eq!(of_2[0].last_heard_ms, old.last_heard_ms);
    assert_eq!(
        s.brokers[&2].zk_session,
        Some(format!("0x{:x}", of_2[1].session))
    );
    w.advance_to(13_000);
    let s = w.state();
    let of_2: Vec<_> = s.sessions.iter().filter(|v| v.owner == 2).collect();
    assert_eq!(of_2.len(), 1);
    let left = clock.next_boundary_after(old.last_heard_ms + 18_000) - 13_000;
    assert_eq!(of_2[0].expires_in_ms, left);
    // The stopped broker's countdown is its old session's.
    assert_eq!(
        s.brokers[&2].zk_session,
        Some(format!("0x{:x}", old.session))
    );
    assert_eq!(s.brokers[&2].session_countdown_ms, Some(left));
    // ZooKeeper expires the old session when its countdown reaches zero, not a millisecond
    // before.
    let expired = |w: &World| {
        event_times(
            w,
            |k| matches!(k, EventKind::SessionExpired { session, .. } if *session == old.session),
        )
    };
    w.advance_to(13_000 + left - 1);
    assert_eq!(expired(&w), Vec::<u64>::new());
    assert_eq!(
        w.state()
            .sessions
            .iter()
            .find(|v| v.session == old.session)
            .map(|v| v.expires_in_ms),
        Some(1)
    );
    w.advance_to(13_000 + left);
    assert_eq!(expired(&w), vec![13_000 + left]);
    assert_eq!(
        w.state().sessions.iter().filter(|v| v.owner == 2).count(),
        0
    );
}

#[test]
fn a_crashed_brokers_countdown_is_its_sessions() {
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(10_000);
    w.apply(Command::Crash(3)).unwrap();
    w.advance_to(11_000);
    let s = w.state();
    let session = s.sessions.iter().find(|v| v.owner == 3).unwrap();
    assert_eq!(
        s.brokers[&3].session_countdown_ms,
        Some(session.expires_in_ms)
    );
    assert_eq!(
        s.brokers[&3].session_expires_in_ms,
        Some(session.expires_in_ms)
    );
}

/// Runs `w` with broker 3's fetcher of `T-0` stalled from 5 s and returns the time the leader
/// removed broker 3 from the ISR, checking the countdown on the way. The leader proposes the
/// smaller ISR (`proposal`: the label of the message it sends) at the check, and records the
/// shrink when the proposal is written.
fn stalled_follower_leaves_the_isr(w: &mut World, lag_max: u64, proposal: &str) -> u64 {
    w.advance_to(6_000);
    let p = &w.state().partitions["T-0"];
    assert_eq!(p.leader, 1);
    assert_eq!(p.isr, vec![1, 2, 3]);
    let t = w.now();
    let left = p.isr_expiry_in_ms[&3];
    let check = p.isr_check_in_ms.unwrap();
    assert!(left > 0 && left <= lag_max + 1, "{left}");
    assert!(check > 0 && check <= lag_max / 2, "{check}");
    // A stalled follower's clock runs down with virtual time.
    w.advance_to(t + 1_000);
    assert_eq!(
        w.state().partitions["T-0"].isr_expiry_in_ms[&3],
        left - 1_000
    );
    // The leader's first ISR-expiration check once the countdown is at zero removes it.
    let mut removal = t + check;
    while removal < t + left {
        removal += lag_max / 2;
    }
    w.advance_to(removal - 1);
    assert_eq!(w.state().partitions["T-0"].isr, vec![1, 2, 3]);
    assert_eq!(w.state().partitions["T-0"].isr_expiry_in_ms[&3], 0);
    w.advance_to(removal + 500);
    let proposed: Vec<u64> = w
        .messages()
        .filter(|m| m.from == Endpoint::Broker(1) && m.label.starts_with(proposal))
        .map(|m| m.sent_ms)
        .collect();
    assert_eq!(proposed, vec![removal]);
    let shrunk = event_times(w, |k| {
        matches!(k, EventKind::IsrShrunk { partition, removed, .. }
            if partition == "T-0" && *removed == vec![3 as BrokerId])
    });
    assert_eq!(shrunk.len(), 1);
    assert!(shrunk[0] > removal && shrunk[0] < removal + 500);
    removal
}

#[test]
fn before_2_1_an_idle_stalled_follower_counts_down_to_leaving_the_isr() {
    let mut w = with_topic(Profile::V2_0);
    w.advance_to(5_000);
    w.apply(Command::StallFetcher {
        broker: 3,
        topic: Some("T".into()),
        partition: Some(0),
    })
    .unwrap();
    // Nothing is written: the lag time alone decides (Partition.getOutOfSyncReplicas, 2.0.1).
    // Before 2.7 the leader writes the partition state itself, by compare-and-set.
    stalled_follower_leaves_the_isr(
        &mut w,
        10_000,
        "setData /brokers/topics/T/partitions/0/state",
    );
}

#[test]
fn from_2_1_a_caught_up_follower_has_no_countdown_until_it_falls_behind() {
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(5_000);
    w.apply(Command::StallFetcher {
        broker: 3,
        topic: Some("T".into()),
        partition: Some(0),
    })
    .unwrap();
    w.advance_to(5_500);
    let p = &w.state().partitions["T-0"];
    // Nothing written: both followers are at the leader's log end, no clock runs.
    assert_eq!(p.isr_expiry_in_ms.len(), 0);
    assert!(p.isr_check_in_ms.is_some());
    w.apply(Command::Produce {
        topic: "T".into(),
        partition: 0,
        records: Some(5),
        acks: crate::sim::Acks::One,
        rate_per_s: None,
        for_ms: None,
    })
    .unwrap();
    stalled_follower_leaves_the_isr(&mut w, 30_000, "AlterPartition T-0 isr [1, 2]");
    // Out of the ISR, no countdown; follower 2, caught up, none either.
    assert_eq!(w.state().partitions["T-0"].isr_expiry_in_ms.len(), 0);
}

fn with_group(profile: Profile) -> World {
    let mut setup = Setup::with_brokers(1, Settings::for_profile(profile), 3);
    setup.topics = vec![TopicSpec {
        name: "T".into(),
        replicas: vec![vec![1, 2, 3]],
        config: TopicConfig::default(),
    }];
    setup.groups = vec![GroupSpec {
        id: "g".into(),
        topics: vec!["T".into()],
        assignor: "range".into(),
    }];
    World::new(&setup)
}

#[test]
fn a_new_groups_initial_rebalance_delay_counts_down() {
    let mut w = with_group(Profile::V3_9);
    w.advance_to(8_000);
    w.apply(Command::Join {
        group: "g".into(),
        member: "c1".into(),
    })
    .unwrap();
    let mut t = 8_000;
    while w.state().groups["g"].rebalance_countdown.is_none() {
        assert!(t < 20_000, "no rebalance started");
        t += 10;
        w.advance_to(t);
    }
    let started = event_times(&w, |k| matches!(k, EventKind::RebalanceStarted { .. }));
    assert_eq!(started.len(), 1);
    let countdown = w.state().groups["g"].rebalance_countdown.unwrap();
    assert_eq!(countdown.wait, RebalanceWait::InitialDelay);
    // group.initial.rebalance.delay.ms: 3 s from the start of the rebalance.
    assert_eq!(countdown.left_ms, started[0] + 3_000 - t);
    w.advance_to(started[0] + 2_999);
    assert_eq!(
        w.state().groups["g"].rebalance_countdown.map(|c| c.left_ms),
        Some(1)
    );
    w.advance_to(started[0] + 3_000);
    assert_eq!(w.state().groups["g"].rebalance_countdown, None);
}

#[test]
fn a_crashed_members_session_at_the_coordinator_counts_down_to_its_removal() {
    let mut w = with_group(Profile::V3_9);
    w.advance_to(8_000);
    w.apply(Command::Join {
        group: "g".into(),
        member: "c1".into(),
    })
    .unwrap();
    w.advance_to(20_000);
    let s = w.state();
    assert_eq!(s.groups["g"].members, vec!["c1".to_string()]);
    let left = s.groups["g"].session_expiry_in_ms["c1"];
    // 3.9's session.timeout.ms is 45 s; a stable member's heartbeats keep it well above.
    assert!(left > 40_000 && left <= 45_000, "{left}");
    w.apply(Command::CrashConsumer {
        group: "g".into(),
        member: "c1".into(),
    })
    .unwrap();
    w.advance_to(21_000);
    assert_eq!(
        w.state().groups["g"].session_expiry_in_ms["c1"],
        left - 1_000
    );
    let removed = |w: &World| event_times(w, |k| matches!(k, EventKind::GroupMemberRemoved { .. }));
    w.advance_to(20_000 + left - 1);
    assert_eq!(removed(&w), Vec::<u64>::new());
    w.advance_to(20_000 + left);
    assert_eq!(removed(&w), vec![20_000 + left]);
    assert_eq!(w.state().groups["g"].session_expiry_in_ms.len(), 0);
}

#[test]
fn a_controller_request_lost_on_a_cut_link_counts_down_to_its_resend() {
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(8_000);
    let controller = w.state().controller.unwrap();
    let others: Vec<BrokerId> = [1, 2, 3].into_iter().filter(|b| *b != controller).collect();
    let (unreachable, leaving) = (others[0], others[1]);
    assert!(w.state().brokers[&controller]
        .controller_requests
        .is_empty());
    // The link from the controller to one broker drops every message; that broker's session
    // lives on, so it stays live and the controller keeps trying.
    w.apply(Command::Cut(
        Endpoint::Broker(controller),
        Endpoint::Broker(unreachable),
    ))
    .unwrap();
    w.apply(Command::Shutdown(leaving)).unwrap();
    w.advance_to(9_000);
    let requests = w.state().brokers[&controller].controller_requests.clone();
    let to_unreachable: Vec<_> = requests.iter().filter(|r| r.to == unreachable).collect();
    assert_eq!(to_unreachable.len(), 1, "{requests:?}");
    let r = to_unreachable[0];
    let sent: Vec<u64> = w
        .messages()
        .filter(|m| {
            m.from == Endpoint::Broker(controller)
                && m.to == Endpoint::Broker(unreachable)
                && m.label.starts_with(r.request.name())
        })
        .map(|m| m.sent_ms)
        .collect();
    let first = *sent.last().unwrap();
    // controller.socket.timeout.ms: 30 s from the send.
    assert_eq!(r.timeout_in_ms, Some(first + 30_000 - 9_000));
    w.advance_to(first + 30_000);
    let resent = w
        .messages()
        .filter(|m| {
            m.from == Endpoint::Broker(controller)
                && m.to == Endpoint::Broker(unreachable)
                && m.label.starts_with(r.request.name())
        })
        .map(|m| m.sent_ms)
        .next_back();
    assert_eq!(resent, Some(first + 30_000));
    let again = w.state().brokers[&controller].controller_requests.clone();
    let again: Vec<_> = again.iter().filter(|x| x.to == unreachable).collect();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].request, r.request);
    assert_eq!(again[0].timeout_in_ms, Some(30_000));
    assert!(again[0].correlation_id > r.correlation_id);
}
