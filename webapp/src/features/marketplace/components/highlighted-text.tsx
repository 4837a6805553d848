import { Fragment, useMemo } from 'react';
import { splitPlaceholders } from '../prompt-text';

/**
 * Prompt text with its [CAPITALISED PLACEHOLDERS] in <mark>. Text nodes and
 * <mark> elements only: nothing is ever parsed as HTML (DESIGN §8).
 */
export function HighlightedText({ text }: { text: string }) {
  const segments = useMemo(() => splitPlaceholders(text), [text]);
  return (
    <>
      {segments.map((s, i) =>
        s.placeholder ? (
          <mark key={i} className="prompt-placeholder">
            {s.text}
          </mark>
        ) : (
          <Fragment key={i}>{s.text}</Fragment>
        ),
      )}
    </>
  );
}
