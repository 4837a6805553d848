import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keptParseCount, Markdown } from './markdown';
import { clearNotificationsForTests, getNotifications } from './notifications/notification-store';

afterEach(() => {
  act(() => clearNotificationsForTests());
});

/** Renders `source` and returns the wrapper element. */
function md(source: string): HTMLElement {
  const { container } = render(<Markdown source={source} />);
  return container.firstElementChild as HTMLElement;
}

/** Every attribute of every element: nothing may carry script or a non-http(s) URL. */
function assertNoActiveContent(root: HTMLElement) {
  for (const tag of ['script', 'iframe', 'object', 'embed', 'img', 'style', 'svg', 'math', 'form', 'video', 'audio', 'source', 'link', 'meta', 'base']) {
    expect(root.querySelector(tag), `<${tag}> rendered`).toBeNull();
  }
  for (const el of root.querySelectorAll('*')) {
    for (const attr of el.getAttributeNames()) {
      expect(attr.startsWith('on'), `${el.tagName} has ${attr}`).toBe(false);
      if (attr === 'href' || attr === 'src' || attr === 'action' || attr === 'formaction' || attr === 'xlink:href') {
        expect(el.getAttribute(attr), `${el.tagName} ${attr}`).toMatch(/^https?:\/\//i);
      }
    }
  }
  for (const a of root.querySelectorAll('a')) {
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
  }
}

describe('Markdown: XSS', () => {
  it('renders <script> and other HTML as text, never as elements', () => {
    const root = md('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">');
    assertNoActiveContent(root);
    expect(root.textContent).toContain('<script>alert(1)</script>');
    expect(root.textContent).toContain('<img src=x onerror="alert(2)">');
  });

  it('inline HTML in a sentence stays text too', () => {
    const root = md('<b>x</b> & <img src=x onerror=alert(1)> and <a href="javascript:alert(1)">y</a> <iframe src="https://evil.example"></iframe>');
    assertNoActiveContent(root);
    expect(root.querySelector('b')).toBeNull();
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toContain('<b>x</b> & <img src=x onerror=alert(1)>');
    expect(root.textContent).toContain('<iframe src="https://evil.example"></iframe>');
  });

  it('HTML blocks of every kind stay text', () => {
    const root = md(
      [
        '<div onmouseover="alert(1)">hover</div>',
        '',
        '<style>body{display:none}</style>',
        '',
        '<svg onload=alert(1)><circle r="1"/></svg>',
        '',
        '<!-- a comment -->',
        '',
        '<form action="javascript:alert(1)"><button formaction="javascript:alert(2)">go</button></form>',
      ].join('\n'),
    );
    assertNoActiveContent(root);
    expect(root.querySelector('div div, button')).toBeNull();
    expect(root.textContent).toContain('<div onmouseover="alert(1)">hover</div>');
    expect(root.textContent).toContain('<!-- a comment -->');
  });

  it('HTML entities decode to text, never to markup', () => {
    const root = md('&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62; &amp;lt;b&amp;gt; &copy;');
    assertNoActiveContent(root);
    expect(root.textContent).toBe('<script>alert(1)</script> <img src=x onerror=alert(1)> &lt;b&gt; ©');
  });

  it('javascript: links are not links; http(s) links open in a new tab with noopener noreferrer', () => {
    const root = md('[bad](javascript:alert(1)) [good](https://example.com/x) http://plain.example');
    const links = root.querySelectorAll('a');
    expect(links).toHaveLength(2);
    assertNoActiveContent(root);
    expect(screen.getByRole('link', { name: 'good' })).toHaveAttribute('href', 'https://example.com/x');
    expect(screen.getByRole('link', { name: 'http://plain.example' })).toHaveAttribute('href', 'http://plain.example');
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(root.textContent).toContain('bad');
  });

  it.each([
    ['mixed case', '[x](JaVaScRiPt:alert(1))'],
    ['entity-encoded scheme', '[x](&#106;avascript:alert(1))'],
    ['named-entity colon', '[x](javascript&colon;alert(1))'],
    ['percent-encoded', '[x](javascript%3Aalert(1))'],
    ['angle-bracket destination', '[x](<javascript:alert(1)>)'],
    ['autolink', '<javascript:alert(1)>'],
    ['data: URL', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['vbscript', '[x](vbscript:msgbox(1))'],
    ['reference definition', '[x][evil]\n\n[evil]: javascript:alert(1)'],
    ['relative', '[x](/local/path)'],
    ['protocol-relative', '[x](//evil.example)'],
    ['fragment', '[x](#top)'],
    ['mailto autolink', '<mailto:a@b.example>'],
    ['email literal', 'write to a@b.example'],
  ])('no link survives: %s', (_name, source) => {
    const root = md(source);
    assertNoActiveContent(root);
    expect(root.querySelector('a')).toBeNull();
  });

  it('a title on an http(s) link is dropped or harmless; label markup renders', () => {
    const root = md('[**b**](https://e.com "Title") [x](http://a.b/c_(d))');
    assertNoActiveContent(root);
    expect(root.querySelector('a strong')).toHaveTextContent('b');
    expect(screen.getByRole('link', { name: 'x' })).toHaveAttribute('href', 'http://a.b/c_(d)');
  });

  it('images are never loaded: alt text, linked only for http(s) sources', () => {
    const root = md(
      '![chart](https://tracker.example/p.png) ![pixel](data:image/png;base64,iVBORw0KGgo=) ![js](javascript:alert(1)) [![logo](https://cdn.example/l.png)](https://example.com)',
    );
    assertNoActiveContent(root);
    expect(root.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Image: chart' })).toHaveAttribute('href', 'https://tracker.example/p.png');
    expect(root.textContent).toContain('Image: pixel');
    expect(root.textContent).toContain('Image: js');
    expect(screen.queryByRole('link', { name: 'Image: pixel' })).toBeNull();
    // An image inside a link: the link stays, the image is its text (no nested links).
    expect(screen.getByRole('link', { name: 'Image: logo' })).toHaveAttribute('href', 'https://example.com');
    expect(root.querySelector('a a')).toBeNull();
  });

  it('code keeps HTML literal, inline and fenced', () => {
    const root = md('use `<img src=x onerror=alert(1)>` now\n\n```html\n<script>alert(1)</script>\n```');
    assertNoActiveContent(root);
    expect(root.querySelector('.md-inline-code')).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(screen.getByTestId('code-block').querySelector('code')).toHaveTextContent('<script>alert(1)</script>');
  });
});

describe('Markdown: rendering', () => {
  it('renders headings, lists, quotes, rules, bold, italic and inline code', () => {
    const root = md('## Title\n\n- **b** *i* `c`\n\n1. one\n\n> q\n\n---');
    expect(screen.getByRole('heading', { level: 2, name: 'Title' })).toBeInTheDocument();
    expect(root.querySelector('ul li strong')).toHaveTextContent('b');
    expect(root.querySelector('ul li em')).toHaveTextContent('i');
    expect(root.querySelector('ul li code')).toHaveTextContent('c');
    expect(root.querySelector('ol li')).toHaveTextContent('one');
    expect(root.querySelector('blockquote')).toHaveTextContent('q');
    expect(root.querySelector('hr')).not.toBeNull();
  });

  it('headings of every level; closing hashes dropped; #tag is no heading', () => {
    md('# One\n## Two ##\n###### Six\n#tag');
    expect(screen.getAllByRole('heading').map((h) => [h.tagName, h.textContent])).toEqual([
      ['H1', 'One'],
      ['H2', 'Two'],
      ['H6', 'Six'],
    ]);
    expect(screen.getByText('#tag').tagName).toBe('P');
  });

  it('emphasis nests; unmatched or spaced delimiters and snake_case stay text', () => {
    const root = md('*a **b** c* and ***x***\n\n2 * 3 * 4, **open, snake_case_name, a ** b');
    expect(root.querySelector('em strong')).toHaveTextContent('b');
    expect(root.querySelector('strong em, em strong')).not.toBeNull();
    expect(root.querySelectorAll('p')[1].innerHTML).toBe('2 * 3 * 4, **open, snake_case_name, a ** b');
  });

  it('brackets that are not links and backslash escapes stay text', () => {
    const root = md('[TOPIC] and [a] (b) \\*not em\\*');
    expect(root.querySelector('a, em')).toBeNull();
    expect(root.textContent).toBe('[TOPIC] and [a] (b) *not em*');
  });

  it('bare URLs link without trailing punctuation', () => {
    const root = md('see https://example.com/x. and (http://a.io/b) or www.example.org');
    expect(screen.getByRole('link', { name: 'https://example.com/x' })).toHaveAttribute('href', 'https://example.com/x');
    expect(screen.getByRole('link', { name: 'http://a.io/b' })).toHaveAttribute('href', 'http://a.io/b');
    expect(screen.getByRole('link', { name: 'www.example.org' })).toHaveAttribute('href', 'http://www.example.org');
    expect(root.textContent).toBe('see https://example.com/x. and (http://a.io/b) or www.example.org');
  });

  it('paragraphs split on blank lines; a single newline is a line break (also CRLF)', () => {
    const root = md('a\nb\r\nc\n\nd');
    const paragraphs = root.querySelectorAll('p');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0].querySelectorAll('br')).toHaveLength(2);
    expect(paragraphs[0].innerHTML.replace(/\n/g, '')).toBe('a<br>b<br>c');
    expect(paragraphs[1].textContent).toBe('d');
  });

  it('nested lists, ordered with a start number, and a list after a paragraph', () => {
    const root = md('Steps:\n\n3. one\n   - sub a\n   - sub b\n     1. deep\n4. two\n\nAfter');
    const ol = root.querySelector(':scope > ol')!;
    expect(ol).toHaveAttribute('start', '3');
    expect(ol.querySelectorAll(':scope > li')).toHaveLength(2);
    const sub = ol.querySelector(':scope > li > ul')!;
    expect(within(sub as HTMLElement).getAllByRole('listitem').map((li) => li.firstChild?.textContent)).toEqual(['sub a', 'sub b', 'deep']);
    expect(sub.querySelector('li > ol > li')).toHaveTextContent('deep');
    expect(root.lastElementChild).toHaveTextContent('After');
  });

  it('strikethrough with ~~two~~ tildes; a single ~ stays text', () => {
    const root = md('~~gone~~ and ~5 min ~ 10 min and ~x~');
    expect(root.querySelectorAll('del')).toHaveLength(1);
    expect(root.querySelector('del')).toHaveTextContent('gone');
    expect(root.textContent).toBe('gone and ~5 min ~ 10 min and ~x~');
  });

  it('GFM tables: header, rows, alignment, inline markdown in cells, in a scrolling frame', () => {
    md(['| Model | Tokens | Cost |', '|:------|:------:|-----:|', '| gpt-4o-mini | **1,093** | $0.0021 |', '| [demo](https://e.com) | `12` | <b>0</b> |'].join('\n'));
    const frame = screen.getByRole('region', { name: 'Table' });
    expect(frame).toHaveClass('md-table-wrap');
    expect(frame).toHaveAttribute('tabindex', '0');
    const table = within(frame).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Model', 'Tokens', 'Cost']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((td) => td.textContent))).toEqual([
      ['gpt-4o-mini', '1,093', '$0.0021'],
      ['demo', '12', '<b>0</b>'],
    ]);
    const [first] = rows;
    expect(within(first).getAllByRole('cell').map((td) => td.style.textAlign)).toEqual(['left', 'center', 'right']);
    expect(first.querySelector('strong')).toHaveTextContent('1,093');
    expect(within(rows[1]).getByRole('link', { name: 'demo' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(table.querySelector('b')).toBeNull();
  });

  it('GFM task lists: read-only boxes, checked or not, nesting allowed', () => {
    const root = md('- [x] write tests\n- [ ] ship it\n  - [ ] sub task\n- plain item');
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((b) => [(b as HTMLInputElement).checked, b.getAttribute('aria-label')])).toEqual([
      [true, 'Done'],
      [false, 'Not done'],
      [false, 'Not done'],
    ]);
    for (const b of boxes) expect(b).toBeDisabled();
    expect(root.querySelector('ul.contains-task-list > li.task-list-item')).toHaveTextContent('write tests');
    expect(root.querySelectorAll('li')).toHaveLength(4);
  });

  it('a footnote renders its text without any in-page link', () => {
    const root = md('Claim[^1].\n\n[^1]: Source.');
    assertNoActiveContent(root);
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toContain('Source.');
  });
});

describe('Markdown: code blocks', () => {
  it('code blocks show the language and copy their text', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Markdown source={'```js\nconst x = 1;\n```'} />);
    expect(screen.getByTestId('code-block')).toHaveTextContent('js');
    await userEvent.click(screen.getByRole('button', { name: 'Copy js code' }));
    expect(writeText).toHaveBeenCalledWith('const x = 1;');
    expect(getNotifications().map((n) => [n.message, n.duration])).toEqual([['Code copied to clipboard!', 2000]]);
  });

  it('a refused copy says so', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('no')) }, configurable: true });
    render(<Markdown source={'```\nx\n```'} />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(getNotifications().map((n) => n.message)).toEqual(['Failed to copy code']);
  });

  it('fenced code keeps its text literally, with the language; ~~~ fences and no language say text', () => {
    const root = md('```ts title="x.ts"\nconst a = "<b>";\n**not bold**\n\n  indented\n```\nafter\n\n~~~\nx\n~~~');
    const [ts, plain] = screen.getAllByTestId('code-block');
    expect(ts.querySelector('.md-code__lang')).toHaveTextContent(/^ts$/);
    expect(ts.querySelector('pre code')!.textContent).toBe('const a = "<b>";\n**not bold**\n\n  indented');
    expect(ts.querySelector('strong, b')).toBeNull();
    expect(plain.querySelector('.md-code__lang')).toHaveTextContent(/^text$/);
    expect(within(plain).getByRole('button', { name: 'Copy code' })).toBeInTheDocument();
    expect(root.querySelector(':scope > p')).toHaveTextContent('after');
  });

  it('an unclosed fence (a reply still streaming) runs to the end', () => {
    md('Here:\n\n```py\nprint(1)\nprint(2)');
    const block = screen.getByTestId('code-block');
    expect(block.querySelector('.md-code__lang')).toHaveTextContent('py');
    expect(block.querySelector('pre code')!.textContent).toBe('print(1)\nprint(2)');
  });

  it('the code frame is keyboard-scrollable (overflow-x lives in markdown.css)', () => {
    md('```\n' + 'x'.repeat(500) + '\n```');
    expect(screen.getByTestId('code-block').querySelector('pre')).toHaveAttribute('tabindex', '0');
  });
});

describe('Markdown: block by block', () => {
  /** A definition stops the cutting (markdown-blocks.ts) and renders nothing: the text parsed whole. */
  const whole = (source: string) => md(`${source}\n\n[unused-definition]: https://example.com`).innerHTML;

  it('renders what the whole text renders, for replies of every shape', () => {
    const replies = [
      '# Title\n\nA paragraph with **bold**, *italic* and `code`.\n\n## Steps\n\n1. One\n2. Two\n\n- a\n\n- b (a loose list)\n\n> A quote\n\n> and more\n\n---\n\nEnd.',
      'Run this:\n\n```bash\nnpm install\n\nnpm test\n```\n\nThen:\n\n1. Open it:\n\n   ```js\n   open();\n   ```\n2. Close it.\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\nDone ~~not~~ yet.',
      'Line one\nline two\n\n    indented code\n\n    more of it\n\nText\n===\n\n- [x] done\n- [ ] todo\n\nhttps://example.com/x.',
    ];
    for (const source of replies) {
      const blocks = md(source).innerHTML;
      expect(blocks).toBe(whole(source));
    }
  });

  it('a streaming reply keeps the parse of every block but the last; a finished one, of all', () => {
    const { rerender } = render(<Markdown source={'First block.\n\nSecond'} />);
    const kept = keptParseCount();
    rerender(<Markdown source={'First block.\n\nSecond block'} />);
    rerender(<Markdown source={'First block.\n\nSecond block.\n\nThird'} />);
    expect(keptParseCount()).toBe(kept + 1); // 'Second block.' is final now; 'First block.' was kept already
    rerender(<Markdown source={'First block.\n\nSecond block.\n\nThird.'} keep />);
    expect(keptParseCount()).toBe(kept + 2);
    expect(screen.getByText('Third.')).toBeInTheDocument();
  });
});
