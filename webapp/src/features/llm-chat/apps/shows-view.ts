// Whether a tool block shows its call's view (MCP Apps), kept apart from the
// view itself (lazy-view.tsx loads that only when one shows).

import type { ToolBlock } from '../state/types';

/** A block whose call declares a view on a known connection. */
export type ViewBlock = ToolBlock & { connectionId: string; uiResourceUri: string };

export const VIEW_LOADING = 'Loading the view…';

/**
 * A block whose call declares a view, on a known connection, and ran: it
 * shows the view. Not while it runs: a call that waits for the user's
 * approval streams as running first, and its view must not show before
 * the user decides (nor one the user denied).
 */
export function showsView(block: ToolBlock): block is ViewBlock {
  return Boolean(block.connectionId && block.uiResourceUri) && (block.state === 'done' || block.state === 'failed' || block.state === 'interrupted');
}
