import { VisuallyHidden } from '@aws-amplify/ui-react';
import { auditChanges, type ChangeLine } from './audit-diff';

/** Lines shown before the rest fold into "N more". */
const SHOWN = 6;

function Line({ line }: { line: ChangeLine }) {
  return (
    <li>
      {line.field ? <code className="admin-diff__field">{line.field}</code> : null}
      {line.field ? ': ' : null}
      {line.before === null ? <span className="admin-muted">(none)</span> : <span className="admin-diff__before">{line.before}</span>}
      <span aria-hidden="true"> → </span>
      <VisuallyHidden>changed to </VisuallyHidden>
      {line.after === null ? <span className="admin-muted">(none)</span> : <span className="admin-diff__after">{line.after}</span>}
    </li>
  );
}

/** before → after, field by field; the tail folded away on long changes. */
export function AuditChange({ before, after }: { before: unknown; after: unknown }) {
  const lines = auditChanges(before, after);
  if (lines.length === 0) return <span className="admin-muted">No field changed</span>;
  const rest = lines.slice(SHOWN);
  return (
    <div className="admin-diff" data-testid="audit-change">
      <ul className="admin-diff__lines">
        {lines.slice(0, SHOWN).map((l) => (
          <Line key={l.field} line={l} />
        ))}
      </ul>
      {rest.length ? (
        <details>
          <summary>{rest.length} more</summary>
          <ul className="admin-diff__lines">
            {rest.map((l) => (
              <Line key={l.field} line={l} />
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
