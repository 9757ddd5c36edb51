import { useId, useRef, type ReactNode } from 'react';
import { Button } from './button';
import { useDialogFocus } from './use-dialog-focus';

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
  // Cancel comes first in the dialog, and Escape cancels.
  useDialogFocus(dialog, onCancel);

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
