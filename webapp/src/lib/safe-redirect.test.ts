import { describe, expect, it } from 'vitest';
import { DEFAULT_REDIRECT, safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it.each([
    ['/x', '/x'],
    ['/dashboard', '/dashboard'],
    ['/llm-chat?tab=2', '/llm-chat?tab=2'],
    ['/marketplace?filter=purchased#top', '/marketplace?filter=purchased#top'],
    ['/', '/'],
  ])('honours the same-site path %s', (input, want) => {
    expect(safeRedirect(input)).toBe(want);
  });

  it.each([
    ['//host', 'protocol-relative URL'],
    ['//evil.example/path', 'protocol-relative URL with path'],
    ['/\\host', 'backslash trick'],
    ['/\\\\evil.example', 'double backslash'],
    ['https://evil.example', 'absolute https URL'],
    ['http://evil.example/dashboard', 'absolute http URL'],
    ['javascript:alert(1)', 'javascript scheme'],
    ['JavaScript:alert(1)', 'mixed-case javascript scheme'],
    ['data:text/html,hi', 'data scheme'],
    ['', 'empty string'],
    ['x', 'relative path'],
    ['dashboard', 'relative path without slash'],
    ['./x', 'dot-relative path'],
    [' /x', 'leading space'],
    ['/\t/evil.example', 'tab that browsers strip'],
    ['/\n/evil.example', 'newline that browsers strip'],
  ])('rejects %j (%s) and falls back to /dashboard', (input) => {
    expect(safeRedirect(input)).toBe(DEFAULT_REDIRECT);
    expect(DEFAULT_REDIRECT).toBe('/dashboard');
  });

  it('falls back for null and undefined', () => {
    expect(safeRedirect(null)).toBe('/dashboard');
    expect(safeRedirect(undefined)).toBe('/dashboard');
  });

  it('uses a custom fallback when given', () => {
    expect(safeRedirect('//host', '/')).toBe('/');
    expect(safeRedirect('/ok', '/')).toBe('/ok');
  });
});
