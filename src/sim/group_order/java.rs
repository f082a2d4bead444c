//! The Java side of the group coordinator's ids: `String.hashCode`, Kafka's `Utils.abs`, the
//! coordinator partition of a group, and member ids made from random UUIDs (see the sources in
//! [the module above](super)).

use crate::sim::rng::Rng;

/// Java's `String.hashCode`: `h = 31 * h + c` over the UTF-16 code units `c` of `s`, with `int`
/// (wrapping, two's complement) arithmetic. Characters outside the Basic Multilingual Plane count
/// as two code units (a surrogate pair), as in Java.
pub fn java_string_hash_code(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// Kafka's `Utils.abs`: the absolute value, except that `i32::MIN` (whose absolute value does not
/// fit) gives 0 rather than `Math.abs`'s `Integer.MIN_VALUE`.
pub fn kafka_utils_abs(n: i32) -> i32 {
    if n == i32::MIN {
        0
    } else {
        n.abs()
    }
}

/// The `__consumer_offsets` partition whose leader coordinates `group_id`:
/// `Utils.abs(groupId.hashCode) % partitions` (`GroupMetadataManager.partitionFor`).
///
/// `partitions` is `offsets.topic.num.partitions` (50 by default) and must be at least 1.
pub fn coordinator_partition(group_id: &str, partitions: u32) -> u32 {
    assert!(
        partitions > 0,
        "offsets.topic.num.partitions must be at least 1"
    );
    // Utils.abs gives a value in 0..=i32::MAX, so the cast is lossless.
    (kafka_utils_abs(java_string_hash_code(group_id)) as u32) % partitions
}

/// A random (version 4, IETF variant) UUID formatted as Java's `UUID.randomUUID().toString()`:
/// 36 characters, lowercase hex in groups 8-4-4-4-12. The 122 random bits come from `rng`
/// (two draws), so the same seed gives the same UUIDs.
pub fn random_uuid(rng: &mut Rng) -> String {
    // Java: randomBytes[6] = (randomBytes[6] & 0x0f) | 0x40; randomBytes[8] = (randomBytes[8] & 0x3f) | 0x80;
    // with the most significant long made of bytes 0..8 and the least significant of 8..16.
    let msb = (rng.next_u64() & !0x0000_0000_0000_F000) | 0x0000_0000_0000_4000;
    let lsb = (rng.next_u64() & !0xC000_0000_0000_0000) | 0x8000_0000_0000_0000;
    java_uuid_string(msb, lsb)
}

/// `java.util.UUID.toString` of the UUID with these most and least significant 64 bits.
pub(super) fn java_uuid_string(msb: u64, lsb: u64) -> String {
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        msb >> 32,
        (msb >> 16) & 0xFFFF,
        msb & 0xFFFF,
        lsb >> 48,
        lsb & 0xFFFF_FFFF_FFFF
    )
}

/// A dynamic member's id as the GroupCoordinator makes it: `client_id + "-" + UUID`
/// (`GroupMetadata.generateMemberId` without a `group.instance.id`).
pub fn member_id(client_id: &str, rng: &mut Rng) -> String {
    member_id_for(client_id, None, rng)
}

/// A member's id as `GroupMetadata.generateMemberId` makes it: the `group.instance.id` of a static
/// member (KIP-345) or else the client id, then `-` and a random UUID.
pub fn member_id_for(client_id: &str, group_instance_id: Option<&str>, rng: &mut Rng) -> String {
    let prefix = group_instance_id.unwrap_or(client_id);
    format!("{prefix}-{}", random_uuid(rng))
}
