//! The znodes' hand-written JSON against serde_json, which wrote and read them before: the
//! same text written, and the same verdict and value read, on many values and on texts
//! changed in every way serde_json's derive cares about (missing, unknown, repeated and
//! retyped fields, the array form, broken syntax).
#![cfg(not(target_arch = "wasm32"))]

use super::net::BrokerId;
use super::znodes::{parse_broker_id, PartitionState, TopicAssignment};
use crate::collections::VecMap;
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError, TestRunner};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::cell::Cell;

/// `parse_broker_id` as it was written with serde_json.
fn serde_broker_id(data: &str) -> Option<BrokerId> {
    let v: Value = serde_json::from_str(data).ok()?;
    v.get("brokerid")?
        .as_u64()
        .and_then(|b| u32::try_from(b).ok())
}

/// A fixed seed, so that every run draws the same cases.
fn runner(cases: u32) -> TestRunner {
    TestRunner::new(ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(1),
        failure_persistence: None,
        ..ProptestConfig::default()
    })
}

/// The same reading as serde_json's, counted in `verdicts` (refused, read).
fn same<T: DeserializeOwned + PartialEq + std::fmt::Debug>(
    text: &str,
    ours: fn(&str) -> Option<T>,
    verdicts: &Cell<[u32; 2]>,
) -> Result<(), TestCaseError> {
    let theirs = serde_json::from_str::<T>(text).ok();
    let mine = ours(text);
    prop_assert_eq!(&mine, &theirs, "{}", text);
    let mut v = verdicts.get();
    v[usize::from(theirs.is_some())] += 1;
    verdicts.set(v);
    Ok(())
}

/// Both verdicts came often.
fn both(verdicts: &Cell<[u32; 2]>) {
    let v = verdicts.get();
    assert!(v[0] * 10 > v[0] + v[1] && v[1] * 10 > v[0] + v[1], "{v:?}");
}

/// Strings heavy in what needs escaping, and partition numbers.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..40).prop_map(|p| p.to_string()),
        proptest::collection::vec(
            prop_oneof![
                3 => any::<char>(),
                2 => (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap_or('?')),
                1 => proptest::sample::select(vec!['"', '\\', '/', '\u{7f}', '😀']),
            ],
            0..6,
        )
        .prop_map(|cs| cs.into_iter().collect()),
    ]
}

fn broker_ids() -> impl Strategy<Value = Vec<BrokerId>> {
    proptest::collection::vec(prop_oneof![0u32..6, any::<u32>()], 0..5)
}

fn replica_map() -> impl Strategy<Value = VecMap<String, Vec<BrokerId>>> {
    proptest::collection::vec((key(), broker_ids()), 0..5)
        .prop_map(|entries| entries.into_iter().collect())
}

fn assignment() -> impl Strategy<Value = TopicAssignment> {
    (
        prop_oneof![Just(2u32), any::<u32>()],
        replica_map(),
        replica_map(),
        replica_map(),
    )
        .prop_map(
            |(version, partitions, adding_replicas, removing_replicas)| TopicAssignment {
                version,
                partitions,
                adding_replicas,
                removing_replicas,
            },
        )
}

fn partition_state() -> impl Strategy<Value = PartitionState> {
    (
        prop_oneof![0u64..10, any::<u64>()],
        prop_oneof![-1i64..6, any::<i64>()],
        prop_oneof![Just(1u32), any::<u32>()],
        prop_oneof![0u64..10, any::<u64>()],
        broker_ids(),
    )
        .prop_map(
            |(controller_epoch, leader, version, leader_epoch, isr)| PartitionState {
                controller_epoch,
                leader,
                version,
                leader_epoch,
                isr,
            },
        )
}

/// Values to put in a field's place.
fn other() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..5).prop_map(Value::from),
        Just(Value::from(-1)),
        Just(Value::from(1.5)),
        key().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Members serde_json's derive passes over (valid JSON its `Value` refuses) or refuses.
const ODD_MEMBERS: &[&str] = &[
    r#""x":"\ud800","#,
    r#""\ud800":1,"#,
    r#""x":{"\udc00":[1e400]},"#,
    r#""x":1e400,"#,
    r#""x":-0,"#,
    r#""x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],"#,
    r#""le\u0061der":7,"#,
    r#""version":1,"#,
    r#""brokerid":2,"#,
    r#""isr":[1],"#,
    r#""partitions":{"0":[1],"0":[2]},"#,
    r#""brokerid":1,"brokerid":"2","#,
];

/// The fields of a partition state and of an assignment, in the order serde_json writes them.
const STATE: [&str; 5] = [
    "controller_epoch",
    "leader",
    "version",
    "leader_epoch",
    "isr",
];
const ASSIGNMENT: [&str; 4] = [
    "version",
    "partitions",
    "adding_replicas",
    "removing_replicas",
];

/// How a written value is changed before it is read back.
#[derive(Debug, Clone)]
struct Change {
    kind: u8,
    pick: usize,
    with: Value,
    /// Text edits: at a character, remove some, insert a piece.
    edits: Vec<(usize, usize, &'static str)>,
}

fn change() -> impl Strategy<Value = Change> {
    let piece = proptest::sample::select(vec![
        "", " ", ",", ":", "[", "]", "{", "}", "\"", "\\", "\\u", "\\ud800", "0", "-", ".", "e",
        "9", "null", "x", "\u{1}", "é",
    ]);
    (
        0u8..9,
        any::<usize>(),
        other(),
        prop_oneof![
            3 => Just(Vec::new()),
            1 => proptest::collection::vec((any::<usize>(), 0usize..3, piece), 1..3),
        ],
    )
        .prop_map(|(kind, pick, with, edits)| Change {
            kind,
            pick,
            with,
            edits,
        })
}

/// `v` (an object) written with its fields in `order` (then the others), after `change`.
fn changed(v: &Value, order: &[&str], c: &Change) -> String {
    let Value::Object(map) = v else {
        return v.to_string();
    };
    let mut written: Vec<(String, Value)> = order
        .iter()
        .filter_map(|k| Some((k.to_string(), map.get(*k)?.clone())))
        .collect();
    for (k, x) in map {
        if !order.contains(&k.as_str()) {
            written.push((k.clone(), x.clone()));
        }
    }
    let n = written.len().max(1);
    let object = |fields: Vec<(String, Value)>| -> String {
        let members: Vec<String> = fields
            .iter()
            .map(|(k, x)| format!("{}:{x}", Value::from(k.as_str())))
            .collect();
        format!("{{{}}}", members.join(","))
    };
    let mut text = match c.kind {
        1 => {
            let mut f = written.clone();
            f.remove(c.pick % n);
            object(f)
        }
        2 => {
            let mut f = written.clone();
            f.insert(
                c.pick % (n + 1),
                (format!("z{}", c.pick % 3), c.with.clone()),
            );
            object(f)
        }
        3 => {
            let mut f = written.clone();
            f[c.pick % n].1 = c.with.clone();
            object(f)
        }
        4 => {
            // The array form, cut short or with an item more.
            let mut items: Vec<Value> = written.iter().map(|(_, x)| x.clone()).collect();
            match c.pick % 3 {
                0 => {}
                1 => items.truncate(c.pick / 3 % n),
                _ => items.push(c.with.clone()),
            }
            Value::Array(items).to_string()
        }
        5 => {
            // A field twice.
            let mut f = written.clone();
            f.push(f[c.pick % n].clone());
            object(f)
        }
        6 => {
            let odd = ODD_MEMBERS[c.pick % ODD_MEMBERS.len()];
            format!("{{{odd}{}", &object(written.clone())[1..])
        }
        7 => serde_json::to_string_pretty(v).unwrap_or_default(),
        _ => object(written.clone()),
    };
    for (at, len, with) in &c.edits {
        let chars: Vec<char> = text.chars().collect();
        let at = at % (chars.len() + 1);
        let end = (at + len).min(chars.len());
        let mut t: String = chars[..at].iter().collect();
        t.push_str(with);
        t.extend(&chars[end..]);
        text = t;
    }
    text
}

/// Values of `values` are written as serde_json wrote them (`to_json`), read back as they were
/// (`from_json`), and their JSON with a field (of `fields`, in their written order) changed is
/// read as serde_json's derive read it.
fn written_and_read_as_serde_json_did<T>(
    values: impl Strategy<Value = T>,
    fields: &[&str],
    to_json: fn(&T) -> String,
    from_json: fn(&str) -> Option<T>,
) where
    T: serde::Serialize + DeserializeOwned + PartialEq + Clone + std::fmt::Debug,
{
    let verdicts = Cell::new([0; 2]);
    runner(3_000)
        .run(&(values, change()), |(x, c)| {
            let text = to_json(&x);
            prop_assert_eq!(&text, &serde_json::to_string(&x).unwrap());
            prop_assert_eq!(from_json(&text), Some(x.clone()));
            let v = serde_json::to_value(&x).unwrap();
            same(&changed(&v, fields, &c), from_json, &verdicts)
        })
        .unwrap();
    both(&verdicts);
}

#[test]
fn partition_states_are_written_and_read_as_serde_json_did() {
    written_and_read_as_serde_json_did(
        partition_state(),
        &STATE,
        PartitionState::to_json,
        PartitionState::from_json,
    );
}

#[test]
fn topic_assignments_are_written_and_read_as_serde_json_did() {
    written_and_read_as_serde_json_did(
        assignment(),
        &ASSIGNMENT,
        TopicAssignment::to_json,
        TopicAssignment::from_json,
    );
}

#[test]
fn the_controllers_broker_id_is_read_as_serde_json_did() {
    let controller = (other(), any::<u64>(), 0u8..4).prop_map(|(v, id, kind)| {
        let mut m = serde_json::Map::new();
        m.insert("version".into(), Value::from(1));
        match kind {
            0 => m.insert("brokerid".into(), Value::from(id % 8)),
            1 => m.insert("brokerid".into(), Value::from(id)),
            2 => m.insert("brokerid".into(), v),
            _ => m.insert("other".into(), v),
        };
        m.insert("timestamp".into(), Value::from("1700000000000"));
        Value::Object(m)
    });
    let verdicts = Cell::new([0; 2]);
    runner(3_000)
        .run(&(controller, change()), |(v, c)| {
            let text = changed(&v, &["version", "brokerid", "timestamp"], &c);
            let id = serde_broker_id(&text);
            prop_assert_eq!(parse_broker_id(&text), id, "{}", text);
            let mut v = verdicts.get();
            v[usize::from(id.is_some())] += 1;
            verdicts.set(v);
            Ok(())
        })
        .unwrap();
    both(&verdicts);
}

#[test]
fn chosen_texts_get_serde_jsons_verdict() {
    let texts = [
        "",
        "{}",
        "[]",
        "null",
        r#"{"version":1,"brokerid":2,"timestamp":"0"}"#,
        r#"{"brokerid":2}"#,
        r#"{"brokerid":-2}"#,
        r#"{"brokerid":4294967296}"#,
        r#"{"brokerid":4294967295}"#,
        r#"{"brokerid":2.0}"#,
        r#"{"brokerid":"2"}"#,
        r#"{"brokerid":2,"brokerid":3}"#,
        r#"{"brokerid":2,"x":"\ud800"}"#,
        r#"{"brokerid":2,"x":1e400}"#,
        r#"{"brokerid":2} x"#,
        r#"[{"brokerid":2}]"#,
        r#"{"controller_epoch":1,"leader":-1,"version":1,"leader_epoch":0,"isr":[]}"#,
        r#"[1,-1,1,0,[]]"#,
        r#"[1,-1,1,0]"#,
        r#"[1,-1,1,0,[],1]"#,
        r#"{"controller_epoch":1,"leader":-0,"version":1,"leader_epoch":0,"isr":[]}"#,
        r#"{"controller_epoch":1,"leader":9223372036854775808,"version":1,"leader_epoch":0,"isr":[]}"#,
        r#"{"controller_epoch":1,"leader":3,"version":1,"leader_epoch":0,"isr":[1],"isr":[1]}"#,
        r#"{"controller_epoch":1,"leader":3,"version":1,"leader_epoch":0,"isr":null}"#,
        r#"{"version":2,"partitions":{"0":[1,2]}}"#,
        r#"{"version":2,"partitions":{"1":[1],"0":[2],"1":[3]},"adding_replicas":{}}"#,
        r#"{"version":2,"partitions":{"\ud800":[1]}}"#,
        r#"{"version":2,"partitions":{"0":[1]},"adding_replicas":null}"#,
        r#"[2,{"0":[1]}]"#,
        r#"[2]"#,
        r#"[2,{"0":[1]},{},{},{}]"#,
    ];
    for t in texts {
        assert_eq!(parse_broker_id(t), serde_broker_id(t), "{t}");
        assert_eq!(
            PartitionState::from_json(t),
            serde_json::from_str(t).ok(),
            "{t}"
        );
        assert_eq!(
            TopicAssignment::from_json(t),
            serde_json::from_str(t).ok(),
            "{t}"
        );
    }
}

#[test]
fn what_serde_json_passes_over_is_passed_over() {
    let state = r#"{"controller_epoch":1,"leader":3,"version":1,"leader_epoch":0,"isr":[1]}"#;
    let assignment = r#"{"version":2,"partitions":{"0":[1]}}"#;
    let mut read = 0;
    for odd in ODD_MEMBERS {
        let t = format!("{{{odd}{}", &state[1..]);
        let theirs: Option<PartitionState> = serde_json::from_str(&t).ok();
        assert_eq!(PartitionState::from_json(&t), theirs, "{t}");
        read += usize::from(theirs.is_some());
        let t = format!("{{{odd}{}", &assignment[1..]);
        assert_eq!(
            TopicAssignment::from_json(&t),
            serde_json::from_str(&t).ok(),
            "{t}"
        );
    }
    // A lone surrogate, 1e400, -0 and deep nesting in an unknown field, an escaped name.
    assert!(read >= 5, "{read}");
}
