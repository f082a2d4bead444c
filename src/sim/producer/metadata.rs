//! The client's metadata (`Metadata`): its own copy of the leaders, read from the brokers'
//! metadata caches (the newest leader epoch wins, KIP-320), refreshed when a leader is missing,
//! when asked for (no sooner than the refresh backoff, exponential from 3.7, KIP-580) and every
//! `metadata.max.age.ms`.

use super::client::exponential;
use super::{Brokers, Producer};
use crate::collections::VecSet;
use crate::sim::broker::BrokerStatus;
use crate::sim::config::{Settings, METADATA_MAX_AGE_MS, RETRY_BACKOFF_MAX_MS};
use crate::sim::net::BrokerId;
use crate::sim::rng::Rng;
use crate::sim::topic::TopicPartition;

impl Producer {
    /// The leader of `tp` as the brokers' metadata caches say: the newest leader epoch any
    /// running broker knows (a frozen broker answers nothing). `None` if none knows the
    /// partition.
    fn lookup(brokers: &Brokers, tp: &TopicPartition) -> Option<(Option<BrokerId>, u64)> {
        brokers
            .values()
            .filter(|b| matches!(b.status, BrokerStatus::Running | BrokerStatus::ShuttingDown))
            .filter_map(|b| b.metadata_partitions.get(tp))
            .max_by_key(|p| p.leader_epoch)
            .map(|p| (BrokerId::try_from(p.leader).ok(), p.leader_epoch))
    }

    /// `Metadata.timeToNextUpdate`: refreshes when a leader is missing, when asked for (no
    /// sooner than the refresh backoff: `retry.backoff.ms` in 0.10.2.2 to 2.4.1;
    /// `timeToAllowUpdate` with `equivalentResponseCount` from 3.7, 3.9.0) and every
    /// `metadata.max.age.ms`.
    pub(super) fn maybe_refresh(
        &mut self,
        now: u64,
        brokers: &Brokers,
        settings: &Settings,
        rng: &mut Rng,
    ) {
        let missing = self
            .queues
            .iter()
            .any(|((tp, _), q)| !q.is_empty() && !self.metadata.leaders.contains_key(tp));
        let m = &mut self.metadata;
        let aged = m
            .last_refresh_ms
            .is_some_and(|t| now >= t + METADATA_MAX_AGE_MS);
        let asked = m.update_requested && now >= m.next_allowed_ms;
        if !(missing || aged || asked) {
            return;
        }
        let wanted: VecSet<TopicPartition> = self
            .queues
            .iter()
            .filter(|(_, q)| !q.is_empty())
            .map(|((tp, _), _)| tp.clone())
            .collect();
        let m = &mut self.metadata;
        let mut news = false;
        let known: Vec<TopicPartition> = m.leaders.keys().cloned().collect();
        for tp in wanted.into_iter().chain(known) {
            let Some((leader, epoch)) = Self::lookup(brokers, &tp) else {
                continue;
            };
            match m.leaders.get(&tp) {
                // KIP-320's rule: metadata with an older leader epoch is ignored.
                Some((_, old)) if *old > epoch => {}
                Some(old) if *old == (leader, epoch) => {}
                _ => {
                    news = true;
                    m.leaders.insert(tp, (leader, epoch));
                }
            }
        }
        m.equivalent = if news { 0 } else { m.equivalent + 1 };
        m.update_requested = false;
        m.last_refresh_ms = Some(now);
        // The refresh backoff: `retry.backoff.ms`; from 3.7 (KIP-580) it doubles with every
        // refresh that brings nothing new, up to `retry.backoff.max.ms`.
        let backoff = if settings.profile.exponential_retry_backoff() {
            exponential(
                settings.retry_backoff_ms,
                RETRY_BACKOFF_MAX_MS,
                m.equivalent.saturating_sub(1),
                rng,
            )
        } else {
            settings.retry_backoff_ms
        };
        m.next_allowed_ms = now + backoff;
    }
}
