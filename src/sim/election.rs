//! The partition leader elections the controller runs, as pure functions of a partition's
//! assignment, ISR and the live brokers (Kafka's `Election.scala` and
//! `PartitionLeaderElectionAlgorithms`), plus the auto-rebalance imbalance rule
//! (`KafkaController.checkAndTriggerAutoLeaderRebalance`).
//!
//! Every election walks the replicas in **assignment order** (the first is the preferred
//! replica), never in ISR order.

use super::net::BrokerId;
use crate::collections::{VecMap, VecSet};

/// The outcome of an election: the new leader and ISR, and whether it was unclean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elected {
    /// The new leader.
    pub leader: BrokerId,
    /// The new ISR.
    pub isr: Vec<BrokerId>,
    /// Whether the leader came from outside the ISR (`unclean.leader.election.enable`).
    pub unclean: bool,
}

/// Offline election (a leaderless partition, or its leader died): the first replica in
/// assignment order that is live and in the ISR, with the ISR cut down to live members; else,
/// only when unclean election is enabled, the first live replica, with the ISR just `[leader]`;
/// else none (the partition stays offline).
pub fn offline(
    assignment: &[BrokerId],
    isr: &[BrokerId],
    live: &VecSet<BrokerId>,
    unclean_enabled: bool,
) -> Option<Elected> {
    let clean = assignment
        .iter()
        .find(|r| live.contains(r) && isr.contains(r))
        .map(|&leader| Elected {
            leader,
            isr: isr.iter().copied().filter(|r| live.contains(r)).collect(),
            unclean: false,
        });
    clean.or_else(|| {
        unclean_enabled
            .then(|| assignment.iter().find(|r| live.contains(r)))
            .flatten()
            .map(|&leader| Elected {
                leader,
                isr: vec![leader],
                unclean: true,
            })
    })
}

/// Preferred election: the preferred replica (first in the assignment), only if it is live
/// and in the ISR. The ISR does not change.
pub fn preferred(
    assignment: &[BrokerId],
    isr: &[BrokerId],
    live: &VecSet<BrokerId>,
) -> Option<Elected> {
    let &first = assignment.first()?;
    (live.contains(&first) && isr.contains(&first)).then(|| Elected {
        leader: first,
        isr: isr.to_vec(),
        unclean: false,
    })
}

/// Controlled shutdown election for a partition led by a stopping broker: the first replica in
/// assignment order that is live, in the ISR and not shutting down; the stopping brokers leave
/// the ISR.
pub fn controlled_shutdown(
    assignment: &[BrokerId],
    isr: &[BrokerId],
    live: &VecSet<BrokerId>,
    shutting_down: &VecSet<BrokerId>,
) -> Option<Elected> {
    let leader = *assignment
        .iter()
        .find(|r| live.contains(r) && isr.contains(r) && !shutting_down.contains(r))?;
    Some(Elected {
        leader,
        isr: isr
            .iter()
            .copied()
            .filter(|r| !shutting_down.contains(r))
            .collect(),
        unclean: false,
    })
}

/// Reassignment election: the first replica of the *target* assignment that is live and in the
/// ISR. The ISR does not change.
pub fn reassignment(
    target: &[BrokerId],
    isr: &[BrokerId],
    live: &VecSet<BrokerId>,
) -> Option<Elected> {
    let leader = *target
        .iter()
        .find(|r| live.contains(r) && isr.contains(r))?;
    Some(Elected {
        leader,
        isr: isr.to_vec(),
        unclean: false,
    })
}

/// The replica list of a partition while it is reassigned from `original` to `target`.
///
/// From 2.4 (KIP-455, `ReplicaAssignment.reassignTo`, 3.9.0): the target replicas in their
/// order, then the original replicas that are not in the target, so an election during the move
/// walks the target first (`[1, 2, 3]` → `[2, 3, 4]` lists `[2, 3, 4, 1]`).
///
/// Before 2.4 (`KafkaController.onPartitionReassignment`, 2.0.1 and 0.10.2.2):
/// `(newReplicas ++ originalReplicas).toSet.toSeq`, the iteration order of a Scala 2.11
/// immutable set ([`scala_immutable_set_order`]): the same as above for up to four distinct
/// brokers, a hash order beyond.
pub fn reassignment_replicas(
    original: &[BrokerId],
    target: &[BrokerId],
    target_first: bool,
) -> Vec<BrokerId> {
    let mut all: Vec<BrokerId> = target.to_vec();
    for r in original {
        if !all.contains(r) {
            all.push(*r);
        }
    }
    if target_first {
        all
    } else {
        scala_immutable_set_order(&all)
    }
}

/// The iteration order of a Scala 2.11/2.12 `immutable.Set[Int]` built by adding `distinct` in
/// order (`Set.toSet`, `SetBuilder`): `Set1` to `Set4` keep the order of insertion; from the
/// fifth element the set is a `HashSet`, a hash trie that iterates by the improved hash
/// (`HashSet.improve`: `h + ~(h << 9)`, `h ^ (h >>> 14)`, `h + (h << 4)`, `h ^ (h >>> 10)`),
/// five bits at a time from the lowest (`HashTrieSet`: index `(hash >>> level) & 0x1f`, children
/// in index order). Sources: `scala/collection/immutable/Set.scala` and `HashSet.scala`,
/// v2.11.12 (the same in v2.12.10). `improve` is a bijection on 32-bit ints, so two brokers never
/// share a hash.
pub fn scala_immutable_set_order(distinct: &[BrokerId]) -> Vec<BrokerId> {
    if distinct.len() <= 4 {
        return distinct.to_vec();
    }
    let mut keyed: Vec<(u64, BrokerId)> = distinct
        .iter()
        .map(|&b| (trie_order_key(scala_hash_set_improve(b as i32)), b))
        .collect();
    crate::collections::sort(&mut keyed);
    keyed.into_iter().map(|(_, b)| b).collect()
}

/// `scala.collection.immutable.HashSet.improve` (2.11/2.12), in wrapping `Int` arithmetic.
pub fn scala_hash_set_improve(hcode: i32) -> i32 {
    let mut h = hcode.wrapping_add(!(hcode.wrapping_shl(9)));
    h ^= ((h as u32) >> 14) as i32;
    h = h.wrapping_add(h.wrapping_shl(4));
    h ^ ((h as u32) >> 10) as i32
}

/// The position of a hash in a hash trie's iteration: its 5-bit digits from the lowest up,
/// read as one number with the lowest digit most significant.
fn trie_order_key(hash: i32) -> u64 {
    let h = hash as u32;
    (0..7).fold(0u64, |key, level| {
        (key << 5) | u64::from((h >> (5 * level)) & 0x1f)
    })
}

/// One partition as the rebalance check sees it: its assignment and current leader (`None`
/// while offline).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leadership {
    /// The assignment, preferred replica first.
    pub assignment: Vec<BrokerId>,
    /// The current leader.
    pub leader: Option<BrokerId>,
}

/// The auto-rebalance rule: for each broker B, the share of partitions whose preferred replica
/// is B but whose leader is not B. The brokers whose share is **strictly above**
/// `leader.imbalance.per.broker.percentage` / 100, each with the indices of its partitions that
/// are not led by it, in order.
pub fn imbalanced(partitions: &[Leadership], percentage: u32) -> VecMap<BrokerId, Vec<usize>> {
    let mut preferred_of: VecMap<BrokerId, (usize, Vec<usize>)> = VecMap::new();
    for (i, p) in partitions.iter().enumerate() {
        if let Some(&b) = p.assignment.first() {
            let entry = preferred_of.entry(b).or_default();
            entry.0 += 1;
            if p.leader != Some(b) {
                entry.1.push(i);
            }
        }
    }
    preferred_of
        .into_iter()
        // not_led / total > percentage / 100, in integers.
        .filter(|(_, (total, not_led))| not_led.len() * 100 > *total * percentage as usize)
        .map(|(b, (_, not_led))| (b, not_led))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[BrokerId]) -> VecSet<BrokerId> {
        ids.iter().copied().collect()
    }

    #[test]
    fn offline_election_follows_assignment_order_not_isr_order() {
        // ISR listed as [3, 2]: the leader is still 2, the first of the assignment.
        let e = offline(&[1, 2, 3], &[3, 2], &set(&[2, 3]), false).unwrap();
        assert_eq!(
            e,
            Elected {
                leader: 2,
                isr: vec![3, 2],
                unclean: false
            }
        );
    }

    #[test]
    fn offline_election_drops_dead_members_from_the_isr() {
        let e = offline(&[1, 2, 3], &[1, 2, 3], &set(&[2, 3]), false).unwrap();
        assert_eq!((e.leader, e.isr), (2, vec![2, 3]));
    }

    #[test]
    fn without_a_live_isr_member_unclean_decides() {
        // ISR [1], broker 1 dead, 2 and 3 alive but out of sync.
        assert_eq!(offline(&[1, 2, 3], &[1], &set(&[2, 3]), false), None);
        let e = offline(&[1, 3, 2], &[1], &set(&[2, 3]), true).unwrap();
        assert_eq!(
            e,
            Elected {
                leader: 3,
                isr: vec![3],
                unclean: true
            },
            "first live in assignment order"
        );
        assert_eq!(offline(&[1, 2], &[1], &set(&[]), true), None, "nobody live");
    }

    #[test]
    fn preferred_election_needs_the_preferred_replica_live_and_in_sync() {
        assert_eq!(
            preferred(&[1, 2, 3], &[2, 3, 1], &set(&[1, 2, 3])).map(|e| e.leader),
            Some(1)
        );
        assert_eq!(
            preferred(&[1, 2, 3], &[2, 3], &set(&[1, 2, 3])),
            None,
            "not in the ISR"
        );
        assert_eq!(
            preferred(&[1, 2, 3], &[1, 2, 3], &set(&[2, 3])),
            None,
            "not live"
        );
        assert_eq!(
            preferred(&[1, 2, 3], &[2, 3, 1], &set(&[1, 2, 3]))
                .unwrap()
                .isr,
            vec![2, 3, 1]
        );
    }

    #[test]
    fn controlled_shutdown_skips_stopping_brokers_and_removes_them_from_the_isr() {
        let e =
            controlled_shutdown(&[1, 2, 3], &[1, 2, 3], &set(&[1, 2, 3]), &set(&[1, 2])).unwrap();
        assert_eq!((e.leader, e.isr), (3, vec![3]));
        assert_eq!(
            controlled_shutdown(&[1, 2], &[1, 2], &set(&[1, 2]), &set(&[1, 2])),
            None
        );
    }

    #[test]
    fn reassignment_elects_from_the_target_replicas() {
        let e = reassignment(&[4, 5, 1], &[1, 4, 5], &set(&[1, 4, 5])).unwrap();
        assert_eq!((e.leader, e.isr), (4, vec![1, 4, 5]));
        assert_eq!(reassignment(&[4, 5], &[1], &set(&[1, 4, 5])), None);
    }

    #[test]
    fn reassignment_lists_the_target_first() {
        assert_eq!(
            reassignment_replicas(&[1, 2, 3], &[2, 3, 4], true),
            [2, 3, 4, 1]
        );
        assert_eq!(
            reassignment_replicas(&[2, 3, 4], &[3, 5, 6], true),
            [3, 5, 6, 2, 4]
        );
        assert_eq!(
            reassignment_replicas(&[1, 2, 3], &[2, 1, 3], true),
            [2, 1, 3]
        );
        // Before 2.4: a Scala set; up to four brokers it keeps the order they were added in.
        assert_eq!(
            reassignment_replicas(&[1, 2, 3], &[2, 3, 4], false),
            [2, 3, 4, 1]
        );
    }

    #[test]
    fn scala_hash_set_improve_matches_hand_computed_values() {
        // improve(0): 0 + ~0 = -1; -1 ^ (-1 >>> 14) = -1 ^ 0x3ffff = 0xfffc0000;
        // 0xfffc0000 + 0xffc00000 = 0xfFBC0000 (mod 2^32); ^ (>>> 10 = 0x3FFEF0) = 0xFFBC_0000 ^
        // 0x003F_EF00 = 0xFF83_EF00.
        assert_eq!(scala_hash_set_improve(0) as u32, 0xFF83_EF00);
        // improve(1): 1 + ~512 = 1 - 513 = -512 = 0xFFFF_FE00; ^ (>>> 14 = 0x3FFFF) = 0xFFFC_01FF;
        // + (<< 4 = 0xFFC0_1FF0) = 0xFFBC_21EF; ^ (>>> 10 = 0x003F_EF08) = 0xFF83_CEE7.
        assert_eq!(scala_hash_set_improve(1) as u32, 0xFF83_CEE7);
    }

    #[test]
    fn five_or_more_brokers_follow_the_hash_trie() {
        // The improved hashes of 2..=6 are 0xff83acce, 0xff838ad4, 0xff83689d, 0xff834681 and
        // 0xff8324a8, whose lowest five bits are 14, 20, 29, 1 and 8: the trie yields 5 (1),
        // 6 (8), 2 (14), 3 (20), 4 (29), whatever the order they were added in.
        assert_eq!(scala_hash_set_improve(5) as u32, 0xff83_4681);
        assert_eq!(scala_immutable_set_order(&[2, 3, 4, 5, 6]), [5, 6, 2, 3, 4]);
        assert_eq!(scala_immutable_set_order(&[3, 5, 6, 2, 4]), [5, 6, 2, 3, 4]);
        // With broker 1 (0xff83cee7, low bits 7) it comes second.
        assert_eq!(
            scala_immutable_set_order(&[1, 2, 3, 4, 5, 6]),
            [5, 1, 6, 2, 3, 4]
        );
        // [2, 3, 4] → [3, 5, 6] before 2.4: five brokers, so the hash order.
        assert_eq!(
            reassignment_replicas(&[2, 3, 4], &[3, 5, 6], false),
            [5, 6, 2, 3, 4]
        );
    }

    #[test]
    fn rebalance_triggers_only_strictly_above_the_threshold() {
        let p = |a: &[BrokerId], l: BrokerId| Leadership {
            assignment: a.to_vec(),
            leader: Some(l),
        };
        // Broker 1 prefers 10 partitions and leads 9: exactly 10 % imbalance, not above 10.
        let mut parts: Vec<Leadership> = (0..9).map(|_| p(&[1, 2], 1)).collect();
        parts.push(p(&[1, 2], 2));
        assert!(imbalanced(&parts, 10).is_empty());
        // Two of ten not led: 20 % > 10 %.
        parts[0].leader = Some(2);
        assert_eq!(imbalanced(&parts, 10), VecMap::from([(1, vec![0, 9])]));
        // An offline partition counts as not led by its preferred replica.
        let offline = vec![Leadership {
            assignment: vec![3, 1],
            leader: None,
        }];
        assert_eq!(imbalanced(&offline, 10), VecMap::from([(3, vec![0])]));
    }
}
