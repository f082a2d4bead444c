//! Every committed lesson (www/lessons, and the worked example of docs/lesson-format.md) loads,
//! every question resolves to exactly one answer, and every text a learner reads has English
//! and Simplified Chinese, the Chinese in the glossary's words (www/i18n/glossary.json). The
//! index (www/lessons/index.json) lists every lesson once, in teaching order. The event patterns lessons use are checked against the events the
//! stories really emit. The report of each lesson (its answers and deciding events) is compared
//! with the golden one under tests/golden/lessons, which the wasm build compares too
//! (tests/wasm_determinism.rs); after a deliberate change of the model, rewrite them with
//! `UPDATE_GOLDEN=1 cargo test --test lessons` and review the diff.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::lesson::{
    self, event_fields, Lang, Lesson, Measured, QuestionKind, Text,
};
use kafka_election_playground::scenario::{self, Runner};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn json_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// The Chinese words the glossary (www/i18n/glossary.json) forbids for Kafka's terms
/// (`领导者` for 首领, `重平衡` for 再均衡...).
fn forbidden_words() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("www/i18n/glossary.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let words: Vec<String> = v["terms"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["forbidden"].as_array().unwrap())
        .map(|w| w.as_str().unwrap().to_string())
        .collect();
    assert!(words.iter().any(|w| w == "领导者"), "the glossary is read");
    words
}

/// The committed lessons: every file of www/lessons but the index.
fn lesson_files() -> Vec<PathBuf> {
    json_files("www/lessons")
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "index.json"))
        .collect()
}

fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Every text of a lesson with its place; `prose` marks the texts that must be written in
/// Chinese (an option's label may be a list of brokers, the same in both languages).
fn texts(l: &Lesson) -> Vec<(String, &Text, bool)> {
    let mut all = vec![
        ("title".to_string(), &l.title, true),
        ("summary".to_string(), &l.summary, true),
    ];
    for (i, s) in l.steps.iter().enumerate() {
        all.push((format!("steps[{i}].text"), &s.text, true));
        if let Some(q) = &s.question {
            all.push((format!("steps[{i}].question.prompt"), &q.prompt, true));
            if let QuestionKind::Choice { options } = &q.kind {
                for (j, o) in options.iter().enumerate() {
                    all.push((
                        format!("steps[{i}].question.options[{j}].label"),
                        &o.label,
                        false,
                    ));
                }
            }
        }
    }
    all
}

#[test]
fn every_committed_lesson_resolves_and_speaks_both_languages() {
    let files = lesson_files();
    assert!(
        files.len() >= 13,
        "the committed lessons are found: {files:?}"
    );
    let forbidden = forbidden_words();
    for f in &files {
        let name = f.display();
        let text = std::fs::read_to_string(f).unwrap();
        let (l, r) = lesson::load(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            Some(l.id.as_str()),
            f.file_stem().and_then(|s| s.to_str()),
            "{name}: the id is the file's name"
        );
        let questions = l.steps.iter().filter(|s| s.question.is_some()).count();
        assert!(questions >= 3, "{name}: a lesson asks questions");
        assert_eq!(
            r.answers.len(),
            questions,
            "{name}: every question resolves"
        );
        for a in &r.answers {
            let q = l.steps[a.step].question.as_ref().unwrap();
            if let QuestionKind::Choice { options } = &q.kind {
                let right: Vec<usize> = (0..options.len())
                    .filter(|&i| options[i].value == a.value)
                    .collect();
                assert_eq!(
                    right,
                    vec![a.option.unwrap()],
                    "{name}: steps[{}]: exactly one right option",
                    a.step
                );
            }
            if let QuestionKind::Number { .. } = &q.kind {
                let number = matches!(a.value, Measured::Number(n) if n.is_finite());
                assert!(
                    number || (a.value == Measured::Never && q.accepts_never()),
                    "{name}: steps[{}]: a number question's answer is one number",
                    a.step
                );
            }
            // An event decides each answer, except that nothing happened, which the
            // checkpoint decides.
            let nothing = matches!(a.value, Measured::Never | Measured::YesNo(false))
                && q.probe.measure.is_event_probe();
            assert!(
                a.decider.is_some() || nothing,
                "{name}: steps[{}]: an event decides each answer",
                a.step
            );
            assert!(
                a.decided_at_ms() > l.asked_at_ms(a.step) || !q.probe.measure.is_event_probe(),
                "{name}: steps[{}]: the learner has not seen the answer decided",
                a.step
            );
        }
        for (place, t, prose) in texts(&l) {
            for lang in Lang::ALL {
                assert!(
                    !t.get(lang).trim().is_empty(),
                    "{name}: {place}.{}",
                    lang.code()
                );
            }
            // A label that is the same in both languages (`[1, 2]`, `c1`, `Broker 2` and
            // `broker 2`) says nothing in words; any other is written in Chinese.
            if prose || t.en.to_lowercase() != t.zh_cn.to_lowercase() {
                assert!(
                    has_chinese(&t.zh_cn),
                    "{name}: {place}.zh-CN is not written in Chinese"
                );
            }
            for word in &forbidden {
                assert!(
                    !t.zh_cn.contains(word.as_str()),
                    "{name}: {place}.zh-CN says {word:?}, not the glossary's word (www/i18n/glossary.json)"
                );
            }
            if prose {
                assert!(
                    !has_chinese(&t.en),
                    "{name}: {place}.en is not written in English"
                );
            }
        }
    }
}

/// The worked example is committed, loads, and is the one the documentation shows.
#[test]
fn the_documented_example_is_the_committed_one_and_resolves() {
    let path = "docs/examples/lessons/first-lesson.json";
    let file = std::fs::read_to_string(root().join(path)).unwrap();
    let (l, r) = lesson::load(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(l.id, "first-lesson");
    assert_eq!(r.answers.len(), 3);
    let doc = std::fs::read_to_string(root().join("docs/lesson-format.md")).unwrap();
    let marker = "[examples/lessons/first-lesson.json](examples/lessons/first-lesson.json)";
    let after = &doc[doc.find(marker).expect("the doc links the example")..];
    let start = after
        .find("```json\n")
        .expect("the example follows the link")
        + "```json\n".len();
    let end = start + after[start..].find("\n```").unwrap();
    let shown: serde_json::Value =
        serde_json::from_str(&after[start..end]).expect("the doc's example is JSON");
    let committed: serde_json::Value = serde_json::from_str(&file).unwrap();
    assert_eq!(
        shown, committed,
        "docs/lesson-format.md shows {path} as committed"
    );
}

/// The event kinds and fields a probe's pattern may name are the ones the simulation emits:
/// every event of every story has a listed kind and only listed fields.
#[test]
fn the_event_patterns_know_every_event_the_stories_emit() {
    let mut seen = std::collections::BTreeSet::new();
    for f in json_files("www/scenarios") {
        let s = scenario::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let mut r = Runner::new(&s);
        r.advance_to(s.until_ms).unwrap();
        for e in r.world.events() {
            let v = serde_json::to_value(e).unwrap();
            let kind = v["kind"].as_str().unwrap();
            let fields = event_fields(kind)
                .unwrap_or_else(|| panic!("{}: unlisted kind {kind}", f.display()));
            for k in v.as_object().unwrap().keys() {
                assert!(
                    ["time_ms", "kind", "cause"].contains(&k.as_str())
                        || fields.contains(&k.as_str()),
                    "{}: {kind} has the unlisted field {k}",
                    f.display()
                );
            }
            for k in fields {
                assert!(
                    v.get(k).is_some(),
                    "{}: {kind} lacks its listed field {k}",
                    f.display()
                );
            }
            seen.insert(kind.to_string());
        }
    }
    assert!(seen.len() >= 40, "the stories emit most kinds: {seen:?}");
}

#[test]
fn every_lesson_report_matches_its_golden_report() {
    for f in lesson_files() {
        let (l, r) = lesson::load(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let actual = lesson::report(&l, &r);
        let path = root().join(format!("tests/golden/lessons/{}.txt", l.id));
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!(
                "{} is missing: run UPDATE_GOLDEN=1 cargo test --test lessons",
                path.display()
            )
        });
        assert_eq!(
            expected,
            actual,
            "{}: the answers changed; review and rewrite with UPDATE_GOLDEN=1",
            f.display()
        );
    }
}

/// The lesson list a page shows, in teaching order: www/lessons/index.json names every lesson
/// file exactly once, and nothing else.
#[test]
fn the_index_lists_every_lesson_once() {
    let text = std::fs::read_to_string(root().join("www/lessons/index.json")).unwrap();
    let index: serde_json::Value = serde_json::from_str(&text).expect("index.json is JSON");
    let keys: Vec<&String> = index.as_object().expect("an object").keys().collect();
    assert_eq!(
        keys,
        ["lessons", "version"],
        "index.json has only version and lessons"
    );
    assert_eq!(index["version"], 1);
    let listed: Vec<&str> = index["lessons"]
        .as_array()
        .expect("lessons is a list")
        .iter()
        .map(|v| v.as_str().expect("a lesson id"))
        .collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        listed.len(),
        "a lesson listed twice: {listed:?}"
    );
    let files: Vec<String> = lesson_files()
        .iter()
        .map(|f| f.file_stem().unwrap().to_str().unwrap().to_string())
        .collect();
    assert_eq!(sorted, files, "index.json lists exactly the lesson files");
    assert_eq!(listed.first(), Some(&"first-controller"));
}

/// Member ids are random (client id, '-', a UUID drawn from the seed): a text that quotes one
/// quotes one the run really gives, so a change of the model cannot leave a stale id behind.
#[test]
fn the_member_ids_a_lesson_quotes_are_the_runs() {
    let is_id = |w: &str| {
        let parts: Vec<&str> = w.split('-').collect();
        parts.len() == 6
            && [8, 4, 4, 4, 12]
                .iter()
                .zip(&parts[1..])
                .all(|(n, p)| p.len() == *n && p.chars().all(|c| c.is_ascii_hexdigit()))
    };
    let mut quoted = 0;
    for f in lesson_files() {
        let (l, _) = lesson::load(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let mut r = Runner::new(&l.scenario);
        r.advance_to(l.steps.last().unwrap().at_ms).unwrap();
        let ids: Vec<String> = r
            .world
            .events()
            .iter()
            .filter_map(|e| {
                let v = serde_json::to_value(e).unwrap();
                v.get("member_id")?.as_str().map(str::to_string)
            })
            .collect();
        for (place, t, _) in texts(&l) {
            for lang in Lang::ALL {
                for w in t
                    .get(lang)
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                    .filter(|w| is_id(w))
                {
                    quoted += 1;
                    assert!(
                        ids.iter().any(|id| id == w),
                        "{}: {place}.{} quotes the member id {w}, which the run does not give",
                        f.display(),
                        lang.code()
                    );
                }
            }
        }
    }
    assert!(quoted > 0, "some lesson quotes member ids");
}

/// The wasm build checks every lesson's report too (tests/wasm_determinism.rs).
#[test]
fn the_wasm_test_checks_every_lesson() {
    let wasm = std::fs::read_to_string(root().join("tests/wasm_determinism.rs")).unwrap();
    for f in lesson_files() {
        let id = f.file_stem().unwrap().to_str().unwrap();
        for needle in [
            format!("include_str!(\"../www/lessons/{id}.json\")"),
            format!("include_str!(\"golden/lessons/{id}.txt\")"),
        ] {
            assert!(
                wasm.contains(&needle),
                "tests/wasm_determinism.rs lacks {needle}"
            );
        }
    }
}
