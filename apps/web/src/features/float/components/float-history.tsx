import { errorDetail } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/format';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useAttendantFloatRequests } from '../api/get-attendant-float-requests';

/**
 * 'Float Request History': Requested Amount, Approved Amount (or N/A), Status,
 * Requested At, Approved At (or N/A); newest first. Kept live by `float.updated`.
 */
export function FloatHistory() {
  const requests = useAttendantFloatRequests();
  if (requests.isPending) return <Loading />;
  if (requests.isError)
    return <StatusMessage tone="error">Error fetching float requests: {errorDetail(requests.error)}</StatusMessage>;
  if (!requests.data.length) return <p className="empty">No float requests found.</p>;

  const rows = [...requests.data].sort((a, b) => Date.parse(b.requestedAt) - Date.parse(a.requestedAt));
  return (
    <div className="table-wrap">
      <table className="table table-stack">
        <caption className="visually-hidden">Float Request History</caption>
        <thead>
          <tr>
            <th scope="col">Requested Amount</th>
            <th scope="col">Approved Amount</th>
            <th scope="col">Status</th>
            <th scope="col">Requested At</th>
            <th scope="col">Approved At</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.requestId}>
              <td data-label="Requested Amount">{formatMoney(row.requestedAmount)}</td>
              <td data-label="Approved Amount">
                {row.approvedAmount === null ? 'N/A' : formatMoney(row.approvedAmount)}
              </td>
              <td data-label="Status">
                <span className={`badge badge-status-${row.status}`}>{row.status}</span>
              </td>
              <td data-label="Requested At">{formatDateTime(row.requestedAt)}</td>
              <td data-label="Approved At">{row.approvedAt ? formatDateTime(row.approvedAt) : 'N/A'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
