import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { FloatRequestedEvent } from '@wv/contracts';
import { useLiveStatus } from '@/lib/live';
import { formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { useLiveAttendantFloat, useLiveManagerFloat } from '../hooks/use-live-float';

const MAX_NOTICES = 3;

/**
 * Mounted on every page of a signed-in manager: keeps the pending float requests current and shows a
 * notice when an attendant asks for float, except on Float Approval itself, which lists it.
 */
export function ManagerFloatLive({ approvalHref }: { approvalHref: string }) {
  const { t } = useTranslation();
  const [notices, setNotices] = useState<FloatRequestedEvent[]>([]);
  const { pathname } = useLocation();
  const status = useLiveStatus();
  const onApproval = pathname === approvalHref;

  useLiveManagerFloat((event) => {
    if (!onApproval) setNotices((list) => [event, ...list].slice(0, MAX_NOTICES));
  });

  const dismiss = (requestId: string) => setNotices((list) => list.filter((n) => n.requestId !== requestId));
  const shown = onApproval ? [] : notices;

  return (
    <div className="notices" aria-live="polite" data-live={status}>
      {shown.map((notice) => (
        <div key={notice.requestId} className="notice" role="status" aria-label={t('float.notice.label')}>
          <p className="notice-text">
            <strong>{t('float.notice.title')}</strong>{' '}
            {t('float.notice.text', { name: notice.attendantName, amount: formatMoney(notice.requestedAmount) })}
          </p>
          <div className="notice-actions">
            <Link className="btn btn-primary btn-sm" to={approvalHref} onClick={() => setNotices([])}>
              {t('float.notice.review')}
            </Link>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => dismiss(notice.requestId)}>
              {t('float.notice.dismiss')}
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}

/** Mounted on every page of a signed-in attendant: float decisions show wherever they are looking. */
export function AttendantFloatLive() {
  useLiveAttendantFloat();
  return null;
}
