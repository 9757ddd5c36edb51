import { useSearchParams } from 'react-router';
import { Page } from '@/components/ui/page';
import { useTranslation } from '@/lib/i18n';
import { RegisteredCards } from '@/features/cards/components/registered-cards';
import { MobileTopUpForm } from '@/features/payments/components/mobile-top-up-form';

/** The Registered Cards panel (/manager/card/info); the machine is in the address (`?machineId=`). */
export function CardInfoRoute() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const machineId = search.get('machineId');
  return (
    <Page title={t('roleScreens.cardInfoTitle')} lead={t('roleScreens.cardInfoLead')}>
      <RegisteredCards
        key={machineId ?? ''}
        machineId={machineId}
        onMachineChange={(id) => setSearch(id ? { machineId: id } : {})}
        cardActions={(card) => <MobileTopUpForm key={card.card_id} cardId={card.card_id} />}
      />
    </Page>
  );
}
