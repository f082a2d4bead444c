//! Embedding the playground in another page, as plain data: the options of the JavaScript
//! API's `mount` (turned into the same `(key, value)` pairs a page address gives, so both go
//! through one parser with one set of messages), the allow-list of parent origins of an
//! embedded page (`parent=`), and the messages a parent page and an embedded playground
//! exchange with `postMessage` (docs/embedding.md).

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::fmt;

/// The latest virtual time `t=` may start an embedded playground at (ten minutes): the page
/// computes every millisecond before it, so this bounds how long opening the page takes.
pub const MAX_START_MS: u64 = 600_000;

/// The key that marks a message as the playground's, in both directions: `{"kafka-election":
/// "play"}`.
pub const MESSAGE_KEY: &str = "kafka-election";

/// One option's value as JavaScript writes it: a string, a number or a boolean. It becomes the
/// text a page address would carry.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamValue(pub String);

impl<'de> Deserialize<'de> for ParamValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ParamValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string, a number or a boolean")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<ParamValue, E> {
                Ok(ParamValue(if v { "1" } else { "0" }.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ParamValue, E> {
                Ok(ParamValue(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ParamValue, E> {
                Ok(ParamValue(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ParamValue, E> {
                // 3.0 reads "3", 0.25 "0.25": as a page address would write them.
                Ok(ParamValue(v.to_string()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ParamValue, E> {
                Ok(ParamValue(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// The options of `KafkaElection.mount(element, options)`. Each is the page parameter of the
/// same name (docs/using.md, "Stories and page addresses", and docs/embedding.md); an unknown
/// one is an error.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MountOptions {
    /// A story by name.
    #[serde(default)]
    pub story: Option<ParamValue>,
    /// A shared session (a share link's `session` value).
    #[serde(default)]
    pub session: Option<ParamValue>,
    /// The Kafka release imitated.
    #[serde(default)]
    pub profile: Option<ParamValue>,
    /// The speed, one of the page's speeds.
    #[serde(default)]
    pub speed: Option<ParamValue>,
    /// Start with the clock stopped.
    #[serde(default)]
    pub paused: Option<ParamValue>,
    /// Compact chrome.
    #[serde(default)]
    pub embed: Option<ParamValue>,
    /// `false` hides the controls (embed mode).
    #[serde(default)]
    pub controls: Option<ParamValue>,
    /// `false` starts paused (embed mode).
    #[serde(default)]
    pub autoplay: Option<ParamValue>,
    /// Start at this virtual time, paused.
    #[serde(default)]
    pub t: Option<ParamValue>,
    /// Free play's seed.
    #[serde(default)]
    pub seed: Option<ParamValue>,
    /// Free play's broker count.
    #[serde(default)]
    pub brokers: Option<ParamValue>,
    /// Free play's partition count.
    #[serde(default)]
    pub partitions: Option<ParamValue>,
    /// Free play's replication factor.
    #[serde(default)]
    pub rf: Option<ParamValue>,
    /// Free play's starting consumers.
    #[serde(default)]
    pub consumers: Option<ParamValue>,
    /// Free play's assignor.
    #[serde(default)]
    pub assignor: Option<ParamValue>,
    /// The page's language: `en` or `zh-CN`.
    #[serde(default)]
    pub lang: Option<ParamValue>,
    /// A committed lesson, by id.
    #[serde(default)]
    pub lesson: Option<ParamValue>,
    /// `lessons`: the lesson list.
    #[serde(default)]
    pub view: Option<ParamValue>,
}

impl MountOptions {
    /// Reads the options from JSON (the API's options object as JSON); an unknown option or a
    /// value that is not a string, a number or a boolean is named.
    pub fn from_json(value: Value) -> Result<MountOptions, String> {
        if value.is_null() {
            return Ok(MountOptions::default());
        }
        if !value.is_object() {
            return Err(
                "the options are an object, such as {story: \"controller-crash\", embed: true}"
                    .to_string(),
            );
        }
        serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner().to_string();
            if path == "." || path == "?" {
                format!("options: {inner}")
            } else {
                format!("option {path}: {inner}")
            }
        })
    }

    /// The options as page-address pairs, in a fixed order.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        [
            ("story", &self.story),
            ("session", &self.session),
            ("profile", &self.profile),
            ("speed", &self.speed),
            ("paused", &self.paused),
            ("embed", &self.embed),
            ("controls", &self.controls),
            ("autoplay", &self.autoplay),
            ("t", &self.t),
            ("seed", &self.seed),
            ("brokers", &self.brokers),
            ("partitions", &self.partitions),
            ("rf", &self.rf),
            ("consumers", &self.consumers),
            ("assignor", &self.assignor),
            ("lang", &self.lang),
            ("lesson", &self.lesson),
            ("view", &self.view),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k.to_string(), v.0.clone())))
        .collect()
    }
}

/// Reads a switch parameter (`embed=1`, `controls=0`): anything but `0` and `false` is on.
pub fn switch_on(value: &str) -> bool {
    value != "0" && value != "false"
}

/// Reads `parent=<origin>[,<origin>...]`: each an origin as a browser writes it
/// (`https://docs.example`, `http://127.0.0.1:8000`: a scheme, a host, perhaps a port, no
/// path).
pub fn parse_origins(value: &str) -> Result<Vec<String>, String> {
    let mut origins = Vec::new();
    for part in value.split(',').map(str::trim) {
        let rest = part
            .strip_prefix("https://")
            .or_else(|| part.strip_prefix("http://"));
        let valid = rest.is_some_and(|host| {
            !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        });
        if !valid {
            return Err(format!(
                "parent must be one or more origins separated by commas, each like https://docs.example or http://127.0.0.1:8000 (no path), not \"{part}\""
            ));
        }
        if !origins.iter().any(|o| o == part) {
            origins.push(part.to_string());
        }
    }
    Ok(origins)
}

/// What a parent page asks of an embedded playground.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `{"kafka-election": "play"}`: run the clock.
    Play,
    /// `{"kafka-election": "pause"}`: stop it.
    Pause,
    /// `{"kafka-election": "seek", "ms": 5000}`: go to this virtual time.
    Seek(u64),
    /// `{"kafka-election": "apply", "command": {"do": "crash", "broker": 2}}`.
    Apply(Value),
    /// `{"kafka-election": "state"}`: answered with the state.
    State,
}

/// The requests a parent page may send.
pub const REQUESTS: [&str; 5] = ["play", "pause", "seek", "apply", "state"];

/// Reads a message a parent page posted. `Ok(None)`: not the playground's (no
/// [`MESSAGE_KEY`]), to be ignored; `Err`: the playground's, but wrong (answered with the
/// message). The request's optional `"id"` is echoed in the answer.
pub fn parse_request(message: &Value) -> Result<Option<(Request, Option<Value>)>, String> {
    let Some(obj) = message.as_object() else {
        return Ok(None);
    };
    let Some(kind) = obj.get(MESSAGE_KEY) else {
        return Ok(None);
    };
    let id = obj.get("id").cloned();
    let Some(kind) = kind.as_str() else {
        return Err(format!(
            "\"{MESSAGE_KEY}\" names a request ({}), not {kind}",
            REQUESTS.join(", ")
        ));
    };
    let allowed: &[&str] = match kind {
        "seek" => &["ms"],
        "apply" => &["command"],
        _ => &[],
    };
    if let Some(extra) = obj
        .keys()
        .find(|k| *k != MESSAGE_KEY && *k != "id" && !allowed.contains(&k.as_str()))
    {
        return Err(format!(
            "field \"{extra}\" does not apply to the request \"{kind}\""
        ));
    }
    let request = match kind {
        "play" => Request::Play,
        "pause" => Request::Pause,
        "state" => Request::State,
        "seek" => match obj.get("ms").and_then(Value::as_u64) {
            Some(ms) => Request::Seek(ms),
            None => {
                return Err(
                    "\"seek\" needs \"ms\", a whole number of virtual milliseconds".to_string(),
                )
            }
        },
        "apply" => match obj.get("command") {
            Some(c) => Request::Apply(c.clone()),
            None => {
                return Err(
                    "\"apply\" needs \"command\", e.g. {\"do\": \"crash\", \"broker\": 2}"
                        .to_string(),
                )
            }
        },
        other => {
            return Err(format!(
                "unknown request \"{other}\"; the requests are {}",
                REQUESTS.join(", ")
            ))
        }
    };
    Ok(Some((request, id)))
}

/// A message the playground posts to its parent: `{"kafka-election": kind, ...fields}`, with
/// the request's `id` when it answers one that had it.
pub fn message(kind: &str, id: Option<&Value>, fields: Vec<(&str, Value)>) -> Value {
    let mut obj = Map::new();
    obj.insert(MESSAGE_KEY.to_string(), json!(kind));
    if let Some(id) = id {
        obj.insert("id".to_string(), id.clone());
    }
    for (k, v) in fields {
        obj.insert(k.to_string(), v);
    }
    Value::Object(obj)
}

/// Whether the timeline, whose end is at `end`, can show `ms`: any time back, and at most
/// [`MAX_START_MS`] past the end at once (the page computes every millisecond on the way).
pub fn check_seek(end: u64, ms: u64) -> Result<(), String> {
    if ms > end.saturating_add(MAX_START_MS) {
        Err(format!(
            "cannot seek to {ms} ms: one seek moves at most {MAX_START_MS} ms past the session's end (it is at {end} ms)"
        ))
    } else {
        Ok(())
    }
}
