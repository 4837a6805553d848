import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyThemeToDocument, initialTheme, persistTheme, readStoredTheme, systemTheme, toggledTheme } from './theme';
import { stubSystemTheme } from '../test/match-media';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('theme', () => {
  it('uses the stored theme over the system preference', () => {
    stubSystemTheme(true);
    localStorage.setItem('theme', 'light');
    expect(initialTheme()).toBe('light');
    stubSystemTheme(false);
    localStorage.setItem('theme', 'dark');
    expect(initialTheme()).toBe('dark');
  });

  it('follows the system preference when nothing is stored', () => {
    stubSystemTheme(true);
    expect(readStoredTheme()).toBeNull();
    expect(initialTheme()).toBe('dark');
    stubSystemTheme(false);
    expect(initialTheme()).toBe('light');
  });

  it('ignores invalid stored values', () => {
    stubSystemTheme(true);
    localStorage.setItem('theme', 'purple');
    expect(readStoredTheme()).toBeNull();
    expect(initialTheme()).toBe('dark');
  });

  it('falls back to light without matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    expect(systemTheme()).toBe('light');
  });

  it('persists the chosen theme so that a reload reads it back', () => {
    stubSystemTheme(false);
    persistTheme('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(initialTheme()).toBe('dark');
  });

  it('toggles between light and dark', () => {
    expect(toggledTheme('light')).toBe('dark');
    expect(toggledTheme('dark')).toBe('light');
  });

  it('marks <html> for our CSS and for Amplify', () => {
    applyThemeToDocument('dark');
    const html = document.documentElement;
    expect(html.dataset.theme).toBe('dark');
    expect(html.getAttribute('data-amplify-color-mode')).toBe('dark');
    expect(html.getAttribute('data-amplify-theme')).toBe('aiwork');
    applyThemeToDocument('light');
    expect(html.dataset.theme).toBe('light');
    expect(html.getAttribute('data-amplify-color-mode')).toBe('light');
  });
});
