//! Controlled shutdown on the controller's side (`KafkaController.doControlledShutdown`): the
//! stopping broker's leaderships move to other in-sync replicas, its follower replicas leave
//! the ISRs, and it is answered once those elections are done.

use super::causes::OfflineWhy;
use super::channels::Req;
use super::queue::{Reason, Task};
use super::Controller;
use crate::sim::message::{Body, KafkaError, Out};
use crate::sim::net::{BrokerId, Endpoint};

impl Controller<'_> {
    // Not inlined: a step a first view does not take, which the page's build then leaves to the
    // module's second part.
    #[inline(never)]
    pub(super) fn begin_controlled_shutdown(
        &mut self,
        broker: BrokerId,
        broker_epoch: i64,
        attempt: u32,
    ) {
        let error = match self.role.live.get(&broker) {
            None => Some(KafkaError::BrokerNotAvailable),
            Some(known) if self.settings.profile.has_broker_epochs() && broker_epoch < *known => {
                Some(KafkaError::StaleBrokerEpoch)
            }
            Some(_) => None,
        };
        if let Some(error) = error {
            self.out.send(
                Endpoint::Broker(self.me),
                Endpoint::Broker(broker),
                Body::ControlledShutdownResponse {
                    attempt,
                    error: Some(error),
                    remaining: Vec::new(),
                },
            );
            return;
        }
        let ctx = &mut self.role.partitions;
        ctx.shutting_down.insert(broker);
        let mut led = Vec::new();
        let mut followed = Vec::new();
        for (tp, k) in &ctx.states {
            let Some(a) = ctx.assignment(tp) else {
                continue;
            };
            if a.len() < 2 || !a.contains(&broker) {
                continue;
            }
            if k.state.leader == broker as i64 {
                led.push(tp.clone());
            } else {
                followed.push(tp.clone());
            }
        }
        let mut tasks = Vec::new();
        if !led.is_empty() {
            tasks.push(Task::Elect {
                reason: Reason::ControlledShutdown(broker),
                partitions: Some(led),
            });
        }
        if !followed.is_empty() {
            tasks.push(Task::OfflineReplica {
                broker,
                why: OfflineWhy::ControlledShutdown,
                partitions: Some(followed.clone()),
            });
            self.enqueue(broker, Req::StopReplica(followed, false));
        }
        tasks.push(Task::ControlledShutdownReply { broker, attempt });
        self.push_front(tasks);
    }

    /// `KafkaController.doControlledShutdown` entry point.
    pub(crate) fn on_controlled_shutdown_request(
        &mut self,
        from: BrokerId,
        broker_epoch: i64,
        attempt: u32,
    ) {
        self.push_task(Task::ControlledShutdown {
            broker: from,
            broker_epoch,
            attempt,
        });
    }
}

/// A broker that is not controller answers a controlled shutdown request with NOT_CONTROLLER.
pub(crate) fn refuse_controlled_shutdown(
    me: BrokerId,
    from: BrokerId,
    attempt: u32,
    out: &mut Out,
) {
    out.send(
        Endpoint::Broker(me),
        Endpoint::Broker(from),
        Body::ControlledShutdownResponse {
            attempt,
            error: Some(KafkaError::NotController),
            remaining: Vec::new(),
        },
    );
}
