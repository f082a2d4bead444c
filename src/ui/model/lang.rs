//! The page's language: switching it (the session goes on untouched) and the Chinese
//! catalogue's arrival.

use super::Model;
use crate::i18n::{Catalogue, Lang};
use std::rc::Rc;

impl Model {
    /// The page in `lang`, kept as the reader's choice in the browser's storage.
    pub(super) fn set_lang(&self, lang: Lang) -> Model {
        let mut m = self.next();
        m.lang = lang;
        crate::ui::i18n::store_lang(lang);
        m.say_again();
        m
    }

    /// The Chinese catalogue arrived (the page switches to it if Chinese is still wanted),
    /// or could not be fetched: one notice, and the page stays in English.
    pub(super) fn catalogue_arrived(&self, result: Result<Rc<Catalogue>, String>) -> Model {
        let mut m = self.next();
        match result {
            Ok(c) => {
                m.zh = Some(c);
                m.say_again();
            }
            Err(e) if m.lang == Lang::ZhCn => {
                m.notice = Some(format!(
                    "中文文本未能加载，页面继续使用英文。The Chinese text could not be loaded ({e}); the page stays in English."
                ));
            }
            Err(_) => {}
        }
        m
    }
}
