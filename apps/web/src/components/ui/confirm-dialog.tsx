import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button';

const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled)';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  /** The confirm button's look: `danger` (the default) for what cannot simply be undone. */
  confirmVariant?: 'danger' | 'primary';
}

/**
 * Asks before an action that cannot simply be undone (blocking or replacing a card). A modal dialog named by
 * its title: Cancel has the focus first, so that Enter never confirms by accident; Escape and the backdrop
 * cancel; Tab stays inside while it is open.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy = false,
  confirmVariant = 'danger',
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const latestCancel = useRef(onCancel);
  latestCancel.current = onCancel;

  useEffect(() => {
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // Cancel comes first in the dialog.
    dialog.current?.querySelector('button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') latestCancel.current();
      if (event.key !== 'Tab' || !dialog.current) return;
      // Every control, so that a dialog holding fields (a choice before confirming) keeps them reachable.
      const buttons = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (buttons.length === 0) return;
      const [first, last] = [buttons[0], buttons[buttons.length - 1]];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      returnTo?.focus();
    };
  }, []);

  return (
    <div className="dialog-backdrop" onClick={() => !busy && onCancel()}>
      <div
        ref={dialog}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 className="dialog-title" id={titleId}>
          {title}
        </h2>
        <div className="dialog-text" id={textId}>
          {children}
        </div>
        <div className="actions actions-end">
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={confirmVariant} busy={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}
