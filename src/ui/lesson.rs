//! Lessons on the page: the list (`?view=lessons`), the card of the lesson under way (its
//! step, its question, the grade with the event that decided it, the step's explanation),
//! and the fetches of the lesson files served beside the page.

use super::fetch::{asset_url, fetch_text};
use super::i18n::rich;
use super::model::{Action, LessonRun, LessonSource, Model};
use crate::i18n::{event_text, msg_lessons as msg, Lang, Tr};
use crate::lesson::index::{index_ids, Catalog, Entry, Fetched};
use crate::lesson::play::Phase;
use crate::lesson::{
    fmt_number, never_label, Answer, Measured, Question, QuestionKind, TimeUnit, ValueType,
};
use crate::sim::fmt_ms;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};
use yew::prelude::*;

/// The lessons' index beside the page.
const INDEX_PATH: &str = "lessons/index.json";

/// The language of a lesson's texts for the page's language.
fn lesson_lang(tr: &Tr) -> crate::lesson::Lang {
    match tr.lang() {
        Lang::En => crate::lesson::Lang::En,
        Lang::ZhCn => crate::lesson::Lang::ZhCn,
    }
}

/// Fetches the index and every lesson it lists, then hands them on in its order.
pub fn fetch_catalog(done: Callback<Action>) {
    let on_index = Callback::from(move |r: Result<String, String>| {
        let ids = match r.and_then(|t| index_ids(&t)) {
            Ok(ids) => ids,
            Err(e) => {
                done.emit(Action::Catalog(Err(e)));
                return;
            }
        };
        if ids.is_empty() {
            done.emit(Action::Catalog(Ok(Vec::new())));
            return;
        }
        let got: Rc<RefCell<Vec<Option<Fetched>>>> = Rc::new(RefCell::new(vec![None; ids.len()]));
        for (i, id) in ids.iter().enumerate() {
            let (got, ids, done) = (got.clone(), ids.clone(), done.clone());
            fetch_text(
                asset_url(&format!("lessons/{id}.json")),
                Callback::from(move |r: Result<String, String>| {
                    got.borrow_mut()[i] = Some(r);
                    if got.borrow().iter().all(Option::is_some) {
                        let files = ids
                            .iter()
                            .cloned()
                            .zip(got.borrow_mut().drain(..).flatten())
                            .collect();
                        done.emit(Action::Catalog(Ok(files)));
                    }
                }),
            );
        }
    });
    fetch_text(asset_url(INDEX_PATH), on_index);
}

/// Fetches a committed lesson's file, once the index says there is such a lesson (else the
/// message names the lessons there are).
pub fn fetch_lesson(id: String, done: Callback<Action>) {
    let on_index = Callback::from(move |r: Result<String, String>| {
        let id = id.clone();
        match r.and_then(|t| index_ids(&t)) {
            Err(e) => done.emit(Action::LessonArrived(id, Err(e))),
            Ok(ids) if !ids.contains(&id) => done.emit(Action::LessonArrived(
                id,
                Err(format!("the lessons are {}", ids.join(", "))),
            )),
            Ok(_) => {
                let done = done.clone();
                fetch_text(
                    asset_url(&format!("lessons/{id}.json")),
                    Callback::from(move |r| done.emit(Action::LessonArrived(id.clone(), r))),
                );
            }
        }
    });
    fetch_text(asset_url(INDEX_PATH), on_index);
}

/// The header's way to the lessons.
pub fn lessons_button(open: bool, tr: &Tr, dispatch: &Callback<Action>) -> Html {
    let onclick = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Lessons(!open)))
    };
    html! {
        <button class={classes!("lessons-button", open.then_some("on"))} {onclick} aria-pressed={open.to_string()}
                title={tr.t(msg::LESSONS_OPEN_TITLE)} data-testid="lessons-button">
            { tr.t(msg::LESSONS_OPEN) }
        </button>
    }
}

/// The lesson list: every committed lesson with this browser's progress, a lesson file from
/// disk, and resetting the progress.
#[derive(Properties, PartialEq)]
pub struct LessonListProps {
    /// The list.
    pub catalog: Rc<Catalog>,
    /// This browser's progress.
    pub progress: Option<Rc<crate::lesson::play::Progress>>,
    /// The page's words.
    pub tr: Tr,
    /// The page's actions.
    pub dispatch: Callback<Action>,
    /// The id of its heading.
    pub title_id: AttrValue,
}

/// The lesson list.
#[component]
pub fn LessonList(props: &LessonListProps) -> Html {
    let confirming = use_state(|| false);
    let tr = &props.tr;
    let lang = lesson_lang(tr);
    let d = props.dispatch.clone();
    let back = {
        let d = d.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Lessons(false)))
    };
    let onchange = {
        let (d, tr) = (d.clone(), tr.clone());
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                    super::timeline::read_file(file, d.clone(), &tr);
                }
                input.set_value("");
            }
        })
    };
    let ask_reset = {
        let c = confirming.clone();
        Callback::from(move |_: MouseEvent| c.set(true))
    };
    let no_reset = {
        let c = confirming.clone();
        Callback::from(move |_: MouseEvent| c.set(false))
    };
    let yes_reset = {
        let (c, d) = (confirming.clone(), d.clone());
        Callback::from(move |_: MouseEvent| {
            c.set(false);
            d.emit(Action::ResetProgress);
        })
    };
    let body = match &*props.catalog {
        Catalog::Idle | Catalog::Loading => {
            html! { <p class="lessons-status" role="status">{ tr.t(msg::LESSONS_LOADING) }</p> }
        }
        Catalog::Failed(why) => html! {
            <p class="lessons-status error" role="alert">{ tr.f(msg::LESSONS_FAILED, &[("why", why)]) }</p>
        },
        Catalog::Ready(list) => html! {
            <ol class="lesson-list" data-testid="lesson-list">
                { for list.iter().enumerate().map(|(i, e)| entry(i, e, props.progress.as_deref(), lang, tr, &d)) }
            </ol>
        },
    };
    html! {
        <section class="lessons panel" aria-labelledby={props.title_id.clone()} data-testid="lessons">
            <header class="lessons-head">
                <h2 id={props.title_id.clone()}>{ tr.t(msg::LESSONS_TITLE) }</h2>
                <button class="ghost" onclick={back} data-testid="lessons-back">{ tr.t(msg::LESSONS_BACK) }</button>
            </header>
            <p class="lessons-intro">{ tr.t(msg::LESSONS_INTRO) }</p>
            <div class="lessons-tools">
                <label class="button-like">
                    { tr.t(msg::LESSONS_FILE) }
                    <input type="file" class="visually-hidden" accept=".json,application/json" {onchange} data-testid="lesson-file" />
                </label>
                <p class="hint">{ rich(&tr.t(msg::LESSONS_FILE_HINT)) }</p>
                if *confirming {
                    <p class="reset-confirm" role="group">
                        { tr.t(msg::LESSONS_RESET_CONFIRM) }{ " " }
                        <button class="danger" onclick={yes_reset} data-testid="reset-yes">{ tr.t(msg::LESSONS_RESET_YES) }</button>
                        { " " }
                        <button class="ghost" onclick={no_reset}>{ tr.t(msg::LESSONS_RESET_NO) }</button>
                    </p>
                } else {
                    <button class="ghost" onclick={ask_reset} data-testid="reset-progress">{ tr.t(msg::LESSONS_RESET) }</button>
                }
            </div>
            { body }
        </section>
    }
}

fn entry(
    i: usize,
    e: &Entry,
    progress: Option<&crate::lesson::play::Progress>,
    lang: crate::lesson::Lang,
    tr: &Tr,
    d: &Callback<Action>,
) -> Html {
    let kept = progress.and_then(|p| p.lessons.get(&e.id));
    let (state, button) = match kept {
        None => (tr.t(msg::LESSON_NEW), msg::LESSON_START),
        Some(k) if k.done => (
            tr.f(
                msg::LESSON_DONE_SCORE,
                &[("right", &k.right), ("total", &k.total)],
            ),
            msg::LESSON_AGAIN,
        ),
        Some(k) => (
            tr.f(
                msg::LESSON_AT_STEP,
                &[("step", &(k.step + 1)), ("steps", &e.steps)],
            ),
            msg::LESSON_CONTINUE,
        ),
    };
    let done = kept.is_some_and(|k| k.done);
    let open = {
        let (d, id) = (d.clone(), e.id.clone());
        Callback::from(move |_: MouseEvent| d.emit(Action::OpenLesson(id.clone())))
    };
    html! {
        <li class={classes!("lesson-entry", done.then_some("done"))} data-lesson={e.id.clone()}>
            <span class="lesson-number" aria-hidden="true">{ i + 1 }</span>
            <div class="lesson-about">
                <h3>{ e.title.get(lang).to_string() }</h3>
                <p>{ e.summary.get(lang).to_string() }</p>
                <p class="lesson-meta">
                    <span>{ tr.f(msg::LESSON_QUESTIONS, &[("count", &e.questions)]) }</span>
                    { " · " }<span>{ tr.f(msg::LESSON_PROFILE, &[("profile", &e.profile)]) }</span>
                    { " · " }<span class="lesson-state" data-testid="lesson-state">{ state }</span>
                </p>
            </div>
            <button class="primary" onclick={open}>{ tr.t(button) }</button>
        </li>
    }
}

/// The unit a number question's answer is given in.
fn unit(q: &Question, tr: &Tr) -> Option<String> {
    match q.probe.measure.value_type() {
        ValueType::Time(TimeUnit::Seconds) => Some(tr.t(msg::LESSON_UNIT_S)),
        ValueType::Time(TimeUnit::Milliseconds) => Some(tr.t(msg::LESSON_UNIT_MS)),
        _ => None,
    }
}

fn with_unit(n: f64, q: &Question, tr: &Tr) -> String {
    match unit(q, tr) {
        Some(u) => format!("{} {u}", fmt_number(n)),
        None => fmt_number(n),
    }
}

/// A value measured in the run, in the reader's words.
fn value_text(v: &Measured, q: &Question, tr: &Tr, lang: crate::lesson::Lang) -> String {
    if let QuestionKind::Choice { options } = &q.kind {
        if let Some(o) = options.iter().find(|o| &o.value == v) {
            return o.label.get(lang).to_string();
        }
    }
    match v {
        Measured::Broker(b) => tr.f(msg::LESSON_BROKER_VALUE, &[("broker", b)]),
        Measured::Number(n) => with_unit(*n, q, tr),
        Measured::Brokers(bs) => format!("{bs:?}"),
        Measured::Member(m) => m.clone(),
        Measured::YesNo(true) => tr.t(msg::LESSON_YES),
        Measured::YesNo(false) => tr.t(msg::LESSON_NO),
        Measured::Never => never_label(lang).to_string(),
    }
}

/// The learner's answer, in the reader's words.
fn answer_text(a: &Answer, q: &Question, tr: &Tr, lang: crate::lesson::Lang) -> String {
    match (a, &q.kind) {
        (Answer::Choice(i), QuestionKind::Choice { options }) => options
            .get(*i)
            .map(|o| o.label.get(lang).to_string())
            .unwrap_or_default(),
        (Answer::Number(x), _) => with_unit(*x, q, tr),
        (Answer::Node(b), _) => tr.f(msg::LESSON_BROKER_VALUE, &[("broker", b)]),
        (Answer::Never, _) => never_label(lang).to_string(),
        _ => String::new(),
    }
}

/// The card of the lesson under way (or being fetched), where a story's box goes.
#[inline(never)]
pub fn lesson_card(m: &Model, dispatch: &Callback<Action>, tr: &Tr) -> Html {
    let Some(run) = m.lesson.as_deref() else {
        return match &m.lesson_wanted {
            Some(id) => html! {
                <section class="intro story lesson" data-testid="lesson" aria-busy="true">
                    <p role="status">{ tr.f(msg::LESSON_LOADING, &[("id", id)]) }</p>
                </section>
            },
            None => html! {},
        };
    };
    let lang = lesson_lang(tr);
    let lesson = &run.lesson;
    let play = &run.play;
    let step = &lesson.steps[play.step.min(lesson.steps.len().saturating_sub(1))];
    let (right, total) = play.score(lesson);
    let (shown_right, shown_answered) = play.revealed();
    let cb = |a: Action| {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(a.clone()))
    };
    let tag = match run.source {
        LessonSource::Committed(_) => tr.t(msg::LESSON_TAG),
        LessonSource::File(_) => tr.t(msg::LESSON_FILE_TAG),
    };
    let share = matches!(run.source, LessonSource::File(_)).then(|| {
        let (d, tr) = (dispatch.clone(), tr.clone());
        Callback::from(move |_: MouseEvent| super::timeline::copy_link(&d, &tr))
    });
    let head = html! {
        <div class="lesson-head">
            <p class="story-title">
                <span class="story-tag">{ tag }</span>
                <strong data-testid="lesson-title">{ lesson.title.get(lang).to_string() }</strong>
            </p>
            <p class="lesson-progress">
                <span data-testid="lesson-step">{ tr.f(msg::LESSON_STEP, &[("step", &(play.step + 1)), ("steps", &lesson.steps.len())]) }</span>
                if shown_answered > 0 && play.phase != Phase::Done {
                    { " · " }{ tr.f(msg::LESSON_SCORE, &[("right", &shown_right), ("answered", &shown_answered)]) }
                }
            </p>
            <div class="lesson-nav">
                <button class="ghost" onclick={cb(Action::LessonExit)} data-testid="lesson-exit">{ tr.t(msg::LESSON_TO_LIST) }</button>
                <button class="ghost" onclick={cb(Action::LessonRestart)} data-testid="lesson-restart">{ tr.t(msg::LESSON_RESTART) }</button>
                if let Some(onclick) = share {
                    <button class="ghost" {onclick} title={tr.t(msg::LESSON_COPY_LINK_TITLE)} data-testid="lesson-copy-link">{ tr.t(msg::LESSON_COPY_LINK) }</button>
                }
            </div>
        </div>
    };
    let body = if run.left {
        html! {
            <div class="lesson-left" role="status" data-testid="lesson-left">
                <p>{ tr.t(msg::LESSON_LEFT) }</p>
                <button class="primary" onclick={cb(Action::LessonReturn)} data-testid="lesson-return">{ tr.t(msg::LESSON_RETURN) }</button>
            </div>
        }
    } else {
        match play.phase {
            Phase::Ask => match &step.question {
                Some(q) => html! {
                    <QuestionForm question={Rc::new(q.clone())} key={format!("{}-{}", lesson.id, play.step)}
                                  tr={tr.clone()} dispatch={dispatch.clone()} prompt_id={m.chrome.id("lesson-prompt")} />
                },
                None => html! {},
            },
            Phase::Running => {
                let at = fmt_ms(step.at_ms);
                let said = if step.question.is_some() {
                    tr.f(msg::LESSON_RUNNING, &[("at", &at)])
                } else {
                    tr.f(msg::LESSON_RUN_TO, &[("at", &at)])
                };
                html! {
                    <div class="lesson-running" data-testid="lesson-running">
                        <p role="status">{ said }</p>
                        <button class="ghost" onclick={cb(Action::LessonSkip)} data-testid="lesson-skip">
                            { tr.f(msg::LESSON_SKIP, &[("at", &at)]) }
                        </button>
                    </div>
                }
            }
            Phase::Shown => shown(run, tr, lang, dispatch),
            Phase::Done => html! {
                <div class="lesson-done" data-testid="lesson-done">
                    <p class="lesson-verdict" role="status">
                        { if total > 0 {
                            tr.f(msg::LESSON_COMPLETE, &[("right", &right), ("total", &total)])
                        } else {
                            tr.t(msg::LESSON_COMPLETE_NONE)
                        } }
                    </p>
                    <p class="lesson-text">{ rich(step.text.get(lang)) }</p>
                    <div class="lesson-actions">
                        <button class="primary" onclick={cb(Action::LessonExit)}>{ tr.t(msg::LESSON_TO_LIST) }</button>
                        <button class="ghost" onclick={cb(Action::LessonRestart)}>{ tr.t(msg::LESSON_RESTART) }</button>
                    </div>
                </div>
            },
        }
    };
    html! {
        <section class={classes!("intro", "story", "lesson", run.left.then_some("left"))}
                 aria-label={tr.t(msg::LESSON_TAG)} data-testid="lesson" data-phase={phase_name(play.phase, run.left)}>
            { head }
            { body }
        </section>
    }
}

fn phase_name(p: Phase, left: bool) -> &'static str {
    match (left, p) {
        (true, _) => "left",
        (_, Phase::Ask) => "ask",
        (_, Phase::Running) => "running",
        (_, Phase::Shown) => "shown",
        (_, Phase::Done) => "done",
    }
}

/// A shown step: the grade, the answers, the deciding event, the explanation.
fn shown(run: &LessonRun, tr: &Tr, lang: crate::lesson::Lang, dispatch: &Callback<Action>) -> Html {
    let play = &run.play;
    let step = &run.lesson.steps[play.step];
    let last = play.step + 1 == run.lesson.steps.len();
    let next = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::LessonNext))
    };
    let graded = step
        .question
        .as_ref()
        .zip(play.answers.get(&play.step))
        .zip(run.resolution.for_step(play.step));
    let grade = graded.map(|((q, (a, g)), resolved)| {
        let decider = match &resolved.decider {
            Some(d) => {
                let show = {
                    let (dd, i) = (dispatch.clone(), d.index);
                    Callback::from(move |_: MouseEvent| dd.emit(Action::PickEvent(i)))
                };
                html! {
                    <div class="lesson-decider" data-testid="lesson-decider" data-index={d.index.to_string()}>
                        <p>{ tr.f(msg::LESSON_DECIDED_BY, &[("at", &fmt_ms(d.event.time_ms))]) }</p>
                        <p class="decider-what"><strong>{ event_text::what(&d.event.kind, tr) }</strong></p>
                        if let Some(why) = event_text::why(&d.event, tr) {
                            <p class="decider-plain">{ why }</p>
                        }
                        <details class="decider-detail">
                            <summary>{ tr.t(msg::LESSON_KAFKA_DETAIL) }</summary>
                            <p class="decider-why">{ event_text::cause_text(&d.event.cause, tr) }</p>
                        </details>
                        <button class="ghost" onclick={show} data-testid="lesson-show-event">{ tr.t(msg::LESSON_SHOW_EVENT) }</button>
                    </div>
                }
            }
            None => html! {
                <p class="lesson-decider none">{ tr.f(msg::LESSON_NO_DECIDER, &[("at", &fmt_ms(resolved.at_ms))]) }</p>
            },
        };
        html! {
            <div class={classes!("lesson-grade", grade_class(g.correct))} data-testid="lesson-grade"
                 data-correct={g.correct.to_string()}>
                <p class="lesson-verdict" role="status">
                    <span class="mark" aria-hidden="true">{ if g.correct { "✓" } else { "✗" } }</span>
                    { if g.correct { tr.t(msg::LESSON_RIGHT) } else { tr.t(msg::LESSON_WRONG) } }
                </p>
                <p class="lesson-prompt">{ rich(q.prompt.get(lang)) }</p>
                <p>{ tr.f(msg::LESSON_YOUR_ANSWER, &[("answer", &answer_text(a, q, tr, lang))]) }</p>
                if !g.correct {
                    <p data-testid="lesson-expected">{ tr.f(msg::LESSON_RUN_ANSWER, &[("answer", &value_text(&g.expected, q, tr, lang))]) }</p>
                }
                { decider }
            </div>
        }
    });
    html! {
        <div class="lesson-shown">
            { grade.unwrap_or_default() }
            <p class="lesson-text" data-testid="lesson-text">{ rich(step.text.get(lang)) }</p>
            <div class="lesson-actions">
                <button class="primary" onclick={next} data-testid="lesson-next">
                    { if last { tr.t(msg::LESSON_FINISH) } else { tr.t(msg::LESSON_NEXT) } }
                </button>
            </div>
        </div>
    }
}

/// The class of a grade's box.
fn grade_class(correct: bool) -> &'static str {
    match correct {
        true => "right",
        false => "wrong",
    }
}

/// A question and its answer form.
#[derive(Properties)]
pub struct QuestionProps {
    /// The question.
    pub question: Rc<Question>,
    /// The page's words.
    pub tr: Tr,
    /// The page's actions.
    pub dispatch: Callback<Action>,
    /// The id of the prompt (unique on the page).
    pub prompt_id: AttrValue,
}

impl PartialEq for QuestionProps {
    fn eq(&self, o: &Self) -> bool {
        // The callback always does the same thing.
        Rc::ptr_eq(&self.question, &o.question) && self.tr == o.tr && self.prompt_id == o.prompt_id
    }
}

/// A question waiting for its answer: options to pick, a number to type, or brokers to click
/// (in the graph, or here).
#[component]
pub fn QuestionForm(props: &QuestionProps) -> Html {
    let picked = use_state(|| None::<usize>);
    let text = use_state(String::new);
    let problem = use_state(|| None::<String>);
    let tr = &props.tr;
    let lang = lesson_lang(tr);
    let q = &props.question;
    let d = props.dispatch.clone();
    let prompt_id = props.prompt_id.clone();
    let form = match &q.kind {
        QuestionKind::Choice { options } => {
            let onsubmit = {
                let (picked, problem, d, tr) =
                    (picked.clone(), problem.clone(), d.clone(), tr.clone());
                Callback::from(move |e: SubmitEvent| {
                    e.prevent_default();
                    match *picked {
                        Some(i) => d.emit(Action::LessonAnswer(Answer::Choice(i))),
                        None => problem.set(Some(tr.t(msg::LESSON_PICK_ONE))),
                    }
                })
            };
            html! {
                <form class="lesson-form" {onsubmit}>
                    <fieldset aria-describedby={prompt_id.clone()}>
                        <legend class="visually-hidden">{ tr.t(msg::LESSON_QUESTION) }</legend>
                        { for options.iter().enumerate().map(|(i, o)| {
                            let onchange = {
                                let (picked, problem) = (picked.clone(), problem.clone());
                                Callback::from(move |_: Event| { picked.set(Some(i)); problem.set(None); })
                            };
                            html! {
                                <label class={classes!("lesson-option", (*picked == Some(i)).then_some("on"))}>
                                    <input type="radio" name="lesson-option" value={i.to_string()} checked={*picked == Some(i)} {onchange}
                                           data-testid="lesson-option" />
                                    <span>{ rich(o.label.get(lang)) }</span>
                                </label>
                            }
                        }) }
                    </fieldset>
                    <button class="primary" type="submit" data-testid="lesson-submit">{ tr.t(msg::LESSON_ANSWER) }</button>
                </form>
            }
        }
        QuestionKind::Number { tolerance } => {
            let oninput = {
                let (text, problem) = (text.clone(), problem.clone());
                Callback::from(move |e: InputEvent| {
                    if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                        text.set(i.value());
                        problem.set(None);
                    }
                })
            };
            let onsubmit = {
                let (text, problem, d, tr) = (text.clone(), problem.clone(), d.clone(), tr.clone());
                Callback::from(move |e: SubmitEvent| {
                    e.prevent_default();
                    let t = text.trim().replace(',', ".");
                    match t.parse::<f64>() {
                        Ok(x) if x.is_finite() => d.emit(Action::LessonAnswer(Answer::Number(x))),
                        _ => problem.set(Some(tr.f(msg::LESSON_NOT_A_NUMBER, &[("text", &*text)]))),
                    }
                })
            };
            let never = {
                let d = d.clone();
                Callback::from(move |_: MouseEvent| d.emit(Action::LessonAnswer(Answer::Never)))
            };
            let unit = unit(q, tr);
            let tol = if *tolerance > 0.0 {
                tr.f(
                    msg::LESSON_TOLERANCE,
                    &[
                        ("tolerance", &fmt_number(*tolerance)),
                        ("unit", &unit.clone().unwrap_or_default()),
                    ],
                )
                .trim_end()
                .to_string()
            } else {
                tr.t(msg::LESSON_TOLERANCE_EXACT)
            };
            html! {
                <form class="lesson-form number" {onsubmit}>
                    <label class="lesson-number-field">
                        <span>{ tr.t(msg::LESSON_NUMBER_LABEL) }</span>
                        <input type="text" inputmode="decimal" value={(*text).clone()} {oninput} aria-describedby={prompt_id.clone()}
                               autocomplete="off" data-testid="lesson-number" />
                        if let Some(u) = unit {
                            <span class="unit">{ u }</span>
                        }
                    </label>
                    <span class="tolerance" data-testid="lesson-tolerance">{ tol }</span>
                    <button class="primary" type="submit" data-testid="lesson-submit">{ tr.t(msg::LESSON_ANSWER) }</button>
                    if q.accepts_never() {
                        <button type="button" class="ghost" onclick={never} data-testid="lesson-never">{ tr.t(msg::LESSON_NEVER) }</button>
                    }
                </form>
            }
        }
        QuestionKind::Node { brokers } => html! {
            <div class="lesson-form node">
                <p>{ tr.t(msg::LESSON_PICK_NODE) }</p>
                <div class="lesson-brokers" role="group" aria-describedby={prompt_id.clone()}>
                    { for brokers.iter().map(|b| {
                        let (d, b) = (d.clone(), *b);
                        let onclick = Callback::from(move |_: MouseEvent| d.emit(Action::LessonAnswer(Answer::Node(b))));
                        html! {
                            <button class="ghost" {onclick} data-testid="lesson-broker" data-broker={b.to_string()}>
                                { tr.f(msg::LESSON_BROKER, &[("broker", &b)]) }
                            </button>
                        }
                    }) }
                </div>
            </div>
        },
    };
    html! {
        <div class="lesson-question" data-kind={q.kind.name()}>
            <p class="lesson-prompt" id={prompt_id}><span class="now-tag try">{ tr.t(msg::LESSON_QUESTION) }</span>{ rich(q.prompt.get(lang)) }</p>
            { form }
            if let Some(p) = &*problem {
                <p class="lesson-problem" role="alert">{ p.clone() }</p>
            }
        </div>
    }
}

/// Marks the log's entry of the event that decided the shown step's answer and brings it
/// into view (the log is drawn again as events come, so the mark is set after each render).
pub fn mark_decider(root: &NodeRef, index: Option<usize>) {
    let Some(root) = root.cast::<Element>() else {
        return;
    };
    if let Ok(old) = root.query_selector_all("li.event[data-decider]") {
        for i in 0..old.length() {
            if let Some(el) = old.get(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                if index.is_none_or(|x| el.get_attribute("data-index") != Some(x.to_string())) {
                    let _ = el.remove_attribute("data-decider");
                }
            }
        }
    }
    let Some(i) = index else { return };
    if let Ok(Some(el)) = root.query_selector(&format!("li.event[data-index=\"{i}\"]")) {
        if el.get_attribute("data-decider").is_none() {
            let _ = el.set_attribute("data-decider", "true");
            let opts = web_sys::ScrollIntoViewOptions::new();
            opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
            el.scroll_into_view_with_scroll_into_view_options(&opts);
        }
    }
}

/// The lessons' effects on the page: the list fetched when it is shown, a lesson fetched when
/// asked for, and the deciding event marked in the log while a step is shown.
#[hook]
pub fn use_lessons(model: &UseReducerHandle<Model>, root: &NodeRef) {
    {
        let d = model.dispatcher();
        let loading = matches!(*model.catalog, Catalog::Loading);
        use_effect_with(loading, move |loading| {
            if *loading {
                fetch_catalog(Callback::from(move |a| d.dispatch(a)));
            }
        });
    }
    {
        let d = model.dispatcher();
        use_effect_with(model.lesson_wanted.clone(), move |wanted| {
            if let Some(id) = wanted {
                fetch_lesson(id.clone(), Callback::from(move |a| d.dispatch(a)));
            }
        });
    }
    let decider = shown_decider(model);
    {
        let root = root.clone();
        use_effect(move || mark_decider(&root, decider));
    }
    // A step's verdict or the lesson's end, once shown, is brought into view: a learner who
    // answered by tapping a broker further down (a phone), or who watched the graph, would not
    // see it appear above.
    let shown_step = model
        .lesson
        .as_ref()
        .filter(|r| !r.left && matches!(r.play.phase, Phase::Shown | Phase::Done))
        .map(|r| {
            (
                r.lesson.id.clone(),
                r.play.step,
                r.play.phase == Phase::Done,
            )
        });
    let root = root.clone();
    use_effect_with(shown_step, move |shown| {
        if shown.is_some() {
            reveal_card(&root);
        }
    });
}

/// Scrolls the lesson's card into view when its top is above the viewport or its verdict
/// below it.
fn reveal_card(root: &NodeRef) {
    let Some(root) = root.cast::<Element>() else {
        return;
    };
    let Ok(Some(card)) = root.query_selector("[data-testid=\"lesson\"]") else {
        return;
    };
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let r = card.get_bounding_client_rect();
    if r.top() < 0.0 || r.top() > height * 0.6 {
        let opts = web_sys::ScrollIntoViewOptions::new();
        opts.set_block(web_sys::ScrollLogicalPosition::Start);
        card.scroll_into_view_with_scroll_into_view_options(&opts);
    }
}

/// Whether a lesson's question waits for the learner's answer now.
pub fn question_waits(m: &Model) -> bool {
    m.lesson
        .as_ref()
        .is_some_and(|r| !r.left && r.play.phase == Phase::Ask)
}

/// Whether the run has reached the point where the question waiting for its answer is asked:
/// the clock cannot go on until it is answered, so play and next-event wait too.
pub fn run_waits_for_answer(m: &Model, now_ms: u64) -> bool {
    question_waits(m)
        && m.lesson
            .as_ref()
            .is_some_and(|r| now_ms >= r.play.stop_ms(&r.lesson))
}

/// The index of the event that decided the answer of the lesson step shown, if any.
pub fn shown_decider(m: &Model) -> Option<usize> {
    m.lesson
        .as_ref()
        .filter(|r| !r.left && r.play.phase == Phase::Shown)
        .and_then(|r| r.resolution.for_step(r.play.step))
        .and_then(|x| x.decider.as_ref())
        .map(|d| d.index)
}

/// Whether the lesson asks the learner to click a broker now: the graph's clicks answer it.
pub fn asks_for_a_broker(m: &Model) -> bool {
    m.lesson.as_ref().is_some_and(|r| {
        !r.left
            && r.play.phase == Phase::Ask
            && r.lesson.steps.get(r.play.step).is_some_and(|s| {
                matches!(
                    s.question.as_ref().map(|q| &q.kind),
                    Some(QuestionKind::Node { .. })
                )
            })
    })
}

/// The graph's clicks: while the lesson asks for a broker, a click on one answers it; else
/// they act on the cluster.
pub fn graph_commands(m: &Model, dispatch: &Callback<Action>) -> Callback<crate::sim::Command> {
    use crate::sim::Command;
    let (d, asking) = (dispatch.clone(), asks_for_a_broker(m));
    Callback::from(move |c: Command| match c {
        Command::Crash(b) | Command::Start(b) | Command::Shutdown(b) if asking => {
            d.emit(Action::LessonAnswer(Answer::Node(b)))
        }
        other => d.emit(Action::Apply(other)),
    })
}
