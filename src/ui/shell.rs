//! The parts of the page around the graph: the tabs that narrow screens show one at a time
//! (Cluster, Log, Partitions, Group, Explain; wide screens show every part and hide the tab
//! bar), the strip beside the graph that says what just happened and what to try next, and
//! the language switch.

use super::a11y::focus;
use super::model::Action;
use crate::i18n::{msg, Lang, Msg, Tr};
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

/// A part of the page, shown alone on a narrow screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// The graph, the latest event, what to try and the broker actions.
    Cluster,
    /// The event log.
    Log,
    /// The partition table and the producer.
    Partitions,
    /// The consumer group.
    Group,
    /// What the page shows and how to read it.
    Explain,
}

impl Tab {
    /// Every tab, in order.
    pub const ALL: [Tab; 5] = [
        Tab::Cluster,
        Tab::Log,
        Tab::Partitions,
        Tab::Group,
        Tab::Explain,
    ];

    /// Its name, as the tab bar and the ids say it.
    pub fn name(self) -> &'static str {
        match self {
            Tab::Cluster => "cluster",
            Tab::Log => "log",
            Tab::Partitions => "partitions",
            Tab::Group => "group",
            Tab::Explain => "explain",
        }
    }

    fn title(self) -> Msg {
        match self {
            Tab::Cluster => msg::TAB_CLUSTER,
            Tab::Log => msg::TAB_LOG,
            Tab::Partitions => msg::TAB_PARTITIONS,
            Tab::Group => msg::TAB_GROUP,
            Tab::Explain => msg::TAB_EXPLAIN,
        }
    }
}

/// The id of tab `t`'s button in playground `uid`.
pub fn tab_id(uid: u32, t: Tab) -> String {
    format!("kep{uid}-tab-{}", t.name())
}

/// The id of tab `t`'s part of the page in playground `uid`.
pub fn panel_id(uid: u32, t: Tab) -> String {
    format!("kep{uid}-part-{}", t.name())
}

/// The attributes a part of the page shown under tab `t` carries: its classes (hidden on a
/// narrow screen unless `t` is `current`), and its tab panel role.
pub fn part_classes(t: Tab, current: Tab) -> Classes {
    classes!(
        "part",
        format!("part-{}", t.name()),
        (t != current).then_some("off-tab")
    )
}

/// The tab bar (shown on narrow screens only). Arrow keys move between the tabs.
pub fn tab_bar(uid: u32, current: Tab, tabs: &[Tab], on_change: &Callback<Tab>, tr: &Tr) -> Html {
    let list = tabs.to_vec();
    let onkeydown = {
        let (on_change, list) = (on_change.clone(), list.clone());
        Callback::from(move |e: KeyboardEvent| {
            let step: i32 = match e.key().as_str() {
                "ArrowRight" => 1,
                "ArrowLeft" => -1,
                _ => return,
            };
            let Some(i) = list.iter().position(|t| *t == current) else {
                return;
            };
            e.prevent_default();
            let n = list.len() as i32;
            let next = list[(i as i32 + step).rem_euclid(n) as usize];
            on_change.emit(next);
            // The new tab's button takes the focus.
            if let Some(el) = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|t| t.parent_element())
                .and_then(|bar| {
                    bar.query_selector(&format!("[data-tab=\"{}\"]", next.name()))
                        .ok()
                        .flatten()
                })
            {
                focus(&el);
            }
        })
    };
    html! {
        <div class="tabs" role="tablist" aria-label={tr.t(msg::TABS_LABEL)} {onkeydown}>
            { for list.iter().map(|t| {
                let t = *t;
                let on = t == current;
                let onclick = {
                    let on_change = on_change.clone();
                    Callback::from(move |_: MouseEvent| on_change.emit(t))
                };
                html! {
                    <button role="tab" id={tab_id(uid, t)} aria-controls={panel_id(uid, t)}
                            aria-selected={on.to_string()} tabindex={if on { "0" } else { "-1" }}
                            class={classes!("tab", on.then_some("on"))} data-tab={t.name()} {onclick}>
                        { tr.t(t.title()) }
                    </button>
                }
            }) }
        </div>
    }
}

/// What just happened (the latest key event) and what to try next, beside the graph.
pub fn now_strip(latest: Option<String>, next: Option<String>, story: Html, tr: &Tr) -> Html {
    html! {
        <section class="now" aria-label={tr.t(msg::NOW_LABEL)} data-testid="now">
            <p class="now-latest" data-testid="now-latest">
                <span class="now-tag">{ tr.t(msg::NOW_TAG) }</span>
                { latest.unwrap_or_else(|| tr.t(msg::NOW_NOTHING)) }
            </p>
            if let Some(next) = next {
                <p class="now-next" data-testid="now-next">
                    <span class="now-tag try">{ tr.t(msg::NOW_TRY) }</span>{ next }
                </p>
            }
            { story }
        </section>
    }
}

/// The language switch: each language by its own name, the one shown pressed.
pub fn lang_switch(lang: Lang, tr: &Tr, dispatch: &Callback<Action>) -> Html {
    html! {
        <div class="lang-switch" role="group" aria-label={tr.t(msg::LANG_SWITCH_LABEL)} data-testid="lang-switch">
            { for Lang::ALL.iter().map(|l| {
                let l = *l;
                let onclick = {
                    let d = dispatch.clone();
                    Callback::from(move |_: MouseEvent| d.emit(Action::SetLang(l)))
                };
                html! {
                    <button class={classes!("ghost", (l == lang).then_some("on"))} lang={l.code()}
                            aria-pressed={(l == lang).to_string()} data-lang={l.code()}
                            title={tr.f(msg::LANG_SWITCH_TITLE, &[("language", &l.own_name())])} {onclick}>
                        { l.own_name() }
                    </button>
                }
            }) }
        </div>
    }
}
