//! Controller election and the controller role, as Kafka's ZooKeeper mode does them.
//!
//! Sources: `KafkaController.elect` / `onControllerFailover` / `onControllerResignation` /
//! `processBrokerChange`, and `KafkaZkClient.registerControllerAndIncrementControllerEpoch`:
//! from 2.1 a broker becomes controller by one multi-op that creates the ephemeral
//! `/controller` and sets `/controller_epoch` to epoch + 1 on the version it read. Before 2.1
//! (0.10.2.2's `ZookeeperLeaderElector.elect`, 2.0.1's `KafkaController.elect`) it takes two
//! steps: the checked ephemeral create of `/controller`, then `onControllerFailover` reads
//! `/controller_epoch` and increments it with a conditional setData (`incrementControllerEpoch`).
//! Whoever's write lands first wins; the others get NODEEXISTS or BADVERSION and watch
//! `/controller`. When the znode goes away, every live broker races again.

use super::broker::{Broker, Pending};
use super::config::{Profile, Settings};
use super::event::EventKind;
use super::message::{OpResult, Out, WatchChange, ZkError, ZkOp};
use super::net::BrokerId;
use super::partitions::{PartitionContext, Task};
use super::zookeeper::parse_broker_id;
use std::collections::BTreeMap;

/// What a broker holds while it acts as controller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerRole {
    /// The controller epoch it won.
    pub epoch: u64,
    /// The zkVersion of `/controller_epoch` after its election (fences its writes, 2.1+).
    pub epoch_zk_version: i32,
    /// The profile whose rules it follows (fencing of its writes).
    pub profile: Profile,
    /// Live brokers and their broker epochs, once loaded.
    pub live: BTreeMap<BrokerId, i64>,
    /// The next correlation id.
    pub next_correlation: u64,
    /// Topics, partition states, request channels and the event queue.
    pub partitions: PartitionContext,
    /// Its session expired (0.10 profile): it resigns once the event in progress is done.
    pub expired: bool,
}

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
            Pending::ElectCheck,
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
            Pending::ReadEpoch,
            out,
        );
    }

    /// Handles the response to one of the election's or the controller's ZooKeeper requests.
    pub(crate) fn on_controller_response(
        &mut self,
        now: u64,
        purpose: Pending,
        result: Result<OpResult, ZkError>,
        settings: &Settings,
        out: &mut Out,
    ) {
        match (purpose, result) {
            (Pending::ElectCheck, Ok(OpResult::Node(node))) => match node {
                Some(n) => self.follow(parse_broker_id(&n.data), out),
                None if settings.profile.elects_with_one_multi_op() => self.read_epoch(now, out),
                None => self.create_controller_znode(now, out),
            },
            // ----- before 2.1: two steps -----
            (Pending::CreateController, Ok(OpResult::Created(_))) => self.controller_znode_created(
                now,
                "KafkaController.elect (ZookeeperLeaderElector.elect in 0.10): first broker to create the ephemeral /controller znode; before 2.1 the controller epoch is a second step (onControllerFailover's incrementControllerEpoch)",
                out,
            ),
            (Pending::CreateController, Err(ZkError::NodeExists)) => {
                // checkedEphemeralCreate: whose is it?
                self.zk_request(
                    now,
                    ZkOp::Exists {
                        path: "/controller".into(),
                        watch: true,
                    },
                    Pending::CreateControllerCheck,
                    out,
                );
            }
            (Pending::CreateController, Err(error)) => self.race_lost(now, error, out),
            (Pending::CreateControllerCheck, Ok(OpResult::Node(node))) => match node {
                Some(n)
                    if n.stat.ephemeral_owner.is_some()
                        && n.stat.ephemeral_owner == self.zk.session =>
                {
                    self.controller_znode_created(
                        now,
                        "the reply to its create of /controller was lost with the connection; sent again after the reconnect, the create met NODEEXISTS, but the znode's ephemeral owner is the broker's own session, so it had won (checkedEphemeralCreate); the controller epoch comes next",
                        out,
                    )
                }
                Some(n) => self.after_race_lost(now, ZkError::NodeExists, Some(n), out),
                // "The ephemeral node went away while reading it, attempting create() again".
                None => self.create_controller_znode(now, out),
            },
            (Pending::FailoverReadEpoch, Ok(OpResult::Node(node))) => {
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
                    Pending::IncrementEpoch { epoch: read + 1 },
                    out,
                );
            }
            (Pending::IncrementEpoch { epoch }, Ok(OpResult::Set(stat))) => self.become_controller(
                now,
                (epoch, stat.version),
                settings.profile,
                &format!(
                    "two steps before 2.1: it created /controller, then onControllerFailover's incrementControllerEpoch set /controller_epoch from {} to {epoch} with a conditional setData",
                    epoch - 1
                ),
                out,
            ),
            (Pending::IncrementEpoch { .. }, Err(ZkError::NoNode)) => {
                // "If path doesn't exist, this is the first controller whose epoch should be 1".
                self.zk_request(
                    now,
                    ZkOp::Create {
                        path: "/controller_epoch".into(),
                        data: "1".into(),
                        ephemeral: false,
                    },
                    Pending::CreateInitialEpoch,
                    out,
                );
            }
            (Pending::CreateInitialEpoch, Ok(OpResult::Created(stat))) => self.become_controller(
                now,
                (1, stat.version),
                settings.profile,
                "two steps before 2.1: it created /controller, then onControllerFailover's incrementControllerEpoch found no /controller_epoch and created it with 1 (InitialControllerEpoch in 0.10.2.2 and 2.0.1)",
                out,
            ),
            // ControllerMovedException: BADVERSION on the increment, or NODEEXISTS on the
            // create of /controller_epoch. (0.10.2.2's incrementControllerEpoch catches its own
            // exception for BADVERSION and logs it; only a holder of /controller writes the
            // epoch, so that conflict cannot arise here.)
            (Pending::IncrementEpoch { .. }, Err(error))
            | (Pending::CreateInitialEpoch, Err(error)) => {
                self.controller_moved(now, error, out)
            }
            (Pending::ReadEpoch, Ok(OpResult::Node(None))) => {
                // A fresh cluster: create /controller_epoch with "0" first.
                self.zk_request(
                    now,
                    ZkOp::Create {
                        path: "/controller_epoch".into(),
                        data: "0".into(),
                        ephemeral: false,
                    },
                    Pending::CreateEpoch,
                    out,
                );
            }
            (Pending::ReadEpoch, Ok(OpResult::Node(Some(n)))) => {
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
                    Pending::ElectMulti { epoch },
                    out,
                );
            }
            (Pending::CreateEpoch, Ok(_)) | (Pending::CreateEpoch, Err(ZkError::NodeExists)) => {
                self.read_epoch(now, out)
            }
            (Pending::ElectMulti { epoch }, Ok(OpResult::Multi(results))) => {
                let version = results
                    .iter()
                    .find_map(|r| match r {
                        OpResult::Set(stat) => Some(stat.version),
                        _ => None,
                    })
                    .unwrap_or(0);
                let cause = if epoch == 1 {
                    "one multi-op from 2.1 (registerControllerAndIncrementControllerEpoch): first broker to create the ephemeral /controller znode; /controller_epoch, created with 0, set to 1 in the same transaction"
                } else {
                    "one multi-op from 2.1 (registerControllerAndIncrementControllerEpoch): first broker to create the ephemeral /controller znode after it went away; /controller_epoch incremented in the same transaction"
                };
                self.become_controller(now, (epoch, version), settings.profile, cause, out);
            }
            (
                Pending::ElectMulti { epoch },
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
                    Pending::CheckElection { epoch, error },
                    out,
                );
            }
            (Pending::ElectMulti { .. }, Err(error)) => self.race_lost(now, error, out),
            (Pending::CheckElection { epoch, error }, Ok(OpResult::Batch(results))) => {
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
                            "the reply to its multi-op was lost with the connection; sent again after the reconnect it failed, but /controller names this broker and /controller_epoch holds the epoch it wrote, so the first attempt had won (checkControllerAndEpoch)",
                            out,
                        );
                    }
                    _ => self.after_race_lost(now, error, controller, out),
                }
            }
            (Pending::AfterRaceLost { error }, Ok(OpResult::Node(node))) => {
                self.after_race_lost(now, error, node, out)
            }
            (Pending::ControllerChange, Ok(OpResult::Node(node))) => {
                let now_controller = node.and_then(|n| parse_broker_id(&n.data));
                self.follow(now_controller, out);
            }
            // Answers to a controller that has since resigned (or been re-elected) are void.
            (Pending::LoadBrokers { epoch }, Ok(OpResult::Children(children)))
                if self.acts_in_epoch(epoch) =>
            {
                let live = parse_brokers(&children);
                if let Some(c) = self.controller.as_mut() {
                    c.live = live;
                }
                self.push_task(now, Task::LoadTopics, settings, out);
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
            Pending::CreateController,
            out,
        );
    }

    /// Before 2.1: `/controller` is this broker's; `onControllerFailover` begins by reading
    /// `/controller_epoch` (`readControllerEpochFromZooKeeper`).
    fn controller_znode_created(&mut self, now: u64, cause: &str, out: &mut Out) {
        self.active_controller = Some(self.id);
        out.event(EventKind::ControllerZnodeCreated { broker: self.id }, cause);
        self.zk_request(
            now,
            ZkOp::Exists {
                path: "/controller_epoch".into(),
                watch: false,
            },
            Pending::FailoverReadEpoch,
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
            "it created /controller, but incrementing /controller_epoch failed: another controller moved the epoch (ControllerMovedException); it deletes /controller (triggerControllerMove), so every broker races again",
        );
        self.zk_request(
            now,
            ZkOp::Delete {
                path: "/controller".into(),
            },
            Pending::DeleteController,
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
            Pending::AfterRaceLost { error },
            out,
        );
    }

    fn after_race_lost(
        &mut self,
        now: u64,
        error: ZkError,
        node: Option<super::message::NodeData>,
        out: &mut Out,
    ) {
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
                        ZkError::BadVersion => "/controller_epoch changed since it was read: another broker's election landed first",
                        _ => "the ephemeral /controller znode already exists: the first write wins, there is no lowest-id rule",
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
                Some(c) => format!("/controller now names broker {c} (ControllerMovedException)"),
                None => "/controller is gone".to_string(),
            };
            self.resign(&cause, out);
        }
    }

    fn become_controller(
        &mut self,
        now: u64,
        (epoch, epoch_zk_version): (u64, i32),
        profile: Profile,
        cause: &str,
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
            live: BTreeMap::new(),
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
            Pending::LoadBrokers { epoch },
            out,
        );
    }

    /// The Reelect event (`KafkaController.Reelect` in 2.0.1, `processReelect` from 2.1;
    /// `LeaderChangeListener.handleDataDeleted` in 0.10.2.2): resign if this broker was
    /// controller, then `elect()`. `deferred`: it waited behind an event in progress.
    pub(crate) fn reelect(&mut self, now: u64, deferred: bool, out: &mut Out) {
        if deferred && self.controller.is_some() {
            self.resign(
                "/controller was deleted while it was handling an event; the Reelect event queued behind that event resigns it now",
                out,
            );
        }
        self.follow(None, out);
        self.elect(now, out);
    }

    /// A fenced write failed (ControllerMovedException, 2.1+): `maybeResign` resigns and
    /// watches `/controller` again; a Reelect event already queued still runs `elect()`.
    pub(crate) fn resign_moved(&mut self, now: u64, cause: &str, out: &mut Out) {
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
                Pending::ControllerChange,
                out,
            );
        }
    }

    /// `onControllerResignation`: stop acting as controller, drop its queues and watches.
    pub(crate) fn resign(&mut self, cause: &str, out: &mut Out) {
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
                    if busy {
                        "/controller is gone (its owner's session ended, or it was deleted); this controller is in the middle of an event, so the Reelect event waits behind it and what it writes meanwhile still goes out"
                    } else {
                        "/controller is gone (its owner's session ended, or it was deleted): Reelect"
                    },
                );
                if busy {
                    self.push_task(now, Task::Reelect, settings, out);
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
                    Pending::ControllerChange,
                    out,
                );
            }
            ("/brokers/ids", WatchChange::ChildrenChanged) if self.controller.is_some() => {
                out.event(
                    EventKind::WatchFired {
                        broker: self.id,
                        path: path.into(),
                        change: change.words().into(),
                    },
                    "the controller watches /brokers/ids to learn of brokers joining and leaving",
                );
                // BrokerChange is an event of the controller's queue (ControllerEventManager): it
                // runs, reading /brokers/ids, after the events queued before it and before the
                // ones queued after.
                self.push_task(now, Task::BrokerChange, settings, out);
            }
            ("/brokers/topics", WatchChange::ChildrenChanged) if self.controller.is_some() => {
                self.push_task(now, Task::TopicsChanged, settings, out)
            }
            ("/isr_change_notification", WatchChange::ChildrenChanged)
                if self.controller.is_some() =>
            {
                self.push_task(now, Task::IsrNotification, settings, out)
            }
            _ => {}
        }
    }

    /// `processBrokerChange`: compare the registered brokers with the ones the controller knew.
    pub(crate) fn on_broker_change(
        &mut self,
        now: u64,
        now_live: BTreeMap<BrokerId, i64>,
        settings: &Settings,
        out: &mut Out,
    ) {
        let Some(role) = self.controller.as_mut() else {
            return;
        };
        let before = std::mem::replace(&mut role.live, now_live.clone());
        let me = self.id;
        let bounces = settings.profile.has_broker_epochs();
        let mut dead = Vec::new();
        let mut bounced = Vec::new();
        for (b, epoch) in &before {
            match now_live.get(b) {
                None => {
                    dead.push(*b);
                    out.event(
                        EventKind::BrokerLost {
                            controller: me,
                            broker: *b,
                        },
                        format!(
                            "/brokers/ids/{b} was deleted: the broker's ZooKeeper session ended"
                        ),
                    );
                }
                Some(new_epoch) if new_epoch > epoch && bounces => {
                    bounced.push(*b);
                    out.event(
                        EventKind::BrokerLost {
                            controller: me,
                            broker: *b,
                        },
                        format!("broker {b} re-registered with a newer broker epoch before its loss was processed: a bounce (KIP-380) is handled as failure, then startup"),
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
                out.event(
                    EventKind::BrokerOnline {
                        controller: me,
                        broker: *b,
                        broker_epoch: *epoch,
                    },
                    format!("/brokers/ids/{b} appeared: onBrokerStartup sends it and every live broker the cluster metadata, then elects leaders for offline partitions"),
                );
            }
        }
        if !dead.is_empty() || !new.is_empty() || !bounced.is_empty() {
            self.on_brokers_changed(now, (new, bounced, dead), settings, out);
        }
    }
}

pub(crate) fn parse_brokers(children: &[(String, i64)]) -> BTreeMap<BrokerId, i64> {
    children
        .iter()
        .filter_map(|(name, czxid)| name.parse().ok().map(|b| (b, *czxid)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::broker::tests::{answer, answer_in, connected_broker, node, requests};
    use crate::sim::config::Profile;

    /// Broker 1 sent the election multi-op for `epoch` (xid returned).
    fn electing(b: &mut Broker, epoch: u64) -> u64 {
        let mut out = Out::default();
        b.zk_request(
            0,
            ZkOp::Multi(Vec::new()),
            Pending::ElectMulti { epoch },
            &mut out,
        );
        requests(&out)[0].0
    }

    #[test]
    fn a_failed_multi_whose_writes_are_its_own_is_a_won_election() {
        let mut b = connected_broker(1);
        let xid = electing(&mut b, 3);
        let out = answer(&mut b, xid, Err(ZkError::NodeExists));
        assert_eq!(
            requests(&out),
            vec![(
                xid + 1,
                ZkOp::Batch(vec![
                    ZkOp::Exists {
                        path: "/controller".into(),
                        watch: true
                    },
                    ZkOp::Exists {
                        path: "/controller_epoch".into(),
                        watch: false
                    },
                ])
            )],
            "checkControllerAndEpoch reads both znodes"
        );
        let out = answer(
            &mut b,
            xid + 1,
            Ok(OpResult::Batch(vec![
                Ok(node(r#"{"version":1,"brokerid":1}"#, 40, 0, Some(7))),
                Ok(node("3", 2, 2, None)),
            ])),
        );
        assert_eq!(
            out.events[0].0,
            EventKind::ControllerElected {
                broker: 1,
                epoch: 3
            }
        );
        assert!(out.events[0].1.contains("checkControllerAndEpoch"));
        let role = b.controller.as_ref().expect("acts as controller");
        assert_eq!((role.epoch, role.epoch_zk_version), (3, 2));
        assert_eq!(b.active_controller, Some(1));
    }

    #[test]
    fn a_second_attempt_that_finds_the_first_one_won_changes_nothing() {
        // Two election attempts in flight: the first wins, the second fails and its check finds
        // the first one's writes. The broker is controller once, with one event.
        let mut b = connected_broker(1);
        let first = electing(&mut b, 3);
        let second = electing(&mut b, 3);
        let out = answer(
            &mut b,
            first,
            Ok(OpResult::Multi(vec![
                OpResult::Created(stat(40, 0, Some(7))),
                OpResult::Set(stat(2, 2, None)),
            ])),
        );
        assert_eq!(out.events.len(), 1, "{:?}", out.events);
        b.controller.as_mut().unwrap().next_correlation = 42;
        answer(&mut b, second, Err(ZkError::NodeExists));
        let check = second + 2; // after the failover's read of /brokers/ids
        let out = answer(
            &mut b,
            check,
            Ok(OpResult::Batch(vec![
                Ok(node(r#"{"version":1,"brokerid":1}"#, 40, 0, Some(7))),
                Ok(node("3", 2, 2, None)),
            ])),
        );
        assert!(out.events.is_empty(), "{:?}", out.events);
        assert_eq!(
            b.controller.as_ref().unwrap().next_correlation,
            42,
            "the role was kept"
        );
    }

    #[test]
    fn a_failed_multi_that_another_broker_beat_is_a_lost_race() {
        // /controller names me but the epoch is not the one I wrote, or /controller names
        // another broker: ControllerMovedException, follow the winner.
        for (controller, epoch) in [(1, "4"), (2, "3")] {
            let mut b = connected_broker(1);
            let xid = electing(&mut b, 3);
            answer(&mut b, xid, Err(ZkError::BadVersion));
            let out = answer(
                &mut b,
                xid + 1,
                Ok(OpResult::Batch(vec![
                    Ok(node(
                        &format!(r#"{{"version":1,"brokerid":{controller}}}"#),
                        40,
                        0,
                        Some(8),
                    )),
                    Ok(node(epoch, 2, 3, None)),
                ])),
            );
            assert_eq!(
                out.events[0].0,
                EventKind::ControllerRaceLost {
                    broker: 1,
                    error: "BADVERSION".into(),
                    controller: Some(controller)
                }
            );
            assert!(b.controller.is_none());
        }
    }

    fn stat(czxid: i64, version: i32, owner: Option<u64>) -> crate::sim::message::Stat {
        crate::sim::message::Stat {
            czxid,
            mzxid: czxid,
            version,
            ephemeral_owner: owner,
        }
    }

    fn created(czxid: i64, owner: Option<u64>) -> OpResult {
        OpResult::Created(stat(czxid, 0, owner))
    }

    /// The one request in `out`.
    fn only_request(out: &Out) -> (u64, ZkOp) {
        let r = requests(out);
        assert_eq!(r.len(), 1, "{r:?}");
        r[0].clone()
    }

    #[test]
    fn before_2_1_the_first_controller_creates_controller_then_the_epoch_with_1() {
        let p = Profile::V2_0;
        let mut b = connected_broker(1);
        let mut out = Out::default();
        b.elect(0, &mut out);
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
        let (xid, op) = only_request(&out);
        assert!(
            matches!(&op, ZkOp::Create { path, ephemeral: true, .. } if path == "/controller"),
            "first step: the ephemeral /controller alone: {op:?}"
        );
        let out = answer_in(p, &mut b, xid, Ok(created(9, Some(7))));
        assert_eq!(
            out.events[0].0,
            EventKind::ControllerZnodeCreated { broker: 1 }
        );
        assert!(
            b.controller.is_none(),
            "not acting before the epoch is written"
        );
        let (xid, op) = only_request(&out);
        assert_eq!(
            op,
            ZkOp::Exists {
                path: "/controller_epoch".into(),
                watch: false
            }
        );
        let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
        let (xid, op) = only_request(&out);
        assert_eq!(
            op,
            ZkOp::SetData {
                path: "/controller_epoch".into(),
                data: "1".into(),
                version: Some(0)
            },
            "the context's initial epoch 0 + 1, on version 0"
        );
        let out = answer_in(p, &mut b, xid, Err(ZkError::NoNode));
        let (xid, op) = only_request(&out);
        assert_eq!(
            op,
            ZkOp::Create {
                path: "/controller_epoch".into(),
                data: "1".into(),
                ephemeral: false
            },
            "InitialControllerEpoch is 1 before 2.1"
        );
        let out = answer_in(p, &mut b, xid, Ok(created(10, None)));
        assert_eq!(
            out.events[0].0,
            EventKind::ControllerElected {
                broker: 1,
                epoch: 1
            }
        );
        assert_eq!(b.controller.as_ref().map(|c| c.epoch), Some(1));
    }

    #[test]
    fn before_2_1_a_later_controller_increments_the_epoch_it_read() {
        let p = Profile::V0_10;
        let mut b = connected_broker(1);
        let mut out = Out::default();
        b.elect(0, &mut out);
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
        let (xid, _) = only_request(&out);
        // The create met NODEEXISTS: its own session's znode (a lost reply) is its own.
        let out = answer_in(p, &mut b, xid, Err(ZkError::NodeExists));
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(node(r#"{"brokerid":1}"#, 9, 0, Some(7))));
        assert_eq!(
            out.events[0].0,
            EventKind::ControllerZnodeCreated { broker: 1 }
        );
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(node("4", 3, 3, None)));
        let (xid, op) = only_request(&out);
        assert_eq!(
            op,
            ZkOp::SetData {
                path: "/controller_epoch".into(),
                data: "5".into(),
                version: Some(3)
            }
        );
        let out = answer_in(p, &mut b, xid, Ok(OpResult::Set(stat(3, 4, None))));
        assert_eq!(
            out.events[0].0,
            EventKind::ControllerElected {
                broker: 1,
                epoch: 5
            }
        );
        let role = b.controller.as_ref().unwrap();
        assert_eq!((role.epoch, role.epoch_zk_version), (5, 4));
    }

    #[test]
    fn before_2_1_a_failed_epoch_step_gives_controller_up() {
        let p = Profile::V2_0;
        let mut b = connected_broker(1);
        let mut out = Out::default();
        b.elect(0, &mut out);
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(created(9, Some(7))));
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(node("4", 3, 3, None)));
        let (xid, _) = only_request(&out);
        // Another controller moved the epoch: ControllerMovedException, triggerControllerMove.
        let out = answer_in(p, &mut b, xid, Err(ZkError::BadVersion));
        assert_eq!(
            out.events[0].0,
            EventKind::ControllerRaceLost {
                broker: 1,
                error: "BADVERSION".into(),
                controller: None
            }
        );
        assert_eq!(
            only_request(&out).1,
            ZkOp::Delete {
                path: "/controller".into()
            }
        );
        assert!(b.controller.is_none());
        assert_eq!(b.active_controller, None);
        // And a create that meets another session's /controller is a lost race.
        let mut b = connected_broker(1);
        let mut out = Out::default();
        b.elect(0, &mut out);
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Err(ZkError::NodeExists));
        let (xid, _) = only_request(&out);
        let out = answer_in(p, &mut b, xid, Ok(node(r#"{"brokerid":2}"#, 9, 0, Some(8))));
        assert_eq!(
            out.events[0].0,
            EventKind::ControllerRaceLost {
                broker: 1,
                error: "NODEEXISTS".into(),
                controller: Some(2)
            }
        );
        assert_eq!(b.active_controller, Some(2));
    }

    /// Broker 1 acting as controller with epoch 1.
    fn controller() -> Broker {
        let mut b = connected_broker(1);
        b.become_controller(0, (1, 1), Profile::V2_0, "test", &mut Out::default());
        b.zk.pending.clear();
        b
    }

    #[test]
    fn a_controller_in_the_middle_of_an_event_handles_the_deletion_after_it() {
        let settings = crate::sim::Settings::for_profile(Profile::V2_0);
        let mut b = controller();
        let tp = crate::sim::TopicPartition::new("T", 0);
        let mut out = Out::default();
        b.push_task(
            0,
            Task::Elect {
                reason: crate::sim::partitions::Reason::Preferred { automatic: false },
                partitions: Some(vec![tp]),
            },
            &settings,
            &mut out,
        );
        let (read, _) = only_request(&out);
        let mut out = Out::default();
        b.on_watch(1, "/controller", WatchChange::Deleted, &settings, &mut out);
        assert!(
            !out.events
                .iter()
                .any(|(k, _)| matches!(k, EventKind::ControllerResigned { .. })),
            "it does not resign yet"
        );
        assert!(requests(&out).is_empty(), "nor elect");
        assert_eq!(
            b.controller.as_ref().unwrap().partitions.tasks,
            vec![Task::Reelect]
        );
        // The event in progress ends (its read finds nothing to change): then Reelect.
        let out = answer_in(
            Profile::V2_0,
            &mut b,
            read,
            Ok(OpResult::Batch(vec![Ok(OpResult::Node(None))])),
        );
        assert!(b.controller.is_none());
        assert!(matches!(
            &out.events[0],
            (EventKind::ControllerResigned { broker: 1, epoch: 1 }, cause) if cause.contains("queued behind")
        ));
        assert!(matches!(
            &only_request(&out).1,
            ZkOp::Exists { path, watch: true } if path == "/controller"
        ));
    }

    #[test]
    fn an_idle_controller_handles_the_deletion_at_once() {
        let settings = crate::sim::Settings::for_profile(Profile::V2_0);
        let mut b = controller();
        let mut out = Out::default();
        b.on_watch(1, "/controller", WatchChange::Deleted, &settings, &mut out);
        assert!(b.controller.is_none());
        assert!(out.events.iter().any(|(k, _)| *k
            == EventKind::ControllerResigned {
                broker: 1,
                epoch: 1
            }));
        assert!(matches!(
            &only_request(&out).1,
            ZkOp::Exists { path, watch: true } if path == "/controller"
        ));
    }
}
