import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Markdown } from './markdown';
import { clearNotificationsForTests, getNotifications } from './notifications/notification-store';

afterEach(() => {
  act(() => clearNotificationsForTests());
});

describe('Markdown', () => {
  it('renders <script> and other HTML as text, never as elements', () => {
    const { container } = render(<Markdown source={'<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">'} />);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(container.textContent).toContain('<img src=x onerror="alert(2)">');
  });

  it('javascript: links are not links; http(s) links open in a new tab with noopener noreferrer', () => {
    const { container } = render(<Markdown source={'[bad](javascript:alert(1)) [good](https://example.com/x) http://plain.example'} />);
    const links = container.querySelectorAll('a');
    expect(links).toHaveLength(2);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
      expect(a.getAttribute('href')).toMatch(/^https?:\/\//);
    }
    expect(screen.getByRole('link', { name: 'good' })).toHaveAttribute('href', 'https://example.com/x');
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(container.textContent).toContain('bad');
  });

  it('renders headings, lists, quotes, rules, bold, italic and inline code', () => {
    const { container } = render(<Markdown source={'## Title\n\n- **b** *i* `c`\n\n1. one\n\n> q\n\n---'} />);
    expect(screen.getByRole('heading', { level: 2, name: 'Title' })).toBeInTheDocument();
    expect(container.querySelector('ul li strong')).toHaveTextContent('b');
    expect(container.querySelector('ul li em')).toHaveTextContent('i');
    expect(container.querySelector('ul li code')).toHaveTextContent('c');
    expect(container.querySelector('ol li')).toHaveTextContent('one');
    expect(container.querySelector('blockquote')).toHaveTextContent('q');
    expect(container.querySelector('hr')).not.toBeNull();
  });

  it('code blocks show the language and copy their text', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Markdown source={'```js\nconst x = 1;\n```'} />);
    expect(screen.getByTestId('code-block')).toHaveTextContent('js');
    await userEvent.click(screen.getByRole('button', { name: 'Copy js code' }));
    expect(writeText).toHaveBeenCalledWith('const x = 1;');
    expect(getNotifications().map((n) => [n.message, n.duration])).toEqual([['Code copied to clipboard!', 2000]]);
  });

  it('a refused copy says so', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('no')) }, configurable: true });
    render(<Markdown source={'```\nx\n```'} />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(getNotifications().map((n) => n.message)).toEqual(['Failed to copy code']);
  });
});
