import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Modal } from '../../../components/modal';
import {
  buildMenuMessage,
  defaultValues,
  inputBounds,
  moveRankItem,
  parseMenu,
  type MenuValue,
  type MenuValues,
  type MenuVariable,
} from '../menu';
import { TextEditorModal } from './large-editor-modal';

const INPUT_TYPE: Partial<Record<MenuVariable['type'], string>> = { time: 'time', day: 'date', datetime: 'datetime-local' };

interface FieldProps {
  variable: MenuVariable;
  value: MenuValue;
  now: Date;
  idBase: string;
  onChange: (value: MenuValue) => void;
  onBigView: () => void;
}

function MenuField({ variable, value, now, idBase, onChange, onBigView }: FieldProps) {
  const id = `${idBase}-${variable.varName}`;
  const text = typeof value === 'string' ? value : '';
  const list = Array.isArray(value) ? value : [];
  const label = (
    <label htmlFor={id} className="chat-fill__label">
      {variable.label}
    </label>
  );

  switch (variable.type) {
    case 'dropdown':
      return (
        <div className="chat-fill__field">
          {label}
          <select id={id} value={text} onChange={(e) => onChange(e.target.value)}>
            {variable.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </div>
      );
    case 'multiselect': {
      const chosen = new Set(list);
      return (
        <fieldset className="chat-fill__field chat-fill__group">
          <legend className="chat-fill__label">{variable.label}</legend>
          {variable.options.map((o, i) => (
            <label key={o} className="chat-fill__check" htmlFor={`${id}-${i}`}>
              <input
                id={`${id}-${i}`}
                type="checkbox"
                checked={chosen.has(o)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(o);
                  else next.delete(o);
                  onChange(variable.options.filter((opt) => next.has(opt)));
                }}
              />
              <span>{o}</span>
            </label>
          ))}
        </fieldset>
      );
    }
    case 'rank':
      return (
        <fieldset className="chat-fill__field chat-fill__group">
          <legend className="chat-fill__label">{variable.label}</legend>
          <ol className="chat-rank">
            {list.map((item, i) => (
              <li key={item} className="chat-rank__item">
                <span className="chat-rank__text">{item}</span>
                <button
                  type="button"
                  className="chat-icon-button"
                  aria-label={`Move ${item} up`}
                  disabled={i === 0}
                  onClick={() => onChange(moveRankItem(list, i, -1))}
                >
                  <span aria-hidden="true">↑</span>
                </button>
                <button
                  type="button"
                  className="chat-icon-button"
                  aria-label={`Move ${item} down`}
                  disabled={i === list.length - 1}
                  onClick={() => onChange(moveRankItem(list, i, 1))}
                >
                  <span aria-hidden="true">↓</span>
                </button>
              </li>
            ))}
          </ol>
        </fieldset>
      );
    case 'time':
    case 'day':
    case 'datetime': {
      const bounds = inputBounds(variable, now);
      return (
        <div className="chat-fill__field">
          {label}
          <input id={id} type={INPUT_TYPE[variable.type]} value={text} min={bounds.min} max={bounds.max} onChange={(e) => onChange(e.target.value)} />
        </div>
      );
    }
    case 'number': {
      const bounds = inputBounds(variable, now);
      return (
        <div className="chat-fill__field">
          {label}
          <input
            id={id}
            type="number"
            inputMode="decimal"
            step="any"
            value={text}
            min={bounds.min}
            max={bounds.max}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      );
    }
    case 'big':
    case 'small': {
      const bigView = (
        <button type="button" className="chat-button chat-button--small" aria-label={`Big View for ${variable.label}`} onClick={onBigView}>
          Big View
        </button>
      );
      return (
        <div className="chat-fill__field">
          <div className="chat-fill__label-row">
            {label}
            {bigView}
          </div>
          {variable.type === 'big' ? (
            <textarea id={id} rows={4} value={text} onChange={(e) => onChange(e.target.value)} />
          ) : (
            <input id={id} type="text" value={text} onChange={(e) => onChange(e.target.value)} />
          )}
        </div>
      );
    }
  }
}

interface FillMenuModalProps {
  /** The text holding the menu template. */
  source: string;
  /** A message is on its way in this tab: Insert & Send waits. */
  busy: boolean;
  onCancel: () => void;
  /** Called with the built message (SPEC §5 filling). */
  onSubmit: (message: string) => void;
}

/** SPEC §2 Fill Template Variables: a field per menu variable; Cancel, Insert & Send; Big View per text field. */
export function FillMenuModal({ source, busy, onCancel, onSubmit }: FillMenuModalProps) {
  const titleId = useId();
  const idBase = useId();
  const parsed = useMemo(() => parseMenu(source), [source]);
  const variables = parsed?.variables ?? [];
  const [values, setValues] = useState<MenuValues>(() => defaultValues(variables));
  const [now] = useState(() => new Date());
  const [editing, setEditing] = useState<MenuVariable | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // After the dialog has taken focus: to the first field.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('.chat-fill__field input, .chat-fill__field select, .chat-fill__field textarea')?.focus();
  }, []);

  const set = (name: string, value: MenuValue) => setValues((v) => ({ ...v, [name]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    onSubmit(buildMenuMessage(source, values, parsed));
  };

  return (
    <>
      <Modal labelledBy={titleId} onClose={onCancel} className="chat-modal chat-modal--wide" testId="fill-menu">
        <form ref={formRef} className="chat-modal__form" onSubmit={submit}>
          <header className="chat-modal__head">
            <h2 id={titleId} className="chat-modal__title">
              Fill Template Variables
            </h2>
          </header>
          <div className="chat-modal__body chat-fill">
            {variables.length === 0 ? <p>This menu template has no variables to fill in.</p> : null}
            {variables.map((v) => (
              <MenuField
                key={v.varName}
                variable={v}
                value={values[v.varName] ?? ''}
                now={now}
                idBase={idBase}
                onChange={(value) => set(v.varName, value)}
                onBigView={() => setEditing(v)}
              />
            ))}
          </div>
          <footer className="chat-modal__foot">
            <button type="button" className="chat-button" onClick={onCancel}>
              Cancel
            </button>
            <button type="submit" className="chat-button chat-button--primary" disabled={busy}>
              {busy ? 'Sending...' : 'Insert & Send'}
            </button>
          </footer>
        </form>
      </Modal>
      {editing ? (
        <TextEditorModal
          title={`Edit ${editing.label}`}
          fieldLabel={editing.label}
          initialText={typeof values[editing.varName] === 'string' ? (values[editing.varName] as string) : ''}
          dismissLabel="Cancel"
          onDismiss={() => setEditing(null)}
          onDone={(text) => {
            set(editing.varName, text);
            setEditing(null);
          }}
          testId="field-editor"
        />
      ) : null}
    </>
  );
}
