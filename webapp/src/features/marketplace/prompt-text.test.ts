import { describe, expect, it } from 'vitest';
import { cardPreview, categoryLabel, cutAtWord, cutPreview, isPlaceholder, splitPlaceholders, withEllipsis } from './prompt-text';

const a = (n: number) => 'a'.repeat(n);

describe('cutPreview', () => {
  it.each([0, 1, 199, 200])('leaves %i characters unchanged', (n) => {
    expect(cutPreview(a(n))).toBe(a(n));
  });

  it.each([201, 250, 5000])('cuts one word of %i characters at 200, plus an ellipsis', (n) => {
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
    expect(cutPreview('ab cdef', 4)).toBe('ab...');
  });
});

// Never "IN..." (mid-word) nor "system....": cut at the last word boundary
// within 200 characters, then one ellipsis.
describe('cutPreview at word boundaries', () => {
  const words = (n: number) => 'word '.repeat(n).trimEnd(); // 5n-1 characters

  it('never cuts a word: one crossing the 200th character is left out', () => {
    const text = words(39) + ' ab [INDUSTRY] and more';
    expect(text.slice(198, 201)).toBe('[IN'); // a plain 200-character cut gave "[I..."
    expect(cutPreview(text)).toBe(words(39) + ' ab...');
  });

  it('keeps a word ending exactly at 200 characters', () => {
    const text = a(95) + ' ' + 'b'.repeat(104) + ' tail';
    expect(cutPreview(text)).toBe(a(95) + ' ' + 'b'.repeat(104) + '...');
  });

  it('adds one ellipsis after a full stop, not four dots', () => {
    const text = words(38) + ' system. Then the rest of the prompt';
    expect(cutPreview(text)).toBe(words(38) + ' system...');
    expect(cutPreview(words(38) + ' system… then')).toBe(words(38) + ' system...');
    expect(cutPreview(words(38) + ' options, then more')).toBe(words(38) + ' options...');
  });

  it('treats line breaks as boundaries and drops trailing spaces', () => {
    expect(cutPreview(words(39) + '\n\nINDUSTRY more')).toBe(words(39) + '...');
    expect(cutPreview(words(39) + '      xy')).toBe(words(39) + '...');
  });

  it('the result is at most 200 characters plus the ellipsis, and a start of the text', () => {
    const text = 'Act as a senior analyst. '.repeat(20);
    const out = cutPreview(text);
    expect(out.endsWith('...')).toBe(true);
    expect(out.endsWith('....')).toBe(false);
    const body = out.slice(0, -3);
    expect(Array.from(body).length).toBeLessThanOrEqual(200);
    expect(text.startsWith(body)).toBe(true);
    expect(body.endsWith('analyst')).toBe(true); // "analyst." lost its full stop to the ellipsis
  });
});

describe('cutAtWord and withEllipsis', () => {
  it('cutAtWord keeps short text and cuts long text before a broken word', () => {
    expect(cutAtWord('short')).toBe('short');
    expect(cutAtWord('one two three', 9)).toBe('one two');
    expect(cutAtWord('one two three', 7)).toBe('one two');
  });

  it('withEllipsis gives one ellipsis whatever ends the text', () => {
    expect(withEllipsis('Done.')).toBe('Done...');
    expect(withEllipsis('Wait...')).toBe('Wait...');
    expect(withEllipsis('a,')).toBe('a...');
    expect(withEllipsis('...')).toBe('......'); // nothing but dots: kept as it was, plus the ellipsis
  });
});

describe('cardPreview', () => {
  it('uses the content when present and cuts it', () => {
    expect(cardPreview({ content: a(300), preview: a(200) })).toEqual({ text: a(200) + '...', truncated: true });
    expect(cardPreview({ content: 'short', preview: 'short' })).toEqual({ text: 'short', truncated: false });
  });

  it('shows a short preview as it is', () => {
    expect(cardPreview({ preview: 'Write about [TOPIC]' })).toEqual({ text: 'Write about [TOPIC]', truncated: false });
    expect(cardPreview({ preview: 'Write about [TOPIC]', preview_truncated: false })).toEqual({ text: 'Write about [TOPIC]', truncated: false });
  });

  it("follows the server's preview_truncated: the ellipsis goes after its word-boundary cut", () => {
    expect(cardPreview({ preview: 'Write a cold email about your', preview_truncated: true })).toEqual({
      text: 'Write a cold email about your...',
      truncated: true,
    });
    expect(cardPreview({ preview: 'You are an expert in the system.', preview_truncated: true }).text).toBe('You are an expert in the system...');
    // 200 characters that are the whole prompt: no ellipsis.
    expect(cardPreview({ preview: a(200), preview_truncated: false })).toEqual({ text: a(200), truncated: false });
  });

  it('without the flag, marks a 200-character preview as longer (cut at a word)', () => {
    expect(cardPreview({ preview: a(200) })).toEqual({ text: a(200) + '...', truncated: true });
    expect(cardPreview({ preview: 'word '.repeat(40) + 'INDUSTRY' }).text).toBe('word '.repeat(40).trimEnd() + '...');
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
