// A creator's agent form: name, description, instructions (with the prompt
// editor's preview), provider and model from the chat's catalogue, MCP
// servers and their allowed tools, starter prompts, category and price
// (empty or 0: free). It works as the prompt form does: Save draft creates
// or edits; Submit for review saves what changed, then submits; an edit of
// a published agent is its next version and says what changed; a refusal
// that names a field shows beside it; a stale edit (409) shows the agent as
// it now is and keeps what was typed.

import { Alert, SelectField, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { MenuPreview } from '../../../components/prompt-editor/menu-preview';
import { charCount } from '../../../components/prompt-editor/prompt-rules';
import type { Category } from '../../../lib/api/types';
import { LLM_PROVIDERS, llmProvider, llmProviderLabel } from '../../../lib/llm-providers';
import { createAgent, submitAgent, updateAgent } from '../api/agent-requests';
import type { CreatorAgent, CreatorAgentInput } from '../api/agent-types';
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
  type AgentFields,
  type ChosenServer,
} from '../agent-rules';
import { CHANGE_NOTE_MAX, stateText } from '../prompt-state';
import { useItemEditor, type ItemKind } from '../use-item-editor';
import { AgentServersField } from './agent-servers-field';
import { CategorySelect, ChangeNoteField, ItemEditorFrame, SaveFailure } from './item-editor-parts';

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

const AGENT: ItemKind<CreatorAgent, AgentFields, CreatorAgentInput> = {
  empty: EMPTY_AGENT_FIELDS,
  editFieldsOf: agentEditFieldsOf,
  same: sameAgent,
  validate: validateAgentForm,
  valuesOf: agentValuesOf,
  create: createAgent,
  update: updateAgent,
  submit: submitAgent,
  // Only a published agent's edit carries a "what changed" note to refuse.
  fieldOfMessage: (message, published) => {
    const named = agentFieldOfMessage(message);
    return named && (named !== 'change_note' || published) ? named : null;
  },
  saveFailed: 'The agent could not be saved. Please try again.',
};

export function AgentForm({ agent, categories, payoutsEnabled, onClose, onChanged, onDone }: AgentFormProps) {
  const editor = useItemEditor(AGENT, agent, { onChanged, onDone });
  const { base, form, setForm, set, edited, field: text, errors, published, conflict } = editor;

  const provider = llmProvider(form.provider);
  const price = checkAgentPrice(form.price);
  const paid = 'price' in price && price.price > 0;
  const title = base ? `Edit “${base.name}”` : 'New agent';
  const starterCount = form.starters.split('\n').filter((s) => s.trim()).length;

  return (
    <ItemEditorFrame testId="creator-agent-form" title={title} editor={editor} onClose={onClose}>
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
            edited('provider', 'model');
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
        <CategorySelect field={text('category_id')} categories={categories} savedName={base?.category_name} />
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
        <ChangeNoteField field={editor.noteField} descriptiveText={`For the agent's users, on its page; up to ${CHANGE_NOTE_MAX} characters.`} />
      ) : null}
      <SaveFailure failure={editor.failure} testId="agent-save-error" />
    </ItemEditorFrame>
  );
}
