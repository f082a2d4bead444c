//! Every committed scenario file with `expect` checkpoints must pass: the ones under
//! tests/scenarios, the stories under www/scenarios and the examples under docs/examples.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::scenario;
use std::path::{Path, PathBuf};

fn scenario_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/scenarios", "www/scenarios", "docs/examples"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_committed_scenario_passes_its_checkpoints() {
    let files = scenario_files();
    assert!(
        files.len() >= 6,
        "the committed scenarios are found: {files:?}"
    );
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let s = scenario::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let results = s.check().unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for r in results {
            if !r.differences.is_empty() {
                failures.push(format!(
                    "{} at {} ms: {}",
                    f.display(),
                    r.at_ms,
                    r.differences.join("; ")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "failed checkpoints:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_issue_stories_are_all_committed() {
    let names: Vec<String> = scenario_files()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for story in [
        "cold-start",
        "controller-crash",
        "clean-shutdown",
        "paused-controller",
        "controller-crash-2.4",
        "controller-cut-from-zookeeper",
    ] {
        assert!(names.iter().any(|n| n == story), "missing scenario {story}");
    }
}

#[test]
fn a_checkpoint_that_does_not_hold_fails_with_what_differed() {
    let s = scenario::parse(
        r#"{"version": 1, "seed": 42, "brokers": [1, 2, 3],
            "actions": [{"at_ms": 1000, "do": "crash", "broker": 1}],
            "expect": [{"at_ms": 10000, "controller": [2, 3], "controller_epoch": 2,
                        "events": [{"kind": "controller_elected", "epoch": 2}]}]}"#,
    )
    .unwrap();
    let r = s.check().unwrap();
    let d = r[0].differences.join("; ");
    assert!(
        d.contains("controller: expected one of [2,3], got 1"),
        "{d}"
    );
    assert!(d.contains("controller_epoch: expected 2, got 1"), "{d}");
    assert!(d.contains("events: expected an event matching"), "{d}");
}

#[test]
fn mangled_scenario_files_get_a_message_never_a_panic() {
    use kafka_election_playground::Rng;
    let originals: Vec<String> = scenario_files()
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let pieces = [
        "",
        "0",
        "-1",
        "null",
        "\"x\"",
        "[]",
        "{}",
        "1e99",
        "18446744073709551616",
        "\"zk\"",
        "true",
        ",",
        "\"do\": \"crash\"",
    ];
    let mut rng = Rng::new(2024);
    let mut parsed = 0;
    for i in 0..3_000 {
        let mut text = originals[i % originals.len()].clone().into_bytes();
        for _ in 0..1 + rng.up_to(3) {
            let at = rng.up_to(text.len() as u64 - 1) as usize;
            let len = (rng.up_to(6) as usize).min(text.len() - at);
            let piece = pieces[rng.up_to(pieces.len() as u64 - 1) as usize].as_bytes();
            text.splice(at..at + len, piece.iter().copied());
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        match scenario::parse(&text) {
            Err(e) => assert!(!e.to_string().is_empty()),
            Ok(s) => {
                parsed += 1;
                if s.until_ms <= 200_000 {
                    // Checking may fail or stop at an action that cannot apply; it must not panic.
                    let _ = s.check();
                }
            }
        }
    }
    assert!(parsed > 0, "some mangled files still parse and run");
}

#[test]
fn every_story_file_is_on_the_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let stories = std::fs::read_to_string(root.join("src/ui/stories.rs")).unwrap();
    for f in scenario_files() {
        if f.parent().is_some_and(|d| d.ends_with("www/scenarios")) {
            let name = f.file_stem().unwrap().to_string_lossy().to_string();
            assert!(
                stories.contains(&format!("\"{name}\"")),
                "www/scenarios/{name}.json is missing from the page's STORIES list"
            );
        }
    }
    // And the other way: the page fetches `scenarios/<name>.json` for each name it lists.
    let (_, list) = stories
        .split_once("pub const STORIES: [&str; ")
        .expect("src/ui/stories.rs has its STORIES");
    let list = list.split_once("];").expect("STORIES ends").0;
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"')?.strip_suffix("\","))
        .collect();
    assert!(names.len() >= 20, "{names:?}");
    for name in names {
        assert!(
            root.join(format!("www/scenarios/{name}.json")).is_file(),
            "the page lists the story {name}, but www/scenarios/{name}.json is not there"
        );
    }
}

/// The page lists the stories by the titles build.rs read from their files: each is the title
/// the file's parse gives.
#[test]
fn the_story_titles_the_page_lists_are_the_files_titles() {
    let mut seen = 0;
    for f in scenario_files() {
        if f.parent().is_some_and(|d| d.ends_with("www/scenarios")) {
            let name = f.file_stem().unwrap().to_string_lossy().to_string();
            let parsed = scenario::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
            let title = parsed.file.title.expect("every story has a title");
            assert_eq!(
                kafka_election_playground::view::stories::file_title(&name),
                Some(title.as_str()),
                "www/scenarios/{name}.json"
            );
            seen += 1;
        }
    }
    assert_eq!(
        seen,
        kafka_election_playground::view::stories::FILE_TITLES.len()
    );
}

/// The leader after the first leader leaves is a hash-map pick, not the next in join order:
/// over a dozen seeds (member ids are client id + a seeded UUID) both c2 and c3 come up.
#[test]
fn the_next_group_leader_depends_on_the_member_ids_not_the_join_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(root.join("www/scenarios/group-leader-leaves.json")).unwrap();
    let mut next = std::collections::BTreeSet::new();
    for seed in 1..=12 {
        let mut file: serde_json::Value = serde_json::from_str(&text).unwrap();
        file["seed"] = serde_json::json!(seed);
        file["expect"] = serde_json::json!([]);
        let s = scenario::parse(&file.to_string()).unwrap();
        let mut r = scenario::Runner::new(&s);
        r.advance_to(s.until_ms).unwrap();
        let g = &r.world.state().groups["my-group"];
        assert_eq!(g.generation, 2, "seed {seed}");
        assert_ne!(g.leader.as_deref(), Some("c1"), "seed {seed}");
        next.insert(g.leader.clone().unwrap());
    }
    assert_eq!(
        next.into_iter().collect::<Vec<_>>(),
        vec!["c2".to_string(), "c3".to_string()]
    );
}
