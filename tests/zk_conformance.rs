//! The ZooKeeper conformance suite: the same sequences of operations (tests/zk-conformance/*.json)
//! run against a real ZooKeeper 3.8 (through kazoo, by tests/zk-conformance/driver.py, which
//! starts and stops one server per sequence on 127.0.0.1 with tickTime=3000) and against the
//! model's server ([`ZooKeeper`], driven here as its clients would drive it). Each side prints,
//! for every step, what the operation returned (results, error codes, stats with zxids
//! relative to the zxid after setup, ephemeral owners by session name) and the watch
//! notifications each session received; timing steps are compared by their rule (expired after
//! the timeout, within one tick; a whole number of ticks after the expiry before), not by
//! clock readings. Every differing step of every sequence is reported, then the test fails.
//!
//! It needs Debian's `zookeeper` (3.8, with a JRE) and `python3-kazoo` (installed by
//! www/scripts/setup.sh); without them it fails, saying what is missing. The real server's
//! measurements (granted timeouts, how late each silent session expired) are printed with
//! `cargo test --test zk_conformance -- --nocapture`.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::{
    Body, BrokerId, Endpoint, OpResult, Out, SessionId, Stat, Timer, WatchChange, ZkError, ZkOp,
    ZooKeeper,
};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// ZooKeeper's `tickTime` in the suite's server configuration (and the model's default).
const TICK_MS: u64 = 3_000;

/// One sequence file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sequence {
    /// What it checks.
    #[allow(dead_code)] // read by people and by the driver's report, not by the comparison
    about: String,
    /// Persistent znodes (with their parents) created before the steps, beyond the paths the
    /// model's server starts with.
    #[serde(default)]
    setup: Vec<String>,
    steps: Vec<Step>,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum Step {
    Connect {
        session: String,
        timeout_ms: u64,
    },
    Create {
        session: String,
        path: String,
        #[serde(default)]
        data: String,
        #[serde(default)]
        ephemeral: bool,
    },
    Set {
        session: String,
        path: String,
        #[serde(default)]
        data: String,
        #[serde(default)]
        version: Option<i32>,
    },
    Delete {
        session: String,
        path: String,
    },
    Exists {
        session: String,
        path: String,
        #[serde(default)]
        watch: bool,
    },
    Children {
        session: String,
        path: String,
        #[serde(default)]
        watch: bool,
    },
    Multi {
        session: String,
        ops: Vec<MultiOp>,
    },
    Close {
        session: String,
    },
    Cut {
        session: String,
    },
    Reconnect {
        session: String,
    },
    AwaitExpiry {
        session: String,
    },
    Sleep {
        ms: u64,
    },
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
enum MultiOp {
    Check {
        path: String,
        version: i32,
    },
    Create {
        path: String,
        #[serde(default)]
        data: String,
        #[serde(default)]
        ephemeral: bool,
    },
    Set {
        path: String,
        #[serde(default)]
        data: String,
        #[serde(default)]
        version: Option<i32>,
    },
    Delete {
        path: String,
    },
}

impl MultiOp {
    fn zk_op(&self) -> ZkOp {
        match self.clone() {
            MultiOp::Check { path, version } => ZkOp::Check { path, version },
            MultiOp::Create {
                path,
                data,
                ephemeral,
            } => ZkOp::Create {
                path,
                data,
                ephemeral,
            },
            MultiOp::Set {
                path,
                data,
                version,
            } => ZkOp::SetData {
                path,
                data,
                version,
            },
            MultiOp::Delete { path } => ZkOp::Delete { path },
        }
    }

    fn describe(&self) -> String {
        match self {
            MultiOp::Check { path, version } => format!("check {path} version {version}"),
            MultiOp::Create {
                path, ephemeral, ..
            } => format!(
                "create {path}{}",
                if *ephemeral { " (ephemeral)" } else { "" }
            ),
            MultiOp::Set { path, version, .. } => {
                format!("setData {path}{}", version_text(*version))
            }
            MultiOp::Delete { path } => format!("delete {path}"),
        }
    }
}

fn version_text(version: Option<i32>) -> String {
    version.map(|v| format!(" version {v}")).unwrap_or_default()
}

impl Step {
    /// The step in words, for the report.
    fn describe(&self) -> String {
        match self {
            Step::Connect {
                session,
                timeout_ms,
            } => format!("{session} connects asking for {timeout_ms} ms"),
            Step::Create {
                session,
                path,
                ephemeral,
                ..
            } => format!(
                "{session} create {path}{}",
                if *ephemeral { " (ephemeral)" } else { "" }
            ),
            Step::Set {
                session,
                path,
                version,
                ..
            } => format!("{session} setData {path}{}", version_text(*version)),
            Step::Delete { session, path } => format!("{session} delete {path}"),
            Step::Exists {
                session,
                path,
                watch,
            } => format!(
                "{session} exists {path}{}",
                if *watch { " (watch)" } else { "" }
            ),
            Step::Children {
                session,
                path,
                watch,
            } => format!(
                "{session} getChildren {path}{}",
                if *watch { " (watch)" } else { "" }
            ),
            Step::Multi { session, ops } => format!(
                "{session} multi [{}]",
                ops.iter()
                    .map(MultiOp::describe)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            Step::Close { session } => format!("{session} closes its session"),
            Step::Cut { session } => format!("{session}'s connection is cut"),
            Step::Reconnect { session } => format!("{session} reconnects within its session"),
            Step::AwaitExpiry { session } => format!("wait until {session}'s session expires"),
            Step::Sleep { ms } => format!("{ms} ms pass"),
        }
    }
}

// --- the model's side --------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Conn {
    Live,
    Cut,
    Closed,
    Expired,
}

/// One client session, as the driver keeps it (what ZooKeeper's Java client keeps).
#[derive(Debug)]
struct Client {
    broker: BrokerId,
    id: SessionId,
    timeout_ms: u64,
    conn: Conn,
    /// When the server last heard from it.
    last_contact: u64,
    /// The newest zxid in a response (`ClientCnxn.lastZxid`).
    last_zxid: i64,
    /// Data watches held: path -> whether the znode existed when it was set.
    data_watches: BTreeMap<String, bool>,
    child_watches: BTreeSet<String>,
    /// Notifications received during the current step.
    events: Vec<String>,
}

struct ModelRun {
    zk: ZooKeeper,
    now: u64,
    timers: BTreeMap<(u64, u64), Timer>,
    timer_seq: u64,
    clients: BTreeMap<String, Client>,
    names: BTreeMap<SessionId, String>,
    base: i64,
    expiries: Vec<(String, u64)>,
    next_xid: u64,
}

fn event_name(change: &WatchChange) -> &'static str {
    match change {
        WatchChange::Created => "NodeCreated",
        WatchChange::Deleted => "NodeDeleted",
        WatchChange::DataChanged => "NodeDataChanged",
        WatchChange::ChildrenChanged => "NodeChildrenChanged",
    }
}

impl ModelRun {
    fn new(seq: &Sequence) -> ModelRun {
        let mut zk = ZooKeeper::new();
        let mut out = Out::default();
        for path in &seq.setup {
            zk.admin_create(path, "", &mut out);
        }
        let base = zk.zxid();
        ModelRun {
            zk,
            now: 0,
            timers: BTreeMap::new(),
            timer_seq: 0,
            clients: BTreeMap::new(),
            names: BTreeMap::new(),
            base,
            expiries: Vec::new(),
            next_xid: 1,
        }
    }

    fn z(&self, zxid: i64) -> String {
        format!("z{}", zxid - self.base)
    }

    fn stat(&self, s: &Stat) -> String {
        let owner = match s.ephemeral_owner {
            Some(id) => self.names.get(&id).map_or("?", String::as_str),
            None => "-",
        };
        format!(
            "czxid={} mzxid={} version={} owner={owner}",
            self.z(s.czxid),
            self.z(s.mzxid),
            s.version
        )
    }

    /// Takes what the server sent: timers are queued, notifications delivered to live
    /// clients (a cut client's are lost with its connection); the replies are returned.
    fn deliver(&mut self, out: Out) -> Vec<Body> {
        for (at, owner, timer) in out.timers {
            assert_eq!(owner, Endpoint::Zk, "only the server sets timers here");
            self.timer_seq += 1;
            self.timers.insert((at, self.timer_seq), timer);
        }
        let mut replies = Vec::new();
        for (_, _, body) in out.sends {
            match body {
                Body::Watch {
                    session,
                    path,
                    change,
                    ..
                } => {
                    let Some(name) = self.names.get(&session) else {
                        continue;
                    };
                    let c = self.clients.get_mut(name).expect("a named session");
                    if c.conn != Conn::Live {
                        continue;
                    }
                    c.events
                        .push(format!("{name} got {} {path}", event_name(&change)));
                    match change {
                        WatchChange::Created | WatchChange::DataChanged => {
                            c.data_watches.remove(&path);
                        }
                        WatchChange::Deleted => {
                            c.data_watches.remove(&path);
                            c.child_watches.remove(&path);
                        }
                        WatchChange::ChildrenChanged => {
                            c.child_watches.remove(&path);
                        }
                    }
                }
                other => replies.push(other),
            }
        }
        replies
    }

    fn client(&self, name: &str) -> &Client {
        self.clients
            .get(name)
            .unwrap_or_else(|| panic!("session {name} is used before it connects"))
    }

    fn request(&mut self, name: &str, op: ZkOp) -> Result<OpResult, ZkError> {
        let (broker, session) = {
            let c = self.client(name);
            (c.broker, c.id)
        };
        let xid = self.next_xid;
        self.next_xid += 1;
        let mut out = Out::default();
        self.zk.handle(
            self.now,
            broker,
            Body::Request { session, xid, op },
            &mut out,
        );
        let replies = self.deliver(out);
        let c = self.clients.get_mut(name).expect("a named session");
        c.last_contact = self.now;
        for reply in replies {
            match reply {
                Body::Response { zxid, result, .. } => {
                    c.last_zxid = c.last_zxid.max(zxid);
                    return result;
                }
                Body::Expired { .. } => return Err(ZkError::SessionExpired),
                _ => {}
            }
        }
        panic!("no reply to {name}'s request")
    }

    /// Moves the clock to `until`, firing the server's timers and pinging for every live
    /// client a third of its timeout after it last spoke; stops early, after everything due at
    /// that instant, once `stop` holds.
    fn advance(&mut self, until: u64, stop: &dyn Fn(&ModelRun) -> bool) -> bool {
        loop {
            let timer_at = self.timers.keys().next().map(|k| k.0);
            let ping = self
                .clients
                .iter()
                .filter(|(_, c)| c.conn == Conn::Live)
                .map(|(n, c)| (c.last_contact + c.timeout_ms / 3, n.clone()))
                .min();
            let next = match (timer_at, &ping) {
                (Some(t), Some((p, _))) => t.min(*p),
                (Some(t), None) => t,
                (None, Some((p, _))) => *p,
                (None, None) => u64::MAX,
            };
            if stop(self) && next > self.now {
                return true;
            }
            if next > until {
                self.now = until;
                return stop(self);
            }
            self.now = next;
            if timer_at == Some(next) {
                let (_, timer) = self.timers.pop_first().expect("a timer");
                let mut out = Out::default();
                self.zk.on_timer(next, timer, &mut out);
                self.deliver(out);
            } else if let Some((_, name)) = ping {
                let c = self.client(&name);
                let (broker, session) = (c.broker, c.id);
                let mut out = Out::default();
                self.zk
                    .handle(next, broker, Body::Ping { session }, &mut out);
                self.deliver(out);
                self.clients
                    .get_mut(&name)
                    .expect("a named session")
                    .last_contact = next;
            }
        }
    }

    fn step(&mut self, step: &Step) -> Vec<String> {
        let result = match step {
            Step::Connect {
                session,
                timeout_ms,
            } => {
                let broker = self.clients.len() as BrokerId + 1;
                let mut out = Out::default();
                self.zk.handle(
                    self.now,
                    broker,
                    Body::Connect {
                        timeout_ms: *timeout_ms,
                    },
                    &mut out,
                );
                let replies = self.deliver(out);
                let Some(Body::Connected {
                    session: id,
                    timeout_ms: granted,
                    ..
                }) = replies.into_iter().next()
                else {
                    panic!("no Connected for {session}")
                };
                self.names.insert(id, session.clone());
                self.clients.insert(
                    session.clone(),
                    Client {
                        broker,
                        id,
                        timeout_ms: granted,
                        conn: Conn::Live,
                        last_contact: self.now,
                        last_zxid: 0,
                        data_watches: BTreeMap::new(),
                        child_watches: BTreeSet::new(),
                        events: Vec::new(),
                    },
                );
                format!("connected timeout={granted}")
            }
            Step::Create {
                session,
                path,
                data,
                ephemeral,
            } => {
                let r = self.request(
                    session,
                    ZkOp::Create {
                        path: path.clone(),
                        data: data.clone(),
                        ephemeral: *ephemeral,
                    },
                );
                match r {
                    Ok(OpResult::Created(s)) => format!("OK {}", self.stat(&s)),
                    other => self.unexpected(other),
                }
            }
            Step::Set {
                session,
                path,
                data,
                version,
            } => {
                let r = self.request(
                    session,
                    ZkOp::SetData {
                        path: path.clone(),
                        data: data.clone(),
                        version: *version,
                    },
                );
                match r {
                    Ok(OpResult::Set(s)) => format!("OK {}", self.stat(&s)),
                    other => self.unexpected(other),
                }
            }
            Step::Delete { session, path } => {
                match self.request(session, ZkOp::Delete { path: path.clone() }) {
                    Ok(OpResult::Deleted) => "OK".to_string(),
                    other => self.unexpected(other),
                }
            }
            Step::Exists {
                session,
                path,
                watch,
            } => {
                let r = self.request(
                    session,
                    ZkOp::Exists {
                        path: path.clone(),
                        watch: *watch,
                    },
                );
                if *watch {
                    if let Ok(OpResult::Node(node)) = &r {
                        let existed = node.is_some();
                        let c = self.clients.get_mut(session).expect("a named session");
                        c.data_watches.insert(path.clone(), existed);
                    }
                }
                match r {
                    Ok(OpResult::Node(None)) => "none".to_string(),
                    Ok(OpResult::Node(Some(n))) => format!(
                        "node {} data={}",
                        self.stat(&n.stat),
                        serde_json::to_string(&n.data).expect("a string serializes")
                    ),
                    other => self.unexpected(other),
                }
            }
            Step::Children {
                session,
                path,
                watch,
            } => {
                let r = self.request(
                    session,
                    ZkOp::GetChildren {
                        path: path.clone(),
                        watch: *watch,
                    },
                );
                if *watch && r.is_ok() {
                    let c = self.clients.get_mut(session).expect("a named session");
                    c.child_watches.insert(path.clone());
                }
                match r {
                    Ok(OpResult::Children(kids)) => {
                        let mut names: Vec<String> = kids.into_iter().map(|(n, _)| n).collect();
                        names.sort();
                        format!("[{}]", names.join(", "))
                    }
                    other => self.unexpected(other),
                }
            }
            Step::Multi { session, ops } => {
                let r = self.request(
                    session,
                    ZkOp::Multi(ops.iter().map(MultiOp::zk_op).collect()),
                );
                match r {
                    Ok(OpResult::Multi(results)) => {
                        let parts: Vec<String> = ops
                            .iter()
                            .zip(results)
                            .map(|(op, r)| match (op, r) {
                                (MultiOp::Check { .. }, OpResult::Checked) => "checked".into(),
                                (MultiOp::Create { path, .. }, OpResult::Created(_)) => {
                                    format!("created {path}")
                                }
                                (MultiOp::Set { .. }, OpResult::Set(s)) => {
                                    format!("set {}", self.stat(&s))
                                }
                                (MultiOp::Delete { .. }, OpResult::Deleted) => "deleted".into(),
                                (op, r) => format!("unexpected {r:?} for {}", op.describe()),
                            })
                            .collect();
                        format!("OK [{}]", parts.join("; "))
                    }
                    other => self.unexpected(other),
                }
            }
            Step::Close { session } => {
                let c = self.client(session);
                let (broker, id) = (c.broker, c.id);
                let mut out = Out::default();
                self.zk
                    .handle(self.now, broker, Body::Close { session: id }, &mut out);
                self.deliver(out);
                self.clients.get_mut(session).expect("a named session").conn = Conn::Closed;
                "closed".to_string()
            }
            Step::Cut { session } => {
                self.clients.get_mut(session).expect("a named session").conn = Conn::Cut;
                "cut".to_string()
            }
            Step::Reconnect { session } => self.reconnect(session),
            Step::AwaitExpiry { session } => self.await_expiry(session),
            Step::Sleep { ms } => {
                let until = self.now + ms;
                self.advance(until, &|_| false);
                "slept".to_string()
            }
        };
        // Every live session reads once, as the real side does to collect its notifications.
        let live: Vec<String> = self
            .clients
            .iter()
            .filter(|(_, c)| c.conn == Conn::Live)
            .map(|(n, _)| n.clone())
            .collect();
        for name in &live {
            let _ = self.request(
                name,
                ZkOp::Exists {
                    path: "/".into(),
                    watch: false,
                },
            );
        }
        let mut lines = vec![result];
        for c in self.clients.values_mut() {
            lines.append(&mut c.events);
        }
        lines
    }

    fn unexpected(&self, r: Result<OpResult, ZkError>) -> String {
        match r {
            Err(e) => e.name().to_string(),
            Ok(other) => format!("unexpected {other:?}"),
        }
    }

    fn reconnect(&mut self, name: &str) -> String {
        let c = self.client(name);
        let (broker, id) = (c.broker, c.id);
        let mut out = Out::default();
        self.zk
            .handle(self.now, broker, Body::Reconnect { session: id }, &mut out);
        let c = self.clients.get_mut(name).expect("a named session");
        c.conn = Conn::Live;
        let replies = self.deliver(out);
        match replies.into_iter().next() {
            Some(Body::Connected { timeout_ms, .. }) => {
                let c = self.clients.get_mut(name).expect("a named session");
                c.last_contact = self.now;
                // The Java client's order: data watches, exist watches, child watches.
                let mut data: Vec<(String, bool)> = c
                    .data_watches
                    .iter()
                    .filter(|(_, e)| **e)
                    .map(|(p, e)| (p.clone(), *e))
                    .collect();
                data.extend(
                    c.data_watches
                        .iter()
                        .filter(|(_, e)| !**e)
                        .map(|(p, e)| (p.clone(), *e)),
                );
                let children: Vec<String> = c.child_watches.iter().cloned().collect();
                if !data.is_empty() || !children.is_empty() {
                    let body = Body::SetWatches {
                        session: id,
                        last_zxid: c.last_zxid,
                        data,
                        children,
                    };
                    let mut out = Out::default();
                    self.zk.handle(self.now, broker, body, &mut out);
                    self.deliver(out);
                }
                format!("reconnected timeout={timeout_ms}")
            }
            Some(Body::Expired { .. }) => {
                self.clients.get_mut(name).expect("a named session").conn = Conn::Expired;
                "SESSIONEXPIRED".to_string()
            }
            other => panic!("unexpected reply to {name}'s reconnect: {other:?}"),
        }
    }

    fn await_expiry(&mut self, name: &str) -> String {
        let c = self.client(name);
        assert_eq!(
            c.conn,
            Conn::Cut,
            "await_expiry of {name}, which is not cut"
        );
        let (id, last, timeout) = (c.id, c.last_contact, c.timeout_ms);
        let ended = move |run: &ModelRun| run.zk.session(id).is_some_and(|s| s.ended.is_some());
        let limit = self.now + 600_000;
        assert!(
            self.advance(limit, &ended),
            "{name}'s session did not expire within 10 virtual minutes"
        );
        let expired = self
            .zk
            .session(id)
            .map(|_| self.now)
            .expect("the session exists");
        self.clients.get_mut(name).expect("a named session").conn = Conn::Expired;
        let late = expired as i64 - last as i64 - timeout as i64;
        let when = if late < 0 {
            "before its timeout"
        } else if late <= TICK_MS as i64 {
            "after its timeout, within one tick"
        } else {
            "more than a tick after its timeout"
        };
        let mut text = format!("expired {when}");
        if let Some((prev, at)) = self.expiries.last() {
            let whole = (expired - at) % TICK_MS == 0;
            text.push_str(&format!(
                ", {} ticks after {prev}",
                if whole {
                    "a whole number of"
                } else {
                    "not a whole number of"
                }
            ));
        }
        self.expiries.push((name.to_string(), expired));
        text
    }
}

fn run_model(seq: &Sequence) -> Vec<Vec<String>> {
    let mut run = ModelRun::new(seq);
    seq.steps.iter().map(|s| run.step(s)).collect()
}

// --- the comparison ------------------------------------------------------------------------------

fn sequence_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/zk-conformance");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/zk-conformance exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn load(path: &Path) -> (String, Sequence) {
    let name = path
        .file_stem()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let text = std::fs::read_to_string(path).expect("a sequence file reads");
    let seq: Sequence = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not a sequence: {e}", path.display()));
    (name, seq)
}

/// Every step whose lines differ, as a readable report (empty when the two sides agree).
fn differences(seq: &Sequence, real: &[Vec<String>], model: &[Vec<String>]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, step) in seq.steps.iter().enumerate() {
        let (r, m) = (real.get(i), model.get(i));
        if r == m {
            continue;
        }
        out.push(format!("  step {} ({}):", i + 1, step.describe()));
        let show = |lines: Option<&Vec<String>>| match lines {
            Some(l) => l.join("\n                 "),
            None => "(no result)".to_string(),
        };
        out.push(format!("    ZooKeeper:   {}", show(r)));
        out.push(format!("    model:       {}", show(m)));
    }
    if real.len() != model.len() {
        out.push(format!(
            "  ZooKeeper gave {} steps' results, the model {}",
            real.len(),
            model.len()
        ));
    }
    out
}

#[test]
fn the_model_answers_as_zookeeper_3_8_does() {
    let files = sequence_files();
    assert!(!files.is_empty(), "no sequences in tests/zk-conformance");
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/zk-conformance/driver.py");
    // Debian's python3-kazoo is installed for Debian's own interpreter.
    let real = Command::new("/usr/bin/python3")
        .arg(&driver)
        .args(&files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run /usr/bin/python3 {}: {e}", driver.display()));
    let stderr = String::from_utf8_lossy(&real.stderr);
    if real.status.code() == Some(2) {
        panic!("the real side cannot run: {stderr}(run www/scripts/setup.sh)");
    }
    let report: serde_json::Value = serde_json::from_slice(&real.stdout).unwrap_or_else(|e| {
        panic!(
            "the driver printed no report ({e}, status {}): {stderr}",
            real.status
        )
    });
    let mut failures = Vec::new();
    let mut text = Vec::new();
    for path in &files {
        let (name, seq) = load(path);
        let model = run_model(&seq);
        let real = &report["sequences"][&name];
        if let Some(err) = real.get("error") {
            failures.push(format!(
                "{name}: the real side failed:\n{}",
                err.as_str().unwrap_or("?")
            ));
            continue;
        }
        let steps: Vec<Vec<String>> = serde_json::from_value(real["steps"].clone())
            .unwrap_or_else(|e| panic!("{name}: the driver's steps do not read: {e}"));
        let diff = differences(&seq, &steps, &model);
        text.push(format!(
            "{name}: {} steps, {} ({} s against the real server)",
            seq.steps.len(),
            if diff.is_empty() {
                "same on both sides".to_string()
            } else {
                format!(
                    "{} differing",
                    diff.iter().filter(|l| l.starts_with("  step")).count()
                )
            },
            real["seconds"]
        ));
        for m in real["measurements"].as_array().into_iter().flatten() {
            text.push(format!("  measured: {}", m.as_str().unwrap_or("?")));
        }
        if !diff.is_empty() {
            failures.push(format!("{name}:\n{}", diff.join("\n")));
        }
    }
    println!("{}", text.join("\n"));
    assert!(
        failures.is_empty(),
        "the model differs from ZooKeeper 3.8:\n\n{}",
        failures.join("\n\n")
    );
}
