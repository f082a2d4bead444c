//! ZooKeeper, as Kafka's ZooKeeper mode uses it: sessions with heartbeats and expiry,
//! persistent and ephemeral znodes with owners, zxids, czxids and versions, one-shot watches
//! and atomic multi-ops.
//!
//! Model of the server side of `org.apache.zookeeper` (sessions expire when no heartbeat
//! arrives within the negotiated timeout; ephemeral znodes die with their session; a watch
//! fires once). The client side lives in [`super::zk_client`].
//!
//! ZooKeeper's clock: the server negotiates the session timeout into [2, 20] × `tickTime`
//! (`ZooKeeperServer.processConnectRequest`, with `getMinSessionTimeout` /
//! `getMaxSessionTimeout`), and its session tracker expires sessions only on `tickTime`
//! boundaries: every contact moves a session to the bucket of the first boundary *after*
//! now + timeout (`SessionTrackerImpl.roundToInterval` in ZooKeeper 3.4,
//! `ExpiryQueue.roundToNextInterval` from 3.5), and the tracker's thread expires a bucket when
//! the clock reaches it. Kafka's `config/zookeeper.properties` (0.10.2.2 through 3.9.0) sets no
//! `tickTime`, so `ZooKeeperServer.DEFAULT_TICK_TIME`, 3000 ms, applies: sessions of 6 to 60 s.

use super::message::{Out, SessionId, Stat, ZkOp};
use super::net::BrokerId;
pub use super::znodes::parse_broker_id;
use super::znodes::{PartitionState, ZnodeValue};
use crate::collections::{VecMap, VecSet};

/// One znode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Znode {
    /// Its data.
    pub data: String,
    /// Its data as the model reads it, parsed when it was written.
    pub value: ZnodeValue,
    /// Its stat.
    pub stat: Stat,
    /// The zxid of the last change to its list of children.
    pub pzxid: i64,
}

/// Why a session is no longer alive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// No heartbeat within the timeout, or forced expiry.
    Expired,
    /// Closed by its owner.
    Closed,
}

pub mod causes;
mod java_order;
mod requests;
mod sessions;

pub use sessions::{Session, ZkClock, ZK_TICK_TIME_MS};

/// The ZooKeeper ensemble, as one server.
#[derive(Debug, Clone)]
pub struct ZooKeeper {
    clock: ZkClock,
    zxid: i64,
    next_session: SessionId,
    nodes: VecMap<String, Znode>,
    sessions: VecMap<SessionId, Session>,
    data_watches: VecMap<String, VecSet<SessionId>>,
    child_watches: VecMap<String, VecSet<SessionId>>,
    stale_writes: Vec<(String, PartitionState, u64)>,
}

impl Default for ZooKeeper {
    fn default() -> Self {
        Self::new()
    }
}

fn parent(path: &str) -> Option<&str> {
    let i = path.rfind('/')?;
    if i == 0 {
        if path.len() > 1 {
            Some("/")
        } else {
            None
        }
    } else {
        Some(&path[..i])
    }
}

impl ZooKeeper {
    /// A fresh ensemble with Kafka's persistent paths `/brokers/ids` already there, on the
    /// default `tickTime` with its ticks at multiples of it.
    pub fn new() -> Self {
        Self::with_clock(ZkClock::default())
    }

    /// A fresh ensemble whose session tracker runs on `clock`.
    pub fn with_clock(clock: ZkClock) -> Self {
        let mut zk = ZooKeeper {
            clock,
            zxid: 0,
            next_session: 0x1001,
            nodes: VecMap::new(),
            sessions: VecMap::new(),
            data_watches: VecMap::new(),
            child_watches: VecMap::new(),
            stale_writes: Vec::new(),
        };
        zk.put("/", "", None);
        zk.put("/brokers", "", None);
        zk.put("/brokers/ids", "", None);
        zk.put("/brokers/topics", "", None);
        zk.put("/isr_change_notification", "", None);
        zk
    }

    fn put(&mut self, path: &str, data: &str, owner: Option<SessionId>) -> Stat {
        self.zxid += 1;
        let stat = Stat {
            czxid: self.zxid,
            mzxid: self.zxid,
            version: 0,
            ephemeral_owner: owner,
        };
        self.nodes.insert(
            path.to_string(),
            Znode {
                value: ZnodeValue::parse(path, data),
                data: data.to_string(),
                stat: stat.clone(),
                pzxid: self.zxid,
            },
        );
        stat
    }

    fn children_changed(&mut self, path: &str, zxid: i64) {
        if let Some(p) = parent(path) {
            if let Some(n) = self.nodes.get_mut(p) {
                n.pzxid = zxid;
            }
        }
    }

    /// An admin tool's write, outside any session (`kafka-topics --create` writing
    /// `/brokers/topics/T`): creates the znode and any missing parents, firing watches.
    pub fn admin_create(&mut self, path: &str, data: &str, out: &mut Out) {
        let mut missing = Vec::new();
        let mut p = parent(path);
        while let Some(q) = p {
            if self.nodes.contains_key(q) {
                break;
            }
            missing.push(q.to_string());
            p = parent(q);
        }
        for q in missing.into_iter().rev() {
            self.create_persistent(&q, "", out);
        }
        self.create_persistent(path, data, out);
    }

    /// An admin tool's write of a znode's data (creating it and any missing parents first),
    /// firing watches: `kafka-reassign-partitions` writing `/admin/reassign_partitions`.
    pub fn admin_put(&mut self, path: &str, data: &str, out: &mut Out) {
        if !self.nodes.contains_key(path) {
            self.admin_create(path, data, out);
            return;
        }
        self.zxid += 1;
        let zxid = self.zxid;
        self.apply_write(
            0,
            ZkOp::SetData {
                path: path.into(),
                data: data.into(),
                version: None,
            },
            zxid,
            out,
        );
    }

    /// An admin tool's delete, outside any session (`zookeeper-shell delete /controller`),
    /// whatever the znode's version or owner, firing watches. Returns whether it existed.
    pub fn admin_delete(&mut self, path: &str, out: &mut Out) -> bool {
        if !self.nodes.contains_key(path) {
            return false;
        }
        self.zxid += 1;
        let zxid = self.zxid;
        self.apply_write(0, ZkOp::Delete { path: path.into() }, zxid, out);
        true
    }

    fn create_persistent(&mut self, path: &str, data: &str, out: &mut Out) {
        if self.nodes.contains_key(path) {
            return;
        }
        self.zxid += 1;
        let zxid = self.zxid;
        self.apply_write(
            0,
            ZkOp::Create {
                path: path.into(),
                data: data.into(),
                ephemeral: false,
            },
            zxid,
            out,
        );
    }

    /// Partition-state writes that changed the leader epoch while carrying a controller epoch
    /// older than `/controller_epoch`: a zombie controller's writes (taken once).
    pub fn take_stale_controller_writes(&mut self) -> Vec<(String, PartitionState, u64)> {
        std::mem::take(&mut self.stale_writes)
    }

    fn note_partition_write(&mut self, path: &str, value: &ZnodeValue) {
        let (Some(old), Some(new)) = (
            self.nodes.get(path).and_then(|n| n.value.partition_state()),
            value.partition_state(),
        ) else {
            return;
        };
        let current = self.controller_epoch();
        if new.leader_epoch != old.leader_epoch && new.controller_epoch < current {
            self.stale_writes
                .push((path.to_string(), new.clone(), current));
        }
    }

    /// The server's clock.
    pub fn clock(&self) -> ZkClock {
        self.clock
    }

    /// The newest zxid: it moves with every change.
    pub fn zxid(&self) -> i64 {
        self.zxid
    }

    /// A znode, if it exists.
    pub fn node(&self, path: &str) -> Option<&Znode> {
        self.nodes.get(path)
    }

    /// Every znode, in path order.
    pub fn nodes(&self) -> impl Iterator<Item = (&String, &Znode)> {
        self.nodes.iter()
    }

    /// A session by id.
    pub fn session(&self, id: SessionId) -> Option<&Session> {
        self.sessions.get(&id)
    }

    /// Every session, ended or not, in id order (the order they were opened).
    pub fn sessions(&self) -> impl Iterator<Item = (SessionId, &Session)> {
        self.sessions.iter().map(|(id, s)| (*id, s))
    }

    /// The live session a broker owns, if any (the newest one).
    pub fn live_session_of(&self, broker: BrokerId) -> Option<(SessionId, &Session)> {
        self.sessions
            .iter()
            .rev()
            .find(|(_, s)| s.owner == broker && s.ended.is_none())
            .map(|(id, s)| (*id, s))
    }

    /// The broker named by `/controller`, if the znode exists.
    pub fn controller(&self) -> Option<BrokerId> {
        match self.nodes.get("/controller").map(|n| &n.value) {
            Some(ZnodeValue::Controller(b)) => Some(*b),
            _ => None,
        }
    }

    /// The value of `/controller_epoch` (0 when it does not exist yet).
    pub fn controller_epoch(&self) -> u64 {
        match self.nodes.get("/controller_epoch").map(|n| &n.value) {
            Some(ZnodeValue::ControllerEpoch(e)) => *e,
            _ => 0,
        }
    }

    /// The broker epoch (czxid) of `/brokers/ids/N`, if registered.
    pub fn registration(&self, broker: BrokerId) -> Option<i64> {
        self.nodes
            .get(&format!("/brokers/ids/{broker}"))
            .map(|n| n.stat.czxid)
    }
}

#[cfg(test)]
mod tests;
