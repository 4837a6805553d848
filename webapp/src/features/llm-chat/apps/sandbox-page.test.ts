// The sandbox proxy page (public/mcp-app-sandbox.html) as the browser runs
// it: its script, run against a stand-in for the chat (its parent), told a
// view's HTML and declared domains, builds the inner frame with the policy
// first, and relays JSON-RPC between the chat and the view only.

import { afterEach, describe, expect, it, vi } from 'vitest';

const PAGE = Object.values(import.meta.glob<string>('/public/mcp-app-sandbox.html', { query: '?raw', import: 'default', eager: true }))[0];
const SCRIPT = /<script>([\s\S]*?)<\/script>/.exec(PAGE)![1];
const ORIGIN = 'http://localhost:3000';

type Listener = (event: { source: unknown; origin: string; data: unknown }) => void;

/** Runs the page's script with `parent` as the chat; answers what it posts and the message listener. */
function runPage() {
  const parent = { postMessage: vi.fn() };
  let listener: Listener | undefined;
  const win = {
    parent,
    addEventListener: (type: string, fn: Listener) => {
      if (type === 'message') listener = fn;
    },
  };
  new Function('window', 'location', 'document', SCRIPT)(win, { origin: ORIGIN }, document);
  const fromChat = (data: unknown, origin = ORIGIN) => listener!({ source: parent, origin, data });
  const inner = () => document.querySelector('iframe');
  const fromView = (data: unknown) => listener!({ source: inner()!.contentWindow, origin: 'null', data });
  return { parent, fromChat, fromView, inner, listener: () => listener! };
}

const ready = (params: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params });
/** The policy the inner frame's document starts with. */
function policyOf(frame: HTMLIFrameElement): string {
  const m = /^<!doctype html><meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(frame.srcdoc);
  expect(m, frame.srcdoc.slice(0, 200)).not.toBeNull();
  return m![1].replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the sandbox proxy page', () => {
  it("announces itself to the chat (to the chat's origin only) and makes no frame before it is told the view", () => {
    const page = runPage();
    expect(page.parent.postMessage).toHaveBeenCalledExactlyOnceWith({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, ORIGIN);
    expect(page.inner()).toBeNull();
  });

  it("renders the view in an allow-scripts frame whose document starts with the policy: nothing declared, nothing allowed", () => {
    const page = runPage();
    page.fromChat(ready({ html: '<!DOCTYPE html><html><head><title>v</title></head><body>Hi</body></html>', sandbox: 'allow-scripts allow-same-origin allow-popups' }));
    const frame = page.inner()!;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.hasAttribute('allow')).toBe(false);
    expect(frame.srcdoc.endsWith('<!DOCTYPE html><html><head><title>v</title></head><body>Hi</body></html>')).toBe(true);
    expect(policyOf(frame)).toBe(
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; " +
        "connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'; object-src 'none'",
    );
    // One view per page: a second resource changes nothing.
    page.fromChat(ready({ html: '<p>other</p>' }));
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
  });

  it('adds the declared domains to their directives, and drops wildcards, other schemes and anything that could add a directive', () => {
    const page = runPage();
    page.fromChat(
      ready({
        html: '<p>v</p>',
        csp: {
          connectDomains: ['https://api.example.com', 'wss://socket.example.com', '*', "https://x.com; script-src 'unsafe-eval'"],
          resourceDomains: ['https://cdn.example.com', 'https://*.example.com', 'http://127.0.0.1:8080', 'data:', 'https://a.com b.com'],
          frameDomains: ['https://www.youtube.com/'],
          baseUriDomains: ['https://base.example.com'],
        },
        permissions: { camera: {}, clipboardWrite: {}, somethingElse: {} },
      }),
    );
    const frame = page.inner()!;
    expect(policyOf(frame)).toBe(
      "default-src 'none'; script-src 'unsafe-inline' https://cdn.example.com http://127.0.0.1:8080; style-src 'unsafe-inline' https://cdn.example.com http://127.0.0.1:8080; " +
        'img-src data: blob: https://cdn.example.com http://127.0.0.1:8080; font-src data: https://cdn.example.com http://127.0.0.1:8080; ' +
        'media-src data: blob: https://cdn.example.com http://127.0.0.1:8080; connect-src https://api.example.com; frame-src https://www.youtube.com/; ' +
        "base-uri https://base.example.com; form-action 'none'; object-src 'none'",
    );
    expect(frame.getAttribute('allow')).toBe('camera; clipboard-write');
  });

  it("puts the policy ahead of whatever the view's markup starts with (a comment cannot hide it)", () => {
    const page = runPage();
    page.fromChat(ready({ html: '<!-- <head> --><script>fetch("/api/v1/me")</script>' }));
    const frame = page.inner()!;
    const doc = new DOMParser().parseFromString(frame.srcdoc, 'text/html');
    const first = doc.head.firstElementChild!;
    expect(first.tagName).toBe('META');
    expect(first.getAttribute('http-equiv')).toBe('Content-Security-Policy');
    expect(doc.compatMode).toBe('CSS1Compat'); // still a standards-mode document
  });

  it("relays JSON-RPC between the chat and the view, and nothing from other windows, other origins, or the sandbox's own methods", () => {
    const page = runPage();
    page.fromChat(ready({ html: '<p>v</p>' }));
    const view = page.inner()!.contentWindow!;
    const toView = vi.spyOn(view, 'postMessage').mockImplementation(() => undefined);
    page.parent.postMessage.mockClear();

    const init = { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} };
    page.fromView(init);
    expect(page.parent.postMessage).toHaveBeenCalledExactlyOnceWith(init, ORIGIN);
    const answer = { jsonrpc: '2.0', id: 1, result: {} };
    page.fromChat(answer);
    expect(toView).toHaveBeenCalledExactlyOnceWith(answer, '*');

    // The view cannot pretend to be the proxy; the chat's sandbox notices are not passed on.
    page.fromView({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    page.fromChat({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    // Another window, or the parent seen from another origin: ignored.
    page.listener()({ source: {}, origin: ORIGIN, data: init });
    page.fromChat(answer, 'https://evil.example');
    expect(page.parent.postMessage).toHaveBeenCalledTimes(1);
    expect(toView).toHaveBeenCalledTimes(1);
  });
});
