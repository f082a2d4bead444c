//! The leader side of fetching: answering fetches, `DelayedFetch`, and what a fetch tells the leader of its follower (`Partition.updateFollowerFetchState`).

use super::timers::ReplicaTimer;
use super::{ReplicaManager, Role};
use crate::sim::config::Settings;
use crate::sim::message::{Body, FetchData, FetchPartition, KafkaError, Out, Timer};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::topic::TopicPartition;

impl ReplicaManager<'_> {
    /// A follower's fetch: record its progress, maybe expand the ISR and advance the high
    /// watermark; answer now if there is anything to say, else hold it
    /// (`replica.fetch.wait.max.ms`).
    pub(crate) fn on_fetch(
        &mut self,
        now: u64,
        follower: BrokerId,
        correlation_id: u64,
        partitions: Vec<FetchPartition>,
        settings: &Settings,
        out: &mut Out,
    ) {
        for p in &partitions {
            if p.diverging_check.is_none() {
                self.record_fetch(now, follower, p, settings, out);
            }
        }
        let answer = self.fetch_answer(&partitions, settings);
        let has_news = answer
            .iter()
            .any(|d| d.error.is_some() || d.epoch_end.is_some() || !d.runs.is_empty());
        if has_news {
            out.send(
                self.me(),
                Endpoint::Broker(follower),
                Body::FetchResponse {
                    correlation_id,
                    partitions: answer,
                },
            );
        } else {
            self.delayed_fetches
                .insert(follower, (correlation_id, partitions));
            out.timer(
                now + settings.replica_fetch_wait_max_ms,
                self.me(),
                Timer::Replica(ReplicaTimer::DelayedFetch {
                    follower,
                    correlation_id,
                }),
            );
        }
    }

    pub(crate) fn on_delayed_fetch(
        &mut self,
        follower: BrokerId,
        correlation_id: u64,
        settings: &Settings,
        out: &mut Out,
    ) {
        if self
            .delayed_fetches
            .get(&follower)
            .is_some_and(|(c, _)| *c == correlation_id)
        {
            let (c, partitions) = self.delayed_fetches.remove(&follower).expect("checked");
            let answer = self.fetch_answer(&partitions, settings);
            out.send(
                self.me(),
                Endpoint::Broker(follower),
                Body::FetchResponse {
                    correlation_id: c,
                    partitions: answer,
                },
            );
        }
    }

    /// New records on `tp`: answer the held fetches that asked for it.
    pub(super) fn answer_delayed_fetches(
        &mut self,
        _now: u64,
        tp: &TopicPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
        let followers: Vec<BrokerId> = self
            .delayed_fetches
            .iter()
            .filter(|(_, (_, ps))| ps.iter().any(|p| p.tp == *tp))
            .map(|(f, _)| *f)
            .collect();
        for f in followers {
            let (c, partitions) = self.delayed_fetches.remove(&f).expect("listed above");
            let answer = self.fetch_answer(&partitions, settings);
            out.send(
                self.me(),
                Endpoint::Broker(f),
                Body::FetchResponse {
                    correlation_id: c,
                    partitions: answer,
                },
            );
        }
    }

    pub(super) fn fetch_answer(
        &self,
        partitions: &[FetchPartition],
        settings: &Settings,
    ) -> Vec<FetchData> {
        partitions
            .iter()
            .map(|p| {
                let mut d = FetchData {
                    tp: p.tp.clone(),
                    error: None,
                    hw: 0,
                    leader_leo: 0,
                    runs: Vec::new(),
                    epoch_end: None,
                    payloads: Vec::new(),
                    batches: Vec::new(),
                };
                let Some((r, st)) = self
                    .replicas
                    .get(&p.tp)
                    .and_then(|r| r.state.as_ref().map(|s| (r, s)))
                else {
                    d.error = Some(KafkaError::NotLeaderOrFollower);
                    return d;
                };
                if !matches!(st.role, Role::Leader(_)) {
                    d.error = Some(KafkaError::NotLeaderOrFollower);
                    return d;
                }
                if settings.profile.has_broker_epochs() && p.leader_epoch != st.leader_epoch {
                    // KIP-320 (2.1): a follower on another leader epoch waits for its
                    // LeaderAndIsr.
                    d.error = Some(KafkaError::FencedLeaderEpoch);
                    return d;
                }
                d.hw = r.log.hw;
                d.leader_leo = r.log.leo;
                if let Some(epoch) = p.diverging_check {
                    d.epoch_end = Some(r.log.end_offset_for(epoch));
                    return d;
                }
                if p.fetch_offset <= r.log.leo {
                    d.runs = r.log.runs_from(p.fetch_offset);
                    d.payloads = r.log.payloads_from(p.fetch_offset);
                    d.batches = r.log.batches_from(p.fetch_offset);
                }
                d
            })
            .collect()
    }

    /// The leader's bookkeeping of one follower fetch (`Partition.updateFollowerFetchState`).
    pub(super) fn record_fetch(
        &mut self,
        now: u64,
        follower: BrokerId,
        p: &FetchPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(replica) = self.replicas.get_mut(&p.tp) else {
            return;
        };
        let leo = replica.log.leo;
        let hw = replica.log.hw;
        let Some(st) = replica.state.as_mut() else {
            return;
        };
        if settings.profile.has_broker_epochs() && p.leader_epoch != st.leader_epoch {
            return;
        }
        let Role::Leader(ls) = &mut st.role else {
            return;
        };
        let Some(prog) = ls.followers.get_mut(&follower) else {
            return;
        };
        let o = p.fetch_offset.min(leo);
        if o >= leo {
            prog.last_caught_up_ms = now;
        } else if o >= prog.last_fetch_leader_leo {
            prog.last_caught_up_ms = prog.last_caught_up_ms.max(prog.last_fetch_ms);
        }
        prog.last_fetch_leader_leo = leo;
        prog.last_fetch_ms = now;
        prog.leo = o;
        // maybeExpandIsr: back in once it reaches the high watermark; from 2.0 also the start
        // offset of this leader epoch (`Partition.maybeExpandIsr`, 2.0.1 and 3.9.0; 0.10.2.2
        // checks the high watermark only).
        let epoch_ok =
            !settings.profile.expands_isr_from_epoch_start() || o >= ls.epoch_start_offset;
        // From 3.4 only a follower whose broker the metadata cache lists as alive is eligible
        // (`Partition.isReplicaIsrEligible`, 3.9.0).
        let alive_ok = !settings.profile.leader_checks_follower_is_alive()
            || self.metadata_live.contains(&follower);
        let expand = !st.isr.contains(&follower)
            && ls.pending_isr.is_none()
            && o >= hw
            && epoch_ok
            && alive_ok;
        if expand {
            let mut isr = st.isr.clone();
            isr.push(follower);
            self.propose_isr(now, &p.tp, isr, settings, out);
        }
        self.maybe_advance_hw(now, &p.tp, settings, out);
    }
}
