//! Expiry: a waiting batch fails after `request.timeout.ms` before 2.1 and after
//! `delivery.timeout.ms` from 2.1; acks=0 batches expire too and are done once sent.

use super::errors::{BATCH_EXPIRED, DELIVERY_TIMEOUT};
use super::harness::{brokers, events, sent, tp};
use super::{Producer, ProducerOut};
use crate::sim::config::{Profile, Settings};
use crate::sim::rng::Rng;
use crate::sim::state::BatchWait;
use crate::sim::topic::Acks;

#[test]
fn a_waiting_batch_expires_after_request_timeout_before_2_1_and_delivery_timeout_after() {
    for (profile, not_yet, expired, error) in [
        (Profile::V0_10, 31_000, 31_001, BATCH_EXPIRED),
        (Profile::V2_0, 31_000, 31_001, BATCH_EXPIRED),
        (Profile::V2_4, 120_999, 121_000, DELIVERY_TIMEOUT),
        (Profile::V3_9, 120_999, 121_000, DELIVERY_TIMEOUT),
    ] {
        let settings = Settings::for_profile(profile);
        let mut rng = Rng::new(1);
        let mut p = Producer::default();
        // Offline: no leader.
        let b = brokers(-1, 1, &[2], &[]);
        let mut out = ProducerOut::default();
        p.send(
            1_000,
            &tp(),
            5,
            Acks::All,
            &b,
            &settings,
            &mut rng,
            &mut out,
        );
        assert!(out.sends.is_empty());
        let v = p.view(&settings);
        assert_eq!(
            (
                v.batches[0].waits,
                v.batches[0].broker,
                v.batches[0].until_ms
            ),
            (BatchWait::WaitingForLeader, None, Some(expired)),
            "{profile:?}"
        );
        let mut out = ProducerOut::default();
        p.poll(not_yet, &b, &settings, &mut rng, &mut out);
        assert_eq!(p.ledgers.get(&tp()).map_or(0, |l| l.failed_records), 0);
        p.poll(expired, &b, &settings, &mut rng, &mut out);
        assert_eq!(p.ledgers[&tp()].failed_records, 5, "{profile:?}");
        let ev = events(&out);
        assert_eq!(ev.len(), 1);
        assert!(ev[0].1.contains(error), "{profile:?}: {ev:?}");
    }
}

#[test]
fn acks_0_batches_wait_expire_and_are_done_once_sent() {
    let settings = Settings::for_profile(Profile::V3_9);
    let mut rng = Rng::new(1);
    let mut p = Producer::default();
    let b = brokers(2, 0, &[2], &[]);
    let mut out = ProducerOut::default();
    p.send(
        1_000,
        &tp(),
        3,
        Acks::Zero,
        &b,
        &settings,
        &mut rng,
        &mut out,
    );
    p.poll(121_000, &b, &settings, &mut rng, &mut out);
    assert_eq!(p.ledgers[&tp()].failed_records, 3);
    // Broker 3 leads now; the producer learns it when broker 2 refuses the connection.
    let b = brokers(3, 1, &[2], &[]);
    let mut out = ProducerOut::default();
    let now = 200_000;
    p.send(now, &tp(), 4, Acks::Zero, &b, &settings, &mut rng, &mut out);
    assert!(out.sends.is_empty());
    let wake = out.wake.expect("a wake-up");
    assert!(wake <= 200_120, "{wake}");
    let mut out = ProducerOut::default();
    p.on_wake(wake, wake, &b, &settings, &mut rng, &mut out);
    assert_eq!(sent(&out), vec![(3, 3, 4)]);
    assert!(out.timeouts.is_empty());
    assert!(p.view(&settings).batches.is_empty());
    let ev = events(&out);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].0, "produce_recovered");
    assert_eq!(p.ledgers[&tp()].acked_records, 0);
}
