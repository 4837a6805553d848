// What a tool call's server says while it runs: a progress bar (a share
// when the server says how much there is, moving stripes otherwise) with
// its latest message, and its log lines, folded away, each with its level.

import type { ToolBlock } from '../state/types';
import './elicitation.css';

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** The progress line under the bar: "2 of 5", or "2 so far" when the total is not known. */
export function progressText(p: NonNullable<ToolBlock['progress']>): string {
  return p.total !== undefined ? `${fmt(p.progress)} of ${fmt(p.total)}` : `${fmt(p.progress)} so far`;
}

function Progress({ block }: { block: ToolBlock }) {
  const p = block.progress;
  if (!p || block.state !== 'running') return null;
  const known = p.total !== undefined;
  const share = known ? Math.min(100, Math.max(0, (p.progress / p.total!) * 100)) : 0;
  const label = `Progress of ${block.tool || 'the tool'}`;
  return (
    <div className="chat-progress" data-testid="tool-progress">
      <div
        className={`chat-progress__bar${known ? '' : ' chat-progress__bar--indeterminate'}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={known ? 0 : undefined}
        aria-valuemax={known ? p.total : undefined}
        aria-valuenow={known ? Math.min(p.progress, p.total!) : undefined}
        aria-valuetext={p.message ? `${progressText(p)}: ${p.message}` : progressText(p)}
      >
        <span className="chat-progress__fill" style={known ? { width: `${share}%` } : undefined} />
      </div>
      <p className="chat-progress__text" data-testid="tool-progress-text">
        <span>{progressText(p)}</span>
        {p.message ? <span className="chat-progress__message"> · {p.message}</span> : null}
      </p>
    </div>
  );
}

function Logs({ block }: { block: ToolBlock }) {
  const logs = block.logs ?? [];
  if (logs.length === 0) return null;
  return (
    <details className="chat-tool__section chat-logs" data-testid="tool-logs">
      <summary>Logs ({logs.length.toLocaleString('en-US')})</summary>
      <ol className="chat-logs__list">
        {logs.map((line, i) => (
          <li key={i} className={`chat-logs__line chat-logs__line--${line.level.replace(/[^a-z]/gi, '')}`} data-testid="tool-log">
            <span className="chat-logs__level">{line.level}</span>
            <span className="chat-logs__text">{line.text}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The running call's progress and the server's log lines (nothing when it sent none). */
export function ToolActivity({ block }: { block: ToolBlock }) {
  return (
    <>
      <Progress block={block} />
      <Logs block={block} />
    </>
  );
}
