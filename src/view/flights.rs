//! Messages in flight, as the page animates them.
//!
//! Real latencies are a few virtual milliseconds, far too quick to see, so every message is
//! drawn travelling for a fixed [`FLIGHT_MS`] of wall-clock time (whatever the speed),
//! starting at the moment that corresponds to the virtual time it was sent. The clock used
//! is the page's animation clock, which stands still while the simulation is paused. Only
//! the newest [`MAX_FLIGHTS`] are drawn so a fast run stays smooth. Replication's fetches
//! and the producer's requests come every few hundred virtual milliseconds, so on each link
//! only one in every [`SAMPLE_MS`] of animation time is drawn, and an idle fetch's empty
//! answer not at all: they must not drown the election's messages; a consumer's heartbeats
//! are sampled the same way. Nothing here decides anything about Kafka: it only follows the
//! world's [`MessageRecord`]s.
//!
//! [`MessageRecord`]: crate::sim::MessageRecord

use crate::collections::VecMap;
use crate::i18n::{msg_graph as g, Tr};
use crate::sim::{Endpoint, Label, WatchChange, World};
use std::collections::VecDeque;

/// How long one message takes to cross the graph, in wall-clock milliseconds.
pub const FLIGHT_MS: f64 = 600.0;

/// How many messages are drawn at once, at most.
pub const MAX_FLIGHTS: usize = 60;

/// The frequent classes, and how much animation time (ms) separates two drawn messages of
/// that class on one directed link.
pub const SAMPLE_MS: [(&str, f64); 2] = [("fetch", 450.0), ("produce", 180.0)];

/// A consumer's heartbeats (every `heartbeat.interval.ms`, each with its answer) are sampled
/// like the fetches: one drawn per this much animation time (ms) on each directed link.
pub const CONSUMER_HEARTBEAT_SAMPLE_MS: f64 = 450.0;

/// A consumer retrying the same group request (FindCoordinator while the coordinator is
/// down, every `retry.backoff.ms`) is drawn once per this much animation time (ms) on each
/// directed link; a different request on the link is drawn at once.
pub const CONSUMER_RETRY_SAMPLE_MS: f64 = 300.0;

/// The same group message sent again this soon (virtual ms) is a step of one exchange (the
/// second JoinGroup of KIP-394's member-id round trip), not a retry: it is always drawn.
const RETRY_MIN_GAP_MS: u64 = 50;

/// Which flights give way first when too many are in the air.
const YIELD_ORDER: [&str; 3] = ["fetch", "heartbeat", "produce"];

/// One message being drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Flight {
    /// The message's running number in the world.
    pub id: u64,
    /// Sender.
    pub from: Endpoint,
    /// Receiver.
    pub to: Endpoint,
    /// Short name in English, e.g. "ping" (the record's label).
    pub label: String,
    /// What the short name says, structured: [`flight_label`] says it in the reader's language.
    pub words: Label,
    /// Colour class: heartbeat, zookeeper, watch, request, response.
    pub class: &'static str,
    /// Animation-clock time (ms) at which it leaves the sender.
    pub start_at: f64,
    /// Whether the world dropped it (a cut link).
    pub dropped: bool,
    /// Whether its fate is known (it arrived or was dropped in virtual time).
    settled: bool,
    /// Virtual time it arrives (or would have).
    arrive_ms: u64,
}

impl Flight {
    /// How far along its path it is at animation time `now`: 0 at the sender, 1 at the receiver.
    pub fn progress(&self, now: f64) -> f64 {
        ((now - self.start_at) / FLIGHT_MS).clamp(0.0, 1.0)
    }
}

/// The messages being drawn and how far through the world's message history the page has read.
#[derive(Debug, Default, Clone)]
pub struct Flights {
    next_id: u64,
    list: VecDeque<Flight>,
    /// When the last drawn message of a frequent class left, per class, directed link and,
    /// for a consumer's group requests, name.
    /// The value: the animation time it left, and the virtual time it was sent.
    last_drawn: VecMap<(&'static str, Endpoint, Endpoint, String), (f64, u64)>,
}

impl Flights {
    /// The flights, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Flight> {
        self.list.iter()
    }

    /// How many are being drawn.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether nothing is being drawn.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Takes in the messages the world sent since the last call, while its clock went from
    /// `virt_from` to `virt_to` during animation time `anim_from..=anim_to`; forgets flights that
    /// have landed; refreshes the fate of those still in the air.
    pub fn ingest(
        &mut self,
        world: &World,
        virt_from: u64,
        virt_to: u64,
        anim_from: f64,
        anim_to: f64,
    ) {
        let now = world.now();
        for m in world.messages_since(self.next_id) {
            self.next_id = m.id + 1;
            if m.from == m.to || m.empty_fetch {
                continue;
            }
            let start_at = if virt_to > virt_from && m.sent_ms >= virt_from {
                let f = (m.sent_ms - virt_from) as f64 / (virt_to - virt_from) as f64;
                anim_from + f.clamp(0.0, 1.0) * (anim_to - anim_from)
            } else {
                anim_to
            };
            let consumer =
                matches!(m.from, Endpoint::Consumer(_)) || matches!(m.to, Endpoint::Consumer(_));
            let sampled = SAMPLE_MS
                .iter()
                .find(|(c, _)| *c == m.class)
                .map(|(c, gap)| (*c, *gap, String::new()))
                .or_else(|| match (consumer, m.class) {
                    (true, "heartbeat") => {
                        Some(("heartbeat", CONSUMER_HEARTBEAT_SAMPLE_MS, String::new()))
                    }
                    (true, "group") => Some(("group", CONSUMER_RETRY_SAMPLE_MS, m.label.clone())),
                    _ => None,
                });
            if let Some((class, gap, name)) = sampled {
                let retry_only = !name.is_empty();
                let key = (class, m.from, m.to, name);
                if self.last_drawn.get(&key).is_some_and(|(last, sent)| {
                    start_at - last < gap
                        && start_at >= *last
                        && (!retry_only || m.sent_ms >= sent + RETRY_MIN_GAP_MS)
                }) {
                    continue;
                }
                self.last_drawn.insert(key, (start_at, m.sent_ms));
            }
            self.list.push_back(Flight {
                id: m.id,
                from: m.from,
                to: m.to,
                label: m.label.clone(),
                words: m.words.clone(),
                class: m.class,
                start_at,
                dropped: m.dropped,
                settled: m.dropped || m.arrive_ms <= now,
                arrive_ms: m.arrive_ms,
            });
        }
        self.list.retain(|f| f.start_at + FLIGHT_MS > anim_to);
        while self.list.len() > MAX_FLIGHTS {
            // Fetches and heartbeats are the least interesting: they give way first.
            let victim = YIELD_ORDER
                .iter()
                .find_map(|c| self.list.iter().position(|f| f.class == *c))
                .unwrap_or(0);
            self.list.remove(victim);
        }
        self.refresh(world);
    }

    /// Forgets the flights in the air and every message the world sent before virtual time
    /// `t`: after a jump over a wait, only what is sent from `t` on is drawn.
    pub fn skip_sent_before(&mut self, world: &World, t: u64) {
        self.list.clear();
        self.last_drawn.clear();
        for m in world.messages_since(self.next_id) {
            if m.sent_ms >= t {
                break;
            }
            self.next_id = m.id + 1;
        }
    }

    /// A link cut while a message is on it drops the message later: look its fate up again.
    fn refresh(&mut self, world: &World) {
        let Some(oldest) = self.list.iter().filter(|f| !f.settled).map(|f| f.id).min() else {
            return;
        };
        let now = world.now();
        let mut unsettled: Vec<&mut Flight> = self.list.iter_mut().filter(|f| !f.settled).collect();
        for m in world.messages_since(oldest) {
            if let Some(f) = unsettled.iter_mut().find(|f| f.id == m.id) {
                f.dropped = m.dropped;
            }
        }
        for f in unsettled {
            if f.dropped || f.arrive_ms <= now {
                f.settled = true;
            }
        }
    }
}

/// A message's name in the reader's language: Kafka's and ZooKeeper's own names (requests,
/// operations, znodes, error codes) as they write them, the words around them from the
/// catalogue. In English it is the record's label (`Label::english`).
pub fn flight_label(words: &Label, tr: &Tr) -> String {
    match words {
        Label::Name(name) => name.clone(),
        Label::Ops { first, more } => tr.f(g::FL_OPS_MORE, &[("first", first), ("more", more)]),
        Label::NoOps => tr.t(g::FL_NO_OPS),
        Label::Connect => tr.t(g::FL_CONNECT),
        Label::Reconnect => tr.t(g::FL_RECONNECT),
        Label::Connected => tr.t(g::FL_CONNECTED),
        Label::Pong => tr.t(g::FL_PONG),
        Label::ConnectionReset => tr.t(g::FL_CONNECTION_RESET),
        Label::SessionExpired => tr.t(g::FL_SESSION_EXPIRED),
        Label::ZkOk => tr.t(g::FL_ZK_OK),
        Label::Watch {
            path,
            change: Some(change),
        } => {
            let change = tr.t(match change {
                WatchChange::Created => g::FL_CHANGE_CREATED,
                WatchChange::Deleted => g::FL_CHANGE_DELETED,
                WatchChange::DataChanged => g::FL_CHANGE_DATA,
                WatchChange::ChildrenChanged => g::FL_CHANGE_CHILDREN,
            });
            tr.f(g::FL_WATCH, &[("path", path), ("change", &change)])
        }
        Label::Watch { path, change: None } => tr.f(g::FL_WATCH_ADMIN, &[("path", path)]),
        Label::UpdateMetadata { controller_epoch } => {
            tr.f(g::FL_UPDATE_METADATA, &[("epoch", controller_epoch)])
        }
        Label::Ok(request) => tr.f(g::FL_OK, &[("request", request)]),
        Label::LeaderAndIsr {
            tp,
            leader,
            leader_epoch,
            controller_epoch,
        } => tr.f(
            g::FL_LEADER_AND_ISR,
            &[
                ("partition", tp),
                ("leader", leader),
                ("leader_epoch", leader_epoch),
                ("epoch", controller_epoch),
            ],
        ),
        Label::LeaderAndIsrMany {
            partitions,
            controller_epoch,
        } => tr.f(
            g::FL_LEADER_AND_ISR_MANY,
            &[("partitions", partitions), ("epoch", controller_epoch)],
        ),
        Label::Fetched { records: 0 } => tr.t(g::FL_FETCH_NOTHING),
        Label::Fetched { records } => tr.f(g::FL_FETCHED, &[("records", records)]),
        Label::Produced { base } => tr.f(g::FL_PRODUCED, &[("offset", base)]),
        Label::Coordinator { broker } => tr.f(g::FL_COORDINATOR, &[("broker", broker)]),
        Label::Joined { generation } => tr.f(g::FL_JOINED, &[("generation", generation)]),
        Label::Assigned { partitions } => tr.f(g::FL_ASSIGNED, &[("partitions", partitions)]),
        Label::HeartbeatOk => tr.t(g::FL_HEARTBEAT_OK),
        Label::Left => tr.t(g::FL_LEFT),
        Label::ShutdownDone => tr.t(g::FL_SHUTDOWN_DONE),
    }
}
