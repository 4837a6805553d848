import { useEffect, useRef } from 'react';
import { clearErrorsOnNavigation } from './notification-store';

/**
 * Clears the error toasts of the page being left whenever the path changes
 * (not its query: filters stay on the same page). Mount once, in the shell.
 */
export function useClearErrorsOnNavigate(pathname: string): void {
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    clearErrorsOnNavigation();
  }, [pathname]);
}
