//! The `expect` checkpoints of a scenario: each names a time, a subset of the state object and
//! events that must have happened by then. Validated when the scenario is parsed (every state
//! field, group, partition and broker named must exist), compared with a run's state and events
//! when it is checked.

use super::{check_time, ScenarioError};
use crate::collections::VecSet;
use crate::sim::history::History;
use crate::sim::{BrokerId, ClusterState, Event, Settings, Setup, World};
use serde_json::{Map, Value};

/// One checkpoint: the state at `at_ms` must match `state` (a subset of the state object)
/// and the events so far must include `events`.
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// When.
    pub at_ms: u64,
    /// Expected parts of the state. A list where the state holds one value means "any of
    /// these"; a list against a list is compared in order, but as a set under `isr`, `added`
    /// and `removed`.
    pub state: Map<String, Value>,
    /// Expected events (each a subset of an event object); `count` asks for an exact number.
    pub events: Vec<Map<String, Value>>,
}

/// The result of one checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    /// When.
    pub at_ms: u64,
    /// What differed; empty when the checkpoint passed.
    pub differences: Vec<String>,
}

/// The fields of a group in the state.
const GROUP_FIELDS: [&str; 9] = [
    "coordinator",
    "coordinator_partition",
    "state",
    "generation",
    "leader",
    "members",
    "member_ids",
    "assignment",
    "consumers",
];

/// The fields of a partition in the state.
const PARTITION_FIELDS: [&str; 16] = [
    "replicas",
    "leader",
    "leader_epoch",
    "isr",
    "controller_epoch",
    "high_watermark",
    "log_end_offsets",
    "replica_states",
    "preferred",
    "unclean_leader_election",
    "min_insync_replicas",
    "acked_records",
    "failed_records",
    "retried_records",
    "duplicate_records",
    "stream",
];

/// Validates the `expect` list: each checkpoint names a time (in order, within
/// [`MAX_TIME_MS`](super::MAX_TIME_MS)), the events it wants, and fields of the state object;
/// the brokers, groups and partitions it names must exist (`ids`, `group_ids`,
/// `partition_names`).
pub(super) fn parse_checkpoints(
    expect: &[Map<String, Value>],
    ids: &VecSet<BrokerId>,
    group_ids: &VecSet<String>,
    partition_names: &VecSet<String>,
) -> Result<Vec<Checkpoint>, ScenarioError> {
    let template =
        serde_json::to_value(World::new(&Setup::with_brokers(0, Settings::default(), 1)).state())
            .expect("the state serializes");
    let broker_keys: VecSet<String> = template["brokers"]["1"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let mut checkpoints = Vec::new();
    let mut last_expect = 0;
    for (i, e) in expect.iter().enumerate() {
        let place = format!("expect[{i}]");
        let at_ms = e.get("at_ms").and_then(Value::as_u64).ok_or_else(|| {
            ScenarioError::at(
                &place,
                "\"at_ms\" (a whole number of milliseconds) is required",
            )
        })?;
        check_time("at_ms", at_ms).map_err(|e| ScenarioError::at(&place, e))?;
        if at_ms < last_expect {
            return Err(ScenarioError::at(
                place,
                "checkpoints must be in time order",
            ));
        }
        last_expect = at_ms;
        let mut state = Map::new();
        let mut events = Vec::new();
        for (k, v) in e {
            match k.as_str() {
                "at_ms" => {}
                "events" => {
                    let list = v.as_array().ok_or_else(|| {
                        ScenarioError::at(format!("{place}.events"), "must be a list of event objects")
                    })?;
                    for (j, ev) in list.iter().enumerate() {
                        let obj = ev.as_object().filter(|o| o.contains_key("kind")).ok_or_else(|| {
                            ScenarioError::at(
                                format!("{place}.events[{j}]"),
                                "must be an object with at least \"kind\"",
                            )
                        })?;
                        if let Some(c) = obj.get("count") {
                            if !c.is_u64() {
                                return Err(ScenarioError::at(
                                    format!("{place}.events[{j}].count"),
                                    "must be a whole number",
                                ));
                            }
                        }
                        events.push(obj.clone());
                    }
                }
                "groups" => {
                    let obj = v.as_object().ok_or_else(|| {
                        ScenarioError::at(format!("{place}.groups"), "must be an object keyed by group id")
                    })?;
                    for (name, fields) in obj {
                        if !group_ids.contains(name) {
                            return Err(ScenarioError::at(
                                format!("{place}.groups.{name}"),
                                format!("there is no group {name}"),
                            ));
                        }
                        let fields = fields.as_object().ok_or_else(|| {
                            ScenarioError::at(format!("{place}.groups.{name}"), "must be an object of group fields")
                        })?;
                        for f in fields.keys() {
                            if !GROUP_FIELDS.contains(&f.as_str()) {
                                return Err(ScenarioError::at(
                                    format!("{place}.groups.{name}.{f}"),
                                    format!("unknown group field; the fields are {}", GROUP_FIELDS.join(", ")),
                                ));
                            }
                        }
                    }
                    state.insert(k.to_string(), v.clone());
                }
                "partitions" | "lost_records" => {
                    let obj = v.as_object().ok_or_else(|| {
                        ScenarioError::at(format!("{place}.{k}"), "must be an object keyed by topic-partition, e.g. \"T-0\"")
                    })?;
                    for (name, fields) in obj {
                        if !partition_names.contains(name) {
                            return Err(ScenarioError::at(
                                format!("{place}.{k}.{name}"),
                                format!("there is no partition {name}"),
                            ));
                        }
                        if k == "partitions" {
                            let fields = fields.as_object().ok_or_else(|| {
                                ScenarioError::at(format!("{place}.{k}.{name}"), "must be an object of partition fields")
                            })?;
                            for f in fields.keys() {
                                if !PARTITION_FIELDS.contains(&f.as_str()) {
                                    return Err(ScenarioError::at(
                                        format!("{place}.{k}.{name}.{f}"),
                                        format!("unknown partition field; the fields are {}", PARTITION_FIELDS.join(", ")),
                                    ));
                                }
                            }
                        }
                    }
                    state.insert(k.to_string(), v.clone());
                }
                key if template.get(key).is_some() => {
                    if key == "brokers" {
                        let obj = v.as_object().ok_or_else(|| {
                            ScenarioError::at(format!("{place}.brokers"), "must be an object keyed by broker id")
                        })?;
                        for (id, fields) in obj {
                            let bplace = format!("{place}.brokers.{id}");
                            if !id.parse::<BrokerId>().is_ok_and(|b| ids.contains(&b)) {
                                return Err(ScenarioError::at(bplace, format!("there is no broker {id}")));
                            }
                            let fields = fields.as_object().ok_or_else(|| {
                                ScenarioError::at(&bplace, "must be an object of broker fields")
                            })?;
                            for f in fields.keys() {
                                if !broker_keys.contains(f) {
                                    return Err(ScenarioError::at(
                                        format!("{bplace}.{f}"),
                                        format!(
                                            "unknown broker field; the fields are {}",
                                            broker_keys.iter().cloned().collect::<Vec<_>>().join(", ")
                                        ),
                                    ));
                                }
                            }
                        }
                    }
                    state.insert(key.to_string(), v.clone());
                }
                other => {
                    return Err(ScenarioError::at(
                        format!("{place}.{other}"),
                        format!(
                            "unknown field; a checkpoint takes at_ms, events and the state's fields ({})",
                            template.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>().join(", ")).unwrap_or_default()
                        ),
                    ))
                }
            }
        }
        checkpoints.push(Checkpoint {
            at_ms,
            state,
            events,
        });
    }
    Ok(checkpoints)
}

/// Compares one checkpoint with a state and the events so far.
pub fn compare_checkpoint(
    cp: &Checkpoint,
    state: &ClusterState,
    events: &History<Event>,
) -> Vec<String> {
    let actual = serde_json::to_value(state).expect("the state serializes");
    let mut diffs = Vec::new();
    for (k, v) in &cp.state {
        compare(k, v, actual.get(k).unwrap_or(&Value::Null), &mut diffs);
    }
    let events: Vec<Value> = events
        .iter()
        .filter(|e| e.time_ms <= cp.at_ms)
        .map(|e| serde_json::to_value(e).expect("events serialize"))
        .collect();
    for want in &cp.events {
        let count = want.get("count").and_then(Value::as_u64);
        let n = events.iter().filter(|e| pattern_matches(want, e)).count() as u64;
        let mut pattern = want.clone();
        pattern.remove("count");
        let pattern = Value::Object(pattern);
        match count {
            Some(c) if c != n => diffs.push(format!(
                "events: expected {c} matching {pattern}, found {n}"
            )),
            None if n == 0 => diffs.push(format!(
                "events: expected an event matching {pattern}, found none"
            )),
            _ => {}
        }
    }
    diffs
}

/// Whether an event (as its JSON object) matches an event pattern: every key of the pattern
/// but `count` is present in the event and matches it (see [`matches`]).
pub(crate) fn pattern_matches(pattern: &Map<String, Value>, event: &Value) -> bool {
    pattern
        .iter()
        .filter(|(k, _)| k.as_str() != "count")
        .all(|(k, v)| event.get(k).is_some_and(|a| matches(k, v, a)))
}

/// The lists whose order means nothing: an ISR is a set (and so are the replicas an ISR change
/// adds or removes). Every other list is compared in order: a replica list, whose first member
/// is the preferred replica and whose order elections walk; a group's members, in its member
/// map's order.
const SET_KEYS: [&str; 3] = ["isr", "added", "removed"];

pub(super) fn matches(key: &str, expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Array(options), a) if !a.is_array() => options.iter().any(|o| matches(key, o, a)),
        (Value::Array(want), Value::Array(got)) if SET_KEYS.contains(&key) => {
            let w: VecSet<String> = want.iter().map(Value::to_string).collect();
            let g: VecSet<String> = got.iter().map(Value::to_string).collect();
            w == g
        }
        (Value::Array(want), Value::Array(got)) => {
            want.len() == got.len() && want.iter().zip(got).all(|(w, g)| matches(key, w, g))
        }
        (Value::Object(want), Value::Object(got)) => want
            .iter()
            .all(|(k, v)| got.get(k).is_some_and(|a| matches(k, v, a))),
        _ => expected == actual,
    }
}

fn compare(path: &str, expected: &Value, actual: &Value, diffs: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => {
            for (k, v) in want {
                compare(
                    &format!("{path}.{k}"),
                    v,
                    got.get(k).unwrap_or(&Value::Null),
                    diffs,
                );
            }
        }
        _ if matches(path.rsplit('.').next().unwrap_or(path), expected, actual) => {}
        (Value::Array(_), a) if !a.is_array() => {
            diffs.push(format!("{path}: expected one of {expected}, got {actual}"))
        }
        _ => diffs.push(format!("{path}: expected {expected}, got {actual}")),
    }
}
