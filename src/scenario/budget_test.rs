//! The work budget: what it counts, and the one message that refuses a run too big to
//! simulate, naming what to reduce.

use super::budget::estimate;
use super::parse;
use super::parse_test::err;

/// A scenario of `brokers` brokers with a topic of `partitions` partitions (replication factor
/// 3), running until `until_ms`, with `rest` added to the object.
fn cluster(brokers: u32, partitions: u32, until_ms: u64, rest: &str) -> String {
    let ids: Vec<String> = (1..=brokers).map(|b| b.to_string()).collect();
    format!(
        r#"{{"version": 1, "brokers": [{}], "topics": [{{"name": "t", "partitions": {partitions}, "replication_factor": 3}}], "until_ms": {until_ms}{rest}}}"#,
        ids.join(", ")
    )
}

fn work(text: &str) -> f64 {
    let s = parse(text).unwrap();
    estimate(&s.setup, &s.actions, s.until_ms).total()
}

#[test]
fn a_day_of_many_brokers_and_partitions_is_refused_naming_what_to_reduce() {
    let e = err(&cluster(64, 256, 86_400_000, ""));
    assert!(
        e.starts_with("this run would take too long to simulate: its work is about "),
        "{e}"
    );
    assert!(
        e.contains("million messages in 24 h of virtual time, over the limit of 30 million; "),
        "{e}"
    );
    assert!(e.contains("% of it is replica fetching (replica.fetch.wait.max.ms 500 ms): use fewer brokers or partitions, a smaller replication factor, fewer streams or a longer replica.fetch.wait.max.ms, or a shorter run (until_ms)"), "{e}");
    // An hour is still too much at that size; ten minutes are not.
    assert!(err(&cluster(64, 256, 3_600_000, "")).contains("in 1 h of virtual time"));
    assert!(parse(&cluster(64, 256, 600_000, "")).is_ok());
}

#[test]
fn the_work_grows_with_time_brokers_partitions_and_the_fetch_wait() {
    let base = work(&cluster(3, 3, 600_000, ""));
    assert!(work(&cluster(3, 3, 1_200_000, "")) > 1.9 * base);
    assert!(work(&cluster(9, 3, 600_000, "")) > base);
    assert!(work(&cluster(3, 12, 600_000, "")) > base);
    let fast = work(&cluster(
        3,
        3,
        600_000,
        r#", "config": {"replica.fetch.wait.max.ms": 50}"#,
    ));
    assert!(fast > 5.0 * base, "{fast} vs {base}");
}

#[test]
fn a_setting_changed_by_an_action_counts_from_its_time() {
    let at = |ms: u64| {
        work(&cluster(
            3,
            3,
            600_000,
            &format!(
                r#", "actions": [{{"at_ms": {ms}, "do": "set_config", "key": "replica.fetch.wait.max.ms", "value": 10}}]"#
            ),
        ))
    };
    let (early, late) = (at(1_000), at(500_000));
    assert!(early > 3.0 * late, "{early} vs {late}");
    assert!(late > work(&cluster(3, 3, 600_000, "")));
}

#[test]
fn a_stream_counts_while_it_runs() {
    let stream = |rest: &str| {
        work(&cluster(
            3,
            3,
            600_000,
            &format!(
                r#", "actions": [{{"at_ms": 1000, "do": "produce", "topic": "t", "partition": 0, "rate_per_s": 100{rest}}}]"#
            ),
        ))
    };
    let idle = work(&cluster(3, 3, 600_000, ""));
    let (short, long) = (stream(r#", "for_ms": 10000"#), stream(""));
    assert!(idle < short && short < long, "{idle} {short} {long}");
}

#[test]
fn heartbeats_that_dominate_are_named() {
    let consumers: Vec<String> = (1..=6)
        .map(|c| format!(r#"{{"at_ms": {c}000, "do": "join", "group": "g", "member": "c{c}"}}"#))
        .collect();
    let text = cluster(
        3,
        3,
        86_400_000,
        &format!(
            r#", "groups": [{{"id": "g", "topics": ["t"]}}], "config": {{"heartbeat.interval.ms": 1}}, "actions": [{}]"#,
            consumers.join(", ")
        ),
    );
    let e = err(&text);
    assert!(e.contains("% of it is consumer heartbeats (heartbeat.interval.ms 1 ms): use fewer consumers or a longer heartbeat.interval.ms, or a shorter run (until_ms)"), "{e}");
}
