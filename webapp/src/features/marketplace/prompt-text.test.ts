import { describe, expect, it } from 'vitest';
import { cardPreview, categoryLabel, cutPreview, isPlaceholder, splitPlaceholders } from './prompt-text';

const a = (n: number) => 'a'.repeat(n);

describe('cutPreview', () => {
  it.each([0, 1, 199, 200])('leaves %i characters unchanged', (n) => {
    expect(cutPreview(a(n))).toBe(a(n));
  });

  it.each([201, 250, 5000])('cuts %i characters to 200 plus an ellipsis', (n) => {
    const out = cutPreview(a(n));
    expect(out).toBe(a(200) + '...');
    expect(out).toHaveLength(203);
  });

  it('counts code points, so an emoji at the cut stays whole', () => {
    const text = a(199) + '😀' + a(10);
    expect(cutPreview(text)).toBe(a(199) + '😀...');
    expect(cutPreview(a(199) + '😀')).toBe(a(199) + '😀');
  });

  it('honours a custom length', () => {
    expect(cutPreview('abcdef', 3)).toBe('abc...');
  });
});

describe('cardPreview', () => {
  it('uses the content when present and cuts it', () => {
    expect(cardPreview({ content: a(300), preview: a(200) })).toEqual({ text: a(200) + '...', truncated: true });
    expect(cardPreview({ content: 'short', preview: 'short' })).toEqual({ text: 'short', truncated: false });
  });

  it('shows a short preview as it is', () => {
    expect(cardPreview({ preview: 'Write about [TOPIC]' })).toEqual({ text: 'Write about [TOPIC]', truncated: false });
  });

  it('marks a 200-character server preview as longer (the server cut it)', () => {
    expect(cardPreview({ preview: a(200) })).toEqual({ text: a(200) + '...', truncated: true });
  });

  it('cuts an over-long preview', () => {
    expect(cardPreview({ preview: a(260), content: null })).toEqual({ text: a(200) + '...', truncated: true });
  });

  it('copes with nothing', () => {
    expect(cardPreview({})).toEqual({ text: '', truncated: false });
    expect(cardPreview({ content: '', preview: null })).toEqual({ text: '', truncated: false });
  });
});

describe('isPlaceholder', () => {
  it.each([
    'COMPANY NAME',
    'X',
    'TARGET_AUDIENCE',
    'E.G. 20-MINUTE CALL, FREE AUDIT, REPLY WITH YES',
    'LEANING OR "UNDECIDED"',
    'DATA NEEDED: DESCRIPTION',
    'ÉQUIPE',
  ])('[%s] is a placeholder', (inner) => {
    expect(isPlaceholder(inner)).toBe(true);
  });

  it.each([
    'start menu',
    'end menu',
    'START MENU',
    'END  MENU',
    'future',
    'FUTURE',
    'past',
    'PAST',
    '15-120',
    'Your name',
    'COMPANY name',
    'x',
    ' NAME',
    '{NAME}',
    '',
  ])('[%s] is not a placeholder', (inner) => {
    expect(isPlaceholder(inner)).toBe(false);
  });
});

describe('splitPlaceholders', () => {
  it('splits text and placeholders in order, brackets kept', () => {
    expect(splitPlaceholders('Write to [NAME] at [COMPANY NAME].')).toEqual([
      { text: 'Write to ', placeholder: false },
      { text: '[NAME]', placeholder: true },
      { text: ' at ', placeholder: false },
      { text: '[COMPANY NAME]', placeholder: true },
      { text: '.', placeholder: false },
    ]);
  });

  it('handles adjacent placeholders and placeholders at the edges', () => {
    expect(splitPlaceholders('[A][B]')).toEqual([
      { text: '[A]', placeholder: true },
      { text: '[B]', placeholder: true },
    ]);
  });

  it('keeps non-placeholder brackets as plain text, merged with their neighbours', () => {
    expect(splitPlaceholders('Pick [1-10] or [your call] and [start menu] x [end menu] [future]')).toEqual([
      { text: 'Pick [1-10] or [your call] and [start menu] x [end menu] [future]', placeholder: false },
    ]);
  });

  it('never highlights inside a menu block, but does outside it', () => {
    const text = 'Plan for [TEAM NAME].\n[start menu]\nd {tone} [FUTURE] Tone [NOT HERE]\n- calm\n[END MENU]\nThen [AFTER].';
    const marks = splitPlaceholders(text).filter((s) => s.placeholder).map((s) => s.text);
    expect(marks).toEqual(['[TEAM NAME]', '[AFTER]']);
  });

  it('skips every menu block when there are several', () => {
    const text = '[start menu][IN ONE][end menu] [OUT] [start menu][IN TWO][end menu]';
    expect(splitPlaceholders(text).filter((s) => s.placeholder).map((s) => s.text)).toEqual(['[OUT]']);
  });

  it('highlights normally when a start marker has no end marker', () => {
    expect(splitPlaceholders('[start menu] [NAME]').filter((s) => s.placeholder).map((s) => s.text)).toEqual(['[NAME]']);
  });

  it('does not span lines or nest', () => {
    expect(splitPlaceholders('[NAME\nOTHER]').every((s) => !s.placeholder)).toBe(true);
    expect(splitPlaceholders('[[NAME]]')).toEqual([
      { text: '[', placeholder: false },
      { text: '[NAME]', placeholder: true },
      { text: ']', placeholder: false },
    ]);
  });

  it('joins back to the input exactly', () => {
    const text = 'Hi [NAME], <b>bold</b> & [x] [START MENU] [DATE]\n';
    expect(splitPlaceholders(text).map((s) => s.text).join('')).toBe(text);
  });

  it('returns nothing for empty text', () => {
    expect(splitPlaceholders('')).toEqual([]);
  });
});

describe('categoryLabel', () => {
  it.each([
    ['content-creation', 'Content Creation'],
    ['business', 'Business'],
    ['Content Creation', 'Content Creation'],
    ['', 'Uncategorised'],
    [null, 'Uncategorised'],
  ])('%s → %s', (name, want) => {
    expect(categoryLabel(name)).toBe(want);
  });
});
