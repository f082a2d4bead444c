//! The producer client and the record ledger.
//!
//! The producer finds each partition's leader in the brokers' metadata caches (the newest
//! leader epoch any running broker has heard of), sends produce requests with `acks`, and
//! does not retry (`retries=0`), so every record is acknowledged at most once. A steady stream
//! sends a batch every [`TICK_MS`].
//!
//! The ledger remembers every acknowledged record by offset and the leader epoch it was
//! written in. After every step it compares them with the current leader's log: a record the
//! leader no longer has at that offset in that epoch is lost for good, and the cause is named
//! (an unclean election, truncation to the high watermark before 0.11, acks=1).

use super::broker::{Broker, BrokerStatus};
use super::config::Settings;
use super::event::EventKind;
use super::message::{Body, KafkaError};
use super::net::BrokerId;
use super::replication::Role;
use super::topic::{Acks, TopicPartition};
use std::collections::{BTreeMap, BTreeSet};

/// How often a steady stream sends a batch.
pub const TICK_MS: u64 = 100;

/// A steady stream of records to one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stream {
    /// The partition.
    pub tp: TopicPartition,
    /// acks.
    pub acks: Acks,
    /// Records per second.
    pub rate_per_s: u64,
    /// Stop at this time (`None`: when stopped, or when `left` runs out).
    pub until_ms: Option<u64>,
    /// Records still to send (`None`: no limit).
    pub left: Option<u64>,
    /// Fractions of records carried to the next tick, in thousandths.
    carry: u64,
}

/// A produce request waiting for its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
struct InFlight {
    tp: TopicPartition,
    acks: Acks,
    records: u64,
    sent_ms: u64,
}

/// An acknowledged run of records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Acked {
    start: u64,
    end: u64,
    epoch: u64,
    acks: Acks,
}

/// One partition's account.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ledger {
    acked: Vec<Acked>,
    /// Records acknowledged.
    pub acked_records: u64,
    /// Records that failed (error or timeout).
    pub failed_records: u64,
    /// Acknowledged records lost.
    pub lost_records: u64,
    /// The last reported outage: the error and the send times of its first and last failed
    /// requests.
    outage: Option<(String, u64, u64)>,
    /// Send times of acknowledged requests (to tell one outage from the next).
    ok_sent: BTreeSet<u64>,
}

/// The producer and the ledger.
#[derive(Debug, Clone, Default)]
pub struct Producer {
    /// Streams by id.
    pub streams: BTreeMap<u64, Stream>,
    next_stream: u64,
    in_flight: BTreeMap<u64, InFlight>,
    next_request: u64,
    /// Accounts by partition.
    pub ledgers: BTreeMap<TopicPartition, Ledger>,
    /// Leader epochs won by unclean elections, by partition.
    pub unclean: BTreeMap<TopicPartition, BTreeSet<u64>>,
    /// Whether acknowledgements arrived since the last loss check.
    new_acks: bool,
}

/// What the producer wants the world to do.
#[derive(Debug, Default)]
pub struct ProducerOut {
    /// (leader, request) to send from the client.
    pub sends: Vec<(BrokerId, Body)>,
    /// Client timers: (at, request id) for request timeouts.
    pub timeouts: Vec<(u64, u64)>,
    /// Events.
    pub events: Vec<(EventKind, String)>,
    /// Violations: (invariant, detail).
    pub violations: Vec<(String, String)>,
}

/// "Committed records survive": no acknowledged acks=all record is lost unless an unclean
/// election chose a leader that lacked it (KIP-101's whole point).
pub const ACKED_RECORDS_SURVIVE: &str = "acknowledged acks=all records survive";

impl Producer {
    /// Starts a stream; returns its id.
    pub fn start_stream(&mut self, stream: Stream) -> u64 {
        self.next_stream += 1;
        self.streams.insert(self.next_stream, stream);
        self.next_stream
    }

    /// A new stream description.
    pub fn stream(
        tp: TopicPartition,
        acks: Acks,
        rate_per_s: u64,
        until_ms: Option<u64>,
        left: Option<u64>,
    ) -> Stream {
        Stream {
            tp,
            acks,
            rate_per_s,
            until_ms,
            left,
            carry: 0,
        }
    }

    /// Stops every stream to `tp`; returns whether there was one.
    pub fn stop(&mut self, tp: &TopicPartition) -> bool {
        let before = self.streams.len();
        self.streams.retain(|_, s| s.tp != *tp);
        self.streams.len() != before
    }

    /// The leader of `tp` as the brokers' metadata caches say (the newest leader epoch).
    fn leader_of(brokers: &BTreeMap<BrokerId, Broker>, tp: &TopicPartition) -> Option<BrokerId> {
        brokers
            .values()
            .filter(|b| matches!(b.status, BrokerStatus::Running | BrokerStatus::ShuttingDown))
            .filter_map(|b| b.metadata_partitions.get(tp))
            .max_by_key(|p| p.leader_epoch)
            .and_then(|p| BrokerId::try_from(p.leader).ok())
    }

    /// Sends one batch now.
    #[allow(clippy::too_many_arguments)]
    pub fn send(
        &mut self,
        now: u64,
        tp: &TopicPartition,
        records: u64,
        acks: Acks,
        brokers: &BTreeMap<BrokerId, Broker>,
        settings: &Settings,
        out: &mut ProducerOut,
    ) {
        if records == 0 {
            return;
        }
        let Some(leader) = Self::leader_of(brokers, tp) else {
            self.failed(tp, records, now, KafkaError::LeaderNotAvailable.name(), out);
            return;
        };
        self.next_request += 1;
        let request = self.next_request;
        out.sends.push((
            leader,
            Body::Produce {
                request,
                tp: tp.clone(),
                records,
                acks,
            },
        ));
        if acks != Acks::Zero {
            self.in_flight.insert(
                request,
                InFlight {
                    tp: tp.clone(),
                    acks,
                    records,
                    sent_ms: now,
                },
            );
            // The client gives up a little after the broker would have answered.
            out.timeouts
                .push((now + settings.request_timeout_ms + 1_000, request));
        }
    }

    /// One tick of stream `id`; returns whether it goes on.
    pub fn tick(
        &mut self,
        now: u64,
        id: u64,
        brokers: &BTreeMap<BrokerId, Broker>,
        settings: &Settings,
        out: &mut ProducerOut,
    ) -> bool {
        let Some(s) = self.streams.get_mut(&id) else {
            return false;
        };
        if s.until_ms.is_some_and(|u| now >= u) || s.left == Some(0) {
            let tp = s.tp.clone();
            self.streams.remove(&id);
            out.events.push((
                EventKind::ProducerStopped {
                    partition: tp.to_string(),
                },
                "the stream's duration or record count is done".into(),
            ));
            return false;
        }
        let total = s.rate_per_s * TICK_MS + s.carry;
        let mut n = total / 1000;
        s.carry = total % 1000;
        if let Some(left) = s.left.as_mut() {
            n = n.min(*left);
            *left -= n;
        }
        let (tp, acks) = (s.tp.clone(), s.acks);
        self.send(now, &tp, n, acks, brokers, settings, out);
        true
    }

    /// A produce response.
    pub fn on_response(
        &mut self,
        request: u64,
        result: Result<(u64, u64), KafkaError>,
        out: &mut ProducerOut,
    ) {
        let Some(f) = self.in_flight.remove(&request) else {
            return;
        };
        match result {
            Ok((base, epoch)) => {
                let ledger = self.ledgers.entry(f.tp.clone()).or_default();
                ledger.acked_records += f.records;
                match ledger.acked.last_mut() {
                    Some(last)
                        if last.end == base && last.epoch == epoch && last.acks == f.acks =>
                    {
                        last.end = base + f.records
                    }
                    _ => ledger.acked.push(Acked {
                        start: base,
                        end: base + f.records,
                        epoch,
                        acks: f.acks,
                    }),
                }
                ledger.ok_sent.insert(f.sent_ms);
                self.new_acks = true;
            }
            Err(e) => self.failed(&f.tp, f.records, f.sent_ms, e.name(), out),
        }
    }

    /// The client's own timeout for a request that got no answer.
    pub fn on_timeout(&mut self, request: u64, out: &mut ProducerOut) {
        if let Some(f) = self.in_flight.remove(&request) {
            self.failed(
                &f.tp,
                f.records,
                f.sent_ms,
                "no answer within request.timeout.ms",
                out,
            );
        }
    }

    fn failed(
        &mut self,
        tp: &TopicPartition,
        records: u64,
        sent_ms: u64,
        error: &str,
        out: &mut ProducerOut,
    ) {
        let ledger = self.ledgers.entry(tp.clone()).or_default();
        ledger.failed_records += records;
        // One outage: failed requests with no acknowledged request sent between them.
        if let Some((e, first, last)) = ledger.outage.as_mut() {
            let (lo, hi) = ((*last).min(sent_ms), (*last).max(sent_ms));
            let ok_between = ledger.ok_sent.range(lo..=hi).next().is_some();
            if !ok_between && *e == error {
                *first = (*first).min(sent_ms);
                *last = (*last).max(sent_ms);
                return;
            }
        }
        ledger.outage = Some((error.to_string(), sent_ms, sent_ms));
        let first = true;
        if first {
            let cause = match error {
                "NOT_ENOUGH_REPLICAS" => "acks=all and the ISR is smaller than min.insync.replicas: the leader refuses the write and appends nothing",
                "NOT_ENOUGH_REPLICAS_AFTER_APPEND" => "the ISR fell below min.insync.replicas while the write waited for the followers: appended but not acknowledged",
                "NOT_LEADER_OR_FOLLOWER" => "the broker the producer's metadata named is no longer the leader",
                "LEADER_NOT_AVAILABLE" => "no broker knows a leader for the partition: it is offline",
                "REQUEST_TIMED_OUT" => "acks=all: the followers did not catch up within request.timeout.ms",
                _ => "the request got no answer (its broker is down or cut off)",
            };
            out.events.push((
                EventKind::ProduceFailed {
                    partition: tp.to_string(),
                    error: error.to_string(),
                    records,
                },
                format!("{cause}; the producer does not retry (retries=0)"),
            ));
        }
    }

    /// Whether acknowledgements arrived since the last call.
    pub fn take_new_acks(&mut self) -> bool {
        std::mem::take(&mut self.new_acks)
    }

    /// Compares the acknowledged records with each partition's current leader log.
    pub fn check_losses(
        &mut self,
        brokers: &BTreeMap<BrokerId, Broker>,
        leaders: &BTreeMap<TopicPartition, (BrokerId, u64)>,
        settings: &Settings,
        out: &mut ProducerOut,
    ) {
        for (tp, ledger) in self.ledgers.iter_mut() {
            let Some(&(leader, leader_epoch)) = leaders.get(tp) else {
                continue;
            };
            let Some(log) = brokers.get(&leader).and_then(|b| {
                let r = b.replicas.get(tp)?;
                let st = r.state.as_ref()?;
                (st.leader_epoch == leader_epoch && matches!(st.role, Role::Leader(_)))
                    .then_some(&r.log)
            }) else {
                continue;
            };
            let mut kept = Vec::new();
            for a in std::mem::take(&mut ledger.acked) {
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
                ledger.lost_records += n;
                let unclean = self
                    .unclean
                    .get(tp)
                    .is_some_and(|eps| eps.iter().any(|e| *e > a.epoch && *e <= leader_epoch));
                let reason = if unclean {
                    "an unclean leader election chose a replica that lacked them".to_string()
                } else if !settings.profile.truncates_by_leader_epoch() {
                    "a follower truncated them away at its high watermark and then became leader (before 0.11, KafkaTruncateToHighWatermark)".to_string()
                } else if a.acks == Acks::One {
                    "acks=1: only the old leader had them when it lost leadership".to_string()
                } else {
                    "acknowledged by every ISR member yet gone".to_string()
                };
                out.events.push((
                    EventKind::RecordsLost {
                        partition: tp.to_string(),
                        from_offset: lost_from,
                        to_offset: lost_to,
                        records: n,
                        acks: a.acks.name().into(),
                        reason: reason.clone(),
                    },
                    format!("leader {leader} (leader epoch {leader_epoch}) does not hold these offsets from leader epoch {}", a.epoch),
                ));
                if a.acks == Acks::All && !unclean {
                    out.violations.push((
                        ACKED_RECORDS_SURVIVE.to_string(),
                        format!(
                            "{tp}: {n} acks=all record(s) at offsets {lost_from}..{lost_to} lost without an unclean election ({reason})"
                        ),
                    ));
                }
            }
            ledger.acked = kept;
        }
    }
}
