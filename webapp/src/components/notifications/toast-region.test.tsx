import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastRegion } from './toast-region';
import { clearNotificationsForTests, toast } from './notification-store';

afterEach(() => act(() => clearNotificationsForTests()));

describe('ToastRegion', () => {
  it('renders errors as alerts and other kinds as status, and can be dismissed', async () => {
    render(<ToastRegion />);
    act(() => {
      toast.error('Login failed');
      toast.success('Login successful!');
    });
    // A named region landmark (axe: no aria-label on a role-less div).
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region).toBe(screen.getByTestId('toasts'));
    expect(region).toContainElement(screen.getByRole('alert'));
    expect(screen.getByRole('alert')).toHaveTextContent('Login failed');
    expect(screen.getByRole('status')).toHaveTextContent('Login successful!');

    const [firstClose] = screen.getAllByRole('button', { name: 'Dismiss notification' });
    await userEvent.click(firstClose);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status')).toBeInTheDocument();
  });

  it('shows an action button that runs its action and closes the toast', async () => {
    render(<ToastRegion />);
    const onClick = vi.fn();
    act(() => {
      toast.error('Please confirm your email address to use free prompts.', { action: { label: 'Resend email', onClick } });
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Please confirm your email address to use free prompts.');
    await userEvent.click(screen.getByRole('button', { name: 'Resend email' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('ToastRegion limits', () => {
  it('shows at most three toasts, never the same text twice', () => {
    render(<ToastRegion />);
    act(() => {
      toast.error('Failed to copy to clipboard');
      toast.error('Failed to copy to clipboard');
      toast.success('Copied');
      toast.info('Using prompt for free...');
      toast.success('Login successful!');
    });
    const shown = screen.getByRole('region', { name: 'Notifications' }).querySelectorAll('.toast');
    expect([...shown].map((t) => t.querySelector('.toast__message')?.textContent)).toEqual(['Copied', 'Using prompt for free...', 'Login successful!']);
  });
});
