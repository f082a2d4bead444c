//! What the page shows, as plain Rust data computed from the core's views: it compiles and
//! is tested natively, and the Yew page (`ui`, wasm32 only) only renders it and turns
//! presses into commands. No Kafka rule lives here either: the world decides.
//!
//! - [`format`](mod@format): wording shared by the page's parts (states, countdowns,
//!   accessible names);
//! - [`flights`]: which of the world's messages are drawn in flight, and when;
//! - [`geometry`] and [`layout`]: where the graph puts ZooKeeper, the brokers, the producer
//!   and the consumers, and the ways between them;
//! - [`graph`]: the cluster graph's shapes for one frame; [`svg`]: their markup, as the
//!   [`markup`] tree the page renders or as an SVG string;
//! - [`waits`]: every countdown a learner waits on, as words;
//! - [`first_steps`]: the choices made for a learner who has not made them yet;
//! - [`setup`]: free play's world; [`frame`]: the default page's first frame, natively;
//! - [`announce`]: the latest key event in a sentence and what to try next; [`menu`]: a
//!   broker's menu; [`shortcuts`]: the keyboard shortcuts;
//! - [`stories`]: the stories' titles, read from their files when the crate is built;
//! - [`embed`]: embedding the page elsewhere (the API's options, parent origins and
//!   messages);

pub mod announce;
pub mod command_text;
pub mod embed;
pub mod first_steps;
pub mod flights;
pub mod format;
pub mod frame;
pub mod geometry;
pub mod graph;
pub mod layout;
pub mod markup;
pub mod menu;
pub mod setup;
pub mod shortcuts;
pub mod stories;
pub mod svg;
pub mod trig;
pub mod waits;

#[cfg(test)]
mod announce_test;
#[cfg(test)]
mod causes_true_test;
#[cfg(test)]
mod embed_test;
#[cfg(test)]
mod first_steps_test;
#[cfg(test)]
mod format_test;
#[cfg(test)]
mod frame_test;
#[cfg(test)]
mod i18n_test;
#[cfg(test)]
mod layout_test;
#[cfg(test)]
mod shortcuts_test;
#[cfg(test)]
mod waits_test;
