//! The end of a batch's try (`Sender.completeBatch`): an acknowledgement goes to the ledger
//! and ends the queue's outage; an error puts the batch back to be retried after its backoff
//! (`RecordAccumulator.reenqueue`) or fails it, and asks for a metadata update when the error
//! says the metadata may be stale.

use super::causes::{NoRetry, ProduceError, ProducerCause, RetryBackoff};
use super::client::{client, exponential};
use super::client_state::Batch;
use super::errors::{retriable, stale_metadata};
use super::{Producer, ProducerOut};
use crate::sim::config::{Settings, RETRY_BACKOFF_MAX_MS};
use crate::sim::event::EventKind;
use crate::sim::rng::Rng;
use crate::sim::topic::{Acks, TopicPartition};

impl Producer {
    /// `Sender.completeBatch` with an error: retry or fail. `canRetry` is
    /// `attempts < retries` and a retriable error in 0.10.2.2 and 2.0.1; from 2.1 (2.4.1,
    /// 3.9.0) also not `hasReachedDeliveryTimeout`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn complete_error(
        &mut self,
        now: u64,
        mut batch: Batch,
        error: &'static str,
        cause: ProduceError,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        let cfg = client(settings, batch.acks);
        let profile = settings.profile;
        // `hasReachedDeliveryTimeout`: deliveryTimeoutMs <= now - createdMs.
        let timed_out = cfg
            .delivery_timeout_ms
            .is_some_and(|d| now.saturating_sub(batch.created_ms) >= d);
        if stale_metadata(error) {
            self.metadata.update_requested = true;
            if error == "NOT_LEADER_OR_FOLLOWER" && profile.skips_backoff_on_new_leader() {
                // KIP-951: the answer names the current leader; the client takes it at once.
                self.metadata.next_allowed_ms = now;
            }
        }
        if retriable(error) && batch.retries < cfg.retries && !timed_out {
            // `RecordAccumulator.reenqueue`: back to the front of the queue (`addFirst`; in
            // sequence order for an idempotent producer, `insertInSequenceOrder`), with
            // `lastAttemptMs = now`; the backoff is `retry.backoff.ms`, from 3.7
            // `retryBackoff.backoff(attempts - 1)` (KIP-580).
            batch.retries += 1;
            batch.last_attempt_ms = now;
            batch.backoff_until_ms = now
                + if profile.exponential_retry_backoff() {
                    exponential(
                        cfg.retry_backoff_ms,
                        RETRY_BACKOFF_MAX_MS,
                        batch.retries - 1,
                        rng,
                    )
                } else {
                    cfg.retry_backoff_ms
                };
            batch.error = Some(error);
            let records = batch.records;
            let tp = batch.tp.clone();
            let key = (tp.clone(), batch.acks);
            let queue = self.queues.entry(key.clone()).or_default();
            let at = queue.partition_point(|b| b.sequence < batch.sequence);
            queue.insert(at, batch);
            self.ledgers.entry(tp.clone()).or_default().retried_records += records;
            let outage = self.outages.entry(key).or_default();
            outage.retried += records;
            if outage.retry_error != Some(error) {
                outage.retry_error = Some(error);
                let backoff = if profile.exponential_retry_backoff() {
                    RetryBackoff::Exponential {
                        backoff_ms: cfg.retry_backoff_ms,
                        max_ms: RETRY_BACKOFF_MAX_MS,
                    }
                } else {
                    RetryBackoff::Fixed {
                        backoff_ms: cfg.retry_backoff_ms,
                    }
                };
                out.events.push((
                    EventKind::ProduceRetrying {
                        partition: tp.to_string(),
                        error: error.to_string(),
                        records,
                    },
                    ProducerCause::Retrying {
                        error: cause,
                        retries: cfg.retries,
                        delivery_timeout_ms: cfg.delivery_timeout_ms,
                        backoff,
                        idempotent: cfg.idempotent,
                    }
                    .into(),
                ));
            }
        } else {
            let because = if !retriable(error) {
                NoRetry::NotRetriable
            } else if timed_out {
                NoRetry::DeliveryTimeoutPassed {
                    delivery_timeout_ms: cfg.delivery_timeout_ms.unwrap_or_default(),
                }
            } else if cfg.retries == 0 {
                NoRetry::NoRetries
            } else {
                NoRetry::RetriesUsedUp {
                    retries: cfg.retries,
                }
            };
            self.failed(
                batch,
                error,
                ProducerCause::GaveUp {
                    error: cause,
                    because,
                },
                out,
            );
        }
    }

    /// A batch given up.
    pub(super) fn failed(
        &mut self,
        batch: Batch,
        error: &'static str,
        cause: ProducerCause,
        out: &mut ProducerOut,
    ) {
        let ledger = self.ledgers.entry(batch.tp.clone()).or_default();
        ledger.failed_records += batch.records;
        let outage = self
            .outages
            .entry((batch.tp.clone(), batch.acks))
            .or_default();
        outage.failed += batch.records;
        if outage.fail_error != Some(error) {
            outage.fail_error = Some(error);
            out.events.push((
                EventKind::ProduceFailed {
                    partition: batch.tp.to_string(),
                    error: error.to_string(),
                    records: batch.records,
                },
                cause.into(),
            ));
        }
    }

    /// An acknowledged batch.
    pub(super) fn acked(&mut self, batch: Batch, base: u64, epoch: u64, out: &mut ProducerOut) {
        self.ledgers
            .entry(batch.tp.clone())
            .or_default()
            .acknowledge(base, epoch, batch.records, batch.acks);
        self.new_acks = true;
        self.recovered(
            (batch.tp, batch.acks),
            ProducerCause::AckedAgain {
                offset: base,
                leader_epoch: epoch,
            },
            out,
        );
    }

    /// The end of a queue's outage, if it had one.
    pub(super) fn recovered(
        &mut self,
        key: (TopicPartition, Acks),
        cause: ProducerCause,
        out: &mut ProducerOut,
    ) {
        if let Some(o) = self.outages.remove(&key) {
            out.events.push((
                EventKind::ProduceRecovered {
                    partition: key.0.to_string(),
                    retried: o.retried,
                    failed: o.failed,
                },
                cause.into(),
            ));
        }
    }
}
