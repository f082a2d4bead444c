//! ISR changes from leaders: AlterPartition requests from 2.7 (KIP-497, handled as
//! `KafkaController.processAlterPartition`), and before 2.7 the leaders' notifications under
//! `/isr_change_notification` (`processIsrChangeNotification`), after which the controller
//! re-reads those partitions and tells every broker.

use super::queue::{Phase, Task};
use super::Controller;
use crate::collections::VecSet;
use crate::sim::json::{self, Json};
use crate::sim::message::{Body, IsrProposal, KafkaError, OpResult, Out, ZkError, ZkOp};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::topic::TopicPartition;

fn parse_tp(name: &str) -> Option<TopicPartition> {
    let i = name.rfind('-')?;
    Some(TopicPartition::new(&name[..i], name[i + 1..].parse().ok()?))
}

impl Controller<'_> {
    /// A leader's AlterPartition (2.7+).
    pub(crate) fn on_alter_partition(
        &mut self,
        from: BrokerId,
        (broker_epoch, tp, leader_epoch, isr, zk_version): (
            i64,
            TopicPartition,
            u64,
            Vec<BrokerId>,
            i32,
        ),
    ) {
        self.push_task(Task::AlterPartition {
            from,
            broker_epoch,
            tp,
            leader_epoch,
            isr,
            zk_version,
        });
    }

    // Not inlined: a step a first view does not take, which the page's build then leaves to the
    // module's second part.
    #[inline(never)]
    pub(super) fn on_list_notifications(
        &mut self,
        task: Task,
        results: Vec<Result<OpResult, ZkError>>,
    ) {
        let names: Vec<String> = match results.into_iter().next() {
            Some(Ok(OpResult::Children(c))) => c.into_iter().map(|(n, _)| n).collect(),
            _ => Vec::new(),
        };
        if names.is_empty() {
            return;
        }
        let op = ZkOp::Batch(
            names
                .iter()
                .map(|n| ZkOp::Exists {
                    path: format!("/isr_change_notification/{n}"),
                    watch: false,
                })
                .chain(names.iter().map(|n| ZkOp::Delete {
                    path: format!("/isr_change_notification/{n}"),
                }))
                .collect(),
        );
        self.zk_step(task, Phase::ReadNotifications(names), 0, op);
    }

    // Not inlined: a step a first view does not take, which the page's build then leaves to the
    // module's second part.
    #[inline(never)]
    pub(super) fn on_read_notifications(
        &mut self,
        _task: Task,
        names: Vec<String>,
        results: Vec<Result<OpResult, ZkError>>,
    ) {
        let mut tps = VecSet::new();
        for r in results.into_iter().take(names.len()) {
            if let Ok(OpResult::Node(Some(n))) = r {
                // The notification's JSON, read as a whole (`IsrChangeNotificationSequenceZNode`).
                if let Some(v) = json::parse_value(&n.data) {
                    for p in v
                        .get("partitions")
                        .and_then(Json::array)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(tp) = p.str().and_then(parse_tp) {
                            tps.insert(tp);
                        }
                    }
                }
            }
        }
        // processIsrChangeNotification: re-read those partitions and tell every broker.
        let tps: Vec<TopicPartition> = tps.into_iter().collect();
        if !tps.is_empty() {
            self.read_states(Task::IsrNotification, tps, 0);
        }
    }
}

/// A broker that is not controller answers an AlterPartition with NOT_CONTROLLER.
pub(crate) fn refuse_alter_partition(
    me: BrokerId,
    from: BrokerId,
    (tp, leader_epoch, isr, zk_version): (TopicPartition, u64, Vec<BrokerId>, i32),
    out: &mut Out,
) {
    out.send(
        Endpoint::Broker(me),
        Endpoint::Broker(from),
        Body::AlterPartitionResponse {
            tp,
            proposed: IsrProposal {
                isr,
                leader_epoch,
                zk_version,
            },
            result: Err(KafkaError::NotController),
        },
    );
}
