import { paths } from '@/config/paths';
import { Page } from '@/components/ui/page';
import { useTranslation } from '@/lib/i18n';
import { CardSummaryTiles } from '@/features/cards/components/card-summary-tiles';

/** Card Information Summary (/manager/card/info/summary): a tile opens the machine's registered cards. */
export function CardSummaryRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('roleScreens.cardSummaryTitle')} lead={t('roleScreens.cardSummaryLead')}>
      <CardSummaryTiles cardsHref={paths.manager.cardInfo.getHref} />
    </Page>
  );
}
