//! Tests of the views: the states serialize as their names, and the values the core computes
//! for the page (partition health, replica lag, controller role, consumer numbering) hold
//! exactly what they promise.

use super::*;
use crate::sim::commands::{Command, GroupSpec, Setup};
use crate::sim::world::World;
use crate::sim::{Profile, Settings, TopicConfig, TopicSpec};
use serde_json::json;

fn states(list: &[(BrokerId, ReplicaState)]) -> VecMap<BrokerId, ReplicaState> {
    list.iter().copied().collect()
}

#[test]
fn every_view_state_serializes_as_its_name() {
    use BrokerState as B;
    for s in [
        B::NotStarted,
        B::Running,
        B::Paused,
        B::ShuttingDown,
        B::Crashed,
        B::Stopped,
    ] {
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.name()));
    }
    use ZkConnection as Z;
    for s in [Z::Idle, Z::Connecting, Z::Connected, Z::Disconnected] {
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.name()));
    }
    use ReplicaState as R;
    for s in [R::Leader, R::InSync, R::OutOfSync, R::Offline, R::Frozen] {
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.name()));
    }
    use GroupState as G;
    for s in [
        G::Empty,
        G::PreparingRebalance,
        G::CompletingRebalance,
        G::Stable,
        G::Dead,
    ] {
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.name()));
    }
    use ConsumerState as C;
    for s in [
        C::FindingCoordinator,
        C::Joining,
        C::Syncing,
        C::Stable,
        C::Left,
        C::Crashed,
    ] {
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.name()));
    }
    use BatchWait as W;
    for s in [W::InFlight, W::RetryBackoff, W::WaitingForLeader, W::Queued] {
        assert_eq!(serde_json::to_value(s).unwrap(), json!(s.name()));
    }
    // The spellings the JSON state has always had.
    assert_eq!(json!(B::ShuttingDown), json!("shutting_down"));
    assert_eq!(json!(Z::Idle), json!("none"));
    assert_eq!(json!(R::OutOfSync), json!("out_of_sync"));
    assert_eq!(json!(G::PreparingRebalance), json!("PreparingRebalance"));
    assert_eq!(json!(C::FindingCoordinator), json!("finding_coordinator"));
    assert_eq!(json!(W::WaitingForLeader), json!("waiting_for_leader"));
    assert_eq!(json!(Acks::All), json!("all"));
}

#[test]
fn the_state_is_running_only_for_a_live_process() {
    let alive: Vec<BrokerState> = [
        BrokerState::NotStarted,
        BrokerState::Running,
        BrokerState::Paused,
        BrokerState::ShuttingDown,
        BrokerState::Crashed,
        BrokerState::Stopped,
    ]
    .into_iter()
    .filter(|s| s.is_alive())
    .collect();
    assert_eq!(
        alive,
        vec![
            BrokerState::Running,
            BrokerState::Paused,
            BrokerState::ShuttingDown
        ]
    );
    let running: Vec<ConsumerState> = [
        ConsumerState::FindingCoordinator,
        ConsumerState::Joining,
        ConsumerState::Syncing,
        ConsumerState::Stable,
        ConsumerState::Left,
        ConsumerState::Crashed,
    ]
    .into_iter()
    .filter(|s| s.is_running())
    .collect();
    assert_eq!(
        running,
        vec![
            ConsumerState::FindingCoordinator,
            ConsumerState::Joining,
            ConsumerState::Syncing,
            ConsumerState::Stable
        ]
    );
}

#[test]
fn a_healthy_partition_has_nothing_wrong() {
    let h = PartitionHealth::of(
        1,
        &[1, 2, 3],
        &[1, 2, 3],
        &states(&[
            (1, ReplicaState::Leader),
            (2, ReplicaState::InSync),
            (3, ReplicaState::InSync),
        ]),
        2,
    );
    assert_eq!(h, PartitionHealth::default());
}

#[test]
fn an_offline_partition_is_offline_and_under_replicated_but_not_under_min_isr() {
    // No leader: Kafka counts the partition in OfflinePartitionsCount; with no leader there
    // is no one to count it under min ISR.
    let h = PartitionHealth::of(
        -1,
        &[1],
        &[1, 2, 3],
        &states(&[
            (1, ReplicaState::Offline),
            (2, ReplicaState::OutOfSync),
            (3, ReplicaState::OutOfSync),
        ]),
        2,
    );
    assert_eq!(
        h,
        PartitionHealth {
            offline: true,
            under_replicated: true,
            ..PartitionHealth::default()
        }
    );
}

#[test]
fn a_named_leader_whose_broker_is_down_is_leader_down() {
    let h = PartitionHealth::of(
        1,
        &[1, 2, 3],
        &[1, 2, 3],
        &states(&[
            (1, ReplicaState::Offline),
            (2, ReplicaState::InSync),
            (3, ReplicaState::InSync),
        ]),
        1,
    );
    assert_eq!(
        h,
        PartitionHealth {
            leader_down: true,
            ..PartitionHealth::default()
        }
    );
}

#[test]
fn a_paused_leader_with_a_short_isr_is_frozen_under_replicated_and_under_min_isr() {
    let h = PartitionHealth::of(
        1,
        &[1, 2],
        &[1, 2, 3],
        &states(&[
            (1, ReplicaState::Frozen),
            (2, ReplicaState::InSync),
            (3, ReplicaState::OutOfSync),
        ]),
        3,
    );
    assert_eq!(
        h,
        PartitionHealth {
            leader_frozen: true,
            under_replicated: true,
            under_min_isr: true,
            ..PartitionHealth::default()
        }
    );
}

#[test]
fn a_deposed_leader_that_still_acts_is_a_split_brain() {
    let h = PartitionHealth::of(
        2,
        &[2, 3],
        &[1, 2, 3],
        &states(&[
            (1, ReplicaState::Leader),
            (2, ReplicaState::Leader),
            (3, ReplicaState::InSync),
        ]),
        2,
    );
    assert_eq!(
        h,
        PartitionHealth {
            split_brain: vec![1],
            under_replicated: true,
            ..PartitionHealth::default()
        }
    );
    // Without a named leader, two acting leaders are not told apart from it.
    let h = PartitionHealth::of(
        -1,
        &[2],
        &[1, 2],
        &states(&[(1, ReplicaState::Leader), (2, ReplicaState::Leader)]),
        1,
    );
    assert_eq!(h.split_brain, Vec::<BrokerId>::new());
}

#[test]
fn an_isr_of_one_under_min_insync_replicas_two_fails_acks_all() {
    let h = PartitionHealth::of(
        1,
        &[1],
        &[1, 2],
        &states(&[(1, ReplicaState::Leader), (2, ReplicaState::OutOfSync)]),
        2,
    );
    assert_eq!(
        h,
        PartitionHealth {
            under_replicated: true,
            under_min_isr: true,
            ..PartitionHealth::default()
        }
    );
}

#[test]
fn lag_is_measured_from_the_named_leaders_log_end() {
    let leos = VecMap::from([(1, 10), (2, 7), (3, 12)]);
    assert_eq!(
        replica_lag(&[1, 2, 3], &leos, 1),
        VecMap::from([(1, 0), (2, 3), (3, 0)])
    );
}

#[test]
fn without_a_leader_lag_is_measured_from_the_longest_log() {
    let leos = VecMap::from([(1, 4), (2, 9), (3, 0)]);
    assert_eq!(
        replica_lag(&[1, 2, 3], &leos, -1),
        VecMap::from([(1, 5), (2, 0), (3, 9)])
    );
    // A named leader whose log is not known counts as none; a replica without a log is at 0.
    let leos = VecMap::from([(1, 3), (2, 5)]);
    assert_eq!(
        replica_lag(&[1, 2, 3], &leos, 4),
        VecMap::from([(1, 2), (2, 0), (3, 5)])
    );
}

#[test]
fn the_controller_role_follows_acting_and_being_named() {
    assert_eq!(ControllerRole::of(true, true), ControllerRole::Controller);
    assert_eq!(ControllerRole::of(true, false), ControllerRole::Zombie);
    assert_eq!(ControllerRole::of(false, true), ControllerRole::Named);
    assert_eq!(ControllerRole::of(false, false), ControllerRole::None);
}

fn with_topic_and_groups() -> World {
    let mut settings = Settings::for_profile(Profile::V3_9);
    settings.offsets_topic_replication_factor = 3;
    let mut setup = Setup::with_brokers(1, settings, 3);
    setup.topics = vec![TopicSpec {
        name: "T".into(),
        replicas: vec![vec![1, 2, 3]],
        config: TopicConfig::default(),
    }];
    for id in ["g1", "g2"] {
        setup.groups.push(GroupSpec {
            id: id.into(),
            topics: vec!["T".into()],
            assignor: "range".into(),
        });
    }
    World::new(&setup)
}

fn join(w: &mut World, group: &str, member: &str) {
    w.apply(Command::Join {
        group: group.into(),
        member: member.into(),
    })
    .unwrap();
}

#[test]
fn the_new_values_stay_out_of_the_json_state() {
    let mut w = with_topic_and_groups();
    w.advance_to(2_000);
    join(&mut w, "g1", "a");
    w.advance_to(3_000);
    let v = serde_json::to_value(w.state()).unwrap();
    let keys =
        |x: &serde_json::Value| -> Vec<String> { x.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(
        keys(&v["partitions"]["T-0"]),
        [
            "acked_records",
            "controller_epoch",
            "duplicate_records",
            "failed_records",
            "high_watermark",
            "isr",
            "leader",
            "leader_epoch",
            "log_end_offsets",
            "min_insync_replicas",
            "preferred",
            "replica_states",
            "replicas",
            "retried_records",
            "stream",
            "unclean_leader_election",
        ]
    );
    assert_eq!(
        keys(&v["brokers"]["1"]),
        [
            "acting_epoch",
            "acts_as_controller",
            "broker_epoch",
            "known_controller",
            "known_controller_epoch",
            "paused_since_ms",
            "paused_until_ms",
            "registered",
            "session_expires_in_ms",
            "stalled_fetchers",
            "state",
            "zk_connection",
            "zk_link_cut",
            "zk_session",
        ]
    );
    assert_eq!(
        keys(&v["groups"]["g1"]["consumers"]["a"]),
        [
            "assignment",
            "coordinator",
            "generation",
            "leader",
            "member_id",
            "state"
        ]
    );
}

#[test]
fn consumers_are_numbered_in_the_order_they_first_joined_across_groups() {
    let mut w = with_topic_and_groups();
    w.advance_to(2_000);
    join(&mut w, "g2", "a");
    join(&mut w, "g1", "b");
    join(&mut w, "g1", "a");
    w.advance_to(2_500);
    w.apply(Command::CrashConsumer {
        group: "g2".into(),
        member: "a".into(),
    })
    .unwrap();
    w.advance_to(3_000);
    join(&mut w, "g2", "a");
    w.advance_to(3_500);
    let s = w.state();
    let index = |g: &str, c: &str| s.groups[g].consumers[c].index;
    assert_eq!(
        (index("g2", "a"), index("g1", "b"), index("g1", "a")),
        (0, 1, 2)
    );
}

#[test]
fn the_group_leader_and_generation_are_the_coordinators() {
    let mut w = with_topic_and_groups();
    w.advance_to(2_000);
    join(&mut w, "g1", "a");
    w.advance_to(2_100);
    join(&mut w, "g1", "b");
    w.advance_to(20_000);
    let s = w.state();
    let g = &s.groups["g1"];
    assert_eq!(g.state, Some(GroupState::Stable));
    let leader = g.leader.clone().unwrap();
    let seen: Vec<(String, bool, u32, bool)> = g
        .consumers
        .iter()
        .map(|(n, c)| (n.clone(), c.leads_group, c.group_generation, c.is_member))
        .collect();
    assert_eq!(
        seen,
        vec![
            ("a".to_string(), leader == "a", g.generation, true),
            ("b".to_string(), leader == "b", g.generation, true),
        ]
    );
    assert!(g.generation >= 1, "{g:?}");
}

#[test]
fn a_partition_exists_once_the_controller_wrote_its_state_and_lag_follows_the_logs() {
    let mut w = with_topic_and_groups();
    w.advance_to(100);
    assert!(!w.state().partitions["T-0"].exists);
    w.advance_to(2_000);
    assert!(w.state().partitions["T-0"].exists);
    w.apply(Command::StallFetcher {
        broker: 3,
        topic: None,
        partition: None,
    })
    .unwrap();
    w.apply(Command::StallFetcher {
        broker: 2,
        topic: Some("T".into()),
        partition: Some(0),
    })
    .unwrap();
    let st = w.state();
    assert_eq!(st.brokers[&3].stalls, vec![StallScope::All]);
    assert_eq!(
        st.brokers[&2].stalls,
        vec![StallScope::Partition("T-0".into())]
    );
    assert_eq!(st.brokers[&2].stalled_fetchers, vec!["T-0".to_string()]);
    assert!(st.brokers[&1].stalls.is_empty());
    w.apply(Command::ResumeFetcher {
        broker: 2,
        topic: Some("T".into()),
        partition: Some(0),
    })
    .unwrap();
    // A fetch already on its way still answers: produce once it is back.
    w.advance_to(3_000);
    w.apply(Command::Produce {
        topic: "T".into(),
        partition: 0,
        records: Some(40),
        acks: Acks::One,
        rate_per_s: None,
        for_ms: None,
    })
    .unwrap();
    w.advance_to(5_000);
    let s = w.state();
    let p = &s.partitions["T-0"];
    assert_eq!(p.leader, 1);
    assert_eq!(p.log_end_offsets, VecMap::from([(1, 40), (2, 40), (3, 0)]));
    assert_eq!(p.lag, VecMap::from([(1, 0), (2, 0), (3, 40)]));
    assert_eq!(p.health, PartitionHealth::default());
}

#[test]
fn a_crashed_leader_is_leader_down_until_the_controller_moves_leadership() {
    let mut w = with_topic_and_groups();
    w.advance_to(2_000);
    // Broker 1 is both the controller and T-0's leader.
    assert_eq!(w.state().partitions["T-0"].leader, 1);
    w.apply(Command::Crash(1)).unwrap();
    w.advance_to(3_000);
    let s = w.state();
    let b = &s.brokers[&1];
    assert_eq!(b.state, BrokerState::Crashed);
    assert_eq!(b.controller_role, ControllerRole::Named);
    assert_eq!(b.session_countdown_ms, b.session_expires_in_ms);
    assert!(b.session_countdown_ms.is_some());
    assert_eq!(s.brokers[&2].session_countdown_ms, None);
    assert_eq!(s.brokers[&2].controller_role, ControllerRole::None);
    assert_eq!(
        s.partitions["T-0"].health,
        PartitionHealth {
            leader_down: true,
            ..PartitionHealth::default()
        }
    );
    w.advance_to(40_000);
    let s = w.state();
    let p = &s.partitions["T-0"];
    assert_ne!(p.leader, 1);
    assert_eq!(s.brokers[&1].controller_role, ControllerRole::None);
    assert_eq!(
        p.health,
        PartitionHealth {
            under_replicated: true,
            ..PartitionHealth::default()
        }
    );
}

#[test]
fn before_its_first_join_a_group_names_the_broker_that_will_coordinate_it() {
    let mut w = with_topic_and_groups();
    w.advance_to(2_000);
    let s = w.state();
    let g = &s.groups["g1"];
    let tp = format!("__consumer_offsets-{}", g.coordinator_partition);
    let leader = s.partitions[&tp].leader;
    assert!(leader > 0, "{tp} has a leader by 2 s: {leader}");
    // Nobody joined: no broker holds the group, but FindCoordinator would name the leader.
    assert_eq!((g.coordinator, g.state), (None, None));
    assert_eq!(g.offsets_leader, Some(leader as BrokerId));
    assert!(g.awaits_first_join);
    join(&mut w, "g1", "a");
    w.advance_to(5_000);
    let g = &w.state().groups["g1"];
    assert_eq!(g.coordinator, Some(leader as BrokerId));
    assert_eq!(g.offsets_leader, g.coordinator);
    assert!(g.state.is_some());
    assert!(!g.awaits_first_join);
    // Before the offsets partitions exist, nobody will coordinate it yet.
    let w = with_topic_and_groups();
    assert_eq!(w.state().groups["g1"].offsets_leader, None);
}
