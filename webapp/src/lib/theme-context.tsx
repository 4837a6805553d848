import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  AMPLIFY_THEME_NAME,
  applyThemeToDocument,
  initialTheme,
  persistTheme,
  readStoredTheme,
  toggledTheme,
  type ThemeName,
} from './theme';

interface ThemeContextValue {
  theme: ThemeName;
  setTheme: (theme: ThemeName) => void;
  toggleTheme: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<ThemeName>(initialTheme);

  const setTheme = useCallback((next: ThemeName) => {
    persistTheme(next);
    setThemeState(next);
  }, []);
  const toggleTheme = useCallback(() => {
    setThemeState((current) => {
      const next = toggledTheme(current);
      persistTheme(next);
      return next;
    });
  }, []);

  useEffect(() => {
    applyThemeToDocument(theme);
  }, [theme]);

  // Without a stored choice, follow the system preference live.
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = (e: MediaQueryListEvent) => {
      if (readStoredTheme() === null) setThemeState(e.matches ? 'dark' : 'light');
    };
    mq.addEventListener?.('change', onChange);
    return () => mq.removeEventListener?.('change', onChange);
  }, []);

  const value = useMemo(() => ({ theme, setTheme, toggleTheme }), [theme, setTheme, toggleTheme]);

  return (
    <ThemeContext.Provider value={value}>
      {/* What Amplify's ThemeProvider renders, minus its createTheme() and
          <style>: the theme's CSS is built ahead (amplify-theme.ts). */}
      <div data-amplify-theme={AMPLIFY_THEME_NAME} data-amplify-color-mode={theme} dir="ltr">
        {children}
      </div>
    </ThemeContext.Provider>
  );
}

export function useAppTheme(): ThemeContextValue {
  const ctx = useContext(ThemeContext);
  if (!ctx) throw new Error('useAppTheme must be used inside AppThemeProvider');
  return ctx;
}
