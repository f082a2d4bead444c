//! The stories' titles, as the page lists them before any story is opened.

/// Each story file's `title` (`www/scenarios/<name>.json`), by file name, as build.rs read them:
/// the page lists the stories without parsing them (a parse checks a story in full, which
/// builds a world), so its first view neither does that work nor downloads the code for it.
pub const FILE_TITLES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/story_titles.rs"));

/// The title in story file `name`, if it has one.
pub fn file_title(name: &str) -> Option<&'static str> {
    FILE_TITLES
        .iter()
        .find(|(file, _)| *file == name)
        .map(|(_, title)| *title)
}
