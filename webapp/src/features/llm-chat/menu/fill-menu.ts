// SPEC §5 "Filling" and §4 "Menu template flow": defaults, value formatting
// and the message that Insert & Send builds.
//
// Reading of "empty values skipped": a variable whose value is empty (blank
// text, no selection) replaces nothing, so its {var} placeholder stays as
// written, and it is not appended as an unused value either.

import type { MenuValue, MenuValues, MenuVariable, ParsedMenu } from './types';
import { parseMenu } from './parse-menu';

/**
 * Written once, between the filled text and the template block the message
 * keeps: the block is for reference and the model should ignore it.
 */
export const TEMPLATE_NOTE =
  'Note: the menu block below is only the template these values were filled in from. Please ignore it.';

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

/** SPEC §5 defaults: dropdown its first option, multiselect empty, rank its options in order, number its minimum. */
export function defaultValue(variable: MenuVariable): MenuValue {
  switch (variable.type) {
    case 'dropdown':
      return variable.options[0] ?? '';
    case 'multiselect':
      return [];
    case 'rank':
      return [...variable.options];
    case 'number':
      return variable.range ? String(variable.range.min) : '';
    default:
      return '';
  }
}

export function defaultValues(variables: readonly MenuVariable[]): MenuValues {
  const values: MenuValues = {};
  for (const v of variables) values[v.varName] = defaultValue(v);
  return values;
}

/** A value as text: lists joined with ', ', rank with ' > ', text trimmed. */
export function formatValue(variable: MenuVariable, value: MenuValue | undefined): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) {
    const items = value.map((item) => item.trim()).filter((item) => item.length > 0);
    return items.join(variable.type === 'rank' ? ' > ' : ', ');
  }
  return value.trim();
}

/** Moves a rank item one place up (-1) or down (+1); out-of-range moves change nothing. */
export function moveRankItem(items: readonly string[], index: number, direction: -1 | 1): string[] {
  const target = index + direction;
  const next = [...items];
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) return next;
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

/** The template note (and the space around it) when it ends the text. */
function stripTrailingNote(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed.endsWith(TEMPLATE_NOTE) ? trimmed.slice(0, trimmed.length - TEMPLATE_NOTE.length).trimEnd() : text;
}

/**
 * The message Insert & Send sends: the text around the block with {var}
 * placeholders replaced, then one 'label (var): value' line per value whose
 * placeholder the text does not hold, then the note, then the block as
 * written. A text without a menu comes back unchanged.
 */
export function buildMenuMessage(text: string, values: MenuValues, parsed: ParsedMenu | null = parseMenu(text)): string {
  if (!parsed) return text;
  const formatted = new Map<string, string>();
  for (const v of parsed.variables) {
    const value = formatValue(v, values[v.varName]);
    if (value) formatted.set(v.varName, value);
  }

  const used = new Set<string>();
  const substitute = (part: string) =>
    part.replace(PLACEHOLDER, (whole, name: string) => {
      const value = formatted.get(name);
      if (value === undefined) return whole; // unknown name or empty value: left as written
      used.add(name);
      return value;
    });
  // A message built before (re-opened with Open in Menu) already carries the note.
  const before = substitute(stripTrailingNote(parsed.before)).trim();
  const after = substitute(parsed.after).trim();

  const unused = parsed.variables
    .filter((v) => formatted.has(v.varName) && !used.has(v.varName))
    .map((v) => `${v.label} (${v.varName}): ${formatted.get(v.varName)}`);

  const head = [before, after, unused.join('\n')].filter((part) => part.length > 0).join('\n\n');
  return `${head ? head + '\n\n' : ''}${TEMPLATE_NOTE}\n${parsed.block}`;
}
