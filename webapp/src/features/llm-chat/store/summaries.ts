// Long messages (SPEC §4): each is summarised once, SUMMARY_DELAY_MS after
// it becomes eligible, on its tab's connection when there is one, through
// the same message stream with an empty context. A failed summary is
// silent (SPEC §8): the message simply has none.

import { streamChatMessage } from '../api/chat-stream';
import { SUMMARY_DELAY_MS } from '../constants';
import { cutToWords, needsSummary, summaryPrompt } from '../summary';
import { messageUsage } from '../usage';
import { reusableConnection } from './connections';
import { dispatch, findMessage, findTab, setSnap, track, type Session } from './session';

/** Starts the timer of every long message not summarised yet whose tab is connected. */
export function scheduleSummaries(s: Session): void {
  if (s.ended) return;
  for (const tab of s.snap.state.tabs) {
    if (!reusableConnection(s, tab.provider, tab.model)) continue;
    for (const message of s.snap.state.conversations[tab.id] ?? []) {
      if (!needsSummary(message) || s.summaryTimers.has(message.id)) continue;
      const timer = setTimeout(() => void summarize(s, tab.id, message.id), SUMMARY_DELAY_MS);
      s.summaryTimers.set(message.id, { tabId: tab.id, timer });
    }
  }
}

/** Drops the summaries of a tab that have not started yet. */
export function cancelSummaries(s: Session, tabId: string): void {
  for (const [messageId, entry] of s.summaryTimers) {
    if (entry.tabId !== tabId) continue;
    clearTimeout(entry.timer);
    s.summaryTimers.delete(messageId);
  }
}

function setSummarizing(s: Session, messageId: string, on: boolean): void {
  const summarizing = new Set(s.snap.summarizing);
  if (on) summarizing.add(messageId);
  else summarizing.delete(messageId);
  setSnap(s, { summarizing });
}

async function summarize(s: Session, tabId: string, messageId: string): Promise<void> {
  s.summaryTimers.delete(messageId);
  const tab = findTab(s, tabId);
  const message = findMessage(s, tabId, messageId);
  if (s.ended || !tab || !message || !needsSummary(message)) return;
  const connection = reusableConnection(s, tab.provider, tab.model);
  if (!connection) return;
  dispatch(s, { type: 'patchMessage', tabId, messageId, patch: { summaryRequested: true } });
  setSummarizing(s, messageId, true);
  const controller = new AbortController();
  const untrack = track(s, tabId, controller);
  try {
    const { content, usage } = await streamChatMessage(
      { connection_id: connection.id, message: summaryPrompt(message.content), model: connection.model, context: [] },
      { signal: controller.signal },
    );
    const summary = cutToWords(content);
    const patch = { ...(summary ? { summary } : {}), ...(usage ? { summaryUsage: messageUsage(usage, connection.demo) } : {}) };
    if (Object.keys(patch).length > 0) dispatch(s, { type: 'patchMessage', tabId, messageId, patch });
  } catch {
    // SPEC §8: a failed summary is silent; the message simply has none.
  } finally {
    untrack();
    setSummarizing(s, messageId, false);
  }
}
