import type { ReactNode } from 'react';

export interface DetailItem {
  label: string;
  value: ReactNode;
}

/** Label/value pairs, e.g. a profile. Missing values show a dash rather than an empty cell. */
export function DetailList({ items }: { items: readonly DetailItem[] }) {
  return (
    <dl className="details">
      {items.map((item) => (
        <div className="details-row" key={item.label}>
          <dt>{item.label}</dt>
          <dd>{item.value === null || item.value === undefined || item.value === '' ? '—' : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
