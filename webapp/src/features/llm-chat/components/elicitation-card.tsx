// A server's question to the user while its tool call runs (MCP
// elicitation), in the call's block. Form mode: the form its schema
// describes (tools/elicitation-form.ts) with Submit, Decline and Cancel;
// required fields are checked before anything is sent, and what was typed
// stays. URL mode: the host the page is on, Open (a new tab, only on
// click), Done and Cancel. Both say how long is left to answer.

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ElicitationAction } from '../api/chat-stream';
import type { PendingElicitation, ToolBlock } from '../state/types';
import {
  FORM_NOT_SHOWN,
  RADIO_OPTIONS,
  formContent,
  formErrors,
  formFields,
  initialValues,
  timeLeftText,
  urlHost,
  type FieldValue,
  type FormField,
  type FormValues,
} from '../tools/elicitation-form';
import { Arguments, Head } from './tool-block';
import './elicitation.css';

export const QUESTION_EXPIRED = 'This question expired.';
export const CHECK_FIELDS = 'Check the marked fields.';
export const SENDING_ANSWER = 'Sending your answer…';

/** Now, ticking every second until `expiresAt` (then once more, and no more). */
function useNow(expiresAt: string): number {
  const [now, setNow] = useState(() => Date.now());
  const at = Date.parse(expiresAt);
  const over = !Number.isFinite(at) || at <= now;
  useEffect(() => {
    if (over) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [over]);
  return now;
}

interface CardProps {
  block: ToolBlock;
  question: PendingElicitation;
  onAnswer: (action: ElicitationAction, content?: Record<string, unknown>) => void;
}

interface FieldProps {
  field: FormField;
  value: FieldValue | undefined;
  error: string;
  onChange: (value: FieldValue) => void;
}

function Label({ field, htmlFor }: { field: FormField; htmlFor?: string }) {
  const body = (
    <>
      {field.label}
      {field.required ? (
        <span className="chat-ask__required" aria-hidden="true">
          {' '}
          *
        </span>
      ) : null}
    </>
  );
  return htmlFor ? (
    <label className="chat-ask__label" htmlFor={htmlFor}>
      {body}
    </label>
  ) : (
    <legend className="chat-ask__label">{body}</legend>
  );
}

function Field({ field, value, error, onChange }: FieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const described = [field.description ? helpId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const help = field.description ? (
    <p id={helpId} className="chat-ask__help">
      {field.description}
    </p>
  ) : null;
  const problem = error ? (
    <p id={errorId} className="chat-ask__error" data-testid="field-error">
      {error}
    </p>
  ) : null;
  const common = { 'aria-invalid': error ? true : undefined, 'aria-describedby': described, 'data-field': field.name } as const;

  switch (field.kind) {
    case 'text':
    case 'number':
    case 'integer': {
      const number = field.kind !== 'text';
      return (
        <div className="chat-ask__field">
          <Label field={field} htmlFor={id} />
          <input
            id={id}
            className="chat-ask__input"
            type={number ? 'number' : field.input}
            inputMode={field.kind === 'integer' ? 'numeric' : field.kind === 'number' ? 'decimal' : undefined}
            step={field.kind === 'integer' ? 1 : field.kind === 'number' ? 'any' : undefined}
            min={number ? field.min : undefined}
            max={number ? field.max : undefined}
            maxLength={field.kind === 'text' ? field.maxLength : undefined}
            aria-required={field.required || undefined}
            value={typeof value === 'string' ? value : ''}
            onChange={(e) => onChange(e.target.value)}
            {...common}
          />
          {help}
          {problem}
        </div>
      );
    }
    case 'boolean':
      return (
        <div className="chat-ask__field chat-ask__field--check">
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} {...common} />
          <Label field={field} htmlFor={id} />
          {help}
          {problem}
        </div>
      );
    case 'single':
      if (field.options.length > RADIO_OPTIONS) {
        return (
          <div className="chat-ask__field">
            <Label field={field} htmlFor={id} />
            <select id={id} className="chat-ask__input" aria-required={field.required || undefined} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} {...common}>
              <option value="">Choose…</option>
              {field.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            {help}
            {problem}
          </div>
        );
      }
      return (
        <fieldset className="chat-ask__field chat-ask__group" role="radiogroup" aria-required={field.required || undefined} {...common}>
          <Label field={field} />
          {field.options.map((o) => (
            <label key={o.value} className="chat-ask__option">
              <input type="radio" name={id} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
              {o.label}
            </label>
          ))}
          {help}
          {problem}
        </fieldset>
      );
    case 'multi': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset className="chat-ask__field chat-ask__group" {...common}>
          <Label field={field} />
          {field.options.map((o) => (
            <label key={o.value} className="chat-ask__option">
              <input
                type="checkbox"
                value={o.value}
                checked={chosen.includes(o.value)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value))}
              />
              {o.label}
            </label>
          ))}
          {help}
          {problem}
        </fieldset>
      );
    }
  }
}

function FormQuestion({ question, disabled, onAnswer }: { question: PendingElicitation; disabled: boolean; onAnswer: CardProps['onAnswer'] }) {
  const [fields] = useState(() => formFields(question.schema ?? { type: 'object', properties: {} }));
  const [values, setValues] = useState<FormValues>(() => (fields ? initialValues(fields) : {}));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!fields || disabled) return;
    const found = formErrors(fields, values);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      // To the first field to fix: an input, or the first choice of a group.
      const el = Array.from(formRef.current?.querySelectorAll<HTMLElement>('[data-field]') ?? []).find((x) => x.dataset.field === first);
      (el?.matches('input, select') ? el : el?.querySelector<HTMLElement>('input, select'))?.focus();
      return;
    }
    onAnswer('accept', formContent(fields, values));
  };

  const bad = Object.values(errors).some(Boolean);
  return (
    <form ref={formRef} className="chat-ask__form" noValidate onSubmit={submit} aria-label="Answer">
      {fields ? (
        <fieldset className="chat-ask__fields" disabled={disabled}>
          {fields.map((f) => (
            <Field
              key={f.name}
              field={f}
              value={values[f.name]}
              error={errors[f.name] ?? ''}
              onChange={(v) => {
                setValues((old) => ({ ...old, [f.name]: v }));
                // A fixed field stops saying what was wrong with it.
                if (errors[f.name]) setErrors((old) => ({ ...old, [f.name]: '' }));
              }}
            />
          ))}
        </fieldset>
      ) : (
        <p className="chat-ask__error" role="note">
          {FORM_NOT_SHOWN}
        </p>
      )}
      {bad ? (
        <p className="chat-ask__error" role="alert">
          {CHECK_FIELDS}
        </p>
      ) : null}
      <div className="chat-tool__actions">
        {fields ? (
          <button type="submit" className="chat-button chat-button--small chat-button--primary" disabled={disabled}>
            Submit
          </button>
        ) : null}
        <button type="button" className="chat-button chat-button--small" disabled={disabled} onClick={() => onAnswer('decline')}>
          Decline
        </button>
        <button type="button" className="chat-button chat-button--small" disabled={disabled} onClick={() => onAnswer('cancel')}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function UrlQuestion({ question, disabled, onAnswer }: { question: PendingElicitation; disabled: boolean; onAnswer: CardProps['onAnswer'] }) {
  const [opened, setOpened] = useState(false);
  const url = question.url ?? '';
  const host = urlHost(url);
  const server = question.serverName || 'the server';
  return (
    <div className="chat-ask__url">
      {host ? (
        <p className="chat-ask__host" data-testid="elicitation-host">
          Opens <strong>{host}</strong>
        </p>
      ) : (
        <p className="chat-ask__error">This link cannot be opened: it is not a web address.</p>
      )}
      <div className="chat-tool__actions">
        {host && !disabled ? (
          <a className="chat-button chat-button--small chat-button--primary" href={url} target="_blank" rel="noopener noreferrer" onClick={() => setOpened(true)}>
            Open<span className="chat-sr-only"> {host} in a new tab</span>
          </a>
        ) : null}
        <button type="button" className={`chat-button chat-button--small${opened ? ' chat-button--primary' : ''}`} disabled={disabled} onClick={() => onAnswer('accept')}>
          Done
        </button>
        <button type="button" className="chat-button chat-button--small" disabled={disabled} onClick={() => onAnswer('cancel')}>
          Cancel
        </button>
      </div>
      {opened && !disabled ? (
        <p className="chat-ask__waiting" role="status">
          Finish on {host}. The reply goes on when {server} hears you are done, or choose Done.
        </p>
      ) : null}
    </div>
  );
}

/** The card of a server's question, in place of its tool call's block while the call waits on it. */
export function ElicitationCard({ block, question, onAnswer }: CardProps) {
  const now = useNow(question.expiresAt);
  const left = timeLeftText(question.expiresAt, now);
  const expired = left === null && Number.isFinite(Date.parse(question.expiresAt));
  const tool = question.tool || block.tool;
  const server = question.serverName || block.serverName;
  const state = question.status === 'failed' ? 'failed' : expired ? 'expired' : question.status === 'answered' ? 'answered' : 'pending';
  const disabled = state !== 'pending';
  return (
    <div
      role="group"
      className="chat-tool chat-tool--approval chat-ask"
      data-testid="tool-elicitation"
      data-tool={tool}
      data-mode={question.mode}
      data-state={state}
      aria-label={`${server || 'The server'} asks: ${question.message || 'a question'}`}
    >
      <Head block={{ ...block, tool, serverName: server, state: 'asking' }} />
      <p className="chat-ask__message" data-testid="elicitation-message">
        {question.message || `${server || 'The server'} needs your input to go on.`}
      </p>
      {state === 'pending' && left ? (
        <p className="chat-ask__time" data-testid="elicitation-time">
          {left}
        </p>
      ) : null}
      {question.mode === 'url' ? (
        <UrlQuestion question={question} disabled={disabled} onAnswer={onAnswer} />
      ) : (
        <FormQuestion question={question} disabled={disabled} onAnswer={onAnswer} />
      )}
      {state === 'answered' ? (
        <p className="chat-ask__waiting" role="status">
          {SENDING_ANSWER}
        </p>
      ) : null}
      {state === 'expired' ? (
        <p className="chat-tool__expired" role="status">
          {QUESTION_EXPIRED}
        </p>
      ) : null}
      {state === 'failed' ? (
        <p className="chat-tool__detail" role="alert" data-testid="elicitation-detail">
          {question.detail}
        </p>
      ) : null}
      <Arguments value={block.arguments} />
    </div>
  );
}
