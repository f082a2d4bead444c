//! The page's error line: what it shows, kept as words ([`Said`]) to say again in the
//! reader's language.

use super::{Model, Said};

impl Model {
    /// Shows `said` in the error line, in the page's language, and keeps it to say again.
    pub(super) fn say_error(&mut self, said: Said) {
        let text = said.say(&self.tr());
        self.error = Some(text.clone());
        self.said = Some((text, said));
    }

    /// The error shown, as words to say again: its recipe if it is the one kept, else its text.
    pub(super) fn take_said(&mut self) -> Option<Said> {
        let error = self.error.take()?;
        Some(match self.said.take() {
            Some((text, said)) if text == error => said,
            _ => Said::text(error),
        })
    }

    /// The language changed: the error line says its words again in it (if it still shows
    /// what was kept).
    pub(super) fn say_again(&mut self) {
        let Some((text, said)) = self.said.take() else {
            return;
        };
        if self.error.as_ref() == Some(&text) {
            self.say_error(said);
        }
    }
}
