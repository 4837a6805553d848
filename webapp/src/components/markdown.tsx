// Chat replies rendered from GitHub-flavoured markdown by react-markdown +
// remark-gfm (headings, lists nested or not, task lists, tables,
// strikethrough, quotes, rules, code). Safe by construction (DESIGN §8):
// - raw HTML is never interpreted: without rehype-raw, react-markdown turns
//   it into plain text, so '<script>' is shown, not run;
// - links are http(s) only (urlTransform → safeHref) and open in a new tab
//   with rel="noopener noreferrer"; any other link keeps its text only;
// - images are never loaded (no request to a host the reply names): they
//   show as their alt text, linked to the image when its URL is http(s).
// No dangerouslySetInnerHTML anywhere. This module (and the library) is
// imported by the chat route only, so it lives in that lazy chunk.

import { createContext, Fragment, memo, useContext, type ReactElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type ExtraProps, type Options, type UrlTransform } from 'react-markdown';
import remarkGfm, { type Options as GfmOptions } from 'remark-gfm';
import { copyToClipboard } from '../lib/clipboard';
import { safeHref } from '../lib/safe-href';
import { markdownBlocks } from './markdown-blocks';
import { COPY_TOAST_MS, toast } from './notifications/notification-store';
import './markdown.css';

export const CODE_COPIED = 'Code copied to clipboard!';
export const CODE_COPY_FAILED = 'Failed to copy code';

type HastNode = NonNullable<ExtraProps['node']>;
type HastChild = HastNode['children'][number];

/** Every URL attribute (href, src, …) goes through here: http(s) or nothing. */
const urlTransform: UrlTransform = (url) => safeHref(url) ?? undefined;

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * A remark plugin: a single newline inside a paragraph is a line break, as
 * chat models (and the parser this replaced) mean it, not a space.
 */
function remarkSoftBreaks() {
  const walk = (node: MdNode): void => {
    if (!node.children) return;
    const out: MdNode[] = [];
    for (const child of node.children) {
      if (child.type === 'text' && child.value && /[\r\n]/.test(child.value)) {
        child.value.split(/\r\n|\r|\n/).forEach((part, i) => {
          if (i > 0) out.push({ type: 'break' });
          if (part) out.push({ type: 'text', value: part });
        });
      } else {
        walk(child);
        out.push(child);
      }
    }
    node.children = out;
  };
  return (tree: unknown) => walk(tree as MdNode);
}

// '~one~' stays text (only '~~two~~' strikes), so "~5 min ~ 10 min" is safe.
const GFM: GfmOptions = { singleTilde: false };
const REMARK_PLUGINS: Options['remarkPlugins'] = [[remarkGfm, GFM], remarkSoftBreaks];

function textOf(node: HastChild): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** The language of a fenced block from its `language-xxx` class. */
function languageOf(code: HastNode | undefined): string {
  const cls = code?.properties?.className;
  const list: string[] = Array.isArray(cls) ? cls.map(String) : String(cls ?? '').split(/\s+/);
  const lang = list.find((c) => c.startsWith('language-'));
  return lang ? lang.slice('language-'.length) : '';
}

function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const copy = async () => {
    if (await copyToClipboard(text)) toast.success(CODE_COPIED, { duration: COPY_TOAST_MS });
    else toast.error(CODE_COPY_FAILED, { duration: COPY_TOAST_MS });
  };
  return (
    <div className="md-code" data-testid="code-block">
      <div className="md-code__bar">
        <span className="md-code__lang">{lang || 'text'}</span>
        <button type="button" className="md-code__copy" aria-label={`Copy ${lang ? lang + ' ' : ''}code`} onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <pre className="md-code__pre" tabIndex={0}>
        <code>{text}</code>
      </pre>
    </div>
  );
}

/** True inside a link, so an image there renders as text, not a nested link. */
const InLink = createContext(false);

function heading(level: 1 | 2 | 3 | 4 | 5 | 6) {
  const Tag = `h${level}` as const;
  return function Heading({ children }: { children?: ReactNode }) {
    return <Tag className="md-heading">{children}</Tag>;
  };
}

const COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  a({ href, children }) {
    // urlTransform has already dropped anything but http(s).
    if (!href) return <span className="md-link-removed">{children}</span>;
    return (
      <a href={href} target="_blank" rel="noopener noreferrer">
        <InLink.Provider value={true}>{children}</InLink.Provider>
      </a>
    );
  },
  img: function Image({ src, alt }) {
    const inLink = useContext(InLink);
    const label = `Image: ${alt?.trim() || 'untitled'}`;
    const href = typeof src === 'string' ? safeHref(src) : null;
    if (!href || inLink) return <span className="md-image">{label}</span>;
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" className="md-image" title="Not loaded here: opens in a new tab">
        {label}
      </a>
    );
  },
  pre({ node }) {
    const code = node?.children.find((c): c is HastNode => c.type === 'element' && c.tagName === 'code');
    // A fenced block's text ends with its last newline; Copy should not.
    const text = code ? textOf(code).replace(/\n$/, '') : '';
    return <CodeBlock lang={languageOf(code)} text={text} />;
  },
  code({ children }) {
    // Inline only: fenced blocks are rendered whole by `pre` above.
    return <code className="md-inline-code">{children}</code>;
  },
  table({ children }) {
    return (
      <div className="md-table-wrap" role="region" aria-label="Table" tabIndex={0}>
        <table>{children}</table>
      </div>
    );
  },
  input({ type, checked }) {
    // GFM task list items: a read-only box.
    if (type !== 'checkbox') return null;
    return <input type="checkbox" className="md-task" checked={checked === true} disabled readOnly aria-label={checked ? 'Done' : 'Not done'} />;
  },
};

interface MarkdownProps {
  source: string;
  className?: string;
  /** The text is final (not a reply still streaming): its parses are kept for the next time it is shown. */
  keep?: boolean;
}

/**
 * Parses kept by their text, least recently shown first out. Parsing is
 * most of the cost of showing a message, and a chat shows the same final
 * text many times: a long conversation renders only the messages in view,
 * so each is mounted again whenever it scrolls back into view, and a tab
 * shown again mounts them all anew. The elements are immutable, so one
 * parse serves every mount. Bounded in entries and in characters.
 */
export const KEPT_PARSES = 500;
export const KEPT_CHARS = 2_000_000;
const kept = new Map<string, ReactElement>();
let keptChars = 0;

const parse = (source: string): ReactElement =>
  ReactMarkdown({ children: source, remarkPlugins: REMARK_PLUGINS, components: COMPONENTS, urlTransform });

function keptParse(source: string): ReactElement {
  const hit = kept.get(source);
  if (hit) {
    kept.delete(source); // now the most recently shown
    kept.set(source, hit);
    return hit;
  }
  const element = parse(source);
  if (source.length > KEPT_CHARS / 4) return element;
  kept.set(source, element);
  keptChars += source.length;
  for (const old of kept.keys()) {
    if (kept.size <= KEPT_PARSES && keptChars <= KEPT_CHARS) break;
    kept.delete(old);
    keptChars -= old.length;
  }
  return element;
}

/** How many parses are kept (for tests). */
export const keptParseCount = (): number => kept.size;

/**
 * A reply's markdown as React elements (see the header for what is
 * allowed), parsed block by block (markdown-blocks.ts): every block but
 * the last is final even while the reply streams, so only the last is
 * parsed again as text arrives.
 */
export const Markdown = memo(function Markdown({ source, className, keep = false }: MarkdownProps) {
  const blocks = markdownBlocks(source);
  return (
    <div className={`markdown${className ? ' ' + className : ''}`}>
      {blocks.map((block, i) => (
        <Fragment key={i}>
          {i > 0 ? '\n' : null /* as the whole text puts between blocks */}
          {keep || i < blocks.length - 1 ? keptParse(block) : parse(block)}
        </Fragment>
      ))}
    </div>
  );
});
