import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = () => undefined;
import { cleanup, configure } from '@testing-library/react';

// Lazy route chunks are transformed on first use; on a loaded two-core
// machine that alone can pass the default 1 s of findBy*/waitFor.
configure({ asyncUtilTimeout: 3000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
