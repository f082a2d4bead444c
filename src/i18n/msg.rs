//! Every message the page shows, with its English text. The constant's name is the key the
//! Chinese catalogue (`www/i18n/zh-CN.json`) uses. `**bold**` and `` `code` `` in a text are
//! drawn as such by the page (`ui::i18n::rich`).
//!
//! This file holds the page's chrome; the other `msg_*` files hold the graph's, the event
//! log's, the causes' and the lessons' messages ([`super::all`] lists them all).
#![allow(missing_docs)]

use crate::text::messages;

messages! {
    // The page's frame: title, header, notices, language.
    PAGE_TITLE = "Kafka Election Playground";
    TITLE_MAIN = "Kafka Election";
    TITLE_REST = " Playground";
    STAT_CONTROLLER = "controller: ";
    STAT_BROKER = "broker {broker}";
    STAT_NONE = "none";
    STAT_EPOCH = "epoch {epoch}";
    HELP_BUTTON_LABEL = "Keyboard shortcuts";
    HELP_BUTTON_TITLE = "Keyboard shortcuts (?)";
    DISMISS_NOTICE = "Dismiss the notice";
    DISMISS_ERROR = "Dismiss the message";
    LANG_SWITCH_LABEL = "Language";
    LANG_SWITCH_TITLE = "Show the page in {language}";
    LANG_MISSING_KEYS = "The Chinese text lacks {count} message(s), shown in English: {keys}";
    LATER_LOADING = "Loading this part of the page…";
    LATER_FAILED = "This part of the page could not be loaded. Reload the page to try again.";

    // The toolbar.
    TOOLBAR_LABEL = "Simulation controls";
    PLAY = "Play";
    PAUSE = "Pause";
    PLAY_TITLE = "Run the clock";
    PAUSE_TITLE = "Pause the clock";
    NEXT_EVENT = "Next event";
    NEXT_EVENT_TITLE = "Skip the wait: move the clock to the next event in the log (at most 10 min ahead)";
    NEXT_EVENT_LABEL = "Next event: skip the wait";
    SPEED = "speed";
    SPEED_LABEL = "Speed";
    CLOCK_TITLE = "virtual time since the cluster started";
    CLOCK_LABEL = "Virtual clock";
    SETUP = "Setup";
    STORY = "story";
    STORY_TITLE = "Replay one of the classic stories, step by step, or play freely.";
    STORY_LABEL = "Story (resets)";
    FREE_PLAY = "free play";
    BROKERS = "brokers";
    BROKERS_TITLE = "How many brokers the cluster has. Changing it starts again.";
    BROKERS_LABEL = "Number of brokers (resets)";
    PROFILE_TITLE = "The Kafka release imitated: its default zookeeper.session.timeout.ms, and whether controller writes are fenced. Changing it starts again.";
    PROFILE_LABEL = "Kafka version profile (resets)";
    PROFILE_OPTION = "{name} · {secs} s session";
    PROFILE_UNFENCED = " · unfenced";
    SEED = "seed ";
    SEED_TITLE = "the seed of the simulation's random number generator: the same seed replays the same story";
    NEW_SEED = "New seed";
    SEED_FAILED = "could not draw a random seed: {error}";
    RESET = "Reset";
    RESET_TITLE = "Start the same cluster again from t = 0";

    // The timeline and sharing.
    TIMELINE_LABEL = "Timeline";
    STEP_BACK_TITLE = "Back to the previous event (,)";
    STEP_BACK_LABEL = "Step back one event";
    STEP_FORWARD_TITLE = "On to the next event (.)";
    STEP_FORWARD_LABEL = "Step forward one event";
    SCRUBBER_LABEL = "Timeline: the virtual time shown";
    SCRUBBER_VALUE = "{now} of {end}";
    VIEWING_PAST = "Viewing the past";
    PAST_AHEAD = ": {count} later command(s) lie ahead; acting now drops them. ";
    PAST_NONE_AHEAD = ": acting now starts a new future. ";
    BACK_TO_END = "Back to the end";
    FORK_NOTE = "You changed the past at t = {at}: ";
    FORK_REPLACED = "the history after it was replaced. ";
    FORK_DROPPED = "{count} later command(s) were dropped. ";
    UNDO = "Undo";
    UNDO_TITLE = "Bring back the history the change dropped";
    KEEP = "Keep";
    KEEP_TITLE = "Keep the new history and close this note";
    FORK_SUMMARY_NEW = "Changed the past at {at}: a new history follows.";
    FORK_SUMMARY_DROPPED = "Changed the past at {at}: {count} later command(s) dropped.";
    SHARE = "Share";
    SHARE_TITLE = "Copy a link to this session, save it as a file, or open one";
    COPY_LINK = "Copy link";
    COPY_LINK_TITLE = "Copy a link that reopens this session exactly";
    EXPORT = "Export";
    EXPORT_TITLE = "Save the session as a scenario file (kafka-election run FILE replays it)";
    IMPORT = "Import…";
    IMPORT_TITLE = "Open a scenario file (or drop one on the page)";
    LINK_COPIED = "Link copied: it reopens this session exactly.";
    COPY_FAILED = "the browser did not let the page copy; copy the address bar instead: it holds the session";
    SAVE_FAILED = "the browser did not let the page save the file";
    FILE_TOO_BIG = "The file could not be opened: {name} is {size} KB; a scenario file is at most {max} KB. The session shown is unchanged.";
    FILE_UNREADABLE = "The file could not be read. The session shown is unchanged.";

    // The tabs of narrow screens and the strip beside the graph.
    TABS_LABEL = "Parts of the playground";
    TAB_CLUSTER = "Cluster";
    TAB_LOG = "Log";
    TAB_PARTITIONS = "Partitions";
    TAB_GROUP = "Group";
    TAB_EXPLAIN = "Explain";
    NOW_LABEL = "What just happened and what to try";
    NOW_TAG = "just now";
    NOW_NOTHING = "nothing yet: press play.";
    NOW_TRY = "try";

    // The play overlay of a story opened paused.
    OVERLAY_LABEL = "Play the story";
    OVERLAY_TITLE = "Run the story's clock";

    // The help overlay and the shortcuts.
    HELP_TITLE = "Keyboard shortcuts";
    HELP_CLOSE_LABEL = "Close the shortcuts";
    HELP_KEYS = "keys";
    HELP_WHAT = "what they do";
    HELP_NOTE = "Shortcuts do nothing while you type in a field. Tab moves between the brokers, consumers and controls.";
    CLOSE = "Close";
    KEYS_PLAY = "Space or k";
    DO_PLAY = "play or pause the clock (Space only when a button is not focused)";
    DO_STEP_FORWARD = "step forward to the next event on the timeline (the clock stops there)";
    DO_STEP_BACK = "step back to the previous event on the timeline";
    DO_JUMP = "jump to the next event (skip a wait; the clock keeps its state)";
    DO_HELP = "show these shortcuts";
    KEYS_PRESS = "Enter or Space on a broker or consumer";
    DO_PRESS = "crash it, or start it again when it is down";
    KEYS_MENU = "m, the menu key or Shift+F10 on a broker";
    DO_MENU = "open its menu (or long-press it, or press its ⋯)";
    DO_CLOSE = "close the menu or this overlay";

    // A broker's menu.
    MENU_TITLE = "Broker {broker}";
    MENU_CLOSE_LABEL = "Close the menu of broker {broker}";
    MENU_START = "Start broker {broker}";
    MENU_CRASH = "Crash broker {broker}";
    MENU_SHUTDOWN = "Shut down cleanly (controlled shutdown)";
    MENU_PAUSE = "Pause for {secs} s (a long GC pause)";
    MENU_EXPIRE = "Expire its ZooKeeper session";
    MENU_HEAL = "Heal its ZooKeeper link";
    MENU_CUT = "Cut its ZooKeeper link";
    MENU_RESUME = "Resume its fetchers";
    MENU_STALL = "Stall its fetchers";
    MENU_DELETE_CONTROLLER = "Delete /controller (move the controller)";
    MENU_DETAILS = "Details and more (the broker panel)";

    // The event log's own chrome (its entries are the core's, in English).
    LOG_TITLE = "Event log";
    LOG_KEY_ONLY = "key events only";
    LOG_COUNT = "{total} event(s)";
    LOG_COUNT_SHOWN = "{shown} of {total} events";
    LOG_LIST_LABEL = "Events, oldest first";
    LOG_EMPTY = "No events yet: press play.";
    LOG_EMPTY_ASKING = "No events yet: the run starts once you answer the question.";
    LOG_NEWEST = "↓ newest";
    // The page's own errors and notes (a core error quoted in them keeps its English).
    ERR_ADDRESS = "Page address: {problems}";
    ERR_PARAMS_SESSION = "the session sets the page up, so {params} were not used";
    ERR_PARAMS_STORY = "{params} set up free play; a story brings its own, so they were not used";
    ERR_PARAMS_LESSON = "a lesson brings its own run, so {params} were not used";
    LIST_AND = "{list} and {last}";
    ERR_RATE = "a stream's rate is a whole number of records per second, from 1 to {max}, not \"{value}\"";
    ERR_SEND = "send writes a whole number of records, from 1 to {max}, not \"{value}\"";
    ERR_MAX_CONSUMERS = "the page runs at most {max} consumers in a group: start a crashed or departed one again instead";
    ERR_FIRST_EVENT = "this is the first event: nothing happened before it";
    ERR_STEP_SKIPPED = "The story's next step ({what}) was skipped: {why}";
    ERR_LINK = "The link could not be opened: {why}. The session shown is unchanged.";
    ERR_LINK_FILE_PARAMS = "a link with an imported file (file=) takes no other page parameter";
    ERR_LINK_FILE_UNREADABLE = "its file is not readable: {why}";
    ERR_LINK_FILE_UTF8 = "its file is not UTF-8 text";
    ERR_LINK_FILE = "its file: {why}";
    ERR_FILE = "The file could not be opened: {why}. The session shown is unchanged.";
    IMPORTED_UNTITLED = "an imported scenario";
    NOTE_MODEL_OLDER = "Note: this link was made by an older version of the model (version {version}, this page runs version {current}): it replays under today's rules, so what happens may differ from what its author saw.";
    NOTE_MODEL_NEWER = "Note: this link was made by a newer version of the model (version {version}, this page runs version {current}): it replays under today's rules, so what happens may differ from what its author saw.";
    ERR_NO_STORY = "there is no story number {index}";
    ERR_STORY = "story {name}: {why}";
    ERR_STORY_FETCH = "story {name} could not be fetched ({why})";
    PARAM_STORY = "story \"{value}\" does not exist; the stories are {stories}";
    PARAM_SEED = "seed must be a whole number, not \"{value}\"";
    PARAM_BROKERS = "brokers must be 1 to {max}, not \"{value}\"";
    PARAM_PARTITIONS = "partitions must be 1 to {max}, not \"{value}\"";
    PARAM_PROFILE = "unknown profile \"{value}\"; the profiles are {profiles}";
    PARAM_SPEED = "speed must be one of {speeds}, not \"{value}\"";
    PARAM_T = "t (the virtual time to start at) must be 0 to {max} ms, not \"{value}\"";
    PARAM_LANG = "lang must be en or zh-CN, not \"{value}\"; the page is shown in English";
    PARAM_LESSON = "lesson must be a lesson's id (lower-case letters, digits and dashes), not \"{value}\"";
    PARAM_VIEW = "view must be lessons, not \"{value}\"";
    PARAM_CONSUMERS = "consumers must be 0 to {max}, not \"{value}\"";
    PARAM_ASSIGNOR = "assignor must be range or roundrobin, not \"{value}\"";
    PARAM_UNKNOWN = "unknown page parameter \"{key}\"; the parameters are {keys}";
    PARAM_RF = "rf (the replication factor) must be 1 to {max}, the number of brokers, not \"{value}\"";
    ERR_INTERNAL = "The playground stopped because of an internal error: {why}";
}
