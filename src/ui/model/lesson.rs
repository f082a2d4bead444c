//! Lessons on the page: the list (`?view=lessons`), one lesson under way (`?lesson=<id>`, or
//! an exercise file opened from disk), its scripted run, and the progress the browser keeps.
//!
//! A lesson's run is the lesson's own scenario as a session. While the learner follows it, the
//! clock may not pass the point the lesson has reached ([`Play::stop_ms`]): a question is
//! answered before the run shows its answer. A learner who acts on the cluster leaves the
//! lesson's run (the page says so and offers to return); every answer is graded against the
//! run everyone sees.

use super::{tell_skipped, Host, Model};
use crate::i18n::msg_lessons as msg;
use crate::lesson::index::{entries, is_id, Catalog, LessonFiles};
use crate::lesson::play::{session_start, Phase, Play, Progress};
use crate::lesson::{self, Answer, Lesson, Resolution};
use crate::session::{Session, Start};
use std::cell::RefCell;
use std::rc::Rc;

/// Where the browser keeps the lesson progress.
const PROGRESS_KEY: &str = "kafka-election-lessons";

/// Where a lesson came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// A committed lesson, by id (`lessons/<id>.json`).
    Committed(String),
    /// An exercise: a lesson file opened from disk or carried by a link; its compact JSON in
    /// base64url, as the link's fragment carries it (`#exercise=…`).
    File(Rc<str>),
}

/// A lesson under way.
#[derive(Debug, Clone)]
pub struct LessonRun {
    /// Where it came from.
    pub source: Source,
    /// The lesson.
    pub lesson: Lesson,
    /// Its questions' answers, from its run.
    pub resolution: Resolution,
    /// The session's start (to return to the lesson's run).
    pub start: Start,
    /// The learner's way through it.
    pub play: Play,
    /// Whether the learner has acted on the cluster, leaving the lesson's run.
    pub left: bool,
}

fn stored_progress() -> Result<Progress, String> {
    let text = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(PROGRESS_KEY).ok().flatten());
    match text {
        None => Ok(Progress::default()),
        Some(t) => Progress::parse(&t),
    }
}

fn store_progress(p: &Progress) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(PROGRESS_KEY, &p.to_json());
    }
}

fn forget_progress() {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.remove_item(PROGRESS_KEY);
    }
}

impl Model {
    /// The lesson progress kept in this browser, read once (a progress that does not read is
    /// set aside, with a notice).
    pub(super) fn ensure_progress(&mut self) {
        if self.progress.is_some() {
            return;
        }
        let p = match stored_progress() {
            Ok(p) => p,
            Err(e) => {
                self.notice = Some(self.tr().f(msg::LESSONS_PROGRESS_LOST, &[("why", &e)]));
                Progress::default()
            }
        };
        self.progress = Some(Rc::new(p));
    }

    /// The address parameter of the lesson list or of the committed lesson under way (a
    /// lesson from a file has none: the page's address then keeps no session either).
    pub fn lesson_address(&self) -> Option<Option<(String, String)>> {
        if self.lessons_open {
            return Some(Some(("view".into(), "lessons".into())));
        }
        if let Some(id) = &self.lesson_wanted {
            return Some(Some(("lesson".into(), id.clone())));
        }
        match self.lesson.as_ref().map(|r| &r.source) {
            Some(Source::Committed(id)) => Some(Some(("lesson".into(), id.clone()))),
            Some(Source::File(_)) => Some(None),
            None => None,
        }
    }

    /// The list shown (`true`) or closed.
    pub(super) fn open_lessons(&self, on: bool) -> Model {
        let mut m = self.next();
        m.lessons_open = on;
        if on {
            m.ensure_progress();
            m.playing = false;
            if matches!(*m.catalog, Catalog::Idle | Catalog::Failed(_)) {
                m.catalog = Rc::new(Catalog::Loading);
            }
        }
        m
    }

    /// The list's files arrived (or the index could not be fetched).
    pub(super) fn catalog_arrived(&self, files: Result<LessonFiles, String>) -> Model {
        let mut m = self.next();
        match files {
            Ok(files) => {
                let (list, problems) = entries(&files);
                if !problems.is_empty() {
                    m.error = Some(
                        m.tr()
                            .f(msg::LESSONS_FAILED, &[("why", &problems.join("; "))]),
                    );
                }
                m.catalog = Rc::new(Catalog::Ready(list));
            }
            Err(e) => m.catalog = Rc::new(Catalog::Failed(e)),
        }
        m
    }

    /// A committed lesson asked for: the page fetches it.
    pub(super) fn want_lesson(&self, id: String) -> Model {
        let mut m = self.next();
        if !is_id(&id) {
            m.error = Some(m.tr().f(
                msg::LESSON_UNKNOWN,
                &[
                    ("id", &id),
                    (
                        "why",
                        &"a lesson id has lower-case letters, digits and dashes only",
                    ),
                ],
            ));
            return m;
        }
        m.lessons_open = false;
        m.lesson_wanted = Some(id);
        m.playing = false;
        m
    }

    /// A committed lesson's file arrived (or could not be fetched: one message, nothing
    /// changes).
    pub(super) fn lesson_arrived(&self, id: String, text: Result<String, String>) -> Model {
        if self.lesson_wanted.as_deref() != Some(id.as_str()) {
            return self.next();
        }
        let result = text.and_then(|t| self.with_lesson(Source::Committed(id.clone()), &t));
        match result {
            Ok(mut m) => {
                m.lesson_wanted = None;
                m
            }
            Err(e) => {
                let mut m = self.next();
                m.lesson_wanted = None;
                m.error = Some(m.tr().f(msg::LESSON_UNKNOWN, &[("id", &id), ("why", &e)]));
                m
            }
        }
    }

    /// The fragment of an exercise's link (`exercise=…`), while one is under way.
    pub fn exercise_fragment(&self) -> Option<String> {
        match self.lesson.as_ref().map(|r| &r.source) {
            Some(Source::File(code)) => Some(format!("exercise={code}")),
            _ => None,
        }
    }

    /// An exercise carried by a link (`#exercise=…`): one message if it does not read.
    pub(super) fn exercise_from_link(&self, code: &str) -> Model {
        let text = crate::session::codec::from_base64url(code)
            .map_err(|e| format!("its lesson is not readable: {e}"))
            .and_then(|b| String::from_utf8(b).map_err(|_| "its lesson is not UTF-8 text".into()));
        match text {
            Ok(t) => self.lesson_file(&t),
            Err(e) => {
                let mut m = self.next();
                m.error = Some(m.tr().f(msg::LESSON_BAD_FILE, &[("why", &e)]));
                m
            }
        }
    }

    /// An exercise file from disk: one message if it is not a lesson the run can answer.
    pub(super) fn lesson_file(&self, text: &str) -> Model {
        // The link carries the file as its compact JSON.
        let compact = serde_json::from_str::<serde_json::Value>(text)
            .map(|v| v.to_string())
            .unwrap_or_else(|_| text.to_string());
        let code: Rc<str> = crate::session::codec::base64url(compact.as_bytes()).into();
        match self.with_lesson(Source::File(code), text) {
            Ok(m) => m,
            Err(e) => {
                let mut m = self.next();
                m.error = Some(m.tr().f(msg::LESSON_BAD_FILE, &[("why", &e)]));
                m
            }
        }
    }

    /// The page running `text`'s lesson from where this browser left it (a committed lesson)
    /// or from its start.
    fn with_lesson(&self, source: Source, text: &str) -> Result<Model, String> {
        let (lesson, resolution) = lesson::load(text).map_err(|e| e.to_string())?;
        let mut m = self.next();
        m.ensure_progress();
        let base = match &source {
            Source::Committed(id) => vec![("lesson".to_string(), id.clone())],
            Source::File(_) => vec![("lesson".to_string(), lesson.id.clone())],
        };
        let start = session_start(&lesson, text, base);
        let kept = match &source {
            Source::Committed(id) => m
                .progress
                .as_ref()
                .and_then(|p| p.lessons.get(id))
                .and_then(|k| Play::resume(&lesson, &resolution, k)),
            Source::File(_) => None,
        };
        let play = kept.unwrap_or_else(|| Play::start(&lesson));
        m.story = None;
        m.imported = None;
        m.lessons_open = false;
        m.seed = start.setup.seed;
        m.profile = start.setup.settings.profile;
        m.brokers = start.setup.brokers.len() as u32;
        m.selected = None;
        m.picked = None;
        m.produce_to = None;
        m.lesson = Some(Rc::new(LessonRun {
            source,
            lesson,
            resolution,
            start,
            play,
            left: false,
        }));
        m.restart_lesson_run();
        Ok(m)
    }

    /// A fresh session of the lesson's run, at the point the lesson has reached; the clock
    /// runs if the step is running.
    pub(super) fn restart_lesson_run(&mut self) {
        let Some(run) = self.lesson.as_mut().map(Rc::make_mut) else {
            return;
        };
        run.left = false;
        let anim_now = self.host.borrow().anim_now;
        let mut host = Host::with(Session::new(run.start.clone()), anim_now);
        let at = match run.play.phase {
            // A running step starts again where it began.
            Phase::Running => run.lesson.asked_at_ms(run.play.step),
            _ => run.play.stop_ms(&run.lesson),
        };
        let skipped = host.seek(at);
        self.host = Rc::new(RefCell::new(host));
        self.generation += 1;
        self.playing = run.play.phase == Phase::Running;
        tell_skipped(&mut self.notice, &skipped);
        self.mark_decider();
    }

    /// The time the clock may not pass while the learner follows a lesson.
    pub(super) fn lesson_limit(&self) -> Option<u64> {
        self.lesson
            .as_ref()
            .filter(|r| !r.left)
            .map(|r| r.play.stop_ms(&r.lesson))
    }

    /// The clock has moved (a frame, a seek, a step): while the learner follows the lesson it
    /// may not pass the lesson's point; a running step that reaches its time is shown.
    pub(super) fn follow_lesson(&mut self) {
        let Some(run) = self.lesson.as_ref() else {
            return;
        };
        if run.left {
            return;
        }
        let stop = run.play.stop_ms(&run.lesson);
        let now = self.host.borrow().session.now_ms();
        if now > stop {
            let skipped = self.host.borrow_mut().seek(stop);
            tell_skipped(&mut self.notice, &skipped);
        }
        let now = now.min(stop);
        if now >= stop && self.playing {
            self.playing = false;
            if run.play.phase == Phase::Ask {
                self.notice = Some(self.tr().t(msg::LESSON_ANSWER_FIRST));
            }
        }
        let shown = {
            let run = self.lesson.as_mut().map(Rc::make_mut).expect("a lesson");
            let lesson = run.lesson.clone();
            run.play.reached(&lesson, now)
        };
        if shown {
            self.mark_decider();
            self.save_progress();
        }
    }

    /// Highlights the nodes of the event that decided the shown step's answer.
    fn mark_decider(&mut self) {
        let Some(run) = self.lesson.as_ref() else {
            return;
        };
        if run.play.phase != Phase::Shown {
            return;
        }
        let picked = run
            .resolution
            .for_step(run.play.step)
            .and_then(|r| r.decider.as_ref())
            .map(|d| {
                let (brokers, members) = crate::view::format::event_subjects(&d.event);
                (d.event.time_ms, brokers, members)
            });
        self.picked = picked;
    }

    /// The learner acted on the cluster: they leave the lesson's run.
    pub(super) fn leave_lesson_run(&mut self) {
        if let Some(run) = self.lesson.as_mut().map(Rc::make_mut) {
            run.left = true;
        }
    }

    /// Back to the lesson's run, at the point the lesson has reached.
    pub(super) fn return_to_lesson(&self) -> Model {
        let mut m = self.next();
        m.picked = None;
        m.restart_lesson_run();
        m
    }

    /// The learner's answer to the question asked.
    pub(super) fn answer_lesson(&self, answer: Answer) -> Model {
        let mut m = self.next();
        let Some(run) = m.lesson.as_mut().map(Rc::make_mut) else {
            return m;
        };
        if run.left {
            return m;
        }
        let LessonRun {
            lesson,
            resolution,
            play,
            ..
        } = run;
        match play.answer(lesson, resolution, answer) {
            Ok(_) => {
                m.notice = None;
                m.error = None;
                m.playing = true;
                m.save_progress();
            }
            Err(e) => m.error = Some(e),
        }
        m
    }

    /// The shown step is read: on to the next (its run starts at once if it asks nothing).
    pub(super) fn next_lesson_step(&self) -> Model {
        let mut m = self.next();
        let Some(run) = m.lesson.as_mut().map(Rc::make_mut) else {
            return m;
        };
        let lesson = run.lesson.clone();
        run.play.next(&lesson);
        let (phase, stop) = (run.play.phase, run.play.stop_ms(&lesson));
        m.picked = None;
        // The learner may have looked back at an event: the lesson goes on from its point.
        let now = m.host.borrow().session.now_ms();
        let at = match phase {
            Phase::Running => lesson.asked_at_ms(m.lesson.as_ref().map_or(0, |r| r.play.step)),
            _ => stop,
        };
        if now != at {
            let skipped = m.host.borrow_mut().seek(at);
            tell_skipped(&mut m.notice, &skipped);
        }
        m.playing = phase == Phase::Running;
        m.save_progress();
        m
    }

    /// The running step's time, at once.
    pub(super) fn skip_lesson_run(&self) -> Model {
        let mut m = self.next();
        let Some(stop) = m
            .lesson
            .as_ref()
            .filter(|r| !r.left && r.play.phase == Phase::Running)
            .map(|r| r.play.stop_ms(&r.lesson))
        else {
            return m;
        };
        let skipped = m.host.borrow_mut().seek(stop);
        tell_skipped(&mut m.notice, &skipped);
        m.follow_lesson();
        m.playing = false;
        m
    }

    /// The lesson from its first step, its answers forgotten.
    pub(super) fn restart_lesson(&self) -> Model {
        let mut m = self.next();
        if let Some(run) = m.lesson.as_mut().map(Rc::make_mut) {
            run.play = Play::start(&run.lesson);
        }
        m.picked = None;
        m.save_progress();
        m.restart_lesson_run();
        m
    }

    /// Out of the lesson, back to the list.
    pub(super) fn exit_lesson(&self) -> Model {
        let mut m = self.next();
        m.lesson = None;
        m.picked = None;
        m.open_lessons(true)
    }

    /// Every lesson's progress forgotten.
    pub(super) fn reset_progress(&self) -> Model {
        let mut m = self.next();
        forget_progress();
        m.progress = Some(Rc::new(Progress::default()));
        m.notice = Some(m.tr().t(msg::LESSONS_RESET_DONE));
        m
    }

    /// Keeps a committed lesson's progress in the browser.
    fn save_progress(&mut self) {
        let Some((id, kept)) = self.lesson.as_ref().and_then(|run| match &run.source {
            Source::Committed(id) => Some((id.clone(), run.play.progress(&run.lesson))),
            Source::File(_) => None,
        }) else {
            return;
        };
        self.ensure_progress();
        let mut p = self.progress.as_deref().cloned().unwrap_or_default();
        p.lessons.insert(id, kept);
        store_progress(&p);
        self.progress = Some(Rc::new(p));
    }
}
