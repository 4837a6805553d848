export const DEFAULT_REDIRECT = '/dashboard';

/**
 * Only same-site paths are honoured (DESIGN §8): a single leading '/',
 * never '//host' or '/\host' (browsers treat both as protocol-relative),
 * never a scheme, never control characters. Anything else → fallback.
 */
export function safeRedirect(value: string | null | undefined, fallback: string = DEFAULT_REDIRECT): string {
  if (typeof value !== 'string') return fallback;
  // Browsers strip tabs and newlines from URLs, so '/\t/host' would become '//host'.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  if (!value.startsWith('/')) return fallback;
  const second = value.charAt(1);
  if (second === '/' || second === '\\') return fallback;
  // Belt and braces: resolve against a dummy origin and require it to stay there.
  try {
    const base = 'https://same-site.invalid';
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return value;
}
