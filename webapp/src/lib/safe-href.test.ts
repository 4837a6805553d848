import { describe, expect, it } from 'vitest';
import { safeHref } from './safe-href';

describe('safeHref', () => {
  it.each(['http://example.com', 'https://example.com/a?b=c#d', 'HTTPS://EXAMPLE.COM'])('keeps %s', (url) => {
    expect(safeHref(url)).toBe(url);
  });
  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/png;base64,iVBORw0KGgo=',
    'vbscript:x',
    '/relative/path',
    '#fragment',
    '//evil.example',
    'mailto:a@b.c',
    'ftp://example.com',
    'https://',
    'https://exa mple.com',
    'https://example.com/\u0000',
    '',
  ])('refuses %j', (url) => {
    expect(safeHref(url)).toBeNull();
  });
});
