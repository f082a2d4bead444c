//! The Yew page (wasm32 only).
