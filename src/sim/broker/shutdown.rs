//! Controlled shutdown, the broker's side (`KafkaServer.controlledShutdown`): ask the controller to move leadership away, retry on failure up to `controlled.shutdown.max.retries`, then stop.

use super::causes::{BrokerCause, ShutdownFailure, ShutdownNext};
use super::{Broker, BrokerStatus};
use crate::sim::config::Settings;
use crate::sim::event::EventKind;
use crate::sim::message::{Body, KafkaError, Out, Timer};
use crate::sim::net::Endpoint;
use crate::sim::topic::TopicPartition;

impl Broker {
    /// Begins a controlled shutdown (`KafkaServer.controlledShutdown`).
    pub fn begin_shutdown(&mut self, now: u64, settings: &Settings, out: &mut Out) {
        self.status = BrokerStatus::ShuttingDown;
        if settings.controlled_shutdown_max_retries == 0 {
            // No attempt at all: the broker just stops (its session closes cleanly).
            self.stop(now, out);
            return;
        }
        self.send_controlled_shutdown(now, 1, settings, out);
    }

    pub(super) fn send_controlled_shutdown(
        &mut self,
        now: u64,
        attempt: u32,
        settings: &Settings,
        out: &mut Out,
    ) {
        self.shutdown_attempt = attempt;
        let target = self.metadata_controller.or(self.active_controller);
        out.event(
            EventKind::ControlledShutdownRequested {
                broker: self.id,
                attempt,
            },
            BrokerCause::ShutdownRequested,
        );
        match target {
            Some(c) => {
                out.send(
                    self.me(),
                    Endpoint::Broker(c),
                    Body::ControlledShutdown {
                        broker_epoch: self.broker_epoch.unwrap_or(-1),
                        attempt,
                    },
                );
                out.timer(
                    now + settings.controller_socket_timeout_ms,
                    self.me(),
                    Timer::ShutdownTimeout { attempt },
                );
            }
            None => {
                self.controlled_shutdown_failed(now, ShutdownFailure::NoController, settings, out)
            }
        }
    }

    pub(super) fn controlled_shutdown_failed(
        &mut self,
        now: u64,
        why: ShutdownFailure,
        settings: &Settings,
        out: &mut Out,
    ) {
        let attempt = self.shutdown_attempt;
        // KafkaServer.controlledShutdown makes controlled.shutdown.max.retries attempts in all.
        let retry = attempt < settings.controlled_shutdown_max_retries;
        out.event(
            EventKind::ControlledShutdownFailed {
                broker: self.id,
                attempt,
            },
            BrokerCause::ShutdownFailed {
                why,
                next: if retry {
                    ShutdownNext::RetryAfter {
                        backoff_ms: settings.controlled_shutdown_retry_backoff_ms,
                    }
                } else {
                    ShutdownNext::GiveUp {
                        max_retries: settings.controlled_shutdown_max_retries,
                    }
                },
            },
        );
        if retry {
            out.timer(
                now + settings.controlled_shutdown_retry_backoff_ms,
                self.me(),
                Timer::ShutdownRetry { attempt },
            );
        } else {
            self.stop(now, out);
        }
    }

    #[inline(never)]
    pub(super) fn on_controlled_shutdown_response(
        &mut self,
        now: u64,
        attempt: u32,
        error: Option<KafkaError>,
        remaining: Vec<TopicPartition>,
        settings: &Settings,
        out: &mut Out,
    ) {
        if self.status != BrokerStatus::ShuttingDown || attempt != self.shutdown_attempt {
            return;
        }
        match (error, remaining.is_empty()) {
            (None, true) => self.stop(now, out),
            (None, false) => self.controlled_shutdown_failed(
                now,
                ShutdownFailure::LeadershipsLeft {
                    partitions: remaining,
                },
                settings,
                out,
            ),
            (Some(e), _) => self.controlled_shutdown_failed(
                now,
                ShutdownFailure::Error { error: e.name() },
                settings,
                out,
            ),
        }
    }

    /// Stops the process: resign if controller, close the ZooKeeper session (its ephemeral
    /// znodes go at once), and exit.
    pub(super) fn stop(&mut self, _now: u64, out: &mut Out) {
        if self.controller.is_some() {
            self.resign(BrokerCause::ResignsOnShutdown, out);
        }
        if let Some(session) = self.zk.session {
            out.send(self.me(), Endpoint::Zk, Body::Close { session });
        }
        self.end_process(BrokerStatus::Stopped);
        out.event(
            EventKind::BrokerStopped { broker: self.id },
            BrokerCause::Stopped,
        );
    }
}
