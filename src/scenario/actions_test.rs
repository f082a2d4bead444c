//! Actions: each becomes its command, or a message naming the action and what is wrong.

use super::parse_test::{err, with_topic};
use super::{parse, Runner};
use crate::sim::{Acks, Command};

#[test]
fn delete_controller_takes_no_fields_and_needs_a_controller() {
    let s = parse(
        r#"{"version": 1, "brokers": [1, 2], "actions": [{"at_ms": 1000, "do": "delete_controller"}]}"#,
    )
    .unwrap();
    assert_eq!(s.actions, vec![(1000, Command::DeleteController)]);
    let mut r = Runner::new(&s);
    r.advance_to(2000).unwrap();
    assert_eq!(r.world.state().controller_epoch, 2);
    assert_eq!(
        err(
            r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "delete_controller", "broker": 1}]}"#
        ),
        "actions[0]: field \"broker\" does not apply to \"delete_controller\" (it takes none)"
    );
    // At 1 ms no broker has registered, let alone become controller.
    let s = parse(
        r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "delete_controller"}]}"#,
    )
    .unwrap();
    let e = Runner::new(&s).advance_to(5000).unwrap_err().to_string();
    assert!(
        e.starts_with("actions[0] (at 1 ms): there is no controller to move"),
        "{e}"
    );
}

#[test]
fn partition_actions_become_commands() {
    let s = parse(&with_topic(r#", "profile": "2.4", "actions": [
        {"at_ms": 1, "do": "produce", "topic": "T", "partition": 1, "records": 5},
        {"at_ms": 2, "do": "produce", "topic": "T", "partition": 0, "rate_per_s": 10, "for_ms": 500, "acks": "all"},
        {"at_ms": 3, "do": "stall_fetcher", "broker": 2, "topic": "T"},
        {"at_ms": 4, "do": "resume_fetcher", "broker": 2, "topic": "T"},
        {"at_ms": 5, "do": "set_config", "topic": "T", "key": "unclean.leader.election.enable", "value": true},
        {"at_ms": 6, "do": "preferred_election"},
        {"at_ms": 7, "do": "reassign", "topic": "T", "partition": 0, "replicas": [3, 1]},
        {"at_ms": 8, "do": "stop_producing", "topic": "T", "partition": 0}]"#))
    .unwrap();
    assert_eq!(
        s.actions[7].1,
        Command::StopProducing {
            topic: "T".into(),
            partition: 0
        }
    );
    assert_eq!(
        s.actions[0].1,
        Command::Produce {
            topic: "T".into(),
            partition: 1,
            records: Some(5),
            acks: Acks::One,
            rate_per_s: None,
            for_ms: None
        },
        "acks defaults to the profile's producer default (1 before 3.0)"
    );
    assert!(matches!(
        &s.actions[1].1,
        Command::Produce {
            acks: Acks::All,
            rate_per_s: Some(10),
            ..
        }
    ));
    assert!(
        matches!(&s.actions[6].1, Command::Reassign { replicas, .. } if replicas == &vec![3, 1])
    );
}

#[test]
fn producer_settings_are_checked_as_kafka_producer_does() {
    let produce = |config: &str, acks: &str| {
        with_topic(&format!(
            r#", "config": {{{config}}}, "actions": [{{"at_ms": 1, "do": "produce", "topic": "T", "partition": 0, "records": 1{acks}}}]"#
        ))
    };
    let e = err(&produce(
        r#""enable.idempotence": true"#,
        r#", "acks": "1""#,
    ));
    assert!(
        e.starts_with("actions[0]: KafkaProducer refuses its settings: Must set acks to all"),
        "{e}"
    );
    // Without acks, enable.idempotence=true makes it all (2.0.1 configureAcks).
    let s = parse(
        &produce(r#""enable.idempotence": true"#, "")
            .replace(r#""version": 1,"#, r#""version": 1, "profile": "2.0","#),
    )
    .unwrap();
    assert!(matches!(
        &s.actions[0].1,
        Command::Produce {
            acks: Acks::All,
            ..
        }
    ));
    let e = err(&produce(r#""delivery.timeout.ms": 1000"#, ""));
    assert!(e.contains("should be equal to or larger than"), "{e}");
    let e = err(&produce(r#""delivery.timeout.ms": 200000"#, "")
        .replace(r#""version": 1,"#, r#""version": 1, "profile": "2.0","#));
    assert!(e.contains("came with Kafka 2.1"), "{e}");
}

#[test]
fn bad_partition_actions_are_named() {
    let bad = |action: &str| err(&with_topic(&format!(r#", "actions": [{action}]"#)));
    assert!(
        bad(r#"{"at_ms": 1, "do": "produce", "topic": "X", "partition": 0, "records": 1}"#)
            .contains("no topic \"X\"")
    );
    assert!(
        bad(r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 2, "records": 1}"#)
            .contains("partitions 0..1, not 2")
    );
    assert!(
        bad(r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 0}"#)
            .contains("needs \"records\"")
    );
    assert!(bad(
        r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 0, "records": 1, "acks": "2"}"#
    )
    .contains("acks must be"));
    assert!(
        bad(r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 0, "records": 0}"#)
            .contains("at least 1")
    );
    assert!(
        bad(r#"{"at_ms": 1, "do": "stall_fetcher", "broker": 2, "partition": 0}"#)
            .contains("needs \"topic\"")
    );
    assert!(bad(r#"{"at_ms": 1, "do": "stop_producing", "topic": "T"}"#)
        .contains("\"stop_producing\" needs \"partition\""));
    assert!(
        bad(r#"{"at_ms": 1, "do": "stop_producing", "topic": "X", "partition": 0}"#)
            .contains("no topic \"X\"")
    );
    assert!(bad(
        r#"{"at_ms": 1, "do": "stop_producing", "topic": "T", "partition": 0, "records": 3}"#
    )
    .contains("records"));
    assert!(
        bad(r#"{"at_ms": 1, "do": "set_config", "key": "min.insync.replicas"}"#)
            .contains("needs \"value\"")
    );
    assert!(
        bad(r#"{"at_ms": 1, "do": "set_config", "key": "no.such.thing", "value": 1}"#)
            .contains("unknown setting")
    );
    assert!(bad(
        r#"{"at_ms": 1, "do": "reassign", "topic": "T", "partition": 0, "replicas": [1, 1]}"#
    )
    .contains("listed twice"));
    assert!(bad(
        r#"{"at_ms": 1, "do": "reassign", "topic": "T", "partition": 0, "replicas": [7]}"#
    )
    .contains("no broker 7"));
    assert!(
        bad(r#"{"at_ms": 1, "do": "crash", "broker": 1, "topic": "T"}"#).contains("does not apply")
    );
    assert!(
        bad(r#"{"at_ms": 1, "do": "join", "group": "g", "member": "c1"}"#)
            .contains("no group \"g\"")
    );
    // The scenario's actions get the world's own check of a command, before anything runs.
    assert_eq!(
        bad(r#"{"at_ms": 1, "do": "produce", "topic": "X", "partition": 0, "records": 1}"#),
        "actions[0]: there is no topic \"X\"; the topics are \"T\""
    );
    assert_eq!(
        bad(
            r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 0, "records": 5, "for_ms": 100}"#
        ),
        "actions[0]: for_ms needs rate_per_s (a steady stream)"
    );
    assert_eq!(
        bad(r#"{"at_ms": 1, "do": "reassign", "topic": "T", "partition": 0, "replicas": []}"#),
        "actions[0]: a reassignment needs at least one replica"
    );
    assert_eq!(
        bad(r#"{"at_ms": 1, "do": "resume_fetcher", "broker": 2, "topic": "U"}"#),
        "actions[0]: there is no topic \"U\"; the topics are \"T\""
    );
}

/// A command given now reads like a file's action without `at_ms`, and a bad one gets the
/// message the file's action gets, without the file's place.
#[test]
fn a_command_given_now_is_read_like_a_files_action() {
    use crate::scenario::command_from_json;
    use crate::sim::{Profile, Settings};
    let settings = Settings::for_profile(Profile::default());
    let read = |json: &str| command_from_json(&serde_json::from_str(json).unwrap(), &settings);
    assert_eq!(
        read(r#"{"do": "crash", "broker": 2}"#),
        Ok(Command::Crash(2))
    );
    assert_eq!(
        read(r#"{"do": "delete_controller"}"#),
        Ok(Command::DeleteController)
    );
    for bad in [
        r#"{"do": "crash"}"#,
        r#"{"do": "explode", "broker": 1}"#,
        r#"{"do": "crash", "broker": 1, "topic": "T"}"#,
        r#"{"do": "pause", "broker": 1, "for_ms": 0}"#,
    ] {
        let in_file = err(&format!(
            r#"{{"version": 1, "brokers": [1, 2, 3], "actions": [{}]}}"#,
            bad.replacen('{', r#"{"at_ms": 5, "#, 1)
        ));
        let now = read(bad).unwrap_err();
        assert!(
            in_file.ends_with(&now) && in_file.starts_with("actions[0]"),
            "{bad}: the file says {in_file:?}, the command {now:?}"
        );
    }
    // A wrong shape: the same serde message at the same field (the file's adds its position).
    for bad in [
        r#"{"do": "crash", "brokr": 1}"#,
        r#"{"do": "crash", "broker": "two"}"#,
    ] {
        let in_file = err(&format!(
            r#"{{"version": 1, "brokers": [1, 2, 3], "actions": [{}]}}"#,
            bad.replacen('{', r#"{"at_ms": 5, "#, 1)
        ));
        let now = read(bad).unwrap_err();
        assert!(
            in_file.starts_with(&format!("actions[0].{now}")),
            "{bad}: the file says {in_file:?}, the command {now:?}"
        );
    }
    assert_eq!(
        read(r#"{"at_ms": 5, "do": "crash", "broker": 1}"#).unwrap_err(),
        "a command applies now: leave \"at_ms\" out (it belongs to a scenario file's actions)"
    );
    assert_eq!(
        read(r#"["crash"]"#).unwrap_err(),
        "a command is an object such as {\"do\": \"crash\", \"broker\": 2}, not a list"
    );
}
