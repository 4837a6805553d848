// The prompt page's "What changed": every version of a creator's prompt
// that went live, newest first, with its date, price and note, the current
// one marked. Buyers keep every version, so a caller with access (bought or
// claimed free) opens an earlier one's text in place.

import { useId, useState } from 'react';
import { Alert, Badge, Button, Loader } from '@aws-amplify/ui-react';
import { errorMessage } from '../../../lib/api-client';
import { formatUsd } from '../../../lib/format';
import type { PromptVersion } from '../../../lib/api/types';
import { usePromptVersion } from '../api/use-prompt-version';
import { HighlightedText } from './highlighted-text';

let dateFormat: Intl.DateTimeFormat | undefined;

/** 'Mar 7, 2026'; '' for no date. */
export function versionDate(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  dateFormat ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
  return dateFormat.format(t);
}

interface PromptVersionsProps {
  promptId: string;
  versions: readonly PromptVersion[];
  /** The number of the version live now. */
  current: number;
  /** The caller may read earlier versions (bought or claimed free). */
  canRead: boolean;
}

export function PromptVersions({ promptId, versions, current, canRead }: PromptVersionsProps) {
  const headingId = useId();
  if (versions.length === 0) return null;
  const newestFirst = [...versions].sort((a, b) => b.number - a.number);
  return (
    <section className="detail-modal__section" aria-labelledby={headingId} data-testid="prompt-versions">
      <h3 id={headingId} className="detail-modal__section-title">
        What changed
      </h3>
      <ol className="prompt-versions">
        {newestFirst.map((v) => (
          <VersionEntry key={v.number} promptId={promptId} version={v} isCurrent={v.number === current} canRead={canRead} />
        ))}
      </ol>
    </section>
  );
}

function VersionEntry({ promptId, version: v, isCurrent, canRead }: { promptId: string; version: PromptVersion; isCurrent: boolean; canRead: boolean }) {
  const [open, setOpen] = useState(false);
  const contentId = useId();
  const date = versionDate(v.published_at);
  return (
    <li className="prompt-versions__item" data-testid="prompt-version" data-version={v.number} aria-current={isCurrent ? 'true' : undefined}>
      <div className="prompt-versions__head">
        <strong>Version {v.number}</strong>
        {isCurrent ? (
          <Badge variation="info" size="small">
            Current
          </Badge>
        ) : null}
        <span className="prompt-versions__facts">
          {date ? `${date} · ` : ''}
          {formatUsd(typeof v.price === 'number' ? v.price : 0)}
        </span>
      </div>
      {v.change_note ? <p className="prompt-versions__note">{v.change_note}</p> : null}
      {canRead && !isCurrent ? (
        <>
          <Button size="small" alignSelf="flex-start" aria-expanded={open} aria-controls={open ? contentId : undefined} onClick={() => setOpen((o) => !o)}>
            {open ? `Hide version ${v.number}` : `Read version ${v.number}`}
          </Button>
          {open ? <VersionContent id={contentId} promptId={promptId} n={v.number} /> : null}
        </>
      ) : null}
    </li>
  );
}

function VersionContent({ id, promptId, n }: { id: string; promptId: string; n: number }) {
  const read = usePromptVersion(promptId, n);
  if (read.error !== undefined) {
    return (
      <Alert id={id} variation="error" data-testid="version-error">
        <span>{errorMessage(read.error, `Version ${n} could not be loaded.`)}</span>{' '}
        <Button size="small" onClick={() => void read.mutate()}>
          Retry
        </Button>
      </Alert>
    );
  }
  if (read.data === undefined) {
    return (
      <div id={id} role="status" className="prompt-versions__facts">
        <Loader aria-hidden="true" /> Loading version {n}…
      </div>
    );
  }
  return (
    <div id={id} className="prompt-text prompt-detail__text prompt-versions__content" role="region" aria-label={`Version ${n} text`} tabIndex={0} data-testid="version-content">
      <HighlightedText text={read.data.content ?? ''} />
    </div>
  );
}
