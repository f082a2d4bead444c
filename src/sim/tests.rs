//! Tests of the election through the whole world: ZooKeeper, brokers and the controller
//! role together, driven by commands and the passing of virtual time.

use super::*;
use crate::collections::VecSet;

fn world(seed: u64, profile: Profile, n: u32) -> World {
    World::new(&Setup::with_brokers(
        seed,
        Settings::for_profile(profile),
        n,
    ))
}

fn kinds(w: &World, kind: &str) -> Vec<Event> {
    w.events()
        .iter()
        .filter(|e| e.kind.name() == kind)
        .cloned()
        .collect()
}

fn elected(w: &World) -> Vec<(BrokerId, u64)> {
    w.events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::ControllerElected { broker, epoch } => Some((broker, epoch)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_first_listed_broker_wins_the_first_election_with_epoch_1() {
    for seed in 0..40 {
        let mut w = world(seed, Profile::V3_9, 5);
        w.advance_to(3_000);
        assert_eq!(elected(&w), vec![(1, 1)], "seed {seed}");
        let s = w.state();
        assert_eq!(s.controller, Some(1));
        assert_eq!(s.controller_epoch, 1);
        for b in 1..=5 {
            let v = &s.brokers[&b];
            assert!(v.registered, "seed {seed}, broker {b}");
            assert_eq!(v.known_controller, Some(1), "seed {seed}, broker {b}");
            assert_eq!(v.known_controller_epoch, 1);
        }
        assert!(w.violations().is_empty());
    }
}

#[test]
fn a_crashed_controller_is_replaced_only_after_the_session_timeout() {
    let mut w = world(42, Profile::V3_9, 3);
    w.advance_to(1_000);
    w.apply(Command::Crash(1)).unwrap();
    let deadline = w
        .zookeeper()
        .live_session_of(1)
        .map(|(_, s)| s.deadline_ms())
        .unwrap();
    assert!(
        deadline >= 18_000,
        "the session lives about 18 s after the last heartbeat"
    );
    w.advance_to(deadline - 1);
    assert_eq!(
        w.state().controller,
        Some(1),
        "ZooKeeper still holds /controller"
    );
    assert_eq!(elected(&w).len(), 1);
    w.advance_to(deadline + 1_000);
    let s = w.state();
    assert!(matches!(s.controller, Some(2) | Some(3)));
    assert_eq!(s.controller_epoch, 2);
    let e = elected(&w);
    assert_eq!(e.len(), 2);
    assert_eq!(e[1].1, 2);
}

#[test]
fn the_race_winner_is_not_a_lowest_id_rule() {
    let winners: VecSet<BrokerId> = (0..40)
        .map(|seed| {
            let mut w = world(seed, Profile::V3_9, 4);
            w.advance_to(1_000);
            w.apply(Command::ExpireSession(1)).unwrap();
            w.advance_to(2_000);
            w.state().controller.unwrap()
        })
        .collect();
    assert!(
        winners.len() >= 2,
        "different seeds give different winners: {winners:?}"
    );
}

#[test]
fn the_profile_sets_the_session_timeout() {
    // Crash at 1 s. The last contact was at most a ping gap (readTimeout / 2, a third of
    // the session timeout) before; ZooKeeper expires the session at the first tick of its
    // clock after last contact + timeout, so within (crash - gap + timeout, crash + timeout +
    // tickTime], and always on one of its ticks.
    let tick = super::zookeeper::ZK_TICK_TIME_MS;
    for (profile, timeout) in [
        (Profile::V0_10, 6_000),
        (Profile::V2_4, 6_000),
        (Profile::V3_9, 18_000),
    ] {
        let mut phases = VecSet::new();
        for seed in 0..20 {
            let mut w = world(seed, profile, 3);
            w.advance_to(1_000);
            w.apply(Command::Crash(1)).unwrap();
            w.advance_to(30_000);
            let expired = kinds(&w, "session_expired")[0].time_ms;
            let gap = timeout * 2 / 3 / 2;
            assert!(
                expired + gap > 1_000 + timeout && expired <= 1_000 + timeout + tick,
                "{profile:?}, seed {seed}: expired at {expired}"
            );
            let phase = w.zookeeper().clock().phase_ms;
            assert_eq!(
                (expired + phase) % tick,
                0,
                "on a tick of ZooKeeper's clock"
            );
            phases.insert(phase);
            let at = kinds(&w, "controller_elected")[1].time_ms;
            assert!(
                at > expired && at < expired + 100,
                "{profile:?}: re-elected at {at}"
            );
        }
        assert!(phases.len() > 10, "the seed moves the ticks: {phases:?}");
    }
}

#[test]
fn the_tick_phase_comes_from_the_seed_without_touching_the_worlds_rng() {
    use super::world::zk_clock;
    // Same seed, same phase; and the phase is drawn from a generator of its own, so the
    // world's generator (message jitter) starts where it always did.
    assert_eq!(zk_clock(7), zk_clock(7));
    assert_ne!(zk_clock(7), zk_clock(8));
    let w = world(7, Profile::V3_9, 3);
    assert_eq!(w.zookeeper().clock(), zk_clock(7));
    assert!(zk_clock(7).phase_ms < super::zookeeper::ZK_TICK_TIME_MS);
}

#[test]
fn a_forced_expiry_moves_the_controller_at_once_and_the_old_one_registers_again() {
    let mut w = world(9, Profile::V3_9, 3);
    w.advance_to(1_000);
    let first_epoch = w.state().brokers[&1].broker_epoch.unwrap();
    w.apply(Command::ExpireSession(1)).unwrap();
    w.advance_to(1_200);
    let s = w.state();
    assert_eq!(s.controller_epoch, 2);
    let b1 = &s.brokers[&1];
    assert!(b1.registered);
    assert!(!b1.acts_as_controller);
    assert!(
        b1.broker_epoch.unwrap() > first_epoch,
        "a new registration, a newer broker epoch"
    );
    assert_eq!(kinds(&w, "controller_resigned").len(), 1);
}

#[test]
fn a_broker_restarted_before_its_old_session_expired_fails_to_start() {
    let mut w = world(11, Profile::V3_9, 3);
    w.advance_to(1_000);
    w.apply(Command::Crash(2)).unwrap();
    w.advance_to(3_000);
    w.apply(Command::Start(2)).unwrap();
    w.advance_to(4_000);
    assert_eq!(w.state().brokers[&2].state, BrokerState::Stopped);
    let failed = kinds(&w, "broker_start_failed");
    assert_eq!(failed.len(), 1);
    assert_eq!(
        failed[0].cause,
        Cause::Broker(broker::causes::BrokerCause::StartFailedZnodeHeld {
            broker: 2,
            session_timeout_ms: Settings::for_profile(Profile::V3_9).zookeeper_session_timeout_ms,
        })
    );
    // Once ZooKeeper has expired the old session, the start succeeds.
    w.advance_to(25_000);
    w.apply(Command::Start(2)).unwrap();
    w.advance_to(26_000);
    let s = w.state();
    assert_eq!(s.brokers[&2].state, BrokerState::Running);
    assert!(s.brokers[&2].registered);
    assert_eq!(s.brokers[&2].known_controller, Some(1));
}

#[test]
fn a_short_pause_changes_nothing() {
    let mut w = world(4, Profile::V3_9, 3);
    w.advance_to(1_000);
    w.apply(Command::Pause {
        broker: 1,
        for_ms: 5_000,
    })
    .unwrap();
    w.advance_to(60_000);
    assert_eq!(elected(&w).len(), 1);
    assert_eq!(w.state().controller, Some(1));
    assert!(kinds(&w, "session_expired").is_empty());
}

#[test]
fn a_long_pause_makes_a_zombie_that_resigns_when_it_learns_of_its_expiry() {
    let mut w = world(4, Profile::V3_9, 3);
    w.advance_to(1_000);
    w.apply(Command::Pause {
        broker: 1,
        for_ms: 30_000,
    })
    .unwrap();
    w.advance_to(25_000);
    let s = w.state();
    assert_eq!(s.controller_epoch, 2);
    assert!(
        s.brokers[&1].acts_as_controller,
        "the frozen process still believes it leads"
    );
    assert!(s.violations.is_empty(), "different epochs: no split brain");
    w.advance_to(32_000);
    let s = w.state();
    assert!(!s.brokers[&1].acts_as_controller);
    assert!(s.brokers[&1].registered);
    assert_eq!(s.brokers[&1].known_controller_epoch, 2);
}

#[test]
fn commands_that_make_no_sense_change_nothing() {
    let mut w = world(1, Profile::V3_9, 3);
    w.advance_to(1_000);
    let before = (w.state(), w.events().len());
    for (cmd, msg) in [
        (Command::Start(1), "already running"),
        (Command::Crash(9), "no broker 9"),
        (Command::Heal(Endpoint::Broker(1), Endpoint::Zk), "not cut"),
        (
            Command::Cut(Endpoint::Broker(1), Endpoint::Broker(1)),
            "itself",
        ),
        (
            Command::Pause {
                broker: 1,
                for_ms: 0,
            },
            "at least 1 ms",
        ),
    ] {
        let e = w.apply(cmd).unwrap_err();
        assert!(e.contains(msg), "{e}");
    }
    w.apply(Command::Crash(2)).unwrap();
    assert!(w
        .apply(Command::Crash(2))
        .unwrap_err()
        .contains("not running"));
    assert!(w
        .apply(Command::Shutdown(2))
        .unwrap_err()
        .contains("cannot shut down"));
    let after_crash = w.events().len();
    assert_eq!(
        after_crash,
        before.1 + 1,
        "only the one valid crash was recorded"
    );
    assert_eq!(before.0.controller, w.state().controller);
}

#[test]
fn a_cut_link_drops_messages_and_a_heal_restores_them() {
    let mut w = world(2, Profile::V3_9, 3);
    w.advance_to(1_000);
    w.apply(Command::Cut(Endpoint::Broker(2), Endpoint::Zk))
        .unwrap();
    w.advance_to(30_000);
    assert!(w
        .messages()
        .any(|m| m.dropped && m.from == Endpoint::Broker(2)));
    let s = w.state();
    assert!(!s.brokers[&2].registered, "its session expired");
    assert_eq!(
        s.controller,
        Some(1),
        "a follower's loss does not move the controller"
    );
    w.apply(Command::Heal(Endpoint::Broker(2), Endpoint::Zk))
        .unwrap();
    w.advance_to(35_000);
    assert!(w.state().brokers[&2].registered);
    assert!(kinds(&w, "broker_lost")
        .iter()
        .any(|e| e.kind.broker() == Some(2)));
}

#[test]
fn controlled_shutdown_retries_and_then_stops_when_no_controller_answers() {
    let mut w = world(6, Profile::V3_9, 3);
    w.advance_to(1_000);
    // Broker 3 cannot reach the controller: each attempt times out.
    w.apply(Command::Cut(Endpoint::Broker(3), Endpoint::Broker(1)))
        .unwrap();
    w.apply(Command::Shutdown(3)).unwrap();
    w.advance_to(200_000);
    let attempts = kinds(&w, "controlled_shutdown_requested");
    assert_eq!(
        attempts.len(),
        3,
        "controlled.shutdown.max.retries (3) attempts in all, as KafkaServer.controlledShutdown loops"
    );
    assert_eq!(w.state().brokers[&3].state, BrokerState::Stopped);
    assert!(
        !w.state().brokers[&3].registered,
        "the session is closed all the same"
    );
}

#[test]
fn same_seed_same_trace_and_different_seeds_differ() {
    let run = |seed: u64| {
        let mut w = world(seed, Profile::V3_9, 5);
        w.advance_to(1_000);
        w.apply(Command::Crash(1)).unwrap();
        w.advance_to(21_000);
        w.apply(Command::Start(1)).unwrap();
        w.apply(Command::ExpireSession(2)).unwrap();
        w.advance_to(40_000);
        w.events().iter().map(Event::line).collect::<Vec<_>>()
    };
    assert_eq!(run(77), run(77));
    assert_ne!(run(77), run(78));
}

fn with_topic(profile: Profile) -> World {
    let mut setup = Setup::with_brokers(1, Settings::for_profile(profile), 3);
    setup.topics = vec![TopicSpec {
        name: "T".into(),
        replicas: vec![vec![1, 2, 3], vec![2, 3, 1]],
        config: TopicConfig::default(),
    }];
    World::new(&setup)
}

#[test]
fn a_new_topic_gets_leaders_in_assignment_order_with_epoch_0() {
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(2_000);
    let s = w.state();
    let p0 = &s.partitions["T-0"];
    assert_eq!(
        (p0.leader, p0.leader_epoch, p0.isr.clone()),
        (1, 0, vec![1, 2, 3])
    );
    let p1 = &s.partitions["T-1"];
    assert_eq!(
        (p1.leader, p1.leader_epoch, p1.isr.clone()),
        (2, 0, vec![2, 3, 1])
    );
    assert_eq!(p1.replica_states[&2], ReplicaState::Leader);
    assert_eq!(p1.replica_states[&3], ReplicaState::InSync);
    assert_eq!(s.lost_records["T-0"], 0);
}

#[test]
fn records_replicate_and_the_high_watermark_follows_the_isr() {
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(2_000);
    w.apply(Command::Produce {
        topic: "T".into(),
        partition: 0,
        records: Some(7),
        acks: Acks::All,
        rate_per_s: None,
        for_ms: None,
    })
    .unwrap();
    w.advance_to(3_000);
    let p = &w.state().partitions["T-0"];
    assert_eq!(p.high_watermark, 7);
    assert_eq!(
        p.log_end_offsets.values().copied().collect::<Vec<_>>(),
        vec![7, 7, 7]
    );
    assert_eq!(p.acked_records, 7);
}

#[test]
fn bad_partition_commands_are_refused_and_change_nothing() {
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(2_000);
    let before = w.state();
    let events = w.events().len();
    let produce = |topic: &str, partition: u32, records: Option<u64>| Command::Produce {
        topic: topic.into(),
        partition,
        records,
        acks: Acks::One,
        rate_per_s: None,
        for_ms: None,
    };
    for (cmd, msg) in [
        (produce("X", 0, Some(1)), "no topic \"X\""),
        (produce("T", 9, Some(1)), "partitions 0..1, not 9"),
        (produce("T", 0, None), "needs \"records\""),
        (
            Command::StopProducing {
                topic: "T".into(),
                partition: 0,
            },
            "not streaming",
        ),
        (
            Command::ResumeFetcher {
                broker: 2,
                topic: None,
                partition: None,
            },
            "not stalled",
        ),
        (
            Command::SetConfig {
                key: "min.insync.replicas".into(),
                value: serde_json::json!("two"),
                topic: Some("T".into()),
            },
            "whole number",
        ),
        (
            Command::Reassign {
                topic: "T".into(),
                partition: 0,
                replicas: vec![1, 2, 3],
            },
            "already has",
        ),
        (
            Command::PreferredElection {
                topic: None,
                partition: Some(0),
            },
            "needs its topic",
        ),
    ] {
        let e = w.apply(cmd.clone()).unwrap_err();
        assert!(e.contains(msg), "{cmd}: {e}");
    }
    assert_eq!(w.state(), before);
    assert_eq!(w.events().len(), events);
}

#[test]
fn a_leaders_isr_change_keeps_the_leader_epoch_in_every_profile() {
    for profile in Profile::ALL {
        let mut w = with_topic(profile);
        w.advance_to(2_000);
        w.apply(Command::StallFetcher {
            broker: 3,
            topic: None,
            partition: None,
        })
        .unwrap();
        w.apply(Command::Produce {
            topic: "T".into(),
            partition: 0,
            records: None,
            acks: Acks::One,
            rate_per_s: Some(10),
            for_ms: None,
        })
        .unwrap();
        w.advance_to(60_000);
        let p = &w.state().partitions["T-0"];
        assert_eq!(p.isr, vec![1, 2], "{profile:?}");
        assert_eq!(p.leader_epoch, 0, "{profile:?}");
        assert_eq!(p.replica_states[&3], ReplicaState::OutOfSync, "{profile:?}");
    }
}

#[test]
fn leader_epoch_bumps_follow_the_order_of_the_controllers_writes() {
    // Broker failure (broker 2 is not the controller): election first, then OfflineReplica
    // only where the dead replica is still in the ISR: one bump per partition.
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(2_000);
    w.apply(Command::Crash(2)).unwrap();
    w.advance_to(40_000);
    let s = w.state();
    assert_eq!(s.partitions["T-0"].leader_epoch, 1, "follower 2 removed");
    assert_eq!(s.partitions["T-1"].leader_epoch, 1, "leader 2 replaced");
    assert_eq!(s.partitions["T-1"].leader, 3);

    // Controller failover (broker 1 leads T-0 and is the controller): OfflineReplica first
    // (leader -1, +1), then the election (+1): two bumps for the partition it led.
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(2_000);
    w.apply(Command::Crash(1)).unwrap();
    w.advance_to(40_000);
    let s = w.state();
    assert_eq!(s.controller_epoch, 2);
    assert_eq!(
        s.partitions["T-0"].leader_epoch, 2,
        "{:?}",
        s.partitions["T-0"]
    );
    assert_eq!(s.partitions["T-0"].leader, 2);
    assert_eq!(s.partitions["T-1"].leader_epoch, 1, "follower 1 removed");

    // Before 2.4 failover does not move dead replicas offline first: one bump.
    let mut w = with_topic(Profile::V2_0);
    w.advance_to(2_000);
    w.apply(Command::Crash(1)).unwrap();
    w.advance_to(40_000);
    let s = w.state();
    assert_eq!(
        s.partitions["T-0"].leader_epoch, 1,
        "{:?}",
        s.partitions["T-0"]
    );
    assert_eq!(s.partitions["T-0"].leader, 2);
}

#[test]
fn deleting_controller_needs_a_controller() {
    let mut w = world(3, Profile::V3_9, 3);
    let e = w.apply(Command::DeleteController).unwrap_err();
    assert!(e.contains("no controller"), "{e}");
    assert!(w.events().is_empty(), "nothing happened");
    w.advance_to(1_000);
    w.apply(Command::DeleteController).unwrap();
    assert_eq!(w.state().controller, None);
    let events = w.events().len();
    let e = w.apply(Command::DeleteController).unwrap_err();
    assert!(e.contains("/controller does not exist"), "{e}");
    assert_eq!(w.events().len(), events);
    w.advance_to(2_000);
    let s = w.state();
    assert_eq!(s.controller_epoch, 2);
    assert!(s.controller.is_some());
    assert_eq!(kinds(&w, "controller_deleted").len(), 1);
}

#[test]
fn a_snapshot_of_the_world_shares_its_event_trace() {
    // An hour of virtual time with a produce stream, a broker crashed and started again every
    // 100 seconds.
    let mut w = with_topic(Profile::V3_9);
    w.advance_to(3_000);
    w.apply(Command::Produce {
        topic: "T".into(),
        partition: 0,
        records: None,
        acks: Acks::All,
        rate_per_s: Some(5),
        for_ms: None,
    })
    .unwrap();
    for k in 1..=36u64 {
        let victim = (k % 3) as u32 + 1;
        w.advance_to(k * 100_000 - 40_000);
        w.apply(Command::Crash(victim)).unwrap();
        w.advance_to(k * 100_000);
        w.apply(Command::Start(victim)).unwrap();
    }
    w.advance_to(3_600_000);
    let n = w.events().len();
    let sealed = n / history::CHUNK;
    assert!(sealed >= 2, "{n} events fill at least two chunks");
    assert_eq!(w.now(), 3_600_000);
    assert_eq!(w.events().sealed_chunks(), sealed);
    // The clone shares every sealed chunk of the trace: it copied a pointer per chunk and the
    // open one's items, not the trace.
    let snapshot = w.clone();
    assert_eq!(snapshot.events().shared_chunks_with(w.events()), sealed);
    assert_eq!(snapshot.events(), w.events());
    // The original goes on; the snapshot's trace stays as it was, still sharing its chunks.
    let last = w.events().last().cloned();
    w.apply(Command::Crash(1)).unwrap();
    w.advance_to(3_900_000);
    assert!(w.events().len() > n);
    assert_eq!(snapshot.events().len(), n);
    assert_eq!(snapshot.events().last().cloned(), last);
    assert_eq!(snapshot.events().shared_chunks_with(w.events()), sealed);
}
