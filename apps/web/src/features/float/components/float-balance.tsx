import { formatMoney } from '@/lib/format';
import { useFloatBalance } from '../api/get-float-balance';

/** The attendant's float balance: what card loads and top-ups may still spend. */
export function FloatBalance() {
  const balance = useFloatBalance();
  return (
    <div className="balance" aria-live="polite">
      <span className="balance-label">Float balance</span>
      <span className="balance-value">
        {balance.data ? formatMoney(balance.data.balance) : balance.isError ? 'Not available' : 'Loading...'}
      </span>
    </div>
  );
}
