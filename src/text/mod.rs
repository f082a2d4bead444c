//! Plain text that every layer writes: numbers ([`numbers`]). A leaf: it imports nothing of
//! the crate, so the election core, the languages and the page's views all stand on it.

pub mod numbers;
