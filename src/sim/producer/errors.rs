//! The client-side errors of a produce request, named as Kafka's `Errors` name them, and what
//! the client makes of each: whether it retries (`RetriableException`), whether it suspects
//! stale metadata (`InvalidMetadataException`), and the cause told in the event log.

use super::causes::ProduceError;
use crate::sim::config::Profile;

/// The client-side errors, named as Kafka's `Errors` name them.
pub(super) const NETWORK_EXCEPTION: &str = "NETWORK_EXCEPTION";
pub(super) const REQUEST_TIMED_OUT: &str = "REQUEST_TIMED_OUT";
/// A batch that reached `delivery.timeout.ms` (2.1+): Kafka fails it with a `TimeoutException`.
pub(super) const DELIVERY_TIMEOUT: &str = "DELIVERY_TIMEOUT";
/// A batch that waited in the accumulator longer than `request.timeout.ms` (before 2.1): a
/// `TimeoutException` too.
pub(super) const BATCH_EXPIRED: &str = "BATCH_EXPIRED";

/// Whether Kafka retries the error: its exception is a `RetriableException`
/// (`org.apache.kafka.common.errors`, the same in 0.10.2.2, 2.0.1, 2.4.1 and 3.9.0).
pub(super) fn retriable(error: &str) -> bool {
    matches!(
        error,
        "NOT_LEADER_OR_FOLLOWER"
            | "LEADER_NOT_AVAILABLE"
            | "NOT_ENOUGH_REPLICAS"
            | "NOT_ENOUGH_REPLICAS_AFTER_APPEND"
            | REQUEST_TIMED_OUT
            | NETWORK_EXCEPTION
    )
}

/// Whether the error says the metadata may be stale: its exception is an
/// `InvalidMetadataException` (`NetworkException` extends it), after which
/// `Sender.completeBatch` asks for a metadata update (0.10.2.2 to 3.9.0).
pub(super) fn stale_metadata(error: &str) -> bool {
    matches!(
        error,
        "NOT_LEADER_OR_FOLLOWER" | "LEADER_NOT_AVAILABLE" | NETWORK_EXCEPTION
    )
}

/// What an error means, for the event log.
pub(super) fn error_cause(error: &str, profile: Profile) -> ProduceError {
    match error {
        "NOT_ENOUGH_REPLICAS" => ProduceError::NotEnoughReplicas,
        "NOT_ENOUGH_REPLICAS_AFTER_APPEND" => ProduceError::NotEnoughReplicasAfterAppend,
        "NOT_LEADER_OR_FOLLOWER" => ProduceError::NotLeaderOrFollower,
        "LEADER_NOT_AVAILABLE" => ProduceError::LeaderNotAvailable,
        REQUEST_TIMED_OUT if profile.reports_client_timeouts() => ProduceError::NoAnswer,
        REQUEST_TIMED_OUT => ProduceError::FollowersTooSlow,
        NETWORK_EXCEPTION => ProduceError::ConnectionClosed,
        DELIVERY_TIMEOUT => ProduceError::DeliveryTimeout,
        BATCH_EXPIRED => ProduceError::BatchExpired,
        _ => ProduceError::Other,
    }
}
