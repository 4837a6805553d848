import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app';
import { jsonResponse } from '../../../test/jwt-fixtures';
import { setUpPageTests } from '../../../test/page-tests';
import { startSignedIn, startSignedOut } from '../../../test/session';
import { recordTourOutcome, TOUR_PREPARING_MS, TOUR_FADE_MS } from '../tour/tour-state';
import { resetWarmUpForTests, WARM_UP_ENDPOINTS } from '../warm-up';

const api = setUpPageTests();
beforeEach(() => {
  // The warm-up pings succeed.
  for (const path of WARM_UP_ENDPOINTS) api.route(`GET /api/v1${path}`, () => jsonResponse(200, {}));
});
afterEach(() => {
  vi.useRealTimers();
});

const FAKE = { toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] } as const;

/** Render '/' under fake timers: chunks are imported first so React.lazy resolves in microtasks. */
async function renderHomeWithFakeTimers() {
  await import('./home-page');
  await import('../tour/tour-overlay');
  vi.useFakeTimers({ toFake: [...FAKE.toFake] });
  renderApp('/');
  for (let i = 0; i < 10 && !screen.queryByTestId('tour'); i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  }
  return screen.getByTestId('tour');
}

describe('HomePage', () => {
  it('shows the hero, four feature blocks and a call to register', async () => {
    startSignedOut();
    recordTourOutcome('completed');
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    const features = screen.getByRole('region', { name: 'What you can do' });
    expect(within(features).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/marketplace', '/agents', '/registry', '/llm-chat']);
    expect(screen.getByRole('link', { name: 'Create your free account' })).toHaveAttribute('href', '/register');
    expect(screen.queryByTestId('tour')).toBeNull();
  });

  it('runs the tour for visitors; closing shows the preparing spinner, records the flag and fades out', async () => {
    startSignedOut();
    const tour = await renderHomeWithFakeTimers();
    expect(within(tour).getByRole('heading', { name: 'Prompt Marketplace' })).toBeInTheDocument();
    expect(within(tour).getByRole('progressbar', { name: 'Step progress' })).toBeInTheDocument();
    expect(within(tour).getAllByRole('button', { name: /Go to/ })).toHaveLength(5);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4100);
    });
    expect(within(tour).getByRole('heading', { name: 'Agent Marketplace' })).toBeInTheDocument();

    act(() => within(tour).getByRole('button', { name: 'Pause' }).click());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(within(tour).getByRole('heading', { name: 'Agent Marketplace' })).toBeInTheDocument();
    expect(within(tour).getByRole('button', { name: 'Resume' })).toBeInTheDocument();

    act(() => within(tour).getByRole('button', { name: 'Close tour' }).click());
    expect(within(tour).getByText('Preparing your experience...')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('tour-cancelled')!).at).toEqual(expect.any(Number));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(TOUR_PREPARING_MS + 100);
    });
    expect(screen.getByTestId('tour')).toHaveClass('tour--fading');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(TOUR_FADE_MS + 100);
    });
    expect(screen.queryByTestId('tour')).toBeNull();
  });

  it('reaches the "Ready to Explore?" card after four steps', async () => {
    startSignedOut();
    const tour = await renderHomeWithFakeTimers();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4 * 4000 + 100);
    });
    expect(within(tour).getByRole('heading', { name: 'Ready to Explore?' })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(localStorage.getItem('tour-completed')).not.toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.queryByTestId('tour')).toBeNull();
  });

  it('hides the tour and the register call for signed-in users', async () => {
    startSignedIn();
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Go to Dashboard' })).toBeInTheDocument();
    expect(screen.queryByTestId('tour')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create your free account' })).toBeNull();
  });

  it('pings the warm-up endpoints after 1 s, once per page load after success', async () => {
    resetWarmUpForTests();
    await import('./home-page');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    startSignedIn();
    const view = renderApp('/');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(900);
    });
    expect(api.calls).toHaveLength(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    const urls = api.calls.map((c) => c.path + c.search);
    for (const p of ['/api/v1/prompts/categories', '/api/v1/mcp-servers/', '/api/v1/prompts/featured', '/api/v1/auth/health']) {
      expect(urls).toContain(p);
    }
    expect(api.calls).toHaveLength(4);

    // Coming back to the home page does not ping again.
    view.unmount();
    renderApp('/');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(api.calls).toHaveLength(4);
  });
});
