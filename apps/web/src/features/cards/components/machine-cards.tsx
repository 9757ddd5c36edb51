import { useState, type ReactNode } from 'react';
import type { CardRow } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { formatMoney } from '@/lib/format';
import { Card } from '@/components/ui/card';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useMachineCards } from '../api/get-machine-cards';
import { useLiveCards } from '../hooks/use-live-cards';
import { CardListSync } from './card-list-sync';
import { CardPanel, DailyLimit } from './card-panel';
import { CardStatusBadge } from './card-status-badge';
import { useCardSelection } from './use-card-selection';

interface MachineCardsProps {
  espId: string;
  canTopUp: boolean;
  canSetLimit: boolean;
  /** Actions of the selected card that the route composes in (the M-Pesa top-up). */
  cardActions?: (card: CardRow) => ReactNode;
}

const matches = (card: CardRow, text: string) =>
  `${card.card_id} ${card.card_holder_first_name} ${card.card_holder_last_name}`.toLowerCase().includes(text);

/**
 * The cards of one machine as a table (docs/web-app.md, "My Cards"): balance, status and daily limit, whether the
 * machine's list caught up, and the selected card with what may be done with it.
 */
export function MachineCards({ espId, canTopUp, canSetLimit, cardActions }: MachineCardsProps) {
  const { t } = useTranslation();
  const cards = useMachineCards(espId);
  const selection = useCardSelection();
  const [filter, setFilter] = useState('');
  useLiveCards(espId);

  const text = filter.trim().toLowerCase();
  const shown = (cards.data ?? []).filter((card) => !text || matches(card, text));
  const selectedCard = cards.data?.find((card) => card.card_id === selection.selected) ?? null;

  return (
    <div className="stack">
      <Card title={t('cards.machineTitle', { machineId: espId })}>
        <div className="stack">
          <CardListSync espId={espId} />
          {cards.isPending ? (
            <Loading />
          ) : cards.isError ? (
            <StatusMessage tone="error">{t('cards.loadError', { detail: errorDetail(cards.error) })}</StatusMessage>
          ) : cards.data.length === 0 ? (
            <p className="empty">{t('cards.empty')}</p>
          ) : (
            <>
              <TextField
                label={t('cards.find')}
                type="search"
                placeholder={t('cards.findPlaceholder')}
                autoComplete="off"
                className="field-inline card-find"
                value={filter}
                onChange={(event) => setFilter(event.target.value)}
              />
              {shown.length === 0 ? (
                <p className="empty">{t('cards.noMatch', { text: filter.trim() })}</p>
              ) : (
                <CardTable cards={shown} selected={selection.selected} onToggle={selection.toggle} />
              )}
            </>
          )}
        </div>
      </Card>
      {selectedCard && (
        <CardPanel
          key={selectedCard.card_id}
          card={selectedCard}
          canTopUp={canTopUp}
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

interface CardTableProps {
  cards: CardRow[];
  selected: string | null;
  onToggle: (cardId: string) => void;
}

function CardTable({ cards, selected, onToggle }: CardTableProps) {
  const { t } = useTranslation();
  return (
    <div className="table-wrap">
      <table className="table table-stack card-table">
        <caption className="visually-hidden">{t('cards.list')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('cards.column.cardId')}</th>
            <th scope="col">{t('cards.column.name')}</th>
            <th scope="col" className="num">
              {t('cards.column.balance')}
            </th>
            <th scope="col">{t('cards.column.status')}</th>
            <th scope="col">{t('cards.column.dailyLimit')}</th>
          </tr>
        </thead>
        <tbody>
          {cards.map((card) => (
            <tr key={card.card_id} className={card.card_id === selected ? 'row-selected' : undefined}>
              <td data-label={t('cards.column.cardId')} className="cell-id">
                <button
                  type="button"
                  className="link-button"
                  aria-pressed={card.card_id === selected}
                  onClick={() => onToggle(card.card_id)}
                >
                  {card.card_id}
                </button>
              </td>
              <td data-label={t('cards.column.name')}>
                {card.card_holder_first_name} {card.card_holder_last_name}
              </td>
              <td data-label={t('cards.column.balance')} className="num">
                {formatMoney(card.card_balance)}
              </td>
              <td data-label={t('cards.column.status')}>
                <CardStatusBadge status={card.status} />
              </td>
              <td data-label={t('cards.column.dailyLimit')}>
                <DailyLimit litres={card.dailyLimitLitres} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
