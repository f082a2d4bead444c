//! Every event kind and its fields (besides `time_ms`, `kind` and `cause`), as
//! `docs/scenario-format.md` lists them: an event pattern in a probe may only name these, so
//! that a misspelt kind or field is refused when the lesson loads instead of never matching.
//! Tests keep the list equal to the documentation's tables and to the events the stories emit.

/// Each event kind with its fields.
const EVENT_FIELDS: &[(&str, &[&str])] = &[
    ("broker_started", &["broker"]),
    ("broker_start_failed", &["broker"]),
    ("broker_crashed", &["broker"]),
    ("broker_paused", &["broker", "until_ms"]),
    ("broker_resumed", &["broker"]),
    ("controlled_shutdown_requested", &["broker", "attempt"]),
    ("controlled_shutdown_failed", &["broker", "attempt"]),
    ("controlled_shutdown_completed", &["broker", "controller"]),
    ("broker_stopped", &["broker"]),
    ("link_cut", &["from", "to"]),
    ("link_healed", &["from", "to"]),
    ("zk_session_created", &["broker", "session", "timeout_ms"]),
    ("zk_disconnected", &["broker", "session"]),
    ("zk_reconnected", &["broker", "session"]),
    ("session_expired", &["broker", "session"]),
    ("session_closed", &["broker", "session"]),
    ("session_expiry_noticed", &["broker", "session"]),
    ("broker_registered", &["broker", "broker_epoch"]),
    ("watch_fired", &["broker", "path", "change"]),
    ("controller_race_lost", &["broker", "error", "controller"]),
    ("controller_znode_created", &["broker"]),
    ("controller_elected", &["broker", "epoch"]),
    ("controller_resigned", &["broker", "epoch"]),
    ("controller_deleted", &["controller"]),
    ("broker_online", &["controller", "broker", "broker_epoch"]),
    ("broker_lost", &["controller", "broker"]),
    (
        "metadata_updated",
        &["broker", "controller", "controller_epoch"],
    ),
    (
        "stale_request_rejected",
        &["broker", "from", "request", "epoch", "current", "error"],
    ),
    ("topic_created", &["topic", "partitions", "controller"]),
    (
        "leader_elected",
        &[
            "partition",
            "leader",
            "leader_epoch",
            "isr",
            "reason",
            "controller",
            "controller_epoch",
        ],
    ),
    (
        "leader_epoch_bumped",
        &[
            "partition",
            "leader",
            "leader_epoch",
            "isr",
            "replicas",
            "controller",
            "controller_epoch",
        ],
    ),
    ("leader_election_failed", &["partition", "isr"]),
    ("partition_offline", &["partition", "isr", "leader_epoch"]),
    (
        "isr_shrunk",
        &["partition", "by", "removed", "isr", "leader_epoch"],
    ),
    (
        "isr_expanded",
        &["partition", "by", "added", "isr", "leader_epoch"],
    ),
    ("isr_change_accepted", &["partition", "controller", "isr"]),
    ("isr_update_failed", &["broker", "partition", "error"]),
    (
        "replica_truncated",
        &["broker", "partition", "from_offset", "to_offset"],
    ),
    (
        "leader_imbalance_checked",
        &["controller", "ratios", "moving"],
    ),
    (
        "reassignment_started",
        &["partition", "controller", "target"],
    ),
    (
        "reassignment_refused",
        &["partition", "target", "error", "controller"],
    ),
    (
        "reassignment_completed",
        &["partition", "controller", "replicas"],
    ),
    ("config_changed", &["key", "value", "topic"]),
    ("fetcher_stalled", &["broker", "what"]),
    ("fetcher_resumed", &["broker", "what"]),
    ("producer_started", &["partition", "acks", "rate_per_s"]),
    ("producer_stopped", &["partition"]),
    ("produce_retrying", &["partition", "error", "records"]),
    ("produce_failed", &["partition", "error", "records"]),
    ("produce_recovered", &["partition", "retried", "failed"]),
    (
        "duplicate_written",
        &[
            "broker",
            "partition",
            "from_offset",
            "to_offset",
            "records",
            "first_offset",
        ],
    ),
    (
        "duplicate_dropped",
        &["broker", "partition", "offset", "records"],
    ),
    (
        "records_lost",
        &[
            "partition",
            "from_offset",
            "to_offset",
            "records",
            "acks",
            "reason",
        ],
    ),
    ("coordinator_found", &["group", "member", "coordinator"]),
    (
        "member_joined",
        &["group", "member", "member_id", "coordinator"],
    ),
    (
        "rebalance_started",
        &["group", "generation", "reason", "coordinator"],
    ),
    (
        "group_leader_chosen",
        &["group", "member", "member_id", "generation"],
    ),
    (
        "group_stable",
        &["group", "generation", "coordinator", "assignment"],
    ),
    ("group_empty", &["group", "generation", "coordinator"]),
    (
        "member_removed",
        &["group", "member", "member_id", "coordinator"],
    ),
    (
        "coordinator_moved",
        &["group", "broker", "generation", "state"],
    ),
    ("consumer_crashed", &["group", "member"]),
    ("consumer_leaving", &["group", "member"]),
    ("invariant_violated", &["invariant", "detail"]),
];

/// The fields of an event kind (besides `time_ms`, `kind` and `cause`), or `None` for a kind
/// that does not exist.
pub fn event_fields(kind: &str) -> Option<&'static [&'static str]> {
    EVENT_FIELDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, fields)| *fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of the event tables of `docs/scenario-format.md`: `| `kind` | fields | ... |`.
    fn documented() -> Vec<(String, Vec<String>)> {
        let doc = include_str!("../../docs/scenario-format.md");
        let start = doc.find("\n## The events").expect("the events section");
        let end = doc[start..]
            .find("\n## Error messages")
            .expect("the next section")
            + start;
        doc[start..end]
            .lines()
            .filter_map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                let kind = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
                let fields = cells.get(2)?.split(", ").map(str::to_string).collect();
                Some((kind.to_string(), fields))
            })
            .collect()
    }

    #[test]
    fn the_list_is_the_documented_one() {
        let doc = documented();
        assert_eq!(doc.len(), EVENT_FIELDS.len());
        for ((kind, fields), (k, f)) in doc.iter().zip(EVENT_FIELDS) {
            assert_eq!(kind, k);
            assert_eq!(fields, f, "{kind}");
        }
        assert_eq!(
            event_fields("isr_shrunk"),
            Some(&["partition", "by", "removed", "isr", "leader_epoch"][..])
        );
        assert_eq!(event_fields("leader_electd"), None);
    }
}
