//! Unit tests of the broker: registration, and helpers other roles' tests use.

use super::*;
use crate::sim::config::Profile;
use crate::sim::message::{Body, OpResult, SessionId, ZkError};
use crate::sim::state::ZkConnection;

/// A running broker whose client is connected to session 7.
pub(crate) fn connected_broker(id: BrokerId) -> Broker {
    let mut b = Broker::new(id);
    b.status = BrokerStatus::Running;
    b.zk.state = ZkConnection::Connected;
    b.zk.session = Some(7);
    b.zk.read_timeout_ms = 4_000;
    b
}

/// Answers the request `xid` (which must be pending) and returns what the broker did.
pub(crate) fn answer(b: &mut Broker, xid: u64, result: Result<OpResult, ZkError>) -> Out {
    answer_in(Profile::V3_9, b, xid, result)
}

/// [`answer`] under the rules of `profile`.
pub(crate) fn answer_in(
    profile: Profile,
    b: &mut Broker,
    xid: u64,
    result: Result<OpResult, ZkError>,
) -> Out {
    assert!(b.zk.pending.contains_key(&xid), "{xid} pending");
    let mut out = Out::default();
    let settings = Settings::for_profile(profile);
    b.handle(
        10,
        Endpoint::Zk,
        Body::Response {
            session: 7,
            xid,
            zxid: 50,
            result,
        },
        &settings,
        &mut out,
    );
    out
}

/// The requests the broker sent: (xid, op).
pub(crate) fn requests(out: &Out) -> Vec<(u64, ZkOp)> {
    out.sends
        .iter()
        .filter_map(|(_, _, b)| match b {
            Body::Request { xid, op, .. } => Some((*xid, op.clone())),
            _ => None,
        })
        .collect()
}

pub(crate) fn node(data: &str, czxid: i64, version: i32, owner: Option<SessionId>) -> OpResult {
    OpResult::Node(Some(crate::sim::message::NodeData {
        data: data.into(),
        stat: crate::sim::message::Stat {
            czxid,
            mzxid: czxid,
            version,
            ephemeral_owner: owner,
        },
    }))
}

fn registering(b: &mut Broker) -> u64 {
    let mut out = Out::default();
    b.register(0, &mut out);
    requests(&out)[0].0
}

#[test]
fn a_registration_that_meets_its_own_znode_succeeds() {
    let mut b = connected_broker(1);
    let xid = registering(&mut b);
    let out = answer(&mut b, xid, Err(ZkError::NodeExists));
    let reqs = requests(&out);
    assert_eq!(
        reqs,
        vec![(
            xid + 1,
            ZkOp::Exists {
                path: "/brokers/ids/1".into(),
                watch: false
            }
        )],
        "NODEEXISTS: read the znode's owner"
    );
    assert!(out.events.is_empty());
    // Owned by session 7, this client's: the lost reply's create. Registered, then elect().
    let out = answer(&mut b, xid + 1, Ok(node("{}", 12, 0, Some(7))));
    assert_eq!(
        out.events[0].0,
        EventKind::BrokerRegistered {
            broker: 1,
            broker_epoch: 12
        }
    );
    assert_eq!(out.events[0].1, BrokerCause::RegisteredOwnSession.into());
    assert!(b.registered);
    assert_eq!(b.broker_epoch, Some(12));
    assert!(
        matches!(&requests(&out)[0].1, ZkOp::Exists { path, watch: true } if path == "/controller")
    );
}

#[test]
fn a_registration_that_meets_another_sessions_znode_fails_and_a_vanished_one_is_created_again() {
    let mut b = connected_broker(1);
    let xid = registering(&mut b);
    answer(&mut b, xid, Err(ZkError::NodeExists));
    let out = answer(&mut b, xid + 1, Ok(node("{}", 12, 0, Some(6))));
    assert_eq!(out.events[0].0, EventKind::BrokerStartFailed { broker: 1 });
    assert_eq!(b.status, BrokerStatus::Stopped);
    assert!(!b.registered);

    let mut b = connected_broker(1);
    let xid = registering(&mut b);
    answer(&mut b, xid, Err(ZkError::NodeExists));
    let out = answer(&mut b, xid + 1, Ok(OpResult::Node(None)));
    assert!(out.events.is_empty());
    assert!(matches!(
        &requests(&out)[0].1,
        ZkOp::Create { path, ephemeral: true, .. } if path == "/brokers/ids/1"
    ));
}
