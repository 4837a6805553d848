import { describe, expect, it } from 'vitest';
import { distinctModelTypes, modelTypeEmoji, modelTypeLabel, OTHER_MODEL_TYPE_EMOJI } from './model-types';

describe('modelTypeEmoji', () => {
  it.each([
    ['documentation', '📚'],
    ['code', '💻'],
    ['search', '🔎'],
    ['cloud', '☁️'],
    ['productivity', '🗂️'],
    ['payments', '💳'],
    ['data', '📊'],
    ['reference', '🧪'],
    ['robots', '🧩'],
    ['', '🧩'],
    ['constructor', '🧩'],
    ['toString', '🧩'],
  ])('%s → %s', (type, emoji) => {
    expect(modelTypeEmoji(type)).toBe(emoji);
  });
  it('has one fallback', () => expect(OTHER_MODEL_TYPE_EMOJI).toBe('🧩'));
});

describe('modelTypeLabel', () => {
  it.each([
    ['productivity', 'Productivity'],
    ['web-search', 'Web search'],
    ['big_data', 'Big data'],
    ['  ', 'Other'],
  ])('%j → %s', (type, label) => {
    expect(modelTypeLabel(type)).toBe(label);
  });
});

describe('distinctModelTypes', () => {
  it('keeps each non-empty type once, sorted by label', () => {
    const types = distinctModelTypes([
      { model_type: 'search' },
      { model_type: 'code' },
      { model_type: 'search' },
      { model_type: '' },
      { model_type: 'cloud' },
    ]);
    expect(types).toEqual(['cloud', 'code', 'search']);
  });
});
