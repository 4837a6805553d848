// Conversations kept with the account, on the chat page: the tabs
// are the server's open conversations; a reload mid-reply re-attaches to
// it; Stop; Retry of a failed reply; History (search, Reopen, Delete);
// old browser-stored tabs uploaded once; offline shows what was stored.

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotificationsForTests } from '../../../components/notifications/notification-store';
import { resetAuthForTests } from '../../../lib/auth-session';
import {
  fakeConversations,
  fakeDemoConnect,
  installFakeApi,
  sseData,
  SSE_DONE,
  sseResponse,
  sseStream,
  type FakeApi,
  type FakeConversations,
} from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { stubSystemTheme } from '../../../test/match-media';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';
import { resetChatStoreForTests } from '../store/chat-store';
import { HISTORY_EMPTY } from './history-control';

const STREAM = 'POST /api/v1/mcp-connections/message';
const CONVS = '/api/v1/chat/conversations';

let api: FakeApi;
let convs: FakeConversations;
/** What the message stream answers (kept with its conversation by the fake server). */
let answer: () => Response;

beforeAll(async () => {
  await import('./llm-chat-page');
}, 30_000);

beforeEach(() => {
  stubSystemTheme(false);
  startSignedIn();
  api = installFakeApi();
  convs = fakeConversations(api);
  fakeDemoConnect(api, 'conn-1');
  api.route('GET /api/v1/mcp-connections/tools', () => jsonResponse(200, { servers: [], always_allowed: [] }));
  answer = () => sseResponse([sseData({ content: 'Hello there' }), SSE_DONE]);
  api.route(STREAM, (req) => convs.keepStream(req.body, answer()));
});

afterEach(() => {
  act(() => clearNotificationsForTests());
  vi.unstubAllGlobals();
  resetAuthForTests();
});

const input = () => screen.findByRole('textbox', { name: 'Message' });
const messages = () => within(screen.getByTestId('messages')).queryAllByTestId('message');
const tabTitles = () => screen.getAllByRole('tab').map((t) => t.textContent);
/** What a reload does to the page's state: the page and the store start again from storage and the server. */
function reload(unmount: () => void) {
  unmount();
  resetChatStoreForTests();
  return renderApp('/llm-chat');
}

describe('the tabs are the conversations kept with the account', () => {
  it('on another device: the same open tabs, newest first, with their messages from the server', async () => {
    convs.seed({ title: 'Older', messages: [{ role: 'user', content: 'Old question' }, { role: 'assistant', content: 'Old answer' }] });
    convs.seed({ title: 'Archived', archived: true });
    convs.seed({
      title: 'Newer',
      provider: 'anthropic',
      model: 'claude-3-opus',
      messages: [{ role: 'user', content: 'New question' }, { role: 'assistant', content: 'New answer', usage: { input_tokens: 5, output_tokens: 7, cost_usd: 0, demo: true } }],
    });
    renderApp('/llm-chat');
    await waitFor(() => expect(tabTitles()).toEqual(['Newer', 'Older']));
    expect(screen.getByRole('tab', { name: 'Newer' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Provider')).toHaveValue('anthropic');
    await waitFor(() => expect(messages()).toHaveLength(2));
    expect(messages()[1]).toHaveTextContent('New answer');
    expect(within(messages()[1]).getByTestId('message-usage')).toHaveTextContent('5 → 7 tokens · demo');
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Older' }));
    await waitFor(() => expect(messages()[0]).toHaveTextContent('Old question'));
  });

  it('a reload mid-reply: the reply is re-attached and keeps streaming on screen until it completes', async () => {
    const user = userEvent.setup();
    const first = sseStream();
    answer = () => first.response;
    const { unmount } = renderApp('/llm-chat');
    await user.type(await input(), 'Tell me a story{Enter}');
    first.push(sseData({ content: 'Once upon' }));
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Once upon'));
    const [conversation] = convs.all;
    const reply = convs.messages[conversation.id][1];
    expect(reply).toMatchObject({ content: 'Once upon', complete: false });

    // The server goes on generating; the page reloads.
    const again = sseStream();
    api.route(`GET ${CONVS}/${conversation.id}/messages/${reply.id}/stream`, () => again.response);
    reload(unmount);
    expect(await screen.findByRole('tab', { name: 'Tell me a story' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(messages()).toHaveLength(2));
    expect(messages()[1]).toHaveAttribute('data-complete', 'false');
    again.push(': generating\n\n' + sseData({ content: 'Once upon a time' }));
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Once upon a time'));
    expect(messages()[1]).toHaveAttribute('data-complete', 'false');
    // Stop is offered for it too.
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    again.push(sseData({ content: ', the end.' }) + sseData({ usage: { input_tokens: 3, output_tokens: 9, cost_usd: 0, demo: true } }) + SSE_DONE);
    again.end();
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(messages()[1]).toHaveTextContent('Once upon a time, the end.');
    expect(within(messages()[1]).getByTestId('message-usage')).toHaveTextContent('3 → 9 tokens · demo');
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('a reply that finished while the page was gone shows complete after a reload', async () => {
    const user = userEvent.setup();
    const first = sseStream();
    answer = () => first.response;
    const { unmount } = renderApp('/llm-chat');
    await user.type(await input(), 'Quick one{Enter}');
    first.push(sseData({ content: 'Part' }));
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Part'));
    const reply = convs.messages[convs.all[0].id][1];
    Object.assign(reply, { content: 'Part and the rest.', complete: true });
    reload(unmount);
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Part and the rest.'));
    expect(messages()[1]).toHaveAttribute('data-complete', 'true');
    expect(api.calls.filter((c) => c.path.endsWith('/stream'))).toEqual([]);
  });

  it('offline: the tabs and messages stored in the browser still show', async () => {
    const user = userEvent.setup();
    const { unmount } = renderApp('/llm-chat');
    await user.type(await input(), 'Remember me{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    const offline = () => {
      throw new TypeError('Failed to fetch');
    };
    api.route(`GET ${CONVS}`, offline);
    api.route(`GET ${CONVS}/${convs.all[0].id}/messages`, offline);
    reload(unmount);
    expect(await screen.findByRole('tab', { name: 'Remember me' })).toBeInTheDocument();
    expect(messages().map((m) => m.textContent)).toEqual([expect.stringContaining('Remember me'), expect.stringContaining('Hello there')]);
    await waitFor(() => expect(api.callsTo('GET', CONVS)).toHaveLength(2));
  });
});

describe('Stop and Retry', () => {
  it('Stop (in place of Send while a reply streams) asks the server to end it; the reply ends marked Stopped', async () => {
    const user = userEvent.setup();
    const body = sseStream();
    answer = () => body.response;
    renderApp('/llm-chat');
    await user.type(await input(), 'Go on forever{Enter}');
    body.push(sseData({ content: 'And on' }));
    await waitFor(() => expect(messages()[1]).toHaveTextContent('And on'));
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(convs.stops).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Stopping...' })).toBeDisabled();
    body.push(SSE_DONE);
    body.end();
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    expect(within(messages()[1]).getByTestId('message-stopped')).toHaveTextContent('Stopped');
    expect(screen.queryByRole('button', { name: /^Stop/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('a failed reply says why and offers Retry, which sends the same message again in its place', async () => {
    const user = userEvent.setup();
    answer = () => sseResponse([sseData({ content: 'Par' }), 'event: error\ndata: {"detail":"Upstream gone"}\n\n']);
    renderApp('/llm-chat');
    await user.type(await input(), 'Try this{Enter}');
    await waitFor(() => expect(within(messages()[1]).getByTestId('message-error')).toHaveTextContent('The reply broke off: Upstream gone'));
    answer = () => sseResponse([sseData({ content: 'It worked.' }), SSE_DONE]);
    await user.click(within(messages()[1]).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(messages()[1]).toHaveTextContent('It worked.'));
    expect(messages().map((m) => m.getAttribute('data-role'))).toEqual(['user', 'assistant']);
    expect(messages()[0]).toHaveTextContent('Try this');
    expect(screen.queryByTestId('message-error')).toBeNull();
    const bodies = api.callsTo('POST', '/api/v1/mcp-connections/message').map((c) => c.body as Record<string, unknown>);
    expect(bodies.map((b) => [b.message, b.conversation_id])).toEqual([
      ['Try this', convs.all[0].id],
      ['Try this', convs.all[0].id],
    ]);
  });

  it('after a reload, a retried failure stays out of sight: the server’s history shows the retried message once', async () => {
    const user = userEvent.setup();
    answer = () => sseResponse(['event: error\ndata: {"detail":"Upstream gone"}\n\n']);
    const { unmount } = renderApp('/llm-chat');
    await user.type(await input(), 'Again{Enter}');
    await waitFor(() => expect(screen.getByTestId('message-error')).toBeInTheDocument());
    answer = () => sseResponse([sseData({ content: 'Done.' }), SSE_DONE]);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(messages()[1]).toHaveTextContent('Done.'));
    expect(convs.messages[convs.all[0].id]).toHaveLength(4);
    reload(unmount);
    await waitFor(() => expect(api.callsTo('GET', `${CONVS}/${convs.all[0].id}/messages`)).toHaveLength(1));
    await waitFor(() => expect(messages().map((m) => m.textContent)).toEqual([expect.stringContaining('Again'), expect.stringContaining('Done.')]));
  });
});

describe('History', () => {
  async function openHistory() {
    const user = userEvent.setup();
    renderApp('/llm-chat');
    await input();
    await user.click(screen.getByRole('button', { name: 'History' }));
    const dialog = await screen.findByRole('dialog', { name: 'History' });
    return { user, dialog };
  }
  const items = (dialog: HTMLElement) => within(dialog).queryAllByTestId('history-item');

  it('lists the archived conversations, newest first; the search box has focus', async () => {
    convs.seed({ title: 'Tides', archived: true, messages: [{ role: 'user', content: 'How do tides work?' }] });
    convs.seed({ title: 'Open one' });
    convs.seed({ title: 'Recipes', archived: true });
    const { dialog } = await openHistory();
    await waitFor(() => expect(items(dialog).map((i) => within(i).getByText(/Tides|Recipes/).textContent)).toEqual(['Recipes', 'Tides']));
    expect(items(dialog)[1]).toHaveTextContent('1 message');
    expect(within(dialog).getByRole('searchbox', { name: 'Search conversations' })).toHaveFocus();
    expect(api.callsTo('GET', CONVS).at(-1)?.search).toBe('?archived=true&limit=20');
  });

  it('searches by title and text as one types (once typing pauses)', async () => {
    convs.seed({ title: 'Tides', archived: true, messages: [{ role: 'user', content: 'How does the moon pull?' }] });
    convs.seed({ title: 'Recipes', archived: true });
    const { user, dialog } = await openHistory();
    await waitFor(() => expect(items(dialog)).toHaveLength(2));
    await user.type(within(dialog).getByRole('searchbox'), 'moon');
    await waitFor(() => expect(items(dialog).map((i) => i.textContent)).toEqual([expect.stringContaining('Tides')]));
    const searches = api.callsTo('GET', CONVS).filter((c) => c.search.includes('q='));
    expect(searches.map((c) => c.search)).toEqual(['?archived=true&q=moon&limit=20']);
    await user.clear(within(dialog).getByRole('searchbox'));
    await user.type(within(dialog).getByRole('searchbox'), 'nothing like it');
    expect(await within(dialog).findByTestId('history-empty')).toHaveTextContent('No archived conversation matches “nothing like it”.');
  });

  it('empty: says where closed chats go; a closed tab shows up there', async () => {
    const { user, dialog } = await openHistory();
    expect(await within(dialog).findByTestId('history-empty')).toHaveTextContent(HISTORY_EMPTY);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await user.type(await input(), 'Keep this{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    await user.click(screen.getByRole('button', { name: 'Close Keep this' }));
    await waitFor(() => expect(convs.all.find((c) => c.title === 'Keep this')?.archived).toBe(true));
    await user.click(screen.getByRole('button', { name: 'History' }));
    const again = await screen.findByRole('dialog', { name: 'History' });
    await waitFor(() => expect(items(again)).toHaveLength(1));
    expect(items(again)[0]).toHaveTextContent('Keep this');
  });

  it('History opened while a closed tab is still being archived lists it once the archive is written', async () => {
    const { user, dialog } = await openHistory();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await user.type(await input(), 'Closed in a hurry{Enter}');
    await waitFor(() => expect(messages()[1]).toHaveAttribute('data-complete', 'true'));
    const id = convs.all.find((c) => c.title === 'Closed in a hurry')!.id;
    const patch = api.handlerFor(`PATCH ${CONVS}/${id}`)!;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.route(`PATCH ${CONVS}/${id}`, async (req) => {
      await held;
      return patch(req);
    });
    // The list History reads on opening is answered before the archive is written.
    const list = api.handlerFor(`GET ${CONVS}`)!;
    let listed = 0;
    api.route(`GET ${CONVS}`, async (req) => {
      const answer = await list(req);
      listed += 1;
      return answer;
    });
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    await user.click(screen.getByRole('button', { name: 'Close Closed in a hurry' }));
    await user.click(screen.getByRole('button', { name: 'History' }));
    const again = await screen.findByRole('dialog', { name: 'History' });
    await waitFor(() => expect(listed).toBe(1));
    expect(await within(again).findByTestId('history-empty')).toHaveTextContent(HISTORY_EMPTY);
    release();
    await waitFor(() => expect(items(again).map((i) => i.textContent)).toEqual([expect.stringContaining('Closed in a hurry')]));
  });

  it('Reopen opens it as the first tab, active, with its messages, and closes History', async () => {
    convs.seed({ title: 'Back again', archived: true, messages: [{ role: 'user', content: 'Earlier' }, { role: 'assistant', content: 'Reply' }] });
    const { user, dialog } = await openHistory();
    await user.click(await within(dialog).findByRole('button', { name: 'Reopen Back again' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(tabTitles()).toEqual(['Back again']);
    expect(screen.getByRole('tab', { name: 'Back again' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(messages()).toHaveLength(2));
    expect(convs.all[0].archived).toBe(false);
  });

  it('Delete asks first (Cancel gives focus back), then removes it for good', async () => {
    convs.seed({ title: 'Doomed', archived: true });
    convs.seed({ title: 'Kept', archived: true });
    const { user, dialog } = await openHistory();
    const remove = await within(dialog).findByRole('button', { name: 'Delete Doomed' });
    await user.click(remove);
    const confirm = within(dialog).getByRole('group', { name: 'Delete “Doomed” for good? It cannot be undone.' });
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Delete Doomed' })).toHaveFocus());
    expect(convs.all).toHaveLength(2);

    await user.keyboard('{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(items(dialog).map((i) => i.textContent)).toEqual([expect.stringContaining('Kept')]));
    expect(convs.all.map((c) => c.title)).toEqual(['Kept']);
    expect(within(dialog).getByRole('searchbox')).toHaveFocus();
  });

  it('a deleted conversation stays gone though the list read right after still has it (the list catches up a moment later)', async () => {
    convs.seed({ title: 'Doomed', archived: true });
    convs.seed({ title: 'Kept', archived: true });
    const before = convs.all.map((c) => ({ ...c })).reverse();
    api.route(`GET ${CONVS}`, () => jsonResponse(200, { conversations: before, next_cursor: '', total: 2 }));
    const { user, dialog } = await openHistory();
    await user.click(await within(dialog).findByRole('button', { name: 'Delete Doomed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(convs.all.map((c) => c.title)).toEqual(['Kept']));
    await waitFor(() => expect(items(dialog).map((i) => i.textContent)).toEqual([expect.stringContaining('Kept')]));
  });

  it('a failed load says so with Try again; a refused Delete says why', async () => {
    convs.seed({ title: 'Stuck', archived: true });
    api.route(`GET ${CONVS}`, () => jsonResponse(500, { detail: 'History is down' }));
    const { user, dialog } = await openHistory();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Could not load your conversations: History is down');
    convs.use(); // the server answers again
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(items(dialog)).toHaveLength(1));
    api.route(`DELETE ${CONVS}/${convs.all[0].id}`, () => jsonResponse(500, { detail: 'Cannot delete now' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete Stuck' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Cannot delete now');
    expect(items(dialog)).toHaveLength(1);
  });

  /** The list as the server answers a search: it reads at most `read` conversations a request, and answers their matches with a cursor to go on from. */
  function boundedSearch(read: number) {
    api.route(`GET ${CONVS}`, (req) => {
      const params = req.url.searchParams;
      const q = (params.get('q') ?? '').toLowerCase();
      const limit = Number(params.get('limit') ?? '50');
      const from = Number(params.get('cursor') || '0');
      const list = convs.all.filter((c) => c.archived === (params.get('archived') === 'true')).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
      const page = [];
      let i = from;
      for (; i < list.length && page.length < limit && (!q || i < from + read); i++) {
        if (!q || list[i].title.toLowerCase().includes(q)) page.push(list[i]);
      }
      return jsonResponse(200, { conversations: page, next_cursor: i < list.length ? String(i) : '', total: convs.all.length });
    });
  }
  const searchCalls = () => api.callsTo('GET', CONVS).filter((c) => c.search.includes('q='));

  it('a search answered in short pages (the server reads part of the list a request) shows every match, asking on to the end', async () => {
    for (let i = 1; i <= 30; i++) convs.seed({ title: i % 7 === 0 ? `Moon ${i}` : `Other ${i}`, archived: true });
    boundedSearch(4);
    const { user, dialog } = await openHistory();
    await waitFor(() => expect(items(dialog)).toHaveLength(20));
    await user.type(within(dialog).getByRole('searchbox'), 'moon');
    await waitFor(() => expect(items(dialog).map((i) => within(i).getByText(/Moon/).textContent)).toEqual(['Moon 28', 'Moon 21', 'Moon 14', 'Moon 7']));
    expect(searchCalls()).toHaveLength(8);
    expect(within(dialog).queryByRole('button', { name: 'Load more' })).toBeNull();

    await user.clear(within(dialog).getByRole('searchbox'));
    await user.type(within(dialog).getByRole('searchbox'), 'nothing like it');
    // Typing may pause long enough (a busy machine) for a search of the words so far: wait for the whole query's.
    await waitFor(() => expect(within(dialog).getByTestId('history-empty')).toHaveTextContent('No archived conversation matches “nothing like it”.'));
    expect(searchCalls().filter((c) => new URLSearchParams(c.search).get('q') === 'nothing like it')).toHaveLength(8);
  });

  it('a search answered in short pages stops at a screenful; Load more asks on to the next', async () => {
    for (let i = 1; i <= 50; i++) convs.seed({ title: `Chat ${i}`, archived: true });
    boundedSearch(7);
    const { user, dialog } = await openHistory();
    await user.type(within(dialog).getByRole('searchbox'), 'chat');
    await waitFor(() => expect(searchCalls()).toHaveLength(3));
    await waitFor(() => expect(items(dialog)).toHaveLength(21));
    expect(items(dialog)[0]).toHaveTextContent('Chat 50');
    await user.click(within(dialog).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(items(dialog)).toHaveLength(42));
    expect(searchCalls()).toHaveLength(6);
    expect(within(dialog).getByRole('button', { name: 'Load more' })).toBeEnabled();
  });

  it('Load more brings the next page', async () => {
    for (let i = 1; i <= 22; i++) convs.seed({ title: `Old ${i}`, archived: true });
    const { user, dialog } = await openHistory();
    await waitFor(() => expect(items(dialog)).toHaveLength(20));
    await user.click(within(dialog).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(items(dialog)).toHaveLength(22));
    expect(within(dialog).queryByRole('button', { name: 'Load more' })).toBeNull();
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('migration of chats stored in the browser before', () => {
  it('uploads each old tab once with its messages; after a reload they come from the server', async () => {
    const tabs = [{ id: 'old-1', title: 'Old plans', provider: 'google', model: 'gemini-1.5-flash', createdAt: '2026-01-01T00:00:00Z' }];
    localStorage.setItem('chat-tabs:u1', JSON.stringify(tabs));
    localStorage.setItem('chat-active-tab:u1', 'old-1');
    localStorage.setItem('chat-conversations:u1', JSON.stringify({ 'old-1': [{ id: 'm1', role: 'user', content: 'An old question', timestamp: '2026-01-01T00:00:00Z', complete: true }] }));
    const { unmount } = renderApp('/llm-chat');
    await waitFor(() => expect(convs.all.map((c) => [c.title, c.provider, c.model])).toEqual([['Old plans', 'google', 'gemini-1.5-flash']]));
    expect(convs.messages[convs.all[0].id].map((m) => m.content)).toEqual(['An old question']);
    expect(screen.getByRole('tab', { name: 'Old plans' })).toBeInTheDocument();
    expect(messages()[0]).toHaveTextContent('An old question');
    expect(screen.queryByTestId('legacy-note')).toBeNull();

    reload(unmount);
    expect(await screen.findByRole('tab', { name: 'Old plans' })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', `${CONVS}/${convs.all[0].id}/messages`).length).toBeGreaterThan(0));
    await waitFor(() => expect(messages()).toHaveLength(1));
    expect(messages()[0]).toHaveTextContent('An old question');
    expect(api.callsTo('POST', CONVS)).toHaveLength(1);
  });

  it('an old tab that cannot be uploaded yet keeps its messages with a note, and is uploaded next time', async () => {
    const tabs = [{ id: 'old-1', title: 'Old plans', provider: 'google', model: 'gemini-1.5-flash', createdAt: '2026-01-01T00:00:00Z' }];
    localStorage.setItem('chat-tabs:u1', JSON.stringify(tabs));
    localStorage.setItem('chat-active-tab:u1', 'old-1');
    localStorage.setItem('chat-conversations:u1', JSON.stringify({ 'old-1': [{ id: 'm1', role: 'user', content: 'An old question', timestamp: '2026-01-01T00:00:00Z', complete: true }] }));
    const upload = api.handlerFor(`POST ${CONVS}`)!;
    api.route(`POST ${CONVS}`, () => jsonResponse(503, { detail: 'The service is busy; try again in a moment.', code: 'unavailable' }));
    const { unmount } = renderApp('/llm-chat');
    expect(await screen.findByTestId('legacy-note')).toHaveTextContent('could not be uploaded yet');
    expect(messages()[0]).toHaveTextContent('An old question');
    expect(convs.all).toHaveLength(0);

    api.route(`POST ${CONVS}`, upload);
    reload(unmount);
    await waitFor(() => expect(convs.all).toHaveLength(1));
    expect(convs.messages[convs.all[0].id].map((m) => m.content)).toEqual(['An old question']);
    await waitFor(() => expect(screen.queryByTestId('legacy-note')).toBeNull());
  });
});
