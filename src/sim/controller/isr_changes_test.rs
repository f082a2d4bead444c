//! Unit tests of ISR changes from leaders (AlterPartition, KIP-497): one input each, with the
//! exact output of the handler.

use super::causes::ControllerCause;
use super::pending::ControllerPending;
use super::queue::{Phase, Task};
use super::testing::{node, stat, state, Fixture};
use super::timers::ControllerTimer;
use crate::sim::config::{Profile, Settings};
use crate::sim::event::EventKind;
use crate::sim::message::{Body, IsrProposal, KafkaError, OpResult, PartitionInfo, Timer, ZkOp};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

/// Broker 1 controls T-0 (replicas 1, 2, 3; leader 1 in leader epoch 4 with the ISR [1, 2],
/// partition epoch 7), brokers 1, 2 and 3 live.
fn controller() -> (Fixture, TopicPartition) {
    let tp = TopicPartition::new("T", 0);
    let f = Fixture::new(Profile::V3_9, &[(1, 10), (2, 11), (3, 12)])
        .topic("T", &[&[1, 2, 3]])
        .state(&tp, (1, 4, &[1, 2]), 7);
    (f, tp)
}

/// Leader 1 asks for the ISR [1, 2, 3] on leader epoch 4 and partition epoch 7.
fn expand(tp: &TopicPartition) -> Task {
    Task::AlterPartition {
        from: 1,
        broker_epoch: 10,
        tp: tp.clone(),
        leader_epoch: 4,
        isr: vec![1, 2, 3],
        zk_version: 7,
    }
}

fn proposal() -> IsrProposal {
    IsrProposal {
        isr: vec![1, 2, 3],
        leader_epoch: 4,
        zk_version: 7,
    }
}

#[test]
fn an_alter_partition_reaching_an_idle_controller_reads_the_partition_state() {
    let (mut f, tp) = controller();
    let h = f.input(100, |c| {
        c.on_alter_partition(1, (10, tp.clone(), 4, vec![1, 2, 3], 7))
    });
    assert_eq!(
        h.zk,
        vec![(
            ZkOp::Batch(vec![ZkOp::Exists {
                path: "/brokers/topics/T/partitions/0/state".into(),
                watch: false
            }]),
            ControllerPending::Step { epoch: 1, step: 1 }
        )]
    );
    assert_eq!(
        (h.out.sends.len(), h.out.timers.len(), h.out.events.len()),
        (0, 0, 0)
    );
    assert_eq!(
        f.role.partitions.running.as_ref().map(|r| &r.task),
        Some(&expand(&tp))
    );
}

#[test]
fn an_isr_change_on_the_current_epochs_is_written_with_the_leader_epoch_kept() {
    let (f, tp) = controller();
    let mut f = f.running(expand(&tp), Phase::ReadStates(vec![tp.clone()]), 1);
    let h = f.input(100, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 1 },
            Ok(OpResult::Batch(vec![Ok(node(
                &state(1, 4, &[1, 2]).to_json(),
                7,
            ))])),
        )
    });
    assert_eq!(
        h.zk,
        vec![(
            ZkOp::Batch(vec![ZkOp::Multi(vec![
                ZkOp::Check {
                    path: "/controller_epoch".into(),
                    version: 5
                },
                ZkOp::SetData {
                    path: "/brokers/topics/T/partitions/0/state".into(),
                    data: r#"{"controller_epoch":1,"leader":1,"version":1,"leader_epoch":4,"isr":[1,2,3]}"#.into(),
                    version: Some(7)
                }
            ])]),
            ControllerPending::Step { epoch: 1, step: 2 }
        )]
    );
    assert_eq!(
        (h.out.sends.len(), h.out.timers.len(), h.out.events.len()),
        (0, 0, 0)
    );
}

#[test]
fn the_written_isr_change_answers_the_leader_then_tells_every_broker() {
    let (f, tp) = controller();
    let mut f = f.running(expand(&tp), Phase::ReadStates(vec![tp.clone()]), 1);
    f.input(100, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 1 },
            Ok(OpResult::Batch(vec![Ok(node(
                &state(1, 4, &[1, 2]).to_json(),
                7,
            ))])),
        )
    });
    let timeout = Settings::for_profile(Profile::V3_9).controller_socket_timeout_ms;
    // The one input: the write's answer, the state now at version 8.
    let h = f.input(110, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 2 },
            Ok(OpResult::Batch(vec![Ok(OpResult::Multi(vec![
                OpResult::Checked,
                OpResult::Set(stat(8)),
            ]))])),
        )
    });
    assert_eq!(
        h.out.events,
        vec![(
            EventKind::IsrChangeAccepted {
                partition: "T-0".into(),
                controller: 1,
                isr: vec![1, 2, 3]
            },
            ControllerCause::AlterPartitionWritten.into()
        )]
    );
    let info = PartitionInfo {
        tp: tp.clone(),
        leader: 1,
        leader_epoch: 4,
        isr: vec![1, 2, 3],
        zk_version: 8,
        replicas: vec![1, 2, 3],
    };
    let metadata = |broker_epoch, correlation_id| Body::UpdateMetadata {
        controller: 1,
        controller_epoch: 1,
        broker_epoch,
        live_brokers: vec![1, 2, 3],
        partitions: vec![info.clone()],
        correlation_id,
    };
    let me = Endpoint::Broker(1);
    assert_eq!(
        h.out.sends,
        vec![
            (
                me,
                Endpoint::Broker(1),
                Body::AlterPartitionResponse {
                    tp: tp.clone(),
                    proposed: proposal(),
                    result: Ok(info.clone())
                }
            ),
            (me, Endpoint::Broker(1), metadata(10, 1)),
            (me, Endpoint::Broker(2), metadata(11, 2)),
            (me, Endpoint::Broker(3), metadata(12, 3)),
        ]
    );
    let timer = |broker, correlation_id| {
        (
            110 + timeout,
            me,
            Timer::Controller(ControllerTimer::RequestTimeout {
                broker,
                correlation_id,
            }),
        )
    };
    assert_eq!(h.out.timers, vec![timer(1, 1), timer(2, 2), timer(3, 3)]);
    assert_eq!(h.zk, vec![]);
    assert_eq!(f.role.partitions.running, None, "the event is done");
}

#[test]
fn an_isr_change_built_on_an_older_leader_epoch_is_refused_without_a_write() {
    // tryProcessAlterPartition (3.9.0): the partition moved to leader epoch 5 meanwhile.
    let (f, tp) = controller();
    let mut f = f.running(expand(&tp), Phase::ReadStates(vec![tp.clone()]), 1);
    let h = f.input(100, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 1 },
            Ok(OpResult::Batch(vec![Ok(node(
                &state(1, 5, &[1, 2]).to_json(),
                8,
            ))])),
        )
    });
    assert_eq!(
        h.out.sends,
        vec![(
            Endpoint::Broker(1),
            Endpoint::Broker(1),
            Body::AlterPartitionResponse {
                tp: tp.clone(),
                proposed: proposal(),
                result: Err(KafkaError::FencedLeaderEpoch)
            }
        )]
    );
    assert_eq!((h.out.timers.len(), h.out.events.len()), (0, 0));
    assert_eq!(h.zk, vec![]);
}
