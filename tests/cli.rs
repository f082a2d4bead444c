//! The `kafka-election` command line: output, exit codes, and bad input.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kafka-election"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

/// Runs the command line with `input` on its standard input.
fn cli_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kafka-election"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = input.to_vec();
    // Written from another thread, so a program that stops reading cannot block the test.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary ends");
    writer.join().unwrap();
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("kafka-election-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn check_passes_a_committed_scenario() {
    let o = cli(&["check", "www/scenarios/controller-crash.json"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("PASS at 25000 ms"));
    assert!(stdout(&o).contains("2 passed, 0 failed"));
}

#[test]
fn check_exits_1_when_a_checkpoint_fails() {
    let f = temp_file(
        "wrong.json",
        r#"{"version": 1, "brokers": [1, 2], "expect": [{"at_ms": 2000, "controller": 2}]}"#,
    );
    let o = cli(&["check", &f]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("FAIL at 2000 ms: controller: expected 2, got 1"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn run_prints_one_state_per_at_and_events_on_request() {
    let o = cli(&[
        "run",
        "www/scenarios/controller-crash.json",
        "--at",
        "5000",
        "--at",
        "25000",
        "--events",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    let states: Vec<&serde_json::Value> =
        lines.iter().filter(|v| v.get("kind").is_none()).collect();
    assert_eq!(states.len(), 2);
    assert_eq!(states[0]["time_ms"], 5000);
    assert_eq!(states[0]["controller"], 1);
    assert_eq!(states[1]["controller_epoch"], 2);
    assert!(lines
        .iter()
        .any(|v| v["kind"] == "controller_elected" && v["epoch"] == 2 && v["cause"].is_string()));
    let o = cli(&["run", "www/scenarios/cold-start.json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["time_ms"], 10000, "default: the state at until_ms");
}

#[test]
fn bad_input_exits_2_with_one_line_naming_file_place_and_problem() {
    let cases = [
        ("not-json.json", "{ this is not json", "not valid JSON"),
        (
            "unknown-key.json",
            r#"{"version": 1, "brokers": [1], "brokerz": []}"#,
            "unknown field `brokerz`",
        ),
        (
            "no-such-broker.json",
            r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 1, "do": "crash", "broker": 4}]}"#,
            "actions[0]: there is no broker 4",
        ),
        (
            "out-of-order.json",
            r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 9, "do": "crash", "broker": 1}, {"at_ms": 2, "do": "start", "broker": 1}]}"#,
            "actions[1]: at_ms 2 is before",
        ),
        (
            "impossible.json",
            r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 9, "do": "start", "broker": 1}], "expect": [{"at_ms": 10, "controller": 1}]}"#,
            "actions[0] (at 9 ms): broker 1 is already running",
        ),
        ("empty.json", "", "not valid JSON"),
        ("array.json", "[]", "a scenario is a JSON object"),
    ];
    for (name, text, want) in cases {
        let f = temp_file(name, text);
        for cmd in ["check", "run"] {
            let o = cli(&[cmd, &f]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {name}: {}", stderr(&o));
            let err = stderr(&o);
            assert_eq!(
                err.trim_end().lines().count(),
                1,
                "{cmd} {name}: one line: {err}"
            );
            assert!(err.contains(&f), "{cmd} {name}: names the file: {err}");
            assert!(err.contains(want), "{cmd} {name}: {err}");
            assert!(!err.contains("panicked"), "{err}");
            assert!(stdout(&o).is_empty() || cmd == "check");
        }
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["frobnicate"][..],
        &["run"][..],
        &["run", "x.json", "--at", "soon"][..],
        &["run", "x.json", "--at", "86400001"][..],
        &["run", "x.json", "--frob"][..],
        &["--frob"][..],
        &["check", "/nonexistent/file.json"][..],
        &["lesson"][..],
        &["lesson", "a.json", "b.json"][..],
        &["lesson", "/nonexistent/lesson.json"][..],
        &["help", "frobnicate"][..],
    ] {
        let o = cli(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.starts_with("kafka-election: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}: nothing on stdout");
    }
    assert!(Path::new(env!("CARGO_BIN_EXE_kafka-election")).exists());
}

#[test]
fn a_usage_error_is_the_message_then_the_usage_of_its_command() {
    let o = cli(&["run", "www/scenarios/cold-start.json", "--frob"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "kafka-election: unexpected argument '--frob' found\n\
         usage: kafka-election run [OPTIONS] <SCENARIO> (more: kafka-election help run)\n"
    );
    let o = cli(&["run", "x.json", "--at", "soon"]);
    assert_eq!(
        stderr(&o).lines().next(),
        Some("kafka-election: invalid value 'soon' for '--at <MS>': not a whole number of milliseconds")
    );
    let o = cli(&["frobnicate"]);
    assert_eq!(
        stderr(&o),
        "kafka-election: unrecognized subcommand 'frobnicate'\n\
         usage: kafka-election <COMMAND> (more: kafka-election help)\n"
    );
    let o = cli(&[]);
    assert!(
        stderr(&o).starts_with(
            "kafka-election: no command given: the commands are run, check, lesson and help\n"
        ),
        "{}",
        stderr(&o)
    );
    // A file that cannot be read is bad input: one line.
    let o = cli(&["check", "/nonexistent/file.json"]);
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).starts_with("kafka-election: /nonexistent/file.json: cannot read: "));
}

#[test]
fn version_prints_the_name_and_the_crate_version() {
    for flag in ["--version", "-V"] {
        let o = cli(&[flag]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(
            stdout(&o),
            format!("kafka-election {}\n", env!("CARGO_PKG_VERSION"))
        );
        assert!(stderr(&o).is_empty());
    }
}

#[test]
fn help_lists_the_commands_and_help_command_explains_one() {
    let top = cli(&["help"]);
    assert_eq!(top.status.code(), Some(0));
    for flag in ["--help", "-h"] {
        let o = cli(&[flag]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stdout(&o), stdout(&top), "{flag} is the same help");
    }
    let out = stdout(&top);
    for want in [
        "Usage: kafka-election <COMMAND>",
        "  run     Run a scenario and print its state as JSON lines",
        "  check   Check a scenario's expect checkpoints",
        "  lesson  Check a lesson file",
        "  help    ",
        "-V, --version",
        "A file named - is read from standard input; messages then name it <stdin>.",
        "2 bad input or usage",
        "kafka-election lesson www/lessons/isr-leader-election.json",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    let run = cli(&["help", "run"]);
    assert_eq!(run.status.code(), Some(0));
    let out = stdout(&run);
    for want in [
        "Usage: kafka-election run [OPTIONS] <SCENARIO>",
        "The scenario file (.json), or - for standard input",
        "--at <MS>",
        "at most 86400000, one day",
        "--events",
        "--lines",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    assert_eq!(
        stdout(&cli(&["run", "--help"])),
        out,
        "run --help is help run"
    );
    for cmd in ["check", "lesson"] {
        let o = cli(&["help", cmd]);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains(&format!("Usage: kafka-election {cmd} <")));
        let o = cli(&[cmd, "-h"]);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains(&format!("Usage: kafka-election {cmd} <")));
    }
}

#[test]
fn a_dash_reads_the_scenario_or_lesson_from_standard_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenario = std::fs::read(root.join("www/scenarios/controller-crash.json")).unwrap();
    let o = cli_with_stdin(&["check", "-"], &scenario);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        stdout(&cli(&["check", "www/scenarios/controller-crash.json"])),
        "the same as from the file"
    );
    let o = cli_with_stdin(&["run", "-", "--at", "25000"], &scenario);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["controller_epoch"], 2);
    let lesson = std::fs::read(root.join("docs/examples/lessons/first-lesson.json")).unwrap();
    let o = cli_with_stdin(&["lesson", "-"], &lesson);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        stdout(&cli(&["lesson", "docs/examples/lessons/first-lesson.json"]))
    );
    // Messages name standard input <stdin>; a nameless scenario's summary too.
    let o = cli_with_stdin(&["run", "-"], b"{ not json");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("kafka-election: <stdin>: not valid JSON: "),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).lines().count(), 1);
    let o = cli_with_stdin(
        &["check", "-"],
        br#"{"version": 1, "brokers": [1, 2], "expect": [{"at_ms": 2000, "controller": 1}]}"#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("<stdin>: 1 passed, 0 failed\n"),
        "{}",
        stdout(&o)
    );
    let o = cli_with_stdin(&["lesson", "-"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("kafka-election: <stdin>: not valid JSON"));
}

#[test]
fn lesson_prints_each_question_with_its_answer_and_deciding_event() {
    let o = cli(&["lesson", "docs/examples/lessons/first-lesson.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("first-lesson: A leader crashes: who leads orders-0, and when? (4 steps, 3 questions)\n"), "{out}");
    for want in [
        "steps[0] runs to 1.000s: orders-0 has the replicas [1, 2, 3]. Which broker leads it?",
        "  node question, probe partition.leader of orders-0 at 1.000s",
        "  answer: broker 1",
        "  decided by event 18:",
        "     0.727s  leader_elected                 orders-0: leader 1, leader epoch 0, ISR [1, 2, 3] (new_partition election",
        "  answer: option 0, \"Broker 1, the dead one\" (broker 1)",
        "  decided by event 18 (before the question is asked at 5.000s: it has not changed since):",
        "  number question (± 2 s), probe event_time of {\"kind\":\"leader_elected\",\"partition\":\"orders-0\",\"reason\":\"offline\"} after 5.000s, by 30.000s (in s)",
        "  answer: 16.58 s (accepted: 14.58 to 18.58 s)",
        "    21.580s  leader_elected                 orders-0: leader 2, leader epoch 2, ISR [2, 3] (offline election",
        "first-lesson: 3 questions, all resolve",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    for f in [
        "www/lessons/first-controller.json",
        "www/lessons/isr-leader-election.json",
    ] {
        let o = cli(&["lesson", f]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", stderr(&o));
        assert!(stdout(&o).contains("all resolve"));
    }
}

#[test]
fn a_bad_or_undecidable_lesson_exits_2_with_one_line_naming_file_and_place() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/lessons/first-lesson.json"),
    )
    .unwrap();
    let cases = [
        ("lesson-not-json.json", "{".to_string(), "not valid JSON"),
        (
            "lesson-no-partition.json",
            text.replacen("\"partition\": \"orders-0\"", "\"partition\": \"orders-7\"", 1),
            "steps[0].question.probe.partition: there is no partition \"orders-7\" in the scenario",
        ),
        (
            "lesson-bad-scenario.json",
            text.replace("\"crash\", \"broker\": 1", "\"crash\", \"broker\": 9"),
            "scenario.actions[1]: there is no broker 9",
        ),
        (
            "lesson-not-an-option.json",
            text.replace(
                "{\"label\": {\"en\": \"Broker 1, the dead one\", \"zh-CN\": \"broker 1，已经崩溃的那个\"}, \"value\": 1},",
                "",
            ),
            "steps[2].question.options: the run gives broker 1 at 15000 ms, which is none of the options (broker 2, broker 3)",
        ),
        (
            "lesson-wide-tolerance.json",
            text.replace("\"tolerance\": 2", "\"tolerance\": 20"),
            "steps[3].question.tolerance: the run gives 16.58 s; a tolerance of 20 would also accept 0 s: give less than 16.58",
        ),
    ];
    for (name, text, want) in cases {
        let f = temp_file(name, &text);
        let o = cli(&["lesson", &f]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: one line: {err}");
        assert!(
            err.starts_with(&format!("kafka-election: {f}: ")),
            "{name}: names the file: {err}"
        );
        assert!(err.contains(want), "{name}: {err}");
        assert!(
            stdout(&o).is_empty(),
            "{name}: nothing printed before the problem"
        );
    }
}

#[test]
fn run_prints_partitions_and_lost_records() {
    let o = cli(&[
        "run",
        "www/scenarios/unclean-enabled-while-offline.json",
        "--at",
        "79000",
        "--at",
        "90000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["partitions"]["orders-0"]["leader"], -1);
    assert_eq!(
        lines[0]["partitions"]["orders-0"]["isr"],
        serde_json::json!([2])
    );
    assert_eq!(lines[0]["lost_records"]["orders-0"], 0);
    assert_eq!(lines[1]["partitions"]["orders-0"]["leader"], 3);
    assert!(lines[1]["lost_records"]["orders-0"].as_u64().unwrap() > 0);
    assert!(lines[1]["partitions"]["orders-0"]["log_end_offsets"]["3"].is_u64());
}

#[test]
fn a_partition_action_on_a_missing_topic_exits_2() {
    let f = temp_file(
        "no-topic.json",
        r#"{"version": 1, "brokers": [1], "actions": [{"at_ms": 5, "do": "produce", "topic": "T", "partition": 0, "records": 1}]}"#,
    );
    let o = cli(&["run", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("actions[0]: there is no topic \"T\""),
        "{}",
        stderr(&o)
    );
}

/// The lesson docs' worked example ("were records lost?") prints what the docs show, and every
/// committed lesson's report names its id as the file does, in lowercase.
#[test]
fn the_lesson_docs_worked_example_prints_what_the_docs_show() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lesson-format.md"),
    )
    .unwrap();
    let command = "$ cargo run --release --bin kafka-election -- lesson docs/examples/lessons/records-lost.json\n";
    let start = doc.find(command).expect("the docs show the command") + command.len();
    let shown = &doc[start..start + doc[start..].find("\n```").expect("the block ends")];
    let o = cli(&["lesson", "docs/examples/lessons/records-lost.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim_end(), shown);
    for entry in std::fs::read_dir("www/lessons").unwrap() {
        let path = entry.unwrap().path();
        let id = path.file_stem().unwrap().to_string_lossy().into_owned();
        if id == "index" {
            continue;
        }
        let o = cli(&["lesson", path.to_str().unwrap()]);
        let first = stdout(&o).lines().next().unwrap_or_default().to_string();
        assert!(first.starts_with(&format!("{id}: ")), "{first}");
    }
}
