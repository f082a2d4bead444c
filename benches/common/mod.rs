//! What the benchmarks share.

use kafka_election_playground::session::Start;
use kafka_election_playground::view::setup::FreePlay;

/// The start of the benchmarks' busy free play: 9 brokers, 12 partitions and 6 consumers (the
/// page's own benchmarks open the same: `?brokers=9&partitions=12&consumers=6`).
pub fn busy_free_play() -> Start {
    let (start, error) = FreePlay {
        brokers: 9,
        partitions: 12,
        consumers: 6,
        ..FreePlay::default()
    }
    .start();
    assert!(error.is_none(), "{error:?}");
    start
}
