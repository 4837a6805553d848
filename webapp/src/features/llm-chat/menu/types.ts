// SPEC §3 "Menu variable" and the values the fill dialog collects.

import type { MenuBlockRange } from '../../../lib/menu-markers';

export type MenuVariableType =
  | 'dropdown'
  | 'multiselect'
  | 'time'
  | 'day'
  | 'datetime'
  | 'big'
  | 'small'
  | 'number'
  | 'rank';

export type MenuConstraint = 'past' | 'future';

export interface MenuRange {
  min: number;
  max: number;
}

export interface MenuVariable {
  /** The code as written, lower-cased ('d', 'ty', 'q' …). */
  code: string;
  varName: string;
  label: string;
  type: MenuVariableType;
  /** Only for time, day and datetime. */
  constraint?: MenuConstraint;
  /** Only for number. */
  range?: MenuRange;
  /** Only for dropdown, multiselect and rank (never empty for them). */
  options: string[];
}

export interface ParsedMenu {
  variables: MenuVariable[];
  /** Where the block (markers included) sits in the text. */
  range: MenuBlockRange;
  /** Text before the start marker. */
  before: string;
  /** Text after the end marker. */
  after: string;
  /** The block as written, markers included. */
  block: string;
}

/** A list for multiselect and rank, a string for everything else. */
export type MenuValue = string | string[];
export type MenuValues = Record<string, MenuValue>;
