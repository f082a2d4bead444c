//! The lessons: their list, steps, questions, answers and grades. The constant's name is the
//! key the Chinese catalogue (`www/i18n/zh-CN.json`) uses. A lesson's own texts (its title,
//! questions, options and explanations) are in its file, in both languages.
#![allow(missing_docs)]

use crate::text::messages;

messages! {
    // The header's way in, and the list.
    LESSONS_OPEN = "Lessons";
    LESSONS_OPEN_TITLE = "Lessons that ask before they show: predict, then watch the run";
    LESSONS_TITLE = "Lessons";
    LESSONS_INTRO = "Each lesson replays one scripted cluster and asks you to predict what Kafka will do before the run shows it. Your answer is graded against the simulation itself, and the event that decided it is pointed out in the log.";
    LESSONS_BACK = "Back to the playground";
    LESSONS_LOADING = "Loading the lessons…";
    LESSONS_FAILED = "The lessons could not be loaded: {why}";
    LESSON_QUESTIONS = "{count} question(s)";
    LESSON_PROFILE = "Kafka {profile}";
    LESSON_NEW = "not started";
    LESSON_AT_STEP = "at step {step} of {steps}";
    LESSON_DONE_SCORE = "done: {right} of {total} right";
    LESSON_START = "Start";
    LESSON_CONTINUE = "Continue";
    LESSON_AGAIN = "Do it again";
    LESSONS_FILE = "Open a lesson file…";
    LESSONS_FILE_HINT = "A teacher's exercise: a lesson file written as `docs/lesson-format.md` describes (you can also drop it on the page).";
    LESSONS_RESET = "Reset my progress";
    LESSONS_RESET_CONFIRM = "Forget every answer and score kept in this browser?";
    LESSONS_RESET_YES = "Yes, reset";
    LESSONS_RESET_NO = "Keep it";
    LESSONS_RESET_DONE = "Your lesson progress is reset.";
    LESSONS_PROGRESS_LOST = "Your saved lesson progress could not be read and was set aside: {why}";

    // A lesson under way.
    LESSON_TAG = "lesson";
    LESSON_FILE_TAG = "exercise";
    LESSON_LOADING = "Loading the lesson “{id}”…";
    LESSON_UNKNOWN = "There is no lesson “{id}”: {why}";
    LESSON_BAD_FILE = "The lesson file could not be opened: {why}. Nothing was changed.";
    LESSON_COPY_LINK = "Copy its link";
    LESSON_COPY_LINK_TITLE = "Copy a link that opens this exercise, file and all, for your students";
    LESSON_STEP = "Step {step} of {steps}";
    LESSON_SCORE = "{right} of {answered} right so far";
    LESSON_QUESTION = "Question";
    LESSON_ANSWER = "Answer";
    LESSON_PICK_NODE = "Click a broker in the graph, or pick it here:";
    LESSON_BROKER = "Broker {broker}";
    LESSON_NUMBER_LABEL = "Your answer";
    LESSON_UNIT_S = "s";
    LESSON_UNIT_MS = "ms";
    LESSON_TOLERANCE = "within ± {tolerance} {unit}";
    LESSON_TOLERANCE_EXACT = "exactly";
    LESSON_NEVER = "It does not happen";
    LESSON_NOT_A_NUMBER = "“{text}” is not a number: type one, such as 12 or 16.5.";
    LESSON_PICK_ONE = "Pick one of the answers first.";
    LESSON_ANSWER_FIRST = "Answer the question first: the lesson's run goes on once you have.";
    LESSON_RUNNING = "Your answer is in. The run goes on to t = {at}: watch the cluster.";
    LESSON_RUN_TO = "The run goes on to t = {at}.";
    LESSON_SKIP = "Skip to t = {at}";
    LESSON_RIGHT = "Right.";
    LESSON_WRONG = "Not this time.";
    LESSON_YOUR_ANSWER = "Your answer: {answer}";
    LESSON_RUN_ANSWER = "The run's answer: {answer}";
    LESSON_DECIDED_BY = "Decided by the event at t = {at}:";
    LESSON_NO_DECIDER = "No single event decided it: it is the state of the run at t = {at}.";
    LESSON_KAFKA_DETAIL = "The Kafka detail: rule, setting, source";
    LESSON_SHOW_EVENT = "Show it in the log";
    LESSON_NEXT = "Next step";
    LESSON_FINISH = "Finish";
    LESSON_COMPLETE = "Lesson complete: {right} of {total} right.";
    LESSON_COMPLETE_NONE = "Lesson complete.";
    LESSON_RESTART = "Start again";
    LESSON_TO_LIST = "All lessons";
    LESSON_LEFT = "You changed the cluster, so this is no longer the lesson's run: its answers come from the run everyone sees. Explore as you like, then go back.";
    LESSON_RETURN = "Return to the lesson";
    LESSON_YES = "yes";
    LESSON_NO = "no";
    LESSON_BROKER_VALUE = "broker {broker}";
}
