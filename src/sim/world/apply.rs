//! Applying a command (a click on the page, an action of a scenario): the world checks it
//! against its state now ([`check`], with the world answering through [`Live`]) and then hands
//! it to the part it concerns (a broker, ZooKeeper, the network, the producer, the consumers)
//! or, for an admin tool's write, to the controller.

use super::causes::{ToolRefusal, WorldCause};
use super::{Item, World};
use crate::collections::VecSet;
use crate::sim::broker::BrokerStatus;
use crate::sim::commands::{check, scope, Command, Layout, Live};
use crate::sim::config::ReassignPath;
use crate::sim::consumer::ConsumerState;
use crate::sim::event::EventKind;
use crate::sim::message::{AdminRequest, Body, Out, Timer};
use crate::sim::net::{BrokerId, Endpoint};
use crate::sim::producer::{Producer, ProducerOut};
use crate::sim::replication::Stall;
use crate::sim::topic::{Acks, TopicPartition};
use crate::sim::znodes::{ReassignPartitions, ZnodeValue, REASSIGN_PARTITIONS_PATH};

impl World {
    /// Applies a command now. A command that makes no sense in the current state changes
    /// nothing and says why.
    pub fn apply(&mut self, cmd: Command) -> Result<(), String> {
        let ids = self.broker_ids();
        let layout = Layout {
            brokers: &ids,
            topics: &self.topics,
            groups: &self.groups,
            settings: &self.settings,
        };
        check(&cmd, &layout, Some(self))?;
        let now = self.now;
        let mut out = Out::default();
        match cmd {
            Command::Start(b) => {
                let settings = self.settings.clone();
                self.broker_mut(b)
                    .start(now, &settings, WorldCause::StartAction, &mut out);
                self.parked.remove(&b);
                self.finish(out);
            }
            Command::Crash(b) => {
                self.broker_mut(b).crash(WorldCause::CrashAction, &mut out);
                self.parked.remove(&b);
                self.finish(out);
            }
            Command::Join { group, member } => {
                let spec = self.groups.iter().find(|g| g.id == group).cloned();
                let (topics, assignor) = spec
                    .map(|g| (g.topics, g.assignor))
                    .unwrap_or_else(|| (Vec::new(), "range".into()));
                let cluster = self.cluster_view();
                self.consumers.join(
                    now,
                    (&group, &member, topics, &assignor),
                    &cluster.as_cluster(),
                    &mut out,
                );
                self.finish(out);
            }
            // The rest, in a function of its own: the page's first view applies only starts,
            // crashes and joins, and the build leaves what it does not run to the module's
            // second part.
            other => self.apply_rest(other, out)?,
        }
        self.monitor_step();
        Ok(())
    }

    /// [`World::apply`] for the commands other than a start, a crash or a join, checked.
    #[inline(never)]
    fn apply_rest(&mut self, cmd: Command, mut out: Out) -> Result<(), String> {
        let now = self.now;
        match cmd {
            Command::Shutdown(b) => {
                let settings = self.settings.clone();
                self.broker_mut(b).begin_shutdown(now, &settings, &mut out);
                self.finish(out);
            }
            Command::Pause { broker, for_ms } => {
                self.broker_mut(broker).pause(now, now + for_ms, &mut out);
                self.finish(out);
            }
            Command::ExpireSession(b) => {
                self.zk.force_expire(b, &mut out);
                self.finish(out);
            }
            Command::Cut(a, b) => {
                self.net.cut(a, b);
                self.record(
                    EventKind::LinkCut {
                        from: a.short_name(),
                        to: b.short_name(),
                    },
                    WorldCause::CutAction.into(),
                );
            }
            Command::Heal(a, b) => {
                let reset = self.net.heal(a, b);
                self.record(
                    EventKind::LinkHealed {
                        from: a.short_name(),
                        to: b.short_name(),
                    },
                    WorldCause::HealAction.into(),
                );
                // A ZooKeeper connection that lost packets is reset now; the client
                // reconnects, replays what went unanswered and re-arms its watches.
                if let Some(x) = reset {
                    let msg = self.net.next_id();
                    self.push(
                        now,
                        Item::Deliver {
                            msg,
                            from: Endpoint::Zk,
                            to: Endpoint::Broker(x),
                            body: Box::new(Body::ConnectionLoss),
                            received: true,
                        },
                    );
                }
            }
            Command::Produce {
                topic,
                partition,
                records,
                acks,
                rate_per_s,
                for_ms,
            } => {
                let tp = TopicPartition::new(&topic, partition);
                let mut pout = ProducerOut::default();
                match rate_per_s {
                    None => self.producer.send(
                        now,
                        &tp,
                        records.unwrap_or(0),
                        acks,
                        &self.brokers,
                        &self.settings,
                        &mut self.rng,
                        &mut pout,
                    ),
                    Some(rate) => {
                        self.producer.stop(&tp);
                        let stream = Producer::stream(
                            tp.clone(),
                            acks,
                            rate,
                            for_ms.map(|f| now + f),
                            records,
                        );
                        let id = self.producer.start_stream(stream);
                        self.record(
                            EventKind::ProducerStarted {
                                partition: tp.to_string(),
                                acks: acks.name().into(),
                                rate_per_s: rate,
                            },
                            WorldCause::ProduceAction.into(),
                        );
                        self.push(
                            now,
                            Item::Timer {
                                owner: Endpoint::Client,
                                incarnation: 0,
                                timer: Timer::ProduceTick { stream: id },
                            },
                        );
                    }
                }
                self.finish_producer(pout);
            }
            Command::StopProducing { topic, partition } => {
                let tp = TopicPartition::new(&topic, partition);
                self.producer.stop(&tp);
                self.record(
                    EventKind::ProducerStopped {
                        partition: tp.to_string(),
                    },
                    WorldCause::StopAction.into(),
                );
            }
            Command::StallFetcher {
                broker,
                topic,
                partition,
            } => {
                let what = scope(&topic, &partition);
                self.broker_mut(broker)
                    .stalls
                    .push(Stall { topic, partition });
                self.record(
                    EventKind::FetcherStalled { broker, what },
                    WorldCause::StallAction.into(),
                );
            }
            Command::ResumeFetcher {
                broker,
                topic,
                partition,
            } => {
                let what = scope(&topic, &partition);
                let b = self.broker_mut(broker);
                b.stalls
                    .retain(|s| !(s.topic == topic && s.partition == partition));
                b.replica_manager().kick_fetchers(now, &mut out);
                self.record(
                    EventKind::FetcherResumed { broker, what },
                    WorldCause::ResumeAction.into(),
                );
                self.finish(out);
            }
            Command::SetConfig { key, value, topic } => {
                let unclean_on = key == "unclean.leader.election.enable"
                    && crate::sim::topic::as_bool(&key, &value).unwrap_or(false);
                match &topic {
                    Some(t) => {
                        let mut c = self.settings.topics.get(t).cloned().unwrap_or_default();
                        c.set(&key, &value)?;
                        self.settings.topics.insert(t.clone(), c);
                    }
                    None => self.settings.set(&key, &value)?,
                }
                self.record(
                    EventKind::ConfigChanged {
                        key,
                        value: match &value {
                            serde_json::Value::String(s) => s.clone(),
                            v => v.to_string(),
                        },
                        topic: topic.clone(),
                    },
                    WorldCause::SetConfigAction.into(),
                );
                let elects_now = match &topic {
                    None => self
                        .settings
                        .profile
                        .elects_when_unclean_enabled_broker_wide(),
                    Some(_) => self
                        .settings
                        .profile
                        .elects_when_unclean_enabled_for_topic(),
                };
                if unclean_on && elects_now {
                    // The controller elects offline partitions at once (UncleanLeaderElectionEnable,
                    // TopicUncleanLeaderElectionEnable); before, the new setting is used at the
                    // next election a broker change starts.
                    self.admin(AdminRequest::UncleanEnabled(topic));
                }
            }
            Command::PreferredElection { topic, partition } => {
                let tps: Vec<TopicPartition> = match (&topic, partition) {
                    (None, _) => Vec::new(),
                    (Some(t), None) => self
                        .topics
                        .iter()
                        .filter(|s| s.name == *t)
                        .flat_map(|s| {
                            (0..s.replicas.len() as u32).map(|p| TopicPartition::new(&s.name, p))
                        })
                        .collect(),
                    (Some(t), Some(p)) => vec![TopicPartition::new(t, p)],
                };
                self.admin(AdminRequest::PreferredElection(tps));
            }
            Command::Reassign {
                topic,
                partition,
                replicas,
            } => {
                let through = self.settings.profile.reassigns_through();
                if through != ReassignPath::Api {
                    if let Some(why) = self.reassign_tool_refusal(&replicas, through) {
                        out.event(
                            EventKind::ReassignmentRefused {
                                partition: TopicPartition::new(&topic, partition).to_string(),
                                target: replicas,
                                error: why.kafka_text(),
                                controller: None,
                            },
                            WorldCause::ReassignToolRefused(why),
                        );
                        self.finish(out);
                        return Ok(());
                    }
                    // kafka-reassign-partitions before 3.0 writes /admin/reassign_partitions,
                    // which the controller watches, reads again after a failover, and empties
                    // as each partition's move completes.
                    let mut list = self
                        .zk
                        .node(REASSIGN_PARTITIONS_PATH)
                        .and_then(|n| match &n.value {
                            ZnodeValue::ReassignPartitions(list) => Some(list.clone()),
                            _ => None,
                        })
                        .unwrap_or(ReassignPartitions {
                            version: 1,
                            partitions: Vec::new(),
                        });
                    list.put(&topic, partition, replicas.clone());
                    self.zk
                        .admin_put(REASSIGN_PARTITIONS_PATH, &list.to_json(), &mut out);
                    self.finish(std::mem::take(&mut out));
                }
                self.admin(AdminRequest::Reassign {
                    tp: TopicPartition::new(&topic, partition),
                    replicas,
                });
            }
            Command::Leave { group, member } => {
                let cluster = self.cluster_view();
                self.consumers
                    .leave(now, &group, &member, &cluster.as_cluster(), &mut out);
                self.finish(out);
            }
            Command::CrashConsumer { group, member } => {
                self.consumers.crash(&group, &member, &mut out);
                self.finish(out);
            }
            Command::DeleteController => {
                if let Some(controller) = self.zk.controller() {
                    self.zk.admin_delete("/controller", &mut out);
                    out.event(
                        EventKind::ControllerDeleted { controller },
                        WorldCause::DeleteControllerAction,
                    );
                }
                self.finish(out);
            }
            Command::Start(_) | Command::Crash(_) | Command::Join { .. } => {}
        }
        Ok(())
    }

    /// An admin tool's znode write that the controller watches: delivered from ZooKeeper to
    /// the broker `/controller` names.
    /// What `kafka-reassign-partitions --execute` of a release before 3.0 refuses, in its
    /// order (`executeAssignment`: `parseAndValidate`, then the check for a reassignment in
    /// progress).
    fn reassign_tool_refusal(
        &self,
        replicas: &[BrokerId],
        through: ReassignPath,
    ) -> Option<ToolRefusal> {
        if through == ReassignPath::ZnodeChecked {
            let missing: Vec<BrokerId> = replicas
                .iter()
                .copied()
                .filter(|b| self.zk.registration(*b).is_none())
                .collect();
            if !missing.is_empty() {
                return Some(ToolRefusal::NonExistentBrokers(missing));
            }
        }
        self.zk
            .node(REASSIGN_PARTITIONS_PATH)
            .is_some()
            .then_some(ToolRefusal::InProgress)
    }

    fn admin(&mut self, request: AdminRequest) {
        if let Some(c) = self.zk.controller() {
            self.send(Endpoint::Zk, Endpoint::Broker(c), Body::Admin(request));
        }
    }
}

/// The world answers the checks of a command about its state now.
impl Live for World {
    fn status(&self, broker: BrokerId) -> BrokerStatus {
        self.brokers[&broker].status
    }

    fn is_stalled(&self, broker: BrokerId, stall: &Stall) -> bool {
        self.brokers[&broker].stalls.contains(stall)
    }

    fn has_live_session(&self, broker: BrokerId) -> bool {
        self.zk.live_session_of(broker).is_some()
    }

    fn is_cut(&self, a: Endpoint, b: Endpoint) -> bool {
        World::is_cut(self, a, b)
    }

    fn is_streaming_to(&self, tp: &TopicPartition) -> bool {
        self.producer.streams.values().any(|s| s.tp == *tp)
    }

    fn producer_clients_in_use(&self) -> VecSet<Acks> {
        self.producer.clients_in_use()
    }

    fn controller(&self) -> Option<BrokerId> {
        self.zk.controller()
    }

    fn assignment(&self, tp: &TopicPartition) -> Vec<BrokerId> {
        World::assignment(self, tp)
    }

    fn is_reassigning(&self, tp: &TopicPartition) -> bool {
        self.zk
            .controller()
            .and_then(|c| self.brokers.get(&c))
            .and_then(|b| b.controller.as_ref())
            .is_some_and(|c| c.partitions.reassigning.contains_key(tp))
    }

    fn consumer_state(&self, group: &str, member: &str) -> Option<ConsumerState> {
        self.consumers.find(group, member).map(|c| c.state)
    }
}
