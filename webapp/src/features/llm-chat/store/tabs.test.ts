import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, type FakeApi } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { ADA, startSignedIn } from '../../../test/session';
import { AUTO_CONNECT_DELAY_MS } from '../constants';
import { chatStorageKeys } from '../state/persistence';
import { setDraft } from './drafts';
import { createSession, endSession, track, type Session } from './session';
import { changeModel, closeTab, newTab, selectTab } from './tabs';

let api: FakeApi;
let s: Session;
const tabIds = () => s.snap.state.tabs.map((t) => t.id);
const connectBodies = (provider: string) => api.callsTo('POST', `/api/v1/mcp-connections/${provider}`).map((c) => c.body);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  startSignedIn();
  api = installFakeApi();
  for (const provider of ['openai', 'anthropic']) {
    api.route(`POST /api/v1/mcp-connections/${provider}`, (req) =>
      jsonResponse(200, { id: `conn-${provider}`, server_name: provider === 'openai' ? 'OpenAI GPT' : 'Anthropic Claude', model: (req.body as { model: string }).model }),
    );
  }
  s = createSession(ADA.id, { emit: vi.fn(), afterChange: vi.fn() });
});
afterEach(() => {
  endSession(s);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('newTab and selectTab', () => {
  it("opens a tab, made active, and gives its id at once; it is saved", () => {
    const first = s.snap.state.activeTabId;
    const id = newTab(s);
    expect(tabIds()).toEqual([first, id]);
    expect(s.snap.state.activeTabId).toBe(id);
    expect(s.snap.state.tabs[1].title).toBe('Chat 2');
    expect(localStorage.getItem(chatStorageKeys(ADA.id).activeTab)).toBe(id);
    selectTab(s, first);
    expect(s.snap.state.activeTabId).toBe(first);
  });
});

describe('closeTab', () => {
  it('gives up what the tab had running: its streams, waiting summaries and draft', () => {
    const first = s.snap.state.activeTabId;
    const second = newTab(s);
    const mine = new AbortController();
    const other = new AbortController();
    track(s, second, mine);
    const untrackOther = track(s, first, other);
    const summary = vi.fn();
    s.summaryTimers.set('m-second', { tabId: second, timer: setTimeout(summary, 100) });
    s.summaryTimers.set('m-first', { tabId: first, timer: setTimeout(() => undefined, 100) });
    setDraft(s, 'unsent', second);
    setDraft(s, 'kept', first);

    closeTab(s, second);
    expect(mine.signal.aborted).toBe(true);
    expect(other.signal.aborted).toBe(false);
    expect([...s.summaryTimers.keys()]).toEqual(['m-first']);
    vi.advanceTimersByTime(1000);
    expect(summary).not.toHaveBeenCalled();
    expect(s.snap.drafts).toEqual({ [first]: 'kept' });
    expect(tabIds()).toEqual([first]);
    expect(s.snap.state.activeTabId).toBe(first);
    untrackOther();
  });

  it("closing the last tab leaves a fresh 'Chat 1'", () => {
    const only = s.snap.state.activeTabId;
    closeTab(s, only);
    expect(tabIds()).toHaveLength(1);
    expect(tabIds()[0]).not.toBe(only);
    expect(s.snap.state.tabs[0].title).toBe('Chat 1');
  });
});

describe('changeModel', () => {
  it(`sets the active tab's provider and model and connects ${AUTO_CONNECT_DELAY_MS} ms later`, async () => {
    changeModel(s, 'anthropic', 'claude-3-opus');
    expect(s.snap.state.tabs[0]).toMatchObject({ provider: 'anthropic', model: 'claude-3-opus' });
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS - 1);
    expect(api.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(connectBodies('anthropic')).toEqual([{ model: 'claude-3-opus' }]);
    await vi.waitFor(() => expect(s.snap.connections['anthropic:claude-3-opus']?.id).toBe('conn-anthropic'));
  });

  it('the last of quick changes wins: one connect, for it', async () => {
    changeModel(s, 'anthropic', 'claude-3-opus');
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS - 10);
    changeModel(s, 'openai', 'gpt-4o');
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS);
    expect(connectBodies('anthropic')).toEqual([]);
    expect(connectBodies('openai')).toEqual([{ model: 'gpt-4o' }]);
  });

  it("a model the provider does not offer becomes the provider's first", () => {
    changeModel(s, 'anthropic', 'gpt-4o');
    expect(s.snap.state.tabs[0]).toMatchObject({ provider: 'anthropic', model: 'claude-3-5-sonnet' });
  });

  it('the same provider and model again changes nothing and connects nothing', async () => {
    const snap = s.snap;
    changeModel(s, 'openai', 'gpt-4o-mini');
    expect(s.snap).toBe(snap);
    expect(s.autoConnectTimer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(AUTO_CONNECT_DELAY_MS * 5);
    expect(api.calls).toEqual([]);
  });

  it('applies to the active tab only', () => {
    const first = s.snap.state.activeTabId;
    newTab(s);
    changeModel(s, 'anthropic', 'claude-3-opus');
    expect(s.snap.state.tabs.find((t) => t.id === first)).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
  });
});
