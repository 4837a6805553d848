import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { buildConnectRequest, connectFailureReason, isApiKeyMissing } from '../../lib/mcp-connect-request';
import { connectFailedMessage, connectedMessage } from './messages';
import { server } from './test-fixtures';

const open = server({ id: 'local-everything', name: 'Everything (local reference server)', endpoint_url: 'http://127.0.0.1:3001/mcp', model_type: 'reference' });
const keyed = server({ id: 'keyed', name: 'Keyed', api_key_required: true, model_type: 'payments' });

describe('isApiKeyMissing', () => {
  it.each([
    ['', true],
    ['   ', true],
    ['\t\n', true],
    ['sk-1', false],
  ])('required key %j → %s', (key, want) => {
    expect(isApiKeyMissing(keyed, key)).toBe(want);
  });
  it('never blocks a server without a required key', () => {
    expect(isApiKeyMissing(open, '')).toBe(false);
  });
});

describe('buildConnectRequest', () => {
  it('empty endpoint means the default; no api_key when not required nor typed', () => {
    expect(buildConnectRequest(open, { endpointUrl: '  ', apiKey: '' })).toEqual({
      server_id: 'local-everything',
      server_name: 'Everything (local reference server)',
      endpoint_url: 'http://127.0.0.1:3001/mcp',
      model_type: 'reference',
    });
  });
  it("uses the user's endpoint, trimmed", () => {
    expect(buildConnectRequest(open, { endpointUrl: ' http://localhost:9000/mcp ', apiKey: '' }).endpoint_url).toBe('http://localhost:9000/mcp');
  });
  it('sends the key when required, trimmed', () => {
    expect(buildConnectRequest(keyed, { endpointUrl: '', apiKey: ' sk-abcd ' })).toEqual({
      server_id: 'keyed',
      server_name: 'Keyed',
      endpoint_url: keyed.endpoint_url,
      model_type: 'payments',
      api_key: 'sk-abcd',
    });
  });
  it('sends a key the user typed for a server that does not require one', () => {
    expect(buildConnectRequest(open, { endpointUrl: '', apiKey: 'tok' }).api_key).toBe('tok');
    expect('api_key' in buildConnectRequest(open, { endpointUrl: '', apiKey: '   ' })).toBe(false);
  });
});

describe('failure texts (SPEC §8)', () => {
  it('detail, else message, else Connection failed', () => {
    const detail = new ApiError(502, 'The server at mcp.example.com could not be reached.', { fromServer: true });
    expect(connectFailedMessage('X', connectFailureReason(detail))).toBe('Failed to connect to X: The server at mcp.example.com could not be reached.');
    const network = new ApiError(0, 'Network error: Failed to fetch', { code: 'network_error' });
    expect(connectFailedMessage('X', connectFailureReason(network))).toBe('Failed to connect to X: Network error: Failed to fetch');
    expect(connectFailedMessage('X', connectFailureReason(new Error('')))).toBe('Failed to connect to X: Connection failed');
    expect(connectFailedMessage('X', connectFailureReason('weird'))).toBe('Failed to connect to X: Connection failed');
  });
  it('success text', () => {
    expect(connectedMessage('Everything (local reference server)')).toBe('Successfully connected to Everything (local reference server)!');
  });
});
