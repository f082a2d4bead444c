//! Kafka's `PartitionLeaderElectionAlgorithmsTest` (3.9.0,
//! `core/src/test/scala/unit/kafka/controller/`), rebuilt on the crate's election rules
//! ([`election`]). Each test states Kafka's inputs (assignment, ISR, live replicas, shutting-down
//! brokers) and asserts Kafka's chosen leader; where Kafka also counts an unclean election
//! (`uncleanLeaderElectionRate`), the port asserts [`election::Elected::unclean`].
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::collections::VecSet;
use kafka_election_playground::election;

fn live(ids: &[u32]) -> VecSet<u32> {
    ids.iter().copied().collect()
}

fn leader(e: Option<election::Elected>) -> Option<u32> {
    e.map(|e| e.leader)
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testOfflinePartitionLeaderElection
#[test]
fn offline_election_picks_the_live_isr_member() {
    let e = election::offline(&[2, 4], &[2, 4], &live(&[4]), false);
    assert_eq!(leader(e.clone()), Some(4));
    assert!(!e.unwrap().unclean);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testOfflinePartitionLeaderElectionLastIsrOfflineUncleanLeaderElectionDisabled
#[test]
fn offline_election_without_a_live_isr_member_and_unclean_off_elects_no_one() {
    // Kafka also asserts that no unclean election was counted: there is no election at all.
    assert_eq!(election::offline(&[2, 4], &[2], &live(&[4]), false), None);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testOfflinePartitionLeaderElectionLastIsrOfflineUncleanLeaderElectionEnabled
#[test]
fn offline_election_without_a_live_isr_member_and_unclean_on_elects_a_live_replica() {
    let e = election::offline(&[2, 4], &[2], &live(&[4]), true).expect("an unclean leader");
    assert_eq!(e.leader, 4);
    // Kafka counts one unclean election (`uncleanLeaderElectionRate.count() == 1`).
    assert!(e.unclean);
    assert_eq!(e.isr, vec![4]);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testReassignPartitionLeaderElection
#[test]
fn reassignment_election_picks_the_live_isr_member_of_the_target() {
    assert_eq!(
        leader(election::reassignment(&[2, 4], &[2, 4], &live(&[4]))),
        Some(4)
    );
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testReassignPartitionLeaderElectionWithNoLiveIsr
#[test]
fn reassignment_election_with_no_live_isr_member_elects_no_one() {
    assert_eq!(election::reassignment(&[2, 4], &[2], &live(&[])), None);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testReassignPartitionLeaderElectionWithEmptyIsr
#[test]
fn reassignment_election_with_an_empty_isr_elects_no_one() {
    assert_eq!(election::reassignment(&[2, 4], &[], &live(&[2])), None);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testPreferredReplicaPartitionLeaderElection
#[test]
fn preferred_election_picks_the_preferred_replica() {
    assert_eq!(
        leader(election::preferred(&[2, 4], &[2, 4], &live(&[2, 4]))),
        Some(2)
    );
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testPreferredReplicaPartitionLeaderElectionPreferredReplicaInIsrNotLive
#[test]
fn preferred_election_needs_the_preferred_replica_live() {
    assert_eq!(election::preferred(&[2, 4], &[2], &live(&[])), None);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testPreferredReplicaPartitionLeaderElectionPreferredReplicaNotInIsrLive
#[test]
fn preferred_election_needs_the_preferred_replica_in_the_isr() {
    // 4 is live and in the ISR, but it is not the preferred replica: no one.
    assert_eq!(election::preferred(&[2, 4], &[4], &live(&[2, 4])), None);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testPreferredReplicaPartitionLeaderElectionPreferredReplicaNotInIsrNotLive
#[test]
fn preferred_election_with_an_empty_isr_and_no_live_replica_elects_no_one() {
    assert_eq!(election::preferred(&[2, 4], &[], &live(&[])), None);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testControlledShutdownPartitionLeaderElection
#[test]
fn controlled_shutdown_election_skips_the_stopping_broker() {
    let e = election::controlled_shutdown(&[2, 4], &[2, 4], &live(&[2, 4]), &live(&[2]))
        .expect("a leader");
    assert_eq!(e.leader, 4);
    assert_eq!(e.isr, vec![4]);
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testControlledShutdownPartitionLeaderElectionLastIsrShuttingDown
#[test]
fn controlled_shutdown_election_when_the_last_isr_member_stops_elects_no_one() {
    // 4 is live but out of the ISR: a controlled shutdown never elects outside it.
    assert_eq!(
        election::controlled_shutdown(&[2, 4], &[2], &live(&[2, 4]), &live(&[2])),
        None
    );
}

/// Kafka: PartitionLeaderElectionAlgorithmsTest.testControlledShutdownPartitionLeaderElectionAllIsrSimultaneouslyShutdown
#[test]
fn controlled_shutdown_election_when_every_isr_member_stops_elects_no_one() {
    assert_eq!(
        election::controlled_shutdown(&[2, 4], &[2, 4], &live(&[2, 4]), &live(&[2, 4])),
        None
    );
}
