import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { creatorPrompt } from '../../test/fake-creators-api';
import { canEdit, canSubmit, checkChangeNote, currentOf, editFieldsOf, pendingText, promptStateText, stateText } from './prompt-state';

const pending = (state: 'draft' | 'in_review' | 'rejected') =>
  ({ title: 'Next', description: 'd', content: 'next content', price: 12, category_id: 'writing', change_note: 'n', state, review_reason: state === 'rejected' ? 'No.' : null }) as const;

describe('a creator prompt’s state', () => {
  it('reads as words, with the admin’s reason on a rejection', () => {
    expect(stateText('draft', null)).toBe('Draft');
    expect(stateText('in_review', null)).toBe('In review');
    expect(stateText('published', null)).toBe('Published');
    expect(stateText('rejected', ' Too short. ')).toBe('Rejected: Too short.');
    expect(stateText('rejected', null)).toBe('Rejected');
  });

  it('names a published prompt’s next version and its own state', () => {
    expect(pendingText(creatorPrompt({ state: 'published', pending: pending('in_review') }))).toBe('Next version: In review');
    expect(pendingText(creatorPrompt({ state: 'published', pending: pending('rejected') }))).toBe('Next version: Rejected: No.');
    expect(pendingText(creatorPrompt({ state: 'published' }))).toBeNull();
  });

  it.each([
    ['draft', null, true, true],
    ['rejected', null, true, true],
    ['in_review', null, false, false],
    ['published', null, true, false],
    ['published', 'draft', true, true],
    ['published', 'rejected', true, true],
    ['published', 'in_review', false, false],
  ] as const)('%s (next version %s): edit %s, submit %s', (state, next, edit, submit) => {
    const p = creatorPrompt({ state, pending: next ? pending(next) : null });
    expect(canEdit(p)).toBe(edit);
    expect(canSubmit(p)).toBe(submit);
  });

  it('says a sold prompt its creator deleted is withdrawn, and offers neither edit nor submit', () => {
    const p = creatorPrompt({ state: 'published', withdrawn: true, pending: pending('draft') });
    expect(promptStateText(p)).toBe('Withdrawn: off the marketplace, its buyers keep it');
    expect(promptStateText(creatorPrompt({ state: 'published' }))).toBe('Published');
    expect(canEdit(p)).toBe(false);
    expect(canSubmit(p)).toBe(false);
  });

  it('edits the saved next version of a published prompt, else the prompt', () => {
    expect(editFieldsOf(creatorPrompt({ state: 'published', pending: pending('draft') }))).toMatchObject({ content: 'next content', price: '12.00', category_id: 'writing' });
    expect(editFieldsOf(creatorPrompt({ price: 9.5 }))).toMatchObject({ title: 'Cold email', price: '9.50' });
  });
});

describe('what changed', () => {
  it('is required and at most 300 characters (code points)', () => {
    expect(checkChangeNote('  ')).toBe('Say what changed, for your buyers.');
    expect(checkChangeNote('😀'.repeat(300))).toBeNull();
    expect(checkChangeNote('x'.repeat(301))).toBe('What changed must be at most 300 characters (now 301).');
  });
});

describe('currentOf', () => {
  it('reads the prompt as it now is from a stale write’s 409, and nothing from other refusals', () => {
    const now = creatorPrompt({ version: 7 });
    expect(currentOf(new ApiError(409, 'changed', { fromServer: true, body: { detail: 'changed', current: now } }))).toEqual(now);
    expect(currentOf(new ApiError(409, 'This prompt is already in review.', { fromServer: true, body: { detail: 'x' } }))).toBeNull();
    expect(currentOf(new ApiError(400, 'bad', { body: { current: now } }))).toBeNull();
    expect(currentOf(new Error('x'))).toBeNull();
  });
});
