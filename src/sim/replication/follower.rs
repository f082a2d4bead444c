//! The follower side of fetching: fetcher threads per leader, truncation after a leader change, timeouts and backoff (`ReplicaFetcherThread`, `AbstractFetcherThread`).

use super::causes::ReplicationCause;
use super::timers::ReplicaTimer;
use super::{ReplicaManager, Role, REPLICA_SOCKET_TIMEOUT_MS};
use crate::collections::VecSet;
use crate::sim::config::Settings;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, FetchData, FetchPartition, Out, Timer};
use crate::sim::net::{BrokerId, Endpoint};

impl ReplicaManager<'_> {
    /// Sends a fetch to `leader` for every partition this broker follows there, unless one
    /// is in flight, the fetcher backs off, or nothing is left to fetch.
    pub(crate) fn maybe_fetch(&mut self, now: u64, leader: BrokerId, out: &mut Out) {
        if leader == self.id || !self.fetching {
            return;
        }
        let f = self.fetchers.entry(leader).or_default();
        if f.in_flight.is_some() || f.backing_off {
            return;
        }
        let partitions: Vec<FetchPartition> = self
            .replicas
            .iter()
            .filter(|(tp, _)| !self.stalls.iter().any(|s| s.covers(tp)))
            .filter_map(|(tp, r)| {
                let st = r.state.as_ref()?;
                if st.leader != Some(leader) {
                    return None;
                }
                let Role::Follower { check_divergence } = st.role else {
                    return None;
                };
                Some(FetchPartition {
                    tp: tp.clone(),
                    fetch_offset: r.log.leo,
                    leader_epoch: st.leader_epoch,
                    diverging_check: if check_divergence {
                        r.log.last_epoch()
                    } else {
                        None
                    },
                })
            })
            .collect();
        if partitions.is_empty() {
            return;
        }
        let correlation_id = *self.next_fetch;
        *self.next_fetch += 1;
        self.fetchers.entry(leader).or_default().in_flight = Some(correlation_id);
        out.send(
            self.me(),
            Endpoint::Broker(leader),
            Body::Fetch {
                correlation_id,
                partitions,
            },
        );
        out.timer(
            now + REPLICA_SOCKET_TIMEOUT_MS,
            self.me(),
            Timer::Replica(ReplicaTimer::FetchTimeout {
                leader,
                correlation_id,
            }),
        );
    }

    pub(crate) fn on_fetch_timeout(
        &mut self,
        now: u64,
        leader: BrokerId,
        correlation_id: u64,
        out: &mut Out,
    ) {
        let f = self.fetchers.entry(leader).or_default();
        if f.in_flight == Some(correlation_id) {
            f.in_flight = None;
            self.maybe_fetch(now, leader, out);
        }
    }

    pub(crate) fn on_fetch_backoff(&mut self, now: u64, leader: BrokerId, out: &mut Out) {
        self.fetchers.entry(leader).or_default().backing_off = false;
        self.maybe_fetch(now, leader, out);
    }

    /// Restarts every fetcher that has something to fetch (after a stall is lifted).
    pub(crate) fn kick_fetchers(&mut self, now: u64, out: &mut Out) {
        let leaders: VecSet<BrokerId> = self
            .replicas
            .values()
            .filter_map(|r| r.state.as_ref().and_then(|s| s.leader))
            .collect();
        for l in leaders {
            self.maybe_fetch(now, l, out);
        }
    }

    /// `ReplicaFetcherThread.processPartitionData` and its truncation.
    pub(crate) fn on_fetch_response(
        &mut self,
        now: u64,
        leader: BrokerId,
        correlation_id: u64,
        data: Vec<FetchData>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let f = self.fetchers.entry(leader).or_default();
        if f.in_flight != Some(correlation_id) {
            return;
        }
        f.in_flight = None;
        let mut error = false;
        let id = self.id;
        for d in data {
            let Some(replica) = self.replicas.get_mut(&d.tp) else {
                continue;
            };
            let Some(st) = replica.state.as_mut() else {
                continue;
            };
            if st.leader != Some(leader) || !matches!(st.role, Role::Follower { .. }) {
                continue;
            }
            if d.error.is_some() {
                error = true;
                continue;
            }
            if let Some(epoch_end) = d.epoch_end {
                let point = match epoch_end {
                    None => 0,
                    Some((epoch, end)) => {
                        end.min(replica.log.end_offset_for(epoch).map_or(0, |(_, e)| e))
                    }
                };
                let leo = replica.log.leo;
                if point < leo {
                    replica.log.truncate_to(point);
                    out.event(
                        EventKind::ReplicaTruncated {
                            broker: id,
                            partition: d.tp.to_string(),
                            from_offset: point,
                            to_offset: leo,
                        },
                        ReplicationCause::TruncatedAtDivergence,
                    );
                }
                st.role = Role::Follower {
                    check_divergence: false,
                };
                continue;
            }
            if d.leader_leo < replica.log.leo {
                // OFFSET_OUT_OF_RANGE: the leader has less than the follower.
                let leo = replica.log.leo;
                replica.log.truncate_to(d.leader_leo);
                out.event(
                    EventKind::ReplicaTruncated {
                        broker: id,
                        partition: d.tp.to_string(),
                        from_offset: d.leader_leo,
                        to_offset: leo,
                    },
                    ReplicationCause::TruncatedToLeaderEnd,
                );
                continue;
            }
            let from = replica.log.leo;
            replica.log.append_runs(&d.runs);
            for (o, payload) in d.payloads {
                if o >= from && o < replica.log.leo {
                    replica.log.payloads.insert(o, payload);
                }
            }
            replica.log.add_fetched_batches(from, &d.batches);
            let hw = d.hw.min(replica.log.leo);
            if hw > replica.log.hw {
                replica.log.hw = hw;
            }
        }
        if error {
            self.fetchers.entry(leader).or_default().backing_off = true;
            out.timer(
                now + settings.replica_fetch_backoff_ms,
                self.me(),
                Timer::Replica(ReplicaTimer::FetchBackoff { leader }),
            );
        } else {
            self.maybe_fetch(now, leader, out);
        }
    }
}
