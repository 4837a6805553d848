// Menu-template markers (SPEC §5 "Menu syntax"): a block between
// [start menu] and [end menu], case-insensitive, the end after the start.
// Shared by the marketplace hand-off (open-menu flag) and the chat page.

/** `[start menu]`, any letter case, spaces inside the brackets tolerated. */
export const MENU_START_RE = /\[\s*start\s+menu\s*\]/i;
/** `[end menu]`, any letter case, spaces inside the brackets tolerated. */
export const MENU_END_RE = /\[\s*end\s+menu\s*\]/i;

export interface MenuBlockRange {
  /** Index of the `[` of the start marker. */
  start: number;
  /** Index just past the `]` of the end marker. */
  end: number;
  /** The text between the two markers. */
  body: string;
}

/** The first start marker and the first end marker after it; null when either is missing. */
export function findMenuBlock(text: string): MenuBlockRange | null {
  const startMatch = MENU_START_RE.exec(text);
  if (!startMatch) return null;
  const bodyStart = startMatch.index + startMatch[0].length;
  const endMatch = MENU_END_RE.exec(text.slice(bodyStart));
  if (!endMatch) return null;
  const bodyEnd = bodyStart + endMatch.index;
  return { start: startMatch.index, end: bodyEnd + endMatch[0].length, body: text.slice(bodyStart, bodyEnd) };
}

/** True when the text holds a start marker followed (later) by an end marker. */
export function hasMenuBlock(text: string | null | undefined): boolean {
  return typeof text === 'string' && findMenuBlock(text) !== null;
}
