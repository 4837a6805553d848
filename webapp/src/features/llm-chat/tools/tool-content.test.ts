import { describe, expect, it } from 'vitest';
import { base64Bytes, contentViews, formatArguments, imageSrc, MAX_IMAGE_BYTES, resultText } from './tool-content';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('contentViews', () => {
  it('text as text; a small image/* as a data URL thumbnail', () => {
    expect(contentViews([{ type: 'text', text: 'The sum of 2 and 3 is 5.' }, { type: 'image', data: PNG, mimeType: 'image/png' }])).toEqual([
      { kind: 'text', text: 'The sum of 2 and 3 is 5.' },
      { kind: 'image', src: `data:image/png;base64,${PNG}`, mimeType: 'image/png' },
    ]);
  });

  it('names what it does not render: audio, non-image or oversized images, binary resources, unknown types', () => {
    const over = 'A'.repeat(Math.ceil((MAX_IMAGE_BYTES + 3) / 3) * 4);
    expect(
      contentViews([
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'image', data: 'AAAA', mimeType: 'application/pdf' },
        { type: 'image', data: over, mimeType: 'image/png' },
        { type: 'image', data: 'not base64!', mimeType: 'image/png' },
        { type: 'image', mimeType: 'image/png', omitted: true },
        { type: 'resource', resource: { uri: 'file:///x.bin', mimeType: 'application/octet-stream', blob: 'AAAA' } },
        { type: 'hologram' },
      ]).map((v) => (v.kind === 'note' ? v.text : v.kind)),
    ).toEqual([
      'audio/wav content (not shown)',
      'application/pdf content (not shown)',
      'image/png content (not shown)',
      'image/png content (not shown)',
      'image/png content (not kept after reload)',
      'application/octet-stream content (not shown): file:///x.bin',
      'hologram content (not shown)',
    ]);
  });

  it('an image of exactly 1 MB is shown, one byte more is not', () => {
    const exact = 'A'.repeat((MAX_IMAGE_BYTES / 3) * 4 + 4).slice(0, -4) + 'AA==';
    expect(base64Bytes(exact)).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
    expect(imageSrc({ type: 'image', mimeType: 'image/png', data: exact })).not.toBeNull();
    expect(imageSrc({ type: 'image', mimeType: 'image/png', data: 'A'.repeat((MAX_IMAGE_BYTES / 3) * 4 + 4) })).toBeNull();
  });

  it('an image mime type must be a plain image/* type', () => {
    expect(imageSrc({ type: 'image', mimeType: 'image/svg+xml', data: 'AAAA' })).toBe('data:image/svg+xml;base64,AAAA');
    expect(imageSrc({ type: 'image', mimeType: 'image/png;x=<script>', data: 'AAAA' })).toBeNull();
    expect(imageSrc({ type: 'image', mimeType: 'text/html', data: 'AAAA' })).toBeNull();
  });

  it('text resources show with their uri; resource links link only to http(s)', () => {
    expect(contentViews([{ type: 'resource', resource: { uri: 'demo://r/1', mimeType: 'text/plain', text: 'hello' } }])).toEqual([{ kind: 'text', text: 'hello', label: 'demo://r/1' }]);
    expect(
      contentViews([
        { type: 'resource_link', uri: 'https://example.com/a', name: 'a' },
        { type: 'resource_link', uri: 'javascript:alert(1)', name: 'bad' },
      ]),
    ).toEqual([
      { kind: 'link', name: 'a', uri: 'https://example.com/a', href: 'https://example.com/a' },
      { kind: 'link', name: 'bad', uri: 'javascript:alert(1)', href: null },
    ]);
  });

  it('resultText joins what a reader sees', () => {
    expect(resultText([{ type: 'text', text: 'a' }, { type: 'audio', mimeType: 'audio/wav' }])).toBe('a\naudio/wav content (not shown)');
  });
});

describe('formatArguments', () => {
  it('pretty-prints JSON; text the model wrote stays as it is', () => {
    expect(formatArguments({ a: 2, b: 3 })).toBe('{\n  "a": 2,\n  "b": 3\n}');
    expect(formatArguments('a=2, b=3')).toBe('a=2, b=3');
    expect(formatArguments(null)).toBe('{}');
    expect(formatArguments([1])).toBe('[\n  1\n]');
  });
});
