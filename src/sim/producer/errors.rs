//! The client-side errors of a produce request, named as Kafka's `Errors` name them, and what
//! the client makes of each: whether it retries (`RetriableException`), whether it suspects
//! stale metadata (`InvalidMetadataException`), and the cause told in the event log.

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
pub(super) fn error_cause(error: &str, profile: Profile) -> &'static str {
    match error {
        "NOT_ENOUGH_REPLICAS" => "acks=all and the ISR is smaller than min.insync.replicas: the leader refuses the write and appends nothing",
        "NOT_ENOUGH_REPLICAS_AFTER_APPEND" => "the ISR fell below min.insync.replicas while the write waited for the followers: appended but not acknowledged",
        "NOT_LEADER_OR_FOLLOWER" => "the broker the producer's metadata named is no longer the leader",
        "LEADER_NOT_AVAILABLE" => "no broker knows a leader for the partition: it is offline",
        REQUEST_TIMED_OUT if profile.reports_client_timeouts() => "no answer within request.timeout.ms (a frozen broker, a cut link, or acks=all followers that do not catch up): the producer closed the connection and cannot know whether the records were written",
        REQUEST_TIMED_OUT => "acks=all: the followers did not catch up within request.timeout.ms",
        NETWORK_EXCEPTION => "the connection closed with the request in flight (the leader's process died, or request.timeout.ms passed without an answer; NETWORK_EXCEPTION names both before 3.5): the producer cannot know whether the records were written",
        DELIVERY_TIMEOUT => "the batch was created delivery.timeout.ms ago and is still not acknowledged: TimeoutException (\"Expiring N record(s) ... since batch creation\")",
        BATCH_EXPIRED => "the batch waited in the accumulator (no reachable leader) longer than request.timeout.ms: TimeoutException (\"Expiring N record(s)\", RecordBatch.maybeExpire before 2.1)",
        _ => "the request failed",
    }
}
