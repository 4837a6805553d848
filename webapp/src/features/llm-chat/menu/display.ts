// SPEC §4: in display the menu block is hidden: '[menu hidden]' in
// assistant messages, removed from user messages. The template note that
// buildMenuMessage puts right before the block goes with it.

import { findMenuBlock, hasMenuBlock } from '../../../lib/menu-markers';
import { TEMPLATE_NOTE } from './fill-menu';

export const MENU_HIDDEN = '[menu hidden]';

export type MessageRole = 'user' | 'assistant';

function withoutTrailingNote(text: string): string {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(TEMPLATE_NOTE)) return text;
  const rest = trimmed.slice(0, trimmed.length - TEMPLATE_NOTE.length).trimEnd();
  return rest ? rest + '\n\n' : '';
}

/** The text a message shows, every menu block hidden or removed. */
export function displayText(content: string, role: MessageRole): string {
  const segments: string[] = [];
  let rest = content;
  for (let block = findMenuBlock(rest); block; block = findMenuBlock(rest)) {
    segments.push(withoutTrailingNote(rest.slice(0, block.start)));
    rest = rest.slice(block.end);
  }
  segments.push(rest);
  if (role === 'assistant') return segments.join(MENU_HIDDEN);
  return segments
    .map((segment) => segment.trim())
    .filter((segment) => segment.length > 0)
    .join('\n');
}

/** True when the text holds a menu template ([start menu] … [end menu]). */
export function holdsMenu(content: string | null | undefined): boolean {
  return hasMenuBlock(content);
}
