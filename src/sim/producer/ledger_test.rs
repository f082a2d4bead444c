//! The ledger: acknowledgements merge into runs, and one loss check against a leader's log
//! gives the exact lost offsets, event and violation.

use super::causes::ProducerCause;
use super::ledger::{Acked, LeaderLog, Ledger, ACKED_RECORDS_SURVIVE};
use crate::collections::VecSet;
use crate::sim::cause::Cause;
use crate::sim::config::Profile;
use crate::sim::event::EventKind;
use crate::sim::log::Log;
use crate::sim::topic::{Acks, TopicPartition};

fn tp() -> TopicPartition {
    TopicPartition::new("orders", 0)
}

/// A ledger that acknowledged offsets 0..5 (leader epoch 0) and 5..8 (leader epoch 1) of
/// client `acks`.
fn ledger(acks: Acks) -> Ledger {
    let mut l = Ledger::default();
    l.acknowledge(0, 0, 5, acks);
    l.acknowledge(5, 1, 3, acks);
    l
}

/// A log with offsets 0..5 in leader epoch 0, then `rest` records in leader epoch `epoch`.
fn log(epoch: u64, rest: u64) -> Log {
    let mut log = Log::default();
    log.append(0, 5);
    log.append(epoch, rest);
    log
}

struct Checked {
    events: Vec<(EventKind, Cause)>,
    violations: Vec<(String, String)>,
}

fn check(
    l: &mut Ledger,
    log: &Log,
    leader_epoch: u64,
    unclean: Option<&VecSet<u64>>,
    profile: Profile,
) -> Checked {
    let mut c = Checked {
        events: Vec::new(),
        violations: Vec::new(),
    };
    let now = LeaderLog {
        leader: 3,
        leader_epoch,
        log,
    };
    l.check_losses(
        &tp(),
        now,
        unclean,
        profile,
        &mut c.events,
        &mut c.violations,
    );
    c
}

#[test]
fn acknowledgements_that_follow_each_other_in_one_epoch_make_one_run() {
    let mut l = Ledger::default();
    l.acknowledge(0, 0, 2, Acks::All);
    l.acknowledge(2, 0, 3, Acks::All);
    // Another epoch, a gap, another client: new runs.
    l.acknowledge(5, 1, 1, Acks::All);
    l.acknowledge(7, 1, 1, Acks::All);
    l.acknowledge(8, 1, 1, Acks::One);
    let run = |start, end, epoch, acks| Acked {
        start,
        end,
        epoch,
        acks,
    };
    assert_eq!(
        l.acked,
        vec![
            run(0, 5, 0, Acks::All),
            run(5, 6, 1, Acks::All),
            run(7, 8, 1, Acks::All),
            run(8, 9, 1, Acks::One),
        ]
    );
    assert_eq!(
        (l.acked_records, l.lost_records, l.failed_records),
        (8, 0, 0)
    );
}

#[test]
fn records_the_leader_still_holds_in_their_epoch_are_not_lost() {
    let mut l = ledger(Acks::All);
    let c = check(&mut l, &log(1, 3), 1, None, Profile::V3_9);
    assert!(c.events.is_empty() && c.violations.is_empty());
    assert_eq!(l.lost_records, 0);
    assert_eq!(l.acked.len(), 2);
}

#[test]
fn acks_all_records_lost_without_an_unclean_election_break_the_guarantee() {
    let mut l = ledger(Acks::All);
    // The new leader (epoch 2) wrote other records at offsets 5..8.
    let c = check(&mut l, &log(2, 3), 2, None, Profile::V3_9);
    let reason = "acknowledged by every ISR member yet gone".to_string();
    assert_eq!(
        c.events,
        vec![(
            EventKind::RecordsLost {
                partition: "orders-0".into(),
                from_offset: 5,
                to_offset: 8,
                records: 3,
                acks: "all".into(),
                reason: reason.clone(),
            },
            ProducerCause::OffsetsGone {
                leader: 3,
                leader_epoch: 2,
                acked_epoch: 1
            }
            .into()
        )]
    );
    assert_eq!(
        c.violations,
        vec![(
            ACKED_RECORDS_SURVIVE.to_string(),
            format!("orders-0: 3 acks=all record(s) at offsets 5..8 lost without an unclean election ({reason})")
        )]
    );
    assert_eq!(l.lost_records, 3);
    // The lost run is forgotten: the next check finds nothing more.
    assert_eq!(
        l.acked,
        vec![Acked {
            start: 0,
            end: 5,
            epoch: 0,
            acks: Acks::All
        }]
    );
    let again = check(&mut l, &log(2, 3), 2, None, Profile::V3_9);
    assert!(again.events.is_empty());
}

#[test]
fn a_loss_is_named_by_its_cause() {
    let lost = |acks, unclean: Option<&VecSet<u64>>, profile| {
        let mut l = ledger(acks);
        let c = check(&mut l, &log(2, 1), 2, unclean, profile);
        let reason = match &c.events[..] {
            [(
                EventKind::RecordsLost {
                    from_offset: 5,
                    to_offset: 8,
                    records: 3,
                    reason,
                    ..
                },
                _,
            )] => reason.clone(),
            other => panic!("{other:?}"),
        };
        (reason, c.violations.len())
    };
    let unclean: VecSet<u64> = [2].into();
    assert_eq!(
        lost(Acks::All, Some(&unclean), Profile::V3_9),
        (
            "an unclean leader election chose a replica that lacked them".to_string(),
            0
        )
    );
    // An unclean election of an older epoch is not the cause.
    let older: VecSet<u64> = [1].into();
    assert_eq!(lost(Acks::All, Some(&older), Profile::V3_9).1, 1);
    assert_eq!(
        lost(Acks::All, None, Profile::V0_10),
        ("a follower truncated them away at its high watermark and then became leader (before 0.11, KafkaTruncateToHighWatermark)".to_string(), 1)
    );
    assert_eq!(
        lost(Acks::One, None, Profile::V3_9),
        (
            "acks=1: only the old leader had them when it lost leadership".to_string(),
            0
        )
    );
}

#[test]
fn a_run_cut_short_keeps_what_the_leader_holds() {
    let mut l = Ledger::default();
    l.acknowledge(0, 0, 8, Acks::All);
    // The leader holds only offsets 0..5 of epoch 0; 5..8 are lost.
    let c = check(&mut l, &log(2, 3), 2, None, Profile::V3_9);
    assert_eq!(c.events.len(), 1);
    assert!(matches!(
        c.events[0].0,
        EventKind::RecordsLost {
            from_offset: 5,
            to_offset: 8,
            records: 3,
            ..
        }
    ));
    assert_eq!(
        l.acked,
        vec![Acked {
            start: 0,
            end: 5,
            epoch: 0,
            acks: Acks::All
        }]
    );
}
