//! The teacher's report of a resolved lesson, in English: for each question, the step, the
//! prompt, the kind (with a number question's tolerance, `± 2 s`) and the probe, the answer the
//! run gives and the event that decided it (or the checkpoint, when no event matched).
//! `kafka-election lesson` prints it; the tests compare it with the golden reports, natively
//! and in wasm.

use super::{fmt_number, Lang, Lesson, Measured, QuestionKind, Resolution};
use crate::sim::fmt_ms;
use std::fmt::Write;

/// The report of `lesson` resolved as `resolution`, one line per fact, ending with
/// `ID: N questions, all resolve`.
pub fn report(lesson: &Lesson, resolution: &Resolution) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} ({} steps, {} questions)",
        lesson.id,
        lesson.title.get(Lang::En),
        lesson.steps.len(),
        resolution.answers.len()
    );
    for r in &resolution.answers {
        let Some(step) = lesson.steps.get(r.step) else {
            continue;
        };
        let Some(q) = &step.question else { continue };
        let unit = q
            .unit()
            .map(|u| format!(" {}", u.name()))
            .unwrap_or_default();
        let answer = match (&q.kind, &r.value) {
            (QuestionKind::Choice { options }, value) => {
                let i = r.option.unwrap_or_default();
                let label = options.get(i).map_or("", |o| o.label.get(Lang::En));
                format!("option {i}, \"{label}\" ({value})")
            }
            (QuestionKind::Number { .. }, Measured::Never) => {
                "never: no matching event by the checkpoint".to_string()
            }
            (QuestionKind::Number { tolerance }, Measured::Number(n)) if *tolerance > 0.0 => {
                format!(
                    "{}{unit} (accepted: {} to {}{unit})",
                    fmt_number(*n),
                    fmt_number(n - tolerance),
                    fmt_number(n + tolerance)
                )
            }
            (QuestionKind::Number { .. }, value) => format!("{value}{unit} (exactly)"),
            (QuestionKind::Node { .. }, value) => value.to_string(),
        };
        let kind = match q.tolerance() {
            Some(t) if q.accepts_never() => format!("number question ({t}, or never)"),
            Some(t) => format!("number question ({t})"),
            None => format!("{} question", q.kind.name()),
        };
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "steps[{}] runs to {}: {}",
            r.step,
            fmt_ms(step.at_ms),
            q.prompt.get(Lang::En)
        );
        let _ = writeln!(out, "  {kind}, probe {}", q.probe);
        let _ = writeln!(out, "  answer: {answer}");
        match &r.decider {
            Some(d) => {
                let asked = lesson.asked_at_ms(r.step);
                if d.event.time_ms <= asked {
                    let _ = writeln!(
                        out,
                        "  decided by event {} (before the question is asked at {}: it has not changed since):",
                        d.index,
                        fmt_ms(asked)
                    );
                } else {
                    let _ = writeln!(out, "  decided by event {}:", d.index);
                }
                let _ = writeln!(out, "  {}", d.event.line());
            }
            None if q.probe.measure.is_event_probe() => {
                let _ = writeln!(
                    out,
                    "  decided at the checkpoint, {}: no matching event by then",
                    fmt_ms(r.at_ms)
                );
            }
            None => {
                let _ = writeln!(out, "  decided by no single event");
            }
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{}: {} questions, all resolve",
        lesson.id,
        resolution.answers.len()
    );
    out
}
