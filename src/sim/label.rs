//! The label of a message in flight, structured: the page says it in the reader's language,
//! and its English is the record's label, the one the command line and the traces show. It
//! imports nothing of the simulation (a broker is its id, a `u32` as [`super::net::BrokerId`]),
//! so the network and the messages can both name it.

/// What a message's label says, structured: the page says it in the reader's language, and
/// `Label::english` is the record's label, the one the command line and the traces show.
/// Kafka's and ZooKeeper's own names (requests, operations, znodes, error codes) are kept as
/// they write them; the rest are words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Label {
    /// Kafka's or ZooKeeper's own words only (a request or an operation with its figures, an
    /// error code), as they write them: `JoinGroup`, `create /controller`, `NOT_CONTROLLER`.
    Name(String),
    /// ZooKeeper operations sent together: the first one's label, and how many more.
    Ops {
        /// The first operation's label.
        first: String,
        /// How many more.
        more: usize,
    },
    /// An empty batch of ZooKeeper operations.
    NoOps,
    /// A client asks ZooKeeper for a session.
    Connect,
    /// A client asks ZooKeeper to resume its session.
    Reconnect,
    /// ZooKeeper: the session is open.
    Connected,
    /// ZooKeeper answers a ping.
    Pong,
    /// The connection to ZooKeeper broke while its link was cut.
    ConnectionReset,
    /// ZooKeeper: that session has expired.
    SessionExpired,
    /// ZooKeeper: the operation succeeded.
    ZkOk,
    /// A watch fired on `path` (with what changed), or, for an admin tool's znode, the
    /// controller's watch on it.
    Watch {
        /// The znode.
        path: String,
        /// What changed, when a client's watch fired.
        change: Option<WatchChange>,
    },
    /// The controller's UpdateMetadata, with its controller epoch.
    UpdateMetadata {
        /// The controller epoch it carries.
        controller_epoch: u64,
    },
    /// A request answered with no error: `UpdateMetadata ok`.
    Ok(&'static str),
    /// LeaderAndIsr for one partition.
    LeaderAndIsr {
        /// The partition.
        tp: String,
        /// Its leader, or -1.
        leader: i64,
        /// Its leader epoch.
        leader_epoch: u64,
        /// The controller epoch it carries.
        controller_epoch: u64,
    },
    /// LeaderAndIsr for several partitions.
    LeaderAndIsrMany {
        /// How many.
        partitions: usize,
        /// The controller epoch it carries.
        controller_epoch: u64,
    },
    /// A fetch answered with this many records.
    Fetched {
        /// How many records.
        records: u64,
    },
    /// Records appended from this offset.
    Produced {
        /// The base offset.
        base: u64,
    },
    /// FindCoordinator's answer.
    Coordinator {
        /// The coordinator's broker.
        broker: u32,
    },
    /// JoinGroup's answer: the new generation.
    Joined {
        /// The generation.
        generation: u32,
    },
    /// SyncGroup's answer: this member's partitions.
    Assigned {
        /// How many.
        partitions: usize,
    },
    /// A heartbeat answered with no error.
    HeartbeatOk,
    /// LeaveGroup's answer.
    Left,
    /// ControlledShutdown's answer.
    ShutdownDone,
}

impl Label {
    /// The label in English, as the record, the command line and the traces show it.
    pub fn english(&self) -> String {
        match self {
            Label::Name(n) => n.clone(),
            Label::Ops { first, more } => format!("{first} (+{more} more)"),
            Label::NoOps => "nothing".into(),
            Label::Connect => "connect".into(),
            Label::Reconnect => "reconnect".into(),
            Label::Connected => "connected".into(),
            Label::Pong => "pong".into(),
            Label::ConnectionReset => "connection reset".into(),
            Label::SessionExpired => "session expired".into(),
            Label::ZkOk => "ok".into(),
            Label::Watch {
                path,
                change: Some(change),
            } => format!("watch: {path} {}", change.words()),
            Label::Watch { path, change: None } => format!("watch: {path}"),
            Label::UpdateMetadata { controller_epoch } => {
                format!("UpdateMetadata (epoch {controller_epoch})")
            }
            Label::Ok(request) => format!("{request} ok"),
            Label::LeaderAndIsr {
                tp,
                leader,
                leader_epoch,
                controller_epoch,
            } => format!(
                "LeaderAndIsr {tp} leader {leader} epoch {leader_epoch} (controller epoch {controller_epoch})"
            ),
            Label::LeaderAndIsrMany {
                partitions,
                controller_epoch,
            } => format!("LeaderAndIsr ×{partitions} (controller epoch {controller_epoch})"),
            Label::Fetched { records: 0 } => "fetch: nothing new".into(),
            Label::Fetched { records } => format!("fetch: {records} records"),
            Label::Produced { base } => format!("produced @{base}"),
            Label::Coordinator { broker } => format!("coordinator: broker {broker}"),
            Label::Joined { generation } => format!("joined, generation {generation}"),
            Label::Assigned { partitions } => format!("assigned {partitions} partition(s)"),
            Label::HeartbeatOk => "heartbeat ok".into(),
            Label::Left => "left".into(),
            Label::ShutdownDone => "ControlledShutdown done".into(),
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
