//! A broker's ZooKeeper client's causes: the connection given up, resumed, or found expired
//! (`org.apache.zookeeper.ClientCnxn`, ZooKeeper 3.4 to 3.8).

use crate::text::{causes as m, English, Words};

/// Why a broker's ZooKeeper client did what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZkClientCause {
    /// Nothing heard for `readTimeout`, 2/3 of the negotiated session timeout
    /// (`ClientCnxn.SendThread.run`).
    ReadTimeout {
        /// The client's read timeout.
        read_timeout_ms: u64,
    },
    /// The connection lost packets while a link was cut; healed, it is reset.
    ConnectionLostOnCut,
    /// Reconnected within the session timeout: the session lives on.
    SessionNotExpiredYet,
    /// The server answered the reconnect with SESSION_EXPIRED.
    ServerSaysExpired,
}

impl ZkClientCause {
    /// The English sentence.
    pub fn english(&self) -> String {
        self.render(&English)
    }

    /// The sentence in `tr`'s language.
    pub fn render(&self, tr: &dyn Words) -> String {
        match self {
            ZkClientCause::ReadTimeout { read_timeout_ms } => tr.f(
                m::CAUSE_ZKC_READ_TIMEOUT,
                &[("read_timeout_ms", read_timeout_ms)],
            ),
            ZkClientCause::ConnectionLostOnCut => tr.t(m::CAUSE_ZKC_CONNECTION_LOST_ON_CUT),
            ZkClientCause::SessionNotExpiredYet => tr.t(m::CAUSE_ZKC_SESSION_NOT_EXPIRED_YET),
            ZkClientCause::ServerSaysExpired => tr.t(m::CAUSE_ZKC_SERVER_SAYS_EXPIRED),
        }
    }
}
