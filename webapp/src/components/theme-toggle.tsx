import { useAppTheme } from '../lib/theme-context';

export function ThemeToggle() {
  const { theme, toggleTheme } = useAppTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="icon-button"
      data-testid="theme-toggle"
      data-theme-current={theme}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={toggleTheme}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}
