import { describe, expect, it } from 'vitest';
import {
  agentFieldOfMessage,
  agentFieldsOf,
  agentValuesOf,
  checkAgentPrice,
  EMPTY_AGENT_FIELDS,
  startersOf,
  validateAgentForm,
  type AgentFields,
} from './agent-rules';

const ok: AgentFields = { ...EMPTY_AGENT_FIELDS, name: 'Coach', instructions: 'Be kind.', category_id: 'sales' };

describe('agent rules', () => {
  it('starts on the catalogue’s first provider and model', () => {
    expect([EMPTY_AGENT_FIELDS.provider, EMPTY_AGENT_FIELDS.model]).toEqual(['openai', 'gpt-4o-mini']);
  });

  it('accepts a complete free agent', () => {
    expect(validateAgentForm(ok)).toEqual({});
  });

  it('says each broken rule on its field', () => {
    const tools = (k: number) => Array.from({ length: k }, (_, i) => `t${i}`);
    expect(validateAgentForm({ ...EMPTY_AGENT_FIELDS })).toEqual({
      name: 'Name is required.',
      instructions: 'Instructions are required.',
      category_id: 'Choose a category.',
    });
    const bad = validateAgentForm({
      ...ok,
      name: 'x'.repeat(101),
      description: 'd'.repeat(2001),
      instructions: 'i'.repeat(50_001),
      model: 'claude-3-opus',
      starters: 'a\nb\nc\nd\ne',
      price: '1.999',
    });
    expect(bad).toEqual({
      name: 'Name must be at most 100 characters (now 101).',
      description: 'Description must be at most 2,000 characters (now 2,001).',
      instructions: 'Instructions must be at most 50,000 characters (now 50,001).',
      model: 'Choose a model of OpenAI GPT.',
      starters: 'At most 4 starter prompts, one per line (now 5).',
      price: 'The price can have at most 2 decimals.',
    });
    expect(validateAgentForm({ ...ok, provider: 'acme' }).provider).toBe('Choose a provider.');
    expect(validateAgentForm({ ...ok, starters: 's'.repeat(301) }).starters).toBe('Each starter prompt must be at most 300 characters.');
    const eleven = Array.from({ length: 11 }, (_, i) => ({ server_id: `s${i}`, name: `S${i}`, tools: [] }));
    expect(validateAgentForm({ ...ok, servers: eleven }).servers).toBe('At most 10 servers (now 11).');
    const many = [
      { server_id: 'a', name: 'A', tools: tools(60) },
      { server_id: 'b', name: 'B', tools: tools(41) },
    ];
    expect(validateAgentForm({ ...ok, servers: many }).servers).toBe('At most 100 tools in all (now 101).');
  });

  it('reads an empty or zero price as free, and holds a paid one to the prompts’ rule', () => {
    expect(checkAgentPrice('')).toEqual({ price: 0 });
    expect(checkAgentPrice(' 0 ')).toEqual({ price: 0 });
    expect(checkAgentPrice('0.00')).toEqual({ price: 0 });
    expect(checkAgentPrice('4.5')).toEqual({ price: 4.5 });
    expect(checkAgentPrice('1000')).toEqual({ error: 'The price can be at most $999.99.' });
    expect(checkAgentPrice('-1')).toEqual({ error: 'Enter the price in USD as a number, like 9.99.' });
  });

  it('sends trimmed names and starters, the instructions as typed, and the servers without their names', () => {
    const values = agentValuesOf({
      ...ok,
      name: '  Coach ',
      instructions: '  Be kind.\n',
      starters: ' Hi \n\n  Plan my week\n',
      servers: [{ server_id: 'local-everything', name: 'Everything', tools: ['echo'] }],
      price: '4.50',
    });
    expect(values).toEqual({
      name: 'Coach',
      description: '',
      instructions: '  Be kind.\n',
      provider: 'openai',
      model: 'gpt-4o-mini',
      servers: [{ server_id: 'local-everything', tools: ['echo'] }],
      starters: ['Hi', 'Plan my week'],
      category_id: 'sales',
      price: 4.5,
    });
    expect(startersOf('a\n \nb')).toEqual(['a', 'b']);
    expect(agentFieldsOf({ ...values, price: 0 }).price).toBe('');
    expect(agentFieldsOf(values).starters).toBe('Hi\nPlan my week');
  });

  it('finds the field an API refusal names', () => {
    expect(agentFieldOfMessage('instructions must be at most 50,000 characters (they have 50001)')).toBe('instructions');
    expect(agentFieldOfMessage('servers: no server xyz in the registry')).toBe('servers');
    expect(agentFieldOfMessage('model: gpt-x is not a model of openai')).toBe('model');
    expect(agentFieldOfMessage('category "x" does not exist')).toBe('category_id');
    expect(agentFieldOfMessage('category_id is required')).toBe('category_id');
    expect(agentFieldOfMessage('change_note is required: say what changed, for your buyers.')).toBe('change_note');
    expect(agentFieldOfMessage('starters: at most 4')).toBe('starters');
    expect(agentFieldOfMessage('This agent is already in review.')).toBeNull();
    expect(agentFieldOfMessage('named after nothing')).toBeNull();
  });
});
