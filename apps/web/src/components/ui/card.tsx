import { useId, type ReactNode } from 'react';

interface CardProps {
  title?: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A panel; with a title it is a region named by that title, so assistive technology can jump to it. */
export function Card({ title, actions, children, className }: CardProps) {
  const titleId = useId();
  return (
    <section className={['card', className].filter(Boolean).join(' ')} aria-labelledby={title ? titleId : undefined}>
      {(title || actions) && (
        <header className="card-header">
          {title && (
            <h2 className="card-title" id={titleId}>
              {title}
            </h2>
          )}
          {actions}
        </header>
      )}
      {children}
    </section>
  );
}
