//! A broker's ZooKeeper client: connecting, the session and its timeouts, the send thread's
//! pings and read timeout, reconnecting, requests queued while disconnected and re-sent after a
//! reconnect, and the watches it holds.
//!
//! The client is a handler of its own: it borrows only its state and the output. It tells its
//! owner (the broker, [`super::broker`]) what happened by return value: a session that opened
//! or resumed, the reply to a request with the purpose it was sent for, a watch that fired.
//! Session expiry and registration are the broker's business and stay there.
//!
//! Sources: `org.apache.zookeeper.ClientCnxn` (ZooKeeper 3.4 to 3.8: `SendThread.run`,
//! `onConnected`, `queuePacket`), `kafka.zookeeper.ZooKeeperClient` (retries on CONNECTIONLOSS,
//! re-registers watches with SetWatches on reconnect).

pub mod causes;

use self::causes::ZkClientCause;
use super::controller::pending::{ControllerPending, ElectionPending};
use super::event::EventKind;
use super::message::{Body, OpResult, Out, SessionId, Timer, WatchChange, ZkError, ZkOp};
use super::net::{BrokerId, Endpoint};
use super::replication::timers::ReplicaPending;
use super::state::ZkConnection;
use crate::collections::{VecMap, VecSet};
// The requests out: hundreds at once, answered from the front (`pending`).
#[allow(clippy::disallowed_types)]
use std::collections::BTreeMap;

/// How often a disconnected ZooKeeper client retries.
pub const ZK_RECONNECT_BACKOFF_MS: u64 = 1_000;

/// `ClientCnxn.SendThread.run`'s `MAX_SEND_PING_INTERVAL` (ZooKeeper 3.4 to 3.8): a client
/// that wakes having sent nothing for longer than this pings whatever its read timeout.
pub const ZK_MAX_SEND_PING_INTERVAL_MS: u64 = 10_000;

/// What a ZooKeeper request was for, so its response can be handled.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // the variants are documented; their fields say what they hold
pub enum Pending {
    /// Create `/brokers/ids/N`.
    Register,
    /// The create of `/brokers/ids/N` met NODEEXISTS: read the znode's owner.
    RegisterCheck,
    /// A request of the `/controller` race (see [`super::controller`]).
    Election(ElectionPending),
    /// A request of the acting controller.
    Controller(ControllerPending),
    /// A request of the replica manager (the leader's ISR writes before 2.7).
    Replica(ReplicaPending),
}

/// The client side of the ZooKeeper connection.
#[derive(Debug, Clone)]
pub struct ZkClient {
    /// The broker whose client this is (it names the broker in events and messages).
    broker: BrokerId,
    /// Connection state.
    pub state: ZkConnection,
    /// Current session, once the server opened one.
    pub session: Option<SessionId>,
    /// When the client last heard from the server.
    pub last_heard_ms: u64,
    /// When the client last sent anything.
    pub last_sent_ms: u64,
    /// The session timeout the server granted (`None` until it answered).
    pub negotiated_timeout_ms: Option<u64>,
    /// `readTimeout`: two thirds of the session timeout (the requested one until the server
    /// answers, then the negotiated one).
    pub read_timeout_ms: u64,
    /// `connectTimeout`: the session timeout divided by the number of servers (one here).
    pub connect_timeout_ms: u64,
    /// When the send thread wakes next (its current tick timer).
    tick_at: Option<u64>,
    next_xid: u64,
    /// Requests sent and not yet answered, by xid. A `BTreeMap`: answered from the front, and a
    /// controller with hundreds of partitions has hundreds out at once.
    #[allow(clippy::disallowed_types)]
    pub pending: BTreeMap<u64, (ZkOp, Pending)>,
    /// Requests waiting for a connection.
    queued: Vec<(ZkOp, Pending)>,
    /// Data watches it holds (path -> whether the znode existed when the watch was set).
    pub data_watches: VecMap<String, bool>,
    /// Child watches it holds.
    pub child_watches: VecSet<String>,
    /// The newest zxid seen in a response or notification.
    pub last_zxid: i64,
    /// The number of the tick timer that is current (others are stale).
    tick: u64,
}

impl ZkClient {
    /// A client with no session, for broker `broker`.
    pub fn new(broker: BrokerId) -> Self {
        ZkClient {
            broker,
            state: ZkConnection::Idle,
            session: None,
            last_heard_ms: 0,
            last_sent_ms: 0,
            negotiated_timeout_ms: None,
            read_timeout_ms: 0,
            connect_timeout_ms: 0,
            tick_at: None,
            next_xid: 1,
            #[allow(clippy::disallowed_types)] // hundreds at once, answered from the front
            pending: BTreeMap::new(),
            queued: Vec::new(),
            data_watches: VecMap::new(),
            child_watches: VecSet::new(),
            last_zxid: 0,
            tick: 0,
        }
    }
}

/// What a session-opening reply meant for the client's owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SessionStart {
    /// A new session: the requests and watches of the old one are gone (nothing is queued);
    /// the owner registers again.
    New,
    /// The same session, resumed after a disconnection: lost requests were sent again.
    Resumed,
}

impl ZkClient {
    fn me(&self) -> Endpoint {
        Endpoint::Broker(self.broker)
    }

    /// Opens a new session asking for `requested_timeout_ms` (`zookeeper.session.timeout.ms`).
    pub(crate) fn connect(&mut self, now: u64, requested_timeout_ms: u64, out: &mut Out) {
        self.state = ZkConnection::Connecting;
        self.session = None;
        self.last_sent_ms = now;
        self.last_heard_ms = now;
        // The ZooKeeper constructor (ClientCnxn): readTimeout = sessionTimeout * 2 / 3 and
        // connectTimeout = sessionTimeout / the number of servers, from the requested timeout
        // until the server grants one.
        let requested = requested_timeout_ms;
        self.negotiated_timeout_ms = None;
        self.read_timeout_ms = requested * 2 / 3;
        self.connect_timeout_ms = requested;
        out.send(
            self.me(),
            Endpoint::Zk,
            Body::Connect {
                timeout_ms: requested,
            },
        );
        self.schedule_tick(now + self.connect_timeout_ms.max(1), out);
    }

    fn schedule_tick(&mut self, at: u64, out: &mut Out) {
        self.tick += 1;
        self.tick_at = Some(at);
        out.timer(at, self.me(), Timer::ZkTick(self.tick));
    }

    /// Sends a ZooKeeper request now, or when the connection is back.
    pub(crate) fn request(&mut self, now: u64, op: ZkOp, purpose: Pending, out: &mut Out) {
        if self.state == ZkConnection::Connected && now >= self.last_heard_ms + self.read_timeout_ms
        {
            // The woken send thread first finds the read timeout passed and drops the
            // connection; the request waits for the next one.
            self.send_thread(now, out);
        }
        match (self.state, self.session) {
            (ZkConnection::Connected, Some(session)) => {
                let xid = self.next_xid;
                self.next_xid += 1;
                self.pending.insert(xid, (op.clone(), purpose));
                self.last_sent_ms = now;
                out.send(self.me(), Endpoint::Zk, Body::Request { session, xid, op });
                // Queueing a packet wakes the send thread (ClientCnxn.queuePacket → wakeupCnxn).
                self.send_thread(now, out);
            }
            _ => self.queued.push((op, purpose)),
        }
    }

    /// Sends the requests that waited for a connection.
    fn flush_queued(&mut self, now: u64, out: &mut Out) {
        for (op, purpose) in std::mem::take(&mut self.queued) {
            self.request(now, op, purpose, out);
        }
    }

    /// Takes every request sent and not answered, then every queued one (in that order).
    pub(crate) fn take_unfinished(&mut self) -> Vec<(ZkOp, Pending)> {
        let mut ops: Vec<(ZkOp, Pending)> =
            std::mem::take(&mut self.pending).into_values().collect();
        ops.append(&mut self.queued);
        ops
    }

    /// Forgets the requests of a session that is gone.
    pub(crate) fn drop_requests(&mut self) {
        self.pending.clear();
        self.queued.clear();
    }

    /// One pass of the connected client's send thread (`ClientCnxn.SendThread.run`, ZooKeeper
    /// 3.4 to 3.8), run whenever it wakes: when its timer fires, a packet arrives or one is
    /// queued. Nothing heard for `readTimeout` (2/3 of the negotiated session timeout): the
    /// connection is given up. Otherwise it pings when `readTimeout / 2 - idleSend -
    /// (idleSend > 1000 ? 1000 : 0) <= 0` ("1000 is to prevent race condition missing to send
    /// the second ping"), or when it has sent nothing for `MAX_SEND_PING_INTERVAL`, and sleeps
    /// until the read timeout or the next ping is due.
    fn send_thread(&mut self, now: u64, out: &mut Out) {
        if self.state != ZkConnection::Connected {
            return;
        }
        let session = self.session.unwrap_or_default();
        let read_timeout = self.read_timeout_ms as i64;
        let idle_recv = now.saturating_sub(self.last_heard_ms) as i64;
        let mut to = read_timeout - idle_recv;
        if to <= 0 {
            self.state = ZkConnection::Disconnected;
            out.event(
                EventKind::ZkDisconnected {
                    broker: self.broker,
                    session,
                },
                ZkClientCause::ReadTimeout {
                    read_timeout_ms: self.read_timeout_ms,
                },
            );
            self.try_reconnect(now, out);
            return;
        }
        let idle_send = now.saturating_sub(self.last_sent_ms) as i64;
        let time_to_next_ping =
            read_timeout / 2 - idle_send - if idle_send > 1000 { 1000 } else { 0 };
        if time_to_next_ping <= 0 || idle_send > ZK_MAX_SEND_PING_INTERVAL_MS as i64 {
            self.last_sent_ms = now;
            out.send(self.me(), Endpoint::Zk, Body::Ping { session });
            // The loop runs again as soon as the ping is written, with idleSend = 0.
            to = to.min(read_timeout / 2);
        } else if time_to_next_ping < to {
            to = time_to_next_ping;
        }
        let at = now + to.max(1) as u64;
        if self.tick_at != Some(at) {
            self.schedule_tick(at, out);
        }
    }

    /// The send thread's timer: a ping or read-timeout check when connected, another attempt
    /// when still waiting for the server.
    pub(crate) fn on_tick(
        &mut self,
        now: u64,
        tick: u64,
        requested_timeout_ms: u64,
        out: &mut Out,
    ) {
        if tick != self.tick {
            return; // a stale tick
        }
        self.tick_at = None;
        match self.state {
            ZkConnection::Idle => {}
            ZkConnection::Connected => self.send_thread(now, out),
            ZkConnection::Connecting | ZkConnection::Disconnected => {
                // No answer yet: try again.
                match self.session {
                    Some(_) => self.try_reconnect(now, out),
                    None => self.connect(now, requested_timeout_ms, out),
                }
            }
        }
    }

    /// A packet from the server: the client has heard from it, and its send thread wakes.
    fn heard(&mut self, now: u64, out: &mut Out) {
        self.last_heard_ms = now;
        self.send_thread(now, out);
    }

    /// A pong: heard from the server, if it is for this session.
    pub(crate) fn on_pong(&mut self, now: u64, session: SessionId, out: &mut Out) {
        if self.session == Some(session) {
            self.heard(now, out);
        }
    }

    /// The link to the server dropped packets: reconnect (or connect, with no session yet).
    pub(crate) fn on_connection_loss(
        &mut self,
        now: u64,
        requested_timeout_ms: u64,
        out: &mut Out,
    ) {
        match (self.state, self.session) {
            (ZkConnection::Idle, _) => {}
            (_, None) => self.connect(now, requested_timeout_ms, out),
            (state, Some(session)) => {
                if state == ZkConnection::Connected {
                    self.state = ZkConnection::Disconnected;
                    out.event(
                        EventKind::ZkDisconnected {
                            broker: self.broker,
                            session,
                        },
                        ZkClientCause::ConnectionLostOnCut,
                    );
                }
                self.try_reconnect(now, out);
            }
        }
    }

    fn try_reconnect(&mut self, now: u64, out: &mut Out) {
        if let Some(session) = self.session {
            self.last_sent_ms = now;
            out.send(self.me(), Endpoint::Zk, Body::Reconnect { session });
        }
        self.schedule_tick(now + ZK_RECONNECT_BACKOFF_MS, out);
    }

    /// The server opened or resumed a session. `None` when the reply is not for this client
    /// any more (it resumes a session the client has given up, or the client is not waiting).
    pub(crate) fn on_connected(
        &mut self,
        now: u64,
        (session, timeout_ms, resumed): (SessionId, u64, bool),
        out: &mut Out,
    ) -> Option<SessionStart> {
        if !matches!(
            self.state,
            ZkConnection::Connecting | ZkConnection::Disconnected
        ) {
            return None;
        }
        if resumed && self.session != Some(session) {
            return None;
        }
        let was = self.state;
        self.state = ZkConnection::Connected;
        self.session = Some(session);
        self.last_heard_ms = now;
        // ClientCnxn.onConnected: the timeouts follow the negotiated session timeout.
        self.negotiated_timeout_ms = Some(timeout_ms);
        self.read_timeout_ms = timeout_ms * 2 / 3;
        self.connect_timeout_ms = timeout_ms;
        self.send_thread(now, out);
        if resumed {
            if was == ZkConnection::Disconnected {
                out.event(
                    EventKind::ZkReconnected {
                        broker: self.broker,
                        session,
                    },
                    ZkClientCause::SessionNotExpiredYet,
                );
            }
            // Requests lost with the connection are sent again (ZooKeeperClient retries on
            // CONNECTIONLOSS).
            let lost: Vec<(ZkOp, Pending)> =
                std::mem::take(&mut self.pending).into_values().collect();
            self.queued.splice(0..0, lost);
            // Watches whose notifications the disconnection may have swallowed (SetWatches).
            if !self.data_watches.is_empty() || !self.child_watches.is_empty() {
                out.send(
                    self.me(),
                    Endpoint::Zk,
                    Body::SetWatches {
                        session,
                        last_zxid: self.last_zxid,
                        data: self
                            .data_watches
                            .iter()
                            .map(|(p, e)| (p.clone(), *e))
                            .collect(),
                        children: self.child_watches.iter().cloned().collect(),
                    },
                );
            }
            self.flush_queued(now, out);
            Some(SessionStart::Resumed)
        } else {
            // A new session: what the old one had sent, queued and watched is gone.
            self.pending.clear();
            self.queued.clear();
            self.data_watches.clear();
            self.child_watches.clear();
            Some(SessionStart::New)
        }
    }

    /// The reply to request `xid`: the purpose it was sent for and its result, or `None` when
    /// it is for another session or a request the client no longer waits for.
    pub(crate) fn on_response(
        &mut self,
        now: u64,
        (session, xid, zxid): (SessionId, u64, i64),
        result: Result<OpResult, ZkError>,
        out: &mut Out,
    ) -> Option<(Pending, Result<OpResult, ZkError>)> {
        if self.session != Some(session) {
            return None;
        }
        self.heard(now, out);
        self.last_zxid = self.last_zxid.max(zxid);
        let (op, purpose) = self.pending.remove(&xid)?;
        self.note_watches(&op, &result);
        Some((purpose, result))
    }

    /// A watch fired: the client no longer holds it. Whether the notification is for this
    /// client's session (only then does the owner handle it).
    pub(crate) fn on_watch(
        &mut self,
        now: u64,
        (session, zxid): (SessionId, i64),
        path: &str,
        change: &WatchChange,
        out: &mut Out,
    ) -> bool {
        if self.session != Some(session) {
            return false;
        }
        self.heard(now, out);
        self.last_zxid = self.last_zxid.max(zxid);
        match change {
            WatchChange::ChildrenChanged => {
                self.child_watches.remove(path);
            }
            WatchChange::Deleted => {
                self.child_watches.remove(path);
                self.data_watches.remove(path);
            }
            _ => {
                self.data_watches.remove(path);
            }
        }
        true
    }

    /// Remembers the watches a read set (also inside a batch), so that SetWatches can re-arm
    /// them after a reconnect.
    fn note_watches(&mut self, op: &ZkOp, result: &Result<OpResult, ZkError>) {
        match (op, result) {
            (ZkOp::Exists { path, watch: true }, Ok(OpResult::Node(node))) => {
                self.data_watches.insert(path.clone(), node.is_some());
            }
            (ZkOp::GetChildren { path, watch: true }, Ok(_)) => {
                self.child_watches.insert(path.clone());
            }
            (ZkOp::Batch(ops), Ok(OpResult::Batch(results))) => {
                for (op, r) in ops.iter().zip(results) {
                    self.note_watches(op, r);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::message::{NodeData, Stat};

    const B: Endpoint = Endpoint::Broker(1);

    fn out() -> Out {
        Out::default()
    }

    /// A client of broker 1 connected to session 7 at `at` (granted 6000 ms: readTimeout 4000).
    fn connected_at(at: u64) -> ZkClient {
        let mut c = ZkClient::new(1);
        c.connect(at, 6_000, &mut out());
        assert_eq!(
            c.on_connected(at, (7, 6_000, false), &mut out()),
            Some(SessionStart::New)
        );
        c
    }

    fn exists(path: &str, watch: bool) -> ZkOp {
        ZkOp::Exists {
            path: path.into(),
            watch,
        }
    }

    #[test]
    fn connecting_asks_for_the_session_timeout_and_waits_the_connect_timeout() {
        let mut c = ZkClient::new(1);
        let mut o = out();
        c.connect(100, 18_000, &mut o);
        assert_eq!(
            o.sends,
            vec![(B, Endpoint::Zk, Body::Connect { timeout_ms: 18_000 })]
        );
        assert_eq!(o.timers, vec![(18_100, B, Timer::ZkTick(1))]);
        assert!(o.events.is_empty());
        assert_eq!(
            (c.state, c.read_timeout_ms),
            (ZkConnection::Connecting, 12_000)
        );
    }

    #[test]
    fn a_new_session_takes_the_granted_timeout_and_sleeps_half_the_read_timeout() {
        let mut c = ZkClient::new(1);
        c.connect(0, 4_000, &mut out());
        let mut o = out();
        assert_eq!(
            c.on_connected(2, (7, 6_000, false), &mut o),
            Some(SessionStart::New)
        );
        assert!(o.sends.is_empty(), "nothing to send yet: {:?}", o.sends);
        // readTimeout 4000 (2/3 of the granted 6000, not of the requested 4000): the next
        // ping is due readTimeout / 2 after the last packet sent (the Connect at 0).
        assert_eq!(o.timers, vec![(2_000, B, Timer::ZkTick(2))]);
        assert_eq!(c.negotiated_timeout_ms, Some(6_000));
        assert_eq!(c.session, Some(7));
    }

    #[test]
    fn a_request_is_sent_with_the_next_xid_and_its_reply_returns_its_purpose() {
        let mut c = connected_at(0);
        let mut o = out();
        c.request(
            10,
            exists("/controller", true),
            Pending::Election(ElectionPending::ElectCheck),
            &mut o,
        );
        assert_eq!(
            o.sends,
            vec![(
                B,
                Endpoint::Zk,
                Body::Request {
                    session: 7,
                    xid: 1,
                    op: exists("/controller", true)
                }
            )]
        );
        assert!(o.events.is_empty());
        let node = NodeData {
            data: "{}".into(),
            stat: Stat {
                czxid: 5,
                mzxid: 5,
                version: 0,
                ephemeral_owner: Some(3),
            },
        };
        let mut o = out();
        let reply = c.on_response(
            12,
            (7, 1, 9),
            Ok(OpResult::Node(Some(node.clone()))),
            &mut o,
        );
        assert_eq!(
            reply,
            Some((
                Pending::Election(ElectionPending::ElectCheck),
                Ok(OpResult::Node(Some(node)))
            ))
        );
        assert_eq!(
            c.data_watches.get("/controller"),
            Some(&true),
            "the watch is held"
        );
        assert_eq!(c.last_zxid, 9);
        assert!(c.pending.is_empty());
        // A second reply to the same xid, or one for another session, is nobody's.
        assert_eq!(
            c.on_response(13, (7, 1, 9), Ok(OpResult::Deleted), &mut out()),
            None
        );
        assert_eq!(
            c.on_response(13, (8, 2, 9), Ok(OpResult::Deleted), &mut out()),
            None
        );
    }

    #[test]
    fn the_read_timeout_disconnects_and_a_resumed_session_sends_lost_requests_and_watches_again() {
        let mut c = connected_at(0);
        c.request(
            0,
            exists("/controller", true),
            Pending::Election(ElectionPending::ElectCheck),
            &mut out(),
        );
        c.on_response(1, (7, 1, 4), Ok(OpResult::Node(None)), &mut out());
        c.request(
            1,
            exists("/brokers/ids/1", false),
            Pending::RegisterCheck,
            &mut out(),
        );
        // Nothing heard since 1: the tick at 4001 finds the read timeout passed.
        let tick = c.tick;
        let mut o = out();
        c.on_tick(4_001, tick, 6_000, &mut o);
        assert_eq!(
            o.events,
            vec![(
                EventKind::ZkDisconnected {
                    broker: 1,
                    session: 7
                },
                ZkClientCause::ReadTimeout {
                    read_timeout_ms: 4_000
                }
                .into()
            )]
        );
        assert_eq!(
            o.sends,
            vec![(B, Endpoint::Zk, Body::Reconnect { session: 7 })]
        );
        assert_eq!(o.timers, vec![(5_001, B, Timer::ZkTick(tick + 1))]);
        // A request made while disconnected waits.
        let mut o = out();
        c.request(
            4_500,
            exists("/admin", false),
            Pending::Replica(ReplicaPending::NotifyIsrChange),
            &mut o,
        );
        assert!(o.sends.is_empty());
        // The session resumes: the event; a ping at once (1002 ms since the Reconnect, more
        // than 1000); SetWatches for the watch it held; then the lost request first and the
        // queued one after, with new xids.
        let mut o = out();
        assert_eq!(
            c.on_connected(5_003, (7, 6_000, true), &mut o),
            Some(SessionStart::Resumed)
        );
        assert_eq!(
            o.events,
            vec![(
                EventKind::ZkReconnected {
                    broker: 1,
                    session: 7
                },
                ZkClientCause::SessionNotExpiredYet.into()
            )]
        );
        assert_eq!(
            o.sends,
            vec![
                (B, Endpoint::Zk, Body::Ping { session: 7 }),
                (
                    B,
                    Endpoint::Zk,
                    Body::SetWatches {
                        session: 7,
                        last_zxid: 4,
                        data: vec![("/controller".to_string(), false)],
                        children: vec![],
                    }
                ),
                (
                    B,
                    Endpoint::Zk,
                    Body::Request {
                        session: 7,
                        xid: 3,
                        op: exists("/brokers/ids/1", false)
                    }
                ),
                (
                    B,
                    Endpoint::Zk,
                    Body::Request {
                        session: 7,
                        xid: 4,
                        op: exists("/admin", false)
                    }
                ),
            ]
        );
    }

    #[test]
    fn a_new_session_forgets_the_old_requests_and_watches() {
        let mut c = connected_at(0);
        c.request(
            0,
            exists("/controller", true),
            Pending::Election(ElectionPending::ElectCheck),
            &mut out(),
        );
        c.on_response(1, (7, 1, 4), Ok(OpResult::Node(None)), &mut out());
        c.request(
            1,
            exists("/brokers/ids/1", false),
            Pending::RegisterCheck,
            &mut out(),
        );
        c.on_connection_loss(2, 6_000, &mut out());
        let mut o = out();
        assert_eq!(
            c.on_connected(3, (9, 6_000, false), &mut o),
            Some(SessionStart::New)
        );
        assert!(o.events.is_empty());
        assert!(o.sends.is_empty());
        assert!(c.pending.is_empty() && c.data_watches.is_empty());
        // A late resume of the old session is not for it any more.
        assert_eq!(c.on_connected(4, (7, 6_000, true), &mut out()), None);
    }

    #[test]
    fn a_watch_notification_drops_the_watch_only_for_its_own_session() {
        let mut c = connected_at(0);
        c.request(
            0,
            exists("/controller", true),
            Pending::Election(ElectionPending::ElectCheck),
            &mut out(),
        );
        c.on_response(1, (7, 1, 4), Ok(OpResult::Node(None)), &mut out());
        let mut o = out();
        assert!(!c.on_watch(2, (8, 6), "/controller", &WatchChange::Created, &mut o));
        assert!(o.sends.is_empty() && o.timers.is_empty());
        assert_eq!(c.data_watches.len(), 1);
        assert!(c.on_watch(2, (7, 6), "/controller", &WatchChange::Created, &mut out()));
        assert!(c.data_watches.is_empty());
        assert_eq!(c.last_zxid, 6);
    }

    /// The client against a scripted server 2 ms away that grants `granted` ms and answers
    /// pings; the request sent on connecting (a registration) is never answered.
    struct Pinged {
        c: ZkClient,
        requested: u64,
        granted: u64,
        queue: BTreeMap<(u64, u64), Result<u64, Body>>,
        seq: u64,
        pings: Vec<u64>,
        disconnected_at: Option<u64>,
    }

    impl Pinged {
        fn new(requested: u64, granted: u64) -> Pinged {
            let mut p = Pinged {
                c: ZkClient::new(1),
                requested,
                granted,
                queue: BTreeMap::new(),
                seq: 0,
                pings: Vec::new(),
                disconnected_at: None,
            };
            let mut o = out();
            p.c.connect(0, requested, &mut o);
            p.take(0, o);
            p
        }

        fn push(&mut self, at: u64, item: Result<u64, Body>) {
            self.seq += 1;
            self.queue.insert((at, self.seq), item);
        }

        fn take(&mut self, now: u64, o: Out) {
            for (at, _, timer) in o.timers {
                if let Timer::ZkTick(t) = timer {
                    self.push(at, Ok(t));
                }
            }
            for (_, _, body) in o.sends {
                match body {
                    Body::Connect { .. } => self.push(
                        now + 2,
                        Err(Body::Connected {
                            session: 7,
                            timeout_ms: self.granted,
                            resumed: false,
                        }),
                    ),
                    Body::Ping { session } => {
                        self.pings.push(now);
                        self.push(now + 2, Err(Body::Pong { session }));
                    }
                    _ => {}
                }
            }
            if o.events
                .iter()
                .any(|(k, _)| matches!(k, EventKind::ZkDisconnected { .. }))
            {
                self.disconnected_at.get_or_insert(now);
            }
        }

        fn run_to(&mut self, t: u64) {
            while let Some(entry) = self.queue.first_entry() {
                let (at, _) = *entry.key();
                if at > t {
                    break;
                }
                let item = entry.remove();
                let mut o = out();
                match item {
                    Ok(tick) => self.c.on_tick(at, tick, self.requested, &mut o),
                    Err(Body::Connected {
                        session,
                        timeout_ms,
                        resumed,
                    }) => {
                        if self
                            .c
                            .on_connected(at, (session, timeout_ms, resumed), &mut o)
                            == Some(SessionStart::New)
                        {
                            self.c.request(
                                at,
                                exists("/brokers/ids/1", false),
                                Pending::Register,
                                &mut o,
                            );
                        }
                    }
                    Err(Body::Pong { session }) => self.c.on_pong(at, session, &mut o),
                    Err(Body::Watch {
                        session,
                        zxid,
                        path,
                        change,
                    }) => {
                        self.c.on_watch(at, (session, zxid), &path, &change, &mut o);
                    }
                    Err(_) => {}
                }
                self.take(at, o);
            }
        }

        /// A notification from the server at `at` (a packet the send thread wakes for).
        fn watch_at(&mut self, at: u64) {
            self.push(
                at,
                Err(Body::Watch {
                    session: 7,
                    zxid: 1,
                    path: "/unwatched".into(),
                    change: WatchChange::DataChanged,
                }),
            );
        }
    }

    #[test]
    fn an_idle_client_pings_every_half_read_timeout() {
        // 6 s: readTimeout 4000. Connected at 2, the registration request goes out at 2 and
        // is never answered; pings follow every readTimeout / 2 = 2000 ms of silence.
        let mut p = Pinged::new(6_000, 6_000);
        p.run_to(9_000);
        assert_eq!(p.pings, vec![2_002, 4_002, 6_002, 8_002]);
        assert_eq!(p.c.read_timeout_ms, 4_000);
        assert_eq!(p.disconnected_at, None, "the pongs keep it connected");
        // 18 s: readTimeout 12000, a ping every 6000 ms.
        let mut p = Pinged::new(18_000, 18_000);
        p.run_to(20_000);
        assert_eq!(p.pings, vec![6_002, 12_002, 18_002]);
    }

    #[test]
    fn a_packet_heard_after_a_second_of_silence_brings_the_ping_forward() {
        // readTimeout 4000: the ping is due when readTimeout / 2 - idleSend - 1000 <= 0, that
        // is after 1000 ms of not sending, but the thread sleeps until 2000 unless woken.
        let mut p = Pinged::new(6_000, 6_000);
        p.watch_at(2_002 + 800); // idleSend 800: not yet, sleep on until 2000 ms idle
        p.watch_at(4_002 + 1_200); // idleSend 1200 > 1000: ping at once
        p.run_to(8_000);
        assert_eq!(p.pings, vec![2_002, 4_002, 5_202, 7_202]);
        // readTimeout 12000: woken at idleSend 2000, the next ping is due at 6000 - 1000.
        let mut p = Pinged::new(18_000, 18_000);
        p.watch_at(6_002 + 2_000);
        p.run_to(13_000);
        assert_eq!(p.pings, vec![6_002, 6_002 + 5_000]);
    }

    #[test]
    fn a_client_that_has_sent_nothing_for_ten_seconds_pings_when_woken() {
        // 60 s: readTimeout 40000, so the thread sleeps 20000 ms between pings; a packet
        // after more than MAX_SEND_PING_INTERVAL (10 s) of silence makes it ping at once.
        let mut p = Pinged::new(60_000, 60_000);
        p.watch_at(2 + 9_000); // idleSend 9000: next ping at 20000 - 1000 ms idle
        p.run_to(19_500);
        assert_eq!(p.pings, vec![2 + 19_000]);
        p.watch_at(2 + 19_000 + 10_001);
        p.run_to(2 + 19_000 + 10_001);
        assert_eq!(p.pings, vec![2 + 19_000, 2 + 19_000 + 10_001]);
    }

    #[test]
    fn the_client_uses_the_timeout_the_server_granted() {
        // It asks for 4000 ms; the server grants 6000 (2 ticks): readTimeout is 4000, not
        // 2666, so with no answer to its pings it gives up 4000 ms after the last word.
        let mut p = Pinged::new(4_000, 6_000);
        assert_eq!(
            p.c.read_timeout_ms, 2_666,
            "before the answer: the requested timeout"
        );
        p.run_to(3);
        assert_eq!(p.c.negotiated_timeout_ms, Some(6_000));
        assert_eq!(p.c.read_timeout_ms, 4_000);
        let mut last_heard = p.c.last_heard_ms;
        for t in 3..10_000 {
            // Silence the server: drop every pong.
            p.queue.retain(|_, i| !matches!(i, Err(Body::Pong { .. })));
            p.run_to(t);
            if p.disconnected_at.is_some() {
                break;
            }
            last_heard = p.c.last_heard_ms;
        }
        assert_eq!(p.disconnected_at, Some(last_heard + 4_000));
        assert_eq!(p.pings, vec![2_002], "one ping, then silence");
    }
}
