// Prompt text helpers (SPEC §2 card preview, placeholder highlighting; §9
// preview cut at 200). Pure functions: components render the results as
// React text nodes and <mark> elements, never as HTML (DESIGN §8).

import { findMenuBlock } from '../../lib/menu-markers';

export const PREVIEW_LENGTH = 200;
export const ELLIPSIS = '...';

/** Trailing spaces and sentence punctuation give way to the one ellipsis ("system." → "system..."). */
const BEFORE_ELLIPSIS = /[\s.,;:…]+$/u;
const SPACE = /\s/u;

/**
 * The longest start of text, at most max characters, that ends at a word
 * boundary (whitespace), without trailing spaces; a first word longer than
 * max is cut at max. Characters are Unicode code points, so an emoji is never
 * split in half. Text of max characters or fewer comes back unchanged. The
 * server cuts its previews the same way (promptsapi/view.go preview).
 */
export function cutAtWord(text: string, max: number = PREVIEW_LENGTH): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  let cut = max;
  if (!SPACE.test(chars[max])) {
    while (cut > 0 && !SPACE.test(chars[cut - 1])) cut--;
    if (cut === 0) cut = max;
  }
  return chars.slice(0, cut).join('').trimEnd();
}

/** text followed by one ellipsis: no "...." after a sentence's full stop. */
export function withEllipsis(text: string): string {
  const bare = text.replace(BEFORE_ELLIPSIS, '');
  return (bare || text) + ELLIPSIS;
}

/**
 * Cut at the last word boundary within 200 characters, then '...' (never
 * mid-word as in "IN...", never "system...."); text of 200 characters
 * or fewer comes back unchanged.
 */
export function cutPreview(text: string, max: number = PREVIEW_LENGTH): string {
  if (Array.from(text).length <= max) return text;
  return withEllipsis(cutAtWord(text, max));
}

export interface CardPreview {
  text: string;
  /** True when the full prompt is longer than what the card shows (the card hints to click View). */
  truncated: boolean;
}

/**
 * What a card shows: the full content when the caller has it, else the
 * server's preview. The server cuts previews at a word boundary within 200
 * characters and says so in preview_truncated; the ellipsis is added here.
 * Without that flag (the demo samples of an older answer), a preview of 200
 * or more characters is taken as cut.
 */
export function cardPreview(prompt: { content?: string | null; preview?: string | null; preview_truncated?: boolean }): CardPreview {
  if (typeof prompt.content === 'string' && prompt.content.length > 0) {
    const text = cutPreview(prompt.content);
    return { text, truncated: text !== prompt.content };
  }
  const preview = typeof prompt.preview === 'string' ? prompt.preview : '';
  const cut = prompt.preview_truncated ?? Array.from(preview).length >= PREVIEW_LENGTH;
  if (!cut) return { text: preview, truncated: false };
  return { text: withEllipsis(cutAtWord(preview)), truncated: true };
}

export interface TextSegment {
  text: string;
  /** True for a [CAPITALISED PLACEHOLDER], brackets included. */
  placeholder: boolean;
}

/** Words that are menu syntax, not placeholders, whatever their case. */
const RESERVED = /^(?:start\s+menu|end\s+menu|past|future)$/i;
const BRACKETED = /\[([^[\]\n]{1,120})\]/g;

/**
 * The placeholder rule. A bracketed run `[…]` on one line is a placeholder
 * when its inside
 *   - starts with an upper-case letter (any script: \p{Lu}),
 *   - contains no lower-case letter (\p{Ll}) anywhere,
 *   - is at most 120 characters, without brackets or line breaks,
 *   - is not menu syntax: `start menu`, `end menu`, `past`, `future` in
 *     any case (so `[START MENU]` and `[FUTURE]` stay plain).
 * Digits, spaces and punctuation are allowed after the first letter:
 * `[COMPANY NAME]`, `[E.G. 20-MINUTE CALL, FREE AUDIT]`, `[LEANING OR "UNDECIDED"]`.
 * Plain text: `[start menu]`, `[future]`, `[1-10]`, `[Your name]`, `[x]`.
 */
export function isPlaceholder(inner: string): boolean {
  if (!/^\p{Lu}/u.test(inner)) return false;
  if (/\p{Ll}/u.test(inner)) return false;
  return !RESERVED.test(inner.trim());
}

/** Every [start menu] … [end menu] block, as [start, end) index ranges. */
function menuBlockRanges(text: string): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  let offset = 0;
  for (;;) {
    const block = findMenuBlock(text.slice(offset));
    if (!block) return ranges;
    ranges.push({ start: offset + block.start, end: offset + block.end });
    offset += block.end;
  }
}

/**
 * Split text into plain and placeholder segments, in order; joining the
 * segments' text gives the input back exactly. Text inside any
 * [start menu] … [end menu] block is never highlighted (menu lines carry
 * constraints, not placeholders).
 */
export function splitPlaceholders(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  const push = (part: string, placeholder: boolean) => {
    if (!part) return;
    const last = segments[segments.length - 1];
    if (last && !last.placeholder && !placeholder) last.text += part;
    else segments.push({ text: part, placeholder });
  };
  const blocks = menuBlockRanges(text);
  let cursor = 0;
  for (const m of text.matchAll(BRACKETED)) {
    const at = m.index;
    if (blocks.some((b) => at >= b.start && at < b.end)) continue;
    if (!isPlaceholder(m[1])) continue;
    push(text.slice(cursor, at), false);
    push(m[0], true);
    cursor = at + m[0].length;
  }
  push(text.slice(cursor), false);
  return segments;
}

/** 'content-creation' → 'Content Creation'; names that are already readable stay as they are. */
export function categoryLabel(name: string | null | undefined): string {
  if (!name) return 'Uncategorised';
  return name
    .replace(/[-_]+/g, ' ')
    .trim()
    .replace(/(^|\s)(\p{Ll})/gu, (_m, space: string, letter: string) => space + letter.toUpperCase());
}
