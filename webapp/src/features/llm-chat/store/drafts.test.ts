import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { ADA, startSignedIn } from '../../../test/session';
import { dropDraft, setDraft } from './drafts';
import { createSession, dispatch, endSession, type Session } from './session';

let s: Session;
let emit: Mock<() => void>;

beforeEach(() => {
  startSignedIn();
  emit = vi.fn<() => void>();
  s = createSession(ADA.id, { emit, afterChange: vi.fn() });
});
afterEach(() => endSession(s));

describe('drafts', () => {
  it('keeps one draft per tab', () => {
    setDraft(s, 'Hello', 'a');
    setDraft(s, 'Other', 'b');
    expect(s.snap.drafts).toEqual({ a: 'Hello', b: 'Other' });
    expect(emit).toHaveBeenCalledTimes(2);
  });

  it('the same text again changes nothing (no new snapshot, no render)', () => {
    setDraft(s, 'Hello', 'a');
    const snap = s.snap;
    setDraft(s, 'Hello', 'a');
    expect(s.snap).toBe(snap);
    setDraft(s, '', 'never-typed-in');
    expect(s.snap).toBe(snap);
    expect(emit).toHaveBeenCalledTimes(1);
  });

  it('are memory only: saving the chat leaves them out', async () => {
    setDraft(s, 'secret draft', s.snap.state.activeTabId);
    dispatch(s, { type: 'newTab', id: 'tab-2', now: '2026-03-07T10:00:00.000Z' });
    await Promise.resolve(); // saved before the task ends
    const stored = Array.from({ length: localStorage.length }, (_, i) => localStorage.getItem(localStorage.key(i)!)).join('\n');
    expect(stored).toContain('tab-2');
    expect(stored).not.toContain('secret draft');
  });

  it("dropDraft forgets a tab's draft, and nothing when it had none", () => {
    setDraft(s, 'Hello', 'a');
    setDraft(s, 'Other', 'b');
    dropDraft(s, 'a');
    expect(s.snap.drafts).toEqual({ b: 'Other' });
    const snap = s.snap;
    dropDraft(s, 'a');
    expect(s.snap).toBe(snap);
  });

  it('nothing changes once the session ended', () => {
    endSession(s);
    setDraft(s, 'late', 'a');
    expect(s.snap.drafts).toEqual({});
  });
});
