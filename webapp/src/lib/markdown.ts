// A small, safe markdown subset for chat replies (SPEC §2, DESIGN §8),
// parsed to a tree that components/markdown.tsx renders as React elements.
// Raw HTML is never interpreted: '<script>' is just text. Links are kept
// only for http(s) URLs; any other link keeps its text and loses the link.
//
// Blocks: ATX headings, paragraphs (single newlines are line breaks),
// ordered / unordered lists (nested by indentation), block quotes,
// horizontal rules, fenced code blocks (``` or ~~~, with a language; an
// unclosed fence runs to the end, which suits a reply still streaming).
// Inlines: **strong** / __strong__, *em* / _em_, `code`, [text](url),
// bare http(s) URLs, backslash escapes.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'br' };

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'blockquote'; children: Block[] }
  | { type: 'hr' }
  | { type: 'code'; lang: string; text: string };

/** The URL when it is an absolute http(s) URL, else null (javascript:, data:, relative …). */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  if (!/^https?:\/\/[^\s]/i.test(url)) return null;
  // Control characters or spaces would be stripped or re-read by the browser.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- blocks

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}>[ \t]?/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|[ \t]*)$/;

const isBlank = (line: string) => line.trim() === '';
const indentOf = (line: string) => line.length - line.trimStart().length;
const expandTabs = (line: string) => line.replace(/^[ \t]+/, (lead) => lead.replace(/\t/g, '    '));

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function parseList(lines: string[], from: number): [Block, number] {
  const first = ITEM.exec(lines[from])!;
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const start = ordered ? parseInt(first[2], 10) : 1;
  const items: Block[][] = [];
  let i = from;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      // A blank line continues the list only when another item of it follows.
      let j = i + 1;
      while (j < lines.length && isBlank(lines[j])) j++;
      const next = j < lines.length ? ITEM.exec(lines[j]) : null;
      if (next && next[1].length === indent && /\d/.test(next[2]) === ordered) {
        i = j;
        continue;
      }
      break;
    }
    const m = ITEM.exec(line);
    if (!m || m[1].length !== indent || /\d/.test(m[2]) !== ordered || HR.test(line)) break;
    const contentIndent = indent + m[2].length + 1;
    const itemLines = [m[3] ?? ''];
    i++;
    while (i < lines.length) {
      const l = lines[i];
      if (isBlank(l)) {
        let j = i + 1;
        while (j < lines.length && isBlank(lines[j])) j++;
        if (j < lines.length && indentOf(lines[j]) > indent) {
          for (; i < j; i++) itemLines.push('');
          continue;
        }
        break;
      }
      const lead = indentOf(l);
      if (lead > indent) {
        itemLines.push(l.slice(Math.min(lead, contentIndent)));
        i++;
      } else if (startsBlock(l)) {
        break;
      } else {
        itemLines.push(l.trim()); // lazy continuation of the item's paragraph
        i++;
      }
    }
    items.push(parseBlocks(itemLines));
  }
  return [{ type: 'list', ordered, start, items }, i];
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1];
      const body: string[] = [];
      i++;
      while (i < lines.length) {
        const close = lines[i].trim();
        if (close.length >= marker.length && close[0] === marker[0] && /^(`+|~+)$/.test(close)) {
          i++;
          break;
        }
        body.push(lines[i]);
        i++;
      }
      blocks.push({ type: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1].length as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ type: 'heading', level, children: parseInlines((heading[2] ?? '').trim()) });
      i++;
      continue;
    }
    if (HR.test(line)) {
      blocks.push({ type: 'hr' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i])) {
        inner.push(lines[i].replace(QUOTE, ''));
        i++;
      }
      blocks.push({ type: 'blockquote', children: parseBlocks(inner) });
      continue;
    }
    if (ITEM.test(line)) {
      const [list, next] = parseList(lines, i);
      blocks.push(list);
      i = next;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !isBlank(lines[i]) && (para.length === 0 || !startsBlock(lines[i]))) {
      para.push(lines[i].trim());
      i++;
    }
    blocks.push({ type: 'paragraph', children: parseInlines(para.join('\n')) });
  }
  return blocks;
}

/** The block tree of a markdown text. */
export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n').map(expandTabs));
}

// --------------------------------------------------------------- inlines

const ESCAPABLE = /[\\`*_{}[\]()#+\-.!>~|<]/;
const BARE_URL = /^https?:\/\/[^\s<>"'`]+/i;
const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch);
const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch);

function runLength(text: string, at: number, ch: string): number {
  let n = 0;
  while (text[at + n] === ch) n++;
  return n;
}

/** Index of the `]` closing the `[` at `open`, honouring nesting; -1 if none. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\\') j++;
    else if (ch === '[') depth++;
    else if (ch === ']' && --depth === 0) return j;
  }
  return -1;
}

/** Index of the `)` closing the `(` at `open`, honouring nesting; -1 if none or a newline comes first. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\n') return -1;
    if (ch === '\\') j++;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return j;
  }
  return -1;
}

/**
 * Where the emphasis opened at `from` (by `size` copies of `ch`) closes:
 * the index of the closing run's first character, or -1.
 */
function closingDelimiter(text: string, from: number, ch: string, size: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '`') {
      const n = runLength(text, j, '`');
      const end = text.indexOf('`'.repeat(n), j + n);
      j = end === -1 ? j + n - 1 : end + n - 1;
      continue;
    }
    if (c !== ch) continue;
    const run = runLength(text, j, ch);
    const canClose = !isSpace(text[j - 1]) && j > from && (ch !== '_' || !isWordChar(text[j + run]));
    if (canClose && run >= size && (size !== 1 || run !== 2)) return j + run - size;
    j += run - 1;
  }
  return -1;
}

/** The inline tree of one block's text. */
export function parseInlines(text: string): Inline[] {
  const out: Inline[] = [];
  let buf = '';
  const flush = () => {
    if (buf) out.push({ type: 'text', text: buf });
    buf = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];

    if (ch === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1])) {
      buf += text[i + 1];
      i += 2;
      continue;
    }

    if (ch === '\n') {
      buf = buf.replace(/[ \t]+$/, '');
      flush();
      out.push({ type: 'br' });
      i++;
      continue;
    }

    if (ch === '`') {
      const n = runLength(text, i, '`');
      const end = text.indexOf('`'.repeat(n), i + n);
      if (end !== -1 && text[end + n] !== '`') {
        let code = text.slice(i + n, end).replace(/\n/g, ' ');
        if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ')) code = code.slice(1, -1);
        flush();
        out.push({ type: 'code', text: code });
        i = end + n;
        continue;
      }
      buf += '`'.repeat(n);
      i += n;
      continue;
    }

    if (ch === '[') {
      const close = closingBracket(text, i);
      if (close !== -1 && text[close + 1] === '(') {
        const end = closingParen(text, close + 1);
        if (end !== -1) {
          // Destination, then an optional "title" we do not show.
          const target = text.slice(close + 2, end).trim().replace(/\s+("[^"]*"|'[^']*')$/, '');
          const label = parseInlines(text.slice(i + 1, close));
          const href = safeHref(target.replace(/^<(.*)>$/, '$1'));
          flush();
          if (href) out.push({ type: 'link', href, children: label });
          else out.push(...label); // not http(s): the text stays, the link goes
          i = end + 1;
          continue;
        }
      }
    }

    if (ch === '*' || ch === '_') {
      const run = runLength(text, i, ch);
      const opens = !isSpace(text[i + run]) && (ch !== '_' || !isWordChar(text[i - 1]));
      if (opens) {
        const size = run >= 3 ? 3 : run;
        const close = closingDelimiter(text, i + size, ch, size);
        if (close !== -1) {
          const inner = parseInlines(text.slice(i + size, close));
          flush();
          if (size === 3) out.push({ type: 'strong', children: [{ type: 'em', children: inner }] });
          else out.push({ type: size === 2 ? 'strong' : 'em', children: inner });
          i = close + size;
          continue;
        }
      }
      buf += ch.repeat(run);
      i += run;
      continue;
    }

    if ((ch === 'h' || ch === 'H') && !isWordChar(text[i - 1])) {
      const m = BARE_URL.exec(text.slice(i));
      if (m) {
        // Trailing punctuation ends the sentence, not the URL.
        let url = m[0];
        while (/[.,;:!?)\]*_]$/.test(url)) {
          if (url.endsWith(')') && (url.match(/\(/g)?.length ?? 0) >= (url.match(/\)/g)?.length ?? 0)) break;
          url = url.slice(0, -1);
        }
        const href = safeHref(url);
        if (href) {
          flush();
          out.push({ type: 'link', href, children: [{ type: 'text', text: url }] });
          i += url.length;
          continue;
        }
      }
    }

    buf += ch;
    i++;
  }
  flush();
  return out;
}

/** The plain text of an inline tree (for tests and accessible names). */
export function inlineText(nodes: readonly Inline[]): string {
  return nodes
    .map((n) => {
      if (n.type === 'text' || n.type === 'code') return n.text;
      if (n.type === 'br') return '\n';
      return inlineText(n.children);
    })
    .join('');
}
