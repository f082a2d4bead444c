//! A share link records the model's version (`session::MODEL_VERSION`), and a link made by
//! another version opens with a note that its run may differ. That note is only true if the
//! version changes whenever the model's behaviour does: this test ties the version to the
//! golden traces, and fails when they change and the version did not.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::session::MODEL_VERSION;
use std::path::Path;

/// The model version and the digest of the golden traces it produces.
const RECORDED: (u32, u64) = (4, 0xfb9d7a729b8b02b0);

/// FNV-1a over every golden trace file (the files directly in `tests/golden`; the lessons'
/// reports in its subfolder are not traces), in name order, names included.
fn golden_digest() -> u64 {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/golden exists")
        .map(|e| e.expect("a directory entry"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name())
        .collect();
    names.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for name in names {
        let bytes = std::fs::read(dir.join(&name)).expect("a golden file reads");
        let name = name.to_string_lossy().into_owned();
        // Line endings as committed, whatever the checkout did to them.
        let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
        for b in name.bytes().chain([0]).chain(text.bytes()).chain([0]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[test]
fn the_model_version_changes_with_the_golden_traces() {
    let digest = golden_digest();
    assert_eq!(
        (MODEL_VERSION, digest),
        RECORDED,
        "the golden traces or the model version changed: when the model's behaviour changes, raise MODEL_VERSION in src/session/mod.rs by one and set RECORDED in this file to ({}, {digest:#x})",
        MODEL_VERSION + (digest != RECORDED.1) as u32
    );
}
