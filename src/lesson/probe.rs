//! The probe vocabulary: parsing a question's `probe` object into a [`Probe`], with every name
//! it uses (partition, group, event kind and fields, brokers) checked against the lesson's
//! scenario, and its times against the step that asks it.

use super::events::event_fields;
use super::{GroupField, LessonError, Measure, PartitionField, Probe, TimeUnit, ValueType};
use crate::collections::{VecMap, VecSet};
use crate::scenario::check_time;
use crate::sim::{fmt_ms, BrokerId};
use serde_json::{Map, Value};

/// Every probe name (the `what` of a probe), in the documentation's order.
pub(super) const PROBES: [&str; 13] = [
    "controller",
    "controller_epoch",
    "partition.leader",
    "partition.isr",
    "partition.leader_epoch",
    "partition.high_watermark",
    "partition.acked_records",
    "partition.lost_records",
    "group.leader",
    "group.generation",
    "group.coordinator",
    "event_time",
    "event_happened",
];

/// The names a lesson's scenario defines, which probes and options are checked against.
#[derive(Debug, Clone, Default)]
pub(super) struct Names {
    /// The listed brokers.
    pub brokers: VecSet<BrokerId>,
    /// Every partition, `topic-N` (with `__consumer_offsets-N` when there are groups).
    pub partitions: VecSet<String>,
    /// The group ids.
    pub groups: VecSet<String>,
    /// The consumers the scenario's `join` actions add, by group.
    pub members: VecMap<String, VecSet<String>>,
}

/// Where a probe sits and what it may look at.
pub(super) struct ProbeContext<'a> {
    /// The place of the probe, e.g. `steps[3].question.probe`.
    pub place: &'a str,
    /// The step's `at_ms`: the probe looks at or before it.
    pub step_at_ms: u64,
    /// The time the learner has seen when the question is asked.
    pub asked_at_ms: u64,
    /// What the learner has seen, for messages: `steps[2] ran to 5000 ms`, or `the lesson
    /// opens at 0 ms`.
    pub seen: String,
    /// The scenario's names.
    pub names: &'a Names,
}

impl Measure {
    /// The probe's name in lesson files (`partition.isr`).
    pub fn name(&self) -> &'static str {
        match self {
            Measure::Controller => "controller",
            Measure::ControllerEpoch => "controller_epoch",
            Measure::Partition { field, .. } => match field {
                PartitionField::Leader => "partition.leader",
                PartitionField::Isr => "partition.isr",
                PartitionField::LeaderEpoch => "partition.leader_epoch",
                PartitionField::HighWatermark => "partition.high_watermark",
                PartitionField::AckedRecords => "partition.acked_records",
                PartitionField::LostRecords => "partition.lost_records",
            },
            Measure::Group { field, .. } => match field {
                GroupField::Leader => "group.leader",
                GroupField::Generation => "group.generation",
                GroupField::Coordinator => "group.coordinator",
            },
            Measure::EventTime { .. } => "event_time",
            Measure::EventHappened { .. } => "event_happened",
        }
    }

    /// The type of what it measures.
    pub fn value_type(&self) -> ValueType {
        match self {
            Measure::Controller => ValueType::Broker,
            Measure::ControllerEpoch => ValueType::Epoch,
            Measure::Partition { field, .. } => match field {
                PartitionField::Leader => ValueType::Broker,
                PartitionField::Isr => ValueType::Brokers,
                PartitionField::LeaderEpoch => ValueType::Epoch,
                PartitionField::HighWatermark
                | PartitionField::AckedRecords
                | PartitionField::LostRecords => ValueType::Count,
            },
            Measure::Group { field, .. } => match field {
                GroupField::Leader => ValueType::Member,
                GroupField::Generation => ValueType::Epoch,
                GroupField::Coordinator => ValueType::Broker,
            },
            Measure::EventTime { unit, .. } => ValueType::Time(*unit),
            Measure::EventHappened { .. } => ValueType::YesNo,
        }
    }

    /// Whether it looks for an event (rather than reading the state).
    pub fn is_event_probe(&self) -> bool {
        matches!(
            self,
            Measure::EventTime { .. } | Measure::EventHappened { .. }
        )
    }
}

/// Builds a probe's measure from its object, once its time is known.
type MeasureOf = fn(&Map<String, Value>, &ProbeContext, u64) -> Result<Measure, LessonError>;

/// The keys every probe takes.
const COMMON_KEYS: [&str; 2] = ["what", "at_ms"];

/// Parses and validates a probe.
pub(super) fn parse_probe(
    map: &Map<String, Value>,
    cx: &ProbeContext,
) -> Result<Probe, LessonError> {
    let place = cx.place;
    let what = string_key(map, place, "what", "a probe name (a string)", || {
        format!("\"what\" is required: one of {}", PROBES.join(", "))
    })?;
    let (takes, measure_of): (&[&str], MeasureOf) = match what {
        "controller" => (&[], |_, _, _| Ok(Measure::Controller)),
        "controller_epoch" => (&[], |_, _, _| Ok(Measure::ControllerEpoch)),
        w if w.starts_with("partition.") && PROBES.contains(&w) => {
            (&["partition"], partition_probe)
        }
        w if w.starts_with("group.") && PROBES.contains(&w) => (&["group"], group_probe),
        "event_time" => (&["event", "from_ms", "unit", "never"], event_probe),
        "event_happened" => (&["event", "from_ms"], event_probe),
        other => {
            return Err(LessonError::at(
                format!("{place}.what"),
                format!(
                    "unknown probe \"{other}\"; the probes are {}",
                    PROBES.join(", ")
                ),
            ))
        }
    };
    for k in map.keys() {
        if !COMMON_KEYS.contains(&k.as_str()) && !takes.contains(&k.as_str()) {
            let all: Vec<&str> = COMMON_KEYS.iter().chain(takes).copied().collect();
            return Err(LessonError::at(
                format!("{place}.{k}"),
                format!("the probe {what} takes only {}", all.join(", ")),
            ));
        }
    }
    let at_ms = probe_time(map, cx)?;
    let measure = measure_of(map, cx, at_ms)?;
    Ok(Probe { at_ms, measure })
}

/// The probe's `at_ms`: by default the step's; at most the step's, and after what the
/// learner has seen.
fn probe_time(map: &Map<String, Value>, cx: &ProbeContext) -> Result<u64, LessonError> {
    let place = cx.place;
    let (at_ms, at_place, given) = match map.get("at_ms") {
        None => (cx.step_at_ms, place.to_string(), false),
        Some(v) => {
            let ms = v.as_u64().ok_or_else(|| {
                LessonError::at(
                    format!("{place}.at_ms"),
                    format!("must be a whole number of milliseconds, not {v}"),
                )
            })?;
            let ms = check_time("at_ms", ms)
                .map_err(|e| LessonError::at(format!("{place}.at_ms"), e))?;
            (ms, format!("{place}.at_ms"), true)
        }
    };
    if at_ms > cx.step_at_ms {
        return Err(LessonError::at(
            at_place,
            format!(
                "{at_ms} is after the step's at_ms ({} ms): an answer is graded once its step has run, so the probe looks at or before it",
                cx.step_at_ms
            ),
        ));
    }
    if at_ms <= cx.asked_at_ms {
        let which = if given { "" } else { " (the step's at_ms)" };
        return Err(LessonError::at(
            at_place,
            format!(
                "the probe looks at {at_ms} ms{which}, which the learner has already seen ({}): a question asks about a later moment",
                cx.seen
            ),
        ));
    }
    Ok(at_ms)
}

fn partition_probe(
    map: &Map<String, Value>,
    cx: &ProbeContext,
    _: u64,
) -> Result<Measure, LessonError> {
    let field = match map.get("what").and_then(Value::as_str) {
        Some("partition.leader") => PartitionField::Leader,
        Some("partition.isr") => PartitionField::Isr,
        Some("partition.leader_epoch") => PartitionField::LeaderEpoch,
        Some("partition.high_watermark") => PartitionField::HighWatermark,
        Some("partition.acked_records") => PartitionField::AckedRecords,
        _ => PartitionField::LostRecords,
    };
    let partition = named(
        map,
        cx,
        "partition",
        &cx.names.partitions,
        "a partition (\"topic-N\")",
    )?;
    Ok(Measure::Partition { partition, field })
}

fn group_probe(
    map: &Map<String, Value>,
    cx: &ProbeContext,
    _: u64,
) -> Result<Measure, LessonError> {
    let field = match map.get("what").and_then(Value::as_str) {
        Some("group.leader") => GroupField::Leader,
        Some("group.generation") => GroupField::Generation,
        _ => GroupField::Coordinator,
    };
    let group = named(map, cx, "group", &cx.names.groups, "a group id")?;
    Ok(Measure::Group { group, field })
}

/// A required string: `what` describes it when it is of another type, `missing` says why it is
/// needed when it is not there.
fn string_key<'a>(
    map: &'a Map<String, Value>,
    place: &str,
    key: &str,
    what: &str,
    missing: impl FnOnce() -> String,
) -> Result<&'a str, LessonError> {
    match map.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(LessonError::at(
            format!("{place}.{key}"),
            format!("must be {what}, not {other}"),
        )),
        None => Err(LessonError::at(place, missing())),
    }
}

/// A required string naming one of `known`.
fn named(
    map: &Map<String, Value>,
    cx: &ProbeContext,
    key: &str,
    known: &VecSet<String>,
    what: &str,
) -> Result<String, LessonError> {
    let place = cx.place;
    let probe = map.get("what").and_then(Value::as_str).unwrap_or_default();
    let name = string_key(map, place, key, what, || {
        format!("the probe {probe} needs \"{key}\" ({what})")
    })?;
    if !known.contains(name) {
        return Err(LessonError::at(
            format!("{place}.{key}"),
            format!("there is no {key} \"{name}\" in the scenario"),
        ));
    }
    Ok(name.to_string())
}

fn event_probe(
    map: &Map<String, Value>,
    cx: &ProbeContext,
    at_ms: u64,
) -> Result<Measure, LessonError> {
    let place = cx.place;
    let event = match map.get("event") {
        Some(v) => event_pattern(&format!("{place}.event"), v, cx.names)?,
        None => {
            return Err(LessonError::at(
                place,
                "\"event\" is required: the pattern of the event to look for, e.g. {\"kind\": \"controller_elected\", \"epoch\": 2}",
            ))
        }
    };
    let from_ms = match map.get("from_ms") {
        None => cx.asked_at_ms,
        Some(v) => v.as_u64().ok_or_else(|| {
            LessonError::at(
                format!("{place}.from_ms"),
                format!("must be a whole number of milliseconds, not {v}"),
            )
        })?,
    };
    if from_ms >= at_ms {
        return Err(LessonError::at(
            if map.contains_key("from_ms") { format!("{place}.from_ms") } else { place.to_string() },
            format!(
                "the window of events opens after {from_ms} ms and closes at the probe's time, {at_ms} ms: it is empty"
            ),
        ));
    }
    if map.get("what").and_then(Value::as_str) == Some("event_happened") {
        return Ok(Measure::EventHappened { event, from_ms });
    }
    let unit = match map.get("unit") {
        None => TimeUnit::Seconds,
        Some(v) if v == "s" => TimeUnit::Seconds,
        Some(v) if v == "ms" => TimeUnit::Milliseconds,
        Some(v) => {
            return Err(LessonError::at(
                format!("{place}.unit"),
                format!("{v} is not a unit; use \"s\" (the default) or \"ms\""),
            ))
        }
    };
    let never = match map.get("never") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(LessonError::at(
                format!("{place}.never"),
                format!("must be true (\"it does not happen\" is an answer) or false, not {v}"),
            ))
        }
    };
    Ok(Measure::EventTime {
        event,
        from_ms,
        unit,
        never,
    })
}

/// The fields whose values name brokers (a number, `null`, or a list of numbers meaning "any
/// of"); `leader` may also be -1.
const BROKER_KEYS: [&str; 5] = ["broker", "controller", "coordinator", "by", "leader"];

/// Validates an event pattern: an object with a known `kind` and only that kind's fields,
/// naming partitions, groups and brokers that exist.
pub(super) fn event_pattern(
    place: &str,
    v: &Value,
    names: &Names,
) -> Result<Map<String, Value>, LessonError> {
    let pattern = v.as_object().ok_or_else(|| {
        LessonError::at(
            place,
            "must be an event pattern: an object with \"kind\" and any of that kind's fields",
        )
    })?;
    let kind = match pattern.get("kind") {
        Some(Value::String(k)) => k.as_str(),
        _ => {
            return Err(LessonError::at(
                place,
                "an event pattern needs \"kind\", an event kind such as \"leader_elected\"",
            ))
        }
    };
    let fields = event_fields(kind).ok_or_else(|| {
        LessonError::at(
            format!("{place}.kind"),
            format!("there is no event kind \"{kind}\" (the kinds are listed in docs/scenario-format.md, \"The events\")"),
        )
    })?;
    for (k, value) in pattern {
        let fplace = format!("{place}.{k}");
        if k == "kind" {
            continue;
        }
        if k == "count" {
            return Err(LessonError::at(
                fplace,
                "a probe's pattern takes no count: event_time measures the first matching event, event_happened asks whether there is one",
            ));
        }
        if !fields.contains(&k.as_str()) {
            return Err(LessonError::at(
                fplace,
                format!(
                    "{kind} has no field \"{k}\"; its fields are {}",
                    fields.join(", ")
                ),
            ));
        }
        let alternatives: Vec<&Value> = match value {
            Value::Array(list)
                if k != "isr"
                    && k != "removed"
                    && k != "added"
                    && k != "replicas"
                    && k != "target" =>
            {
                list.iter().collect()
            }
            other => vec![other],
        };
        for a in alternatives {
            check_name(&fplace, k, a, names)?;
        }
    }
    Ok(pattern.clone())
}

/// Checks one value of a pattern field that names a partition, a group or a broker.
fn check_name(place: &str, key: &str, v: &Value, names: &Names) -> Result<(), LessonError> {
    match key {
        "partition" | "group" => {
            let (known, what) = if key == "partition" {
                (&names.partitions, "a partition (\"topic-N\")")
            } else {
                (&names.groups, "a group id")
            };
            match v.as_str() {
                Some(n) if known.contains(n) => Ok(()),
                Some(n) => Err(LessonError::at(
                    place,
                    format!("there is no {key} \"{n}\" in the scenario"),
                )),
                None => Err(LessonError::at(place, format!("must be {what}, not {v}"))),
            }
        }
        k if BROKER_KEYS.contains(&k) => {
            if v.is_null() || (k == "leader" && v.as_i64() == Some(-1)) {
                return Ok(());
            }
            match v.as_u64().and_then(|n| BrokerId::try_from(n).ok()) {
                Some(b) if names.brokers.contains(&b) => Ok(()),
                Some(b) => Err(LessonError::at(
                    place,
                    format!("there is no broker {b} in the scenario"),
                )),
                None => Err(LessonError::at(
                    place,
                    format!("must be a broker id, not {v}"),
                )),
            }
        }
        _ => Ok(()),
    }
}

impl std::fmt::Display for Probe {
    /// What the probe measures and when, for people: `partition.isr of orders-0 at 48.000s`,
    /// `event_time of {"kind":"controller_elected"} after 1.000s, by 25.000s (in s)`, and
    /// `(in s, or never)` when "it does not happen" is an answer.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = fmt_ms(self.at_ms);
        match &self.measure {
            Measure::Controller | Measure::ControllerEpoch => {
                write!(f, "{} at {at}", self.measure.name())
            }
            Measure::Partition {
                partition: name, ..
            }
            | Measure::Group { group: name, .. } => {
                write!(f, "{} of {name} at {at}", self.measure.name())
            }
            Measure::EventTime {
                event,
                from_ms,
                unit,
                never,
            } => write!(
                f,
                "event_time of {} after {}, by {at} (in {}{})",
                Value::Object(event.clone()),
                fmt_ms(*from_ms),
                unit.name(),
                if *never { ", or never" } else { "" }
            ),
            Measure::EventHappened { event, from_ms } => write!(
                f,
                "event_happened of {} after {}, by {at}",
                Value::Object(event.clone()),
                fmt_ms(*from_ms)
            ),
        }
    }
}
