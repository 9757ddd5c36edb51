import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { Page } from '@/components/ui/page';
import { useTranslation } from '@/lib/i18n';
import { TransactionsView } from '@/features/transactions/components/transactions-view';

const TITLES = { card: 'roleScreens.cardTransactions', coin: 'roleScreens.coinTransactions' } as const;

/** /machine/{machineId}/card and /machine/{machineId}/coin (docs/web-app.md, "Routes"). */
export function TransactionsRoute({ kind }: { kind: 'card' | 'coin' }) {
  const { t } = useTranslation();
  const machineId = useParams().machineId ?? '';
  const other = kind === 'card' ? 'coin' : 'card';
  const otherHref = (other === 'card' ? paths.manager.machineCard : paths.manager.machineCoin).getHref(machineId);
  return (
    <Page
      title={t(TITLES[kind])}
      lead={t('health.lead', { machineId })}
      actions={
        <Link className="btn btn-ghost" to={otherHref}>
          {other === 'card' ? t('transactions.captionCard') : t('transactions.captionCoin')}
        </Link>
      }
    >
      {/* A new machine or kind starts with fresh filters. */}
      <TransactionsView key={`${kind}-${machineId}`} kind={kind} machineId={machineId} />
    </Page>
  );
}
