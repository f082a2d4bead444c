//! The ZooKeeper server's causes: sessions opened, closed and expired
//! (`ZooKeeperServer.processConnectRequest`, `SessionTrackerImpl` / `ExpiryQueue`).

use crate::text::{causes as m, English, Words};

/// Why the ZooKeeper server did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZkCause {
    /// A new session with the timeout the client asked for.
    SessionCreated,
    /// A new session whose requested timeout the server bounded to [2, 20] × `tickTime`
    /// (`ZooKeeperServer.processConnectRequest`, `getMinSessionTimeout` /
    /// `getMaxSessionTimeout`).
    SessionCreatedBounded {
        /// The timeout the client asked for.
        requested_ms: u64,
        /// `minSessionTimeout`.
        min_ms: u64,
        /// `maxSessionTimeout`.
        max_ms: u64,
        /// `tickTime`.
        tick_ms: u64,
    },
    /// The owner closed its session (a clean shutdown).
    SessionClosed,
    /// No heartbeat for the session timeout; the tracker expires on `tickTime` boundaries
    /// (`SessionTrackerImpl.roundToInterval` in 3.4, `ExpiryQueue.roundToNextInterval` from 3.5).
    SessionTimedOut {
        /// The negotiated session timeout.
        timeout_ms: u64,
        /// `tickTime`.
        tick_ms: u64,
        /// How long after the last contact it expired.
        after_last_contact_ms: u64,
    },
    /// The `expire_session` action.
    ExpiredOnRequest,
}

impl ZkCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            ZkCause::SessionCreated => tr.t(m::CAUSE_ZK_SESSION_CREATED),
            ZkCause::SessionCreatedBounded {
                requested_ms,
                min_ms,
                max_ms,
                tick_ms,
            } => tr.f(
                m::CAUSE_ZK_SESSION_CREATED_BOUNDED,
                &[
                    ("requested_ms", requested_ms),
                    ("min_ms", min_ms),
                    ("max_ms", max_ms),
                    ("tick_ms", tick_ms),
                ],
            ),
            ZkCause::SessionClosed => tr.t(m::CAUSE_ZK_SESSION_CLOSED),
            ZkCause::SessionTimedOut {
                timeout_ms,
                tick_ms,
                after_last_contact_ms,
            } => tr.f(
                m::CAUSE_ZK_SESSION_TIMED_OUT,
                &[
                    ("timeout_ms", timeout_ms),
                    ("tick_ms", tick_ms),
                    ("after_last_contact_ms", after_last_contact_ms),
                ],
            ),
            ZkCause::ExpiredOnRequest => tr.t(m::CAUSE_ZK_EXPIRED_ON_REQUEST),
        }
    }
}
