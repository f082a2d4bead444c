//! The timed actions of a scenario: each `{"at_ms": …, "do": …}` as written, the fields each
//! action takes, and the [`Command`] it stands for. What the world's state decides (is the
//! broker running?) is checked when the action applies; what the layout decides (is there such
//! a topic?) when the scenario is parsed.

use super::check_time;
use crate::sim::{Acks, BrokerId, Command, Endpoint, Settings};
use serde::Deserialize;
use serde_json::Value;

fn some_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
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
const ACTIONS: [(&str, &[&str]); 18] = [
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
    ("stop_producing", &["topic", "partition"]),
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
            "stop_producing" => Command::StopProducing {
                topic: self
                    .topic
                    .clone()
                    .ok_or("\"stop_producing\" needs \"topic\"")?,
                partition: self
                    .partition
                    .ok_or("\"stop_producing\" needs \"partition\"")?,
            },
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

/// The action object a scenario file writes for `cmd` at `at_ms` (the inverse of
/// [`ActionSpec::to_command`]): `{"at_ms": 1000, "do": "crash", "broker": 1}`. A session
/// exported from the page is written with it.
pub fn to_action(at_ms: u64, cmd: &Command) -> Value {
    use serde_json::{json, Map};
    let mut o = Map::new();
    o.insert("at_ms".into(), json!(at_ms));
    let mut put = |k: &str, v: Value| {
        o.insert(k.into(), v);
    };
    let scope = |put: &mut dyn FnMut(&str, Value), t: &Option<String>, p: &Option<u32>| {
        if let Some(t) = t {
            put("topic", json!(t));
        }
        if let Some(p) = p {
            put("partition", json!(p));
        }
    };
    let name = match cmd {
        Command::Start(b) => {
            put("broker", json!(b));
            "start"
        }
        Command::Crash(b) => {
            put("broker", json!(b));
            "crash"
        }
        Command::Shutdown(b) => {
            put("broker", json!(b));
            "shutdown"
        }
        Command::Pause { broker, for_ms } => {
            put("broker", json!(broker));
            put("for_ms", json!(for_ms));
            "pause"
        }
        Command::ExpireSession(b) => {
            put("broker", json!(b));
            "expire_session"
        }
        Command::Cut(a, b) | Command::Heal(a, b) => {
            put("from", json!(a));
            put("to", json!(b));
            if matches!(cmd, Command::Cut(..)) {
                "cut"
            } else {
                "heal"
            }
        }
        Command::Produce {
            topic,
            partition,
            records,
            acks,
            rate_per_s,
            for_ms,
        } => {
            put("topic", json!(topic));
            put("partition", json!(partition));
            if let Some(r) = records {
                put("records", json!(r));
            }
            put("acks", json!(acks.name()));
            if let Some(r) = rate_per_s {
                put("rate_per_s", json!(r));
            }
            if let Some(f) = for_ms {
                put("for_ms", json!(f));
            }
            "produce"
        }
        Command::StopProducing { topic, partition } => {
            put("topic", json!(topic));
            put("partition", json!(partition));
            "stop_producing"
        }
        Command::StallFetcher {
            broker,
            topic,
            partition,
        }
        | Command::ResumeFetcher {
            broker,
            topic,
            partition,
        } => {
            put("broker", json!(broker));
            scope(&mut put, topic, partition);
            if matches!(cmd, Command::StallFetcher { .. }) {
                "stall_fetcher"
            } else {
                "resume_fetcher"
            }
        }
        Command::SetConfig { key, value, topic } => {
            put("key", json!(key));
            put("value", value.clone());
            if let Some(t) = topic {
                put("topic", json!(t));
            }
            "set_config"
        }
        Command::PreferredElection { topic, partition } => {
            scope(&mut put, topic, partition);
            "preferred_election"
        }
        Command::Reassign {
            topic,
            partition,
            replicas,
        } => {
            put("topic", json!(topic));
            put("partition", json!(partition));
            put("replicas", json!(replicas));
            "reassign"
        }
        Command::Join { group, member }
        | Command::Leave { group, member }
        | Command::CrashConsumer { group, member } => {
            put("group", json!(group));
            put("member", json!(member));
            match cmd {
                Command::Join { .. } => "join",
                Command::Leave { .. } => "leave",
                _ => "crash_consumer",
            }
        }
        Command::DeleteController => "delete_controller",
    };
    o.insert("do".into(), json!(name));
    Value::Object(o)
}

/// A command given now, outside a scenario file (the page's JavaScript API, a parent page's
/// message): an action object as the scenario format writes it, without `at_ms`, e.g.
/// `{"do": "crash", "broker": 2}`. It is read by the same [`ActionSpec`] and
/// [`ActionSpec::to_command`] as a file's actions, so a bad one gets the same message as the
/// command line gives for it; what the world's state decides is checked when it applies.
pub fn command_from_json(value: &Value, settings: &Settings) -> Result<Command, String> {
    let Value::Object(fields) = value else {
        return Err(format!(
            "a command is an object such as {{\"do\": \"crash\", \"broker\": 2}}, not {}",
            json_kind(value)
        ));
    };
    if fields.contains_key("at_ms") {
        return Err(
            "a command applies now: leave \"at_ms\" out (it belongs to a scenario file's actions)"
                .into(),
        );
    }
    let mut with_time = fields.clone();
    with_time.insert("at_ms".into(), Value::from(0u64));
    let spec: ActionSpec =
        serde_path_to_error::deserialize(Value::Object(with_time)).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner().to_string();
            if path == "." || path == "?" {
                inner
            } else {
                format!("{path}: {inner}")
            }
        })?;
    spec.to_command(settings)
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Array(_) => "a list",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Null => "null",
        Value::Object(_) => "an object",
    }
}
