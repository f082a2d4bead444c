//! The messages that cross the simulated network, and the outputs a state machine emits.
//!
//! Each state machine (ZooKeeper, a broker, the controller role) is sans-IO: it handles one
//! input and pushes what it wants done into an [`Out`]: messages to send, timers to set,
//! events to record. The world turns those into timed deliveries.

use super::event::EventKind;
use super::net::{BrokerId, Endpoint};

/// A ZooKeeper session id.
pub type SessionId = u64;

/// The fields of a znode's stat that the model uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    /// The zxid of the transaction that created the znode (a broker epoch, for `/brokers/ids/N`).
    pub czxid: i64,
    /// The zxid of the last change.
    pub mzxid: i64,
    /// Data version, bumped by every setData.
    pub version: i32,
    /// Owning session of an ephemeral znode.
    pub ephemeral_owner: Option<SessionId>,
}

/// One ZooKeeper operation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum ZkOp {
    /// Create a znode (ephemeral: deleted with the session).
    Create {
        path: String,
        data: String,
        ephemeral: bool,
    },
    /// Set data, if `version` matches (or unconditionally with `None`).
    SetData {
        path: String,
        data: String,
        version: Option<i32>,
    },
    /// Check a znode's version (a multi-op guard).
    Check { path: String, version: i32 },
    /// Read a znode if it exists; with `watch`, be told when it is created, changed or deleted.
    Exists { path: String, watch: bool },
    /// List the children with their czxid; with `watch`, be told when the list changes.
    GetChildren { path: String, watch: bool },
    /// All or nothing.
    Multi(Vec<ZkOp>),
}

impl ZkOp {
    /// Short label for the page: `"create /controller"`.
    pub fn label(&self) -> String {
        match self {
            ZkOp::Create { path, .. } => format!("create {path}"),
            ZkOp::SetData { path, .. } => format!("setData {path}"),
            ZkOp::Check { path, .. } => format!("check {path}"),
            ZkOp::Exists { path, .. } => format!("exists {path}"),
            ZkOp::GetChildren { path, .. } => format!("getChildren {path}"),
            ZkOp::Multi(ops) => format!(
                "multi [{}]",
                ops.iter().map(|o| o.label()).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

/// A znode as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeData {
    /// The znode's data.
    pub data: String,
    /// Its stat.
    pub stat: Stat,
}

/// What a successful operation returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpResult {
    /// Created; the new znode's stat.
    Created(Stat),
    /// Data set; the new stat.
    Set(Stat),
    /// A version check passed.
    Checked,
    /// The znode, or `None` if it does not exist.
    Node(Option<NodeData>),
    /// Children and their creation zxids, in name order.
    Children(Vec<(String, i64)>),
    /// Every result of a multi-op, in order.
    Multi(Vec<OpResult>),
}

/// ZooKeeper's error codes that the model uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZkError {
    /// NONODE
    NoNode,
    /// NODEEXISTS
    NodeExists,
    /// BADVERSION
    BadVersion,
    /// SESSIONEXPIRED
    SessionExpired,
}

impl ZkError {
    /// ZooKeeper's name for the code.
    pub fn name(self) -> &'static str {
        match self {
            ZkError::NoNode => "NONODE",
            ZkError::NodeExists => "NODEEXISTS",
            ZkError::BadVersion => "BADVERSION",
            ZkError::SessionExpired => "SESSIONEXPIRED",
        }
    }
}

/// What changed on a watched znode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchChange {
    /// NodeCreated
    Created,
    /// NodeDeleted
    Deleted,
    /// NodeDataChanged
    DataChanged,
    /// NodeChildrenChanged
    ChildrenChanged,
}

impl WatchChange {
    /// Words for the event log.
    pub fn words(self) -> &'static str {
        match self {
            WatchChange::Created => "created",
            WatchChange::Deleted => "deleted",
            WatchChange::DataChanged => "changed",
            WatchChange::ChildrenChanged => "children changed",
        }
    }
}

/// Kafka's error codes on broker requests that the model uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KafkaError {
    /// STALE_CONTROLLER_EPOCH
    StaleControllerEpoch,
    /// STALE_BROKER_EPOCH
    StaleBrokerEpoch,
    /// NOT_CONTROLLER
    NotController,
}

impl KafkaError {
    /// Kafka's name for the code.
    pub fn name(self) -> &'static str {
        match self {
            KafkaError::StaleControllerEpoch => "STALE_CONTROLLER_EPOCH",
            KafkaError::StaleBrokerEpoch => "STALE_BROKER_EPOCH",
            KafkaError::NotController => "NOT_CONTROLLER",
        }
    }
}

/// A message body.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum Body {
    /// Client asks for a new session.
    Connect { timeout_ms: u64 },
    /// Client asks to resume an existing session after a disconnection.
    Reconnect { session: SessionId },
    /// Client heartbeat.
    Ping { session: SessionId },
    /// A ZooKeeper operation.
    Request {
        session: SessionId,
        xid: u64,
        op: ZkOp,
    },
    /// Client closes its session (clean shutdown).
    Close { session: SessionId },
    /// Server: the session is open (new or resumed).
    Connected {
        session: SessionId,
        timeout_ms: u64,
        resumed: bool,
    },
    /// Server: that session has expired (a closed connection, from the client's side).
    Expired { session: SessionId },
    /// The connection to ZooKeeper broke while its link was cut (lost packets): the client
    /// finds out when the link carries traffic again.
    ConnectionLoss,
    /// Server: heartbeat answer.
    Pong { session: SessionId },
    /// Server: operation result.
    Response {
        session: SessionId,
        xid: u64,
        zxid: i64,
        result: Result<OpResult, ZkError>,
    },
    /// Server: a watch fired.
    Watch {
        session: SessionId,
        zxid: i64,
        path: String,
        change: WatchChange,
    },
    /// Client, after resuming a session: the watches it still holds and the last zxid it
    /// saw; the server fires those whose znode changed meanwhile and re-arms the rest.
    SetWatches {
        session: SessionId,
        last_zxid: i64,
        data: Vec<(String, bool)>,
        children: Vec<String>,
    },
    /// Controller to broker: the cluster's metadata, stamped with the controller epoch and the
    /// receiver's broker epoch (KIP-380).
    UpdateMetadata {
        controller: BrokerId,
        controller_epoch: u64,
        broker_epoch: i64,
        live_brokers: Vec<BrokerId>,
        correlation_id: u64,
    },
    /// Broker to controller: the answer.
    UpdateMetadataResponse {
        controller_epoch: u64,
        correlation_id: u64,
        error: Option<KafkaError>,
    },
    /// Broker to controller: please move my leaderships away, I am stopping.
    ControlledShutdown { broker_epoch: i64, attempt: u32 },
    /// Controller to broker: done (or not).
    ControlledShutdownResponse {
        attempt: u32,
        error: Option<KafkaError>,
    },
}

impl Body {
    /// Whether the message answers an earlier one.
    pub fn is_reply(&self) -> bool {
        matches!(
            self,
            Body::Connected { .. }
                | Body::Expired { .. }
                | Body::Pong { .. }
                | Body::Response { .. }
                | Body::UpdateMetadataResponse { .. }
                | Body::ControlledShutdownResponse { .. }
        )
    }

    /// Short label and colour class for the page.
    pub fn label(&self) -> (String, &'static str) {
        match self {
            Body::Connect { .. } => ("connect".into(), "zookeeper"),
            Body::Reconnect { .. } => ("reconnect".into(), "zookeeper"),
            Body::Ping { .. } => ("ping".into(), "heartbeat"),
            Body::Request { op, .. } => (op.label(), "zookeeper"),
            Body::Close { .. } => ("closeSession".into(), "zookeeper"),
            Body::ConnectionLoss => ("connection reset".into(), "zookeeper"),
            Body::SetWatches { .. } => ("setWatches".into(), "zookeeper"),
            Body::Connected { .. } => ("connected".into(), "zookeeper"),
            Body::Expired { .. } => ("session expired".into(), "zookeeper"),
            Body::Pong { .. } => ("pong".into(), "heartbeat"),
            Body::Response { result, .. } => (
                match result {
                    Ok(_) => "ok".into(),
                    Err(e) => e.name().into(),
                },
                "zookeeper",
            ),
            Body::Watch { path, change, .. } => {
                (format!("watch: {path} {}", change.words()), "watch")
            }
            Body::UpdateMetadata {
                controller_epoch, ..
            } => (
                format!("UpdateMetadata (epoch {controller_epoch})"),
                "request",
            ),
            Body::UpdateMetadataResponse { error, .. } => (
                match error {
                    None => "UpdateMetadata ok".into(),
                    Some(e) => e.name().into(),
                },
                "response",
            ),
            Body::ControlledShutdown { .. } => ("ControlledShutdown".into(), "request"),
            Body::ControlledShutdownResponse { .. } => {
                ("ControlledShutdown done".into(), "response")
            }
        }
    }
}

/// A timer a state machine asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum Timer {
    /// ZooKeeper: check whether a session's deadline has passed.
    SessionDeadline(SessionId),
    /// Broker: send a heartbeat if idle / check the read timeout. Only the newest tick
    /// (by its number) counts; older ones are stale.
    ZkTick(u64),
    /// Broker: a paused process wakes up.
    Resume,
    /// Broker: a controlled shutdown attempt got no answer in time.
    ShutdownTimeout { attempt: u32 },
    /// Controller: a request to a broker got no answer within controller.socket.timeout.ms.
    ControllerRequestTimeout {
        broker: BrokerId,
        correlation_id: u64,
    },
    /// Broker: back-off before the next controlled shutdown attempt is over.
    ShutdownRetry { attempt: u32 },
}

/// What a state machine wants done after handling one input.
#[derive(Debug, Default)]
pub struct Out {
    /// Messages: (from, to, body).
    pub sends: Vec<(Endpoint, Endpoint, Body)>,
    /// Timers: (fire at, owner, timer).
    pub timers: Vec<(u64, Endpoint, Timer)>,
    /// Events with their causes.
    pub events: Vec<(EventKind, String)>,
}

impl Out {
    /// Queue a message.
    pub fn send(&mut self, from: Endpoint, to: Endpoint, body: Body) {
        self.sends.push((from, to, body));
    }
    /// Ask for a timer.
    pub fn timer(&mut self, at: u64, owner: Endpoint, timer: Timer) {
        self.timers.push((at, owner, timer));
    }
    /// Record an event.
    pub fn event(&mut self, kind: EventKind, cause: impl Into<String>) {
        self.events.push((kind, cause.into()));
    }
}
