//! The event log: each event's plain sentence, in the reader's language, the plain reason of
//! the key events, and the log's own words (the tags, the disclosure of the Kafka detail).
//! [`super::event_text`] chooses among them from the event's kind and fields. The constant's
//! name is the key the Chinese catalogue (`www/i18n/zh-CN.json`) uses.
#![allow(missing_docs)]

use crate::text::messages;

messages! {
    // What happened: one sentence per kind of event.
    EV_BROKER_STARTED = "Broker {broker} started.";
    EV_BROKER_START_FAILED = "Broker {broker} could not start and stopped again.";
    EV_BROKER_CRASHED = "Broker {broker} crashed.";
    EV_BROKER_PAUSED = "Broker {broker} froze (a long GC pause) until {until}.";
    EV_BROKER_RESUMED = "Broker {broker} woke up, still believing what it knew before the pause.";
    EV_SHUTDOWN_REQUESTED = "Broker {broker} asks the controller to move its leaders away before it stops (attempt {attempt}).";
    EV_SHUTDOWN_FAILED = "Attempt {attempt} of broker {broker}'s controlled shutdown failed.";
    EV_SHUTDOWN_COMPLETED = "The controller (broker {controller}) moved every leader off broker {broker}: it can stop now.";
    EV_BROKER_STOPPED = "Broker {broker} stopped.";
    EV_LINK_CUT = "The link between {from} and {to} is cut.";
    EV_LINK_HEALED = "The link between {from} and {to} works again.";
    EV_ZK_SESSION_CREATED = "ZooKeeper opened a session for broker {broker}; it lasts {seconds} s without a heartbeat.";
    EV_ZK_DISCONNECTED = "Broker {broker} lost its connection to ZooKeeper; its session may still be alive.";
    EV_ZK_RECONNECTED = "Broker {broker} reconnected to ZooKeeper in time: its session is still valid.";
    EV_SESSION_EXPIRED = "ZooKeeper ended broker {broker}'s session: its ephemeral znodes are deleted.";
    EV_SESSION_CLOSED = "Broker {broker} closed its ZooKeeper session: its ephemeral znodes are deleted at once.";
    EV_SESSION_EXPIRY_NOTICED = "Broker {broker} learned that its ZooKeeper session had expired.";
    EV_BROKER_REGISTERED = "Broker {broker} registered itself in ZooKeeper (/brokers/ids/{broker}).";
    EV_WATCH_FIRED = "ZooKeeper told broker {broker} that {path} changed.";
    EV_RACE_LOST_TO = "Broker {broker} tried to become controller, but broker {controller} was first; it watches /controller.";
    EV_RACE_LOST = "Broker {broker} tried to become controller and lost the race; it watches /controller.";
    EV_CONTROLLER_ZNODE_CREATED = "Broker {broker} created /controller; it raises the controller epoch next.";
    EV_CONTROLLER_ELECTED = "Broker {broker} is the new controller (controller epoch {epoch}).";
    EV_CONTROLLER_RESIGNED = "Broker {broker} stopped acting as controller.";
    EV_CONTROLLER_DELETED = "An operator deleted /controller (it named broker {controller}): the brokers race to be controller again.";
    EV_BROKER_ONLINE = "The controller (broker {controller}) sees broker {broker} join.";
    EV_BROKER_LOST = "The controller (broker {controller}) sees broker {broker} gone.";
    EV_METADATA_UPDATED = "Broker {broker} now takes its orders from controller {controller} (controller epoch {epoch}).";
    EV_STALE_REQUEST = "Broker {broker} refused {request} from broker {from}: it carries epoch {epoch}, older than {current}.";
    EV_TOPIC_CREATED = "The controller (broker {controller}) sees a new topic, {topic}, with {partitions} partition(s).";
    EV_LEADER_ELECTED = "{partition}: broker {leader} is the leader now (leader epoch {leader_epoch}); ISR {isr}.";
    EV_LEADER_NONE = "{partition}: no broker could be made leader.";
    EV_EPOCH_BUMPED = "{partition}: the leader epoch goes up to {leader_epoch} so that every replica hears the new replica list ({replicas}); broker {leader} still leads.";
    EV_ELECTION_FAILED = "{partition}: no replica can lead; every broker of its ISR ({isr}) is gone.";
    EV_PARTITION_OFFLINE = "{partition} is offline: it has no leader.";
    EV_ISR_SHRUNK = "{partition}: broker {brokers} left the ISR, now {isr}.";
    EV_ISR_EXPANDED = "{partition}: broker {brokers} is back in the ISR, now {isr}.";
    EV_ISR_ACCEPTED = "The controller (broker {controller}) recorded {partition}'s ISR: {isr}.";
    EV_ISR_UPDATE_FAILED = "Broker {broker} could not change {partition}'s ISR ({error}).";
    EV_TRUNCATED = "Broker {broker} cut offsets {from}–{to} off its copy of {partition} to match the leader.";
    EV_IMBALANCE_NOTHING = "The controller (broker {controller}) checked whether leaders sit on their preferred replicas: nothing to move.";
    EV_IMBALANCE_MOVING = "The controller (broker {controller}) checked whether leaders sit on their preferred replicas: {partitions} move back.";
    EV_REASSIGNMENT_STARTED = "The controller (broker {controller}) starts the reassignment of {partition} to brokers {target}.";
    EV_REASSIGNMENT_REFUSED = "The controller (broker {controller}) refused to reassign {partition} to brokers {target} ({error}): nothing changes.";
    EV_REASSIGNMENT_REFUSED_TOOL = "The reassignment tool refused to reassign {partition} to brokers {target} (\"{error}\"): it wrote nothing.";
    EV_REASSIGNMENT_COMPLETED = "The reassignment of {partition} is done: its replicas are {replicas}.";
    EV_RECORDS_LOST = "{partition}: {records} acknowledged record(s) are lost for good.";
    EV_PRODUCER_STARTED = "The producer writes {rate} records a second to {partition} (acks={acks}).";
    EV_PRODUCER_STOPPED = "The producer stopped writing to {partition}.";
    EV_PRODUCE_FAILED = "Writes to {partition} fail ({error}): the producer gives the records up.";
    EV_PRODUCE_RETRYING = "Writes to {partition} got {error}: the producer sends them again.";
    EV_PRODUCE_RECOVERED = "Writes to {partition} are acknowledged again ({retried} retried, {failed} given up).";
    EV_DUPLICATE_WRITTEN = "Broker {broker} wrote {records} record(s) of {partition} a second time: the producer's retry made duplicates.";
    EV_DUPLICATE_DROPPED = "Broker {broker} already held the {records} retried record(s) of {partition}: not written twice.";
    EV_CONFIG_TOPIC = "Topic {topic}: {key} is now {value}.";
    EV_CONFIG = "{key} is now {value}.";
    EV_FETCHER_STALLED = "Broker {broker} stopped fetching {what}.";
    EV_FETCHER_RESUMED = "Broker {broker} fetches {what} again.";
    EV_SCOPE_ALL = "every partition";
    EV_SCOPE_TOPIC = "topic {topic}";
    EV_MEMBER_JOINED = "{member} joined group {group}.";
    EV_REBALANCE_STARTED = "Group {group} starts a rebalance: every member joins again.";
    EV_GROUP_LEADER = "{member} leads group {group} in generation {generation}: it computes the assignment.";
    EV_GROUP_STABLE = "Group {group} is stable in generation {generation}: every member has its partitions.";
    EV_GROUP_EMPTY = "Group {group} has no member left (generation {generation}).";
    EV_MEMBER_REMOVED = "The coordinator removed {member} from group {group}.";
    EV_COORDINATOR_MOVED = "Broker {broker} is group {group}'s coordinator now; it loaded generation {generation} from the log.";
    EV_CONSUMER_CRASHED = "Consumer {member} of group {group} crashed.";
    EV_CONSUMER_LEAVING = "Consumer {member} leaves group {group}.";
    EV_COORDINATOR_FOUND = "Consumer {member} found its coordinator: broker {coordinator}.";
    EV_INVARIANT = "A safety rule is broken: {invariant}.";
    // The safety monitor's invariants by name (`sim::invariants`): the English is the name the
    // core gives, byte for byte, so the English log reads as before.
    INV_ONE_CONTROLLER_PER_EPOCH = "one controller per epoch";
    INV_EPOCHS_ONLY_GROW = "controller epochs only grow";
    INV_ONE_ACTING_CONTROLLER = "only the current controller changes leaders";
    INV_LEADER_EPOCHS_ONLY_GROW = "leader epochs only grow";
    INV_LEADER_IN_ISR = "the leader is in the ISR";
    INV_HW_WITHIN_ISR = "the high watermark never exceeds an ISR member's log end";
    INV_ISR_WITHIN_ASSIGNMENT = "the ISR holds only replicas of the assignment";
    INV_ONE_GROUP_LEADER = "one group leader per generation";
    EV_ENDPOINT_ZK = "the ZooKeeper ensemble";
    EV_ENDPOINT_BROKER = "broker {broker}";
    EV_ENDPOINT_PRODUCER = "the producer";
    EV_ENDPOINT_CONSUMER = "consumer {member}";

    // Why, in plain words, for the key events.
    WHY_FIRST_CONTROLLER = "It was the first broker to create /controller in ZooKeeper: the first one there wins.";
    WHY_NEW_CONTROLLER = "/controller was gone and this broker created it first; the controller epoch went up, so every broker ignores the old controller from now on.";
    WHY_NEW_PARTITION = "A new partition: its first live replica in the assignment leads.";
    WHY_OFFLINE = "Its leader was lost: the controller picked the first in-sync replica, in assignment order, that is still alive.";
    WHY_UNCLEAN = "No in-sync replica was alive and unclean leader election is on: a replica that was behind leads, and the records it lacked are lost.";
    WHY_PREFERRED = "Leadership goes back to the preferred replica, the first in the assignment, so that leaders stay spread over the brokers.";
    WHY_SHUTDOWN = "Its leader is shutting down cleanly, so the controller moved leadership to another in-sync replica first.";
    WHY_REASSIGNMENT = "The partition is moving to other brokers: one of its new replicas takes over.";
    WHY_OFFLINE_LAST = "Broker {broker} led and was the last in-sync replica: no other replica can take over without losing records.";
    WHY_OFFLINE_ELECTION = "Its leader's broker is gone: the controller elects another in-sync replica next.";
    WHY_OFFLINE_PLAIN = "Its leader is gone and no other replica leads yet.";
    WHY_ISR_LAGGED = "It fell behind the leader for longer than {seconds} s, so the leader took it out of the ISR.";
    WHY_ISR_BROKER_GONE = "Its broker is gone, so the controller took it out of the ISR.";
    WHY_ISR_SHUTDOWN = "Its broker is shutting down cleanly, so the controller took it out of the ISR.";
    WHY_ISR_REASSIGNMENT = "A reassignment removes it from the partition.";
    WHY_ISR_CAUGHT_UP = "It caught up with the leader's log, so it counts as in sync again.";
    WHY_RECORDS_LOST = "They had been acknowledged, but the replica that leads now does not hold them, so they are gone.";
    WHY_FIRST_MEMBER = "It was the first member to join, and the first member leads.";
    WHY_LEADER_LEFT = "The previous leader, {left}, left; the coordinator picked the next member in its internal member order.";
    WHY_CRASHED = "A crash sends no goodbye: ZooKeeper keeps the broker's session, and its znodes, until zookeeper.session.timeout.ms passes without a heartbeat. Until then nobody acts.";
    WHY_STARTED_IN_ORDER = "The cluster starts its brokers one after the other.";
    WHY_STARTED = "A new process: it opens a new ZooKeeper session, registers again and follows the controller.";
    WHY_START_FAILED = "Its old registration still belongs to a live ZooKeeper session, so the new process could not register and stopped.";
    WHY_STOPPED = "Its shutdown closed its ZooKeeper session, so its znodes went at once: nobody waits for a timeout.";
    WHY_PAUSED = "A frozen process sends no heartbeats: if the pause outlasts its session timeout, ZooKeeper expires the session while it sleeps.";
    WHY_RESUMED = "It carries on from where it froze, unaware of what changed meanwhile.";
    WHY_SHUTDOWN_REQUESTED = "A clean shutdown asks the controller first, so leadership moves before the broker stops.";
    WHY_LINK_CUT = "From now on every message on this link is dropped, in both directions.";
    WHY_LINK_HEALED = "Messages on this link get through again.";
    WHY_SESSION_EXPIRED = "ZooKeeper heard nothing from the broker for its session timeout: the session and its ephemeral znodes are gone, and the brokers watching them are told now.";
    WHY_RESIGNED = "It learned that it is no longer the controller, so it stops acting as one.";
    WHY_CONTROLLER_DELETED = "Deleting /controller is how an operator moves the controller: every broker's watch fires and they race again.";
    WHY_CONFIG_CHANGED = "A setting changed while the cluster runs; the next decision that reads it uses the new value.";
    WHY_FETCHER_STALLED = "Its followers stop fetching, so they fall behind their leaders, who will take them out of the ISR after replica.lag.time.max.ms.";
    WHY_FETCHER_RESUMED = "Its followers fetch again; once caught up they rejoin the ISR.";
    WHY_PRODUCER_STARTED = "Records now flow to the partition's leader.";
    WHY_PRODUCER_STOPPED = "No new records are sent to the partition.";
    WHY_CONSUMER_CRASHED = "A crashed consumer sends no LeaveGroup: it stays a member until session.timeout.ms passes without a heartbeat.";
    WHY_CONSUMER_LEAVING = "A clean leave (LeaveGroup): it is removed at once, and the group rebalances without it.";
    WHY_MEMBER_REMOVED = "It left, or its heartbeats stopped for longer than session.timeout.ms: the group rebalances without it.";
    WHY_REASSIGNMENT_STARTED = "The partition moves to other brokers: the new replicas catch up before the old ones leave.";
    WHY_REASSIGNMENT_COMPLETED = "Every new replica caught up and the old ones were removed.";
    WHY_REASSIGN_NOT_LIVE = "Kafka checks a move before it starts: broker {brokers} is not live (down, or shutting down), so the controller will not place a new replica there, and nothing changes.";
    WHY_REASSIGN_NOT_REGISTERED = "The reassignment tool checks the brokers first: broker {brokers} is not registered in ZooKeeper, so it starts nothing.";
    WHY_REASSIGN_IN_PROGRESS = "Another reassignment is still in progress, and before Kafka 3.0 the tool starts no new one until it has completed.";
    WHY_FENCED = "It came from an old controller (epoch {epoch}); this broker already follows epoch {current}, so it ignores it: that is how a zombie controller is fenced.";

    // The log's own words.
    LOG_WHY = "Why: ";
    LOG_DETAIL = "Kafka detail";
    LOG_DETAIL_TITLE = "Show the Kafka detail of this event: the rule, the setting and the source";
    LOG_TIME_TITLE = "Show the cluster at this moment, with the nodes this event is about highlighted";
    LOG_TIME_LABEL = "Show the cluster at t = {time}";
    LOG_FOLDED = "{count} events about other __consumer_offsets partitions";
    TAG_NEW_PARTITION = "new partition election";
    TAG_OFFLINE_ELECTION = "offline election";
    TAG_UNCLEAN = "unclean election";
    TAG_PREFERRED = "preferred election";
    TAG_SHUTDOWN = "controlled shutdown election";
    TAG_REASSIGNMENT = "reassignment election";
    TAG_GROUP_LEADER = "group leader · generation {generation}";
    TAG_REBALANCE = "rebalance → generation {generation}";
    TAG_STABLE = "generation {generation} stable";
    TAG_EMPTY = "generation {generation} empty";
    TAG_COORDINATOR = "coordinator → broker {broker}";
}
