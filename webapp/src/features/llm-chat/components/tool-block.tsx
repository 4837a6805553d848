// A tool call in the assistant's turn: server, tool, arguments, state and
// result; while the reply waits for the user, the approval card with
// Approve / Always allow this tool / Deny. Arguments and results fold away
// (<details>), open at first when short. While a call runs, its server's
// progress and log lines (tool-activity.tsx); a server's question to the
// user is its own card (elicitation-card.tsx).

import { useEffect, useId, useState } from 'react';
import type { ApprovalDecision } from '../api/chat-stream';
import { approvalExpired, toolStateText } from '../state/message-parts';
import type { PendingApproval, ToolBlock } from '../state/types';
import { contentViews, formatArguments } from '../tools/tool-content';
import { McpAppViewSlot } from '../apps/lazy-view';
import { showsView } from '../apps/shows-view';
import { ToolActivity } from './tool-activity';

/** Arguments or a result up to this many characters start unfolded. */
const OPEN_UP_TO_CHARS = 600;

export const APPROVAL_EXPIRED = 'This approval expired. Send your message again.';
export const ALWAYS_DESTRUCTIVE_WARNING = 'This tool is marked destructive: always allowing it lets it change or delete data without asking you.';

/** The parts of a tool's definition the server names in `changed`, as a user reads them. */
const CHANGED_PARTS: Record<string, string> = {
  name: 'name',
  description: 'description',
  input_schema: 'arguments',
  annotations: 'read-only or destructive marking',
};

function joinWords(words: string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * Why a tool the user always allows asks again: its address or definition is not what they
 * allowed; '' when nothing changed.
 */
export function changedText(changed: readonly string[] | undefined, endpoint: string | undefined): string {
  if (!changed?.length) return '';
  if (changed.includes('unrecorded')) {
    return 'You allowed this tool before the chat recorded where it runs and what it does, so it asks again.';
  }
  const parts: string[] = [];
  if (changed.includes('endpoint')) parts.push(endpoint ? `it is now reached at ${endpoint}` : 'it is now reached at another address');
  const defs = changed.map((c) => CHANGED_PARTS[c]).filter((w): w is string => Boolean(w));
  if (defs.length > 0) parts.push(`its ${joinWords(defs)} changed`);
  return parts.length > 0 ? `This tool changed since you allowed it: ${parts.join(', and ')}.` : 'This tool changed since you allowed it.';
}

export function Arguments({ value }: { value: unknown }) {
  const text = formatArguments(value);
  return (
    <details className="chat-tool__section" open={text.length <= OPEN_UP_TO_CHARS}>
      <summary>Arguments</summary>
      <pre className="chat-tool__pre" data-testid="tool-arguments">
        {text}
      </pre>
    </details>
  );
}

function Result({ block }: { block: ToolBlock }) {
  const views = contentViews(block.result ?? []);
  const size = views.reduce((n, v) => n + (v.kind === 'text' ? v.text.length : 80), 0);
  return (
    <details className="chat-tool__section" open={size <= OPEN_UP_TO_CHARS}>
      <summary>
        {block.state === 'failed' ? 'Error' : 'Result'}
        {block.truncated ? <span className="chat-tool__cut"> (cut: too large to show in full)</span> : null}
      </summary>
      <div className="chat-tool__result" data-testid="tool-result">
        {views.length === 0 ? <p className="chat-tool__note">No content.</p> : null}
        {views.map((v, i) => {
          switch (v.kind) {
            case 'text':
              return (
                <div key={i} className="chat-tool__text">
                  {v.label ? <p className="chat-tool__label">{v.label}</p> : null}
                  <pre className="chat-tool__pre">{v.text}</pre>
                </div>
              );
            case 'image':
              return <img key={i} className="chat-tool__thumb" src={v.src} alt={`Image from the tool (${v.mimeType})`} data-testid="tool-image" />;
            case 'link':
              return (
                <p key={i} className="chat-tool__note">
                  Resource:{' '}
                  {v.href ? (
                    <a href={v.href} target="_blank" rel="noopener noreferrer">
                      {v.name}
                    </a>
                  ) : (
                    <span>{v.name}</span>
                  )}
                  {v.name !== v.uri ? <span className="chat-tool__uri"> ({v.uri})</span> : null}
                </p>
              );
            case 'note':
              return (
                <p key={i} className="chat-tool__note">
                  {v.text}
                </p>
              );
          }
        })}
      </div>
    </details>
  );
}

export function Head({ block, destructive }: { block: Pick<ToolBlock, 'tool' | 'serverName' | 'state' | 'durationMs'>; destructive?: boolean }) {
  return (
    <header className="chat-tool__head">
      <span className="chat-tool__kind">Tool</span>
      <code className="chat-tool__name" data-testid="tool-name">
        {block.tool || 'unknown tool'}
      </code>
      {block.serverName ? (
        <span className="chat-tool__server" data-testid="tool-server">
          on {block.serverName}
        </span>
      ) : null}
      {destructive ? (
        <span className="chat-tool__danger" data-testid="destructive-mark" title="This tool may change or delete data">
          destructive
        </span>
      ) : null}
      <span className={`chat-tool__state chat-tool__state--${block.state}`} data-testid="tool-state">
        {toolStateText(block)}
      </span>
    </header>
  );
}

/** One tool call and its outcome; under it, the tool's view when it declares one (`messageId`: the reply it is in). */
export function ToolCallBlock({ block, messageId }: { block: ToolBlock; messageId?: string }) {
  return (
    <div
      role="group"
      className={`chat-tool chat-tool--${block.state}`}
      data-testid="tool-call"
      data-tool={block.tool}
      data-state={block.state}
      aria-label={`Tool call: ${block.tool || 'unknown tool'}, ${toolStateText(block)}`}
    >
      <Head block={block} />
      <Arguments value={block.arguments} />
      <ToolActivity block={block} />
      {block.result ? <Result block={block} /> : null}
      {block.detail ? <p className="chat-tool__detail">{block.detail}</p> : null}
      {messageId && showsView(block) ? <McpAppViewSlot block={block} messageId={messageId} /> : null}
    </div>
  );
}

/** True once `expiresAt` has passed; re-renders at that moment. */
function useExpired(expiresAt: string): boolean {
  const [expired, setExpired] = useState(() => approvalExpired({ expiresAt }, Date.now()));
  useEffect(() => {
    const at = Date.parse(expiresAt);
    if (!Number.isFinite(at)) return;
    const left = at - Date.now();
    if (left <= 0) {
      setExpired(true);
      return;
    }
    setExpired(false);
    const timer = setTimeout(() => setExpired(true), Math.min(left + 50, 2 ** 30));
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return expired;
}

interface ApprovalCardProps {
  block: ToolBlock;
  approval: PendingApproval;
  /** A decision (or another message) is on its way in this tab. */
  busy: boolean;
  onDecision: (decision: ApprovalDecision) => void;
}

/** The reply waits for the user: may this tool call run? */
export function ApprovalCard({ block, approval, busy, onDecision }: ApprovalCardProps) {
  const expired = useExpired(approval.expiresAt);
  const warningId = useId();
  const tool = approval.tool || block.tool;
  const changed = changedText(approval.changed, approval.endpoint);
  return (
    <div
      role="group"
      className="chat-tool chat-tool--approval"
      data-testid="tool-approval"
      data-tool={tool}
      data-state={expired ? 'expired' : 'waiting'}
      aria-label={`Approve the tool ${tool}?`}
    >
      <Head block={{ ...block, tool, serverName: approval.serverName || block.serverName, state: 'waiting' }} destructive={approval.destructive} />
      <p className="chat-tool__ask">
        The model wants to call <code>{tool}</code>
        {approval.serverName ? ` on ${approval.serverName}` : ''}.{' '}
        {approval.destructive ? 'This tool may change or delete data.' : approval.readOnly ? 'The tool says it only reads.' : ''}
      </p>
      {approval.description ? (
        <p className="chat-tool__description" data-testid="tool-description">
          {approval.description}
        </p>
      ) : null}
      {changed ? (
        <p className="chat-tool__changed" role="note" data-testid="tool-changed">
          {changed}
        </p>
      ) : null}
      <Arguments value={approval.arguments ?? block.arguments} />
      {expired ? (
        <p className="chat-tool__expired" role="status">
          {APPROVAL_EXPIRED}
        </p>
      ) : (
        <div className="chat-tool__actions">
          <button type="button" className="chat-button chat-button--small chat-button--primary" disabled={busy} onClick={() => onDecision('approve')}>
            Approve
          </button>
          <button
            type="button"
            className="chat-button chat-button--small"
            disabled={busy}
            aria-describedby={approval.destructive ? warningId : undefined}
            onClick={() => onDecision('always')}
          >
            Always allow this tool
          </button>
          <button type="button" className="chat-button chat-button--small" disabled={busy} onClick={() => onDecision('deny')}>
            Deny
          </button>
          {approval.destructive ? (
            <p id={warningId} className="chat-tool__warning" data-testid="always-warning">
              {ALWAYS_DESTRUCTIVE_WARNING}
            </p>
          ) : null}
        </div>
      )}
    </div>
  );
}

/** A note from the server in the reply. */
export function NoticeNote({ text }: { text: string }) {
  return (
    <p className="chat-notice" role="note" data-testid="reply-notice">
      {text}
    </p>
  );
}
