//! The client's connections: opening one to a leader (`NetworkClient.ready` /
//! `initiateConnect`, a refused one backing off by `reconnect.backoff.ms`,
//! `ClusterConnectionStates`), resetting those whose broker process died
//! (`NetworkClient.processDisconnection`), and closing one, which fails every request on it.

use super::causes::ProduceError;
use super::client::exponential;
use super::client_state::Refused;
use super::errors::NETWORK_EXCEPTION;
use super::{Brokers, Producer, ProducerOut};
use crate::sim::config::{Settings, RECONNECT_BACKOFF_MS};
use crate::sim::net::BrokerId;
use crate::sim::rng::Rng;
use crate::sim::topic::Acks;

impl Producer {
    /// Connections whose broker process died (crashed or stopped, perhaps started again)
    /// reset: every request in flight on them fails at once with NETWORK_EXCEPTION
    /// (`NetworkClient.processDisconnection`, `Sender.handleProduceResponse`'s
    /// `wasDisconnected`). Returns whether any did.
    pub fn check_connections(
        &mut self,
        now: u64,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) -> bool {
        let reset: Vec<(Acks, BrokerId)> = self
            .conns
            .iter()
            .filter(|((_, b), incarnation)| {
                !brokers
                    .get(b)
                    .is_some_and(|x| x.status.is_alive() && x.incarnation == **incarnation)
            })
            .map(|(k, _)| *k)
            .collect();
        if reset.is_empty() {
            return false;
        }
        for key in reset {
            self.disconnect(
                now,
                key,
                NETWORK_EXCEPTION,
                ProduceError::LeaderDied,
                settings,
                rng,
                out,
            );
        }
        self.poll(now, brokers, settings, rng, out);
        true
    }

    /// Closes the connection `key`: its requests fail with `error`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn disconnect(
        &mut self,
        now: u64,
        key: (Acks, BrokerId),
        error: &'static str,
        cause: ProduceError,
        settings: &Settings,
        rng: &mut Rng,
        out: &mut ProducerOut,
    ) {
        self.conns.remove(&key);
        let requests: Vec<u64> = self
            .in_flight
            .iter()
            .filter(|(_, f)| (f.batch.acks, f.broker) == key)
            .map(|(r, _)| *r)
            .collect();
        for r in requests {
            let f = self.in_flight.remove(&r).expect("listed above");
            if !f.expired {
                self.complete_error(now, f.batch, error, cause, settings, rng, out);
            }
        }
        // `MetadataUpdater.handleServerDisconnect`: the disconnect may mean stale metadata.
        self.metadata.update_requested = true;
    }

    /// Opens a connection to `broker` for client `acks` (`NetworkClient.ready` /
    /// `initiateConnect`): a process that listens accepts it (a frozen one too: its kernel
    /// does); a broker whose process is gone refuses it, which `NetworkClient` handles as a
    /// disconnect (a metadata update), and the client waits `reconnect.backoff.ms` before it
    /// tries that broker again (`ClusterConnectionStates`: flat in 0.10.2.2, exponential from
    /// 0.11, KIP-144). The batch stays in the accumulator: it was never sent.
    pub(super) fn connect(
        &mut self,
        now: u64,
        acks: Acks,
        broker: BrokerId,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
    ) -> Option<u64> {
        if let Some(c) = self.conns.get(&(acks, broker)) {
            return Some(*c);
        }
        if self.refused.get(&broker).is_some_and(|r| now < r.until_ms) {
            return None;
        }
        match brokers.get(&broker).filter(|b| b.status.is_alive()) {
            Some(b) => {
                self.refused.remove(&broker);
                self.conns.insert((acks, broker), b.incarnation);
                Some(b.incarnation)
            }
            None => {
                let r = self.refused.entry(broker).or_insert(Refused {
                    until_ms: now,
                    failures: 0,
                });
                let (initial, max) = RECONNECT_BACKOFF_MS;
                let backoff = if settings.profile.exponential_reconnect_backoff() {
                    exponential(initial, max, r.failures, rng)
                } else {
                    initial
                };
                r.failures += 1;
                r.until_ms = now + backoff;
                // The refused connection is a disconnect: the client asks for metadata.
                self.metadata.update_requested = true;
                None
            }
        }
    }
}
