//! Every cause of every story's run, rendered in both languages from the same value: the
//! English render is the sentence the command line and the golden traces print, and the
//! Chinese one (from `www/i18n/zh-CN.json`) has every placeholder filled and is Chinese.
//! `cargo test --test cause_languages -- --nocapture` prints how many causes were rendered.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::i18n::{Catalogue, Lang, Tr};
use kafka_election_playground::scenario::{self, Runner};
use std::collections::BTreeSet;
use std::path::Path;
use std::rc::Rc;

fn chinese() -> Tr {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("www/i18n/zh-CN.json")).unwrap();
    let catalogue = Catalogue::parse(&text).expect("zh-CN.json reads");
    Tr::new(Lang::ZhCn, Some(Rc::new(catalogue)))
}

fn stories() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// What is wrong with a cause's Chinese `text` (its English is `english`), if anything: a
/// placeholder left unfilled, no Chinese at all, or the English itself (a key the catalogue
/// lacks falls back to English).
fn fault(text: &str, english: &str) -> Option<&'static str> {
    if text.contains('{') {
        Some("a placeholder is unfilled")
    } else if text == english {
        Some("it is the English")
    } else if !text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
        Some("it has no Chinese")
    } else {
        None
    }
}

/// Every event of a story's run.
fn run(file: &Path) -> Vec<kafka_election_playground::Event> {
    let s = scenario::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let mut r = Runner::new(&s);
    r.advance_to(s.until_ms).unwrap();
    r.world.events().iter().cloned().collect()
}

#[test]
fn every_cause_of_every_story_renders_in_english_and_chinese() {
    let zh = chinese();
    assert_eq!(zh.lang(), Lang::ZhCn);
    let en = Tr::en();
    let files = stories();
    assert!(files.len() >= 20, "the stories are found: {files:?}");
    let mut sentences = BTreeSet::new();
    let mut problems = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for e in run(file) {
            let english = e.cause.english();
            assert_eq!(e.cause.render(&en), english, "{name}: {:?}", e.cause);
            assert!(e.line().contains(&english), "{name}: {}", e.line());
            let text = e.cause.render(&zh);
            if let Some(f) = fault(&text, &english) {
                problems.push(format!("{name} at {} ms: {f}: {text}", e.time_ms));
            }
            sentences.insert(english);
        }
    }
    println!(
        "{} stories, {} distinct causes rendered in both languages",
        files.len(),
        sentences.len()
    );
    assert!(sentences.len() > 50, "only {} causes", sentences.len());
    assert!(
        problems.is_empty(),
        "causes not fully in Chinese:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_broken_catalogue_is_caught() {
    // One text names a figure the cause does not give; the other causes' keys are missing.
    let catalogue = Catalogue::parse(
        r#"{"CAUSE_ZK_SESSION_TIMED_OUT": "{timeout} ms 内没有心跳", "CAUSE_WORLD_CRASH_ACTION": "crash"}"#,
    )
    .unwrap();
    let zh = Tr::new(Lang::ZhCn, Some(Rc::new(catalogue)));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut faults = BTreeSet::new();
    for e in run(&root.join("www/scenarios/controller-crash.json")) {
        if let Some(f) = fault(&e.cause.render(&zh), &e.cause.english()) {
            faults.insert(f);
        }
    }
    assert_eq!(
        faults.into_iter().collect::<Vec<_>>(),
        [
            "a placeholder is unfilled",
            "it has no Chinese",
            "it is the English"
        ]
    );
}
