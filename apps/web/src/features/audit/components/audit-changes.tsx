import { useTranslation } from '@/lib/i18n';
import { isKnownField } from '../audit-labels';

/** Before and after of an audited change, as the fields that differ. */
function show(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function AuditChanges({ before, after }: { before: unknown; after: unknown }) {
  const { t } = useTranslation();
  if (isRecord(before) || isRecord(after)) {
    const from = isRecord(before) ? before : {};
    const to = isRecord(after) ? after : {};
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter(
      (key) => JSON.stringify(from[key]) !== JSON.stringify(to[key]),
    );
    if (!keys.length) return <span className="muted">{t('audit.noChange')}</span>;
    return (
      <ul className="plain-list changes">
        {keys.map((key) => (
          <li key={key}>
            {/* Common fields in plain words; other field names and all values are data, shown as stored. */}
            {isKnownField(key) ? (
              <span className="change-key" title={key}>
                {t(`audit.field.${key}`)}
              </span>
            ) : (
              <span className="change-key" translate="no">
                {key}
              </span>
            )}
            : {/* A field that did not exist before (a creation) shows only its value. */}
            {key in from && from[key] !== null && (
              <>
                <span className="change-before" translate="no">
                  {show(from[key])}
                </span>{' '}
                →{' '}
              </>
            )}
            {key in to ? (
              <span className="change-after" translate="no">
                {show(to[key])}
              </span>
            ) : (
              <span className="change-after">{t('audit.removed')}</span>
            )}
          </li>
        ))}
      </ul>
    );
  }
  if (before === null && after === null) return <span className="muted">—</span>;
  return (
    <span>
      <span className="change-before" translate="no">
        {show(before)}
      </span>{' '}
      →{' '}
      <span className="change-after" translate="no">
        {show(after)}
      </span>
    </span>
  );
}
