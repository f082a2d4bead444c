//! The controller role of a broker in ZooKeeper mode, as Kafka's `KafkaController` does it.
//!
//! What the controller does, and where each rule is:
//!
//! - [`race`]: becoming controller. Every live broker races to create the ephemeral
//!   `/controller` (`KafkaController.elect`) and to move `/controller_epoch` on: one multi-op
//!   from 2.1 (`registerControllerAndIncrementControllerEpoch`), two steps before. The losers
//!   follow the winner and watch `/controller`; a controller resigns when the znode names
//!   another broker, is deleted (the Reelect event) or its fenced write fails.
//! - [`queue`]: the controller's event queue (`ControllerEventManager`): one event ([`Task`])
//!   at a time, each of which may read and write ZooKeeper several times before the next starts.
//! - [`failover`]: `onControllerFailover` after the win (live brokers, topics, reassignments in
//!   progress, every partition's state, then metadata to everyone) and topic creation.
//! - [`partition_states`]: the partition and replica state machines: read the states an event
//!   touches, compute the new ones (the election rules themselves are the pure functions of
//!   [`super::election`]) and write them, each write conditional on the state's zkVersion and
//!   fenced from 2.1 by `/controller_epoch`'s version ([`super::znodes::fenced`]).
//! - [`channels`]: the requests to brokers (`ControllerChannelManager`: UpdateMetadata,
//!   LeaderAndIsr, StopReplica; one in flight per broker, resent until answered). The broker's
//!   side of them, with its refusal of an older controller epoch, is
//!   `Broker::accept_controller_request` in [`super::broker`].
//! - [`broker_changes`]: `/brokers/ids` changed: `processBrokerChange`, `onBrokerStartup`,
//!   `onBrokerFailure` (elections, then OfflineReplica), bounces from 2.2 (KIP-380).
//! - [`shutdown`]: controlled shutdown (`doControlledShutdown`).
//! - [`isr_changes`]: ISR changes from leaders: AlterPartition from 2.7 (KIP-497), the
//!   `/isr_change_notification` znodes before.
//! - [`rebalance`]: the automatic preferred-leader rebalance and the admin tools' requests.
//! - [`reassignment`]: partition reassignment (`onPartitionReassignment`, KIP-455).
//!
//! This module holds the role's state: [`ControllerRole`] (the epoch won, the live brokers)
//! and [`PartitionContext`] (what it knows of topics and partitions, its queue and channels).
//!
//! Sources: `KafkaController` (`elect`, `onControllerFailover`, `onControllerResignation`,
//! `onBrokerFailure`, `onBrokerStartup`, `onReplicasBecomeOffline`, `doControlledShutdown`,
//! `checkAndTriggerAutoLeaderRebalance`, `processAlterPartition`,
//! `processIsrChangeNotification`, `onPartitionReassignment`), `PartitionStateMachine` /
//! `ReplicaStateMachine` (`removeReplicasFromIsr`) and `ControllerChannelManager`. Every
//! controller write bumps the leader epoch, except an AlterPartition's.

mod broker_changes;
mod channels;
mod failover;
mod isr_changes;
mod partition_states;
mod queue;
mod race;
mod reassignment;
mod rebalance;
mod shutdown;

#[cfg(test)]
mod broker_changes_test;
#[cfg(test)]
mod race_test;

pub use channels::{Channel, Req};
pub use queue::{Reason, Running, Task};
pub use reassignment::Reassignment;

use crate::sim::broker::Broker;
use crate::sim::config::Profile;
use crate::sim::message::PartitionInfo;
use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;
use crate::sim::znodes::PartitionState;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

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

/// A partition as the controller knows it: the last state it read or wrote, and the znode's
/// version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    /// The state.
    pub state: PartitionState,
    /// The zkVersion.
    pub version: i32,
}

/// What the controller knows of topics and partitions, and its work queue.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PartitionContext {
    /// Assignments by topic, partition by partition.
    pub topics: BTreeMap<String, Vec<Vec<BrokerId>>>,
    /// Partition states.
    pub states: BTreeMap<TopicPartition, Known>,
    /// Brokers in controlled shutdown.
    pub shutting_down: BTreeSet<BrokerId>,
    /// Brokers that count as live (true) or dead (false) whatever `/brokers/ids` says, while a
    /// broker change is handled (see [`Task::LiveOverride`]).
    pub live_override: BTreeMap<BrokerId, bool>,
    /// Reassignments in progress.
    pub reassigning: BTreeMap<TopicPartition, Reassignment>,
    /// Reassignments found in ZooKeeper on failover, resumed once the topics are loaded: the
    /// original replicas where ZooKeeper keeps them (2.4+), and the target.
    pub recovered: BTreeMap<TopicPartition, (Option<Vec<BrokerId>>, Vec<BrokerId>)>,
    /// Events waiting.
    pub tasks: VecDeque<Task>,
    /// The event being handled.
    pub running: Option<Running>,
    /// Whether failover has loaded the topics.
    pub loaded: bool,
    /// Request channels by broker.
    pub channels: BTreeMap<BrokerId, Channel>,
    pub(super) next_step: u64,
}

impl PartitionContext {
    /// The assignment of a partition.
    pub fn assignment(&self, tp: &TopicPartition) -> Option<&Vec<BrokerId>> {
        self.topics.get(&tp.topic)?.get(tp.partition as usize)
    }

    /// Every partition, in order.
    pub fn partitions(&self) -> Vec<TopicPartition> {
        self.topics
            .iter()
            .flat_map(|(t, ps)| (0..ps.len() as u32).map(|p| TopicPartition::new(t, p)))
            .collect()
    }

    fn info(&self, tp: &TopicPartition) -> Option<PartitionInfo> {
        let k = self.states.get(tp)?;
        Some(PartitionInfo {
            tp: tp.clone(),
            leader: k.state.leader,
            leader_epoch: k.state.leader_epoch,
            isr: k.state.isr.clone(),
            zk_version: k.version,
            replicas: self.assignment(tp).cloned().unwrap_or_default(),
        })
    }
}

impl Broker {
    fn ctx(&mut self) -> Option<&mut PartitionContext> {
        self.controller.as_mut().map(|c| &mut c.partitions)
    }

    fn live_set(&self) -> BTreeSet<BrokerId> {
        let Some(c) = self.controller.as_ref() else {
            return BTreeSet::new();
        };
        let mut live: BTreeSet<BrokerId> = c.live.keys().copied().collect();
        for (b, counts) in &c.partitions.live_override {
            if *counts {
                live.insert(*b);
            } else {
                live.remove(b);
            }
        }
        live
    }

    fn acts_in_epoch(&self, epoch: u64) -> bool {
        self.controller.as_ref().is_some_and(|c| c.epoch == epoch)
    }
}
