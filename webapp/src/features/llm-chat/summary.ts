// SPEC §4/§9 "Long messages": content of 1800 characters or more
// (assistant ones only once complete) is summarised once, 120 ms later,
// through the same message stream with the first 12000 characters and an
// empty context; the summary is cut to at most 35 words.

import { LONG_MESSAGE_CHARS, SUMMARY_INPUT_CHARS, SUMMARY_MAX_WORDS } from './constants';
import type { ChatMessage } from './state/types';

type Summarisable = Pick<ChatMessage, 'role' | 'content' | 'complete'>;

/** Long enough to summarise and show as an excerpt (assistant replies only once complete). */
export function isLongMessage(message: Summarisable): boolean {
  return message.content.length >= LONG_MESSAGE_CHARS && (message.role === 'user' || message.complete);
}

/** Long, and not summarised (or asked for) yet. */
export function needsSummary(message: Summarisable & Pick<ChatMessage, 'summaryRequested'>): boolean {
  return isLongMessage(message) && !message.summaryRequested;
}

/** What the summariser is asked. */
export function summaryPrompt(content: string): string {
  return `Summarize the following in at most ${SUMMARY_MAX_WORDS} words:\n\n${content.slice(0, SUMMARY_INPUT_CHARS)}`;
}

/** At most `max` words (whitespace-separated); an ellipsis marks a cut. */
export function cutToWords(text: string, max: number = SUMMARY_MAX_WORDS): string {
  const words = text.trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length <= max) return words.join(' ');
  return `${words.slice(0, max).join(' ')}…`;
}
