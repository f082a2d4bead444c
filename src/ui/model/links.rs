//! The session's links and files: the fragment that reopens a session, opening one (a link,
//! a `session` parameter), and importing a scenario file as a new session.

use super::{stories, Assignor, Host, Model};
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
                m.error = Some(format!(
                    "The link could not be opened: {e}. The session shown is unchanged."
                ));
                m
            }
        }
    }

    pub(super) fn model_for_link(&self, fragment: &str) -> Result<Model, String> {
        let link = crate::session::codec::decode(fragment)?;
        let mut m = self.next();
        m.story = None;
        m.imported = None;
        let start = if let Some((_, code)) = link.base.iter().find(|(k, _)| k == "file") {
            if link.base.len() > 1 {
                return Err(
                    "a link with an imported file (file=) takes no other page parameter".into(),
                );
            }
            let bytes = crate::session::codec::from_base64url(code)
                .map_err(|e| format!("its file is not readable: {e}"))?;
            let text = String::from_utf8(bytes).map_err(|_| "its file is not UTF-8 text")?;
            let sc = crate::scenario::parse(&text).map_err(|e| format!("its file: {e}"))?;
            let start = Start::from_scenario(link.base.clone(), &sc, &text);
            let title = sc
                .file
                .title
                .clone()
                .unwrap_or_else(|| "an imported scenario".into());
            m.imported = Some(Rc::new((start.clone(), title)));
            start
        } else {
            let (p, errors) = stories::parse_params(&link.base, &Model::limits());
            if !errors.is_empty() {
                return Err(errors.join("; "));
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
                    let sc = stories::load(i)?;
                    m.story = Some(i);
                    let (name, text) = stories::STORIES[i];
                    Start::from_scenario(vec![("story".into(), name.into())], &sc, text)
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
        m.error = link.model_note().map(|n| format!("Note: {n}."));
        Ok(m)
    }

    /// Opens a scenario file as a new session, or says why it cannot and changes nothing.
    pub(super) fn import(&self, text: &str) -> Model {
        let parsed = crate::scenario::parse(text);
        let mut m = self.next();
        match parsed {
            Err(e) => {
                m.error = Some(format!(
                    "The file could not be opened: {e}. The session shown is unchanged."
                ));
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
                    .unwrap_or_else(|| "an imported scenario".into());
                m.story = None;
                m.imported = None;
                m.imported = Some(Rc::new((start, title)));
                m.reset()
            }
        }
    }
}
