//! The reducer: each action of the page on the model, and what a lesson under way asks of
//! every one (an action that sets up another cluster ends it, acting on the cluster leaves
//! its run, moving the clock stops at the point it has reached).

use super::action::Action;
use super::gate::StartGate;
use super::{said, tell_skipped, Model, MAX_BROKERS, MAX_PARTITIONS};
use crate::i18n::msg;
use crate::sim::assignors::Assignor;
use crate::sim::Profile;
use crate::view::setup::{DEFAULT_BROKERS, DEFAULT_PARTITIONS, DEFAULT_SEED};
use std::rc::Rc;
use yew::Reducible;

impl Reducible for Model {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        said::set_reader(self.tr());
        // Setting up another cluster, opening a link or a file leaves the lesson.
        let this = if self.lesson.is_some() && action.leaves_lesson() {
            let mut m = self.next();
            m.lesson = None;
            m.picked = None;
            Rc::new(m)
        } else {
            self
        };
        // Acting on the cluster leaves the lesson's run.
        let acted = matches!(action, Action::Apply(_) | Action::AddConsumer(_));
        // Moving the clock must not pass the point the lesson has reached.
        let moves = matches!(
            action,
            Action::Frame(_)
                | Action::TogglePlay
                | Action::SetPlaying(true)
                | Action::Seek(_)
                | Action::PickEvent(_)
                | Action::StepForward
                | Action::StepBack
                | Action::JumpNext
        );
        let following = this.lesson.as_ref().is_some_and(|r| !r.left);
        let out = this.clone().reduce_one(action);
        if !following || !(acted || moves) || Rc::ptr_eq(&out, &this) {
            return out;
        }
        let mut m = (*out).clone();
        if acted {
            m.leave_lesson_run();
        } else {
            m.follow_lesson();
        }
        Rc::new(m)
    }
}

impl Model {
    fn reduce_one(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Frame(ts) => match self.frame(ts) {
                (false, _) => self,
                (true, skipped) => {
                    let mut m = self.next();
                    tell_skipped(&mut m.notice, &skipped);
                    Rc::new(m)
                }
            },
            Action::Apply(cmd) => {
                let result = self.host.borrow_mut().apply(cmd);
                let mut m = self.next();
                m.picked = None;
                m.error = result.err();
                Rc::new(m)
            }
            Action::TogglePlay => {
                let mut m = self.next();
                m.playing = !m.playing;
                m.gate = StartGate::Open;
                Rc::new(m)
            }
            Action::SetPlaying(on) => {
                let mut m = self.next();
                m.playing = on;
                if on {
                    m.gate = StartGate::Open;
                }
                Rc::new(m)
            }
            Action::Refresh => Rc::new(self.next()),
            Action::SetSpeed(speed) => {
                let mut m = self.next();
                if speed.is_finite() && speed > 0.0 {
                    m.speed = speed;
                }
                Rc::new(m)
            }
            Action::Select(b) => {
                let mut m = self.next();
                m.selected = b;
                Rc::new(m)
            }
            Action::ShowError(e) => {
                let mut m = self.next();
                m.error = Some(e);
                Rc::new(m)
            }
            Action::DismissError => {
                let mut m = self.next();
                m.error = None;
                m.notice = None;
                Rc::new(m)
            }
            Action::ShowNotice(n) => {
                let mut m = self.next();
                m.notice = Some(n);
                Rc::new(m)
            }
            Action::SetKeyOnly(k) => {
                let mut m = self.next();
                m.key_only = k;
                Rc::new(m)
            }
            Action::Seen => Rc::new(self.seen()),
            Action::SetLang(l) => Rc::new(self.set_lang(l)),
            Action::Catalogue(r) => Rc::new(self.catalogue_arrived(r)),
            other => self.reduce_rest(other),
        }
    }

    /// [`Model::reduce_one`] of the actions the default page's first view does not take (setting
    /// up another cluster, stories, the timeline, the producer's and groups' controls, files,
    /// links, lessons): a function of its own, which the build's split can leave to the
    /// module's second part.
    #[inline(never)]
    fn reduce_rest(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Reset => Rc::new(self.next().reset()),
            // Changing the cluster leaves the story for free play.
            Action::SetBrokers(n) => {
                let mut m = self.next();
                m.story = None;
                m.imported = None;
                m.brokers = n.clamp(1, MAX_BROKERS);
                Rc::new(m.reset())
            }
            Action::SetProfile(p) => {
                let mut m = self.next();
                m.story = None;
                m.imported = None;
                m.profile = p;
                Rc::new(m.reset())
            }
            Action::SetSeed(seed) => {
                let mut m = self.next();
                m.story = None;
                m.imported = None;
                m.seed = seed;
                Rc::new(m.reset())
            }
            Action::SetStory(story) => {
                let mut m = self.next();
                m.story = story;
                m.imported = None;
                if story.is_none() {
                    m.seed = DEFAULT_SEED;
                    m.profile = Profile::default();
                    m.brokers = DEFAULT_BROKERS;
                    m.partitions = DEFAULT_PARTITIONS;
                    m.rf_wanted = None;
                    m.consumers_at_start = 0;
                    m.assignor = Assignor::Range;
                }
                Rc::new(m.reset())
            }
            Action::SetPauseText(s) => {
                let mut m = self.next();
                m.pause_text = s;
                Rc::new(m)
            }
            Action::SetPartitions(n) => {
                let mut m = self.next();
                m.story = None;
                m.imported = None;
                m.partitions = n.clamp(1, MAX_PARTITIONS);
                Rc::new(m.reset())
            }
            Action::SetRf(n) => {
                let mut m = self.next();
                m.story = None;
                m.imported = None;
                m.rf_wanted = Some(n.clamp(1, MAX_BROKERS));
                Rc::new(m.reset())
            }
            Action::SetProduceTo(tp) => {
                let mut m = self.next();
                m.produce_to = Some(tp);
                Rc::new(m)
            }
            Action::SetRateText(s) => {
                let mut m = self.next();
                m.rate_text = s;
                Rc::new(m)
            }
            Action::SetAcks(a) => {
                let mut m = self.next();
                m.acks = Some(a);
                Rc::new(m)
            }
            Action::SetSendText(s) => {
                let mut m = self.next();
                m.send_text = s;
                Rc::new(m)
            }
            Action::AddConsumer(group) => {
                let result = self.add_consumer(&group);
                let mut m = self.next();
                m.error = result.err();
                Rc::new(m)
            }
            Action::SetAssignor(a) => {
                let mut m = self.next();
                m.story = None;
                m.imported = None;
                m.assignor = a;
                Rc::new(m.reset())
            }
            Action::SetShowInternal(on) => {
                let mut m = self.next();
                m.show_internal = on;
                Rc::new(m)
            }
            Action::PickEvent(i) => {
                let picked = {
                    let host = self.host.borrow();
                    let events = host.world().events();
                    (i < events.len()).then(|| {
                        let e = &events[i];
                        let (brokers, members) = crate::view::format::event_subjects(e);
                        (e.time_ms, brokers, members)
                    })
                };
                let Some(picked) = picked else {
                    return self;
                };
                let skipped = self.host.borrow_mut().seek(picked.0);
                let mut m = self.next();
                m.playing = false;
                m.moved_by_hand();
                m.picked = Some(picked);
                tell_skipped(&mut m.notice, &skipped);
                Rc::new(m)
            }
            Action::Seek(t) => {
                let skipped = self.host.borrow_mut().seek(t);
                let mut m = self.next();
                m.playing = false;
                m.moved_by_hand();
                tell_skipped(&mut m.notice, &skipped);
                Rc::new(m)
            }
            Action::StepForward => {
                let mut m = self.jump_next();
                m.playing = false;
                m.moved_by_hand();
                Rc::new(m)
            }
            Action::StepBack => {
                let moved = {
                    let mut host = self.host.borrow_mut();
                    let t = host.session.previous_event_ms();
                    t.map(|t| host.seek(t))
                };
                let mut m = self.next();
                m.playing = false;
                m.moved_by_hand();
                match moved {
                    Some(skipped) => tell_skipped(&mut m.notice, &skipped),
                    None => m.error = Some(m.tr().t(msg::ERR_FIRST_EVENT)),
                }
                Rc::new(m)
            }
            Action::UndoFork => {
                {
                    let mut host = self.host.borrow_mut();
                    host.session.undo_fork();
                    let t = host.session.now_ms();
                    host.seek(t);
                }
                let mut m = self.next();
                m.playing = false;
                Rc::new(m)
            }
            Action::KeepFork => {
                self.host.borrow_mut().session.keep_fork();
                Rc::new(self.next())
            }
            Action::OpenLink(fragment) => Rc::new(self.open_link(&fragment)),
            // A lesson file (it has steps) opens as an exercise; any other file as a scenario.
            Action::Import(text) if crate::lesson::looks_like_lesson(&text) => {
                Rc::new(self.lesson_file(&text))
            }
            Action::Import(text) => {
                let mut m = self.import(&text);
                if m.error.is_none() {
                    m.lesson = None;
                }
                Rc::new(m)
            }
            Action::JumpNext => {
                let mut m = self.jump_next();
                m.moved_by_hand();
                Rc::new(m)
            }
            Action::Lessons(on) => Rc::new(self.open_lessons(on)),
            Action::Catalog(files) => Rc::new(self.catalog_arrived(files)),
            Action::OpenLesson(id) => Rc::new(self.want_lesson(id)),
            Action::LessonArrived(id, text) => Rc::new(self.lesson_arrived(id, text)),
            Action::LessonAnswer(a) => Rc::new(self.answer_lesson(a)),
            Action::LessonNext => Rc::new(self.next_lesson_step()),
            Action::LessonSkip => Rc::new(self.skip_lesson_run()),
            Action::LessonReturn => Rc::new(self.return_to_lesson()),
            Action::LessonRestart => Rc::new(self.restart_lesson()),
            Action::LessonExit => Rc::new(self.exit_lesson()),
            Action::ResetProgress => Rc::new(self.reset_progress()),
            // Those of the first view (never sent here): `reduce_one` takes them.
            first => self.reduce_one(first),
        }
    }
}
