//! How the page is dressed: the full page or embed mode, and its element ids.

/// How the page is dressed: the full page, or embed mode's compact chrome; and the prefix of
/// this playground's element ids, so that two on one page do not clash.
#[derive(Debug, Clone, PartialEq)]
pub struct Chrome {
    /// Embed mode (`embed=1`): no title, no introduction, the graph fills the width.
    pub embed: bool,
    /// Whether the controls show, and embed mode's timeline with them (`controls=0` hides
    /// both).
    pub controls: bool,
    /// Prefixed to every element id the playground gives.
    pub ids: String,
    /// The origins of the parent pages allowed to drive it (`parent=`).
    pub parents: Vec<String>,
}

impl Default for Chrome {
    fn default() -> Self {
        Chrome {
            embed: false,
            controls: true,
            ids: String::new(),
            parents: Vec::new(),
        }
    }
}

impl Chrome {
    /// The id of one of the playground's elements.
    pub fn id(&self, name: &str) -> String {
        format!("{}{name}", self.ids)
    }
}
