//! ZooKeeper, as Kafka's ZooKeeper mode uses it: sessions with heartbeats and expiry,
//! persistent and ephemeral znodes with owners, zxids, czxids and versions, one-shot watches
//! and atomic multi-ops.
//!
//! Model of the server side of `org.apache.zookeeper` (sessions expire when no heartbeat
//! arrives within the negotiated timeout; ephemeral znodes die with their session; a watch
//! fires once). The client side lives in [`super::broker`].
//!
//! ZooKeeper's clock: the server negotiates the session timeout into [2, 20] × `tickTime`
//! (`ZooKeeperServer.processConnectRequest`, with `getMinSessionTimeout` /
//! `getMaxSessionTimeout`), and its session tracker expires sessions only on `tickTime`
//! boundaries: every contact moves a session to the bucket of the first boundary *after*
//! now + timeout (`SessionTrackerImpl.roundToInterval` in ZooKeeper 3.4,
//! `ExpiryQueue.roundToNextInterval` from 3.5), and the tracker's thread expires a bucket when
//! the clock reaches it. Kafka's `config/zookeeper.properties` (0.10.2.2 through 3.9.0) sets no
//! `tickTime`, so `ZooKeeperServer.DEFAULT_TICK_TIME`, 3000 ms, applies: sessions of 6 to 60 s.

use super::event::EventKind;
use super::message::{
    Body, NodeData, OpResult, Out, SessionId, Stat, Timer, WatchChange, ZkError, ZkOp,
};
use super::net::{BrokerId, Endpoint};
use super::znodes::PartitionState;
use std::collections::{BTreeMap, BTreeSet};

/// One znode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Znode {
    /// Its data.
    pub data: String,
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

/// ZooKeeper's `tickTime` when the configuration sets none (`ZooKeeperServer.DEFAULT_TICK_TIME`,
/// ZooKeeper 3.4 to 3.8), as with the `config/zookeeper.properties` Kafka ships.
pub const ZK_TICK_TIME_MS: u64 = 3_000;

/// One client session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The broker that opened it.
    pub owner: BrokerId,
    /// Negotiated timeout.
    pub timeout_ms: u64,
    /// When the server last heard from the client.
    pub last_heard_ms: u64,
    /// The tick boundary at which the session tracker expires it if it hears nothing more.
    pub expires_at_ms: u64,
    /// `None` while alive.
    pub ended: Option<SessionEnd>,
}

impl Session {
    /// When the server will expire the session if it hears nothing more: the first tick
    /// boundary after the last contact + the timeout.
    pub fn deadline_ms(&self) -> u64 {
        self.expires_at_ms
    }
}

/// The server's clock: its `tickTime` and where its ticks fall on the simulation's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZkClock {
    /// `tickTime`.
    pub tick_ms: u64,
    /// The server's elapsed-time clock reads `now + phase_ms` (`Time.currentElapsedTime` has
    /// an arbitrary origin), so its tick boundaries fall at `k * tick_ms - phase_ms`.
    pub phase_ms: u64,
}

impl ZkClock {
    /// A clock with `tickTime` = `tick_ms` and its boundaries shifted by `phase_ms` (taken
    /// modulo the tick).
    pub fn new(tick_ms: u64, phase_ms: u64) -> ZkClock {
        let tick_ms = tick_ms.max(1);
        ZkClock {
            tick_ms,
            phase_ms: phase_ms % tick_ms,
        }
    }

    /// `ExpiryQueue.roundToNextInterval` (3.5+; `SessionTrackerImpl.roundToInterval` in 3.4):
    /// `(time / expirationInterval + 1) * expirationInterval` on the server's clock, so the
    /// first boundary strictly after `t` ("a one interval grace period").
    pub fn next_boundary_after(&self, t: u64) -> u64 {
        let server = t + self.phase_ms;
        (server / self.tick_ms + 1) * self.tick_ms - self.phase_ms
    }

    /// The session timeout the server grants for a requested one
    /// (`ZooKeeperServer.processConnectRequest`): at least `minSessionTimeout`, at most
    /// `maxSessionTimeout`, which default to 2 and 20 ticks.
    pub fn negotiate(&self, requested_ms: u64) -> u64 {
        requested_ms.clamp(2 * self.tick_ms, 20 * self.tick_ms)
    }
}

impl Default for ZkClock {
    fn default() -> Self {
        ZkClock::new(ZK_TICK_TIME_MS, 0)
    }
}

/// The ZooKeeper ensemble, as one server.
#[derive(Debug, Clone)]
pub struct ZooKeeper {
    clock: ZkClock,
    zxid: i64,
    next_session: SessionId,
    nodes: BTreeMap<String, Znode>,
    sessions: BTreeMap<SessionId, Session>,
    data_watches: BTreeMap<String, BTreeSet<SessionId>>,
    child_watches: BTreeMap<String, BTreeSet<SessionId>>,
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
            nodes: BTreeMap::new(),
            sessions: BTreeMap::new(),
            data_watches: BTreeMap::new(),
            child_watches: BTreeMap::new(),
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

    fn note_partition_write(&mut self, path: &str, data: &str) {
        if !path.ends_with("/state") {
            return;
        }
        let (Some(old), Some(new)) = (
            self.nodes
                .get(path)
                .and_then(|n| PartitionState::from_json(&n.data)),
            PartitionState::from_json(data),
        ) else {
            return;
        };
        let current = self.controller_epoch();
        if new.leader_epoch != old.leader_epoch && new.controller_epoch < current {
            self.stale_writes.push((path.to_string(), new, current));
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
        self.nodes
            .get("/controller")
            .and_then(|n| parse_broker_id(&n.data))
    }

    /// The value of `/controller_epoch` (0 when it does not exist yet).
    pub fn controller_epoch(&self) -> u64 {
        self.nodes
            .get("/controller_epoch")
            .and_then(|n| n.data.parse().ok())
            .unwrap_or(0)
    }

    /// The broker epoch (czxid) of `/brokers/ids/N`, if registered.
    pub fn registration(&self, broker: BrokerId) -> Option<i64> {
        self.nodes
            .get(&format!("/brokers/ids/{broker}"))
            .map(|n| n.stat.czxid)
    }

    fn alive(&self, session: SessionId) -> bool {
        self.sessions
            .get(&session)
            .is_some_and(|s| s.ended.is_none())
    }

    /// `SessionTrackerImpl.touchSession`: every request, ping or reconnect moves the session
    /// to the bucket of the first tick boundary after now + its timeout.
    fn touch(&mut self, session: SessionId, now: u64) {
        let clock = self.clock;
        if let Some(s) = self.sessions.get_mut(&session) {
            s.last_heard_ms = now;
            s.expires_at_ms = s
                .expires_at_ms
                .max(clock.next_boundary_after(now + s.timeout_ms));
        }
    }

    /// Handles a message from a broker's client.
    pub fn handle(&mut self, now: u64, from: BrokerId, body: Body, out: &mut Out) {
        let me = Endpoint::Zk;
        let to = Endpoint::Broker(from);
        match body {
            Body::Connect {
                timeout_ms: requested,
            } => {
                let id = self.next_session;
                self.next_session += 1;
                let timeout_ms = self.clock.negotiate(requested);
                let expires_at_ms = self.clock.next_boundary_after(now + timeout_ms);
                self.sessions.insert(
                    id,
                    Session {
                        owner: from,
                        timeout_ms,
                        last_heard_ms: now,
                        expires_at_ms,
                        ended: None,
                    },
                );
                out.timer(expires_at_ms, me, Timer::SessionDeadline(id));
                let (min, max) = (self.clock.negotiate(0), self.clock.negotiate(u64::MAX));
                out.event(
                    EventKind::ZkSessionCreated {
                        broker: from,
                        session: id,
                        timeout_ms,
                    },
                    if timeout_ms == requested {
                        "a new ZooKeeper client connects and gets a new session".to_string()
                    } else {
                        format!(
                            "a new ZooKeeper client connects and gets a new session; it asked for {requested} ms, but the server grants only timeouts from minSessionTimeout ({min} ms) to maxSessionTimeout ({max} ms), 2 and 20 ticks of tickTime ({} ms)",
                            self.clock.tick_ms
                        )
                    },
                );
                out.send(
                    me,
                    to,
                    Body::Connected {
                        session: id,
                        timeout_ms,
                        resumed: false,
                    },
                );
            }
            Body::Reconnect { session } => {
                if self.alive(session) {
                    self.touch(session, now);
                    let timeout_ms = self.sessions[&session].timeout_ms;
                    out.send(
                        me,
                        to,
                        Body::Connected {
                            session,
                            timeout_ms,
                            resumed: true,
                        },
                    );
                } else {
                    out.send(me, to, Body::Expired { session });
                }
            }
            Body::Ping { session } => {
                if self.alive(session) {
                    self.touch(session, now);
                    out.send(me, to, Body::Pong { session });
                } else {
                    out.send(me, to, Body::Expired { session });
                }
            }
            Body::Request { session, xid, op } => {
                if !self.alive(session) {
                    out.send(me, to, Body::Expired { session });
                    return;
                }
                self.touch(session, now);
                let result = self.execute(session, op, out);
                out.send(
                    me,
                    to,
                    Body::Response {
                        session,
                        xid,
                        zxid: self.zxid,
                        result,
                    },
                );
            }
            Body::SetWatches {
                session,
                last_zxid,
                data,
                children,
            } => {
                if !self.alive(session) {
                    out.send(me, to, Body::Expired { session });
                    return;
                }
                self.touch(session, now);
                self.set_watches(session, from, last_zxid, data, children, out);
            }
            Body::Close { session } if self.alive(session) => {
                self.end_session(session, SessionEnd::Closed, out);
                out.event(
                    EventKind::SessionClosed {
                        broker: from,
                        session,
                    },
                    "clean shutdown closes the ZooKeeper session at once",
                );
            }
            _ => {}
        }
    }

    /// ZooKeeper's SetWatches: a resumed client's watches fire at once for every znode that
    /// changed after the last zxid the client saw (notifications lost with the connection are
    /// not lost for good); the others are armed again.
    fn set_watches(
        &mut self,
        session: SessionId,
        owner: BrokerId,
        last_zxid: i64,
        data: Vec<(String, bool)>,
        children: Vec<String>,
        out: &mut Out,
    ) {
        let zxid = self.zxid;
        let mut notify = |path: &str, change: WatchChange| {
            out.send(
                Endpoint::Zk,
                Endpoint::Broker(owner),
                Body::Watch {
                    session,
                    zxid,
                    path: path.to_string(),
                    change,
                },
            );
        };
        for (path, existed) in data {
            match (self.nodes.get(&path), existed) {
                (None, true) => notify(&path, WatchChange::Deleted),
                (Some(_), false) => notify(&path, WatchChange::Created),
                (Some(n), true) if n.stat.czxid > last_zxid => notify(&path, WatchChange::Created),
                (Some(n), true) if n.stat.mzxid > last_zxid => {
                    notify(&path, WatchChange::DataChanged)
                }
                _ => {
                    self.data_watches.entry(path).or_default().insert(session);
                }
            }
        }
        for path in children {
            match self.nodes.get(&path) {
                None => notify(&path, WatchChange::Deleted),
                Some(n) if n.pzxid > last_zxid => notify(&path, WatchChange::ChildrenChanged),
                Some(_) => {
                    self.child_watches.entry(path).or_default().insert(session);
                }
            }
        }
    }

    /// Handles ZooKeeper's own timers.
    pub fn on_timer(&mut self, now: u64, timer: Timer, out: &mut Out) {
        if let Timer::SessionDeadline(id) = timer {
            let Some(s) = self.sessions.get(&id) else {
                return;
            };
            if s.ended.is_some() {
                return;
            }
            let deadline = s.deadline_ms();
            if deadline > now {
                out.timer(deadline, Endpoint::Zk, Timer::SessionDeadline(id));
                return;
            }
            let (owner, timeout, last) = (s.owner, s.timeout_ms, s.last_heard_ms);
            let tick = self.clock.tick_ms;
            self.expire(id, out);
            out.event(
                EventKind::SessionExpired {
                    broker: owner,
                    session: id,
                },
                format!(
                    "no heartbeat for zookeeper.session.timeout.ms ({timeout} ms); the session tracker expires sessions on its tickTime ({tick} ms) boundaries, here the first after the last contact + the timeout ({} ms after it)",
                    now - last
                ),
            );
        }
    }

    /// Expires the live session of `broker` now (`expire_session`). Returns whether it had one.
    pub fn force_expire(&mut self, broker: BrokerId, out: &mut Out) -> bool {
        let Some((id, _)) = self.live_session_of(broker) else {
            return false;
        };
        self.expire(id, out);
        out.event(
            EventKind::SessionExpired {
                broker,
                session: id,
            },
            "ZooKeeper expired the session on request (expire_session)",
        );
        true
    }

    fn expire(&mut self, id: SessionId, out: &mut Out) {
        let owner = self.sessions[&id].owner;
        self.end_session(id, SessionEnd::Expired, out);
        // The server closes the connection; the client finds out the session is gone.
        out.send(
            Endpoint::Zk,
            Endpoint::Broker(owner),
            Body::Expired { session: id },
        );
    }

    fn end_session(&mut self, id: SessionId, how: SessionEnd, out: &mut Out) {
        if let Some(s) = self.sessions.get_mut(&id) {
            s.ended = Some(how);
        }
        // Its watches go with it...
        for set in self.data_watches.values_mut() {
            set.remove(&id);
        }
        for set in self.child_watches.values_mut() {
            set.remove(&id);
        }
        // ...and so do its ephemeral znodes, each deletion a transaction that fires watches.
        let owned: Vec<String> = self
            .nodes
            .iter()
            .filter(|(_, n)| n.stat.ephemeral_owner == Some(id))
            .map(|(p, _)| p.clone())
            .collect();
        for path in owned {
            self.zxid += 1;
            let zxid = self.zxid;
            self.nodes.remove(&path);
            self.children_changed(&path, zxid);
            self.fire_data(&path, WatchChange::Deleted, out);
            self.fire_children(&path, out);
            if let Some(p) = parent(&path) {
                let p = p.to_string();
                self.fire_children(&p, out);
            }
        }
    }

    fn fire(
        &mut self,
        watches: fn(&mut ZooKeeper) -> &mut BTreeMap<String, BTreeSet<SessionId>>,
        path: &str,
        change: WatchChange,
        out: &mut Out,
    ) {
        let Some(set) = watches(self).remove(path) else {
            return;
        };
        let zxid = self.zxid;
        for session in set {
            if let Some(s) = self.sessions.get(&session) {
                if s.ended.is_none() {
                    out.send(
                        Endpoint::Zk,
                        Endpoint::Broker(s.owner),
                        Body::Watch {
                            session,
                            zxid,
                            path: path.to_string(),
                            change,
                        },
                    );
                }
            }
        }
    }

    fn fire_data(&mut self, path: &str, change: WatchChange, out: &mut Out) {
        self.fire(|z| &mut z.data_watches, path, change, out);
    }

    fn fire_children(&mut self, path: &str, out: &mut Out) {
        self.fire(
            |z| &mut z.child_watches,
            path,
            WatchChange::ChildrenChanged,
            out,
        );
    }

    /// Checks an operation against the current tree without changing anything.
    fn check(&self, op: &ZkOp, pending: &BTreeMap<String, Option<i32>>) -> Result<(), ZkError> {
        // `pending` holds the effect of earlier ops of the same multi: path -> Some(version) if
        // it will exist with that version, None if it will not exist.
        let version_of = |path: &str| -> Option<i32> {
            match pending.get(path) {
                Some(v) => *v,
                None => self.nodes.get(path).map(|n| n.stat.version),
            }
        };
        match op {
            ZkOp::Create { path, .. } => {
                if version_of(path).is_some() {
                    return Err(ZkError::NodeExists);
                }
                match parent(path) {
                    Some(p) if version_of(p).is_some() => Ok(()),
                    _ => Err(ZkError::NoNode),
                }
            }
            ZkOp::SetData { path, version, .. } => match version_of(path) {
                None => Err(ZkError::NoNode),
                Some(v) if version.is_some_and(|want| want != v) => Err(ZkError::BadVersion),
                Some(_) => Ok(()),
            },
            ZkOp::Check { path, version } => match version_of(path) {
                None => Err(ZkError::NoNode),
                Some(v) if v != *version => Err(ZkError::BadVersion),
                Some(_) => Ok(()),
            },
            ZkOp::Delete { path } => match version_of(path) {
                None => Err(ZkError::NoNode),
                Some(_) => Ok(()),
            },
            _ => Ok(()),
        }
    }

    fn execute(
        &mut self,
        session: SessionId,
        op: ZkOp,
        out: &mut Out,
    ) -> Result<OpResult, ZkError> {
        match op {
            ZkOp::Exists { path, watch } => {
                if watch {
                    self.data_watches
                        .entry(path.clone())
                        .or_default()
                        .insert(session);
                }
                Ok(OpResult::Node(self.nodes.get(&path).map(|n| NodeData {
                    data: n.data.clone(),
                    stat: n.stat.clone(),
                })))
            }
            ZkOp::GetChildren { path, watch } => {
                if !self.nodes.contains_key(&path) {
                    return Err(ZkError::NoNode);
                }
                if watch {
                    self.child_watches
                        .entry(path.clone())
                        .or_default()
                        .insert(session);
                }
                let prefix = if path == "/" {
                    "/".to_string()
                } else {
                    format!("{path}/")
                };
                let children = self
                    .nodes
                    .iter()
                    .filter_map(|(p, n)| {
                        let rest = p.strip_prefix(&prefix)?;
                        (!rest.is_empty() && !rest.contains('/'))
                            .then(|| (rest.to_string(), n.stat.czxid))
                    })
                    .collect();
                Ok(OpResult::Children(children))
            }
            ZkOp::Multi(ops) => {
                let mut pending: BTreeMap<String, Option<i32>> = BTreeMap::new();
                for op in &ops {
                    self.check(op, &pending).map_err(|e| match (op, e) {
                        (ZkOp::Check { .. }, ZkError::BadVersion) => ZkError::CheckFailed,
                        (_, e) => e,
                    })?;
                    match op {
                        ZkOp::Create { path, .. } => {
                            pending.insert(path.clone(), Some(0));
                        }
                        ZkOp::SetData { path, .. } => {
                            let v = pending
                                .get(path)
                                .copied()
                                .flatten()
                                .or_else(|| self.nodes.get(path).map(|n| n.stat.version))
                                .unwrap_or(0);
                            pending.insert(path.clone(), Some(v + 1));
                        }
                        ZkOp::Delete { path } => {
                            pending.insert(path.clone(), None);
                        }
                        ZkOp::Multi(_)
                        | ZkOp::Batch(_)
                        | ZkOp::Exists { .. }
                        | ZkOp::GetChildren { .. } => return Err(ZkError::BadVersion),
                        ZkOp::Check { .. } => {}
                    }
                }
                // All checks passed: apply as one transaction.
                self.zxid += 1;
                let zxid = self.zxid;
                let mut results = Vec::new();
                for op in ops {
                    results.push(self.apply_write(session, op, zxid, out));
                }
                Ok(OpResult::Multi(results))
            }
            ZkOp::Batch(ops) => Ok(OpResult::Batch(
                ops.into_iter()
                    .map(|op| self.execute(session, op, out))
                    .collect(),
            )),
            write => {
                self.check(&write, &BTreeMap::new())?;
                self.zxid += 1;
                let zxid = self.zxid;
                Ok(self.apply_write(session, write, zxid, out))
            }
        }
    }

    fn apply_write(&mut self, session: SessionId, op: ZkOp, zxid: i64, out: &mut Out) -> OpResult {
        match op {
            ZkOp::Create {
                path,
                data,
                ephemeral,
            } => {
                let stat = Stat {
                    czxid: zxid,
                    mzxid: zxid,
                    version: 0,
                    ephemeral_owner: ephemeral.then_some(session),
                };
                self.nodes.insert(
                    path.clone(),
                    Znode {
                        data,
                        stat: stat.clone(),
                        pzxid: zxid,
                    },
                );
                self.children_changed(&path, zxid);
                self.fire_data(&path, WatchChange::Created, out);
                if let Some(p) = parent(&path) {
                    let p = p.to_string();
                    self.fire_children(&p, out);
                }
                OpResult::Created(stat)
            }
            ZkOp::SetData { path, data, .. } => {
                self.note_partition_write(&path, &data);
                let node = self.nodes.get_mut(&path).expect("checked before applying");
                node.data = data;
                node.stat.version += 1;
                node.stat.mzxid = zxid;
                let stat = node.stat.clone();
                self.fire_data(&path, WatchChange::DataChanged, out);
                OpResult::Set(stat)
            }
            ZkOp::Check { .. } => OpResult::Checked,
            ZkOp::Delete { path } => {
                self.nodes.remove(&path);
                self.children_changed(&path, zxid);
                self.fire_data(&path, WatchChange::Deleted, out);
                if let Some(p) = parent(&path) {
                    let p = p.to_string();
                    self.fire_children(&p, out);
                }
                OpResult::Deleted
            }
            ZkOp::Exists { .. } | ZkOp::GetChildren { .. } | ZkOp::Multi(_) | ZkOp::Batch(_) => {
                unreachable!("reads and nested multis are not writes")
            }
        }
    }
}

/// Reads the `brokerid` out of `/controller`'s JSON data.
pub fn parse_broker_id(data: &str) -> Option<BrokerId> {
    let v: serde_json::Value = serde_json::from_str(data).ok()?;
    v.get("brokerid")?
        .as_u64()
        .and_then(|b| u32::try_from(b).ok())
}

#[cfg(test)]
#[allow(unused_must_use)] // setup requests whose results the test does not need
mod tests {
    use super::*;

    fn connect(zk: &mut ZooKeeper, broker: BrokerId, now: u64) -> SessionId {
        let mut out = Out::default();
        zk.handle(now, broker, Body::Connect { timeout_ms: 6000 }, &mut out);
        match &out.sends[0].2 {
            Body::Connected { session, .. } => *session,
            other => panic!("expected Connected, got {other:?}"),
        }
    }

    fn request(
        zk: &mut ZooKeeper,
        broker: BrokerId,
        session: SessionId,
        op: ZkOp,
    ) -> (Result<OpResult, ZkError>, Out) {
        let mut out = Out::default();
        zk.handle(
            0,
            broker,
            Body::Request {
                session,
                xid: 1,
                op,
            },
            &mut out,
        );
        let pos = out
            .sends
            .iter()
            .position(|(_, to, b)| {
                *to == Endpoint::Broker(broker) && matches!(b, Body::Response { .. })
            })
            .expect("a response");
        let (_, _, body) = out.sends.remove(pos);
        match body {
            Body::Response { result, .. } => (result, out),
            _ => unreachable!(),
        }
    }

    fn persistent(path: &str, data: &str) -> ZkOp {
        ZkOp::Create {
            path: path.into(),
            data: data.into(),
            ephemeral: false,
        }
    }

    fn create_ephemeral(path: &str) -> ZkOp {
        ZkOp::Create {
            path: path.into(),
            data: r#"{"version":1,"brokerid":1}"#.into(),
            ephemeral: true,
        }
    }

    #[test]
    fn ephemeral_znodes_die_with_the_session_and_fire_watches() {
        let mut zk = ZooKeeper::new();
        let s1 = connect(&mut zk, 1, 0);
        let s2 = connect(&mut zk, 2, 0);
        let (r, _) = request(&mut zk, 1, s1, create_ephemeral("/controller"));
        assert!(matches!(r, Ok(OpResult::Created(_))));
        let (r, _) = request(
            &mut zk,
            2,
            s2,
            ZkOp::Exists {
                path: "/controller".into(),
                watch: true,
            },
        );
        assert!(matches!(r, Ok(OpResult::Node(Some(_)))));
        assert_eq!(zk.controller(), Some(1));

        // Connected at 0 with 6 s: the first tick (3 s) boundary after 6000 is 9000.
        let mut out = Out::default();
        zk.on_timer(9000, Timer::SessionDeadline(s1), &mut out);
        assert!(
            zk.node("/controller").is_none(),
            "the ephemeral znode is gone"
        );
        let watch = out.sends.iter().find(|(_, to, b)| {
            *to == Endpoint::Broker(2)
                && matches!(
                    b,
                    Body::Watch {
                        change: WatchChange::Deleted,
                        ..
                    }
                )
        });
        assert!(watch.is_some(), "broker 2's watch fired: {:?}", out.sends);
        assert!(out.events.iter().any(|(k, c)| matches!(
            k,
            EventKind::SessionExpired { broker: 1, .. }
        ) && c.contains("zookeeper.session.timeout.ms")));
    }

    #[test]
    fn heartbeats_keep_a_session_alive() {
        let mut zk = ZooKeeper::new();
        let s = connect(&mut zk, 1, 0);
        assert_eq!(zk.session(s).unwrap().deadline_ms(), 9_000);
        let mut out = Out::default();
        zk.handle(4000, 1, Body::Ping { session: s }, &mut out);
        // 4000 + 6000 = 10000 rounds up to the next boundary, 12000.
        assert_eq!(zk.session(s).unwrap().deadline_ms(), 12_000);
        let mut out = Out::default();
        zk.on_timer(9_000, Timer::SessionDeadline(s), &mut out);
        assert!(zk.session(s).unwrap().ended.is_none());
        assert_eq!(
            out.timers,
            vec![(12_000, Endpoint::Zk, Timer::SessionDeadline(s))]
        );
        let mut out = Out::default();
        zk.on_timer(12_000, Timer::SessionDeadline(s), &mut out);
        assert_eq!(zk.session(s).unwrap().ended, Some(SessionEnd::Expired));
    }

    #[test]
    fn sessions_expire_at_the_first_tick_after_last_contact_plus_timeout() {
        // (phase, last contact, expected expiry) with tickTime 3000 and a 6000 ms session.
        for (phase, contact, expiry) in [
            // Ticks at 0, 3000, 6000, ...: never at exactly contact + timeout.
            (0, 0, 9_000),
            (0, 1, 9_000),
            (0, 2_999, 9_000),
            (0, 3_000, 12_000),
            // The server's clock reads now + 1000: ticks at 2000, 5000, 8000, 11000, ...
            (1_000, 0, 8_000),
            (1_000, 1_999, 8_000),
            (1_000, 2_000, 11_000),
            // Ticks at 1, 3001, 6001, 9001, ...
            (2_999, 0, 6_001),
            (2_999, 1, 9_001),
        ] {
            let mut zk = ZooKeeper::with_clock(ZkClock::new(3_000, phase));
            let s = connect(&mut zk, 1, 0);
            let mut out = Out::default();
            zk.handle(contact, 1, Body::Ping { session: s }, &mut out);
            let deadline = zk.session(s).unwrap().deadline_ms();
            assert_eq!(deadline, expiry, "phase {phase}, contact at {contact}");
            assert!(deadline > contact + 6_000 && deadline <= contact + 9_000);
            // The tracker expires it at that boundary, not a millisecond before.
            let mut out = Out::default();
            zk.on_timer(expiry - 1, Timer::SessionDeadline(s), &mut out);
            assert!(zk.session(s).unwrap().ended.is_none(), "phase {phase}");
            let mut out = Out::default();
            zk.on_timer(expiry, Timer::SessionDeadline(s), &mut out);
            assert_eq!(zk.session(s).unwrap().ended, Some(SessionEnd::Expired));
        }
    }

    #[test]
    fn the_server_clamps_the_session_timeout_to_2_to_20_ticks() {
        for (requested, granted, clamped) in [
            (300, 6_000, true),
            (5_999, 6_000, true),
            (6_000, 6_000, false),
            (18_000, 18_000, false),
            (60_000, 60_000, false),
            (60_001, 60_000, true),
            (600_000, 60_000, true),
        ] {
            let mut zk = ZooKeeper::new();
            let mut out = Out::default();
            zk.handle(
                0,
                1,
                Body::Connect {
                    timeout_ms: requested,
                },
                &mut out,
            );
            let Body::Connected {
                session,
                timeout_ms,
                resumed: false,
            } = out.sends[0].2
            else {
                panic!("{:?}", out.sends)
            };
            assert_eq!(timeout_ms, granted, "asked for {requested}");
            assert_eq!(zk.session(session).unwrap().timeout_ms, granted);
            let (kind, cause) = &out.events[0];
            assert_eq!(
                *kind,
                EventKind::ZkSessionCreated {
                    broker: 1,
                    session,
                    timeout_ms: granted
                }
            );
            assert_eq!(
                cause.contains("minSessionTimeout (6000 ms) to maxSessionTimeout (60000 ms)"),
                clamped,
                "{cause}"
            );
        }
    }

    #[test]
    fn watches_are_one_shot() {
        let mut zk = ZooKeeper::new();
        let s1 = connect(&mut zk, 1, 0);
        let s2 = connect(&mut zk, 2, 0);
        request(
            &mut zk,
            2,
            s2,
            ZkOp::Exists {
                path: "/x".into(),
                watch: true,
            },
        );
        let (_, out) = request(&mut zk, 1, s1, persistent("/x", "a"));
        assert_eq!(
            out.sends
                .iter()
                .filter(|(_, _, b)| matches!(b, Body::Watch { .. }))
                .count(),
            1
        );
        let (_, out) = request(
            &mut zk,
            1,
            s1,
            ZkOp::SetData {
                path: "/x".into(),
                data: "b".into(),
                version: None,
            },
        );
        assert_eq!(
            out.sends
                .iter()
                .filter(|(_, _, b)| matches!(b, Body::Watch { .. }))
                .count(),
            0,
            "fired once only"
        );
    }

    #[test]
    fn multi_is_all_or_nothing() {
        let mut zk = ZooKeeper::new();
        let s1 = connect(&mut zk, 1, 0);
        let s2 = connect(&mut zk, 2, 0);
        request(&mut zk, 1, s1, persistent("/controller_epoch", "0"));
        let elect = |v: i32| {
            ZkOp::Multi(vec![
                create_ephemeral("/controller"),
                ZkOp::SetData {
                    path: "/controller_epoch".into(),
                    data: "1".into(),
                    version: Some(v),
                },
            ])
        };
        let (r, _) = request(&mut zk, 1, s1, elect(0));
        assert!(r.is_ok());
        assert_eq!(zk.controller_epoch(), 1);
        // The loser's multi fails on the create and changes nothing.
        let (r, _) = request(&mut zk, 2, s2, elect(0));
        assert_eq!(r, Err(ZkError::NodeExists));
        assert_eq!(zk.controller_epoch(), 1);
        assert_eq!(zk.node("/controller_epoch").unwrap().stat.version, 1);
        assert_eq!(zk.controller(), Some(1));
    }

    #[test]
    fn a_zombie_controllers_fenced_write_fails_once_the_epoch_moved() {
        use crate::sim::config::Profile;
        use crate::sim::znodes::fenced;
        let mut zk = ZooKeeper::new();
        let s1 = connect(&mut zk, 1, 0);
        let s2 = connect(&mut zk, 2, 0);
        request(&mut zk, 1, s1, persistent("/controller_epoch", "1"));
        request(&mut zk, 1, s1, persistent("/state", "a"));
        // Broker 1 was elected when /controller_epoch had version 0; broker 2 is elected now.
        request(
            &mut zk,
            2,
            s2,
            ZkOp::SetData {
                path: "/controller_epoch".into(),
                data: "2".into(),
                version: Some(0),
            },
        );
        let write = ZkOp::SetData {
            path: "/state".into(),
            data: "zombie".into(),
            version: None,
        };
        let (r, _) = request(&mut zk, 1, s1, fenced(Profile::V3_9, 0, write.clone()));
        assert_eq!(
            r,
            Err(ZkError::CheckFailed),
            "fenced: ControllerMovedException"
        );
        assert_eq!(zk.node("/state").unwrap().data, "a");
        // Kafka 2.0 had no such guard: the zombie's write lands.
        let (r, _) = request(&mut zk, 1, s1, fenced(Profile::V2_0, 0, write));
        assert!(r.is_ok());
        assert_eq!(zk.node("/state").unwrap().data, "zombie");
    }

    #[test]
    fn a_stale_version_fails_with_badversion() {
        let mut zk = ZooKeeper::new();
        let s1 = connect(&mut zk, 1, 0);
        request(&mut zk, 1, s1, persistent("/e", "0"));
        request(
            &mut zk,
            1,
            s1,
            ZkOp::SetData {
                path: "/e".into(),
                data: "1".into(),
                version: Some(0),
            },
        );
        let (r, _) = request(
            &mut zk,
            1,
            s1,
            ZkOp::SetData {
                path: "/e".into(),
                data: "2".into(),
                version: Some(0),
            },
        );
        assert_eq!(r, Err(ZkError::BadVersion));
    }

    #[test]
    fn czxid_grows_with_each_registration() {
        let mut zk = ZooKeeper::new();
        let s1 = connect(&mut zk, 1, 0);
        let (r1, _) = request(&mut zk, 1, s1, create_ephemeral("/brokers/ids/1"));
        let first = zk.registration(1).unwrap();
        assert!(matches!(r1, Ok(OpResult::Created(ref st)) if st.czxid == first));
        let mut out = Out::default();
        zk.force_expire(1, &mut out);
        assert_eq!(zk.registration(1), None);
        let s1b = connect(&mut zk, 1, 10);
        request(&mut zk, 1, s1b, create_ephemeral("/brokers/ids/1"));
        assert!(zk.registration(1).unwrap() > first);
    }

    #[test]
    fn requests_on_an_expired_session_are_refused() {
        let mut zk = ZooKeeper::new();
        let s = connect(&mut zk, 1, 0);
        let mut out = Out::default();
        zk.force_expire(1, &mut out);
        let mut out = Out::default();
        zk.handle(
            1,
            1,
            Body::Request {
                session: s,
                xid: 9,
                op: ZkOp::Exists {
                    path: "/".into(),
                    watch: false,
                },
            },
            &mut out,
        );
        assert!(matches!(out.sends[0].2, Body::Expired { .. }));
        let mut out = Out::default();
        zk.handle(1, 1, Body::Reconnect { session: s }, &mut out);
        assert!(matches!(out.sends[0].2, Body::Expired { .. }));
    }

    #[test]
    fn children_are_listed_with_czxid() {
        let mut zk = ZooKeeper::new();
        let s = connect(&mut zk, 1, 0);
        request(&mut zk, 1, s, create_ephemeral("/brokers/ids/2"));
        request(&mut zk, 1, s, create_ephemeral("/brokers/ids/1"));
        let (r, _) = request(
            &mut zk,
            1,
            s,
            ZkOp::GetChildren {
                path: "/brokers/ids".into(),
                watch: false,
            },
        );
        match r {
            Ok(OpResult::Children(c)) => {
                assert_eq!(
                    c.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
                    ["1", "2"]
                );
                assert!(c[0].1 > c[1].1, "broker 1 registered later");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_admin_delete_fires_watches_whatever_the_owner() {
        let mut zk = ZooKeeper::new();
        let s1 = connect(&mut zk, 1, 0);
        let s2 = connect(&mut zk, 2, 0);
        request(&mut zk, 1, s1, create_ephemeral("/controller"));
        request(
            &mut zk,
            2,
            s2,
            ZkOp::Exists {
                path: "/controller".into(),
                watch: true,
            },
        );
        let zxid = zk.zxid();
        let mut out = Out::default();
        assert!(zk.admin_delete("/controller", &mut out));
        assert_eq!(zk.controller(), None);
        assert_eq!(zk.zxid(), zxid + 1, "one transaction");
        assert!(out.sends.iter().any(|(_, to, b)| *to == Endpoint::Broker(2)
            && matches!(b, Body::Watch { path, change: WatchChange::Deleted, .. } if path == "/controller")));
        assert!(
            zk.session(s1).unwrap().ended.is_none(),
            "the owner's session lives on"
        );
        let mut out = Out::default();
        assert!(!zk.admin_delete("/controller", &mut out));
        assert!(out.sends.is_empty());
        assert_eq!(zk.zxid(), zxid + 1);
    }
}
