//! The broker side of replication: each replica's log, the leader's view of its followers,
//! follower fetching, the high watermark, ISR shrink and expand, produce with acks, and
//! truncation after a leader change.
//!
//! Sources: `kafka.cluster.Partition` (`makeLeader`, `makeFollower`, `maybeShrinkIsr`,
//! `maybeExpandIsr`, `maybeIncrementLeaderHW`, `appendRecordsToLeader`),
//! `kafka.server.ReplicaManager` (`becomeLeaderOrFollower`, the ISR-expiration task every
//! `replica.lag.time.max.ms` / 2), `ReplicaFetcherThread` (truncation to the high watermark
//! before 0.11, by leader epoch from 0.11, KIP-101/KIP-279), `DelayedFetch`
//! (`replica.fetch.wait.max.ms`), `DelayedProduce` (acks=all) and `AlterPartitionManager`
//! (KIP-497, 2.7+; before it the leader writes the partition state znode itself by
//! compare-and-set and leaves an `/isr_change_notification`).

use super::broker::{Broker, BrokerStatus, Pending};
use super::config::Settings;
use super::coordinator::{OffsetsLogs, OFFSETS_TOPIC};
use super::event::EventKind;
use super::log::{BatchMark, Log};
use super::message::{
    Body, FetchData, FetchPartition, IsrProposal, KafkaError, OpResult, Out, PartitionInfo,
    ProduceBatch, Timer, ZkError, ZkOp,
};
use super::net::{BrokerId, Endpoint};
use super::topic::{Acks, TopicPartition};
use super::znodes::{partition_state_path, PartitionState};
use std::collections::{BTreeMap, BTreeSet};

/// `replica.socket.timeout.ms`: how long a follower waits for a fetch answer.
pub const REPLICA_SOCKET_TIMEOUT_MS: u64 = 30_000;

/// One replica of one partition on one broker.
#[derive(Debug, Clone, Default)]
pub struct Replica {
    /// The log, kept on disk: it survives crashes and restarts.
    pub log: Log,
    /// What the broker process knows of the partition (memory; gone with the process).
    pub state: Option<ReplicaState>,
}

/// The group coordinator's view of the broker's replicas: leadership of an offsets partition,
/// its log, and the append of a group record in the leader epoch the broker knows.
impl OffsetsLogs for BTreeMap<TopicPartition, Replica> {
    fn leads(&self, tp: &TopicPartition) -> bool {
        self.get(tp)
            .and_then(|r| r.state.as_ref())
            .is_some_and(|s| matches!(s.role, Role::Leader(_)))
    }

    fn log(&self, tp: &TopicPartition) -> Option<&Log> {
        self.get(tp).map(|r| &r.log)
    }

    fn append(&mut self, tp: &TopicPartition, payload: String) -> Option<u64> {
        let r = self.get_mut(tp)?;
        let epoch = r.state.as_ref()?.leader_epoch;
        Some(r.log.append_payload(epoch, payload))
    }
}

/// A replica's in-memory state, from the last LeaderAndIsr it accepted.
#[derive(Debug, Clone)]
pub struct ReplicaState {
    /// The leader, `None` while the partition has none.
    pub leader: Option<BrokerId>,
    /// The leader epoch.
    pub leader_epoch: u64,
    /// The ISR as this broker knows it (the leader's is authoritative).
    pub isr: Vec<BrokerId>,
    /// The assignment.
    pub replicas: Vec<BrokerId>,
    /// The zkVersion of the partition state znode (the partition epoch).
    pub zk_version: i32,
    /// The controller epoch of the request that set this state.
    pub controller_epoch: u64,
    /// Leader or follower.
    pub role: Role,
}

/// What a replica does.
#[derive(Debug, Clone)]
pub enum Role {
    /// Leads: tracks its followers.
    Leader(LeaderState),
    /// Follows `leader`.
    Follower {
        /// The follower must first find where its log diverges from the new leader's.
        check_divergence: bool,
    },
}

/// The leader's view of one follower (`kafka.cluster.Replica`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// The follower's log end offset, from its last fetch (0 until it fetches).
    pub leo: u64,
    /// The last time the follower was caught up.
    pub last_caught_up_ms: u64,
    /// When the last fetch arrived, and the leader's log end then.
    pub last_fetch_ms: u64,
    /// The leader's log end offset at the last fetch.
    pub last_fetch_leader_leo: u64,
}

/// A leader's state.
#[derive(Debug, Clone, Default)]
pub struct LeaderState {
    /// Each follower's progress.
    pub followers: BTreeMap<BrokerId, Progress>,
    /// The log end offset when this leader epoch began.
    pub epoch_start_offset: u64,
    /// An ISR change sent and not yet confirmed.
    pub pending_isr: Option<Vec<BrokerId>>,
    /// The pending change was refused because this leader's partition state is out of date
    /// (FENCED_LEADER_EPOCH, INVALID_UPDATE_VERSION): no ISR change until the controller's next
    /// LeaderAndIsr brings the current state (`Partition.handleAlterPartitionError`, 3.9).
    pub isr_blocked: bool,
    /// The last error an ISR change met (reported once until a change succeeds).
    pub isr_error: Option<String>,
}

/// An acks=all produce waiting for the high watermark (`DelayedProduce`).
#[derive(Debug, Clone)]
pub struct WaitingProduce {
    /// The partition.
    pub tp: TopicPartition,
    /// One past the last offset appended.
    pub end: u64,
    /// Base offset and leader epoch of the append.
    pub base: (u64, u64),
    /// Who asked.
    pub from: Endpoint,
}

/// A follower's fetcher for one leader.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fetcher {
    /// The fetch in flight, by correlation id.
    pub in_flight: Option<u64>,
    /// Backing off after an error.
    pub backing_off: bool,
}

/// A stalled fetcher rule: all partitions, one topic, or one partition.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stall {
    /// The topic, or every topic.
    pub topic: Option<String>,
    /// The partition, or every partition of the topic.
    pub partition: Option<u32>,
}

impl Stall {
    fn covers(&self, tp: &TopicPartition) -> bool {
        self.topic.as_ref().is_none_or(|t| *t == tp.topic)
            && self.partition.is_none_or(|p| p == tp.partition)
    }
}

/// The leader's view of its followers after a LeaderAndIsr that makes or keeps it leader
/// (`Partition.makeLeader` and `Replica.resetReplicaState`, 3.9.0; `Partition.makeLeader` with
/// `resetLastCaughtUpTime`, 2.0.1 and 0.10.2.2).
///
/// The followers are the request's replicas: one removed by the controller (a reassignment) is
/// forgotten, so it can never rejoin the ISR; one added starts unknown. A broker that *newly*
/// becomes leader knows nothing of its followers' logs. A leader that stays leader through a
/// leader-epoch bump keeps each follower's log end offset. Either way a follower in the ISR
/// counts as caught up now, one outside it as never.
fn leader_followers(
    me: BrokerId,
    info: &PartitionInfo,
    kept: Option<BTreeMap<BrokerId, Progress>>,
    leader_leo: u64,
    now: u64,
) -> BTreeMap<BrokerId, Progress> {
    info.replicas
        .iter()
        .filter(|r| **r != me)
        .map(|r| {
            let in_sync = info.isr.contains(r);
            let caught_up = if in_sync { now } else { 0 };
            let progress = match kept.as_ref().and_then(|k| k.get(r)) {
                Some(old) => Progress {
                    leo: old.leo,
                    last_caught_up_ms: caught_up,
                    last_fetch_ms: caught_up,
                    last_fetch_leader_leo: leader_leo,
                },
                None => Progress {
                    leo: 0,
                    last_caught_up_ms: caught_up,
                    last_fetch_ms: 0,
                    last_fetch_leader_leo: 0,
                },
            };
            (*r, progress)
        })
        .collect()
}

impl Broker {
    /// The `min.insync.replicas` the leader of `tp` enforces: the topic's setting, capped at the
    /// partition's replica count from 3.7 (`Partition.effectiveMinIsr`, 3.7.0 and 3.9.0: "the
    /// effective min ISR of min(replication factor, min ISR)"); before 3.7 the setting as it is,
    /// so a topic of RF 2 with `min.insync.replicas` 3 refuses every acks=all write
    /// (`Partition.appendRecordsToLeader`, 2.4.1).
    fn min_insync(&self, settings: &Settings, tp: &TopicPartition) -> usize {
        let configured = settings.topic_min_insync(&tp.topic) as usize;
        let replicas = self
            .replicas
            .get(tp)
            .and_then(|r| r.state.as_ref())
            .map(|s| s.replicas.len());
        match replicas {
            Some(n) if settings.profile.caps_min_isr_at_replication_factor() => configured.min(n),
            _ => configured,
        }
    }

    /// Whether the fetchers of this broker skip `tp` (a stall action).
    pub fn is_stalled(&self, tp: &TopicPartition) -> bool {
        self.stalls.iter().any(|s| s.covers(tp))
    }

    /// Starts the periodic ISR-expiration check of a fresh process.
    pub(crate) fn start_replica_manager(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        out.timer(
            now + (settings.replica_lag_time_max_ms / 2).max(1),
            self.me(),
            Timer::IsrExpiration,
        );
    }

    // ----- LeaderAndIsr, UpdateMetadata partitions, StopReplica -----

    /// `ReplicaManager.becomeLeaderOrFollower`, after the epoch checks passed.
    pub(crate) fn apply_leader_and_isr(
        &mut self,
        now: u64,
        from: BrokerId,
        controller_epoch: u64,
        partitions: Vec<PartitionInfo>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let mut kick = BTreeSet::new();
        for info in partitions {
            if !info.replicas.contains(&self.id) {
                continue;
            }
            let replica = self.replicas.entry(info.tp.clone()).or_default();
            if let Some(st) = &replica.state {
                if info.leader_epoch <= st.leader_epoch {
                    if info.leader_epoch < st.leader_epoch {
                        out.event(
                            EventKind::StaleRequestRejected {
                                broker: self.id,
                                from,
                                request: format!("LeaderAndIsr for {}", info.tp),
                                epoch: info.leader_epoch as i64,
                                current: st.leader_epoch as i64,
                                error: "STALE_CONTROLLER_EPOCH (partition ignored: an older leader epoch)".into(),
                            },
                            "a partition whose leader epoch is not newer than the broker's is ignored",
                        );
                    }
                    continue;
                }
            }
            let leader = BrokerId::try_from(info.leader).ok();
            let was_leader = matches!(
                replica.state.as_ref().map(|s| &s.role),
                Some(Role::Leader(_))
            );
            let role = if leader == Some(self.id) {
                let kept = match replica.state.take().map(|s| s.role) {
                    Some(Role::Leader(ls)) => Some(ls.followers),
                    _ => None,
                };
                Role::Leader(LeaderState {
                    followers: leader_followers(self.id, &info, kept, replica.log.leo, now),
                    epoch_start_offset: replica.log.leo,
                    pending_isr: None,
                    isr_blocked: false,
                    isr_error: None,
                })
            } else {
                Role::Follower {
                    check_divergence: false,
                }
            };
            replica.state = Some(ReplicaState {
                leader,
                leader_epoch: info.leader_epoch,
                isr: info.isr.clone(),
                replicas: info.replicas.clone(),
                zk_version: info.zk_version,
                controller_epoch,
                role,
            });
            if leader != Some(self.id) {
                if was_leader {
                    self.fail_waiting_produce(&info.tp, KafkaError::NotLeaderOrFollower, out);
                    if info.tp.topic == OFFSETS_TOPIC {
                        self.with_coordinator(now, settings, out, |c| c.unload_groups(&info.tp));
                    }
                }
                self.make_follower(&info.tp, settings, out);
                if let Some(l) = leader {
                    kick.insert(l);
                }
            } else {
                self.maybe_advance_hw(now, &info.tp, settings, out);
                if !was_leader && info.tp.topic == OFFSETS_TOPIC {
                    self.with_coordinator(now, settings, out, |c| c.load_groups(&info.tp));
                }
            }
        }
        for leader in kick {
            self.maybe_fetch(now, leader, out);
        }
    }

    /// `makeFollower`: before 0.11 truncate to the high watermark at once (the records above
    /// it may be lost for good); from 0.11 ask the leader where the logs diverge first.
    fn make_follower(&mut self, tp: &TopicPartition, settings: &Settings, out: &mut Out) {
        let id = self.id;
        let Some(replica) = self.replicas.get_mut(tp) else {
            return;
        };
        let Some(st) = replica.state.as_mut() else {
            return;
        };
        if settings.profile.truncates_by_leader_epoch() {
            st.role = Role::Follower {
                check_divergence: replica.log.leo > 0,
            };
        } else {
            let (leo, hw) = (replica.log.leo, replica.log.hw);
            let gone = replica.log.truncate_to(hw);
            if gone > 0 {
                out.event(
                    EventKind::ReplicaTruncated {
                        broker: id,
                        partition: tp.to_string(),
                        from_offset: hw,
                        to_offset: leo,
                    },
                    "before 0.11 a follower truncates its log to its high watermark when it starts following (KafkaTruncateToHighWatermark): acknowledged records above it can be lost",
                );
            }
        }
    }

    /// `StopReplica`: stop fetching, and with `delete` drop the replica.
    pub(crate) fn stop_replicas(&mut self, partitions: &[TopicPartition], delete: bool) {
        for tp in partitions {
            if delete {
                self.replicas.remove(tp);
            } else if let Some(r) = self.replicas.get_mut(tp) {
                r.state = None;
            }
        }
    }

    // ----- produce -----

    /// `appendRecordsToLeader`, with acks and `min.insync.replicas` (`Partition`), and the
    /// producer state check of `Log.append` (2.4.1) / `UnifiedLog.append` (3.9.0): the batch of
    /// an idempotent producer that the log already holds is not written again.
    pub(crate) fn on_produce(
        &mut self,
        now: u64,
        from: Endpoint,
        (request, tp, records, acks, batch): (u64, TopicPartition, u64, Acks, ProduceBatch),
        settings: &Settings,
        out: &mut Out,
    ) {
        let min_isr = self.min_insync(settings, &tp);
        let reply = |result: Result<(u64, u64), KafkaError>, out: &mut Out| {
            if acks != Acks::Zero {
                out.send(
                    Endpoint::Broker(self.id),
                    from,
                    Body::ProduceResponse {
                        request,
                        tp: tp.clone(),
                        result,
                    },
                );
            }
        };
        let Some((epoch, isr_len)) = self.replicas.get(&tp).and_then(|r| {
            r.state.as_ref().and_then(|s| match s.role {
                Role::Leader(_) => Some((s.leader_epoch, s.isr.len())),
                Role::Follower { .. } => None,
            })
        }) else {
            reply(Err(KafkaError::NotLeaderOrFollower), out);
            return;
        };
        // `Partition.appendRecordsToLeader`: checked before the log looks at the batch.
        if acks == Acks::All && isr_len < min_isr {
            reply(Err(KafkaError::NotEnoughReplicas), out);
            return;
        }
        let id = self.id;
        let replica = self.replicas.get_mut(&tp).expect("checked above");
        // `analyzeAndValidateProducerState` (0.11+, KIP-98): a client batch of an idempotent
        // producer is looked up among the last batches of its producer id
        // (`ProducerStateEntry.findDuplicateBatch`, the last NUM_BATCHES_TO_RETAIN = 5); the
        // producer never has more than 5 in flight, so those always hold a retried one. The
        // answer carries the offsets of the copy the log has. Followers build the same
        // producer state from the batches they replicate, so a new leader knows them too.
        let held = if batch.idempotent {
            replica.log.find_batch(batch.producer, batch.sequence)
        } else {
            None
        };
        let (base, end, base_epoch) = match held {
            Some(first) => {
                let first_epoch = replica.log.epoch_at(first).unwrap_or(epoch);
                out.event(
                    EventKind::DuplicateDropped {
                        broker: id,
                        partition: tp.to_string(),
                        offset: first,
                        records,
                    },
                    format!(
                        "enable.idempotence=true: the batch (producer id {}, sequence {}) is already in the log, written in leader epoch {first_epoch}; the leader answers with its offset and writes nothing (ProducerStateEntry.findDuplicateBatch)",
                        batch.producer, batch.sequence
                    ),
                );
                (first, first + records, first_epoch)
            }
            None => {
                let (base, first) = replica.log.append_batch(
                    epoch,
                    BatchMark {
                        producer: batch.producer,
                        sequence: batch.sequence,
                        records,
                        duplicate: false,
                    },
                );
                if let Some(first) = first {
                    out.event(
                        EventKind::DuplicateWritten {
                            broker: id,
                            partition: tp.to_string(),
                            from_offset: base,
                            to_offset: base + records,
                            records,
                            first_offset: first,
                        },
                        "enable.idempotence=false: the producer sent a batch again after an error although its first copy had been written; the leader cannot tell (the batch carries no producer id or sequence) and writes it twice",
                    );
                }
                (base, replica.log.leo, epoch)
            }
        };
        match acks {
            Acks::Zero => {}
            Acks::One => reply(Ok((base, base_epoch)), out),
            Acks::All => {
                // `ReplicaManager.appendRecords`: a DelayedProduce waits until the high
                // watermark passes the batch (for a duplicate, the copy the log holds).
                self.waiting_produce.insert(
                    request,
                    WaitingProduce {
                        tp: tp.clone(),
                        end,
                        base: (base, base_epoch),
                        from,
                    },
                );
                out.timer(
                    now + settings.request_timeout_ms,
                    self.me(),
                    Timer::ProduceTimeout { request },
                );
            }
        }
        self.maybe_advance_hw(now, &tp, settings, out);
        if held.is_none() {
            self.answer_delayed_fetches(now, &tp, settings, out);
        }
    }

    /// After the leader appended on its own (a group record): advance the high watermark and
    /// answer held fetches.
    pub(crate) fn after_append(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
        self.maybe_advance_hw(now, tp, settings, out);
        self.answer_delayed_fetches(now, tp, settings, out);
    }

    pub(crate) fn on_produce_timeout(&mut self, request: u64, out: &mut Out) {
        if let Some(w) = self.waiting_produce.remove(&request) {
            out.send(
                self.me(),
                w.from,
                Body::ProduceResponse {
                    request,
                    tp: w.tp,
                    result: Err(KafkaError::RequestTimedOut),
                },
            );
        }
    }

    fn fail_waiting_produce(&mut self, tp: &TopicPartition, error: KafkaError, out: &mut Out) {
        let ids: Vec<u64> = self
            .waiting_produce
            .iter()
            .filter(|(_, w)| w.tp == *tp)
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            let w = self.waiting_produce.remove(&id).expect("listed above");
            out.send(
                self.me(),
                w.from,
                Body::ProduceResponse {
                    request: id,
                    tp: w.tp,
                    result: Err(error),
                },
            );
        }
    }

    /// `maybeIncrementLeaderHW`: the high watermark is the smallest log end offset in the ISR
    /// (from 3.7 it stays put while the ISR is smaller than `min.insync.replicas`). Waiting
    /// acks=all produces complete when it passes them.
    fn maybe_advance_hw(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
        let min_isr = self.min_insync(settings, tp);
        let id = self.id;
        let Some(replica) = self.replicas.get_mut(tp) else {
            return;
        };
        let Some(st) = replica.state.as_ref() else {
            return;
        };
        let Role::Leader(ls) = &st.role else {
            return;
        };
        if settings.profile.freezes_hw_under_min_isr() && st.isr.len() < min_isr {
            return;
        }
        let isr_len = st.isr.len();
        // The "maximal ISR": a follower whose addition is still on its way to ZooKeeper already
        // holds the high watermark back (KIP-497), so it never joins below it. Only assigned
        // replicas count (`remoteReplicasMap`, 3.9.0; `assignedReplicas`, 2.0.1): a replica a
        // reassignment removed may linger in the ISR until the controller takes it out.
        let hw = st
            .isr
            .iter()
            .chain(ls.pending_isr.iter().flatten())
            .filter_map(|r| {
                if *r == id {
                    Some(replica.log.leo)
                } else {
                    ls.followers.get(r).map(|p| p.leo)
                }
            })
            .min()
            .unwrap_or(replica.log.leo)
            .min(replica.log.leo);
        if hw > replica.log.hw {
            replica.log.hw = hw;
        }
        let hw = replica.log.hw;
        if !self.coordinator.writes.is_empty() {
            self.with_coordinator(now, settings, out, |c| c.complete_writes(tp, hw));
        }
        let done: Vec<u64> = self
            .waiting_produce
            .iter()
            .filter(|(_, w)| w.tp == *tp && w.end <= hw)
            .map(|(id, _)| *id)
            .collect();
        for request in done {
            let w = self.waiting_produce.remove(&request).expect("listed above");
            let result = if isr_len < min_isr {
                Err(KafkaError::NotEnoughReplicasAfterAppend)
            } else {
                Ok(w.base)
            };
            out.send(
                Endpoint::Broker(id),
                w.from,
                Body::ProduceResponse {
                    request,
                    tp: w.tp,
                    result,
                },
            );
        }
    }

    // ----- fetching: the follower side -----

    /// Sends a fetch to `leader` for every partition this broker follows there, unless one
    /// is in flight, the fetcher backs off, or nothing is left to fetch.
    pub(crate) fn maybe_fetch(&mut self, now: u64, leader: BrokerId, out: &mut Out) {
        if leader == self.id
            || !matches!(
                self.status,
                BrokerStatus::Running | BrokerStatus::ShuttingDown
            )
        {
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
        let correlation_id = self.next_fetch;
        self.next_fetch += 1;
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
            Timer::FetchTimeout {
                leader,
                correlation_id,
            },
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
        let leaders: BTreeSet<BrokerId> = self
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
                        "the follower's log diverged from the new leader's: it truncates to where their leader epochs part (KIP-101, KIP-279)",
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
                    "the follower is ahead of the new leader (OFFSET_OUT_OF_RANGE): it truncates to the leader's log end",
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
                Timer::FetchBackoff { leader },
            );
        } else {
            self.maybe_fetch(now, leader, out);
        }
    }

    // ----- fetching: the leader side -----

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
                Timer::DelayedFetch {
                    follower,
                    correlation_id,
                },
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
    fn answer_delayed_fetches(
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

    fn fetch_answer(&self, partitions: &[FetchPartition], settings: &Settings) -> Vec<FetchData> {
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
    fn record_fetch(
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

    // ----- the ISR -----

    /// The ISR-expiration task: drop followers that have been behind for longer than
    /// `replica.lag.time.max.ms` (and whose log end differs from the leader's).
    pub(crate) fn on_isr_expiration(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        out.timer(
            now + (settings.replica_lag_time_max_ms / 2).max(1),
            self.me(),
            Timer::IsrExpiration,
        );
        let id = self.id;
        let mut shrinks = Vec::new();
        let mut resend = Vec::new();
        for (tp, r) in &self.replicas {
            let Some(st) = r.state.as_ref() else {
                continue;
            };
            let Role::Leader(ls) = &st.role else {
                continue;
            };
            if let Some(pending) = &ls.pending_isr {
                if !ls.isr_blocked {
                    resend.push((tp.clone(), pending.clone()));
                }
                continue;
            }
            // A follower is out of sync when it has not caught up for longer than the lag time;
            // from 2.1 only if it is also behind the leader's log end, so an idle partition
            // keeps a stalled follower (`Partition.isFollowerOutOfSync`, 2.4.1 and 3.9.0;
            // `Partition.getOutOfSyncReplicas`, 2.0.1 and 0.10.2.2). An ISR member that is not
            // an assigned replica any more is out of sync (3.9.0: `getReplica(..).fold(true)`).
            let behind_matters = settings.profile.shrinks_isr_only_when_behind();
            let out_of_sync: Vec<BrokerId> = st
                .isr
                .iter()
                .copied()
                .filter(|f| *f != id)
                .filter(|f| match ls.followers.get(f) {
                    None => true,
                    Some(p) => {
                        (!behind_matters || p.leo != r.log.leo)
                            && now.saturating_sub(p.last_caught_up_ms)
                                > settings.replica_lag_time_max_ms
                    }
                })
                .collect();
            if !out_of_sync.is_empty() {
                let isr: Vec<BrokerId> = st
                    .isr
                    .iter()
                    .copied()
                    .filter(|f| !out_of_sync.contains(f))
                    .collect();
                shrinks.push((tp.clone(), isr));
            }
        }
        if settings.profile.uses_alter_partition() {
            // AlterPartitionManager retries an unanswered request.
            for (tp, isr) in resend {
                self.send_alter_partition(&tp, isr, out);
            }
        }
        for (tp, isr) in shrinks {
            self.propose_isr(now, &tp, isr, settings, out);
        }
    }

    /// The leader changes the ISR without a new leader epoch: by compare-and-set on the
    /// partition state znode before 2.7, by AlterPartition to the controller from 2.7.
    fn propose_isr(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        isr: Vec<BrokerId>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let id = self.id;
        let Some(st) = self.replicas.get_mut(tp).and_then(|r| r.state.as_mut()) else {
            return;
        };
        let Role::Leader(ls) = &mut st.role else {
            return;
        };
        ls.pending_isr = Some(isr.clone());
        ls.isr_blocked = false;
        if settings.profile.uses_alter_partition() {
            self.send_alter_partition(tp, isr, out);
        } else {
            let state = PartitionState {
                controller_epoch: st.controller_epoch,
                leader: id as i64,
                version: 1,
                leader_epoch: st.leader_epoch,
                isr: isr.clone(),
            };
            let version = st.zk_version;
            let leader_epoch = st.leader_epoch;
            self.zk_request(
                now,
                ZkOp::SetData {
                    path: partition_state_path(&tp.topic, tp.partition),
                    data: state.to_json(),
                    version: Some(version),
                },
                Pending::IsrUpdate {
                    tp: tp.clone(),
                    isr,
                    leader_epoch,
                },
                out,
            );
        }
    }

    fn send_alter_partition(&mut self, tp: &TopicPartition, isr: Vec<BrokerId>, out: &mut Out) {
        let Some(st) = self.replicas.get(tp).and_then(|r| r.state.as_ref()) else {
            return;
        };
        let Some(controller) = self.metadata_controller else {
            return;
        };
        out.send(
            self.me(),
            Endpoint::Broker(controller),
            Body::AlterPartition {
                broker_epoch: self.broker_epoch.unwrap_or(-1),
                tp: tp.clone(),
                leader_epoch: st.leader_epoch,
                isr,
                zk_version: st.zk_version,
            },
        );
    }

    /// The answer to the leader's compare-and-set of the partition state (before 2.7).
    /// `Partition.updateIsr` → `ReplicationUtils.updateLeaderAndIsr`, a conditional update whose
    /// BADVERSION is checked by `ReplicationUtils.checkLeaderAndIsrZkData` (0.10.2.2, 2.0.1, 2.4.1):
    /// if the znode already holds exactly the state it meant to write, the update succeeded.
    pub(crate) fn on_isr_update_result(
        &mut self,
        now: u64,
        (tp, isr, leader_epoch): (TopicPartition, Vec<BrokerId>, u64),
        result: Result<OpResult, ZkError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        match result {
            Ok(OpResult::Set(stat)) => {
                self.isr_update_written(now, (tp, isr, leader_epoch), stat.version, settings, out)
            }
            Err(ZkError::BadVersion) => self.zk_request(
                now,
                ZkOp::Exists {
                    path: partition_state_path(&tp.topic, tp.partition),
                    watch: false,
                },
                Pending::IsrUpdateCheck {
                    tp,
                    isr,
                    leader_epoch,
                },
                out,
            ),
            Err(e) => self.isr_update_refused(&tp, e.name(), out),
            _ => {}
        }
    }

    /// The znode read after a BADVERSION: the change is there already, or it failed.
    pub(crate) fn on_isr_update_check(
        &mut self,
        now: u64,
        (tp, isr, leader_epoch): (TopicPartition, Vec<BrokerId>, u64),
        result: Result<OpResult, ZkError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let controller_epoch = self
            .replicas
            .get(&tp)
            .and_then(|r| r.state.as_ref())
            .map(|s| s.controller_epoch);
        let written = match &result {
            Ok(OpResult::Node(Some(n))) => PartitionState::from_json(&n.data)
                .filter(|st| {
                    st.leader == self.id as i64
                        && st.leader_epoch == leader_epoch
                        && st.isr == isr
                        && Some(st.controller_epoch) == controller_epoch
                })
                .map(|_| n.stat.version),
            _ => None,
        };
        match written {
            Some(version) => {
                self.isr_update_written(now, (tp, isr, leader_epoch), version, settings, out)
            }
            None => self.isr_update_refused(&tp, ZkError::BadVersion.name(), out),
        }
    }

    fn isr_update_written(
        &mut self,
        now: u64,
        (tp, isr, leader_epoch): (TopicPartition, Vec<BrokerId>, u64),
        version: i32,
        settings: &Settings,
        out: &mut Out,
    ) {
        self.isr_changed(now, &tp, leader_epoch, isr, version, settings, out);
        // Tell the controller: a sequential znode under /isr_change_notification.
        self.isr_notifications += 1;
        let name = format!(
            "/isr_change_notification/isr_change_{}_{:04}",
            self.id, self.isr_notifications
        );
        self.zk_request(
            now,
            ZkOp::Create {
                path: name,
                data: format!("{{\"version\":1,\"partitions\":[\"{tp}\"]}}"),
                ephemeral: false,
            },
            Pending::IsrNotify,
            out,
        );
    }

    fn isr_update_refused(&mut self, tp: &TopicPartition, error: &str, out: &mut Out) {
        self.isr_change_failed(
            tp,
            error,
            false,
            "cached zkVersion not equal to that in ZooKeeper, skip updating ISR: the controller changed the partition since this leader's last LeaderAndIsr",
            out,
        );
    }

    /// An ISR change did not go through: with `blocked`, the leader keeps it pending and makes
    /// no other change until a LeaderAndIsr brings the current partition state; otherwise it
    /// forgets it and may try again. It says so once per error until a change succeeds.
    fn isr_change_failed(
        &mut self,
        tp: &TopicPartition,
        error: &str,
        blocked: bool,
        cause: &str,
        out: &mut Out,
    ) {
        if let Some(Role::Leader(ls)) = self
            .replicas
            .get_mut(tp)
            .and_then(|r| r.state.as_mut())
            .map(|s| &mut s.role)
        {
            if blocked {
                ls.isr_blocked = true;
            } else {
                ls.pending_isr = None;
            }
            if ls.isr_error.replace(error.to_string()).as_deref() == Some(error) {
                return;
            }
        }
        out.event(
            EventKind::IsrUpdateFailed {
                broker: self.id,
                partition: tp.to_string(),
                error: error.into(),
            },
            cause,
        );
    }

    /// The controller's answer to AlterPartition (2.7+), as `Partition.handleAlterPartitionUpdate`
    /// and `handleAlterPartitionError` take it (3.9.0). An answer to another proposal than the
    /// pending one is stale and ignored. INELIGIBLE_REPLICA resets the leader to its last
    /// committed ISR (it may propose again); FENCED_LEADER_EPOCH and INVALID_UPDATE_VERSION mean
    /// its partition state is out of date, so it waits for the controller's LeaderAndIsr;
    /// NOT_CONTROLLER and STALE_BROKER_EPOCH are retried (`AlterPartitionManager`).
    pub(crate) fn on_alter_partition_response(
        &mut self,
        now: u64,
        tp: TopicPartition,
        proposed: IsrProposal,
        result: Result<PartitionInfo, KafkaError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(st) = self.replicas.get_mut(&tp).and_then(|r| r.state.as_mut()) else {
            return;
        };
        let Role::Leader(ls) = &mut st.role else {
            return;
        };
        let current = ls.pending_isr.as_ref() == Some(&proposed.isr)
            && proposed.leader_epoch == st.leader_epoch
            && proposed.zk_version == st.zk_version;
        if !current || ls.isr_blocked {
            return;
        }
        match result {
            Ok(info) if info.leader_epoch == st.leader_epoch && info.zk_version >= st.zk_version => {
                self.isr_changed(
                    now,
                    &tp,
                    info.leader_epoch,
                    info.isr,
                    info.zk_version,
                    settings,
                    out,
                )
            }
            // An answer from another leader epoch: wait for the LeaderAndIsr of that epoch.
            Ok(_) => ls.isr_blocked = true,
            // Retried on the next ISR-expiration round.
            Err(KafkaError::NotController | KafkaError::StaleBrokerEpoch) => {}
            Err(e @ KafkaError::IneligibleReplica) => self.isr_change_failed(
                &tp,
                e.name(),
                false,
                "the controller refused the ISR change: it names a replica that is not live or is shutting down (INELIGIBLE_REPLICA, KIP-841); the leader goes back to its last committed ISR",
                out,
            ),
            Err(e) => self.isr_change_failed(
                &tp,
                e.name(),
                true,
                "the controller refused the ISR change: it was built on an older partition state (AlterPartition, KIP-497); the leader makes no ISR change until the controller's next LeaderAndIsr",
                out,
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn isr_changed(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        leader_epoch: u64,
        isr: Vec<BrokerId>,
        zk_version: i32,
        settings: &Settings,
        out: &mut Out,
    ) {
        let id = self.id;
        let Some(st) = self.replicas.get_mut(tp).and_then(|r| r.state.as_mut()) else {
            return;
        };
        if st.leader_epoch != leader_epoch {
            return;
        }
        let Role::Leader(ls) = &mut st.role else {
            return;
        };
        ls.pending_isr = None;
        ls.isr_blocked = false;
        ls.isr_error = None;
        let before = std::mem::replace(&mut st.isr, isr.clone());
        st.zk_version = zk_version;
        let added: Vec<BrokerId> = isr
            .iter()
            .copied()
            .filter(|r| !before.contains(r))
            .collect();
        let removed: Vec<BrokerId> = before
            .iter()
            .copied()
            .filter(|r| !isr.contains(r))
            .collect();
        let how = if settings.profile.uses_alter_partition() {
            "AlterPartition to the controller (KIP-497), no leader epoch bump"
        } else {
            "the leader's compare-and-set of the partition state znode, no leader epoch bump"
        };
        if !removed.is_empty() {
            out.event(
                EventKind::IsrShrunk {
                    partition: tp.to_string(),
                    by: id,
                    removed,
                    isr: isr.clone(),
                    leader_epoch,
                },
                if settings.profile.shrinks_isr_only_when_behind() {
                    format!(
                        "the follower was behind the leader's log end for longer than replica.lag.time.max.ms ({} ms); {how}",
                        settings.replica_lag_time_max_ms
                    )
                } else {
                    format!(
                        "the follower had not caught up with the leader's log end for longer than replica.lag.time.max.ms ({} ms): before 2.1 the lag time alone decides, so a follower that stops fetching leaves the ISR even when nothing is written (KAFKA-7152); {how}",
                        settings.replica_lag_time_max_ms
                    )
                },
            );
        }
        if !added.is_empty() {
            out.event(
                EventKind::IsrExpanded {
                    partition: tp.to_string(),
                    by: id,
                    added,
                    isr,
                    leader_epoch,
                },
                format!("the follower caught up to the leader's high watermark; {how}"),
            );
        }
        self.maybe_advance_hw(now, tp, settings, out);
    }
}

#[cfg(test)]
mod tests {
    //! The leader's side of the ISR, one input at a time: a LeaderAndIsr, a follower's fetch,
    //! the ISR-expiration check and the controller's answer to AlterPartition.

    use super::*;
    use crate::sim::config::Profile;

    fn tp() -> TopicPartition {
        TopicPartition::new("t", 0)
    }

    fn info(
        leader: BrokerId,
        epoch: u64,
        isr: &[BrokerId],
        replicas: &[BrokerId],
    ) -> PartitionInfo {
        PartitionInfo {
            tp: tp(),
            leader: leader as i64,
            leader_epoch: epoch,
            isr: isr.to_vec(),
            zk_version: epoch as i32,
            replicas: replicas.to_vec(),
        }
    }

    /// Broker 1 holding 10 records written in leader epoch 0, made leader of t-0 (replicas
    /// [1, 2, 3]) at leader epoch 1 with `isr`, its high watermark at `hw`.
    fn leader(profile: Profile, isr: &[BrokerId], hw: u64) -> (Broker, Settings) {
        let mut settings = Settings::for_profile(profile);
        settings.replica_lag_time_max_ms = 10_000;
        let mut b = Broker::new(1);
        b.status = BrokerStatus::Running;
        b.metadata_controller = Some(9);
        b.metadata_live = vec![1, 2, 3];
        b.replicas.entry(tp()).or_default().log.append(0, 10);
        let mut out = Out::default();
        b.apply_leader_and_isr(
            0,
            9,
            1,
            vec![info(1, 1, isr, &[1, 2, 3])],
            &settings,
            &mut out,
        );
        b.replicas.get_mut(&tp()).unwrap().log.hw = hw;
        (b, settings)
    }

    fn leader_state(b: &Broker) -> &LeaderState {
        match &b.replicas[&tp()].state.as_ref().unwrap().role {
            Role::Leader(ls) => ls,
            Role::Follower { .. } => panic!("not leader"),
        }
    }

    fn fetch(b: &mut Broker, now: u64, from: BrokerId, offset: u64, settings: &Settings) -> Out {
        let mut out = Out::default();
        let partitions = vec![FetchPartition {
            tp: tp(),
            fetch_offset: offset,
            leader_epoch: b.replicas[&tp()].state.as_ref().unwrap().leader_epoch,
            diverging_check: None,
        }];
        b.handle(
            now,
            Endpoint::Broker(from),
            Body::Fetch {
                correlation_id: 1,
                partitions,
            },
            settings,
            &mut out,
        );
        out
    }

    #[test]
    fn a_follower_rejoins_at_the_high_watermark_in_0_10_and_from_the_epoch_start_from_2_0() {
        // High watermark 5; this leader epoch began at offset 10. Broker 3, out of the ISR,
        // fetches from offset 7: past the high watermark, short of the epoch's start.
        for (profile, rejoins) in [
            (Profile::V0_10, true),
            (Profile::V2_0, false),
            (Profile::V3_9, false),
        ] {
            let (mut b, settings) = leader(profile, &[1, 2], 5);
            fetch(&mut b, 100, 3, 7, &settings);
            let pending = leader_state(&b).pending_isr.clone();
            assert_eq!(pending.is_some(), rejoins, "{profile:?}: {pending:?}");
            if rejoins {
                assert_eq!(pending, Some(vec![1, 2, 3]));
            }
            // At the epoch's start every profile takes it back.
            let (mut b, settings) = leader(profile, &[1, 2], 5);
            fetch(&mut b, 100, 3, 10, &settings);
            assert_eq!(
                leader_state(&b).pending_isr,
                Some(vec![1, 2, 3]),
                "{profile:?}"
            );
        }
    }

    #[test]
    fn a_leader_keeps_what_it_knew_of_its_followers_through_a_leader_epoch_bump() {
        let (mut b, settings) = leader(Profile::V3_9, &[1, 2, 3], 10);
        fetch(&mut b, 100, 2, 10, &settings);
        assert_eq!(leader_state(&b).followers[&2].leo, 10);
        // A bump that keeps broker 1 leader: follower 2's log end is kept and it counts as caught
        // up now; follower 3, never heard from, stays unknown.
        let mut out = Out::default();
        b.apply_leader_and_isr(
            5_000,
            9,
            1,
            vec![info(1, 2, &[1, 2, 3], &[1, 2, 3])],
            &settings,
            &mut out,
        );
        let f = &leader_state(&b).followers;
        assert_eq!(
            f[&2],
            Progress {
                leo: 10,
                last_caught_up_ms: 5_000,
                last_fetch_ms: 5_000,
                last_fetch_leader_leo: 10
            }
        );
        assert_eq!(f[&3].leo, 0);
        // A replica the controller removed is forgotten.
        b.apply_leader_and_isr(
            6_000,
            9,
            1,
            vec![info(1, 3, &[1, 2], &[1, 2])],
            &settings,
            &mut out,
        );
        assert_eq!(
            leader_state(&b)
                .followers
                .keys()
                .copied()
                .collect::<Vec<_>>(),
            [2]
        );
        // A broker that newly becomes leader knows nothing of its followers' logs.
        let mut c = Broker::new(2);
        c.status = BrokerStatus::Running;
        c.replicas.entry(tp()).or_default().log.append(0, 10);
        c.apply_leader_and_isr(
            0,
            9,
            1,
            vec![info(1, 1, &[1, 2, 3], &[1, 2, 3])],
            &settings,
            &mut out,
        );
        c.apply_leader_and_isr(
            7_000,
            9,
            1,
            vec![info(2, 2, &[1, 2, 3], &[1, 2, 3])],
            &settings,
            &mut out,
        );
        let f = match &c.replicas[&tp()].state.as_ref().unwrap().role {
            Role::Leader(ls) => ls.followers.clone(),
            Role::Follower { .. } => panic!("not leader"),
        };
        assert_eq!(
            f[&1],
            Progress {
                leo: 0,
                last_caught_up_ms: 7_000,
                last_fetch_ms: 0,
                last_fetch_leader_leo: 0
            }
        );
    }

    #[test]
    fn a_follower_with_nothing_to_fetch_leaves_the_isr_only_before_2_1() {
        // Both followers fetched up to the leader's log end at 1 s and then went quiet; nothing
        // more was written. At 20 s they have not caught up for more than the 10 s lag time.
        for (profile, shrinks) in [
            (Profile::V0_10, true),
            (Profile::V2_0, true),
            (Profile::V2_4, false),
            (Profile::V3_9, false),
        ] {
            let (mut b, settings) = leader(profile, &[1, 2, 3], 10);
            fetch(&mut b, 1_000, 2, 10, &settings);
            fetch(&mut b, 1_000, 3, 10, &settings);
            let mut out = Out::default();
            b.on_isr_expiration(20_000, &settings, &mut out);
            let pending = leader_state(&b).pending_isr.clone();
            assert_eq!(pending, shrinks.then(|| vec![1]), "{profile:?}");
        }
    }

    #[test]
    fn the_high_watermark_counts_only_assigned_replicas() {
        // The ISR still holds broker 3, which the latest LeaderAndIsr no longer lists (a
        // reassignment between its election and the removal of 3 from the ISR).
        let settings = Settings::for_profile(Profile::V3_9);
        let mut b = Broker::new(1);
        b.status = BrokerStatus::Running;
        b.replicas.entry(tp()).or_default().log.append(0, 10);
        let mut out = Out::default();
        b.apply_leader_and_isr(
            0,
            9,
            1,
            vec![info(1, 1, &[1, 2, 3], &[1, 2])],
            &settings,
            &mut out,
        );
        fetch(&mut b, 10, 2, 10, &settings);
        assert_eq!(b.replicas[&tp()].log.hw, 10);
    }

    #[test]
    fn an_isr_change_refused_for_a_stale_partition_state_waits_for_the_next_leader_and_isr() {
        let (mut b, settings) = leader(Profile::V3_9, &[1, 2], 10);
        let mut out = Out::default();
        fetch(&mut b, 100, 3, 10, &settings);
        assert_eq!(leader_state(&b).pending_isr, Some(vec![1, 2, 3]));
        let proposal = |isr: &[BrokerId], leader_epoch: u64| IsrProposal {
            isr: isr.to_vec(),
            leader_epoch,
            zk_version: leader_epoch as i32,
        };
        // An answer to another proposal is ignored: another ISR, or the same ISR asked for in an
        // earlier leader epoch.
        b.on_alter_partition_response(
            110,
            tp(),
            proposal(&[1], 1),
            Err(KafkaError::InvalidUpdateVersion),
            &settings,
            &mut out,
        );
        assert!(!leader_state(&b).isr_blocked);
        b.on_alter_partition_response(
            111,
            tp(),
            proposal(&[1, 2, 3], 0),
            Err(KafkaError::FencedLeaderEpoch),
            &settings,
            &mut out,
        );
        assert!(!leader_state(&b).isr_blocked);
        // INVALID_UPDATE_VERSION: the change stays pending, nothing is resent, no new change.
        b.on_alter_partition_response(
            120,
            tp(),
            proposal(&[1, 2, 3], 1),
            Err(KafkaError::InvalidUpdateVersion),
            &settings,
            &mut out,
        );
        assert!(leader_state(&b).isr_blocked);
        let mut out = Out::default();
        b.on_isr_expiration(30_000, &settings, &mut out);
        assert!(
            out.sends
                .iter()
                .all(|(_, _, m)| !matches!(m, Body::AlterPartition { .. })),
            "{:?}",
            out.sends
        );
        // The controller's next LeaderAndIsr brings the current state and lifts the block.
        b.apply_leader_and_isr(
            31_000,
            9,
            1,
            vec![info(1, 2, &[1, 2], &[1, 2, 3])],
            &settings,
            &mut out,
        );
        assert_eq!(leader_state(&b).pending_isr, None);
        assert!(!leader_state(&b).isr_blocked);
        // From 3.4 the leader proposes only a follower its metadata lists as alive.
        b.metadata_live = vec![1, 2];
        fetch(&mut b, 31_500, 3, 10, &settings);
        assert_eq!(leader_state(&b).pending_isr, None);
        b.metadata_live = vec![1, 2, 3];
        // INELIGIBLE_REPLICA goes back to the committed ISR at once: the leader may propose again.
        fetch(&mut b, 32_000, 3, 10, &settings);
        b.on_alter_partition_response(
            32_010,
            tp(),
            proposal(&[1, 2, 3], 2),
            Err(KafkaError::IneligibleReplica),
            &settings,
            &mut out,
        );
        assert_eq!(leader_state(&b).pending_isr, None);
        assert!(!leader_state(&b).isr_blocked);
    }
}
