import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { Card } from '@/components/ui/card';
import { LiveIndicator } from '@/components/ui/live-indicator';
import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { StatusMessage } from '@/components/ui/status-message';
import { MachineCards } from '@/features/cards/components/machine-cards';
import { useMyDevices } from '@/features/devices/api/get-my-devices';
import { FloatBalance } from '@/features/float/components/float-balance';
import { MobileTopUpForm } from '@/features/payments/components/mobile-top-up-form';

/**
 * My Cards (/att/manager/cards, attendant; docs/web-app.md, "My Cards"): the cards of the attendant's machine with
 * their balances, status and history, top-ups from float or by M-Pesa, and blocking or replacing a lost card.
 */
export function AttendantCardsRoute() {
  const { t } = useTranslation();
  const devices = useMyDevices();
  const espId = devices.data?.[0]?.esp32Id ?? null;
  return (
    <Page
      title={t('cards.title')}
      lead={t('cards.lead')}
      actions={
        <>
          <LiveIndicator />
          <LanguageSelect />
        </>
      }
    >
      {devices.isPending ? (
        <Loading />
      ) : devices.isError ? (
        <StatusMessage tone="error">{t('cards.loadError', { detail: errorDetail(devices.error) })}</StatusMessage>
      ) : !espId ? (
        <p className="empty">{t('cards.noMachine')}</p>
      ) : (
        <div className="split">
          <MachineCards
            espId={espId}
            canTopUp
            canSetLimit={false}
            cardActions={(card) => <MobileTopUpForm key={card.card_id} cardId={card.card_id} />}
          />
          <div className="stack split-aside">
            <Card title={t('float.myFloat')}>
              <FloatBalance />
            </Card>
          </div>
        </div>
      )}
    </Page>
  );
}
