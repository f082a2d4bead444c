//! The election core: a deterministic, sans-IO discrete-event simulation of Apache Kafka's
//! three elections in ZooKeeper mode.
//!
//! Contract: no wall clock, no I/O, no thread RNG. Time is virtual milliseconds passed in
//! through [`World::advance_to`]; randomness comes from one RNG seeded by [`Setup::seed`];
//! every collection whose order reaches a result is ordered. The same setup and the same
//! commands at the same times give the identical event trace, natively and in wasm.
//!
//! Inputs: [`Command`]s (a click, a scenario action) and the passing of time.
//! Outputs: [`Event`]s with typed [`Cause`]s (the trace), [`ClusterState`] views and
//! [`MessageRecord`]s.
//!
//! # The layers
//!
//! The folders of `src/` stand on one another, each importing only what lies below it
//! (`tests/import_layers.rs` fails on an import circle among the folders or the files, on the
//! core importing a layer above it, in its code or its tests, and on `scenario` or its tests
//! importing `session` or a layer on it):
//!
//! 1. `collections` and `text`: leaves that import nothing of the crate. `collections` holds
//!    the small sorted maps and sets and the one stable sort; `text` the plain text every
//!    layer writes: numbers (`fmt_ms`, `Fixed`, `Short`), messages with their English
//!    (`Msg`, `messages!`), and the causes' sentences with the `Words` they are said in.
//! 2. `sim`, this core: imports only the leaves. It says its causes in English through
//!    `text::English` (the traces, `Display`, JSON), never through the languages.
//! 3. `i18n`: the page's languages, on the core and the leaves; its `Tr` is a `text::Words`,
//!    so a cause is said in the reader's language by the core's own render.
//! 4. `scenario` (scenario files) on the core, then `session` (a learner's session, which
//!    replays scenarios), then `lesson` (on sessions) and `view` (what the page shows, as
//!    plain data, on sessions and `i18n`).
//! 5. `ui` (wasm32 only): the Yew page, on all of them; and the binaries (`main.rs`, `bin/`),
//!    which use the library by its name.
//!
//! The unit tests of the core and of the scenario files keep to their layer too: a test that
//! needs a layer above lives in that layer (the causes said in Chinese are tested in `i18n`,
//! the causes held against the runs of the scenario files and free play in `view`, the work
//! budget of free play's sessions in `session`).
//!
//! # How it is built
//!
//! The [`World`] (`world/`) owns a clock, one seeded RNG, a queue of timed items and the
//! [`Network`](net::Network) (`net.rs`: latency, jitter, per-link order, cut links). Each item
//! that falls due goes to its owner: the ZooKeeper server (`zookeeper/`), a broker
//! (`broker/`), the producer (`producer/`) or a consumer (`consumer/`). Each is a state
//! machine that handles one input and pushes its outputs (messages, timers, events) into an
//! [`Out`](message::Out) (`message.rs`). A broker is a router: it hands each input to the role
//! that owns it, a handler that borrows only that role's state: its ZooKeeper client
//! (`zk_client/`), its controller role (`controller/`), its replica manager
//! (`replication/`) and its group coordinator (`coordinator/`). Each role has its own timer,
//! request-purpose and cause types in a small leaf file, so no file imports another that
//! imports it back (`tests/import_layers.rs` checks it). After every step the
//! [`Monitor`](monitor::Monitor) runs the safety invariants (`invariants.rs`, one function per
//! property), and the views (`state/`) are built from the world on demand. Commands are
//! checked in one place (`commands.rs`) for the world, the scenario files and the page.
//! Version profiles (`config.rs`, [`Profile`]) gate every rule that changed between the
//! releases modelled (0.10, 2.0, 2.4, 3.9), each gate naming its release and KIP or JIRA.
//! The entry points of the parts the default page does not run at first (the consumers, the
//! group coordinator, the admin requests, a controlled shutdown) are `#[inline(never)]`: kept
//! out of [`World::advance_to`], the page's build can move them to the second part of its
//! module (`www/scripts/split-module.mjs`). That changes no behaviour, only where code lives.
//!
//! # The three elections, and where to look
//!
//! 1. **The controller.** A broker registers the ephemeral `/brokers/ids/N`, whose czxid is its
//!    broker epoch (`broker/session.rs`), then races for the ephemeral `/controller` and bumps
//!    `/controller_epoch` (`controller/race.rs`: `KafkaController.elect`, one multi-op from 2.1,
//!    two steps before). The losers watch `/controller`; when the controller's session expires
//!    (`zookeeper/sessions.rs`: expiry on `tickTime` boundaries; `zk_client/`: pings, read
//!    timeout, reconnects) the znode goes and they race again. The winner's failover is
//!    `controller/failover.rs`. Fencing: a broker refuses requests of an older controller epoch
//!    (`broker/metadata.rs`), and from 2.1 every controller write is guarded by
//!    `/controller_epoch`'s version (`znodes.rs`, [`znodes::fenced`]); before that a zombie
//!    controller's writes land (the 0.10 and 2.0 split brain).
//! 2. **Partition leaders.** The controller reacts to broker changes
//!    (`controller/broker_changes.rs`), controlled shutdown (`controller/shutdown.rs`), the
//!    preferred-replica rebalance (`controller/rebalance.rs`, the 10 % rule) and reassignments
//!    (`controller/reassignment.rs`); it reads, computes and writes partition states
//!    (`controller/partition_states.rs`) with the election rules as pure functions
//!    (`election.rs`: the first live ISR member in assignment order, unclean election, preferred,
//!    controlled shutdown, reassignment), then tells the brokers (`controller/channels.rs`). On
//!    the brokers, `replication/` makes leaders and followers (`leader_and_isr.rs`), fetches
//!    (`follower.rs`, `leader.rs`), appends produce requests (`produce.rs`) and keeps the ISR
//!    (`isr.rs`: `replica.lag.time.max.ms`, AlterPartition from 2.7 or a ZooKeeper write
//!    before), which reaches the controller through `controller/isr_changes.rs`. Logs with
//!    leader epochs are `log.rs`.
//! 3. **The consumer group's leader.** A consumer (`consumer/`) finds its coordinator, the
//!    leader of `__consumer_offsets` partition `abs(hashCode(group)) % 50`
//!    (`group_order/java.rs`), and joins (`coordinator/join.rs`): the first member to join
//!    leads, after `group.initial.rebalance.delay.ms` where the profile has it. When the leader
//!    leaves (`coordinator/leave.rs`), the next one is `members.keys.headOption` of Scala's
//!    `mutable.HashMap`, in the order of the Scala version of the profile's build
//!    (`group_order/`). The group is stored in the offsets log and loaded by a new coordinator
//!    after a failover (`coordinator/storage.rs`); the assignors are `assignors.rs`.
//!
//! Each role's `*_test.rs` files feed its handler one input and assert the exact output;
//! `tests/` at the top holds the scenario checks, the golden traces and the property tests.

pub mod assignment;
pub mod assignors;
pub(crate) mod batch_marks;
pub(crate) mod broker;
pub(crate) mod cause;
pub(crate) mod commands;
pub(crate) mod config;
pub(crate) mod consumer;
pub(crate) mod controller;
pub(crate) mod coordinator;
pub mod election;
pub(crate) mod event;
pub mod group_order;
pub(crate) mod history;
pub(crate) mod invariants;
pub(crate) mod json;
pub(crate) mod key_events;
pub(crate) mod label;
pub(crate) mod log;
pub(crate) mod message;
pub(crate) mod monitor;
pub(crate) mod net;
pub(crate) mod producer;
pub(crate) mod replication;
pub(crate) mod rng;
pub(crate) mod state;
pub(crate) mod topic;
pub(crate) mod world;
pub(crate) mod zk_client;
pub(crate) mod znodes;
pub(crate) mod zookeeper;

pub use crate::text::numbers::fmt_ms;
pub use cause::Cause;
pub use commands::{Command, GroupSpec, Setup};
pub use config::{Profile, Settings};
pub use event::{ElectionReason, Event, EventKind};
pub use history::History;
pub use label::Label;
pub use message::{
    Body, NodeData, OpResult, Out, SessionId, Stat, Timer, WatchChange, ZkError, ZkOp,
};
pub use net::{BrokerId, Endpoint, MessageRecord};
pub use rng::Rng;
pub use state::{
    BatchWait, BrokerState, BrokerView, ClusterState, ConsumerState, ConsumerView,
    ControllerRequest, ControllerRequestView, ControllerRole, GroupState, GroupView,
    PartitionHealth, PartitionView, ProducerBatchView, ProducerClientView, ProducerView,
    RebalanceCountdown, RebalanceWait, ReplicaState, SessionView, StallScope, StreamView, SyncWait,
    ZkConnection,
};
pub use topic::{Acks, TopicConfig, TopicPartition, TopicSpec};
pub use world::{PackedWorld, World};
pub use zookeeper::{Session, ZkClock, Znode, ZooKeeper};

#[cfg(test)]
mod commands_test;
#[cfg(test)]
mod invariants_test;
#[cfg(test)]
mod net_test;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod znodes_test;
