//! The page's wording, from states of the default cluster.

use super::format::*;
use super::frame::{default_world, default_world_with_group};
use crate::i18n::Tr;
use crate::sim::{
    BrokerState, Command, ConsumerState, Endpoint, ReplicaState, TopicConfig, TopicSpec,
    ZkConnection,
};

#[test]
fn secs_rounds_up_to_a_tenth() {
    assert_eq!(secs(0, &Tr::en()), "0.0 s");
    assert_eq!(secs(1, &Tr::en()), "0.1 s");
    assert_eq!(secs(100, &Tr::en()), "0.1 s");
    assert_eq!(secs(101, &Tr::en()), "0.2 s");
    assert_eq!(secs(12_301, &Tr::en()), "12.4 s");
    assert_eq!(secs(18_000, &Tr::en()), "18.0 s");
}

#[test]
fn speeds_and_state_names_as_words() {
    assert_eq!(speed_label(0.25), "0.25×");
    assert_eq!(speed_label(1.0), "1×");
    assert_eq!(speed_label(50.0), "50×");
    let en = Tr::en();
    assert_eq!(
        broker_state_words(BrokerState::ShuttingDown, &en),
        "shutting down"
    );
    assert_eq!(broker_state_words(BrokerState::Running, &en), "running");
    assert_eq!(connection_words(ZkConnection::Idle, &en), "none");
    assert_eq!(
        replica_words(ReplicaState::InSync, &Tr::en()),
        "in-sync follower"
    );
    assert_eq!(
        replica_words(ReplicaState::Frozen, &Tr::en()),
        "frozen (broker paused)"
    );
    assert_eq!(
        consumer_words(ConsumerState::FindingCoordinator, &Tr::en()),
        "finding the coordinator"
    );
    assert_eq!(
        consumer_words(ConsumerState::Left, &Tr::en()),
        "left the group"
    );
}

#[test]
fn member_ids_are_shortened_to_the_uuids_first_eight_characters() {
    assert_eq!(
        short_member_id("c1", "c1-efe6c102-1111-2222-3333-444455556666"),
        "c1-efe6c102…"
    );
    // Nothing to shorten, or not the member's own id: as it is.
    assert_eq!(short_member_id("c1", "c1-efe6c102"), "c1-efe6c102");
    assert_eq!(
        short_member_id("c1", "c2-efe6c102-1111"),
        "c2-efe6c102-1111"
    );
    assert_eq!(short_member_id("c1", ""), "");
}

#[test]
fn partitions_are_listed_by_topic_then_number() {
    let topics: Vec<TopicSpec> = [("b", 11), ("a", 2)]
        .into_iter()
        .map(|(name, n)| TopicSpec {
            name: name.into(),
            replicas: vec![vec![1]; n],
            config: TopicConfig::default(),
        })
        .collect();
    let keys: Vec<String> = partition_list(&topics).into_iter().map(|r| r.key).collect();
    assert_eq!(
        keys,
        [
            "b-0", "b-1", "b-2", "b-3", "b-4", "b-5", "b-6", "b-7", "b-8", "b-9", "b-10", "a-0",
            "a-1"
        ]
    );
    assert!(is_internal("__consumer_offsets"));
    assert!(!is_internal("orders"));
}

#[test]
fn a_new_brokers_words() {
    let w = default_world();
    let state = w.state();
    let b = &state.brokers[&1];
    assert!(click_starts(b));
    assert_eq!(
        status_lines(b, 0, &Tr::en()),
        [("not started".to_string(), "state")]
    );
    assert_eq!(
        aria_label(1, b, 0, &Tr::en()),
        "Broker 1, not started: press Enter to start it"
    );
}

#[test]
fn the_controllers_and_a_paused_brokers_words() {
    let mut w = default_world();
    w.advance_to(10_000);
    w.apply(Command::Pause {
        broker: 3,
        for_ms: 30_000,
    })
    .expect("pause");
    w.advance_to(12_000);
    let state = w.state();
    let now = state.time_ms;
    assert_eq!(
        aria_label(1, &state.brokers[&1], now, &Tr::en()),
        "Broker 1, running, controller, epoch 1: press Enter to crash it"
    );
    assert!(!click_starts(&state.brokers[&1]));
    let paused = &state.brokers[&3];
    assert_eq!(
        status_lines(paused, now, &Tr::en()),
        [
            ("paused".to_string(), "state"),
            ("wakes in 28.0 s".to_string(), "wake"),
            ("ZK session expires".to_string(), "countdown"),
            ("in 15.1 s".to_string(), "countdown strong"),
        ]
    );
    assert_eq!(
        aria_label(3, paused, now, &Tr::en()),
        "Broker 3, paused, wakes in 28.0 s, ZooKeeper session expires in 15.1 s: press Enter to crash it"
    );
}

#[test]
fn a_cut_zookeeper_link_is_said() {
    let mut w = default_world();
    w.advance_to(10_000);
    w.apply(Command::Cut(Endpoint::Broker(2), Endpoint::Zk))
        .expect("cut");
    w.advance_to(10_500);
    let state = w.state();
    let b = &state.brokers[&2];
    assert_eq!(
        status_lines(b, state.time_ms, &Tr::en()).last(),
        Some(&("ZooKeeper link cut".to_string(), "cut-note"))
    );
    assert!(aria_label(2, b, state.time_ms, &Tr::en())
        .ends_with(", ZooKeeper link cut: press Enter to crash it"));
}

#[test]
fn replicas_and_the_partitions_worth_listing() {
    let mut w = default_world();
    w.advance_to(2_000);
    w.apply(Command::Join {
        group: "my-group".into(),
        member: "c1".into(),
    })
    .expect("join");
    w.advance_to(10_000);
    let state = w.state();
    let list = partition_list(w.topics());
    assert_eq!(list.len(), 53, "orders' 3 and __consumer_offsets' 50");
    let held: Vec<(&str, ReplicaState)> = replicas_of(&state, &list, 2)
        .into_iter()
        .filter(|(r, _, _)| !is_internal(&r.topic))
        .map(|(r, _, st)| (r.key.as_str(), st))
        .collect();
    assert_eq!(
        held,
        [
            ("orders-0", ReplicaState::InSync),
            ("orders-1", ReplicaState::Leader),
            ("orders-2", ReplicaState::InSync),
        ]
    );
    let p = &state.partitions["orders-0"];
    assert_eq!(replica_state(p, 1), ReplicaState::Leader);
    assert_eq!(replica_state(p, 9), ReplicaState::Offline);
    assert_eq!(lag(p, 2), 0);
    // The group's partition of __consumer_offsets, and nothing else of it.
    let keys = coordinator_keys(&state);
    assert_eq!(keys, ["__consumer_offsets-12"]);
    let visible: Vec<String> = visible_partitions(&list, &state)
        .into_iter()
        .map(|r| r.key)
        .collect();
    assert_eq!(
        visible,
        ["orders-0", "orders-1", "orders-2", "__consumer_offsets-12"]
    );
}

#[test]
fn consumers_and_what_a_press_does() {
    let mut w = default_world_with_group(10_000);
    w.apply(Command::CrashConsumer {
        group: "my-group".into(),
        member: "c2".into(),
    })
    .expect("crash");
    let state = w.state();
    let list = consumer_list(&state);
    let seen: Vec<(u32, &str, &str, bool, bool, u32)> = list
        .iter()
        .map(|c| {
            (
                c.index,
                c.name,
                c.look(),
                c.alive(),
                c.leads(),
                c.group_generation(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (0, "c1", "stable", true, true, 1),
            (1, "c2", "crashed", false, false, 1)
        ]
    );
    assert!(list[0].is_member());
    assert_eq!(
        list[0].click(),
        Command::CrashConsumer {
            group: "my-group".into(),
            member: "c1".into()
        }
    );
    assert_eq!(
        list[0].leave(),
        Some(Command::Leave {
            group: "my-group".into(),
            member: "c1".into()
        })
    );
    assert_eq!(
        list[1].click(),
        Command::Join {
            group: "my-group".into(),
            member: "c2".into()
        }
    );
    assert_eq!(list[1].leave(), None);
}

#[test]
fn an_event_names_the_nodes_it_is_about() {
    let mut w = default_world();
    w.advance_to(10_000);
    let elected = w
        .events()
        .iter()
        .find(|e| e.kind.name() == "leader_elected")
        .expect("a leader election")
        .clone();
    let (brokers, members) = event_subjects(&elected);
    assert_eq!(brokers, vec![1, 2, 3], "the leader and its ISR");
    assert!(members.is_empty());
    w.apply(Command::Join {
        group: "my-group".into(),
        member: "c1".into(),
    })
    .unwrap();
    w.advance_to(20_000);
    let picked = w
        .events()
        .iter()
        .find(|e| e.kind.name() == "group_leader_chosen")
        .expect("a group leader")
        .clone();
    let (brokers, members) = event_subjects(&picked);
    assert_eq!(members, vec!["c1".to_string()]);
    assert!(brokers.len() <= 1, "at most the coordinator: {brokers:?}");
}
