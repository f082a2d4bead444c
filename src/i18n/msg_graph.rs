//! The graph's labels and status lines, and the panels beside it (brokers, partitions, groups). The constant's name is the key the Chinese catalogue
//! (`www/i18n/zh-CN.json`) uses.
#![allow(missing_docs)]

messages! {}
