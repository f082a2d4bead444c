//! Checkpoints: lists mean "any of", a set under `isr`, `added` and `removed`, an ordered list
//! elsewhere; the partitions a checkpoint names are validated.

use super::checkpoints::matches;
use super::parse;
use super::parse_test::{err, with_topic};
use serde_json::Value;

#[test]
fn lists_are_compared_in_order_but_an_isr_as_a_set() {
    let v = |s: &str| serde_json::from_str::<Value>(s).unwrap();
    assert!(matches("isr", &v("[3, 2]"), &v("[2, 3]")));
    assert!(!matches("replicas", &v("[3, 2]"), &v("[2, 3]")));
    assert!(matches("replicas", &v("[2, 3, 4, 1]"), &v("[2, 3, 4, 1]")));
    assert!(!matches(
        "members",
        &v(r#"["c1", "c2"]"#),
        &v(r#"["c2", "c1"]"#)
    ));
    assert!(!matches("replicas", &v("[2, 3]"), &v("[2, 3, 4]")));
    // A list against one value is "any of"; objects are matched key by key.
    assert!(matches("controller", &v("[2, 3]"), &v("3")));
    assert!(matches(
        "p",
        &v(r#"{"isr": [1, 2]}"#),
        &v(r#"{"isr": [2, 1], "leader": 1}"#)
    ));
}

#[test]
fn lists_mean_any_of_or_a_set() {
    assert!(matches(
        "leader",
        &serde_json::json!([2, 3]),
        &serde_json::json!(3)
    ));
    assert!(!matches(
        "leader",
        &serde_json::json!([2, 3]),
        &serde_json::json!(1)
    ));
    assert!(matches(
        "isr",
        &serde_json::json!([2, 3]),
        &serde_json::json!([3, 2])
    ));
    assert!(!matches(
        "isr",
        &serde_json::json!([2, 3]),
        &serde_json::json!([2])
    ));
    assert!(matches(
        "c",
        &serde_json::json!(null),
        &serde_json::json!(null)
    ));
}

#[test]
fn partition_checkpoints_are_validated() {
    let bad = |expect: &str| err(&with_topic(&format!(r#", "expect": [{expect}]"#)));
    assert!(
        bad(r#"{"at_ms": 1, "partitions": {"T-5": {"leader": 1}}}"#).contains("no partition T-5")
    );
    assert!(bad(r#"{"at_ms": 1, "partitions": {"T-0": {"leadr": 1}}}"#)
        .contains("unknown partition field"));
    assert!(bad(r#"{"at_ms": 1, "lost_records": {"U-0": 0}}"#).contains("no partition U-0"));
    let s = parse(&with_topic(r#", "expect": [{"at_ms": 2000, "partitions": {"T-0": {"leader": 1, "isr": [2, 1], "leader_epoch": 0}, "T-1": {"leader": 2}}, "lost_records": {"T-0": 0}}]"#)).unwrap();
    let results = s.check().unwrap();
    assert!(
        results[0].differences.is_empty(),
        "{:?}",
        results[0].differences
    );
}
