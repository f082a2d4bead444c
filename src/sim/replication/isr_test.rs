//! The ISR-expiration check on the leader, one input at a time, with its exact output: the
//! shrink sent to the controller (AlterPartition, 2.7+, KIP-497) or written to ZooKeeper by
//! compare-and-set of the partition state (before 2.7), and the next check.

use super::tests::{fetch, leader, tp};
use super::*;
use crate::sim::config::Profile;
use crate::sim::message::{Body, ZkOp};
use crate::sim::state::ZkConnection;

const B1: Endpoint = Endpoint::Broker(1);

/// Runs the check at `now` and returns what the leader did.
fn expire(b: &mut crate::sim::broker::Broker, now: u64, settings: &Settings) -> Out {
    let mut out = Out::default();
    b.replica_manager()
        .on_isr_expiration(now, settings, &mut out);
    out
}

#[test]
fn a_follower_behind_for_longer_than_the_lag_time_is_proposed_out_by_alter_partition() {
    // replica.lag.time.max.ms = 10 000. Broker 1 leads t-0 (epoch 1, ISR [1, 2, 3]) from t=0;
    // follower 2 catches up at 5 000, follower 3 never fetches.
    let (mut b, settings) = leader(Profile::V3_9, &[1, 2, 3], 10);
    fetch(&mut b, 5_000, 2, 10, &settings);
    // At exactly the lag time nobody is out: Kafka's test is strictly greater.
    let out = expire(&mut b, 10_000, &settings);
    assert!(out.sends.is_empty(), "{:?}", out.sends);
    assert_eq!(
        out.timers,
        vec![(15_000, B1, Timer::Replica(ReplicaTimer::IsrExpiration))]
    );
    // One millisecond later follower 3 is: the proposal goes to the controller of the last
    // metadata (9), with the leader epoch and partition epoch the leader knows.
    let out = expire(&mut b, 10_001, &settings);
    assert_eq!(
        out.sends,
        vec![(
            B1,
            Endpoint::Broker(9),
            Body::AlterPartition {
                broker_epoch: -1,
                tp: tp(),
                leader_epoch: 1,
                isr: vec![1, 2],
                zk_version: 1,
            }
        )]
    );
    assert_eq!(
        out.timers,
        vec![(15_001, B1, Timer::Replica(ReplicaTimer::IsrExpiration))]
    );
    assert!(
        out.events.is_empty(),
        "the change is an event once it is written"
    );
}

#[test]
fn before_2_7_the_leader_writes_the_shrink_to_zookeeper_itself() {
    let (mut b, settings) = leader(Profile::V2_4, &[1, 2, 3], 10);
    b.zk.state = ZkConnection::Connected;
    b.zk.session = Some(7);
    b.zk.read_timeout_ms = 4_000;
    b.zk.last_heard_ms = 10_001;
    let out = expire(&mut b, 10_001, &settings);
    // Neither follower fetched: both are out. The write is a compare-and-set on the version
    // the leader knows (`Partition.updateIsr` with `zkVersion`).
    assert_eq!(
        out.sends,
        vec![(
            B1,
            Endpoint::Zk,
            Body::Request {
                session: 7,
                xid: 1,
                op: ZkOp::SetData {
                    path: "/brokers/topics/t/partitions/0/state".into(),
                    data: r#"{"controller_epoch":1,"leader":1,"version":1,"leader_epoch":1,"isr":[1]}"#
                        .into(),
                    version: Some(1),
                },
            }
        )]
    );
    assert_eq!(
        out.timers,
        vec![
            (15_001, B1, Timer::Replica(ReplicaTimer::IsrExpiration)),
            // The ZooKeeper client's send thread: the next ping is readTimeout / 2 away.
            (12_001, B1, Timer::ZkTick(1)),
        ]
    );
    assert!(out.events.is_empty());
    assert_eq!(
        b.zk.pending
            .values()
            .map(|(_, p)| p.clone())
            .collect::<Vec<_>>(),
        vec![crate::sim::zk_client::Pending::Replica(
            ReplicaPending::WriteIsr {
                tp: tp(),
                isr: vec![1],
                leader_epoch: 1,
            }
        )]
    );
}
