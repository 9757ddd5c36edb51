import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { useCardListSync } from '../api/get-card-list-sync';

/**
 * Whether a machine holds the newest list of its cards (docs/device-protocol.md, "Card lists": the machine
 * acknowledges each version it holds). Asked again every few seconds, sooner after a change made here.
 */
export function CardListSync({ espId }: { espId: string }) {
  const { t } = useTranslation();
  const sync = useCardListSync(espId);

  let state: 'unknown' | 'none' | 'applied' | 'pending' = 'unknown';
  let text = sync.isError ? t('cards.sync.error', { detail: errorDetail(sync.error) }) : t('cards.sync.checking');
  if (sync.data) {
    const { cardListVersion: version, cardListAckedVersion: acked } = sync.data;
    if (version === 0) [state, text] = ['none', t('cards.sync.none')];
    else if (acked >= version) [state, text] = ['applied', t('cards.sync.upToDate', { version })];
    else [state, text] = ['pending', t('cards.sync.waiting', { version, acked })];
  }
  const tone = state === 'applied' ? 'config-applied' : state === 'pending' ? 'config-pending' : 'config-unknown';
  return (
    <div className="card-list-sync stack-sm">
      <p className={`config-status ${tone}`} aria-live="polite" data-state={state}>
        {text}
      </p>
      <p className="muted small">{t('cards.sync.hint')}</p>
    </div>
  );
}
