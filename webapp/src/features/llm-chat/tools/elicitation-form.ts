// The form of a server's question (MCP elicitation, form mode), read from
// its requested schema: a flat object whose properties are strings (with
// the formats email, uri, date, date-time), numbers, integers, booleans,
// single-select enums (`enum`, legacy `enumNames`, or `oneOf` of
// const+title) and multi-select enums (`type: array` whose items have
// `enum` or `anyOf` of const+title). Titles are the labels, descriptions
// the help, defaults (SEP-1034) the starting values. Anything else is not
// something the spec lets a server ask: the form is not shown half.
// Values are held as the inputs hold them (text for numbers) and turned
// into the answer's content on Submit.

import { isRecord } from '../../../lib/api/wire';

export interface FieldOption {
  value: string;
  label: string;
}

export type InputType = 'text' | 'email' | 'url' | 'date' | 'datetime-local';

export type FormField = {
  name: string;
  label: string;
  description?: string;
  required: boolean;
} & (
  | { kind: 'text'; input: InputType; minLength?: number; maxLength?: number; default?: string }
  | { kind: 'number' | 'integer'; min?: number; max?: number; default?: number }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'single'; options: FieldOption[]; default?: string }
  | { kind: 'multi'; options: FieldOption[]; minItems?: number; maxItems?: number; default?: string[] }
);

/** A field's value as its input holds it. */
export type FieldValue = string | boolean | string[];
export type FormValues = Record<string, FieldValue>;

/** Above this many options a single select is a drop-down, not radio buttons. */
export const RADIO_OPTIONS = 5;

export const FORM_NOT_SHOWN = 'This form cannot be shown here: it asks for something a server may not ask in chat.';

const FORMATS: Record<string, InputType> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const count = (v: unknown): number | undefined => {
  const n = finite(v);
  return n !== undefined && n >= 0 ? Math.floor(n) : undefined;
};
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** `oneOf`/`anyOf` of {const, title}; null when it is not that. */
function titledOptions(v: unknown): FieldOption[] | null {
  if (!Array.isArray(v) || v.length === 0) return null;
  const out: FieldOption[] = [];
  for (const o of v) {
    if (!isRecord(o) || typeof o.const !== 'string') return null;
    out.push({ value: o.const, label: text(o.title) ?? o.const });
  }
  return out;
}

/** `enum` (with legacy `enumNames` as labels); null when it is not a list of strings. */
function enumOptions(values: unknown, names?: unknown): FieldOption[] | null {
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) return null;
  const labels = Array.isArray(names) ? names : [];
  return (values as string[]).map((value, i) => ({ value, label: text(labels[i]) ?? value }));
}

function readField(name: string, raw: unknown, required: boolean): FormField | null {
  if (!isRecord(raw)) return null;
  const base = { name, label: text(raw.title) ?? name, required, ...(text(raw.description) ? { description: text(raw.description) } : {}) };
  const type = raw.type;
  if (type === 'string' || (type === undefined && (raw.enum !== undefined || raw.oneOf !== undefined))) {
    const options = enumOptions(raw.enum, raw.enumNames) ?? titledOptions(raw.oneOf) ?? titledOptions(raw.anyOf);
    if (raw.enum !== undefined || raw.oneOf !== undefined || raw.anyOf !== undefined) {
      if (!options) return null;
      const def = typeof raw.default === 'string' && options.some((o) => o.value === raw.default) ? raw.default : undefined;
      return { ...base, kind: 'single', options, ...(def !== undefined ? { default: def } : {}) };
    }
    const format = typeof raw.format === 'string' ? raw.format : '';
    if (format && !(format in FORMATS)) return null;
    const field: FormField = { ...base, kind: 'text', input: format ? FORMATS[format] : 'text' };
    const minLength = count(raw.minLength);
    const maxLength = count(raw.maxLength);
    if (minLength !== undefined) field.minLength = minLength;
    if (maxLength !== undefined) field.maxLength = maxLength;
    if (typeof raw.default === 'string') field.default = raw.default;
    return field;
  }
  if (type === 'number' || type === 'integer') {
    const field: FormField = { ...base, kind: type };
    const min = finite(raw.minimum);
    const max = finite(raw.maximum);
    if (min !== undefined) field.min = min;
    if (max !== undefined) field.max = max;
    const def = finite(raw.default);
    if (def !== undefined) field.default = def;
    return field;
  }
  if (type === 'boolean') return { ...base, kind: 'boolean', ...(typeof raw.default === 'boolean' ? { default: raw.default } : {}) };
  if (type === 'array') {
    const items = raw.items;
    if (!isRecord(items)) return null;
    const options = enumOptions(items.enum) ?? titledOptions(items.anyOf) ?? titledOptions(items.oneOf);
    if (!options) return null;
    const field: FormField = { ...base, kind: 'multi', options };
    const minItems = count(raw.minItems);
    const maxItems = count(raw.maxItems);
    if (minItems !== undefined) field.minItems = minItems;
    if (maxItems !== undefined) field.maxItems = maxItems;
    if (Array.isArray(raw.default)) field.default = raw.default.filter((v): v is string => typeof v === 'string' && options.some((o) => o.value === v));
    return field;
  }
  return null;
}

/** The form's fields in the schema's order; null when the schema is not one the spec allows. */
export function formFields(schema: unknown): FormField[] | null {
  if (!isRecord(schema)) return null;
  if (schema.type !== undefined && schema.type !== 'object') return null;
  const properties = schema.properties === undefined ? {} : schema.properties;
  if (!isRecord(properties)) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields: FormField[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    const field = readField(name, raw, required.has(name));
    if (!field) return null;
    fields.push(field);
  }
  return fields;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An RFC 3339 time as a datetime-local input holds it (local time, to the minute); '' when unreadable. */
export function toLocalInput(value: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return '';
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** What each input starts with: the schema's default (SEP-1034), else empty. */
export function initialValues(fields: readonly FormField[]): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    switch (f.kind) {
      case 'text':
        values[f.name] = f.default === undefined ? '' : f.input === 'datetime-local' ? toLocalInput(f.default) || f.default : f.default;
        break;
      case 'number':
      case 'integer':
        values[f.name] = f.default === undefined ? '' : String(f.default);
        break;
      case 'boolean':
        values[f.name] = f.default ?? false;
        break;
      case 'single':
        values[f.name] = f.default ?? '';
        break;
      case 'multi':
        values[f.name] = f.default ?? [];
        break;
    }
  }
  return values;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isUrl(value: string): boolean {
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What is wrong with one field's value; '' when nothing is. */
export function fieldError(f: FormField, value: FieldValue | undefined): string {
  switch (f.kind) {
    case 'text': {
      const v = typeof value === 'string' ? value.trim() : '';
      if (!v) return f.required ? `${f.label} is required.` : '';
      if (f.input === 'email' && !EMAIL.test(v)) return `${f.label} must be an email address.`;
      if (f.input === 'url' && !isUrl(v)) return `${f.label} must be a web address, like https://example.com.`;
      if ((f.input === 'date' || f.input === 'datetime-local') && Number.isNaN(Date.parse(v))) return `${f.label} must be a date.`;
      if (f.minLength !== undefined && Array.from(v).length < f.minLength) return `${f.label} must be at least ${plural(f.minLength, 'character')}.`;
      if (f.maxLength !== undefined && Array.from(v).length > f.maxLength) return `${f.label} must be at most ${plural(f.maxLength, 'character')}.`;
      return '';
    }
    case 'number':
    case 'integer': {
      const v = typeof value === 'string' ? value.trim() : '';
      if (!v) return f.required ? `${f.label} is required.` : '';
      const n = Number(v);
      if (!Number.isFinite(n)) return `${f.label} must be a number.`;
      if (f.kind === 'integer' && !Number.isInteger(n)) return `${f.label} must be a whole number.`;
      if (f.min !== undefined && n < f.min) return `${f.label} must be at least ${f.min}.`;
      if (f.max !== undefined && n > f.max) return `${f.label} must be at most ${f.max}.`;
      return '';
    }
    case 'boolean':
      return '';
    case 'single':
      return f.required && !value ? `Choose an option for ${f.label}.` : '';
    case 'multi': {
      const chosen = Array.isArray(value) ? value.length : 0;
      const min = f.minItems ?? (f.required ? 1 : 0);
      if (chosen < min && (chosen > 0 || f.required)) return `Choose at least ${min} for ${f.label}.`;
      if (f.maxItems !== undefined && chosen > f.maxItems) return `Choose at most ${f.maxItems} for ${f.label}.`;
      return '';
    }
  }
}

/** Field name → what is wrong with it; empty when the form can go. */
export function formErrors(fields: readonly FormField[], values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const e = fieldError(f, values[f.name]);
    if (e) errors[f.name] = e;
  }
  return errors;
}

/** The answer's content: each filled field as its schema's type (empty optional fields are left out). */
export function formContent(fields: readonly FormField[], values: FormValues): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const f of fields) {
    const value = values[f.name];
    switch (f.kind) {
      case 'text': {
        const v = typeof value === 'string' ? value.trim() : '';
        if (!v) break;
        content[f.name] = f.input === 'datetime-local' ? new Date(v).toISOString() : v;
        break;
      }
      case 'number':
      case 'integer': {
        const v = typeof value === 'string' ? value.trim() : '';
        if (v) content[f.name] = Number(v);
        break;
      }
      case 'boolean':
        content[f.name] = value === true;
        break;
      case 'single':
        if (typeof value === 'string' && value) content[f.name] = value;
        break;
      case 'multi':
        if (Array.isArray(value) && (value.length > 0 || f.required)) content[f.name] = value;
        break;
    }
  }
  return content;
}

/** "Answer within 9 min" (or seconds in the last minute); null once the time is up or unreadable. */
export function timeLeftText(expiresAt: string, nowMs: number): string | null {
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at)) return null;
  const left = at - nowMs;
  if (left <= 0) return null;
  if (left < 60_000) return `Answer within ${Math.ceil(left / 1000)} s`;
  return `Answer within ${Math.ceil(left / 60_000)} min`;
}

/** The host a URL question opens, as a user reads it ('' when the URL is not a web address). */
export function urlHost(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.host : '';
  } catch {
    return '';
  }
}
