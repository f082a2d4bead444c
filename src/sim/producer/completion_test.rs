//! Retries: an idempotent producer resends a retried batch alone and in order, without
//! idempotence the retries go out together, and a retried batch is written twice without
//! idempotence and once with it.

use super::harness::{brokers, crash, events, replicated_world, sent, tp};
use super::ledger::Acked;
use super::{Producer, ProducerOut};
use crate::sim::config::{Profile, Settings};
use crate::sim::rng::Rng;
use crate::sim::topic::Acks;
use crate::sim::Command;

#[test]
fn an_idempotent_producer_resends_a_retried_batch_alone_and_in_order() {
    let settings = Settings::for_profile(Profile::V3_9);
    let mut rng = Rng::new(3);
    let mut p = Producer::default();
    let mut b = brokers(2, 0, &[], &[]);
    for i in 0..3 {
        let mut out = ProducerOut::default();
        p.send(
            1_000 + i,
            &tp(),
            2,
            Acks::All,
            &b,
            &settings,
            &mut rng,
            &mut out,
        );
    }
    crash(&mut b, 2);
    let mut out = ProducerOut::default();
    p.check_connections(1_010, &b, &settings, &mut rng, &mut out);
    assert_eq!(events(&out).len(), 1);
    // Broker 3 leads; the first retried batch goes alone, the next once it is answered.
    let b = brokers(3, 1, &[2], &[]);
    let mut now = 1_010;
    let mut wake = out.wake.expect("a wake-up");
    let mut first = Vec::new();
    for _ in 0..20 {
        now = wake;
        let mut o = ProducerOut::default();
        p.on_wake(now, wake, &b, &settings, &mut rng, &mut o);
        if !o.sends.is_empty() {
            first = sent(&o);
            break;
        }
        wake = o.wake.expect("a wake-up");
    }
    assert_eq!(first, vec![(3, 0, 2)]);
    let mut o = ProducerOut::default();
    p.on_response(now + 5, 4, Ok((0, 0)), &b, &settings, &mut rng, &mut o);
    assert_eq!(sent(&o), vec![(3, 2, 2)]);
    // The answer names the original offset and leader epoch: the ledger keeps them.
    assert_eq!(
        p.ledgers[&tp()].acked,
        vec![Acked {
            start: 0,
            end: 2,
            epoch: 0,
            acks: Acks::All
        }]
    );
    let ev = events(&o);
    assert_eq!(ev[0].0, "produce_recovered");
}

#[test]
fn without_idempotence_the_retries_go_out_together() {
    let settings = Settings::for_profile(Profile::V2_4);
    let mut rng = Rng::new(3);
    let mut p = Producer::default();
    let mut b = brokers(2, 0, &[], &[]);
    for i in 0..3 {
        let mut out = ProducerOut::default();
        p.send(
            1_000 + i,
            &tp(),
            2,
            Acks::All,
            &b,
            &settings,
            &mut rng,
            &mut out,
        );
    }
    crash(&mut b, 2);
    let mut out = ProducerOut::default();
    p.check_connections(1_010, &b, &settings, &mut rng, &mut out);
    let b = brokers(3, 1, &[2], &[]);
    // 2.4: a flat retry.backoff.ms of 100 and metadata refreshes 100 ms apart.
    let mut o = ProducerOut::default();
    p.poll(1_110, &b, &settings, &mut rng, &mut o);
    assert_eq!(sent(&o), vec![(3, 0, 2), (3, 2, 2), (3, 4, 2)]);
}

#[test]
fn a_retry_of_a_replicated_batch_is_written_twice_without_idempotence_and_once_with_it() {
    for (profile, leo, dup, kind) in [
        (Profile::V2_4, 10, 5, "duplicate_written"),
        (Profile::V3_9, 5, 0, "duplicate_dropped"),
    ] {
        let mut w = replicated_world(profile);
        w.advance_to(2_000);
        w.apply(Command::Produce {
            topic: "T".into(),
            partition: 0,
            records: Some(5),
            acks: Acks::All,
            rate_per_s: None,
            for_ms: None,
        })
        .unwrap();
        w.advance_to(2_050);
        assert_eq!(w.state().partitions["T-0"].log_end_offsets[&3], 5);
        w.apply(Command::Crash(2)).unwrap();
        w.advance_to(60_000);
        let s = w.state();
        let p = &s.partitions["T-0"];
        assert_eq!(p.leader, 3, "{profile:?}");
        assert_eq!(
            (p.log_end_offsets[&3], p.duplicate_records, p.acked_records),
            (leo, dup, 5),
            "{profile:?}"
        );
        assert_eq!((p.retried_records, p.failed_records), (5, 0));
        let found: Vec<String> = w
            .events()
            .iter()
            .filter(|e| e.kind.name() == kind)
            .map(|e| e.kind.to_string())
            .collect();
        assert_eq!(found.len(), 1, "{profile:?}: {found:?}");
        if dup > 0 {
            assert!(
                found[0].contains("offsets 5..10 (first copy at 0)"),
                "{found:?}"
            );
        } else {
            assert!(found[0].contains("at offset 0"), "{found:?}");
        }
        assert!(s.violations.is_empty(), "{:?}", s.violations);
    }
}
