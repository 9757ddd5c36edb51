import type { ReactNode } from 'react';
import type { CardRow } from '@wv/contracts';
import { formatDateTime } from '@/lib/dates';
import { useTranslation } from '@/lib/i18n';
import { Card } from '@/components/ui/card';
import { Loading } from '@/components/ui/loading';
import { SelectField, toOptions } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { useCardSummary } from '../api/get-card-summary';
import { useMachineCards } from '../api/get-machine-cards';
import { useLiveCards } from '../hooks/use-live-cards';
import { CardListSync } from './card-list-sync';
import { CardPanel } from './card-panel';
import { CardStatusBadge } from './card-status-badge';
import { fetchFailure } from './fetch-failure';
import { useCardSelection } from './use-card-selection';

interface RegisteredCardsProps {
  machineId: string | null;
  onMachineChange: (machineId: string | null) => void;
  /** Managers and admins set daily limits; block, unblock and replace are everyone's who sees the card. */
  canSetLimit?: boolean;
  /** Actions of the selected card that the route composes in (the M-Pesa top-up). */
  cardActions?: (card: CardRow) => ReactNode;
}

/**
 * Registered Cards for Machine (docs/web-app.md, "Screens"): selecting a machine loads its cards; a card
 * click selects it and loads its transactions; clicking the same card again deselects it. Each card shows its
 * status; the selected one can be blocked, unblocked, replaced and limited, and the machine's card list shows
 * whether it caught up.
 */
export function RegisteredCards({ machineId, onMachineChange, canSetLimit = true, cardActions }: RegisteredCardsProps) {
  const { t } = useTranslation();
  const summary = useCardSummary();
  const cards = useMachineCards(machineId);
  const selection = useCardSelection();
  useLiveCards(machineId);
  const machines = Object.keys(summary.data ?? {}).sort((a, b) => a.localeCompare(b));
  const selectedCard = cards.data?.find((card) => card.card_id === selection.selected) ?? null;

  return (
    <div className="stack">
      <div className="toolbar">
        <SelectField
          label={t('cardScreens.registered.machine')}
          className="field-inline"
          placeholder={
            machines.length ? t('cardScreens.registered.chooseMachine') : t('cardScreens.registered.noMachines')
          }
          options={toOptions(machineId && !machines.includes(machineId) ? [machineId, ...machines] : machines)}
          value={machineId ?? ''}
          onChange={(event) => {
            selection.clear();
            onMachineChange(event.target.value || null);
          }}
        />
      </div>
      {machineId && (
        <Card title={t('cardScreens.registered.title', { machineId })}>
          <CardListSync espId={machineId} />
          {cards.isPending ? (
            <Loading />
          ) : cards.isError ? (
            <StatusMessage tone="error">{fetchFailure(cards.error, 'machine details', t)}</StatusMessage>
          ) : cards.data.length === 0 ? (
            <p className="empty">{t('cardScreens.registered.empty')}</p>
          ) : (
            <ul className="card-grid" aria-label={t('cardScreens.registered.list')}>
              {cards.data.map((card) => (
                <li key={card.card_id}>
                  <CardTile
                    card={card}
                    selected={card.card_id === selection.selected}
                    onToggle={() => selection.toggle(card.card_id)}
                  />
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
      {selectedCard && (
        <CardPanel
          key={selectedCard.card_id}
          card={selectedCard}
          canTopUp={false}
          canSetLimit={canSetLimit}
          notice={selection.notice}
          onNotice={selection.setNotice}
          onReplaced={selection.replaced}
          extraActions={cardActions?.(selectedCard)}
        />
      )}
    </div>
  );
}

function CardTile({ card, selected, onToggle }: { card: CardRow; selected: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="card-tile" aria-pressed={selected} onClick={onToggle}>
      <span className="card-tile-row card-tile-head">
        <span>
          <span className="tile-label">{t('cardScreens.registered.cardId')}</span>{' '}
          <span className="card-tile-id">{card.card_id}</span>
        </span>
        <CardStatusBadge status={card.status} />
      </span>
      <span className="card-tile-row">
        <span className="tile-label">{t('cardScreens.registered.name')}</span> {card.card_holder_first_name}{' '}
        {card.card_holder_last_name}
      </span>
      <span className="card-tile-row">
        <span className="tile-label">{t('cardScreens.registered.mobile')}</span>{' '}
        {card.phoneNumber ?? t('cardScreens.registered.notAvailable')}
      </span>
      <span className="card-tile-row">
        <span className="tile-label">{t('cardScreens.registered.registered')}</span>{' '}
        {formatDateTime(card.date_registered)}
      </span>
    </button>
  );
}
