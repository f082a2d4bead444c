//! When a batch times out: in the accumulator (`delivery.timeout.ms` from 2.1,
//! `RecordAccumulator.expiredBatches`; before, `request.timeout.ms` in `maybeExpire`) and in
//! flight (`Sender.getExpiredInflightBatches`, 2.1+).

use super::causes::ProducerCause;
use super::client::client;
use super::client_state::Batch;
use super::errors::{BATCH_EXPIRED, DELIVERY_TIMEOUT};
use super::{Producer, ProducerOut};
use crate::sim::config::{ProducerClient, Settings};
use crate::sim::topic::{Acks, TopicPartition};

impl Producer {
    /// When a batch waiting in the accumulator expires: 2.1+ `hasReachedDeliveryTimeout`
    /// (`ProducerBatch`, 2.4.1, 3.9.0); before, `maybeExpire` (`RecordBatch` in 0.10.2.2,
    /// `ProducerBatch` in 2.0.1, with `linger.ms` 0).
    pub(super) fn expiry(batch: &Batch, cfg: &ProducerClient, settings: &Settings) -> u64 {
        match cfg.delivery_timeout_ms {
            Some(d) => batch.created_ms + d,
            // `maybeExpire`: expired once requestTimeoutMs < now - createdMs (a first try),
            // or < now - (lastAttemptMs + retryBackoffMs) (a retry).
            None if batch.retries == 0 => batch.created_ms + cfg.request_timeout_ms + 1,
            None => batch.last_attempt_ms + settings.retry_backoff_ms + cfg.request_timeout_ms + 1,
        }
    }

    pub(super) fn expire(&mut self, now: u64, settings: &Settings, out: &mut ProducerOut) {
        let keys: Vec<(TopicPartition, Acks)> = self
            .queues
            .iter()
            .filter(|(k, q)| {
                q.front()
                    .is_some_and(|b| Self::expiry(b, &client(settings, k.1), settings) <= now)
            })
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            let cfg = client(settings, key.1);
            // `RecordAccumulator.expiredBatches` (2.1+) / `abortExpiredBatches` (before):
            // oldest first, stopping at the first batch that has not expired.
            while let Some(first) = self.queues.get(&key).and_then(|q| q.front()) {
                if Self::expiry(first, &cfg, settings) > now {
                    break;
                }
                let batch = self
                    .queues
                    .get_mut(&key)
                    .and_then(|q| q.pop_front())
                    .expect("looked at above");
                let (error, cause) = if cfg.delivery_timeout_ms.is_some() {
                    (
                        DELIVERY_TIMEOUT,
                        ProducerCause::ExpiredQueued {
                            delivery_timeout_ms: cfg.delivery_timeout_ms.unwrap_or_default(),
                        },
                    )
                } else {
                    (
                        BATCH_EXPIRED,
                        ProducerCause::ExpiredInAccumulator {
                            request_timeout_ms: cfg.request_timeout_ms,
                        },
                    )
                };
                self.failed(batch, error, cause, out);
            }
        }
        // `Sender.getExpiredInflightBatches` (2.1+): a batch in flight fails at its delivery
        // timeout too; its request keeps its place until answered.
        let expired: Vec<u64> = self
            .in_flight
            .iter()
            .filter(|(_, f)| {
                !f.expired
                    && client(settings, f.batch.acks)
                        .delivery_timeout_ms
                        .is_some_and(|d| f.batch.created_ms + d <= now)
            })
            .map(|(r, _)| *r)
            .collect();
        for r in expired {
            let f = self.in_flight.get_mut(&r).expect("listed above");
            f.expired = true;
            let batch = f.batch.clone();
            let d = client(settings, batch.acks)
                .delivery_timeout_ms
                .unwrap_or_default();
            self.failed(
                batch,
                DELIVERY_TIMEOUT,
                ProducerCause::ExpiredInFlight {
                    delivery_timeout_ms: d,
                },
                out,
            );
        }
    }
}
