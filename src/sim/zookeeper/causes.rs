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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_zookeeper_cause_renders_its_sentence() {
        let cases = [
            (
                ZkCause::SessionCreated,
                "a new ZooKeeper client connects and gets a new session",
            ),
            (
                ZkCause::SessionCreatedBounded {
                    requested_ms: 90_000,
                    min_ms: 6_000,
                    max_ms: 60_000,
                    tick_ms: 3_000,
                },
                "a new ZooKeeper client connects and gets a new session; it asked for 90000 ms, but the server grants only timeouts from minSessionTimeout (6000 ms) to maxSessionTimeout (60000 ms), 2 and 20 ticks of tickTime (3000 ms)",
            ),
            (
                ZkCause::SessionClosed,
                "clean shutdown closes the ZooKeeper session at once",
            ),
            (
                ZkCause::SessionTimedOut {
                    timeout_ms: 18_000,
                    tick_ms: 3_000,
                    after_last_contact_ms: 18_204,
                },
                "no heartbeat for zookeeper.session.timeout.ms (18000 ms); the session tracker expires sessions on its tickTime (3000 ms) boundaries, here the first after the last contact + the timeout (18204 ms after it)",
            ),
            (
                ZkCause::ExpiredOnRequest,
                "ZooKeeper expired the session on request (expire_session)",
            ),
        ];
        let zh = crate::i18n::testing::zh();
        for (cause, text) in cases {
            assert_eq!(cause.english(), text, "{cause:?}");
            crate::i18n::testing::assert_chinese(&cause.render(&zh), &cause.english());
        }
    }
}
