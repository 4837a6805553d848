// SPEC §9 thresholds of the LLM chat, in one place.

/** Content of this many characters or more is a long message (summarised, shown as an excerpt). */
export const LONG_MESSAGE_CHARS = 1800;
/** The summariser is sent at most this many characters of the message. */
export const SUMMARY_INPUT_CHARS = 12_000;
/** A summary is cut to at most this many words. */
export const SUMMARY_MAX_WORDS = 35;
/** A long message is summarised this long after it becomes eligible. */
export const SUMMARY_DELAY_MS = 120;
/** A stream that delivers nothing for this long fails with 'Stream timeout'. */
export const STREAM_STALL_MS = 30_000;
/** Changing provider or model connects again after this delay. */
export const AUTO_CONNECT_DELAY_MS = 60;
/** A 'Chat {n}' title becomes the first this-many characters of the first user message. */
export const TAB_TITLE_CHARS = 30;
/** The message box grows with its text up to this height. */
export const INPUT_MAX_HEIGHT_PX = 320;
/** The full-message viewer shows a character count above this length. */
export const FULL_VIEW_COUNT_CHARS = 4000;
