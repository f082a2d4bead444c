//! LeaderAndIsr from the controller: becoming leader or follower (`ReplicaManager.becomeLeaderOrFollower`, `Partition.makeLeader` / `makeFollower`), and StopReplica.

use super::causes::ReplicationCause;
use super::{leader_followers, LeaderState, ReplicaManager, ReplicaState, Role};
use crate::collections::VecSet;
use crate::sim::config::Settings;
use crate::sim::coordinator::OFFSETS_TOPIC;
use crate::sim::event::EventKind;
use crate::sim::message::{KafkaError, Out, PartitionInfo};
use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;

impl ReplicaManager<'_> {
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
        let mut kick = VecSet::new();
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
                            ReplicationCause::OlderLeaderEpochIgnored,
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
    pub(super) fn make_follower(
        &mut self,
        tp: &TopicPartition,
        settings: &Settings,
        out: &mut Out,
    ) {
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
                    ReplicationCause::TruncatedToHighWatermark,
                );
            }
        }
    }

    /// `StopReplica`: stop fetching, and with `delete` drop the replica.
    #[inline(never)]
    pub(crate) fn stop_replicas(&mut self, partitions: &[TopicPartition], delete: bool) {
        for tp in partitions {
            if delete {
                self.replicas.remove(tp);
            } else if let Some(r) = self.replicas.get_mut(tp) {
                r.state = None;
            }
        }
    }
}
