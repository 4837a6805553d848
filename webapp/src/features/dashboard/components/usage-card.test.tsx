import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deferred } from '../../../test/fake-api';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { renderApp } from '../../../test/render-app';
import { startSignedIn } from '../../../test/session';
import { setUpPageTests } from '../../../test/page-tests';
import { chatLimits, modelUsage as model } from '../../../test/usage-fixtures';
import type { ChatUsage, ModelUsage } from '../api/types';

const api = setUpPageTests();

// The route is lazy: load its module once so the first test does not pay for the transform.
beforeAll(async () => {
  await import('./dashboard-page');
}, 30_000);

beforeEach(() => {
  api.route('GET /api/v1/users/activities', () => jsonResponse(200, []));
  api.route('GET /api/v1/payments/owned-prompts', () => jsonResponse(200, { owned_prompt_ids: [] }));
  api.route('GET /api/v1/mcp-connections/', () => jsonResponse(200, []));
});

function usage(over: { today?: ModelUsage[]; month?: ModelUsage[]; limits?: Partial<ChatUsage['limits']> } = {}): ChatUsage {
  const sum = (list: ModelUsage[]) => ({
    input_tokens: list.reduce((n, m) => n + m.input_tokens, 0),
    output_tokens: list.reduce((n, m) => n + m.output_tokens, 0),
    cost_usd: list.reduce((n, m) => n + m.cost_usd, 0),
    requests: list.reduce((n, m) => n + m.requests, 0),
    by_model: list,
  });
  const today = over.today ?? [];
  const month = over.month ?? today;
  const t = sum(today);
  return {
    today: { date: '2026-11-22', ...t },
    month: { month: '2026-11', ...sum(month) },
    limits: chatLimits({ tokens_used_today: t.input_tokens + t.output_tokens, ...over.limits }),
  };
}

const card = () => screen.findByTestId('chat-usage');

describe('Dashboard: Chat usage', () => {
  it("shows today's allowance as a bar with its numbers, and per-model bars for today and the month", async () => {
    const token = startSignedIn();
    const demo = model({ provider: 'anthropic', model: 'claude-3-5-sonnet', demo: true, input_tokens: 100, output_tokens: 200, cost_usd: 0, requests: 1 });
    api.route('GET /api/v1/users/usage', () =>
      jsonResponse(200, usage({ today: [model(), demo], month: [model({ input_tokens: 4000, output_tokens: 6000, cost_usd: 0.5, requests: 9 }), demo], limits: { tokens_used_today: 150_000 } })),
    );
    renderApp('/dashboard');
    const section = await card();
    expect(within(section).getByRole('heading', { level: 2, name: 'Chat usage' })).toBeInTheDocument();

    const meter = await within(section).findByRole('progressbar', { name: "Today's allowance" });
    expect(meter).toHaveAttribute('aria-valuemin', '0');
    expect(meter).toHaveAttribute('aria-valuemax', '200000');
    expect(meter).toHaveAttribute('aria-valuenow', '150000');
    expect(meter).toHaveAttribute('aria-valuetext', '150,000 of 200,000 tokens used today (75%) · 50,000 left');
    expect((meter.firstElementChild as HTMLElement).style.width).toBe('75%');
    const allowance = within(section).getByTestId('usage-allowance');
    expect(allowance).toHaveTextContent('150,000 of 200,000 tokens used today (75%) · 50,000 left');
    expect(allowance).toHaveTextContent('Resets at 00:00 UTC');
    expect(allowance).toHaveTextContent('Up to 3 replies at once · 20 messages a minute');
    expect(allowance).toHaveAttribute('data-state', 'ok');

    const [today, month] = within(section).getAllByTestId('usage-period');
    expect(within(today).getByRole('heading', { level: 3, name: 'Today' })).toBeInTheDocument();
    expect(within(today).getByTestId('usage-total')).toHaveTextContent('1,805 tokens · $0.0021 · 4 requests');
    // Text carries every number; the bars are drawn beside it, hidden from screen readers.
    const rows = within(within(today).getByRole('list', { name: 'Today by model' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      'OpenAI · gpt-4o-mini412 in → 1,093 out tokens · $0.0021 · 3 requests',
      'Anthropic · claude-3-5-sonnetdemo100 in → 200 out tokens · demo · 1 request',
    ]);
    const bars = rows.map((r) => r.querySelector('.usage-bars') as HTMLElement);
    for (const b of bars) expect(b).toHaveAttribute('aria-hidden', 'true');
    const widths = (b: HTMLElement) => [...b.children].map((s) => (s as HTMLElement).style.width);
    expect(widths(bars[0])).toEqual(['27.4%', '72.6%']); // the busiest model fills the chart
    expect(widths(bars[1])).toEqual(['6.6%', '13.3%']);

    expect(within(month).getByRole('heading', { level: 3, name: 'This month (November 2026)' })).toBeInTheDocument();
    expect(within(month).getByTestId('usage-total')).toHaveTextContent('10,300 tokens · $0.5000 · 10 requests');
    expect(within(month).getAllByTestId('usage-model')[0]).toHaveTextContent('4,000 in → 6,000 out tokens · $0.5000 · 9 requests');

    const call = api.callsTo('GET', '/api/v1/users/usage')[0];
    expect(call.auth).toBe(`Bearer ${token}`);
    // The registry's Active Connections card is still there.
    expect(await screen.findByRole('link', { name: 'Active Connections: 0' })).toBeInTheDocument();
  });

  it('says so when there is no usage yet today (the allowance bar at 0)', async () => {
    startSignedIn();
    api.route('GET /api/v1/users/usage', () => jsonResponse(200, usage({ today: [], month: [] })));
    renderApp('/dashboard');
    const section = await card();
    expect(await within(section).findByText('No chat usage yet today')).toBeInTheDocument();
    expect(within(section).getByText('No chat usage yet this month')).toBeInTheDocument();
    const meter = within(section).getByRole('progressbar', { name: "Today's allowance" });
    expect(meter).toHaveAttribute('aria-valuenow', '0');
    expect((meter.firstElementChild as HTMLElement).style.width).toBe('0%');
    expect(within(section).queryAllByTestId('usage-model')).toHaveLength(0);
  });

  it('shows earlier use this month when today is empty', async () => {
    startSignedIn();
    api.route('GET /api/v1/users/usage', () => jsonResponse(200, usage({ today: [], month: [model()] })));
    renderApp('/dashboard');
    const section = await card();
    const [today, month] = await within(section).findAllByTestId('usage-period');
    expect(today).toHaveTextContent('No chat usage yet today');
    expect(within(month).getAllByTestId('usage-model')).toHaveLength(1);
  });

  it('a used-up allowance is full and says so; a budget of 0 shows no bar', async () => {
    startSignedIn();
    let budget = 200_000;
    api.route('GET /api/v1/users/usage', () => jsonResponse(200, usage({ today: [model()], limits: { daily_token_budget: budget, tokens_used_today: 200_100 } })));
    renderApp('/dashboard');
    const section = await card();
    const meter = await within(section).findByRole('progressbar', { name: "Today's allowance" });
    expect(meter).toHaveAttribute('aria-valuenow', '200000');
    expect((meter.firstElementChild as HTMLElement).style.width).toBe('100%');
    expect(within(section).getByTestId('usage-allowance')).toHaveAttribute('data-state', 'exhausted');
    expect(within(section).getByTestId('usage-allowance')).toHaveTextContent("today's allowance is used up");
  });

  it('no daily limit: no bar, the tokens used in words', async () => {
    startSignedIn();
    api.route('GET /api/v1/users/usage', () => jsonResponse(200, usage({ today: [model()], limits: { daily_token_budget: 0 } })));
    renderApp('/dashboard');
    const section = await card();
    expect(await within(section).findByText('1,505 tokens used today · no daily limit')).toBeInTheDocument();
    expect(within(section).queryByRole('progressbar')).toBeNull();
  });

  it('shows a loading state until the answer comes', async () => {
    startSignedIn();
    const hold = deferred<Response>();
    api.route('GET /api/v1/users/usage', () => hold.promise);
    renderApp('/dashboard');
    const section = await card();
    expect(await within(section).findByRole('status', { name: 'Loading chat usage' })).toBeInTheDocument();
    await act(async () => hold.resolve(jsonResponse(200, usage({ today: [model()] }))));
    expect(await within(section).findByRole('progressbar', { name: "Today's allowance" })).toBeInTheDocument();
    expect(within(section).queryByRole('status', { name: 'Loading chat usage' })).toBeNull();
  });

  it('shows the error with Retry, which loads it again', async () => {
    startSignedIn();
    let fail = true;
    api.route('GET /api/v1/users/usage', () => (fail ? jsonResponse(503, { detail: 'Usage is being recalculated.' }) : jsonResponse(200, usage({ today: [model()] }))));
    renderApp('/dashboard');
    const section = await card();
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent('Chat usage could not be loaded. Usage is being recalculated.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(section).findByRole('progressbar', { name: "Today's allowance" })).toBeInTheDocument();
    await waitFor(() => expect(within(section).queryByRole('alert')).toBeNull());
  });

  it('an answer that is not usage is an error, not a blank card', async () => {
    startSignedIn();
    api.route('GET /api/v1/users/usage', () => jsonResponse(200, { hello: 'world' }));
    renderApp('/dashboard');
    const section = await card();
    expect(await within(section).findByRole('alert')).toHaveTextContent('Chat usage could not be loaded. Please try again.');
  });
});
