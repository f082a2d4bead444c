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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_broker_cause_renders_its_sentence() {
        let failed = |why, next| BrokerCause::ShutdownFailed { why, next };
        let retry = ShutdownNext::RetryAfter { backoff_ms: 5_000 };
        let cases = [
            (BrokerCause::Paused, "the process freezes (a long garbage-collection pause): no heartbeats, no work".to_string()),
            (BrokerCause::Resumed, "the pause is over; the process still holds the state it had before it froze".into()),
            (BrokerCause::RegisteredAtStartup, "startup: registerBroker creates the ephemeral /brokers/ids/N; its czxid is the broker epoch (KIP-380)".into()),
            (BrokerCause::RegisteredAfterExpiry, "new session after expiry: the broker creates /brokers/ids/N again (RegisterBrokerAndReelect from 1.1, KafkaHealthCheck's handleNewSession in 0.10), so the broker epoch grows".into()),
            (BrokerCause::RegisteredOwnSession, "the reply to its create of /brokers/ids/N was lost with the connection; sent again after the reconnect, the create met NODEEXISTS, but the znode's ephemeral owner is the broker's own session, so it is registered (checkedEphemeralCreate)".into()),
            (BrokerCause::StartFailedZnodeHeld { broker: 2, session_timeout_ms: 18_000 }, "/brokers/ids/2 still belongs to the previous process's ZooKeeper session, which lives until zookeeper.session.timeout.ms (18000 ms) passes without heartbeats (NODEEXISTS)".into()),
            (BrokerCause::StaleControllerEpoch, "a request from an older controller epoch than the broker has seen is refused: this fences zombie controllers".into()),
            (BrokerCause::StaleBrokerEpoch, "the request was meant for an earlier registration of this broker (broker epoch, KIP-380)".into()),
            (BrokerCause::MetadataFromController, "a request from the controller; brokers learn the controller epoch only from requests".into()),
            (BrokerCause::ShutdownRequested, "controlled shutdown: the broker asks the controller to move its leaderships before it stops".into()),
            (failed(ShutdownFailure::NoAnswer { socket_timeout_ms: 30_000 }, retry.clone()), "no answer within controller.socket.timeout.ms (30000 ms); retrying after controlled.shutdown.retry.backoff.ms (5000 ms)".into()),
            (failed(ShutdownFailure::NoController, retry.clone()), "no controller is known; retrying after controlled.shutdown.retry.backoff.ms (5000 ms)".into()),
            (failed(ShutdownFailure::LeadershipsLeft { partitions: vec![TopicPartition::new("T", 0), TopicPartition::new("T", 2)] }, retry), "the controller could not move leadership of T-0, T-2 elsewhere (no other live in-sync replica); retrying after controlled.shutdown.retry.backoff.ms (5000 ms)".into()),
            (failed(ShutdownFailure::Error { error: "NOT_CONTROLLER" }, ShutdownNext::GiveUp { max_retries: 3 }), "NOT_CONTROLLER; all controlled.shutdown.max.retries (3) attempts are used up, so the broker stops without a controlled shutdown".into()),
            (BrokerCause::Stopped, "the broker process exits after closing its ZooKeeper session".into()),
            (BrokerCause::ZombieResigns, "the controller handles its session expiry only after the ZooKeeper client (I0Itec zkclient) re-created the session and the event it was handling finished with its writes on it (0.10: SessionExpirationListener.handleNewSession waits for the controllerLock)".into()),
            (BrokerCause::ResignsOnNewSession, "its ZooKeeper session expired and it had no unfinished ZooKeeper work: the new session's handleNewSession resigns it (onControllerResignation)".into()),
            (BrokerCause::ResignsOnExpiry, "its ZooKeeper session expired: ZooKeeperClient fails the requests of the old session and the Expire event resigns the controller (onControllerResignation) before the new session is made (beforeInitializingSession, from 1.1)".into()),
            (BrokerCause::ResignsOnShutdown, "the controller is shutting down (KafkaController.shutdown)".into()),
        ];
        let zh = crate::i18n::testing::zh();
        for (cause, text) in cases {
            assert_eq!(cause.english(), text, "{cause:?}");
            crate::i18n::testing::assert_chinese(&cause.render(&zh), &cause.english());
        }
    }
}
