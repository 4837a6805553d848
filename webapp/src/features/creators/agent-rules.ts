// The rules of an agent's fields, as the API checks them (shared/agents,
// docs/creators.md, Agents): name 1–100 characters, description ≤ 2,000,
// instructions 1–50,000, a provider and one of its models, at most 10
// registry servers and 100 allowed tools in all, at most 4 starter prompts
// of 1–300 characters, a category, and a price: empty or 0 for free, else
// the prompts' price rule. The form checks them before sending; the API's
// refusal names the field it is about, and shows beside it.

import { charCount, checkPrice, DESCRIPTION_MAX } from '../../components/prompt-editor/prompt-rules';
import { formatUsd } from '../../lib/format';
import { LLM_PROVIDERS, llmProvider } from '../../lib/llm-providers';
import type { AgentPendingVersion, AgentServer, CreatorAgent, CreatorAgentInput } from './api/agent-types';

export const NAME_MAX = 100;
export const INSTRUCTIONS_MAX = 50_000;
export const SERVERS_MAX = 10;
export const TOOLS_MAX = 100;
export const STARTERS_MAX = 4;
export const STARTER_MAX = 300;
export { DESCRIPTION_MAX };

/** A chosen registry server, with its name for the form. */
export interface ChosenServer extends AgentServer {
  name: string;
}

/** An agent's fields as typed: starters one per line, the price text until checked. */
export interface AgentFields {
  name: string;
  description: string;
  instructions: string;
  provider: string;
  model: string;
  servers: ChosenServer[];
  starters: string;
  category_id: string;
  price: string;
}

export type AgentField = keyof AgentFields;
export type AgentErrors = Partial<Record<AgentField | 'change_note', string>>;

const FIRST = LLM_PROVIDERS[0];

export const EMPTY_AGENT_FIELDS: AgentFields = {
  name: '',
  description: '',
  instructions: '',
  provider: FIRST.id,
  model: FIRST.models[0],
  servers: [],
  starters: '',
  category_id: '',
  price: '',
};

const n = (x: number) => x.toLocaleString('en-US');
const CONTROL = /\p{Cc}/u;

/** The starter prompts typed, one per line (blank lines skipped). */
export function startersOf(text: string): string[] {
  return text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function toolCount(servers: readonly AgentServer[]): number {
  return servers.reduce((sum, s) => sum + s.tools.length, 0);
}

/** Empty or 0 is free (0); else the prompts' price rule. */
export function checkAgentPrice(text: string): { price: number } | { error: string } {
  const t = text.trim();
  if (t === '' || /^0+(?:\.0*)?$/.test(t)) return { price: 0 };
  return checkPrice(t);
}

export function validateAgentForm(form: AgentFields): AgentErrors {
  const errors: AgentErrors = {};
  const name = charCount(form.name.trim());
  if (name === 0) errors.name = 'Name is required.';
  else if (name > NAME_MAX) errors.name = `Name must be at most ${n(NAME_MAX)} characters (now ${n(name)}).`;
  else if (CONTROL.test(form.name.trim())) errors.name = 'Name must be one line, without tabs or other control characters.';
  const description = charCount(form.description.trim());
  if (description > DESCRIPTION_MAX) errors.description = `Description must be at most ${n(DESCRIPTION_MAX)} characters (now ${n(description)}).`;
  const instructions = charCount(form.instructions);
  if (form.instructions.trim() === '') errors.instructions = 'Instructions are required.';
  else if (instructions > INSTRUCTIONS_MAX) errors.instructions = `Instructions must be at most ${n(INSTRUCTIONS_MAX)} characters (now ${n(instructions)}).`;
  const provider = llmProvider(form.provider);
  if (!provider) errors.provider = 'Choose a provider.';
  else if (!provider.models.includes(form.model)) errors.model = `Choose a model of ${provider.label}.`;
  if (form.servers.length > SERVERS_MAX) errors.servers = `At most ${SERVERS_MAX} servers (now ${form.servers.length}).`;
  else if (toolCount(form.servers) > TOOLS_MAX) errors.servers = `At most ${TOOLS_MAX} tools in all (now ${toolCount(form.servers)}).`;
  const starters = startersOf(form.starters);
  if (starters.length > STARTERS_MAX) errors.starters = `At most ${STARTERS_MAX} starter prompts, one per line (now ${starters.length}).`;
  else if (starters.some((s) => charCount(s) > STARTER_MAX)) errors.starters = `Each starter prompt must be at most ${STARTER_MAX} characters.`;
  const price = checkAgentPrice(form.price);
  if ('error' in price) errors.price = price.error;
  if (!form.category_id) errors.category_id = 'Choose a category.';
  return errors;
}

/** What the API is sent for valid fields: name and description trimmed, instructions as typed. */
export function agentValuesOf(form: AgentFields): CreatorAgentInput {
  const price = checkAgentPrice(form.price);
  return {
    name: form.name.trim(),
    description: form.description.trim(),
    instructions: form.instructions,
    provider: form.provider,
    model: form.model,
    servers: form.servers.map((s) => ({ server_id: s.server_id, tools: [...s.tools] })),
    starters: startersOf(form.starters),
    category_id: form.category_id,
    price: 'price' in price ? price.price : 0,
  };
}

/** Saved values as the form shows them (server names filled in by the form as it reads them). */
export function agentFieldsOf(a: Omit<AgentPendingVersion, 'change_note' | 'state' | 'review_reason'>): AgentFields {
  return {
    name: a.name,
    description: a.description,
    instructions: a.instructions,
    provider: a.provider,
    model: a.model,
    servers: a.servers.map((s) => ({ server_id: s.server_id, tools: [...s.tools], name: s.server_id })),
    starters: a.starters.join('\n'),
    category_id: a.category_id,
    price: a.price > 0 ? a.price.toFixed(2) : '',
  };
}

/** The form's fields for an edit: the next version when one is saved, else the agent as it is. */
export function agentEditFieldsOf(a: CreatorAgent): AgentFields {
  return agentFieldsOf(a.state === 'published' && a.pending ? a.pending : a);
}

/** Whether two forms would save the same agent (server names aside). */
export function sameAgent(a: AgentFields, b: AgentFields): boolean {
  return JSON.stringify(agentValuesOf(a)) === JSON.stringify(agentValuesOf(b));
}

/**
 * The field an API refusal (400) names: the agents' rule messages begin
 * with it ("instructions must be at most 50,000 characters", "servers: at
 * most 10", "category \"x\" does not exist", "change_note is required…").
 * Null when it names none of them.
 */
export function agentFieldOfMessage(message: string): AgentField | 'change_note' | null {
  const m = /^(name|description|instructions|provider|model|servers|starters|category(?:_id)?|price|change[_ ]note)\b/i.exec(message.trim());
  if (!m) return null;
  const word = m[1].toLowerCase();
  if (word.startsWith('category')) return 'category_id';
  if (word.startsWith('change')) return 'change_note';
  return word as AgentField;
}

/** "Free" or the price in USD. */
export function agentPriceText(price: number): string {
  return price > 0 ? formatUsd(price) : 'Free';
}
