//! Kafka's rack-unaware replica assignment: how `kafka-topics --create --partitions N
//! --replication-factor R` spreads replicas over the brokers (`AdminUtils` /
//! `AdminZkClient.assignReplicasToBrokers`, rack-unaware branch).
//!
//! The brokers are taken in id order. Partition p's first replica (its preferred leader) is
//! broker `(p + start) mod n`; the others follow at a shift that grows by one every n
//! partitions, so that followers spread as evenly as leaders. Kafka draws `start` and the
//! first shift at random; here they come from the world's seeded RNG (or are given).

use super::net::BrokerId;
use super::rng::Rng;

/// Where the assignment starts: Kafka's `fixedStartIndex`, or drawn from the RNG.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// Both the start index and the first replica shift are this value.
    Fixed(usize),
    /// Both are drawn (separately) from the RNG, as Kafka draws them from its Random.
    Random,
}

/// The replicas of partitions `0..partitions`, each list in assignment order (first =
/// preferred replica). `brokers` may be in any order; Kafka sorts them by id.
pub fn assign(
    brokers: &[BrokerId],
    partitions: u32,
    replication_factor: u32,
    start: Start,
    rng: &mut Rng,
) -> Result<Vec<Vec<BrokerId>>, String> {
    let mut brokers = brokers.to_vec();
    crate::collections::sort(&mut brokers);
    brokers.dedup();
    let n = brokers.len();
    if partitions == 0 {
        return Err("the number of partitions must be at least 1".into());
    }
    if replication_factor == 0 {
        return Err("the replication factor must be at least 1".into());
    }
    if replication_factor as usize > n {
        return Err(format!(
            "replication factor {replication_factor} is larger than the {n} available broker{}",
            if n == 1 { "" } else { "s" }
        ));
    }
    let (start_index, mut shift) = match start {
        Start::Fixed(i) => (i % n, i),
        Start::Random => (
            rng.up_to(n as u64 - 1) as usize,
            rng.up_to(n as u64 - 1) as usize,
        ),
    };
    let mut result = Vec::with_capacity(partitions as usize);
    for p in 0..partitions as usize {
        if p > 0 && p % n == 0 {
            shift += 1;
        }
        let first = (p + start_index) % n;
        let mut replicas = vec![brokers[first]];
        for j in 0..replication_factor as usize - 1 {
            // Kafka's replicaIndex: 1 + (shift + j) mod (n - 1) places after the first.
            let offset = 1 + (shift + j) % (n - 1);
            replicas.push(brokers[(first + offset) % n]);
        }
        result.push(replicas);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(brokers: &[BrokerId], p: u32, rf: u32, start: usize) -> Vec<Vec<BrokerId>> {
        assign(brokers, p, rf, Start::Fixed(start), &mut Rng::new(0)).unwrap()
    }

    #[test]
    fn matches_kafkas_own_expected_assignment() {
        // Five brokers, ten partitions, replication factor 3, fixed start index 0: the
        // assignment Kafka's replica-assignment test expects.
        let expected: Vec<Vec<BrokerId>> = vec![
            vec![0, 1, 2],
            vec![1, 2, 3],
            vec![2, 3, 4],
            vec![3, 4, 0],
            vec![4, 0, 1],
            vec![0, 2, 3],
            vec![1, 3, 4],
            vec![2, 4, 0],
            vec![3, 0, 1],
            vec![4, 1, 2],
        ];
        assert_eq!(fixed(&[0, 1, 2, 3, 4], 10, 3, 0), expected);
        assert_eq!(
            fixed(&[4, 2, 0, 3, 1], 10, 3, 0),
            expected,
            "brokers are taken in id order"
        );
        // Three brokers, six partitions: the shift moves the followers after n partitions.
        assert_eq!(
            fixed(&[0, 1, 2], 6, 3, 0),
            vec![
                vec![0, 1, 2],
                vec![1, 2, 0],
                vec![2, 0, 1],
                vec![0, 2, 1],
                vec![1, 0, 2],
                vec![2, 1, 0]
            ]
        );
    }

    #[test]
    fn every_partition_gets_distinct_replicas_and_leaders_spread_evenly() {
        let brokers = [1, 2, 3, 4, 5, 6];
        for seed in 0..50 {
            let a = assign(&brokers, 12, 3, Start::Random, &mut Rng::new(seed)).unwrap();
            let mut leaders = [0; 7];
            for r in &a {
                let mut d = r.clone();
                d.sort_unstable();
                d.dedup();
                assert_eq!(d.len(), 3, "seed {seed}: {r:?}");
                leaders[r[0] as usize] += 1;
            }
            assert!(
                leaders[1..].iter().all(|&c| c == 2),
                "seed {seed}: {leaders:?}"
            );
        }
    }

    #[test]
    fn the_seed_decides_and_replays() {
        let brokers = [1, 2, 3];
        let a = assign(&brokers, 3, 2, Start::Random, &mut Rng::new(5)).unwrap();
        assert_eq!(
            a,
            assign(&brokers, 3, 2, Start::Random, &mut Rng::new(5)).unwrap()
        );
        let all: crate::collections::VecSet<Vec<Vec<BrokerId>>> = (0..20)
            .map(|s| assign(&brokers, 3, 2, Start::Random, &mut Rng::new(s)).unwrap())
            .collect();
        assert!(all.len() > 1, "different seeds give different assignments");
    }

    #[test]
    fn impossible_requests_say_why() {
        let mut rng = Rng::new(0);
        assert!(assign(&[1, 2], 3, 3, Start::Random, &mut rng)
            .unwrap_err()
            .contains("larger than the 2 available brokers"));
        assert!(assign(&[1], 0, 1, Start::Random, &mut rng)
            .unwrap_err()
            .contains("partitions"));
        assert!(assign(&[1], 1, 0, Start::Random, &mut rng)
            .unwrap_err()
            .contains("replication factor"));
        assert_eq!(
            fixed(&[7], 2, 1, 0),
            vec![vec![7], vec![7]],
            "one broker, one replica each"
        );
    }
}
