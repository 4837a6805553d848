// Resources attached to a message, as chips: above the composer (each
// removable) and on the user's message they went with.

import { humanSize } from '../api/mcp-composer';
import type { MessageAttachment } from '../state/types';
import './composer.css';

interface AttachmentChipsProps {
  attachments: readonly MessageAttachment[];
  /** Removes one (the composer's chips); absent on a sent message. */
  onRemove?: (attachment: MessageAttachment) => void;
  label: string;
}

export function AttachmentChips({ attachments, onRemove, label }: AttachmentChipsProps) {
  if (attachments.length === 0) return null;
  return (
    <ul className="chat-chips" aria-label={label} data-testid="attachment-chips">
      {attachments.map((a) => (
        <li key={`${a.connection_id} ${a.uri}`} className="chat-chip" title={a.uri} data-testid="attachment-chip">
          <span aria-hidden="true">📎</span>
          <span className="chat-chip__name">{a.name}</span>
          {a.size > 0 ? <span className="chat-chip__meta">{humanSize(a.size)}</span> : null}
          {onRemove ? (
            <button type="button" className="chat-chip__remove" aria-label={`Remove ${a.name}`} onClick={() => onRemove(a)}>
              <span aria-hidden="true">×</span>
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
