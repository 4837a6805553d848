// Where the admin API lives (apiRequest adds /api/v1) and how list queries
// are written: empty filters are left out, so an unfiltered list has one URL.

export const ADMIN_BASE = '/admin';

/** '/admin/a/b' with each segment escaped (ids may hold anything). */
export function adminPath(...segments: string[]): string {
  return [ADMIN_BASE, ...segments.map(encodeURIComponent)].join('/');
}

export type QueryValue = string | number | undefined | null;

export function withQuery(path: string, query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    const text = typeof value === 'string' ? value.trim() : value;
    if (text !== undefined && text !== null && text !== '') params.set(name, String(text));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
