//! Connections: a refused one keeps the batch waiting for the next leader, a reset one fails
//! or retries its requests, a frozen leader's requests wait for `request.timeout.ms`.

use super::errors::{NETWORK_EXCEPTION, REQUEST_TIMED_OUT};
use super::harness::{brokers, crash, events, sent, tp};
use super::{Producer, ProducerOut};
use crate::sim::config::{Profile, Settings};
use crate::sim::rng::Rng;
use crate::sim::state::BatchWait;
use crate::sim::topic::Acks;

#[test]
fn a_batch_for_a_dead_leader_waits_and_goes_to_the_next_leader() {
    let settings = Settings::for_profile(Profile::V3_9);
    let mut rng = Rng::new(1);
    let mut p = Producer::default();
    let mut b = brokers(2, 0, &[2], &[]);
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
    // The connection is refused: nothing goes out, nothing fails, it waits.
    assert!(out.sends.is_empty());
    assert!(out.events.is_empty());
    let v = p.view(&settings);
    assert_eq!(v.batches.len(), 1);
    assert_eq!(
        (
            v.batches[0].waits,
            v.batches[0].broker,
            v.batches[0].until_ms,
            v.batches[0].attempt
        ),
        (BatchWait::WaitingForLeader, Some(2), Some(121_000), 1)
    );
    // The controller elects broker 3; the producer sees it at its next metadata refresh,
    // within its backoff (100 ms, ±20 %).
    b = brokers(3, 1, &[2], &[]);
    let mut wake = out.wake.expect("a wake-up");
    let mut now = wake;
    for _ in 0..10 {
        let mut o = ProducerOut::default();
        p.on_wake(now, wake, &b, &settings, &mut rng, &mut o);
        if !o.sends.is_empty() {
            assert_eq!(sent(&o), vec![(3, 0, 5)]);
            break;
        }
        wake = o.wake.expect("still waiting, so a wake-up");
        now = wake;
    }
    assert!(now <= 1_200, "sent at {now}");
    assert!(!p.ledgers.contains_key(&tp()), "nothing failed or retried");
    assert_eq!(p.view(&settings).batches[0].waits, BatchWait::InFlight);
}

#[test]
fn a_reset_connection_fails_the_batch_before_2_1_and_retries_it_after() {
    for (profile, kind, failed, retried) in [
        (Profile::V0_10, "produce_failed", 5, 0),
        (Profile::V2_0, "produce_failed", 5, 0),
        (Profile::V2_4, "produce_retrying", 0, 5),
        (Profile::V3_9, "produce_retrying", 0, 5),
    ] {
        let settings = Settings::for_profile(profile);
        let mut rng = Rng::new(1);
        let mut p = Producer::default();
        let mut b = brokers(2, 0, &[], &[]);
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
        assert_eq!(sent(&out), vec![(2, 0, 5)]);
        assert_eq!(out.timeouts.len(), 1);
        // Nothing changed: no reset.
        let mut out = ProducerOut::default();
        assert!(!p.check_connections(1_001, &b, &settings, &mut rng, &mut out));
        crash(&mut b, 2);
        let mut out = ProducerOut::default();
        assert!(p.check_connections(1_002, &b, &settings, &mut rng, &mut out));
        let ev = events(&out);
        assert_eq!(ev.len(), 1, "{profile:?}: {ev:?}");
        assert_eq!(ev[0].0, kind, "{profile:?}");
        assert!(ev[0].1.contains("NETWORK_EXCEPTION"), "{ev:?}");
        let l = &p.ledgers[&tp()];
        assert_eq!(
            (l.failed_records, l.retried_records, l.acked_records),
            (failed, retried, 0),
            "{profile:?}"
        );
        // Nothing is sent to the dead broker again.
        assert!(out.sends.is_empty());
        let v = p.view(&settings);
        if retried > 0 {
            assert_eq!(
                (v.batches[0].attempt, v.batches[0].error, v.batches[0].waits),
                (2, Some(NETWORK_EXCEPTION), BatchWait::RetryBackoff),
                "{profile:?}"
            );
        } else {
            assert!(v.batches.is_empty(), "{profile:?}: {v:?}");
        }
    }
}

#[test]
fn a_frozen_leader_holds_five_requests_until_the_request_timeout_closes_the_connection() {
    for (profile, error) in [
        (Profile::V2_4, NETWORK_EXCEPTION),
        (Profile::V3_9, REQUEST_TIMED_OUT),
    ] {
        let settings = Settings::for_profile(profile);
        let mut rng = Rng::new(1);
        let mut p = Producer::default();
        let b = brokers(2, 0, &[], &[2]);
        let mut requests = Vec::new();
        for i in 0..7 {
            let mut out = ProducerOut::default();
            p.send(
                1_000 + i * 100,
                &tp(),
                2,
                Acks::All,
                &b,
                &settings,
                &mut rng,
                &mut out,
            );
            requests.extend(out.timeouts.iter().map(|(at, r)| (*at, *r)));
        }
        // max.in.flight.requests.per.connection = 5: two batches wait behind them.
        assert_eq!(requests.len(), 5);
        assert_eq!(requests[0], (31_000, 1));
        let v = p.view(&settings);
        assert_eq!(
            v.batches
                .iter()
                .map(|x| (x.waits, x.batches, x.records))
                .collect::<Vec<_>>(),
            vec![(BatchWait::InFlight, 5, 10), (BatchWait::Queued, 2, 4)]
        );
        let mut out = ProducerOut::default();
        p.on_request_timeout(31_000, 1, &b, &settings, &mut rng, &mut out);
        // One event for the five requests that failed together.
        let ev = events(&out);
        assert_eq!(ev.len(), 1, "{ev:?}");
        assert!(
            ev[0].0 == "produce_retrying" && ev[0].1.contains(error),
            "{profile:?}: {ev:?}"
        );
        assert_eq!(p.ledgers[&tp()].retried_records, 10);
        // The other timers of the closed connection find nothing left.
        let mut later = ProducerOut::default();
        p.on_request_timeout(31_100, 2, &b, &settings, &mut rng, &mut later);
        assert!(later.events.is_empty());
    }
}
