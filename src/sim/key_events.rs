//! The key events: the few a learner watches for, which the page's event log lists by default
//! ([`EventKind::is_key`]). The command line and the golden traces print every event.

use super::coordinator::OFFSETS_TOPIC;
use super::event::EventKind;
use super::message::KafkaError;

impl EventKind {
    /// Whether a learner should notice the event: the page's "key events" filter, its "just
    /// now" line and what it announces. What the learner did (a broker crashed, started,
    /// stopped, paused or resumed, a link cut or healed, `/controller` deleted, a setting
    /// changed, a fetcher stalled or resumed, a stream started or stopped, a consumer crashed or
    /// leaving, a reassignment started or finished); the end of what that leaves them waiting
    /// for (a broker's ZooKeeper session expired, a member removed from its group); a
    /// controller resigning and a new one; a partition leader change of a user topic (any election, or the leader
    /// going to none when the partition goes offline); an ISR change of a user topic; lost
    /// acknowledged records; a group leader chosen; a request fenced because it came from an
    /// older controller epoch; a reassignment refused (the learner asked for it, and nothing
    /// else would tell them it did not start); and a broken safety invariant. The 50 partitions of
    /// `__consumer_offsets` elect, shrink and expand alongside every user partition; their
    /// changes are not key (a group's coordinator moving is told by the group's own events).
    pub fn is_key(&self) -> bool {
        use EventKind::*;
        match self {
            // What the learner did (a click, an action of a story or a lesson)...
            BrokerCrashed { .. }
            | BrokerStarted { .. }
            | BrokerStopped { .. }
            | BrokerPaused { .. }
            | BrokerResumed { .. }
            | BrokerStartFailed { .. }
            | ControlledShutdownRequested { .. }
            | LinkCut { .. }
            | LinkHealed { .. }
            | ControllerDeleted { .. }
            | ConfigChanged { .. }
            | FetcherStalled { .. }
            | FetcherResumed { .. }
            | ProducerStarted { .. }
            | ProducerStopped { .. }
            | ConsumerCrashed { .. }
            | ConsumerLeaving { .. }
            | ReassignmentStarted { .. }
            | ReassignmentCompleted { .. }
            // ... and the end of what it then waits for: a broker's ZooKeeper session running
            // out, a consumer's membership ending.
            | SessionExpired { .. }
            | GroupMemberRemoved { .. }
            | ControllerResigned { .. }
            | ControllerElected { .. }
            | ReassignmentRefused { .. }
            | RecordsLost { .. }
            | GroupLeaderChosen { .. }
            | InvariantViolated { .. } => true,
            LeaderElected { partition, .. }
            | PartitionOffline { partition, .. }
            | IsrShrunk { partition, .. }
            | IsrExpanded { partition, .. } => !is_internal_partition(partition),
            StaleRequestRejected { error, .. } => error == KafkaError::StaleControllerEpoch.name(),
            _ => false,
        }
    }
}

/// Whether a partition (`topic-N`) belongs to Kafka's internal `__consumer_offsets`.
fn is_internal_partition(partition: &str) -> bool {
    partition
        .rsplit_once('-')
        .is_some_and(|(topic, _)| topic == OFFSETS_TOPIC)
}

#[cfg(test)]
mod tests {
    use crate::sim::event::{ElectionReason, EventKind};

    #[test]
    fn key_events_are_what_a_learner_watches_for() {
        let elected = |partition: &str| EventKind::LeaderElected {
            partition: partition.into(),
            leader: 2,
            leader_epoch: 1,
            isr: vec![2],
            reason: ElectionReason::Offline,
            controller: 1,
            controller_epoch: 1,
        };
        let shrunk = |partition: &str| EventKind::IsrShrunk {
            partition: partition.into(),
            by: 1,
            removed: vec![3],
            isr: vec![1],
            leader_epoch: 0,
        };
        let stale = |error: &str| EventKind::StaleRequestRejected {
            broker: 2,
            from: 1,
            request: "LeaderAndIsr".into(),
            epoch: 1,
            current: 2,
            error: error.into(),
        };
        assert!(EventKind::ControllerElected {
            broker: 1,
            epoch: 1
        }
        .is_key());
        assert!(elected("orders-0").is_key());
        assert!(elected("my__consumer_offsets-0").is_key());
        assert!(!elected("__consumer_offsets-12").is_key());
        assert!(shrunk("orders-3").is_key());
        assert!(!shrunk("__consumer_offsets-3").is_key());
        assert!(stale("STALE_CONTROLLER_EPOCH").is_key());
        assert!(!stale("STALE_BROKER_EPOCH").is_key());
        assert!(
            !stale("STALE_CONTROLLER_EPOCH (partition ignored: an older leader epoch)").is_key()
        );
        assert!(EventKind::GroupLeaderChosen {
            group: "g".into(),
            member: "c1".into(),
            member_id: "c1-1".into(),
            generation: 1,
        }
        .is_key());
        assert!(EventKind::ReassignmentRefused {
            partition: "orders-0".into(),
            target: vec![1, 2, 4],
            error: "INVALID_REPLICA_ASSIGNMENT".into(),
            controller: Some(1),
        }
        .is_key());
        for action in [
            EventKind::BrokerCrashed { broker: 1 },
            EventKind::BrokerStarted { broker: 1 },
            EventKind::SessionExpired {
                broker: 1,
                session: 0x1001,
            },
        ] {
            assert!(action.is_key(), "{action:?}");
        }
        for minor in [
            EventKind::BrokerRegistered {
                broker: 1,
                broker_epoch: 6,
            },
            EventKind::WatchFired {
                broker: 1,
                path: "/controller".into(),
                change: "deleted".into(),
            },
            EventKind::IsrChangeAccepted {
                partition: "orders-0".into(),
                controller: 1,
                isr: vec![1],
            },
            EventKind::LeaderImbalanceChecked {
                controller: 1,
                ratios: vec![(1, 0)],
                moving: vec![],
            },
        ] {
            assert!(!minor.is_key(), "{minor:?}");
        }
    }
}
