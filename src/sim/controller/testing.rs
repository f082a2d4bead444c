//! Helpers of the controller's unit tests: a role in a given state, and one input handed to a
//! [`Controller`] over it with what the handler did.

use super::pending::ControllerPending;
use super::queue::{Phase, Running, Task};
use super::{Controller, ControllerRole, Exit, Known, PartitionContext};
use crate::sim::config::{Profile, Settings};
use crate::sim::message::{NodeData, OpResult, Out, Stat, ZkOp};
use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;
use crate::sim::znodes::PartitionState;

/// A controller role and the settings it runs under.
pub(super) struct Fixture {
    /// The settings.
    pub(super) settings: Settings,
    /// The role's state.
    pub(super) role: ControllerRole,
}

/// What the handler did with one input.
#[derive(Debug, Default)]
pub(super) struct Handled {
    /// Its ZooKeeper requests.
    pub(super) zk: Vec<(ZkOp, ControllerPending)>,
    /// Its messages, timers and events.
    pub(super) out: Out,
    /// How it ended the role, if it did.
    pub(super) exit: Option<Exit>,
}

impl Fixture {
    /// Broker 1 acting as controller in epoch 1 (`/controller_epoch` at zkVersion 5) under
    /// `profile`, with `live` brokers and their broker epochs; its failover is done and no event
    /// is running.
    pub(super) fn new(profile: Profile, live: &[(BrokerId, i64)]) -> Self {
        Fixture {
            settings: Settings::for_profile(profile),
            role: ControllerRole {
                epoch: 1,
                epoch_zk_version: 5,
                profile,
                live: live.iter().copied().collect(),
                next_correlation: 1,
                partitions: PartitionContext {
                    loaded: true,
                    ..Default::default()
                },
                expired: false,
            },
        }
    }

    /// A topic whose partition `p` has the replicas `assignment[p]`.
    pub(super) fn topic(mut self, name: &str, assignment: &[&[BrokerId]]) -> Self {
        self.role
            .partitions
            .topics
            .insert(name.into(), assignment.iter().map(|a| a.to_vec()).collect());
        self
    }

    /// The state the controller knows of `tp`: written by controller epoch 1, at znode
    /// version `version`.
    pub(super) fn state(
        mut self,
        tp: &TopicPartition,
        (leader, leader_epoch, isr): (i64, u64, &[BrokerId]),
        version: i32,
    ) -> Self {
        self.role.partitions.states.insert(
            tp.clone(),
            Known {
                state: state(leader, leader_epoch, isr),
                version,
            },
        );
        self
    }

    /// The controller is handling `task` and waits for ZooKeeper's answer to step `step`.
    pub(super) fn running(mut self, task: Task, phase: Phase, step: u64) -> Self {
        self.role.partitions.running = Some(Running {
            task,
            phase,
            step,
            retries: 0,
        });
        self.role.partitions.next_step = step;
        self
    }

    /// Hands one input to the controller at `now`.
    pub(super) fn input(&mut self, now: u64, input: impl FnOnce(&mut Controller<'_>)) -> Handled {
        let mut h = Handled::default();
        let mut c = Controller::new(
            1,
            now,
            &self.settings,
            &mut self.role,
            &mut h.zk,
            &mut h.out,
        );
        input(&mut c);
        h.exit = c.exit.take();
        h
    }
}

/// A partition state of controller epoch 1.
pub(super) fn state(leader: i64, leader_epoch: u64, isr: &[BrokerId]) -> PartitionState {
    PartitionState {
        controller_epoch: 1,
        leader,
        version: 1,
        leader_epoch,
        isr: isr.to_vec(),
    }
}

/// A znode's data at `version`, as a read answers it.
pub(super) fn node(data: &str, version: i32) -> OpResult {
    OpResult::Node(Some(NodeData {
        data: data.into(),
        stat: stat(version),
    }))
}

/// The stat of a persistent znode at `version`.
pub(super) fn stat(version: i32) -> Stat {
    Stat {
        czxid: 20,
        mzxid: 30,
        version,
        ephemeral_owner: None,
    }
}
