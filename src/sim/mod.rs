//! The election core: a deterministic, sans-IO discrete-event simulation of Kafka's
//! ZooKeeper-mode controller election.
//!
//! Contract: no wall clock, no I/O, no thread RNG. Time is virtual milliseconds passed in
//! through [`World::advance_to`]; randomness comes from one RNG seeded by [`Setup::seed`];
//! every collection whose order reaches a result is ordered. The same setup and the same
//! commands at the same times give the identical event trace, natively and in wasm.
//!
//! Inputs: [`Command`]s (a click, a scenario action) and the passing of time.
//! Outputs: [`Event`]s (the trace), [`ClusterState`] snapshots and [`MessageRecord`]s.

pub mod assignment;
pub mod assignors;
pub mod broker;
pub mod cause;
pub mod commands;
pub mod config;
pub mod consumer;
pub mod controller;
pub mod coordinator;
pub mod election;
pub mod event;
pub mod group_order;
pub mod history;
pub mod invariants;
pub mod log;
pub mod message;
pub mod monitor;
pub mod net;
pub mod producer;
pub mod replication;
pub mod rng;
pub mod state;
pub mod topic;
pub mod world;
pub mod zk_client;
pub mod znodes;
pub mod zookeeper;

pub use cause::Cause;
pub use commands::{Command, GroupSpec, Setup};
pub use config::{Profile, Settings};
pub use event::{fmt_ms, ElectionReason, Event, EventKind};
pub use net::{BrokerId, Endpoint, MessageRecord};
pub use state::{
    BatchWait, BrokerState, BrokerView, ClusterState, ConsumerState, ConsumerView,
    ControllerRequest, ControllerRequestView, ControllerRole, GroupState, GroupView,
    PartitionHealth, PartitionView, ProducerBatchView, ProducerClientView, ProducerView,
    RebalanceCountdown, RebalanceWait, ReplicaState, SessionView, StreamView, ZkConnection,
};
pub use topic::{Acks, TopicConfig, TopicPartition, TopicSpec};
pub use world::World;

#[cfg(test)]
mod commands_test;
#[cfg(test)]
mod invariants_test;
#[cfg(test)]
mod net_test;
#[cfg(test)]
mod tests;
