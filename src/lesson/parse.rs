//! Parsing and validating a lesson file: JSON and the file's shape first (serde, unknown keys
//! rejected), then the embedded scenario (with the scenario parser, its problems placed under
//! `scenario`), then every step, question, option and probe against the scenario. Every problem
//! is one [`LessonError`] naming its place; nothing runs when parsing fails.

use super::file::{KindName, LessonFile, OptionFile, QuestionFile};
use super::probe::{parse_probe, Names, ProbeContext};
use super::{
    ChoiceOption, Lesson, LessonError, Measured, Question, QuestionKind, Step, Text, ValueType,
};
use crate::scenario::{self, check_time, read_file, Scenario};
use crate::sim::{BrokerId, Command};
use serde_json::Value;

/// The longest lesson id.
const MAX_ID: usize = 64;

/// Parses and validates a lesson. Nothing runs when this fails: questions are resolved by
/// [`Lesson::resolve`] (or [`super::load`], which does both).
pub fn parse(text: &str) -> Result<Lesson, LessonError> {
    validate(read_file::<LessonFile>(text, "a lesson")?)
}

fn validate(file: LessonFile) -> Result<Lesson, LessonError> {
    if file.version != 1 {
        return Err(LessonError::at(
            "version",
            format!(
                "version {} is not supported; this program reads lesson version 1",
                file.version
            ),
        ));
    }
    let id_ok = !file.id.is_empty()
        && file.id.len() <= MAX_ID
        && file
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !id_ok {
        return Err(LessonError::at(
            "id",
            format!(
                "a lesson id has 1 to {MAX_ID} lowercase letters, digits and '-', not \"{}\"",
                file.id
            ),
        ));
    }
    check_text("title", &file.title)?;
    check_text("summary", &file.summary)?;
    let scenario = scenario::parse_value(file.scenario).map_err(|e| e.under("scenario"))?;
    let names = names(&scenario);
    if file.steps.is_empty() {
        return Err(LessonError::at("steps", "a lesson needs at least one step"));
    }
    let mut steps: Vec<Step> = Vec::new();
    for (i, s) in file.steps.iter().enumerate() {
        let place = format!("steps[{i}]");
        check_time("at_ms", s.at_ms).map_err(|e| LessonError::at(format!("{place}.at_ms"), e))?;
        let asked_at_ms = steps.last().map_or(0, |p| p.at_ms);
        if s.at_ms < asked_at_ms {
            return Err(LessonError::at(
                format!("{place}.at_ms"),
                format!(
                    "{} is before steps[{}]'s {asked_at_ms}: steps must be in time order",
                    s.at_ms,
                    i - 1
                ),
            ));
        }
        check_text(&format!("{place}.text"), &s.text)?;
        let seen = match i {
            0 => "the lesson opens at 0 ms".to_string(),
            _ => format!("steps[{}] ran to {asked_at_ms} ms", i - 1),
        };
        let question = match &s.question {
            None => None,
            Some(q) => {
                let cx = ProbeContext {
                    place: &format!("{place}.question.probe"),
                    step_at_ms: s.at_ms,
                    asked_at_ms,
                    seen,
                    names: &names,
                };
                Some(question(&format!("{place}.question"), q, &cx)?)
            }
        };
        steps.push(Step {
            at_ms: s.at_ms,
            text: s.text.clone(),
            question,
        });
    }
    // The scenario's reader checked the work up to its until_ms; the steps may run longer.
    let end = steps.last().map_or(0, |s| s.at_ms);
    if end > scenario.until_ms {
        scenario::budget::check(
            &scenario.setup,
            &scenario.actions,
            end,
            "an earlier last step",
        )
        .map_err(|e| LessonError::at(format!("steps[{}].at_ms", steps.len() - 1), e))?;
    }
    Ok(Lesson {
        id: file.id,
        title: file.title,
        summary: file.summary,
        scenario,
        steps,
    })
}

/// Both languages present and not blank.
fn check_text(place: &str, text: &Text) -> Result<(), LessonError> {
    for lang in super::Lang::ALL {
        if text.get(lang).trim().is_empty() {
            return Err(LessonError::at(
                format!("{place}.{}", lang.code()),
                "is empty: every text a learner reads has English (en) and Simplified Chinese (zh-CN)",
            ));
        }
    }
    Ok(())
}

/// The names the scenario defines.
fn names(s: &Scenario) -> Names {
    let mut n = Names {
        brokers: s.setup.brokers.iter().map(|(b, _)| *b).collect(),
        groups: s.setup.groups.iter().map(|g| g.id.clone()).collect(),
        ..Names::default()
    };
    for t in &s.setup.topics {
        n.partitions
            .extend((0..t.replicas.len()).map(|p| format!("{}-{p}", t.name)));
    }
    if !s.setup.groups.is_empty() {
        n.partitions.extend(
            (0..s.setup.settings.offsets_topic_num_partitions)
                .map(|p| format!("__consumer_offsets-{p}")),
        );
    }
    for (_, cmd) in &s.actions {
        if let Command::Join { group, member } = cmd {
            n.members
                .entry(group.clone())
                .or_default()
                .insert(member.clone());
        }
    }
    n
}

fn question(place: &str, q: &QuestionFile, cx: &ProbeContext) -> Result<Question, LessonError> {
    check_text(&format!("{place}.prompt"), &q.prompt)?;
    let probe = parse_probe(&q.probe, cx)?;
    let vt = probe.measure.value_type();
    let what = probe.measure.name();
    if q.kind != KindName::Choice && q.options.is_some() {
        return Err(LessonError::at(
            format!("{place}.options"),
            "only a choice question has options",
        ));
    }
    if q.kind != KindName::Number && q.tolerance.is_some() {
        return Err(LessonError::at(
            format!("{place}.tolerance"),
            "only a number question has a tolerance",
        ));
    }
    let kind = match q.kind {
        KindName::Node => {
            if vt != ValueType::Broker {
                return Err(LessonError::at(
                    format!("{place}.kind"),
                    format!(
                        "a node question is answered by clicking a broker, so its probe must give a broker (controller, partition.leader, group.coordinator), not {} ({what})",
                        vt.describe()
                    ),
                ));
            }
            QuestionKind::Node {
                brokers: cx.names.brokers.iter().copied().collect(),
            }
        }
        KindName::Number => {
            if !vt.is_number() {
                return Err(LessonError::at(
                    format!("{place}.kind"),
                    format!(
                        "a number question needs a probe that gives a number; {what} gives {}",
                        vt.describe()
                    ),
                ));
            }
            let tolerance = q.tolerance.ok_or_else(|| {
                LessonError::at(place, "a number question needs \"tolerance\": how far from the answer a number may be and still count (0 for an exact answer)")
            })?;
            if !(tolerance >= 0.0 && tolerance.is_finite()) {
                return Err(LessonError::at(
                    format!("{place}.tolerance"),
                    format!("must be 0 or more, not {tolerance}"),
                ));
            }
            if vt == ValueType::Epoch && tolerance >= 1.0 {
                return Err(LessonError::at(
                    format!("{place}.tolerance"),
                    format!(
                        "{what} is a whole number where each step is another answer: a tolerance of {tolerance} would also accept the numbers next to it; give less than 1 (0 for exact)"
                    ),
                ));
            }
            QuestionKind::Number { tolerance }
        }
        KindName::Choice => {
            let files = q.options.as_deref().unwrap_or_default();
            if files.len() < 2 {
                return Err(LessonError::at(
                    if q.options.is_some() {
                        format!("{place}.options")
                    } else {
                        place.to_string()
                    },
                    "a choice question needs \"options\", at least two",
                ));
            }
            let mut options: Vec<ChoiceOption> = Vec::new();
            for (j, o) in files.iter().enumerate() {
                let oplace = format!("{place}.options[{j}]");
                let option = choice_option(&oplace, o, vt, &probe.measure, cx)?;
                if let Some(k) = options.iter().position(|x| x.value == option.value) {
                    return Err(LessonError::at(
                        format!("{oplace}.value"),
                        format!("the same answer as options[{k}] ({}): no two options may mean the same", option.value),
                    ));
                }
                options.push(option);
            }
            QuestionKind::Choice { options }
        }
    };
    Ok(Question {
        prompt: q.prompt.clone(),
        kind,
        probe,
    })
}

/// An option: its label, and its value of the probe's type, naming brokers and members that
/// exist.
fn choice_option(
    place: &str,
    o: &OptionFile,
    vt: ValueType,
    measure: &super::Measure,
    cx: &ProbeContext,
) -> Result<ChoiceOption, LessonError> {
    check_text(&format!("{place}.label"), &o.label)?;
    let vplace = format!("{place}.value");
    let v = &o.value;
    let wrong = || {
        LessonError::at(
            &vplace,
            format!(
                "the probe {} gives {}, not {v}",
                measure.name(),
                vt.describe()
            ),
        )
    };
    let broker = |v: &Value| -> Result<BrokerId, LessonError> {
        let b = v
            .as_u64()
            .and_then(|n| BrokerId::try_from(n).ok())
            .ok_or_else(wrong)?;
        if !cx.names.brokers.contains(&b) {
            return Err(LessonError::at(
                &vplace,
                format!("there is no broker {b} in the scenario"),
            ));
        }
        Ok(b)
    };
    let value = match vt {
        ValueType::Broker => Measured::Broker(broker(v)?),
        ValueType::Time(_)
            if v == "never" && matches!(measure, super::Measure::EventTime { never: true, .. }) =>
        {
            Measured::Never
        }
        ValueType::Time(_) if v == "never" => {
            return Err(LessonError::at(
                &vplace,
                "an option \"never\" (it does not happen) needs the probe's \"never\": true",
            ))
        }
        ValueType::Epoch | ValueType::Count | ValueType::Time(_) => {
            let n = v.as_f64().ok_or_else(wrong)?;
            if n < 0.0 {
                return Err(LessonError::at(
                    &vplace,
                    format!(
                        "{} is never negative, so {n} cannot be its answer",
                        measure.name()
                    ),
                ));
            }
            Measured::Number(n)
        }
        ValueType::Brokers => {
            let list = v.as_array().ok_or_else(wrong)?;
            let mut set = list.iter().map(broker).collect::<Result<Vec<_>, _>>()?;
            crate::collections::sort(&mut set);
            if let Some(w) = set.windows(2).find(|w| w[0] == w[1]) {
                return Err(LessonError::at(
                    &vplace,
                    format!("broker {} is listed twice", w[0]),
                ));
            }
            Measured::Brokers(set)
        }
        ValueType::Member => {
            let m = v.as_str().ok_or_else(wrong)?;
            if let super::Measure::Group { group, .. } = measure {
                let joined = cx.names.members.get(group);
                if !joined.is_some_and(|j| j.contains(m)) {
                    let list = joined.filter(|j| !j.is_empty()).map_or_else(
                        || "none".to_string(),
                        |j| j.iter().cloned().collect::<Vec<_>>().join(", "),
                    );
                    return Err(LessonError::at(
                        &vplace,
                        format!("no join action of the scenario adds a consumer \"{m}\" to {group} (it adds {list})"),
                    ));
                }
            }
            Measured::Member(m.to_string())
        }
        ValueType::YesNo => Measured::YesNo(v.as_bool().ok_or_else(wrong)?),
    };
    Ok(ChoiceOption {
        label: o.label.clone(),
        value,
    })
}
