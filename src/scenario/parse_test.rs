//! Parsing: defaults, one clear message naming the place of every problem, the time bound,
//! topics and groups.

use super::parse;
use super::MAX_TIME_MS;
use crate::sim::Profile;

pub(super) fn err(text: &str) -> String {
    parse(text).map(|_| ()).unwrap_err().to_string()
}

const MINIMAL: &str = r#"{"version": 1, "brokers": [1, 2, 3]}"#;

pub(super) const TOPIC: &str = r#""topics": [{"name": "T", "replicas": [[1, 2], [2, 1]]}]"#;

pub(super) fn with_topic(rest: &str) -> String {
    format!(r#"{{"version": 1, "brokers": [1, 2, 3], {TOPIC}{rest}}}"#)
}

#[test]
fn a_minimal_scenario_parses_with_defaults() {
    let s = parse(MINIMAL).unwrap();
    assert_eq!(s.setup.settings.profile, Profile::V3_9);
    assert_eq!(s.until_ms, 30_000);
    assert_eq!(
        s.setup.brokers,
        vec![(1, Some(0)), (2, Some(0)), (3, Some(0))]
    );
}

#[test]
fn bad_input_gets_one_clear_message() {
    assert!(err("{").starts_with("not valid JSON"), "{}", err("{"));
    assert!(err(r#"{"version": 1, "brokers": [1], "sed": 3}"#).contains("unknown field `sed`"));
    assert_eq!(
        err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "crash", "brokr": 1}]}"#)
            .split(':')
            .next()
            .unwrap(),
        "actions[0].brokr"
    );
    assert!(err(
        r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "crash", "broker": 7}]}"#
    )
    .contains("there is no broker 7"));
    assert!(err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 5, "do": "crash", "broker": 1}, {"at_ms": 1, "do": "start", "broker": 1}]}"#)
        .contains("time order"));
    assert!(err(r#"{"version": 2, "brokers": [1]}"#).starts_with("version"));
    assert!(err(r#"{"version": 1, "brokers": [1, 1]}"#).contains("listed twice"));
    assert!(err(r#"{"version": 1, "brokers": [1], "profile": "1.0"}"#).contains("unknown profile"));
    assert!(
        err(r#"{"version": 1, "brokers": [1], "config": {"zookeeper.session.timeout": 1}}"#)
            .starts_with("config: unknown setting")
    );
    assert!(err(
        r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "pause", "broker": 1}]}"#
    )
    .contains("for_ms"));
    assert!(err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "crash", "broker": 1, "for_ms": 5}]}"#)
        .contains("does not apply"));
    assert!(err(
        r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "explode", "broker": 1}]}"#
    )
    .contains("unknown action"));
    assert!(
        err(r#"{"version": 1, "brokers": [1], "expect": [{"at_ms": 1, "controler": 1}]}"#)
            .starts_with("expect[0].controler")
    );
    assert!(err(r#"{"version": 1, "brokers": [1], "expect": [{"at_ms": 1, "brokers": {"1": {"stat": "running"}}}]}"#)
        .starts_with("expect[0].brokers.1.stat"));
    assert!(err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "cut", "from": "zoo", "to": 1}]}"#)
        .contains("not an endpoint"));
}

#[test]
fn times_past_one_day_are_refused_so_no_run_is_endless() {
    for (text, place) in [
        (
            r#"{"version": 1, "brokers": [1], "until_ms": 18446744073709551615}"#,
            "until_ms",
        ),
        (
            r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 86400001, "do": "crash", "broker": 1}]}"#,
            "actions[0]",
        ),
        (
            r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "pause", "broker": 1, "for_ms": 99999999999}]}"#,
            "actions[0]",
        ),
        (
            r#"{"version": 1, "brokers": [{"id": 1, "start_ms": 90000000}]}"#,
            "brokers[0]",
        ),
        (
            r#"{"version": 1, "brokers": [1], "expect": [{"at_ms": 90000000, "controller": 1}]}"#,
            "expect[0]",
        ),
    ] {
        let e = err(text);
        assert!(e.starts_with(place) && e.contains("one day"), "{e}");
    }
    let s = parse(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 86400000, "do": "crash", "broker": 1}]}"#).unwrap();
    assert_eq!(
        s.until_ms, MAX_TIME_MS,
        "the default end stays within the bound"
    );
}

#[test]
fn topics_are_explicit_or_assigned_as_kafka_does() {
    let s = parse(&with_topic("")).unwrap();
    assert_eq!(s.setup.topics[0].replicas, vec![vec![1, 2], vec![2, 1]]);
    let s = parse(r#"{"version": 1, "brokers": [1, 2, 3], "topics": [{"name": "a", "partitions": 6, "replication_factor": 2}]}"#).unwrap();
    let r = &s.setup.topics[0].replicas;
    assert_eq!(r.len(), 6);
    assert!(r.iter().all(|p| p.len() == 2 && p[0] != p[1]));
    // Leaders spread evenly: each broker is preferred for two partitions.
    for b in 1..=3 {
        assert_eq!(r.iter().filter(|p| p[0] == b).count(), 2, "{r:?}");
    }
    // The same seed, the same assignment.
    let again = parse(r#"{"version": 1, "brokers": [1, 2, 3], "topics": [{"name": "a", "partitions": 6, "replication_factor": 2}]}"#).unwrap();
    assert_eq!(&again.setup.topics[0].replicas, r);
}

#[test]
fn bad_topics_are_named() {
    let bad = |topics: &str| {
        err(&format!(
            r#"{{"version": 1, "brokers": [1, 2, 3], "topics": {topics}}}"#
        ))
    };
    assert!(bad(r#"[{"name": "T"}]"#).contains("needs \"replicas\""));
    assert!(bad(r#"[{"name": "T", "replicas": [[1, 9]]}]"#).contains("no broker 9"));
    assert!(bad(r#"[{"name": "T", "replicas": [[1, 1]]}]"#).contains("listed twice"));
    assert!(bad(r#"[{"name": "T", "replicas": [[]]}]"#).contains("at least one replica"));
    assert!(
        bad(r#"[{"name": "T", "partitions": 2, "replication_factor": 4}]"#)
            .contains("replication factor 4 is larger")
    );
    assert!(bad(r#"[{"name": "T", "partitions": 2}]"#).contains("go together"));
    assert!(bad(r#"[{"name": "a b", "replicas": [[1]]}]"#).contains("only letters"));
    assert!(bad(r#"[{"name": "__consumer_offsets", "replicas": [[1]]}]"#).contains("internal"));
    assert!(
        bad(r#"[{"name": "T", "replicas": [[1]]}, {"name": "T", "replicas": [[2]]}]"#)
            .contains("listed twice")
    );
    assert!(
        bad(r#"[{"name": "T", "replicas": [[1]], "config": {"min.insync.replicas": 0}}]"#)
            .starts_with("topics[0]: config: \"min.insync.replicas\" must be between")
    );
    assert!(
        bad(r#"[{"name": "T", "replicas": [[1]], "config": {"retention.ms": 5}}]"#)
            .contains("unknown topic setting")
    );
    assert!(bad(r#"[{"name": "T", "replicas": [[1]], "partitons": 3}]"#).contains("unknown field"));
}

#[test]
fn group_actions_and_files_are_checked() {
    let g = |rest: &str| {
        err(&format!(
            r#"{{"version": 1, "brokers": [1, 2, 3], {TOPIC}, "groups": [{{"id": "g", "topics": ["T"]}}]{rest}}}"#
        ))
    };
    assert!(g(r#", "actions": [{"at_ms": 1, "do": "join", "group": "g", "member": "c1", "instance_id": "i"}]"#)
        .contains("static membership"));
    assert!(
        g(r#", "actions": [{"at_ms": 1, "do": "leave", "group": "g"}]"#)
            .contains("needs \"member\"")
    );
    assert_eq!(
        g(r#", "actions": [{"at_ms": 1, "do": "join", "group": "g", "member": ""}]"#),
        "actions[0]: a member name has 1 to 64 characters"
    );
    assert_eq!(
        g(r#", "actions": [{"at_ms": 1, "do": "produce", "topic": "__consumer_offsets", "partition": 0, "records": 1}]"#),
        "actions[0]: cannot produce to __consumer_offsets: it is Kafka's internal topic, which only the group coordinator writes"
    );
    // Stalling the fetching of a group's partition is an action like any other.
    assert!(parse(&format!(
        r#"{{"version": 1, "brokers": [1, 2, 3], {TOPIC}, "groups": [{{"id": "g", "topics": ["T"]}}], "actions": [{{"at_ms": 1, "do": "stall_fetcher", "broker": 2, "topic": "__consumer_offsets", "partition": 7}}]}}"#
    ))
    .is_ok());
    assert!(g(r#", "expect": [{"at_ms": 1, "groups": {"h": {}}}]"#).contains("no group h"));
    assert!(
        g(r#", "expect": [{"at_ms": 1, "groups": {"g": {"leadr": "c1"}}}]"#)
            .contains("unknown group field")
    );
    let bad = |groups: &str| {
        err(&format!(
            r#"{{"version": 1, "brokers": [1, 2, 3], {TOPIC}, "groups": {groups}}}"#
        ))
    };
    assert!(bad(r#"[{"id": "g", "topics": ["X"]}]"#).contains("no topic \"X\""));
    assert!(
        bad(r#"[{"id": "g", "topics": ["T"], "assignor": "sticky"}]"#).contains("unknown assignor")
    );
    assert!(bad(r#"[{"id": "g", "topics": []}]"#).contains("at least one topic"));
    let two = err(
        r#"{"version": 1, "brokers": [1, 2], "topics": [{"name": "T", "replicas": [[1]]}], "groups": [{"id": "g", "topics": ["T"]}]}"#,
    );
    assert!(
        two.contains("offsets.topic.replication.factor (3) is more than the 2 broker(s)"),
        "{two}"
    );
    let ok = parse(
        r#"{"version": 1, "brokers": [1, 2], "config": {"offsets.topic.replication.factor": 2}, "topics": [{"name": "T", "replicas": [[1]]}], "groups": [{"id": "g", "topics": ["T"]}]}"#,
    );
    assert!(ok.is_ok());
}

#[test]
fn a_byte_order_mark_before_the_json_is_not_part_of_it() {
    let s = parse(&format!("\u{feff}{MINIMAL}")).unwrap();
    assert_eq!(s.setup.brokers.len(), 3);
    assert!(err("\u{feff}").starts_with("not valid JSON: EOF while parsing a value"));
    assert!(err("\u{feff}\u{feff}{}").starts_with("not valid JSON: expected value"));
}

#[test]
fn a_name_with_a_newline_or_a_nul_stays_on_one_line_in_the_message() {
    let e = err(
        r#"{"version": 1, "brokers": [1], "topics": [{"name": "a\nb\u0000", "replicas": [[1]]}]}"#,
    );
    assert_eq!(
        e,
        r#"topics[0]: topic name "a\nb\u{0}" has '\n': only letters, digits, '.', '_' and '-' are legal"#
    );
    let e = err(r#"{"version": 1, "brokers": [1], "brokerz\n": 1}"#);
    assert!(
        e.starts_with("brokerz\\n: unknown field `brokerz\\n`"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1);
}

#[test]
fn a_consumer_that_no_earlier_action_joined_cannot_leave_or_crash() {
    let g = |actions: &str| {
        parse(&format!(
            r#"{{"version": 1, "brokers": [1, 2, 3], {TOPIC}, "groups": [{{"id": "g", "topics": ["T"]}}], "actions": [{actions}]}}"#
        ))
        .map(|_| ())
        .map_err(|e| e.to_string())
    };
    assert_eq!(
        g(r#"{"at_ms": 5, "do": "leave", "group": "g", "member": "nobody"}"#),
        Err(
            "actions[0]: there is no consumer nobody in group g: no earlier action joins it".into()
        )
    );
    assert!(g(r#"{"at_ms": 5, "do": "join", "group": "g", "member": "c1"}, {"at_ms": 9, "do": "crash_consumer", "group": "g", "member": "c2"}"#)
        .unwrap_err()
        .starts_with("actions[1]: there is no consumer c2 in group g"));
    assert!(g(r#"{"at_ms": 5, "do": "join", "group": "g", "member": "c1"}, {"at_ms": 9, "do": "leave", "group": "g", "member": "c1"}"#).is_ok());
}

#[test]
fn a_key_given_twice_in_one_object_is_refused_at_any_depth() {
    for (text, key) in [
        (r#"{"version": 1, "version": 1, "brokers": [1]}"#, "version"),
        (
            r#"{"version": 1, "brokers": [1], "config": {"retries": 1, "retries": 5}}"#,
            "retries",
        ),
        (
            r#"{"version": 1, "brokers": [1], "expect": [{"at_ms": 1, "controller": 1, "controller": 2}]}"#,
            "controller",
        ),
    ] {
        let e = err(text);
        assert!(
            e.starts_with(&format!("the key \"{key}\" appears twice in one object (a key is given once) at line 1 column ")),
            "{e}"
        );
    }
    assert!(err(r#"{"version": 1, "brokers": [1], "seed": 1e400}"#)
        .starts_with("not valid JSON: number out of range"));
}
