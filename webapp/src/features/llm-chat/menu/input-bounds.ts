// min/max attributes of a fill-dialog input (SPEC §5): number bounds from
// the range; past / future for day (today), time (now) and datetime (now).

import type { MenuVariable } from './types';

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD in local time, the value format of <input type=date>. */
export function localDate(now: Date): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** HH:MM in local time, the value format of <input type=time>. */
export function localTime(now: Date): string {
  return `${pad(now.getHours())}:${pad(now.getMinutes())}`;
}

/** YYYY-MM-DDTHH:MM in local time, the value format of <input type=datetime-local>. */
export function localDateTime(now: Date): string {
  return `${localDate(now)}T${localTime(now)}`;
}

export interface InputBounds {
  min?: string;
  max?: string;
}

export function inputBounds(variable: MenuVariable, now: Date): InputBounds {
  if (variable.type === 'number') {
    return variable.range ? { min: String(variable.range.min), max: String(variable.range.max) } : {};
  }
  let limit: string;
  if (variable.type === 'day') limit = localDate(now);
  else if (variable.type === 'time') limit = localTime(now);
  else if (variable.type === 'datetime') limit = localDateTime(now);
  else return {};
  if (variable.constraint === 'past') return { max: limit };
  if (variable.constraint === 'future') return { min: limit };
  return {};
}
