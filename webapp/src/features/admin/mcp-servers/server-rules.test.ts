import { describe, expect, it } from 'vitest';
import { checkFeature, EMPTY_SERVER_FORM, isHttpUrl, validateServerForm } from './server-rules';

const VALID = { ...EMPTY_SERVER_FORM, name: 'Linear', endpoint_url: 'https://mcp.linear.app/sse', model_type: 'productivity' };

describe('validateServerForm (the API rules)', () => {
  it('passes a valid form', () => {
    expect(validateServerForm(VALID)).toEqual({});
  });

  it.each(['https://a.example/mcp', 'http://localhost:3001/mcp', ' https://x.io '])('takes the URL %j', (url) => {
    expect(isHttpUrl(url)).toBe(true);
  });

  it.each(['ftp://a.example', 'mcp.example.com', 'https://', 'javascript:alert(1)'])('refuses the URL %j', (url) => {
    expect(isHttpUrl(url)).toBe(false);
    expect(validateServerForm({ ...VALID, endpoint_url: url }).endpoint_url).toBeDefined();
  });

  it.each([
    ['code', true],
    ['web-search2', true],
    ['Code', false],
    ['2fa', false],
    ['two words', false],
    ['x'.repeat(41), false],
  ])('model type %j is valid: %s', (modelType, ok) => {
    expect(validateServerForm({ ...VALID, model_type: modelType }).model_type === undefined).toBe(ok);
  });

  it('limits the name, the description and the features', () => {
    expect(validateServerForm({ ...VALID, name: 'n'.repeat(100) })).toEqual({});
    expect(validateServerForm({ ...VALID, name: 'n'.repeat(101) }).name).toBe('Name must be at most 100 characters (now 101).');
    expect(validateServerForm({ ...VALID, description: 'd'.repeat(2001) }).description).toMatch(/at most 2,000/);
    expect(validateServerForm({ ...VALID, features: Array.from({ length: 21 }, (_, i) => `f${i}`) }).features).toBe('At most 20 features.');
    expect(checkFeature('f'.repeat(41), [])).toBe('A feature must be at most 40 characters.');
    expect(checkFeature('tools', Array.from({ length: 20 }, (_, i) => `f${i}`))).toBe('At most 20 features.');
    expect(checkFeature('tools', [])).toBeNull();
  });
});
