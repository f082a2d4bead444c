//! The page: a one-line header with the controller stat, the toolbar, what just happened and
//! what to try next, the graph with its legend, its brokers' menus and the broker panel, the
//! groups, the partitions, the explanation and the event log. Wide screens show the log
//! beside everything else; narrow ones show one part at a time under tabs
//! ([`super::shell`]). Keyboard shortcuts, the help overlay and the live region are in
//! [`super::a11y`].

use super::a11y::{
    focus, focused, live_region, next_instance, use_listener, HelpDialog, LongPress,
};
use super::address::{listen_for_links, write_link};
use super::broker_menu::BrokerMenu;
use super::controls::controls;
use super::embed::Bridge;
use super::event_log::EventLog;
use super::graph::{graph, GraphView, Handlers};
use super::groups::groups;
use super::hooks::{use_animation_frames, use_box_size};
use super::i18n::{load, mark_document, rich};
use super::later::{use_later, waiting};
use super::lesson::{
    asks_for_a_broker, graph_commands, lesson_card, lessons_button, question_waits, shown_decider,
    use_lessons, LessonList,
};
use super::model::{Action, Model};
use super::overlay::{error_box, notice, play_overlay};
use super::panel::panel;
use super::partitions::partitions;
use super::seen::use_when_seen;
use super::shell::{lang_switch, now_strip, panel_id, part_classes, tab_bar, tab_id, Tab};
use super::stories;
use super::timeline::{compact_timeline, read_file, timeline};
use crate::i18n::{msg, msg_graph as g, Lang, Msg, Tr};
use crate::sim::{fmt_ms, BrokerId, ClusterState, Command};
use crate::view::announce::{latest, next_try};
use crate::view::command_text::command_text;
use crate::view::format::{
    consumer_list, coordinator_keys, is_internal, partition_list, visible_partitions,
};
use crate::view::frame::cut_broker_links;
use crate::view::menu::broker_menu;
use crate::view::shortcuts::{
    lookup, Focus, BROKER_MENU, HELP, JUMP_NEXT, PLAY_PAUSE, STEP_BACK, STEP_FORWARD,
};
use crate::view::waits::without_forecasts;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

const LEGEND: [(&str, Msg); 5] = [
    ("heartbeat", g::LEGEND_HEARTBEAT),
    ("zookeeper", g::LEGEND_ZOOKEEPER),
    ("watch", g::LEGEND_WATCH),
    ("request", g::LEGEND_REQUEST),
    ("response", g::LEGEND_RESPONSE),
];

/// The message classes of replication and the producer (shown when there are partitions).
const LEGEND_DATA: [(&str, Msg); 2] = [("fetch", g::LEGEND_FETCH), ("produce", g::LEGEND_PRODUCE)];

/// The message classes of consumer groups (shown when there is a group).
const LEGEND_GROUP: [(&str, Msg); 1] = [("group", g::LEGEND_GROUP)];

/// The replica badges' states.
const REPLICA_LEGEND: [(&str, &str, Msg); 4] = [
    ("leader", "T-0 e1", g::LEGEND_LEADER),
    ("in_sync", "T-0", g::REPLICA_IN_SYNC),
    ("out_of_sync", "T-0", g::REPLICA_OUT_OF_SYNC),
    ("offline", "T-0", g::LEGEND_OFFLINE),
];

fn controller_stat(state: &ClusterState, tr: &Tr) -> Html {
    let who = match state.controller {
        Some(c) => tr.f(msg::STAT_BROKER, &[("broker", &c)]),
        None => tr.t(msg::STAT_NONE),
    };
    html! {
        // No controller is an alarm once there was one (epoch 1 or more); before the first
        // election it is only the cluster starting.
        <p class={classes!("stat", (state.controller.is_none() && state.controller_epoch > 0).then_some("vacant"))}
           data-testid="controller-epoch">
            <span class="stat-label">{ tr.t(msg::STAT_CONTROLLER) }</span>
            <strong>{ who }</strong>
            <span class="sep" aria-hidden="true">{ " · " }</span>
            <span class="stat-epoch">{ tr.f(msg::STAT_EPOCH, &[("epoch", &state.controller_epoch)]) }</span>
        </p>
    }
}

#[inline(never)]
fn intro(
    (session_timeout_ms, lag_max_ms): (u64, u64),
    profile: &str,
    with_topic: bool,
    with_group: bool,
    tr: &Tr,
) -> Html {
    let li = |m: Msg| html! { <li>{ rich(&tr.t(m)) }</li> };
    html! {
        <section class="intro" aria-label={tr.t(g::INTRO_LABEL)}>
            <p class="subtitle">{ tr.t(g::INTRO_SUBTITLE) }</p>
            <p>{ rich(&tr.f(g::INTRO_CONTROLLER, &[("secs", &(session_timeout_ms / 1000)), ("profile", &profile)])) }</p>
            if with_topic {
                <p>{ rich(&tr.t(g::INTRO_REPLICAS)) }</p>
            }
            if with_group {
                <p>{ rich(&tr.t(g::INTRO_GROUP)) }</p>
            }
            <details class="try">
                <summary>{ tr.t(g::MORE_TO_TRY) }</summary>
                <ul>
                    if with_topic {
                        <li>{ rich(&tr.f(g::TRY_MORE_STALL, &[("secs", &(lag_max_ms / 1000)), ("profile", &profile)])) }</li>
                        { li(g::TRY_MORE_UNCLEAN) }
                        { li(g::TRY_MORE_PREFERRED) }
                    }
                    if with_group {
                        { li(g::TRY_MORE_COORDINATOR) }
                        { li(g::TRY_MORE_LEAVE) }
                    }
                    { li(g::TRY_MORE_RESTART) }
                    { li(g::TRY_MORE_SHUTDOWN) }
                    { li(g::TRY_MORE_PAUSE) }
                    { li(g::TRY_MORE_CUT) }
                    { li(g::TRY_MORE_DELETE) }
                </ul>
            </details>
        </section>
    }
}

/// The story (or imported scenario) being replayed: what it shows and the next scripted step.
#[inline(never)]
fn story_box(
    tag: &str,
    title: String,
    description: String,
    upcoming: Option<(u64, String)>,
    dispatch: &Callback<Action>,
    tr: &Tr,
) -> Html {
    let leave = {
        let d = dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::SetStory(None)))
    };
    html! {
        <section class="intro story" aria-label={tr.t(g::STORY_BOX_LABEL)} data-testid="story-box">
            <p class="story-title"><span class="story-tag">{ tag.to_string() }</span><strong data-testid="story-title">{ title }</strong></p>
            <details class="story-about">
                <summary>{ tr.t(g::STORY_SHOWS) }</summary>
                <p>{ description }</p>
            </details>
            <p class="story-next" data-testid="story-next">
                { match upcoming {
                    Some((at, what)) => html! { <>{ tr.t(g::STORY_NEXT_STEP) }<strong>{ what }</strong>{ tr.f(g::STORY_NEXT_AT, &[("at", &fmt_ms(at))]) }</> },
                    None => html! { { tr.t(g::STORY_ALL_DONE) } },
                } }
            </p>
            <button class="ghost" onclick={leave}>{ tr.t(g::STORY_BACK) }</button>
        </section>
    }
}

#[inline(never)]
fn legend(with_topic: bool, with_group: bool, tr: &Tr) -> Html {
    html! {
        <>
            <ul class="legend" aria-label={tr.t(g::LEGEND_LABEL)}>
                { for LEGEND.iter().map(|(class, text)| {
                    // Consumers heartbeat their coordinator too (drawn smaller, sampled).
                    let text = if with_group && *class == "heartbeat" {
                        g::LEGEND_HEARTBEAT_GROUP
                    } else {
                        *text
                    };
                    html! {
                        <li><span class={classes!("swatch", format!("msg-{class}"))} aria-hidden="true"></span>{ tr.t(text) }</li>
                    }
                }) }
                if with_topic {
                    { for LEGEND_DATA.iter().map(|(class, text)| html! {
                        <li><span class={classes!("swatch", format!("msg-{class}"))} aria-hidden="true"></span>{ tr.t(*text) }</li>
                    }) }
                }
                if with_group {
                    { for LEGEND_GROUP.iter().map(|(class, text)| html! {
                        <li><span class={classes!("swatch", format!("msg-{class}"))} aria-hidden="true"></span>{ tr.t(*text) }</li>
                    }) }
                }
                <li><span class="swatch dropped" aria-hidden="true"></span>{ tr.t(g::LEGEND_DROPPED) }</li>
            </ul>
            if with_topic {
                <ul class="legend replica-legend" aria-label={tr.t(g::LEGEND_REPLICAS_LABEL)}>
                    { for REPLICA_LEGEND.iter().map(|(state, sample, text)| html! {
                        <li><span class={classes!("replica-swatch", format!("rs-{state}"))} aria-hidden="true">{ *sample }</span>{ tr.t(*text) }</li>
                    }) }
                </ul>
            }
        </>
    }
}

/// Where a broker's menu is open: the broker and the menu's place in the graph's box.
#[derive(Debug, Clone, Copy, PartialEq)]
struct MenuAt {
    broker: BrokerId,
    left: f64,
    top: f64,
}

/// The menu's width, as the style sheet gives it at most (px).
const MENU_W: f64 = 270.0;

/// Where broker `id`'s menu goes in the graph's box: to the right of its node, or to its
/// left, or under it when neither side has room.
fn menu_place(root: &Element, id: BrokerId) -> Option<MenuAt> {
    let wrap = root.query_selector(".graph-wrap").ok().flatten()?;
    let node = root
        .query_selector(&format!("g[data-broker=\"{id}\"] .body"))
        .ok()
        .flatten()?;
    let (w, n) = (
        wrap.get_bounding_client_rect(),
        node.get_bounding_client_rect(),
    );
    let (nl, nt, nr, nb) = (
        n.left() - w.left(),
        n.top() - w.top(),
        n.right() - w.left(),
        n.bottom() - w.top(),
    );
    let width = MENU_W.min(w.width() - 16.0);
    let (left, top) = if nr + 8.0 + width <= w.width() - 8.0 {
        (nr + 8.0, nt)
    } else if nl - 8.0 - width >= 8.0 {
        (nl - 8.0 - width, nt)
    } else {
        (
            ((nl + nr) / 2.0 - width / 2.0).clamp(8.0, (w.width() - width - 8.0).max(8.0)),
            nb + 6.0,
        )
    };
    Some(MenuAt {
        broker: id,
        left,
        top: top.max(4.0),
    })
}

/// The broker whose node `target` is (or is inside), if any.
fn broker_of(target: Option<web_sys::EventTarget>) -> Option<(Element, BrokerId)> {
    let el = target?.dyn_into::<Element>().ok()?;
    let node = el.closest("g.node[data-broker]").ok().flatten()?;
    let id = node.get_attribute("data-broker")?.parse().ok()?;
    Some((node, id))
}

/// Where a key was pressed, as the shortcuts see it.
fn focus_kind(target: Option<web_sys::EventTarget>) -> Focus {
    let Some(el) = target.and_then(|t| t.dyn_into::<Element>().ok()) else {
        return Focus::Other;
    };
    let tag = el.tag_name().to_ascii_lowercase();
    let editable = el
        .dyn_ref::<web_sys::HtmlElement>()
        .is_some_and(|h| h.is_content_editable());
    if matches!(tag.as_str(), "input" | "select" | "textarea") || editable {
        Focus::Typing
    } else if el.matches("g.node[data-broker]").unwrap_or(false) {
        Focus::Broker
    } else if matches!(tag.as_str(), "button" | "summary" | "a")
        || el.get_attribute("role").as_deref() == Some("button")
    {
        Focus::Button
    } else {
        Focus::Other
    }
}

/// What the page is mounted with.
#[derive(Properties, PartialEq)]
pub struct AppProps {
    /// The page parameters: the address's (`index.html`), or the JavaScript API's options.
    pub params: Vec<(String, String)>,
    /// Whoever drives the page from outside (the JavaScript API, a parent page), if anyone.
    pub bridge: Option<Bridge>,
    /// Whether the page is the document's own (`#app` of `index.html`): its address then
    /// follows the session. A playground mounted by the JavaScript API leaves its host
    /// page's address alone.
    #[prop_or_default]
    pub own_page: bool,
}

/// The whole page.
#[component]
pub fn App(props: &AppProps) -> Html {
    let model = use_reducer(|| {
        props
            .bridge
            .as_ref()
            .and_then(Bridge::take_initial)
            .unwrap_or_else(|| Model::from_params(&props.params))
    });
    {
        // After each render: the bridge learns the dispatcher and hands on the new events.
        let bridge = props.bridge.clone();
        let model = model.clone();
        use_effect(move || {
            if let Some(b) = bridge {
                b.after_render(&model.dispatcher().to_callback(), &model);
            }
        });
    }
    let uid = *use_state(next_instance);
    let root = use_node_ref();
    let tab = use_state(|| Tab::Cluster);
    let setup_open = use_state(|| false);
    let help = use_state(|| false);
    let menu = use_state(|| None::<MenuAt>);
    // Where the focus was when the help overlay opened: it goes back there.
    let help_return = use_mut_ref(|| None::<Element>);
    use_lessons(&model, &root);
    let long_press = use_memo((), |_| LongPress::default());
    let later = use_later();
    // An embed sizes its graph to the box the host gives it: the graph learns that box's size
    // to draw the layout that fits it best (`view::graph::GraphView::area`).
    let graph_area = use_box_size(&root, ".graph-wrap > svg.graph", model.chrome.embed);
    {
        // The session takes snapshots again once the second part is here (`Host::with`).
        let host = model.host.clone();
        use_effect_with(later, move |later| {
            if later.here() {
                host.borrow_mut().session.hold_snapshots(false);
            }
        });
    }

    {
        let d = model.dispatcher();
        use_animation_frames(Callback::from(move |ts: f64| d.dispatch(Action::Frame(ts))));
    }
    {
        let d = model.dispatcher();
        use_when_seen(Callback::from(move |_| d.dispatch(Action::Seen)));
    }
    let dispatch = {
        let d = model.dispatcher();
        Callback::from(move |a: Action| d.dispatch(a))
    };
    let on_command = {
        let d = model.dispatcher();
        Callback::from(move |c: Command| d.dispatch(Action::Apply(c)))
    };
    let on_select = {
        let d = model.dispatcher();
        Callback::from(move |b: Option<BrokerId>| d.dispatch(Action::Select(b)))
    };
    let on_add = {
        let d = model.dispatcher();
        Callback::from(move |g: String| d.dispatch(Action::AddConsumer(g)))
    };
    let on_key_only = {
        let d = model.dispatcher();
        Callback::from(move |k: bool| d.dispatch(Action::SetKeyOnly(k)))
    };
    let dismiss = {
        let d = model.dispatcher();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::DismissError))
    };
    let open_menu = {
        let (root, menu) = (root.clone(), menu.clone());
        Callback::from(move |id: BrokerId| {
            if let Some(at) = root.cast::<Element>().and_then(|r| menu_place(&r, id)) {
                menu.set(Some(at));
            }
        })
    };
    // Closes the menu; `refocus` gives the focus back to its broker's node.
    let close_menu = {
        let (root, menu) = (root.clone(), menu.clone());
        Callback::from(move |refocus: bool| {
            let Some(at) = *menu else { return };
            menu.set(None);
            if refocus {
                if let Some(node) = root.cast::<Element>().and_then(|r| {
                    r.query_selector(&format!("g.node[data-broker=\"{}\"]", at.broker))
                        .ok()
                        .flatten()
                }) {
                    focus(&node);
                }
            }
        })
    };
    let open_help = {
        let (help, help_return) = (help.clone(), help_return.clone());
        Callback::from(move |_: ()| {
            *help_return.borrow_mut() = focused();
            help.set(true);
        })
    };
    let close_help = {
        let help = help.clone();
        Callback::from(move |_: ()| help.set(false))
    };
    {
        // Once the overlay is gone (and the page no longer inert), the focus goes back.
        let help_return = help_return.clone();
        use_effect_with(*help, move |open| {
            if !*open {
                if let Some(el) = help_return.borrow_mut().take() {
                    focus(&el);
                }
            }
        });
    }

    // The shortcuts: on the document for the page's own playground (they work before anyone
    // clicks into it), else on the playground's root.
    {
        let (d, help, open_help, open_menu) = (
            model.dispatcher(),
            *help,
            open_help.clone(),
            open_menu.clone(),
        );
        use_listener(
            root.clone(),
            "keydown",
            false,
            true,
            Callback::from(move |e: Event| {
                let Some(k) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if help || k.default_prevented() {
                    return;
                }
                let other = k.ctrl_key() || k.alt_key() || k.meta_key();
                let Some(action) = lookup(&k.key(), k.shift_key(), other, focus_kind(k.target()))
                else {
                    return;
                };
                match action {
                    PLAY_PAUSE => {
                        k.prevent_default();
                        d.dispatch(Action::TogglePlay);
                    }
                    HELP => {
                        k.prevent_default();
                        open_help.emit(());
                    }
                    BROKER_MENU => {
                        if let Some((_, id)) = broker_of(k.target()) {
                            k.prevent_default();
                            open_menu.emit(id);
                        }
                    }
                    STEP_FORWARD => {
                        k.prevent_default();
                        d.dispatch(Action::StepForward);
                    }
                    STEP_BACK => {
                        k.prevent_default();
                        d.dispatch(Action::StepBack);
                    }
                    JUMP_NEXT => {
                        k.prevent_default();
                        d.dispatch(Action::JumpNext);
                    }
                    _ => {}
                }
            }),
        );
    }
    // A right click, or a long press that the browser reports as one, opens a broker's menu.
    {
        let open_menu = open_menu.clone();
        use_listener(
            root.clone(),
            "contextmenu",
            false,
            false,
            Callback::from(move |e: Event| {
                if let Some((_, id)) = broker_of(e.target()) {
                    e.prevent_default();
                    open_menu.emit(id);
                }
            }),
        );
    }
    // A long press on a touch screen opens a broker's menu; pressing outside the menu closes it.
    {
        let (lp, open_menu, close_menu, is_open) = (
            long_press.clone(),
            open_menu.clone(),
            close_menu.clone(),
            menu.is_some(),
        );
        use_listener(
            root.clone(),
            "pointerdown",
            true,
            false,
            Callback::from(move |e: Event| {
                let Some(p) = e.dyn_ref::<PointerEvent>() else {
                    return;
                };
                let target = p.target();
                let in_menu = target
                    .clone()
                    .and_then(|t| t.dyn_into::<Element>().ok())
                    .and_then(|el| el.closest(".broker-menu, g.more").ok().flatten())
                    .is_some();
                if is_open && !in_menu {
                    close_menu.emit(false);
                }
                lp.swallow_click.set(false);
                if p.pointer_type() == "mouse" {
                    return;
                }
                if let Some((_, id)) = broker_of(target) {
                    let open_menu = open_menu.clone();
                    lp.start((p.client_x() as f64, p.client_y() as f64), move || {
                        open_menu.emit(id)
                    });
                }
            }),
        );
    }
    {
        let lp = long_press.clone();
        use_listener(
            root.clone(),
            "pointermove",
            true,
            false,
            Callback::from(move |e: Event| {
                if let Some(p) = e.dyn_ref::<PointerEvent>() {
                    let (x, y) = lp.start.get();
                    if (p.client_x() as f64 - x).hypot(p.client_y() as f64 - y) > 10.0 {
                        lp.cancel();
                    }
                }
            }),
        );
    }
    {
        let lp = long_press.clone();
        use_listener(
            root.clone(),
            "pointerup",
            true,
            false,
            Callback::from(move |_: Event| lp.cancel()),
        );
    }
    {
        let lp = long_press.clone();
        use_listener(
            root.clone(),
            "pointercancel",
            true,
            false,
            Callback::from(move |_: Event| lp.cancel()),
        );
    }
    {
        // The click that ends a long press does not crash the broker too.
        let lp = long_press.clone();
        use_listener(
            root.clone(),
            "click",
            true,
            false,
            Callback::from(move |e: Event| {
                if lp.swallow_click.replace(false) {
                    e.prevent_default();
                    e.stop_propagation();
                }
            }),
        );
    }
    let onkeydown = {
        let (d, menu_open) = (model.dispatcher(), menu.is_some());
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" && !menu_open {
                d.dispatch(Action::Select(None));
            }
        })
    };

    let last_link = use_mut_ref(|| (f64::NEG_INFINITY, String::new()));
    let last_lang = use_memo((), |_| std::cell::Cell::new(None::<Lang>));
    {
        let model = model.clone();
        let last_link = last_link.clone();
        let last_lang = last_lang.clone();
        let own = props.own_page;
        use_effect(move || {
            if own {
                write_link(&model, &last_link, &last_lang);
            }
        });
    }
    {
        let d = model.dispatcher();
        let last_link = last_link.clone();
        let own = props.own_page;
        use_effect_with(own, move |own| {
            let stop = own.then(|| listen_for_links(d, last_link));
            move || {
                if let Some(stop) = stop {
                    stop();
                }
            }
        });
    }
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    let ondrop = {
        let (d, tr) = (dispatch.clone(), model.tr());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if let Some(file) = e
                .data_transfer()
                .and_then(|t| t.files())
                .and_then(|f| f.get(0))
            {
                read_file(file, d.clone(), &tr);
            }
        })
    };

    let on_pick = {
        let d = model.dispatcher();
        Callback::from(move |i: usize| d.dispatch(Action::PickEvent(i)))
    };
    {
        // The picked event's nodes wear a highlight (drawn by the style sheet). The graph is
        // drawn again every frame, so the marks are set again after each render.
        let root = root.clone();
        let picked = model.picked.clone();
        use_effect(move || mark_picked(&root, picked.as_ref()));
    }

    {
        // Chinese asked for and not here yet: fetch it (the page shows English meanwhile).
        let d = model.dispatcher();
        use_effect_with((model.lang, model.zh.is_some()), move |(lang, have)| {
            if *lang == Lang::ZhCn && !*have {
                load(Callback::from(move |r| d.dispatch(Action::Catalogue(r))));
            }
        });
    }
    let tr = model.tr();
    {
        let own = props.own_page;
        use_effect_with(tr.clone(), move |tr| {
            if own {
                mark_document(tr);
            }
        });
    }

    let m: &Model = &model;
    let host = m.host.borrow();
    let world = host.world();
    let mut state = world.state();
    if question_waits(m) {
        without_forecasts(&mut state);
    }
    let settings = world.settings();
    let cut_links = cut_broker_links(world);
    let topics = world.topics();
    let plist = partition_list(topics);
    // The graph draws the user's topics; the broker panel adds the partitions holding groups.
    let user_partitions: Vec<_> = plist
        .iter()
        .filter(|r| !is_internal(&r.topic))
        .cloned()
        .collect();
    let panel_partitions = visible_partitions(&plist, &state);
    let with_topic = !user_partitions.is_empty();
    let with_group = !state.groups.is_empty();
    let consumers = consumer_list(&state);
    let add_to: Vec<String> = state
        .groups
        .iter()
        .filter(|(_, g)| m.next_consumer(Some(g)).is_some())
        .map(|(id, _)| id.clone())
        .collect();
    let view = GraphView {
        state: &state,
        session_timeout_ms: settings.zookeeper_session_timeout_ms,
        flights: host.flights.iter().collect(),
        anim_now: host.anim_now,
        speed: m.speed,
        selected: m.selected,
        compact: host.compact
            || graph_area.is_some_and(|(w, _)| w < crate::view::layout::EMBED_NARROW_PX),
        area: graph_area,
        cut_links,
        partitions: &user_partitions,
        topic_count: topics.iter().filter(|t| !is_internal(&t.name)).count(),
        consumers: consumers.clone(),
        add_to,
        tr: tr.clone(),
    };
    let event_count = world.events().len();
    let keep_internal = coordinator_keys(&state);
    let said = latest(world.events(), &tr).map(|(_, at, s)| (at, s));
    let latest_line = said
        .as_ref()
        .map(|(at, s)| format!("t = {}: {s}", fmt_ms(*at)));

    // An embed shows the cluster and the log only: in a narrow mount, one at a time.
    let tabs: Vec<Tab> = Tab::ALL
        .into_iter()
        .filter(|t| match t {
            Tab::Cluster | Tab::Log => true,
            _ if m.chrome.embed => false,
            Tab::Partitions => with_topic,
            Tab::Group => with_group,
            Tab::Explain => true,
        })
        .collect();
    let current = if tabs.contains(&*tab) {
        *tab
    } else {
        Tab::Cluster
    };
    let on_tab = {
        let tab = tab.clone();
        Callback::from(move |t: Tab| tab.set(t))
    };
    let on_setup = {
        let setup_open = setup_open.clone();
        Callback::from(move |_: ()| setup_open.set(!*setup_open))
    };
    let setup_id = format!("kep{uid}-setup");
    let help_button = {
        let open_help = open_help.clone();
        Callback::from(move |_: MouseEvent| open_help.emit(()))
    };
    let part = |t: Tab| part_classes(t, current);
    let upcoming = host
        .session
        .upcoming()
        .first()
        .map(|(at, c)| (*at, command_text(c, &tr)));
    let story = match (&m.imported, m.story) {
        (Some(file), _) => story_box(
            &tr.t(g::STORY_TAG_IMPORTED),
            file.1.clone(),
            file.0.description().unwrap_or_default().to_string(),
            upcoming,
            &dispatch,
            &tr,
        ),
        (None, Some(i)) => story_box(
            &tr.t(g::STORY_TAG),
            stories::title_in(i, &tr),
            stories::description_in(i, &tr),
            upcoming,
            &dispatch,
            &tr,
        ),
        (None, None) => html! {},
    };
    let in_lesson = m.lesson.is_some() || m.lesson_wanted.is_some();
    let story = if in_lesson {
        lesson_card(m, &dispatch, &tr)
    } else {
        story
    };
    let next =
        (m.story.is_none() && m.imported.is_none() && !in_lesson).then(|| next_try(&state, &tr));
    let menu_html = (*menu).and_then(|at| {
        menu_html(
            at,
            &state,
            (with_topic, m.pause_secs().unwrap_or(20), uid),
            (&on_command, &close_menu, &on_select, &menu),
            &tr,
        )
    });
    let graph_command = graph_commands(m, &dispatch);
    let handlers = Handlers {
        on_command: &graph_command,
        on_select: &on_select,
        on_add: &on_add,
        on_menu: &open_menu,
    };
    let tabpanel = |t: Tab| (panel_id(uid, t), tab_id(uid, t));

    let embed = m.chrome.embed;
    html! {
        <div class={classes!("page", "kafka-election", embed.then_some("embed"), in_lesson.then_some("in-lesson"), asks_for_a_broker(m).then_some("lesson-pick"))} ref={root} tabindex="-1" data-tab={current.name()} lang={tr.lang().code()} {onkeydown} {ondragover} {ondrop}>
            <main class={classes!("layout", m.lessons_open.then_some("lessons-open"))} inert={*help}>
                <div class="stage">
                    <header class="top">
                        if !embed {
                            <h1>{ tr.t(msg::TITLE_MAIN) }<span class="hide-phone">{ tr.t(msg::TITLE_REST) }</span></h1>
                        }
                        // The lesson list is about no cluster: no controller to show.
                        if !m.lessons_open {
                            { controller_stat(&state, &tr) }
                        }
                        // Embed mode keeps to one row: `lang` (the parameter or the API's
                        // option) sets its language.
                        if !embed {
                            { lessons_button(m.lessons_open, &tr, &dispatch) }
                            { lang_switch(m.lang, &tr, &dispatch) }
                        }
                        <button class="help-button" onclick={help_button} aria-haspopup="dialog"
                                aria-label={tr.t(msg::HELP_BUTTON_LABEL)} title={tr.t(msg::HELP_BUTTON_TITLE)} data-testid="help">{ "?" }</button>
                    </header>
                    if m.lessons_open {
                        { lesson_list(m, &dispatch, &tr) }
                    } else {
                        <>
                        if m.chrome.controls {
                            { controls(m, state.time_ms, &dispatch, (*setup_open, &setup_id, &on_setup)) }
                            // Embed mode has a compact timeline under the graph instead.
                            if !embed {
                                { timeline(m, &dispatch) }
                            }
                        }
                        { tab_bar(uid, current, &tabs, &on_tab, &tr) }
                        <div class={part(Tab::Cluster)} id={tabpanel(Tab::Cluster).0} role="tabpanel"
                             aria-labelledby={tabpanel(Tab::Cluster).1}>
                            { now_strip(latest_line, next, story, &tr) }
                            <div class="graph-wrap panel">
                                { graph(&view, &handlers) }
                                { menu_html.unwrap_or_default() }
                                { play_overlay(m, &dispatch) }
                            </div>
                            if later.here() {
                                { panel(m, &state, &panel_partitions, &dispatch) }
                            } else {
                                { waiting(later, Some(tr.t(g::PANEL_TITLE)), &tr) }
                            }
                        </div>
                        // Embed mode: one thin timeline row under the graph (where it comes in the
                        // tab order too); `controls=0` hides it with the controls, since the
                        // embedding page then drives everything.
                        if embed && m.chrome.controls {
                            { compact_timeline(m, &dispatch) }
                        }
                        <div class={part(Tab::Explain)} id={tabpanel(Tab::Explain).0} role="tabpanel"
                             aria-labelledby={tabpanel(Tab::Explain).1}>
                            <details class="explain panel">
                                <summary>{ tr.t(g::EXPLAIN_SUMMARY) }</summary>
                                if !later.here() {
                                    { waiting(later, None, &tr) }
                                } else {
                                    if !embed {
                                        { intro((settings.zookeeper_session_timeout_ms, settings.replica_lag_time_max_ms), settings.profile.name(), with_topic, with_group, &tr) }
                                    }
                                    { legend(with_topic, with_group, &tr) }
                                }
                            </details>
                        </div>
                        if with_group {
                            <div class={part(Tab::Group)} id={tabpanel(Tab::Group).0} role="tabpanel"
                                 aria-labelledby={tabpanel(Tab::Group).1}>
                                if later.here() {
                                    { groups(m, &state, &consumers, settings, &dispatch) }
                                } else {
                                    { waiting(later, Some(tr.t(g::GROUP_TITLE).trim_end().to_string()), &tr) }
                                }
                            </div>
                        }
                        if with_topic {
                            <div class={part(Tab::Partitions)} id={tabpanel(Tab::Partitions).0} role="tabpanel"
                                 aria-labelledby={tabpanel(Tab::Partitions).1}>
                                if later.here() {
                                    { partitions(m, &state, topics, &dispatch) }
                                } else {
                                    { waiting(later, Some(tr.t(g::PARTITIONS_TITLE_H)), &tr) }
                                }
                            </div>
                        }
                        </>
                    }
                </div>
                if !m.lessons_open {
                <div class={classes!(part(Tab::Log), "log-wrap")} id={tabpanel(Tab::Log).0} role="tabpanel"
                     aria-labelledby={tabpanel(Tab::Log).1}>
                    <EventLog host={m.host.clone()} count={event_count} generation={m.generation}
                              title_id={m.chrome.id("log-title")}
                              key_only={m.key_only} {keep_internal} {on_key_only} {on_pick} tr={tr.clone()}
                              also={shown_decider(m)} shown={current == Tab::Log} asking={question_waits(m)} />
                </div>
                }
            </main>
            if let Some(n) = &m.notice {
                { notice(n, dismiss.clone(), &tr) }
            }
            { live_region(said.map(|(_, s)| s)) }
            if *help {
                <HelpDialog title_id={format!("kep{uid}-help-title")} on_close={close_help} tr={tr.clone()} />
            }
            if let Some(err) = &m.error {
                { error_box(err, dismiss, &tr) }
            }
        </div>
    }
}

/// A broker's menu, open at `at` (`None` if the broker is gone). In functions of their own,
/// here and below, what the first view does not draw: the build leaves it to the module's
/// second part.
#[inline(never)]
#[allow(clippy::type_complexity)]
fn menu_html(
    at: MenuAt,
    state: &ClusterState,
    (with_topic, pause_secs, uid): (bool, u64, u32),
    (on_command, close_menu, on_select, menu): (
        &Callback<Command>,
        &Callback<bool>,
        &Callback<Option<BrokerId>>,
        &UseStateHandle<Option<MenuAt>>,
    ),
    tr: &Tr,
) -> Option<Html> {
    let b = state.brokers.get(&at.broker)?;
    let items = broker_menu(at.broker, b, with_topic, pause_secs, tr);
    let on_command = {
        let (on_command, close_menu) = (on_command.clone(), close_menu.clone());
        Callback::from(move |c: Command| {
            on_command.emit(c);
            close_menu.emit(true);
        })
    };
    let on_details = {
        let (on_select, menu) = (on_select.clone(), menu.clone());
        Callback::from(move |id: BrokerId| {
            menu.set(None);
            on_select.emit(Some(id));
        })
    };
    let on_close = {
        let close_menu = close_menu.clone();
        Callback::from(move |_: ()| close_menu.emit(true))
    };
    Some(html! {
        <BrokerMenu broker={at.broker} {items} left={at.left} top={at.top} tr={tr.clone()}
                    title_id={format!("kep{uid}-menu-title")} {on_command} {on_details} {on_close} />
    })
}

/// The list of lessons, in place of the cluster.
#[inline(never)]
fn lesson_list(m: &Model, dispatch: &Callback<Action>, tr: &Tr) -> Html {
    html! {
        <LessonList catalog={m.catalog.clone()} progress={m.progress.clone()} tr={tr.clone()}
                    dispatch={dispatch.clone()} title_id={m.chrome.id("lessons-title")} />
    }
}

/// Marks the nodes of the picked event (`data-picked`) and unmarks the others.
fn mark_picked(root: &NodeRef, picked: Option<&(u64, Vec<BrokerId>, Vec<String>)>) {
    let Some(root) = root.cast::<Element>() else {
        return;
    };
    let Ok(nodes) = root.query_selector_all("svg g.node[data-broker], svg g[data-member]") else {
        return;
    };
    for i in 0..nodes.length() {
        let Some(el) = nodes.get(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let on = picked.is_some_and(|(_, brokers, members)| {
            el.get_attribute("data-broker")
                .and_then(|b| b.parse::<BrokerId>().ok())
                .is_some_and(|b| brokers.contains(&b))
                || el
                    .get_attribute("data-member")
                    .is_some_and(|m| members.contains(&m))
        });
        let _ = if on {
            el.set_attribute("data-picked", "true")
        } else {
            el.remove_attribute("data-picked")
        };
    }
}
