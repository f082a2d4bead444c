//! The order in which ZooKeeper deletes a closing session's ephemeral znodes: the iteration
//! order of a `java.util.HashSet` of their paths, which decides the order of the watch
//! notifications the other sessions receive (the `/controller` deletion before or after the
//! broker's `/brokers/ids/N`).
//!
//! ZooKeeper 3.8: `DataTree` keeps each session's ephemeral paths in a `HashSet` (16 buckets,
//! filled in creation order); `PrepRequestProcessor` takes a copy for the closeSession txn
//! (`DataTree.getEphemerals`: `HashSet.clone`, which `HashMap.clone` pre-sizes to
//! `tableSizeFor(size / 0.75 + 1)` buckets and fills in the original's iteration order), and
//! `DataTree.killSession` deletes them in the copy's iteration order (`CloseSessionTxn`'s
//! list). A `HashMap` iterates its buckets in index order, each bucket's entries in the order
//! they were added (a resize splits a bucket without reordering it).

/// `String.hashCode` (over UTF-16 code units, wrapping).
fn string_hash(s: &str) -> u32 {
    s.encode_utf16()
        .fold(0u32, |h, c| h.wrapping_mul(31).wrapping_add(u32::from(c)))
}

/// The bucket of `s` in a table of `capacity` buckets (`HashMap.hash`: `h ^ (h >>> 16)`).
fn bucket(s: &str, capacity: usize) -> usize {
    let h = string_hash(s);
    (h ^ (h >> 16)) as usize & (capacity - 1)
}

/// `HashMap.tableSizeFor`: the smallest power of two at least `n` (at least 1).
fn table_size_for(n: usize) -> usize {
    n.max(1).next_power_of_two()
}

/// The iteration order of a set of `capacity` buckets filled with `items` in their order.
fn iteration_order(items: &[String], capacity: usize) -> Vec<String> {
    let mut buckets = vec![Vec::new(); capacity];
    for s in items {
        buckets[bucket(s, capacity)].push(s.clone());
    }
    buckets.into_iter().flatten().collect()
}

/// The order in which a closing session's ephemeral znodes are deleted, given their paths in
/// the order they were created. The session's own set has 16 buckets, doubled each time it
/// held more than 3/4 of them (taken from today's size: Kafka's sessions own at most two
/// ephemeral znodes); bins are never turned into trees at these sizes.
pub(super) fn close_order(created: &[String]) -> Vec<String> {
    let n = created.len();
    let mut own = 16;
    while n * 4 > own * 3 {
        own *= 2;
    }
    let original = iteration_order(created, own);
    // HashMap.clone → putMapEntries: (float) size / 0.75f + 1.0f, truncated.
    let copy = table_size_for((n as f32 / 0.75 + 1.0) as usize);
    iteration_order(&original, copy)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn strings_hash_as_java_does() {
        // "hello".hashCode() == 99162322; "/controller".hashCode() == 2080060683.
        assert_eq!(string_hash("hello"), 99_162_322);
        assert_eq!(string_hash(""), 0);
        assert_eq!(string_hash("/controller") as i32, 2_080_060_683);
    }

    #[test]
    fn a_controllers_session_deletes_controller_before_its_registration() {
        // As ZooKeeper 3.8.0 did in the conformance suite: /controller first, whichever was
        // created first and whatever the broker id.
        for id in 1..=9 {
            let reg = format!("/brokers/ids/{id}");
            for created in [paths(&[&reg, "/controller"]), paths(&["/controller", &reg])] {
                assert_eq!(close_order(&created), paths(&["/controller", &reg]));
            }
        }
        assert_eq!(close_order(&paths(&["/a"])), paths(&["/a"]));
        assert!(close_order(&[]).is_empty());
    }
}
