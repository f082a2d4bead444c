//! Scenario files (version 1): the whole input of one simulation (described in
//! `docs/scenario-format.md`). Parsed with serde, unknown keys rejected; every problem is
//! reported as one line naming the place and what is wrong, and nothing runs.

use crate::sim::assignment::{assign, Start};
use crate::sim::assignors::Assignor;
use crate::sim::commands::{check, offsets_topic, GroupSpec, Layout};
use crate::sim::history::History;
use crate::sim::rng::Rng;
use crate::sim::{
    Acks, BrokerId, ClusterState, Command, Endpoint, Event, Profile, Settings, Setup, TopicConfig,
    TopicSpec, World,
};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The most brokers a scenario may list.
pub const MAX_BROKERS: usize = 64;

/// The latest virtual time a scenario may name (one day): it bounds how long a run can take.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// Checks that a time is within [`MAX_TIME_MS`].
pub fn check_time(what: &str, ms: u64) -> Result<u64, String> {
    if ms > MAX_TIME_MS {
        Err(format!(
            "{what} {ms} is past the longest run a scenario may have ({MAX_TIME_MS} ms, one day)"
        ))
    } else {
        Ok(ms)
    }
}

/// A problem with a scenario: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The place, e.g. `actions[2]` (empty for the whole file).
    pub place: String,
    /// What is wrong.
    pub message: String,
}

impl ScenarioError {
    fn at(place: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            place: place.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.place.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.place, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

fn some_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A scenario file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Format version; must be 1.
    pub version: u32,
    /// Short machine name.
    #[serde(default)]
    pub name: Option<String>,
    /// Title for people.
    #[serde(default)]
    pub title: Option<String>,
    /// What the scenario shows.
    #[serde(default)]
    pub description: Option<String>,
    /// Seed of the world's RNG.
    #[serde(default)]
    pub seed: u64,
    /// Kafka release whose rules apply (default "3.9").
    #[serde(default)]
    pub profile: Option<String>,
    /// Setting overrides.
    #[serde(default)]
    pub config: BTreeMap<String, Value>,
    /// Broker ids, or `{"id": N, "start_ms": T}`.
    pub brokers: Vec<Value>,
    /// Topics, created once the brokers listed at t=0 are up.
    #[serde(default)]
    pub topics: Vec<TopicFile>,
    /// Consumer groups; with any, `__consumer_offsets` is created along with the topics.
    #[serde(default)]
    pub groups: Vec<GroupFile>,
    /// Timed actions, in time order.
    #[serde(default)]
    pub actions: Vec<ActionSpec>,
    /// When the run ends.
    #[serde(default)]
    pub until_ms: Option<u64>,
    /// Checkpoints.
    #[serde(default)]
    pub expect: Vec<Map<String, Value>>,
}

/// The most partitions a scenario's topics may have in all.
pub const MAX_PARTITIONS: usize = 256;

/// A topic as written: explicit `replicas`, or `partitions` and `replication_factor`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicFile {
    /// The topic's name.
    pub name: String,
    /// Each partition's replicas in assignment order.
    #[serde(default)]
    pub replicas: Option<Vec<Vec<BrokerId>>>,
    /// How many partitions (with `replication_factor`).
    #[serde(default)]
    pub partitions: Option<u32>,
    /// How many replicas each.
    #[serde(default)]
    pub replication_factor: Option<u32>,
    /// Topic-level settings.
    #[serde(default)]
    pub config: BTreeMap<String, Value>,
}

/// A consumer group as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupFile {
    /// The group id.
    pub id: String,
    /// The topics its members subscribe to.
    pub topics: Vec<String>,
    /// `range` (the default) or `roundrobin`.
    #[serde(default)]
    pub assignor: Option<String>,
}

/// One action as written: `{"at_ms": 1000, "do": "crash", "broker": 1}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    /// When.
    pub at_ms: u64,
    /// What.
    #[serde(rename = "do")]
    pub action: String,
    /// The broker acted on.
    #[serde(default)]
    pub broker: Option<BrokerId>,
    /// How long a pause lasts.
    #[serde(default)]
    pub for_ms: Option<u64>,
    /// One end of a link.
    #[serde(default)]
    pub from: Option<Endpoint>,
    /// The other end.
    #[serde(default)]
    pub to: Option<Endpoint>,
    /// The topic acted on.
    #[serde(default)]
    pub topic: Option<String>,
    /// The partition acted on.
    #[serde(default)]
    pub partition: Option<u32>,
    /// How many records to produce.
    #[serde(default)]
    pub records: Option<u64>,
    /// The producer's acks: `"0"`, `"1"` or `"all"` (default: the profile's).
    #[serde(default)]
    pub acks: Option<String>,
    /// A steady stream's rate.
    #[serde(default)]
    pub rate_per_s: Option<u64>,
    /// The setting to change.
    #[serde(default)]
    pub key: Option<String>,
    /// Its new value.
    #[serde(default, deserialize_with = "some_value")]
    pub value: Option<Value>,
    /// A reassignment's target replicas.
    #[serde(default)]
    pub replicas: Option<Vec<BrokerId>>,
    /// The consumer group acted on.
    #[serde(default)]
    pub group: Option<String>,
    /// The consumer (its client id).
    #[serde(default)]
    pub member: Option<String>,
    /// A static member's `group.instance.id` (KIP-345): not simulated.
    #[serde(default)]
    pub instance_id: Option<Value>,
}

/// The actions of the format, with the fields each takes.
const ACTIONS: [(&str, &[&str]); 17] = [
    ("crash", &["broker"]),
    ("start", &["broker"]),
    ("shutdown", &["broker"]),
    ("pause", &["broker", "for_ms"]),
    ("expire_session", &["broker"]),
    ("cut", &["from", "to"]),
    ("heal", &["from", "to"]),
    ("stall_fetcher", &["broker", "topic", "partition"]),
    ("resume_fetcher", &["broker", "topic", "partition"]),
    (
        "produce",
        &[
            "topic",
            "partition",
            "records",
            "acks",
            "rate_per_s",
            "for_ms",
        ],
    ),
    ("set_config", &["key", "value", "topic"]),
    ("preferred_election", &["topic", "partition"]),
    ("reassign", &["topic", "partition", "replicas"]),
    ("join", &["group", "member", "instance_id"]),
    ("leave", &["group", "member"]),
    ("crash_consumer", &["group", "member"]),
    ("delete_controller", &[]),
];

impl ActionSpec {
    fn present_fields(&self) -> Vec<&'static str> {
        let mut f = Vec::new();
        let mut add = |name: &'static str, present: bool| {
            if present {
                f.push(name)
            }
        };
        add("broker", self.broker.is_some());
        add("for_ms", self.for_ms.is_some());
        add("from", self.from.is_some());
        add("to", self.to.is_some());
        add("topic", self.topic.is_some());
        add("partition", self.partition.is_some());
        add("records", self.records.is_some());
        add("acks", self.acks.is_some());
        add("rate_per_s", self.rate_per_s.is_some());
        add("key", self.key.is_some());
        add("value", self.value.is_some());
        add("replicas", self.replicas.is_some());
        add("group", self.group.is_some());
        add("member", self.member.is_some());
        add("instance_id", self.instance_id.is_some());
        f
    }

    /// The command this action stands for.
    pub fn to_command(&self, settings: &Settings) -> Result<Command, String> {
        let known = ACTIONS.iter().find(|(n, _)| *n == self.action);
        let fields = match known {
            None => {
                return Err(format!(
                    "unknown action \"{}\"; the actions are {}",
                    self.action,
                    ACTIONS.map(|(n, _)| n).join(", ")
                ))
            }
            Some((_, fields)) => fields,
        };
        for f in self.present_fields() {
            if !fields.contains(&f) {
                return Err(if fields.is_empty() {
                    format!(
                        "field \"{f}\" does not apply to \"{}\" (it takes none)",
                        self.action
                    )
                } else {
                    format!(
                        "field \"{f}\" does not apply to \"{}\" (it takes {})",
                        self.action,
                        fields.join(", ")
                    )
                });
            }
        }
        let broker = || {
            self.broker
                .ok_or_else(|| format!("\"{}\" needs \"broker\"", self.action))
        };
        let ends = || match (self.from, self.to) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(format!("\"{}\" needs \"from\" and \"to\"", self.action)),
        };
        Ok(match self.action.as_str() {
            "crash" => Command::Crash(broker()?),
            "delete_controller" => Command::DeleteController,
            "start" => Command::Start(broker()?),
            "shutdown" => Command::Shutdown(broker()?),
            "expire_session" => Command::ExpireSession(broker()?),
            "pause" => {
                let for_ms = self.for_ms.ok_or("\"pause\" needs \"for_ms\"")?;
                if for_ms == 0 {
                    return Err("\"for_ms\" must be at least 1".into());
                }
                check_time("for_ms", for_ms)?;
                Command::Pause {
                    broker: broker()?,
                    for_ms,
                }
            }
            "cut" => {
                let (a, b) = ends()?;
                Command::Cut(a, b)
            }
            "heal" => {
                let (a, b) = ends()?;
                Command::Heal(a, b)
            }
            "stall_fetcher" | "resume_fetcher" => {
                let (broker, topic, partition) = (broker()?, self.topic.clone(), self.partition);
                if topic.is_none() && partition.is_some() {
                    return Err("\"partition\" needs \"topic\"".into());
                }
                if self.action == "stall_fetcher" {
                    Command::StallFetcher {
                        broker,
                        topic,
                        partition,
                    }
                } else {
                    Command::ResumeFetcher {
                        broker,
                        topic,
                        partition,
                    }
                }
            }
            "produce" => {
                let topic = self.topic.clone().ok_or("\"produce\" needs \"topic\"")?;
                let partition = self.partition.ok_or("\"produce\" needs \"partition\"")?;
                let acks = match &self.acks {
                    Some(a) => Acks::parse(a)?,
                    None => settings.default_acks(),
                };
                if self.records.is_none() && self.rate_per_s.is_none() {
                    return Err(
                        "\"produce\" needs \"records\", or \"rate_per_s\" for a steady stream"
                            .into(),
                    );
                }
                if let Some(f) = self.for_ms {
                    check_time("for_ms", f)?;
                }
                Command::Produce {
                    topic,
                    partition,
                    records: self.records,
                    acks,
                    rate_per_s: self.rate_per_s,
                    for_ms: self.for_ms,
                }
            }
            "set_config" => Command::SetConfig {
                key: self.key.clone().ok_or("\"set_config\" needs \"key\"")?,
                value: self.value.clone().ok_or("\"set_config\" needs \"value\"")?,
                topic: self.topic.clone(),
            },
            "preferred_election" => {
                if self.topic.is_none() && self.partition.is_some() {
                    return Err("\"partition\" needs \"topic\"".into());
                }
                Command::PreferredElection {
                    topic: self.topic.clone(),
                    partition: self.partition,
                }
            }
            "join" | "leave" | "crash_consumer" => {
                let group = self
                    .group
                    .clone()
                    .ok_or_else(|| format!("\"{}\" needs \"group\"", self.action))?;
                let member = self
                    .member
                    .clone()
                    .ok_or_else(|| format!("\"{}\" needs \"member\"", self.action))?;
                if self.instance_id.is_some() {
                    return Err("static membership (\"instance_id\", KIP-345) is not simulated: leave it out".into());
                }
                match self.action.as_str() {
                    "join" => Command::Join { group, member },
                    "leave" => Command::Leave { group, member },
                    _ => Command::CrashConsumer { group, member },
                }
            }
            "reassign" => Command::Reassign {
                topic: self.topic.clone().ok_or("\"reassign\" needs \"topic\"")?,
                partition: self.partition.ok_or("\"reassign\" needs \"partition\"")?,
                replicas: self
                    .replicas
                    .clone()
                    .ok_or("\"reassign\" needs \"replicas\"")?,
            },
            _ => unreachable!("every action with fields is handled above"),
        })
    }
}

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

/// A validated scenario, ready to run.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The file as written.
    pub file: ScenarioFile,
    /// The world's setup.
    pub setup: Setup,
    /// Actions with their times, in order.
    pub actions: Vec<(u64, Command)>,
    /// When the run ends.
    pub until_ms: u64,
    /// Checkpoints in time order.
    pub checkpoints: Vec<Checkpoint>,
}

/// Parses and validates a scenario. Nothing runs when this fails.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    match serde_json::from_str::<Value>(text) {
        Err(e) => return Err(ScenarioError::at("", format!("not valid JSON: {e}"))),
        Ok(Value::Object(_)) => {}
        Ok(other) => {
            let what = match other {
                Value::Array(_) => "a list",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                Value::Bool(_) => "a boolean",
                _ => "null",
            };
            return Err(ScenarioError::at(
                "",
                format!("a scenario is a JSON object ({{\"version\": 1, ...}}), not {what}"),
            ));
        }
    }
    let de = &mut serde_json::Deserializer::from_str(text);
    let file: ScenarioFile = serde_path_to_error::deserialize(de).map_err(|e| {
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
    })?;
    validate(file)
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
    let mut ids = BTreeSet::new();
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
    let mut partition_names: BTreeSet<String> = topics
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
    let group_ids: BTreeSet<String> = groups.iter().map(|g| g.id.clone()).collect();
    if !groups.is_empty() {
        partition_names.extend(
            (0..settings.offsets_topic_num_partitions).map(|p| format!("__consumer_offsets-{p}")),
        );
    }

    let mut actions = Vec::new();
    let mut last = 0;
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
        actions.push((a.at_ms, cmd));
    }

    let template =
        serde_json::to_value(World::new(&Setup::with_brokers(0, Settings::default(), 1)).state())
            .expect("the state serializes");
    let broker_keys: BTreeSet<String> = template["brokers"]["1"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let mut checkpoints = Vec::new();
    let mut last_expect = 0;
    for (i, e) in file.expect.iter().enumerate() {
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
    Ok(Scenario {
        setup: Setup {
            seed: file.seed,
            settings,
            brokers,
            topics,
            groups,
        },
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
                let mut seen = BTreeSet::new();
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

/// A scenario being run: the world and how far through the actions it is.
#[derive(Debug, Clone)]
pub struct Runner {
    /// The world.
    pub world: World,
    actions: Vec<(u64, Command)>,
    next: usize,
}

impl Runner {
    /// A fresh run of `scenario`.
    pub fn new(scenario: &Scenario) -> Runner {
        Runner {
            world: World::new(&scenario.setup),
            actions: scenario.actions.clone(),
            next: 0,
        }
    }

    /// A run of a plain world with no scripted actions (free play on the page).
    pub fn free(world: World) -> Runner {
        Runner {
            world,
            actions: Vec::new(),
            next: 0,
        }
    }

    /// Runs to `t`, applying the actions due on the way. An action that cannot apply (say,
    /// crashing a broker that is not running) stops the run with a message naming it.
    pub fn advance_to(&mut self, t: u64) -> Result<(), ScenarioError> {
        while let Some((at, cmd)) = self.due(t) {
            self.world.advance_to(at);
            self.world.apply(cmd).map_err(|e| {
                ScenarioError::at(format!("actions[{}] (at {at} ms)", self.next), e)
            })?;
            self.next += 1;
        }
        self.world.advance_to(t);
        Ok(())
    }

    /// Runs to `t` like [`Runner::advance_to`], but an action that cannot apply (on the page a
    /// learner may already have crashed the broker a story was about to crash) is skipped;
    /// the messages of the skipped actions are returned.
    pub fn advance_to_skipping(&mut self, t: u64) -> Vec<String> {
        let mut skipped = Vec::new();
        while let Some((at, cmd)) = self.due(t) {
            self.world.advance_to(at);
            let what = cmd.to_string();
            if let Err(e) = self.world.apply(cmd) {
                skipped.push(format!("the story's next step ({what}) was skipped: {e}"));
            }
            self.next += 1;
        }
        self.world.advance_to(t);
        skipped
    }

    fn due(&self, t: u64) -> Option<(u64, Command)> {
        self.actions
            .get(self.next)
            .filter(|(at, _)| *at <= t)
            .cloned()
    }

    /// The scripted actions not applied yet, in order.
    pub fn upcoming(&self) -> &[(u64, Command)] {
        &self.actions[self.next.min(self.actions.len())..]
    }
}

impl Scenario {
    /// Runs every checkpoint and reports what differed.
    pub fn check(&self) -> Result<Vec<CheckResult>, ScenarioError> {
        let mut runner = Runner::new(self);
        let mut results = Vec::new();
        for cp in &self.checkpoints {
            runner.advance_to(cp.at_ms)?;
            results.push(CheckResult {
                at_ms: cp.at_ms,
                differences: compare_checkpoint(cp, &runner.world.state(), runner.world.events()),
            });
        }
        Ok(results)
    }
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
        let n = events
            .iter()
            .filter(|e| {
                want.iter()
                    .filter(|(k, _)| k.as_str() != "count")
                    .all(|(k, v)| e.get(k).is_some_and(|a| matches(k, v, a)))
            })
            .count() as u64;
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

/// The lists whose order means nothing: an ISR is a set (and so are the replicas an ISR change
/// adds or removes). Every other list is compared in order: a replica list, whose first member
/// is the preferred replica and whose order elections walk; a group's members, in its member
/// map's order.
const SET_KEYS: [&str; 3] = ["isr", "added", "removed"];

fn matches(key: &str, expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Array(options), a) if !a.is_array() => options.iter().any(|o| matches(key, o, a)),
        (Value::Array(want), Value::Array(got)) if SET_KEYS.contains(&key) => {
            let w: BTreeSet<String> = want.iter().map(Value::to_string).collect();
            let g: BTreeSet<String> = got.iter().map(Value::to_string).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text).map(|_| ()).unwrap_err().to_string()
    }

    const MINIMAL: &str = r#"{"version": 1, "brokers": [1, 2, 3]}"#;

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
        assert!(err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "crash", "broker": 7}]}"#)
            .contains("there is no broker 7"));
        assert!(err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 5, "do": "crash", "broker": 1}, {"at_ms": 1, "do": "start", "broker": 1}]}"#)
            .contains("time order"));
        assert!(err(r#"{"version": 2, "brokers": [1]}"#).starts_with("version"));
        assert!(err(r#"{"version": 1, "brokers": [1, 1]}"#).contains("listed twice"));
        assert!(
            err(r#"{"version": 1, "brokers": [1], "profile": "1.0"}"#).contains("unknown profile")
        );
        assert!(err(
            r#"{"version": 1, "brokers": [1], "config": {"zookeeper.session.timeout": 1}}"#
        )
        .starts_with("config: unknown setting"));
        assert!(err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "pause", "broker": 1}]}"#)
            .contains("for_ms"));
        assert!(err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "crash", "broker": 1, "for_ms": 5}]}"#)
            .contains("does not apply"));
        assert!(err(r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "explode", "broker": 1}]}"#)
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
    fn an_action_that_cannot_apply_stops_the_run_with_its_place() {
        let s = parse(
            r#"{"version": 1, "brokers": [1, 2], "actions": [
            {"at_ms": 1000, "do": "crash", "broker": 2},
            {"at_ms": 2000, "do": "crash", "broker": 2}]}"#,
        )
        .unwrap();
        let e = Runner::new(&s).advance_to(5000).unwrap_err().to_string();
        assert!(
            e.starts_with("actions[1] (at 2000 ms): broker 2 is not running"),
            "{e}"
        );
    }

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
    fn the_page_skips_a_story_step_that_no_longer_applies() {
        let s = parse(
            r#"{"version": 1, "brokers": [1, 2], "actions": [
            {"at_ms": 1000, "do": "crash", "broker": 2},
            {"at_ms": 2000, "do": "start", "broker": 2}]}"#,
        )
        .unwrap();
        let mut r = Runner::new(&s);
        r.advance_to(500).unwrap();
        assert_eq!(r.upcoming().len(), 2);
        r.world.apply(Command::Crash(2)).unwrap();
        let skipped = r.advance_to_skipping(1500);
        assert_eq!(skipped.len(), 1);
        assert!(
            skipped[0].contains("crash broker 2") && skipped[0].contains("not running"),
            "{skipped:?}"
        );
        assert_eq!(r.upcoming(), &[(2000, Command::Start(2))]);
        assert!(r.advance_to_skipping(2500).is_empty());
        assert!(r.upcoming().is_empty());
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

    const TOPIC: &str = r#""topics": [{"name": "T", "replicas": [[1, 2], [2, 1]]}]"#;

    fn with_topic(rest: &str) -> String {
        format!(r#"{{"version": 1, "brokers": [1, 2, 3], {TOPIC}{rest}}}"#)
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
        assert!(
            bad(r#"[{"name": "T", "replicas": [[1]], "partitons": 3}]"#).contains("unknown field")
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
            {"at_ms": 7, "do": "reassign", "topic": "T", "partition": 0, "replicas": [3, 1]}]"#))
        .unwrap();
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
        assert!(bad(
            r#"{"at_ms": 1, "do": "produce", "topic": "X", "partition": 0, "records": 1}"#
        )
        .contains("no topic \"X\""));
        assert!(bad(
            r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 2, "records": 1}"#
        )
        .contains("partitions 0..1, not 2"));
        assert!(
            bad(r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 0}"#)
                .contains("needs \"records\"")
        );
        assert!(bad(r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 0, "records": 1, "acks": "2"}"#)
            .contains("acks must be"));
        assert!(bad(
            r#"{"at_ms": 1, "do": "produce", "topic": "T", "partition": 0, "records": 0}"#
        )
        .contains("at least 1"));
        assert!(
            bad(r#"{"at_ms": 1, "do": "stall_fetcher", "broker": 2, "partition": 0}"#)
                .contains("needs \"topic\"")
        );
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
            bad(r#"{"at_ms": 1, "do": "crash", "broker": 1, "topic": "T"}"#)
                .contains("does not apply")
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
            bad(r#"[{"id": "g", "topics": ["T"], "assignor": "sticky"}]"#)
                .contains("unknown assignor")
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
    fn partition_checkpoints_are_validated() {
        let bad = |expect: &str| err(&with_topic(&format!(r#", "expect": [{expect}]"#)));
        assert!(bad(r#"{"at_ms": 1, "partitions": {"T-5": {"leader": 1}}}"#)
            .contains("no partition T-5"));
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
}
