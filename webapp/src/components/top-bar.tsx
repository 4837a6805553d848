import { lazy, Suspense } from 'react';
import { Link, NavLink as RouterNavLink } from 'react-router';
import { MAIN_LINKS } from './nav-links';
import { ThemeToggle } from './theme-toggle';
import { SIDE_MENU_ID } from './side-menu';
import type { User } from '../lib/auth-session';
import { initials } from '../lib/initials';

// The dropdown menu code (Radix) loads only for signed-in users.
const UserMenu = lazy(() => import('./user-menu').then((m) => ({ default: m.UserMenu })));

interface TopBarProps {
  user: User | null;
  sideMenuOpen: boolean;
  onOpenSideMenu: () => void;
  menuButtonRef: React.RefObject<HTMLButtonElement | null>;
}

export function TopBar({ user, sideMenuOpen, onOpenSideMenu, menuButtonRef }: TopBarProps) {
  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        <button
          ref={menuButtonRef}
          type="button"
          className="icon-button"
          data-testid="side-menu-button"
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={sideMenuOpen}
          aria-controls={SIDE_MENU_ID}
          onClick={onOpenSideMenu}
        >
          <span className="hamburger" aria-hidden="true" />
        </button>
        <Link to="/" className="brand">
          AIWork
        </Link>
        <nav className="top-bar__links" aria-label="Main">
          {MAIN_LINKS.map((l) => (
            <RouterNavLink key={l.to} to={l.to} className="top-bar__link">
              {l.label}
            </RouterNavLink>
          ))}
        </nav>
        <div className="top-bar__actions">
          <ThemeToggle />
          {user ? (
            <Suspense
              fallback={
                <span className="avatar" aria-hidden="true">
                  {initials(user)}
                </span>
              }
            >
              <UserMenu user={user} />
            </Suspense>
          ) : (
            <>
              <Link to="/login" className="button-link top-bar__login">
                Login
              </Link>
              <Link to="/register" className="button-link button-link--primary top-bar__signup">
                Sign Up
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
