//! A broker process's causes: its lifecycle (pause, resume, stop), its registration under
//! `/brokers/ids` (`KafkaZkClient.registerBroker`, KIP-380), the epoch checks of controller
//! requests (`ReplicaManager`), its controlled shutdown (`KafkaServer.controlledShutdown`), and
//! the broker-side reasons its controller role resigns.

use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;
use crate::text::{causes as m, English, Words};

/// Why a broker did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BrokerCause {
    /// The process froze (a long GC pause).
    Paused,
    /// The pause is over.
    Resumed,
    /// Registered at startup (`KafkaZkClient.registerBroker`, KIP-380).
    RegisteredAtStartup,
    /// Registered again on a new session after expiry (`RegisterBrokerAndReelect` from 1.1,
    /// `KafkaHealthCheck`'s `handleNewSession` in 0.10).
    RegisteredAfterExpiry,
    /// The create's reply was lost; the znode found is its own session's
    /// (`checkedEphemeralCreate`).
    RegisteredOwnSession,
    /// `/brokers/ids/N` still belongs to the previous process's live session: startup fails
    /// (`KafkaServer.startup`, NODEEXISTS).
    StartFailedZnodeHeld {
        /// The broker.
        broker: BrokerId,
        /// `zookeeper.session.timeout.ms`.
        session_timeout_ms: u64,
    },
    /// A request from an older controller epoch (STALE_CONTROLLER_EPOCH).
    StaleControllerEpoch,
    /// A request for an earlier registration (STALE_BROKER_EPOCH, KIP-380).
    StaleBrokerEpoch,
    /// A request from a controller of a new epoch (or a new controller).
    MetadataFromController,
    /// A controlled shutdown attempt begins.
    ShutdownRequested,
    /// A controlled shutdown attempt failed.
    ShutdownFailed {
        /// Why it failed.
        why: ShutdownFailure,
        /// What comes next.
        next: ShutdownNext,
    },
    /// The process exits after closing its session.
    Stopped,
    /// Why a zombie controller of the 0.10 profile finally resigns: once the new session
    /// exists and the event in progress is done (`SessionExpirationListener.handleNewSession`).
    ZombieResigns,
    /// 0.10: session expired with no unfinished controller work: `handleNewSession` resigns.
    ResignsOnNewSession,
    /// 1.1+: the Expire event resigns before the new session (`beforeInitializingSession`).
    ResignsOnExpiry,
    /// The controller shuts down with its broker (`KafkaController.shutdown`).
    ResignsOnShutdown,
}

/// Why a controlled shutdown attempt failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShutdownFailure {
    /// No answer within `controller.socket.timeout.ms`.
    NoAnswer {
        /// `controller.socket.timeout.ms`.
        socket_timeout_ms: u64,
    },
    /// No controller is known to send the request to.
    NoController,
    /// The controller could not move these leaderships (no other live in-sync replica).
    LeadershipsLeft {
        /// The partitions still led by the broker.
        partitions: Vec<TopicPartition>,
    },
    /// The controller answered with an error.
    Error {
        /// The error's name.
        error: &'static str,
    },
}

/// What follows a failed controlled shutdown attempt (`KafkaServer.controlledShutdown`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShutdownNext {
    /// Another attempt after `controlled.shutdown.retry.backoff.ms`.
    RetryAfter {
        /// `controlled.shutdown.retry.backoff.ms`.
        backoff_ms: u64,
    },
    /// All `controlled.shutdown.max.retries` attempts are used up: the broker stops.
    GiveUp {
        /// `controlled.shutdown.max.retries`.
        max_retries: u32,
    },
}

impl ShutdownFailure {
    /// The English words.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The words in `tr`'s language (an error is its name, as Kafka writes it).
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            ShutdownFailure::NoAnswer { socket_timeout_ms } => tr.f(
                m::CAUSE_BROKER_SHUTDOWN_NO_ANSWER,
                &[("socket_timeout_ms", socket_timeout_ms)],
            ),
            ShutdownFailure::NoController => tr.t(m::CAUSE_BROKER_SHUTDOWN_NO_CONTROLLER),
            ShutdownFailure::LeadershipsLeft { partitions } => {
                let partitions = partitions
                    .iter()
                    .map(|tp| tp.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                tr.f(
                    m::CAUSE_BROKER_SHUTDOWN_LEADERSHIPS_LEFT,
                    &[("partitions", &partitions)],
                )
            }
            ShutdownFailure::Error { error } => error.to_string(),
        }
    }
}

impl BrokerCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            BrokerCause::Paused => tr.t(m::CAUSE_BROKER_PAUSED),
            BrokerCause::Resumed => tr.t(m::CAUSE_BROKER_RESUMED),
            BrokerCause::RegisteredAtStartup => tr.t(m::CAUSE_BROKER_REGISTERED_AT_STARTUP),
            BrokerCause::RegisteredAfterExpiry => tr.t(m::CAUSE_BROKER_REGISTERED_AFTER_EXPIRY),
            BrokerCause::RegisteredOwnSession => tr.t(m::CAUSE_BROKER_REGISTERED_OWN_SESSION),
            BrokerCause::StartFailedZnodeHeld {
                broker,
                session_timeout_ms,
            } => tr.f(
                m::CAUSE_BROKER_START_FAILED_ZNODE_HELD,
                &[
                    ("broker", broker),
                    ("session_timeout_ms", session_timeout_ms),
                ],
            ),
            BrokerCause::StaleControllerEpoch => tr.t(m::CAUSE_BROKER_STALE_CONTROLLER_EPOCH),
            BrokerCause::StaleBrokerEpoch => tr.t(m::CAUSE_BROKER_STALE_BROKER_EPOCH),
            BrokerCause::MetadataFromController => tr.t(m::CAUSE_BROKER_METADATA_FROM_CONTROLLER),
            BrokerCause::ShutdownRequested => tr.t(m::CAUSE_BROKER_SHUTDOWN_REQUESTED),
            BrokerCause::ShutdownFailed { why, next } => {
                let why = why.render(tr);
                match next {
                    ShutdownNext::RetryAfter { backoff_ms } => tr.f(
                        m::CAUSE_BROKER_SHUTDOWN_RETRY,
                        &[("why", &why), ("backoff_ms", backoff_ms)],
                    ),
                    ShutdownNext::GiveUp { max_retries } => tr.f(
                        m::CAUSE_BROKER_SHUTDOWN_GIVE_UP,
                        &[("why", &why), ("max_retries", max_retries)],
                    ),
                }
            }
            BrokerCause::Stopped => tr.t(m::CAUSE_BROKER_STOPPED),
            BrokerCause::ZombieResigns => tr.t(m::CAUSE_BROKER_ZOMBIE_RESIGNS),
            BrokerCause::ResignsOnNewSession => tr.t(m::CAUSE_BROKER_RESIGNS_ON_NEW_SESSION),
            BrokerCause::ResignsOnExpiry => tr.t(m::CAUSE_BROKER_RESIGNS_ON_EXPIRY),
            BrokerCause::ResignsOnShutdown => tr.t(m::CAUSE_BROKER_RESIGNS_ON_SHUTDOWN),
        }
    }
}
