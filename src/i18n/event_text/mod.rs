//! The event log's words in the reader's language: each event's plain sentence, chosen from
//! its kind and fields ([`what`]), the plain reason of a key event ([`why`]), its tag
//! ([`tag`]), and the Kafka detail one click away ([`cause_text`]). The events stay
//! structured in the core; the command line and the golden traces keep the core's English.

pub use super::cause_text::cause_text;
use super::msg_events as m;
use super::{Lang, Msg, Tr};
use crate::sim::controller::causes::{ControllerCause, OfflineWhy, Offlined};
use crate::sim::coordinator::causes::CoordinatorCause;
use crate::sim::replication::causes::ReplicationCause;
use crate::sim::world::causes::{ToolRefusal, WorldCause};
use crate::sim::{BrokerId, Cause, ElectionReason, Event, EventKind};
use crate::text::numbers::fmt_ms;
use std::fmt::Display;

/// Brokers as the reader's language lists them: `2, 3` (Chinese: `2、3`).
fn list(brokers: &[BrokerId], tr: &Tr) -> String {
    let sep = match tr.lang() {
        Lang::En => ", ",
        Lang::ZhCn => "、",
    };
    let items: Vec<String> = brokers.iter().map(|b| b.to_string()).collect();
    format!("[{}]", items.join(sep))
}

/// Names as the reader's language lists them.
fn names(items: &[String], tr: &Tr) -> String {
    let sep = match tr.lang() {
        Lang::En => ", ",
        Lang::ZhCn => "、",
    };
    items.join(sep)
}

/// Seconds, without a fraction when whole: `18`, `6.5`.
fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        crate::text::numbers::Fixed(ms as f64 / 1000.0, 1).to_string()
    }
}

/// A network endpoint as the core names it (`zk`, `2`, `producer`, `consumer-c1`).
fn endpoint(name: &str, tr: &Tr) -> String {
    if name == "zk" {
        tr.t(m::EV_ENDPOINT_ZK)
    } else if name == "producer" {
        tr.t(m::EV_ENDPOINT_PRODUCER)
    } else if let Some(c) = name.strip_prefix("consumer-") {
        tr.f(m::EV_ENDPOINT_CONSUMER, &[("member", &c)])
    } else {
        tr.f(m::EV_ENDPOINT_BROKER, &[("broker", &name)])
    }
}

/// What a fetcher stall covers, as the core writes it (`every partition`, `topic T`, `T-0`).
fn scope(what: &str, tr: &Tr) -> String {
    if what == "every partition" {
        tr.t(m::EV_SCOPE_ALL)
    } else if let Some(t) = what.strip_prefix("topic ") {
        tr.f(m::EV_SCOPE_TOPIC, &[("topic", &t)])
    } else {
        what.to_string()
    }
}

/// The message of a safety invariant the core names (`sim::invariants`), if it is one.
fn invariant_msg(name: &str) -> Option<Msg> {
    use crate::sim::invariants as inv;
    Some(match name {
        inv::ONE_CONTROLLER_PER_EPOCH => m::INV_ONE_CONTROLLER_PER_EPOCH,
        inv::EPOCHS_ONLY_GROW => m::INV_EPOCHS_ONLY_GROW,
        inv::ONE_ACTING_CONTROLLER => m::INV_ONE_ACTING_CONTROLLER,
        inv::LEADER_EPOCHS_ONLY_GROW => m::INV_LEADER_EPOCHS_ONLY_GROW,
        inv::LEADER_IN_ISR => m::INV_LEADER_IN_ISR,
        inv::HW_WITHIN_ISR => m::INV_HW_WITHIN_ISR,
        inv::ISR_WITHIN_ASSIGNMENT => m::INV_ISR_WITHIN_ASSIGNMENT,
        inv::ONE_GROUP_LEADER => m::INV_ONE_GROUP_LEADER,
        _ => return None,
    })
}

/// A safety invariant's name in the reader's language; a name the catalogue does not know
/// stays as the core wrote it.
fn invariant_name(name: &str, tr: &Tr) -> String {
    invariant_msg(name).map_or_else(|| name.to_string(), |msg| tr.t(msg))
}

/// The plain sentence of what happened. Every kind has one: this match and `what_rest`'s
/// between them name every kind (the second names the first's too), so a new kind cannot be
/// forgotten.
pub fn what(kind: &EventKind, tr: &Tr) -> String {
    use EventKind::*;
    let f = |msg: Msg, args: &[(&str, &dyn Display)]| tr.f(msg, args);
    match kind {
        BrokerStarted { broker } => f(m::EV_BROKER_STARTED, &[("broker", broker)]),
        BrokerCrashed { broker } => f(m::EV_BROKER_CRASHED, &[("broker", broker)]),
        BrokerStopped { broker } => f(m::EV_BROKER_STOPPED, &[("broker", broker)]),
        ControllerElected { broker, epoch } => f(
            m::EV_CONTROLLER_ELECTED,
            &[("broker", broker), ("epoch", epoch)],
        ),
        ControllerResigned { broker, .. } => f(m::EV_CONTROLLER_RESIGNED, &[("broker", broker)]),
        StaleRequestRejected {
            broker,
            from,
            request,
            epoch,
            current,
            ..
        } => f(
            m::EV_STALE_REQUEST,
            &[
                ("broker", broker),
                ("from", from),
                ("request", request),
                ("epoch", epoch),
                ("current", current),
            ],
        ),
        LeaderElected {
            partition,
            leader,
            leader_epoch,
            isr,
            ..
        } => {
            if *leader < 0 {
                f(m::EV_LEADER_NONE, &[("partition", partition)])
            } else {
                f(
                    m::EV_LEADER_ELECTED,
                    &[
                        ("partition", partition),
                        ("leader", leader),
                        ("leader_epoch", leader_epoch),
                        ("isr", &list(isr, tr)),
                    ],
                )
            }
        }
        PartitionOffline { partition, .. } => {
            f(m::EV_PARTITION_OFFLINE, &[("partition", partition)])
        }
        IsrShrunk {
            partition,
            removed,
            isr,
            ..
        } => f(
            m::EV_ISR_SHRUNK,
            &[
                ("partition", partition),
                ("brokers", &names(&strings(removed), tr)),
                ("isr", &list(isr, tr)),
            ],
        ),
        IsrExpanded {
            partition,
            added,
            isr,
            ..
        } => f(
            m::EV_ISR_EXPANDED,
            &[
                ("partition", partition),
                ("brokers", &names(&strings(added), tr)),
                ("isr", &list(isr, tr)),
            ],
        ),
        RecordsLost {
            partition, records, ..
        } => f(
            m::EV_RECORDS_LOST,
            &[("partition", partition), ("records", records)],
        ),
        GroupLeaderChosen {
            group,
            member,
            generation,
            ..
        } => f(
            m::EV_GROUP_LEADER,
            &[
                ("member", member),
                ("group", group),
                ("generation", generation),
            ],
        ),
        InvariantViolated { invariant, .. } => f(
            m::EV_INVARIANT,
            &[("invariant", &invariant_name(invariant, tr))],
        ),
        BrokerStartFailed { broker } => f(m::EV_BROKER_START_FAILED, &[("broker", broker)]),
        BrokerPaused { broker, until_ms } => f(
            m::EV_BROKER_PAUSED,
            &[("broker", broker), ("until", &fmt_ms(*until_ms))],
        ),
        BrokerResumed { broker } => f(m::EV_BROKER_RESUMED, &[("broker", broker)]),
        ControlledShutdownRequested { broker, attempt } => f(
            m::EV_SHUTDOWN_REQUESTED,
            &[("broker", broker), ("attempt", attempt)],
        ),
        LinkCut { from, to } => f(
            m::EV_LINK_CUT,
            &[("from", &endpoint(from, tr)), ("to", &endpoint(to, tr))],
        ),
        LinkHealed { from, to } => f(
            m::EV_LINK_HEALED,
            &[("from", &endpoint(from, tr)), ("to", &endpoint(to, tr))],
        ),
        SessionExpired { broker, .. } => f(m::EV_SESSION_EXPIRED, &[("broker", broker)]),
        ControllerDeleted { controller } => {
            f(m::EV_CONTROLLER_DELETED, &[("controller", controller)])
        }
        ReassignmentStarted {
            partition,
            controller,
            target,
        } => f(
            m::EV_REASSIGNMENT_STARTED,
            &[
                ("controller", controller),
                ("partition", partition),
                ("target", &list(target, tr)),
            ],
        ),
        ReassignmentRefused {
            partition,
            target,
            error,
            controller,
        } => match controller {
            Some(c) => f(
                m::EV_REASSIGNMENT_REFUSED,
                &[
                    ("controller", c),
                    ("partition", partition),
                    ("target", &list(target, tr)),
                    ("error", error),
                ],
            ),
            None => f(
                m::EV_REASSIGNMENT_REFUSED_TOOL,
                &[
                    ("partition", partition),
                    ("target", &list(target, tr)),
                    ("error", error),
                ],
            ),
        },
        ReassignmentCompleted {
            partition,
            replicas,
            ..
        } => f(
            m::EV_REASSIGNMENT_COMPLETED,
            &[("partition", partition), ("replicas", &list(replicas, tr))],
        ),
        ProducerStarted {
            partition,
            acks,
            rate_per_s,
        } => f(
            m::EV_PRODUCER_STARTED,
            &[
                ("rate", rate_per_s),
                ("partition", partition),
                ("acks", acks),
            ],
        ),
        ProducerStopped { partition } => f(m::EV_PRODUCER_STOPPED, &[("partition", partition)]),
        ConfigChanged { key, value, topic } => match topic {
            Some(t) => f(
                m::EV_CONFIG_TOPIC,
                &[("topic", t), ("key", key), ("value", value)],
            ),
            None => f(m::EV_CONFIG, &[("key", key), ("value", value)]),
        },
        FetcherStalled { broker, what } => f(
            m::EV_FETCHER_STALLED,
            &[("broker", broker), ("what", &scope(what, tr))],
        ),
        FetcherResumed { broker, what } => f(
            m::EV_FETCHER_RESUMED,
            &[("broker", broker), ("what", &scope(what, tr))],
        ),
        GroupMemberRemoved { group, member, .. } => f(
            m::EV_MEMBER_REMOVED,
            &[("member", member), ("group", group)],
        ),
        ConsumerCrashed { group, member } => f(
            m::EV_CONSUMER_CRASHED,
            &[("member", member), ("group", group)],
        ),
        ConsumerLeaving { group, member } => f(
            m::EV_CONSUMER_LEAVING,
            &[("member", member), ("group", group)],
        ),
        // The other kinds, in a function of its own: the page's first view shows only these
        // (the log's key events and what the page announces), and the build leaves the rest to
        // the module's second part.
        _ => what_rest(kind, tr),
    }
}

/// [`what`] for the kinds it does not name.
#[inline(never)]
fn what_rest(kind: &EventKind, tr: &Tr) -> String {
    use EventKind::*;
    let f = |msg: Msg, args: &[(&str, &dyn Display)]| tr.f(msg, args);
    match kind {
        ControlledShutdownFailed { broker, attempt } => f(
            m::EV_SHUTDOWN_FAILED,
            &[("broker", broker), ("attempt", attempt)],
        ),
        ControlledShutdownCompleted { broker, controller } => f(
            m::EV_SHUTDOWN_COMPLETED,
            &[("broker", broker), ("controller", controller)],
        ),
        ZkSessionCreated {
            broker, timeout_ms, ..
        } => f(
            m::EV_ZK_SESSION_CREATED,
            &[("broker", broker), ("seconds", &seconds(*timeout_ms))],
        ),
        ZkDisconnected { broker, .. } => f(m::EV_ZK_DISCONNECTED, &[("broker", broker)]),
        ZkReconnected { broker, .. } => f(m::EV_ZK_RECONNECTED, &[("broker", broker)]),
        SessionClosed { broker, .. } => f(m::EV_SESSION_CLOSED, &[("broker", broker)]),
        SessionExpiryNoticed { broker, .. } => {
            f(m::EV_SESSION_EXPIRY_NOTICED, &[("broker", broker)])
        }
        BrokerRegistered { broker, .. } => f(m::EV_BROKER_REGISTERED, &[("broker", broker)]),
        WatchFired { broker, path, .. } => {
            f(m::EV_WATCH_FIRED, &[("broker", broker), ("path", path)])
        }
        ControllerRaceLost {
            broker, controller, ..
        } => match controller {
            Some(c) => f(m::EV_RACE_LOST_TO, &[("broker", broker), ("controller", c)]),
            None => f(m::EV_RACE_LOST, &[("broker", broker)]),
        },
        ControllerZnodeCreated { broker } => {
            f(m::EV_CONTROLLER_ZNODE_CREATED, &[("broker", broker)])
        }
        BrokerOnline {
            controller, broker, ..
        } => f(
            m::EV_BROKER_ONLINE,
            &[("controller", controller), ("broker", broker)],
        ),
        BrokerLost { controller, broker } => f(
            m::EV_BROKER_LOST,
            &[("controller", controller), ("broker", broker)],
        ),
        MetadataUpdated {
            broker,
            controller,
            controller_epoch,
        } => f(
            m::EV_METADATA_UPDATED,
            &[
                ("broker", broker),
                ("controller", controller),
                ("epoch", controller_epoch),
            ],
        ),
        TopicCreated {
            topic,
            partitions,
            controller,
        } => f(
            m::EV_TOPIC_CREATED,
            &[
                ("controller", controller),
                ("topic", topic),
                ("partitions", partitions),
            ],
        ),
        LeaderEpochBumped {
            partition,
            leader,
            leader_epoch,
            replicas,
            ..
        } => f(
            m::EV_EPOCH_BUMPED,
            &[
                ("partition", partition),
                ("leader_epoch", leader_epoch),
                ("replicas", &list(replicas, tr)),
                ("leader", leader),
            ],
        ),
        LeaderElectionFailed { partition, isr } => f(
            m::EV_ELECTION_FAILED,
            &[("partition", partition), ("isr", &list(isr, tr))],
        ),
        IsrChangeAccepted {
            partition,
            controller,
            isr,
        } => f(
            m::EV_ISR_ACCEPTED,
            &[
                ("controller", controller),
                ("partition", partition),
                ("isr", &list(isr, tr)),
            ],
        ),
        IsrUpdateFailed {
            broker,
            partition,
            error,
        } => f(
            m::EV_ISR_UPDATE_FAILED,
            &[
                ("broker", broker),
                ("partition", partition),
                ("error", error),
            ],
        ),
        ReplicaTruncated {
            broker,
            partition,
            from_offset,
            to_offset,
        } => f(
            m::EV_TRUNCATED,
            &[
                ("broker", broker),
                ("from", from_offset),
                ("to", to_offset),
                ("partition", partition),
            ],
        ),
        LeaderImbalanceChecked {
            controller, moving, ..
        } => {
            if moving.is_empty() {
                f(m::EV_IMBALANCE_NOTHING, &[("controller", controller)])
            } else {
                f(
                    m::EV_IMBALANCE_MOVING,
                    &[
                        ("controller", controller),
                        ("partitions", &names(moving, tr)),
                    ],
                )
            }
        }
        ProduceFailed {
            partition, error, ..
        } => f(
            m::EV_PRODUCE_FAILED,
            &[("partition", partition), ("error", error)],
        ),
        ProduceRetrying {
            partition, error, ..
        } => f(
            m::EV_PRODUCE_RETRYING,
            &[("partition", partition), ("error", error)],
        ),
        ProduceRecovered {
            partition,
            retried,
            failed,
        } => f(
            m::EV_PRODUCE_RECOVERED,
            &[
                ("partition", partition),
                ("retried", retried),
                ("failed", failed),
            ],
        ),
        DuplicateWritten {
            broker,
            partition,
            records,
            ..
        } => f(
            m::EV_DUPLICATE_WRITTEN,
            &[
                ("broker", broker),
                ("records", records),
                ("partition", partition),
            ],
        ),
        DuplicateDropped {
            broker,
            partition,
            records,
            ..
        } => f(
            m::EV_DUPLICATE_DROPPED,
            &[
                ("broker", broker),
                ("records", records),
                ("partition", partition),
            ],
        ),
        GroupMemberJoined { group, member, .. } => {
            f(m::EV_MEMBER_JOINED, &[("member", member), ("group", group)])
        }
        RebalanceStarted { group, .. } => f(m::EV_REBALANCE_STARTED, &[("group", group)]),
        GroupStable {
            group, generation, ..
        } => f(
            m::EV_GROUP_STABLE,
            &[("group", group), ("generation", generation)],
        ),
        GroupEmpty {
            group, generation, ..
        } => f(
            m::EV_GROUP_EMPTY,
            &[("group", group), ("generation", generation)],
        ),
        CoordinatorMoved {
            group,
            broker,
            generation,
            ..
        } => f(
            m::EV_COORDINATOR_MOVED,
            &[
                ("broker", broker),
                ("group", group),
                ("generation", generation),
            ],
        ),
        CoordinatorFound {
            member,
            coordinator,
            ..
        } => f(
            m::EV_COORDINATOR_FOUND,
            &[("member", member), ("coordinator", coordinator)],
        ),
        BrokerStarted { .. }
        | BrokerCrashed { .. }
        | BrokerStopped { .. }
        | ControllerElected { .. }
        | ControllerResigned { .. }
        | LeaderElected { .. }
        | PartitionOffline { .. }
        | GroupLeaderChosen { .. }
        | RecordsLost { .. }
        | InvariantViolated { .. }
        | IsrShrunk { .. }
        | IsrExpanded { .. }
        | BrokerStartFailed { .. }
        | BrokerPaused { .. }
        | BrokerResumed { .. }
        | ControlledShutdownRequested { .. }
        | LinkCut { .. }
        | LinkHealed { .. }
        | SessionExpired { .. }
        | ControllerDeleted { .. }
        | ReassignmentStarted { .. }
        | ReassignmentRefused { .. }
        | ReassignmentCompleted { .. }
        | ProducerStarted { .. }
        | ProducerStopped { .. }
        | ConfigChanged { .. }
        | FetcherStalled { .. }
        | FetcherResumed { .. }
        | GroupMemberRemoved { .. }
        | ConsumerCrashed { .. }
        | ConsumerLeaving { .. }
        | StaleRequestRejected { .. } => what(kind, tr),
    }
}

fn strings(brokers: &[BrokerId]) -> Vec<String> {
    brokers.iter().map(|b| b.to_string()).collect()
}

/// Why a key event happened, in plain words (no source, no KIP): from its kind and, where the
/// kind alone cannot tell, its cause. `None` for the others, whose detail says why.
pub fn why(event: &Event, tr: &Tr) -> Option<String> {
    if !event.kind.is_key() {
        return None;
    }
    Some(match (&event.kind, &event.cause) {
        (EventKind::ControllerElected { epoch, .. }, _) => {
            if *epoch <= 1 {
                tr.t(m::WHY_FIRST_CONTROLLER)
            } else {
                tr.t(m::WHY_NEW_CONTROLLER)
            }
        }
        (EventKind::LeaderElected { leader, reason, .. }, _) if *leader >= 0 => {
            tr.t(match reason {
                ElectionReason::NewPartition => m::WHY_NEW_PARTITION,
                ElectionReason::Offline => m::WHY_OFFLINE,
                ElectionReason::Unclean => m::WHY_UNCLEAN,
                ElectionReason::Preferred => m::WHY_PREFERRED,
                ElectionReason::ControlledShutdown => m::WHY_SHUTDOWN,
                ElectionReason::Reassignment => m::WHY_REASSIGNMENT,
            })
        }
        (EventKind::PartitionOffline { .. }, cause) => match cause {
            Cause::Controller(ControllerCause::ReplicaOffline {
                done: Offlined::LastLeader { broker },
                ..
            }) => tr.f(m::WHY_OFFLINE_LAST, &[("broker", broker)]),
            Cause::Controller(ControllerCause::ReplicaOffline {
                done: Offlined::Leader { .. },
                ..
            }) => tr.t(m::WHY_OFFLINE_ELECTION),
            _ => tr.t(m::WHY_OFFLINE_PLAIN),
        },
        (EventKind::IsrShrunk { .. }, cause) => match cause {
            Cause::Replication(ReplicationCause::IsrShrunk {
                replica_lag_time_max_ms,
                ..
            }) => tr.f(
                m::WHY_ISR_LAGGED,
                &[("seconds", &seconds(*replica_lag_time_max_ms))],
            ),
            Cause::Controller(ControllerCause::ReplicaOffline { why, .. }) => tr.t(match why {
                OfflineWhy::BrokerFailure | OfflineWhy::Failover => m::WHY_ISR_BROKER_GONE,
                OfflineWhy::ControlledShutdown => m::WHY_ISR_SHUTDOWN,
                OfflineWhy::Reassignment => m::WHY_ISR_REASSIGNMENT,
            }),
            _ => return None,
        },
        (EventKind::IsrExpanded { .. }, _) => tr.t(m::WHY_ISR_CAUGHT_UP),
        (EventKind::RecordsLost { .. }, _) => tr.t(m::WHY_RECORDS_LOST),
        (EventKind::GroupLeaderChosen { .. }, cause) => match cause {
            Cause::Coordinator(CoordinatorCause::FirstMemberLeads) => tr.t(m::WHY_FIRST_MEMBER),
            Cause::Coordinator(CoordinatorCause::LeaderLeft { left, .. }) => {
                tr.f(m::WHY_LEADER_LEFT, &[("left", left)])
            }
            _ => return None,
        },
        (EventKind::StaleRequestRejected { epoch, current, .. }, _) => {
            tr.f(m::WHY_FENCED, &[("epoch", epoch), ("current", current)])
        }
        (EventKind::BrokerCrashed { .. }, _) => tr.t(m::WHY_CRASHED),
        (EventKind::BrokerStarted { .. }, Cause::World(WorldCause::StartInOrder)) => {
            tr.t(m::WHY_STARTED_IN_ORDER)
        }
        (EventKind::BrokerStarted { .. }, _) => tr.t(m::WHY_STARTED),
        (EventKind::BrokerStartFailed { .. }, _) => tr.t(m::WHY_START_FAILED),
        (EventKind::BrokerStopped { .. }, _) => tr.t(m::WHY_STOPPED),
        (EventKind::BrokerPaused { .. }, _) => tr.t(m::WHY_PAUSED),
        (EventKind::BrokerResumed { .. }, _) => tr.t(m::WHY_RESUMED),
        (EventKind::ControlledShutdownRequested { .. }, _) => tr.t(m::WHY_SHUTDOWN_REQUESTED),
        (EventKind::LinkCut { .. }, _) => tr.t(m::WHY_LINK_CUT),
        (EventKind::LinkHealed { .. }, _) => tr.t(m::WHY_LINK_HEALED),
        (EventKind::SessionExpired { .. }, _) => tr.t(m::WHY_SESSION_EXPIRED),
        (EventKind::ControllerResigned { .. }, _) => tr.t(m::WHY_RESIGNED),
        (EventKind::ControllerDeleted { .. }, _) => tr.t(m::WHY_CONTROLLER_DELETED),
        (EventKind::ConfigChanged { .. }, _) => tr.t(m::WHY_CONFIG_CHANGED),
        (EventKind::FetcherStalled { .. }, _) => tr.t(m::WHY_FETCHER_STALLED),
        (EventKind::FetcherResumed { .. }, _) => tr.t(m::WHY_FETCHER_RESUMED),
        (EventKind::ProducerStarted { .. }, _) => tr.t(m::WHY_PRODUCER_STARTED),
        (EventKind::ProducerStopped { .. }, _) => tr.t(m::WHY_PRODUCER_STOPPED),
        (EventKind::ConsumerCrashed { .. }, _) => tr.t(m::WHY_CONSUMER_CRASHED),
        (EventKind::ConsumerLeaving { .. }, _) => tr.t(m::WHY_CONSUMER_LEAVING),
        (EventKind::GroupMemberRemoved { .. }, _) => tr.t(m::WHY_MEMBER_REMOVED),
        (EventKind::ReassignmentStarted { .. }, _) => tr.t(m::WHY_REASSIGNMENT_STARTED),
        (EventKind::ReassignmentCompleted { .. }, _) => tr.t(m::WHY_REASSIGNMENT_COMPLETED),
        (EventKind::ReassignmentRefused { .. }, cause) => match cause {
            Cause::Controller(ControllerCause::ReassignmentRefused { not_live, .. }) => tr.f(
                m::WHY_REASSIGN_NOT_LIVE,
                &[("brokers", &list(not_live, tr))],
            ),
            Cause::World(WorldCause::ReassignToolRefused(ToolRefusal::NonExistentBrokers(ids))) => {
                tr.f(
                    m::WHY_REASSIGN_NOT_REGISTERED,
                    &[("brokers", &list(ids, tr))],
                )
            }
            Cause::World(WorldCause::ReassignToolRefused(ToolRefusal::InProgress)) => {
                tr.t(m::WHY_REASSIGN_IN_PROGRESS)
            }
            _ => return None,
        },
        _ => return None,
    })
}

/// A tag that says at a glance why: a leader election's reason, a group's step.
pub fn tag(kind: &EventKind, tr: &Tr) -> Option<String> {
    Some(match kind {
        EventKind::LeaderElected { reason, .. } => tr.t(match reason {
            ElectionReason::NewPartition => m::TAG_NEW_PARTITION,
            ElectionReason::Offline => m::TAG_OFFLINE_ELECTION,
            ElectionReason::Unclean => m::TAG_UNCLEAN,
            ElectionReason::Preferred => m::TAG_PREFERRED,
            ElectionReason::ControlledShutdown => m::TAG_SHUTDOWN,
            ElectionReason::Reassignment => m::TAG_REASSIGNMENT,
        }),
        EventKind::GroupLeaderChosen { generation, .. } => {
            tr.f(m::TAG_GROUP_LEADER, &[("generation", generation)])
        }
        EventKind::RebalanceStarted { generation, .. } => {
            tr.f(m::TAG_REBALANCE, &[("generation", &(generation + 1))])
        }
        EventKind::GroupStable { generation, .. } => {
            tr.f(m::TAG_STABLE, &[("generation", generation)])
        }
        EventKind::GroupEmpty { generation, .. } => {
            tr.f(m::TAG_EMPTY, &[("generation", generation)])
        }
        EventKind::CoordinatorMoved { broker, .. } => {
            tr.f(m::TAG_COORDINATOR, &[("broker", broker)])
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
