//! Brokers joining, leaving and bouncing (`KafkaController.processBrokerChange`,
//! `onBrokerStartup`, `onBrokerFailure`): the diff of `/brokers/ids` against the live brokers
//! the controller knew, and the events each change queues, in Kafka's order per release.

use super::causes::{ControllerCause, OfflineWhy};
use super::queue::{online_partition_state_change, Reason, Task};
use super::Controller;
use crate::collections::VecMap;
use crate::sim::event::EventKind;
use crate::sim::message::{OpResult, ZkError};
use crate::sim::net::BrokerId;

impl Controller<'_> {
    /// The BrokerChange event's read of `/brokers/ids`: the children and their broker epochs.
    pub(super) fn on_read_brokers(&mut self, results: Vec<Result<OpResult, ZkError>>) {
        if let Some(Ok(OpResult::Children(children))) = results.into_iter().next() {
            let live = parse_brokers(&children);
            self.on_broker_change(live);
        }
    }

    /// `processBrokerChange`: compare the registered brokers with the ones the controller knew.
    pub(crate) fn on_broker_change(&mut self, now_live: VecMap<BrokerId, i64>) {
        let role = &mut *self.role;
        let before = std::mem::replace(&mut role.live, now_live.clone());
        let me = self.me;
        let bounces = self.settings.profile.has_broker_epochs();
        let mut dead = Vec::new();
        let mut bounced = Vec::new();
        for (b, epoch) in &before {
            match now_live.get(b) {
                None => {
                    dead.push(*b);
                    self.out.event(
                        EventKind::BrokerLost {
                            controller: me,
                            broker: *b,
                        },
                        ControllerCause::BrokerGone { broker: *b },
                    );
                }
                Some(new_epoch) if new_epoch > epoch && bounces => {
                    bounced.push(*b);
                    self.out.event(
                        EventKind::BrokerLost {
                            controller: me,
                            broker: *b,
                        },
                        ControllerCause::BrokerBounced { broker: *b },
                    );
                }
                _ => {}
            }
        }
        let mut new = Vec::new();
        for (b, epoch) in &now_live {
            let is_new = !before.contains_key(b) || bounced.contains(b);
            if is_new {
                if !bounced.contains(b) {
                    new.push(*b);
                }
                self.out.event(
                    EventKind::BrokerOnline {
                        controller: me,
                        broker: *b,
                        broker_epoch: *epoch,
                    },
                    ControllerCause::BrokerAppeared { broker: *b },
                );
            }
        }
        if !dead.is_empty() || !new.is_empty() || !bounced.is_empty() {
            self.on_brokers_changed((new, bounced, dead));
        }
    }

    /// `processBrokerChange`, after the diff of `/brokers/ids`, in Kafka's order (3.9.0 and
    /// 2.4.1): `onBrokerStartup` for the new brokers; for the bounced ones (re-registered with a
    /// newer broker epoch before the controller saw them go, KIP-380) `onBrokerFailure` while
    /// they count as dead, then `onBrokerStartup`; last `onBrokerFailure` for the dead ones, which
    /// still count as live until then. Before 2.2 (2.0.1, 0.10.2.2) there are no bounces and the
    /// dead brokers leave the live set before the new ones start up.
    pub(crate) fn on_brokers_changed(
        &mut self,
        (new, bounced, dead): (Vec<BrokerId>, Vec<BrokerId>, Vec<BrokerId>),
    ) {
        let ctx = &mut self.role.partitions;
        for b in new.iter().chain(&bounced).chain(&dead) {
            ctx.channels.remove(b);
            ctx.shutting_down.remove(b);
        }
        let loaded = ctx.loaded;
        let dead_live_at_startup = self.settings.profile.has_broker_epochs();
        if dead_live_at_startup && !dead.is_empty() && loaded {
            ctx.live_override.extend(dead.iter().map(|b| (*b, true)));
        }
        self.broadcast_metadata();
        if !loaded {
            return;
        }
        let mut tasks = Vec::new();
        if !new.is_empty() {
            tasks.push(Task::BrokersStarted(new));
        }
        if !bounced.is_empty() {
            tasks.push(Task::LiveOverride {
                brokers: bounced.clone(),
                live: Some(false),
            });
            tasks.push(Task::BrokerFailure(bounced.clone()));
            tasks.push(Task::LiveOverride {
                brokers: bounced.clone(),
                live: None,
            });
            tasks.push(Task::BrokersStarted(bounced));
        }
        if !dead.is_empty() {
            if dead_live_at_startup {
                tasks.push(Task::LiveOverride {
                    brokers: dead.clone(),
                    live: None,
                });
            }
            tasks.push(Task::BrokerFailure(dead));
        }
        // Part of this BrokerChange event: before the events queued after it.
        self.push_front(tasks);
    }

    /// `onBrokerFailure` → `onReplicasBecomeOffline`: the partitions whose leader died go
    /// offline, and `triggerOnlinePartitionStateChange` elects every offline partition (theirs,
    /// and any left offline before); then each dead broker's replicas move to OfflineReplica
    /// (one write per broker still in an ISR).
    pub(super) fn broker_failure(&mut self, dead: &[BrokerId]) {
        let mut tasks = vec![Task::Elect {
            reason: Reason::Offline,
            partitions: None,
        }];
        for &b in dead {
            tasks.push(Task::OfflineReplica {
                broker: b,
                why: OfflineWhy::BrokerFailure,
                partitions: None,
            });
        }
        self.push_front(tasks);
    }

    /// `onBrokerStartup`: the new brokers hear their partitions' state, then offline and new
    /// partitions are elected, and a reassignment with a target replica on a new broker is sent
    /// out again (`maybeResumeReassignments`, 3.9.0; `partitionsWithReplicasOnNewBrokers`, 2.0.1).
    pub(super) fn brokers_started(&mut self, new: &[BrokerId]) {
        let ctx = &mut self.role.partitions;
        let mut tasks: Vec<Task> = new.iter().map(|b| Task::BrokerStartup(*b)).collect();
        tasks.extend(online_partition_state_change());
        for (tp, re) in &ctx.reassigning {
            if re.target.iter().any(|r| new.contains(r)) {
                tasks.push(Task::ReassignStep {
                    tp: tp.clone(),
                    resume: true,
                });
            }
        }
        self.push_front(tasks);
    }
}

pub(crate) fn parse_brokers(children: &[(String, i64)]) -> VecMap<BrokerId, i64> {
    children
        .iter()
        .filter_map(|(name, czxid)| name.parse().ok().map(|b| (b, *czxid)))
        .collect()
}
