//! Unit tests of the `/controller` race, of resigning, and of the failover's first read.

use super::causes::ControllerCause;
use super::pending::ControllerPending;
use super::pending::ElectionPending;
use super::queue::{Reason, Task};
use super::testing::Fixture;
use super::ControllerRole;
use crate::sim::broker::tests::{answer, answer_in, connected_broker, node, requests};
use crate::sim::broker::{Broker, Pending};
use crate::sim::cause::Cause;
use crate::sim::config::{Profile, Settings};
use crate::sim::event::EventKind;
use crate::sim::message::{Body, OpResult, Out, Timer, WatchChange, ZkError, ZkOp};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

/// Broker 1 sent the election multi-op for `epoch` (xid returned).
fn electing(b: &mut Broker, epoch: u64) -> u64 {
    let mut out = Out::default();
    b.zk_request(
        0,
        ZkOp::Multi(Vec::new()),
        Pending::Election(ElectionPending::ElectMulti { epoch }),
        &mut out,
    );
    requests(&out)[0].0
}

#[test]
fn a_failed_multi_whose_writes_are_its_own_is_a_won_election() {
    let mut b = connected_broker(1);
    let xid = electing(&mut b, 3);
    let out = answer(&mut b, xid, Err(ZkError::NodeExists));
    assert_eq!(
        requests(&out),
        vec![(
            xid + 1,
            ZkOp::Batch(vec![
                ZkOp::Exists {
                    path: "/controller".into(),
                    watch: true
                },
                ZkOp::Exists {
                    path: "/controller_epoch".into(),
                    watch: false
                },
            ])
        )],
        "checkControllerAndEpoch reads both znodes"
    );
    let out = answer(
        &mut b,
        xid + 1,
        Ok(OpResult::Batch(vec![
            Ok(node(r#"{"version":1,"brokerid":1}"#, 40, 0, Some(7))),
            Ok(node("3", 2, 2, None)),
        ])),
    );
    assert_eq!(
        out.events[0].0,
        EventKind::ControllerElected {
            broker: 1,
            epoch: 3
        }
    );
    assert_eq!(out.events[0].1, ControllerCause::ElectedOwnMulti.into());
    let role = b.controller.as_ref().expect("acts as controller");
    assert_eq!((role.epoch, role.epoch_zk_version), (3, 2));
    assert_eq!(b.active_controller, Some(1));
}

#[test]
fn a_second_attempt_that_finds_the_first_one_won_changes_nothing() {
    // Two election attempts in flight: the first wins, the second fails and its check finds
    // the first one's writes. The broker is controller once, with one event.
    let mut b = connected_broker(1);
    let first = electing(&mut b, 3);
    let second = electing(&mut b, 3);
    let out = answer(
        &mut b,
        first,
        Ok(OpResult::Multi(vec![
            OpResult::Created(stat(40, 0, Some(7))),
            OpResult::Set(stat(2, 2, None)),
        ])),
    );
    assert_eq!(out.events.len(), 1, "{:?}", out.events);
    b.controller.as_mut().unwrap().next_correlation = 42;
    answer(&mut b, second, Err(ZkError::NodeExists));
    let check = second + 2; // after the failover's read of /brokers/ids
    let out = answer(
        &mut b,
        check,
        Ok(OpResult::Batch(vec![
            Ok(node(r#"{"version":1,"brokerid":1}"#, 40, 0, Some(7))),
            Ok(node("3", 2, 2, None)),
        ])),
    );
    assert!(out.events.is_empty(), "{:?}", out.events);
    assert_eq!(
        b.controller.as_ref().unwrap().next_correlation,
        42,
        "the role was kept"
    );
}

#[test]
fn a_failed_multi_that_another_broker_beat_is_a_lost_race() {
    // /controller names me but the epoch is not the one I wrote, or /controller names
    // another broker: ControllerMovedException, follow the winner.
    for (controller, epoch) in [(1, "4"), (2, "3")] {
        let mut b = connected_broker(1);
        let xid = electing(&mut b, 3);
        answer(&mut b, xid, Err(ZkError::BadVersion));
        let out = answer(
            &mut b,
            xid + 1,
            Ok(OpResult::Batch(vec![
                Ok(node(
                    &format!(r#"{{"version":1,"brokerid":{controller}}}"#),
                    40,
                    0,
                    Some(8),
                )),
                Ok(node(epoch, 2, 3, None)),
            ])),
        );
        assert_eq!(
            out.events[0].0,
            EventKind::ControllerRaceLost {
                broker: 1,
                error: "BADVERSION".into(),
                controller: Some(controller)
            }
        );
        assert!(b.controller.is_none());
    }
}

fn stat(czxid: i64, version: i32, owner: Option<u64>) -> crate::sim::message::Stat {
    crate::sim::message::Stat {
        czxid,
        mzxid: czxid,
        version,
        ephemeral_owner: owner,
    }
}

fn created(czxid: i64, owner: Option<u64>) -> OpResult {
    OpResult::Created(stat(czxid, 0, owner))
}

/// The one request in `out`.
fn only_request(out: &Out) -> (u64, ZkOp) {
    let r = requests(out);
    assert_eq!(r.len(), 1, "{r:?}");
    r[0].clone()
}

#[test]
fn before_2_1_the_first_controller_creates_controller_then_the_epoch_with_1() {
    let p = Profile::V2_0;
    let mut b = connected_broker(1);
    let mut out = Out::default();
    b.elect(0, &mut out);
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
    let (xid, op) = only_request(&out);
    assert!(
        matches!(&op, ZkOp::Create { path, ephemeral: true, .. } if path == "/controller"),
        "first step: the ephemeral /controller alone: {op:?}"
    );
    let out = answer_in(p, &mut b, xid, Ok(created(9, Some(7))));
    assert_eq!(
        out.events[0].0,
        EventKind::ControllerZnodeCreated { broker: 1 }
    );
    assert!(
        b.controller.is_none(),
        "not acting before the epoch is written"
    );
    let (xid, op) = only_request(&out);
    assert_eq!(
        op,
        ZkOp::Exists {
            path: "/controller_epoch".into(),
            watch: false
        }
    );
    let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
    let (xid, op) = only_request(&out);
    assert_eq!(
        op,
        ZkOp::SetData {
            path: "/controller_epoch".into(),
            data: "1".into(),
            version: Some(0)
        },
        "the context's initial epoch 0 + 1, on version 0"
    );
    let out = answer_in(p, &mut b, xid, Err(ZkError::NoNode));
    let (xid, op) = only_request(&out);
    assert_eq!(
        op,
        ZkOp::Create {
            path: "/controller_epoch".into(),
            data: "1".into(),
            ephemeral: false
        },
        "InitialControllerEpoch is 1 before 2.1"
    );
    let out = answer_in(p, &mut b, xid, Ok(created(10, None)));
    assert_eq!(
        out.events[0].0,
        EventKind::ControllerElected {
            broker: 1,
            epoch: 1
        }
    );
    assert_eq!(b.controller.as_ref().map(|c| c.epoch), Some(1));
}

#[test]
fn before_2_1_a_later_controller_increments_the_epoch_it_read() {
    let p = Profile::V0_10;
    let mut b = connected_broker(1);
    let mut out = Out::default();
    b.elect(0, &mut out);
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
    let (xid, _) = only_request(&out);
    // The create met NODEEXISTS: its own session's znode (a lost reply) is its own.
    let out = answer_in(p, &mut b, xid, Err(ZkError::NodeExists));
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(node(r#"{"brokerid":1}"#, 9, 0, Some(7))));
    assert_eq!(
        out.events[0].0,
        EventKind::ControllerZnodeCreated { broker: 1 }
    );
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(node("4", 3, 3, None)));
    let (xid, op) = only_request(&out);
    assert_eq!(
        op,
        ZkOp::SetData {
            path: "/controller_epoch".into(),
            data: "5".into(),
            version: Some(3)
        }
    );
    let out = answer_in(p, &mut b, xid, Ok(OpResult::Set(stat(3, 4, None))));
    assert_eq!(
        out.events[0].0,
        EventKind::ControllerElected {
            broker: 1,
            epoch: 5
        }
    );
    let role = b.controller.as_ref().unwrap();
    assert_eq!((role.epoch, role.epoch_zk_version), (5, 4));
}

#[test]
fn before_2_1_a_failed_epoch_step_gives_controller_up() {
    let p = Profile::V2_0;
    let mut b = connected_broker(1);
    let mut out = Out::default();
    b.elect(0, &mut out);
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(created(9, Some(7))));
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(node("4", 3, 3, None)));
    let (xid, _) = only_request(&out);
    // Another controller moved the epoch: ControllerMovedException, triggerControllerMove.
    let out = answer_in(p, &mut b, xid, Err(ZkError::BadVersion));
    assert_eq!(
        out.events[0].0,
        EventKind::ControllerRaceLost {
            broker: 1,
            error: "BADVERSION".into(),
            controller: None
        }
    );
    assert_eq!(
        only_request(&out).1,
        ZkOp::Delete {
            path: "/controller".into()
        }
    );
    assert!(b.controller.is_none());
    assert_eq!(b.active_controller, None);
    // And a create that meets another session's /controller is a lost race.
    let mut b = connected_broker(1);
    let mut out = Out::default();
    b.elect(0, &mut out);
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(OpResult::Node(None)));
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Err(ZkError::NodeExists));
    let (xid, _) = only_request(&out);
    let out = answer_in(p, &mut b, xid, Ok(node(r#"{"brokerid":2}"#, 9, 0, Some(8))));
    assert_eq!(
        out.events[0].0,
        EventKind::ControllerRaceLost {
            broker: 1,
            error: "NODEEXISTS".into(),
            controller: Some(2)
        }
    );
    assert_eq!(b.active_controller, Some(2));
}

/// Broker 1 acting as controller with epoch 1.
fn controller() -> Broker {
    let mut b = connected_broker(1);
    b.become_controller(
        0,
        (1, 1),
        Profile::V2_0,
        ControllerCause::ElectedEpochCreated,
        &mut Out::default(),
    );
    b.zk.pending.clear();
    b
}

#[test]
fn a_controller_in_the_middle_of_an_event_handles_the_deletion_after_it() {
    let settings = Settings::for_profile(Profile::V2_0);
    let mut b = controller();
    let tp = TopicPartition::new("T", 0);
    let mut out = Out::default();
    b.with_controller(0, &settings, &mut out, |c| {
        c.push_task(Task::Elect {
            reason: Reason::Preferred { automatic: false },
            partitions: Some(vec![tp]),
        })
    });
    let (read, _) = only_request(&out);
    let mut out = Out::default();
    b.on_watch(1, "/controller", WatchChange::Deleted, &settings, &mut out);
    assert!(
        !out.events
            .iter()
            .any(|(k, _)| matches!(k, EventKind::ControllerResigned { .. })),
        "it does not resign yet"
    );
    assert!(requests(&out).is_empty(), "nor elect");
    assert_eq!(
        b.controller.as_ref().unwrap().partitions.tasks,
        vec![Task::Reelect]
    );
    // The event in progress ends (its read finds nothing to change): then Reelect.
    let out = answer_in(
        Profile::V2_0,
        &mut b,
        read,
        Ok(OpResult::Batch(vec![Ok(OpResult::Node(None))])),
    );
    assert!(b.controller.is_none());
    assert!(matches!(
        &out.events[0],
        (
            EventKind::ControllerResigned {
                broker: 1,
                epoch: 1
            },
            Cause::Controller(ControllerCause::ReelectAfterEvent)
        )
    ));
    assert!(matches!(
        &only_request(&out).1,
        ZkOp::Exists { path, watch: true } if path == "/controller"
    ));
}

#[test]
fn an_idle_controller_handles_the_deletion_at_once() {
    let settings = Settings::for_profile(Profile::V2_0);
    let mut b = controller();
    let mut out = Out::default();
    b.on_watch(1, "/controller", WatchChange::Deleted, &settings, &mut out);
    assert!(b.controller.is_none());
    assert!(out.events.iter().any(|(k, _)| *k
        == EventKind::ControllerResigned {
            broker: 1,
            epoch: 1
        }));
    assert!(matches!(
        &only_request(&out).1,
        ZkOp::Exists { path, watch: true } if path == "/controller"
    ));
}

#[test]
fn the_race_won_by_the_multi_op_makes_the_broker_controller_and_reads_the_live_brokers() {
    // One input: the answer to its multi-op (create /controller, /controller_epoch 2 -> 3 at
    // version 3). The failover's first read, of /brokers/ids with a watch, is the role's.
    let mut b = connected_broker(1);
    let xid = electing(&mut b, 3);
    let out = answer(
        &mut b,
        xid,
        Ok(OpResult::Multi(vec![
            created(40, Some(7)),
            OpResult::Set(stat(2, 3, None)),
        ])),
    );
    assert_eq!(
        out.events,
        vec![(
            EventKind::ControllerElected {
                broker: 1,
                epoch: 3
            },
            ControllerCause::ElectedMulti.into()
        )]
    );
    assert_eq!(
        out.sends,
        vec![(
            Endpoint::Broker(1),
            Endpoint::Zk,
            Body::Request {
                session: 7,
                xid: xid + 1,
                op: ZkOp::GetChildren {
                    path: "/brokers/ids".into(),
                    watch: true
                }
            }
        )]
    );
    // The ZooKeeper client's send thread sleeps until its next ping is due, readTimeout / 2
    // after the request it just sent.
    assert_eq!(
        out.timers,
        vec![(2_010, Endpoint::Broker(1), Timer::ZkTick(2))]
    );
    assert_eq!(
        b.zk.pending.get(&(xid + 1)).map(|(_, p)| p),
        Some(&Pending::Controller(ControllerPending::LoadBrokers {
            epoch: 3
        }))
    );
    assert_eq!(
        b.controller,
        Some(ControllerRole {
            epoch: 3,
            epoch_zk_version: 3,
            profile: Profile::V3_9,
            live: Default::default(),
            next_correlation: 1,
            partitions: Default::default(),
            expired: false,
        })
    );
    assert_eq!(b.active_controller, Some(1));
}

#[test]
fn the_race_lost_to_another_broker_follows_the_winner() {
    // The multi-op met NODEEXISTS; the one input is the answer to checkControllerAndEpoch:
    // /controller names broker 2. No request, no resignation (it never was controller).
    let mut b = connected_broker(1);
    let xid = electing(&mut b, 3);
    answer(&mut b, xid, Err(ZkError::NodeExists));
    let out = answer(
        &mut b,
        xid + 1,
        Ok(OpResult::Batch(vec![
            Ok(node(r#"{"version":1,"brokerid":2}"#, 40, 0, Some(8))),
            Ok(node("3", 2, 3, None)),
        ])),
    );
    assert_eq!(
        out.events,
        vec![(
            EventKind::ControllerRaceLost {
                broker: 1,
                error: "NODEEXISTS".into(),
                controller: Some(2)
            },
            ControllerCause::RaceLostZnodeExists.into()
        )]
    );
    assert_eq!(out.sends, vec![]);
    assert_eq!(out.timers, vec![]);
    assert_eq!(b.controller, None);
    assert_eq!(b.active_controller, Some(2));
}

#[test]
fn the_failovers_read_of_the_live_brokers_queues_the_topics_load() {
    // The role's first input: /brokers/ids with the broker epochs. Failover goes on with the
    // topics, the ISR change notifications and the reassignments in progress (one batch).
    let mut f = Fixture::new(Profile::V3_9, &[]);
    f.role.partitions.loaded = false;
    let h = f.input(100, |c| {
        c.on_zk_response(
            ControllerPending::LoadBrokers { epoch: 1 },
            Ok(OpResult::Children(vec![("1".into(), 10), ("2".into(), 11)])),
        )
    });
    assert_eq!(
        h.zk,
        vec![(
            ZkOp::Batch(vec![
                ZkOp::GetChildren {
                    path: "/brokers/topics".into(),
                    watch: true
                },
                ZkOp::GetChildren {
                    path: "/isr_change_notification".into(),
                    watch: true
                },
                ZkOp::Exists {
                    path: "/admin/reassign_partitions".into(),
                    watch: false
                },
            ]),
            ControllerPending::Step { epoch: 1, step: 1 }
        )]
    );
    assert_eq!(
        (h.out.sends.len(), h.out.timers.len(), h.out.events.len()),
        (0, 0, 0)
    );
    assert_eq!(f.role.live, [(1, 10), (2, 11)].into_iter().collect());
    // An answer meant for an earlier term of this broker's role is void.
    let h = f.input(100, |c| {
        c.on_zk_response(
            ControllerPending::LoadBrokers { epoch: 0 },
            Ok(OpResult::Children(vec![])),
        )
    });
    assert_eq!(h.zk, vec![]);
    assert_eq!(f.role.live, [(1, 10), (2, 11)].into_iter().collect());
}
