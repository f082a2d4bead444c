//! The session's links and files: the fragment that reopens a session, opening one (a link,
//! a `session` parameter), and importing a scenario file as a new session.

use super::{stories, Assignor, Host, Model, Said};
use crate::i18n::msg;
use crate::session::MODEL_VERSION;
use crate::session::{Session, Start};
use std::cell::RefCell;
use std::rc::Rc;

impl Model {
    /// The session's link: the fragment (without `#`) that reopens it as it is now.
    pub fn link_fragment(&self) -> String {
        self.host.borrow().session.link()
    }

    /// Opens a link's session, or says why it cannot and changes nothing.
    pub(super) fn open_link(&self, fragment: &str) -> Model {
        match self.model_for_link(fragment) {
            Ok(m) => m,
            Err(e) => {
                let mut m = self.next();
                m.error = Some(self.tr().f(msg::ERR_LINK, &[("why", &e)]));
                m
            }
        }
    }

    pub(super) fn model_for_link(&self, fragment: &str) -> Result<Model, String> {
        let tr = self.tr();
        let link = crate::session::codec::decode(fragment)?;
        let mut m = self.next();
        m.story = None;
        m.imported = None;
        let start = if let Some((_, code)) = link.base.iter().find(|(k, _)| k == "file") {
            if link.base.len() > 1 {
                return Err(tr.t(msg::ERR_LINK_FILE_PARAMS));
            }
            let bytes = crate::session::codec::from_base64url(code)
                .map_err(|e| tr.f(msg::ERR_LINK_FILE_UNREADABLE, &[("why", &e)]))?;
            let text = String::from_utf8(bytes).map_err(|_| tr.t(msg::ERR_LINK_FILE_UTF8))?;
            let sc = crate::scenario::parse(&text)
                .map_err(|e| tr.f(msg::ERR_LINK_FILE, &[("why", &e)]))?;
            let start = Start::from_scenario(link.base.clone(), &sc, &text);
            let title = sc
                .file
                .title
                .clone()
                .unwrap_or_else(|| tr.t(msg::IMPORTED_UNTITLED));
            m.imported = Some(Rc::new((start.clone(), title)));
            start
        } else {
            let (p, errors) = stories::parse_params(&link.base, &Model::limits());
            if !errors.is_empty() {
                return Err(Said::joined(errors).say(&tr));
            }
            let d = Model::default();
            m.seed = p.seed.unwrap_or(d.seed);
            m.profile = p.profile.unwrap_or(d.profile);
            m.brokers = p.brokers.unwrap_or(d.brokers);
            m.partitions = p.partitions.unwrap_or(d.partitions);
            m.rf_wanted = p.rf;
            m.consumers_at_start = p.consumers.unwrap_or(0);
            m.assignor = p.assignor.unwrap_or(Assignor::Range);
            match p.story {
                Some(i) => {
                    let story = stories::load(i, &tr)?;
                    m.story = Some(i);
                    Start::from_scenario(
                        vec![("story".into(), story.name.into())],
                        &story.scenario,
                        &story.text,
                    )
                }
                None => {
                    let (start, error) = m.free_play().start();
                    if let Some(e) = error {
                        return Err(e);
                    }
                    start
                }
            }
        };
        m.seed = start.setup.seed;
        m.profile = start.setup.settings.profile;
        m.brokers = start.setup.brokers.len() as u32;
        let session = Session::replay(start, link.commands.clone(), link.now_ms, link.end_ms)?;
        let anim_now = self.host.borrow().anim_now;
        m.host = Rc::new(RefCell::new(Host::with(session, anim_now)));
        m.generation += 1;
        m.playing = false;
        m.selected = None;
        m.produce_to = None;
        // A link made by another version of the model replays under today's rules.
        m.error = (link.model != MODEL_VERSION).then(|| {
            let note = if link.model < MODEL_VERSION {
                msg::NOTE_MODEL_OLDER
            } else {
                msg::NOTE_MODEL_NEWER
            };
            tr.f(
                note,
                &[("version", &link.model), ("current", &MODEL_VERSION)],
            )
        });
        Ok(m)
    }

    /// Opens a scenario file as a new session, or says why it cannot and changes nothing.
    pub(super) fn import(&self, text: &str) -> Model {
        let parsed = crate::scenario::parse(text);
        let mut m = self.next();
        match parsed {
            Err(e) => {
                m.error = Some(self.tr().f(msg::ERR_FILE, &[("why", &e)]));
                m
            }
            Ok(sc) => {
                // The file rides in links as its compact JSON.
                let compact = serde_json::from_str::<serde_json::Value>(text)
                    .map(|v| v.to_string())
                    .unwrap_or_else(|_| text.to_string());
                let base = vec![(
                    "file".to_string(),
                    crate::session::codec::base64url(compact.as_bytes()),
                )];
                let start = Start::from_scenario(base, &sc, text);
                let title = sc
                    .file
                    .title
                    .clone()
                    .unwrap_or_else(|| self.tr().t(msg::IMPORTED_UNTITLED));
                m.story = None;
                m.imported = None;
                m.imported = Some(Rc::new((start, title)));
                m.reset()
            }
        }
    }
}
