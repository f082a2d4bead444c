//! Unit tests of broker changes: the controller's order within a change, and one input of a
//! broker failure with the exact output of the handler.

use super::causes::{ControllerCause, EpochBump, OfflineWhy};
use super::pending::ControllerPending;
use super::queue::{Phase, Reason, Running, Task};
use super::testing::{node, stat, state, Fixture};
use super::timers::ControllerTimer;
use super::{ControllerRole, PartitionContext};
use crate::collections::VecMap;
use crate::sim::broker::Broker;
use crate::sim::config::{Profile, Settings};
use crate::sim::event::{ElectionReason, EventKind};
use crate::sim::message::{Body, OpResult, Out, PartitionInfo, Timer, ZkOp};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

/// Broker 1 acting as controller of a cluster whose topics are loaded.
fn controller(profile: Profile) -> (Broker, Settings) {
    let settings = Settings::for_profile(profile);
    let mut b = Broker::new(1);
    b.controller = Some(ControllerRole {
        epoch: 1,
        epoch_zk_version: 0,
        profile,
        live: VecMap::from([(1, 10), (2, 11), (3, 12), (4, 13)]),
        next_correlation: 1,
        partitions: PartitionContext {
            loaded: true,
            running: Some(Running {
                task: Task::RebalanceCheck,
                phase: Phase::ListTopics,
                step: 1,
                retries: 0,
            }),
            ..Default::default()
        },
        expired: false,
    });
    (b, settings)
}

#[test]
fn a_broker_change_handles_new_brokers_then_bounced_then_dead() {
    // processBrokerChange (3.9.0, 2.4.1): startup of the new, failure then startup of the
    // bounced (counted as dead in between), failure of the dead, which count as live until then.
    let (mut b, settings) = controller(Profile::V3_9);
    let mut out = Out::default();
    b.with_controller(0, &settings, &mut out, |c| {
        c.on_brokers_changed((vec![4], vec![2], vec![3]))
    });
    let ctx = &b.controller.as_ref().unwrap().partitions;
    assert_eq!(
        ctx.tasks.iter().cloned().collect::<Vec<_>>(),
        [
            Task::BrokersStarted(vec![4]),
            Task::LiveOverride {
                brokers: vec![2],
                live: Some(false)
            },
            Task::BrokerFailure(vec![2]),
            Task::LiveOverride {
                brokers: vec![2],
                live: None
            },
            Task::BrokersStarted(vec![2]),
            Task::LiveOverride {
                brokers: vec![3],
                live: None
            },
            Task::BrokerFailure(vec![3]),
        ]
    );
    assert_eq!(ctx.live_override, VecMap::from([(3, true)]));
    // Before 2.2 there are no bounces, and the dead brokers are out before the new ones start.
    let (mut b, settings) = controller(Profile::V2_0);
    b.with_controller(0, &settings, &mut out, |c| {
        c.on_brokers_changed((vec![4], vec![], vec![3]))
    });
    let ctx = &b.controller.as_ref().unwrap().partitions;
    assert_eq!(
        ctx.tasks.iter().cloned().collect::<Vec<_>>(),
        [Task::BrokersStarted(vec![4]), Task::BrokerFailure(vec![3])]
    );
    assert!(ctx.live_override.is_empty());
}

/// Broker 1 controls topic T (one partition on 2, 3, 1, led by 2) with brokers 1, 2 and 3 live,
/// and handles a BrokerChange: it waits for its read of `/brokers/ids` (step 1).
fn reading_brokers() -> (Fixture, TopicPartition) {
    let tp = TopicPartition::new("T", 0);
    let f = Fixture::new(Profile::V3_9, &[(1, 10), (2, 11), (3, 12)])
        .topic("T", &[&[2, 3, 1]])
        .state(&tp, (2, 4, &[2, 3, 1]), 7)
        .running(Task::BrokerChange, Phase::ReadBrokers, 1);
    (f, tp)
}

#[test]
fn a_lost_broker_gets_its_partitions_elected_before_its_replicas_go_offline() {
    // One input: the children of /brokers/ids, without broker 2. onBrokerFailure (3.9.0): the
    // live brokers hear the new metadata, then the partitions the dead broker led are read for
    // an election; OfflineReplica waits behind it.
    let (mut f, tp) = reading_brokers();
    let timeout = f.settings.controller_socket_timeout_ms;
    let h = f.input(100, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 1 },
            Ok(OpResult::Children(vec![("1".into(), 10), ("3".into(), 12)])),
        )
    });
    assert_eq!(
        h.out.events,
        vec![(
            EventKind::BrokerLost {
                controller: 1,
                broker: 2
            },
            ControllerCause::BrokerGone { broker: 2 }.into()
        )]
    );
    let info = PartitionInfo {
        tp: tp.clone(),
        leader: 2,
        leader_epoch: 4,
        isr: vec![2, 3, 1],
        zk_version: 7,
        replicas: vec![2, 3, 1],
    };
    let metadata = |broker_epoch, correlation_id| Body::UpdateMetadata {
        controller: 1,
        controller_epoch: 1,
        broker_epoch,
        live_brokers: vec![1, 3],
        partitions: vec![info.clone()],
        correlation_id,
    };
    // Broker 2 still counts as live for this broadcast, but has no registration to send to.
    assert_eq!(
        h.out.sends,
        vec![
            (Endpoint::Broker(1), Endpoint::Broker(1), metadata(10, 1)),
            (Endpoint::Broker(1), Endpoint::Broker(3), metadata(12, 2)),
        ]
    );
    assert_eq!(
        h.out.timers,
        vec![
            (
                100 + timeout,
                Endpoint::Broker(1),
                Timer::Controller(ControllerTimer::RequestTimeout {
                    broker: 1,
                    correlation_id: 1
                })
            ),
            (
                100 + timeout,
                Endpoint::Broker(1),
                Timer::Controller(ControllerTimer::RequestTimeout {
                    broker: 3,
                    correlation_id: 2
                })
            ),
        ]
    );
    assert_eq!(
        h.zk,
        vec![(
            ZkOp::Batch(vec![ZkOp::Exists {
                path: "/brokers/topics/T/partitions/0/state".into(),
                watch: false
            }]),
            ControllerPending::Step { epoch: 1, step: 2 }
        )]
    );
    assert_eq!(h.exit, None);
    let ctx = &f.role.partitions;
    assert_eq!(
        ctx.running.as_ref().map(|r| (&r.task, r.step)),
        Some((
            &Task::Elect {
                reason: Reason::Offline,
                partitions: None
            },
            2
        ))
    );
    assert_eq!(
        ctx.tasks.iter().cloned().collect::<Vec<_>>(),
        vec![Task::OfflineReplica {
            broker: 2,
            why: OfflineWhy::BrokerFailure,
            partitions: None
        }]
    );
    assert!(ctx.live_override.is_empty(), "{:?}", ctx.live_override);
    assert_eq!(f.role.live, VecMap::from([(1, 10), (3, 12)]));
}

#[test]
fn the_offline_election_writes_the_first_live_isr_replica_in_assignment_order() {
    // One input: the state read for the election. The write is conditional on the state's
    // version and, from 2.1 (the 2.4 and 3.9 profiles), on /controller_epoch's (5).
    let tp = TopicPartition::new("T", 0);
    let elect = Task::Elect {
        reason: Reason::Offline,
        partitions: Some(vec![tp.clone()]),
    };
    let mut f = Fixture::new(Profile::V3_9, &[(1, 10), (3, 12)])
        .topic("T", &[&[2, 3, 1]])
        .state(&tp, (2, 4, &[2, 3, 1]), 7)
        .running(elect, Phase::ReadStates(vec![tp.clone()]), 2);
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
        h.out.events,
        vec![],
        "the event comes with the write's answer"
    );
    assert_eq!((h.out.sends.len(), h.out.timers.len()), (0, 0));
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
                    data: r#"{"controller_epoch":1,"leader":3,"version":1,"leader_epoch":5,"isr":[3,1]}"#
                        .into(),
                    version: Some(7)
                }
            ])]),
            ControllerPending::Step { epoch: 1, step: 3 }
        )]
    );
    // The write's answer: the election is told, with its cause, and the replicas hear it.
    let h = f.input(110, |c| {
        c.on_zk_response(
            ControllerPending::Step { epoch: 1, step: 3 },
            Ok(OpResult::Batch(vec![Ok(OpResult::Multi(vec![
                OpResult::Checked,
                OpResult::Set(stat(8)),
            ]))])),
        )
    });
    assert_eq!(
        h.out.events,
        vec![(
            EventKind::LeaderElected {
                partition: "T-0".into(),
                leader: 3,
                leader_epoch: 5,
                isr: vec![3, 1],
                reason: ElectionReason::Offline,
                controller: 1,
                controller_epoch: 1
            },
            ControllerCause::EpochBumped {
                why: EpochBump::LeaderGone {
                    leader: 2,
                    assignment: vec![2, 3, 1]
                }
            }
            .into()
        )]
    );
    let info = PartitionInfo {
        tp: tp.clone(),
        leader: 3,
        leader_epoch: 5,
        isr: vec![3, 1],
        zk_version: 8,
        replicas: vec![2, 3, 1],
    };
    let leader_and_isr = |broker_epoch, correlation_id| Body::LeaderAndIsr {
        controller: 1,
        controller_epoch: 1,
        broker_epoch,
        partitions: vec![info.clone()],
        correlation_id,
    };
    assert_eq!(
        h.out.sends,
        vec![
            (
                Endpoint::Broker(1),
                Endpoint::Broker(1),
                leader_and_isr(10, 1)
            ),
            (
                Endpoint::Broker(1),
                Endpoint::Broker(3),
                leader_and_isr(12, 2)
            ),
        ],
        "LeaderAndIsr to the live replicas; the UpdateMetadata waits behind it in each channel"
    );
    assert_eq!(h.zk, vec![]);
}
