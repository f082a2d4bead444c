//! The automatic preferred-leader rebalance (`checkAndTriggerAutoLeaderRebalance`, every
//! `leader.imbalance.check.interval.seconds`) and the admin tools' requests (preferred
//! election, unclean election turned on, reassignment) that reach the controller.

use super::causes::{ControllerCause, ImbalanceHeld};
use super::queue::{Reason, Task};
use super::timers::ControllerTimer;
use super::Controller;
use crate::collections::VecMap;
use crate::sim::election;
use crate::sim::event::EventKind;
use crate::sim::message::{AdminRequest, Timer};
use crate::sim::net::{BrokerId, Endpoint};

impl Controller<'_> {
    pub(crate) fn on_rebalance_timer(&mut self, epoch: u64) {
        if self.role.epoch == epoch {
            self.push_task(Task::RebalanceCheck);
        }
    }

    /// `checkAndTriggerAutoLeaderRebalance`.
    // Not inlined: a step a first view does not take, which the page's build then leaves to the
    // module's second part.
    #[inline(never)]
    pub(super) fn rebalance_check(&mut self) {
        let live = self.live_set();
        let me = self.me;
        let role = &*self.role;
        let epoch = role.epoch;
        let ctx = &role.partitions;
        let tps = ctx.partitions();
        let leaderships: Vec<election::Leadership> = tps
            .iter()
            .map(|tp| election::Leadership {
                assignment: ctx.assignment(tp).cloned().unwrap_or_default(),
                leader: ctx.states.get(tp).and_then(|k| k.state.leader_id()),
            })
            .collect();
        let mut ratios: Vec<(BrokerId, u32)> = Vec::new();
        let mut preferred_of: VecMap<BrokerId, (u32, u32)> = VecMap::new();
        for l in &leaderships {
            if let Some(&b) = l.assignment.first() {
                let e = preferred_of.entry(b).or_default();
                e.0 += 1;
                if l.leader != Some(b) {
                    e.1 += 1;
                }
            }
        }
        for (b, (total, not_led)) in &preferred_of {
            ratios.push((*b, not_led * 100 / (*total).max(1)));
        }
        let pct = self.settings.leader_imbalance_per_broker_percentage;
        let imbalanced = election::imbalanced(&leaderships, pct);
        let mut elect = Vec::new();
        // The brokers above the threshold whose partitions stay, and why: the cause says so,
        // so that "nothing to move" beside a broker at 100 % reads as what it is.
        let mut held: Vec<(BrokerId, ImbalanceHeld)> = Vec::new();
        // Up to 3.3 no candidate passes while any reassignment is in progress; from 3.4 a
        // reassigning partition is a candidate like any other (see
        // `Profile::rebalances_during_reassignment`).
        let moves_held =
            !ctx.reassigning.is_empty() && !self.settings.profile.rebalances_during_reassignment();
        for (b, idx) in &imbalanced {
            for &i in idx {
                let tp = &tps[i];
                let in_sync = ctx.states.get(tp).is_some_and(|k| k.state.isr.contains(b));
                let why = if !live.contains(b) {
                    Some(ImbalanceHeld::Down)
                } else if !in_sync {
                    Some(ImbalanceHeld::OutOfSync)
                } else if moves_held {
                    Some(ImbalanceHeld::ReassignmentInProgress)
                } else {
                    None
                };
                match why {
                    None => elect.push(tp.clone()),
                    Some(w) if !held.contains(&(*b, w)) => held.push((*b, w)),
                    Some(_) => {}
                }
            }
        }
        self.out.event(
            EventKind::LeaderImbalanceChecked {
                controller: me,
                ratios,
                moving: elect.iter().map(|t| t.to_string()).collect(),
            },
            ControllerCause::ImbalanceChecked {
                interval_s: self.settings.leader_imbalance_check_interval_seconds,
                percentage: pct,
                held,
            },
        );
        if !elect.is_empty() {
            self.push_front(vec![Task::Elect {
                reason: Reason::Preferred { automatic: true },
                partitions: Some(elect),
            }]);
        }
        self.out.timer(
            self.now + self.settings.leader_imbalance_check_interval_seconds * 1000,
            Endpoint::Broker(self.me),
            Timer::Controller(ControllerTimer::RebalanceCheck { epoch }),
        );
    }

    /// An admin tool's request, through a znode the controller watches.
    pub(crate) fn on_admin(&mut self, request: AdminRequest) {
        let task = match request {
            AdminRequest::PreferredElection(tps) => Task::Elect {
                reason: Reason::Preferred { automatic: false },
                partitions: (!tps.is_empty()).then_some(tps),
            },
            AdminRequest::UncleanEnabled(topic) => {
                let tps = self.role.partitions.partitions();
                Task::Elect {
                    reason: Reason::UncleanEnabled,
                    partitions: Some(
                        tps.into_iter()
                            .filter(|tp| topic.as_ref().is_none_or(|t| *t == tp.topic))
                            .collect(),
                    ),
                }
            }
            AdminRequest::Reassign { tp, replicas } => Task::Reassign {
                tp,
                target: replicas,
            },
        };
        self.push_task(task);
    }
}
