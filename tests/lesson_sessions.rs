//! The page runs a lesson as a session (the lesson's scenario as a scripted start); every
//! answer a lesson grades comes from the lesson's own run. This checks, for every committed
//! lesson and the documented example, that the session is that run: at each question's
//! checkpoint the deciding event is at the same index, and at the end the history is the
//! scenario runner's.
// A test, not shipped code: std's sorts and collections are fine here (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use kafka_election_playground::lesson::{self, play};
use kafka_election_playground::scenario::Runner;
use kafka_election_playground::session::Session;
use std::fs;
use std::path::Path;

fn lesson_files() -> Vec<(String, String)> {
    let mut files: Vec<_> = fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("www/lessons"))
        .expect("www/lessons")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| p.file_name().is_some_and(|n| n != "index.json"))
        .collect();
    files.sort();
    files.push(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/lessons/first-lesson.json"),
    );
    files
        .into_iter()
        .map(|p| (p.display().to_string(), fs::read_to_string(&p).unwrap()))
        .collect()
}

#[test]
fn a_lesson_session_runs_the_lessons_own_run() {
    let files = lesson_files();
    assert!(files.len() >= 10, "the committed lessons are found");
    for (name, text) in files {
        let (l, r) = lesson::load(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let start = play::session_start(&l, &text, vec![("lesson".into(), l.id.clone())]);
        let mut session = Session::new(start);
        for a in &r.answers {
            session.seek(a.at_ms);
            let events = session.world().events();
            if let Some(d) = &a.decider {
                assert_eq!(
                    events.get(d.index),
                    Some(&d.event),
                    "{name}: step {}: the deciding event is not where the lesson found it",
                    a.step
                );
            }
        }
        let end = l.steps.last().map_or(0, |s| s.at_ms);
        session.seek(end);
        // The scenario runner (what the lesson's answers come from) gives the same history.
        let mut runner = Runner::new(&l.scenario);
        runner.advance_to(end).unwrap();
        assert_eq!(session.world().events(), runner.world.events(), "{name}");
    }
}
