//! The event log: each event's plain sentence, in the reader's language. The constant's name is the key the Chinese catalogue
//! (`www/i18n/zh-CN.json`) uses.
#![allow(missing_docs)]

messages! {}
