import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app';
import { clearSession, resetAuthForTests } from '../lib/auth-session';
import { toast } from '../components/notifications/notification-store';
import { stubSystemTheme } from '../test/match-media';
import { setUpPageTests } from '../test/page-tests';
import { ADA, startSignedIn, startSignedOut } from '../test/session';
import { recordTourOutcome } from '../features/home/tour/tour-state';

// No routes: every API call answers 404.
setUpPageTests();

const location = () => screen.getByTestId('location');

describe('route guard in the app', () => {
  it('shows the loading screen until auth is initialised', async () => {
    resetAuthForTests(); // status stays 'loading'
    renderApp('/dashboard');
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(location()).toHaveTextContent('/dashboard');
  });

  it('sends a visitor on /llm-chat to /login?redirect=/llm-chat', async () => {
    startSignedOut();
    renderApp('/llm-chat');
    await waitFor(() => expect(location()).toHaveTextContent('/login?redirect=%2Fllm-chat'));
    expect(await screen.findByRole('form', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends a signed-in user on /login to /', async () => {
    startSignedIn();
    renderApp('/login');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/$/));
  });

  it('sends the user to /login when a 401 clears the session on a protected page', async () => {
    startSignedIn();
    renderApp('/llm-chat');
    expect(await screen.findByRole('heading', { name: 'LLM Chat', level: 1 })).toBeInTheDocument();
    act(() => clearSession());
    await waitFor(() => expect(location()).toHaveTextContent('/login?redirect=%2Fllm-chat'));
  });

  it('shows the /chat placeholder to visitors', async () => {
    startSignedOut();
    renderApp('/chat');
    expect(await screen.findByText('Chat interface coming soon...')).toBeInTheDocument();
  });

  it("lets visitors browse the Agent Marketplace and an agent's page", async () => {
    startSignedOut();
    renderApp('/agents/a-000000000001');
    // Public: the page itself (here its not-found state: the fake API has no agents), not the login form.
    expect(await screen.findByRole('heading', { level: 1, name: 'Agent not found.' })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/agents/a-000000000001');
  });

  // docs/admin.md: the admin area is guarded.
  it.each([
    ['/admin', '%2Fadmin'],
    ['/admin/orders?state=paid', '%2Fadmin%2Forders%3Fstate%3Dpaid'],
  ])('sends a visitor on %s to log in, coming back there', async (path, encoded) => {
    startSignedOut();
    renderApp(path);
    await waitFor(() => expect(location()).toHaveTextContent(`/login?redirect=${encoded}`));
    expect(await screen.findByRole('form', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows a signed-in user who is not an admin the 403 page on /admin', async () => {
    startSignedIn();
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: '403', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});

describe('top bar and side menu', () => {
  it('shows the links, Login and Sign Up to visitors', async () => {
    startSignedOut();
    renderApp('/user-guide');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual([
      'User Guide',
      'Prompt Marketplace',
      'Agent Marketplace',
      'MCP Registry',
      'LLM Chat',
    ]);
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
    expect(screen.queryByTestId('user-menu')).toBeNull();
  });

  it('shows an initials avatar menu with Dashboard and Logout when signed in', async () => {
    startSignedIn();
    renderApp('/user-guide');
    const button = await screen.findByTestId('user-menu');
    expect(button).toHaveTextContent('AL');
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    await userEvent.click(button);
    expect(await screen.findByRole('menuitem', { name: 'Dashboard' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/$/));
    expect(await screen.findByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it('side menu: Dashboard for users, Admin only for admins; Escape closes it', async () => {
    startSignedIn();
    renderApp('/user-guide');
    await userEvent.click(await screen.findByTestId('side-menu-button'));
    let menu = screen.getByRole('dialog', { name: 'Side menu' });
    expect(within(menu).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
    expect(within(menu).queryByRole('link', { name: 'Admin' })).toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Side menu' })).toBeNull();
    expect(screen.getByTestId('side-menu-button')).toHaveFocus();

    act(() => startSignedIn({ ...ADA, is_admin: true }));
    await userEvent.click(screen.getByTestId('side-menu-button'));
    menu = screen.getByRole('dialog', { name: 'Side menu' });
    await userEvent.click(within(menu).getByRole('link', { name: 'Admin' }));
    await waitFor(() => expect(location()).toHaveTextContent('/admin'));
    expect(screen.queryByRole('dialog', { name: 'Side menu' })).toBeNull();
  });

  it('side menu for visitors has no Dashboard or Admin but offers Login and Sign Up', async () => {
    startSignedOut();
    recordTourOutcome('completed');
    renderApp('/');
    await userEvent.click(await screen.findByTestId('side-menu-button'));
    const menu = screen.getByRole('dialog', { name: 'Side menu' });
    expect(within(menu).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(within(menu).queryByRole('link', { name: 'Admin' })).toBeNull();
    expect(within(menu).getByRole('link', { name: 'LLM Chat' })).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Sign Up' })).toBeInTheDocument();
  });
});

describe('theme toggle', () => {
  it('starts from the system preference, persists a toggle, and survives a reload', async () => {
    stubSystemTheme(true);
    startSignedOut();
    const first = renderApp('/user-guide');
    const toggle = await screen.findByTestId('theme-toggle');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(toggle).toHaveAccessibleName('Switch to light theme');
    await userEvent.click(toggle);
    expect(localStorage.getItem('theme')).toBe('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(document.querySelector('[data-amplify-color-mode]:not(html)')).toHaveAttribute('data-amplify-color-mode', 'light');

    // "Reload": unmount and mount again; the stored choice beats the dark system preference.
    first.unmount();
    renderApp('/user-guide');
    expect(await screen.findByTestId('theme-toggle')).toHaveAccessibleName('Switch to dark theme');
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('follows live system changes only while no choice is stored', async () => {
    const system = stubSystemTheme(false);
    startSignedOut();
    renderApp('/user-guide');
    await screen.findByTestId('theme-toggle');
    act(() => system.set(true));
    expect(document.documentElement.dataset.theme).toBe('dark');
    await userEvent.click(screen.getByTestId('theme-toggle'));
    act(() => system.set(true));
    expect(document.documentElement.dataset.theme).toBe('light');
  });
});

describe('user guide', () => {
  it('has 12 questions, a support mail link and a privacy-policy link', async () => {
    startSignedOut();
    renderApp('/user-guide');
    await screen.findByRole('heading', { name: 'User Guide', level: 1 });
    const faq = screen.getByRole('heading', { name: 'Frequently asked questions' }).parentElement!;
    expect(faq.querySelectorAll('details')).toHaveLength(12);
    expect(screen.getByRole('link', { name: 'support@aiwork.app' })).toHaveAttribute('href', 'mailto:support@aiwork.app');
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy-policy');
    expect(faq).toHaveTextContent('5 free prompts');
    expect(faq).toHaveTextContent('within 24 hours');
  });
});

describe('privacy policy and /prompts (both public)', () => {
  it("a visitor follows the user guide's privacy-policy link to the policy, not to sign in", async () => {
    startSignedOut();
    renderApp('/user-guide');
    await userEvent.click(await screen.findByRole('link', { name: 'privacy policy' }));
    expect(await screen.findByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/privacy-policy$/);
    const main = screen.getByRole('main');
    // What is stored, how long, who processes it, how to ask for deletion.
    for (const text of [
      'password is stored only as a one-way hash',
      'AES-256-GCM',
      'last 4 characters',
      "kept only in your browser's storage",
      'removed from it when you log out',
      'only usage counts',
      'We never see or store your card number',
      'Google Analytics',
      'confirm your address',
      'reset your password',
      'How long we keep it',
      'Amazon Web Services',
      'Stripe processes card payments',
      'The model providers you pick',
      'The MCP servers you connect to',
    ]) {
      expect(main).toHaveTextContent(text);
    }
    const mail = within(main).getAllByRole('link', { name: 'privacy@aiwork.app' });
    expect(mail[0]).toHaveAttribute('href', 'mailto:privacy@aiwork.app');
    expect(main).toHaveTextContent(/delete your account/);
  });

  it('a signed-in user sees the policy too, not "Page not found"', async () => {
    startSignedIn();
    renderApp('/privacy-policy');
    expect(await screen.findByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Page not found')).toBeNull();
    expect(document.title).toBe('Privacy Policy · AIWork');
  });

  it.each([
    ['a visitor', startSignedOut],
    ['a signed-in user', () => void startSignedIn()],
  ])('/prompts takes %s to the marketplace, keeping the query', async (_who, start) => {
    start();
    renderApp('/prompts?filter=purchased');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/marketplace\?filter=purchased$/));
    expect(await screen.findByRole('heading', { name: 'Prompt Marketplace', level: 1 })).toBeInTheDocument();
  });
});

describe('toasts and navigation', () => {
  it("a page's error toasts do not follow the user to the next page; other toasts do", async () => {
    startSignedOut();
    renderApp('/user-guide');
    await screen.findByRole('heading', { name: 'User Guide', level: 1 });
    act(() => {
      toast.error('Failed to copy to clipboard');
      toast.success('Prompt copied to clipboard!');
    });
    const toasts = screen.getByRole('region', { name: 'Notifications' });
    expect(toasts).toHaveTextContent('Failed to copy to clipboard');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(nav).getByRole('link', { name: 'Prompt Marketplace' }));
    await screen.findByRole('heading', { name: 'Prompt Marketplace', level: 1 });
    expect(toasts).not.toHaveTextContent('Failed to copy to clipboard');
    expect(toasts).toHaveTextContent('Prompt copied to clipboard!');
    // (A success shown alongside a redirect stays too: login-page.test.tsx, register-page.test.tsx.)
  });
});
