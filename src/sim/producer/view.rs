//! What the page and the state show of the producer ([`ProducerView`]): each client's
//! configuration, and the batches it is not done with, in flight or waiting (and why), runs of
//! alike batches merged.

use super::client::client;
use super::client_state::{Blocked, InFlight};
use super::Producer;
use crate::collections::VecSet;
use crate::sim::config::Settings;
use crate::sim::state::{BatchWait, ProducerBatchView, ProducerClientView, ProducerView};
use crate::sim::topic::{Acks, TopicPartition};

impl Producer {
    /// The batches the producer is not done with, and the clients in use.
    pub fn view(&self, settings: &Settings) -> ProducerView {
        let mut batches: Vec<ProducerBatchView> = Vec::new();
        let mut push = |v: ProducerBatchView| match batches.last_mut() {
            Some(last)
                if last.partition == v.partition
                    && last.acks == v.acks
                    && last.waits == v.waits
                    && last.broker == v.broker
                    && last.attempt == v.attempt
                    && last.error == v.error =>
            {
                last.records += v.records;
                last.batches += 1;
                last.until_ms = match (last.until_ms, v.until_ms) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            _ => batches.push(v),
        };
        let keys: VecSet<(TopicPartition, Acks)> = self
            .queues
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|(k, _)| k.clone())
            .chain(
                self.in_flight
                    .values()
                    .filter(|f| !f.expired)
                    .map(|f| (f.batch.tp.clone(), f.batch.acks)),
            )
            .collect();
        for key in keys {
            let cfg = client(settings, key.1);
            let mut flying: Vec<&InFlight> = self
                .in_flight
                .values()
                .filter(|f| !f.expired && f.batch.tp == key.0 && f.batch.acks == key.1)
                .collect();
            crate::collections::sort_by_key(&mut flying, |f| f.batch.sequence);
            for f in flying {
                push(ProducerBatchView {
                    partition: key.0.to_string(),
                    acks: key.1,
                    records: f.batch.records,
                    batches: 1,
                    attempt: f.batch.retries + 1,
                    waits: BatchWait::InFlight,
                    broker: Some(f.broker),
                    until_ms: Some(f.timeout_ms),
                    error: f.batch.error,
                });
            }
            let blocked = self.blocked.get(&key).copied();
            for (i, b) in self.queues.get(&key).into_iter().flatten().enumerate() {
                let (waits, broker, until) = match blocked {
                    Some(Blocked::Backoff) if i == 0 => {
                        (BatchWait::RetryBackoff, None, b.backoff_until_ms)
                    }
                    Some(Blocked::NoLeader(l)) => (
                        BatchWait::WaitingForLeader,
                        l,
                        Self::expiry(b, &cfg, settings),
                    ),
                    _ => (BatchWait::Queued, None, Self::expiry(b, &cfg, settings)),
                };
                push(ProducerBatchView {
                    partition: key.0.to_string(),
                    acks: key.1,
                    records: b.records,
                    batches: 1,
                    attempt: b.retries + 1,
                    waits,
                    broker,
                    until_ms: Some(until),
                    error: b.error,
                });
            }
        }
        let clients = self
            .clients
            .iter()
            .map(|a| {
                let c = client(settings, *a);
                (
                    a.name().to_string(),
                    ProducerClientView {
                        retries: c.retries,
                        enable_idempotence: c.idempotent,
                        delivery_timeout_ms: c.delivery_timeout_ms,
                        request_timeout_ms: c.request_timeout_ms,
                        retry_backoff_ms: c.retry_backoff_ms,
                    },
                )
            })
            .collect();
        ProducerView { clients, batches }
    }
}
