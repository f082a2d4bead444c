//! `kafka-election`: runs and checks scenario files natively.
//!
//! - `kafka-election run SCENARIO.json [--at MS]... [--events] [--lines]`
//! - `kafka-election check SCENARIO.json`
//! - `kafka-election lesson LESSON.json`
//!
//! Exit codes: 0 success, 1 a checkpoint failed, 2 bad input or usage (for `lesson`, also a
//! question the run cannot decide).

use kafka_election_playground::lesson;
use kafka_election_playground::scenario::{self, Runner, Scenario};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "\
usage: kafka-election run SCENARIO.json [--at MS]... [--events] [--lines]
       kafka-election check SCENARIO.json
       kafka-election lesson LESSON.json

  run     print the state at each --at time (default: the scenario's until_ms) as JSON lines;
          --events also prints every event (one JSON object a line) before each state;
          --lines prints events as readable lines instead of JSON
  check   run the scenario's expect checkpoints; print PASS or FAIL for each with what
          differed; exit 1 if any failed
  lesson  check a lesson file: run its scenario and print, for each question, the step, the
          question, the answer the run gives and the event that decided it; a question the
          run cannot decide is bad input

Bad input exits 2 with one line naming the file, the place and the problem.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("kafka-election: {msg}");
            ExitCode::from(2)
        }
    }
}

fn load(path: &str) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    scenario::parse(&text).map_err(|e| format!("{path}: {e}"))
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let Some(cmd) = args.first() else {
        return Err(format!("no command given\n{USAGE}"));
    };
    match cmd.as_str() {
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        "run" => cmd_run(&args[1..]),
        "check" => cmd_check(&args[1..]),
        "lesson" => cmd_lesson(&args[1..]),
        other => Err(format!("unknown command \"{other}\"\n{USAGE}")),
    }
}

fn cmd_run(args: &[String]) -> Result<ExitCode, String> {
    let mut path = None;
    let mut ats = Vec::new();
    let mut events = false;
    let mut lines = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--at" => {
                let v = it.next().ok_or("--at needs a time in milliseconds")?;
                let ms = v
                    .parse::<u64>()
                    .map_err(|_| format!("--at {v}: not a whole number of milliseconds"))?;
                ats.push(scenario::check_time("--at", ms)?);
            }
            "--events" => events = true,
            "--lines" => {
                events = true;
                lines = true
            }
            flag if flag.starts_with('-') => {
                return Err(format!("unknown option \"{flag}\"\n{USAGE}"))
            }
            p if path.is_none() => path = Some(p.to_string()),
            extra => return Err(format!("unexpected argument \"{extra}\"\n{USAGE}")),
        }
    }
    let path = path.ok_or(format!("run needs a scenario file\n{USAGE}"))?;
    let scenario = load(&path)?;
    if ats.is_empty() {
        ats.push(scenario.until_ms);
    }
    if ats.windows(2).any(|w| w[1] < w[0]) {
        return Err("--at times must be in increasing order".into());
    }
    let mut runner = Runner::new(&scenario);
    let mut printed = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for at in ats {
        runner.advance_to(at).map_err(|e| format!("{path}: {e}"))?;
        if events {
            for e in runner.world.events().since(printed) {
                let line = if lines {
                    e.line()
                } else {
                    serde_json::to_string(e).expect("events serialize")
                };
                writeln!(out, "{line}").map_err(|e| e.to_string())?;
            }
            printed = runner.world.events().len();
        }
        let state = serde_json::to_string(&runner.world.state()).expect("state serializes");
        writeln!(out, "{state}").map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn cmd_check(args: &[String]) -> Result<ExitCode, String> {
    let [path] = args else {
        return Err(format!("check needs exactly one scenario file\n{USAGE}"));
    };
    let scenario = load(path)?;
    if scenario.checkpoints.is_empty() {
        return Err(format!(
            "{path}: the scenario has no \"expect\" checkpoints to check"
        ));
    }
    let results = scenario.check().map_err(|e| format!("{path}: {e}"))?;
    let mut failed = 0;
    for r in &results {
        if r.differences.is_empty() {
            println!("PASS at {} ms", r.at_ms);
        } else {
            failed += 1;
            println!("FAIL at {} ms: {}", r.at_ms, r.differences.join("; "));
        }
    }
    let name = scenario.file.name.as_deref().unwrap_or(path);
    println!("{name}: {} passed, {failed} failed", results.len() - failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn cmd_lesson(args: &[String]) -> Result<ExitCode, String> {
    let [path] = args else {
        return Err(format!("lesson needs exactly one lesson file\n{USAGE}"));
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    let (lesson, resolution) = lesson::load(&text).map_err(|e| format!("{path}: {e}"))?;
    print!("{}", lesson::report(&lesson, &resolution));
    Ok(ExitCode::SUCCESS)
}
