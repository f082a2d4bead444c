//! The controller role of a broker in ZooKeeper mode, as Kafka's `KafkaController` does it.
//!
//! What the controller does, and where each rule is:
//!
//! - `race.rs`: becoming controller. Every live broker races to create the ephemeral
//!   `/controller` (`KafkaController.elect`) and to move `/controller_epoch` on: one multi-op
//!   from 2.1 (`registerControllerAndIncrementControllerEpoch`), two steps before. The losers
//!   follow the winner and watch `/controller`; a controller resigns when the znode names
//!   another broker, is deleted (the Reelect event) or its fenced write fails.
//! - `queue.rs`: the controller's event queue (`ControllerEventManager`): one event ([`Task`])
//!   at a time, each of which may read and write ZooKeeper several times before the next starts.
//! - `failover.rs`: `onControllerFailover` after the win (live brokers, topics, reassignments in
//!   progress, every partition's state, then metadata to everyone) and topic creation.
//! - `partition_states.rs`: the partition and replica state machines: read the states an event
//!   touches, compute the new ones (the election rules themselves are the pure functions of
//!   [`super::election`]) and write them, each write conditional on the state's zkVersion and
//!   fenced from 2.1 by `/controller_epoch`'s version ([`super::znodes::fenced`]).
//! - `channels.rs`: the requests to brokers (`ControllerChannelManager`: UpdateMetadata,
//!   LeaderAndIsr, StopReplica; one in flight per broker, resent until answered). The broker's
//!   side of them, with its refusal of an older controller epoch, is
//!   `Broker::accept_controller_request` in [`super::broker`].
//! - `broker_changes.rs`: `/brokers/ids` changed: `processBrokerChange`, `onBrokerStartup`,
//!   `onBrokerFailure` (elections, then OfflineReplica), bounces from 2.2 (KIP-380).
//! - `shutdown.rs`: controlled shutdown (`doControlledShutdown`).
//! - `isr_changes.rs`: ISR changes from leaders: AlterPartition from 2.7 (KIP-497), the
//!   `/isr_change_notification` znodes before.
//! - `rebalance.rs`: the automatic preferred-leader rebalance and the admin tools' requests.
//! - `reassignment.rs`: partition reassignment (`onPartitionReassignment`, KIP-455).
//! - `routing.rs`: the broker hands each input meant for the role to the handler, sends the
//!   ZooKeeper requests the handler made and resigns the role when an input ends it.
//! - [`pending`] and [`timers`]: what the race's and the role's ZooKeeper requests are for, and
//!   the role's timers.
//!
//! This module holds the role's state: [`ControllerRole`] (the epoch won, the live brokers)
//! and [`PartitionContext`] (what it knows of topics and partitions, its queue and channels),
//! and the handler, `Controller`, in the sans-IO style: it borrows only the role's state, the
//! settings and the output, and returns its ZooKeeper requests (`Controller::zk`) and how the
//! input ended the role (`Exit`) to the broker. Each `*_test.rs` beside the files feeds it one
//! input and asserts the exact output.
//!
//! Where the line between broker and role is drawn: the race (`race.rs`) is written on
//! `Broker`. Every broker takes part in it, whether it holds a role or not; it decides whether
//! the broker holds one (a [`ControllerRole`] is made on a win and dropped on resignation) and
//! which controller the broker follows (`Broker::active_controller`, which its controlled
//! shutdown and the page read). Everything the role does while it is held is the handler's.
//!
//! Sources: `KafkaController` (`elect`, `onControllerFailover`, `onControllerResignation`,
//! `onBrokerFailure`, `onBrokerStartup`, `onReplicasBecomeOffline`, `doControlledShutdown`,
//! `checkAndTriggerAutoLeaderRebalance`, `processAlterPartition`,
//! `processIsrChangeNotification`, `onPartitionReassignment`), `PartitionStateMachine` /
//! `ReplicaStateMachine` (`removeReplicasFromIsr`) and `ControllerChannelManager`. Every
//! controller write bumps the leader epoch, except an AlterPartition's.

mod broker_changes;
pub mod causes;
pub(crate) mod channels;
mod failover;
mod isr_changes;
mod partition_states;
pub mod pending;
mod queue;
mod race;
mod reassignment;
mod rebalance;
mod routing;
mod shutdown;
pub mod timers;

pub use channels::Channel;
pub use pending::ControllerPending;
pub use queue::{Running, Task};
pub use reassignment::Reassignment;

use self::causes::ControllerCause;
use crate::collections::{VecMap, VecSet};
use crate::sim::config::{Profile, Settings};
use crate::sim::message::{Out, PartitionInfo, ZkOp};
use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;
use crate::sim::znodes::PartitionState;
use std::collections::VecDeque;

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
    pub live: VecMap<BrokerId, i64>,
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
    pub topics: VecMap<String, Vec<Vec<BrokerId>>>,
    /// Partition states.
    pub states: VecMap<TopicPartition, Known>,
    /// Brokers in controlled shutdown.
    pub shutting_down: VecSet<BrokerId>,
    /// Brokers that count as live (true) or dead (false) whatever `/brokers/ids` says, while a
    /// broker change is handled (see [`Task::LiveOverride`]).
    pub live_override: VecMap<BrokerId, bool>,
    /// Reassignments in progress.
    pub reassigning: VecMap<TopicPartition, Reassignment>,
    /// Reassignments found in ZooKeeper on failover, resumed once the topics are loaded: the
    /// original replicas where ZooKeeper keeps them (2.4+), and the target.
    pub recovered: VecMap<TopicPartition, (Option<Vec<BrokerId>>, Vec<BrokerId>)>,
    /// Events waiting.
    pub tasks: VecDeque<Task>,
    /// The event being handled.
    pub running: Option<Running>,
    /// Whether failover has loaded the topics.
    pub loaded: bool,
    /// Request channels by broker.
    pub channels: VecMap<BrokerId, Channel>,
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

/// The controller role at work: its own state, the ZooKeeper requests it makes, and the output.
///
/// The broker builds one for each input meant for the role it holds (see
/// `Broker::with_controller` in `routing.rs`), from disjoint borrows of its fields; the role
/// borrows nothing else of the broker.
pub(crate) struct Controller<'a> {
    /// The broker acting as controller.
    pub(crate) me: BrokerId,
    /// The virtual time of the input.
    pub(crate) now: u64,
    /// The cluster's settings (the profile's rules among them).
    pub(crate) settings: &'a Settings,
    /// The role's state.
    pub(crate) role: &'a mut ControllerRole,
    /// The ZooKeeper requests it makes, in order; the broker's ZooKeeper client sends them once
    /// the input is handled (the role makes no output after a request in the same input).
    pub(crate) zk: &'a mut Vec<(ZkOp, ControllerPending)>,
    /// Messages, timers and events.
    pub(crate) out: &'a mut Out,
    /// Set when the input ends the role: the rest of the input is skipped, and the broker
    /// resigns the role as this says.
    pub(crate) exit: Option<Exit>,
}

/// How an input ends the controller role (the broker resigns it, see `race.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Exit {
    /// The session expired under a zombie controller of the 0.10 profile, and the event in
    /// progress is done: it resigns now.
    Zombie,
    /// The Reelect event queued behind an event in progress runs: resign, then `elect()`.
    Reelect,
    /// A fenced write failed (ControllerMovedException): `maybeResign`, for this reason.
    Moved(ControllerCause),
}

impl<'a> Controller<'a> {
    /// The handler for one input at `now`.
    pub(crate) fn new(
        me: BrokerId,
        now: u64,
        settings: &'a Settings,
        role: &'a mut ControllerRole,
        zk: &'a mut Vec<(ZkOp, ControllerPending)>,
        out: &'a mut Out,
    ) -> Self {
        Controller {
            me,
            now,
            settings,
            role,
            zk,
            out,
            exit: None,
        }
    }

    /// The brokers that count as live: the registered ones, but for the overrides of a broker
    /// change in progress.
    fn live_set(&self) -> VecSet<BrokerId> {
        let c = &*self.role;
        let mut live: VecSet<BrokerId> = c.live.keys().copied().collect();
        for (b, counts) in &c.partitions.live_override {
            if *counts {
                live.insert(*b);
            } else {
                live.remove(b);
            }
        }
        live
    }

    /// A ZooKeeper request for `purpose`.
    fn zk_request(&mut self, op: ZkOp, purpose: ControllerPending) {
        self.zk.push((op, purpose));
    }
}

#[cfg(test)]
mod broker_changes_test;
#[cfg(test)]
mod fencing_test;
#[cfg(test)]
mod isr_changes_test;
#[cfg(test)]
mod race_test;
#[cfg(test)]
mod testing;
