// User-facing texts of the MCP registry (SPEC §2, §5, §8), in one place.
// The SPEC strings are quoted exactly; the rest are this page's own.

export const MESSAGES = {
  // SPEC §2
  title: 'MCP Server Registry',
  allModels: 'All Models',
  noServers: 'No servers found',
  noServersHint: 'Try adjusting your filters or check back later for new servers.',
  copied: 'Endpoint URL copied to clipboard!',
  useDefaultEndpoint: 'Leave empty to use default endpoint',
  connecting: 'Connecting...',
  // SPEC §5 / §8
  apiKeyRequired: 'API key is required for this server',
  loginToConnect: 'Please log in to connect to MCP servers',
  copyFailed: 'Failed to copy to clipboard',
  connectFailedFallback: 'Connection failed',
  // This page's own
  loadFailed: 'Could not load servers',
  loadFailedHint: 'Please check your connection and try again.',
  detailsFailed: 'Could not load this server’s details.',
  connectionsFailed: 'Could not load your connections.',
  noConnections: 'You have no connections yet. Connect to a server below and it will appear here.',
  inactiveServer: 'This server has left the registry and cannot be connected to.',
  signInPreparing: 'Preparing sign-in...',
  signInLeaving: 'Opening sign-in...',
  signInAgain: 'Sign in again',
  needsSignIn: 'The server no longer accepts this sign-in. Sign in again to use its tools.',
  signedIn: 'Signed in with OAuth',
} as const;

/** The OAuth servers' connect action: 'Sign in with {server}'. */
export function signInLabel(server: string): string {
  return `Sign in with ${server}`;
}

/** SPEC §8: 'Successfully connected to {server}!' */
export function connectedMessage(server: string): string {
  return `Successfully connected to ${server}!`;
}

/** SPEC §8: 'Failed to connect to {server}: {detail or message or Connection failed}' */
export function connectFailedMessage(server: string, reason: string): string {
  return `Failed to connect to ${server}: ${reason || MESSAGES.connectFailedFallback}`;
}

export function disconnectedMessage(server: string): string {
  return `Disconnected from ${server}`;
}

export function disconnectFailedMessage(server: string, reason: string): string {
  return `Failed to disconnect from ${server}: ${reason}`;
}

/** '{n} servers found' (SPEC §2). */
/** SPEC's '{n} servers found'; "24+ servers found" while a search's total is unknown. */
export function countMessage(n: number, exact = true): string {
  return `${Math.max(0, n).toLocaleString('en-US')}${exact ? '' : '+'} servers found`;
}
