import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';

interface ExportMenuProps {
  onCurrentPage: () => Promise<void> | void;
  onEntireDataset: () => Promise<void>;
  disabled?: boolean;
}

/** 'Export Data' offers 'Current Page' or 'Entire Dataset'. */
export function ExportMenu({ onCurrentPage, onEntireDataset, disabled }: ExportMenuProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const run = async (action: () => Promise<void> | void) => {
    setOpen(false);
    setProblem(null);
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setProblem(t('transactions.export.failed', { detail: error instanceof Error ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="export-menu" ref={root}>
      <Button
        variant="secondary"
        aria-expanded={open}
        aria-controls={listId}
        busy={busy}
        disabled={disabled}
        onClick={() => setOpen((value) => !value)}
      >
        {t('transactions.export.button')}
      </Button>
      <ul id={listId} className="export-options" hidden={!open}>
        <li>
          <button type="button" className="export-option" onClick={() => void run(onCurrentPage)}>
            {t('transactions.export.currentPage')}
          </button>
        </li>
        <li>
          <button type="button" className="export-option" onClick={() => void run(onEntireDataset)}>
            {t('transactions.export.entireDataset')}
          </button>
        </li>
      </ul>
      {problem && (
        <p className="export-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
