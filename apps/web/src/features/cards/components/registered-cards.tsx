import { useState } from 'react';
import type { CardRow } from '@wv/contracts';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/format';
import { Card } from '@/components/ui/card';
import { DetailList } from '@/components/ui/detail-list';
import { Loading } from '@/components/ui/loading';
import { SelectField, toOptions } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { useCardSummary } from '../api/get-card-summary';
import { useMachineCards } from '../api/get-machine-cards';
import { CardHistory } from './card-history';
import { fetchFailure } from './fetch-failure';

interface RegisteredCardsProps {
  machineId: string | null;
  onMachineChange: (machineId: string | null) => void;
}

/**
 * Registered Cards for Machine (docs/web-app.md, "Screens"): selecting a machine loads its cards; a card
 * click selects it and loads its transactions; clicking the same card again deselects it.
 */
export function RegisteredCards({ machineId, onMachineChange }: RegisteredCardsProps) {
  const summary = useCardSummary();
  const cards = useMachineCards(machineId);
  const [selected, setSelected] = useState<string | null>(null);
  const machines = Object.keys(summary.data ?? {}).sort((a, b) => a.localeCompare(b));
  const selectedCard = cards.data?.find((card) => card.card_id === selected) ?? null;

  return (
    <div className="stack">
      <div className="toolbar">
        <SelectField
          label="Machine"
          className="field-inline"
          placeholder={machines.length ? 'Choose a machine' : 'No machines'}
          options={toOptions(machineId && !machines.includes(machineId) ? [machineId, ...machines] : machines)}
          value={machineId ?? ''}
          onChange={(event) => {
            setSelected(null);
            onMachineChange(event.target.value || null);
          }}
        />
      </div>
      {machineId && (
        <Card title={`Registered Cards for Machine ${machineId}`}>
          {cards.isPending ? (
            <Loading />
          ) : cards.isError ? (
            <StatusMessage tone="error">{fetchFailure(cards.error, 'machine details')}</StatusMessage>
          ) : cards.data.length === 0 ? (
            <p className="empty">No registered cards found.</p>
          ) : (
            <ul className="card-grid" aria-label="Registered cards">
              {cards.data.map((card) => (
                <li key={card.card_id}>
                  <CardTile
                    card={card}
                    selected={card.card_id === selected}
                    onToggle={() => setSelected((current) => (current === card.card_id ? null : card.card_id))}
                  />
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
      {selectedCard && <SelectedCard card={selectedCard} />}
    </div>
  );
}

function CardTile({ card, selected, onToggle }: { card: CardRow; selected: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="card-tile" aria-pressed={selected} onClick={onToggle}>
      <span className="card-tile-row">
        <span className="tile-label">Card ID</span> <span className="card-tile-id">{card.card_id}</span>
      </span>
      <span className="card-tile-row">
        <span className="tile-label">Name</span> {card.card_holder_first_name} {card.card_holder_last_name}
      </span>
      <span className="card-tile-row">
        <span className="tile-label">Mobile No</span> {card.phoneNumber ?? 'N/A'}
      </span>
      <span className="card-tile-row">
        <span className="tile-label">Date Registered</span> {formatDateTime(card.date_registered)}
      </span>
    </button>
  );
}

function SelectedCard({ card }: { card: CardRow }) {
  return (
    <Card title={`Card ${card.card_id}`} className="selected-card">
      <div className="stack">
        <DetailList
          items={[
            { label: 'Card ID', value: card.card_id },
            { label: 'Name', value: `${card.card_holder_first_name} ${card.card_holder_last_name}` },
            { label: 'Mobile No', value: card.phoneNumber },
            { label: 'Balance', value: formatMoney(card.card_balance) },
            { label: 'Card Type', value: card.card_type },
            { label: 'Date Registered', value: formatDateTime(card.date_registered) },
          ]}
        />
        <CardHistory cardId={card.card_id} />
      </div>
    </Card>
  );
}
