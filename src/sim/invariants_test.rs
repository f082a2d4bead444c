//! Each safety property on its own: one state in, the exact violations out.

use super::broker::{Broker, BrokerStatus};
use super::invariants::{
    controller_epochs_only_grow, isr_within_assignment, leader_epochs_only_grow, leader_in_isr,
    only_the_current_controller_changes_leaders, EpochsSeen,
};
use super::net::BrokerId;
use super::topic::TopicPartition;
use super::znodes::PartitionState;
use crate::collections::VecMap;

fn state(leader: i64, leader_epoch: u64, isr: Vec<BrokerId>) -> PartitionState {
    PartitionState {
        controller_epoch: 1,
        leader,
        version: 1,
        leader_epoch,
        isr,
    }
}

fn tp() -> TopicPartition {
    TopicPartition::new("T", 0)
}

/// Running brokers with the controller epochs they accepted.
fn brokers(epochs: &[(BrokerId, u64)]) -> VecMap<BrokerId, Broker> {
    epochs
        .iter()
        .map(|(id, epoch)| {
            let mut b = Broker::new(*id);
            b.status = BrokerStatus::Running;
            b.metadata_epoch = *epoch;
            (*id, b)
        })
        .collect()
}

#[test]
fn a_leader_epoch_that_goes_back_is_named() {
    assert_eq!(
        leader_epochs_only_grow(&tp(), 5, &state(1, 4, vec![1])),
        Some((
            "leader epochs only grow".to_string(),
            "T-0: leader epoch went back from 5 to 4".to_string()
        ))
    );
    assert_eq!(
        leader_epochs_only_grow(&tp(), 5, &state(1, 5, vec![1])),
        None
    );
}

#[test]
fn an_isr_member_outside_the_assignment_is_named() {
    assert_eq!(
        isr_within_assignment(&tp(), &state(1, 0, vec![1, 4, 2]), &[1, 2, 3]),
        Some((
            "the ISR holds only replicas of the assignment".to_string(),
            "T-0: the ISR [1, 4, 2] holds [4], which the assignment [1, 2, 3] does not list"
                .to_string()
        ))
    );
    assert_eq!(
        isr_within_assignment(&tp(), &state(1, 0, vec![3, 1]), &[1, 2, 3]),
        None
    );
}

#[test]
fn a_leader_outside_its_isr_is_named_and_an_offline_partition_is_not() {
    assert_eq!(
        leader_in_isr(&tp(), &state(2, 3, vec![1, 3])),
        Some((
            "the leader is in the ISR".to_string(),
            "T-0: leader 2 is not in the ISR [1, 3]".to_string()
        ))
    );
    assert_eq!(leader_in_isr(&tp(), &state(-1, 3, vec![1])), None);
}

#[test]
fn a_zombie_controllers_write_is_named() {
    let found = only_the_current_controller_changes_leaders(vec![(
        "/brokers/topics/T/partitions/0/state".into(),
        state(2, 7, vec![2]),
        3,
    )]);
    assert_eq!(
        found,
        vec![(
            "only the current controller changes leaders".to_string(),
            "/brokers/topics/T/partitions/0/state was rewritten by controller epoch 1 (leader 2, leader epoch 7) while epoch 3 rules: a zombie controller's write landed (split brain)".to_string()
        )]
    );
}

#[test]
fn controller_epochs_that_go_back_are_named_and_a_restart_starts_afresh() {
    let mut seen = EpochsSeen::default();
    assert!(controller_epochs_only_grow(&mut seen, 4, &brokers(&[(1, 4), (2, 3)])).is_empty());
    assert_eq!(
        controller_epochs_only_grow(&mut seen, 3, &brokers(&[(1, 4), (2, 2)])),
        vec![
            (
                "controller epochs only grow".to_string(),
                "/controller_epoch went back from 4 to 3".to_string()
            ),
            (
                "controller epochs only grow".to_string(),
                "broker 2 went back from controller epoch 3 to 2".to_string()
            ),
        ]
    );
    // Broker 2 dies: what it accepted is forgotten, so its restart at epoch 0 is fine.
    let mut down = brokers(&[(1, 4), (2, 2)]);
    down.get_mut(&2).unwrap().status = BrokerStatus::Crashed;
    assert!(controller_epochs_only_grow(&mut seen, 4, &down).is_empty());
    assert!(controller_epochs_only_grow(&mut seen, 4, &brokers(&[(1, 4), (2, 0)])).is_empty());
}

#[test]
fn the_monitor_reports_each_violation_once_and_knows_every_partition_in_order() {
    use super::monitor::Monitor;
    use super::topic::TopicSpec;
    let topic = |name: &str, n: usize| TopicSpec {
        name: name.into(),
        replicas: vec![vec![1]; n],
        config: Default::default(),
    };
    let mut m = Monitor::new(&[topic("b", 2), topic("a", 1)]);
    assert_eq!(
        m.partitions(),
        &[
            TopicPartition::new("b", 0),
            TopicPartition::new("b", 1),
            TopicPartition::new("a", 0)
        ]
    );
    let v = |d: &str| ("the leader is in the ISR".to_string(), d.to_string());
    assert_eq!(m.fresh(vec![v("x"), v("y")]), vec![v("x"), v("y")]);
    assert_eq!(m.fresh(vec![v("y"), v("z")]), vec![v("z")]);
}
