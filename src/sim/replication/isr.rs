//! The ISR on the leader: the ISR-expiration check, expansion, and the change sent to the controller (AlterPartition from 2.7, KIP-497) or written to ZooKeeper by compare-and-set before it, with `/isr_change_notification`.

use super::causes::{IsrWrite, ReplicationCause, ShrinkRule};
use super::timers::{ReplicaPending, ReplicaTimer};
use super::{out_of_sync_from, ReplicaManager, Role};
use crate::sim::config::Settings;
use crate::sim::event::EventKind;
use crate::sim::message::{
    Body, IsrProposal, KafkaError, OpResult, Out, PartitionInfo, Timer, ZkError, ZkOp,
};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::topic::TopicPartition;
use crate::sim::zk_client::Pending;
use crate::sim::znodes::{partition_state_path, PartitionState};

impl ReplicaManager<'_> {
    /// The ISR-expiration task: drop followers that have been behind for longer than
    /// `replica.lag.time.max.ms` (and whose log end differs from the leader's).
    pub(crate) fn on_isr_expiration(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        out.timer(
            now + (settings.replica_lag_time_max_ms / 2).max(1),
            self.me(),
            Timer::Replica(ReplicaTimer::IsrExpiration),
        );
        let id = self.id;
        let mut shrinks = Vec::new();
        let mut resend = Vec::new();
        for (tp, r) in self.replicas.iter() {
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
            let out_of_sync: Vec<BrokerId> = st
                .isr
                .iter()
                .copied()
                .filter(|f| *f != id)
                .filter(|f| {
                    out_of_sync_from(ls.followers.get(f), r.log.leo, settings)
                        .is_some_and(|at| now >= at)
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
    pub(super) fn propose_isr(
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
            self.zk.request(
                now,
                ZkOp::SetData {
                    path: partition_state_path(&tp.topic, tp.partition),
                    data: state.to_json(),
                    version: Some(version),
                },
                Pending::Replica(ReplicaPending::WriteIsr {
                    tp: tp.clone(),
                    isr,
                    leader_epoch,
                }),
                out,
            );
        }
    }

    pub(super) fn send_alter_partition(
        &mut self,
        tp: &TopicPartition,
        isr: Vec<BrokerId>,
        out: &mut Out,
    ) {
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
            Err(ZkError::BadVersion) => self.zk.request(
                now,
                ZkOp::Exists {
                    path: partition_state_path(&tp.topic, tp.partition),
                    watch: false,
                },
                Pending::Replica(ReplicaPending::CheckIsrWrite {
                    tp,
                    isr,
                    leader_epoch,
                }),
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

    pub(super) fn isr_update_written(
        &mut self,
        now: u64,
        (tp, isr, leader_epoch): (TopicPartition, Vec<BrokerId>, u64),
        version: i32,
        settings: &Settings,
        out: &mut Out,
    ) {
        self.isr_changed(now, &tp, leader_epoch, isr, version, settings, out);
        // Tell the controller: a sequential znode under /isr_change_notification.
        *self.isr_notifications += 1;
        let name = format!(
            "/isr_change_notification/isr_change_{}_{:04}",
            self.id, self.isr_notifications
        );
        self.zk.request(
            now,
            ZkOp::Create {
                path: name,
                data: format!("{{\"version\":1,\"partitions\":[\"{tp}\"]}}"),
                ephemeral: false,
            },
            Pending::Replica(ReplicaPending::NotifyIsrChange),
            out,
        );
    }

    pub(super) fn isr_update_refused(&mut self, tp: &TopicPartition, error: &str, out: &mut Out) {
        self.isr_change_failed(tp, error, false, ReplicationCause::IsrZkVersionChanged, out);
    }

    /// An ISR change did not go through: with `blocked`, the leader keeps it pending and makes
    /// no other change until a LeaderAndIsr brings the current partition state; otherwise it
    /// forgets it and may try again. It says so once per error until a change succeeds.
    pub(super) fn isr_change_failed(
        &mut self,
        tp: &TopicPartition,
        error: &str,
        blocked: bool,
        cause: ReplicationCause,
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
    #[inline(never)]
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
            Ok(info)
                if info.leader_epoch == st.leader_epoch && info.zk_version >= st.zk_version =>
            {
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
                ReplicationCause::IsrIneligibleReplica,
                out,
            ),
            Err(e) => self.isr_change_failed(
                &tp,
                e.name(),
                true,
                ReplicationCause::IsrStalePartitionState,
                out,
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn isr_changed(
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
        let via = if settings.profile.uses_alter_partition() {
            IsrWrite::AlterPartition
        } else {
            IsrWrite::ZkCompareAndSet
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
                ReplicationCause::IsrShrunk {
                    replica_lag_time_max_ms: settings.replica_lag_time_max_ms,
                    rule: if settings.profile.shrinks_isr_only_when_behind() {
                        ShrinkRule::BehindLogEnd
                    } else {
                        ShrinkRule::LagTimeAlone
                    },
                    via,
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
                ReplicationCause::IsrExpanded { via },
            );
        }
        self.maybe_advance_hw(now, tp, settings, out);
    }
}
