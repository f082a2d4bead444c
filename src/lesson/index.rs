//! The lesson list a page shows: the committed lessons' index (`www/lessons/index.json`, the
//! ids in teaching order) and an entry for each lesson file (its title, summary, questions
//! and Kafka release).

use super::Text;

/// A file fetched: its text, or why it could not be had.
pub type Fetched = Result<String, String>;

/// The index's lesson files, `(id, fetched)` in its order.
pub type LessonFiles = Vec<(String, Fetched)>;

/// One entry of the lesson list.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The lesson's id.
    pub id: String,
    /// Its title.
    pub title: Text,
    /// Its summary.
    pub summary: Text,
    /// How many questions it asks.
    pub questions: usize,
    /// How many steps it has.
    pub steps: usize,
    /// The Kafka release its cluster imitates.
    pub profile: String,
}

/// The lesson list.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Catalog {
    /// Not asked for yet.
    #[default]
    Idle,
    /// Being fetched.
    Loading,
    /// Here: the lessons in teaching order.
    Ready(Vec<Entry>),
    /// It could not be fetched.
    Failed(String),
}

/// The lesson list's entries from the index's lesson files (`(id, text)` in its order); a file
/// that does not read is named, the others are listed.
pub fn entries(files: &[(String, Fetched)]) -> (Vec<Entry>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (id, text) in files {
        match text
            .as_ref()
            .map_err(String::clone)
            .and_then(|t| super::parse(t).map_err(|e| e.to_string()))
        {
            Ok(l) => out.push(Entry {
                id: id.clone(),
                questions: l.steps.iter().filter(|s| s.question.is_some()).count(),
                steps: l.steps.len(),
                profile: l.scenario.setup.settings.profile.name().to_string(),
                title: l.title,
                summary: l.summary,
            }),
            Err(e) => problems.push(format!("{id}: {e}")),
        }
    }
    (out, problems)
}

/// The lesson ids a lesson index (`lessons/index.json`) lists, in order.
pub fn index_ids(text: &str) -> Result<Vec<String>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("the lesson index is not JSON: {e}"))?;
    let ids = v
        .get("lessons")
        .and_then(|l| l.as_array())
        .ok_or("the lesson index has no \"lessons\" list")?;
    ids.iter()
        .map(|i| {
            i.as_str()
                .filter(|s| is_id(s))
                .map(str::to_string)
                .ok_or_else(|| format!("the lesson index lists {i}, which is not a lesson id"))
        })
        .collect()
}

/// Whether `s` can be a lesson's id (and so a file name beside the page): lower-case letters,
/// digits and dashes.
pub fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_lists_ids_in_order_and_refuses_anything_else() {
        assert_eq!(
            index_ids(r#"{"version":1,"lessons":["b-2","a"]}"#).unwrap(),
            vec!["b-2", "a"]
        );
        assert!(index_ids("[]").unwrap_err().contains("no \"lessons\""));
        assert!(index_ids(r#"{"lessons":["../x"]}"#)
            .unwrap_err()
            .contains("not a lesson id"));
        assert!(!is_id("A"));
        assert!(!is_id(""));
    }

    #[test]
    fn the_list_names_a_lesson_that_does_not_read_and_keeps_the_others() {
        let good = include_str!("../../docs/examples/lessons/first-lesson.json");
        let (list, problems) = entries(&[
            ("first-lesson".into(), Ok(good.into())),
            ("broken".into(), Ok("{".into())),
            ("gone".into(), Err("HTTP 404".into())),
        ]);
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].questions, 3);
        assert_eq!(list[0].profile, "3.9");
        assert_eq!(problems.len(), 2);
        assert!(problems[1].contains("gone: HTTP 404"));
    }
}
