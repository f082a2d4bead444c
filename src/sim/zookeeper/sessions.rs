//! ZooKeeper's sessions: the server's clock (`tickTime`), negotiated timeouts, heartbeats, and
//! expiry on tick boundaries, with the ephemeral znodes and watches a session takes with it.

use super::causes::ZkCause;
use super::{java_order, parent, SessionEnd, ZooKeeper};
use crate::sim::event::EventKind;
use crate::sim::message::{Body, Out, SessionId, Timer};
use crate::sim::net::{BrokerId, Endpoint};

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

impl ZooKeeper {
    pub(super) fn alive(&self, session: SessionId) -> bool {
        self.sessions
            .get(&session)
            .is_some_and(|s| s.ended.is_none())
    }

    /// `SessionTrackerImpl.touchSession`: every request, ping or reconnect moves the session
    /// to the bucket of the first tick boundary after now + its timeout.
    pub(super) fn touch(&mut self, session: SessionId, now: u64) {
        let clock = self.clock;
        if let Some(s) = self.sessions.get_mut(&session) {
            s.last_heard_ms = now;
            s.expires_at_ms = s
                .expires_at_ms
                .max(clock.next_boundary_after(now + s.timeout_ms));
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
                ZkCause::SessionTimedOut {
                    timeout_ms: timeout,
                    tick_ms: tick,
                    after_last_contact_ms: now - last,
                },
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
            ZkCause::ExpiredOnRequest,
        );
        true
    }

    pub(super) fn expire(&mut self, id: SessionId, out: &mut Out) {
        let owner = self.sessions[&id].owner;
        self.end_session(id, SessionEnd::Expired, out);
        // The server closes the connection; the client finds out the session is gone.
        out.send(
            Endpoint::Zk,
            Endpoint::Broker(owner),
            Body::Expired { session: id },
        );
    }

    pub(super) fn end_session(&mut self, id: SessionId, how: SessionEnd, out: &mut Out) {
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
        // ...and so do its ephemeral znodes. Closing a session, by its owner or by expiry, is
        // one transaction (OpCode.closeSession, ZooKeeper 3.4 to 3.8), with its zxid even
        // when the session owns nothing; `DataTree.killSession` deletes every ephemeral znode
        // of the session at that zxid, each deletion firing its watches, in the order of a
        // Java HashSet of their paths (see `java_order`).
        self.zxid += 1;
        let zxid = self.zxid;
        let mut owned: Vec<(i64, String)> = self
            .nodes
            .iter()
            .filter(|(_, n)| n.stat.ephemeral_owner == Some(id))
            .map(|(p, n)| (n.stat.czxid, p.clone()))
            .collect();
        crate::collections::sort(&mut owned);
        let created: Vec<String> = owned.into_iter().map(|(_, p)| p).collect();
        for path in java_order::close_order(&created) {
            self.nodes.remove(&path);
            self.children_changed(&path, zxid);
            self.fire_deleted(&path, out);
            if let Some(p) = parent(&path) {
                let p = p.to_string();
                self.fire_children(&p, out);
            }
        }
    }
}
