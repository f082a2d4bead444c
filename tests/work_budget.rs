//! The work budget (src/scenario/budget.rs) against the committed files: every story, checked
//! scenario, example and lesson fits well within it, so the budget refuses only runs far
//! bigger than anything the project shows.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::lesson;
use kafka_election_playground::scenario::{self, budget};
use std::path::Path;

fn json_files(dir: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_committed_scenario_and_lesson_fits_within_a_five_hundredth_of_the_budget() {
    let mut rows = Vec::new();
    for dir in ["www/scenarios", "tests/scenarios", "docs/examples"] {
        for f in json_files(dir) {
            let text = std::fs::read_to_string(&f).unwrap();
            let sc = scenario::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let w = budget::estimate(&sc.setup, &sc.actions, sc.until_ms);
            rows.push((w.total(), f.display().to_string()));
        }
    }
    for dir in ["www/lessons", "docs/examples/lessons"] {
        for f in json_files(dir) {
            let text = std::fs::read_to_string(&f).unwrap();
            let Ok(l) = lesson::parse(&text) else {
                // www/lessons/index.json is the list, not a lesson.
                assert!(f.ends_with("index.json"), "{}", f.display());
                continue;
            };
            let end = l
                .steps
                .last()
                .map_or(0, |s| s.at_ms)
                .max(l.scenario.until_ms);
            let w = budget::estimate(&l.scenario.setup, &l.scenario.actions, end);
            rows.push((w.total(), f.display().to_string()));
        }
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (w, f) in rows.iter().take(5) {
        println!("{:>10.0}  {f}", w);
    }
    assert!(rows.len() > 60, "{} files", rows.len());
    let (most, file) = &rows[0];
    assert!(
        *most <= budget::MAX_WORK / 500.0,
        "{file}: {most} is more than a five-hundredth of the budget ({})",
        budget::MAX_WORK
    );
}
