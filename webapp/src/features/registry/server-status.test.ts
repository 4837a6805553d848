import { describe, expect, it } from 'vitest';
import {
  checkedLabel,
  formatLatency,
  isHttpUrl,
  keyHint,
  knowsTools,
  relativePhrase,
  serverStatus,
  toolsChangedRecently,
  toolsCountLabel,
} from './server-status';
import { server } from './test-fixtures';
import type { McpHealthStatus } from '../../lib/api/mcp-types';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const withHealth = (status: McpHealthStatus, over = {}) => server({ id: 's', health: { ...server({ id: 's' }).health, status }, ...over });

describe('serverStatus', () => {
  it.each([
    [withHealth('up'), 'active', 'Active', 'success'],
    [withHealth('auth_required', { api_key_required: true }), 'needs-key', 'Needs key', 'warning'],
    [withHealth('auth_required'), 'needs-key', 'Needs key', 'warning'],
    [withHealth('auth_required', { oauth_required: true }), 'needs-sign-in', 'Needs sign-in', 'warning'],
    [withHealth('down'), 'down', 'Down', 'error'],
    [withHealth('unknown'), 'unknown', 'Unknown', 'neutral'],
    [withHealth('up', { is_active: false }), 'inactive', 'Inactive', 'neutral'],
    [withHealth('down', { is_active: false }), 'inactive', 'Inactive', 'neutral'],
  ])('%#: %s', (s, key, label, tone) => {
    const status = serverStatus(s);
    expect(status).toMatchObject({ key, label, tone });
    expect(status.description).not.toBe('');
  });
});

describe('toolsChangedRecently', () => {
  it.each([
    ['', false],
    ['not a date', false],
    ['2026-11-22T11:00:00Z', true],
    ['2026-11-15T12:00:01Z', true],
    ['2026-11-15T11:59:59Z', false],
    ['2026-11-22T12:30:00Z', true],
    ['2026-11-30T12:00:00Z', false],
  ])('%j → %s', (at, want) => {
    expect(toolsChangedRecently(at, NOW)).toBe(want);
  });
});

describe('texts', () => {
  it('formats latency', () => {
    expect(formatLatency(12)).toBe('12 ms');
    expect(formatLatency(1340)).toBe('1.3 s');
    expect(formatLatency(0)).toBe('');
    expect(formatLatency(Number.NaN)).toBe('');
  });
  it('counts tools', () => {
    expect(toolsCountLabel(1)).toBe('1 tool');
    expect(toolsCountLabel(13)).toBe('13 tools');
    expect(toolsCountLabel(0)).toBe('0 tools');
  });
  it('says when it was checked', () => {
    expect(checkedLabel('', NOW)).toBe('Not checked yet');
    expect(checkedLabel('2026-11-22T11:55:00Z', NOW)).toBe('Last checked 5 minutes ago');
    expect(checkedLabel('2026-11-22T11:59:30Z', NOW)).toBe('Last checked just now');
    expect(checkedLabel('2026-10-01T12:00:00Z', NOW)).toBe('Last checked on Oct 1, 2026');
    expect(relativePhrase('garbage', NOW)).toBe('');
  });
  it('shows a tools count only when the probe saw the tools', () => {
    expect(knowsTools(withHealth('up'))).toBe(true);
    expect(knowsTools(withHealth('auth_required', { health: { ...withHealth('up').health, status: 'auth_required', tools_count: 0 } }))).toBe(false);
    expect(knowsTools(withHealth('down'))).toBe(true);
  });
  it('hints at a kept key by its last 4 characters only', () => {
    expect(keyHint({ has_api_key: true, api_key_last4: 'abcd' })).toBe('key …abcd');
    expect(keyHint({ has_api_key: true, api_key_last4: '' })).toBe('key saved');
    expect(keyHint({ has_api_key: false, api_key_last4: '' })).toBe('');
  });
});

describe('isHttpUrl', () => {
  it.each([
    ['https://mcp.example.com/mcp', true],
    ['http://127.0.0.1:3001/mcp', true],
    ['javascript:alert(1)', false],
    ['ftp://x', false],
    ['/relative', false],
    ['', false],
  ])('%j → %s', (url, want) => {
    expect(isHttpUrl(url)).toBe(want);
  });
});
