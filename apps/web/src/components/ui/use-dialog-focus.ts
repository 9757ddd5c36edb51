import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled)';

/**
 * A modal dialog's keyboard focus (docs/web-app.md, "Behaviour"): on open, focus moves to its first
 * button; Tab and Shift+Tab cycle through its controls and never leave it; Escape calls `onEscape` when
 * given; on close, focus returns to where it was.
 */
export function useDialogFocus(dialog: RefObject<HTMLElement | null>, onEscape?: () => void): void {
  const latestEscape = useRef(onEscape);
  latestEscape.current = onEscape;

  useEffect(() => {
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.querySelector<HTMLElement>('button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') latestEscape.current?.();
      if (event.key !== 'Tab' || !dialog.current) return;
      // Every control, so that a dialog holding fields (a choice before confirming) keeps them reachable.
      const controls = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (controls.length === 0) return;
      const [first, last] = [controls[0], controls[controls.length - 1]];
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
      if (returnTo?.isConnected) returnTo.focus();
    };
  }, [dialog]);
}
