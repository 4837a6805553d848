// The one analytics module (SPEC §7: page view, login, purchase, view item,
// free prompt use). A no-op until configured: set VITE_ANALYTICS_ID at build
// time (a Google Analytics 4 measurement id, G-XXXX) or call
// configureAnalytics() with a custom sink. Paths are sent without their
// query string, and gtag.js reads the address itself (page_location): so
// secret tokens (/auth/callback?token=…, the mailed links) are taken out of
// the address at start, before analytics is configured (app/start.tsx).

export type AnalyticsEvent =
  | { name: 'page_view'; params: { page_path: string } }
  | { name: 'login'; params: { method: 'email' | 'google' } }
  | { name: 'purchase'; params: { transaction_id?: string; value?: number; currency: 'USD'; item_id?: string; item_name?: string } }
  | { name: 'view_item'; params: { item_id: string; item_name?: string; value?: number; currency: 'USD' } }
  | { name: 'free_prompt_use'; params: { item_id: string; item_name?: string } };

export type AnalyticsSink = (event: AnalyticsEvent) => void;

let sink: AnalyticsSink | null = null;

export function isAnalyticsConfigured(): boolean {
  return sink !== null;
}

/** Install a sink (null turns analytics off again). */
export function configureAnalytics(next: AnalyticsSink | null): void {
  sink = next;
}

type GtagWindow = Window & { dataLayer?: unknown[]; gtag?: (...args: unknown[]) => void };

/** Load gtag.js for a GA4 measurement id; only ids of the expected shape are used. */
export function configureGoogleAnalytics(measurementId: string | undefined): void {
  if (!measurementId || !/^G-[A-Z0-9]{4,20}$/.test(measurementId)) return;
  const w = window as GtagWindow;
  w.dataLayer = w.dataLayer ?? [];
  w.gtag = function gtag() {
    // gtag expects the `arguments` object itself.
    // eslint-disable-next-line prefer-rest-params
    w.dataLayer!.push(arguments);
  };
  w.gtag('js', new Date());
  w.gtag('config', measurementId, { send_page_view: false });
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  document.head.appendChild(script);
  configureAnalytics((event) => w.gtag?.('event', event.name, event.params));
}

function send(event: AnalyticsEvent): void {
  if (!sink) return;
  try {
    sink(event);
  } catch {
    // Analytics must never break the app.
  }
}

export function stripQuery(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

export function trackPageView(path: string): void {
  send({ name: 'page_view', params: { page_path: stripQuery(path) } });
}

export function trackLogin(method: 'email' | 'google'): void {
  send({ name: 'login', params: { method } });
}

export function trackPurchase(params: { sessionId?: string; amount?: number; promptId?: string; promptTitle?: string }): void {
  send({
    name: 'purchase',
    params: {
      transaction_id: params.sessionId,
      value: params.amount,
      currency: 'USD',
      item_id: params.promptId,
      item_name: params.promptTitle,
    },
  });
}

export function trackViewItem(params: { promptId: string; promptTitle?: string; price?: number }): void {
  send({ name: 'view_item', params: { item_id: params.promptId, item_name: params.promptTitle, value: params.price, currency: 'USD' } });
}

export function trackFreePromptUse(params: { promptId: string; promptTitle?: string }): void {
  send({ name: 'free_prompt_use', params: { item_id: params.promptId, item_name: params.promptTitle } });
}
