//! The causes: each rule's sentence with its figures (the Kafka detail of an event). The constant's name is the key the Chinese catalogue
//! (`www/i18n/zh-CN.json`) uses.
#![allow(missing_docs)]

messages! {}
