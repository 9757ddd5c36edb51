import { formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { useFloatBalance } from '../api/get-float-balance';

/** The attendant's float balance: what card loads and top-ups may still spend. */
export function FloatBalance() {
  const { t } = useTranslation();
  const balance = useFloatBalance();
  return (
    <div className="balance" aria-live="polite">
      <span className="balance-label">{t('float.balance')}</span>
      <span className="balance-value">
        {balance.data
          ? formatMoney(balance.data.balance)
          : balance.isError
            ? t('float.notAvailable')
            : t('common.loading')}
      </span>
    </div>
  );
}
