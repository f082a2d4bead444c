//! Unit tests of the controller's order within a broker change.

use super::queue::{Phase, Running, Task};
use super::{ControllerRole, PartitionContext};
use crate::sim::broker::Broker;
use crate::sim::config::{Profile, Settings};
use crate::sim::message::Out;
use std::collections::BTreeMap;

/// Broker 1 acting as controller of a cluster whose topics are loaded.
fn controller(profile: Profile) -> (Broker, Settings) {
    let settings = Settings::for_profile(profile);
    let mut b = Broker::new(1);
    b.controller = Some(ControllerRole {
        epoch: 1,
        epoch_zk_version: 0,
        profile,
        live: BTreeMap::from([(1, 10), (2, 11), (3, 12), (4, 13)]),
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
    assert_eq!(ctx.live_override, BTreeMap::from([(3, true)]));
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
