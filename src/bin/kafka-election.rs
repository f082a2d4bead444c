//! `kafka-election`: runs and checks scenario files natively.
//!
//! - `kafka-election run SCENARIO.json [--at MS]... [--events] [--lines]`
//! - `kafka-election check SCENARIO.json`
//! - `kafka-election lesson LESSON.json`
//! - `kafka-election help [COMMAND]`, `-h`/`--help` after any command, `--version`
//!
//! A file named `-` is read from standard input, and messages name it `<stdin>`.
//!
//! Exit codes: 0 success, 1 a checkpoint failed, 2 bad input or usage (for `lesson`, also a
//! question the run cannot decide). Bad input is one line on stderr,
//! `kafka-election: FILE: PLACE: PROBLEM`; a usage error is that line's kind of message with the
//! command's usage on a second line.
//!
//! The arguments are parsed with clap, which the page's bundle does not carry: on wasm32 this
//! binary only says where the command line runs.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    // Built for wasm32 only by `cargo clippy --target wasm32-unknown-unknown --bins`: the
    // browser's entry point is src/main.rs.
    eprintln!("kafka-election is the native command line; build it for the host (see README.md).");
    std::process::exit(2);
}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use clap::error::ErrorKind;
    use clap::{CommandFactory, Parser, Subcommand};
    use kafka_election_playground::lesson;
    use kafka_election_playground::scenario::{self, Runner, Scenario};
    use std::io::{Read, Write};
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;

    /// How a file read from standard input (`-`) is named in messages.
    const STDIN_NAME: &str = "<stdin>";

    /// What every command's help ends with.
    const COMMON_HELP: &str = "\
A file named - is read from standard input; messages then name it <stdin>.

Exit codes: 0 success; 1 a checkpoint failed (check); 2 bad input or usage. Bad input is one
line on stderr naming the file, the place and the problem (kafka-election: FILE: PLACE: PROBLEM),
and nothing runs.";

    /// What the program's help ends with.
    const AFTER_HELP: &str = "\
A file named - is read from standard input; messages then name it <stdin>.

Exit codes: 0 success; 1 a checkpoint failed (check); 2 bad input or usage. Bad input is one
line on stderr naming the file, the place and the problem (kafka-election: FILE: PLACE: PROBLEM),
and nothing runs.

Examples:
  kafka-election run www/scenarios/controller-crash.json --at 17000 --at 25000
  kafka-election check www/scenarios/paused-controller.json
  kafka-election lesson www/lessons/isr-leader-election.json
  kafka-election run - --lines < scenario.json";

    /// Runs and checks the scenario and lesson files of the Kafka Election Playground,
    /// a deterministic simulation of Kafka's leader elections (ZooKeeper mode).
    #[derive(Parser, Debug)]
    #[command(name = "kafka-election", version, after_help = AFTER_HELP)]
    #[command(subcommand_required = true, verbatim_doc_comment)]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand, Debug)]
    enum Command {
        /// Run a scenario and print its state as JSON lines
        ///
        /// Prints the state at each --at time (default: the scenario's until_ms), one JSON
        /// object a line. An action that cannot apply when its time comes stops the run
        /// there (exit 2), after the states of the earlier --at times.
        #[command(verbatim_doc_comment, after_help = COMMON_HELP)]
        Run {
            /// The scenario file (.json), or - for standard input
            #[arg(value_name = "SCENARIO")]
            file: PathBuf,
            /// Print the state at this virtual time in milliseconds
            /// (repeatable, in increasing order; at most 86400000, one day)
            #[arg(long, value_name = "MS", value_parser = parse_at, verbatim_doc_comment)]
            at: Vec<u64>,
            /// Before each state, print every event since the previous one
            /// (one JSON object a line)
            #[arg(long, verbatim_doc_comment)]
            events: bool,
            /// Print the events as readable lines instead of JSON (implies --events)
            #[arg(long)]
            lines: bool,
        },
        /// Check a scenario's expect checkpoints
        ///
        /// Runs the scenario's "expect" checkpoints and prints PASS or FAIL for each, with
        /// what differed, then NAME: P passed, F failed. Exits 1 if any failed.
        #[command(verbatim_doc_comment, after_help = COMMON_HELP)]
        Check {
            /// The scenario file (.json), or - for standard input
            #[arg(value_name = "SCENARIO")]
            file: PathBuf,
        },
        /// Check a lesson file: the answer the run gives to each question
        ///
        /// Runs the lesson's scenario and prints, for each question, the step, the question,
        /// the answer the run gives and the event that decided it. A question the run cannot
        /// decide is bad input (exit 2).
        #[command(verbatim_doc_comment, after_help = COMMON_HELP)]
        Lesson {
            /// The lesson file (.json), or - for standard input
            #[arg(value_name = "LESSON")]
            file: PathBuf,
        },
    }

    /// Reads `--at`: a whole number of milliseconds within the longest run.
    fn parse_at(v: &str) -> Result<u64, String> {
        let ms = v
            .parse::<u64>()
            .map_err(|_| "not a whole number of milliseconds".to_string())?;
        scenario::check_time("--at", ms)
    }

    pub fn main() -> ExitCode {
        let cli = match Cli::try_parse() {
            Ok(cli) => cli,
            Err(e) => return usage_error(&e),
        };
        let result = match cli.command {
            Command::Run {
                file,
                at,
                events,
                lines,
            } => cmd_run(&file, at, events || lines, lines),
            Command::Check { file } => cmd_check(&file),
            Command::Lesson { file } => cmd_lesson(&file),
        };
        match result {
            Ok(code) => code,
            Err(msg) => {
                eprintln!("kafka-election: {msg}");
                ExitCode::from(2)
            }
        }
    }

    /// Help and the version go to stdout (exit 0); any other error of the arguments is two
    /// lines on stderr, clap's message and the usage of the command it is about, and exit 2.
    fn usage_error(e: &clap::Error) -> ExitCode {
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        let args: Vec<String> = std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        eprintln!("kafka-election: {}", message(e));
        eprintln!("{}", usage(&args));
        ExitCode::from(2)
    }

    /// clap's message: the first line of its rendered error, without `error: `.
    fn message(e: &clap::Error) -> String {
        match e.kind() {
            ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                "no command given: the commands are run, check, lesson and help".to_string()
            }
            _ => {
                let rendered = e.render().to_string();
                let first = rendered.lines().next().unwrap_or_default();
                first.strip_prefix("error: ").unwrap_or(first).to_string()
            }
        }
    }

    /// The usage of the command `args` name (the first argument that is not an option), else
    /// the program's, with where to read more.
    fn usage(args: &[String]) -> String {
        let mut cli = Cli::command();
        cli.build();
        let named = args
            .iter()
            .find(|a| !a.starts_with('-'))
            .and_then(|a| cli.find_subcommand(a).cloned());
        let (line, help) = match named {
            Some(mut cmd) => {
                let help = format!("kafka-election help {}", cmd.get_name());
                (cmd.render_usage().to_string(), help)
            }
            None => (
                cli.render_usage().to_string(),
                "kafka-election help".to_string(),
            ),
        };
        let line = line.strip_prefix("Usage: ").unwrap_or(&line);
        format!("usage: {line} (more: {help})")
    }

    /// The name messages give a file: its path, or [`STDIN_NAME`] for `-`.
    fn name_of(path: &Path) -> String {
        if path.as_os_str() == "-" {
            STDIN_NAME.to_string()
        } else {
            // A newline in a file's name would break the one line.
            scenario::one_line(&path.display().to_string()).into_owned()
        }
    }

    /// Reads a file's text, or standard input's for `-`.
    fn read(path: &Path) -> Result<String, String> {
        let mut text = String::new();
        let read = if path.as_os_str() == "-" {
            std::io::stdin().lock().read_to_string(&mut text)
        } else {
            std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text))
        };
        match read {
            Ok(_) => Ok(text),
            Err(e) => Err(format!("{}: cannot read: {e}", name_of(path))),
        }
    }

    fn load(path: &Path) -> Result<Scenario, String> {
        let text = read(path)?;
        scenario::parse(&text).map_err(|e| format!("{}: {e}", name_of(path)))
    }

    fn cmd_run(
        path: &Path,
        mut ats: Vec<u64>,
        events: bool,
        lines: bool,
    ) -> Result<ExitCode, String> {
        if ats.windows(2).any(|w| w[1] < w[0]) {
            return Err("--at times must be in increasing order".into());
        }
        let scenario = load(path)?;
        let name = name_of(path);
        match ats.last() {
            None => ats.push(scenario.until_ms),
            // The reader checked the work up to until_ms; a later --at runs longer.
            Some(&last) if last > scenario.until_ms => {
                scenario::budget::check(&scenario.setup, &scenario.actions, last, "an earlier --at")
                    .map_err(|e| format!("{name}: --at {last}: {e}"))?
            }
            Some(_) => {}
        }
        let mut runner = Runner::new(&scenario);
        let mut printed = 0;
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        for at in ats {
            runner.advance_to(at).map_err(|e| format!("{name}: {e}"))?;
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

    fn cmd_check(path: &Path) -> Result<ExitCode, String> {
        let scenario = load(path)?;
        let name = name_of(path);
        if scenario.checkpoints.is_empty() {
            return Err(format!(
                "{name}: the scenario has no \"expect\" checkpoints to check"
            ));
        }
        let results = scenario.check().map_err(|e| format!("{name}: {e}"))?;
        let mut failed = 0;
        for r in &results {
            if r.differences.is_empty() {
                println!("PASS at {} ms", r.at_ms);
            } else {
                failed += 1;
                println!("FAIL at {} ms: {}", r.at_ms, r.differences.join("; "));
            }
        }
        let title = scenario.file.name.as_deref().unwrap_or(&name);
        println!(
            "{title}: {} passed, {failed} failed",
            results.len() - failed
        );
        Ok(if failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    }

    fn cmd_lesson(path: &Path) -> Result<ExitCode, String> {
        let text = read(path)?;
        let (lesson, resolution) =
            lesson::load(&text).map_err(|e| format!("{}: {e}", name_of(path)))?;
        print!("{}", lesson::report(&lesson, &resolution));
        Ok(ExitCode::SUCCESS)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn the_arguments_are_consistent() {
            Cli::command().debug_assert();
        }

        #[test]
        fn a_usage_error_gives_the_message_and_the_usage_of_its_command() {
            let e = Cli::try_parse_from(["kafka-election", "run", "x.json", "--frob"]).unwrap_err();
            assert_eq!(message(&e), "unexpected argument '--frob' found");
            let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            assert_eq!(
                usage(&args(&["run", "x.json", "--frob"])),
                "usage: kafka-election run [OPTIONS] <SCENARIO> (more: kafka-election help run)"
            );
            let e = Cli::try_parse_from(["kafka-election"]).unwrap_err();
            assert!(
                message(&e).starts_with("no command given"),
                "{}",
                message(&e)
            );
            assert_eq!(
                usage(&args(&["--frob", "frob"])),
                "usage: kafka-election <COMMAND> (more: kafka-election help)"
            );
        }

        #[test]
        fn at_takes_whole_milliseconds_within_a_day() {
            assert_eq!(parse_at("25000"), Ok(25_000));
            assert_eq!(
                parse_at("soon"),
                Err("not a whole number of milliseconds".to_string())
            );
            assert!(parse_at("86400001").unwrap_err().contains("one day"));
        }
    }
}
