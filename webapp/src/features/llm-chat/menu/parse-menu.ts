// SPEC §5 "Menu syntax": a block between [start menu] and [end menu]
// (any case, the end after the start). Each line of the block:
//
//   <code> {varName} [constraint] label
//
// code: one or two letters; varName: letters, digits, underscore; the
// bracket constraint and the label are optional. Lines starting with '- '
// right after a d, m or r line are its options.

import { findMenuBlock } from '../../../lib/menu-markers';
import type { MenuConstraint, MenuRange, MenuVariable, MenuVariableType, ParsedMenu } from './types';

const TYPE_BY_CODE: Readonly<Record<string, MenuVariableType>> = {
  d: 'dropdown',
  m: 'multiselect',
  t: 'time',
  y: 'day',
  ty: 'datetime',
  b: 'big',
  s: 'small',
  n: 'number',
  r: 'rank',
};

const OPTION_TYPES: ReadonlySet<MenuVariableType> = new Set(['dropdown', 'multiselect', 'rank']);
const DATE_TYPES: ReadonlySet<MenuVariableType> = new Set(['time', 'day', 'datetime']);

const VARIABLE_LINE = /^([A-Za-z]{1,2})\s*\{([A-Za-z0-9_]+)\}\s*(?:\[([^\]]*)\])?\s*(.*)$/;
const RANGE = /^(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)$/;

/** The type a code stands for; any other code is small text. */
export function typeForCode(code: string): MenuVariableType {
  return TYPE_BY_CODE[code.toLowerCase()] ?? 'small';
}

/** SPEC §5 default label: underscores as spaces, each word capitalised ('target_audience' → 'Target Audience'). */
export function defaultLabel(varName: string): string {
  return varName
    .split('_')
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** 'past' / 'future' in any case, else null. */
export function parseConstraint(raw: string | undefined): MenuConstraint | null {
  const value = raw?.trim().toLowerCase();
  return value === 'past' || value === 'future' ? value : null;
}

/** 'min-max' (integers or decimals, negatives allowed) → bounds in ascending order; else null. */
export function parseRange(raw: string | undefined): MenuRange | null {
  const match = RANGE.exec(raw?.trim() ?? '');
  if (!match) return null;
  const a = Number(match[1]);
  const b = Number(match[2]);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  return a <= b ? { min: a, max: b } : { min: b, max: a };
}

/** One variable line of a block, or null when the line is not one. */
export function parseVariableLine(line: string): MenuVariable | null {
  const match = VARIABLE_LINE.exec(line.trim());
  if (!match) return null;
  const [, rawCode, varName, rawConstraint, rawLabel] = match;
  const code = rawCode.toLowerCase();
  const type = typeForCode(code);
  const variable: MenuVariable = {
    code,
    varName,
    label: rawLabel.trim() || defaultLabel(varName),
    type,
    options: [],
  };
  if (DATE_TYPES.has(type)) {
    const constraint = parseConstraint(rawConstraint);
    if (constraint) variable.constraint = constraint;
  } else if (type === 'number') {
    const range = parseRange(rawConstraint);
    if (range) variable.range = range;
  }
  return variable;
}

/** The variables of a block body (the text between the markers). */
export function parseMenuBody(body: string): MenuVariable[] {
  const variables: MenuVariable[] = [];
  const seen = new Set<string>();
  let current: MenuVariable | null = null;
  for (const rawLine of body.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '') continue; // blank lines neither end nor start anything
    if (rawLine.trimStart().startsWith('- ') || line === '-') {
      const option = line.slice(1).trim();
      // Options are distinct: a repeat adds nothing.
      if (current && OPTION_TYPES.has(current.type) && option && !current.options.includes(option)) current.options.push(option);
      continue;
    }
    const variable = parseVariableLine(line);
    if (variable && !seen.has(variable.varName)) {
      // The first definition of a name wins; a repeat (and its options) is ignored.
      seen.add(variable.varName);
      variables.push(variable);
      current = variable;
    } else {
      current = null;
    }
  }
  for (const variable of variables) {
    // A dropdown, multiselect or rank without options is small text.
    if (OPTION_TYPES.has(variable.type) && variable.options.length === 0) variable.type = 'small';
  }
  return variables;
}

/** The first menu block of a text and its variables; null when there is none. */
export function parseMenu(text: string): ParsedMenu | null {
  const range = findMenuBlock(text);
  if (!range) return null;
  return {
    variables: parseMenuBody(range.body),
    range,
    before: text.slice(0, range.start),
    after: text.slice(range.end),
    block: text.slice(range.start, range.end),
  };
}
