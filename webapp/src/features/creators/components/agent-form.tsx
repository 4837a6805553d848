// A creator's agent form: name, description, instructions (with the prompt
// editor's preview), provider and model from the chat's catalogue, MCP
// servers and their allowed tools, starter prompts, category and price
// (empty or 0: free). It works as the prompt form does: Save draft creates
// or edits; Submit for review saves what changed, then submits; an edit of
// a published agent is its next version and says what changed; a refusal
// that names a field shows beside it; a stale edit (409) shows the agent as
// it now is and keeps what was typed.

import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Heading, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { MenuPreview } from '../../../components/prompt-editor/menu-preview';
import { charCount } from '../../../components/prompt-editor/prompt-rules';
import { ApiError, errorMessage } from '../../../lib/api-client';
import type { Category } from '../../../lib/api/types';
import { LLM_PROVIDERS, llmProvider, llmProviderLabel } from '../../../lib/llm-providers';
import { createAgent, submitAgent, updateAgent } from '../api/agent-requests';
import type { CreatorAgent } from '../api/agent-types';
import {
  agentEditFieldsOf,
  agentFieldOfMessage,
  agentPriceText,
  agentValuesOf,
  checkAgentPrice,
  DESCRIPTION_MAX,
  EMPTY_AGENT_FIELDS,
  INSTRUCTIONS_MAX,
  NAME_MAX,
  sameAgent,
  STARTER_MAX,
  STARTERS_MAX,
  validateAgentForm,
  type AgentErrors,
  type AgentFields,
  type ChosenServer,
} from '../agent-rules';
import { CHANGE_NOTE_MAX, checkChangeNote, currentOf, stateText } from '../prompt-state';
import { useFocusInvalid, withoutKey } from '../use-focus-invalid';
import { AgentServersField } from './agent-servers-field';

interface AgentFormProps {
  /** The agent to edit; null: a new one. */
  agent: CreatorAgent | null;
  categories: readonly Category[];
  /** Payouts enabled: a paid agent can be approved. */
  payoutsEnabled: boolean;
  onClose: () => void;
  /** After each write the API accepted (its answer), and after a 409 (the agent as it now is). */
  onChanged: (agent: CreatorAgent) => void;
  /** After a save or a submit that finished the form's work. */
  onDone: (message: string) => void;
}

export const PAYOUTS_NEEDED_NOTE = 'A paid agent needs payouts: set up payouts above before an admin can approve it.';

export function AgentForm({ agent, categories, payoutsEnabled, onClose, onChanged, onDone }: AgentFormProps) {
  const headingId = useId();
  // The agent as last read: its version is what the next edit carries.
  const [base, setBase] = useState<CreatorAgent | null>(agent);
  const [form, setForm] = useState<AgentFields>(() => (agent ? agentEditFieldsOf(agent) : EMPTY_AGENT_FIELDS));
  const [saved, setSaved] = useState<AgentFields | null>(() => (agent ? agentEditFieldsOf(agent) : null));
  const [changeNote, setChangeNote] = useState(() => (agent?.state === 'published' ? (agent.pending?.change_note ?? '') : ''));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<AgentErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<CreatorAgent | null>(null);
  const [busy, setBusy] = useState(false);
  const { ref, refused } = useFocusInvalid<HTMLFormElement>();

  const published = base?.state === 'published';
  const validate = (): AgentErrors => {
    const errors = validateAgentForm(form);
    if (published) {
      const note = checkChangeNote(changeNote);
      if (note) errors.change_note = note;
    }
    return errors;
  };
  const errors: AgentErrors = submitted ? { ...validate(), ...serverErrors } : serverErrors;
  const set = <K extends keyof AgentFields>(key: K, value: AgentFields[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setServerErrors((e) => withoutKey(e, key));
  };
  const text = (key: 'name' | 'description' | 'instructions' | 'starters' | 'price' | 'category_id') => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    hasError: Boolean(errors[key]),
    errorMessage: errors[key],
  });

  /** Saves the form when it changed (or is new); the agent as saved, or null when refused. */
  const save = async (): Promise<CreatorAgent | null> => {
    const noteChanged = published && changeNote.trim() !== (base?.pending?.change_note ?? '');
    if (base && saved && sameAgent(form, saved) && !noteChanged && !(published && !base.pending)) return base;
    const values = agentValuesOf(form);
    try {
      const answer = base
        ? await updateAgent(base.id, { ...values, version: base.version, ...(published ? { change_note: changeNote.trim() } : {}) })
        : await createAgent(values);
      setBase(answer);
      setSaved(form);
      setConflict(null);
      onChanged(answer);
      return answer;
    } catch (err) {
      refusal(err);
      return null;
    }
  };

  const refusal = (err: unknown) => {
    const current = currentOf<CreatorAgent>(err);
    if (current) {
      // Stale: the agent as it now is; what was typed stays in the form,
      // and the next save is made from this version.
      setBase(current);
      setSaved(agentEditFieldsOf(current));
      setConflict(current);
      onChanged(current);
      return;
    }
    if (err instanceof ApiError && err.status === 400 && err.fromServer) {
      const named = agentFieldOfMessage(err.detail);
      if (named && (named !== 'change_note' || published)) {
        setServerErrors({ [named]: err.detail });
        refused();
        return;
      }
    }
    setFailure(errorMessage(err, 'The agent could not be saved. Please try again.'));
  };

  const run = async (e: FormEvent | null, andSubmit: boolean) => {
    e?.preventDefault();
    if (busy) return;
    setSubmitted(true);
    setFailure(null);
    setServerErrors({});
    if (Object.keys(validate()).length) return refused();
    setBusy(true);
    try {
      const written = await save();
      if (!written) return;
      if (!andSubmit) return onDone(published ? 'Next version saved as a draft.' : 'Draft saved.');
      try {
        const sent = await submitAgent(written.id);
        onChanged(sent);
        onDone('Sent for review.');
      } catch (err) {
        refusal(err);
      }
    } finally {
      setBusy(false);
    }
  };

  const provider = llmProvider(form.provider);
  const categoryKnown = categories.some((c) => String(c.id) === form.category_id);
  const price = checkAgentPrice(form.price);
  const paid = 'price' in price && price.price > 0;
  const title = base ? `Edit “${base.name}”` : 'New agent';
  const starterCount = form.starters.split('\n').filter((s) => s.trim()).length;

  return (
    <section className="creator-editor" aria-labelledby={headingId} data-testid="creator-agent-form">
      <Heading level={3} id={headingId} className="creator-editor__title">
        {title}
      </Heading>
      <form ref={ref} className="creator-form" onSubmit={(e) => void run(e, false)} noValidate aria-busy={busy} aria-labelledby={headingId}>
        {published ? (
          <Alert variation="info" data-testid="next-version-note">
            This agent is on the marketplace. Your edit becomes its next version: the live version stays until the new one is approved.
          </Alert>
        ) : null}
        {conflict ? (
          <Alert variation="warning" heading="This agent changed since you opened it" data-testid="agent-conflict">
            <p>Here it is as it is now. What you typed is kept in the form: save again to replace it with yours.</p>
            <dl className="creator-conflict">
              <dt>Name</dt>
              <dd>{conflict.name}</dd>
              <dt>State</dt>
              <dd>{stateText(conflict.state, conflict.review_reason)}</dd>
              <dt>Model</dt>
              <dd>
                {llmProviderLabel(conflict.provider)} {conflict.model}
              </dd>
              <dt>Price</dt>
              <dd>{agentPriceText(conflict.price)}</dd>
              <dt>Instructions</dt>
              <dd>{charCount(conflict.instructions).toLocaleString('en-US')} characters</dd>
            </dl>
          </Alert>
        ) : null}
        <TextField label="Name" isRequired {...text('name')} descriptiveText={`1–${NAME_MAX} characters.`} />
        <TextAreaField label="Description" rows={3} {...text('description')} descriptiveText={`Up to ${DESCRIPTION_MAX.toLocaleString('en-US')} characters.`} />
        <TextAreaField
          label="Instructions"
          isRequired
          rows={10}
          className="creator-form__content"
          spellCheck={false}
          {...text('instructions')}
          descriptiveText={`${charCount(form.instructions).toLocaleString('en-US')} of ${INSTRUCTIONS_MAX.toLocaleString('en-US')} characters. Sent as the system prompt of every turn, by the server: a paid agent's instructions are never shown to anyone else.`}
        />
        <MenuPreview content={form.instructions} />
        <div className="creator-form__row">
          <SelectField
            label="Provider"
            isRequired
            value={form.provider}
            onChange={(e) => {
              const next = llmProvider(e.target.value);
              setForm((f) => ({ ...f, provider: e.target.value, model: next && !next.models.includes(f.model) ? next.models[0] : f.model }));
              setServerErrors((x) => withoutKey(withoutKey(x, 'provider'), 'model'));
            }}
            hasError={Boolean(errors.provider)}
            errorMessage={errors.provider}
          >
            {provider ? null : <option value={form.provider}>{form.provider}</option>}
            {LLM_PROVIDERS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </SelectField>
          <SelectField label="Model" isRequired value={form.model} onChange={(e) => set('model', e.target.value)} hasError={Boolean(errors.model)} errorMessage={errors.model}>
            {provider?.models.includes(form.model) ? null : <option value={form.model}>{form.model || 'Choose a model'}</option>}
            {(provider?.models ?? []).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </SelectField>
        </div>
        <AgentServersField servers={form.servers} onChange={(servers: ChosenServer[]) => set('servers', servers)} error={errors.servers} />
        <TextAreaField
          label="Starter prompts"
          rows={4}
          {...text('starters')}
          descriptiveText={`One per line, up to ${STARTERS_MAX} (each up to ${STARTER_MAX} characters): shown as buttons in the chat. ${starterCount} of ${STARTERS_MAX}.`}
        />
        <div className="creator-form__row">
          <SelectField label="Category" isRequired {...text('category_id')}>
            <option value="">Choose a category</option>
            {form.category_id && !categoryKnown ? <option value={form.category_id}>{base?.category_name || form.category_id}</option> : null}
            {categories.map((c) => (
              <option key={String(c.id)} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Price"
            inputMode="decimal"
            placeholder="Free"
            {...text('price')}
            descriptiveText={
              <>
                In USD: leave empty (or 0) for a free agent; a paid one costs more than 0, at most 999.99.
                {payoutsEnabled ? null : (
                  <span className={paid ? 'agent-payouts-note agent-payouts-note--paid' : 'agent-payouts-note'} data-testid="agent-payouts-note">
                    {' '}
                    {PAYOUTS_NEEDED_NOTE}
                  </span>
                )}
              </>
            }
          />
        </div>
        {published ? (
          <TextAreaField
            label="What changed"
            isRequired
            rows={2}
            value={changeNote}
            onChange={(e) => {
              setChangeNote(e.target.value);
              setServerErrors((x) => withoutKey(x, 'change_note'));
            }}
            hasError={Boolean(errors.change_note)}
            errorMessage={errors.change_note}
            descriptiveText={`For the agent's users, on its page; up to ${CHANGE_NOTE_MAX} characters.`}
          />
        ) : null}
        {failure ? (
          <Alert variation="error" heading="Not saved" data-testid="agent-save-error">
            {failure}
          </Alert>
        ) : null}
        <div className="creator-actions">
          <Button type="submit" isDisabled={busy}>
            Save draft
          </Button>
          <Button variation="primary" onClick={() => void run(null, true)} isDisabled={busy}>
            Submit for review
          </Button>
          <Button variation="link" onClick={onClose} isDisabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}
