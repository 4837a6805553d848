// The resources attached to the next message, as the paperclip and a
// server's prompt add them: each resource once, at most MAX_ATTACHMENTS.

import { MAX_ATTACHMENTS } from '../api/mcp-composer';
import type { MessageAttachment } from '../state/types';

const same = (a: MessageAttachment, b: MessageAttachment) => a.connection_id === b.connection_id && a.uri === b.uri;

/** `old` with the ones of `added` it lacks appended. */
export function withAttachments(old: readonly MessageAttachment[], added: readonly MessageAttachment[]): MessageAttachment[] {
  const out = [...old];
  for (const a of added) if (!out.some((o) => same(o, a))) out.push(a);
  return out;
}

/** Why the resources a prompt refers to (`added`) cannot join `old` (together over MAX_ATTACHMENTS), or ''. */
export function promptAttachmentsRefusal(old: readonly MessageAttachment[], added: readonly MessageAttachment[]): string {
  const fresh = withAttachments(old, added).length - old.length;
  if (old.length + fresh <= MAX_ATTACHMENTS) return '';
  return `A message may attach at most ${MAX_ATTACHMENTS} resources: this prompt adds ${fresh} to the ${old.length} attached already.`;
}
