import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { useDialogFocus } from './use-dialog-focus';

function Dialog({ onEscape }: { onEscape?: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogFocus(ref, onEscape);
  return (
    <div ref={ref} role="dialog" aria-label="Check">
      <button>First</button>
      <input aria-label="Amount" />
      <button>Last</button>
    </div>
  );
}

function Page({ onEscape }: { onEscape?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(!open)}>Toggle</button>
      {open && <Dialog onEscape={onEscape} />}
    </>
  );
}

describe('useDialogFocus', () => {
  it('focuses the first button, keeps Tab inside, calls Escape and gives focus back on close', async () => {
    const user = userEvent.setup();
    const onEscape = jest.fn();
    render(<Page onEscape={onEscape} />);
    const toggle = screen.getByRole('button', { name: 'Toggle' });
    await user.click(toggle);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'First' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Amount'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Last' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'First' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Last' }));
    await user.keyboard('{Escape}');
    expect(onEscape).toHaveBeenCalledTimes(1);
    toggle.focus();
    await user.click(toggle);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });
});
