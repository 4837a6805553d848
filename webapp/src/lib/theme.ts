// Theme (SPEC §2, §3 "UI settings"): 'light' or 'dark', from storage, else
// the system preference; persisted when the user toggles it.

import { readString, STORAGE_KEYS, writeString } from './storage';

export type ThemeName = 'light' | 'dark';

import { AMPLIFY_THEME_NAME } from './amplify-theme';

export { AMPLIFY_THEME_NAME };

export function readStoredTheme(): ThemeName | null {
  const v = readString(STORAGE_KEYS.theme);
  return v === 'light' || v === 'dark' ? v : null;
}

export function systemTheme(): ThemeName {
  try {
    return typeof window !== 'undefined' &&
      typeof window.matchMedia === 'function' &&
      window.matchMedia('(prefers-color-scheme: dark)').matches
      ? 'dark'
      : 'light';
  } catch {
    return 'light';
  }
}

export function initialTheme(): ThemeName {
  return readStoredTheme() ?? systemTheme();
}

export function persistTheme(theme: ThemeName): void {
  writeString(STORAGE_KEYS.theme, theme);
}

export function toggledTheme(theme: ThemeName): ThemeName {
  return theme === 'dark' ? 'light' : 'dark';
}

/**
 * Mirror the theme on <html>: `data-theme` for our own CSS, and the Amplify
 * attributes so that its CSS variables also reach content outside the
 * ThemeProvider wrapper (body background, portals).
 */
export function applyThemeToDocument(theme: ThemeName, doc: Document = document): void {
  const root = doc.documentElement;
  root.dataset.theme = theme;
  root.setAttribute('data-amplify-theme', AMPLIFY_THEME_NAME);
  root.setAttribute('data-amplify-color-mode', theme);
  root.style.colorScheme = theme;
}
