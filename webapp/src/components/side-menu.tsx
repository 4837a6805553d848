import { useEffect, useRef } from 'react';
import { NavLink as RouterNavLink, Link } from 'react-router';
import { sideMenuLinks } from './nav-links';
import { useLogout } from '../lib/use-auth';

interface SideMenuProps {
  open: boolean;
  onClose: () => void;
  signedIn: boolean;
  isAdmin: boolean;
  /** Focus returns here when the menu closes. */
  returnFocusTo?: React.RefObject<HTMLElement | null>;
}

export const SIDE_MENU_ID = 'side-menu';

export function SideMenu({ open, onClose, signedIn, isAdmin, returnFocusTo }: SideMenuProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const logout = useLogout();
  const links = sideMenuLinks({ signedIn, isAdmin });

  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    panel?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
        return;
      }
      if (e.key !== 'Tab' || !panel) return;
      // Keep focus inside the open drawer.
      const focusables = Array.from(panel.querySelectorAll<HTMLElement>('a[href], button:not([disabled])'));
      if (focusables.length === 0) return;
      const first = focusables[0];
      const last = focusables[focusables.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const returnTarget = returnFocusTo?.current;
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = previousOverflow;
      returnTarget?.focus();
    };
  }, [open, onClose, returnFocusTo]);

  if (!open) return null;

  return (
    <div className="side-menu-layer">
      <div className="side-menu-backdrop" onClick={onClose} aria-hidden="true" />
      <div id={SIDE_MENU_ID} ref={panelRef} className="side-menu" role="dialog" aria-modal="true" aria-label="Side menu">
        <div className="side-menu__header">
          <Link to="/" className="brand" onClick={onClose}>
            AIWork
          </Link>
          <button type="button" className="icon-button" aria-label="Close menu" onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <nav aria-label="Side menu links">
          <ul className="side-menu__list">
            <li>
              <RouterNavLink to="/" end onClick={onClose}>
                Home
              </RouterNavLink>
            </li>
            {links.map((l) => (
              <li key={l.to}>
                <RouterNavLink to={l.to} onClick={onClose}>
                  {l.label}
                </RouterNavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="side-menu__footer">
          {signedIn ? (
            <button
              type="button"
              className="side-menu__action"
              onClick={() => {
                onClose();
                logout();
              }}
            >
              Logout
            </button>
          ) : (
            <>
              <RouterNavLink to="/login" onClick={onClose} className="side-menu__action">
                Login
              </RouterNavLink>
              <RouterNavLink to="/register" onClick={onClose} className="side-menu__action side-menu__action--primary">
                Sign Up
              </RouterNavLink>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
