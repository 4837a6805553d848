import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal';

function Stack() {
  const [outer, setOuter] = useState(true);
  const [inner, setInner] = useState(false);
  return (
    <>
      <button type="button">page</button>
      {outer ? (
        <Modal labelledBy="outer-title" onClose={() => setOuter(false)}>
          <h2 id="outer-title">Outer</h2>
          <button type="button" onClick={() => setInner(true)}>
            Open inner
          </button>
          <button type="button">Outer last</button>
        </Modal>
      ) : null}
      {inner ? (
        <Modal labelledBy="inner-title" onClose={() => setInner(false)}>
          <h2 id="inner-title">Inner</h2>
          <button type="button">Inner only</button>
        </Modal>
      ) : null}
    </>
  );
}

describe('Modal', () => {
  it('Escape closes only the innermost of stacked dialogs, then the next', async () => {
    const user = userEvent.setup();
    render(<Stack />);
    await user.click(screen.getByRole('button', { name: 'Open inner' }));
    expect(screen.getByRole('dialog', { name: 'Inner' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Inner' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Outer' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open inner' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Tab stays inside the innermost dialog', async () => {
    const user = userEvent.setup();
    render(<Stack />);
    await user.click(screen.getByRole('button', { name: 'Open inner' }));
    await user.tab();
    expect(screen.getByRole('button', { name: 'Inner only' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Inner only' })).toHaveFocus();
  });
});
