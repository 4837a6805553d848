// The prompt form checks what the API checks (docs/admin.md, Prompts):
// title 1–200 characters, description ≤ 2,000, content 1–50,000, price more
// than 0 and at most 999.99 with at most two decimals, a category. The API
// counts characters (Unicode code points), not UTF-16 units, and so do we.

import type { AdminPrompt, PromptDraft } from '../api/types';

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2_000;
export const CONTENT_MAX = 50_000;
export const PRICE_MAX = 999.99;

/** The form as typed: the price is text until it is checked. */
export interface PromptForm {
  title: string;
  description: string;
  content: string;
  price: string;
  category_id: string;
  featured: boolean;
  published: boolean;
}

export type PromptField = 'title' | 'description' | 'content' | 'price' | 'category_id';
export type PromptErrors = Partial<Record<PromptField, string>>;

export const EMPTY_PROMPT_FORM: PromptForm = { title: '', description: '', content: '', price: '', category_id: '', featured: false, published: false };

export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const n = (x: number) => x.toLocaleString('en-US');

const PRICE = /^\d+(?:\.\d+)?$/;
const CONTROL = /\p{Cc}/u;

/** The price in USD, or the reason it cannot be one. */
export function checkPrice(text: string): { price: number } | { error: string } {
  const t = text.trim();
  if (!t) return { error: 'Price is required.' };
  if (!PRICE.test(t)) return { error: 'Enter the price in USD as a number, like 9.99.' };
  const decimals = t.includes('.') ? t.length - t.indexOf('.') - 1 : 0;
  if (decimals > 2) return { error: 'The price can have at most 2 decimals.' };
  const price = Number(t);
  if (!(price > 0)) return { error: 'The price must be more than $0.' };
  if (price > PRICE_MAX) return { error: `The price can be at most $${PRICE_MAX}.` };
  return { price };
}

export function validatePromptForm(form: PromptForm): PromptErrors {
  const errors: PromptErrors = {};
  const title = charCount(form.title.trim());
  if (title === 0) errors.title = 'Title is required.';
  else if (title > TITLE_MAX) errors.title = `Title must be at most ${n(TITLE_MAX)} characters (now ${n(title)}).`;
  else if (CONTROL.test(form.title.trim())) errors.title = 'Title must be one line, without tabs or other control characters.';
  const description = charCount(form.description.trim());
  if (description > DESCRIPTION_MAX) errors.description = `Description must be at most ${n(DESCRIPTION_MAX)} characters (now ${n(description)}).`;
  const content = charCount(form.content);
  if (form.content.trim() === '') errors.content = 'Content is required.';
  else if (content > CONTENT_MAX) errors.content = `Content must be at most ${n(CONTENT_MAX)} characters (now ${n(content)}).`;
  const price = checkPrice(form.price);
  if ('error' in price) errors.price = price.error;
  if (!form.category_id) errors.category_id = 'Choose a category.';
  return errors;
}

/** What the API is sent for a valid form. */
export function draftOf(form: PromptForm): PromptDraft {
  const price = checkPrice(form.price);
  return {
    title: form.title.trim(),
    description: form.description.trim(),
    content: form.content,
    price: 'price' in price ? price.price : 0,
    category_id: form.category_id,
    featured: form.featured,
    published: form.published,
  };
}

export function formOf(p: AdminPrompt): PromptForm {
  return {
    title: p.title,
    description: p.description,
    content: p.content,
    price: p.price.toFixed(2),
    category_id: p.category_id,
    featured: p.featured,
    published: p.published,
  };
}
