//! The inputs the fuzzers (fuzz/) found hardest, replayed on every `cargo test`: each file of
//! `tests/fuzz-regressions/<target>/` is fed to its reader exactly as the fuzzer fed it
//! (tests/fuzz_inputs), and must be accepted or refused, never panic. A file whose name starts
//! with `ok-` must be accepted, one starting with `err-` refused: so a harness that stopped
//! reading its files, or a reader that stopped refusing, fails here.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

mod fuzz_inputs;

use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no input", dir.display());
    files
}

fn replay(target: &str, read: fn(&[u8]) -> bool) {
    let mut failures = Vec::new();
    for path in inputs(target) {
        let data = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match std::panic::catch_unwind(|| read(&data)) {
            Err(_) => failures.push(format!("{name}: panicked")),
            Ok(accepted) => {
                if name.starts_with("ok-") && !accepted {
                    failures.push(format!("{name}: refused, expected accepted"));
                }
                if name.starts_with("err-") && accepted {
                    failures.push(format!("{name}: accepted, expected refused"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{target}:\n{}", failures.join("\n"));
}

#[test]
fn scenario_inputs_are_read_without_panic() {
    replay("scenario", fuzz_inputs::scenario);
}

#[test]
fn lesson_inputs_are_read_without_panic() {
    replay("lesson", fuzz_inputs::lesson);
}

#[test]
fn link_inputs_are_read_without_panic() {
    replay("link", fuzz_inputs::link);
}
