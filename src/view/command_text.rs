//! A command (a story's next scripted step, a recorded action) in the reader's language. The
//! core's English (`Command`'s `Display`) stays the command line's; in English the page says
//! the same words.

use crate::i18n::{msg_events as ev, msg_graph as g, Tr};
use crate::sim::{fmt_ms, Command, Endpoint};

/// `cmd` in the reader's language.
pub fn command_text(cmd: &Command, tr: &Tr) -> String {
    let broker = |msg, b: &u32| tr.f(msg, &[("broker", b)]);
    let partition = |topic: &str, p: &u32| format!("{topic}-{p}");
    let member =
        |msg, member: &String, group: &String| tr.f(msg, &[("member", member), ("group", group)]);
    match cmd {
        Command::Start(b) => broker(g::CMD_START, b),
        Command::Crash(b) => broker(g::CMD_CRASH, b),
        Command::Shutdown(b) => broker(g::CMD_SHUTDOWN, b),
        Command::Pause { broker, for_ms } => tr.f(
            g::CMD_PAUSE,
            &[("broker", broker), ("duration", &fmt_ms(*for_ms))],
        ),
        Command::ExpireSession(b) => broker(g::CMD_EXPIRE, b),
        Command::Cut(a, b) => tr.f(
            g::CMD_CUT,
            &[("a", &endpoint(a, tr)), ("b", &endpoint(b, tr))],
        ),
        Command::Heal(a, b) => tr.f(
            g::CMD_HEAL,
            &[("a", &endpoint(a, tr)), ("b", &endpoint(b, tr))],
        ),
        Command::Produce {
            topic,
            partition: p,
            records,
            acks,
            rate_per_s,
            for_ms,
        } => {
            let tp = partition(topic, p);
            match rate_per_s {
                Some(r) => {
                    let mut s = tr.f(
                        g::CMD_PRODUCE_STREAM,
                        &[("rate", r), ("partition", &tp), ("acks", acks)],
                    );
                    if let Some(ms) = for_ms {
                        s.push_str(&tr.f(g::CMD_FOR, &[("duration", &fmt_ms(*ms))]));
                    }
                    s
                }
                None => tr.f(
                    g::CMD_PRODUCE_BURST,
                    &[
                        ("records", &records.unwrap_or(0)),
                        ("partition", &tp),
                        ("acks", acks),
                    ],
                ),
            }
        }
        Command::StopProducing {
            topic,
            partition: p,
        } => tr.f(
            g::CMD_STOP_PRODUCING,
            &[("partition", &partition(topic, p))],
        ),
        Command::StallFetcher {
            broker,
            topic,
            partition,
        } => tr.f(
            g::CMD_STALL,
            &[("broker", broker), ("scope", &scope(topic, partition, tr))],
        ),
        Command::ResumeFetcher {
            broker,
            topic,
            partition,
        } => tr.f(
            g::CMD_RESUME,
            &[("broker", broker), ("scope", &scope(topic, partition, tr))],
        ),
        Command::SetConfig { key, value, topic } => match topic {
            Some(t) => tr.f(
                g::CMD_SET_TOPIC,
                &[("key", key), ("value", value), ("topic", t)],
            ),
            None => tr.f(g::CMD_SET, &[("key", key), ("value", value)]),
        },
        Command::PreferredElection { topic, partition } => {
            tr.f(g::CMD_PREFERRED, &[("scope", &scope(topic, partition, tr))])
        }
        Command::Reassign {
            topic,
            partition: p,
            replicas,
        } => tr.f(
            g::CMD_REASSIGN,
            &[
                ("partition", &partition(topic, p)),
                ("replicas", &format!("{replicas:?}")),
            ],
        ),
        Command::Join { group, member: m } => member(g::CMD_JOIN, m, group),
        Command::Leave { group, member: m } => member(g::CMD_LEAVE, m, group),
        Command::CrashConsumer { group, member: m } => member(g::CMD_CRASH_CONSUMER, m, group),
        Command::DeleteController => tr.t(g::CMD_DELETE_CONTROLLER),
    }
}

/// What a fetcher stall or a preferred election covers: every partition, a topic, or one
/// partition (as `sim::commands::scope` says it in English).
fn scope(topic: &Option<String>, partition: &Option<u32>, tr: &Tr) -> String {
    match (topic, partition) {
        (None, _) => tr.t(ev::EV_SCOPE_ALL),
        (Some(t), None) => tr.f(ev::EV_SCOPE_TOPIC, &[("topic", t)]),
        (Some(t), Some(p)) => format!("{t}-{p}"),
    }
}

/// One end of a cut link (as `Endpoint`'s `Display` says it in English).
fn endpoint(e: &Endpoint, tr: &Tr) -> String {
    match e {
        Endpoint::Zk => "ZooKeeper".to_string(),
        Endpoint::Broker(b) => tr.f(ev::EV_ENDPOINT_BROKER, &[("broker", b)]),
        Endpoint::Client => tr.t(ev::EV_ENDPOINT_PRODUCER),
        Endpoint::Consumer(c) => tr.f(g::CMD_END_CONSUMER, &[("consumer", c)]),
    }
}
