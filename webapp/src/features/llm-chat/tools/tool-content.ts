// How a tool call's arguments and result show in the conversation. Results
// are MCP content blocks: text is shown as text; an image only as a
// thumbnail, and only when it is image/* data of at most 1 MB; everything
// else is named, never rendered (audio, binary resources, unknown types).

import { isRecord } from '../../../lib/api/wire';
import { safeHref } from '../../../lib/safe-href';
import type { ToolContent } from '../state/types';

/** Images larger than this (decoded) are named, not shown. */
export const MAX_IMAGE_BYTES = 1024 * 1024;

export type ContentView =
  | { kind: 'text'; text: string; label?: string }
  | { kind: 'image'; src: string; mimeType: string }
  | { kind: 'link'; name: string; uri: string; href: string | null }
  | { kind: 'note'; text: string };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const IMAGE_MIME = /^image\/[a-z0-9.+-]+$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The size of base64 data once decoded. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** A data: URL for an image block, or null when it may not be shown (not image/*, not base64, over 1 MB). */
export function imageSrc(block: ToolContent): string | null {
  const mime = str(block.mimeType);
  const data = str(block.data).replace(/\s+/g, '');
  if (!IMAGE_MIME.test(mime) || !data || !BASE64.test(data) || base64Bytes(data) > MAX_IMAGE_BYTES) return null;
  return `data:${mime};base64,${data}`;
}

/** '{mime} content (not shown)'; '(not kept after reload)' when storage left its data out. */
function named(block: ToolContent, fallback: string): string {
  const mime = str(block.mimeType) || fallback;
  return block.omitted === true ? `${mime} content (not kept after reload)` : `${mime} content (not shown)`;
}

/** What each content block of a result shows as. */
export function contentViews(blocks: readonly ToolContent[]): ContentView[] {
  return blocks.map((block): ContentView => {
    switch (block.type) {
      case 'text':
        return { kind: 'text', text: str(block.text) };
      case 'image': {
        const src = imageSrc(block);
        return src ? { kind: 'image', src, mimeType: str(block.mimeType) } : { kind: 'note', text: named(block, 'image') };
      }
      case 'audio':
        return { kind: 'note', text: named(block, 'audio') };
      case 'resource_link': {
        const uri = str(block.uri);
        return { kind: 'link', name: str(block.title) || str(block.name) || uri, uri, href: safeHref(uri) };
      }
      case 'resource': {
        const r = isRecord(block.resource) ? block.resource : {};
        if (typeof r.text === 'string') return { kind: 'text', text: r.text, label: str(r.uri) };
        return { kind: 'note', text: `${str(r.mimeType) || 'binary'} content (not shown)${str(r.uri) ? `: ${str(r.uri)}` : ''}` };
      }
      default:
        return { kind: 'note', text: `${block.type || 'unknown'} content (not shown)` };
    }
  });
}

/** Arguments as shown: JSON pretty-printed; text the model wrote instead of JSON as it is. */
export function formatArguments(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args === undefined || args === null) return '{}';
  try {
    return JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    return String(args);
  }
}

/** The result's text blocks, joined: what Copy copies and how long it is. */
export function resultText(blocks: readonly ToolContent[]): string {
  return contentViews(blocks)
    .map((v) => (v.kind === 'text' ? v.text : v.kind === 'link' ? `${v.name} (${v.uri})` : v.kind === 'note' ? v.text : ''))
    .filter(Boolean)
    .join('\n');
}
