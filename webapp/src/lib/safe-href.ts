// Which URLs a rendered reply may link to (DESIGN §8): absolute http(s) only.
// javascript:, data:, vbscript:, mailto:, relative and protocol-relative
// URLs are refused, so a model's (or a prompt injection's) link can only
// ever open an ordinary web page.

/** The URL when it is an absolute http(s) URL, else null (javascript:, data:, relative …). */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  if (!/^https?:\/\/[^\s]/i.test(url)) return null;
  // Control characters or spaces would be stripped or re-read by the browser.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
