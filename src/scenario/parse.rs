//! Parsing and validating a scenario file: JSON first, then the file's shape (serde, unknown
//! keys rejected, the place of a problem from `serde_path_to_error`), then every broker, topic,
//! group, action and checkpoint against the others. Every problem is one [`ScenarioError`]
//! naming its place; nothing runs when parsing fails.

use super::budget;
use super::checkpoints::parse_checkpoints;
use super::file::{ScenarioFile, TopicFile};
use super::{check_time, Scenario, ScenarioError, MAX_BROKERS, MAX_PARTITIONS, MAX_TIME_MS};
use crate::collections::VecSet;
use crate::sim::assignment::{assign, Start};
use crate::sim::assignors::Assignor;
use crate::sim::commands::{check, offsets_topic, GroupSpec, Layout};
use crate::sim::rng::Rng;
use crate::sim::{BrokerId, Command, Profile, Settings, Setup, TopicConfig, TopicSpec};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Parses and validates a scenario. Nothing runs when this fails.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    validate(read_file(text, "a scenario")?)
}

/// Reads a file's text into its serde shape `T`: JSON first (after a byte order mark, if the
/// text starts with one; every key of an object once), then an object (`what`, e.g. "a scenario", is a JSON object), then
/// the shape, with the place of a problem from `serde_path_to_error`.
pub(crate) fn read_file<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, ScenarioError> {
    // A byte order mark some editors write first is not part of the JSON (a browser's reading
    // of a file drops it too, so a file opens alike on the page and on the command line).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match super::json::from_str(text) {
        // A key given twice is valid JSON, but not a file this program reads.
        Err(e) if e.is_data() => return Err(ScenarioError::at("", e.to_string())),
        Err(e) => return Err(ScenarioError::at("", format!("not valid JSON: {e}"))),
        Ok(v) => check_object(&v, what)?,
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(shape_error)
}

/// Parses and validates a scenario already read as JSON (a lesson file holds one as its
/// `scenario`): the same checks and messages as [`parse`], without line and column.
pub fn parse_value(value: Value) -> Result<Scenario, ScenarioError> {
    check_object(&value, "a scenario")?;
    let file: ScenarioFile = serde_path_to_error::deserialize(value).map_err(shape_error)?;
    validate(file)
}

/// Refuses JSON that is not an object: `what` (e.g. "a scenario") is a JSON object
/// (`{"version": 1, ...}`), not a list.
fn check_object(value: &Value, what: &str) -> Result<(), ScenarioError> {
    let kind = match value {
        Value::Object(_) => return Ok(()),
        Value::Array(_) => "a list",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Null => "null",
    };
    Err(ScenarioError::at(
        "",
        format!("{what} is a JSON object ({{\"version\": 1, ...}}), not {kind}"),
    ))
}

/// A problem serde found in a file's shape, at the place `serde_path_to_error` names.
fn shape_error(e: serde_path_to_error::Error<serde_json::Error>) -> ScenarioError {
    let path = e.path().to_string();
    let inner = e.into_inner();
    let mut msg = inner.to_string();
    if inner.is_syntax() || inner.is_eof() {
        msg = format!("not valid JSON: {msg}");
    }
    ScenarioError::at(
        if path == "." || path == "?" {
            String::new()
        } else {
            path
        },
        msg,
    )
}

fn validate(file: ScenarioFile) -> Result<Scenario, ScenarioError> {
    if file.version != 1 {
        return Err(ScenarioError::at(
            "version",
            format!(
                "version {} is not supported; this program reads version 1",
                file.version
            ),
        ));
    }
    let profile = match &file.profile {
        None => Profile::default(),
        Some(p) => Profile::parse(p).map_err(|e| ScenarioError::at("profile", e))?,
    };
    let settings = Settings::with_overrides(profile, &file.config)
        .map_err(|e| ScenarioError::at("config", e))?;

    if file.brokers.is_empty() {
        return Err(ScenarioError::at(
            "brokers",
            "at least one broker is needed",
        ));
    }
    if file.brokers.len() > MAX_BROKERS {
        return Err(ScenarioError::at(
            "brokers",
            format!("at most {MAX_BROKERS} brokers, not {}", file.brokers.len()),
        ));
    }
    let mut brokers = Vec::new();
    let mut ids = VecSet::new();
    for (i, b) in file.brokers.iter().enumerate() {
        let place = format!("brokers[{i}]");
        let (id, start) = parse_broker(b).map_err(|e| ScenarioError::at(&place, e))?;
        if !ids.insert(id) {
            return Err(ScenarioError::at(
                place,
                format!("broker {id} is listed twice"),
            ));
        }
        brokers.push((id, start));
    }
    let mut rng = Rng::new(file.seed ^ 0x746f_7069_6373);
    let mut topics: Vec<TopicSpec> = Vec::new();
    let all_ids: Vec<BrokerId> = brokers.iter().map(|(b, _)| *b).collect();
    for (i, t) in file.topics.iter().enumerate() {
        let place = format!("topics[{i}]");
        let spec = parse_topic(t, &all_ids, &mut rng).map_err(|e| ScenarioError::at(&place, e))?;
        if topics.iter().any(|x| x.name == spec.name) {
            return Err(ScenarioError::at(
                place,
                format!("topic \"{}\" is listed twice", spec.name),
            ));
        }
        topics.push(spec);
    }
    let total: usize = topics.iter().map(|t| t.replicas.len()).sum();
    if total > MAX_PARTITIONS {
        return Err(ScenarioError::at(
            "topics",
            format!("at most {MAX_PARTITIONS} partitions in all, not {total}"),
        ));
    }
    let mut partition_names: VecSet<String> = topics
        .iter()
        .flat_map(|t| (0..t.replicas.len()).map(move |p| format!("{}-{p}", t.name)))
        .collect();
    let mut groups = Vec::new();
    for (i, g) in file.groups.iter().enumerate() {
        let place = format!("groups[{i}]");
        if g.id.is_empty() || g.id.len() > 249 {
            return Err(ScenarioError::at(
                place,
                "a group id has 1 to 249 characters",
            ));
        }
        if groups.iter().any(|x: &GroupSpec| x.id == g.id) {
            return Err(ScenarioError::at(
                place,
                format!("group \"{}\" is listed twice", g.id),
            ));
        }
        if g.topics.is_empty() {
            return Err(ScenarioError::at(place, "a group needs at least one topic"));
        }
        for t in &g.topics {
            if !topics.iter().any(|x| x.name == *t) {
                return Err(ScenarioError::at(
                    place,
                    format!("there is no topic \"{t}\""),
                ));
            }
        }
        let assignor = g.assignor.clone().unwrap_or_else(|| "range".into());
        if Assignor::from_name(&assignor).is_none() {
            return Err(ScenarioError::at(
                place,
                format!("unknown assignor \"{assignor}\"; the assignors are \"range\" and \"roundrobin\""),
            ));
        }
        groups.push(GroupSpec {
            id: g.id.clone(),
            topics: g.topics.clone(),
            assignor,
        });
    }
    // Every topic the world will hold: the actions are checked against them.
    let mut world_topics = topics.clone();
    if !groups.is_empty() {
        world_topics.push(
            offsets_topic(&settings, &all_ids, file.seed)
                .map_err(|e| ScenarioError::at("groups", e))?,
        );
    }
    let layout = Layout {
        brokers: &all_ids,
        topics: &world_topics,
        groups: &groups,
        settings: &settings,
    };
    let group_ids: VecSet<String> = groups.iter().map(|g| g.id.clone()).collect();
    if !groups.is_empty() {
        partition_names.extend(
            (0..settings.offsets_topic_num_partitions).map(|p| format!("__consumer_offsets-{p}")),
        );
    }

    let mut actions = Vec::new();
    let mut last = 0;
    // The consumers some earlier action joined: a leave or a crash of one no action joined
    // names a consumer that never exists.
    let mut joined: VecSet<(String, String)> = VecSet::new();
    for (i, a) in file.actions.iter().enumerate() {
        let place = format!("actions[{i}]");
        if a.at_ms < last {
            return Err(ScenarioError::at(
                place,
                format!("at_ms {} is before the previous action's {last}: actions must be in time order", a.at_ms),
            ));
        }
        last = a.at_ms;
        check_time("at_ms", a.at_ms).map_err(|e| ScenarioError::at(&place, e))?;
        let cmd = a
            .to_command(&settings)
            .map_err(|e| ScenarioError::at(&place, e))?;
        // What the world's state decides is checked when the action applies.
        check(&cmd, &layout, None).map_err(|e| ScenarioError::at(&place, e))?;
        match &cmd {
            Command::Join { group, member } => {
                joined.insert((group.clone(), member.clone()));
            }
            Command::Leave { group, member } | Command::CrashConsumer { group, member }
                if !joined.contains(&(group.clone(), member.clone())) =>
            {
                return Err(ScenarioError::at(
                    place,
                    format!("there is no consumer {member} in group {group}: no earlier action joins it"),
                ));
            }
            _ => {}
        }
        actions.push((a.at_ms, cmd));
    }

    let checkpoints = parse_checkpoints(&file.expect, &ids, &group_ids, &partition_names)?;
    let last_expect = checkpoints.last().map_or(0, |c| c.at_ms);

    let latest = last
        .max(last_expect)
        .max(brokers.iter().filter_map(|(_, s)| *s).max().unwrap_or(0));
    let until_ms = file.until_ms.unwrap_or((latest + 30_000).min(MAX_TIME_MS));
    check_time("until_ms", until_ms).map_err(|e| ScenarioError::at("until_ms", e))?;
    if until_ms < latest {
        return Err(ScenarioError::at(
            "until_ms",
            format!("{until_ms} is before the last action or checkpoint ({latest})"),
        ));
    }
    let setup = Setup {
        seed: file.seed,
        settings,
        brokers,
        topics,
        groups,
    };
    // A run to a later time is checked again by what asks for it (`run --at`, a lesson's steps).
    budget::check(&setup, &actions, until_ms, "a shorter run (until_ms)")
        .map_err(|e| ScenarioError::at("", e))?;
    Ok(Scenario {
        setup,
        actions,
        until_ms,
        checkpoints,
        file,
    })
}

fn parse_broker(v: &Value) -> Result<(BrokerId, Option<u64>), String> {
    let as_id = |v: &Value| -> Result<BrokerId, String> {
        v.as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("a broker id is a whole number from 0, not {v}"))
    };
    match v {
        Value::Number(_) => Ok((as_id(v)?, Some(0))),
        Value::Object(o) => {
            for k in o.keys() {
                if k != "id" && k != "start_ms" {
                    return Err(format!(
                        "unknown field \"{k}\", expected \"id\" or \"start_ms\""
                    ));
                }
            }
            let id = as_id(o.get("id").ok_or("\"id\" is required")?)?;
            let start = match o.get("start_ms") {
                None => Some(0),
                Some(Value::Null) => None,
                Some(t) => Some(check_time(
                    "start_ms",
                    t.as_u64().ok_or_else(|| {
                        format!("start_ms must be a whole number or null, not {t}")
                    })?,
                )?),
            };
            Ok((id, start))
        }
        other => Err(format!(
            "a broker is an id or {{\"id\": N, \"start_ms\": T}}, not {other}"
        )),
    }
}

/// Kafka's legal topic names: letters, digits, `.`, `_`, `-`, at most 249 characters.
fn check_topic_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 249 {
        return Err("a topic name has 1 to 249 characters".into());
    }
    if name == "." || name == ".." {
        return Err(format!("\"{name}\" is not a legal topic name"));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return Err(format!(
            "topic name \"{name}\" has '{c}': only letters, digits, '.', '_' and '-' are legal"
        ));
    }
    if name.starts_with("__") {
        return Err(format!(
            "\"{name}\": names starting with \"__\" are Kafka's internal topics"
        ));
    }
    Ok(())
}

fn parse_topic(t: &TopicFile, brokers: &[BrokerId], rng: &mut Rng) -> Result<TopicSpec, String> {
    check_topic_name(&t.name)?;
    let replicas = match (&t.replicas, t.partitions, t.replication_factor) {
        (Some(r), None, None) => {
            if r.is_empty() {
                return Err("\"replicas\" needs at least one partition".into());
            }
            for (p, list) in r.iter().enumerate() {
                if list.is_empty() {
                    return Err(format!("partition {p} needs at least one replica"));
                }
                let mut seen = VecSet::new();
                for b in list {
                    if !brokers.contains(b) {
                        return Err(format!("partition {p}: there is no broker {b}"));
                    }
                    if !seen.insert(b) {
                        return Err(format!("partition {p}: broker {b} is listed twice"));
                    }
                }
            }
            r.clone()
        }
        (None, Some(p), Some(rf)) => {
            if p as usize > MAX_PARTITIONS {
                return Err(format!("at most {MAX_PARTITIONS} partitions, not {p}"));
            }
            assign(brokers, p, rf, Start::Random, rng)?
        }
        (None, Some(_), None) | (None, None, Some(_)) => {
            return Err("\"partitions\" and \"replication_factor\" go together".into())
        }
        (None, None, None) => {
            return Err(
                "a topic needs \"replicas\", or \"partitions\" and \"replication_factor\"".into(),
            )
        }
        _ => {
            return Err(
                "give either \"replicas\" or \"partitions\" and \"replication_factor\", not both"
                    .into(),
            )
        }
    };
    let mut config = TopicConfig::default();
    for (k, v) in &t.config {
        config.set(k, v).map_err(|e| format!("config: {e}"))?;
    }
    Ok(TopicSpec {
        name: t.name.clone(),
        replicas,
        config,
    })
}
