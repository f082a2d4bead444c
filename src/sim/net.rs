//! The network between ZooKeeper, the brokers and the clients: endpoints, links, and the
//! [`Network`] that carries messages.
//!
//! Every message travels with a latency (`sim.network.latency.ms` plus seeded jitter) and
//! messages on one directed link arrive in the order they were sent, as on a TCP connection.
//! A cut link drops what it carries. The network keeps a [`MessageRecord`] of each message
//! for the page; what a message says stays with the world, which delivers it.

use super::label::Label;
use super::rng::Rng;
use crate::collections::{VecMap, VecSet};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;

/// How many message records the network keeps for the page.
pub const MESSAGE_HISTORY: usize = 4096;

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

impl Endpoint {
    /// How events name an endpoint: `zk`, the broker id, `producer`, `consumer-N` (as it
    /// serializes).
    pub fn short_name(self) -> String {
        match self {
            Endpoint::Zk => "zk".into(),
            Endpoint::Broker(b) => b.to_string(),
            Endpoint::Client => "producer".into(),
            Endpoint::Consumer(c) => format!("consumer-{c}"),
        }
    }
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
    /// A short name, e.g. `"ping"`, `"create /controller"`, `"UpdateMetadata (epoch 2)"`:
    /// `Label::english` of [`MessageRecord::words`].
    pub label: String,
    /// What the short name says, structured (the page says it in the reader's language).
    #[serde(skip)]
    pub words: Label,
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
    /// Whether it is a fetch answered with no records (a caught-up follower polling).
    #[serde(skip)]
    pub empty_fetch: bool,
}

/// What the record of a message shows of it: its sender and receiver and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    /// The sender.
    pub from: Endpoint,
    /// The receiver.
    pub to: Endpoint,
    /// What it is, as its short name says it (see [`MessageRecord::words`]).
    pub words: Label,
    /// Broad class for colouring (see [`MessageRecord::class`]).
    pub class: &'static str,
    /// Whether it answers an earlier message.
    pub reply: bool,
    /// Whether it is a fetch answered with no records.
    pub empty_fetch: bool,
}

/// A message the network took: its id, and when it arrives unless a cut link drops it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sent {
    /// The message's running number.
    pub id: u64,
    /// When it reaches the receiver; `None` when it went into a cut link and is lost.
    pub arrive_ms: Option<u64>,
}

/// The links between endpoints: which are cut, when the last message on each directed link
/// arrives, and the records of the latest messages.
#[derive(Debug, Clone, Default)]
pub struct Network {
    cut: VecSet<(Endpoint, Endpoint)>,
    last_arrival: VecMap<(Endpoint, Endpoint), u64>,
    /// Brokers whose ZooKeeper connection lost a message to a cut link.
    zk_conn_lost: VecSet<BrokerId>,
    messages: VecDeque<MessageRecord>,
    next_msg: u64,
}

impl Network {
    /// Whether the link between two endpoints is cut.
    pub fn is_cut(&self, a: Endpoint, b: Endpoint) -> bool {
        self.cut.contains(&link(a, b))
    }

    /// Cuts the link between two endpoints: it drops every message, in flight or new.
    pub fn cut(&mut self, a: Endpoint, b: Endpoint) {
        self.cut.insert(link(a, b));
    }

    /// Restores the link between two endpoints. When it joins a broker to ZooKeeper and that
    /// connection lost a message meanwhile, returns the broker: its connection is reset now.
    pub fn heal(&mut self, a: Endpoint, b: Endpoint) -> Option<BrokerId> {
        self.cut.remove(&link(a, b));
        match (a, b) {
            (Endpoint::Zk, Endpoint::Broker(x)) | (Endpoint::Broker(x), Endpoint::Zk) => {
                self.zk_conn_lost.remove(&x).then_some(x)
            }
            _ => None,
        }
    }

    /// A running number for a message that never goes on the wire (it gets no record).
    pub fn next_id(&mut self) -> u64 {
        let id = self.next_msg;
        self.next_msg += 1;
        id
    }

    /// Sends a message at `now`: it arrives after `latency_ms` plus a jitter drawn from `rng`
    /// in `0..=jitter_ms` (nothing is drawn for a message to oneself, which arrives at once),
    /// never before the message sent before it on the same directed link. Into a cut link it
    /// is recorded as dropped and lost.
    pub fn send(
        &mut self,
        now: u64,
        envelope: Envelope,
        latency_ms: u64,
        jitter_ms: u64,
        rng: &mut Rng,
    ) -> Sent {
        let Envelope {
            from,
            to,
            words,
            class,
            reply,
            empty_fetch,
        } = envelope;
        let id = self.next_id();
        let arrive = if from == to {
            now
        } else {
            let latency = latency_ms + rng.up_to(jitter_ms);
            // One directed link is one TCP connection: messages arrive in the order sent.
            let last = self.last_arrival.get(&(from, to)).copied().unwrap_or(0);
            let at = (now + latency).max(last);
            self.last_arrival.insert((from, to), at);
            at
        };
        let dropped = self.is_cut(from, to);
        self.messages.push_back(MessageRecord {
            id,
            from,
            to,
            label: words.english(),
            words,
            class,
            reply,
            sent_ms: now,
            arrive_ms: arrive,
            dropped,
            empty_fetch,
        });
        if self.messages.len() > MESSAGE_HISTORY {
            self.messages.pop_front();
        }
        if dropped {
            self.lost_on_link(from, to);
        }
        Sent {
            id,
            arrive_ms: (!dropped).then_some(arrive),
        }
    }

    /// A message in flight on a link that was cut meanwhile: it is lost.
    pub fn lose(&mut self, msg: u64, from: Endpoint, to: Endpoint) {
        self.lost_on_link(from, to);
        self.mark_dropped(msg);
    }

    fn lost_on_link(&mut self, from: Endpoint, to: Endpoint) {
        if let (Endpoint::Zk, Endpoint::Broker(b)) | (Endpoint::Broker(b), Endpoint::Zk) =
            (from, to)
        {
            self.zk_conn_lost.insert(b);
        }
    }

    /// Marks a message's record as dropped (no process read it).
    pub fn mark_dropped(&mut self, msg: u64) {
        // Found by id, not by offset: a message that never went on the wire (the reset of a
        // ZooKeeper connection) has an id but no record.
        let i = self.messages.partition_point(|m| m.id < msg);
        if let Some(m) = self.messages.get_mut(i).filter(|m| m.id == msg) {
            m.dropped = true;
        }
    }

    /// The most recent messages (up to [`MESSAGE_HISTORY`]), oldest first.
    pub fn messages(&self) -> impl DoubleEndedIterator<Item = &MessageRecord> + ExactSizeIterator {
        self.messages.iter()
    }

    /// Forgets the kept message records (what the page draws in flight); nothing the
    /// simulation decides reads them, and ids go on from where they were.
    pub fn forget_messages(&mut self) {
        self.messages = VecDeque::new();
    }

    /// The kept messages whose id is `id` or later, oldest first (found by a binary search).
    pub fn messages_since(
        &self,
        id: u64,
    ) -> impl DoubleEndedIterator<Item = &MessageRecord> + ExactSizeIterator {
        let skip = self.messages.partition_point(|m| m.id < id);
        self.messages.range(skip..)
    }
}
