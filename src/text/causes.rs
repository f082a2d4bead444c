//! The causes: each rule's sentence with its figures (the Kafka detail of an event). The constant's name is the key the Chinese catalogue
//! (`www/i18n/zh-CN.json`) uses.
//!
//! One message per cause variant (per branch where the sentence differs), rendered by each
//! role's `render` (`crate::sim::Cause::render`). A message whose placeholder is a whole
//! clause (`{why}`, `{error}`, `{how}`) takes another cause message's text: a rule's reason,
//! a produce error's meaning, how a leader writes an ISR change.
#![allow(missing_docs)]

messages! {
    // Shared with the page: the separator of an enumeration (a group's members in order).
    ENUM_SEP = ", ";

    // The ZooKeeper server (sessions).
    CAUSE_ZK_SESSION_CREATED = "a new ZooKeeper client connects and gets a new session";
    CAUSE_ZK_SESSION_CREATED_BOUNDED = "a new ZooKeeper client connects and gets a new session; it asked for {requested_ms} ms, but the server grants only timeouts from minSessionTimeout ({min_ms} ms) to maxSessionTimeout ({max_ms} ms), 2 and 20 ticks of tickTime ({tick_ms} ms)";
    CAUSE_ZK_SESSION_CLOSED = "clean shutdown closes the ZooKeeper session at once";
    CAUSE_ZK_SESSION_TIMED_OUT = "no heartbeat for zookeeper.session.timeout.ms ({timeout_ms} ms); the session tracker expires sessions on its tickTime ({tick_ms} ms) boundaries, here the first after the last contact + the timeout ({after_last_contact_ms} ms after it)";
    CAUSE_ZK_EXPIRED_ON_REQUEST = "ZooKeeper expired the session on request (expire_session)";

    // A broker's ZooKeeper client.
    CAUSE_ZKC_READ_TIMEOUT = "nothing heard from ZooKeeper for the client's readTimeout ({read_timeout_ms} ms, 2/3 of the negotiated session timeout)";
    CAUSE_ZKC_CONNECTION_LOST_ON_CUT = "the connection to ZooKeeper lost packets while the link was cut; the client reconnects";
    CAUSE_ZKC_SESSION_NOT_EXPIRED_YET = "the session had not expired yet, so the client resumes it";
    CAUSE_ZKC_SERVER_SAYS_EXPIRED = "the ZooKeeper server answers that the session expired";

    // A broker process.
    CAUSE_BROKER_PAUSED = "the process freezes (a long garbage-collection pause): no heartbeats, no work";
    CAUSE_BROKER_RESUMED = "the pause is over; the process still holds the state it had before it froze";
    CAUSE_BROKER_REGISTERED_AT_STARTUP = "startup: registerBroker creates the ephemeral /brokers/ids/N; its czxid is the broker epoch (KIP-380)";
    CAUSE_BROKER_REGISTERED_AFTER_EXPIRY = "new session after expiry: the broker creates /brokers/ids/N again (RegisterBrokerAndReelect from 1.1, KafkaHealthCheck's handleNewSession in 0.10), so the broker epoch grows";
    CAUSE_BROKER_REGISTERED_OWN_SESSION = "the reply to its create of /brokers/ids/N was lost with the connection; sent again after the reconnect, the create met NODEEXISTS, but the znode's ephemeral owner is the broker's own session, so it is registered (checkedEphemeralCreate)";
    CAUSE_BROKER_START_FAILED_ZNODE_HELD = "/brokers/ids/{broker} still belongs to the previous process's ZooKeeper session, which lives until zookeeper.session.timeout.ms ({session_timeout_ms} ms) passes without heartbeats (NODEEXISTS)";
    CAUSE_BROKER_STALE_CONTROLLER_EPOCH = "a request from an older controller epoch than the broker has seen is refused: this fences zombie controllers";
    CAUSE_BROKER_STALE_BROKER_EPOCH = "the request was meant for an earlier registration of this broker (broker epoch, KIP-380)";
    CAUSE_BROKER_METADATA_FROM_CONTROLLER = "a request from the controller; brokers learn the controller epoch only from requests";
    CAUSE_BROKER_SHUTDOWN_REQUESTED = "controlled shutdown: the broker asks the controller to move its leaderships before it stops";
    CAUSE_BROKER_SHUTDOWN_NO_ANSWER = "no answer within controller.socket.timeout.ms ({socket_timeout_ms} ms)";
    CAUSE_BROKER_SHUTDOWN_NO_CONTROLLER = "no controller is known";
    CAUSE_BROKER_SHUTDOWN_LEADERSHIPS_LEFT = "the controller could not move leadership of {partitions} elsewhere (no other live in-sync replica)";
    CAUSE_BROKER_SHUTDOWN_RETRY = "{why}; retrying after controlled.shutdown.retry.backoff.ms ({backoff_ms} ms)";
    CAUSE_BROKER_SHUTDOWN_GIVE_UP = "{why}; all controlled.shutdown.max.retries ({max_retries}) attempts are used up, so the broker stops without a controlled shutdown";
    CAUSE_BROKER_STOPPED = "the broker process exits after closing its ZooKeeper session";
    CAUSE_BROKER_ZOMBIE_RESIGNS = "the controller handles its session expiry only after the ZooKeeper client (I0Itec zkclient) re-created the session and the event it was handling finished with its writes on it (0.10: SessionExpirationListener.handleNewSession waits for the controllerLock)";
    CAUSE_BROKER_RESIGNS_ON_NEW_SESSION = "its ZooKeeper session expired and it had no unfinished ZooKeeper work: the new session's handleNewSession resigns it (onControllerResignation)";
    CAUSE_BROKER_RESIGNS_ON_EXPIRY = "its ZooKeeper session expired: ZooKeeperClient fails the requests of the old session and the Expire event resigns the controller (onControllerResignation) before the new session is made (beforeInitializingSession, from 1.1)";
    CAUSE_BROKER_RESIGNS_ON_SHUTDOWN = "the controller is shutting down (KafkaController.shutdown)";

    // The controller: why a leader epoch goes up.
    CAUSE_BUMP_UNCLEAN = "no live replica of the ISR {isr}; unclean.leader.election.enable=true lets the first live replica in assignment order lead: records it lacks are lost";
    CAUSE_BUMP_LEADER_GONE = "leader {leader} is gone: the first live ISR replica in assignment order {assignment} leads (not the first in ISR order); the ISR keeps only live members";
    CAUSE_BUMP_NO_LEADER = "the partition had no leader: the first live ISR replica in assignment order {assignment} leads";
    CAUSE_BUMP_PREFERRED_AUTOMATIC = "auto.leader.rebalance.enable: the preferred replica (first in the assignment {assignment}) is live and in sync, so it leads again; the ISR is unchanged";
    CAUSE_BUMP_PREFERRED_REQUESTED = "preferred replica election: the first replica of the assignment {assignment} is live and in sync; the ISR is unchanged";
    CAUSE_BUMP_CONTROLLED_SHUTDOWN = "broker {broker} is shutting down: the first live, in-sync replica that is not shutting down leads; the stopping broker leaves the ISR";
    CAUSE_BUMP_REASSIGNMENT_LISTED = "reassignment of {tp} to {target}: the replica list is {assignment}, target and original together, until every target replica is in the ISR; the controller bumps the leader epoch without changing leader or ISR so that every replica, old and new, hears that list (KafkaController.onPartitionReassignment)";
    CAUSE_BUMP_REASSIGNMENT_LEADER_STAYS = "every target replica of {tp} is in the ISR: the replica list becomes the target {target} and the leader, already in it, stays; the leader epoch is bumped so the leader stops counting the replicas being removed (KafkaController.moveReassignedPartitionLeaderIfRequired)";
    CAUSE_BUMP_REASSIGNMENT_LEADER = "every target replica of {tp} is in the ISR, but the leader is not one of the target {target} (or is dead): the first live, in-sync target replica leads (ReassignPartitionLeaderElectionStrategy); the ISR is unchanged until the removed replicas leave it";

    // The controller: why a broker's replicas go to OfflineReplica.
    CAUSE_OFFLINE_CONTROLLED_SHUTDOWN = "controlled shutdown: the stopping broker's follower replicas go to OfflineReplica";
    CAUSE_OFFLINE_BROKER_FAILURE = "broker failure: its replicas go to OfflineReplica";
    CAUSE_OFFLINE_FAILOVER = "controller failover: a replica on a dead broker goes to OfflineReplica (ReplicaStateMachine.startup, 2.3+, KAFKA-3143)";
    CAUSE_OFFLINE_REASSIGNMENT = "reassignment: a replica being removed goes to OfflineReplica and leaves the ISR";

    // The controller.
    CAUSE_CTRL_ZNODE_CREATED = "KafkaController.elect (ZookeeperLeaderElector.elect in 0.10): first broker to create the ephemeral /controller znode; before 2.1 the controller epoch is a second step (onControllerFailover's incrementControllerEpoch)";
    CAUSE_CTRL_ZNODE_CREATED_OWN_SESSION = "the reply to its create of /controller was lost with the connection; sent again after the reconnect, the create met NODEEXISTS, but the znode's ephemeral owner is the broker's own session, so it had won (checkedEphemeralCreate); the controller epoch comes next";
    CAUSE_CTRL_ELECTED_EPOCH_SET = "two steps before 2.1: it created /controller, then onControllerFailover's incrementControllerEpoch set /controller_epoch from {from} to {to} with a conditional setData";
    CAUSE_CTRL_ELECTED_EPOCH_CREATED = "two steps before 2.1: it created /controller, then onControllerFailover's incrementControllerEpoch found no /controller_epoch and created it with 1 (InitialControllerEpoch in 0.10.2.2 and 2.0.1)";
    CAUSE_CTRL_ELECTED_FIRST_MULTI = "one multi-op from 2.1 (registerControllerAndIncrementControllerEpoch): first broker to create the ephemeral /controller znode; /controller_epoch, created with 0, set to 1 in the same transaction";
    CAUSE_CTRL_ELECTED_MULTI = "one multi-op from 2.1 (registerControllerAndIncrementControllerEpoch): first broker to create the ephemeral /controller znode after it went away; /controller_epoch incremented in the same transaction";
    CAUSE_CTRL_ELECTED_OWN_MULTI = "the reply to its multi-op was lost with the connection; sent again after the reconnect it failed, but /controller names this broker and /controller_epoch holds the epoch it wrote, so the first attempt had won (checkControllerAndEpoch)";
    CAUSE_CTRL_EPOCH_MOVED = "it created /controller, but incrementing /controller_epoch failed: another controller moved the epoch (ControllerMovedException); it deletes /controller (triggerControllerMove), so every broker races again";
    CAUSE_CTRL_RACE_LOST_EPOCH_CHANGED = "/controller_epoch changed since it was read: another broker's election landed first";
    CAUSE_CTRL_RACE_LOST_ZNODE_EXISTS = "the ephemeral /controller znode already exists: the first write wins, there is no lowest-id rule";
    CAUSE_CTRL_CONTROLLER_NOW = "/controller now names broker {controller} (ControllerMovedException)";
    CAUSE_CTRL_CONTROLLER_GONE = "/controller is gone";
    CAUSE_CTRL_REELECT_AFTER_EVENT = "/controller was deleted while it was handling an event; the Reelect event queued behind that event resigns it now";
    CAUSE_CTRL_CONTROLLER_DELETED_BUSY = "/controller is gone (its owner's session ended, or it was deleted); this controller is in the middle of an event, so the Reelect event waits behind it and what it writes meanwhile still goes out";
    CAUSE_CTRL_CONTROLLER_DELETED = "/controller is gone (its owner's session ended, or it was deleted): Reelect";
    CAUSE_CTRL_FENCED_WRITE_FAILED = "its fenced write failed: /controller_epoch changed since it was elected (ControllerMovedException, KAFKA-6082)";
    CAUSE_CTRL_FENCED_ASSIGNMENT_WRITE_FAILED = "its fenced write failed: /controller_epoch changed since it was elected (ControllerMovedException)";
    CAUSE_CTRL_BROKERS_CHANGED = "the controller watches /brokers/ids to learn of brokers joining and leaving";
    CAUSE_CTRL_BROKER_GONE = "/brokers/ids/{broker} was deleted: the broker's ZooKeeper session ended";
    CAUSE_CTRL_BROKER_BOUNCED = "broker {broker} re-registered with a newer broker epoch before its loss was processed: a bounce (KIP-380) is handled as failure, then startup";
    CAUSE_CTRL_BROKER_APPEARED = "/brokers/ids/{broker} appeared: onBrokerStartup sends it and every live broker the cluster metadata, then elects leaders for offline partitions";
    CAUSE_CTRL_TOPIC_CREATED = "the controller watches /brokers/topics; an admin tool wrote the new topic's assignment there";
    CAUSE_CTRL_SHUTDOWN_COMPLETED = "the controller moved every leadership of the stopping broker to another in-sync replica and took it out of the ISRs";
    CAUSE_CTRL_REASSIGNMENT_STARTED = "partition reassignment: the replica list becomes the target followed by the replicas being removed; the new replicas catch up before the old ones go";
    CAUSE_CTRL_REASSIGNMENT_REFUSED = "from Kafka 3.0 a reassignment is a request to the AlterPartitionReassignments API, and the controller refuses one that adds replicas on brokers that are not live (registered and not shutting down): {not_live} not among the live brokers {live}; nothing is written";
    CAUSE_CTRL_REASSIGNMENT_COMPLETED = "the assignment znode names only the target replicas: the reassignment is done";
    CAUSE_CTRL_REASSIGNMENT_COMPLETED_REMOVED = "the replicas {removed} left the ISR and were deleted (StopReplica); the assignment znode names only the target replicas: the reassignment is done";
    CAUSE_CTRL_IMBALANCE_CHECKED = "auto.leader.rebalance.enable: every leader.imbalance.check.interval.seconds ({interval_s} s) the controller moves leadership back to preferred replicas of any broker whose share of partitions led by others is above leader.imbalance.per.broker.percentage ({percentage} %)";
    CAUSE_CTRL_IMBALANCE_HELD = "{text}; {held}";
    CAUSE_CTRL_HELD_DOWN = "broker {broker} is above it but down: a preferred replica on a broker that is not live cannot lead, so its partitions stay with their current leaders until it returns";
    CAUSE_CTRL_HELD_OUT_OF_SYNC = "broker {broker} is above it but its replica is not in the ISR of a partition it prefers: that partition moves back only once it catches up";
    CAUSE_CTRL_HELD_REASSIGNING = "broker {broker} is above it but a reassignment is in progress, and up to Kafka 3.3 the check moves no leader while any partition is being reassigned";
    CAUSE_CTRL_ELECTION_FAILED = "no live replica in the ISR {isr} and unclean.leader.election.enable=false for {topic}: the partition stays offline rather than lose acknowledged records";
    CAUSE_CTRL_NEW_PARTITION = "a new partition: the first live replica in assignment order leads, the live replicas form the ISR, leader epoch 0";
    CAUSE_CTRL_EPOCH_BUMPED = "{why}; leader epoch +1";
    CAUSE_CTRL_OFFLINE_LAST_LEADER = "{why}; it led, so the leader becomes -1; it was the last member of the ISR, which never becomes empty, so the partition waits for broker {broker} to return; leader epoch +1";
    CAUSE_CTRL_OFFLINE_LEADER = "{why}; it led, so the leader becomes -1 and it leaves the ISR, now {isr}; an election follows; leader epoch +1";
    CAUSE_CTRL_OFFLINE_FOLLOWER = "{why}: the controller removes it from the ISR; leader epoch +1";
    CAUSE_CTRL_ALTER_PARTITION_WRITTEN = "AlterPartition from the leader (KIP-497): the controller writes the new ISR; the leader epoch stays";

    // The replica manager.
    CAUSE_ISR_WRITE_ALTER_PARTITION = "AlterPartition to the controller (KIP-497), no leader epoch bump";
    CAUSE_ISR_WRITE_ZK = "the leader's compare-and-set of the partition state znode, no leader epoch bump";
    CAUSE_REPL_TRUNCATED_AT_DIVERGENCE = "the follower's log diverged from the new leader's: it truncates to where their leader epochs part (KIP-101, KIP-279)";
    CAUSE_REPL_TRUNCATED_TO_LEADER_END = "the follower is ahead of the new leader (OFFSET_OUT_OF_RANGE): it truncates to the leader's log end";
    CAUSE_REPL_TRUNCATED_TO_HIGH_WATERMARK = "before 0.11 a follower truncates its log to its high watermark when it starts following (KafkaTruncateToHighWatermark): acknowledged records above it can be lost";
    CAUSE_REPL_OLDER_LEADER_EPOCH_IGNORED = "a partition whose leader epoch is not newer than the broker's is ignored";
    CAUSE_REPL_ISR_ZK_VERSION_CHANGED = "cached zkVersion not equal to that in ZooKeeper, skip updating ISR: the controller changed the partition since this leader's last LeaderAndIsr";
    CAUSE_REPL_ISR_INELIGIBLE_REPLICA = "the controller refused the ISR change: it names a replica that is not live or is shutting down (INELIGIBLE_REPLICA, KIP-841); the leader goes back to its last committed ISR";
    CAUSE_REPL_ISR_STALE_PARTITION_STATE = "the controller refused the ISR change: it was built on an older partition state (AlterPartition, KIP-497); the leader makes no ISR change until the controller's next LeaderAndIsr";
    CAUSE_REPL_ISR_SHRUNK_BEHIND_LOG_END = "the follower was behind the leader's log end for longer than replica.lag.time.max.ms ({replica_lag_time_max_ms} ms); {how}";
    CAUSE_REPL_ISR_SHRUNK_LAG_TIME_ALONE = "the follower had not caught up with the leader's log end for longer than replica.lag.time.max.ms ({replica_lag_time_max_ms} ms): before 2.1 the lag time alone decides, so a follower that stops fetching leaves the ISR even when nothing is written (KAFKA-7152); {how}";
    CAUSE_REPL_ISR_EXPANDED = "the follower caught up to the leader's high watermark; {how}";
    CAUSE_REPL_DUPLICATE_DROPPED = "enable.idempotence=true: the batch (producer id {producer_id}, sequence {sequence}) is already in the log, written in leader epoch {first_epoch}; the leader answers with its offset and writes nothing (ProducerStateEntry.findDuplicateBatch)";
    CAUSE_REPL_DUPLICATE_WRITTEN = "enable.idempotence=false: the producer sent a batch again after an error although its first copy had been written; the leader cannot tell (the batch carries no producer id or sequence) and writes it twice";

    // The group coordinator: why a member is the first key of the member map.
    CAUSE_MAP_HEAD_SCALA_213 = "Kafka {kafka}'s Scala {scala} build takes {head} of its mutable.HashMap of member ids, which walks its buckets from 0 up (bucket = hash & (buckets - 1), hash = h ^ (h >>> 16) of String.hashCode h) and each bucket by ascending hash: {member} is in bucket {bucket} of {buckets} (hash {hash}, from String.hashCode {code})";
    CAUSE_MAP_HEAD_HASH_TABLE = "Kafka {kafka}'s Scala {scala} build takes {head} of its mutable.HashMap of member ids, a HashTable that walks its buckets from the last down (bucket = the top {bits} bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first: {member} is in bucket {bucket} of {buckets}, the highest holding a member (improved hash {hash}, from String.hashCode {code})";
    CAUSE_MAP_HEAD_HASH_TABLE_DOUBLED = "Kafka {kafka}'s Scala {scala} build takes {head} of its mutable.HashMap of member ids, a HashTable that walks its buckets from the last down (bucket = the top {bits} bits of the improved hash rotateRight(byteswap32(String.hashCode), 4)) and each bucket newest first (each doubling of the table reversed the order within a bucket): {member} is in bucket {bucket} of {buckets}, the highest holding a member (improved hash {hash}, from String.hashCode {code})";

    // The group coordinator.
    CAUSE_COORD_MEMBER_ADDED = "JoinGroup: the coordinator adds the member (its id is the client id plus a random UUID)";
    CAUSE_COORD_FIRST_MEMBER_LEADS = "the first member added to the group leads (GroupMetadata.add: there was no leader yet)";
    CAUSE_COORD_LEADER_LEFT = "leader {left} left; {head}, so the map yields {order} in that order; by join order {by_join} would lead";
    CAUSE_COORD_LEFT_CLEANLY = "LeaveGroup: the consumer left cleanly";
    CAUSE_COORD_SESSION_EXPIRED = "session expired: no heartbeat within session.timeout.ms ({session_timeout_ms} ms)";
    CAUSE_COORD_DID_NOT_REJOIN = "it did not rejoin within the rebalance timeout (max.poll.interval.ms)";
    CAUSE_COORD_NO_SYNC_IN_TIME = "no SyncGroup in time: the member had not sent SyncGroup within the rebalance timeout (max.poll.interval.ms, {rebalance_timeout_ms} ms) after the join completed, so the coordinator removes it and rebalances (KAFKA-12890, 3.0)";
    CAUSE_COORD_NEW_MEMBER_JOIN_TIMED_OUT = "new member's JoinGroup expired: the rebalance did not complete within NewMemberJoinTimeoutMs ({timeout_ms} ms) of its joining, so the coordinator removes it and answers UNKNOWN_MEMBER_ID; the consumer joins again as a new member";
    CAUSE_COORD_NO_INITIAL_DELAY = "Kafka 0.10 has no initial rebalance delay (KIP-134 came in 0.11): the join completes as soon as every member has joined, here at once; a later member starts another rebalance";
    CAUSE_COORD_EVERY_MEMBER_REJOINS = "every member must rejoin (JoinGroup) before the new generation starts; max.poll.interval.ms bounds the wait";
    CAUSE_COORD_INITIAL_DELAY_NEW_GROUP = "a brand-new group (generation 0) waits group.initial.rebalance.delay.ms ({delay_ms} ms) for more members, and another delay (up to max.poll.interval.ms in all) each time a new member arrived during the last one, then completes the join";
    CAUSE_COORD_INITIAL_DELAY_EXTENDED_ONCE = "an emptied group (generation {generation}) waits group.initial.rebalance.delay.ms ({delay_ms} ms), then completes the join with the members that came; only a brand-new group's delay is extended, but the new-member flag left set by its generation-0 delay extends this one once more";
    CAUSE_COORD_INITIAL_DELAY_ONCE = "an emptied group (generation {generation}) waits group.initial.rebalance.delay.ms ({delay_ms} ms) once, then completes the join with the members that came: only a brand-new group (generation 0) extends the delay while members keep arriving";
    CAUSE_COORD_EMPTY_AFTER_REBALANCE = "the rebalance completed with no members: the group is Empty, and the generation still moves on";
    CAUSE_COORD_ASSIGNMENT_STORED = "the leader's {assignor} assignment was written to {tp} and committed; SyncGroup hands each member its part";
    CAUSE_COORD_COORDINATOR_MOVED = "broker {broker} now leads {tp}, so it coordinates the group: it loads the group as stored there (same state, generation, leader and members) and gives every member a fresh session deadline, so there is no rebalance";

    // A consumer.
    CAUSE_CONSUMER_LEAVE_ACTION = "leave action: the consumer closes and sends LeaveGroup, so the coordinator need not wait for its session to expire";
    CAUSE_CONSUMER_CRASH_ACTION = "crash_consumer action: no LeaveGroup, no more heartbeats; the coordinator notices only when session.timeout.ms passes";
    CAUSE_CONSUMER_COORDINATOR_FOUND = "FindCoordinator: the coordinator is the leader of partition abs(hashCode(group id)) % offsets.topic.num.partitions of __consumer_offsets";

    // The producer: what a produce error means.
    CAUSE_PRODUCE_NOT_ENOUGH_REPLICAS = "acks=all and the ISR is smaller than min.insync.replicas: the leader refuses the write and appends nothing";
    CAUSE_PRODUCE_NOT_ENOUGH_REPLICAS_AFTER_APPEND = "the ISR fell below min.insync.replicas while the write waited for the followers: appended but not acknowledged";
    CAUSE_PRODUCE_NOT_LEADER_OR_FOLLOWER = "the broker the producer's metadata named is no longer the leader";
    CAUSE_PRODUCE_LEADER_NOT_AVAILABLE = "no broker knows a leader for the partition: it is offline";
    CAUSE_PRODUCE_NO_ANSWER = "no answer within request.timeout.ms (a frozen broker, a cut link, or acks=all followers that do not catch up): the producer closed the connection and cannot know whether the records were written";
    CAUSE_PRODUCE_FOLLOWERS_TOO_SLOW = "acks=all: the followers did not catch up within request.timeout.ms";
    CAUSE_PRODUCE_CONNECTION_CLOSED = "the connection closed with the request in flight (the leader's process died, or request.timeout.ms passed without an answer; NETWORK_EXCEPTION names both before 3.5): the producer cannot know whether the records were written";
    CAUSE_PRODUCE_NO_ANSWER_DISCONNECT = "no answer within request.timeout.ms: the producer closed the connection (reported as NETWORK_EXCEPTION before 3.5, KAFKA-14317) and cannot know whether the records were written";
    CAUSE_PRODUCE_LEADER_DIED = "the leader's process died: the connection reset with the request in flight, so the producer cannot know whether the records were written";
    CAUSE_PRODUCE_DELIVERY_TIMEOUT = "the batch was created delivery.timeout.ms ago and is still not acknowledged: TimeoutException (\"Expiring N record(s) ... since batch creation\")";
    CAUSE_PRODUCE_BATCH_EXPIRED = "the batch waited in the accumulator (no reachable leader) longer than request.timeout.ms: TimeoutException (\"Expiring N record(s)\", RecordBatch.maybeExpire before 2.1)";
    CAUSE_PRODUCE_OTHER = "the request failed";

    // The producer: retries, give-ups, expiry, what a leader no longer holds.
    CAUSE_PRODUCER_STREAM_DONE = "the stream's duration or record count is done";
    CAUSE_PRODUCER_RETRYING = "{error}; the producer sends it again ({how}); {dup}";
    CAUSE_PRODUCER_RETRY_FIXED = "retries={retries}, retry.backoff.ms={backoff_ms}";
    CAUSE_PRODUCER_RETRY_FIXED_DELIVERY = "retries={retries} within delivery.timeout.ms={delivery_timeout_ms}, retry.backoff.ms={backoff_ms}";
    CAUSE_PRODUCER_RETRY_EXPONENTIAL = "retries={retries}, retry.backoff.ms={backoff_ms} doubling up to retry.backoff.max.ms={max_ms}";
    CAUSE_PRODUCER_RETRY_EXPONENTIAL_DELIVERY = "retries={retries} within delivery.timeout.ms={delivery_timeout_ms}, retry.backoff.ms={backoff_ms} doubling up to retry.backoff.max.ms={max_ms}";
    CAUSE_PRODUCER_RESEND_IDEMPOTENT = "enable.idempotence=true: a batch the leader already wrote is not written again";
    CAUSE_PRODUCER_RESEND_NOT_IDEMPOTENT = "enable.idempotence=false: a batch that was written before the error is written again";
    CAUSE_PRODUCER_GAVE_UP_DELIVERY_TIMEOUT = "{error}; delivery.timeout.ms ({delivery_timeout_ms}) has passed since the batch was created";
    CAUSE_PRODUCER_GAVE_UP_NO_RETRIES = "{error}; the producer does not retry (retries=0)";
    CAUSE_PRODUCER_GAVE_UP_RETRIES_USED_UP = "{error}; its {retries} retries are used up";
    CAUSE_PRODUCER_EXPIRED_QUEUED = "{error} (delivery.timeout.ms={delivery_timeout_ms})";
    CAUSE_PRODUCER_EXPIRED_IN_ACCUMULATOR = "{error} (request.timeout.ms={request_timeout_ms}; delivery.timeout.ms came with 2.1)";
    CAUSE_PRODUCER_EXPIRED_IN_FLIGHT = "{error} (delivery.timeout.ms={delivery_timeout_ms}); its request was still unanswered";
    CAUSE_PRODUCER_ACKED_AGAIN = "the leader acknowledged a batch again (offset {offset}, leader epoch {leader_epoch})";
    CAUSE_PRODUCER_SENT_AGAIN_ACKS_ZERO = "acks=0: a batch went out to leader {leader} again, which is all the producer learns";
    CAUSE_PRODUCER_OFFSETS_GONE = "leader {leader} (leader epoch {leader_epoch}) does not hold these offsets from leader epoch {acked_epoch}";

    // The world: actions, startup order, the safety monitor.
    CAUSE_WORLD_START_IN_ORDER = "the scenario's brokers start in the listed order";
    CAUSE_WORLD_START_ACTION = "start action: a new process, a new ZooKeeper session";
    CAUSE_WORLD_CRASH_ACTION = "crash action: the process dies at once; ZooKeeper notices only when the session times out";
    CAUSE_WORLD_CUT_ACTION = "cut action: the link drops every message, in flight or new";
    CAUSE_WORLD_HEAL_ACTION = "heal action: the link carries messages again";
    CAUSE_WORLD_PRODUCE_ACTION = "produce action: a steady stream of records";
    CAUSE_WORLD_STOP_ACTION = "stop action";
    CAUSE_WORLD_STALL_ACTION = "stall action: the follower stops sending fetch requests (a slow disk, a stuck thread); the leader sees it fall behind";
    CAUSE_WORLD_RESUME_ACTION = "resume action: the follower fetches again and catches up";
    CAUSE_WORLD_SET_CONFIG_ACTION = "set_config action: a dynamic configuration change (kafka-configs --alter)";
    CAUSE_WORLD_REASSIGN_NON_EXISTENT = "reassign action before Kafka 3.0: kafka-reassign-partitions checks the proposed replicas against the brokers registered in /brokers/ids before it writes anything, and these brokers are not registered: {brokers}";
    CAUSE_WORLD_REASSIGN_IN_PROGRESS = "reassign action before Kafka 3.0: kafka-reassign-partitions starts nothing while /admin/reassign_partitions exists, that is while a reassignment is in progress; it waits for that one to complete";
    CAUSE_WORLD_DELETE_CONTROLLER_ACTION = "delete_controller action: an operator deletes /controller (zookeeper-shell), the way to move the controller; the brokers' watches fire and they race again, while the old controller finishes the event it is handling first";
    CAUSE_WORLD_MONITOR_CHECK = "the safety monitor checks every invariant after every step";
}
