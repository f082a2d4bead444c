//! The network between ZooKeeper and the brokers: endpoints, messages, links.
//!
//! Every message travels with a latency (`sim.network.latency.ms` plus seeded jitter) and
//! messages on one directed link arrive in the order they were sent, as on a TCP connection.
//! A cut link drops what it carries.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A broker's id, as in `broker.id`.
pub type BrokerId = u32;

/// One end of a link: the ZooKeeper ensemble or a broker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Endpoint {
    /// The ZooKeeper ensemble, modelled as one server.
    Zk,
    /// A broker.
    Broker(BrokerId),
    /// The producer client.
    Client,
    /// A consumer, by its index in the world.
    Consumer(u32),
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Zk => write!(f, "ZooKeeper"),
            Endpoint::Broker(b) => write!(f, "broker {b}"),
            Endpoint::Client => write!(f, "the producer"),
            Endpoint::Consumer(c) => write!(f, "consumer #{c}"),
        }
    }
}

impl Serialize for Endpoint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Endpoint::Zk => s.serialize_str("zk"),
            Endpoint::Broker(b) => s.serialize_u32(*b),
            Endpoint::Client => s.serialize_str("producer"),
            Endpoint::Consumer(c) => s.serialize_str(&format!("consumer-{c}")),
        }
    }
}

impl<'de> Deserialize<'de> for Endpoint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Id(u32),
            Name(String),
        }
        match Raw::deserialize(d) {
            Ok(Raw::Id(b)) => Ok(Endpoint::Broker(b)),
            Ok(Raw::Name(n)) if n == "zk" => Ok(Endpoint::Zk),
            Ok(Raw::Name(n)) => Err(serde::de::Error::custom(format!(
                "\"{n}\" is not an endpoint: use a broker id or \"zk\""
            ))),
            Err(_) => Err(serde::de::Error::custom(
                "an endpoint is a broker id or \"zk\"",
            )),
        }
    }
}

/// An unordered pair of endpoints: the link between them.
pub fn link(a: Endpoint, b: Endpoint) -> (Endpoint, Endpoint) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// What the page needs to draw one message: who sent it to whom, when, and what it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MessageRecord {
    /// Running number of the message, from 0.
    pub id: u64,
    /// The sender.
    pub from: Endpoint,
    /// The receiver.
    pub to: Endpoint,
    /// A short name, e.g. `"ping"`, `"create /controller"`, `"UpdateMetadata (epoch 2)"`.
    pub label: String,
    /// Broad class for colouring: `heartbeat`, `zookeeper`, `watch`, `request`, `response`.
    pub class: &'static str,
    /// Whether it answers an earlier message (a pong, a ZooKeeper reply, a response).
    pub reply: bool,
    /// Virtual time it left the sender.
    pub sent_ms: u64,
    /// Virtual time it reaches (or would have reached) the receiver.
    pub arrive_ms: u64,
    /// Whether it was sent into a cut link and will be lost.
    pub dropped: bool,
}
