//! The gallery of bad inputs (tests/bad-inputs/gallery.json) at the command line's door: every
//! scenario file is refused by `run` and every lesson file by `lesson` with exit code 2, one
//! line on stderr naming the file and containing the entry's message, nothing on stdout, and
//! quickly. The links are read as the page reads them (the page and the JS API themselves are
//! www/tests/bad-inputs.spec.ts).
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::scenario;
use kafka_election_playground::session::codec;
use kafka_election_playground::session::{Session, Start};
use kafka_election_playground::view::setup::FreePlay;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The longest a refusal may take (a debug build, on a shared machine): a reader that runs
/// before it refuses, or hangs, fails here.
const QUICK: Duration = Duration::from_secs(10);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn gallery() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("tests/bad-inputs/gallery.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["entries"].as_array().unwrap().clone()
}

/// The inputs too big to commit, made as www/tests/bad-inputs.spec.ts makes them.
fn generate(name: &str) -> String {
    let ids = |n: u32| (1..=n).map(|b| b.to_string()).collect::<Vec<_>>().join(",");
    match name {
        "deep-nesting" => "[".repeat(100_000),
        "brokers-100000" => format!(r#"{{"version":1,"brokers":[{}]}}"#, ids(100_000)),
        "brokers-1000000" => format!(r#"{{"version":1,"brokers":[{}]}}"#, ids(1_000_000)),
        "work-64x256-1h" => format!(
            r#"{{"version":1,"brokers":[{}],"topics":[{{"name":"t","partitions":256,"replication_factor":3}}],"until_ms":3600000}}"#,
            ids(64)
        ),
        "link-5mb" => format!("v=1&m=2&t=0&pad={}", "a".repeat(5_000_000)),
        other => panic!("no generator {other}"),
    }
}

/// A scenario or lesson input's text.
fn text(input: &Value) -> String {
    if let Some(t) = input.get("text") {
        t.as_str().unwrap().to_string()
    } else if let Some(j) = input.get("json") {
        serde_json::to_string_pretty(j).unwrap()
    } else if let Some(g) = input.get("generate") {
        generate(g.as_str().unwrap())
    } else {
        panic!("not an input: {input}")
    }
}

/// The example lesson, the base of the lesson inputs.
fn base_lesson() -> String {
    std::fs::read_to_string(root().join("docs/examples/lessons/first-lesson.json")).unwrap()
}

/// A lesson input's text: an input, the example lesson edited, or the example lesson with
/// another scenario.
fn lesson_text(input: &Value) -> String {
    if let Some(edits) = input.get("edit") {
        let mut t = base_lesson();
        for e in edits.as_array().unwrap() {
            let (find, replace) = (e[0].as_str().unwrap(), e[1].as_str().unwrap());
            assert!(t.contains(find), "the example lesson has no {find:?}");
            t = t.replacen(find, replace, 1);
        }
        t
    } else if let Some(s) = input.get("scenario") {
        let t = base_lesson();
        let (from, to) = (
            t.find("\"scenario\": {").unwrap(),
            t.find("\"steps\"").unwrap(),
        );
        format!("{}\"scenario\": {},\n  {}", &t[..from], text(s), &t[to..])
    } else {
        text(input)
    }
}

/// A link input's fragment.
fn link_fragment(input: &Value) -> String {
    if let Some(f) = input.get("fragment") {
        f.as_str().unwrap().to_string()
    } else if let Some(file) = input.get("file") {
        format!(
            "v=1&m=2&file={}&t=0",
            codec::base64url(text(file).as_bytes())
        )
    } else if let Some(g) = input.get("generate") {
        generate(g.as_str().unwrap())
    } else {
        panic!("not a link: {input}")
    }
}

fn temp_file(id: &str, kind: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kafka-election-gallery-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{id}.{kind}.json"));
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs the command line on one bad file and checks what the gallery says it must do.
fn refused_at_the_command_line(id: &str, cmd: &str, file: &Path, expect: &str) -> Vec<String> {
    let started = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_kafka-election"))
        .args([cmd, &file.to_string_lossy()])
        .output()
        .expect("the binary runs");
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&o.stderr);
    let mut problems = Vec::new();
    let mut fail = |what: String| problems.push(format!("{id} ({cmd}): {what}"));
    if o.status.code() != Some(2) {
        fail(format!("exit code {:?}, not 2", o.status.code()));
    }
    if err.lines().count() != 1 || !err.ends_with('\n') {
        fail(format!("not exactly one line on stderr: {err:?}"));
    }
    let head = format!("kafka-election: {}: ", file.display());
    if !err.starts_with(&head) {
        fail(format!("does not start with {head:?}: {err}"));
    }
    if !err.contains(expect) {
        fail(format!("lacks {expect:?}: {err}"));
    }
    if !o.stdout.is_empty() {
        fail(format!("printed {} bytes on stdout", o.stdout.len()));
    }
    if took > QUICK {
        fail(format!("took {took:?}"));
    }
    problems
}

/// Opens a link as the page opens one: its session's start (a scenario file it carries, or
/// free play from its parameters), replayed with its commands to its end.
fn open_link(fragment: &str) -> Result<(), String> {
    let link = codec::decode(fragment)?;
    let start = match link.base.iter().find(|(k, _)| k == "file") {
        Some((_, code)) => {
            let bytes = codec::from_base64url(code)?;
            let text = String::from_utf8(bytes).map_err(|_| "not UTF-8".to_string())?;
            let sc = scenario::parse(&text).map_err(|e| e.to_string())?;
            Start::from_scenario(link.base.clone(), &sc, &text)
        }
        None => {
            let mut fp = FreePlay::default();
            for (k, v) in &link.base {
                let n = v.parse::<u32>().map_err(|e| e.to_string())?;
                match k.as_str() {
                    "brokers" => fp.brokers = n,
                    "partitions" => fp.partitions = n,
                    other => return Err(format!("parameter {other}")),
                }
            }
            let (start, error) = fp.start();
            if let Some(e) = error {
                return Err(e);
            }
            start
        }
    };
    Session::replay(start, link.commands, link.now_ms, link.end_ms).map(|_| ())
}

#[test]
fn the_gallery_holds_at_least_thirty_inputs_each_with_a_door_and_a_message() {
    let entries = gallery();
    assert!(entries.len() >= 30, "{} entries", entries.len());
    let mut ids = std::collections::BTreeSet::new();
    for e in &entries {
        let id = e["id"].as_str().unwrap();
        assert!(ids.insert(id), "{id} twice");
        assert!(!e["what"].as_str().unwrap().is_empty(), "{id}: what it is");
        assert!(
            !e["expect"].as_str().unwrap().is_empty(),
            "{id}: its message"
        );
        assert!(
            ["scenario", "lesson", "link"]
                .iter()
                .any(|k| e.get(*k).is_some()),
            "{id}: no kind"
        );
    }
}

/// Every gallery entry of `kind` written to a file as `render` gives it and given to `command`:
/// the problems found, and how many entries there were.
fn refused_files(kind: &str, command: &str, render: fn(&Value) -> String) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut n = 0;
    for e in gallery() {
        let Some(input) = e.get(kind) else {
            continue;
        };
        let id = e["id"].as_str().unwrap();
        let file = temp_file(id, kind, &render(input));
        problems.extend(refused_at_the_command_line(
            id,
            command,
            &file,
            e["expect"].as_str().unwrap(),
        ));
        n += 1;
    }
    (problems, n)
}

#[test]
fn every_bad_scenario_file_is_refused_by_run_with_one_line() {
    let (problems, n) = refused_files("scenario", "run", text);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(n >= 25, "{n} scenario files");
}

#[test]
fn every_bad_lesson_file_is_refused_by_lesson_with_one_line() {
    let (problems, n) = refused_files("lesson", "lesson", lesson_text);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(n >= 25, "{n} lesson files");
}

#[test]
fn every_bad_link_is_refused_when_opened() {
    let mut problems = Vec::new();
    for e in gallery() {
        let Some(input) = e.get("link") else {
            continue;
        };
        let id = e["id"].as_str().unwrap();
        let expect = e["expect"].as_str().unwrap();
        let started = Instant::now();
        match open_link(&link_fragment(input)) {
            Ok(()) => problems.push(format!("{id}: the link opened")),
            Err(m) if !m.contains(expect) => problems.push(format!("{id}: lacks {expect:?}: {m}")),
            Err(_) => {}
        }
        if started.elapsed() > QUICK {
            problems.push(format!("{id}: took {:?}", started.elapsed()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_lesson_and_link_forms_of_a_good_input_open() {
    // The forms the gallery builds its inputs in work on good input, so a refusal above is the
    // entry's own problem.
    let good = serde_json::json!({"json": {"version": 1, "brokers": [1, 2, 3]}});
    let lesson = lesson_text(
        &serde_json::json!({"scenario": {"text": r#"{"version": 1, "seed": 7, "brokers": [1, 2, 3], "topics": [{"name": "orders", "replicas": [[1, 2, 3]]}], "actions": [{"at_ms": 1000, "do": "produce", "topic": "orders", "partition": 0, "rate_per_s": 50, "for_ms": 10000}, {"at_ms": 5000, "do": "crash", "broker": 1}], "until_ms": 30000}"#}}),
    );
    assert!(kafka_election_playground::lesson::load(&lesson).is_ok());
    assert!(kafka_election_playground::lesson::load(&lesson_text(
        &serde_json::json!({"edit": []})
    ))
    .is_ok());
    assert_eq!(
        open_link(&link_fragment(&serde_json::json!({"file": good}))),
        Ok(())
    );
}
