//! Causes: why each event happened, as a value. A cause names the rule, and the settings and
//! figures that drove it (`ZkClientCause::ReadTimeout { read_timeout_ms: 4000 }`); its sentence
//! is said from it ([`Cause::render`], with the messages of `crate::text::causes`) in the
//! [`Words`] it is given: its English one ([`Cause::english`]) is what the command line, the
//! golden traces and JSON print, and `i18n` gives the reader's language for the page.
//!
//! Each role keeps its causes in a small types file of its own, beside its code: the ZooKeeper
//! server's ([`super::zookeeper::causes`]) and client's ([`super::zk_client::causes`]); a
//! broker's ([`super::broker::causes`]) and those of its controller role
//! ([`super::controller::causes`]), replica manager ([`super::replication::causes`]) and group
//! coordinator ([`super::coordinator::causes`]); a consumer's ([`super::consumer::causes`]); the
//! producer's ([`super::producer::causes`]); the world's ([`super::world::causes`]).
//! This module wraps them in one [`Cause`], which the output type ([`super::message::Out`]) and
//! the event ([`super::event::Event`]) carry. The cause files import nothing but plain types
//! and the leaf `crate::text` (the messages and [`Words`]), so every role can name its causes
//! without an import circle, and the core never imports the languages above it.
//!
//! In JSON a cause is its English sentence, a string.

use super::broker::causes::BrokerCause;
use super::consumer::causes::ConsumerCause;
use super::controller::causes::ControllerCause;
use super::coordinator::causes::CoordinatorCause;
use super::producer::causes::ProducerCause;
use super::replication::causes::ReplicationCause;
use super::world::causes::WorldCause;
use super::zk_client::causes::ZkClientCause;
use super::zookeeper::causes::ZkCause;
use crate::text::{English, Words};
use serde::{Serialize, Serializer};
use std::fmt;

/// Why an event happened: one role's cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// The ZooKeeper server's (sessions).
    ZooKeeper(ZkCause),
    /// A broker's ZooKeeper client's (connection, session resumption).
    ZkClient(ZkClientCause),
    /// A broker process's (lifecycle, registration, request checks, controlled shutdown).
    Broker(BrokerCause),
    /// A broker's controller role's (the election race, brokers, partitions, reassignments).
    Controller(ControllerCause),
    /// A broker's replica manager's (truncation, ISR changes, idempotent duplicates).
    Replication(ReplicationCause),
    /// A broker's group coordinator's (members, leaders, rebalances, the stored group).
    Coordinator(CoordinatorCause),
    /// A consumer's (the actions that end it, the coordinator it finds).
    Consumer(ConsumerCause),
    /// The producer's (errors, retries, expiry, records a leader no longer holds).
    Producer(ProducerCause),
    /// The world's (actions, startup order, the safety monitor).
    World(WorldCause),
}

impl Cause {
    /// The English sentence: the rule, and where one drives it the setting, with its figures.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language, from the same figures: the English one for
    /// [`English`], a catalogue's for its language (`i18n::Tr` is a [`Words`]).
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            Cause::ZooKeeper(c) => c.render(tr),
            Cause::ZkClient(c) => c.render(tr),
            Cause::Broker(c) => c.render(tr),
            Cause::Controller(c) => c.render(tr),
            Cause::Replication(c) => c.render(tr),
            Cause::Coordinator(c) => c.render(tr),
            Cause::Consumer(c) => c.render(tr),
            Cause::Producer(c) => c.render(tr),
            Cause::World(c) => c.render(tr),
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english())
    }
}

/// A cause serializes as its English sentence.
impl Serialize for Cause {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.english())
    }
}

impl From<ZkCause> for Cause {
    fn from(c: ZkCause) -> Self {
        Cause::ZooKeeper(c)
    }
}

impl From<ZkClientCause> for Cause {
    fn from(c: ZkClientCause) -> Self {
        Cause::ZkClient(c)
    }
}

impl From<BrokerCause> for Cause {
    fn from(c: BrokerCause) -> Self {
        Cause::Broker(c)
    }
}

impl From<ControllerCause> for Cause {
    fn from(c: ControllerCause) -> Self {
        Cause::Controller(c)
    }
}

impl From<ReplicationCause> for Cause {
    fn from(c: ReplicationCause) -> Self {
        Cause::Replication(c)
    }
}

impl From<CoordinatorCause> for Cause {
    fn from(c: CoordinatorCause) -> Self {
        Cause::Coordinator(c)
    }
}

impl From<ConsumerCause> for Cause {
    fn from(c: ConsumerCause) -> Self {
        Cause::Consumer(c)
    }
}

impl From<ProducerCause> for Cause {
    fn from(c: ProducerCause) -> Self {
        Cause::Producer(c)
    }
}

impl From<WorldCause> for Cause {
    fn from(c: WorldCause) -> Self {
        Cause::World(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_displays_and_serializes_as_its_english_sentence() {
        let c = Cause::from(ZkClientCause::ReadTimeout {
            read_timeout_ms: 4_000,
        });
        let text = "nothing heard from ZooKeeper for the client's readTimeout (4000 ms, 2/3 of the negotiated session timeout)";
        assert_eq!(c.english(), text);
        assert_eq!(c.to_string(), text);
        assert_eq!(serde_json::to_value(&c).unwrap(), text);
        assert_eq!(
            Cause::from(ZkCause::SessionClosed).english(),
            "clean shutdown closes the ZooKeeper session at once"
        );
    }
}
