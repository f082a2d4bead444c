//! Measuring a probe on a run: the value at the probe's time (from the state object, or from
//! the events in the probe's window) and the event that decided it.
//!
//! For a state probe, the deciding event is the one that gave the field its value: among the
//! events that write the field (a `leader_elected` writes a partition's leader, ISR and leader
//! epoch; an `isr_shrunk` its ISR...), the latest that wrote the value the state holds, and
//! before it every earlier one that wrote the same value without a change in between; the
//! earliest of that stretch decided it. (Under AlterPartition, 3.9, the controller's
//! `isr_change_accepted` and the leader's `isr_shrunk` or `isr_expanded` carry the same ISR:
//! the leader's, which says why, is preferred.) For an event probe it is the first matching
//! event; when none matched (`event_happened` gives no, `event_time` with `"never": true`
//! gives never), no event decided it: the probe's checkpoint did.

use super::{GroupField, Measure, Measured, PartitionField, TimeUnit};
use crate::scenario::pattern_matches;
use crate::sim::history::History;
use crate::sim::{BrokerId, ClusterState, Event, EventKind};

/// The value a probe measures at `at_ms` and the index of the event that decided it; `Err`
/// says why the run cannot decide it.
pub(super) fn measure(
    measure: &Measure,
    at_ms: u64,
    state: &ClusterState,
    events: &History<Event>,
) -> Result<(Measured, Option<usize>), String> {
    let evs: Vec<(usize, &Event)> = events
        .iter()
        .enumerate()
        .take_while(|(_, e)| e.time_ms <= at_ms)
        .collect();
    match measure {
        Measure::Controller => {
            let c = state.controller.ok_or_else(|| {
                format!("at {at_ms} ms there is no controller (/controller does not exist), so the run gives no broker")
            })?;
            let decider = decided(&evs, &c, |k| match k {
                EventKind::ControllerElected { broker, .. } => Some(*broker),
                _ => None,
            })
            .or_else(|| {
                decided(&evs, &c, |k| match k {
                    EventKind::ControllerZnodeCreated { broker } => Some(*broker),
                    _ => None,
                })
            });
            Ok((Measured::Broker(c), decider))
        }
        Measure::ControllerEpoch => {
            let epoch = state.controller_epoch;
            let decider = decided(&evs, &epoch, |k| match k {
                EventKind::ControllerElected { epoch, .. } => Some(*epoch),
                _ => None,
            });
            Ok((Measured::Number(epoch as f64), decider))
        }
        Measure::Partition { partition, field } => {
            partition_field(partition, *field, at_ms, state, &evs)
        }
        Measure::Group { group, field } => group_field(group, *field, at_ms, state, &evs),
        Measure::EventTime {
            event,
            from_ms,
            unit,
            never,
        } => {
            let found = first_match(&evs, event, *from_ms);
            if found.is_none() && *never {
                // Nothing matched by the checkpoint, and the lesson offers "it does not
                // happen": that is the answer, decided by the checkpoint itself.
                return Ok((Measured::Never, None));
            }
            let (i, e) = found.ok_or_else(|| {
                format!(
                    "no event matching {} happened after {from_ms} ms and by {at_ms} ms, so the run gives no time (when \"it does not happen\" is the answer, give the probe \"never\": true)",
                    serde_json::Value::Object(event.clone())
                )
            })?;
            let ms = e.time_ms - from_ms;
            let value = match unit {
                TimeUnit::Seconds => ms as f64 / 1000.0,
                TimeUnit::Milliseconds => ms as f64,
            };
            Ok((Measured::Number(value), Some(i)))
        }
        Measure::EventHappened { event, from_ms } => {
            let found = first_match(&evs, event, *from_ms).map(|(i, _)| i);
            Ok((Measured::YesNo(found.is_some()), found))
        }
    }
}

fn partition_field(
    name: &str,
    field: PartitionField,
    at_ms: u64,
    state: &ClusterState,
    evs: &[(usize, &Event)],
) -> Result<(Measured, Option<usize>), String> {
    let p = state
        .partitions
        .get(name)
        .filter(|p| p.exists)
        .ok_or_else(|| {
            format!("at {at_ms} ms {name} does not exist yet (the controller has not created it)")
        })?;
    let of = |e: &EventKind| -> bool {
        match e {
            EventKind::LeaderElected { partition, .. }
            | EventKind::LeaderEpochBumped { partition, .. }
            | EventKind::PartitionOffline { partition, .. }
            | EventKind::LeaderElectionFailed { partition, .. }
            | EventKind::IsrShrunk { partition, .. }
            | EventKind::IsrExpanded { partition, .. }
            | EventKind::IsrChangeAccepted { partition, .. }
            | EventKind::RecordsLost { partition, .. } => partition == name,
            _ => false,
        }
    };
    match field {
        PartitionField::Leader => {
            let leader = BrokerId::try_from(p.leader).map_err(|_| {
                format!(
                    "at {at_ms} ms {name} is offline (leader -1): it has no leader to ask about"
                )
            })?;
            let decider = decided(evs, &p.leader, |k| match k {
                EventKind::LeaderElected { leader, .. }
                | EventKind::LeaderEpochBumped { leader, .. }
                    if of(k) =>
                {
                    Some(*leader)
                }
                EventKind::PartitionOffline { .. } if of(k) => Some(-1),
                _ => None,
            });
            Ok((Measured::Broker(leader), decider))
        }
        PartitionField::Isr => {
            let mut isr = p.isr.clone();
            crate::collections::sort(&mut isr);
            let carried = |k: &EventKind, accepted: bool| -> Option<Vec<BrokerId>> {
                let isr = match k {
                    _ if !of(k) => return None,
                    EventKind::LeaderElected { isr, .. }
                    | EventKind::LeaderEpochBumped { isr, .. }
                    | EventKind::PartitionOffline { isr, .. }
                    | EventKind::LeaderElectionFailed { isr, .. }
                    | EventKind::IsrShrunk { isr, .. }
                    | EventKind::IsrExpanded { isr, .. } => isr,
                    EventKind::IsrChangeAccepted { isr, .. } if accepted => isr,
                    _ => return None,
                };
                let mut set = isr.clone();
                crate::collections::sort(&mut set);
                Some(set)
            };
            let decider = decided(evs, &isr, |k| carried(k, false))
                .or_else(|| decided(evs, &isr, |k| carried(k, true)));
            Ok((Measured::Brokers(isr), decider))
        }
        PartitionField::LeaderEpoch => {
            let decider = decided(evs, &p.leader_epoch, |k| match k {
                _ if !of(k) => None,
                EventKind::LeaderElected { leader_epoch, .. }
                | EventKind::LeaderEpochBumped { leader_epoch, .. }
                | EventKind::PartitionOffline { leader_epoch, .. }
                | EventKind::IsrShrunk { leader_epoch, .. }
                | EventKind::IsrExpanded { leader_epoch, .. } => Some(*leader_epoch),
                _ => None,
            });
            Ok((Measured::Number(p.leader_epoch as f64), decider))
        }
        PartitionField::HighWatermark => Ok((Measured::Number(p.high_watermark as f64), None)),
        PartitionField::AckedRecords => Ok((Measured::Number(p.acked_records as f64), None)),
        PartitionField::LostRecords => {
            let lost = state.lost_records.get(name).copied().unwrap_or(0);
            let decider = if lost == 0 {
                None
            } else {
                evs.iter()
                    .rev()
                    .find(|(_, e)| matches!(e.kind, EventKind::RecordsLost { .. }) && of(&e.kind))
                    .map(|(i, _)| *i)
            };
            Ok((Measured::Number(lost as f64), decider))
        }
    }
}

fn group_field(
    name: &str,
    field: GroupField,
    at_ms: u64,
    state: &ClusterState,
    evs: &[(usize, &Event)],
) -> Result<(Measured, Option<usize>), String> {
    let g = state
        .groups
        .get(name)
        .ok_or_else(|| format!("at {at_ms} ms there is no group {name}"))?;
    let held = || {
        g.state.is_some().then_some(()).ok_or_else(|| {
            format!("at {at_ms} ms no coordinator holds {name} (no consumer has joined yet, or its coordinator is down)")
        })
    };
    match field {
        GroupField::Leader => {
            held()?;
            let leader = g
                .leader
                .clone()
                .ok_or_else(|| format!("at {at_ms} ms {name} has no leader (it has no members)"))?;
            // The first member added leads at once (`GroupMetadata.add`); the leader a
            // generation completes with is announced by `group_leader_chosen`.
            let decider = decided(evs, &leader, |k| match k {
                EventKind::GroupLeaderChosen { group, member, .. } if group == name => {
                    Some(member.clone())
                }
                _ => None,
            })
            .or_else(|| {
                decided(evs, &leader, |k| match k {
                    EventKind::GroupMemberJoined { group, member, .. } if group == name => {
                        Some(member.clone())
                    }
                    _ => None,
                })
            });
            Ok((Measured::Member(leader), decider))
        }
        GroupField::Generation => {
            held()?;
            let decider = decided(evs, &g.generation, |k| match k {
                EventKind::GroupLeaderChosen {
                    group, generation, ..
                }
                | EventKind::GroupStable {
                    group, generation, ..
                }
                | EventKind::GroupEmpty {
                    group, generation, ..
                }
                | EventKind::CoordinatorMoved {
                    group, generation, ..
                } if group == name => Some(*generation),
                _ => None,
            });
            Ok((Measured::Number(g.generation as f64), decider))
        }
        GroupField::Coordinator => {
            let c = g.coordinator.ok_or_else(|| {
                format!("at {at_ms} ms no broker coordinates {name} (no consumer has joined yet, or the leader of its __consumer_offsets partition is down)")
            })?;
            // The coordinator is the leader of the group's __consumer_offsets partition: the
            // election of that leader decided it (or, after a failover, the move).
            let offsets = format!("__consumer_offsets-{}", g.coordinator_partition);
            let decider = decided(evs, &i64::from(c), |k| match k {
                EventKind::CoordinatorMoved { group, broker, .. } if group == name => {
                    Some(i64::from(*broker))
                }
                EventKind::LeaderElected {
                    partition, leader, ..
                }
                | EventKind::LeaderEpochBumped {
                    partition, leader, ..
                } if *partition == offsets => Some(*leader),
                EventKind::PartitionOffline { partition, .. } if *partition == offsets => Some(-1),
                _ => None,
            });
            Ok((Measured::Broker(c), decider))
        }
    }
}

/// The event that gave a field the value `value`: `carried` says which events write the field
/// and with what. The latest event that wrote `value`, moved back over the earlier events
/// that wrote the same value with no other value in between.
fn decided<T: PartialEq>(
    evs: &[(usize, &Event)],
    value: &T,
    carried: impl Fn(&EventKind) -> Option<T>,
) -> Option<usize> {
    let mut found = None;
    for (i, e) in evs.iter().rev() {
        match carried(&e.kind) {
            Some(v) if v == *value => found = Some(*i),
            Some(_) if found.is_some() => break,
            _ => {}
        }
    }
    found
}

/// The first event after `from_ms` matching `pattern`.
fn first_match<'a>(
    evs: &[(usize, &'a Event)],
    pattern: &serde_json::Map<String, serde_json::Value>,
    from_ms: u64,
) -> Option<(usize, &'a Event)> {
    evs.iter()
        .filter(|(_, e)| e.time_ms > from_ms)
        .find(|(_, e)| {
            pattern_matches(pattern, &serde_json::to_value(e).expect("events serialize"))
        })
        .copied()
}
