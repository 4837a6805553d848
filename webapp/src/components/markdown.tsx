// Renders lib/markdown.ts trees as React elements: text is always text
// (no dangerouslySetInnerHTML anywhere), links are http(s) only and open in
// a new tab with rel="noopener noreferrer" (DESIGN §8).

import { Fragment, memo, useMemo, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from '../lib/markdown';
import { copyToClipboard } from '../lib/clipboard';
import { COPY_TOAST_MS, toast } from './notifications/notification-store';
import './markdown.css';

export const CODE_COPIED = 'Code copied to clipboard!';
export const CODE_COPY_FAILED = 'Failed to copy code';

function renderInlines(nodes: readonly Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={i}>{node.text}</Fragment>;
      case 'br':
        return <br key={i} />;
      case 'code':
        return (
          <code key={i} className="md-inline-code">
            {node.text}
          </code>
        );
      case 'strong':
        return <strong key={i}>{renderInlines(node.children)}</strong>;
      case 'em':
        return <em key={i}>{renderInlines(node.children)}</em>;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer">
            {renderInlines(node.children)}
          </a>
        );
    }
  });
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
      <pre className="md-code__pre">
        <code>{text}</code>
      </pre>
    </div>
  );
}

function renderBlocks(blocks: readonly Block[]): ReactNode[] {
  return blocks.map((block, i) => {
    switch (block.type) {
      case 'heading': {
        const Tag = `h${block.level}` as const;
        return (
          <Tag key={i} className="md-heading">
            {renderInlines(block.children)}
          </Tag>
        );
      }
      case 'paragraph':
        return <p key={i}>{renderInlines(block.children)}</p>;
      case 'hr':
        return <hr key={i} />;
      case 'blockquote':
        return <blockquote key={i}>{renderBlocks(block.children)}</blockquote>;
      case 'code':
        return <CodeBlock key={i} lang={block.lang} text={block.text} />;
      case 'list': {
        const items = block.items.map((item, j) => {
          // A tight item's leading paragraph renders inline, without <p>.
          const [head, ...rest] = item;
          return (
            <li key={j}>
              {head?.type === 'paragraph' ? renderInlines(head.children) : head ? renderBlocks([head]) : null}
              {renderBlocks(rest)}
            </li>
          );
        });
        return block.ordered ? (
          <ol key={i} start={block.start !== 1 ? block.start : undefined}>
            {items}
          </ol>
        ) : (
          <ul key={i}>{items}</ul>
        );
      }
    }
  });
}

interface MarkdownProps {
  source: string;
  className?: string;
}

/** Markdown rendered from the safe subset of lib/markdown.ts. */
export const Markdown = memo(function Markdown({ source, className }: MarkdownProps) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return <div className={`markdown${className ? ' ' + className : ''}`}>{renderBlocks(blocks)}</div>;
});
