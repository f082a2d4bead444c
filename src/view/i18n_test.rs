//! The graph, the waits and the hints in Chinese: every word comes from the catalogue, and no
//! English is left but Kafka's own names (settings, znodes, requests, the glossary's kept
//! terms) and the names of the world (brokers' ids, consumers, groups, partitions).

use super::announce::next_try;
use super::command_text::command_text;
use super::flights::flight_label;
use super::format::consumer_list;
use super::frame::{default_world, graph_in};
use super::svg::graph_element;
use super::waits::{consumer_wait, nothing_within, produce_wait, rebalance_wait, JUMP_HORIZON_MS};
use crate::i18n::{Catalogue, Lang, Tr};
use crate::sim::{Acks, Command, Endpoint, Label, WatchChange, World};
use std::rc::Rc;

fn zh() -> Tr {
    let c = Catalogue::parse(include_str!("../../www/i18n/zh-CN.json")).expect("catalogue");
    Tr::new(Lang::ZhCn, Some(Rc::new(c)))
}

/// The glossary's terms kept in English.
fn kept() -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_str(include_str!("../../www/i18n/glossary.json")).expect("glossary");
    v["kept"]
        .as_array()
        .expect("kept")
        .iter()
        .map(|k| k.as_str().expect("a string").to_lowercase())
        .collect()
}

/// The English words of `text` that are neither Kafka's names, the glossary's kept terms,
/// the keys pressed, nor the world's names (`c1`, `my-group`, `orders-0`).
fn english_words(text: &str) -> Vec<String> {
    let kept = kept();
    // Kept terms of several words (`leader epoch`) are settled first.
    let mut text = text.to_string();
    for k in kept.iter().filter(|k| k.contains(' ')) {
        text = text.replace(k.as_str(), " ");
    }
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-+=".contains(c)))
        .flat_map(|t| t.split(['+', '=']))
        .map(|t| t.trim_matches(['.', '-']))
        .filter(|t| t.chars().filter(char::is_ascii_alphabetic).count() > 1)
        .filter(|t| {
            let b = t.as_bytes();
            let name = t.contains(['_', '.', '/'])
                || b.windows(2)
                    .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
                || b.iter().all(|c| !c.is_ascii_lowercase());
            let world = t.starts_with("orders-")
                || t == &"my-group"
                || (t.starts_with('c') && t[1..].chars().all(|c| c.is_ascii_digit()));
            let keys = ["Enter", "Shift", "all"].contains(t);
            !(name || world || keys || kept.contains(&t.to_lowercase()))
        })
        .map(str::to_string)
        .collect::<Vec<_>>()
}

/// The text a reader meets in an SVG: its text nodes and accessible names.
fn shown_text(markup: &str) -> String {
    let mut out = String::new();
    for piece in markup.split('<') {
        if let Some((tag, text)) = piece.split_once('>') {
            out.push_str(text);
            out.push('\n');
            let mut rest = tag;
            while let Some(i) = rest.find("aria-label=\"") {
                let after = &rest[i + 12..];
                let end = after.find('"').unwrap_or(after.len());
                out.push_str(&after[..end]);
                out.push('\n');
                rest = &after[end..];
            }
        }
    }
    out
}

/// The default cluster with a group, a stream, a crashed broker and consumer, a paused broker
/// and a cut ZooKeeper link: most of what the graph can say.
fn busy_world() -> World {
    let mut w = default_world();
    w.advance_to(2_000);
    for m in ["c1", "c2", "c3"] {
        w.apply(Command::Join {
            group: "my-group".into(),
            member: m.into(),
        })
        .expect("join");
    }
    w.advance_to(12_000);
    w.apply(Command::Produce {
        topic: "orders".into(),
        partition: 0,
        records: None,
        acks: Acks::All,
        rate_per_s: Some(20),
        for_ms: None,
    })
    .expect("produce");
    w.apply(Command::CrashConsumer {
        group: "my-group".into(),
        member: "c2".into(),
    })
    .expect("crash c2");
    w.apply(Command::Crash(2)).expect("crash 2");
    w.apply(Command::Pause {
        broker: 3,
        for_ms: 30_000,
    })
    .expect("pause 3");
    w.apply(Command::Cut(Endpoint::Broker(1), Endpoint::Zk))
        .expect("cut");
    w.advance_to(13_000);
    w
}

#[test]
fn the_graph_in_chinese_has_no_english_of_its_own() {
    let w = busy_world();
    let tr = zh();
    for compact in [false, true] {
        let g = graph_in(&w, compact, &tr);
        let text = shown_text(&graph_element(&g).to_markup());
        assert_eq!(english_words(&text), Vec::<String>::new(), "{text}");
        // It says what it says in Chinese: the controller's crown, the node's lines, the
        // consumers and the producer.
        assert!(text.contains("控制器 · epoch 1"), "{text}");
        assert!(text.contains("ZK 会话将过期"), "{text}");
        assert!(text.contains("生产者"), "{text}");
        assert!(text.contains("消费者"), "{text}");
        assert!(g
            .brokers
            .iter()
            .any(|b| b.labels.iter().any(|l| l.text == "已崩溃")));
    }
    // English stays as it was.
    let en = graph_in(&w, false, &Tr::en());
    let text = shown_text(&graph_element(&en).to_markup());
    assert!(text.contains("CONTROLLER · epoch 1"), "{text}");
    assert!(text.contains("ZK session expires"), "{text}");
}

#[test]
fn waits_and_hints_in_chinese() {
    let tr = zh();
    let w = busy_world();
    let s = w.state();
    let consumers = consumer_list(&s);
    let crashed = consumers.iter().find(|c| c.name == "c2").expect("c2");
    let wait = consumer_wait(crashed, &tr).expect("c2 waits to be removed");
    let sentence = wait.sentence(&tr);
    assert!(sentence.starts_with("被移出 my-group，还剩 "), "{sentence}");
    assert!(
        sentence.ends_with(" 秒（session.timeout.ms）"),
        "{sentence}"
    );
    let mut texts = vec![
        sentence,
        next_try(&s, &tr),
        nothing_within(JUMP_HORIZON_MS, &tr),
        nothing_within(1_500, &tr),
    ];
    texts.extend(produce_wait(&s, "orders-0", &tr));
    texts.extend(
        s.groups
            .values()
            .filter_map(|g| rebalance_wait(g, &tr))
            .map(|w| w.sentence(&tr)),
    );
    for t in &texts {
        assert_eq!(english_words(t), Vec::<String>::new(), "{t}");
    }
    assert_eq!(
        nothing_within(JUMP_HORIZON_MS, &tr),
        "下一事件：接下来 10 分钟的虚拟时间里什么也不会发生"
    );
    // A fresh cluster's hint, in both languages.
    let fresh = default_world().state();
    assert_eq!(
        next_try(&fresh, &tr),
        "稍等片刻：各 broker 正在注册，并抢着创建 /controller。"
    );
    assert!(next_try(&fresh, &Tr::en()).starts_with("Wait a moment"));
}

#[test]
fn the_check_finds_english() {
    assert_eq!(
        english_words("broker 2 已崩溃, press Enter; orders-0 acks=all c1 my-group LeaderAndIsr"),
        vec!["press"]
    );
}

/// Every kind of label a message in flight can carry.
fn every_label() -> Vec<Label> {
    let watch = |change| Label::Watch {
        path: "/controller".into(),
        change,
    };
    vec![
        Label::Name("create /controller".into()),
        Label::Ops {
            first: "getChildren /brokers/ids".into(),
            more: 2,
        },
        Label::NoOps,
        Label::Connect,
        Label::Reconnect,
        Label::Connected,
        Label::Pong,
        Label::ConnectionReset,
        Label::SessionExpired,
        Label::ZkOk,
        watch(Some(WatchChange::Created)),
        watch(Some(WatchChange::Deleted)),
        watch(Some(WatchChange::DataChanged)),
        watch(Some(WatchChange::ChildrenChanged)),
        watch(None),
        Label::UpdateMetadata {
            controller_epoch: 2,
        },
        Label::Ok("UpdateMetadata"),
        Label::LeaderAndIsr {
            tp: "orders-0".into(),
            leader: 2,
            leader_epoch: 3,
            controller_epoch: 1,
        },
        Label::LeaderAndIsrMany {
            partitions: 50,
            controller_epoch: 1,
        },
        Label::Fetched { records: 0 },
        Label::Fetched { records: 7 },
        Label::Produced { base: 40 },
        Label::Coordinator { broker: 3 },
        Label::Joined { generation: 2 },
        Label::Assigned { partitions: 1 },
        Label::HeartbeatOk,
        Label::Left,
        Label::ShutdownDone,
    ]
}

#[test]
fn messages_in_flight_are_named_in_the_readers_language() {
    let tr = zh();
    // Every label of a busy run, and every kind of label there is.
    let w = busy_world();
    let mut labels: Vec<Label> = w.messages_since(0).map(|m| m.words.clone()).collect();
    labels.extend(every_label());
    for l in &labels {
        // English is the record's label, as the command line shows it.
        assert_eq!(flight_label(l, &Tr::en()), l.english());
        let zh = flight_label(l, &tr);
        // ZooKeeper's operations and its watches, and Kafka's one-word requests, are their own
        // names, as Chinese articles keep them.
        let ops = [
            "create",
            "delete",
            "exists",
            "check",
            "multi",
            "ping",
            "watch",
            "Fetch",
            "Produce",
            "Heartbeat",
        ];
        let english: Vec<String> = english_words(&zh)
            .into_iter()
            .filter(|w| !ops.contains(&w.as_str()))
            .collect();
        assert_eq!(english, Vec::<String>::new(), "{zh}");
        assert!(!zh.contains('{'), "{zh}");
    }
    let said = |l: Label| flight_label(&l, &tr);
    assert_eq!(
        said(Label::UpdateMetadata {
            controller_epoch: 2
        }),
        "UpdateMetadata（controller epoch 2）"
    );
    assert_eq!(said(Label::SessionExpired), "会话已过期");
    assert_eq!(said(Label::Name("JoinGroup".into())), "JoinGroup");
}

/// Every kind of command there is.
fn every_command() -> Vec<Command> {
    let (group, member) = ("my-group".to_string(), "c1".to_string());
    vec![
        Command::Start(1),
        Command::Crash(2),
        Command::Shutdown(3),
        Command::Pause {
            broker: 1,
            for_ms: 20_000,
        },
        Command::ExpireSession(2),
        Command::Cut(Endpoint::Broker(1), Endpoint::Zk),
        Command::Heal(Endpoint::Client, Endpoint::Broker(2)),
        Command::Cut(Endpoint::Consumer(3), Endpoint::Broker(2)),
        Command::Produce {
            topic: "orders".into(),
            partition: 0,
            records: None,
            acks: Acks::All,
            rate_per_s: Some(20),
            for_ms: Some(5_000),
        },
        Command::Produce {
            topic: "orders".into(),
            partition: 0,
            records: Some(100),
            acks: Acks::One,
            rate_per_s: None,
            for_ms: None,
        },
        Command::StopProducing {
            topic: "orders".into(),
            partition: 0,
        },
        Command::StallFetcher {
            broker: 2,
            topic: None,
            partition: None,
        },
        Command::ResumeFetcher {
            broker: 2,
            topic: Some("orders".into()),
            partition: None,
        },
        Command::StallFetcher {
            broker: 2,
            topic: Some("orders".into()),
            partition: Some(1),
        },
        Command::SetConfig {
            key: "unclean.leader.election.enable".into(),
            value: serde_json::json!(true),
            topic: Some("orders".into()),
        },
        Command::SetConfig {
            key: "min.insync.replicas".into(),
            value: serde_json::json!(2),
            topic: None,
        },
        Command::PreferredElection {
            topic: None,
            partition: None,
        },
        Command::Reassign {
            topic: "orders".into(),
            partition: 0,
            replicas: vec![2, 3],
        },
        Command::Join {
            group: group.clone(),
            member: member.clone(),
        },
        Command::Leave {
            group: group.clone(),
            member: member.clone(),
        },
        Command::CrashConsumer { group, member },
        Command::DeleteController,
    ]
}

#[test]
fn commands_are_said_in_the_readers_language() {
    let tr = zh();
    for c in every_command() {
        // English is the core's, as the command line prints it.
        assert_eq!(command_text(&c, &Tr::en()), c.to_string());
        let zh = command_text(&c, &tr);
        // The topic's name is the world's, a setting's value Kafka's.
        let english: Vec<String> = english_words(&zh)
            .into_iter()
            .filter(|w| !["orders", "true"].contains(&w.as_str()))
            .collect();
        assert_eq!(english, Vec::<String>::new(), "{zh}");
        assert!(!zh.contains('{'), "{zh}");
    }
    assert_eq!(command_text(&Command::Crash(2), &tr), "让 broker 2 崩溃");
}
