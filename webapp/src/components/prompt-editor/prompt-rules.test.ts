import { describe, expect, it } from 'vitest';
import { charCount, checkPrice, EMPTY_PROMPT_FIELDS, fieldOfMessage, promptFieldsOf, promptValuesOf, validatePromptForm } from './prompt-rules';

const VALID = { ...EMPTY_PROMPT_FIELDS, title: 'T', content: 'C', price: '9.99', category_id: 'sales' };

describe('checkPrice (more than 0, at most 999.99, at most two decimals)', () => {
  it.each([
    ['0.01', 0.01],
    ['1', 1],
    ['1.5', 1.5],
    [' 999.99 ', 999.99],
    ['19.90', 19.9],
  ])('takes %j', (text, price) => {
    expect(checkPrice(text)).toEqual({ price });
  });

  it.each([
    ['', 'Price is required.'],
    ['0', 'The price must be more than $0.'],
    ['0.00', 'The price must be more than $0.'],
    ['1000', 'The price can be at most $999.99.'],
    ['999.991', 'The price can have at most 2 decimals.'],
    ['9.999', 'The price can have at most 2 decimals.'],
    ['-1', 'Enter the price in USD as a number, like 9.99.'],
    ['$5', 'Enter the price in USD as a number, like 9.99.'],
    ['1e3', 'Enter the price in USD as a number, like 9.99.'],
    ['5,00', 'Enter the price in USD as a number, like 9.99.'],
  ])('refuses %j', (text, error) => {
    expect(checkPrice(text)).toEqual({ error });
  });
});

describe('validatePromptForm', () => {
  it('passes a valid form', () => {
    expect(validatePromptForm(VALID)).toEqual({});
  });

  it('counts characters as the API does (code points): 200 emoji are a valid title', () => {
    const title = '😀'.repeat(200);
    expect(title.length).toBe(400);
    expect(charCount(title)).toBe(200);
    expect(validatePromptForm({ ...VALID, title })).toEqual({});
    expect(validatePromptForm({ ...VALID, title: title + '😀' }).title).toBe('Title must be at most 200 characters (now 201).');
  });

  it('holds description and content to their limits', () => {
    expect(validatePromptForm({ ...VALID, description: 'd'.repeat(2000) })).toEqual({});
    expect(validatePromptForm({ ...VALID, description: 'd'.repeat(2001) }).description).toBe('Description must be at most 2,000 characters (now 2,001).');
    expect(validatePromptForm({ ...VALID, content: 'c'.repeat(50_000) })).toEqual({});
    expect(validatePromptForm({ ...VALID, content: 'c'.repeat(50_001) }).content).toBe('Content must be at most 50,000 characters (now 50,001).');
    expect(validatePromptForm({ ...VALID, content: ' \n ' }).content).toBe('Content is required.');
  });

  it('refuses a title with control characters (the API does too)', () => {
    expect(validatePromptForm({ ...VALID, title: 'a\tb' }).title).toMatch(/control characters/);
  });

  it('needs a category', () => {
    expect(validatePromptForm({ ...VALID, category_id: '' }).category_id).toBe('Choose a category.');
  });
});

describe('values', () => {
  it('sends the title and description trimmed, the content as typed, the price as a number', () => {
    expect(promptValuesOf({ ...VALID, title: ' T ', description: ' d ', content: ' c ', price: '5.5' })).toMatchObject({ title: 'T', description: 'd', content: ' c ', price: 5.5 });
  });

  it('shows a saved price with two decimals', () => {
    expect(promptFieldsOf({ title: 'T', description: '', content: 'C', price: 5.5, category_id: 'sales' }).price).toBe('5.50');
  });
});

describe('fieldOfMessage (the field an API refusal names)', () => {
  it.each([
    ['title must be at most 200 characters', 'title'],
    ['description must be at most 2000 characters', 'description'],
    ['content is required', 'content'],
    ['price must have at most two decimals', 'price'],
    ['category_id is required', 'category_id'],
    ['category "x" does not exist', 'category_id'],
    ['version is required (the version you read)', null],
  ])('%j → %j', (message, field) => {
    expect(fieldOfMessage(message)).toBe(field);
  });
});
