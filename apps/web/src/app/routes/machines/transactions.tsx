import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { Page } from '@/components/ui/page';
import { TransactionsView } from '@/features/transactions/components/transactions-view';

const TITLES = { card: 'Card-Based Transactions', coin: 'Coin-Based Transactions' } as const;

/** /machine/{machineId}/card and /machine/{machineId}/coin (docs/web-app.md, "Routes"). */
export function TransactionsRoute({ kind }: { kind: 'card' | 'coin' }) {
  const machineId = useParams().machineId ?? '';
  const other = kind === 'card' ? 'coin' : 'card';
  const otherHref = (other === 'card' ? paths.manager.machineCard : paths.manager.machineCoin).getHref(machineId);
  return (
    <Page
      title={TITLES[kind]}
      lead={`Machine ${machineId}`}
      actions={
        <Link className="btn btn-ghost" to={otherHref}>
          {other === 'card' ? 'Card-based transactions' : 'Coin-based transactions'}
        </Link>
      }
    >
      {/* A new machine or kind starts with fresh filters. */}
      <TransactionsView key={`${kind}-${machineId}`} kind={kind} machineId={machineId} />
    </Page>
  );
}
