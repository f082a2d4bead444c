//! Unit tests of the ZooKeeper server model.
#![allow(unused_must_use)] // setup requests whose results the test does not need

use super::causes::ZkCause;
use super::*;
use crate::sim::cause::Cause;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, OpResult, Timer, WatchChange, ZkError};
use crate::sim::net::Endpoint;

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
    ) && matches!(
        c,
        Cause::ZooKeeper(ZkCause::SessionTimedOut {
            timeout_ms: 6_000,
            ..
        })
    )));
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
        let expected = if clamped {
            ZkCause::SessionCreatedBounded {
                requested_ms: requested,
                min_ms: 6_000,
                max_ms: 60_000,
                tick_ms: 3_000,
            }
        } else {
            ZkCause::SessionCreated
        };
        assert_eq!(*cause, Cause::from(expected));
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

#[test]
fn opening_and_closing_a_session_are_transactions_and_a_close_deletes_its_znodes_at_one_zxid() {
    // ZooKeeper 3.8 (PrepRequestProcessor: createSession and closeSession take the next zxid;
    // DataTree.killSession deletes the session's ephemeral znodes at the close's zxid).
    let mut zk = ZooKeeper::new();
    let before = zk.zxid();
    let s1 = connect(&mut zk, 1, 0);
    assert_eq!(zk.zxid(), before + 1, "createSession is a transaction");
    request(&mut zk, 1, s1, create_ephemeral("/controller"));
    request(&mut zk, 1, s1, create_ephemeral("/brokers/ids/1"));
    let s2 = connect(&mut zk, 2, 0);
    let after_creates = zk.zxid();
    let mut out = Out::default();
    zk.handle(0, 1, Body::Close { session: s1 }, &mut out);
    assert_eq!(zk.zxid(), after_creates + 1, "one closeSession transaction");
    assert!(zk.node("/controller").is_none() && zk.node("/brokers/ids/1").is_none());
    assert_eq!(
        zk.node("/brokers/ids").unwrap().pzxid,
        after_creates + 1,
        "the parent's children changed at the close's zxid"
    );
    // A session that owns nothing still closes in a transaction of its own.
    zk.handle(0, 2, Body::Close { session: s2 }, &mut out);
    assert_eq!(zk.zxid(), after_creates + 2);
}

#[test]
fn a_failed_write_or_multi_still_takes_a_zxid() {
    // ZooKeeper 3.8: PrepRequestProcessor gives a write its zxid before checking it, and a
    // failed check logs an error txn at that zxid; a read takes none.
    let mut zk = ZooKeeper::new();
    let s = connect(&mut zk, 1, 0);
    request(&mut zk, 1, s, persistent("/controller_epoch", "0"));
    let z = zk.zxid();
    let (r, _) = request(&mut zk, 1, s, persistent("/controller_epoch", "0"));
    assert_eq!(r, Err(ZkError::NodeExists));
    assert_eq!(zk.zxid(), z + 1, "a failed create");
    let bad_set = ZkOp::SetData {
        path: "/controller_epoch".into(),
        data: "1".into(),
        version: Some(5),
    };
    let (r, _) = request(&mut zk, 1, s, bad_set.clone());
    assert_eq!(r, Err(ZkError::BadVersion));
    assert_eq!(zk.zxid(), z + 2, "a failed setData");
    let (r, _) = request(
        &mut zk,
        1,
        s,
        ZkOp::Multi(vec![create_ephemeral("/controller"), bad_set]),
    );
    assert_eq!(r, Err(ZkError::BadVersion));
    assert_eq!(
        zk.zxid(),
        z + 3,
        "a failed multi, whose create is rolled back"
    );
    assert!(zk.node("/controller").is_none());
    request(
        &mut zk,
        1,
        s,
        ZkOp::Exists {
            path: "/controller".into(),
            watch: false,
        },
    );
    assert_eq!(zk.zxid(), z + 3, "a read is no transaction");
}

#[test]
fn a_deleted_znodes_child_watches_fire_node_deleted_once_per_session() {
    // ZooKeeper 3.8 DataTree.deleteNode: data and child watches on the znode fire NodeDeleted,
    // a session holding both is told once (WatchManager.triggerWatch's suppression); the
    // parent's child watches fire NodeChildrenChanged.
    let mut zk = ZooKeeper::new();
    let s1 = connect(&mut zk, 1, 0);
    let s2 = connect(&mut zk, 2, 0);
    request(&mut zk, 1, s1, persistent("/x", ""));
    for op in [
        ZkOp::Exists {
            path: "/x".into(),
            watch: true,
        },
        ZkOp::GetChildren {
            path: "/x".into(),
            watch: true,
        },
        ZkOp::GetChildren {
            path: "/".into(),
            watch: true,
        },
    ] {
        request(&mut zk, 2, s2, op);
    }
    let (_, out) = request(&mut zk, 1, s1, ZkOp::Delete { path: "/x".into() });
    let told: Vec<(String, WatchChange)> = out
        .sends
        .iter()
        .filter_map(|(_, to, b)| match b {
            Body::Watch { path, change, .. } if *to == Endpoint::Broker(2) => {
                Some((path.clone(), *change))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        told,
        vec![
            ("/x".to_string(), WatchChange::Deleted),
            ("/".to_string(), WatchChange::ChildrenChanged)
        ]
    );
    // Both watches on /x are spent: a new /x tells nobody about /x.
    let (_, out) = request(&mut zk, 1, s1, persistent("/x", ""));
    assert!(out.sends.is_empty(), "{:?}", out.sends);
}

#[test]
fn set_watches_fires_what_changed_since_the_clients_zxid_and_re_arms_the_rest() {
    // ZooKeeper 3.8 DataTree.setWatches: a data watch fires NodeDeleted if the znode is gone
    // and NodeDataChanged if its mzxid is newer, even when it was deleted and created again
    // meanwhile; an exist watch fires NodeCreated if the znode is there; a child watch fires
    // NodeChildrenChanged if the pzxid is newer; the others are armed again.
    let mut zk = ZooKeeper::new();
    let s1 = connect(&mut zk, 1, 0);
    let s2 = connect(&mut zk, 2, 0);
    for path in ["/changed", "/recreated", "/same", "/deleted"] {
        request(&mut zk, 1, s1, persistent(path, ""));
    }
    let last = zk.zxid();
    request(
        &mut zk,
        1,
        s1,
        ZkOp::SetData {
            path: "/changed".into(),
            data: "1".into(),
            version: None,
        },
    );
    request(
        &mut zk,
        1,
        s1,
        ZkOp::Delete {
            path: "/recreated".into(),
        },
    );
    request(&mut zk, 1, s1, persistent("/recreated", ""));
    request(
        &mut zk,
        1,
        s1,
        ZkOp::Delete {
            path: "/deleted".into(),
        },
    );
    request(&mut zk, 1, s1, persistent("/born", ""));
    let mut out = Out::default();
    let data = [
        ("/changed", true),
        ("/recreated", true),
        ("/same", true),
        ("/deleted", true),
        ("/born", false),
        ("/unborn", false),
    ];
    zk.handle(
        0,
        2,
        Body::SetWatches {
            session: s2,
            last_zxid: last,
            data: data.iter().map(|(p, e)| (p.to_string(), *e)).collect(),
            children: vec!["/".into(), "/brokers".into()],
        },
        &mut out,
    );
    let told: Vec<(String, WatchChange)> = out
        .sends
        .iter()
        .filter_map(|(_, _, b)| match b {
            Body::Watch { path, change, .. } => Some((path.clone(), *change)),
            _ => None,
        })
        .collect();
    assert_eq!(
        told,
        vec![
            ("/changed".to_string(), WatchChange::DataChanged),
            ("/recreated".to_string(), WatchChange::DataChanged),
            ("/deleted".to_string(), WatchChange::Deleted),
            ("/born".to_string(), WatchChange::Created),
            ("/".to_string(), WatchChange::ChildrenChanged),
        ]
    );
    // /unborn and /brokers' children are watched again (/'s child watch is spent).
    let (_, out) = request(&mut zk, 1, s1, persistent("/unborn", ""));
    assert!(
        matches!(&out.sends[..], [(_, _, Body::Watch { path, change: WatchChange::Created, .. })] if path == "/unborn"),
        "{:?}",
        out.sends
    );
    let (_, out) = request(&mut zk, 1, s1, persistent("/brokers/x", ""));
    assert!(
        matches!(&out.sends[..], [(_, _, Body::Watch { path, change: WatchChange::ChildrenChanged, .. })] if path == "/brokers"),
        "{:?}",
        out.sends
    );
}

#[test]
fn a_znode_with_children_is_not_deleted_and_an_ephemeral_one_has_no_children() {
    // ZooKeeper 3.8 PrepRequestProcessor.pRequest2Txn: NOTEMPTY, NOCHILDRENFOREPHEMERALS,
    // also for what earlier ops of the same multi leave.
    let mut zk = ZooKeeper::new();
    let s = connect(&mut zk, 1, 0);
    request(&mut zk, 1, s, persistent("/admin", ""));
    request(&mut zk, 1, s, persistent("/admin/t", ""));
    let (r, _) = request(
        &mut zk,
        1,
        s,
        ZkOp::Delete {
            path: "/admin".into(),
        },
    );
    assert_eq!(r, Err(ZkError::NotEmpty));
    assert!(zk.node("/admin/t").is_some() && zk.node("/admin").is_some());
    // A multi that deletes the child first may delete the parent.
    let (r, _) = request(
        &mut zk,
        1,
        s,
        ZkOp::Multi(vec![
            ZkOp::Delete {
                path: "/admin/t".into(),
            },
            ZkOp::Delete {
                path: "/admin".into(),
            },
        ]),
    );
    assert!(r.is_ok(), "{r:?}");
    // One that creates a child first may not.
    let (r, _) = request(
        &mut zk,
        1,
        s,
        ZkOp::Multi(vec![
            persistent("/brokers/topics/t", ""),
            ZkOp::Delete {
                path: "/brokers/topics".into(),
            },
        ]),
    );
    assert_eq!(r, Err(ZkError::NotEmpty));
    request(&mut zk, 1, s, create_ephemeral("/controller"));
    let (r, _) = request(&mut zk, 1, s, persistent("/controller/x", ""));
    assert_eq!(r, Err(ZkError::NoChildrenForEphemerals));
    let (r, _) = request(
        &mut zk,
        1,
        s,
        ZkOp::Multi(vec![create_ephemeral("/e"), persistent("/e/x", "")]),
    );
    assert_eq!(r, Err(ZkError::NoChildrenForEphemerals));
    assert!(zk.node("/e").is_none());
}
