// A reply's parts in stream order (text, tool calls, notes) and the rules
// of a paused reply. `content` stays the reply's whole text (Copy, the
// summary and the context use it); tool calls and notes are kept beside it
// in `blocks`, each placed by the length of the text that came before it.

import type { StreamApproval, StreamElicitation, StreamToolCall, StreamToolSignin } from '../api/frames';
import type { ChatMessage, MessageBlock, MessagePart, PendingApproval, PendingElicitation, PendingSignIn, ToolBlock, ToolCallState } from './types';

/** The reply's text, tool calls and notes, in the order they streamed. */
export function messageParts(message: Pick<ChatMessage, 'content' | 'blocks'>): MessagePart[] {
  const { content } = message;
  const blocks = message.blocks ?? [];
  if (blocks.length === 0) return content ? [{ kind: 'text', text: content }] : [];
  const parts: MessagePart[] = [];
  let pos = 0;
  for (const block of blocks) {
    const at = Math.min(Math.max(block.at, pos), content.length);
    if (at > pos) parts.push({ kind: 'text', text: content.slice(pos, at) });
    parts.push(block);
    pos = at;
  }
  if (pos < content.length) parts.push({ kind: 'text', text: content.slice(pos) });
  return parts;
}

export const toolBlocks = (message: Pick<ChatMessage, 'blocks'>): ToolBlock[] =>
  (message.blocks ?? []).filter((b): b is ToolBlock => b.kind === 'tool');

/** A tool_call frame's call as the reducer takes it (its connection and view only when the frame names them). */
export function toolCallInput(call: StreamToolCall): Pick<ToolBlock, 'id' | 'serverId' | 'serverName' | 'tool' | 'arguments' | 'connectionId' | 'uiResourceUri'> {
  const input: Pick<ToolBlock, 'id' | 'serverId' | 'serverName' | 'tool' | 'arguments' | 'connectionId' | 'uiResourceUri'> = {
    id: call.id,
    serverId: call.server_id,
    serverName: call.server_name,
    tool: call.tool,
    arguments: call.arguments,
  };
  if (call.connection_id) input.connectionId = call.connection_id;
  if (call.ui) input.uiResourceUri = call.ui.resource_uri;
  return input;
}

/** The label of a call's state: 'Waiting for approval', 'Running…', 'Done in N ms', 'Failed', 'Denied'. */
export function toolStateText(block: Pick<ToolBlock, 'state' | 'durationMs'>): string {
  switch (block.state) {
    case 'waiting':
      return 'Waiting for approval';
    case 'asking':
      return 'Waiting for your answer';
    case 'signin':
      return 'Waiting for sign-in';
    case 'running':
      return 'Running…';
    case 'done':
      return `Done in ${(block.durationMs ?? 0).toLocaleString('en-US')} ms`;
    case 'failed':
      return 'Failed';
    case 'denied':
      return 'Denied';
    case 'interrupted':
      return 'Interrupted';
  }
}

/** How a tool result ends a call. */
export function resultState(result: { is_error: boolean; denied?: boolean }): ToolCallState {
  if (result.denied) return 'denied';
  return result.is_error ? 'failed' : 'done';
}

/** The MCP reading of a tool's hints: destructive when it says so, or says nothing and is not read-only. */
export function isDestructive(annotations: { readOnlyHint?: boolean; destructiveHint?: boolean }): boolean {
  if (annotations.destructiveHint !== undefined) return annotations.destructiveHint;
  return annotations.readOnlyHint !== true;
}

/** The approval a stream paused for, as kept with its message; `target` is what the resume must name again. */
export function approvalFrom(a: StreamApproval, target: Pick<PendingApproval, 'connectionId' | 'model' | 'demo'>): PendingApproval {
  const { call } = a;
  const approval: PendingApproval = {
    token: a.token,
    expiresAt: a.expires_at,
    callId: call.id,
    serverId: call.server_id,
    serverName: call.server_name,
    tool: call.tool,
    arguments: call.arguments,
    description: call.description,
    readOnly: call.annotations.readOnlyHint,
    destructive: isDestructive(call.annotations),
    connectionId: target.connectionId,
    model: target.model,
    demo: target.demo,
    status: 'pending',
  };
  if (a.id) approval.id = a.id;
  if (call.endpoint) approval.endpoint = call.endpoint;
  if (call.changed?.length) approval.changed = call.changed;
  return approval;
}

/** A server's question as kept with its message; `live` while the stream that carried it is still open. */
export function elicitationFrom(e: StreamElicitation, target: Pick<PendingElicitation, 'connectionId' | 'model' | 'demo'>, live: boolean): PendingElicitation {
  const { call } = e;
  const out: PendingElicitation = {
    token: e.token,
    mode: e.mode,
    message: e.message,
    expiresAt: e.expires_at,
    callId: call.id,
    serverId: call.server_id,
    serverName: call.server_name,
    tool: call.tool,
    live,
    connectionId: target.connectionId,
    model: target.model,
    demo: target.demo,
    status: 'pending',
  };
  if (e.id) out.id = e.id;
  if (e.requested_schema) out.schema = e.requested_schema;
  if (e.url) out.url = e.url;
  if (e.elicitation_id) out.elicitationId = e.elicitation_id;
  return out;
}

/** The same pause (approval or question): by id (history keeps no token), else by token (a pause kept before ids). */
export function samePause(a: Pick<PendingApproval, 'id' | 'token'>, b: Pick<PendingApproval, 'id' | 'token'>): boolean {
  return a.id && b.id ? a.id === b.id : a.token !== '' && a.token === b.token;
}

/** The approval's time is up (an unreadable time never expires here: the server decides). */
export function approvalExpired(approval: Pick<PendingApproval, 'expiresAt'>, nowMs: number): boolean {
  const at = Date.parse(approval.expiresAt);
  return Number.isFinite(at) && at <= nowMs;
}

/** The reply's stream ended on a server's question still to answer (not one asked while the stream stays open). */
export const pausedForQuestion = (message: Pick<ChatMessage, 'elicitation'>): boolean => message.elicitation?.status === 'pending' && !message.elicitation.live;

/** The reply waits until the user signed in to a call's server (or is off signing in). */
export const pausedForSignIn = (message: Pick<ChatMessage, 'signin'>): boolean => message.signin?.status === 'pending' || message.signin?.status === 'signing';

/** The reply waits for the user's decision on a tool call, for the answer to a server's question it paused for, or for a sign-in. */
export function isPaused(message: Pick<ChatMessage, 'role' | 'complete' | 'approval' | 'elicitation' | 'signin'>): boolean {
  return message.role === 'assistant' && !message.complete && (message.approval?.status === 'pending' || pausedForQuestion(message) || pausedForSignIn(message));
}

/** What a paused reply waits for: its approval, the question it paused for, or a sign-in. */
export function pauseOf(message: Pick<ChatMessage, 'approval' | 'elicitation' | 'signin'>): PendingApproval | PendingElicitation | PendingSignIn | undefined {
  if (message.approval?.status === 'pending') return message.approval;
  if (pausedForSignIn(message)) return message.signin;
  return pausedForQuestion(message) ? message.elicitation : undefined;
}

/** The sign-in a tool_signin frame asks for, as kept with its message; `target` is what the resume must name again. */
export function signinFrom(f: StreamToolSignin, target: Pick<PendingSignIn, 'connectionId' | 'model' | 'demo'>): PendingSignIn {
  return {
    token: f.token,
    id: f.signin_id,
    expiresAt: f.expires_at,
    callId: f.id,
    serverId: f.server_id,
    serverName: f.server_name,
    mcpConnectionId: f.connection_id,
    endpointUrl: f.endpoint_url,
    scope: f.scope,
    reason: f.reason,
    connectionId: target.connectionId,
    model: target.model,
    demo: target.demo,
    status: 'pending',
  };
}

/**
 * The reply in `messages` that waits for an answer the user can still give
 * (paused, not expired): a new message is held back until it is answered.
 */
export function awaitingApproval(messages: readonly ChatMessage[], nowMs: number): ChatMessage | undefined {
  return messages.find((m) => {
    const pause = isPaused(m) ? pauseOf(m) : undefined;
    return pause !== undefined && !approvalExpired(pause, nowMs);
  });
}

/** The block with `id`, replaced by fn's answer (the same list when nothing changed). */
export function mapBlock(blocks: readonly MessageBlock[], id: string, fn: (b: ToolBlock) => ToolBlock): MessageBlock[] {
  let changed = false;
  const next = blocks.map((b) => {
    if (b.kind !== 'tool' || b.id !== id) return b;
    const updated = fn(b);
    if (updated !== b) changed = true;
    return updated;
  });
  return changed ? next : (blocks as MessageBlock[]);
}
