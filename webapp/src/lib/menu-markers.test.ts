import { describe, expect, it } from 'vitest';
import { findMenuBlock, hasMenuBlock } from './menu-markers';

describe('hasMenuBlock', () => {
  it.each([
    ['both markers, in order', 'Intro\n[start menu]\nd {tone}\n- calm\n[end menu]\nOutro', true],
    ['upper case markers', 'x [START MENU] y [END MENU] z', true],
    ['mixed case and inner spaces', 'x [ Start  Menu ] y [end MENU ]', true],
    ['markers touching', '[start menu][end menu]', true],
    ['end before start only', '[end menu] text [start menu]', false],
    ['end before start, then a later end', '[end menu] a [start menu] b [end menu]', true],
    ['start only', 'text [start menu] more', false],
    ['end only', 'text [end menu]', false],
    ['no markers', 'Write about [TOPIC] for [AUDIENCE].', false],
    ['words without brackets', 'start menu … end menu', false],
    ['empty', '', false],
  ])('%s', (_name, text, want) => {
    expect(hasMenuBlock(text)).toBe(want);
  });

  it('is false for null and undefined', () => {
    expect(hasMenuBlock(null)).toBe(false);
    expect(hasMenuBlock(undefined)).toBe(false);
  });
});

describe('findMenuBlock', () => {
  it('returns the range and body of the first block', () => {
    const text = 'A [start menu]BODY[end menu] B [start menu]2[end menu]';
    const block = findMenuBlock(text);
    expect(block).toEqual({ start: 2, end: 28, body: 'BODY' });
    expect(text.slice(block!.start, block!.end)).toBe('[start menu]BODY[end menu]');
  });
});
