import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getNotifications } from '../../../components/notifications/notification-store';
import { deferred, installFakeApi, sseData, SSE_DONE, sseResponse, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import type { ChatConnection } from '../api/connect';
import { LONG_MESSAGE_CHARS, SUMMARY_DELAY_MS } from '../constants';
import { createMessage } from '../state/chat-state';
import { summaryPrompt } from '../summary';
import { storeConnection } from './connections';
import { createSession, dispatch, endSession, findMessage, type Session } from './session';
import { cancelSummaries, scheduleSummaries } from './summaries';

const NOW = '2026-03-07T10:00:00.000Z';
const STREAM = 'POST /api/v1/mcp-connections/message';
const LONG = 'word '.repeat(LONG_MESSAGE_CHARS / 5);
const CONNECTION: ChatConnection = { id: 'conn-1', model: 'gpt-4o-mini', server_name: 'OpenAI GPT (local demo)', demo: true };
const FORTY_WORDS = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
const streamBodies = () => api.callsTo('POST', '/api/v1/mcp-connections/message').map((c) => c.body);

let api: FakeApi;
let s: Session;
let tabId: string;
const message = (id = 'm1', tab = tabId) => findMessage(s, tab, id)!;
const connect = () => storeConnection(s, 'openai:gpt-4o-mini', CONNECTION);
const addLong = (id = 'm1', tab = tabId, role: 'user' | 'assistant' = 'user', complete = true) =>
  dispatch(s, { type: 'addMessage', tabId: tab, message: createMessage(id, role, LONG, NOW, complete) });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  startSignedIn();
  api = installFakeApi();
  api.route(STREAM, () => sseResponse([sseData({ content: FORTY_WORDS }), sseData({ usage: { input_tokens: 300, output_tokens: 40, cost_usd: 0.001 } }), SSE_DONE]));
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: scheduleSummaries });
  tabId = s.snap.state.activeTabId;
});
afterEach(() => {
  endSession(s);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('summaries', () => {
  it(`summarise a long message ${SUMMARY_DELAY_MS} ms after it becomes eligible, on the tab's connection`, async () => {
    connect();
    addLong();
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS - 1);
    expect(streamBodies()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(message().summary).not.toBeNull());
    expect(streamBodies()).toEqual([{ connection_id: 'conn-1', message: summaryPrompt(LONG), model: 'gpt-4o-mini', context: [] }]);
    expect(message().summary).toBe(`${FORTY_WORDS.split(' ').slice(0, 35).join(' ')}…`);
    expect(message()).toMatchObject({ summaryRequested: true, summaryUsage: { input_tokens: 300, output_tokens: 40, cost_usd: 0, demo: true } });
    expect(s.snap.summarizing.size).toBe(0);
  });

  it('are marked as running meanwhile', async () => {
    const held = deferred();
    api.route(STREAM, async () => {
      await held.promise;
      return sseResponse([sseData({ content: 'Short.' }), SSE_DONE]);
    });
    connect();
    addLong();
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS);
    expect([...s.snap.summarizing]).toEqual(['m1']);
    expect(s.streams.get(tabId)?.size).toBe(1);
    held.resolve();
    await vi.waitFor(() => expect(s.snap.summarizing.size).toBe(0));
    expect(message().summary).toBe('Short.');
    expect(s.streams.size).toBe(0);
  });

  it('wait for a connection: none without one, and they start when it comes', async () => {
    addLong();
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS * 5);
    expect(streamBodies()).toEqual([]);
    expect(s.summaryTimers.size).toBe(0);
    connect();
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS);
    await vi.waitFor(() => expect(message().summary).not.toBeNull());
    expect(streamBodies()).toHaveLength(1);
  });

  it('happen once per message, and not for short ones or replies still streaming', async () => {
    connect();
    addLong();
    dispatch(s, { type: 'addMessage', tabId, message: createMessage('short', 'user', 'Hi', NOW, true) });
    addLong('streaming', tabId, 'assistant', false);
    expect([...s.summaryTimers.keys()]).toEqual(['m1']);
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS);
    await vi.waitFor(() => expect(message().summary).not.toBeNull());
    dispatch(s, { type: 'newTab', id: 'tab-2', now: NOW }); // any change looks again
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS * 5);
    expect(streamBodies()).toHaveLength(1);
    // The reply completes: now it is one.
    dispatch(s, { type: 'completeMessage', tabId, messageId: 'streaming' });
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS);
    await vi.waitFor(() => expect(message('streaming').summary).not.toBeNull());
    expect(streamBodies()).toHaveLength(2);
  });

  it('a failed one is silent and not tried again', async () => {
    api.route(STREAM, () => jsonResponse(500, { detail: 'boom' }));
    connect();
    addLong();
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS);
    await vi.waitFor(() => expect(s.snap.summarizing.size).toBe(0));
    expect(message()).toMatchObject({ summary: null, summaryRequested: true });
    expect(getNotifications()).toEqual([]);
    scheduleSummaries(s);
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS * 5);
    expect(streamBodies()).toHaveLength(1);
  });

  it("cancelSummaries drops a tab's waiting summaries, not another tab's", async () => {
    connect();
    addLong('m1');
    dispatch(s, { type: 'newTab', id: 'tab-2', now: NOW });
    addLong('m2', 'tab-2');
    expect(s.summaryTimers.size).toBe(2);
    cancelSummaries(s, tabId);
    expect([...s.summaryTimers.keys()]).toEqual(['m2']);
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS);
    await vi.waitFor(() => expect(message('m2', 'tab-2').summary).not.toBeNull());
    expect(streamBodies()).toHaveLength(1);
    expect(message('m1').summaryRequested).toBe(false);
  });

  it('none once the session ended', async () => {
    connect();
    addLong();
    endSession(s);
    scheduleSummaries(s);
    await vi.advanceTimersByTimeAsync(SUMMARY_DELAY_MS * 5);
    expect(streamBodies()).toEqual([]);
  });
});
