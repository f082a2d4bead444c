//! Kafka's consumer partition assignors, as pure functions: what the group leader computes
//! before it sends SyncGroup.
//!
//! Input: the group's members (member id -> [`Subscription`]) and the partition count of each
//! topic in the leader's metadata. Output: member id -> its partitions ([`Assignment`]), with an
//! entry (possibly empty) for every member, as Kafka returns it.
//!
//! Sources (apache/kafka, `clients/src/main/java/org/apache/kafka/...`):
//! - `clients/consumer/RangeAssignor.java` ([`range_assign`], protocol name `range`): per topic,
//!   the topic's partitions in numeric order and its subscribers in [`member_order`]; with `n`
//!   partitions and `c` subscribers each gets `n / c`, and the first `n % c` one more, in
//!   consecutive ranges. Topics with no partitions in the metadata are skipped. The rack-aware
//!   pass (KIP-881, used only when consumers set `client.rack` and replicas have racks) is not
//!   modelled: the simulator has no racks.
//! - `clients/consumer/RoundRobinAssignor.java` ([`round_robin_assign`], protocol name
//!   `roundrobin`): all partitions of all subscribed topics, topics in `TreeSet` (Java string)
//!   order and partitions in numeric order, dealt to the members in [`member_order`] by a
//!   `common/utils/CircularIterator`, which skips a member not subscribed to the partition's topic.
//! - `clients/consumer/internals/AbstractPartitionAssignor.java`: `MemberInfo.compareTo` orders
//!   members (static members, those with a `group.instance.id`, first and among themselves by
//!   instance id; then dynamic members by member id), and `assign(Cluster, ...)` passes only topics
//!   with known, non-empty partition lists, sorted by partition.
//!
//! Not here: `StickyAssignor` / `CooperativeStickyAssignor` (`internals/AbstractStickyAssignor.java`).
//! Their result depends on the previous assignment and generation, and, when members own
//! partitions, on the iteration order of Java `HashMap`s keyed by member id; a faithful port is a
//! larger piece of work than these two.
//!
//! Strings compare as Java's `String.compareTo` does (UTF-16 code units, [`java_string_cmp`]), which
//! differs from Rust's `str` order only for characters beyond U+FFFF against U+E000..U+FFFF.
//! Each member's list is sorted by (topic in Java order, partition): that is Kafka's order for
//! round-robin; for range, Kafka's list follows its `HashMap` of topics, an order that changes
//! nothing about who gets which partition.

use crate::collections::VecMap;
use std::cmp::Ordering;

use super::topic::TopicPartition;

/// Kafka's name of the range assignor (`RangeAssignor.RANGE_ASSIGNOR_NAME`).
pub const RANGE_ASSIGNOR_NAME: &str = "range";
/// Kafka's name of the round-robin assignor (`RoundRobinAssignor.ROUNDROBIN_ASSIGNOR_NAME`).
pub const ROUNDROBIN_ASSIGNOR_NAME: &str = "roundrobin";

/// What one member sends in JoinGroup that the assignors read: its topics and, for a static
/// member (KIP-345), its `group.instance.id`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subscription {
    /// The topics the member subscribes to (order and duplicates do not matter).
    pub topics: Vec<String>,
    /// `group.instance.id`, set for a static member.
    pub group_instance_id: Option<String>,
}

impl Subscription {
    /// A dynamic member's subscription to `topics`.
    pub fn new<I, S>(topics: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Subscription {
            topics: topics.into_iter().map(Into::into).collect(),
            group_instance_id: None,
        }
    }

    /// The same subscription from a static member with this `group.instance.id`.
    pub fn with_group_instance_id(mut self, group_instance_id: &str) -> Self {
        self.group_instance_id = Some(group_instance_id.to_string());
        self
    }

    /// Whether the member subscribes to `topic`.
    pub fn subscribes_to(&self, topic: &str) -> bool {
        self.topics.iter().any(|t| t == topic)
    }
}

/// Member id -> the member's partitions. Every member of the input has an entry.
pub type Assignment = VecMap<String, Vec<TopicPartition>>;

/// The assignors implemented here, by Kafka's protocol name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Assignor {
    /// `org.apache.kafka.clients.consumer.RangeAssignor`: the consumer's default
    /// `partition.assignment.strategy` up to 2.8; from 3.0 the default list is
    /// `[RangeAssignor, CooperativeStickyAssignor]` (`ConsumerConfig`), range first.
    Range,
    /// `org.apache.kafka.clients.consumer.RoundRobinAssignor`.
    RoundRobin,
}

impl Assignor {
    /// Kafka's protocol name: `range` or `roundrobin`.
    pub fn name(self) -> &'static str {
        match self {
            Assignor::Range => RANGE_ASSIGNOR_NAME,
            Assignor::RoundRobin => ROUNDROBIN_ASSIGNOR_NAME,
        }
    }

    /// The assignor with this protocol name, if implemented here.
    pub fn from_name(name: &str) -> Option<Assignor> {
        match name {
            RANGE_ASSIGNOR_NAME => Some(Assignor::Range),
            ROUNDROBIN_ASSIGNOR_NAME => Some(Assignor::RoundRobin),
            _ => None,
        }
    }

    /// Runs this assignor (see [`range_assign`] and [`round_robin_assign`]).
    pub fn assign(
        self,
        members: &VecMap<String, Subscription>,
        partitions_per_topic: &VecMap<String, u32>,
    ) -> Assignment {
        match self {
            Assignor::Range => range_assign(members, partitions_per_topic),
            Assignor::RoundRobin => round_robin_assign(members, partitions_per_topic),
        }
    }
}

/// Java's `String.compareTo`: lexicographic over UTF-16 code units, a shorter prefix first.
pub fn java_string_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// `AbstractPartitionAssignor.MemberInfo.compareTo`: members with a `group.instance.id` first,
/// ordered by it; then the others, ordered by member id. Each argument is (member id,
/// subscription). Two static members with the same instance id (which the coordinator never
/// allows) fall back to member id order here, where Kafka would keep its input order.
pub fn member_order(a: (&str, &Subscription), b: (&str, &Subscription)) -> Ordering {
    match (&a.1.group_instance_id, &b.1.group_instance_id) {
        (Some(x), Some(y)) => java_string_cmp(x, y).then_with(|| java_string_cmp(a.0, b.0)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => java_string_cmp(a.0, b.0),
    }
}

/// The member ids sorted by [`member_order`].
fn sorted_members(members: &VecMap<String, Subscription>) -> Vec<(&str, &Subscription)> {
    let mut v: Vec<(&str, &Subscription)> = members.iter().map(|(m, s)| (m.as_str(), s)).collect();
    crate::collections::sort_by(&mut v, |a, b| member_order(*a, *b));
    v
}

/// An entry, empty, for every member.
fn empty_assignment(members: &VecMap<String, Subscription>) -> Assignment {
    members.keys().map(|m| (m.clone(), Vec::new())).collect()
}

/// Sorts every member's list by (topic in Java order, partition).
fn sort_lists(assignment: &mut Assignment) {
    for list in assignment.values_mut() {
        crate::collections::sort_by(list, |a, b| {
            java_string_cmp(&a.topic, &b.topic).then(a.partition.cmp(&b.partition))
        });
    }
}

/// Kafka's `RangeAssignor` (without racks). For each topic with at least one partition, in turn:
/// its subscribers in [`member_order`]; with `n` partitions and `c` subscribers, each takes the
/// next `n / c` partitions in numeric order, and the first `n % c` subscribers one more.
/// Topics missing from `partitions_per_topic` (unknown to the metadata) are not assigned.
pub fn range_assign(
    members: &VecMap<String, Subscription>,
    partitions_per_topic: &VecMap<String, u32>,
) -> Assignment {
    let mut assignment = empty_assignment(members);
    let ordered = sorted_members(members);
    for (topic, &count) in partitions_per_topic {
        if count == 0 {
            continue;
        }
        let consumers: Vec<&str> = ordered
            .iter()
            .filter(|(_, s)| s.subscribes_to(topic))
            .map(|(m, _)| *m)
            .collect();
        if consumers.is_empty() {
            continue;
        }
        let n = consumers.len() as u32;
        let per_consumer = count / n;
        let with_extra = count % n;
        let mut next = 0u32;
        for (i, consumer) in consumers.iter().enumerate() {
            let take = per_consumer + u32::from((i as u32) < with_extra);
            let list = assignment
                .get_mut(*consumer)
                .expect("every member has an entry");
            list.extend((next..next + take).map(|p| TopicPartition::new(topic, p)));
            next += take;
        }
    }
    sort_lists(&mut assignment);
    assignment
}

/// Kafka's `RoundRobinAssignor`. Every partition of every subscribed topic known to
/// `partitions_per_topic`, topics in Java string order and partitions in numeric order, goes to the
/// next member of the circle of members in [`member_order`]; a member not subscribed to the
/// partition's topic is passed over (and loses its turn for that partition).
pub fn round_robin_assign(
    members: &VecMap<String, Subscription>,
    partitions_per_topic: &VecMap<String, u32>,
) -> Assignment {
    let mut assignment = empty_assignment(members);
    let ordered = sorted_members(members);
    if ordered.is_empty() {
        return assignment;
    }
    // The TreeSet of all subscribed topics.
    let mut topics: Vec<&str> = ordered
        .iter()
        .flat_map(|(_, s)| s.topics.iter().map(String::as_str))
        .collect();
    crate::collections::sort_by(&mut topics, |a, b| java_string_cmp(a, b));
    topics.dedup();

    // CircularIterator: `at` is the member `peek()` returns.
    let mut at = 0usize;
    for topic in topics {
        let Some(&count) = partitions_per_topic.get(topic) else {
            continue;
        };
        for partition in 0..count {
            // Some member subscribes to `topic` (it came from a subscription), so this ends.
            while !ordered[at].1.subscribes_to(topic) {
                at = (at + 1) % ordered.len();
            }
            let member = ordered[at].0;
            at = (at + 1) % ordered.len();
            assignment
                .get_mut(member)
                .expect("every member has an entry")
                .push(TopicPartition::new(topic, partition));
        }
    }
    assignment
}

/// Checks the contract every assignor keeps: one entry per member and no other; every partition of
/// every topic that some member subscribes to and `partitions_per_topic` knows is assigned exactly
/// once, to a member subscribed to its topic; nothing else is assigned. The error names the first
/// breach found.
pub fn check_assignment(
    members: &VecMap<String, Subscription>,
    partitions_per_topic: &VecMap<String, u32>,
    assignment: &Assignment,
) -> Result<(), String> {
    if !assignment.keys().eq(members.keys()) {
        return Err(format!(
            "the assignment's members {:?} are not the group's members {:?}",
            assignment.keys().collect::<Vec<_>>(),
            members.keys().collect::<Vec<_>>()
        ));
    }
    let mut owner: VecMap<&TopicPartition, &str> = VecMap::new();
    for (member, list) in assignment {
        let subscription = &members[member];
        for tp in list {
            if !subscription.subscribes_to(&tp.topic) {
                return Err(format!(
                    "{tp} went to {member}, which does not subscribe to {}",
                    tp.topic
                ));
            }
            match partitions_per_topic.get(&tp.topic) {
                Some(&count) if tp.partition < count => {}
                _ => return Err(format!("{tp} went to {member} but does not exist")),
            }
            if let Some(first) = owner.insert(tp, member) {
                return Err(format!("{tp} went to both {first} and {member}"));
            }
        }
    }
    for (topic, &count) in partitions_per_topic {
        if !members.values().any(|s| s.subscribes_to(topic)) {
            continue;
        }
        for p in 0..count {
            let tp = TopicPartition::new(topic, p);
            if !owner.contains_key(&tp) {
                return Err(format!("{tp} went to nobody"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::Rng;

    fn tp(topic: &str, partition: u32) -> TopicPartition {
        TopicPartition::new(topic, partition)
    }

    fn counts(xs: &[(&str, u32)]) -> VecMap<String, u32> {
        xs.iter().map(|(t, n)| (t.to_string(), *n)).collect()
    }

    fn sub(topics: &[&str]) -> Subscription {
        Subscription::new(topics.iter().copied())
    }

    fn members(xs: &[(&str, Subscription)]) -> VecMap<String, Subscription> {
        xs.iter().map(|(m, s)| (m.to_string(), s.clone())).collect()
    }

    /// Parses Kafka's test notation "t1-0, t1-1, t2-0" (a member's sorted partitions).
    fn parse(list: &str) -> Vec<TopicPartition> {
        if list.is_empty() {
            return Vec::new();
        }
        list.split(", ")
            .map(|s| {
                let (t, p) = s.rsplit_once('-').unwrap();
                tp(t, p.parse().unwrap())
            })
            .collect()
    }

    /// `consumer0`, `consumer1`, ... with these topic lists, as `verifyRackAssignment` builds them.
    fn indexed_consumers(topic_lists: &[&[&str]]) -> VecMap<String, Subscription> {
        topic_lists
            .iter()
            .enumerate()
            .map(|(i, ts)| (format!("consumer{i}"), sub(ts)))
            .collect()
    }

    fn expect_indexed(assignment: &Assignment, expected: &[&str]) {
        for (i, e) in expected.iter().enumerate() {
            assert_eq!(assignment[&format!("consumer{i}")], parse(e), "consumer{i}");
        }
        assert_eq!(assignment.len(), expected.len());
    }

    fn both(
        m: &VecMap<String, Subscription>,
        c: &VecMap<String, u32>,
    ) -> [(Assignor, Assignment); 2] {
        [
            (Assignor::Range, range_assign(m, c)),
            (Assignor::RoundRobin, round_robin_assign(m, c)),
        ]
    }

    // ---- helpers --------------------------------------------------------------------------

    #[test]
    fn java_string_order_is_utf16() {
        assert_eq!(java_string_cmp("a", "b"), Ordering::Less);
        assert_eq!(java_string_cmp("ab", "a"), Ordering::Greater);
        assert_eq!(java_string_cmp("", ""), Ordering::Equal);
        // jshell: "\uFF61".compareTo("\uD83D\uDE00") == 10020 > 0, while Rust's str order puts
        // U+FF61 before U+1F600.
        assert_eq!(java_string_cmp("\u{FF61}", "\u{1F600}"), Ordering::Greater);
        assert_eq!("\u{FF61}".cmp("\u{1F600}"), Ordering::Less);
    }

    #[test]
    fn static_members_sort_first_by_instance_id() {
        let a = Subscription::new(["t"]).with_group_instance_id("instance2");
        let b = Subscription::new(["t"]).with_group_instance_id("instance1");
        let d = Subscription::new(["t"]);
        assert_eq!(
            member_order(("consumer-a", &a), ("consumer-b", &b)),
            Ordering::Greater
        );
        assert_eq!(
            member_order(("consumer-z", &b), ("consumer-a", &d)),
            Ordering::Less
        );
        assert_eq!(
            member_order(("consumer-a", &d), ("consumer-b", &d)),
            Ordering::Less
        );
    }

    #[test]
    fn names_round_trip() {
        for a in [Assignor::Range, Assignor::RoundRobin] {
            assert_eq!(Assignor::from_name(a.name()), Some(a));
        }
        assert_eq!(Assignor::from_name("cooperative-sticky"), None);
    }

    // ---- ported from RangeAssignorTest and RoundRobinAssignorTest (same cases in both) ----

    #[test]
    fn one_consumer_no_topic() {
        // testOneConsumerNoTopic (both tests)
        let m = members(&[("consumer1", sub(&[]))]);
        for (a, asg) in both(&m, &counts(&[])) {
            assert_eq!(asg.keys().collect::<Vec<_>>(), vec!["consumer1"], "{a:?}");
            assert!(asg["consumer1"].is_empty(), "{a:?}");
        }
    }

    #[test]
    fn one_consumer_nonexistent_topic() {
        // testOneConsumerNonexistentTopic (both tests)
        let m = members(&[("consumer1", sub(&["topic1"]))]);
        for (a, asg) in both(&m, &counts(&[])) {
            assert_eq!(asg.len(), 1, "{a:?}");
            assert!(asg["consumer1"].is_empty(), "{a:?}");
        }
    }

    #[test]
    fn one_consumer_one_topic() {
        // testOneConsumerOneTopic (both tests)
        let m = members(&[("consumer1", sub(&["topic1"]))]);
        for (a, asg) in both(&m, &counts(&[("topic1", 3)])) {
            assert_eq!(
                asg["consumer1"],
                parse("topic1-0, topic1-1, topic1-2"),
                "{a:?}"
            );
        }
    }

    #[test]
    fn only_assigns_partitions_from_subscribed_topics() {
        // testOnlyAssignsPartitionsFromSubscribedTopics (both tests)
        let m = members(&[("consumer1", sub(&["topic1"]))]);
        for (a, asg) in both(&m, &counts(&[("topic1", 3), ("other", 3)])) {
            assert_eq!(
                asg["consumer1"],
                parse("topic1-0, topic1-1, topic1-2"),
                "{a:?}"
            );
        }
    }

    #[test]
    fn one_consumer_multiple_topics() {
        // testOneConsumerMultipleTopics (both tests)
        let m = members(&[("consumer1", sub(&["topic1", "topic2"]))]);
        for (a, asg) in both(&m, &counts(&[("topic1", 1), ("topic2", 2)])) {
            assert_eq!(
                asg["consumer1"],
                parse("topic1-0, topic2-0, topic2-1"),
                "{a:?}"
            );
        }
    }

    #[test]
    fn two_consumers_one_topic_one_partition() {
        // testTwoConsumersOneTopicOnePartition (both tests)
        let m = members(&[
            ("consumer1", sub(&["topic1"])),
            ("consumer2", sub(&["topic1"])),
        ]);
        for (a, asg) in both(&m, &counts(&[("topic1", 1)])) {
            assert_eq!(asg["consumer1"], parse("topic1-0"), "{a:?}");
            assert!(asg["consumer2"].is_empty(), "{a:?}");
        }
    }

    #[test]
    fn two_consumers_one_topic_two_partitions() {
        // testTwoConsumersOneTopicTwoPartitions (both tests)
        let m = members(&[
            ("consumer1", sub(&["topic1"])),
            ("consumer2", sub(&["topic1"])),
        ]);
        for (a, asg) in both(&m, &counts(&[("topic1", 2)])) {
            assert_eq!(asg["consumer1"], parse("topic1-0"), "{a:?}");
            assert_eq!(asg["consumer2"], parse("topic1-1"), "{a:?}");
        }
    }

    #[test]
    fn multiple_consumers_mixed_topics() {
        // testMultipleConsumersMixedTopics (both tests give the same answer here)
        let m = members(&[
            ("consumer1", sub(&["topic1"])),
            ("consumer2", sub(&["topic1", "topic2"])),
            ("consumer3", sub(&["topic1"])),
        ]);
        for (a, asg) in both(&m, &counts(&[("topic1", 3), ("topic2", 2)])) {
            assert_eq!(asg["consumer1"], parse("topic1-0"), "{a:?}");
            assert_eq!(
                asg["consumer2"],
                parse("topic1-1, topic2-0, topic2-1"),
                "{a:?}"
            );
            assert_eq!(asg["consumer3"], parse("topic1-2"), "{a:?}");
        }
    }

    // ---- RangeAssignorTest ----------------------------------------------------------------

    #[test]
    fn range_two_consumers_two_topics_six_partitions() {
        // RangeAssignorTest.testTwoConsumersTwoTopicsSixPartitions
        let m = members(&[
            ("consumer1", sub(&["topic1", "topic2"])),
            ("consumer2", sub(&["topic1", "topic2"])),
        ]);
        let asg = range_assign(&m, &counts(&[("topic1", 3), ("topic2", 3)]));
        assert_eq!(
            asg["consumer1"],
            parse("topic1-0, topic1-1, topic2-0, topic2-1")
        );
        assert_eq!(asg["consumer2"], parse("topic1-2, topic2-2"));
    }

    #[test]
    fn range_two_static_consumers_sort_by_instance_id() {
        // RangeAssignorTest.testTwoStaticConsumersTwoTopicsSixPartitions: "consumer-b" has
        // instance1 and sorts before "consumer-a" with instance2.
        let m = members(&[
            (
                "consumer-b",
                sub(&["topic1", "topic2"]).with_group_instance_id("instance1"),
            ),
            (
                "consumer-a",
                sub(&["topic1", "topic2"]).with_group_instance_id("instance2"),
            ),
        ]);
        let asg = range_assign(&m, &counts(&[("topic1", 3), ("topic2", 3)]));
        assert_eq!(
            asg["consumer-b"],
            parse("topic1-0, topic1-1, topic2-0, topic2-1")
        );
        assert_eq!(asg["consumer-a"], parse("topic1-2, topic2-2"));
    }

    #[test]
    fn range_static_member_sorts_before_dynamic() {
        // RangeAssignorTest.testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions
        let m = members(&[
            (
                "consumer-b",
                sub(&["topic1", "topic2"]).with_group_instance_id("instance1"),
            ),
            ("consumer-a", sub(&["topic1", "topic2"])),
        ]);
        let asg = range_assign(&m, &counts(&[("topic1", 3), ("topic2", 3)]));
        assert_eq!(
            asg["consumer-b"],
            parse("topic1-0, topic1-1, topic2-0, topic2-1")
        );
        assert_eq!(asg["consumer-a"], parse("topic1-2, topic2-2"));
    }

    #[test]
    fn range_static_member_assignment_persistent() {
        // RangeAssignorTest.testStaticMemberRangeAssignmentPersistent
        let both_topics = &["topic1", "topic2"];
        let mut m = members(&[
            (
                "consumer1",
                sub(both_topics).with_group_instance_id("instance1"),
            ),
            (
                "consumer2",
                sub(both_topics).with_group_instance_id("instance2"),
            ),
            (
                "consumer3",
                sub(both_topics).with_group_instance_id("instance3"),
            ),
            ("consumer4", sub(both_topics)),
        ]);
        let c = counts(&[("topic1", 5), ("topic2", 4)]);
        let mut expected: Assignment = [
            ("consumer1", "topic1-0, topic1-1, topic2-0"),
            ("consumer2", "topic1-2, topic2-1"),
            ("consumer3", "topic1-3, topic2-2"),
            ("consumer4", "topic1-4, topic2-3"),
        ]
        .iter()
        .map(|(m, l)| (m.to_string(), parse(l)))
        .collect();
        assert_eq!(range_assign(&m, &c), expected);
        // Replace dynamic member 4 with a new dynamic member 5.
        m.remove("consumer4");
        m.insert("consumer5".to_string(), sub(both_topics));
        let l = expected.remove("consumer4").unwrap();
        expected.insert("consumer5".to_string(), l);
        assert_eq!(range_assign(&m, &c), expected);
    }

    /// Instance id -> partitions (`checkStaticAssignment` of both Kafka tests).
    fn by_instance(
        m: &VecMap<String, Subscription>,
        asg: &Assignment,
    ) -> VecMap<String, Vec<TopicPartition>> {
        m.iter()
            .filter_map(|(id, s)| s.group_instance_id.clone().map(|i| (i, asg[id].clone())))
            .collect()
    }

    fn swap_member_ids(m: &mut VecMap<String, Subscription>) {
        // consumer3 -> consumer4, consumer2 -> consumer5, as both Kafka tests do.
        let s3 = m.remove("consumer3").unwrap();
        m.insert("consumer4".to_string(), s3);
        let s2 = m.remove("consumer2").unwrap();
        m.insert("consumer5".to_string(), s2);
    }

    #[test]
    fn range_static_member_assignment_persistent_after_member_id_changes() {
        // RangeAssignorTest.testStaticMemberRangeAssignmentPersistentAfterMemberIdChanges
        let t = &["topic1", "topic2"];
        let mut m = members(&[
            ("consumer1", sub(t).with_group_instance_id("instance1")),
            ("consumer2", sub(t).with_group_instance_id("instance2")),
            ("consumer3", sub(t).with_group_instance_id("instance3")),
        ]);
        let c = counts(&[("topic1", 5), ("topic2", 5)]);
        let expected: VecMap<String, Vec<TopicPartition>> = [
            ("instance1", "topic1-0, topic1-1, topic2-0, topic2-1"),
            ("instance2", "topic1-2, topic1-3, topic2-2, topic2-3"),
            ("instance3", "topic1-4, topic2-4"),
        ]
        .iter()
        .map(|(i, l)| (i.to_string(), parse(l)))
        .collect();
        assert_eq!(by_instance(&m, &range_assign(&m, &c)), expected);
        swap_member_ids(&mut m);
        assert_eq!(by_instance(&m, &range_assign(&m, &c)), expected);
    }

    #[test]
    fn range_non_rack_aware_expectations() {
        // The `nonRackAwareAssignment` lists (consumer0, consumer1, ...) of RangeAssignorTest:
        let all: &[&str] = &["t1", "t2", "t3"];
        // testRackAwareAssignmentWithUniformSubscription
        let c = counts(&[("t1", 6), ("t2", 7), ("t3", 2)]);
        expect_indexed(
            &range_assign(&indexed_consumers(&[all, all, all]), &c),
            &[
                "t1-0, t1-1, t2-0, t2-1, t2-2, t3-0",
                "t1-2, t1-3, t2-3, t2-4, t3-1",
                "t1-4, t1-5, t2-5, t2-6",
            ],
        );
        // testRackAwareAssignmentWithNonEqualSubscription
        expect_indexed(
            &range_assign(&indexed_consumers(&[all, all, &["t1", "t3"]]), &c),
            &[
                "t1-0, t1-1, t2-0, t2-1, t2-2, t2-3, t3-0",
                "t1-2, t1-3, t2-4, t2-5, t2-6, t3-1",
                "t1-4, t1-5",
            ],
        );
        // testRackAwareAssignmentWithUniformPartitions
        let c = counts(&[("t1", 5), ("t2", 5), ("t3", 5)]);
        expect_indexed(
            &range_assign(&indexed_consumers(&[all, all, all]), &c),
            &[
                "t1-0, t1-1, t2-0, t2-1, t3-0, t3-1",
                "t1-2, t1-3, t2-2, t2-3, t3-2, t3-3",
                "t1-4, t2-4, t3-4",
            ],
        );
        // testRackAwareAssignmentWithUniformPartitionsNonEqualSubscription
        expect_indexed(
            &range_assign(&indexed_consumers(&[all, all, &["t1", "t3"]]), &c),
            &[
                "t1-0, t1-1, t2-0, t2-1, t2-2, t3-0, t3-1",
                "t1-2, t1-3, t2-3, t2-4, t3-2, t3-3",
                "t1-4, t3-4",
            ],
        );
    }

    #[test]
    fn range_co_partitioning_expectations() {
        // testRackAwareAssignmentWithCoPartitioning, its non-rack-aware lists.
        let c = counts(&[("t1", 6), ("t2", 6), ("t3", 2), ("t4", 2)]);
        let a: &[&str] = &["t1", "t2"];
        let b: &[&str] = &["t3", "t4"];
        expect_indexed(
            &range_assign(&indexed_consumers(&[a, a, b, b]), &c),
            &[
                "t1-0, t1-1, t1-2, t2-0, t2-1, t2-2",
                "t1-3, t1-4, t1-5, t2-3, t2-4, t2-5",
                "t3-0, t4-0",
                "t3-1, t4-1",
            ],
        );
        let all: &[&str] = &["t1", "t2", "t3", "t4"];
        expect_indexed(
            &range_assign(&indexed_consumers(&[all, all, all, all]), &c),
            &[
                "t1-0, t1-1, t2-0, t2-1, t3-0, t4-0",
                "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1",
                "t1-4, t2-4",
                "t1-5, t2-5",
            ],
        );
        // testCoPartitionedAssignmentWithSameSubscription: t7..t9 are subscribed but unknown.
        let c = counts(&[
            ("t1", 6),
            ("t2", 6),
            ("t3", 2),
            ("t4", 2),
            ("t5", 4),
            ("t6", 4),
        ]);
        let nine: &[&str] = &["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"];
        expect_indexed(
            &range_assign(&indexed_consumers(&[nine, nine, nine]), &c),
            &[
                "t1-0, t1-1, t2-0, t2-1, t3-0, t4-0, t5-0, t5-1, t6-0, t6-1",
                "t1-2, t1-3, t2-2, t2-3, t3-1, t4-1, t5-2, t6-2",
                "t1-4, t1-5, t2-4, t2-5, t5-3, t6-3",
            ],
        );
    }

    #[test]
    fn range_class_doc_example() {
        // RangeAssignor's Javadoc: C0: [t0p0, t0p1, t1p0, t1p1], C1: [t0p2, t1p2].
        let m = members(&[("C0", sub(&["t0", "t1"])), ("C1", sub(&["t0", "t1"]))]);
        let asg = range_assign(&m, &counts(&[("t0", 3), ("t1", 3)]));
        assert_eq!(asg["C0"], parse("t0-0, t0-1, t1-0, t1-1"));
        assert_eq!(asg["C1"], parse("t0-2, t1-2"));
    }

    // ---- RoundRobinAssignorTest -----------------------------------------------------------

    #[test]
    fn round_robin_two_dynamic_consumers_two_topics_six_partitions() {
        // RoundRobinAssignorTest.testTwoDynamicConsumersTwoTopicsSixPartitions
        let m = members(&[
            ("consumer1", sub(&["topic1", "topic2"])),
            ("consumer2", sub(&["topic1", "topic2"])),
        ]);
        let asg = round_robin_assign(&m, &counts(&[("topic1", 3), ("topic2", 3)]));
        assert_eq!(asg["consumer1"], parse("topic1-0, topic1-2, topic2-1"));
        assert_eq!(asg["consumer2"], parse("topic1-1, topic2-0, topic2-2"));
    }

    #[test]
    fn round_robin_static_consumers_sort_by_instance_id() {
        // testTwoStaticConsumersTwoTopicsSixPartitions and
        // testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions
        let c = counts(&[("topic1", 3), ("topic2", 3)]);
        let t = &["topic1", "topic2"];
        for second in [
            sub(t).with_group_instance_id("instance2"),
            sub(t), // dynamic: sorts after any static member
        ] {
            let m = members(&[
                ("consumer-b", sub(t).with_group_instance_id("instance1")),
                ("consumer-a", second),
            ]);
            let asg = round_robin_assign(&m, &c);
            assert_eq!(asg["consumer-b"], parse("topic1-0, topic1-2, topic2-1"));
            assert_eq!(asg["consumer-a"], parse("topic1-1, topic2-0, topic2-2"));
        }
    }

    #[test]
    fn round_robin_static_member_assignment_persistent() {
        // RoundRobinAssignorTest.testStaticMemberRoundRobinAssignmentPersistent
        let t = &["topic1", "topic2"];
        let mut m = members(&[
            ("consumer1", sub(t).with_group_instance_id("instance1")),
            ("consumer2", sub(t).with_group_instance_id("instance2")),
            ("consumer3", sub(t).with_group_instance_id("instance3")),
            ("consumer4", sub(t)),
        ]);
        let c = counts(&[("topic1", 3), ("topic2", 3)]);
        let mut expected: Assignment = [
            ("consumer1", "topic1-0, topic2-1"),
            ("consumer2", "topic1-1, topic2-2"),
            ("consumer3", "topic1-2"),
            ("consumer4", "topic2-0"),
        ]
        .iter()
        .map(|(m, l)| (m.to_string(), parse(l)))
        .collect();
        assert_eq!(round_robin_assign(&m, &c), expected);
        m.remove("consumer4");
        m.insert("consumer5".to_string(), sub(t));
        let l = expected.remove("consumer4").unwrap();
        expected.insert("consumer5".to_string(), l);
        assert_eq!(round_robin_assign(&m, &c), expected);
    }

    #[test]
    fn round_robin_static_member_assignment_persistent_after_member_id_changes() {
        // RoundRobinAssignorTest.testStaticMemberRoundRobinAssignmentPersistentAfterMemberIdChanges
        let t = &["topic1", "topic2"];
        let mut m = members(&[
            ("consumer1", sub(t).with_group_instance_id("instance1")),
            ("consumer2", sub(t).with_group_instance_id("instance2")),
            ("consumer3", sub(t).with_group_instance_id("instance3")),
        ]);
        let c = counts(&[("topic1", 5), ("topic2", 5)]);
        let expected: VecMap<String, Vec<TopicPartition>> = [
            ("instance1", "topic1-0, topic1-3, topic2-1, topic2-4"),
            ("instance2", "topic1-1, topic1-4, topic2-2"),
            ("instance3", "topic1-2, topic2-0, topic2-3"),
        ]
        .iter()
        .map(|(i, l)| (i.to_string(), parse(l)))
        .collect();
        assert_eq!(by_instance(&m, &round_robin_assign(&m, &c)), expected);
        swap_member_ids(&mut m);
        assert_eq!(by_instance(&m, &round_robin_assign(&m, &c)), expected);
    }

    #[test]
    fn round_robin_class_doc_examples() {
        // RoundRobinAssignor's Javadoc, identical subscriptions:
        // C0: [t0p0, t0p2, t1p1], C1: [t0p1, t1p0, t1p2].
        let m = members(&[("C0", sub(&["t0", "t1"])), ("C1", sub(&["t0", "t1"]))]);
        let asg = round_robin_assign(&m, &counts(&[("t0", 3), ("t1", 3)]));
        assert_eq!(asg["C0"], parse("t0-0, t0-2, t1-1"));
        assert_eq!(asg["C1"], parse("t0-1, t1-0, t1-2"));
        // Differing subscriptions: C0 [t0], C1 [t0, t1], C2 [t0, t1, t2] with 1, 2, 3 partitions:
        // C0: [t0p0], C1: [t1p0], C2: [t1p1, t2p0, t2p1, t2p2].
        let m = members(&[
            ("C0", sub(&["t0"])),
            ("C1", sub(&["t0", "t1"])),
            ("C2", sub(&["t0", "t1", "t2"])),
        ]);
        let asg = round_robin_assign(&m, &counts(&[("t0", 1), ("t1", 2), ("t2", 3)]));
        assert_eq!(asg["C0"], parse("t0-0"));
        assert_eq!(asg["C1"], parse("t1-0"));
        assert_eq!(asg["C2"], parse("t1-1, t2-0, t2-1, t2-2"));
    }

    #[test]
    fn round_robin_with_no_members_is_empty() {
        let asg = round_robin_assign(&VecMap::new(), &counts(&[("t", 3)]));
        assert!(asg.is_empty());
        assert!(range_assign(&VecMap::new(), &counts(&[("t", 3)])).is_empty());
    }

    // ---- properties -----------------------------------------------------------------------

    #[test]
    fn check_assignment_catches_breaches() {
        let m = members(&[("a", sub(&["t"])), ("b", sub(&["u"]))]);
        let c = counts(&[("t", 2), ("u", 1)]);
        let good = range_assign(&m, &c);
        assert_eq!(check_assignment(&m, &c, &good), Ok(()));
        let mut twice = good.clone();
        twice.get_mut("a").unwrap().push(tp("t", 0));
        assert!(check_assignment(&m, &c, &twice).is_err());
        let mut missing = good.clone();
        missing.get_mut("a").unwrap().pop();
        assert!(check_assignment(&m, &c, &missing).is_err());
        let mut wrong_member = good.clone();
        wrong_member.get_mut("b").unwrap().push(tp("t", 5));
        assert!(check_assignment(&m, &c, &wrong_member).is_err());
        let mut unsubscribed = good;
        let moved = unsubscribed.get_mut("a").unwrap().remove(0);
        unsubscribed.get_mut("b").unwrap().push(moved);
        assert!(check_assignment(&m, &c, &unsubscribed).is_err());
    }

    /// A random group: up to 7 members (some static), up to 5 topics of 0..=9 partitions, each
    /// member subscribing to a random subset (some topics unknown to the metadata).
    fn random_group(rng: &mut Rng) -> (VecMap<String, Subscription>, VecMap<String, u32>) {
        let topics: Vec<String> = (0..6).map(|i| format!("topic-{i}")).collect();
        let mut c = VecMap::new();
        for t in &topics[..5] {
            if rng.up_to(5) > 0 {
                c.insert(t.clone(), rng.up_to(9) as u32);
            }
        }
        let mut m = VecMap::new();
        let n = rng.up_to(7);
        for i in 0..n {
            let chosen: Vec<String> = topics
                .iter()
                .filter(|_| rng.up_to(1) == 0)
                .cloned()
                .collect();
            let mut s = Subscription::new(chosen);
            if rng.up_to(3) == 0 {
                s = s.with_group_instance_id(&format!("instance-{}", rng.up_to(1000) * 10 + i));
            }
            let id = crate::sim::group_order::member_id(&format!("consumer-{i}"), rng);
            m.insert(id, s);
        }
        (m, c)
    }

    #[test]
    fn every_subscribed_partition_goes_exactly_once_to_a_subscriber() {
        for seed in 0..400u64 {
            let mut rng = Rng::new(seed);
            let (m, c) = random_group(&mut rng);
            for (a, asg) in both(&m, &c) {
                assert_eq!(check_assignment(&m, &c, &asg), Ok(()), "{a:?} seed {seed}");
                // Deterministic: the same input gives the same output.
                assert_eq!(a.assign(&m, &c), asg, "{a:?} seed {seed}");
            }
        }
    }

    #[test]
    fn range_balances_each_topic_among_its_subscribers() {
        for seed in 0..300u64 {
            let mut rng = Rng::new(seed);
            let (m, c) = random_group(&mut rng);
            let asg = range_assign(&m, &c);
            for topic in c.keys() {
                let per_member: Vec<usize> = m
                    .iter()
                    .filter(|(_, s)| s.subscribes_to(topic))
                    .map(|(id, _)| asg[id].iter().filter(|tp| &tp.topic == topic).count())
                    .collect();
                if let (Some(lo), Some(hi)) = (per_member.iter().min(), per_member.iter().max()) {
                    assert!(hi - lo <= 1, "seed {seed} topic {topic}: {per_member:?}");
                }
            }
        }
    }

    #[test]
    fn round_robin_with_identical_subscriptions_is_balanced_overall() {
        for seed in 0..300u64 {
            let mut rng = Rng::new(seed);
            let (m, c) = random_group(&mut rng);
            let topics: Vec<String> = c.keys().cloned().collect();
            let m: VecMap<String, Subscription> = m
                .into_iter()
                .map(|(id, s)| {
                    let mut same = Subscription::new(topics.clone());
                    same.group_instance_id = s.group_instance_id;
                    (id, same)
                })
                .collect();
            let asg = round_robin_assign(&m, &c);
            let sizes: Vec<usize> = asg.values().map(Vec::len).collect();
            if let (Some(lo), Some(hi)) = (sizes.iter().min(), sizes.iter().max()) {
                assert!(hi - lo <= 1, "seed {seed}: {sizes:?}");
            }
        }
    }
}
