//! The JSON that Kafka keeps in its ZooKeeper znodes, for the paths the model uses
//! (`kafka.zk.ZkData`): the topic assignment `/brokers/topics/T`, the partition state
//! `/brokers/topics/T/partitions/P/state`, and the controller's fenced writes.
//!
//! The assignment, the partition state and `/controller` are written and read by hand
//! ([`super::json`]), exactly as serde_json wrote and read them (`znodes_test.rs` checks it
//! on many values and broken texts), so that the simulation does not run serde_json for them.
//! The pre-2.4 reassignment list, rare, keeps serde; the assignment and the partition state
//! derive serde only in the tests, as the reference they are checked against.

use super::config::Profile;
use super::json::{self, Json};
use super::message::ZkOp;
use super::net::BrokerId;
use crate::collections::VecMap;
use serde::{Deserialize, Serialize};

/// `/brokers/topics/<topic>`.
pub fn topic_path(topic: &str) -> String {
    format!("/brokers/topics/{topic}")
}

/// Where an operator asked for reassignments before 2.4 (`ReassignPartitionsZNode`): the
/// controller watches it, reads it again on failover, and removes each partition from it once
/// its reassignment completed.
pub const REASSIGN_PARTITIONS_PATH: &str = "/admin/reassign_partitions";

/// One partition of `/admin/reassign_partitions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionReassignment {
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: u32,
    /// The target replicas.
    pub replicas: Vec<BrokerId>,
}

/// The data of `/admin/reassign_partitions` (version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReassignPartitions {
    /// Format version (1).
    pub version: u32,
    /// The partitions being reassigned.
    pub partitions: Vec<PartitionReassignment>,
}

impl ReassignPartitions {
    /// Parses the znode's data; `None` if it is not this format.
    pub fn from_json(data: &str) -> Option<Self> {
        serde_json::from_str(data).ok()
    }

    /// The data as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a reassignment list serializes")
    }

    /// Adds or replaces one partition's target.
    pub fn put(&mut self, topic: &str, partition: u32, replicas: Vec<BrokerId>) {
        self.partitions
            .retain(|p| !(p.topic == topic && p.partition == partition));
        self.partitions.push(PartitionReassignment {
            topic: topic.to_string(),
            partition,
            replicas,
        });
    }
}

/// `/brokers/topics/<topic>/partitions/<p>/state`.
pub fn partition_state_path(topic: &str, partition: u32) -> String {
    format!("/brokers/topics/{topic}/partitions/{partition}/state")
}

/// The data of `/brokers/topics/<topic>` (`TopicZNode`, version 2): each partition's assignment.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(test, derive(Serialize, Deserialize))]
pub struct TopicAssignment {
    /// Format version (2).
    pub version: u32,
    /// Replicas of each partition by partition number (as a string key), in assignment order.
    pub partitions: VecMap<String, Vec<BrokerId>>,
    /// Replicas being added by a reassignment.
    #[cfg_attr(test, serde(default))]
    pub adding_replicas: VecMap<String, Vec<BrokerId>>,
    /// Replicas being removed by a reassignment.
    #[cfg_attr(test, serde(default))]
    pub removing_replicas: VecMap<String, Vec<BrokerId>>,
}

impl TopicAssignment {
    /// The assignment of partitions 0, 1, 2, ... as given.
    pub fn new(replicas: &[Vec<BrokerId>]) -> Self {
        TopicAssignment {
            version: 2,
            partitions: replicas
                .iter()
                .enumerate()
                .map(|(p, r)| (p.to_string(), r.clone()))
                .collect(),
            adding_replicas: VecMap::new(),
            removing_replicas: VecMap::new(),
        }
    }

    /// Encodes as Kafka writes it: `{"version":2,"partitions":{"0":[1,2],...},
    /// "adding_replicas":{...},"removing_replicas":{...}}`, each map in its key order (what
    /// serde_json writes for this type).
    pub fn to_json(&self) -> String {
        let mut out = format!("{{\"version\":{},\"partitions\":", self.version);
        for (name, map) in [
            ("", &self.partitions),
            (",\"adding_replicas\":", &self.adding_replicas),
            (",\"removing_replicas\":", &self.removing_replicas),
        ] {
            out.push_str(name);
            out.push('{');
            for (i, (p, replicas)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json::write_str(&mut out, p);
                out.push(':');
                json::write_ints(&mut out, replicas);
            }
            out.push('}');
        }
        out.push('}');
        out
    }

    /// Decodes a znode's data as serde_json reads this type: unknown fields are passed over,
    /// the reassignment fields may be missing (older znodes), of equal partition keys the last
    /// wins; `None` if it is not an assignment.
    pub fn from_json(data: &str) -> Option<Self> {
        let doc = json::parse(data)?;
        let [version, partitions, adding, removing] = doc.fields(
            [
                "version",
                "partitions",
                "adding_replicas",
                "removing_replicas",
            ],
            2,
        )?;
        let map = |m: Option<&Json<'_>>| -> Option<VecMap<String, Vec<BrokerId>>> {
            match m {
                Some(m) => m
                    .map(|r| r.list(Json::u32))
                    .map(|e| e.into_iter().collect()),
                None => Some(VecMap::new()),
            }
        };
        Some(TopicAssignment {
            version: version?.u32()?,
            partitions: map(partitions)?,
            adding_replicas: map(adding)?,
            removing_replicas: map(removing)?,
        })
    }

    /// The replicas of each partition, by partition number (in number order, not string order).
    pub fn by_partition(&self) -> VecMap<u32, Vec<BrokerId>> {
        self.partitions
            .iter()
            .filter_map(|(p, r)| p.parse().ok().map(|p| (p, r.clone())))
            .collect()
    }
}

/// The data of a partition's state znode (`TopicPartitionStateZNode`): what the controller
/// last decided, stamped with its controller epoch.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(test, derive(Serialize, Deserialize))]
pub struct PartitionState {
    /// The epoch of the controller that wrote it.
    pub controller_epoch: u64,
    /// The leader, or -1 while the partition is offline.
    pub leader: i64,
    /// Format version (1).
    pub version: u32,
    /// Bumped by every controller write of this partition.
    pub leader_epoch: u64,
    /// The in-sync replicas.
    pub isr: Vec<BrokerId>,
}

impl PartitionState {
    /// The leader as an id, `None` when offline (-1).
    pub fn leader_id(&self) -> Option<BrokerId> {
        BrokerId::try_from(self.leader).ok()
    }

    /// Encodes as Kafka writes it:
    /// `{"controller_epoch":2,"leader":3,"version":1,"leader_epoch":5,"isr":[3,1]}` (what
    /// serde_json writes for this type).
    pub fn to_json(&self) -> String {
        let mut out = format!(
            "{{\"controller_epoch\":{},\"leader\":{},\"version\":{},\"leader_epoch\":{},\"isr\":",
            self.controller_epoch, self.leader, self.version, self.leader_epoch
        );
        json::write_ints(&mut out, &self.isr);
        out.push('}');
        out
    }

    /// Decodes a znode's data as serde_json reads this type (unknown fields passed over);
    /// `None` if it is not a partition state.
    pub fn from_json(data: &str) -> Option<Self> {
        let doc = json::parse(data)?;
        let [controller_epoch, leader, version, leader_epoch, isr] = doc.fields(
            [
                "controller_epoch",
                "leader",
                "version",
                "leader_epoch",
                "isr",
            ],
            5,
        )?;
        Some(PartitionState {
            controller_epoch: controller_epoch?.u64()?,
            leader: leader?.i64()?,
            version: version?.u32()?,
            leader_epoch: leader_epoch?.u64()?,
            isr: isr?.list(Json::u32)?,
        })
    }
}

/// Reads the `brokerid` out of `/controller`'s JSON data (`ControllerZNode.decode`): the data
/// must be JSON (as serde_json's `Value` reads it) and `brokerid` an integer that fits a
/// broker id.
pub fn parse_broker_id(data: &str) -> Option<BrokerId> {
    json::parse_value(data)?.get("brokerid")?.u32()
}

/// A znode's data as the model reads it, parsed once when the znode is written and kept next
/// to its JSON, so that the monitor and the views never parse it again. Brokers still read the
/// JSON they receive, as Kafka does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZnodeValue {
    /// `/controller`: the broker it names.
    Controller(BrokerId),
    /// `/controller_epoch`: the epoch.
    ControllerEpoch(u64),
    /// `/brokers/topics/<topic>`: the topic's assignment.
    Topic(TopicAssignment),
    /// `/brokers/topics/<topic>/partitions/<p>/state`: the partition state.
    PartitionState(PartitionState),
    /// `/admin/reassign_partitions`: the reassignments asked for (before 2.4).
    ReassignPartitions(ReassignPartitions),
    /// Any other znode, or data that is not in the format its path holds.
    Other,
}

impl ZnodeValue {
    /// Parses `data` as the znode at `path` holds it.
    pub fn parse(path: &str, data: &str) -> Self {
        let parsed = if path == "/controller" {
            parse_broker_id(data).map(ZnodeValue::Controller)
        } else if path == "/controller_epoch" {
            data.parse().ok().map(ZnodeValue::ControllerEpoch)
        } else if path == REASSIGN_PARTITIONS_PATH {
            ReassignPartitions::from_json(data).map(ZnodeValue::ReassignPartitions)
        } else if let Some(rest) = path.strip_prefix("/brokers/topics/") {
            match rest.split('/').collect::<Vec<_>>().as_slice() {
                [_topic] => TopicAssignment::from_json(data).map(ZnodeValue::Topic),
                [_topic, "partitions", _p, "state"] => {
                    PartitionState::from_json(data).map(ZnodeValue::PartitionState)
                }
                _ => None,
            }
        } else {
            None
        };
        parsed.unwrap_or(ZnodeValue::Other)
    }

    /// The partition state, if this is one.
    pub fn partition_state(&self) -> Option<&PartitionState> {
        match self {
            ZnodeValue::PartitionState(s) => Some(s),
            _ => None,
        }
    }

    /// The topic assignment, if this is one.
    pub fn topic(&self) -> Option<&TopicAssignment> {
        match self {
            ZnodeValue::Topic(a) => Some(a),
            _ => None,
        }
    }
}

/// A controller write, fenced as the profile's Kafka fences it: from 2.1 (KAFKA-6082) every
/// controller write to ZooKeeper is a multi-op that first checks that `/controller_epoch` still
/// has the zkVersion the controller wrote when it was elected; a zombie controller's write then
/// fails with BADVERSION (ControllerMovedException). Before 2.1 the write goes in unguarded.
pub fn fenced(profile: Profile, epoch_zk_version: i32, write: ZkOp) -> ZkOp {
    if !profile.fences_controller_writes() {
        return write;
    }
    let mut ops = vec![ZkOp::Check {
        path: "/controller_epoch".into(),
        version: epoch_zk_version,
    }];
    match write {
        ZkOp::Multi(inner) => ops.extend(inner),
        single => ops.push(single),
    }
    ZkOp::Multi(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_znodes_value_is_parsed_by_its_path() {
        assert_eq!(
            ZnodeValue::parse(
                "/controller",
                r#"{"version":1,"brokerid":2,"timestamp":"0"}"#
            ),
            ZnodeValue::Controller(2)
        );
        assert_eq!(
            ZnodeValue::parse("/controller_epoch", "7"),
            ZnodeValue::ControllerEpoch(7)
        );
        let state = PartitionState {
            controller_epoch: 1,
            leader: 3,
            version: 1,
            leader_epoch: 4,
            isr: vec![3, 1],
        };
        let v = ZnodeValue::parse("/brokers/topics/t/partitions/0/state", &state.to_json());
        assert_eq!(v.partition_state(), Some(&state));
        let a = TopicAssignment::new(&[vec![1, 2], vec![2, 3]]);
        let json = a.to_json();
        assert_eq!(
            ZnodeValue::parse("/brokers/topics/t", &json).topic(),
            Some(&a)
        );
        // A path the model only passes along, and data not in its path's format.
        assert_eq!(ZnodeValue::parse("/brokers/ids/1", "{}"), ZnodeValue::Other);
        assert_eq!(
            ZnodeValue::parse("/brokers/topics/t", "nonsense"),
            ZnodeValue::Other
        );
        assert_eq!(
            ZnodeValue::parse("/brokers/topics/t/partitions", ""),
            ZnodeValue::Other
        );
        assert_eq!(
            ZnodeValue::parse("/controller_epoch", "-1"),
            ZnodeValue::Other
        );
    }

    #[test]
    fn partition_state_json_is_kafkas() {
        let s = PartitionState {
            controller_epoch: 2,
            leader: 3,
            version: 1,
            leader_epoch: 5,
            isr: vec![3, 1],
        };
        assert_eq!(
            s.to_json(),
            r#"{"controller_epoch":2,"leader":3,"version":1,"leader_epoch":5,"isr":[3,1]}"#
        );
        assert_eq!(PartitionState::from_json(&s.to_json()), Some(s.clone()));
        let offline = PartitionState { leader: -1, ..s };
        assert_eq!(offline.leader_id(), None);
        assert_eq!(PartitionState::from_json("{}"), None);
    }

    #[test]
    fn topic_assignment_json_is_kafkas_and_orders_partitions_by_number() {
        let replicas: Vec<Vec<BrokerId>> = (0..11).map(|p| vec![p % 3 + 1]).collect();
        let a = TopicAssignment::new(&replicas);
        let json = a.to_json();
        assert!(
            json.starts_with(r#"{"version":2,"partitions":{"0":[1],"1":[2],"10":[2]"#),
            "{json}"
        );
        assert!(
            json.ends_with(r#""adding_replicas":{},"removing_replicas":{}}"#),
            "{json}"
        );
        let back = TopicAssignment::from_json(&json).unwrap();
        let keys: Vec<u32> = back.by_partition().keys().copied().collect();
        assert_eq!(keys, (0..11).collect::<Vec<_>>());
        // Older znodes without the reassignment fields still read.
        let old = TopicAssignment::from_json(r#"{"version":1,"partitions":{"0":[1,2]}}"#).unwrap();
        assert_eq!(old.by_partition()[&0], vec![1, 2]);
    }

    #[test]
    fn controller_writes_are_fenced_from_2_1_on() {
        let write = ZkOp::SetData {
            path: partition_state_path("T", 0),
            data: "{}".into(),
            version: Some(4),
        };
        assert_eq!(
            fenced(Profile::V2_0, 1, write.clone()),
            write,
            "2.0: unguarded"
        );
        match fenced(Profile::V3_9, 1, write.clone()) {
            ZkOp::Multi(ops) => {
                assert_eq!(
                    ops[0],
                    ZkOp::Check {
                        path: "/controller_epoch".into(),
                        version: 1
                    }
                );
                assert_eq!(ops[1], write);
            }
            other => panic!("{other:?}"),
        }
    }
}
