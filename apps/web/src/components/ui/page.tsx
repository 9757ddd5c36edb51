import { useEffect, type ReactNode } from 'react';

interface PageProps {
  title: string;
  /** A line under the heading. */
  lead?: ReactNode;
  /** Buttons beside the heading. */
  actions?: ReactNode;
  narrow?: boolean;
  children?: ReactNode;
}

export function Page({ title, lead, actions, narrow = false, children }: PageProps) {
  useEffect(() => {
    document.title = `${title} · Water Vending Solutions`;
  }, [title]);
  return (
    <section className={narrow ? 'page page-narrow' : 'page'} aria-labelledby="page-title">
      <header className="page-header">
        <div>
          <h1 id="page-title">{title}</h1>
          {lead && <p className="page-lead">{lead}</p>}
        </div>
        {actions && <div className="actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}
