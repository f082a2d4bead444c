//! A producer client's configuration (`ProducerConfig` as `KafkaProducer` checks it), its
//! producer id, and the exponential backoff of 3.7+ (`ExponentialBackoff`, KIP-580).

use crate::sim::config::{ProducerClient, Settings};
use crate::sim::rng::Rng;
use crate::sim::topic::Acks;

/// The producer id of a client. Kafka gives one only to an idempotent producer
/// (InitProducerId); the model numbers every client so that the log can tell a duplicate.
pub(super) fn producer_id(acks: Acks) -> u64 {
    match acks {
        Acks::All => 0,
        Acks::One => 1,
        Acks::Zero => 2,
    }
}

/// The client's configuration; a combination Kafka refuses (checked before a produce starts)
/// falls back to the profile's defaults without idempotence.
pub(super) fn client(settings: &Settings, acks: Acks) -> ProducerClient {
    settings
        .producer_client(acks)
        .unwrap_or_else(|_| ProducerClient {
            acks,
            retries: settings.profile.default_retries(),
            idempotent: false,
            request_timeout_ms: settings.request_timeout_ms,
            retry_backoff_ms: settings.retry_backoff_ms,
            delivery_timeout_ms: settings
                .profile
                .has_delivery_timeout()
                .then(|| settings.delivery_timeout()),
        })
}

/// `ExponentialBackoff.backoff(attempts)` (3.7+): `initial * 2^attempts`, times a random
/// factor in [0.8, 1.2), at most `max`.
pub(super) fn exponential(initial: u64, max: u64, attempts: u32, rng: &mut Rng) -> u64 {
    let term = initial.saturating_mul(1u64 << attempts.min(20));
    let jittered = term.saturating_mul(800 + rng.up_to(399)) / 1000;
    jittered.min(max)
}
