//! Free play's world: the cluster the page starts with (its brokers, its topic and its
//! consumer group), the same natively and in the browser.

use crate::sim::assignment::{assign, Start};
use crate::sim::assignors::Assignor;
use crate::sim::commands::GroupSpec;
use crate::sim::rng::Rng;
use crate::sim::{BrokerId, Profile, Settings, Setup, TopicConfig, TopicSpec};

/// The broker count free play starts with.
pub const DEFAULT_BROKERS: u32 = 3;

/// The default seed: the same story every time the page opens, until "new seed".
pub const DEFAULT_SEED: u64 = 42;

/// The topic free play creates.
pub const DEFAULT_TOPIC: &str = "orders";

/// Its partition count, unless the page address says otherwise.
pub const DEFAULT_PARTITIONS: u32 = 3;

/// The replication factor free play uses when there are enough brokers.
pub const DEFAULT_RF: u32 = 3;

/// The consumer group free play creates, subscribed to [`DEFAULT_TOPIC`].
pub const DEFAULT_GROUP: &str = "my-group";

/// Free play's cluster: `brokers` brokers and the topic [`DEFAULT_TOPIC`] with `partitions`
/// partitions of `rf` replicas each, placed by Kafka's own assignment (fixed start, so the
/// first partition's preferred replica is broker 1), and the group [`DEFAULT_GROUP`]
/// subscribed to it with `assignor`. `__consumer_offsets` keeps Kafka's 50 partitions; its
/// replication factor is Kafka's 3, or the broker count when there are fewer brokers (Kafka
/// would refuse to create it). The error says why the topic is missing.
pub fn free_setup(
    seed: u64,
    profile: Profile,
    (brokers, partitions, rf): (u32, u32, u32),
    assignor: Assignor,
) -> (Setup, Option<String>) {
    let mut settings = Settings::for_profile(profile);
    settings.offsets_topic_replication_factor = settings
        .offsets_topic_replication_factor
        .min(brokers)
        .max(1);
    let mut setup = Setup::with_brokers(seed, settings, brokers);
    let ids: Vec<BrokerId> = (1..=brokers).collect();
    match assign(&ids, partitions, rf, Start::Fixed(0), &mut Rng::new(seed)) {
        Ok(replicas) => {
            setup.topics.push(TopicSpec {
                name: DEFAULT_TOPIC.to_string(),
                replicas,
                config: TopicConfig::default(),
            });
            setup.groups.push(GroupSpec {
                id: DEFAULT_GROUP.to_string(),
                topics: vec![DEFAULT_TOPIC.to_string()],
                assignor: assignor.name().to_string(),
            });
            (setup, None)
        }
        Err(e) => (
            setup,
            Some(format!(
                "the topic {DEFAULT_TOPIC} could not be created: {e}"
            )),
        ),
    }
}

/// Free play's cluster as the page opens with no parameters: [`DEFAULT_BROKERS`] brokers,
/// [`DEFAULT_TOPIC`] with [`DEFAULT_PARTITIONS`] partitions of [`DEFAULT_RF`] replicas (at
/// most the broker count), the group [`DEFAULT_GROUP`] with the range assignor, the default
/// profile and [`DEFAULT_SEED`].
pub fn default_setup() -> (Setup, Option<String>) {
    free_setup(
        DEFAULT_SEED,
        Profile::default(),
        (
            DEFAULT_BROKERS,
            DEFAULT_PARTITIONS,
            DEFAULT_RF.clamp(1, DEFAULT_BROKERS),
        ),
        Assignor::Range,
    )
}
