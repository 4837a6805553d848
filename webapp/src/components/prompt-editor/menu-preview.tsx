// Live preview of a prompt's content: its text, and in place of a menu
// template the form the chat will build from it (each field's label, kind
// and choices). Plain text nodes only: nothing typed is parsed as HTML.
// The admin prompt editor and the creator studio both show it.

import { useDeferredValue, useId } from 'react';
import { MENU_END_RE, MENU_START_RE } from '../../lib/menu-markers';
import { useMenuReader, type MenuFieldView } from './menu-reader';
import './menu-preview.css';

const KIND: Record<string, string> = {
  dropdown: 'pick one',
  multiselect: 'pick any',
  rank: 'rank in order',
  time: 'time',
  day: 'date',
  datetime: 'date and time',
  big: 'long text',
  small: 'short text',
  number: 'number',
};

/** 'pick one: A, B' · 'number 1–10' · 'date, in the past'. */
export function describeField(f: MenuFieldView): string {
  let kind = KIND[f.type] ?? f.type;
  if (f.range) kind += ` ${f.range.min}–${f.range.max}`;
  if (f.constraint) kind += `, in the ${f.constraint}`;
  return f.options.length ? `${kind}: ${f.options.join(', ')}` : kind;
}

export function MenuPreview({ content }: { content: string }) {
  // Typing stays quick in a 50,000-character text: the preview may lag a little.
  const text = useDeferredValue(content);
  const readMenu = useMenuReader();
  const headingId = useId();
  const menu = readMenu ? readMenu(text) : null;
  const unclosed = !menu && MENU_START_RE.test(text) && !MENU_END_RE.test(text.slice(text.search(MENU_START_RE)));

  return (
    <section className="content-preview" aria-labelledby={headingId} data-testid="prompt-preview">
      <h3 id={headingId} className="content-preview__title">
        Preview
      </h3>
      {text.trim() === '' ? <p className="content-preview__hint">The content appears here as you type.</p> : null}
      {menu ? (
        <>
          {menu.before.trim() ? <p className="content-preview__text">{menu.before.trim()}</p> : null}
          <div className="content-preview__menu" data-testid="menu-preview">
            <p className="content-preview__menu-title">
              {menu.variables.length
                ? `The chat asks for ${menu.variables.length === 1 ? '1 value' : `${menu.variables.length} values`} before sending:`
                : 'The menu template has no fields: the chat will ask for nothing.'}
            </p>
            {menu.variables.length ? (
              <ul className="content-preview__fields">
                {menu.variables.map((f) => (
                  <li key={f.varName}>
                    <strong>{f.label}</strong> <span className="content-preview__hint">({describeField(f)})</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          {menu.after.trim() ? <p className="content-preview__text">{menu.after.trim()}</p> : null}
        </>
      ) : text.trim() ? (
        <p className="content-preview__text">{text}</p>
      ) : null}
      {unclosed ? (
        <p className="content-preview__warning" data-testid="menu-unclosed">
          [start menu] has no [end menu] after it: the chat will not offer a form.
        </p>
      ) : null}
    </section>
  );
}
