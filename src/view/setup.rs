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

/// Free play's first starting consumer joins at this virtual time (the brokers are up by
/// then), the next ones [`JOIN_SPACING_MS`] apart.
pub const FIRST_JOIN_MS: u64 = 2_000;

/// Time between the joins of free play's starting consumers (`consumers=N`).
pub const JOIN_SPACING_MS: u64 = 500;

/// The name the page gives its `n`-th consumer (from 1): `c1`, `c2`, …
pub fn consumer_name(n: usize) -> String {
    format!("c{n}")
}

/// Free play's choices: everything the page address may set about its cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FreePlay {
    /// The world's seed.
    pub seed: u64,
    /// The Kafka release imitated.
    pub profile: Profile,
    /// How many brokers.
    pub brokers: u32,
    /// The topic's partitions.
    pub partitions: u32,
    /// Its replication factor (at most the broker count).
    pub rf: u32,
    /// How many consumers join at the start.
    pub consumers: u32,
    /// The group's assignor.
    pub assignor: Assignor,
}

impl Default for FreePlay {
    fn default() -> Self {
        FreePlay {
            seed: DEFAULT_SEED,
            profile: Profile::default(),
            brokers: DEFAULT_BROKERS,
            partitions: DEFAULT_PARTITIONS,
            rf: DEFAULT_RF.clamp(1, DEFAULT_BROKERS),
            consumers: 0,
            assignor: Assignor::Range,
        }
    }
}

impl FreePlay {
    /// The page parameters that ask for this free play (only those that differ from the
    /// defaults), in the order the page writes them.
    pub fn params(&self) -> Vec<(String, String)> {
        let d = FreePlay::default();
        let mut out = Vec::new();
        let mut put = |k: &str, v: String, same: bool| {
            if !same {
                out.push((k.to_string(), v));
            }
        };
        put("seed", self.seed.to_string(), self.seed == d.seed);
        put(
            "profile",
            self.profile.name().to_string(),
            self.profile == d.profile,
        );
        put(
            "brokers",
            self.brokers.to_string(),
            self.brokers == d.brokers,
        );
        put(
            "partitions",
            self.partitions.to_string(),
            self.partitions == d.partitions,
        );
        put(
            "rf",
            self.rf.to_string(),
            self.rf == DEFAULT_RF.clamp(1, self.brokers.max(1)),
        );
        put("consumers", self.consumers.to_string(), self.consumers == 0);
        put(
            "assignor",
            self.assignor.name().to_string(),
            self.assignor == d.assignor,
        );
        out
    }

    /// Free play's session start: the cluster of [`free_setup`], its starting consumers'
    /// joins as the script, and the same setup as a scenario file (written when an export
    /// asks for it: [`crate::session::Start::file`]). The error says why the topic is missing.
    pub fn start(&self) -> (crate::session::Start, Option<String>) {
        let (setup, error) = free_setup(
            self.seed,
            self.profile,
            (self.brokers, self.partitions, self.rf),
            self.assignor,
        );
        let mut script = Vec::new();
        if !setup.groups.is_empty() {
            // The first join waits until the brokers are up (they start 100 ms apart).
            let first = FIRST_JOIN_MS.max(setup.topics_created_ms() + 1_000);
            script = (0..self.consumers as u64)
                .map(|i| {
                    (
                        first + i * JOIN_SPACING_MS,
                        crate::sim::Command::Join {
                            group: DEFAULT_GROUP.to_string(),
                            member: consumer_name(i as usize + 1),
                        },
                    )
                })
                .collect();
        }
        (
            crate::session::Start {
                base: self.params(),
                setup,
                file: crate::session::StartFile::FreePlay,
                script,
            },
            error,
        )
    }
}
