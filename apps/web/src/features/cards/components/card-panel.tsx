import { useEffect, useRef, type ReactNode } from 'react';
import type { CardRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { formatDateTime } from '@/lib/dates';
import { formatMoney, formatNumber } from '@/lib/format';
import { Card } from '@/components/ui/card';
import { DetailList } from '@/components/ui/detail-list';
import { StatusMessage } from '@/components/ui/status-message';
import { BlockCardForm } from './block-card-form';
import { CardHistory } from './card-history';
import { CardLimitForm } from './card-limit-form';
import { CardStatusBadge } from './card-status-badge';
import { ReplaceCardForm } from './replace-card-form';
import { TopUpCardForm } from './top-up-card-form';

export interface CardPanelProps {
  card: CardRow;
  /** Attendants top up from their float; managers and admins set the daily limit. */
  canTopUp: boolean;
  canSetLimit: boolean;
  /** What the last action did, shown at the top of the panel. */
  notice: string | null;
  onNotice: (message: string) => void;
  onReplaced: (created: CardRow) => void;
  /** More actions the route composes in (the M-Pesa top-up of the payments feature). */
  extraActions?: ReactNode;
}

/**
 * A selected card (docs/web-app.md, "My Cards" and "Registered Cards"): its details with its status, what may be
 * done with it (top-up, daily limit, block or unblock, replace) and its Transaction History.
 */
export function CardPanel({ card, canTopUp, canSetLimit, notice, onNotice, onReplaced, extraActions }: CardPanelProps) {
  const { t } = useTranslation();
  const top = useRef<HTMLDivElement>(null);

  // On a phone the panel opens below the list: bring it into view.
  useEffect(() => {
    top.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [card.card_id]);

  return (
    <div ref={top} className="card-panel-anchor">
      <Card
        title={t('cards.cardTitle', { cardId: card.card_id })}
        className="selected-card"
        actions={<CardStatusBadge status={card.status} />}
      >
        <div className="stack">
          {notice && <StatusMessage tone="success">{notice}</StatusMessage>}
          <DetailList
            items={[
              { label: t('cards.column.cardId'), value: card.card_id },
              {
                label: t('cards.column.name'),
                value: `${card.card_holder_first_name} ${card.card_holder_last_name}`,
              },
              { label: t('cards.column.mobile'), value: card.phoneNumber },
              { label: t('cards.column.balance'), value: formatMoney(card.card_balance) },
              { label: t('cards.column.cardType'), value: card.card_type },
              { label: t('cards.column.registered'), value: formatDateTime(card.date_registered) },
              { label: t('cards.column.status'), value: <CardStatusBadge status={card.status} /> },
              { label: t('cards.column.dailyLimit'), value: <DailyLimit litres={card.dailyLimitLitres} /> },
            ]}
          />
          <div className="card-actions">
            {canTopUp && <TopUpCardForm card={card} onDone={onNotice} />}
            {extraActions}
            {canSetLimit && <CardLimitForm key={String(card.dailyLimitLitres)} card={card} onDone={onNotice} />}
            <BlockCardForm card={card} onDone={onNotice} />
            <ReplaceCardForm card={card} onReplaced={onReplaced} />
          </div>
          <CardHistory cardId={card.card_id} />
        </div>
      </Card>
    </div>
  );
}

/** A card's daily limit in words: "20 L a day", or "No limit". */
export function DailyLimit({ litres }: { litres: number | null }) {
  const { t } = useTranslation();
  return <>{litres === null ? t('cards.noLimit') : t('cards.litresPerDay', { litres: formatNumber(litres) })}</>;
}
