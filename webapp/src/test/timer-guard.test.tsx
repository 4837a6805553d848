import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { assertNoLeakedTimers, isAppFrame } from './timer-guard';
import { LeakyForTests, TidyForTests } from './timer-guard-fixtures';

describe('timer guard', () => {
  it('names an app timer left running after unmount', async () => {
    const { unmount } = render(<LeakyForTests />);
    unmount();
    await expect(assertNoLeakedTimers()).rejects.toThrow(/setTimeout from .*timer-guard-fixtures/);
  });

  it('passes when the component clears its timer', async () => {
    const { unmount } = render(<TidyForTests />);
    unmount();
    await expect(assertNoLeakedTimers()).resolves.toBeUndefined();
  });

  it('ignores timers a test starts itself', async () => {
    function Local() {
      useEffect(() => void setTimeout(() => undefined, 60_000), []);
      return null;
    }
    render(<Local />).unmount();
    await expect(assertNoLeakedTimers()).resolves.toBeUndefined();
  });
});

describe('isAppFrame', () => {
  it.each([
    ['at blur (/w/webapp/src/features/auth/use-validated-form.ts:23:12)', true],
    ['at onClick (/w/webapp/src/features/marketplace/components/marketplace-page.tsx:157:57)', true],
    ['at revalidate (/w/webapp/node_modules/swr/dist/index.mjs:1:1)', false],
    ['at /w/webapp/src/features/home/warm-up.test.ts:5:1', false],
    ['at renderApp (/w/webapp/src/test/render-app.tsx:9:1)', false],
  ])('%s → %s', (line, want) => expect(isAppFrame(line)).toBe(want));
});
