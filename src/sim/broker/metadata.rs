//! Requests from the controller: the epoch checks that fence a stale controller (`ReplicaManager`: STALE_CONTROLLER_EPOCH, and from 2.2 STALE_BROKER_EPOCH, KIP-380) and the metadata cache (`ReplicaManager.maybeUpdateMetadataCache`).

use super::causes::BrokerCause;
use super::Broker;
use crate::sim::config::Settings;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, KafkaError, Out, PartitionInfo};
use crate::sim::net::{BrokerId, Endpoint};

impl Broker {
    /// The epoch checks every controller request passes (`ReplicaManager`): an older
    /// controller epoch is refused with STALE_CONTROLLER_EPOCH; since 2.2 an older broker epoch
    /// with STALE_BROKER_EPOCH. On success the broker follows that controller.
    pub(crate) fn accept_controller_request(
        &mut self,
        controller: BrokerId,
        request: &str,
        (controller_epoch, broker_epoch): (u64, i64),
        settings: &Settings,
        out: &mut Out,
    ) -> Result<(), KafkaError> {
        if controller_epoch < self.metadata_epoch {
            out.event(
                EventKind::StaleRequestRejected {
                    broker: self.id,
                    from: controller,
                    request: request.into(),
                    epoch: controller_epoch as i64,
                    current: self.metadata_epoch as i64,
                    error: KafkaError::StaleControllerEpoch.name().into(),
                },
                BrokerCause::StaleControllerEpoch,
            );
            return Err(KafkaError::StaleControllerEpoch);
        }
        if settings.profile.has_broker_epochs() {
            let mine = self.broker_epoch.unwrap_or(-1);
            if broker_epoch >= 0 && broker_epoch < mine {
                out.event(
                    EventKind::StaleRequestRejected {
                        broker: self.id,
                        from: controller,
                        request: request.into(),
                        epoch: broker_epoch,
                        current: mine,
                        error: KafkaError::StaleBrokerEpoch.name().into(),
                    },
                    BrokerCause::StaleBrokerEpoch,
                );
                return Err(KafkaError::StaleBrokerEpoch);
            }
        }
        let changed =
            controller_epoch != self.metadata_epoch || self.metadata_controller != Some(controller);
        self.metadata_epoch = controller_epoch;
        self.metadata_controller = Some(controller);
        if changed {
            out.event(
                EventKind::MetadataUpdated {
                    broker: self.id,
                    controller,
                    controller_epoch,
                },
                BrokerCause::MetadataFromController,
            );
        }
        Ok(())
    }

    /// `ReplicaManager.maybeUpdateMetadataCache`.
    pub(super) fn on_update_metadata(
        &mut self,
        controller: BrokerId,
        (controller_epoch, broker_epoch, correlation_id): (u64, i64, u64),
        (live_brokers, partitions): (Vec<BrokerId>, Vec<PartitionInfo>),
        settings: &Settings,
        out: &mut Out,
    ) {
        let result = self.accept_controller_request(
            controller,
            "UpdateMetadata",
            (controller_epoch, broker_epoch),
            settings,
            out,
        );
        if result.is_ok() {
            self.metadata_live = live_brokers;
            for p in partitions {
                self.metadata_partitions.insert(p.tp.clone(), p);
            }
        }
        out.send(
            Endpoint::Broker(self.id),
            Endpoint::Broker(controller),
            Body::UpdateMetadataResponse {
                controller_epoch,
                correlation_id,
                error: result.err(),
            },
        );
    }

    /// Forgets the ISR changes this leader had in flight (their answers will not come).
    pub(super) fn drop_isr_updates_in_flight(&mut self) {
        for r in self.replicas.values_mut() {
            if let Some(crate::sim::replication::Role::Leader(ls)) =
                r.state.as_mut().map(|s| &mut s.role)
            {
                ls.pending_isr = None;
                ls.isr_blocked = false;
            }
        }
    }
}
