import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  configureAnalytics,
  configureGoogleAnalytics,
  isAnalyticsConfigured,
  stripQuery,
  trackFreePromptUse,
  trackLogin,
  trackPageView,
  trackPurchase,
  trackViewItem,
} from './analytics';

afterEach(() => configureAnalytics(null));

describe('analytics', () => {
  it('is a no-op until configured', () => {
    expect(isAnalyticsConfigured()).toBe(false);
    expect(() => {
      trackPageView('/');
      trackLogin('email');
    }).not.toThrow();
  });

  it('ignores a missing or malformed measurement id', () => {
    configureGoogleAnalytics(undefined);
    configureGoogleAnalytics('');
    configureGoogleAnalytics('"><script>');
    expect(isAnalyticsConfigured()).toBe(false);
    expect(document.querySelector('script[src*="googletagmanager"]')).toBeNull();
  });

  it('sends the five event kinds to the configured sink', () => {
    const sink = vi.fn();
    configureAnalytics(sink);
    trackPageView('/marketplace');
    trackLogin('google');
    trackPurchase({ sessionId: 'cs_1', amount: 12.99, promptId: 'p1', promptTitle: 'Cold email' });
    trackViewItem({ promptId: 'p1', promptTitle: 'Cold email', price: 12.99 });
    trackFreePromptUse({ promptId: 'p2' });
    expect(sink.mock.calls.map(([e]) => e.name)).toEqual(['page_view', 'login', 'purchase', 'view_item', 'free_prompt_use']);
    expect(sink.mock.calls[2][0].params).toMatchObject({ transaction_id: 'cs_1', value: 12.99, currency: 'USD', item_id: 'p1' });
  });

  it('never sends the query string of a page (tokens live there)', () => {
    const sink = vi.fn();
    configureAnalytics(sink);
    trackPageView('/auth/callback?token=a.b.c&type=google');
    expect(sink).toHaveBeenCalledWith({ name: 'page_view', params: { page_path: '/auth/callback' } });
    expect(stripQuery('/a#frag')).toBe('/a');
  });

  it('swallows sink errors', () => {
    configureAnalytics(() => {
      throw new Error('blocked by an ad blocker');
    });
    expect(() => trackLogin('email')).not.toThrow();
  });
});
