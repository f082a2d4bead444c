//! The leader's side of the ISR, one input at a time: a LeaderAndIsr, a follower's fetch,
//! the ISR-expiration check and the controller's answer to AlterPartition.

use super::*;
use crate::sim::broker::{Broker, BrokerStatus};
use crate::sim::config::Profile;
use crate::sim::message::{Body, IsrProposal, KafkaError};

pub(super) fn tp() -> TopicPartition {
    TopicPartition::new("t", 0)
}

fn info(leader: BrokerId, epoch: u64, isr: &[BrokerId], replicas: &[BrokerId]) -> PartitionInfo {
    PartitionInfo {
        tp: tp(),
        leader: leader as i64,
        leader_epoch: epoch,
        isr: isr.to_vec(),
        zk_version: epoch as i32,
        replicas: replicas.to_vec(),
    }
}

/// Broker 1 holding 10 records written in leader epoch 0, made leader of t-0 (replicas
/// [1, 2, 3]) at leader epoch 1 with `isr`, its high watermark at `hw`.
pub(super) fn leader(profile: Profile, isr: &[BrokerId], hw: u64) -> (Broker, Settings) {
    let mut settings = Settings::for_profile(profile);
    settings.replica_lag_time_max_ms = 10_000;
    let mut b = Broker::new(1);
    b.status = BrokerStatus::Running;
    b.metadata_controller = Some(9);
    b.metadata_live = vec![1, 2, 3];
    b.replicas.entry(tp()).or_default().log.append(0, 10);
    let mut out = Out::default();
    b.replica_manager().apply_leader_and_isr(
        0,
        9,
        1,
        vec![info(1, 1, isr, &[1, 2, 3])],
        &settings,
        &mut out,
    );
    b.replicas.get_mut(&tp()).unwrap().log.hw = hw;
    (b, settings)
}

fn leader_state(b: &Broker) -> &LeaderState {
    match &b.replicas[&tp()].state.as_ref().unwrap().role {
        Role::Leader(ls) => ls,
        Role::Follower { .. } => panic!("not leader"),
    }
}

pub(super) fn fetch(
    b: &mut Broker,
    now: u64,
    from: BrokerId,
    offset: u64,
    settings: &Settings,
) -> Out {
    let mut out = Out::default();
    let partitions = vec![FetchPartition {
        tp: tp(),
        fetch_offset: offset,
        leader_epoch: b.replicas[&tp()].state.as_ref().unwrap().leader_epoch,
        diverging_check: None,
    }];
    b.handle(
        now,
        Endpoint::Broker(from),
        Body::Fetch {
            correlation_id: 1,
            partitions,
        },
        settings,
        &mut out,
    );
    out
}

#[test]
fn a_follower_rejoins_at_the_high_watermark_in_0_10_and_from_the_epoch_start_from_2_0() {
    // High watermark 5; this leader epoch began at offset 10. Broker 3, out of the ISR,
    // fetches from offset 7: past the high watermark, short of the epoch's start.
    for (profile, rejoins) in [
        (Profile::V0_10, true),
        (Profile::V2_0, false),
        (Profile::V3_9, false),
    ] {
        let (mut b, settings) = leader(profile, &[1, 2], 5);
        fetch(&mut b, 100, 3, 7, &settings);
        let pending = leader_state(&b).pending_isr.clone();
        assert_eq!(pending.is_some(), rejoins, "{profile:?}: {pending:?}");
        if rejoins {
            assert_eq!(pending, Some(vec![1, 2, 3]));
        }
        // At the epoch's start every profile takes it back.
        let (mut b, settings) = leader(profile, &[1, 2], 5);
        fetch(&mut b, 100, 3, 10, &settings);
        assert_eq!(
            leader_state(&b).pending_isr,
            Some(vec![1, 2, 3]),
            "{profile:?}"
        );
    }
}

#[test]
fn a_leader_keeps_what_it_knew_of_its_followers_through_a_leader_epoch_bump() {
    let (mut b, settings) = leader(Profile::V3_9, &[1, 2, 3], 10);
    fetch(&mut b, 100, 2, 10, &settings);
    assert_eq!(leader_state(&b).followers[&2].leo, 10);
    // A bump that keeps broker 1 leader: follower 2's log end is kept and it counts as caught
    // up now; follower 3, never heard from, stays unknown.
    let mut out = Out::default();
    b.replica_manager().apply_leader_and_isr(
        5_000,
        9,
        1,
        vec![info(1, 2, &[1, 2, 3], &[1, 2, 3])],
        &settings,
        &mut out,
    );
    let f = &leader_state(&b).followers;
    assert_eq!(
        f[&2],
        Progress {
            leo: 10,
            last_caught_up_ms: 5_000,
            last_fetch_ms: 5_000,
            last_fetch_leader_leo: 10
        }
    );
    assert_eq!(f[&3].leo, 0);
    // A replica the controller removed is forgotten.
    b.replica_manager().apply_leader_and_isr(
        6_000,
        9,
        1,
        vec![info(1, 3, &[1, 2], &[1, 2])],
        &settings,
        &mut out,
    );
    assert_eq!(
        leader_state(&b)
            .followers
            .keys()
            .copied()
            .collect::<Vec<_>>(),
        [2]
    );
    // A broker that newly becomes leader knows nothing of its followers' logs.
    let mut c = Broker::new(2);
    c.status = BrokerStatus::Running;
    c.replicas.entry(tp()).or_default().log.append(0, 10);
    c.replica_manager().apply_leader_and_isr(
        0,
        9,
        1,
        vec![info(1, 1, &[1, 2, 3], &[1, 2, 3])],
        &settings,
        &mut out,
    );
    c.replica_manager().apply_leader_and_isr(
        7_000,
        9,
        1,
        vec![info(2, 2, &[1, 2, 3], &[1, 2, 3])],
        &settings,
        &mut out,
    );
    let f = match &c.replicas[&tp()].state.as_ref().unwrap().role {
        Role::Leader(ls) => ls.followers.clone(),
        Role::Follower { .. } => panic!("not leader"),
    };
    assert_eq!(
        f[&1],
        Progress {
            leo: 0,
            last_caught_up_ms: 7_000,
            last_fetch_ms: 0,
            last_fetch_leader_leo: 0
        }
    );
}

#[test]
fn a_follower_with_nothing_to_fetch_leaves_the_isr_only_before_2_1() {
    // Both followers fetched up to the leader's log end at 1 s and then went quiet; nothing
    // more was written. At 20 s they have not caught up for more than the 10 s lag time.
    for (profile, shrinks) in [
        (Profile::V0_10, true),
        (Profile::V2_0, true),
        (Profile::V2_4, false),
        (Profile::V3_9, false),
    ] {
        let (mut b, settings) = leader(profile, &[1, 2, 3], 10);
        fetch(&mut b, 1_000, 2, 10, &settings);
        fetch(&mut b, 1_000, 3, 10, &settings);
        let mut out = Out::default();
        b.replica_manager()
            .on_isr_expiration(20_000, &settings, &mut out);
        let pending = leader_state(&b).pending_isr.clone();
        assert_eq!(pending, shrinks.then(|| vec![1]), "{profile:?}");
    }
}

#[test]
fn the_high_watermark_counts_only_assigned_replicas() {
    // The ISR still holds broker 3, which the latest LeaderAndIsr no longer lists (a
    // reassignment between its election and the removal of 3 from the ISR).
    let settings = Settings::for_profile(Profile::V3_9);
    let mut b = Broker::new(1);
    b.status = BrokerStatus::Running;
    b.replicas.entry(tp()).or_default().log.append(0, 10);
    let mut out = Out::default();
    b.replica_manager().apply_leader_and_isr(
        0,
        9,
        1,
        vec![info(1, 1, &[1, 2, 3], &[1, 2])],
        &settings,
        &mut out,
    );
    fetch(&mut b, 10, 2, 10, &settings);
    assert_eq!(b.replicas[&tp()].log.hw, 10);
}

#[test]
fn an_isr_change_refused_for_a_stale_partition_state_waits_for_the_next_leader_and_isr() {
    let (mut b, settings) = leader(Profile::V3_9, &[1, 2], 10);
    let mut out = Out::default();
    fetch(&mut b, 100, 3, 10, &settings);
    assert_eq!(leader_state(&b).pending_isr, Some(vec![1, 2, 3]));
    let proposal = |isr: &[BrokerId], leader_epoch: u64| IsrProposal {
        isr: isr.to_vec(),
        leader_epoch,
        zk_version: leader_epoch as i32,
    };
    // An answer to another proposal is ignored: another ISR, or the same ISR asked for in an
    // earlier leader epoch.
    b.replica_manager().on_alter_partition_response(
        110,
        tp(),
        proposal(&[1], 1),
        Err(KafkaError::InvalidUpdateVersion),
        &settings,
        &mut out,
    );
    assert!(!leader_state(&b).isr_blocked);
    b.replica_manager().on_alter_partition_response(
        111,
        tp(),
        proposal(&[1, 2, 3], 0),
        Err(KafkaError::FencedLeaderEpoch),
        &settings,
        &mut out,
    );
    assert!(!leader_state(&b).isr_blocked);
    // INVALID_UPDATE_VERSION: the change stays pending, nothing is resent, no new change.
    b.replica_manager().on_alter_partition_response(
        120,
        tp(),
        proposal(&[1, 2, 3], 1),
        Err(KafkaError::InvalidUpdateVersion),
        &settings,
        &mut out,
    );
    assert!(leader_state(&b).isr_blocked);
    let mut out = Out::default();
    b.replica_manager()
        .on_isr_expiration(30_000, &settings, &mut out);
    assert!(
        out.sends
            .iter()
            .all(|(_, _, m)| !matches!(m, Body::AlterPartition { .. })),
        "{:?}",
        out.sends
    );
    // The controller's next LeaderAndIsr brings the current state and lifts the block.
    b.replica_manager().apply_leader_and_isr(
        31_000,
        9,
        1,
        vec![info(1, 2, &[1, 2], &[1, 2, 3])],
        &settings,
        &mut out,
    );
    assert_eq!(leader_state(&b).pending_isr, None);
    assert!(!leader_state(&b).isr_blocked);
    // From 3.4 the leader proposes only a follower its metadata lists as alive.
    b.metadata_live = vec![1, 2];
    fetch(&mut b, 31_500, 3, 10, &settings);
    assert_eq!(leader_state(&b).pending_isr, None);
    b.metadata_live = vec![1, 2, 3];
    // INELIGIBLE_REPLICA goes back to the committed ISR at once: the leader may propose again.
    fetch(&mut b, 32_000, 3, 10, &settings);
    b.replica_manager().on_alter_partition_response(
        32_010,
        tp(),
        proposal(&[1, 2, 3], 2),
        Err(KafkaError::IneligibleReplica),
        &settings,
        &mut out,
    );
    assert_eq!(leader_state(&b).pending_isr, None);
    assert!(!leader_state(&b).isr_blocked);
}
