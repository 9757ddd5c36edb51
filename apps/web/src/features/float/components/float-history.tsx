import { errorDetail } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useAttendantFloatRequests } from '../api/get-attendant-float-requests';

/**
 * 'Float Request History': Requested Amount, Approved Amount (or N/A), Status,
 * Requested At, Approved At (or N/A); newest first. Kept live by `float.updated`.
 */
export function FloatHistory() {
  const { t } = useTranslation();
  const requests = useAttendantFloatRequests();
  if (requests.isPending) return <Loading />;
  if (requests.isError)
    return (
      <StatusMessage tone="error">
        {t('float.history.loadError', { detail: errorDetail(requests.error) })}
      </StatusMessage>
    );
  if (!requests.data.length) return <p className="empty">{t('float.history.empty')}</p>;
  const column = {
    requestedAmount: t('float.history.requestedAmount'),
    approvedAmount: t('float.history.approvedAmount'),
    status: t('float.history.status'),
    requestedAt: t('float.history.requestedAt'),
    approvedAt: t('float.history.approvedAt'),
  };

  const rows = [...requests.data].sort((a, b) => Date.parse(b.requestedAt) - Date.parse(a.requestedAt));
  return (
    <div className="table-wrap">
      <table className="table table-stack">
        <caption className="visually-hidden">{t('float.history.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{column.requestedAmount}</th>
            <th scope="col">{column.approvedAmount}</th>
            <th scope="col">{column.status}</th>
            <th scope="col">{column.requestedAt}</th>
            <th scope="col">{column.approvedAt}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.requestId}>
              <td data-label={column.requestedAmount}>{formatMoney(row.requestedAmount)}</td>
              <td data-label={column.approvedAmount}>
                {row.approvedAmount === null ? t('float.history.na') : formatMoney(row.approvedAmount)}
              </td>
              <td data-label={column.status}>
                <span className={`badge badge-status-${row.status}`}>{t(`float.history.state.${row.status}`)}</span>
              </td>
              <td data-label={column.requestedAt}>{formatDateTime(row.requestedAt)}</td>
              <td data-label={column.approvedAt}>
                {row.approvedAt ? formatDateTime(row.approvedAt) : t('float.history.na')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
