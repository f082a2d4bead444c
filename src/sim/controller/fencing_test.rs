//! Unit tests of the fencing of a controller that is no longer the one: each side in one input.
//!
//! Where each fence lives: a broker refuses a request from an older controller epoch in
//! `Broker::accept_controller_request` (broker.rs, `ReplicaManager`'s check); from 2.1 the
//! controller's ZooKeeper writes are multi-ops guarded by the zkVersion of `/controller_epoch`
//! it was elected with ([`crate::sim::znodes::fenced`], built in [`super::partition_states`] and
//! [`super::reassignment`]), and a failed guard resigns it (`Exit::Moved`, then
//! `Broker::resign_moved` in [`super::race`]).

use super::causes::ControllerCause;
use super::pending::ControllerPending;
use super::queue::{Phase, Reason, Running, Task};
use super::testing::{node, state, Fixture};
use super::Exit;
use crate::sim::broker::causes::BrokerCause;
use crate::sim::broker::tests::{answer, connected_broker, requests};
use crate::sim::broker::Pending;
use crate::sim::config::{Profile, Settings};
use crate::sim::event::EventKind;
use crate::sim::message::{Body, KafkaError, OpResult, Out, ZkError, ZkOp};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

#[test]
fn a_broker_refuses_a_leader_and_isr_from_an_older_controller_epoch() {
    let settings = Settings::for_profile(Profile::V3_9);
    let mut b = connected_broker(1);
    b.broker_epoch = Some(12);
    b.metadata_epoch = 5;
    b.metadata_controller = Some(3);
    let mut out = Out::default();
    b.handle(
        100,
        Endpoint::Broker(2),
        Body::LeaderAndIsr {
            controller: 2,
            controller_epoch: 4,
            broker_epoch: 12,
            partitions: Vec::new(),
            correlation_id: 9,
        },
        &settings,
        &mut out,
    );
    assert_eq!(
        out.events,
        vec![(
            EventKind::StaleRequestRejected {
                broker: 1,
                from: 2,
                request: "LeaderAndIsr".into(),
                epoch: 4,
                current: 5,
                error: "STALE_CONTROLLER_EPOCH".into()
            },
            BrokerCause::StaleControllerEpoch.into()
        )]
    );
    assert_eq!(
        out.sends,
        vec![(
            Endpoint::Broker(1),
            Endpoint::Broker(2),
            Body::LeaderAndIsrResponse {
                controller_epoch: 4,
                correlation_id: 9,
                error: Some(KafkaError::StaleControllerEpoch)
            }
        )]
    );
    assert_eq!(out.timers, vec![]);
    assert_eq!((b.metadata_epoch, b.metadata_controller), (5, Some(3)));
}

/// Broker 1, controller in epoch 1, waits for the answer to its write of T-0's new state.
fn writing(profile: Profile) -> (Fixture, Task) {
    let tp = TopicPartition::new("T", 0);
    let task = Task::Elect {
        reason: Reason::Offline,
        partitions: Some(vec![tp.clone()]),
    };
    let f = Fixture::new(profile, &[(1, 10), (3, 12)])
        .topic("T", &[&[2, 3, 1]])
        .state(&tp, (2, 4, &[2, 3, 1]), 7);
    (f, task)
}

#[test]
fn a_write_whose_epoch_guard_fails_ends_the_role_without_output() {
    // Another controller moved /controller_epoch on: the guard of the multi-op fails
    // (ControllerMovedException, KAFKA-6082). The role makes no output and asks to resign.
    let (f, task) = writing(Profile::V3_9);
    let mut f = f.running(
        task.clone(),
        Phase::ReadStates(vec![TopicPartition::new("T", 0)]),
        2,
    );
    let h = f.input(100, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 2 },
            Ok(OpResult::Batch(vec![Ok(node(
                &state(2, 4, &[2, 3, 1]).to_json(),
                7,
            ))])),
        )
    });
    let (write, _) = h.zk[0].clone();
    assert_eq!(
        write,
        ZkOp::Batch(vec![ZkOp::Multi(vec![
            ZkOp::Check {
                path: "/controller_epoch".into(),
                version: 5
            },
            ZkOp::SetData {
                path: "/brokers/topics/T/partitions/0/state".into(),
                data: state(3, 5, &[3, 1]).to_json(),
                version: Some(7)
            }
        ])]),
        "the write is guarded by /controller_epoch's zkVersion at the election"
    );
    let h = f.input(110, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 3 },
            Ok(OpResult::Batch(vec![Err(ZkError::CheckFailed)])),
        )
    });
    assert_eq!(
        h.exit,
        Some(Exit::Moved(ControllerCause::FencedWriteFailed))
    );
    assert_eq!(h.zk, vec![]);
    assert_eq!(
        (h.out.sends.len(), h.out.timers.len(), h.out.events.len()),
        (0, 0, 0)
    );
    assert_eq!(
        f.role.partitions.states[&TopicPartition::new("T", 0)].version,
        7,
        "nothing was written"
    );
}

#[test]
fn before_2_1_the_same_write_goes_in_unguarded() {
    // The 2.0 profile: a plain conditional setData on the state's version.
    let (f, task) = writing(Profile::V2_0);
    let mut f = f.running(
        task,
        Phase::ReadStates(vec![TopicPartition::new("T", 0)]),
        2,
    );
    let h = f.input(100, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 2 },
            Ok(OpResult::Batch(vec![Ok(node(
                &state(2, 4, &[2, 3, 1]).to_json(),
                7,
            ))])),
        )
    });
    assert_eq!(
        h.zk,
        vec![(
            ZkOp::Batch(vec![ZkOp::SetData {
                path: "/brokers/topics/T/partitions/0/state".into(),
                data: state(3, 5, &[3, 1]).to_json(),
                version: Some(7)
            }]),
            ControllerPending::Step { epoch: 1, step: 3 }
        )]
    );
}

#[test]
fn the_broker_resigns_a_role_whose_fenced_write_failed_and_watches_controller_again() {
    // The same input through the broker: the role ends (onControllerResignation) and the broker
    // reads /controller again, setting its watch (maybeResign).
    let (f, task) = writing(Profile::V3_9);
    let mut b = connected_broker(1);
    b.active_controller = Some(1);
    b.controller = Some(f.role);
    b.controller.as_mut().unwrap().partitions.running = Some(Running {
        task,
        phase: Phase::ReadStates(vec![TopicPartition::new("T", 0)]),
        step: 2,
        retries: 0,
    });
    let mut out = Out::default();
    let read = Pending::Controller(ControllerPending::Step { epoch: 1, step: 2 });
    b.zk_request(0, ZkOp::Multi(Vec::new()), read, &mut out);
    let xid = requests(&out)[0].0;
    // The state read: the controller sends its guarded write (xid + 1).
    let out = answer(
        &mut b,
        xid,
        Ok(OpResult::Batch(vec![Ok(node(
            &state(2, 4, &[2, 3, 1]).to_json(),
            7,
        ))])),
    );
    assert_eq!(requests(&out).len(), 1);
    let xid = xid + 1;
    let out = answer(&mut b, xid, Err(ZkError::CheckFailed));
    assert_eq!(
        out.events,
        vec![(
            EventKind::ControllerResigned {
                broker: 1,
                epoch: 1
            },
            ControllerCause::FencedWriteFailed.into()
        )]
    );
    assert_eq!(
        requests(&out),
        vec![(
            xid + 1,
            ZkOp::Exists {
                path: "/controller".into(),
                watch: true
            }
        )]
    );
    assert_eq!(b.controller, None);
    assert_eq!(b.active_controller, None);
}
