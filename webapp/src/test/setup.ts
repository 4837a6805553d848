import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = () => undefined;
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
