import { describe, expect, it } from 'vitest';
import { canReuseConnection, connectionKey, connectionStatus, connectedMessage, STATUS_TEXT } from './connection';
import { firstLabelWord, firstModel, modelFor, PROVIDERS, providerLabel } from './providers';

describe('providers', () => {
  it('lists the fixed catalogue of SPEC §3', () => {
    expect(PROVIDERS.map((p) => [p.id, p.label, p.models])).toEqual([
      ['openai', 'OpenAI GPT', ['gpt-4o-mini', 'gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo']],
      ['meta', 'Meta Llama', ['llama-3.1-8b-instruct', 'llama-3.1-70b-instruct', 'llama-3.2-1b-instruct']],
      ['anthropic', 'Anthropic Claude', ['claude-3-5-sonnet', 'claude-3-opus']],
      ['google', 'Google Gemini', ['gemini-1.5-pro', 'gemini-1.5-flash']],
    ]);
  });
  it('first label words, first models and model fallback', () => {
    expect(PROVIDERS.map((p) => firstLabelWord(p.id))).toEqual(['OpenAI', 'Meta', 'Anthropic', 'Google']);
    expect(firstModel('google')).toBe('gemini-1.5-pro');
    expect(modelFor('google', 'gpt-4o')).toBe('gemini-1.5-pro');
    expect(modelFor('google', 'gemini-1.5-flash')).toBe('gemini-1.5-flash');
    expect(modelFor('openai', null)).toBe('gpt-4o-mini');
    expect(providerLabel('meta')).toBe('Meta Llama');
  });
});

describe('canReuseConnection', () => {
  const conn = (server_name: string, model: string) => ({ id: 'c', server_name, model, demo: false });
  it('reuses when the model matches and the server name holds the first label word', () => {
    expect(canReuseConnection(conn('OpenAI GPT', 'gpt-4o'), 'openai', 'gpt-4o')).toBe(true);
    expect(canReuseConnection(conn('OpenAI GPT (local demo)', 'gpt-4o'), 'openai', 'gpt-4o')).toBe(true);
    expect(canReuseConnection(conn('Meta Llama', 'llama-3.1-8b-instruct'), 'meta', 'llama-3.1-8b-instruct')).toBe(true);
    expect(canReuseConnection(conn('Google Gemini (local demo)', 'gemini-1.5-pro'), 'google', 'gemini-1.5-pro')).toBe(true);
  });
  it('does not reuse for another model, another provider’s server, or nothing', () => {
    expect(canReuseConnection(conn('OpenAI GPT', 'gpt-4o-mini'), 'openai', 'gpt-4o')).toBe(false);
    expect(canReuseConnection(conn('Anthropic Claude', 'gpt-4o'), 'openai', 'gpt-4o')).toBe(false);
    expect(canReuseConnection(conn('', 'gpt-4o'), 'openai', 'gpt-4o')).toBe(false);
    expect(canReuseConnection(null, 'openai', 'gpt-4o')).toBe(false);
    expect(canReuseConnection(undefined, 'openai', 'gpt-4o')).toBe(false);
  });
  it('status: connecting wins, then connected when reusable, else idle', () => {
    const c = conn('OpenAI GPT', 'gpt-4o');
    expect(connectionStatus(true, c, 'openai', 'gpt-4o')).toBe('connecting');
    expect(connectionStatus(false, c, 'openai', 'gpt-4o')).toBe('connected');
    expect(connectionStatus(false, c, 'openai', 'gpt-4o-mini')).toBe('idle');
    expect(connectionStatus(false, null, 'openai', 'gpt-4o')).toBe('idle');
    expect(Object.values(STATUS_TEXT)).toEqual(['Idle', 'Connecting...', 'Connected']);
  });
  it('texts and keys', () => {
    expect(connectedMessage('OpenAI GPT (local demo)')).toBe('Connected to OpenAI GPT (local demo)');
    expect(connectionKey('meta', 'x')).toBe('meta:x');
  });
});
