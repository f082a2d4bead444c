//! ZooKeeper's requests: connect, ping, reads and writes (with versions and multi-ops), the
//! one-shot watches they set and fire, and SetWatches after a reconnect.

use super::causes::ZkCause;
use super::{parent, Session, SessionEnd, Znode, ZooKeeper};
use crate::collections::{VecMap, VecSet};
use crate::sim::event::EventKind;
use crate::sim::message::{
    Body, NodeData, OpResult, Out, SessionId, Stat, Timer, WatchChange, ZkError, ZkOp,
};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::znodes::ZnodeValue;

/// What an earlier op of a multi leaves at a path: its version and whether it is ephemeral,
/// or `None` when it will not exist.
type Pending = Option<(i32, bool)>;

impl ZooKeeper {
    /// Handles a message from a broker's client.
    pub fn handle(&mut self, now: u64, from: BrokerId, body: Body, out: &mut Out) {
        let me = Endpoint::Zk;
        let to = Endpoint::Broker(from);
        match body {
            Body::Connect {
                timeout_ms: requested,
            } => {
                // A new session is a transaction of its own (`PrepRequestProcessor.pRequest`:
                // OpCode.createSession takes `zks.getNextZxid()`), so it moves the zxid.
                self.zxid += 1;
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
                        ZkCause::SessionCreated
                    } else {
                        ZkCause::SessionCreatedBounded {
                            requested_ms: requested,
                            min_ms: min,
                            max_ms: max,
                            tick_ms: self.clock.tick_ms,
                        }
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
                    ZkCause::SessionClosed,
                );
            }
            _ => {}
        }
    }

    /// ZooKeeper's SetWatches: a resumed client's watches fire at once for every znode that
    /// changed after the last zxid the client saw (notifications lost with the connection are
    /// not lost for good); the others are armed again.
    pub(super) fn set_watches(
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
                // A data watch on a znode that changed, even one deleted and created again
                // meanwhile (its mzxid is its new czxid): NodeDataChanged (`DataTree.setWatches`,
                // ZooKeeper 3.4 to 3.8).
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

    pub(super) fn fire(
        &mut self,
        watches: fn(&mut ZooKeeper) -> &mut VecMap<String, VecSet<SessionId>>,
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

    pub(super) fn fire_data(&mut self, path: &str, change: WatchChange, out: &mut Out) {
        self.fire(|z| &mut z.data_watches, path, change, out);
    }

    /// A znode was deleted: the data watches and the child watches set on it fire, each
    /// session told once with NodeDeleted (`DataTree.deleteNode`: the child watches trigger
    /// with NodeDeleted too, suppressed for the watchers the data watches already told,
    /// `WatchManager.triggerWatch`, ZooKeeper 3.4 to 3.8). The parent's child watches are the
    /// caller's.
    pub(super) fn fire_deleted(&mut self, path: &str, out: &mut Out) {
        if let Some(children) = self.child_watches.remove(path) {
            self.data_watches
                .entry(path.to_string())
                .or_default()
                .extend(children);
        }
        self.fire_data(path, WatchChange::Deleted, out);
    }

    pub(super) fn fire_children(&mut self, path: &str, out: &mut Out) {
        self.fire(
            |z| &mut z.child_watches,
            path,
            WatchChange::ChildrenChanged,
            out,
        );
    }

    /// Checks an operation against the current tree without changing anything, in the order
    /// `PrepRequestProcessor.pRequest2Txn` checks it (ZooKeeper 3.8): a create needs its parent
    /// (NONODE), a free path (NODEEXISTS) and a parent that is not ephemeral
    /// (NOCHILDRENFOREPHEMERALS); a setData or check needs the znode and its version; a delete
    /// needs the znode and no children (NOTEMPTY).
    pub(super) fn check(
        &self,
        op: &ZkOp,
        pending: &VecMap<String, Pending>,
    ) -> Result<(), ZkError> {
        // `pending` holds the effect of earlier ops of the same multi: for each path they
        // touched, its version and whether it is ephemeral if it will exist, None if not.
        let node_of = |path: &str| -> Pending {
            match pending.get(path) {
                Some(p) => *p,
                None => self
                    .nodes
                    .get(path)
                    .map(|n| (n.stat.version, n.stat.ephemeral_owner.is_some())),
            }
        };
        let version_of = |path: &str| node_of(path).map(|(v, _)| v);
        let has_children = |path: &str| {
            let prefix = if path == "/" {
                "/".to_string()
            } else {
                format!("{path}/")
            };
            let direct = |p: &str| {
                p.strip_prefix(&prefix)
                    .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
            };
            self.nodes
                .range::<str, _>((
                    std::ops::Bound::Included(prefix.as_str()),
                    std::ops::Bound::Unbounded,
                ))
                .take_while(|(p, _)| p.starts_with(&prefix))
                .any(|(p, _)| direct(p) && !matches!(pending.get(p.as_str()), Some(None)))
                || pending.iter().any(|(p, v)| v.is_some() && direct(p))
        };
        match op {
            ZkOp::Create { path, .. } => {
                let Some((_, parent_ephemeral)) = parent(path).and_then(node_of) else {
                    return Err(ZkError::NoNode);
                };
                if version_of(path).is_some() {
                    return Err(ZkError::NodeExists);
                }
                if parent_ephemeral {
                    return Err(ZkError::NoChildrenForEphemerals);
                }
                Ok(())
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
                Some(_) if has_children(path) => Err(ZkError::NotEmpty),
                Some(_) => Ok(()),
            },
            _ => Ok(()),
        }
    }

    pub(super) fn execute(
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
                let mut pending: VecMap<String, Pending> = VecMap::new();
                for op in &ops {
                    if let Err(e) = self.check(op, &pending) {
                        // A failed write is still a transaction: PrepRequestProcessor gave it
                        // its zxid before the check failed and logs it as an error txn.
                        self.zxid += 1;
                        return Err(match (op, e) {
                            (ZkOp::Check { .. }, ZkError::BadVersion) => ZkError::CheckFailed,
                            (_, e) => e,
                        });
                    }
                    match op {
                        ZkOp::Create {
                            path, ephemeral, ..
                        } => {
                            pending.insert(path.clone(), Some((0, *ephemeral)));
                        }
                        ZkOp::SetData { path, .. } => {
                            let (v, ephemeral) = pending
                                .get(path)
                                .copied()
                                .flatten()
                                .or_else(|| {
                                    self.nodes
                                        .get(path)
                                        .map(|n| (n.stat.version, n.stat.ephemeral_owner.is_some()))
                                })
                                .unwrap_or((0, false));
                            pending.insert(path.clone(), Some((v + 1, ephemeral)));
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
                let checked = self.check(&write, &VecMap::new());
                // Failed or not, a write takes the next zxid (`PrepRequestProcessor.pRequest2Txn`
                // sets the txn header first; a failed check turns it into an error txn).
                self.zxid += 1;
                checked?;
                let zxid = self.zxid;
                Ok(self.apply_write(session, write, zxid, out))
            }
        }
    }

    pub(super) fn apply_write(
        &mut self,
        session: SessionId,
        op: ZkOp,
        zxid: i64,
        out: &mut Out,
    ) -> OpResult {
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
                        value: ZnodeValue::parse(&path, &data),
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
                let value = ZnodeValue::parse(&path, &data);
                self.note_partition_write(&path, &value);
                let node = self.nodes.get_mut(&path).expect("checked before applying");
                node.value = value;
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
                self.fire_deleted(&path, out);
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
