import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FIRST_RENDERED, RENDER_STEP, useRenderedCount } from './use-rendered-count';

function List({ total }: { total: number }) {
  const shown = useRenderedCount(total);
  return (
    <ul>
      {Array.from({ length: shown }, (_, i) => (
        <li key={i}>item {i}</li>
      ))}
    </ul>
  );
}

describe('useRenderedCount', () => {
  it('renders a short list at once', () => {
    render(<List total={4} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
  });

  it('renders the first items at once and the rest in steps until all are there', async () => {
    const total = FIRST_RENDERED + 2 * RENDER_STEP + 1;
    render(<List total={total} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(FIRST_RENDERED);
    expect(await screen.findByText(`item ${total - 1}`)).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(total);
  });

  it('never goes back: a later, longer list renders at once up to what was reached', async () => {
    const { rerender } = render(<List total={FIRST_RENDERED + RENDER_STEP} />);
    expect(await screen.findByText(`item ${FIRST_RENDERED + RENDER_STEP - 1}`)).toBeInTheDocument();
    rerender(<List total={2} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    act(() => rerender(<List total={FIRST_RENDERED + RENDER_STEP} />));
    expect(screen.getAllByRole('listitem')).toHaveLength(FIRST_RENDERED + RENDER_STEP);
  });
});
