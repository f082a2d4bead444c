//! The lessons: their list, steps, questions, answers and grades. The constant's name is the key the Chinese catalogue
//! (`www/i18n/zh-CN.json`) uses.
#![allow(missing_docs)]

messages! {}
