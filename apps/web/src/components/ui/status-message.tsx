import type { ReactNode } from 'react';

export type Tone = 'error' | 'success' | 'info';

interface StatusMessageProps {
  tone: Tone;
  children: ReactNode;
  /** A second, smaller line: the server's reason behind a fixed message. */
  detail?: string | null;
}

/** A result line under a form. Errors are announced at once (alert); the rest politely (status). */
export function StatusMessage({ tone, children, detail }: StatusMessageProps) {
  return (
    <div className={`status status-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <p className="status-text">{children}</p>
      {detail && <p className="status-detail">{detail}</p>}
    </div>
  );
}
