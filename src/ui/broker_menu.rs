//! A broker's menu, as a popover beside its node: the items of [`crate::view::menu`], each a
//! button. It takes the focus when it opens; arrow keys and Tab move through its buttons
//! (Tab stays in it), Escape closes it and the page gives the focus back to the node.

use super::a11y::{focus, focused};
use crate::i18n::{msg, Tr};
use crate::sim::{BrokerId, Command};
use crate::view::menu::MenuItem;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

/// The menu's inputs.
#[derive(Properties, PartialEq)]
pub struct BrokerMenuProps {
    /// The broker.
    pub broker: BrokerId,
    /// Its items.
    pub items: Vec<MenuItem>,
    /// Where it sits in the graph's box (px from its left and top).
    pub left: f64,
    /// See `left`.
    pub top: f64,
    /// The id of its title (unique to this playground).
    pub title_id: AttrValue,
    /// An item was chosen: its command.
    pub on_command: Callback<Command>,
    /// "Details" was chosen: the broker's panel.
    pub on_details: Callback<BrokerId>,
    /// Closes it (the page gives the focus back to the node).
    pub on_close: Callback<()>,
    /// The page's words.
    pub tr: Tr,
}

/// The menu's buttons that `selector` picks, in order.
fn buttons(menu: &NodeRef, selector: &str) -> Vec<Element> {
    let Some(list) = menu
        .cast::<Element>()
        .and_then(|m| m.query_selector_all(selector).ok())
    else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i).and_then(|n| n.dyn_into::<Element>().ok()))
        .collect()
}

/// The menu.
#[component]
pub fn BrokerMenu(props: &BrokerMenuProps) -> Html {
    let menu = use_node_ref();
    // Placed through the style object, not a `style` attribute in the markup: the page runs under
    // a Content-Security-Policy without 'unsafe-inline' styles, which refuses such attributes.
    {
        let menu = menu.clone();
        let at = (props.left.round() as i64, props.top.round() as i64);
        use_effect_with(at, move |(left, top)| {
            if let Some(el) = menu.cast::<web_sys::HtmlElement>() {
                let style = el.style();
                let _ = style.set_property("left", &format!("{left}px"));
                let _ = style.set_property("top", &format!("{top}px"));
            }
        });
    }
    {
        let menu = menu.clone();
        use_effect_with(props.broker, move |_| {
            if let Some(first) = buttons(&menu, ".menu-items button").first() {
                focus(first);
            }
        });
    }
    let onkeydown = {
        let (menu, on_close) = (menu.clone(), props.on_close.clone());
        Callback::from(move |e: KeyboardEvent| {
            let key = e.key();
            if key == "Escape" {
                e.prevent_default();
                e.stop_propagation();
                on_close.emit(());
                return;
            }
            let step: i32 = match key.as_str() {
                "ArrowDown" | "ArrowRight" => 1,
                "ArrowUp" | "ArrowLeft" => -1,
                "Tab" if e.shift_key() => -1,
                "Tab" => 1,
                "Home" | "End" => 0,
                _ => return,
            };
            // The arrows move through the items; Tab through every button, the close one too.
            let all = buttons(
                &menu,
                if key == "Tab" {
                    "button"
                } else {
                    ".menu-items button"
                },
            );
            let n = all.len() as i32;
            if n == 0 {
                return;
            }
            e.prevent_default();
            // Keys inside the menu are not the page's shortcuts.
            e.stop_propagation();
            let at = focused().and_then(|f| all.iter().position(|b| *b == f));
            let next = match (key.as_str(), at) {
                ("Home", _) => 0,
                ("End", _) => n - 1,
                (_, Some(i)) => (i as i32 + step).rem_euclid(n),
                (_, None) => 0,
            };
            focus(&all[next as usize]);
        })
    };
    let close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    let details = {
        let (on_details, id) = (props.on_details.clone(), props.broker);
        Callback::from(move |_: MouseEvent| on_details.emit(id))
    };
    let id = props.broker;
    let tr = &props.tr;
    html! {
            <div class="broker-menu" role="group" aria-labelledby={props.title_id.clone()} ref={menu}
                 data-testid="broker-menu" data-broker-menu={id.to_string()} {onkeydown}
    >
                <div class="menu-head">
                    <h2 id={props.title_id.clone()}>{ tr.f(msg::MENU_TITLE, &[("broker", &id)]) }</h2>
                    <button class="ghost close" onclick={close} aria-label={tr.f(msg::MENU_CLOSE_LABEL, &[("broker", &id)])}>{ "×" }</button>
                </div>
                <ul class="menu-items">
                    { for props.items.iter().map(|item| {
                        let on_command = props.on_command.clone();
                        let command = item.command.clone();
                        let onclick = Callback::from(move |_: MouseEvent| on_command.emit(command.clone()));
                        html! {
                            <li>
                                <button class={classes!(item.danger.then_some("danger"))} data-testid={item.testid} {onclick}>
                                    { item.label.clone() }
                                </button>
                            </li>
                        }
                    }) }
                    <li>
                        <button data-testid="menu-details" onclick={details}>{ tr.t(msg::MENU_DETAILS) }</button>
                    </li>
                </ul>
            </div>
        }
}
