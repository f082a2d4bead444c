//! Becoming controller: the `/controller` race (`KafkaController.elect`), the controller
//! epoch, following the winner, resigning (`onControllerResignation`) and the Reelect event.
//!
//! Sources: `KafkaController.elect` / `onControllerFailover` / `onControllerResignation`,
//! and `KafkaZkClient.registerControllerAndIncrementControllerEpoch`: from 2.1 a broker
//! becomes controller by one multi-op that creates the ephemeral `/controller` and sets
//! `/controller_epoch` to epoch + 1 on the version it read. Before 2.1 (0.10.2.2's
//! `ZookeeperLeaderElector.elect`, 2.0.1's `KafkaController.elect`) it takes two steps: the
//! checked ephemeral create of `/controller`, then `onControllerFailover` reads
//! `/controller_epoch` and increments it with a conditional setData
//! (`incrementControllerEpoch`). Whoever's write lands first wins; the others get NODEEXISTS
//! or BADVERSION and watch `/controller`. When the znode goes away, every live broker races
//! again.

use super::causes::ControllerCause;
use super::pending::{ControllerPending, ElectionPending};
use super::queue::Task;
use super::{ControllerRole, PartitionContext};
use crate::collections::VecMap;
use crate::sim::broker::{Broker, Pending};
use crate::sim::cause::Cause;
use crate::sim::config::{Profile, Settings};
use crate::sim::event::EventKind;
use crate::sim::message::{NodeData, OpResult, Out, WatchChange, ZkError, ZkOp};
use crate::sim::net::BrokerId;
use crate::sim::zookeeper::parse_broker_id;

impl Broker {
    /// `KafkaController.elect`: if `/controller` exists, follow it (the read sets a watch);
    /// otherwise try to become controller.
    pub(crate) fn elect(&mut self, now: u64, out: &mut Out) {
        self.zk_request(
            now,
            ZkOp::Exists {
                path: "/controller".into(),
                watch: true,
            },
            Pending::Election(ElectionPending::ElectCheck),
            out,
        );
    }

    fn read_epoch(&mut self, now: u64, out: &mut Out) {
        self.zk_request(
            now,
            ZkOp::Exists {
                path: "/controller_epoch".into(),
                watch: false,
            },
            Pending::Election(ElectionPending::ReadEpoch),
            out,
        );
    }

    /// Handles the response to one of the election's ZooKeeper requests.
    pub(crate) fn on_election_response(
        &mut self,
        now: u64,
        purpose: ElectionPending,
        result: Result<OpResult, ZkError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        match (purpose, result) {
            (ElectionPending::ElectCheck, Ok(OpResult::Node(node))) => match node {
                Some(n) => self.follow(parse_broker_id(&n.data), out),
                None if settings.profile.elects_with_one_multi_op() => self.read_epoch(now, out),
                None => self.create_controller_znode(now, out),
            },
            // ----- before 2.1: two steps -----
            (ElectionPending::CreateController, Ok(OpResult::Created(_))) => {
                self.controller_znode_created(now, ControllerCause::ZnodeCreated, out)
            }
            (ElectionPending::CreateController, Err(ZkError::NodeExists)) => {
                // checkedEphemeralCreate: whose is it?
                self.zk_request(
                    now,
                    ZkOp::Exists {
                        path: "/controller".into(),
                        watch: true,
                    },
                    Pending::Election(ElectionPending::CreateControllerCheck),
                    out,
                );
            }
            (ElectionPending::CreateController, Err(error)) => self.race_lost(now, error, out),
            (ElectionPending::CreateControllerCheck, Ok(OpResult::Node(node))) => match node {
                Some(n)
                    if n.stat.ephemeral_owner.is_some()
                        && n.stat.ephemeral_owner == self.zk.session =>
                {
                    self.controller_znode_created(now, ControllerCause::ZnodeCreatedOwnSession, out)
                }
                Some(n) => self.after_race_lost(now, ZkError::NodeExists, Some(n), out),
                // "The ephemeral node went away while reading it, attempting create() again".
                None => self.create_controller_znode(now, out),
            },
            (ElectionPending::FailoverReadEpoch, Ok(OpResult::Node(node))) => {
                // incrementControllerEpoch: epoch + 1 on the version read. With no
                // /controller_epoch yet, the controller context's initial values stand
                // (InitialControllerEpoch - 1 = 0, version 0), so the setData meets NONODE.
                let (read, version) = node
                    .map(|n| (n.data.parse::<u64>().unwrap_or(0), n.stat.version))
                    .unwrap_or((0, 0));
                self.zk_request(
                    now,
                    ZkOp::SetData {
                        path: "/controller_epoch".into(),
                        data: (read + 1).to_string(),
                        version: Some(version),
                    },
                    Pending::Election(ElectionPending::IncrementEpoch { epoch: read + 1 }),
                    out,
                );
            }
            (ElectionPending::IncrementEpoch { epoch }, Ok(OpResult::Set(stat))) => self
                .become_controller(
                    now,
                    (epoch, stat.version),
                    settings.profile,
                    ControllerCause::ElectedEpochSet {
                        from: epoch - 1,
                        to: epoch,
                    },
                    out,
                ),
            (ElectionPending::IncrementEpoch { .. }, Err(ZkError::NoNode)) => {
                // "If path doesn't exist, this is the first controller whose epoch should be 1".
                self.zk_request(
                    now,
                    ZkOp::Create {
                        path: "/controller_epoch".into(),
                        data: "1".into(),
                        ephemeral: false,
                    },
                    Pending::Election(ElectionPending::CreateInitialEpoch),
                    out,
                );
            }
            (ElectionPending::CreateInitialEpoch, Ok(OpResult::Created(stat))) => self
                .become_controller(
                    now,
                    (1, stat.version),
                    settings.profile,
                    ControllerCause::ElectedEpochCreated,
                    out,
                ),
            // ControllerMovedException: BADVERSION on the increment, or NODEEXISTS on the
            // create of /controller_epoch. (0.10.2.2's incrementControllerEpoch catches its own
            // exception for BADVERSION and logs it; only a holder of /controller writes the
            // epoch, so that conflict cannot arise here.)
            (ElectionPending::IncrementEpoch { .. }, Err(error))
            | (ElectionPending::CreateInitialEpoch, Err(error)) => {
                self.controller_moved(now, error, out)
            }
            (ElectionPending::ReadEpoch, Ok(OpResult::Node(None))) => {
                // A fresh cluster: create /controller_epoch with "0" first.
                self.zk_request(
                    now,
                    ZkOp::Create {
                        path: "/controller_epoch".into(),
                        data: "0".into(),
                        ephemeral: false,
                    },
                    Pending::Election(ElectionPending::CreateEpoch),
                    out,
                );
            }
            (ElectionPending::ReadEpoch, Ok(OpResult::Node(Some(n)))) => {
                let epoch: u64 = n.data.parse().unwrap_or(0) + 1;
                self.zk_request(
                    now,
                    ZkOp::Multi(vec![
                        ZkOp::Create {
                            path: "/controller".into(),
                            data: format!(
                                r#"{{"version":1,"brokerid":{},"timestamp":"{now}"}}"#,
                                self.id
                            ),
                            ephemeral: true,
                        },
                        ZkOp::SetData {
                            path: "/controller_epoch".into(),
                            data: epoch.to_string(),
                            version: Some(n.stat.version),
                        },
                    ]),
                    Pending::Election(ElectionPending::ElectMulti { epoch }),
                    out,
                );
            }
            (ElectionPending::CreateEpoch, Ok(_))
            | (ElectionPending::CreateEpoch, Err(ZkError::NodeExists)) => self.read_epoch(now, out),
            (ElectionPending::ElectMulti { epoch }, Ok(OpResult::Multi(results))) => {
                let version = results
                    .iter()
                    .find_map(|r| match r {
                        OpResult::Set(stat) => Some(stat.version),
                        _ => None,
                    })
                    .unwrap_or(0);
                let cause = if epoch == 1 {
                    ControllerCause::ElectedFirstMulti
                } else {
                    ControllerCause::ElectedMulti
                };
                self.become_controller(now, (epoch, version), settings.profile, cause, out);
            }
            (
                ElectionPending::ElectMulti { epoch },
                Err(error @ (ZkError::NodeExists | ZkError::BadVersion)),
            ) => {
                // KafkaZkClient.registerControllerAndIncrementControllerEpoch (2.1+): on
                // NODEEXISTS or BADVERSION, checkControllerAndEpoch reads /controller and
                // /controller_epoch: the multi may be this broker's own, resent after its reply
                // was lost with the connection.
                self.zk_request(
                    now,
                    ZkOp::Batch(vec![
                        ZkOp::Exists {
                            path: "/controller".into(),
                            watch: true,
                        },
                        ZkOp::Exists {
                            path: "/controller_epoch".into(),
                            watch: false,
                        },
                    ]),
                    Pending::Election(ElectionPending::CheckElection { epoch, error }),
                    out,
                );
            }
            (ElectionPending::ElectMulti { .. }, Err(error)) => self.race_lost(now, error, out),
            (ElectionPending::CheckElection { epoch, error }, Ok(OpResult::Batch(results))) => {
                let mut it = results.into_iter();
                let (Some(Ok(OpResult::Node(controller))), Some(Ok(OpResult::Node(epoch_node)))) =
                    (it.next(), it.next())
                else {
                    return;
                };
                let mine = controller
                    .as_ref()
                    .is_some_and(|n| parse_broker_id(&n.data) == Some(self.id));
                match epoch_node {
                    Some(e) if mine && e.data.parse::<u64>().ok() == Some(epoch) => {
                        self.become_controller(
                            now,
                            (epoch, e.stat.version),
                            settings.profile,
                            ControllerCause::ElectedOwnMulti,
                            out,
                        );
                    }
                    _ => self.after_race_lost(now, error, controller, out),
                }
            }
            (ElectionPending::AfterRaceLost { error }, Ok(OpResult::Node(node))) => {
                self.after_race_lost(now, error, node, out)
            }
            (ElectionPending::ControllerChange, Ok(OpResult::Node(node))) => {
                let now_controller = node.and_then(|n| parse_broker_id(&n.data));
                self.follow(now_controller, out);
            }
            _ => {}
        }
    }

    /// Before 2.1, `elect()`'s first step: the checked ephemeral create of `/controller`.
    fn create_controller_znode(&mut self, now: u64, out: &mut Out) {
        self.zk_request(
            now,
            ZkOp::Create {
                path: "/controller".into(),
                data: format!(
                    r#"{{"version":1,"brokerid":{},"timestamp":"{now}"}}"#,
                    self.id
                ),
                ephemeral: true,
            },
            Pending::Election(ElectionPending::CreateController),
            out,
        );
    }

    /// Before 2.1: `/controller` is this broker's; `onControllerFailover` begins by reading
    /// `/controller_epoch` (`readControllerEpochFromZooKeeper`).
    fn controller_znode_created(&mut self, now: u64, cause: ControllerCause, out: &mut Out) {
        self.active_controller = Some(self.id);
        out.event(EventKind::ControllerZnodeCreated { broker: self.id }, cause);
        self.zk_request(
            now,
            ZkOp::Exists {
                path: "/controller_epoch".into(),
                watch: false,
            },
            Pending::Election(ElectionPending::FailoverReadEpoch),
            out,
        );
    }

    /// Before 2.1: the epoch step failed (ControllerMovedException). `elect()` catches it and
    /// gives `/controller` up: `triggerControllerMove` (2.0.1) or `resign` (0.10.2.2) deletes
    /// the znode, whatever version it is at, and every broker races again.
    fn controller_moved(&mut self, now: u64, error: ZkError, out: &mut Out) {
        self.active_controller = None;
        out.event(
            EventKind::ControllerRaceLost {
                broker: self.id,
                error: error.name().into(),
                controller: None,
            },
            ControllerCause::EpochMoved,
        );
        self.zk_request(
            now,
            ZkOp::Delete {
                path: "/controller".into(),
            },
            Pending::Election(ElectionPending::DeleteController),
            out,
        );
    }

    /// ControllerMovedException: someone else's write landed first; read who won (and watch).
    fn race_lost(&mut self, now: u64, error: ZkError, out: &mut Out) {
        self.zk_request(
            now,
            ZkOp::Exists {
                path: "/controller".into(),
                watch: true,
            },
            Pending::Election(ElectionPending::AfterRaceLost { error }),
            out,
        );
    }

    fn after_race_lost(&mut self, now: u64, error: ZkError, node: Option<NodeData>, out: &mut Out) {
        match node {
            Some(n) => {
                let winner = parse_broker_id(&n.data);
                out.event(
                    EventKind::ControllerRaceLost {
                        broker: self.id,
                        error: error.name().into(),
                        controller: winner,
                    },
                    match error {
                        ZkError::BadVersion => ControllerCause::RaceLostEpochChanged,
                        _ => ControllerCause::RaceLostZnodeExists,
                    },
                );
                self.follow(winner, out);
            }
            // Gone again already: race again.
            None => self.elect(now, out),
        }
    }

    fn acts_in_epoch(&self, epoch: u64) -> bool {
        self.controller.as_ref().is_some_and(|c| c.epoch == epoch)
    }

    /// Another broker (or nobody) is controller now; resign if this one was.
    fn follow(&mut self, controller: Option<BrokerId>, out: &mut Out) {
        self.active_controller = controller;
        if self.controller.is_some() && controller != Some(self.id) {
            let cause = match controller {
                Some(c) => ControllerCause::ControllerNow { controller: c },
                None => ControllerCause::ControllerGone,
            };
            self.resign(cause, out);
        }
    }

    pub(super) fn become_controller(
        &mut self,
        now: u64,
        (epoch, epoch_zk_version): (u64, i32),
        profile: Profile,
        cause: ControllerCause,
        out: &mut Out,
    ) {
        if self.acts_in_epoch(epoch) {
            // Two of its election attempts were under way (a watch that fired again after a
            // reconnect): the second one's check finds its own first win. It is controller once.
            return;
        }
        self.active_controller = Some(self.id);
        self.controller = Some(ControllerRole {
            epoch,
            epoch_zk_version,
            profile,
            live: VecMap::new(),
            next_correlation: 1,
            partitions: PartitionContext::default(),
            expired: false,
        });
        out.event(
            EventKind::ControllerElected {
                broker: self.id,
                epoch,
            },
            cause,
        );
        // onControllerFailover: watch and load the live brokers, then tell everyone.
        self.zk_request(
            now,
            ZkOp::GetChildren {
                path: "/brokers/ids".into(),
                watch: true,
            },
            Pending::Controller(ControllerPending::LoadBrokers { epoch }),
            out,
        );
    }

    /// The Reelect event (`KafkaController.Reelect` in 2.0.1, `processReelect` from 2.1;
    /// `LeaderChangeListener.handleDataDeleted` in 0.10.2.2): resign if this broker was
    /// controller, then `elect()`. `deferred`: it waited behind an event in progress.
    pub(crate) fn reelect(&mut self, now: u64, deferred: bool, out: &mut Out) {
        if deferred && self.controller.is_some() {
            self.resign(ControllerCause::ReelectAfterEvent, out);
        }
        self.follow(None, out);
        self.elect(now, out);
    }

    /// A fenced write failed (ControllerMovedException, 2.1+): `maybeResign` resigns and
    /// watches `/controller` again; a Reelect event already queued still runs `elect()`.
    pub(crate) fn resign_moved(&mut self, now: u64, cause: ControllerCause, out: &mut Out) {
        let reelect_queued = self
            .controller
            .as_ref()
            .is_some_and(|c| c.partitions.tasks.contains(&Task::Reelect));
        self.resign(cause, out);
        if reelect_queued {
            self.elect(now, out);
        } else {
            self.zk_request(
                now,
                ZkOp::Exists {
                    path: "/controller".into(),
                    watch: true,
                },
                Pending::Election(ElectionPending::ControllerChange),
                out,
            );
        }
    }

    /// `onControllerResignation`: stop acting as controller, drop its queues and watches.
    pub(crate) fn resign(&mut self, cause: impl Into<Cause>, out: &mut Out) {
        if let Some(role) = self.controller.take() {
            out.event(
                EventKind::ControllerResigned {
                    broker: self.id,
                    epoch: role.epoch,
                },
                cause,
            );
        }
        if self.active_controller == Some(self.id) {
            self.active_controller = None;
        }
    }

    /// A watch notification from ZooKeeper.
    pub(crate) fn on_watch(
        &mut self,
        now: u64,
        path: &str,
        change: WatchChange,
        settings: &Settings,
        out: &mut Out,
    ) {
        match (path, change) {
            ("/controller", WatchChange::Deleted) => {
                // The Reelect event. A controller in the middle of an event handles it only
                // after that event and the ones queued before it (KafkaController's event
                // queue, ControllerEventManager, from 1.1; in 0.10.2.2 the watch handler,
                // LeaderChangeListener.handleDataDeleted, waits for the controllerLock the
                // event holds): meanwhile its writes go on, fenced from 2.1 only.
                let busy = self.controller.as_ref().is_some_and(|c| {
                    c.partitions.running.is_some() || !c.partitions.tasks.is_empty()
                });
                out.event(
                    EventKind::WatchFired {
                        broker: self.id,
                        path: path.into(),
                        change: change.words().into(),
                    },
                    ControllerCause::ControllerDeleted { busy },
                );
                if busy {
                    self.with_controller(now, settings, out, |c| c.push_task(Task::Reelect));
                } else {
                    self.reelect(now, false, out);
                }
            }
            ("/controller", _) => {
                self.zk_request(
                    now,
                    ZkOp::Exists {
                        path: "/controller".into(),
                        watch: true,
                    },
                    Pending::Election(ElectionPending::ControllerChange),
                    out,
                );
            }
            _ => {
                self.with_controller(now, settings, out, |c| c.on_watch(path, change));
            }
        }
    }
}
