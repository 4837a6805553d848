// The rules of a marketplace prompt's fields, as the API checks them
// (shared/prompts: docs/admin.md, Prompts; docs/creators.md): title 1–200
// characters, description ≤ 2,000, content 1–50,000, price more than 0 and
// at most 999.99 with at most two decimals, a category. The admin prompt
// editor and the creator studio both check their forms here. The API counts
// characters (Unicode code points), not UTF-16 units, and so do we.

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2_000;
export const CONTENT_MAX = 50_000;
export const PRICE_MAX = 999.99;

/** A prompt's fields as typed: the price is text until it is checked. */
export interface PromptFields {
  title: string;
  description: string;
  content: string;
  price: string;
  category_id: string;
}

/** The same fields as the API takes them. */
export interface PromptValues {
  title: string;
  description: string;
  content: string;
  price: number;
  category_id: string;
}

export type PromptField = keyof PromptFields;
export type PromptErrors = Partial<Record<PromptField, string>>;

export const EMPTY_PROMPT_FIELDS: PromptFields = { title: '', description: '', content: '', price: '', category_id: '' };

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

export function validatePromptForm(form: PromptFields): PromptErrors {
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

/** What the API is sent for valid fields: title and description trimmed, content as typed. */
export function promptValuesOf(form: PromptFields): PromptValues {
  const price = checkPrice(form.price);
  return {
    title: form.title.trim(),
    description: form.description.trim(),
    content: form.content,
    price: 'price' in price ? price.price : 0,
    category_id: form.category_id,
  };
}

/** Saved values as the form shows them. */
export function promptFieldsOf(p: PromptValues): PromptFields {
  return { title: p.title, description: p.description, content: p.content, price: p.price.toFixed(2), category_id: p.category_id };
}

/**
 * The field an API refusal (400) names: the API's rule messages begin with
 * it ("title is required", "category \"x\" does not exist"), so the form can
 * show the message beside that field. Null when it names none of them.
 */
export function fieldOfMessage(message: string): PromptField | null {
  const m = /^(title|description|content|price|category)/i.exec(message.trim());
  if (!m) return null;
  const word = m[1].toLowerCase();
  return word === 'category' ? 'category_id' : (word as PromptField);
}
