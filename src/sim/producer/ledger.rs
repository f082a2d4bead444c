//! The ledger of acknowledged records and the detection of lost ones.
//!
//! The ledger remembers every acknowledged record by offset and the leader epoch it was written
//! in. After every step it compares them with the current leader's log: a record the leader no
//! longer has at that offset in that epoch is lost for good, and the cause is named (an unclean
//! election, truncation to the high watermark before 0.11 (`ReplicaFetcherThread`), acks=1).
//! An acks=all record lost without an unclean election breaks the guarantee KIP-101 restored.

use super::causes::ProducerCause;
use crate::collections::VecSet;
use crate::sim::cause::Cause;
use crate::sim::config::Profile;
use crate::sim::event::EventKind;
use crate::sim::log::Log;
use crate::sim::net::BrokerId;
use crate::sim::topic::{Acks, TopicPartition};

/// "Committed records survive": no acknowledged acks=all record is lost unless an unclean
/// election chose a leader that lacked it (KIP-101's whole point).
pub const ACKED_RECORDS_SURVIVE: &str = "acknowledged acks=all records survive";

/// An acknowledged run of records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Acked {
    pub(super) start: u64,
    pub(super) end: u64,
    pub(super) epoch: u64,
    pub(super) acks: Acks,
}

/// One partition's account.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ledger {
    pub(super) acked: Vec<Acked>,
    /// Records acknowledged.
    pub acked_records: u64,
    /// Records given up (an error not retried, or a timeout).
    pub failed_records: u64,
    /// Records sent again after an error (once per retry).
    pub retried_records: u64,
    /// Acknowledged records lost.
    pub lost_records: u64,
}

/// Where the records of a partition must still be: its current leader, in its leader epoch,
/// and the log that leader holds.
#[derive(Debug, Clone, Copy)]
pub(super) struct LeaderLog<'a> {
    /// The leader.
    pub(super) leader: BrokerId,
    /// Its leader epoch.
    pub(super) leader_epoch: u64,
    /// Its log.
    pub(super) log: &'a Log,
}

impl Ledger {
    /// `records` acknowledged at offset `base`, written in leader epoch `epoch` by client
    /// `acks`: they extend the last run when they follow it in the same epoch and client.
    pub(super) fn acknowledge(&mut self, base: u64, epoch: u64, records: u64, acks: Acks) {
        self.acked_records += records;
        match self.acked.last_mut() {
            Some(last) if last.end == base && last.epoch == epoch && last.acks == acks => {
                last.end = base + records
            }
            _ => self.acked.push(Acked {
                start: base,
                end: base + records,
                epoch,
                acks,
            }),
        }
    }

    /// Compares the acknowledged records of `tp` with its current leader's log: what the
    /// leader no longer holds at the same offsets in the same epoch is lost; it is counted,
    /// told in `events`, and an acks=all loss without an unclean election (`unclean`: the
    /// leader epochs won by unclean elections) is a violation of [`ACKED_RECORDS_SURVIVE`].
    pub(super) fn check_losses(
        &mut self,
        tp: &TopicPartition,
        now: LeaderLog<'_>,
        unclean: Option<&VecSet<u64>>,
        profile: Profile,
        events: &mut Vec<(EventKind, Cause)>,
        violations: &mut Vec<(String, String)>,
    ) {
        let LeaderLog {
            leader,
            leader_epoch,
            log,
        } = now;
        let mut kept = Vec::new();
        for a in std::mem::take(&mut self.acked) {
            // The part of the run the leader still holds in the same epoch.
            let held = log
                .runs_from(a.start)
                .into_iter()
                .find(|r| r.epoch == a.epoch)
                .map(|r| (r.start.max(a.start), r.end.min(a.end)))
                .filter(|(s, e)| s < e);
            let (lost_from, lost_to) = match held {
                Some((s, e)) if s == a.start && e == a.end => {
                    kept.push(a);
                    continue;
                }
                Some((s, e)) => {
                    if s > a.start {
                        (a.start, s)
                    } else {
                        kept.push(Acked { end: e, ..a });
                        (e, a.end)
                    }
                }
                None => (a.start, a.end),
            };
            let n = lost_to - lost_from;
            self.lost_records += n;
            let unclean =
                unclean.is_some_and(|eps| eps.iter().any(|e| *e > a.epoch && *e <= leader_epoch));
            let reason = if unclean {
                "an unclean leader election chose a replica that lacked them".to_string()
            } else if !profile.truncates_by_leader_epoch() {
                "a follower truncated them away at its high watermark and then became leader (before 0.11, KafkaTruncateToHighWatermark)".to_string()
            } else if a.acks == Acks::One {
                "acks=1: only the old leader had them when it lost leadership".to_string()
            } else {
                "acknowledged by every ISR member yet gone".to_string()
            };
            events.push((
                EventKind::RecordsLost {
                    partition: tp.to_string(),
                    from_offset: lost_from,
                    to_offset: lost_to,
                    records: n,
                    acks: a.acks.name().into(),
                    reason: reason.clone(),
                },
                ProducerCause::OffsetsGone {
                    leader,
                    leader_epoch,
                    acked_epoch: a.epoch,
                }
                .into(),
            ));
            if a.acks == Acks::All && !unclean {
                violations.push((
                    ACKED_RECORDS_SURVIVE.to_string(),
                    format!(
                        "{tp}: {n} acks=all record(s) at offsets {lost_from}..{lost_to} lost without an unclean election ({reason})"
                    ),
                ));
            }
        }
        self.acked = kept;
    }
}
