// The tool view's slot in the tool block: the view's code (mcp-app-view.tsx,
// and after it the host library) loads only when a view shows, so the chat
// page itself carries none of it.

import { lazy, Suspense } from 'react';
import { VIEW_LOADING, type ViewBlock } from './shows-view';
import './mcp-app-view.css';

const McpAppView = lazy(() => import('./mcp-app-view').then((m) => ({ default: m.McpAppView })));

/** What shows while the view's code loads: the view's own loading state. */
function Loading() {
  return (
    <div className="chat-app" data-testid="mcp-app-view" data-state="loading" data-dropped="0">
      <p className="chat-app__note" role="status">
        <span className="chat-spinner" aria-hidden="true" />
        {VIEW_LOADING}
      </p>
    </div>
  );
}

export function McpAppViewSlot({ block, messageId }: { block: ViewBlock; messageId: string }) {
  return (
    <Suspense fallback={<Loading />}>
      <McpAppView block={block} messageId={messageId} />
    </Suspense>
  );
}
