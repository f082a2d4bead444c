//! Kafka Election Playground: a deterministic simulation of Apache Kafka's three elections in
//! ZooKeeper mode (the controller, partition leaders, a consumer group's leader), with a
//! command line (`kafka-election`) and a browser playground (Yew, WebAssembly).
//!
//! The election core is private; what a user of the crate needs is re-exported here:
//!
//! - **Driving a simulation**: a [`World`] is made from a [`Setup`] (brokers, topics, groups,
//!   [`Settings`] for a [`Profile`], a seed), takes [`Command`]s ([`World::apply`]) and is moved
//!   through virtual time ([`World::advance_to`]). The same setup and commands at the same
//!   times give the same trace, natively and in wasm.
//! - **What comes out**: the trace of [`Event`]s ([`World::events`], a [`History`]), each with
//!   its [`EventKind`] and a typed [`Cause`] rendered to an English sentence; the
//!   [`ClusterState`] view with its brokers, partitions, groups and countdowns
//!   ([`World::state`]); the [`MessageRecord`]s of the messages in flight.
//! - **Kafka's rules as pure functions**, for tests, benches and fuzz targets: [`election`]
//!   (partition leader elections), [`assignment`] (replica assignment), [`assignors`] (the
//!   consumer assignors), [`group_order`] (coordinator partitions, member ids, Scala's member
//!   map order), and the seeded [`Rng`].
//! - **The ZooKeeper model**, for checking it against a real server: [`ZooKeeper`] takes the
//!   client messages ([`Body`]: connect, ping, requests of [`ZkOp`]s) and answers with
//!   [`OpResult`]s or [`ZkError`]s, watches ([`WatchChange`]) and session expiry, through an
//!   [`Out`].
//! - [`scenario`]: scenario files (version 1): parsing, running, checking.
//! - [`lesson`]: lesson files (version 1): a scenario with questions whose answers are computed
//!   from its run, and the grading of a learner's answers.
//! - [`view`]: what the page shows, as plain data (layout, wording, the graph's shapes).
//! - `ui` (wasm32 only): the Yew page, which renders [`view`].
//! - [`text`]: plain text every layer writes: numbers, messages with their English, and the
//!   causes' sentences, which the core says in English and [`i18n`] in the reader's language.
//! - [`collections`]: [`collections::VecMap`] and [`collections::VecSet`], the small sorted-vector
//!   map and set the core keeps its per-broker, per-partition and per-group tables in, and the
//!   crate's one stable sort ([`collections::sort_by`] and its kin).
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Tests may sort and collect with std's own (clippy.toml holds the shipped code to the crate's).
#![cfg_attr(test, allow(clippy::disallowed_methods, clippy::disallowed_types))]

pub mod collections;
pub mod i18n;
pub mod lesson;
pub mod scenario;
pub mod session;
mod sim;
pub mod text;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;

pub use sim::{
    assignment, assignors, election, group_order, BatchWait, BrokerId, BrokerState, BrokerView,
    Cause, ClusterState, Command, ConsumerState, ConsumerView, ControllerRequest,
    ControllerRequestView, ControllerRole, ElectionReason, Endpoint, Event, EventKind, GroupSpec,
    GroupState, GroupView, History, MessageRecord, PackedWorld, PartitionHealth, PartitionView,
    ProducerBatchView, ProducerClientView, ProducerView, Profile, RebalanceCountdown,
    RebalanceWait, ReplicaState, Rng, SessionView, Settings, Setup, StallScope, StreamView,
    SyncWait, TopicConfig, TopicPartition, TopicSpec, World, ZkConnection,
};
pub use sim::{
    fmt_ms, Acks, Body, NodeData, OpResult, Out, Session, SessionId, Stat, Timer, WatchChange,
    ZkClock, ZkError, ZkOp, Znode, ZooKeeper,
};
