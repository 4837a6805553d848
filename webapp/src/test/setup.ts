import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { assertNoLeakedTimers, installTimerGuard } from './timer-guard';
import { clearNotificationsForTests } from '../components/notifications/notification-store';
import { resetAuthForTests } from '../lib/auth-session';
import { resetVerificationsForTests } from '../features/auth/email-verification';
import { clearUrlSecretsForTests } from '../lib/url-secrets';
import { runTestReset } from '../lib/test-resets';

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = () => undefined;

// Lazy route chunks are transformed on first use; on a loaded two-core
// machine that alone can pass the default 1 s of findBy*/waitFor. The wait
// ends as soon as its condition holds, so a long deadline costs nothing.
configure({ asyncUtilTimeout: 15_000 });

installTimerGuard();

afterEach(async () => {
  cleanup();
  // App-wide stores outlive components by design: end their timers here.
  clearNotificationsForTests();
  // The chat store keeps streams running across pages: abort them and clear its timers.
  // (It and the app register their teardowns when a test loads them: src/lib/test-resets.ts.)
  runTestReset('chat-store');
  resetAuthForTests();
  runTestReset('error-retries');
  resetVerificationsForTests();
  clearUrlSecretsForTests();
  localStorage.clear();
  sessionStorage.clear();
  await assertNoLeakedTimers();
});
