//! The cluster graph on the page: the model of [`crate::view::graph`] (what to draw, where,
//! and what a press does), rendered as Yew's virtual DOM from its markup
//! ([`crate::view::svg`]). This file decides nothing: it hands a press's command to the
//! world, or the broker whose panel or menu it opens to the page.

use crate::sim::{BrokerId, Command};
use crate::view::graph::{graph as graph_model, Press};
use crate::view::markup::{Element, Node};
use crate::view::svg::graph_element;
use yew::prelude::*;
use yew::virtual_dom::{Key, VList, VNode, VTag, VText};

pub use crate::view::graph::GraphView;

/// Where a press goes: commands to the world, the panel's broker, a consumer to add, the
/// broker whose menu opens.
pub struct Handlers<'a> {
    /// Commands to the world.
    pub on_command: &'a Callback<Command>,
    /// The broker whose panel opens (`None`: it closes).
    pub on_select: &'a Callback<Option<BrokerId>>,
    /// The group a consumer joins.
    pub on_add: &'a Callback<String>,
    /// The broker whose menu opens beside its node.
    pub on_menu: &'a Callback<BrokerId>,
}

/// Renders the graph.
pub fn graph(v: &GraphView<'_>, handlers: &Handlers<'_>) -> Html {
    element(graph_element(&graph_model(v)), handlers)
}

// The markup is built afresh for every frame and consumed here: its strings move into the
// virtual DOM instead of being copied.
fn node(n: Node, h: &Handlers<'_>) -> Html {
    match n {
        Node::Element(e) => element(e, h),
        Node::Text(t) => VNode::VText(VText::new(t)),
        Node::List(list) => VNode::from(VList::with_children(
            list.into_iter().map(|n| node(n, h)).collect(),
            None,
        )),
    }
}

fn element(e: Element, h: &Handlers<'_>) -> Html {
    let mut tag = match &e.press {
        Some(p) => pressable(e.tag, p, h),
        None => VTag::new(e.tag),
    };
    // In the order `html!` gives them: the class last.
    let mut class = None;
    for (name, value) in e.attrs {
        if name == "class" {
            class = Some(value);
        } else {
            tag.add_attribute(name, value);
        }
    }
    if let Some(value) = class {
        tag.add_attribute("class", value);
    }
    tag.add_children(e.children.into_iter().map(|n| node(n, h)));
    tag.key = e.key.map(Key::from);
    tag.into()
}

/// Whether a key press activates a button: Enter or Space.
fn activates(e: &KeyboardEvent) -> bool {
    e.key() == "Enter" || e.key() == " "
}

/// An element `tag` that carries out `press`: on a click, and (when it is focusable) on
/// Enter or Space.
fn pressable(tag: &'static str, press: &Press, h: &Handlers<'_>) -> VTag {
    let (onclick, onkeydown): (Callback<MouseEvent>, Option<Callback<KeyboardEvent>>) = match press
    {
        Press::Broker { command, panel } => {
            let (on_command, on_select, command, panel) = (
                h.on_command.clone(),
                h.on_select.clone(),
                command.clone(),
                *panel,
            );
            let key = {
                let (on_command, command) = (on_command.clone(), command.clone());
                Callback::from(move |e: KeyboardEvent| {
                    if activates(&e) {
                        e.prevent_default();
                        on_command.emit(command.clone());
                    }
                })
            };
            let click = Callback::from(move |e: MouseEvent| {
                if e.shift_key() {
                    on_select.emit(Some(panel));
                } else {
                    on_command.emit(command.clone());
                }
            });
            (click, Some(key))
        }
        Press::Select { click, key } => {
            let on_select = h.on_select.clone();
            let click = *click;
            let keyed = key.map(|k| {
                let on_select = on_select.clone();
                Callback::from(move |e: KeyboardEvent| {
                    if activates(&e) {
                        e.prevent_default();
                        on_select.emit(Some(k));
                    }
                })
            });
            (
                Callback::from(move |_: MouseEvent| on_select.emit(click)),
                keyed,
            )
        }
        Press::Consumer { command, shift } => {
            let pick = {
                let (command, shift) = (command.clone(), shift.clone());
                move |shift_held: bool| match (&shift, shift_held) {
                    (Some(l), true) => l.clone(),
                    _ => command.clone(),
                }
            };
            let key = {
                let (on_command, pick) = (h.on_command.clone(), pick.clone());
                Callback::from(move |e: KeyboardEvent| {
                    if activates(&e) {
                        e.prevent_default();
                        on_command.emit(pick(e.shift_key()));
                    }
                })
            };
            let on_command = h.on_command.clone();
            (
                Callback::from(move |e: MouseEvent| on_command.emit(pick(e.shift_key()))),
                Some(key),
            )
        }
        Press::Menu { broker } => {
            let broker = *broker;
            let key = {
                let on_menu = h.on_menu.clone();
                Callback::from(move |e: KeyboardEvent| {
                    if activates(&e) {
                        e.prevent_default();
                        on_menu.emit(broker);
                    }
                })
            };
            let on_menu = h.on_menu.clone();
            (
                Callback::from(move |_: MouseEvent| on_menu.emit(broker)),
                Some(key),
            )
        }
        Press::Add { group } => {
            let key = {
                let (on_add, group) = (h.on_add.clone(), group.clone());
                Callback::from(move |e: KeyboardEvent| {
                    if activates(&e) {
                        e.prevent_default();
                        on_add.emit(group.clone());
                    }
                })
            };
            let (on_add, group) = (h.on_add.clone(), group.clone());
            (
                Callback::from(move |_: MouseEvent| on_add.emit(group.clone())),
                Some(key),
            )
        }
    };
    match html! { <@{tag} {onclick} {onkeydown} /> } {
        VNode::VTag(t) => std::rc::Rc::unwrap_or_clone(t),
        _ => VTag::new(tag),
    }
}
