import { describe, expect, it } from 'vitest';
import { inlineText, parseInlines, parseMarkdown, safeHref, type Inline } from './markdown';

const t = (text: string): Inline => ({ type: 'text', text });

describe('safeHref', () => {
  it.each(['http://example.com', 'https://example.com/a?b=c#d', 'HTTPS://EXAMPLE.COM'])('keeps %s', (url) => {
    expect(safeHref(url)).toBe(url);
  });
  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '/relative/path',
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

describe('parseInlines', () => {
  it('plain text stays text, including HTML', () => {
    expect(parseInlines('<script>alert(1)</script>')).toEqual([t('<script>alert(1)</script>')]);
    expect(parseInlines('<b>x</b> & <img src=x onerror=alert(1)>')).toEqual([t('<b>x</b> & <img src=x onerror=alert(1)>')]);
  });

  it('bold, italic and both', () => {
    expect(parseInlines('**b** and __c__')).toEqual([
      { type: 'strong', children: [t('b')] },
      t(' and '),
      { type: 'strong', children: [t('c')] },
    ]);
    expect(parseInlines('*i* and _j_')).toEqual([{ type: 'em', children: [t('i')] }, t(' and '), { type: 'em', children: [t('j')] }]);
    expect(parseInlines('***x***')).toEqual([{ type: 'strong', children: [{ type: 'em', children: [t('x')] }] }]);
  });

  it('nests emphasis', () => {
    expect(parseInlines('*a **b** c*')).toEqual([
      { type: 'em', children: [t('a '), { type: 'strong', children: [t('b')] }, t(' c')] },
    ]);
    expect(parseInlines('**a *b***')).toEqual([{ type: 'strong', children: [t('a '), { type: 'em', children: [t('b')] }] }]);
  });

  it('leaves unmatched or spaced delimiters and snake_case alone', () => {
    expect(parseInlines('2 * 3 * 4')).toEqual([t('2 * 3 * 4')]);
    expect(parseInlines('**open')).toEqual([t('**open')]);
    expect(parseInlines('snake_case_name')).toEqual([t('snake_case_name')]);
    expect(parseInlines('a ** b')).toEqual([t('a ** b')]);
  });

  it('inline code keeps its content literal', () => {
    expect(parseInlines('use `a **b** <i>` now')).toEqual([t('use '), { type: 'code', text: 'a **b** <i>' }, t(' now')]);
    expect(parseInlines('``a ` b``')).toEqual([{ type: 'code', text: 'a ` b' }]);
    expect(parseInlines('a `open')).toEqual([t('a `open')]);
  });

  it('http(s) links become links; other schemes keep only their text', () => {
    expect(parseInlines('[site](https://example.com "Title")')).toEqual([
      { type: 'link', href: 'https://example.com', children: [t('site')] },
    ]);
    expect(parseInlines('[x](http://a.b/c_(d))')).toEqual([{ type: 'link', href: 'http://a.b/c_(d)', children: [t('x')] }]);
    expect(parseInlines('[click](javascript:alert(1))')).toEqual([t('click')]);
    expect(parseInlines('[rel](/local)')).toEqual([t('rel')]);
    expect(parseInlines('[**b**](https://e.com)')).toEqual([
      { type: 'link', href: 'https://e.com', children: [{ type: 'strong', children: [t('b')] }] },
    ]);
  });

  it('brackets that are not links stay text', () => {
    expect(parseInlines('[TOPIC] and [a] (b)')).toEqual([t('[TOPIC] and [a] (b)')]);
  });

  it('links bare http(s) URLs without trailing punctuation', () => {
    expect(parseInlines('see https://example.com/x.')).toEqual([
      t('see '),
      { type: 'link', href: 'https://example.com/x', children: [t('https://example.com/x')] },
      t('.'),
    ]);
    expect(parseInlines('(http://a.io/b)')).toEqual([t('('), { type: 'link', href: 'http://a.io/b', children: [t('http://a.io/b')] }, t(')')]);
    expect(parseInlines('javascript:alert(1)')).toEqual([t('javascript:alert(1)')]);
  });

  it('backslash escapes and line breaks', () => {
    expect(parseInlines('\\*not em\\*')).toEqual([t('*not em*')]);
    expect(parseInlines('a  \nb')).toEqual([t('a'), { type: 'br' }, t('b')]);
  });

  it('inlineText flattens', () => {
    expect(inlineText(parseInlines('**a** `b` [c](https://x.y)\nd'))).toBe('a b c\nd');
  });
});

describe('parseMarkdown', () => {
  it('headings of every level, closing hashes dropped, #tag is no heading', () => {
    const blocks = parseMarkdown('# One\n## Two ##\n###### Six\n#tag');
    expect(blocks).toEqual([
      { type: 'heading', level: 1, children: [t('One')] },
      { type: 'heading', level: 2, children: [t('Two')] },
      { type: 'heading', level: 6, children: [t('Six')] },
      { type: 'paragraph', children: [t('#tag')] },
    ]);
  });

  it('paragraphs split on blank lines; single newlines are breaks', () => {
    expect(parseMarkdown('a\nb\n\nc')).toEqual([
      { type: 'paragraph', children: [t('a'), { type: 'br' }, t('b')] },
      { type: 'paragraph', children: [t('c')] },
    ]);
  });

  it('unordered and ordered lists, with start number', () => {
    expect(parseMarkdown('- a\n* b\n+ c')).toEqual([
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [[{ type: 'paragraph', children: [t('a')] }], [{ type: 'paragraph', children: [t('b')] }], [{ type: 'paragraph', children: [t('c')] }]],
      },
    ]);
    const ol = parseMarkdown('3. x\n4. y')[0];
    expect(ol).toMatchObject({ type: 'list', ordered: true, start: 3 });
    expect(ol.type === 'list' && ol.items.length).toBe(2);
  });

  it('a list interrupts a paragraph and nests by indentation', () => {
    const blocks = parseMarkdown('Steps:\n1. one\n   - sub a\n   - sub b\n2. two\n\nAfter');
    expect(blocks.map((b) => b.type)).toEqual(['paragraph', 'list', 'paragraph']);
    const list = blocks[1];
    if (list.type !== 'list') throw new Error('no list');
    expect(list.items).toHaveLength(2);
    expect(list.items[0][1]).toMatchObject({ type: 'list', ordered: false });
    expect(list.items[0][1].type === 'list' && list.items[0][1].items).toHaveLength(2);
  });

  it('keeps a list going over blank lines between items', () => {
    const blocks = parseMarkdown('- a\n\n- b');
    expect(blocks).toHaveLength(1);
    expect(blocks[0].type === 'list' && blocks[0].items).toHaveLength(2);
  });

  it('block quotes hold blocks', () => {
    expect(parseMarkdown('> quoted **text**\n> - item')).toEqual([
      {
        type: 'blockquote',
        children: [
          { type: 'paragraph', children: [t('quoted '), { type: 'strong', children: [t('text')] }] },
          { type: 'list', ordered: false, start: 1, items: [[{ type: 'paragraph', children: [t('item')] }]] },
        ],
      },
    ]);
  });

  it('horizontal rules', () => {
    expect(parseMarkdown('---\n***\n_ _ _\n- - -')).toEqual([{ type: 'hr' }, { type: 'hr' }, { type: 'hr' }, { type: 'hr' }]);
  });

  it('fenced code blocks keep text literally, with the language', () => {
    expect(parseMarkdown('```ts\nconst a = "<b>";\n**not bold**\n```\nafter')).toEqual([
      { type: 'code', lang: 'ts', text: 'const a = "<b>";\n**not bold**' },
      { type: 'paragraph', children: [t('after')] },
    ]);
    expect(parseMarkdown('~~~\nx\n~~~')).toEqual([{ type: 'code', lang: '', text: 'x' }]);
  });

  it('an unclosed fence (a reply still streaming) runs to the end', () => {
    expect(parseMarkdown('```py\nprint(1)')).toEqual([{ type: 'code', lang: 'py', text: 'print(1)' }]);
  });

  it('handles CRLF', () => {
    expect(parseMarkdown('# A\r\nb')).toEqual([
      { type: 'heading', level: 1, children: [t('A')] },
      { type: 'paragraph', children: [t('b')] },
    ]);
  });
});
