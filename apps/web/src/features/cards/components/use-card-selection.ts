import { useState } from 'react';
import type { CardRow } from '@wv/contracts';
import { formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

/**
 * Which card is selected and what its last action did. Selecting the same card again deselects it
 * (docs/web-app.md, "Card selection"); a replacement moves the selection to the new card and says so.
 */
export function useCardSelection() {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return {
    selected,
    notice,
    setNotice,
    toggle: (cardId: string) => {
      setNotice(null);
      setSelected((current) => (current === cardId ? null : cardId));
    },
    clear: () => {
      setNotice(null);
      setSelected(null);
    },
    replaced: (created: CardRow) => {
      setSelected(created.card_id);
      setNotice(t('cards.replace.done', { newCardId: created.card_id, balance: formatMoney(created.card_balance) }));
    },
  };
}
