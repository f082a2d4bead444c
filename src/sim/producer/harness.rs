//! Test fixtures of the producer: three brokers whose metadata names a leader of orders-0, a
//! crash, the events and the produce requests of an output, and a replicated world.

use super::{Brokers, ProducerOut};
use crate::sim::broker::{Broker, BrokerStatus};
use crate::sim::message::{Body, PartitionInfo};
use crate::sim::net::BrokerId;
use crate::sim::topic::TopicPartition;
use crate::sim::{Profile, Settings, Setup, TopicConfig, TopicSpec, World};

pub(super) fn tp() -> TopicPartition {
    TopicPartition::new("orders", 0)
}

/// Brokers 1..=3, running unless listed in `down` (crashed) or `frozen` (paused); every
/// running one's metadata names `leader` in leader epoch `epoch` for orders-0.
pub(super) fn brokers(leader: i64, epoch: u64, down: &[BrokerId], frozen: &[BrokerId]) -> Brokers {
    (1..=3)
        .map(|id| {
            let mut b = Broker::new(id);
            b.incarnation = 1;
            b.status = if down.contains(&id) {
                BrokerStatus::Crashed
            } else if frozen.contains(&id) {
                BrokerStatus::Paused {
                    since_ms: 0,
                    until_ms: 1_000_000,
                }
            } else {
                BrokerStatus::Running
            };
            b.metadata_partitions.insert(
                tp(),
                PartitionInfo {
                    tp: tp(),
                    leader,
                    leader_epoch: epoch,
                    isr: vec![1, 2, 3],
                    zk_version: 0,
                    replicas: vec![2, 3, 1],
                },
            );
            (id, b)
        })
        .collect()
}

pub(super) fn crash(b: &mut Brokers, id: BrokerId) {
    let x = b.get_mut(&id).unwrap();
    x.status = BrokerStatus::Crashed;
    x.incarnation += 1;
}

pub(super) fn events(out: &ProducerOut) -> Vec<(&'static str, String)> {
    out.events
        .iter()
        .map(|(k, _)| (k.name(), k.to_string()))
        .collect()
}

pub(super) fn sent(out: &ProducerOut) -> Vec<(BrokerId, u64, u64)> {
    out.sends
        .iter()
        .map(|(b, body)| match body {
            Body::Produce { batch, records, .. } => (*b, batch.sequence, *records),
            other => panic!("not a produce: {other:?}"),
        })
        .collect()
}

/// Brokers 1, 2, 3 with partition T-0 on [2, 3, 1], 20 ms latency and no jitter: a
/// record batch produced at 2 s reaches the followers at 2.04 s and its acknowledgement
/// would leave the leader at 2.06 s.
pub(super) fn replicated_world(profile: Profile) -> World {
    let mut settings = Settings::for_profile(profile);
    settings.network_latency_ms = 20;
    settings.network_jitter_ms = 0;
    let mut setup = Setup::with_brokers(1, settings, 3);
    setup.topics = vec![TopicSpec {
        name: "T".into(),
        replicas: vec![vec![2, 3, 1]],
        config: TopicConfig::default(),
    }];
    World::new(&setup)
}
