/** What names a connection: its registry entry's name and, when the user's endpoint was on another host than the entry's default, that host. */
export interface NamedConnection {
  server_name: string;
  /** "" when the connection reached the entry's own host. */
  endpoint_host: string;
}

/**
 * A connection's name as a user reads it: 'GitHub · 127.0.0.1:18101' for
 * an endpoint override, so it is not taken for the entry's own server;
 * just the name otherwise.
 */
export function connectionLabel(c: NamedConnection): string {
  return c.endpoint_host ? `${c.server_name} · ${c.endpoint_host}` : c.server_name;
}
